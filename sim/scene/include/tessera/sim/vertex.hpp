// The 16-byte vertex of ARCHITECTURE.md 3 as the scene loader, tessera-sim, the reference
// renderer and the benches use it. The format and its packing are the driver's
// (driver/include/tessera/driver/vertex.hpp): applications hand the driver vertices. This
// header keeps sim/'s names for them and the conversions from scene values.
#pragma once

#include <cmath>
#include <cstdint>

#include "tessera/driver/vertex.hpp"

namespace tessera::sim {

using driver::kVertexBytes;
using driver::kVertexDwords;
using driver::pack_vertex;
using driver::unpack_vertex;
using driver::Vertex;

inline constexpr uint32_t kDepthMax = 0xFFFFFFu;  // 24-bit depth; the clear value of "far"
inline constexpr int kSubpixelBits = 4;            // 12.4
inline constexpr double kXyMin = -2048.0;          // representable 12.4 range
inline constexpr double kXyMax = 2047.9375;

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
