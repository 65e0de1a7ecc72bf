// Functional bench of the CCHE (rtl/ccche/ccche.sv, docs/ccche.md) on ccche_default (2 client
// ports, 64 lines, 4 ways, 16 sets, 2 writebacks and 8 read misses outstanding; responses
// come back out of order, matched by tag).
//
// Scoreboards (ccche_ref.hpp): the flat memory every client sees (FlatRef: a READ returns the
// latest accepted WRITE's data of its line; every writeback must carry the line's current
// data and the DSID of its last writer; after a maintenance flush the downstream memory must
// equal the reference) for concurrent traffic on both ports; the exact cache model
// (CcheModel: replacement, counters and every downstream request in order) for serial
// traffic. The downstream memory answers with random latency, out of order, with random
// backpressure, and applies a write only when it acknowledges it.
//
// Rerun a test: RANDOM_SEED=<n> TESTCASE=<name> build/tb/ccche/bench_ccche (WAVES=1 for an
// FST named bench_ccche.<test>.fst). TESSERA_REGRESS=1 makes the random tests 10x longer.
#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "Vccche_default.h"
#include "ccche_env.hpp"
#include "ccche_ref.hpp"
#include "tb/test.hpp"

using namespace cctb;
using tb::RisingEdge;
using tb::Task;
using V = Vccche_default;

namespace {

const Geometry kGeo = kDefault.geometry();

using tb::mem::steady_memory;  // the directed tests' in-order, fixed-latency memory

// Address pool: `nsets` sets x `ntags` tags (more tags than ways: conflicts and evictions).
std::vector<std::uint32_t> address_pool(unsigned nsets, unsigned ntags, unsigned tag_base = 0x40) {
  std::vector<std::uint32_t> pool;
  for (unsigned s = 0; s < nsets; ++s) {
    const unsigned set = (s * 5 + 2) % kGeo.sets();
    for (unsigned t = 0; t < ntags; ++t) pool.push_back(kGeo.addr_of(set, tag_base + t * 3 + s));
  }
  return pool;
}

// Random strobes: all 64 (full line) or a random non-empty partial mask.
std::uint64_t random_strobes(bool full) {
  if (full) return ~0ULL;
  std::uint64_t s = 0;
  while (s == 0 || s == ~0ULL) s = tb::rng()() & tb::rng()();
  return s;
}

// WRITE data that changes at least one enabled byte of the line as it is now, so a writeback
// of stale data can be told from one of the new data.
void fresh_data(Req& q, const Line& cur) {
  q.wdata = random_line();
  const unsigned first = static_cast<unsigned>(__builtin_ctzll(q.wstrb));
  if (q.wdata[first] == cur[first]) q.wdata[first] ^= 0x5a;
}

// A malformed request: misaligned, strobes on READ or PREFETCH, or op 3.
Req bad_request(std::uint32_t a) {
  switch (tb::randint(0, 3)) {
    case 0: return rd(a + 8 * static_cast<std::uint32_t>(tb::randint(1, 7)));
    case 1: {
      Req r = rd(a);
      r.wstrb = 0x10;
      return r;
    }
    case 2: {
      Req r = pf(a);
      r.wstrb = 1ULL << 63;
      return r;
    }
    default: {
      Req r = rd(a);
      r.op = static_cast<Op>(3);
      return r;
    }
  }
}

// The scoreboard's writeback and flush checks on the flat reference.
struct FlatChecks {
  FlatRef ref;
  std::uint64_t wb_checked = 0, flushes = 0;

