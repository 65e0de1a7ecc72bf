// RefDevice: the CP host registers of spec/registers/cp.yaml and the packet semantics of
// ARCHITECTURE.md section 4, driven directly through the register port and memory (no KMD).
#include <gtest/gtest.h>

#include <array>

#include "tessera/driver/error.hpp"
#include "tessera/sim/ref_device.hpp"

using namespace tessera::driver;
using namespace tessera::sim;

namespace {

// Two rings of 2^log2 dwords at fixed addresses, both queues enabled and running.
struct Direct {
  explicit Direct(RefDeviceConfig c = {}, uint32_t log2 = 6) : dev(c), log2(log2) {
    for (unsigned q = 0; q < 2; ++q) {
      dev.write_reg(TS_CP_RING_BASE_OFFSET_N(q), ring[q]);
      dev.write_reg(TS_CP_RING_SIZE_OFFSET_N(q), TS_CP_RING_SIZE_LOG2_DWORDS_PUT(log2));
    }
    dev.write_reg(TS_CP_INT_ENABLE_OFFSET, TS_CP_INT_ENABLE_RW_MASK);
    dev.write_reg(TS_CP_CTRL_OFFSET, TS_CP_CTRL_RUN_PUT(1u) | TS_CP_CTRL_QUEUE_ENABLE_PUT(3u));
  }
  void push(unsigned q, const Dwords& d) {
    for (uint32_t x : d) {
      dev.write_mem32(ring[q] + 4 * (wptr[q] & ((1u << log2) - 1)), x);
      wptr[q] = (wptr[q] + 1) & ((1u << log2) - 1);
    }
  }
  void bell(unsigned q) { dev.write_reg(TS_CP_DOORBELL_OFFSET_N(q), TS_CP_DOORBELL_WPTR_PUT(wptr[q])); }
  void run(unsigned q, const Dwords& d, uint64_t cycles = 200) {
    push(q, d);
    bell(q);
    dev.advance(cycles);
  }
  uint32_t reg(uint32_t off) { return dev.read_reg(off); }
  uint32_t status() { return reg(TS_CP_STATUS_OFFSET); }

  RefDevice dev;
  uint32_t log2;
  uint32_t ring[2] = {0x1000, 0x2000};
  uint32_t wptr[2] = {0, 0};
};

Dwords cat(std::initializer_list<Dwords> parts) {
  Dwords d;
  for (const auto& p : parts) d.insert(d.end(), p.begin(), p.end());
  return d;
}

std::vector<uint32_t> opcodes(const std::vector<PipeCommand>& log) {
  std::vector<uint32_t> o;
  for (const auto& c : log) o.push_back(c.opcode);
  return o;
}

}  // namespace

