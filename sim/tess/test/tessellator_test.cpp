// The reference tessellator (sim/tess/src/tessellator.cpp) against what docs/tessellation.md
// promises a user: triangle counts, exact corners, no hole or overlap inside a patch, the
// patch's winding, interpolation within one step of exact arithmetic, and the throttle's
// estimate formulas. Random patches reproduce from RANDOM_SEED (printed on failure).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "tessera/sim/hs_throttle_model.hpp"
#include "tessera/sim/tessellator.hpp"

using namespace tessera::sim;

namespace {

std::uint64_t seed() {
  static const std::uint64_t s = [] {
    const char* e = std::getenv("RANDOM_SEED");
    return e && *e ? std::strtoull(e, nullptr, 10) : 20261126ULL;
  }();
  return s;
}

// Asymmetric control points: every attribute differs per corner, so a swapped corner or axis
// shows.
TessVertex cpv(std::int32_t x, std::int32_t y, std::uint32_t z, std::uint8_t r, std::uint8_t g, std::uint16_t u,
               std::uint16_t v) {
  TessVertex t;
  t.x = x;
  t.y = y;
  t.z = z;
  t.r = r;
  t.g = g;
  t.b = static_cast<std::uint8_t>(255 - r);
  t.a = 255;
  t.u = u;
  t.v = v;
  return t;
}

const std::vector<TessVertex> kQuad = {cpv(16 * 10, 16 * 20, 1000, 200, 10, 0, 0),       // P00
                                       cpv(16 * 90, 16 * 24, 5000, 40, 90, 65535, 0),     // P10
                                       cpv(16 * 100, 16 * 70, 9000, 7, 250, 65535, 65535),  // P11
                                       cpv(16 * 6, 16 * 80, 3000, 120, 33, 0, 65535)};    // P01
const std::vector<TessVertex> kTri = {cpv(16 * 5, 16 * 5, 100, 255, 0, 0, 0), cpv(16 * 120, 16 * 9, 70000, 0, 255, 65535, 0),
                                      cpv(16 * 30, 16 * 99, 16000000, 0, 0, 0, 65535)};

std::int64_t area2(const TessTriangle& t) {   // twice the signed area, 16.4 units squared
  return (std::int64_t{t[1].x} - t[0].x) * (std::int64_t{t[2].y} - t[0].y) -
         (std::int64_t{t[2].x} - t[0].x) * (std::int64_t{t[1].y} - t[0].y);
}

// Inside one patch every edge is shared by exactly two triangles in opposite directions,
// except the patch's boundary edges, used once.
void expect_watertight(const std::vector<TessTriangle>& tris, std::size_t boundary_edges) {
  using P = std::pair<std::int32_t, std::int32_t>;
  std::map<std::pair<P, P>, int> directed;
  for (const auto& t : tris)
    for (int e = 0; e < 3; ++e) ++directed[{P{t[e].x, t[e].y}, P{t[(e + 1) % 3].x, t[(e + 1) % 3].y}}];
  std::size_t once = 0;
  for (const auto& [edge, n] : directed) {
    ASSERT_EQ(n, 1) << "an edge used twice in the same direction: overlapping triangles";
    if (!directed.count({edge.second, edge.first})) ++once;
  }
  EXPECT_EQ(once, boundary_edges) << "holes inside the patch (an edge without its twin)";
}

}  // namespace

// Catches: the wrong number of triangles for a factor, a culled patch that still draws, a
// factor above 64 not clamped, isolines rasterized.
TEST(Tessellator, TriangleCountsFollowTheFactors) {
  for (unsigned a : {0u, 1u, 2u, 7u, 64u, 65u, 255u})
    for (unsigned b : {0u, 1u, 3u, 64u, 200u}) {
      const PatchFactors f{PatchKind::Quad, static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b)};
      const unsigned na = std::min(a, 64u), nb = std::min(b, 64u);
      EXPECT_EQ(tessellate(PatchKind::Quad, kQuad, f).triangles.size(), 2u * na * nb) << a << "x" << b;
      EXPECT_EQ(tess_triangle_count(PatchKind::Quad, f), 2u * na * nb);
      const PatchFactors t{PatchKind::Tri, static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b)};
      EXPECT_EQ(tessellate(PatchKind::Tri, kTri, t).triangles.size(), na * na);
      const PatchFactors l{PatchKind::Isoline, static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b)};
      const TessResult iso = tessellate(PatchKind::Isoline, kQuad, l);
      EXPECT_TRUE(iso.triangles.empty());
      EXPECT_EQ(iso.isoline_segments, na * nb);
    }
}

