// Bench of the hull-shader launch throttle (rtl/tess/tess_hs_throttle.sv, docs/tessellation.md
// "The throttle") on tess_hs_throttle_default (2 launchers x 4 thread groups, 8-patch FIFO).
//
// Scoreboard: HsThrottleModel (sim/tess), the C++ reference written from the source's figures
// 3-7, compared with the RTL every cycle: grants, TF handshake, the patch FIFO's head and
// estimate, counters 435 and 440, the latency average, the limit and the thread groups in
// flight. The environment: launchers with random thread groups (1..15 patches) and HS
// latencies (base + per patch + jitter, completing in launch order per launcher), a TF stream
// with random kinds and factors (0 and above 64 included) and gaps, and a domain-shader side
// that takes a patch, stays busy for its primitives / a random rate plus noise (backpressure),
// then raises its read enable.
//
// Rerun a test: RANDOM_SEED=<n> TESTCASE=<name> build/tb/tess/bench_hs_throttle (WAVES=1 for
// an FST). TESSERA_REGRESS=1 makes the random tests 10x longer.
#include <fmt/format.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "Vtess_hs_throttle_default.h"
#include "prim_tb.hpp"
#include "tb/test.hpp"
#include "tessera/sim/hs_throttle_model.hpp"

using tb::RisingEdge;
using tb::Task;
using tessera::sim::HsThrottleModel;
using tessera::sim::PatchFactors;
using tessera::sim::PatchKind;
using tessera::sim::ThrottleInputs;
using tessera::sim::ThrottleMode;
using tessera::sim::ThrottleOutputs;
using V = Vtess_hs_throttle_default;

namespace {

constexpr unsigned kNumHs = 2, kNpatchW = 4;

// tess_pkg::tf_t: {kind[17:16], f1[15:8], f2[7:0]}
unsigned pack_tf(const PatchFactors& p) { return (static_cast<unsigned>(p.kind) << 16) | (unsigned{p.f1} << 8) | p.f2; }

struct Knobs {
  ThrottleMode mode = ThrottleMode::Source;
  unsigned cap = 4, rate = 1;
  unsigned hs_base = 40, hs_per_patch = 6;   // HS latency = base + per_patch * patches + jitter
  double tf_gap = 0.2;                       // P(no TF record offered in a cycle)
  double high_factor = 0.15;                 // P(a patch with factors 16..64)
  unsigned ds_rate = 16;                     // DS primitives per cycle (busy = est / rate)
  double ds_stall = 0.05;                    // P(an extra stall cycle per busy cycle)
};

class Bench {
 public:
  Bench(tb::Dut<V>& dut, Knobs k) : dut_(dut), k_(k), launchers_(kNumHs) {}

  Task<> reset() {
    co_await primtb::clock_and_reset(dut_, [this] { drive(ThrottleInputs{}); });
    model_.reset();
  }

  // One cycle: the environment's inputs, the RTL against the model, then both advance.
  Task<> cycle() {
    ThrottleInputs in = inputs();
    tb::defer([this, in] { drive(in); });
    co_await RisingEdge(dut_->clk_i);
    const ThrottleOutputs want = model_.clock(in);
    compare(want);
    react(in, want);
    ++cycle_;
    co_return;
  }

  std::uint64_t launched() const { return launched_; }
  std::uint64_t patches() const { return patches_taken_; }
  primtb::Coverage& coverage() { return cov_; }

 private:
  struct Tg {
    unsigned npatch = 1;
    std::uint64_t done_at = 0;
  };
  struct Launcher {
    bool has_next = false;
    unsigned next_np = 1;
    std::deque<Tg> running;
  };

  ThrottleInputs inputs() {
    ThrottleInputs in;
    in.mode = k_.mode;
    in.cap = k_.cap;
    in.rate = k_.rate;
    in.launch_req.assign(kNumHs, false);
    in.launch_npatch.assign(kNumHs, 0);
    in.hs_done.assign(kNumHs, false);
    for (unsigned h = 0; h < kNumHs; ++h) {
      Launcher& l = launchers_[h];
      if (!l.has_next && tb::chance(0.3)) {
        l.has_next = true;
        l.next_np = static_cast<unsigned>(tb::randint(1, 15));
      }
      in.launch_req[h] = l.has_next;
      in.launch_npatch[h] = l.has_next ? l.next_np : static_cast<unsigned>(tb::randint(0, 15));
      in.hs_done[h] = !l.running.empty() && l.running.front().done_at <= cycle_;
    }
    if (!tf_pending_) {
      tf_pending_ = true;
      tf_next_ = random_patch();
    }
    in.tf_valid = tf_pending_ && !tb::chance(k_.tf_gap);
    in.tf = tf_next_;
    in.patch_ready = ds_busy_ == 0;
    return in;
  }

