// irq.S -- the machine external interrupt (mip.MEIP from irq_external_i; here raised by the
// MMIO IRQ timer of cp_core_sys): taken while spinning, mcause = 0x8000000b, mepc = the
// interrupted instruction (which then runs normally), MIE cleared in the handler and
// restored by MRET; masked by mstatus.MIE or mie.MEIE (pending shows in mip), taken right
// after the enabling CSR write; WFI sleeps until an interrupt is pending, with MIE = 0 it
// just continues, with MIE = 1 the interrupt is taken after it (mepc = WFI + 4).
#include "cp_test.h"

#define R_CAUSE  x18
#define R_EPC    x19
#define R_STATUS x21
#define R_COUNT  x22

RVTEST_CODE_BEGIN
  SET_TRAP_HANDLER(irq_handler)
  li R_COUNT, 0
  li x25, MMIO_IRQ

  // Taken while spinning
test_2:
  li TESTNUM, 2
  li x12, 1 << 11
  csrw mie, x12
  csrsi mstatus, 8
  li x12, 40
  sw x12, 0(x25)                      // interrupt in 40 cycles
  li x13, 100000
1:addi x13, x13, -1
  beqz x13, fail                      // never taken
  beqz R_COUNT, 1b
  li x7, 0x8000000b
  bne R_CAUSE, x7, fail
  la x7, 1b                           // mepc is one of the three loop instructions
  bltu R_EPC, x7, fail
  addi x7, x7, 12
  bgeu R_EPC, x7, fail
  li x7, 0x1880                       // in the handler: MIE = 0, MPIE = 1
  bne R_STATUS, x7, fail
  csrr x14, mstatus                   // after MRET: MIE = 1 again
  andi x14, x14, 8
  beqz x14, fail

  // Masked by mstatus.MIE: pending shows in mip, taken right after MIE is set
test_3:
  li TESTNUM, 3
  li R_COUNT, 0
  csrci mstatus, 8
  li x12, 1
  sw x12, 0(x25)                      // interrupt in 1 cycle
  nop; nop; nop; nop; nop; nop
  bnez R_COUNT, fail
  csrr x14, mip
  li x7, 1 << 11
  bne x14, x7, fail
  lw x14, 0(x25)                      // the device reports the level
  li x7, 1
  bne x14, x7, fail
  csrsi mstatus, 8
2:addi x0, x0, 0                      // interrupted here
  li x7, 1
  bne R_COUNT, x7, fail
  la x7, 2b
  bne R_EPC, x7, fail

  // Masked by mie.MEIE
test_4:
  li TESTNUM, 4
  li R_COUNT, 0
  csrw mie, x0
  li x12, 1
  sw x12, 0(x25)
  nop; nop; nop; nop; nop; nop
  bnez R_COUNT, fail
  li x12, 1 << 11
  csrs mie, x12
3:nop
  li x7, 1
  bne R_COUNT, x7, fail
  la x7, 3b
  bne R_EPC, x7, fail

  // WFI with MIE = 0 and MEIE = 1: sleeps until the interrupt is pending, no trap
test_5:
  li TESTNUM, 5
  li R_COUNT, 0
  csrci mstatus, 8
  li x12, 200
  csrr x15, mcycle
  sw x12, 0(x25)
  wfi
  csrr x16, mcycle
  bnez R_COUNT, fail
  csrr x14, mip                       // it woke because the interrupt is pending
  beqz x14, fail
  sub x16, x16, x15                   // and it slept: at least ~200 cycles passed
  li x7, 150
  bltu x16, x7, fail
  sw x0, 0(x25)                       // clear it

  // WFI with MIE = 1: the interrupt is taken after the WFI (mepc = WFI + 4)
test_6:
  li TESTNUM, 6
  li R_COUNT, 0
  li x12, 100
  sw x12, 0(x25)
  csrsi mstatus, 8
  wfi
4:nop
  li x7, 1
  bne R_COUNT, x7, fail
  la x7, 4b
  bne R_EPC, x7, fail

  // WFI when the interrupt is already pending (MIE = 0): it does not sleep at all
test_7:
  li TESTNUM, 7
  li R_COUNT, 0
  csrci mstatus, 8
  li x12, 1
  sw x12, 0(x25)
  nop; nop; nop; nop
  wfi
  bnez R_COUNT, fail
  sw x0, 0(x25)

  csrci mstatus, 8
  csrw mie, x0
  j pass

  .align 2
irq_handler:
  csrr R_CAUSE, mcause
  bgez R_CAUSE, fail                  // only interrupts expected here
  csrr R_EPC, mepc
  csrr R_STATUS, mstatus
  addi R_COUNT, R_COUNT, 1
  sw x0, 0(x25)                       // acknowledge: clear the interrupt
  mret

RVTEST_CODE_END

RVTEST_DATA_BEGIN
RVTEST_DATA_END
