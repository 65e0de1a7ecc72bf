// Semantic checks over a parsed spec: everything that needs more than one value to decide
// (duplicates, overlaps, widths, lengths, cross-references). Each error points at the value a
// reader would have to change, and names the other party of a conflict with its location.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "tessera/specgen/loader.hpp"
#include "yaml_reader.hpp"

namespace tessera::specgen {

namespace {

std::string loc_str(const Where& w) {
  return fmt::format("{}:{}:{}", w.loc.file, w.loc.line, w.loc.column);
}

bool fits(uint64_t value, unsigned width) { return width >= 64 || value < (uint64_t{1} << width); }

uint64_t max_of(unsigned width) { return (uint64_t{1} << width) - 1; }

// A field that names an enum; enum widths are settled once every use is known.
struct EnumUse {
  const Field* field;
  std::string kind;  // "field" or "header flag", for messages
};

class Validator {
 public:
  Validator(Spec& spec, Diagnostics& diag) : s_(spec), d_(diag) {}

  void run() {
    check_enum_definitions();
    if (s_.header) check_header();
    check_packets();
    check_blocks();
    check_layouts();
    resolve_enum_widths();
  }

 private:
  // ---- enums -----------------------------------------------------------------------------

  void check_enum_definitions() {
    std::map<std::string, const Enum*> seen;
    for (auto& e : s_.enums) {
      if (auto [it, fresh] = seen.emplace(e.name, &e); !fresh) {
        d_.error(e.origin.at("name"), fmt::format("enum '{}' is already defined at {}", e.name,
                                                  loc_str(it->second->origin.where)));
      }
      std::map<std::string, const EnumValue*> names;
      std::map<uint64_t, const EnumValue*> values;
      for (const auto& v : e.values) {
        if (auto [it, fresh] = names.emplace(v.name, &v); !fresh) {
          d_.error(v.origin.at("name"),
                   fmt::format("enum '{}' already has a value named '{}' (at {})", e.name, v.name,
                               loc_str(it->second->origin.where)));
        }
        // SystemVerilog rejects two enum members with the same value.
        if (auto [it, fresh] = values.emplace(v.value, &v); !fresh) {
          d_.error(v.origin.at("value"),
                   fmt::format("value {} of '{}' is already used by '{}' in enum '{}'", v.value,
                               v.name, it->second->name, e.name));
        }
        if (e.width && !fits(v.value, *e.width)) {
          d_.error(v.origin.at("value"),
                   fmt::format("enum '{}' value '{}' = {} does not fit the enum's width {} "
                               "(max {})",
                               e.name, v.name, v.value, *e.width, max_of(*e.width)));
        }
      }
    }
  }

  void note_enum_use(const Field& f, const std::string& kind) {
    if (f.enum_name.empty()) return;
    if (s_.find_enum(f.enum_name) == nullptr) {
      std::vector<std::string> names;
      for (const auto& e : s_.enums) names.push_back(e.name);
      const std::string guess = detail::closest(f.enum_name, names);
      d_.error(f.origin.at("enum"),
               fmt::format("{} '{}' refers to unknown enum '{}'{}", kind, f.name, f.enum_name,
                           guess.empty() ? std::string{" (define it under 'enums:')"}
                                         : fmt::format(" (did you mean '{}'?)", guess)));
      return;
    }
    uses_[f.enum_name].push_back(EnumUse{&f, kind});
  }

