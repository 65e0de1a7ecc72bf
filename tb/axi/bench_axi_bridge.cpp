// Bench for mem_axi_bridge (rtl/axi/mem_axi_bridge.sv) with the C++ DRAM model behind its
// AXI4 port (sim/dram) and an AxiProtocolChecker watching that port.
//
// Reference model (from the internal protocol's rules, tessera_mem_pkg.sv, and the bridge's
// header): a flat byte-addressed memory updated in request-acceptance order. Every request
// gets exactly one response carrying its src and tag; READ returns the flat memory's line as
// of its acceptance, WRITE merges wdata under wstrb, PREFETCH returns no data; misaligned
// addresses, strobes on READ/PREFETCH and op 3 are answered err=1 and never reach AXI; an
// address the DRAM answers with SLVERR/DECERR gives err=1 (READ data 0, WRITE ignored).
//
// Configurations (rtl/axi/CMakeLists.txt; the constants below must match):
//   Vaxi_bridge        ID_W=6, MAX_RD=48, MAX_WR=48
//   Vaxi_bridge_small  ID_W=3, MAX_RD=3,  MAX_WR=2
// Rerun: RANDOM_SEED=<n> TESTCASE=<name> build/tb/axi/bench_axi_bridge (WAVES=1 for an FST).
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "Vaxi_bridge.h"
#include "Vaxi_bridge_small.h"
#include "dram_agent.hpp"
#include "mem_protocol.hpp"
#include "tb/coverage.hpp"
#include "tb/sim.hpp"
#include "tb/test.hpp"
#include "tessera/sim/axi_checker.hpp"
#include "tessera/sim/dram_model.hpp"

using tb::RisingEdge;
using tb::Task;
using tb::mem::Line;
using tb::mem::Op;
using tb::mem::Req;
using tb::mem::Rsp;
namespace ts = tessera::sim;

namespace {

struct BridgeParams {
  unsigned id_w, max_rd, max_wr;
};
constexpr BridgeParams kBig{6, 48, 48};
constexpr BridgeParams kSmall{3, 3, 2};
// Internal-port latency of an unloaded READ or WRITE: DRAM latency + this (1 cycle in the AR
// register, 1 in the R buffer; docs/axi-and-dram.md).
constexpr unsigned kBridgeOverhead = 2;

std::uint16_t key_of(unsigned src, unsigned tag) { return static_cast<std::uint16_t>((src << 8) | tag); }

// Traffic mix of the random generator.
struct Mix {
  double p_read = 0.42, p_write = 0.42, p_prefetch = 0.08;  // rest: locally rejected requests
  double p_hot = 0.75;        // address from the small hot set (same-line hazards)
  double idle = 0.2;          // probability of no request in a cycle
  unsigned hot_lines = 24;
};

using Coverage = tb::Coverage;  // functional coverage tally (tb/coverage.hpp)

template <class V>
class Bench {
 public:
  Bench(tb::Dut<V>& dut, BridgeParams p, ts::DramConfig dc)
      : dut_(dut),
        p_(p),
        dram_(std::move(dc)),
        chk_(checker_config(p)),
        agent_(dut.top(), dut->clk_i, dut->rst_ni, dram_, &chk_) {
    for (std::uint32_t a : {0x0U, 0x40U, 0xFFFFFFC0U, 0xFFFFFF80U}) hot_.push_back(a);
  }

  // The cycle loop refers to this object: stop it before the members go (the scheduler keeps
  // forked tasks alive until the end of the test).
  ~Bench() { loop_.kill(); }
  Bench(const Bench&) = delete;
  Bench& operator=(const Bench&) = delete;

  static ts::AxiCheckerConfig checker_config(BridgeParams p) {
    ts::AxiCheckerConfig c;
    c.name = "m_axi";
    c.id_width = p.id_w;
    c.one_beat_only = true;
    c.required_size = 6;
    c.w_after_aw = true;  // the bridge presents W with its AW, never before
    c.max_reads = p.max_rd;
    c.max_writes = p.max_wr;
    return c;
  }

  // Inputs, clock, reset; the DRAM agent and the bench's cycle loop start running.
  Task<> start() {
    dut_->rst_ni = 0;
    dut_->req_valid_i = 0;
    dut_->rsp_ready_i = 0;
    tb::mem::write_port(tb::SignalRef(dut_->req_i), tb::mem::pack(Req{}));
    agent_.start();
    tb::Clock(dut_->clk_i, 10, "ns").start();
    co_await tb::ClockCycles(dut_->clk_i, 3);
    tb::write(dut_->rst_ni, 1);
    loop_ = tb::start_soon(run().named("tb.bridge_bench"));
  }

