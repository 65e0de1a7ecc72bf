// Bench environment for the SLC (rtl/slc/slc.sv), shared by bench_slc.cpp (functional tests)
// and bench_slc_perf.cpp (benchmarks). Works for every SLC model configuration (template on the
// verilated class). Components, all coroutines on the cocotb-compatible harness:
//   Upstream    drives the upstream request port for several logical sources (src ids), each
//               with its own tags (at most one request per tag outstanding, as the protocol
//               requires), random idle cycles; takes responses with random backpressure and
//               matches them to requests by src/tag; a per-request callback at acceptance
//               computes the expected response (the bench's reference model), a checker
//               compares at response time.
//   DnMemory    the downstream memory: the shared agent of tb/mem/mem_agent.hpp (flat sparse
//               memory answering fills and writebacks with random latency, in any order, with
//               random backpressure on both channels; records every request; writes become
//               visible when acknowledged, the weakest ordering the protocol allows the SLC to
//               rely on; no tag reused while outstanding). Adds the SLC's rules: whole-line
//               READs and WRITEs only.
//   RegBus      register reads and writes (spec/registers/slc.yaml through tessera_spec.h).
//   done monitor counts ctrl_done_o pulses and calls a hook per pulse.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "mem_agent.hpp"
#include "mem_protocol.hpp"
#include "slc_ref.hpp"
#include "tb/sim.hpp"
#include "tb/sync.hpp"
#include "tb/test.hpp"
#include "tessera_spec.h"

