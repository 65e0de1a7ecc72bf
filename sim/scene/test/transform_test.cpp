// The host-side transform: vertex packing, projection, clipping and viewport, checked against
// values worked out by hand (docs/tessera-sim.md "From the scene to the screen").
#include <gtest/gtest.h>

#include "tessera/sim/frame_plan.hpp"
#include "tessera/sim/vertex.hpp"

using namespace tessera::sim;

// Catches: the vertex layout drifting from spec/registers/geom.yaml VTX_DW0..3.
TEST(Vertex, PackMatchesTheSpecLayout) {
  Vertex v;
  v.x = 16;    // 1.0 px
  v.y = -16;   // -1.0 px
  v.z = 0xABCDEF;
  v.r = 1, v.g = 2, v.b = 3, v.a = 4;
  v.u = 0x1234, v.v = 0xFEDC;
  const auto d = pack_vertex(v);
  EXPECT_EQ(d[0], 0xFFF00010u);
  EXPECT_EQ(d[1], 0x00ABCDEFu);
  EXPECT_EQ(d[2], 0x04030201u);
  EXPECT_EQ(d[3], 0xFEDC1234u);
  EXPECT_EQ(unpack_vertex(d), v);
}

TEST(Vertex, FixedPointConversions) {
  EXPECT_EQ(to_fixed_12_4(25.0), 400);
  EXPECT_EQ(to_fixed_12_4(-0.03125), -1);  // -0.5 LSB rounds away from zero
  EXPECT_EQ(to_fixed_12_4(5000.0), 32767);  // saturates
  EXPECT_EQ(to_depth24(0.0), 0u);
  EXPECT_EQ(to_depth24(1.0), kDepthMax);
  EXPECT_EQ(to_depth24(0.75), 12582911u);
  EXPECT_EQ(to_unorm16(0.5), 32768);
  EXPECT_EQ(to_unorm16(1.0), 65535);
  EXPECT_EQ(to_unorm16(1.25), 16384);  // wraps
  EXPECT_EQ(to_unorm8(0.5), 128);
}

namespace {

// A scene with one unlit, uncull'd draw of mesh "m" seen by a camera at the origin looking
// down -z, 90 degree field of view, near 1, far 3, on a 100 x 100 target.
LoadedScene one_triangle(std::vector<Vec3> pos) {
  Scene s = parse_scene(R"(
target: {width: 100, height: 100}
camera: {position: [0, 0, 0], look_at: [0, 0, -1], fov_y: 90, near: 1, far: 3}
meshes: {m: {generate: cube}}
passes:
  - {cull: none, draws: [{mesh: m, color: [1, 0.5, 0, 1]}]}
)",
                        "t.yaml", "");
  LoadedScene ls;
  ls.scene = std::move(s);
  Mesh m;
  m.positions = std::move(pos);
  for (std::size_t i = 0; i < m.positions.size(); ++i) {
    m.normals.push_back({0, 0, 1});
    m.colors.push_back({1, 1, 1, 1});
    m.uvs.push_back({static_cast<double>(i) / 2, 0});
  }
  m.indices = {0, 1, 2};
  ls.meshes["m"] = m;
  return ls;
}

}  // namespace