  // --- stimulus ---------------------------------------------------------------------------
  void set_mix(const Mix& m) {
    mix_ = m;
    hot_.resize(4);
    for (unsigned i = 0; hot_.size() < 4 + m.hot_lines; ++i) hot_.push_back(0x1000 + 0x40 * i);
  }
  void add_hot_line(std::uint32_t a) { hot_.push_back(a); }
  void random_requests(std::uint64_t n) { random_left_ += n; }
  void stop_random() { random_left_ = 0; }
  void send(const Req& r) { directed_.push_back(r); }
  // Internal response channel backpressure: probability that rsp_ready_i is low. A negative
  // value switches to random phases of 0 / 0.2 / 0.5 / 0.9.
  void set_rsp_stall(double p) { rsp_stall_ = p; }
  void set_req_idle(double p) { mix_.idle = p; }

  // Error ranges the DRAM was configured with (the reference must know them).
  bool dram_error(std::uint32_t addr, bool write) const {
    for (const auto& r : dram_.config().error_ranges)
      if ((write ? r.writes : r.reads) && addr >= r.base && addr < static_cast<std::uint64_t>(r.base) + r.size)
        return true;
    return false;
  }

  // Wait until everything sent has been answered; fail instead of hanging.
  Task<> drain(std::uint64_t max_cycles) {
    for (std::uint64_t c = 0; busy(); ++c) {
      if (c == max_cycles)
        tb::fail(fmt::format("not drained after {} cycles: {} random + {} directed requests unsent, {} responses "
                             "missing (bridge rd_outstanding_o={} wr_outstanding_o={}, DRAM {} reads / {} writes in "
                             "flight)",
                             max_cycles, random_left_, directed_.size(), expect_.size(), dut_->rd_outstanding_o,
                             dut_->wr_outstanding_o, dram_.reads_outstanding(), dram_.writes_outstanding()));
      co_await RisingEdge(dut_->clk_i);
    }
    co_await tb::ClockCycles(dut_->clk_i, 3);
  }

  // End-of-test checks: idle bridge, silent checker, DRAM image == flat model, counters.
  void final_checks() {
    tb::check(dut_->idle_o && dut_->rd_outstanding_o == 0 && dut_->wr_outstanding_o == 0,
              fmt::format("bridge not idle after draining (idle_o={} rd={} wr={})", dut_->idle_o,
                          dut_->rd_outstanding_o, dut_->wr_outstanding_o));
    chk_.check_idle();
    tb::check(chk_.ok(), chk_.report());
    tb::check(dram_.idle(), "the DRAM model still has transactions in flight");
    std::uint64_t compared = 0;
    for (std::uint32_t line : touched_) {
      const ts::AxiData got = dram_.memory().read_line(line);
      const Line want = ref_line(line);
      if (!std::equal(got.begin(), got.end(), want.begin()))
        tb::fail(fmt::format("DRAM line 0x{:08x} differs from the flat model (first byte {:#04x}, expected {:#04x})",
                             line, got[0], want[0]));
      ++compared;
    }
    const ts::DramStats& s = dram_.stats();
    tb::check(s.reads == axi_reads_ && s.writes == axi_writes_ && s.reads_done == axi_reads_ &&
                  s.writes_done == axi_writes_,
              fmt::format("DRAM saw {} reads / {} writes ({} / {} done), the bridge was given {} / {}", s.reads,
                          s.writes, s.reads_done, s.writes_done, axi_reads_, axi_writes_));
    tb::check(s.read_bytes == 64 * axi_reads_ && s.write_bytes == 64 * axi_writes_,
              fmt::format("DRAM byte counters {} read / {} written, expected 64 x {} / 64 x {}", s.read_bytes,
                          s.write_bytes, axi_reads_, axi_writes_));
    tb::check(chk_.ar_count() == axi_reads_ && chk_.aw_count() == axi_writes_ && chk_.w_count() == axi_writes_,
              fmt::format("AXI handshakes AR={} AW={} W={}, expected {} / {} / {} (locally rejected requests must "
                          "not reach AXI)",
                          chk_.ar_count(), chk_.aw_count(), chk_.w_count(), axi_reads_, axi_writes_, axi_writes_));
    dut_.log().info("{} requests: {} AXI reads, {} AXI writes, {} local errors; {} lines compared; DRAM {:.2f} B/cycle",
                    accepted_, axi_reads_, axi_writes_, local_errors_, compared, s.bytes_per_cycle());
  }

  // --- observation --------------------------------------------------------------------------
  Coverage& cov() { return cov_; }
  ts::DramModel& dram() { return dram_; }
  ts::AxiProtocolChecker& checker() { return chk_; }
  tb::axi::DramAgent& agent() { return agent_; }
  std::uint64_t edge() const { return edge_; }
  std::uint64_t accepted() const { return accepted_; }
  std::uint64_t responses() const { return responses_; }
  const std::vector<std::uint64_t>& read_latencies() const { return read_lat_; }
  const std::vector<std::uint64_t>& write_latencies() const { return write_lat_; }
  // Edge of the latest acceptance / response of a (src, tag).
  std::uint64_t accept_edge(unsigned src, unsigned tag) const { return accept_edge_.at(key_of(src, tag)); }
  std::uint64_t response_edge(unsigned src, unsigned tag) const { return rsp_edge_.at(key_of(src, tag)); }
  bool in_flight(unsigned src, unsigned tag) const { return expect_.count(key_of(src, tag)) != 0; }
  void clear_latencies() {
    read_lat_.clear();
    write_lat_.clear();
  }
  bool busy() const { return random_left_ > 0 || !directed_.empty() || presenting_ || !expect_.empty(); }

