#include "tessera/sim/scene.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace tessera::sim {

SceneError::SceneError(std::string file, unsigned line, unsigned column, std::string field, const std::string& what)
    : std::runtime_error(field.empty() ? fmt::format("{}:{}:{}: {}", file, line, column, what)
                                       : fmt::format("{}:{}:{}: {}: {}", file, line, column, field, what)),
      file_(std::move(file)),
      line_(line),
      column_(column),
      field_(std::move(field)) {}

const char* to_string(LoadAction a) {
  switch (a) {
    case LoadAction::Clear: return "clear";
    case LoadAction::Load: return "load";
    case LoadAction::DontCare: return "dont_care";
  }
  return "?";
}
const char* to_string(DepthFunc f) {
  switch (f) {
    case DepthFunc::Never: return "never";
    case DepthFunc::Less: return "less";
    case DepthFunc::LEqual: return "lequal";
    case DepthFunc::Always: return "always";
  }
  return "?";
}
const char* to_string(Cull c) {
  switch (c) {
    case Cull::None: return "none";
    case Cull::Back: return "back";
    case Cull::Front: return "front";
  }
  return "?";
}

std::size_t LoadedScene::triangles() const {
  std::size_t n = 0;
  for (const auto& p : scene.passes)
    for (const auto& d : p.draws) n += meshes.at(d.mesh).triangles();
  return n;
}

std::size_t LoadedScene::patches() const {
  std::size_t n = 0;
  for (const auto& p : scene.passes)
    for (const auto& d : p.draws) n += meshes.at(d.mesh).patches();
  return n;
}

uint32_t tess_factor(const TessSpec& t, double distance) {
  if (t.rule == TessRule::Uniform) return t.factor;
  if (distance <= t.near) return t.max;
  if (distance >= t.far) return t.min;
  const double f = static_cast<double>(t.max) +
                   (static_cast<double>(t.min) - static_cast<double>(t.max)) * (distance - t.near) / (t.far - t.near);
  return static_cast<uint32_t>(std::clamp(std::round(f), static_cast<double>(t.min), static_cast<double>(t.max)));
}

namespace {

bool has_mesh_extension(const std::string& s) {
  const auto dot = s.rfind('.');
  return dot != std::string::npos && dot + 1 < s.size() && s.find_first_of("/\\", dot) == std::string::npos;
}

class Reader {
 public:
  Reader(std::string file, std::string dir) : file_(std::move(file)), dir_(std::move(dir)) {}

  [[noreturn]] void fail(const YAML::Node& n, const std::string& field, const std::string& what) const {
    const YAML::Mark m = n.Mark();
    throw SceneError(file_, m.line >= 0 ? static_cast<unsigned>(m.line + 1) : 1,
                     m.column >= 0 ? static_cast<unsigned>(m.column + 1) : 1, field, what);
  }
  [[noreturn]] void fail(const SourceLoc& l, const std::string& what) const {
    throw SceneError(file_, l.line, l.column, l.field, what);
  }
  SourceLoc loc(const YAML::Node& n, const std::string& field) const {
    const YAML::Mark m = n.Mark();
    return {m.line >= 0 ? static_cast<unsigned>(m.line + 1) : 1, m.column >= 0 ? static_cast<unsigned>(m.column + 1) : 1,
            field};
  }
  static std::string join(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }

  static std::string describe(const YAML::Node& n) {
    switch (n.Type()) {
      case YAML::NodeType::Scalar: return fmt::format("'{}'", n.Scalar());
      case YAML::NodeType::Sequence: return "a list";
      case YAML::NodeType::Map: return "a map";
      default: return "nothing";
    }
  }

  // The one accessor for a map's key: a name (scalar), else file:line:column and the map's path.
  std::string key(const YAML::Node& k, const std::string& map_path) const {
    if (!k.IsScalar()) fail(k, map_path, "a key must be a name, not " + describe(k));
    return k.Scalar();
  }

