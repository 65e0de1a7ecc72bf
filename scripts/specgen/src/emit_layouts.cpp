// Layouts (spec/layouts.yaml) and packet payload structs: SystemVerilog packed structs in
// tessera_spec_pkg and in the fragments hand-written packages `include, a header-only C++
// header with structs and pack/unpack, and the Markdown reference (docs/spec-generator.md,
// "Layouts").
//
// A layout's fields are listed from bit 0 upwards (as packet dwords are: dword 0 first), so a
// packed SV struct, whose first member is the most significant, lists them in reverse. Yosys
// 0.23 refers to no other package from inside a package and rejects $bits of a type there:
// every width is a localparam, and a fragment repeats the enum types its structs hold.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <unordered_set>

#include "emit_common.hpp"
#include "tessera/specgen/emit.hpp"

namespace tessera::specgen {

using namespace detail;

namespace {

std::string camel(const std::string& snake) {
  std::string out;
  bool up = true;
  for (char c : snake) {
    if (c == '_') {
      up = true;
      continue;
    }
    out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  return out;
}

// SystemVerilog keywords (a stats field 'bins', a packet field 'ref') and the C++ words
// Verilator refuses (sv_reserved, shared with the register tops), the rest of C++'s keywords
// and the generated C++ members: a field named so gets the suffix "_f" in SV and C++ alike, as
// a register-top field does.
std::string member_name(const std::string& name) {
  // the rest of C++'s keywords, and the generated methods
  static const std::set<std::string> kCpp = {
      "alignas", "alignof", "class", "const_cast", "constexpr", "decltype", "dynamic_cast",
      "noexcept", "nullptr", "reinterpret_cast", "static_assert", "static_cast", "thread_local",
      "typeid", "using", "wchar_t", "pack", "unpack"};
  return sv_reserved(name) || kCpp.count(name) ? name + "_f" : name;
}

// A packet's fixed payload as a layout: its fields at dword*32 + lsb, reserved bits between.
Layout payload_layout(const Packet& p) {
  Layout l;
  l.name = "pkt_" + [&] {
    std::string s = p.name;
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
  }();
  l.description = p.description;
  l.origin = p.origin;
  std::vector<Field> fields = p.fields;
  for (auto& f : fields) {
    const unsigned base = static_cast<unsigned>(f.dword) * 32;
    f.bits = BitRange{base + f.bits.lsb, base + f.bits.msb};
  }
  std::sort(fields.begin(), fields.end(),
            [](const Field& a, const Field& b) { return a.bits.lsb < b.bits.lsb; });
  const unsigned total = static_cast<unsigned>(p.min_length) * 32;
  unsigned next = 0;
  auto pad = [&](unsigned upto) {
    if (upto <= next) return;
    Field r;
    r.name = fmt::format("rsvd{}", next);
    r.description = "Reserved: 0.";
    r.reserved = true;
    r.bits = BitRange{next, upto - 1};
    r.origin = p.origin;
    l.fields.push_back(std::move(r));
  };
  for (auto& f : fields) {
    pad(f.bits.lsb);
    next = f.bits.msb + 1;
    l.fields.push_back(std::move(f));
  }
  pad(total);
  return l;
}

// Every layout the outputs describe: spec/layouts.yaml's, then one per fixed-length packet
// with a payload.
std::vector<Layout> all_layouts(const Spec& s) {
  std::vector<Layout> out = s.layouts;
  for (const auto& p : s.packets) {
    if (!p.variable && p.min_length > 0) out.push_back(payload_layout(p));
  }
  return out;
}

bool is_payload(const Layout& l) { return l.name.rfind("pkt_", 0) == 0; }

// Signed fields stay plain `logic` in SV: the RTL states its arithmetic with $signed where it
// computes, and a signed member would change the signedness of every expression using it.
std::string sv_vec(unsigned width) {
  return width == 1 ? "logic" : fmt::format("logic [{}:0]", width - 1);
}

std::string sv_member_comment(const Field& f) {
  return fmt::format("{} {}", f.bits.str(), first_sentence(f.description));
}

// One packed struct, members most significant first. `enum_type` names a field's enum type.
template <class EnumType>
std::string sv_struct(const Layout& l, const std::string& type_name, EnumType enum_type,
                      const std::string& indent) {
  std::string out;
  for (const auto& line : wrap(fmt::format("{}: {}", l.name, one_line(l.description)), 94)) {
    out += indent + "// " + line + "\n";
  }
  out += indent + "typedef struct packed {\n";
  AlignedBlock blk;
  for (auto it = l.fields.rbegin(); it != l.fields.rend(); ++it) {
    const Field& f = *it;
    const std::string type =
        f.enum_name.empty() ? sv_vec(f.bits.width()) : enum_type(f.enum_name);
    blk.add(type, member_name(f.name) + ";", sv_member_comment(f));
  }
  out += blk.render(indent + "  ", "// ", "");
  out += fmt::format("{}}} {};\n", indent, type_name);
  return out;
}

}  // namespace

std::string layout_sv_type(const Layout& l) { return fmt::format("ts_{}_t", l.name); }

namespace {
// Every maximal run of identifier characters ([A-Za-z0-9_]) in text: a name occurs in text as a
// whole word exactly when it is one of these runs.
std::unordered_set<std::string> words_of(const std::string& text) {
  std::unordered_set<std::string> words;
  auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t i = 0; i < text.size();) {
    if (!is_word(text[i])) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && is_word(text[end])) ++end;
    words.emplace(text, i, end - i);
    i = end;
  }
  return words;
}
}  // namespace

