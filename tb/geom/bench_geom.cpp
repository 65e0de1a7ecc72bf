// Bench for the sliced geometry front end geom_top (rtl/geom, docs/geometry.md) with 1, 2 and
// 4 slices (models geom_n1, geom_n2, geom_n4). The environment (geom_env.hpp) checks every
// cycle: each receiving slice's triangles against the C++ reference (geom_ref.hpp) in order,
// nothing dropped or duplicated, vertices read back from the producing slice's store, the
// memory protocol, done order and draw completion, side-output order, valid/ready stability.
//
// Rerun one test: RANDOM_SEED=<n> TESTCASE=<name> build/tb/geom/bench_geom (WAVES=1 for an FST).
// TESSERA_REGRESS=1 runs longer random streams.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "Vgeom_n1.h"
#include "Vgeom_n2.h"
#include "Vgeom_n4.h"
#include "geom_env.hpp"
#include "tb/test.hpp"

using geomtb::Draw;
using geomtb::GeomBench;
using geomtb::Vertex;
using tb::Task;

namespace {

// ---- stimulus -----------------------------------------------------------------------------------

enum class Shape { normal, degenerate, offscreen, huge, tiny };

Vertex rand_vertex(Shape sh) {
  Vertex v;
  auto coord = [&](int lo, int hi) { return static_cast<std::int16_t>(tb::randint(0, hi - lo) + lo); };
  switch (sh) {
    case Shape::normal: v.x = coord(-200 * 16, 2100 * 16); v.y = coord(-200 * 16, 2100 * 16); break;
    case Shape::degenerate: v.x = coord(0, 3); v.y = coord(0, 3); break;  // near-identical vertices
    case Shape::offscreen: v.x = coord(-2047 * 16, -100 * 16); v.y = coord(-2047 * 16, 2047 * 16); break;
    case Shape::huge: v.x = tb::chance(0.5) ? coord(-32768, -30000) : coord(30000, 32767);
                      v.y = tb::chance(0.5) ? coord(-32768, -30000) : coord(30000, 32767); break;
    case Shape::tiny: v.x = coord(100 * 16, 110 * 16); v.y = coord(100 * 16, 110 * 16); break;
  }
  v.z = static_cast<std::uint32_t>(tb::randint(0, 0xffffff));
  v.r = static_cast<std::uint8_t>(tb::randint(0, 255));
  v.g = static_cast<std::uint8_t>(tb::randint(0, 255));
  v.b = static_cast<std::uint8_t>(tb::randint(0, 255));
  v.a = static_cast<std::uint8_t>(tb::randint(0, 255));
  v.u = static_cast<std::uint16_t>(tb::randint(0, 0xffff));
  v.v = static_cast<std::uint16_t>(tb::randint(0, 0xffff));
  return v;
}

Shape rand_shape() {
  const auto p = tb::randint(0, 99);
  return p < 60 ? Shape::normal : p < 70 ? Shape::degenerate : p < 82 ? Shape::offscreen : p < 88 ? Shape::huge
                                                                                                   : Shape::tiny;
}

// A draw with fresh vertex/index buffers. count: vertices (non-indexed) or indices.
template <class V>
Draw make_draw(GeomBench<V>& b, unsigned topology, unsigned itype, std::uint32_t count, Shape shape_hint,
               bool mixed_shapes = true, bool walk = false) {
  Draw d;
  d.topology = topology;
  d.index_type = itype;
  d.count = count;
  const std::uint32_t nverts =
      itype == TS_INDEX_TYPE_NONE ? count : static_cast<std::uint32_t>(tb::randint(1, std::max<std::uint32_t>(1, std::min<std::uint32_t>(count, 400))));
  const auto vskip = 16 * static_cast<std::uint32_t>(tb::randint(0, 3));  // not always line aligned
  d.vertex_addr = b.allocate(vskip + nverts * 16, 16) + vskip;
  Shape sh = shape_hint;
  int wx = 0, wy = 0;  // walk: each vertex near the last, so triangles are small (two-level binning)
  for (std::uint32_t i = 0; i < nverts; ++i) {
    if (mixed_shapes && i % 3 == 0) sh = tb::chance(0.7) ? shape_hint : rand_shape();
    Vertex v = rand_vertex(sh);
    if (walk) {
      if (i == 0 || tb::chance(0.1)) {
        wx = static_cast<int>(tb::randint(0, 2200 * 16)) - 100 * 16;
        wy = static_cast<int>(tb::randint(0, 2200 * 16)) - 100 * 16;
      }
      wx = std::clamp(wx + static_cast<int>(tb::randint(0, 240 * 16)) - 120 * 16, -32768, 32767);
      wy = std::clamp(wy + static_cast<int>(tb::randint(0, 240 * 16)) - 120 * 16, -32768, 32767);
      v.x = static_cast<std::int16_t>(wx);
      v.y = static_cast<std::int16_t>(wy);
    }
    geomtb::write_vertex(b.memory, d.vertex_addr + 16 * i, v);
  }
  if (itype != TS_INDEX_TYPE_NONE) {
    const std::uint32_t isz = itype == TS_INDEX_TYPE_U16 ? 2 : 4;
    const auto iskip = isz * static_cast<std::uint32_t>(tb::randint(0, 20));
    d.index_addr = b.allocate(iskip + count * isz, isz) + iskip;
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint32_t ix = tb::chance(0.3) && i > 0 ? static_cast<std::uint32_t>(tb::randint(0, nverts - 1))
                                                        : (i % nverts);
      if (isz == 2) b.memory.set_u16(d.index_addr + 2 * i, static_cast<std::uint16_t>(ix));
      else b.memory.set_u32(d.index_addr + 4 * i, ix);
    }
  }
  return d;
}

