// Binning-mode policy: see policy.hpp and docs/driver.md "Policy".
#include "tessera/driver/policy.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <tuple>

#include "tessera/driver/error.hpp"

namespace tessera::driver {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

constexpr double kInf = std::numeric_limits<double>::infinity();

// Reads a policy or trace file. Refuses, naming the path, what cannot be one: a directory, a
// device (/dev/zero would be read for ever), a file larger than max_bytes.
std::string read_file(const std::string& path, const char* what, std::size_t max_bytes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) throw ConfigError(path, 0, 0, fmt::format("cannot open the {} file: no such file", what));
  if (fs::is_directory(st))
    throw ConfigError(path, 0, 0, fmt::format("is a directory, not a {} file: give the file's path", what));
  if (!fs::is_regular_file(st) && !fs::is_fifo(st))
    throw ConfigError(path, 0, 0, fmt::format("is not a regular file (a device or socket), so not a {} file", what));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path, 0, 0, fmt::format("cannot open the {} file", what));
  std::string out;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    out.append(buf, static_cast<std::size_t>(in.gcount()));
    if (out.size() > max_bytes)
      throw ConfigError(path, 0, 0, fmt::format("larger than {} MiB: not a {} file", max_bytes >> 20, what));
  }
  if (in.bad()) throw ConfigError(path, 0, 0, fmt::format("read error in the {} file", what));
  return out;
}

constexpr std::size_t kMaxPolicyBytes = 1u << 20;   // a policy file is a few hundred bytes
constexpr std::size_t kMaxTraceBytes = 256u << 20;  // a day at 10 samples/s, 10 columns: ~50 MiB

// Why `s` is not a plain decimal number ("" if it is one): [+-] digits [. digits] [e [+-]
// digits]. Refused on purpose: hexadecimal (0x3C, which strtod would read as 60), octal
// (0o17), a leading zero (075 is octal 61 in YAML 1.1, 75 in YAML 1.2), 1_000, 1:30, .inf,
// nan: readers disagree on them, so a file could mean different thresholds to different tools.
std::string not_decimal(std::string_view s) {
  std::size_t i = 0;
  const std::size_t n = s.size();
  auto digits = [&] {
    const std::size_t b = i;
    while (i < n && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    return i - b;
  };
  if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
  const std::size_t int_start = i;
  const std::size_t int_digits = digits();
  std::size_t frac_digits = 0;
  if (i < n && s[i] == '.') {
    ++i;
    frac_digits = digits();
  }
  if (int_digits + frac_digits == 0) return "not a decimal number";
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return "not a decimal number";
  }
  if (i != n) {
    if (s.substr(int_start, 2) == "0x" || s.substr(int_start, 2) == "0X") return "hexadecimal: write it in decimal";
    return "not a decimal number";
  }
  if (int_digits > 1 && s[int_start] == '0') return "a leading zero (octal in YAML 1.1): write it without";
  return {};
}

std::string number_error(std::string_view text, const std::string& why) {
  return fmt::format("expected a number, got '{}'{}", text, why == "not a decimal number" ? "" : " (" + why + ")");
}

// The physical range of a metric: thresholds outside it, and sensor values outside it, are
// refused. Temperatures: absolute zero up to 250 degC (above, the board's solder -- SAC305
// melts at 217 degC -- is liquid: such a reading is a broken sensor). Percentages 0..100.
// Power and clock are not negative. Rates and counters have no physical bound.
struct Range {
  double lo, hi;
  const char* unit;
};
constexpr Range kTempRange{-273.15, 250.0, "degC"};
constexpr Range kPctRange{0.0, 100.0, "%"};
constexpr Range kPowerRange{0.0, kInf, "W"};
constexpr Range kClockRange{0.0, kInf, "MHz"};
constexpr Range kAnyRange{-kInf, kInf, ""};

std::string range_text(const Range& r) {
  if (std::isinf(r.hi)) return fmt::format(">= {} {}", r.lo, r.unit);
  return fmt::format("{}..{} {}", r.lo, r.hi, r.unit);
}

