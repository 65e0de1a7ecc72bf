// Unit tests of the reference renderer alone (docs/raster.md). The RTL benches
// (tb/raster) compare the RTL against this model; these tests check the model against the
// rules themselves, so a shared misunderstanding cannot hide in both.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "tessera/sim/ref_render.hpp"
#include "tessera/sim/texel_layout.hpp"

namespace {

using namespace tessera::sim;
using namespace tessera::sim::raster;

RenderPass make_rp(std::uint32_t w, std::uint32_t h) {
  RenderPass rp;
  rp.color_addr = 0x10000;
  rp.depth_addr = 0x80000;
  rp.width = w;
  rp.height = h;
  rp.color_load = 1;
  rp.depth_load = 1;
  rp.clear_color = 0;
  rp.clear_depth = 0xFFFFFF;
  return rp;
}

Vertex vtx(std::int32_t x16, std::int32_t y16, std::uint32_t z = 0x100, std::uint32_t c = 0xFF0000FF) {
  Vertex v;
  v.x = x16; v.y = y16; v.z = z; v.rgba = c;
  return v;
}

// A jittered grid mesh covering [0, w] x [0, h] (border vertices on the border, inner
// vertices jittered, shared exactly between neighbours), random diagonals and windings.
std::vector<Triangle> mesh(std::uint32_t w, std::uint32_t h, int cells, std::mt19937& g) {
  std::vector<std::vector<std::pair<int, int>>> p(cells + 1, std::vector<std::pair<int, int>>(cells + 1));
  std::uniform_int_distribution<int> j(-20, 20);
  for (int r = 0; r <= cells; ++r)
    for (int c = 0; c <= cells; ++c) {
      int x = int(16 * w * c / cells), y = int(16 * h * r / cells);
      if (c > 0 && c < cells) x += j(g);
      if (r > 0 && r < cells) y += j(g);
      p[r][c] = {x, y};
    }
  std::vector<Triangle> t;
  for (int r = 0; r < cells; ++r)
    for (int c = 0; c < cells; ++c) {
      auto a = p[r][c], b = p[r][c + 1], d = p[r + 1][c], e = p[r + 1][c + 1];
      auto tri = [&](auto p0, auto p1, auto p2) {
        Triangle x;
        if (g() & 1) std::swap(p1, p2);
        x.v[0] = vtx(p0.first, p0.second);
        x.v[1] = vtx(p1.first, p1.second);
        x.v[2] = vtx(p2.first, p2.second);
        t.push_back(x);
      };
      if (g() & 1) { tri(a, b, e); tri(a, e, d); } else { tri(a, b, d); tri(b, e, d); }
    }
  return t;
}

// Catches: a missing or doubled pixel on shared edges or vertices (top-left rule), for
// every tile size.
TEST(RefRender, WatertightMeshOneFragmentPerPixel) {
  std::mt19937 g(7);
  for (unsigned bs = 0; bs < 3; ++bs) {
    SparseMemory mem;
    RefRenderer r(mem);
    r.set_reg(0x014, bs);
    r.set_reg(0x000, 3);   // ALWAYS
    r.enable_fragment_map(96, 80);
    r.renderpass_begin(make_rp(96, 80));
    for (const auto& t : mesh(96, 80, 7, g)) r.triangle(t);
    r.renderpass_end();
    for (std::uint32_t y = 0; y < 80; ++y)
      for (std::uint32_t x = 0; x < 96; ++x) ASSERT_EQ(r.frag_count(x, y), 1u) << x << "," << y;
  }
}

// Catches: wrong top-left classification. A square split along its diagonal with all edges
// through pixel centres: the left and top edges' pixels belong to it, right/bottom not.
TEST(RefRender, TopLeftSquare) {
  SparseMemory mem;
  RefRenderer r(mem);
  r.enable_fragment_map(16, 16);
  r.renderpass_begin(make_rp(16, 16));
  // square with corners at pixel centres (2.5, 2.5) .. (6.5, 6.5)
  const int a = 16 * 2 + 8, b = 16 * 6 + 8;
  Triangle t1, t2;
  t1.v[0] = vtx(a, a); t1.v[1] = vtx(b, a); t1.v[2] = vtx(b, b);
  t2.v[0] = vtx(a, a); t2.v[1] = vtx(b, b); t2.v[2] = vtx(a, b);
  r.triangle(t1);
  r.triangle(t2);
  r.renderpass_end();
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 16; ++x) {
      const bool in = x >= 2 && x < 6 && y >= 2 && y < 6;
      EXPECT_EQ(r.frag_count(x, y), in ? 1u : 0u) << x << "," << y;
    }
}

