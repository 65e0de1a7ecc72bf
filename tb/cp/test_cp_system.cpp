// CP system tests: the RTL command processor (rtl/cp) running the real firmware (firmware/)
// inside gpu_cp (CP + memory system + DRAM model), fed through the host register port and
// GPU memory like the driver does. What each test would catch is said above it.
//
// Reproduce: RANDOM_SEED=<seed> ./test_cp_system --gtest_filter=<test>; WAVES=1 writes
// <test>.fst (whole run) in the working directory.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "cp_host.hpp"

using namespace cptest;
using tessera::sim::GpuSim;
using tessera::sim::GpuSimConfig;
using tessera::driver::format_pipe_command;
using tessera::sim::PipeCommand;

namespace {

constexpr std::uint32_t kFenceArea = 0x0008'0000;
constexpr std::uint32_t kIbArea = 0x0004'0000;
constexpr std::uint32_t kSlc = TS_SLC_BASE_ADDR;

GpuSimConfig config(double ready = 0.7) {
  GpuSimConfig c;
  c.seed = seed_from_env();
  c.pipe_ready_prob = ready;
  if (waves_from_env()) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    c.wave_file = fmt::format("{}.{}.fst", info->test_suite_name(), info->name());
  }
  return c;
}

struct Env {
  GpuSim g;
  Host host;
  explicit Env(GpuSimConfig c = config()) : g(std::move(c)), host(g) {
    fmt::print("seed {}\n", g.config().seed);
    g.reset();
    host.start();
  }
};

PipeCommand cmd(std::uint8_t op, std::uint8_t q, std::uint8_t dsid, std::vector<std::uint32_t> args) {
  PipeCommand c;
  c.opcode = op;
  c.queue = q;
  c.dsid = dsid;
  c.args = std::move(args);
  return c;
}

std::vector<PipeCommand> of_queue(const std::vector<PipeCommand>& log, unsigned q) {
  std::vector<PipeCommand> out;
  for (const auto& c : log)
    if (c.queue == q) out.push_back(c);
  return out;
}

void expect_log(const std::vector<PipeCommand>& got, const std::vector<PipeCommand>& want) {
  ASSERT_EQ(got.size(), want.size()) << "pipeline command count";
  for (std::size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(got[i], want[i]) << "command " << i << ": got " << format_pipe_command(got[i]) << ", want "
                               << format_pipe_command(want[i]);
}

}  // namespace

// Every pipeline-bound packet is decoded into the right command with its payload, SET_REGS
// is split per register, DSID_SET is forwarded with the new DSID (the binner closes its batch
// on it), the stream-control packets are not forwarded, and a FENCE writes.
TEST(CpSystem, EveryPacketOnOneQueue) {
  Env e;
  // (a PBB pass with an empty body: a two-level one replays, CpSystem.TwoLevelPassReplays)
  const Dwords rp = {0x0, 0x100000, (64u << 16) | 64u, 0x110000, 0x1111, 0xff00ff00, 0x123456, 0x0201};
  Dwords s = cat({nop(3), set_regs(0x2000, {7, 8, 9}), dsid_set(3), draw(6, 0x200000),
                  pkt(TS_OP_SET_BIN_MODE, {0x110, 0x0203}), pkt(TS_OP_BIND_VIS_BUFFER, {0x300000, 4096}),
                  pkt(TS_OP_RENDERPASS_BEGIN, {rp[0], rp[1], rp[2], rp[3], rp[4], rp[5], rp[6], rp[7]}),
                  pkt(TS_OP_RENDERPASS_END, {}), pkt(TS_OP_FRAME_END, {42}), fence(kFenceArea, 0xf00d)});
  e.host.submit(0, s);
  e.host.wait_value(kFenceArea, 0xf00d, "the fence");
  e.host.wait_idle();
  expect_log(e.g.pipe_log(), {
      cmd(TS_OP_SET_REGS, 0, 0, {0x2000, 7}), cmd(TS_OP_SET_REGS, 0, 0, {0x2004, 8}),
      cmd(TS_OP_SET_REGS, 0, 0, {0x2008, 9}), cmd(TS_OP_DSID_SET, 0, 3, {3}),
      cmd(TS_OP_DRAW, 0, 3, {0, 6, 0x200000, 0, 0}),
      cmd(TS_OP_SET_BIN_MODE, 0, 3, {0x110, 0x0203}), cmd(TS_OP_BIND_VIS_BUFFER, 0, 3, {0x300000, 4096}),
      cmd(TS_OP_RENDERPASS_BEGIN, 0, 3, rp), cmd(TS_OP_RENDERPASS_END, 0, 3, {}), cmd(TS_OP_FRAME_END, 0, 3, {42})});
}

