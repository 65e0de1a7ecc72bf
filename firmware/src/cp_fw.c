/* cp_fw.c -- the CP firmware's scheduler and packet execution (ARCHITECTURE.md sections 4 and
 * 5.1; packet semantics in spec/packets.yaml; registers in spec/registers/cpfw.yaml).
 *
 * The hardware queues are served round-robin: cp_fw_poll gives each enabled, not halted queue
 * one turn of up to CP_TURN_STEPS steps; a step executes one packet or checks the one
 * condition the queue waits for (BARRIER_WAIT, FENCE / BARRIER_UPDATE / DSID_DELETE
 * completion, a COND_EXEC skip not yet published). Waiting never blocks: the turn ends, the
 * queue's state stays in DMEM and the next queue runs.
 * DSID ordering follows the Apple DSID source (seeds/002): the delete hint goes to the SLC only
 * after the queue's earlier work is complete, and the fence is written after the SLC reports
 * completion. COND_EXEC is the GPU-side patching mechanism of the AMD binning source (seeds/000).
 * docs/firmware.md describes the structure, the choices and the deviations.
 */
#include "cp_fw_internal.h"

cp_fw_t cp_fw;
cp_fw_stats_t cp_fw_stats;

#define CP_NO_OP 0xffu

/* RENDERPASS_BEGIN is the longest packet forwarded to the pipeline with its payload as args. */
_Static_assert(TS_PKT_RENDERPASS_BEGIN_LEN <= TS_CPFW_PIPE_ARG_COUNT, "payload must fit PIPE_ARG");
_Static_assert(TS_PKT_DRAW_LEN <= TS_CPFW_PIPE_ARG_COUNT, "payload must fit PIPE_ARG");
_Static_assert(CP_MAX_QUEUES * CP_LEVELS <= TS_CPFW_FETCH_COUNT, "3 fetch channels per queue");
_Static_assert(CP_MAX_QUEUES >= 2, "PERF_SAMPLE reports two queues");

/* Largest fixed payload the firmware reads into a local buffer. */
#define CP_MAX_FIXED_LEN 8u

/* Steps (packets, or wait checks) one queue may run in one turn before the other queue gets
 * its turn: the fairness bound of the scheduler (docs/firmware.md, "Main loop"). */
#define CP_TURN_STEPS 16u

#define CP_INLINE static inline __attribute__((always_inline))
#define CP_COLD __attribute__((noinline, cold))

#define SLC_REG(off) REGWIN(TS_SLC_BASE_ADDR + (off))

/* ---- small helpers --------------------------------------------------------------------------- */

CP_INLINE void fw_status(uint32_t v)
{
  if (v != cp_fw.fw_status) {
    cp_fw.fw_status = v;
    hal_wr(CPFW(TS_CPFW_FW_STATUS_OFFSET), v);
  }
}

#ifdef CP_FW_HOST
static void zero(void *p, uint32_t bytes)
{
  uint32_t *w = (uint32_t *)p; /* both blocks are word aligned and a whole number of words */
  for (bytes /= 4u; bytes != 0; bytes--)
    *w++ = 0;
}
#endif

/* cp_fw_stats.op index of each opcode, stored XOR CP_STATS_OTHER so that the entries left 0
 * (unknown opcodes) read as CP_STATS_OTHER. */
#define CP_OPX(i) ((uint8_t)((i) ^ CP_STATS_OTHER))
static const uint8_t cp_opidx_x[256] = {
    [TS_OP_NOP] = CP_OPX(0),             [TS_OP_INDIRECT_BUFFER] = CP_OPX(1),
    [TS_OP_COND_EXEC] = CP_OPX(2),       [TS_OP_SET_REGS] = CP_OPX(3),
    [TS_OP_SET_BIN_MODE] = CP_OPX(4),    [TS_OP_BIND_VIS_BUFFER] = CP_OPX(5),
    [TS_OP_DRAW] = CP_OPX(6),            [TS_OP_RENDERPASS_BEGIN] = CP_OPX(7),
    [TS_OP_RENDERPASS_END] = CP_OPX(8),  [TS_OP_FENCE] = CP_OPX(9),
    [TS_OP_BARRIER_UPDATE] = CP_OPX(10), [TS_OP_BARRIER_WAIT] = CP_OPX(11),
    [TS_OP_DSID_SET] = CP_OPX(12),       [TS_OP_DSID_DELETE] = CP_OPX(13),
    [TS_OP_FRAME_END] = CP_OPX(14),      [TS_OP_PERF_SAMPLE] = CP_OPX(15)};

/* Header checks per stats index (same order as cp_stats_opcodes below). */
#define CP_OPINFO(name, flags)                                                               \
  {TS_PKT_##name##_MIN_LEN, TS_PKT_##name##_MAX_LEN - TS_PKT_##name##_MIN_LEN,               \
   (uint16_t)(TS_PKT_HDR_FLAGS_MASK & ~(uint32_t)(flags)), 0}
static const cp_opinfo_t cp_opinfo[CP_STATS_NUM_OPS] = {
    CP_OPINFO(NOP, 0),
    CP_OPINFO(INDIRECT_BUFFER, 0),
    CP_OPINFO(COND_EXEC, 0),
    CP_OPINFO(SET_REGS, 0),
    CP_OPINFO(SET_BIN_MODE, 0),
    CP_OPINFO(BIND_VIS_BUFFER, 0),
    CP_OPINFO(DRAW, 0),
    CP_OPINFO(RENDERPASS_BEGIN, 0),
    CP_OPINFO(RENDERPASS_END, 0),
    /* the only packet with header flags */
    CP_OPINFO(FENCE, TS_PKT_FENCE_FLAG_FLUSH_MASK | TS_PKT_FENCE_FLAG_INVALIDATE_MASK |
                         TS_PKT_FENCE_FLAG_INTERRUPT_MASK),
    CP_OPINFO(BARRIER_UPDATE, 0),
    CP_OPINFO(BARRIER_WAIT, 0),
    CP_OPINFO(DSID_SET, 0),
    CP_OPINFO(DSID_DELETE, 0),
    CP_OPINFO(FRAME_END, 0),
    CP_OPINFO(PERF_SAMPLE, 0),
    {0, 0, 0, 0}};

CP_INLINE uint32_t op_index(uint32_t opcode)
{
  return (uint32_t)cp_opidx_x[opcode & 0xffu] ^ CP_STATS_OTHER;
}

uint32_t cp_fw_op_index(uint32_t opcode)
{
  return opcode <= 0xffu ? op_index(opcode) : CP_STATS_OTHER;
}

static const uint8_t cp_stats_opcodes[CP_STATS_NUM_OPS] = {
    TS_OP_NOP,            TS_OP_INDIRECT_BUFFER, TS_OP_COND_EXEC,      TS_OP_SET_REGS,
    TS_OP_SET_BIN_MODE,   TS_OP_BIND_VIS_BUFFER, TS_OP_DRAW,           TS_OP_RENDERPASS_BEGIN,
    TS_OP_RENDERPASS_END, TS_OP_FENCE,           TS_OP_BARRIER_UPDATE, TS_OP_BARRIER_WAIT,
    TS_OP_DSID_SET,       TS_OP_DSID_DELETE,     TS_OP_FRAME_END,      TS_OP_PERF_SAMPLE,
    CP_NO_OP};

uint32_t cp_fw_barrier(uint32_t id)
{
  return cp_fw.barrier[id % CP_NUM_BARRIERS];
}

