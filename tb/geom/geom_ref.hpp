// C++ reference model of the sliced geometry front end (docs/geometry.md), written from the
// specification: ARCHITECTURE.md 5.3, spec/registers/geom.yaml (read through the generated
// TS_GEOM_* names of tessera_spec.h) and the arithmetic of docs/geometry.md. Not from the RTL.
//
// For a DRAW under a given state it produces the sub-batch split, the culling decision of
// every primitive and, for every visible triangle, the three screen vertices and the
// slice-visibility mask. A receiving slice must see exactly the visible triangles whose mask
// names it, in API order (draw order, then primitive order).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "tessera/sim/coarse_bins.hpp"
#include "tessera/sim/tessellator.hpp"
#include "tessera_layouts.hpp"
#include "tessera_spec.h"

namespace geomtb {

// ---- port formats (spec/layouts.yaml, as rtl/geom/geom_pkg.sv includes them) -----------------
inline constexpr unsigned kTriW = tessera::layout::Tri::kBits;      // tri_t
inline constexpr unsigned kRdReqW = tessera::layout::RdReq::kBits;  // rd_req_t
inline constexpr unsigned kSvtxW = tessera::layout::Svtx::kBits, kStriW = 3 * kSvtxW;
inline constexpr unsigned kCmdW = tessera::layout::PipeCmd::kBits;  // tessera_cp_pkg::pipe_cmd_t

// ---- state -----------------------------------------------------------------------------------
struct State {
  std::uint32_t scale_x = TS_GEOM_VP_SCALE_X_RESET, scale_y = TS_GEOM_VP_SCALE_Y_RESET;
  std::uint32_t off_x = TS_GEOM_VP_OFFSET_X_RESET, off_y = TS_GEOM_VP_OFFSET_Y_RESET;
  std::uint32_t cull = TS_GEOM_CULL_RESET, tile = TS_GEOM_TILE_RESET, rt = TS_GEOM_RT_SIZE_RESET;
  std::uint32_t subbatch = TS_GEOM_SUBBATCH_RESET, dist = TS_GEOM_DIST_RESET;
  std::uint32_t vis = TS_GEOM_VIS_RESET, vis_base = TS_GEOM_VIS_BASE_RESET, vis_stride = TS_GEOM_VIS_STRIDE_RESET;
  std::uint32_t coarse = TS_GEOM_COARSE_RESET;

  unsigned cull_mode() const { return TS_GEOM_CULL_MODE_GET(cull); }
  bool front_cw() const { return TS_GEOM_CULL_FRONT_CW_GET(cull) != 0; }
  unsigned tile_shift() const {
    const unsigned s = TS_GEOM_TILE_SIZE_GET(tile);
    return s == TS_BIN_SIZE_PX16 ? 4 : s == TS_BIN_SIZE_PX32 ? 5 : 6;
  }
  unsigned skew() const { return TS_GEOM_TILE_SKEW_GET(tile); }
  int rt_w() const { return static_cast<int>(TS_GEOM_RT_SIZE_WIDTH_GET(rt)); }
  int rt_h() const { return static_cast<int>(TS_GEOM_RT_SIZE_HEIGHT_GET(rt)); }
  unsigned sb_size() const { return std::clamp<unsigned>(TS_GEOM_SUBBATCH_SIZE_GET(subbatch), 16, 1024); }
  bool least_loaded() const { return TS_GEOM_DIST_POLICY_GET(dist) == TS_DIST_POLICY_LEAST_LOADED; }