// A patch draw (docs/tessellation.md "Patch draws"): npatches patches of control points from
// make_draw (plus 0..ncp-1 stray ones a floor division drops), and a TF buffer of mostly low
// factors, some 0 (culled) and a few large or above 64 (clamped).
template <class V>
Draw make_patch_draw(GeomBench<V>& b, unsigned topology, unsigned itype, std::uint32_t npatches, bool walk = false) {
  const std::uint32_t ncp = topology == TS_TOPOLOGY_PATCH_QUAD ? 4 : topology == TS_TOPOLOGY_PATCH_TRI ? 3 : 2;
  const std::uint32_t stray = tb::chance(0.2) ? static_cast<std::uint32_t>(tb::randint(1, ncp - 1)) : 0;
  Draw d = make_draw(b, topology, itype, ncp * npatches + stray, walk ? Shape::normal : rand_shape(), !walk, walk);
  const auto tskip = 16 * static_cast<std::uint32_t>(tb::randint(0, 3));
  d.tf_addr = b.allocate(tskip + 16 * std::max<std::uint32_t>(npatches, 1), 16) + tskip;
  auto factor = [] {
    const auto p = tb::randint(0, 99);
    if (p < 8) return std::uint8_t{0};
    if (p < 96) return static_cast<std::uint8_t>(tb::randint(1, 5));
    if (p < 99) return static_cast<std::uint8_t>(tb::randint(6, 24));
    return static_cast<std::uint8_t>(tb::randint(60, 255));
  };
  for (std::uint32_t p = 0; p < npatches; ++p) {
    tessera::layout::TfRecord r;
    r.inner0 = factor();
    r.inner1 = factor();
    r.outer0 = factor();
    r.outer1 = factor();
    r.outer2 = static_cast<std::uint8_t>(tb::randint(0, 255));  // ignored
    r.outer3 = static_cast<std::uint8_t>(tb::randint(0, 255));
    const auto w = r.pack();
    for (unsigned i = 0; i < 4; ++i) b.memory.set_u32(d.tf_addr + 16 * p + 4 * i, w[i]);
  }
  return d;
}

template <class V>
void random_state(GeomBench<V>& b) {
  switch (tb::randint(0, 8)) {
    case 0: {
      static const std::uint32_t scales[] = {0x10000, 0x8000, 0x20000, 0xffff0000u, 0x18000, 0x4000};
      b.add_set_reg(tb::chance(0.5) ? TS_GEOM_VP_SCALE_X_OFFSET : TS_GEOM_VP_SCALE_Y_OFFSET,
                    tb::chance(0.8) ? scales[tb::randint(0, 5)] : static_cast<std::uint32_t>(tb::randint(0, 0xffffffffULL)));
      break;
    }
    case 1:
      b.add_set_reg(tb::chance(0.5) ? TS_GEOM_VP_OFFSET_X_OFFSET : TS_GEOM_VP_OFFSET_Y_OFFSET,
                    static_cast<std::uint32_t>(static_cast<std::int32_t>(tb::randint(0, 3000 * 16)) - 500 * 16));
      break;
    case 2:
      b.add_set_reg(TS_GEOM_CULL_OFFSET, TS_GEOM_CULL_MODE_PUT(tb::randint(0, 3)) | TS_GEOM_CULL_FRONT_CW_PUT(tb::randint(0, 1)));
      break;
    case 3:
      b.add_set_reg(TS_GEOM_TILE_OFFSET, TS_GEOM_TILE_SIZE_PUT(tb::randint(0, 3)) | TS_GEOM_TILE_SKEW_PUT(tb::randint(0, 7)));
      break;
    case 4:
      b.add_set_reg(TS_GEOM_RT_SIZE_OFFSET, TS_GEOM_RT_SIZE_WIDTH_PUT(tb::chance(0.5) ? 2048 : tb::randint(1, 2048)) |
                                                TS_GEOM_RT_SIZE_HEIGHT_PUT(tb::chance(0.5) ? 2048 : tb::randint(1, 2048)));
      break;
    case 5: {
      static const std::uint32_t sizes[] = {16, 17, 64, 100, 256, 1024, 3, 2047};
      b.add_set_reg(TS_GEOM_SUBBATCH_OFFSET, sizes[tb::randint(0, 7)]);
      break;
    }
    case 6: b.add_set_reg(TS_GEOM_DIST_OFFSET, static_cast<std::uint32_t>(tb::randint(0, 1))); break;
    case 7: b.add_set_reg(static_cast<std::uint32_t>(tb::randint(0x40, 0x1ff)) & ~3U, 0xdeadbeef); break;  // ro: ignored
    default: b.add_set_reg(TS_GEOM_CULL_OFFSET, 0); break;
  }
}

