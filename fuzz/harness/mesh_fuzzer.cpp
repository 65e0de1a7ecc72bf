// fuzz_mesh: the mesh import glue (sim/scene load_mesh_file: Assimp import of a mesh file,
// node transforms, triangle lists).
//
// load_mesh_file reads a path, and Assimp chooses the importer by the file's extension, so the
// input is written to a temporary file whose extension follows its content (as a user's file
// would be named): "ply" -> .ply, "glTF" magic -> .glb, '{' -> .gltf, else .obj: the formats
// docs/tessera-sim.md names. (Assimp reads many more, COLLADA among them; they are not fuzzed
// here, see docs/fuzzing.md.) The repository's real mesh files are therefore seeds as they are.
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
#include <map>
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

// Open findings (fuzz/open/README.md): while a finding in code that is not fuzz/'s is open, the
// harness does not feed inputs of its kind, so that make test's short run keeps looking for
// new ones instead of stopping at the known one every time. TESSERA_FUZZ_OPEN_GUARDS=0 turns
// the guards off (the fuzz_mesh_open replay does). Remove a guard when its finding is fixed.
bool open_guards() {
  static const bool on = [] {
    const char* e = std::getenv("TESSERA_FUZZ_OPEN_GUARDS");
    return !(e && std::string(e) == "0");
  }();
  return on;
}

// mesh-ply: Assimp 5.2.4's PLY importer never returns on a header that does not end in a line
// "end_header" (fuzz/open/mesh/ply-header-*-hang.ply), and aborts in its triangulation
// (ai_assert) after a property of an unknown type (ply-unknown-property-type-abort.ply) or on
// on a face with no vertex index, ASCII or binary (ply-face-without-indices-abort.ply);
// load_mesh_file passes such files on to it. The guard feeds PLY files only when every header
// line is one the PLY format defines, no list (face) is empty and a binary body holds what the
// header counts, so the rest is still fuzzed.
bool ply_known_bad(std::string_view s) {
  static const std::map<std::string_view, size_t> types = {
      {"char", 1},  {"uchar", 1},  {"int8", 1},  {"uint8", 1},  {"short", 2},   {"ushort", 2},
      {"int16", 2}, {"uint16", 2}, {"int", 4},   {"uint", 4},   {"int32", 4},   {"uint32", 4},
      {"float", 4}, {"float32", 4}, {"double", 8}, {"float64", 8}};
  struct Prop {
    bool list;
    size_t count_size, size;
  };
  struct Element {
    uint64_t count;
    std::vector<Prop> props;
  };
  std::vector<Element> elements;
  int binary = 0;  // 0 ascii, 1 little endian, 2 big endian
  size_t pos = 0;
  for (unsigned line_no = 1;; ++line_no) {
    const size_t eol = s.find('\n', pos);
    if (eol == std::string_view::npos) return true;  // no end_header line
    std::string_view line = s.substr(pos, eol - pos);
    pos = eol + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::vector<std::string_view> t;
    for (size_t i = 0; i < line.size();) {
      if (line[i] == ' ') {
        ++i;
        continue;
      }
      const size_t j = std::min(line.find(' ', i), line.size());
      t.push_back(line.substr(i, j - i));
      i = j;
    }
    if (line_no == 1) {
      if (t.size() != 1 || t[0] != "ply") return true;
      continue;
    }
    if (t.empty()) return true;
    if (t[0] == "end_header") {
      if (t.size() != 1) return true;
      break;
    }
    if (t[0] == "comment" || t[0] == "obj_info") continue;
    if (t[0] == "format" && t.size() == 3 && t[2] == "1.0") {
      if (t[1] == "ascii") binary = 0;
      else if (t[1] == "binary_little_endian") binary = 1;
      else if (t[1] == "binary_big_endian") binary = 2;
      else return true;
      continue;
    }
    if (t[0] == "element" && t.size() == 3 && !t[2].empty() && t[2].size() < 10 &&
        t[2].find_first_not_of("0123456789") == std::string_view::npos) {
      elements.push_back({std::stoull(std::string(t[2])), {}});
      continue;
    }
    if (t[0] == "property" && !elements.empty() && t.size() == 3 && types.count(t[1])) {
      elements.back().props.push_back({false, 0, types.at(t[1])});
      continue;
    }
    if (t[0] == "property" && !elements.empty() && t.size() == 5 && t[1] == "list" && types.count(t[2]) &&
        types.count(t[3])) {
      elements.back().props.push_back({true, types.at(t[2]), types.at(t[3])});
      continue;
    }
    return true;
  }
  if (binary == 0) {
    // ASCII: the same walk over whitespace-separated tokens; a list of 0 items is the abort.
    auto next = [&](std::string_view& tok) {
      while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos]))) ++pos;
      const size_t b = pos;
      while (pos < s.size() && !std::isspace(static_cast<unsigned char>(s[pos]))) ++pos;
      tok = s.substr(b, pos - b);
      return !tok.empty();
    };
    std::string_view tok;
    for (const Element& e : elements) {
      if (e.props.empty()) continue;
      for (uint64_t i = 0; i < e.count; ++i) {
        for (const Prop& p : e.props) {
          if (!next(tok)) return false;  // short bodies: Assimp reports them
          if (!p.list) continue;
          if (tok == "0") return true;
          if (tok.size() > 6 || tok.find_first_not_of("0123456789") != std::string_view::npos) return false;
          for (uint64_t n = std::stoull(std::string(tok)); n != 0; --n)
            if (!next(tok)) return false;
        }
      }
    }
    return false;
  }
  for (const Element& e : elements) {
    if (e.props.empty()) continue;
    for (uint64_t i = 0; i < e.count; ++i) {
      for (const Prop& p : e.props) {
        if (!p.list) {
          if (s.size() - pos < p.size) return true;
          pos += p.size;
          continue;
        }
        if (s.size() - pos < p.count_size) return true;
        uint64_t n = 0;
        for (size_t k = 0; k < p.count_size; ++k) {
          const size_t at = binary == 1 ? pos + p.count_size - 1 - k : pos + k;
          n = n << 8 | static_cast<uint8_t>(s[at]);
        }
        pos += p.count_size;
        if (n == 0 || n > (s.size() - pos) / p.size) return true;
        pos += n * p.size;
      }
    }
  }
  return false;
}

bool open_guard_skips(const uint8_t* data, size_t size, const char* ext) {
  if (!open_guards() || std::strcmp(ext, "ply") != 0) return false;
  return ply_known_bad(std::string_view(reinterpret_cast<const char*>(data), size));
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
  if (open_guard_skips(data, size, ext)) return 0;
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
