/* cp_fw_internal.h -- state and helpers shared by the firmware's source files (not an interface).
 *
 * The firmware is split by concern (docs/firmware.md, "Files"):
 *   cp_sched.c   queue scheduling: cp_fw_init, cp_fw_poll, a queue's turn, its wait checks
 *   cp_exec.c    packet execution: header checks, errors, every packet's implementation except
 *                those below, the general path and the fast path (ring and IBs) that both call them
 *   cp_sync.c    fences and DSIDs: FENCE, BARRIER_UPDATE / BARRIER_WAIT, DSID_SET, DSID_DELETE
 *   cp_perf.c    performance sampling: PERF_SAMPLE and the cp_fw_stats block
 *   cp_stream.c  the stream reader (fast paths inline below)
 *   cp_binning.c render passes and two-level binning: SET_BIN_MODE, BIND_VIS_BUFFER, the replay
 *
 * Each hardware queue has one cp_queue_t in DMEM. The scheduler gives every queue one turn per
 * round; a turn runs up to CP_TURN_STEPS steps of that queue, and a step either executes one
 * packet or checks the one condition the queue waits for. A turn ends early as soon as the
 * queue waits, halts or has nothing published, so a blocked queue never stalls another
 * (ARCHITECTURE.md section 4, "Queues"; the fairness bound is in docs/firmware.md).
 * The stream reader turns the fetch channels into a dword stream per level: 0 ring, 1 IB1,
 * 2 IB2 (docs/firmware.md, "Stream reader").
 * Functions take the queue's state pointer; the register addresses a queue uses are computed
 * once, at cp_fw_init.
 */
#ifndef CP_FW_INTERNAL_H
#define CP_FW_INTERNAL_H

#include <stdint.h>

#include "cp_fw.h"
#include "cp_hal.h"

/* Where a queue is between steps. WAIT_PIPE .. WAIT_BARRIER are the "waiting" phases of
 * QUEUE_STATE and must stay contiguous (cp_phase_waiting). */
enum cp_phase {
  CP_PH_IDLE = 0,       /* at a packet boundary: the next step reads a packet */
  CP_PH_WAIT_PIPE,      /* FENCE / BARRIER_UPDATE / DSID_DELETE: PIPE_DONE must reach last_push */
  CP_PH_CACHE_START,    /* FENCE: start slice-cache maintenance once no other one runs */
  CP_PH_WAIT_CACHE,     /* FENCE: CACHE_CTRL written, waiting for CACHE_STATUS.busy == 0 */
  CP_PH_SLC_ISSUE,      /* FENCE / DSID_DELETE: SLC command(s) to queue (retried while the SLC queue is full) */
  CP_PH_WAIT_SLC,       /* FENCE / DSID_DELETE: waiting for SLC CMD_COUNT.completed to reach our command */
  CP_PH_WAIT_BARRIER,   /* BARRIER_WAIT: barrier[id] >= value */
  CP_PH_WAIT_SKIP,      /* COND_EXEC at ring level: the dwords to skip are not all published yet */
  CP_PH_HALTED          /* an error was reported; nothing runs until the host clears the halt */
};

/* cp_queue_t.have_hdr */
enum cp_hdr_state {
  CP_HDR_NONE = 0,
  CP_HDR_WAIT,          /* checked; waiting for the rest of the packet to be published */
  CP_HDR_UNCHECKED      /* read by the fast path, not checked yet (only within a turn) */
};

/* What a FENCE, BARRIER_UPDATE or DSID_DELETE does once its waits are over. */
enum cp_sync_kind {
  CP_SYNC_WRITE = 0,    /* write value to addr through the GPU window (FENCE, DSID_DELETE) */
  CP_SYNC_BARRIER       /* barrier[addr] = value (BARRIER_UPDATE) */
};

