/* cp_exec.c -- the CP firmware's packet execution: header checks, errors, and the packets
 * (semantics in spec/packets.yaml; docs/firmware.md, "Packets" and "Errors"). FENCE,
 * BARRIER_*, DSID_SET and DSID_DELETE are in cp_sync.c, PERF_SAMPLE in cp_perf.c, SET_BIN_MODE,
 * BIND_VIS_BUFFER and the render passes (two-level replay) in cp_binning.c.
 *
 * A packet is executed on one of two paths, and both call the same per-packet functions
 * (draw_exec, set_regs_exec, exec_fixed and what it calls), so every packet has exactly one
 * implementation:
 *  - the general path (cp_exec_next, exec_packet): any level, any packet, the stream read
 *    through the stream reader (cp_stream_read / cp_stream_read_n / cp_stream_skip);
 *  - the fast path (cp_exec_fast): packets that lie entirely inside the current level's
 *    channel run (the ring's published run, or the rest of an IB: the driver's packets are in
 *    IBs), with the stream position in registers.
 * The paths differ only in how they read the packet's dwords and keep the step's
 * bookkeeping (FW_STATUS, RPTR, statistics); firmware/test CpFwPaths runs the same streams
 * through both and compares what they did.
 * COND_EXEC is the GPU-side patching mechanism of the AMD binning source (seeds/000).
 */
#include "cp_fw_internal.h"

/* RENDERPASS_BEGIN is the longest packet forwarded to the pipeline with its payload as args. */
_Static_assert(TS_PKT_RENDERPASS_BEGIN_LEN <= TS_CPFW_PIPE_ARG_COUNT, "payload must fit PIPE_ARG");
_Static_assert(TS_PKT_DRAW_LEN <= TS_CPFW_PIPE_ARG_COUNT, "payload must fit PIPE_ARG");
_Static_assert(TS_PKT_RENDERPASS_BEGIN_LEN <= CP_MAX_FIXED_LEN, "fixed payloads fit the buffer");

#define CP_NO_OP 0xffu

#ifdef CP_FW_HOST
uint32_t cp_fw_host_fast_packets;
#endif

/* ---- opcode tables ----------------------------------------------------------------------- */

#define CP_OPX(i) ((uint8_t)((i) ^ CP_STATS_OTHER))
const uint8_t cp_opidx_x[256] = {
    [TS_OP_NOP] = CP_OPX(0),             [TS_OP_INDIRECT_BUFFER] = CP_OPX(1),
    [TS_OP_COND_EXEC] = CP_OPX(2),       [TS_OP_SET_REGS] = CP_OPX(3),
    [TS_OP_SET_BIN_MODE] = CP_OPX(4),    [TS_OP_BIND_VIS_BUFFER] = CP_OPX(5),
    [TS_OP_SET_PREFETCH] = CP_OPX(6),    [TS_OP_DRAW] = CP_OPX(7),
    [TS_OP_RENDERPASS_BEGIN] = CP_OPX(8), [TS_OP_RENDERPASS_END] = CP_OPX(9),
    [TS_OP_FENCE] = CP_OPX(10),          [TS_OP_BARRIER_UPDATE] = CP_OPX(11),
    [TS_OP_BARRIER_WAIT] = CP_OPX(12),   [TS_OP_DSID_SET] = CP_OPX(13),
    [TS_OP_DSID_DELETE] = CP_OPX(14),    [TS_OP_FRAME_END] = CP_OPX(15),
    [TS_OP_PERF_SAMPLE] = CP_OPX(16)};

/* Header checks per stats index (same order as cp_stats_opcodes below). */
#define CP_OPINFO(name, flags)                                                               \
  {TS_PKT_##name##_MIN_LEN, TS_PKT_##name##_MAX_LEN - TS_PKT_##name##_MIN_LEN,               \
   (uint16_t)(TS_PKT_HDR_FLAGS_MASK & ~(uint32_t)(flags)), 0}