 private:
  struct Expect {
    Rsp rsp;
    std::uint64_t accept_edge;
    std::uint32_t addr;
    bool axi;  // reached AXI (for hazard bookkeeping)
  };

  Line ref_line(std::uint32_t line) const {
    auto it = ref_.find(line);
    return it == ref_.end() ? Line{} : it->second;
  }

  // The whole bench, one pass per rising edge: responses, request acceptance, next request,
  // next rsp_ready. All reads are pre-edge values (what the design sampled).
  Task<> run() {
    std::uint64_t phase_left = 0;
    double phase_stall = 0;
    while (true) {
      co_await RisingEdge(dut_->clk_i);
      ++edge_;
      const bool rsp_fire = dut_->rsp_valid_o && dut_->rsp_ready_i;
      cov_.hit("rsp stalled by backpressure", dut_->rsp_valid_o && !dut_->rsp_ready_i);
      if (rsp_fire) on_response();
      if (presenting_) {
        if (dut_->req_ready_o) {
          on_accept(cur_);
          presenting_ = false;
        } else {
          note_stall();
        }
      }
      if (!presenting_) {
        std::optional<Req> r = next_request();
        if (r) {
          cur_ = *r;
          presenting_ = true;
          tb::defer([this, b = tb::mem::pack(cur_)] {
            tb::mem::write_port(tb::SignalRef(dut_->req_i), b);
            dut_->req_valid_i = 1;
          });
        } else {
          // Junk on the payload while valid is low: the bridge must ignore it.
          Req junk = random_req(false);
          tb::defer([this, b = tb::mem::pack(junk)] {
            tb::mem::write_port(tb::SignalRef(dut_->req_i), b);
            dut_->req_valid_i = 0;
          });
        }
      }
      if (rsp_stall_ < 0) {
        if (phase_left == 0) {
          const double ps[] = {0.0, 0.2, 0.5, 0.9};
          phase_stall = ps[tb::randint(0, 3)];
          phase_left = tb::randint(30, 400);
        }
        --phase_left;
      } else {
        phase_stall = rsp_stall_;
      }
      tb::write(dut_->rsp_ready_i, phase_stall > 0 && tb::chance(phase_stall) ? 0 : 1);
    }
  }

  // Why the presented request waits (coverage only; the scoreboard judges correctness).
  void note_stall() {
    const bool bad = is_bad(cur_);
    const bool rd = cur_.op == Op::read || cur_.op == Op::prefetch;
    if (bad) {
      cov_.hit("local error waits");
      return;
    }
    bool hazard = false;
    for (const auto& [k, e] : expect_)
      if (e.axi && (e.addr >> 6) == (cur_.addr >> 6) && (!rd || e.rsp.op == Op::write)) hazard = true;
    cov_.hit("request held by a same-line hazard", hazard);
    cov_.hit("read held by a full ID table", rd && dut_->rd_outstanding_o == p_.max_rd);
    cov_.hit("write held by a full ID table", !rd && dut_->wr_outstanding_o == p_.max_wr);
  }

  static bool is_bad(const Req& r) {
    const bool rd = r.op == Op::read || r.op == Op::prefetch;
    return (r.addr & 63U) != 0 || static_cast<unsigned>(r.op) == 3 || (rd && r.wstrb != 0);
  }

  std::optional<Req> next_request() {
    if (!directed_.empty()) {
      const Req& r = directed_.front();
      if (expect_.count(key_of(r.src, r.tag))) return std::nullopt;  // one per tag
      Req out = r;
      directed_.pop_front();
      return out;
    }
    if (random_left_ == 0 || (mix_.idle > 0 && tb::chance(mix_.idle))) return std::nullopt;
    --random_left_;
    return random_req(true);
  }