  PatchFactors random_patch() {
    PatchFactors p;
    p.kind = static_cast<PatchKind>(tb::randint(0, 2));
    const bool high = tb::chance(k_.high_factor);
    auto factor = [&] {
      if (tb::chance(0.03)) return std::uint8_t{0};                          // culled
      if (tb::chance(0.03)) return static_cast<std::uint8_t>(tb::randint(65, 255));   // clamped to 64
      return static_cast<std::uint8_t>(high ? tb::randint(16, 64) : tb::randint(1, 4));
    };
    p.f1 = factor();
    p.f2 = factor();
    return p;
  }

  void drive(const ThrottleInputs& in) {
    dut_->mode_i = static_cast<unsigned>(in.mode);
    dut_->cap_i = in.cap;
    dut_->rate_i = in.rate;
    unsigned req = 0, done = 0, np = 0;
    for (unsigned h = 0; h < in.launch_req.size(); ++h) {
      req |= static_cast<unsigned>(in.launch_req[h]) << h;
      done |= static_cast<unsigned>(in.hs_done[h]) << h;
      np |= (in.launch_npatch[h] & ((1U << kNpatchW) - 1)) << (h * kNpatchW);
    }
    dut_->launch_req_i = req;
    dut_->hs_done_i = done;
    dut_->launch_npatch_i = np;
    dut_->tf_valid_i = in.tf_valid;
    dut_->tf_i = pack_tf(in.tf);
    dut_->patch_ready_i = in.patch_ready;
  }

  void compare(const ThrottleOutputs& w) {
    unsigned gnt = 0;
    for (unsigned h = 0; h < kNumHs; ++h) gnt |= static_cast<unsigned>(w.launch_gnt[h]) << h;
    auto fail_if = [&](bool bad, const char* what, std::uint64_t got, std::uint64_t want) {
      if (bad)
        tb::fail(fmt::format("cycle {}: {} is {}, the model says {} (total {}, error {}{}, limit {}, in flight {}, "
                             "average HS latency {}{})",
                             cycle_, what, got, want, w.total, w.error, w.error_up ? " counting up" : "", w.limit,
                             w.inflight, w.avg_lat, w.avg_valid ? "" : " (fewer than 8)"));
    };
    fail_if(dut_->launch_gnt_o != gnt, "launch_gnt_o", dut_->launch_gnt_o, gnt);
    fail_if(dut_->tf_ready_o != w.tf_ready, "tf_ready_o", dut_->tf_ready_o, w.tf_ready);
    fail_if(dut_->patch_valid_o != w.patch_valid, "patch_valid_o", dut_->patch_valid_o, w.patch_valid);
    if (w.patch_valid) {
      fail_if(dut_->patch_o != pack_tf(w.patch), "patch_o", dut_->patch_o, pack_tf(w.patch));
      fail_if(dut_->patch_est_o != w.patch_est, "patch_est_o", dut_->patch_est_o, w.patch_est);
    }
    fail_if(dut_->total_o != w.total, "total_o (counter 435)", dut_->total_o, w.total);
    fail_if(dut_->error_o != w.error, "error_o (counter 440)", dut_->error_o, w.error);
    fail_if(dut_->error_up_o != w.error_up, "error_up_o", dut_->error_up_o, w.error_up);
    fail_if(dut_->avg_lat_o != w.avg_lat, "avg_lat_o", dut_->avg_lat_o, w.avg_lat);
    fail_if(dut_->avg_valid_o != w.avg_valid, "avg_valid_o", dut_->avg_valid_o, w.avg_valid);
    fail_if(dut_->limit_o != w.limit, "limit_o", dut_->limit_o, w.limit);
    fail_if(dut_->inflight_o != w.inflight, "inflight_o", dut_->inflight_o, w.inflight);
    fail_if(dut_->forward_o != w.forward, "forward_o", dut_->forward_o, w.forward);
    // What the source promises: never more thread groups in flight than the limit allows.
    if (w.limit != 0 && gnt != 0) fail_if(w.inflight >= w.limit, "in flight at a launch", w.inflight, w.limit - 1);
    cov_.hit("limit 2", w.limit == 2);
    cov_.hit("limit 4", w.limit == 4);
    cov_.hit("limit 8", w.limit == 8);
    cov_.hit("unthrottled with 8 latencies", w.avg_valid && w.limit == 0);
    cov_.hit("launch refused by the limit", w.limit != 0 && w.inflight >= w.limit);
    cov_.hit("error counting up", w.error_up && w.error > 0);
    cov_.hit("estimate 0 (culled)", w.patch_valid && w.patch_est == 0);
  }

