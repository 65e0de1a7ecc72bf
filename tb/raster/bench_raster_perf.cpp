// Raster slice figures (docs/raster.md "Figures"): pixels per clock on large triangles
// against the PIXELS_PER_CLK limit, primitives per clock on tiny ones, frame cycles of a
// fixed scene at 1, 2 and 4 slices (scaling efficiency) and memory bytes per frame. Every
// run is also checked against the reference renderer, so a figure never comes from a wrong
// picture. Memory: fixed 80-cycle latency (the DRAM model's default), no stalls.
#include <fmt/format.h>

#include "Vraster_slice_default.h"
#include "raster_env.hpp"
#include "scenes.hpp"

namespace {

using namespace rastertb;
using V = Vraster_slice_default;

Knobs fast_mem() {
  Knobs k;
  k.in_idle = 0;
  k.req_stall = 0;
  k.bs_stall = 0;
  k.lat_min = 80;
  k.lat_max = 80;
  return k;
}

tb::Task<Result> run_checked(tb::Dut<V>& dut, const Scene& sc, Knobs k) {
  SparseMemory rm, em;
  Env<V> env(dut, rm, k);
  co_await env.reset();
  Result res = co_await env.run(sc);
  rr::RefRenderer ref(em);
  for (const auto& o : sc) apply(ref, o);
  compare(res, rm, ref, em, sc);
  co_return res;
}

}  // namespace

// Large triangles: two triangles covering a 256x256 target, depth ALWAYS. Prints pixels per
// clock over the whole pass (tile load/store and setup included) against the 4 px/clk limit.
TB_TEST(Vraster_slice_default, figure_large_triangles) {
  tb::Clock(dut->clk_i, 10, "ns").start();
  for (std::uint32_t bs : {1u, 2u}) {
    Scene sc{Op::reg(kRegDepth, 0x13), Op::reg(kRegBin, bs), Op::begin(target(256, 256, 2, 2))};
    const std::int32_t m = 16 * 256;
    sc.push_back(Op::tri_op(tri(vtx(0, 0, 1, 0xFF0000FF), vtx(m, 0, 2, 0xFF00FF00), vtx(m, m, 3, 0xFFFF0000))));
    sc.push_back(Op::tri_op(tri(vtx(0, 0, 1, 0xFF0000FF), vtx(m, m, 3, 0xFFFF0000), vtx(0, m, 4, 0xFFFFFFFF))));
    sc.push_back(Op::end());
    const Result r = co_await run_checked(dut, sc, fast_mem());
    const double ppc = double(r.frags) / double(r.cycles);
    dut.log().info("FIGURE large triangles, {}x{} tiles: {} px in {} cycles = {:.2f} px/clk ({:.0f}% of {} px/clk); "
                   "{} quads; memory {} KiB; cycles: load {} setup {} raster {} ({:.2f} px/clk) store {}",
                   16 << bs, 16 << bs, r.frags, r.cycles, ppc, 100.0 * ppc / 4, 4, r.quads,
                   (r.rd_lines + r.wr_lines) * 64 / 1024, dut->cyc_load_o, dut->cyc_setup_o, dut->cyc_raster_o,
                   double(r.frags) / double(dut->cyc_raster_o), dut->cyc_store_o);
    tb::check(r.frags == 256u * 256u, "large triangles must cover the target once");
  }
}

// Tiny triangles: 512 sub-pixel to 2-pixel triangles in one 64x64 target (one 64x64 bin
// walk per batch). Prints primitives per clock.
TB_TEST(Vraster_slice_default, figure_tiny_triangles) {
  tb::Clock(dut->clk_i, 10, "ns").start();
  Scene sc{Op::reg(kRegDepth, 0x13), Op::reg(kRegBin, 2), Op::begin(target(64, 64, 2, 2))};
  for (int i = 0; i < 512; ++i) sc.push_back(Op::tri_op(random_tri(64, 64, 0, std::uint32_t(i))));
  sc.push_back(Op::end());
  const Result r = co_await run_checked(dut, sc, fast_mem());
  dut.log().info("FIGURE tiny triangles: {} triangles ({} bin-primitive pairs, {} fragments) in {} cycles = "
                 "{:.4f} prims/clk ({:.1f} cycles per bin-primitive pair); cycles: idle {} input_wait {} "
                 "memory_wait {} clear {} load {} setup {} raster {} store {}",
                 r.tris, r.binprims, r.frags, r.cycles, double(r.tris) / double(r.cycles),
                 double(r.cycles) / double(std::max<std::uint64_t>(r.binprims, 1)), dut->cyc_idle_o,
                 dut->cyc_input_wait_o, dut->cyc_memory_wait_o, dut->cyc_clear_o, dut->cyc_load_o,
                 dut->cyc_setup_o, dut->cyc_raster_o, dut->cyc_store_o);
}