// Catches: wrong reset values, a read-only register that accepts writes, write-only fields
// that read back, w1c bits that do not clear, enable bits of absent queues that stick,
// ring registers writable while the queue runs, a soft reset that leaves state behind.
TEST(RefDevice, RegistersResetAndAccessTypes) {
  RefDevice one(RefDeviceConfig{.num_queues = 1});
  EXPECT_EQ(one.read_reg(TS_CP_ID_OFFSET), TS_CP_ID_RESET);
  EXPECT_EQ(TS_CP_VERSION_NUM_QUEUES_GET(one.read_reg(TS_CP_VERSION_OFFSET)), 1u);
  EXPECT_EQ(TS_CP_VERSION_MAJOR_GET(one.read_reg(TS_CP_VERSION_OFFSET)), TS_CP_VERSION_MAJOR_RESET);
  EXPECT_EQ(one.read_reg(TS_CP_CTRL_OFFSET), TS_CP_CTRL_RESET);
  EXPECT_EQ(one.read_reg(TS_CP_STATUS_OFFSET), TS_CP_STATUS_RESET);
  one.write_reg(TS_CP_ID_OFFSET, 0);
  EXPECT_EQ(one.read_reg(TS_CP_ID_OFFSET), TS_CP_ID_RESET) << "ID is read-only";
  one.write_reg(TS_CP_CTRL_OFFSET, TS_CP_CTRL_RUN_PUT(1u) | TS_CP_CTRL_QUEUE_ENABLE_PUT(0xFFu));
  EXPECT_EQ(TS_CP_CTRL_QUEUE_ENABLE_GET(one.read_reg(TS_CP_CTRL_OFFSET)), 1u) << "bits of absent queues read 0";
  EXPECT_EQ(TS_CP_CTRL_SOFT_RESET_GET(one.read_reg(TS_CP_CTRL_OFFSET)), 0u);
  EXPECT_EQ(TS_CP_STATUS_CORE_RUNNING_GET(one.read_reg(TS_CP_STATUS_OFFSET)), 1u);
  EXPECT_EQ(one.read_reg(TS_CP_RING_BASE_OFFSET_N(1)), 0u) << "queue 1 is absent";

  Direct d;
  // Ring registers are frozen while the queue is enabled.
  d.dev.write_reg(TS_CP_RING_BASE_OFFSET_N(0), 0x8000);
  EXPECT_EQ(d.reg(TS_CP_RING_BASE_OFFSET_N(0)), 0x1000u);
  d.dev.write_reg(TS_CP_RING_BASE_OFFSET_N(0), 0x1000 | 0x3F);
  EXPECT_EQ(d.reg(TS_CP_RING_BASE_OFFSET_N(0)) & ~TS_CP_RING_BASE_RW_MASK, 0u) << "reserved bits read 0";
  EXPECT_EQ(d.reg(TS_CP_DOORBELL_OFFSET_N(0)), 0u) << "DOORBELL is write-only";
  // An error, a barrier and pointers; then INT_STATUS w1c and soft reset.
  d.run(1, cat({pkt::barrier_update(4, 9), Dwords{TS_PKT_HEADER(0x7f, 0)}}));
  EXPECT_EQ(d.dev.barrier(4), 9u);
  EXPECT_TRUE(d.dev.interrupt_line());
  EXPECT_EQ(TS_CP_INT_STATUS_ERROR_GET(d.reg(TS_CP_INT_STATUS_OFFSET)), 1u);
  d.dev.write_reg(TS_CP_INT_STATUS_OFFSET, 0);
  EXPECT_EQ(TS_CP_INT_STATUS_ERROR_GET(d.reg(TS_CP_INT_STATUS_OFFSET)), 1u) << "writing 0 leaves a w1c bit";
  d.dev.write_reg(TS_CP_INT_ENABLE_OFFSET, 0);
  EXPECT_FALSE(d.dev.interrupt_line()) << "line = INT_STATUS & INT_ENABLE";
  d.dev.write_reg(TS_CP_INT_STATUS_OFFSET, TS_CP_INT_STATUS_ERROR_MASK);
  EXPECT_EQ(d.reg(TS_CP_INT_STATUS_OFFSET), 0u);
  EXPECT_EQ(d.reg(TS_CP_ERROR_STATUS_OFFSET), 0u) << "clearing INT_STATUS.error clears the record";
  EXPECT_NE(TS_CP_STATUS_QUEUE_HALTED_GET(d.status()), 0u) << "the queue stays halted until soft reset";
  d.dev.write_reg(TS_CP_CTRL_OFFSET, TS_CP_CTRL_RUN_PUT(1u) | TS_CP_CTRL_SOFT_RESET_PUT(1u));
  EXPECT_EQ(TS_CP_STATUS_QUEUE_HALTED_GET(d.status()), 0u);
  EXPECT_EQ(d.dev.barrier(4), 0u);
  EXPECT_EQ(d.reg(TS_CP_RING_RPTR_OFFSET_N(1)), 0u);
  EXPECT_EQ(d.reg(TS_CP_RING_WPTR_OFFSET_N(1)), 0u);
  EXPECT_EQ(TS_CP_CTRL_QUEUE_ENABLE_GET(d.reg(TS_CP_CTRL_OFFSET)), 0u) << "queues stop";
  EXPECT_EQ(d.reg(TS_CP_RING_BASE_OFFSET_N(1)), 0x2000u) << "ring base survives";
  EXPECT_EQ(d.dev.read_reg(TS_SLC_BASE_ADDR), 0u) << "blocks other than the CP are not modelled";
}

// Catches: a WPTR write that wakes the queue (only DOORBELL may), pointers that do not wrap
// at 2^log2_dwords, packets straddling the ring end read wrongly, STATUS bits wrong.
TEST(RefDevice, DoorbellWakesAndRingWraps) {
  Direct d({}, 4);  // 16-dword ring
  for (int i = 0; i < 5; ++i) {
    d.push(0, pkt::frame_end(static_cast<uint32_t>(i)));  // 2 dwords each
    d.push(0, pkt::draw(DrawDesc{.count = static_cast<uint32_t>(i)}));  // 6 dwords
    d.dev.write_reg(TS_CP_RING_WPTR_OFFSET_N(0), d.wptr[0]);
    d.dev.advance(50);
    EXPECT_EQ(d.dev.pipe_log().size(), static_cast<std::size_t>(2 * i)) << "a WPTR write must not wake the queue";
    EXPECT_EQ(TS_CP_STATUS_QUEUE_ACTIVE_GET(d.status()) & 1u, 1u);
    d.bell(0);
    d.dev.advance(50);
    ASSERT_EQ(d.dev.pipe_log().size(), static_cast<std::size_t>(2 * i + 2));
    EXPECT_EQ(d.dev.pipe_log()[2 * i].args, Dwords{static_cast<uint32_t>(i)});
    EXPECT_EQ(TS_PKT_DRAW_COUNT_GET(d.dev.pipe_log()[2 * i + 1].args[TS_PKT_DRAW_COUNT_DW]), static_cast<uint32_t>(i));
    EXPECT_EQ(d.reg(TS_CP_RING_RPTR_OFFSET_N(0)), d.wptr[0]);
    EXPECT_EQ(TS_CP_STATUS_IDLE_GET(d.status()), 1u);
  }
  EXPECT_EQ(d.wptr[0], (5u * 8u) % 16u) << "the test itself wrapped";

  // A ring size outside 4..16 is not served (and is no error), as the firmware does.
  Direct bad({}, 3);
  bad.run(1, pkt::frame_end(1));
  EXPECT_TRUE(bad.dev.pipe_log().empty());
  EXPECT_EQ(bad.reg(TS_CP_ERROR_STATUS_OFFSET), 0u);
}