  // A map, each key a name and none repeated: yaml-cpp 0.7 keeps both entries of a repeated
  // key and `[]` returns the first, so the second would be silently ignored (the policy
  // loader, driver/src/policy.cpp YamlReader::entries, refuses them the same way).
  void require_map(const YAML::Node& n, const std::string& path) const {
    if (!n.IsMap()) fail(n, path, "expected a map (key: value)");
    std::map<std::string, unsigned> first_line;
    for (const auto& kv : n) {
      const std::string k = key(kv.first, path);
      const auto [it, fresh] = first_line.try_emplace(k, loc(kv.first, "").line);
      if (!fresh) fail(kv.first, join(path, k), fmt::format("the key is repeated (first on line {})", it->second));
    }
  }
  // Rejects keys the schema does not know (typos would otherwise be silently ignored).
  void known_keys(const YAML::Node& n, const std::string& path, std::initializer_list<const char*> keys) const {
    require_map(n, path);
    for (const auto& kv : n) {
      const std::string k = key(kv.first, path);
      bool ok = false;
      for (const char* x : keys) ok = ok || k == x;
      if (!ok) {
        std::string list;
        for (const char* x : keys) list += (list.empty() ? "" : ", ") + std::string(x);
        fail(kv.first, join(path, k), fmt::format("unknown key (expected one of: {})", list));
      }
    }
  }

  double number(const YAML::Node& n, const std::string& path, double lo, double hi) const {
    if (!n.IsScalar()) fail(n, path, "expected a number, got " + describe(n));
    double v = 0;
    try {
      v = n.as<double>();
    } catch (const YAML::Exception&) {
      fail(n, path, fmt::format("'{}' is not a number", n.Scalar()));
    }
    if (!std::isfinite(v)) fail(n, path, "must be a finite number");
    if (v < lo || v > hi) fail(n, path, fmt::format("{} is outside {}..{}", n.Scalar(), lo, hi));
    return v;
  }
  uint32_t integer(const YAML::Node& n, const std::string& path, uint64_t lo, uint64_t hi) const {
    if (!n.IsScalar()) fail(n, path, "expected an integer, got " + describe(n));
    int64_t v = 0;
    try {
      v = n.as<int64_t>();
    } catch (const YAML::Exception&) {
      fail(n, path, fmt::format("'{}' is not an integer", n.Scalar()));
    }
    if (v < static_cast<int64_t>(lo) || v > static_cast<int64_t>(hi))
      fail(n, path, fmt::format("{} is outside {}..{}", v, lo, hi));
    return static_cast<uint32_t>(v);
  }
  bool boolean(const YAML::Node& n, const std::string& path) const {
    if (!n.IsScalar()) fail(n, path, "expected true or false, got " + describe(n));
    try {
      return n.as<bool>();
    } catch (const YAML::Exception&) {
      fail(n, path, fmt::format("'{}' is not true or false", n.Scalar()));
    }
  }
  std::string string(const YAML::Node& n, const std::string& path) const {
    if (!n.IsScalar() || n.Scalar().empty()) fail(n, path, "expected a non-empty string");
    return n.Scalar();
  }
  Vec3 vec3(const YAML::Node& n, const std::string& path, double lo = -1e6, double hi = 1e6) const {
    if (!n.IsSequence() || n.size() != 3) fail(n, path, "expected [x, y, z]");
    return {number(n[0], path + "[0]", lo, hi), number(n[1], path + "[1]", lo, hi), number(n[2], path + "[2]", lo, hi)};
  }
  Vec4 color(const YAML::Node& n, const std::string& path) const {
    if (!n.IsSequence() || (n.size() != 3 && n.size() != 4)) fail(n, path, "expected [r, g, b] or [r, g, b, a], each 0..1");
    Vec4 c{number(n[0], path + "[0]", 0, 1), number(n[1], path + "[1]", 0, 1), number(n[2], path + "[2]", 0, 1), 1.0};
    if (n.size() == 4) c.w = number(n[3], path + "[3]", 0, 1);
    return c;
  }
  template <typename E>
  E choice(const YAML::Node& n, const std::string& path, std::initializer_list<std::pair<const char*, E>> opts) const {
    const std::string s = string(n, path);
    std::string list;
    for (const auto& [name, val] : opts) {
      if (s == name) return val;
      list += (list.empty() ? "" : ", ") + std::string(name);
    }
    fail(n, path, fmt::format("'{}' is not one of: {}", s, list));
  }

