// c_firmware.c -- a compiled C program on cp_core (crt0.S starts it): GCC -O2 code with calls,
// the stack, indirect calls through a table in ROM, .data/.bss/.rodata, byte/half/word
// accesses, 32-bit MUL/DIV, 64-bit arithmetic through libgcc (__udivdi3, __umoddi3), copies
// through the slow window, and console output. main() returns the number of the first failed
// check (0 = all passed), which crt0 turns into the tohost verdict.
#include <stddef.h>
#include <stdint.h>

#define CONSOLE (*(volatile uint8_t *)0x00020000u)
#define SLOW ((volatile uint32_t *)0x80000000u)

// GCC may emit calls to these for loops and struct copies even when freestanding.
void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n) {
  unsigned char *p = d;
  while (n--) *p++ = (unsigned char)c;
  return d;
}
void *memcpy(void *d, const void *s, size_t n) {
  unsigned char *p = d;
  const unsigned char *q = s;
  while (n--) *p++ = *q++;
  return d;
}

static void put_str(const char *s) {
  while (*s) CONSOLE = (uint8_t)*s++;
}

// CRC-32 (IEEE 802.3, reflected), bitwise and table-driven; check value of "123456789".
static uint32_t crc32_bitwise(const uint8_t *p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  while (n--) {
    c ^= *p++;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}
static uint32_t crc_table[256];  // .bss
static void crc32_init(void) {
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    crc_table[i] = c;
  }
}
static uint32_t crc32_table(const uint8_t *p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  while (n--) c = crc_table[(c ^ *p++) & 0xFFu] ^ (c >> 8);
  return ~c;
}

// Packet dispatch through a function table in ROM, like the firmware's opcode switch.
struct packet {
  uint16_t opcode;
  uint16_t count;
  int32_t arg;
};
static int32_t op_add(int32_t acc, int32_t a) { return acc + a; }
static int32_t op_mul(int32_t acc, int32_t a) { return acc * a; }
static int32_t op_div(int32_t acc, int32_t a) { return a ? acc / a : -1; }
static int32_t op_rem(int32_t acc, int32_t a) { return a ? acc % a : -1; }
typedef int32_t (*op_fn)(int32_t, int32_t);
static const op_fn ops[4] = {op_add, op_mul, op_div, op_rem};
static const struct packet stream[] = {
    {0, 1, 100}, {1, 1, -3}, {2, 1, 7}, {0, 3, 5}, {3, 1, 11}, {1, 2, 6}, {2, 1, -4},
};
static int32_t run_stream(void) {
  int32_t acc = 0;
  for (size_t i = 0; i < sizeof stream / sizeof stream[0]; ++i)
    for (uint16_t k = 0; k < stream[i].count; ++k) acc = ops[stream[i].opcode & 3](acc, stream[i].arg);
  return acc;
}

static uint32_t lcg_state = 12345;  // .data
static uint32_t lcg(void) {
  lcg_state = lcg_state * 1103515245u + 12345u;
  return lcg_state >> 8;
}

static uint16_t values[64];  // .bss, halfword accesses
static void insertion_sort(uint16_t *v, size_t n) {
  for (size_t i = 1; i < n; ++i) {
    uint16_t x = v[i];
    size_t j = i;
    while (j > 0 && v[j - 1] > x) {
      v[j] = v[j - 1];
      --j;
    }
    v[j] = x;
  }
}

int main(void) {
  static const char check[] = "123456789";
  if (crc32_bitwise((const uint8_t *)check, 9) != 0xCBF43926u) return 2;
  crc32_init();
  if (crc32_table((const uint8_t *)check, 9) != 0xCBF43926u) return 3;

  // ((((100 * -3) / 7) + 5 + 5 + 5) % 11) * 6 * 6 / -4 = ((-42 + 15) % 11) * 36 / -4 = -5 * 36 / -4
  if (run_stream() != 45) return 4;

  uint32_t sum = 0;
  for (int i = 0; i < 64; ++i) {
    values[i] = (uint16_t)lcg();
    sum += values[i];
  }
  insertion_sort(values, 64);
  uint32_t sum2 = 0;
  for (int i = 0; i < 64; ++i) {
    sum2 += values[i];
    if (i && values[i - 1] > values[i]) return 5;
  }
  if (sum2 != sum) return 6;

  volatile uint64_t a = 0x123456789ABCDEF0ull, b = 12345;  // volatile: computed at run time
  if (a / b != 0x60a45f5207dbull || a % b != 0xf2d) return 7;
  volatile uint64_t x = 0xfedcba9876543210ull, y = 0xdeadbeefull;
  if (x * y != 0x12345678aa929cf0ull || x / y != 0x124ffda23ull || x % y != 0x43ea9163ull) return 8;
  volatile int32_t n = -7, d = 2;
  if (n / d != -3 || n % d != -1) return 9;

  // Through the slow window and back.
  for (int i = 0; i < 32; ++i) SLOW[i] = crc_table[i * 7];
  uint32_t c = 0;
  for (int i = 0; i < 32; ++i) c ^= SLOW[i] - crc_table[i * 7];
  if (c != 0) return 10;

  put_str("c_firmware: all checks passed\n");
  return 0;
}
