// Valid/ready stream verification components, used by every block's bench:
//   StreamSource<T>  drives valid + data, honours ready, optional random idle cycles
//   StreamSink       drives ready with random backpressure
//   StreamMonitor<T> samples accepted beats (valid && ready at a rising edge), checks the
//                    protocol (once valid, hold valid and data until ready), records them
//   Scoreboard<T>    compares observed items with expected ones, in order
// All sample at RisingEdge(clk), where the harness shows pre-edge values, so what a monitor
// records is exactly what the design accepted at that edge.
#pragma once

#include <cstdint>
#include <deque>
#include <fmt/format.h>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tb/log.hpp"
#include "tb/sim.hpp"
#include "tb/test.hpp"

namespace tb {

namespace detail {
template <class T>
std::string describe(const T& v) {
  if constexpr (fmt::is_formattable<T>::value) return fmt::format("{}", v);
  else return "<item>";
}
}  // namespace detail

// Common signals of one valid/ready interface. rst_n (active low) may be left unbound.
struct StreamPorts {
  SignalRef clk;
  SignalRef valid;
  SignalRef ready;
  SignalRef rst_n;
};

template <class T>
class StreamSource {
 public:
  using Setter = std::function<void(const T&)>;
  StreamSource(StreamPorts ports, Setter set_data, std::string name = "source")
      : p_(std::move(ports)), set_(std::move(set_data)), log_("tb." + name) {}

  // Probability of inserting an idle cycle before presenting each item (0 = back-to-back).
  void set_idle_probability(double p) { idle_p_ = p; }
  void send(T item) { pending_.push_back(std::move(item)); }
  std::size_t pending() const { return pending_.size(); }
  std::uint64_t accepted() const { return accepted_; }
  bool idle() const { return pending_.empty() && !presenting_; }

  void start() { task_ = start_soon(run().named(log_.name())); }
  // Wait until every queued item has been accepted.
  Task<> wait_idle() {
    while (!idle()) co_await RisingEdge(p_.clk);
  }

 private:
  Task<> run() {
    p_.valid.write(0);
    while (true) {
      co_await RisingEdge(p_.clk);
      const bool in_reset = p_.rst_n.valid() && !p_.rst_n.bit0();
      if (in_reset) {
        tb::write(p_.valid, 0);
        presenting_ = false;
        continue;
      }
      if (presenting_ && p_.ready.bit0()) {
        pending_.pop_front();
        presenting_ = false;
        ++accepted_;
      }
      if (!presenting_) {
        // Valid may only rise between items; once raised it stays until the handshake.
        if (!pending_.empty() && !(idle_p_ > 0 && chance(idle_p_))) {
          defer([set = set_, item = pending_.front()] { set(item); });
          presenting_ = true;
        }
        tb::write(p_.valid, presenting_ ? 1 : 0);
      }
    }
  }

  StreamPorts p_;
  Setter set_;
  Logger log_;
  std::deque<T> pending_;
  bool presenting_ = false;
  double idle_p_ = 0;
  std::uint64_t accepted_ = 0;
  Task<> task_;
};

class StreamSink {
 public:
  explicit StreamSink(StreamPorts ports, std::string name = "sink")
      : p_(std::move(ports)), name_(std::move(name)) {}
  // Probability that ready is low in a cycle (random backpressure).
  void set_stall_probability(double p) { stall_p_ = p; }
  void start() { task_ = start_soon(run().named("tb." + name_)); }

 private:
  Task<> run() {
    p_.ready.write(stall_p_ >= 1.0 ? 0 : 1);
    while (true) {
      co_await RisingEdge(p_.clk);
      tb::write(p_.ready, stall_p_ > 0 && chance(stall_p_) ? 0 : 1);
    }
  }
  StreamPorts p_;
  std::string name_;
  double stall_p_ = 0;
  Task<> task_;
};

template <class T>
class StreamMonitor {
 public:
  using Getter = std::function<T()>;
  StreamMonitor(StreamPorts ports, Getter get_data, std::string name = "monitor")
      : p_(std::move(ports)), get_(std::move(get_data)), log_("tb." + name) {}

  // Called for every accepted beat, in order.
  void on_item(std::function<void(const T&)> cb) { callbacks_.push_back(std::move(cb)); }
  // Check the valid/ready rules (valid and data held until ready). On by default.
  void check_protocol(bool on) { check_protocol_ = on; }
  const std::vector<T>& items() const { return items_; }
  std::uint64_t count() const { return count_; }
  std::uint64_t stall_cycles() const { return stalls_; }
  void keep_items(bool keep) { keep_ = keep; }
  void start() { task_ = start_soon(run().named(log_.name())); }

 private:
  Task<> run() {
    while (true) {
      co_await RisingEdge(p_.clk);
      if (p_.rst_n.valid() && !p_.rst_n.bit0()) {
        held_.reset();
        continue;
      }
      const bool valid = p_.valid.bit0();
      const bool ready = p_.ready.bit0();
      if (check_protocol_ && held_) {
        if (!valid)
          fail(fmt::format("{}: valid dropped before the handshake at {:.2f} ns (item {} was offered)",
                           log_.name(), get_sim_time(), detail::describe(*held_)));
        if constexpr (std::equality_comparable<T>) {
          const T now = get_();
          if (!(now == *held_))
            fail(fmt::format("{}: data changed while valid and not ready at {:.2f} ns: {} -> {}", log_.name(),
                             get_sim_time(), detail::describe(*held_), detail::describe(now)));
        }
      }
      if (valid && ready) {
        T item = get_();
        ++count_;
        for (auto& cb : callbacks_) cb(item);
        if (keep_) items_.push_back(std::move(item));
        held_.reset();
      } else if (valid) {
        ++stalls_;
        if (check_protocol_) held_ = get_();
      } else {
        held_.reset();
      }
    }
  }

  StreamPorts p_;
  Getter get_;
  Logger log_;
  std::vector<std::function<void(const T&)>> callbacks_;
  std::vector<T> items_;
  std::optional<T> held_;
  std::uint64_t count_ = 0, stalls_ = 0;
  bool check_protocol_ = true;
  bool keep_ = true;
  Task<> task_;
};

// In-order scoreboard: expect() what the reference model predicts, observe() what the DUT
// produced. The first mismatch fails the test with both items and their index.
template <class T>
class Scoreboard {
 public:
  explicit Scoreboard(std::string name = "scoreboard") : name_(std::move(name)) {}
  void expect(T item) { expected_.push_back(std::move(item)); }
  void observe(const T& got) {
    if (expected_.empty())
      fail(fmt::format("{}: unexpected item #{} {} (nothing was expected)", name_, matched_, detail::describe(got)));
    if (!(expected_.front() == got))
      fail(fmt::format("{}: item #{} mismatch: expected {}, got {}", name_, matched_,
                       detail::describe(expected_.front()), detail::describe(got)));
    expected_.pop_front();
    ++matched_;
  }
  // Call at the end: everything expected must have arrived.
  void check_drained() const {
    if (!expected_.empty())
      fail(fmt::format("{}: {} expected item(s) never arrived; the first is #{} {}", name_, expected_.size(),
                       matched_, detail::describe(expected_.front())));
  }
  std::uint64_t matched() const { return matched_; }
  std::size_t outstanding() const { return expected_.size(); }

 private:
  std::string name_;
  std::deque<T> expected_;
  std::uint64_t matched_ = 0;
};

}  // namespace tb
