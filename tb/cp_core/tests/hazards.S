// hazards.S -- pipeline hazards: a result consumed 0, 1, 2 and 3 instructions after it is
// produced (WB->EX forwarding and register-file read), by rs1, rs2 or both; load-use at the
// same distances (the 1-cycle load-use stall); a branch and a JALR right after a load; store
// data and store address produced by a load; load after store to the same address; two
// writes to one register in a row (the newer must win in forwarding); x0 never forwarded.
#include "cp_test.h"

RVTEST_CODE_BEGIN

  // ALU -> ALU, consumer as rs1 / rs2, distances 0..3
  TEST_RR_DEP_SRC1( 2, 0, add, 24, 13, 11)
  TEST_RR_DEP_SRC1( 3, 1, sub, 2, 13, 11)
  TEST_RR_DEP_SRC1( 4, 2, xor, 6, 13, 11)
  TEST_RR_DEP_SRC1( 5, 3, sll, 26624, 13, 11)
  TEST_RR_DEP_SRC2( 6, 0, add, 24, 13, 11)
  TEST_RR_DEP_SRC2( 7, 1, or, 15, 13, 11)
  TEST_RR_DEP_SRC2( 8, 2, and, 9, 13, 11)
  TEST_RR_DEP_SRC2( 9, 3, srl, 0, 13, 11)
  TEST_RR_SRC12_BYPASS(10, 0, 0, add, 24, 13, 11)
  TEST_RR_SRC12_BYPASS(11, 0, 1, sub, 2, 13, 11)
  TEST_RR_SRC12_BYPASS(12, 0, 2, slt, 0, 13, 11)
  TEST_RR_SRC12_BYPASS(13, 1, 0, sltu, 0, 13, 11)
  TEST_RR_SRC12_BYPASS(14, 1, 1, sra, 0, 13, 11)
  TEST_RR_SRC12_BYPASS(15, 2, 0, add, 24, 13, 11)

  // Load -> use at distances 0..3, by rs1 and by rs2
#define TEST_LD_DEP(testnum, nops, result, use...)                            \
  TEST_CASE(testnum, x15, result,                                            \
    la x11, hdata; li x12, 5;                                                \
    lw x14, 4(x11);                                                          \
    .rept nops; nop; .endr;                                                  \
    use)
  TEST_LD_DEP(20, 0, 0x105, add x15, x14, x12)
  TEST_LD_DEP(21, 1, 0x105, add x15, x14, x12)
  TEST_LD_DEP(22, 2, 0x105, add x15, x14, x12)
  TEST_LD_DEP(23, 3, 0x105, add x15, x14, x12)
  TEST_LD_DEP(24, 0, 0xffffff05, sub x15, x12, x14)
  TEST_LD_DEP(25, 1, 0xffffff05, sub x15, x12, x14)
  TEST_LD_DEP(26, 0, 0x200, add x15, x14, x14)
  // A load whose base is the previous load's result (pointer chase)
  TEST_CASE(27, x14, 0x100,
    la x11, hptr; lw x12, 0(x11); lw x14, 0(x12))
  // Load into a register, then immediately overwrite it with an ALU result, then use it
  TEST_CASE(28, x15, 7,
    la x11, hdata; lw x14, 4(x11); li x14, 7; addi x15, x14, 0)
  // Two ALU writes to one register back to back: the younger must be forwarded
  TEST_CASE(29, x15, 30,
    li x14, 10; li x14, 20; addi x14, x14, 10; add x15, x14, x0)
  // An ALU write after a load to the same register, used at distance 0 and 1
  TEST_CASE(30, x15, 12,
    la x11, hdata; lw x14, 4(x11); addi x14, x0, 6; add x15, x14, x14)

  // Branch right after a load that feeds it (taken and not taken)
test_31:
  li TESTNUM, 31
  la x11, hdata
  lw x12, 4(x11)
  li x13, 0x100
  lw x14, 4(x11)
  beq x14, x13, 1f
  j fail
1:lw x14, 0(x11)
  bne x14, x0, fail
  lw x14, 8(x11)
  blt x14, x0, 2f
  j fail
2:

  // JALR whose target was just loaded
test_32:
  li TESTNUM, 32
  la x11, hjump
  lw x12, 0(x11)
  jalr x0, 0(x12)
  j fail
hjump_target:

  // Store whose data and whose address come from loads right before it
  TEST_CASE(33, x14, 0x100,
    la x11, hdata; lw x12, 4(x11); lw x13, 12(x11); sw x12, 0(x13); lw x14, 16(x11))
  // Load right after a store to the same address, and a store right after a load
  TEST_CASE(34, x14, 0x5a5a,
    la x11, hdata; li x12, 0x5a5a; sw x12, 20(x11); lw x14, 20(x11))
  TEST_CASE(35, x14, 0x5a5a,
    la x11, hdata; lw x12, 20(x11); sw x12, 24(x11); lw x14, 24(x11))
  // x0 written by an instruction must not be forwarded as non-zero
  TEST_CASE(36, x15, 0,
    li x12, 55; add x0, x12, x12; add x15, x0, x0)
  TEST_CASE(37, x15, 0,
    la x11, hdata; lw x0, 4(x11); add x15, x0, x0)
  // CSR written then read back immediately; CSR read result used immediately
  TEST_CASE(38, x15, 0x1235,
    li x12, 0x1234; csrw mscratch, x12; csrr x14, mscratch; addi x15, x14, 1)
  // MUL / DIV result consumed right away and by a store
  TEST_CASE(39, x14, 77,
    la x11, hdata; li x12, 7; li x13, 11; mul x12, x12, x13; sw x12, 28(x11); lw x14, 28(x11))
  TEST_CASE(40, x15, 15,
    li x12, 100; li x13, 7; div x14, x12, x13; addi x15, x14, 1)
  // Link register used right after the jump (JAL then use at the target)
  TEST_CASE(41, x15, 0,
    jal x14, 1f; 1: la x12, 1b; sub x15, x14, x12)

  j pass

RVTEST_CODE_END

RVTEST_DATA_BEGIN
hdata: .word 0, 0x100, 0xffff0000, hdata + 16, 0xdead, 0, 0, 0
hptr:  .word hdata + 4
hjump: .word hjump_target
RVTEST_DATA_END