typedef struct {
  /* ring (level 0), read through fetch channel 3q */
  uint32_t base;        /* ring byte address */
  uint32_t size;        /* dwords (2^log2) */
  uint32_t mask;        /* size - 1 */
  uint32_t rptr;        /* committed read pointer: first dword of the next packet */
  uint32_t rd;          /* ring index of the next dword the firmware reads */
  uint32_t run_left;    /* dwords of the channel's run not yet read (run = rd .. rd+run_left) */
  uint32_t wptr;        /* the host's write pointer, as last read */

  /* indirect buffers: index 1 (IB1) and 2 (IB2); index 0 unused */
  uint32_t ib_addr[CP_LEVELS];   /* GPU byte address of the next dword */
  uint32_t ib_left[CP_LEVELS];   /* dwords not yet read */

  /* core addresses of this queue's registers (set once by cp_fw_init) */
  uint32_t reg_wptr;             /* CPFW QUEUE[q].WPTR */
  uint32_t reg_rptr;             /* CPFW QUEUE[q].RPTR */
  uint32_t reg_data[CP_LEVELS];  /* CPFW FETCH[3q+level].DATA */

  uint8_t id;           /* queue number */
  uint8_t chan_ok;      /* the ring channel's run ends at rd + run_left < size: FETCH_EXTEND may grow it */
  uint8_t level;        /* 0 ring, 1 IB1, 2 IB2 */
  uint8_t dsid;         /* current hardware DSID (DSID_SET); 0 at the start of every IB; pushed
                           as DSID_SET on every packet and IB-boundary change (cp_dsid_push) */
  uint8_t dsid_saved[CP_LEVELS]; /* the caller's DSID, restored when this level returns */
  uint8_t phase;        /* enum cp_phase */
  uint8_t synced;       /* ring configuration read since the queue was (re)enabled */
  uint8_t halt_seen;    /* CP_PH_HALTED and the RTL's halted bit has been seen set */
  uint8_t have_hdr;     /* ring level: CP_HDR_* (a header read from the channel is held) */
  uint8_t pushed;       /* pipeline commands pushed since last_push was last read */
  uint8_t inflight;     /* pipeline commands of this queue may be incomplete (last_push) */
  uint8_t bad_config;   /* RING_SIZE invalid: the queue is not served (reported once) */

  uint32_t hdr;         /* header of the packet in progress */
  uint32_t pkt_pos;     /* where that header was: ring index (level 0) or GPU byte address */
  uint8_t pkt_level;    /* level the packet was read from */
  uint8_t stat;         /* its cp_fw_stats.op index */

  /* wait state of FENCE / BARRIER_UPDATE / DSID_DELETE / BARRIER_WAIT / COND_EXEC skip */
  uint8_t sync_kind;
  uint8_t cache_ctrl;   /* CACHE_CTRL value to write (0: no slice-cache maintenance) */
  uint8_t slc_n;        /* SLC commands to issue */
  uint8_t slc_i;        /* SLC commands issued so far */
  uint8_t slc_op[2];    /* TS_SLC_CMD_* */
  uint8_t slc_dsid;
  uint8_t irq;          /* raise INT_STATUS.fence bit q after the write */
  uint32_t slc_target;  /* CMD_COUNT.issued after our last command */
  uint32_t addr;        /* fence address, or barrier id */
  uint32_t value;       /* fence value, or barrier value */
  uint32_t skip;        /* COND_EXEC dwords to skip */

  uint32_t last_push;   /* PIPE_ISSUED right after this queue's last push: its commands are all
                           complete once PIPE_DONE reaches it (commands complete in push order) */
  uint32_t fetch_bit0;  /* FETCH_ERR bit of the ring channel (1 << 3q); level l: << l */
  uint32_t fws_exec;    /* CP_FWS(CP_FWS_EXEC, q, 0, 0, 0) */

  /* binning state (SET_BIN_MODE, BIND_VIS_BUFFER) and the open render pass (cp_binning.c) */
  uint32_t bin_mode;    /* SET_BIN_MODE dword 0 as received (mode, fine size, order, vis_first) */
  uint32_t bin_grid;    /* SET_BIN_MODE dword 1 (coarse_x, coarse_y) */
  uint32_t vis_addr;    /* BIND_VIS_BUFFER */
  uint32_t vis_size;
  uint32_t rp_payload[TS_PKT_RENDERPASS_BEGIN_LEN]; /* re-sent at every replay */
  uint32_t rp_begin_pos; /* the BEGIN header: ring index (RPTR stays there during a ring pass) */
  uint32_t rp_body_pos;  /* the body's first dword: ring index or GPU byte address */
  uint32_t rp_body_left; /* IB level: dwords left in the IB at the body's start */
  uint32_t rp_end_pos;   /* where the RENDERPASS_END header must be (same units) */
  uint16_t rp_pass;      /* passes run so far (the visibility pass is pass 0) */
  uint16_t rp_passes;    /* passes in all: 1 (PBB), or the visibility pass + the replays */
  uint16_t rp_nx, rp_ny; /* the coarse grid, in coarse bins */
  uint8_t rp_w, rp_h;    /* coarse bin size in 64-pixel blocks */
  uint8_t rp_bx, rp_by;  /* the target in 64-pixel blocks */
  uint8_t rp_active;     /* a RENDERPASS_BEGIN has not met its last RENDERPASS_END */
  uint8_t rp_level;      /* the level of its body */
  uint8_t rp_two_level;  /* the pass replays per coarse bin */
} cp_queue_t;

