// Verification environment for the memory crossbar (rtl/xbar/mem_xbar.sv), written from its
// specification (docs/mem-crossbar.md and the rules of tessera_mem_pkg), not from the RTL:
//
//   - Client agents, one per port: valid/ready request masters with random gaps that use
//     their own tags (at most one request per tag outstanding, as the protocol requires),
//     random ready on their response port, and a flat record of what each has in flight.
//   - A downstream responder model: accepts requests with random backpressure, answers each
//     after a random latency, out of order, with random gaps; it can hold responses back
//     (all or per client).
//   - The reference: a request accepted from client i must reach the downstream unchanged
//     except src = i, in grant order; every response accepted from the downstream must reach
//     exactly client rsp.src, once, in the order the downstream returned it (per client);
//     its content must be what the client's own request calls for (expected_rsp of the
//     client's request with src = i: catches a misroute even between equal tags).
//   - Cycle-exact mirrors of the crossbar's observable state: outstanding count per client
//     (granted, response not yet taken) compared with cl_outstanding_o every cycle; the
//     statistics counters cnt_req/stall/limit compared every cycle; never a grant at
//     MAX_OUTSTANDING; never a grant to a client that is not requesting; a waiting eligible
//     client granted within N_CLIENTS grants; valid/data held while stalled on every output;
//     the crossbar never refuses a legal response (mem_rsp_ready_o high whenever offered:
//     the no-head-of-line-blocking guarantee).
//
// Everything is checked in one coroutine, once per clock: sample at RisingEdge (the values
// the flops sample), check, update the mirrors, then drive the next cycle with tb::defer.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mem_protocol.hpp"
#include "tb/coverage.hpp"
#include "tb/sim.hpp"
#include "tb/test.hpp"

