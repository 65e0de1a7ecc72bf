// RefFrameRenderer: the FrameRenderer of the reference backend, on the bit-exact reference
// renderer of the raster slices (sim/raster, tessera::sim::raster::RefRenderer).
//
// Per draw it does what the geometry front end does (docs/geometry.md): fetches the indexed
// vertices from GPU memory, applies the viewport (VP_SCALE 1.0: x + VP_OFFSET_X, saturated to
// signed 20 bits), culls zero-area, back/front-facing (CULL) and off-screen triangles, then
// hands the survivors to the raster reference in API order, with the RASTER state registers
// the frame wrote. One RefRenderer with one slice (SLICE.num = 1): the union of the slices'
// images is the single-slice image (docs/raster.md).
// Textures (TEX_CTRL/TEX_BASE: nearest, wrap, RGBA8) are sampled by the reference, including
// intermediate targets rendered earlier in the frame (render to texture).
#pragma once

#include "tessera/sim/frame_renderer.hpp"

namespace tessera::sim {

class RefFrameRenderer final : public FrameRenderer {
 public:
  std::string_view name() const override { return "tessera_ref_render"; }
  // device must be a driver::RefDevice (the renderer writes its SparseMemory).
  void render(const std::vector<GpuPass>& passes, driver::Device& device) override;
  uint64_t triangles_rendered() const { return tris_; }
  // The reference's counters summed over every pass rendered so far (quads, fragments,
  // fragments passing depth are slice-independent: every pixel has one owner).
  uint64_t quads() const { return quads_; }
  uint64_t fragments() const { return frags_; }
  uint64_t fragments_passed() const { return pass_; }

 private:
  uint64_t tris_ = 0, quads_ = 0, frags_ = 0, pass_ = 0;
};

}  // namespace tessera::sim
