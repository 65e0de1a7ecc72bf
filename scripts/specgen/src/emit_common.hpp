// Helpers shared by the emitters: generated names, literals, comment text, collision checks.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tessera/specgen/diagnostics.hpp"
#include "tessera/specgen/model.hpp"

namespace tessera::specgen::detail {

std::string upper(std::string s);

// Generated-name prefixes; the same names in SV and C so RTL and firmware read alike.
std::string opcode_name(const Packet& p);                  // TS_OP_DRAW
std::string packet_prefix(const Packet& p);                // TS_PKT_DRAW
std::string packet_field_prefix(const Packet& p, const Field& f);  // TS_PKT_DRAW_COUNT
std::string header_flag_prefix(const Packet& p, const Field& f);   // TS_PKT_FENCE_FLAG_IRQ
std::string enum_value_name(const Enum& e, const EnumValue& v);    // TS_TOPOLOGY_TRI_LIST
std::string enum_type_name(const Enum& e);                 // ts_topology_e
std::string block_prefix(const Block& b);                  // TS_CP
std::string register_prefix(const Block& b, const Register& r);  // TS_CP_CTRL
std::string array_prefix(const Block& b, const RegisterArray& a);  // TS_CP_QUEUE
inline constexpr const char* kHeaderPrefix = "TS_PKT_HDR";

// Whitespace (including YAML line breaks) collapsed to single spaces.
std::string one_line(const std::string& text);
// `text` as lines of at most `width` characters (words are never split).
std::vector<std::string> wrap(const std::string& text, std::size_t width);
// The first sentence of a description, for one-line comments.
std::string first_sentence(const std::string& text);

// "0x0000_0100"-style hex with digits for `width` bits and '_' every 4 digits (SV).
std::string sv_hex(uint64_t value, unsigned width);
// "0x00000100u": at least `digits` hex digits, unsigned suffix (C).
std::string c_hex(uint64_t value, unsigned digits);

unsigned clog2(uint64_t v);

// SystemVerilog keywords and the C++ words Verilator -Wall refuses as names (SYMRSVDWORD): a
// spec name that is one gets a suffix in the generated code (register tops, layouts).
bool sv_reserved(const std::string& name);

// "5 payload dwords", "1 payload dword", "2..65535 payload dwords".
std::string payload_text(const Packet& p);

// Generated identifiers of one output file; a second use of a name is an error naming both
// spec elements (a spec can be valid element by element and still generate a clash).
class NameTable {
 public:
  NameTable(Diagnostics& diag, std::string output) : diag_(diag), output_(std::move(output)) {}
  void add(const std::string& name, const Where& origin);

 private:
  Diagnostics& diag_;
  std::string output_;
  std::map<std::string, Where> names_;
};

// Lines "lhs rhs // comment" with rhs and comments aligned within one group, so a block of
// localparams or #defines reads as a table.
class AlignedBlock {
 public:
  void add(std::string lhs, std::string rhs, std::string comment = {});
  // Renders with `indent`, "<lhs> <rhs>" (rhs padded to align) and `open`comment`close`.
  std::string render(const std::string& indent, const std::string& open,
                     const std::string& close) const;
  bool empty() const { return rows_.empty(); }

 private:
  struct Row {
    std::string lhs, rhs, comment;
  };
  std::vector<Row> rows_;
};

}  // namespace tessera::specgen::detail