// Catches: IB nesting not returning to the caller, IB2 not allowed, DSID state inherited
// into a command buffer or lost on return, the pipe-command dsid wrong; DSID_SET packets not
// forwarded, or the DSID changes at IB calls and returns not forwarded as DSID_SET (the
// firmware's commands, in its order).
TEST(RefDevice, IndirectBuffersNestAndScopeTheDsid) {
  Direct d;
  const uint32_t ib1 = 0x10000, ib2 = 0x11000;
  const Dwords b2 = cat({pkt::frame_end(2), pkt::dsid_set(9), pkt::frame_end(3)});
  const Dwords b1 = cat({pkt::frame_end(1), pkt::dsid_set(7), pkt::indirect_buffer(ib2, static_cast<uint32_t>(b2.size())),
                         pkt::frame_end(4)});
  d.dev.write_dwords(ib1, b1);
  d.dev.write_dwords(ib2, b2);
  d.run(0, cat({pkt::dsid_set(5), pkt::indirect_buffer(ib1, static_cast<uint32_t>(b1.size())), pkt::frame_end(5)}));
  // {opcode, args[0], dsid}: reset at each IB start, restored on return, each change a DSID_SET.
  std::vector<std::array<uint32_t, 3>> got;
  for (const auto& c : d.dev.pipe_log()) got.push_back({c.opcode, c.args.at(0), c.dsid});
  const uint32_t S = TS_OP_DSID_SET, F = TS_OP_FRAME_END;
  const std::vector<std::array<uint32_t, 3>> want = {
      {S, 5, 5}, {S, 0, 0},             // ring: DSID_SET 5; the IB1 call resets to 0
      {F, 1, 0}, {S, 7, 7}, {S, 0, 0},  // IB1; the IB2 call resets to 0
      {F, 2, 0}, {S, 9, 9}, {F, 3, 9},  // IB2
      {S, 7, 7}, {F, 4, 7},             // back in IB1
      {S, 5, 5}, {F, 5, 5}};            // back in the ring
  EXPECT_EQ(got, want);
  const auto levels = [&] {
    std::vector<int> l;
    for (const auto& e : d.dev.trace()) l.push_back(e.ib_level);
    return l;
  }();
  EXPECT_EQ(levels, (std::vector<int>{0, 0, 1, 1, 1, 2, 2, 2, 1, 0}));
}

// Catches: a DSID_SET forwarded for an IB boundary that does not change the DSID (a call with
// DSID 0, a return to the same DSID, a zero-size IB), or one per level when IB2 and IB1 end
// together instead of one for the net change (the firmware returns from both at once).
TEST(RefDevice, IbBoundariesForwardOnlyDsidChanges) {
  Direct d;
  const uint32_t ib1 = 0x10000, ib2 = 0x11000, ib3 = 0x12000, ib4 = 0x13000;
  const Dwords b2 = cat({pkt::frame_end(30), pkt::dsid_set(9)});  // ends with DSID 9
  const Dwords b1 =
      cat({pkt::dsid_set(7), pkt::frame_end(20), pkt::indirect_buffer(ib2, static_cast<uint32_t>(b2.size()))});
  const Dwords b3 = cat({pkt::frame_end(40), pkt::dsid_set(2)});  // returns to DSID 2
  const Dwords b4 = pkt::frame_end(50);                           // DSID 0 on both sides
  d.dev.write_dwords(ib1, b1);
  d.dev.write_dwords(ib2, b2);
  d.dev.write_dwords(ib3, b3);
  d.dev.write_dwords(ib4, b4);
  d.run(0, cat({pkt::indirect_buffer(ib1, static_cast<uint32_t>(b1.size())), pkt::frame_end(10), pkt::dsid_set(2),
                pkt::indirect_buffer(ib3, static_cast<uint32_t>(b3.size())), pkt::frame_end(11),
                pkt::indirect_buffer(0x14000, 0), pkt::dsid_set(0),
                pkt::indirect_buffer(ib4, static_cast<uint32_t>(b4.size())), pkt::frame_end(12)}),
        400);
  std::vector<std::array<uint32_t, 3>> got;
  for (const auto& c : d.dev.pipe_log()) got.push_back({c.opcode, c.args.at(0), c.dsid});
  const uint32_t S = TS_OP_DSID_SET, F = TS_OP_FRAME_END;
  const std::vector<std::array<uint32_t, 3>> want = {
      {S, 7, 7}, {F, 20, 7},              // IB1, called with DSID 0: no DSID_SET for the call
      {S, 0, 0}, {F, 30, 0}, {S, 9, 9},   // IB2, called with 7
      {S, 0, 0}, {F, 10, 0},              // IB2 and IB1 end together: one DSID_SET 0
      {S, 2, 2}, {S, 0, 0}, {F, 40, 0},   // IB3
      {S, 2, 2}, {F, 11, 2},              // IB3's own DSID_SET 2; its return changes nothing
      {S, 0, 0}, {F, 50, 0}, {F, 12, 0}}; // the zero-size IB and IB4 (DSID 0 all along): none
  EXPECT_EQ(got, want);
  EXPECT_EQ(d.reg(TS_CP_ERROR_STATUS_OFFSET), 0u);
}