  // The environment reacts to this cycle's handshakes.
  void react(const ThrottleInputs& in, const ThrottleOutputs& w) {
    bool both_done = true;
    for (unsigned h = 0; h < kNumHs; ++h) {
      Launcher& l = launchers_[h];
      both_done &= in.hs_done[h];
      if (in.hs_done[h]) l.running.pop_front();
      if (w.launch_gnt[h]) {
        const unsigned jitter = static_cast<unsigned>(tb::randint(0, 20));
        l.running.push_back(Tg{l.next_np, cycle_ + k_.hs_base + k_.hs_per_patch * l.next_np + jitter});
        l.has_next = false;
        ++launched_;
      }
    }
    cov_.hit("both launchers done together", both_done);
    if (in.tf_valid && w.tf_ready) tf_pending_ = false;
    if (ds_busy_ > 0) {
      if (!tb::chance(k_.ds_stall)) --ds_busy_;
    } else if (w.patch_valid && in.patch_ready) {
      ds_busy_ = w.patch_est / k_.ds_rate + static_cast<unsigned>(tb::randint(0, 3));
      ++patches_taken_;
    }
  }

  tb::Dut<V>& dut_;
  Knobs k_;
  HsThrottleModel model_;
  std::vector<Launcher> launchers_;
  bool tf_pending_ = false;
  PatchFactors tf_next_;
  unsigned ds_busy_ = 0;
  std::uint64_t cycle_ = 0, launched_ = 0, patches_taken_ = 0;
  primtb::Coverage cov_;
};

Task<> run_random(tb::Dut<V>& dut, Knobs k, std::uint64_t cycles, std::vector<std::string> must_hit) {
  Bench b(dut, k);
  co_await b.reset();
  for (std::uint64_t c = 0; c < cycles; ++c) co_await b.cycle();
  dut.log().info("{} cycles, {} thread groups launched, {} patches taken; {}", cycles, b.launched(), b.patches(),
                 b.coverage().report());
  primtb::check(b.launched() > 5 && b.patches() > 10, "only {} thread groups launched and {} patches taken in {} cycles",
                b.launched(), b.patches(), cycles);
  for (const std::string& what : must_hit) b.coverage().require(what.c_str(), 5);
}

}  // namespace

// The source's throttle on a mix of low and high factors, every counter checked every cycle.
// Catches: a total that forgets a patch's estimate or the error's settlement (blocks 535 /
// 615), an error counter that does not turn to counting up at 0 or wraps, latencies measured
// from the wrong cycle or averaged over the wrong window, thresholds off by one (> vs >=) or
// in the wrong order, launches past the limit, thread groups forwarded out of scheduling
// order, patches lost or duplicated in the FIFO.
TB_TEST(V, source_throttle_random) {
  Knobs k;
  k.rate = static_cast<unsigned>(tb::randint(4, 16));
  k.ds_rate = static_cast<unsigned>(tb::randint(8, 24));
  // (a named vector: GCC 12 rejects a braced list inside a co_await expression)
  std::vector<std::string> must;
  for (const char* w : {"limit 2", "limit 4", "limit 8", "unthrottled with 8 latencies", "launch refused by the limit",
                        "error counting up", "estimate 0 (culled)"})
    must.push_back(w);
  co_await run_random(dut, k, tb::scaled(60000, 600000), must);
}

// Greedy launching (TM_OFF) and static caps: the limit follows the register, the counters
// keep running the same way.
// Catches: a cap of 0 not acting as 1, TM_OFF still throttling, the cap off by one.
TB_TEST(V, off_and_static_caps) {
  for (unsigned cap : {0u, 1u, 3u, 16u}) {
    Knobs k;
    k.mode = ThrottleMode::Cap;
    k.cap = cap;
    // 2 launchers x 4 thread groups: a cap of 8 or more never refuses a launch
    const std::vector<std::string> must = cap < 8 ? std::vector<std::string>(1, "launch refused by the limit")
                                                  : std::vector<std::string>{};
    co_await run_random(dut, k, tb::scaled(8000, 80000), must);
  }
  Knobs off;
  off.mode = ThrottleMode::Off;
  std::vector<std::string> must(1, "error counting up");
  co_await run_random(dut, off, tb::scaled(8000, 80000), must);
}

// Rates above one (several tessellators) and HS latencies long and short against the DS.
// Catches: a count-down or count-up by 1 instead of R, the limit's comparison not scaled by R.
TB_TEST(V, rates_and_latencies) {
  for (unsigned rate : {0u, 3u, 8u, 15u}) {
    Knobs k;
    k.rate = rate;
    k.hs_base = static_cast<unsigned>(tb::randint(5, 120));
    k.hs_per_patch = static_cast<unsigned>(tb::randint(0, 12));
    k.ds_rate = static_cast<unsigned>(tb::randint(4, 32));
    k.high_factor = tb::chance(0.5) ? 0.6 : 0.05;
    std::vector<std::string> none;
    co_await run_random(dut, k, tb::scaled(10000, 100000), none);
  }
}