  // An enum's SystemVerilog type has one width; every field holding it must have that width,
  // or comparisons and assignments between the field and the enum constants would be
  // width-mismatched (Verilator WIDTH warnings).
  void resolve_enum_widths() {
    for (auto& e : s_.enums) {
      const auto& uses = uses_[e.name];
      if (e.width) {
        e.resolved_width = *e.width;
        for (const auto& u : uses) {
          if (u.field->bits.width() != *e.width) {
            d_.error(u.field->origin.at("bits"),
                     fmt::format("{} '{}' {} is {} bits wide but enum '{}' is {} bits (width: {})",
                                 u.kind, u.field->name, u.field->bits.str(),
                                 u.field->bits.width(), e.name, *e.width, *e.width));
          }
        }
        continue;
      }
      if (uses.empty()) {
        // Unused and no width given: the narrowest type that holds every value.
        uint64_t top = 0;
        for (const auto& v : e.values) top = std::max(top, v.value);
        unsigned w = 1;
        while (w < 64 && !fits(top, w)) ++w;
        e.resolved_width = w;
        if (w > 32) {
          d_.error(e.origin.at("values"),
                   fmt::format("enum '{}' has values wider than 32 bits", e.name));
        }
        continue;
      }
      const Field& first = *uses.front().field;
      e.resolved_width = first.bits.width();
      for (const auto& u : uses) {
        const Field& f = *u.field;
        if (f.bits.width() != first.bits.width()) {
          d_.error(f.origin.at("bits"),
                   fmt::format("{} '{}' {} is {} bits wide, but enum '{}' is already used by "
                               "the {}-bit field '{}' at {}; give the fields one width",
                               u.kind, f.name, f.bits.str(), f.bits.width(), e.name,
                               first.bits.width(), first.name, loc_str(first.origin.where)));
          continue;
        }
        for (const auto& v : e.values) {
          if (!fits(v.value, f.bits.width())) {
            d_.error(f.origin.at("enum"),
                     fmt::format("enum '{}' value '{}' = {} does not fit {} '{}' {} ({} bits, "
                                 "max {}); value defined at {}",
                                 e.name, v.name, v.value, u.kind, f.name, f.bits.str(),
                                 f.bits.width(), max_of(f.bits.width()), loc_str(v.origin.where)));
          }
        }
      }
    }
  }

  // ---- fields (shared by packets and registers) ------------------------------------------

  // Duplicate names across all of `fields`; overlapping bits among fields with the same
  // `group` (the payload dword for packets, the register for registers).
  using Grouped = std::vector<std::pair<const Field*, int64_t>>;  // field, group

  void check_fields(const Grouped& fields, const std::string& kind) {
    for (std::size_t j = 0; j < fields.size(); ++j) {
      const Field& b = *fields[j].first;
      for (std::size_t i = 0; i < j; ++i) {
        const Field& a = *fields[i].first;
        if (a.name == b.name) {
          d_.error(b.origin.at("name"), fmt::format("{} name '{}' is already used at {}", kind,
                                                    b.name, loc_str(a.origin.where)));
          break;
        }
      }
      for (std::size_t i = 0; i < j; ++i) {
        const Field& a = *fields[i].first;
        if (fields[i].second == fields[j].second && a.bits.overlaps(b.bits)) {
          d_.error(b.origin.at("bits"), fmt::format("{} '{}' {} overlaps '{}' {}", kind, b.name,
                                                    b.bits.str(), a.name, a.bits.str()));
          break;
        }
      }
    }
  }

  // ---- packet header -----------------------------------------------------------------------

  void check_header() {
    const Header& h = *s_.header;
    std::vector<std::pair<std::string, const HeaderField*>> parts = {{"opcode", &h.opcode},
                                                                     {"length", &h.length}};
    if (h.flags) parts.emplace_back("flags", &*h.flags);
    // Report a conflict at whichever of the two comes later in the file.
    std::stable_sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) {
      return a.second->origin.where.loc.line < b.second->origin.where.loc.line;
    });
    for (std::size_t j = 0; j < parts.size(); ++j) {
      for (std::size_t i = 0; i < j; ++i) {
        if (parts[i].second->bits.overlaps(parts[j].second->bits)) {
          d_.error(parts[j].second->origin.at("bits"),
                   fmt::format("header field '{}' {} overlaps '{}' {}", parts[j].first,
                               parts[j].second->bits.str(), parts[i].first,
                               parts[i].second->bits.str()));
        }
      }
    }
  }

  // ---- packets -----------------------------------------------------------------------------

