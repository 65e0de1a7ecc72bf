// Raster slice bench (rtl/raster, docs/raster.md): the RTL slice against the reference
// renderer (sim/raster) on directed corner cases and random scenes, every valid/ready
// channel under random backpressure, memory answered out of order with random latency.
// Rerun one test:  RANDOM_SEED=<n> TESTCASE=<name> build/tb/raster/bench_raster  (WAVES=1)
#include "Vraster_slice_default.h"
#include "raster_env.hpp"
#include "scenes.hpp"

namespace {

using namespace rastertb;
using V = Vraster_slice_default;

// Same pseudo-random contents in every memory image (targets start with "old" data, so a
// LOAD, or a pixel that must stay untouched, is visible).
void prefill(SparseMemory& m, const Scene& sc) {
  for (std::uint32_t i = 0; i < 64 * 64; ++i) m.write32(kTexAddr + 4 * i, (i * 0x9E3779B9u) ^ 0xA5A5A5A5u);
  for (const auto& o : sc) {
    if (o.kind != Op::kRpBegin) continue;
    for (std::uint32_t base : {o.rp.color_addr, o.rp.depth_addr})
      for (std::uint32_t i = 0; i < o.rp.width * o.rp.height; ++i)
        m.write32(base + 4 * i, (base + 4 * i) * 2654435761u);
  }
}

struct Run {
  Result res;
  std::uint64_t ref_frags = 0;
};

// Runs sc on the RTL (after a reset) and on the reference, compares everything.
tb::Task<Result> check_scene(tb::Dut<V>& dut, const Scene& sc, Knobs k, SparseMemory& rtl_mem,
                             SparseMemory& ref_mem, rr::RefRenderer& ref) {
  prefill(rtl_mem, sc);
  prefill(ref_mem, sc);
  Env<V> env(dut, rtl_mem, k);
  co_await env.reset();
  Result res = co_await env.run(sc);
  // Tile loads issue their reads back to back, so their responses (random latency) come back
  // out of order; texel misses are one read at a time. With fast clear a cleared tile reads
  // nothing, so a run's reads can be a handful of texel lines: ask for reordering only when
  // the run read more than a couple of tiles' worth.
  if (res.rd_lines > 64) env.coverage().require("response out of order");
  for (const auto& o : sc) apply(ref, o);
  compare(res, rtl_mem, ref, ref_mem, sc);
  co_return res;
}

void start_clock(tb::Dut<V>& dut) { tb::Clock(dut->clk_i, 10, "ns").start(); }

Scene prologue(std::uint32_t depth_reg, std::uint32_t bin_size) {
  return Scene{Op::reg(kRegDepth, depth_reg), Op::reg(kRegBin, bin_size)};
}

}  // namespace

// Catches: pixels missed or drawn twice on shared edges and vertices. A jittered mesh
// covering the whole target must give exactly one fragment per pixel (RTL fragment counter
// = width x height, reference per-pixel map all ones), for every tile size.
TB_TEST(Vraster_slice_default, watertight_mesh) {
  start_clock(dut);
  for (std::uint32_t bs = 0; bs < 3; ++bs) {
    const auto rp = target(96, 72);
    Scene sc = prologue(0x13, bs);   // ALWAYS, depth write
    sc.push_back(Op::begin(rp));
    for (const auto& t : mesh(96, 72, 6, 24, false)) sc.push_back(Op::tri_op(t));
    sc.push_back(Op::end());
    SparseMemory rm, em;
    rr::RefRenderer ref(em);
    ref.enable_fragment_map(96, 72);
    const Result r = co_await check_scene(dut, sc, Knobs{}, rm, em, ref);
    tb::check(r.frags == 96 * 72, fmt::format("fragments {} != {}", r.frags, 96 * 72));
    for (std::uint32_t y = 0; y < 72; ++y)
      for (std::uint32_t x = 0; x < 96; ++x) tb::check(ref.frag_count(x, y) == 1, "reference not watertight");
  }
}

// Catches: every top-left case. Inner mesh vertices snapped to pixel centres put many edges
// (horizontal, vertical, both diagonals, either winding) exactly through pixel centres and
// vertices on them; still exactly one fragment per pixel, and the image equals the model's.
TB_TEST(Vraster_slice_default, top_left_cases) {
  start_clock(dut);
  for (int rep = 0; rep < 2; ++rep) {
    const auto rp = target(64, 64);
    Scene sc = prologue(0x13, 0);
    sc.push_back(Op::begin(rp));
    for (const auto& t : mesh(64, 64, rep ? 16 : 8, 0, true)) sc.push_back(Op::tri_op(t));
    // axis-aligned squares split both ways, corners on pixel centres
    sc.push_back(Op::end());
    SparseMemory rm, em;
    rr::RefRenderer ref(em);
    const Result r = co_await check_scene(dut, sc, Knobs{}, rm, em, ref);
    tb::check(r.frags == 64 * 64, fmt::format("fragments {} != {}", r.frags, 64 * 64));
  }
}