// "" if v lies in r, else why not.
std::string outside(double v, const Range& r) {
  if (v >= r.lo && v <= r.hi) return {};
  return fmt::format("{} {} is outside the physical range {}", v, r.unit, range_text(r));
}

// What is wrong with a trip on a metric of range r ("" if nothing), and whether it is the
// hysteresis (else the threshold) that makes it wrong. A trip must be able to trip and to
// release: "above T, hysteresis h" releases only below T - h, so T - h must lie above the
// lowest value the metric can take ("below" mirrors it).
struct TripProblem {
  std::string msg;
  bool hysteresis = false;
};
TripProblem trip_problem(bool above, double threshold, double hysteresis, const Range& r) {
  if (!std::isfinite(threshold)) return {fmt::format("threshold {} is not a finite number", threshold)};
  if (!std::isfinite(hysteresis) || hysteresis < 0)
    return {fmt::format("hysteresis {} must be a finite number >= 0", hysteresis), true};
  if (threshold < r.lo || threshold > r.hi)
    return {fmt::format("threshold {} {} is outside the metric's range {}", threshold, r.unit, range_text(r))};
  if (above && threshold >= r.hi)
    return {fmt::format("above {} {} could never trip: the metric is never more than {} {}", threshold, r.unit, r.hi, r.unit)};
  if (!above && threshold <= r.lo)
    return {fmt::format("below {} {} could never trip: the metric is never less than {} {}", threshold, r.unit, r.lo, r.unit)};
  const double release = above ? threshold - hysteresis : threshold + hysteresis;
  if (above ? release <= r.lo : release >= r.hi)
    return {fmt::format("hysteresis {} is wider than the range allows: {} {} {} releases only {} {} {}, and the metric "
                        "is never {} {} {}: it could never release",
                        hysteresis, above ? "above" : "below", threshold, r.unit, above ? "below" : "above", release, r.unit,
                        above ? "less than" : "more than", above ? r.lo : r.hi, r.unit),
            hysteresis > 0};
  return {};
}

// The policy's window: at least 1 ms (sensors are read every few ms at the fastest -- thermal
// zones and fuel gauges every 0.1 s to seconds; a shorter window holds only the latest sample,
// which 1 ms already does, and times like 1e-300 are lost in rounding against session times),
// at most an hour (thermal time constants of phones and laptops are minutes; the window keeps
// every sample in memory).
constexpr double kMinWindowS = 1e-3;
constexpr double kMaxWindowS = 3600.0;

