// cp_fw_test.cpp -- GoogleTest bench of the CP firmware's packet logic, built for the host
// against the fake register layer (fake_gpu.hpp). Each test drives cp_fw_init() / cp_fw_poll()
// and checks what the firmware did to the fake: pipeline commands, memory writes, SLC and cache
// commands, errors, interrupts, RPTR and QUEUE_STATE. The expected behaviour comes from
// spec/packets.yaml, spec/registers/cpfw.yaml and docs/firmware.md. Every test says what it
// would catch.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "cp_fw.h"
#include "fake_gpu.hpp"
#include "packets.hpp"
#include "tessera_spec.h"

using cpfw_test::FakeGpu;
using cpfw_test::PipeCmd;
using namespace cpfw_test::packets;

namespace {

const uint32_t kFenceFlush = TS_PKT_FENCE_FLAG_FLUSH_MASK;
const uint32_t kFenceInvalidate = TS_PKT_FENCE_FLAG_INVALIDATE_MASK;
const uint32_t kFenceIrq = TS_PKT_FENCE_FLAG_INTERRUPT_MASK;

// ---- fixture -------------------------------------------------------------------------------------

class CpFw : public ::testing::Test {
 protected:
  FakeGpu gpu;

  void SetUp() override
  {
    cpfw_test::g_fake = &gpu;
    gpu.enable_mask = 0x3;
  }
  void TearDown() override { cpfw_test::g_fake = nullptr; }

  void init() { cp_fw_init(); }

  void poll(int n = 1)
  {
    for (int i = 0; i < n; i++) {
      cp_fw_poll();
      gpu.tick();
    }
  }

  // Polls until pred holds (at most max rounds); returns whether it did.
  bool poll_until(const std::function<bool()> &pred, int max = 200)
  {
    for (int i = 0; i < max; i++) {
      if (pred())
        return true;
      poll();
    }
    return pred();
  }

  std::vector<PipeCmd> cmds_of(uint32_t q) const
  {
    std::vector<PipeCmd> out;
    for (const PipeCmd &c : gpu.pipe)
      if (c.queue == q)
        out.push_back(c);
    return out;
  }

  bool fence_written(uint32_t addr, uint32_t value) const
  {
    return std::any_of(gpu.mem_writes.begin(), gpu.mem_writes.end(),
                       [&](const cpfw_test::MemWrite &w) { return w.addr == addr && w.value == value; });
  }

  uint64_t write_time(uint32_t addr) const
  {
    for (const auto &w : gpu.mem_writes)
      if (w.addr == addr)
        return w.time;
    return 0;
  }

  // After an error on queue `bad`, the other queue still executes packets.
  void expect_other_queue_runs(uint32_t bad)
  {
    const uint32_t other = 1u - bad;
    const size_t before = cmds_of(other).size();
    gpu.ring_write(other, draw(99, 0x9000));
    poll(4);
    const auto after = cmds_of(other);
    ASSERT_EQ(after.size(), before + 1) << "queue " << other << " stalled after queue " << bad
                                        << "'s error";
    EXPECT_EQ(after.back().args, payload(draw(99, 0x9000)));
  }