// Fixed scene at 1, 2 and 4 slices: a 128x128 target, 32x32 bins, a 12x12 mesh plus 100
// random triangles. Frame cycles = the slowest slice; memory bytes summed over slices.
TB_TEST(Vraster_slice_default, figure_slice_scaling) {
  tb::Clock(dut->clk_i, 10, "ns").start();
  Scene body{Op::reg(kRegDepth, 0x11), Op::reg(kRegBin, 1), Op::begin(target(128, 128, 1, 1))};
  for (const auto& t : mesh(128, 128, 12, 24, false)) body.push_back(Op::tri_op(t));
  for (int i = 0; i < 100; ++i) body.push_back(Op::tri_op(random_tri(128, 128, tb::chance(0.7) ? 1 : 2, 1000 + i)));
  body.push_back(Op::end());
  double t1 = 0;
  for (unsigned n : {1u, 2u, 4u}) {
    std::uint64_t worst = 0, bytes = 0;
    for (unsigned s = 0; s < n; ++s) {
      Scene sc{Op::reg(kRegSlice, n | (s << 8) | (1u << 16))};
      sc.insert(sc.end(), body.begin(), body.end());
      const Result r = co_await run_checked(dut, sc, fast_mem());
      worst = std::max(worst, r.cycles);
      bytes += (r.rd_lines + r.wr_lines) * 64;
    }
    if (n == 1) t1 = double(worst);
    dut.log().info("FIGURE fixed scene, {} slice(s): frame {} cycles, speed-up {:.2f}, scaling efficiency {:.0f}%, "
                   "memory {} KiB per frame",
                   n, worst, t1 / double(worst), 100.0 * t1 / (double(n) * double(worst)), bytes / 1024);
  }
}

// Overdraw (docs/raster.md "LRZ"): 8 layers of screen-covering triangles drawn front to back
// (LESS, depth writes) into a 128x128 target, with the LRZ on and off. Every quad of layers
// 2..8 is hidden; the figure is the share of the hidden quads (the reference counts them
// with the LRZ off: quads that reach the RB and pass no fragment) the LRZ removes before FS.
TB_TEST(Vraster_slice_default, figure_overdraw_lrz) {
  tb::Clock(dut->clk_i, 10, "ns").start();
  constexpr std::uint32_t kW = 128, kH = 128;
  Result got[2];
  for (std::uint32_t lrz : {0u, 1u}) {
    Scene sc{Op::reg(kRegDepth, 0x11), Op::reg(kRegBin, 1), Op::reg(kRegLrz, lrz), Op::begin(target(kW, kH, 1, 1))};
    for (std::uint32_t l = 0; l < 8; ++l) sc.push_back(Op::tri_op(cover_tri(kW, kH, 0x100000 + l * 0x180000, 0x8000, l)));
    sc.push_back(Op::end());
    SparseMemory rm, em;
    Env<V> env(dut, rm, fast_mem());
    co_await env.reset();
    got[lrz] = co_await env.run(sc);
    rr::RefRenderer ref(em);
    for (const auto& o : sc) apply(ref, o);
    compare(got[lrz], rm, ref, em, sc);
  }
  // the LRZ removes hidden quads only (the bench's safety check), so the hidden quads it
  // removed are the hidden quads without it minus those still reaching the RB with it
  const std::uint64_t hidden = got[0].hidden;
  const double share = double(hidden - got[1].hidden) / double(std::max<std::uint64_t>(hidden, 1));
  tb::check(got[0].quads - got[1].quads == hidden - got[1].hidden, "the LRZ removed a quad that was not hidden");
  dut.log().info("FIGURE overdraw 8 layers front to back, {}x{}: LRZ off {} quads ({} hidden) in {} cycles; LRZ on {} "
                 "quads ({} hidden) in {} cycles; LRZ rejected {} blocks, {} quad positions: {:.1f}% of the hidden "
                 "quads removed before FS (target 90%)",
                 kW, kH, got[0].quads, hidden, got[0].cycles, got[1].quads, got[1].hidden, got[1].cycles,
                 got[1].lrz_blocks, got[1].lrz_quads, 100.0 * share);
  tb::check(got[0].lrz_blocks == 0, "LRZ.enable = 0 must reject nothing");
  tb::check(share >= 0.90, fmt::format("the LRZ removed {:.1f}% of the hidden quads, below 90%", 100.0 * share));
}
