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
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/driver/device.hpp"
#include "tessera/driver/kmd.hpp"
#include "tessera/driver/packets.hpp"
#include "tessera/driver/pipeline_state.hpp"
#include "tessera/sim/ref_device.hpp"

namespace tessera::sim {

struct GpuDraw {
  driver::Topology topology = driver::Topology::TriList;
  driver::IndexType index_type = driver::IndexType::U16;
  uint32_t index_count = 0;
  uint32_t vertex_addr = 0;
  uint32_t index_addr = 0;
  uint32_t vertex_count = 0;
  uint32_t tf_addr = 0;       // patch draws: the TF buffer (16 bytes per patch)
  std::vector<uint32_t> factors;  // patch draws: each patch's factor as written to the TF buffer
  driver::CullState cull;
  std::optional<driver::TextureBinding> texture;
};

struct GpuPass {
  std::string name;
  uint32_t width = 0, height = 0;
  uint32_t color_addr = 0, depth_addr = 0;
  driver::LoadOp color_load = driver::LoadOp::Clear, depth_load = driver::LoadOp::Clear;
  driver::StoreOp color_store = driver::StoreOp::Store, depth_store = driver::StoreOp::DontCare;
  uint32_t clear_color = 0;  // RGBA8 as in memory: R in bits 7:0
  uint32_t clear_depth = 0;  // 24-bit
  driver::PipelineState state;  // at the start of the pass (the draws change cull and texture)
  std::vector<GpuDraw> draws;
};

// The pixels of the reference backend: a pipeline model of the reference device that executes
// the pipe commands as the reference CP forwards them (RefFrameRenderer). The RTL backend needs
// none: gpu_top renders by itself.
class FrameRenderer : public PipelineModel {
 public:
  virtual std::string_view name() const = 0;
  // The tessellation counters summed over everything rendered so far (as the GEOM TESS_*
  // registers count them), if the renderer models tessellation.
  virtual std::optional<driver::TessCounters> tess_counters() const { return std::nullopt; }
  // Two-level binning (docs/two-level.md), summed over everything rendered so far: input
  // primitives dropped before vertex fetch in coarse-bin replays, and recorded by visibility
  // passes, if the renderer models the visibility buffer.
  virtual std::optional<uint64_t> primitives_skipped() const { return std::nullopt; }
  virtual std::optional<uint64_t> primitives_recorded() const { return std::nullopt; }
};

}  // namespace tessera::sim
