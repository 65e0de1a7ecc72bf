/* libc_min.c -- the few C library functions GCC may call on its own in a freestanding build
 * (structure copies and zeroing loops become memcpy / memset). Target build only: the host
 * build links the real C library. */
#include <stddef.h>
#include <stdint.h>

void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);

/* GCC must not turn these loops back into calls to themselves. */
#define CP_NO_LOOP_PATTERNS __attribute__((optimize("no-tree-loop-distribute-patterns")))

CP_NO_LOOP_PATTERNS void *memset(void *dst, int c, size_t n)
{
  uint8_t *d = (uint8_t *)dst;
  while (n--)
    *d++ = (uint8_t)c;
  return dst;
}

CP_NO_LOOP_PATTERNS void *memcpy(void *dst, const void *src, size_t n)
{
  uint8_t *d = (uint8_t *)dst;
  const uint8_t *s = (const uint8_t *)src;
  while (n--)
    *d++ = *s++;
  return dst;
}

CP_NO_LOOP_PATTERNS void *memmove(void *dst, const void *src, size_t n)
{
  uint8_t *d = (uint8_t *)dst;
  const uint8_t *s = (const uint8_t *)src;
  if (d < s) {
    while (n--)
      *d++ = *s++;
  } else {
    d += n;
    s += n;
    while (n--)
      *--d = *--s;
  }
  return dst;
}
