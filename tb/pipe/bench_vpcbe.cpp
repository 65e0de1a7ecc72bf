// Bench for VPCBE_S (rtl/raster/raster_vpcbe.sv) with the command map in front of it
// (rtl/pipe/pipe_cmd_map.sv), as pipe_top connects them; wrapper tb/pipe/vpcbe_tb_top.sv.
// Models: vpcbe_s1n2 (slice 1 of 2, OUT_DEPTH 4) and vpcbe_s2n3_d2 (slice 2 of 3, OUT_DEPTH 2).
// The environment (vpcbe_env.hpp) checks every cycle against the C++ reference
// (vpcbe_ref.hpp): every output item in API order, triangles with the store's data for their
// {src, entry}, commands mapped per pipe_cmd_map's table with the SLICE rewrite, pipe_cmd_map's
// forwarding decision, one store read per triangle, output held while stalled, never more
// items inside than the output FIFO holds, and at the end everything out and nothing extra.
//
// Rerun one test: RANDOM_SEED=<n> TESTCASE=<name> build/tb/pipe/bench_vpcbe (WAVES=1 for an FST).
// TESSERA_REGRESS=1 runs longer random streams.
#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "Vvpcbe_s1n2.h"
#include "Vvpcbe_s0n4_d64.h"
#include "Vvpcbe_s2n3_d2.h"
#include "tb/test.hpp"
#include "vpcbe_env.hpp"

using tb::Task;
using vpcbetb::Cfg;
using vpcbetb::PipeCmd;
using vpcbetb::Tri;
using vpcbetb::VpcbeEnv;

