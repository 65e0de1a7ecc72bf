// Seeds for the driver tests: RANDOM_SEED (as in the harness benches) or, when it is unset,
// one drawn from the clock and printed at the start. Each test's generator derives from the
// run seed and the test's name, so RANDOM_SEED=n --gtest_filter=Suite.Test reproduces one test.
#pragma once

#include <cstdint>
#include <random>

namespace tessera::driver::test {

std::uint64_t run_seed();
std::uint64_t test_seed();
inline std::mt19937_64 test_rng() { return std::mt19937_64(test_seed()); }

}  // namespace tessera::driver::test