template <class V>
void random_commands(GeomBench<V>& b, unsigned ncmds, std::uint32_t max_count) {
  for (unsigned i = 0; i < ncmds; ++i) {
    const auto p = tb::randint(0, 99);
    if (p < 30) {
      random_state(b);
    } else if (p < 38) {
      switch (tb::randint(0, 4)) {
        case 0: b.add_side(TS_OP_RENDERPASS_BEGIN, {0, 0x1000, 0x08000800, 0x2000, 0, 0, 0, 0}); break;
        case 1: b.add_side(TS_OP_RENDERPASS_END, {}); break;
        case 2: b.add_side(TS_OP_FRAME_END, {static_cast<std::uint32_t>(i)}); break;
        case 3: b.add_side(TS_OP_SET_BIN_MODE, {0x10, 0x0404}); break;
        default: b.add_side(TS_OP_SET_REGS, {0x5000 + 4 * static_cast<std::uint32_t>(tb::randint(0, 15)), 7}); break;  // not GEOM
      }
    } else if (p < 42) {
      // erroneous: unknown topology (5..7) or index type 3
      Draw d;
      d.topology = tb::chance(0.6) ? static_cast<unsigned>(tb::randint(5, 7)) : static_cast<unsigned>(tb::randint(0, 4));
      d.index_type = d.topology <= TS_TOPOLOGY_PATCH_ISOLINE ? 3 : static_cast<unsigned>(tb::randint(0, 3));
      d.count = static_cast<std::uint32_t>(tb::randint(0, 100));
      b.add_draw(d);
    } else if (p < 54) {
      b.add_draw(make_patch_draw(b, static_cast<unsigned>(tb::randint(TS_TOPOLOGY_PATCH_QUAD, TS_TOPOLOGY_PATCH_ISOLINE)),
                                 static_cast<unsigned>(tb::randint(0, 2)), static_cast<std::uint32_t>(tb::randint(0, 24))));
    } else {
      const unsigned topo = tb::chance(0.5) ? TS_TOPOLOGY_TRI_LIST : TS_TOPOLOGY_TRI_STRIP;
      const unsigned itype = static_cast<unsigned>(tb::randint(0, 2));
      std::uint32_t count;
      const auto c = tb::randint(0, 99);
      if (c < 15) count = static_cast<std::uint32_t>(tb::randint(0, 5));
      else if (c < 70) count = static_cast<std::uint32_t>(tb::randint(6, 120));
      else if (c < 95) count = static_cast<std::uint32_t>(tb::randint(120, 600));
      else count = static_cast<std::uint32_t>(tb::randint(600, max_count));
      b.add_draw(make_draw(b, topo, itype, count, rand_shape()));
    }
  }
}

template <class V>
void random_knobs(GeomBench<V>& b) {
  auto& k = b.k;
  k.p_cmd = tb::randint(3, 10) / 10.0;
  k.p_mem_ready = tb::randint(3, 9) / 10.0;
  k.lat_max = static_cast<unsigned>(tb::randint(1, 40));
  k.p_rsp = tb::randint(5, 10) / 10.0;
  k.p_tri_ready = tb::randint(2, 9) / 10.0;
  k.p_rd = tb::randint(2, 10) / 10.0;
  k.p_side_ready = tb::randint(2, 10) / 10.0;
}

