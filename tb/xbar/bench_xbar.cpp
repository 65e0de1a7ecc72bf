// Bench for the memory crossbar mem_xbar (rtl/xbar/mem_xbar.sv, docs/mem-crossbar.md), on
// three model configurations (rtl/xbar/CMakeLists.txt):
//   xbar_n4   4 clients, MAX_OUTSTANDING=4, REQ_SPILL=1, RSP_SPILL=0, flat arbiter
//   xbar_n1   1 client,  MAX_OUTSTANDING=2, REQ_SPILL=1, RSP_SPILL=0
//   xbar_n12  12 clients, MAX_OUTSTANDING=3, REQ_SPILL=0, RSP_SPILL=1, tree arbiter
// The environment (xbar_env.hpp) checks every cycle, in every test: requests reach the
// downstream in grant order, unchanged except src; every response reaches exactly its
// client, once, in the order the downstream returned it, with the content the client's own
// request calls for; outstanding counts, statistics counters, grant legality, bounded wait
// and the valid/ready rules on every output; and that the crossbar never refuses a legal
// response. The tests below add the stimulus that reaches each guarantee and the checks
// specific to it.
//
// Rerun one test: RANDOM_SEED=<n> TESTCASE=<name> build/tb/xbar/bench_xbar (WAVES=1 for an
// FST). TESSERA_REGRESS=1 runs the long variants.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "Vxbar_n1.h"
#include "Vxbar_n12.h"
#include "Vxbar_n4.h"
#include "tb/test.hpp"
#include "xbar_env.hpp"

using tb::Task;
using xbartb::Cfg;
using xbartb::XbarBench;

