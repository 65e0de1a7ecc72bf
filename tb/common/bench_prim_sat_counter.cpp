// Bench for prim_sat_counter (rtl/common/prim_sat_counter.sv), configuration
// prim_sat_counter_w6 (WIDTH=6, MAX_VAL and RESET_VAL below).
//
// Reference model, from the module header: next value in priority order clr -> 0,
// load -> min(load_val, MAX_VAL), else clamp(cnt + inc_amt*inc - dec_amt*dec, 0, MAX_VAL)
// computed exactly before clamping; zero_o / max_o flag the current value; the new value
// shows one cycle later; reset loads RESET_VAL.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "Vprim_sat_counter_w6.h"
#include "prim_tb.hpp"
#include "tb/test.hpp"

using tb::RisingEdge;
using tb::Task;

namespace {

// Must match prim_sat_counter_w6 in rtl/common/CMakeLists.txt.
constexpr unsigned kWidth = 6;
constexpr unsigned kMaxVal = 40;
constexpr unsigned kResetVal = 0;
constexpr unsigned kAllOnes = (1U << kWidth) - 1;

struct SatIn {
  bool clr = false;
  bool load = false;
  unsigned load_val = 0;
  bool inc = false;
  unsigned inc_amt = 0;
  bool dec = false;
  unsigned dec_amt = 0;
};

class SatModel {
 public:
  unsigned value() const { return cnt_; }
  void reset() { cnt_ = kResetVal; }
  void clock(const SatIn& in) {
    if (in.clr) {
      cnt_ = 0;
    } else if (in.load) {
      cnt_ = std::min(in.load_val, kMaxVal);
    } else {
      const int sum = static_cast<int>(cnt_) + (in.inc ? static_cast<int>(in.inc_amt) : 0) -
                      (in.dec ? static_cast<int>(in.dec_amt) : 0);
      cnt_ = static_cast<unsigned>(std::clamp(sum, 0, static_cast<int>(kMaxVal)));
    }
  }

 private:
  unsigned cnt_ = kResetVal;
};

class SatBench {
 public:
  explicit SatBench(tb::Dut<Vprim_sat_counter_w6>& dut) : dut_(dut) {}
  Task<> reset() {
    co_await primtb::clock_and_reset(dut_, [this] { apply(SatIn{}); });
    model_.reset();
  }
  // One cycle with `in`: cnt_o/zero_o/max_o must show the model's current value. Returns
  // the value shown during the cycle.
  Task<unsigned> cycle(SatIn in) {
    tb::defer([this, in] { apply(in); });
    co_await RisingEdge(dut_->clk_i);
    const unsigned want = model_.value();
    const unsigned got = dut_->cnt_o;
    const bool zero = dut_->zero_o, max = dut_->max_o;
    if (got != want || zero != (want == 0) || max != (want == kMaxVal))
      tb::fail(
          fmt::format("cycle {} ({:.0f} ns): cnt_o={} zero_o={} max_o={}, expected cnt_o={} zero_o={} max_o={} "
                      "(previous inputs: {})",
                      cycle_, tb::get_sim_time(), got, zero, max, want, want == 0, want == kMaxVal, last_));
    const int sum = static_cast<int>(want) + (in.inc ? static_cast<int>(in.inc_amt) : 0) -
                    (in.dec ? static_cast<int>(in.dec_amt) : 0);
    const bool arith = !in.clr && !in.load;
    cov_.hit("at max", want == kMaxVal);
    cov_.hit("at zero", want == 0);
    cov_.hit("clamped above", arith && sum > static_cast<int>(kMaxVal));
    cov_.hit("clamped below", arith && sum < 0);
    cov_.hit("inc and dec together", arith && in.inc && in.dec);
    cov_.hit("inc and dec net inside range with one alone out of range",
             arith && in.inc && in.dec && sum >= 0 && sum <= static_cast<int>(kMaxVal) &&
                 (static_cast<int>(want + in.inc_amt) > static_cast<int>(kMaxVal) ||
                  static_cast<int>(want) < static_cast<int>(in.dec_amt)));
    cov_.hit("load clamped", !in.clr && in.load && in.load_val > kMaxVal);
    cov_.hit("clr over load", in.clr && in.load);
    cov_.hit("load over inc/dec", !in.clr && in.load && (in.inc || in.dec));
    last_ = fmt::format("clr={} load={}({}) inc={}({}) dec={}({})", in.clr, in.load, in.load_val, in.inc, in.inc_amt,
                        in.dec, in.dec_amt);
    model_.clock(in);
    ++cycle_;
    co_return got;
  }
  primtb::Coverage& coverage() { return cov_; }

 private:
  void apply(const SatIn& in) {
    dut_->clr_i = in.clr;
    dut_->load_i = in.load;
    dut_->load_val_i = in.load_val;
    dut_->inc_i = in.inc;
    dut_->inc_amt_i = in.inc_amt;
    dut_->dec_i = in.dec;
    dut_->dec_amt_i = in.dec_amt;
  }
  tb::Dut<Vprim_sat_counter_w6>& dut_;
  SatModel model_;
  std::uint64_t cycle_ = 0;
  std::string last_ = "reset";
  primtb::Coverage cov_;
};

unsigned amount(unsigned small_max) {
  return static_cast<unsigned>(tb::chance(0.15) ? tb::randint(0, kAllOnes) : tb::randint(0, small_max));
}

}  // namespace

