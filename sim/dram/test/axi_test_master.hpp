// A cycle-based AXI4 master for the unit tests: queues reads and writes, presents them with
// legal handshakes (VALID held with a stable payload until READY), optional random idle
// cycles and random RREADY/BREADY, and records every response with its edge. Rig runs it
// against a DramModel with an AxiProtocolChecker watching the port.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "tessera/sim/axi.hpp"
#include "tessera/sim/axi_checker.hpp"
#include "tessera/sim/dram_model.hpp"

namespace tessera::sim::test {

struct RBeat {
  std::uint64_t edge;
  AxiR r;
};
struct BResp {
  std::uint64_t edge;
  AxiB b;
};

class TestMaster {
 public:
  explicit TestMaster(std::uint64_t seed = 1) : rng_(seed) {}

  double idle_p = 0;     // probability of an idle cycle before presenting AR / AW / W
  double rready_p = 1;   // probability RREADY is high in a cycle
  double bready_p = 1;
  bool w_early = false;  // present W beats before their AW has been sent (AXI4 allows it)

  void read(const AxiAddr& a) { ar_q_.push_back(a); }
  void write(const AxiAddr& a, const std::vector<AxiW>& beats) {
    aw_q_.push_back(a);
    for (const auto& b : beats) w_q_.push_back(b);
    w_per_aw_.push_back(beats.size());
  }
  // A one-beat 64-byte read / write.
  void read_line(std::uint32_t id, std::uint32_t addr) { read(AxiAddr{.id = id, .addr = addr}); }
  void write_line(std::uint32_t id, std::uint32_t addr, const AxiData& d, std::uint64_t strb = ~0ULL) {
    write(AxiAddr{.id = id, .addr = addr}, {AxiW{d, strb, true}});
  }

  // Outputs for the coming cycle.
  void drive(AxiMasterSignals& m) {
    m = AxiMasterSignals{};
    if (!ar_on_ && !ar_q_.empty() && !idle()) ar_on_ = true;
    if (!aw_on_ && !aw_q_.empty() && !idle()) aw_on_ = true;
    // A W beat goes out once its write's AW has been sent or is being presented, or at once
    // with w_early.
    if (!w_on_ && !w_q_.empty() && (w_early || w_allowed_ > 0 || aw_on_) && !idle()) w_on_ = true;
    m.arvalid = ar_on_;
    if (ar_on_) m.ar = ar_q_.front();
    m.awvalid = aw_on_;
    if (aw_on_) m.aw = aw_q_.front();
    m.wvalid = w_on_;
    if (w_on_) m.w = w_q_.front();
    m.rready = chance(rready_p);
    m.bready = chance(bready_p);
  }

  // Handshakes at the edge that ends the cycle (s = the slave's outputs during the cycle).
  void observe(const AxiMasterSignals& m, const AxiSlaveSignals& s, std::uint64_t edge) {
    if (m.arvalid && s.arready) {
      ar_edges.push_back(edge);
      ar_q_.pop_front();
      ar_on_ = false;
    }
    if (m.awvalid && s.awready) {
      aw_edges.push_back(edge);
      aw_q_.pop_front();
      aw_on_ = false;
      w_allowed_ += w_per_aw_.front();
      w_per_aw_.pop_front();
      const std::size_t take = std::min(w_ahead_, w_allowed_);  // beats sent before this AW
      w_ahead_ -= take;
      w_allowed_ -= take;
    }
    if (m.wvalid && s.wready) {
      w_edges.push_back(edge);
      w_q_.pop_front();
      w_on_ = false;
      if (w_allowed_ > 0)
        --w_allowed_;
      else
        ++w_ahead_;
    }
    if (s.rvalid && m.rready) rbeats.push_back({edge, s.r});
    if (s.bvalid && m.bready) bresps.push_back({edge, s.b});
  }

  bool requests_done() const { return ar_q_.empty() && aw_q_.empty() && w_q_.empty(); }

  std::vector<std::uint64_t> ar_edges, aw_edges, w_edges;
  std::vector<RBeat> rbeats;
  std::vector<BResp> bresps;

 private:
  bool chance(double p) { return p >= 1 || (p > 0 && std::bernoulli_distribution(p)(rng_)); }
  bool idle() { return chance(idle_p); }

  std::mt19937_64 rng_;
  std::deque<AxiAddr> ar_q_, aw_q_;
  std::deque<AxiW> w_q_;
  std::deque<std::size_t> w_per_aw_;
  std::size_t w_allowed_ = 0;  // W beats not yet sent whose AW has been accepted
  std::size_t w_ahead_ = 0;    // W beats sent before their AW was accepted
  bool ar_on_ = false, aw_on_ = false, w_on_ = false;
};

// Master + DRAM + checker, advanced one clock edge at a time.
struct Rig {
  explicit Rig(DramConfig dc = {}, AxiCheckerConfig cc = {}, std::uint64_t seed = 1)
      : dram(std::move(dc)), chk(std::move(cc)), master(seed) {}

  void step() {
    AxiMasterSignals m;
    master.drive(m);
    const AxiSlaveSignals s = dram.outputs();
    chk.sample(m, s);
    AxiSlaveSignals next;
    dram.clock_edge(m, next);
    master.observe(m, s, dram.cycle());
  }
  // Step until every request was sent and answered, or fail after max_cycles.
  bool run_until_idle(std::uint64_t max_cycles, std::size_t reads, std::size_t writes) {
    for (std::uint64_t c = 0; c < max_cycles; ++c) {
      if (master.requests_done() && dram.idle() && count_r_last() == reads && master.bresps.size() == writes &&
          !dram.outputs().rvalid && !dram.outputs().bvalid)
        return true;
      step();
    }
    return false;
  }
  std::size_t count_r_last() const {
    std::size_t n = 0;
    for (const auto& b : master.rbeats) n += b.r.last;
    return n;
  }

  DramModel dram;
  AxiProtocolChecker chk;
  TestMaster master;
};

inline AxiData pattern_line(std::uint32_t addr, std::uint32_t salt = 0) {
  AxiData d{};
  std::uint64_t x = (static_cast<std::uint64_t>(addr) << 16) ^ salt ^ 0x9E3779B97F4A7C15ULL;
  for (auto& b : d) {
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    b = static_cast<std::uint8_t>((x * 0x2545F4914F6CDD1DULL) >> 56);
  }
  return d;
}

}  // namespace tessera::sim::test