// Catches: COND_EXEC comparing without the mask, executing when it should skip, skipping the
// wrong number of dwords.
TEST(RefDevice, CondExecRunsOrSkips) {
  Direct d;
  const uint32_t flag = 0x9000;
  d.dev.write_mem32(flag, 0xA5);
  const Dwords body = cat({pkt::frame_end(1), pkt::frame_end(2)});
  const auto n = static_cast<uint32_t>(body.size());
  d.run(0, cat({pkt::cond_exec(flag, 0x0F, 0x05, n), body, pkt::cond_exec(flag, 0xFF, 0x05, n), body,
                pkt::cond_exec(flag, 0, 0, n), body, pkt::frame_end(9)}));
  std::vector<uint32_t> frames;
  for (const auto& c : d.dev.pipe_log()) frames.push_back(c.args[0]);
  EXPECT_EQ(frames, (std::vector<uint32_t>{1, 2, 1, 2, 9}));
}

// Catches: SET_REGS forwarded as one record instead of one per register, payloads reordered,
// pipe packets (SET_BIN_MODE, BIND_VIS_BUFFER, DRAW, RENDERPASS_*, DSID_SET, FRAME_END) missing
// from the log, non-pipe packets (NOP, FENCE, DSID_DELETE, barriers, PERF_SAMPLE) leaking into
// it.
TEST(RefDevice, PipeCommandsOfStateAndDrawing) {
  Direct d;
  const uint32_t regs[] = {10, 20, 30};
  const DrawDesc draw{Topology::PatchQuad, IndexType::U16, 12, 0x3000, 0x3100, 0x3200};
  RenderPassPacket rp;
  rp.body_size = 1 + TS_PKT_DRAW_LEN;
  rp.color_addr = 0x4000;
  d.run(0, cat({pkt::set_regs(0x100, regs), pkt::nop(3), pkt::set_bin_mode({}), pkt::bind_vis_buffer(0x5000, 256),
                pkt::renderpass_begin(rp), pkt::draw(draw), pkt::renderpass_end(), pkt::fence(0x6000, 1),
                pkt::barrier_update(1, 1), pkt::dsid_set(3), pkt::perf_sample(0x7000), pkt::frame_end(8)}));
  const auto& log = d.dev.pipe_log();
  EXPECT_EQ(opcodes(log), (std::vector<uint32_t>{TS_OP_SET_REGS, TS_OP_SET_REGS, TS_OP_SET_REGS, TS_OP_SET_BIN_MODE,
                                                 TS_OP_BIND_VIS_BUFFER, TS_OP_RENDERPASS_BEGIN, TS_OP_DRAW,
                                                 TS_OP_RENDERPASS_END, TS_OP_DSID_SET, TS_OP_FRAME_END}));
  EXPECT_EQ(log[1].args, (Dwords{0x104, 20}));
  EXPECT_EQ(d.dev.state_reg(0x108), 30u);
  const Dwords draw_pkt = pkt::draw(draw);
  EXPECT_EQ(log[6].args, Dwords(draw_pkt.begin() + 1, draw_pkt.end()));
  EXPECT_EQ(log[7].dsid, 0u);
  EXPECT_EQ(log[8].args, Dwords{3});
  EXPECT_EQ(log[8].dsid, 3u);
  EXPECT_EQ(log[9].dsid, 3u);
  EXPECT_EQ(d.dev.read_mem32(0x6000), 1u);
}