  CameraSpec camera(const YAML::Node& n, const std::string& path, const CameraSpec& base) const {
    known_keys(n, path, {"position", "look_at", "up", "fov_y", "near", "far", "orbit"});
    CameraSpec c = base;
    if (n["position"]) c.position = vec3(n["position"], join(path, "position"));
    if (n["look_at"]) c.look_at = vec3(n["look_at"], join(path, "look_at"));
    if (n["up"]) c.up = vec3(n["up"], join(path, "up"));
    if (n["fov_y"]) c.fov_y_deg = number(n["fov_y"], join(path, "fov_y"), 1, 179);
    if (n["near"]) c.near = number(n["near"], join(path, "near"), 1e-4, 1e6);
    if (n["far"]) c.far = number(n["far"], join(path, "far"), 1e-4, 1e7);
    if (c.far <= c.near)
      fail(n["far"] ? n["far"] : n, join(path, "far"), fmt::format("far ({}) must be greater than near ({})", c.far, c.near));
    const Vec3 f = c.look_at - c.position;
    if (length(f) < 1e-9) fail(n, join(path, "look_at"), "the camera looks at its own position");
    if (length(cross(normalize(f), normalize(c.up))) < 1e-6 || length(c.up) < 1e-9)
      fail(n["up"] ? n["up"] : n, join(path, "up"), "up is zero or parallel to the view direction");
    if (const YAML::Node o = n["orbit"]) {
      const std::string op = join(path, "orbit");
      known_keys(o, op, {"axis", "center", "start", "degrees_per_frame", "cuts"});
      OrbitSpec orb;
      if (o["axis"]) orb.axis = vec3(o["axis"], join(op, "axis"));
      if (length(orb.axis) < 1e-9) fail(o["axis"], join(op, "axis"), "the axis is zero");
      if (o["center"]) orb.center = vec3(o["center"], join(op, "center"));
      if (o["start"]) orb.start_deg = number(o["start"], join(op, "start"), -360, 360);
      if (!o["degrees_per_frame"]) fail(o, join(op, "degrees_per_frame"), "missing");
      orb.deg_per_frame = number(o["degrees_per_frame"], join(op, "degrees_per_frame"), -360, 360);
      if (const YAML::Node cn = o["cuts"]) {
        const std::string cp = join(op, "cuts");
        known_keys(cn, cp, {"every", "degrees"});
        if (!cn["every"]) fail(cn, join(cp, "every"), "missing");
        if (!cn["degrees"]) fail(cn, join(cp, "degrees"), "missing");
        orb.cut_every = static_cast<uint32_t>(number(cn["every"], join(cp, "every"), 1, 1e6));
        if (orb.cut_every != number(cn["every"], join(cp, "every"), 1, 1e6))
          fail(cn["every"], join(cp, "every"), "must be a whole number of frames");
        orb.cut_deg = number(cn["degrees"], join(cp, "degrees"), -360, 360);
      }
      c.orbit = orb;
    }
    return c;
  }

