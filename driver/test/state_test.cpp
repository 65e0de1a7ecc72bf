// The draw-level API: PipelineState's register encoding (checked against the spec's field
// positions, the *_LSB constants, with values that differ per field so a swapped or shifted
// field shows), the SET_REGS the command buffer records for it, and the vertex and index
// packers. Catches: x/y or width/height swapped, a field at the wrong bit, a state run that is
// not the registers' order, set_state writing too much or too little, a rejected value that
// still appends.
#include <gtest/gtest.h>

#include "tessera/driver/error.hpp"
#include "tessera/driver/pipeline_state.hpp"
#include "tessera/driver/umd.hpp"
#include "tessera/driver/vertex.hpp"

using namespace tessera::driver;

namespace {

PipelineState asymmetric_state() {
  PipelineState s;
  s.viewport = Viewport{1.5, 0.25, 100.5, -3.25};
  s.cull = CullState{CullMode::Front, FrontFace::Clockwise};
  s.depth = DepthState{true, DepthCompare::LEqual, true};
  s.color = ColorState{false};
  s.texture = TextureBinding{0x00123440u, 256, 8};
  s.bin_size = BinSize::Px64;
  s.distribution = DistributionPolicy::LeastLoaded;
  s.subbatch = 100;
  return s;
}

// A default state with one change.
template <class F>
PipelineState state_with(F change) {
  PipelineState s;
  change(s);
  return s;
}

uint32_t geom(const StateRegisters& r, uint32_t offset) { return r.geom.at(geom_index(offset)); }
uint32_t raster(const StateRegisters& r, uint32_t offset) { return r.raster.at(raster_index(offset)); }

TEST(PipelineStateEncoding, EveryFieldAtItsSpecPosition) {
  const StateRegisters r = encode_state(asymmetric_state(), 640, 48);
  // s15.16 scale, 1/16-pixel two's complement offset.
  EXPECT_EQ(geom(r, TS_GEOM_VP_SCALE_X_OFFSET), 0x18000u << TS_GEOM_VP_SCALE_X_VALUE_LSB);
  EXPECT_EQ(geom(r, TS_GEOM_VP_SCALE_Y_OFFSET), 0x04000u << TS_GEOM_VP_SCALE_Y_VALUE_LSB);
  EXPECT_EQ(geom(r, TS_GEOM_VP_OFFSET_X_OFFSET), 1608u << TS_GEOM_VP_OFFSET_X_VALUE_LSB);
  EXPECT_EQ(geom(r, TS_GEOM_VP_OFFSET_Y_OFFSET), static_cast<uint32_t>(-52));
  EXPECT_EQ(geom(r, TS_GEOM_CULL_OFFSET), (TS_CULL_MODE_FRONT << TS_GEOM_CULL_MODE_LSB) | (1u << TS_GEOM_CULL_FRONT_CW_LSB));
  EXPECT_EQ(geom(r, TS_GEOM_TILE_OFFSET),
            (TS_BIN_SIZE_PX64 << TS_GEOM_TILE_SIZE_LSB) | (TS_GEOM_TILE_SKEW_RESET << TS_GEOM_TILE_SKEW_LSB));
  EXPECT_EQ(geom(r, TS_GEOM_RT_SIZE_OFFSET), (640u << TS_GEOM_RT_SIZE_WIDTH_LSB) | (48u << TS_GEOM_RT_SIZE_HEIGHT_LSB));
  EXPECT_EQ(geom(r, TS_GEOM_SUBBATCH_OFFSET), 100u << TS_GEOM_SUBBATCH_SIZE_LSB);
  EXPECT_EQ(geom(r, TS_GEOM_DIST_OFFSET), TS_DIST_POLICY_LEAST_LOADED << TS_GEOM_DIST_POLICY_LSB);
  EXPECT_EQ(raster(r, TS_RASTER_DEPTH_OFFSET),
            (TS_DEPTH_FUNC_LEQUAL << TS_RASTER_DEPTH_FUNC_LSB) | (1u << TS_RASTER_DEPTH_WRITE_EN_LSB));
  EXPECT_EQ(raster(r, TS_RASTER_COLOR_OFFSET), 0u);
  EXPECT_EQ(raster(r, TS_RASTER_TEX_CTRL_OFFSET), (1u << TS_RASTER_TEX_CTRL_ENABLE_LSB) |
                                                      (8u << TS_RASTER_TEX_CTRL_LOG2_W_LSB) |
                                                      (3u << TS_RASTER_TEX_CTRL_LOG2_H_LSB));
  EXPECT_EQ(raster(r, TS_RASTER_TEX_BASE_OFFSET), 0x00123440u << TS_RASTER_TEX_BASE_ADDR_LSB);
  EXPECT_EQ(r.raster_bin, TS_BIN_SIZE_PX64 << TS_RASTER_BIN_SIZE_LSB);
}

TEST(PipelineStateEncoding, DepthTestOffPassesAllAndWritesNothing) {
  PipelineState s;
  s.depth = DepthState{false, DepthCompare::Never, true};
  s.color = ColorState{true};
  const StateRegisters r = encode_state(s, 16, 16);
  EXPECT_EQ(raster(r, TS_RASTER_DEPTH_OFFSET), TS_DEPTH_FUNC_ALWAYS << TS_RASTER_DEPTH_FUNC_LSB);
  EXPECT_EQ(raster(r, TS_RASTER_COLOR_OFFSET), 1u << TS_RASTER_COLOR_WRITE_EN_LSB);
  EXPECT_EQ(raster(r, TS_RASTER_TEX_CTRL_OFFSET), 0u);  // no texture: vertex colour only
  EXPECT_EQ(raster(r, TS_RASTER_TEX_BASE_OFFSET), 0u);
}

TEST(PipelineStateEncoding, CenteredViewportIsHalfTheTargetIn16thPixels) {
  const PipelineState s = state_with([](PipelineState& st) { st.viewport = Viewport::centered(640, 48); });
  const StateRegisters r = encode_state(s, 640, 48);
  EXPECT_EQ(geom(r, TS_GEOM_VP_SCALE_X_OFFSET), TS_GEOM_VP_SCALE_X_RESET);  // 1.0
  EXPECT_EQ(geom(r, TS_GEOM_VP_OFFSET_X_OFFSET), 640u * 8);
  EXPECT_EQ(geom(r, TS_GEOM_VP_OFFSET_Y_OFFSET), 48u * 8);
}

TEST(PipelineStateEncoding, OutOfRangeValuesAreRefused) {
  auto refused = [](PipelineState s, uint32_t w = 64, uint32_t h = 64) {
    EXPECT_THROW(encode_state(s, w, h), DriverError);
  };
  refused(state_with([](PipelineState& s) { s.subbatch = 15; }));
  refused(state_with([](PipelineState& s) { s.subbatch = 1025; }));
  refused(state_with([](PipelineState& s) { s.texture = TextureBinding{0, 3, 4}; }));
  refused(state_with([](PipelineState& s) { s.texture = TextureBinding{0, 4096, 4}; }));
  refused(state_with([](PipelineState& s) { s.viewport = Viewport{1.0, 1.0, 2e9, 0.0}; }));
  refused(state_with([](PipelineState& s) { s.viewport = Viewport{40000.0, 1.0, 0.0, 0.0}; }));
  refused(PipelineState{}, 0, 16);
  refused(PipelineState{}, 16, 4096);
  // the tessellation stage (GEOM.TESS_*)
  refused(state_with([](PipelineState& s) { s.tess.cap = 0; }));
  refused(state_with([](PipelineState& s) { s.tess.cap = TessellationState::kMaxCap + 1; }));
  refused(state_with([](PipelineState& s) { s.tess.rate = 16; }));
  refused(state_with([](PipelineState& s) { s.tess.thread_group = 16; }));
  refused(state_with([](PipelineState& s) { s.tess.slots = 1; }));
  refused(state_with([](PipelineState& s) { s.tess.slots = 17; }));
  refused(state_with([](PipelineState& s) { s.tess.hs_base = 4096; }));
  refused(state_with([](PipelineState& s) { s.tess.hs_per_patch = 256; }));
  refused(state_with([](PipelineState& s) { s.tess.ds_wave = 4096; }));
}

// Catches: a field of the tessellation registers at the wrong bit, and GeomStateReader (the
// reference pipeline's view of the GEOM state) disagreeing with encode_state: the two are
// each other's inverse for what the geometry front end reads, with asymmetric values.
TEST(PipelineStateEncoding, TessellationFieldsAndGeomStateReaderRoundTrip) {
  PipelineState s = asymmetric_state();
  s.tess = TessellationState{ThrottleMode::Cap, 5, 3, 7, 9, false, 123, 45, 678};
  const StateRegisters r = encode_state(s, 320, 200);
  EXPECT_EQ(r.geom[geom_index(TS_GEOM_TESS_THROTTLE_OFFSET)],
            (TS_TESS_THROTTLE_MODE_CAP << TS_GEOM_TESS_THROTTLE_MODE_LSB) | (5u << TS_GEOM_TESS_THROTTLE_CAP_LSB) |
                (3u << TS_GEOM_TESS_THROTTLE_RATE_LSB));
  EXPECT_EQ(r.geom[geom_index(TS_GEOM_TESS_SHADER_OFFSET)],
            (7u << TS_GEOM_TESS_SHADER_TG_SIZE_LSB) | (9u << TS_GEOM_TESS_SHADER_SLOTS_LSB));
  EXPECT_EQ(r.geom[geom_index(TS_GEOM_TESS_HS_LAT_OFFSET)],
            (123u << TS_GEOM_TESS_HS_LAT_BASE_LSB) | (45u << TS_GEOM_TESS_HS_LAT_PER_PATCH_LSB));
  EXPECT_EQ(r.geom[geom_index(TS_GEOM_TESS_DS_LAT_OFFSET)], 678u << TS_GEOM_TESS_DS_LAT_WAVE_LSB);

  GeomStateReader fresh;  // unwritten: the resets
  EXPECT_EQ(fresh.scale_x(), 1 << 16);
  EXPECT_EQ(fresh.cull_mode(), CullMode::None);
  EXPECT_EQ(fresh.subbatch(), TS_GEOM_SUBBATCH_RESET);
  EXPECT_EQ(fresh.thread_group(), TS_GEOM_TESS_SHADER_TG_SIZE_RESET);

  GeomStateReader g;
  for (unsigned i = 0; i < r.geom.size(); ++i) g.write(StateRegisters::kGeomFirst + 4 * i, r.geom[i]);
  g.write(StateRegisters::kRasterFirst, 0xffffffffu);  // another block's register: ignored
  EXPECT_EQ(g.scale_x(), 98304);    // 1.5 in s15.16
  EXPECT_EQ(g.scale_y(), 16384);    // 0.25
  EXPECT_EQ(g.offset_x(), 1608);    // 100.5 px in 1/16
  EXPECT_EQ(g.offset_y(), -52);     // -3.25 px
  EXPECT_EQ(g.cull_mode(), CullMode::Front);
  EXPECT_EQ(g.front_face(), FrontFace::Clockwise);
  EXPECT_EQ(g.subbatch(), 100u);
  EXPECT_EQ(g.thread_group(), 7u);
}

// A UMD whose render passes need no visibility buffer (single-level only).
struct Recorder {
  BinningState bits;
  Umd umd{bits};
  CommandBuffer cb = umd.create_command_buffer("state");
  RenderPassDesc pass(uint32_t w, uint32_t h) {
    RenderPassDesc rp;
    rp.name = "p";
    rp.width = w;
    rp.height = h;
    rp.color = Attachment{0x10000, LoadOp::Clear, StoreOp::Store, nullptr};
    rp.depth = Attachment{0x20000, LoadOp::Clear, StoreOp::DontCare, nullptr};
    rp.single_level_only = true;
    return rp;
  }
  std::vector<Packet> packets() const { return decode_packets(cb.dwords()); }
};

// {offset, values} of a SET_REGS packet.
std::pair<uint32_t, std::vector<uint32_t>> regs_of(const Packet& p) {
  EXPECT_EQ(p.opcode, TS_OP_SET_REGS);
  return {TS_PKT_SET_REGS_OFFSET_GET(p.payload.at(TS_PKT_SET_REGS_OFFSET_DW)),
          std::vector<uint32_t>(p.payload.begin() + TS_PKT_SET_REGS_VALUE_DW, p.payload.end())};
}

TEST(PipelineStateRecording, RenderPassWritesBinThenBeginThenTheWholeState) {
  Recorder r;
  const PipelineState s = asymmetric_state();
  r.cb.begin_render_pass(r.pass(640, 48), s);
  const StateRegisters want = encode_state(s, 640, 48);
  const auto p = r.packets();
  // SET_REGS BIN, SET_REGS LRZ, SET_BIN_MODE, RENDERPASS_BEGIN, GEOM run, RASTER run
  ASSERT_EQ(p.size(), 6u);
  EXPECT_EQ(regs_of(p[0]), std::make_pair(TS_RASTER_BASE_ADDR + TS_RASTER_BIN_OFFSET, std::vector<uint32_t>{want.raster_bin}));
  EXPECT_EQ(regs_of(p[1]), std::make_pair(TS_RASTER_BASE_ADDR + TS_RASTER_LRZ_OFFSET, std::vector<uint32_t>{want.raster_lrz}));
  EXPECT_EQ(p[2].opcode, TS_OP_SET_BIN_MODE);
  EXPECT_EQ(p[3].opcode, TS_OP_RENDERPASS_BEGIN);
  EXPECT_EQ(regs_of(p[4]), std::make_pair(TS_GEOM_BASE_ADDR + TS_GEOM_VP_SCALE_X_OFFSET,
                                          std::vector<uint32_t>(want.geom.begin(), want.geom.end())));
  EXPECT_EQ(regs_of(p[5]), std::make_pair(TS_RASTER_BASE_ADDR + TS_RASTER_DEPTH_OFFSET,
                                          std::vector<uint32_t>(want.raster.begin(), want.raster.end())));
}

// Catches: the LRZ switch (PipelineState::lrz, RASTER.LRZ) not reaching the GPU, or a draw
// that turns it off inside the pass writing nothing.
TEST(PipelineStateRecording, LrzIsWrittenAtTheBeginAndWhenADrawChangesIt) {
  Recorder r;
  PipelineState s = asymmetric_state();
  r.cb.begin_render_pass(r.pass(64, 32), s);
  EXPECT_EQ(encode_state(s, 64, 32).raster_lrz, TS_RASTER_LRZ_ENABLE_PUT(1u));
  const std::size_t before = r.packets().size();
  s.lrz = false;
  r.cb.set_state(s);
  const auto p = r.packets();
  ASSERT_EQ(p.size(), before + 1);
  EXPECT_EQ(regs_of(p.back()), std::make_pair(TS_RASTER_BASE_ADDR + TS_RASTER_LRZ_OFFSET, std::vector<uint32_t>{0u}));
}

TEST(PipelineStateRecording, SetStateWritesOnlyTheGroupsThatChanged) {
  Recorder r;
  PipelineState s = asymmetric_state();
  r.cb.begin_render_pass(r.pass(64, 32), s);
  const std::size_t before = r.packets().size();

  r.cb.set_state(s);  // nothing changed: nothing recorded
  EXPECT_EQ(r.packets().size(), before);

  s.cull.mode = CullMode::Back;  // one register
  r.cb.set_state(s);
  auto p = r.packets();
  ASSERT_EQ(p.size(), before + 1);
  EXPECT_EQ(regs_of(p.back()).first, TS_GEOM_BASE_ADDR + TS_GEOM_CULL_OFFSET);
  EXPECT_EQ(regs_of(p.back()).second,
            std::vector<uint32_t>{(TS_CULL_MODE_BACK << TS_GEOM_CULL_MODE_LSB) | (1u << TS_GEOM_CULL_FRONT_CW_LSB)});

  s.texture->addr += 0x40;  // only TEX_BASE differs, but a binding is written whole
  r.cb.set_state(s);
  p = r.packets();
  ASSERT_EQ(p.size(), before + 2);
  EXPECT_EQ(regs_of(p.back()).first, TS_RASTER_BASE_ADDR + TS_RASTER_TEX_CTRL_OFFSET);
  EXPECT_EQ(regs_of(p.back()).second.size(), 2u);
  EXPECT_EQ(regs_of(p.back()).second[1], 0x00123480u);

  s.cull.mode = CullMode::None;  // GEOM before RASTER, adjacent groups merged
  s.depth.write = false;
  s.color.write = true;
  r.cb.set_state(s);
  p = r.packets();
  ASSERT_EQ(p.size(), before + 4);
  EXPECT_EQ(regs_of(p[before + 2]).first, TS_GEOM_BASE_ADDR + TS_GEOM_CULL_OFFSET);
  EXPECT_EQ(regs_of(p[before + 3]).first, TS_RASTER_BASE_ADDR + TS_RASTER_DEPTH_OFFSET);
  EXPECT_EQ(regs_of(p[before + 3]).second.size(), 2u);  // DEPTH and COLOR
}

TEST(PipelineStateRecording, RefusedCallsAppendNothing) {
  Recorder r;
  EXPECT_THROW(r.cb.set_state(PipelineState{}), DriverError);  // no render pass
  EXPECT_THROW(r.cb.begin_render_pass(r.pass(64, 32), state_with([](PipelineState& s) { s.subbatch = 2; })), DriverError);
  RenderPassDesc unaligned = r.pass(64, 32);
  unaligned.color.addr = 0x10004;  // refused by the render pass after the bin size was encoded
  EXPECT_THROW(r.cb.begin_render_pass(unaligned, PipelineState{}), DriverError);
  EXPECT_EQ(r.cb.size_dwords(), 0u);
  EXPECT_FALSE(r.cb.in_render_pass());

  PipelineState s;
  r.cb.begin_render_pass(r.pass(64, 32), s);
  const std::size_t n = r.cb.size_dwords();
  s.bin_size = BinSize::Px16;  // the render pass's
  EXPECT_THROW(r.cb.set_state(s), DriverError);
  s = PipelineState{};
  s.texture = TextureBinding{0, 5, 8};
  EXPECT_THROW(r.cb.set_state(s), DriverError);
  EXPECT_EQ(r.cb.size_dwords(), n);
  r.cb.end_render_pass();
  EXPECT_THROW(r.cb.set_state(PipelineState{}), DriverError);  // the pass's state ended with it
}

TEST(VertexPacking, FieldsAtTheirSpecPositionsLittleEndian) {
  Vertex v;
  v.x = -3;  // 12.4: 0xfffd
  v.y = 0x1234;
  v.z = 0xabcdef;
  v.r = 1, v.g = 2, v.b = 3, v.a = 4;
  v.u = 0x5566, v.v = 0x7788;
  const Vertex two[] = {Vertex{}, v};
  const std::vector<uint8_t> b = pack_vertices(two);
  ASSERT_EQ(b.size(), 2 * kVertexBytes);
  auto dw = [&](unsigned k) {
    const std::size_t at = kVertexBytes + 4 * k;
    return b[at] | b[at + 1] << 8 | b[at + 2] << 16 | static_cast<uint32_t>(b[at + 3]) << 24;
  };
  EXPECT_EQ(dw(0), (0xfffdu << TS_GEOM_VTX_DW0_X_LSB) | (0x1234u << TS_GEOM_VTX_DW0_Y_LSB));
  EXPECT_EQ(dw(1), 0xabcdefu << TS_GEOM_VTX_DW1_Z_LSB);
  EXPECT_EQ(dw(2), (1u << TS_GEOM_VTX_DW2_R_LSB) | (2u << TS_GEOM_VTX_DW2_G_LSB) | (3u << TS_GEOM_VTX_DW2_B_LSB) |
                       (4u << TS_GEOM_VTX_DW2_A_LSB));
  EXPECT_EQ(dw(3), (0x5566u << TS_GEOM_VTX_DW3_U_LSB) | (0x7788u << TS_GEOM_VTX_DW3_V_LSB));
  EXPECT_EQ(pack_rgba8(1, 2, 3, 4), dw(2));
  for (unsigned i = 0; i < kVertexBytes; ++i) EXPECT_EQ(b[i], 0u);
}

TEST(IndexPacking, SixteenBitsWhileEveryVertexIsReachable) {
  const uint32_t idx[] = {0x0102, 0xfffe, 7};
  const IndexBuffer small = pack_indices(idx, 65536);
  EXPECT_EQ(small.type, IndexType::U16);
  EXPECT_EQ(small.bytes, (std::vector<uint8_t>{0x02, 0x01, 0xfe, 0xff, 7, 0}));
  EXPECT_EQ(index_buffer_bytes(3, 65536), small.bytes.size());
  const IndexBuffer big = pack_indices(idx, 65537);
  EXPECT_EQ(big.type, IndexType::U32);
  EXPECT_EQ(big.bytes, (std::vector<uint8_t>{0x02, 0x01, 0, 0, 0xfe, 0xff, 0, 0, 7, 0, 0, 0}));
  EXPECT_EQ(index_buffer_bytes(3, 65537), big.bytes.size());
}

}  // namespace
