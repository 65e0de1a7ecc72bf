// Bench for the combinational bit-operation cells: prim_popcount, prim_lzc, prim_priority_enc
// and prim_add (rtl/common). Reference: the C++20 <bit> functions (std::popcount,
// std::countr_zero, std::countl_zero) and integer addition, i.e. the definitions in the module
// headers, not the RTL's adder chain, tree or prefix.
//
// Configurations: popcount WIDTH=33 (one more than a power of two: the count needs 6 bits)
// and WIDTH=16 (exhaustive; 16 needs the extra count bit); lzc WIDTH=32 (the RTL build's
// configuration) and WIDTH=12 in both modes (exhaustive, a non-power-of-2 width pads the
// encoder tree); priority_enc WIDTH=12 (exhaustive); add WIDTH=48 (the plane width: carry runs
// and random) and WIDTH=7 (exhaustive).
#include <fmt/format.h>

#include <bit>
#include <cstdint>
#include <functional>
#include <vector>

#include "Vprim_add_w48.h"
#include "Vprim_add_w7.h"
#include "Vprim_lzc_w12_lead.h"
#include "Vprim_lzc_w12_trail.h"
#include "Vprim_lzc_w32.h"
#include "Vprim_popcount_w16.h"
#include "Vprim_popcount_w33.h"
#include "Vprim_priority_enc_w12.h"
#include "prim_tb.hpp"
#include "tb/test.hpp"

using tb::Task;

namespace {

// prim_lzc_w32's MODE, as configured in rtl/common/CMakeLists.txt (1: leading zeros).
constexpr unsigned kLzc32Mode = 1;

constexpr std::uint64_t mask_of(unsigned width) { return width >= 64 ? ~0ULL : (1ULL << width) - 1; }

// Apply each vector to in_i, let the model settle (one time step), run `check`.
template <class V>
Task<> apply_vectors(tb::Dut<V>& dut, const std::vector<std::uint64_t>& vectors,
                     const std::function<void(std::uint64_t)>& check) {
  for (const auto v : vectors) {
    dut->in_i = v;
    co_await tb::Timer(1, "ns");
    check(v);
  }
}

// Interesting vectors of a width: zero, all ones, walking one, walking zero, every pair of
// set bits, a run of ones growing from either end, and random words of low, medium and high
// density.
std::vector<std::uint64_t> corner_and_random_vectors(unsigned width, std::uint64_t random_count) {
  const std::uint64_t m = mask_of(width);
  std::vector<std::uint64_t> v{0, m};
  for (unsigned i = 0; i < width; ++i) {
    v.push_back(1ULL << i);
    v.push_back(m & ~(1ULL << i));
    v.push_back(mask_of(i + 1));   // ones from the bottom
    v.push_back(m & ~mask_of(i));  // ones from the top
    for (unsigned j = i + 1; j < width; ++j) v.push_back((1ULL << i) | (1ULL << j));
  }
  const double density[] = {0.03, 0.5, 0.97};
  for (std::uint64_t k = 0; k < random_count; ++k) {
    const double d = density[k % 3];
    std::uint64_t x = 0;
    for (unsigned b = 0; b < width; ++b)
      if (tb::chance(d)) x |= 1ULL << b;
    v.push_back(x);
  }
  return v;
}

std::vector<std::uint64_t> all_vectors(unsigned width) {
  std::vector<std::uint64_t> v(1ULL << width);
  for (std::uint64_t i = 0; i < v.size(); ++i) v[i] = i;
  return v;
}

// prim_popcount: cnt_o = number of ones.
template <class V>
Task<> popcount_check(tb::Dut<V>& dut, unsigned width, const std::vector<std::uint64_t>& vectors) {
  co_await apply_vectors(dut, vectors, [&](std::uint64_t x) {
    const unsigned want = static_cast<unsigned>(std::popcount(x));
    const unsigned got = dut->cnt_o;
    primtb::check(got == want, "popcount WIDTH={}: in_i={:#x} gives cnt_o={}, expected {}", width, x, got, want);
  });
}

// prim_lzc: empty_o = (in == 0); cnt_o = trailing (MODE 0) or leading (MODE 1) zeros within
// WIDTH, and 0 when empty.
template <class V>
Task<> lzc_check(tb::Dut<V>& dut, unsigned width, unsigned mode, const std::vector<std::uint64_t>& vectors) {
  co_await apply_vectors(dut, vectors, [&](std::uint64_t x) {
    const bool empty = x == 0;
    unsigned want = 0;
    if (!empty)
      want = mode == 0 ? static_cast<unsigned>(std::countr_zero(x))
                       : static_cast<unsigned>(std::countl_zero(x)) - (64 - width);
    const unsigned got = dut->cnt_o;
    const bool got_empty = dut->empty_o;
    primtb::check(got_empty == empty && got == want,
                  "lzc WIDTH={} MODE={}: in_i={:#x} gives cnt_o={} empty_o={}, expected cnt_o={} empty_o={}", width,
                  mode, x, got, got_empty, want, empty);
  });
}

// prim_add: {co_o, sum_o} = a_i + b_i + ci_i, WIDTH bits each. Reference: the integer sum.
struct AddVector {
  std::uint64_t a, b;
  unsigned ci;
};

template <class V>
Task<> add_check(tb::Dut<V>& dut, unsigned width, const std::vector<AddVector>& vectors) {
  const std::uint64_t m = mask_of(width);
  for (const auto& v : vectors) {
    dut->a_i = v.a & m;
    dut->b_i = v.b & m;
    dut->ci_i = v.ci;
    co_await tb::Timer(1, "ns");
    // width <= 48 here, so the sum and its carry fit 64 bits
    const std::uint64_t full = (v.a & m) + (v.b & m) + v.ci;
    const std::uint64_t want = full & m;
    const unsigned want_co = unsigned(full >> width) & 1u;
    primtb::check(dut->sum_o == want && dut->co_o == want_co,
                  "add WIDTH={}: {:#x} + {:#x} + {} gives sum_o={:#x} co_o={}, expected {:#x} {}", width, v.a & m,
                  v.b & m, v.ci, std::uint64_t(dut->sum_o), unsigned(dut->co_o), want, want_co);
  }
}

}  // namespace

