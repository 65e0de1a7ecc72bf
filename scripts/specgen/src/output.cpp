#include <fmt/format.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "tessera/specgen/emit.hpp"

namespace tessera::specgen {

std::vector<OutputFile> generate(const Spec& spec, const OutputDirs& dirs, Diagnostics& diag) {
  std::vector<OutputFile> files;
  // Both code emitters always run: their name checks are part of validating the spec, even
  // when only one of the outputs is wanted.
  std::string sv = emit_sv_package(spec, diag);
  std::string c = emit_c_header(spec, diag);
  // The layout section goes at the end of tessera_spec_pkg, inside its UNUSEDPARAM waiver.
  const bool layouts = !spec.layouts_file.empty();
  if (layouts) {
    const std::string tail = "\n  /* verilator lint_on UNUSEDPARAM */\n\nendpackage";
    const std::size_t at = sv.rfind(tail);
    if (at != std::string::npos) sv.insert(at, emit_sv_layouts(spec, sv, diag));
  }
  std::string cpp = layouts ? emit_cpp_layouts(spec, diag) : std::string{};
  if (!diag.ok()) return {};
  if (!dirs.sv.empty()) files.push_back({dirs.sv / kSvPackageFile, std::move(sv)});
  if (!dirs.c.empty()) files.push_back({dirs.c / kCHeaderFile, std::move(c)});
  if (layouts && !dirs.c.empty()) files.push_back({dirs.c / kCppLayoutsFile, std::move(cpp)});
  if (layouts && !dirs.sv.empty()) {
    for (const auto& pkg : layout_sv_packages(spec)) {
      files.push_back({dirs.sv / (pkg + "_layouts.svh"), emit_sv_layout_fragment(spec, pkg)});
    }
  }
  if (layouts && !dirs.md.empty()) files.push_back({dirs.md / kLayoutsMdFile, emit_layouts_md(spec)});
  if (!dirs.sv.empty()) {
    for (const auto& b : spec.blocks) {
      files.push_back({dirs.sv / (regtop_package_name(b) + ".sv"), emit_regtop_package(b)});
      files.push_back({dirs.sv / (regtop_module_name(b) + ".sv"), emit_regtop_module(b)});
    }
  }
  if (!dirs.md.empty()) {
    if (!spec.packets_file.empty()) files.push_back({dirs.md / kPacketsMdFile, emit_packets_md(spec)});
    if (!spec.register_files.empty()) {
      // The layouts' enums are documented in layouts.md, with the layouts that hold them.
      Spec registers_only = spec;
      std::erase_if(registers_only.enums, [&](const Enum& e) { return layouts && e.file == spec.layouts_file; });
      files.push_back({dirs.md / kRegistersMdFile, emit_registers_md(registers_only)});
    }
  }
  return files;
}

bool write_if_changed(const std::filesystem::path& path, const std::string& content) {
  {
    std::ifstream in(path, std::ios::binary);
    if (in) {
      std::ostringstream old;
      old << in.rdbuf();
      if (old.str() == content) return false;
    }
  }
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) {
    throw std::runtime_error(
        fmt::format("cannot create directory {}: {}", path.parent_path().string(), ec.message()));
  }
  // Write a sibling and rename it over the target, so a reader (a parallel build step) never
  // sees a half-written file.
  std::filesystem::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << content;
    if (!out) throw std::runtime_error(fmt::format("cannot write {}", tmp.string()));
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    throw std::runtime_error(fmt::format("cannot rename {} to {}: {}", tmp.string(), path.string(),
                                         ec.message()));
  }
  return true;
}

}  // namespace tessera::specgen
