// Shared helpers for the primitive benches in tb/common: clock and reset, bit fields of wide
// verilated ports, and a coverage tally that fails a test whose stimulus never reached the
// corner cases it claims to exercise.
#pragma once

#include <fmt/format.h>
#include <verilated.h>

#include <cstdint>
#include <map>
#include <string>
#include <type_traits>
#include <utility>

#include "tb/coverage.hpp"
#include "tb/sim.hpp"
#include "tb/stream.hpp"
#include "tb/test.hpp"

namespace primtb {

inline constexpr double kClockNs = 10;

// Drive every input (`init`, raw writes: the clock is not running yet), start a 10 ns clock
// and hold rst_ni low for 3 rising edges. Returns at the third edge with rst_ni released
// (deferred), so the caller's first deferred inputs apply to the first cycle out of reset.
template <class V, class Init>
tb::Task<> clock_and_reset(tb::Dut<V>& dut, Init init) {
  init();
  dut->rst_ni = 0;
  tb::Clock(dut->clk_i, kClockNs, "ns").start();
  co_await tb::ClockCycles(dut->clk_i, 3);
  tb::write(dut->rst_ni, 1);
}

// Wait until a stream source has had all its items accepted, but fail instead of hanging
// (the clock keeps running, so the harness's stall detector would not end the test) if that
// takes more than `max_cycles`: a design that stops accepting is a failure, not a hang.
template <class T>
tb::Task<> wait_idle_or_fail(tb::SignalRef clk, tb::StreamSource<T>& src, std::uint64_t max_cycles) {
  for (std::uint64_t c = 0; !src.idle(); ++c) {
    if (c == max_cycles)
      tb::fail(fmt::format("the source still had {} of its items after {} cycles: the design stopped accepting",
                           src.pending(), max_cycles));
    co_await tb::RisingEdge(clk);
  }
}

// Write a bit field of an input port: Verilator stores up to 64 bits in an integer, wider
// ports in VlWide (32-bit words, least significant first).
template <class S>
  requires std::is_integral_v<S>
void set_field(S& s, unsigned lo, unsigned width, std::uint64_t v) {
  const std::uint64_t mask = (width >= 64 ? ~0ULL : ((1ULL << width) - 1)) << lo;
  s = static_cast<S>((static_cast<std::uint64_t>(s) & ~mask) | ((v << lo) & mask));
}
template <std::size_t N>
void set_field(VlWide<N>& s, unsigned lo, unsigned width, std::uint64_t v) {
  for (unsigned b = 0; b < width; ++b) {
    const unsigned bit = lo + b;
    const EData m = EData{1} << (bit % 32);
    if ((v >> b) & 1U)
      s[bit / 32] |= m;
    else
      s[bit / 32] &= ~m;
  }
}

// tb::check with a fmt message that is only formatted when the check fails: the benches
// check every output in every cycle, and formatting a passing message costs more than the
// simulation.
template <class... A>
void check(bool cond, fmt::format_string<A...> f, A&&... a) {
  if (!cond) tb::fail(fmt::format(f, std::forward<A>(a)...));
}

using Coverage = tb::Coverage;  // functional coverage tally (tb/coverage.hpp)

}  // namespace primtb
