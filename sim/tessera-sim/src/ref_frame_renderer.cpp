#include "tessera/sim/ref_frame_renderer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>

#include "tessera/driver/error.hpp"
#include "tessera/sim/ref_render.hpp"
#include "tessera/sim/tessellator.hpp"
#include "tessera/sim/vertex.hpp"
#include "tessera_layouts.hpp"
#include "tessera_spec.h"

namespace tessera::sim {

namespace {

int32_t sat20(int64_t v) {
  constexpr int64_t kMax = (1 << 19) - 1, kMin = -(1 << 19);
  return static_cast<int32_t>(v > kMax ? kMax : (v < kMin ? kMin : v));
}

// The viewport transform of the geometry slices (docs/geometry.md "VS"): 12.4 x signed 15.16,
// exact product, arithmetic shift, plus the 28.4 offset, saturated to signed 20 bits.
int32_t viewport(int16_t x, int32_t scale, int32_t offset) {
  const int64_t prod = static_cast<int64_t>(x) * scale;
  return sat20((prod >> 16) + offset);
}

// The geometry front end's cull (docs/geometry.md "TSEFE_S"), in this order: zero area,
// facing, off screen. true = the triangle is discarded.
bool culled(const raster::Triangle& t, const driver::GeomStateReader& g, uint32_t width, uint32_t height) {
  const int64_t x0 = t.v[0].x, y0 = t.v[0].y, x1 = t.v[1].x, y1 = t.v[1].y, x2 = t.v[2].x, y2 = t.v[2].y;
  const int64_t area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
  if (area == 0) return true;
  const bool ccw = area > 0;
  const bool front = g.front_face() == driver::FrontFace::Clockwise ? !ccw : ccw;
  const driver::CullMode mode = g.cull_mode();
  if (mode == driver::CullMode::Back && !front) return true;
  if (mode == driver::CullMode::Front && front) return true;
  const int64_t px0 = std::min({x0, x1, x2}) >> 4, px1 = std::max({x0, x1, x2}) >> 4;
  const int64_t py0 = std::min({y0, y1, y2}) >> 4, py1 = std::max({y0, y1, y2}) >> 4;
  return px1 < 0 || py1 < 0 || px0 >= static_cast<int64_t>(width) || py0 >= static_cast<int64_t>(height);
}

bool in_raster_block(uint32_t addr) { return addr >= TS_RASTER_BASE_ADDR && addr < TS_RASTER_BASE_ADDR + TS_RASTER_SIZE; }

}  // namespace

RefFrameRenderer::RefFrameRenderer() = default;
RefFrameRenderer::~RefFrameRenderer() = default;

void RefFrameRenderer::execute(const driver::PipeCommand& cmd, SparseMemory& memory) {
  switch (cmd.opcode) {
    case TS_OP_SET_REGS: {
      const uint32_t addr = cmd.args.at(0), value = cmd.args.at(1);
      regs_[addr] = value;
      geom_.write(addr, value);
      vis_regs_.write(addr, value);
      if (pass_renderer_ && in_raster_block(addr)) pass_renderer_->set_reg(addr - TS_RASTER_BASE_ADDR, value);
      break;
    }
    case TS_OP_RENDERPASS_BEGIN: {
      if (cmd.args.size() < TS_PKT_RENDERPASS_BEGIN_LEN)
        throw driver::DriverError(fmt::format("reference pipeline: RENDERPASS_BEGIN with {} payload dwords", cmd.args.size()));
      pass_renderer_ = std::make_unique<raster::RefRenderer>(memory);
      // The raster state registers persist across passes: the new pass starts with them.
      for (const auto& [addr, value] : regs_)
        if (in_raster_block(addr)) pass_renderer_->set_reg(addr - TS_RASTER_BASE_ADDR, value);
      const raster::RenderPass rp = raster::RenderPass::from_payload(cmd.args.data());
      width_ = rp.width;
      height_ = rp.height;
      pass_renderer_->renderpass_begin(rp);
      vis_begin();
      break;
    }
    case TS_OP_DRAW:
      draw(cmd, memory);
      break;
    case TS_OP_RENDERPASS_END:
      if (!pass_renderer_) break;  // the CP forwards an unmatched END; nothing is open
      pass_renderer_->renderpass_end();
      vis_end(memory);
      quads_ += pass_renderer_->counters().quads;
      frags_ += pass_renderer_->counters().frags;
      pass_ += pass_renderer_->counters().pass;
      pass_renderer_.reset();
      break;
    case TS_OP_DSID_SET:
      if (pass_renderer_) pass_renderer_->batch_close();
      break;
    default:
      break;  // SET_BIN_MODE, BIND_VIS_BUFFER, SET_PREFETCH, FRAME_END: no pixels
  }
}

void RefFrameRenderer::draw(const driver::PipeCommand& cmd, SparseMemory& mem) {
  if (!pass_renderer_) throw driver::DriverError("reference pipeline: DRAW outside a render pass");
  const uint32_t topo = TS_PKT_DRAW_TOPOLOGY_GET(cmd.args.at(TS_PKT_DRAW_TOPOLOGY_DW));
  const bool patch = topo == TS_TOPOLOGY_PATCH_QUAD || topo == TS_TOPOLOGY_PATCH_TRI || topo == TS_TOPOLOGY_PATCH_ISOLINE;
  if (topo != TS_TOPOLOGY_TRI_LIST && !patch)
    throw driver::DriverError(fmt::format(
        "reference pipeline: DRAW topology {} is not modelled (triangle lists and patches only)", topo));
  const uint32_t itype = TS_PKT_DRAW_INDEX_TYPE_GET(cmd.args.at(TS_PKT_DRAW_INDEX_TYPE_DW));
  const uint32_t count = TS_PKT_DRAW_COUNT_GET(cmd.args.at(TS_PKT_DRAW_COUNT_DW));
  const uint32_t vaddr = TS_PKT_DRAW_VERTEX_ADDR_GET(cmd.args.at(TS_PKT_DRAW_VERTEX_ADDR_DW));
  const uint32_t iaddr = TS_PKT_DRAW_INDEX_ADDR_GET(cmd.args.at(TS_PKT_DRAW_INDEX_ADDR_DW));
  const int32_t sx = geom_.scale_x(), sy = geom_.scale_y(), ox = geom_.offset_x(), oy = geom_.offset_y();
  // Index position k -> the screen-space vertex (the geometry slice's VS: fetch, viewport).
  auto vertex = [&](uint32_t k) {
    uint32_t idx = k;  // non-indexed
    if (itype == TS_INDEX_TYPE_U16) idx = mem.read16(iaddr + k * 2);
    if (itype == TS_INDEX_TYPE_U32) idx = mem.read32(iaddr + k * 4);
    const uint32_t va = vaddr + idx * kVertexBytes;
    const std::array<uint32_t, kVertexDwords> dw{mem.read32(va), mem.read32(va + 4), mem.read32(va + 8), mem.read32(va + 12)};
    const Vertex v = unpack_vertex(dw);
    raster::Vertex o;
    o.x = viewport(v.x, sx, ox);
    o.y = viewport(v.y, sy, oy);
    o.z = v.z;
    o.rgba = dw[2];
    o.u = v.u;
    o.v = v.v;
    return o;
  };
  if (patch) {
    draw_patches(cmd, mem, topo, count, vertex);
    return;
  }
  for (uint32_t k = 0; k + 2 < count; k += 3) {
    const uint64_t prim = vis_.next_prim++;
    if (vis_dropped(prim, mem)) continue;  // before vertex fetch: no index or vertex read
    raster::Triangle t;
    t.prim_id = k / 3;
    for (unsigned i = 0; i < 3; ++i) t.v[i] = vertex(k + i);
    if (culled(t, geom_, width_, height_)) continue;
    vis_mark(prim, block_box(t));
    pass_renderer_->triangle(t);
    ++tris_;
  }
}

// ---- two-level binning (docs/two-level.md) --------------------------------------------------

void RefFrameRenderer::vis_begin() {
  using M = driver::TwoLevelStateReader::Mode;
  vis_ = Vis{};
  vis_.mode = vis_regs_.mode() == M::Write ? TS_VIS_MODE_WRITE : vis_regs_.mode() == M::Test ? TS_VIS_MODE_TEST : TS_VIS_MODE_OFF;
  vis_.bin = vis_regs_.bin();
  vis_.base = vis_regs_.base();
  vis_.stride = vis_regs_.stride();
  vis_.w = vis_regs_.block_w();
  vis_.h = vis_regs_.block_h();
  vis_.nx = vis_regs_.bins_x();
  vis_.ny = vis_regs_.bins_y();
  if (vis_.mode == TS_VIS_MODE_WRITE) vis_.bits.assign(std::size_t{vis_.nx} * vis_.ny, {});
}

bool RefFrameRenderer::vis_dropped(uint64_t prim, SparseMemory& mem) {
  if (vis_.mode != TS_VIS_MODE_TEST || prim >= vis_.capacity()) return false;  // beyond: visible
  const uint32_t byte = mem.read8(vis_.base + vis_.bin * vis_.stride + static_cast<uint32_t>(prim / 8));
  if ((byte >> (prim % 8)) & 1u) return false;
  ++vis_skipped_;
  return true;
}

BlockBox RefFrameRenderer::block_box(const raster::Triangle& t) const {
  // TSEFE_S's box: the extreme vertices' pixels, clamped to the target (docs/geometry.md)
  int64_t x0 = INT64_MAX, x1 = INT64_MIN, y0 = INT64_MAX, y1 = INT64_MIN;
  for (const raster::Vertex& v : t.v) {
    const int64_t x = static_cast<int32_t>(v.x << 12) >> 12, y = static_cast<int32_t>(v.y << 12) >> 12;
    x0 = std::min(x0, x >> 4);
    x1 = std::max(x1, x >> 4);
    y0 = std::min(y0, y >> 4);
    y1 = std::max(y1, y >> 4);
  }
  return sim::block_box(x0, x1, y0, y1, width_, height_);
}

// The coarse bins a box touches (tessera/sim/coarse_bins.hpp, the visibility writer's rule).
void RefFrameRenderer::vis_mark(uint64_t prim, const BlockBox& box) {
  if (vis_.mode != TS_VIS_MODE_WRITE || prim >= vis_.capacity()) return;
  for_each_coarse_bin(box, CoarseGrid{vis_.w, vis_.h, vis_.nx, vis_.ny}, [&](uint32_t c) {
    std::vector<uint8_t>& b = vis_.bits[c];
    if (b.size() <= prim / 8) b.resize(prim / 8 + 1, 0);
    b[prim / 8] |= static_cast<uint8_t>(1u << (prim % 8));
  });
}

// The end of a visibility pass: per coarse bin, every 64-byte line of its bitmap that holds
// one of the pass's primitives is written whole (0 for primitives in no coarse bin).
void RefFrameRenderer::vis_end(SparseMemory& mem) {
  if (vis_.mode != TS_VIS_MODE_WRITE) return;
  const uint64_t prims = std::min(vis_.next_prim, vis_.capacity());
  vis_recorded_ += prims;
  const uint64_t lines = (prims + 511) / 512;
  for (uint32_t c = 0; c < vis_.bits.size(); ++c) {
    std::vector<uint8_t> b = vis_.bits[c];
    b.resize(lines * 64, 0);
    for (uint64_t i = 0; i < lines * 64; ++i)
      mem.write8(vis_.base + c * vis_.stride + static_cast<uint32_t>(i), b[i]);
  }
  vis_.mode = TS_VIS_MODE_OFF;
}

// A patch DRAW (docs/tessellation.md "Patch draws"): patch p's ncp control points are the
// vertices at index positions p*ncp .. p*ncp+ncp-1, its factors the TF record at tf_addr + 16*p;
// tessellate() turns them into triangles (patch order, then tessellator order) that take the
// list triangles' way: cull, then the raster reference. Isolines are counted, not drawn.
void RefFrameRenderer::draw_patches(const driver::PipeCommand& cmd, SparseMemory& mem, uint32_t topo, uint32_t count,
                                    const std::function<raster::Vertex(uint32_t)>& vertex) {
  const uint32_t tf_addr = TS_PKT_DRAW_TF_ADDR_GET(cmd.args.at(TS_PKT_DRAW_TF_ADDR_DW));
  const PatchKind kind =
      topo == TS_TOPOLOGY_PATCH_QUAD ? PatchKind::Quad : (topo == TS_TOPOLOGY_PATCH_TRI ? PatchKind::Tri : PatchKind::Isoline);
  const uint32_t ncp = kind == PatchKind::Quad ? 4 : (kind == PatchKind::Tri ? 3 : 2);
  using layout::TfRecord;
  // HS thread groups: PC_US cuts the draw into sub-batches of GEOM.SUBBATCH patches (16..1024)
  // and the slice groups a sub-batch's patches by GEOM.TESS_SHADER.tg_size (0 acts as 1), a
  // sub-batch's end closing a partial group (docs/tessellation.md "The slice's tessellation stage").
  const uint32_t sb = geom_.subbatch(), tg = geom_.thread_group();
  for (uint32_t first = 0; first < count / ncp; first += sb) {
    const uint32_t n = std::min(sb, count / ncp - first);
    tess_.thread_groups += (n + tg - 1) / tg;
  }
  uint32_t prim = 0;
  for (uint32_t p = 0; p < count / ncp; ++p) {
    const uint64_t vprim = vis_.next_prim++;  // a patch is one input primitive
    if (vis_dropped(vprim, mem)) continue;
    std::array<uint32_t, TfRecord::kWords> w{};
    for (unsigned i = 0; i < TfRecord::kWords; ++i) w[i] = mem.read32(tf_addr + 16 * p + 4 * i);
    const TfRecord rec = TfRecord::unpack(w.data());
    PatchFactors f{kind, rec.inner0, rec.inner1};
    if (kind == PatchKind::Tri) f.f2 = 0;
    if (kind == PatchKind::Isoline) {
      f.f1 = rec.outer0;
      f.f2 = rec.outer1;
    }
    std::vector<TessVertex> cps(ncp);
    for (uint32_t c = 0; c < ncp; ++c) {
      const raster::Vertex v = vertex(p * ncp + c);
      TessVertex& t = cps[c];
      t.x = v.x;
      t.y = v.y;
      t.z = v.z;
      t.r = static_cast<uint8_t>(v.rgba);
      t.g = static_cast<uint8_t>(v.rgba >> 8);
      t.b = static_cast<uint8_t>(v.rgba >> 16);
      t.a = static_cast<uint8_t>(v.rgba >> 24);
      t.u = v.u;
      t.v = v.v;
    }
    const TessResult r = tessellate(kind, cps, f);
    // the patch's visibility: the bounding box of its surviving triangles' boxes (the writer
    // merges a primitive's triangles; docs/two-level.md)
    std::optional<BlockBox> patch_box;
    ++tess_.patches;
    tess_.triangles += r.triangles.size();
    tess_.isoline_segments += r.isoline_segments;
    for (const TessTriangle& tt : r.triangles) {
      raster::Triangle t;
      t.prim_id = prim++;
      for (unsigned i = 0; i < 3; ++i) {
        const TessVertex& s = tt[i];
        t.v[i].x = s.x;
        t.v[i].y = s.y;
        t.v[i].z = s.z;
        t.v[i].rgba = uint32_t{s.r} | uint32_t{s.g} << 8 | uint32_t{s.b} << 16 | uint32_t{s.a} << 24;
        t.v[i].u = s.u;
        t.v[i].v = s.v;
      }
      if (culled(t, geom_, width_, height_)) continue;
      const BlockBox bb = block_box(t);
      patch_box = patch_box ? patch_box->merged(bb) : bb;
      pass_renderer_->triangle(t);
      ++tris_;
    }
    if (patch_box) vis_mark(vprim, *patch_box);
  }
}

}  // namespace tessera::sim