std::string emit_sv_layouts(const Spec& spec, const std::string& package_text, Diagnostics& diag) {
  NameTable names(diag, "SystemVerilog");
  std::vector<std::pair<std::string, Where>> generated;
  std::string out = "\n  // ==== Layouts (spec/layouts.yaml) and packet payloads (spec/packets.yaml) ====\n"
                    "  // Fields listed from bit 0 up in the YAML: the first struct member here is the\n"
                    "  // most significant. Packet payloads: dword 0 in bits 31:0.\n";
  for (const Layout& l : all_layouts(spec)) {
    const std::string pfx = "TS_" + upper(l.name);
    out += "\n";
    out += sv_struct(l, layout_sv_type(l), [&](const std::string& e) { return "ts_" + e + "_e"; },
                     "  ");
    generated.emplace_back(layout_sv_type(l), l.origin.where);
    AlignedBlock blk;
    blk.add(fmt::format("localparam int unsigned {}_W", pfx), fmt::format("= {};", l.total_width()),
            "bits of the whole layout");
    generated.emplace_back(pfx + "_W", l.origin.where);
    // Packet fields already have TS_PKT_<P>_<F>_LSB within their dword.
    if (!is_payload(l)) {
      for (const auto& f : l.fields) {
        if (f.reserved) continue;
        const std::string fp = pfx + "_" + upper(f.name);
        blk.add(fmt::format("localparam int unsigned {}_LSB", fp), fmt::format("= {};", f.bits.lsb));
        blk.add(fmt::format("localparam int unsigned {}_WIDTH", fp),
                fmt::format("= {};", f.bits.width()));
        generated.emplace_back(fp + "_LSB", f.origin.where);
        generated.emplace_back(fp + "_WIDTH", f.origin.where);
      }
    }
    out += blk.render("  ", "// ", "");
  }
  // A layout name can join into a name the rest of the package already declares
  // (layout 'cp_ctrl' field 'x' vs register CP.CTRL field 'x'). The package's words are
  // collected once: a std::regex per name took 3 of the generator's 3.5 s.
  const std::unordered_set<std::string> package_words = words_of(package_text);
  for (const auto& [name, where] : generated) {
    names.add(name, where);
    if (package_words.contains(name)) {
      diag.error(where, fmt::format("generates SystemVerilog name '{}', which the register or "
                                    "packet part of {} already declares; rename the layout",
                                    name, kSvPackageFile));
    }
  }
  return out;
}

std::vector<std::string> layout_sv_packages(const Spec& spec) {
  std::vector<std::string> out;
  for (const auto& l : spec.layouts) {
    if (!l.sv_package.empty() && std::find(out.begin(), out.end(), l.sv_package) == out.end()) {
      out.push_back(l.sv_package);
    }
  }
  return out;
}

