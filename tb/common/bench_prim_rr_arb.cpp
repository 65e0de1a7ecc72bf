// Bench for the round-robin arbiters: prim_rr_arb (flat, N=5) and prim_rr_arb_tree (tree,
// N=12, not a power of two), both WIDTH=8 and LOCK_IN=1 (the default). The two share one
// specification (the "Protocol" paragraph of rtl/common/prim_rr_arb.sv), so one reference
// model and one set of tests serve both.
//
// Reference model, from that paragraph: a priority pointer (requester 0 first after reset);
// the winner is the first requester at or after the pointer, circularly; valid_o = |req_i;
// gnt_o = onehot(winner) when ready_i; after a transfer to i the pointer moves to i+1; with
// LOCK_IN, a stalled winner (valid_o && !ready_i) parks the pointer on itself.
//
// Besides the cycle model, the tests check the properties directly: one-hot grants only to
// requesters, data_o = data_i[idx_o], bounded wait (N-1 transfers to others at most) and
// lock stability, so a bug shared by the model and the RTL still has to get past them.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "Vprim_rr_arb_n5.h"
#include "Vprim_rr_arb_tree_n12.h"
#include "prim_tb.hpp"
#include "tb/test.hpp"

using tb::RisingEdge;
using tb::Task;

namespace {

constexpr unsigned kWidth = 8;
constexpr unsigned kMaxN = 16;

struct ArbIn {
  std::uint32_t req = 0;
  std::array<std::uint8_t, kMaxN> data{};
  bool ready = false;
};
struct ArbOut {
  bool valid = false;
  unsigned idx = 0;
  std::uint32_t gnt = 0;
  std::uint8_t data = 0;
};

class RrArbModel {
 public:
  RrArbModel(unsigned n, bool lock) : n_(n), lock_(lock) {}
  ArbOut outputs(const ArbIn& in) const {
    ArbOut o;
    for (unsigned k = 0; k < n_; ++k) {
      const unsigned i = (ptr_ + k) % n_;
      if ((in.req >> i) & 1U) {
        o.valid = true;
        o.idx = i;
        break;
      }
    }
    o.gnt = o.valid && in.ready ? 1U << o.idx : 0;
    o.data = o.valid ? in.data[o.idx] : 0;
    return o;
  }
  void clock(const ArbIn& in) {
    const ArbOut o = outputs(in);
    if (!o.valid) return;
    if (in.ready)
      ptr_ = (o.idx + 1) % n_;  // the winner goes to the back of the line
    else if (lock_)
      ptr_ = o.idx;  // stalled winner keeps its place
  }
  unsigned pointer() const { return ptr_; }

 private:
  unsigned n_;
  bool lock_;
  unsigned ptr_ = 0;
};

template <class V>
class ArbBench {
 public:
  ArbBench(tb::Dut<V>& dut, unsigned n) : dut_(dut), n_(n), model_(n, true), wait_(n, 0) {}

  Task<> reset() {
    co_await primtb::clock_and_reset(dut_, [this] { apply(ArbIn{}); });
  }