  MeshSpec mesh(const YAML::Node& n, const std::string& path, const std::string& name) const {
    MeshSpec m;
    m.name = name;
    m.loc = loc(n, path);
    if (n.IsScalar()) {  // a file name
      m.kind = MeshKind::File;
      m.file = string(n, path);
      m.path = resolve(m.file);
      return m;
    }
    require_map(n, path);
    if (n["file"]) {
      known_keys(n, path, {"file"});
      m.kind = MeshKind::File;
      m.file = string(n["file"], join(path, "file"));
      m.path = resolve(m.file);
      m.loc = loc(n["file"], join(path, "file"));
      return m;
    }
    if (!n["generate"])
      fail(n, path, "a mesh needs `file: NAME` or `generate: cube|grid|sphere|torus|patch_grid|patch_tris`");
    m.kind = choice<MeshKind>(n["generate"], join(path, "generate"),
                              {{"cube", MeshKind::Cube}, {"grid", MeshKind::Grid}, {"plane", MeshKind::Grid},
                               {"sphere", MeshKind::Sphere}, {"torus", MeshKind::Torus},
                               {"patch_grid", MeshKind::PatchGrid}, {"patch_tris", MeshKind::PatchTris}});
    switch (m.kind) {
      case MeshKind::Cube:
        known_keys(n, path, {"generate", "size"});
        if (n["size"]) m.size = number(n["size"], join(path, "size"), 1e-6, 1e6);
        break;
      case MeshKind::Grid:
      case MeshKind::PatchGrid:
      case MeshKind::PatchTris:
        known_keys(n, path, {"generate", "size", "divisions"});
        if (n["size"]) m.size = number(n["size"], join(path, "size"), 1e-6, 1e6);
        if (n["divisions"]) m.divisions = integer(n["divisions"], join(path, "divisions"), 1, 256);
        break;
      case MeshKind::Sphere:
        known_keys(n, path, {"generate", "radius", "segments", "rings"});
        if (n["radius"]) m.radius = number(n["radius"], join(path, "radius"), 1e-6, 1e6);
        if (n["segments"]) m.segments = integer(n["segments"], join(path, "segments"), 3, 512);
        if (n["rings"]) m.rings = integer(n["rings"], join(path, "rings"), 2, 512);
        break;
      case MeshKind::Torus:
        known_keys(n, path, {"generate", "major", "minor", "segments", "sides"});
        if (n["major"]) m.major = number(n["major"], join(path, "major"), 1e-6, 1e6);
        if (n["minor"]) m.minor = number(n["minor"], join(path, "minor"), 1e-6, 1e6);
        if (n["segments"]) m.segments = integer(n["segments"], join(path, "segments"), 3, 512);
        if (n["sides"]) m.sides = integer(n["sides"], join(path, "sides"), 3, 512);
        break;
      case MeshKind::File: break;
    }
    return m;
  }

  // A draw's `tess:` (scene.hpp TessSpec): {factor: N} or {rule: distance, min, max, near, far}.
  TessSpec tess(const YAML::Node& n, const std::string& path) const {
    TessSpec t;
    t.loc = loc(n, path);
    require_map(n, path);
    if (n["rule"] && string(n["rule"], join(path, "rule")) != "uniform") {
      t.rule = choice<TessRule>(n["rule"], join(path, "rule"), {{"uniform", TessRule::Uniform}, {"distance", TessRule::Distance}});
      known_keys(n, path, {"rule", "min", "max", "near", "far"});
      for (const char* k : {"min", "max", "near", "far"})
        if (!n[k]) fail(n, join(path, k), "missing (the distance rule needs min, max, near and far)");
      t.min = integer(n["min"], join(path, "min"), 0, 255);
      t.max = integer(n["max"], join(path, "max"), 0, 255);
      if (t.min > t.max) fail(n["min"], join(path, "min"), fmt::format("min ({}) is greater than max ({})", t.min, t.max));
      t.near = number(n["near"], join(path, "near"), 0, 1e6);
      t.far = number(n["far"], join(path, "far"), 0, 1e6);
      if (t.far <= t.near) fail(n["far"], join(path, "far"), fmt::format("far ({}) must be greater than near ({})", t.far, t.near));
      return t;
    }
    known_keys(n, path, {"rule", "factor"});
    if (!n["factor"]) fail(n, join(path, "factor"), "missing (`factor: N`, or `rule: distance` with min, max, near, far)");
    t.factor = integer(n["factor"], join(path, "factor"), 0, 255);
    return t;
  }

  TextureSpec texture(const YAML::Node& n, const std::string& path, const std::string& name) const {
    TextureSpec t;
    t.name = name;
    if (n.IsMap()) {
      known_keys(n, path, {"file"});
      if (!n["file"]) fail(n, join(path, "file"), "missing");
      t.file = string(n["file"], join(path, "file"));
      t.loc = loc(n["file"], join(path, "file"));
    } else {
      t.file = string(n, path);
      t.loc = loc(n, path);
    }
    t.path = resolve(t.file);
    return t;
  }

  std::string resolve(const std::string& f) const {
    std::filesystem::path p(f);
    if (p.is_absolute() || dir_.empty()) return p.lexically_normal().string();
    return (std::filesystem::path(dir_) / p).lexically_normal().string();
  }

  const std::string& file() const { return file_; }

 private:
  std::string file_;
  std::string dir_;
};

}  // namespace