// Reads the counters and compares them with the reference totals (per slice exactly when the
// whole stream used round robin).
template <class V>
Task<> check_counters(GeomBench<V>& b, bool exact_per_slice) {
  auto rd = [&](std::uint32_t off) { return b.read_reg(off); };
  const std::uint32_t draws = co_await rd(TS_GEOM_DRAWS_OFFSET);
  geomtb::check(draws == b.total_draws, "DRAWS={} expected {}", draws, b.total_draws);
  const std::uint32_t vis = co_await rd(TS_GEOM_VISIBLE_OFFSET);
  geomtb::check(vis == b.visible_total, "VISIBLE={} expected {}", vis, b.visible_total);
  const std::uint32_t za = co_await rd(TS_GEOM_CULL_ZERO_AREA_OFFSET);
  const std::uint32_t fc = co_await rd(TS_GEOM_CULL_FACE_OFFSET);
  const std::uint32_t of = co_await rd(TS_GEOM_CULL_OFFSCREEN_OFFSET);
  geomtb::check(za == b.totals.zero_area && fc == b.totals.face && of == b.totals.offscreen,
                "culled zero-area/face/offscreen = {}/{}/{}, expected {}/{}/{}", za, fc, of, b.totals.zero_area,
                b.totals.face, b.totals.offscreen);
  const std::uint32_t asg = co_await rd(TS_GEOM_ASSIGNED_OFFSET);
  geomtb::check(asg == b.assigned_total, "ASSIGNED={} expected {}", asg, b.assigned_total);
  const std::uint32_t tp = co_await rd(TS_GEOM_TESS_PATCHES_OFFSET);
  const std::uint32_t tt = co_await rd(TS_GEOM_TESS_TRIANGLES_OFFSET);
  const std::uint32_t ts = co_await rd(TS_GEOM_TESS_ISOLINE_SEGMENTS_OFFSET);
  geomtb::check(tp == b.totals.patches && tt == b.totals.tess_triangles && ts == b.totals.isoline_segments,
                "TESS_PATCHES/TRIANGLES/ISOLINE_SEGMENTS = {}/{}/{}, expected {}/{}/{}", tp, tt, ts, b.totals.patches,
                b.totals.tess_triangles, b.totals.isoline_segments);
  const std::uint32_t es = co_await rd(TS_GEOM_ERR_STATUS_OFFSET);
  geomtb::check(TS_GEOM_ERR_STATUS_COUNT_GET(es) == (b.total_errors & 0xffff), "ERR_STATUS.count={} expected {}",
                TS_GEOM_ERR_STATUS_COUNT_GET(es), b.total_errors);
  std::uint64_t sb = 0, prims = 0, culled = 0;
  for (unsigned s = 0; s < TS_GEOM_SLICE_COUNT; ++s) {
    const std::uint32_t base = s * TS_GEOM_SLICE_STRIDE;
    const std::uint32_t ssb = co_await rd(TS_GEOM_SL_SUBBATCHES_OFFSET + base);
    const std::uint32_t spr = co_await rd(TS_GEOM_SL_PRIMS_OFFSET + base);
    const std::uint32_t scu = co_await rd(TS_GEOM_SL_CULLED_OFFSET + base);
    const std::uint32_t sou = co_await rd(TS_GEOM_SL_OUTSTANDING_OFFSET + base);
    geomtb::check(sou == 0, "slice {} still has {} outstanding primitives after the run", s, sou);
    if (s >= b.n()) {
      geomtb::check(ssb == 0 && spr == 0, "absent slice {} reads non-zero counters", s);
      continue;
    }
    sb += ssb;
    prims += spr;
    culled += scu;
    if (exact_per_slice)
      geomtb::check(ssb == b.rr_sb[s] && spr == b.rr_prims[s],
                    "round robin: slice {} got {} sub-batches / {} primitives, expected {} / {}", s, ssb, spr,
                    b.rr_sb[s], b.rr_prims[s]);
  }
  geomtb::check(sb == b.total_subbatches && prims == b.total_prims,
                "sub-batches/primitives over all slices {}/{}, expected {}/{}", sb, prims, b.total_subbatches,
                b.total_prims);
  geomtb::check(culled == b.totals.zero_area + b.totals.face + b.totals.offscreen, "per-slice culled sum {}", culled);
  const std::uint32_t cfg = co_await rd(TS_GEOM_CONFIG_OFFSET);
  geomtb::check(TS_GEOM_CONFIG_NUM_SLICES_GET(cfg) == b.n(), "CONFIG.num_slices={}", TS_GEOM_CONFIG_NUM_SLICES_GET(cfg));
}

