// Bench environment for the CCHE (rtl/ccche/ccche.sv, docs/ccche.md). Components, all
// coroutines on the cocotb-compatible harness:
//   Clients     drives every client port from one coroutine: per port a queue of requests,
//               its own tags (at most one request per tag outstanding, as the protocol
//               requires), its own src, random idle cycles, random response backpressure.
//               At acceptance a per-request callback computes the expected response (the
//               reference); the response is matched by port and tag and compared.
//   DnMemory    the downstream memory: the shared agent of tb/mem/mem_agent.hpp (flat sparse
//               memory, random latency, any order, random backpressure on both channels; a
//               write lands only when it is acknowledged, a read returns the data as of its
//               acceptance: the weakest ordering the CCHE is built to tolerate). Lines in
//               error_lines() are answered err (READ, PREFETCH, forwarded WRITE). Adds the
//               CCHE's side of the protocol: writebacks with all strobes, at most NUM_MSHR
//               fills (tags {2'b00, mshr}) and one forward (tag 0x40) in flight, no two fills
//               of one line in flight, rsp_ready always high.
//   Maint       the maintenance requester: raises maint_req_i (with maint_inv_i), waits for
//               the maint_done_o pulse, lowers the request; a monitor checks every pulse
//               belongs to a request and that no new request is accepted meanwhile.
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

#include "ccche_ref.hpp"
#include "mem_agent.hpp"
#include "mem_protocol.hpp"
#include "tb/sim.hpp"
#include "tb/sync.hpp"
#include "tb/test.hpp"

namespace cctb {

using tb::RisingEdge;
using tb::Task;

// Parameters of the model configuration in rtl/ccche/CMakeLists.txt (keep in sync).
struct Params {
  unsigned ports = 2, lines = 64, ways = 4, nwb = 2, nmshr = 8;
  Geometry geometry() const { return Geometry{lines, ways}; }
};
inline constexpr Params kDefault{};

inline constexpr double kClockNs = 10;
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
inline Line random_line() {
  Line l{};
  for (auto& b : l) b = static_cast<std::uint8_t>(tb::randint(0, 255));
  return l;
}

// Request builders.
inline Req rd(std::uint32_t addr, std::uint8_t dsid = 0) {
  Req r;
  r.op = Op::read;
  r.addr = addr;
  r.dsid = dsid;
  return r;
}
inline Req pf(std::uint32_t addr) {
  Req r = rd(addr);
  r.op = Op::prefetch;
  return r;
}
inline Req wr(std::uint32_t addr, std::uint8_t dsid, const Line& data, std::uint64_t strb = ~0ULL) {
  Req r;
  r.op = Op::write;
  r.addr = addr;
  r.dsid = dsid;
  r.wdata = data;
  r.wstrb = strb;
  return r;
}

// ---------------------------------------------------------------------------------------------
// Downstream memory: the shared agent (tb/mem/mem_agent.hpp) with the CCHE's rules

using tb::mem::MemConfig;

class DnMemory : public tb::mem::MemAgent {
 public:
  template <class V>
  DnMemory(tb::Dut<V>& dut, MemConfig cfg, unsigned nwb, unsigned nmshr)
      : MemAgent(tb::mem::MemPorts{dut->clk_i, dut->rst_ni, dut->mem_req_valid_o, dut->mem_req_ready_i,
                                   dut->mem_req_o, dut->mem_rsp_valid_i, dut->mem_rsp_ready_o, dut->mem_rsp_i},
                 tb::mem::MemRequester{.name = "CCHE", .src = 0, .clock_ns = kClockNs, .rsp_ready_always = true},
                 cfg),
        nwb_(nwb),
        nmshr_(nmshr) {}

  std::uint64_t writebacks() const { return wbs_; }
  std::uint64_t fills() const { return accepted(Op::read); }  // a READ that is no fill fails its check
  std::uint64_t forwards() const { return fwds_; }
  // Most fills seen in flight at once (accepted, response not yet taken).
  unsigned max_fills_in_flight() const { return max_fills_; }

 protected:
  Line initial_line(std::uint32_t line) const override { return cctb::initial_line(line); }
  // Error lines refuse fills and forwarded requests only: a writeback answered err loses its
  // data (docs/ccche.md), which the bench's reference model does not follow.
  bool answers_error(const Req& r) const override {
    return !is_writeback(r) && error_lines().count(r.addr >> 6) != 0;
  }