std::string window_problem(double w) {
  if (!(w >= kMinWindowS && w <= kMaxWindowS))
    return fmt::format("window {} s is outside {}..{} s (shorter holds no more than the latest sample; longer "
                       "cannot follow a thermal change)",
                       w, kMinWindowS, kMaxWindowS);
  return {};
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

// ---- YAML ------------------------------------------------------------------------------------

class YamlReader {
 public:
  explicit YamlReader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const YAML::Node& n, const std::string& path, const std::string& msg) const {
    const YAML::Mark m = n.Mark();
    throw ConfigError(file_, m.line >= 0 ? static_cast<unsigned>(m.line + 1) : 0,
                      m.column >= 0 ? static_cast<unsigned>(m.column + 1) : 0, path + ": " + msg);
  }

  static std::string describe(const YAML::Node& n) {
    switch (n.Type()) {
      case YAML::NodeType::Scalar: return fmt::format("'{}'", n.Scalar());
      case YAML::NodeType::Sequence: return "a list";
      case YAML::NodeType::Map: return "a map";
      default: return "nothing";
    }
  }

  double number(const YAML::Node& n, const std::string& path) const {
    if (!n.IsScalar()) fail(n, path, "expected a number, got " + describe(n));
    const std::string& s = n.Scalar();
    if (const std::string why = not_decimal(s); !why.empty()) fail(n, path, number_error(s, why));
    const double v = std::strtod(s.c_str(), nullptr);
    if (!std::isfinite(v)) fail(n, path, number_error(s, "out of range of a double"));
    return v;
  }

  bool boolean(const YAML::Node& n, const std::string& path) const {
    if (n.IsScalar()) {
      std::string s = n.Scalar();
      std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
      if (s == "true" || s == "yes" || s == "on") return true;
      if (s == "false" || s == "no" || s == "off") return false;
    }
    fail(n, path, "expected true or false, got " + describe(n));
  }

  // The entries of a map, checked against the allowed keys (none repeated).
  std::vector<std::pair<YAML::Node, YAML::Node>> entries(const YAML::Node& map, const std::string& path,
                                                         const std::vector<std::string>& allowed) const {
    if (!map.IsMap()) fail(map, path, "expected a map, got " + describe(map));
    std::vector<std::pair<YAML::Node, YAML::Node>> out;
    std::set<std::string> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
      if (!it->first.IsScalar()) fail(it->first, path, "keys must be names");
      const std::string key = it->first.Scalar();
      const std::string kp = path.empty() ? key : path + "." + key;
      if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        fail(it->first, kp, fmt::format("unknown key '{}' (expected one of: {})", key, join(allowed, ", ")));
      if (!seen.insert(key).second) fail(it->first, kp, fmt::format("key '{}' is repeated", key));
      out.emplace_back(it->first, it->second);
    }
    return out;
  }

  enum class Dir { Above, Below, Either };

  // A threshold of a metric whose physical range is r; refuses one that could never trip or
  // never release (trip_problem), naming the threshold or the hysteresis that makes it so.
  Trip trip(const YAML::Node& n, const std::string& path, Dir dir, const Range& r,
            std::map<std::string, double>* per_location_out = nullptr) const {
    Trip t;
    if (n.IsNull()) return t;  // "key:" with no value: disabled
    std::vector<std::string> allowed{"hysteresis"};
    if (dir != Dir::Below) allowed.push_back("above");
    if (dir != Dir::Above) allowed.push_back("below");
    if (per_location_out) allowed.push_back("per_location");
    // Copies, not assignment: assigning to a YAML::Node that refers to a node rewrites that node.
    std::optional<YAML::Node> threshold_node, hysteresis_node;
    std::string threshold_path, hysteresis_path;
    std::vector<std::tuple<YAML::Node, std::string, double>> locations;
    for (const auto& [k, v] : entries(n, path, allowed)) {
      const std::string key = k.Scalar(), kp = path + "." + key;
      if (key == "above" || key == "below") {
        if (threshold_node) fail(k, kp, "give either 'above' or 'below', not both");
        threshold_node.emplace(v);
        threshold_path = kp;
        t.above = key == "above";
        t.threshold = number(v, kp);
      } else if (key == "hysteresis") {
        hysteresis_node.emplace(v);
        hysteresis_path = kp;
        t.hysteresis = number(v, kp);
        if (t.hysteresis < 0) fail(v, kp, fmt::format("hysteresis {} is negative", t.hysteresis));
      } else if (key == "per_location") {
        for (const auto& [lk, lv] : entries(v, kp, {})) {
          const std::string lp = kp + "." + lk.Scalar();
          locations.emplace_back(lv, lp, number(lv, lp));
        }
      }
    }
    if (!threshold_node)
      fail(n, path, fmt::format("missing the threshold: '{}'", dir == Dir::Below ? "below" : dir == Dir::Above ? "above" : "above' or 'below"));
    auto check = [&](double threshold, const YAML::Node& at, const std::string& at_path) {
      const TripProblem p = trip_problem(t.above, threshold, t.hysteresis, r);
      if (p.msg.empty()) return;
      if (p.hysteresis && hysteresis_node) fail(*hysteresis_node, hysteresis_path, p.msg);
      fail(at, at_path, p.msg);
    };
    check(t.threshold, *threshold_node, threshold_path);
    for (const auto& [node, lp, value] : locations) {
      check(value, node, lp);
      (*per_location_out)[lp.substr(lp.rfind('.') + 1)] = value;
    }
    t.enabled = true;
    return t;
  }

 private:
  std::string file_;
};

// ---- window statistics ---------------------------------------------------------------------------

