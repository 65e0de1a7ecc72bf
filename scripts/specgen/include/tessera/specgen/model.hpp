// The in-memory form of the spec/ YAML files (schema: docs/spec-generator.md). The parser fills
// it, the validator checks it, the emitters read it. Every element remembers where it came from
// (Where) and where each of its keys' values sits (Origin::at), so a later semantic check can
// point at the exact line of the value it rejects.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tessera/specgen/diagnostics.hpp"

namespace tessera::specgen {

struct Origin {
  Where where;                         // the element (a YAML mapping)
  std::map<std::string, Where> keys;   // the value of each key that was present

  // The value of `key` if it was written, otherwise the element itself (for defaults).
  Where at(const std::string& key) const;
};

// Bits [msb:lsb] of a 32-bit dword, inclusive, as in SystemVerilog.
struct BitRange {
  unsigned lsb = 0;
  unsigned msb = 0;

  unsigned width() const { return msb - lsb + 1; }
  uint32_t mask() const;  // the range's bits set, in place
  bool overlaps(const BitRange& o) const { return lsb <= o.msb && o.lsb <= msb; }
  std::string str() const;  // "[31:28]" or "[5]"
};

enum class Access { RW, RO, WO, W1C };
const char* access_name(Access a);  // "rw", "ro", "wo", "w1c"

struct EnumValue {
  std::string name;  // UPPER_SNAKE
  uint64_t value = 0;
  std::string description;  // optional
  Origin origin;
};

struct Enum {
  std::string name;  // lower_snake
  std::string description;
  std::optional<unsigned> width;  // as written; otherwise taken from the fields using it
  std::vector<EnumValue> values;
  std::string file;  // the spec file that defines it (selects packets.md or registers.md)
  Origin origin;

  unsigned resolved_width = 0;  // set by the validator
};

// A bit field of a packet dword, a packet header flag, or a register.
struct Field {
  std::string name;  // lower_snake
  std::string description;
  BitRange bits;
  std::string enum_name;  // empty: plain number

  // Packets only.
  uint64_t dword = 0;      // payload dword index, 0 = first dword after the header
  bool repeated = false;   // this dword repeats to the end of a variable-length packet

  // Registers only.
  Access access = Access::RW;
  uint64_t reset = 0;
  // Register tops (docs/spec-generator.md): hw2reg <field>_de/_d let the hardware write the
  // stored (rw, w1c) value, over any bus write of the same cycle; a write-mask parameter
  // <REG>_<FIELD>_WMASK limits which bits a bus or in-band write stores (rw only).
  bool hw_write = false;
  bool write_mask_param = false;

  // Layouts only (spec/layouts.yaml): `bits` is the field's place in the whole layout, which
  // may be wider than 32 bits.
  bool is_signed = false;  // two's complement: C++ gets a signed type, sign-extended
  bool reserved = false;   // padding: packed as 0, not a C++ member

  Origin origin;
};

// A field of the common packet header: opcode, payload length, flags.
struct HeaderField {
  BitRange bits;
  std::string description;
  Origin origin;
};

struct Header {
  std::string description;
  HeaderField opcode;
  HeaderField length;
  std::optional<HeaderField> flags;
  Origin origin;
};

struct Packet {
  std::string name;  // UPPER_SNAKE
  std::string description;
  uint64_t opcode = 0;
  bool variable = false;
  // Payload dwords. A fixed-length packet has min_length == max_length == its `length`; a
  // variable one without max_length in the YAML gets the largest the header can encode.
  uint64_t min_length = 0;
  uint64_t max_length = 0;
  bool max_length_given = false;
  std::vector<Field> fields;        // payload fields
  std::vector<Field> header_flags;  // named bits inside the header's flags field
  Origin origin;
};

struct Register {
  std::string name;  // UPPER_SNAKE
  std::string description;
  uint64_t offset = 0;  // bytes from the block base, or from the array instance for array members
  Access access = Access::RW;    // default for fields that do not state their own
  std::optional<uint64_t> reset;  // optional cross-check of the fields' resets
  // Side-effect hooks of the generated register top (docs/spec-generator.md, "Register tops"):
  bool write_strobe = false;  // reg2hw .qe (and .wd, the word) on every accepted bus write; .qe always for wo fields
  bool read_strobe = false;   // reg2hw .re pulses on every accepted bus read
  bool write_error = false;   // hw2reg .werr: a bus write while it is 1 answers err, stores nothing
  bool read_error = false;    // hw2reg .rerr: a bus read while it is 1 answers err
  // `wait: read` / `wait: write` (req_ack blocks): that access is held, not acknowledged, while
  // hw2reg .wait is 1; reg2hw .pend shows it presented (also while it waits).
  enum class Wait { None, Read, Write };
  Wait wait = Wait::None;
  // `external: true`: the rw fields have no storage here: a read returns hw2reg .<field>, a
  // write gives reg2hw .<field> (the written bits) with .qe (reggen's hwext).
  bool external = false;
  std::vector<Field> fields;
  Origin origin;

  uint32_t reset_value() const;             // composed from the fields
  bool bus_writable(bool in_band_state) const;  // a bus write to it can succeed
  uint32_t access_mask(Access a) const;     // bits of fields with this access
  // The fields' accesses: "rw", or "ro/w1c" for a register mixing kinds (in Access order).
  std::string access_summary() const;
};

// `count` copies of a group of registers, instance i at offset + i * stride.
struct RegisterArray {
  std::string name;  // UPPER_SNAKE, e.g. QUEUE
  std::string description;
  uint64_t offset = 0;
  uint64_t stride = 0;
  uint64_t count = 0;
  std::vector<Register> registers;
  Origin origin;
};

struct Block {
  std::string name;  // UPPER_SNAKE
  std::string description;
  uint64_t base = 0;
  uint64_t size = 0;
  // `state_writes: in_band`: the rw fields are written only through the register top's in-band
  // port (the command stream's SET_REGS, ordered with the draws); a bus write to a register
  // with nothing else writable answers err. Default `bus`.
  bool in_band_state = false;
  // `protocol: req_ack` (the CP core's MMIO): req/we/be/addr/wdata held until ack, answered in
  // the same cycle (combinational), sub-word writes refused. Default `regbus`.
  bool req_ack = false;
  std::vector<Register> registers;
  std::vector<RegisterArray> arrays;
  std::string file;
  Origin origin;
};

// A named bit layout that is not a packet or a register (spec/layouts.yaml): the memory
// protocol's request and response, the statistics block, the vertex formats. Fields are listed
// from bit 0 upwards; the parser places them (Field::bits).
struct Layout {
  std::string name;  // lower_snake
  std::string description;
  std::string sv_package;  // also typedef'd in this hand-written package's fragment (or empty)
  std::optional<uint64_t> width;  // as written: a cross-check of the fields' sum
  std::vector<Field> fields;
  Origin origin;

  unsigned total_width() const { return fields.empty() ? 0 : fields.back().bits.msb + 1; }
};

struct Spec {
  std::string packets_file;  // empty when no packet file was given
  std::vector<std::string> register_files;
  std::string layouts_file;  // empty when no layout file was given
  std::vector<Layout> layouts;
  std::optional<Header> header;
  std::vector<Packet> packets;
  std::vector<Enum> enums;
  std::vector<Block> blocks;

  const Enum* find_enum(const std::string& name) const;
};

}  // namespace tessera::specgen