// Random command streams: state changes (viewport, culling, tiles and skew, render target,
// sub-batch size 16..1024 and out-of-range values, policy), draws of every topology and index
// type from 0 vertices to several sub-batches with degenerate, off-screen, tiny and huge
// triangles, erroneous draws and side commands, with random backpressure on every channel
// and out-of-order memory. Catches: a triangle lost, duplicated, reordered or sent to the
// wrong slice; a wrong mask, cull decision or viewport result; a vertex read from the wrong
// store entry or an entry freed too early; a draw completing before its triangles arrived; a
// side command overtaking a draw; a hang under any backpressure; wrong counters.
template <class V>
Task<> random_draws(tb::Dut<V>& dut, unsigned n) {
  GeomBench<V> b(dut, n);
  random_knobs(b);
  // back-face culling from the start, so every cull reason is reached whatever the draw
  b.add_set_reg(TS_GEOM_CULL_OFFSET, TS_GEOM_CULL_MODE_PUT(TS_CULL_MODE_BACK) |
                                         TS_GEOM_CULL_FRONT_CW_PUT(tb::randint(0, 1)));
  random_commands(b, static_cast<unsigned>(tb::scaled(n == 4 ? 250 : 300, 3000)), 2000);
  co_await b.reset();
  co_await b.run_all(2'000'000);
  co_await check_counters(b, !b.policy_changed);
  auto& c = b.cov;
  dut.log().info("{} slices: {} commands, {} triangles delivered, {} store reads, {} cycles; {}", n, b.cmds.size(),
                 b.st.tris, b.st.reads, b.cycle, c.report());
  for (const char* w : {"draw list", "draw strip", "draw quad patches", "draw triangle patches", "draw isoline patches", "index none", "index u16", "index u32", "draw over several sub-batches",
                        "erroneous draw", "side command", "triangle output stalled", "memory request stalled",
                        "memory response out of order"})
    c.require(w);
  if (n > 1) {
    c.require("triangle from another slice's store");
    c.require("triangle to every slice");
  }
  geomtb::check(b.totals.zero_area > 0 && b.totals.face > 0 && b.totals.offscreen > 0,
                "stimulus must reach every cull reason (za {}, face {}, off {})", b.totals.zero_area, b.totals.face,
                b.totals.offscreen);
}

TB_TEST(Vgeom_n1, random_draws_n1) { co_await random_draws(dut, 1); }
TB_TEST(Vgeom_n2, random_draws_n2) { co_await random_draws(dut, 2); }
TB_TEST(Vgeom_n4, random_draws_n4) { co_await random_draws(dut, 4); }

