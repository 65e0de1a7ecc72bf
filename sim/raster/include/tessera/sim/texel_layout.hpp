// Where a texel lives in a texture (RASTER.TEX_CTRL.tiled, spec/registers/raster.yaml;
// docs/raster.md "Texture layout"): the one C++ definition, used by the reference renderer's
// sampler, the texture uploads of tessera-sim and the raster bench. rtl/raster/raster_fs.sv
// computes the same.
//
// Linear: texel (x, y) of a 2^lw-wide RGBA8 texture at byte 4 (y 2^lw + x).
// Tiled: 4x4-texel blocks, each one 64-byte line, texel (x, y) at byte 4 (4 (y mod 4) + x mod 4)
// of block (x / 4, y / 4); the blocks in Morton order: the low min(bw, bh) bits of the block
// column and row interleaved (column bit first), the longer side's remaining bits above
// (bw = lw - 2, bh = lh - 2). A 2D footprint is then a few runs of whole lines, which is what
// the tile prefetcher's {first, last} ranges can hold (docs/prefetcher.md "Figures"). A texture
// narrower or shorter than 4 texels is linear.
#pragma once

#include <algorithm>
#include <cstdint>

namespace tessera::sim {

inline bool texture_tiled(bool tiled_bit, unsigned lw, unsigned lh) { return tiled_bit && lw >= 2 && lh >= 2; }

inline std::uint32_t texel_offset(std::uint32_t x, std::uint32_t y, unsigned lw, unsigned lh, bool tiled_bit) {
  if (!texture_tiled(tiled_bit, lw, lh)) return ((y << lw) + x) << 2;
  const unsigned bw = lw - 2, bh = lh - 2, m = std::min(bw, bh);
  const std::uint32_t bx = x >> 2, by = y >> 2;
  std::uint32_t block = 0;
  for (unsigned p = 0; p < 2 * m; ++p) block |= (((p & 1) ? by : bx) >> (p / 2) & 1U) << p;
  block |= ((bw > bh ? bx : by) >> m) << (2 * m);
  return block * 64 + ((((y & 3) << 2) + (x & 3)) << 2);
}

}  // namespace tessera::sim
