/* cp_fw.c -- the CP firmware's scheduler and packet execution (ARCHITECTURE.md sections 4 and
 * 5.1; packet semantics in spec/packets.yaml; registers in spec/registers/cpfw.yaml).
 *
 * The hardware queues are served round-robin: cp_fw_poll gives each enabled, not halted queue
 * one step, and a step executes one packet or checks the one condition the queue waits for
 * (BARRIER_WAIT, FENCE / BARRIER_UPDATE / DSID_DELETE completion, a COND_EXEC skip not yet
 * published). Waiting never blocks: the queue's state stays in DMEM and the next queue runs.
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

#define SLC_REG(off) REGWIN(TS_SLC_BASE_ADDR + (off))

/* ---- small helpers --------------------------------------------------------------------------- */

static void fw_status(uint32_t v)
{
  if (v != cp_fw.fw_status) {
    cp_fw.fw_status = v;
    hal_wr(CPFW(TS_CPFW_FW_STATUS_OFFSET), v);
  }
}

static void zero(void *p, uint32_t bytes)
{
  uint8_t *b = (uint8_t *)p;
  while (bytes--)
    *b++ = 0;
}

uint32_t cp_fw_op_index(uint32_t opcode)
{
  switch (opcode) {
    case TS_OP_NOP: return 0;
    case TS_OP_INDIRECT_BUFFER: return 1;
    case TS_OP_COND_EXEC: return 2;
    case TS_OP_SET_REGS: return 3;
    case TS_OP_SET_BIN_MODE: return 4;
    case TS_OP_BIND_VIS_BUFFER: return 5;
    case TS_OP_DRAW: return 6;
    case TS_OP_RENDERPASS_BEGIN: return 7;
    case TS_OP_RENDERPASS_END: return 8;
    case TS_OP_FENCE: return 9;
    case TS_OP_BARRIER_UPDATE: return 10;
    case TS_OP_BARRIER_WAIT: return 11;
    case TS_OP_DSID_SET: return 12;
    case TS_OP_DSID_DELETE: return 13;
    case TS_OP_FRAME_END: return 14;
    case TS_OP_PERF_SAMPLE: return 15;
    default: return CP_STATS_OTHER;
  }
}

static const uint8_t cp_stats_opcodes[CP_STATS_NUM_OPS] = {
    TS_OP_NOP,            TS_OP_INDIRECT_BUFFER, TS_OP_COND_EXEC,      TS_OP_SET_REGS,
    TS_OP_SET_BIN_MODE,   TS_OP_BIND_VIS_BUFFER, TS_OP_DRAW,           TS_OP_RENDERPASS_BEGIN,
    TS_OP_RENDERPASS_END, TS_OP_FENCE,           TS_OP_BARRIER_UPDATE, TS_OP_BARRIER_WAIT,
    TS_OP_DSID_SET,       TS_OP_DSID_DELETE,     TS_OP_FRAME_END,      TS_OP_PERF_SAMPLE,
    CP_NO_OP};

/* Header flag bits (as in the header dword) a packet defines; all others must be 0. */
static uint32_t defined_flags(uint32_t op)
{
  if (op == TS_OP_FENCE)
    return TS_PKT_FENCE_FLAG_FLUSH_MASK | TS_PKT_FENCE_FLAG_INVALIDATE_MASK |
           TS_PKT_FENCE_FLAG_INTERRUPT_MASK;
  return 0;
}

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
static void report_error(cp_queue_t *st, uint32_t code)
{
  const uint32_t q = st->id;
  const uint32_t op = TS_PKT_HDR_OPCODE_GET(st->hdr);
  fw_status(CP_FWS(CP_FWS_ERROR, q, op, st->pkt_level, code));
  hal_wr(CPFW(TS_CPFW_ERROR_ADDR_OFFSET), TS_CPFW_ERROR_ADDR_ADDR_PUT(st->pkt_addr));
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
  cp_con_hex(st->pkt_addr);
  cp_con_puts(", queue halted\n");
}

/* A dword of the packet came from a line the memory answered with an error (it read as 0). */
static int fetch_failed(cp_queue_t *st)
{
  const uint32_t bit = 1u << cp_fetch_channel(st->id, st->pkt_level);
  const uint32_t err = TS_CPFW_FETCH_ERR_CHANNEL_GET(hal_rd(CPFW(TS_CPFW_FETCH_ERR_OFFSET)));
  if ((err & bit) == 0)
    return 0;
  hal_wr(CPFW(TS_CPFW_FETCH_ERR_OFFSET), TS_CPFW_FETCH_ERR_CHANNEL_PUT(bit));
  report_error(st, TS_CP_ERROR_BAD_ADDRESS);
  return 1;
}

