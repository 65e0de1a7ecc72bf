// loadstore.S -- LB, LH, LW, LBU, LHU, SB, SH, SW at every legal byte offset: sign and zero
// extension of bytes and halves, byte-lane placement of stores (neighbouring bytes must
// survive), negative and positive offsets, loads of read-only data from ROM through the data
// port (.rodata), store then load back, and stores whose data was just produced.
#include "cp_test.h"

RVTEST_CODE_BEGIN

  // Loads from DMEM at each byte / half offset
  TEST_LD_OP( 2, lb,  0xffffff80, 0, lbdata)
  TEST_LD_OP( 3, lb,  0x0000007f, 1, lbdata)
  TEST_LD_OP( 4, lb,  0xffffffff, 2, lbdata)
  TEST_LD_OP( 5, lb,  0x00000001, 3, lbdata)
  TEST_LD_OP( 6, lbu, 0x00000080, 0, lbdata)
  TEST_LD_OP( 7, lbu, 0x0000007f, 1, lbdata)
  TEST_LD_OP( 8, lbu, 0x000000ff, 2, lbdata)
  TEST_LD_OP( 9, lbu, 0x00000001, 3, lbdata)
  TEST_LD_OP(10, lh,  0xffff8001, 0, lhdata)
  TEST_LD_OP(11, lh,  0x00007ffe, 2, lhdata)
  TEST_LD_OP(12, lhu, 0x00008001, 0, lhdata)
  TEST_LD_OP(13, lhu, 0x00007ffe, 2, lhdata)
  TEST_LD_OP(14, lw,  0x7ffe8001, 0, lhdata)
  TEST_LD_OP(15, lw,  0x0ff00ff0, 4, lwdata)
  TEST_LD_OP(16, lw,  0xf00ff00f, 8, lwdata)
  TEST_LD_OP(17, lw,  0x00ff00ff, -4, lwdata_end)
  TEST_LD_OP(18, lh,  0x000000ff, -2, lwdata_end)
  TEST_LD_OP(19, lbu, 0x000000ff, -4, lwdata_end)
  TEST_LD_OP(20, lb,  0x00000000, -1, lwdata_end)

  // Loads from ROM (.rodata) through the data port
  TEST_LD_OP(21, lw,  0xdeadbeef, 0, rodata)
  TEST_LD_OP(22, lb,  0xffffffde, 3, rodata)
  TEST_LD_OP(23, lhu, 0x0000beef, 0, rodata)
  TEST_LD_OP(24, lh,  0xffffdead, 2, rodata)
  TEST_LD_OP(25, lw,  0x01234567, 4, rodata)

  // Stores of each size, read back with each kind of load
  TEST_ST_OP(30, lw,  sw, 0xaabbccdd, 0, sdata)
  TEST_ST_OP(31, lw,  sw, 0x12345678, 4, sdata)
  TEST_ST_OP(32, lb,  sb, 0xffffffaa, 8, sdata)
  TEST_ST_OP(33, lb,  sb, 0x00000011, 9, sdata)
  TEST_ST_OP(34, lbu, sb, 0x000000f0, 10, sdata)
  TEST_ST_OP(35, lbu, sb, 0x0000000f, 11, sdata)
  TEST_ST_OP(36, lh,  sh, 0xffffaa00, 12, sdata)
  TEST_ST_OP(37, lhu, sh, 0x0000aa00, 14, sdata)
  TEST_ST_OP(38, lh,  sh, 0x00000a0a, 16, sdata)
  TEST_ST_OP(39, lw,  sw, 0x00000000, -4, sdata_end)

  // Byte lanes: the four SB of test 32..35 assembled one word
  TEST_CASE(40, x14, 0x0ff011aa, la x11, sdata; lw x14, 8(x11))
  // and the two SH of 36..37
  TEST_CASE(41, x14, 0xaa00aa00, la x11, sdata; lw x14, 12(x11))

  // SB / SH into the middle of a word keep the other bytes
  TEST_CASE(42, x14, 0x11225544,
    la x11, sdata; li x12, 0x11223344; sw x12, 20(x11);
    li x12, 0x55; sb x12, 21(x11); lw x14, 20(x11))
  TEST_CASE(43, x14, 0x99aa5544,
    la x11, sdata; li x12, 0x9999aa; sh x12, 22(x11); lw x14, 20(x11))
  TEST_CASE(44, x14, 0x77aa5544,
    la x11, sdata; li x12, 0x77; sb x12, 23(x11); lw x14, 20(x11))

  // Store of a value produced by the previous instruction (store-data forwarding),
  // then a load of the same address right after the store.
  TEST_CASE(45, x14, 0x00000123,
    la x11, sdata; li x12, 0x120; addi x12, x12, 3; sw x12, 24(x11); lw x14, 24(x11))
  // Store whose address was just produced
  TEST_CASE(46, x14, 0x00000456,
    la x11, sdata; li x12, 0x456; addi x13, x11, 28; sw x12, 0(x13); lw x14, 28(x11))
  // Load to x0 has no effect
  TEST_CASE(47, x0, 0, la x11, lwdata; lw x0, 4(x11))

  // Back-to-back loads and stores (one access per cycle)
  TEST_CASE(48, x14, 0x1fe01fe0 + 0xf00ff00f + 0x00ff00ff,
    la x11, lwdata;
    lw x12, 4(x11); lw x13, 8(x11); lw x15, 12(x11); lw x16, 4(x11);
    add x14, x12, x13; add x14, x14, x15; add x14, x14, x16)
  TEST_CASE(49, x14, 6,
    la x11, sdata; li x12, 1; li x13, 2;
    sw x12, 32(x11); sw x13, 36(x11); sh x13, 34(x11); sw x13, 40(x11);
    lw x14, 32(x11); lw x15, 36(x11); lw x16, 40(x11);
    add x14, x14, x15; add x14, x14, x16;
    lhu x15, 34(x11); add x14, x14, x15; li x7, 0x20005; sub x14, x14, x7; addi x14, x14, 4)

  j pass

RVTEST_CODE_END

  .section .rodata
  .align 2
rodata:
  .word 0xdeadbeef
  .word 0x01234567

RVTEST_DATA_BEGIN
lbdata: .byte 0x80, 0x7f, 0xff, 0x01
lhdata: .half 0x8001, 0x7ffe
lwdata: .word 0xff00ff00, 0x0ff00ff0, 0xf00ff00f, 0x00ff00ff
lwdata_end:
sdata:  .fill 16, 4, 0xdeadbeef
sdata_end:
RVTEST_DATA_END
