// Reference renderer: implements docs/raster.md "Binning", "Triangle setup",
// "Rasterization", "Attribute interpolation" and "RB" step by step, with plain integer
// arithmetic (int64 / __int128), independent of how the RTL schedules the work.
#include "tessera/sim/ref_render.hpp"

#include "tessera/sim/texel_layout.hpp"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "tessera_layouts.hpp"
#include "tessera_spec.h"

namespace tessera::sim::raster {
namespace {

using i64 = std::int64_t;
using i128 = __int128;

constexpr unsigned kPlaneBits = 48;   // attribute planes wrap in 48-bit two's complement
constexpr unsigned kFrac = 20;        // fraction bits of the planes

// Two's complement wrap to kPlaneBits, sign-extended.
i64 wrap48(i128 v) {
  const std::uint64_t u = static_cast<std::uint64_t>(v) & ((1ULL << kPlaneBits) - 1);
  return static_cast<i64>(u << (64 - kPlaneBits)) >> (64 - kPlaneBits);
}

i64 sext20(std::int32_t v) { return static_cast<i64>(static_cast<std::int32_t>(static_cast<std::uint32_t>(v) << 12) >> 12); }

// Attribute k of a vertex: 0 z, 1..4 r, g, b, a, 5 u, 6 v.
i64 attr(const Vertex& v, int k) {
  switch (k) {
    case 0: return v.z & 0xFFFFFF;
    case 1: case 2: case 3: case 4: return (v.rgba >> (8 * (k - 1))) & 0xFF;
    case 5: return v.u;
    default: return v.v;
  }
}

}  // namespace

// The payload layout is spec/packets.yaml's, through the generated RenderpassBeginPayload.
RenderPass RenderPass::from_payload(const std::uint32_t dw[8]) {
  const auto p = layout::RenderpassBeginPayload::unpack(dw);
  RenderPass rp;
  rp.color_addr = p.color_addr;
  rp.width = p.width;
  rp.height = p.height;
  rp.depth_addr = p.depth_addr;
  rp.color_load = p.color_load;
  rp.color_store = p.color_store;
  rp.depth_load = p.depth_load;
  rp.depth_store = p.depth_store;
  rp.clear_color = p.clear_color;
  rp.clear_depth = p.clear_depth;
  rp.color_dsid = p.color_dsid;
  rp.depth_dsid = p.depth_dsid;
  return rp;
}

void RenderPass::to_payload(std::uint32_t dw[8]) const {
  layout::RenderpassBeginPayload p;
  p.color_addr = color_addr;
  p.width = static_cast<std::uint16_t>(width);
  p.height = static_cast<std::uint16_t>(height);
  p.depth_addr = depth_addr;
  p.color_load = static_cast<std::uint8_t>(color_load);
  p.color_store = static_cast<std::uint8_t>(color_store);
  p.depth_load = static_cast<std::uint8_t>(depth_load);
  p.depth_store = static_cast<std::uint8_t>(depth_store);
  p.clear_color = clear_color;
  p.clear_depth = clear_depth;
  p.color_dsid = static_cast<std::uint8_t>(color_dsid);
  p.depth_dsid = static_cast<std::uint8_t>(depth_dsid);
  const auto w = p.pack();
  std::copy(w.begin(), w.end(), dw);
}

RefRenderer::RefRenderer(SparseMemory& mem, unsigned max_batch, unsigned lrz_blocks)
    : mem_(mem), max_batch_(max_batch), lrz_(lrz_blocks, 0) {}

unsigned RefRenderer::owner(const RasterState& st, std::uint32_t tx, std::uint32_t ty) {
  return (tx + ty * st.skew) % st.slices();
}

void RefRenderer::enable_fragment_map(std::uint32_t width, std::uint32_t height) {
  map_w_ = width;
  map_h_ = height;
  frag_map_.assign(std::size_t(width) * height, 0);
}

void RefRenderer::set_reg(std::uint32_t offset, std::uint32_t value) {
  close_batch();
  switch (offset & 0xFFF) {
    case TS_RASTER_DEPTH_OFFSET: st_.depth_func = value & 3; st_.depth_write = (value >> 4) & 1; break;
    case TS_RASTER_COLOR_OFFSET: st_.color_write = value & 1; break;
    case TS_RASTER_TEX_CTRL_OFFSET: st_.tex_ctrl = value & TS_RASTER_TEX_CTRL_RW_MASK; break;
    case TS_RASTER_TEX_BASE_OFFSET: st_.tex_base = value; break;
    case TS_RASTER_BATCH_OFFSET: st_.batch = value & 0xFF; break;
    case TS_RASTER_BIN_OFFSET:
      // a different bin size changes the LRZ's slice-space layout: off until the next pass
      if ((value & 3) != st_.bin_size) lrz_valid_ = false;
      st_.bin_size = value & 3;
      break;
    case TS_RASTER_SLICE_OFFSET:
      if ((value & 0xF) != st_.num || ((value >> 8) & 7) != st_.index || ((value >> 16) & 7) != st_.skew)
        lrz_valid_ = false;
      st_.num = value & 0xF;
      st_.index = (value >> 8) & 7;
      st_.skew = (value >> 16) & 7;
      break;
    case TS_RASTER_LRZ_OFFSET: st_.lrz_enable = value & 1; break;
    case TS_RASTER_COARSE_OFFSET: st_.coarse = value; break;
    default: break;
  }
  // ALWAYS with depth write can raise a stored depth: the LRZ's bounds no longer hold
  if (st_.depth_func == TS_DEPTH_FUNC_ALWAYS && st_.depth_write) lrz_valid_ = false;
}

std::uint32_t RefRenderer::lrz_tiles_x() const { return ((rp_.width - 1) >> st_.tile_log2()) + 1; }
std::uint32_t RefRenderer::lrz_row_tiles() const {
  return (lrz_tiles_x() + st_.slices() - 1) / st_.slices();
}

void RefRenderer::renderpass_begin(const RenderPass& rp) {
  close_batch();
  rp_ = rp;
  clear_owned_tiles();
  // LRZ: the pass's entries (slice-space tiles x blocks per tile, in words of 4) start at
  // the cleared depth, or at "no information" when the depth target is not cleared
  const std::uint32_t bpt = 1u << (st_.tile_log2() - 3);
  const std::uint64_t tiles_y = ((rp_.height - 1) >> st_.tile_log2()) + 1;
  const std::uint64_t entries = tiles_y * lrz_row_tiles() * bpt * bpt;
  const std::uint16_t init = rp_.depth_load == TS_LOAD_OP_CLEAR ? std::uint16_t((rp_.clear_depth >> 8) & 0xFFFF) : 0xFFFF;
  const std::uint64_t n = std::min<std::uint64_t>((entries + 3) & ~std::uint64_t(3), lrz_.size());
  std::fill(lrz_.begin(), lrz_.begin() + std::ptrdiff_t(n), init);
  lrz_valid_ = !(st_.depth_func == TS_DEPTH_FUNC_ALWAYS && st_.depth_write);
}

void RefRenderer::renderpass_end() { close_batch(); }
void RefRenderer::batch_close() { close_batch(); }

// Pixels whose centre (16 px + 8, in 1/16 pixel) lies inside the vertices' bounding box,
// clamped to the render target.
RefRenderer::PixelBox RefRenderer::pixel_box(const Triangle& t) const {
  i64 xmin = sext20(t.v[0].x), xmax = xmin, ymin = sext20(t.v[0].y), ymax = ymin;
  for (int i = 1; i < 3; ++i) {
    xmin = std::min(xmin, sext20(t.v[i].x));
    xmax = std::max(xmax, sext20(t.v[i].x));
    ymin = std::min(ymin, sext20(t.v[i].y));
    ymax = std::max(ymax, sext20(t.v[i].y));
  }
  PixelBox b;
  const PixelBox a = area();
  i64 x0 = (xmin + 7) >> 4, x1 = (xmax - 8) >> 4, y0 = (ymin + 7) >> 4, y1 = (ymax - 8) >> 4;
  x0 = std::max<i64>(x0, a.x0);
  y0 = std::max<i64>(y0, a.y0);
  x1 = std::min<i64>(x1, a.x1);
  y1 = std::min<i64>(y1, a.y1);
  b.empty = a.empty || x0 > x1 || y0 > y1;
  b.x0 = std::int32_t(x0); b.x1 = std::int32_t(x1);
  b.y0 = std::int32_t(y0); b.y1 = std::int32_t(y1);
  return b;
}

// RASTER.COARSE (docs/two-level.md): with enable set, the 64-pixel blocks x0..x1 x y0..y1,
// clipped to the target; empty when the rectangle is, or lies beyond the target.
RefRenderer::PixelBox RefRenderer::area() const {
  PixelBox a;
  a.x0 = 0;
  a.y0 = 0;
  a.x1 = std::int32_t(rp_.width) - 1;
  a.y1 = std::int32_t(rp_.height) - 1;
  if (TS_RASTER_COARSE_ENABLE_GET(st_.coarse)) {
    const std::int32_t bx0 = std::int32_t(TS_RASTER_COARSE_X0_GET(st_.coarse));
    const std::int32_t by0 = std::int32_t(TS_RASTER_COARSE_Y0_GET(st_.coarse));
    const std::int32_t bx1 = std::int32_t(TS_RASTER_COARSE_X1_GET(st_.coarse));
    const std::int32_t by1 = std::int32_t(TS_RASTER_COARSE_Y1_GET(st_.coarse));
    if (bx0 > bx1 || by0 > by1) return PixelBox{};
    a.x0 = bx0 * 64;
    a.y0 = by0 * 64;
    a.x1 = std::min(a.x1, bx1 * 64 + 63);
    a.y1 = std::min(a.y1, by1 * 64 + 63);
  }
  a.empty = a.x0 > a.x1 || a.y0 > a.y1;
  return a;
}

void RefRenderer::triangle(const Triangle& t) {
  const unsigned lim = (st_.batch == 0 || st_.batch > max_batch_) ? max_batch_ : st_.batch;
  batch_.push_back(t);
  boxes_.push_back(pixel_box(t));
  ++cnt_.tris;
  if (batch_.size() >= lim) close_batch();
}

// PBB: walk the union of the batch primitives' tile boxes in raster order; every owned tile
// with a non-empty primitive mask gets a bitstream record and its primitives, in order.
void RefRenderer::close_batch() {
  if (batch_.empty()) return;
  const unsigned l2 = st_.tile_log2();
  bool any = false;
  std::uint32_t ux0 = 0, ux1 = 0, uy0 = 0, uy1 = 0;
  for (const auto& b : boxes_) {
    if (b.empty) continue;
    const std::uint32_t tx0 = std::uint32_t(b.x0) >> l2, tx1 = std::uint32_t(b.x1) >> l2;
    const std::uint32_t ty0 = std::uint32_t(b.y0) >> l2, ty1 = std::uint32_t(b.y1) >> l2;
    if (!any) { ux0 = tx0; ux1 = tx1; uy0 = ty0; uy1 = ty1; any = true; }
    ux0 = std::min(ux0, tx0); ux1 = std::max(ux1, tx1);
    uy0 = std::min(uy0, ty0); uy1 = std::max(uy1, ty1);
  }
  if (any) {
    for (std::uint32_t ty = uy0; ty <= uy1; ++ty) {
      for (std::uint32_t tx = ux0; tx <= ux1; ++tx) {
        if (owner(st_, tx, ty) != st_.index) continue;
        BinRecord rec;
        rec.batch = batch_no_;
        rec.tx = tx;
        rec.ty = ty;
        rec.mask.assign((max_batch_ + 63) / 64, 0);
        for (std::size_t i = 0; i < batch_.size(); ++i) {
          const auto& b = boxes_[i];
          if (b.empty) continue;
          if ((std::uint32_t(b.x0) >> l2) <= tx && tx <= (std::uint32_t(b.x1) >> l2) &&
              (std::uint32_t(b.y0) >> l2) <= ty && ty <= (std::uint32_t(b.y1) >> l2)) {
            rec.mask[i / 64] |= 1ULL << (i % 64);
            ++rec.count;
          }
        }
        if (rec.count == 0) continue;
        ++cnt_.bins;
        cnt_.bin_prims += rec.count;
        for (std::size_t i = 0; i < batch_.size(); ++i) {
          if (rec.mask[i / 64] >> (i % 64) & 1) render(batch_[i], boxes_[i], tx, ty);
        }
        bins_.push_back(std::move(rec));
      }
    }
  }
  batch_.clear();
  boxes_.clear();
  ++batch_no_;
}

void RefRenderer::render(const Triangle& tri, const PixelBox& box, std::uint32_t tx,
                         std::uint32_t ty) {
  // --- setup ------------------------------------------------------------------------------
  Vertex v[3] = {tri.v[0], tri.v[1], tri.v[2]};
  i64 X[3], Y[3];
  for (int i = 0; i < 3; ++i) { X[i] = sext20(v[i].x); Y[i] = sext20(v[i].y); }
  i64 D = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
  if (D == 0) return;
  if (D < 0) {
    std::swap(v[1], v[2]);
    std::swap(X[1], X[2]);
    std::swap(Y[1], Y[2]);
    D = -D;
  }
  // edge i is opposite vertex i: w_i(P) = A_i (Px - Xa) + B_i (Py - Ya)
  const i64 A[3] = {Y[1] - Y[2], Y[2] - Y[0], Y[0] - Y[1]};
  const i64 B[3] = {X[2] - X[1], X[0] - X[2], X[1] - X[0]};
  const int anchor[3] = {1, 2, 0};
  bool topleft[3];
  for (int i = 0; i < 3; ++i) topleft[i] = A[i] > 0 || (A[i] == 0 && B[i] > 0);

  const unsigned n = unsigned(std::bit_width(std::uint64_t(D)));
  const i64 R = i64((i128(1) << (n + 23)) / D);   // 2^23 < R <= 2^24
  i64 gx[7], gy[7], c0[7];
  for (int k = 0; k < 7; ++k) {
    const i64 d1 = attr(v[1], k) - attr(v[0], k), d2 = attr(v[2], k) - attr(v[0], k);
    const i64 Gx = d1 * A[1] + d2 * A[2];
    const i64 Gy = d1 * B[1] + d2 * B[2];
    gx[k] = wrap48((i128(Gx) * R) >> (n + 3));
    gy[k] = wrap48((i128(Gy) * R) >> (n + 3));
    c0[k] = (attr(v[0], k) << kFrac) + (i64(1) << (kFrac - 1));
  }

  // --- rasterize the rectangle box x tile: 8x8 blocks, 2x2 quads --------------------------------
  const unsigned l2 = st_.tile_log2();
  const std::int32_t tile_x0 = std::int32_t(tx << l2), tile_y0 = std::int32_t(ty << l2);
  const std::int32_t rx0 = std::max(box.x0, tile_x0), ry0 = std::max(box.y0, tile_y0);
  const std::int32_t rx1 = std::min(box.x1, tile_x0 + (1 << l2) - 1);
  const std::int32_t ry1 = std::min(box.y1, tile_y0 + (1 << l2) - 1);
  auto edge = [&](int i, i64 cx, i64 cy) { return A[i] * (cx - X[anchor[i]]) + B[i] * (cy - Y[anchor[i]]); };
  auto inside = [&](int i, i64 w) { return w > 0 || (w == 0 && topleft[i]); };
  auto zplane = [&](i64 cx, i64 cy) {
    return wrap48(i128(c0[0]) + i128(gx[0]) * (cx - X[0]) + i128(gy[0]) * (cy - Y[0]));
  };
  auto zclamp = [](i64 v) { return std::uint32_t(std::clamp<i64>(v >> kFrac, 0, 0xFFFFFF)); };
  auto fits48 = [](i128 v) { return v >= -(i128(1) << 47) && v < (i128(1) << 47); };
  // one 2x2 quad: covered pixels go through FS/TP and RB; true when any pixel was covered
  auto quad = [&](std::int32_t qx, std::int32_t qy) {
    bool any = false;
    for (int p = 0; p < 4; ++p) {
      const std::int32_t px = qx + (p & 1), py = qy + (p >> 1);
      if (px < rx0 || px > rx1 || py < ry0 || py > ry1) continue;
      const i64 cx = 16 * i64(px) + 8, cy = 16 * i64(py) + 8;
      bool in = true;
      for (int i = 0; i < 3; ++i) {
        const i64 w = A[i] * (cx - X[anchor[i]]) + B[i] * (cy - Y[anchor[i]]);
        if (!(w > 0 || (w == 0 && topleft[i]))) in = false;
      }
      if (!in) continue;
      any = true;
      ++cnt_.frags;
      if (!frag_map_.empty() && std::uint32_t(px) < map_w_ && std::uint32_t(py) < map_h_) {
        ++frag_map_[std::size_t(py) * map_w_ + px];
      }
      // attributes: plane value at the pixel centre, >> 20, clamped
      i64 a[7];
      for (int k = 0; k < 7; ++k) {
        const i64 val = wrap48(i128(c0[k]) + i128(gx[k]) * (cx - X[0]) + i128(gy[k]) * (cy - Y[0]));
        a[k] = val >> kFrac;
      }
      const std::uint32_t z = std::uint32_t(std::clamp<i64>(a[0], 0, 0xFFFFFF));
      std::uint32_t rgba = 0;
      for (int c = 0; c < 4; ++c) rgba |= std::uint32_t(std::clamp<i64>(a[1 + c], 0, 255)) << (8 * c);
      // FS/TP: u, v wrap modulo 1.0; nearest texel; modulate each channel
      if (st_.tex_ctrl & 1) {
        const unsigned lw = (st_.tex_ctrl >> 8) & 0xF, lh = (st_.tex_ctrl >> 16) & 0xF;
        const std::uint32_t u = std::uint32_t(a[5]) & 0xFFFF, vv = std::uint32_t(a[6]) & 0xFFFF;
        const std::uint32_t tx = u >> (16 - lw), ty = vv >> (16 - lh);
        const std::uint32_t texel =
            mem_.read32(st_.tex_base + texel_offset(tx, ty, lw, lh, TS_RASTER_TEX_CTRL_TILED_GET(st_.tex_ctrl) != 0));
        std::uint32_t m = 0;
        for (int c = 0; c < 4; ++c) {
          const std::uint32_t p = ((rgba >> (8 * c)) & 0xFF) * ((texel >> (8 * c)) & 0xFF) + 255;
          m |= ((p >> 8) & 0xFF) << (8 * c);
        }
        rgba = m;
      }
      // RB
      const std::uint32_t off = (std::uint32_t(py) * rp_.width + std::uint32_t(px)) * 4;
      const std::uint32_t zs = mem_.read32(rp_.depth_addr + off) & 0xFFFFFF;
      bool pass = false;
      switch (st_.depth_func) {
        case 0: pass = false; break;
        case 1: pass = z < zs; break;
        case 2: pass = z <= zs; break;
        default: pass = true; break;
      }
      if (!pass) continue;
      ++cnt_.pass;
      if (st_.color_write) mem_.write32(rp_.color_addr + off, rgba);
      if (st_.depth_write) mem_.write32(rp_.depth_addr + off, z);
    }
      return any;
  };
  // LRZ: slice-space address of this tile's first entry (docs/raster.md "LRZ")
  const std::uint32_t bpt = 1u << (l2 - 3);
  const std::uint64_t lrz_tile = (std::uint64_t(ty) * lrz_row_tiles() + tx / st_.slices()) * bpt * bpt;
  const bool lrz_test = st_.lrz_enable && (st_.depth_func == TS_DEPTH_FUNC_LESS || st_.depth_func == TS_DEPTH_FUNC_LEQUAL);
  for (std::int32_t by = ry0 & ~7; by <= ry1; by += 8) {
    for (std::int32_t bx = rx0 & ~7; bx <= rx1; bx += 8) {
      // corners: pixel centres bx, bx + 8 x by, by + 8 (a superset of the block's pixels)
      bool out = false, full = true;
      for (int i = 0; i < 3; ++i) {
        bool any_in = false;
        for (int k = 0; k < 4; ++k) {
          const bool in = inside(i, edge(i, 16 * i64(bx + 8 * (k & 1)) + 8, 16 * i64(by + 8 * (k >> 1)) + 8));
          any_in |= in;
          full &= in;
        }
        out |= !any_in;
      }
      if (out) continue;   // no pixel of the block is inside the triangle
      const std::int32_t qx0 = std::max(bx, rx0 & ~1), qy0 = std::max(by, ry0 & ~1);
      const std::int32_t qx1 = std::min(bx + 6, rx1 & ~1), qy1 = std::min(by + 6, ry1 & ~1);
      // LRZ test and update: z at the corners, stepped as GRAS steps them (wrapping, and
      // only trusted when no step overflows the 48-bit plane)
      full = full && bx >= rx0 && bx + 7 <= rx1 && by >= ry0 && by + 7 <= ry1;
      const i64 z0 = zplane(16 * i64(bx) + 8, 16 * i64(by) + 8);
      const i128 sx = i128(gx[0]) * 128, sy = i128(gy[0]) * 128;
      const i128 z1 = i128(z0) + i128(wrap48(sx)), z2 = i128(z0) + i128(wrap48(sy));
      const i128 z3 = i128(wrap48(z1)) + i128(wrap48(sy));
      const bool zok = fits48(sx) && fits48(sy) && fits48(z1) && fits48(z2) && fits48(z3);
      std::uint32_t zmin = 0xFFFFFF, zmax = 0;
      for (i64 zc : {z0, wrap48(z1), wrap48(z2), wrap48(z3)}) {
        zmin = std::min(zmin, zclamp(zc));
        zmax = std::max(zmax, zclamp(zc));
      }
      const std::uint32_t iby = (std::uint32_t(by) >> 3) & (bpt - 1), ibx = (std::uint32_t(bx) >> 3) & (bpt - 1);
      const std::uint64_t addr = lrz_tile + iby * bpt + ibx;
      if (lrz_valid_ && lrz_test && zok && addr < lrz_.size()) {
        const std::uint32_t bound = (std::uint32_t(lrz_[addr]) << 8) | 0xFF;
        const bool reject = st_.depth_func == TS_DEPTH_FUNC_LESS ? zmin >= bound : zmin > bound;
        if (reject) {
          ++cnt_.lrz_blocks;
          cnt_.lrz_quads += std::uint64_t((qx1 - qx0) / 2 + 1) * std::uint64_t((qy1 - qy0) / 2 + 1);
          // safety: every pixel the triangle covers here fails the full depth test now
          for (std::int32_t py = std::max(by, ry0); py <= std::min(by + 7, ry1); ++py) {
            for (std::int32_t px = std::max(bx, rx0); px <= std::min(bx + 7, rx1); ++px) {
              const i64 cx = 16 * i64(px) + 8, cy = 16 * i64(py) + 8;
              if (!(inside(0, edge(0, cx, cy)) && inside(1, edge(1, cx, cy)) && inside(2, edge(2, cx, cy)))) continue;
              const std::uint32_t z = zclamp(zplane(cx, cy));
              const std::uint32_t off = (std::uint32_t(py) * rp_.width + std::uint32_t(px)) * 4;
              const std::uint32_t zs = mem_.read32(rp_.depth_addr + off) & 0xFFFFFF;
              const bool pass = st_.depth_func == TS_DEPTH_FUNC_LESS ? z < zs : z <= zs;
              if (pass && lrz_unsafe_++ == 0) {
                lrz_unsafe_first_ = fmt::format(
                    "LRZ rejected block ({},{}) of triangle {} but pixel ({},{}) z 0x{:06x} passes against 0x{:06x} "
                    "(entry 0x{:04x}, block zmin 0x{:06x})", bx, by, tri.prim_id, px, py, z, zs, lrz_[addr], zmin);
              }
            }
          }
          continue;
        }
        if (st_.depth_write && full && (zmax >> 8) < lrz_[addr]) lrz_[addr] = std::uint16_t(zmax >> 8);
      }
      for (std::int32_t qy = qy0; qy <= qy1; qy += 2) {
        for (std::int32_t qx = qx0; qx <= qx1; qx += 2) {
          const std::uint64_t passed = cnt_.pass;
          if (quad(qx, qy)) {
            ++cnt_.quads;
            if (cnt_.pass == passed) ++cnt_.hidden_quads;
          }
        }
      }
    }
  }
}

// CLEAR load op: every pixel of every owned tile of the target (of the coarse bin, in a
// two-level pass) gets the clear value.
void RefRenderer::clear_owned_tiles() {
  const bool cc = rp_.color_load == 1, cd = rp_.depth_load == 1;
  if (!cc && !cd) return;
  const unsigned l2 = st_.tile_log2();
  const PixelBox a = area();  // two-level: the coarse bin's tiles only
  if (a.empty) return;
  for (std::uint32_t y = std::uint32_t(a.y0); y <= std::uint32_t(a.y1); ++y) {
    for (std::uint32_t x = std::uint32_t(a.x0); x <= std::uint32_t(a.x1); ++x) {
      if (owner(st_, x >> l2, y >> l2) != st_.index) continue;
      const std::uint32_t off = (y * rp_.width + x) * 4;
      if (cc) mem_.write32(rp_.color_addr + off, rp_.clear_color);
      if (cd) mem_.write32(rp_.depth_addr + off, rp_.clear_depth & 0xFFFFFF);
    }
  }
}

}  // namespace tessera::sim::raster
