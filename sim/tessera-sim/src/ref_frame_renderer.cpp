#include "tessera/sim/ref_frame_renderer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "tessera/driver/error.hpp"
#include "tessera/sim/ref_render.hpp"
#include "tessera/sim/vertex.hpp"
#include "tessera_spec.h"

namespace tessera::sim {

namespace {

int32_t sat20(int64_t v) {
  constexpr int64_t kMax = (1 << 19) - 1, kMin = -(1 << 19);
  return static_cast<int32_t>(v > kMax ? kMax : (v < kMin ? kMin : v));
}

// The viewport transform of the geometry slices (docs/geometry.md "VS"): 12.4 x signed 15.16,
// exact product, arithmetic shift, plus the 28.4 offset, saturated to signed 20 bits.
int32_t viewport(int16_t x, uint32_t scale, uint32_t offset) {
  const int64_t prod = static_cast<int64_t>(x) * static_cast<int32_t>(scale);
  return sat20((prod >> 16) + static_cast<int32_t>(offset));
}

// The geometry front end's cull (docs/geometry.md "TSEFE_S"), in this order: zero area,
// facing, off screen. true = the triangle is discarded.
bool culled(const raster::Triangle& t, uint32_t cull, uint32_t width, uint32_t height) {
  const int64_t x0 = t.v[0].x, y0 = t.v[0].y, x1 = t.v[1].x, y1 = t.v[1].y, x2 = t.v[2].x, y2 = t.v[2].y;
  const int64_t area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
  if (area == 0) return true;
  const bool ccw = area > 0;
  const bool front = TS_GEOM_CULL_FRONT_CW_GET(cull) ? !ccw : ccw;
  const uint32_t mode = TS_GEOM_CULL_MODE_GET(cull);
  if (mode == TS_CULL_MODE_BACK && !front) return true;
  if (mode == TS_CULL_MODE_FRONT && front) return true;
  const int64_t px0 = std::min({x0, x1, x2}) >> 4, px1 = std::max({x0, x1, x2}) >> 4;
  const int64_t py0 = std::min({y0, y1, y2}) >> 4, py1 = std::max({y0, y1, y2}) >> 4;
  return px1 < 0 || py1 < 0 || px0 >= static_cast<int64_t>(width) || py0 >= static_cast<int64_t>(height);
}

bool in_raster_block(uint32_t addr) { return addr >= TS_RASTER_BASE_ADDR && addr < TS_RASTER_BASE_ADDR + TS_RASTER_SIZE; }

}  // namespace

RefFrameRenderer::RefFrameRenderer() = default;
RefFrameRenderer::~RefFrameRenderer() = default;

uint32_t RefFrameRenderer::reg(uint32_t addr) const {
  if (auto it = regs_.find(addr); it != regs_.end()) return it->second;
  switch (addr) {  // the reset values of the registers the draw path reads
    case TS_GEOM_BASE_ADDR + TS_GEOM_VP_SCALE_X_OFFSET: return TS_GEOM_VP_SCALE_X_RESET;
    case TS_GEOM_BASE_ADDR + TS_GEOM_VP_SCALE_Y_OFFSET: return TS_GEOM_VP_SCALE_Y_RESET;
    case TS_GEOM_BASE_ADDR + TS_GEOM_VP_OFFSET_X_OFFSET: return TS_GEOM_VP_OFFSET_X_RESET;
    case TS_GEOM_BASE_ADDR + TS_GEOM_VP_OFFSET_Y_OFFSET: return TS_GEOM_VP_OFFSET_Y_RESET;
    case TS_GEOM_BASE_ADDR + TS_GEOM_CULL_OFFSET: return TS_GEOM_CULL_RESET;
    default: return 0;
  }
}

void RefFrameRenderer::execute(const driver::PipeCommand& cmd, SparseMemory& memory) {
  switch (cmd.opcode) {
    case TS_OP_SET_REGS: {
      const uint32_t addr = cmd.args.at(0), value = cmd.args.at(1);
      regs_[addr] = value;
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
      break;
    }
    case TS_OP_DRAW:
      draw(cmd, memory);
      break;
    case TS_OP_RENDERPASS_END:
      if (!pass_renderer_) break;  // the CP forwards an unmatched END; nothing is open
      pass_renderer_->renderpass_end();
      quads_ += pass_renderer_->counters().quads;
      frags_ += pass_renderer_->counters().frags;
      pass_ += pass_renderer_->counters().pass;
      pass_renderer_.reset();
      break;
    case TS_OP_DSID_SET:
      if (pass_renderer_) pass_renderer_->batch_close();
      break;
    default:
      break;  // SET_BIN_MODE, BIND_VIS_BUFFER, FRAME_END: no pixels
  }
}

void RefFrameRenderer::draw(const driver::PipeCommand& cmd, SparseMemory& mem) {
  if (!pass_renderer_) throw driver::DriverError("reference pipeline: DRAW outside a render pass");
  const uint32_t topo = TS_PKT_DRAW_TOPOLOGY_GET(cmd.args.at(TS_PKT_DRAW_TOPOLOGY_DW));
  if (topo != TS_TOPOLOGY_TRI_LIST)
    throw driver::DriverError(
        fmt::format("reference pipeline: DRAW topology {} is not modelled (triangle lists only)", topo));
  const uint32_t itype = TS_PKT_DRAW_INDEX_TYPE_GET(cmd.args.at(TS_PKT_DRAW_INDEX_TYPE_DW));
  const uint32_t count = TS_PKT_DRAW_COUNT_GET(cmd.args.at(TS_PKT_DRAW_COUNT_DW));
  const uint32_t vaddr = TS_PKT_DRAW_VERTEX_ADDR_GET(cmd.args.at(TS_PKT_DRAW_VERTEX_ADDR_DW));
  const uint32_t iaddr = TS_PKT_DRAW_INDEX_ADDR_GET(cmd.args.at(TS_PKT_DRAW_INDEX_ADDR_DW));
  const uint32_t sx = reg(TS_GEOM_BASE_ADDR + TS_GEOM_VP_SCALE_X_OFFSET), sy = reg(TS_GEOM_BASE_ADDR + TS_GEOM_VP_SCALE_Y_OFFSET);
  const uint32_t ox = reg(TS_GEOM_BASE_ADDR + TS_GEOM_VP_OFFSET_X_OFFSET), oy = reg(TS_GEOM_BASE_ADDR + TS_GEOM_VP_OFFSET_Y_OFFSET);
  const uint32_t cull = reg(TS_GEOM_BASE_ADDR + TS_GEOM_CULL_OFFSET);
  for (uint32_t k = 0; k + 2 < count; k += 3) {
    raster::Triangle t;
    t.prim_id = k / 3;
    for (unsigned i = 0; i < 3; ++i) {
      uint32_t idx = k + i;  // non-indexed
      if (itype == TS_INDEX_TYPE_U16) idx = mem.read16(iaddr + (k + i) * 2);
      if (itype == TS_INDEX_TYPE_U32) idx = mem.read32(iaddr + (k + i) * 4);
      const uint32_t va = vaddr + idx * kVertexBytes;
      const std::array<uint32_t, kVertexDwords> dw{mem.read32(va), mem.read32(va + 4), mem.read32(va + 8), mem.read32(va + 12)};
      const Vertex v = unpack_vertex(dw);
      t.v[i].x = viewport(v.x, sx, ox);
      t.v[i].y = viewport(v.y, sy, oy);
      t.v[i].z = v.z;
      t.v[i].rgba = dw[2];
      t.v[i].u = v.u;
      t.v[i].v = v.v;
    }
    if (culled(t, cull, width_, height_)) continue;
    pass_renderer_->triangle(t);
    ++tris_;
  }
}

}  // namespace tessera::sim
