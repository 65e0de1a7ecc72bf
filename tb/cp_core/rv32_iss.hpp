// rv32_iss.hpp -- RV32IM + Zicsr machine-mode instruction-set simulator: the reference model
// of bench_cp_core's scoreboard.
//
// Written from the RISC-V specifications, not from the RTL: Unprivileged ISA 20191213
// (chapter 2 RV32I, chapter 7 M, chapter 9 Zicsr) and Privileged ISA 20211203 (chapter 3,
// machine mode: mstatus, mtvec direct mode, mepc, mcause, mtval, trap entry, MRET, WFI).
// Where the specifications leave a choice to the implementation (which optional CSRs exist,
// WARL/WLRL fields, what mtval holds), the choices are the ones docs/cp-core.md lists for
// cp_core, section "CSRs and traps":
//   - CSRs: mstatus (MIE, MPIE; MPP reads 3), mstatush (0), misa (0x40001100), mie (MEIE),
//     mip (MEIP, read-only), mtvec (direct: bits 1:0 read 0), mscratch, mepc (bits 1:0 read
//     0), mcause (bit 31 and bits 4:0 kept), mtval, mcycle(h), minstret(h), cycle(h),
//     instret(h), mvendorid/marchid/mimpid (0), mhartid. Any other CSR, or a write to a
//     read-only one, is an illegal instruction.
//   - mtval: the instruction for illegal instructions, the pc for EBREAK and instruction access
//     faults, the target for misaligned jumps, the address for load/store faults, 0 otherwise.
//   - minstret: an instruction that writes minstret/minstreth does not count itself (the value
//     written is what the next instruction reads). mcycle is not modelled cycle-accurately
//     (it counts instructions here); benches do not compare it.
//   - WFI completes at once (a no-op for this model); an interrupt is never taken at a WFI, so
//     mepc points after it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace rv32 {

// Memory seen by the ISS. load/store return false for an access fault; addresses are byte
// addresses, aligned to the size (the ISS raises misaligned exceptions itself).
class IssMemory {
 public:
  virtual ~IssMemory() = default;
  virtual bool fetch(std::uint32_t addr, std::uint32_t& insn) = 0;
  virtual bool load(std::uint32_t addr, unsigned size, std::uint32_t& value) = 0;
  virtual bool store(std::uint32_t addr, unsigned size, std::uint32_t value) = 0;
};

namespace csr {
inline constexpr std::uint32_t mstatus = 0x300, misa = 0x301, mie = 0x304, mtvec = 0x305,
                               mstatush = 0x310, mscratch = 0x340, mepc = 0x341, mcause = 0x342,
                               mtval = 0x343, mip = 0x344, mcycle = 0xB00, minstret = 0xB02,
                               mcycleh = 0xB80, minstreth = 0xB82, cycle = 0xC00, instret = 0xC02,
                               cycleh = 0xC80, instreth = 0xC82, mvendorid = 0xF11,
                               marchid = 0xF12, mimpid = 0xF13, mhartid = 0xF14;
}  // namespace csr

namespace cause {
inline constexpr std::uint32_t insn_misaligned = 0, insn_access = 1, illegal = 2, breakpoint = 3,
                               load_misaligned = 4, load_access = 5, store_misaligned = 6,
                               store_access = 7, ecall_m = 11;
inline constexpr std::uint32_t irq_external_m = 0x8000000Bu;
}  // namespace cause

// What one step did: the retirement record, plus the memory access it made (if any).
struct Step {
  std::uint32_t pc = 0;
  std::uint32_t insn = 0;
  bool trap = false;            // the instruction trapped (or an interrupt was taken)
  bool interrupt = false;
  std::uint32_t cause = 0, tval = 0;
  unsigned rd = 0;              // 0: no register written
  std::uint32_t rd_value = 0;
  bool mem = false;             // a data access was made (also when it faulted)
  bool mem_store = false;
  std::uint32_t mem_addr = 0;   // byte address
  unsigned mem_size = 0;        // 1, 2, 4
  std::uint32_t mem_wdata = 0;  // store value (low mem_size bytes)
  bool csr_read = false;        // a CSR instruction read csr_addr
  std::uint32_t csr_addr = 0;
};