namespace xbartb {

namespace mem = tb::mem;

// ---------------------------------------------------------------------------------------
// Model configuration (must match the PARAMS in rtl/xbar/CMakeLists.txt)

struct Cfg {
  const char* name;
  unsigned n;        // N_CLIENTS
  unsigned max_out;  // MAX_OUTSTANDING
  unsigned req_lat;  // cycles a request spends in the crossbar: REQ_SPILL
  unsigned rsp_lat;  // cycles a response spends in it: 1 (FIFO) + RSP_SPILL
  unsigned out_w() const {
    unsigned w = 1;
    while ((1U << w) < max_out + 1) ++w;
    return w;
  }
  static constexpr unsigned cnt_w = 32;
};

// ---------------------------------------------------------------------------------------
// Ports, type-erased so one environment serves every model configuration

struct Ports {
  tb::SignalRef clk, rst_n;
  tb::SignalRef cl_req_valid, cl_req_ready, cl_req, cl_rsp_valid, cl_rsp_ready, cl_rsp;
  tb::SignalRef mem_req_valid, mem_req_ready, mem_req, mem_rsp_valid, mem_rsp_ready, mem_rsp;
  tb::SignalRef cl_outstanding, cnt_clr, cnt_req, cnt_stall, cnt_limit;
};

template <class V>
Ports ports_of(tb::Dut<V>& dut) {
  V& t = dut.top();
  return Ports{{t.clk_i, "clk_i"},
               {t.rst_ni, "rst_ni"},
               {t.cl_req_valid_i, "cl_req_valid_i"},
               {t.cl_req_ready_o, "cl_req_ready_o"},
               {t.cl_req_i, "cl_req_i"},
               {t.cl_rsp_valid_o, "cl_rsp_valid_o"},
               {t.cl_rsp_ready_i, "cl_rsp_ready_i"},
               {t.cl_rsp_o, "cl_rsp_o"},
               {t.mem_req_valid_o, "mem_req_valid_o"},
               {t.mem_req_ready_i, "mem_req_ready_i"},
               {t.mem_req_o, "mem_req_o"},
               {t.mem_rsp_valid_i, "mem_rsp_valid_i"},
               {t.mem_rsp_ready_o, "mem_rsp_ready_o"},
               {t.mem_rsp_i, "mem_rsp_i"},
               {t.cl_outstanding_o, "cl_outstanding_o"},
               {t.cnt_clr_i, "cnt_clr_i"},
               {t.cnt_req_o, "cnt_req_o"},
               {t.cnt_stall_o, "cnt_stall_o"},
               {t.cnt_limit_o, "cnt_limit_o"}};
}

// A bit field of a port read as 32-bit words (any width up to 64).
inline std::uint64_t field(const std::vector<std::uint32_t>& w, unsigned lsb, unsigned width) {
  std::uint64_t v = 0;
  for (unsigned b = 0; b < width; ++b) {
    const unsigned bit = lsb + b;
    v |= static_cast<std::uint64_t>((w[bit / 32] >> (bit % 32)) & 1U) << b;
  }
  return v;
}

// ---------------------------------------------------------------------------------------
// What a downstream owes a request: a function of the request alone, so the client can
// predict its response from its own request (with src = its port) and the responder can
// build it from what it received.

inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

inline mem::Rsp expected_rsp(const mem::Req& r) {
  const std::uint64_t h = mix64(r.addr ^ (std::uint64_t{r.tag} << 32) ^ (std::uint64_t{r.src} << 40) ^
                                (std::uint64_t{r.dsid} << 48) ^ (static_cast<std::uint64_t>(r.op) << 56) ^
                                mix64(r.wstrb ^ r.wdata[0] ^ (std::uint64_t{r.wdata[63]} << 8)));
  mem::Rsp s;
  s.op = r.op;
  s.src = r.src;
  s.tag = r.tag;
  s.err = (h & 15) == 0;  // 1 in 16 answered with an error: passes through like any other
  if (r.op == mem::Op::read && !s.err)
    for (unsigned b = 0; b < mem::kLineBytes; ++b)
      s.rdata[b] = static_cast<std::uint8_t>(mix64(h + b / 8) >> (8 * (b % 8)));
  return s;
}

// ---------------------------------------------------------------------------------------
// Small statistics and coverage helpers

struct Stat {
  std::uint64_t n = 0, sum = 0, min = std::numeric_limits<std::uint64_t>::max(), max = 0;
  void add(std::uint64_t v) {
    ++n;
    sum += v;
    min = std::min(min, v);
    max = std::max(max, v);
  }
  double mean() const { return n ? static_cast<double>(sum) / static_cast<double>(n) : 0.0; }
  std::string str() const {
    return n ? fmt::format("min {} avg {:.2f} max {} (n={})", min, mean(), max, n) : std::string("n=0");
  }
};

using Coverage = tb::Coverage;  // functional coverage tally (tb/coverage.hpp)

template <class... A>
void check(bool cond, fmt::format_string<A...> f, A&&... a) {
  if (!cond) tb::fail(fmt::format(f, std::forward<A>(a)...));
}

// ---------------------------------------------------------------------------------------
// Agents

struct ClientKnobs {
  double p_issue = 0.5;      // chance per idle cycle of presenting a new request
  double p_rsp_ready = 0.8;  // chance per cycle that the response port is ready
};

struct Client {
  struct InFlight {
    mem::Req req;             // as the client sent it (its own src field is junk)
    std::uint64_t grant = 0;  // cycle of the request handshake
  };
  unsigned idx = 0;
  ClientKnobs k;
  std::uint64_t budget = std::numeric_limits<std::uint64_t>::max();  // requests left to issue
  bool presenting = false;
  mem::Req cur;
  std::uint64_t present_since = 0;
  std::map<std::uint8_t, InFlight> in_flight;  // by tag: granted, response not yet taken
  std::vector<std::uint8_t> free_tags;
  std::deque<mem::Rsp> deliver;  // responses the crossbar accepted for this client, in order
  std::deque<std::uint64_t> deliver_at;  // ... and the cycle it accepted each
  // Mirrors of the crossbar's per-client state.
  unsigned count = 0;  // outstanding: granted, response not yet taken by the client
  std::uint64_t cnt_req = 0, cnt_stall = 0, cnt_limit = 0;
  unsigned wait = 0;  // grants to others while this client waits eligible
  bool rsp_ready = false;
  std::optional<mem::Bits> held_rsp;  // response offered but not taken last cycle
  // Totals.
  std::uint64_t issued = 0, granted = 0, completed = 0;
};

struct DnKnobs {
  double p_req_ready = 0.8;  // downstream request ready per cycle
  unsigned lat_min = 0, lat_max = 8;  // extra cycles between request and response handshakes, above 1
  double p_long = 0;  // chance of a long latency (a miss)
  unsigned lat_long = 100;
  double p_rsp_gap = 0.1;  // chance of not offering a response although one is ready
  bool in_order = false;   // answer the oldest ready request first
};

struct Pending {
  mem::Rsp rsp;
  std::uint64_t ready_at = 0;
  std::uint64_t seq = 0;
};

// ---------------------------------------------------------------------------------------
// The bench

class XbarBench {
 public:
  XbarBench(Ports p, Cfg cfg) : p_(std::move(p)), cfg_(cfg), clients_(cfg.n) {
    for (unsigned i = 0; i < cfg.n; ++i) {
      clients_[i].idx = i;
      for (unsigned t = 0; t < 256; ++t) clients_[i].free_tags.push_back(static_cast<std::uint8_t>(t));
    }
  }