// Two-level binning (docs/two-level.md): a visibility pass (GEOM.VIS = WRITE) over a set of
// draws, then replays of random coarse bins (TEST) over the same draws, as the CP sends them.
// Random target and coarse grid (1..4 blocks per bin), a buffer of 1..3 lines per bin that
// starts with garbage (so a bitmap line read before it is written, or never written, shows),
// small triangles that touch few bins (list, strip, patch draws, every index type, up to
// 1,500 primitives so groups of 512 and the capacity are crossed), random sub-batch size and
// backpressure everywhere. Catches: a wrong bit, line, address or line count written (every
// write is compared with the reference's next line for its address), a primitive dropped that
// is visible or kept that is not (the receivers compare every triangle, the counters the
// sub-batches), a replay reading before the visibility pass is written, a strip cut, a hang.
template <class V>
Task<> two_level_passes(tb::Dut<V>& dut, unsigned n) {
  GeomBench<V> b(dut, n);
  random_knobs(b);
  const auto rw = static_cast<std::uint32_t>(tb::randint(64, 2048)), rh = static_cast<std::uint32_t>(tb::randint(64, 2048));
  b.add_set_reg(TS_GEOM_RT_SIZE_OFFSET, TS_GEOM_RT_SIZE_WIDTH_PUT(rw) | TS_GEOM_RT_SIZE_HEIGHT_PUT(rh));
  b.add_set_reg(TS_GEOM_CULL_OFFSET, TS_GEOM_CULL_MODE_PUT(tb::randint(0, 2)) | TS_GEOM_CULL_FRONT_CW_PUT(tb::randint(0, 1)));
  b.add_set_reg(TS_GEOM_TILE_OFFSET, TS_GEOM_TILE_SIZE_PUT(tb::randint(0, 2)) | TS_GEOM_TILE_SKEW_PUT(tb::randint(0, 7)));
  static const std::uint32_t sizes[] = {16, 17, 64, 100, 256, 1024};
  b.add_set_reg(TS_GEOM_SUBBATCH_OFFSET, sizes[tb::randint(0, 5)]);
  const unsigned bx = (rw + 63) / 64, by = (rh + 63) / 64;
  const auto w = static_cast<unsigned>(tb::randint(1, std::min(4U, bx))), h = static_cast<unsigned>(tb::randint(1, std::min(4U, by)));
  const unsigned nx = (bx + w - 1) / w, ny = (by + h - 1) / h;
  const auto stride = static_cast<std::uint32_t>(tb::randint(1, 3));
  const std::uint32_t base = b.allocate(nx * ny * stride * 64, 64);
  for (std::uint32_t a = 0; a < nx * ny * stride * 64; ++a)
    b.memory.set_byte(base + a, static_cast<std::uint8_t>(tb::randint(0, 255)));
  b.add_set_reg(TS_GEOM_COARSE_OFFSET, TS_GEOM_COARSE_W_PUT(w) | TS_GEOM_COARSE_H_PUT(h) | TS_GEOM_COARSE_NX_PUT(nx) |
                                           TS_GEOM_COARSE_NY_PUT(ny));
  b.add_set_reg(TS_GEOM_VIS_BASE_OFFSET, TS_GEOM_VIS_BASE_ADDR_PUT(base >> 6));
  b.add_set_reg(TS_GEOM_VIS_STRIDE_OFFSET, TS_GEOM_VIS_STRIDE_LINES_PUT(stride));
  std::vector<Draw> draws;
  const auto ndraws = tb::randint(2, 8);
  for (std::uint64_t i = 0; i < static_cast<std::uint64_t>(ndraws); ++i) {
    const auto p = tb::randint(0, 99);
    const auto itype = static_cast<unsigned>(tb::randint(0, 2));
    if (p < 20) {
      draws.push_back(make_patch_draw(b, static_cast<unsigned>(tb::randint(TS_TOPOLOGY_PATCH_QUAD, TS_TOPOLOGY_PATCH_TRI)),
                                      itype, static_cast<std::uint32_t>(tb::randint(0, 40)), true));
    } else {
      const unsigned topo = p < 35 ? TS_TOPOLOGY_TRI_STRIP : TS_TOPOLOGY_TRI_LIST;
      const auto count = static_cast<std::uint32_t>(tb::chance(0.3) ? tb::randint(600, 4500) : tb::randint(0, 300));
      draws.push_back(make_draw(b, topo, itype, count, Shape::normal, false, true));
    }
  }
  auto pass = [&](std::uint32_t vis) {
    b.add_set_reg(TS_GEOM_VIS_OFFSET, vis);
    b.add_side(TS_OP_RENDERPASS_BEGIN, {0, 0x1000, 0x08000800, 0x2000, 0, 0, 0, 0});
    for (const Draw& d : draws) b.add_draw(d);
    b.add_side(TS_OP_RENDERPASS_END, {});
  };
  pass(TS_GEOM_VIS_MODE_PUT(TS_VIS_MODE_WRITE));
  const unsigned replays = std::min<unsigned>(nx * ny, static_cast<unsigned>(tb::scaled(4, 16)));
  for (unsigned i = 0; i < replays; ++i)
    pass(TS_GEOM_VIS_MODE_PUT(TS_VIS_MODE_TEST) |
         TS_GEOM_VIS_BIN_PUT(i == 0 ? 0 : static_cast<std::uint32_t>(tb::randint(0, nx * ny - 1))));
  b.add_set_reg(TS_GEOM_VIS_OFFSET, TS_GEOM_VIS_MODE_PUT(TS_VIS_MODE_OFF));
  co_await b.reset();
  co_await b.run_all(4'000'000);
  co_await check_counters(b, false);
  const std::uint32_t skipped = co_await b.read_reg(TS_GEOM_VIS_SKIPPED_OFFSET);
  const std::uint32_t recorded = co_await b.read_reg(TS_GEOM_VIS_RECORDED_OFFSET);
  geomtb::check(skipped == b.vis.skipped && recorded == b.vis.recorded, "VIS_SKIPPED/VIS_RECORDED = {}/{}, expected {}/{}",
                skipped, recorded, b.vis.skipped, b.vis.recorded);
  dut.log().info("{} slices, {}x{} target, {}x{} coarse bins of {}x{} blocks, {} lines per bin: {} primitives recorded, "
                 "{} replays, {} primitives skipped, {} lines written, {} read, {} cycles",
                 n, rw, rh, nx, ny, w, h, stride, recorded, replays, skipped, b.vis_writes, b.vis_reads, b.cycle);
  b.cov.require("visibility line written");
  if (b.vis.tested > b.vis.skipped) b.cov.require("visibility line read");
}

TB_TEST(Vgeom_n1, two_level_passes_n1) { co_await two_level_passes(dut, 1); }
TB_TEST(Vgeom_n2, two_level_passes_n2) { co_await two_level_passes(dut, 2); }
TB_TEST(Vgeom_n4, two_level_passes_n4) { co_await two_level_passes(dut, 4); }

