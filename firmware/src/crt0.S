/* crt0.S -- reset entry and trap vector of the CP firmware (RV32IM, machine mode).
 *
 * _start: stack at the top of DMEM, gp, mtvec, copy .data from its ROM image, zero .bss, main.
 * Traps: a store access fault on the store of hal_wr_try is the one expected trap (a register
 * write answered with an error, e.g. SLC CMD with a full command queue): it returns 1 from
 * hal_wr_try. Any other trap calls cp_fw_trap (main.c), which reports on CPFW.CONSOLE, sets
 * FW_STATUS = 0xDEAD0000 | mcause and spins. docs/firmware.md, "Debugging". */

#define MCAUSE_STORE_ACCESS_FAULT 7   /* RISC-V privileged spec, exception code 7 */

  .section .init, "ax"
  .globl _start
_start:
  la    sp, _stack_top
  .option push
  .option norelax
  la    gp, __global_pointer$
  .option pop
  la    t0, trap_entry
  csrw  mtvec, t0
  call  crt0_early                 /* FW_STATUS = boot (uses no data) */

  la    t0, _data_lma              /* .data from ROM */
  la    t1, _data_start
  la    t2, _data_end
1:
  bgeu  t1, t2, 2f
  lw    t3, 0(t0)
  sw    t3, 0(t1)
  addi  t0, t0, 4
  addi  t1, t1, 4
  j     1b
2:
  /* .bss = 0, four words per iteration (link.ld aligns .bss's start and end to 16 bytes):
   * one taken branch per four stores. It was a compare, a store, an add and a taken jump per
   * word, about 1.5k of the firmware's 2k boot cycles for its 856 bytes. */
  la    t1, _bss_start
  la    t2, _bss_end
  bgeu  t1, t2, 4f
3:
  sw    zero, 0(t1)
  sw    zero, 4(t1)
  sw    zero, 8(t1)
  sw    zero, 12(t1)
  addi  t1, t1, 16
  bltu  t1, t2, 3b
4:
  call  main
5:
  j     5b                         /* main does not return */

/* int hal_wr_try(uint32_t core_addr, uint32_t value): 0 if the store completed, 1 if it was
 * answered with an error (store access fault, recovered in trap_entry). */
  .section .text.hal_wr_try, "ax"
  .globl hal_wr_try
  .globl hal_wr_try_store
hal_wr_try:
  mv    t0, a0
  li    a0, 0
hal_wr_try_store:
  sw    a1, 0(t0)
  ret

  .section .text.trap_entry, "ax"
  .balign 4                        /* mtvec direct mode: 4-byte aligned */
  .globl trap_entry
trap_entry:
  addi  sp, sp, -16
  sw    t0, 0(sp)
  sw    t1, 4(sp)
  csrr  t0, mcause
  li    t1, MCAUSE_STORE_ACCESS_FAULT
  bne   t0, t1, fatal
  csrr  t0, mepc
  la    t1, hal_wr_try_store
  bne   t0, t1, fatal
  addi  t0, t0, 4                  /* skip the store (rv32im: no compressed instructions) */
  csrw  mepc, t0
  li    a0, 1                      /* hal_wr_try returns 1 */
  lw    t0, 0(sp)
  lw    t1, 4(sp)
  addi  sp, sp, 16
  mret
fatal:
  la    sp, _stack_top             /* the stack may be what failed */
  csrr  a0, mcause
  csrr  a1, mepc
  csrr  a2, mtval
  call  cp_fw_trap                 /* does not return */
6:
  j     6b
