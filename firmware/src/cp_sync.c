/* cp_sync.c -- the CP firmware's fences, barriers and DSIDs: FENCE, BARRIER_UPDATE,
 * BARRIER_WAIT, DSID_SET and DSID_DELETE (spec/packets.yaml; docs/firmware.md, "Packets").
 *
 * FENCE, BARRIER_UPDATE and DSID_DELETE act once the queue's earlier pipeline work is complete,
 * after optional cache maintenance; they never block: sync_begin records what is to be done and
 * cp_sync_advance moves the queue through the wait phases (enum cp_phase) as far as the hardware
 * allows, once when the packet executes and then once per wait check of the queue's turns.
 * DSID ordering follows the Apple DSID source (seeds/002): the delete hint goes to the SLC only
 * after the queue's earlier work is complete, and the fence is written after the SLC reports
 * completion.
 */
#include "cp_fw_internal.h"

#ifndef CP_FW_HOST
/* Render passes, fences and DSIDs run a few times per frame: optimised for size (the 16 KiB
 * ROM, docs/firmware.md "ROM budget"). */
#pragma GCC optimize("Os")
#endif

uint32_t cp_fw_barrier(uint32_t id)
{
  return cp_fw.barrier[id % CP_NUM_BARRIERS];
}

int cp_barrier_reached(uint32_t id, uint32_t value)
{
  return cp_fw.barrier[id % CP_NUM_BARRIERS] >= value;
}

/* DSID_SET to the pipeline: one argument, the queue's new DSID (also the command's dsid
 * field). Pushed for every DSID_SET packet and for every change of the DSID at an IB boundary
 * (cp_stream.c), so each queue's commands carry the DSID of its last DSID_SET command and the
 * binner closes its batch at every DSID change (docs/firmware.md, "DSID scope"). */
void cp_dsid_push(cp_queue_t *st)
{
  const uint32_t dsid = st->dsid;
  cp_pipe_push(st, TS_OP_DSID_SET, 1, &dsid);
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
  cp_note_pushes(st);
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
void cp_sync_advance(cp_queue_t *st)
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

/* ---- the packets ------------------------------------------------------------------------- */

void cp_exec_fence(cp_queue_t *st, const uint32_t *pl)
{
  const uint32_t addr = TS_PKT_FENCE_ADDR_GET(pl[TS_PKT_FENCE_ADDR_DW]);
  if (!cp_win_ok(addr, 4, 4)) {
    cp_report_error(st, TS_CP_ERROR_BAD_ADDRESS);
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
  cp_sync_advance(st);
}

/* Set once the queue's earlier pipeline work is complete (docs/firmware.md). */
void cp_exec_barrier_update(cp_queue_t *st, const uint32_t *pl)
{
  sync_begin(st, CP_SYNC_BARRIER, TS_PKT_BARRIER_UPDATE_ID_GET(pl[TS_PKT_BARRIER_UPDATE_ID_DW]),
             TS_PKT_BARRIER_UPDATE_VALUE_GET(pl[TS_PKT_BARRIER_UPDATE_VALUE_DW]));
  cp_sync_advance(st);
}

/* The wait itself is checked by the scheduler (cp_sched.c, wait_step). */
void cp_exec_barrier_wait(cp_queue_t *st, const uint32_t *pl)
{
  st->addr = TS_PKT_BARRIER_WAIT_ID_GET(pl[TS_PKT_BARRIER_WAIT_ID_DW]);
  st->value = TS_PKT_BARRIER_WAIT_VALUE_GET(pl[TS_PKT_BARRIER_WAIT_VALUE_DW]);
  if (!cp_barrier_reached(st->addr, st->value))
    st->phase = CP_PH_WAIT_BARRIER;
}

void cp_exec_dsid_set(cp_queue_t *st, const uint32_t *pl)
{
  st->dsid = (uint8_t)TS_PKT_DSID_SET_DSID_GET(pl[TS_PKT_DSID_SET_DSID_DW]);
  cp_dsid_push(st); /* forwarded even if the DSID is unchanged: one command per packet */
}

void cp_exec_dsid_delete(cp_queue_t *st, const uint32_t *pl)
{
  const uint32_t dsid = TS_PKT_DSID_DELETE_DSID_GET(pl[TS_PKT_DSID_DELETE_DSID_DW]);
  const uint32_t addr = TS_PKT_DSID_DELETE_FENCE_ADDR_GET(pl[TS_PKT_DSID_DELETE_FENCE_ADDR_DW]);
  if (!cp_win_ok(addr, 4, 4)) {
    cp_report_error(st, TS_CP_ERROR_BAD_ADDRESS);
    return;
  }
  sync_begin(st, CP_SYNC_WRITE, addr,
             TS_PKT_DSID_DELETE_FENCE_VALUE_GET(pl[TS_PKT_DSID_DELETE_FENCE_VALUE_DW]));
  if (dsid != 0) { /* DSID 0 is never deleted: only the fence is written */
    st->slc_op[0] = TS_SLC_CMD_DELETE;
    st->slc_dsid = (uint8_t)dsid;
    st->slc_n = 1;
  }
  cp_sync_advance(st);
}