namespace slctb {

using tb::RisingEdge;
using tb::Task;

// Parameters of the model configurations in rtl/slc/CMakeLists.txt (keep in sync).
struct Params {
  const char* name;
  unsigned size_bytes, ways, mshrs, wbs;
  Geometry geometry() const { return Geometry{size_bytes, ways}; }
  unsigned sets() const { return size_bytes / 64 / ways; }
  unsigned lines() const { return size_bytes / 64; }
};
inline constexpr Params kSmall{"slc_small", 4096, 4, 2, 2};
inline constexpr Params kDefault{"slc_default", 131072, 8, 8, 4};

inline constexpr double kClockNs = 10;

// The current cycle: rising edges since time 0. Derived from simulation time so that every
// coroutine woken by the same edge agrees on it.
inline std::uint64_t cycle_now() { return static_cast<std::uint64_t>(tb::get_sim_time(tb::TimeUnit::ns) / kClockNs); }

template <class... A>
void check(bool cond, fmt::format_string<A...> f, A&&... a) {
  if (!cond) tb::fail(fmt::format(f, std::forward<A>(a)...));
}

inline std::string hex_line(const Line& l) {
  std::string s;
  for (int i = 63; i >= 0; --i) s += fmt::format("{:02x}", l[static_cast<unsigned>(i)]);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Downstream memory: the shared agent (tb/mem/mem_agent.hpp) with the SLC's rules

// The SLC benches default to up to 40 cycles of memory latency (the shared default is 30):
// keeping it keeps every recorded RANDOM_SEED reproducing the same run.
struct MemConfig : tb::mem::MemConfig {
  MemConfig() : tb::mem::MemConfig{.lat_max = 40} {}
};

class DnMemory : public tb::mem::MemAgent {
 public:
  template <class V>
  DnMemory(tb::Dut<V>& dut, MemConfig cfg)
      : MemAgent(tb::mem::MemPorts{dut->clk_i, dut->rst_ni, dut->dn_req_valid_o, dut->dn_req_ready_i, dut->dn_req_o,
                                   dut->dn_rsp_valid_i, dut->dn_rsp_ready_o, dut->dn_rsp_i},
                 tb::mem::MemRequester{.name = "SLC", .src = 0, .clock_ns = kClockNs}, cfg) {}

  std::uint64_t writes() const { return accepted(Op::write); }
  std::uint64_t reads() const { return accepted(Op::read); }

 protected:
  Line initial_line(std::uint32_t line) const override { return slctb::initial_line(line); }
  // The SLC only fills and writes back whole lines.
  void check_request(const Req& r, std::uint64_t) override {
    if (r.op == Op::write)
      check(r.wstrb == ~0ULL, "SLC writeback without all 64 strobes: {}", tb::mem::describe(r));
    else
      check(r.op == Op::read && r.wstrb == 0, "SLC memory request of an unexpected kind: {}", tb::mem::describe(r));
  }
};

// ---------------------------------------------------------------------------------------------
// Upstream requester

struct UpItem {
  Req req;  // src chosen by the test; tag assigned by the driver
  // When the request is first presented (optional): may fill in the payload, e.g. WRITE data
  // chosen against the reference model's state (which cannot change before this request is
  // accepted: the port accepts requests in order).
  std::function<void(Req&)> prepare;
  // At acceptance: returns the expected response (the reference model's prediction).
  std::function<Rsp(const Req&, std::uint64_t cycle)> on_accept;
  // At the response: extra checks / bookkeeping (optional).
  std::function<void(const Req&, const Rsp&, std::uint64_t cycle)> on_rsp;
};

template <class V>
class Upstream {
 public:
  Upstream(tb::Dut<V>& dut, unsigned tags_per_src) : dut_(dut), tags_(tags_per_src) {}
  void set_idle_probability(double p) { idle_p_ = p; }
  void set_rsp_stall_probability(double p) { rsp_stall_ = p; }

  void send(UpItem it) { queue_.push_back(std::move(it)); }
  std::size_t queued() const { return queue_.size() + (presenting_ ? 1 : 0); }
  std::size_t outstanding() const { return out_.size(); }
  bool idle() const { return queue_.empty() && !presenting_ && out_.empty(); }
  std::uint64_t accepted() const { return accepted_; }
  std::uint64_t responses() const { return responses_; }
  // Called at every acceptance (after on_accept), e.g. to check the acceptance is allowed.
  void on_any_accept(std::function<void(const Req&, std::uint64_t)> cb) { on_any_accept_ = std::move(cb); }

  void start() { task_ = tb::start_soon(run().named("tb.upstream")); }

  Task<> wait_idle(std::uint64_t max_cycles, const char* what = "upstream traffic") {
    for (std::uint64_t c = 0; !idle(); ++c) {
      check(c < max_cycles, "{}: {} queued, {} outstanding after {} cycles: the SLC stopped making progress", what,
            queued(), outstanding(), max_cycles);
      co_await RisingEdge(dut_->clk_i);
    }
  }

 private:
  struct Out {
    Req req;
    Rsp expect;
    std::function<void(const Req&, const Rsp&, std::uint64_t)> on_rsp;
    std::uint64_t accept_cycle;
  };
  static unsigned key(std::uint8_t src, std::uint8_t tag) { return (unsigned{src} << 8) | tag; }

  Task<> run() {
    tb::write(dut_->up_req_valid_i, 0);
    tb::write(dut_->up_rsp_ready_i, 1);
    while (true) {
      co_await RisingEdge(dut_->clk_i);
      const std::uint64_t cyc = cycle_now();
      if (!dut_->rst_ni) continue;
      if (presenting_ && dut_->up_req_ready_o) {
        UpItem& it = queue_.front();
        Out o;
        o.req = cur_;
        o.expect = it.on_accept ? it.on_accept(cur_, cyc) : Rsp{cur_.op, false, cur_.src, cur_.tag, {}};
        o.on_rsp = std::move(it.on_rsp);
        o.accept_cycle = cyc;
        out_.emplace(key(cur_.src, cur_.tag), std::move(o));
        if (on_any_accept_) on_any_accept_(cur_, cyc);
        queue_.pop_front();
        presenting_ = false;
        ++accepted_;
      }
      if (dut_->up_rsp_valid_o && dut_->up_rsp_ready_i) {
        const Rsp r = tb::mem::unpack_rsp(tb::mem::read_port(tb::SignalRef(dut_->up_rsp_o), tb::mem::kRspW));
        auto it = out_.find(key(r.src, r.tag));
        check(it != out_.end(), "response for src {} tag {} with nothing outstanding: {}", r.src, r.tag,
              tb::mem::describe(r));
        const Out& o = it->second;
        check(r.op == o.expect.op && r.err == o.expect.err,
              "response to {} (accepted at cycle {}): got op {} err {}, expected op {} err {}",
              tb::mem::describe(o.req), o.accept_cycle, tb::mem::to_string(r.op), r.err,
              tb::mem::to_string(o.expect.op), o.expect.err);
        if (r.op == Op::read && !r.err) {
          check(r.rdata == o.expect.rdata, "READ data mismatch for {} (accepted at cycle {}):\n  got      {}\n  expected {}",
                tb::mem::describe(o.req), o.accept_cycle, hex_line(r.rdata), hex_line(o.expect.rdata));
        } else {
          check(r.rdata == Line{}, "non-READ response with rdata != 0: {}", tb::mem::describe(r));
        }
        if (o.on_rsp) o.on_rsp(o.req, r, cyc);
        out_.erase(it);
        ++responses_;
      }
      if (!presenting_ && !queue_.empty() && !(idle_p_ > 0 && tb::chance(idle_p_))) {
        Req r = queue_.front().req;
        std::optional<unsigned> tag;
        for (unsigned t = 0; t < tags_; ++t)
          if (!out_.count(key(r.src, static_cast<std::uint8_t>(t)))) {
            tag = t;
            break;
          }
        if (tag) {
          r.tag = static_cast<std::uint8_t>(*tag);
          if (queue_.front().prepare) queue_.front().prepare(r);
          cur_ = r;
          presenting_ = true;
          const tb::mem::Bits b = tb::mem::pack(r);
          tb::defer([this, b] { tb::mem::write_port(tb::SignalRef(dut_->up_req_i), b); });
        }
      }
      tb::write(dut_->up_req_valid_i, presenting_ ? 1 : 0);
      tb::write(dut_->up_rsp_ready_i, (rsp_stall_ > 0 && tb::chance(rsp_stall_)) ? 0 : 1);
    }
  }

  tb::Dut<V>& dut_;
  unsigned tags_;
  double idle_p_ = 0, rsp_stall_ = 0;
  std::deque<UpItem> queue_;
  std::map<unsigned, Out> out_;
  bool presenting_ = false;
  Req cur_{};
  std::uint64_t accepted_ = 0, responses_ = 0;
  std::function<void(const Req&, std::uint64_t)> on_any_accept_;
  tb::RunningTask<void> task_;
};

// ---------------------------------------------------------------------------------------------
// The whole environment

template <class V>
class SlcEnv {
 public:
  SlcEnv(tb::Dut<V>& dut, Params p, MemConfig mc = {}, unsigned tags_per_src = 4)
      : mem(dut, mc), up(dut, tags_per_src), dut_(dut), p_(p) {}

  tb::Dut<V>& dut() { return dut_; }
  const Params& params() const { return p_; }
  std::uint64_t cycle() const { return cycle_now(); }
  std::uint64_t done_pulses() const { return done_pulses_; }
  // Called at every ctrl_done_o pulse (the edge that samples it high).
  void on_done(std::function<void(std::uint64_t)> cb) { on_done_ = std::move(cb); }

  // Clock, reset, start every component, wait for the tag-array initialisation to finish.
  Task<> start() {
    dut_->rst_ni = 0;
    dut_->up_req_valid_i = 0;
    dut_->up_rsp_ready_i = 0;
    dut_->dn_req_ready_i = 0;
    dut_->dn_rsp_valid_i = 0;
    dut_->reg_req_valid_i = 0;
    tb::Clock(dut_->clk_i, kClockNs, "ns").start();
    co_await tb::ClockCycles(dut_->clk_i, 3);
    tb::write(dut_->rst_ni, 1);
    mon_task_ = tb::start_soon(monitor().named("tb.slcmon"));
    mem.start();
    up.start();
    co_await RisingEdge(dut_->clk_i);
    // STATUS.busy stays high while the tag RAM is initialised (one set per cycle).
    for (unsigned c = 0;; ++c) {
      const std::uint32_t st = co_await reg_read(TS_SLC_STATUS_OFFSET);
      if (!(st & TS_SLC_STATUS_BUSY_MASK)) break;
      check(c < p_.sets() + 50, "STATUS.busy still set {} cycles after reset", c);
    }
  }

  // ---- register bus ----------------------------------------------------------------------
  struct RegRsp {
    bool err;
    std::uint32_t data;
    std::uint64_t accept_cycle;
  };
  Task<RegRsp> reg_access(std::uint32_t off, bool we, std::uint32_t wdata) {
    co_await lock_.acquire();
    const std::uint64_t req = (std::uint64_t{off & 0xffffU} << 33) | (std::uint64_t{we ? 1U : 0U} << 32) | wdata;
    tb::write(dut_->reg_req_i, req);
    tb::write(dut_->reg_req_valid_i, 1);
    std::uint64_t accept = 0;
    for (unsigned c = 0;; ++c) {
      co_await RisingEdge(dut_->clk_i);
      if (dut_->reg_req_valid_i && dut_->reg_req_ready_o) {
        accept = cycle_now();
        break;
      }
      check(c < 1000, "register bus: request to offset 0x{:x} never accepted", off);
    }
    tb::write(dut_->reg_req_valid_i, 0);
    RegRsp r{};
    for (unsigned c = 0;; ++c) {
      co_await RisingEdge(dut_->clk_i);
      if (dut_->reg_rsp_valid_o) {
        r.err = ((dut_->reg_rsp_o >> 32) & 1U) != 0;
        r.data = static_cast<std::uint32_t>(dut_->reg_rsp_o);
        break;
      }
      check(c < 1000, "register bus: no response to offset 0x{:x}", off);
    }
    r.accept_cycle = accept;
    lock_.release();
    co_return r;
  }
  Task<std::uint32_t> reg_read(std::uint32_t off) {
    const RegRsp r = co_await reg_access(off, false, 0);
    check(!r.err, "register read of offset 0x{:x} answered err", off);
    co_return r.data;
  }
  Task<> reg_write(std::uint32_t off, std::uint32_t v) {
    const RegRsp r = co_await reg_access(off, true, v);
    check(!r.err, "register write of 0x{:x} to offset 0x{:x} answered err", v, off);
  }

  // Issue a maintenance command (CMD write); returns the register response (err = dropped).
  Task<RegRsp> command(unsigned op, std::uint8_t dsid = 0) {
    co_return co_await reg_access(TS_SLC_CMD_OFFSET, true, TS_SLC_CMD_OP_PUT(op) | TS_SLC_CMD_DSID_PUT(dsid));
  }
  // Wait until `n` more done pulses than `base` have been seen.
  Task<> wait_done(std::uint64_t target, std::uint64_t max_cycles = 200000) {
    for (std::uint64_t c = 0; done_pulses_ < target; ++c) {
      check(c < max_cycles, "maintenance command not completed after {} cycles ({} of {} done pulses)", max_cycles,
            done_pulses_, target);
      co_await RisingEdge(dut_->clk_i);
    }
  }
  // Issue a command and wait for its completion; returns the cycles from the CMD write's
  // acceptance to the done pulse.
  Task<std::uint64_t> run_command(unsigned op, std::uint8_t dsid = 0) {
    const std::uint64_t target = done_pulses_ + 1;
    const RegRsp r = co_await command(op, dsid);
    check(!r.err, "CMD write (op {}, dsid {}) answered err", op, dsid);
    co_await wait_done(target);
    co_return last_done_cycle_ - r.accept_cycle;
  }

  Task<Counters> read_counters() {
    Counters c{};
    for (unsigned i = 0; i < kNumCnt; ++i) c[i] = co_await reg_read(TS_SLC_CNT_READS_OFFSET + 4 * i);
    co_return c;
  }
  Task<unsigned> occupancy(std::uint8_t dsid) {
    co_await reg_write(TS_SLC_OCC_SEL_OFFSET, dsid);
    co_return TS_SLC_OCC_LINES_GET(co_await reg_read(TS_SLC_OCC_OFFSET));
  }

  // ---- upstream helpers -------------------------------------------------------------------
  // Send one request and wait for its response (serialized traffic).
  Task<Rsp> transact(Req r, std::function<Rsp(const Req&, std::uint64_t)> expect = {}, std::uint64_t max_cycles = 20000) {
    std::optional<Rsp> got;
    UpItem it;
    it.req = r;
    it.on_accept = std::move(expect);
    it.on_rsp = [&got](const Req&, const Rsp& rsp, std::uint64_t) { got = rsp; };
    up.send(std::move(it));
    for (std::uint64_t c = 0; !got; ++c) {
      check(c < max_cycles, "no response to {} after {} cycles", tb::mem::describe(r), max_cycles);
      co_await RisingEdge(dut_->clk_i);
    }
    co_return *got;
  }
  // Wait until the memory system is quiet: no upstream request in flight, no memory request
  // pending, no memory response outstanding, for a few cycles.
  Task<> quiesce(std::uint64_t max_cycles = 20000) {
    unsigned quiet = 0;
    for (std::uint64_t c = 0; quiet < 8; ++c) {
      check(c < max_cycles, "SLC not quiet after {} cycles ({} upstream in flight, {} memory responses pending)",
            max_cycles, up.queued() + up.outstanding(), mem.outstanding());
      co_await RisingEdge(dut_->clk_i);
      quiet = (up.idle() && mem.outstanding() == 0 && !dut_->dn_req_valid_o) ? quiet + 1 : 0;
    }
  }

  DnMemory mem;
  Upstream<V> up;

 private:
  Task<> monitor() {
    while (true) {
      co_await RisingEdge(dut_->clk_i);
      if (dut_->ctrl_done_o) {
        ++done_pulses_;
        last_done_cycle_ = cycle_now();
        if (on_done_) on_done_(last_done_cycle_);
      }
    }
  }

  tb::Dut<V>& dut_;
  Params p_;
  tb::Lock lock_;
  std::uint64_t done_pulses_ = 0, last_done_cycle_ = 0;
  std::function<void(std::uint64_t)> on_done_;
  tb::RunningTask<void> mon_task_;
};

// Request builders.
inline Req rd(std::uint32_t addr, std::uint8_t src = 0) {
  Req r;
  r.op = Op::read;
  r.addr = addr;
  r.src = src;
  return r;
}
inline Req pf(std::uint32_t addr, std::uint8_t src = 0) {
  Req r = rd(addr, src);
  r.op = Op::prefetch;
  return r;
}
inline Req wr(std::uint32_t addr, std::uint8_t dsid, const Line& data, std::uint64_t strb = ~0ULL, std::uint8_t src = 0) {
  Req r;
  r.op = Op::write;
  r.addr = addr;
  r.dsid = dsid;
  r.wdata = data;
  r.wstrb = strb;
  r.src = src;
  return r;
}
inline Line random_line() {
  Line l{};
  for (auto& b : l) b = static_cast<std::uint8_t>(tb::randint(0, 255));
  return l;
}

}  // namespace slctb
