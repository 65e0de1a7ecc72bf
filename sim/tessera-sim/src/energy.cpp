#include "tessera/sim/energy.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <stdexcept>

namespace tessera::sim {

namespace {
[[noreturn]] void fail(const std::string& file, const YAML::Node& n, const std::string& key, const std::string& msg) {
  const YAML::Mark m = n.Mark();
  throw std::runtime_error(fmt::format("{}:{}:{}: {}: {}", file, m.line + 1, m.column + 1, key, msg));
}
}  // namespace

EnergyConfig load_energy_config(const std::string& path) {
  std::error_code ec;
  // yaml-cpp opens a directory without complaint and reads it as an empty document.
  if (std::filesystem::is_directory(path, ec))
    throw std::runtime_error(fmt::format("{}:0:0: is a directory, not a file of energy constants", path));
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw std::runtime_error(fmt::format("{}:0:0: cannot read the energy configuration", path));
  } catch (const YAML::ParserException& e) {
    throw std::runtime_error(fmt::format("{}:{}:{}: malformed YAML: {}", path, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  if (!root.IsMap()) throw std::runtime_error(fmt::format("{}:1:1: expected a map of constants", path));
  EnergyConfig c;
  c.source = path;
  const std::pair<const char*, double*> keys[] = {{"dram_pj_per_byte", &c.dram_pj_per_byte},
                                                  {"slc_pj_per_access", &c.slc_pj_per_access},
                                                  {"cche_pj_per_access", &c.cche_pj_per_access},
                                                  {"gmem_pj_per_access", &c.gmem_pj_per_access},
                                                  {"slice_pj_per_active_cycle", &c.slice_pj_per_active_cycle}};
  std::map<std::string, int> first_line;
  for (const auto& kv : root) {
    if (!kv.first.IsScalar()) fail(path, kv.first, "(key)", "a key must be a name, not a list or map");
    const std::string k = kv.first.Scalar();
    // yaml-cpp 0.7 keeps both entries of a repeated key: the later one would silently win.
    if (const auto [it, fresh] = first_line.try_emplace(k, kv.first.Mark().line + 1); !fresh)
      fail(path, kv.first, k, fmt::format("the key is repeated (first on line {})", it->second));
    bool known = k == "sources";
    for (const auto& [name, dst] : keys) {
      if (k != name) continue;
      known = true;
      if (kv.second.IsMap() && !kv.second["value"]) fail(path, kv.second, k, "missing value");
      const YAML::Node v = kv.second.IsMap() ? kv.second["value"] : kv.second;
      double d = 0;
      try {
        d = v.as<double>();
      } catch (const YAML::Exception&) {
        fail(path, v, k, "expected a number (picojoules) or {value: N, source: ...}");
      }
      if (!std::isfinite(d) || d < 0) fail(path, v, k, "must be a finite number >= 0");
      *dst = d;
    }
    if (!known) fail(path, kv.first, k, "unknown key");
  }
  for (const auto& [name, dst] : keys)
    if (!root[name]) fail(path, root, name, "missing");
  return c;
}

EnergyEstimate estimate_energy(const EnergyConfig& cfg, const EnergyInputs& in) {
  EnergyEstimate e;
  auto term = [&](const std::optional<double>& count, double k, std::optional<double>& out, const char* name) {
    if (count) {
      out = *count * k;
      e.total_pj += *out;
    } else {
      e.missing.emplace_back(name);
    }
  };
  term(in.dram_bytes, cfg.dram_pj_per_byte, e.dram_pj, "dram");
  term(in.slc_accesses, cfg.slc_pj_per_access, e.slc_pj, "slc");
  term(in.cche_accesses, cfg.cche_pj_per_access, e.cche_pj, "cche");
  term(in.gmem_accesses, cfg.gmem_pj_per_access, e.gmem_pj, "gmem");
  term(in.active_slice_cycles, cfg.slice_pj_per_active_cycle, e.slice_pj, "slice_cycles");
  return e;
}

}  // namespace tessera::sim