  void expect_error(uint32_t code, uint32_t q, uint32_t level, uint32_t opcode, uint32_t addr)
  {
    ASSERT_EQ(gpu.errors.size(), 1u);
    EXPECT_EQ(gpu.errors[0].code, code);
    EXPECT_EQ(gpu.errors[0].queue, q);
    EXPECT_EQ(gpu.errors[0].level, level);
    EXPECT_EQ(gpu.errors[0].opcode, opcode);
    EXPECT_EQ(gpu.errors[0].addr, addr);
  }
};

// ==== basics =======================================================================================

// Catches: a firmware that does not initialise its reporting registers or statistics block.
TEST_F(CpFw, InitReportsConfigurationAndResetsState)
{
  init();
  EXPECT_NE(gpu.console.find("tessera cp firmware"), std::string::npos) << gpu.console;
  EXPECT_EQ(gpu.window_dsid, 0u);
  EXPECT_EQ(gpu.queue_state, 0u);
  EXPECT_EQ(gpu.fw_status, CP_FWS_IDLE);
  EXPECT_EQ(cp_fw_stats.magic, CP_STATS_MAGIC);
  EXPECT_EQ(cp_fw_stats.num_ops, CP_STATS_NUM_OPS);
  EXPECT_EQ(cp_fw_stats.op[cp_fw_op_index(TS_OP_DRAW)].opcode, TS_OP_DRAW);
  EXPECT_EQ(cp_fw_stats.op[CP_STATS_OTHER].opcode, 0xffu);
  poll(3);
  EXPECT_TRUE(gpu.pipe.empty());
  EXPECT_EQ(cp_fw_stats.polls, 3u);
}

// Catches: serving a queue the host did not enable.
TEST_F(CpFw, DisabledQueueIsNotServedUntilEnabled)
{
  gpu.enable_mask = 0x2;
  init();
  gpu.ring_write(0, draw(3));
  poll(5);
  EXPECT_TRUE(gpu.pipe.empty());
  EXPECT_TRUE(gpu.fetch_ops.empty());
  gpu.enable_mask = 0x3;
  poll(2);
  ASSERT_EQ(gpu.pipe.size(), 1u);
  EXPECT_EQ(gpu.queue[0].rptr, 6u);
}

// Catches: a disabled idle queue whose ring was reprogrammed being resumed with stale pointers.
TEST_F(CpFw, ReenabledIdleQueueRereadsRingConfiguration)
{
  init();
  gpu.ring_write(0, draw(1));
  poll(2);
  ASSERT_EQ(gpu.pipe.size(), 1u);
  gpu.enable_mask = 0x2;
  poll(1);
  // The host moves the ring while the queue is disabled.
  gpu.queue[0].base = 0x6000;
  gpu.queue[0].log2 = 5;
  gpu.queue[0].rptr = gpu.queue[0].wptr = gpu.queue[0].wpos = 0;
  gpu.ring_write(0, draw(2));
  gpu.enable_mask = 0x3;
  poll(2);
  ASSERT_EQ(gpu.pipe.size(), 2u);
  EXPECT_EQ(gpu.pipe[1].args[1], 2u);
  EXPECT_EQ(gpu.fetch_ops.back().addr, 0x6000u);
}

// Catches: an invalid RING_SIZE used as a ring (the fetch would run wild).
TEST_F(CpFw, InvalidRingSizeIsNotServed)
{
  gpu.queue[0].log2 = 3;
  init();
  gpu.set_mem(0x1000, TS_PKT_DRAW_HEADER);
  gpu.queue[0].wptr = 6;
  poll(3);
  EXPECT_TRUE(cmds_of(0).empty());
  EXPECT_NE(gpu.console.find("RING_SIZE"), std::string::npos);
  expect_other_queue_runs(0);
}

// ==== stream packets ===============================================================================

// Catches: NOP payload executed or mis-skipped, short (read) and long (channel restart) skips.
TEST_F(CpFw, NopSkipsItsPayload)
{
  init();
  // NOP payloads full of DRAW headers: executing them would push commands.
  Dw bogus(20, TS_PKT_DRAW_HEADER);
  gpu.ring_write(0, cat({Dw{TS_PKT_NOP_HEADER(3)}, Dw(3, TS_PKT_DRAW_HEADER),
                         Dw{TS_PKT_NOP_HEADER(20)}, bogus, Dw{TS_PKT_NOP_HEADER(0)}, draw(7)}));
  poll(6);
  ASSERT_EQ(gpu.pipe.size(), 1u);
  EXPECT_EQ(gpu.pipe[0].args, payload(draw(7)));
  EXPECT_EQ(gpu.queue[0].rptr, 4u + 21u + 1u + 6u);
  EXPECT_EQ(cp_fw_stats.op[cp_fw_op_index(TS_OP_NOP)].count, 3u);
}

// Catches: SET_REGS sent as one command, wrong offsets, nargs or DSID.
TEST_F(CpFw, SetRegsSendsOneCommandPerRegister)
{
  init();
  gpu.ring_write(0, cat({dsid_set(6), set_regs(0x1230, {11, 22, 33})}));
  poll(3);
  ASSERT_EQ(gpu.pipe.size(), 4u); // DSID_SET, then one SET_REGS per register
  EXPECT_EQ(gpu.pipe[0].opcode, TS_OP_DSID_SET);
  for (uint32_t i = 0; i < 3; i++) {
    const PipeCmd &c = gpu.pipe[1 + i];
    EXPECT_EQ(c.opcode, TS_OP_SET_REGS);
    EXPECT_EQ(c.queue, 0u);
    EXPECT_EQ(c.dsid, 6u);
    EXPECT_EQ(c.args, (Dw{0x1230u + 4u * i, 11u * (i + 1)}));
  }
}

// Catches: a pipeline packet forwarded with the wrong opcode, argument count or arguments.
TEST_F(CpFw, PipelinePacketsForwardTheirPayload)
{
  init();
  // PBB: every packet forwarded once (two-level replays: CpFwBinning)
  const std::vector<Dw> pkts = {bin_mode(TS_BIN_MODE_PBB, 4, 8), vis_buffer(0x40000, 0x1000),
                                rp_begin(0x20000, 0x30000), draw(300, 0x8000),
                                draw(12, 0x8010, TS_TOPOLOGY_PATCH_QUAD, TS_INDEX_TYPE_U16,
                                     0x9002, 0xa000),
                                rp_end(), frame_end(41)};
  Dw all;
  for (const Dw &p : pkts)
    all = cat({all, p});
  gpu.ring_write(1, all);
  poll(10);
  ASSERT_EQ(gpu.pipe.size(), pkts.size());
  for (size_t i = 0; i < pkts.size(); i++) {
    SCOPED_TRACE(i);
    EXPECT_EQ(gpu.pipe[i].opcode, TS_PKT_HDR_OPCODE_GET(pkts[i][0]));
    EXPECT_EQ(gpu.pipe[i].queue, 1u);
    EXPECT_EQ(gpu.pipe[i].dsid, 0u);
    EXPECT_EQ(gpu.pipe[i].args, payload(pkts[i]));
  }
  EXPECT_EQ(cp_fw_stats.last_frame, 41u);
  EXPECT_EQ(gpu.queue[1].rptr, static_cast<uint32_t>(all.size()));
}

// Catches: commands not tagged with the queue's current DSID; DSID_SET not forwarded to the
// pipeline (the binner closes its batch on it), forwarded with the raw payload dword instead of
// the DSID, tagged with the old DSID, or dropped when the DSID does not change.
TEST_F(CpFw, DsidSetIsForwardedAndTagsLaterCommands)
{
  init();
  Dw reserved_bits = dsid_set(0x3f);
  reserved_bits[1] |= ~TS_PKT_DSID_SET_DSID_MASK; // bits the field does not cover
  gpu.ring_write(1, cat({draw(1), dsid_set(5), draw(2), reserved_bits, draw(3), dsid_set(0x3f),
                         draw(4)}));
  poll(6);
  struct Want {
    uint32_t opcode, dsid;
    Dw args;
  };
  const std::vector<Want> want = {
      {TS_OP_DRAW, 0, payload(draw(1))},        {TS_OP_DSID_SET, 5, {5}},
      {TS_OP_DRAW, 5, payload(draw(2))},        {TS_OP_DSID_SET, 0x3f, {0x3f}},
      {TS_OP_DRAW, 0x3f, payload(draw(3))},     {TS_OP_DSID_SET, 0x3f, {0x3f}},
      {TS_OP_DRAW, 0x3f, payload(draw(4))}};
  ASSERT_EQ(gpu.pipe.size(), want.size());
  for (size_t i = 0; i < want.size(); i++) {
    SCOPED_TRACE(i);
    EXPECT_EQ(gpu.pipe[i].opcode, want[i].opcode);
    EXPECT_EQ(gpu.pipe[i].queue, 1u);
    EXPECT_EQ(gpu.pipe[i].dsid, want[i].dsid);
    EXPECT_EQ(gpu.pipe[i].args, want[i].args);
  }
  EXPECT_EQ(cp_fw_stats.op[cp_fw_op_index(TS_OP_DSID_SET)].count, 3u);
}

// Catches: DSID_SET forwarded only by the ring fast path, or a general-path DSID_SET (here a
// partly published one, executed once its payload is published) whose later commands keep the
// old DSID.
TEST_F(CpFw, DsidSetOnTheGeneralPathIsForwarded)
{
  init();
  const Dw d = dsid_set(9);
  gpu.ring_write(0, cat({draw(1), Dw{d[0]}}));
  poll(3);
  ASSERT_EQ(gpu.pipe.size(), 1u);
  gpu.ring_write(0, cat({Dw{d[1]}, draw(2)}));
  poll(3);
  ASSERT_EQ(gpu.pipe.size(), 3u);
  EXPECT_EQ(gpu.pipe[1].opcode, TS_OP_DSID_SET);
  EXPECT_EQ(gpu.pipe[1].dsid, 9u);
  EXPECT_EQ(gpu.pipe[1].args, (Dw{9}));
  EXPECT_EQ(gpu.pipe[2].opcode, TS_OP_DRAW);
  EXPECT_EQ(gpu.pipe[2].dsid, 9u);
}

// ==== indirect buffers =============================================================================

// Catches: wrong nesting order, IBs read through the wrong channel, caller not continued.
TEST_F(CpFw, IndirectBuffersNestRingIb1Ib2AndReturn)
{
  init();
  const uint32_t ib1 = 0x10000, ib2 = 0x11000;
  const Dw ib2_body = draw(30);
  const Dw ib1_body = cat({draw(20), ib(ib2, static_cast<uint32_t>(ib2_body.size())), draw(21)});
  gpu.put_mem(ib1, ib1_body);
  gpu.put_mem(ib2, ib2_body);
  gpu.ring_write(0, cat({draw(10), ib(ib1, static_cast<uint32_t>(ib1_body.size())), draw(11)}));
  poll(10);
  std::vector<uint32_t> counts;
  for (const PipeCmd &c : gpu.pipe)
    counts.push_back(c.args[1]);
  EXPECT_EQ(counts, (std::vector<uint32_t>{10, 20, 30, 21, 11}));
  // Channels 3q+level with the IB's address and size.
  bool ch1 = false, ch2 = false;
  for (const auto &op : gpu.fetch_ops) {
    if (op.channel == 1 && !op.extend && op.addr == ib1 && op.count == ib1_body.size())
      ch1 = true;
    if (op.channel == 2 && !op.extend && op.addr == ib2 && op.count == ib2_body.size())
      ch2 = true;
  }
  EXPECT_TRUE(ch1);
  EXPECT_TRUE(ch2);
  EXPECT_EQ(gpu.queue[0].rptr, 6u + 3u + 6u);
  EXPECT_TRUE(gpu.errors.empty());
}

// Catches: IB of queue 1 on queue 0's channels.
TEST_F(CpFw, QueueOneUsesItsOwnFetchChannels)
{
  init();
  gpu.put_mem(0x12000, draw(5));
  gpu.ring_write(1, ib(0x12000, 6));
  poll(4);
  ASSERT_EQ(gpu.pipe.size(), 1u);
  for (const auto &op : gpu.fetch_ops)
    EXPECT_GE(op.channel, 3u);
}

// Catches: DSID inherited into a command buffer, or not restored for the caller.
TEST_F(CpFw, DsidIsZeroAtIbStartAndRestoredOnReturn)
{
  init();
  const uint32_t ib1 = 0x10000, ib2 = 0x11000;
  const Dw ib2_body = cat({draw(30), dsid_set(9), draw(31)});
  const Dw ib1_body = cat({draw(20), dsid_set(7), draw(21),
                           ib(ib2, static_cast<uint32_t>(ib2_body.size())), draw(22)});
  gpu.put_mem(ib1, ib1_body);
  gpu.put_mem(ib2, ib2_body);
  gpu.ring_write(0, cat({dsid_set(3), draw(10), ib(ib1, static_cast<uint32_t>(ib1_body.size())),
                         draw(11)}));
  poll(16);
  // {draw count, dsid} for DRAWs; {kSet + new DSID, dsid} for DSID_SET: the packets, and the
  // DSID changes at the IB calls (0) and returns (the caller's) forwarded as DSID_SET.
  const uint32_t kSet = 1000;
  std::vector<std::pair<uint32_t, uint32_t>> got;
  for (const PipeCmd &c : gpu.pipe) {
    ASSERT_EQ(c.args.size(), c.opcode == TS_OP_DSID_SET ? 1u : 5u);
    got.emplace_back(c.opcode == TS_OP_DSID_SET ? kSet + c.args[0] : c.args[1], c.dsid);
  }
  const std::vector<std::pair<uint32_t, uint32_t>> want = {
      {kSet + 3, 3}, {10, 3},                 // ring
      {kSet + 0, 0}, {20, 0}, {kSet + 7, 7}, {21, 7}, // IB1
      {kSet + 0, 0}, {30, 0}, {kSet + 9, 9}, {31, 9}, // IB2
      {kSet + 7, 7}, {22, 7},                 // back in IB1
      {kSet + 3, 3}, {11, 3}};                // back in the ring
  EXPECT_EQ(got, want);
}

// Catches: a DSID_SET pushed for an IB boundary that does not change the DSID (a call with
// DSID 0, a return to the same DSID), or one per level when IB2 and IB1 end together instead
// of one for the net change.
TEST_F(CpFw, IbBoundariesForwardOnlyDsidChanges)
{
  init();
  const uint32_t ib1 = 0x10000, ib2 = 0x11000, ib3 = 0x12000, ib4 = 0x13000;
  const Dw ib2_body = cat({draw(30), dsid_set(9)});                   // ends with DSID 9
  const Dw ib1_body = cat({dsid_set(7), draw(20), ib(ib2, static_cast<uint32_t>(ib2_body.size()))});
  const Dw ib3_body = cat({draw(40), dsid_set(2)});                   // returns to DSID 2
  const Dw ib4_body = draw(50);                                       // DSID 0 all along
  gpu.put_mem(ib1, ib1_body);
  gpu.put_mem(ib2, ib2_body);
  gpu.put_mem(ib3, ib3_body);
  gpu.put_mem(ib4, ib4_body);
  gpu.ring_write(0, cat({ib(ib1, static_cast<uint32_t>(ib1_body.size())), draw(10), dsid_set(2),
                         ib(ib3, static_cast<uint32_t>(ib3_body.size())), draw(11), dsid_set(0),
                         ib(ib4, static_cast<uint32_t>(ib4_body.size())), draw(12)}));
  poll(20);
  const uint32_t kSet = 1000;
  std::vector<std::pair<uint32_t, uint32_t>> got;
  for (const PipeCmd &c : gpu.pipe)
    got.emplace_back(c.opcode == TS_OP_DSID_SET ? kSet + c.args.at(0) : c.args.at(1), c.dsid);
  const std::vector<std::pair<uint32_t, uint32_t>> want = {
      // IB1 called with DSID 0: no DSID_SET for the call
      {kSet + 7, 7}, {20, 7},
      {kSet + 0, 0}, {30, 0}, {kSet + 9, 9}, // IB2 (called with 7)
      {kSet + 0, 0}, {10, 0},                // IB2 and IB1 end together: one DSID_SET 0
      {kSet + 2, 2},
      {kSet + 0, 0}, {40, 0}, {kSet + 2, 2}, // IB3 ends with the caller's DSID: no DSID_SET
      {11, 2}, {kSet + 0, 0},
      {50, 0},                               // IB4 with DSID 0 on both sides: none
      {12, 0}};
  EXPECT_EQ(got, want);
  EXPECT_TRUE(gpu.errors.empty());
}

// Catches: a zero-size IB that pushes a level (and resets the DSID) or faults on its channel.
TEST_F(CpFw, ZeroSizeIbIsANoOp)
{
  init();
  gpu.ring_write(0, cat({dsid_set(2), ib(0x10000, 0), draw(1)}));
  poll(4);
  ASSERT_EQ(gpu.pipe.size(), 2u); // the DSID_SET and the DRAW: no DSID change for the IB
  EXPECT_EQ(gpu.pipe[0].opcode, TS_OP_DSID_SET);
  EXPECT_EQ(gpu.pipe[1].opcode, TS_OP_DRAW);
  EXPECT_EQ(gpu.pipe[1].dsid, 2u);
}

// Catches: nesting beyond IB2 accepted.
TEST_F(CpFw, IbInsideIb2IsIbOverflow)
{
  init();
  const uint32_t ib1 = 0x10000, ib2 = 0x11000, ib3 = 0x12000;
  gpu.put_mem(ib3, draw(40));
  gpu.put_mem(ib2, cat({draw(30), ib(ib3, 6)}));
  gpu.put_mem(ib1, ib(ib2, 9));
  gpu.ring_write(0, ib(ib1, 3));
  poll(8);
  expect_error(TS_CP_ERROR_IB_OVERFLOW, 0, 2, TS_OP_INDIRECT_BUFFER, ib2 + 4 * 6);
  ASSERT_EQ(gpu.pipe.size(), 1u);
  EXPECT_EQ(gpu.halted_mask, 1u);
  expect_other_queue_runs(0);
}

// Catches: a packet that runs past the end of its IB read from beyond the IB.
TEST_F(CpFw, PacketPastIbEndIsIbOverflow)
{
  init();
  const Dw body = cat({draw(1), draw(2)});
  gpu.put_mem(0x10000, body);
  gpu.ring_write(1, ib(0x10000, 9)); // the second DRAW is cut after 3 dwords
  poll(6);
  expect_error(TS_CP_ERROR_IB_OVERFLOW, 1, 1, TS_OP_DRAW, 0x10000 + 4 * 6);
  EXPECT_EQ(cmds_of(1).size(), 1u);
  expect_other_queue_runs(1);
}

// Catches: misaligned IB addresses or IBs beyond memory being fetched.
TEST_F(CpFw, IbAddressChecks)
{
  gpu.mem_limit = 0x20000;
  init();
  gpu.ring_write(0, ib(0x10002, 4));
  poll(3);
  expect_error(TS_CP_ERROR_BAD_ADDRESS, 0, 0, TS_OP_INDIRECT_BUFFER, 0x1000);
  EXPECT_EQ(gpu.queue[0].rptr, 0u) << "RPTR stays at the offending packet";
  expect_other_queue_runs(0);

  gpu.errors.clear();
  gpu.ring_write(1, ib(0x1fff0, 5)); // 0x1fff0 + 20 > 0x20000
  poll(3);
  ASSERT_EQ(gpu.errors.size(), 1u);
  EXPECT_EQ(gpu.errors[0].code, TS_CP_ERROR_BAD_ADDRESS);
  EXPECT_EQ(gpu.errors[0].queue, 1u);
}

// ==== COND_EXEC ====================================================================================

// Catches: the condition inverted, the mask ignored, or the skip count wrong at ring level.
TEST_F(CpFw, CondExecAtRingLevel)
{
  init();
  const uint32_t patch = 0x5000;
  gpu.set_mem(patch, 0x000000f1);
  const Dw skipped = cat({draw(100), set_regs(0x10, {1})});
  gpu.ring_write(0, cat({cond_exec(patch, 0xf, 1, static_cast<uint32_t>(skipped.size())), skipped,
                         draw(1),
                         cond_exec(patch, 0xf, 2, static_cast<uint32_t>(skipped.size())), skipped,
                         draw(2)}));
  poll(12);
  std::vector<uint32_t> ops;
  for (const PipeCmd &c : gpu.pipe)
    ops.push_back(c.opcode == TS_OP_DRAW ? c.args[1] : 0xfff);
  // First COND_EXEC: (0xf1 & 0xf) == 1 -> executed; second: != 2 -> skipped.
  EXPECT_EQ(ops, (std::vector<uint32_t>{100, 0xfff, 1, 2}));
  EXPECT_EQ(gpu.window_reads, (std::vector<uint32_t>{patch, patch}));
  EXPECT_EQ(gpu.queue[0].rptr, gpu.queue[0].wptr);
}

// Catches: COND_EXEC inside an IB skipping past the IB, or mis-skipping.
TEST_F(CpFw, CondExecInsideIb)
{
  init();
  gpu.set_mem(0x5000, 1);
  // Skips of 6 dwords (read through) and 9 dwords (channel restarted past them).
  const Dw body = cat({cond_exec(0x5000, ~0u, 0, 6), draw(50), cond_exec(0x5000, ~0u, 1, 6),
                       draw(51), cond_exec(0x5000, ~0u, 0, 9), draw(53), set_regs(0x20, {1}),
                       draw(52)});
  gpu.put_mem(0x10000, body);
  gpu.ring_write(0, cat({ib(0x10000, static_cast<uint32_t>(body.size())), draw(1)}));
  poll(10);
  std::vector<uint32_t> counts;
  for (const PipeCmd &c : gpu.pipe)
    counts.push_back(c.args[1]);
  EXPECT_EQ(counts, (std::vector<uint32_t>{51, 52, 1}));
  EXPECT_TRUE(gpu.errors.empty());
}

// Catches: skipping dwords the host has not published yet (reading stale ring contents).
TEST_F(CpFw, CondExecSkipWaitsForPublication)
{
  init();
  gpu.set_mem(0x5000, 0);
  gpu.ring_write(0, cond_exec(0x5000, 1, 1, 12)); // skip 12 dwords
  gpu.ring_write(0, draw(100), false);             // written, not published
  poll(5);
  EXPECT_EQ(gpu.queue[0].rptr, 5u) << "COND_EXEC consumed";
  EXPECT_TRUE(gpu.pipe.empty());
  EXPECT_NE(gpu.queue_state & TS_CPFW_QUEUE_STATE_BUSY_PUT(1), 0u);
  gpu.ring_write(0, cat({draw(101), draw(7)})); // publishes 6 + 6 + 6 dwords
  poll(5);
  ASSERT_EQ(gpu.pipe.size(), 1u);
  EXPECT_EQ(gpu.pipe[0].args[1], 7u);
  EXPECT_EQ(gpu.queue[0].rptr, 5u + 18u);
}

// Catches: a COND_EXEC whose count runs past its buffer being obeyed.
TEST_F(CpFw, CondExecCountBeyondBufferIsIbOverflow)
{
  init();
  const Dw body = cat({cond_exec(0x5000, 0, 0, 7), draw(1)});
  gpu.put_mem(0x10000, body);
  gpu.ring_write(0, ib(0x10000, static_cast<uint32_t>(body.size())));
  poll(4);
  expect_error(TS_CP_ERROR_IB_OVERFLOW, 0, 1, TS_OP_COND_EXEC, 0x10000);
  expect_other_queue_runs(0);
}

// Catches: COND_EXEC at ring level asking to skip more than the ring can ever publish.
TEST_F(CpFw, CondExecCountBeyondRingIsIbOverflow)
{
  gpu.queue[0].log2 = 4;
  init();
  gpu.ring_write(0, cond_exec(0x5000, 0, 1, 16));
  poll(3);
  expect_error(TS_CP_ERROR_IB_OVERFLOW, 0, 0, TS_OP_COND_EXEC, 0x1000);
}

// Catches: a misaligned or out-of-memory COND_EXEC address read through the window.
TEST_F(CpFw, CondExecBadAddress)
{
  gpu.mem_limit = 0x40000;
  init();
  gpu.ring_write(0, cond_exec(0x40000, 1, 1, 0));
  gpu.ring_write(1, cond_exec(0x5002, 1, 1, 0));
  poll(3);
  ASSERT_EQ(gpu.errors.size(), 2u);
  EXPECT_EQ(gpu.errors[0].code, TS_CP_ERROR_BAD_ADDRESS);
  EXPECT_EQ(gpu.errors[1].code, TS_CP_ERROR_BAD_ADDRESS);
  EXPECT_TRUE(gpu.window_reads.empty());
}

// ==== FENCE ========================================================================================

// Catches: a fence written before the queue's earlier pipeline work completed.
TEST_F(CpFw, FenceWaitsForEarlierWork)
{
  gpu.auto_done = false;
  init();
  gpu.ring_write(0, cat({draw(1), draw(2), fence(0x6000, 0xf00d)}));
  poll(10);
  EXPECT_EQ(gpu.pipe.size(), 2u);
  EXPECT_FALSE(fence_written(0x6000, 0xf00d));
  EXPECT_EQ(gpu.queue_state & TS_CPFW_QUEUE_STATE_WAITING_MASK, TS_CPFW_QUEUE_STATE_WAITING_PUT(1));
  EXPECT_EQ(gpu.queue[0].rptr, 15u) << "the FENCE packet itself is consumed";
  gpu.complete_pipe(1);
  poll(5);
  EXPECT_FALSE(fence_written(0x6000, 0xf00d)) << "one command still outstanding";
  gpu.complete_pipe();
  poll(2);
  EXPECT_TRUE(fence_written(0x6000, 0xf00d));
  EXPECT_GE(write_time(0x6000), gpu.pipe_done_time);
  EXPECT_EQ(gpu.int_raise_writes, 0u);
  EXPECT_TRUE(gpu.cache_ops.empty());
  EXPECT_TRUE(gpu.slc_cmds.empty());
  poll(2);
  EXPECT_EQ(gpu.queue_state, 0u);
  EXPECT_GT(cp_fw_stats.op[cp_fw_op_index(TS_OP_FENCE)].wait_checks, 5u);
}

// Catches: a FENCE (or BARRIER_UPDATE / DSID_DELETE) that waits for the other queue's
// commands: it waits until PIPE_DONE reaches the PIPE_ISSUED value right after this queue's
// own last push (commands complete in push order), not the global PIPE_ISSUED at the packet.
TEST_F(CpFw, FenceDoesNotWaitForTheOtherQueuesLaterCommands)
{
  gpu.auto_done = false;
  init();
  gpu.ring_write(0, draw(1));
  poll(1); // queue 0's draw is command 1
  gpu.ring_write(1, cat({draw(11), draw(12), draw(13)}));
  poll(1); // queue 1's draws are commands 2..4
  ASSERT_EQ(gpu.pipe.size(), 4u);
  gpu.ring_write(0, cat({fence(0x6000, 0xf0), barrier_update(3, 7),
                         dsid_delete(0, 0x6008, 0xd0)}));
  gpu.ring_write(1, fence(0x6004, 0xf1));
  poll(3);
  EXPECT_FALSE(fence_written(0x6000, 0xf0)) << "queue 0's draw is not complete";
  EXPECT_FALSE(fence_written(0x6004, 0xf1));
  gpu.complete_pipe(1); // only queue 0's draw
  poll(3);
  EXPECT_TRUE(fence_written(0x6000, 0xf0)) << "waited for queue 1's later commands";
  EXPECT_EQ(cp_fw_barrier(3), 7u);
  EXPECT_TRUE(fence_written(0x6008, 0xd0));
  EXPECT_FALSE(fence_written(0x6004, 0xf1)) << "queue 1's fence is still behind its draws";
  EXPECT_EQ(gpu.pipe_done, 1u);
  gpu.complete_pipe(2);
  poll(3);
  EXPECT_FALSE(fence_written(0x6004, 0xf1)) << "one command of queue 1 still outstanding";
  gpu.complete_pipe();
  poll(3);
  EXPECT_TRUE(fence_written(0x6004, 0xf1));
}

// Catches: a FENCE of a queue that has no work in flight waiting at all.
TEST_F(CpFw, FenceWithoutOwnWorkInFlightDoesNotWait)
{
  gpu.auto_done = false;
  init();
  gpu.ring_write(1, draw(11));
  poll(1);
  gpu.ring_write(0, fence(0x6000, 5));
  poll(1);
  EXPECT_TRUE(fence_written(0x6000, 5)) << "queue 0 pushed nothing";
  EXPECT_FALSE(gpu.pipe_done == gpu.pipe_issued);
}

// Catches: interrupt raised for the wrong queue or before the write.
TEST_F(CpFw, FenceInterruptRaisesTheQueueBit)
{
  init();
  gpu.ring_write(1, fence(0x6004, 7, kFenceIrq));
  poll(4);
  EXPECT_TRUE(fence_written(0x6004, 7));
  EXPECT_EQ(gpu.int_raise, 2u);
  EXPECT_EQ(gpu.int_raise_writes, 1u);
}

// Catches: flush steps out of order (slice caches, then SLC, then the value).
TEST_F(CpFw, FenceFlushWritesBackSliceCachesThenSlcThenWrites)
{
  gpu.cache_delay = 5;
  gpu.slc_delay = 6;
  init();
  gpu.ring_write(0, cat({draw(1), fence(0x6000, 1, kFenceFlush)}));
  ASSERT_TRUE(poll_until([&] { return fence_written(0x6000, 1); }));
  ASSERT_EQ(gpu.cache_ops, (Dw{TS_CPFW_CACHE_CTRL_FLUSH_MASK}));
  ASSERT_EQ(gpu.slc_cmds.size(), 1u);
  EXPECT_EQ(gpu.slc_cmds[0].op, TS_SLC_CMD_FLUSH);
  EXPECT_GE(gpu.cache_op_time[0], gpu.pipe[0].time);
  EXPECT_GE(gpu.slc_cmds[0].issued_at, gpu.cache_done_time) << "SLC flushed before the CCHE";
  EXPECT_GE(write_time(0x6000), gpu.slc_cmds[0].done_at) << "fence before the SLC flush ended";
  EXPECT_EQ(gpu.int_raise_writes, 0u);
}

// Catches: invalidate without write-back, or the fence before the invalidate completed.
TEST_F(CpFw, FenceInvalidateFlushesThenInvalidates)
{
  init();
  gpu.ring_write(0, fence(0x6000, 2, kFenceInvalidate | kFenceIrq));
  ASSERT_TRUE(poll_until([&] { return fence_written(0x6000, 2); }));
  ASSERT_EQ(gpu.cache_ops,
            (Dw{TS_CPFW_CACHE_CTRL_FLUSH_MASK | TS_CPFW_CACHE_CTRL_INVALIDATE_MASK}));
  ASSERT_EQ(gpu.slc_cmds.size(), 2u);
  EXPECT_EQ(gpu.slc_cmds[0].op, TS_SLC_CMD_FLUSH);
  EXPECT_EQ(gpu.slc_cmds[1].op, TS_SLC_CMD_INVALIDATE);
  EXPECT_LT(gpu.slc_cmds[1].issued_at - gpu.slc_cmds[0].issued_at, 50u)
      << "FLUSH and INVALIDATE queued back to back, in one step";
  EXPECT_GE(write_time(0x6000), gpu.slc_cmds[1].done_at);
  EXPECT_EQ(gpu.int_raise, 1u);
}

// Catches: a full SLC command queue blocking the CP (or killing it), for both ways the
// hardware may answer: an error response (store fault) or a silent drop.
TEST_F(CpFw, FenceFlushRetriesWhileSlcQueueIsFullOtherQueueRuns)
{
  for (bool fault : {true, false}) {
    SCOPED_TRACE(fault ? "error response" : "silent drop");
    FakeGpu fresh;
    gpu = fresh;
    cpfw_test::g_fake = &gpu;
    gpu.enable_mask = 3;
    gpu.slc_capacity = 0;
    gpu.slc_fault_on_full = fault;
    init();
    gpu.ring_write(0, fence(0x6000, 3, kFenceFlush));
    poll(10);
    EXPECT_GT(gpu.slc_drops, 2u);
    EXPECT_GT(cp_fw_stats.slc_retries, 2u);
    EXPECT_FALSE(fence_written(0x6000, 3));
    EXPECT_EQ(gpu.queue_state & TS_CPFW_QUEUE_STATE_WAITING_MASK,
              TS_CPFW_QUEUE_STATE_WAITING_PUT(1));
    gpu.ring_write(1, cat({draw(1), draw(2), draw(3)}));
    poll(4);
    EXPECT_EQ(cmds_of(1).size(), 3u) << "queue 1 blocked by queue 0's retries";
    gpu.slc_capacity = 4;
    ASSERT_TRUE(poll_until([&] { return fence_written(0x6000, 3); }));
    EXPECT_EQ(gpu.slc_cmds.size(), 1u);
    EXPECT_TRUE(gpu.errors.empty());
  }
}

// Catches: two fences racing for the slice-cache maintenance (CACHE_CTRL while busy).
TEST_F(CpFw, TwoQueuesFlushOneCacheOperationAtATime)
{
  gpu.cache_delay = 6;
  init();
  gpu.ring_write(0, fence(0x6000, 1, kFenceFlush));
  gpu.ring_write(1, fence(0x6004, 2, kFenceFlush));
  ASSERT_TRUE(poll_until([&] { return fence_written(0x6000, 1) && fence_written(0x6004, 2); }));
  EXPECT_EQ(gpu.cache_ops.size(), 2u); // the fake fails the test on CACHE_CTRL while busy
  EXPECT_EQ(gpu.slc_cmds.size(), 2u);
}

// Catches: fence addresses outside the window or misaligned written anyway.
TEST_F(CpFw, FenceBadAddress)
{
  gpu.mem_limit = 0x40000;
  init();
  gpu.ring_write(0, fence(0x6001, 1));
  poll(3);
  expect_error(TS_CP_ERROR_BAD_ADDRESS, 0, 0, TS_OP_FENCE, 0x1000);
  EXPECT_TRUE(gpu.mem_writes.empty());
  expect_other_queue_runs(0);
  gpu.errors.clear();
  gpu.ring_write(1, fence(0x40000, 1));
  poll(3);
  ASSERT_EQ(gpu.errors.size(), 1u);
  EXPECT_EQ(gpu.errors[0].code, TS_CP_ERROR_BAD_ADDRESS);
}

// ==== barriers ======================================================================================

// Catches: a waiting queue that blocks the other, or a barrier released before the updating
// queue's earlier work completed. Queue 1 waits for queue 0.
TEST_F(CpFw, BarrierQueue1WaitsForQueue0)
{
  gpu.auto_done = false;
  init();
  gpu.ring_write(1, cat({barrier_wait(2, 1), draw(100)}));
  gpu.ring_write(0, cat({draw(1), draw(2), draw(3), barrier_update(2, 1), draw(4)}));
  poll(8);
  // Queue 0 ran its draws while queue 1 waited; its BARRIER_UPDATE now waits for them.
  EXPECT_EQ(cmds_of(0).size(), 3u);
  EXPECT_TRUE(cmds_of(1).empty());
  EXPECT_EQ(gpu.queue_state & TS_CPFW_QUEUE_STATE_WAITING_MASK,
            TS_CPFW_QUEUE_STATE_WAITING_PUT(3)) << "1 in BARRIER_WAIT, 0 in BARRIER_UPDATE";
  EXPECT_EQ(cp_fw_barrier(2), 0u) << "updated before queue 0's draws completed";
  gpu.complete_pipe(3); // the draws before the update
  poll(3);
  EXPECT_EQ(cp_fw_barrier(2), 1u);
  EXPECT_EQ(cmds_of(0).size(), 4u);
  ASSERT_EQ(cmds_of(1).size(), 1u);
  EXPECT_EQ(cmds_of(1)[0].args[1], 100u);
}

// Catches: the same in the other direction: queue 0 waits for queue 1.
TEST_F(CpFw, BarrierQueue0WaitsForQueue1)
{
  init();
  gpu.ring_write(0, cat({barrier_wait(15, 3), draw(200)}));
  gpu.ring_write(1, cat({draw(1), barrier_update(15, 2), draw(2)}));
  poll(8);
  EXPECT_TRUE(cmds_of(0).empty()) << "2 < 3: must keep waiting";
  EXPECT_EQ(cmds_of(1).size(), 2u);
  gpu.ring_write(1, barrier_update(15, 3));
  poll(4);
  ASSERT_EQ(cmds_of(0).size(), 1u);
  EXPECT_EQ(cmds_of(0)[0].args[1], 200u);
}

// Catches: a signed comparison, or waiting on an already satisfied barrier.
TEST_F(CpFw, BarrierWaitIsUnsignedAtLeast)
{
  init();
  gpu.ring_write(0, cat({barrier_update(4, 0x80000000u), barrier_wait(4, 0x7fffffffu), draw(1),
                         barrier_wait(4, 0x80000000u), draw(2), barrier_wait(4, 0x80000001u),
                         draw(3)}));
  poll(12);
  EXPECT_EQ(cmds_of(0).size(), 2u);
  EXPECT_EQ(gpu.queue_state & TS_CPFW_QUEUE_STATE_WAITING_MASK,
            TS_CPFW_QUEUE_STATE_WAITING_PUT(1));
}

// ==== DSID_DELETE ===================================================================================

// Catches: the delete hint sent before the work that uses the DSID completed (Apple source:
// deletes are scheduled after the work), or the fence written before the SLC finished.
TEST_F(CpFw, DsidDeleteAfterEarlierWorkFenceAfterSlcCompletion)
{
  gpu.auto_done = false;
  gpu.slc_delay = 5;
  init();
  gpu.ring_write(0, cat({dsid_set(4), draw(1), draw(2), dsid_delete(4, 0x7000, 0xd1)}));
  poll(10);
  EXPECT_TRUE(gpu.slc_cmds.empty()) << "delete before PIPE_DONE reached the issued count";
  ASSERT_EQ(gpu.pipe.size(), 3u); // DSID_SET, DRAW, DRAW
  gpu.complete_pipe(2);
  poll(5);
  EXPECT_TRUE(gpu.slc_cmds.empty());
  gpu.complete_pipe();
  poll(1);
  ASSERT_EQ(gpu.slc_cmds.size(), 1u);
  EXPECT_EQ(gpu.slc_cmds[0].op, TS_SLC_CMD_DELETE);
  EXPECT_EQ(gpu.slc_cmds[0].dsid, 4u);
  EXPECT_EQ(gpu.slc_cmds[0].pipe_done_at_issue, 3u);
  EXPECT_FALSE(fence_written(0x7000, 0xd1));
  ASSERT_TRUE(poll_until([&] { return fence_written(0x7000, 0xd1); }));
  EXPECT_NE(gpu.slc_cmds[0].done_at, 0u);
  EXPECT_GE(write_time(0x7000), gpu.slc_cmds[0].done_at);
  EXPECT_EQ(gpu.int_raise_writes, 0u);
}

// Catches: DSID 0 (never deleted) sent to the SLC, or its fence never written.
TEST_F(CpFw, DsidDeleteOfDsidZeroOnlyWritesTheFence)
{
  init();
  gpu.ring_write(0, cat({draw(1), dsid_delete(0, 0x7000, 5)}));
  ASSERT_TRUE(poll_until([&] { return fence_written(0x7000, 5); }));
  EXPECT_TRUE(gpu.slc_cmds.empty());
}

// Catches: a queue waiting for its delete that stalls the other queue.
TEST_F(CpFw, DsidDeleteWaitDoesNotBlockOtherQueue)
{
  gpu.slc_delay = 40;
  init();
  gpu.ring_write(1, dsid_delete(9, 0x7000, 1));
  poll(3);
  ASSERT_EQ(gpu.slc_cmds.size(), 1u);
  gpu.ring_write(0, cat({draw(1), draw(2), draw(3), draw(4)}));
  poll(6);
  EXPECT_EQ(cmds_of(0).size(), 4u);
  EXPECT_FALSE(fence_written(0x7000, 1));
  ASSERT_TRUE(poll_until([&] { return fence_written(0x7000, 1); }));
}

// Catches: a DSID_DELETE fence address outside memory.
TEST_F(CpFw, DsidDeleteBadAddress)
{
  init();
  gpu.ring_write(0, dsid_delete(3, 0x100002, 1));
  poll(2);
  expect_error(TS_CP_ERROR_BAD_ADDRESS, 0, 0, TS_OP_DSID_DELETE, 0x1000);
  EXPECT_TRUE(gpu.slc_cmds.empty());
}

// ==== PERF_SAMPLE ===================================================================================

// Catches: a counter block with a wrong layout (benches and the driver decode it by index).
TEST_F(CpFw, PerfSampleLayout)
{
  gpu.slc_counters[TS_SLC_CNT_HITS_OFFSET] = 1111;
  gpu.slc_counters[TS_SLC_CNT_MISSES_OFFSET] = 222;
  gpu.slc_counters[TS_SLC_CNT_WRITEBACKS_OFFSET] = 33;
  gpu.slc_counters[TS_SLC_CNT_FILLS_OFFSET] = 44;
  gpu.slc_counters[TS_SLC_CNT_DELETED_DIRTY_OFFSET] = 5;
  init();
  gpu.ring_write(1, cat({draw(1), draw(2)}));
  gpu.ring_write(0, cat({draw(3), frame_end(77), nop(1)}));
  poll(4);
  const uint32_t addr = 0x8040;
  const Dw body = perf_sample(addr);
  gpu.put_mem(0x10000, body);
  gpu.ring_write(1, ib(0x10000, 2));
  poll(3);
  ASSERT_TRUE(gpu.errors.empty());
  Dw blk;
  for (uint32_t i = 0; i < CP_PERF_DWORDS; i++)
    blk.push_back(gpu.mem(addr + 4 * i));
  EXPECT_EQ(blk[CP_PERF_MAGIC_DW], CP_PERF_MAGIC);
  EXPECT_EQ(blk[CP_PERF_VERSION_DW], CP_PERF_LAYOUT_VERSION | (1u << 8) | (1u << 16));
  EXPECT_EQ(blk[CP_PERF_MCYCLE_HI_DW], 1u);
  EXPECT_GT(blk[CP_PERF_MCYCLE_LO_DW], 0u);
  EXPECT_GT(blk[CP_PERF_MINSTRET_LO_DW], 0u);
  EXPECT_EQ(blk[CP_PERF_PACKETS_Q0_DW], 3u);
  EXPECT_EQ(blk[CP_PERF_PACKETS_Q1_DW], 4u) << "2 draws, the IB and the PERF_SAMPLE";
  EXPECT_EQ(blk[CP_PERF_PIPE_ISSUED_DW], 4u);
  EXPECT_EQ(blk[CP_PERF_PIPE_DONE_DW], 4u);
  EXPECT_EQ(blk[CP_PERF_SLC_HITS_DW], 1111u);
  EXPECT_EQ(blk[CP_PERF_SLC_MISSES_DW], 222u);
  EXPECT_EQ(blk[CP_PERF_SLC_WRITEBACKS_DW], 33u);
  EXPECT_EQ(blk[CP_PERF_SLC_FILLS_DW], 44u);
  EXPECT_EQ(blk[CP_PERF_SLC_DELETED_DIRTY_DW], 5u);
  EXPECT_EQ(blk[CP_PERF_FRAME_DW], 77u);
  EXPECT_EQ(gpu.mem_writes.size(), CP_PERF_DWORDS);
}

// Catches: a counter dump to a non-line-aligned address.
TEST_F(CpFw, PerfSampleMisalignedIsBadAddress)
{
  init();
  gpu.ring_write(0, perf_sample(0x8020));
  poll(2);
  expect_error(TS_CP_ERROR_BAD_ADDRESS, 0, 0, TS_OP_PERF_SAMPLE, 0x1000);
  EXPECT_TRUE(gpu.mem_writes.empty());
}

// ==== ring handling =================================================================================

// Catches: a packet straddling the ring's end read wrongly, or the channel not restarted at
// RING_BASE.
TEST_F(CpFw, RingWrapWithPacketStraddlingTheEnd)
{
  gpu.queue[0].log2 = 4; // 16 dwords
  init();
  gpu.ring_write(0, nop(12)); // dwords 0..12
  poll(2);
  ASSERT_EQ(gpu.queue[0].rptr, 13u);
  gpu.ring_write(0, draw(55, 0x8000)); // dwords 13..15, 0..2
  poll(3);
  ASSERT_EQ(gpu.pipe.size(), 1u);
  EXPECT_EQ(gpu.pipe[0].args, payload(draw(55, 0x8000)));
  EXPECT_EQ(gpu.queue[0].rptr, 3u);
  ASSERT_GE(gpu.fetch_ops.size(), 2u);
  const auto &last = gpu.fetch_ops.back();
  EXPECT_FALSE(last.extend);
  EXPECT_EQ(last.addr, 0x1000u) << "restart at RING_BASE";
  EXPECT_EQ(last.count, 3u);
  // And on around again.
  gpu.ring_write(0, cat({draw(56), draw(57)}));
  poll(4);
  EXPECT_EQ(gpu.pipe.size(), 3u);
  EXPECT_EQ(gpu.queue[0].rptr, 15u);
}

// Catches: restarting the channel (and losing its read-ahead) when WPTR grows contiguously.
TEST_F(CpFw, RingGrowthUsesFetchExtend)
{
  init();
  gpu.ring_write(0, draw(1));
  poll(2);
  gpu.ring_write(0, draw(2));
  poll(2);
  gpu.ring_write(0, draw(3));
  poll(2);
  ASSERT_EQ(gpu.pipe.size(), 3u);
  size_t starts = 0, extends = 0;
  for (const auto &op : gpu.fetch_ops) {
    if (op.channel != 0)
      continue;
    (op.extend ? extends : starts)++;
  }
  EXPECT_EQ(starts, 1u);
  EXPECT_EQ(extends, 2u);
}

// Catches: executing a packet whose tail the host has not published (WPTR inside it).
TEST_F(CpFw, PartlyPublishedPacketWaits)
{
  init();
  const Dw d = draw(9);
  gpu.ring_write(0, Dw(d.begin(), d.begin() + 3));
  poll(6);
  EXPECT_TRUE(gpu.pipe.empty());
  EXPECT_EQ(gpu.queue[0].rptr, 0u);
  EXPECT_EQ(gpu.queue_state, TS_CPFW_QUEUE_STATE_BUSY_PUT(1));
  gpu.ring_write(0, Dw(d.begin() + 3, d.end()));
  poll(2);
  ASSERT_EQ(gpu.pipe.size(), 1u);
  EXPECT_EQ(gpu.pipe[0].args, payload(d));
  EXPECT_EQ(gpu.queue[0].rptr, 6u);
}

// Catches: a packet that can never be published completely (longer than the ring) hanging the
// queue silently.
TEST_F(CpFw, PacketLongerThanTheRingIsIbOverflow)
{
  gpu.queue[0].log2 = 4;
  init();
  gpu.ring_write(0, {TS_PKT_NOP_HEADER(15)});
  poll(2);
  expect_error(TS_CP_ERROR_IB_OVERFLOW, 0, 0, TS_OP_NOP, 0x1000);
}

// ==== errors =======================================================================================

// Catches: an unknown opcode executed or skipped instead of reported; the other queue stalled.
TEST_F(CpFw, UnknownOpcodeIsBadOpcodeAndHaltsOnlyThatQueue)
{
  init();
  gpu.ring_write(1, cat({draw(1), Dw{TS_PKT_HEADER(0x7f, 1), 0}, draw(2)}));
  poll(5);
  expect_error(TS_CP_ERROR_BAD_OPCODE, 1, 0, 0x7f, 0x2000 + 4 * 6);
  EXPECT_EQ(cmds_of(1).size(), 1u);
  EXPECT_EQ(gpu.queue[1].rptr, 6u) << "RPTR at the bad packet";
  EXPECT_NE(gpu.console.find("error"), std::string::npos);
  EXPECT_EQ(cp_fw_stats.errors, 1u);
  expect_other_queue_runs(1);
  // A halted queue is not served any more.
  gpu.ring_write(1, draw(3));
  poll(4);
  EXPECT_EQ(cmds_of(1).size(), 1u);
}

// Catches: header flags that this firmware does not know being ignored.
TEST_F(CpFw, ReservedHeaderFlagsAreBadOpcode)
{
  init();
  Dw d = draw(1);
  d[0] |= TS_PKT_HDR_FLAGS_PUT(1);
  gpu.ring_write(0, d);
  Dw f = fence(0x6000, 1);
  f[0] |= TS_PKT_HDR_FLAGS_PUT(0x80);
  gpu.ring_write(1, f);
  poll(3);
  ASSERT_EQ(gpu.errors.size(), 2u);
  EXPECT_EQ(gpu.errors[0].code, TS_CP_ERROR_BAD_OPCODE);
  EXPECT_EQ(gpu.errors[1].code, TS_CP_ERROR_BAD_OPCODE);
  EXPECT_TRUE(gpu.pipe.empty());
}

// Catches: wrong lengths accepted, for fixed and variable packets.
TEST_F(CpFw, LengthOutsideTheOpcodeLimitsIsBadLength)
{
  init();
  gpu.ring_write(0, {TS_PKT_HEADER(TS_OP_DRAW, 4), 0, 0, 0, 0});
  gpu.ring_write(1, {TS_PKT_SET_REGS_HEADER(1), 0x100});
  poll(3);
  ASSERT_EQ(gpu.errors.size(), 2u);
  EXPECT_EQ(gpu.errors[0].code, TS_CP_ERROR_BAD_LENGTH);
  EXPECT_EQ(gpu.errors[0].opcode, TS_OP_DRAW);
  EXPECT_EQ(gpu.errors[1].code, TS_CP_ERROR_BAD_LENGTH);
  EXPECT_EQ(gpu.errors[1].opcode, TS_OP_SET_REGS);
  EXPECT_TRUE(gpu.pipe.empty());
}

// Catches: pipeline packets with bad addresses forwarded to the pipeline.
TEST_F(CpFw, PipelinePacketAddressChecks)
{
  gpu.mem_limit = 0x100000;
  struct Case {
    const char *what;
    Dw pkt;
  };
  const std::vector<Case> cases = {
      {"DRAW vertex misaligned", draw(3, 0x8004)},
      {"DRAW vertices beyond memory", draw(0x1000, 0xff000)},
      {"DRAW index misaligned", draw(3, 0x8000, TS_TOPOLOGY_TRI_LIST, TS_INDEX_TYPE_U32, 0x9002)},
      {"DRAW tf beyond memory", draw(3, 0x8000, TS_TOPOLOGY_PATCH_TRI, TS_INDEX_TYPE_NONE, 0,
                                     0x100000)},
      {"RENDERPASS color misaligned", rp_begin(0x20020, 0x30000)},
      {"RENDERPASS depth beyond memory", rp_begin(0x20000, 0xfff00)},
      {"BIND_VIS_BUFFER beyond memory", vis_buffer(0xff000, 0x2000)},
      // the tile prefetcher's history: unset, beyond memory, misaligned, or less than a line
      {"SET_PREFETCH unset history", set_prefetch(TS_PF_MODE_ON, 0, 0x1000)},
      {"SET_PREFETCH history beyond memory", set_prefetch(TS_PF_MODE_ADAPTIVE, 0xff000, 0x2000)},
      {"SET_PREFETCH history misaligned", set_prefetch(TS_PF_MODE_ON, 0x8020, 0x1000)},
      {"SET_PREFETCH history under a line", set_prefetch(TS_PF_MODE_ON, 0x8000, 32)},
      {"SET_REGS misaligned", set_regs(0x102, {1})},
      {"SET_REGS past the register map", set_regs(0xffffc, {1, 2})},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.what);
    FakeGpu fresh;
    fresh.mem_limit = 0x100000;
    gpu = fresh;
    cpfw_test::g_fake = &gpu;
    gpu.enable_mask = 3;
    init();
    gpu.ring_write(0, c.pkt);
    poll(2);
    expect_error(TS_CP_ERROR_BAD_ADDRESS, 0, 0, TS_PKT_HDR_OPCODE_GET(c.pkt[0]), 0x1000);
    EXPECT_TRUE(gpu.pipe.empty());
  }
}

