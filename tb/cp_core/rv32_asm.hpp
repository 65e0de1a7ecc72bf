// rv32_asm.hpp -- RV32IM + Zicsr instruction encoders (the base formats of the Unprivileged
// ISA, section 2.2/2.3), for benches that generate programs in C++, and a small disassembler
// for traces and failure messages.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>

namespace rv32::enc {

inline std::uint32_t r_type(std::uint32_t f7, unsigned rs2, unsigned rs1, std::uint32_t f3, unsigned rd, std::uint32_t op) {
  return (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op;
}
inline std::uint32_t i_type(std::int32_t imm, unsigned rs1, std::uint32_t f3, unsigned rd, std::uint32_t op) {
  return ((static_cast<std::uint32_t>(imm) & 0xFFF) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op;
}
inline std::uint32_t s_type(std::int32_t imm, unsigned rs2, unsigned rs1, std::uint32_t f3, std::uint32_t op) {
  const auto u = static_cast<std::uint32_t>(imm);
  return (((u >> 5) & 0x7F) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | ((u & 0x1F) << 7) | op;
}
inline std::uint32_t b_type(std::int32_t off, unsigned rs2, unsigned rs1, std::uint32_t f3) {
  const auto u = static_cast<std::uint32_t>(off);
  return (((u >> 12) & 1) << 31) | (((u >> 5) & 0x3F) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) |
         (((u >> 1) & 0xF) << 8) | (((u >> 11) & 1) << 7) | 0x63;
}
inline std::uint32_t u_type(std::uint32_t imm20, unsigned rd, std::uint32_t op) { return (imm20 << 12) | (rd << 7) | op; }
inline std::uint32_t j_type(std::int32_t off, unsigned rd) {
  const auto u = static_cast<std::uint32_t>(off);
  return (((u >> 20) & 1) << 31) | (((u >> 1) & 0x3FF) << 21) | (((u >> 11) & 1) << 20) | (((u >> 12) & 0xFF) << 12) |
         (rd << 7) | 0x6F;
}

// R-type ALU (f3 = ADD..AND order of the spec's OP table), SUB/SRA with alt.
enum AluOp : std::uint32_t { ADD = 0, SLL = 1, SLT = 2, SLTU = 3, XOR = 4, SRL = 5, OR = 6, AND = 7 };
inline std::uint32_t op(AluOp f3, unsigned rd, unsigned rs1, unsigned rs2, bool alt = false) {
  return r_type(alt ? 0x20 : 0, rs2, rs1, f3, rd, 0x33);
}
inline std::uint32_t opimm(AluOp f3, unsigned rd, unsigned rs1, std::int32_t imm, bool alt = false) {
  if (f3 == SLL || f3 == SRL) return r_type(alt ? 0x20 : 0, static_cast<unsigned>(imm) & 31, rs1, f3, rd, 0x13);
  return i_type(imm, rs1, f3, rd, 0x13);
}
// M: f3 = MUL, MULH, MULHSU, MULHU, DIV, DIVU, REM, REMU.
inline std::uint32_t mop(std::uint32_t f3, unsigned rd, unsigned rs1, unsigned rs2) { return r_type(1, rs2, rs1, f3, rd, 0x33); }
inline std::uint32_t add(unsigned rd, unsigned rs1, unsigned rs2) { return op(ADD, rd, rs1, rs2); }
inline std::uint32_t addi(unsigned rd, unsigned rs1, std::int32_t imm) { return opimm(ADD, rd, rs1, imm); }
inline std::uint32_t lui(unsigned rd, std::uint32_t imm20) { return u_type(imm20 & 0xFFFFF, rd, 0x37); }
inline std::uint32_t auipc(unsigned rd, std::uint32_t imm20) { return u_type(imm20 & 0xFFFFF, rd, 0x17); }
inline std::uint32_t jal(unsigned rd, std::int32_t off) { return j_type(off, rd); }
inline std::uint32_t jalr(unsigned rd, unsigned rs1, std::int32_t off) { return i_type(off, rs1, 0, rd, 0x67); }
// Branch f3: BEQ 0, BNE 1, BLT 4, BGE 5, BLTU 6, BGEU 7.
inline std::uint32_t branch(std::uint32_t f3, unsigned rs1, unsigned rs2, std::int32_t off) { return b_type(off, rs2, rs1, f3); }
// Load f3: LB 0, LH 1, LW 2, LBU 4, LHU 5. Store f3: SB 0, SH 1, SW 2.
inline std::uint32_t load(std::uint32_t f3, unsigned rd, unsigned rs1, std::int32_t off) { return i_type(off, rs1, f3, rd, 0x03); }
inline std::uint32_t store(std::uint32_t f3, unsigned rs2, unsigned rs1, std::int32_t off) { return s_type(off, rs2, rs1, f3, 0x23); }
inline std::uint32_t lw(unsigned rd, unsigned rs1, std::int32_t off) { return load(2, rd, rs1, off); }
inline std::uint32_t sw(unsigned rs2, unsigned rs1, std::int32_t off) { return store(2, rs2, rs1, off); }
// CSR f3: CSRRW 1, CSRRS 2, CSRRC 3, CSRRWI 5, CSRRSI 6, CSRRCI 7 (rs1 = uimm for the I forms).
inline std::uint32_t csr(std::uint32_t f3, unsigned rd, std::uint32_t addr, unsigned rs1) {
  return (addr << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | 0x73;
}
inline constexpr std::uint32_t kEcall = 0x00000073, kEbreak = 0x00100073, kMret = 0x30200073, kWfi = 0x10500073,
                               kFence = 0x0FF0000F, kFenceI = 0x0000100F, kNop = 0x00000013;

// `li rd, value` as LUI + ADDI (two words; the ADDI's sign is compensated in the LUI).
inline std::pair<std::uint32_t, std::uint32_t> li(unsigned rd, std::uint32_t value) {
  const std::int32_t lo = static_cast<std::int32_t>(value << 20) >> 20;
  const std::uint32_t hi = (value - static_cast<std::uint32_t>(lo)) >> 12;
  return {lui(rd, hi), addi(rd, rd, lo)};
}

}  // namespace rv32::enc

namespace rv32 {

inline const char* reg_name(unsigned r) {
  static const char* const names[32] = {"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",
                                        "a1",   "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5",
                                        "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
  return names[r & 31];
}

inline std::string csr_name(std::uint32_t a) {
  switch (a) {
    case 0x300: return "mstatus";   case 0x301: return "misa";      case 0x304: return "mie";
    case 0x305: return "mtvec";     case 0x310: return "mstatush";  case 0x340: return "mscratch";
    case 0x341: return "mepc";      case 0x342: return "mcause";    case 0x343: return "mtval";
    case 0x344: return "mip";       case 0xB00: return "mcycle";    case 0xB02: return "minstret";
    case 0xB80: return "mcycleh";   case 0xB82: return "minstreth"; case 0xC00: return "cycle";
    case 0xC02: return "instret";   case 0xC80: return "cycleh";    case 0xC82: return "instreth";
    case 0xF11: return "mvendorid"; case 0xF12: return "marchid";   case 0xF13: return "mimpid";
    case 0xF14: return "mhartid";
    default: return fmt::format("{:#05x}", a);
  }
}

// One line of disassembly (objdump-like, without pseudo-instructions except for the few
// that make traces readable). Unknown encodings print as ".word".
inline std::string disasm(std::uint32_t insn, std::uint32_t pc) {
  const unsigned rd = (insn >> 7) & 31, rs1 = (insn >> 15) & 31, rs2 = (insn >> 20) & 31;
  const unsigned f3 = (insn >> 12) & 7, f7 = insn >> 25;
  const auto imm_i = static_cast<std::int32_t>(insn) >> 20;
  const std::int32_t imm_s = (static_cast<std::int32_t>(insn & 0xFE000000u) >> 20) | static_cast<std::int32_t>((insn >> 7) & 31);
  const std::int32_t imm_b = (static_cast<std::int32_t>(insn & 0x80000000u) >> 19) | static_cast<std::int32_t>(((insn >> 7) & 1) << 11) |
                             static_cast<std::int32_t>(((insn >> 25) & 0x3F) << 5) | static_cast<std::int32_t>(((insn >> 8) & 0xF) << 1);
  const std::int32_t imm_j = (static_cast<std::int32_t>(insn & 0x80000000u) >> 11) | static_cast<std::int32_t>(insn & 0xFF000u) |
                             static_cast<std::int32_t>(((insn >> 20) & 1) << 11) | static_cast<std::int32_t>(((insn >> 21) & 0x3FF) << 1);
  const auto R = reg_name;
  const std::string word = fmt::format(".word   {:#010x}", insn);
  switch (insn & 0x7F) {
    case 0x37: return fmt::format("lui     {}, {:#x}", R(rd), insn >> 12);
    case 0x17: return fmt::format("auipc   {}, {:#x}", R(rd), insn >> 12);
    case 0x6F: return fmt::format("jal     {}, {:x}", R(rd), pc + static_cast<std::uint32_t>(imm_j));
    case 0x67: return f3 ? word : fmt::format("jalr    {}, {}({})", R(rd), imm_i, R(rs1));
    case 0x63: {
      static const char* const n[8] = {"beq", "bne", nullptr, nullptr, "blt", "bge", "bltu", "bgeu"};
      if (!n[f3]) return word;
      return fmt::format("{:<7} {}, {}, {:x}", n[f3], R(rs1), R(rs2), pc + static_cast<std::uint32_t>(imm_b));
    }
    case 0x03: {
      static const char* const n[8] = {"lb", "lh", "lw", nullptr, "lbu", "lhu", nullptr, nullptr};
      if (!n[f3]) return word;
      return fmt::format("{:<7} {}, {}({})", n[f3], R(rd), imm_i, R(rs1));
    }
    case 0x23: {
      static const char* const n[8] = {"sb", "sh", "sw", nullptr, nullptr, nullptr, nullptr, nullptr};
      if (!n[f3]) return word;
      return fmt::format("{:<7} {}, {}({})", n[f3], R(rs2), imm_s, R(rs1));
    }
    case 0x13: {
      if (f3 == 1) return f7 ? word : fmt::format("slli    {}, {}, {}", R(rd), R(rs1), rs2);
      if (f3 == 5) {
        if (f7 == 0) return fmt::format("srli    {}, {}, {}", R(rd), R(rs1), rs2);
        if (f7 == 0x20) return fmt::format("srai    {}, {}, {}", R(rd), R(rs1), rs2);
        return word;
      }
      if (insn == 0x13) return "nop";
      static const char* const n[8] = {"addi", nullptr, "slti", "sltiu", "xori", nullptr, "ori", "andi"};
      return fmt::format("{:<7} {}, {}, {}", n[f3], R(rd), R(rs1), imm_i);
    }
    case 0x33: {
      static const char* const base[8] = {"add", "sll", "slt", "sltu", "xor", "srl", "or", "and"};
      static const char* const m[8] = {"mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"};
      const char* n = nullptr;
      if (f7 == 0) n = base[f3];
      if (f7 == 1) n = m[f3];
      if (f7 == 0x20 && f3 == 0) n = "sub";
      if (f7 == 0x20 && f3 == 5) n = "sra";
      if (!n) return word;
      return fmt::format("{:<7} {}, {}, {}", n, R(rd), R(rs1), R(rs2));
    }
    case 0x0F:
      if (f3 == 0) return "fence";
      if (f3 == 1) return "fence.i";
      return word;
    case 0x73: {
      if (insn == 0x00000073) return "ecall";
      if (insn == 0x00100073) return "ebreak";
      if (insn == 0x30200073) return "mret";
      if (insn == 0x10500073) return "wfi";
      static const char* const n[8] = {nullptr, "csrrw", "csrrs", "csrrc", nullptr, "csrrwi", "csrrsi", "csrrci"};
      if (!n[f3]) return word;
      const std::string c = csr_name(insn >> 20);
      if (f3 & 4) return fmt::format("{:<7} {}, {}, {}", n[f3], R(rd), c, rs1);
      return fmt::format("{:<7} {}, {}, {}", n[f3], R(rd), c, R(rs1));
    }
    default: return word;
  }
}

}  // namespace rv32