double mean(const std::vector<double>& v) {
  if (v.empty()) return kNaN;
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

// Least-squares slope of y over t; 0 with fewer than two distinct times.
double slope(const std::vector<double>& t, const std::vector<double>& y) {
  if (t.size() < 2) return 0;
  const double mt = mean(t), my = mean(y);
  double num = 0, den = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    num += (t[i] - mt) * (y[i] - my);
    den += (t[i] - mt) * (t[i] - mt);
  }
  return den > 0 ? num / den : 0;
}

// What is wrong with a sample's values ("" if nothing), naming the field. Unmeasured scalar
// fields are NaN by design; an unmeasured location or counter is absent from its map, so NaN
// there is a broken reading. Infinite values and values outside a metric's physical range are
// broken readings too.
std::string sample_problem(const PerfSample& s) {
  if (!std::isfinite(s.time_s)) return fmt::format("time_s {} is not a finite number", s.time_s);
  for (const auto& [name, v] : s.temps_c) {
    if (std::isnan(v)) return fmt::format("temps_c['{}'] is NaN (leave a location that was not measured out of the map)", name);
    if (const std::string why = outside(v, kTempRange); !why.empty()) return fmt::format("temps_c['{}']: {}", name, why);
  }
  const std::pair<const char*, std::pair<double, Range>> scalars[] = {
      {"power_w", {s.power_w, kPowerRange}}, {"soc_pct", {s.soc_pct, kPctRange}}, {"gpu_clock_mhz", {s.gpu_clock_mhz, kClockRange}}};
  for (const auto& [name, vr] : scalars) {
    if (std::isnan(vr.first)) continue;  // not measured
    if (std::isinf(vr.first)) return fmt::format("{} {} is not a finite number (NaN means not measured)", name, vr.first);
    if (const std::string why = outside(vr.first, vr.second); !why.empty()) return fmt::format("{}: {}", name, why);
  }
  for (const auto& [name, v] : s.counters)
    if (!std::isfinite(v))
      return fmt::format("counters['{}'] is {} (leave a counter that was not read out of the map)", name, v);
  return {};
}

}  // namespace

PerfSample::PerfSample() : power_w(kNaN), soc_pct(kNaN), gpu_clock_mhz(kNaN) {}

// ---- configuration -------------------------------------------------------------------------------

PolicyConfig parse_policy_config(const std::string& text, const std::string& source) {
  YamlReader r(source);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(source, e.mark.line >= 0 ? static_cast<unsigned>(e.mark.line + 1) : 0,
                      e.mark.column >= 0 ? static_cast<unsigned>(e.mark.column + 1) : 0, "YAML syntax: " + e.msg);
  }
  PolicyConfig c;
  c.source = source;
  if (!root.IsMap()) r.fail(root, "(top)", "expected a map of policy settings, got " + YamlReader::describe(root));
  using Dir = YamlReader::Dir;
  for (const auto& [k, v] : r.entries(root, "", {"window_s", "min_dwell_s", "conditions", "invalidations"})) {
    const std::string key = k.Scalar();
    if (key == "window_s") {
      c.window_s = r.number(v, key);
      if (const std::string why = window_problem(c.window_s); !why.empty()) r.fail(v, key, why);
    } else if (key == "min_dwell_s") {
      c.min_dwell_s = r.number(v, key);
      if (c.min_dwell_s < 0) r.fail(v, key, fmt::format("{} s is negative", c.min_dwell_s));
    } else if (key == "conditions") {
      for (const auto& [ck, cv] :
           r.entries(v, key, {"avg_temp", "avg_temp_rate", "local_temp", "local_temp_rate", "peak_power", "avg_power",
                              "avg_power_rate", "battery_soc", "counters"})) {
        const std::string name = ck.Scalar(), path = key + "." + name;
        if (name == "avg_temp") c.avg_temp = r.trip(cv, path, Dir::Above, kTempRange);
        else if (name == "avg_temp_rate") c.avg_temp_rate = r.trip(cv, path, Dir::Above, kAnyRange);
        else if (name == "local_temp") c.local_temp = r.trip(cv, path, Dir::Above, kTempRange, &c.local_temp_per_location);
        else if (name == "local_temp_rate") c.local_temp_rate = r.trip(cv, path, Dir::Above, kAnyRange);
        else if (name == "peak_power") c.peak_power = r.trip(cv, path, Dir::Above, kPowerRange);
        else if (name == "avg_power") c.avg_power = r.trip(cv, path, Dir::Above, kPowerRange);
        else if (name == "avg_power_rate") c.avg_power_rate = r.trip(cv, path, Dir::Above, kAnyRange);
        else if (name == "battery_soc") c.battery_soc = r.trip(cv, path, Dir::Below, kPctRange);
        else if (name == "counters") {
          if (cv.IsNull()) continue;
          for (const auto& [nk, nv] : r.entries(cv, path, {})) c.counters[nk.Scalar()] = r.trip(nv, path + "." + nk.Scalar(), Dir::Either, kAnyRange);
        }
      }
    } else if (key == "invalidations") {
      for (const auto& [ik, iv] : r.entries(
               v, key, {"charging", "avg_temp_below", "avg_temp_rate_below", "avg_power_below", "gpu_clock_above"})) {
        const std::string name = ik.Scalar(), path = key + "." + name;
        if (name == "charging") c.invalidate_charging = r.boolean(iv, path);
        else if (name == "avg_temp_below") c.avg_temp_below = r.trip(iv, path, Dir::Below, kTempRange);
        else if (name == "avg_temp_rate_below") c.avg_temp_rate_below = r.trip(iv, path, Dir::Below, kAnyRange);
        else if (name == "avg_power_below") c.avg_power_below = r.trip(iv, path, Dir::Below, kPowerRange);
        else if (name == "gpu_clock_above") c.gpu_clock_above = r.trip(iv, path, Dir::Above, kClockRange);
      }
    }
  }
  return c;
}

