// Bench for prim_fifo_sync (rtl/common/prim_fifo_sync.sv) in the three configurations the
// RTL build provides: DEPTH=4 registered output, DEPTH=3 fall-through (non-power-of-2
// pointers), DEPTH=1 (the degenerate single-entry case). WIDTH=16 throughout. And
// prim_fifo_ram (rtl/common/prim_fifo_ram.sv, words in a RAM), which promises the same
// behaviour cycle for cycle as prim_fifo_sync with FALL_THROUGH=0 and is checked against the
// same model: DEPTH=5 (non-power-of-2, full often) and DEPTH=64 (raster_vpcbe's size).
//
// The reference model below is written from the "Behaviour" paragraph of the module header:
// a queue of at most DEPTH words, wready = !full && !clr (never looking at rready),
// registered or fall-through read side, clr flushes with no transfer in its cycle.
#include <fmt/format.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "Vprim_fifo_ram_d5.h"
#include "Vprim_fifo_ram_d64.h"
#include "Vprim_fifo_sync_d1.h"
#include "Vprim_fifo_sync_d3_ft.h"
#include "Vprim_fifo_sync_d4.h"
#include "prim_tb.hpp"
#include "tb/stream.hpp"
#include "tb/test.hpp"

using tb::RisingEdge;
using tb::Task;

namespace {

struct FifoIn {
  bool clr = false;
  bool wvalid = false;
  std::uint16_t wdata = 0;
  bool rready = false;
};

struct FifoOut {
  bool wready = false, rvalid = false, full = false, empty = false;
  unsigned depth = 0;
  std::uint16_t rdata = 0;
};

// Reference model (specification: prim_fifo_sync.sv header, "Behaviour").
class FifoModel {
 public:
  FifoModel(unsigned depth, bool fall_through) : depth_(depth), ft_(fall_through) {}

  // What the outputs must be in a cycle whose inputs are `in`.
  FifoOut outputs(const FifoIn& in) const {
    FifoOut o;
    o.depth = static_cast<unsigned>(q_.size());
    o.full = q_.size() == depth_;
    o.empty = q_.empty();
    o.wready = !o.full && !in.clr;  // no path from rready: a full FIFO refuses even while read
    if (ft_ && q_.empty()) {        // fall-through: the write side shows through, latency 0
      o.rvalid = in.wvalid && !in.clr;
      o.rdata = in.wdata;
    } else {  // registered: only stored words are offered
      o.rvalid = !q_.empty() && !in.clr;
      o.rdata = q_.empty() ? 0 : q_.front();
    }
    return o;
  }

  // The rising edge at the end of that cycle.
  void clock(const FifoIn& in) {
    const FifoOut o = outputs(in);
    if (in.clr) {
      q_.clear();
      return;
    }
    const bool push = in.wvalid && o.wready;
    const bool pop = o.rvalid && in.rready;
    if (ft_ && q_.empty() && push && pop) return;  // passed straight through, never stored
    if (pop) q_.pop_front();
    if (push) q_.push_back(in.wdata);
  }

  std::size_t size() const { return q_.size(); }

 private:
  unsigned depth_;
  bool ft_;
  std::deque<std::uint16_t> q_;
};

// Drives one FIFO cycle by cycle and checks every output against the model in every cycle.
template <class V, class Model = FifoModel>
class FifoBench {
 public:
  FifoBench(tb::Dut<V>& dut, unsigned depth, bool ft) : dut_(dut), model_(depth, ft), depth_(depth), ft_(ft) {}

  Task<> reset() {
    co_await primtb::clock_and_reset(dut_, [this] { apply(FifoIn{}); });
  }

  // One clock cycle with `in` on the inputs. Returns what the DUT showed during the cycle
  // (sampled at the closing rising edge), already checked against the model.
  Task<FifoOut> cycle(FifoIn in) {
    tb::defer([this, in] { apply(in); });
    co_await RisingEdge(dut_->clk_i);
    const FifoOut got = sample();
    const FifoOut want = model_.outputs(in);
    compare(in, got, want);
    cover(in, want);
    model_.clock(in);
    ++cycle_;
    co_return got;
  }

