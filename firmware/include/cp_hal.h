/* cp_hal.h -- the CP firmware's register access layer (docs/firmware.md, "Host test layer").
 *
 * Every access of the firmware to hardware goes through these few functions, so the same
 * packet logic runs on the RV32IM command-processor core and, compiled with CP_FW_HOST, on the
 * build machine against the C++ fake in firmware/test/.
 *
 * Addresses are CP-core addresses (the fixed memory map of the CP core):
 *   0x0002_0000 + TS_CPFW_*_OFFSET   firmware registers (spec/registers/cpfw.yaml)
 *   0x0004_0000 + host offset        the GPU register map as the host sees it (SLC at 0x4000)
 *   0x8000_0000 + gpu_addr           GPU memory (gpu_addr < 0x8000_0000)
 */
#ifndef CP_HAL_H
#define CP_HAL_H

#include <stdint.h>

#include "tessera_spec.h"

#define CP_CORE_CPFW_BASE   TS_CPFW_BASE_ADDR  /* firmware registers */
#define CP_CORE_REGWIN_BASE 0x00040000u        /* + host register byte offset */
#define CP_CORE_GPUWIN_BASE 0x80000000u        /* + GPU byte address */
#define CP_GPUWIN_LIMIT     0x80000000u        /* GPU addresses the memory window reaches */

/* A firmware register (CPFW block) by its generated offset. */
#define CPFW(off) (CP_CORE_CPFW_BASE + (uint32_t)(off))
/* A host-visible GPU register by its block base and offset (e.g. TS_SLC_BASE_ADDR + ...). */
#define REGWIN(host_off) (CP_CORE_REGWIN_BASE + (uint32_t)(host_off))
/* A GPU memory word by its GPU byte address. */
#define GPUWIN(gpu_addr) (CP_CORE_GPUWIN_BASE + (uint32_t)(gpu_addr))

#ifdef __cplusplus
extern "C" {
#endif

#ifdef CP_FW_HOST

/* Host build: implemented by the test's fake register layer (firmware/test/fake_gpu.cpp). */
uint32_t hal_rd(uint32_t core_addr);
void hal_wr(uint32_t core_addr, uint32_t value);
/* A store that may be answered with an error (SLC CMD with a full command queue): returns 0
 * when it was accepted, non-zero when the target answered with an error. */
int hal_wr_try(uint32_t core_addr, uint32_t value);
uint64_t hal_mcycle(void);
uint64_t hal_minstret(void);

#else

static inline uint32_t hal_rd(uint32_t core_addr)
{
  return *(volatile uint32_t *)(uintptr_t)core_addr;
}

static inline void hal_wr(uint32_t core_addr, uint32_t value)
{
  *(volatile uint32_t *)(uintptr_t)core_addr = value;
}

/* In crt0.S: the store sits at the label hal_wr_try_store; a store access fault there (the
 * target answered err = 1) is recovered by the trap handler, which returns 1. */
int hal_wr_try(uint32_t core_addr, uint32_t value);

/* 64-bit counter read on RV32: high, low, high again until the high word is stable. */
#define CP_HAL_READ_CSR64(lo, hi)                                        \
  do {                                                                   \
    uint32_t h0_, l_, h1_;                                               \
    do {                                                                 \
      __asm__ volatile("csrr %0, " hi : "=r"(h0_));                      \
      __asm__ volatile("csrr %0, " lo : "=r"(l_));                       \
      __asm__ volatile("csrr %0, " hi : "=r"(h1_));                      \
    } while (h0_ != h1_);                                                \
    v_ = ((uint64_t)h1_ << 32) | l_;                                     \
  } while (0)

static inline uint64_t hal_mcycle(void)
{
  uint64_t v_;
  CP_HAL_READ_CSR64("mcycle", "mcycleh");
  return v_;
}

static inline uint64_t hal_minstret(void)
{
  uint64_t v_;
  CP_HAL_READ_CSR64("minstret", "minstreth");
  return v_;
}

#endif /* CP_FW_HOST */

/* Low 32 bits of mcycle: enough for per-step deltas, cheaper than the 64-bit read. */
static inline uint32_t hal_cycles32(void)
{
#ifdef CP_FW_HOST
  return (uint32_t)hal_mcycle();
#else
  uint32_t v;
  __asm__ volatile("csrr %0, mcycle" : "=r"(v));
  return v;
#endif
}

#ifdef __cplusplus
}
#endif

#endif /* CP_HAL_H */
