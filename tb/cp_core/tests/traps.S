// traps.S -- synchronous exceptions and MRET: ECALL, EBREAK, illegal instructions (reserved
// opcodes and funct fields, compressed encodings, unknown CSRs, writes to read-only CSRs,
// unsupported SYSTEM instructions), misaligned loads and stores (every misaligned offset),
// misaligned jump and branch targets (taken only), load/store access faults (unmapped
// addresses, store to ROM, past the end of the slow window), instruction access faults; the
// values of mcause, mepc and mtval; mstatus MIE/MPIE on entry and on MRET; precise traps
// (no side effect of the trapping instruction, the next one runs exactly once).
#include "cp_test.h"

// The handler records mcause, mepc, mtval and mstatus in s2..s5, counts traps in s6, and
// returns to s7 if it is non-zero, otherwise to mepc + 4.
#define R_CAUSE  x18
#define R_EPC    x19
#define R_TVAL   x20
#define R_STATUS x21
#define R_COUNT  x22
#define R_RET    x23

// Run `code` (which must trap at label 8:), then check cause, mepc = 8b, mtval, one trap.
// TEST_TRAP takes mtval as a number, TEST_TRAP_A as an address expression (symbol + offset).
#define TV_NUM(v) li x7, MASK32(v)
#define TV_ADDR(v) la x7, v
#define TEST_TRAP_CHECK(testnum, cause, tv_kind, tval, code...)              \
test_##testnum:                                                              \
  li TESTNUM, testnum;                                                       \
  li R_COUNT, 0;                                                             \
  li R_CAUSE, -1;                                                            \
  code;                                                                      \
  li x7, 1;                                                                  \
  bne R_COUNT, x7, fail;                                                     \
  li x7, cause;                                                              \
  bne R_CAUSE, x7, fail;                                                     \
  la x7, 8b;                                                                 \
  bne R_EPC, x7, fail;                                                       \
  tv_kind(tval);                                                             \
  bne R_TVAL, x7, fail;
#define TEST_TRAP(testnum, cause, tval, code...)                             \
  TEST_TRAP_CHECK(testnum, cause, TV_NUM, tval, code)
#define TEST_TRAP_A(testnum, cause, tval, code...)                           \
  TEST_TRAP_CHECK(testnum, cause, TV_ADDR, tval, code)

#define ILLEGAL_WORD(testnum, insn)                                          \
  TEST_TRAP(testnum, 2, insn, 8: .word insn)

RVTEST_CODE_BEGIN
  SET_TRAP_HANDLER(trap_handler)
  li R_RET, 0

  // ECALL / EBREAK
  TEST_TRAP( 2, 11, 0, 8: ecall)
  TEST_TRAP_A( 3, 3, 8b, 8: ebreak)

  // Illegal instructions
  ILLEGAL_WORD( 4, 0x00000000)          // all zeros
  ILLEGAL_WORD( 5, 0xffffffff)          // all ones
  ILLEGAL_WORD( 6, 0x00000001)          // compressed (c.nop): no C extension
  ILLEGAL_WORD( 7, 0x00004502)          // compressed quadrant 2
  ILLEGAL_WORD( 8, 0x0000300b)          // custom-0 opcode
  ILLEGAL_WORD( 9, 0x00003003)          // LD (funct3 3) is RV64
  ILLEGAL_WORD(10, 0x00006003)          // LWU (funct3 6) is RV64
  ILLEGAL_WORD(11, 0x00003023)          // SD (funct3 3) is RV64
  ILLEGAL_WORD(12, 0x00002063)          // branch funct3 2
  ILLEGAL_WORD(13, 0x00003063)          // branch funct3 3
  ILLEGAL_WORD(14, 0x00001067)          // JALR funct3 1
  ILLEGAL_WORD(15, 0x04001013)          // SLLI with funct7 0x02
  ILLEGAL_WORD(16, 0x20005013)          // SRLI with funct7 0x10
  ILLEGAL_WORD(17, 0x40001033)          // SLL with funct7 0x20
  ILLEGAL_WORD(18, 0x02000033 | (0x2 << 25))   // OP funct7 0x03
  ILLEGAL_WORD(19, 0x0000200f)          // MISC-MEM funct3 2
  ILLEGAL_WORD(20, 0x00004073)          // SYSTEM funct3 4
  ILLEGAL_WORD(21, 0x10200073)          // SRET: no S mode
  ILLEGAL_WORD(22, 0x00200073)          // URET
  ILLEGAL_WORD(23, 0x7b200073)          // DRET: no debug mode
  ILLEGAL_WORD(24, 0x12000073)          // SFENCE.VMA
  ILLEGAL_WORD(25, 0x00100173)          // EBREAK with rd != 0
  ILLEGAL_WORD(26, 0x7c0020f3)          // csrr ra, 0x7c0 (no such CSR)
  ILLEGAL_WORD(27, 0xf1409073)          // csrw mhartid, ra (read-only)
  ILLEGAL_WORD(28, 0xc0001073)          // csrw cycle, x0 (read-only, CSRRW always writes)
  ILLEGAL_WORD(29, 0xc0016073)          // csrrsi x0, cycle, 2 (read-only, writes)
  ILLEGAL_WORD(30, 0x3a0020f3)          // csrr ra, pmpcfg0 (not implemented)
  ILLEGAL_WORD(31, 0x100020f3)          // csrr ra, sstatus (no S mode)
  ILLEGAL_WORD(32, 0x000000b3 | (0x7f << 25))  // OP funct7 0x7f

  // An illegal instruction must not write its rd: csrr x14, <unknown> leaves x14 alone