std::string emit_sv_layout_fragment(const Spec& spec, const std::string& package) {
  std::string out = fmt::format(
      "// {}_layouts.svh -- generated by tessera-specgen from {}.\n"
      "// Do not edit: change the YAML (docs/spec-generator.md, \"Layouts\").\n"
      "//\n"
      "// `included inside package {}, which owns these types: Yosys 0.23 cannot refer to\n"
      "// another package from a package, so the enum types the structs hold are repeated here\n"
      "// (tessera_spec_pkg has the same layouts as ts_<name>_t).\n",
      package, spec.layouts_file, package);
  std::vector<std::string> enums;
  for (const auto& l : spec.layouts) {
    if (l.sv_package != package) continue;
    for (const auto& f : l.fields) {
      if (!f.enum_name.empty() && std::find(enums.begin(), enums.end(), f.enum_name) == enums.end()) {
        enums.push_back(f.enum_name);
      }
    }
  }
  for (const auto& name : enums) {
    const Enum& e = *spec.find_enum(name);
    out += fmt::format("\n// {}: {}\n", e.name, first_sentence(e.description));
    AlignedBlock blk;
    for (std::size_t i = 0; i < e.values.size(); ++i) {
      const auto& v = e.values[i];
      blk.add(upper(e.name) + "_" + v.name,
              fmt::format("= {}'d{}{}", e.resolved_width, v.value, i + 1 == e.values.size() ? "" : ","),
              first_sentence(v.description));
    }
    out += fmt::format("typedef enum logic [{}:0] {{\n", e.resolved_width - 1);
    out += blk.render("  ", "// ", "");
    out += fmt::format("}} {}_e;\n", e.name);
  }
  for (const auto& l : spec.layouts) {
    if (l.sv_package != package) continue;
    out += "\n";
    out += sv_struct(l, l.name + "_t", [](const std::string& e) { return e + "_e"; }, "");
    AlignedBlock blk;
    blk.add(fmt::format("localparam int unsigned {}_W", upper(l.name)),
            fmt::format("= {};", l.total_width()), fmt::format("bits of {}_t", l.name));
    for (const auto& f : l.fields) {
      if (f.reserved) continue;
      const std::string fp = upper(l.name) + "_" + upper(f.name);
      blk.add(fmt::format("localparam int unsigned {}_LSB", fp), fmt::format("= {};", f.bits.lsb));
      blk.add(fmt::format("localparam int unsigned {}_WIDTH", fp), fmt::format("= {};", f.bits.width()));
    }
    out += blk.render("", "// ", "");
  }
  return out;
}

// ---- C++ -------------------------------------------------------------------------------------

namespace {

std::string cpp_type(const Field& f) {
  const unsigned w = f.bits.width();
  if (w == 1 && !f.is_signed && f.enum_name.empty()) return "bool";
  if (w <= 64) {
    const unsigned bytes = w <= 8 ? 8 : w <= 16 ? 16 : w <= 32 ? 32 : 64;
    return fmt::format("std::{}int{}_t", f.is_signed ? "" : "u", bytes);
  }
  if (w % 8 == 0) return fmt::format("std::array<std::uint8_t, {}>", w / 8);
  return fmt::format("std::array<std::uint32_t, {}>", (w + 31) / 32);
}

std::string cpp_struct_name(const Layout& l) {
  return is_payload(l) ? camel(l.name.substr(4)) + "Payload" : camel(l.name);
}

}  // namespace

