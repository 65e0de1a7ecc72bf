/* cp_binning.c -- render passes and two-level binning: SET_BIN_MODE, BIND_VIS_BUFFER,
 * RENDERPASS_BEGIN and RENDERPASS_END (semantics in spec/packets.yaml; docs/two-level.md).
 *
 * Source: 000_b9c7be2d27aa8181.txt (AMD, selectable two-level binning): in two-level mode a
 * visibility pass runs the render pass's primitives once and records, per primitive, the
 * coarse bins it touches; the body is then replayed once per coarse bin, and a primitive not
 * visible in that coarse bin is dropped before vertex fetch. The firmware is the replay: at
 * RENDERPASS_BEGIN it records where the body starts and, at every RENDERPASS_END but the last,
 * rewinds the stream there. Before each pass it tells the pipeline which pass this is with
 * in-band register writes (SET_REGS pipeline commands, applied in order with the draws):
 *   GEOM.COARSE, VIS_BASE, VIS_STRIDE   the coarse grid and the visibility buffer (first pass)
 *   GEOM.VIS                             WRITE (visibility pass) or TEST coarse bin c (replay)
 *   RASTER.COARSE                        the coarse bin's rectangle the slices render (empty
 *                                        in a visibility pass that renders nothing)
 * and after the last pass GEOM.VIS = OFF and RASTER.COARSE back to its reset (whole target).
 *
 * Every render pass is tracked, PBB ones too: RENDERPASS_END must sit exactly body_size
 * dwords after its RENDERPASS_BEGIN, at the same level (else BAD_LENGTH), a body must fit its
 * buffer (else IB_OVERFLOW), and passes do not nest. At ring level RPTR stays at the
 * RENDERPASS_BEGIN header until the last pass has ended, so the host cannot overwrite a body
 * that is still to be replayed (cp_stream_commit). */
#include "cp_fw_internal.h"

#ifndef CP_FW_HOST
/* Render passes, fences and DSIDs run a few times per frame: optimised for size (the 16 KiB
 * ROM, docs/firmware.md "ROM budget"). */
#pragma GCC optimize("Os")
#endif

/* The largest coarse grid: 32 x 32, one coarse bin per 64-pixel block of a 2048x2048 target. */
#define CP_COARSE_MAX 32u

/* RASTER.COARSE of an empty rectangle (x0 > x1): the slices render nothing. */
#define CP_RECT_EMPTY                                                                              \
  (TS_RASTER_COARSE_X0_PUT(1) | TS_RASTER_COARSE_Y0_PUT(1) | TS_RASTER_COARSE_X1_PUT(0) |       \
   TS_RASTER_COARSE_Y1_PUT(0) | TS_RASTER_COARSE_ENABLE_PUT(1))

/* Binning state belongs between render passes: inside one it would change under a body that is
 * still to be replayed. */
void cp_exec_set_bin_mode(cp_queue_t *st, const uint32_t *pl)
{
  const uint32_t mode = TS_PKT_SET_BIN_MODE_MODE_GET(pl[TS_PKT_SET_BIN_MODE_MODE_DW]);
  const uint32_t cx = TS_PKT_SET_BIN_MODE_COARSE_X_GET(pl[TS_PKT_SET_BIN_MODE_COARSE_X_DW]);
  const uint32_t cy = TS_PKT_SET_BIN_MODE_COARSE_Y_GET(pl[TS_PKT_SET_BIN_MODE_COARSE_Y_DW]);
  if (st->rp_active || mode > TS_BIN_MODE_TWO_LEVEL ||
      (mode == TS_BIN_MODE_TWO_LEVEL && (cx - 1u > CP_COARSE_MAX - 1u || cy - 1u > CP_COARSE_MAX - 1u))) {
    cp_report_error(st, TS_CP_ERROR_BAD_STATE);
    return;
  }
  st->bin_mode = pl[TS_PKT_SET_BIN_MODE_MODE_DW];
  st->bin_grid = pl[TS_PKT_SET_BIN_MODE_COARSE_X_DW];
  cp_pipe_push(st, TS_OP_SET_BIN_MODE, TS_PKT_SET_BIN_MODE_LEN, pl);
}