// Catches: setup and rasterizer misbehaving on degenerate input: zero area (collinear,
// repeated vertices), slivers, sub-pixel triangles, and guard-band triangles whose vertices
// lie far outside the target (vertex range +-32768 px); and the batch-size clamp.
TB_TEST(Vraster_slice_default, degenerate_sliver_guard_band) {
  start_clock(dut);
  const auto rp = target(80, 48);
  Scene sc = prologue(0x12, 1);   // LEQUAL, depth write
  sc.push_back(Op::reg(kRegBatch, 0));   // 0 acts as BATCH_PRIMS
  sc.push_back(Op::begin(rp));
  const std::int32_t c = 16 * 20 + 8;
  // zero area
  sc.push_back(Op::tri_op(tri(vtx(c, c, 1, 1), vtx(c + 160, c + 80, 2, 2), vtx(c + 320, c + 160, 3, 3))));
  sc.push_back(Op::tri_op(tri(vtx(c, c, 1, 1), vtx(c, c, 2, 2), vtx(c + 320, c + 17, 3, 3))));
  sc.push_back(Op::tri_op(tri(vtx(c, c, 1, 1), vtx(c, c, 2, 2), vtx(c, c, 3, 3))));
  // slivers, both windings, every orientation
  for (int i = 0; i < 12; ++i) {
    const std::int32_t x0 = std::int32_t(tb::randint(0, 16 * 80)), y0 = std::int32_t(tb::randint(0, 16 * 48));
    const std::int32_t dx = std::int32_t(tb::randint(0, 2400)) - 1200, dy = std::int32_t(tb::randint(0, 2400)) - 1200;
    const std::int32_t e = std::int32_t(tb::randint(1, 6));
    sc.push_back(Op::tri_op(tri(vtx(x0, y0, rand_z(), rand_color()), vtx(x0 + dx, y0 + dy, rand_z(), rand_color()),
                                vtx(x0 + dx + e, y0 + dy - e, rand_z(), rand_color()))));
  }
  // sub-pixel
  for (int i = 0; i < 20; ++i) sc.push_back(Op::tri_op(random_tri(80, 48, 0, 100 + i)));
  // guard band: huge triangles, including one covering the whole target
  for (int i = 0; i < 6; ++i) sc.push_back(Op::tri_op(random_tri(80, 48, 3, 200 + i)));
  sc.push_back(Op::tri_op(tri(vtx(-500000, -500000, 0x10, 0xFF00FF00), vtx(500000, -400000, 0xFFFFFF, 0xFF0000FF),
                              vtx(-400000, 500000, 0x800000, 0xFFFF0000))));
  sc.push_back(Op::end());
  SparseMemory rm, em;
  rr::RefRenderer ref(em);
  co_await check_scene(dut, sc, Knobs{}, rm, em, ref);
}

// Catches: wrong tie handling of each depth function. The same triangle twice with equal
// depth and different colors: NEVER keeps the clear color, LESS the first, LEQUAL and
// ALWAYS the second; and depth/color write enables.
TB_TEST(Vraster_slice_default, depth_ties_per_function) {
  start_clock(dut);
  const std::uint32_t expect[4] = {0xFF202020, 0xFF0000AA, 0xFF00BB00, 0xFF00BB00};
  for (std::uint32_t f = 0; f < 4; ++f) {
    auto rp = target(32, 32);
    rp.clear_depth = 0x800001;
    Scene sc = prologue(f | 0x10, 0);
    sc.push_back(Op::begin(rp));
    auto a = tri(vtx(0, 0, 0x800000, 0xFF0000AA), vtx(16 * 32, 0, 0x800000, 0xFF0000AA), vtx(0, 16 * 32, 0x800000, 0xFF0000AA));
    auto b = a;
    for (auto& v : b.v) v.rgba = 0xFF00BB00;
    sc.push_back(Op::tri_op(a));
    sc.push_back(Op::tri_op(b));
    sc.push_back(Op::end());
    // write enables: a triangle with color write off and one with depth write off
    sc.push_back(Op::begin(target(32, 32, 0, 0)));
    sc.push_back(Op::reg(kRegColor, 0));
    sc.push_back(Op::reg(kRegDepth, 3));
    auto c = tri(vtx(16 * 32, 16 * 32, 0x10, 0xFFFFFFFF), vtx(16 * 32, 0, 0x10, 0xFFFFFFFF), vtx(0, 16 * 32, 0x10, 0xFFFFFFFF));
    sc.push_back(Op::tri_op(c));
    sc.push_back(Op::reg(kRegColor, 1));
    sc.push_back(Op::tri_op(c));
    sc.push_back(Op::end());
    SparseMemory rm, em;
    rr::RefRenderer ref(em);
    co_await check_scene(dut, sc, Knobs{}, rm, em, ref);
    // pixel (4, 4) is inside a (and b) and not c; its color after pass 1 was overwritten by
    // pass 2 only where c covers, so check the first pass through the reference's rule
    SparseMemory one;
    rr::RefRenderer r1(one);
    Scene first(sc.begin(), sc.begin() + 6);
    for (const auto& o : first) apply(r1, o);
    tb::check(one.read32(rp.color_addr + (4 * 32 + 4) * 4) == expect[f],
              fmt::format("depth func {}: color 0x{:08x}", f, one.read32(rp.color_addr + (4 * 32 + 4) * 4)));
  }
}

