// Meshes (Assimp: OBJ, PLY, glTF; procedural) and textures (stb_image).
#include <gtest/gtest.h>

#include "tessera/sim/mesh.hpp"
#include "tessera/sim/texture.hpp"

using namespace tessera::sim;

namespace {
const std::string kData = TESSERA_SCENE_TEST_DATA;
}

// Catches: OBJ positions, uvs or faces lost or reordered by the loader.
TEST(Assets, ObjQuad) {
  const Mesh m = load_mesh_file(kData + "/quad.obj");
  ASSERT_EQ(m.triangles(), 2u);
  ASSERT_EQ(m.positions.size(), 4u);  // identical vertices joined
  for (std::size_t i = 0; i < m.positions.size(); ++i) {
    // uv equals xy for this quad
    EXPECT_DOUBLE_EQ(m.uvs[i].x, m.positions[i].x);
    EXPECT_DOUBLE_EQ(m.uvs[i].y, m.positions[i].y);
    EXPECT_NEAR(m.normals[i].z, 1.0, 1e-6);
  }
}

// Catches: PLY vertex colors dropped.
TEST(Assets, PlyTriangleWithColors) {
  const Mesh m = load_mesh_file(kData + "/tri.ply");
  ASSERT_EQ(m.triangles(), 1u);
  ASSERT_EQ(m.colors.size(), 3u);
  const Vec3 p0 = m.positions[m.indices[0]];
  const Vec4 c0 = m.colors[m.indices[0]];
  EXPECT_EQ(p0, (Vec3{0, 0, 0}));
  EXPECT_NEAR(c0.x, 1.0, 1e-6);
  EXPECT_NEAR(c0.y, 0.0, 1e-6);
}

// Catches: glTF node transforms not applied (the node translates by z = 1).
TEST(Assets, GltfTriangleWithNodeTransform) {
  const Mesh m = load_mesh_file(kData + "/tri.gltf");
  ASSERT_EQ(m.triangles(), 1u);
  for (const Vec3& p : m.positions) EXPECT_DOUBLE_EQ(p.z, 1.0);
  EXPECT_DOUBLE_EQ(m.positions[m.indices[1]].x, 2.0);
}

TEST(Assets, MissingAndCorruptMeshes) {
  EXPECT_THROW(load_mesh_file(kData + "/none.obj"), MeshError);
  EXPECT_THROW(load_mesh_file(kData + "/corrupt.obj"), MeshError);
}

// Catches: procedural meshes with inward-facing (clockwise) triangles, which back-face culling
// would drop: every face normal must agree with its vertex normals.
TEST(Assets, ProceduralMeshesFaceOutwards) {
  const std::vector<std::pair<std::string, Mesh>> meshes = {
      {"cube", make_cube(2)}, {"grid", make_grid(4, 3)}, {"sphere", make_sphere(1, 12, 6)}, {"torus", make_torus(1, 0.3, 12, 8)}};
  for (const auto& [name, m] : meshes) {
    ASSERT_GT(m.triangles(), 0u) << name;
    for (std::size_t t = 0; t < m.indices.size(); t += 3) {
      const Vec3 a = m.positions[m.indices[t]], b = m.positions[m.indices[t + 1]], c = m.positions[m.indices[t + 2]];
      const Vec3 fn = cross(b - a, c - a);
      const Vec3 vn = m.normals[m.indices[t]] + m.normals[m.indices[t + 1]] + m.normals[m.indices[t + 2]];
      if (length(fn) < 1e-12) continue;
      EXPECT_GT(dot(fn, vn), 0) << name << " triangle " << t / 3;
    }
  }
  EXPECT_EQ(make_cube(1).triangles(), 12u);
  EXPECT_EQ(make_grid(1, 4).triangles(), 32u);
}

// Catches: texel order or channels wrong after decoding (the file's texels are known).
TEST(Assets, TextureDecodesToRgba8RowsTopFirst) {
  const Texture t = load_texture_file(kData + "/tex4x2.png");
  ASSERT_EQ(t.width, 4u);
  ASSERT_EQ(t.height, 2u);
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      const uint8_t* p = &t.rgba[(y * 4 + x) * 4];
      EXPECT_EQ(p[0], x * 60);
      EXPECT_EQ(p[1], y * 200);
      EXPECT_EQ(p[2], 7);
      EXPECT_EQ(p[3], 255);
    }
  EXPECT_THROW(load_texture_file(kData + "/corrupt.png"), TextureError);
  EXPECT_THROW(load_texture_file(kData + "/none.png"), TextureError);
}