/* BARRIER_WAIT: barrier[id] >= value, unsigned. */
static int barrier_reached(uint32_t id, uint32_t value)
{
  return cp_fw.barrier[id % CP_NUM_BARRIERS] >= value;
}

/* addr .. addr+bytes-1 lies below limit (limit up to 2^32). */
static int range_ok(uint64_t limit, uint32_t addr, uint64_t bytes)
{
  return (uint64_t)addr < limit && bytes <= limit - addr;
}

/* Addresses the pipeline or the fetch channels use: anywhere in GPU memory. */
static int mem_ok(uint32_t addr, uint32_t align, uint64_t bytes)
{
  return (addr & (align - 1u)) == 0 && range_ok(cp_fw.mem_limit, addr, bytes);
}

/* Addresses the firmware itself reads or writes through the GPU window (below 0x8000_0000). */
static int win_ok(uint32_t addr, uint32_t align, uint64_t bytes)
{
  return (addr & (align - 1u)) == 0 && range_ok(cp_fw.win_limit, addr, bytes);
}

/* ---- errors ---------------------------------------------------------------------------------- */

/* ERROR_ADDR, then ERROR_REPORT: the RTL records the first error for the host, sets
 * INT_STATUS.error and the queue's halted bit. The queue is not served again until the host
 * clears the halt (soft reset); RPTR stays at the offending ring packet. */
static CP_COLD void report_error(cp_queue_t *st, uint32_t code)
{
  const uint32_t q = st->id;
  const uint32_t op = TS_PKT_HDR_OPCODE_GET(st->hdr);
  const uint32_t pkt_addr = st->pkt_level == 0 ? st->base + 4u * st->pkt_pos : st->pkt_pos;
  fw_status(CP_FWS(CP_FWS_ERROR, q, op, st->pkt_level, code));
  hal_wr(CPFW(TS_CPFW_ERROR_ADDR_OFFSET), TS_CPFW_ERROR_ADDR_ADDR_PUT(pkt_addr));
  hal_wr(CPFW(TS_CPFW_ERROR_REPORT_OFFSET),
         TS_CPFW_ERROR_REPORT_CODE_PUT(code) | TS_CPFW_ERROR_REPORT_QUEUE_PUT(q) |
             TS_CPFW_ERROR_REPORT_IB_LEVEL_PUT(st->pkt_level) |
             TS_CPFW_ERROR_REPORT_OPCODE_PUT(op));
  st->phase = CP_PH_HALTED;
  st->halt_seen = 0;
  st->have_hdr = 0;
  cp_fw_stats.errors++;
  cp_con_puts("q");
  cp_con_dec(q);
  cp_con_puts(": error ");
  cp_con_dec(code);
  cp_con_puts(" opcode ");
  cp_con_hex(op);
  cp_con_puts(" level ");
  cp_con_dec(st->pkt_level);
  cp_con_puts(" at ");
  cp_con_hex(pkt_addr);
  cp_con_puts(", queue halted\n");
}

static CP_COLD void fetch_error(cp_queue_t *st, uint32_t bit)
{
  hal_wr(CPFW(TS_CPFW_FETCH_ERR_OFFSET), TS_CPFW_FETCH_ERR_CHANNEL_PUT(bit));
  report_error(st, TS_CP_ERROR_BAD_ADDRESS);
}

/* A dword of the packet came from a line the memory answered with an error (it read as 0). */
CP_INLINE int fetch_failed(cp_queue_t *st)
{
  const uint32_t bit = st->fetch_bit0 << st->pkt_level;
  const uint32_t err = TS_CPFW_FETCH_ERR_CHANNEL_GET(hal_rd(CPFW(TS_CPFW_FETCH_ERR_OFFSET)));
  if (__builtin_expect((err & bit) == 0, 1))
    return 0;
  fetch_error(st, bit);
  return 1;
}

/* Opcode, header flags and length of st->hdr; the packet must fit its buffer. */
static CP_COLD void header_error(cp_queue_t *st, const cp_opinfo_t *oi, uint32_t len)
{
  if (st->stat == CP_STATS_OTHER || (st->hdr & oi->bad_flags) != 0)
    report_error(st, TS_CP_ERROR_BAD_OPCODE);
  else if (len - oi->min_len > oi->span)
    report_error(st, TS_CP_ERROR_BAD_LENGTH);
  else
    report_error(st, TS_CP_ERROR_IB_OVERFLOW);
}

CP_INLINE int check_header(cp_queue_t *st)
{
  const uint32_t hdr = st->hdr;
  const uint32_t stat = op_index(hdr);
  const cp_opinfo_t *oi = &cp_opinfo[stat];
  const uint32_t len = TS_PKT_HDR_LENGTH_GET(hdr);
  /* Ring: a packet longer than the ring can publish (size - 1 dwords) would wait forever. */
  const uint32_t room = st->pkt_level == 0 ? st->size - 2u : st->ib_left[st->pkt_level];
  st->stat = (uint8_t)stat;
  /* One branch: the conditions are combined with | (the unknown-opcode entry has bad_flags 0
   * and span 0, so it is caught by the stat test alone). */
  const uint32_t bad = (uint32_t)(stat == CP_STATS_OTHER) | (uint32_t)((hdr & oi->bad_flags) != 0) |
                       (uint32_t)(len - oi->min_len > oi->span) | (uint32_t)(len > room);
  if (__builtin_expect(bad != 0, 0)) {
    header_error(st, oi, len);
    return 0;
  }
  return 1;
}

/* ---- pipeline commands ----------------------------------------------------------------------- */

CP_INLINE uint32_t pipe_push_word(const cp_queue_t *st, uint32_t op, uint32_t nargs)
{
  return TS_CPFW_PIPE_PUSH_OPCODE_PUT(op) | TS_CPFW_PIPE_PUSH_QUEUE_PUT(st->id) |
         TS_CPFW_PIPE_PUSH_DSID_PUT(st->dsid) | TS_CPFW_PIPE_PUSH_NARGS_PUT(nargs);
}

/* Inlined where nargs is a constant, so the argument stores are unrolled. */
CP_INLINE void pipe_push(cp_queue_t *st, uint32_t op, uint32_t nargs, const uint32_t *args)
{
  for (uint32_t i = 0; i < nargs; i++)
    hal_wr(CPFW(TS_CPFW_ARG_OFFSET_N(i)), args[i]);
  hal_wr(CPFW(TS_CPFW_PIPE_PUSH_OFFSET), pipe_push_word(st, op, nargs));
  st->pushed = 1;
}

/* DSID_SET to the pipeline: one argument, the queue's new DSID (also the command's dsid
 * field). Pushed for every DSID_SET packet and for every change of the DSID at an IB boundary
 * (cp_stream.c), so each queue's commands carry the DSID of its last DSID_SET command and the
 * binner closes its batch at every DSID change (docs/firmware.md, "DSID scope"). */
void cp_dsid_push(cp_queue_t *st)
{
  const uint32_t dsid = st->dsid;
  pipe_push(st, TS_OP_DSID_SET, 1, &dsid);
}

/* After pushes: last_push = PIPE_ISSUED, read once per turn (or before a FENCE-like packet of
 * the same turn) rather than after every push; no other queue pushes in between, so it is
 * the value right after this queue's last push. */
CP_INLINE void note_pushes(cp_queue_t *st)
{
  if (st->pushed) {
    st->last_push = TS_CPFW_PIPE_ISSUED_COUNT_GET(hal_rd(CPFW(TS_CPFW_PIPE_ISSUED_OFFSET)));
    st->inflight = 1;
    st->pushed = 0;
  }
}

