// The reference tessellator (tessellator.hpp; docs/tessellation.md "The tessellator").
#include "tessera/sim/tessellator.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tessera::sim {

namespace {
std::uint32_t clamp_factor(std::uint8_t f) { return std::min<std::uint32_t>(f, kTessMaxFactor); }

// floor((d * w + 32768) / 65536) for a signed difference d.
std::int64_t scaled(std::int64_t d, std::int64_t w) {
  const std::int64_t p = d * w + kTessOne / 2;
  return p >= 0 ? p / kTessOne : -((-p + kTessOne - 1) / kTessOne);
}
std::int64_t clampi(std::int64_t v, std::int64_t lo, std::int64_t hi) { return std::clamp(v, lo, hi); }

constexpr std::int64_t kXyMin = -(1 << 19), kXyMax = (1 << 19) - 1;

TessVertex from_sums(const TessVertex& p0, const std::array<std::int64_t, 10>& delta) {
  TessVertex o;
  o.x = static_cast<std::int32_t>(clampi(p0.x + delta[0], kXyMin, kXyMax));
  o.y = static_cast<std::int32_t>(clampi(p0.y + delta[1], kXyMin, kXyMax));
  o.z = static_cast<std::uint32_t>(clampi(std::int64_t{p0.z} + delta[2], 0, (1 << 24) - 1));
  o.r = static_cast<std::uint8_t>(clampi(std::int64_t{p0.r} + delta[3], 0, 255));
  o.g = static_cast<std::uint8_t>(clampi(std::int64_t{p0.g} + delta[4], 0, 255));
  o.b = static_cast<std::uint8_t>(clampi(std::int64_t{p0.b} + delta[5], 0, 255));
  o.a = static_cast<std::uint8_t>(clampi(std::int64_t{p0.a} + delta[6], 0, 255));
  o.u = static_cast<std::uint16_t>(clampi(std::int64_t{p0.u} + delta[7], 0, 65535));
  o.v = static_cast<std::uint16_t>(clampi(std::int64_t{p0.v} + delta[8], 0, 65535));
  return o;
}

std::array<std::int64_t, 10> diff(const TessVertex& a, const TessVertex& b) {   // b - a
  return {std::int64_t{b.x} - a.x, std::int64_t{b.y} - a.y, std::int64_t{b.z} - a.z, std::int64_t{b.r} - a.r,
          std::int64_t{b.g} - a.g, std::int64_t{b.b} - a.b, std::int64_t{b.a} - a.a, std::int64_t{b.u} - a.u,
          std::int64_t{b.v} - a.v, 0};
}
}  // namespace

std::uint32_t tess_weight(std::uint32_t i, std::uint32_t n) {
  if (n == 0 || i > n) throw std::invalid_argument("tess_weight: needs 1 <= n and i <= n");
  return static_cast<std::uint32_t>((std::uint64_t{i} * kTessOne + n / 2) / n);
}

TessVertex tess_lerp(const TessVertex& a, const TessVertex& b, std::uint32_t w) {
  const auto d = diff(a, b);
  std::array<std::int64_t, 10> s{};
  for (std::size_t k = 0; k < d.size(); ++k) s[k] = scaled(d[k], w);
  return from_sums(a, s);
}

std::uint32_t tess_triangle_count(PatchKind kind, const PatchFactors& f) {
  const std::uint32_t a = clamp_factor(f.f1), b = clamp_factor(f.f2);
  switch (kind) {
    case PatchKind::Quad: return 2 * a * b;
    case PatchKind::Tri: return a * a;
    case PatchKind::Isoline: return 0;
  }
  return 0;
}

TessResult tessellate(PatchKind kind, const std::vector<TessVertex>& cp, const PatchFactors& f) {
  const std::size_t need = kind == PatchKind::Quad ? 4 : kind == PatchKind::Tri ? 3 : 2;
  if (cp.size() < need)
    throw std::invalid_argument("tessellate: a " +
                                std::string(kind == PatchKind::Quad ? "quad" : kind == PatchKind::Tri ? "triangle" : "isoline") +
                                " patch needs " + std::to_string(need) + " control points, got " + std::to_string(cp.size()));
  TessResult r;
  const std::uint32_t n1 = clamp_factor(f.f1), n2 = clamp_factor(f.f2);
  if (kind == PatchKind::Isoline) {
    r.isoline_segments = n1 * n2;
    return r;
  }
  if (kind == PatchKind::Quad) {
    if (n1 == 0 || n2 == 0) return r;
    std::vector<TessVertex> grid(static_cast<std::size_t>(n1 + 1) * (n2 + 1));
    auto at = [&](std::uint32_t i, std::uint32_t j) -> TessVertex& { return grid[static_cast<std::size_t>(j) * (n1 + 1) + i]; };
    for (std::uint32_t i = 0; i <= n1; ++i) {
      const std::uint32_t wi = tess_weight(i, n1);
      const TessVertex bottom = tess_lerp(cp[0], cp[1], wi);   // P00 -> P10
      const TessVertex top = tess_lerp(cp[3], cp[2], wi);      // P01 -> P11
      for (std::uint32_t j = 0; j <= n2; ++j) at(i, j) = tess_lerp(bottom, top, tess_weight(j, n2));
    }
    r.triangles.reserve(2u * n1 * n2);
    for (std::uint32_t j = 0; j < n2; ++j)
      for (std::uint32_t i = 0; i < n1; ++i) {
        r.triangles.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1)});
        r.triangles.push_back({at(i, j), at(i + 1, j + 1), at(i, j + 1)});
      }
    return r;
  }
  // triangle patch
  const std::uint32_t n = n1;
  if (n == 0) return r;
  const auto d1 = diff(cp[0], cp[1]), d2 = diff(cp[0], cp[2]);
  auto vtx = [&](std::uint32_t a, std::uint32_t b) {
    const std::int64_t wa = tess_weight(a, n), wb = tess_weight(b, n);
    std::array<std::int64_t, 10> s{};
    for (std::size_t k = 0; k < s.size(); ++k) {
      const std::int64_t p = d1[k] * wa + d2[k] * wb + kTessOne / 2;
      s[k] = p >= 0 ? p / kTessOne : -((-p + kTessOne - 1) / kTessOne);
    }
    return from_sums(cp[0], s);
  };
  r.triangles.reserve(std::size_t{n} * n);
  for (std::uint32_t b = 0; b < n; ++b)
    for (std::uint32_t a = 0; a + b < n; ++a) {
      r.triangles.push_back({vtx(a, b), vtx(a + 1, b), vtx(a, b + 1)});
      if (a + b < n - 1) r.triangles.push_back({vtx(a + 1, b), vtx(a + 1, b + 1), vtx(a, b + 1)});
    }
  return r;
}

}  // namespace tessera::sim