  std::uint64_t cycles() const { return cycle_; }
  primtb::Coverage& coverage() { return cov_; }
  const Model& model() const { return model_; }
  unsigned depth() const { return depth_; }
  bool ft() const { return ft_; }

 private:
  void apply(const FifoIn& in) {
    dut_->clr_i = in.clr;
    dut_->wvalid_i = in.wvalid;
    dut_->wdata_i = in.wdata;
    dut_->rready_i = in.rready;
  }
  FifoOut sample() const {
    FifoOut o;
    o.wready = dut_->wready_o;
    o.rvalid = dut_->rvalid_o;
    o.full = dut_->full_o;
    o.empty = dut_->empty_o;
    o.depth = dut_->depth_o;
    o.rdata = dut_->rdata_o;
    return o;
  }
  void compare(const FifoIn& in, const FifoOut& got, const FifoOut& want) const {
    std::string diff;
    auto field = [&](const char* name, unsigned g, unsigned w) {
      if (g != w) diff += fmt::format(" {}={} (expected {})", name, g, w);
    };
    field("wready_o", got.wready, want.wready);
    field("rvalid_o", got.rvalid, want.rvalid);
    field("full_o", got.full, want.full);
    field("empty_o", got.empty, want.empty);
    field("depth_o", got.depth, want.depth);
    if (want.rvalid && got.rdata != want.rdata)  // rdata is only meaningful while rvalid
      diff += fmt::format(" rdata_o={:#06x} (expected {:#06x})", got.rdata, want.rdata);
    if (!diff.empty())
      tb::fail(fmt::format(
          "cycle {} ({:.0f} ns, DEPTH={} FT={}) with clr={} wvalid={} wdata={:#06x} rready={}, model holding "
          "{} words:{}",
          cycle_, tb::get_sim_time(), depth_, ft_, in.clr, in.wvalid, in.wdata, in.rready, model_.size(), diff));
  }
  void cover(const FifoIn& in, const FifoOut& o) {
    cov_.hit("full", o.full);
    cov_.hit("push attempted while full", in.wvalid && o.full && !in.clr);
    cov_.hit("push+pop requested while full", in.wvalid && in.rready && o.full && !in.clr);
    cov_.hit("push+pop while empty", in.wvalid && in.rready && o.empty && !in.clr);
    cov_.hit("clr while holding words", in.clr && o.depth > 0);
    cov_.hit("clr with wvalid and rready", in.clr && in.wvalid && in.rready);
    cov_.hit("pop", o.rvalid && in.rready);
    for (unsigned d = 0; d <= depth_; ++d) cov_.hit(fmt::format("depth {}", d), o.depth == d);
  }