// Catches: the render-pass body not replayed once per coarse bin in two-level mode (after the
// visibility pass), replayed in PBB mode, the pass registers missing or out of place (docs/
// two-level.md "The passes"), RPTR moving backwards during a replay or released before the last.
TEST(RefDevice, TwoLevelRenderPassReplaysItsBodyPerCoarseBin) {
  Direct d;
  RenderPassPacket rp;
  rp.body_size = 2 * (1 + TS_PKT_DRAW_LEN);
  rp.width = 320;  // 5 x 3 blocks of 64: a 3 x 2 request gives 2 x 2-block bins, 3 x 2 of them
  rp.height = 192;
  const Dwords pass = cat({pkt::renderpass_begin(rp), pkt::draw(DrawDesc{.count = 1}), pkt::draw(DrawDesc{.count = 2}),
                           pkt::renderpass_end()});
  const uint32_t ib = 0x20000;
  const Dwords body =
      cat({pkt::set_bin_mode(BinningInfo{BinMode::TwoLevel, BinSize::Px32, BinOrder::Raster, 3, 2}),
           pkt::bind_vis_buffer(0x30000, 0x1000), pass, pkt::set_bin_mode({}), pass});
  d.dev.write_dwords(ib, body);
  d.run(0, pkt::indirect_buffer(ib, static_cast<uint32_t>(body.size())), 500);
  const auto& log = d.dev.pipe_log();
  std::vector<uint32_t> expect{TS_OP_SET_BIN_MODE, TS_OP_BIND_VIS_BUFFER, TS_OP_SET_REGS, TS_OP_SET_REGS, TS_OP_SET_REGS};
  for (int p = 0; p < 7; ++p)  // the visibility pass, then 6 coarse bins
    expect.insert(expect.end(), {TS_OP_SET_REGS, TS_OP_SET_REGS, TS_OP_RENDERPASS_BEGIN, TS_OP_DRAW, TS_OP_DRAW,
                                 TS_OP_RENDERPASS_END});
  expect.insert(expect.end(), {TS_OP_SET_REGS, TS_OP_SET_REGS});
  expect.insert(expect.end(), {TS_OP_SET_BIN_MODE, TS_OP_RENDERPASS_BEGIN, TS_OP_DRAW, TS_OP_DRAW, TS_OP_RENDERPASS_END});
  ASSERT_EQ(opcodes(log), expect);
  EXPECT_EQ(log[2].args, (Dwords{TS_GEOM_BASE_ADDR + TS_GEOM_COARSE_OFFSET,
                                 TS_GEOM_COARSE_W_PUT(2) | TS_GEOM_COARSE_H_PUT(2) | TS_GEOM_COARSE_NX_PUT(3) |
                                     TS_GEOM_COARSE_NY_PUT(2)}));
  EXPECT_EQ(log[4].args, (Dwords{TS_GEOM_BASE_ADDR + TS_GEOM_VIS_STRIDE_OFFSET, 10u * 64u}));  // 64 lines / 6
  EXPECT_EQ(log[5].args, (Dwords{TS_GEOM_BASE_ADDR + TS_GEOM_VIS_OFFSET, TS_GEOM_VIS_MODE_PUT(TS_VIS_MODE_WRITE)}));
  // the last coarse bin (2, 1): blocks 4..4 x 2..2 (clipped), bin index 5
  const size_t last = 5 + 6 * 6;
  EXPECT_EQ(log[last].args, (Dwords{TS_GEOM_BASE_ADDR + TS_GEOM_VIS_OFFSET,
                                    TS_GEOM_VIS_MODE_PUT(TS_VIS_MODE_TEST) | TS_GEOM_VIS_BIN_PUT(5)}));
  EXPECT_EQ(log[last + 1].args,
            (Dwords{TS_RASTER_BASE_ADDR + TS_RASTER_COARSE_OFFSET,
                    TS_RASTER_COARSE_X0_PUT(4) | TS_RASTER_COARSE_Y0_PUT(2) | TS_RASTER_COARSE_X1_PUT(4) |
                        TS_RASTER_COARSE_Y1_PUT(2) | TS_RASTER_COARSE_ENABLE_PUT(1)}));
  EXPECT_EQ(log[last + 7].args, (Dwords{TS_RASTER_BASE_ADDR + TS_RASTER_COARSE_OFFSET, TS_RASTER_COARSE_RESET}));
  uint32_t max_pass = 0;
  for (const auto& e : d.dev.trace()) max_pass = std::max(max_pass, e.pass);
  EXPECT_EQ(max_pass, 6u);

  // Without replay (the configuration for a CP that does not replay) the same stream runs once.
  Direct once(RefDeviceConfig{.replay_render_passes = false});
  once.dev.write_dwords(ib, body);
  once.run(0, pkt::indirect_buffer(ib, static_cast<uint32_t>(body.size())), 500);
  EXPECT_EQ(opcodes(once.dev.pipe_log()).size(), 1u + 2u * 5u);

  // The same in the ring itself: RPTR stays at RENDERPASS_BEGIN until the last pass ends.
  Direct r(RefDeviceConfig{}, 8);
  const Dwords head = cat({pkt::set_bin_mode(BinningInfo{BinMode::TwoLevel, BinSize::Px32, BinOrder::Raster, 2, 2}),
                           pkt::bind_vis_buffer(0x30000, 0x1000)});
  r.push(0, cat({head, pass}));
  r.bell(0);
  r.dev.advance(4);  // SET_BIN_MODE, BIND_VIS_BUFFER, BEGIN, DRAW
  EXPECT_EQ(r.reg(TS_CP_RING_RPTR_OFFSET_N(0)), head.size());
  r.dev.advance(100);
  EXPECT_EQ(r.reg(TS_CP_RING_RPTR_OFFSET_N(0)), r.wptr[0]);
  EXPECT_EQ(opcodes(r.dev.pipe_log()).size(), 2u + 3u + 5u * 6u + 2u);  // 2 x 2 bins: 5 passes
}