test_33:
  li TESTNUM, 33
  li x14, 0x55
  .word 0x7c002773                      // csrr x14, 0x7c0
  li x7, 0x55
  bne x14, x7, fail

  // Misaligned loads (mtval = the effective address) and no register write
  la x11, tdata
  TEST_TRAP_A(40, 4, tdata + 1, 8: lw x14, 1(x11))
  TEST_TRAP_A(41, 4, tdata + 2, 8: lw x14, 2(x11))
  TEST_TRAP_A(42, 4, tdata + 3, 8: lw x14, 3(x11))
  TEST_TRAP_A(43, 4, tdata + 1, 8: lh x14, 1(x11))
  TEST_TRAP_A(44, 4, tdata + 3, 8: lhu x14, 3(x11))
  TEST_CASE(45, x14, 0x44332211, lw x14, 0(x11); lh x14, 5(x11); lhu x14, 7(x11))
  // (x14 keeps the lw result: both halfword loads trapped)
  // Misaligned stores leave memory alone
  TEST_TRAP_A(46, 6, tdata + 2, li x12, -1; 8: sw x12, 2(x11))
  TEST_TRAP_A(47, 6, tdata + 1, li x12, -1; 8: sh x12, 1(x11))
  TEST_TRAP_A(48, 6, tdata + 7, li x12, -1; 8: sh x12, 7(x11))
  TEST_CASE(49, x14, 0x44332211, lw x14, 0(x11))
  TEST_CASE(50, x14, 0x88776655, lw x14, 4(x11))

  // Misaligned jump targets: JALR to +2, JAL and a taken branch to +2 (encoded by hand);
  // the link register is not written; a not-taken branch to a misaligned target is fine
  TEST_TRAP_A(51, 0, 9b + 2, li x14, 0x77; la x12, 9f; 8: jalr x14, 2(x12); j 7f; 9: nop; nop; 7:)
  TEST_CASE(52, x14, 0x77, nop)
  TEST_TRAP_A(53, 0, 8b + 6, 8: .word 0x0060006f; nop; nop; nop)           // jal x0, .+6
  TEST_TRAP_A(54, 0, 8b + 10, 8: .word 0x00000563; nop; nop; nop; nop)     // beq x0, x0, .+10
  TEST_CASE(55, x14, 0x1, li x1, 0; li x14, 1; .word 0x00101563; nop; nop)  // bne x0, ra, .+10 (not taken)

  // Access faults: unmapped load / store, store to ROM, past the slow window, and the
  // register and memory stay unchanged; the following instruction runs exactly once
  li x11, 0x00050000
  TEST_TRAP(60, 5, 0x00050008, li x14, 3; 8: lw x14, 8(x11); addi x14, x14, 1)
  TEST_CASE(61, x14, 4, nop)
  TEST_TRAP(62, 7, 0x0005000c, 8: sw x14, 12(x11); addi x14, x14, 1)
  TEST_CASE(63, x14, 5, nop)
  la x11, rodata_word
  TEST_TRAP_A(64, 7, rodata_word, li x12, 0; 8: sw x12, 0(x11))
  TEST_CASE(65, x14, 0xc0ffee00, lw x14, 0(x11))
  TEST_TRAP_A(66, 7, rodata_word + 2, li x12, 0; 8: sh x12, 2(x11))
  li x11, 0x80001000
  TEST_TRAP(67, 5, 0x80001000, 8: lb x14, 0(x11))
  li x11, 0x7ffffffc
  TEST_TRAP(68, 5, 0x7ffffffc, 8: lw x14, 0(x11))
  li x11, 0x00030000
  TEST_TRAP(69, 7, 0x00030001, li x12, 1; 8: sb x12, 1(x11))
  // A load fault right after a store: the store happened, the fault is precise
  la x13, tdata
  li x11, 0x00050000
  TEST_TRAP(70, 5, 0x00050000, li x12, 0x1234; sw x12, 8(x13); 8: lw x14, 0(x11); addi x12, x12, 1)
  TEST_CASE(71, x14, 0x1234, lw x14, 8(x13))
  TEST_CASE(72, x12, 0x1235, nop)

  // Instruction access fault: jump to an unmapped address and into DMEM (not executable in
  // this system); mepc = mtval = the target; the handler returns to R_RET