// Catches: a carry that does not cross a prefix group boundary (a run of propagates of every
// length ended by a generate or the carry in, at every position), a group near position 0
// merged wrongly (small operands with the carry in), a carry out lost, a subtraction's
// borrow (a + ~b + 1) wrong around a == b.
TB_TEST(Vprim_add_w48, add_w48_carry_runs_and_random) {
  constexpr unsigned kW = 48;
  const std::uint64_t m = mask_of(kW);
  std::vector<AddVector> v;
  for (unsigned ci = 0; ci < 2; ++ci) {
    v.push_back({0, 0, ci});
    v.push_back({m, 0, ci});
    v.push_back({m, m, ci});
    for (unsigned lo = 0; lo < kW; ++lo) {
      for (unsigned len = 1; lo + len <= kW; ++len) {
        // propagates on [lo, lo + len), a generate just below lo (or the carry in at lo 0)
        const std::uint64_t run = mask_of(len) << lo;
        const std::uint64_t gen = lo > 0 ? 1ULL << (lo - 1) : 0;
        v.push_back({run | gen, gen, ci});
        v.push_back({run & 0xAAAAAAAAAAAAULL, (run & ~0xAAAAAAAAAAAAULL) | gen, ci});
      }
    }
  }
  const std::uint64_t n = tb::scaled(50000, 1000000);
  for (std::uint64_t k = 0; k < n; ++k) {
    const std::uint64_t a = tb::randint(0, m);
    // a == b and b == a +- 1 as subtractions, and independent operands
    switch (k % 4) {
      case 0: v.push_back({a, ~a, 1}); break;
      case 1: v.push_back({a, ~(a + 1), 1}); break;
      case 2: v.push_back({a, ~(a - 1), 1}); break;
      default: v.push_back({a, tb::randint(0, m), unsigned(tb::randint(0, 1))}); break;
    }
  }
  co_await add_check(dut, kW, v);
}

