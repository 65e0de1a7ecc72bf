// Every class of spec mistake the generator must reject, each checked for the exact
// "file:line:col: yaml.path: message" it reports. A test here fails if a mistake is accepted
// (and would reach RTL or firmware as a wrong constant) or if it is reported at the wrong line
// or under the wrong path (and a developer would look in the wrong place).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "test_util.hpp"

namespace tessera::specgen::test {
namespace {

#define EXPECT_ERROR(loaded, file, line, col, path, message)                              \
  EXPECT_TRUE(has_error((loaded).diag, (file), (line), (col), (path), (message)))         \
      << "expected " << (file) << ":" << (line) << ":" << (col) << ": " << (path) << ": " \
      << (message) << "\nbut got:\n"                                                     \
      << (loaded).diag.str()

// A valid one-register block; tests that need a bad register file build their own.
const char* const kGoodBlock =
    "block: {name: BLK, base: 0x1000, size: 0x100, description: A block.}\n"
    "registers:\n"
    "  - {name: CTRL, offset: 0x0, access: rw, description: Control.,\n"
    "     fields: [{name: run, bits: \"0\", description: Run.}]}\n";

TEST(SpecValidation, GoodSpecHasNoErrors) {
  // Catches false positives: a valid spec using every feature must load cleanly.
  TempDir dir;
  const std::string packets = std::string(kHeader) +
                              "  - name: DRAW\n"
                              "    opcode: 0x20\n"
                              "    description: Draw.\n"
                              "    length: 2\n"
                              "    header_flags:\n"
                              "      - {name: irq, bits: \"8\", description: Interrupt.}\n"
                              "    fields:\n"
                              "      - {name: count, dword: 0, bits: \"31:0\", description: Count.}\n"
                              "      - {name: mode, dword: 1, bits: \"1:0\", enum: mode, description: M.}\n"
                              "      - {name: flag, dword: 1, bits: \"31\", description: Flag.}\n"
                              "  - name: SET\n"
                              "    opcode: 0x21\n"
                              "    description: Set.\n"
                              "    variable: true\n"
                              "    min_length: 1\n"
                              "    fields:\n"
                              "      - {name: reg, dword: 0, bits: \"15:0\", description: Reg.}\n"
                              "      - {name: value, dword: 1, repeated: true, bits: \"31:0\", description: V.}\n"
                              "enums:\n"
                              "  - name: mode\n"
                              "    description: Modes.\n"
                              "    values:\n"
                              "      - {name: A, value: 0}\n"
                              "      - {name: B, value: 3, description: Bee.}\n";
  const std::string regs =
      "block: {name: BLK, base: 0x1000, size: 0x100, description: A block.}\n"
      "registers:\n"
      "  - name: CTRL\n"
      "    offset: 0x0\n"
      "    access: rw\n"
      "    reset: 0x0000_0101\n"
      "    description: Control.\n"
      "    fields:\n"
      "      - {name: run, bits: \"0\", reset: 1, description: Run.}\n"
      "      - {name: irq, bits: \"8\", access: w1c, reset: 1, description: Irq.}\n"
      "  - array: Q\n"
      "    offset: 0x40\n"
      "    stride: 0x10\n"
      "    count: 4\n"
      "    description: Queues.\n"
      "    registers:\n"
      "      - {name: BASE, offset: 0x0, access: rw, description: Base., fields: [{name: addr, bits: \"31:6\", description: A.}]}\n"
      "      - {name: PTR, offset: 0xc, access: ro, description: Ptr., fields: [{name: ptr, bits: \"15:0\", description: P.}]}\n";
  const Loaded l = load(dir, packets, {regs});
  EXPECT_TRUE(l.diag.ok()) << l.diag.str();
  ASSERT_EQ(l.spec.packets.size(), 2u);
  EXPECT_EQ(l.spec.packets[1].max_length, 65535u) << "variable packets default to the header max";
  ASSERT_EQ(l.spec.blocks.size(), 1u);
  EXPECT_EQ(l.spec.blocks[0].registers[0].reset_value(), 0x101u);
  EXPECT_EQ(l.spec.enums[0].resolved_width, 2u) << "enum width comes from its field";
}

// ---- schema: keys and types -----------------------------------------------------------------

TEST(SpecValidation, UnknownKeyIsReportedWithSuggestion) {
  // Catches a typo silently dropping a value (yaml-cpp would just return a default).
  TempDir dir;
  const Loaded l = load(dir, std::string(kHeader) +
                                 "  - name: DRAW\n"
                                 "    opcode: 0x20\n"
                                 "    description: Draw.\n"
                                 "    lenght: 0\n");
  EXPECT_ERROR(l, l.packets_path, 10, 5, "packets[0].lenght",
               "unknown key 'lenght' (did you mean 'length'?)");
  EXPECT_ERROR(l, l.packets_path, 7, 5, "packets[0]", "missing required key 'length'");
}

TEST(SpecValidation, UnquotedCommaInFlowMappingGetsAHint) {
  // Catches the classic YAML trap: {description: a, b} makes "b" a key.
  TempDir dir;
  const Loaded l = load(dir, std::string(kHeader) +
                                 "  - {name: END, opcode: 0x22, length: 0, description: Ends, then stops.}\n");
  EXPECT_ERROR(l, l.packets_path, 7, 61, "packets[0].then stops.",
               "an unquoted comma inside {...} ends a value");
}

TEST(SpecValidation, MissingRequiredKeysAreReportedAtTheMapping) {
  TempDir dir;
  const Loaded l = load(dir, std::string(kHeader) +
                                 "  - name: DRAW\n"
                                 "    length: 0\n");
  EXPECT_ERROR(l, l.packets_path, 7, 5, "packets[0]", "missing required key 'opcode'");
  EXPECT_ERROR(l, l.packets_path, 7, 5, "packets[0]", "missing required key 'description'");
}

TEST(SpecValidation, WrongTypesAreReported) {
  // Catches a list, mapping or word where a number, list or flag is expected.
  TempDir dir;
  const Loaded l = load(dir, std::string(kHeader) +
                                 "  - name: DRAW\n"
                                 "    opcode: [1, 2]\n"
                                 "    description: Draw.\n"
                                 "    variable: maybe\n"
                                 "    min_length: 0x1G\n"
                                 "    fields: 3\n");
  EXPECT_ERROR(l, l.packets_path, 8, 13, "packets[0].opcode",
               "expected an unsigned integer, got a list");
  EXPECT_ERROR(l, l.packets_path, 10, 15, "packets[0].variable",
               "expected true or false, got 'maybe'");
  EXPECT_ERROR(l, l.packets_path, 12, 13, "packets[0].fields", "expected a list, got a scalar");
}

TEST(SpecValidation, BadNumbersAndNamesAreReported) {
  TempDir dir;
  const Loaded l = load(dir, std::string(kHeader) +
                                 "  - name: Draw\n"
                                 "    opcode: 0x2G\n"
                                 "    description: Draw.\n"
                                 "    length: 0\n");
  EXPECT_ERROR(l, l.packets_path, 7, 11, "packets[0].name",
               "'Draw' is not a valid name: use UPPER_SNAKE_CASE");
  EXPECT_ERROR(l, l.packets_path, 8, 13, "packets[0].opcode",
               "expected an unsigned integer (42, 0x2a or 0b101010), got '0x2G'");
}

TEST(SpecValidation, RepeatedYamlKeyIsReported) {
  // yaml-cpp keeps both entries and node["k"] silently returns the first.
  TempDir dir;
  const Loaded l = load(dir, std::string(kHeader) +
                                 "  - name: DRAW\n"
                                 "    opcode: 0x20\n"
                                 "    description: Draw.\n"
                                 "    length: 0\n"
                                 "    opcode: 0x21\n");
  EXPECT_ERROR(l, l.packets_path, 11, 5, "packets[0].opcode", "key 'opcode' is given twice");
}

TEST(SpecValidation, YamlSyntaxErrorNamesTheFileAndLine) {
  TempDir dir;
  const Loaded l = load(dir, std::string(kHeader) + "  - name: [DRAW\n");
  ASSERT_FALSE(l.diag.ok());
  EXPECT_EQ(l.diag.errors()[0].where.loc.file, l.packets_path);
  EXPECT_NE(l.diag.errors()[0].message.find("YAML syntax error"), std::string::npos)
      << l.diag.str();
  EXPECT_GE(l.diag.errors()[0].where.loc.line, 7);
}

// ---- packets ------------------------------------------------------------------------------

TEST(SpecValidation, DuplicatePacketNamesAndOpcodesAreReported) {
  // Catches two packets decoding to the same opcode (the firmware switch would not compile,
  // the RTL decoder would silently pick one).
  TempDir dir;
  const Loaded l = load(dir, std::string(kHeader) +
                                 "  - {name: DRAW, opcode: 0x20, length: 0, description: D.}\n"
                                 "  - {name: DRAW, opcode: 0x21, length: 0, description: D.}\n"
                                 "  - {name: FILL, opcode: 0x20, length: 0, description: F.}\n");
  EXPECT_ERROR(l, l.packets_path, 8, 12, "packets[1].name",
               fmt::format("packet 'DRAW' is already defined at {}:7:5", l.packets_path));
  EXPECT_ERROR(l, l.packets_path, 9, 26, "packets[2].opcode",
               fmt::format("opcode 0x20 of 'FILL' is already used by 'DRAW' at {}:7:5",
                           l.packets_path));
}

TEST(SpecValidation, OverlappingFieldsUseTheDocumentedFormat) {
  // Catches two fields sharing bits of one dword; checks the whole message, which
  // docs/spec-generator.md shows as the example of an error.
  TempDir dir;
  const Loaded l = load(dir, std::string(kHeader) +
                                 "  - name: DRAW\n"
                                 "    opcode: 0x20\n"
                                 "    description: Draw.\n"
                                 "    length: 2\n"
                                 "    fields:\n"
                                 "      - name: mode\n"
                                 "        dword: 0\n"
                                 "        bits: \"31:28\"\n"
                                 "        description: Mode.\n"
                                 "      - name: addr_lo\n"
                                 "        dword: 0\n"
                                 "        bits: \"31:30\"\n"
                                 "        description: Low address.\n"
                                 "      - name: other\n"
                                 "        dword: 1\n"
                                 "        bits: \"31:28\"\n"
                                 "        description: Same bits, other dword, no overlap.\n");
  ASSERT_EQ(l.diag.errors().size(), 1u) << l.diag.str();
  EXPECT_EQ(l.diag.errors()[0].str(),
            l.packets_path +
                ":18:15: packets[0].fields[1].bits: field 'addr_lo' [31:30] overlaps 'mode' [31:28]");
}

TEST(SpecValidation, FieldsOutside32BitsAndReversedRangesAreReported) {
  TempDir dir;
  const Loaded l = load(dir, std::string(kHeader) +
                                 "  - name: DRAW\n"
                                 "    opcode: 0x20\n"
                                 "    description: Draw.\n"
                                 "    length: 1\n"
                                 "    fields:\n"
                                 "      - {name: wide, dword: 0, bits: \"35:32\", description: W.}\n"
                                 "      - {name: back, dword: 0, bits: \"0:7\", description: B.}\n");
  EXPECT_ERROR(l, l.packets_path, 12, 38, "packets[0].fields[0].bits",
               "bits '35:32' lie outside the 32-bit dword (bit 35 > 31)");
  EXPECT_ERROR(l, l.packets_path, 13, 38, "packets[0].fields[1].bits",
               "write the range as msb:lsb ('7:0')");
}

TEST(SpecValidation, OpcodeAndLengthMustFitTheHeader) {
  TempDir dir;
  const Loaded l = load(dir, std::string(kHeader) +
                                 "  - {name: BIG, opcode: 0x100, length: 0, description: B.}\n"
                                 "  - {name: LONG, opcode: 0x01, length: 70000, description: L.}\n");
  EXPECT_ERROR(l, l.packets_path, 7, 25, "packets[0].opcode",
               "opcode 0x100 does not fit the 8-bit header opcode field [7:0]");
  EXPECT_ERROR(l, l.packets_path, 8, 40, "packets[1].length",
               "length 70000 does not fit the 16-bit header length field [31:16] (max 65535)");
}

TEST(SpecValidation, PayloadLengthMustMatchTheFields) {
  // Catches firmware reading a field past the end of a packet, and undocumented dwords.
  TempDir dir;
  const Loaded l = load(dir, std::string(kHeader) +
                                 "  - name: SHORT\n"  // 7
                                 "    opcode: 0x01\n"
                                 "    description: Field beyond the length.\n"
                                 "    length: 2\n"  // 10
                                 "    fields:\n"
                                 "      - {name: a, dword: 0, bits: \"31:0\", description: A.}\n"
                                 "      - {name: b, dword: 2, bits: \"31:0\", description: B.}\n"  // 13
                                 "  - name: GAP\n"  // 14
                                 "    opcode: 0x02\n"
                                 "    description: Dword 1 undescribed.\n"
                                 "    length: 3\n"  // 17
                                 "    fields:\n"
                                 "      - {name: a, dword: 0, bits: \"31:0\", description: A.}\n"
                                 "      - {name: c, dword: 2, bits: \"31:0\", description: C.}\n");
  EXPECT_ERROR(l, l.packets_path, 13, 26, "packets[0].fields[1].dword",
               "field 'b' is in dword 2, but the packet has 2 payload dwords (length: 2");
  EXPECT_ERROR(l, l.packets_path, 17, 13, "packets[1].length",
               "payload dword 1 of packet 'GAP' has no fields");
}

TEST(SpecValidation, LengthKeysMatchTheKindOfPacket) {
  // A fixed packet has `length`; a variable one `min_length` (and optionally `max_length`).
  TempDir dir;
  const Loaded l = load(dir, std::string(kHeader) +
                                 "  - name: FIXED_MIN\n"  // 7
                                 "    opcode: 0x01\n"
                                 "    description: Fixed packet with min_length.\n"
                                 "    length: 1\n"
                                 "    min_length: 1\n"  // 11
                                 "    fields:\n"
                                 "      - {name: v, dword: 0, bits: \"31:0\", description: V.}\n"
                                 "  - name: NO_MIN\n"  // 14
                                 "    opcode: 0x04\n"
                                 "    description: Variable without min_length.\n"
                                 "    variable: true\n");
  EXPECT_ERROR(l, l.packets_path, 11, 17, "packets[0].min_length",
               "'min_length' is only for variable-length packets");
  EXPECT_ERROR(l, l.packets_path, 14, 5, "packets[1]", "missing required key 'min_length'");
}

TEST(SpecValidation, VariableLengthTailRulesAreEnforced) {
  // Catches a repeated tail that could be absent, a variable packet whose variable part is
  // undescribed, and repeated fields in fixed packets.
  TempDir dir;
  const Loaded l = load(dir, std::string(kHeader) +
                                 "  - name: FIXED_REP\n"  // 7
                                 "    opcode: 0x01\n"
                                 "    description: Repeated tail in a fixed packet.\n"
                                 "    length: 1\n"
                                 "    fields:\n"
                                 "      - {name: v, dword: 0, repeated: true, bits: \"31:0\", description: V.}\n"  // 12
                                 "  - name: NO_TAIL\n"  // 13
                                 "    opcode: 0x02\n"
                                 "    description: Variable without a repeated tail.\n"
                                 "    variable: true\n"
                                 "    min_length: 1\n"
                                 "    fields:\n"  // 18
                                 "      - {name: a, dword: 0, bits: \"31:0\", description: A.}\n"
                                 "  - name: SHORT_MIN\n"  // 20
                                 "    opcode: 0x03\n"
                                 "    description: min_length shorter than the fixed prefix.\n"
                                 "    variable: true\n"
                                 "    min_length: 1\n"
                                 "    fields:\n"
                                 "      - {name: a, dword: 0, bits: \"31:0\", description: A.}\n"
                                 "      - {name: b, dword: 1, bits: \"31:0\", description: B.}\n"
                                 "      - {name: v, dword: 2, repeated: true, bits: \"31:0\", description: V.}\n");  // 28
  EXPECT_ERROR(l, l.packets_path, 12, 39, "packets[0].fields[0].repeated",
               "only a variable-length packet (variable: true) has a repeated tail");
  EXPECT_ERROR(l, l.packets_path, 19, 7, "packets[1].fields",
               "describes fields but no repeated tail");
  EXPECT_ERROR(l, l.packets_path, 28, 26, "packets[2].fields[2].dword",
               "repeated tail starts at dword 2, but min_length 1 lets the packet end before it");
}

TEST(SpecValidation, HeaderFieldsAndFlagsAreChecked) {
  TempDir dir;
  const Loaded l = load(dir,
                        "header:\n"
                        "  description: H.\n"
                        "  opcode: {bits: \"7:0\", description: Op.}\n"
                        "  flags: {bits: \"15:8\", description: F.}\n"
                        "  length: {bits: \"31:15\", description: L.}\n"  // 5: overlaps flags
                        "packets:\n"
                        "  - name: FENCE\n"
                        "    opcode: 0x30\n"
                        "    description: F.\n"
                        "    length: 0\n"
                        "    header_flags:\n"
                        "      - {name: irq, bits: \"16\", description: Outside the flags field.}\n");
  EXPECT_ERROR(l, l.packets_path, 5, 18, "header.length.bits",
               "header field 'length' [31:15] overlaps 'flags' [15:8]");
  EXPECT_ERROR(l, l.packets_path, 12, 27, "packets[0].header_flags[0].bits",
               "header flag 'irq' [16] lies outside the header's flags field [15:8]");
}

// ---- enums --------------------------------------------------------------------------------

TEST(SpecValidation, EnumValuesMustFitTheirField) {
  // Catches an enum constant that the field cannot hold (RTL compares would never match).
  TempDir dir;
  const Loaded l = load(dir, std::string(kHeader) +
                                 "  - name: DRAW\n"
                                 "    opcode: 0x20\n"
                                 "    description: D.\n"
                                 "    length: 1\n"
                                 "    fields:\n"
                                 "      - {name: topo, dword: 0, bits: \"1:0\", enum: topology, description: T.}\n"  // 12
                                 "enums:\n"
                                 "  - name: topology\n"
                                 "    description: T.\n"
                                 "    values:\n"
                                 "      - {name: TRI_LIST, value: 0}\n"
                                 "      - {name: PATCH_ISOLINE, value: 4}\n");  // 18
  EXPECT_ERROR(l, l.packets_path, 12, 51, "packets[0].fields[0].enum",
               "enum 'topology' value 'PATCH_ISOLINE' = 4 does not fit field 'topo' [1:0] "
               "(2 bits, max 3)");
}

TEST(SpecValidation, EnumReferencesWidthsAndValuesAreChecked) {
  TempDir dir;
  const Loaded l = load(dir, std::string(kHeader) +
                                 "  - name: DRAW\n"
                                 "    opcode: 0x20\n"
                                 "    description: D.\n"
                                 "    length: 1\n"
                                 "    fields:\n"
                                 "      - {name: a, dword: 0, bits: \"1:0\", enum: modes, description: A.}\n"   // 12
                                 "      - {name: b, dword: 0, bits: \"4:2\", enum: mode, description: B.}\n"    // 13
                                 "      - {name: c, dword: 0, bits: \"7:6\", enum: mode, description: C.}\n"    // 14
                                 "      - {name: d, dword: 0, bits: \"9:8\", enum: fixed, description: D.}\n"   // 15
                                 "enums:\n"
                                 "  - name: mode\n"
                                 "    description: M.\n"
                                 "    values:\n"
                                 "      - {name: X, value: 0}\n"
                                 "      - {name: X, value: 1}\n"  // 21
                                 "      - {name: Y, value: 0}\n"  // 22
                                 "  - name: fixed\n"
                                 "    description: Explicit width.\n"
                                 "    width: 3\n"
                                 "    values:\n"
                                 "      - {name: P, value: 9}\n");  // 27
  EXPECT_ERROR(l, l.packets_path, 12, 48, "packets[0].fields[0].enum",
               "field 'a' refers to unknown enum 'modes' (did you mean 'mode'?)");
  EXPECT_ERROR(l, l.packets_path, 14, 35, "packets[0].fields[2].bits",
               "field 'c' [7:6] is 2 bits wide, but enum 'mode' is already used by the 3-bit "
               "field 'b'");
  EXPECT_ERROR(l, l.packets_path, 15, 35, "packets[0].fields[3].bits",
               "field 'd' [9:8] is 2 bits wide but enum 'fixed' is 3 bits (width: 3)");
  EXPECT_ERROR(l, l.packets_path, 21, 16, "enums[0].values[1].name",
               "enum 'mode' already has a value named 'X'");
  EXPECT_ERROR(l, l.packets_path, 22, 26, "enums[0].values[2].value",
               "value 0 of 'Y' is already used by 'X' in enum 'mode'");
  EXPECT_ERROR(l, l.packets_path, 27, 26, "enums[1].values[0].value",
               "enum 'fixed' value 'P' = 9 does not fit the enum's width 3 (max 7)");
}

// ---- registers ----------------------------------------------------------------------------

TEST(SpecValidation, RegisterOffsetsMustBeAlignedAndInside) {
  TempDir dir;
  const Loaded l = load(dir, "",
                        {"block: {name: BLK, base: 0x0, size: 0x10, description: B.}\n"
                         "registers:\n"
                         "  - {name: A, offset: 0x2, access: rw, description: A., fields: [{name: v, bits: \"0\", description: V.}]}\n"
                         "  - {name: B, offset: 0x10, access: rw, description: B., fields: [{name: v, bits: \"0\", description: V.}]}\n"});
  const std::string f = l.register_paths[0];
  EXPECT_ERROR(l, f, 3, 23, "registers[0].offset",
               "offset 0x2 of register 'A' is not 4-byte aligned");
  EXPECT_ERROR(l, f, 4, 23, "registers[1].offset",
               "offset 0x10 of register 'B' lies outside the block's 0x10-byte aperture");
}

TEST(SpecValidation, StateWritesMustBeBusOrInBand) {
  // Catches a misspelt state_writes silently generating a register top whose state the bus
  // can write (the block's command-stream ordering would be bypassed).
  TempDir dir;
  const Loaded l = load(dir, "",
                        {"block: {name: BLK, base: 0x0, size: 0x10, state_writes: inband, description: B.}\n"
                         "registers:\n"
                         "  - {name: A, offset: 0x0, access: rw, description: A., fields: [{name: v, bits: \"0\", description: V.}]}\n"});
  EXPECT_ERROR(l, l.register_paths[0], 1, 57, "block.state_writes",
               "state_writes must be 'bus' or 'in_band', not 'inband'");
}

TEST(SpecValidation, HugeValuesDoNotWrapAround) {
  // Catches 64-bit wrap-around letting an absurd offset, stride or length pass the range checks.
  TempDir dir;
  const Loaded l = load(dir, "",
                        {"block: {name: BLK, base: 0x0, size: 0x100, description: B.}\n"
                         "registers:\n"
                         "  - {name: A, offset: 0xffff_ffff_ffff_fffc, access: rw, description: A., fields: [{name: v, bits: \"0\", description: V.}]}\n"
                         "  - {array: Q, offset: 0x10, stride: 0x8000_0000_0000_0000, count: 2, description: Q.,\n"
                         "     registers: [{name: P, offset: 0x0, access: rw, description: P., fields: [{name: v, bits: \"0\", description: V.}]}]}\n"});
  const std::string f = l.register_paths[0];
  EXPECT_ERROR(l, f, 3, 23, "registers[0].offset",
               "offset 0xfffffffffffffffc of register 'A' lies outside the block's 0x100-byte aperture");
  EXPECT_ERROR(l, f, 4, 24, "registers[1].offset",
               "array 'Q' (offset 0x10, stride 0x8000000000000000) does not fit the block's 0x100-byte aperture");
}

TEST(SpecValidation, OverlappingRegistersAreReportedIncludingArrayInstances) {
  // Catches two registers decoding to one address, including through an array's stride
  // (instance 1 of Q lands on the plain register at 0x24).
  TempDir dir;
  const Loaded l = load(dir, "",
                        {"block: {name: BLK, base: 0x0, size: 0x100, description: B.}\n"
                         "registers:\n"
                         "  - {name: A, offset: 0x4, access: rw, description: A., fields: [{name: v, bits: \"0\", description: V.}]}\n"
                         "  - {name: B, offset: 0x4, access: rw, description: B., fields: [{name: v, bits: \"0\", description: V.}]}\n"
                         "  - {name: C, offset: 0x24, access: rw, description: C., fields: [{name: v, bits: \"0\", description: V.}]}\n"
                         "  - array: Q\n"  // 6
                         "    offset: 0x10\n"
                         "    stride: 0x10\n"
                         "    count: 2\n"
                         "    description: Q.\n"
                         "    registers:\n"
                         "      - {name: P, offset: 0x4, access: rw, description: P., fields: [{name: v, bits: \"0\", description: V.}]}\n"
                         "      - {name: R, offset: 0x10, access: rw, description: R., fields: [{name: v, bits: \"0\", description: V.}]}\n"});
  const std::string f = l.register_paths[0];
  EXPECT_ERROR(l, f, 4, 23, "registers[1].offset",
               fmt::format("register 'B' at offset 0x4 overlaps 'A' at {}:3:23", f));
  EXPECT_ERROR(l, f, 12, 27, "registers[3].registers[0].offset",
               fmt::format("register 'P[1]' at offset 0x24 overlaps 'C' at {}:5:23", f));
  EXPECT_ERROR(l, f, 13, 27, "registers[3].registers[1].offset",
               "offset 0x10 of register 'R' does not fit in the array's stride 0x10");
}

TEST(SpecValidation, RegisterFieldsAreChecked) {
  // Catches overlapping fields, resets the field cannot hold, a register-level reset that
  // disagrees with its fields, and duplicate field and register names.
  TempDir dir;
  const Loaded l = load(dir, "",
                        {"block: {name: BLK, base: 0x0, size: 0x100, description: B.}\n"
                         "registers:\n"
                         "  - name: CTRL\n"  // 3
                         "    offset: 0x0\n"
                         "    access: rw\n"
                         "    reset: 0x3\n"  // 6
                         "    description: C.\n"
                         "    fields:\n"
                         "      - {name: mode, bits: \"3:0\", reset: 1, description: M.}\n"
                         "      - {name: en, bits: \"2\", description: Overlaps mode.}\n"  // 10
                         "      - {name: lvl, bits: \"9:8\", reset: 4, description: Too big.}\n"  // 11
                         "      - {name: mode, bits: \"12\", description: Dup.}\n"  // 12
                         "  - name: STAT\n"  // 13
                         "    offset: 0x4\n"
                         "    access: ro\n"
                         "    reset: 0x2\n"  // 16
                         "    description: S.\n"
                         "    fields:\n"
                         "      - {name: busy, bits: \"0\", reset: 1, description: B.}\n"
                         "  - {name: CTRL, offset: 0x8, access: rw, description: Dup., fields: [{name: v, bits: \"0\", description: V.}]}\n"});
  const std::string f = l.register_paths[0];
  EXPECT_ERROR(l, f, 10, 26, "registers[0].fields[1].bits",
               "field 'en' [2] overlaps 'mode' [3:0]");
  EXPECT_ERROR(l, f, 11, 41, "registers[0].fields[2].reset",
               "reset 0x4 does not fit field 'lvl' [9:8] (2 bits, max 0x3)");
  EXPECT_ERROR(l, f, 12, 16, "registers[0].fields[3].name", "field name 'mode' is already used at");
  EXPECT_ERROR(l, f, 16, 12, "registers[1].reset",
               "register reset 0x00000002 disagrees with its fields' resets, which compose to "
               "0x00000001");
  EXPECT_ERROR(l, f, 20, 12, "registers[2].name",
               "register name 'CTRL' is already used in block 'BLK'");
}

TEST(SpecValidation, UnknownAccessIsReported) {
  TempDir dir;
  const Loaded l = load(dir, "",
                        {"block: {name: BLK, base: 0x0, size: 0x100, description: B.}\n"
                         "registers:\n"
                         "  - {name: CTRL, offset: 0x0, access: rw, description: C.,\n"
                         "     fields: [{name: mode, bits: \"12\", access: rx, description: M.}]}\n"});
  EXPECT_ERROR(l, l.register_paths[0], 4, 48, "registers[0].fields[0].access",
               "unknown access 'rx' (expected rw, ro, wo or w1c)");
}

TEST(SpecValidation, DuplicateFieldNameInRegisterIsReported) {
  TempDir dir;
  const Loaded l = load(dir, "",
                        {"block: {name: BLK, base: 0x0, size: 0x100, description: B.}\n"
                         "registers:\n"
                         "  - name: CTRL\n"
                         "    offset: 0x0\n"
                         "    access: rw\n"
                         "    description: C.\n"
                         "    fields:\n"
                         "      - {name: mode, bits: \"3:0\", description: M.}\n"
                         "      - {name: mode, bits: \"12\", description: Dup.}\n"});
  EXPECT_ERROR(l, l.register_paths[0], 9, 16, "registers[0].fields[1].name",
               "field name 'mode' is already used at");
}

TEST(SpecValidation, BlocksMustNotOverlapOrRepeat) {
  // Catches two register files claiming the same host addresses.
  TempDir dir;
  const std::string regs2 =
      "block: {name: SLC, base: 0x1080, size: 0x100, description: S.}\n"
      "registers:\n"
      "  - {name: CTRL, offset: 0x0, access: rw, description: C., fields: [{name: v, bits: \"0\", description: V.}]}\n";
  const std::string regs3 =
      "block: {name: BLK, base: 0x8000, size: 0x100, description: Same name.}\n"
      "registers:\n"
      "  - {name: CTRL, offset: 0x0, access: rw, description: C., fields: [{name: v, bits: \"0\", description: V.}]}\n";
  const Loaded l = load(dir, "", {kGoodBlock, regs2, regs3});
  EXPECT_ERROR(l, l.register_paths[1], 1, 26, "block.base",
               fmt::format("block 'SLC' [0x00001080..0x0000117f] overlaps block 'BLK' "
                           "[0x00001000..0x000010ff] at {}:1:8",
                           l.register_paths[0]));
  EXPECT_ERROR(l, l.register_paths[2], 1, 15, "block.name",
               fmt::format("block 'BLK' is already defined at {}:1:8", l.register_paths[0]));
}

TEST(SpecValidation, AllErrorsOfARunAreReported) {
  // One run lists every mistake, not only the first.
  TempDir dir;
  const Loaded l = load(dir, "",
                        {"block: {name: BLK, base: 0x2, size: 0x100, description: B.}\n"
                         "registers:\n"
                         "  - {name: A, offset: 0x1, access: rw, description: A., fields: [{name: v, bits: \"0\", description: V.}]}\n"
                         "  - {name: B, offset: 0x5, access: rw, description: B., fields: [{name: v, bits: \"0\", description: V.}]}\n"});
  EXPECT_EQ(l.diag.errors().size(), 3u) << l.diag.str();
}

// ---- generated-name collisions ------------------------------------------------------------

TEST(SpecValidation, GeneratedNameCollisionsAreReported) {
  // A field named 'rw' in CTRL generates TS_BLK_CTRL_RW_MASK, which is also the register's
  // access mask: both definitions would reach the C header and the SV package.
  TempDir dir;
  const Loaded l = load(dir, "",
                        {"block: {name: BLK, base: 0x0, size: 0x100, description: B.}\n"
                         "registers:\n"
                         "  - name: CTRL\n"
                         "    offset: 0x0\n"
                         "    access: rw\n"
                         "    description: C.\n"
                         "    fields:\n"
                         "      - {name: rw, bits: \"0\", description: Unlucky name.}\n"});
  ASSERT_TRUE(l.diag.ok()) << "each element is valid on its own: " << l.diag.str();
  Diagnostics d;
  const auto files = generate(l.spec, OutputDirs{dir.path(), dir.path(), dir.path()}, d);
  EXPECT_TRUE(files.empty());
  const Loaded shown{l.spec, d, "", l.register_paths};
  EXPECT_ERROR(shown, l.register_paths[0], 8, 9, "registers[0].fields[0]",
               "generates SystemVerilog name 'TS_BLK_CTRL_RW_MASK', which");
  EXPECT_ERROR(shown, l.register_paths[0], 8, 9, "registers[0].fields[0]",
               "generates C name 'TS_BLK_CTRL_RW_MASK', which");
}

}  // namespace
}  // namespace tessera::specgen::test
