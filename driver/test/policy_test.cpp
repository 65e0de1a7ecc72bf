// Binning-mode policy: every two-level condition and every invalidation (table-driven),
// hysteresis without flapping on noise, the dwell time, CSV replay with reasons, and malformed
// policy YAML and trace CSV reported with file, line, column and key.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>

#include "tessera/driver/error.hpp"
#include "tessera/driver/policy.hpp"
#include "test_seed.hpp"

using namespace tessera::driver;
using tessera::driver::test::test_rng;

namespace {

PerfSample sample(double t, double gpu, double cpu, double power = 5, double soc = 80, bool charging = false,
                  double clock = 600) {
  PerfSample s;
  s.time_s = t;
  s.temps_c = {{"gpu", gpu}, {"cpu", cpu}};
  s.power_w = power;
  s.soc_pct = soc;
  s.charging = charging;
  s.gpu_clock_mhz = clock;
  s.counters["gpu_busy_pct"] = 50;
  return s;
}

Trip above(double t, double h = 0) { return Trip{true, true, t, h}; }
Trip below(double t, double h = 0) { return Trip{true, false, t, h}; }

// Feed samples at 0.5 s for `seconds`, return the last decision.
Decision feed(BinningPolicy& p, double& t, double seconds, const std::function<PerfSample(double)>& f) {
  Decision d;
  for (double end = t + seconds; t < end; t += 0.5) d = p.update(f(t));
  return d;
}

bool has(const std::vector<std::string>& v, const std::string& prefix) {
  for (const auto& s : v)
    if (s.rfind(prefix, 0) == 0) return true;
  return false;
}

std::string temp_file(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("tessera_driver_test_" + name);
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace

// Every two-level binning condition of [0021]/[0032]/[0056], alone in its configuration.
// Catches: a condition that never trips, trips on the wrong metric or direction, is computed
// over the wrong statistic (a spike is a peak but not an average; a rising location is a local
// rate even when the average is flat), or decides without naming itself in the reason.
TEST(Policy, EveryTwoLevelCondition) {
  struct Case {
    const char* name;  // also the prefix of the reason entry
    std::function<void(PolicyConfig&)> enable;
    std::function<PerfSample(double)> cool, hot;
  };
  const std::vector<Case> cases = {
      {"avg_temp", [](PolicyConfig& c) { c.avg_temp = above(70); }, [](double t) { return sample(t, 60, 60); },
       [](double t) { return sample(t, 80, 78); }},
      {"avg_temp_rate", [](PolicyConfig& c) { c.avg_temp_rate = above(0.5); }, [](double t) { return sample(t, 60, 60); },
       [](double t) { return sample(t, 50 + 2 * t, 50 + 2 * t); }},
      {"local_temp.gpu", [](PolicyConfig& c) { c.local_temp = above(85); }, [](double t) { return sample(t, 70, 70); },
       [](double t) { return sample(t, 90, 40); }},  // average 65: only the location is hot
      {"local_temp.battery",
       [](PolicyConfig& c) {
         c.local_temp = above(85);
         c.local_temp_per_location["battery"] = 45;
       },
       [](double t) { auto s = sample(t, 70, 70); s.temps_c["battery"] = 40; return s; },
       [](double t) { auto s = sample(t, 70, 70); s.temps_c["battery"] = 50; return s; }},
      {"local_temp_rate.gpu", [](PolicyConfig& c) { c.local_temp_rate = above(1.0); },
       [](double t) { return sample(t, 60, 60); }, [](double t) { return sample(t, 40 + 3 * t, 100 - 3 * t); }},
      {"peak_power", [](PolicyConfig& c) { c.peak_power = above(9); }, [](double t) { return sample(t, 60, 60, 5); },
       [](double t) { return sample(t, 60, 60, std::fmod(t, 2.0) == 0 ? 12 : 5); }},
      {"avg_power", [](PolicyConfig& c) { c.avg_power = above(6); }, [](double t) { return sample(t, 60, 60, 5); },
       [](double t) { return sample(t, 60, 60, 8); }},
      {"avg_power_rate", [](PolicyConfig& c) { c.avg_power_rate = above(0.5); },
       [](double t) { return sample(t, 60, 60, 5); }, [](double t) { return sample(t, 60, 60, 2 * t); }},
      {"battery_soc", [](PolicyConfig& c) { c.battery_soc = below(20); }, [](double t) { return sample(t, 60, 60, 5, 50); },
       [](double t) { return sample(t, 60, 60, 5, 15); }},
      {"counter.gpu_busy_pct", [](PolicyConfig& c) { c.counters["gpu_busy_pct"] = above(95); },
       [](double t) { return sample(t, 60, 60); },
       [](double t) { auto s = sample(t, 60, 60); s.counters["gpu_busy_pct"] = 99; return s; }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    PolicyConfig cfg;
    cfg.window_s = 2.0;
    c.enable(cfg);
    BinningPolicy p(cfg);
    double t = 0;
    Decision d = feed(p, t, 4, c.cool);
    EXPECT_FALSE(d.two_level);
    EXPECT_NE(d.reason.find("no two-level binning condition holds"), std::string::npos) << d.reason;
    d = feed(p, t, 4, c.hot);
    EXPECT_TRUE(d.two_level) << d.reason;
    EXPECT_TRUE(has(d.conditions, c.name)) << d.reason;
    EXPECT_NE(d.reason.find(c.name), std::string::npos) << d.reason;
    EXPECT_EQ(d.conditions.size(), 1u) << d.reason;
    d = feed(p, t, 4, c.cool);
    EXPECT_FALSE(d.two_level) << d.reason;
    EXPECT_EQ(p.changes(), 2u);
  }
}

// Every invalidation condition of [0021]/[0033]: with a condition that always holds, the
// invalidation alone decides. Catches: an invalidation ignored, one that fires on the wrong
// side of its threshold, a reason that does not say what invalidated two-level binning.
TEST(Policy, EveryInvalidation) {
  struct Case {
    const char* name;
    std::function<void(PolicyConfig&)> enable;
    std::function<PerfSample(double)> normal, trigger;
  };
  const std::vector<Case> cases = {
      {"charging", [](PolicyConfig& c) { c.invalidate_charging = true; }, [](double t) { return sample(t, 60, 60); },
       [](double t) { return sample(t, 60, 60, 5, 50, true); }},
      {"avg_temp_below", [](PolicyConfig& c) { c.avg_temp_below = below(40); }, [](double t) { return sample(t, 60, 60); },
       [](double t) { return sample(t, 30, 32); }},
      {"avg_temp_rate_below", [](PolicyConfig& c) { c.avg_temp_rate_below = below(-1.0); },
       [](double t) { return sample(t, 60, 60); }, [](double t) { return sample(t, 90 - 3 * t, 90 - 3 * t); }},
      {"avg_power_below", [](PolicyConfig& c) { c.avg_power_below = below(2); }, [](double t) { return sample(t, 60, 60, 5); },
       [](double t) { return sample(t, 60, 60, 1); }},
      {"gpu_clock_above", [](PolicyConfig& c) { c.gpu_clock_above = above(800); },
       [](double t) { return sample(t, 60, 60, 5, 50, false, 500); },
       [](double t) { return sample(t, 60, 60, 5, 50, false, 900); }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    PolicyConfig cfg;
    cfg.window_s = 2.0;
    cfg.battery_soc = below(99);  // always holds: soc is at most 80 in these samples
    c.enable(cfg);
    BinningPolicy p(cfg);
    double t = 0;
    Decision d = feed(p, t, 4, c.normal);
    EXPECT_TRUE(d.two_level) << d.reason;
    EXPECT_TRUE(d.invalidations.empty()) << d.reason;
    d = feed(p, t, 4, c.trigger);
    EXPECT_FALSE(d.two_level) << d.reason;
    EXPECT_TRUE(has(d.invalidations, c.name)) << d.reason;
    EXPECT_NE(d.reason.find("invalidated by " + std::string(c.name)), std::string::npos) << d.reason;
    d = feed(p, t, 4, c.normal);
    EXPECT_TRUE(d.two_level) << d.reason;
  }
}

// Catches: flapping on noise around a threshold. Noise of +-0.9 degC around the 70 degC trip
// point, hysteresis 2 (release below 68): the mode turns on once in the noise, stays on through
// it and a hot excursion, turns off only at the cold excursion (66 degC) and on once more in
// the noise after it -- three changes. The same samples without hysteresis flap: the test can
// fail.
TEST(Policy, HysteresisDoesNotFlapOnNoise) {
  auto rng = test_rng();
  std::uniform_real_distribution<double> noise(-0.9, 0.9);
  std::vector<double> temps;
  for (int i = 0; i < 200; ++i) temps.push_back(70 + noise(rng));
  for (int i = 0; i < 5; ++i) temps.push_back(75);
  for (int i = 0; i < 200; ++i) temps.push_back(70 + noise(rng));
  for (int i = 0; i < 5; ++i) temps.push_back(66);
  for (int i = 0; i < 200; ++i) temps.push_back(70 + noise(rng));
  auto run = [&](double h) {
    PolicyConfig cfg;
    cfg.window_s = 0.05;  // one sample: the noise is not averaged away
    cfg.avg_temp = above(70, h);
    BinningPolicy p(cfg);
    std::vector<std::pair<double, bool>> changes;
    for (std::size_t i = 0; i < temps.size(); ++i) {
      const Decision d = p.update(sample(0.1 * static_cast<double>(i), temps[i], temps[i]));
      if (d.changed) changes.emplace_back(d.time_s, d.two_level);
      EXPECT_FALSE(d.reason.empty());
    }
    return changes;
  };
  const auto with = run(2.0);
  ASSERT_EQ(with.size(), 3u);
  EXPECT_TRUE(with[0].second);
  EXPECT_LT(with[0].first, 20.0) << "turns on in the first noise";
  EXPECT_FALSE(with[1].second);
  EXPECT_NEAR(with[1].first, 40.5, 1e-9) << "off only at the cold excursion";
  EXPECT_TRUE(with[2].second);
  EXPECT_GT(run(0.0).size(), 50u) << "without hysteresis the same noise flaps";
}

// Catches: a reason that does not say a decision was held by hysteresis, and min_dwell_s
// ignored.
TEST(Policy, HysteresisReasonAndMinimumDwell) {
  PolicyConfig cfg;
  cfg.window_s = 0.05;
  cfg.min_dwell_s = 3.0;
  cfg.avg_temp = above(70, 2);
  BinningPolicy p(cfg);
  EXPECT_TRUE(p.update(sample(0, 72, 72)).two_level);
  const Decision held = p.update(sample(1, 69, 69));
  EXPECT_TRUE(held.two_level);
  EXPECT_NE(held.reason.find("held by hysteresis"), std::string::npos) << held.reason;
  const Decision dwell = p.update(sample(2, 60, 60));
  EXPECT_TRUE(dwell.two_level) << "within min_dwell_s of the last change";
  EXPECT_NE(dwell.reason.find("min_dwell_s"), std::string::npos) << dwell.reason;
  EXPECT_FALSE(p.update(sample(3.5, 60, 60)).two_level);
}

// CSV replay of driver/test/data/thermal_trace.csv through driver/config/policy.yaml.
// Catches: a decision without a reason, and any change in when and why the mode changes over
// a session: heating (rate, then average), charging, unplugging, cooling, low battery.
TEST(Policy, ReplayTraceWithReasons) {
  const PolicyConfig cfg = load_policy_config(TESSERA_DRIVER_CONFIG_DIR "/policy.yaml");
  const auto trace = load_trace_csv(TESSERA_DRIVER_TEST_DATA "/thermal_trace.csv");
  ASSERT_EQ(trace.size(), 80u);
  BinningPolicy p(cfg);
  const auto ds = replay(p, trace);
  struct Change {
    double t;
    bool two_level;
    const char* why;
  };
  std::vector<Change> got;
  for (const Decision& d : ds) {
    EXPECT_FALSE(d.reason.empty()) << "at " << d.time_s;
    if (d.changed) got.push_back({d.time_s, d.two_level, nullptr});
  }
  for (auto& g : got) {
    for (const auto& d : ds)
      if (d.time_s == g.t) {
        static std::vector<std::string> keep;
        keep.push_back(d.reason);
        g.why = keep.back().c_str();
      }
    fmt::print("  t={:5.1f} {:9} {}\n", g.t, g.two_level ? "two-level" : "PBB", g.why);
  }
  // The story of the trace (docs/driver.md "Trace files"): the game heats the device and the
  // clock throttles (rate and power conditions), it is plugged in (charging invalidates), then
  // unplugged while hot (average temperature and power), the game pauses and the clock recovers
  // (no longer throttled invalidates), the battery runs low (state of charge condition).
  const std::vector<std::pair<double, std::string>> expect = {
      {17.0, "two-level: avg_temp_rate 1.13 > 1.00; avg_power 9.00 > 8.00"},
      {30.0, "invalidated by charging"},
      {36.0, "two-level: avg_temp 65.33 > 60.00; avg_power 8.92 > 8.00"},
      {49.0, "invalidated by gpu_clock_above 900.00 > 850.00"},
      {60.0, "two-level: battery_soc 18.00 < 20.00"},
  };
  ASSERT_EQ(got.size(), expect.size());
  for (std::size_t i = 0; i < expect.size(); ++i) {
    EXPECT_EQ(got[i].t, expect[i].first) << "change " << i;
    EXPECT_NE(std::string(got[i].why).find(expect[i].second), std::string::npos) << got[i].why;
  }
}

// Malformed policy YAML. Catches: an error without the file, line and column, a misspelt key
// silently ignored (the condition it meant would be off), a wrong type or an impossible value
// accepted.
TEST(Policy, MalformedYamlNamesFileLineAndKey) {
  struct Case {
    const char* text;
    unsigned line, column;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"window_s: [1, 2\n", 2, 1, "YAML syntax"},
      {"conditions:\n  avg_tmp: {above: 1}\n", 2, 3, "conditions.avg_tmp: unknown key 'avg_tmp' (expected one of: avg_temp,"},
      {"conditions:\n  avg_temp: {above: hot}\n", 2, 21, "conditions.avg_temp.above: expected a number, got 'hot'"},
      {"conditions:\n  battery_soc: {above: 5}\n", 2, 17, "conditions.battery_soc.above: unknown key 'above'"},
      {"conditions:\n  avg_temp: {hysteresis: 1}\n", 2, 13, "conditions.avg_temp: missing the threshold: 'above'"},
      {"conditions:\n  avg_power:\n    above: 5\n    hysteresis: -1\n", 4, 17, "hysteresis -1 is negative"},
      {"window_s: 0\n", 1, 11, "window_s: window 0 s is outside 0.001..3600 s"},
      {"invalidations:\n  charging: maybe\n", 2, 13, "invalidations.charging: expected true or false, got 'maybe'"},
      {"- a\n- b\n", 1, 1, "expected a map of policy settings"},
      {"window_s: 1\nwindow_s: 2\n", 2, 1, "window_s: key 'window_s' is repeated"},
      {"conditions:\n  counters:\n    busy: {above: 1, below: 2}\n", 3, 22, "give either 'above' or 'below'"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    try {
      parse_policy_config(c.text, "bad.yaml");
      ADD_FAILURE() << "accepted";
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.file(), "bad.yaml");
      EXPECT_EQ(e.line(), c.line) << e.what();
      EXPECT_EQ(e.column(), c.column) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("bad.yaml:", 0), 0u) << e.what();
    }
  }
  const std::string path = temp_file("bad_policy.yaml", "window_s: 2\nconditions:\n  avg_temp: {abov: 70}\n");
  try {
    load_policy_config(path);
    ADD_FAILURE() << "accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ":3:", 0), 0u) << e.what();
  }
  EXPECT_THROW(load_policy_config("/nonexistent/policy.yaml"), ConfigError);
  EXPECT_NO_THROW(load_policy_config(TESSERA_DRIVER_CONFIG_DIR "/policy-thermal-only.yaml"));
}

// Malformed trace CSV. Catches: an error without file, line and column, a bad number read as
// 0, a short row padded, an unknown column ignored, time going backwards accepted.
TEST(Policy, MalformedCsvNamesFileLineAndColumn) {
  struct Case {
    const char* text;
    unsigned line, column;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"time_s,temp.gpu,pwr\n0,50,1\n", 1, 17, "column 'pwr': unknown column"},
      {"temp.gpu\n50\n", 1, 1, "column 'time_s': missing"},
      {"# c\ntime_s, power_w\n0, 5\n1, five\n", 4, 4, "column 'power_w': expected a number, got 'five'"},
      {"time_s,power_w,soc_pct\n0,1,2\n1,2\n", 3, 4, "column 'soc_pct': expected 3 fields, got 2"},
      {"time_s,power_w\n0,1,2\n", 2, 5, "expected 2 fields, got 3"},
      {"time_s\n0\n2\n1\n", 4, 1, "time 1 s is not after the previous sample's 2 s"},
      {"time_s,charging\n0,maybe\n", 2, 3, "column 'charging': expected 0 or 1, got 'maybe'"},
      {"time_s,time_s\n", 1, 8, "column 'time_s': repeated"},
      {"# only a comment\n", 1, 1, "no header line"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    try {
      parse_trace_csv(c.text, "bad.csv");
      ADD_FAILURE() << "accepted";
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.line(), c.line) << e.what();
      EXPECT_EQ(e.column(), c.column) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("bad.csv:", 0), 0u) << e.what();
    }
  }
  const std::string path = temp_file("bad_trace.csv", "time_s,power_w\n0,x\n");
  try {
    load_trace_csv(path);
    ADD_FAILURE() << "accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ":2:3:", 0), 0u) << e.what();
  }
}

