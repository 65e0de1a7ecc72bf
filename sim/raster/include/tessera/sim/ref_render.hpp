// Bit-exact reference renderer of the raster slices (docs/raster.md): the primitive batch
// binner's per-bin bitstreams, triangle setup, rasterization with the top-left rule,
// attribute interpolation and the render backend, written from the arithmetic in
// docs/raster.md (not from the RTL). It renders straight into a SparseMemory image (the
// RTL's tile load/store moves whole lines, so the memory result is the same).
//
// One RefRenderer models one slice's ownership (RASTER.SLICE num/index/skew): it bins,
// renders and clears only that slice's tiles, so running it once per slice index produces
// each slice's bitstreams, and the union of the slices' images is the single-slice image.
// No dependency on the test harness: the driver's reference device and tessera-sim link it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/sim/sparse_memory.hpp"
#include "tessera_spec.h"

namespace tessera::sim::raster {

// Screen-space vertex (ARCHITECTURE.md 3, after the viewport transform): x, y signed 16.4
// fixed point (1/16 pixel, 20 bits used), z 24-bit, RGBA8 (R in bits 7:0), u, v 0.16.
struct Vertex {
  std::int32_t x = 0, y = 0;
  std::uint32_t z = 0;
  std::uint32_t rgba = 0;
  std::uint16_t u = 0, v = 0;
};

struct Triangle {
  Vertex v[3];
  std::uint16_t draw_id = 0;
  std::uint32_t prim_id = 0;
};

// RENDERPASS_BEGIN payload (spec/packets.yaml).
struct RenderPass {
  std::uint32_t color_addr = 0, depth_addr = 0;
  std::uint32_t width = 0, height = 0;
  std::uint32_t color_load = 2, depth_load = 2;     // ts load_op: 0 LOAD, 1 CLEAR, 2 DONT_CARE
  std::uint32_t color_store = 1, depth_store = 1;   // ts store_op: 0 DONT_CARE, 1 STORE
  std::uint32_t clear_color = 0, clear_depth = 0;
  std::uint32_t color_dsid = 0, depth_dsid = 0;
  static RenderPass from_payload(const std::uint32_t dw[8]);
  void to_payload(std::uint32_t dw[8]) const;
};

// Raster state (RASTER block, spec/registers/raster.yaml), with its reset values.
struct RasterState {
  std::uint32_t depth_func = 1, depth_write = 1, color_write = 1;
  std::uint32_t tex_ctrl = 0, tex_base = 0;
  std::uint32_t batch = 64;
  std::uint32_t bin_size = 1;              // ts bin_size: 0 16x16, 1 32x32, 2 64x64
  std::uint32_t num = 1, index = 0, skew = 1;
  std::uint32_t lrz_enable = 1;
  std::uint32_t coarse = TS_RASTER_COARSE_RESET;  // two-level: the coarse bin a pass renders
  unsigned tile_log2() const { return 4 + (bin_size >= 2 ? 2 : bin_size); }
  unsigned slices() const { return (num >= 2 && num <= 8) ? num : 1; }
};

// One binning bitstream: the primitives of a batch (bit i = i-th triangle of the batch)
// that touch bin (tx, ty), for a bin this slice owns and renders.
struct BinRecord {
  std::uint32_t batch = 0;                 // batch number since construction
  std::uint32_t tx = 0, ty = 0;
  std::vector<std::uint64_t> mask;         // ceil(max_batch / 64) words
  std::uint32_t count = 0;                 // popcount of mask
  bool operator==(const BinRecord&) const = default;
};

struct Counters {
  std::uint64_t tris = 0, bins = 0, bin_prims = 0, quads = 0, frags = 0, pass = 0;
  std::uint64_t lrz_blocks = 0, lrz_quads = 0;   // LRZ rejections (docs/raster.md "LRZ")
  // Quads that reached the RB (covered, not LRZ-rejected) and passed no fragment: the hidden
  // work the LRZ exists to remove. Reference only (the RTL does not count it).
  std::uint64_t hidden_quads = 0;
  bool operator==(const Counters&) const = default;
};

class RefRenderer {
 public:
  // lrz_blocks: entries of the slice's LRZ (raster_slice LRZ_BLOCKS); 0: no LRZ.
  explicit RefRenderer(SparseMemory& mem, unsigned max_batch = 64, unsigned lrz_blocks = 4096);

  // The command stream of one slice, in order. Every command closes the open batch first.
  void set_reg(std::uint32_t offset, std::uint32_t value);   // RASTER block offset
  void renderpass_begin(const RenderPass& rp);
  void renderpass_end();
  void batch_close();                                         // DSID_SET, FENCE, flush
  void triangle(const Triangle& t);

  const std::vector<BinRecord>& bins() const { return bins_; }
  const Counters& counters() const { return cnt_; }
  const RasterState& state() const { return st_; }

  // LRZ safety (docs/raster.md "LRZ"): every rejection is checked against the full
  // per-pixel depth test of the pixels the primitive covers in the block, with the depth
  // stored at that moment. A rejection that would have hidden a passing fragment is counted
  // here (0 when the LRZ is correct) and the first one described.
  std::uint64_t lrz_unsafe() const { return lrz_unsafe_; }
  const std::string& lrz_unsafe_first() const { return lrz_unsafe_first_; }

  // Per-pixel fragment count since construction (only when enabled; for watertightness
  // tests): frag_count(x, y) = how many covered fragments pixel (x, y) received.
  void enable_fragment_map(std::uint32_t width, std::uint32_t height);
  std::uint32_t frag_count(std::uint32_t x, std::uint32_t y) const {
    return frag_map_[y * map_w_ + x];
  }

  // Ownership: the slice that owns tile (tx, ty) under state st.
  static unsigned owner(const RasterState& st, std::uint32_t tx, std::uint32_t ty);

 private:
  struct PixelBox {
    bool empty = true;
    std::int32_t x0 = 0, y0 = 0, x1 = -1, y1 = -1;
  };
  PixelBox pixel_box(const Triangle& t) const;
  // The pixels this pass renders and clears: the target, or its part inside RASTER.COARSE.
  PixelBox area() const;
  void close_batch();
  void render(const Triangle& t, const PixelBox& box, std::uint32_t tx, std::uint32_t ty);
  void clear_owned_tiles();
  std::uint32_t lrz_tiles_x() const;
  std::uint32_t lrz_row_tiles() const;   // slice-space tiles per row: ceil(tiles_x / N)

  SparseMemory& mem_;
  unsigned max_batch_;
  RasterState st_;
  RenderPass rp_;
  std::vector<Triangle> batch_;
  std::vector<PixelBox> boxes_;
  std::vector<BinRecord> bins_;
  Counters cnt_;
  std::uint32_t batch_no_ = 0;
  std::uint32_t map_w_ = 0, map_h_ = 0;
  std::vector<std::uint32_t> frag_map_;
  // LRZ: 16-bit entries, every stored depth of the block <= (entry << 8) | 0xFF
  std::vector<std::uint16_t> lrz_;
  bool lrz_valid_ = false;               // usable in this render pass
  std::uint64_t lrz_unsafe_ = 0;
  std::string lrz_unsafe_first_;
};

}  // namespace tessera::sim::raster
