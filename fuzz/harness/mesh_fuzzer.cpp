// fuzz_mesh: the mesh import glue (sim/scene load_mesh_file: Assimp import of a mesh file,
// node transforms, triangle lists).
//
// load_mesh_file reads a path, and Assimp chooses the importer by the file's extension, so the
// input is written to a temporary file whose extension follows its content (as a user's file
// would be named): "ply" -> .ply, "glTF" magic -> .glb, '{' -> .gltf, '<' -> .dae (COLLADA is
// XML), else .obj: the formats docs/tessera-sim.md names. (Assimp reads many more, FBX among
// them; they are not fuzzed here, see docs/fuzzing.md.) The repository's real mesh files are
// therefore seeds as they are.
//
// Contract (sim/scene/include/tessera/sim/mesh.hpp): a file that cannot be used is a MeshError;
// anything else escaping is a finding, as is every sanitizer report. An accepted mesh is a
// triangle list whose indices all name a vertex, with one normal, colour and uv per position.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_common.hpp"
#include "tessera/sim/mesh.hpp"

using tessera::fuzz::fuzz_finding;
namespace sim = tessera::sim;

namespace {

const char* extension_for(const uint8_t* data, size_t size) {
  size_t i = 0;
  while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n')) ++i;
  auto starts = [&](const char* s) {
    const size_t n = std::strlen(s);
    return size - i >= n && std::memcmp(data + i, s, n) == 0;
  };
  if (starts("ply")) return "ply";
  if (starts("glTF")) return "glb";
  if (starts("{")) return "gltf";
  if (starts("<")) return "dae";
  return "obj";
}

std::string scratch_dir() {
  static const std::string dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::filesystem::path p = std::filesystem::path(tmp && *tmp ? tmp : "/tmp") /
                              ("tessera-fuzz-mesh-" + std::to_string(::getpid()));
    std::filesystem::create_directories(p);
    return p.string();
  }();
  return dir;
}

void check_accepted(const sim::Mesh& m) {
  const size_t n = m.positions.size();
  if (m.normals.size() != n || m.colors.size() != n || m.uvs.size() != n)
    fuzz_finding("accepted mesh: normals, colors or uvs are not one per position");
  if (m.indices.empty() || m.indices.size() % 3 != 0) fuzz_finding("accepted mesh: not a non-empty triangle list");
  // Issue 14 item 3: positions and uvs that are not finite are refused (positions reach the
  // fixed-point conversions of the transform, undefined behaviour there), whatever produced
  // them, node transforms included. Normals may be NaN (Assimp normalises zero-length ones):
  // the lighting clamps them away (frame_plan.cpp, std::max with 0).
  auto finite = [](std::initializer_list<double> v) {
    for (double x : v)
      if (!std::isfinite(x)) return false;
    return true;
  };
  for (size_t i = 0; i < n; ++i) {
    const sim::Vec3& p = m.positions[i];
    if (!finite({p.x, p.y, p.z})) fuzz_finding("accepted mesh: position " + std::to_string(i) + " is not finite");
    if (!finite({m.uvs[i].x, m.uvs[i].y})) fuzz_finding("accepted mesh: uv " + std::to_string(i) + " is not finite");
  }
  for (size_t i = 0; i < m.indices.size(); ++i) {
    if (m.indices[i] >= n)
      fuzz_finding("accepted mesh: index " + std::to_string(i) + " = " + std::to_string(m.indices[i]) +
                   " names no vertex (" + std::to_string(n) + " vertices)");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const char* ext = extension_for(data, size);
  const std::string path = scratch_dir() + "/input." + ext;
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    if (size != 0 && std::fwrite(data, 1, size, f) != size) fuzz_finding("cannot write " + path);
    std::fclose(f);
  } else {
    fuzz_finding("cannot create " + path);
  }
  try {
    check_accepted(sim::load_mesh_file(path));
  } catch (const sim::MeshError&) {
  } catch (...) {
    fuzz_finding("load_mesh_file threw something other than MeshError: " + tessera::fuzz::current_exception_text());
  }
  return 0;
}