  const Cfg& cfg() const { return cfg_; }
  Client& client(unsigned i) { return clients_.at(i); }
  std::vector<Client>& clients() { return clients_; }
  DnKnobs& dn() { return dn_; }
  Coverage& cov() { return cov_; }
  std::uint64_t cycle() const { return cycle_; }
  std::uint32_t& hold_mask() { return hold_mask_; }  // clients whose responses are held back
  std::uint64_t total_grants() const { return total_grants_; }
  unsigned max_wait() const { return max_wait_; }
  const Stat& req_wait() const { return req_wait_; }
  const Stat& req_path() const { return req_path_; }
  const Stat& rsp_path() const { return rsp_path_; }
  std::size_t pending_for(unsigned i) const {
    std::size_t k = (dn_presenting_ && dn_cur_.rsp.src == i) ? 1 : 0;
    for (const auto& pe : pending_)
      if (pe.rsp.src == i) ++k;
    return k;
  }
  void clear_latency_stats() {
    req_wait_ = {};
    req_path_ = {};
    rsp_path_ = {};
  }
  // Pulse cnt_clr_i in the next cycle.
  void clear_counters() { clr_next_ = true; }
  // Grants seen in the last sampled cycle: index or -1.
  int last_grant() const { return last_grant_; }
  std::uint64_t cl_req_ready_seen() const { return last_req_ready_; }

  // Drive every input, start the clock, reset for 3 cycles.
  tb::Task<> reset() {
    p_.rst_n.write(0);
    p_.cl_req_valid.write(0);
    p_.cl_rsp_ready.write(0);
    p_.mem_req_ready.write(0);
    p_.mem_rsp_valid.write(0);
    p_.cnt_clr.write(0);
    tb::Clock(p_.clk, 10, "ns").start();
    co_await tb::ClockCycles(p_.clk, 3);
    tb::write(p_.rst_n, 1);
    co_await tb::RisingEdge(p_.clk);  // first cycle out of reset
  }

  // One clock: check what happened at this edge, then drive the next cycle.
  tb::Task<> step() {
    co_await tb::RisingEdge(p_.clk);
    sample();
    ++cycle_;
    drive();
  }
  tb::Task<> run(std::uint64_t cycles) {
    for (std::uint64_t c = 0; c < cycles; ++c) co_await step();
  }

  // Run until done() holds; fail (instead of hanging) after max_cycles.
  template <class Pred>
  tb::Task<> run_until(Pred done, std::uint64_t max_cycles, std::string what) {
    for (std::uint64_t k = 0; !done(); ++k) {
      if (k == max_cycles) tb::fail(fmt::format("{}: {} did not happen within {} cycles", where(), what, max_cycles));
      co_await step();
    }
  }