namespace {

Scene parse_checked(const std::string& text, const std::string& file_name, const std::string& base_dir) {
  Reader r(file_name, base_dir);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw SceneError(file_name, e.mark.line >= 0 ? static_cast<unsigned>(e.mark.line + 1) : 1,
                     e.mark.column >= 0 ? static_cast<unsigned>(e.mark.column + 1) : 1, "",
                     fmt::format("malformed YAML: {}", e.msg));
  }
  if (!root || root.IsNull()) throw SceneError(file_name, 1, 1, "", "the scene is empty");
  r.known_keys(root, "", {"name", "frames", "gpu", "target", "camera", "light", "meshes", "textures", "targets", "passes"});

  Scene s;
  s.file = file_name;
  s.dir = base_dir;
  s.name = root["name"] ? r.string(root["name"], "name") : std::filesystem::path(file_name).stem().string();
  if (root["frames"]) s.frames = r.integer(root["frames"], "frames", 1, 100000);
  if (const YAML::Node t = root["target"]) {
    r.known_keys(t, "target", {"width", "height"});
    s.target_loc = r.loc(t, "target");
    if (t["width"]) s.width = r.integer(t["width"], "target.width", 1, kMaxTargetSize);
    if (t["height"]) s.height = r.integer(t["height"], "target.height", 1, kMaxTargetSize);
  }
  if (const YAML::Node g = root["gpu"]) {
    r.known_keys(g, "gpu", {"slc_ways"});
    if (g["slc_ways"]) {
      s.slc_ways = r.integer(g["slc_ways"], "gpu.slc_ways", 1, 64);
      if (s.slc_ways & (s.slc_ways - 1))
        r.fail(g["slc_ways"], "gpu.slc_ways", fmt::format("{} is not a power of two (the SLC limits allocation to 1, 2, 4, ... ways)", s.slc_ways));
    }
  }
  if (root["camera"]) s.camera = r.camera(root["camera"], "camera", CameraSpec{});
  if (const YAML::Node l = root["light"]) {
    r.known_keys(l, "light", {"direction", "ambient"});
    LightSpec ls;
    if (l["direction"]) ls.direction = r.vec3(l["direction"], "light.direction");
    if (length(ls.direction) < 1e-9) r.fail(l["direction"], "light.direction", "the direction is zero");
    ls.direction = normalize(ls.direction);
    if (l["ambient"]) ls.ambient = r.number(l["ambient"], "light.ambient", 0, 1);
    s.light = ls;
  }
  if (const YAML::Node ms = root["meshes"]) {
    r.require_map(ms, "meshes");
    for (const auto& kv : ms) {
      const std::string name = r.key(kv.first, "meshes");
      s.meshes[name] = r.mesh(kv.second, "meshes." + name, name);
    }
  }
  if (const YAML::Node ts = root["textures"]) {
    r.require_map(ts, "textures");
    for (const auto& kv : ts) {
      const std::string name = r.key(kv.first, "textures");
      s.textures[name] = r.texture(kv.second, "textures." + name, name);
    }
  }
  if (const YAML::Node ts = root["targets"]) {
    r.require_map(ts, "targets");
    for (const auto& kv : ts) {
      const std::string name = r.key(kv.first, "targets");
      const std::string path = "targets." + name;
      if (name == kScreenTarget) r.fail(kv.first, path, "'screen' is the frame's own target and cannot be redefined");
      if (s.textures.count(name)) r.fail(kv.first, path, "a texture has the same name");
      r.known_keys(kv.second, path, {"width", "height"});
      TargetSpec t;
      t.name = name;
      t.loc = r.loc(kv.second, path);
      if (!kv.second["width"]) r.fail(kv.second, path + ".width", "missing");
      if (!kv.second["height"]) r.fail(kv.second, path + ".height", "missing");
      t.width = r.integer(kv.second["width"], path + ".width", 1, kMaxTargetSize);
      t.height = r.integer(kv.second["height"], path + ".height", 1, kMaxTargetSize);
      s.targets[name] = t;
    }
  }