// Issue #14 item 10. Thresholds that could never trip or never release, numbers that are not
// plain decimals and absurd windows. Catches each being accepted -- `battery_soc: {below:
// 150}` would hold for ever, `above: 0x3C` was read as 60 by strtod while other YAML readers
// refuse it, `window_s: 1e-300` is no window -- and an error that does not point at the
// offending value (file, line, column, key).
TEST(Policy, ImpossibleThresholdsAndNumbersNameFileLineAndField) {
  struct Case {
    const char* text;
    unsigned line, column;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"conditions:\n  battery_soc: {below: 150}\n", 2, 24,
       "conditions.battery_soc.below: threshold 150 % is outside the metric's range 0..100 %"},
      {"conditions:\n  battery_soc: {below: 20, hysteresis: 90}\n", 2, 40,
       "conditions.battery_soc.hysteresis: hysteresis 90 is wider than the range allows: below 20 % releases only "
       "above 110 %, and the metric is never more than 100 %: it could never release"},
      {"conditions:\n  avg_temp: {above: 60, hysteresis: 400}\n", 2, 37,
       "conditions.avg_temp.hysteresis: hysteresis 400 is wider than the range allows"},
      {"conditions:\n  avg_power: {above: 5, hysteresis: 6}\n", 2, 37, "releases only below -1 W"},
      {"conditions:\n  battery_soc: {below: 0}\n", 2, 24, "below 0 % could never trip"},
      {"conditions:\n  avg_temp: {above: 250}\n", 2, 21, "above 250 degC could never trip"},
      {"invalidations:\n  avg_temp_below: {below: 300}\n", 2, 27,
       "invalidations.avg_temp_below.below: threshold 300 degC is outside the metric's range -273.15..250 degC"},
      {"invalidations:\n  gpu_clock_above: {above: -5}\n", 2, 28, "threshold -5 MHz is outside the metric's range >= 0 MHz"},
      {"conditions:\n  local_temp: {above: 90, per_location: {battery: 500}}\n", 2, 51,
       "conditions.local_temp.per_location.battery: threshold 500 degC is outside"},
      {"conditions:\n  avg_temp: {above: 0x3C}\n", 2, 21,
       "conditions.avg_temp.above: expected a number, got '0x3C' (hexadecimal: write it in decimal)"},
      {"conditions:\n  avg_temp: {above: 075}\n", 2, 21, "got '075' (a leading zero (octal in YAML 1.1)"},
      {"conditions:\n  counters:\n    busy: {above: 0x10}\n", 3, 19, "conditions.counters.busy.above: expected a number, got '0x10'"},
      {"conditions:\n  avg_power:\n    above: 5\n    hysteresis: 0x2\n", 4, 17, "conditions.avg_power.hysteresis: expected a number, got '0x2'"},
      {"window_s: 1e-300\n", 1, 11, "window_s: window 1e-300 s is outside 0.001..3600 s"},
      {"window_s: 86400\n", 1, 11, "window_s: window 86400 s is outside 0.001..3600 s"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    try {
      parse_policy_config(c.text, "bad.yaml");
      ADD_FAILURE() << "accepted";
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.file(), "bad.yaml");
      EXPECT_EQ(e.line(), c.line) << e.what();
      EXPECT_EQ(e.column(), c.column) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
  }
  // The limits themselves are allowed; so are the shipped policies.
  EXPECT_NO_THROW(parse_policy_config("window_s: 0.001\nconditions:\n  battery_soc: {below: 20, hysteresis: 79.5}\n", "ok.yaml"));
  EXPECT_NO_THROW(parse_policy_config("window_s: 3600\nconditions:\n  avg_temp: {above: 249, hysteresis: 500}\n", "ok.yaml"));
  EXPECT_NO_THROW(load_policy_config(TESSERA_DRIVER_CONFIG_DIR "/policy.yaml"));
}

