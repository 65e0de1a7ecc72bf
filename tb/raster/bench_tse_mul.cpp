// Bench for raster_tse_mul, the TSE's multiplier (rtl/raster/raster_tse_mul.sv) as synthesized:
// Baugh-Wooley rows and a 3:2 compressor tree whose two outputs s_o, c_o must sum to
// a_i * b_i + e_i modulo 2^74 (a_i signed 48 bits, b_i signed 26 bits, e_i unsigned 48 bits).
// Reference: the 128-bit integer product, not the rows or the tree.
//
// The raster slice's and the GPU's simulation models define TESSERA_FAST_ARITH, under which
// the module is `a * b + e` and carry 0; this bench is where the tree itself is simulated.
//
// Rerun: RANDOM_SEED=<n> TESTCASE=<name> build/tb/raster/bench_tse_mul
#include <fmt/format.h>

#include <cstdint>
#include <vector>

#include "Vraster_tse_mul_default.h"
#include "prim_tb.hpp"
#include "tb/test.hpp"

using tb::Task;

namespace {

using u128 = unsigned __int128;
using i128 = __int128;

constexpr unsigned kProductBits = 74;
constexpr u128 kProductMask = (u128(1) << kProductBits) - 1;

struct MulVector {
  std::int64_t a;  // signed, 48 bits
  std::int32_t b;  // signed, 26 bits
  std::uint64_t e; // unsigned, 48 bits
};

std::int64_t sext(std::uint64_t v, unsigned bits) {
  const std::uint64_t m = 1ULL << (bits - 1);
  v &= (m << 1) - 1;
  return static_cast<std::int64_t>((v ^ m) - m);
}

// A 74-bit output port (three 32-bit words) as an integer.
template <class W>
u128 wide74(const W& w) {
  return (u128(w[0]) | (u128(w[1]) << 32) | (u128(w[2]) << 64)) & kProductMask;
}

Task<> mul_check(tb::Dut<Vraster_tse_mul_default>& dut, const std::vector<MulVector>& vectors) {
  for (const auto& v : vectors) {
    dut->a_i = static_cast<std::uint64_t>(v.a) & ((1ULL << 48) - 1);
    dut->b_i = static_cast<std::uint32_t>(v.b) & ((1u << 26) - 1);
    dut->e_i = v.e & ((1ULL << 48) - 1);
    co_await tb::Timer(1, "ns");
    const u128 want = static_cast<u128>(i128(v.a) * i128(v.b) + i128(v.e)) & kProductMask;
    const u128 got = (wide74(dut->s_o) + wide74(dut->c_o)) & kProductMask;
    primtb::check(got == want, "raster_tse_mul: {} * {} + {:#x}: s_o + c_o = {:#x}{:016x}, expected {:#x}{:016x}", v.a,
                  v.b, v.e, std::uint64_t(got >> 64), std::uint64_t(got), std::uint64_t(want >> 64),
                  std::uint64_t(want));
  }
}

}  // namespace

// Catches: a sign correction missing or at the wrong weight (the extreme signed operands and
// -1), a partial-product row shifted or dropped (a walking one in b against dense a), a carry
// row not shifted (products with long carry chains: all ones), the addend row ignored.
TB_TEST(Vraster_tse_mul_default, tse_mul_corners) {
  const std::int64_t a_min = -(std::int64_t(1) << 47), a_max = (std::int64_t(1) << 47) - 1;
  const std::int32_t b_min = -(1 << 25), b_max = (1 << 25) - 1;
  const std::vector<std::int64_t> as{0, 1, -1, 2, a_min, a_max, a_min + 1, 0x5555'5555'5555, -0x5555'5555'5555};
  std::vector<std::int32_t> bs{0, 1, -1, b_min, b_max, b_min + 1, 0x155'5555, -0x155'5555};
  for (unsigned j = 0; j < 25; ++j) {
    bs.push_back(1 << j);
    bs.push_back(-(1 << j));
  }
  const std::vector<std::uint64_t> es{0, 1, (1ULL << 48) - 1, 1ULL << 47, 0x8'0000};
  std::vector<MulVector> v;
  for (auto a : as)
    for (auto b : bs)
      for (auto e : es) v.push_back({a, b, e});
  co_await mul_check(dut, v);
}

// Catches: any tree wiring error that corners miss, on operands drawn uniformly and with
// small magnitudes (the TSE's typical deltas).
TB_TEST(Vraster_tse_mul_default, tse_mul_random) {
  const std::uint64_t n = tb::scaled(100000, 2000000);
  std::vector<MulVector> v;
  v.reserve(n);
  for (std::uint64_t k = 0; k < n; ++k) {
    const bool small = k % 2 == 0;
    const std::int64_t a = small ? sext(tb::randint(0, (1 << 20) - 1), 20) : sext(tb::randint(0, (1ULL << 48) - 1), 48);
    const std::int32_t b = static_cast<std::int32_t>(small ? sext(tb::randint(0, (1 << 12) - 1), 12)
                                                           : sext(tb::randint(0, (1 << 26) - 1), 26));
    const std::uint64_t e = k % 3 == 0 ? 0 : tb::randint(0, (1ULL << 48) - 1);
    v.push_back({a, b, e});
  }
  co_await mul_check(dut, v);
}