void cp_exec_bind_vis_buffer(cp_queue_t *st, const uint32_t *pl)
{
  const uint32_t addr = TS_PKT_BIND_VIS_BUFFER_ADDR_GET(pl[TS_PKT_BIND_VIS_BUFFER_ADDR_DW]);
  const uint32_t size = TS_PKT_BIND_VIS_BUFFER_SIZE_GET(pl[TS_PKT_BIND_VIS_BUFFER_SIZE_DW]);
  if (st->rp_active) {
    cp_report_error(st, TS_CP_ERROR_BAD_STATE);
    return;
  }
  if (!cp_mem_ok(addr, 64, size)) {
    cp_report_error(st, TS_CP_ERROR_BAD_ADDRESS);
    return;
  }
  st->vis_addr = addr;
  st->vis_size = size;
  cp_pipe_push(st, TS_OP_BIND_VIS_BUFFER, TS_PKT_BIND_VIS_BUFFER_LEN, pl);
}

/* SET_PREFETCH: the tile prefetcher's mode and history buffer (docs/prefetcher.md). A mode
 * other than OFF needs a buffer, set (not 0) and inside GPU memory: otherwise BAD_ADDRESS,
 * and nothing reaches the prefetcher (it keeps its previous mode), so it never writes where
 * the driver did not say. The pipeline applies it in order, once every earlier render pass has
 * rendered. */
void cp_exec_set_prefetch(cp_queue_t *st, const uint32_t *pl)
{
  const uint32_t mode = TS_PKT_SET_PREFETCH_MODE_GET(pl[TS_PKT_SET_PREFETCH_MODE_DW]);
  const uint32_t addr = TS_PKT_SET_PREFETCH_ADDR_GET(pl[TS_PKT_SET_PREFETCH_ADDR_DW]);
  const uint32_t size = TS_PKT_SET_PREFETCH_SIZE_GET(pl[TS_PKT_SET_PREFETCH_SIZE_DW]);
  if (st->rp_active || mode > TS_PF_MODE_ADAPTIVE) {
    cp_report_error(st, TS_CP_ERROR_BAD_STATE);
    return;
  }
  if (mode != TS_PF_MODE_OFF && (addr == 0 || size < 64 || !cp_mem_ok(addr, 64, size))) {
    cp_report_error(st, TS_CP_ERROR_BAD_ADDRESS);
    return;
  }
  cp_pipe_push(st, TS_OP_SET_PREFETCH, TS_PKT_SET_PREFETCH_LEN, pl);
}

/* One in-band register write to the pipeline: {GPU register byte address, value}. */
static void push_reg(cp_queue_t *st, uint32_t addr, uint32_t value)
{
  const uint32_t args[2] = {addr, value};
  cp_pipe_push(st, TS_OP_SET_REGS, 2, args);
}

/* The coarse grid along one axis: blocks (64-pixel blocks of the target, at least 1) split
 * into at most req coarse bins (0 acts as 1) of *size blocks each; returns the number of
 * coarse bins, all non-empty. */
static uint32_t grid_axis(uint32_t blocks, uint32_t req, uint8_t *size)
{
  if (req == 0)
    req = 1;
  if (req > blocks)
    req = blocks;
  const uint32_t w = (blocks + req - 1u) / req;
  *size = (uint8_t)w;
  return (blocks + w - 1u) / w;
}

/* The k-th coarse bin of the processing order: its index cy * nx + cx and RASTER.COARSE. */
static uint32_t order_bin(const cp_queue_t *st, uint32_t k, uint32_t *rect)
{
  const uint32_t nx = st->rp_nx;
  const uint32_t cy = k / nx;
  uint32_t cx = k - cy * nx;
  if (TS_PKT_SET_BIN_MODE_ORDER_GET(st->bin_mode) == TS_BIN_ORDER_SERPENTINE && (cy & 1u))
    cx = nx - 1u - cx;
  const uint32_t x0 = cx * st->rp_w, y0 = cy * st->rp_h;
  uint32_t x1 = x0 + st->rp_w - 1u, y1 = y0 + st->rp_h - 1u;
  if (x1 >= st->rp_bx)
    x1 = st->rp_bx - 1u;
  if (y1 >= st->rp_by)
    y1 = st->rp_by - 1u;
  *rect = TS_RASTER_COARSE_X0_PUT(x0) | TS_RASTER_COARSE_Y0_PUT(y0) | TS_RASTER_COARSE_X1_PUT(x1) |
          TS_RASTER_COARSE_Y1_PUT(y1) | TS_RASTER_COARSE_ENABLE_PUT(1);
  return cy * nx + cx;
}