  // One cycle with `in`: every output compared with the model, and the properties checked
  // on their own (grant legality, data routing, bounded wait, lock).
  Task<ArbOut> cycle(ArbIn in) {
    in.req &= (1U << n_) - 1;
    tb::defer([this, in] { apply(in); });
    co_await RisingEdge(dut_->clk_i);
    ArbOut got;
    got.valid = dut_->valid_o;
    got.idx = dut_->idx_o;
    got.gnt = static_cast<std::uint32_t>(dut_->gnt_o);
    got.data = static_cast<std::uint8_t>(dut_->data_o);
    const ArbOut want = model_.outputs(in);
    auto where = [&] {
      return fmt::format("N={} cycle {} ({:.0f} ns) with req_i={:#0{}b} ready_i={} (model pointer {})", n_, cycle_,
                         tb::get_sim_time(), in.req, n_ + 2, in.ready, model_.pointer());
    };
    // Properties that hold whatever the pointer: catch a bug the model might share.
    if (got.valid != (in.req != 0)) tb::fail(fmt::format("{}: valid_o={} must be |req_i", where(), got.valid));
    if ((got.gnt & (got.gnt - 1)) != 0) tb::fail(fmt::format("{}: gnt_o={:#b} is not one-hot", where(), got.gnt));
    if ((got.gnt & ~in.req) != 0)
      tb::fail(fmt::format("{}: gnt_o={:#b} grants a requester that is not requesting", where(), got.gnt));
    if (!in.ready && got.gnt != 0) tb::fail(fmt::format("{}: gnt_o={:#b} while ready_i is low", where(), got.gnt));
    if (got.valid) {
      if (!(got.idx < n_ && ((in.req >> got.idx) & 1U)))
        tb::fail(fmt::format("{}: idx_o={} is not requesting", where(), got.idx));
      if (got.data != in.data[got.idx])
        tb::fail(fmt::format("{}: data_o={:#04x} but requester idx_o={} offers {:#04x}", where(), got.data, got.idx,
                             in.data[got.idx]));
      if (in.ready && got.gnt != (1U << got.idx))
        tb::fail(fmt::format("{}: gnt_o={:#b} does not match idx_o={}", where(), got.gnt, got.idx));
    }
    // Lock: a winner stalled in the previous cycle that still requests must win again.
    if (prev_stalled_ && ((in.req >> prev_idx_) & 1U) && !(got.valid && got.idx == prev_idx_))
      tb::fail(fmt::format("{}: lock broken, requester {} was stalled last cycle and still requests but idx_o={}",
                           where(), prev_idx_, got.idx));
    // The exact round-robin choice.
    std::string diff;
    if (got.valid != want.valid) diff += fmt::format(" valid_o={} (expected {})", got.valid, want.valid);
    if (want.valid && got.idx != want.idx) diff += fmt::format(" idx_o={} (expected {})", got.idx, want.idx);
    if (got.gnt != want.gnt) diff += fmt::format(" gnt_o={:#b} (expected {:#b})", got.gnt, want.gnt);
    if (!diff.empty()) tb::fail(fmt::format("{}:{}", where(), diff));
    // Bounded wait: transfers to others while a requester keeps requesting.
    const bool transfer = got.valid && in.ready;
    for (unsigned i = 0; i < n_; ++i) {
      if (!((in.req >> i) & 1U) || ((got.gnt >> i) & 1U)) {
        wait_[i] = 0;
      } else if (transfer) {
        ++wait_[i];
        if (wait_[i] > n_ - 1)
          tb::fail(fmt::format("{}: requester {} has waited through {} transfers to others (at most N-1={} allowed)",
                               where(), i, wait_[i], n_ - 1));
        max_wait_ = std::max(max_wait_, wait_[i]);
      }
    }
    cov_.hit("transfer", transfer);
    cov_.hit("stall", got.valid && !in.ready);
    cov_.hit("stalled winner challenged by a requester that would win without lock",
             prev_stalled_ && ((in.req >> prev_idx_) & 1U) && challenger(in.req, prev_ptr_, prev_idx_));
    cov_.hit("contention", (in.req & (in.req - 1)) != 0);
    cov_.hit("wrap-around grant", transfer && got.idx < model_.pointer());
    prev_stalled_ = got.valid && !in.ready;
    prev_idx_ = got.idx;
    prev_ptr_ = model_.pointer();
    model_.clock(in);
    ++cycle_;
    co_return got;
  }

  primtb::Coverage& coverage() { return cov_; }
  unsigned max_wait() const { return max_wait_; }
  unsigned n() const { return n_; }

 private:
  // Does a requester lie circularly in [ptr, w)? Without the lock it would beat the stalled
  // winner w, whose priority came from pointer ptr.
  bool challenger(std::uint32_t req, unsigned ptr, unsigned w) const {
    for (unsigned i = ptr; i != w; i = (i + 1) % n_)
      if ((req >> i) & 1U) return true;
    return false;
  }

  void apply(const ArbIn& in) {
    dut_->req_i = in.req;
    for (unsigned i = 0; i < n_; ++i) primtb::set_field(dut_->data_i, i * kWidth, kWidth, in.data[i]);
    dut_->ready_i = in.ready;
  }

