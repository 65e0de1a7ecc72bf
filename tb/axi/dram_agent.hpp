// DramAgent: runs a tessera::sim::DramModel (and optionally an AxiProtocolChecker) against
// the AXI4 master ports (m_axi_*) of a verilated model, from a harness coroutine.
//
// At every RisingEdge(clk) it reads the master's outputs (the harness shows pre-edge values
// there: what the design presented during the cycle), feeds them with the slave outputs it
// drove during that cycle to the checker and the model, and drives the model's new outputs
// with tb::defer, so the design sees them from that edge on -- exactly a registered slave.
// While rst_n is low it resets the model's port state (memory is kept) and the checker.
//
//   tessera::sim::DramModel dram(cfg);
//   tessera::sim::AxiProtocolChecker chk({.name = "m_axi", .id_width = 6});
//   tb::axi::DramAgent agent(dut.top(), dut->clk_i, dut->rst_ni, dram, &chk);
//   agent.start();          // before or after the clock starts; drives the ports at once
//   ...                     // the first violation fails the test (fail_on_violation)
#pragma once

#include <functional>
#include <string>

#include "tb/sim.hpp"
#include "tb/test.hpp"
#include "tessera/sim/axi_checker.hpp"
#include "tessera/sim/axi_verilated.hpp"
#include "tessera/sim/dram_model.hpp"

namespace tb::axi {

class DramAgent {
 public:
  template <class V>
  DramAgent(V& top, SignalRef clk, SignalRef rst_n, tessera::sim::DramModel& dram,
            tessera::sim::AxiProtocolChecker* checker = nullptr)
      : clk_(std::move(clk)),
        rst_n_(std::move(rst_n)),
        dram_(dram),
        chk_(checker),
        sample_([&top] { return tessera::sim::sample_axi_master(top); }),
        drive_([&top](const tessera::sim::AxiSlaveSignals& s) { tessera::sim::drive_axi_slave(top, s); }) {}

  // Stops the agent's coroutine: it refers to the model and checker, which may go first.
  ~DramAgent() { task_.kill(); }
  DramAgent(const DramAgent&) = delete;
  DramAgent& operator=(const DramAgent&) = delete;

  // With true (the default) the first protocol violation fails the test at once, naming
  // channel, cycle and rule; with false violations are only collected in the checker.
  void fail_on_violation(bool on) { fail_ = on; }

  void start() {
    if (chk_ && fail_)
      chk_->on_violation([](const tessera::sim::AxiViolation& v) { tb::fail("AXI protocol: " + v.to_string()); });
    drive_(dram_.outputs());
    task_ = start_soon(run().named("tb.dram_agent"));
  }

  // The master's outputs sampled at the latest edge (e.g. for a bench's own monitors).
  const tessera::sim::AxiMasterSignals& last_master() const { return last_; }
  // The slave outputs during the cycle that latest edge ended.
  const tessera::sim::AxiSlaveSignals& last_slave() const { return last_s_; }
  std::uint64_t edges() const { return edges_; }
  // Called at every edge out of reset, after the model has stepped.
  void on_edge(std::function<void()> cb) { on_edge_ = std::move(cb); }

 private:
  Task<> run() {
    while (true) {
      co_await RisingEdge(clk_);
      if (rst_n_.valid() && !rst_n_.bit0()) {
        dram_.reset_interface();
        if (chk_) chk_->reset();
        defer([this, s = dram_.outputs()] { drive_(s); });
        continue;
      }
      ++edges_;
      last_ = sample_();
      last_s_ = dram_.outputs();
      if (chk_) chk_->sample(last_, last_s_);
      tessera::sim::AxiSlaveSignals next;
      dram_.clock_edge(last_, next);
      defer([this, next] { drive_(next); });
      if (on_edge_) on_edge_();
    }
  }

  SignalRef clk_, rst_n_;
  tessera::sim::DramModel& dram_;
  tessera::sim::AxiProtocolChecker* chk_;
  std::function<tessera::sim::AxiMasterSignals()> sample_;
  std::function<void(const tessera::sim::AxiSlaveSignals&)> drive_;
  std::function<void()> on_edge_;
  tessera::sim::AxiMasterSignals last_;
  tessera::sim::AxiSlaveSignals last_s_;
  std::uint64_t edges_ = 0;
  bool fail_ = true;
  Task<> task_;
};

}  // namespace tb::axi
