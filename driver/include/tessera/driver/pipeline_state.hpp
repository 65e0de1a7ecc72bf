// PipelineState: the draw-level state an application sets (viewport, face culling, depth and
// color state, texture binding, bin size, geometry distribution, sub-batch size) and its
// encoding into the GEOM and RASTER registers of spec/registers/geom.yaml and raster.yaml.
//
// Applications hand a PipelineState to CommandBuffer::begin_render_pass and set_state; the
// driver writes the registers (SET_REGS). Every field position and enum value comes from the
// generated tessera_spec.h; a value that does not fit its field is a DriverError naming it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "tessera/driver/packets.hpp"

namespace tessera::driver {

enum class CullMode : uint8_t { None = TS_CULL_MODE_NONE, Back = TS_CULL_MODE_BACK, Front = TS_CULL_MODE_FRONT };
// Which winding is a front face, in the GPU's frame (x right, y up).
enum class FrontFace : uint8_t { CounterClockwise, Clockwise };
enum class DepthCompare : uint8_t {
  Never = TS_DEPTH_FUNC_NEVER,
  Less = TS_DEPTH_FUNC_LESS,
  LEqual = TS_DEPTH_FUNC_LEQUAL,
  Always = TS_DEPTH_FUNC_ALWAYS,
};
// How the geometry front end hands sub-batches to the slices (GEOM.DIST).
enum class DistributionPolicy : uint8_t {
  RoundRobin = TS_DIST_POLICY_ROUND_ROBIN,
  LeastLoaded = TS_DIST_POLICY_LEAST_LOADED,
};
// How each slice's HS launcher limits thread groups in flight (GEOM.TESS_THROTTLE.mode).
enum class ThrottleMode : uint8_t {
  Off = TS_TESS_THROTTLE_MODE_OFF,        // greedy launching
  Source = TS_TESS_THROTTLE_MODE_SOURCE,  // the source's throttle (method 700)
  Cap = TS_TESS_THROTTLE_MODE_CAP,        // a static cap of `cap` thread groups
};

// The slices' tessellation stage (GEOM.TESS_THROTTLE, TESS_SHADER, TESS_HS_LAT, TESS_DS_LAT;
// docs/tessellation.md "The slice's tessellation stage"). The defaults are the registers'
// resets. Pictures do not depend on it, only the cycles.
struct TessellationState {
  static constexpr uint32_t kMaxCap = TS_GEOM_TESS_THROTTLE_CAP_MASK >> TS_GEOM_TESS_THROTTLE_CAP_LSB;
  ThrottleMode throttle = static_cast<ThrottleMode>(TS_GEOM_TESS_THROTTLE_MODE_RESET);
  uint32_t cap = TS_GEOM_TESS_THROTTLE_CAP_RESET;              // in flight under Cap, 1..31
  uint32_t rate = TS_GEOM_TESS_THROTTLE_RATE_RESET;            // R, primitives per clock, 1..15
  uint32_t thread_group = TS_GEOM_TESS_SHADER_TG_SIZE_RESET;   // patches per HS thread group, 1..15
  uint32_t slots = TS_GEOM_TESS_SHADER_SLOTS_RESET;            // shader slots per slice, 2..16
  // An HS thread group keeps its slot until the tessellator has taken its patches (else it is
  // freed when the HS is done).
  bool hold_until_consumed = TS_GEOM_TESS_SHADER_HOLD_RESET != 0;
  uint32_t hs_base = TS_GEOM_TESS_HS_LAT_BASE_RESET;           // HS cycles per thread group
  uint32_t hs_per_patch = TS_GEOM_TESS_HS_LAT_PER_PATCH_RESET; // ... plus per patch
  uint32_t ds_wave = TS_GEOM_TESS_DS_LAT_WAVE_RESET;           // DS cycles per wave of 32 vertices
  bool operator==(const TessellationState&) const = default;
};

// Screen position = vertex position x scale + offset (GEOM.VP_*).
struct Viewport {
  double scale_x = 1.0, scale_y = 1.0;    // s15.16 on the GPU
  double offset_x = 0.0, offset_y = 0.0;  // pixels; 1/16 pixel on the GPU
  // Scale 1 and the origin at the centre of a width x height target.
  static Viewport centered(uint32_t width, uint32_t height) {
    return Viewport{1.0, 1.0, width / 2.0, height / 2.0};
  }
  bool operator==(const Viewport&) const = default;
};

struct CullState {
  CullMode mode = CullMode::None;
  FrontFace front = FrontFace::CounterClockwise;
  bool operator==(const CullState&) const = default;
};

// test false: every fragment passes and none writes depth (compare ALWAYS, writes off), whatever
// compare and write say.
struct DepthState {
  bool test = false;
  DepthCompare compare = DepthCompare::Less;
  bool write = false;
  bool operator==(const DepthState&) const = default;
};

struct ColorState {
  bool write = true;
  bool operator==(const ColorState&) const = default;
};

// An RGBA8 texture in GPU memory, width x height texels, each a power of two in 1..2048.
struct TextureBinding {
  uint32_t addr = 0;
  uint32_t width = 1, height = 1;
  // RASTER.TEX_CTRL.tiled: the texels in 4x4 blocks in Morton order (docs/raster.md "Texture
  // layout"); false: linear rows.
  bool tiled = false;
  bool operator==(const TextureBinding&) const = default;
};

// The driver's sub-batch size (GEOM.SUBBATCH; the register resets to the source's 256).
// Measured on the RTL GPU with 4 slices and the FS overlapping its texel misses (docs/geometry.md
// "Sub-batch size"): the demo frame takes 67.4k cycles with 64 primitives per sub-batch, 68.6k
// with 32, 71.3k with 128, 82.1k with 256 and 88.2k with 512; smaller sub-batches spread a
// draw's geometry over the geometry slices, so the raster slices wait less for input. On 1 slice
// the size changes nothing (197.8k cycles); the other shipped scenes are no slower with 64.
inline constexpr uint32_t kDefaultSubbatch = 64;

struct PipelineState {
  Viewport viewport;
  CullState cull;
  DepthState depth;
  ColorState color;
  std::optional<TextureBinding> texture;  // none: vertex colour only
  BinSize bin_size = BinSize::Px32;       // fixed for a render pass (RASTER.BIN, GEOM.TILE)
  DistributionPolicy distribution = DistributionPolicy::RoundRobin;
  uint32_t subbatch = kDefaultSubbatch;   // primitives per sub-batch, 16..1024
  // Early depth rejection by each raster slice's LRZ (RASTER.LRZ, docs/raster.md "LRZ"):
  // pictures are the same either way, only the work differs.
  bool lrz = true;
  TessellationState tess;
  bool operator==(const PipelineState&) const = default;
};

// The register values of a PipelineState. geom[] holds the run of GEOM registers from
// VP_SCALE_X to TESS_DS_LAT, raster[] the run of RASTER registers from DEPTH to TEX_BASE, each in
// register order (index = (offset - first offset) / 4; the spec keeps each run contiguous,
// checked at compile time). raster_bin is RASTER.BIN, written before RENDERPASS_BEGIN.
struct StateRegisters {
  static constexpr uint32_t kGeomFirst = TS_GEOM_BASE_ADDR + TS_GEOM_VP_SCALE_X_OFFSET;
  static constexpr uint32_t kGeomCount = (TS_GEOM_TESS_DS_LAT_OFFSET - TS_GEOM_VP_SCALE_X_OFFSET) / 4 + 1;
  static constexpr uint32_t kRasterFirst = TS_RASTER_BASE_ADDR + TS_RASTER_DEPTH_OFFSET;
  static constexpr uint32_t kRasterCount = (TS_RASTER_TEX_BASE_OFFSET - TS_RASTER_DEPTH_OFFSET) / 4 + 1;
  static constexpr uint32_t kRasterBin = TS_RASTER_BASE_ADDR + TS_RASTER_BIN_OFFSET;
  static constexpr uint32_t kRasterLrz = TS_RASTER_BASE_ADDR + TS_RASTER_LRZ_OFFSET;
  std::array<uint32_t, kGeomCount> geom{};
  std::array<uint32_t, kRasterCount> raster{};
  uint32_t raster_bin = 0;
  uint32_t raster_lrz = 0;   // RASTER.LRZ, written with RASTER.BIN and when a draw changes it
};

// Each register of the runs, by its spec offset (for the encoder and its tests).
constexpr unsigned geom_index(uint32_t geom_offset) { return (geom_offset - TS_GEOM_VP_SCALE_X_OFFSET) / 4; }
constexpr unsigned raster_index(uint32_t raster_offset) { return (raster_offset - TS_RASTER_DEPTH_OFFSET) / 4; }

// Encodes the state for a render target of width x height pixels (GEOM.RT_SIZE). Throws
// DriverError for a value outside its field (viewport, sub-batch, texture size, target size).
StateRegisters encode_state(const PipelineState& s, uint32_t target_width, uint32_t target_height);

// The slice that owns screen tile (tx, ty) on a GPU with `slices` slices: the ownership the
// driver programs (GEOM.TILE skew at its reset value, RASTER.SLICE; docs/raster.md "Flow"):
// (tx + ty * skew) mod slices. For tools that draw the ownership map.
constexpr unsigned tile_owner(unsigned slices, uint32_t tx, uint32_t ty) {
  return slices ? static_cast<unsigned>((tx + ty * TS_GEOM_TILE_SKEW_RESET) % slices) : 0;
}

// The GEOM draw state as SET_REGS writes left it, decoded the way the geometry front end uses
// it (docs/geometry.md): the inverse of encode_state() for models that execute command streams
// (tessera-sim's reference pipeline), so that they name no register offset or field. A register
// never written reads as its reset.
class GeomStateReader {
 public:
  GeomStateReader();
  // A SET_REGS write of `value` to GPU byte address `addr`; addresses outside the GEOM state
  // run are ignored.
  void write(uint32_t addr, uint32_t value);
  // Viewport (GEOM.VP_*): scale s15.16, offset in 1/16 pixel, as the VS applies them.
  int32_t scale_x() const, scale_y() const, offset_x() const, offset_y() const;
  CullMode cull_mode() const;
  FrontFace front_face() const;
  uint32_t subbatch() const;       // GEOM.SUBBATCH as PC_US clamps it: 16..1024
  uint32_t thread_group() const;   // GEOM.TESS_SHADER.tg_size as the slices use it: 0 acts as 1

 private:
  uint32_t get(uint32_t geom_offset) const;
  std::array<uint32_t, StateRegisters::kGeomCount> regs_{};
};

// The state groups set_state() rewrites as a unit: a group is written when any of its registers
// changes (a texture binding is TEX_CTRL and TEX_BASE together). Index: the register's position
// in StateRegisters::geom / raster.
enum class StateGroup : uint8_t {
  Viewport, Cull, Tile, TargetSize, Subbatch, Distribution, Tessellation, Depth, Color, Texture
};
StateGroup geom_group(unsigned geom_index);
StateGroup raster_group(unsigned raster_index);

}  // namespace tessera::driver
