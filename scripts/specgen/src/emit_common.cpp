#include "emit_common.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <sstream>

namespace tessera::specgen::detail {

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

std::string opcode_name(const Packet& p) { return "TS_OP_" + p.name; }
std::string packet_prefix(const Packet& p) { return "TS_PKT_" + p.name; }
std::string packet_field_prefix(const Packet& p, const Field& f) {
  return packet_prefix(p) + "_" + upper(f.name);
}
std::string header_flag_prefix(const Packet& p, const Field& f) {
  return packet_prefix(p) + "_FLAG_" + upper(f.name);
}
std::string enum_value_name(const Enum& e, const EnumValue& v) {
  return "TS_" + upper(e.name) + "_" + v.name;
}
std::string enum_type_name(const Enum& e) { return "ts_" + e.name + "_e"; }
std::string block_prefix(const Block& b) { return "TS_" + b.name; }
std::string register_prefix(const Block& b, const Register& r) {
  return block_prefix(b) + "_" + r.name;
}
std::string array_prefix(const Block& b, const RegisterArray& a) {
  return block_prefix(b) + "_" + a.name;
}

std::string one_line(const std::string& text) {
  std::istringstream in(text);
  std::string word;
  std::string out;
  while (in >> word) {
    if (!out.empty()) out += ' ';
    out += word;
  }
  return out;
}

std::vector<std::string> wrap(const std::string& text, std::size_t width) {
  std::istringstream in(text);
  std::string word;
  std::vector<std::string> lines;
  std::string line;
  while (in >> word) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      lines.push_back(line);
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += word;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

std::string first_sentence(const std::string& text) {
  const std::string s = one_line(text);
  const auto dot = s.find(". ");
  return dot == std::string::npos ? s : s.substr(0, dot + 1);
}

std::string sv_hex(uint64_t value, unsigned width) {
  const unsigned digits = std::max(1u, (width + 3) / 4);
  std::string hex = fmt::format("{:0{}x}", value, digits);
  std::string out;
  for (std::size_t i = 0; i < hex.size(); ++i) {
    if (i != 0 && (hex.size() - i) % 4 == 0) out += '_';
    out += hex[i];
  }
  return out;
}

std::string c_hex(uint64_t value, unsigned digits) { return fmt::format("0x{:0{}x}u", value, digits); }

std::string payload_text(const Packet& p) {
  if (p.variable) return fmt::format("{}..{} payload dwords", p.min_length, p.max_length);
  return fmt::format("{} payload dword{}", p.max_length, p.max_length == 1 ? "" : "s");
}

unsigned clog2(uint64_t v) {
  unsigned w = 0;
  while ((uint64_t{1} << w) < v) ++w;
  return w;
}

void NameTable::add(const std::string& name, const Where& origin) {
  auto [it, fresh] = names_.emplace(name, origin);
  if (!fresh) {
    diag_.error(origin, fmt::format("generates {} name '{}', which {}:{}:{} ({}) also generates; "
                                    "rename one of them",
                                    output_, name, it->second.loc.file, it->second.loc.line,
                                    it->second.loc.column, it->second.path));
  }
}

void AlignedBlock::add(std::string lhs, std::string rhs, std::string comment) {
  rows_.push_back(Row{std::move(lhs), std::move(rhs), std::move(comment)});
}

std::string AlignedBlock::render(const std::string& indent, const std::string& open,
                                 const std::string& close) const {
  std::size_t lw = 0;
  std::size_t rw = 0;
  for (const auto& r : rows_) {
    lw = std::max(lw, r.lhs.size());
    // Only rows carrying a comment set the comment column: one long macro body without a
    // comment should not push every comment off to the right.
    if (!r.comment.empty()) rw = std::max(rw, r.rhs.size());
  }
  std::string out;
  for (const auto& r : rows_) {
    std::string line = fmt::format("{}{:<{}} {}", indent, r.lhs, lw, r.rhs);
    if (!r.comment.empty()) {
      line += std::string(rw - std::min(rw, r.rhs.size()), ' ');
      line += fmt::format("  {}{}{}", open, r.comment, close);
    }
    // Trailing blanks would show up as diff noise in generated files.
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + '\n';
  }
  return out;
}

// SystemVerilog keywords a spec name could collide with (a register CONFIG, a field 'dist'),
// and the C++ words Verilator refuses in names.
bool sv_reserved(const std::string& n) {
  static const char* const kw[] = {
      "alias", "always", "and", "assert", "assign", "assume", "automatic", "before", "begin", "bind",
      "bins", "binsof", "bit", "break", "buf", "byte", "case", "casex", "casez", "cell", "chandle",
      "checker", "class", "clocking", "cmos", "config", "const", "constraint", "context", "continue",
      "cover", "covergroup", "coverpoint", "cross", "deassign", "default", "defparam", "design",
      "disable", "dist", "do", "edge", "else", "end", "endcase", "enum", "event", "eventually",
      "expect", "export", "extends", "extern", "final", "for", "force", "foreach", "forever", "fork",
      "function", "generate", "genvar", "global", "highz0", "highz1", "if", "iff", "ifnone",
      "ignore_bins", "illegal_bins", "implements", "implies", "import", "include", "initial", "inout",
      "input", "inside", "instance", "int", "integer", "interconnect", "interface", "intersect",
      "join", "large", "let", "liblist", "library", "local", "localparam", "logic", "longint",
      "macromodule", "matches", "medium", "modport", "module", "nand", "negedge", "nettype", "new",
      "nexttime", "nmos", "nor", "not", "null", "or", "output", "package", "packed", "parameter",
      "pmos", "posedge", "primitive", "priority", "program", "property", "protected", "pull0",
      "pull1", "pulldown", "pullup", "pure", "rand", "randc", "randcase", "randsequence", "rcmos",
      "real", "realtime", "ref", "reg", "reject_on", "release", "repeat", "restrict", "return",
      "rnmos", "rpmos", "rtran", "s_always", "scalared", "sequence", "shortint", "shortreal",
      "showcancelled", "signed", "small", "soft", "solve", "specify", "specparam", "static",
      "string", "strong", "strong0", "strong1", "struct", "super", "supply0", "supply1", "table",
      "tagged", "task", "this", "throughout", "time", "timeprecision", "timeunit", "tran", "tranif0",
      "tranif1", "tri", "tri0", "tri1", "triand", "trior", "trireg", "type", "typedef", "union",
      "unique", "unique0", "unsigned", "until", "untyped", "use", "uwire", "var", "vectored",
      "virtual", "void", "wait", "wand", "weak", "while", "wildcard", "wire", "with", "within",
      "wor", "xnor", "xor",
      // C++ words Verilator -Wall refuses as names (SYMRSVDWORD)
      "asm", "auto", "bool", "catch", "char", "delete", "double", "explicit", "float", "friend",
      "goto", "inline", "long", "mutable", "namespace", "operator", "private", "public", "queue",
      "short", "sizeof", "switch", "template", "throw", "try", "typename", "volatile", "deque",
      "vector", "list", "map", "stack"};
  for (const char* k : kw) {
    if (n == k) return true;
  }
  return false;
}

}  // namespace tessera::specgen::detail