// Catches: FENCE not waiting for its latency (STATUS.queue_waiting), the value written early,
// the interrupt flag ignored or raised without it, flush/invalidate flags ignored.
TEST(RefDevice, FenceWaitsWritesAndInterrupts) {
  Direct d(RefDeviceConfig{.fence_latency = 20});
  d.push(0, cat({pkt::fence(0x6000, 5, FenceFlags{true, true, false}), pkt::fence(0x6004, 6, FenceFlags{false, false, true})}));
  d.bell(0);
  d.dev.advance(5);
  EXPECT_EQ(d.dev.read_mem32(0x6000), 0u);
  EXPECT_EQ(TS_CP_STATUS_QUEUE_WAITING_GET(d.status()), 1u);
  EXPECT_FALSE(d.dev.wait_interrupt(10)) << "the interrupting fence is behind the first one";
  d.dev.advance(10);
  EXPECT_EQ(d.dev.read_mem32(0x6000), 5u);
  EXPECT_EQ(d.dev.read_mem32(0x6004), 0u);
  EXPECT_TRUE(d.dev.wait_interrupt(100));
  EXPECT_EQ(d.dev.read_mem32(0x6004), 6u);
  EXPECT_EQ(TS_CP_INT_STATUS_FENCE_GET(d.reg(TS_CP_INT_STATUS_OFFSET)), 1u);
  EXPECT_EQ(d.dev.flushes(), 1u);
  EXPECT_EQ(d.dev.invalidates(), 1u);
  d.dev.write_reg(TS_CP_INT_STATUS_OFFSET, TS_CP_INT_STATUS_FENCE_MASK);
  EXPECT_FALSE(d.dev.interrupt_line());
}

// Catches: DSID_DELETE writing its fence before the delete hint or without waiting, a hint
// for DSID 0 (never deleted), PERF_SAMPLE not writing its block.
TEST(RefDevice, DsidDeleteHintThenFenceAndPerfSample) {
  Direct d(RefDeviceConfig{.delete_latency = 30});
  d.run(0, cat({pkt::dsid_delete(12, 0x6000, 0xD1), pkt::dsid_delete(0, 0x6004, 0xD0), pkt::perf_sample(0x7000)}), 10);
  ASSERT_EQ(d.dev.delete_hints().size(), 1u);
  EXPECT_EQ(d.dev.delete_hints()[0].dsid, 12u);
  EXPECT_EQ(d.dev.read_mem32(0x6000), 0u) << "the fence follows the SLC's completion";
  d.dev.advance(100);
  EXPECT_EQ(d.dev.read_mem32(0x6000), 0xD1u);
  EXPECT_EQ(d.dev.read_mem32(0x6004), 0xD0u) << "DSID 0: no hint, but the fence is written";
  EXPECT_EQ(d.dev.delete_hints().size(), 1u);
  namespace pb = perf_block;  // the layout of firmware/include/cp_fw.h
  Dwords blk(pb::kDwords);
  d.dev.read_dwords(0x7000, blk);
  EXPECT_EQ(blk[pb::kMagicDw], pb::kMagic);
  EXPECT_EQ(blk[pb::kVersionDw], pb::kLayoutVersion) << "queue 0, ring level";
  EXPECT_NE(blk[pb::kCyclesLoDw], 0u);
  EXPECT_EQ(blk[pb::kPacketsQ0Dw], 3u) << "packets of queue 0, the sample included";
  EXPECT_EQ(blk[pb::kPacketsQ1Dw], 0u);
}

// Catches (issue 14 item 1): a reference device on which a DSID_DELETE of live data hides,
// because deleted lines keep their old data. Lines a render pass stored are tagged with the
// pass's color / depth DSID; DSID_DELETE(d) turns exactly the lines tagged d into
// kDeletedPoison: not a DONT_CARE store's lines, not another DSID's, never DSID 0's, and not
// lines a host write rewrote after the pass (host writes carry no DSID).
TEST(RefDevice, DsidDeletePoisonsTheLinesItsPassesStored) {
  Direct d;
  RenderPassPacket a;  // 16x4 RGBA8: 256 bytes = 4 lines each
  a.width = 16, a.height = 4, a.color_addr = 0x10000, a.depth_addr = 0x11000;
  a.color_store = StoreOp::Store, a.depth_store = StoreOp::DontCare, a.color_dsid = 7, a.depth_dsid = 7;
  RenderPassPacket b = a;  // another group's target, stored with DSID 9
  b.color_addr = 0x12000, b.depth_addr = 0x13000, b.color_dsid = 9, b.depth_store = StoreOp::Store, b.depth_dsid = 0;
  for (uint32_t addr : {0x10000u, 0x11000u, 0x12000u, 0x13000u})
    for (uint32_t i = 0; i < 64; ++i) d.dev.write_mem32(addr + 4 * i, 0x11111111u);
  d.run(0, cat({pkt::renderpass_begin(a), pkt::renderpass_end(), pkt::renderpass_begin(b), pkt::renderpass_end()}));
  EXPECT_EQ(d.dev.line_dsid(0x10000), 7u);
  EXPECT_EQ(d.dev.line_dsid(0x11000), 0u) << "a DONT_CARE depth store writes nothing";
  EXPECT_EQ(d.dev.line_dsid(0x13000), 0u) << "depth DSID 0: untagged";
  d.dev.write_mem32(0x100C0, 0x22222222u);  // the host rewrites a's last line after the pass
  d.run(0, cat({pkt::dsid_delete(7, 0x6000, 1), pkt::dsid_delete(0, 0x6004, 1)}));
  const uint32_t poison = RefDevice::kDeletedPoison;
  for (uint32_t i = 0; i < 48; ++i) EXPECT_EQ(d.dev.read_mem32(0x10000 + 4 * i), poison) << "dword " << i;
  EXPECT_EQ(d.dev.read_mem32(0x100C0), 0x22222222u) << "the host's write after the pass is not the group's";
  EXPECT_EQ(d.dev.read_mem32(0x11000), 0x11111111u);
  EXPECT_EQ(d.dev.read_mem32(0x12000), 0x11111111u) << "DSID 9's lines were dropped by the delete of 7";
  EXPECT_EQ(d.dev.read_mem32(0x13000), 0x11111111u);
  EXPECT_EQ(d.dev.poisoned_lines(), 3u);
  EXPECT_EQ(d.dev.line_dsid(0x10000), 0u) << "a deleted line is no longer the group's";
}

