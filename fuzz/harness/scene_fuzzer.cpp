// fuzz_scene: the tessera-sim scene loader (sim/scene parse_scene: YAML text -> Scene).
//
// Contract (sim/scene/include/tessera/sim/scene.hpp): every problem is a SceneError naming
// file, line, column and field; anything else escaping (a yaml-cpp exception such as "bad
// conversion", std::out_of_range, ...) is a finding, as is every sanitizer report. An accepted
// scene must be consistent: every reference resolved, sizes and counts in their documented
// ranges, and derived DSID_DELETE lists naming intermediate targets only.
//
// An accepted scene whose meshes are all generated (no files to read) and small is then taken
// one step further, through the host-side transform of its first frames (plan_frame: camera,
// orbit, animation, clipping, fixed-point conversion): whatever the loader accepts must not
// lead to undefined behaviour there (UBSan: float-to-int conversions of NaN or inf).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "fuzz_common.hpp"
#include "tessera/sim/frame_plan.hpp"
#include "tessera/sim/mesh.hpp"
#include "tessera/sim/scene.hpp"

using tessera::fuzz::fuzz_finding;
namespace sim = tessera::sim;

namespace {

void check_accepted(const sim::Scene& s) {
  if (s.width < 1 || s.width > sim::kMaxTargetSize || s.height < 1 || s.height > sim::kMaxTargetSize)
    fuzz_finding("accepted a screen size outside 1..2048");
  if (s.frames < 1) fuzz_finding("accepted frames < 1");
  for (const auto& [name, t] : s.targets) {
    if (t.width < 1 || t.width > sim::kMaxTargetSize || t.height < 1 || t.height > sim::kMaxTargetSize)
      fuzz_finding("accepted target '" + name + "' with a size outside 1..2048");
  }
  for (const auto& [name, m] : s.meshes) {
    if (m.kind == sim::MeshKind::File && m.path.empty()) fuzz_finding("mesh '" + name + "' has no path");
  }
  if (s.passes.empty()) fuzz_finding("accepted a scene without passes");
  for (const sim::PassSpec& p : s.passes) {
    if (p.target != sim::kScreenTarget && !s.targets.count(p.target))
      fuzz_finding("pass '" + p.name + "' renders to unknown target '" + p.target + "'");
    for (const sim::DrawSpec& d : p.draws) {
      if (!s.meshes.count(d.mesh)) fuzz_finding("a draw of pass '" + p.name + "' names unknown mesh '" + d.mesh + "'");
      else if (sim::is_patch_mesh(s.meshes.at(d.mesh).kind) != d.tess.has_value())
        fuzz_finding("a draw of pass '" + p.name + "' has tess: without a patch mesh, or a patch mesh without tess:");
      if (d.tess && d.tess->rule == sim::TessRule::Distance && (d.tess->min > d.tess->max || !(d.tess->near < d.tess->far)))
        fuzz_finding("a draw of pass '" + p.name + "' has a distance rule with min > max or far <= near");
      if (d.tess && (d.tess->factor > 255 || d.tess->max > 255))
        fuzz_finding("a draw of pass '" + p.name + "' has a factor above 255");
      if (d.texture) {
        const bool known = d.texture_is_target ? s.targets.count(*d.texture) != 0 : s.textures.count(*d.texture) != 0;
        if (!known) fuzz_finding("a draw of pass '" + p.name + "' names unknown texture '" + *d.texture + "'");
      }
    }
    for (const std::string& t : p.delete_after) {
      if (!s.targets.count(t)) fuzz_finding("pass '" + p.name + "' deletes '" + t + "', not an intermediate target");
    }
  }
}

// The generated meshes of the scene, or nothing if it names a mesh or texture file or would
// cost more than a few thousand triangles a frame (the fuzzer is after the loader, not speed).
std::optional<sim::LoadedScene> generated_only(const sim::Scene& s) {
  if (!s.textures.empty()) return std::nullopt;
  uint64_t triangles = 0;
  for (const auto& [name, m] : s.meshes) {
    switch (m.kind) {
      case sim::MeshKind::File: return std::nullopt;
      case sim::MeshKind::Cube: triangles += 12; break;
      case sim::MeshKind::Grid: triangles += 2ull * m.divisions * m.divisions; break;
      case sim::MeshKind::PatchGrid: triangles += 1ull * m.divisions * m.divisions; break;  // patches
      case sim::MeshKind::PatchTris: triangles += 2ull * m.divisions * m.divisions; break;
      case sim::MeshKind::Sphere: triangles += 2ull * m.segments * m.rings; break;
      case sim::MeshKind::Torus: triangles += 2ull * m.segments * m.sides; break;
    }
  }
  uint64_t draws = 0;
  for (const sim::PassSpec& p : s.passes) draws += p.draws.size();
  if (triangles * (draws + 1) > 20000) return std::nullopt;
  sim::LoadedScene ls;
  ls.scene = s;
  for (const auto& [name, m] : s.meshes) {
    switch (m.kind) {
      case sim::MeshKind::Cube: ls.meshes[name] = sim::make_cube(m.size); break;
      case sim::MeshKind::Grid: ls.meshes[name] = sim::make_grid(m.size, m.divisions); break;
      case sim::MeshKind::PatchGrid: ls.meshes[name] = sim::make_patch_grid(m.size, m.divisions); break;
      case sim::MeshKind::PatchTris: ls.meshes[name] = sim::make_patch_tris(m.size, m.divisions); break;
      case sim::MeshKind::Sphere: ls.meshes[name] = sim::make_sphere(m.radius, m.segments, m.rings); break;
      case sim::MeshKind::Torus: ls.meshes[name] = sim::make_torus(m.major, m.minor, m.segments, m.sides); break;
      case sim::MeshKind::File: break;
    }
  }
  return ls;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const sim::Scene s = sim::parse_scene(text, "fuzz.yaml", "/nonexistent/fuzz-scene-dir");
    check_accepted(s);
    if (const std::optional<sim::LoadedScene> ls = generated_only(s)) {
      for (uint32_t f = 0; f < s.frames && f < 4; ++f) {
        const sim::FramePlan plan = sim::plan_frame(*ls, f);
        // A patch draw's factors come from its rule: one per patch sent, within min..max.
        for (const sim::PassPlan& pp : plan.passes)
          for (std::size_t k = 0; k < pp.draws.size(); ++k) {
            const sim::ScreenDraw& d = pp.draws[k];
            if (!d.patch) continue;
            const sim::TessSpec& t = *pp.spec->draws[k].tess;
            if (d.patch->factors.size() * d.patch->control_points != d.indices.size())
              fuzz_finding("a patch draw's factors do not match its patches");
            for (uint32_t x : d.patch->factors)
              if (t.rule == sim::TessRule::Distance ? (x < t.min || x > t.max) : x != t.factor)
                fuzz_finding("a patch factor outside its rule's range");
          }
      }
    }
  } catch (const sim::SceneError& e) {
    if (e.file() != "fuzz.yaml") fuzz_finding(std::string("SceneError names another file: ") + e.what());
  } catch (...) {
    fuzz_finding("parse_scene threw something other than SceneError: " + tessera::fuzz::current_exception_text());
  }
  return 0;
}