  Req random_req(bool free_tag) {
    Req r;
    do {
      r.src = static_cast<std::uint8_t>(tb::randint(0, 31));
      r.tag = static_cast<std::uint8_t>(tb::randint(0, 255));
    } while (free_tag && expect_.count(key_of(r.src, r.tag)));
    r.dsid = static_cast<std::uint8_t>(tb::randint(0, 63));
    r.addr = tb::chance(mix_.p_hot) ? hot_[tb::randint(0, hot_.size() - 1)]
                                    : static_cast<std::uint32_t>(tb::randint(0, 0xFFFFFFFFULL)) & ~63U;
    const double u = static_cast<double>(tb::randint(0, 1000000)) / 1e6;
    if (u < mix_.p_read) {
      r.op = Op::read;
    } else if (u < mix_.p_read + mix_.p_write) {
      r.op = Op::write;
    } else if (u < mix_.p_read + mix_.p_write + mix_.p_prefetch) {
      r.op = Op::prefetch;
    } else {  // locally rejected
      switch (tb::randint(0, 3)) {
        case 0: r.op = tb::chance(0.5) ? Op::read : Op::write; r.addr |= static_cast<std::uint32_t>(tb::randint(1, 63)); break;
        case 1: r.op = Op::read; r.wstrb = tb::randint(1, ~0ULL); break;
        case 2: r.op = Op::prefetch; r.wstrb = 1ULL << tb::randint(0, 63); break;
        default: r.op = static_cast<Op>(3); break;
      }
    }
    if (r.op == Op::write) {
      for (auto& b : r.wdata) b = static_cast<std::uint8_t>(tb::randint(0, 255));
      switch (tb::randint(0, 9)) {
        case 0: case 1: case 2: r.wstrb = ~0ULL; break;
        case 3: r.wstrb = 0; break;
        case 4: r.wstrb = 1ULL << tb::randint(0, 63); break;
        case 5: {
          const unsigned lo = static_cast<unsigned>(tb::randint(0, 63)), n = static_cast<unsigned>(tb::randint(1, 64 - lo));
          r.wstrb = (n == 64 ? ~0ULL : ((1ULL << n) - 1)) << lo;
          break;
        }
        default: r.wstrb = tb::randint(0, ~0ULL); break;
      }
    } else if (!free_tag) {
      for (auto& b : r.wdata) b = static_cast<std::uint8_t>(tb::randint(0, 255));
    }
    return r;
  }

  void on_accept(const Req& r) {
    Expect e;
    e.rsp.op = r.op;
    e.rsp.src = r.src;
    e.rsp.tag = r.tag;
    e.accept_edge = edge_;
    e.addr = r.addr;
    e.axi = !is_bad(r);
    if (!e.axi) {
      e.rsp.err = true;
      ++local_errors_;
      cov_.hit("local error");
    } else {
      const std::uint32_t line = r.addr & ~63U;
      touched_.insert(line);
      if (r.op == Op::write) {
        ++axi_writes_;
        e.rsp.err = dram_error(line, true);
        if (!e.rsp.err) {
          Line& l = ref_[line];
          for (unsigned i = 0; i < 64; ++i)
            if ((r.wstrb >> i) & 1U) l[i] = r.wdata[i];
        }
      } else {
        ++axi_reads_;
        e.rsp.err = dram_error(line, false);
        if (r.op == Op::read && !e.rsp.err) e.rsp.rdata = ref_line(line);
      }
      cov_.hit("DRAM error response", e.rsp.err);
    }
    ++accepted_;
    accept_order_.push_back(key_of(r.src, r.tag));
    accept_edge_[key_of(r.src, r.tag)] = edge_;
    expect_.emplace(key_of(r.src, r.tag), e);
  }

  void on_response() {
    const Rsp got = tb::mem::unpack_rsp(tb::mem::read_port(tb::SignalRef(dut_->rsp_o), tb::mem::kRspW));
    const std::uint16_t k = key_of(got.src, got.tag);
    auto it = expect_.find(k);
    if (it == expect_.end())
      tb::fail(fmt::format("edge {}: response {} has no request in flight with that src/tag", edge_,
                           tb::mem::describe(got)));
    const Expect& e = it->second;
    if (!(got == e.rsp)) {
      std::size_t first = 0;
      while (first < 64 && got.rdata[first] == e.rsp.rdata[first]) ++first;
      tb::fail(fmt::format("edge {}: response to the request at 0x{:08x} accepted at edge {}: got {}, expected {}{}",
                           edge_, e.addr, e.accept_edge, tb::mem::describe(got), tb::mem::describe(e.rsp),
                           first < 64 ? fmt::format(" (rdata differs from byte {}: {:#04x}, expected {:#04x})", first,
                                                    got.rdata[first], e.rsp.rdata[first])
                                      : std::string()));
    }
    const std::uint64_t lat = edge_ - e.accept_edge;
    if (e.axi && !e.rsp.err) (e.rsp.op == Op::write ? write_lat_ : read_lat_).push_back(lat);
    // Out of order: an older request is still waiting.
    while (!accept_order_.empty() && !expect_.count(accept_order_.front())) accept_order_.pop_front();
    cov_.hit("response out of acceptance order", !accept_order_.empty() && accept_order_.front() != k);
    rsp_edge_[k] = edge_;
    ++responses_;
    expect_.erase(it);
  }