PolicyConfig load_policy_config(const std::string& path) {
  return parse_policy_config(read_file(path, "policy", kMaxPolicyBytes), path);
}

// ---- the policy ----------------------------------------------------------------------------------

// The same rules as the policy file: a configuration built in code cannot hold what a file may
// not (docs/driver.md "Policy file").
BinningPolicy::BinningPolicy(PolicyConfig cfg) : cfg_(std::move(cfg)) {
  auto bad = [&](const std::string& key, const std::string& msg) {
    throw DriverError(fmt::format("policy ({}): {}: {}", cfg_.source, key, msg));
  };
  if (const std::string why = window_problem(cfg_.window_s); !why.empty()) bad("window_s", why);
  if (!std::isfinite(cfg_.min_dwell_s) || cfg_.min_dwell_s < 0)
    bad("min_dwell_s", fmt::format("{} s must be a finite number >= 0", cfg_.min_dwell_s));
  auto check = [&](const std::string& key, const Trip& t, const Range& r) {
    if (!t.enabled) return;
    if (const TripProblem p = trip_problem(t.above, t.threshold, t.hysteresis, r); !p.msg.empty()) bad(key, p.msg);
  };
  check("conditions.avg_temp", cfg_.avg_temp, kTempRange);
  check("conditions.avg_temp_rate", cfg_.avg_temp_rate, kAnyRange);
  check("conditions.local_temp", cfg_.local_temp, kTempRange);
  for (const auto& [name, threshold] : cfg_.local_temp_per_location) {
    Trip t = cfg_.local_temp;
    t.threshold = threshold;
    check("conditions.local_temp.per_location." + name, t, kTempRange);
  }
  check("conditions.local_temp_rate", cfg_.local_temp_rate, kAnyRange);
  check("conditions.peak_power", cfg_.peak_power, kPowerRange);
  check("conditions.avg_power", cfg_.avg_power, kPowerRange);
  check("conditions.avg_power_rate", cfg_.avg_power_rate, kAnyRange);
  check("conditions.battery_soc", cfg_.battery_soc, kPctRange);
  for (const auto& [name, t] : cfg_.counters) check("conditions.counters." + name, t, kAnyRange);
  check("invalidations.avg_temp_below", cfg_.avg_temp_below, kTempRange);
  check("invalidations.avg_temp_rate_below", cfg_.avg_temp_rate_below, kAnyRange);
  check("invalidations.avg_power_below", cfg_.avg_power_below, kPowerRange);
  check("invalidations.gpu_clock_above", cfg_.gpu_clock_above, kClockRange);
}