namespace {

constexpr Cfg kS1N2{1, 2, 4};
constexpr Cfg kS2N3D2{2, 3, 2};
constexpr Cfg kS0N4D64{0, 4, 64};  // pipe_top's VPCBE_DEPTH: the FIFO lives in a RAM

std::uint32_t rnd32() { return static_cast<std::uint32_t>(tb::randint(0, 0xffffffffULL)); }

template <class T>
T pick(std::initializer_list<T> v) {
  return *(v.begin() + tb::randint(0, v.size() - 1));
}

PipeCmd make_cmd(std::uint8_t opcode, unsigned nargs) {
  PipeCmd c;
  c.opcode = opcode;
  c.queue_id = static_cast<std::uint8_t>(tb::randint(0, 7));
  c.dsid = static_cast<std::uint8_t>(tb::randint(0, 63));
  c.nargs = static_cast<std::uint8_t>(nargs);
  for (unsigned i = 0; i < nargs; ++i) c.args[i] = rnd32();
  return c;
}

PipeCmd set_reg(std::uint32_t addr, std::uint32_t value) {
  PipeCmd c = make_cmd(TS_OP_SET_REGS, 2);
  c.args[0] = addr;
  c.args[1] = value;
  return c;
}

std::uint32_t rand_slice_value() {
  return pick<std::uint32_t>({rnd32(), 0U, 0xffffffffU, TS_RASTER_SLICE_RESET,
                              TS_RASTER_SLICE_SKEW_PUT(tb::randint(0, 7)),
                              TS_RASTER_SLICE_SKEW_PUT(tb::randint(0, 7)) | TS_RASTER_SLICE_NUM_PUT(tb::randint(0, 15)) |
                                  TS_RASTER_SLICE_INDEX_PUT(tb::randint(0, 7))});
}

// One random CP pipeline command: the five kinds the raster slices execute (SLICE writes
// among the RASTER SET_REGS), SET_REGS to other windows and at the window's edges, and the
// commands that stay in geometry.
PipeCmd rand_cmd() {
  const auto p = tb::randint(0, 99);
  if (p < 14) return set_reg(TS_RASTER_BASE_ADDR + TS_RASTER_SLICE_OFFSET, rand_slice_value());
  if (p < 32) {
    const std::uint32_t off = pick<std::uint32_t>(
        {static_cast<std::uint32_t>(tb::randint(0, 6)) * 4, static_cast<std::uint32_t>(tb::randint(0, 0x3ff)) * 4, 0U,
         TS_RASTER_SIZE - 4, TS_RASTER_SLICE_OFFSET + 4, TS_RASTER_SLICE_OFFSET - 4,
         static_cast<std::uint32_t>(tb::randint(0, TS_RASTER_SIZE - 1))});
    return set_reg(TS_RASTER_BASE_ADDR + off, rnd32());
  }
  if (p < 44) {
    const std::uint32_t a = pick<std::uint32_t>(
        {TS_GEOM_BASE_ADDR + static_cast<std::uint32_t>(tb::randint(0, 0x3ff)) * 4, TS_RASTER_BASE_ADDR - 4,
         TS_RASTER_BASE_ADDR - 1, TS_RASTER_BASE_ADDR + TS_RASTER_SIZE, TS_SLC_BASE_ADDR + TS_RASTER_SLICE_OFFSET,
         TS_CP_BASE_ADDR + TS_RASTER_SLICE_OFFSET, TS_RASTER_SLICE_OFFSET, rnd32() | 0x80000000U,
         0x80000000U + TS_RASTER_BASE_ADDR + TS_RASTER_SLICE_OFFSET, 0x00010000U + TS_RASTER_BASE_ADDR});
    return set_reg(a, rnd32());
  }
  if (p < 54) return make_cmd(TS_OP_RENDERPASS_BEGIN, TS_PKT_RENDERPASS_BEGIN_LEN);
  if (p < 62) return make_cmd(TS_OP_RENDERPASS_END, TS_PKT_RENDERPASS_END_LEN);
  if (p < 70) {
    PipeCmd c = make_cmd(TS_OP_DSID_SET, 1);
    c.args[0] = static_cast<std::uint32_t>(tb::randint(0, 63));
    return c;
  }
  if (p < 84) {
    // pipe_top's own FENCE: one argument, bit 0 = invalidate; other bits random sometimes
    PipeCmd c = make_cmd(TS_OP_FENCE, 1);
    c.args[0] = tb::chance(0.7) ? static_cast<std::uint32_t>(tb::randint(0, 1)) : rnd32();
    return c;
  }
  switch (tb::randint(0, 6)) {
    case 0: return make_cmd(TS_OP_DRAW, TS_PKT_DRAW_LEN);
    case 1: return make_cmd(TS_OP_SET_BIN_MODE, TS_PKT_SET_BIN_MODE_LEN);
    case 2: return make_cmd(TS_OP_FRAME_END, 1);
    case 3: return make_cmd(TS_OP_NOP, 0);
    case 4: return make_cmd(TS_OP_BIND_VIS_BUFFER, 2);
    case 5: return make_cmd(TS_OP_DSID_DELETE, 3);
    default: return make_cmd(static_cast<std::uint8_t>(tb::randint(0, 255)), static_cast<unsigned>(tb::randint(0, 8)));
  }
}

// A random API-ordered stream: runs of triangles (draws with increasing primitive ids)
// between bursts of commands.
template <class V>
void random_stream(VpcbeEnv<V>& e, std::size_t n_items) {
  std::uint16_t draw = static_cast<std::uint16_t>(tb::randint(0, 0xffff));
  std::uint32_t prim = rnd32();
  while (e.items.size() < n_items) {
    const auto run = tb::chance(0.2) ? tb::randint(0, 2) : tb::randint(0, tb::chance(0.3) ? 60 : 16);
    for (std::uint64_t i = 0; i < run; ++i) {
      if (tb::chance(0.05)) {
        ++draw;
        prim = tb::chance(0.5) ? 0 : rnd32();
      }
      e.add_tri(e.rand_tri(draw, prim++));
    }
    const auto cmds = tb::randint(1, tb::chance(0.2) ? 5 : 2);
    for (std::uint64_t i = 0; i < cmds; ++i) e.add_cmd(rand_cmd());
  }
}

// Knobs re-rolled every few hundred cycles: phases of a fast and of a slow consumer, store
// and stream, so the output FIFO goes both empty and full in one run.
template <class V>
void phased_knobs(VpcbeEnv<V>& e) {
  e.on_cycle = [&e](std::uint64_t c) {
    if (c % 400 != 0) return;
    e.k.p_idle = pick({0.0, 0.1, 0.3, 0.6});
    e.k.p_rd_ready = pick({1.0, 0.8, 0.5, 0.2});
    e.k.p_out_ready = pick({1.0, 0.9, 0.6, 0.3, 0.1});
  };
}

void require_common(const tb::Coverage& c) {
  for (const char* w : {"command SET_REG", "SLICE write", "command RP_BEGIN", "command RP_END", "command BATCH_CLOSE",
                        "command FLUSH", "command INVALIDATE", "command not forwarded",
                        "command waits for the read in flight", "item offered right after the previous one",
                        "triangle right after a forwarded command", "triangle from another slice's store", "output stalled",
                        "output FIFO full", "triangle waits: store not ready"})
    c.require(w);
}

// ---- random stream ------------------------------------------------------------------------------
// Random triangles and commands in one API-ordered stream, random gaps, random store and
// consumer readiness in phases. Catches: a triangle or command lost, duplicated or reordered
// (a command overtaking or overtaken by a triangle whose read is in flight), a triangle with
// another entry's data or a wrong draw/primitive id, a read at the wrong {src, entry}, a
// command mapped to the wrong kind or with wrong arguments, a missing or wrong SLICE rewrite
// (or one applied to another register), a command forwarded that pipe_top must drop or the
// reverse, output data changing while stalled, a FIFO overrun.
template <class V>
Task<> random_traffic(tb::Dut<V>& dut, Cfg cfg) {
  VpcbeEnv<V> e(dut, cfg);
  random_stream(e, static_cast<std::size_t>(tb::scaled(30000, 300000)));
  phased_knobs(e);
  co_await e.reset();
  co_await e.run(5'000'000);
  dut.log().info("{} triangles, {} commands, {} items out in {} cycles; {}", e.n_tris, e.n_cmds, e.n_out, e.cycle,
                 e.cov.report());
  require_common(e.cov);
  e.cov.require("triangle waits: output FIFO has no room");
  e.cov.require("command waits: output FIFO full");
}

TB_TEST(Vvpcbe_s1n2, random_traffic_s1n2) { co_await random_traffic(dut, kS1N2); }
TB_TEST(Vvpcbe_s2n3_d2, random_traffic_s2n3_d2) { co_await random_traffic(dut, kS2N3D2); }
TB_TEST(Vvpcbe_s0n4_d64, random_traffic_s0n4_d64) { co_await random_traffic(dut, kS0N4D64); }

// ---- the command table ---------------------------------------------------------------------------
// Every opcode 0..255 (random arguments, every argument count), SET_REGS on both sides of each
// edge of the RASTER window, every RASTER register offset and the offsets one bit away from
// SLICE's, SLICE writes with all-zero, all-one and field-extreme values, FENCE with each
// args[0] bit 0 and the other bits set; a triangle between some of them. Catches: a wrong
// entry of pipe_cmd_map's table, an off-by-one at the window edges, the SLICE rewrite touching
// skew or other bits, or matching another offset.
TB_TEST(Vvpcbe_s1n2, command_table) {
  VpcbeEnv<Vvpcbe_s1n2> e(dut, kS1N2);
  std::uint32_t prim = 0;
  auto maybe_tri = [&] {
    if (tb::chance(0.3)) e.add_tri(e.rand_tri(7, prim++));
  };
  for (unsigned op = 0; op < 256; ++op)
    for (unsigned rep = 0; rep < 3; ++rep) {
      PipeCmd c = make_cmd(static_cast<std::uint8_t>(op), static_cast<unsigned>(tb::randint(0, 8)));
      if (op == TS_OP_SET_REGS && rep == 0) c.args[0] = TS_RASTER_BASE_ADDR + TS_RASTER_SLICE_OFFSET;
      e.add_cmd(c);
      maybe_tri();
    }
  for (std::uint32_t a : {0U, TS_GEOM_BASE_ADDR, TS_RASTER_BASE_ADDR - 4, TS_RASTER_BASE_ADDR - 1, TS_RASTER_BASE_ADDR,
                          TS_RASTER_BASE_ADDR + 1, TS_RASTER_BASE_ADDR + TS_RASTER_SIZE - 4,
                          TS_RASTER_BASE_ADDR + TS_RASTER_SIZE - 1, TS_RASTER_BASE_ADDR + TS_RASTER_SIZE,
                          TS_RASTER_BASE_ADDR + TS_RASTER_SIZE + TS_RASTER_SLICE_OFFSET, TS_RASTER_SLICE_OFFSET,
                          0x80000000U + TS_RASTER_BASE_ADDR, 0xffffffffU}) {
    e.add_cmd(set_reg(a, rnd32()));
    maybe_tri();
  }
  for (std::uint32_t off = 0; off < 0x40; off += 4) e.add_cmd(set_reg(TS_RASTER_BASE_ADDR + off, rnd32()));
  // offsets one bit away from SLICE's: only SLICE itself gets the rewrite
  for (unsigned b = 0; b < 12; ++b)
    e.add_cmd(set_reg(TS_RASTER_BASE_ADDR + (TS_RASTER_SLICE_OFFSET ^ (1U << b)), 0xffffffffU));
  for (std::uint32_t v : {0U, 0xffffffffU, TS_RASTER_SLICE_RESET, TS_RASTER_SLICE_NUM_MASK, TS_RASTER_SLICE_INDEX_MASK,
                          TS_RASTER_SLICE_SKEW_MASK, ~TS_RASTER_SLICE_SKEW_MASK, 0x00050302U, 0x12345678U}) {
    e.add_cmd(set_reg(TS_RASTER_BASE_ADDR + TS_RASTER_SLICE_OFFSET, v));
    maybe_tri();
  }
  for (std::uint32_t a0 : {0U, 1U, 2U, 3U, 0xfffffffeU, 0xffffffffU}) {
    PipeCmd c = make_cmd(TS_OP_FENCE, 1);
    c.args[0] = a0;
    e.add_cmd(c);
    maybe_tri();
  }
  e.k = vpcbetb::Knobs{0.2, 0.7, 0.7};
  co_await e.reset();
  co_await e.run(200'000);
  dut.log().info("{} commands, {} triangles, {} items out; {}", e.n_cmds, e.n_tris, e.n_out, e.cov.report());
  for (const char* w : {"command SET_REG", "SLICE write", "command RP_BEGIN", "command RP_END", "command BATCH_CLOSE",
                        "command FLUSH", "command INVALIDATE", "command not forwarded"})
    e.cov.require(w);
}

// ---- throughput ----------------------------------------------------------------------------------
// Back-to-back triangles, store and consumer always ready: with OUT_DEPTH 4 (pipe_top's)
// VPCBE_S must take a triangle and deliver one every cycle. Catches: a bubble in the read
// path (room accounting too conservative, a read not overlapped with the previous response).
// Also prints the figure of a stream with a command every 8 triangles (a command waits for the
// read in flight: its cost), and for OUT_DEPTH 2, where 1 per cycle is not reachable.
template <class V>
Task<> throughput(tb::Dut<V>& dut, Cfg cfg, bool must_reach_one) {
  VpcbeEnv<V> e(dut, cfg);
  e.k = vpcbetb::Knobs{0.0, 1.0, 1.0};
  const unsigned n = 2000;
  for (unsigned i = 0; i < n; ++i) e.add_tri(e.rand_tri(1, i));
  co_await e.reset();
  co_await e.run(100'000);
  const std::uint64_t in_span = e.last_tri_cycle - e.first_tri_cycle + 1;
  const std::uint64_t out_span = e.last_out_cycle - e.first_out_cycle + 1;
  const double tpc = static_cast<double>(n) / static_cast<double>(in_span);
  const double opc = static_cast<double>(e.n_out) / static_cast<double>(out_span);
  fmt::print("BENCH vpcbe_throughput slice={}/{} out_depth={} stream=triangles items={} tris_per_clock={:.3f} "
             "outputs_per_clock={:.3f} first_out_latency={} (target 1.000)\n",
             cfg.slice_idx, cfg.num_slices, cfg.out_depth, n, tpc, opc, e.first_out_cycle - e.first_tri_cycle);
  if (must_reach_one) {
    vpcbetb::check(in_span == n, "{} back-to-back triangles took {} cycles to be accepted (1 per cycle expected)", n,
                   in_span);
    vpcbetb::check(out_span == e.n_out, "{} items took {} cycles to come out (1 per cycle expected)", e.n_out, out_span);
  }

  // Mixed stream, appended to the same run: a command every 8 triangles.
  const std::uint64_t c0 = e.cycle, t0 = e.n_tris, k0 = e.n_cmds;
  for (unsigned i = 0; i < n; ++i) {
    e.add_tri(e.rand_tri(2, i));
    if (i % 8 == 7) e.add_cmd(make_cmd(TS_OP_RENDERPASS_END, 0));
  }
  co_await e.run(200'000);
  const std::uint64_t cyc = e.cycle - c0 - (2 * cfg.out_depth + 8);  // without the quiet period
  fmt::print("BENCH vpcbe_throughput slice={}/{} out_depth={} stream=tri8+cmd items={} items_per_clock={:.3f}\n",
             cfg.slice_idx, cfg.num_slices, cfg.out_depth, (e.n_tris - t0) + (e.n_cmds - k0),
             static_cast<double>((e.n_tris - t0) + (e.n_cmds - k0)) / static_cast<double>(cyc));
}

TB_TEST(Vvpcbe_s1n2, throughput_back_to_back) { co_await throughput(dut, kS1N2, true); }
TB_TEST(Vvpcbe_s2n3_d2, throughput_back_to_back_d2) { co_await throughput(dut, kS2N3D2, false); }
TB_TEST(Vvpcbe_s0n4_d64, throughput_back_to_back_d64) { co_await throughput(dut, kS0N4D64, true); }

// ---- stalled consumer ----------------------------------------------------------------------------
// The consumer stalls for long stretches (50..300 cycles) between short bursts of random
// readiness, while the stream keeps offering triangles and commands and the store is mostly
// ready: the output FIFO fills and stays full. Catches: a read issued without room for its
// response (a response lost or a FIFO overrun; raster_vpcbe also asserts RspHasRoom_A), a
// command entering a full FIFO, an item lost or duplicated when the consumer resumes.
template <class V>
Task<> stalled_consumer(tb::Dut<V>& dut, Cfg cfg) {
  VpcbeEnv<V> e(dut, cfg);
  random_stream(e, static_cast<std::size_t>(tb::scaled(4000, 40000)));
  e.k = vpcbetb::Knobs{0.05, 0.9, 0.0};
  std::uint64_t phase_end = 0;
  bool stalled = false;
  double p = 1.0;
  e.out_ready_fn = [&](std::uint64_t c) {
    if (c >= phase_end) {
      stalled = !stalled;
      phase_end = c + (stalled ? tb::randint(50, 300) : tb::randint(1, 24));
      p = pick({1.0, 0.7, 0.4});
    }
    return !stalled && tb::chance(p);
  };
  co_await e.reset();
  co_await e.run(5'000'000);
  dut.log().info("{} triangles, {} commands, {} items out in {} cycles; {}", e.n_tris, e.n_cmds, e.n_out, e.cycle,
                 e.cov.report());
  e.cov.require("output FIFO full", 1000);
  e.cov.require("triangle waits: output FIFO has no room", 100);
  e.cov.require("command waits: output FIFO full", 10);
  e.cov.require("output stalled", 1000);
}

TB_TEST(Vvpcbe_s1n2, stalled_consumer_s1n2) { co_await stalled_consumer(dut, kS1N2); }
TB_TEST(Vvpcbe_s2n3_d2, stalled_consumer_s2n3_d2) { co_await stalled_consumer(dut, kS2N3D2); }
TB_TEST(Vvpcbe_s0n4_d64, stalled_consumer_s0n4_d64) { co_await stalled_consumer(dut, kS0N4D64); }

}  // namespace