// Catches: SET_PREFETCH not reaching the pipeline whole, or OFF refused for its (unused) buffer.
TEST_F(CpFw, SetPrefetchGoesToThePipeline)
{
  gpu.mem_limit = 0x100000;
  init();
  gpu.ring_write(0, cat({set_prefetch(TS_PF_MODE_ADAPTIVE, 0x8000, 0x4000), set_prefetch(TS_PF_MODE_OFF, 0, 0)}));
  poll(4);
  EXPECT_TRUE(gpu.errors.empty());
  ASSERT_EQ(gpu.pipe.size(), 2u);
  EXPECT_EQ(gpu.pipe[0].opcode, TS_OP_SET_PREFETCH);
  EXPECT_EQ(gpu.pipe[0].args, payload(set_prefetch(TS_PF_MODE_ADAPTIVE, 0x8000, 0x4000)));
  EXPECT_EQ(gpu.pipe[1].args, payload(set_prefetch(TS_PF_MODE_OFF, 0, 0)));
}

// Catches: SET_PREFETCH with an unknown mode, or inside a render pass (whose body replays per
// coarse bin), forwarded instead of refused with BAD_STATE.
TEST_F(CpFw, SetPrefetchBadState)
{
  init();
  gpu.ring_write(0, set_prefetch(3, 0x8000, 0x4000));
  poll(2);
  expect_error(TS_CP_ERROR_BAD_STATE, 0, 0, TS_OP_SET_PREFETCH, 0x1000);
  EXPECT_TRUE(gpu.pipe.empty());
}

