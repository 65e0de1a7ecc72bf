// RefFrameRenderer: the pixels of the reference backend. It is the RefDevice's pipeline model
// (PipelineModel, sim/gpu): it executes the pipe commands the reference CP forwards, in order and
// at the moment they execute, on the bit-exact reference of the raster slices
// (sim/raster, tessera::sim::raster::RefRenderer).
//
// It keeps the state SET_REGS wrote (GEOM viewport and cull, the RASTER registers, which go to
// the raster reference as they arrive) and, per DRAW, does what the geometry front end does
// (docs/geometry.md): fetches the indexed vertices from GPU memory, applies the viewport
// (x_s = sat20(((x * VP_SCALE_X) >>> 16) + VP_OFFSET_X), likewise y), culls zero-area,
// back/front-facing (CULL) and off-screen triangles, then hands the survivors to the raster
// reference in API order. A patch DRAW (PATCH_QUAD/TRI/ISOLINE) reads each patch's control
// points the same way and its factors from the TF buffer, and hands the reference tessellator's
// triangles (sim/tess, tessellate()) to the same cull and raster (docs/tessellation.md "Patch
// draws"), counting patches, tessellated triangles and isoline segments. One RefRenderer with one slice: the union of the slices' images is
// the single-slice image (docs/raster.md).
//
// Because it renders while the command stream executes, everything that happens between two
// passes in the stream -- a DSID_DELETE that poisons a dropped group's lines in the reference
// device (docs/driver.md "The reference device"), a host upload -- is seen by the next pass as
// the RTL sees it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string_view>
#include <vector>

#include "tessera/driver/pipe_command.hpp"
#include "tessera/driver/pipeline_state.hpp"
#include "tessera/sim/coarse_bins.hpp"
#include "tessera/sim/frame_renderer.hpp"

namespace tessera::sim {

namespace raster {
class RefRenderer;
struct Vertex;
struct Triangle;
}

class RefFrameRenderer final : public FrameRenderer {
 public:
  RefFrameRenderer();
  ~RefFrameRenderer() override;
  std::string_view name() const override { return "tessera_ref_render"; }
  void execute(const driver::PipeCommand& cmd, SparseMemory& memory) override;

  uint64_t triangles_rendered() const { return tris_; }
  // The reference's counters summed over every pass rendered so far (quads, fragments,
  // fragments passing depth are slice-independent: every pixel has one owner).
  uint64_t quads() const { return quads_; }
  uint64_t fragments() const { return frags_; }
  uint64_t fragments_passed() const { return pass_; }
  // Patches of patch DRAWs (including culled and isoline ones), triangles the tessellator made
  // (before culling), isoline segments: what the GEOM TESS_* registers count on the RTL.
  std::optional<driver::TessCounters> tess_counters() const override { return tess_; }
  // Two-level binning: primitives dropped before vertex fetch in coarse-bin replays (GEOM.VIS
  // TEST), and primitives recorded by visibility passes (WRITE).
  std::optional<uint64_t> primitives_skipped() const override { return vis_skipped_; }
  std::optional<uint64_t> primitives_recorded() const override { return vis_recorded_; }

 private:
  void draw(const driver::PipeCommand& cmd, SparseMemory& memory);
  void draw_patches(const driver::PipeCommand& cmd, SparseMemory& memory, uint32_t topology, uint32_t count,
                    const std::function<raster::Vertex(uint32_t)>& vertex);

  // The visibility buffer (docs/two-level.md "Visibility buffer"): the pass's GEOM.VIS
  // registers, the primitive number of the pass's next input primitive, and in a visibility
  // pass the coarse bins recorded so far (one bitmap per coarse bin).
  struct Vis {
    uint32_t mode = 0, bin = 0, base = 0, stride = 0;
    uint32_t w = 1, h = 1, nx = 1, ny = 1;
    uint64_t next_prim = 0;
    std::vector<std::vector<uint8_t>> bits;
    uint64_t capacity() const { return uint64_t{stride} * 8; }
  };
  void vis_begin();
  void vis_end(SparseMemory& memory);
  bool vis_dropped(uint64_t prim, SparseMemory& memory);  // TEST: not in the coarse bin
  // WRITE: the coarse bins of a surviving triangle's TSEFE_S bounding box, recorded for prim
  // A triangle's box in 64-pixel blocks: TSEFE_S's pixel box clamped to the target.
  BlockBox block_box(const raster::Triangle& t) const;
  void vis_mark(uint64_t prim, const BlockBox& b);

  Vis vis_;
  driver::TwoLevelStateReader vis_regs_;   // the CP's two-level register writes
  uint64_t vis_skipped_ = 0, vis_recorded_ = 0;
  std::map<uint32_t, uint32_t> regs_;  // host-port address -> last value SET_REGS wrote
  driver::GeomStateReader geom_;       // the GEOM draw state those writes set
  std::unique_ptr<raster::RefRenderer> pass_renderer_;  // the open render pass, if any
  uint32_t width_ = 0, height_ = 0;
  uint64_t tris_ = 0, quads_ = 0, frags_ = 0, pass_ = 0;
  driver::TessCounters tess_;
};

}  // namespace tessera::sim
