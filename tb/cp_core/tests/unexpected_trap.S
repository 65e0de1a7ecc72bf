// unexpected_trap.S -- NEGATIVE tests of the runner: programs that take a trap nobody
// arranged for. Without cp-run's trap check each one spins until --max-cycles (the trap
// vector restarts the program or traps again); cp-run must stop at the first unexpected trap
// and print its mcause, mepc and mtval (exit 255). One variant per build (DEFINES):
//   NO_HANDLER    an illegal instruction with mtvec still at its reset value 0x0
//   BAD_VECTOR    mtvec points at unmapped memory: the ECALL is fine, the fetch at the
//                 vector faults (mepc = mtvec)
//   DOUBLE_FAULT  the handler of an ECALL executes an illegal instruction before its MRET
// Fixed addresses (the regexes in tb/cp_core/CMakeLists.txt match them): the trapping
// instruction is at 0x10, the handler at 0x20.
#include "cp_test.h"

  .section .text.init, "ax", @progbits
  .globl _start
_start:                             // four instructions to 0x10 in every variant
#if defined(BAD_VECTOR)
  li t0, 0x00050000                 // unmapped: the fetch at the vector faults
  csrw mtvec, t0
#elif defined(DOUBLE_FAULT)
  li t0, 0x20                       // handler (placed at 0x20 below)
  csrw mtvec, t0
#else
  nop                               // NO_HANDLER: mtvec keeps its reset value
  nop
#endif
  nop
  nop
  .org 0x10
#if defined(NO_HANDLER)
  .word 0x00000000                  // illegal instruction (all zeros)
#else
  ecall
#endif
  li TESTNUM, 1                     // never reached: the run ends at the trap
  j fail

  .org 0x20
handler:
  csrr t5, mcause
  .word 0xffffffff                  // illegal instruction inside the handler
  mret

fail:
  slli t0, TESTNUM, 1
  ori t0, t0, 1
  la t1, tohost
  sw t0, 0(t1)
1:j 1b

RVTEST_DATA_BEGIN
RVTEST_DATA_END