  void check_packets() {
    if (!s_.header) return;  // the parser already reported the missing header
    const Header& h = *s_.header;
    const unsigned op_w = h.opcode.bits.width();
    const unsigned len_w = h.length.bits.width();
    std::map<std::string, const Packet*> names;
    std::map<uint64_t, const Packet*> opcodes;

    for (auto& p : s_.packets) {
      if (auto [it, fresh] = names.emplace(p.name, &p); !fresh) {
        d_.error(p.origin.at("name"), fmt::format("packet '{}' is already defined at {}", p.name,
                                                  loc_str(it->second->origin.where)));
      }
      if (!fits(p.opcode, op_w)) {
        d_.error(p.origin.at("opcode"),
                 fmt::format("opcode {:#x} does not fit the {}-bit header opcode field {}",
                             p.opcode, op_w, h.opcode.bits.str()));
      } else if (auto [it, fresh] = opcodes.emplace(p.opcode, &p); !fresh) {
        d_.error(p.origin.at("opcode"),
                 fmt::format("opcode {:#04x} of '{}' is already used by '{}' at {}", p.opcode,
                             p.name, it->second->name, loc_str(it->second->origin.where)));
      }

      // Lengths must be encodable in the header's length field.
      if (!p.max_length_given) p.max_length = max_of(len_w);
      const char* len_key = p.variable ? "max_length" : "length";
      bool lengths_ok = true;
      if (!fits(p.max_length, len_w)) {
        d_.error(p.origin.at(len_key),
                 fmt::format("{} {} does not fit the {}-bit header length field {} (max {})",
                             len_key, p.max_length, len_w, h.length.bits.str(), max_of(len_w)));
        lengths_ok = false;
      }
      if (p.variable && p.min_length > p.max_length) {
        d_.error(p.origin.at("min_length"), fmt::format("min_length {} exceeds max_length {}",
                                                        p.min_length, p.max_length));
        lengths_ok = false;
      }

      // With an unencodable length the payload checks would only add noise (and walk up to
      // 2^64 dwords looking for gaps).
      if (lengths_ok) check_payload(p);
      check_header_flags(p);

      // Header flags live in the header, not in a payload dword: group them apart (-1).
      Grouped all;
      for (const auto& f : p.fields) all.emplace_back(&f, static_cast<int64_t>(f.dword));
      for (const auto& f : p.header_flags) all.emplace_back(&f, -1);
      check_fields(all, "field");
      for (const auto& f : p.fields) note_enum_use(f, "field");
      for (const auto& f : p.header_flags) note_enum_use(f, "header flag");
    }
  }

  // The payload layout must agree with the length: a firmware that checks the header's length
  // against TS_PKT_*_LEN and then reads fields by dword index must never read past the packet
  // or skip an undocumented dword.
  void check_payload(const Packet& p) {
    const Field* rep = nullptr;
    for (const auto& f : p.fields) {
      if (!f.repeated) continue;
      if (!p.variable) {
        d_.error(f.origin.at("repeated"),
                 fmt::format("field '{}' is repeated, but only a variable-length packet "
                             "(variable: true) has a repeated tail",
                             f.name));
      } else if (rep != nullptr && rep->dword != f.dword) {
        d_.error(f.origin.at("dword"),
                 fmt::format("repeated field '{}' is in dword {}, but '{}' already makes dword {} "
                             "the repeated tail; only one dword repeats",
                             f.name, f.dword, rep->name, rep->dword));
      } else if (rep == nullptr) {
        rep = &f;
      }
    }

    // `prefix` = dwords always present before the repeated tail (or the whole fixed payload).
    uint64_t prefix = p.variable ? p.min_length : p.max_length;
    if (p.variable && !p.fields.empty()) {
      if (rep == nullptr) {
        d_.error(p.origin.at("fields"),
                 fmt::format("variable-length packet '{}' describes fields but no repeated tail: "
                             "mark its last dword 'repeated: true'",
                             p.name));
        return;
      }
      prefix = rep->dword;
      if (rep->dword > p.min_length) {
        d_.error(rep->origin.at("dword"),
                 fmt::format("repeated tail starts at dword {}, but min_length {} lets the packet "
                             "end before it: min_length must be at least {}",
                             rep->dword, p.min_length, rep->dword));
      }
    }

    std::set<uint64_t> covered;
    for (const auto& f : p.fields) {
      if (f.repeated) continue;
      if (rep != nullptr && f.dword >= rep->dword) {
        d_.error(f.origin.at("dword"),
                 fmt::format("field '{}' is in dword {}, at or after the repeated tail (dword {}); "
                             "the tail must be the last dword",
                             f.name, f.dword, rep->dword));
        continue;
      }
      if (!p.variable && f.dword >= p.max_length) {
        d_.error(f.origin.at("dword"),
                 fmt::format("field '{}' is in dword {}, but the packet has {} payload dword{} "
                             "(length: {}; dword 0 is the first after the header)",
                             f.name, f.dword, p.max_length, p.max_length == 1 ? "" : "s",
                             p.max_length));
        continue;
      }
      covered.insert(f.dword);
    }
    // Every always-present dword is described, so the reference tables have no holes; unused
    // bits inside a dword are reserved (zero), but an entire unnamed dword is a mistake.
    if (p.variable && p.fields.empty()) return;
    for (uint64_t dw = 0; dw < prefix; ++dw) {
      if (covered.count(dw) == 0) {
        d_.error(p.origin.at(p.variable ? "fields" : "length"),
                 fmt::format("payload dword {} of packet '{}' has no fields; describe it (a field "
                             "named e.g. 'reserved' for an unused dword) or shorten the packet",
                             dw, p.name));
        break;
      }
    }
  }

