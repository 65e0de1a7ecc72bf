// branch.S -- all six conditional branches, taken and not taken, forwards and backwards,
// with operands of both signs (signed vs unsigned order), equal operands, x0 operands,
// branches right after the instruction producing an operand, and a counted loop.
#include "cp_test.h"

RVTEST_CODE_BEGIN

  TEST_BR2_TAKEN( 2, beq,  0,  0)
  TEST_BR2_TAKEN( 3, beq,  1,  1)
  TEST_BR2_TAKEN( 4, beq, -1, -1)
  TEST_BR2_NOTTAKEN( 5, beq,  0,  1)
  TEST_BR2_NOTTAKEN( 6, beq,  1,  0)
  TEST_BR2_NOTTAKEN( 7, beq, -1,  1)
  TEST_BR2_NOTTAKEN( 8, beq, 0x80000000, 0)

  TEST_BR2_TAKEN(10, bne,  0,  1)
  TEST_BR2_TAKEN(11, bne,  1,  0)
  TEST_BR2_TAKEN(12, bne, -1,  1)
  TEST_BR2_TAKEN(13, bne, 0x80000000, 0)
  TEST_BR2_NOTTAKEN(14, bne,  0,  0)
  TEST_BR2_NOTTAKEN(15, bne, -1, -1)

  TEST_BR2_TAKEN(20, blt,  0,  1)
  TEST_BR2_TAKEN(21, blt, -1,  1)
  TEST_BR2_TAKEN(22, blt, -2, -1)
  TEST_BR2_TAKEN(23, blt, 0x80000000, 0x7fffffff)
  TEST_BR2_NOTTAKEN(24, blt,  1,  0)
  TEST_BR2_NOTTAKEN(25, blt,  1, -1)
  TEST_BR2_NOTTAKEN(26, blt, -1, -2)
  TEST_BR2_NOTTAKEN(27, blt,  5,  5)
  TEST_BR2_NOTTAKEN(28, blt, 0x7fffffff, 0x80000000)

  TEST_BR2_TAKEN(30, bge,  0,  0)
  TEST_BR2_TAKEN(31, bge,  1,  0)
  TEST_BR2_TAKEN(32, bge, -1, -1)
  TEST_BR2_TAKEN(33, bge,  1, -1)
  TEST_BR2_TAKEN(34, bge, -1, -2)
  TEST_BR2_TAKEN(35, bge, 0x7fffffff, 0x80000000)
  TEST_BR2_NOTTAKEN(36, bge,  0,  1)
  TEST_BR2_NOTTAKEN(37, bge, -1,  1)
  TEST_BR2_NOTTAKEN(38, bge, -2, -1)
  TEST_BR2_NOTTAKEN(39, bge, 0x80000000, 0x7fffffff)

  TEST_BR2_TAKEN(40, bltu, 0x00000000, 0x00000001)
  TEST_BR2_TAKEN(41, bltu, 0xfffffffe, 0xffffffff)
  TEST_BR2_TAKEN(42, bltu, 0x00000000, 0xffffffff)
  TEST_BR2_TAKEN(43, bltu, 0x7fffffff, 0x80000000)
  TEST_BR2_NOTTAKEN(44, bltu, 0x00000001, 0x00000000)
  TEST_BR2_NOTTAKEN(45, bltu, 0xffffffff, 0xfffffffe)
  TEST_BR2_NOTTAKEN(46, bltu, 0xffffffff, 0x00000000)
  TEST_BR2_NOTTAKEN(47, bltu, 0x80000000, 0x7fffffff)
  TEST_BR2_NOTTAKEN(48, bltu, 7, 7)

  TEST_BR2_TAKEN(50, bgeu, 0x00000000, 0x00000000)
  TEST_BR2_TAKEN(51, bgeu, 0x00000001, 0x00000000)
  TEST_BR2_TAKEN(52, bgeu, 0xffffffff, 0xfffffffe)
  TEST_BR2_TAKEN(53, bgeu, 0xffffffff, 0x00000000)
  TEST_BR2_TAKEN(54, bgeu, 0x80000000, 0x7fffffff)
  TEST_BR2_NOTTAKEN(55, bgeu, 0x00000000, 0x00000001)
  TEST_BR2_NOTTAKEN(56, bgeu, 0xfffffffe, 0xffffffff)
  TEST_BR2_NOTTAKEN(57, bgeu, 0x00000000, 0xffffffff)
  TEST_BR2_NOTTAKEN(58, bgeu, 0x7fffffff, 0x80000000)

  // x0 as an operand (beqz / bnez / bltz / bgez / bgtz forms)
test_60:
  li TESTNUM, 60
  li x11, -5
  bltz x11, 1f
  j fail
1:bgez x11, fail
  bgtz x11, fail
  bnez x0, fail
  beqz x0, 2f
  j fail
2:

  // Operand produced by the instruction right before the branch (forwarding into the compare)
test_61:
  li TESTNUM, 61
  li x11, 3
  addi x12, x11, -3
  beqz x12, 1f
  j fail
1:addi x12, x12, 1
  bnez x12, 2f
  j fail
2:

  // Not-taken branch must not disturb the instructions that follow (they all retire)
test_62:
  li TESTNUM, 62
  li x14, 0
  bne x0, x0, fail
  addi x14, x14, 1
  beq x14, x0, fail
  addi x14, x14, 1
  blt x14, x0, fail
  addi x14, x14, 1
  li x7, 3
  bne x14, x7, fail

  // Taken branch must squash the instructions fetched after it (wrong path)
test_63:
  li TESTNUM, 63
  li x14, 0
  beq x0, x0, 1f
  addi x14, x14, 1
  addi x14, x14, 2
  addi x14, x14, 4
1:bnez x14, fail

  // Backward counted loop: 100 iterations, sum 0..99
test_64:
  li TESTNUM, 64
  li x11, 0
  li x14, 0
  li x12, 100
1:add x14, x14, x11
  addi x11, x11, 1
  blt x11, x12, 1b
  li x7, 4950
  bne x14, x7, fail

  // Branch to a branch (taken then taken)
test_65:
  li TESTNUM, 65
  beq x0, x0, 1f
  j fail
1:bne x0, x0, fail
  bgeu x0, x0, 2f
  j fail
2:

  j pass

RVTEST_CODE_END

RVTEST_DATA_BEGIN
RVTEST_DATA_END