  // Tags: fills {2'b00, mshr}, the one forward 0x40, writebacks {1, slot}.
  void check_request(const Req& r, std::uint64_t) override {
    const std::uint32_t line = r.addr >> 6;
    const bool wb = is_writeback(r);
    unsigned wb_out = wb ? 1 : 0, fwd_out = r.tag == 0x40 ? 1 : 0;
    unsigned fill_out = (!wb && r.tag != 0x40) ? 1 : 0;
    for_each_in_flight([&](const Req& q) {
      // The CCHE's ordering rule (docs/ccche.md): no request to a line whose writeback is
      // unanswered. Over this memory (writes land at acknowledge) breaking it can lose data.
      check(!(is_writeback(q) && (q.addr >> 6) == line), "{} sent while the writeback of its line is unanswered",
            tb::mem::describe(r));
      // Two fills of one line in flight: the line would be allocated twice.
      check(!(!wb && r.op == Op::read && q.op == Op::read && !is_writeback(q) && (q.addr >> 6) == line),
            "{} sent while a fill of its line is in flight", tb::mem::describe(r));
      ((q.tag & 0x80U) ? wb_out : (q.tag == 0x40 ? fwd_out : fill_out)) += 1;
    });
    if (!wb) {
      if (r.op == Op::read)
        check(r.tag < nmshr_, "fill with tag 0x{:02x}: not an MSHR index (NUM_MSHR {})", r.tag, nmshr_);
      else
        check(r.tag == 0x40, "forwarded request with tag 0x{:02x}, 0x40 expected: {}", r.tag, tb::mem::describe(r));
    }
    check(wb_out <= nwb_, "{} writebacks outstanding, NUM_WB is {}", wb_out, nwb_);
    check(fill_out <= nmshr_, "{} fills outstanding, NUM_MSHR is {}", fill_out, nmshr_);
    check(fwd_out <= 1, "{} forwards outstanding: forwarding is blocking", fwd_out);
    max_fills_ = std::max(max_fills_, fill_out);
    if (wb) {
      check(r.op == Op::write && r.wstrb == ~0ULL, "writeback (tag bit 7) that is not a full-line WRITE: {}",
            tb::mem::describe(r));
      ++wbs_;
    } else if (r.op == Op::read) {
      check(r.wstrb == 0, "fill with strobes: {}", tb::mem::describe(r));
    } else {
      ++fwds_;
      check(r.op == Op::prefetch ? r.wstrb == 0 : r.wstrb != ~0ULL,
            "forwarded request of an unexpected kind (a full-line WRITE is never forwarded): {}", tb::mem::describe(r));
    }
  }

 private:
  static bool is_writeback(const Req& r) { return (r.tag & 0x80U) != 0; }

  unsigned nwb_, nmshr_;
  unsigned max_fills_ = 0;
  std::uint64_t wbs_ = 0, fwds_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Client ports

struct Item {
  Req req;  // tag and src are assigned by the port driver
  // When the request is first presented (optional): may fill in the payload against the
  // reference's state, e.g. WRITE data that changes the line.
  std::function<void(Req&)> prepare;
  // At acceptance: the expected response (the reference's prediction).
  std::function<Rsp(const Req&, std::uint64_t cycle)> on_accept;
  // At the response: extra checks / bookkeeping (optional).
  std::function<void(const Req&, const Rsp&, std::uint64_t cycle)> on_rsp;
};

template <class V>
class Clients {
 public:
  Clients(tb::Dut<V>& dut, unsigned nports, unsigned tags) : dut_(dut), ports_(nports), tags_(tags) {}
  void set_idle_probability(double p) { idle_p_ = p; }
  void set_rsp_stall_probability(double p) { rsp_stall_ = p; }
  // The src a port's requests carry (returned as given).
  static std::uint8_t src_of(unsigned port) { return static_cast<std::uint8_t>(3 + 7 * port); }