  // Stop issuing and run until every request has completed; a crossbar that loses a
  // request or a response fails here instead of hanging.
  tb::Task<> drain(std::uint64_t max_cycles) {
    for (auto& c : clients_) c.budget = 0;
    for (std::uint64_t k = 0;; ++k) {
      if (idle()) break;
      if (k == max_cycles) {
        std::string s;
        for (auto& c : clients_)
          s += fmt::format(" client {}: {} in flight, {} to deliver, presenting={};", c.idx, c.in_flight.size(),
                           c.deliver.size(), c.presenting);
        tb::fail(fmt::format("not drained after {} cycles (lost request or response?):{} downstream pending {}",
                             max_cycles, s, pending_.size() + (dn_presenting_ ? 1 : 0)));
      }
      co_await step();
    }
  }
  bool idle() const {
    for (const auto& c : clients_)
      if (c.presenting || !c.in_flight.empty()) return false;
    return pending_.empty() && !dn_presenting_ && expect_dn_.empty();
  }

 private:
  std::string where() const { return fmt::format("{} cycle {} ({:.0f} ns)", cfg_.name, cycle_, tb::get_sim_time()); }

  void sample() {
    const unsigned n = cfg_.n;
    const std::uint64_t all = (n >= 64) ? ~0ULL : ((1ULL << n) - 1);
    const std::uint64_t q_valid = p_.cl_req_valid.read() & all, q_ready = p_.cl_req_ready.read() & all;
    const std::uint64_t s_valid = p_.cl_rsp_valid.read() & all, s_ready = p_.cl_rsp_ready.read() & all;
    const bool mq_valid = p_.mem_req_valid.bit0(), mq_ready = p_.mem_req_ready.bit0();
    const bool ms_valid = p_.mem_rsp_valid.bit0(), ms_ready = p_.mem_rsp_ready.bit0();
    const bool clr = p_.cnt_clr.bit0();

    // --- grants -------------------------------------------------------------------------
    check((q_ready & ~q_valid) == 0, "{}: cl_req_ready_o={:#x} grants a client that is not requesting (valid {:#x})",
          where(), q_ready, q_valid);
    check((q_ready & (q_ready - 1)) == 0, "{}: cl_req_ready_o={:#x} is not one-hot", where(), q_ready);
    last_req_ready_ = q_ready;
    int g = -1;
    for (unsigned i = 0; i < n; ++i)
      if ((q_ready >> i) & 1U) g = static_cast<int>(i);
    last_grant_ = g;

    // --- mirrors compared with the crossbar's state before this edge -----------------------
    const auto outw = p_.cl_outstanding.read_words();
    const auto w_req = p_.cnt_req.read_words(), w_stall = p_.cnt_stall.read_words(),
               w_limit = p_.cnt_limit.read_words();
    const unsigned ow = cfg_.out_w(), cw = Cfg::cnt_w;
    for (unsigned i = 0; i < n; ++i) {
      Client& c = clients_[i];
      const auto got = field(outw, i * ow, ow);
      check(got == c.count, "{}: cl_outstanding_o[{}]={} but client {} has {} granted requests whose response it has "
            "not taken", where(), i, got, i, c.count);
      check(c.count <= cfg_.max_out, "{}: client {} has {} outstanding, more than MAX_OUTSTANDING={}", where(), i,
            c.count, cfg_.max_out);
      const auto r = field(w_req, i * cw, cw), s = field(w_stall, i * cw, cw), l = field(w_limit, i * cw, cw);
      check(r == c.cnt_req && s == c.cnt_stall && l == c.cnt_limit,
            "{}: client {} counters req/stall/limit = {}/{}/{}, expected {}/{}/{}", where(), i, r, s, l, c.cnt_req,
            c.cnt_stall, c.cnt_limit);
    }

    // --- fairness: grants to others while an eligible client waits ------------------------
    for (unsigned i = 0; i < n; ++i) {
      Client& c = clients_[i];
      const bool eligible = ((q_valid >> i) & 1U) && c.count < cfg_.max_out;
      if (!eligible || static_cast<int>(i) == g) {
        c.wait = 0;
      } else if (g >= 0) {
        ++c.wait;
        max_wait_ = std::max(max_wait_, c.wait);
        check(c.wait <= n - 1, "{}: client {} has waited through {} grants to others (at most N_CLIENTS-1 = {})",
              where(), i, c.wait, n - 1);
      }
    }
    cov_.hit("contention (two or more requesting)", (q_valid & (q_valid - 1)) != 0);

    // --- client request handshakes ----------------------------------------------------------
    for (unsigned i = 0; i < n; ++i) {
      Client& c = clients_[i];
      const bool v = (q_valid >> i) & 1U, r = (q_ready >> i) & 1U;
      if (v != c.presenting)
        tb::fail(fmt::format("{}: bench error: client {} valid={} but presenting={}", where(), i, v, c.presenting));
      if (v && !r) {
        if (!clr) ++c.cnt_stall;
        if (c.count == cfg_.max_out) {
          if (!clr) ++c.cnt_limit;
          cov_.hit("client waiting at its outstanding limit");
        }
      }
      if (v && r) {
        check(c.count < cfg_.max_out, "{}: client {} granted with {} outstanding = MAX_OUTSTANDING", where(), i,
              c.count);
        mem::Req fwd = c.cur;
        fwd.src = static_cast<std::uint8_t>(i);
        expect_dn_.push_back(fwd);
        grant_cycle_[key(i, c.cur.tag)] = cycle_;
        c.in_flight[c.cur.tag] = Client::InFlight{c.cur, cycle_};
        c.presenting = false;
        ++c.count;
        ++c.granted;
        ++total_grants_;
        if (!clr) ++c.cnt_req;
        req_wait_.add(cycle_ - c.present_since);
      }
    }

    // --- downstream request -------------------------------------------------------------
    if (held_req_) {
      check(mq_valid, "{}: mem_req_valid_o dropped before the downstream took the request", where());
      check(p_.mem_req.read_words() == *held_req_, "{}: mem_req_o changed while stalled", where());
    }
    held_req_.reset();
    if (mq_valid && !mq_ready) held_req_ = p_.mem_req.read_words();
    cov_.hit("downstream request stall", mq_valid && !mq_ready);
    if (mq_valid && mq_ready) {
      const mem::Req got = mem::unpack_req(mem::read_port(p_.mem_req, mem::kReqW));
      check(!expect_dn_.empty(), "{}: the downstream received {} but no client request is waiting for it", where(),
            mem::describe(got));
      const mem::Req want = expect_dn_.front();
      expect_dn_.pop_front();
      check(got == want,
            "{}: the downstream received {} (wdata[0..3] {:02x}{:02x}{:02x}{:02x}); next in grant order is {} "
            "(wdata[0..3] {:02x}{:02x}{:02x}{:02x}): requests must arrive in grant order, unchanged except src",
            where(), mem::describe(got), got.wdata[0], got.wdata[1], got.wdata[2], got.wdata[3],
            mem::describe(want), want.wdata[0], want.wdata[1], want.wdata[2], want.wdata[3]);
      req_path_.add(cycle_ - grant_cycle_.at(key(got.src, got.tag)));
      grant_cycle_.erase(key(got.src, got.tag));
      const std::uint64_t lat = (dn_.p_long > 0 && tb::chance(dn_.p_long))
                                    ? dn_.lat_long
                                    : tb::randint(dn_.lat_min, std::max(dn_.lat_min, dn_.lat_max));
      // Offered from the next cycle on after `lat` extra cycles: the response handshake is
      // at the earliest lat + 1 edges after this one.
      pending_.push_back(Pending{expected_rsp(got), cycle_ + 1 + lat, seq_++});
    }

    // --- downstream response ------------------------------------------------------------
    if (dn_presenting_) {
      check(ms_valid, "{}: bench error: mem_rsp_valid_i low while presenting", where());
      // The crossbar's guarantee: a response the protocol allows is always accepted.
      check(ms_ready, "{}: mem_rsp_ready_o low while the downstream offers {} (client {} has {} outstanding): "
            "the crossbar must never backpressure a legal response", where(), mem::describe(dn_cur_.rsp),
            dn_cur_.rsp.src, dn_cur_.rsp.src < n ? clients_[dn_cur_.rsp.src].count : 0);
      Client& c = clients_.at(dn_cur_.rsp.src);
      c.deliver.push_back(dn_cur_.rsp);
      cov_.hit("a client's whole MAX_OUTSTANDING buffered in the crossbar", c.deliver.size() == cfg_.max_out);
      c.deliver_at.push_back(cycle_);
      dn_presenting_ = false;
    }

    // --- client responses --------------------------------------------------------------
    for (unsigned i = 0; i < n; ++i) {
      Client& c = clients_[i];
      const bool v = (s_valid >> i) & 1U, r = (s_ready >> i) & 1U;
      if (c.held_rsp) {
        check(v, "{}: cl_rsp_valid_o[{}] dropped before the client took the response", where(), i);
        check(mem::read_port(p_.cl_rsp, mem::kRspW, i).words() == c.held_rsp->words(),
              "{}: cl_rsp_o[{}] changed while the client was not ready", where(), i);
      }
      c.held_rsp.reset();
      if (!v) continue;
      check(!c.deliver.empty(), "{}: client {} is offered a response, but the downstream returned none for it that "
            "it has not already received (duplicate or misrouted response)", where(), i);
      if (!r) {
        c.held_rsp = mem::read_port(p_.cl_rsp, mem::kRspW, i);
        cov_.hit("client response stall");
        continue;
      }
      const mem::Rsp got = mem::unpack_rsp(mem::read_port(p_.cl_rsp, mem::kRspW, i));
      check(got == c.deliver.front(),
            "{}: client {} received {}; the next response the downstream returned for it is {} (responses to one "
            "client are delivered in the order the downstream returned them)",
            where(), i, mem::describe(got), mem::describe(c.deliver.front()));
      auto it = c.in_flight.find(got.tag);
      check(it != c.in_flight.end(), "{}: client {} received {} for a tag it has no request outstanding on", where(),
            i, mem::describe(got));
      mem::Req own = it->second.req;
      own.src = static_cast<std::uint8_t>(i);
      check(got == expected_rsp(own), "{}: client {} received {} but its request {} calls for {} (misrouted?)",
            where(), i, mem::describe(got), mem::describe(own), mem::describe(expected_rsp(own)));
      rsp_path_.add(cycle_ - c.deliver_at.front());
      c.deliver.pop_front();
      c.deliver_at.pop_front();
      c.in_flight.erase(it);
      c.free_tags.push_back(got.tag);
      --c.count;
      ++c.completed;
      cov_.hit("response to a client at its limit", c.count + 1 == cfg_.max_out);
      cov_.hit("grant and response to one client in one cycle", ((q_valid & q_ready) >> i) & 1U);
    }
    cov_.hit("request handshake and response handshake in one cycle", (q_valid & q_ready) != 0 && ms_valid);

    if (clr) {
      for (auto& c : clients_) c.cnt_req = c.cnt_stall = c.cnt_limit = 0;
      cov_.hit("counters cleared");
    }
  }