// Catches: texel addressing (nearest, power-of-two sizes), u/v wrap, the modulate
// rounding, the texel cache (hits, misses, refills) and texel reads sharing the memory port
// with tile traffic. u, v run past both ends of [0, 1) by rounding, so edge texels wrap.
TB_TEST(Vraster_slice_default, texture_wrap) {
  start_clock(dut);
  // TEX_CTRL: 1x1, 16x8, 32x32, 64x4 (log2_w at bits 11:8, log2_h at 19:16), linear, then the
  // same tiled (bit 1: 4x4 blocks in Morton order; the 1x1 texture stays linear)
  for (std::uint32_t ctrl : {0x00001u, 0x30401u, 0x50501u, 0x20601u, 0x00003u, 0x30403u, 0x50503u, 0x20603u}) {
    Scene sc = prologue(0x13, 1);
    sc.push_back(Op::reg(kRegTexBase, kTexAddr));
    sc.push_back(Op::reg(kRegTexCtrl, ctrl));
    sc.push_back(Op::begin(target(64, 48)));
    const std::int32_t m = 16 * 64, h = 16 * 48;
    sc.push_back(Op::tri_op(tri(vtx(0, 0, 5, 0xFFFFFFFF, 0, 0), vtx(m, 0, 5, 0xFF80FF40, 0xFFFF, 0),
                                vtx(m, h, 5, 0x80FFFFFF, 0xFFFF, 0xFFFF))));
    sc.push_back(Op::tri_op(tri(vtx(0, 0, 5, 0xFFFFFFFF, 0, 0), vtx(m, h, 5, 0x80FFFFFF, 0xFFFF, 0xFFFF),
                                vtx(0, h, 5, 0xFFFFFFFF, 0, 0xFFFF))));
    for (int i = 0; i < 10; ++i) {
      auto t = random_tri(64, 48, 1, std::uint32_t(i));
      for (auto& v : t.v) { v.u = std::uint16_t(tb::randint(0, 0xFFFF)); v.v = std::uint16_t(tb::randint(0, 0xFFFF)); }
      sc.push_back(Op::tri_op(t));
    }
    sc.push_back(Op::end());
    SparseMemory rm, em;
    rr::RefRenderer ref(em);
    const Result r = co_await check_scene(dut, sc, Knobs{}, rm, em, ref);
    tb::check(dut->cnt_tex_miss_o > 0 && dut->cnt_tex_hit_o > 0, "texel cache saw no hits or no misses");
    // the FS's scout reads ahead of the lookups: texel misses overlap (raster_fs.sv); the
    // small textures here are a handful of lines, read one after another
    tb::check(dut->cnt_tex_miss_o < 32 || (r.scout_reads > 0 && r.max_texel_reads_in_flight >= 2),
              fmt::format("texel misses did not overlap: {} scout reads, at most {} texel reads in flight",
                          r.scout_reads, r.max_texel_reads_in_flight));
    dut.log().info("texture {}: {} texel misses, {} scout reads, at most {} texel reads in flight", ctrl,
                   std::uint32_t(dut->cnt_tex_miss_o), r.scout_reads, r.max_texel_reads_in_flight);
  }
}

