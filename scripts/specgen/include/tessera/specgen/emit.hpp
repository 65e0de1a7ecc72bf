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
inline constexpr const char* kCppLayoutsFile = "tessera_layouts.hpp";
inline constexpr const char* kLayoutsMdFile = "layouts.md";

std::string emit_sv_package(const Spec& spec, Diagnostics& diag);
std::string emit_c_header(const Spec& spec, Diagnostics& diag);
std::string emit_packets_md(const Spec& spec);    // only meaningful with a packets file
std::string emit_registers_md(const Spec& spec);  // only meaningful with register files

// Register tops (docs/spec-generator.md, "Register tops"): per block, <block>_reg_pkg.sv with
// the reg2hw / hw2reg structs and <block>_reg_top.sv, the module that decodes the bus.
std::string regtop_module_name(const Block& b);   // geom_reg_top
std::string regtop_package_name(const Block& b);  // geom_reg_pkg
std::string emit_regtop_package(const Block& b);
std::string emit_regtop_module(const Block& b);

// One member of a register top's reg2hw or hw2reg struct and its bits in the packed struct,
// for benches that drive a verilated register top from the spec.
struct RegtopMember {
  // Value: a stored or write-only field (reg2hw) or a read-only field's value (hw2reg);
  // Set: a w1c field's hardware set (hw2reg); Qe / Re: strobes (reg2hw); Werr (hw2reg).
  // De / D: a hardware write of a stored field (hw_write); Wd: the written word (write_strobe).
  // Pend (reg2hw) / Wait (hw2reg): a `wait` register's access presented / held; Rerr (hw2reg).
  enum class Kind { Value, Set, Qe, Re, Werr, De, D, Wd, Pend, Wait, Rerr };
  const Register* reg = nullptr;
  const RegisterArray* array = nullptr;  // null for a plain register
  const Field* field = nullptr;          // null for Qe, Re, Werr
  Kind kind = Kind::Value;
  std::string id;      // the register's struct member: "cull", "slice_subbatches"
  std::string member;  // a field name, "<field>_set", "qe", "re" or "werr"
  unsigned lsb = 0;    // in the whole reg2hw / hw2reg vector
  unsigned width = 0;  // all instances: count * the field's width
  unsigned count = 1;  // instances (array count)
};
std::vector<RegtopMember> regtop_layout(const Block& b, bool reg2hw);

// Layouts (spec/layouts.yaml) and packet payload structs (docs/spec-generator.md, "Layouts").
// emit_sv_layouts is the section output.cpp adds to tessera_spec_pkg (package_text: the rest of
// the package, to report name clashes with it); a package named by a layout's sv_package
// `includes emit_sv_layout_fragment's <package>_layouts.svh.
std::string layout_sv_type(const Layout& l);  // ts_mem_req_t
std::string emit_sv_layouts(const Spec& spec, const std::string& package_text, Diagnostics& diag);
std::vector<std::string> layout_sv_packages(const Spec& spec);
std::string emit_sv_layout_fragment(const Spec& spec, const std::string& package);
std::string emit_cpp_layouts(const Spec& spec, Diagnostics& diag);
std::string emit_layouts_md(const Spec& spec);

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
