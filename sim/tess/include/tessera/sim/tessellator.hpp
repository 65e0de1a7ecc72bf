// The tessellator and domain shader of the reference (docs/tessellation.md "The tessellator"):
// a patch's control points, already in screen space (the geometry slice's svtx: x, y signed
// 16.4 fixed point, z 24-bit, RGBA8, u, v 0.16), and its factors become triangles whose vertices
// are fixed-point interpolations of the control points. Integer arithmetic only, so the RTL
// tessellator can reproduce it bit for bit:
//
//   n       = min(factor, 64); a factor of 0 culls the patch
//   w(i, n) = (i * 65536 + n / 2) / n            (the weight of step i of n, 0 .. 65536)
//   lerp(a, b, w) = a + floor(((b - a) * w + 32768) / 65536)
//   each attribute is clamped to its field's range (x, y saturate like the viewport's output)
//
// Quad patch, control points P00, P10, P11, P01 (counter-clockwise in their domain): an
// n1 x n2 grid, V(i, j) = lerp(lerp(P00, P10, w(i, n1)), lerp(P01, P11, w(i, n1)), w(j, n2));
// per cell, rows j outer and columns i inner, the triangles (V(i,j), V(i+1,j), V(i+1,j+1)) and
// (V(i,j), V(i+1,j+1), V(i,j+1)): 2 * n1 * n2 triangles with the winding of P00, P10, P11.
// Triangle patch P0, P1, P2 with inner factor n: the uniform subdivision, T(a, b) for
// a + b <= n, T(a, b) = P0 + floor(((P1 - P0) * w(a, n) + (P2 - P0) * w(b, n) + 32768) / 65536);
// rows b outer, a inner: (T(a,b), T(a+1,b), T(a,b+1)) and, when a + b < n - 1,
// (T(a+1,b), T(a+1,b+1), T(a,b+1)): n^2 triangles with the winding of P0, P1, P2.
// Isoline patch: f1 lines (density) of f2 segments (detail), counted, never rasterized.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "tessera/sim/hs_throttle_model.hpp"

namespace tessera::sim {

struct TessVertex {
  std::int32_t x = 0, y = 0;     // signed 16.4 fixed point, 20 bits
  std::uint32_t z = 0;           // 24 bits
  std::uint8_t r = 0, g = 0, b = 0, a = 0;
  std::uint16_t u = 0, v = 0;    // unsigned 0.16
  bool operator==(const TessVertex&) const = default;
};

using TessTriangle = std::array<TessVertex, 3>;

struct TessResult {
  std::vector<TessTriangle> triangles;
  std::uint32_t isoline_segments = 0;
};

inline constexpr unsigned kTessMaxFactor = 64;
inline constexpr std::int64_t kTessOne = 65536;

// The weight of step i of n (n >= 1, 0 <= i <= n): round(i * 65536 / n), exact at 0 and n.
std::uint32_t tess_weight(std::uint32_t i, std::uint32_t n);
// lerp of every attribute with weight w (0 .. 65536), clamped to the fields' ranges.
TessVertex tess_lerp(const TessVertex& a, const TessVertex& b, std::uint32_t w);

// Patch control points: quad 4 (P00, P10, P11, P01), triangle 3, isoline 2 (none used).
TessResult tessellate(PatchKind kind, const std::vector<TessVertex>& control_points, const PatchFactors& factors);

// Triangles the tessellator makes (what prim_estimate estimates): quad 2 * n1 * n2, triangle
// n^2, isoline 0 (its f1 * f2 segments are counted apart).
std::uint32_t tess_triangle_count(PatchKind kind, const PatchFactors& factors);

}  // namespace tessera::sim