std::string emit_cpp_layouts(const Spec& spec, Diagnostics& diag) {
  NameTable names(diag, "C++");
  std::vector<std::string> sources;
  if (!spec.layouts_file.empty()) sources.push_back(spec.layouts_file);
  if (!spec.packets_file.empty()) sources.push_back(spec.packets_file);
  std::string out = fmt::format(
      "// {} -- generated by tessera-specgen from {}.\n"
      "// Do not edit: change the YAML under spec/ (docs/spec-generator.md, \"Layouts\").\n"
      "//\n"
      "// One struct per layout of spec/layouts.yaml and per fixed-length packet payload\n"
      "// (<Packet>Payload). pack() gives the layout's bit vector as 32-bit words, least\n"
      "// significant first: the words of a Verilator VlWide port, or a packet's payload dwords.\n"
      "// unpack() reads it back; reserved bits are packed as 0 and ignored. Pos::<field> says\n"
      "// where a field sits.\n"
      "#pragma once\n\n"
      "#include <algorithm>\n#include <array>\n#include <cstddef>\n#include <cstdint>\n\n"
      "namespace tessera::layout {{\n\n"
      "// A field's place in its layout's bit vector.\n"
      "struct FieldPos {{\n  unsigned lsb;\n  unsigned width;\n}};\n\n"
      "namespace detail {{\n"
      "constexpr std::uint64_t get_bits(const std::uint32_t* w, unsigned lsb, unsigned width) {{\n"
      "  std::uint64_t v = 0;\n"
      "  for (unsigned i = 0; i < width;) {{\n"
      "    const unsigned bit = lsb + i, off = bit % 32, n = std::min(32 - off, width - i);\n"
      "    v |= ((static_cast<std::uint64_t>(w[bit / 32]) >> off) & ((std::uint64_t{{1}} << n) - 1)) << i;\n"
      "    i += n;\n"
      "  }}\n"
      "  return v;\n"
      "}}\n"
      "constexpr void put_bits(std::uint32_t* w, unsigned lsb, unsigned width, std::uint64_t v) {{\n"
      "  for (unsigned i = 0; i < width;) {{\n"
      "    const unsigned bit = lsb + i, off = bit % 32, n = std::min(32 - off, width - i);\n"
      "    const std::uint64_t mask = ((std::uint64_t{{1}} << n) - 1) << off;\n"
      "    const std::uint64_t chunk = ((v >> i) << off) & mask;\n"
      "    w[bit / 32] = static_cast<std::uint32_t>((w[bit / 32] & ~mask) | chunk);\n"
      "    i += n;\n"
      "  }}\n"
      "}}\n"
      "constexpr std::int64_t sign_extend(std::uint64_t v, unsigned width) {{\n"
      "  const std::uint64_t sign = std::uint64_t{{1}} << (width - 1);\n"
      "  return width >= 64 ? static_cast<std::int64_t>(v)\n"
      "                     : static_cast<std::int64_t>((v ^ sign) - sign);\n"
      "}}\n"
      "// A field wider than 64 bits: array element i holds the field's bits [i*E +: E].\n"
      "template <class T, std::size_t N>\n"
      "constexpr void get_array(const std::uint32_t* w, FieldPos p, std::array<T, N>& out) {{\n"
      "  constexpr unsigned kE = sizeof(T) * 8;\n"
      "  for (std::size_t i = 0; i < N; ++i) {{\n"
      "    const unsigned n = std::min<unsigned>(kE, p.width - static_cast<unsigned>(i) * kE);\n"
      "    out[i] = static_cast<T>(get_bits(w, p.lsb + static_cast<unsigned>(i) * kE, n));\n"
      "  }}\n"
      "}}\n"
      "template <class T, std::size_t N>\n"
      "constexpr void put_array(std::uint32_t* w, FieldPos p, const std::array<T, N>& in) {{\n"
      "  constexpr unsigned kE = sizeof(T) * 8;\n"
      "  for (std::size_t i = 0; i < N; ++i) {{\n"
      "    const unsigned n = std::min<unsigned>(kE, p.width - static_cast<unsigned>(i) * kE);\n"
      "    put_bits(w, p.lsb + static_cast<unsigned>(i) * kE, n, in[i]);\n"
      "  }}\n"
      "}}\n"
      "}}  // namespace detail\n",
      kCppLayoutsFile, fmt::join(sources, ", "));

  for (const Layout& l : all_layouts(spec)) {
    const std::string sn = cpp_struct_name(l);
    names.add(sn, l.origin.where);
    const unsigned width = l.total_width();
    const unsigned words = (width + 31) / 32;
    out += "\n";
    for (const auto& line : wrap(fmt::format("{}: {}", l.name, one_line(l.description)), 97)) {
      out += "// " + line + "\n";
    }
    out += fmt::format("struct {} {{\n", sn);
    out += fmt::format("  static constexpr unsigned kBits = {};\n", width);
    out += fmt::format("  static constexpr unsigned kWords = {};\n", words);
    out += "  struct Pos {\n";
    for (const auto& f : l.fields) {
      if (f.reserved) continue;
      out += fmt::format("    static constexpr FieldPos {}{{{}, {}}};\n", member_name(f.name), f.bits.lsb,
                         f.bits.width());
    }
    out += "  };\n\n";
    for (const auto& f : l.fields) {
      if (f.reserved) continue;
      std::string note = fmt::format("{} {}", f.bits.str(), first_sentence(f.description));
      if (!f.enum_name.empty()) note += fmt::format(" (enum {}: TS_{}_*)", f.enum_name, upper(f.enum_name));
      out += fmt::format("  {} {}{{}};  // {}\n", cpp_type(f), member_name(f.name), note);
    }
    out += fmt::format("\n  bool operator==(const {}&) const = default;\n\n", sn);
    out += fmt::format("  constexpr std::array<std::uint32_t, kWords> pack() const {{\n"
                       "    std::array<std::uint32_t, kWords> w{{}};\n");
    for (const auto& f : l.fields) {
      if (f.reserved) continue;
      const std::string m = member_name(f.name);
      if (f.bits.width() > 64) {
        out += fmt::format("    detail::put_array(w.data(), Pos::{}, {});\n", m, m);
      } else {
        out += fmt::format("    detail::put_bits(w.data(), Pos::{0}.lsb, Pos::{0}.width, static_cast<std::uint64_t>({0}));\n", m);
      }
    }
    out += "    return w;\n  }\n";
    out += fmt::format("  // `w` holds kWords words.\n"
                       "  static constexpr {0} unpack(const std::uint32_t* w) {{\n"
                       "    {0} v;\n", sn);
    for (const auto& f : l.fields) {
      if (f.reserved) continue;
      const std::string m = member_name(f.name);
      if (f.bits.width() > 64) {
        out += fmt::format("    detail::get_array(w, Pos::{0}, v.{0});\n", m);
      } else if (f.is_signed) {
        out += fmt::format("    v.{0} = static_cast<{1}>(detail::sign_extend(detail::get_bits(w, Pos::{0}.lsb, Pos::{0}.width), Pos::{0}.width));\n",
                           m, cpp_type(f));
      } else if (f.bits.width() == 1) {
        out += fmt::format("    v.{0} = detail::get_bits(w, Pos::{0}.lsb, 1) != 0;\n", m);
      } else {
        out += fmt::format("    v.{0} = static_cast<{1}>(detail::get_bits(w, Pos::{0}.lsb, Pos::{0}.width));\n",
                           m, cpp_type(f));
      }
    }
    out += "    return v;\n  }\n};\n";
  }
  out += "\n}  // namespace tessera::layout\n";
  return out;
}

