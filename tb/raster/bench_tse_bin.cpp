// Bench for raster_tse_bin (rtl/raster/raster_tse_bin.sv): the bin-dependent part of triangle
// setup, which moves a primitive's ten planes (three edge functions, seven attributes) from
// its first 8x8 block dbx blocks right and dby blocks down (docs/raster.md "Setup once per
// triangle").
//
// Reference model, from the specification (not from the RTL's schedule): plane j at the bin's
// block = (value_j + dbx * 128 * Sx_j + dby * 128 * Sy_j) modulo 2^48, where Sx, Sy are the
// edge's A, B (21-bit signed) or the attribute's gx, gy (48-bit) per 1/16 pixel; a second,
// independent evaluation steps +128 Sx per block dbx times and +128 Sy dby times, the way GRAS
// walks (docs/raster.md "Rasterization": stepping is exact modulo 2^48), so a shared misreading
// of the formula by the model and the RTL would still show.
// Timing contract: done_o pulses exactly 1 cycle after start_i when dbx = dby = 0, and 13
// cycles after otherwise; busy_o is high in between; inputs are held until done_o.
//
// Rerun: RANDOM_SEED=<n> TESTCASE=<name> build/tb/raster/bench_tse_bin (WAVES=1 for an FST).
#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "Vraster_tse_bin_default.h"
#include "prim_tb.hpp"
#include "tb/test.hpp"

using tb::RisingEdge;

namespace {

constexpr std::uint64_t kMask48 = (1ULL << 48) - 1;
constexpr unsigned kPlanes = 10;   // 3 edges, 7 attributes

struct Job {
  unsigned dbx = 0, dby = 0;
  std::array<std::uint64_t, kPlanes> value{};   // 48-bit
  std::array<std::int64_t, 3> ea{}, eb{};       // 21-bit signed
  std::array<std::uint64_t, 7> gx{}, gy{};      // 48-bit
};

std::uint64_t sx_of(const Job& j, unsigned p) { return p < 3 ? static_cast<std::uint64_t>(j.ea[p]) : j.gx[p - 3]; }
std::uint64_t sy_of(const Job& j, unsigned p) { return p < 3 ? static_cast<std::uint64_t>(j.eb[p]) : j.gy[p - 3]; }

// The specification's formula.
std::array<std::uint64_t, kPlanes> expected(const Job& j) {
  std::array<std::uint64_t, kPlanes> out{};
  for (unsigned p = 0; p < kPlanes; ++p)
    out[p] = (j.value[p] + j.dbx * (sx_of(j, p) << 7) + j.dby * (sy_of(j, p) << 7)) & kMask48;
  return out;
}

// GRAS's way: one block at a time, wrapping in 48 bits at every step.
std::array<std::uint64_t, kPlanes> stepped(const Job& j) {
  std::array<std::uint64_t, kPlanes> out = j.value;
  for (unsigned p = 0; p < kPlanes; ++p) {
    for (unsigned b = 0; b < j.dbx; ++b) out[p] = (out[p] + (sx_of(j, p) << 7)) & kMask48;
    for (unsigned b = 0; b < j.dby; ++b) out[p] = (out[p] + (sy_of(j, p) << 7)) & kMask48;
  }
  return out;
}

std::uint64_t rand48() {
  switch (tb::randint(0, 3)) {
    case 0: return tb::randint(0, 0xFFFF);                              // small positive
    case 1: return (0 - static_cast<std::uint64_t>(tb::randint(1, 0xFFFF))) & kMask48;  // small negative
    case 2: return tb::randint(0, 1) ? 0x7FFFFFFFFFFFULL - tb::randint(0, 255) : 0x800000000000ULL + tb::randint(0, 255);
    default: return static_cast<std::uint64_t>(tb::randint(0, 0xFFFFFF)) << 24 | tb::randint(0, 0xFFFFFF);
  }
}
std::int64_t rand21() {
  return tb::chance(0.2) ? (tb::randint(0, 1) ? (1 << 20) - 1 : -(1 << 20)) : tb::randint(-(1 << 20), (1 << 20) - 1);
}
unsigned rand_offset() {
  if (tb::chance(0.3)) return 0;
  if (tb::chance(0.15)) return 255;
  return static_cast<unsigned>(tb::chance(0.5) ? tb::randint(1, 8) : tb::randint(1, 255));
}

Job random_job() {
  Job j;
  j.dbx = rand_offset();
  j.dby = rand_offset();
  for (auto& v : j.value) v = rand48();
  for (auto& a : j.ea) a = rand21();
  for (auto& b : j.eb) b = rand21();
  for (auto& g : j.gx) g = rand48();
  for (auto& g : j.gy) g = rand48();
  return j;
}

void put(std::vector<std::uint32_t>& w, unsigned lo, unsigned width, std::uint64_t v) {
  for (unsigned b = 0; b < width; ++b)
    if ((v >> b) & 1) w[(lo + b) / 32] |= 1u << ((lo + b) % 32);
}
std::uint64_t take(const std::vector<std::uint32_t>& w, unsigned lo, unsigned width) {
  std::uint64_t v = 0;
  for (unsigned b = 0; b < width; ++b) v |= static_cast<std::uint64_t>((w[(lo + b) / 32] >> ((lo + b) % 32)) & 1) << b;
  return v;
}

void drive(tb::Dut<Vraster_tse_bin_default>& dut, const Job& j) {
  dut->dbx_i = j.dbx;
  dut->dby_i = j.dby;
  std::vector<std::uint32_t> w(5, 0), ea(2, 0), eb(2, 0), pv(11, 0), gx(11, 0), gy(11, 0);
  for (unsigned p = 0; p < 3; ++p) {
    put(w, p * 48, 48, j.value[p]);
    put(ea, p * 21, 21, static_cast<std::uint64_t>(j.ea[p]));
    put(eb, p * 21, 21, static_cast<std::uint64_t>(j.eb[p]));
  }
  for (unsigned i = 0; i < 7; ++i) {
    put(pv, i * 48, 48, j.value[3 + i]);
    put(gx, i * 48, 48, j.gx[i]);
    put(gy, i * 48, 48, j.gy[i]);
  }
  tb::SignalRef(dut->w_i).write_words(w);
  tb::SignalRef(dut->ea_i).write_words(ea);
  tb::SignalRef(dut->eb_i).write_words(eb);
  tb::SignalRef(dut->pv_i).write_words(pv);
  tb::SignalRef(dut->pgx_i).write_words(gx);
  tb::SignalRef(dut->pgy_i).write_words(gy);
}

std::array<std::uint64_t, kPlanes> result(tb::Dut<Vraster_tse_bin_default>& dut) {
  const auto w = tb::SignalRef(dut->w_o).read_words();
  const auto pv = tb::SignalRef(dut->pv_o).read_words();
  std::array<std::uint64_t, kPlanes> out{};
  for (unsigned p = 0; p < 3; ++p) out[p] = take(w, p * 48, 48);
  for (unsigned i = 0; i < 7; ++i) out[3 + i] = take(pv, i * 48, 48);
  return out;
}

// One job: start, count the cycles to done_o (busy_o must stay high until then), compare.
tb::Task<> run_job(tb::Dut<Vraster_tse_bin_default>& dut, const Job& j, std::uint64_t n, primtb::Coverage& cov) {
  tb::defer([&dut, j] { drive(dut, j); });
  tb::write(dut->start_i, 1);
  co_await RisingEdge(dut->clk_i);
  tb::write(dut->start_i, 0);
  const unsigned want_cycles = (j.dbx == 0 && j.dby == 0) ? 1 : 13;
  unsigned cycles = 0;
  for (;;) {
    co_await tb::ReadOnly();
    ++cycles;
    if (dut->done_o) break;
    primtb::check(dut->busy_o, "job {}: busy_o low {} cycles after start, before done_o", n, cycles);
    primtb::check(cycles < 40, "job {}: no done_o 40 cycles after start", n);
    co_await RisingEdge(dut->clk_i);
  }
  primtb::check(cycles == want_cycles, "job {} (dbx {}, dby {}): done_o {} cycles after start, the contract says {}", n,
                j.dbx, j.dby, cycles, want_cycles);
  const auto got = result(dut);
  const auto want = expected(j);
  const auto step = stepped(j);
  for (unsigned p = 0; p < kPlanes; ++p) {
    primtb::check(want[p] == step[p], "model disagrees with stepping, plane {}: {:#x} vs {:#x}", p, want[p], step[p]);
    primtb::check(got[p] == want[p], "job {} (dbx {}, dby {}), plane {}: {:#014x}, expected {:#014x} (start {:#014x})", n,
                  j.dbx, j.dby, p, got[p], want[p], j.value[p]);
    const std::uint64_t lin = j.value[p] + j.dbx * (sx_of(j, p) << 7) + j.dby * (sy_of(j, p) << 7);
    cov.hit("a plane wrapped modulo 2^48", ((lin >> 47) & 1) != ((j.value[p] >> 47) & 1) && p >= 3);
  }
  cov.hit("zero offset", j.dbx == 0 && j.dby == 0);
  cov.hit("x offset only", j.dbx != 0 && j.dby == 0);
  cov.hit("y offset only", j.dbx == 0 && j.dby != 0);
  cov.hit("both offsets", j.dbx != 0 && j.dby != 0);
  cov.hit("largest offsets (255, 255)", j.dbx == 255 && j.dby == 255);
  cov.hit("negative edge coefficient", j.ea[0] < 0 || j.eb[0] < 0);
  co_await RisingEdge(dut->clk_i);
}

}  // namespace