  void check_header_flags(const Packet& p) {
    if (p.header_flags.empty()) return;
    const Header& h = *s_.header;
    if (!h.flags) {
      d_.error(p.origin.at("header_flags"),
               "header flags need a 'flags' field in the packet header (header.flags)");
      return;
    }
    for (const auto& f : p.header_flags) {
      if (f.bits.lsb < h.flags->bits.lsb || f.bits.msb > h.flags->bits.msb) {
        d_.error(f.origin.at("bits"),
                 fmt::format("header flag '{}' {} lies outside the header's flags field {}",
                             f.name, f.bits.str(), h.flags->bits.str()));
      }
    }
  }

  // ---- register blocks ---------------------------------------------------------------------

  struct Slot {
    std::string what;  // "RING_BASE[1]" or "CTRL"
    Where where;
  };

  void check_blocks() {
    std::map<std::string, const Block*> names;
    std::vector<const Block*> placed;
    for (auto& b : s_.blocks) {
      if (b.name.empty()) continue;  // the parser reported a missing/bad block header
      if (auto [it, fresh] = names.emplace(b.name, &b); !fresh) {
        d_.error(b.origin.at("name"), fmt::format("block '{}' is already defined at {}", b.name,
                                                  loc_str(it->second->origin.where)));
      }
      bool geometry_ok = true;
      if (b.base % 4 != 0) {
        d_.error(b.origin.at("base"), fmt::format("base {:#x} is not 4-byte aligned", b.base));
        geometry_ok = false;
      }
      if (b.size == 0 || b.size % 4 != 0) {
        d_.error(b.origin.at("size"),
                 fmt::format("size {:#x} must be a non-zero multiple of 4 bytes", b.size));
        geometry_ok = false;
      }
      // Written without base + size, which could wrap for absurd values.
      if (b.base > (uint64_t{1} << 32) || b.size > (uint64_t{1} << 32) - b.base) {
        d_.error(b.origin.at("size"),
                 fmt::format("block {:#x}+{:#x} extends past the 32-bit address space", b.base,
                             b.size));
        geometry_ok = false;
      }
      if (geometry_ok) {
        for (const Block* o : placed) {
          if (b.base < o->base + o->size && o->base < b.base + b.size) {
            d_.error(b.origin.at("base"),
                     fmt::format("block '{}' [{:#010x}..{:#010x}] overlaps block '{}' "
                                 "[{:#010x}..{:#010x}] at {}",
                                 b.name, b.base, b.base + b.size - 1, o->name, o->base,
                                 o->base + o->size - 1, loc_str(o->origin.where)));
          }
        }
        placed.push_back(&b);
      }
      check_block(b);
    }
  }