// Catches: packet dwords from a line the memory answered with an error executed as zeros.
TEST_F(CpFw, FetchErrorIsBadAddress)
{
  init();
  const Dw body = cat({draw(1), draw(2)});
  gpu.put_mem(0x10000, body);
  gpu.error_words.insert(0x10000 + 4 * 7);
  gpu.ring_write(0, ib(0x10000, static_cast<uint32_t>(body.size())));
  poll(5);
  // The whole line reads as zeros: the first "packet" is a NOP header.
  expect_error(TS_CP_ERROR_BAD_ADDRESS, 0, 1, TS_OP_NOP, 0x10000);
  EXPECT_TRUE(gpu.pipe.empty());
  EXPECT_EQ(gpu.fetch_err, 0u) << "FETCH_ERR bit cleared";
  expect_other_queue_runs(0);
}

// Catches: a halted queue that never comes back after the host cleared the halt.
TEST_F(CpFw, QueueRestartsFromRptrWhenTheHostClearsTheHalt)
{
  init();
  gpu.ring_write(0, {TS_PKT_HEADER(0x66, 0)});
  poll(3);
  ASSERT_EQ(gpu.errors.size(), 1u);
  // Host: soft reset of the queue -- pointers cleared, halt cleared, new packets.
  gpu.queue[0].rptr = gpu.queue[0].wptr = gpu.queue[0].wpos = 0;
  gpu.halted_mask = 0;
  gpu.ring_write(0, draw(8));
  poll(3);
  ASSERT_EQ(gpu.pipe.size(), 1u);
  EXPECT_EQ(gpu.pipe[0].args[1], 8u);
}