/* Start pass st->rp_pass of a two-level render pass: its registers, then RENDERPASS_BEGIN. */
static void start_pass(cp_queue_t *st)
{
  const uint32_t first = TS_PKT_SET_BIN_MODE_VIS_FIRST_GET(st->bin_mode);
  uint32_t vis, rect;
  if (st->rp_pass == 0) {
    vis = TS_GEOM_VIS_MODE_PUT(TS_VIS_MODE_WRITE);
    rect = CP_RECT_EMPTY;
    if (first)
      (void)order_bin(st, 0, &rect);
  } else {
    const uint32_t bin = order_bin(st, st->rp_pass - 1u + first, &rect);
    vis = TS_GEOM_VIS_MODE_PUT(TS_VIS_MODE_TEST) | TS_GEOM_VIS_BIN_PUT(bin);
  }
  push_reg(st, TS_GEOM_BASE_ADDR + TS_GEOM_VIS_OFFSET, vis);
  push_reg(st, TS_RASTER_BASE_ADDR + TS_RASTER_COARSE_OFFSET, rect);
  cp_pipe_push(st, TS_OP_RENDERPASS_BEGIN, TS_PKT_RENDERPASS_BEGIN_LEN, st->rp_payload);
}

/* Two-level set-up at RENDERPASS_BEGIN: the grid and the buffer's stride; 0 when the bound
 * visibility buffer cannot hold one line per coarse bin (reported as BAD_ADDRESS). */
static int two_level_setup(cp_queue_t *st, const uint32_t *pl)
{
  const uint32_t w = TS_PKT_RENDERPASS_BEGIN_WIDTH_GET(pl[TS_PKT_RENDERPASS_BEGIN_WIDTH_DW]);
  const uint32_t h = TS_PKT_RENDERPASS_BEGIN_HEIGHT_GET(pl[TS_PKT_RENDERPASS_BEGIN_HEIGHT_DW]);
  const uint32_t bx = w == 0 ? 1u : (w + 63u) >> 6;
  const uint32_t by = h == 0 ? 1u : (h + 63u) >> 6;
  st->rp_bx = (uint8_t)bx;
  st->rp_by = (uint8_t)by;
  st->rp_nx = (uint16_t)grid_axis(bx, TS_PKT_SET_BIN_MODE_COARSE_X_GET(st->bin_grid), &st->rp_w);
  st->rp_ny = (uint16_t)grid_axis(by, TS_PKT_SET_BIN_MODE_COARSE_Y_GET(st->bin_grid), &st->rp_h);
  const uint32_t bins = (uint32_t)st->rp_nx * st->rp_ny;
  uint32_t lines = (st->vis_size >> 6) / bins;
  if (lines == 0)
    return 0;
  if (lines > (TS_GEOM_VIS_STRIDE_LINES_MASK >> TS_GEOM_VIS_STRIDE_LINES_LSB))
    lines = TS_GEOM_VIS_STRIDE_LINES_MASK >> TS_GEOM_VIS_STRIDE_LINES_LSB;
  st->rp_passes = (uint16_t)(1u + bins - TS_PKT_SET_BIN_MODE_VIS_FIRST_GET(st->bin_mode));
  push_reg(st, TS_GEOM_BASE_ADDR + TS_GEOM_COARSE_OFFSET,
           TS_GEOM_COARSE_W_PUT(st->rp_w) | TS_GEOM_COARSE_H_PUT(st->rp_h) |
               TS_GEOM_COARSE_NX_PUT(st->rp_nx) | TS_GEOM_COARSE_NY_PUT(st->rp_ny));
  push_reg(st, TS_GEOM_BASE_ADDR + TS_GEOM_VIS_BASE_OFFSET, st->vis_addr & TS_GEOM_VIS_BASE_ADDR_MASK);
  push_reg(st, TS_GEOM_BASE_ADDR + TS_GEOM_VIS_STRIDE_OFFSET, TS_GEOM_VIS_STRIDE_LINES_PUT(lines));
  return 1;
}

static int renderpass_addresses_ok(const uint32_t *pl)
{
  const uint64_t w = TS_PKT_RENDERPASS_BEGIN_WIDTH_GET(pl[TS_PKT_RENDERPASS_BEGIN_WIDTH_DW]);
  const uint64_t h = TS_PKT_RENDERPASS_BEGIN_HEIGHT_GET(pl[TS_PKT_RENDERPASS_BEGIN_HEIGHT_DW]);
  const uint64_t bytes = w * h * 4u; /* RGBA8 color, depth in 32-bit words */
  return cp_mem_ok(
             TS_PKT_RENDERPASS_BEGIN_COLOR_ADDR_GET(pl[TS_PKT_RENDERPASS_BEGIN_COLOR_ADDR_DW]), 64,
             bytes) &&
         cp_mem_ok(
             TS_PKT_RENDERPASS_BEGIN_DEPTH_ADDR_GET(pl[TS_PKT_RENDERPASS_BEGIN_DEPTH_ADDR_DW]), 64,
             bytes);
}