static inline int cp_phase_waiting(uint32_t phase)
{
  return phase - CP_PH_WAIT_PIPE <= CP_PH_WAIT_BARRIER - CP_PH_WAIT_PIPE;
}

/* Header checks per cp_fw_stats.op index (cp_exec.c: constant tables in ROM, indexed by
 * cp_opidx_x[opcode]), so a packet's check is two lookups. */
typedef struct {
  uint16_t min_len;
  uint16_t span;        /* max_len - min_len */
  uint16_t bad_flags;   /* header bits 15:8 the packet does not define (must be 0) */
  uint16_t pad;
} cp_opinfo_t;

typedef struct {
  cp_queue_t q[CP_MAX_QUEUES];
  uint32_t barrier[CP_NUM_BARRIERS];
  uint32_t num_queues;
  uint64_t mem_limit;     /* limit for the pipeline and fetch channels: MEM_LIMIT (0 = 4 GiB) */
  uint64_t win_limit;     /* limit for GPU-window accesses: min(MEM_LIMIT, 0x8000_0000) */
  uint32_t queue_state;   /* last value written to QUEUE_STATE */
  uint32_t fw_status;     /* last value written to FW_STATUS */
} cp_fw_t;

extern cp_fw_t cp_fw;

/* ---- stream reader (cp_stream.c; fast paths inline) ---- */
/* Skips up to this many dwords by reading them; longer skips restart the channel. */
#define CP_SKIP_READ_MAX 8u

/* Reads the ring configuration and the committed RPTR; resets the queue to the ring level.
 * Returns 0 if RING_SIZE is invalid. */
int cp_stream_sync(cp_queue_t *st);
/* Ring level: grow the ring channel's run over what is published (st->wptr). */
void cp_stream_ring_topup(cp_queue_t *st);
/* Skip n dwords at the current level (must exist and, at ring level, be published). */
void cp_stream_skip(cp_queue_t *st, uint32_t n);
/* Start executing an IB of size (> 0) dwords at addr one level down. */
void cp_stream_ib_call(cp_queue_t *st, uint32_t addr, uint32_t size);
/* Return from every finished IB (level > 0 with no dword left). */
void cp_stream_ib_return_finished(cp_queue_t *st);
/* Position level's stream at pos (ring index, or GPU byte address with left dwords to its IB's
 * end): a render pass replays its body from there (cp_binning.c). */
void cp_stream_rewind(cp_queue_t *st, uint32_t level, uint32_t pos, uint32_t left);

/* Ring level: the host's WPTR w (already masked); if it moved, grow the channel's run. */
static inline void cp_stream_ring_update(cp_queue_t *st, uint32_t w)
{
  if (w != st->wptr) {
    st->wptr = w;
    cp_stream_ring_topup(st);
  }
}

