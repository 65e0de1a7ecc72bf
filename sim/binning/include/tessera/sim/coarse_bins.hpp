// Two-level binning's coarse-bin rule (docs/two-level.md "Visibility buffer"), the one
// definition the reference models share: the geometry bench's model (tb/geom/geom_ref.hpp) and
// the reference pipeline (RefFrameRenderer). rtl/geom/geom_vis_writer.sv implements the same.
#pragma once

#include <algorithm>
#include <cstdint>

namespace tessera::sim {

// A primitive's screen box in 64x64-pixel blocks: TSEFE_S's pixel box clamped to the target.
struct BlockBox {
  uint32_t x0 = 0, x1 = 0, y0 = 0, y1 = 0;
  // The bounding box of two boxes (a patch's triangles merge into one).
  BlockBox merged(const BlockBox& o) const {
    return BlockBox{std::min(x0, o.x0), std::max(x1, o.x1), std::min(y0, o.y0), std::max(y1, o.y1)};
  }
};

// Pixel extremes (floor of the 16.4 vertices, any sign) -> blocks, clamped to a w x h target.
inline BlockBox block_box(int64_t px0, int64_t px1, int64_t py0, int64_t py1, uint32_t w, uint32_t h) {
  auto block = [](int64_t p, uint32_t limit) {
    return static_cast<uint32_t>(std::clamp<int64_t>(p, 0, int64_t{limit} - 1) >> 6);
  };
  return BlockBox{block(px0, w), block(px1, w), block(py0, h), block(py1, h)};
}

// The coarse grid: bin (cx, cy) covers blocks [cx*w, cx*w + w) x [cy*h, cy*h + h).
struct CoarseGrid {
  uint32_t w = 1, h = 1, nx = 1, ny = 1;
};

// Calls f(c) for every coarse bin c = cy * nx + cx the box touches, in that order.
template <class F>
void for_each_coarse_bin(const BlockBox& b, const CoarseGrid& g, F&& f) {
  for (uint32_t cy = 0; cy < g.ny; ++cy)
    for (uint32_t cx = 0; cx < g.nx; ++cx)
      if (b.x0 <= cx * g.w + g.w - 1 && b.x1 >= cx * g.w && b.y0 <= cy * g.h + g.h - 1 && b.y1 >= cy * g.h)
        f(cy * g.nx + cx);
}

}  // namespace tessera::sim
