// The memory behind a requester of the internal memory protocol (the CCHE's and the SLC's
// downstream port): a flat sparse memory of 64-byte lines answering with random latency, in
// any order, with random backpressure on both channels. A read returns the line as of its
// acceptance; a write lands when its response is handed over (AXI-like: the weakest ordering
// the protocol lets a requester rely on), or at acceptance if a test asks for that. Every
// accepted request is logged and may be observed through a callback.
//
// It checks what every requester owes the protocol (its own src, aligned lines, a known op,
// no tag reused while outstanding). What one block promises beyond that (its tag scheme, its
// limits on outstanding requests, the request kinds it may send), which requests a test makes
// fail, and the memory's contents before the first write belong to that block's bench: it
// derives from MemAgent and overrides the protected hooks.
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "mem_protocol.hpp"
#include "tb/sim.hpp"
#include "tb/test.hpp"

namespace tb::mem {

// How hostile the memory is; tests tune it per scenario (zero stalls and a fixed latency for
// figures, heavy randomness for protocol corners).
struct MemConfig {
  double req_stall = 0.2;     // probability req_ready is low in a cycle
  double rsp_idle = 0.2;      // probability no response is offered in a cycle
  unsigned lat_min = 2;       // cycles from acceptance to the response being offered
  unsigned lat_max = 30;
  bool reorder = true;        // offer any due response, not the oldest
  bool write_at_ack = true;   // a write lands when its response is handed over (else at acceptance)
};

// A memory that never stalls and answers every request after exactly `latency` cycles, in
// order: for directed tests that reason about which request is answered when, and for figures.
// Config is MemConfig or a bench's MemConfig derived from it (with its own defaults).
template <class Config = MemConfig>
Config steady_memory(unsigned latency) {
  Config mc;
  mc.req_stall = 0;
  mc.rsp_idle = 0;
  mc.lat_min = latency;
  mc.lat_max = latency;
  mc.reorder = false;
  return mc;
}

// The requester's clock and reset and its downstream port, as the verilated model names them.
struct MemPorts {
  SignalRef clk, rst_n;
  SignalRef req_valid, req_ready, req;  // the memory drives req_ready
  SignalRef rsp_valid, rsp_ready, rsp;  // the memory drives rsp_valid and rsp
};

// Facts about the requester that hold for every test, unlike MemConfig.
struct MemRequester {
  std::string name;                // names the block in failure messages
  std::uint8_t src = 0;            // its SRC_ID: every request must carry it
  double clock_ns = 10;            // clock period: cycles are numbered from simulation time so
                                   // that every coroutine woken by one edge agrees on the cycle
  bool rsp_ready_always = false;   // the block reserves room for every answer before asking, so
                                   // a low rsp_ready is a bug rather than backpressure
};

struct MemRecord {
  Req req;
  std::uint64_t cycle;  // of acceptance
};

class MemAgent {
 public:
  MemAgent(MemPorts ports, MemRequester requester, MemConfig cfg)
      : ports_(std::move(ports)), who_(std::move(requester)), cfg_(cfg) {}
  virtual ~MemAgent() = default;
  // The running coroutine holds `this`.
  MemAgent(const MemAgent&) = delete;
  MemAgent& operator=(const MemAgent&) = delete;

  MemConfig& config() { return cfg_; }

  // A line's current contents (what a read accepted now would return).
  Line read(std::uint32_t line) const {
    auto it = mem_.find(line);
    return it == mem_.end() ? initial_line(line) : it->second;
  }
  void poke(std::uint32_t line, const Line& data) { mem_[line] = data; }
  // The lines written so far (by the requester or poke()).
  const std::unordered_map<std::uint32_t, Line>& image() const { return mem_; }
  // Lines a test makes fail: which requests to them are answered err is answers_error()'s call.
  std::set<std::uint32_t>& error_lines() { return err_lines_; }
  const std::set<std::uint32_t>& error_lines() const { return err_lines_; }

  const std::vector<MemRecord>& log() const { return log_; }
  std::uint64_t accepted(Op op) const { return accepted_[static_cast<unsigned>(op) & 3U]; }
  // Requests accepted whose response has not been handed over yet.
  std::size_t outstanding() const { return pending_.size() + (presenting_ ? 1 : 0); }
  // Called for every accepted request after the checks, before it is applied.
  void on_request(std::function<void(const Req&, std::uint64_t cycle)> cb) { on_req_ = std::move(cb); }

  void start() { task_ = tb::start_soon(run().named("tb.dnmem")); }

 protected:
  // The contents of a line never written. The bench's reference model starts from the same
  // pattern, and a pattern of the address makes a fill of the wrong line visible.
  virtual Line initial_line(std::uint32_t line) const = 0;
  // The block's own rules, checked at acceptance after the common ones. The request is not
  // in flight yet (for_each_in_flight() shows only the older ones).
  virtual void check_request(const Req& /*r*/, std::uint64_t /*cycle*/) {}
  // Whether a request is answered err. By default a READ of a line in error_lines().
  virtual bool answers_error(const Req& r) const { return r.op == Op::read && err_lines_.count(r.addr >> 6) != 0; }

