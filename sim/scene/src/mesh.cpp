#include "tessera/sim/mesh.hpp"

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <fmt/format.h>

#include <filesystem>
#include <functional>

namespace tessera::sim {

Mesh load_mesh_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw MeshError("not found");
  Assimp::Importer imp;
  const aiScene* sc = imp.ReadFile(path, aiProcess_Triangulate | aiProcess_GenSmoothNormals |
                                             aiProcess_JoinIdenticalVertices | aiProcess_SortByPType |
                                             aiProcess_ValidateDataStructure);
  if (!sc || (sc->mFlags & AI_SCENE_FLAGS_INCOMPLETE) || !sc->mRootNode)
    throw MeshError(fmt::format("is not a readable mesh: {}", imp.GetErrorString()));
  Mesh out;
  std::function<void(const aiNode*, const aiMatrix4x4&)> visit = [&](const aiNode* node, const aiMatrix4x4& parent) {
    const aiMatrix4x4 xf = parent * node->mTransformation;
    aiMatrix3x3 nxf(xf);
    nxf.Inverse().Transpose();
    for (unsigned i = 0; i < node->mNumMeshes; ++i) {
      const aiMesh* m = sc->mMeshes[node->mMeshes[i]];
      if (!(m->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;  // points and lines
      const auto base = static_cast<uint32_t>(out.positions.size());
      for (unsigned v = 0; v < m->mNumVertices; ++v) {
        const aiVector3D p = xf * m->mVertices[v];
        out.positions.push_back({p.x, p.y, p.z});
        aiVector3D n = m->HasNormals() ? nxf * m->mNormals[v] : aiVector3D(0, 0, 1);
        n.Normalize();
        out.normals.push_back({n.x, n.y, n.z});
        if (m->HasVertexColors(0)) {
          const aiColor4D c = m->mColors[0][v];
          out.colors.push_back({c.r, c.g, c.b, c.a});
        } else {
          out.colors.push_back({1, 1, 1, 1});
        }
        if (m->HasTextureCoords(0)) {
          out.uvs.push_back({m->mTextureCoords[0][v].x, m->mTextureCoords[0][v].y});
        } else {
          out.uvs.push_back({0, 0});
        }
      }
      for (unsigned f = 0; f < m->mNumFaces; ++f) {
        const aiFace& face = m->mFaces[f];
        if (face.mNumIndices != 3) continue;
        for (unsigned k = 0; k < 3; ++k) out.indices.push_back(base + face.mIndices[k]);
      }
    }
    for (unsigned c = 0; c < node->mNumChildren; ++c) visit(node->mChildren[c], xf);
  };
  visit(sc->mRootNode, aiMatrix4x4());
  if (out.indices.empty()) throw MeshError("holds no triangles");
  return out;
}

namespace {

void add_vertex(Mesh& m, Vec3 p, Vec3 n, Vec2 uv) {
  m.positions.push_back(p);
  m.normals.push_back(n);
  m.colors.push_back({1, 1, 1, 1});
  m.uvs.push_back(uv);
}

}  // namespace

Mesh make_cube(double size) {
  Mesh m;
  const double h = size / 2;
  // Each face: normal n, and two axes s, t with s x t = n so that the quad is CCW seen from outside.
  struct Face {
    Vec3 n, s, t;
  };
  const Face faces[6] = {
      {{1, 0, 0}, {0, 0, -1}, {0, 1, 0}},  {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}}, {{0, 1, 0}, {1, 0, 0}, {0, 0, -1}},
      {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},  {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},  {{0, 0, -1}, {-1, 0, 0}, {0, 1, 0}},
  };
  for (const Face& f : faces) {
    const auto base = static_cast<uint32_t>(m.positions.size());
    const Vec2 uv[4] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
    const double ss[4] = {-1, 1, 1, -1}, tt[4] = {-1, -1, 1, 1};
    for (int k = 0; k < 4; ++k) add_vertex(m, (f.n + f.s * ss[k] + f.t * tt[k]) * h, f.n, uv[k]);
    for (uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) m.indices.push_back(base + i);
  }
  return m;
}

Mesh make_grid(double size, unsigned divisions) {
  Mesh m;
  const unsigned n = divisions + 1;
  for (unsigned j = 0; j < n; ++j)
    for (unsigned i = 0; i < n; ++i) {
      const double u = static_cast<double>(i) / divisions, v = static_cast<double>(j) / divisions;
      add_vertex(m, {(u - 0.5) * size, 0, (v - 0.5) * size}, {0, 1, 0}, {u, v});
    }
  for (unsigned j = 0; j < divisions; ++j)
    for (unsigned i = 0; i < divisions; ++i) {
      const uint32_t a = j * n + i, b = a + 1, c = a + n, d = c + 1;
      // Seen from +y: a(-x,-z) b(+x,-z) c(-x,+z): CCW is a, c, b.
      for (uint32_t k : {a, c, b, b, c, d}) m.indices.push_back(k);
    }
  return m;
}

Mesh make_sphere(double radius, unsigned segments, unsigned rings) {
  Mesh m;
  for (unsigned r = 0; r <= rings; ++r) {
    const double v = static_cast<double>(r) / rings, phi = v * kPi;  // 0 at +y
    for (unsigned s = 0; s <= segments; ++s) {
      const double u = static_cast<double>(s) / segments, th = u * 2 * kPi;
      const Vec3 n{std::sin(phi) * std::sin(th), std::cos(phi), std::sin(phi) * std::cos(th)};
      add_vertex(m, n * radius, n, {u, v});
    }
  }
  const unsigned w = segments + 1;
  for (unsigned r = 0; r < rings; ++r)
    for (unsigned s = 0; s < segments; ++s) {
      const uint32_t a = r * w + s, b = a + 1, c = a + w, d = c + 1;
      if (r != 0) m.indices.insert(m.indices.end(), {a, c, b});
      if (r != rings - 1) m.indices.insert(m.indices.end(), {b, c, d});
    }
  return m;
}

Mesh make_torus(double major, double minor, unsigned segments, unsigned sides) {
  Mesh m;
  for (unsigned i = 0; i <= segments; ++i) {
    const double u = static_cast<double>(i) / segments, th = u * 2 * kPi;
    const Vec3 ring{std::sin(th), 0, std::cos(th)};
    for (unsigned j = 0; j <= sides; ++j) {
      const double v = static_cast<double>(j) / sides, ph = v * 2 * kPi;
      const Vec3 n = ring * std::cos(ph) + Vec3{0, std::sin(ph), 0};
      add_vertex(m, ring * major + n * minor, n, {u, v});
    }
  }
  const unsigned w = sides + 1;
  for (unsigned i = 0; i < segments; ++i)
    for (unsigned j = 0; j < sides; ++j) {
      const uint32_t a = i * w + j, b = a + 1, c = a + w, d = c + 1;
      m.indices.insert(m.indices.end(), {a, c, b, b, c, d});
    }
  return m;
}

}  // namespace tessera::sim