namespace {

constexpr Cfg kN4{"xbar_n4", 4, 4, 1, 1};
constexpr Cfg kN1{"xbar_n1", 1, 2, 1, 1};
constexpr Cfg kN12{"xbar_n12", 12, 3, 0, 2};

void all_clients(XbarBench& b, double p_issue, double p_rsp_ready) {
  for (auto& c : b.clients()) {
    c.k.p_issue = p_issue;
    c.k.p_rsp_ready = p_rsp_ready;
  }
}

void restore_budgets(XbarBench& b) {
  for (auto& c : b.clients()) c.budget = ~0ULL;
}

// Random traffic in phases: heavy contention, heavy backpressure, slow memory with misses
// (drives clients to their outstanding limit), sparse traffic, in-order full-rate streams,
// and per-client mixes; every channel has random gaps and backpressure (client request
// valid, client response ready, downstream request ready, downstream response valid), the
// downstream answers out of order, and the statistics counters are cleared now and then.
// Catches: a lost, duplicated, reordered or corrupted request; a response lost, duplicated,
// misrouted (wrong client, or right client and wrong content) or delivered out of the
// downstream's order; src not stamped; a grant at the outstanding limit or to a client not
// requesting; outstanding or statistics counters off by one at any cycle (grant and
// response in the same cycle, counter clear); stalled outputs that change; a response the
// crossbar refuses.
template <class V>
Task<> random_traffic(tb::Dut<V>& dut, const Cfg& cfg) {
  XbarBench b(xbartb::ports_of(dut), cfg);
  co_await b.reset();
  struct Regime {
    const char* name;
    double p_issue, p_rsp_ready, p_req_ready;
    unsigned lat_min, lat_max;
    double p_long, p_gap;
    bool in_order;
  };
  const Regime regimes[] = {
      {"busy", 0.9, 0.9, 0.9, 0, 6, 0.0, 0.05, false},
      {"backpressure", 0.7, 0.3, 0.4, 0, 10, 0.0, 0.3, false},
      {"slow memory", 0.8, 0.9, 0.9, 20, 60, 0.1, 0.05, false},
      {"sparse", 0.05, 1.0, 1.0, 0, 2, 0.0, 0.0, false},
      {"full rate in order", 1.0, 1.0, 1.0, 0, 0, 0.0, 0.0, true},
      {"mixed clients", -1, -1, 0.8, 0, 30, 0.02, 0.1, false},
  };
  const std::uint64_t cycles = tb::scaled(cfg.n > 4 ? 50000 : 30000, 500000);
  std::uint64_t left = 0, next_clear = 3000;
  std::vector<std::size_t> order;
  for (std::uint64_t c = 0; c < cycles; ++c) {
    if (left == 0) {
      // Every regime once per round, in a random order.
      if (order.empty()) {
        for (std::size_t k = 0; k < std::size(regimes); ++k) order.push_back(k);
        std::shuffle(order.begin(), order.end(), tb::rng());
      }
      const auto k = order.back();
      order.pop_back();
      const Regime& r = regimes[k];
      left = tb::randint(300, 3000);
      for (auto& cl : b.clients()) {
        cl.k.p_issue = r.p_issue >= 0 ? r.p_issue : (tb::chance(0.3) ? 1.0 : tb::randint(1, 9) / 10.0);
        cl.k.p_rsp_ready = r.p_rsp_ready >= 0 ? r.p_rsp_ready : (tb::chance(0.2) ? 0.05 : tb::randint(3, 10) / 10.0);
      }
      auto& d = b.dn();
      d.p_req_ready = r.p_req_ready;
      d.lat_min = r.lat_min;
      d.lat_max = r.lat_max;
      d.p_long = r.p_long;
      d.lat_long = 150;
      d.p_rsp_gap = r.p_gap;
      d.in_order = r.in_order;
    }
    --left;
    if (c == next_clear) {
      b.clear_counters();
      next_clear += tb::randint(2000, 8000);
    }
    co_await b.step();
  }
  co_await b.drain(2000);
  std::uint64_t granted = 0;
  std::string per_client;
  for (auto& cl : b.clients()) {
    granted += cl.granted;
    per_client += fmt::format(" {}", cl.completed);
    xbartb::check(cl.completed == cl.granted && cl.granted == cl.issued, "client {}: issued {}, granted {}, completed {}",
                  cl.idx, cl.issued, cl.granted, cl.completed);
  }
  dut.log().info("{}: {} cycles, {} requests completed (per client:{}), longest wait {} grants; {}", cfg.name,
                 b.cycle(), granted, per_client, b.max_wait(), b.cov().report());
  auto& cov = b.cov();
  if (cfg.n > 1) {
    cov.require("contention (two or more requesting)", cycles / 10);
    xbartb::check(b.max_wait() == cfg.n - 1, "the stimulus should reach the worst-case wait N-1={}, reached {}",
                  cfg.n - 1, b.max_wait());
  }
  cov.require("client waiting at its outstanding limit", 100);
  cov.require("downstream request stall", cycles / 100);
  cov.require("client response stall", cycles / 60);
  cov.require("response out of order", cfg.n > 1 ? 1000 : 100);
  cov.require("response to a client at its limit", 100);
  cov.require("grant and response to one client in one cycle", 100);
  cov.require("request handshake and response handshake in one cycle", cycles / 400);
  cov.require("a client's whole MAX_OUTSTANDING buffered in the crossbar", 3);
  cov.require("counters cleared", 2);
  // One client with two outstanding is slow by design (docs/mem-crossbar.md, figures).
  const std::uint64_t min_requests = cfg.n * cfg.max_out >= 8 ? cycles / 5 : cycles / 15;
  xbartb::check(granted > min_requests, "only {} requests in {} cycles: the stimulus is too thin", granted, cycles);
}

// Every client requests continuously (a new request in the cycle after each grant), the
// responses come back fast and are always taken, so no client ever reaches its limit; the
// downstream stalls requests at random.
// Catches: an unfair arbiter (a client served twice before another waiting one, or any
// waiting client passed over more than N_CLIENTS-1 times), a pointer that does not rotate
// through the requesters in order, lock broken by the downstream stall (a stalled grant
// moving to another client would show as a skipped client), uneven service over a long
// window.
template <class V>
Task<> fairness(tb::Dut<V>& dut, const Cfg& cfg) {
  XbarBench b(xbartb::ports_of(dut), cfg);
  co_await b.reset();
  all_clients(b, 1.0, 1.0);
  b.dn().p_req_ready = 0.7;
  b.dn().lat_min = 0;
  b.dn().lat_max = 3;
  b.dn().p_rsp_gap = 0;
  b.dn().in_order = true;  // bounded response latency: no client can reach its limit
  co_await b.run(10);      // every client presenting
  std::vector<std::uint64_t> start;
  for (auto& c : b.clients()) start.push_back(c.granted);
  const std::uint64_t window = tb::scaled(20000, 200000);
  int prev = -1;
  std::uint64_t grants = 0;
  for (std::uint64_t k = 0; k < window; ++k) {
    co_await b.step();
    const int g = b.last_grant();
    if (g < 0) continue;
    ++grants;
    if (prev >= 0)
      xbartb::check(static_cast<unsigned>(g) == (static_cast<unsigned>(prev) + 1) % cfg.n,
                    "{}: all clients requesting: client {} granted after client {}, round robin gives {}", cfg.name, g,
                    prev, (prev + 1) % static_cast<int>(cfg.n));
    prev = g;
    // Within the window, grant counts may differ by at most one at any time.
    std::uint64_t lo = ~0ULL, hi = 0;
    for (unsigned i = 0; i < cfg.n; ++i) {
      const auto got = b.client(i).granted - start[i];
      lo = std::min(lo, got);
      hi = std::max(hi, got);
    }
    xbartb::check(hi - lo <= 1, "{}: after {} grants, per-client grant counts range from {} to {}", cfg.name, grants,
                  lo, hi);
  }
  std::string counts;
  for (unsigned i = 0; i < cfg.n; ++i) {
    counts += fmt::format(" {}", b.client(i).granted - start[i]);
    xbartb::check(b.client(i).cnt_limit == 0, "client {} reached its outstanding limit: the fairness stimulus is wrong",
                  i);
  }
  dut.log().info("{}: {} grants in {} cycles, per client:{}; longest wait {} grants to others (bound N-1={})", cfg.name,
                 grants, window, counts, b.max_wait(), cfg.n - 1);
  if (cfg.n > 1)
    xbartb::check(b.max_wait() == cfg.n - 1, "under full contention a client waits exactly N-1 grants, saw {}",
                  b.max_wait());
  co_await b.drain(1000);
}

// The downstream takes every request but holds every response; all clients request
// continuously. Then client 0's responses are released while client 0 is not ready for
// them, then client 0 takes them one by one.
// Catches: a client granted beyond MAX_OUTSTANDING (the response FIFO could then overflow);
// a limit counted on responses arriving in the crossbar instead of responses taken by the
// client (the buffered responses would free slots); a client at its limit still holding
// off the others or being granted; a freed slot not reused (the grant must follow the
// client's take by exactly one cycle); cl_outstanding_o and cnt_limit_o at the limit.
template <class V>
Task<> outstanding_limit(tb::Dut<V>& dut, const Cfg& cfg) {
  XbarBench b(xbartb::ports_of(dut), cfg);
  co_await b.reset();
  all_clients(b, 1.0, 1.0);
  b.dn().p_req_ready = 1.0;
  b.dn().lat_min = b.dn().lat_max = 0;
  b.dn().p_rsp_gap = 0;
  const std::uint32_t all = (cfg.n >= 32) ? ~0U : ((1U << cfg.n) - 1);
  b.hold_mask() = all;
  co_await b.run(cfg.n * cfg.max_out + 10);
  for (unsigned k = 0; k < 20; ++k) {
    co_await b.step();
    xbartb::check(b.cl_req_ready_seen() == 0, "{}: every client is at its limit, yet cl_req_ready_o={:#x}", cfg.name,
                  b.cl_req_ready_seen());
  }
  for (auto& c : b.clients()) {
    xbartb::check(c.granted == cfg.max_out && c.count == cfg.max_out && c.presenting,
                  "client {}: granted {} (expected MAX_OUTSTANDING={}), outstanding {}, still requesting {}", c.idx,
                  c.granted, cfg.max_out, c.count, c.presenting);
    xbartb::check(c.cnt_limit >= 20, "client {}: cnt_limit_o={} after 20+ cycles at the limit", c.idx, c.cnt_limit);
  }
  b.cov().require("client waiting at its outstanding limit", 20 * cfg.n);

  // Client 0's responses reach the crossbar but the client does not take them: they stay
  // outstanding, so client 0 is still not granted.
  b.client(0).k.p_rsp_ready = 0.0;
  b.hold_mask() = all & ~1U;
  co_await b.run(20);
  auto& c0 = b.client(0);
  xbartb::check(b.pending_for(0) == 0 && c0.deliver.size() == cfg.max_out,
                "client 0: {} responses still in the downstream, {} buffered in the crossbar (expected 0 and {})",
                b.pending_for(0), c0.deliver.size(), cfg.max_out);
  xbartb::check(c0.granted == cfg.max_out, "client 0 was granted with its responses buffered but not taken");

  // Client 0 takes its responses: each take frees one slot, and the next request is granted
  // in the following cycle (the other clients are all at their limit: no contention).
  c0.k.p_rsp_ready = 1.0;
  std::uint64_t first_take = 0, first_grant = 0;
  for (unsigned k = 0; k < 40 && first_grant == 0; ++k) {
    const auto before = c0.completed;
    co_await b.step();
    if (first_take == 0 && c0.completed > before) first_take = b.cycle();
    if (b.last_grant() == 0) first_grant = b.cycle();
    if (b.last_grant() > 0)
      tb::fail(fmt::format("client {} granted while at its limit", b.last_grant()));
  }
  xbartb::check(first_take != 0 && first_grant == first_take + 1,
                "client 0 took its first response at cycle {}; its next grant must come one cycle later, came at {}",
                first_take, first_grant);
  co_await b.run(100);
  xbartb::check(c0.granted > cfg.max_out + 2, "client 0 is not running again after its responses were released");
  for (unsigned i = 1; i < cfg.n; ++i)
    xbartb::check(b.client(i).granted == cfg.max_out, "client {} granted while its responses are held", i);
  b.hold_mask() = 0;
  co_await b.drain(2000);
}

// Client 0 never takes its responses; the others run random traffic to completion with
// out-of-order responses and backpressure.
// Catches: head-of-line blocking (a response for client 0 at the head of the downstream
// channel, or a shared response buffer, stalling everyone else): the others must complete
// everything, the downstream must never see mem_rsp_ready_o low, and client 0's responses
// must all have left the downstream into its own buffer. Then client 0 drains correctly.
template <class V>
Task<> head_of_line(tb::Dut<V>& dut, const Cfg& cfg) {
  XbarBench b(xbartb::ports_of(dut), cfg);
  co_await b.reset();
  all_clients(b, 0.6, 0.7);
  auto& c0 = b.client(0);
  c0.k.p_issue = 1.0;
  c0.k.p_rsp_ready = 0.0;
  const std::uint64_t per_client = tb::scaled(cfg.n > 4 ? 150 : 400, 3000);
  for (unsigned i = 1; i < cfg.n; ++i) b.client(i).budget = per_client;
  b.dn().p_req_ready = 0.8;
  b.dn().lat_min = 0;
  b.dn().lat_max = 20;
  b.dn().p_rsp_gap = 0.1;
  const std::uint64_t limit = per_client * cfg.n * 40;
  for (std::uint64_t k = 0;; ++k) {
    bool done = true;
    for (unsigned i = 1; i < cfg.n; ++i) done = done && b.client(i).completed == per_client;
    if (done) break;
    if (k == limit) {
      std::string s;
      for (unsigned i = 1; i < cfg.n; ++i) s += fmt::format(" {}", b.client(i).completed);
      tb::fail(fmt::format("{}: with client 0 blocked, the others completed only{} of {} each in {} cycles", cfg.name,
                           s, per_client, limit));
    }
    co_await b.step();
  }
  xbartb::check(c0.granted == cfg.max_out && c0.completed == 0 && c0.count == cfg.max_out,
                "client 0: granted {}, completed {}, outstanding {}", c0.granted, c0.completed, c0.count);
  xbartb::check(b.pending_for(0) == 0 && c0.deliver.size() == cfg.max_out,
                "client 0's responses: {} still held in the downstream, {} in its crossbar buffer (expected 0 and {})",
                b.pending_for(0), c0.deliver.size(), cfg.max_out);
  dut.log().info("{}: client 0 blocked with {} responses buffered; the other {} clients completed {} requests each in "
                 "{} cycles",
                 cfg.name, c0.deliver.size(), cfg.n - 1, per_client, b.cycle());
  c0.k.p_rsp_ready = 1.0;
  co_await b.drain(2000);
  xbartb::check(c0.completed == c0.granted, "client 0 did not receive all its responses once ready");
}

// Figures, printed (cycle counts, not wall-clock; checked against the documented values
// only where they are exact):
//   - requests per clock under full contention (every client always requesting, responses
//     always taken) for downstream latencies D = 1..80 cycles, against the bound
//     min(1, N_CLIENTS * MAX_OUTSTANDING / (D + 3)) that the outstanding limit sets;
//   - request and response latency through the crossbar, unloaded and under contention.
// Catches: a bubble in the request path (less than one request per clock at L=0 with
// enough outstanding), a latency different from the one documented.
template <class V>
Task<> benchmark(tb::Dut<V>& dut, const Cfg& cfg) {
  XbarBench b(xbartb::ports_of(dut), cfg);
  co_await b.reset();
  auto& d = b.dn();
  d.p_req_ready = 1.0;
  d.p_rsp_gap = 0;
  d.in_order = true;

  // Unloaded: one client, one request at a time.
  b.client(0).k.p_issue = 1.0;
  b.client(0).k.p_rsp_ready = 1.0;
  for (unsigned i = 1; i < cfg.n; ++i) b.client(i).k.p_issue = 0.0;
  d.lat_min = d.lat_max = 0;
  b.client(0).budget = 200;
  co_await b.run_until([&b] { return b.client(0).completed == 200; }, 4000, "200 unloaded requests");
  const auto req1 = b.req_path(), rsp1 = b.rsp_path();
  xbartb::check(req1.min == cfg.req_lat && req1.max == cfg.req_lat,
                "unloaded request latency {}, documented {} cycle(s)", req1.str(), cfg.req_lat);
  xbartb::check(rsp1.min == cfg.rsp_lat && rsp1.max == cfg.rsp_lat,
                "unloaded response latency {}, documented {} cycle(s)", rsp1.str(), cfg.rsp_lat);
  dut.log().info("{} FIGURE unloaded latency: request {} cycle(s) (client handshake -> downstream handshake), "
                 "response {} cycle(s) (downstream handshake -> client handshake)",
                 cfg.name, req1.min, rsp1.min);

  // Full contention at several downstream latencies D (cycles from the downstream's request
  // handshake to its response handshake; the responder's extra latency is D-1). A client's
  // slot is busy for D + req_lat + rsp_lat + 1 cycles (the +1: the client is eligible again
  // the cycle after it takes its response), so the outstanding limit allows
  // min(1, N_CLIENTS * MAX_OUTSTANDING / (D + req_lat + rsp_lat + 1)) requests per clock.
  const unsigned lats[] = {1, 4, 8, 16, 80};
  std::string table;
  for (unsigned lat : lats) {
    restore_budgets(b);
    all_clients(b, 1.0, 1.0);
    d.lat_min = d.lat_max = lat - 1;
    co_await b.run(300);  // settle
    b.clear_latency_stats();
    const std::uint64_t g0 = b.total_grants();
    const std::uint64_t window = 4000;
    co_await b.run(window);
    const double rate = static_cast<double>(b.total_grants() - g0) / static_cast<double>(window);
    const double bound =
        std::min(1.0, static_cast<double>(cfg.n * cfg.max_out) / (lat + cfg.req_lat + cfg.rsp_lat + 1.0));
    table += fmt::format("\n  D={:>2}  {:.3f} req/clk  (bound {:.3f})  wait for grant {}", lat, rate, bound,
                         b.req_wait().str());
    xbartb::check(rate >= 0.98 * bound, "{}: {:.3f} requests per clock at downstream latency {}, the outstanding "
                  "limit allows {:.3f}: a bubble in the crossbar", cfg.name, rate, lat, bound);
    co_await b.drain(4000);
  }
  dut.log().info("{} FIGURE requests per clock under full contention ({} clients x {} outstanding; D = downstream "
                 "latency, request to response handshake, cycles; bound = min(1, N*MAX/(D+{}))):{}",
                 cfg.name, cfg.n, cfg.max_out, cfg.req_lat + cfg.rsp_lat + 1, table);
}

// Drive the raw ports: reset, everything ready, no requests.
template <class V>
Task<> raw_reset(tb::Dut<V>& dut) {
  dut->rst_ni = 0;
  dut->cl_req_valid_i = 0;
  dut->cl_rsp_ready_i = 0;
  dut->mem_req_ready_i = 1;
  dut->mem_rsp_valid_i = 0;
  dut->cnt_clr_i = 0;
  tb::Clock(dut->clk_i, 10, "ns").start();
  co_await tb::ClockCycles(dut->clk_i, 3);
  tb::write(dut->rst_ni, 1);
  co_await tb::ClockCycles(dut->clk_i, 2);
}

// A downstream that answers a request nobody made must trip the crossbar's assertion
// (RspHasOutstanding_A). expect_fail: the test passes only if the RTL flags it.
// Catches: the assertion missing or too weak (a buggy SLC would go unnoticed).
template <class V>
Task<> spurious_response_flagged(tb::Dut<V>& dut) {
  co_await raw_reset(dut);
  xbartb::mem::Rsp r;
  r.op = xbartb::mem::Op::read;
  r.src = 1;
  r.tag = 5;
  tb::defer([&dut, r] {
    xbartb::mem::write_port(tb::SignalRef(dut->mem_rsp_i), xbartb::mem::pack(r));
    dut->mem_rsp_valid_i = 1;
  });
  co_await tb::RisingEdge(dut->clk_i);
  tb::write(dut->mem_rsp_valid_i, 0);
  co_await tb::ClockCycles(dut->clk_i, 5);
}

// A response whose src names no client must trip RspSrcKnown_A (and is dropped, not hung).
// Catches: the assertion missing; an illegal src silently delivered to some client.
template <class V>
Task<> unknown_src_flagged(tb::Dut<V>& dut, unsigned src) {
  co_await raw_reset(dut);
  xbartb::mem::Rsp r;
  r.op = xbartb::mem::Op::write;
  r.src = static_cast<std::uint8_t>(src);
  tb::defer([&dut, r] {
    xbartb::mem::write_port(tb::SignalRef(dut->mem_rsp_i), xbartb::mem::pack(r));
    dut->mem_rsp_valid_i = 1;
  });
  co_await tb::RisingEdge(dut->clk_i);
  tb::write(dut->mem_rsp_valid_i, 0);
  co_await tb::ClockCycles(dut->clk_i, 5);
}

constexpr tb::TestOptions kExpectFail{.expect_fail = true};

}  // namespace