  // Visits every request accepted and not yet answered (the one being offered included).
  template <class F>
  void for_each_in_flight(F&& visit) const {
    for (const Pending& p : pending_) visit(p.req);
    if (presenting_) visit(current_.req);
  }
  const MemRequester& requester() const { return who_; }
  std::uint64_t cycle_now() const {
    return static_cast<std::uint64_t>(tb::get_sim_time(tb::TimeUnit::ns) / who_.clock_ns);
  }
  // Fails the test with a formatted message. A member rather than a free `check`: a free
  // function in tb::mem would be found by argument-dependent lookup next to the benches' own.
  template <class... A>
  static void require(bool cond, fmt::format_string<A...> f, A&&... a) {
    if (!cond) tb::fail(fmt::format(f, std::forward<A>(a)...));
  }

 private:
  struct Pending {
    Req req;
    Rsp rsp;
    std::uint64_t due;
  };

  Task<> run() {
    tb::write(ports_.req_ready, 0);
    tb::write(ports_.rsp_valid, 0);
    while (true) {
      co_await RisingEdge(ports_.clk);
      const std::uint64_t cyc = cycle_now();
      if (!ports_.rst_n.bit0()) continue;
      if (who_.rsp_ready_always)
        require(ports_.rsp_ready.bit0(), "{}: rsp_ready low: it must take every response", who_.name);
      // The request accepted at this edge.
      if (ports_.req_valid.bit0() && ports_.req_ready.bit0()) accept(unpack_req(read_port(ports_.req, kReqW)), cyc);
      // The response handed over at this edge.
      if (presenting_ && ports_.rsp_ready.bit0()) {
        if (cfg_.write_at_ack) land_write(current_);
        tags_.erase(current_.req.tag);
        presenting_ = false;
      }
      if (!presenting_ && !pending_.empty() && !(cfg_.rsp_idle > 0 && tb::chance(cfg_.rsp_idle))) {
        std::vector<std::size_t> due;
        for (std::size_t i = 0; i < pending_.size(); ++i)
          if (pending_[i].due <= cyc) due.push_back(i);
        if (!due.empty()) {
          const std::size_t pick = cfg_.reorder ? due[tb::randint(0, due.size() - 1)] : due.front();
          current_ = pending_[pick];
          pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(pick));
          presenting_ = true;
          const Bits b = pack(current_.rsp);
          tb::defer([this, b] { write_port(ports_.rsp, b); });
        }
      }
      tb::write(ports_.rsp_valid, presenting_ ? 1 : 0);
      tb::write(ports_.req_ready, (cfg_.req_stall > 0 && tb::chance(cfg_.req_stall)) ? 0 : 1);
    }
  }

  void accept(const Req& r, std::uint64_t cyc) {
    require(r.src == who_.src, "{} memory request with src {} (SRC_ID is {}): {}", who_.name, r.src, who_.src,
            describe(r));
    require(!tags_.count(r.tag), "{} reused memory tag {} while it was outstanding: {}", who_.name, r.tag,
            describe(r));
    require((r.addr & 0x3fU) == 0, "{} memory request misaligned: {}", who_.name, describe(r));
    require(static_cast<unsigned>(r.op) <= 2, "{} memory request with op 3", who_.name);
    check_request(r, cyc);
    tags_.insert(r.tag);
    ++accepted_[static_cast<unsigned>(r.op)];
    if (on_req_) on_req_(r, cyc);
    log_.push_back({r, cyc});
    Pending p;
    p.req = r;
    p.rsp.op = r.op;
    p.rsp.src = r.src;
    p.rsp.tag = r.tag;
    p.rsp.err = answers_error(r);
    p.due = cyc + (cfg_.lat_max > cfg_.lat_min ? tb::randint(cfg_.lat_min, cfg_.lat_max) : cfg_.lat_min);
    if (r.op == Op::read && !p.rsp.err) p.rsp.rdata = read(r.addr >> 6);  // the data as of acceptance
    if (!cfg_.write_at_ack) land_write(p);
    pending_.push_back(p);
  }

  // A write that was not answered err updates the bytes its strobes select.
  void land_write(const Pending& p) {
    if (p.req.op != Op::write || p.rsp.err) return;
    const std::uint32_t line = p.req.addr >> 6;
    Line d = read(line);
    for (unsigned b = 0; b < kLineBytes; ++b)
      if ((p.req.wstrb >> b) & 1U) d[b] = p.req.wdata[b];
    mem_[line] = d;
  }

  MemPorts ports_;
  MemRequester who_;
  MemConfig cfg_;
  std::unordered_map<std::uint32_t, Line> mem_;
  std::set<std::uint32_t> err_lines_;
  std::vector<Pending> pending_;
  Pending current_{};
  bool presenting_ = false;
  std::set<std::uint8_t> tags_;
  std::vector<MemRecord> log_;
  std::array<std::uint64_t, 4> accepted_{};
  std::function<void(const Req&, std::uint64_t)> on_req_;
  tb::RunningTask<void> task_;
};

}  // namespace tb::mem