/* ---- FENCE, BARRIER_UPDATE, DSID_DELETE: wait for earlier work, maintenance, then act ------- */

static void sync_begin(cp_queue_t *st, uint32_t kind, uint32_t addr, uint32_t value)
{
  st->sync_kind = (uint8_t)kind;
  st->addr = addr;
  st->value = value;
  st->cache_ctrl = 0;
  st->slc_n = 0;
  st->slc_i = 0;
  st->slc_dsid = 0;
  st->irq = 0;
  /* "Earlier work of the queue": this queue's pipeline commands, complete once PIPE_DONE
   * reaches last_push (the pipeline completes commands in push order). The other queue's
   * commands pushed after ours are not waited for. */
  note_pushes(st);
  st->phase = CP_PH_WAIT_PIPE;
}

/* Queue one SLC maintenance command. Returns 1 and the CMD_COUNT.issued number of the command
 * if the SLC took it, 0 if it was dropped because its command queue was full: either the write
 * was answered with an error (hal_wr_try) or CMD_COUNT.issued did not move. */
static int slc_issue(uint32_t op, uint32_t dsid, uint32_t *issued)
{
  const uint32_t before =
      TS_SLC_CMD_COUNT_ISSUED_GET(hal_rd(SLC_REG(TS_SLC_CMD_COUNT_OFFSET)));
  if (hal_wr_try(SLC_REG(TS_SLC_CMD_OFFSET),
                 TS_SLC_CMD_OP_PUT(op) | TS_SLC_CMD_DSID_PUT(dsid)) != 0)
    return 0;
  const uint32_t after = TS_SLC_CMD_COUNT_ISSUED_GET(hal_rd(SLC_REG(TS_SLC_CMD_COUNT_OFFSET)));
  if (after == before)
    return 0;
  *issued = after;
  return 1;
}

static void sync_finish(cp_queue_t *st)
{
  if (st->sync_kind == CP_SYNC_BARRIER) {
    cp_fw.barrier[st->addr % CP_NUM_BARRIERS] = st->value;
  } else {
    /* The store retires once the memory system acknowledged it (CP memory map). */
    hal_wr(GPUWIN(st->addr), st->value);
    if (st->irq)
      hal_wr(CPFW(TS_CPFW_INT_RAISE_OFFSET), TS_CPFW_INT_RAISE_FENCE_PUT(1u << st->id));
  }
  st->phase = CP_PH_IDLE;
}

static uint8_t sync_after_cache(const cp_queue_t *st)
{
  return st->slc_n != 0 ? CP_PH_SLC_ISSUE : CP_PH_IDLE;
}

/* Advance as far as the hardware allows now; return when something has to be waited for. */
static void sync_advance(cp_queue_t *st)
{
  for (;;) {
    switch (st->phase) {
      case CP_PH_WAIT_PIPE: {
        if (st->inflight) {
          const uint32_t done =
              TS_CPFW_PIPE_DONE_COUNT_GET(hal_rd(CPFW(TS_CPFW_PIPE_DONE_OFFSET)));
          if ((int32_t)(done - st->last_push) < 0)
            return;
          st->inflight = 0; /* every command of this queue is complete */
        }
        st->phase = st->cache_ctrl != 0 ? CP_PH_CACHE_START : sync_after_cache(st);
        break;
      }
      case CP_PH_CACHE_START:
        /* One slice-cache operation at a time: wait while another queue's one runs. */
        if (TS_CPFW_CACHE_STATUS_BUSY_GET(hal_rd(CPFW(TS_CPFW_CACHE_STATUS_OFFSET))))
          return;
        hal_wr(CPFW(TS_CPFW_CACHE_CTRL_OFFSET), st->cache_ctrl);
        st->phase = CP_PH_WAIT_CACHE;
        return; /* busy is checked from the next turn on */
      case CP_PH_WAIT_CACHE:
        if (TS_CPFW_CACHE_STATUS_BUSY_GET(hal_rd(CPFW(TS_CPFW_CACHE_STATUS_OFFSET))))
          return;
        st->phase = sync_after_cache(st);
        break;
      case CP_PH_SLC_ISSUE:
        /* FLUSH then INVALIDATE are queued back to back, so no request gets between them
         * unless the FLUSH completes before the INVALIDATE write (docs/firmware.md). */
        while (st->slc_i < st->slc_n) {
          uint32_t issued;
          if (!slc_issue(st->slc_op[st->slc_i], st->slc_dsid, &issued)) {
            cp_fw_stats.slc_retries++;
            return; /* queue full: retry on the next turn */
          }
          st->slc_target = issued;
          st->slc_i++;
        }
        st->phase = CP_PH_WAIT_SLC;
        return;
      case CP_PH_WAIT_SLC: {
        const uint32_t completed =
            TS_SLC_CMD_COUNT_COMPLETED_GET(hal_rd(SLC_REG(TS_SLC_CMD_COUNT_OFFSET)));
        /* Counts are modulo 2^16: completed has reached ours when (completed - ours) mod 2^16
         * is in the lower half. */
        if (((completed - st->slc_target) & 0xffffu) >= 0x8000u)
          return;
        sync_finish(st);
        return;
      }
      case CP_PH_IDLE:
        /* reached from WAIT_PIPE / WAIT_CACHE with only the final action left */
        sync_finish(st);
        return;
      default:
        return;
    }
  }
}

/* ---- packets --------------------------------------------------------------------------------- */

/* One pipeline command per register: {offset + 4i, value i}. The values are streamed straight
 * from FETCH_DATA to PIPE_ARG[1]; the stream bookkeeping is done once per stretch of dwords
 * inside the channel's run (cp_stream_read_n), not per register. */
static void exec_set_regs(cp_queue_t *st, uint32_t len)
{
  const uint32_t offset = TS_PKT_SET_REGS_OFFSET_GET(cp_stream_read(st));
  const uint32_t n = len - 1u;
  if (fetch_failed(st))
    return;
  /* Dword aligned, and the last register still inside the 20-bit register map. */
  if ((offset & 3u) != 0 ||
      (uint64_t)offset + 4u * (uint64_t)(n - 1u) > TS_PKT_SET_REGS_OFFSET_MASK) {
    report_error(st, TS_CP_ERROR_BAD_ADDRESS);
    return;
  }
  const uint32_t push = pipe_push_word(st, TS_OP_SET_REGS, 2);
  uint32_t reg_off = offset;
  uint32_t left = n;
  while (left != 0) {
    const uint32_t level = st->level;
    uint32_t k = left;
    if (level == 0) {
      /* Stay strictly inside the run (the run never crosses the ring's end). */
      if (st->run_left <= 1u) {
        const uint32_t v = cp_stream_read(st);
        hal_wr(CPFW(TS_CPFW_ARG_OFFSET_N(0)), reg_off);
        hal_wr(CPFW(TS_CPFW_ARG_OFFSET_N(1)), v);
        hal_wr(CPFW(TS_CPFW_PIPE_PUSH_OFFSET), push);
        reg_off += 4u;
        left--;
        continue;
      }
      if (k > st->run_left - 1u)
        k = st->run_left - 1u;
      st->run_left -= k;
      st->rd += k;
    } else {
      st->ib_addr[level] += 4u * k;
      st->ib_left[level] -= k;
    }
    left -= k;
    const uint32_t data = st->reg_data[level];
    do {
      const uint32_t v = hal_rd(data);
      hal_wr(CPFW(TS_CPFW_ARG_OFFSET_N(0)), reg_off);
      hal_wr(CPFW(TS_CPFW_ARG_OFFSET_N(1)), v);
      hal_wr(CPFW(TS_CPFW_PIPE_PUSH_OFFSET), push);
      reg_off += 4u;
    } while (--k != 0);
  }
  st->pushed = 1;
  (void)fetch_failed(st);
}