// Catches: any wrong sum or carry out of a 7-bit adder (8 prefix positions, two levels with the
// top level partly empty), with and without the carry in.
TB_TEST(Vprim_add_w7, add_w7_exhaustive) {
  std::vector<AddVector> v;
  for (std::uint64_t a = 0; a < 128; ++a)
    for (std::uint64_t b = 0; b < 128; ++b)
      for (unsigned ci = 0; ci < 2; ++ci) v.push_back({a, b, ci});
  co_await add_check(dut, 7, v);
}

// Catches: a count that overflows its output (33 ones need 6 bits), bits ignored at either
// end of the vector (bit 0, bit 32), adder-width truncation in the sum.
TB_TEST(Vprim_popcount_w33, popcount_w33_corners_and_random) {
  co_await popcount_check(dut, 33, corner_and_random_vectors(33, tb::scaled(100000, 2000000)));
}

// Catches: any single wrong count for a 16-bit input; 16 ones need the 5th count bit.
TB_TEST(Vprim_popcount_w16, popcount_w16_exhaustive) { co_await popcount_check(dut, 16, all_vectors(16)); }

// Catches: counting from the wrong end, an off-by-one at bit 0 or bit 31, wrong cnt_o or
// empty_o for zero, a tree level that picks the wrong half, bits beyond the first one
// influencing the count.
TB_TEST(Vprim_lzc_w32, lzc_w32_corners_and_random) {
  std::vector<std::uint64_t> v = corner_and_random_vectors(32, tb::scaled(100000, 2000000));
  // The first one at every position with random bits on the side that must not matter.
  for (unsigned p = 0; p < 32; ++p) {
    for (int k = 0; k < 20; ++k) {
      const std::uint64_t noise = tb::randint(0, mask_of(32));
      const std::uint64_t dont_care = kLzc32Mode == 0 ? mask_of(32) & ~mask_of(p + 1) : mask_of(p);
      v.push_back((1ULL << p) | (noise & dont_care));
    }
  }
  co_await lzc_check(dut, 32, kLzc32Mode, v);
}

// Catches: any wrong count or empty flag for a 12-bit input, in either mode; padding of the
// 12-leaf tree to 16 leaking into the result.
TB_TEST(Vprim_lzc_w12_trail, lzc_w12_trailing_exhaustive) { co_await lzc_check(dut, 12, 0, all_vectors(12)); }
TB_TEST(Vprim_lzc_w12_lead, lzc_w12_leading_exhaustive) { co_await lzc_check(dut, 12, 1, all_vectors(12)); }

// prim_priority_enc: valid_o = any bit set, idx_o = lowest set bit (0 if none), onehot_o =
// only that bit (0 if none).
// Catches: a wrong index or one-hot for any 12-bit input, higher bits leaking into onehot_o,
// idx_o not 0 for an all-zero input.
TB_TEST(Vprim_priority_enc_w12, priority_enc_w12_exhaustive) {
  co_await apply_vectors(dut, all_vectors(12), [&](std::uint64_t x) {
    const bool valid = x != 0;
    const unsigned idx = valid ? static_cast<unsigned>(std::countr_zero(x)) : 0;
    const std::uint64_t onehot = valid ? 1ULL << idx : 0;
    primtb::check(
        dut->valid_o == valid && dut->idx_o == idx && dut->onehot_o == onehot,
        "priority_enc WIDTH=12: in_i={:#05x} gives valid_o={} idx_o={} onehot_o={:#05x}, expected {} {} {:#05x}", x,
        dut->valid_o, dut->idx_o, dut->onehot_o, valid, idx, onehot);
  });
}
