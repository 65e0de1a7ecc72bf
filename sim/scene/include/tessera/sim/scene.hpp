// tessera-sim scenes: the YAML schema (docs/tessera-sim.md "Scenes"), its loader and validator,
// and the assets it names (meshes through Assimp or generated, textures through stb_image).
//
// Every error is a SceneError whose message is "FILE:LINE:COLUMN: FIELD.PATH: what", e.g.
//   scenes/x.yaml:12:5: passes[1].draws[0].mesh: file 'cube.obj' not found
// Lines and columns count from 1; the field path names the YAML key (maps) and index (lists).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tessera/sim/mesh.hpp"
#include "tessera/sim/scene_math.hpp"
#include "tessera/sim/texture.hpp"

namespace tessera::sim {

class SceneError : public std::runtime_error {
 public:
  SceneError(std::string file, unsigned line, unsigned column, std::string field, const std::string& what);
  const std::string& file() const { return file_; }
  unsigned line() const { return line_; }
  unsigned column() const { return column_; }
  const std::string& field() const { return field_; }

 private:
  std::string file_;
  unsigned line_, column_;
  std::string field_;
};

// Where a value came from, for errors found after parsing (assets, cross references).
struct SourceLoc {
  unsigned line = 0, column = 0;
  std::string field;
};

inline constexpr uint32_t kMaxTargetSize = 2048;  // ARCHITECTURE.md 3
inline constexpr const char* kScreenTarget = "screen";

enum class MeshKind { File, Cube, Grid, Sphere, Torus, PatchGrid, PatchTris };
// The generated patch meshes (drawn with a patch topology, tessellated on the GPU).
inline bool is_patch_mesh(MeshKind k) { return k == MeshKind::PatchGrid || k == MeshKind::PatchTris; }
struct MeshSpec {
  std::string name;
  MeshKind kind = MeshKind::File;
  std::string file;  // File: as written; path: resolved against the scene's folder
  std::string path;
  double size = 1, radius = 1, major = 1, minor = 0.25;
  unsigned divisions = 1, segments = 16, rings = 8, sides = 8;
  SourceLoc loc;  // the mesh's entry (for a file: its `file` value)
};

struct TextureSpec {
  std::string name;
  std::string file, path;
  SourceLoc loc;
};

// An intermediate render target (render to texture): its own resource group, rendered by a
// pass, sampled by later passes, deleted (DSID_DELETE) after the last pass that uses it.
struct TargetSpec {
  std::string name;
  uint32_t width = 0, height = 0;
  SourceLoc loc;
};

struct OrbitSpec {
  Vec3 axis{0, 1, 0};
  Vec3 center{0, 0, 0};
  double start_deg = 0;
  double deg_per_frame = 0;
  // Camera cuts: every cut_every frames (0: never) the angle jumps by cut_deg more.
  uint32_t cut_every = 0;
  double cut_deg = 0;
};

struct CameraSpec {
  Vec3 position{0, 0, 5};
  Vec3 look_at{0, 0, 0};
  Vec3 up{0, 1, 0};
  double fov_y_deg = 60;
  double near = 0.1;
  double far = 100;
  std::optional<OrbitSpec> orbit;
};

struct LightSpec {
  Vec3 direction{0, -1, 0};  // the direction the light travels
  double ambient = 0.2;
};

enum class LoadAction { Clear, Load, DontCare };
enum class DepthFunc { Never, Less, LEqual, Always };
enum class Cull { None, Back, Front };

// The tessellation factors of a patch draw's patches (docs/tessera-sim.md "Tessellation"),
// computed per frame and patch by the host and written to the draw's TF buffer.
//   uniform:  every patch gets `factor`.
//   distance: d = distance from the camera's eye to the patch centre (the mean of its control
//             points) in world space; factor = max for d <= near, min for d >= far, in between
//             round(max + (min - max) * (d - near) / (far - near)) (halves away from zero).
// Factors are 0..255 as the TF record holds them; the GPU counts a factor above 64 as 64, and a
// factor of 0 culls the patch.
enum class TessRule { Uniform, Distance };
struct TessSpec {
  TessRule rule = TessRule::Uniform;
  uint32_t factor = 1;               // uniform
  uint32_t min = 1, max = 1;         // distance
  double near = 0, far = 1;          // distance, world units
  SourceLoc loc;
};
// The factor of a patch whose centre is `distance` from the eye.
uint32_t tess_factor(const TessSpec& t, double distance);

struct DrawSpec {
  std::string mesh;                     // key into Scene::meshes
  std::optional<std::string> texture;   // key into Scene::textures or Scene::targets
  bool texture_is_target = false;
  Vec4 color{1, 1, 1, 1};
  Vec3 position{0, 0, 0};
  Vec3 rotation_deg{0, 0, 0};           // applied x, then y, then z
  Vec3 scale{1, 1, 1};
  Vec3 spin_deg_per_frame{0, 0, 0};     // added to rotation_deg each frame
  Vec3 velocity_per_frame{0, 0, 0};     // added to position each frame
  std::optional<Cull> cull;             // default: the pass's
  bool lit = true;                      // with the scene's light, if it has one
  std::optional<TessSpec> tess;         // patch meshes only (and required for them)
  SourceLoc loc;
};

struct PassSpec {
  std::string name;
  std::string target = kScreenTarget;
  LoadAction color_load = LoadAction::Clear;
  Vec4 clear_color{0, 0, 0, 1};
  LoadAction depth_load = LoadAction::Clear;
  double clear_depth = 1.0;
  bool depth_store = false;
  bool depth_test = true;
  DepthFunc depth_func = DepthFunc::Less;
  bool depth_write = true;
  bool color_write = true;
  Cull cull = Cull::Back;
  std::optional<CameraSpec> camera;  // default: the scene's
  std::vector<DrawSpec> draws;
  std::vector<std::string> delete_after;  // intermediate targets last used by this pass (derived)
  SourceLoc loc;
};

struct Scene {
  std::string file;  // as given
  std::string dir;   // folder relative files resolve against
  std::string name;
  uint32_t width = 320, height = 240;
  SourceLoc target_loc;  // of the `target:` key (line 0: the default size)
  uint32_t frames = 1;
  // `gpu: {slc_ways: N}`: the GPU configuration the scene is meant for. slc_ways: the ways the
  // SLC may allocate in (SLC WAY_LIMIT, a power of two; 0 = all), so a small scene can have the
  // working-set-to-cache ratio of a phone's frame (docs/scenes.md). tessera-sim --slc-ways overrides it.
  uint32_t slc_ways = 0;
  CameraSpec camera;
  std::optional<LightSpec> light;
  std::map<std::string, MeshSpec> meshes;
  std::map<std::string, TextureSpec> textures;
  std::map<std::string, TargetSpec> targets;
  std::vector<PassSpec> passes;
  std::vector<std::string> warnings;  // "file:line:column: path: message" for legal but suspect input
};

// Parses and validates (types, ranges, unknown keys, references, pass order). No file I/O
// beyond reading the scene itself; assets are loaded by load_assets.
Scene parse_scene(const std::string& yaml_text, const std::string& file_name, const std::string& base_dir);
Scene load_scene(const std::string& path);

struct LoadedScene {
  Scene scene;
  std::map<std::string, Mesh> meshes;
  std::map<std::string, Texture> textures;
  std::size_t triangles() const;  // per frame, over every triangle-list draw of every pass
  std::size_t patches() const;    // per frame, over every patch draw of every pass (before tessellation)
};
// Loads every mesh and texture. Throws SceneError naming the field that named the file.
LoadedScene load_assets(Scene scene);

const char* to_string(LoadAction a);
const char* to_string(DepthFunc f);
const char* to_string(Cull c);

}  // namespace tessera::sim
