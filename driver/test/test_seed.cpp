#include "test_seed.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>

namespace tessera::driver::test {

std::uint64_t run_seed() {
  static const std::uint64_t seed = [] {
    std::uint64_t s;
    if (const char* e = std::getenv("RANDOM_SEED"); e && *e)
      s = std::strtoull(e, nullptr, 0);
    else
      s = static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()) % 1000000000ULL;
    fmt::print("driver_test: RANDOM_SEED={}\n", s);
    return s;
  }();
  return seed;
}

std::uint64_t test_seed() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "";
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a of the name, mixed with the run seed
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return h ^ (run_seed() * 0x9E3779B97F4A7C15ULL);
}

namespace {
class SeedListener : public ::testing::EmptyTestEventListener {
  void OnTestProgramStart(const ::testing::UnitTest&) override { run_seed(); }
  void OnTestEnd(const ::testing::TestInfo& info) override {
    if (info.result() && info.result()->Failed())
      fmt::print("rerun with: RANDOM_SEED={} driver_test --gtest_filter={}.{}\n", run_seed(), info.test_suite_name(),
                 info.name());
  }
};
[[maybe_unused]] const bool registered = [] {
  ::testing::UnitTest::GetInstance()->listeners().Append(new SeedListener);
  return true;
}();
}  // namespace

}  // namespace tessera::driver::test
