// Binning-mode policy: every two-level condition and every invalidation (table-driven),
// hysteresis without flapping on noise, the dwell time, CSV replay with reasons, and malformed
// policy YAML and trace CSV reported with file, line, column and key.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>

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
    cfg.battery_soc = below(101);  // always holds: soc is measured
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
      {"window_s: 0\n", 1, 11, "window_s: window 0 s must be > 0"},
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