#define TEST_FETCH_FAULT(testnum, target)                                    \
test_##testnum:                                                              \
  li TESTNUM, testnum;                                                       \
  li R_COUNT, 0;                                                             \
  la R_RET, 1f;                                                              \
  li x12, target;                                                            \
  jalr x0, 0(x12);                                                           \
  j fail;                                                                    \
1:li R_RET, 0;                                                               \
  li x7, 1; bne R_COUNT, x7, fail;                                           \
  li x7, 1; bne R_CAUSE, x7, fail;                                           \
  li x7, target; bne R_EPC, x7, fail; bne R_TVAL, x7, fail;
  TEST_FETCH_FAULT(80, 0x00050000)
  TEST_FETCH_FAULT(81, 0x00010000)
  TEST_FETCH_FAULT(82, 0x00004000)      // just past the ROM

  // MRET and mstatus: trap entry moves MIE to MPIE and clears MIE; MRET restores MIE from
  // MPIE and sets MPIE (interrupts stay off: mie.MEIE = 0)
  csrw mie, x0
  TEST_CASE(90, R_STATUS, 0x00001880, li x12, 0x8; csrw mstatus, x12; ecall)
  TEST_CASE(91, x14, 0x00001888, csrr x14, mstatus)
  TEST_CASE(92, R_STATUS, 0x00001880, ecall)
  TEST_CASE(93, R_STATUS, 0x00001800, csrw mstatus, x0; ecall)
  TEST_CASE(94, x14, 0x00001880, csrr x14, mstatus)
  // minstret does not count the trapping instruction, and counts the handler's: the ECALL
  // path of trap_handler retires 9 instructions (4 csrr, addi, beqz, addi, csrw, mret)
  TEST_CASE(97, x14, 10, li R_RET, 0; csrr x12, minstret; ecall; csrr x13, minstret; sub x14, x13, x12)
  // MRET jumps to mepc (set by software here)
test_95:
  li TESTNUM, 95
  la x12, 1f
  csrw mepc, x12
  mret
  j fail
1:
  // mtvec changed on the fly: the next trap goes to the new vector
test_96:
  li TESTNUM, 96
  SET_TRAP_HANDLER(other_handler)
  li x14, 0
  ecall
  li x7, 0x99
  bne x14, x7, fail
  SET_TRAP_HANDLER(trap_handler)

  j pass

  .align 2
trap_handler:
  csrr R_CAUSE, mcause
  csrr R_EPC, mepc
  csrr R_TVAL, mtval
  csrr R_STATUS, mstatus
  addi R_COUNT, R_COUNT, 1
  beqz R_RET, 1f
  csrw mepc, R_RET
  mret
1:addi x24, R_EPC, 4
  csrw mepc, x24
  mret

  .align 2
other_handler:
  li x14, 0x99
  csrr x24, mepc
  addi x24, x24, 4
  csrw mepc, x24
  mret

RVTEST_CODE_END

  .section .rodata
  .align 2
rodata_word: .word 0xc0ffee00

RVTEST_DATA_BEGIN
tdata: .word 0x44332211, 0x88776655, 0, 0
RVTEST_DATA_END
