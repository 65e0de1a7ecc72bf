// Functional bench of the SLC (rtl/slc/slc.sv, docs/slc.md) on slc_small (4 KiB, 4 ways, 16
// sets, 2 MSHRs, 2 writeback slots: evictions and full tables are frequent) and slc_default
// (128 KiB, 8 ways, 256 sets, 4 MSHRs).
//
// Scoreboards (slc_checks.hpp): the reference model (slc_ref.hpp, from the specification) for
// serial traffic: responses, memory traffic, every counter, LINES and per-DSID occupancy are
// exact; a flat memory model for concurrent traffic: READ data, the final memory image after a
// FLUSH, DELETE semantics and the prediction of deleted-dirty lines from the observed memory
// traffic. The downstream memory answers with random latency, in any order, with random
// backpressure, and applies a write only when it acknowledges it.
//
// Rerun a test: RANDOM_SEED=<n> TESTCASE=<name> build/tb/slc/bench_slc (WAVES=1 for an FST).
// TESSERA_REGRESS=1 makes the random tests 5-10x longer.
#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "Vslc_default.h"
#include "Vslc_small.h"
#include "slc_checks.hpp"
#include "slc_env.hpp"
#include "tb/test.hpp"

using namespace slctb;
using tb::RisingEdge;
using tb::Task;