// ---- Markdown --------------------------------------------------------------------------------

std::string emit_layouts_md(const Spec& spec) {
  std::string out = fmt::format(
      "# Layouts\n\n"
      "Generated by tessera-specgen from `{}`; do not edit (docs/spec-generator.md, \"Layouts\").\n\n"
      "Bit vectors other than packets and registers: fields from bit 0 upwards. SystemVerilog:\n"
      "`tessera_spec_pkg::ts_<name>_t` (and `<name>_t` in the package named by `sv_package`);\n"
      "C++: `tessera::layout::<Name>` in `tessera_layouts.hpp`, with `pack()`/`unpack()`. Every\n"
      "fixed-length packet payload has a struct too (`ts_pkt_<packet>_t`, `<Packet>Payload`;\n"
      "fields in docs/reference/packets.md).\n",
      spec.layouts_file);
  for (const auto& e : spec.enums) {
    if (e.file != spec.layouts_file) continue;
    out += fmt::format("\n## enum {}\n\n{}\n\n{} bits; SystemVerilog `tessera_spec_pkg::ts_{}_e`, C "
                       "constants `TS_{}_*`.\n\n| value | name | description |\n|---|---|---|\n",
                       e.name, one_line(e.description), e.resolved_width, e.name, upper(e.name));
    for (const auto& v : e.values) {
      out += fmt::format("| {} | `{}` | {} |\n", v.value, v.name, one_line(v.description));
    }
  }
  for (const auto& l : spec.layouts) {
    out += fmt::format("\n## {}\n\n{}\n\n", l.name, one_line(l.description));
    out += fmt::format("{} bits. SystemVerilog `tessera_spec_pkg::{}`{}; C++ `tessera::layout::{}`.\n\n",
                       l.total_width(), layout_sv_type(l),
                       l.sv_package.empty() ? "" : fmt::format(", `{}::{}_t`", l.sv_package, l.name),
                       cpp_struct_name(l));
    out += "| bits | field | type | description |\n|---|---|---|---|\n";
    for (const auto& f : l.fields) {
      std::string type = f.enum_name.empty() ? (f.is_signed ? "signed" : "unsigned")
                                             : fmt::format("enum `{}`", f.enum_name);
      if (f.reserved) type = "reserved";
      out += fmt::format("| {} | `{}` | {} | {} |\n", f.bits.str(), f.name, type, one_line(f.description));
    }
  }
  return out;
}

}  // namespace tessera::specgen