CP_INLINE int draw_addresses_ok(const uint32_t *pl)
{
  const uint32_t topology = TS_PKT_DRAW_TOPOLOGY_GET(pl[TS_PKT_DRAW_TOPOLOGY_DW]);
  const uint32_t index_type = TS_PKT_DRAW_INDEX_TYPE_GET(pl[TS_PKT_DRAW_INDEX_TYPE_DW]);
  const uint64_t count = TS_PKT_DRAW_COUNT_GET(pl[TS_PKT_DRAW_COUNT_DW]);
  const uint32_t vertex_addr = TS_PKT_DRAW_VERTEX_ADDR_GET(pl[TS_PKT_DRAW_VERTEX_ADDR_DW]);
  if (index_type == TS_INDEX_TYPE_NONE) {
    if (!mem_ok(vertex_addr, 16, count * 16u))
      return 0;
  } else {
    /* Indexed: the vertices read depend on the indices; check the buffer's start only. */
    const uint32_t isize = index_type == TS_INDEX_TYPE_U16 ? 2u : 4u;
    if (!mem_ok(vertex_addr, 16, 16) ||
        !mem_ok(TS_PKT_DRAW_INDEX_ADDR_GET(pl[TS_PKT_DRAW_INDEX_ADDR_DW]), isize, count * isize))
      return 0;
  }
  if (topology == TS_TOPOLOGY_PATCH_QUAD || topology == TS_TOPOLOGY_PATCH_TRI ||
      topology == TS_TOPOLOGY_PATCH_ISOLINE) {
    if (!mem_ok(TS_PKT_DRAW_TF_ADDR_GET(pl[TS_PKT_DRAW_TF_ADDR_DW]), 4, 4))
      return 0;
  }
  return 1;
}

static int renderpass_addresses_ok(const uint32_t *pl)
{
  const uint64_t w = TS_PKT_RENDERPASS_BEGIN_WIDTH_GET(pl[TS_PKT_RENDERPASS_BEGIN_WIDTH_DW]);
  const uint64_t h = TS_PKT_RENDERPASS_BEGIN_HEIGHT_GET(pl[TS_PKT_RENDERPASS_BEGIN_HEIGHT_DW]);
  const uint64_t bytes = w * h * 4u; /* RGBA8 color, depth in 32-bit words */
  return mem_ok(TS_PKT_RENDERPASS_BEGIN_COLOR_ADDR_GET(pl[TS_PKT_RENDERPASS_BEGIN_COLOR_ADDR_DW]),
                64, bytes) &&
         mem_ok(TS_PKT_RENDERPASS_BEGIN_DEPTH_ADDR_GET(pl[TS_PKT_RENDERPASS_BEGIN_DEPTH_ADDR_DW]),
                64, bytes);
}

/* Render passes. SEAM for two-level binning (a later issue): in two-level mode the body (the
 * body_size dwords after RENDERPASS_BEGIN) must run once per coarse bin. The replay will record
 * here the body's start (level, channel address or ring index, DSID) and the bin count from
 * the last SET_BIN_MODE, and RENDERPASS_END will rewind the stream to the body's start until
 * every coarse bin has run; at ring level RPTR must then not pass the body before the last
 * replay. Today both packets are forwarded once, which is the PBB behaviour. */
static void renderpass_begin(cp_queue_t *st, const uint32_t *pl)
{
  pipe_push(st, TS_OP_RENDERPASS_BEGIN, TS_PKT_RENDERPASS_BEGIN_LEN, pl);
}

static void renderpass_end(cp_queue_t *st)
{
  pipe_push(st, TS_OP_RENDERPASS_END, 0, 0);
}

static void exec_cond_exec(cp_queue_t *st, const uint32_t *pl)
{
  const uint32_t addr = TS_PKT_COND_EXEC_ADDR_GET(pl[TS_PKT_COND_EXEC_ADDR_DW]);
  const uint32_t mask = TS_PKT_COND_EXEC_MASK_GET(pl[TS_PKT_COND_EXEC_MASK_DW]);
  const uint32_t ref = TS_PKT_COND_EXEC_REF_GET(pl[TS_PKT_COND_EXEC_REF_DW]);
  const uint32_t count = TS_PKT_COND_EXEC_COUNT_GET(pl[TS_PKT_COND_EXEC_COUNT_DW]);
  if (!win_ok(addr, 4, 4)) {
    report_error(st, TS_CP_ERROR_BAD_ADDRESS);
    return;
  }
  /* The dwords must lie in the current buffer (checked whatever the condition says). */
  const uint32_t room = st->level == 0 ? st->size - 1u : st->ib_left[st->level];
  if (count > room) {
    report_error(st, TS_CP_ERROR_IB_OVERFLOW);
    return;
  }
  const uint32_t v = hal_rd(GPUWIN(addr));
  if ((v & mask) == ref || count == 0)
    return; /* execute the next count dwords normally */
  if (st->level == 0 && cp_stream_ring_avail(st) < count) {
    /* Not all published yet: consume the COND_EXEC, skip once the host has written them. */
    st->skip = count;
    st->phase = CP_PH_WAIT_SKIP;
    return;
  }
  cp_stream_skip(st, count);
}