namespace {

// A random scene: render passes with random load ops, state changes (depth function and
// writes, batch size, color write), batch closes and flushes, triangles of every size.
Scene random_scene(std::uint32_t w, std::uint32_t h, std::uint32_t bin_size, int passes, int tris) {
  Scene sc;
  sc.push_back(Op::reg(kRegBin, bin_size));
  for (int p = 0; p < passes; ++p) {
    sc.push_back(Op::begin(target(w, h, std::uint32_t(tb::randint(0, 2)), std::uint32_t(tb::randint(0, 2)))));
    for (int i = 0; i < tris; ++i) {
      if (tb::chance(0.04)) sc.push_back(Op::reg(kRegDepth, std::uint32_t(tb::randint(0, 3)) | (tb::chance(0.8) ? 0x10 : 0)));
      if (tb::chance(0.02)) sc.push_back(Op::reg(kRegColor, tb::chance(0.8) ? 1 : 0));
      if (tb::chance(0.02)) sc.push_back(Op::reg(kRegBatch, std::uint32_t(tb::randint(0, 70))));
      if (tb::chance(0.02)) sc.push_back(Op::close());
      if (tb::chance(0.02)) {
        sc.push_back(Op::reg(kRegTexBase, kTexAddr));
        // linear or tiled (4x4 blocks in Morton order; 1- and 2-texel sides stay linear)
        sc.push_back(Op::reg(kRegTexCtrl, tb::chance(0.5) ? 0u : (1u | (tb::chance(0.5) ? 2u : 0u) |
                                                                    std::uint32_t(tb::randint(0, 6)) << 8 |
                                                                    std::uint32_t(tb::randint(0, 6)) << 16)));
      }
      if (tb::chance(0.01)) sc.push_back(Op::flush());
      const int cls = tb::chance(0.5) ? 1 : tb::chance(0.6) ? 0 : tb::chance(0.8) ? 2 : 3;
      sc.push_back(Op::tri_op(random_tri(w, h, cls, std::uint32_t(i))));
    }
    sc.push_back(Op::end());
  }
  return sc;
}

// Runs sc once per slice k of n (ownership via RASTER.SLICE), each against the reference
// with the same ownership; then checks that the union of the slices' images (each slice
// contributes the pixels of its own tiles) equals the single-slice reference image.
tb::Task<> run_sliced(tb::Dut<V>& dut, const Scene& sc, unsigned n, unsigned skew, std::uint32_t bin_size, Knobs k) {
  SparseMemory one;
  prefill(one, sc);
  {
    rr::RefRenderer r(one);
    for (const auto& o : sc) apply(r, o);
  }
  SparseMemory uni;
  prefill(uni, sc);
  rr::RasterState st;
  st.num = n;
  st.skew = skew;
  st.bin_size = bin_size;
  for (unsigned s = 0; s < n; ++s) {
    Scene mine{Op::reg(kRegSlice, n | (s << 8) | (skew << 16))};
    mine.insert(mine.end(), sc.begin(), sc.end());
    SparseMemory rm, em;
    rr::RefRenderer ref(em);
    co_await check_scene(dut, mine, k, rm, em, ref);
    for (const auto& o : sc) {
      if (o.kind != Op::kRpBegin) continue;
      for (std::uint32_t y = 0; y < o.rp.height; ++y)
        for (std::uint32_t x = 0; x < o.rp.width; ++x) {
          if (rr::RefRenderer::owner(st, x >> st.tile_log2(), y >> st.tile_log2()) != s) continue;
          for (std::uint32_t base : {o.rp.color_addr, o.rp.depth_addr}) {
            const std::uint32_t a = base + (y * o.rp.width + x) * 4;
            uni.write32(a, rm.read32(a));
          }
        }
    }
  }
  for (const auto& o : sc) {
    if (o.kind != Op::kRpBegin) continue;
    for (std::uint32_t i = 0; i < o.rp.width * o.rp.height; ++i)
      for (std::uint32_t base : {o.rp.color_addr, o.rp.depth_addr})
        tb::check(uni.read32(base + 4 * i) == one.read32(base + 4 * i),
                  fmt::format("{} slices: union differs from the single-slice image at word {}", n, i));
  }
}

}  // namespace

