// cp_fw_binning_test.cpp -- the firmware's render passes and two-level binning replay
// (cp_binning.c; docs/two-level.md), on the fake register layer. The expected pipeline
// commands are written out by hand from docs/two-level.md "The passes", not computed by a copy
// of the firmware's arithmetic: a coarse grid that shrinks, a clipped last row, the serpentine
// order and the visibility pass that renders the first coarse bin. Every test says what it
// would catch.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "cp_fw.h"
#include "fake_gpu.hpp"
#include "packets.hpp"
#include "tessera_spec.h"

using cpfw_test::FakeGpu;
using cpfw_test::PipeCmd;
using namespace cpfw_test::packets;

namespace {

constexpr uint32_t kColor = 0x40000, kDepth = 0x80000, kVis = 0xc0000;
constexpr uint32_t kGeomVis = TS_GEOM_BASE_ADDR + TS_GEOM_VIS_OFFSET;
constexpr uint32_t kRasterCoarse = TS_RASTER_BASE_ADDR + TS_RASTER_COARSE_OFFSET;

Dw begin(uint32_t body, uint32_t w, uint32_t h)
{
  Dw p = rp_begin(kColor, kDepth, w, h);
  p[1 + TS_PKT_RENDERPASS_BEGIN_BODY_SIZE_DW] = TS_PKT_RENDERPASS_BEGIN_BODY_SIZE_PUT(body);
  return p;
}

Dw mode(uint32_t m, uint32_t cx, uint32_t cy, uint32_t order, uint32_t vis_first)
{
  return {TS_PKT_SET_BIN_MODE_HEADER,
          TS_PKT_SET_BIN_MODE_MODE_PUT(m) | TS_PKT_SET_BIN_MODE_FINE_SIZE_PUT(TS_BIN_SIZE_PX32) |
              TS_PKT_SET_BIN_MODE_ORDER_PUT(order) | TS_PKT_SET_BIN_MODE_VIS_FIRST_PUT(vis_first),
          TS_PKT_SET_BIN_MODE_COARSE_X_PUT(cx) | TS_PKT_SET_BIN_MODE_COARSE_Y_PUT(cy)};
}

uint32_t rect(uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1)
{
  return TS_RASTER_COARSE_X0_PUT(x0) | TS_RASTER_COARSE_Y0_PUT(y0) | TS_RASTER_COARSE_X1_PUT(x1) |
         TS_RASTER_COARSE_Y1_PUT(y1) | TS_RASTER_COARSE_ENABLE_PUT(1);
}
const uint32_t kEmpty = rect(1, 1, 0, 0);

uint32_t test_bin(uint32_t bin)
{
  return TS_GEOM_VIS_MODE_PUT(TS_VIS_MODE_TEST) | TS_GEOM_VIS_BIN_PUT(bin);
}

// A pipeline command, compared by opcode and arguments.
struct Cmd {
  uint32_t op;
  Dw args;
  bool operator==(const Cmd &o) const { return op == o.op && args == o.args; }
};
std::ostream &operator<<(std::ostream &os, const Cmd &c)
{
  os << "op 0x" << std::hex << c.op << " {";
  for (uint32_t a : c.args)
    os << " 0x" << a;
  return os << " }" << std::dec;
}
Cmd reg(uint32_t addr, uint32_t value) { return {TS_OP_SET_REGS, {addr, value}}; }
Cmd of(const Dw &pkt) { return {TS_PKT_HDR_OPCODE_GET(pkt[0]), payload(pkt)}; }

class CpFwBinning : public ::testing::Test {
 protected:
  FakeGpu gpu;
  void SetUp() override
  {
    cpfw_test::g_fake = &gpu;
    gpu.enable_mask = 0x3;
    cp_fw_init();
  }
  void TearDown() override { cpfw_test::g_fake = nullptr; }
  void poll(int n)
  {
    for (int i = 0; i < n; i++) {
      cp_fw_poll();
      gpu.tick();
    }
  }
  std::vector<Cmd> pipe() const
  {
    std::vector<Cmd> out;
    for (const PipeCmd &c : gpu.pipe)
      out.push_back({c.opcode, c.args});
    return out;
  }
  // The commands of one pass: its two registers, BEGIN, the body's draws, END.
  static void pass(std::vector<Cmd> &w, uint32_t vis, uint32_t r, const Dw &bg, const std::vector<Dw> &body)
  {
    w.push_back(reg(kGeomVis, vis));
    w.push_back(reg(kRasterCoarse, r));
    w.push_back(of(bg));
    for (const Dw &d : body)
      w.push_back(of(d));
    w.push_back({TS_OP_RENDERPASS_END, {}});
  }
};

// 200 x 130 pixels = 4 x 3 blocks of 64; a 2 x 2 request gives 2-block bins, the bottom row
// clipped to block 2. Serpentine: (0,0) (1,0) (1,1) (0,1), so bins 0, 1, 3, 2.
// Catches: no replay, a replay that skips the visibility pass, wrong rectangles or bin indices,
// raster order instead of serpentine, a missing reset after the last pass, registers in the
// wrong order with BEGIN, and a body replayed from the wrong place in an IB.
TEST_F(CpFwBinning, TwoLevelReplaysTheBodyOncePerCoarseBinFromAnIb)
{
  const std::vector<Dw> body = {draw(30, 0x8000), draw(6, 0x9000)};
  const Dw bg = begin(12, 200, 130);
  const Dw ib1 = cat({bg, body[0], body[1], rp_end()});
  gpu.put_mem(0x10000, ib1);
  const Dw m = mode(TS_BIN_MODE_TWO_LEVEL, 2, 2, TS_BIN_ORDER_SERPENTINE, 0);
  const Dw v = vis_buffer(kVis, 0x1000);
  gpu.ring_write(0, cat({m, v, ib(0x10000, static_cast<uint32_t>(ib1.size())), draw(3, 0xa000)}));
  poll(40);
  ASSERT_TRUE(gpu.errors.empty());
  std::vector<Cmd> want = {of(m), of(v)};
  want.push_back(reg(TS_GEOM_BASE_ADDR + TS_GEOM_COARSE_OFFSET,
                     TS_GEOM_COARSE_W_PUT(2) | TS_GEOM_COARSE_H_PUT(2) | TS_GEOM_COARSE_NX_PUT(2) |
                         TS_GEOM_COARSE_NY_PUT(2)));
  want.push_back(reg(TS_GEOM_BASE_ADDR + TS_GEOM_VIS_BASE_OFFSET, kVis));
  want.push_back(reg(TS_GEOM_BASE_ADDR + TS_GEOM_VIS_STRIDE_OFFSET, 16u * 64u));  // 64 lines / 4 bins
  pass(want, TS_GEOM_VIS_MODE_PUT(TS_VIS_MODE_WRITE), kEmpty, bg, body);
  pass(want, test_bin(0), rect(0, 0, 1, 1), bg, body);
  pass(want, test_bin(1), rect(2, 0, 3, 1), bg, body);
  pass(want, test_bin(3), rect(2, 2, 3, 2), bg, body);
  pass(want, test_bin(2), rect(0, 2, 1, 2), bg, body);
  want.push_back(reg(kGeomVis, 0));
  want.push_back(reg(kRasterCoarse, TS_RASTER_COARSE_RESET));
  want.push_back(of(draw(3, 0xa000)));
  EXPECT_EQ(pipe(), want);
}

// A request for 3 bins across 4 blocks gives 2-block bins, so only 2 bins across; raster
// order; the visibility pass renders the first coarse bin, which is not replayed; the body is
// in the ring, where RPTR stays at RENDERPASS_BEGIN until the last pass has ended.
// Catches: a grid of empty coarse bins, vis_first ignored (an extra pass or the first bin twice),
// RPTR released while the body is still to be replayed (the host could overwrite it), RPTR not
// released after the pass, and the ring fast path executing the body behind the replay's back.
TEST_F(CpFwBinning, TwoLevelInTheRingHoldsRptrAndVisibilityPassRendersTheFirstBin)
{
  const std::vector<Dw> body = {draw(9, 0x8000)};
  const Dw bg = begin(6, 200, 130);
  const Dw m = mode(TS_BIN_MODE_TWO_LEVEL, 3, 1, TS_BIN_ORDER_RASTER, 1);
  const Dw v = vis_buffer(kVis, 0x800);
  const Dw head = cat({m, v});
  gpu.ring_write(1, cat({head, bg, body[0]}));  // END not published yet
  poll(10);
  EXPECT_EQ(gpu.queue[1].rptr, head.size()) << "RPTR must stay at RENDERPASS_BEGIN";
  gpu.ring_write(1, rp_end());
  poll(20);
  ASSERT_TRUE(gpu.errors.empty());
  std::vector<Cmd> want = {of(m), of(v)};
  want.push_back(reg(TS_GEOM_BASE_ADDR + TS_GEOM_COARSE_OFFSET,
                     TS_GEOM_COARSE_W_PUT(2) | TS_GEOM_COARSE_H_PUT(3) | TS_GEOM_COARSE_NX_PUT(2) |
                         TS_GEOM_COARSE_NY_PUT(1)));
  want.push_back(reg(TS_GEOM_BASE_ADDR + TS_GEOM_VIS_BASE_OFFSET, kVis));
  want.push_back(reg(TS_GEOM_BASE_ADDR + TS_GEOM_VIS_STRIDE_OFFSET, 16u * 64u));  // 32 lines / 2 bins
  pass(want, TS_GEOM_VIS_MODE_PUT(TS_VIS_MODE_WRITE), rect(0, 0, 1, 2), bg, body);
  pass(want, test_bin(1), rect(2, 0, 3, 2), bg, body);
  want.push_back(reg(kGeomVis, 0));
  want.push_back(reg(kRasterCoarse, TS_RASTER_COARSE_RESET));
  EXPECT_EQ(pipe(), want);
  EXPECT_EQ(gpu.queue[1].rptr, head.size() + bg.size() + body[0].size() + 1);
}

// PBB passes run once and are forwarded as they are, with no binning registers.
// Catches: replaying or decorating single-level passes.
TEST_F(CpFwBinning, PbbPassRunsOnce)
{
  const Dw bg = begin(6, 200, 130);
  const Dw m = mode(TS_BIN_MODE_PBB, 2, 2, TS_BIN_ORDER_RASTER, 0);
  gpu.ring_write(0, cat({m, bg, draw(9), rp_end()}));
  poll(10);
  ASSERT_TRUE(gpu.errors.empty());
  const std::vector<Cmd> want = {of(m), of(bg), of(draw(9)), {TS_OP_RENDERPASS_END, {}}};
  EXPECT_EQ(pipe(), want);
  EXPECT_EQ(gpu.queue[0].rptr, 3u + bg.size() + 6u + 1u);
}

// Catches: a body_size that does not lead to RENDERPASS_END going unnoticed (a replay would
// rewind to the wrong place; in the ring RPTR would stay held and the host could never write
// the rest: found by fuzz_cp_fw), a packet reaching past the body, nested passes, a body running past its IB, binning state changed
// inside a pass (its body replays), a coarse grid out of range, an unknown mode, and a missing
// visibility buffer or one with less than one line per coarse bin; each is reported where it
// is, and the queue halts with nothing replayed.
TEST_F(CpFwBinning, MalformedPassesAreReported)
{
  struct Case {
    const char *name;
    Dw ib_body;
    uint32_t code, opcode, offset;  // offset: dwords from the IB's start to the bad header
  };
  const Dw two = mode(TS_BIN_MODE_TWO_LEVEL, 2, 2, TS_BIN_ORDER_RASTER, 0);
  const std::vector<Case> cases = {
      {"END not where body_size says", cat({begin(12, 64, 64), draw(3), rp_end(), nop(5)}),
       TS_CP_ERROR_BAD_LENGTH, TS_OP_RENDERPASS_END, 9 + 6},
      {"a packet across the body's end", cat({begin(3, 64, 64), draw(3), rp_end()}), TS_CP_ERROR_BAD_LENGTH,
       TS_OP_DRAW, 9},
      {"nested BEGIN", cat({begin(11, 64, 64), begin(1, 64, 64), nop(0), rp_end(), rp_end()}),
       TS_CP_ERROR_BAD_LENGTH, TS_OP_RENDERPASS_BEGIN, 9},
      {"body past the IB", cat({begin(40, 64, 64), draw(3), rp_end()}), TS_CP_ERROR_IB_OVERFLOW,
       TS_OP_RENDERPASS_BEGIN, 0},
      {"SET_BIN_MODE inside a pass", cat({begin(3, 64, 64), two, rp_end()}), TS_CP_ERROR_BAD_STATE,
       TS_OP_SET_BIN_MODE, 9},
      {"BIND_VIS_BUFFER inside a pass", cat({begin(3, 64, 64), vis_buffer(kVis, 0x1000), rp_end()}),
       TS_CP_ERROR_BAD_STATE, TS_OP_BIND_VIS_BUFFER, 9},
      {"SET_PREFETCH inside a pass", cat({begin(4, 64, 64), set_prefetch(TS_PF_MODE_ON, kVis, 0x1000), rp_end()}),
       TS_CP_ERROR_BAD_STATE, TS_OP_SET_PREFETCH, 9},
      {"coarse grid 33 x 1", cat({mode(TS_BIN_MODE_TWO_LEVEL, 33, 1, TS_BIN_ORDER_RASTER, 0)}),
       TS_CP_ERROR_BAD_STATE, TS_OP_SET_BIN_MODE, 0},
      {"coarse grid 4 x 0", cat({mode(TS_BIN_MODE_TWO_LEVEL, 4, 0, TS_BIN_ORDER_RASTER, 0)}),
       TS_CP_ERROR_BAD_STATE, TS_OP_SET_BIN_MODE, 0},
      {"unknown bin mode", cat({mode(2, 4, 4, TS_BIN_ORDER_RASTER, 0)}), TS_CP_ERROR_BAD_STATE,
       TS_OP_SET_BIN_MODE, 0},
      {"no visibility buffer", cat({two, begin(6, 200, 130), draw(3), rp_end()}), TS_CP_ERROR_BAD_ADDRESS,
       TS_OP_RENDERPASS_BEGIN, 3},
      {"visibility buffer too small",
       cat({two, vis_buffer(kVis, 3 * 64), begin(6, 200, 130), draw(3), rp_end()}),
       TS_CP_ERROR_BAD_ADDRESS, TS_OP_RENDERPASS_BEGIN, 6},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.name);
    FakeGpu fresh;
    cpfw_test::g_fake = &fresh;
    fresh.enable_mask = 0x3;
    cp_fw_init();
    fresh.put_mem(0x10000, c.ib_body);
    fresh.ring_write(0, ib(0x10000, static_cast<uint32_t>(c.ib_body.size())));
    for (int i = 0; i < 30; i++) {
      cp_fw_poll();
      fresh.tick();
    }
    ASSERT_EQ(fresh.errors.size(), 1u);
    EXPECT_EQ(fresh.errors[0].code, c.code);
    EXPECT_EQ(fresh.errors[0].level, 1u);
    EXPECT_EQ(fresh.errors[0].opcode, c.opcode);
    EXPECT_EQ(fresh.errors[0].addr, 0x10000u + 4u * c.offset);
    for (const PipeCmd &p : fresh.pipe)
      EXPECT_NE(p.opcode, TS_OP_SET_REGS) << "no pass may start";
  }
  cpfw_test::g_fake = &gpu;
}

}  // namespace