// Random operations in phases (climbing, falling, churning around a limit, loading) with the
// counted value checked every cycle.
// Catches: wrap-around instead of saturation at either limit, saturating before netting an
// increment against a decrement, truncated intermediate sums (63 + 63 needs 7 bits), wrong
// priority among clr/load/inc/dec, an unclamped load, zero_o/max_o wrong, a one-cycle-early
// or late update.
TB_TEST(Vprim_sat_counter_w6, random_operations) {
  SatBench b(dut);
  co_await b.reset();
  const std::uint64_t cycles = tb::scaled(100000, 2000000);
  unsigned phase = 0;
  std::uint64_t left = 0;
  for (std::uint64_t c = 0; c < cycles; ++c) {
    if (left == 0) {
      phase = static_cast<unsigned>(tb::randint(0, 3));
      left = tb::randint(10, 80);
    }
    --left;
    SatIn in;
    const double pinc[] = {0.8, 0.2, 0.6, 0.5};
    const double pdec[] = {0.2, 0.8, 0.6, 0.5};
    in.inc = tb::chance(pinc[phase]);
    in.dec = tb::chance(pdec[phase]);
    in.inc_amt = amount(phase == 2 ? 12 : 5);
    in.dec_amt = amount(phase == 2 ? 12 : 5);
    in.load = tb::chance(phase == 3 ? 0.2 : 0.01);
    in.load_val = static_cast<unsigned>(tb::randint(0, kAllOnes));
    in.clr = tb::chance(0.005) || (in.load && tb::chance(0.1));
    co_await b.cycle(in);
  }
  auto& cov = b.coverage();
  dut.log().info("{} cycles; {}", cycles, cov.report());
  for (const char* what : {"at max", "at zero", "clamped above", "clamped below", "inc and dec together",
                           "inc and dec net inside range with one alone out of range", "load clamped", "clr over load",
                           "load over inc/dec"})
    cov.require(what, 20);
}

// Directed walk to both limits and the documented special cases, one message each.
// Catches: wrong RESET_VAL; stepping past MAX_VAL by one; wrap from 0 to 63 on a decrement;
// inc and dec of one cycle applied one after the other with a clamp in between (MAX-2 +5 -5
// must stay MAX-2, 1 -3 +3 must stay 1); load above MAX_VAL not clamped; clr not beating
// load; an asynchronous reset not restoring RESET_VAL.
// Reading guide: b.cycle(x) returns the value shown DURING the cycle x is applied, i.e. the
// result of the previous call's inputs, so each check below judges the line before it.
TB_TEST(Vprim_sat_counter_w6, directed_limits) {
  SatBench b(dut);
  co_await b.reset();
  unsigned v = co_await b.cycle({});
  primtb::check(v == kResetVal, "after reset cnt_o={}, RESET_VAL is {}", v, kResetVal);
  co_await b.cycle({.clr = true});
  for (unsigned i = 0; i < kMaxVal + 5; ++i) {
    v = co_await b.cycle({.inc = true, .inc_amt = 1});
    primtb::check(v == std::min(i, kMaxVal), "counting up by 1: step {} shows {}", i, v);
  }
  v = co_await b.cycle({.inc = true, .inc_amt = kAllOnes});
  tb::check(v == kMaxVal, "saturated at MAX_VAL while incremented");
  v = co_await b.cycle({.dec = true, .dec_amt = 2});
  tb::check(v == kMaxVal, "still MAX_VAL after the largest increment");
  v = co_await b.cycle({.inc = true, .inc_amt = 5, .dec = true, .dec_amt = 5});
  tb::check(v == kMaxVal - 2, "MAX-2 after decrementing by 2");
  v = co_await b.cycle({});
  tb::check(v == kMaxVal - 2, "MAX-2 +5 -5 in one cycle nets to MAX-2 (no clamp between the two)");
  v = co_await b.cycle({.inc = true, .inc_amt = kAllOnes, .dec = true, .dec_amt = kAllOnes});
  v = co_await b.cycle({.load = true, .load_val = 1});
  tb::check(v == kMaxVal - 2, "+63 -63 nets to no change");
  v = co_await b.cycle({.inc = true, .inc_amt = 3, .dec = true, .dec_amt = 3});
  tb::check(v == 1, "load 1");
  v = co_await b.cycle({.dec = true, .dec_amt = 1});
  tb::check(v == 1, "1 -3 +3 in one cycle nets to 1");
  v = co_await b.cycle({.dec = true, .dec_amt = 1});
  tb::check(v == 0, "1 - 1 = 0");
  v = co_await b.cycle({.dec = true, .dec_amt = kAllOnes});
  tb::check(v == 0, "0 - 1 saturates at 0");
  v = co_await b.cycle({.load = true, .load_val = kAllOnes});
  tb::check(v == 0, "0 - 63 saturates at 0");
  v = co_await b.cycle({.load = true, .load_val = kMaxVal + 1 <= kAllOnes ? kMaxVal + 1 : kMaxVal});
  tb::check(v == kMaxVal, "load of 63 clamps to MAX_VAL");
  v = co_await b.cycle({.clr = true, .load = true, .load_val = 7, .inc = true, .inc_amt = 9});
  tb::check(v == kMaxVal, "load of MAX+1 clamps to MAX_VAL");
  v = co_await b.cycle({.load = true, .load_val = 7, .inc = true, .inc_amt = 9, .dec = true, .dec_amt = 1});
  tb::check(v == 0, "clr wins over load and inc");
  v = co_await b.cycle({});
  tb::check(v == 7, "load wins over inc/dec");
  // Asynchronous reset in the middle of a cycle.
  co_await tb::FallingEdge(dut->clk_i);
  dut->rst_ni = 0;
  co_await tb::Timer(1, "ns");
  primtb::check(dut->cnt_o == kResetVal, "asynchronous reset: cnt_o={} right after rst_ni fell, expected {}",
                dut->cnt_o, kResetVal);
}
