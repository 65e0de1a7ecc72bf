// cocotb's synchronisation primitives: Event, Queue, Lock.
#pragma once

#include <cstddef>
#include <deque>
#include <fmt/format.h>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tb/sim.hpp"

namespace tb {

// Event: set() wakes every waiter; wait() on a set event returns at once (cocotb.triggers.Event).
class Event {
 public:
  explicit Event(std::string name = "event") : name_(std::move(name)) {}
  void set() {
    set_ = true;
    auto ws = std::move(waiters_);
    waiters_.clear();
    for (auto& w : ws) w->fire();
  }
  void clear() { set_ = false; }
  bool is_set() const { return set_; }
  const std::string& name() const { return name_; }

  class WaitTrigger : public Trigger {
   public:
    explicit WaitTrigger(Event& e) : e_(&e) {}
    std::string name() const override { return "Event(" + e_->name_ + ").wait()"; }

   protected:
    void do_prime(const WaiterPtr& w) override {
      if (e_->set_) w->fire();
      else e_->waiters_.push_back(w);
    }

   private:
    Event* e_;
  };
  WaitTrigger wait() { return WaitTrigger(*this); }

 private:
  std::string name_;
  bool set_ = false;
  std::vector<WaiterPtr> waiters_;
};

class QueueFull : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
class QueueEmpty : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Queue<T>: FIFO between coroutines (cocotb.queue.Queue). maxsize 0 = unbounded.
template <class T>
class Queue {
 public:
  explicit Queue(std::size_t maxsize = 0) : maxsize_(maxsize) {}

  std::size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  bool full() const { return maxsize_ != 0 && items_.size() >= maxsize_; }
  std::size_t maxsize() const { return maxsize_; }

  void put_nowait(T item) {
    if (full()) throw QueueFull(fmt::format("Queue full ({} items)", maxsize_));
    items_.push_back(std::move(item));
    wake(getters_);
  }
  T get_nowait() {
    if (items_.empty()) throw QueueEmpty("Queue empty");
    T v = std::move(items_.front());
    items_.pop_front();
    wake(putters_);
    return v;
  }
  // co_await q.put(x): waits while the queue is full.
  Task<> put(T item) {
    while (full()) co_await wait_on(putters_);
    put_nowait(std::move(item));
  }
  // T x = co_await q.get(): waits while the queue is empty.
  Task<T> get() {
    while (items_.empty()) co_await wait_on(getters_);
    co_return get_nowait();
  }

 private:
  class ListTrigger : public Trigger {
   public:
    explicit ListTrigger(std::vector<WaiterPtr>& l) : list_(&l) {}
    std::string name() const override { return "Queue wait"; }

   protected:
    void do_prime(const WaiterPtr& w) override { list_->push_back(w); }

   private:
    std::vector<WaiterPtr>* list_;
  };
  static ListTrigger wait_on(std::vector<WaiterPtr>& l) { return ListTrigger(l); }
  static void wake(std::vector<WaiterPtr>& l) {
    // Wake one live waiter, in arrival order (fair, like asyncio).
    while (!l.empty()) {
      auto w = l.front();
      l.erase(l.begin());
      if (w->active) {
        w->fire();
        return;
      }
    }
  }

  std::size_t maxsize_;
  std::deque<T> items_;
  std::vector<WaiterPtr> getters_, putters_;
};

// Lock: mutual exclusion between coroutines, granted in request order (cocotb.triggers.Lock).
class Lock {
 public:
  explicit Lock(std::string name = "lock") : name_(std::move(name)) {}
  bool locked() const { return locked_; }

  class AcquireTrigger : public Trigger {
   public:
    explicit AcquireTrigger(Lock& l) : l_(&l) {}
    std::string name() const override { return "Lock(" + l_->name_ + ").acquire()"; }

   protected:
    void do_prime(const WaiterPtr& w) override {
      if (!l_->locked_) {
        l_->locked_ = true;
        w->fire();
      } else {
        l_->waiters_.push_back(w);
      }
    }

   private:
    Lock* l_;
  };
  // co_await lock.acquire();  ... lock.release();
  AcquireTrigger acquire() { return AcquireTrigger(*this); }
  void release() {
    if (!locked_) throw HarnessError("Lock(" + name_ + ").release() of an unlocked lock");
    // Hand the lock straight to the next live waiter so nobody can barge in.
    while (!waiters_.empty()) {
      auto w = waiters_.front();
      waiters_.erase(waiters_.begin());
      if (w->active) {
        w->fire();
        return;
      }
    }
    locked_ = false;
  }

 private:
  std::string name_;
  bool locked_ = false;
  std::vector<WaiterPtr> waiters_;
};

}  // namespace tb
