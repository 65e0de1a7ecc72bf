// The emitters: a known spec must produce the expected SystemVerilog localparams and enum
// typedefs, C macros and Markdown rows, byte-identically on every run; the real spec/ must
// load and generate cleanly. These fail if a value is emitted wrongly (wrong width, shift,
// offset or header word), if output changes between runs (the committed docs/reference
// would always look stale), or if the real spec stops validating.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

#include "test_util.hpp"

namespace tessera::specgen::test {
namespace {

const std::string kPackets = std::string(kHeader) +
                             "  - name: DRAW\n"
                             "    opcode: 0x20\n"
                             "    description: Draw things. More text.\n"
                             "    length: 2\n"
                             "    header_flags:\n"
                             "      - {name: irq, bits: \"10\", description: Interrupt.}\n"
                             "    fields:\n"
                             "      - {name: count, dword: 0, bits: \"31:0\", description: Count.}\n"
                             "      - {name: topo, dword: 1, bits: \"6:4\", enum: topology, description: Topology.}\n"
                             "  - name: SET_REGS\n"
                             "    opcode: 0x10\n"
                             "    description: Set registers.\n"
                             "    variable: true\n"
                             "    min_length: 2\n"
                             "    max_length: 17\n"
                             "    fields:\n"
                             "      - {name: offset, dword: 0, bits: \"15:0\", description: First register.}\n"
                             "      - {name: value, dword: 1, repeated: true, bits: \"31:0\", description: Values.}\n"
                             "enums:\n"
                             "  - name: topology\n"
                             "    description: Topologies.\n"
                             "    values:\n"
                             "      - {name: TRI_LIST, value: 0, description: Triangles.}\n"
                             "      - {name: PATCH_ISOLINE, value: 4, description: \"Lines | pipes.\"}\n";

const std::string kRegisters =
    "block: {name: CP, base: 0x2000, size: 0x1000, description: Command processor.}\n"
    "registers:\n"
    "  - name: CTRL\n"
    "    offset: 0x8\n"
    "    access: rw\n"
    "    description: Control.\n"
    "    fields:\n"
    "      - {name: run, bits: \"0\", reset: 1, description: Run.}\n"
    "      - {name: kick, bits: \"1\", access: wo, description: Kick.}\n"
    "      - {name: irq, bits: \"9:8\", access: w1c, reset: 2, description: Irq.}\n"
    "  - array: QUEUE\n"
    "    offset: 0x100\n"
    "    stride: 0x20\n"
    "    count: 2\n"
    "    description: Queues.\n"
    "    registers:\n"
    "      - {name: RING_WPTR, offset: 0xc, access: rw, description: Write pointer.,\n"
    "         fields: [{name: ptr, bits: \"15:0\", description: Pointer.}]}\n";

struct Generated {
  std::string sv, c, packets_md, registers_md;
};

Generated generate_all(const Spec& spec) {
  Diagnostics d;
  Generated g;
  g.sv = emit_sv_package(spec, d);
  g.c = emit_c_header(spec, d);
  g.packets_md = emit_packets_md(spec);
  g.registers_md = emit_registers_md(spec);
  EXPECT_TRUE(d.ok()) << d.str();
  return g;
}

// A generated line matching `pattern` (alignment padding is free).
bool has_line(const std::string& text, const std::string& pattern) {
  return std::regex_search(text, std::regex("(^|\\n)" + pattern + "(\\s|$)"));
}

#define EXPECT_LINE(text, pattern) \
  EXPECT_TRUE(has_line((text), (pattern))) << "no line matching: " << (pattern)

class FixtureSpec : public ::testing::Test {
 protected:
  void SetUp() override {
    loaded_ = load(dir_, kPackets, {kRegisters});
    ASSERT_TRUE(loaded_.diag.ok()) << loaded_.diag.str();
    out_ = generate_all(loaded_.spec);
  }
  TempDir dir_;
  Loaded loaded_;
  Generated out_;
};

TEST_F(FixtureSpec, SvPackageHasTypedLocalparams) {
  const std::string& sv = out_.sv;
  EXPECT_NE(sv.find("package tessera_spec_pkg;"), std::string::npos);
  EXPECT_LINE(sv, R"(  localparam logic \[7:0\] TS_OP_DRAW\s+= 8'h20;)");
  EXPECT_LINE(sv, R"(  localparam int unsigned TS_PKT_HDR_LENGTH_LSB\s+= 16;)");
  EXPECT_LINE(sv, R"(  localparam logic \[15:0\] TS_PKT_DRAW_LEN\s+= 16'd2;)");
  // Opcode 0x20 in [7:0], length 2 in [31:16].
  EXPECT_LINE(sv, R"(  localparam logic \[31:0\] TS_PKT_DRAW_HEADER\s+= 32'h0002_0020;)");
  EXPECT_LINE(sv, R"(  localparam int unsigned TS_PKT_DRAW_TOPO_DW\s+= 1;)");
  EXPECT_LINE(sv, R"(  localparam int unsigned TS_PKT_DRAW_TOPO_LSB\s+= 4;)");
  EXPECT_LINE(sv, R"(  localparam int unsigned TS_PKT_DRAW_TOPO_WIDTH\s+= 3;)");
  EXPECT_LINE(sv, R"(  localparam logic \[31:0\] TS_PKT_DRAW_TOPO_MASK\s+= 32'h0000_0070;)");
  EXPECT_LINE(sv, R"(  localparam logic \[31:0\] TS_PKT_DRAW_FLAG_IRQ_MASK\s+= 32'h0000_0400;)");
  // A variable packet has bounds but no single length or constant header.
  EXPECT_LINE(sv, R"(  localparam logic \[15:0\] TS_PKT_SET_REGS_MAX_LEN\s+= 16'd17;)");
  EXPECT_EQ(sv.find("TS_PKT_SET_REGS_LEN "), std::string::npos);
  EXPECT_EQ(sv.find("TS_PKT_SET_REGS_HEADER"), std::string::npos);
  // Enum typedef with the field's width.
  EXPECT_NE(sv.find("  typedef enum logic [2:0] {"), std::string::npos);
  EXPECT_LINE(sv, R"(    TS_TOPOLOGY_PATCH_ISOLINE\s+= 3'd4\s+// Lines \| pipes.)");
  EXPECT_NE(sv.find("  } ts_topology_e;"), std::string::npos);
  // Registers: offsets, composed resets, access masks, per-field resets at field width.
  EXPECT_LINE(sv, R"(  localparam logic \[31:0\] TS_CP_BASE_ADDR\s+= 32'h0000_2000;.*)");
  EXPECT_LINE(sv, R"(  localparam int unsigned TS_CP_ADDR_WIDTH\s+= 12;.*)");
  EXPECT_LINE(sv, R"(  localparam logic \[31:0\] TS_CP_CTRL_OFFSET\s+= 32'h0000_0008;)");
  EXPECT_LINE(sv, R"(  localparam logic \[31:0\] TS_CP_CTRL_RESET\s+= 32'h0000_0201;)");
  EXPECT_LINE(sv, R"(  localparam logic \[31:0\] TS_CP_CTRL_RW_MASK\s+= 32'h0000_0001;)");
  EXPECT_LINE(sv, R"(  localparam logic \[31:0\] TS_CP_CTRL_WO_MASK\s+= 32'h0000_0002;)");
  EXPECT_LINE(sv, R"(  localparam logic \[31:0\] TS_CP_CTRL_W1C_MASK\s+= 32'h0000_0300;)");
  EXPECT_LINE(sv, R"(  localparam logic \[1:0\] TS_CP_CTRL_IRQ_RESET\s+= 2'h2;)");
  // Array: instance-0 offset plus stride and count.
  EXPECT_LINE(sv, R"(  localparam int unsigned TS_CP_QUEUE_COUNT\s+= 2;)");
  EXPECT_LINE(sv, R"(  localparam logic \[31:0\] TS_CP_QUEUE_STRIDE\s+= 32'h0000_0020;)");
  EXPECT_LINE(sv, R"(  localparam logic \[31:0\] TS_CP_RING_WPTR_OFFSET\s+= 32'h0000_010c;)");
  // The constructs Yosys 0.23 rejects must never appear in code (comments may name them).
  const std::string code = std::regex_replace(sv, std::regex("//[^\n]*"), "");
  EXPECT_EQ(code.find("import"), std::string::npos);
  EXPECT_EQ(code.find(" inside "), std::string::npos);
  EXPECT_EQ(code.find("'{"), std::string::npos);
  EXPECT_EQ(code.find("function"), std::string::npos);
}

TEST_F(FixtureSpec, CHeaderHasMacros) {
  const std::string& c = out_.c;
  EXPECT_NE(c.find("#include <stdint.h>"), std::string::npos);
  EXPECT_LINE(c, R"(#define TS_OP_DRAW\s+0x20u.*)");
  EXPECT_LINE(c, R"(#define TS_PKT_HEADER\(op, len\)\s+\(TS_PKT_HDR_OPCODE_PUT\(op\) \| TS_PKT_HDR_LENGTH_PUT\(len\)\).*)");
  EXPECT_LINE(c, R"(#define TS_PKT_DRAW_HEADER\s+TS_PKT_HEADER\(TS_OP_DRAW, TS_PKT_DRAW_LEN\).*)");
  EXPECT_LINE(c, R"(#define TS_PKT_SET_REGS_HEADER\(len\)\s+TS_PKT_HEADER\(TS_OP_SET_REGS, \(len\)\).*)");
  EXPECT_LINE(c, R"(#define TS_PKT_DRAW_TOPO_MASK\s+0x00000070u)");
  EXPECT_LINE(c, R"(#define TS_PKT_DRAW_TOPO_GET\(dw\)\s+\(\(\(\(uint32_t\)\(dw\)\) & TS_PKT_DRAW_TOPO_MASK\) >> TS_PKT_DRAW_TOPO_LSB\))");
  EXPECT_LINE(c, R"(#define TS_TOPOLOGY_PATCH_ISOLINE\s+4u.*)");
  EXPECT_LINE(c, R"(#define TS_CP_CTRL_RESET\s+0x00000201u)");
  EXPECT_LINE(c, R"(#define TS_CP_RING_WPTR_OFFSET\s+0x10cu.*)");
  EXPECT_LINE(c, R"(#define TS_CP_RING_WPTR_OFFSET_N\(n\)\s+\(TS_CP_RING_WPTR_OFFSET \+ \(uint32_t\)\(n\) \* TS_CP_QUEUE_STRIDE\).*)");
  EXPECT_NE(c.find("static inline int ts_pkt_header_valid(uint32_t header)"), std::string::npos);
}

TEST_F(FixtureSpec, MarkdownTablesHaveOneRowPerItem) {
  EXPECT_NE(out_.packets_md.find("| 0x10 | [SET_REGS](#set_regs) | 2..17 | Set registers. |"),
            std::string::npos)
      << out_.packets_md;
  EXPECT_NE(out_.packets_md.find("| 0x20 | [DRAW](#draw) | 2 | Draw things. |"), std::string::npos);
  EXPECT_NE(out_.packets_md.find("| 1+ (repeated) | [31:0] | value | Values. |"), std::string::npos);
  EXPECT_NE(out_.packets_md.find("| [10] | irq | Interrupt. |"), std::string::npos);
  // '|' inside a description is escaped so the table keeps its columns.
  EXPECT_NE(out_.packets_md.find("| 4 | PATCH_ISOLINE | Lines \\| pipes. |"), std::string::npos);
  EXPECT_NE(out_.registers_md.find("| 0x008 | CTRL | rw/wo/w1c | 0x00000201 | Control. |"),
            std::string::npos)
      << out_.registers_md;
  EXPECT_NE(out_.registers_md.find("| 0x10c + n*0x20 | RING_WPTR[n] | rw | 0x00000000 |"),
            std::string::npos);
  EXPECT_NE(out_.registers_md.find("| [9:8] | irq | w1c | 0x2 | Irq. |"), std::string::npos);
}

TEST_F(FixtureSpec, OutputIsDeterministic) {
  // Catches anything run-dependent (time, pointer order) that would make the committed
  // docs/reference permanently "stale".
  const Generated again = generate_all(loaded_.spec);
  EXPECT_EQ(out_.sv, again.sv);
  EXPECT_EQ(out_.c, again.c);
  EXPECT_EQ(out_.packets_md, again.packets_md);
  EXPECT_EQ(out_.registers_md, again.registers_md);
  // No trailing blanks (diff noise in reviewed, committed files).
  for (const std::string* text : {&out_.sv, &out_.c, &out_.packets_md, &out_.registers_md}) {
    EXPECT_EQ(text->find(" \n"), std::string::npos);
  }
}

TEST_F(FixtureSpec, WriteIfChangedLeavesIdenticalFilesAlone) {
  // Catches rewriting unchanged outputs, which would rebuild every RTL model and firmware
  // object on each reconfigure.
  Diagnostics d;
  const auto files = generate(loaded_.spec, OutputDirs{dir_.path() / "sv", dir_.path() / "c",
                                                       dir_.path() / "md"},
                              d);
  ASSERT_TRUE(d.ok()) << d.str();
  // package, header, two Markdown pages, and a register package and top per block
  ASSERT_EQ(files.size(), 4u + 2 * loaded_.spec.blocks.size());
  for (const auto& f : files) EXPECT_TRUE(write_if_changed(f.path, f.content)) << f.path;
  for (const auto& f : files) EXPECT_FALSE(write_if_changed(f.path, f.content)) << f.path;
  std::ifstream in(dir_.path() / "c" / "tessera_spec.h");
  std::ostringstream s;
  s << in.rdbuf();
  EXPECT_EQ(s.str(), out_.c);
  EXPECT_TRUE(write_if_changed(files[0].path, files[0].content + "// changed\n"));
}

// ---- the real spec/ ---------------------------------------------------------------------

SpecInputs real_inputs() {
  SpecInputs in;
  const std::filesystem::path root = TESSERA_SOURCE_DIR;
  in.packets = (root / "spec" / "packets.yaml").string();
  for (const auto& e : std::filesystem::directory_iterator(root / "spec" / "registers")) {
    if (e.path().extension() == ".yaml") in.registers.push_back(e.path().string());
  }
  std::sort(in.registers.begin(), in.registers.end());
  return in;
}

TEST(RealSpec, LoadsAndGenerates) {
  Diagnostics d;
  const Spec spec = load_spec(real_inputs(), d);
  ASSERT_TRUE(d.ok()) << d.str();
  const Generated g = generate_all(spec);

  // ARCHITECTURE.md section 4 lists these packets; each must exist in every output.
  for (const char* name :
       {"NOP", "INDIRECT_BUFFER", "SET_REGS", "DRAW", "RENDERPASS_BEGIN", "RENDERPASS_END",
        "SET_BIN_MODE", "BIND_VIS_BUFFER", "COND_EXEC", "FENCE", "BARRIER_UPDATE",
        "BARRIER_WAIT", "DSID_SET", "DSID_DELETE", "FRAME_END", "PERF_SAMPLE"}) {
    EXPECT_LINE(g.sv, fmt::format(R"(  localparam logic \[7:0\] TS_OP_{}\s+= 8'h[0-9a-f]{{2}};.*)", name));
    EXPECT_LINE(g.c, fmt::format(R"(#define TS_OP_{}\s+0x[0-9a-f]{{2}}u.*)", name));
    EXPECT_NE(g.packets_md.find(fmt::format("\n## {}\n", name)), std::string::npos) << name;
  }
  // Section 3 contracts: 6-bit hardware DSIDs, 32-bit addresses.
  for (const auto& p : spec.packets) {
    for (const auto& f : p.fields) {
      if (f.name.find("dsid") != std::string::npos) {
        EXPECT_EQ(f.bits.width(), 6u) << p.name << "." << f.name;
      }
      if (f.name == "addr" || f.name.ends_with("_addr")) {
        EXPECT_EQ(f.bits.width(), 32u) << p.name << "." << f.name;
      }
    }
  }
  // At least two hardware queues, as an array (ARCHITECTURE.md section 4).
  const auto cp = std::find_if(spec.blocks.begin(), spec.blocks.end(),
                               [](const Block& b) { return b.name == "CP"; });
  ASSERT_NE(cp, spec.blocks.end());
  ASSERT_EQ(cp->arrays.size(), 1u);
  EXPECT_GE(cp->arrays[0].count, 2u);
  for (const char* r : {"RING_BASE", "RING_SIZE", "RING_RPTR", "RING_WPTR", "DOORBELL"}) {
    EXPECT_LINE(g.c, fmt::format(R"(#define TS_CP_{}_OFFSET_N\(n\)\s+.*)", r));
  }
}

}  // namespace
}  // namespace tessera::specgen::test