// Issue #14 item 9. Catches: BinningPolicy::update accepting a NaN or infinite time (the window
// arithmetic then keeps or drops samples at random), a NaN where a map holds only measured
// values, or a reading outside its physical range; a refused sample changing the window; and a
// configuration built in code that the file loader would refuse.
TEST(Policy, UpdateRefusesImpossibleSamples) {
  PolicyConfig cfg;
  cfg.window_s = 10;
  cfg.avg_temp = above(70);
  BinningPolicy p(cfg);
  EXPECT_EQ(p.update(sample(0, 60, 60)).metrics.samples, 1u);
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  struct Case {
    const char* message;
    std::function<void(PerfSample&)> spoil;
  };
  const std::vector<Case> cases = {
      {"time_s nan is not a finite number", [&](PerfSample& s) { s.time_s = nan; }},
      {"time_s inf is not a finite number", [&](PerfSample& s) { s.time_s = inf; }},
      {"temps_c['gpu'] is NaN", [&](PerfSample& s) { s.temps_c["gpu"] = nan; }},
      {"temps_c['gpu']: -500 degC is outside the physical range -273.15..250 degC", [](PerfSample& s) { s.temps_c["gpu"] = -500; }},
      {"power_w inf is not a finite number", [&](PerfSample& s) { s.power_w = inf; }},
      {"power_w: -1 W is outside", [](PerfSample& s) { s.power_w = -1; }},
      {"soc_pct: 500 % is outside the physical range 0..100 %", [](PerfSample& s) { s.soc_pct = 500; }},
      {"gpu_clock_mhz: -5 MHz is outside", [](PerfSample& s) { s.gpu_clock_mhz = -5; }},
      {"counters['gpu_busy_pct'] is nan", [&](PerfSample& s) { s.counters["gpu_busy_pct"] = nan; }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    PerfSample s = sample(1, 90, 90);
    c.spoil(s);
    try {
      p.update(s);
      ADD_FAILURE() << "accepted";
    } catch (const DriverError& e) {
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
  }
  const Decision d = p.update(sample(2, 60, 60));
  EXPECT_EQ(d.metrics.samples, 2u) << "a refused sample entered the window";
  EXPECT_FALSE(d.two_level) << d.reason;
  PerfSample unmeasured = sample(3, 60, 60);
  unmeasured.power_w = unmeasured.soc_pct = unmeasured.gpu_clock_mhz = nan;  // NaN: not measured, allowed
  EXPECT_NO_THROW(p.update(unmeasured));

  PolicyConfig soc;
  soc.battery_soc = below(150);
  EXPECT_THROW({ BinningPolicy b(soc); }, DriverError);
  PolicyConfig tiny;
  tiny.window_s = 1e-300;
  try {
    BinningPolicy b(tiny);
    ADD_FAILURE() << "window 1e-300 accepted";
  } catch (const DriverError& e) {
    EXPECT_NE(std::string(e.what()).find("window_s: window 1e-300 s is outside"), std::string::npos) << e.what();
  }
}

// Issue #14 item 10. Catches: trace values outside their physical range (-500 degC, 500 %, a
// negative power or clock) or written in hexadecimal accepted, and an error without the line,
// column and column name.
TEST(Policy, TraceValuesOutsidePhysicalRangeNameLineAndColumn) {
  struct Case {
    const char* text;
    unsigned line, column;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"time_s,temp.gpu\n0,50\n1,-500\n", 3, 3,
       "column 'temp.gpu': -500 degC is outside the physical range -273.15..250 degC"},
      {"time_s,temp.gpu\n0,251\n", 2, 3, "column 'temp.gpu': 251 degC is outside"},
      {"time_s,power_w,soc_pct\n0,5,500\n", 2, 5, "column 'soc_pct': 500 % is outside the physical range 0..100 %"},
      {"time_s,power_w\n0,-1\n", 2, 3, "column 'power_w': -1 W is outside the physical range >= 0 W"},
      {"time_s,gpu_clock_mhz\n0,-5\n", 2, 3, "column 'gpu_clock_mhz': -5 MHz is outside"},
      {"time_s,temp.gpu\n0,0x3C\n", 2, 3, "column 'temp.gpu': expected a number, got '0x3C' (hexadecimal"},
      {"time_s\n0x10\n", 2, 1, "column 'time_s': expected a number, got '0x10'"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    try {
      parse_trace_csv(c.text, "bad.csv");
      ADD_FAILURE() << "accepted";
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.line(), c.line) << e.what();
      EXPECT_EQ(e.column(), c.column) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
  }
  const std::string path = TESSERA_DRIVER_TEST_DATA "/trace_out_of_range.csv";
  try {
    load_trace_csv(path);
    ADD_FAILURE() << "accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ":5:10: column 'temp.cpu': -500 degC", 0), 0u) << e.what();
  }
}

// Issue #14 item 11. Catches: a directory or a device given as the policy or trace file read
// as an empty file ("expected a map ... got nothing", "no header line"), or /dev/zero read for
// ever, instead of an error that names the path and says what it is.
TEST(Policy, DirectoryOrDeviceAsPolicyOrTraceFileNamesThePath) {
  auto expect = [](const std::function<void()>& f, const std::string& path, const std::string& needle) {
    try {
      f();
      ADD_FAILURE() << "accepted " << path;
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.file(), path);
      EXPECT_EQ(std::string(e.what()).rfind(path + ":", 0), 0u) << e.what();
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  const std::string config_dir = TESSERA_DRIVER_CONFIG_DIR, data_dir = TESSERA_DRIVER_TEST_DATA;
  expect([&] { load_policy_config(config_dir); }, config_dir, "is a directory, not a policy file");
  expect([&] { load_trace_csv(data_dir); }, data_dir, "is a directory, not a trace file");
  expect([&] { load_policy_config("/dev/null"); }, "/dev/null", "is not a regular file");
  expect([&] { load_trace_csv("/dev/null"); }, "/dev/null", "is not a regular file");
  expect([&] { load_policy_config("/dev/zero"); }, "/dev/zero", "is not a regular file");  // was read for ever
}
