// FrameRenderer: the seam where pixels come from (docs/tessera-sim.md "Rendering").
//
// tessera-sim sends every frame's commands through the driver to a device. Whatever renders
// the pixels implements this interface: it gets the frame's render passes as the GPU sees
// them -- screen-space vertex and index buffers already in GPU memory (tessera/sim/vertex.hpp),
// the state tessera-sim wrote with SET_REGS, the targets' addresses -- and writes the targets in
// GPU memory through the device's backdoor, pass by pass, in order.
//
// RefFrameRenderer (ref_frame_renderer.hpp) implements it for the reference backend on the
// raster slices' bit-exact reference (sim/raster, tessera_ref_render). The RTL backend has none:
// its pipeline is still a stand-in that renders nothing; when the slices are in gpu_top the RTL
// renders by itself and needs no FrameRenderer.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/driver/device.hpp"
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

class FrameRenderer {
 public:
  virtual ~FrameRenderer() = default;
  virtual std::string_view name() const = 0;
  // Render the frame's passes, in order, into their targets in the device's memory.
  virtual void render(const std::vector<GpuPass>& passes, driver::Device& device) = 0;
};

}  // namespace tessera::sim