const cp_opinfo_t cp_opinfo[CP_STATS_NUM_OPS] = {
    CP_OPINFO(NOP, 0),
    CP_OPINFO(INDIRECT_BUFFER, 0),
    CP_OPINFO(COND_EXEC, 0),
    CP_OPINFO(SET_REGS, 0),
    CP_OPINFO(SET_BIN_MODE, 0),
    CP_OPINFO(BIND_VIS_BUFFER, 0),
    CP_OPINFO(SET_PREFETCH, 0),
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

const uint8_t cp_stats_opcodes[CP_STATS_NUM_OPS] = {
    TS_OP_NOP,            TS_OP_INDIRECT_BUFFER, TS_OP_COND_EXEC,      TS_OP_SET_REGS,
    TS_OP_SET_BIN_MODE,   TS_OP_BIND_VIS_BUFFER, TS_OP_SET_PREFETCH,   TS_OP_DRAW,
    TS_OP_RENDERPASS_BEGIN,
    TS_OP_RENDERPASS_END, TS_OP_FENCE,           TS_OP_BARRIER_UPDATE, TS_OP_BARRIER_WAIT,
    TS_OP_DSID_SET,       TS_OP_DSID_DELETE,     TS_OP_FRAME_END,      TS_OP_PERF_SAMPLE,
    CP_NO_OP};

/* cp_fw_stats.op indexes of the packets the fast path recognises by their header. */
enum { CP_ST_NOP = 0, CP_ST_SET_REGS = 3, CP_ST_DRAW = 7 };
_Static_assert(CP_ST_NOP == 0 && TS_OP_NOP == 0, "stats order");

/* ---- errors ---------------------------------------------------------------------------------- */

/* ERROR_ADDR, then ERROR_REPORT: the RTL records the first error for the host, sets
 * INT_STATUS.error and the queue's halted bit. The queue is not served again until the host
 * clears the halt (soft reset); RPTR stays at the offending ring packet. */
CP_COLD CP_SMALL void cp_report_error(cp_queue_t *st, uint32_t code)
{
  const uint32_t q = st->id;
  const uint32_t op = TS_PKT_HDR_OPCODE_GET(st->hdr);
  const uint32_t pkt_addr = st->pkt_level == 0 ? st->base + 4u * st->pkt_pos : st->pkt_pos;
  cp_fw_status(CP_FWS(CP_FWS_ERROR, q, op, st->pkt_level, code));
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

/* Not a TS_CP_ERROR_* code: a dword of the packet came from a line the memory answered with an
 * error (it read as 0). Reported as BAD_ADDRESS after clearing the channel's FETCH_ERR bit. */
#define CP_ERR_FETCH 0x100u

static CP_COLD void fetch_error(cp_queue_t *st, uint32_t bit)
{
  hal_wr(CPFW(TS_CPFW_FETCH_ERR_OFFSET), TS_CPFW_FETCH_ERR_CHANNEL_PUT(bit));
  cp_report_error(st, TS_CP_ERROR_BAD_ADDRESS);
}

/* Report err (a TS_CP_ERROR_* code or CP_ERR_FETCH) for the packet st->hdr. */
static CP_COLD void packet_error(cp_queue_t *st, uint32_t err)
{
  if (err == CP_ERR_FETCH)
    fetch_error(st, st->fetch_bit0 << st->pkt_level);
  else
    cp_report_error(st, err);
}

/* FETCH_ERR has the channel's bit set: bit is 1 << channel, inside the field (bit 0 up). */
_Static_assert(TS_CPFW_FETCH_ERR_CHANNEL_LSB == 0 &&
                   (1u << (TS_CPFW_FETCH_COUNT - 1u)) <= TS_CPFW_FETCH_ERR_CHANNEL_MASK,
               "FETCH_ERR.channel bits");
CP_INLINE uint32_t fetch_err_pending(uint32_t bit)
{
  return hal_rd(CPFW(TS_CPFW_FETCH_ERR_OFFSET)) & bit;
}

/* General path: the packet's dwords read so far came from a failed line (reported). */
CP_INLINE int fetch_failed(cp_queue_t *st)
{
  const uint32_t bit = st->fetch_bit0 << st->pkt_level;
  if (__builtin_expect(fetch_err_pending(bit) == 0, 1))
    return 0;
  fetch_error(st, bit);
  return 1;
}

/* ---- header checks --------------------------------------------------------------------------- */

/* The header checks, for both paths: opcode known, no undefined header flags, length within
 * the opcode's limits, payload within room dwords. 0 if the header passes. One branch for the
 * caller: the conditions are combined with | (the unknown-opcode entry has bad_flags 0 and
 * span 0, so it is caught by the stat test alone). */
CP_INLINE uint32_t header_bad(uint32_t hdr, uint32_t stat, uint32_t len, uint32_t room)
{
  const cp_opinfo_t *oi = &cp_opinfo[stat];
  return (uint32_t)(stat == CP_STATS_OTHER) | (uint32_t)((hdr & oi->bad_flags) != 0) |
         (uint32_t)(len - oi->min_len > oi->span) | (uint32_t)(len > room);
}

/* Which check failed (the order of the error codes' precedence). */
static CP_COLD void header_error(cp_queue_t *st, uint32_t len)
{
  const cp_opinfo_t *oi = &cp_opinfo[st->stat];
  if (st->stat == CP_STATS_OTHER || (st->hdr & oi->bad_flags) != 0)
    cp_report_error(st, TS_CP_ERROR_BAD_OPCODE);
  else if (len - oi->min_len > oi->span)
    cp_report_error(st, TS_CP_ERROR_BAD_LENGTH);
  else
    cp_report_error(st, TS_CP_ERROR_IB_OVERFLOW);
}

/* General path: check st->hdr; sets st->stat. */
CP_INLINE int check_header(cp_queue_t *st)
{
  const uint32_t hdr = st->hdr;
  const uint32_t stat = cp_op_index(hdr);
  const uint32_t len = TS_PKT_HDR_LENGTH_GET(hdr);
  /* Ring: a packet longer than the ring can publish (size - 1 dwords) would wait forever. */
  const uint32_t room = st->pkt_level == 0 ? st->size - 2u : st->ib_left[st->pkt_level];
  st->stat = (uint8_t)stat;
  if (__builtin_expect(header_bad(hdr, stat, len, room) != 0, 0)) {
    header_error(st, len);
    return 0;
  }
  return 1;
}

/* The fast path recognises DRAW, NOP and SET_REGS by a cheaper test than header_bad;
 * each test implies that header_bad passes (with len <= room checked beside it, and the fast
 * path's room at most size - 2, the general path's ring room): */
#define CP_HDR_OP_FLAGS (TS_PKT_HDR_OPCODE_MASK | TS_PKT_HDR_FLAGS_MASK)
/* DRAW: the whole header, one compare (a fixed length and no flags). */
_Static_assert(TS_PKT_DRAW_MIN_LEN == TS_PKT_DRAW_LEN && TS_PKT_DRAW_MAX_LEN == TS_PKT_DRAW_LEN,
               "DRAW has one valid header");
/* NOP: opcode and flags; every length is valid. */
_Static_assert(TS_PKT_NOP_MIN_LEN == 0 &&
                   TS_PKT_NOP_MAX_LEN == TS_PKT_HDR_LENGTH_MASK >> TS_PKT_HDR_LENGTH_LSB,
               "NOP takes any length");
/* SET_REGS: opcode and flags, len >= MIN_LEN; no upper limit below the field's. */
_Static_assert(TS_PKT_SET_REGS_MAX_LEN == TS_PKT_HDR_LENGTH_MASK >> TS_PKT_HDR_LENGTH_LSB,
               "SET_REGS has no upper length limit");

/* ---- the packets ----------------------------------------------------------------------------- */
/* NOP has no action: both paths skip its payload (and check FETCH_ERR after it). */

/* SET_REGS: the first register's byte offset (dword 0) and the last one must be dword aligned
 * and inside the 20-bit register map, for a packet of header length len (nregs = len - 1
 * registers). The only SET_REGS range check. No overflow in 32 bits: offset is the 20-bit
 * field (<= 0xFFFFF) and, as the header check passed, MIN_LEN (2) <= len <= 65535 (the 16-bit
 * length field), so 0 <= nregs - 1 <= 65533 and offset + 4 * (nregs - 1) <= 0xFFFFF + 262132
 * = 0x13FFF3 < 2^32: the sum is exact, and a range reaching past the map (0x100000 or more)
 * fails however far it reaches. */
_Static_assert(TS_PKT_SET_REGS_MIN_LEN >= 2u, "nregs - 1 = len - 2 does not wrap");
_Static_assert((uint64_t)TS_PKT_SET_REGS_OFFSET_MASK +
                       4ull * ((TS_PKT_HDR_LENGTH_MASK >> TS_PKT_HDR_LENGTH_LSB) - 2u) <=
                   0xffffffffull,
               "offset + 4 * (nregs - 1) fits 32 bits");
CP_INLINE int set_regs_range_ok(uint32_t offset_dw, uint32_t len)
{
  const uint32_t offset = TS_PKT_SET_REGS_OFFSET_GET(offset_dw);
  return (offset & 3u) == 0 && offset + 4u * (len - 2u) <= TS_PKT_SET_REGS_OFFSET_MASK;
}

/* One SET_REGS register: a pipeline command {reg_off, v}. */
CP_INLINE void set_regs_push(uint32_t push, uint32_t reg_off, uint32_t v)
{
  hal_wr(CPFW(TS_CPFW_ARG_OFFSET_N(0)), reg_off);
  hal_wr(CPFW(TS_CPFW_ARG_OFFSET_N(1)), v);
  hal_wr(CPFW(TS_CPFW_PIPE_PUSH_OFFSET), push);
}

/* SET_REGS after its dword 0 (offset_dw) was read: one pipeline command per register,
 * {offset + 4i, value i}, the values streamed straight from FETCH_DATA to PIPE_ARG[1].
 * Returns the error code (0: the registers were pushed, and the values were read).
 * in_run (a constant at each call): a fast path (ring or IB), which has checked that the
 * len - 1 values lie inside the channel's run, reads them with no stream bookkeeping and
 * moves its read position past them itself. Otherwise the values are read at the queue's current
 * level with the stream bookkeeping once per stretch of dwords inside the channel's run, not
 * per register. */
CP_INLINE uint32_t set_regs_exec(cp_queue_t *st, uint32_t push_base, uint32_t offset_dw,
                                 uint32_t len, int in_run)
{
  if (__builtin_expect(!set_regs_range_ok(offset_dw, len), 0))
    return TS_CP_ERROR_BAD_ADDRESS;
  const uint32_t push = push_base | TS_CPFW_PIPE_PUSH_OPCODE_PUT(TS_OP_SET_REGS) |
                        TS_CPFW_PIPE_PUSH_NARGS_PUT(2);
  uint32_t reg_off = TS_PKT_SET_REGS_OFFSET_GET(offset_dw);
  uint32_t left = len - 1u;
  while (left != 0) {
    const uint32_t level = in_run ? 0u : st->level;
    uint32_t k = left;
    if (!in_run) {
      if (level == 0) {
        /* Stay strictly inside the run (the run never crosses the ring's end). */
        if (st->run_left <= 1u) {
          set_regs_push(push, reg_off, cp_stream_read(st));
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
    }
    left -= k;
    /* in_run: the fast paths' channel is the current level's (the ring's, or an IB's) */
    const uint32_t data = st->reg_data[in_run ? st->level : level];
    do {
      set_regs_push(push, reg_off, hal_rd(data));
      reg_off += 4u;
    } while (--k != 0);
  }
  st->pushed = 1;
  return 0;
}

CP_INLINE int draw_addresses_ok(const uint32_t *pl)
{
  const uint32_t topology = TS_PKT_DRAW_TOPOLOGY_GET(pl[TS_PKT_DRAW_TOPOLOGY_DW]);
  const uint32_t index_type = TS_PKT_DRAW_INDEX_TYPE_GET(pl[TS_PKT_DRAW_INDEX_TYPE_DW]);
  const uint64_t count = TS_PKT_DRAW_COUNT_GET(pl[TS_PKT_DRAW_COUNT_DW]);
  const uint32_t vertex_addr = TS_PKT_DRAW_VERTEX_ADDR_GET(pl[TS_PKT_DRAW_VERTEX_ADDR_DW]);
  if (index_type == TS_INDEX_TYPE_NONE) {
    if (!cp_mem_ok(vertex_addr, 16, count * 16u))
      return 0;
  } else {
    /* Indexed: the vertices read depend on the indices; check the buffer's start only. */
    const uint32_t isize = index_type == TS_INDEX_TYPE_U16 ? 2u : 4u;
    if (!cp_mem_ok(vertex_addr, 16, 16) ||
        !cp_mem_ok(TS_PKT_DRAW_INDEX_ADDR_GET(pl[TS_PKT_DRAW_INDEX_ADDR_DW]), isize,
                   count * isize))
      return 0;
  }
  if (topology == TS_TOPOLOGY_PATCH_QUAD || topology == TS_TOPOLOGY_PATCH_TRI ||
      topology == TS_TOPOLOGY_PATCH_ISOLINE) {
    /* one 16-byte tf_record per patch of 4, 3 or 2 control points (docs/tessellation.md) */
    const uint32_t ncp = topology == TS_TOPOLOGY_PATCH_QUAD ? 4u : topology == TS_TOPOLOGY_PATCH_TRI ? 3u : 2u;
    if (!cp_mem_ok(TS_PKT_DRAW_TF_ADDR_GET(pl[TS_PKT_DRAW_TF_ADDR_DW]), 16, (count / ncp) * 16u))
      return 0;
  }
  return 1;
}

/* DRAW with its payload in pl: the address checks, then the command. Returns the error code
 * (0: pushed). */
CP_INLINE uint32_t draw_exec(cp_queue_t *st, uint32_t push_base, const uint32_t *pl)
{
  if (__builtin_expect(!draw_addresses_ok(pl), 0))
    return TS_CP_ERROR_BAD_ADDRESS;
  cp_pipe_push_as(st, push_base, TS_OP_DRAW, TS_PKT_DRAW_LEN, pl);
  return 0;
}

static void exec_indirect_buffer(cp_queue_t *st, const uint32_t *pl)
{
  const uint32_t addr = TS_PKT_INDIRECT_BUFFER_ADDR_GET(pl[TS_PKT_INDIRECT_BUFFER_ADDR_DW]);
  const uint32_t size = TS_PKT_INDIRECT_BUFFER_SIZE_GET(pl[TS_PKT_INDIRECT_BUFFER_SIZE_DW]);
  if (st->pkt_level >= CP_LEVELS - 1u) {
    cp_report_error(st, TS_CP_ERROR_IB_OVERFLOW);
    return;
  }
  if (!cp_mem_ok(addr, 4, 4u * (uint64_t)size)) {
    cp_report_error(st, TS_CP_ERROR_BAD_ADDRESS);
    return;
  }
  if (st->pkt_level == 0)
    cp_stream_commit(st); /* the IB packet is consumed from the ring before the IB runs */
  if (size != 0)
    cp_stream_ib_call(st, addr, size);
}

static void exec_cond_exec(cp_queue_t *st, const uint32_t *pl)
{
  const uint32_t addr = TS_PKT_COND_EXEC_ADDR_GET(pl[TS_PKT_COND_EXEC_ADDR_DW]);
  const uint32_t mask = TS_PKT_COND_EXEC_MASK_GET(pl[TS_PKT_COND_EXEC_MASK_DW]);
  const uint32_t ref = TS_PKT_COND_EXEC_REF_GET(pl[TS_PKT_COND_EXEC_REF_DW]);
  const uint32_t count = TS_PKT_COND_EXEC_COUNT_GET(pl[TS_PKT_COND_EXEC_COUNT_DW]);
  if (!cp_win_ok(addr, 4, 4)) {
    cp_report_error(st, TS_CP_ERROR_BAD_ADDRESS);
    return;
  }
  /* The dwords must lie in the current buffer (checked whatever the condition says). */
  const uint32_t room = st->level == 0 ? st->size - 1u : st->ib_left[st->level];
  if (count > room) {
    cp_report_error(st, TS_CP_ERROR_IB_OVERFLOW);
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

static void exec_frame_end(cp_queue_t *st, const uint32_t *pl)
{
  cp_fw_stats.last_frame = TS_PKT_FRAME_END_FRAME_ID_GET(pl[TS_PKT_FRAME_END_FRAME_ID_DW]);
  cp_pipe_push(st, TS_OP_FRAME_END, TS_PKT_FRAME_END_LEN, pl);
}

/* The packets with a fixed payload (read into pl; checked: at most CP_MAX_FIXED_LEN dwords),
 * for both paths. DRAW, the only fixed packet on the hot path, is dispatched by the callers
 * (draw_exec inline); NOP and SET_REGS stream theirs. */
static __attribute__((noinline)) CP_SMALL void exec_fixed(cp_queue_t *st, uint32_t op,
                                                       const uint32_t *pl)
{
  switch (op) {
    case TS_OP_INDIRECT_BUFFER: exec_indirect_buffer(st, pl); return;
    case TS_OP_COND_EXEC: exec_cond_exec(st, pl); return;
    case TS_OP_SET_BIN_MODE: cp_exec_set_bin_mode(st, pl); return;
    case TS_OP_BIND_VIS_BUFFER: cp_exec_bind_vis_buffer(st, pl); return;
    case TS_OP_SET_PREFETCH: cp_exec_set_prefetch(st, pl); return;
    case TS_OP_RENDERPASS_BEGIN: cp_renderpass_begin(st, pl); return;
    case TS_OP_RENDERPASS_END: cp_renderpass_end(st); return;
    case TS_OP_FENCE: cp_exec_fence(st, pl); return;
    case TS_OP_BARRIER_UPDATE: cp_exec_barrier_update(st, pl); return;
    case TS_OP_BARRIER_WAIT: cp_exec_barrier_wait(st, pl); return;
    case TS_OP_DSID_SET: cp_exec_dsid_set(st, pl); return;
    case TS_OP_DSID_DELETE: cp_exec_dsid_delete(st, pl); return;
    case TS_OP_FRAME_END: exec_frame_end(st, pl); return;
    case TS_OP_PERF_SAMPLE: cp_exec_perf_sample(st, pl); return;
    default: return; /* DRAW, NOP, SET_REGS: not fixed-payload packets here */
  }
}

/* ---- general path ---------------------------------------------------------------------------- */

/* Execute the packet whose header is st->hdr (already checked); its payload is next in the
 * stream and, at ring level, published. */
CP_INLINE void exec_packet(cp_queue_t *st)
{
  const uint32_t hdr = st->hdr;
  const uint32_t op = TS_PKT_HDR_OPCODE_GET(hdr);
  const uint32_t len = TS_PKT_HDR_LENGTH_GET(hdr);
  uint32_t err = 0;

  if (__builtin_expect(st->rp_active, 0) && !cp_rp_packet_in_body(st)) {
    cp_report_error(st, TS_CP_ERROR_BAD_LENGTH); /* body_size does not lead to RENDERPASS_END */
    return;
  }

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
    err = draw_exec(st, cp_push_base(st), pl);
  } else if (op == TS_OP_SET_REGS) {
    const uint32_t offset_dw = cp_stream_read(st);
    if (fetch_failed(st))
      return;
    err = set_regs_exec(st, cp_push_base(st), offset_dw, len, 0);
    if (err == 0 && fetch_failed(st))
      return;
  } else {
    uint32_t pl[CP_MAX_FIXED_LEN];
    cp_stream_read_n(st, pl, len < CP_MAX_FIXED_LEN ? len : CP_MAX_FIXED_LEN);
    if (fetch_failed(st))
      return;
    exec_fixed(st, op, pl);
    if (op == TS_OP_INDIRECT_BUFFER)
      return; /* committed before the call */
  }
  if (__builtin_expect(err != 0, 0)) {
    cp_report_error(st, err);
    return;
  }
  if (st->phase != CP_PH_HALTED && st->pkt_level == 0)
    cp_stream_commit(st);
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

/* Execute the packet whose checked header is st->hdr (general path, one copy for both
 * callers); returns its cp_fw_stats.op index. */
static __attribute__((noinline)) CP_SMALL uint32_t exec_step(cp_queue_t *st)
{
  const uint32_t stat = st->stat;
  /* FW_STATUS: one store per packet (the phase for waveforms). */
  const uint32_t fws = st->fws_exec | (TS_PKT_HDR_OPCODE_GET(st->hdr) << 16) |
                       ((uint32_t)st->pkt_level << 8);
  cp_fw.fw_status = fws;
  hal_wr(CPFW(TS_CPFW_FW_STATUS_OFFSET), fws);
  cp_fw_stats.packets[st->id]++;
  cp_fw_stats.op[stat].count++;
  exec_packet(st);
  return stat;
}

CP_SMALL uint32_t cp_exec_next(cp_queue_t *st)
{
  const uint32_t r = next_packet(st);
  if (__builtin_expect(r == CP_NEXT_EXEC, 1))
    return exec_step(st);
  if (r == CP_NEXT_NONE)
    return CP_STEP_NONE;
  return r == CP_NEXT_ERROR ? st->stat : CP_STATS_OTHER;
}

/* ---- fast path ------------------------------------------------------------------------------- */

/* An error in a fast-path packet, reported as the general path does (RPTR stays at it). */
static CP_COLD void fast_error(cp_queue_t *st, uint32_t hdr, uint32_t pos, uint32_t stat,
                               uint32_t err)
{
  st->hdr = hdr;
  st->pkt_pos = pos;
  st->pkt_level = st->level;
  st->stat = (uint8_t)stat;
  packet_error(st, err);
}

/* The general path from a header the fast path read at IB level (st->hdr, pkt_pos, pkt_level
 * set; an IB channel cannot give a header back): check it, execute it; returns the step's
 * cp_fw_stats.op index. */
static __attribute__((noinline)) CP_SMALL uint32_t exec_checked(cp_queue_t *st)
{
  return check_header(st) ? exec_step(st) : st->stat;
}

/* Queue idle, no header held, not inside a render pass opened in the ring: execute the packets
 * of the current level's channel run with the stream position in registers. The run is, in
 * the ring, the published dwords of the channel's current run (never crossing the ring's end:
 * the last dword of a run ending there is left to the general path), and in an IB the rest of
 * the IB (an IB channel streams the whole IB in one run), so the per-dword bookkeeping of
 * cp_stream_read is not needed. This is where the driver's packets are: the KMD submits every
 * command buffer as an INDIRECT_BUFFER, so in the ring there are only IB calls and fences.
 * DRAW, NOP (up to CP_SKIP_READ_MAX dwords; ring only) and SET_REGS are recognised by their
 * header (the tests above header_bad) and executed by draw_exec / set_regs_exec; in an IB they
 * must also lie inside the render pass's body when the pass was opened at this level (what
 * cp_rp_packet_in_body requires). Every other packet: in the ring, one that passes the header
 * checks has a fixed payload of at most CP_MAX_FIXED_LEN dwords, read here and executed by
 * exec_fixed with the position written back to the queue state (and read again after it), and
 * one that does not (or a fast packet reaching past the run, a longer NOP) is held
 * (CP_HDR_UNCHECKED) for the general path of the same turn; in an IB, it goes through the
 * general path's check and execution (exec_checked) with the header read here. FW_STATUS, RPTR
 * (ring only), the FETCH_ERR check and the statistics are those of the general path. Stops when
 * *steps reaches 0, when the run has no dword left for a header (in an IB: its end; the caller
 * returns from it), or when the queue leaves the idle state at this level (a wait, an error, an
 * IB call). */
void cp_exec_fast(cp_queue_t *st, uint32_t *steps, uint32_t *t0p)
{
  uint32_t n = *steps, t0 = *t0p;
  const uint32_t level = st->level;
  const uint32_t sh = level == 0 ? 0u : 2u; /* position units: ring index or byte address */
  uint32_t cur, avail, run_end = 0;         /* position, dwords usable from it */
  if (level == 0) {
    cur = st->rd;
    run_end = cur + st->run_left;                                 /* the run is rd .. run_end */
    avail = run_end - (uint32_t)(run_end == st->size) - cur;       /* usable: rd .. end */
  } else {
    cur = st->ib_addr[level];
    avail = st->ib_left[level];
  }
  uint32_t committed = st->rptr;
  uint32_t fws = cp_fw.fw_status;
  uint32_t npk = 0;
  uint32_t push_base = cp_push_base(st);
  const uint32_t data = st->reg_data[level];
  const uint32_t fbit = st->fetch_bit0 << level;
  const uint32_t fws_base = st->fws_exec | (level << 8);
  int rp_here = st->rp_active && st->rp_level == level; /* IB level only (see caller) */
#ifdef CP_FW_HOST
  const uint32_t packets_before = cp_fw_stats.packets[st->id];
#endif

  while (n != 0 && avail != 0) {
    const uint32_t hdr = hal_rd(data);
    const uint32_t pos = cur;
    cur += 1u << sh;
    avail--;
    const uint32_t len = TS_PKT_HDR_LENGTH_GET(hdr);
    uint32_t room = avail; /* payload dwords usable */
    if (rp_here) {
      /* inside the body: the packet must end at or before its end (the RENDERPASS_END there
       * is not a fast packet) */
      const uint32_t body = pos < st->rp_end_pos ? (st->rp_end_pos - cur) >> 2 : 0u;
      room = body < room ? body : room;
    }
    cp_fw_op_stat_t *os;
    uint32_t stat;
    uint32_t err;

    if (hdr == TS_PKT_DRAW_HEADER && TS_PKT_DRAW_LEN <= room) {
      stat = CP_ST_DRAW;
      os = &cp_fw_stats.op[CP_ST_DRAW];
      fws = fws_base | (TS_OP_DRAW << 16);
      hal_wr(CPFW(TS_CPFW_FW_STATUS_OFFSET), fws);
      uint32_t pl[TS_PKT_DRAW_LEN];
      for (uint32_t i = 0; i < TS_PKT_DRAW_LEN; i++)
        pl[i] = hal_rd(data);
      cur += TS_PKT_DRAW_LEN << sh;
      avail -= TS_PKT_DRAW_LEN;
      if (__builtin_expect(fetch_err_pending(fbit) != 0, 0)) {
        err = CP_ERR_FETCH;
        goto failed;
      }
      err = draw_exec(st, push_base, pl);
      if (__builtin_expect(err != 0, 0))
        goto failed;
    } else if ((hdr & CP_HDR_OP_FLAGS) == TS_OP_SET_REGS && len >= TS_PKT_SET_REGS_MIN_LEN &&
               len <= room) {
      stat = CP_ST_SET_REGS;
      os = &cp_fw_stats.op[CP_ST_SET_REGS];
      fws = fws_base | (TS_OP_SET_REGS << 16);
      hal_wr(CPFW(TS_CPFW_FW_STATUS_OFFSET), fws);
      const uint32_t offset_dw = hal_rd(data);
      cur += 1u << sh;
      avail--;
      if (__builtin_expect(fetch_err_pending(fbit) != 0, 0)) {
        err = CP_ERR_FETCH;
        goto failed;
      }
      err = set_regs_exec(st, push_base, offset_dw, len, 1);
      if (__builtin_expect(err != 0, 0))
        goto failed;
      cur += (len - 1u) << sh;
      avail -= len - 1u;
      if (__builtin_expect(fetch_err_pending(fbit) != 0, 0)) {
        err = CP_ERR_FETCH;
        goto failed;
      }
    } else if (level == 0 && (hdr & CP_HDR_OP_FLAGS) == TS_OP_NOP && len <= CP_SKIP_READ_MAX &&
               len <= room) {
      stat = CP_ST_NOP;
      os = &cp_fw_stats.op[CP_ST_NOP];
      fws = fws_base | (TS_OP_NOP << 16);
      hal_wr(CPFW(TS_CPFW_FW_STATUS_OFFSET), fws);
      for (uint32_t i = 0; i < len; i++)
        (void)hal_rd(data);
      cur += len;
      avail -= len;
      if (__builtin_expect(fetch_err_pending(fbit) != 0, 0)) {
        err = CP_ERR_FETCH;
        goto failed;
      }
    } else {
      /* The general header checks (in the ring the ring-size check is implied by len <=
       * room; in an IB len <= room is the IB's and the body's bound). */
      const uint32_t op = TS_PKT_HDR_OPCODE_GET(hdr);
      stat = cp_op_index(hdr);
      const uint32_t other = header_bad(hdr, stat, len, room) | (uint32_t)(op == TS_OP_NOP) |
                             (uint32_t)(op == TS_OP_SET_REGS);
      if (other != 0 && level == 0) {
        /* Not taken here (or not valid): the general path checks and executes it. */
        st->hdr = hdr;
        st->pkt_pos = pos;
        st->pkt_level = 0;
        st->have_hdr = CP_HDR_UNCHECKED;
        break;
      }
      if (other != 0) {
        /* IB: the general path, from the header on (it reports what is not valid). */
        st->ib_addr[level] = cur;
        st->ib_left[level] = avail;
        st->pkt_level = (uint8_t)level;
        st->pkt_pos = pos;
        st->hdr = hdr;
        cp_fw_stats.packets[st->id] += npk; /* PERF_SAMPLE reports them */
        npk = 0;
        cp_fw.fw_status = fws;
        stat = exec_checked(st);
        os = &cp_fw_stats.op[stat];
      } else {
        /* A fixed-length packet (len <= CP_MAX_FIXED_LEN, checked): the general executor,
         * with the position written back to the queue state. */
        os = &cp_fw_stats.op[stat];
        fws = fws_base | (op << 16);
        hal_wr(CPFW(TS_CPFW_FW_STATUS_OFFSET), fws);
        uint32_t pl[CP_MAX_FIXED_LEN];
        for (uint32_t i = 0; i < len && i < CP_MAX_FIXED_LEN; i++)
          pl[i] = hal_rd(data);
        cur += len << sh;
        avail -= len;
        if (level == 0) {
          st->rd = cur;
          st->run_left = run_end - cur;
          st->rptr = committed;
        } else {
          st->ib_addr[level] = cur;
          st->ib_left[level] = avail;
        }
        st->hdr = hdr;
        st->pkt_pos = pos;
        st->pkt_level = (uint8_t)level;
        st->stat = (uint8_t)stat;
        cp_fw_stats.packets[st->id] += npk + 1u; /* PERF_SAMPLE reports them */
        npk = 0;
        os->count++;
        cp_fw.fw_status = fws;
        if (__builtin_expect(fetch_err_pending(fbit) != 0, 0)) {
          fetch_error(st, fbit);
        } else {
          exec_fixed(st, op, pl);
          if (level == 0 && st->phase != CP_PH_HALTED && op != TS_OP_INDIRECT_BUFFER)
            cp_stream_commit(st); /* the IB packet was committed before the call */
        }
      }
      /* read the position again: a NOP or COND_EXEC skip, a replay, an IB call or return */
      if (level == 0) {
        cur = st->rd;
        run_end = cur + st->run_left;
        avail = run_end - (uint32_t)(run_end == st->size) - cur;
        committed = st->rptr;
      } else {
        cur = st->ib_addr[level];
        avail = st->ib_left[level];
      }
      fws = cp_fw.fw_status;
      push_base = cp_push_base(st); /* a DSID_SET changed the DSID */
      rp_here = st->rp_active && st->rp_level == level; /* a RENDERPASS_BEGIN / END */
      n--;
      const uint32_t t1 = hal_cycles32();
      os->cycles += t1 - t0;
      t0 = t1;
      if (st->phase != CP_PH_IDLE || st->level != level || (level == 0 && st->rp_active))
        break; /* waiting, halted, in another IB now, or inside a ring render pass */
      continue;
    }
    /* DRAW, NOP, SET_REGS executed */
    n--;
    npk++;
    os->count++;
    if (level == 0) {
      hal_wr(st->reg_rptr, TS_CPFW_RPTR_PTR_PUT(cur)); /* commit */
      committed = cur;
    }
    const uint32_t t1 = hal_cycles32();
    os->cycles += t1 - t0;
    t0 = t1;
    continue;

  failed:
    /* DRAW, NOP, SET_REGS reported err: a step of its type, RPTR stays at it, halted. */
    n--;
    npk++;
    os->count++;
    fast_error(st, hdr, pos, stat, err);
    fws = cp_fw.fw_status;
    const uint32_t t2 = hal_cycles32();
    os->cycles += t2 - t0;
    t0 = t2;
    break;
  }
  if (level == 0) {
    st->rd = cur;
    st->run_left = run_end - cur;
    st->rptr = committed;
  } else if (st->level == level) {
    st->ib_addr[level] = cur;
    st->ib_left[level] = avail;
  }
  cp_fw.fw_status = fws;
  cp_fw_stats.packets[st->id] += npk;
#ifdef CP_FW_HOST
  cp_fw_host_fast_packets += cp_fw_stats.packets[st->id] - packets_before;
#endif
  *steps = n;
  *t0p = t0;
}