// Fast clear (docs/raster.md "Fast clear"): a CLEAR costs no traffic of its own.
// Catches: clear lines still written at RENDERPASS_BEGIN (a fully rendered target would then
// be written twice), a cleared tile read back from memory on its first load, pending clears
// lost at RENDERPASS_END (the untouched tiles' memory would keep the old contents: the image
// comparison with the reference fails), and the line-by-line clear missing for a target too
// large for the pending bits. Every case is also compared with the reference image.
TB_TEST(Vraster_slice_default, fast_clear_traffic) {
  start_clock(dut);
  auto quad = [](std::uint32_t w, std::uint32_t h) {   // two triangles covering the target
    const std::int32_t W = std::int32_t(16 * w), H = std::int32_t(16 * h);
    return std::vector<rr::Triangle>{tri(vtx(0, 0, 100, 0xFF0000FF), vtx(W, 0, 100, 0xFF00FF00), vtx(0, H, 100, 0xFFFF0000), 0),
                                     tri(vtx(W, 0, 100, 0xFF00FF00), vtx(W, H, 100, 0xFF0000FF), vtx(0, H, 100, 0xFFFF0000), 1)};
  };
  const std::uint32_t lines16 = 16;   // lines per target of a 16x16 tile
  // 1. Every tile rendered: each tile stored once, nothing read, no clear writes.
  {
    const std::uint32_t w = 128, h = 64, tiles = (w / 16) * (h / 16);
    Scene sc = prologue(0x13, 0);   // ALWAYS, depth write; 16x16 bins
    sc.push_back(Op::begin(target(w, h, 1, 1)));
    for (const auto& t : quad(w, h)) sc.push_back(Op::tri_op(t));
    sc.push_back(Op::end());
    SparseMemory rm, em;
    rr::RefRenderer ref(em);
    const Result r = co_await check_scene(dut, sc, Knobs{}, rm, em, ref);
    dut.log().info("fast clear, every tile rendered: {} line reads, {} line writes ({} tiles)", r.rd_lines, r.wr_lines, tiles);
    tb::check(r.rd_lines == 0, fmt::format("a cleared tile was read from memory: {} line reads", r.rd_lines));
    tb::check(r.wr_lines == tiles * 2 * lines16,
              fmt::format("{} line writes, expected {} (one store per tile, no clear writes)", r.wr_lines, tiles * 2 * lines16));
  }
  // 2. One tile rendered: the others get their clear at RENDERPASS_END; only colour cleared,
  //    depth loaded (so that tile's depth lines are read).
  {
    const std::uint32_t w = 128, h = 64, tiles = (w / 16) * (h / 16);
    Scene sc = prologue(0x13, 0);
    sc.push_back(Op::begin(target(w, h, 1, 0)));
    sc.push_back(Op::tri_op(tri(vtx(8, 8, 5, 0xFF123456), vtx(200, 8, 5, 0xFF654321), vtx(8, 200, 5, 0xFFABCDEF), 0)));
    sc.push_back(Op::end());
    SparseMemory rm, em;
    rr::RefRenderer ref(em);
    const Result r = co_await check_scene(dut, sc, Knobs{}, rm, em, ref);
    tb::check(r.rd_lines == lines16, fmt::format("{} line reads, expected {} (the rendered tile's depth)", r.rd_lines, lines16));
    tb::check(r.wr_lines == 2 * lines16 + (tiles - 1) * lines16,
              fmt::format("{} line writes, expected {} (the tile's store, the other tiles' colour clear)", r.wr_lines,
                          2 * lines16 + (tiles - 1) * lines16));
  }
  // 3. A target of 64 x 1 tiles (wider than the 32-tile grid): the clear is written at
  //    RENDERPASS_BEGIN, line by line, and the rendered tile is read back.
  {
    const std::uint32_t w = 1024, h = 16, tiles = w / 16;
    Scene sc = prologue(0x13, 0);
    sc.push_back(Op::begin(target(w, h, 1, 1)));
    sc.push_back(Op::tri_op(tri(vtx(8, 8, 5, 0xFF123456), vtx(200, 8, 5, 0xFF654321), vtx(8, 200, 5, 0xFFABCDEF), 0)));
    sc.push_back(Op::end());
    SparseMemory rm, em;
    rr::RefRenderer ref(em);
    const Result r = co_await check_scene(dut, sc, Knobs{}, rm, em, ref);
    tb::check(r.rd_lines == 2 * lines16, fmt::format("{} line reads, expected {} (the rendered tile, cleared in memory)",
                                                     r.rd_lines, 2 * lines16));
    tb::check(r.wr_lines == tiles * 2 * lines16 + 2 * lines16,
              fmt::format("{} line writes, expected {} (every tile's clear, then the tile's store)", r.wr_lines,
                          tiles * 2 * lines16 + 2 * lines16));
  }
}

// Catches (docs/raster.md "Tile kept across batches"): a tile stored by one batch and loaded
// back by the next when the next batch starts on it, or a kept tile whose content is not what
// the store and load would have given. One bin (32x32 with four slots, 64x64 filling the
// buffer), small batches of tiny and small triangles all inside it, loaded (not cleared)
// targets: with the input never idle the tile is loaded once and stored once however many
// batches there are; with an idle input (the store released while no batch is open) the
// picture still equals the reference's and the tile moves at most once per batch.
TB_TEST(Vraster_slice_default, tile_kept_across_batches) {
  start_clock(dut);
  for (std::uint32_t bs : {1u, 2u}) {
    const std::uint32_t side = 16u << bs, lines = 2 * side * side * 4 / 64;   // colour + depth
    const std::uint32_t batch = std::uint32_t(tb::randint(2, 8));
    const int ntris = int(tb::scaled(40, 120));
    Scene sc = prologue(0x11, bs);    // LESS with depth writes: the loaded depth matters
    sc.push_back(Op::reg(kRegBatch, batch));
    sc.push_back(Op::begin(target(side, side, 0, 0)));
    for (int i = 0; i < ntris; ++i) sc.push_back(Op::tri_op(random_tri(side, side, tb::chance(0.7) ? 0 : 1, std::uint32_t(i))));
    sc.push_back(Op::end());
    const std::uint32_t batches = (std::uint32_t(ntris) + batch - 1) / batch;
    for (double idle : {0.0, 0.5}) {
      Knobs k;
      k.in_idle = idle;
      SparseMemory rm, em;
      rr::RefRenderer ref(em);
      const Result r = co_await check_scene(dut, sc, k, rm, em, ref);
      dut.log().info("tile kept, {}x{} bin, {} batches of {}, input idle {:.0f}%: {} line reads, {} line writes "
                     "({} per load or store)", side, side, batches, batch, 100 * idle, r.rd_lines, r.wr_lines, lines);
      if (idle == 0.0) {
        tb::check(r.rd_lines == lines && r.wr_lines == lines,
                  fmt::format("{} line reads and {} writes, expected {} each: the tile loaded and stored once "
                              "across {} batches", r.rd_lines, r.wr_lines, lines, batches));
      } else {
        tb::check(r.rd_lines <= std::uint64_t(lines) * batches && r.wr_lines <= std::uint64_t(lines) * batches,
                  fmt::format("{} line reads and {} writes, more than one load and store ({} lines) per batch ({})",
                              r.rd_lines, r.wr_lines, lines, batches));
      }
    }
  }
}