// Two-level binning on the RTL CP (docs/two-level.md "The passes"): a 192x128 target is 3 x 2
// blocks of 64 pixels; a 3 x 2 request gives one block per coarse bin, serpentine order. The
// firmware runs the visibility pass and then replays the body (in an IB) once per coarse bin,
// each pass preceded by its GEOM.VIS and RASTER.COARSE writes, and resets both after the last.
// Catches: the replay missing on the real core (the host build passes but the ROM image or the
// fetch channel's rewind does not), and a ring that goes on before the last replay.
TEST(CpSystem, TwoLevelPassReplays) {
  Env e;
  const Dwords body = cat({pkt(TS_OP_RENDERPASS_BEGIN, {TS_PKT_DRAW_LEN + 1u, 0x100000, (128u << 16) | 192u, 0x140000,
                                                      0x1111, 0, 0, 0}),
                           draw(3, 0x200000), pkt(TS_OP_RENDERPASS_END, {})});
  e.host.write_buffer(kIbArea, body);
  const std::uint32_t mode = TS_PKT_SET_BIN_MODE_MODE_PUT(TS_BIN_MODE_TWO_LEVEL) |
                             TS_PKT_SET_BIN_MODE_ORDER_PUT(TS_BIN_ORDER_SERPENTINE);
  e.host.submit(0, cat({pkt(TS_OP_SET_BIN_MODE, {mode, 0x0203}), pkt(TS_OP_BIND_VIS_BUFFER, {0x300000, 4096}),
                        ib(kIbArea, static_cast<std::uint32_t>(body.size())), draw(3, 0x250000),
                        fence(kFenceArea, 7)}));
  e.host.wait_value(kFenceArea, 7, "the fence");
  const auto& log = e.g.pipe_log();
  std::vector<std::uint32_t> vis, rects;
  std::size_t begins = 0, ends = 0, draws = 0;
  for (const PipeCommand& c : log) {
    begins += c.opcode == TS_OP_RENDERPASS_BEGIN;
    ends += c.opcode == TS_OP_RENDERPASS_END;
    draws += c.opcode == TS_OP_DRAW;
    if (c.opcode == TS_OP_SET_REGS && c.args[0] == TS_GEOM_BASE_ADDR + TS_GEOM_VIS_OFFSET) vis.push_back(c.args[1]);
    if (c.opcode == TS_OP_SET_REGS && c.args[0] == TS_RASTER_BASE_ADDR + TS_RASTER_COARSE_OFFSET) rects.push_back(c.args[1]);
  }
  EXPECT_EQ(begins, 7u);
  EXPECT_EQ(ends, 7u);
  EXPECT_EQ(draws, 7u + 1u) << "the body's draw in every pass, then the ring's";
  auto test = [](std::uint32_t bin) { return TS_GEOM_VIS_MODE_PUT(TS_VIS_MODE_TEST) | TS_GEOM_VIS_BIN_PUT(bin); };
  EXPECT_EQ(vis, (std::vector<std::uint32_t>{TS_GEOM_VIS_MODE_PUT(TS_VIS_MODE_WRITE), test(0), test(1), test(2),
                                             test(5), test(4), test(3), TS_GEOM_VIS_MODE_PUT(TS_VIS_MODE_OFF)}));
  ASSERT_EQ(rects.size(), 8u);
  EXPECT_EQ(rects[5], TS_RASTER_COARSE_X0_PUT(1) | TS_RASTER_COARSE_Y0_PUT(1) | TS_RASTER_COARSE_X1_PUT(1) |
                          TS_RASTER_COARSE_Y1_PUT(1) | TS_RASTER_COARSE_ENABLE_PUT(1));
  EXPECT_EQ(rects[7], TS_RASTER_COARSE_RESET);
  EXPECT_EQ(log.back().opcode, TS_OP_DRAW);
  EXPECT_EQ(log.back().args[2], 0x250000u) << "the ring's draw after the last replay";
}

