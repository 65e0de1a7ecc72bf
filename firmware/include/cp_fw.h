/* cp_fw.h -- the CP firmware's entry points and the data layouts other tools read.
 *
 * The firmware executes the command packets of ARCHITECTURE.md section 4 from the host rings
 * (docs/firmware.md). Benches and the driver rely on three layouts defined here:
 *  - the PERF_SAMPLE block written to memory (CP_PERF_*),
 *  - the statistics block in DMEM at the ELF symbol `cp_fw_stats` (cp_fw_stats_t),
 *  - the FW_STATUS encoding of the main-loop phase (CP_FWS_*).
 */
#ifndef CP_FW_H
#define CP_FW_H

#include <stdint.h>

#include "tessera_spec.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CP_FW_VERSION 1u

/* Hardware queues the firmware can serve (HW_CONFIG.num_queues may say fewer). */
#define CP_MAX_QUEUES TS_CPFW_QUEUE_COUNT
/* Levels of a queue: 0 ring, 1 IB1, 2 IB2 (fetch channel 3 * queue + level). */
#define CP_LEVELS 3u
#define CP_NUM_BARRIERS 16u

/* ---- PERF_SAMPLE block: 16 dwords (one 64-byte line) written at the packet's addr ---------- */
#define CP_PERF_MAGIC 0x50455246u /* "PERF" */
#define CP_PERF_DWORDS 16u
enum {
  CP_PERF_MAGIC_DW = 0,        /* CP_PERF_MAGIC */
  CP_PERF_VERSION_DW = 1,      /* bits 7:0 layout version (1), bits 15:8 queue of the sample,
                                  bits 23:16 ib level of the PERF_SAMPLE packet */
  CP_PERF_MCYCLE_LO_DW = 2,    /* CP core mcycle, sampled when the block is written */
  CP_PERF_MCYCLE_HI_DW = 3,
  CP_PERF_MINSTRET_LO_DW = 4,  /* CP core minstret */
  CP_PERF_MINSTRET_HI_DW = 5,
  CP_PERF_PACKETS_Q0_DW = 6,   /* packets executed by queue 0 (all levels) */
  CP_PERF_PACKETS_Q1_DW = 7,   /* packets executed by queue 1 */
  CP_PERF_PIPE_ISSUED_DW = 8,  /* CPFW.PIPE_ISSUED */
  CP_PERF_PIPE_DONE_DW = 9,    /* CPFW.PIPE_DONE */
  CP_PERF_SLC_HITS_DW = 10,    /* SLC CNT_HITS */
  CP_PERF_SLC_MISSES_DW = 11,  /* SLC CNT_MISSES */
  CP_PERF_SLC_WRITEBACKS_DW = 12, /* SLC CNT_WRITEBACKS (DRAM write bytes = 64 x this) */
  CP_PERF_SLC_FILLS_DW = 13,   /* SLC CNT_FILLS (DRAM read bytes = 64 x this) */
  CP_PERF_SLC_DELETED_DIRTY_DW = 14, /* SLC CNT_DELETED_DIRTY (write bytes saved = 64 x this) */
  CP_PERF_FRAME_DW = 15        /* frame_id of the last FRAME_END (any queue) */
};
#define CP_PERF_LAYOUT_VERSION 1u

/* ---- statistics in DMEM, ELF symbol `cp_fw_stats` ------------------------------------------ */
#define CP_STATS_MAGIC 0x43505354u /* "CPST" */
/* One entry per packet type in the order of spec/packets.yaml, plus CP_STATS_OTHER for steps
 * that executed no packet (a packet only partly published, a header that failed its check with
 * an unknown opcode). The idle loop's empty-ring checks are not counted anywhere. */
#define CP_STATS_NUM_OPS 18u
#define CP_STATS_OTHER 17u

typedef struct {
  uint32_t opcode;       /* TS_OP_* (0xff for the CP_STATS_OTHER entry) */
  uint32_t count;        /* packets of this type whose header passed its checks */
  uint32_t cycles;       /* mcycle spent in queue steps for this type, wait checks included
                            (32 bits: wraps after 2^32 cycles) */
  uint32_t wait_checks;  /* steps that only checked a wait condition (barrier, PIPE_DONE, ...) */
} cp_fw_op_stat_t;

typedef struct {
  uint32_t magic;        /* CP_STATS_MAGIC once cp_fw_init ran */
  uint32_t version;      /* CP_FW_VERSION */
  uint32_t num_ops;      /* CP_STATS_NUM_OPS */
  uint32_t polls;        /* cp_fw_poll calls */
  uint32_t packets[CP_MAX_QUEUES]; /* packets executed per queue */
  uint32_t errors;       /* errors reported (ERROR_REPORT writes) */
  uint32_t slc_retries;  /* SLC CMD writes answered with an error (queue full) and retried */
  uint32_t last_frame;   /* frame_id of the last FRAME_END */
  uint32_t reserved;
  cp_fw_op_stat_t op[CP_STATS_NUM_OPS];
} cp_fw_stats_t;

extern cp_fw_stats_t cp_fw_stats;

/* Index of an opcode in cp_fw_stats.op (CP_STATS_OTHER if unknown). */
uint32_t cp_fw_op_index(uint32_t opcode);

/* ---- FW_STATUS: the main-loop phase, for waveforms ----------------------------------------- */
/* bits 31:28 phase, 27:24 queue, 23:16 opcode, 15:8 level, 7:0 wait phase or error code.
 * 0xB0070000 boot (crt0), 0xDEAD0000 | mcause: fatal trap. */
#define CP_FWS_BOOT      0xB0070000u /* crt0 running (before main) */
#define CP_FWS_INIT      0x10000000u /* cp_fw_init */
#define CP_FWS_IDLE      0x20000000u /* scheduler: between queue steps */
#define CP_FWS_EXEC      0x30000000u /* executing a packet */
#define CP_FWS_WAIT      0x40000000u /* checking a wait condition */
#define CP_FWS_ERROR     0x50000000u /* reporting an error */
#define CP_FWS_TRAP      0xDEAD0000u /* | mcause: unexpected trap, the core spins */
#define CP_FWS(phase, q, op, level, st) \
  ((phase) | ((uint32_t)(q) << 24) | ((uint32_t)(op) << 16) | ((uint32_t)(level) << 8) | (uint32_t)(st))

/* ---- entry points ---------------------------------------------------------------------------- */
/* Resets all firmware state (barriers, queue state, statistics) and reads the hardware
 * configuration. Called once by main() on the target and before each test on the host. */
void cp_fw_init(void);
/* One scheduler round: every enabled, not halted queue gets one turn, in queue order: up to
 * 16 steps (a step is one packet or one wait check), ending early when the queue waits, halts
 * or has nothing to execute (docs/firmware.md, "Main loop and scheduler"). main() calls it
 * forever. */
void cp_fw_poll(void);

/* Barrier values (for tests and the bench). */
uint32_t cp_fw_barrier(uint32_t id);

#ifdef CP_FW_HOST
/* Host build only, for the tests (firmware/test): 0 turns the ring fast path off, so a packet
 * stream can be run through the general path alone and compared with a run that takes the
 * fast path (default 1; cp_fw_init leaves it as it is). */
extern int cp_fw_host_fast_path;
/* Host build only: packets the ring fast path executed since cp_fw_init. */
extern uint32_t cp_fw_host_fast_packets;
#endif

#ifdef __cplusplus
}
#endif

#endif /* CP_FW_H */