  // Every writeback carries the line's current data and the DSID of its last writer (nothing
  // is accepted between a writeback's start and its downstream acceptance: the miss
  // sequencer blocks acceptance and maintenance stops the clients).
  void writeback(const Req& r) {
    if ((r.tag & 0x80U) == 0) return;
    const std::uint32_t line = r.addr >> 6;
    const auto& s = ref.at(line);
    check(s.written, "writeback of line 0x{:08x}, which no client ever wrote", r.addr);
    check(r.wdata == s.data, "writeback of line 0x{:08x} with stale data:\n  got      {}\n  expected {}", r.addr,
          hex_line(r.wdata), hex_line(s.data));
    check(r.dsid == s.writer, "writeback of line 0x{:08x} with DSID {}, its last writer had DSID {}", r.addr, r.dsid,
          s.writer);
    ++wb_checked;
  }
  // After a flush, the downstream memory holds every line's latest data.
  template <class Mem>
  void flushed(const Mem& mem, const char* where) {
    for (const auto& [line, s] : ref.lines())
      check(mem.read(line) == s.data, "{}: memory line 0x{:08x} differs from the reference after the flush:\n  got      {}\n  expected {}",
            where, line << 6, hex_line(mem.read(line)), hex_line(s.data));
    ++flushes;
  }
};

// Queue `n` random requests over both ports. Port 0 is the geometry slice's vertex fetch
// (mostly READs), port 1 the raster slice (tile loads, full-line tile stores, texel reads,
// partial writes, prefetches). `err_lines` are only ever read or prefetched.
void queue_random(CcheEnv<V>& env, FlatChecks& fc, unsigned n, const std::vector<std::uint32_t>& pool,
                  const std::vector<std::uint32_t>& err_lines, std::map<std::string, unsigned>& mix) {
  for (unsigned i = 0; i < n; ++i) {
    const unsigned port = static_cast<unsigned>(tb::randint(0, 1));
    const unsigned k = static_cast<unsigned>(tb::randint(0, 999));
    Item it;
    if (!err_lines.empty() && k < 80) {
      const std::uint32_t a = err_lines[tb::randint(0, err_lines.size() - 1)];
      it.req = tb::chance(0.7) ? rd(a) : pf(a);
      ++mix[it.req.op == Op::read ? "err-read" : "err-prefetch"];
    } else {
      const std::uint32_t a = pool[tb::randint(0, pool.size() - 1)];
      const unsigned read_pct = port == 0 ? 850 : 450;
      if (k < read_pct) {
        it.req = rd(a, static_cast<std::uint8_t>(tb::randint(0, 5)));
        ++mix["read"];
      } else if (k < 990 && !(port == 0 && k < 950)) {
        const bool full = tb::chance(0.5);
        it.req = wr(a, static_cast<std::uint8_t>(tb::randint(0, 5)), Line{}, random_strobes(full));
        it.prepare = [&fc](Req& q) { fresh_data(q, fc.ref.at(q.addr >> 6).data); };
        ++mix[full ? "write-full" : "write-partial"];
      } else if (k < 995 || port == 0) {
        it.req = pf(a);
        ++mix["prefetch"];
      } else {
        it.req = bad_request(a);
        ++mix["bad"];
      }
    }
    it.on_accept = [&fc](const Req& q, std::uint64_t) { return fc.ref.accept(q); };
    env.clients.send(port, std::move(it));
  }
}

// Maintenance at random times (every 200-1500 cycles) until `stop`: flush or flush+invalidate,
// the request held 0-3 cycles after done. A named coroutine, not a capturing lambda.
Task<> maint_generator(CcheEnv<V>& env, const bool& stop, unsigned& count) {
  while (!stop) {
    co_await tb::ClockCycles(env.dut()->clk_i, static_cast<std::uint64_t>(tb::randint(200, 1500)));
    if (stop) break;
    co_await env.maintain(tb::chance(0.4), static_cast<unsigned>(tb::randint(0, 3)));
    ++count;
  }
}

// Concurrent random traffic on both ports with maintenance at random times; `tags` requests
// outstanding per port, memory latency lat_min..lat_max.
Task<> random_run(tb::Dut<V>& dut, unsigned nreq, bool with_errors, unsigned tags = 4, unsigned lat_min = 1,
                  unsigned lat_max = 40) {
  MemConfig mc;
  mc.req_stall = 0.25;
  mc.rsp_idle = 0.25;
  mc.lat_min = lat_min;
  mc.lat_max = lat_max;
  CcheEnv<V> env(dut, kDefault, mc, tags);
  env.clients.set_idle_probability(0.15);
  env.clients.set_rsp_stall_probability(0.2);
  FlatChecks fc;
  // 5 sets x 7 tags (more than 4 ways: conflicts, evictions) plus 8 lines spread over the
  // other sets (mostly hits).
  std::vector<std::uint32_t> pool = address_pool(5, kGeo.ways + 3);
  for (unsigned i = 0; i < 8; ++i) pool.push_back(kGeo.addr_of((i * 2 + 1) % kGeo.sets(), 0x300 + i));
  std::vector<std::uint32_t> err_lines;
  if (with_errors) {
    for (unsigned i = 0; i < 6; ++i) {
      const std::uint32_t a = kGeo.addr_of((i * 5 + 2) % kGeo.sets(), 0x700 + i);  // sets shared with the pool
      err_lines.push_back(a);
      env.mem.error_lines().insert(a >> 6);
      fc.ref.error_lines().insert(a >> 6);
    }
  }
  env.mem.on_request([&fc](const Req& r, std::uint64_t) { fc.writeback(r); });
  env.on_done([&](bool, std::uint64_t) { fc.flushed(env.mem, "maintenance"); });
  co_await env.start();

  std::map<std::string, unsigned> mix;
  queue_random(env, fc, nreq, pool, err_lines, mix);
  bool stop = false;
  unsigned maints = 0;
  const std::uint64_t t0 = cycle_now();
  auto gen = tb::start_soon(maint_generator(env, stop, maints));
  co_await env.clients.wait_idle(static_cast<std::uint64_t>(nreq) * 200 + 50000);
  const std::uint64_t cycles = cycle_now() - t0;
  stop = true;
  co_await tb::Join(gen);

  // Final flush: memory == reference; a second one finds nothing dirty.
  co_await env.maintain(false);
  co_await env.quiesce();
  const Counts c = env.counters();
  const std::uint64_t wbs = env.mem.writebacks();
  co_await env.maintain(tb::chance(0.5));
  co_await env.quiesce();
  check(env.mem.writebacks() == wbs && env.counters().writebacks == c.writebacks,
        "a second flush wrote {} lines back: dirty data survived the first", env.mem.writebacks() - wbs);

  // Counter identities.
  check(c.hits + c.misses == fc.ref.reads + fc.ref.writes, "hits {} + misses {} != good READs + WRITEs {}", c.hits,
        c.misses, fc.ref.reads + fc.ref.writes);
  check(c.writebacks == env.mem.writebacks(), "cnt_writebacks {} but memory saw {} writebacks", c.writebacks,
        env.mem.writebacks());
  check(c.fills == env.mem.fills(), "cnt_fills {} but memory saw {} fills", c.fills, env.mem.fills());
  check(fc.wb_checked == env.mem.writebacks(), "{} of {} writebacks checked", fc.wb_checked, env.mem.writebacks());
  check(maints >= 2, "only {} random maintenance requests: raise the traffic", maints);
  check(c.writebacks > 20 && c.hits > 100 && c.misses > 50, "too few evictions/hits/misses to mean anything");

  std::string m;
  for (const auto& [k, v] : mix) m += fmt::format(" {}={}", k, v);
  dut.log().info("{} requests:{}", nreq, m);
  dut.log().info("{} cycles ({:.2f} requests/cycle), hit rate {:.1f}% ({} hits, {} misses), {} fills, {} writebacks, "
                 "{} forwards, {} maintenance requests, mean latency {:.1f} cycles (max {}), up to {} fills in flight",
                 cycles, static_cast<double>(nreq) / static_cast<double>(cycles),
                 100.0 * static_cast<double>(c.hits) / static_cast<double>(c.hits + c.misses), c.hits, c.misses,
                 c.fills, c.writebacks, env.mem.forwards(), maints + 2,
                 static_cast<double>(env.clients.latency_sum()) / static_cast<double>(env.clients.responses()),
                 env.clients.latency_max(), env.mem.max_fills_in_flight());
  if (tags >= 8) check(env.mem.max_fills_in_flight() >= 4, "only {} fills ever in flight: misses do not overlap",
                       env.mem.max_fills_in_flight());
}

// ---------------------------------------------------------------------------------------------
// Catches: data hazards between hits, misses, fills, evictions and forwarded writes
// (read-after-write and write-after-write to one line across both ports), writebacks with
// stale data or the wrong DSID (the last writer's), a fill of a line whose writeback is still
// unanswered (the memory applies writes at acknowledge), lost/duplicated/misrouted responses,
// requests accepted during maintenance, a maintenance done pulse with dirty data left or a
// writeback unanswered (memory != reference), counters that disagree with the traffic, hangs.
TB_TEST(V, random_traffic) { co_await random_run(dut, static_cast<unsigned>(tb::scaled(30000, 300000)), false); }

// Catches: a fill answered err that installs the line or hangs, err not propagated to the
// client (READ and PREFETCH of lines the memory refuses), a failed fill that loses the
// victim's data; all under the same concurrent traffic and maintenance as random_traffic.
TB_TEST(V, fill_errors) { co_await random_run(dut, static_cast<unsigned>(tb::scaled(10000, 100000)), true); }

// Catches: the hazards of non-blocking misses under deep concurrency: 16 requests outstanding
// per port over a slow memory (20-150 cycles) so many fills are in flight at once; a hit,
// write or second miss to a line whose fill is in flight (must wait: data returned must be
// that at acceptance), a victim chosen in a way reserved by another fill (a fill overwriting
// a live line, a dirty line lost), a fill answered to the wrong client or tag, err fills,
// MSHRs leaking (hang) or maintenance done before every fill is answered.
TB_TEST(V, random_nonblocking) {
  co_await random_run(dut, static_cast<unsigned>(tb::scaled(20000, 200000)), true, 16, 20, 150);
}

// ---------------------------------------------------------------------------------------------
// Catches: a line requested again downstream (fill, forward, or a second writeback) while its
// writeback is unanswered. Two sets, 5 and 6 tags, mostly full-line writes: every miss evicts
// a dirty line and lines come back within a writeback's lifetime; the memory answers in
// 1-150 cycles, out of order, and applies a write only at its acknowledge, so a second
// writeback overtaking the first would leave stale data (the memory model also fails on the
// request itself).
TB_TEST(V, writeback_ordering) {
  MemConfig mc;
  mc.req_stall = 0.1;
  mc.rsp_idle = 0.1;
  mc.lat_min = 1;
  mc.lat_max = 150;
  CcheEnv<V> env(dut, kDefault, mc, 4);
  env.clients.set_idle_probability(0.1);
  FlatChecks fc;
  std::vector<std::uint32_t> pool;
  for (unsigned t = 0; t < 5; ++t) pool.push_back(kGeo.addr_of(4, 0x20 + t));
  for (unsigned t = 0; t < 6; ++t) pool.push_back(kGeo.addr_of(11, 0x40 + t));
  env.mem.on_request([&fc](const Req& r, std::uint64_t) { fc.writeback(r); });
  env.on_done([&](bool, std::uint64_t) { fc.flushed(env.mem, "maintenance"); });
  co_await env.start();
  const unsigned n = static_cast<unsigned>(tb::scaled(4000, 40000));
  for (unsigned i = 0; i < n; ++i) {
    const std::uint32_t a = pool[tb::randint(0, pool.size() - 1)];
    Item it;
    if (tb::chance(0.75)) {
      it.req = wr(a, static_cast<std::uint8_t>(tb::randint(0, 5)), Line{}, random_strobes(tb::chance(0.85)));
      it.prepare = [&fc](Req& q) { fresh_data(q, fc.ref.at(q.addr >> 6).data); };
    } else {
      it.req = rd(a);
    }
    it.on_accept = [&fc](const Req& q, std::uint64_t) { return fc.ref.accept(q); };
    env.clients.send(static_cast<unsigned>(tb::randint(0, 1)), std::move(it));
  }
  co_await env.clients.wait_idle(static_cast<std::uint64_t>(n) * 400);
  co_await env.maintain(false);
  co_await env.quiesce();
  check(fc.flushes == 1 && fc.wb_checked == env.mem.writebacks(), "final flush not checked");
  dut.log().info("{} requests, {} writebacks, {} fills", n, env.mem.writebacks(), env.mem.fills());
}

// ---------------------------------------------------------------------------------------------
// Serial random traffic against the exact cache model.
// Catches: wrong hit/miss decisions, a victim differing from the specified replacement
// (lowest invalid way, else tree PLRU) - visible as a different writeback -, write merging,
// write-allocate without fetch, write-around of partial misses, DSID tagging, the order and
// content of every downstream request, every counter, flush order (set, then way).
TB_TEST(V, serial_exact) {
  MemConfig mc;
  mc.lat_min = 1;
  mc.lat_max = 20;
  CcheEnv<V> env(dut, kDefault, mc, 1);
  env.clients.set_idle_probability(0.2);
  env.clients.set_rsp_stall_probability(0.3);
  co_await env.start();
  CcheModel model(kGeo);
  const auto pool = address_pool(3, kGeo.ways + 2);
  std::vector<std::uint32_t> err_lines;
  for (unsigned i = 0; i < 2; ++i) {
    const std::uint32_t a = kGeo.addr_of(2, 0x600 + i);
    err_lines.push_back(a);
    env.mem.error_lines().insert(a >> 6);
    model.error_lines().insert(a >> 6);
  }
  std::size_t pos = 0;
  auto check_traffic = [&](const std::vector<DnEvent>& expect, const std::string& what) {
    std::vector<DnEvent> got;
    for (; pos < env.mem.log().size(); ++pos) {
      const Req& q = env.mem.log()[pos].req;
      got.push_back({q.op, q.addr >> 6, q.dsid, q.wstrb, q.op == Op::write ? q.wdata : Line{}, (q.tag & 0x80U) != 0});
    }
    if (got != expect) {
      std::string g, e;
      for (const auto& x : got) g += fmt::format(" {}", x.str());
      for (const auto& x : expect) e += fmt::format(" {}", x.str());
      tb::fail(fmt::format("downstream traffic of {}:\n  got     {}\n  expected{}", what, g.empty() ? " (none)" : g,
                           e.empty() ? " (none)" : e));
    }
  };
  const unsigned nops = static_cast<unsigned>(tb::scaled(6000, 60000));
  std::map<std::string, unsigned> mix;
  for (unsigned i = 0; i < nops; ++i) {
    const std::uint32_t a = pool[tb::randint(0, pool.size() - 1)];
    const unsigned k = static_cast<unsigned>(tb::randint(0, 999));
    std::vector<DnEvent> dn;
    const unsigned port = static_cast<unsigned>(tb::randint(0, 1));
    if (k < 960) {
      Req r;
      if (k < 400) {
        r = rd(a, static_cast<std::uint8_t>(tb::randint(0, 5)));
        ++mix["read"];
      } else if (k < 800) {
        const bool full = tb::chance(0.5);
        r = wr(a, static_cast<std::uint8_t>(tb::randint(0, 5)), random_line(), random_strobes(full));
        ++mix[full ? "write-full" : "write-partial"];
      } else if (k < 880) {
        r = pf(a);
        ++mix["prefetch"];
      } else if (k < 940) {
        r = tb::chance(0.5) ? rd(err_lines[tb::randint(0, 1)]) : pf(err_lines[tb::randint(0, 1)]);
        ++mix["error-line"];
      } else {
        r = bad_request(a);
        ++mix["bad"];
      }
      co_await env.transact(port, r, [&](const Req& q, std::uint64_t) { return model.access(q, dn); });
      co_await env.quiesce();
      check_traffic(dn, tb::mem::describe(r));
    } else {
      const bool inv = tb::chance(0.3);
      model.maintain(inv, dn);
      co_await env.maintain(inv, static_cast<unsigned>(tb::randint(0, 2)));
      co_await env.quiesce();
      check_traffic(dn, inv ? "flush+invalidate" : "flush");
      ++mix[inv ? "flush+inv" : "flush"];
    }
    check(env.counters() == model.counts(), "after op {}: counters hits/misses/writebacks/fills {}/{}/{}/{}, model {}/{}/{}/{}",
          i, env.counters().hits, env.counters().misses, env.counters().writebacks, env.counters().fills,
          model.counts().hits, model.counts().misses, model.counts().writebacks, model.counts().fills);
  }
  std::vector<DnEvent> dn;
  model.maintain(false, dn);
  co_await env.maintain(false);
  co_await env.quiesce();
  check_traffic(dn, "final flush");
  for (auto a : pool) {
    check(env.mem.read(a >> 6) == model.mem(a >> 6), "memory line 0x{:08x} differs from the model after the flush", a);
  }
  std::string m;
  for (const auto& [k2, v] : mix) m += fmt::format(" {}={}", k2, v);
  const Counts& c = model.counts();
  dut.log().info("{} ops:{}; hits {} misses {} writebacks {} fills {}", nops, m, c.hits, c.misses, c.writebacks,
                 c.fills);
}

// ---------------------------------------------------------------------------------------------
// Directed corner cases, one request at a time, each with its expected downstream traffic.
// Catches: a full-line write that fetches, a partial-write miss that allocates (the next read
// must miss and see memory's merged data), a partial write on a hit that does not merge or
// does not take the writer's DSID, a writeback carrying the first writer's DSID, a PREFETCH
// answered locally or allocated, malformed requests that reach memory or change state, a
// forwarded write answered err that changed memory.
TB_TEST(V, directed_corners) {
  CcheEnv<V> env(dut, kDefault, MemConfig{0, 0, 3, 3, false}, 2);
  co_await env.start();
  FlatRef ref;
  auto expect = [&ref](const Req& q, std::uint64_t) { return ref.accept(q); };
  const std::uint32_t a = kGeo.addr_of(3, 0x11), b = kGeo.addr_of(3, 0x12);
  std::size_t mark = 0;
  auto traffic = [&]() {
    std::vector<Req> v;
    for (; mark < env.mem.log().size(); ++mark) v.push_back(env.mem.log()[mark].req);
    return v;
  };

  // Full-line write: allocated without a fill, answered at once.
  co_await env.transact(1, wr(a, 7, random_line()), expect);
  co_await env.quiesce();
  check(traffic().empty(), "a full-line WRITE miss went downstream (must allocate without fetch)");
  check(env.counters() == Counts{0, 1, 0, 0}, "full write: counters");
  // Partial write hit by another DSID: merged, the line takes DSID 9.
  co_await env.transact(0, wr(a, 9, random_line(), 0x00ff'0000'0000'ff00ULL), expect);
  co_await env.transact(1, rd(a), expect);
  co_await env.quiesce();
  check(traffic().empty() && env.counters() == Counts{2, 1, 0, 0}, "partial write hit + read hit");
  // Partial write miss: written around, not allocated.
  co_await env.transact(1, wr(b, 4, random_line(), 0xf0f0ULL), expect);
  co_await env.quiesce();
  auto t = traffic();
  check(t.size() == 1 && t[0].op == Op::write && t[0].wstrb == 0xf0f0ULL && t[0].dsid == 4 && (t[0].tag & 0x80) == 0,
        "partial write miss: expected one forwarded WRITE with its strobes and DSID");
  co_await env.transact(0, rd(b), expect);  // misses: fills the merged line
  co_await env.quiesce();
  t = traffic();
  check(t.size() == 1 && t[0].op == Op::read && env.counters() == Counts{2, 3, 0, 1},
        "the read after a write-around must miss and fill");
  // PREFETCH: forwarded, answered when memory answers, not allocated, not counted.
  const std::uint32_t c = kGeo.addr_of(9, 0x21);
  co_await env.transact(1, pf(c), expect);
  co_await env.quiesce();
  t = traffic();
  check(t.size() == 1 && t[0].op == Op::prefetch && env.counters() == Counts{2, 3, 0, 1}, "PREFETCH forwarding");
  co_await env.transact(1, rd(c), expect);
  co_await env.quiesce();
  check(traffic().size() == 1 && env.counters() == Counts{2, 4, 0, 2}, "a prefetched line is not allocated");
  // Malformed requests: err, nothing downstream, nothing counted, nothing changed.
  for (unsigned i = 0; i < 8; ++i) co_await env.transact(static_cast<unsigned>(i & 1U), bad_request(a), expect);
  co_await env.quiesce();
  check(traffic().empty() && env.counters() == Counts{2, 4, 0, 2}, "malformed requests had an effect");
  co_await env.transact(0, rd(a), expect);  // still resident and dirty
  // Evict `a` (dirty, DSID 9): six more lines of set 3 (the PLRU reaches it at the fifth).
  for (unsigned i = 0; i < 6; ++i) co_await env.transact(1, rd(kGeo.addr_of(3, 0x30 + i)), expect);
  co_await env.quiesce();
  t = traffic();
  bool found = false;
  for (const Req& q : t)
    if ((q.tag & 0x80U) && q.addr == a) {
      found = true;
      check(q.dsid == 9, "writeback of the evicted line carries DSID {}, its last writer's is 9", q.dsid);
      check(q.wdata == ref.at(a >> 6).data, "writeback of the evicted line: stale data");
    }
  check(found, "the dirty line was not written back when evicted");
  // A forwarded write answered err: err to the client, memory unchanged.
  const std::uint32_t e = kGeo.addr_of(5, 0x55);
  env.mem.error_lines().insert(e >> 6);
  const Line before = env.mem.read(e >> 6);
  const Rsp r = co_await env.transact(1, wr(e, 2, random_line(), 0xff), [](const Req& q, std::uint64_t) {
    return Rsp{q.op, true, q.src, q.tag, {}};
  });
  co_await env.quiesce();
  check(r.err && env.mem.read(e >> 6) == before, "forwarded write answered err");
  env.mem.error_lines().clear();
  co_await env.transact(1, rd(e), expect);
}

// ---------------------------------------------------------------------------------------------
// Catches: maintenance that does not wait for the fill in flight (its response must come
// before done), that accepts a request presented after the rise, that pulses done before the
// last writeback is answered, or that keeps lines after an invalidate (every read after it
// must miss and return the flushed data).
TB_TEST(V, maintenance_during_miss) {
  const MemConfig mc = steady_memory(60);
  CcheEnv<V> env(dut, kDefault, mc, 2);
  co_await env.start();
  FlatRef ref;
  auto expect = [&ref](const Req& q, std::uint64_t) { return ref.accept(q); };
  // 24 dirty lines over all sets.
  std::vector<std::uint32_t> lines;
  for (unsigned i = 0; i < 24; ++i) {
    const std::uint32_t a = kGeo.addr_of(i % kGeo.sets(), 0x80 + i / kGeo.sets());
    lines.push_back(a);
    co_await env.transact(i & 1U, wr(a, static_cast<std::uint8_t>(1 + i % 5), random_line()), expect);
  }
  // A READ miss on port 0 (60-cycle fill), then maintenance, then a READ on port 1.
  std::optional<std::uint64_t> rsp0, rsp1;
  Item i0;
  i0.req = rd(kGeo.addr_of(7, 0x200));
  i0.on_accept = expect;
  i0.on_rsp = [&rsp0](const Req&, const Rsp&, std::uint64_t cyc) { rsp0 = cyc; };
  env.clients.send(0, std::move(i0));
  co_await tb::ClockCycles(dut->clk_i, 10);
  check(dut->mem_req_valid_o == 0 && env.mem.outstanding() == 1, "the fill should be in flight");
  bool done = false;
  std::uint64_t done_cycle = 0;
  env.on_done([&](bool, std::uint64_t cyc) {
    done = true;
    done_cycle = cyc;
  });
  auto body = [&]() -> Task<> { co_await env.maintain(true, 2); };
  auto m = tb::start_soon(body());
  co_await RisingEdge(dut->clk_i);
  Item i1;
  i1.req = rd(lines[3]);
  i1.on_accept = [&](const Req& q, std::uint64_t cyc) {
    check(done && cyc > done_cycle, "request presented after the maintenance rise accepted before done");
    return ref.accept(q);
  };
  i1.on_rsp = [&rsp1](const Req&, const Rsp&, std::uint64_t cyc) { rsp1 = cyc; };
  env.clients.send(1, std::move(i1));
  co_await tb::Join(m);
  check(rsp0 && *rsp0 < done_cycle, "the miss in progress was not answered before done");
  co_await env.clients.wait_idle(1000);
  co_await env.quiesce();
  check(env.counters().writebacks == 24, "{} writebacks for 24 dirty lines", env.counters().writebacks);
  for (auto a : lines) check(env.mem.read(a >> 6) == ref.at(a >> 6).data, "line 0x{:08x} not flushed", a);
  // Invalidated: every read misses.
  const Counts c0 = env.counters();
  for (unsigned i = 0; i < lines.size(); ++i) co_await env.transact(i & 1U, rd(lines[i]), expect);
  co_await env.quiesce();
  const Counts c1 = env.counters();
  // (lines[3] was read by port 1 right after the invalidate: it hits now)
  check(c1.hits - c0.hits == 1 && c1.misses - c0.misses == 23, "after flush+invalidate: {} hits {} misses (1 / 23 expected)",
        c1.hits - c0.hits, c1.misses - c0.misses);
  // Flush only keeps the lines: reads hit.
  co_await env.maintain(false);
  for (unsigned i = 0; i < lines.size(); ++i) co_await env.transact(i & 1U, rd(lines[i]), expect);
  co_await env.quiesce();
  check(env.counters().hits - c1.hits == 24, "after a flush without invalidate lines must stay resident");
}

// ---------------------------------------------------------------------------------------------
// Figures: hit latency (must be 1 cycle: the lookup is combinational, the response is
// registered) and hit throughput with both ports streaming READ hits and no backpressure;
// miss latency over a fixed 20-cycle memory; flush time of a full dirty cache.
TB_TEST(V, figures) {
  const MemConfig mc = steady_memory(20);
  CcheEnv<V> env(dut, kDefault, mc, 8);
  co_await env.start();
  FlatRef ref;
  auto expect = [&ref](const Req& q, std::uint64_t) { return ref.accept(q); };
  std::vector<std::uint32_t> lines;
  for (unsigned i = 0; i < kGeo.lines; ++i) lines.push_back(kGeo.addr_of(i % kGeo.sets(), 0x10 + i / kGeo.sets()));
  // Misses, one at a time: latency = memory latency + the cache's own cycles.
  std::uint64_t miss_lat = 0;
  for (unsigned i = 0; i < 16; ++i) {
    const std::uint64_t t0 = cycle_now();
    co_await env.transact(0, rd(lines[i]), expect);
    miss_lat += cycle_now() - t0;
  }
  // Fill the rest by full-line writes (no fetch), then stream hits on both ports.
  for (unsigned i = 16; i < lines.size(); ++i) co_await env.transact(1, wr(lines[i], 3, random_line()), expect);
  co_await env.quiesce();
  const Counts c0 = env.counters();
  const unsigned n = 2000;
  for (unsigned i = 0; i < n; ++i) {
    Item it;
    it.req = rd(lines[tb::randint(0, lines.size() - 1)]);
    it.on_accept = expect;
    env.clients.send(i & 1U, std::move(it));
  }
  const std::uint64_t lat0 = env.clients.latency_sum(), r0 = env.clients.responses();
  const std::uint64_t t0 = cycle_now();
  co_await env.clients.wait_idle(100000);
  const std::uint64_t cycles = cycle_now() - t0;
  const Counts c1 = env.counters();
  check(c1.hits - c0.hits == n && c1.misses == c0.misses, "the hit stream missed");
  const double lat = static_cast<double>(env.clients.latency_sum() - lat0) / static_cast<double>(env.clients.responses() - r0);
  check(lat == 1.0, "hit latency {:.2f} cycles (acceptance to response), 1 expected", lat);
  const std::uint64_t flush = co_await env.maintain(false);
  dut.log().info("READ hit: latency {:.0f} cycle, {} hits on 2 ports in {} cycles = {:.2f} hits/cycle", lat, n, cycles,
                 static_cast<double>(n) / static_cast<double>(cycles));
  dut.log().info("READ miss (clean victim) over a {}-cycle memory: {:.1f} cycles from presentation to response",
                 mc.lat_min, static_cast<double>(miss_lat) / 16.0);
  dut.log().info("flush of {} dirty lines: {} cycles", lines.size() - 16, flush);
}

// ---------------------------------------------------------------------------------------------
// Figure: read-miss throughput, the raster slice's tile load. 128 READs of distinct lines
// (clean victims) back to back on port 1 over a fixed 80-cycle memory without backpressure,
// the client allowing 128 requests outstanding. Prints the cycles and the most fills the memory
// saw in flight at once.
// Catches: a cache that does not overlap read misses (at most one fill in flight).
TB_TEST(V, miss_throughput) {
  const MemConfig mc = steady_memory(80);
  CcheEnv<V> env(dut, kDefault, mc, 128);
  co_await env.start();
  FlatRef ref;
  std::size_t max_fills = 0;
  const unsigned n = 128;
  for (unsigned i = 0; i < n; ++i) {
    Item it;
    it.req = rd(0x10000U + 64U * i);
    it.on_accept = [&ref](const Req& q, std::uint64_t) { return ref.accept(q); };
    env.clients.send(1, std::move(it));
  }
  const std::uint64_t t0 = cycle_now();
  while (!env.clients.idle()) {
    co_await RisingEdge(dut->clk_i);
    max_fills = std::max(max_fills, env.mem.outstanding());
    check(cycle_now() - t0 < 100000, "miss_throughput: no progress");
  }
  const std::uint64_t cycles = cycle_now() - t0;
  co_await env.quiesce();
  check(env.mem.fills() == n && env.counters().misses == n, "expected {} fills and misses", n);
  dut.log().info("{} READ misses to distinct lines, 80-cycle memory: {} cycles ({:.1f} cycles/miss), at most {} "
                 "fills in flight (blocking cache before NUM_MSHR: 10882 cycles, 1 in flight)", n, cycles,
                 static_cast<double>(cycles) / n, max_fills);
  check(env.mem.max_fills_in_flight() == kDefault.nmshr, "at most {} fills in flight, NUM_MSHR = {} expected",
        env.mem.max_fills_in_flight(), kDefault.nmshr);
}

// ---------------------------------------------------------------------------------------------
// Directed: hits and misses under a miss, merging and same-line ordering, 60-cycle memory.
// Catches: a hit or full-line write to another line that waits for a fill in flight
// (hit-under-miss), a second miss that waits (miss-under-miss), a second READ of a line being
// filled that is not merged (waits for the fill, or sends a second fill), responses forced into
// acceptance order, a WRITE to a line being filled accepted before that line's READs are
// answered (or its data leaking into their answers).
TB_TEST(V, hit_under_miss) {
  const MemConfig mc = steady_memory(60);
  CcheEnv<V> env(dut, kDefault, mc, 8);
  co_await env.start();
  FlatRef ref;
  auto expect = [&ref](const Req& q, std::uint64_t) { return ref.accept(q); };
  const std::uint32_t a = kGeo.addr_of(1, 0x11), b = kGeo.addr_of(2, 0x22), c = kGeo.addr_of(3, 0x33),
                      d = kGeo.addr_of(2, 0x44), e = kGeo.addr_of(5, 0x55);
  co_await env.transact(0, wr(a, 1, random_line()), expect);  // resident, dirty
  co_await env.quiesce();
  struct Ev {
    std::uint64_t acc = 0, rsp = 0;
  };
  std::map<std::string, Ev> ev;
  auto item = [&](const std::string& name, Req r) {
    Item it;
    it.req = r;
    it.on_accept = [&ev, &ref, name](const Req& q, std::uint64_t cyc) {
      ev[name].acc = cyc;
      return ref.accept(q);
    };
    it.on_rsp = [&ev, name](const Req&, const Rsp&, std::uint64_t cyc) { ev[name].rsp = cyc; };
    return it;
  };
  // port 1: READ b (miss), READ c (miss); port 0: READ b again (merges)
  env.clients.send(1, item("rd_b", rd(b)));
  env.clients.send(1, item("rd_c", rd(c)));
  co_await tb::ClockCycles(dut->clk_i, 2);
  env.clients.send(0, item("rd_b2", rd(b)));
  co_await tb::ClockCycles(dut->clk_i, 2);
  // port 1: full WRITE e (miss, allocates), READ a (hit), READ d (miss, same set as b)
  env.clients.send(1, item("wr_e", wr(e, 2, random_line())));
  env.clients.send(1, item("rd_a", rd(a)));
  env.clients.send(1, item("rd_d", rd(d)));
  for (unsigned i = 0; ev["rd_d"].acc == 0; ++i) {
    check(i < 200, "rd_d not accepted");
    co_await RisingEdge(dut->clk_i);
  }
  // port 0: a full WRITE to b (a held request locks the arbiter: sent last), then READ b
  env.clients.send(0, item("wr_b", wr(b, 3, random_line())));
  env.clients.send(0, item("rd_b3", rd(b)));
  co_await env.clients.wait_idle(2000);
  co_await env.quiesce();
  for (const auto& [k, v] : ev) dut.log().info("{}: accepted at {}, answered at {}", k, v.acc, v.rsp);
  check(ev["rd_a"].rsp < ev["rd_b"].rsp && ev["wr_e"].rsp < ev["rd_b"].rsp,
        "the hit / full-line write to other lines waited for the miss (no hit-under-miss)");
  check(ev["rd_c"].acc < ev["rd_b"].rsp && ev["rd_d"].acc < ev["rd_b"].rsp,
        "a second miss waited for the first (no miss-under-miss)");
  check(ev["rd_b2"].acc < ev["rd_b"].rsp, "the second READ of a line being filled was not merged");
  check(ev["wr_b"].acc >= ev["rd_b"].rsp && ev["wr_b"].acc >= ev["rd_b2"].rsp,
        "a WRITE to a line being filled was accepted before the line's READs were answered");
  check(ev["rd_b3"].acc > ev["wr_b"].acc, "order on port 0");
  check(env.mem.fills() == 3, "{} fills for 3 missing lines (the merged READ must not fill)", env.mem.fills());
  check(env.mem.max_fills_in_flight() == 3, "{} fills in flight, 3 expected", env.mem.max_fills_in_flight());
  check(env.counters() == Counts{3, 6, 0, 3}, "counters hits/misses/writebacks/fills {}/{}/{}/{}, 3/6/0/3 expected",
        env.counters().hits, env.counters().misses, env.counters().writebacks, env.counters().fills);
}

}  // namespace