  const YAML::Node ps = root["passes"];
  if (!ps) r.fail(root, "passes", "missing: a scene needs at least one render pass");
  if (!ps.IsSequence() || ps.size() == 0) r.fail(ps, "passes", "expected a non-empty list of render passes");
  struct NamedPass {
    std::size_t index;
    bool by_default;
  };
  std::map<std::string, NamedPass> pass_names;
  std::set<std::string> rendered;  // intermediate targets rendered by an earlier pass
  std::map<std::string, std::size_t> last_use;
  std::set<std::string> persistent;  // targets a frame loads before rendering them: never deleted
  bool screen = false;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    const YAML::Node p = ps[i];
    const std::string path = fmt::format("passes[{}]", i);
    r.known_keys(p, path,
                 {"name", "target", "color_load", "clear_color", "depth_load", "clear_depth", "depth_store", "depth",
                  "color_write", "cull", "camera", "draws"});
    PassSpec pass;
    pass.loc = r.loc(p, path);
    const bool named = p["name"].IsDefined();
    pass.name = named ? r.string(p["name"], path + ".name") : fmt::format("pass{}", i);
    if (const auto [it, fresh] = pass_names.try_emplace(pass.name, NamedPass{i, !named}); !fresh) {
      if (!named)
        r.fail(p, path, fmt::format("the pass has no name and its default name '{}' is passes[{}]'s name: give it a `name:`",
                                    pass.name, it->second.index));
      r.fail(p["name"], path + ".name",
             fmt::format("a pass named '{}' already exists (passes[{}]{})", pass.name, it->second.index,
                         it->second.by_default ? ", named by default" : ""));
    }
    if (p["target"]) {
      pass.target = r.string(p["target"], path + ".target");
      if (pass.target != kScreenTarget && !s.targets.count(pass.target))
        r.fail(p["target"], path + ".target", fmt::format("unknown target '{}' (not 'screen' and not in targets:)", pass.target));
    }
    const std::initializer_list<std::pair<const char*, LoadAction>> loads = {
        {"clear", LoadAction::Clear}, {"load", LoadAction::Load}, {"dont_care", LoadAction::DontCare}};
    if (p["color_load"]) pass.color_load = r.choice<LoadAction>(p["color_load"], path + ".color_load", loads);
    if (p["clear_color"]) pass.clear_color = r.color(p["clear_color"], path + ".clear_color");
    if (p["depth_load"]) pass.depth_load = r.choice<LoadAction>(p["depth_load"], path + ".depth_load", loads);
    if (p["clear_depth"]) pass.clear_depth = r.number(p["clear_depth"], path + ".clear_depth", 0, 1);
    if (p["depth_store"]) pass.depth_store = r.boolean(p["depth_store"], path + ".depth_store");
    if (const YAML::Node d = p["depth"]) {
      const std::string dp = path + ".depth";
      r.known_keys(d, dp, {"test", "write"});
      if (d["test"]) {
        const std::string t = r.string(d["test"], dp + ".test");
        if (t == "off") {
          pass.depth_test = false;
          pass.depth_func = DepthFunc::Always;
        } else {
          pass.depth_func = r.choice<DepthFunc>(d["test"], dp + ".test",
                                                {{"never", DepthFunc::Never}, {"less", DepthFunc::Less},
                                                 {"lequal", DepthFunc::LEqual}, {"always", DepthFunc::Always}, {"off", DepthFunc::Always}});
        }
      }
      if (d["write"]) pass.depth_write = r.boolean(d["write"], dp + ".write");
    }
    if (p["color_write"]) pass.color_write = r.boolean(p["color_write"], path + ".color_write");
    const std::initializer_list<std::pair<const char*, Cull>> culls = {
        {"none", Cull::None}, {"back", Cull::Back}, {"front", Cull::Front}};
    if (p["cull"]) pass.cull = r.choice<Cull>(p["cull"], path + ".cull", culls);
    if (p["camera"]) pass.camera = r.camera(p["camera"], path + ".camera", s.camera);