/* Ring level: read WPTR and, if it moved, grow the channel's run. */
static inline void cp_stream_ring_refresh(cp_queue_t *st)
{
  cp_stream_ring_update(st, TS_CPFW_WPTR_PTR_GET(hal_rd(st->reg_wptr)) & st->mask);
}

/* Ring level: dwords published beyond the read position. */
static inline uint32_t cp_stream_ring_avail(const cp_queue_t *st)
{
  return (st->wptr - st->rd) & st->mask;
}

/* Next dword at the queue's current level (must exist: published, or inside the IB). */
static inline uint32_t cp_stream_read(cp_queue_t *st)
{
  const uint32_t level = st->level;
  if (level == 0) {
    if (st->run_left == 0)
      cp_stream_ring_topup(st); /* after the wrap to RING_BASE, or a repositioning skip */
    const uint32_t v = hal_rd(st->reg_data[0]);
    st->run_left--;
    if (++st->rd == st->size) {
      /* Runs never cross the ring's end: the next one starts at RING_BASE. */
      st->rd = 0;
      st->chan_ok = 0;
    }
    return v;
  }
  const uint32_t v = hal_rd(st->reg_data[level]);
  st->ib_addr[level] += 4u;
  st->ib_left[level]--;
  return v;
}

/* The next n dwords at the current level into buf (they must exist, as for cp_stream_read).
 * Fast path: the dwords lie inside the channel's current run and do not end the ring (a run
 * never crosses the ring's end, so n < run_left implies rd + n < size), so the bookkeeping is
 * done once, not per dword. buf may be 0 (skip by reading). */
static inline __attribute__((always_inline)) void cp_stream_read_n(cp_queue_t *st, uint32_t *buf,
                                                                  uint32_t n)
{
  const uint32_t level = st->level;
  if (level == 0) {
    if (n >= st->run_left) {
      for (uint32_t i = 0; i < n; i++) {
        const uint32_t v = cp_stream_read(st);
        if (buf)
          buf[i] = v;
      }
      return;
    }
    st->run_left -= n;
    st->rd += n;
  } else {
    st->ib_addr[level] += 4u * n;
    st->ib_left[level] -= n;
  }
  const uint32_t reg = st->reg_data[level];
  for (uint32_t i = 0; i < n; i++) {
    const uint32_t v = hal_rd(reg);
    if (buf)
      buf[i] = v;
  }
}

/* GPU byte address of the next dword at the current level. */
static inline uint32_t cp_stream_addr(const cp_queue_t *st)
{
  return st->level == 0 ? st->base + 4u * st->rd : st->ib_addr[st->level];
}

/* Ring level: commit RPTR = read position (after a whole packet). */
static inline void cp_stream_commit(cp_queue_t *st)
{
  /* A render pass in the ring keeps RPTR at its RENDERPASS_BEGIN until its last pass has
   * ended: the host must not overwrite a body that is still to be replayed. */
  if (st->rp_active && st->rp_level == 0)
    return;
  st->rptr = st->rd;
  hal_wr(st->reg_rptr, TS_CPFW_RPTR_PTR_PUT(st->rd));
}

/* ---- small helpers ---------------------------------------------------------------------- */

#define CP_INLINE static inline __attribute__((always_inline))
#define CP_COLD __attribute__((noinline, cold))
/* The general path, now that both ring and IBs have a fast path, runs only the rarer packets
 * (FENCE, INDIRECT_BUFFER, render passes, DSIDs, long NOPs, errors): optimised for size, so the
 * firmware fits its 16 KiB ROM (docs/firmware.md "ROM budget"). Not on the host build. */
#ifdef CP_FW_HOST
#define CP_SMALL
#else
#define CP_SMALL __attribute__((optimize("Os")))
#endif

#define SLC_REG(off) REGWIN(TS_SLC_BASE_ADDR + (off))

/* Largest fixed payload the firmware reads into a local buffer (every packet but NOP and
 * SET_REGS has a fixed payload of at most this many dwords). */
#define CP_MAX_FIXED_LEN 8u