  void drive() {
    const unsigned n = cfg_.n;
    std::uint64_t q_valid = 0, s_ready = 0;
    std::vector<std::pair<unsigned, mem::Bits>> writes;
    for (unsigned i = 0; i < n; ++i) {
      Client& c = clients_[i];
      if (!c.presenting && c.budget > 0 && !c.free_tags.empty() && tb::chance(c.k.p_issue)) {
        // A fresh request on a free tag. Fields are random (the crossbar must pass them
        // through untouched), src is junk (the crossbar overwrites it).
        const std::size_t t = tb::randint(0, c.free_tags.size() - 1);
        mem::Req r;
        r.tag = c.free_tags[t];
        c.free_tags[t] = c.free_tags.back();
        c.free_tags.pop_back();
        const auto op = tb::randint(0, 99);
        r.op = op < 50 ? mem::Op::read : op < 85 ? mem::Op::write : mem::Op::prefetch;
        r.addr = static_cast<std::uint32_t>(tb::randint(0, 0xffffffffULL));
        if (!tb::chance(0.05)) r.addr &= ~0x3fU;
        r.dsid = static_cast<std::uint8_t>(tb::randint(0, 63));
        r.src = static_cast<std::uint8_t>(tb::randint(0, 31));
        if (r.op == mem::Op::write) {
          r.wstrb = tb::rng()();
          for (auto& b : r.wdata) b = static_cast<std::uint8_t>(tb::randint(0, 255));
        }
        c.cur = r;
        c.presenting = true;
        c.present_since = cycle_;
        --c.budget;
        ++c.issued;
        writes.emplace_back(i, mem::pack(r));
      }
      if (c.presenting) q_valid |= 1ULL << i;
      c.rsp_ready = tb::chance(c.k.p_rsp_ready);
      if (c.rsp_ready) s_ready |= 1ULL << i;
    }

    const bool mq_ready = tb::chance(dn_.p_req_ready);
    std::optional<mem::Bits> rsp_write;
    if (!dn_presenting_ && !tb::chance(dn_.p_rsp_gap)) {
      std::vector<std::size_t> cand;
      for (std::size_t k = 0; k < pending_.size(); ++k)
        if (pending_[k].ready_at <= cycle_ && !((hold_mask_ >> pending_[k].rsp.src) & 1U)) cand.push_back(k);
      if (!cand.empty()) {
        std::size_t pick = cand[0];
        if (dn_.in_order) {
          for (auto k : cand)
            if (pending_[k].seq < pending_[pick].seq) pick = k;
        } else {
          pick = cand[tb::randint(0, cand.size() - 1)];
        }
        std::uint64_t oldest = pending_[pick].seq;
        for (const auto& pe : pending_) oldest = std::min(oldest, pe.seq);
        cov_.hit("response out of order", pending_[pick].seq != oldest);
        dn_cur_ = pending_[pick];
        pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(pick));
        dn_presenting_ = true;
        rsp_write = mem::pack(dn_cur_.rsp);
      }
    }
    const bool clr = clr_next_;
    clr_next_ = false;