    const YAML::Node ds = p["draws"];
    if (!ds) r.fail(p, path + ".draws", "missing: a pass needs a list of draws (may be [])");
    if (!ds.IsSequence()) r.fail(ds, path + ".draws", "expected a list of draws");
    for (std::size_t k = 0; k < ds.size(); ++k) {
      const YAML::Node d = ds[k];
      const std::string dp = fmt::format("{}.draws[{}]", path, k);
      r.known_keys(d, dp,
                   {"mesh", "texture", "color", "position", "rotation", "scale", "spin", "velocity", "cull", "lit", "tess"});
      DrawSpec draw;
      draw.loc = r.loc(d, dp);
      if (!d["mesh"]) r.fail(d, dp + ".mesh", "missing");
      const YAML::Node mn = d["mesh"];
      if (mn.IsMap()) {  // inline mesh
        draw.mesh = dp + ".mesh";
        s.meshes[draw.mesh] = r.mesh(mn, dp + ".mesh", draw.mesh);
      } else {
        const std::string m = r.string(mn, dp + ".mesh");
        if (s.meshes.count(m)) {
          draw.mesh = m;
        } else if (has_mesh_extension(m)) {  // a file named in place
          draw.mesh = m;
          s.meshes[m] = r.mesh(mn, dp + ".mesh", m);
        } else {
          r.fail(mn, dp + ".mesh", fmt::format("unknown mesh '{}' (not in meshes: and not a file name)", m));
        }
      }
      if (d["texture"]) {
        const std::string t = r.string(d["texture"], dp + ".texture");
        if (s.targets.count(t)) {
          if (t == pass.target)
            r.fail(d["texture"], dp + ".texture", fmt::format("pass '{}' cannot sample the target it renders into", pass.name));
          if (!rendered.count(t))
            r.fail(d["texture"], dp + ".texture", fmt::format("target '{}' is read before any earlier pass renders it", t));
          const TargetSpec& ts = s.targets.at(t);
          if (!is_pow2(ts.width) || !is_pow2(ts.height))
            r.fail(d["texture"], dp + ".texture",
                   fmt::format("target '{}' is {}x{}: a sampled target needs power-of-two sizes", t, ts.width, ts.height));
          draw.texture_is_target = true;
          last_use[t] = i;
        } else if (s.textures.count(t)) {
          // ok
        } else if (has_mesh_extension(t)) {
          s.textures[t] = r.texture(d["texture"], dp + ".texture", t);
        } else {
          r.fail(d["texture"], dp + ".texture", fmt::format("unknown texture '{}' (not in textures: or targets:)", t));
        }
        draw.texture = t;
      }
      if (d["color"]) draw.color = r.color(d["color"], dp + ".color");
      if (d["position"]) draw.position = r.vec3(d["position"], dp + ".position");
      if (d["rotation"]) draw.rotation_deg = r.vec3(d["rotation"], dp + ".rotation", -3600, 3600);
      if (const YAML::Node sc = d["scale"]) {
        if (sc.IsScalar()) {
          const double v = r.number(sc, dp + ".scale", 1e-6, 1e6);
          draw.scale = {v, v, v};
        } else {
          draw.scale = r.vec3(sc, dp + ".scale", 1e-6, 1e6);
        }
      }
      if (d["spin"]) draw.spin_deg_per_frame = r.vec3(d["spin"], dp + ".spin", -360, 360);
      if (d["velocity"]) draw.velocity_per_frame = r.vec3(d["velocity"], dp + ".velocity");
      if (d["cull"]) draw.cull = r.choice<Cull>(d["cull"], dp + ".cull", culls);
      if (d["lit"]) draw.lit = r.boolean(d["lit"], dp + ".lit");
      const bool patches = is_patch_mesh(s.meshes.at(draw.mesh).kind);
      if (const YAML::Node t = d["tess"]) {
        if (!patches)
          r.fail(d["tess"], dp + ".tess",
                 fmt::format("mesh '{}' is not a patch mesh (generate: patch_grid or patch_tris): it has nothing to tessellate",
                             draw.mesh));
        draw.tess = r.tess(t, dp + ".tess");
      } else if (patches) {
        r.fail(d, dp + ".tess",
               fmt::format("missing: mesh '{}' is a patch mesh and its draw needs tessellation factors "
                           "(`tess: {{factor: N}}` or `tess: {{rule: distance, min: A, max: B, near: N, far: F}}`)",
                           draw.mesh));
      }
      pass.draws.push_back(std::move(draw));
    }
    // A target whose first pass in the frame loads it (color or depth) reads what the previous
    // frame left: it is live across the frame boundary and never deleted (docs/tessera-sim.md
    // "Render-target lifetimes"). In frame 0 that load reads memory nothing wrote.
    const bool first_use = pass.target == kScreenTarget ? !screen : !rendered.count(pass.target);
    if (first_use && (pass.color_load == LoadAction::Load || pass.depth_load == LoadAction::Load)) {
      persistent.insert(pass.target);
      s.warnings.push_back(fmt::format(
          "{}:{}:{}: {}: pass '{}' loads target '{}' before any pass of the frame renders it: frame 0 reads the "
          "target's initial contents (zero: transparent black, depth 0), later frames the previous frame's",
          s.file, pass.loc.line, pass.loc.column, path, pass.name, pass.target));
    }
    if (pass.target == kScreenTarget) {
      screen = true;
    } else {
      rendered.insert(pass.target);
      last_use[pass.target] = std::max(last_use[pass.target], i);
    }
    s.passes.push_back(std::move(pass));
  }
  if (!screen) r.fail(ps, "passes", "no pass renders the 'screen' target: the frame would have no picture");
  for (const auto& [name, pass] : last_use)
    if (!persistent.count(name)) s.passes[pass].delete_after.push_back(name);
  for (const auto& [name, t] : s.targets)
    if (!last_use.count(name)) r.fail(t.loc, "the target is never rendered by any pass");
  return s;
}

}  // namespace