// Round robin only, exact per-slice sub-batch and primitive counts; the ownership function on
// single-tile triangles (one per tile of a 4x4 tile area for every skew): each must reach
// exactly its owner. Catches: a wrong round-robin order, per-slice counters, an off-by-one
// in the tile or ownership arithmetic.
template <class V>
Task<> ownership_and_rr(tb::Dut<V>& dut, unsigned n) {
  GeomBench<V> b(dut, n);
  b.add_set_reg(TS_GEOM_SUBBATCH_OFFSET, 16);
  for (unsigned skew = 0; skew < 8; ++skew) {
    b.add_set_reg(TS_GEOM_TILE_OFFSET, TS_GEOM_TILE_SIZE_PUT(TS_BIN_SIZE_PX32) | TS_GEOM_TILE_SKEW_PUT(skew));
    Draw d;
    d.topology = TS_TOPOLOGY_TRI_LIST;
    d.count = 3 * 16;
    d.vertex_addr = b.allocate(d.count * 16, 16);
    for (unsigned t = 0; t < 16; ++t) {
      const int tx = static_cast<int>(t % 4), ty = static_cast<int>(t / 4);
      // a triangle strictly inside tile (tx, ty), counter-clockwise
      const int x0 = (tx * 32 + 2) * 16, y0 = (ty * 32 + 2) * 16;
      Vertex v[3];
      v[0].x = static_cast<std::int16_t>(x0); v[0].y = static_cast<std::int16_t>(y0);
      v[1].x = static_cast<std::int16_t>(x0 + 28 * 16); v[1].y = static_cast<std::int16_t>(y0);
      v[2].x = static_cast<std::int16_t>(x0); v[2].y = static_cast<std::int16_t>(y0 + 28 * 16);
      for (unsigned i = 0; i < 3; ++i) geomtb::write_vertex(b.memory, d.vertex_addr + 16 * (3 * t + i), v[i]);
    }
    b.add_draw(d);
  }
  for (unsigned i = 0; i < 30; ++i)
    b.add_draw(make_draw(b, TS_TOPOLOGY_TRI_STRIP, static_cast<unsigned>(tb::randint(0, 2)),
                         static_cast<std::uint32_t>(tb::randint(3, 200)), Shape::normal));
  random_knobs(b);
  co_await b.reset();
  co_await b.run_all(1'000'000);
  co_await check_counters(b, true);
  // the host may clear error bits but not write state
  const bool ok = co_await b.write_reg(TS_GEOM_CULL_OFFSET, 1);
  geomtb::check(!ok, "a register-port write to the state register CULL must answer err");
  const bool ok2 = co_await b.write_reg(TS_GEOM_ERR_STATUS_OFFSET, 3);
  geomtb::check(ok2, "a register-port write to ERR_STATUS (w1c) must succeed");
}

TB_TEST(Vgeom_n1, ownership_and_rr_n1) { co_await ownership_and_rr(dut, 1); }
TB_TEST(Vgeom_n2, ownership_and_rr_n2) { co_await ownership_and_rr(dut, 2); }
TB_TEST(Vgeom_n4, ownership_and_rr_n4) { co_await ownership_and_rr(dut, 4); }

// ---- benchmarks ----------------------------------------------------------------------------------
// Printed figures, no timing assertions (docs/geometry.md, "Figures"). Memory answers within
// 1..8 cycles, every consumer always ready.

struct Fig {
  std::uint64_t cycles = 0, prims = 0;
  std::vector<std::uint64_t> sl_prims, sl_busy, sl_stall;
};

template <class V>
Task<Fig> measure(GeomBench<V>& b) {
  b.k = geomtb::Knobs{1.0, 1.0, 1, 8, 0.0, 0, 1.0, 1.0, 1.0, 1.0};
  co_await b.reset();
  co_await b.run_all(5'000'000);
  Fig f;
  f.cycles = b.cycle;
  f.prims = b.total_prims;
  for (unsigned s = 0; s < b.n(); ++s) {
    f.sl_prims.push_back(co_await b.read_reg(TS_GEOM_SL_PRIMS_OFFSET + s * TS_GEOM_SLICE_STRIDE));
    f.sl_busy.push_back(co_await b.read_reg(TS_GEOM_SL_BUSY_OFFSET + s * TS_GEOM_SLICE_STRIDE));
    f.sl_stall.push_back(co_await b.read_reg(TS_GEOM_SL_STALL_OFFSET + s * TS_GEOM_SLICE_STRIDE));
  }
  co_return f;
}

double max_over_mean(const std::vector<std::uint64_t>& v) {
  double sum = 0, mx = 0;
  for (auto x : v) sum += static_cast<double>(x), mx = std::max(mx, static_cast<double>(x));
  return sum > 0 ? mx / (sum / static_cast<double>(v.size())) : 0;
}

