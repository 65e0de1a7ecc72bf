// The simulation scheduler and cocotb's triggers, in C++20.
//
// One Scheduler drives one verilated model for one test. Each time step follows cocotb's own
// Verilator main loop (cocotb/share/lib/verilator/verilator.cpp):
//   1. NextTimeStep waiters, then timed callbacks due now (Clock toggles, Timer expiries);
//   2. settle: edge waiters on watched signals fire (RisingEdge, FallingEdge, Edge), the
//      coroutines they resume may write inputs, repeat until nothing changes;
//   3. eval loop: eval_step(), settle, ReadWrite waiters, settle, until nothing changes;
//   4. eval_end_step(), then ReadOnly waiters (writes there are an error);
//   5. the trace dump for this time.
// Values read right after `co_await RisingEdge(clk)` are therefore the values the flops
// sample at that edge, exactly as in a cocotb bench.
#pragma once

#include <coroutine>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <queue>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "tb/signal.hpp"
#include "tb/task.hpp"

class VerilatedContext;

namespace tb {

// ---------------------------------------------------------------------------------------
// Errors

// A test failure: thrown by checks, scoreboards, and by the scheduler on a hang or an RTL
// assertion. Its message is what the summary and the JUnit file report.
class TestFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// Misuse of the harness (bad time unit, illegal phase transition, ...).
class HarnessError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// ---------------------------------------------------------------------------------------
// Time

enum class TimeUnit { step, fs, ps, ns, us, ms, sec };
enum class RoundMode { error, round, floor, ceil };

TimeUnit parse_time_unit(std::string_view unit);
std::string_view to_string(TimeUnit unit);

// ---------------------------------------------------------------------------------------
// Triggers

// One pending callback. Shared between a trigger and the scheduler list it waits in;
// deactivating it (unprime, trigger destroyed, task killed) makes the scheduler skip it.
struct Waiter {
  std::function<void()> callback;
  bool active = true;
  void fire() {
    if (!active) return;
    active = false;
    auto cb = std::move(callback);
    cb();
  }
};
using WaiterPtr = std::shared_ptr<Waiter>;

class Trigger {
 public:
  Trigger() = default;
  Trigger(const Trigger&) = delete;
  Trigger& operator=(const Trigger&) = delete;
  // Triggers are moved only before they are primed (into First/Combine).
  Trigger(Trigger&& other) noexcept = default;
  Trigger& operator=(Trigger&&) = delete;
  virtual ~Trigger() { unprime(); }

  // Arrange for `cb` to run once when the trigger fires. Re-priming replaces the callback.
  void prime(std::function<void()> cb);
  // Cancel the pending callback, if any.
  void unprime();
  bool primed() const { return waiter_ && waiter_->active; }
  virtual std::string name() const = 0;

  // Awaitable: `co_await RisingEdge(dut->clk_i);`
  bool await_ready() const noexcept { return false; }
  template <class P>
  void await_suspend(std::coroutine_handle<P> h) {
    if constexpr (std::is_base_of_v<detail::PromiseBase, P>) h.promise().waiting_on = this;
    prime([h]() mutable {
      if constexpr (std::is_base_of_v<detail::PromiseBase, P>) h.promise().waiting_on = nullptr;
      detail::schedule_resume(h);
    });
  }
  void await_resume() const noexcept {}

 protected:
  // Register the waiter with the scheduler (or with child triggers).
  virtual void do_prime(const WaiterPtr& w) = 0;
  // Called by unprime() after the waiter was deactivated (composites unprime children).
  virtual void do_unprime() {}

 private:
  WaiterPtr waiter_;
};

enum class EdgeKind { rising, falling, any };

// RisingEdge / FallingEdge: bit 0 of the signal goes 0->1 / 1->0. Edge: any value change.
class EdgeTrigger : public Trigger {
 public:
  EdgeTrigger(SignalRef sig, EdgeKind kind) : sig_(std::move(sig)), kind_(kind) {}
  std::string name() const override;

 protected:
  void do_prime(const WaiterPtr& w) override;

 private:
  SignalRef sig_;
  EdgeKind kind_;
};
inline EdgeTrigger RisingEdge(SignalRef s) { return {std::move(s), EdgeKind::rising}; }
inline EdgeTrigger FallingEdge(SignalRef s) { return {std::move(s), EdgeKind::falling}; }
inline EdgeTrigger Edge(SignalRef s) { return {std::move(s), EdgeKind::any}; }

// Timer(t, unit): fires t after the current time. A time that is not a whole number of
// simulator steps is an error unless a rounding mode says otherwise (as in cocotb).
class Timer : public Trigger {
 public:
  Timer(double time, std::string_view unit = "step", RoundMode round = RoundMode::error);
  Timer(double time, TimeUnit unit, RoundMode round = RoundMode::error);
  std::uint64_t steps() const { return steps_; }
  std::string name() const override;