  tb::Dut<V>& dut_;
  unsigned n_;
  RrArbModel model_;
  std::vector<unsigned> wait_;
  unsigned max_wait_ = 0;
  bool prev_stalled_ = false;
  unsigned prev_idx_ = 0;
  unsigned prev_ptr_ = 0;
  std::uint64_t cycle_ = 0;
  primtb::Coverage cov_;
};

// Requesters behave like valid/ready masters: each raises req with a payload when it has
// one (random gaps), holds req and payload until granted. The output stalls randomly, in
// phases. Each requester's payloads carry a sequence number, checked at the output.
// Catches: unfair or non-round-robin arbitration, a requester starved past N-1 transfers,
// grants to non-requesters, wrong data routed to data_o, a transfer lost or duplicated
// (sequence numbers), lock not holding a stalled winner.
template <class V>
Task<> random_masters(tb::Dut<V>& dut, unsigned n) {
  ArbBench<V> b(dut, n);
  co_await b.reset();
  std::vector<bool> active(n, false);
  std::vector<std::uint8_t> payload(n, 0), seq(n, 0), next_expected(n, 0);
  const double preq[] = {1.0, 0.5, 0.1, 0.9};
  const double prdy[] = {1.0, 0.7, 0.3, 0.1};
  std::size_t phr = 0, phy = 0;
  std::uint64_t left = 0;
  const std::uint64_t cycles = tb::scaled(100000, 2000000);
  std::uint64_t transfers = 0;
  for (std::uint64_t c = 0; c < cycles; ++c) {
    if (left == 0) {
      phr = tb::randint(0, std::size(preq) - 1);
      phy = tb::randint(0, std::size(prdy) - 1);
      left = tb::randint(20, 200);
    }
    --left;
    ArbIn in;
    for (unsigned i = 0; i < n; ++i) {
      if (!active[i] && tb::chance(preq[phr])) {
        active[i] = true;
        // Low bits: sequence number (checks order/loss); high bits: random.
        payload[i] = static_cast<std::uint8_t>((seq[i] & 0x0f) | (tb::randint(0, 15) << 4));
      }
      if (active[i]) in.req |= 1U << i;
      in.data[i] = active[i] ? payload[i] : static_cast<std::uint8_t>(tb::randint(0, 255));
    }
    in.ready = tb::chance(prdy[phy]);
    const ArbOut o = co_await b.cycle(in);
    for (unsigned i = 0; i < n; ++i) {
      if ((o.gnt >> i) & 1U) {
        primtb::check((o.data & 0x0f) == (next_expected[i] & 0x0f),
                      "requester {}: transfer with sequence {} but {} was next", i, o.data & 0x0f,
                      next_expected[i] & 0x0f);
        ++next_expected[i];
        ++seq[i];
        active[i] = false;
        ++transfers;
      }
    }
  }
  auto& cov = b.coverage();
  dut.log().info("N={}: {} cycles, {} transfers, longest wait {} transfers; {}", n, cycles, transfers, b.max_wait(),
                 cov.report());
  cov.require("transfer", cycles / 4);
  cov.require("contention", cycles / 4);
  cov.require("stall", 1000);
  cov.require("stalled winner challenged by a requester that would win without lock", 5);
  cov.require("wrap-around grant", 100);
  primtb::check(b.max_wait() == n - 1, "the stimulus should reach the worst-case wait N-1={}, reached {}", n - 1,
                b.max_wait());
}

// Requests change at random every cycle, including stalled winners that withdraw (not a
// valid/ready master, but the spec defines what happens: arbitration restarts from the
// parked pointer).
// Catches: pointer updates on cycles without a transfer, the pointer not restarting from a
// withdrawn stalled winner, combinational idx_o/gnt_o errors for arbitrary masks (the
// tree's "at or after the pointer" ordering across subtrees, padded leaves for N=12).
template <class V>
Task<> random_requests(tb::Dut<V>& dut, unsigned n) {
  ArbBench<V> b(dut, n);
  co_await b.reset();
  const std::uint64_t cycles = tb::scaled(100000, 2000000);
  for (std::uint64_t c = 0; c < cycles; ++c) {
    ArbIn in;
    const double density = (c / 1000) % 3 == 0 ? 0.15 : (c / 1000) % 3 == 1 ? 0.5 : 0.85;
    for (unsigned i = 0; i < n; ++i) {
      if (tb::chance(density)) in.req |= 1U << i;
      in.data[i] = static_cast<std::uint8_t>(tb::randint(0, 255));
    }
    in.ready = tb::chance(0.6);
    co_await b.cycle(in);
  }
  b.coverage().require("transfer", cycles / 4);
  b.coverage().require("wrap-around grant", 1000);
}

// Everyone requests all the time: grants must go 0, 1, ..., N-1, 0, ... from reset, with
// any pattern of output stalls; then a fixed random subset requests and the grants must
// walk that subset in increasing circular order.
// Catches: a starting pointer other than 0, a pointer that skips or repeats a requester,
// priority that is fixed or per-level (PULP tree style) rather than exact round robin.
template <class V>
Task<> round_robin_order(tb::Dut<V>& dut, unsigned n) {
  ArbBench<V> b(dut, n);
  co_await b.reset();
  ArbIn in;
  in.req = (1U << n) - 1;
  for (unsigned i = 0; i < n; ++i) in.data[i] = static_cast<std::uint8_t>(0xA0 + i);
  unsigned expect = 0;
  for (int c = 0; c < 20 * static_cast<int>(n); ++c) {
    in.ready = tb::chance(0.6);
    const ArbOut o = co_await b.cycle(in);
    primtb::check(o.valid && o.idx == expect, "all requesting: idx_o={} but requester {} is next in round robin", o.idx,
                  expect);
    if (in.ready) expect = (expect + 1) % n;
  }
  for (int round = 0; round < 40; ++round) {
    const auto mask = static_cast<std::uint32_t>(tb::randint(1, (1ULL << n) - 1));
    in.req = mask;
    unsigned last = n;  // previous grant in this round
    for (int c = 0; c < 3 * static_cast<int>(n); ++c) {
      in.ready = true;
      const ArbOut o = co_await b.cycle(in);
      if (last != n) {
        // The next granted requester is the first one in the mask after the last grant.
        unsigned want = last;
        for (unsigned k = 1; k <= n; ++k) {
          const unsigned i = (last + k) % n;
          if ((mask >> i) & 1U) {
            want = i;
            break;
          }
        }
        primtb::check(o.idx == want, "req_i={:#b}: after a grant to {} the next must be {}, got {}", mask, last, want,
                      o.idx);
      }
      last = o.idx;
    }
  }
}

// Directed lock scenarios (LOCK_IN=1).
// Catches: a stalled winner displaced by a requester that would have had priority without
// lock (an AXI violation: valid/data of the granted master change under the sink), and the
// wrong restart point when the stalled winner withdraws.
template <class V>
Task<> lock_directed(tb::Dut<V>& dut, unsigned n) {
  ArbBench<V> b(dut, n);
  co_await b.reset();
  ArbIn in;
  for (unsigned i = 0; i < n; ++i) in.data[i] = static_cast<std::uint8_t>(0x50 + i);
  // Grant requester 1 so the pointer sits at 2.
  in.req = 1U << 1;
  in.ready = true;
  ArbOut o = co_await b.cycle(in);
  tb::check(o.gnt == 1U << 1, "lone requester 1 is granted");
  // Requesters 3 and 4 request, output stalled: 3 wins and is held.
  in.req = (1U << 3) | (1U << 4);
  in.ready = false;
  o = co_await b.cycle(in);
  tb::check(o.valid && o.idx == 3 && o.gnt == 0, "3 wins from pointer 2, no grant while stalled");
  // Requester 2 arrives: it is at the old pointer, but 3 holds the lock.
  in.req |= 1U << 2;
  for (int c = 0; c < 4; ++c) {
    o = co_await b.cycle(in);
    primtb::check(o.idx == 3 && o.data == 0x53,
                  "stalled winner 3 must keep idx_o/data_o while requester 2 waits (got {})", o.idx);
  }
  in.ready = true;
  o = co_await b.cycle(in);
  tb::check(o.gnt == 1U << 3, "3 is granted when the output is ready");
  o = co_await b.cycle(in);
  tb::check(o.gnt == 1U << 4, "then 4 (the pointer moved past 3)");
  in.req &= ~(1U << 4);
  o = co_await b.cycle(in);
  tb::check(o.gnt == 1U << 2, "then 2, after wrapping around");
  // Stalled winner withdraws: arbitration restarts at its position.
  in.req = (1U << 0) | (1U << 3) | (1U << 4);
  in.ready = false;
  o = co_await b.cycle(in);
  tb::check(o.idx == 3, "from pointer 3, requester 3 wins");
  in.req &= ~(1U << 3);
  o = co_await b.cycle(in);
  tb::check(o.idx == 4, "3 withdrew while stalled: the next at or after 3 is 4, not 0");
}

constexpr unsigned kN5 = 5, kN12 = 12;

}  // namespace

TB_TEST(Vprim_rr_arb_n5, n5_random_masters) { co_await random_masters(dut, kN5); }
TB_TEST(Vprim_rr_arb_n5, n5_random_requests) { co_await random_requests(dut, kN5); }
TB_TEST(Vprim_rr_arb_n5, n5_round_robin_order) { co_await round_robin_order(dut, kN5); }
TB_TEST(Vprim_rr_arb_n5, n5_lock_directed) { co_await lock_directed(dut, kN5); }

TB_TEST(Vprim_rr_arb_tree_n12, tree12_random_masters) { co_await random_masters(dut, kN12); }
TB_TEST(Vprim_rr_arb_tree_n12, tree12_random_requests) { co_await random_requests(dut, kN12); }
TB_TEST(Vprim_rr_arb_tree_n12, tree12_round_robin_order) { co_await round_robin_order(dut, kN12); }
TB_TEST(Vprim_rr_arb_tree_n12, tree12_lock_directed) { co_await lock_directed(dut, kN12); }