// ==== scheduling ====================================================================================

// Catches: a scheduler that drains one queue before serving the other, or one that gives up
// its turn after every packet. Fairness bound (docs/firmware.md): a turn runs at most 16 steps
// of one queue, then the other queue gets its turn.
TEST_F(CpFw, QueuesAreServedRoundRobinAtMost16PacketsPerTurn)
{
  gpu.queue[0].log2 = gpu.queue[1].log2 = 8; // 20 DRAWs: 120 dwords
  init();
  Dw q0, q1;
  for (uint32_t i = 0; i < 20; i++) {
    q0 = cat({q0, draw(100 + i)});
    q1 = cat({q1, draw(200 + i)});
  }
  gpu.ring_write(0, q0);
  gpu.ring_write(1, q1);
  poll(1);
  std::vector<uint32_t> order;
  for (const PipeCmd &c : gpu.pipe)
    order.push_back(c.args[1]);
  std::vector<uint32_t> expect;
  for (uint32_t i = 0; i < 16; i++)
    expect.push_back(100 + i);
  for (uint32_t i = 0; i < 16; i++)
    expect.push_back(200 + i);
  EXPECT_EQ(order, expect) << "one round: 16 packets of queue 0, then 16 of queue 1";
  poll(1);
  order.clear();
  for (const PipeCmd &c : gpu.pipe)
    order.push_back(c.args[1]);
  for (uint32_t i = 16; i < 20; i++)
    expect.push_back(100 + i);
  for (uint32_t i = 16; i < 20; i++)
    expect.push_back(200 + i);
  EXPECT_EQ(order, expect);
  EXPECT_EQ(gpu.queue[0].rptr, gpu.queue[0].wptr);
  EXPECT_EQ(gpu.queue[1].rptr, gpu.queue[1].wptr);
}

