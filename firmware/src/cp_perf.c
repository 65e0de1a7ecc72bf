/* cp_perf.c -- the CP firmware's performance sampling: the PERF_SAMPLE packet and the
 * statistics block `cp_fw_stats` (layouts in cp_fw.h; docs/firmware.md, "PERF_SAMPLE block" and
 * "Statistics in DMEM"). The per-step cycle accounting itself is done where the steps run (the
 * turn in cp_sched.c, the fast path in cp_exec.c): one mcycle read per step.
 */
#include "cp_fw_internal.h"

cp_fw_stats_t cp_fw_stats;

_Static_assert(CP_MAX_QUEUES >= 2, "PERF_SAMPLE reports two queues");

uint32_t cp_fw_op_index(uint32_t opcode)
{
  return opcode <= 0xffu ? cp_op_index(opcode) : CP_STATS_OTHER;
}

void cp_stats_init(void)
{
#ifdef CP_FW_HOST
  cp_zero(&cp_fw_stats, sizeof cp_fw_stats); /* on the core crt0 has just cleared .bss */
#endif
  cp_fw_stats.magic = CP_STATS_MAGIC;
  cp_fw_stats.version = CP_FW_VERSION;
  cp_fw_stats.num_ops = CP_STATS_NUM_OPS;
  for (uint32_t i = 0; i < CP_STATS_NUM_OPS; i++)
    cp_fw_stats.op[i].opcode = cp_stats_opcodes[i];
}

/* PERF_SAMPLE: the 16-dword block (cp_fw.h CP_PERF_*) through the GPU window at addr. */
void cp_exec_perf_sample(cp_queue_t *st, const uint32_t *pl)
{
  const uint32_t addr = TS_PKT_PERF_SAMPLE_ADDR_GET(pl[TS_PKT_PERF_SAMPLE_ADDR_DW]);
  if (!cp_win_ok(addr, 64, CP_PERF_DWORDS * 4u)) {
    cp_report_error(st, TS_CP_ERROR_BAD_ADDRESS);
    return;
  }
  uint32_t blk[CP_PERF_DWORDS];
  const uint64_t cycles = hal_mcycle();
  const uint64_t instret = hal_minstret();
  blk[CP_PERF_MAGIC_DW] = CP_PERF_MAGIC;
  blk[CP_PERF_VERSION_DW] =
      CP_PERF_LAYOUT_VERSION | ((uint32_t)st->id << 8) | ((uint32_t)st->pkt_level << 16);
  blk[CP_PERF_MCYCLE_LO_DW] = (uint32_t)cycles;
  blk[CP_PERF_MCYCLE_HI_DW] = (uint32_t)(cycles >> 32);
  blk[CP_PERF_MINSTRET_LO_DW] = (uint32_t)instret;
  blk[CP_PERF_MINSTRET_HI_DW] = (uint32_t)(instret >> 32);
  blk[CP_PERF_PACKETS_Q0_DW] = cp_fw_stats.packets[0];
  blk[CP_PERF_PACKETS_Q1_DW] = cp_fw_stats.packets[1];
  blk[CP_PERF_PIPE_ISSUED_DW] = hal_rd(CPFW(TS_CPFW_PIPE_ISSUED_OFFSET));
  blk[CP_PERF_PIPE_DONE_DW] = hal_rd(CPFW(TS_CPFW_PIPE_DONE_OFFSET));
  blk[CP_PERF_SLC_HITS_DW] = hal_rd(SLC_REG(TS_SLC_CNT_HITS_OFFSET));
  blk[CP_PERF_SLC_MISSES_DW] = hal_rd(SLC_REG(TS_SLC_CNT_MISSES_OFFSET));
  blk[CP_PERF_SLC_WRITEBACKS_DW] = hal_rd(SLC_REG(TS_SLC_CNT_WRITEBACKS_OFFSET));
  blk[CP_PERF_SLC_FILLS_DW] = hal_rd(SLC_REG(TS_SLC_CNT_FILLS_OFFSET));
  blk[CP_PERF_SLC_DELETED_DIRTY_DW] = hal_rd(SLC_REG(TS_SLC_CNT_DELETED_DIRTY_OFFSET));
  blk[CP_PERF_FRAME_DW] = cp_fw_stats.last_frame;
  for (uint32_t i = 0; i < CP_PERF_DWORDS; i++)
    hal_wr(GPUWIN(addr + 4u * i), blk[i]);
}