/* FW_STATUS, written only when it changes. */
CP_INLINE void cp_fw_status(uint32_t v)
{
  if (v != cp_fw.fw_status) {
    cp_fw.fw_status = v;
    hal_wr(CPFW(TS_CPFW_FW_STATUS_OFFSET), v);
  }
}

#ifdef CP_FW_HOST
/* Host build: cp_fw_init runs before every test, so it clears what crt0 clears on the core. */
static inline void cp_zero(void *p, uint32_t bytes)
{
  uint32_t *w = (uint32_t *)p; /* the blocks are word aligned and a whole number of words */
  for (bytes /= 4u; bytes != 0; bytes--)
    *w++ = 0;
}
#endif

/* addr .. addr+bytes-1 lies below limit (limit up to 2^32). */
CP_INLINE int cp_range_ok(uint64_t limit, uint32_t addr, uint64_t bytes)
{
  return (uint64_t)addr < limit && bytes <= limit - addr;
}

/* Addresses the pipeline or the fetch channels use: anywhere in GPU memory. */
CP_INLINE int cp_mem_ok(uint32_t addr, uint32_t align, uint64_t bytes)
{
  return (addr & (align - 1u)) == 0 && cp_range_ok(cp_fw.mem_limit, addr, bytes);
}

/* Addresses the firmware itself reads or writes through the GPU window (below 0x8000_0000). */
CP_INLINE int cp_win_ok(uint32_t addr, uint32_t align, uint64_t bytes)
{
  return (addr & (align - 1u)) == 0 && cp_range_ok(cp_fw.win_limit, addr, bytes);
}

/* ---- opcode tables (cp_exec.c) ----------------------------------------------------------- */
/* cp_fw_stats.op index of each opcode, stored XOR CP_STATS_OTHER so that the entries left 0
 * (unknown opcodes) read as CP_STATS_OTHER. */
extern const uint8_t cp_opidx_x[256];
/* Header checks per stats index. */
extern const cp_opinfo_t cp_opinfo[CP_STATS_NUM_OPS];
/* TS_OP_* per stats index (CP_STATS_OTHER: 0xff). */
extern const uint8_t cp_stats_opcodes[CP_STATS_NUM_OPS];

CP_INLINE uint32_t cp_op_index(uint32_t opcode)
{
  return (uint32_t)cp_opidx_x[opcode & 0xffu] ^ CP_STATS_OTHER;
}

/* ---- errors (cp_exec.c) ------------------------------------------------------------------ */
/* Report code for the packet st->hdr (at st->pkt_pos, st->pkt_level) and halt the queue. */
void cp_report_error(cp_queue_t *st, uint32_t code);

/* ---- render passes and two-level binning (cp_binning.c) ----------------------------------- */
void cp_exec_set_bin_mode(cp_queue_t *st, const uint32_t *pl);
void cp_exec_bind_vis_buffer(cp_queue_t *st, const uint32_t *pl);
void cp_exec_set_prefetch(cp_queue_t *st, const uint32_t *pl);
void cp_renderpass_begin(cp_queue_t *st, const uint32_t *pl);
void cp_renderpass_end(cp_queue_t *st);
/* Inside an open render pass: the packet st->hdr at st->pkt_pos lies inside the body (or is
 * its RENDERPASS_END, exactly at the end). Otherwise body_size was wrong: a ring pass would
 * hold RPTR forever, so it is reported (BAD_LENGTH) where it is found. */
int cp_rp_packet_in_body(const cp_queue_t *st);

/* ---- pipeline commands ------------------------------------------------------------------- */

/* PIPE_PUSH without the opcode and nargs fields: the queue and its current DSID. */
CP_INLINE uint32_t cp_push_base(const cp_queue_t *st)
{
  return TS_CPFW_PIPE_PUSH_QUEUE_PUT(st->id) | TS_CPFW_PIPE_PUSH_DSID_PUT(st->dsid);
}

/* One pipeline command: the nargs arguments, then PIPE_PUSH = push_base | opcode | nargs.
 * Inlined where nargs is a constant, so the argument stores are unrolled. */
