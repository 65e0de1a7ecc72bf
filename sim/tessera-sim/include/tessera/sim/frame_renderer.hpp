// FrameRenderer: the seam where pixels come from (docs/tessera-sim.md "Rendering").
//
// tessera-sim sends every frame's commands through the driver to a device. On the RTL backend
// gpu_top renders them. On the reference backend the reference device forwards every pipe
// command, as it executes, to its pipeline model, a FrameRenderer (RefFrameRenderer, on the
// raster slices' bit-exact reference): it renders from the command stream alone.
//
// GpuPass and GpuDraw describe a frame's passes as tessera-sim recorded them (for reports and
// tests); no renderer reads them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/driver/device.hpp"
#include "tessera/driver/ref_device.hpp"
#include "tessera/driver/packets.hpp"

namespace tessera::sim {

struct GpuDraw {
  driver::IndexType index_type = driver::IndexType::U16;
  uint32_t index_count = 0;
  uint32_t vertex_addr = 0;
  uint32_t index_addr = 0;
  uint32_t vertex_count = 0;
  uint32_t cull = 0;         // GEOM CULL register value
  uint32_t tex_ctrl = 0;     // RASTER TEX_CTRL
  uint32_t tex_base = 0;     // RASTER TEX_BASE
};

struct GpuPass {
  std::string name;
  uint32_t width = 0, height = 0;
  uint32_t color_addr = 0, depth_addr = 0;
  driver::LoadOp color_load = driver::LoadOp::Clear, depth_load = driver::LoadOp::Clear;
  driver::StoreOp color_store = driver::StoreOp::Store, depth_store = driver::StoreOp::DontCare;
  uint32_t clear_color = 0;  // RGBA8 as in memory: R in bits 7:0
  uint32_t clear_depth = 0;  // 24-bit
  uint32_t vp_offset_x = 0, vp_offset_y = 0;  // GEOM VP_OFFSET_X/Y (28.4): width/2, height/2
  uint32_t depth_state = 0;  // RASTER DEPTH
  uint32_t color_state = 0;  // RASTER COLOR
  std::vector<GpuDraw> draws;
};

// The pixels of the reference backend: a pipeline model of the reference device that executes
// the pipe commands as the reference CP forwards them (RefFrameRenderer). The RTL backend needs
// none: gpu_top renders by itself.
class FrameRenderer : public driver::PipelineModel {
 public:
  virtual std::string_view name() const = 0;
};

}  // namespace tessera::sim