class Iss {
 public:
  explicit Iss(IssMemory& mem, std::uint32_t boot_addr = 0, std::uint32_t hart_id = 0)
      : mem_(mem), hart_id_(hart_id) {
    reset(boot_addr);
  }

  void reset(std::uint32_t boot_addr) {
    for (auto& r : x) r = 0;
    pc = boot_addr;
    mie_ = mpie_ = meie_ = false;
    mtvec_ = boot_addr & ~3u;
    mscratch_ = mepc_ = mcause_ = mtval_ = 0;
    mcycle_ = minstret_ = 0;
  }

  // The external interrupt line as the hart sees it (mip.MEIP).
  void set_meip(bool v) { meip_ = v; }
  // An interrupt would be taken before the next instruction (mstatus.MIE, mie.MEIE, mip.MEIP).
  bool interrupt_enabled() const { return mie_ && meie_; }

  // Take the machine external interrupt now, before the instruction at pc.
  Step take_interrupt() {
    Step s;
    s.pc = pc;
    std::uint32_t insn = 0;
    mem_.fetch(pc, insn);
    s.insn = insn;
    s.trap = true;
    s.interrupt = true;
    s.cause = cause::irq_external_m;
    enter_trap(pc, cause::irq_external_m, 0);
    ++mcycle_;
    return s;
  }

  // Execute the instruction at pc (or take its exception).
  Step step() {
    Step s;
    s.pc = pc;
    ++mcycle_;
    std::uint32_t insn = 0;
    if (!mem_.fetch(pc, insn)) {
      s.insn = insn;
      return trap(s, cause::insn_access, pc);
    }
    s.insn = insn;
    exec(s, insn);
    if (!s.trap && !no_count_) ++minstret_;
    no_count_ = false;
    return s;
  }

  std::uint32_t x[32] = {};
  std::uint32_t pc = 0;

  // CSR state, for checks.
  std::uint32_t mepc() const { return mepc_; }
  std::uint32_t mcause() const { return mcause_; }
  std::uint32_t mtval() const { return mtval_; }
  std::uint32_t mtvec() const { return mtvec_; }
  bool mstatus_mie() const { return mie_; }
  std::uint64_t minstret() const { return minstret_; }

 private:
  static std::uint32_t bits(std::uint32_t v, unsigned hi, unsigned lo) {
    return (v >> lo) & ((hi - lo == 31) ? 0xFFFFFFFFu : ((1u << (hi - lo + 1)) - 1));
  }
  static std::int32_t sext(std::uint32_t v, unsigned width) {
    const std::uint32_t m = 1u << (width - 1);
    return static_cast<std::int32_t>((v ^ m) - m);
  }

  void enter_trap(std::uint32_t epc, std::uint32_t cause, std::uint32_t tval) {
    mepc_ = epc;
    mcause_ = cause;
    mtval_ = tval;
    mpie_ = mie_;
    mie_ = false;
    pc = mtvec_;
  }
  Step& trap(Step& s, std::uint32_t cause, std::uint32_t tval) {
    s.trap = true;
    s.cause = cause;
    s.tval = tval;
    s.rd = 0;
    s.rd_value = 0;
    enter_trap(s.pc, cause, tval);
    return s;
  }
  void write_rd(Step& s, unsigned rd, std::uint32_t v) {
    if (rd == 0) return;
    x[rd] = v;
    s.rd = rd;
    s.rd_value = v;
  }