  void check_block(const Block& b) {
    // Registers and arrays share one namespace: both become TS_<BLOCK>_<NAME>_* symbols.
    std::map<std::string, Where> names;
    auto claim = [&](const std::string& name, const Where& where, const char* kind) {
      if (auto [it, fresh] = names.emplace(name, where); !fresh) {
        d_.error(where, fmt::format("{} name '{}' is already used in block '{}' at {}", kind, name,
                                    b.name, loc_str(it->second)));
      }
    };
    std::map<uint64_t, Slot> slots;  // every register address of the block
    auto occupy = [&](uint64_t offset, const std::string& what, const Where& where) {
      if (auto [it, fresh] = slots.emplace(offset, Slot{what, where}); !fresh) {
        d_.error(where, fmt::format("register '{}' at offset {:#x} overlaps '{}' at {}", what,
                                    offset, it->second.what, loc_str(it->second.where)));
      }
    };

    for (const auto& r : b.registers) {
      claim(r.name, r.origin.at("name"), "register");
      check_register(r);
      if (r.offset % 4 != 0) {
        d_.error(r.origin.at("offset"),
                 fmt::format("offset {:#x} of register '{}' is not 4-byte aligned", r.offset,
                             r.name));
      } else if (r.offset >= b.size || b.size - r.offset < 4) {
        d_.error(r.origin.at("offset"),
                 fmt::format("offset {:#x} of register '{}' lies outside the block's {:#x}-byte "
                             "aperture",
                             r.offset, r.name, b.size));
      } else {
        occupy(r.offset, r.name, r.origin.at("offset"));
      }
    }

    for (const auto& a : b.arrays) {
      claim(a.name, a.origin.at("array"), "array");
      bool ok = true;
      if (a.offset % 4 != 0) {
        d_.error(a.origin.at("offset"),
                 fmt::format("offset {:#x} of array '{}' is not 4-byte aligned", a.offset, a.name));
        ok = false;
      }
      if (a.stride == 0 || a.stride % 4 != 0) {
        d_.error(a.origin.at("stride"),
                 fmt::format("stride {:#x} must be a non-zero multiple of 4 bytes", a.stride));
        ok = false;
      }
      if (a.count == 0 || a.count > 1024) {
        d_.error(a.origin.at("count"), fmt::format("count {} is outside 1..1024", a.count));
        ok = false;
      }
      // Members placed correctly inside one instance; only those are expanded, so one bad
      // member does not hide its siblings' overlaps.
      std::vector<const Register*> placed_members;
      uint64_t last_end = 0;  // end of the placed members in one instance
      for (const auto& r : a.registers) {
        claim(r.name, r.origin.at("name"), "register");
        check_register(r);
        if (r.offset % 4 != 0) {
          d_.error(r.origin.at("offset"),
                   fmt::format("offset {:#x} of register '{}' is not 4-byte aligned", r.offset,
                               r.name));
        } else if (a.stride != 0 && (r.offset >= a.stride || a.stride - r.offset < 4)) {
          d_.error(r.origin.at("offset"),
                   fmt::format("offset {:#x} of register '{}' does not fit in the array's "
                               "stride {:#x} (member offsets are relative to each instance)",
                               r.offset, r.name, a.stride));
        } else {
          placed_members.push_back(&r);
          last_end = std::max(last_end, r.offset + 4);
        }
      }
      if (!ok) continue;
      // count <= 1024, so with offset and stride bounded by the aperture nothing can wrap.
      const bool bounded = a.offset < b.size && a.stride <= b.size;
      const uint64_t end = bounded ? a.offset + (a.count - 1) * a.stride + last_end : 0;
      if (!bounded) {
        d_.error(a.origin.at("offset"),
                 fmt::format("array '{}' (offset {:#x}, stride {:#x}) does not fit the block's "
                             "{:#x}-byte aperture",
                             a.name, a.offset, a.stride, b.size));
        continue;
      }
      if (end > b.size) {
        d_.error(a.origin.at("count"),
                 fmt::format("array '{}' ends at offset {:#x}, outside the block's {:#x}-byte "
                             "aperture",
                             a.name, end, b.size));
        continue;
      }
      for (uint64_t i = 0; i < a.count; ++i) {
        for (const Register* r : placed_members) {
          occupy(a.offset + i * a.stride + r->offset, fmt::format("{}[{}]", r->name, i),
                 r->origin.at("offset"));
        }
      }
    }
  }