// Catches: a turn that runs on past a packet that has to wait: the other queue must get its
// turn while a FENCE waits, and the waiting queue's later packets must not run.
TEST_F(CpFw, TurnEndsAtAWaitingPacket)
{
  gpu.auto_done = false;
  init();
  gpu.ring_write(0, cat({draw(1), fence(0x6000, 1), draw(2)}));
  gpu.ring_write(1, cat({draw(11), draw(12)}));
  poll(1);
  std::vector<uint32_t> order;
  for (const PipeCmd &c : gpu.pipe)
    order.push_back(c.args[1]);
  EXPECT_EQ(order, (std::vector<uint32_t>{1, 11, 12}));
  gpu.complete_pipe();
  poll(2);
  EXPECT_TRUE(fence_written(0x6000, 1));
  ASSERT_EQ(cmds_of(0).size(), 2u);
  EXPECT_EQ(cmds_of(0)[1].args[1], 2u);
}

// Catches: QUEUE_STATE.busy not covering pipeline work in flight.
TEST_F(CpFw, QueueStateBusyWhileWorkIsInFlight)
{
  gpu.auto_done = false;
  init();
  gpu.ring_write(1, draw(1));
  poll(2);
  EXPECT_EQ(gpu.queue_state, TS_CPFW_QUEUE_STATE_BUSY_PUT(2));
  gpu.complete_pipe();
  poll(1);
  EXPECT_EQ(gpu.queue_state, 0u);
}

// Catches: per-packet statistics that bench scripts read from the ELF symbol being wrong.
TEST_F(CpFw, StatisticsCountPacketsAndCycles)
{
  init();
  gpu.ring_write(0, cat({draw(1), draw(2), set_regs(0x10, {1, 2}), nop(2)}));
  poll(6);
  const auto &d = cp_fw_stats.op[cp_fw_op_index(TS_OP_DRAW)];
  EXPECT_EQ(d.opcode, TS_OP_DRAW);
  EXPECT_EQ(d.count, 2u);
  EXPECT_GT(d.cycles, 0u);
  EXPECT_EQ(cp_fw_stats.op[cp_fw_op_index(TS_OP_SET_REGS)].count, 1u);
  EXPECT_EQ(cp_fw_stats.packets[0], 4u);
  EXPECT_EQ(cp_fw_stats.op[CP_STATS_OTHER].cycles, 0u) << "empty-ring checks are not counted";
  gpu.ring_write(1, {TS_PKT_DRAW_HEADER}); // partly published: steps that execute nothing
  poll(2);
  EXPECT_GT(cp_fw_stats.op[CP_STATS_OTHER].cycles, 0u);
  EXPECT_EQ(cp_fw_stats.packets[1], 0u);
}

}  // namespace