  tb::Dut<V>& dut_;
  BridgeParams p_;
  ts::DramModel dram_;
  ts::AxiProtocolChecker chk_;
  tb::axi::DramAgent agent_;
  Task<> loop_;
  Mix mix_;
  std::vector<std::uint32_t> hot_;
  std::deque<Req> directed_;
  std::uint64_t random_left_ = 0;
  double rsp_stall_ = 0;
  bool presenting_ = false;
  Req cur_;
  std::uint64_t edge_ = 0;
  std::unordered_map<std::uint32_t, Line> ref_;
  std::set<std::uint32_t> touched_;
  std::unordered_map<std::uint16_t, Expect> expect_;
  std::deque<std::uint16_t> accept_order_;
  std::unordered_map<std::uint16_t, std::uint64_t> accept_edge_, rsp_edge_;
  std::uint64_t accepted_ = 0, responses_ = 0, axi_reads_ = 0, axi_writes_ = 0, local_errors_ = 0;
  std::vector<std::uint64_t> read_lat_, write_lat_;
  Coverage cov_;
};

Req read_req(std::uint32_t addr, unsigned src, unsigned tag) {
  Req r;
  r.op = Op::read;
  r.addr = addr;
  r.src = static_cast<std::uint8_t>(src);
  r.tag = static_cast<std::uint8_t>(tag);
  return r;
}
Req write_req(std::uint32_t addr, unsigned src, unsigned tag, std::uint8_t fill, std::uint64_t strb = ~0ULL) {
  Req r;
  r.op = Op::write;
  r.addr = addr;
  r.src = static_cast<std::uint8_t>(src);
  r.tag = static_cast<std::uint8_t>(tag);
  r.wdata.fill(fill);
  r.wstrb = strb;
  return r;
}

std::uint64_t percentile(std::vector<std::uint64_t> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}
double mean(const std::vector<std::uint64_t>& v) {
  double s = 0;
  for (auto x : v) s += static_cast<double>(x);
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}

}  // namespace

// --- random traffic ----------------------------------------------------------------------

// Random READ/WRITE/PREFETCH with random strobes, tags and src (one request per tag in
// flight), a hot set of lines (incl. 0 and 0xFFFFFFC0) for same-line hazards, locally
// rejected requests, random internal-response backpressure; the DRAM reorders service and
// responses across IDs, adds latency jitter and drops its READYs at random.
// Catches: wrong data or strobes, responses with the wrong src/tag/op/err, lost or duplicated
// responses, missing same-line ordering (a reordering DRAM exposes a read overtaking a write
// to its line), ID reuse while in flight, AXI protocol violations (checker), outstanding
// counts above MAX_RD/MAX_WR, local errors leaking to AXI, byte counter mismatches.
template <class V>
static Task<> random_traffic(tb::Dut<V>& dut, BridgeParams p, ts::DramConfig dc, std::uint64_t n, const Mix& mix,
                      std::uint64_t min_hazards) {
  dc.seed = tb::randint(0, ~0ULL);
  Bench<V> b(dut, p, dc);
  b.set_mix(mix);
  b.set_rsp_stall(-1);
  co_await b.start();
  b.random_requests(n);
  co_await b.drain(n * 400 + 10000);
  b.final_checks();
  auto& cov = b.cov();
  dut.log().info("coverage: {}", cov.report());
  cov.require("rsp stalled by backpressure", 50);
  cov.require("request held by a same-line hazard", min_hazards);
  cov.require("response out of acceptance order", 50);
  cov.require("local error", 20);
}

static ts::DramConfig reordering_dram() {
  ts::DramConfig dc;
  dc.reorder = ts::DramReorder::random;
  dc.latency_jitter = 30;
  dc.ready_stall = 0.3;
  return dc;
}

// Default DRAM timing (80 cycles, 32 B/cycle) with reordering, on the default bridge.
TB_TEST(Vaxi_bridge, random_traffic) {
  co_await random_traffic(dut, kBig, reordering_dram(), tb::scaled(20000, 200000), Mix{}, 100);
}

// Short DRAM latency and a full-rate requester: many hazards and back-to-back traffic.
TB_TEST(Vaxi_bridge, random_traffic_fast_dram) {
  ts::DramConfig dc = reordering_dram();
  dc.latency = 3;
  dc.latency_jitter = 6;
  dc.bytes_per_cycle = 64;
  Mix m;
  m.idle = 0;
  m.hot_lines = 8;
  co_await random_traffic(dut, kBig, dc, tb::scaled(20000, 200000), m, 300);
}

// Tiny ID tables (3 reads, 2 writes): tables full most of the time, IDs reused constantly;
// the DRAM answers youngest first.
TB_TEST(Vaxi_bridge_small, small_random_traffic) {
  ts::DramConfig dc;
  dc.latency = 20;
  dc.reorder = ts::DramReorder::youngest_first;
  dc.latency_jitter = 10;
  dc.ready_stall = 0.2;
  Mix m;
  m.idle = 0.05;
  co_await random_traffic(dut, kSmall, dc, tb::scaled(10000, 100000), m, 50);
}

// --- directed ----------------------------------------------------------------------------

