// Layouts (spec/layouts.yaml, docs/spec-generator.md "Layouts"): every mistake the generator
// must reject, at its exact FILE:LINE:COL, the SV it writes, and the C++ header generated from
// the real spec/ (tessera_layouts.hpp) checked against independent facts: the C field macros
// of the packets and the memory protocol's bit positions as the RTL has always had them. A
// test here fails if a field lands on the wrong bits in SV or C++, if pack and unpack disagree,
// or if a malformed layout is accepted.
#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
#include <string>

#include "tessera_layouts.hpp"
#include "tessera_spec.h"
#include "test_util.hpp"

namespace tessera::specgen::test {
namespace {

#define EXPECT_ERROR(loaded, file, line, col, path, message)                              \
  EXPECT_TRUE(has_error((loaded).diag, (file), (line), (col), (path), (message)))         \
      << "expected " << (file) << ":" << (line) << ":" << (col) << ": " << (path) << ": " \
      << (message) << "\nbut got:\n"                                                     \
      << (loaded).diag.str()

struct LoadedLayouts {
  Spec spec;
  Diagnostics diag;
  std::string path;
};

LoadedLayouts load_layouts(const TempDir& dir, const std::string& text) {
  LoadedLayouts l;
  SpecInputs in;
  l.path = in.layouts = dir.write("layouts.yaml", text);
  l.spec = load_spec(in, l.diag);
  return l;
}

const char* const kGood =
    "enums:\n"
    "  - name: op\n"
    "    description: Ops.\n"
    "    values: [{name: RD, value: 0}, {name: WR, value: 1}, {name: PF, value: 2}]\n"
    "layouts:\n"
    "  - name: req\n"
    "    description: A request.\n"
    "    sv_package: my_pkg\n"
    "    width: 47\n"
    "    fields:\n"
    "      - {name: data, width: 40, description: Data.}\n"
    "      - {name: x, width: 4, signed: true, description: X.}\n"
    "      - {name: pad, width: 1, reserved: true, description: Pad.}\n"
    "      - {name: op, width: 2, enum: op, description: Op.}\n";

TEST(Layouts, GoodLayoutLoadsAndPlacesFieldsFromBitZero) {
  TempDir dir;
  const LoadedLayouts l = load_layouts(dir, kGood);
  ASSERT_TRUE(l.diag.ok()) << l.diag.str();
  ASSERT_EQ(l.spec.layouts.size(), 1u);
  const Layout& r = l.spec.layouts[0];
  EXPECT_EQ(r.total_width(), 47u);
  EXPECT_EQ(r.fields[1].bits.lsb, 40u);
  EXPECT_EQ(r.fields[3].bits.lsb, 45u);
  EXPECT_EQ(r.fields[3].bits.msb, 46u);
}

TEST(Layouts, SchemaAndSemanticMistakesAreReportedAtTheirValue) {
  TempDir dir;
  const LoadedLayouts l = load_layouts(dir,
                                       "layouts:\n"
                                       "  - name: a\n"
                                       "    description: A.\n"
                                       "    widht: 3\n"
                                       "    fields:\n"
                                       "      - {name: f, width: 0, description: F.}\n");
  EXPECT_ERROR(l, l.path, 4, 5, "layouts[0].widht", "unknown key 'widht' (did you mean 'width'?)");
  EXPECT_ERROR(l, l.path, 6, 26, "layouts[0].fields[0].width", "width 0 is outside 1..4096");

  const LoadedLayouts s = load_layouts(dir,
                                       "enums:\n"
                                       "  - {name: e, description: E., values: [{name: A, value: 5}]}\n"
                                       "layouts:\n"
                                       "  - name: a\n"
                                       "    description: A.\n"
                                       "    width: 9\n"
                                       "    sv_package: mine\n"
                                       "    fields:\n"
                                       "      - {name: f, width: 3, description: F.}\n"
                                       "      - {name: f, width: 2, description: Again.}\n"
                                       "      - {name: g, width: 2, signed: true, enum: e, description: G.}\n"
                                       "      - {name: h, width: 1, enum: nope, description: H.}\n"
                                       "  - name: a\n"
                                       "    description: Twice.\n"
                                       "    fields: [{name: z, width: 1, description: Z.}]\n"
                                       "  - name: pkt_draw\n"
                                       "    description: Taken.\n"
                                       "    fields: [{name: z, width: 1, description: Z.}]\n");
  EXPECT_ERROR(s, s.path, 6, 12, "layouts[0].width", "says width 9 but its fields add up to 8 bits");
  EXPECT_ERROR(s, s.path, 7, 17, "layouts[0].sv_package", "must name an SV package ending in _pkg");
  EXPECT_ERROR(s, s.path, 10, 16, "layouts[0].fields[1].name", "already has a field named 'f'");
  EXPECT_ERROR(s, s.path, 11, 37, "layouts[0].fields[2].signed", "cannot be signed");
  EXPECT_ERROR(s, s.path, 11, 49, "layouts[0].fields[2].enum",
               "enum 'e' value 'A' = 5 does not fit layout field 'g'");
  EXPECT_ERROR(s, s.path, 12, 35, "layouts[0].fields[3].enum", "refers to unknown enum 'nope'");
  EXPECT_ERROR(s, s.path, 13, 11, "layouts[1].name", "layout 'a' is already defined at");
  EXPECT_ERROR(s, s.path, 16, 11, "layouts[2].name", "names starting with 'pkt_'");
}

TEST(Layouts, SvStructListsTheMostSignificantFieldFirstAndFragmentRepeatsTheEnum) {
  TempDir dir;
  const LoadedLayouts l = load_layouts(dir, kGood);
  ASSERT_TRUE(l.diag.ok()) << l.diag.str();
  Diagnostics d;
  const std::string sv = emit_sv_layouts(l.spec, "", d);
  ASSERT_TRUE(d.ok()) << d.str();
  const auto op = sv.find("ts_op_e      op;");
  const auto data = sv.find("logic [39:0] data;");
  ASSERT_NE(op, std::string::npos) << sv;
  ASSERT_NE(data, std::string::npos) << sv;
  EXPECT_LT(op, data);
  EXPECT_TRUE(std::regex_search(sv, std::regex("TS_REQ_W +=  *47;"))) << sv;
  EXPECT_TRUE(std::regex_search(sv, std::regex("TS_REQ_OP_LSB +=  *45;"))) << sv;

  const std::string frag = emit_sv_layout_fragment(l.spec, "my_pkg");
  EXPECT_NE(frag.find("} op_e;"), std::string::npos) << frag;
  EXPECT_NE(frag.find("OP_PF = 2'd2"), std::string::npos) << frag;
  EXPECT_NE(frag.find("} req_t;"), std::string::npos) << frag;
  EXPECT_TRUE(std::regex_search(frag, std::regex("REQ_W +=  *47;"))) << frag;
  EXPECT_TRUE(std::regex_search(frag, std::regex("REQ_X_LSB +=  *40;"))) << frag;

  // A layout name joining into a name the register/packet part already declares.
  Diagnostics clash;
  emit_sv_layouts(l.spec, "  localparam int unsigned TS_REQ_W = 1;\n", clash);
  EXPECT_FALSE(clash.ok());
}

// ---- the header generated from the real spec/ ------------------------------------------------

using tessera::layout::MemReq;
using tessera::layout::MemRsp;

TEST(GeneratedLayouts, MemoryProtocolKeepsTheRtlBitPositions) {
  // tessera_mem_pkg's struct order since the memory system exists: {op, addr, dsid, src, tag,
  // wstrb, wdata} = 629 bits, {op, err, src, tag, rdata} = 528 bits.
  static_assert(MemReq::kBits == 629 && MemRsp::kBits == 528);
  static_assert(MemReq::Pos::wstrb.lsb == 512 && MemReq::Pos::tag.lsb == 576);
  static_assert(MemReq::Pos::src.lsb == 584 && MemReq::Pos::dsid.lsb == 589);
  static_assert(MemReq::Pos::addr.lsb == 595 && MemReq::Pos::op.lsb == 627);
  static_assert(MemRsp::Pos::tag.lsb == 512 && MemRsp::Pos::err.lsb == 525 && MemRsp::Pos::op.lsb == 526);

  MemReq r;
  r.op = TS_MEM_OP_WRITE;
  r.addr = 0xdeadbec0u;
  r.dsid = 0x2a;
  r.src = 0x13;
  r.tag = 0xa5;
  r.wstrb = 0x8000'0000'0000'0001ull;
  for (unsigned i = 0; i < 64; ++i) r.wdata[i] = static_cast<std::uint8_t>(i * 7 + 1);
  const auto w = r.pack();
  EXPECT_EQ(w[0], 0x16'0f'08'01u);               // wdata bytes 3..0
  EXPECT_EQ(w[16], 1u);                          // wstrb[31:0]
  EXPECT_EQ(w[17], 0x8000'0000u);                // wstrb[63:32]
  EXPECT_EQ(w[18] & 0xffu, 0xa5u);               // tag [583:576]
  EXPECT_EQ((w[18] >> 8) & 0x1fu, 0x13u);        // src [588:584]
  EXPECT_EQ((w[18] >> 13) & 0x3fu, 0x2au);       // dsid [594:589]
  EXPECT_EQ(w[19] >> 19, TS_MEM_OP_WRITE * 1u);  // op [628:627] = word 19 bits 20:19
  EXPECT_EQ(MemReq::unpack(w.data()), r);

  MemRsp s;
  s.op = TS_MEM_OP_READ;
  s.err = true;
  s.src = 31;
  s.tag = 0xff;
  s.rdata[63] = 0x5a;
  const auto sw = s.pack();
  EXPECT_EQ(sw[15] >> 24, 0x5au);
  EXPECT_EQ(sw[16], 0xffu | (31u << 8) | (1u << 13));
  EXPECT_EQ(MemRsp::unpack(sw.data()), s);
}

TEST(GeneratedLayouts, PipeCommandAndGeometryPortsKeepTheRtlBitPositions) {
  using tessera::layout::PipeCmd;
  using tessera::layout::RdReq;
  using tessera::layout::Tri;
  // The structs tessera_cp_pkg and geom_pkg typed by hand before spec/layouts.yaml described
  // them: {opcode, queue_id, dsid, nargs, args} = 277 bits, {src, entry, mask, draw_id,
  // prim_id} = 67 bits, {src, entry} = 11 bits. The firmware-visible pipeline and the benches'
  // waveform expectations rely on these positions.
  static_assert(PipeCmd::kBits == 277 && PipeCmd::Pos::args.lsb == 0 && PipeCmd::Pos::args.width == 8 * 32);
  static_assert(PipeCmd::Pos::nargs.lsb == 256 && PipeCmd::Pos::dsid.lsb == 260);
  static_assert(PipeCmd::Pos::queue_id.lsb == 266 && PipeCmd::Pos::opcode.lsb == 269);
  static_assert(Tri::kBits == 67 && Tri::Pos::prim_id.lsb == 0 && Tri::Pos::draw_id.lsb == 32);
  static_assert(Tri::Pos::mask.lsb == 48 && Tri::Pos::entry.lsb == 56 && Tri::Pos::src.lsb == 64);
  static_assert(RdReq::kBits == 11 && RdReq::Pos::entry.lsb == 0 && RdReq::Pos::src.lsb == 8);
  // The read request is the tri record's {src, entry}, bit for bit.
  static_assert(RdReq::Pos::src.width == Tri::Pos::src.width && RdReq::Pos::entry.width == Tri::Pos::entry.width);

  PipeCmd c;
  c.opcode = 0xa5;
  c.queue_id = 5;
  c.dsid = 0x2b;
  c.nargs = 8;
  c.args[31] = 0xc3;  // argument 7, bits 31:24
  const auto w = c.pack();
  EXPECT_EQ(w[7], 0xc300'0000u);
  EXPECT_EQ(w[8], 8u | (0x2bu << 4) | (5u << 10) | (0xa5u << 13));
  EXPECT_EQ(PipeCmd::unpack(w.data()), c);

  Tri t;
  t.prim_id = 0x1234'5678u;
  t.draw_id = 0xbeef;
  t.mask = 0x81;
  t.entry = 0x7e;
  t.src = 6;
  const auto tw = t.pack();
  EXPECT_EQ(tw[0], 0x1234'5678u);
  EXPECT_EQ(tw[1], 0xbeefu | (0x81u << 16) | (0x7eu << 24));
  EXPECT_EQ(tw[2], 6u);
  EXPECT_EQ(Tri::unpack(tw.data()), t);
}

TEST(GeneratedLayouts, PayloadStructsAgreeWithTheCFieldMacros) {
  tessera::layout::RenderpassBeginPayload rp;
  rp.body_size = 0xabcdef;
  rp.color_addr = 0x1000'0040u;
  rp.width = 2048;
  rp.height = 0x7ff;
  rp.depth_addr = 0x2000'0000u;
  rp.color_load = TS_LOAD_OP_CLEAR;
  rp.color_store = 1;
  rp.depth_load = TS_LOAD_OP_DONT_CARE;
  rp.depth_store = 1;
  rp.clear_color = 0xff00ff00u;
  rp.clear_depth = 0xffffff;
  rp.color_dsid = 63;
  rp.depth_dsid = 5;
  const auto w = rp.pack();
  EXPECT_EQ(w[TS_PKT_RENDERPASS_BEGIN_BODY_SIZE_DW], TS_PKT_RENDERPASS_BEGIN_BODY_SIZE_PUT(0xabcdefu));
  EXPECT_EQ(w[TS_PKT_RENDERPASS_BEGIN_WIDTH_DW],
            TS_PKT_RENDERPASS_BEGIN_WIDTH_PUT(2048u) | TS_PKT_RENDERPASS_BEGIN_HEIGHT_PUT(0x7ffu));
  EXPECT_EQ(w[TS_PKT_RENDERPASS_BEGIN_COLOR_LOAD_DW],
            TS_PKT_RENDERPASS_BEGIN_COLOR_LOAD_PUT(TS_LOAD_OP_CLEAR) |
                TS_PKT_RENDERPASS_BEGIN_COLOR_STORE_PUT(1u) |
                TS_PKT_RENDERPASS_BEGIN_DEPTH_LOAD_PUT(TS_LOAD_OP_DONT_CARE) |
                TS_PKT_RENDERPASS_BEGIN_DEPTH_STORE_PUT(1u));
  EXPECT_EQ(w[TS_PKT_RENDERPASS_BEGIN_COLOR_DSID_DW],
            TS_PKT_RENDERPASS_BEGIN_COLOR_DSID_PUT(63u) | TS_PKT_RENDERPASS_BEGIN_DEPTH_DSID_PUT(5u));
  EXPECT_EQ(tessera::layout::RenderpassBeginPayload::unpack(w.data()), rp);
}

TEST(GeneratedLayouts, VertexMatchesTheGeomVertexRegistersAndSignExtends) {
  tessera::layout::Vertex v;
  v.x = -16;  // -1.0 in 12.4
  v.y = 0x7fff;
  v.z = 0xabcdef;
  v.r = 1;
  v.g = 2;
  v.b = 3;
  v.a = 4;
  v.u = 0xffff;
  v.v = 0x8000;
  const auto w = v.pack();
  EXPECT_EQ(w[0], TS_GEOM_VTX_DW0_X_PUT(0xfff0u) | TS_GEOM_VTX_DW0_Y_PUT(0x7fffu));
  EXPECT_EQ(w[1], TS_GEOM_VTX_DW1_Z_PUT(0xabcdefu));
  EXPECT_EQ(w[2], TS_GEOM_VTX_DW2_R_PUT(1u) | TS_GEOM_VTX_DW2_G_PUT(2u) | TS_GEOM_VTX_DW2_B_PUT(3u) |
                      TS_GEOM_VTX_DW2_A_PUT(4u));
  EXPECT_EQ(w[3], TS_GEOM_VTX_DW3_U_PUT(0xffffu) | TS_GEOM_VTX_DW3_V_PUT(0x8000u));
  const auto back = tessera::layout::Vertex::unpack(w.data());
  EXPECT_EQ(back, v);
  EXPECT_EQ(back.x, -16);

  tessera::layout::Svtx s;
  s.x = -(1 << 19);  // the most negative 16.4 value
  s.y = (1 << 19) - 1;
  const auto sw = s.pack();
  EXPECT_EQ(sw[3] >> 12, 0x80000u);            // x [127:108]
  EXPECT_EQ((sw[2] >> 24) | ((sw[3] & 0xfffu) << 8), 0x7ffffu);  // y [107:88]
  EXPECT_EQ(tessera::layout::Svtx::unpack(sw.data()).x, -(1 << 19));
}

TEST(GeneratedLayouts, StatisticsBlockIsThirtyOneWordsInOrder) {
  using tessera::layout::SliceStats;
  static_assert(SliceStats::kWords == 31);
  static_assert(SliceStats::Pos::tris.lsb == 0 && SliceStats::Pos::bins_rendered.lsb == 32 && SliceStats::Pos::busy_cycles.lsb == 14 * 32);
  static_assert(SliceStats::Pos::geom_tris.lsb == 15 * 32 && SliceStats::Pos::cche_fills.lsb == 19 * 32);
  static_assert(SliceStats::Pos::idle_cycles.lsb == 20 * 32 && SliceStats::Pos::clear_cycles.lsb == 23 * 32);
  static_assert(SliceStats::Pos::lrz_rejected_blocks.lsb == 24 * 32 && SliceStats::Pos::lrz_rejected_quads.lsb == 25 * 32);
  static_assert(SliceStats::Pos::texel_wait_cycles.lsb == 29 * 32 && SliceStats::Pos::load_wait_cycles.lsb == 30 * 32);
  std::uint32_t words[31];
  for (unsigned i = 0; i < 31; ++i) words[i] = 1000 + i;
  const SliceStats s = SliceStats::unpack(words);
  EXPECT_EQ(s.tris, 1000u);
  EXPECT_EQ(s.frags_passed, 1005u);
  EXPECT_EQ(s.cche_fills, 1019u);
  EXPECT_EQ(s.memory_wait_cycles, 1022u);
  EXPECT_EQ(s.texel_wait_cycles, 1029u);
  EXPECT_EQ(s.load_wait_cycles, 1030u);
  EXPECT_EQ(s.lrz_rejected_quads, 1025u);
  EXPECT_EQ(s.quads_hidden, 1026u);
  EXPECT_EQ(s.gmem_reads, 1027u);
  EXPECT_EQ(s.gmem_writes, 1028u);
  EXPECT_EQ(s.pack()[12], 1012u);
}

}  // namespace
}  // namespace tessera::specgen::test
