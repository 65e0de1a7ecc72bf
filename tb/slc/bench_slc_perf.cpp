// Benchmarks of the SLC (docs/slc.md, "Figures"): printed figures, not timed tests. Each one
// still checks what it measures can be trusted (data, counters) and fails on a hang, but no
// figure has a pass threshold except where the design guarantees it (hits at 1/clk, a delete
// of an absent DSID finishing at once, the render-to-texture saving equal to the dirty bytes).
//
// Memory for the figures: fixed latency (kMemLatency cycles from acceptance to the response),
// no backpressure, responses in order; upstream: no gaps, no response backpressure.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
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

constexpr unsigned kMemLatency = 80;  // ARCHITECTURE.md 3: the DRAM model's default latency

MemConfig fixed_memory(unsigned latency = kMemLatency) { return tb::mem::steady_memory<MemConfig>(latency); }

// Send `reqs` back to back (several tags outstanding) and return the cycles from the first
// acceptance to the last response.
template <class V>
Task<std::uint64_t> stream(SlcEnv<V>& env, FlatModel& flat, const std::vector<Req>& reqs) {
  std::uint64_t first = 0, last = 0;
  for (const Req& r : reqs) {
    UpItem it;
    it.req = r;
    it.on_accept = [&flat, &first](const Req& q, std::uint64_t cyc) {
      if (first == 0) first = cyc;
      return flat.accept(q);
    };
    it.on_rsp = [&last](const Req&, const Rsp&, std::uint64_t cyc) { last = cyc; };
    env.up.send(std::move(it));
  }
  co_await env.up.wait_idle(reqs.size() * 200 + 10000);
  co_return last - first + 1;
}