// Catches: corners that drift from the control points (weights not exact at 0 and n), P10 and
// P01 swapped, u/v or colour taken from the wrong corner.
TEST(Tessellator, CornersAreTheControlPoints) {
  const TessResult q = tessellate(PatchKind::Quad, kQuad, {PatchKind::Quad, 5, 3});
  ASSERT_EQ(q.triangles.size(), 30u);
  EXPECT_EQ(q.triangles.front()[0], kQuad[0]);                     // V(0, 0)
  EXPECT_EQ(q.triangles[2 * 4][1], kQuad[1]);                      // V(5, 0): second vertex of cell (4, 0)
  EXPECT_EQ(q.triangles.back()[1], kQuad[2]);                      // V(5, 3)
  EXPECT_EQ(q.triangles[2 * 5 * 2 + 1][2], kQuad[3]);              // V(0, 3): cell (0, 2), second triangle
  const TessResult t = tessellate(PatchKind::Tri, kTri, {PatchKind::Tri, 6, 0});
  EXPECT_EQ(t.triangles.front()[0], kTri[0]);
  bool saw1 = false, saw2 = false;
  for (const auto& tri : t.triangles)
    for (const auto& v : tri) saw1 |= v == kTri[1], saw2 |= v == kTri[2];
  EXPECT_TRUE(saw1 && saw2);
}