static void exec_perf_sample(cp_queue_t *st, const uint32_t *pl)
{
  const uint32_t addr = TS_PKT_PERF_SAMPLE_ADDR_GET(pl[TS_PKT_PERF_SAMPLE_ADDR_DW]);
  if (!win_ok(addr, 64, CP_PERF_DWORDS * 4u)) {
    report_error(st, TS_CP_ERROR_BAD_ADDRESS);
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

/* Packets with a fixed payload (read into pl); NOP and SET_REGS stream theirs. */
static __attribute__((noinline)) void exec_fixed(cp_queue_t *st, uint32_t op, const uint32_t *pl)
{
  switch (op) {
    case TS_OP_INDIRECT_BUFFER: {
      const uint32_t addr = TS_PKT_INDIRECT_BUFFER_ADDR_GET(pl[TS_PKT_INDIRECT_BUFFER_ADDR_DW]);
      const uint32_t size = TS_PKT_INDIRECT_BUFFER_SIZE_GET(pl[TS_PKT_INDIRECT_BUFFER_SIZE_DW]);
      if (st->pkt_level >= CP_LEVELS - 1u) {
        report_error(st, TS_CP_ERROR_IB_OVERFLOW);
        return;
      }
      if (!mem_ok(addr, 4, 4u * (uint64_t)size)) {
        report_error(st, TS_CP_ERROR_BAD_ADDRESS);
        return;
      }
      if (st->pkt_level == 0)
        cp_stream_commit(st); /* the IB packet is consumed from the ring before the IB runs */
      if (size != 0)
        cp_stream_ib_call(st, addr, size);
      return;
    }
    case TS_OP_COND_EXEC:
      exec_cond_exec(st, pl);
      return;
    case TS_OP_SET_BIN_MODE:
      pipe_push(st, op, TS_PKT_SET_BIN_MODE_LEN, pl);
      return;
    case TS_OP_BIND_VIS_BUFFER:
      if (!mem_ok(TS_PKT_BIND_VIS_BUFFER_ADDR_GET(pl[TS_PKT_BIND_VIS_BUFFER_ADDR_DW]), 64,
                  TS_PKT_BIND_VIS_BUFFER_SIZE_GET(pl[TS_PKT_BIND_VIS_BUFFER_SIZE_DW]))) {
        report_error(st, TS_CP_ERROR_BAD_ADDRESS);
        return;
      }
      pipe_push(st, op, TS_PKT_BIND_VIS_BUFFER_LEN, pl);
      return;
    case TS_OP_DRAW: /* handled in exec_packet */
      return;
    case TS_OP_RENDERPASS_BEGIN:
      if (!renderpass_addresses_ok(pl)) {
        report_error(st, TS_CP_ERROR_BAD_ADDRESS);
        return;
      }
      renderpass_begin(st, pl);
      return;
    case TS_OP_RENDERPASS_END:
      renderpass_end(st);
      return;
    case TS_OP_FENCE: {
      const uint32_t addr = TS_PKT_FENCE_ADDR_GET(pl[TS_PKT_FENCE_ADDR_DW]);
      if (!win_ok(addr, 4, 4)) {
        report_error(st, TS_CP_ERROR_BAD_ADDRESS);
        return;
      }
      sync_begin(st, CP_SYNC_WRITE, addr, TS_PKT_FENCE_VALUE_GET(pl[TS_PKT_FENCE_VALUE_DW]));
      if (TS_PKT_FENCE_FLAG_INVALIDATE_GET(st->hdr)) {
        /* Write back, then drop: slice caches in one CACHE_CTRL, the SLC with FLUSH then
         * INVALIDATE (the SLC has no combined command; see docs/firmware.md). */
        st->cache_ctrl = TS_CPFW_CACHE_CTRL_FLUSH_MASK | TS_CPFW_CACHE_CTRL_INVALIDATE_MASK;
        st->slc_op[0] = TS_SLC_CMD_FLUSH;
        st->slc_op[1] = TS_SLC_CMD_INVALIDATE;
        st->slc_n = 2;
      } else if (TS_PKT_FENCE_FLAG_FLUSH_GET(st->hdr)) {
        st->cache_ctrl = TS_CPFW_CACHE_CTRL_FLUSH_MASK;
        st->slc_op[0] = TS_SLC_CMD_FLUSH;
        st->slc_n = 1;
      }
      st->irq = (uint8_t)TS_PKT_FENCE_FLAG_INTERRUPT_GET(st->hdr);
      sync_advance(st);
      return;
    }
    case TS_OP_BARRIER_UPDATE:
      /* Set once the queue's earlier pipeline work is complete (docs/firmware.md). */
      sync_begin(st, CP_SYNC_BARRIER, TS_PKT_BARRIER_UPDATE_ID_GET(pl[TS_PKT_BARRIER_UPDATE_ID_DW]),
                 TS_PKT_BARRIER_UPDATE_VALUE_GET(pl[TS_PKT_BARRIER_UPDATE_VALUE_DW]));
      sync_advance(st);
      return;
    case TS_OP_BARRIER_WAIT:
      st->addr = TS_PKT_BARRIER_WAIT_ID_GET(pl[TS_PKT_BARRIER_WAIT_ID_DW]);
      st->value = TS_PKT_BARRIER_WAIT_VALUE_GET(pl[TS_PKT_BARRIER_WAIT_VALUE_DW]);
      if (!barrier_reached(st->addr, st->value))
        st->phase = CP_PH_WAIT_BARRIER;
      return;
    case TS_OP_DSID_SET:
      st->dsid = (uint8_t)TS_PKT_DSID_SET_DSID_GET(pl[TS_PKT_DSID_SET_DSID_DW]);
      cp_dsid_push(st); /* forwarded even if the DSID is unchanged: one command per packet */
      return;
    case TS_OP_DSID_DELETE: {
      const uint32_t dsid = TS_PKT_DSID_DELETE_DSID_GET(pl[TS_PKT_DSID_DELETE_DSID_DW]);
      const uint32_t addr = TS_PKT_DSID_DELETE_FENCE_ADDR_GET(pl[TS_PKT_DSID_DELETE_FENCE_ADDR_DW]);
      if (!win_ok(addr, 4, 4)) {
        report_error(st, TS_CP_ERROR_BAD_ADDRESS);
        return;
      }
      sync_begin(st, CP_SYNC_WRITE, addr,
                 TS_PKT_DSID_DELETE_FENCE_VALUE_GET(pl[TS_PKT_DSID_DELETE_FENCE_VALUE_DW]));
      if (dsid != 0) { /* DSID 0 is never deleted: only the fence is written */
        st->slc_op[0] = TS_SLC_CMD_DELETE;
        st->slc_dsid = (uint8_t)dsid;
        st->slc_n = 1;
      }
      sync_advance(st);
      return;
    }
    case TS_OP_FRAME_END:
      cp_fw_stats.last_frame = TS_PKT_FRAME_END_FRAME_ID_GET(pl[TS_PKT_FRAME_END_FRAME_ID_DW]);
      pipe_push(st, op, TS_PKT_FRAME_END_LEN, pl);
      return;
    case TS_OP_PERF_SAMPLE:
      exec_perf_sample(st, pl);
      return;
    default:
      return;
  }
}

/* Execute the packet whose header is st->hdr (already checked); its payload is next in the
 * stream and, at ring level, published. NOP, SET_REGS and DRAW have their own paths; every
 * other packet has a fixed length of at most CP_MAX_FIXED_LEN (checked) and goes through
 * exec_fixed. */
CP_INLINE void exec_packet(cp_queue_t *st)
{
  const uint32_t hdr = st->hdr;
  const uint32_t op = TS_PKT_HDR_OPCODE_GET(hdr);
  const uint32_t len = TS_PKT_HDR_LENGTH_GET(hdr);

  if (op == TS_OP_NOP) {
    if (len != 0)
      cp_stream_skip(st, len);
    if (fetch_failed(st))
      return;
  } else if (op == TS_OP_DRAW) {
    uint32_t pl[TS_PKT_DRAW_LEN];
    cp_stream_read_n(st, pl, TS_PKT_DRAW_LEN);
    if (fetch_failed(st))
      return;
    if (!draw_addresses_ok(pl)) {
      report_error(st, TS_CP_ERROR_BAD_ADDRESS);
      return;
    }
    pipe_push(st, TS_OP_DRAW, TS_PKT_DRAW_LEN, pl);
  } else if (op == TS_OP_SET_REGS) {
    exec_set_regs(st, len);
  } else {
    uint32_t pl[CP_MAX_FIXED_LEN];
    cp_stream_read_n(st, pl, len < CP_MAX_FIXED_LEN ? len : CP_MAX_FIXED_LEN);
    if (fetch_failed(st))
      return;
    exec_fixed(st, op, pl);
    if (op == TS_OP_INDIRECT_BUFFER)
      return; /* committed before the call */
  }
  if (st->phase != CP_PH_HALTED && st->pkt_level == 0)
    cp_stream_commit(st);
}

/* ---- one step of one queue ------------------------------------------------------------------- */

static void wait_step(cp_queue_t *st)
{
  switch (st->phase) {
    case CP_PH_WAIT_BARRIER:
      if (barrier_reached(st->addr, st->value))
        st->phase = CP_PH_IDLE;
      break;
    case CP_PH_WAIT_SKIP:
      cp_stream_ring_refresh(st);
      if (cp_stream_ring_avail(st) >= st->skip) {
        cp_stream_skip(st, st->skip);
        cp_stream_commit(st);
        st->phase = CP_PH_IDLE;
      }
      break;
    default:
      sync_advance(st);
      break;
  }
}

/* What next_packet found. */
enum { CP_NEXT_NONE = 0, CP_NEXT_EXEC, CP_NEXT_PARTIAL, CP_NEXT_ERROR };

/* Read the next packet's header at the current level and check it. CP_NEXT_EXEC: the packet
 * can execute now. CP_NEXT_NONE: nothing published (ring) or the IB is finished (not a step).
 * CP_NEXT_PARTIAL: the ring packet is not all published yet (its header stays consumed from
 * the channel). CP_NEXT_ERROR: the header was reported. */
CP_INLINE uint32_t next_packet(cp_queue_t *st)
{
  const uint32_t level = st->level;
  if (level == 0) {
    const uint32_t held = st->have_hdr;
    if (held != CP_HDR_WAIT) {
      if (held == CP_HDR_NONE) {
        if (cp_stream_ring_avail(st) == 0)
          return CP_NEXT_NONE;
        st->pkt_level = 0;
        st->pkt_pos = st->rd;
        st->hdr = cp_stream_read(st);
      }
      st->have_hdr = CP_HDR_NONE;
      if (!check_header(st))
        return CP_NEXT_ERROR;
    }
    /* A packet only partly published waits (its header stays consumed from the channel). */
    const int partial = cp_stream_ring_avail(st) < TS_PKT_HDR_LENGTH_GET(st->hdr);
    st->have_hdr = partial ? CP_HDR_WAIT : CP_HDR_NONE;
    return partial ? CP_NEXT_PARTIAL : CP_NEXT_EXEC;
  }
  if (st->ib_left[level] == 0)
    return CP_NEXT_NONE; /* returned after the step */
  st->pkt_level = (uint8_t)level;
  st->pkt_pos = st->ib_addr[level];
  st->hdr = cp_stream_read(st);
  return check_header(st) ? CP_NEXT_EXEC : CP_NEXT_ERROR;
}

/* ---- ring-level fast path -------------------------------------------------------------------- */

/* cp_fw_stats.op indexes of the packets the fast path executes itself (cp_stats_opcodes). */
enum { CP_ST_NOP = 0, CP_ST_SET_REGS = 3, CP_ST_DRAW = 6 };
_Static_assert(CP_ST_NOP == 0 && TS_OP_NOP == 0, "stats order");

/* An error in a fast-path packet, reported as the general path does (RPTR stays at it). */
static CP_COLD void fast_error(cp_queue_t *st, uint32_t hdr, uint32_t pos, uint32_t stat,
                               uint32_t fetch_bit)
{
  st->hdr = hdr;
  st->pkt_pos = pos;
  st->pkt_level = 0;
  st->stat = (uint8_t)stat;
  if (fetch_bit != 0)
    fetch_error(st, fetch_bit);
  else
    report_error(st, TS_CP_ERROR_BAD_ADDRESS);
}

/* Ring level, queue idle, no header held: execute the packets that lie entirely inside the
 * ring channel's current run with the stream position in registers. Inside the run means
 * published (a run only covers published dwords) and not ending the ring (a run never crosses
 * the ring's end; the run's last dword is left to the general path when the run ends at the
 * ring's end), so the per-dword bookkeeping of cp_stream_read is not needed. DRAW, NOP (up to
 * CP_SKIP_READ_MAX dwords) and SET_REGS are recognised by their header and executed here;
 * every other packet that passes the header checks has a fixed payload of at most
 * CP_MAX_FIXED_LEN dwords, read here and executed by exec_fixed with the position written
 * back to the queue state (and read again after it). Checks, errors, FW_STATUS, RPTR, the
 * FETCH_ERR check and the statistics are those of the general path. Stops when *steps reaches
 * 0, when the run has no dword left for a header, when the queue leaves the idle ring level
 * (a wait, an error, an IB call), or at a packet it does not take (a header check failing, a
 * packet reaching past the run, a longer NOP): that header is then held (CP_HDR_UNCHECKED)
 * for the general path of the same turn. */
static void ring_fast(cp_queue_t *st, uint32_t *steps, uint32_t *t0p)
{
  uint32_t n = *steps, t0 = *t0p;
  uint32_t rd = st->rd;
  uint32_t run_end = rd + st->run_left;                        /* the run is rd .. run_end */
  uint32_t end = run_end - (uint32_t)(run_end == st->size);    /* usable: rd .. end */
  uint32_t committed = st->rptr;
  uint32_t fws = cp_fw.fw_status;
  uint32_t pushed = 0, npk = 0;
  uint32_t push_base =
      TS_CPFW_PIPE_PUSH_QUEUE_PUT(st->id) | TS_CPFW_PIPE_PUSH_DSID_PUT(st->dsid);
  const uint32_t data = st->reg_data[0];
  const uint32_t fbit = st->fetch_bit0;
  const uint32_t fws_base = st->fws_exec;

  while (n != 0 && rd != end) {
    const uint32_t hdr = hal_rd(data);
    const uint32_t pos = rd++;
    const uint32_t len = TS_PKT_HDR_LENGTH_GET(hdr);
    const uint32_t room = end - rd; /* payload dwords usable */
    cp_fw_op_stat_t *os;
    uint32_t stat;
    int fail = 0; /* 1: reported */

    if (hdr == TS_PKT_DRAW_HEADER && TS_PKT_DRAW_LEN <= room) {
      stat = CP_ST_DRAW;
      os = &cp_fw_stats.op[CP_ST_DRAW];
      fws = fws_base | (TS_OP_DRAW << 16);
      hal_wr(CPFW(TS_CPFW_FW_STATUS_OFFSET), fws);
      uint32_t pl[TS_PKT_DRAW_LEN];
      for (uint32_t i = 0; i < TS_PKT_DRAW_LEN; i++)
        pl[i] = hal_rd(data);
      rd += TS_PKT_DRAW_LEN;
      if (__builtin_expect(hal_rd(CPFW(TS_CPFW_FETCH_ERR_OFFSET)) & fbit, 0)) {
        fast_error(st, hdr, pos, stat, fbit);
        fail = 1;
      } else if (__builtin_expect(!draw_addresses_ok(pl), 0)) {
        fast_error(st, hdr, pos, stat, 0);
        fail = 1;
      } else {
        for (uint32_t i = 0; i < TS_PKT_DRAW_LEN; i++)
          hal_wr(CPFW(TS_CPFW_ARG_OFFSET_N(i)), pl[i]);
        hal_wr(CPFW(TS_CPFW_PIPE_PUSH_OFFSET),
               push_base | TS_CPFW_PIPE_PUSH_OPCODE_PUT(TS_OP_DRAW) |
                   TS_CPFW_PIPE_PUSH_NARGS_PUT(TS_PKT_DRAW_LEN));
        pushed = 1;
      }
    } else if ((hdr & 0xffffu) == TS_OP_NOP && len <= CP_SKIP_READ_MAX && len <= room) {
      stat = CP_ST_NOP;
      os = &cp_fw_stats.op[CP_ST_NOP];
      fws = fws_base | (TS_OP_NOP << 16);
      hal_wr(CPFW(TS_CPFW_FW_STATUS_OFFSET), fws);
      for (uint32_t i = 0; i < len; i++)
        (void)hal_rd(data);
      rd += len;
      if (__builtin_expect(hal_rd(CPFW(TS_CPFW_FETCH_ERR_OFFSET)) & fbit, 0)) {
        fast_error(st, hdr, pos, stat, fbit);
        fail = 1;
      }
    } else if ((hdr & 0xffffu) == TS_OP_SET_REGS && len >= TS_PKT_SET_REGS_MIN_LEN &&
               len <= room) { /* as exec_set_regs */
      stat = CP_ST_SET_REGS;
      os = &cp_fw_stats.op[CP_ST_SET_REGS];
      fws = fws_base | (TS_OP_SET_REGS << 16);
      hal_wr(CPFW(TS_CPFW_FW_STATUS_OFFSET), fws);
      const uint32_t offset = TS_PKT_SET_REGS_OFFSET_GET(hal_rd(data));
      const uint32_t nregs = len - 1u;
      rd++;
      if (__builtin_expect(hal_rd(CPFW(TS_CPFW_FETCH_ERR_OFFSET)) & fbit, 0)) {
        fast_error(st, hdr, pos, stat, fbit);
        fail = 1;
      } else if (__builtin_expect((offset & 3u) != 0 ||
                                      offset + 4u * (nregs - 1u) > TS_PKT_SET_REGS_OFFSET_MASK,
                                  0)) { /* no overflow: offset < 2^20, nregs < 2^16 */
        fast_error(st, hdr, pos, stat, 0);
        fail = 1;
      } else {
        const uint32_t push = push_base | TS_CPFW_PIPE_PUSH_OPCODE_PUT(TS_OP_SET_REGS) |
                              TS_CPFW_PIPE_PUSH_NARGS_PUT(2);
        uint32_t reg_off = offset;
        for (uint32_t i = nregs; i != 0; i--) {
          const uint32_t v = hal_rd(data);
          hal_wr(CPFW(TS_CPFW_ARG_OFFSET_N(0)), reg_off);
          hal_wr(CPFW(TS_CPFW_ARG_OFFSET_N(1)), v);
          hal_wr(CPFW(TS_CPFW_PIPE_PUSH_OFFSET), push);
          reg_off += 4u;
        }
        rd += nregs;
        pushed = 1;
        if (__builtin_expect(hal_rd(CPFW(TS_CPFW_FETCH_ERR_OFFSET)) & fbit, 0)) {
          fast_error(st, hdr, pos, stat, fbit);
          fail = 1;
        }
      }
    } else {
      /* The general header checks (the ring-size check is implied by len <= room). */
      const uint32_t op = TS_PKT_HDR_OPCODE_GET(hdr);
      stat = op_index(hdr);
      const cp_opinfo_t *oi = &cp_opinfo[stat];
      const uint32_t other =
          (uint32_t)(stat == CP_STATS_OTHER) | (uint32_t)((hdr & oi->bad_flags) != 0) |
          (uint32_t)(len - oi->min_len > oi->span) | (uint32_t)(len > room) |
          (uint32_t)(op == TS_OP_NOP) | (uint32_t)(op == TS_OP_SET_REGS);
      if (other != 0) {
        /* Not taken here (or not valid): the general path checks and executes it. */
        st->hdr = hdr;
        st->pkt_pos = pos;
        st->pkt_level = 0;
        st->have_hdr = CP_HDR_UNCHECKED;
        break;
      }
      /* A fixed-length packet (len <= CP_MAX_FIXED_LEN, checked): the general executor. */
      os = &cp_fw_stats.op[stat];
      fws = fws_base | (op << 16);
      hal_wr(CPFW(TS_CPFW_FW_STATUS_OFFSET), fws);
      uint32_t pl[CP_MAX_FIXED_LEN];
      for (uint32_t i = 0; i < len && i < CP_MAX_FIXED_LEN; i++)
        pl[i] = hal_rd(data);
      rd += len;
      st->rd = rd;
      st->run_left = run_end - rd;
      st->rptr = committed;
      st->hdr = hdr;
      st->pkt_pos = pos;
      st->pkt_level = 0;
      st->stat = (uint8_t)stat;
      st->pushed |= (uint8_t)pushed; /* a FENCE after DRAWs of this turn waits for them */
      pushed = 0;
      cp_fw_stats.packets[st->id] += npk + 1u; /* PERF_SAMPLE reports them */
      npk = 0;
      os->count++;
      cp_fw.fw_status = fws;
      if (__builtin_expect(hal_rd(CPFW(TS_CPFW_FETCH_ERR_OFFSET)) & fbit, 0)) {
        fetch_error(st, fbit);
      } else {
        exec_fixed(st, op, pl);
        if (st->phase != CP_PH_HALTED && op != TS_OP_INDIRECT_BUFFER)
          cp_stream_commit(st); /* the IB packet was committed before the call */
      }
      rd = st->rd;
      run_end = rd + st->run_left;
      end = run_end - (uint32_t)(run_end == st->size);
      committed = st->rptr;
      fws = cp_fw.fw_status;
      push_base = TS_CPFW_PIPE_PUSH_QUEUE_PUT(st->id) | TS_CPFW_PIPE_PUSH_DSID_PUT(st->dsid);
      n--;
      const uint32_t t1 = hal_cycles32();
      os->cycles += t1 - t0;
      t0 = t1;
      if ((st->phase | st->level) != 0)
        break; /* waiting, halted, or inside an IB now */
      continue;
    }
    /* DRAW, NOP, SET_REGS */
    n--;
    npk++;
    os->count++;
    if (__builtin_expect(fail, 0)) {
      fws = cp_fw.fw_status;
    } else {
      hal_wr(st->reg_rptr, TS_CPFW_RPTR_PTR_PUT(rd)); /* commit */
      committed = rd;
    }
    const uint32_t t1 = hal_cycles32();
    os->cycles += t1 - t0;
    t0 = t1;
    if (__builtin_expect(fail, 0))
      break; /* halted */
  }
  st->rd = rd;
  st->run_left = run_end - rd;
  st->rptr = committed;
  cp_fw.fw_status = fws;
  st->pushed |= (uint8_t)pushed;
  cp_fw_stats.packets[st->id] += npk;
  *steps = n;
  *t0p = t0;
}

/* One turn of a queue: up to CP_TURN_STEPS steps. It ends early when the queue is left
 * waiting (a wait check that did not pass, or a packet that entered a wait), halts, or has
 * nothing to execute. Each step's mcycle delta goes to its packet type's statistics (one CSR
 * read per step); the final look at an empty ring is not a step and is not counted. */
static void queue_turn(cp_queue_t *st)
{
  uint32_t *const packets = &cp_fw_stats.packets[st->id];
  uint32_t t0 = hal_cycles32();
  for (uint32_t n = CP_TURN_STEPS; n != 0; n--) {
    cp_fw_op_stat_t *os;
    if (st->phase == CP_PH_IDLE && st->level == 0 && st->have_hdr == CP_HDR_NONE) {
      ring_fast(st, &n, &t0);
      if (n == 0 || st->phase != CP_PH_IDLE)
        break;
    }
    if (__builtin_expect(st->phase == CP_PH_IDLE, 1)) {
      const uint32_t r = next_packet(st);
      if (__builtin_expect(r == CP_NEXT_EXEC, 1)) {
        os = &cp_fw_stats.op[st->stat];
        /* FW_STATUS: one store per packet (the phase for waveforms). */
        const uint32_t fws = st->fws_exec | (TS_PKT_HDR_OPCODE_GET(st->hdr) << 16) |
                             ((uint32_t)st->pkt_level << 8);
        cp_fw.fw_status = fws;
        hal_wr(CPFW(TS_CPFW_FW_STATUS_OFFSET), fws);
        ++*packets;
        os->count++;
        exec_packet(st);
      } else if (r == CP_NEXT_NONE) {
        break;
      } else {
        os = &cp_fw_stats.op[r == CP_NEXT_ERROR ? st->stat : CP_STATS_OTHER];
      }
    } else {
      os = &cp_fw_stats.op[st->stat];
      os->wait_checks++;
      fw_status(CP_FWS(CP_FWS_WAIT, st->id, TS_PKT_HDR_OPCODE_GET(st->hdr), st->pkt_level,
                       st->phase));
      wait_step(st);
    }
    if (__builtin_expect(st->level != 0, 0) && st->phase == CP_PH_IDLE)
      cp_stream_ib_return_finished(st);
    const uint32_t t1 = hal_cycles32();
    os->cycles += t1 - t0;
    t0 = t1;
    /* Waiting, halted, or a partly published packet: the other queue's turn. */
    if (__builtin_expect((st->phase | st->have_hdr) != 0, 0))
      break;
  }
  note_pushes(st);
}

/* ---- scheduler ------------------------------------------------------------------------------- */

static int idle_at_ring(const cp_queue_t *st)
{
  return st->level == 0 && st->phase == CP_PH_IDLE && !st->have_hdr;
}

static void update_queue_state(void)
{
  uint32_t waiting = 0, busy = 0, done = 0, have_done = 0;
  for (uint32_t q = 0; q < cp_fw.num_queues; q++) {
    cp_queue_t *st = &cp_fw.q[q];
    const uint32_t bit = 1u << q;
    if (st->inflight) {
      if (!have_done) {
        done = TS_CPFW_PIPE_DONE_COUNT_GET(hal_rd(CPFW(TS_CPFW_PIPE_DONE_OFFSET)));
        have_done = 1;
      }
      if ((int32_t)(done - st->last_push) >= 0)
        st->inflight = 0;
    }
    const uint32_t phase = st->phase;
    if (cp_phase_waiting(phase))
      waiting |= bit;
    if ((phase != CP_PH_IDLE && phase != CP_PH_HALTED) || st->level != 0 || st->have_hdr ||
        st->inflight)
      busy |= bit;
  }
  const uint32_t v =
      TS_CPFW_QUEUE_STATE_WAITING_PUT(waiting) | TS_CPFW_QUEUE_STATE_BUSY_PUT(busy);
  if (v != cp_fw.queue_state) {
    cp_fw.queue_state = v;
    hal_wr(CPFW(TS_CPFW_QUEUE_STATE_OFFSET), v);
  }
}

void cp_fw_init(void)
{
  hal_wr(CPFW(TS_CPFW_FW_STATUS_OFFSET), CP_FWS_INIT);
#ifdef CP_FW_HOST
  /* On the core crt0 has just cleared .bss; the host tests call cp_fw_init repeatedly. */
  zero(&cp_fw, sizeof cp_fw);
  zero(&cp_fw_stats, sizeof cp_fw_stats);
#endif
  cp_fw.fw_status = CP_FWS_INIT;
  cp_fw_stats.magic = CP_STATS_MAGIC;
  cp_fw_stats.version = CP_FW_VERSION;
  cp_fw_stats.num_ops = CP_STATS_NUM_OPS;
  for (uint32_t i = 0; i < CP_STATS_NUM_OPS; i++)
    cp_fw_stats.op[i].opcode = cp_stats_opcodes[i];

  uint32_t nq = TS_CPFW_HW_CONFIG_NUM_QUEUES_GET(hal_rd(CPFW(TS_CPFW_HW_CONFIG_OFFSET)));
  if (nq == 0 || nq > CP_MAX_QUEUES)
    nq = CP_MAX_QUEUES;
  cp_fw.num_queues = nq;
  for (uint32_t q = 0; q < CP_MAX_QUEUES; q++) {
    cp_queue_t *st = &cp_fw.q[q];
    st->id = (uint8_t)q;
    st->reg_wptr = CPFW(TS_CPFW_WPTR_OFFSET_N(q));
    st->reg_rptr = CPFW(TS_CPFW_RPTR_OFFSET_N(q));
    for (uint32_t l = 0; l < CP_LEVELS; l++)
      st->reg_data[l] = CPFW(TS_CPFW_FETCH_DATA_OFFSET_N(cp_fetch_channel(q, l)));
    st->fetch_bit0 = 1u << cp_fetch_channel(q, 0);
    st->fws_exec = CP_FWS(CP_FWS_EXEC, q, 0, 0, 0);
  }
  const uint32_t limit = TS_CPFW_MEM_LIMIT_LIMIT_GET(hal_rd(CPFW(TS_CPFW_MEM_LIMIT_OFFSET)));
  cp_fw.mem_limit = limit != 0 ? (uint64_t)limit : (1ull << 32); /* 0: all 4 GiB, as the SLC */
  cp_fw.win_limit = cp_fw.mem_limit < CP_GPUWIN_LIMIT ? cp_fw.mem_limit : CP_GPUWIN_LIMIT;

  hal_wr(CPFW(TS_CPFW_WINDOW_DSID_OFFSET), 0);
  hal_wr(CPFW(TS_CPFW_QUEUE_STATE_OFFSET), 0);

  cp_con_puts("tessera cp firmware v");
  cp_con_dec(CP_FW_VERSION);
  cp_con_puts(": ");
  cp_con_dec(nq);
  cp_con_puts(" queues, memory limit ");
  cp_con_hex(limit);
  cp_con_puts("\n");
  fw_status(CP_FWS_IDLE);
}

void cp_fw_poll(void)
{
  cp_fw_stats.polls++;
  const uint32_t qe = hal_rd(CPFW(TS_CPFW_QUEUE_ENABLE_OFFSET));
  const uint32_t enabled = TS_CPFW_QUEUE_ENABLE_ENABLE_GET(qe);
  const uint32_t halted = TS_CPFW_QUEUE_ENABLE_HALTED_GET(qe);

  for (uint32_t q = 0; q < cp_fw.num_queues; q++) {
    cp_queue_t *st = &cp_fw.q[q];
    const uint32_t bit = 1u << q;
    if (st->phase == CP_PH_HALTED) {
      if (halted & bit) {
        st->halt_seen = 1;
      } else if (st->halt_seen) {
        /* The host cleared the halt (soft reset): start again from the ring's RPTR. */
        st->phase = CP_PH_IDLE;
        st->level = 0;
        st->synced = 0;
      }
      continue;
    }
    if ((enabled & bit) == 0 || (halted & bit) != 0) {
      /* Disabled: paused where it is. If it is between ring packets, the ring configuration
       * and RPTR are read again when it is enabled (the host may have reprogrammed it). */
      if (idle_at_ring(st))
        st->synced = 0;
      st->bad_config = 0;
      continue;
    }
    if (!st->synced) {
      if (!cp_stream_sync(st)) {
        if (!st->bad_config) {
          cp_con_puts("q");
          cp_con_dec(q);
          cp_con_puts(": RING_SIZE outside 4..16, queue not served\n");
          st->bad_config = 1;
        }
        continue;
      }
      st->synced = 1;
    }
    if (st->level == 0) {
      /* WPTR is read once per turn at ring level (packets published during the turn wait
       * for the next one). Fast path of the idle loop: nothing beyond the read position. */
      const uint32_t w = TS_CPFW_WPTR_PTR_GET(hal_rd(st->reg_wptr)) & st->mask;
      if (w == st->rd && idle_at_ring(st))
        continue;
      cp_stream_ring_update(st, w);
    }
    queue_turn(st);
  }
  update_queue_state();
  fw_status(CP_FWS_IDLE);
}