// Ring -> IB1 -> IB2 and back: commands in order, the DSID is 0 at each command buffer start
// and the caller's DSID comes back on return, the ring continues after the IB; every DSID
// change (the packets, and the IB calls and returns) reaches the pipeline as a DSID_SET.
TEST(CpSystem, IndirectBuffersAndDsidScope) {
  Env e;
  const std::uint32_t ib1 = kIbArea, ib2 = kIbArea + 0x1000;
  const Dwords b2 = cat({draw(3, 0x210000), dsid_set(9), draw(3, 0x220000)});
  const Dwords b1 = cat({draw(3, 0x230000), dsid_set(5), ib(ib2, static_cast<std::uint32_t>(b2.size())), draw(3, 0x240000)});
  e.host.write_buffer(ib2, b2);
  e.host.write_buffer(ib1, b1);
  e.host.submit(0, cat({dsid_set(2), ib(ib1, static_cast<std::uint32_t>(b1.size())), draw(3, 0x250000),
                        fence(kFenceArea, 1)}));
  e.host.wait_value(kFenceArea, 1, "the fence");
  auto set = [](std::uint8_t d) { return cmd(TS_OP_DSID_SET, 0, d, {d}); };
  auto drw = [](std::uint8_t d, std::uint32_t a) { return cmd(TS_OP_DRAW, 0, d, {0, 3, a, 0, 0}); };
  expect_log(e.g.pipe_log(), {
      set(2), set(0),                             // ring; the IB1 call resets the DSID
      drw(0, 0x230000), set(5), set(0),           // IB1; the IB2 call resets it
      drw(0, 0x210000), set(9), drw(9, 0x220000), // IB2
      set(5), drw(5, 0x240000),                   // back in IB1
      set(2), drw(2, 0x250000)});                 // back in the ring
}

// COND_EXEC on the patch-enable word: the guarded packets run only when (v & mask) == ref,
// at ring level and inside an IB, and the stream continues after the skipped dwords.
TEST(CpSystem, CondExecTakenAndNotTaken) {
  Env e;
  const std::uint32_t pe = kFenceArea + 0x100;
  for (std::uint32_t value : {0u, 1u}) {
    e.g.clear_pipe_log();
    e.g.mem_write32(pe, value);
    const Dwords two = draw(3, 0x400000), one = draw(3, 0x500000);
    const Dwords body = cat({cond_exec(pe, 1, 1, static_cast<std::uint32_t>(two.size())), two,
                             cond_exec(pe, 1, 0, static_cast<std::uint32_t>(one.size())), one});
    e.host.write_buffer(kIbArea, body);
    e.host.submit(0, cat({body, ib(kIbArea, static_cast<std::uint32_t>(body.size())), fence(kFenceArea, 10 + value)}));
    e.host.wait_value(kFenceArea, 10 + value, "the fence");
    ASSERT_EQ(e.g.pipe_log().size(), 2u);
    const std::uint32_t want = value ? 0x400000 : 0x500000;
    EXPECT_EQ(e.g.pipe_log()[0].args[2], want) << "ring level, patch-enable " << value;
    EXPECT_EQ(e.g.pipe_log()[1].args[2], want) << "IB level, patch-enable " << value;
  }
}

// Barriers in both directions, and a queue blocked in BARRIER_WAIT never stalls the other.
TEST(CpSystem, BarriersBothDirectionsAndNoCrossQueueStall) {
  Env e;
  // q0 waits for q1's draw; q1 then waits for q0's second draw.
  e.host.submit(0, cat({barrier_wait(0, 1), draw(3, 0x600000), barrier_update(1, 1), fence(kFenceArea, 0xa)}));
  e.host.wait([&] { return (TS_CP_STATUS_QUEUE_WAITING_GET(e.g.reg_read(TS_CP_STATUS_OFFSET)) & 1u) != 0; },
              "queue 0 to report waiting in STATUS");
  // Queue 1 runs many packets while queue 0 waits.
  Dwords q1;
  for (int i = 0; i < 20; ++i) append(q1, draw(3, 0x700000 + 0x40 * i));
  append(q1, fence(kFenceArea + 4, 0xb));
  e.host.submit(1, q1);
  e.host.wait_value(kFenceArea + 4, 0xb, "queue 1 to run past queue 0's wait");
  EXPECT_TRUE(of_queue(e.g.pipe_log(), 0).empty()) << "queue 0 ran before its barrier";
  e.host.submit(1, cat({barrier_update(0, 1), barrier_wait(1, 1), draw(3, 0x800000), fence(kFenceArea + 8, 0xc)}));
  e.host.wait_value(kFenceArea + 8, 0xc, "queue 1's second fence");
  e.host.wait_value(kFenceArea, 0xa, "queue 0's fence");
  // Order: q1's 20 draws, q0's draw, then q1's last draw.
  const auto& log = e.g.pipe_log();
  ASSERT_EQ(log.size(), 22u);
  EXPECT_EQ(log[20].queue, 0);
  EXPECT_EQ(log[20].args[2], 0x600000u);
  EXPECT_EQ(log[21].args[2], 0x800000u);
}

