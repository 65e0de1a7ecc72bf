/* cp_console.c -- text to CPFW.CONSOLE (one character per write; benches and tessera-sim print
 * it line by line with a "[cp]" prefix). Used for the boot banner, error reports and traps. */
#include "cp_fw_internal.h"

static void con_putc(char c)
{
  hal_wr(CPFW(TS_CPFW_CONSOLE_OFFSET), TS_CPFW_CONSOLE_CHAR_PUT((uint32_t)(unsigned char)c));
}

void cp_con_puts(const char *s)
{
  while (*s)
    con_putc(*s++);
}

void cp_con_hex(uint32_t v)
{
  static const char digits[] = "0123456789abcdef";
  con_putc('0');
  con_putc('x');
  for (int shift = 28; shift >= 0; shift -= 4)
    con_putc(digits[(v >> shift) & 0xfu]);
}

void cp_con_dec(uint32_t v)
{
  char buf[10];
  int n = 0;
  do {
    /* rv32im has a divider; the host build does not care. */
    buf[n++] = (char)('0' + v % 10u);
    v /= 10u;
  } while (v != 0 && n < 10);
  while (n > 0)
    con_putc(buf[--n]);
}