// Catches: any RTL/reference difference in binning, setup, rasterization, interpolation or
// RB on random scenes, under random backpressure and out-of-order memory; and slices not
// partitioning the screen (NUM_SLICES 1, 2, 4 emulated by slice index k of N).
TB_TEST(Vraster_slice_default, random_scenes_sliced) {
  start_clock(dut);
  const int rounds = int(tb::scaled(1, 4));
  for (int round = 0; round < rounds; ++round) {
    for (unsigned n : {1u, 2u, 4u}) {
      const std::uint32_t bs = std::uint32_t(tb::randint(0, 2));
      const std::uint32_t w = 16 * std::uint32_t(tb::randint(3, 6)), h = std::uint32_t(tb::randint(20, 80));
      const Scene sc = random_scene(w, h, bs, 2, int(tb::scaled(40, 120)));
      Knobs k;
      k.in_idle = double(tb::randint(0, 50)) / 100;
      k.req_stall = double(tb::randint(0, 60)) / 100;
      k.bs_stall = double(tb::randint(0, 60)) / 100;
      co_await run_sliced(dut, sc, n, unsigned(tb::randint(0, 3)), bs, k);
    }
  }
}

namespace {

// A layered scene for the LRZ (docs/raster.md "LRZ"): render passes of screen-covering
// triangles at random depths, mostly front to back, with small triangles between them;
// random depth functions and writes (ALWAYS with writes switches the LRZ off), LRZ on/off
// writes, BIN writes inside the pass (a different size switches it off), every depth load op.
Scene lrz_scene(std::uint32_t w, std::uint32_t h, std::uint32_t bin_size, int passes) {
  Scene sc;
  sc.push_back(Op::reg(kRegBin, bin_size));
  std::uint32_t id = 0;
  for (int p = 0; p < passes; ++p) {
    auto rp = target(w, h, std::uint32_t(tb::randint(0, 2)), tb::chance(0.7) ? 1u : std::uint32_t(tb::randint(0, 2)));
    rp.clear_depth = tb::chance(0.5) ? 0xFFFFFFu : rand_z();
    sc.push_back(Op::reg(kRegDepth, (tb::chance(0.5) ? 1u : 2u) | 0x10));
    sc.push_back(Op::reg(kRegLrz, 1));
    sc.push_back(Op::begin(rp));
    std::uint32_t z = std::uint32_t(tb::randint(0, 0x300000));
    const int layers = int(tb::randint(3, 10));
    for (int l = 0; l < layers; ++l) {
      if (tb::chance(0.12)) {
        sc.push_back(Op::reg(kRegDepth, std::uint32_t(tb::randint(0, 3)) | (tb::chance(0.7) ? 0x10 : 0)));
      } else if (tb::chance(0.3)) {
        sc.push_back(Op::reg(kRegDepth, (tb::chance(0.5) ? 1u : 2u) | (tb::chance(0.85) ? 0x10 : 0)));
      }
      if (tb::chance(0.05)) sc.push_back(Op::reg(kRegBin, tb::chance(0.5) ? bin_size : std::uint32_t(tb::randint(0, 2))));
      if (tb::chance(0.05)) sc.push_back(Op::reg(kRegLrz, tb::chance(0.5) ? 1 : 0));
      z = tb::chance(0.8) ? std::min<std::uint32_t>(z + std::uint32_t(tb::randint(0, 0x200000)), 0xFFFFFF) : rand_z();
      sc.push_back(Op::tri_op(cover_tri(w, h, z, std::int32_t(tb::randint(0, 0x40000)), id++)));
      const int smalls = tb::chance(0.4) ? int(tb::randint(1, 12)) : 0;
      for (int i = 0; i < smalls; ++i) sc.push_back(Op::tri_op(random_tri(w, h, int(tb::randint(0, 2)), id++)));
    }
    sc.push_back(Op::end());
  }
  return sc;
}

}  // namespace

