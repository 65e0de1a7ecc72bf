// Coroutine tasks for the Tessera C++ harness: the equivalent of cocotb's coroutines and
// Task objects. A Task is lazy; it starts either when awaited (`co_await child()`, which
// runs it inline like `await child()` in cocotb) or when handed to tb::start_soon(), which
// runs it concurrently and returns a handle you can join with `co_await task`.
#pragma once

#include <coroutine>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

namespace tb {

class Trigger;

namespace detail {

// Type-independent part of a task's promise: what the scheduler needs to know.
struct PromiseBase {
  std::coroutine_handle<> continuation;           // inline awaiter, resumed at completion
  std::vector<std::function<void()>> joiners;     // co_await of a start_soon'd task
  std::exception_ptr exception;
  Trigger* waiting_on = nullptr;                  // trigger this task is suspended on
  bool started = false;
  bool done = false;
  bool cancelled = false;
  bool forked = false;                            // started by start_soon (not inline)
  std::string name;
};

// Called by a forked task that finished with an exception nobody awaited inline:
// as in cocotb, that fails the running test.
void report_forked_failure(PromiseBase& p);
// Schedule a coroutine handle to resume in the current scheduling pass.
void schedule_resume(std::coroutine_handle<> h);

// Owns the coroutine frame; shared by every Task copy and by the scheduler while it runs.
struct FrameOwner {
  std::coroutine_handle<> handle;
  PromiseBase* promise = nullptr;
  bool killed = false;  // outlives the frame, so a killed task still reads as cancelled
  explicit FrameOwner(std::coroutine_handle<> h, PromiseBase* p) : handle(h), promise(p) {}
  FrameOwner(const FrameOwner&) = delete;
  FrameOwner& operator=(const FrameOwner&) = delete;
  ~FrameOwner();
  // Destroy the frame now (kill): unprimes whatever trigger the task waits on.
  void destroy_now();
};

struct FinalAwaiter {
  bool await_ready() const noexcept { return false; }
  template <class P>
  std::coroutine_handle<> await_suspend(std::coroutine_handle<P> h) noexcept {
    PromiseBase& p = h.promise();
    p.done = true;
    for (auto& j : p.joiners) j();
    p.joiners.clear();
    if (p.continuation) return p.continuation;
    if (p.exception && p.forked) report_forked_failure(p);
    return std::noop_coroutine();
  }
  void await_resume() const noexcept {}
};

template <class T>
struct ResultHolder {
  std::optional<T> value;
  template <class U>
  void return_value(U&& u) { value.emplace(std::forward<U>(u)); }
  T take() { return std::move(*value); }
};
template <>
struct ResultHolder<void> {
  void return_void() {}
  void take() {}
};

}  // namespace detail

// Task<T>: a coroutine returning T. Copyable handle; the frame lives while any copy (or the
// scheduler) holds it.
template <class T = void>
class [[nodiscard]] Task {
 public:
  struct promise_type : detail::PromiseBase, detail::ResultHolder<T> {
    Task get_return_object() {
      return Task(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    detail::FinalAwaiter final_suspend() noexcept { return {}; }
    void unhandled_exception() { exception = std::current_exception(); }
  };
  using handle_type = std::coroutine_handle<promise_type>;

  Task() = default;
  explicit Task(handle_type h)
      : handle_(h), owner_(std::make_shared<detail::FrameOwner>(h, &h.promise())) {}

  bool valid() const { return static_cast<bool>(owner_) && owner_->handle; }
  bool done() const { return !valid() || promise().done; }
  bool started() const { return valid() && promise().started; }
  bool cancelled() const { return owner_ && owner_->killed; }
  // The exception the task ended with, or null.
  std::exception_ptr exception() const { return valid() ? promise().exception : nullptr; }
  // The task's result; throws its exception if it failed. Only valid once done().
  decltype(auto) result() {
    if (cancelled()) throw std::runtime_error("result() of a killed task");
    if (promise().exception) std::rethrow_exception(promise().exception);
    return promise().take();
  }
  // Stop the task now (cocotb's Task.kill/cancel): its frame is destroyed, its pending
  // trigger unprimed, and joiners resumed.
  void kill();

  const std::string& name() const { return promise().name; }
  Task& named(std::string n) {
    promise().name = std::move(n);
    return *this;
  }

  // co_await task: starts it inline if it never ran, otherwise joins it.
  auto operator co_await() noexcept {
    struct Awaiter {
      Task task;
      bool await_ready() const noexcept { return task.done(); }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiting) noexcept {
        auto& p = task.promise();
        if (!p.started) {
          p.started = true;
          p.continuation = awaiting;
          return task.handle_;  // symmetric transfer: run the child now
        }
        p.joiners.push_back([awaiting] { detail::schedule_resume(awaiting); });
        return std::noop_coroutine();
      }
      decltype(auto) await_resume() {
        if (task.cancelled()) {
          if constexpr (!std::is_void_v<T>) throw std::runtime_error("awaited a killed task");
          else return;
        }
        return task.result();
      }
    };
    return Awaiter{*this};
  }

  promise_type& promise() const { return handle_.promise(); }
  handle_type handle() const { return handle_; }
  std::shared_ptr<detail::FrameOwner> owner() const { return owner_; }

 private:
  handle_type handle_{};
  std::shared_ptr<detail::FrameOwner> owner_;
};

template <class T>
void Task<T>::kill() {
  if (!valid() || promise().done) return;
  auto& p = promise();
  p.cancelled = true;
  p.done = true;
  auto joiners = std::move(p.joiners);
  p.joiners.clear();
  owner_->killed = true;
  owner_->destroy_now();
  for (auto& j : joiners) j();
}

}  // namespace tb