  // SET_REGS {gpu byte address, value}: true if it is a GEOM register (applied), false if it
  // belongs to another block (the geometry passes it on the side output).
  bool set_reg(std::uint32_t addr, std::uint32_t v) {
    if (addr < TS_GEOM_BASE_ADDR || addr >= TS_GEOM_BASE_ADDR + TS_GEOM_SIZE) return false;
    switch (addr - TS_GEOM_BASE_ADDR) {
      case TS_GEOM_VP_SCALE_X_OFFSET: scale_x = v & TS_GEOM_VP_SCALE_X_RW_MASK; break;
      case TS_GEOM_VP_SCALE_Y_OFFSET: scale_y = v & TS_GEOM_VP_SCALE_Y_RW_MASK; break;
      case TS_GEOM_VP_OFFSET_X_OFFSET: off_x = v & TS_GEOM_VP_OFFSET_X_RW_MASK; break;
      case TS_GEOM_VP_OFFSET_Y_OFFSET: off_y = v & TS_GEOM_VP_OFFSET_Y_RW_MASK; break;
      case TS_GEOM_CULL_OFFSET: cull = v & TS_GEOM_CULL_RW_MASK; break;
      case TS_GEOM_TILE_OFFSET: tile = v & TS_GEOM_TILE_RW_MASK; break;
      case TS_GEOM_RT_SIZE_OFFSET: rt = v & TS_GEOM_RT_SIZE_RW_MASK; break;
      case TS_GEOM_SUBBATCH_OFFSET: subbatch = v & TS_GEOM_SUBBATCH_RW_MASK; break;
      case TS_GEOM_DIST_OFFSET: dist = v & TS_GEOM_DIST_RW_MASK; break;
      case TS_GEOM_VIS_OFFSET: vis = v & TS_GEOM_VIS_RW_MASK; break;
      case TS_GEOM_VIS_BASE_OFFSET: vis_base = v & TS_GEOM_VIS_BASE_RW_MASK; break;
      case TS_GEOM_VIS_STRIDE_OFFSET: vis_stride = v & TS_GEOM_VIS_STRIDE_RW_MASK; break;
      case TS_GEOM_COARSE_OFFSET: coarse = v & TS_GEOM_COARSE_RW_MASK; break;
      default: break;  // read-only or unmapped: ignored
    }
    return true;
  }
};

// ---- memory image ----------------------------------------------------------------------------
class Memory {
 public:
  using Line = std::array<std::uint8_t, 64>;
  std::uint8_t byte(std::uint32_t a) const {
    auto it = lines_.find(a >> 6);
    return it == lines_.end() ? 0 : it->second[a & 63];
  }
  void set_byte(std::uint32_t a, std::uint8_t v) { lines_[a >> 6][a & 63] = v; }
  std::uint32_t u32(std::uint32_t a) const {
    std::uint32_t v = 0;
    for (unsigned i = 0; i < 4; ++i) v |= std::uint32_t{byte(a + i)} << (8 * i);
    return v;
  }
  void set_u32(std::uint32_t a, std::uint32_t v) {
    for (unsigned i = 0; i < 4; ++i) set_byte(a + i, static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void set_u16(std::uint32_t a, std::uint16_t v) {
    set_byte(a, static_cast<std::uint8_t>(v));
    set_byte(a + 1, static_cast<std::uint8_t>(v >> 8));
  }
  Line line(std::uint32_t line_addr) const {
    auto it = lines_.find(line_addr >> 6);
    return it == lines_.end() ? Line{} : it->second;
  }

 private:
  std::unordered_map<std::uint32_t, Line> lines_;
};

// ---- vertices ----------------------------------------------------------------------------------
struct Vertex {  // as in memory (ARCHITECTURE.md 3)
  std::int16_t x = 0, y = 0;  // signed 12.4
  std::uint32_t z = 0;        // 24 bits
  std::uint8_t r = 0, g = 0, b = 0, a = 0;
  std::uint16_t u = 0, v = 0;  // 0.16
};

// The 16-byte layout is spec/layouts.yaml's vertex (tessera::layout::Vertex), little endian:
// word i of the layout is the dword at byte offset 4*i.
inline void write_vertex(Memory& m, std::uint32_t addr, const Vertex& v) {
  tessera::layout::Vertex l;
  l.x = v.x;
  l.y = v.y;
  l.z = v.z;
  l.r = v.r;
  l.g = v.g;
  l.b = v.b;
  l.a = v.a;
  l.u = v.u;
  l.v = v.v;
  const auto w = l.pack();
  for (unsigned i = 0; i < w.size(); ++i) m.set_u32(addr + 4 * i, w[i]);
}
inline Vertex read_vertex(const Memory& m, std::uint32_t addr) {
  std::array<std::uint32_t, tessera::layout::Vertex::kWords> w{};
  for (unsigned i = 0; i < w.size(); ++i) w[i] = m.u32(addr + 4 * i);
  const auto l = tessera::layout::Vertex::unpack(w.data());
  return Vertex{l.x, l.y, l.z, l.r, l.g, l.b, l.a, l.u, l.v};
}

// A CP pipeline command (tessera_cp_pkg::pipe_cmd_t) as the port's words: argument i at
// [i*32 +: 32] (the layout's args field holds the argument bytes, lowest first).
inline std::vector<std::uint32_t> pack_pipe_cmd(std::uint8_t opcode, std::uint8_t queue_id, std::uint8_t dsid,
                                                const std::vector<std::uint32_t>& args) {
  tessera::layout::PipeCmd c;
  c.opcode = opcode;
  c.queue_id = queue_id;
  c.dsid = dsid;
  c.nargs = static_cast<std::uint8_t>(args.size());
  for (std::size_t i = 0; i < args.size() && 4 * i < c.args.size(); ++i)
    for (unsigned j = 0; j < 4; ++j) c.args[4 * i + j] = static_cast<std::uint8_t>(args[i] >> (8 * j));
  const auto w = c.pack();
  return {w.begin(), w.end()};
}

// Screen vertex (VS output): x, y signed 16.4, saturated to 20 bits.
struct SVtx {
  std::int32_t x = 0, y = 0;
  std::uint32_t z = 0, rgba = 0;
  std::uint16_t u = 0, v = 0;
  bool operator==(const SVtx&) const = default;
  std::string str() const { return fmt::format("({:.4f},{:.4f} z={:06x} c={:08x} uv={:04x},{:04x})", x / 16.0, y / 16.0, z, rgba, u, v); }
};

// Viewport transform: sat20(((p * scale) >>> 16) + offset), p signed 12.4, scale s15.16,
// offset s27.4 (docs/geometry.md).
inline std::int32_t viewport(std::int16_t p, std::uint32_t scale, std::uint32_t offset) {
  const std::int64_t prod = std::int64_t{p} * std::int64_t{static_cast<std::int32_t>(scale)};
  const std::int64_t sum = (prod >> 16) + std::int64_t{static_cast<std::int32_t>(offset)};
  return static_cast<std::int32_t>(std::clamp<std::int64_t>(sum, -(1 << 19), (1 << 19) - 1));
}

inline SVtx vs(const State& s, const Vertex& v) {
  SVtx o;
  o.x = viewport(v.x, s.scale_x, s.off_x);
  o.y = viewport(v.y, s.scale_y, s.off_y);
  o.z = v.z;
  o.rgba = std::uint32_t{v.r} | std::uint32_t{v.g} << 8 | std::uint32_t{v.b} << 16 | std::uint32_t{v.a} << 24;
  o.u = v.u;
  o.v = v.v;
  return o;
}

// ---- draws --------------------------------------------------------------------------------------
struct Draw {
  unsigned topology = TS_TOPOLOGY_TRI_LIST, index_type = TS_INDEX_TYPE_NONE;
  std::uint32_t count = 0, vertex_addr = 0, index_addr = 0, tf_addr = 0;
};

enum class Cull { none, zero_area, face, offscreen };

struct Tri {
  std::uint16_t draw_id = 0;
  std::uint32_t prim_id = 0;
  std::uint32_t mask = 0;
  std::array<SVtx, 3> v{};
  std::string str() const {
    return fmt::format("draw {} prim {} mask {:#x} v0 {} v1 {} v2 {}", draw_id, prim_id, mask, v[0].str(), v[1].str(),
                       v[2].str());
  }
};

struct DrawResult {
  bool bad_topology = false, bad_index_type = false;
  std::uint32_t prims = 0;
  std::uint32_t patches = 0, tess_triangles = 0, isoline_segments = 0;  // patch draws
  std::vector<std::uint32_t> subbatches;  // primitives per sub-batch, in order
  std::vector<Tri> visible;               // API order
  std::uint64_t zero_area = 0, face = 0, offscreen = 0;
  std::uint64_t huge = 0, all_slices = 0;  // coverage: bbox over >= N tiles both ways; mask full
};

// ---- two-level binning (docs/two-level.md "Visibility buffer") -------------------------------
// A render pass's primitives are numbered in API order (culled ones included); a WRITE pass
// sets bit p of coarse bin c's bitmap when a triangle of primitive p survives culling and its
// box (TSEFE_S's, clamped to the target, in 64-pixel blocks; a patch's triangles merged into
// their bounding box) touches bin c; a TEST pass drops list and patch primitives whose bit for
// VIS.bin is 0. Lines: every line of every bin that holds one of the pass's primitives, up to
// the capacity (VIS_STRIDE lines of 512 primitives per bin).
using Box = tessera::sim::BlockBox;
struct Vis {
  unsigned mode = TS_VIS_MODE_OFF, bin = 0;
  std::uint32_t base = 0, stride_lines = 0;
  unsigned w = 1, h = 1, nx = 1, ny = 1;
  std::uint64_t next = 0;                          // the pass's next primitive number
  std::vector<std::map<std::uint64_t, bool>> bits;  // WRITE: per bin, primitives set
  std::map<std::uint32_t, std::array<std::uint8_t, 64>> lines;  // lines written, by address
  std::map<std::uint32_t, std::deque<std::array<std::uint8_t, 64>>> expect_writes;  // in pass order
  std::uint64_t recorded = 0, skipped = 0, write_passes = 0, tested = 0;

  std::uint64_t capacity() const { return std::uint64_t{stride_lines} * 512; }
  static unsigned one(unsigned v) { return v ? v : 1; }
  void begin(const State& s) {
    mode = TS_GEOM_VIS_MODE_GET(s.vis);
    bin = TS_GEOM_VIS_BIN_GET(s.vis);
    base = TS_GEOM_VIS_BASE_ADDR_GET(s.vis_base) << 6;
    stride_lines = TS_GEOM_VIS_STRIDE_LINES_GET(s.vis_stride);
    w = one(TS_GEOM_COARSE_W_GET(s.coarse));
    h = one(TS_GEOM_COARSE_H_GET(s.coarse));
    nx = one(TS_GEOM_COARSE_NX_GET(s.coarse));
    ny = one(TS_GEOM_COARSE_NY_GET(s.coarse));
    next = 0;
    bits.assign(mode == TS_VIS_MODE_WRITE ? nx * ny : 0, {});
  }
  void mark(std::uint64_t prim, const Box& b) {
    if (mode != TS_VIS_MODE_WRITE || prim >= capacity()) return;
    tessera::sim::for_each_coarse_bin(b, tessera::sim::CoarseGrid{w, h, nx, ny},
                                      [&](std::uint32_t c) { bits[c][prim] = true; });
  }
  // TEST: the bit the replay reads (the last WRITE pass's line, else the memory's byte)
  bool visible(std::uint64_t prim, const Memory& mem) {
    if (prim >= capacity()) return true;
    ++tested;  // read from a bitmap line
    const std::uint32_t a = base + bin * stride_lines * 64 + static_cast<std::uint32_t>(prim / 8);
    auto it = lines.find(a & ~63U);
    const std::uint8_t byte = it != lines.end() ? it->second[a & 63] : mem.byte(a);
    return (byte >> (prim % 8)) & 1U;
  }
  void end() {
    if (mode == TS_VIS_MODE_WRITE) {
      const std::uint64_t n = std::min(next, capacity());
      recorded += n;
      ++write_passes;
      for (unsigned c = 0; c < nx * ny; ++c)
        for (std::uint64_t g = 0; g < (n + 511) / 512; ++g) {
          std::array<std::uint8_t, 64> l{};
          for (const auto& [p, on] : bits[c])
            if (on && p / 512 == g) l[(p % 512) / 8] |= static_cast<std::uint8_t>(1U << (p % 8));
          const std::uint32_t a = base + (c * stride_lines + static_cast<std::uint32_t>(g)) * 64;
          lines[a] = l;
          expect_writes[a].push_back(l);
        }
    }
    mode = TS_VIS_MODE_OFF;
  }
};

// Slice owning tile (tx, ty).
inline unsigned owner(unsigned tx, unsigned ty, unsigned skew, unsigned n) { return (tx + ty * skew) % n; }

inline Cull classify(const State& s, const std::array<SVtx, 3>& t, unsigned n, std::uint32_t& mask, bool& huge,
                     Box* blocks = nullptr) {
  const std::int64_t dx1 = t[1].x - t[0].x, dy1 = t[1].y - t[0].y, dx2 = t[2].x - t[0].x, dy2 = t[2].y - t[0].y;
  const std::int64_t area = dx1 * dy2 - dx2 * dy1;
  if (area == 0) return Cull::zero_area;
  const bool ccw = area > 0;
  const bool front = s.front_cw() ? !ccw : ccw;
  if ((s.cull_mode() == TS_CULL_MODE_BACK && !front) || (s.cull_mode() == TS_CULL_MODE_FRONT && front))
    return Cull::face;
  const std::int32_t xmin = std::min({t[0].x, t[1].x, t[2].x}), xmax = std::max({t[0].x, t[1].x, t[2].x});
  const std::int32_t ymin = std::min({t[0].y, t[1].y, t[2].y}), ymax = std::max({t[0].y, t[1].y, t[2].y});
  // Pixels the bounding box touches: floor of the 16.4 coordinates.
  const int px0 = xmin >> 4, px1 = xmax >> 4, py0 = ymin >> 4, py1 = ymax >> 4;
  if (px1 < 0 || py1 < 0 || px0 >= s.rt_w() || py0 >= s.rt_h()) return Cull::offscreen;
  const int cx0 = std::max(px0, 0), cy0 = std::max(py0, 0);
  const int cx1 = std::min(px1, s.rt_w() - 1), cy1 = std::min(py1, s.rt_h() - 1);
  if (blocks) *blocks = tessera::sim::block_box(px0, px1, py0, py1, static_cast<std::uint32_t>(s.rt_w()),
                                                static_cast<std::uint32_t>(s.rt_h()));
  const unsigned sh = s.tile_shift();
  const unsigned tx0 = static_cast<unsigned>(cx0) >> sh, tx1 = static_cast<unsigned>(cx1) >> sh;
  const unsigned ty0 = static_cast<unsigned>(cy0) >> sh, ty1 = static_cast<unsigned>(cy1) >> sh;
  mask = 0;
  for (unsigned ty = ty0; ty <= ty1; ++ty)  // every tile of the bounding box: the definition
    for (unsigned tx = tx0; tx <= tx1; ++tx) mask |= 1U << owner(tx, ty, s.skew(), n);
  huge = (tx1 - tx0 + 1 >= n) && (ty1 - ty0 + 1 >= n) && n > 1;
  return Cull::none;
}

inline DrawResult run_draw(const State& s, const Draw& d, const Memory& mem, unsigned n, std::uint16_t draw_id,
                           Vis* vis = nullptr) {
  DrawResult r;
  const bool strip = d.topology == TS_TOPOLOGY_TRI_STRIP;
  const bool patch = d.topology == TS_TOPOLOGY_PATCH_QUAD || d.topology == TS_TOPOLOGY_PATCH_TRI ||
                     d.topology == TS_TOPOLOGY_PATCH_ISOLINE;
  if (d.topology != TS_TOPOLOGY_TRI_LIST && !strip && !patch) r.bad_topology = true;
  if (d.index_type > TS_INDEX_TYPE_U32) r.bad_index_type = true;
  if (r.bad_topology || r.bad_index_type) return r;
  const unsigned ncp = d.topology == TS_TOPOLOGY_PATCH_QUAD ? 4 : d.topology == TS_TOPOLOGY_PATCH_ISOLINE ? 2 : 3;
  r.prims = strip ? (d.count >= 3 ? d.count - 2 : 0) : d.count / ncp;
  // TEST: list and patch primitives not visible in the coarse bin are dropped; sub-batches
  // are the visible runs, cut at the sub-batch size
  const std::uint64_t pass0 = vis ? vis->next : 0;
  const bool test = vis && vis->mode == TS_VIS_MODE_TEST && !strip;
  std::vector<bool> keep(r.prims, true);
  if (test)
    for (std::uint32_t p = 0; p < r.prims; ++p)
      if (!vis->visible(pass0 + p, mem)) keep[p] = false, ++vis->skipped;
  for (std::uint32_t p = 0; p < r.prims;) {
    if (!keep[p]) {
      ++p;
      continue;
    }
    std::uint32_t k = 0;
    while (p + k < r.prims && keep[p + k] && k < s.sb_size()) ++k;
    r.subbatches.push_back(k);
    p += k;
  }
  if (vis) vis->next += r.prims;
  std::map<std::uint32_t, Box> boxes;  // WRITE: per primitive, its triangles' bounding box
  auto fetch = [&](std::uint32_t pos) {
    std::uint32_t vi = pos;
    if (d.index_type == TS_INDEX_TYPE_U16)
      vi = mem.u32((d.index_addr + pos * 2) & ~3U) >> (((d.index_addr + pos * 2) & 2U) * 8) & 0xffff;
    else if (d.index_type == TS_INDEX_TYPE_U32)
      vi = mem.u32((d.index_addr + pos * 4) & ~3U);
    return vs(s, read_vertex(mem, (d.vertex_addr + vi * 16) & ~15U));
  };
  auto emit = [&](std::uint32_t prim, const std::array<SVtx, 3>& t) {
    std::uint32_t mask = 0;
    bool huge = false;
    Box bx;
    switch (classify(s, t, n, mask, huge, &bx)) {
      case Cull::zero_area: ++r.zero_area; break;
      case Cull::face: ++r.face; break;
      case Cull::offscreen: ++r.offscreen; break;
      case Cull::none: {
        auto [it, fresh] = boxes.try_emplace(prim, bx);
        if (!fresh) it->second = it->second.merged(bx);
        r.visible.push_back(Tri{draw_id, prim, mask, t});
        r.huge += huge;
        r.all_slices += (mask == (1U << n) - 1) && n > 1;
        break;
      }
    }
  };
  auto mark_all = [&] {
    if (vis)
      for (const auto& [p, bx] : boxes) vis->mark(pass0 + p, bx);
  };
  if (patch) {  // docs/tessellation.md "Patch draws": tf_record p, control points ncp*p + c
    using tessera::sim::PatchKind;
    const PatchKind kind = d.topology == TS_TOPOLOGY_PATCH_QUAD ? PatchKind::Quad
                           : d.topology == TS_TOPOLOGY_PATCH_TRI ? PatchKind::Tri
                                                                 : PatchKind::Isoline;
    for (std::uint32_t p = 0; p < r.prims; ++p) {
      if (!keep[p]) continue;
      std::array<std::uint32_t, 4> w{};
      for (unsigned i = 0; i < 4; ++i) w[i] = mem.u32(((d.tf_addr + 16 * p) & ~15U) + 4 * i);
      const auto tf = tessera::layout::TfRecord::unpack(w.data());
      tessera::sim::PatchFactors f{kind, tf.inner0, kind == PatchKind::Quad ? tf.inner1 : std::uint8_t{0}};
      if (kind == PatchKind::Isoline) f = tessera::sim::PatchFactors{kind, tf.outer0, tf.outer1};
      std::vector<tessera::sim::TessVertex> cps;
      for (unsigned c = 0; c < ncp; ++c) {
        const SVtx v = fetch(ncp * p + c);
        tessera::sim::TessVertex t;
        t.x = v.x;
        t.y = v.y;
        t.z = v.z;
        t.r = static_cast<std::uint8_t>(v.rgba);
        t.g = static_cast<std::uint8_t>(v.rgba >> 8);
        t.b = static_cast<std::uint8_t>(v.rgba >> 16);
        t.a = static_cast<std::uint8_t>(v.rgba >> 24);
        t.u = v.u;
        t.v = v.v;
        cps.push_back(t);
      }
      const auto out = tessera::sim::tessellate(kind, cps, f);
      ++r.patches;
      r.isoline_segments += out.isoline_segments;
      r.tess_triangles += static_cast<std::uint32_t>(out.triangles.size());
      for (const auto& tt : out.triangles) {
        std::array<SVtx, 3> t;
        for (unsigned i = 0; i < 3; ++i) {
          t[i].x = tt[i].x;
          t[i].y = tt[i].y;
          t[i].z = tt[i].z;
          t[i].rgba = unsigned{tt[i].r} | unsigned{tt[i].g} << 8 | unsigned{tt[i].b} << 16 | unsigned{tt[i].a} << 24;
          t[i].u = tt[i].u;
          t[i].v = tt[i].v;
        }
        emit(p, t);
      }
    }
    mark_all();
    return r;
  }
  for (std::uint32_t p = 0; p < r.prims; ++p) {
    if (!keep[p]) continue;
    std::array<SVtx, 3> t;
    if (strip) {
      t = {fetch(p), fetch(p + 1), fetch(p + 2)};
      if (p & 1U) std::swap(t[0], t[1]);  // keep the winding of odd strip triangles
    } else {
      t = {fetch(3 * p), fetch(3 * p + 1), fetch(3 * p + 2)};
    }
    emit(p, t);
  }
  mark_all();
  return r;
}

}  // namespace geomtb