namespace {

// DSID owning a line in the random tests: the driver keeps each DSID's address range disjoint
// (source document: "The user space driver 102 is responsible for ensuring that the address
// ranges of each DSID do not overlap").
std::uint8_t owner(std::uint32_t line, unsigned ndsid) { return static_cast<std::uint8_t>((line * 2654435761U >> 7) % ndsid); }

// A random WRITE that changes at least one byte of the line (so that a writeback of the old
// data can be told from one of the new data): partial strobes half of the time.
Req random_write(std::uint32_t addr, std::uint8_t dsid, const Line& cur, std::uint8_t src = 0) {
  std::uint64_t strb = ~0ULL;
  if (tb::chance(0.5)) {
    strb = 0;
    while (strb == 0) strb = tb::rng()() & tb::rng()();
  }
  Line d = random_line();
  const unsigned first = static_cast<unsigned>(__builtin_ctzll(strb));
  if (d[first] == cur[first]) d[first] ^= 0x5a;
  return wr(addr, dsid, d, strb, src);
}

// Address pool: `nsets` sets x `ntags` tags (more tags than ways: conflicts and evictions).
std::vector<std::uint32_t> address_pool(const Geometry& g, unsigned nsets, unsigned ntags) {
  std::vector<std::uint32_t> pool;
  for (unsigned s = 0; s < nsets; ++s) {
    const unsigned set = static_cast<unsigned>((s * 7 + 3) % g.sets());
    for (unsigned t = 0; t < ntags; ++t) pool.push_back(g.addr_of(set, 0x40 + t * 3 + s));
  }
  return pool;
}

// ---------------------------------------------------------------------------------------------
// Registers after reset.
// Catches: a tag-array initialisation that never ends (STATUS.busy stuck), CONFIG not matching
// the parameters, counters/occupancy not reset, register decode errors (unmapped offsets,
// writes to read-only registers, misaligned accesses must answer err and change nothing).
template <class V>
Task<> t_registers(tb::Dut<V>& dut, Params p) {
  SlcEnv<V> env(dut, p);
  co_await env.start();
  const std::uint32_t cfg = co_await env.reg_read(TS_SLC_CONFIG_OFFSET);
  unsigned log2 = 0;
  while ((1U << log2) < p.sets()) ++log2;
  check(TS_SLC_CONFIG_WAYS_GET(cfg) == p.ways && TS_SLC_CONFIG_SETS_LOG2_GET(cfg) == log2 &&
            TS_SLC_CONFIG_MSHRS_GET(cfg) == p.mshrs && TS_SLC_CONFIG_WBS_GET(cfg) == p.wbs,
        "CONFIG = 0x{:08x} does not describe {}", cfg, p.name);
  const Counters c = co_await env.read_counters();
  for (unsigned i = 0; i < kNumCnt; ++i) check(c[i] == 0, "counter {} = {} after reset", cnt_name(i), c[i]);
  check(co_await env.reg_read(TS_SLC_LINES_OFFSET) == 0, "LINES not 0 after reset");
  check(co_await env.reg_read(TS_SLC_MEM_LIMIT_OFFSET) == TS_SLC_MEM_LIMIT_RESET, "MEM_LIMIT reset value");
  check(co_await env.reg_read(TS_SLC_CMD_COUNT_OFFSET) == 0, "CMD_COUNT not 0 after reset");
  const std::uint32_t st = co_await env.reg_read(TS_SLC_STATUS_OFFSET);
  check(st == 0, "STATUS = 0x{:08x} once initialised (expected 0)", st);
  // rw registers hold what is written (reserved bits read 0)
  co_await env.reg_write(TS_SLC_MEM_LIMIT_OFFSET, 0x1234'5678);
  check(co_await env.reg_read(TS_SLC_MEM_LIMIT_OFFSET) == (0x1234'5678U & TS_SLC_MEM_LIMIT_RW_MASK), "MEM_LIMIT readback");
  co_await env.reg_write(TS_SLC_OCC_SEL_OFFSET, 0xffff'ffff);
  check(co_await env.reg_read(TS_SLC_OCC_SEL_OFFSET) == TS_SLC_OCC_SEL_RW_MASK, "OCC_SEL readback");
  check(co_await env.reg_read(TS_SLC_WAY_LIMIT_OFFSET) == TS_SLC_WAY_LIMIT_RESET, "WAY_LIMIT reset value");
  co_await env.reg_write(TS_SLC_WAY_LIMIT_OFFSET, 0xffff'ffff);
  check(co_await env.reg_read(TS_SLC_WAY_LIMIT_OFFSET) == TS_SLC_WAY_LIMIT_RW_MASK, "WAY_LIMIT readback");
  co_await env.reg_write(TS_SLC_WAY_LIMIT_OFFSET, 0);
  check(co_await env.reg_read(TS_SLC_CMD_OFFSET) == 0, "CMD (write-only) must read 0");
  // errors: write to a read-only register, unmapped offset, beyond the block, misaligned
  for (std::uint32_t off : {std::uint32_t{TS_SLC_CNT_READS_OFFSET}, std::uint32_t{TS_SLC_OCC_OFFSET},
                            std::uint32_t{TS_SLC_CONFIG_OFFSET}, 0x024U, 0x0fcU, 0x100U, 0x802U, 0x011U}) {
    const auto w = co_await env.reg_access(off, true, 0xffff'ffff);
    check(w.err, "write to offset 0x{:03x} must answer err", off);
  }
  for (std::uint32_t off : {0x024U, 0x03cU, 0x084U, 0x100U, 0x1000U, 0x006U}) {
    const auto r = co_await env.reg_access(off, false, 0);
    check(r.err && r.data == 0, "read of offset 0x{:03x} must answer err with data 0", off);
  }
  check(co_await env.reg_read(TS_SLC_MEM_LIMIT_OFFSET) == (0x1234'5678U & TS_SLC_MEM_LIMIT_RW_MASK),
        "an err write changed MEM_LIMIT");
  check(co_await env.reg_read(TS_SLC_CMD_COUNT_OFFSET) == 0, "an err access queued a command");
}
TB_TEST(Vslc_small, registers_small) { co_await t_registers(dut, kSmall); }
TB_TEST(Vslc_default, registers_default) { co_await t_registers(dut, kDefault); }

// ---------------------------------------------------------------------------------------------
// Serial random traffic against the reference model.
// Catches: wrong hit/miss decisions, PLRU or victim choice differing from the specification
// (visible as a different eviction / writeback), write merging under strobes, DSID tagging
// (last writer, fills untagged), prefetch accounting, delete/flush/invalidate semantics, any
// counter or occupancy off by one, memory traffic that is missing, duplicated or wrong.
template <class V>
Task<> t_serial_random(tb::Dut<V>& dut, Params p, unsigned nops) {
  MemConfig mc;
  mc.lat_min = 1;
  mc.lat_max = 30;
  SlcEnv<V> env(dut, p, mc, 1);
  env.up.set_idle_probability(0.2);
  env.up.set_rsp_stall_probability(0.3);
  co_await env.start();
  Serial<V> s(env);
  const Geometry g = p.geometry();
  const auto pool = address_pool(g, std::min(6U, g.sets()), g.ways + 3);
  constexpr unsigned kDsids = 5;
  std::vector<std::uint8_t> dsids;
  for (unsigned d = 0; d < kDsids + 1; ++d) dsids.push_back(static_cast<std::uint8_t>(d));
  std::map<std::string, unsigned> mix;
  for (unsigned i = 0; i < nops; ++i) {
    const std::uint32_t a = pool[tb::randint(0, pool.size() - 1)];
    const unsigned k = static_cast<unsigned>(tb::randint(0, 999));
    if (tb::chance(0.004)) {  // cache partitioning: allocation limited to some ways (0 = all)
      const auto lim = static_cast<std::uint32_t>(tb::randint(0, g.ways + 1));
      co_await env.reg_write(TS_SLC_WAY_LIMIT_OFFSET, lim);
      s.model().set_way_limit(lim);
      ++mix["way limit"];
    }
    if (k < 360) {
      co_await s.op(rd(a));
      ++mix["read"];
    } else if (k < 740) {
      const std::uint8_t d = owner(a >> 6, kDsids);
      co_await s.op(random_write(a, d, Line{}));  // (the exact model needs no forced change)
      ++mix["write"];
    } else if (k < 880) {
      co_await s.op(pf(a));
      ++mix["prefetch"];
    } else if (k < 900) {
      Req r = rd(a + 4);  // misaligned
      if (tb::chance(0.5)) {
        r = pf(a);
        r.wstrb = 1;      // strobes on PREFETCH
      }
      co_await s.op(r);
      ++mix["bad"];
    } else if (k < 960) {
      co_await s.cmd(TS_SLC_CMD_DELETE, static_cast<std::uint8_t>(tb::randint(0, kDsids)));
      ++mix["delete"];
    } else if (k < 985) {
      co_await s.cmd(TS_SLC_CMD_FLUSH);
      ++mix["flush"];
    } else if (k < 995) {
      co_await s.cmd(TS_SLC_CMD_INVALIDATE);
      ++mix["invalidate"];
    } else {
      co_await s.check_state(dsids, fmt::format("op {}", i));
      co_await s.clear_counters();
      ++mix["clear"];
    }
    if (i % 64 == 63) co_await s.check_state(dsids, fmt::format("op {}", i));
  }
  co_await s.check_state(dsids, "end");
  co_await s.cmd(TS_SLC_CMD_FLUSH);
  std::vector<std::uint32_t> lines;
  for (auto a : pool) lines.push_back(a >> 6);
  s.check_memory(lines, "after the final FLUSH");
  const Counters c = s.model().counters();
  std::string m;
  for (const auto& [k2, v] : mix) m += fmt::format(" {}={}", k2, v);
  dut.log().info("{} ops:{}; since the last counter clear: evictions {}, writebacks {}, deleted dirty {}, "
                 "prefetch used {} unused {}", nops, m,
                 c[kEvictions], c[kWritebacks], c[kDelDirty], c[kPfUsed], c[kPfUnused]);
}
TB_TEST(Vslc_small, serial_random_small) { co_await t_serial_random(dut, kSmall, static_cast<unsigned>(tb::scaled(10000, 100000))); }
TB_TEST(Vslc_default, serial_random_default) { co_await t_serial_random(dut, kDefault, static_cast<unsigned>(tb::scaled(4000, 40000))); }

// ---------------------------------------------------------------------------------------------
// Concurrent random traffic from several sources, random gaps and backpressure on every
// channel, memory responses out of order, maintenance commands at random times.
// Catches: lost/duplicated/misrouted responses, data hazards between hits, misses, fills and
// writebacks (read-after-write and write-after-write to one line, refetch of a line whose
// writeback is still in flight), requests accepted while a command is pending, deleted dirty
// data reaching memory, a final memory image that differs from the flat model, counter
// identities (HITS + MISSES = READS + WRITES, WRITEBACKS / FILLS = memory writes / reads,
// DELETED_DIRTY and INVAL_DIRTY as predicted from the traffic), and hangs (every wait is
// bounded).
struct Cmd {
  unsigned op;
  std::uint8_t dsid;
  std::uint64_t accept;
};

// Random maintenance commands every 100-900 cycles until `stop`. (A named coroutine, not a
// capturing lambda: a lambda's captures die with the lambda object.)
template <class V>
Task<> command_generator(SlcEnv<V>& env, std::deque<Cmd>& cmds, std::uint64_t& blocked_from, const bool& stop,
                         bool enabled, unsigned ndsid) {
  if (!enabled) co_return;
  while (!stop) {
    co_await tb::ClockCycles(env.dut()->clk_i, static_cast<std::uint64_t>(tb::randint(100, 900)));
    if (stop) break;
    const unsigned k = static_cast<unsigned>(tb::randint(0, 99));
    const unsigned op = k < 70 ? TS_SLC_CMD_DELETE : k < 95 ? TS_SLC_CMD_FLUSH : TS_SLC_CMD_INVALIDATE;
    const auto d = static_cast<std::uint8_t>(tb::randint(0, ndsid));
    const auto r = co_await env.command(op, d);
    if (!r.err) {
      cmds.push_back({op, d, r.accept_cycle});
      if (blocked_from == ~0ULL) blocked_from = r.accept_cycle + 1;
    }
  }
}

template <class V>
Task<> t_concurrent(tb::Dut<V>& dut, Params p, unsigned nreq, unsigned nsets, unsigned extra_tags, bool commands) {
  MemConfig mc;
  mc.req_stall = 0.3;
  mc.rsp_idle = 0.3;
  mc.lat_min = 1;
  mc.lat_max = 60;
  SlcEnv<V> env(dut, p, mc, 3);
  env.up.set_idle_probability(0.2);
  env.up.set_rsp_stall_probability(0.3);
  co_await env.start();
  const Geometry g = p.geometry();
  const auto pool = address_pool(g, std::min(nsets, g.sets()), g.ways + extra_tags);
  constexpr unsigned kDsids = 6;
  constexpr unsigned kSrcs = 4;

  FlatModel flat;
  std::deque<Cmd> cmds;
  std::uint64_t blocked_from = ~0ULL;  // requests must not be accepted from this cycle on
  env.up.on_any_accept([&](const Req& r, std::uint64_t cyc) {
    check(cyc < blocked_from, "{} accepted at cycle {} while a command written at cycle {} was pending",
          tb::mem::describe(r), cyc, blocked_from - 1);
  });
  env.mem.on_request([&](const Req& r, std::uint64_t) {
    if (r.op == Op::write) flat.writeback(r.addr >> 6, r.wdata);
  });
  std::uint64_t flushes = 0;
  env.on_done([&](std::uint64_t) {
    check(!cmds.empty(), "ctrl_done_o pulse without a pending command");
    const Cmd c = cmds.front();
    cmds.pop_front();
    if (c.op == TS_SLC_CMD_DELETE) flat.deleted(c.dsid, env.mem);
    if (c.op == TS_SLC_CMD_INVALIDATE) flat.invalidated(env.mem);
    if (c.op == TS_SLC_CMD_FLUSH) {
      flat.flushed(env.mem, "FLUSH");
      ++flushes;
    }
    blocked_from = cmds.empty() ? ~0ULL : blocked_from;
  });

  for (unsigned i = 0; i < nreq; ++i) {
    const std::uint32_t a = pool[tb::randint(0, pool.size() - 1)];
    const auto src = static_cast<std::uint8_t>(tb::randint(0, kSrcs - 1));
    const unsigned k = static_cast<unsigned>(tb::randint(0, 999));
    UpItem it;
    if (k < 420) {
      it.req = rd(a, src);
    } else if (k < 880) {
      it.req = wr(a, owner(a >> 6, kDsids), Line{}, 0, src);
      // The data is chosen when the request is presented, against the line as the flat model
      // has it (nothing else is accepted before this request is).
      it.prepare = [&flat](Req& q) {
        const Req w = random_write(q.addr, q.dsid, flat.at(q.addr >> 6).data, q.src);
        q.wdata = w.wdata;
        q.wstrb = w.wstrb;
      };
    } else if (k < 980) {
      it.req = pf(a, src);
    } else {
      const unsigned bad = static_cast<unsigned>(tb::randint(0, 2));
      it.req = bad == 0 ? rd(a + 8, src) : bad == 1 ? rd(a, src) : pf(a, src);
      if (bad != 0) it.req.wstrb = 0xff;  // strobes on a READ or PREFETCH
    }
    it.on_accept = [&flat](const Req& q, std::uint64_t) { return flat.accept(q); };
    env.up.send(std::move(it));
  }

  // Command generator: random commands while traffic runs.
  bool traffic_done = false;
  auto cmd_task = tb::start_soon(command_generator(env, cmds, blocked_from, traffic_done, commands, kDsids));

  co_await env.up.wait_idle(static_cast<std::uint64_t>(nreq) * 400 + 100000);
  traffic_done = true;
  co_await tb::Join(cmd_task);
  co_await env.wait_done(env.done_pulses() + cmds.size());
  // Final flush: the memory must then hold exactly the flat model.
  cmds.push_back({TS_SLC_CMD_FLUSH, 0, 0});
  const auto r = co_await env.command(TS_SLC_CMD_FLUSH);
  check(!r.err, "final FLUSH dropped");
  co_await env.wait_done(env.done_pulses() + 1);
  co_await env.quiesce();

  const Counters c = co_await env.read_counters();
  check(c[kReads] == flat.reads && c[kWrites] == flat.writes && c[kPrefetches] == flat.prefetches &&
            c[kErrors] == flat.errors,
        "READS/WRITES/PREFETCHES/ERRORS = {}/{}/{}/{}, requests sent {}/{}/{}/{}", c[kReads], c[kWrites],
        c[kPrefetches], c[kErrors], flat.reads, flat.writes, flat.prefetches, flat.errors);
  check(c[kHits] + c[kMisses] == c[kReads] + c[kWrites], "HITS {} + MISSES {} != READS + WRITES {}", c[kHits],
        c[kMisses], c[kReads] + c[kWrites]);
  check(c[kWritebacks] == env.mem.writes() && c[kFills] == env.mem.reads(),
        "WRITEBACKS {} / FILLS {} but the memory saw {} writes / {} reads", c[kWritebacks], c[kFills], env.mem.writes(),
        env.mem.reads());
  check(c[kDelDirty] == flat.deleted_dirty, "DELETED_DIRTY {} but {} lines were resident and dirty at their delete",
        c[kDelDirty], flat.deleted_dirty);
  check(c[kInvalDirty] == flat.inval_dirty, "INVAL_DIRTY {} but {} dirty lines were invalidated", c[kInvalDirty],
        flat.inval_dirty);
  check(c[kMemErrors] == 0, "MEM_ERRORS {}", c[kMemErrors]);
  check(c[kPfFills] + c[kPfDropped] <= c[kPrefetches] && c[kPfUsed] + c[kPfUnused] <= c[kPfFills],
        "prefetch counters inconsistent: fills {} dropped {} used {} unused {} of {} prefetches", c[kPfFills],
        c[kPfDropped], c[kPfUsed], c[kPfUnused], c[kPrefetches]);
  const std::uint32_t lines = co_await env.reg_read(TS_SLC_LINES_OFFSET);
  check(TS_SLC_LINES_DIRTY_GET(lines) == 0, "LINES.dirty = {} after the final FLUSH", TS_SLC_LINES_DIRTY_GET(lines));
  unsigned occ_sum = 0;
  for (unsigned d = 0; d <= kDsids; ++d) occ_sum += co_await env.occupancy(static_cast<std::uint8_t>(d));
  check(occ_sum == TS_SLC_LINES_VALID_GET(lines), "per-DSID occupancy sums to {}, LINES.valid is {}", occ_sum,
        TS_SLC_LINES_VALID_GET(lines));
  check(c[kHits] > 0 && c[kMisses] > 0 && c[kEvictions] > 0 && c[kWritebacks] > 0,
        "stimulus did not reach hits, misses, evictions and writebacks: {}/{}/{}/{}", c[kHits], c[kMisses],
        c[kEvictions], c[kWritebacks]);
  if (commands) check(c[kDelDirty] > 0, "no DELETE found dirty lines: the stimulus misses the main case");
  dut.log().info("{} requests in {} cycles: hits {} misses {} evictions {} writebacks {} fills {} deleted dirty {} "
                 "clean {} inval dirty {} flushes {}; {} lines touched",
                 nreq, env.cycle(), c[kHits], c[kMisses], c[kEvictions], c[kWritebacks], c[kFills], c[kDelDirty],
                 c[kDelClean], c[kInvalDirty], flushes, flat.size());
}

}  // namespace

TB_TEST(Vslc_small, concurrent_random_small) {
  co_await t_concurrent(dut, kSmall, static_cast<unsigned>(tb::scaled(40000, 400000)), 8, 4, true);
}
// A few hot lines hammered by every source: same-line ordering under misses and replays.
TB_TEST(Vslc_small, concurrent_hot_lines_small) {
  co_await t_concurrent(dut, kSmall, static_cast<unsigned>(tb::scaled(20000, 200000)), 1, 2, false);
}
TB_TEST(Vslc_default, concurrent_random_default) {
  co_await t_concurrent(dut, kDefault, static_cast<unsigned>(tb::scaled(30000, 300000)), 12, 6, true);
}

namespace {

// ---------------------------------------------------------------------------------------------
// Directed DELETE cases, on slc_small (16 sets x 4 ways; set = addr[9:6]). Each runs through
// the serial scoreboard (exact counters and traffic) and states its own expectations too.

constexpr std::uint8_t kD = 5;  // the DSID under test

// Write `n` lines with DSID d: partial writes (so each one fills first), lines in set `set`
// (or spread over sets when set < 0), tags from `tag0`.
template <class V>
Task<std::vector<std::uint32_t>> write_lines(Serial<V>& s, const Geometry& g, unsigned n, std::uint8_t d, int set,
                                             unsigned tag0, std::uint64_t strb = 0x00ff'00ff'00ff'00ffULL) {
  std::vector<std::uint32_t> addrs;
  for (unsigned i = 0; i < n; ++i) {
    const unsigned st = set >= 0 ? static_cast<unsigned>(set) : i % g.sets();
    const unsigned tg = set >= 0 ? tag0 + i : tag0 + i / g.sets();
    const std::uint32_t a = g.addr_of(st, tg);
    co_await s.op(wr(a, d, random_line(), strb));
    addrs.push_back(a);
  }
  co_return addrs;
}
template <class... T>
std::vector<std::uint8_t> ds(T... v) {
  std::vector<std::uint8_t> r;
  (r.push_back(static_cast<std::uint8_t>(v)), ...);
  return r;
}
std::vector<std::uint32_t> lines_of(const std::vector<std::uint32_t>& addrs) {
  std::vector<std::uint32_t> l;
  for (auto a : addrs) l.push_back(a >> 6);
  return l;
}
// Memory writes of these lines since log position `from`.
template <class V>
unsigned writes_to(const SlcEnv<V>& env, const std::vector<std::uint32_t>& addrs, std::size_t from) {
  std::set<std::uint32_t> want(addrs.begin(), addrs.end());
  unsigned n = 0;
  const auto& log = env.mem.log();
  for (std::size_t i = from; i < log.size(); ++i)
    if (log[i].req.op == Op::write && want.count(log[i].req.addr)) ++n;
  return n;
}

// Catches: a delete that writes dirty lines back (the whole point of the hint), that misses
// resident dirty lines of the DSID, or whose counters (DELETED_DIRTY, occupancy) are wrong;
// data of a deleted line must afterwards come from memory (the old contents).
TB_TEST(Vslc_small, delete_dirty_resident) {
  SlcEnv<Vslc_small> env(dut, kSmall);
  co_await env.start();
  Serial<Vslc_small> s(env);
  const Geometry g = kSmall.geometry();
  const auto a = co_await write_lines(s, g, 10, kD, -1, 0x10);
  co_await write_lines(s, g, 4, 0, -1, 0x20);  // untagged neighbours stay
  check(co_await env.occupancy(kD) == 10, "OCC of DSID {} before the delete", kD);
  const std::size_t mark = env.mem.log().size();
  co_await s.cmd(TS_SLC_CMD_DELETE, kD);
  check(env.mem.log().size() == mark, "DELETE generated memory traffic");
  check(s.model().counters()[kDelDirty] == 10, "reference model: 10 dirty lines deleted");
  co_await s.check_state(ds(0, kD), "after DELETE");
  for (auto x : a) co_await s.op(rd(x));  // old contents, refetched from memory
  co_await s.cmd(TS_SLC_CMD_FLUSH);
  check(writes_to(env, a, mark) == 0, "deleted dirty lines reached memory");
  s.check_memory(lines_of(a), "after FLUSH");
  co_await s.check_state(ds(0, kD), "end");
}

// Catches: a delete that ignores clean lines of the DSID (they are dropped too, without
// writeback: DELETED_CLEAN), or that rewrites them; the data written earlier stays readable
// from memory.
TB_TEST(Vslc_small, delete_clean_resident) {
  SlcEnv<Vslc_small> env(dut, kSmall);
  co_await env.start();
  Serial<Vslc_small> s(env);
  const Geometry g = kSmall.geometry();
  const auto a = co_await write_lines(s, g, 8, kD, -1, 0x10);
  co_await s.cmd(TS_SLC_CMD_FLUSH);  // lines now clean, still DSID kD
  check(co_await env.occupancy(kD) == 8, "FLUSH must keep the lines and their DSID");
  const std::size_t mark = env.mem.log().size();
  co_await s.cmd(TS_SLC_CMD_DELETE, kD);
  check(env.mem.log().size() == mark, "DELETE generated memory traffic");
  check(s.model().counters()[kDelClean] == 8 && s.model().counters()[kDelDirty] == 0, "model: 8 clean deleted");
  co_await s.check_state(ds(kD), "after DELETE");
  for (auto x : a) co_await s.op(rd(x));  // the flushed data, from memory (misses)
  co_await s.check_state(ds(kD), "end");
}

// Catches: a delete acting on lines that were already evicted (their writeback must stand:
// "where the memory cache has persisted the cache line to system memory, the memory cache does
// not delete the contents"), and an occupancy counter that forgets evictions, which would make
// the walk run instead of finishing at once.
TB_TEST(Vslc_small, delete_already_evicted) {
  SlcEnv<Vslc_small> env(dut, kSmall);
  co_await env.start();
  Serial<Vslc_small> s(env);
  const Geometry g = kSmall.geometry();
  const auto a = co_await write_lines(s, g, 4, kD, 3, 0x10);
  co_await write_lines(s, g, 4, 0, 3, 0x30);  // evicts all four
  check(co_await env.occupancy(kD) == 0, "evicted lines still counted in OCC");
  const std::uint64_t lat = co_await s.cmd(TS_SLC_CMD_DELETE, kD);
  check(lat <= 8, "DELETE of a DSID with no resident line took {} cycles (occupancy 0: must finish at once)", lat);
  co_await s.check_state(ds(0, kD), "after DELETE");
  s.check_memory(lines_of(a), "evicted lines");
  for (auto x : a) co_await s.op(rd(x));
}

// Catches: a delete that drops only part of the resident lines or touches the evicted part;
// 6 lines of the DSID in one 4-way set: 2 are evicted (written back), 4 resident and dropped.
TB_TEST(Vslc_small, delete_partially_evicted) {
  SlcEnv<Vslc_small> env(dut, kSmall);
  co_await env.start();
  Serial<Vslc_small> s(env);
  const Geometry g = kSmall.geometry();
  const auto a = co_await write_lines(s, g, 6, kD, 9, 0x10);
  const std::size_t mark = env.mem.log().size();
  check(co_await env.occupancy(kD) == 4, "4 of the 6 lines should be resident");
  co_await s.cmd(TS_SLC_CMD_DELETE, kD);
  check(s.model().counters()[kDelDirty] == 4 && s.model().counters()[kWritebacks] == 2, "model: 2 evicted, 4 deleted");
  co_await s.check_state(ds(kD), "after DELETE");
  co_await s.cmd(TS_SLC_CMD_FLUSH);
  check(writes_to(env, a, mark) == 0, "a deleted line reached memory");
  s.check_memory(lines_of(a), "after FLUSH");  // evicted ones hold the data, deleted ones the old
}

// Catches: a DELETE walk that does not start at the DSID's lowest set (it would visit the
// sets below for nothing: the frame-end delete of a render target took 4k cycles on the GPU),
// one that starts too high and leaves lines, and a lowest set that is not restarted when the
// DSID's occupancy went back to 0 or not lowered by a later install below it.
TB_TEST(Vslc_small, delete_walk_starts_at_lowest_set) {
  SlcEnv<Vslc_small> env(dut, kSmall);
  co_await env.start();
  Serial<Vslc_small> s(env);
  const Geometry g = kSmall.geometry();
  // Lines of kD in sets 11..13, other DSIDs in every set.
  co_await write_lines(s, g, 16, 3, -1, 0x40);
  for (unsigned set = 11; set <= 13; ++set) co_await write_lines(s, g, 1, kD, static_cast<int>(set), 0x10 + set);
  const std::uint64_t lat = co_await s.cmd(TS_SLC_CMD_DELETE, kD);
  // A walk from set 0 visits 14 sets; from set 11, 3 (and up to two more while the occupancy
  // counter catches up), plus the command's fixed steps.
  check(lat <= 3 + 2 + 8, "DELETE of lines in sets 11..13 took {} cycles: the walk did not start at set 11", lat);
  check(co_await env.occupancy(kD) == 0, "DELETE left lines of DSID {}", kD);
  co_await s.check_state(ds(3, kD), "after the first DELETE");
  // Occupancy 0 again: the next install restarts the lowest set (14); a later one lowers it (6).
  co_await write_lines(s, g, 1, kD, 14, 0x60);
  co_await write_lines(s, g, 1, kD, 6, 0x61);
  const std::uint64_t lat2 = co_await s.cmd(TS_SLC_CMD_DELETE, kD);
  check(co_await env.occupancy(kD) == 0, "the second DELETE left lines of DSID {} (walk started above set 6?)", kD);
  check(lat2 <= 9 + 2 + 8, "the second DELETE (lines in sets 6 and 14) took {} cycles", lat2);
  check(s.model().counters()[kDelDirty] == 5, "model: 5 dirty lines deleted, {} counted", s.model().counters()[kDelDirty]);
  co_await s.check_state(ds(3, kD), "after the second DELETE");
  // A delete racing nothing: a DSID re-used after a delete in a low set only.
  co_await write_lines(s, g, 1, kD, 0, 0x62);
  co_await s.cmd(TS_SLC_CMD_DELETE, kD);
  check(co_await env.occupancy(kD) == 0, "the third DELETE left the line in set 0");
  co_await s.check_state(ds(3, kD), "end");
}

// Catches: deleting DSID 0 ("the default hardware DSID ... does not benefit from the tagging
// and deletion operations"): it must complete (done pulse) and drop nothing.
TB_TEST(Vslc_small, delete_dsid0_never) {
  SlcEnv<Vslc_small> env(dut, kSmall);
  co_await env.start();
  Serial<Vslc_small> s(env);
  const Geometry g = kSmall.geometry();
  const auto a = co_await write_lines(s, g, 12, 0, -1, 0x10);
  const std::uint64_t lat = co_await s.cmd(TS_SLC_CMD_DELETE, 0);
  check(lat <= 8, "DELETE(0) took {} cycles", lat);
  check(co_await env.occupancy(0) == 12, "DELETE(0) dropped lines");
  co_await s.check_state(ds(0), "after DELETE(0)");
  co_await s.cmd(TS_SLC_CMD_FLUSH);
  s.check_memory(lines_of(a), "after FLUSH");
  co_await s.check_state(ds(0), "end");
}

// Catches: a delete of a DSID that was never used that walks the cache (the occupancy counter
// must make it finish at once) or changes anything.
TB_TEST(Vslc_small, delete_unused_dsid) {
  SlcEnv<Vslc_small> env(dut, kSmall);
  co_await env.start();
  Serial<Vslc_small> s(env);
  const Geometry g = kSmall.geometry();
  co_await write_lines(s, g, 20, kD, -1, 0x10);
  const std::uint64_t lat = co_await s.cmd(TS_SLC_CMD_DELETE, 33);
  check(lat <= 8, "DELETE of an unused DSID took {} cycles", lat);
  co_await s.check_state(ds(kD, 33), "after DELETE(33)");
}

// Catches: a delete that does not wait for the writes accepted before it (a write still in an
// MSHR would be installed after the walk and survive), or that drops writes accepted after it;
// requests accepted while the command is pending. The ordering (docs/slc.md): a DELETE is
// performed after every request accepted in the cycle of the CMD write or earlier, and the SLC
// accepts no request from the next cycle until the delete has completed.
TB_TEST(Vslc_small, delete_races_inflight_writes) {
  MemConfig mc;
  mc.lat_min = 20;
  mc.lat_max = 60;
  SlcEnv<Vslc_small> env(dut, kSmall, mc, 8);
  co_await env.start();
  const Geometry g = kSmall.geometry();
  // 40 partial writes (each misses and fills), at most 3 per set: nothing is evicted.
  std::vector<std::uint32_t> addrs;
  std::map<std::uint32_t, Line> data;
  std::map<std::uint32_t, std::uint64_t> accepted;
  for (unsigned i = 0; i < 40; ++i) {
    const std::uint32_t a = g.addr_of(i % g.sets(), 0x10 + i / g.sets());
    const Line d = random_line();
    addrs.push_back(a);
    data[a] = d;
    UpItem it;
    it.req = wr(a, kD, d, 0x0000'ffff'0000'ffffULL, static_cast<std::uint8_t>(i % 4));
    it.on_accept = [&accepted](const Req& q, std::uint64_t cyc) {
      accepted[q.addr] = cyc;
      return Rsp{q.op, false, q.src, q.tag, {}};
    };
    env.up.send(std::move(it));
  }
  while (env.up.accepted() < 14) co_await RisingEdge(dut->clk_i);
  const auto cmd = co_await env.command(TS_SLC_CMD_DELETE, kD);
  check(!cmd.err, "DELETE dropped");
  co_await env.wait_done(1);
  const std::uint64_t done_cycle = env.cycle();
  co_await env.up.wait_idle(100000);
  unsigned before = 0, after = 0;
  for (auto& [a, cyc] : accepted) {
    check(cyc <= cmd.accept_cycle || cyc > done_cycle, "write to 0x{:08x} accepted at cycle {} while the DELETE "
          "written at cycle {} was pending (done at {})", a, cyc, cmd.accept_cycle, done_cycle);
    (cyc <= cmd.accept_cycle ? before : after) += 1;
  }
  check(before >= 14 && after > 0, "race not exercised: {} writes before the delete, {} after", before, after);
  const Counters c = co_await env.read_counters();
  check(c[kDelDirty] == before, "DELETED_DIRTY = {}, but {} writes of DSID {} were accepted before the delete",
        c[kDelDirty], before, kD);
  check(co_await env.occupancy(kD) == after, "OCC after the delete must count the {} later writes", after);
  const auto f = co_await env.command(TS_SLC_CMD_FLUSH);
  check(!f.err, "FLUSH dropped");
  co_await env.wait_done(2);
  co_await env.quiesce();
  for (auto a : addrs) {
    Line expect = initial_line(a >> 6);
    if (accepted[a] > cmd.accept_cycle)
      for (unsigned b = 0; b < 64; ++b)
        if ((0x0000'ffff'0000'ffffULL >> b) & 1U) expect[b] = data[a][b];
    check(env.mem.read(a >> 6) == expect, "line 0x{:08x} (write accepted at cycle {}, delete at {}): memory holds {}",
          a, accepted[a], cmd.accept_cycle, hex_line(env.mem.read(a >> 6)));
  }
  dut.log().info("{} writes before the DELETE (dropped), {} after (kept); delete took {} cycles", before, after,
                 done_cycle - cmd.accept_cycle);
}

// Catches: back-to-back commands that are lost, reordered or run concurrently (a DELETE queued
// behind a FLUSH must find the lines clean), a full command queue that hangs or silently drops
// (the dropped write answers err and sets STATUS.cmd_dropped), STATUS.done / CMD_COUNT
// bookkeeping and one ctrl_done_o pulse per command.
TB_TEST(Vslc_small, back_to_back_commands) {
  SlcEnv<Vslc_small> env(dut, kSmall);
  co_await env.start();
  Serial<Vslc_small> s(env);
  const Geometry g = kSmall.geometry();
  co_await write_lines(s, g, 6, 1, -1, 0x10);
  co_await write_lines(s, g, 6, 2, -1, 0x20);
  co_await write_lines(s, g, 6, 3, -1, 0x30);
  for (unsigned set = 6; set < g.sets(); ++set)  // many dirty lines elsewhere: the FLUSH takes a while
    for (unsigned t = 0; t < 3; ++t) co_await s.op(wr(g.addr_of(set, 0x40 + t), 0, random_line()));
  // FLUSH then three DELETEs fill the 4-entry queue (the running command holds its entry).
  const auto c0 = co_await env.command(TS_SLC_CMD_FLUSH);
  const auto c1 = co_await env.command(TS_SLC_CMD_DELETE, 1);
  const auto c2 = co_await env.command(TS_SLC_CMD_DELETE, 2);
  const auto c3 = co_await env.command(TS_SLC_CMD_DELETE, 3);
  const auto c4 = co_await env.command(TS_SLC_CMD_DELETE, 4);
  check(!c0.err && !c1.err && !c2.err && !c3.err, "a queued command was refused");
  check(c4.err, "a command written to a full queue must answer err");
  std::uint32_t st = co_await env.reg_read(TS_SLC_STATUS_OFFSET);
  check((st & TS_SLC_STATUS_BUSY_MASK) && (st & TS_SLC_STATUS_CMD_DROPPED_MASK), "STATUS = 0x{:08x}: busy and "
        "cmd_dropped expected", st);
  co_await env.wait_done(4);
  co_await env.quiesce();
  s.apply_command(TS_SLC_CMD_FLUSH);
  for (std::uint8_t d = 1; d <= 3; ++d) s.apply_command(TS_SLC_CMD_DELETE, d);
  check(env.done_pulses() == 4, "{} done pulses for 4 commands", env.done_pulses());
  const Counters c = co_await env.read_counters();
  check(c[kDelClean] == 18 && c[kDelDirty] == 0, "deletes behind the FLUSH must find clean lines: clean {} dirty {}",
        c[kDelClean], c[kDelDirty]);
  const std::uint32_t cnt = co_await env.reg_read(TS_SLC_CMD_COUNT_OFFSET);
  check(TS_SLC_CMD_COUNT_ISSUED_GET(cnt) == 4 && TS_SLC_CMD_COUNT_COMPLETED_GET(cnt) == 4, "CMD_COUNT = 0x{:08x}", cnt);
  st = co_await env.reg_read(TS_SLC_STATUS_OFFSET);
  check(st == (TS_SLC_STATUS_DONE_MASK | TS_SLC_STATUS_CMD_DROPPED_MASK), "STATUS = 0x{:08x} when idle", st);
  co_await env.reg_write(TS_SLC_STATUS_OFFSET, TS_SLC_STATUS_DONE_MASK | TS_SLC_STATUS_CMD_DROPPED_MASK);
  check(co_await env.reg_read(TS_SLC_STATUS_OFFSET) == 0, "STATUS w1c bits did not clear");
  // The SLC works normally afterwards, and agrees with the model.
  co_await s.op(rd(g.addr_of(0, 0x10)));
  co_await s.check_state(ds(0, 1, 2, 3), "after the commands");
}

// Catches: malformed requests (misaligned, at or above MEM_LIMIT, strobes on READ or PREFETCH,
// an unknown op) that are not answered err, change state, reach memory, or stall the requests
// behind them; ERRORS counted exactly. Sent back to back with good requests in between.
TB_TEST(Vslc_small, bad_input) {
  SlcEnv<Vslc_small> env(dut, kSmall, MemConfig{}, 8);
  co_await env.start();
  const std::uint32_t limit = 0x0010'0000;
  co_await env.reg_write(TS_SLC_MEM_LIMIT_OFFSET, limit);
  FlatModel flat(limit);
  std::vector<Req> reqs;
  const Geometry g = kSmall.geometry();
  Req op3 = rd(g.addr_of(2, 0x11));
  op3.op = static_cast<Op>(3);
  Req strb_rd = rd(g.addr_of(1, 0x11));
  strb_rd.wstrb = 1;
  Req strb_pf = pf(g.addr_of(1, 0x12));
  strb_pf.wstrb = 0x8000'0000'0000'0000ULL;
  std::vector<Req> bads;
  bads.push_back(rd(g.addr_of(1, 0x10) + 4));
  bads.push_back(wr(g.addr_of(1, 0x10) + 32, 3, random_line()));
  bads.push_back(rd(limit));
  bads.push_back(wr(limit + 0x40, 3, random_line()));
  bads.push_back(pf(0xffff'ffc0));
  bads.push_back(strb_rd);
  bads.push_back(strb_pf);
  bads.push_back(op3);
  for (const Req& bad : bads) {
    reqs.push_back(wr(g.addr_of(0, 0x10), 1, random_line(), 0xf0));
    reqs.push_back(bad);
    reqs.push_back(rd(g.addr_of(0, 0x10)));
  }
  for (const Req& r : reqs) {
    UpItem it;
    it.req = r;
    it.req.src = 1;
    it.on_accept = [&flat](const Req& q, std::uint64_t) { return flat.accept(q); };
    env.up.send(std::move(it));
  }
  co_await env.up.wait_idle(20000);
  co_await env.quiesce();
  const Counters c = co_await env.read_counters();
  check(c[kErrors] == 8, "ERRORS = {}, 8 malformed requests were sent", c[kErrors]);
  check(env.mem.reads() == 1 && env.mem.writes() == 0, "malformed requests reached memory ({} reads, {} writes)",
        env.mem.reads(), env.mem.writes());
  check(co_await env.reg_read(TS_SLC_LINES_OFFSET) == TS_SLC_LINES_DIRTY_PUT(1) + 1, "only the good line is resident");
}

// Catches: a memory error on a fill that installs garbage, hangs, or is not reported: the
// request is answered err = 1, MEM_ERRORS counts it, the line stays absent (the next access
// fills it again).
TB_TEST(Vslc_small, memory_error_on_fill) {
  SlcEnv<Vslc_small> env(dut, kSmall);
  co_await env.start();
  const Geometry g = kSmall.geometry();
  const std::uint32_t a = g.addr_of(4, 0x77);
  env.mem.error_lines().insert(a >> 6);
  FlatModel flat;
  Rsp r = co_await env.transact(rd(a), [](const Req& q, std::uint64_t) { return Rsp{q.op, true, q.src, q.tag, {}}; });
  r = co_await env.transact(wr(a, kD, random_line(), 0xff), [](const Req& q, std::uint64_t) {
    return Rsp{q.op, true, q.src, q.tag, {}};
  });
  env.mem.error_lines().clear();
  r = co_await env.transact(rd(a), [&flat](const Req& q, std::uint64_t) { return flat.accept(q); });
  co_await env.quiesce();
  const Counters c = co_await env.read_counters();
  check(c[kMemErrors] == 2 && c[kFills] == 3, "MEM_ERRORS {} (2 expected), FILLS {} (3 expected)", c[kMemErrors],
        c[kFills]);
  check(co_await env.occupancy(kD) == 0 && co_await env.occupancy(0) == 1, "a failed fill installed a line");
}

// Catches: FLUSH that loses or repeats writebacks, drops lines (they must stay valid: reads
// then hit), or changes their DSID; INVALIDATE that writes back (it must not) or keeps lines.
TB_TEST(Vslc_small, flush_then_invalidate) {
  SlcEnv<Vslc_small> env(dut, kSmall);
  co_await env.start();
  Serial<Vslc_small> s(env);
  const Geometry g = kSmall.geometry();
  const auto a = co_await write_lines(s, g, 24, kD, -1, 0x10, ~0ULL);  // full lines: no fills
  co_await s.cmd(TS_SLC_CMD_FLUSH);
  check(s.model().counters()[kWritebacks] == 24, "model: 24 writebacks");
  s.check_memory(lines_of(a), "after FLUSH");
  for (auto x : a) co_await s.op(rd(x));  // all hits
  co_await s.check_state(ds(kD), "after FLUSH and reads");
  co_await write_lines(s, g, 8, 2, -1, 0x30);
  const std::size_t mark = env.mem.log().size();
  co_await s.cmd(TS_SLC_CMD_INVALIDATE);
  check(env.mem.log().size() == mark, "INVALIDATE wrote to memory");
  check(s.model().counters()[kInvalDirty] == 8, "model: 8 dirty lines invalidated");
  co_await s.check_state(ds(kD, 2), "after INVALIDATE");
  co_await s.cmd(TS_SLC_CMD_FLUSH);  // nothing left to write
  co_await s.check_state(ds(kD, 2), "end");
}

// Catches: prefetch bookkeeping: PREFETCH fills without data in the response, lines used by a
// later READ/WRITE are counted once, lines evicted unused are counted, a PREFETCH of a
// resident line does nothing.
TB_TEST(Vslc_small, prefetch_accounting) {
  SlcEnv<Vslc_small> env(dut, kSmall);
  co_await env.start();
  Serial<Vslc_small> s(env);
  const Geometry g = kSmall.geometry();
  for (unsigned t = 0; t < 4; ++t) co_await s.op(pf(g.addr_of(7, 0x10 + t)));
  co_await s.op(pf(g.addr_of(7, 0x10)));                       // resident: no-op
  co_await s.op(rd(g.addr_of(7, 0x10)));                       // used
  co_await s.op(rd(g.addr_of(7, 0x10)));                       // counted once
  co_await s.op(wr(g.addr_of(7, 0x11), 3, random_line(), 1));  // used by a write
  for (unsigned t = 0; t < 4; ++t) co_await s.op(rd(g.addr_of(7, 0x20 + t)));  // evicts the rest
  const Counters& m = s.model().counters();
  check(m[kPfFills] == 4 && m[kPfUsed] == 2 && m[kPfUnused] == 2, "model: 4 prefetch fills, 2 used, 2 unused");
  co_await s.check_state(ds(0, 3), "prefetch");
}

}  // namespace

namespace {

// Catches (issue 19): a PREFETCH that waits for a miss slot instead of being dropped (it would
// hold every demand request behind it for a miss's latency); a drop that is not answered, not
// counted, or that fills the line anyway; a PREFETCH of a line whose fill is already in flight
// waiting for that fill. Memory answers after 300 cycles, in order; NUM_MSHR READ misses take
// every miss slot first.
TB_TEST(Vslc_small, prefetch_dropped_when_no_miss_slot) {
  SlcEnv<Vslc_small> env(dut, kSmall, tb::mem::steady_memory<MemConfig>(300));
  co_await env.start();
  const Geometry g = kSmall.geometry();
  FlatModel flat;
  std::map<std::uint32_t, std::uint64_t> answered;  // address + op -> cycle of the response
  auto send = [&](const Req& r) {
    UpItem it;
    it.req = r;
    it.on_accept = [&flat](const Req& q, std::uint64_t) { return flat.accept(q); };
    it.on_rsp = [&answered](const Req& q, const Rsp&, std::uint64_t cyc) {
      answered[q.addr | static_cast<std::uint32_t>(q.op)] = cyc;
    };
    env.up.send(std::move(it));
  };
  const unsigned mshrs = kSmall.mshrs;
  std::vector<std::uint32_t> reads;
  for (unsigned m = 0; m < mshrs; ++m) reads.push_back(g.addr_of(m, 0x40 + m));
  for (const std::uint32_t a : reads) send(rd(a));
  const std::uint32_t fresh = g.addr_of(mshrs, 0x60), inflight = reads[0], behind = g.addr_of(mshrs + 1, 0x70);
  send(pf(fresh));     // no miss slot: dropped
  send(pf(inflight));  // its line is being filled: nothing to do
  send(rd(behind));    // a demand miss behind them: waits for a slot, not for the prefetches
  co_await env.up.wait_idle(5000);
  co_await env.quiesce();
  const std::uint64_t first_fill = answered.at(reads[0] | static_cast<std::uint32_t>(Op::read));
  for (const std::uint32_t a : {fresh, inflight})
    check(answered.at(a | static_cast<std::uint32_t>(Op::prefetch)) < first_fill,
          "PREFETCH {:#x} answered at cycle {}, after the first fill at {}: it waited for a miss slot", a,
          answered.at(a | static_cast<std::uint32_t>(Op::prefetch)), first_fill);
  const Counters c = co_await env.read_counters();
  check(c[kPrefetches] == 2 && c[kPfDropped] == 1 && c[kPfFills] == 0,
        "PREFETCHES/PREFETCH_DROPPED/PREFETCH_FILLS = {}/{}/{}, expected 2/1/0", c[kPrefetches], c[kPfDropped],
        c[kPfFills]);
  check(c[kFills] == mshrs + 1, "FILLS {}: the dropped prefetch must not fill ({} READ misses)", c[kFills], mshrs + 1);
  // the dropped line is not resident: a READ of it misses
  const std::uint64_t misses = c[kMisses];
  send(rd(fresh));
  co_await env.up.wait_idle(5000);
  const Counters c2 = co_await env.read_counters();
  check(c2[kMisses] == misses + 1, "a READ of the dropped prefetch's line hit: the drop filled it");
  dut.log().info("prefetches answered at cycles {} and {}, first fill at {}; {} dropped",
                 answered.at(fresh | static_cast<std::uint32_t>(Op::prefetch)),
                 answered.at(inflight | static_cast<std::uint32_t>(Op::prefetch)), first_fill, c[kPfDropped]);
}

}  // namespace

namespace {

// Catches (issue 19, cache partitioning): WAY_LIMIT not limiting allocation (more lines of a set
// resident than the limit allows), a limit that is not rounded down to a power of two, lines
// outside the limit no longer hitting, the pseudo-LRU tree not confined to the allowed ways
// (the model's victims are compared line by line through check_state).
TB_TEST(Vslc_small, way_limit_partitions) {
  SlcEnv<Vslc_small> env(dut, kSmall);
  co_await env.start();
  Serial<Vslc_small> s(env);
  const Geometry g = kSmall.geometry();
  const std::vector<std::uint8_t> dsids{0};
  auto limit = [&](std::uint32_t n) -> Task<> {
    co_await env.reg_write(TS_SLC_WAY_LIMIT_OFFSET, n);
    s.model().set_way_limit(n);
  };
  co_await limit(3);  // rounds down to 2 ways
  for (std::uint32_t t = 0; t < 6; ++t) co_await s.op(rd(g.addr_of(3, 0x10 + t)));
  const std::uint32_t l2 = co_await env.reg_read(TS_SLC_LINES_OFFSET);
  check(TS_SLC_LINES_VALID_GET(l2) == 2, "WAY_LIMIT=3 (2 ways): {} lines resident in the set, expected 2",
        TS_SLC_LINES_VALID_GET(l2));
  co_await s.check_state(dsids, "limit 2");
  co_await limit(0);  // every way
  for (std::uint32_t t = 0; t < 4; ++t) co_await s.op(rd(g.addr_of(5, 0x20 + t)));
  co_await limit(1);  // one way: the set's four lines still hit
  const std::uint64_t hits = s.model().counters()[kHits];
  for (std::uint32_t t = 0; t < 4; ++t) co_await s.op(rd(g.addr_of(5, 0x20 + t)));
  check(s.model().counters()[kHits] == hits + 4, "resident lines outside the limit must still hit");
  for (std::uint32_t t = 0; t < 3; ++t) co_await s.op(rd(g.addr_of(5, 0x30 + t)));  // all in way 0
  co_await s.check_state(dsids, "limit 1");
  const std::uint32_t l1 = co_await env.reg_read(TS_SLC_LINES_OFFSET);
  check(TS_SLC_LINES_VALID_GET(l1) == 6, "{} lines resident, expected 2 + 4 (the new ones share way 0)",
        TS_SLC_LINES_VALID_GET(l1));
}

}  // namespace