void cp_renderpass_begin(cp_queue_t *st, const uint32_t *pl)
{
  if (!renderpass_addresses_ok(pl)) {
    cp_report_error(st, TS_CP_ERROR_BAD_ADDRESS);
    return;
  }
  if (st->rp_active) { /* nested: the outer pass's body_size is wrong */
    cp_report_error(st, TS_CP_ERROR_BAD_LENGTH);
    return;
  }
  const uint32_t body = TS_PKT_RENDERPASS_BEGIN_BODY_SIZE_GET(pl[TS_PKT_RENDERPASS_BEGIN_BODY_SIZE_DW]);
  const uint32_t level = st->pkt_level;
  /* The body and the RENDERPASS_END header lie in the packet's buffer (a ring holds at most
   * size - 1 published dwords). */
  if (level == 0 ? (1u + TS_PKT_RENDERPASS_BEGIN_LEN) + body + 1u > st->size - 1u
                 : body + 1u > st->ib_left[level]) {
    cp_report_error(st, TS_CP_ERROR_IB_OVERFLOW);
    return;
  }
  st->rp_two_level = TS_PKT_SET_BIN_MODE_MODE_GET(st->bin_mode) == TS_BIN_MODE_TWO_LEVEL;
  st->rp_passes = 1;
  if (st->rp_two_level && !two_level_setup(st, pl)) {
    cp_report_error(st, TS_CP_ERROR_BAD_ADDRESS); /* no room for one line per coarse bin */
    return;
  }
  st->rp_active = 1;
  st->rp_level = (uint8_t)level;
  st->rp_pass = 0;
  if (level == 0) {
    st->rp_begin_pos = st->pkt_pos;
    st->rp_body_pos = st->rd;
    st->rp_end_pos = (st->rd + body) & st->mask;
  } else {
    st->rp_body_pos = st->ib_addr[level];
    st->rp_body_left = st->ib_left[level];
    st->rp_end_pos = st->ib_addr[level] + 4u * body;
  }
  for (uint32_t i = 0; i < TS_PKT_RENDERPASS_BEGIN_LEN; i++)
    st->rp_payload[i] = pl[i];
  if (st->rp_two_level)
    start_pass(st);
  else
    cp_pipe_push(st, TS_OP_RENDERPASS_BEGIN, TS_PKT_RENDERPASS_BEGIN_LEN, pl);
}

int cp_rp_packet_in_body(const cp_queue_t *st)
{
  if (st->pkt_level != st->rp_level)
    return 1; /* deeper: an IB the body calls */
  const uint32_t len = 1u + TS_PKT_HDR_LENGTH_GET(st->hdr);
  const int end = TS_PKT_HDR_OPCODE_GET(st->hdr) == TS_OP_RENDERPASS_END;
  uint32_t off, body;
  if (st->pkt_level == 0) {
    off = (st->pkt_pos - st->rp_body_pos) & st->mask;
    body = (st->rp_end_pos - st->rp_body_pos) & st->mask;
  } else {
    off = (st->pkt_pos - st->rp_body_pos) / 4u;
    body = (st->rp_end_pos - st->rp_body_pos) / 4u;
  }
  return end ? off == body : (off < body && len <= body - off);
}

void cp_renderpass_end(cp_queue_t *st)
{
  if (!st->rp_active) { /* no pass open: forwarded, nothing replayed */
    cp_pipe_push(st, TS_OP_RENDERPASS_END, 0, 0);
    return;
  }
  if (st->pkt_level != st->rp_level || st->pkt_pos != st->rp_end_pos) {
    cp_report_error(st, TS_CP_ERROR_BAD_LENGTH);
    return;
  }
  cp_pipe_push(st, TS_OP_RENDERPASS_END, 0, 0);
  if (++st->rp_pass < st->rp_passes) {
    /* Replay the body for the next coarse bin. */
    cp_stream_rewind(st, st->rp_level, st->rp_body_pos, st->rp_body_left);
    start_pass(st);
    return;
  }
  if (st->rp_two_level) {
    push_reg(st, TS_GEOM_BASE_ADDR + TS_GEOM_VIS_OFFSET, TS_GEOM_VIS_MODE_PUT(TS_VIS_MODE_OFF));
    push_reg(st, TS_RASTER_BASE_ADDR + TS_RASTER_COARSE_OFFSET, TS_RASTER_COARSE_RESET);
  }
  st->rp_active = 0; /* at ring level the caller commits RPTR past the END now */
}
