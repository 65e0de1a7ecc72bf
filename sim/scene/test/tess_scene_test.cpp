// Patch meshes and tessellation factors in scenes (docs/tessera-sim.md "Tessellation"): the
// patch generators, the `tess:` key and its errors, and the per-patch factors plan_frame
// computes for the TF buffer.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include "tessera/sim/frame_plan.hpp"
#include "tessera/sim/scene.hpp"

using namespace tessera::sim;

namespace {

std::string error_of(const std::string& yaml) {
  try {
    (void)load_assets(parse_scene(yaml, "x.yaml", ""));
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

// Sorted corner triples of a triangle list or of the factor-1 tessellation of a quad patch
// list (P00, P10, P11), (P00, P11, P01): the same triangles whatever their vertex rotation.
std::multiset<std::multiset<uint32_t>> triangles_of(const Mesh& m) {
  std::multiset<std::multiset<uint32_t>> out;
  const auto& i = m.indices;
  if (m.patch_size == 4) {
    for (std::size_t p = 0; p + 3 < i.size(); p += 4) {
      out.insert({i[p], i[p + 1], i[p + 2]});
      out.insert({i[p], i[p + 2], i[p + 3]});
    }
  } else {
    for (std::size_t t = 0; t + 2 < i.size(); t += 3) out.insert({i[t], i[t + 1], i[t + 2]});
  }
  return out;
}

// +y component of the face normal of (a, b, c): > 0 when counter-clockwise seen from +y.
double facing_up(const Mesh& m, uint32_t a, uint32_t b, uint32_t c) {
  return cross(m.positions[b] - m.positions[a], m.positions[c] - m.positions[a]).y;
}

}  // namespace

// Catches: patch meshes that are not the documented plane (other vertices than make_grid's),
// control points in an order whose factor-1 tessellation is not make_grid's triangles, patches
// facing down (culled as back faces), or triangle patches that do not tile the plane.
TEST(PatchMesh, GridAndTrisAreMakeGridsPlaneAsPatches) {
  const Mesh grid = make_grid(4, 3), quads = make_patch_grid(4, 3), tris = make_patch_tris(4, 3);
  EXPECT_EQ(grid.patch_size, 0u);
  EXPECT_EQ(quads.patch_size, 4u);
  EXPECT_EQ(tris.patch_size, 3u);
  EXPECT_EQ(quads.patches(), 9u);
  EXPECT_EQ(tris.patches(), 18u);
  EXPECT_EQ(quads.triangles(), 0u);  // depends on the factors
  ASSERT_EQ(quads.positions.size(), grid.positions.size());
  for (std::size_t k = 0; k < grid.positions.size(); ++k) {
    EXPECT_EQ(quads.positions[k], grid.positions[k]);
    EXPECT_EQ(quads.uvs[k].x, grid.uvs[k].x);
    EXPECT_EQ(quads.uvs[k].y, grid.uvs[k].y);
  }
  EXPECT_EQ(triangles_of(quads), triangles_of(grid));
  EXPECT_EQ(triangles_of(tris), triangles_of(grid));
  for (std::size_t p = 0; p < quads.indices.size(); p += 4) {
    const uint32_t* c = &quads.indices[p];
    EXPECT_GT(facing_up(quads, c[0], c[1], c[2]), 0) << "patch " << p / 4;
    EXPECT_GT(facing_up(quads, c[0], c[2], c[3]), 0) << "patch " << p / 4;
    // P00 -> P10 is +x (u grows), P00 -> P01 is -z (v falls): the patch's domain is the cell.
    EXPECT_GT(quads.positions[c[1]].x, quads.positions[c[0]].x);
    EXPECT_LT(quads.positions[c[3]].z, quads.positions[c[0]].z);
  }
  for (std::size_t p = 0; p < tris.indices.size(); p += 3)
    EXPECT_GT(facing_up(tris, tris.indices[p], tris.indices[p + 1], tris.indices[p + 2]), 0) << "patch " << p / 3;
}

// Catches: the tess key parsed into the wrong rule or values, defaults for the distance rule.
TEST(TessScene, TessKeysParse) {
  const Scene s = parse_scene(R"(
meshes:
  g: {generate: patch_grid, size: 4, divisions: 2}
  t: {generate: patch_tris}
passes:
  - draws:
      - {mesh: g, tess: {factor: 7}}
      - {mesh: t, tess: {rule: uniform, factor: 0}}
      - {mesh: g, tess: {rule: distance, min: 2, max: 30, near: 1.5, far: 12}}
)",
                              "t.yaml", "");
  EXPECT_EQ(s.meshes.at("g").kind, MeshKind::PatchGrid);
  EXPECT_EQ(s.meshes.at("g").divisions, 2u);
  EXPECT_EQ(s.meshes.at("t").kind, MeshKind::PatchTris);
  const auto& d = s.passes[0].draws;
  ASSERT_TRUE(d[0].tess && d[1].tess && d[2].tess);
  EXPECT_EQ(d[0].tess->rule, TessRule::Uniform);
  EXPECT_EQ(d[0].tess->factor, 7u);
  EXPECT_EQ(d[1].tess->rule, TessRule::Uniform);
  EXPECT_EQ(d[1].tess->factor, 0u);
  EXPECT_EQ(d[2].tess->rule, TessRule::Distance);
  EXPECT_EQ(d[2].tess->min, 2u);
  EXPECT_EQ(d[2].tess->max, 30u);
  EXPECT_EQ(d[2].tess->near, 1.5);
  EXPECT_EQ(d[2].tess->far, 12.0);
  EXPECT_EQ(d[2].tess->loc.line, 9u);
}

// Catches: the documented distance rule off by a rounding or an end point.
TEST(TessScene, DistanceRuleEndsAndRounding) {
  TessSpec t;
  t.rule = TessRule::Distance;
  t.min = 2;
  t.max = 32;
  t.near = 2;
  t.far = 12;
  EXPECT_EQ(tess_factor(t, 0.5), 32u);
  EXPECT_EQ(tess_factor(t, 2), 32u);
  EXPECT_EQ(tess_factor(t, 12), 2u);
  EXPECT_EQ(tess_factor(t, 100), 2u);
  EXPECT_EQ(tess_factor(t, 7), 17u);       // 32 - 30 * 0.5
  EXPECT_EQ(tess_factor(t, 3.05), 29u);    // 32 - 3.15 = 28.85
  EXPECT_EQ(tess_factor(t, 2.45), 31u);    // 32 - 1.35 = 30.65
  t.rule = TessRule::Uniform;
  t.factor = 5;
  EXPECT_EQ(tess_factor(t, 1000), 5u);
}

// Catches: bad tess input accepted, or an error that does not name the file, line, column and
// the key. Each case is one mistake in an otherwise valid scene.
TEST(TessScene, BadTessInputNamesTheKeyAndLine) {
  const std::string head = "meshes:\n  g: {generate: patch_grid}\npasses:\n  - draws:\n";
  struct Case {
    const char* what;
    std::string draw;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"unknown key", "      - mesh: g\n        tess: {factor: 4, level: 2}\n",
       "x.yaml:6:27: passes[0].draws[0].tess.level: unknown key (expected one of: rule, factor)"},
      {"unknown distance key", "      - mesh: g\n        tess: {rule: distance, min: 1, max: 4, near: 1, far: 5, factor: 3}\n",
       "x.yaml:6:65: passes[0].draws[0].tess.factor: unknown key (expected one of: rule, min, max, near, far)"},
      {"factor too big", "      - mesh: g\n        tess: {factor: 256}\n",
       "x.yaml:6:24: passes[0].draws[0].tess.factor: 256 is outside 0..255"},
      {"factor negative", "      - mesh: g\n        tess: {factor: -1}\n",
       "x.yaml:6:24: passes[0].draws[0].tess.factor: -1 is outside 0..255"},
      {"factor missing", "      - mesh: g\n        tess: {}\n",
       "x.yaml:6:15: passes[0].draws[0].tess.factor: missing (`factor: N`, or `rule: distance` with min, max, near, far)"},
      {"unknown rule", "      - mesh: g\n        tess: {rule: nearest, factor: 2}\n",
       "x.yaml:6:22: passes[0].draws[0].tess.rule: 'nearest' is not one of: uniform, distance"},
      {"min above max", "      - mesh: g\n        tess: {rule: distance, min: 9, max: 3, near: 1, far: 5}\n",
       "x.yaml:6:37: passes[0].draws[0].tess.min: min (9) is greater than max (3)"},
      {"max out of range", "      - mesh: g\n        tess: {rule: distance, min: 1, max: 300, near: 1, far: 5}\n",
       "x.yaml:6:45: passes[0].draws[0].tess.max: 300 is outside 0..255"},
      {"far not beyond near", "      - mesh: g\n        tess: {rule: distance, min: 1, max: 8, near: 5, far: 5}\n",
       "x.yaml:6:62: passes[0].draws[0].tess.far: far (5) must be greater than near (5)"},
      {"distance without far", "      - mesh: g\n        tess: {rule: distance, min: 1, max: 8, near: 5}\n",
       "x.yaml:6:15: passes[0].draws[0].tess.far: missing (the distance rule needs min, max, near and far)"},
      {"not a map", "      - mesh: g\n        tess: 4\n",
       "x.yaml:6:15: passes[0].draws[0].tess: expected a map (key: value)"},
      {"tess on a triangle mesh", "      - mesh: {generate: grid}\n        tess: {factor: 4}\n",
       "x.yaml:6:15: passes[0].draws[0].tess: mesh 'passes[0].draws[0].mesh' is not a patch mesh (generate: patch_grid "
       "or patch_tris): it has nothing to tessellate"},
      {"patch mesh without tess", "      - mesh: g\n        lit: false\n",
       "x.yaml:5:9: passes[0].draws[0].tess: missing: mesh 'g' is a patch mesh and its draw needs tessellation factors "
       "(`tess: {factor: N}` or `tess: {rule: distance, min: A, max: B, near: N, far: F}`)"},
      {"unknown generator", "      - mesh: {generate: patch_quads}\n        tess: {factor: 1}\n",
       "x.yaml:5:26: passes[0].draws[0].mesh.generate: 'patch_quads' is not one of: cube, grid, plane, sphere, torus, "
       "patch_grid, patch_tris"},
  };
  for (const Case& c : cases) EXPECT_EQ(error_of(head + c.draw), c.expected) << c.what;
}