// Catches: ownership not partitioning the screen (a tile rendered by two slices or none).
TEST(RefRender, SlicesPartitionTheImage) {
  std::mt19937 g(3);
  auto tris = mesh(128, 64, 5, g);
  for (auto& t : tris)
    for (auto& v : t.v) { v.z = g() & 0xFFFFFF; v.rgba = g(); }
  SparseMemory one;
  {
    RefRenderer r(one);
    r.renderpass_begin(make_rp(128, 64));
    for (const auto& t : tris) r.triangle(t);
    r.renderpass_end();
  }
  for (unsigned n : {2u, 3u, 4u}) {
    SparseMemory un;
    std::uint64_t bins = 0;
    for (unsigned k = 0; k < n; ++k) {
      SparseMemory m;
      RefRenderer r(m);
      r.set_reg(0x014, 0);
      r.set_reg(0x018, n | (k << 8) | (1u << 16));
      r.renderpass_begin(make_rp(128, 64));
      for (const auto& t : tris) r.triangle(t);
      r.renderpass_end();
      bins += r.counters().bins;
      for (std::uint32_t y = 0; y < 64; ++y)
        for (std::uint32_t x = 0; x < 128; ++x)
          if (RefRenderer::owner(r.state(), x >> 4, y >> 4) == k)
            for (std::uint32_t base : {0x10000u, 0x80000u})
              un.write32(base + (y * 128 + x) * 4, m.read32(base + (y * 128 + x) * 4));
    }
    // the single-slice run used 32x32 tiles: compare images, not bins
    for (std::uint32_t y = 0; y < 64; ++y)
      for (std::uint32_t x = 0; x < 128; ++x)
        for (std::uint32_t base : {0x10000u, 0x80000u})
          ASSERT_EQ(un.read32(base + (y * 128 + x) * 4), one.read32(base + (y * 128 + x) * 4));
    EXPECT_GT(bins, 0u);
  }
}

// Catches: interpolation off at the vertices (rounding, reciprocal normalisation).
TEST(RefRender, InterpolationHitsVertexValues) {
  SparseMemory mem;
  RefRenderer r(mem);
  r.set_reg(0x000, 0x13);   // ALWAYS, depth write on
  r.renderpass_begin(make_rp(64, 64));
  Triangle t;
  // vertices at pixel centres (0.5,0.5), (60.5,0.5), (0.5,60.5)
  t.v[0] = vtx(8, 8, 0x000000, 0x000000FF);
  t.v[1] = vtx(60 * 16 + 8, 8, 0xFFFFFF, 0x0000FF00);
  t.v[2] = vtx(8, 60 * 16 + 8, 0x800000, 0x00FF0000);
  r.triangle(t);
  r.renderpass_end();
  EXPECT_EQ(mem.read32(0x10000), 0x000000FFu);
  EXPECT_EQ(mem.read32(0x80000), 0u);
  const std::uint32_t c30 = mem.read32(0x10000 + (0 * 64 + 30) * 4);   // midway v0-v1
  EXPECT_NEAR(int(c30 & 0xFF), 128, 1);
  EXPECT_NEAR(int((c30 >> 8) & 0xFF), 128, 1);
  EXPECT_NEAR(int(mem.read32(0x80000 + 30 * 4)), 0x800000, 2);
}

}  // namespace

// Catches (RASTER.TEX_CTRL.tiled, docs/raster.md "Texture layout"): a tiled texel offset that
// is not a bijection onto the texture's bytes, 4x4 blocks that are not whole lines, blocks not
// in Morton order (column bit first, the longer side's bits above), or tiling applied to a
// texture narrower or shorter than 4 texels.
TEST(TexelLayout, TiledIsMortonOrderedBlocksAndABijection) {
  using tessera::sim::texel_offset;
  for (unsigned lw = 0; lw <= 7; ++lw) {
    for (unsigned lh = 0; lh <= 7; ++lh) {
      const std::uint32_t w = 1U << lw, h = 1U << lh;
      std::vector<bool> seen(w * h, false);
      for (std::uint32_t y = 0; y < h; ++y) {
        for (std::uint32_t x = 0; x < w; ++x) {
          const std::uint32_t o = texel_offset(x, y, lw, lh, true);
          ASSERT_EQ(o % 4, 0u);
          ASSERT_LT(o / 4, w * h) << w << "x" << h << " texel " << x << "," << y;
          ASSERT_FALSE(seen[o / 4]) << w << "x" << h << " texel " << x << "," << y << " shares its bytes";
          seen[o / 4] = true;
          if (lw < 2 || lh < 2) {
            EXPECT_EQ(o, texel_offset(x, y, lw, lh, false)) << "a texture under 4 texels a side stays linear";
          } else {
            // the texel's 4x4 block is one 64-byte line
            EXPECT_EQ(o / 64, texel_offset(x & ~3U, y & ~3U, lw, lh, true) / 64);
            EXPECT_EQ(o % 64, (((y & 3) << 2) + (x & 3)) << 2);
          }
        }
      }
    }
  }
  // 16x16 texels = 4x4 blocks: Morton order 0 1 / 2 3, then the next 2x2 quadrant
  EXPECT_EQ(texel_offset(4, 0, 4, 4, true), 64u);
  EXPECT_EQ(texel_offset(0, 4, 4, 4, true), 128u);
  EXPECT_EQ(texel_offset(4, 4, 4, 4, true), 192u);
  EXPECT_EQ(texel_offset(8, 0, 4, 4, true), 256u);
  // 32x8 texels = 8x2 blocks: one interleaved bit each, then the column's two extra bits
  EXPECT_EQ(texel_offset(8, 0, 5, 3, true), 4u * 64);   // block (2, 0): column bit 1 above the pair
  EXPECT_EQ(texel_offset(0, 4, 5, 3, true), 2u * 64);   // block (0, 1)
  EXPECT_EQ(texel_offset(28, 4, 5, 3, true), 15u * 64); // block (7, 1): the last
}
