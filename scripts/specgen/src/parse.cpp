// Schema-level parsing of spec files into the model. Semantics (duplicates, overlaps, lengths)
// are validate.cpp's job; here each value is checked only on its own.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "tessera/specgen/loader.hpp"
#include "yaml_reader.hpp"

namespace tessera::specgen {

using detail::IdStyle;
using detail::MapReader;
using detail::Need;

namespace {

// Loads a YAML file, reporting a missing file or a syntax error as a diagnostic.
std::optional<YAML::Node> load_yaml(const std::string& path, Diagnostics& diag) {
  try {
    return YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    diag.error(Where{Loc{path, 0, 0}, ""}, "cannot open file");
  } catch (const YAML::ParserException& e) {
    diag.error(Where{Loc{path, e.mark.line + 1, e.mark.column + 1}, ""},
               fmt::format("YAML syntax error: {}", e.msg));
  }
  return std::nullopt;
}

void parse_enums(MapReader& top, const std::string& file, Spec& spec, Diagnostics& diag) {
  auto items = top.sequence("enums", Need::Optional);
  if (!items) return;
  for (const auto& [node, where] : *items) {
    MapReader m(node, where, diag, {"name", "description", "width", "values"});
    if (!m.valid()) continue;
    Enum e;
    e.file = file;
    e.name = m.identifier("name", Need::Required, IdStyle::Lower).value_or("");
    e.description = m.string("description", Need::Required).value_or("");
    if (auto w = m.uint("width", Need::Optional)) {
      if (*w < 1 || *w > 32) {
        diag.error(m.at("width"), fmt::format("width {} is outside 1..32", *w));
      } else {
        e.width = static_cast<unsigned>(*w);
      }
    }
    if (auto values = m.sequence("values", Need::Required)) {
      if (values->empty()) diag.error(m.at("values"), "an enum needs at least one value");
      for (const auto& [vnode, vwhere] : *values) {
        MapReader v(vnode, vwhere, diag, {"name", "value", "description"});
        if (!v.valid()) continue;
        EnumValue ev;
        ev.name = v.identifier("name", Need::Required, IdStyle::Upper).value_or("");
        ev.value = v.uint("value", Need::Required).value_or(0);
        ev.description = v.string("description", Need::Optional).value_or("");
        ev.origin = v.origin();
        e.values.push_back(std::move(ev));
      }
    }
    e.origin = m.origin();
    spec.enums.push_back(std::move(e));
  }
}

// One of header.opcode / length / flags: {bits, description}. Empty if absent or malformed.
std::optional<HeaderField> parse_header_field(MapReader& header, const std::string& key, Need need,
                                              Diagnostics& diag) {
  auto node = header.mapping(key, need);
  if (!node) return std::nullopt;
  MapReader m(*node, header.at(key), diag, {"bits", "description"});
  if (!m.valid()) return std::nullopt;
  HeaderField f;
  f.bits = m.bits("bits", Need::Required).value_or(BitRange{});
  f.description = m.string("description", Need::Required).value_or("");
  f.origin = m.origin();
  return f;
}

// The keys shared by packet payload fields, packet header flags and register fields; the
// caller reads the keys specific to its kind.
Field parse_field_common(MapReader& m) {
  Field f;
  f.name = m.identifier("name", Need::Required, IdStyle::Lower).value_or("");
  f.bits = m.bits("bits", Need::Required).value_or(BitRange{});
  f.description = m.string("description", Need::Required).value_or("");
  f.enum_name = m.identifier("enum", Need::Optional, IdStyle::Lower).value_or("");
  return f;
}

void parse_packet(const YAML::Node& node, const Where& where, Spec& spec, Diagnostics& diag) {
  MapReader m(node, where, diag,
              {"name", "opcode", "description", "length", "variable", "min_length", "max_length",
               "fields", "header_flags"});
  if (!m.valid()) return;
  Packet p;
  p.name = m.identifier("name", Need::Required, IdStyle::Upper).value_or("");
  p.opcode = m.uint("opcode", Need::Required).value_or(0);
  p.description = m.string("description", Need::Required).value_or("");
  p.variable = m.boolean("variable", Need::Optional).value_or(false);
  if (p.variable) {
    // A variable packet states its bounds; a lone `length` would be ambiguous.
    if (m.has("length")) {
      diag.error(m.at("length"),
                 "a variable-length packet gives min_length (and optionally max_length), not length");
    }
    p.min_length = m.uint("min_length", Need::Required).value_or(0);
    if (auto mx = m.uint("max_length", Need::Optional)) {
      p.max_length = *mx;
      p.max_length_given = true;
    }
  } else {
    for (const char* k : {"min_length", "max_length"}) {
      if (m.has(k)) {
        diag.error(m.at(k), fmt::format("'{}' is only for variable-length packets (variable: true); "
                                        "a fixed-length packet gives length",
                                        k));
      }
    }
    p.min_length = p.max_length = m.uint("length", Need::Required).value_or(0);
    p.max_length_given = true;
  }
  if (auto fields = m.sequence("fields", Need::Optional)) {
    for (const auto& [fnode, fwhere] : *fields) {
      MapReader fm(fnode, fwhere, diag, {"name", "dword", "bits", "description", "enum", "repeated"});
      if (!fm.valid()) continue;
      Field f = parse_field_common(fm);
      f.dword = fm.uint("dword", Need::Required).value_or(0);
      f.repeated = fm.boolean("repeated", Need::Optional).value_or(false);
      f.origin = fm.origin();
      p.fields.push_back(std::move(f));
    }
  }
  if (auto flags = m.sequence("header_flags", Need::Optional)) {
    for (const auto& [fnode, fwhere] : *flags) {
      MapReader fm(fnode, fwhere, diag, {"name", "bits", "description", "enum"});
      if (!fm.valid()) continue;
      Field f = parse_field_common(fm);
      f.origin = fm.origin();
      p.header_flags.push_back(std::move(f));
    }
  }
  p.origin = m.origin();
  spec.packets.push_back(std::move(p));
}

std::optional<Register> parse_register(const YAML::Node& node, const Where& where,
                                       Diagnostics& diag) {
  MapReader m(node, where, diag,
              {"name", "offset", "access", "reset", "description", "fields", "write_strobe",
               "read_strobe", "write_error", "read_error", "wait", "external"});
  if (!m.valid()) return std::nullopt;
  Register r;
  r.write_strobe = m.boolean("write_strobe", Need::Optional).value_or(false);
  r.read_strobe = m.boolean("read_strobe", Need::Optional).value_or(false);
  r.write_error = m.boolean("write_error", Need::Optional).value_or(false);
  r.read_error = m.boolean("read_error", Need::Optional).value_or(false);
  r.external = m.boolean("external", Need::Optional).value_or(false);
  if (auto w = m.string("wait", Need::Optional)) {
    if (*w == "read") r.wait = Register::Wait::Read;
    else if (*w == "write") r.wait = Register::Wait::Write;
    else diag.error(m.at("wait"), fmt::format("wait must be 'read' or 'write', not '{}'", *w));
  }
  r.name = m.identifier("name", Need::Required, IdStyle::Upper).value_or("");
  r.offset = m.uint("offset", Need::Required).value_or(0);
  r.access = m.access("access", Need::Required).value_or(Access::RW);
  r.reset = m.uint("reset", Need::Optional);
  r.description = m.string("description", Need::Required).value_or("");
  if (auto fields = m.sequence("fields", Need::Required)) {
    if (fields->empty()) {
      diag.error(m.at("fields"), "a register needs at least one field (name the whole "
                                 "register e.g. 'value' with bits 31:0)");
    }
    for (const auto& [fnode, fwhere] : *fields) {
      MapReader fm(fnode, fwhere, diag,
                   {"name", "bits", "access", "reset", "description", "enum", "hw_write",
                    "write_mask_param"});
      if (!fm.valid()) continue;
      Field f = parse_field_common(fm);
      f.access = fm.access("access", Need::Optional).value_or(r.access);
      f.hw_write = fm.boolean("hw_write", Need::Optional).value_or(false);
      f.write_mask_param = fm.boolean("write_mask_param", Need::Optional).value_or(false);
      if (f.hw_write && f.access != Access::RW && f.access != Access::W1C) {
        diag.error(fm.at("hw_write"), "hw_write needs a stored field (access rw or w1c)");
      }
      if (f.write_mask_param && f.access != Access::RW) {
        diag.error(fm.at("write_mask_param"), "write_mask_param needs an rw field");
      }
      f.reset = fm.uint("reset", Need::Optional).value_or(0);
      f.origin = fm.origin();
      r.fields.push_back(std::move(f));
    }
  }
  r.origin = m.origin();
  return r;
}

void parse_array(const YAML::Node& node, const Where& where, Block& block, Diagnostics& diag) {
  MapReader m(node, where, diag,
              {"array", "offset", "stride", "count", "description", "registers"});
  if (!m.valid()) return;
  RegisterArray a;
  a.name = m.identifier("array", Need::Required, IdStyle::Upper).value_or("");
  a.offset = m.uint("offset", Need::Required).value_or(0);
  a.stride = m.uint("stride", Need::Required).value_or(0);
  a.count = m.uint("count", Need::Required).value_or(0);
  a.description = m.string("description", Need::Required).value_or("");
  if (auto regs = m.sequence("registers", Need::Required)) {
    if (regs->empty()) diag.error(m.at("registers"), "an array needs at least one register");
    for (const auto& [rnode, rwhere] : *regs) {
      const YAML::Node& c = rnode;
      if (c.IsMap() && c["array"]) {
        diag.error(rwhere, "arrays cannot be nested");
        continue;
      }
      if (auto r = parse_register(rnode, rwhere, diag)) a.registers.push_back(std::move(*r));
    }
  }
  a.origin = m.origin();
  block.arrays.push_back(std::move(a));
}

}  // namespace

void parse_packets_file(const std::string& path, Spec& spec, Diagnostics& diag) {
  spec.packets_file = path;
  auto root = load_yaml(path, diag);
  if (!root) return;
  MapReader top(*root, Where{Loc{path, 1, 1}, ""}, diag, {"header", "enums", "packets"});
  if (!top.valid()) return;

  if (auto hnode = top.mapping("header", Need::Required)) {
    MapReader h(*hnode, top.at("header"), diag, {"description", "opcode", "length", "flags"});
    if (h.valid()) {
      Header header;
      header.description = h.string("description", Need::Required).value_or("");
      header.opcode = parse_header_field(h, "opcode", Need::Required, diag).value_or(HeaderField{});
      header.length = parse_header_field(h, "length", Need::Required, diag).value_or(HeaderField{});
      header.flags = parse_header_field(h, "flags", Need::Optional, diag);
      header.origin = h.origin();
      spec.header = std::move(header);
    }
  }
  parse_enums(top, path, spec, diag);
  if (auto packets = top.sequence("packets", Need::Required)) {
    for (const auto& [node, where] : *packets) parse_packet(node, where, spec, diag);
  }
}

void parse_register_file(const std::string& path, Spec& spec, Diagnostics& diag) {
  spec.register_files.push_back(path);
  auto root = load_yaml(path, diag);
  if (!root) return;
  MapReader top(*root, Where{Loc{path, 1, 1}, ""}, diag, {"block", "enums", "registers"});
  if (!top.valid()) return;

  Block block;
  block.file = path;
  if (auto bnode = top.mapping("block", Need::Required)) {
    MapReader b(*bnode, top.at("block"), diag,
                {"name", "base", "size", "description", "state_writes", "protocol"});
    if (b.valid()) {
      if (auto pr = b.string("protocol", Need::Optional)) {
        if (*pr == "req_ack") {
          block.req_ack = true;
        } else if (*pr != "regbus") {
          diag.error(b.at("protocol"), fmt::format("protocol must be 'regbus' or 'req_ack', not '{}'", *pr));
        }
      }
      if (auto sw = b.string("state_writes", Need::Optional)) {
        if (*sw == "in_band") {
          block.in_band_state = true;
        } else if (*sw != "bus") {
          diag.error(b.at("state_writes"),
                     fmt::format("state_writes must be 'bus' or 'in_band', not '{}'", *sw));
        }
      }
      block.name = b.identifier("name", Need::Required, IdStyle::Upper).value_or("");
      block.base = b.uint("base", Need::Required).value_or(0);
      block.size = b.uint("size", Need::Required).value_or(0);
      block.description = b.string("description", Need::Required).value_or("");
      block.origin = b.origin();
    }
  }
  parse_enums(top, path, spec, diag);
  if (auto regs = top.sequence("registers", Need::Required)) {
    for (const auto& [node, where] : *regs) {
      // An entry with `array:` is a register array; anything else must be a register.
      const YAML::Node& c = node;
      if (c.IsMap() && c["array"]) {
        parse_array(node, where, block, diag);
      } else if (auto r = parse_register(node, where, diag)) {
        block.registers.push_back(std::move(*r));
      }
    }
  }
  spec.blocks.push_back(std::move(block));
}

// spec/layouts.yaml: fields listed from bit 0 upwards, each placed right above the previous.
void parse_layouts_file(const std::string& path, Spec& spec, Diagnostics& diag) {
  spec.layouts_file = path;
  auto root = load_yaml(path, diag);
  if (!root) return;
  MapReader top(*root, Where{Loc{path, 1, 1}, ""}, diag, {"enums", "layouts"});
  if (!top.valid()) return;
  parse_enums(top, path, spec, diag);
  auto items = top.sequence("layouts", Need::Required);
  if (!items) return;
  for (const auto& [node, where] : *items) {
    MapReader m(node, where, diag, {"name", "description", "sv_package", "width", "fields"});
    if (!m.valid()) continue;
    Layout l;
    l.name = m.identifier("name", Need::Required, IdStyle::Lower).value_or("");
    l.description = m.string("description", Need::Required).value_or("");
    l.sv_package = m.identifier("sv_package", Need::Optional, IdStyle::Lower).value_or("");
    l.width = m.uint("width", Need::Optional);
    unsigned lsb = 0;
    if (auto fields = m.sequence("fields", Need::Required)) {
      if (fields->empty()) diag.error(m.at("fields"), "a layout needs at least one field");
      for (const auto& [fnode, fwhere] : *fields) {
        MapReader fm(fnode, fwhere, diag,
                     {"name", "width", "description", "enum", "signed", "reserved"});
        if (!fm.valid()) continue;
        Field f;
        f.name = fm.identifier("name", Need::Required, IdStyle::Lower).value_or("");
        f.description = fm.string("description", Need::Required).value_or("");
        f.enum_name = fm.identifier("enum", Need::Optional, IdStyle::Lower).value_or("");
        f.is_signed = fm.boolean("signed", Need::Optional).value_or(false);
        f.reserved = fm.boolean("reserved", Need::Optional).value_or(false);
        uint64_t w = fm.uint("width", Need::Required).value_or(1);
        if (w < 1 || w > 4096) {
          diag.error(fm.at("width"), fmt::format("width {} is outside 1..4096", w));
          w = 1;
        }
        f.bits = BitRange{lsb, lsb + static_cast<unsigned>(w) - 1};
        lsb += static_cast<unsigned>(w);
        f.origin = fm.origin();
        l.fields.push_back(std::move(f));
      }
    }
    l.origin = m.origin();
    spec.layouts.push_back(std::move(l));
  }
}

Spec load_spec(const SpecInputs& inputs, Diagnostics& diag) {
  Spec spec;
  if (!inputs.packets.empty()) parse_packets_file(inputs.packets, spec, diag);
  for (const auto& r : inputs.registers) parse_register_file(r, spec, diag);
  if (!inputs.layouts.empty()) parse_layouts_file(inputs.layouts, spec, diag);
  // Semantic checks on a half-parsed spec would mostly repeat the parse errors.
  if (diag.ok()) validate(spec, diag);
  return spec;
}

}  // namespace tessera::specgen