/* Opcode, header flags and length of st->hdr; the packet must fit its buffer. */
static int check_header(cp_queue_t *st)
{
  const uint32_t hdr = st->hdr;
  const cp_opinfo_t *oi = &cp_fw.opinfo[TS_PKT_HDR_OPCODE_GET(hdr)];
  const uint32_t len = TS_PKT_HDR_LENGTH_GET(hdr);
  st->stat = oi->stat;
  if (!oi->known || (TS_PKT_HDR_FLAGS_GET(hdr) & ~(uint32_t)oi->flags) != 0) {
    report_error(st, TS_CP_ERROR_BAD_OPCODE);
    return 0;
  }
  if (len < oi->min_len || len > oi->max_len) {
    report_error(st, TS_CP_ERROR_BAD_LENGTH);
    return 0;
  }
  /* Ring: a packet longer than the ring can publish (size - 1 dwords) would wait forever. */
  const uint32_t room = st->pkt_level == 0 ? st->size - 2u : st->ib_left[st->pkt_level];
  if (len > room) {
    report_error(st, TS_CP_ERROR_IB_OVERFLOW);
    return 0;
  }
  return 1;
}

/* ---- pipeline commands ----------------------------------------------------------------------- */

static void pipe_push(cp_queue_t *st, uint32_t op, uint32_t nargs, const uint32_t *args)
{
  for (uint32_t i = 0; i < nargs; i++)
    hal_wr(CPFW(TS_CPFW_ARG_OFFSET_N(i)), args[i]);
  hal_wr(CPFW(TS_CPFW_PIPE_PUSH_OFFSET),
         TS_CPFW_PIPE_PUSH_OPCODE_PUT(op) | TS_CPFW_PIPE_PUSH_QUEUE_PUT(st->id) |
             TS_CPFW_PIPE_PUSH_DSID_PUT(st->dsid) | TS_CPFW_PIPE_PUSH_NARGS_PUT(nargs));
  st->pushed = 1;
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
  /* "Earlier work of the queue": every pipeline command pushed so far (the pipeline completes
   * commands in push order, so this includes the other queue's older commands). */
  st->pipe_target = TS_CPFW_PIPE_ISSUED_COUNT_GET(hal_rd(CPFW(TS_CPFW_PIPE_ISSUED_OFFSET)));
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
        const uint32_t done = TS_CPFW_PIPE_DONE_COUNT_GET(hal_rd(CPFW(TS_CPFW_PIPE_DONE_OFFSET)));
        if ((int32_t)(done - st->pipe_target) < 0)
          return;
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
  for (uint32_t i = 0; i < n; i++) {
    uint32_t args[2];
    args[0] = offset + 4u * i;
    args[1] = cp_stream_read(st);
    pipe_push(st, TS_OP_SET_REGS, 2, args);
  }
  (void)fetch_failed(st);
}

static int draw_addresses_ok(const uint32_t *pl)
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
static void exec_fixed(cp_queue_t *st, uint32_t op, uint32_t len, const uint32_t *pl)
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
      pipe_push(st, op, len, pl);
      return;
    case TS_OP_BIND_VIS_BUFFER:
      if (!mem_ok(TS_PKT_BIND_VIS_BUFFER_ADDR_GET(pl[TS_PKT_BIND_VIS_BUFFER_ADDR_DW]), 64,
                  TS_PKT_BIND_VIS_BUFFER_SIZE_GET(pl[TS_PKT_BIND_VIS_BUFFER_SIZE_DW]))) {
        report_error(st, TS_CP_ERROR_BAD_ADDRESS);
        return;
      }
      pipe_push(st, op, len, pl);
      return;
    case TS_OP_DRAW:
      if (!draw_addresses_ok(pl)) {
        report_error(st, TS_CP_ERROR_BAD_ADDRESS);
        return;
      }
      pipe_push(st, op, len, pl);
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
      pipe_push(st, op, len, pl);
      return;
    case TS_OP_PERF_SAMPLE:
      exec_perf_sample(st, pl);
      return;
    default:
      return;
  }
}

/* Execute the packet whose header is st->hdr (already checked); its payload is next in the
 * stream and, at ring level, published. */