  tb::Dut<V>& dut_;
  Model model_;
  unsigned depth_;
  bool ft_;
  std::uint64_t cycle_ = 0;
  primtb::Coverage cov_;
};

// ---------------------------------------------------------------------------------------
// Test bodies, shared by the three configurations.

// Random traffic in phases (balanced, filling, draining, streaming, sparse, with and without
// clr), every output compared with the model in every cycle.
// Catches: any cycle-level deviation from the spec -- wrong full/empty/depth_o, a lost,
// duplicated or reordered word, pointer wrap errors for a non-power-of-2 DEPTH, wready
// reacting to rready, rvalid during clr, stale words surviving a flush, fall-through
// latency or a fall-through word wrongly stored.
template <class V, class Model = FifoModel>
Task<> random_traffic(tb::Dut<V>& dut, unsigned depth, bool ft) {
  FifoBench<V, Model> b(dut, depth, ft);
  co_await b.reset();
  const std::uint64_t cycles = tb::scaled(100000, 2000000);
  struct Phase {
    double pw, pr, pclr;
  };
  const Phase phases[] = {{0.5, 0.5, 0}, {0.9, 0.15, 0},   {0.15, 0.9, 0},   {1.0, 1.0, 0},
                          {0.1, 0.1, 0}, {0.7, 0.7, 0.03}, {1.0, 0.3, 0.05}, {1.0, 1.0, 0.02}};
  Phase ph = phases[0];
  std::uint64_t phase_left = 0;
  bool presenting = false;
  std::uint16_t word = 0;
  for (std::uint64_t c = 0; c < cycles; ++c) {
    if (phase_left == 0) {
      ph = phases[tb::randint(0, std::size(phases) - 1)];
      phase_left = tb::randint(8, 120);
    }
    --phase_left;
    FifoIn in;
    in.clr = ph.pclr > 0 && tb::chance(ph.pclr);
    // The writer keeps a word (and its data) on the bus until it is accepted.
    if (!presenting && tb::chance(ph.pw)) {
      presenting = true;
      word = static_cast<std::uint16_t>(tb::randint(0, 0xffff));
    }
    in.wvalid = presenting;
    in.wdata = presenting ? word : static_cast<std::uint16_t>(tb::randint(0, 0xffff));  // junk when idle
    in.rready = tb::chance(ph.pr);
    const FifoOut o = co_await b.cycle(in);
    if (presenting && o.wready) presenting = false;
  }
  auto& cov = b.coverage();
  dut.log().info("DEPTH={} FT={}: {} cycles; {}", depth, ft, b.cycles(), cov.report());
  cov.require("pop", cycles / 4);
  cov.require("full", 100);
  cov.require("push attempted while full", 50);
  cov.require("push+pop requested while full", 20);
  cov.require("push+pop while empty", 20);
  cov.require("clr while holding words", 10);
  cov.require("clr with wvalid and rready", 5);
  for (unsigned d = 0; d <= depth; ++d) cov.require(fmt::format("depth {}", d), 50);
}

// Directed corner cases, each with its own message (the model checks every cycle as well).
// Catches: wrong reset state; full_o/wready_o off by one; a push at full overwriting the
// oldest word; wready depending on rready at full; wrong order after wrap-around; wrong
// behaviour of simultaneous push/pop on an empty FIFO (fall-through must pass the word in
// the same cycle without storing it, registered mode must store it); throughput loss when
// streaming; clr leaving words or pointers behind or letting a transfer through.
template <class V>
Task<> directed_corners(tb::Dut<V>& dut, unsigned depth, bool ft) {
  FifoBench<V> b(dut, depth, ft);
  co_await b.reset();
  auto msg = [&](const std::string& m) { return fmt::format("DEPTH={} FT={}: {}", depth, ft, m); };

  // Out of reset.
  FifoOut o = co_await b.cycle({});
  tb::check(o.empty && !o.full && o.depth == 0 && !o.rvalid && o.wready,
            msg("after reset the FIFO must be empty, not full, depth 0, rvalid low, wready high"));

  // Fill with the reader stalled.
  for (unsigned i = 0; i < depth; ++i) {
    const auto w = static_cast<std::uint16_t>(0xA000 + i);
    o = co_await b.cycle({.wvalid = true, .wdata = w});
    tb::check(o.wready && o.depth == i && !o.full,
              msg(fmt::format("filling: word {} must be accepted at depth {}", i, i)));
    if (i == 0) {
      if (ft)
        tb::check(o.rvalid && o.rdata == w,
                  msg("fall-through: a word written to an empty FIFO shows on rdata_o in the same cycle"));
      else
        tb::check(!o.rvalid, msg("registered: a word is not readable in the cycle it is written"));
    } else {
      tb::check(o.rvalid && o.rdata == 0xA000, msg("the oldest word stays on rdata_o while filling"));
    }
  }
  o = co_await b.cycle({.wvalid = true, .wdata = 0xBEEF});
  tb::check(o.full && !o.wready && o.depth == depth, msg("full after DEPTH words: full_o high, wready_o low"));
  o = co_await b.cycle({.wvalid = true, .wdata = 0xBEEF});
  tb::check(o.full && o.rvalid && o.rdata == 0xA000, msg("a push attempted at full must not disturb the stored words"));

  // Push and pop in the same cycle while full: the pop happens, the push is refused
  // (wready_o does not look at rready_i), and the word goes in the next cycle.
  o = co_await b.cycle({.wvalid = true, .wdata = 0xBEEF, .rready = true});
  tb::check(!o.wready && o.rvalid && o.rdata == 0xA000,
            msg("full with rready: wready_o stays low, the oldest word leaves"));
  o = co_await b.cycle({.wvalid = true, .wdata = 0xBEEF});
  tb::check(o.wready && o.depth == depth - 1, msg("the cycle after a read from full, wready_o is high again"));

  // Drain: remaining words in order, then the late one.
  std::vector<std::uint16_t> expect;
  for (unsigned i = 1; i < depth; ++i) expect.push_back(static_cast<std::uint16_t>(0xA000 + i));
  expect.push_back(0xBEEF);
  for (auto w : expect) {
    o = co_await b.cycle({.rready = true});
    tb::check(o.rvalid && o.rdata == w,
              msg(fmt::format("drain order: expected {:#06x}, got valid={} data={:#06x}", w, o.rvalid, o.rdata)));
  }
  o = co_await b.cycle({});
  tb::check(o.empty && !o.rvalid && o.depth == 0, msg("empty again after draining everything"));

  // Push and pop together on an empty FIFO.
  o = co_await b.cycle({.wvalid = true, .wdata = 0x1234, .rready = true});
  if (ft) {
    tb::check(o.rvalid && o.rdata == 0x1234 && o.wready,
              msg("fall-through: push+pop on empty passes the word in the same cycle"));
    o = co_await b.cycle({});
    tb::check(o.empty && o.depth == 0 && !o.rvalid,
              msg("fall-through: a word read in the cycle it was written is not stored"));
  } else {
    tb::check(!o.rvalid && o.wready, msg("registered: nothing to read on an empty FIFO, the push is accepted"));
    o = co_await b.cycle({.rready = true});
    tb::check(o.depth == 1 && o.rvalid && o.rdata == 0x1234,
              msg("registered: the word written on empty is read the next cycle"));
    o = co_await b.cycle({});
    tb::check(o.empty, msg("empty after the read"));
  }

  // Streaming: writer and reader both always ready.
  unsigned pops = 0;
  const unsigned n = 64;
  std::uint16_t next_in = 0x5000, next_out = 0x5000;
  for (unsigned i = 0; i < n; ++i) {
    o = co_await b.cycle({.wvalid = true, .wdata = next_in, .rready = true});
    if (o.wready) ++next_in;
    if (o.rvalid) {
      tb::check(o.rdata == next_out, msg("streaming: words out of order"));
      ++next_out;
      ++pops;
    }
  }
  if (depth >= 2 || ft)
    tb::check(pops >= n - 1,
              msg(fmt::format("streaming must sustain one word per cycle, got {} in {} cycles", pops, n)));
  else  // DEPTH=1 registered: full in every other cycle, and wready ignores rready
    tb::check(pops == n / 2,
              msg(fmt::format("DEPTH=1 streams one word every two cycles, got {} in {} cycles", pops, n)));

  // Flush: fill, then clr with a write and a read requested in the same cycle.
  for (unsigned i = 0; i <= depth + 1 && !o.full; ++i) o = co_await b.cycle({.wvalid = true, .wdata = 0x7777});
  tb::check(o.full, msg("refilling for the clr test never reached full"));
  o = co_await b.cycle({.clr = true, .wvalid = true, .wdata = 0x8888, .rready = true});
  tb::check(!o.wready && !o.rvalid, msg("during clr_i neither side may transfer (wready_o and rvalid_o low)"));
  o = co_await b.cycle({});
  tb::check(o.empty && o.depth == 0 && !o.full && !o.rvalid, msg("the cycle after clr_i the FIFO is empty"));
  // After the flush, fresh words come out first and in order (pointers were reset together).
  for (unsigned i = 0; i < depth; ++i)
    o = co_await b.cycle({.wvalid = true, .wdata = static_cast<std::uint16_t>(0xC000 + i)});
  for (unsigned i = 0; i < depth; ++i) {
    o = co_await b.cycle({.rready = true});
    tb::check(
        o.rvalid && o.rdata == 0xC000 + i,
        msg(fmt::format("after clr: expected {:#06x}, got valid={} data={:#06x}", 0xC000 + i, o.rvalid, o.rdata)));
  }
}

// Transaction-level check with the harness's stream components: no clr, random gaps and
// backpressure; the monitor also checks the read side's valid/ready protocol.
// Catches: lost, duplicated or reordered words independently of the cycle model, and
// rvalid_o dropping or rdata_o changing while the reader stalls.
template <class V>
Task<> stream_scoreboard(tb::Dut<V>& dut) {
  co_await primtb::clock_and_reset(dut, [&] {
    dut->clr_i = 0;
    dut->wvalid_i = 0;
    dut->rready_i = 0;
    dut->wdata_i = 0;
  });
  tb::StreamPorts in{dut->clk_i, dut->wvalid_i, dut->wready_o, dut->rst_ni};
  tb::StreamPorts out{dut->clk_i, dut->rvalid_o, dut->rready_i, dut->rst_ni};
  tb::StreamSource<std::uint16_t> src(
      in, [&](const std::uint16_t& v) { dut->wdata_i = v; }, "src");
  tb::StreamSink sink(out, "sink");
  tb::StreamMonitor<std::uint16_t> rmon(
      out, [&] { return static_cast<std::uint16_t>(dut->rdata_o); }, "rmon");
  tb::Scoreboard<std::uint16_t> sb("fifo");
  rmon.keep_items(false);
  rmon.on_item([&](const std::uint16_t& v) { sb.observe(v); });
  src.start();
  sink.start();
  rmon.start();
  // Three rounds: reader slower, writer slower, both fast.
  const double idle[] = {0.1, 0.6, 0.0};
  const double stall[] = {0.6, 0.1, 0.0};
  const std::uint64_t per_round = tb::scaled(5000, 100000);
  for (int r = 0; r < 3; ++r) {
    src.set_idle_probability(idle[r]);
    sink.set_stall_probability(stall[r]);
    for (std::uint64_t i = 0; i < per_round; ++i) {
      const auto v = static_cast<std::uint16_t>(tb::randint(0, 0xffff));
      src.send(v);
      sb.expect(v);  // a FIFO without clr returns exactly what it was sent, in order
    }
    co_await primtb::wait_idle_or_fail(dut->clk_i, src, per_round * 20);
  }
  sink.set_stall_probability(0);
  co_await tb::ClockCycles(dut->clk_i, 10);
  sb.check_drained();
  primtb::check(sb.matched() == 3 * per_round, "{} words out, {} in", sb.matched(), 3 * per_round);
  tb::check(rmon.stall_cycles() > 0, "the reader's backpressure stalled the FIFO at least once");
}

// Probe between clock edges: flip rready_i and watch wready_o.
// Catches: a combinational path from rready_i to wready_o, which the spec forbids (it would
// make chained FIFOs form long ready chains and combinational loops).
template <class V>
Task<> wready_ignores_rready(tb::Dut<V>& dut, unsigned depth) {
  co_await primtb::clock_and_reset(dut, [&] {
    dut->clr_i = 0;
    dut->wvalid_i = 0;
    dut->rready_i = 0;
    dut->wdata_i = 0;
  });
  primtb::Coverage cov;
  for (int i = 0; i < 2000; ++i) {
    // phases of 250 cycles: mixed traffic, then filling (the reader mostly stalled once rready_i
    // is flipped below), so every depth is probed while full with every seed
    const bool filling = (i / 250) % 2 == 1;
    co_await tb::FallingEdge(dut->clk_i);
    dut->clr_i = !filling && tb::chance(0.02);
    dut->wvalid_i = tb::chance(0.7);
    dut->wdata_i = static_cast<std::uint16_t>(tb::randint(0, 0xffff));
    dut->rready_i = tb::chance(filling ? 0.9 : 0.35);
    co_await tb::Timer(1, "ns");
    const bool before = dut->wready_o;
    const bool was_full = dut->full_o;
    dut->rready_i = !dut->rready_i;
    co_await tb::Timer(1, "ns");
    primtb::check(dut->wready_o == before,
                  "DEPTH={}: wready_o changed from {} when rready_i flipped to {} "
                  "(full_o={})",
                  depth, before, dut->rready_i, was_full);
    cov.hit("probed while full", was_full);
  }
  cov.require("probed while full", 100);
}

constexpr unsigned kDepthD4 = 4, kDepthD3 = 3, kDepthD1 = 1, kDepthRam5 = 5, kDepthRam64 = 64;

}  // namespace

