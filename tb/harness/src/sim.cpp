#include "tb/sim.hpp"

#include <verilated.h>

#include <cmath>
#include <cstring>
#include <fmt/format.h>

namespace tb {

namespace {
thread_local Scheduler* g_current = nullptr;

// A time step that never stops re-evaluating is a combinational loop through the bench
// (or a zero-delay coroutine loop); cap it rather than hang.
constexpr int kMaxDeltaIterations = 10000;
constexpr std::uint64_t kMaxResumesPerStep = 10'000'000;

int unit_exponent(TimeUnit u) {
  switch (u) {
    case TimeUnit::fs: return -15;
    case TimeUnit::ps: return -12;
    case TimeUnit::ns: return -9;
    case TimeUnit::us: return -6;
    case TimeUnit::ms: return -3;
    case TimeUnit::sec: return 0;
    case TimeUnit::step: break;
  }
  return 0;
}
}  // namespace

TimeUnit parse_time_unit(std::string_view u) {
  if (u == "step" || u == "steps") return TimeUnit::step;
  if (u == "fs") return TimeUnit::fs;
  if (u == "ps") return TimeUnit::ps;
  if (u == "ns") return TimeUnit::ns;
  if (u == "us") return TimeUnit::us;
  if (u == "ms") return TimeUnit::ms;
  if (u == "sec" || u == "s") return TimeUnit::sec;
  throw HarnessError(fmt::format("unknown time unit '{}' (use step, fs, ps, ns, us, ms, sec)", u));
}

std::string_view to_string(TimeUnit u) {
  switch (u) {
    case TimeUnit::step: return "step";
    case TimeUnit::fs: return "fs";
    case TimeUnit::ps: return "ps";
    case TimeUnit::ns: return "ns";
    case TimeUnit::us: return "us";
    case TimeUnit::ms: return "ms";
    case TimeUnit::sec: return "sec";
  }
  return "?";
}

// --------------------------------------------------------------------------------------
// Task plumbing

namespace detail {
void report_forked_failure(PromiseBase& p) {
  if (Scheduler::active()) Scheduler::current().report_failure(p.exception);
}
void schedule_resume(std::coroutine_handle<> h) { Scheduler::current().schedule(h); }

FrameOwner::~FrameOwner() { destroy_now(); }
void FrameOwner::destroy_now() {
  if (!handle) return;
  if (promise && promise->waiting_on) promise->waiting_on->unprime();
  // Its trigger may already have fired in this pass, queuing a resume: drop it, or the
  // scheduler would resume a destroyed frame.
  if (Scheduler::active()) Scheduler::current().forget(handle);
  auto h = handle;
  handle = nullptr;
  h.destroy();
}
}  // namespace detail

// --------------------------------------------------------------------------------------
// Trigger base and concrete triggers

void Trigger::prime(std::function<void()> cb) {
  unprime();
  waiter_ = std::make_shared<Waiter>();
  waiter_->callback = std::move(cb);
  do_prime(waiter_);
}

void Trigger::unprime() {
  if (!waiter_) return;
  waiter_->active = false;
  waiter_.reset();
  do_unprime();
}

std::string EdgeTrigger::name() const {
  const char* k = kind_ == EdgeKind::rising ? "RisingEdge" : kind_ == EdgeKind::falling ? "FallingEdge" : "Edge";
  return fmt::format("{}({})", k, sig_.name().empty() ? "signal" : sig_.name());
}
void EdgeTrigger::do_prime(const WaiterPtr& w) { Scheduler::current().add_edge(sig_, kind_, w); }

Timer::Timer(double time, std::string_view unit, RoundMode round)
    : Timer(time, parse_time_unit(unit), round) {}
Timer::Timer(double time, TimeUnit unit, RoundMode round) {
  if (time <= 0) throw HarnessError(fmt::format("Timer({} {}) must be positive", time, to_string(unit)));
  steps_ = Scheduler::current().to_steps(time, unit, round);
  if (steps_ == 0)
    throw HarnessError(fmt::format("Timer({} {}) rounds to 0 steps", time, to_string(unit)));
}
std::string Timer::name() const { return fmt::format("Timer({} steps)", steps_); }
void Timer::do_prime(const WaiterPtr& w) {
  auto& s = Scheduler::current();
  s.add_timed(s.now() + steps_, w);
}

void ReadWrite::do_prime(const WaiterPtr& w) { Scheduler::current().add_readwrite(w); }
void ReadOnly::do_prime(const WaiterPtr& w) { Scheduler::current().add_readonly(w); }
void NextTimeStep::do_prime(const WaiterPtr& w) { Scheduler::current().add_next_step(w); }

ClockCycles::ClockCycles(SignalRef clk, std::uint64_t cycles, bool rising)
    : clk_(std::move(clk)), cycles_(cycles), rising_(rising) {
  if (cycles_ == 0) throw HarnessError("ClockCycles(0): wait for at least one cycle");
}
std::string ClockCycles::name() const {
  return fmt::format("ClockCycles({}, {}, {})", clk_.name(), cycles_, rising_ ? "rising" : "falling");
}
void ClockCycles::do_prime(const WaiterPtr& w) {
  outer_ = w;
  remaining_ = cycles_;
  arm();
}
void ClockCycles::arm() {
  edge_ = std::make_unique<EdgeTrigger>(clk_, rising_ ? EdgeKind::rising : EdgeKind::falling);
  edge_->prime([this] {
    if (--remaining_ == 0) {
      auto w = std::move(outer_);
      w->fire();
    } else {
      arm();
    }
  });
}
void ClockCycles::do_unprime() {
  edge_.reset();
  outer_.reset();
}

void Join::do_prime(const WaiterPtr& w) {
  if (!owner_ || !owner_->handle || owner_->promise->done) {
    w->fire();  // already finished: the callback only queues a resume, so firing now is safe
    return;
  }
  owner_->promise->joiners.push_back([w] { w->fire(); });
}

std::string First::name() const {
  std::string s = "First(";
  for (std::size_t i = 0; i < children_.size(); ++i) s += (i ? ", " : "") + children_[i]->name();
  return s + ")";
}
void First::do_prime(const WaiterPtr& w) {
  if (children_.empty()) throw HarnessError("First() needs at least one trigger");
  for (std::size_t i = 0; i < children_.size() && w->active; ++i) {
    children_[i]->prime([this, i, w] {
      fired_ = i;
      for (auto& c : children_) c->unprime();
      w->fire();
    });
  }
}
void First::do_unprime() {
  for (auto& c : children_) c->unprime();
}

std::string Combine::name() const {
  std::string s = "Combine(";
  for (std::size_t i = 0; i < children_.size(); ++i) s += (i ? ", " : "") + children_[i]->name();
  return s + ")";
}
void Combine::do_prime(const WaiterPtr& w) {
  if (children_.empty()) throw HarnessError("Combine() needs at least one trigger");
  pending_ = children_.size();
  for (auto& c : children_) {
    c->prime([this, w] {
      if (--pending_ == 0) w->fire();
    });
  }
}
void Combine::do_unprime() {
  for (auto& c : children_) c->unprime();
}

// --------------------------------------------------------------------------------------
// Scheduler

Scheduler::Scheduler(VerilatedContext& context, ModelHooks hooks)
    : ctx_(context), hooks_(std::move(hooks)), precision_exp_(context.timeprecision()) {
  previous_ = g_current;
  g_current = this;
}

Scheduler::~Scheduler() {
  // Kill what is still running (forever-loops of monitors, drivers): frames are destroyed
  // while this scheduler is still current, so their triggers unregister cleanly.
  for (auto& o : forked_) o->destroy_now();
  forked_.clear();
  g_current = previous_;
}

Scheduler& Scheduler::current() {
  if (!g_current) throw HarnessError("no simulation is running (Scheduler::current outside a test)");
  return *g_current;
}
bool Scheduler::active() { return g_current != nullptr; }

std::uint64_t Scheduler::to_steps(double t, TimeUnit unit, RoundMode round) const {
  if (unit == TimeUnit::step) {
    if (std::floor(t) != t && round == RoundMode::error)
      throw HarnessError(fmt::format("{} steps is not a whole number of steps", t));
    return static_cast<std::uint64_t>(std::llround(t));
  }
  const double scale = std::pow(10.0, unit_exponent(unit) - precision_exp_);
  const double steps = t * scale;
  const double nearest = std::round(steps);
  switch (round) {
    case RoundMode::error:
      if (std::fabs(steps - nearest) > 1e-9 * std::max(1.0, std::fabs(steps)))
        throw HarnessError(fmt::format(
            "{} {} is not a whole number of simulator steps (precision 1e{} s); pass a RoundMode",
            t, to_string(unit), precision_exp_));
      return static_cast<std::uint64_t>(nearest);
    case RoundMode::round: return static_cast<std::uint64_t>(nearest);
    case RoundMode::floor: return static_cast<std::uint64_t>(std::floor(steps + 1e-9));
    case RoundMode::ceil: return static_cast<std::uint64_t>(std::ceil(steps - 1e-9));
  }
  return 0;
}

double Scheduler::from_steps(std::uint64_t steps, TimeUnit unit) const {
  if (unit == TimeUnit::step) return static_cast<double>(steps);
  return static_cast<double>(steps) * std::pow(10.0, precision_exp_ - unit_exponent(unit));
}

void Scheduler::add_timed(std::uint64_t at, WaiterPtr w) { timed_.push(Timed{at, seq_++, std::move(w), {}}); }
void Scheduler::add_native_timed(std::uint64_t at, std::function<void()> fn) {
  timed_.push(Timed{at, seq_++, nullptr, std::move(fn)});
}

void Scheduler::add_edge(const SignalRef& sig, EdgeKind kind, WaiterPtr w) {
  if (!sig.valid()) throw HarnessError("edge trigger on an unbound signal");
  auto [it, inserted] = watches_.try_emplace(sig.address());
  Watch& watch = it->second;
  bool any_active = false;
  for (auto& [k, wp] : watch.waiters) any_active |= wp->active;
  if (inserted || !any_active) {
    // Snapshot now: the next change from this value is the edge we wait for.
    watch.sig = sig;
    watch.last.resize(sig.bytes());
    std::memcpy(watch.last.data(), sig.address(), sig.bytes());
    watch.waiters.clear();
  }
  watch.waiters.emplace_back(kind, std::move(w));
}

void Scheduler::add_readwrite(WaiterPtr w) {
  if (phase_ == Phase::readonly)
    throw HarnessError("awaiting ReadWrite in the ReadOnly phase is illegal (as in cocotb): await a Timer or edge first");
  readwrite_.push_back(std::move(w));
}
void Scheduler::add_readonly(WaiterPtr w) {
  if (phase_ == Phase::readonly)
    throw HarnessError("awaiting ReadOnly in the ReadOnly phase is illegal: await a Timer or edge first");
  readonly_.push_back(std::move(w));
}
void Scheduler::add_next_step(WaiterPtr w) { next_step_.push_back(std::move(w)); }

void Scheduler::fork(std::shared_ptr<detail::FrameOwner> owner, std::coroutine_handle<> h) {
  forked_.push_back(std::move(owner));
  ready_.push_back(h);
}

void Scheduler::forget(std::coroutine_handle<> h) {
  std::erase(ready_, h);
}

void Scheduler::report_failure(std::exception_ptr e) {
  if (!failure_) failure_ = e;
}

void Scheduler::defer_write(const SignalRef& sig, std::uint64_t value) {
  if (phase_ == Phase::readonly)
    throw HarnessError(fmt::format("write to {} in the ReadOnly phase", sig.name().empty() ? "a signal" : sig.name()));
  pending_writes_.emplace_back([sig, value] { sig.write(value); });
}

void Scheduler::defer(std::function<void()> apply) {
  if (phase_ == Phase::readonly) throw HarnessError("deferred write in the ReadOnly phase");
  pending_writes_.push_back(std::move(apply));
}

void Scheduler::drain() {
  std::uint64_t resumes = 0;
  while (!ready_.empty()) {
    // As in cocotb, a test's end ends its forked tasks. A monitor or driver woken by the
    // same edge as the test's last await would otherwise resume after the test returned,
    // with the test's locals (often the monitor object itself) already destroyed.
    if (test_promise_ && test_promise_->done) {
      ready_.clear();
      return;
    }
    auto h = ready_.front();
    ready_.pop_front();
    if (!h.done()) h.resume();
    if (++resumes > kMaxResumesPerStep)
      throw TestFailure(fmt::format("more than {} coroutine resumes at time {}: a zero-time loop in the bench",
                                    kMaxResumesPerStep, now_));
  }
}

bool Scheduler::apply_writes() {
  if (pending_writes_.empty()) return false;
  auto writes = std::move(pending_writes_);
  pending_writes_.clear();
  for (auto& w : writes) w();
  return true;
}

bool Scheduler::check_watches() {
  bool fired = false;
  for (auto it = watches_.begin(); it != watches_.end();) {
    Watch& w = it->second;
    const auto* cur = static_cast<const std::uint8_t*>(w.sig.address());
    if (std::memcmp(cur, w.last.data(), w.last.size()) != 0) {
      const bool old0 = (w.last[0] & 1U) != 0;
      const bool new0 = (cur[0] & 1U) != 0;
      std::memcpy(w.last.data(), cur, w.last.size());
      auto waiters = std::move(w.waiters);
      w.waiters.clear();
      for (auto& [kind, wp] : waiters) {
        const bool match = kind == EdgeKind::any || (kind == EdgeKind::rising && !old0 && new0) ||
                           (kind == EdgeKind::falling && old0 && !new0);
        if (match && wp->active) {
          wp->fire();
          fired = true;
        } else if (wp->active) {
          w.waiters.emplace_back(kind, std::move(wp));
        }
      }
      // Waiters primed while firing (same signal, next edge) were appended to the fresh list.
    }
    // Drop watches nobody waits on, so idle signals cost nothing.
    bool any = false;
    for (auto& [k, wp] : w.waiters) any |= wp->active;
    if (!any) it = watches_.erase(it);
    else ++it;
  }
  return fired;
}

bool Scheduler::fire_list(std::vector<WaiterPtr>& list) {
  if (list.empty()) return false;
  auto batch = std::move(list);
  list.clear();
  bool fired = false;
  for (auto& w : batch) {
    if (w->active) {
      w->fire();
      fired = true;
    }
  }
  return fired;
}

bool Scheduler::settle() {
  bool any = false;
  for (int i = 0;; ++i) {
    drain();
    stop_if_failed();
    if (!check_watches()) break;
    any = true;
    if (i > kMaxDeltaIterations)
      throw TestFailure(fmt::format("signals never settle at time {}: a combinational loop through the bench", now_));
  }
  drain();
  return any;
}

void Scheduler::check_rtl_errors() {
  if (ctx_.gotError())
    throw TestFailure(fmt::format("RTL assertion or $error/$fatal fired at time {} steps (see the %Error line above)", now_));
  if (ctx_.gotFinish())
    throw TestFailure(fmt::format("RTL called $finish/$stop at time {} steps before the test ended", now_));
}

void Scheduler::stop_if_failed() {
  if (failure_) {
    auto f = failure_;
    failure_ = nullptr;
    std::rethrow_exception(f);
  }
}

void Scheduler::cleanup_forked() {
  std::erase_if(forked_, [](const auto& o) { return !o->handle || o->promise->done; });
}

void Scheduler::run(Task<> test, std::uint64_t timeout_steps) {
  if (g_current != this) throw HarnessError("Scheduler::run on a scheduler that is not current");
  auto& tp = test.promise();
  tp.started = true;
  test_promise_ = &tp;
  struct ForgetTest {
    const detail::PromiseBase*& p;
    ~ForgetTest() { p = nullptr; }
  } forget_test{test_promise_};
  ready_.push_back(test.handle());
  now_ = ctx_.time();
  const std::uint64_t deadline = timeout_steps ? now_ + timeout_steps : 0;
  bool first = true;

  while (true) {
    if (!first) {
      cleanup_forked();
      // Advance to the next timed event.
      while (!timed_.empty() && timed_.top().waiter && !timed_.top().waiter->active) timed_.pop();
      if (timed_.empty()) {
        throw TestFailure(fmt::format(
            "simulation stalled at time {} steps: the test is waiting but nothing is scheduled "
            "(no clock running, no timer pending)", now_));
      }
      const std::uint64_t next = timed_.top().at;
      if (deadline && next > deadline)
        throw TestFailure(fmt::format("test timed out after {} steps (timeout)", timeout_steps));
      now_ = next;
      ctx_.time(now_);
      phase_ = Phase::timed;
      fire_list(next_step_);
      while (!timed_.empty() && timed_.top().at == now_) {
        Timed t = timed_.top();
        timed_.pop();
        if (t.native) t.native();
        else if (t.waiter) t.waiter->fire();
      }
    }
    first = false;

    phase_ = Phase::settle;
    settle();
    // Evaluate until neither the design nor ReadWrite waiters change anything.
    for (int i = 0;; ++i) {
      hooks_.eval_step();
      ++stats_.evals;
      check_rtl_errors();
      bool again = settle();
      phase_ = Phase::readwrite;
      // cocotb applies `.value =` writes here, after the design has taken the edge with
      // the old input values: a driver woken by RisingEdge cannot race the flops.
      again |= apply_writes();
      again |= fire_list(readwrite_);
      again |= settle();
      phase_ = Phase::settle;
      if (!again) break;
      if (i > kMaxDeltaIterations)
        throw TestFailure(fmt::format("design never settles at time {}: ReadWrite/edge loop", now_));
    }
    if (hooks_.eval_end_step) hooks_.eval_end_step();

    phase_ = Phase::readonly;
    fire_list(readonly_);
    drain();
    stop_if_failed();
    if (check_watches())
      throw TestFailure(fmt::format("a watched signal was written in the ReadOnly phase at time {}", now_));
    phase_ = Phase::idle;

    if (hooks_.dump) hooks_.dump(now_);
    ++stats_.time_steps;

    if (tp.done) {
      if (tp.exception) std::rethrow_exception(tp.exception);
      return;
    }
  }
}

void write(const SignalRef& sig, std::uint64_t value) {
  if (Scheduler::active()) Scheduler::current().defer_write(sig, value);
  else sig.write(value);
}

void defer(std::function<void()> apply) {
  if (Scheduler::active()) Scheduler::current().defer(std::move(apply));
  else apply();
}

double get_sim_time(TimeUnit unit) {
  if (!Scheduler::active()) return 0.0;
  auto& s = Scheduler::current();
  return s.from_steps(s.now(), unit);
}
std::uint64_t get_sim_steps() { return Scheduler::active() ? Scheduler::current().now() : 0; }

// --------------------------------------------------------------------------------------
// Clock

Clock::Clock(SignalRef sig, double period, std::string_view unit) : state_(std::make_shared<State>()) {
  state_->sig = std::move(sig);
  period_ = Scheduler::current().to_steps(period, parse_time_unit(unit), RoundMode::error);
  if (period_ < 2) throw HarnessError(fmt::format("Clock period of {} steps is too short (at least 2)", period_));
  state_->high = period_ / 2;
  state_->low = period_ - state_->high;
}

Clock& Clock::start(bool start_high) {
  auto st = state_;
  st->running = true;
  ++st->generation;
  const std::uint64_t gen = st->generation;
  auto& sched = Scheduler::current();
  // Each toggle writes the signal and schedules the next; a stop() bumps the generation so
  // pending toggles of an old run die quietly.
  struct Toggler {
    static void at(std::shared_ptr<State> s, std::uint64_t when, bool value, std::uint64_t g) {
      Scheduler::current().add_native_timed(when, [s, when, value, g] {
        if (!s->running || s->generation != g) return;
        s->sig.write(value ? 1 : 0);
        at(s, when + (value ? s->high : s->low), !value, g);
      });
    }
  };
  st->sig.write(start_high ? 1 : 0);
  Toggler::at(st, sched.now() + (start_high ? st->high : st->low), !start_high, gen);
  return *this;
}

void Clock::stop() { state_->running = false; }

}  // namespace tb
