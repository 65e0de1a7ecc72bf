// jump.S -- JAL and JALR: link values (pc + 4), rd = x0 (plain jump), rd == rs1 for JALR
// (the link must not overwrite the base before it is used), negative and positive offsets,
// the JALR target's bit 0 cleared, call/return through ra, and the link register used by the
// very next instruction (forwarding of the link value).
#include "cp_test.h"

RVTEST_CODE_BEGIN

  // JAL: link = address of the jal + 4
test_2:
  li TESTNUM, 2
  li ra, 0
1:jal x4, 2f
  j fail
2:la x7, 1b
  addi x7, x7, 4
  bne x4, x7, fail

  // JAL with rd = x0: no link written
test_3:
  li TESTNUM, 3
  jal x0, 1f
  j fail
1:bnez x0, fail

  // JAL backwards
test_4:
  li TESTNUM, 4
  li x14, 0
  j 2f
1:addi x14, x14, 1
  j 3f
2:jal x0, 1b
  j fail
3:li x7, 1
  bne x14, x7, fail

  // JALR: target = rs1 + imm, link = pc + 4
test_5:
  li TESTNUM, 5
  la x11, 2f
  addi x11, x11, -8
1:jalr x5, 8(x11)
  j fail
2:la x7, 1b
  addi x7, x7, 4
  bne x5, x7, fail

  // JALR with rd = x0
test_6:
  li TESTNUM, 6
  la x11, 1f
  jalr x0, 0(x11)
  j fail
1:

  // JALR with rd == rs1: the old rs1 is the base, then rd gets the link
test_7:
  li TESTNUM, 7
  la x11, 2f
1:jalr x11, 0(x11)
  j fail
2:la x7, 1b
  addi x7, x7, 4
  bne x11, x7, fail

  // JALR clears bit 0 of the target
test_8:
  li TESTNUM, 8
  la x11, 1f
  addi x11, x11, 1
  jalr x0, 0(x11)
  j fail
1:

  // JALR with a negative offset
test_9:
  li TESTNUM, 9
  la x11, 2f
  addi x11, x11, 12
  jalr x0, -12(x11)
  j fail
2:

  // Call and return; the callee uses the link right away
test_10:
  li TESTNUM, 10
  li x14, 0
  call func_inc
  call func_inc
  call func_inc
  li x7, 3
  bne x14, x7, fail

  // The link register read by the instruction right after the jump target
test_11:
  li TESTNUM, 11
1:jal x12, 2f
2:addi x14, x12, 0
  la x7, 1b
  addi x7, x7, 4
  bne x14, x7, fail

  // JALR whose base was just produced (forwarding into the target adder)
test_12:
  li TESTNUM, 12
  la x11, 1f
  addi x11, x11, 0
  jalr x0, x11, 0
  j fail
1:

  // Indirect call through a table in .rodata (load then jalr: load-use into the target)
test_13:
  li TESTNUM, 13
  li x14, 0
  la x11, jump_table
  lw x12, 4(x11)
  jalr ra, 0(x12)
  li x7, 20
  bne x14, x7, fail

  j pass

func_inc:
  addi x14, x14, 1
  ret
func_ten:
  addi x14, x14, 10
  ret
func_twenty:
  addi x14, x14, 20
  ret

RVTEST_CODE_END

  .section .rodata
  .align 2
jump_table:
  .word func_ten, func_twenty

RVTEST_DATA_BEGIN
RVTEST_DATA_END