static void exec_packet(cp_queue_t *st)
{
  const uint32_t op = TS_PKT_HDR_OPCODE_GET(st->hdr);
  const uint32_t len = TS_PKT_HDR_LENGTH_GET(st->hdr);

  cp_fw_stats.packets[st->id]++;
  cp_fw_stats.op[st->stat].count++;

  if (op == TS_OP_NOP) {
    cp_stream_skip(st, len);
    if (fetch_failed(st))
      return;
  } else if (op == TS_OP_SET_REGS) {
    exec_set_regs(st, len);
  } else {
    /* Every other packet has a fixed length of at most CP_MAX_FIXED_LEN (checked). */
    uint32_t pl[CP_MAX_FIXED_LEN];
    for (uint32_t i = 0; i < len && i < CP_MAX_FIXED_LEN; i++)
      pl[i] = cp_stream_read(st);
    if (fetch_failed(st))
      return;
    exec_fixed(st, op, len, pl);
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

/* Read the next packet's header at the current level and check it. Returns 1 when the packet
 * can execute now; 0 if there is none, it is not all published yet, or it was reported. */
static int next_packet(cp_queue_t *st)
{
  if (st->level == 0) {
    cp_stream_ring_refresh(st);
    if (!st->have_hdr) {
      if (cp_stream_ring_avail(st) == 0)
        return 0;
      st->pkt_level = 0;
      st->pkt_addr = st->base + 4u * st->rd;
      st->hdr = cp_stream_read(st);
      if (!check_header(st))
        return 0;
      st->have_hdr = 1;
    }
    /* A packet only partly published waits (its header stays consumed from the channel). */
    if (cp_stream_ring_avail(st) < TS_PKT_HDR_LENGTH_GET(st->hdr))
      return 0;
    st->have_hdr = 0;
    return 1;
  }
  if (st->ib_left[st->level] == 0)
    return 0; /* returned at the end of the step */
  st->pkt_level = st->level;
  st->pkt_addr = st->ib_addr[st->level];
  st->hdr = cp_stream_read(st);
  return check_header(st);
}

static void queue_step(cp_queue_t *st)
{
  const uint32_t t0 = hal_cycles32();
  uint32_t stat = CP_STATS_OTHER;
  st->pushed = 0;

  if (st->phase != CP_PH_IDLE) {
    stat = st->stat;
    cp_fw_stats.op[stat].wait_checks++;
    fw_status(CP_FWS(CP_FWS_WAIT, st->id, TS_PKT_HDR_OPCODE_GET(st->hdr), st->pkt_level, st->phase));
    wait_step(st);
  } else if (next_packet(st)) {
    stat = st->stat;
    fw_status(CP_FWS(CP_FWS_EXEC, st->id, TS_PKT_HDR_OPCODE_GET(st->hdr), st->pkt_level, 0));
    exec_packet(st);
  } else if (st->phase == CP_PH_HALTED) {
    stat = st->stat;
  }
  if (st->phase == CP_PH_IDLE && st->level != 0)
    cp_stream_ib_return_finished(st);
  if (st->pushed) {
    st->last_push = TS_CPFW_PIPE_ISSUED_COUNT_GET(hal_rd(CPFW(TS_CPFW_PIPE_ISSUED_OFFSET)));
    st->inflight = 1;
  }
  cp_fw_stats.op[stat].cycles += hal_cycles32() - t0;
}

/* ---- scheduler ------------------------------------------------------------------------------- */

static int idle_at_ring(const cp_queue_t *st)
{
  return st->level == 0 && st->phase == CP_PH_IDLE && !st->have_hdr;
}

static int is_waiting(uint32_t phase)
{
  return phase == CP_PH_WAIT_PIPE || phase == CP_PH_CACHE_START || phase == CP_PH_WAIT_CACHE ||
         phase == CP_PH_SLC_ISSUE || phase == CP_PH_WAIT_SLC || phase == CP_PH_WAIT_BARRIER;
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
    if (is_waiting(st->phase))
      waiting |= bit;
    if ((st->phase != CP_PH_IDLE && st->phase != CP_PH_HALTED) || st->level != 0 ||
        st->have_hdr || st->inflight)
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
  zero(&cp_fw, sizeof cp_fw);
  zero(&cp_fw_stats, sizeof cp_fw_stats);
  cp_fw.fw_status = CP_FWS_INIT;
  cp_fw_stats.magic = CP_STATS_MAGIC;
  cp_fw_stats.version = CP_FW_VERSION;
  cp_fw_stats.num_ops = CP_STATS_NUM_OPS;
  for (uint32_t i = 0; i < CP_STATS_NUM_OPS; i++)
    cp_fw_stats.op[i].opcode = cp_stats_opcodes[i];
  for (uint32_t op = 0; op < 256u; op++) {
    cp_opinfo_t *oi = &cp_fw.opinfo[op];
    oi->known = (uint8_t)(ts_pkt_known(op) != 0);
    oi->min_len = (uint16_t)ts_pkt_min_len(op);
    oi->max_len = (uint16_t)ts_pkt_max_len(op);
    oi->flags = (uint8_t)TS_PKT_HDR_FLAGS_GET(defined_flags(op));
    oi->stat = (uint8_t)cp_fw_op_index(op);
  }

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
    /* Fast path of the idle loop: nothing published beyond the read position. */
    if (idle_at_ring(st) && (TS_CPFW_WPTR_PTR_GET(hal_rd(st->reg_wptr)) & st->mask) == st->rd)
      continue;
    queue_step(st);
  }
  update_queue_state();
  fw_status(CP_FWS_IDLE);
}