CP_INLINE void cp_pipe_push_as(cp_queue_t *st, uint32_t push_base, uint32_t op, uint32_t nargs,
                               const uint32_t *args)
{
  for (uint32_t i = 0; i < nargs; i++)
    hal_wr(CPFW(TS_CPFW_ARG_OFFSET_N(i)), args[i]);
  hal_wr(CPFW(TS_CPFW_PIPE_PUSH_OFFSET),
         push_base | TS_CPFW_PIPE_PUSH_OPCODE_PUT(op) | TS_CPFW_PIPE_PUSH_NARGS_PUT(nargs));
  st->pushed = 1;
}

CP_INLINE void cp_pipe_push(cp_queue_t *st, uint32_t op, uint32_t nargs, const uint32_t *args)
{
  cp_pipe_push_as(st, cp_push_base(st), op, nargs, args);
}

/* After pushes: last_push = PIPE_ISSUED, read once per turn (or before a FENCE-like packet of
 * the same turn) rather than after every push; no other queue pushes in between, so it is
 * the value right after this queue's last push. */
CP_INLINE void cp_note_pushes(cp_queue_t *st)
{
  if (st->pushed) {
    st->last_push = TS_CPFW_PIPE_ISSUED_COUNT_GET(hal_rd(CPFW(TS_CPFW_PIPE_ISSUED_OFFSET)));
    st->inflight = 1;
    st->pushed = 0;
  }
}

/* ---- packet execution (cp_exec.c) -------------------------------------------------------- */
/* What cp_exec_next did: the cp_fw_stats.op index to charge the step to, or CP_STEP_NONE
 * (nothing to execute: not a step). */
#define CP_STEP_NONE 0xffu
/* One step of an idle queue: read the next packet's header at the current level, check it
 * and execute the packet (general path). */
uint32_t cp_exec_next(cp_queue_t *st);
/* Queue idle, no header held, not in a render pass opened in the ring: execute the packets
 * inside the current level's channel run, the ring's or an IB's (fast path). *steps: steps
 * left in the turn (decremented per packet); *t0: mcycle at the start of the step (the
 * statistics). At IB level it stops at the IB's end without returning from it. */
void cp_exec_fast(cp_queue_t *st, uint32_t *steps, uint32_t *t0);

/* ---- fences and DSIDs (cp_sync.c) -------------------------------------------------------- */
void cp_exec_fence(cp_queue_t *st, const uint32_t *pl);
void cp_exec_barrier_update(cp_queue_t *st, const uint32_t *pl);
void cp_exec_barrier_wait(cp_queue_t *st, const uint32_t *pl);
void cp_exec_dsid_set(cp_queue_t *st, const uint32_t *pl);
void cp_exec_dsid_delete(cp_queue_t *st, const uint32_t *pl);
/* A wait check of FENCE / BARRIER_UPDATE / DSID_DELETE (phases WAIT_PIPE .. WAIT_SLC): advance
 * as far as the hardware allows now. */
void cp_sync_advance(cp_queue_t *st);
/* BARRIER_WAIT's condition: barrier[id] >= value, unsigned. */
int cp_barrier_reached(uint32_t id, uint32_t value);
/* Push DSID_SET {st->dsid} for the queue (a DSID_SET packet, or a DSID change at an IB call
 * or return). */
void cp_dsid_push(cp_queue_t *st);

/* ---- performance sampling (cp_perf.c) ---------------------------------------------------- */
void cp_exec_perf_sample(cp_queue_t *st, const uint32_t *pl);
/* Resets cp_fw_stats (host build: zeroes it first) and fills in its constant fields. */
void cp_stats_init(void);

/* ---- console (cp_console.c) ---- */
void cp_con_puts(const char *s);
void cp_con_hex(uint32_t v);
void cp_con_dec(uint32_t v);

static inline uint32_t cp_fetch_channel(uint32_t q, uint32_t level)
{
  return 3u * q + level;
}

#endif /* CP_FW_INTERNAL_H */
