// cp_core_env.hpp -- bench environment of cp_core (the core alone, cp_core_default):
// C++ models of the instruction and data ports with random grant stalls and response
// latencies, the CP memory map, and a scoreboard that checks every retired instruction and
// every data access against the ISS (rv32_iss.hpp). Used by bench_cp_core.cpp.
//
// Port models (ibex-style protocol, docs/cp-core.md "Interfaces"):
//   - gnt is drawn at random each cycle (independently of req); a request granted in cycle c
//     is answered in cycle c + latency (latency >= 1), in order, one answer per cycle.
//   - The models check the protocol from the outside too: a request not granted must be
//     held with the same fields, no rvalid is expected without a granted request, at most one
//     data access outstanding.
// Memory map (as cp_core_sys): ROM 0x0-0x3fff (fetch + data reads), DMEM 0x10000-0x13fff,
// MMIO 0x20000-0x2ffff (reads 0; a write to 0x20004 acknowledges the bench's interrupt),
// slow window 0x80000000-0x80000fff (its own, longer latency profile); anything else faults.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "Vcp_core_default.h"
#include "rv32_asm.hpp"
#include "rv32_iss.hpp"
#include "tb/coverage.hpp"
#include "tb/sim.hpp"
#include "tb/test.hpp"

namespace cpcore {

inline constexpr std::uint32_t kRomBase = 0x00000000, kRomWords = 4096;
inline constexpr std::uint32_t kDmemBase = 0x00010000, kDmemWords = 4096;
inline constexpr std::uint32_t kMmioBase = 0x00020000, kMmioIrqAck = 0x00020004;
inline constexpr std::uint32_t kSlowBase = 0x80000000, kSlowWords = 1024;

struct Program {
  std::vector<std::uint32_t> rom = std::vector<std::uint32_t>(kRomWords, 0);
  std::vector<std::uint32_t> dmem = std::vector<std::uint32_t>(kDmemWords, 0);
  std::vector<std::uint32_t> slow = std::vector<std::uint32_t>(kSlowWords, 0);
  std::uint32_t end_pc = 0;  // `jal x0, 0`: the run ends when it retires
};

// The system's memories and access rules, word granular (the data port's view) and byte
// granular (the ISS's view). Two instances: one behind the DUT's ports, one for the ISS.
class SysMem : public rv32::IssMemory {
 public:
  explicit SysMem(const Program& p) : rom_(p.rom), dmem_(p.dmem), slow_(p.slow) {}

  enum class Region { rom, dmem, mmio, slow, none };
  static Region region(std::uint32_t a) {
    if (a < kRomBase + 4 * kRomWords) return Region::rom;
    if (a >= kDmemBase && a < kDmemBase + 4 * kDmemWords) return Region::dmem;
    if (a >= kMmioBase && a < kMmioBase + 0x10000) return Region::mmio;
    if (a >= kSlowBase && a < kSlowBase + 4 * kSlowWords) return Region::slow;
    return Region::none;
  }

  // Word access with byte enables (wdata on its byte lanes). false = access fault.
  bool read_word(std::uint32_t a, std::uint32_t& v) const {
    switch (region(a)) {
      case Region::rom: v = rom_[(a - kRomBase) / 4]; return true;
      case Region::dmem: v = dmem_[(a - kDmemBase) / 4]; return true;
      case Region::slow: v = slow_[(a - kSlowBase) / 4]; return true;
      case Region::mmio: v = 0; return true;
      default: return false;
    }
  }
  bool write_word(std::uint32_t a, unsigned be, std::uint32_t wdata) {
    std::uint32_t* w = nullptr;
    switch (region(a)) {
      case Region::dmem: w = &dmem_[(a - kDmemBase) / 4]; break;
      case Region::slow: w = &slow_[(a - kSlowBase) / 4]; break;
      case Region::mmio: return true;
      default: return false;  // ROM is read-only for the core; the rest is unmapped
    }
    for (unsigned b = 0; b < 4; ++b)
      if (be & (1u << b)) *w = (*w & ~(0xFFu << (8 * b))) | (wdata & (0xFFu << (8 * b)));
    return true;
  }

