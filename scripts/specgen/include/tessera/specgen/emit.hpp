// Emitters: a validated Spec in, file contents out. Each emitter also checks that the
// identifiers it generates are unique (two spec names can join into the same generated name,
// e.g. register CTRL field 'rw' and the register's own TS_<BLOCK>_CTRL_RW_MASK), reporting a
// collision against the spec elements that produced it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "tessera/specgen/diagnostics.hpp"
#include "tessera/specgen/model.hpp"

namespace tessera::specgen {

inline constexpr const char* kSvPackageName = "tessera_spec_pkg";
inline constexpr const char* kSvPackageFile = "tessera_spec_pkg.sv";
inline constexpr const char* kCHeaderFile = "tessera_spec.h";
inline constexpr const char* kPacketsMdFile = "packets.md";
inline constexpr const char* kRegistersMdFile = "registers.md";

std::string emit_sv_package(const Spec& spec, Diagnostics& diag);
std::string emit_c_header(const Spec& spec, Diagnostics& diag);
std::string emit_packets_md(const Spec& spec);    // only meaningful with a packets file
std::string emit_registers_md(const Spec& spec);  // only meaningful with register files

struct OutputDirs {
  std::filesystem::path sv;  // empty: not generated
  std::filesystem::path c;
  std::filesystem::path md;
};

struct OutputFile {
  std::filesystem::path path;
  std::string content;
};

// Everything `dirs` asks for, in memory; empty with errors in `diag` if any emitter failed.
std::vector<OutputFile> generate(const Spec& spec, const OutputDirs& dirs, Diagnostics& diag);

// Writes `content` unless the file already holds exactly that, so an unchanged spec leaves
// timestamps alone and a reconfigure does not rebuild every RTL model and firmware object.
// Returns true if the file was written. Throws std::runtime_error on I/O failure.
bool write_if_changed(const std::filesystem::path& path, const std::string& content);

}  // namespace tessera::specgen
