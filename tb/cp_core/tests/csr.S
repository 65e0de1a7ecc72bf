// csr.S -- Zicsr: CSRRW, CSRRS, CSRRC and the immediate forms on mscratch (old value returned,
// new value written; rs1 = x0 / uimm = 0 must not write); the read-only identification CSRs;
// misa; mstatus (MIE, MPIE writable, MPP reads 3), mtvec and mepc low bits, mcause WLRL;
// mcycle/minstret counting (instret counts exactly the instructions retired in between,
// cycle counts at least that), writes to them, the user-level read aliases; mip/mie.
#include "cp_test.h"

RVTEST_CODE_BEGIN

  // CSRRW: returns the old value, writes the new one
  TEST_CASE( 2, x14, 0, csrw mscratch, x0; li x12, 0x12345678; csrrw x14, mscratch, x12)
  TEST_CASE( 3, x14, 0x12345678, csrrw x14, mscratch, x0)
  TEST_CASE( 4, x14, 0, csrr x14, mscratch)
  // CSRRS / CSRRC
  TEST_CASE( 5, x14, 0x0000f0f0, li x12, 0x0000f0f0; csrrs x0, mscratch, x12; csrr x14, mscratch)
  TEST_CASE( 6, x14, 0x0000f0f0, li x12, 0x0f000000; csrrs x14, mscratch, x12)
  TEST_CASE( 7, x14, 0x0f00f0f0, csrr x14, mscratch)
  TEST_CASE( 8, x14, 0x0f00f0f0, li x12, 0x0f0000f0; csrrc x14, mscratch, x12)
  TEST_CASE( 9, x14, 0x0000f000, csrr x14, mscratch)
  // Immediate forms (5-bit zero-extended uimm)
  TEST_CASE(10, x14, 0x0000f000, csrrwi x14, mscratch, 31)
  TEST_CASE(11, x14, 31, csrrci x14, mscratch, 5)
  TEST_CASE(12, x14, 26, csrrsi x14, mscratch, 1)
  TEST_CASE(13, x14, 27, csrr x14, mscratch)
  // rs1 = x0 / uimm = 0: no write (reads only; must be legal even on read-only CSRs)
  TEST_CASE(14, x14, 27, csrrs x0, mscratch, x0; csrrc x0, mscratch, x0; csrrsi x0, mscratch, 0; csrrci x0, mscratch, 0; csrr x14, mscratch)
  TEST_CASE(15, x14, 0, csrrs x14, mhartid, x0)
  TEST_CASE(16, x14, 0, csrrci x14, mvendorid, 0)
  // Same register as source and destination
  TEST_CASE(17, x14, 27, li x14, 99; csrrw x14, mscratch, x14)
  TEST_CASE(18, x14, 99, csrr x14, mscratch)

  // Identification
  TEST_CASE(20, x14, 0x40001100, csrr x14, misa)
  TEST_CASE(21, x14, 0, csrr x14, mvendorid)
  TEST_CASE(22, x14, 0, csrr x14, marchid)
  TEST_CASE(23, x14, 0, csrr x14, mimpid)
  TEST_CASE(24, x14, 0, csrr x14, mhartid)
  // misa and mstatush are WARL: writes are ignored
  TEST_CASE(25, x14, 0x40001100, li x12, -1; csrw misa, x12; csrr x14, misa)
  TEST_CASE(26, x14, 0, li x12, -1; csrw mstatush, x12; csrr x14, mstatush)

  // mstatus: MIE (3) and MPIE (7) writable, MPP (12:11) reads 3, others 0
  TEST_CASE(30, x14, 0x00001800, csrw mstatus, x0; csrr x14, mstatus)
  TEST_CASE(31, x14, 0x00001880, li x12, 0x80; csrs mstatus, x12; csrr x14, mstatus)
  TEST_CASE(32, x14, 0x00001880, li x12, 0xffffff77; csrs mstatus, x12; csrr x14, mstatus)
  TEST_CASE(33, x14, 0x00001800, csrw mstatus, x0; csrr x14, mstatus)
  // mie: MEIE (11) only; mip: MEIP read-only (no interrupt pending here)
  TEST_CASE(34, x14, 0x00000800, li x12, -1; csrw mie, x12; csrr x14, mie)
  TEST_CASE(35, x14, 0x00000000, csrw mie, x0; csrr x14, mie)
  TEST_CASE(36, x14, 0x00000000, li x12, -1; csrw mip, x12; csrr x14, mip)
  // mtvec: direct mode only, bits 1:0 read 0; mepc bits 1:0 read 0; mcause keeps 31 and 4:0
  TEST_CASE(37, x14, 0x00000400, csrr x15, mtvec; li x12, 0x401; csrw mtvec, x12; csrr x14, mtvec; csrw mtvec, x15)
  TEST_CASE(38, x14, 0x12345674, li x12, 0x12345677; csrw mepc, x12; csrr x14, mepc)
  TEST_CASE(39, x14, 0x8000001f, li x12, -1; csrw mcause, x12; csrr x14, mcause)
  TEST_CASE(40, x14, 0x0000000b, li x12, 0x7fffffeb; csrw mcause, x12; csrr x14, mcause)
  TEST_CASE(41, x14, 0xcafef00d, li x12, 0xcafef00d; csrw mtval, x12; csrr x14, mtval)

  // minstret counts retired instructions exactly: 5 instructions between the two reads
  TEST_CASE(50, x14, 6,
    csrr x12, minstret; nop; nop; nop; nop; nop; csrr x13, minstret; sub x14, x13, x12)
  // ... including loads, stores, multiplies and taken branches
  TEST_CASE(51, x14, 6,
    la x11, cdata; csrr x12, instret; lw x15, 0(x11); sw x15, 4(x11); mul x15, x15, x15;
    beq x0, x0, 1f; nop; 1: div x15, x15, x11; csrr x13, instret; sub x14, x13, x12)
  // mcycle advances at least one per instruction (and the alias agrees)
  TEST_CASE(52, x14, 1,
    csrr x12, mcycle; nop; nop; nop; nop; csrr x13, cycle; sub x14, x13, x12; sltiu x14, x14, 5; xori x14, x14, 1)
  // A DIV takes many cycles: more than 20 between the reads
  TEST_CASE(53, x14, 1,
    li x15, 1000; li x16, 7; csrr x12, mcycle; div x15, x15, x16; csrr x13, mcycle;
    sub x14, x13, x12; sltiu x14, x14, 21; xori x14, x14, 1)
  // Writes: the value written is what the next read sees (minstret does not count the write)
  TEST_CASE(54, x14, 100, li x12, 100; csrw minstret, x12; csrr x14, minstret)
  TEST_CASE(55, x14, 101, li x12, 100; csrw minstret, x12; nop; csrr x14, minstret)
  TEST_CASE(56, x14, 0x00000005, li x12, 5; csrw minstreth, x12; csrr x14, minstreth)
  TEST_CASE(57, x14, 0x00000005, csrr x14, instreth)
  // Carry from minstret into minstreth
  TEST_CASE(58, x14, 0x00000006,
    li x12, -3; csrw minstret, x12; nop; nop; nop; nop; csrr x14, minstreth)
  TEST_CASE(59, x14, 1,
    li x12, 0x7; csrw mcycleh, x12; csrr x13, mcycleh; csrr x14, cycleh; sub x14, x14, x13; seqz x14, x14)
  TEST_CASE(60, x14, 1,
    csrw mcycle, x0; csrr x13, mcycle; sltiu x14, x13, 4)
  TEST_CASE(61, x14, 0, csrw minstreth, x0; csrw mcycleh, x0; csrr x14, minstreth)

  j pass

RVTEST_CODE_END

RVTEST_DATA_BEGIN
cdata: .word 3, 0
RVTEST_DATA_END