  // rv32::IssMemory
  bool fetch(std::uint32_t a, std::uint32_t& insn) override {
    if (region(a) != Region::rom) return false;
    insn = rom_[a / 4];
    return true;
  }
  bool load(std::uint32_t a, unsigned size, std::uint32_t& v) override {
    std::uint32_t w = 0;
    if (!read_word(a & ~3u, w)) return false;
    v = w >> (8 * (a & 3u));
    if (size < 4) v &= (1u << (8 * size)) - 1;
    return true;
  }
  bool store(std::uint32_t a, unsigned size, std::uint32_t v) override {
    const unsigned be = ((1u << size) - 1) << (a & 3u);
    return write_word(a & ~3u, be, v << (8 * (a & 3u)));
  }

 private:
  std::vector<std::uint32_t> rom_, dmem_, slow_;
};

// Timing of one port: grant probability per cycle and answer latency (cycles after grant).
struct PortTiming {
  double gnt_prob = 1.0;
  unsigned lat_min = 1, lat_max = 1;
  double long_prob = 0.0;  // occasionally a long answer (MMIO, GPU memory)
  unsigned long_lat = 0;
};

struct EnvConfig {
  PortTiming ifetch, data, slow;  // slow: the 0x80000000 window (grant and latency)
  double irq_prob = 0.0;          // chance per cycle to raise the interrupt while it is low
  std::uint64_t max_cycles = 2'000'000;
};

// One retired instruction as the RTL reports it.
struct Retire {
  std::uint64_t cycle;
  std::uint32_t pc, insn;
  bool trap;
  unsigned rd;
  std::uint32_t wdata;
};

// One data access as granted on the port.
struct Access {
  std::uint64_t cycle;
  bool we;
  std::uint32_t addr;
  unsigned be;
  std::uint32_t wdata;
};

struct RunStats {
  std::uint64_t cycles = 0, retired = 0, traps = 0, interrupts = 0;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> retire_cycles;  // (pc, cycle), if kept
};

class CoreEnv {
 public:
  CoreEnv(tb::Dut<Vcp_core_default>& dut, EnvConfig cfg) : dut_(dut), cfg_(cfg) {}

  tb::Coverage& coverage() { return cov_; }
  void keep_retire_cycles(bool v) { keep_retire_cycles_ = v; }

  // Start the clock and drive idle inputs (call once per test).
  tb::Task<> start() {
    drive_idle_now();
    dut_->rst_ni = 0;
    tb::Clock(dut_->clk_i, 10, "ns").start();
    co_await tb::ClockCycles(dut_->clk_i, 2);
  }

  // Reset the core, load `prog`, run until it retires end_pc; every retirement is checked
  // against the ISS. Returns the run's statistics.
  tb::Task<RunStats> run(const Program& prog) {
    dut_mem_ = std::make_unique<SysMem>(prog);
    iss_mem_ = std::make_unique<SysMem>(prog);
    iss_ = std::make_unique<rv32::Iss>(*iss_mem_, 0, 0);
    prog_end_ = prog.end_pc;
    fetch_q_.clear();
    data_q_.clear();
    accesses_.clear();
    history_.clear();
    irq_hist_.clear();
    in_ = Inputs{};
    prev_ireq_hold_ = prev_dreq_hold_ = false;
    irq_ = false;
    stats_ = RunStats{};
    // Reset: two cycles low, then run.
    tb::defer([this] {
      dut_->rst_ni = 0;
      apply(in_);
    });
    co_await tb::ClockCycles(dut_->clk_i, 2);
    tb::write(dut_->rst_ni, 1);
    bool done = false;
    for (cycle_ = 0; !done; ++cycle_) {
      co_await tb::RisingEdge(dut_->clk_i);
      if (cycle_ >= cfg_.max_cycles)
        tb::fail(fmt::format("no end after {} cycles (pc of the last retirement {:#010x}); {}", cycle_,
                             history_.empty() ? 0u : history_.back().pc, recent()));
      irq_hist_.push_back(in_.irq);
      done = on_retire();
      on_fetch();
      on_data();
      if (!done) plan();
    }
    stats_.cycles = cycle_;
    co_return stats_;
  }

 private:
  struct Inputs {
    bool igrant = false, irvalid = false, ierr = false;
    std::uint32_t irdata = 0;
    bool dgrant = false, drvalid = false, derr = false;
    std::uint32_t drdata = 0;
    bool irq = false;
  };
  struct Pending {
    std::uint64_t ready;  // cycle in which the answer may be given
    std::uint32_t rdata;
    bool err;
  };

