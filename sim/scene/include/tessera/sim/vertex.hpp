// The 16-byte vertex of ARCHITECTURE.md 3 in GPU memory, shared by the scene loader, tessera-sim,
// the reference renderer and the benches.
//
// The layout is not restated here: it is the fields of the read-only registers VTX_DW0..3 of
// spec/registers/geom.yaml (docs/geometry.md "Arithmetic"), through the generated
// TS_GEOM_VTX_DW*_PUT/GET macros. Little endian, 4 dwords:
//   dword 0: x[15:0] | y[31:16]      signed 12.4 fixed point (1/16 pixel)
//   dword 1: z[23:0]                 24-bit unsigned depth; bits 31:24 written 0, ignored
//   dword 2: R[7:0] G[15:8] B[23:16] A[31:24]
//   dword 3: u[15:0] | v[31:16]      unsigned 0.16 fixed point
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <span>

#include "tessera_spec.h"

namespace tessera::sim {

inline constexpr unsigned kVertexBytes = 16;
inline constexpr unsigned kVertexDwords = 4;
inline constexpr uint32_t kDepthMax = 0xFFFFFFu;  // 24-bit depth; the clear value of "far"
inline constexpr int kSubpixelBits = 4;            // 12.4
inline constexpr double kXyMin = -2048.0;          // representable 12.4 range
inline constexpr double kXyMax = 2047.9375;

struct Vertex {
  int16_t x = 0;  // signed 12.4
  int16_t y = 0;  // signed 12.4
  uint32_t z = 0;  // 24-bit unsigned
  uint8_t r = 0, g = 0, b = 0, a = 0;
  uint16_t u = 0;  // unsigned 0.16
  uint16_t v = 0;  // unsigned 0.16
  bool operator==(const Vertex&) const = default;
};

inline std::array<uint32_t, kVertexDwords> pack_vertex(const Vertex& v) {
  return {
      TS_GEOM_VTX_DW0_X_PUT(static_cast<uint16_t>(v.x)) | TS_GEOM_VTX_DW0_Y_PUT(static_cast<uint16_t>(v.y)),
      TS_GEOM_VTX_DW1_Z_PUT(v.z),
      TS_GEOM_VTX_DW2_R_PUT(v.r) | TS_GEOM_VTX_DW2_G_PUT(v.g) | TS_GEOM_VTX_DW2_B_PUT(v.b) |
          TS_GEOM_VTX_DW2_A_PUT(v.a),
      TS_GEOM_VTX_DW3_U_PUT(v.u) | TS_GEOM_VTX_DW3_V_PUT(v.v),
  };
}

inline Vertex unpack_vertex(std::span<const uint32_t, kVertexDwords> d) {
  Vertex v;
  v.x = static_cast<int16_t>(static_cast<uint16_t>(TS_GEOM_VTX_DW0_X_GET(d[0])));
  v.y = static_cast<int16_t>(static_cast<uint16_t>(TS_GEOM_VTX_DW0_Y_GET(d[0])));
  v.z = TS_GEOM_VTX_DW1_Z_GET(d[1]);
  v.r = static_cast<uint8_t>(TS_GEOM_VTX_DW2_R_GET(d[2]));
  v.g = static_cast<uint8_t>(TS_GEOM_VTX_DW2_G_GET(d[2]));
  v.b = static_cast<uint8_t>(TS_GEOM_VTX_DW2_B_GET(d[2]));
  v.a = static_cast<uint8_t>(TS_GEOM_VTX_DW2_A_GET(d[2]));
  v.u = static_cast<uint16_t>(TS_GEOM_VTX_DW3_U_GET(d[3]));
  v.v = static_cast<uint16_t>(TS_GEOM_VTX_DW3_V_GET(d[3]));
  return v;
}

// Pixels -> signed 12.4, round to nearest (ties away from zero). The caller keeps the value
// inside [kXyMin, kXyMax] (tessera-sim clips to a guard band that guarantees it).
inline int16_t to_fixed_12_4(double px) {
  const double s = std::round(px * (1 << kSubpixelBits));
  const double c = s < -32768.0 ? -32768.0 : (s > 32767.0 ? 32767.0 : s);
  return static_cast<int16_t>(c);
}
inline double from_fixed_12_4(int16_t f) { return static_cast<double>(f) / (1 << kSubpixelBits); }

// Depth in [0, 1] -> 24-bit unsigned, round to nearest, clamped.
inline uint32_t to_depth24(double z01) {
  const double s = std::round(z01 * static_cast<double>(kDepthMax));
  return s <= 0 ? 0u : (s >= static_cast<double>(kDepthMax) ? kDepthMax : static_cast<uint32_t>(s));
}

// Texture coordinate -> unsigned 0.16. [0, 1] maps to [0, 65535] (1.0 -> 65535, the last
// texel, so a face textured 0..1 does not wrap to texel 0 at its far edge); outside [0, 1] the
// coordinate wraps (fractional part), matching the sampler's wrap mode.
inline uint16_t to_unorm16(double t) {
  if (!std::isfinite(t)) t = 0.0;
  if (!(t >= 0.0 && t <= 1.0)) t -= std::floor(t);
  const double s = std::round(t * 65536.0);
  return static_cast<uint16_t>(s >= 65535.0 ? 65535.0 : (s <= 0 ? 0.0 : s));
}

inline uint8_t to_unorm8(double c) {
  if (!std::isfinite(c)) c = 0.0;
  const double s = std::round(c * 255.0);
  return static_cast<uint8_t>(s <= 0 ? 0 : (s >= 255 ? 255 : s));
}

}  // namespace tessera::sim