// Random planes and offsets, starts back to back or after random gaps, every job checked.
// Catches: a product kept too narrow (offsets up to 255 blocks, gradients up to 2^47), the
// edges' A, B not sign-extended, a plane given another plane's products or none, the x and y
// offsets swapped, a missing << 7 (a block is 128 sixteenths), a done before the last plane
// is added, a long schedule for a zero offset.
TB_TEST(Vraster_tse_bin_default, random_offsets) {
  co_await primtb::clock_and_reset(dut, [&] { dut->start_i = 0; });
  co_await RisingEdge(dut->clk_i);
  primtb::Coverage cov;
  const std::uint64_t jobs = tb::scaled(3000, 30000);
  for (std::uint64_t n = 0; n < jobs; ++n) {
    co_await run_job(dut, random_job(), n, cov);
    const std::uint64_t gap = tb::chance(0.5) ? 0 : static_cast<std::uint64_t>(tb::randint(1, 4));
    for (std::uint64_t g = 0; g < gap; ++g) {
      co_await tb::ReadOnly();
      primtb::check(!dut->busy_o && !dut->done_o, "job {}: busy_o or done_o while idle", n);
      co_await RisingEdge(dut->clk_i);
    }
  }
  dut.log().info("{} jobs; {}", jobs, cov.report());
  for (const char* what : {"zero offset", "x offset only", "y offset only", "both offsets", "largest offsets (255, 255)",
                           "negative edge coefficient", "a plane wrapped modulo 2^48"})
    cov.require(what, 10);
}