  // CSR read; false if the CSR does not exist.
  bool csr_read(std::uint32_t a, std::uint32_t& v) const {
    switch (a) {
      case csr::mstatus: v = (3u << 11) | (mpie_ ? 1u << 7 : 0) | (mie_ ? 1u << 3 : 0); return true;
      case csr::mstatush: v = 0; return true;
      case csr::misa: v = 0x40001100u; return true;  // MXL=1, I, M
      case csr::mie: v = meie_ ? 1u << 11 : 0; return true;
      case csr::mip: v = meip_ ? 1u << 11 : 0; return true;
      case csr::mtvec: v = mtvec_; return true;
      case csr::mscratch: v = mscratch_; return true;
      case csr::mepc: v = mepc_; return true;
      case csr::mcause: v = mcause_; return true;
      case csr::mtval: v = mtval_; return true;
      case csr::mcycle: case csr::cycle: v = static_cast<std::uint32_t>(mcycle_); return true;
      case csr::mcycleh: case csr::cycleh: v = static_cast<std::uint32_t>(mcycle_ >> 32); return true;
      case csr::minstret: case csr::instret: v = static_cast<std::uint32_t>(minstret_); return true;
      case csr::minstreth: case csr::instreth: v = static_cast<std::uint32_t>(minstret_ >> 32); return true;
      case csr::mvendorid: case csr::marchid: case csr::mimpid: v = 0; return true;
      case csr::mhartid: v = hart_id_; return true;
      default: return false;
    }
  }
  void csr_write(std::uint32_t a, std::uint32_t v) {
    switch (a) {
      case csr::mstatus: mie_ = (v >> 3) & 1; mpie_ = (v >> 7) & 1; break;
      case csr::mie: meie_ = (v >> 11) & 1; break;
      case csr::mtvec: mtvec_ = v & ~3u; break;
      case csr::mscratch: mscratch_ = v; break;
      case csr::mepc: mepc_ = v & ~3u; break;
      case csr::mcause: mcause_ = v & 0x8000001Fu; break;
      case csr::mtval: mtval_ = v; break;
      case csr::mcycle: mcycle_ = (mcycle_ & 0xFFFFFFFF00000000ull) | v; break;
      case csr::mcycleh: mcycle_ = (mcycle_ & 0xFFFFFFFFull) | (std::uint64_t{v} << 32); break;
      case csr::minstret:
        minstret_ = (minstret_ & 0xFFFFFFFF00000000ull) | v;
        no_count_ = true;
        break;
      case csr::minstreth:
        minstret_ = (minstret_ & 0xFFFFFFFFull) | (std::uint64_t{v} << 32);
        no_count_ = true;
        break;
      default: break;  // misa, mstatush, mip: WARL, writes ignored
    }
  }