// Catches: holes or overlaps inside a patch, a flipped triangle (winding), and interpolation
// off by more than the rounding of one step, on random convex patches and factors.
TEST(Tessellator, RandomPatchesAreWatertightWoundAndInterpolated) {
  std::mt19937_64 rng(seed());
  SCOPED_TRACE(testing::Message() << "RANDOM_SEED=" << seed());
  auto rnd = [&](int lo, int hi) { return static_cast<int>(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  for (int round = 0; round < 200; ++round) {
    // a convex quad: a rectangle's corners jittered inwards
    const int x0 = rnd(0, 4000), y0 = rnd(0, 4000), w = rnd(200, 8000), h = rnd(200, 8000);
    std::vector<TessVertex> q = {
        cpv(x0 + rnd(0, w / 5), y0 + rnd(0, h / 5), static_cast<std::uint32_t>(rnd(0, 1 << 24)), 10, 200, 0, 0),
        cpv(x0 + w - rnd(0, w / 5), y0 + rnd(0, h / 5), static_cast<std::uint32_t>(rnd(0, (1 << 24) - 1)), 99, 3, 65535, 0),
        cpv(x0 + w - rnd(0, w / 5), y0 + h - rnd(0, h / 5), static_cast<std::uint32_t>(rnd(0, (1 << 24) - 1)), 250, 50, 65535, 65535),
        cpv(x0 + rnd(0, w / 5), y0 + h - rnd(0, h / 5), static_cast<std::uint32_t>(rnd(0, (1 << 24) - 1)), 0, 128, 0, 65535)};
    const auto n1 = static_cast<std::uint8_t>(rnd(1, 20)), n2 = static_cast<std::uint8_t>(rnd(1, 20));
    const TessResult r = tessellate(PatchKind::Quad, q, {PatchKind::Quad, n1, n2});
    expect_watertight(r.triangles, 2u * (n1 + n2));
    const std::int64_t patch = area2({q[0], q[1], q[2]}) + area2({q[0], q[2], q[3]});
    std::int64_t sum = 0;
    for (const auto& t : r.triangles) {
      EXPECT_GE(area2(t) * (patch > 0 ? 1 : -1), 0) << "a triangle wound against the patch";
      sum += area2(t);
    }
    // The grid is bilinear, not planar-exact: the areas agree within the rounding of the
    // vertices (one 1/16 pixel step per coordinate).
    EXPECT_NEAR(static_cast<double>(sum), static_cast<double>(patch), 0.02 * std::abs(static_cast<double>(patch)) + 64.0 * (n1 + n2));
    // V(i, j) against exact bilinear interpolation, attribute by attribute: V(i, j) is the
    // first vertex of cell (i, j)'s first triangle
    const int i = rnd(0, n1 - 1), j = rnd(0, n2 - 1);
    const TessVertex& v = r.triangles[static_cast<std::size_t>((j * n1 + i) * 2)][0];
    const double s = static_cast<double>(i) / n1, t = static_cast<double>(j) / n2;
    auto bil = [&](double a00, double a10, double a11, double a01) {
      return (1 - t) * ((1 - s) * a00 + s * a10) + t * ((1 - s) * a01 + s * a11);
    };
    // Tolerance: one step of rounding per lerp plus the weights' Q16 rounding (half a unit of
    // 1/65536 of the attribute's spread per level).
    auto tol = [](double a, double b2, double c, double d) {
      return 2.0 + (std::max({a, b2, c, d}) - std::min({a, b2, c, d})) * 1.0 / 65536.0;
    };
    auto near = [&](double got, double a00, double a10, double a11, double a01, const char* what) {
      EXPECT_NEAR(got, bil(a00, a10, a11, a01), tol(a00, a10, a11, a01)) << what << " at V(" << i << ", " << j << ")";
    };
    near(v.x, q[0].x, q[1].x, q[2].x, q[3].x, "x");
    near(v.y, q[0].y, q[1].y, q[2].y, q[3].y, "y");
    near(v.z, q[0].z, q[1].z, q[2].z, q[3].z, "z");
    near(v.r, q[0].r, q[1].r, q[2].r, q[3].r, "r");
    near(v.u, q[0].u, q[1].u, q[2].u, q[3].u, "u");
    near(v.v, q[0].v, q[1].v, q[2].v, q[3].v, "v");

    // a triangle patch
    std::vector<TessVertex> tp = {q[0], q[1], q[2]};
    const auto n = static_cast<std::uint8_t>(rnd(1, 24));
    const TessResult tr = tessellate(PatchKind::Tri, tp, {PatchKind::Tri, n, 0});
    expect_watertight(tr.triangles, 3u * n);
    const std::int64_t tarea = area2({tp[0], tp[1], tp[2]});
    std::int64_t tsum = 0;
    for (const auto& tt2 : tr.triangles) {
      EXPECT_GE(area2(tt2) * (tarea > 0 ? 1 : -1), 0);
      tsum += area2(tt2);
    }
    EXPECT_NEAR(static_cast<double>(tsum), static_cast<double>(tarea), 0.01 * std::abs(static_cast<double>(tarea)) + 64.0 * n);
  }
}

// Catches: the throttle's estimate not the source's formulas (block 505), against the
// tessellator's actual counts: the quad estimate is exact, the triangle estimate 1.5 n^2 is
// the source's, not the uniform subdivision's n^2.
TEST(Tessellator, ThrottleEstimatesAreTheSourcesFormulas) {
  for (unsigned a = 0; a <= 70; ++a)
    for (unsigned b : {0u, 1u, 5u, 64u, 99u}) {
      const auto fa = static_cast<std::uint8_t>(a), fb = static_cast<std::uint8_t>(b);
      const unsigned na = std::min(a, 64u), nb = std::min(b, 64u);
      EXPECT_EQ(prim_estimate({PatchKind::Quad, fa, fb}), na && nb ? 2 * na * nb : 0u);
      EXPECT_EQ(prim_estimate({PatchKind::Quad, fa, fb}), tess_triangle_count(PatchKind::Quad, {PatchKind::Quad, fa, fb}));
      EXPECT_EQ(prim_estimate({PatchKind::Tri, fa, fb}), static_cast<unsigned>(std::floor(1.5 * na * na)));
      EXPECT_EQ(prim_estimate({PatchKind::Isoline, fa, fb}), na * nb);
    }
}

TEST(Tessellator, WeightsAreExactAtTheEnds) {
  for (std::uint32_t n = 1; n <= 64; ++n) {
    EXPECT_EQ(tess_weight(0, n), 0u);
    EXPECT_EQ(tess_weight(n, n), 65536u);
    for (std::uint32_t i = 1; i <= n; ++i) EXPECT_GT(tess_weight(i, n), tess_weight(i - 1, n));
  }
  EXPECT_THROW(tess_weight(3, 2), std::invalid_argument);
  EXPECT_THROW(tessellate(PatchKind::Quad, {kQuad[0], kQuad[1]}, {PatchKind::Quad, 2, 2}), std::invalid_argument);
}