  void send(unsigned port, Item it) { ports_[port].queue.push_back(std::move(it)); }
  std::size_t queued(unsigned port) const { return ports_[port].queue.size(); }
  std::size_t outstanding() const {
    std::size_t n = 0;
    for (const auto& p : ports_) n += p.out.size();
    return n;
  }
  bool idle() const {
    for (const auto& p : ports_)
      if (!p.queue.empty() || p.presenting || !p.out.empty()) return false;
    return true;
  }
  std::uint64_t accepted() const { return accepted_; }
  std::uint64_t responses() const { return responses_; }
  // Latency statistics: acceptance to response hand-over, in cycles.
  std::uint64_t latency_sum() const { return lat_sum_; }
  std::uint64_t latency_max() const { return lat_max_; }
  // Called at every acceptance with the cycle the request was first presented.
  void on_any_accept(std::function<void(unsigned, const Req&, std::uint64_t, std::uint64_t)> cb) {
    on_any_accept_ = std::move(cb);
  }

  void start() { task_ = tb::start_soon(run().named("tb.clients")); }

  Task<> wait_idle(std::uint64_t max_cycles, const char* what = "client traffic") {
    for (std::uint64_t c = 0; !idle(); ++c) {
      check(c < max_cycles, "{}: {} outstanding after {} cycles: the CCHE stopped making progress", what,
            outstanding(), max_cycles);
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
  struct Port {
    std::deque<Item> queue;
    std::map<unsigned, Out> out;  // by tag
    bool presenting = false;
    Req cur{};
    std::uint64_t present_cycle = 0;
  };

  Task<> run() {
    tb::write(dut_->cl_req_valid_i, 0);
    tb::write(dut_->cl_rsp_ready_i, 0);
    while (true) {
      co_await RisingEdge(dut_->clk_i);
      const std::uint64_t cyc = cycle_now();
      if (!dut_->rst_ni) continue;
      const std::uint64_t vld = dut_->cl_req_valid_i, rdy = dut_->cl_req_ready_o;
      const std::uint64_t rvld = dut_->cl_rsp_valid_o, rrdy = dut_->cl_rsp_ready_i;
      unsigned accepts = 0;
      for (unsigned p = 0; p < ports_.size(); ++p) {
        Port& pt = ports_[p];
        check(((rdy >> p) & 1U) == 0 || ((vld >> p) & 1U) == 1, "cl_req_ready_o[{}] high without valid", p);
        if (pt.presenting && ((rdy >> p) & 1U)) {
          ++accepts;
          Item& it = pt.queue.front();
          Out o;
          o.req = pt.cur;
          o.expect = it.on_accept ? it.on_accept(pt.cur, cyc) : Rsp{pt.cur.op, false, pt.cur.src, pt.cur.tag, {}};
          o.on_rsp = std::move(it.on_rsp);
          o.accept_cycle = cyc;
          pt.out.emplace(pt.cur.tag, std::move(o));
          if (on_any_accept_) on_any_accept_(p, pt.cur, cyc, pt.present_cycle);
          pt.queue.pop_front();
          pt.presenting = false;
          ++accepted_;
        }
      }
      // One lookup per cycle: requests to a line are performed in acceptance order, which
      // the flat reference relies on (responses may come back in any order).
      check(accepts <= 1, "{} requests accepted in one cycle", accepts);
      for (unsigned p = 0; p < ports_.size(); ++p) {
        Port& pt = ports_[p];
        if (!((rvld >> p) & 1U) || !((rrdy >> p) & 1U)) continue;
        const Rsp r = tb::mem::unpack_rsp(tb::mem::read_port(tb::SignalRef(dut_->cl_rsp_o), tb::mem::kRspW, p));
        auto it = pt.out.find(r.tag);
        check(it != pt.out.end(), "port {}: response with tag {} and nothing outstanding: {}", p, r.tag,
              tb::mem::describe(r));
        const Out& o = it->second;
        check(r.src == o.req.src, "port {}: response src {} for a request with src {}", p, r.src, o.req.src);
        check(r.op == o.expect.op && r.err == o.expect.err,
              "port {}: response to {} (accepted at cycle {}): got op {} err {}, expected op {} err {}", p,
              tb::mem::describe(o.req), o.accept_cycle, static_cast<unsigned>(r.op), r.err,
              static_cast<unsigned>(o.expect.op), o.expect.err);
        if (r.op == Op::read && !r.err) {
          check(r.rdata == o.expect.rdata, "port {}: READ data mismatch for {} (accepted at cycle {}):\n  got      {}\n  expected {}",
                p, tb::mem::describe(o.req), o.accept_cycle, hex_line(r.rdata), hex_line(o.expect.rdata));
        } else {
          check(r.rdata == Line{}, "port {}: response without READ data has rdata != 0: {}", p, tb::mem::describe(r));
        }
        const std::uint64_t lat = cyc - o.accept_cycle;
        lat_sum_ += lat;
        lat_max_ = std::max(lat_max_, lat);
        if (o.on_rsp) o.on_rsp(o.req, r, cyc);
        pt.out.erase(it);
        ++responses_;
      }
      // Next cycle's requests.
      std::uint64_t valid = 0, ready = 0;
      for (unsigned p = 0; p < ports_.size(); ++p) {
        Port& pt = ports_[p];
        if (!pt.presenting && !pt.queue.empty() && !(idle_p_ > 0 && tb::chance(idle_p_))) {
          std::optional<unsigned> tag;
          for (unsigned t = 0; t < tags_; ++t)
            if (!pt.out.count(t)) {
              tag = t;
              break;
            }
          if (tag) {
            Req r = pt.queue.front().req;
            r.tag = static_cast<std::uint8_t>(*tag);
            r.src = src_of(p);
            if (pt.queue.front().prepare) pt.queue.front().prepare(r);
            pt.cur = r;
            pt.presenting = true;
            pt.present_cycle = cyc;
            const tb::mem::Bits b = tb::mem::pack(r);
            tb::defer([this, b, p] { tb::mem::write_port(tb::SignalRef(dut_->cl_req_i), b, p); });
          }
        }
        if (pt.presenting) valid |= 1ULL << p;
        if (!(rsp_stall_ > 0 && tb::chance(rsp_stall_))) ready |= 1ULL << p;
      }
      tb::write(dut_->cl_req_valid_i, valid);
      tb::write(dut_->cl_rsp_ready_i, ready);
    }
  }

  tb::Dut<V>& dut_;
  std::vector<Port> ports_;
  unsigned tags_;
  double idle_p_ = 0, rsp_stall_ = 0;
  std::uint64_t accepted_ = 0, responses_ = 0, lat_sum_ = 0, lat_max_ = 0;
  std::function<void(unsigned, const Req&, std::uint64_t, std::uint64_t)> on_any_accept_;
  tb::RunningTask<void> task_;
};

// ---------------------------------------------------------------------------------------------
// The whole environment

template <class V>
class CcheEnv {
 public:
  CcheEnv(tb::Dut<V>& dut, Params p = kDefault, MemConfig mc = {}, unsigned tags = 4)
      : mem(dut, mc, p.nwb, p.nmshr), clients(dut, p.ports, tags), dut_(dut), p_(p) {}

  tb::Dut<V>& dut() { return dut_; }
  const Params& params() const { return p_; }
  std::uint64_t done_pulses() const { return done_pulses_; }
  bool maint_active() const { return maint_active_; }
  // Called at every maint_done_o pulse (the edge that samples it high).
  void on_done(std::function<void(bool inv, std::uint64_t cycle)> cb) { on_done_ = std::move(cb); }

  Task<> start() {
    dut_->rst_ni = 0;
    dut_->cl_req_valid_i = 0;
    dut_->cl_rsp_ready_i = 0;
    dut_->mem_req_ready_i = 0;
    dut_->mem_rsp_valid_i = 0;
    dut_->maint_req_i = 0;
    dut_->maint_inv_i = 0;
    tb::Clock(dut_->clk_i, kClockNs, "ns").start();
    co_await tb::ClockCycles(dut_->clk_i, 3);
    tb::write(dut_->rst_ni, 1);
    // No new request may be accepted while a maintenance request is up: only the one
    // request whose miss was already being worked on (presented before the rise).
    clients.on_any_accept([this](unsigned port, const Req& r, std::uint64_t cyc, std::uint64_t presented) {
      if (!dut_->maint_req_i) return;
      check(presented < maint_rise_ && ++maint_accepts_ <= 1,
            "port {}: {} (presented at cycle {}) accepted at cycle {} during maintenance requested at cycle {}", port,
            tb::mem::describe(r), presented, cyc, maint_rise_);
    });
    mon_task_ = tb::start_soon(monitor().named("tb.maintmon"));
    mem.start();
    clients.start();
    co_await RisingEdge(dut_->clk_i);
  }

  // One maintenance request: raise maint_req_i, wait for the done pulse, lower it after
  // `hold` cycles. Returns the cycles from the rise to the pulse.
  Task<std::uint64_t> maintain(bool inv, unsigned hold = 0, std::uint64_t max_cycles = 50000) {
    check(!maint_active_, "maintenance requested twice");
    maint_active_ = true;
    const std::uint64_t target = done_pulses_ + 1;
    tb::write(dut_->maint_inv_i, inv ? 1 : 0);
    tb::write(dut_->maint_req_i, 1);
    maint_rise_ = cycle_now();
    maint_accepts_ = 0;
    maint_inv_ = inv;
    for (std::uint64_t c = 0; done_pulses_ < target; ++c) {
      check(c < max_cycles, "maintenance (inv {}) not done after {} cycles", inv, max_cycles);
      co_await RisingEdge(dut_->clk_i);
    }
    const std::uint64_t lat = last_done_ - maint_rise_;
    if (hold > 0) co_await tb::ClockCycles(dut_->clk_i, hold);
    tb::write(dut_->maint_req_i, 0);
    tb::write(dut_->maint_inv_i, static_cast<std::uint64_t>(tb::randint(0, 1)));  // don't care while low
    co_await RisingEdge(dut_->clk_i);
    maint_active_ = false;
    co_return lat;
  }

  // Send one request on a port and wait for its response.
  Task<Rsp> transact(unsigned port, Req r, std::function<Rsp(const Req&, std::uint64_t)> expect = {},
                     std::uint64_t max_cycles = 20000) {
    std::optional<Rsp> got;
    Item it;
    it.req = r;
    it.on_accept = std::move(expect);
    it.on_rsp = [&got](const Req&, const Rsp& rsp, std::uint64_t) { got = rsp; };
    clients.send(port, std::move(it));
    for (std::uint64_t c = 0; !got; ++c) {
      check(c < max_cycles, "no response to {} on port {} after {} cycles", tb::mem::describe(r), port, max_cycles);
      co_await RisingEdge(dut_->clk_i);
    }
    co_return *got;
  }
  // Wait until nothing is in flight anywhere for a few cycles (counters settled too).
  Task<> quiesce(std::uint64_t max_cycles = 20000) {
    unsigned quiet = 0;
    for (std::uint64_t c = 0; quiet < 6; ++c) {
      check(c < max_cycles, "CCHE not quiet after {} cycles ({} client requests in flight, {} memory responses pending)",
            max_cycles, clients.outstanding(), mem.outstanding());
      co_await RisingEdge(dut_->clk_i);
      quiet = (clients.idle() && mem.outstanding() == 0 && !dut_->mem_req_valid_o) ? quiet + 1 : 0;
    }
  }
  Counts counters() const {
    return Counts{dut_->cnt_hits_o, dut_->cnt_misses_o, dut_->cnt_writebacks_o, dut_->cnt_fills_o};
  }

  DnMemory mem;
  Clients<V> clients;

 private:
  Task<> monitor() {
    while (true) {
      co_await RisingEdge(dut_->clk_i);
      if (!dut_->rst_ni || !dut_->maint_done_o) continue;
      check(maint_active_ && dut_->maint_req_i, "maint_done_o pulse without a maintenance request");
      check(last_done_ != cycle_now() - 1 || done_pulses_ == 0, "maint_done_o high for more than one cycle");
      // Done means: every accepted request answered, every writeback answered.
      check(clients.outstanding() == 0, "maint_done_o with {} client requests unanswered", clients.outstanding());
      check(mem.outstanding() == 0, "maint_done_o with {} memory requests unanswered", mem.outstanding());
      ++done_pulses_;
      last_done_ = cycle_now();
      if (on_done_) on_done_(maint_inv_, last_done_);
    }
  }

  tb::Dut<V>& dut_;
  Params p_;
  bool maint_active_ = false, maint_inv_ = false;
  std::uint64_t maint_rise_ = 0, done_pulses_ = 0, last_done_ = 0;
  unsigned maint_accepts_ = 0;
  std::function<void(bool, std::uint64_t)> on_done_;
  tb::RunningTask<void> mon_task_;
};

}  // namespace cctb