  void apply(const Inputs& in) {
    dut_->instr_gnt_i = in.igrant;
    dut_->instr_rvalid_i = in.irvalid;
    dut_->instr_rdata_i = in.irdata;
    dut_->instr_err_i = in.ierr;
    dut_->data_gnt_i = in.dgrant;
    dut_->data_rvalid_i = in.drvalid;
    dut_->data_rdata_i = in.drdata;
    dut_->data_err_i = in.derr;
    dut_->irq_external_i = in.irq;
  }
  void drive_idle_now() { apply(Inputs{}); }

  unsigned latency(const PortTiming& t) {
    if (t.long_prob > 0 && tb::chance(t.long_prob)) return t.long_lat;
    return static_cast<unsigned>(tb::randint(t.lat_min, t.lat_max));
  }

  // --- Instruction port -------------------------------------------------------------------
  void on_fetch() {
    const bool req = dut_->instr_req_o;
    const std::uint32_t addr = dut_->instr_addr_o;
    if (prev_ireq_hold_)
      tb::check(req && addr == prev_iaddr_,
                fmt::format("cycle {}: instruction request {:#010x} withdrawn or changed to req={} addr={:#010x} "
                            "before its grant",
                            cycle_, prev_iaddr_, req, addr));
    prev_ireq_hold_ = req && !in_.igrant;
    prev_iaddr_ = addr;
    cov_.hit("ifetch: request held without grant", req && !in_.igrant);
    if (!(req && in_.igrant)) return;
    tb::check((addr & 3u) == 0, fmt::format("cycle {}: misaligned fetch address {:#010x}", cycle_, addr));
    std::uint32_t insn = 0;
    const bool ok = dut_mem_->fetch(addr, insn);
    std::uint64_t ready = cycle_ + latency(cfg_.ifetch);
    if (!fetch_q_.empty()) ready = std::max(ready, fetch_q_.back().ready + 1);
    fetch_q_.push_back({ready, insn, !ok});
    cov_.hit("ifetch: 2+ requests outstanding", fetch_q_.size() >= 2);
  }

  // --- Data port ----------------------------------------------------------------------------
  void on_data() {
    const bool req = dut_->data_req_o;
    const Access a{cycle_, static_cast<bool>(dut_->data_we_o), dut_->data_addr_o, dut_->data_be_o, dut_->data_wdata_o};
    if (prev_dreq_hold_)
      tb::check(req && a.we == prev_dreq_.we && a.addr == prev_dreq_.addr && a.be == prev_dreq_.be &&
                    a.wdata == prev_dreq_.wdata,
                fmt::format("cycle {}: data request {} {:#010x} be={:x} wdata={:#010x} withdrawn or changed before "
                            "its grant (now req={} {} {:#010x} be={:x} wdata={:#010x})",
                            cycle_, prev_dreq_.we ? "store" : "load", prev_dreq_.addr, prev_dreq_.be, prev_dreq_.wdata,
                            req, a.we ? "store" : "load", a.addr, a.be, a.wdata));
    const bool slow = SysMem::region(a.addr) == SysMem::Region::slow;
    prev_dreq_hold_ = req && !in_.dgrant;
    prev_dreq_ = a;
    prev_dreq_slow_ = req && slow;
    cov_.hit("data: request held without grant", req && !in_.dgrant);
    if (!(req && in_.dgrant)) return;
    // One access outstanding at most: the previous one was answered in this cycle or before.
    tb::check(data_q_.empty(),
              fmt::format("cycle {}: a second data request ({:#010x}) granted while one is outstanding", cycle_, a.addr));
    tb::check((a.addr & 3u) == 0, fmt::format("cycle {}: data_addr_o {:#010x} not word aligned", cycle_, a.addr));
    tb::check(a.be != 0, fmt::format("cycle {}: data request with no byte enabled", cycle_));
    cov_.hit("data: request in the cycle of the previous rvalid", in_.drvalid);
    std::uint32_t rdata = 0;
    bool ok = true;
    if (a.we) {
      ok = dut_mem_->write_word(a.addr, a.be, a.wdata);
      if (ok && a.addr == kMmioIrqAck) irq_ = false;  // the handler acknowledges
    } else {
      ok = dut_mem_->read_word(a.addr, rdata);
    }
    const unsigned lat = latency(slow ? cfg_.slow : cfg_.data);
    cov_.hit("data: latency > 1", lat > 1);
    cov_.hit("data: slow window access", slow);
    data_q_.push_back({cycle_ + lat, rdata, !ok});
    accesses_.push_back(a);
  }

