// cp_test.h -- macros for cp_core's instruction-level tests (riscv-tests style).
//
// A test program:
//   #include "cp_test.h"
//   RVTEST_CODE_BEGIN
//     TEST_RR_OP(2, add, 3, 1, 2)        // test 2: add of 1 and 2 must give 3
//     ...
//     j pass
//   RVTEST_CODE_END
//   RVTEST_DATA_BEGIN ... RVTEST_DATA_END
//
// TESTNUM (gp) holds the number of the running test case; `fail` writes (TESTNUM << 1) | 1 to
// tohost, `pass` writes 1, and cp-run exits with the test number or 0. Test number 1 is the
// set-up before the first TEST_*. Any trap the test did not arrange for (mtvec still pointing
// at default_trap) fails the running test; tests that expect traps install their own mtvec.
// Registers: x7 (t2) holds expected values; TEST_* code must leave gp and t2 alone.
#ifndef CP_TEST_H
#define CP_TEST_H

#define TESTNUM gp
#define MMIO_CONSOLE 0x00020000
#define MMIO_IRQ     0x00020004
#define SLOW_BASE    0x80000000

#define RVTEST_CODE_BEGIN                                                    \
  .section .text.init, "ax", @progbits;                                      \
  .globl _start;                                                             \
_start:                                                                      \
  j reset_vector;                                                            \
  .align 2;                                                                  \
default_trap:                                                                \
  csrr t5, mcause;                                                           \
  csrr t6, mepc;                                                             \
  j fail;                                                                    \
reset_vector:                                                                \
  li x1, 0; li x2, 0; li x4, 0; li x5, 0; li x6, 0; li x7, 0; li x8, 0;      \
  li x9, 0; li x10, 0; li x11, 0; li x12, 0; li x13, 0; li x14, 0;           \
  li x15, 0; li x16, 0; li x17, 0; li x18, 0; li x19, 0; li x20, 0;          \
  li x21, 0; li x22, 0; li x23, 0; li x24, 0; li x25, 0; li x26, 0;          \
  li x27, 0; li x28, 0; li x29, 0; li x30, 0; li x31, 0;                     \
  la t0, default_trap;                                                       \
  csrw mtvec, t0;                                                            \
  la sp, _stack_top;                                                         \
  li TESTNUM, 1;

#define RVTEST_CODE_END                                                      \
pass:                                                                        \
  fence;                                                                     \
  li t0, 1;                                                                  \
  la t1, tohost;                                                             \
  sw t0, 0(t1);                                                              \
1:j 1b;                                                                      \
fail:                                                                        \
  fence;                                                                     \
  slli t0, TESTNUM, 1;                                                       \
  ori t0, t0, 1;                                                             \
  la t1, tohost;                                                             \
  sw t0, 0(t1);                                                              \
2:j 2b;

#define RVTEST_DATA_BEGIN                                                    \
  .section .tohost, "aw", @progbits;                                         \
  .align 3;                                                                  \
  .globl tohost;                                                             \
tohost: .word 0, 0;                                                          \
  .globl fromhost;                                                           \
fromhost: .word 0, 0;                                                        \
  .section .data;                                                            \
  .align 4;

#define RVTEST_DATA_END

// --- Generic check ------------------------------------------------------------------------
#define MASK32(x) ((x) & 0xffffffff)

#define TEST_CASE(testnum, testreg, correctval, code...)                     \
test_##testnum:                                                              \
  li TESTNUM, testnum;                                                       \
  code;                                                                      \
  li x7, MASK32(correctval);                                                 \
  bne testreg, x7, fail;

// --- ALU ------------------------------------------------------------------------------------
#define TEST_RR_OP(testnum, inst, result, val1, val2)                        \
  TEST_CASE(testnum, x14, result,                                            \
    li x11, MASK32(val1);                                                    \
    li x12, MASK32(val2);                                                    \
    inst x14, x11, x12)

#define TEST_IMM_OP(testnum, inst, result, val1, imm)                        \
  TEST_CASE(testnum, x14, result,                                            \
    li x11, MASK32(val1);                                                    \
    inst x14, x11, imm)

// rd == rs1, rd == rs2, rd == rs1 == rs2
#define TEST_RR_SRC1_EQ_DEST(testnum, inst, result, val1, val2)              \
  TEST_CASE(testnum, x11, result,                                            \
    li x11, MASK32(val1); li x12, MASK32(val2); inst x11, x11, x12)
