/* cp_sched.c -- the CP firmware's queue scheduling: start-up, the scheduler round
 * (cp_fw_poll), a queue's turn and its wait checks (ARCHITECTURE.md sections 4 and 5.1;
 * registers in spec/registers/cpfw.yaml; docs/firmware.md, "Main loop and scheduler").
 *
 * The hardware queues are served round-robin: cp_fw_poll gives each enabled, not halted queue
 * one turn of up to CP_TURN_STEPS steps; a step executes one packet (cp_exec.c) or checks the
 * one condition the queue waits for (BARRIER_WAIT, FENCE / BARRIER_UPDATE / DSID_DELETE
 * completion, a COND_EXEC skip not yet published). Waiting never blocks: the turn ends, the
 * queue's state stays in DMEM and the next queue runs.
 */
#include "cp_fw_internal.h"

cp_fw_t cp_fw;

_Static_assert(CP_MAX_QUEUES * CP_LEVELS <= TS_CPFW_FETCH_COUNT, "3 fetch channels per queue");

/* Steps (packets, or wait checks) one queue may run in one turn before the other queue gets
 * its turn: the fairness bound of the scheduler (docs/firmware.md, "Main loop"). */
#define CP_TURN_STEPS 16u

#ifdef CP_FW_HOST
int cp_fw_host_fast_path = 1;
#define CP_FAST_PATH_ON (cp_fw_host_fast_path != 0)
#else
#define CP_FAST_PATH_ON 1
#endif

/* A wait check: the condition the queue waits for, and what follows once it holds. */
static void wait_step(cp_queue_t *st)
{
  switch (st->phase) {
    case CP_PH_WAIT_BARRIER:
      if (cp_barrier_reached(st->addr, st->value))
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
      cp_sync_advance(st);
      break;
  }
}

/* One turn of a queue: up to CP_TURN_STEPS steps. It ends early when the queue is left
 * waiting (a wait check that did not pass, or a packet that entered a wait), halts, or has
 * nothing to execute. Each step's mcycle delta goes to its packet type's statistics (one CSR
 * read per step); the final look at an empty ring is not a step and is not counted. At ring
 * level and in IBs the packets inside the channel's run go through the fast path first; both
 * paths execute a packet with the same per-packet functions (cp_exec.c). */
static void queue_turn(cp_queue_t *st)
{
  uint32_t t0 = hal_cycles32();
  for (uint32_t n = CP_TURN_STEPS; n != 0; n--) {
    uint32_t stat;
    /* (not inside a render pass at ring level: the fast path commits RPTR itself; at IB
     * level it stops at the IB's end, the return from it is done here, and the general path
     * below takes the step's packet at the level it returns to) */
    if (CP_FAST_PATH_ON && st->phase == CP_PH_IDLE && st->have_hdr == CP_HDR_NONE &&
        !(st->level == 0 && st->rp_active)) {
      cp_exec_fast(st, &n, &t0);
      if (st->level != 0 && st->phase == CP_PH_IDLE)
        cp_stream_ib_return_finished(st);
      if (n == 0 || st->phase != CP_PH_IDLE)
        break;
    }
    if (__builtin_expect(st->phase == CP_PH_IDLE, 1)) {
      stat = cp_exec_next(st);
      if (stat == CP_STEP_NONE)
        break;
    } else {
      stat = st->stat;
      cp_fw_stats.op[stat].wait_checks++;
      cp_fw_status(CP_FWS(CP_FWS_WAIT, st->id, TS_PKT_HDR_OPCODE_GET(st->hdr), st->pkt_level,
                          st->phase));
      wait_step(st);
    }
    if (__builtin_expect(st->level != 0, 0) && st->phase == CP_PH_IDLE)
      cp_stream_ib_return_finished(st);
    const uint32_t t1 = hal_cycles32();
    cp_fw_stats.op[stat].cycles += t1 - t0;
    t0 = t1;
    /* Waiting, halted, or a partly published packet: the other queue's turn. */
    if (__builtin_expect((st->phase | st->have_hdr) != 0, 0))
      break;
  }
  cp_note_pushes(st);
}

/* ---- scheduler ------------------------------------------------------------------------------- */

static int idle_at_ring(const cp_queue_t *st)
{
  /* (not inside a render pass at ring level: RPTR is held at its RENDERPASS_BEGIN) */
  return st->level == 0 && st->phase == CP_PH_IDLE && !st->have_hdr && !st->rp_active;
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
  cp_zero(&cp_fw, sizeof cp_fw);
  cp_fw_host_fast_packets = 0;
#endif
  cp_fw.fw_status = CP_FWS_INIT;
  cp_stats_init();

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
  cp_fw_status(CP_FWS_IDLE);
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
  cp_fw_status(CP_FWS_IDLE);
}