    tb::defer([p = p_, q_valid, s_ready, mq_ready, ms_valid = dn_presenting_, clr, writes = std::move(writes),
               rsp_write = std::move(rsp_write)] {
      for (const auto& [i, bits] : writes) mem::write_port(p.cl_req, bits, i);
      p.cl_req_valid.write(q_valid);
      p.cl_rsp_ready.write(s_ready);
      p.mem_req_ready.write(mq_ready ? 1 : 0);
      p.mem_rsp_valid.write(ms_valid ? 1 : 0);
      if (rsp_write) mem::write_port(p.mem_rsp, *rsp_write);
      p.cnt_clr.write(clr ? 1 : 0);
    });
  }

  static std::uint32_t key(unsigned src, unsigned tag) { return (src << 8) | tag; }

  Ports p_;
  Cfg cfg_;
  std::vector<Client> clients_;
  DnKnobs dn_;
  Coverage cov_;
  std::uint64_t cycle_ = 0;
  std::deque<mem::Req> expect_dn_;  // granted requests, in grant order, src stamped
  std::map<std::uint32_t, std::uint64_t> grant_cycle_;
  std::optional<std::vector<std::uint32_t>> held_req_;
  std::vector<Pending> pending_;
  bool dn_presenting_ = false;
  Pending dn_cur_;
  std::uint64_t seq_ = 0;
  std::uint32_t hold_mask_ = 0;
  bool clr_next_ = false;
  std::uint64_t total_grants_ = 0;
  unsigned max_wait_ = 0;
  int last_grant_ = -1;
  std::uint64_t last_req_ready_ = 0;
  Stat req_wait_, req_path_, rsp_path_;
};

}  // namespace xbartb