// ---------------------------------------------------------------------------------------
// DEPTH=4, registered output.
TB_TEST(Vprim_fifo_sync_d4, d4_random_traffic) { co_await random_traffic(dut, kDepthD4, false); }
TB_TEST(Vprim_fifo_sync_d4, d4_directed_corners) { co_await directed_corners(dut, kDepthD4, false); }
TB_TEST(Vprim_fifo_sync_d4, d4_stream_scoreboard) { co_await stream_scoreboard(dut); }
TB_TEST(Vprim_fifo_sync_d4, d4_wready_ignores_rready) { co_await wready_ignores_rready(dut, kDepthD4); }

// DEPTH=3, fall-through.
TB_TEST(Vprim_fifo_sync_d3_ft, d3_ft_random_traffic) { co_await random_traffic(dut, kDepthD3, true); }
TB_TEST(Vprim_fifo_sync_d3_ft, d3_ft_directed_corners) { co_await directed_corners(dut, kDepthD3, true); }
TB_TEST(Vprim_fifo_sync_d3_ft, d3_ft_stream_scoreboard) { co_await stream_scoreboard(dut); }
TB_TEST(Vprim_fifo_sync_d3_ft, d3_ft_wready_ignores_rready) { co_await wready_ignores_rready(dut, kDepthD3); }

