// Pieces of a bench environment that checks and drives every port of a block from one
// coroutine, once per clock (tb/geom, tb/pipe): sample what the rising edge shows, then drive
// the next cycle's inputs with tb::defer. The per-interface coroutines of stream.hpp do the
// same job; one loop instead keeps every random draw of a cycle in one fixed order, so a
// RANDOM_SEED replays a run, and lets one check relate several ports in the same cycle.
//   CycleEnv<Env, V>  clock and reset, the per-cycle step and a run loop with a hang guard
//   OfferSlot         the driving side of a valid/ready channel: one item offered at a time,
//                     valid held until the handshake, random gaps between items
//   HoldCheck<T>      the receiving side's protocol check on a channel the design drives:
//                     valid and data held while stalled
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <utility>

#include "tb/sim.hpp"
#include "tb/test.hpp"

namespace tb {

// Base of an environment `Env` (CRTP) for a verilated top `V` with clk_i and an active-low
// rst_ni. Env provides `void sample()` (at the rising edge, pre-edge values) and `void drive()`
// (the next cycle's inputs, through tb::defer), befriends CycleEnv if they are private, and
// brings `t_` and `cycle` into scope (`using Base::t_;`) if it is itself a template.
template <class Env, class V>
class CycleEnv {
 public:
  std::uint64_t cycle = 0;  // rising edges sampled since reset

  // One clock: check the edge, count it, drive the next cycle.
  Task<> step() {
    co_await RisingEdge(t_.clk_i);
    self().sample();
    ++cycle;
    self().drive();
  }

 protected:
  explicit CycleEnv(V& top) : t_(top) {}

  // Holds rst_ni low (the caller has given every input its reset value, raw writes: the clock is
  // not running yet), starts the clock, releases reset after three rising edges and returns
  // one edge later; the first step() samples the next one.
  Task<> clock_and_reset(double period_ns = 10) {
    t_.rst_ni = 0;
    Clock(t_.clk_i, period_ns, "ns").start();
    co_await ClockCycles(t_.clk_i, 3);
    write(SignalRef(t_.rst_ni), 1);
    co_await RisingEdge(t_.clk_i);
  }

  // Steps until `done()`; fails with `why()` (the state worth knowing about a hang or lost
  // work) instead of stepping a `max_steps`-th time. The clock keeps running, so the
  // harness's stall detector would not end the test.
  template <class Done, class Why>
  Task<> run_until(Done done, std::uint64_t max_steps, Why why) {
    for (std::uint64_t c = 0; !done(); ++c) {
      if (c == max_steps) fail(fmt::format("not finished after {} cycles (hang or lost work): {}", max_steps, why()));
      co_await step();
    }
  }

  V& t_;

 private:
  Env& self() { return static_cast<Env&>(*this); }
};

// The driving side of a valid/ready channel: the item offered stays (valid and data held)
// until the handshake; the next one is offered only after that. What the items are and where
// they come from is the environment's: it drives valid from busy().
class OfferSlot {
 public:
  bool busy() const { return busy_; }                 // an item is offered (valid high)
  std::uint64_t taken() const { return taken_; }       // items accepted so far

  // At the rising edge, `handshake` being valid && ready as sampled: the offered item is
  // taken. Returns whether one was.
  bool sample(bool handshake) {
    if (!busy_ || !handshake) return false;
    busy_ = false;
    ++taken_;
    return true;
  }
  // Driving: offers a new item when none is offered, `have_item`, and `go()` agrees. `go` is
  // asked only then, so a random draw in it keeps its place in the cycle's draw order.
  template <class Go>
  bool offer(bool have_item, Go&& go) {
    if (busy_ || !have_item || !go()) return false;
    busy_ = true;
    return true;
  }

 private:
  bool busy_ = false;
  std::uint64_t taken_ = 0;
};

// The receiving side's check of a valid/ready channel the design drives: once valid was high
// without ready at an edge, the next edge must show valid and the same data.
template <class T>
class HoldCheck {
 public:
  // Once per rising edge. `where()` names the channel in a failure message (called only on a
  // failure: formatting a message every cycle costs more than the simulation). Returns
  // whether the channel stalls at this edge (valid without ready).
  template <class Where>
  bool sample(bool valid, bool ready, const T& data, Where&& where) {
    if (held_) {
      if (!valid) fail(fmt::format("{}: valid dropped before ready", where()));
      if (!(data == *held_)) fail(fmt::format("{}: data changed while stalled", where()));
    }
    held_.reset();
    if (!valid || ready) return false;
    held_ = data;
    return true;
  }

 private:
  std::optional<T> held_;
};

}  // namespace tb
