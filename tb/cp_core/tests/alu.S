// alu.S -- every RV32I register-register and register-immediate ALU instruction, LUI and
// AUIPC, with their edge cases: carries and overflow, shifts by 0/1/31 and by amounts whose
// upper bits must be ignored, signed vs unsigned compares, sign-extended immediates,
// rd == rs1/rs2, x0 as source and destination.
#include "cp_test.h"

RVTEST_CODE_BEGIN

  // ADD / SUB
  TEST_RR_OP( 2, add, 0x00000000, 0x00000000, 0x00000000)
  TEST_RR_OP( 3, add, 0x0000000a, 0x00000003, 0x00000007)
  TEST_RR_OP( 4, add, 0x7fffffff, 0x7fffffff, 0x00000000)
  TEST_RR_OP( 5, add, 0x80000000, 0x7fffffff, 0x00000001)
  TEST_RR_OP( 6, add, 0x00000000, 0xffffffff, 0x00000001)
  TEST_RR_OP( 7, add, 0xfffffffe, 0xffffffff, 0xffffffff)
  TEST_RR_OP( 8, add, 0x7fffffff, 0x80000000, 0xffffffff)
  TEST_RR_OP( 9, sub, 0x00000000, 0x00000000, 0x00000000)
  TEST_RR_OP(10, sub, 0xfffffffc, 0x00000003, 0x00000007)
  TEST_RR_OP(11, sub, 0x80000001, 0x00000000, 0x7fffffff)
  TEST_RR_OP(12, sub, 0x7fffffff, 0x80000000, 0x00000001)
  TEST_RR_OP(13, sub, 0x00000001, 0x00000000, 0xffffffff)
  TEST_RR_SRC1_EQ_DEST(14, add, 24, 13, 11)
  TEST_RR_SRC2_EQ_DEST(15, sub, 2, 13, 11)
  TEST_RR_SRC12_EQ_DEST(16, add, 26, 13)
  TEST_RR_ZERODEST(17, add, 11, 22)
  TEST_RR_ZEROSRC1(18, sub, -15, 15)
  TEST_RR_ZEROSRC2(19, sub, 32, 32)

  // Logic
  TEST_RR_OP(20, and, 0x0f000f00, 0xff00ff00, 0x0f0f0f0f)
  TEST_RR_OP(21, and, 0x00f000f0, 0x0ff00ff0, 0xf0f0f0f0)
  TEST_RR_OP(22, or,  0xff0fff0f, 0xff00ff00, 0x0f0f0f0f)
  TEST_RR_OP(23, or,  0xfff0fff0, 0x0ff00ff0, 0xf0f0f0f0)
  TEST_RR_OP(24, xor, 0xf00ff00f, 0xff00ff00, 0x0f0f0f0f)
  TEST_RR_OP(25, xor, 0xff00ff00, 0x0ff00ff0, 0xf0f0f0f0)
  TEST_RR_SRC12_EQ_DEST(26, xor, 0, 0x12345678)
  TEST_RR_SRC12_EQ_DEST(27, or, 0x12345678, 0x12345678)

  // Shifts: amounts 0, 1, 7, 14, 31, and rs2 with upper bits set (only rs2[4:0] counts)
  TEST_RR_OP(30, sll, 0x00000001, 0x00000001, 0)
  TEST_RR_OP(31, sll, 0x00000002, 0x00000001, 1)
  TEST_RR_OP(32, sll, 0x00000080, 0x00000001, 7)
  TEST_RR_OP(33, sll, 0x80000000, 0x00000001, 31)
  TEST_RR_OP(34, sll, 0x48484000, 0x21212121, 14)
  TEST_RR_OP(35, sll, 0x90909080, 0x21212121, 0xffffffe7)
  TEST_RR_OP(36, srl, 0x80000000, 0x80000000, 0)
  TEST_RR_OP(37, srl, 0x40000000, 0x80000000, 1)
  TEST_RR_OP(38, srl, 0x00000001, 0x80000000, 31)
  TEST_RR_OP(39, srl, 0x00000001, 0xffffffff, 0xffffffdf)
  TEST_RR_OP(40, srl, 0x00008484, 0x21212121, 0xffffffee)
  TEST_RR_OP(41, sra, 0x80000000, 0x80000000, 0)
  TEST_RR_OP(42, sra, 0xc0000000, 0x80000000, 1)
  TEST_RR_OP(43, sra, 0xffffffff, 0x80000000, 31)
  TEST_RR_OP(44, sra, 0x00000000, 0x7fffffff, 31)
  TEST_RR_OP(45, sra, 0xfffe0606, 0x81818181, 0xffffffee)
  TEST_RR_OP(46, sra, 0x3fffffff, 0x7fffffff, 1)

  // Compares: signed vs unsigned
  TEST_RR_OP(50, slt,  0, 0x00000000, 0x00000000)
  TEST_RR_OP(51, slt,  1, 0x00000003, 0x00000007)
  TEST_RR_OP(52, slt,  0, 0x00000007, 0x00000003)
  TEST_RR_OP(53, slt,  1, 0x80000000, 0x00000000)
  TEST_RR_OP(54, slt,  0, 0x7fffffff, 0x80000000)
  TEST_RR_OP(55, slt,  1, 0x80000000, 0x7fffffff)
  TEST_RR_OP(56, slt,  1, 0xffffffff, 0x00000001)
  TEST_RR_OP(57, slt,  0, 0xffffffff, 0xffffffff)
  TEST_RR_OP(58, sltu, 0, 0x00000000, 0x00000000)
  TEST_RR_OP(59, sltu, 1, 0x00000003, 0x00000007)
  TEST_RR_OP(60, sltu, 0, 0x80000000, 0x00000000)
  TEST_RR_OP(61, sltu, 1, 0x7fffffff, 0x80000000)
  TEST_RR_OP(62, sltu, 0, 0xffffffff, 0x00000001)
  TEST_RR_OP(63, sltu, 1, 0x00000001, 0xffffffff)
  TEST_RR_ZEROSRC1(64, sltu, 1, 5)     // snez
  TEST_RR_ZEROSRC1(65, sltu, 0, 0)

  // Immediates: sign extension of the 12-bit field
  TEST_IMM_OP(70, addi, 0x00000000, 0x00000000, 0)
  TEST_IMM_OP(71, addi, 0x000007ff, 0x00000000, 2047)
  TEST_IMM_OP(72, addi, 0xfffff800, 0x00000000, -2048)
  TEST_IMM_OP(73, addi, 0x80000000, 0x7fffffff, 1)
  TEST_IMM_OP(74, addi, 0x7fffffff, 0x80000000, -1)
  TEST_IMM_OP(75, addi, 0x00000000, 0xffffffff, 1)
  TEST_IMM_SRC1_EQ_DEST(76, addi, 24, 13, 11)
  TEST_IMM_OP(77, andi, 0xff00ff00, 0xff00ff00, -1)
  TEST_IMM_OP(78, andi, 0x000000f0, 0x00ff00ff, 0x7f0)
  TEST_IMM_OP(79, andi, 0x00000000, 0xffffffff, 0)
  TEST_IMM_OP(80, ori,  0xffffff0f, 0xff00ff00, -241)
  TEST_IMM_OP(81, ori,  0x0ff00ff0, 0x0ff00ff0, 0x0f0)
  TEST_IMM_OP(82, xori, 0xff00f00f, 0x00ff0f00, -241)
  TEST_IMM_OP(83, xori, 0xffffffff, 0x00000000, -1)
  TEST_IMM_OP(84, slti, 1, 0x80000000, 0)
  TEST_IMM_OP(85, slti, 0, 0x00000000, -1)
  TEST_IMM_OP(86, slti, 1, 0xffffffff, 0)
  TEST_IMM_OP(87, slti, 0, 0x000007ff, 2047)
  TEST_IMM_OP(88, slti, 1, 0xfffff7ff, -2048)
  TEST_IMM_OP(89, sltiu, 1, 0x00000000, -1)       // immediate sign-extended, then unsigned
  TEST_IMM_OP(90, sltiu, 0, 0xffffffff, -1)
  TEST_IMM_OP(91, sltiu, 1, 0x00000000, 1)        // seqz
  TEST_IMM_OP(92, sltiu, 0, 0x00000001, 1)
  TEST_IMM_OP(93, sltiu, 1, 0x7fffffff, -16)
  TEST_IMM_OP(94, slli, 0x00000001, 0x00000001, 0)
  TEST_IMM_OP(95, slli, 0x80000000, 0x00000001, 31)
  TEST_IMM_OP(96, slli, 0x48484000, 0x21212121, 14)
  TEST_IMM_OP(97, srli, 0xffffffff, 0xffffffff, 0)
  TEST_IMM_OP(98, srli, 0x00000001, 0xffffffff, 31)
  TEST_IMM_OP(99, srli, 0x01020408, 0x81020408, 31 - 24)
  TEST_IMM_OP(100, srai, 0xffffffff, 0x80000000, 31)
  TEST_IMM_OP(101, srai, 0x81818181, 0x81818181, 0)
  TEST_IMM_OP(102, srai, 0xff030303, 0x81818181, 7)
  TEST_IMM_OP(103, srai, 0x00000000, 0x7fffffff, 31)

  // LUI / AUIPC
  TEST_CASE(110, x14, 0x00000000, lui x14, 0x00000)
  TEST_CASE(111, x14, 0xfffff000, lui x14, 0xfffff)
  TEST_CASE(112, x14, 0x80000000, lui x14, 0x80000)
  TEST_CASE(113, x14, 0x7ffff000, lui x14, 0x7ffff)
  TEST_CASE(114, x0, 0, lui x0, 0x80000)
  TEST_CASE(115, x14, 0x12345678, lui x14, 0x12345; addi x14, x14, 0x678)
  // AUIPC: the pc of the auipc itself plus the immediate
  TEST_CASE(116, x14, 0,
    la x11, 1f;
    1: auipc x14, 0;
    sub x14, x14, x11)
  TEST_CASE(117, x14, 0x00001000,
    auipc x11, 0;
    auipc x14, 1;
    sub x14, x14, x11;
    addi x14, x14, -4)
  TEST_CASE(118, x14, 0x80000000,
    auipc x11, 0;
    auipc x14, 0x80000;
    sub x14, x14, x11;
    addi x14, x14, -4)

  j pass

RVTEST_CODE_END

RVTEST_DATA_BEGIN
RVTEST_DATA_END
