#include "tessera/sim/ref_frame_renderer.hpp"

#include <algorithm>
#include <array>

#include "tessera/driver/error.hpp"
#include "tessera/driver/ref_device.hpp"
#include "tessera/sim/ref_render.hpp"
#include "tessera/sim/vertex.hpp"
#include "tessera_spec.h"

namespace tessera::sim {

namespace {

int32_t sat20(int64_t v) {
  constexpr int64_t kMax = (1 << 19) - 1, kMin = -(1 << 19);
  return static_cast<int32_t>(v > kMax ? kMax : (v < kMin ? kMin : v));
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

}  // namespace

void RefFrameRenderer::render(const std::vector<GpuPass>& passes, driver::Device& device) {
  auto* ref = dynamic_cast<driver::RefDevice*>(&device);
  if (!ref) throw driver::DriverError("RefFrameRenderer renders into the reference device's memory only");
  SparseMemory& mem = ref->memory();
  for (const GpuPass& p : passes) {
    raster::RefRenderer r(mem);
    r.set_reg(TS_RASTER_DEPTH_OFFSET, p.depth_state);
    r.set_reg(TS_RASTER_COLOR_OFFSET, p.color_state);
    raster::RenderPass rp;
    rp.color_addr = p.color_addr;
    rp.depth_addr = p.depth_addr;
    rp.width = p.width;
    rp.height = p.height;
    rp.color_load = static_cast<uint32_t>(p.color_load);
    rp.depth_load = static_cast<uint32_t>(p.depth_load);
    rp.color_store = static_cast<uint32_t>(p.color_store);
    rp.depth_store = static_cast<uint32_t>(p.depth_store);
    rp.clear_color = p.clear_color;
    rp.clear_depth = p.clear_depth;
    r.renderpass_begin(rp);
    uint32_t cur_ctrl = 0, cur_base = 0;
    for (const GpuDraw& d : p.draws) {
      if (d.tex_ctrl != cur_ctrl || d.tex_base != cur_base) {
        r.set_reg(TS_RASTER_TEX_CTRL_OFFSET, d.tex_ctrl);
        r.set_reg(TS_RASTER_TEX_BASE_OFFSET, d.tex_base);
        cur_ctrl = d.tex_ctrl;
        cur_base = d.tex_base;
      }
      const unsigned isz = d.index_type == driver::IndexType::U16 ? 2 : 4;
      for (uint32_t k = 0; k + 2 < d.index_count; k += 3) {
        raster::Triangle t;
        t.prim_id = k / 3;
        for (unsigned i = 0; i < 3; ++i) {
          const uint32_t ia = d.index_addr + (k + i) * isz;
          const uint32_t idx = isz == 2 ? mem.read16(ia) : mem.read32(ia);
          const uint32_t va = d.vertex_addr + idx * kVertexBytes;
          const std::array<uint32_t, kVertexDwords> dw{mem.read32(va), mem.read32(va + 4), mem.read32(va + 8),
                                                       mem.read32(va + 12)};
          const Vertex v = unpack_vertex(dw);
          t.v[i].x = sat20(static_cast<int64_t>(v.x) + static_cast<int32_t>(p.vp_offset_x));
          t.v[i].y = sat20(static_cast<int64_t>(v.y) + static_cast<int32_t>(p.vp_offset_y));
          t.v[i].z = v.z;
          t.v[i].rgba = dw[2];
          t.v[i].u = v.u;
          t.v[i].v = v.v;
        }
        if (culled(t, d.cull, p.width, p.height)) continue;
        r.triangle(t);
        ++tris_;
      }
    }
    r.renderpass_end();
    quads_ += r.counters().quads;
    frags_ += r.counters().frags;
    pass_ += r.counters().pass;
  }
}

}  // namespace tessera::sim