  // --- Next cycle's inputs ------------------------------------------------------------------
  void plan() {
    Inputs n;
    n.igrant = tb::chance(cfg_.ifetch.gnt_prob);
    if (!fetch_q_.empty() && fetch_q_.front().ready <= cycle_ + 1) {
      n.irvalid = true;
      n.irdata = fetch_q_.front().rdata;
      n.ierr = fetch_q_.front().err;
      fetch_q_.pop_front();
    } else {
      n.irdata = static_cast<std::uint32_t>(tb::randint(0, 0xFFFFFFFF));  // junk without rvalid
    }
    n.dgrant = tb::chance(prev_dreq_slow_ ? cfg_.slow.gnt_prob : cfg_.data.gnt_prob);
    if (!data_q_.empty() && data_q_.front().ready <= cycle_ + 1) {
      n.drvalid = true;
      n.drdata = data_q_.front().rdata;
      n.derr = data_q_.front().err;
      if (n.derr) n.drdata = static_cast<std::uint32_t>(tb::randint(0, 0xFFFFFFFF));
      data_q_.pop_front();
    } else {
      n.drdata = static_cast<std::uint32_t>(tb::randint(0, 0xFFFFFFFF));
    }
    if (!irq_ && cfg_.irq_prob > 0 && tb::chance(dut_->sleep_o ? 0.2 : cfg_.irq_prob)) irq_ = true;
    n.irq = irq_;
    in_ = n;
    tb::defer([this, n] { apply(n); });
  }

  // --- Scoreboard ---------------------------------------------------------------------------
  std::string recent() const {
    std::string s = "last retirements:";
    for (const auto& r : history_)
      s += fmt::format("\n    cycle {:>7}  {:08x}  {:08x}  {:<28} {}", r.cycle, r.pc, r.insn, rv32::disasm(r.insn, r.pc),
                       r.trap ? "trap" : r.rd ? fmt::format("{}={:08x}", rv32::reg_name(r.rd), r.wdata) : "");
    return s;
  }

  // CSRs whose value depends on timing: the ISS takes the RTL's value.
  static bool timing_csr(std::uint32_t a) {
    return a == rv32::csr::mcycle || a == rv32::csr::mcycleh || a == rv32::csr::cycle || a == rv32::csr::cycleh ||
           a == rv32::csr::mip;
  }

  bool on_retire() {
    if (!dut_->retire_valid_o) return false;
    const Retire r{cycle_, dut_->retire_pc_o, dut_->retire_insn_o, static_cast<bool>(dut_->retire_trap_o),
                   dut_->retire_rd_o, dut_->retire_rd_wdata_o};
    history_.push_back(r);
    if (history_.size() > 12) history_.pop_front();
    auto mismatch = [&](const std::string& what) {
      tb::fail(fmt::format("cycle {}: retirement of {:08x} {:08x} ({}) {}; {}", r.cycle, r.pc, r.insn,
                           rv32::disasm(r.insn, r.pc), what, recent()));
    };

    // An interrupt shows as a trap of the instruction it preempted. It was taken in EX one
    // cycle before this retirement (cycle R-1), on mip.MEIP registered from the line in cycle
    // R-2, and only at an instruction that made no data access. irq_hist_[c] = line in cycle c.
    const bool irq_then = irq_hist_.size() >= 3 && irq_hist_[irq_hist_.size() - 3];
    const bool is_irq = r.trap && accesses_.empty() && irq_then && iss_->interrupt_enabled();
    iss_->set_meip(irq_then);
    const rv32::Step s = is_irq ? iss_->take_interrupt() : iss_->step();

    if (s.pc != r.pc) mismatch(fmt::format("expected pc {:08x} ({})", s.pc, rv32::disasm(s.insn, s.pc)));
    if (s.insn != r.insn) mismatch(fmt::format("expected instruction {:08x}", s.insn));
    if (s.trap != r.trap)
      mismatch(s.trap ? fmt::format("should have trapped (mcause {:#x}, mtval {:#x})", s.cause, s.tval)
                      : "trapped, but the ISS executes it without a trap");
    std::uint32_t expect_wdata = s.rd_value;
    if (s.csr_read && timing_csr(s.csr_addr) && s.rd && r.rd == s.rd) {
      iss_->x[s.rd] = r.wdata;  // adopt the cycle-dependent value
      expect_wdata = r.wdata;
    }
    if (r.rd != s.rd || (s.rd && r.wdata != expect_wdata))
      mismatch(fmt::format("wrote {}={:08x}, expected {}", r.rd ? rv32::reg_name(r.rd) : "nothing", r.wdata,
                           s.rd ? fmt::format("{}={:08x}", rv32::reg_name(s.rd), expect_wdata) : "no write"));

    // The data access this instruction made (granted earlier, in order).
    if (s.mem) {
      if (accesses_.empty()) mismatch("made no data access on the port");
      const Access a = accesses_.front();
      accesses_.pop_front();
      const unsigned be = ((1u << s.mem_size) - 1) << (s.mem_addr & 3u);
      const std::uint32_t lanes = s.mem_wdata << (8 * (s.mem_addr & 3u));
      std::uint32_t lane_mask = 0;
      for (unsigned b = 0; b < 4; ++b)
        if (be & (1u << b)) lane_mask |= 0xFFu << (8 * b);
      if (a.we != s.mem_store || a.addr != (s.mem_addr & ~3u) || a.be != be ||
          (s.mem_store && (a.wdata & lane_mask) != lanes))
        mismatch(fmt::format("port access {} addr={:08x} be={:x} wdata={:08x} (cycle {}), expected {} addr={:08x} "
                             "be={:x} wdata={:08x}",
                             a.we ? "store" : "load", a.addr, a.be, a.wdata, a.cycle, s.mem_store ? "store" : "load",
                             s.mem_addr & ~3u, be, lanes));
    } else if (!accesses_.empty()) {
      mismatch(fmt::format("the port saw a data access to {:08x} that the ISS does not make", accesses_.front().addr));
    }

    // Coverage of what the stream exercised.
    ++stats_.retired;
    if (r.trap) ++stats_.traps;
    if (is_irq) ++stats_.interrupts;
    if (keep_retire_cycles_) stats_.retire_cycles.emplace_back(r.pc, r.cycle);
    cover(s, r);
    return !r.trap && r.pc == prog_end_;
  }