// Catches: wrong projection, y direction, depth mapping or attribute packing. By hand: at view
// z = -2, w = 2 and z_clip = 3/(1-3)*(-2) + 3/(1-3) = 1.5, depth 0.75; x = -1 -> ndc -0.5 ->
// -25 px (-400 in 12.4); y = -1 -> ndc -0.5 -> +25 px down (400).
TEST(Transform, HandCheckedTriangle) {
  const LoadedScene ls = one_triangle({{-1, -1, -2}, {1, -1, -2}, {0, 1, -2}});
  const FramePlan fp = plan_frame(ls, 0);
  ASSERT_EQ(fp.passes.size(), 1u);
  const ScreenDraw& d = fp.passes[0].draws[0];
  ASSERT_EQ(d.vertices.size(), 3u);
  ASSERT_EQ(d.indices, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(d.vertices[0].x, -400);
  EXPECT_EQ(d.vertices[0].y, 400);
  EXPECT_EQ(d.vertices[1].x, 400);
  EXPECT_EQ(d.vertices[1].y, 400);
  EXPECT_EQ(d.vertices[2].x, 0);
  EXPECT_EQ(d.vertices[2].y, -400);
  for (const Vertex& v : d.vertices) {
    EXPECT_EQ(v.z, 12582911u);
    EXPECT_EQ(v.r, 255);
    EXPECT_EQ(v.g, 128);
    EXPECT_EQ(v.b, 0);
    EXPECT_EQ(v.a, 255);
  }
  EXPECT_EQ(d.vertices[1].u, 32768);
  EXPECT_EQ(d.stats.triangles_in, 1u);
  EXPECT_EQ(d.stats.triangles_out, 1u);
  EXPECT_EQ(d.stats.clipped, 0u);
}

// Catches: triangles crossing the near plane passed through with w <= 0 (garbage screen
// positions) instead of being clipped. The vertex at view z = 0 lies behind the near plane
// (z = -1): the edges to it are cut at z = -1, at x = 0.5 (25 px) and x = 0, depth 0.
TEST(Transform, NearPlaneClipsIntoAFan) {
  const LoadedScene ls = one_triangle({{0, 0, -2}, {1, 0, -2}, {0, 0, 0}});
  const ScreenDraw d = plan_frame(ls, 0).passes[0].draws[0];
  EXPECT_EQ(d.stats.clipped, 1u);
  EXPECT_EQ(d.stats.triangles_out, 2u);
  ASSERT_EQ(d.vertices.size(), 4u);
  EXPECT_EQ(d.vertices[0].x, 0);    // a, inside, depth 0.75
  EXPECT_EQ(d.vertices[0].z, 12582911u);
  EXPECT_EQ(d.vertices[1].x, 400);  // b: x = 1 at w = 2 -> ndc 0.5 -> 25 px
  EXPECT_EQ(d.vertices[2].x, 400);  // b..c cut at (0.5, 0, -1)
  EXPECT_EQ(d.vertices[2].z, 0u);
  EXPECT_EQ(d.vertices[3].x, 0);    // c..a cut at (0, 0, -1)
  EXPECT_EQ(d.vertices[3].z, 0u);
  EXPECT_EQ(d.indices, (std::vector<uint32_t>{0, 1, 2, 0, 2, 3}));
}

// Catches: triangles wholly behind the camera or beyond the far plane drawn.
TEST(Transform, WhollyOutsideIsRejected) {
  EXPECT_EQ(plan_frame(one_triangle({{0, 0, 1}, {1, 0, 1}, {0, 1, 1}}), 0).passes[0].draws[0].stats.rejected, 1u);
  EXPECT_EQ(plan_frame(one_triangle({{0, 0, -5}, {1, 0, -5}, {0, 1, -5}}), 0).passes[0].draws[0].stats.rejected, 1u);
}

// Catches: vertices far outside the target overflowing signed 12.4 (they must be clipped to
// the guard band, never wrapped or saturated into a different triangle).
TEST(Transform, GuardBandKeepsCoordinatesRepresentable) {
  const ScreenDraw d = plan_frame(one_triangle({{-500, -1, -2}, {500, -1, -2}, {0, 1, -2}}), 0).passes[0].draws[0];
  EXPECT_EQ(d.stats.clipped, 1u);
  for (const Vertex& v : d.vertices) {
    EXPECT_LE(std::abs(from_fixed_12_4(v.x)), kGuardBandPx + 0.1);
    EXPECT_LE(std::abs(from_fixed_12_4(v.y)), kGuardBandPx + 0.1);
  }
}

// Catches: animation not applied per frame: the orbit moves the camera, spin rotates the model.
TEST(Transform, AnimationChangesWithTheFrame) {
  CameraSpec c;
  c.position = {0, 0, 5};
  c.orbit = OrbitSpec{{0, 1, 0}, {0, 0, 0}, 0, 90};
  const Vec3 eye0 = view_matrix(c, 0).transform_point({0, 0, 0});
  EXPECT_NEAR(eye0.z, -5, 1e-9);  // the origin is 5 in front of the camera
  const Mat4 v1 = view_matrix(c, 1);  // camera moved to +x, still looking at the origin
  EXPECT_NEAR(v1.transform_point({0, 0, 0}).z, -5, 1e-9);
  EXPECT_NEAR(v1.transform_point({5, 0, 0}).z, 0, 1e-9);
  DrawSpec d;
  d.spin_deg_per_frame = {0, 90, 0};
  const Vec3 p = model_matrix(d, 1).transform_point({1, 0, 0});
  EXPECT_NEAR(p.x, 0, 1e-9);
  EXPECT_NEAR(p.z, -1, 1e-9);
}