  void exec(Step& s, std::uint32_t insn) {
    const std::uint32_t opcode = bits(insn, 6, 0), rd = bits(insn, 11, 7), f3 = bits(insn, 14, 12),
                        rs1 = bits(insn, 19, 15), rs2 = bits(insn, 24, 20), f7 = bits(insn, 31, 25);
    const std::uint32_t a = x[rs1], b = x[rs2];
    const std::uint32_t imm_i = static_cast<std::uint32_t>(sext(bits(insn, 31, 20), 12));
    const std::uint32_t imm_s = static_cast<std::uint32_t>(sext((bits(insn, 31, 25) << 5) | bits(insn, 11, 7), 12));
    const std::uint32_t imm_b = static_cast<std::uint32_t>(sext(
        (bits(insn, 31, 31) << 12) | (bits(insn, 7, 7) << 11) | (bits(insn, 30, 25) << 5) | (bits(insn, 11, 8) << 1), 13));
    const std::uint32_t imm_u = insn & 0xFFFFF000u;
    const std::uint32_t imm_j = static_cast<std::uint32_t>(sext(
        (bits(insn, 31, 31) << 20) | (bits(insn, 19, 12) << 12) | (bits(insn, 20, 20) << 11) | (bits(insn, 30, 21) << 1), 21));
    const std::uint32_t next = pc + 4;
    auto illegal = [&] { trap(s, cause::illegal, insn); };
    auto jump = [&](std::uint32_t target, unsigned link_rd) {
      // IALIGN=32: a target not on a 4-byte boundary raises instruction-address-misaligned
      // on the jump or taken branch itself.
      if (target & 3u) {
        trap(s, cause::insn_misaligned, target);
        return;
      }
      write_rd(s, link_rd, next);
      pc = target;
    };

    if ((insn & 3u) != 3u) return illegal();
    switch (opcode) {
      case 0x37: write_rd(s, rd, imm_u); pc = next; return;              // LUI
      case 0x17: write_rd(s, rd, pc + imm_u); pc = next; return;         // AUIPC
      case 0x6F: jump(pc + imm_j, rd); return;                           // JAL
      case 0x67:                                                         // JALR
        if (f3 != 0) return illegal();
        jump((a + imm_i) & ~1u, rd);
        return;
      case 0x63: {                                                       // branches
        bool take = false;
        switch (f3) {
          case 0: take = a == b; break;
          case 1: take = a != b; break;
          case 4: take = static_cast<std::int32_t>(a) < static_cast<std::int32_t>(b); break;
          case 5: take = static_cast<std::int32_t>(a) >= static_cast<std::int32_t>(b); break;
          case 6: take = a < b; break;
          case 7: take = a >= b; break;
          default: return illegal();
        }
        if (take) jump(pc + imm_b, 0);
        else pc = next;
        return;
      }
      case 0x03: {                                                       // loads
        unsigned size = 0;
        switch (f3) {
          case 0: case 4: size = 1; break;
          case 1: case 5: size = 2; break;
          case 2: size = 4; break;
          default: return illegal();
        }
        const std::uint32_t addr = a + imm_i;
        if (addr & (size - 1)) return static_cast<void>(trap(s, cause::load_misaligned, addr));
        s.mem = true;
        s.mem_addr = addr;
        s.mem_size = size;
        std::uint32_t v = 0;
        if (!mem_.load(addr, size, v)) return static_cast<void>(trap(s, cause::load_access, addr));
        if (f3 == 0) v = static_cast<std::uint32_t>(sext(v & 0xFF, 8));
        if (f3 == 1) v = static_cast<std::uint32_t>(sext(v & 0xFFFF, 16));
        if (f3 == 4) v &= 0xFF;
        if (f3 == 5) v &= 0xFFFF;
        write_rd(s, rd, v);
        pc = next;
        return;
      }
      case 0x23: {                                                       // stores
        if (f3 > 2) return illegal();
        const unsigned size = 1u << f3;
        const std::uint32_t addr = a + imm_s;
        if (addr & (size - 1)) return static_cast<void>(trap(s, cause::store_misaligned, addr));
        s.mem = true;
        s.mem_store = true;
        s.mem_addr = addr;
        s.mem_size = size;
        s.mem_wdata = size == 4 ? b : (b & ((1u << (8 * size)) - 1));
        if (!mem_.store(addr, size, s.mem_wdata)) return static_cast<void>(trap(s, cause::store_access, addr));
        pc = next;
        return;
      }
      case 0x13: {                                                       // OP-IMM
        const unsigned shamt = rs2;
        std::uint32_t v = 0;
        switch (f3) {
          case 0: v = a + imm_i; break;
          case 2: v = static_cast<std::int32_t>(a) < static_cast<std::int32_t>(imm_i); break;
          case 3: v = a < imm_i; break;
          case 4: v = a ^ imm_i; break;
          case 6: v = a | imm_i; break;
          case 7: v = a & imm_i; break;
          case 1:
            if (f7 != 0) return illegal();
            v = a << shamt;
            break;
          case 5:
            if (f7 == 0) v = a >> shamt;
            else if (f7 == 0x20) v = static_cast<std::uint32_t>(static_cast<std::int32_t>(a) >> shamt);
            else return illegal();
            break;
        }
        write_rd(s, rd, v);
        pc = next;
        return;
      }
      case 0x33: {                                                       // OP, M
        std::uint32_t v = 0;
        const auto sa = static_cast<std::int64_t>(static_cast<std::int32_t>(a));
        const auto sb = static_cast<std::int64_t>(static_cast<std::int32_t>(b));
        if (f7 == 1) {
          switch (f3) {
            case 0: v = a * b; break;
            case 1: v = static_cast<std::uint32_t>(static_cast<std::uint64_t>(sa * sb) >> 32); break;
            case 2: v = static_cast<std::uint32_t>(static_cast<std::uint64_t>(sa * static_cast<std::int64_t>(b)) >> 32); break;
            case 3: v = static_cast<std::uint32_t>((std::uint64_t{a} * b) >> 32); break;
            case 4:  // DIV: x/0 = -1; -2^31/-1 = -2^31 (chapter 7.2 table)
              v = b == 0 ? 0xFFFFFFFFu
                  : (a == 0x80000000u && b == 0xFFFFFFFFu) ? a
                  : static_cast<std::uint32_t>(static_cast<std::int32_t>(a) / static_cast<std::int32_t>(b));
              break;
            case 5: v = b == 0 ? 0xFFFFFFFFu : a / b; break;
            case 6:  // REM: x%0 = x; -2^31 % -1 = 0
              v = b == 0 ? a
                  : (a == 0x80000000u && b == 0xFFFFFFFFu) ? 0
                  : static_cast<std::uint32_t>(static_cast<std::int32_t>(a) % static_cast<std::int32_t>(b));
              break;
            case 7: v = b == 0 ? a : a % b; break;
          }
        } else if (f7 == 0 || (f7 == 0x20 && (f3 == 0 || f3 == 5))) {
          const unsigned sh = b & 31;
          switch (f3) {
            case 0: v = f7 ? a - b : a + b; break;
            case 1: v = a << sh; break;
            case 2: v = static_cast<std::int32_t>(a) < static_cast<std::int32_t>(b); break;
            case 3: v = a < b; break;
            case 4: v = a ^ b; break;
            case 5: v = f7 ? static_cast<std::uint32_t>(static_cast<std::int32_t>(a) >> sh) : a >> sh; break;
            case 6: v = a | b; break;
            case 7: v = a & b; break;
          }
        } else {
          return illegal();
        }
        write_rd(s, rd, v);
        pc = next;
        return;
      }
      case 0x0F:                                                         // FENCE, FENCE.I
        if (f3 > 1) return illegal();
        pc = next;
        return;
      case 0x73: {                                                       // SYSTEM
        if (f3 == 0) {
          switch (insn) {
            case 0x00000073u: trap(s, cause::ecall_m, 0); return;
            case 0x00100073u: trap(s, cause::breakpoint, pc); return;
            case 0x30200073u:  // MRET
              mie_ = mpie_;
              mpie_ = true;
              pc = mepc_;
              return;
            case 0x10500073u: pc = next; return;  // WFI
            default: return illegal();
          }
        }
        if (f3 == 4) return illegal();
        const std::uint32_t addr = bits(insn, 31, 20);
        const std::uint32_t src = (f3 & 4) ? rs1 : a;
        const bool writes = (f3 & 3) == 1 || rs1 != 0;
        std::uint32_t old = 0;
        if (!csr_read(addr, old)) return illegal();
        if (writes && (addr >> 10) == 3) return illegal();  // read-only CSR
        s.csr_read = true;
        s.csr_addr = addr;
        if (writes) {
          std::uint32_t nv = src;
          if ((f3 & 3) == 2) nv = old | src;
          if ((f3 & 3) == 3) nv = old & ~src;
          csr_write(addr, nv);
        }
        write_rd(s, rd, old);
        pc = next;
        return;
      }
      default: return illegal();
    }
  }

  IssMemory& mem_;
  std::uint32_t hart_id_;
  bool mie_ = false, mpie_ = false, meie_ = false, meip_ = false;
  std::uint32_t mtvec_ = 0, mscratch_ = 0, mepc_ = 0, mcause_ = 0, mtval_ = 0;
  std::uint64_t mcycle_ = 0, minstret_ = 0;
  bool no_count_ = false;
};

}  // namespace rv32