// Catches: a BARRIER_WAIT that blocks the other queue, a wait that passes before the update,
// queues not served one packet at a time in turn.
TEST(RefDevice, BarrierBlocksOnlyItsQueueAndQueuesAlternate) {
  Direct d;
  d.push(0, cat({pkt::frame_end(100), pkt::barrier_wait(3, 2), pkt::frame_end(101)}));
  d.push(1, cat({pkt::frame_end(200), pkt::frame_end(201), pkt::frame_end(202), pkt::barrier_update(3, 2),
                 pkt::frame_end(203)}));
  d.bell(0);
  d.bell(1);
  d.dev.advance(100);
  std::vector<uint32_t> frames;
  for (const auto& c : d.dev.pipe_log()) frames.push_back(c.args[0]);
  EXPECT_EQ(frames, (std::vector<uint32_t>{100, 200, 201, 202, 203, 101}));
  EXPECT_EQ(TS_CP_STATUS_IDLE_GET(d.status()), 1u);
}

// Catches, for every error code: the wrong code, queue, IB level, opcode or address in the
// record; the faulty queue not halting; the other queue stopping too; the interrupt missing;
// a later error overwriting the first.
TEST(RefDevice, ErrorsHaltOnlyTheirQueue) {
  struct Case {
    const char* name;
    uint32_t code;
    uint32_t level;
    uint32_t opcode;
    std::function<Dwords(Direct&, uint32_t& bad_addr)> stream;  // queue-1 ring content
  };
  const uint32_t ib = 0x30000;
  auto in_ib = [&](Direct& d, const Dwords& b) {
    d.dev.write_dwords(ib, b);
    return pkt::indirect_buffer(ib, static_cast<uint32_t>(b.size()));
  };
  const std::vector<Case> cases = {
      {"unknown opcode", TS_CP_ERROR_BAD_OPCODE, 0, 0x7f,
       [&](Direct& d, uint32_t& a) { a = d.ring[1] + 4 * 2; return cat({pkt::frame_end(1), Dwords{TS_PKT_HEADER(0x7f, 0)}}); }},
      {"length outside the opcode's limits", TS_CP_ERROR_BAD_LENGTH, 1, TS_OP_DRAW,
       [&](Direct& d, uint32_t& a) { a = ib; return in_ib(d, Dwords{TS_PKT_HEADER(TS_OP_DRAW, 2), 0, 0}); }},
      {"packet runs past its IB", TS_CP_ERROR_IB_OVERFLOW, 1, TS_OP_DRAW,
       [&](Direct& d, uint32_t& a) {
         a = ib + 8;
         Dwords b = cat({pkt::frame_end(0), pkt::draw({})});
         b.resize(b.size() - 1);
         return in_ib(d, b);
       }},
      {"IB nested deeper than IB2", TS_CP_ERROR_IB_OVERFLOW, 2, TS_OP_INDIRECT_BUFFER,
       [&](Direct& d, uint32_t& a) {
         const Dwords b2 = pkt::indirect_buffer(0x32000, 2);  // IB3
         d.dev.write_dwords(0x31000, b2);
         a = 0x31000;
         return in_ib(d, pkt::indirect_buffer(0x31000, static_cast<uint32_t>(b2.size())));
       }},
      {"misaligned fence", TS_CP_ERROR_BAD_ADDRESS, 0, TS_OP_FENCE,
       [&](Direct& d, uint32_t& a) { a = d.ring[1]; return pkt::fence(0x6002, 1); }},
      {"IB outside memory", TS_CP_ERROR_BAD_ADDRESS, 0, TS_OP_INDIRECT_BUFFER,
       [&](Direct& d, uint32_t& a) { a = d.ring[1]; return pkt::indirect_buffer(static_cast<uint32_t>(d.dev.memory_size() - 8), 4); }},
      {"COND_EXEC address outside memory", TS_CP_ERROR_BAD_ADDRESS, 1, TS_OP_COND_EXEC,
       [&](Direct& d, uint32_t& a) { a = ib; return in_ib(d, pkt::cond_exec(0xFFFFFFF0u, 1, 1, 0)); }},
      {"misaligned vertex buffer", TS_CP_ERROR_BAD_ADDRESS, 0, TS_OP_DRAW,
       [&](Direct& d, uint32_t& a) { a = d.ring[1]; return pkt::draw(DrawDesc{.vertex_addr = 0x3008}); }},
      {"vertices past the end of memory", TS_CP_ERROR_BAD_ADDRESS, 0, TS_OP_DRAW,
       [&](Direct& d, uint32_t& a) {
         a = d.ring[1];
         return pkt::draw(DrawDesc{.count = 2, .vertex_addr = static_cast<uint32_t>(d.dev.memory_size() - 16)});
       }},
      {"render target past the end of memory", TS_CP_ERROR_BAD_ADDRESS, 0, TS_OP_RENDERPASS_BEGIN,
       [&](Direct& d, uint32_t& a) {
         a = d.ring[1];
         RenderPassPacket rp;
         rp.color_addr = static_cast<uint32_t>(d.dev.memory_size() - 4096);
         rp.width = rp.height = 64;  // 16 KiB
         return pkt::renderpass_begin(rp);
       }},
      {"header flag a packet does not define", TS_CP_ERROR_BAD_OPCODE, 0, TS_OP_DRAW,
       [&](Direct& d, uint32_t& a) {
         a = d.ring[1];
         Dwords x = pkt::draw({});
         x[0] |= TS_PKT_FENCE_FLAG_INTERRUPT_MASK;
         return x;
       }},
      {"COND_EXEC count past its IB (condition true)", TS_CP_ERROR_IB_OVERFLOW, 1, TS_OP_COND_EXEC,
       [&](Direct& d, uint32_t& a) {
         a = ib;
         d.dev.write_mem32(0x9000, 1);
         return in_ib(d, pkt::cond_exec(0x9000, 1, 1, 3));
       }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Direct d;
    uint32_t bad = 0;
    d.push(1, c.stream(d, bad));
    d.push(1, pkt::frame_end(0xDEAD));  // never reached
    d.bell(1);
    Dwords q0;
    for (uint32_t i = 0; i < 6; ++i) q0 = cat({q0, pkt::frame_end(i)});
    d.run(0, cat({q0, pkt::fence(0x6000, 0x600D)}), 300);
    const uint32_t es = d.reg(TS_CP_ERROR_STATUS_OFFSET);
    EXPECT_EQ(TS_CP_ERROR_STATUS_VALID_GET(es), 1u);
    EXPECT_EQ(TS_CP_ERROR_STATUS_CODE_GET(es), c.code);
    EXPECT_EQ(TS_CP_ERROR_STATUS_QUEUE_GET(es), 1u);
    EXPECT_EQ(TS_CP_ERROR_STATUS_IB_LEVEL_GET(es), c.level);
    EXPECT_EQ(TS_CP_ERROR_STATUS_OPCODE_GET(es), c.opcode);
    EXPECT_EQ(d.reg(TS_CP_ERROR_ADDR_OFFSET), bad);
    EXPECT_EQ(TS_CP_STATUS_QUEUE_HALTED_GET(d.status()), 2u);
    EXPECT_TRUE(d.dev.interrupt_line());
    EXPECT_EQ(d.dev.read_mem32(0x6000), 0x600Du) << "queue 0 keeps running";
    for (const auto& p : d.dev.pipe_log()) EXPECT_NE(p.args.empty() ? 0 : p.args[0], 0xDEADu);
    // A second error on queue 0 is not recorded over the first.
    d.run(0, Dwords{TS_PKT_HEADER(0x66, 0)});
    EXPECT_EQ(d.reg(TS_CP_ERROR_STATUS_OFFSET), es);
    EXPECT_EQ(TS_CP_STATUS_QUEUE_HALTED_GET(d.status()), 3u);
    d.dev.write_reg(TS_CP_ERROR_STATUS_OFFSET, TS_CP_ERROR_STATUS_VALID_MASK);
    EXPECT_EQ(d.reg(TS_CP_ERROR_STATUS_OFFSET), 0u);
  }
}

// Catches: a render pass whose body_size disagrees with where RENDERPASS_END is (or that
// nests) executing anyway instead of halting with BAD_LENGTH.
TEST(RefDevice, InconsistentRenderPassIsBadLength) {
  Direct d;
  RenderPassPacket rp;
  rp.body_size = 1;  // but the END is 6 dwords later
  d.run(1, cat({pkt::renderpass_begin(rp), pkt::draw({}), pkt::renderpass_end()}));
  EXPECT_EQ(TS_CP_ERROR_STATUS_CODE_GET(d.reg(TS_CP_ERROR_STATUS_OFFSET)), TS_CP_ERROR_BAD_LENGTH);
  EXPECT_EQ(TS_CP_STATUS_QUEUE_HALTED_GET(d.status()), 2u);
}