  void cover(const rv32::Step& s, const Retire& r) {
    const std::uint32_t op = s.insn & 0x7F;
    if (s.trap) {
      cov_.hit(s.interrupt ? "trap: interrupt" : fmt::format("trap: cause {}", s.cause));
    } else {
      cov_.hit(fmt::format("insn: {}", rv32::disasm(s.insn, s.pc).substr(0, rv32::disasm(s.insn, s.pc).find(' '))));
      if (op == 0x63) cov_.hit(r.pc + 4 == iss_->pc ? "branch: not taken" : "branch: taken");
    }
    // Producer -> consumer distance (1 = back to back) of the register operands.
    const unsigned rs1 = (s.insn >> 15) & 31, rs2 = (s.insn >> 20) & 31;
    const bool uses_rs1 = op == 0x67 || op == 0x63 || op == 0x03 || op == 0x23 || op == 0x13 || op == 0x33;
    const bool uses_rs2 = op == 0x63 || op == 0x23 || op == 0x33;
    for (unsigned d = 1; d <= 3 && d < history_.size(); ++d) {
      const Retire& p = history_[history_.size() - 1 - d];
      if (p.trap || !p.rd) continue;
      const bool hit = (uses_rs1 && rs1 == p.rd) || (uses_rs2 && rs2 == p.rd);
      if (!hit) continue;
      const bool load = (p.insn & 0x7F) == 0x03;
      cov_.hit(fmt::format("dependency: {} -> use at distance {}", load ? "load" : "alu/mul/csr", d));
      break;
    }
  }

  tb::Dut<Vcp_core_default>& dut_;
  EnvConfig cfg_;
  std::unique_ptr<SysMem> dut_mem_, iss_mem_;
  std::unique_ptr<rv32::Iss> iss_;
  std::uint32_t prog_end_ = 0;
  std::uint64_t cycle_ = 0;
  Inputs in_;
  std::deque<Pending> fetch_q_, data_q_;
  std::deque<Access> accesses_;
  std::deque<Retire> history_;
  std::vector<bool> irq_hist_;
  bool irq_ = false;
  bool prev_ireq_hold_ = false, prev_dreq_hold_ = false, prev_dreq_slow_ = false;
  std::uint32_t prev_iaddr_ = 0;
  Access prev_dreq_{};
  tb::Coverage cov_;
  RunStats stats_;
  bool keep_retire_cycles_ = false;
};

}  // namespace cpcore
