/* cp_stream.c -- the CP firmware's stream reader: rings and indirect buffers read through the
 * packet fetch channels (spec/registers/cpfw.yaml FETCH[n], n = 3 * queue + level).
 *
 * Every packet dword comes from FETCH[n].DATA; the firmware never reads packets through the
 * GPU memory window. The ring channel streams only published dwords (RPTR..WPTR): a run is
 * started with FETCH_ADDR + FETCH_START, grown with FETCH_EXTEND when the host moves WPTR and
 * the run is contiguous, and restarted at RING_BASE when it reaches the end of the ring. An IB
 * channel streams the whole IB in one run. Channels are independent, so a caller's channel is
 * still positioned after its IB returns. docs/firmware.md, "Stream reader".
 */
#include "cp_fw_internal.h"

static void fetch_start(uint32_t ch, uint32_t addr, uint32_t count)
{
  hal_wr(CPFW(TS_CPFW_FETCH_ADDR_OFFSET_N(ch)), TS_CPFW_FETCH_ADDR_ADDR_PUT(addr));
  hal_wr(CPFW(TS_CPFW_FETCH_START_OFFSET_N(ch)), TS_CPFW_FETCH_START_COUNT_PUT(count));
}

int cp_stream_sync(cp_queue_t *st)
{
  const uint32_t q = st->id;
  const uint32_t log2 =
      TS_CPFW_RING_SIZE_LOG2_DWORDS_GET(hal_rd(CPFW(TS_CPFW_RING_SIZE_OFFSET_N(q))));
  /* cp.yaml RING_SIZE: 4..16 are valid. */
  if (log2 < 4u || log2 > 16u)
    return 0;
  st->base = TS_CPFW_RING_BASE_ADDR_GET(hal_rd(CPFW(TS_CPFW_RING_BASE_OFFSET_N(q)))) & ~63u;
  st->size = 1u << log2;
  st->mask = st->size - 1u;
  st->rptr = TS_CPFW_RPTR_PTR_GET(hal_rd(st->reg_rptr)) & st->mask;
  st->rd = st->rptr;
  st->run_left = 0;
  st->wptr = st->rptr;
  st->chan_ok = 0;
  st->level = 0;
  st->dsid = 0;
  st->phase = CP_PH_IDLE;
  st->have_hdr = 0;
  st->rp_active = 0;
  return 1;
}

/* Grow the ring channel's run over the dwords published beyond it (st->wptr), up to the end
 * of the ring: extend the run if the channel is positioned at its end, else start a new one. */
void cp_stream_ring_topup(cp_queue_t *st)
{
  const uint32_t pub = (st->wptr - st->rd) & st->mask;
  const uint32_t contig = st->size - st->rd;
  const uint32_t want = pub < contig ? pub : contig;
  if (want <= st->run_left)
    return;
  const uint32_t ch = cp_fetch_channel(st->id, 0);
  if (st->chan_ok) {
    hal_wr(CPFW(TS_CPFW_FETCH_EXTEND_OFFSET_N(ch)),
           TS_CPFW_FETCH_EXTEND_COUNT_PUT(want - st->run_left));
  } else {
    fetch_start(ch, st->base + 4u * st->rd, want);
    st->chan_ok = 1;
  }
  st->run_left = want;
}

void cp_stream_skip(cp_queue_t *st, uint32_t n)
{
  const uint32_t level = st->level;
  if (n == 0)
    return;
  if (level == 0) {
    if (n <= st->run_left && n <= CP_SKIP_READ_MAX) {
      cp_stream_read_n(st, 0, n);
      return;
    }
    /* Reposition: the next read starts a new run (FETCH_START discards the old one). */
    st->rd = (st->rd + n) & st->mask;
    st->run_left = 0;
    st->chan_ok = 0;
    return;
  }
  if (n <= CP_SKIP_READ_MAX) {
    cp_stream_read_n(st, 0, n);
    return;
  }
  st->ib_addr[level] += 4u * n;
  st->ib_left[level] -= n;
  if (st->ib_left[level] != 0)
    fetch_start(cp_fetch_channel(st->id, level), st->ib_addr[level], st->ib_left[level]);
}

void cp_stream_ib_call(cp_queue_t *st, uint32_t addr, uint32_t size)
{
  const uint32_t level = st->level + 1u;
  st->ib_addr[level] = addr;
  st->ib_left[level] = size;
  st->dsid_saved[level] = st->dsid;
  st->level = (uint8_t)level;
  fetch_start(cp_fetch_channel(st->id, level), addr, size);
  if (st->dsid != 0) {
    st->dsid = 0; /* a command buffer never inherits another's DSID (Apple source, FIG. 5/6) */
    cp_dsid_push(st); /* the pipeline sees the change as a DSID_SET 0 */
  }
}

void cp_stream_ib_return_finished(cp_queue_t *st)
{
  const uint32_t dsid = st->dsid;
  while (st->level != 0 && st->ib_left[st->level] == 0) {
    st->dsid = st->dsid_saved[st->level];
    st->level--;
  }
  /* One DSID_SET for the net change: IBs ending together (IB2 at the end of IB1) return at
   * once, and nothing runs at the levels in between. */
  if (st->dsid != dsid)
    cp_dsid_push(st);
}

void cp_stream_rewind(cp_queue_t *st, uint32_t level, uint32_t pos, uint32_t left)
{
  if (level == 0) {
    st->rd = pos; /* the next read starts a new run (FETCH_START discards the old one) */
    st->run_left = 0;
    st->chan_ok = 0;
    return;
  }
  st->ib_addr[level] = pos;
  st->ib_left[level] = left;
  fetch_start(cp_fetch_channel(st->id, level), pos, left);
}
