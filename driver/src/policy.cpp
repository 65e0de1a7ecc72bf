// Binning-mode policy: see policy.hpp and docs/driver.md "Policy".
#include "tessera/driver/policy.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "tessera/driver/error.hpp"

namespace tessera::driver {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path, 0, 0, "cannot open the file");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
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
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v))
      fail(n, path, "expected a number, got " + describe(n));
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

  Trip trip(const YAML::Node& n, const std::string& path, Dir dir,
            std::map<std::string, double>* per_location_out = nullptr) const {
    Trip t;
    if (n.IsNull()) return t;  // "key:" with no value: disabled
    std::vector<std::string> allowed{"hysteresis"};
    if (dir != Dir::Below) allowed.push_back("above");
    if (dir != Dir::Above) allowed.push_back("below");
    if (per_location_out) allowed.push_back("per_location");
    bool have = false;
    for (const auto& [k, v] : entries(n, path, allowed)) {
      const std::string key = k.Scalar(), kp = path + "." + key;
      if (key == "above" || key == "below") {
        if (have) fail(k, kp, "give either 'above' or 'below', not both");
        have = true;
        t.above = key == "above";
        t.threshold = number(v, kp);
      } else if (key == "hysteresis") {
        t.hysteresis = number(v, kp);
        if (t.hysteresis < 0) fail(v, kp, fmt::format("hysteresis {} is negative", t.hysteresis));
      } else if (key == "per_location") {
        for (const auto& [lk, lv] : entries(v, kp, {})) (*per_location_out)[lk.Scalar()] = number(lv, kp + "." + lk.Scalar());
      }
    }
    if (!have)
      fail(n, path, fmt::format("missing the threshold: '{}'", dir == Dir::Below ? "below" : dir == Dir::Above ? "above" : "above' or 'below"));
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
      if (c.window_s <= 0) r.fail(v, key, fmt::format("window {} s must be > 0", c.window_s));
    } else if (key == "min_dwell_s") {
      c.min_dwell_s = r.number(v, key);
      if (c.min_dwell_s < 0) r.fail(v, key, fmt::format("{} s is negative", c.min_dwell_s));
    } else if (key == "conditions") {
      for (const auto& [ck, cv] :
           r.entries(v, key, {"avg_temp", "avg_temp_rate", "local_temp", "local_temp_rate", "peak_power", "avg_power",
                              "avg_power_rate", "battery_soc", "counters"})) {
        const std::string name = ck.Scalar(), path = key + "." + name;
        if (name == "avg_temp") c.avg_temp = r.trip(cv, path, Dir::Above);
        else if (name == "avg_temp_rate") c.avg_temp_rate = r.trip(cv, path, Dir::Above);
        else if (name == "local_temp") c.local_temp = r.trip(cv, path, Dir::Above, &c.local_temp_per_location);
        else if (name == "local_temp_rate") c.local_temp_rate = r.trip(cv, path, Dir::Above);
        else if (name == "peak_power") c.peak_power = r.trip(cv, path, Dir::Above);
        else if (name == "avg_power") c.avg_power = r.trip(cv, path, Dir::Above);
        else if (name == "avg_power_rate") c.avg_power_rate = r.trip(cv, path, Dir::Above);
        else if (name == "battery_soc") c.battery_soc = r.trip(cv, path, Dir::Below);
        else if (name == "counters") {
          if (cv.IsNull()) continue;
          for (const auto& [nk, nv] : r.entries(cv, path, {})) c.counters[nk.Scalar()] = r.trip(nv, path + "." + nk.Scalar(), Dir::Either);
        }
      }
    } else if (key == "invalidations") {
      for (const auto& [ik, iv] : r.entries(
               v, key, {"charging", "avg_temp_below", "avg_temp_rate_below", "avg_power_below", "gpu_clock_above"})) {
        const std::string name = ik.Scalar(), path = key + "." + name;
        if (name == "charging") c.invalidate_charging = r.boolean(iv, path);
        else if (name == "avg_temp_below") c.avg_temp_below = r.trip(iv, path, Dir::Below);
        else if (name == "avg_temp_rate_below") c.avg_temp_rate_below = r.trip(iv, path, Dir::Below);
        else if (name == "avg_power_below") c.avg_power_below = r.trip(iv, path, Dir::Below);
        else if (name == "gpu_clock_above") c.gpu_clock_above = r.trip(iv, path, Dir::Above);
      }
    }
  }
  return c;
}

PolicyConfig load_policy_config(const std::string& path) { return parse_policy_config(read_file(path), path); }

// ---- the policy ----------------------------------------------------------------------------------

BinningPolicy::BinningPolicy(PolicyConfig cfg) : cfg_(std::move(cfg)) {
  if (!(cfg_.window_s > 0)) throw DriverError(fmt::format("policy: window_s {} must be > 0", cfg_.window_s));
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
      char* end = nullptr;
      const double v = std::strtod(f.text.c_str(), &end);
      if (f.text.empty() || end != f.text.c_str() + f.text.size() || !std::isfinite(v))
        throw bad(fmt::format("expected a number, got '{}'", f.text));
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

std::vector<PerfSample> load_trace_csv(const std::string& path) { return parse_trace_csv(read_file(path), path); }

}  // namespace tessera::driver
