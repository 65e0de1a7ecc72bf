// Scene builders for the raster benches: meshes, directed corner cases, random scenes.
#pragma once

#include <cstdint>
#include <vector>

#include "raster_env.hpp"

namespace rastertb {

inline rr::Vertex vtx(std::int32_t x16, std::int32_t y16, std::uint32_t z, std::uint32_t rgba,
                      std::uint16_t u = 0, std::uint16_t v = 0) {
  rr::Vertex p;
  p.x = x16; p.y = y16; p.z = z & 0xFFFFFF; p.rgba = rgba; p.u = u; p.v = v;
  return p;
}

inline rr::Triangle tri(rr::Vertex a, rr::Vertex b, rr::Vertex c, std::uint32_t id = 0) {
  rr::Triangle t;
  t.v[0] = a; t.v[1] = b; t.v[2] = c;
  t.prim_id = id;
  return t;
}

inline rr::RenderPass target(std::uint32_t w, std::uint32_t h, std::uint32_t cload = 1,
                             std::uint32_t dload = 1, std::uint32_t base = 0x0010'0000) {
  rr::RenderPass rp;
  rp.color_addr = base;
  rp.depth_addr = base + 0x0040'0000;
  rp.width = w;
  rp.height = h;
  rp.color_load = cload;
  rp.depth_load = dload;
  rp.clear_color = 0xFF202020;
  rp.clear_depth = 0xFFFFFF;
  rp.color_dsid = 5;
  rp.depth_dsid = 9;
  return rp;
}

inline std::uint32_t rand_color() { return std::uint32_t(tb::randint(0, 0xFFFFFFFFu)); }
inline std::uint32_t rand_z() { return std::uint32_t(tb::randint(0, 0xFFFFFF)); }

// A mesh over [0, w] x [0, h] (in pixels) of cells x cells quads, two triangles each with a
// random diagonal and random windings. Inner vertices: jittered by up to `jitter` 1/16 px,
// or snapped to pixel centres (snap) so that many edges run exactly through pixel centres
// in every orientation (the top-left cases).
inline std::vector<rr::Triangle> mesh(std::uint32_t w, std::uint32_t h, int cells, int jitter, bool snap) {
  std::vector<std::vector<std::pair<int, int>>> p(cells + 1, std::vector<std::pair<int, int>>(cells + 1));
  for (int r = 0; r <= cells; ++r)
    for (int c = 0; c <= cells; ++c) {
      int x = int(16 * w * c / cells), y = int(16 * h * r / cells);
      if (c > 0 && c < cells) x = snap ? (x & ~15) + 8 : x + int(tb::randint(0, 2 * jitter)) - jitter;
      if (r > 0 && r < cells) y = snap ? (y & ~15) + 8 : y + int(tb::randint(0, 2 * jitter)) - jitter;
      p[r][c] = {x, y};
    }
  std::vector<rr::Triangle> out;
  auto add = [&](std::pair<int, int> a, std::pair<int, int> b, std::pair<int, int> c) {
    if (tb::chance(0.5)) std::swap(b, c);
    out.push_back(tri(vtx(a.first, a.second, rand_z(), rand_color()), vtx(b.first, b.second, rand_z(), rand_color()),
                      vtx(c.first, c.second, rand_z(), rand_color()), std::uint32_t(out.size())));
  };
  for (int r = 0; r < cells; ++r)
    for (int c = 0; c < cells; ++c) {
      auto a = p[r][c], b = p[r][c + 1], d = p[r + 1][c], e = p[r + 1][c + 1];
      if (tb::chance(0.5)) { add(a, b, e); add(a, e, d); } else { add(a, b, d); add(b, e, d); }
    }
  return out;
}

// A random triangle: size class 0 tiny (< 2 px), 1 small (< 24 px), 2 large (< 200 px),
// 3 guard band (vertices up to +-30000 px).
inline rr::Triangle random_tri(std::uint32_t w, std::uint32_t h, int cls, std::uint32_t id) {
  const std::int32_t cx = std::int32_t(tb::randint(0, 16 * w)), cy = std::int32_t(tb::randint(0, 16 * h));
  const std::int32_t span = cls == 0 ? 32 : cls == 1 ? 384 : cls == 2 ? 3200 : 480000;
  auto coord = [&](std::int32_t c) {
    std::int32_t v = c + std::int32_t(tb::randint(0, 2 * span)) - span;
    return std::clamp(v, -(1 << 19), (1 << 19) - 1);
  };
  auto uv = [] { return std::uint16_t(tb::randint(0, 0xFFFF)); };
  return tri(vtx(coord(cx), coord(cy), rand_z(), rand_color(), uv(), uv()),
             vtx(coord(cx), coord(cy), rand_z(), rand_color(), uv(), uv()),
             vtx(coord(cx), coord(cy), rand_z(), rand_color(), uv(), uv()), id);
}

// A triangle covering the whole w x h target with room to spare (so every 8x8 block of the
// target is fully covered, and the LRZ can learn from it), z about `z` with a random tilt
// of up to `tilt` across the target.
inline rr::Triangle cover_tri(std::uint32_t w, std::uint32_t h, std::uint32_t z, std::int32_t tilt, std::uint32_t id) {
  auto zz = [&] {
    const std::int64_t v = std::int64_t(z) + tb::randint(0, 2 * std::uint64_t(tilt)) - tilt;
    return std::uint32_t(std::clamp<std::int64_t>(v, 0, 0xFFFFFF));
  };
  const std::int32_t W = std::int32_t(16 * w), H = std::int32_t(16 * h);
  const std::uint32_t c = rand_color();
  return tri(vtx(-W / 2 - 16, -H / 2 - 16, zz(), c), vtx(3 * W + 64, -H / 2 - 16, zz(), c),
             vtx(-W / 2 - 16, 3 * H + 64, zz(), c), id);
}

}  // namespace rastertb
