/* main.c -- CP firmware entry on the target (crt0.S calls main after .data/.bss set-up). */
#include "cp_fw_internal.h"

void crt0_early(void);
void cp_fw_trap(uint32_t mcause, uint32_t mepc, uint32_t mtval) __attribute__((noreturn));
int main(void);

/* Before .data and .bss exist: only constants. */
void crt0_early(void)
{
  hal_wr(CPFW(TS_CPFW_FW_STATUS_OFFSET), CP_FWS_BOOT);
}

/* Any trap except the recovered hal_wr_try store fault. */
void cp_fw_trap(uint32_t mcause, uint32_t mepc, uint32_t mtval)
{
  hal_wr(CPFW(TS_CPFW_FW_STATUS_OFFSET), CP_FWS_TRAP | (mcause & 0xffffu));
  cp_con_puts("\nFATAL trap: mcause ");
  cp_con_hex(mcause);
  cp_con_puts(" mepc ");
  cp_con_hex(mepc);
  cp_con_puts(" mtval ");
  cp_con_hex(mtval);
  cp_con_puts(" (see cp_fw.dis)\n");
  for (;;) {
  }
}

int main(void)
{
  cp_fw_init();
  for (;;)
    cp_fw_poll();
}