  void check_register(const Register& r) {
    Grouped fields;
    for (const auto& f : r.fields) fields.emplace_back(&f, 0);
    check_fields(fields, "field");
    bool resets_ok = true;
    for (const auto& f : r.fields) {
      if (!fits(f.reset, f.bits.width())) {
        d_.error(f.origin.at("reset"),
                 fmt::format("reset {:#x} does not fit field '{}' {} ({} bit{}, max {:#x})",
                             f.reset, f.name, f.bits.str(), f.bits.width(),
                             f.bits.width() == 1 ? "" : "s", max_of(f.bits.width())));
        resets_ok = false;
      }
      note_enum_use(f, "field");
    }
    if (r.reset && resets_ok) {
      if (!fits(*r.reset, 32)) {
        d_.error(r.origin.at("reset"), fmt::format("reset {:#x} is wider than 32 bits", *r.reset));
      } else if (*r.reset != r.reset_value()) {
        d_.error(r.origin.at("reset"),
                 fmt::format("register reset {:#010x} disagrees with its fields' resets, which "
                             "compose to {:#010x}; fix one (or drop the register-level reset)",
                             *r.reset, r.reset_value()));
      }
    }
  }

  // ---- layouts (spec/layouts.yaml) ------------------------------------------------------------
  void check_layouts() {
    std::map<std::string, Where> layout_names;
    for (const auto& l : s_.layouts) {
      if (auto [it, fresh] = layout_names.emplace(l.name, l.origin.at("name")); !fresh) {
        d_.error(l.origin.at("name"), fmt::format("layout '{}' is already defined at {}", l.name,
                                                  loc_str(it->second)));
      }
      // Packet payload structs are generated as ts_pkt_<packet>_t next to the layouts.
      if (l.name.rfind("pkt_", 0) == 0) {
        d_.error(l.origin.at("name"),
                 fmt::format("layout name '{}': names starting with 'pkt_' are the packet "
                             "payload structs' (generated from packets.yaml)",
                             l.name));
      }
      if (!l.sv_package.empty() && (l.sv_package.size() < 5 ||
                                    l.sv_package.compare(l.sv_package.size() - 4, 4, "_pkg") != 0)) {
        d_.error(l.origin.at("sv_package"),
                 fmt::format("sv_package '{}' must name an SV package ending in _pkg (it `includes "
                             "the generated {}_layouts.svh)",
                             l.sv_package, l.sv_package));
      }
      std::map<std::string, Where> field_names;
      for (const auto& f : l.fields) {
        if (auto [it, fresh] = field_names.emplace(f.name, f.origin.at("name")); !fresh) {
          d_.error(f.origin.at("name"), fmt::format("layout '{}' already has a field named '{}' "
                                                    "(at {})",
                                                    l.name, f.name, loc_str(it->second)));
        }
        if (f.is_signed && !f.enum_name.empty()) {
          d_.error(f.origin.at("signed"),
                   fmt::format("field '{}' holds enum '{}' and cannot be signed", f.name, f.enum_name));
        }
        if (f.is_signed && f.bits.width() > 64) {
          d_.error(f.origin.at("signed"), fmt::format("signed field '{}' is {} bits wide; at most 64",
                                                      f.name, f.bits.width()));
        }
        if (f.reserved && (f.is_signed || !f.enum_name.empty())) {
          d_.error(f.origin.at("reserved"),
                   fmt::format("reserved field '{}' cannot be signed or hold an enum", f.name));
        }
        note_enum_use(f, "layout field");
      }
      if (l.width && *l.width != l.total_width()) {
        d_.error(l.origin.at("width"),
                 fmt::format("layout '{}' says width {} but its fields add up to {} bits", l.name,
                             *l.width, l.total_width()));
      }
    }
  }

  Spec& s_;
  Diagnostics& d_;
  std::map<std::string, std::vector<EnumUse>> uses_;
};

}  // namespace

void validate(Spec& spec, Diagnostics& diag) { Validator(spec, diag).run(); }

}  // namespace tessera::specgen
