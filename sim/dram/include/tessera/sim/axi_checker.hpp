// AxiProtocolChecker: a passive monitor for one AXI4 port. It samples the master's and the
// slave's outputs at every rising edge and records every broken protocol rule with the
// channel, the edge number and the rule, e.g.
//   dram: cycle 1234: AR: valid-dropped: ARVALID fell before ARREADY (ARID=3 ARADDR=0x00001000, pending since cycle 1230)
// Usable on any AXI4 port (master or slave under test). The rules (docs/axi-and-dram.md):
//   valid-dropped     AR/AW/W/R/B: VALID fell while READY was low (A3.2.1)
//   payload-changed   AR/AW/W/R/B: payload changed while VALID && !READY (A3.2.1)
//   burst-length      AR/AW: AxLEN != 0 when one_beat_only; WRAP length not 2/4/8/16 (A3.4.1)
//   burst-size        AR/AW: AxSIZE != required_size, or wider than the data bus
//   burst-type        AR/AW: AxBURST = 2'b11 (reserved); WRAP with an unaligned address
//   4k-boundary       AR/AW: an INCR burst crosses a 4 KiB boundary
//   id-width          AR/AW/R/B: an ID wider than id_width
//   wlast-missing     W: WLAST low on the last beat of the burst
//   wlast-early       W: WLAST high before the last beat
//   wstrb-lanes       W: WSTRB set on a byte lane outside the beat's address window
//   w-before-aw       W: WVALID high for a beat whose AW has neither been accepted nor is
//                     being presented (AWVALID) in that cycle -- only when w_after_aw is set
//                     (AXI4 itself allows W first; Tessera's bridge promises "with or after")
//   outstanding-limit AR/AW: more reads / writes outstanding than max_reads / max_writes
//   unknown-id        R/B: a response whose ID has no outstanding transaction
//   rlast-missing     R: RLAST low on the last beat;  rlast-early: RLAST high before it
//   early-b           B: a write response before the write's last W beat was accepted
//   unanswered        R/B: reported by check_idle() for transactions still outstanding
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/sim/axi.hpp"

namespace tessera::sim {

struct AxiCheckerConfig {
  std::string name = "axi";     // prefix of every message
  unsigned id_width = 32;       // IDs must fit in this many bits
  bool one_beat_only = true;    // AxLEN must be 0 (Tessera's one-line bursts)
  int required_size = 6;        // AxSIZE must equal this; -1 = any size up to the data bus
  bool w_after_aw = false;      // flag WVALID before the beat's AW is presented or accepted
  unsigned max_reads = 0;       // reads the master may have outstanding; 0 = unchecked
  unsigned max_writes = 0;      // writes likewise
  bool check_4k = true;         // INCR bursts must not cross 4 KiB
};

struct AxiViolation {
  std::uint64_t cycle = 0;      // edge number: 1 = the first sample()
  std::string channel;          // AR, AW, W, R, B
  std::string rule;             // stable identifier (list above)
  std::string message;
  std::string checker;          // AxiCheckerConfig::name
  std::string to_string() const;
};

class AxiProtocolChecker {
 public:
  explicit AxiProtocolChecker(AxiCheckerConfig cfg = {});

  // One rising edge: both sides' outputs as sampled at the edge.
  void sample(const AxiMasterSignals& m, const AxiSlaveSignals& s);
  // The port is in reset: forget transactions in flight (VALIDs must be low after reset).
  void reset();
  // End of a test: every transaction must have been answered.
  void check_idle();

  const std::vector<AxiViolation>& violations() const { return violations_; }
  bool ok() const { return violations_.empty(); }
  std::size_t count(std::string_view rule) const;
  std::string report(std::size_t max_lines = 20) const;
  // Called for every violation as it is found (e.g. to fail a test at once).
  void on_violation(std::function<void(const AxiViolation&)> cb) { cb_ = std::move(cb); }

  std::uint64_t cycle() const { return cycle_; }
  std::size_t reads_outstanding() const { return reads_out_; }
  std::size_t writes_outstanding() const { return writes_out_; }
  // Handshakes seen: AR, AW, W, R, B.
  std::uint64_t ar_count() const { return n_ar_; }
  std::uint64_t aw_count() const { return n_aw_; }
  std::uint64_t w_count() const { return n_w_; }
  std::uint64_t r_count() const { return n_r_; }
  std::uint64_t b_count() const { return n_b_; }

 private:
  struct Read {
    AxiAddr a;
    std::uint64_t cycle = 0;
    unsigned beats = 0;
  };
  struct Write {
    AxiAddr a;
    std::uint64_t cycle = 0;
    unsigned beats = 0;       // W beats received
    bool data_done = false;   // last W beat received
  };

  void flag(const char* channel, const char* rule, std::string message);
  void check_stable(const AxiMasterSignals& m, const AxiSlaveSignals& s);
  void check_addr(const char* ch, const AxiAddr& a);
  void check_id(const char* ch, std::uint32_t id);
  void on_w_beat(Write& w, const AxiW& beat);

  AxiCheckerConfig cfg_;
  std::vector<AxiViolation> violations_;
  std::function<void(const AxiViolation&)> cb_;
  std::uint64_t cycle_ = 0;
  bool have_prev_ = false;
  AxiMasterSignals pm_;
  AxiSlaveSignals ps_;
  std::uint64_t pending_since_[5] = {};  // first cycle of the current VALID, per channel
  std::map<std::uint32_t, std::deque<Read>> reads_;    // by ID, oldest first
  std::map<std::uint32_t, std::deque<Write>> writes_;  // by ID, oldest first
  std::deque<Write*> w_wait_;                          // writes awaiting W beats, AW order
  std::deque<AxiW> w_early_;                           // W beats ahead of their AW
  std::size_t reads_out_ = 0, writes_out_ = 0;
  std::uint64_t n_ar_ = 0, n_aw_ = 0, n_w_ = 0, n_r_ = 0, n_b_ = 0;
};

}  // namespace tessera::sim