// DEPTH=1, registered output.
TB_TEST(Vprim_fifo_sync_d1, d1_random_traffic) { co_await random_traffic(dut, kDepthD1, false); }
TB_TEST(Vprim_fifo_sync_d1, d1_directed_corners) { co_await directed_corners(dut, kDepthD1, false); }
TB_TEST(Vprim_fifo_sync_d1, d1_stream_scoreboard) { co_await stream_scoreboard(dut); }
TB_TEST(Vprim_fifo_sync_d1, d1_wready_ignores_rready) { co_await wready_ignores_rready(dut, kDepthD1); }

// prim_fifo_ram (RAM storage, registered output), DEPTH=5 and DEPTH=64.
TB_TEST(Vprim_fifo_ram_d5, ram_d5_random_traffic) { co_await random_traffic(dut, kDepthRam5, false); }
TB_TEST(Vprim_fifo_ram_d5, ram_d5_directed_corners) { co_await directed_corners(dut, kDepthRam5, false); }
TB_TEST(Vprim_fifo_ram_d5, ram_d5_stream_scoreboard) { co_await stream_scoreboard(dut); }
TB_TEST(Vprim_fifo_ram_d5, ram_d5_wready_ignores_rready) { co_await wready_ignores_rready(dut, kDepthRam5); }
TB_TEST(Vprim_fifo_ram_d64, ram_d64_random_traffic) { co_await random_traffic(dut, kDepthRam64, false); }
TB_TEST(Vprim_fifo_ram_d64, ram_d64_directed_corners) { co_await directed_corners(dut, kDepthRam64, false); }
TB_TEST(Vprim_fifo_ram_d64, ram_d64_stream_scoreboard) { co_await stream_scoreboard(dut); }