// LRZ (docs/raster.md "LRZ"). Catches: a block rejected although a pixel of it would pass the
// depth test (the reference checks every rejection against the full per-pixel test of the
// pixels the triangle covers there, with the depth stored at that moment), wrong slice-space
// addressing (slices emulated by RASTER.SLICE index k of N, every skew, targets whose height is
// no multiple of 8 or of the bin), a missed clear at RENDERPASS_BEGIN, the safety rules (ALWAYS
// with writes, BIN changes), and any RTL/reference difference in which blocks are rejected
// (the rejected block and quad counters, the quads that reach FS).
TB_TEST(Vraster_slice_default, lrz_layers_every_depth_function) {
  start_clock(dut);
  std::uint64_t rejected = 0;
  const int rounds = int(tb::scaled(4, 12));
  for (int round = 0; round < rounds; ++round) {
    const std::uint32_t bs = std::uint32_t(tb::randint(0, 2));
    const unsigned n = 1u << tb::randint(0, 2), s = unsigned(tb::randint(0, n - 1));
    const std::uint32_t skew = std::uint32_t(tb::randint(0, 3));
    // widths are whole 64-byte lines (16 pixels); heights need not be multiples of 8
    const std::uint32_t w = 16 * std::uint32_t(tb::randint(2, 6)), h = std::uint32_t(tb::randint(20, 80));
    Scene sc{Op::reg(kRegSlice, n | (s << 8) | (skew << 16))};
    const Scene body = lrz_scene(w, h, bs, 2);
    sc.insert(sc.end(), body.begin(), body.end());
    Knobs k;
    k.in_idle = double(tb::randint(0, 50)) / 100;
    k.req_stall = double(tb::randint(0, 60)) / 100;
    SparseMemory rm, em;
    rr::RefRenderer ref(em);
    const Result r = co_await check_scene(dut, sc, k, rm, em, ref);
    rejected += r.lrz_blocks;
  }
  // the scenes are built to make the LRZ work: a run where it never rejects tests nothing
  tb::check(rejected > 0, "the LRZ rejected no block in any round");
}

namespace {

// RASTER.COARSE of the 64-pixel blocks x0..x1 x y0..y1 (docs/two-level.md).
std::uint32_t coarse(std::uint32_t x0, std::uint32_t y0, std::uint32_t x1, std::uint32_t y1) {
  return TS_RASTER_COARSE_X0_PUT(x0) | TS_RASTER_COARSE_Y0_PUT(y0) | TS_RASTER_COARSE_X1_PUT(x1) |
         TS_RASTER_COARSE_Y1_PUT(y1) | TS_RASTER_COARSE_ENABLE_PUT(1);
}

}  // namespace