// The DRAM answers SLVERR for one range and DECERR for another: READ, PREFETCH and WRITE
// there give rsp.err = 1 (READ data 0), writes there change nothing, the neighbouring lines
// just outside each range work normally.
// Catches: RRESP/BRESP ignored, error data passed through as valid, err on the wrong
// response, range edges mishandled by the bridge's error mapping.
TB_TEST(Vaxi_bridge, dram_error_range) {
  using V = Vaxi_bridge;
  ts::DramConfig dc;
  dc.latency = 40;
  dc.error_ranges = {{0x40000000U, 0x10000, ts::AxiResp::slverr, true, true},
                     {0x50000000U, 0x40, ts::AxiResp::decerr, true, true}};
  Bench<V> b(dut, kBig, dc);
  co_await b.start();
  for (std::uint32_t a : {0x40000000U, 0x4000FFC0U, 0x50000000U}) {
    b.dram().memory().write_line(a, ts::AxiData{});  // the backdoor value the write must not change
  }
  unsigned tag = 0;
  for (std::uint32_t a : {0x3FFFFFC0U, 0x40000000U, 0x40008000U, 0x4000FFC0U, 0x40010000U, 0x4FFFFFC0U, 0x50000000U,
                          0x50000040U}) {
    b.send(write_req(a, 1, tag++, 0x5A, 0x00000000FFFFFFFFULL));
    b.send(read_req(a, 2, tag++));
    Req pf = read_req(a, 3, tag++);
    pf.op = Op::prefetch;
    b.send(pf);
  }
  co_await b.drain(20000);
  b.final_checks();  // the scoreboard knows the ranges: err flags, zero data, untouched memory
  b.cov().require("DRAM error response", 3 * 4);
  tb::check(b.dram().stats().error_responses == 3 * 4,
            fmt::format("{} DRAM error responses, expected 12", b.dram().stats().error_responses));
  tb::check(b.dram().memory().read32(0x40000000U) == 0, "a write answered SLVERR changed memory");
  tb::check(b.dram().memory().read32(0x40010000U) == 0x5A5A5A5AU, "the line after the SLVERR range was not written");
}

// Misaligned addresses, strobes on READ/PREFETCH and op 3 are answered err=1 without any AXI
// traffic, even while both ID tables are full and the DRAM is slow.
// Catches: rejected requests that still issue AR/AW, that wait for an ID, or that hang.
TB_TEST(Vaxi_bridge_small, local_errors_bypass_axi) {
  using V = Vaxi_bridge_small;
  ts::DramConfig dc;
  dc.latency = 300;
  Bench<V> b(dut, kSmall, dc);
  co_await b.start();
  for (unsigned i = 0; i < kSmall.max_rd; ++i) b.send(read_req(0x1000 + 64 * i, 0, i));
  for (unsigned i = 0; i < kSmall.max_wr; ++i) b.send(write_req(0x2000 + 64 * i, 1, i, 0x11));
  co_await tb::ClockCycles(dut->clk_i, 20);
  tb::check(dut->rd_outstanding_o == kSmall.max_rd && dut->wr_outstanding_o == kSmall.max_wr,
            "the ID tables should be full");
  Req mis = read_req(0x3004, 4, 0);
  Req wmis = write_req(0x3021, 4, 1, 0x22);
  Req rstrb = read_req(0x3000, 4, 2);
  rstrb.wstrb = 0x10;
  Req pstrb = read_req(0x3000, 4, 3);
  pstrb.op = Op::prefetch;
  pstrb.wstrb = 1;
  Req bad_op = read_req(0x3000, 4, 4);
  bad_op.op = static_cast<Op>(3);
  for (const Req& r : {mis, wmis, rstrb, pstrb, bad_op}) b.send(r);
  const std::uint64_t start = b.edge();
  for (int i = 0; i < 40 && b.responses() < 5; ++i) co_await RisingEdge(dut->clk_i);
  tb::check(b.responses() == 5,
            fmt::format("{} of the 5 rejected requests answered within 40 cycles of {} while the tables were full",
                        b.responses(), start));
  co_await b.drain(5000);
  b.final_checks();  // AR/AW counts exclude the rejected ones
}

// Unloaded latency at the internal port is exactly DRAM latency + 2 for a READ and a WRITE,
// for several DRAM latencies. Catches: an extra pipeline stage anywhere on the path (a
// performance bug no data check would notice), a response released before its R/B.
TB_TEST(Vaxi_bridge, latency_exact) {
  using V = Vaxi_bridge;
  ts::DramConfig dc;
  Bench<V> b(dut, kBig, dc);
  co_await b.start();
  unsigned tag = 0;
  for (unsigned lat : {1U, 5U, 80U}) {
    dc.latency = lat;
    b.dram().reconfigure(dc);
    b.send(read_req(0x8000, 0, tag));
    co_await b.drain(1000);
    const std::uint64_t rl = b.response_edge(0, tag) - b.accept_edge(0, tag);
    ++tag;
    b.send(write_req(0x8040, 0, tag, 0x77));
    co_await b.drain(1000);
    const std::uint64_t wl = b.response_edge(0, tag) - b.accept_edge(0, tag);
    ++tag;
    dut.log().info("DRAM latency {}: READ {} cycles, WRITE {} cycles at the internal port", lat, rl, wl);
    tb::check(rl == lat + kBridgeOverhead, fmt::format("READ latency {} with DRAM latency {}, expected {}", rl, lat,
                                                       lat + kBridgeOverhead));
    tb::check(wl == lat + kBridgeOverhead, fmt::format("WRITE latency {} with DRAM latency {}, expected {}", wl, lat,
                                                       lat + kBridgeOverhead));
  }
  b.final_checks();
}

