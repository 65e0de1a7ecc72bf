// Binning-mode policy: decide from performance data whether two-level binning is active (AMD
// selectable two-level binning source, 000_b9c7be2d27aa8181.txt [0017]-[0021], [0031]-[0038],
// [0056]-[0057]; docs/driver.md "Policy").
//
// Every sample (sensor readings and performance counters at one time) updates windowed
// metrics: average temperature and its rate of change, local temperatures and their rates,
// peak instantaneous power, average power and its rate, and the latest battery state of
// charge, charging state and GPU clock. Then, as the source's method 200 (FIG. 2):
//   block 204: does any two-level binning condition hold?   no  -> deactivate (block 214)
//   block 206: does any invalidation condition hold?         yes -> deactivate (block 214)
//   otherwise                                                     -> activate   (block 208)
// Each threshold trips like a thermal governor's trip point: a condition "above T" turns on
// when the metric exceeds T and off only when it falls below T - hysteresis ("below T" mirrors
// it), so noise around a threshold does not make the mode flap. Every decision carries the
// reason, naming the metrics and thresholds that decided it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::driver {

// One sample of performance data. Fields not measured are NaN (maps: absent); a condition on
// an unmeasured metric never holds. A measured value must be finite and physically possible:
// temperatures -273.15..250 degC, soc_pct 0..100, power_w and gpu_clock_mhz >= 0
// (docs/driver.md "Policy file"); BinningPolicy::update and the trace parser refuse the rest.
struct PerfSample {
  double time_s = 0;
  std::map<std::string, double> temps_c;  // local temperatures by location (gpu, cpu, battery, ...)
  double power_w;                          // instantaneous power
  double soc_pct;                          // battery state of charge, percent
  bool charging = false;
  double gpu_clock_mhz;
  std::map<std::string, double> counters;  // performance counters by name
  PerfSample();
};

// A threshold with hysteresis. above: holds once the metric > threshold, until it < threshold
// - hysteresis. Otherwise (below): holds once < threshold, until > threshold + hysteresis.
// The threshold must lie in the metric's physical range, and the trip must be able to trip and
// to release inside it (a hysteresis wider than that is refused).
struct Trip {
  bool enabled = false;
  bool above = true;
  double threshold = 0;
  double hysteresis = 0;
};

struct PolicyConfig {
  std::string source = "<built-in>";  // file the configuration came from
  double window_s = 5.0;       // averages and rates over the samples of the last window_s; 0.001..3600
  double min_dwell_s = 0.0;    // no mode change sooner than this after the previous one
  // Two-level binning conditions ([0021], [0032], [0056]); any one holding is enough.
  Trip avg_temp;         // above, degC
  Trip avg_temp_rate;    // above, degC/s
  Trip local_temp;       // above, degC, every location (per_location overrides the threshold)
  std::map<std::string, double> local_temp_per_location;
  Trip local_temp_rate;  // above, degC/s, every location
  Trip peak_power;       // above, W
  Trip avg_power;        // above, W
  Trip avg_power_rate;   // above, W/s
  Trip battery_soc;      // below, percent
  std::map<std::string, Trip> counters;  // window average of a performance counter
  // Invalidation conditions ([0021], [0033]); any one holding deactivates two-level binning.
  bool invalidate_charging = false;  // the battery is charging
  Trip avg_temp_below;       // below: the average temperature is back under a threshold
  Trip avg_temp_rate_below;  // below: the temperature is no longer rising fast
  Trip avg_power_below;      // below: the average power has dropped under a threshold
  Trip gpu_clock_above;      // above: the GPU clock is up again, no longer throttled
};

// Throws ConfigError "FILE:LINE:COLUMN: key.path: message" for bad YAML, unknown keys, wrong
// types, numbers that are not plain decimals (0x3C, 075, .inf) and impossible values
// (thresholds outside the metric's range, a trip that could never release, a window outside
// 0.001..3600 s). load_policy_config refuses a directory or device ("PATH:0:0: is a
// directory, ..."). docs/driver.md "Policy file" lists the keys.
PolicyConfig load_policy_config(const std::string& path);
PolicyConfig parse_policy_config(const std::string& yaml_text, const std::string& source_name);

// Windowed metrics behind a decision (NaN where not measured).
struct PolicyMetrics {
  std::size_t samples = 0;
  double avg_temp = 0, avg_temp_rate = 0;
  std::map<std::string, double> local_temp, local_temp_rate;
  double peak_power = 0, avg_power = 0, avg_power_rate = 0;
  double soc_pct = 0;
  bool charging = false;
  double gpu_clock_mhz = 0;
  std::map<std::string, double> counters;
};

struct Decision {
  double time_s = 0;
  bool two_level = false;
  bool changed = false;
  std::vector<std::string> conditions;     // conditions holding, e.g. "avg_temp 72.0 > 70.0"
  std::vector<std::string> invalidations;  // invalidations holding, e.g. "charging"
  std::string reason;
  PolicyMetrics metrics;
};

class BinningPolicy {
 public:
  // Throws DriverError naming the key for a configuration the policy file would refuse.
  explicit BinningPolicy(PolicyConfig cfg);
  // Adds a sample (times must not decrease) and decides. Throws DriverError naming the field,
  // with the window unchanged, for a time that is not finite, a NaN in temps_c or counters, an
  // infinite value, or a value outside its physical range (PerfSample).
  Decision update(const PerfSample& s);
  bool two_level() const { return active_; }
  const PolicyConfig& config() const { return cfg_; }
  uint64_t changes() const { return changes_; }

 private:
  bool latch(const std::string& key, const Trip& t, double value);
  PolicyMetrics metrics() const;

  PolicyConfig cfg_;
  std::vector<PerfSample> window_;
  std::map<std::string, bool> latched_;
  bool active_ = false;
  bool have_change_ = false;
  double last_change_s_ = 0;
  uint64_t changes_ = 0;
};

// A trace of samples, CSV with a header line. Columns: time_s (required), temp.<location>,
// power_w, soc_pct, charging (0/1/true/false), gpu_clock_mhz, counter.<name>; '#' starts a
// comment line. Throws ConfigError "FILE:LINE:COLUMN: column 'name': message", also for a
// value that is not a plain decimal or lies outside its physical range (PerfSample).
// load_trace_csv refuses a directory or device, naming the path.
std::vector<PerfSample> load_trace_csv(const std::string& path);
std::vector<PerfSample> parse_trace_csv(std::string_view text, const std::string& source_name);

// Runs the samples through the policy, one decision per sample.
std::vector<Decision> replay(BinningPolicy& policy, const std::vector<PerfSample>& samples);

}  // namespace tessera::driver