bool BinningPolicy::latch(const std::string& key, const Trip& t, double v) {
  if (!t.enabled) return false;
  bool& on = latched_[key];
  if (std::isnan(v)) return on = false;
  if (t.above) on = on ? v >= t.threshold - t.hysteresis : v > t.threshold;
  else on = on ? v <= t.threshold + t.hysteresis : v < t.threshold;
  return on;
}

PolicyMetrics BinningPolicy::metrics() const {
  PolicyMetrics m;
  m.samples = window_.size();
  std::vector<double> tt, dt, pt, pw;
  std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> loc, ctr;
  for (const PerfSample& s : window_) {
    if (!s.temps_c.empty()) {
      double sum = 0;
      for (const auto& [name, t] : s.temps_c) {
        sum += t;
        loc[name].first.push_back(s.time_s);
        loc[name].second.push_back(t);
      }
      tt.push_back(s.time_s);
      dt.push_back(sum / static_cast<double>(s.temps_c.size()));  // device temperature: mean of the locations
    }
    if (!std::isnan(s.power_w)) {
      pt.push_back(s.time_s);
      pw.push_back(s.power_w);
    }
    for (const auto& [name, v] : s.counters) {
      ctr[name].first.push_back(s.time_s);
      ctr[name].second.push_back(v);
    }
  }
  m.avg_temp = mean(dt);
  m.avg_temp_rate = dt.empty() ? kNaN : slope(tt, dt);
  for (const auto& [name, tv] : loc) {
    m.local_temp[name] = mean(tv.second);
    m.local_temp_rate[name] = slope(tv.first, tv.second);
  }
  m.peak_power = pw.empty() ? kNaN : *std::max_element(pw.begin(), pw.end());
  m.avg_power = mean(pw);
  m.avg_power_rate = pw.empty() ? kNaN : slope(pt, pw);
  for (const auto& [name, tv] : ctr) m.counters[name] = mean(tv.second);
  if (!window_.empty()) {
    const PerfSample& last = window_.back();
    m.soc_pct = last.soc_pct;
    m.charging = last.charging;
    m.gpu_clock_mhz = last.gpu_clock_mhz;
  }
  return m;
}

