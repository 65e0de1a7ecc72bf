// fuzz_trace: the sensor-trace parser (driver parse_trace_csv), and the accepted trace
// replayed through the policy of driver/config/policy.yaml's shape (every condition on).
//
// Contract (driver/include/tessera/driver/policy.hpp): a bad trace is a ConfigError naming
// file, line and column; anything else escaping is a finding, as is every sanitizer report.
// An accepted trace has non-decreasing times (replay refuses the other order with a
// DriverError, which is allowed but means the parser let it through: that is checked here).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "tessera/driver/error.hpp"
#include "tessera/driver/policy.hpp"

using tessera::fuzz::fuzz_finding;
namespace drv = tessera::driver;

namespace {

drv::PolicyConfig every_condition() {
  drv::PolicyConfig c;
  c.source = "<fuzz>";
  c.window_s = 5.0;
  c.min_dwell_s = 1.0;
  auto on = [](drv::Trip& t, bool above, double thr, double hyst) { t = {true, above, thr, hyst}; };
  on(c.avg_temp, true, 60, 3);
  on(c.avg_temp_rate, true, 1, 0.5);
  on(c.local_temp, true, 90, 3);
  c.local_temp_per_location["battery"] = 45;
  on(c.local_temp_rate, true, 3, 1);
  on(c.peak_power, true, 12, 1);
  on(c.avg_power, true, 8, 1);
  on(c.avg_power_rate, true, 1, 0.5);
  on(c.battery_soc, false, 20, 5);
  on(c.counters["gpu_busy_pct"], true, 98, 3);
  c.invalidate_charging = true;
  on(c.avg_temp_below, false, 35, 2);
  on(c.avg_temp_rate_below, false, -2, 0.5);
  on(c.avg_power_below, false, 2, 0.5);
  on(c.gpu_clock_above, true, 850, 50);
  return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<drv::PerfSample> samples;
  try {
    samples = drv::parse_trace_csv(text, "fuzz-trace.csv");
  } catch (const drv::ConfigError& e) {
    if (e.file() != "fuzz-trace.csv") fuzz_finding(std::string("ConfigError names another file: ") + e.what());
    return 0;
  } catch (...) {
    fuzz_finding("parse_trace_csv threw something other than ConfigError: " + tessera::fuzz::current_exception_text());
  }
  for (size_t i = 0; i < samples.size(); ++i) {
    if (!std::isfinite(samples[i].time_s)) fuzz_finding("accepted a time that is not finite (sample " + std::to_string(i) + ")");
    if (i != 0 && samples[i].time_s < samples[i - 1].time_s)
      fuzz_finding("accepted a time that goes backwards (sample " + std::to_string(i) + ")");
  }
  static const drv::PolicyConfig cfg = every_condition();
  try {
    drv::BinningPolicy policy(cfg);
    (void)drv::replay(policy, samples);
  } catch (const drv::DriverError& e) {
    fuzz_finding(std::string("replay of an accepted trace failed: ") + e.what());
  } catch (...) {
    fuzz_finding("replay threw something other than DriverError: " + tessera::fuzz::current_exception_text());
  }
  return 0;
}