#define TEST_RR_SRC2_EQ_DEST(testnum, inst, result, val1, val2)              \
  TEST_CASE(testnum, x12, result,                                            \
    li x11, MASK32(val1); li x12, MASK32(val2); inst x12, x11, x12)
#define TEST_RR_SRC12_EQ_DEST(testnum, inst, result, val1)                   \
  TEST_CASE(testnum, x11, result, li x11, MASK32(val1); inst x11, x11, x11)
#define TEST_IMM_SRC1_EQ_DEST(testnum, inst, result, val1, imm)              \
  TEST_CASE(testnum, x11, result, li x11, MASK32(val1); inst x11, x11, imm)

// Writes to x0 are discarded.
#define TEST_RR_ZERODEST(testnum, inst, val1, val2)                          \
  TEST_CASE(testnum, x0, 0, li x11, MASK32(val1); li x12, MASK32(val2); inst x0, x11, x12)
#define TEST_RR_ZEROSRC1(testnum, inst, result, val)                         \
  TEST_CASE(testnum, x14, result, li x12, MASK32(val); inst x14, x0, x12)
#define TEST_RR_ZEROSRC2(testnum, inst, result, val)                         \
  TEST_CASE(testnum, x14, result, li x11, MASK32(val); inst x14, x11, x0)

// --- Forwarding: the result consumed 0..3 instructions after it is produced -------------------
// (nop_cycles nops between producer and consumer; the consumer reads it as rs1 / rs2)
#define TEST_RR_DEP_SRC1(testnum, nop_cycles, inst, result, val1, val2)      \
  TEST_CASE(testnum, x15, result,                                            \
    li x11, MASK32(val1); li x12, MASK32(val2);                              \
    inst x14, x11, x12;                                                      \
    .rept nop_cycles; nop; .endr;                                            \
    addi x15, x14, 0)
#define TEST_RR_DEP_SRC2(testnum, nop_cycles, inst, result, val1, val2)      \
  TEST_CASE(testnum, x15, result,                                            \
    li x11, MASK32(val1); li x12, MASK32(val2);                              \
    inst x14, x11, x12;                                                      \
    .rept nop_cycles; nop; .endr;                                            \
    add x15, x0, x14)
// Operands produced 0..2 instructions before the consumer (bypass of both sources).
#define TEST_RR_SRC12_BYPASS(testnum, src1_nops, src2_nops, inst, result, val1, val2) \
  TEST_CASE(testnum, x14, result,                                            \
    li x11, MASK32(val1);                                                    \
    .rept src1_nops; nop; .endr;                                             \
    li x12, MASK32(val2);                                                    \
    .rept src2_nops; nop; .endr;                                             \
    inst x14, x11, x12)

// --- Branches -------------------------------------------------------------------------------
#define TEST_BR2_TAKEN(testnum, inst, val1, val2)                            \
test_##testnum:                                                              \
  li TESTNUM, testnum;                                                       \
  li x11, MASK32(val1);                                                      \
  li x12, MASK32(val2);                                                      \
  inst x11, x12, 2f;                                                         \
  j fail;                                                                    \
1:j 3f;                                                                      \
2:inst x11, x12, 1b;                                                         \
  j fail;                                                                    \
3:

#define TEST_BR2_NOTTAKEN(testnum, inst, val1, val2)                         \
test_##testnum:                                                              \
  li TESTNUM, testnum;                                                       \
  li x11, MASK32(val1);                                                      \
  li x12, MASK32(val2);                                                      \
  inst x11, x12, 1f;                                                         \
  j 2f;                                                                      \
1:j fail;                                                                    \
2:inst x11, x12, 1b;                                                         \
3:

// --- Loads and stores -----------------------------------------------------------------------
#define TEST_LD_OP(testnum, inst, result, offset, base)                      \
  TEST_CASE(testnum, x14, result,                                            \
    la x11, base;                                                            \
    inst x14, offset(x11))

#define TEST_ST_OP(testnum, load_inst, store_inst, result, offset, base)     \
  TEST_CASE(testnum, x14, result,                                            \
    la x11, base;                                                            \
    li x12, MASK32(result);                                                  \
    store_inst x12, offset(x11);                                             \
    load_inst x14, offset(x11))

// --- Traps ----------------------------------------------------------------------------------
// Install `handler` as the trap vector (tests that expect traps).
#define SET_TRAP_HANDLER(handler) la t0, handler; csrw mtvec, t0
#define RESTORE_DEFAULT_TRAP      la t0, default_trap; csrw mtvec, t0

#endif  // CP_TEST_H