// DSID_DELETE is sent only after the queue's earlier work completed: the DRAW's line (tagged
// with the DSID by the pipeline stand-in, 300+ cycles late) is in the SLC when the delete
// runs, so it is dropped dirty (CNT_DELETED_DIRTY), the DSID has no lines left, and the data
// never reaches DRAM. A delete that overtook the write would leave the line dirty in the SLC.
TEST(CpSystem, DsidDeleteOrderedAfterEarlierWrites) {
  Env e;
  e.g.set_pipe_latency(300, 400);
  const std::uint32_t line = 0x90'0000;
  const std::uint32_t dirty0 = e.g.reg_read(kSlc + TS_SLC_CNT_DELETED_DIRTY_OFFSET);
  e.host.submit(0, cat({dsid_set(7), draw(3, line), dsid_delete(7, kFenceArea + 0x40, 77)}));
  e.host.wait_value(kFenceArea + 0x40, 77, "the delete fence");
  EXPECT_EQ(e.g.pipe_in_flight(), 0u) << "the delete completed before the draw";
  EXPECT_GE(e.g.reg_read(kSlc + TS_SLC_CNT_DELETED_DIRTY_OFFSET) - dirty0, 1u);
  e.g.reg_write(kSlc + TS_SLC_OCC_SEL_OFFSET, 7);
  EXPECT_EQ(e.g.reg_read(kSlc + TS_SLC_OCC_OFFSET), 0u) << "lines of DSID 7 left in the SLC";
  std::uint8_t b[4];
  e.g.dram().memory().read(line, b);
  EXPECT_EQ(b[0] | b[1] | b[2] | b[3], 0) << "deleted data was written back to DRAM";
}

// FENCE with the interrupt flag raises the interrupt and INT_STATUS.fence of its queue; w1c
// clears it.
TEST(CpSystem, FenceInterrupt) {
  Env e;
  EXPECT_FALSE(e.g.irq());
  e.host.submit(1, fence(kFenceArea, 5, /*irq=*/true, /*flush=*/true));
  e.host.wait([&] { return e.g.irq(); }, "the fence interrupt");
  EXPECT_EQ(e.g.mem_read32(kFenceArea), 5u);
  EXPECT_EQ(TS_CP_INT_STATUS_FENCE_GET(e.g.reg_read(TS_CP_INT_STATUS_OFFSET)), 2u);
  e.g.reg_write(TS_CP_INT_STATUS_OFFSET, TS_CP_INT_STATUS_FENCE_PUT(2));
  e.g.step(2);
  EXPECT_FALSE(e.g.irq());
}