 protected:
  void do_prime(const WaiterPtr& w) override;

 private:
  std::uint64_t steps_;
};

// Phase triggers.
class ReadWrite : public Trigger {
 public:
  std::string name() const override { return "ReadWrite()"; }

 protected:
  void do_prime(const WaiterPtr& w) override;
};
class ReadOnly : public Trigger {
 public:
  std::string name() const override { return "ReadOnly()"; }

 protected:
  void do_prime(const WaiterPtr& w) override;
};
class NextTimeStep : public Trigger {
 public:
  std::string name() const override { return "NextTimeStep()"; }

 protected:
  void do_prime(const WaiterPtr& w) override;
};

// ClockCycles(clk, n, rising): n edges of the given polarity.
class ClockCycles : public Trigger {
 public:
  ClockCycles(SignalRef clk, std::uint64_t cycles, bool rising = true);
  std::string name() const override;

 protected:
  void do_prime(const WaiterPtr& w) override;
  void do_unprime() override;

 private:
  void arm();
  SignalRef clk_;
  std::uint64_t cycles_;
  std::uint64_t remaining_ = 0;
  bool rising_;
  std::unique_ptr<EdgeTrigger> edge_;
  WaiterPtr outer_;
};

// Join(task): fires when the task has finished (or was killed).
class Join : public Trigger {
 public:
  template <class T>
  explicit Join(const Task<T>& t)
      : owner_(t.owner()), name_(t.valid() ? t.name() : std::string{}) {}
  std::string name() const override { return "Join(" + name_ + ")"; }

 protected:
  void do_prime(const WaiterPtr& w) override;

 private:
  std::shared_ptr<detail::FrameOwner> owner_;
  std::string name_;
};

namespace detail {
template <class T>
std::unique_ptr<Trigger> to_trigger(T&& t) {
  using D = std::decay_t<T>;
  if constexpr (std::is_base_of_v<Trigger, D>) {
    return std::make_unique<D>(std::move(t));
  } else {
    return std::make_unique<Join>(t);  // a Task: wait for it to finish
  }
}
}  // namespace detail

// First(a, b, ...): fires when the first of its triggers fires; `co_await` yields the index
// of the one that fired (cocotb returns the trigger object itself).
class First : public Trigger {
 public:
  template <class... Ts>
  explicit First(Ts&&... ts) {
    (children_.push_back(detail::to_trigger(std::forward<Ts>(ts))), ...);
  }
  First(First&&) noexcept = default;
  std::string name() const override;
  std::size_t await_resume() const noexcept { return fired_; }
  std::size_t fired() const { return fired_; }

 protected:
  void do_prime(const WaiterPtr& w) override;
  void do_unprime() override;

 private:
  std::vector<std::unique_ptr<Trigger>> children_;
  std::size_t fired_ = 0;
};

// Combine(a, b, ...): fires when all of its triggers have fired.
class Combine : public Trigger {
 public:
  template <class... Ts>
  explicit Combine(Ts&&... ts) {
    (children_.push_back(detail::to_trigger(std::forward<Ts>(ts))), ...);
  }
  Combine(Combine&&) noexcept = default;
  std::string name() const override;

 protected:
  void do_prime(const WaiterPtr& w) override;
  void do_unprime() override;

 private:
  std::vector<std::unique_ptr<Trigger>> children_;
  std::size_t pending_ = 0;
};

// ---------------------------------------------------------------------------------------
// Scheduler

enum class Phase { idle, timed, settle, readwrite, readonly };

// Hooks the scheduler calls on the model; filled in by the test runner for a Dut<V>.
struct ModelHooks {
  std::function<void()> eval_step;
  std::function<void()> eval_end_step;
  std::function<void(std::uint64_t)> dump;  // trace dump at a time, may be empty
};

struct RunStats {
  double end_time_ns = 0;
  std::uint64_t end_time_steps = 0;
  std::uint64_t time_steps = 0;   // distinct simulated time points
  std::uint64_t evals = 0;
};

class Scheduler {
 public:
  Scheduler(VerilatedContext& context, ModelHooks hooks);
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // The scheduler of the running test; throws HarnessError outside a test.
  static Scheduler& current();
  static bool active();

  std::uint64_t now() const { return now_; }
  Phase phase() const { return phase_; }
  int precision_exponent() const { return precision_exp_; }
  std::uint64_t to_steps(double t, TimeUnit unit, RoundMode round) const;
  double from_steps(std::uint64_t steps, TimeUnit unit) const;

  // Run `test` until it finishes, fails, hangs (nothing left scheduled) or the timeout (in
  // steps, 0 = none) passes. Remaining tasks are killed afterwards, as cocotb does.
  // Throws TestFailure / rethrows the test's exception on failure.
  void run(Task<> test, std::uint64_t timeout_steps = 0);
  const RunStats& stats() const { return stats_; }

