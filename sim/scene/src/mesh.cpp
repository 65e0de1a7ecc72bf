#include "tessera/sim/mesh.hpp"

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <filesystem>
#include <functional>

#include "mesh_file_check.hpp"

namespace tessera::sim {

namespace {

// Refuses NaN or infinite vertex data as the importer delivered it (before any post-processing
// joins or reorders vertices), naming the mesh and the vertex index: for glTF that is the
// accessor's element, for PLY the vertex record; OBJ and PLY are checked line by line before
// (mesh_file_check.cpp). Non-finite values would reach to_fixed_12_4/to_depth24 (undefined
// behaviour) or silently become texel 0 or black.
void check_finite(const aiScene& sc) {
  auto finite = [](std::initializer_list<ai_real> v) {
    for (ai_real x : v)
      if (!std::isfinite(x)) return false;
    return true;
  };
  for (unsigned i = 0; i < sc.mNumMeshes; ++i) {
    const aiMesh& m = *sc.mMeshes[i];
    const std::string mesh = m.mName.length ? fmt::format("mesh {} ('{}')", i, m.mName.C_Str()) : fmt::format("mesh {}", i);
    for (unsigned v = 0; v < m.mNumVertices; ++v) {
      const aiVector3D& p = m.mVertices[v];
      if (!finite({p.x, p.y, p.z}))
        throw MeshError(fmt::format("{} vertex {}: position ({}, {}, {}) is not finite", mesh, v, p.x, p.y, p.z));
      if (m.HasNormals()) {
        const aiVector3D& n = m.mNormals[v];
        if (!finite({n.x, n.y, n.z}))
          throw MeshError(fmt::format("{} vertex {}: normal ({}, {}, {}) is not finite", mesh, v, n.x, n.y, n.z));
      }
      for (unsigned c = 0; c < AI_MAX_NUMBER_OF_TEXTURECOORDS && m.HasTextureCoords(c); ++c) {
        const aiVector3D& t = m.mTextureCoords[c][v];
        const std::string set = c ? fmt::format("texture coordinate set {}", c) : "texture coordinate";
        if (m.mNumUVComponents[c] >= 3 ? !finite({t.x, t.y, t.z}) : !finite({t.x, t.y}))
          throw MeshError(m.mNumUVComponents[c] >= 3
                              ? fmt::format("{} vertex {}: {} ({}, {}, {}) is not finite", mesh, v, set, t.x, t.y, t.z)
                              : fmt::format("{} vertex {}: {} ({}, {}) is not finite", mesh, v, set, t.x, t.y));
      }
      for (unsigned c = 0; c < AI_MAX_NUMBER_OF_COLOR_SETS && m.HasVertexColors(c); ++c) {
        const aiColor4D& k = m.mColors[c][v];
        if (!finite({k.r, k.g, k.b, k.a}))
          throw MeshError(fmt::format("{} vertex {}: colour ({}, {}, {}, {}) is not finite", mesh, v, k.r, k.g, k.b, k.a));
      }
    }
  }
}

std::string lower_extension(const std::string& path) {
  std::string e = std::filesystem::path(path).extension().string();
  for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e;
}

}  // namespace

Mesh load_mesh_file(const std::string& path) {
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(st)) throw MeshError("is a directory, not a mesh file");
  if (!std::filesystem::is_regular_file(st)) throw MeshError(std::filesystem::exists(st) ? "is not a regular file" : "not found");
  const std::string ext = lower_extension(path);
  Assimp::Importer imp;
  try {
    if (ext == ".obj") detail::check_obj_file(path);
    if (ext == ".ply") detail::check_ply_file(path);
    // COLLADA by name, or by content where the name leaves the choice to Assimp's sniffing.
    const bool other = ext == ".obj" || ext == ".ply" || ext == ".gltf" || ext == ".glb";
    if (ext == ".dae" || (!other && detail::looks_like_collada(path)))
      detail::check_collada_file(path);
    // Read as the file is (checked for NaN and inf), then post-process.
    const aiScene* raw = imp.ReadFile(path, aiProcess_ValidateDataStructure);
    if (!raw || (raw->mFlags & AI_SCENE_FLAGS_INCOMPLETE) || !raw->mRootNode) throw MeshError(imp.GetErrorString());
    check_finite(*raw);
  } catch (const MeshError& e) {
    throw MeshError(fmt::format("is not a readable mesh: {}", e.what()));
  }
  // aiProcess_FlipUVs (v' = 1 - v): Assimp delivers every format with the uv origin at the
  // image's bottom-left (OpenGL; its glTF importer already flips glTF's top-left origin to
  // that), while the sampler's texel row is ty = v >> (16 - log2_h) (docs/raster.md) and
  // textures are uploaded top row first, so v = 0 is the image's top (the procedural meshes
  // use that convention). Assimp's own step flips every uv channel of every
  // mesh in one place, rather than one component in our copy loop.
  const aiScene* sc = imp.ApplyPostProcessing(aiProcess_Triangulate | aiProcess_GenSmoothNormals |
                                              aiProcess_JoinIdenticalVertices | aiProcess_SortByPType | aiProcess_FlipUVs);
  if (!sc || !sc->mRootNode) throw MeshError(fmt::format("is not a readable mesh: {}", imp.GetErrorString()));
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
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
          throw MeshError(fmt::format("is not a readable mesh: mesh {} vertex {}: position is not finite after the transforms of its node '{}'",
                                      node->mMeshes[i], v, node->mName.C_Str()));
        out.positions.push_back({p.x, p.y, p.z});
        aiVector3D n = m->HasNormals() ? nxf * m->mNormals[v] : aiVector3D(0, 0, 1);
        n.NormalizeSafe();  // a zero normal (degenerate faces) stays zero instead of NaN
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

namespace {
// make_grid's vertices, and per cell its corners a, b, c, d (see make_patch_grid).
template <class Cell>
Mesh plane(double size, unsigned divisions, Cell&& cell) {
  Mesh m = make_grid(size, divisions);
  m.indices.clear();
  const unsigned n = divisions + 1;
  for (unsigned j = 0; j < divisions; ++j)
    for (unsigned i = 0; i < divisions; ++i) {
      const uint32_t a = j * n + i, b = a + 1, c = a + n, d = c + 1;
      cell(m, a, b, c, d);
    }
  return m;
}
}  // namespace

Mesh make_patch_grid(double size, unsigned divisions) {
  Mesh m = plane(size, divisions, [](Mesh& p, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
    p.indices.insert(p.indices.end(), {c, d, b, a});
  });
  m.patch_size = 4;
  return m;
}

Mesh make_patch_tris(double size, unsigned divisions) {
  Mesh m = plane(size, divisions, [](Mesh& p, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
    p.indices.insert(p.indices.end(), {c, d, b, c, b, a});
  });
  m.patch_size = 3;
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