// PERF_SAMPLE writes the documented counter block (docs/firmware.md): its magic, the queue,
// counters that moved, PIPE_ISSUED/PIPE_DONE equal after a fence, the last frame id.
TEST(CpSystem, PerfSampleBlock) {
  Env e;
  const std::uint32_t blk = kFenceArea + 0x400;
  e.host.submit(1, cat({draw(3, 0xc0'0000), pkt(TS_OP_FRAME_END, {1234}), fence(kFenceArea, 1),
                        pkt(TS_OP_PERF_SAMPLE, {blk}), fence(kFenceArea + 4, 2)}));
  e.host.wait_value(kFenceArea + 4, 2, "the fence after PERF_SAMPLE");
  std::uint32_t d[16];
  for (unsigned i = 0; i < 16; ++i) d[i] = e.g.mem_read32(blk + 4 * i);
  EXPECT_EQ(d[0], 0x50455246u) << "magic";
  EXPECT_EQ((d[1] >> 8) & 0xff, 1u) << "queue";
  EXPECT_GT(d[2] | d[3], 0u) << "mcycle";
  EXPECT_GT(d[4] | d[5], 0u) << "minstret";
  EXPECT_GE(d[7], 3u) << "packets of queue 1";
  EXPECT_EQ(d[8], 2u) << "PIPE_ISSUED";
  EXPECT_EQ(d[9], 2u) << "PIPE_DONE";
  EXPECT_EQ(d[15], 1234u) << "frame id";
}

// Errors halt only their queue, name the cause and the header address, raise the interrupt;
// the other queue keeps running.
struct ErrorCase {
  const char* name;
  std::function<Dwords()> stream;
  unsigned code;
  unsigned header_index;  // dword index in the ring of the offending header
};

class CpErrors : public ::testing::TestWithParam<int> {};

TEST_P(CpErrors, HaltsOnlyItsQueue) {
  const std::vector<ErrorCase> cases = {
      {"bad opcode", [] { return cat({nop(1), Dwords{TS_PKT_HEADER(0xee, 0)}}); }, TS_CP_ERROR_BAD_OPCODE, 2},
      {"bad length", [] { return cat({nop(0), pkt(TS_OP_FENCE, {kFenceArea})}); }, TS_CP_ERROR_BAD_LENGTH, 1},
      {"bad address", [] { return cat({ib(0x7f00'0000, 4)}); }, TS_CP_ERROR_BAD_ADDRESS, 0},
      {"IB nesting", [] { return cat({ib(kIbArea, 3)}); }, TS_CP_ERROR_IB_OVERFLOW, 0},
  };
  const auto& c = cases.at(static_cast<std::size_t>(GetParam()));
  SCOPED_TRACE(c.name);
  Env e;
  // IB nesting: IB1 -> IB2 -> IB3 (IB1 at kIbArea calls IB2, which calls IB3).
  e.host.write_buffer(kIbArea, ib(kIbArea + 0x100, 3));
  e.host.write_buffer(kIbArea + 0x100, ib(kIbArea + 0x200, 3));
  e.host.write_buffer(kIbArea + 0x200, nop(2));
  e.host.submit(0, cat({c.stream(), fence(kFenceArea, 1)}));
  e.host.wait([&] { return e.g.irq(); }, "the error interrupt");
  const std::uint32_t es = e.g.reg_read(TS_CP_ERROR_STATUS_OFFSET);
  EXPECT_EQ(TS_CP_ERROR_STATUS_VALID_GET(es), 1u);
  EXPECT_EQ(TS_CP_ERROR_STATUS_CODE_GET(es), c.code);
  EXPECT_EQ(TS_CP_ERROR_STATUS_QUEUE_GET(es), 0u);
  if (c.code != TS_CP_ERROR_IB_OVERFLOW) {
    EXPECT_EQ(e.g.reg_read(TS_CP_ERROR_ADDR_OFFSET), Host::kRingBase[0] + 4 * c.header_index);
  }
  EXPECT_EQ(TS_CP_STATUS_QUEUE_HALTED_GET(e.g.reg_read(TS_CP_STATUS_OFFSET)), 1u);
  // The other queue still runs; the halted one never writes its fence.
  e.host.submit(1, fence(kFenceArea + 4, 2));
  e.host.wait_value(kFenceArea + 4, 2, "queue 1 after queue 0 halted");
  EXPECT_EQ(e.g.mem_read32(kFenceArea), 0u);
}
INSTANTIATE_TEST_SUITE_P(Codes, CpErrors, ::testing::Range(0, 4));

// Random packet streams on both queues with random pipeline backpressure and latency: each
// queue's pipeline commands arrive complete, in order, with the right DSIDs; nothing lost or
// duplicated; the ring wraps (a 256-dword ring) with packets straddling its end.
TEST(CpSystem, RandomStreamsBothQueues) {
  Env e(config(0.5));
  e.host.start(3, 8);
  std::mt19937_64 rng(e.g.config().seed * 7919 + 3);
  std::vector<PipeCommand> want[2];
  std::uint8_t dsid[2] = {0, 0};
  unsigned fences = 0;
  for (int round = 0; round < 12; ++round) {
    for (unsigned q = 0; q < 2; ++q) {
      Dwords s;
      const int n = 3 + static_cast<int>(rng() % 6);
      for (int i = 0; i < n; ++i) {
        switch (rng() % 5) {
          case 0: {
            Dwords v(1 + rng() % 4);
            for (auto& x : v) x = static_cast<std::uint32_t>(rng());
            const std::uint32_t off = 0x1000 + 4 * static_cast<std::uint32_t>(rng() % 64);
            append(s, set_regs(off, v));
            for (std::size_t k = 0; k < v.size(); ++k)
              want[q].push_back(cmd(TS_OP_SET_REGS, q, dsid[q], {off + 4 * static_cast<std::uint32_t>(k), v[k]}));
            break;
          }
          case 1: {
            const std::uint32_t a = 0xa0'0000 + 0x40 * static_cast<std::uint32_t>(rng() % 256);
            append(s, draw(3, a));
            want[q].push_back(cmd(TS_OP_DRAW, q, dsid[q], {0, 3, a, 0, 0}));
            break;
          }
          case 2:
            append(s, nop(static_cast<unsigned>(rng() % 5)));
            break;
          case 3:
            dsid[q] = static_cast<std::uint8_t>(rng() % 64);
            append(s, dsid_set(dsid[q]));
            want[q].push_back(cmd(TS_OP_DSID_SET, q, dsid[q], {dsid[q]}));
            break;
          default: {
            const std::uint32_t id = static_cast<std::uint32_t>(rng());
            append(s, pkt(TS_OP_FRAME_END, {id}));
            want[q].push_back(cmd(TS_OP_FRAME_END, q, dsid[q], {id}));
          }
        }
      }
      append(s, fence(kFenceArea + 4 * q, ++fences));
      e.host.submit(q, s);
    }
    e.host.wait_value(kFenceArea, fences - 1, "queue 0's fence");
    e.host.wait_value(kFenceArea + 4, fences, "queue 1's fence");
  }
  e.host.wait_idle();
  for (unsigned q = 0; q < 2; ++q) {
    SCOPED_TRACE(fmt::format("queue {}", q));
    expect_log(of_queue(e.g.pipe_log(), q), want[q]);
  }
}

// Benchmark (printed, never asserted on time): firmware cycles per packet type, measured as
// cycles from the doorbell until the ring is consumed, per packet, on a busy ring; and the
// core's CPI over the whole run.
TEST(CpSystem, BenchmarkCyclesPerPacket) {
  Env e(config(1.0));
  e.g.set_pipe_latency(1, 2);
  // Runs `ring` (which ends with a FENCE writing n) and prints its cycles per packet unit.
  auto time_ring = [&](const char* what, const Dwords& ring, unsigned n, unsigned units) {
    e.host.write_ring(0, ring);
    const std::uint64_t t0 = e.g.cycle(), i0 = e.g.instructions_retired(), c0 = e.g.core_cycles();
    e.host.doorbell(0);
    e.host.wait([&] { return e.host.consumed(0); }, what, 2'000'000, 16);
    const double cyc = static_cast<double>(e.g.cycle() - t0) / (n * units);
    const double cpi = static_cast<double>(e.g.core_cycles() - c0) / static_cast<double>(e.g.instructions_retired() - i0);
    fmt::print("BENCH cp_cycles_per_packet {:<24} {:8.1f} cycles  (core CPI {:.2f})\n", what, cyc, cpi);
    e.host.wait_value(kFenceArea, n, what);
    e.g.mem_write32(kFenceArea, 0);
  };
  // n copies of `one` in the ring.
  auto measure = [&](const char* what, const Dwords& one, unsigned n, unsigned units) {
    Dwords s;
    for (unsigned i = 0; i < n; ++i) append(s, one);
    append(s, fence(kFenceArea, n));
    time_ring(what, s, n, units);
  };
  measure("NOP", nop(0), 64, 1);
  measure("NOP(8 dwords)", nop(8), 32, 1);
  measure("SET_REGS per register", set_regs(0x1000, Dwords(32, 5)), 8, 32);
  measure("SET_REGS(1)", set_regs(0x1000, {5}), 32, 1);
  measure("DRAW dispatch", draw(3, 0xb0'0000), 32, 1);
  measure("FENCE", fence(kFenceArea + 0x80, 1), 16, 1);
  // The same packets in an IB, as the KMD submits every command buffer (INDIRECT_BUFFER +
  // FENCE in the ring): the IB call and the fence are in the figures.
  auto measure_ib = [&](const char* what, const Dwords& one, unsigned n, unsigned units) {
    Dwords body;
    for (unsigned i = 0; i < n; ++i) append(body, one);
    e.host.write_buffer(kIbArea, body);
    time_ring(what, cat({ib(kIbArea, static_cast<std::uint32_t>(body.size())), fence(kFenceArea, n)}), n, units);
  };
  measure_ib("IB: SET_REGS per register", set_regs(0x1000, Dwords(32, 5)), 8, 32);
  measure_ib("IB: SET_REGS(1)", set_regs(0x1000, {5}), 32, 1);
  measure_ib("IB: DRAW dispatch", draw(3, 0xb0'0000), 32, 1);
  measure_ib("IB: DSID_SET", dsid_set(1), 32, 1);
}