// Same-line ordering, observed on AXI: a READ of a line with a write in flight is held
// until the write's response has been delivered (so its AR follows the B); a WRITE behind a
// READ of its line likewise; two READs of one line overlap.
// Catches: a bridge that relies on AXI to order reads and writes (AXI does not), hazard
// checks on the wrong address bits, or hazards that block reads behind reads.
TB_TEST(Vaxi_bridge, same_line_ordering) {
  using V = Vaxi_bridge;
  ts::DramConfig dc;
  dc.latency = 50;
  Bench<V> b(dut, kBig, dc);
  co_await b.start();
  const std::uint32_t x = 0x12340;
  b.send(write_req(x, 1, 1, 0xAA));
  b.send(read_req(x, 1, 2));  // RAW
  co_await b.drain(2000);
  tb::check(b.accept_edge(1, 2) >= b.response_edge(1, 1),
            fmt::format("READ after WRITE to one line accepted at edge {}, before the write's response at edge {}",
                        b.accept_edge(1, 2), b.response_edge(1, 1)));
  b.send(read_req(x, 1, 3));
  b.send(write_req(x, 1, 4, 0xBB));  // WAR
  b.send(write_req(x, 1, 5, 0xCC));  // WAW
  co_await b.drain(2000);
  tb::check(b.accept_edge(1, 4) >= b.response_edge(1, 3), "WRITE after READ of one line accepted before the read finished");
  tb::check(b.accept_edge(1, 5) >= b.response_edge(1, 4), "WRITE after WRITE of one line accepted before the first finished");
  b.send(read_req(x, 1, 6));
  b.send(read_req(x, 1, 7));  // RAR: no wait
  b.send(read_req(x + 64, 1, 8));  // a different line: no wait
  co_await b.drain(2000);
  tb::check(b.accept_edge(1, 7) == b.accept_edge(1, 6) + 1 && b.accept_edge(1, 8) == b.accept_edge(1, 7) + 1,
            fmt::format("reads of one line must overlap (accepted at edges {}, {}, {})", b.accept_edge(1, 6),
                        b.accept_edge(1, 7), b.accept_edge(1, 8)));
  b.final_checks();
}

// With full ID tables the bridge holds further requests of that kind (req_ready_o low) and
// issues no more AR/AW than MAX_RD / MAX_WR (the checker's outstanding-limit rule); IDs are
// reused as the DRAM answers out of order.
// Catches: ID table overflow, an ID reused while still outstanding (checker: unknown-id or
// a data mismatch), a full read table blocking writes or vice versa.
TB_TEST(Vaxi_bridge_small, id_tables_full) {
  using V = Vaxi_bridge_small;
  ts::DramConfig dc;
  dc.latency = 30;
  dc.reorder = ts::DramReorder::youngest_first;
  dc.bytes_per_cycle = 16;
  Bench<V> b(dut, kSmall, dc);
  co_await b.start();
  for (unsigned i = 0; i < 12; ++i) b.send(read_req(0x10000 + 64 * i, 2, i));
  for (unsigned i = 0; i < 8; ++i) b.send(write_req(0x20000 + 64 * i, 3, i, static_cast<std::uint8_t>(i)));
  unsigned max_rd = 0, max_wr = 0;
  for (int c = 0; c < 4000 && b.busy(); ++c) {
    co_await RisingEdge(dut->clk_i);
    max_rd = std::max<unsigned>(max_rd, dut->rd_outstanding_o);
    max_wr = std::max<unsigned>(max_wr, dut->wr_outstanding_o);
  }
  co_await b.drain(1000);
  tb::check(max_rd == kSmall.max_rd && max_wr == kSmall.max_wr,
            fmt::format("peak outstanding {} reads / {} writes, expected the table sizes {} / {}", max_rd, max_wr,
                        kSmall.max_rd, kSmall.max_wr));
  b.cov().require("read held by a full ID table", 10);
  b.final_checks();
}

// --- benchmarks (figures, not timing checks) -----------------------------------------------