// Two-level binning's raster side (docs/two-level.md "The raster slices"): a render pass run
// as the firmware runs it, a pass with an empty RASTER.COARSE (the visibility pass) and then
// the same body once per coarse bin of a random grid, each replay seeing every triangle.
// Catches: tiles outside the coarse bin rendered, cleared, loaded or stored by a replay (a
// later replay's clear or store would overwrite an earlier bin's pixels), triangles clipped to
// the wrong rectangle, a clear walk that starts outside the rectangle, the empty pass touching
// memory; compared RTL against reference, and the reference's two-level image against the
// same scene run once as PBB (what the user sees must not change with the binning mode).
TB_TEST(Vraster_slice_default, coarse_bin_passes) {
  start_clock(dut);
  const int rounds = int(tb::scaled(3, 10));
  for (int round = 0; round < rounds; ++round) {
    const std::uint32_t bs = std::uint32_t(tb::randint(0, 2));
    const unsigned n = 1u << tb::randint(0, 2), s = unsigned(tb::randint(0, n - 1));
    const std::uint32_t skew = std::uint32_t(tb::randint(0, 3));
    // up to 5 x 4 blocks; one round in three wider than 32 16x16 tiles (line-by-line clear)
    const bool wide = bs == 0 && tb::chance(0.3);
    const std::uint32_t w = wide ? 16 * std::uint32_t(tb::randint(33, 40)) : 16 * std::uint32_t(tb::randint(3, 20));
    const std::uint32_t h = std::uint32_t(tb::randint(20, 200));
    const std::uint32_t bx = (w + 63) / 64, by = (h + 63) / 64;
    const std::uint32_t cw = std::uint32_t(tb::randint(1, bx)), ch = std::uint32_t(tb::randint(1, by));
    const Scene pbb = random_scene(w, h, bs, 1, int(tb::scaled(30, 80)));
    // the pass's body, starting from the register resets (a replay starts from the state the
    // last one left: the body sets what it uses first, as a driver's body must)
    // (small batches: a tile is visited by many of them)
    Scene body{Op::reg(kRegDepth, TS_RASTER_DEPTH_RESET), Op::reg(kRegColor, TS_RASTER_COLOR_RESET),
               Op::reg(kRegBatch, std::uint32_t(tb::randint(1, 16))), Op::reg(kRegTexCtrl, TS_RASTER_TEX_CTRL_RESET)};
    rr::RenderPass rp;
    for (const Op& o : pbb) {
      if (o.kind == Op::kRpBegin) rp = o.rp;
      // (no FLUSH: a body holds no FENCE, and a flush writes GMEM back, as it must)
      else if (o.kind != Op::kRpEnd && o.kind != Op::kFlush && !(o.kind == Op::kSetReg && o.off == kRegBin))
        body.push_back(o);
    }
    Scene prologue_ops{Op::reg(kRegSlice, n | (s << 8) | (skew << 16)), Op::reg(kRegBin, bs)};
    Scene two = prologue_ops;
    auto pass = [&](std::uint32_t rect) {
      two.push_back(Op::reg(kRegCoarse, rect));
      two.push_back(Op::begin(rp));
      two.insert(two.end(), body.begin(), body.end());
      two.push_back(Op::end());
    };
    pass(coarse(1, 1, 0, 0));   // the visibility pass: renders nothing
    for (std::uint32_t y0 = 0; y0 < by; y0 += ch)
      for (std::uint32_t x0 = 0; x0 < bx; x0 += cw)
        pass(coarse(x0, y0, std::min(x0 + cw, bx) - 1, std::min(y0 + ch, by) - 1));
    two.push_back(Op::reg(kRegCoarse, TS_RASTER_COARSE_RESET));
    Knobs k;
    k.in_idle = double(tb::randint(0, 50)) / 100;
    k.req_stall = double(tb::randint(0, 60)) / 100;
    SparseMemory rm, em;
    rr::RefRenderer ref(em);
    const Result r = co_await check_scene(dut, two, k, rm, em, ref);
    // GMEM (docs/two-level.md "GMEM"): when every coarse bin's owned tiles fit the slice's
    // GMEM (raster_slice_default: 1024 lines, so 32, 8 or 2 tiles of 16, 32, 64 pixels), each
    // line of the targets is written to memory at most once in all the passes, however many
    // batches visit its tile (a clear written at RENDERPASS_BEGIN, for a target too wide for
    // the pending bits, is a second write)
    rr::RasterState st;
    st.num = n;
    st.index = s;
    st.skew = skew;
    st.bin_size = bs;
    const unsigned l2 = st.tile_log2();
    const std::uint32_t slots = std::min(32u, 1024u / (32u << (2 * bs)));
    bool fits = true;
    for (std::uint32_t y0 = 0; y0 < by; y0 += ch)
      for (std::uint32_t x0 = 0; x0 < bx; x0 += cw) {
        std::uint32_t owned = 0;
        for (std::uint32_t ty = (y0 * 64) >> l2; ty < std::min((y0 + ch) * 64, h + 63) >> l2; ++ty)
          for (std::uint32_t tx = (x0 * 64) >> l2; tx < std::min((x0 + cw) * 64, w + 63) >> l2; ++tx)
            if ((tx << l2) < w && (ty << l2) < h && rr::RefRenderer::owner(st, tx, ty) == s) ++owned;
        fits = fits && owned <= slots;
      }
    const std::uint64_t target_lines = 2ull * (w / 16) * h;
    dut.log().info("{}x{}, {}x{}-block coarse bins, {} px tiles, slice {} of {}: {} line writes, {} line reads "
                   "(targets {} lines; coarse bins {} GMEM)", w, h, cw, ch, 16u << bs, s, n, r.wr_lines, r.rd_lines,
                   target_lines, fits ? "fit" : "do not fit");
    if (fits)
      tb::check(r.wr_lines <= target_lines * (wide ? 2 : 1),
                fmt::format("{} line writes for targets of {} lines: a tile was written back more than once",
                            r.wr_lines, target_lines));
    // the same pass once, PBB, on the reference: the same image
    Scene once = prologue_ops;
    once.push_back(Op::begin(rp));
    once.insert(once.end(), body.begin(), body.end());
    once.push_back(Op::end());
    SparseMemory om;
    prefill(om, once);
    rr::RefRenderer oref(om);
    for (const auto& o : once) apply(oref, o);
    for (std::uint32_t base : {rp.color_addr, rp.depth_addr})
      for (std::uint32_t i = 0; i < w * h; ++i)
        tb::check(em.read32(base + 4 * i) == om.read32(base + 4 * i),
                  fmt::format("{}x{} in {}x{}-block coarse bins: the two-level image differs from PBB at word {} of the "
                              "{} target", w, h, cw, ch, i, base == rp.color_addr ? "color" : "depth"));
  }
  // A pass with an empty rectangle touches no memory, whatever its load ops say.
  {
    Scene sc{Op::reg(kRegBin, 0), Op::reg(kRegCoarse, coarse(2, 0, 1, 3)), Op::begin(target(256, 64, 1, 1))};
    for (int i = 0; i < 20; ++i) sc.push_back(Op::tri_op(random_tri(256, 64, 2, std::uint32_t(i))));
    sc.push_back(Op::end());
    SparseMemory rm, em;
    rr::RefRenderer ref(em);
    const Result r = co_await check_scene(dut, sc, Knobs{}, rm, em, ref);
    tb::check(r.rd_lines == 0 && r.wr_lines == 0 && r.tris == 20 && r.bins == 0,
              fmt::format("an empty coarse bin: {} line reads, {} writes, {} bins (expected none)", r.rd_lines,
                          r.wr_lines, r.bins));
  }
}