TB_TEST(Vxbar_n4, n4_random_traffic) { co_await random_traffic(dut, kN4); }
TB_TEST(Vxbar_n4, n4_fairness) { co_await fairness(dut, kN4); }
TB_TEST(Vxbar_n4, n4_outstanding_limit) { co_await outstanding_limit(dut, kN4); }
TB_TEST(Vxbar_n4, n4_head_of_line) { co_await head_of_line(dut, kN4); }
TB_TEST(Vxbar_n4, n4_benchmark) { co_await benchmark(dut, kN4); }
TB_TEST_OPTS(Vxbar_n4, n4_spurious_response_flagged, (kExpectFail)) { co_await spurious_response_flagged(dut); }
TB_TEST_OPTS(Vxbar_n4, n4_unknown_src_flagged, (kExpectFail)) { co_await unknown_src_flagged(dut, 6); }

TB_TEST(Vxbar_n1, n1_random_traffic) { co_await random_traffic(dut, kN1); }
TB_TEST(Vxbar_n1, n1_outstanding_limit) { co_await outstanding_limit(dut, kN1); }
TB_TEST(Vxbar_n1, n1_benchmark) { co_await benchmark(dut, kN1); }

TB_TEST(Vxbar_n12, n12_random_traffic) { co_await random_traffic(dut, kN12); }
TB_TEST(Vxbar_n12, n12_fairness) { co_await fairness(dut, kN12); }
TB_TEST(Vxbar_n12, n12_outstanding_limit) { co_await outstanding_limit(dut, kN12); }
TB_TEST(Vxbar_n12, n12_head_of_line) { co_await head_of_line(dut, kN12); }
TB_TEST(Vxbar_n12, n12_benchmark) { co_await benchmark(dut, kN12); }
TB_TEST_OPTS(Vxbar_n12, n12_unknown_src_flagged, (kExpectFail)) { co_await unknown_src_flagged(dut, 12); }