// Achieved bandwidth over a fixed window, saturating requester, for DRAM outstanding limits
// 1..64 and read / write / mixed traffic, default DRAM timing (80 cycles, 32 B/cycle). Little's
// law predicts min(32, 64 * outstanding / (80 + overhead)) bytes/cycle. The check only guards
// the end points (a collapsed pipeline): <= 32 always, >= 31 with 64 outstanding.
TB_TEST(Vaxi_bridge, bench_bandwidth) {
  using V = Vaxi_bridge;
  ts::DramConfig dc;
  Bench<V> b(dut, kBig, dc);
  Mix m;
  m.idle = 0;
  m.p_hot = 0;
  co_await b.start();
  std::string table = "\n  DRAM limit |  read B/c | write B/c | mixed B/c\n";
  std::string failures;
  for (unsigned limit : {1U, 2U, 4U, 8U, 16U, 32U, 48U, 64U}) {
    std::string row = fmt::format("  {:>10} |", limit);
    for (int kind = 0; kind < 3; ++kind) {
      dc.max_outstanding = limit;
      b.dram().reconfigure(dc);
      m.p_read = kind == 0 ? 1.0 : kind == 1 ? 0.0 : 0.5;
      m.p_write = 1.0 - m.p_read;
      m.p_prefetch = 0;
      b.set_mix(m);
      b.random_requests(1000000);
      co_await tb::ClockCycles(dut->clk_i, 300);
      const ts::DramStats s0 = b.dram().stats();
      const std::uint64_t window = 3000;
      co_await tb::ClockCycles(dut->clk_i, window);
      const ts::DramStats s1 = b.dram().stats();
      const double bw = static_cast<double>(s1.read_bytes + s1.write_bytes - s0.read_bytes - s0.write_bytes) /
                        static_cast<double>(window);
      row += fmt::format(" {:>9.2f} |", bw);
      if (bw > 32.01) failures += fmt::format(" {:.2f} B/cycle exceeds the DRAM's 32;", bw);
      if (limit == 64 && bw < 31.0) failures += fmt::format(" only {:.2f} B/cycle with 64 outstanding;", bw);
      b.stop_random();
      co_await b.drain(100000);
    }
    table += row + "\n";
  }
  dut.log().info("achieved DRAM bandwidth (bytes/cycle), bridge MAX_RD=48 MAX_WR=48, DRAM 80 cycles, 32 B/cycle:{}",
                 table);
  tb::check(failures.empty(), "bandwidth out of bounds:" + failures);
  b.final_checks();
}

// Read latency seen at the internal port against offered load (fraction of the DRAM's
// 32 B/cycle), default DRAM timing: unloaded it is 80 + 2; near saturation queueing in the
// DRAM adds to it.
TB_TEST(Vaxi_bridge, bench_read_latency) {
  using V = Vaxi_bridge;
  ts::DramConfig dc;
  Bench<V> b(dut, kBig, dc);
  co_await b.start();
  std::string table = "\n  offered load | achieved B/c | mean | p50 | p99 | max  (cycles)\n";
  for (double load : {0.05, 0.25, 0.5, 0.75, 0.9, 1.0}) {
    Mix m;
    m.p_read = 1.0;
    m.p_write = m.p_prefetch = 0;
    m.p_hot = 0;
    m.idle = 1.0 - load * 32.0 / 64.0;  // one 64-byte read per cycle is 2x the DRAM bandwidth
    b.set_mix(m);
    b.clear_latencies();
    const ts::DramStats s0 = b.dram().stats();
    b.random_requests(tb::scaled(1500, 15000));
    co_await b.drain(1000000);
    const ts::DramStats s1 = b.dram().stats();
    const auto& l = b.read_latencies();
    table += fmt::format("  {:>12.2f} | {:>12.2f} | {:>4.1f} | {:>3} | {:>3} | {:>3}\n", load,
                         static_cast<double>(s1.read_bytes - s0.read_bytes) / static_cast<double>(s1.cycles - s0.cycles),
                         mean(l), percentile(l, 0.5), percentile(l, 0.99), percentile(l, 1.0));
    if (load <= 0.05)
      tb::check(percentile(l, 0.5) == 80 + kBridgeOverhead,
                fmt::format("median unloaded latency {}, expected {}", percentile(l, 0.5), 80 + kBridgeOverhead));
  }
  dut.log().info("READ latency at the internal port, DRAM 80 cycles, 32 B/cycle:{}", table);
  b.final_checks();
}

// The small bridge (3 reads in flight) is bound by Little's law: 3 x 64 bytes per
// (latency + overhead) cycles. Figure only, with a loose bound.
TB_TEST(Vaxi_bridge_small, bench_small_bandwidth) {
  using V = Vaxi_bridge_small;
  ts::DramConfig dc;
  Bench<V> b(dut, kSmall, dc);
  Mix m;
  m.idle = 0;
  m.p_hot = 0;
  m.p_read = 1.0;
  m.p_write = m.p_prefetch = 0;
  b.set_mix(m);
  co_await b.start();
  b.random_requests(tb::scaled(600, 6000));
  const ts::DramStats s0 = b.dram().stats();
  co_await b.drain(1000000);
  const ts::DramStats s1 = b.dram().stats();
  const double bw = static_cast<double>(s1.read_bytes - s0.read_bytes) / static_cast<double>(s1.cycles - s0.cycles);
  const double little = 3.0 * 64.0 / (80.0 + kBridgeOverhead);
  dut.log().info("MAX_RD=3 read bandwidth {:.2f} B/cycle (Little's law bound {:.2f})", bw, little);
  tb::check(bw <= little + 0.05 && bw >= 0.9 * little, fmt::format("{:.2f} B/cycle, expected about {:.2f}", bw, little));
  b.final_checks();
}