// Catches (besides printing the figure): hits slower than one per clock in steady state.
template <class V>
Task<> t_hit_throughput(tb::Dut<V>& dut, Params p) {
  SlcEnv<V> env(dut, p, fixed_memory(), 32);
  co_await env.start();
  FlatModel flat;
  const unsigned n = std::min(p.lines() / 2, 512U);
  std::vector<Req> warm, reads, writes, mixed;
  for (unsigned i = 0; i < n; ++i) warm.push_back(wr(0x20000 + i * 64, 1, random_line()));  // full lines: no fills
  for (unsigned k = 0; k < 8; ++k)
    for (unsigned i = 0; i < n; ++i) {
      reads.push_back(rd(0x20000 + i * 64));
      writes.push_back(wr(0x20000 + i * 64, 1, random_line(), 0x0f0f'0f0f'0f0f'0f0fULL));
      mixed.push_back(i % 3 ? rd(0x20000 + i * 64) : wr(0x20000 + i * 64, 1, random_line(), 0xff));
    }
  co_await stream(env, flat, warm);
  co_await env.quiesce();
  const Counters c0 = co_await env.read_counters();
  const std::uint64_t tr = co_await stream(env, flat, reads);
  const std::uint64_t tw = co_await stream(env, flat, writes);
  const std::uint64_t tm = co_await stream(env, flat, mixed);
  const Counters c1 = co_await env.read_counters();
  check(c1[kMisses] == c0[kMisses], "the hit streams missed");
  const double r = double(reads.size()) / double(tr), w = double(writes.size()) / double(tw),
               m = double(mixed.size()) / double(tm);
  dut.log().info("FIGURE {} hit throughput: READ {:.3f} req/clk ({} in {} cycles), WRITE {:.3f}, mixed 2:1 {:.3f} "
                 "(first acceptance to last response)", p.name, r, reads.size(), tr, w, m);
  check(r > 0.98 && w > 0.98 && m > 0.98, "hits below one per clock: {:.3f} / {:.3f} / {:.3f}", r, w, m);
}
TB_TEST(Vslc_default, figure_hit_throughput_default) { co_await t_hit_throughput(dut, kDefault); }
TB_TEST(Vslc_small, figure_hit_throughput_small) { co_await t_hit_throughput(dut, kSmall); }

// Miss latency: one request at a time, cycles from acceptance to the response.
template <class V>
Task<std::uint64_t> one(SlcEnv<V>& env, FlatModel& flat, Req r) {
  std::uint64_t acc = 0, done = 0;
  UpItem it;
  it.req = r;
  it.on_accept = [&](const Req& q, std::uint64_t cyc) {
    acc = cyc;
    return flat.accept(q);
  };
  it.on_rsp = [&done](const Req&, const Rsp&, std::uint64_t cyc) { done = cyc; };
  env.up.send(std::move(it));
  co_await env.up.wait_idle(10000);
  co_await env.quiesce();
  co_return done - acc;
}

template <class V>
Task<> t_miss_latency(tb::Dut<V>& dut, Params p) {
  SlcEnv<V> env(dut, p, fixed_memory(), 32);
  co_await env.start();
  FlatModel flat;
  const Geometry g = p.geometry();
  const std::uint64_t hit_warm = co_await one(env, flat, rd(g.addr_of(1, 0x100)));
  const std::uint64_t hit = co_await one(env, flat, rd(g.addr_of(1, 0x100)));
  const std::uint64_t rmiss = co_await one(env, flat, rd(g.addr_of(2, 0x100)));
  const std::uint64_t pmiss = co_await one(env, flat, wr(g.addr_of(3, 0x100), 2, random_line(), 0xff));
  const std::uint64_t fmiss = co_await one(env, flat, wr(g.addr_of(4, 0x100), 2, random_line()));
  const std::uint64_t pref = co_await one(env, flat, pf(g.addr_of(5, 0x100)));
  // fill set 6 with dirty lines, then miss in it: the victim is written back
  for (unsigned t = 0; t < g.ways; ++t) co_await one(env, flat, wr(g.addr_of(6, 0x200 + t), 2, random_line()));
  const std::uint64_t dmiss = co_await one(env, flat, rd(g.addr_of(6, 0x300)));
  // miss throughput: independent READ misses back to back
  std::vector<Req> misses;
  for (unsigned i = 0; i < 256; ++i) misses.push_back(rd(0x0400'0000 + i * 64));
  const std::uint64_t tm = co_await stream(env, flat, misses);
  dut.log().info("FIGURE {} latency (memory latency {} cycles, acceptance to response): READ hit {}, READ miss {}, "
                 "partial-WRITE miss {}, full-line WRITE miss {} (no fill), PREFETCH miss {}, READ miss with dirty "
                 "victim {}; miss throughput {:.4f} lines/clk with {} MSHRs (cold first hit {})",
                 p.name, kMemLatency, hit, rmiss, pmiss, fmiss, pref, dmiss, 256.0 / double(tm), p.mshrs, hit_warm);
}
TB_TEST(Vslc_default, figure_miss_latency_default) { co_await t_miss_latency(dut, kDefault); }
TB_TEST(Vslc_small, figure_miss_latency_small) { co_await t_miss_latency(dut, kSmall); }

// Delete latency against occupancy and cache size: k lines of DSID d, then DELETE(d), cycles
// from the CMD write's acceptance to the done pulse. "contiguous": a k-line buffer from set 0
// (the walk stops after its last set), "from the middle": the same buffer from the middle set
// (the walk starts at the DSID's lowest set), "scattered": k lines at random sets, "last set":
// one line in the last set (the walk starts and ends there; a walk without occupancy counters
// and lowest sets would visit every set).
template <class V>
Task<> t_delete_latency(tb::Dut<V>& dut, Params p) {
  SlcEnv<V> env(dut, p, fixed_memory(4), 32);
  co_await env.start();
  FlatModel flat;
  const Geometry g = p.geometry();
  std::vector<unsigned> ks;
  for (unsigned k = 0; k <= 2048; k = k ? k * 4 : 1) ks.push_back(k);  // 0, 1, 4, ..., 1024
  ks.push_back(2048);
  std::string table;
  std::uint8_t d = 1;
  for (unsigned k : ks) {
    if (k > p.lines()) continue;
    std::uint64_t lat[4] = {0, 0, 0, 0};
    unsigned occs[4] = {0, 0, 0, 0};
    for (unsigned mode = 0; mode < 4; ++mode) {
      if (mode == 2 && k != 1) continue;
      std::vector<Req> w;
      for (unsigned i = 0; i < k; ++i) {
        std::uint32_t a;
        if (mode == 0) a = 0x0100'0000 + i * 64;
        else if (mode == 1) a = g.addr_of(static_cast<unsigned>(tb::randint(0, g.sets() - 1)), 0x800 + i);
        else if (mode == 2) a = g.addr_of(g.sets() - 1, 0x900);
        else a = 0x0100'0000 + (g.sets() / 2 + i) * 64;
        w.push_back(wr(a, d, random_line()));
      }
      co_await stream(env, flat, w);
      co_await env.quiesce();
      const unsigned occ = co_await env.occupancy(d);
      check(occ <= k && (mode == 1 || occ == k), "occupancy {} for {} lines", occ, k);
      occs[mode] = occ;
      lat[mode] = co_await env.run_command(TS_SLC_CMD_DELETE, d);
      check(co_await env.occupancy(d) == 0, "DELETE left lines of DSID {}", d);
      if (k == 0) check(lat[mode] <= 8, "DELETE of an absent DSID took {} cycles", lat[mode]);
      // The walk starts at the DSID's lowest set: one line in the last set, or a buffer from
      // the middle, costs its own sets, not the sets below it.
      if (mode == 2) check(lat[mode] <= 12, "DELETE of one line in the last set took {} cycles", lat[mode]);
      d = static_cast<std::uint8_t>(d % 62 + 1);
    }
    table += fmt::format("\n    {:5} lines: contiguous {:5}  from the middle set {:5}  scattered ({:4} resident) {:5}", k,
                         lat[0], lat[3], occs[1], lat[1]);
    if (k == 1) table += fmt::format("  one line in the last set {:5}", lat[2]);
  }
  dut.log().info("FIGURE {} DELETE latency ({} sets x {} ways; a walk of every set = {} slots); CMD write to done "
                 "pulse:{}",
                 p.name, g.sets(), g.ways, g.sets(), table);
}
TB_TEST(Vslc_default, figure_delete_latency_default) { co_await t_delete_latency(dut, kDefault); }
TB_TEST(Vslc_small, figure_delete_latency_small) { co_await t_delete_latency(dut, kSmall); }

// Render to texture: an intermediate of N bytes written with DSID d (full lines, as a render
// target resolve writes them), read back (texture sampling, in order or in reverse), then
// either deleted (the delete hint) or not, and the cache flushed. DRAM write bytes in both
// cases; the saving must equal the dirty bytes of the intermediate still resident when the
// delete ran (64 x DELETED_DIRTY = 64 x LINES.dirty just before the delete).
struct RttResult {
  std::uint64_t dram_writes[2] = {0, 0};  // without / with the delete
  std::uint64_t deleted_dirty = 0, dirty_at_delete = 0;
};

template <class V>
Task<RttResult> rtt_case(SlcEnv<V>& env, FlatModel& flat, unsigned bytes, bool reverse, std::uint8_t d) {
  RttResult res;
  const unsigned n = bytes / 64;
  for (unsigned with_delete = 0; with_delete < 2; ++with_delete) {
    co_await env.run_command(TS_SLC_CMD_INVALIDATE);  // start cold (everything is clean here)
    flat.invalidated(env.mem);
    co_await env.reg_write(TS_SLC_CMD_OFFSET, TS_SLC_CMD_CLEAR_COUNTERS_MASK);
    const std::uint64_t w0 = env.mem.writes();
    std::vector<Req> wr_reqs, rd_reqs;
    for (unsigned i = 0; i < n; ++i) {
      wr_reqs.push_back(wr(0x0200'0000 + i * 64, d, random_line()));
      rd_reqs.push_back(rd(0x0200'0000 + (reverse ? n - 1 - i : i) * 64));
    }
    co_await stream(env, flat, wr_reqs);
    co_await stream(env, flat, rd_reqs);
    co_await env.quiesce();
    if (with_delete) {
      res.dirty_at_delete = TS_SLC_LINES_DIRTY_GET(co_await env.reg_read(TS_SLC_LINES_OFFSET));
      co_await env.run_command(TS_SLC_CMD_DELETE, d);
      res.deleted_dirty = (co_await env.read_counters())[kDelDirty];
      flat.deleted(d, env.mem);
    }
    co_await env.run_command(TS_SLC_CMD_FLUSH);
    co_await env.quiesce();
    flat.flushed(env.mem, "render to texture");
    res.dram_writes[with_delete] = (env.mem.writes() - w0) * 64;
  }
  co_return res;
}

template <class V>
Task<> t_render_to_texture(tb::Dut<V>& dut, Params p) {
  SlcEnv<V> env(dut, p, fixed_memory(), 32);
  co_await env.start();
  FlatModel flat;
  constexpr std::uint8_t d = 9;
  std::string table;
  const unsigned sz = p.size_bytes;
  std::vector<unsigned> sizes;  // (a braced list here trips GCC 12's coroutine lowering)
  sizes.push_back(sz / 8);
  sizes.push_back(sz / 2);
  sizes.push_back(sz * 3 / 4);
  sizes.push_back(sz);
  sizes.push_back(sz * 3 / 2);
  sizes.push_back(2 * sz);
  for (unsigned bytes : sizes) {
    for (unsigned reverse = 0; reverse < (bytes > sz ? 2U : 1U); ++reverse) {
      const RttResult r = co_await rtt_case(env, flat, bytes, reverse != 0, d);
      const std::uint64_t saving = r.dram_writes[0] - r.dram_writes[1];
      check(saving == r.deleted_dirty * 64 && r.deleted_dirty == r.dirty_at_delete,
            "{} B: DRAM write saving {} B, 64 x DELETED_DIRTY = {} B, dirty lines at the delete {}", bytes, saving,
            r.deleted_dirty * 64, r.dirty_at_delete);
      table += fmt::format("\n    {:6.1f} KiB{:10}: DRAM writes without delete {:7} B, with delete {:7} B, saved {:7} B "
                           "= {:5.1f}% of the intermediate (64 x DELETED_DIRTY = {} B)",
                           bytes / 1024.0, reverse ? " (reverse)" : "", r.dram_writes[0], r.dram_writes[1], saving,
                           100.0 * double(saving) / double(bytes), r.deleted_dirty * 64);
    }
  }
  dut.log().info("FIGURE {} render to texture (write N KiB with DSID {} in full lines, read back in order or in "
                 "reverse, DELETE or not, FLUSH):{}",
                 p.name, d, table);
}
TB_TEST(Vslc_default, figure_render_to_texture_default) { co_await t_render_to_texture(dut, kDefault); }
TB_TEST(Vslc_small, figure_render_to_texture_small) { co_await t_render_to_texture(dut, kSmall); }

}  // namespace