  // --- used by triggers, tasks and the Clock --------------------------------------------
  void add_timed(std::uint64_t at, WaiterPtr w);
  void add_native_timed(std::uint64_t at, std::function<void()> fn);
  void add_edge(const SignalRef& sig, EdgeKind kind, WaiterPtr w);
  void add_readwrite(WaiterPtr w);
  void add_readonly(WaiterPtr w);
  void add_next_step(WaiterPtr w);
  void schedule(std::coroutine_handle<> h) { ready_.push_back(h); }
  void fork(std::shared_ptr<detail::FrameOwner> owner, std::coroutine_handle<> h);
  // A frame is being destroyed: remove any resume of it still queued.
  void forget(std::coroutine_handle<> h);
  void report_failure(std::exception_ptr e);
  // cocotb's `handle.value = x`: applied once every coroutine woken in this pass has run,
  // so they all see the values the design saw (see tb::write).
  void defer_write(const SignalRef& sig, std::uint64_t value);
  void defer(std::function<void()> apply);

 private:
  struct Timed {
    std::uint64_t at;
    std::uint64_t seq;
    WaiterPtr waiter;                 // Timer
    std::function<void()> native;     // Clock toggle
    bool operator>(const Timed& o) const { return std::tie(at, seq) > std::tie(o.at, o.seq); }
  };
  struct Watch {
    SignalRef sig;
    std::vector<std::uint8_t> last;
    std::vector<std::pair<EdgeKind, WaiterPtr>> waiters;
  };

  void drain();
  bool apply_writes();
  bool settle();
  bool check_watches();
  bool fire_list(std::vector<WaiterPtr>& list);
  void check_rtl_errors();
  void stop_if_failed();
  void cleanup_forked();

  VerilatedContext& ctx_;
  ModelHooks hooks_;
  int precision_exp_;
  std::uint64_t now_ = 0;
  std::uint64_t seq_ = 0;
  Phase phase_ = Phase::idle;
  std::priority_queue<Timed, std::vector<Timed>, std::greater<>> timed_;
  std::map<void*, Watch> watches_;
  std::vector<WaiterPtr> readwrite_, readonly_, next_step_;
  std::deque<std::coroutine_handle<>> ready_;
  // The running test's promise: once it is done, nothing else resumes (see drain()).
  const detail::PromiseBase* test_promise_ = nullptr;
  std::vector<std::function<void()>> pending_writes_;
  std::vector<std::shared_ptr<detail::FrameOwner>> forked_;
  std::exception_ptr failure_;
  RunStats stats_;
  Scheduler* previous_ = nullptr;
};

// Write a signal the way cocotb's `sig.value = v` does: the write is held until the
// ReadWrite phase of this time step, after the design has evaluated the current edge with
// the old values. So code woken by RisingEdge(clk) can drive inputs without racing the flops,
// and every monitor woken by the same edge still reads what the design sampled.
// A plain `dut->sig = v` is immediate, like cocotb's setimmediatevalue: fine before the
// clock starts, at a FallingEdge, or after a Timer, but at a RisingEdge it races the edge.
void write(const SignalRef& sig, std::uint64_t value);
// The same for any group of writes (e.g. a driver's data setter): `apply` runs at that point.
void defer(std::function<void()> apply);

// Current simulation time in a unit (cocotb.utils.get_sim_time).
double get_sim_time(TimeUnit unit = TimeUnit::ns);
std::uint64_t get_sim_steps();

// A task handed to start_soon: the same handle, but ignoring it is fine (it runs anyway),
// unlike a plain Task whose coroutine never starts if nobody awaits it.
template <class T>
class RunningTask : public Task<T> {
 public:
  RunningTask() = default;
  explicit RunningTask(Task<T> t) : Task<T>(std::move(t)) {}
};

// Run a task concurrently, starting in the current scheduling pass (cocotb.start_soon).
template <class T>
RunningTask<T> start_soon(Task<T> task) {
  auto& p = task.promise();
  if (p.started) throw HarnessError("start_soon: task '" + p.name + "' has already started");
  p.started = true;
  p.forked = true;
  Scheduler::current().fork(task.owner(), task.handle());
  return RunningTask<T>(std::move(task));
}

// Clock(signal, period, unit).start(): a free-running clock driven natively by the
// scheduler (like cocotb 2's GPI clock), starting high. An odd period puts the extra step
// in the low half.
class Clock {
 public:
  Clock(SignalRef sig, double period, std::string_view unit = "step");
  Clock& start(bool start_high = true);
  void stop();
  std::uint64_t period_steps() const { return period_; }

 private:
  struct State {
    SignalRef sig;
    std::uint64_t high = 0, low = 0;
    bool running = false;
    std::uint64_t generation = 0;
  };
  std::shared_ptr<State> state_;
  std::uint64_t period_;
};

}  // namespace tb
