// slowmem.S -- loads and stores through the slow window (0x80000000, stands in for the CP's
// GPU-memory window: grant withheld and/or tens of cycles to rvalid): words preloaded from
// the ELF, byte/half/word stores and loads back, load-use and back-to-back accesses while
// the core stalls, mixed with DMEM and MMIO accesses, and console output through MMIO.
// Registered twice: with a fixed latency, and with latency 1 plus random grant stalls.
#include "cp_test.h"

RVTEST_CODE_BEGIN

  li x11, SLOW_BASE
  // Preloaded data (section .slow)
  TEST_CASE( 2, x14, 0x01020304, lw x14, 0(x11))
  TEST_CASE( 3, x14, 0xfffffffe, lw x14, 4(x11))
  TEST_CASE( 4, x14, 0xfffffffe, lh x14, 4(x11))
  TEST_CASE( 5, x14, 0x0000ffff, lhu x14, 6(x11))
  TEST_CASE( 6, x14, 0x00000003, lb x14, 1(x11))
  // Stores of each size and loads back
  TEST_CASE( 7, x14, 0xa5a5a5a5, li x12, 0xa5a5a5a5; sw x12, 64(x11); lw x14, 64(x11))
  TEST_CASE( 8, x14, 0xa5a55aa5, li x12, 0x5a; sb x12, 65(x11); lw x14, 64(x11))
  TEST_CASE( 9, x14, 0x12345aa5, li x12, 0x1234; sh x12, 66(x11); lw x14, 64(x11))
  TEST_CASE(10, x14, 0xffffff80, li x12, 0x80; sb x12, 67(x11); lb x14, 67(x11))
  // The last word of the window
  TEST_CASE(11, x14, 0x600dcafe, li x12, 0x600dcafe; li x13, SLOW_BASE + 0xffc; sw x12, 0(x13); lw x14, 0(x13))
  // Load-use and back-to-back slow accesses
  TEST_CASE(12, x14, 0x01020304 + 0xfffffffe + 0x01020304,
    lw x12, 0(x11); add x14, x12, x0; lw x13, 4(x11); add x14, x14, x13; lw x13, 0(x11); add x14, x14, x13)
  // Slow, DMEM, slow, DMEM back to back
  TEST_CASE(13, x14, 0x0000000a,
    la x15, ddata; li x12, 3; sw x12, 0(x15); li x12, 7; sw x12, 128(x11);
    lw x13, 0(x15); lw x14, 128(x11); add x14, x14, x13)
  // Sum an array in slow memory (stores then loads in a loop)
test_14:
  li TESTNUM, 14
  li x12, 0
  addi x13, x11, 256
1:sw x12, 0(x13)
  addi x12, x12, 1
  addi x13, x13, 4
  li x7, 32
  blt x12, x7, 1b
  li x12, 0
  li x14, 0
  addi x13, x11, 256
2:lw x15, 0(x13)
  add x14, x14, x15
  addi x13, x13, 4
  addi x12, x12, 1
  li x7, 32
  blt x12, x7, 2b
  li x7, 496
  bne x14, x7, fail

  // MMIO: reads of unused registers return 0; the console prints a line
  TEST_CASE(15, x14, 0, li x12, 0x00020010; lw x14, 0(x12))
test_16:
  li TESTNUM, 16
  la x12, message
  li x13, MMIO_CONSOLE
3:lbu x14, 0(x12)
  beqz x14, 4f
  sb x14, 0(x13)
  addi x12, x12, 1
  j 3b
4:

  j pass

RVTEST_CODE_END

  .section .rodata
message: .string "slowmem: slow window OK\n"

  .section .slow, "aw", @progbits
  .align 2
sdata: .word 0x01020304, 0xfffffffe

RVTEST_DATA_BEGIN
ddata: .word 0
RVTEST_DATA_END