// Catches: factors from the wrong point (object space, a corner instead of the centre, the
// look-at point instead of the eye), a mirrored patch order, the orbit not applied, or patches
// that cross the near plane sent to the GPU. Camera off-centre, so every patch has its own
// distance; expectations computed by hand from the documented rule.
TEST(TessScene, DistanceFactorsPerPatchFromTheEye) {
  const Scene s = parse_scene(R"(
camera: {position: [1, 3, 4], look_at: [0, 0, 0]}
passes:
  - draws:
      - mesh: {generate: patch_grid, size: 4, divisions: 2}
        tess: {rule: distance, min: 2, max: 20, near: 4, far: 7}
)",
                              "d.yaml", "");
  const LoadedScene ls = load_assets(s);
  const FramePlan plan = plan_frame(ls, 0);
  const ScreenDraw& d = plan.passes.at(0).draws.at(0);
  ASSERT_TRUE(d.patch);
  EXPECT_EQ(d.patch->control_points, 4u);
  // Patch centres (cells z outer, x inner): (-1,0,-1), (1,0,-1), (-1,0,1), (1,0,1);
  // distances from (1,3,4): sqrt(38) 6.164, sqrt(34) 5.831, sqrt(22) 4.690, sqrt(18) 4.243;
  // factor = 20 - 18 * (d - 4) / 3: 7.02, 9.01, 15.86, 18.54.
  EXPECT_EQ(d.patch->factors, (std::vector<uint32_t>{7, 9, 16, 19}));
  EXPECT_EQ(d.indices.size(), 16u);
  EXPECT_EQ(d.stats.patches_in, 4u);
  EXPECT_EQ(d.stats.patches_out, 4u);
  EXPECT_EQ(d.stats.patches_rejected, 0u);
  EXPECT_EQ(d.stats.triangles_in, 0u);

  // The orbit moves the eye: 180 degrees about +y (frame 2 at 90 per frame) puts it at
  // (-1, 3, -4), which reverses the distances: factors 19, 16, 9, 7.
  Scene o = s;
  o.camera.orbit = OrbitSpec{{0, 1, 0}, {0, 0, 0}, 0, 90};
  const LoadedScene lo = load_assets(o);
  EXPECT_EQ(plan_frame(lo, 2).passes[0].draws[0].patch->factors, (std::vector<uint32_t>{19, 16, 9, 7}));

  // A patch with a control point behind the near plane is not sent (the host cannot clip it).
  Scene n = s;
  n.camera.position = {0, 0.5, 0.5};
  n.camera.look_at = {0, 0, -3};
  const LoadedScene ln = load_assets(n);
  const ScreenDraw& dn = plan_frame(ln, 0).passes[0].draws[0];
  EXPECT_EQ(dn.stats.patches_in, 4u);
  EXPECT_EQ(dn.stats.patches_out, 2u);  // the two cells at z in [-2, 0]
  EXPECT_EQ(dn.stats.patches_rejected, 2u);
  EXPECT_EQ(dn.patch->factors.size(), 2u);
  EXPECT_EQ(dn.indices.size(), 8u);
}

// Catches: the shipped tessellation scenes drifting out of what issue 18 asks (one with a mix of
// low and high factors, one uniformly low) or failing to load.
TEST(TessScene, ShippedScenesLoadWithTheirFactors) {
  for (const char* f : {"mixed.yaml", "low.yaml"}) {
    const LoadedScene ls = load_assets(load_scene(std::string(TESSERA_SCENES_DIR) + "/tess/" + f));
    EXPECT_EQ(ls.scene.frames, 2u) << f;
    EXPECT_GT(ls.patches(), 0u) << f;
    uint32_t lo = 255, hi = 0;
    for (uint32_t fr = 0; fr < ls.scene.frames; ++fr)
      for (const PassPlan& pp : plan_frame(ls, fr).passes)
        for (const ScreenDraw& d : pp.draws)
          if (d.patch)
            for (uint32_t k : d.patch->factors) {
              lo = std::min(lo, k);
              hi = std::max(hi, k);
            }
    if (std::string(f) == "mixed.yaml") {
      EXPECT_LE(lo, 3u) << f;
      EXPECT_GE(hi, 20u) << f;
    } else {
      EXPECT_GE(lo, 1u) << f;
      EXPECT_LE(hi, 3u) << f;
    }
  }
}
