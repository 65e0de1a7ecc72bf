#include "tessera/driver/pipeline_state.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "tessera/driver/error.hpp"

namespace tessera::driver {

namespace {

// The state is written as two SET_REGS runs, so every register of a run must sit between its
// first and last, once: the spec keeps them contiguous and in this set.
constexpr bool distinct_in_run(std::initializer_list<unsigned> idx, unsigned count) {
  bool seen[32] = {};
  for (unsigned i : idx) {
    if (i >= count || seen[i]) return false;
    seen[i] = true;
  }
  return idx.size() == count;
}
static_assert(distinct_in_run({geom_index(TS_GEOM_VP_SCALE_X_OFFSET), geom_index(TS_GEOM_VP_SCALE_Y_OFFSET),
                               geom_index(TS_GEOM_VP_OFFSET_X_OFFSET), geom_index(TS_GEOM_VP_OFFSET_Y_OFFSET),
                               geom_index(TS_GEOM_CULL_OFFSET), geom_index(TS_GEOM_TILE_OFFSET),
                               geom_index(TS_GEOM_RT_SIZE_OFFSET), geom_index(TS_GEOM_SUBBATCH_OFFSET),
                               geom_index(TS_GEOM_DIST_OFFSET), geom_index(TS_GEOM_TESS_THROTTLE_OFFSET),
                               geom_index(TS_GEOM_TESS_SHADER_OFFSET), geom_index(TS_GEOM_TESS_HS_LAT_OFFSET),
                               geom_index(TS_GEOM_TESS_DS_LAT_OFFSET)},
                              StateRegisters::kGeomCount),
              "GEOM VP_SCALE_X..TESS_DS_LAT is no longer one contiguous run of the state registers");
static_assert(distinct_in_run({raster_index(TS_RASTER_DEPTH_OFFSET), raster_index(TS_RASTER_COLOR_OFFSET),
                               raster_index(TS_RASTER_TEX_CTRL_OFFSET), raster_index(TS_RASTER_TEX_BASE_OFFSET)},
                              StateRegisters::kRasterCount),
              "RASTER DEPTH..TEX_BASE is no longer one contiguous run of the state registers");

[[noreturn]] void bad(const std::string& msg) { throw DriverError("pipeline state: " + msg); }

// A real number as a two's complement 32-bit fixed-point register value with `frac` fraction
// bits; not representable (or not finite) is an error naming the field.
uint32_t fixed32(double v, int frac, const char* field) {
  const double s = std::round(v * std::ldexp(1.0, frac));
  if (!std::isfinite(s) || s < -2147483648.0 || s > 2147483647.0)
    bad(fmt::format("{} {} does not fit its 32-bit field with {} fraction bits", field, v, frac));
  return static_cast<uint32_t>(static_cast<int32_t>(s));
}

uint32_t log2_exact(uint32_t v, const char* what) {
  const uint32_t max_log2 = TS_RASTER_TEX_CTRL_LOG2_W_MASK >> TS_RASTER_TEX_CTRL_LOG2_W_LSB;
  for (uint32_t l = 0; l <= max_log2 && l < 12; ++l)
    if (v == (1u << l)) return l;
  bad(fmt::format("texture {} {} is not a power of two in 1..2048", what, v));
}

// GEOM.VP_SCALE_*: s15.16; GEOM.VP_OFFSET_*: 1/16 pixel (the register descriptions).
constexpr int kScaleFractionBits = 16;
constexpr int kOffsetFractionBits = 4;

}  // namespace

StateRegisters encode_state(const PipelineState& s, uint32_t target_width, uint32_t target_height) {
  const uint32_t max_w = TS_GEOM_RT_SIZE_WIDTH_MASK >> TS_GEOM_RT_SIZE_WIDTH_LSB;
  const uint32_t max_h = TS_GEOM_RT_SIZE_HEIGHT_MASK >> TS_GEOM_RT_SIZE_HEIGHT_LSB;
  if (target_width < 1 || target_width > max_w || target_height < 1 || target_height > max_h)
    bad(fmt::format("render target {}x{} outside GEOM.RT_SIZE's 1..{} x 1..{}", target_width, target_height, max_w,
                    max_h));
  const uint32_t max_sub = TS_GEOM_SUBBATCH_SIZE_MASK >> TS_GEOM_SUBBATCH_SIZE_LSB;
  if (s.subbatch < 16 || s.subbatch > 1024 || s.subbatch > max_sub)
    bad(fmt::format("sub-batch size {} outside 16..1024 (GEOM.SUBBATCH)", s.subbatch));
  const TessellationState& t = s.tess;
  auto in_field = [](uint32_t v, uint32_t lo, uint32_t mask, uint32_t lsb, const char* what) {
    const uint32_t hi = mask >> lsb;
    if (v < lo || v > hi) bad(fmt::format("tessellation {} {} outside {}..{}", what, v, lo, hi));
  };
  if (t.throttle > ThrottleMode::Cap) bad(fmt::format("unknown throttle mode {}", static_cast<unsigned>(t.throttle)));
  in_field(t.cap, 1, TS_GEOM_TESS_THROTTLE_CAP_MASK, TS_GEOM_TESS_THROTTLE_CAP_LSB, "cap (GEOM.TESS_THROTTLE.cap)");
  in_field(t.rate, 1, TS_GEOM_TESS_THROTTLE_RATE_MASK, TS_GEOM_TESS_THROTTLE_RATE_LSB, "rate (GEOM.TESS_THROTTLE.rate)");
  in_field(t.thread_group, 1, TS_GEOM_TESS_SHADER_TG_SIZE_MASK, TS_GEOM_TESS_SHADER_TG_SIZE_LSB,
           "thread-group size (GEOM.TESS_SHADER.tg_size)");
  if (t.slots < 2 || t.slots > TS_GEOM_TESS_SHADER_SLOTS_RESET)
    bad(fmt::format("tessellation slots {} outside 2..{} (GEOM.TESS_SHADER.slots)", t.slots,
                    TS_GEOM_TESS_SHADER_SLOTS_RESET));
  in_field(t.hs_base, 0, TS_GEOM_TESS_HS_LAT_BASE_MASK, TS_GEOM_TESS_HS_LAT_BASE_LSB, "HS base latency");
  in_field(t.hs_per_patch, 0, TS_GEOM_TESS_HS_LAT_PER_PATCH_MASK, TS_GEOM_TESS_HS_LAT_PER_PATCH_LSB,
           "HS latency per patch");
  in_field(t.ds_wave, 0, TS_GEOM_TESS_DS_LAT_WAVE_MASK, TS_GEOM_TESS_DS_LAT_WAVE_LSB, "DS latency per wave");
  if (s.bin_size > BinSize::Px64) bad(fmt::format("unknown bin size {}", static_cast<unsigned>(s.bin_size)));

  StateRegisters r;
  auto& g = r.geom;
  g[geom_index(TS_GEOM_VP_SCALE_X_OFFSET)] = fixed32(s.viewport.scale_x, kScaleFractionBits, "viewport scale_x");
  g[geom_index(TS_GEOM_VP_SCALE_Y_OFFSET)] = fixed32(s.viewport.scale_y, kScaleFractionBits, "viewport scale_y");
  g[geom_index(TS_GEOM_VP_OFFSET_X_OFFSET)] = fixed32(s.viewport.offset_x, kOffsetFractionBits, "viewport offset_x");
  g[geom_index(TS_GEOM_VP_OFFSET_Y_OFFSET)] = fixed32(s.viewport.offset_y, kOffsetFractionBits, "viewport offset_y");
  g[geom_index(TS_GEOM_CULL_OFFSET)] =
      TS_GEOM_CULL_MODE_PUT(static_cast<uint32_t>(s.cull.mode)) |
      TS_GEOM_CULL_FRONT_CW_PUT(s.cull.front == FrontFace::Clockwise ? 1u : 0u);
  // Tile ownership skew between rows: the reset value, the one the raster slices are built with.
  g[geom_index(TS_GEOM_TILE_OFFSET)] =
      TS_GEOM_TILE_SIZE_PUT(static_cast<uint32_t>(s.bin_size)) | TS_GEOM_TILE_SKEW_PUT(TS_GEOM_TILE_SKEW_RESET);
  g[geom_index(TS_GEOM_RT_SIZE_OFFSET)] =
      TS_GEOM_RT_SIZE_WIDTH_PUT(target_width) | TS_GEOM_RT_SIZE_HEIGHT_PUT(target_height);
  g[geom_index(TS_GEOM_SUBBATCH_OFFSET)] = TS_GEOM_SUBBATCH_SIZE_PUT(s.subbatch);
  g[geom_index(TS_GEOM_DIST_OFFSET)] = TS_GEOM_DIST_POLICY_PUT(static_cast<uint32_t>(s.distribution));
  g[geom_index(TS_GEOM_TESS_THROTTLE_OFFSET)] = TS_GEOM_TESS_THROTTLE_MODE_PUT(static_cast<uint32_t>(t.throttle)) |
                                                TS_GEOM_TESS_THROTTLE_CAP_PUT(t.cap) |
                                                TS_GEOM_TESS_THROTTLE_RATE_PUT(t.rate);
  g[geom_index(TS_GEOM_TESS_SHADER_OFFSET)] =
      TS_GEOM_TESS_SHADER_TG_SIZE_PUT(t.thread_group) | TS_GEOM_TESS_SHADER_SLOTS_PUT(t.slots) |
      TS_GEOM_TESS_SHADER_HOLD_PUT(t.hold_until_consumed ? 1u : 0u);
  g[geom_index(TS_GEOM_TESS_HS_LAT_OFFSET)] =
      TS_GEOM_TESS_HS_LAT_BASE_PUT(t.hs_base) | TS_GEOM_TESS_HS_LAT_PER_PATCH_PUT(t.hs_per_patch);
  g[geom_index(TS_GEOM_TESS_DS_LAT_OFFSET)] = TS_GEOM_TESS_DS_LAT_WAVE_PUT(t.ds_wave);

  auto& ra = r.raster;
  const DepthCompare cmp = s.depth.test ? s.depth.compare : DepthCompare::Always;
  ra[raster_index(TS_RASTER_DEPTH_OFFSET)] = TS_RASTER_DEPTH_FUNC_PUT(static_cast<uint32_t>(cmp)) |
                                             TS_RASTER_DEPTH_WRITE_EN_PUT(s.depth.test && s.depth.write ? 1u : 0u);
  ra[raster_index(TS_RASTER_COLOR_OFFSET)] = TS_RASTER_COLOR_WRITE_EN_PUT(s.color.write ? 1u : 0u);
  if (s.texture) {
    ra[raster_index(TS_RASTER_TEX_CTRL_OFFSET)] = TS_RASTER_TEX_CTRL_ENABLE_PUT(1) |
                                                  TS_RASTER_TEX_CTRL_TILED_PUT(s.texture->tiled ? 1u : 0u) |
                                                  TS_RASTER_TEX_CTRL_LOG2_W_PUT(log2_exact(s.texture->width, "width")) |
                                                  TS_RASTER_TEX_CTRL_LOG2_H_PUT(log2_exact(s.texture->height, "height"));
    ra[raster_index(TS_RASTER_TEX_BASE_OFFSET)] = TS_RASTER_TEX_BASE_ADDR_PUT(s.texture->addr);
  }
  r.raster_bin = TS_RASTER_BIN_SIZE_PUT(static_cast<uint32_t>(s.bin_size));
  r.raster_lrz = TS_RASTER_LRZ_ENABLE_PUT(s.lrz ? 1u : 0u);
  return r;
}

GeomStateReader::GeomStateReader() {
  regs_[geom_index(TS_GEOM_VP_SCALE_X_OFFSET)] = TS_GEOM_VP_SCALE_X_RESET;
  regs_[geom_index(TS_GEOM_VP_SCALE_Y_OFFSET)] = TS_GEOM_VP_SCALE_Y_RESET;
  regs_[geom_index(TS_GEOM_VP_OFFSET_X_OFFSET)] = TS_GEOM_VP_OFFSET_X_RESET;
  regs_[geom_index(TS_GEOM_VP_OFFSET_Y_OFFSET)] = TS_GEOM_VP_OFFSET_Y_RESET;
  regs_[geom_index(TS_GEOM_CULL_OFFSET)] = TS_GEOM_CULL_RESET;
  regs_[geom_index(TS_GEOM_TILE_OFFSET)] = TS_GEOM_TILE_RESET;
  regs_[geom_index(TS_GEOM_RT_SIZE_OFFSET)] = TS_GEOM_RT_SIZE_RESET;
  regs_[geom_index(TS_GEOM_SUBBATCH_OFFSET)] = TS_GEOM_SUBBATCH_RESET;
  regs_[geom_index(TS_GEOM_DIST_OFFSET)] = TS_GEOM_DIST_RESET;
  regs_[geom_index(TS_GEOM_TESS_THROTTLE_OFFSET)] = TS_GEOM_TESS_THROTTLE_RESET;
  regs_[geom_index(TS_GEOM_TESS_SHADER_OFFSET)] = TS_GEOM_TESS_SHADER_RESET;
  regs_[geom_index(TS_GEOM_TESS_HS_LAT_OFFSET)] = TS_GEOM_TESS_HS_LAT_RESET;
  regs_[geom_index(TS_GEOM_TESS_DS_LAT_OFFSET)] = TS_GEOM_TESS_DS_LAT_RESET;
}

void GeomStateReader::write(uint32_t addr, uint32_t value) {
  if (addr < StateRegisters::kGeomFirst || addr % 4 != 0) return;
  const uint32_t i = (addr - StateRegisters::kGeomFirst) / 4;
  if (i < regs_.size()) regs_[i] = value;
}

uint32_t GeomStateReader::get(uint32_t geom_offset) const { return regs_[geom_index(geom_offset)]; }
int32_t GeomStateReader::scale_x() const { return static_cast<int32_t>(get(TS_GEOM_VP_SCALE_X_OFFSET)); }
int32_t GeomStateReader::scale_y() const { return static_cast<int32_t>(get(TS_GEOM_VP_SCALE_Y_OFFSET)); }
int32_t GeomStateReader::offset_x() const { return static_cast<int32_t>(get(TS_GEOM_VP_OFFSET_X_OFFSET)); }
int32_t GeomStateReader::offset_y() const { return static_cast<int32_t>(get(TS_GEOM_VP_OFFSET_Y_OFFSET)); }
CullMode GeomStateReader::cull_mode() const {
  return static_cast<CullMode>(TS_GEOM_CULL_MODE_GET(get(TS_GEOM_CULL_OFFSET)));
}
FrontFace GeomStateReader::front_face() const {
  return TS_GEOM_CULL_FRONT_CW_GET(get(TS_GEOM_CULL_OFFSET)) ? FrontFace::Clockwise : FrontFace::CounterClockwise;
}
uint32_t GeomStateReader::subbatch() const {
  return std::clamp<uint32_t>(TS_GEOM_SUBBATCH_SIZE_GET(get(TS_GEOM_SUBBATCH_OFFSET)), 16, 1024);
}
uint32_t GeomStateReader::thread_group() const {
  return std::max<uint32_t>(1, TS_GEOM_TESS_SHADER_TG_SIZE_GET(get(TS_GEOM_TESS_SHADER_OFFSET)));
}

StateGroup geom_group(unsigned i) {
  if (i == geom_index(TS_GEOM_VP_SCALE_X_OFFSET) || i == geom_index(TS_GEOM_VP_SCALE_Y_OFFSET) ||
      i == geom_index(TS_GEOM_VP_OFFSET_X_OFFSET) || i == geom_index(TS_GEOM_VP_OFFSET_Y_OFFSET))
    return StateGroup::Viewport;
  if (i == geom_index(TS_GEOM_CULL_OFFSET)) return StateGroup::Cull;
  if (i == geom_index(TS_GEOM_TILE_OFFSET)) return StateGroup::Tile;
  if (i == geom_index(TS_GEOM_RT_SIZE_OFFSET)) return StateGroup::TargetSize;
  if (i == geom_index(TS_GEOM_SUBBATCH_OFFSET)) return StateGroup::Subbatch;
  if (i == geom_index(TS_GEOM_DIST_OFFSET)) return StateGroup::Distribution;
  return StateGroup::Tessellation;
}

StateGroup raster_group(unsigned i) {
  if (i == raster_index(TS_RASTER_DEPTH_OFFSET)) return StateGroup::Depth;
  if (i == raster_index(TS_RASTER_COLOR_OFFSET)) return StateGroup::Color;
  return StateGroup::Texture;
}

}  // namespace tessera::driver