Decision BinningPolicy::update(const PerfSample& s) {
  if (const std::string why = sample_problem(s); !why.empty())
    throw DriverError(fmt::format("policy: sample refused (time_s {}): {}", s.time_s, why));
  if (!window_.empty() && s.time_s < window_.back().time_s)
    throw DriverError(fmt::format("policy: sample at {} s comes before the previous one at {} s", s.time_s,
                                  window_.back().time_s));
  window_.push_back(s);
  const double from = s.time_s - cfg_.window_s;
  window_.erase(window_.begin(), std::find_if(window_.begin(), window_.end(), [&](const PerfSample& x) { return x.time_s >= from; }));

  Decision d;
  d.time_s = s.time_s;
  d.metrics = metrics();
  const PolicyMetrics& m = d.metrics;
  // Evaluate every trip on every sample so each hysteresis latch follows its metric.
  auto check = [&](std::vector<std::string>& out, const std::string& key, const Trip& t, double v) {
    if (!latch(key, t, v)) return;
    const bool crossed = t.above ? v > t.threshold : v < t.threshold;
    if (crossed) out.push_back(fmt::format("{} {:.2f} {} {:.2f}", key, v, t.above ? ">" : "<", t.threshold));
    else
      out.push_back(fmt::format("{} {:.2f} held by hysteresis (trips {} {:.2f}, releases {} {:.2f})", key, v,
                                t.above ? "above" : "below", t.threshold, t.above ? "below" : "above",
                                t.above ? t.threshold - t.hysteresis : t.threshold + t.hysteresis));
  };
  check(d.conditions, "avg_temp", cfg_.avg_temp, m.avg_temp);
  check(d.conditions, "avg_temp_rate", cfg_.avg_temp_rate, m.avg_temp_rate);
  for (const auto& [name, v] : m.local_temp) {
    Trip t = cfg_.local_temp;
    if (auto it = cfg_.local_temp_per_location.find(name); it != cfg_.local_temp_per_location.end()) t.threshold = it->second;
    check(d.conditions, "local_temp." + name, t, v);
  }
  for (const auto& [name, v] : m.local_temp_rate) check(d.conditions, "local_temp_rate." + name, cfg_.local_temp_rate, v);
  check(d.conditions, "peak_power", cfg_.peak_power, m.peak_power);
  check(d.conditions, "avg_power", cfg_.avg_power, m.avg_power);
  check(d.conditions, "avg_power_rate", cfg_.avg_power_rate, m.avg_power_rate);
  check(d.conditions, "battery_soc", cfg_.battery_soc, m.soc_pct);
  for (const auto& [name, t] : cfg_.counters) {
    auto it = m.counters.find(name);
    check(d.conditions, "counter." + name, t, it == m.counters.end() ? kNaN : it->second);
  }
  if (cfg_.invalidate_charging && m.charging) d.invalidations.push_back("charging");
  check(d.invalidations, "avg_temp_below", cfg_.avg_temp_below, m.avg_temp);
  check(d.invalidations, "avg_temp_rate_below", cfg_.avg_temp_rate_below, m.avg_temp_rate);
  check(d.invalidations, "avg_power_below", cfg_.avg_power_below, m.avg_power);
  check(d.invalidations, "gpu_clock_above", cfg_.gpu_clock_above, m.gpu_clock_mhz);

  bool want;
  std::string why;
  if (d.conditions.empty()) {
    want = false;
    why = "PBB: no two-level binning condition holds";
  } else if (!d.invalidations.empty()) {
    want = false;
    why = fmt::format("PBB: two-level conditions hold ({}) but are invalidated by {}", join(d.conditions, "; "),
                      join(d.invalidations, "; "));
  } else {
    want = true;
    why = "two-level: " + join(d.conditions, "; ");
  }
  if (want != active_ && have_change_ && s.time_s - last_change_s_ < cfg_.min_dwell_s) {
    d.two_level = active_;
    d.reason = fmt::format("{} held for min_dwell_s {} (last change at {} s); otherwise {}", active_ ? "two-level" : "PBB",
                           cfg_.min_dwell_s, last_change_s_, why);
    return d;
  }
  if (want != active_) {
    active_ = want;
    d.changed = true;
    ++changes_;
    have_change_ = true;
    last_change_s_ = s.time_s;
  }
  d.two_level = active_;
  d.reason = why;
  return d;
}

std::vector<Decision> replay(BinningPolicy& policy, const std::vector<PerfSample>& samples) {
  std::vector<Decision> out;
  out.reserve(samples.size());
  for (const auto& s : samples) out.push_back(policy.update(s));
  return out;
}

// ---- CSV traces ----------------------------------------------------------------------------------

