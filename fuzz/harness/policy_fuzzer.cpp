// fuzz_policy: the binning-policy file parser (driver parse_policy_config), and the policy
// built from an accepted file running over a short fixed trace.
//
// Contract (driver/include/tessera/driver/policy.hpp): a bad file is a ConfigError naming
// file, line and column; anything else escaping is a finding, as is every sanitizer report.
// A policy from an accepted file takes any sample (unmeasured fields NaN) without crashing;
// BinningPolicy::update may refuse a sample with a DriverError.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "tessera/driver/error.hpp"
#include "tessera/driver/policy.hpp"

using tessera::fuzz::fuzz_finding;
namespace drv = tessera::driver;

namespace {

std::vector<drv::PerfSample> fixed_trace() {
  std::vector<drv::PerfSample> out;
  const double temps[] = {30, 95, 45, -10, 60, 120};
  for (int i = 0; i < 6; ++i) {
    drv::PerfSample s;
    s.time_s = 0.5 * i;
    s.temps_c["gpu"] = temps[i];
    s.temps_c["battery"] = temps[5 - i];
    if (i != 2) s.power_w = 2.0 + 3 * i;
    s.soc_pct = 90 - 15 * i;
    s.charging = i % 2 == 1;
    if (i != 3) s.gpu_clock_mhz = 400 + 100 * i;
    s.counters["gpu_busy_pct"] = 20.0 * i;
    out.push_back(s);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  drv::PolicyConfig cfg;
  try {
    cfg = drv::parse_policy_config(text, "fuzz-policy.yaml");
  } catch (const drv::ConfigError& e) {
    if (e.file() != "fuzz-policy.yaml") fuzz_finding(std::string("ConfigError names another file: ") + e.what());
    return 0;
  } catch (...) {
    fuzz_finding("parse_policy_config threw something other than ConfigError: " +
                 tessera::fuzz::current_exception_text());
  }
  if (!(cfg.window_s > 0) || !(cfg.min_dwell_s >= 0)) fuzz_finding("accepted a window_s <= 0 or a negative min_dwell_s");
  try {
    drv::BinningPolicy policy(cfg);
    static const std::vector<drv::PerfSample> trace = fixed_trace();
    for (const drv::PerfSample& s : trace) (void)policy.update(s);
  } catch (const drv::DriverError&) {
  } catch (...) {
    fuzz_finding("the policy of an accepted file threw something other than DriverError: " +
                 tessera::fuzz::current_exception_text());
  }
  return 0;
}