// Throughput: strips (1 new vertex per primitive) and lists (3), non-indexed, all visible
// small triangles spread over the screen; primitives per clock through PC_US and per slice.
template <class V>
Task<> bench_throughput(tb::Dut<V>& dut, unsigned n) {
  for (unsigned sbs : {256U, 16U})
  for (unsigned topo : {TS_TOPOLOGY_TRI_STRIP, TS_TOPOLOGY_TRI_LIST}) {
    GeomBench<V> b(dut, n);
    b.add_set_reg(TS_GEOM_CULL_OFFSET, 0);
    b.add_set_reg(TS_GEOM_SUBBATCH_OFFSET, sbs);
    for (unsigned i = 0; i < 8; ++i) b.add_draw(make_draw(b, topo, TS_INDEX_TYPE_NONE, 2048, Shape::tiny, false));
    const Fig f = co_await measure(b);
    const double ppc = static_cast<double>(f.prims) / static_cast<double>(f.cycles);
    fmt::print("BENCH geom_throughput slices={} subbatch={} topology={} prims={} cycles={} prims_per_clock={:.3f} "
               "per_slice={:.3f} (limit 1.000 per slice)\n",
               n, sbs, topo == TS_TOPOLOGY_TRI_STRIP ? "strip" : "list", f.prims, f.cycles, ppc, ppc / n);
    co_await tb::ClockCycles(dut->clk_i, 1);
  }
}
TB_TEST(Vgeom_n1, benchmark_throughput_n1) { co_await bench_throughput(dut, 1); }
TB_TEST(Vgeom_n2, benchmark_throughput_n2) { co_await bench_throughput(dut, 2); }
TB_TEST(Vgeom_n4, benchmark_throughput_n4) { co_await bench_throughput(dut, 4); }

// Load balance on a skewed workload: sub-batches alternate between cheap ones (strips, one
// vertex fetch per primitive) and expensive ones (lists with scattered U32 indices, three
// line reads per primitive). Round robin hands each kind to the same slices; least loaded
// follows the outstanding work.
template <class V>
Task<> bench_balance(tb::Dut<V>& dut, unsigned n) {
  for (unsigned ll : {0U, 1U}) {
    tb::rng().seed(12345);  // the same workload for both policies
    GeomBench<V> b(dut, n);
    b.add_set_reg(TS_GEOM_SUBBATCH_OFFSET, 64);
    b.add_set_reg(TS_GEOM_DIST_OFFSET, ll);
    for (unsigned i = 0; i < 48; ++i) {
      if (i % 2 == 0) {
        b.add_draw(make_draw(b, TS_TOPOLOGY_TRI_STRIP, TS_INDEX_TYPE_NONE, 64 + 2, Shape::tiny, false));
      } else {
        Draw d;
        d.topology = TS_TOPOLOGY_TRI_LIST;
        d.index_type = TS_INDEX_TYPE_U32;
        d.count = 64 * 3;
        d.vertex_addr = b.allocate(400 * 16, 64);
        for (std::uint32_t v = 0; v < 400; ++v) geomtb::write_vertex(b.memory, d.vertex_addr + 16 * v, rand_vertex(Shape::tiny));
        d.index_addr = b.allocate(d.count * 4, 64);
        for (std::uint32_t k = 0; k < d.count; ++k) b.memory.set_u32(d.index_addr + 4 * k, (k * 37) % 400);
        b.add_draw(d);
      }
    }
    const Fig f = co_await measure(b);
    std::string sp, sb, ss;
    std::vector<std::uint64_t> work;  // busy and not stalled: cycles the slice made progress or could
    for (unsigned s = 0; s < n; ++s) {
      sp += fmt::format("{}{}", s ? "/" : "", f.sl_prims[s]);
      sb += fmt::format("{}{}", s ? "/" : "", f.sl_busy[s]);
      ss += fmt::format("{}{}", s ? "/" : "", f.sl_stall[s]);
      work.push_back(f.sl_busy[s] - std::min(f.sl_busy[s], f.sl_stall[s]));
    }
    fmt::print("BENCH geom_balance slices={} policy={} cycles={} prims_per_slice={} busy_per_slice={} "
               "stall_per_slice={} prims_max_over_mean={:.3f} busy_max_over_mean={:.3f} "
               "unstalled_busy_max_over_mean={:.3f}\n",
               n, ll ? "least_loaded" : "round_robin", f.cycles, sp, sb, ss, max_over_mean(f.sl_prims),
               max_over_mean(f.sl_busy), max_over_mean(work));
    co_await tb::ClockCycles(dut->clk_i, 1);
  }
}
TB_TEST(Vgeom_n2, benchmark_balance_n2) { co_await bench_balance(dut, 2); }
TB_TEST(Vgeom_n4, benchmark_balance_n4) { co_await bench_balance(dut, 4); }

}  // namespace