Scene parse_scene(const std::string& text, const std::string& file_name, const std::string& base_dir) {
  try {
    return parse_checked(text, file_name, base_dir);
  } catch (const YAML::Exception& e) {
    // A backstop: every conversion goes through Reader's checked accessors, so this means one
    // was missed; the error still names the file and, where yaml-cpp knows it, the place.
    throw SceneError(file_name, e.mark.line >= 0 ? static_cast<unsigned>(e.mark.line + 1) : 1,
                     e.mark.column >= 0 ? static_cast<unsigned>(e.mark.column + 1) : 1, "",
                     fmt::format("unexpected YAML error: {}", e.msg));
  }
}

Scene load_scene(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw SceneError(path, 0, 0, "", "is a directory, not a scene file");
  std::ifstream in(path);
  if (!in) throw SceneError(path, 0, 0, "", std::filesystem::exists(path) ? "cannot read the file" : "file not found");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_scene(ss.str(), path, std::filesystem::path(path).parent_path().string());
}

LoadedScene load_assets(Scene scene) {
  LoadedScene out;
  const std::string file = scene.file;
  for (const auto& [name, m] : scene.meshes) {
    try {
      switch (m.kind) {
        case MeshKind::File: out.meshes[name] = load_mesh_file(m.path); break;
        case MeshKind::Cube: out.meshes[name] = make_cube(m.size); break;
        case MeshKind::Grid: out.meshes[name] = make_grid(m.size, m.divisions); break;
        case MeshKind::PatchGrid: out.meshes[name] = make_patch_grid(m.size, m.divisions); break;
        case MeshKind::PatchTris: out.meshes[name] = make_patch_tris(m.size, m.divisions); break;
        case MeshKind::Sphere: out.meshes[name] = make_sphere(m.radius, m.segments, m.rings); break;
        case MeshKind::Torus: out.meshes[name] = make_torus(m.major, m.minor, m.segments, m.sides); break;
      }
    } catch (const MeshError& e) {
      throw SceneError(file, m.loc.line, m.loc.column, m.loc.field, fmt::format("file '{}' {}", m.file, e.what()));
    }
  }
  for (const auto& [name, t] : scene.textures) {
    Texture tex;
    try {
      tex = load_texture_file(t.path);
    } catch (const TextureError& e) {
      throw SceneError(file, t.loc.line, t.loc.column, t.loc.field, fmt::format("file '{}' {}", t.file, e.what()));
    }
    if (!is_pow2(tex.width) || !is_pow2(tex.height) || tex.width > kMaxTargetSize || tex.height > kMaxTargetSize)
      throw SceneError(file, t.loc.line, t.loc.column, t.loc.field,
                       fmt::format("file '{}' is {}x{}: the sampler takes power-of-two sizes 1..2048", t.file, tex.width,
                                   tex.height));
    out.textures[name] = std::move(tex);
  }
  out.scene = std::move(scene);
  return out;
}

}  // namespace tessera::sim