namespace {

struct Field {
  std::string text;
  unsigned column;  // 1-based character column of the field's first character
};

std::vector<Field> split_csv(const std::string& line) {
  std::vector<Field> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    std::string f = line.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    std::size_t lead = 0;
    while (lead < f.size() && std::isspace(static_cast<unsigned char>(f[lead]))) ++lead;
    std::size_t end = f.size();
    while (end > lead && std::isspace(static_cast<unsigned char>(f[end - 1]))) --end;
    out.push_back(Field{f.substr(lead, end - lead), static_cast<unsigned>(start + lead + 1)});
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

std::vector<PerfSample> parse_trace_csv(std::string_view text, const std::string& source) {
  enum class Col { Time, Temp, Power, Soc, Charging, Clock, Counter };
  struct Column {
    Col kind;
    std::string name;  // header name
    std::string key;   // location or counter name
  };
  std::vector<Column> cols;
  std::vector<PerfSample> out;
  unsigned lineno = 0;
  std::size_t pos = 0;
  bool header = false;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string line(text.substr(pos, nl - pos));
    pos = nl + 1;
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    const std::vector<Field> fields = split_csv(line);
    if (!header) {
      std::set<std::string> seen;
      for (const Field& f : fields) {
        auto bad = [&](const std::string& msg) { return ConfigError(source, lineno, f.column, fmt::format("column '{}': {}", f.text, msg)); };
        if (!seen.insert(f.text).second) throw bad("repeated");
        if (f.text == "time_s") cols.push_back({Col::Time, f.text, {}});
        else if (f.text == "power_w") cols.push_back({Col::Power, f.text, {}});
        else if (f.text == "soc_pct") cols.push_back({Col::Soc, f.text, {}});
        else if (f.text == "charging") cols.push_back({Col::Charging, f.text, {}});
        else if (f.text == "gpu_clock_mhz") cols.push_back({Col::Clock, f.text, {}});
        else if (f.text.rfind("temp.", 0) == 0 && f.text.size() > 5) cols.push_back({Col::Temp, f.text, f.text.substr(5)});
        else if (f.text.rfind("counter.", 0) == 0 && f.text.size() > 8) cols.push_back({Col::Counter, f.text, f.text.substr(8)});
        else
          throw bad("unknown column (expected time_s, temp.<location>, power_w, soc_pct, charging, gpu_clock_mhz, "
                    "counter.<name>)");
      }
      if (!seen.count("time_s")) throw ConfigError(source, lineno, 1, "column 'time_s': missing from the header");
      header = true;
      continue;
    }
    if (fields.size() != cols.size()) {
      const unsigned col = fields.size() < cols.size() ? static_cast<unsigned>(line.size() + 1) : fields[cols.size()].column;
      const std::string name = fields.size() < cols.size() ? cols[fields.size()].name : std::string("(extra)");
      throw ConfigError(source, lineno, col,
                        fmt::format("column '{}': expected {} fields, got {}", name, cols.size(), fields.size()));
    }
    PerfSample s;
    for (std::size_t i = 0; i < cols.size(); ++i) {
      const Field& f = fields[i];
      const Column& c = cols[i];
      auto bad = [&](const std::string& msg) { return ConfigError(source, lineno, f.column, fmt::format("column '{}': {}", c.name, msg)); };
      if (c.kind == Col::Charging) {
        std::string v = f.text;
        std::transform(v.begin(), v.end(), v.begin(), [](unsigned char ch) { return std::tolower(ch); });
        if (v == "1" || v == "true" || v == "yes") s.charging = true;
        else if (v == "0" || v == "false" || v == "no") s.charging = false;
        else throw bad(fmt::format("expected 0 or 1, got '{}'", f.text));
        continue;
      }
      if (const std::string why = not_decimal(f.text); !why.empty()) throw bad(number_error(f.text, why));
      const double v = std::strtod(f.text.c_str(), nullptr);
      if (!std::isfinite(v)) throw bad(number_error(f.text, "out of range of a double"));
      // Sensor values outside their physical range are broken readings (Range above).
      const Range* range = c.kind == Col::Temp    ? &kTempRange
                           : c.kind == Col::Soc   ? &kPctRange
                           : c.kind == Col::Power ? &kPowerRange
                           : c.kind == Col::Clock ? &kClockRange
                                                  : nullptr;
      if (range)
        if (const std::string why = outside(v, *range); !why.empty()) throw bad(why);
      switch (c.kind) {
        case Col::Time:
          if (!out.empty() && !(v > out.back().time_s))
            throw bad(fmt::format("time {} s is not after the previous sample's {} s", v, out.back().time_s));
          s.time_s = v;
          break;
        case Col::Temp: s.temps_c[c.key] = v; break;
        case Col::Power: s.power_w = v; break;
        case Col::Soc: s.soc_pct = v; break;
        case Col::Clock: s.gpu_clock_mhz = v; break;
        case Col::Counter: s.counters[c.key] = v; break;
        case Col::Charging: break;
      }
    }
    out.push_back(std::move(s));
  }
  if (!header) throw ConfigError(source, std::max(lineno, 1u), 1, "no header line (time_s,...)");
  return out;
}

std::vector<PerfSample> load_trace_csv(const std::string& path) {
  return parse_trace_csv(read_file(path, "trace", kMaxTraceBytes), path);
}

}  // namespace tessera::driver
