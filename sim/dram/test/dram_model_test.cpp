// DramModel unit tests: timing (latency, bandwidth, outstanding limit), ordering, storage,
// backdoor, counters, error responses, bursts. Every test runs the model against the
// cycle-based TestMaster with an AxiProtocolChecker on the port, which must stay silent.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "axi_test_master.hpp"
#include "tessera/sim/dram_model.hpp"
#include "test_seed.hpp"

using namespace tessera::sim;
using tessera::sim::test::pattern_line;
using tessera::sim::test::Rig;
using tessera::sim::test::RBeat;

namespace {

AxiCheckerConfig bursts_allowed() {
  AxiCheckerConfig c;
  c.name = "dram";
  c.one_beat_only = false;
  c.required_size = -1;
  return c;
}

// Drive one edge by hand: `m` is what the master shows during the cycle; returns what the
// slave showed during that cycle (the values the edge samples).
AxiSlaveSignals edge(DramModel& d, const AxiMasterSignals& m) {
  const AxiSlaveSignals s = d.outputs();
  AxiSlaveSignals next;
  d.clock_edge(m, next);
  return s;
}

}  // namespace

// An unloaded read's R handshake happens exactly `latency` edges after its AR handshake;
// a write's B exactly `latency` edges after the later of its AW and its (last) W handshake.
// Catches: off-by-one in the response scheduling (the most common bug in a cycle model),
// latency counted from the wrong event (AW instead of the last W beat).
TEST(DramModel, LatencyExactlyAsConfigured) {
  for (unsigned lat : {1U, 2U, 5U, 80U}) {
    SCOPED_TRACE(::testing::Message() << "latency " << lat);
    DramConfig cfg;
    cfg.latency = lat;
    Rig rig(cfg, bursts_allowed());
    rig.master.read_line(3, 0x1000);
    ASSERT_TRUE(rig.run_until_idle(1000, 1, 0));
    ASSERT_EQ(rig.master.ar_edges.size(), 1U);
    ASSERT_EQ(rig.master.rbeats.size(), 1U);
    EXPECT_EQ(rig.master.rbeats[0].edge - rig.master.ar_edges[0], lat);
    EXPECT_EQ(rig.master.rbeats[0].r.id, 3U);
    EXPECT_EQ(rig.dram.stats().read_latency_sum, lat);

    // A write whose W beat comes 7 cycles after its AW: latency counts from the W beat.
    DramModel d(cfg);
    AxiMasterSignals m;
    m.bready = true;
    m.awvalid = true;
    m.aw = AxiAddr{.id = 1, .addr = 0x2000};
    ASSERT_TRUE(edge(d, m).awready);  // AW handshake at edge 1
    m.awvalid = false;
    for (int i = 0; i < 6; ++i) edge(d, m);
    m.wvalid = true;
    m.w = AxiW{pattern_line(0x2000), ~0ULL, true};
    ASSERT_TRUE(edge(d, m).wready);  // W handshake at edge 8
    m.wvalid = false;
    std::uint64_t b_edge = 0;
    for (int i = 0; i < 200 && !b_edge; ++i) {
      const AxiSlaveSignals s = edge(d, m);
      if (s.bvalid) b_edge = d.cycle();
    }
    EXPECT_EQ(b_edge, 8 + lat);
    EXPECT_EQ(d.memory().read_line(0x2000), pattern_line(0x2000));
  }
}

// Saturating traffic: bytes serviced per cycle in the steady state equals bytes_per_cycle,
// reads and writes sharing the bus; above 64 B/cycle reads alone are capped by the one-beat-
// per-cycle R channel. Catches: bandwidth not enforced, enforced per direction instead of
// shared, rounding that loses bus time (48 B/cycle must give exactly 3 lines per 4 cycles).
TEST(DramModel, BandwidthLimitMeasured) {
  struct Case {
    unsigned bpc;
    bool writes;
    double expect;
  };
  for (const Case c : {Case{32, false, 32}, Case{32, true, 32}, Case{16, true, 16}, Case{48, false, 48},
                       Case{64, true, 64}, Case{128, false, 64}, Case{128, true, 128}}) {
    SCOPED_TRACE(::testing::Message() << c.bpc << " bytes/cycle, writes " << c.writes);
    DramConfig cfg;
    cfg.bytes_per_cycle = c.bpc;
    cfg.max_outstanding = 0;  // unlimited: only the bus limits
    Rig rig(cfg, bursts_allowed());
    for (std::uint32_t i = 0; i < 3000; ++i) {
      rig.master.read_line(i % 16, i * 64);
      if (c.writes) rig.master.write_line(i % 16, 0x1000000 + i * 64, pattern_line(i));
    }
    for (int i = 0; i < 300; ++i) rig.step();
    const DramStats s0 = rig.dram.stats();
    for (int i = 0; i < 1200; ++i) rig.step();
    const DramStats s1 = rig.dram.stats();
    const double bytes = static_cast<double>(s1.read_bytes + s1.write_bytes - s0.read_bytes - s0.write_bytes);
    const double rate = bytes / static_cast<double>(s1.cycles - s0.cycles);
    EXPECT_NEAR(rate, c.expect, c.expect * 0.01);
    ::testing::Test::RecordProperty("bw_" + std::to_string(c.bpc) + (c.writes ? "_rw" : "_r"), std::to_string(rate));
    EXPECT_TRUE(rig.chk.ok()) << rig.chk.report();
  }
}

// With a limit on outstanding transactions the model never holds more, holds exactly that
// many under pressure, and has AR/AWREADY low whenever it is at the limit.
// Catches: off-by-one at the limit, both READYs granted for the last slot (AR and AW in the
// same cycle would exceed it), per-direction limits ignored.
TEST(DramModel, OutstandingLimitHonoured) {
  struct Case {
    unsigned total, reads, writes;
  };
  for (const Case c : {Case{5, 0, 0}, Case{0, 3, 2}, Case{6, 4, 4}, Case{1, 0, 0}}) {
    SCOPED_TRACE(::testing::Message() << "max_outstanding " << c.total << " max_reads " << c.reads << " max_writes "
                                      << c.writes);
    DramConfig cfg;
    cfg.latency = 20;
    cfg.max_outstanding = c.total;
    cfg.max_reads = c.reads;
    cfg.max_writes = c.writes;
    cfg.ready_stall = 0.1;
    cfg.seed = tessera::sim::test::test_seed();
    Rig rig(cfg, bursts_allowed(), tessera::sim::test::test_seed() + 1);
    rig.master.rready_p = 0.4;
    rig.master.bready_p = 0.4;
    for (std::uint32_t i = 0; i < 200; ++i) {
      rig.master.read_line(i % 8, i * 64);
      rig.master.write_line(i % 8, 0x800000 + i * 64, pattern_line(i));
    }
    bool at_limit_seen = false;
    for (int i = 0; i < 200000 && !rig.run_until_idle(1, 200, 200); ++i) {
      const std::size_t r = rig.dram.reads_outstanding(), w = rig.dram.writes_outstanding();
      if (c.total) {
        ASSERT_LE(r + w, c.total);
        if (r + w == c.total) {
          at_limit_seen = true;
          ASSERT_FALSE(rig.dram.outputs().arready || rig.dram.outputs().awready) << "READY high at the limit";
        }
      }
      if (c.reads) {
        ASSERT_LE(r, c.reads);
        if (r == c.reads) {
          ASSERT_FALSE(rig.dram.outputs().arready);
        }
      }
      if (c.writes) {
        ASSERT_LE(w, c.writes);
        if (w == c.writes) {
          ASSERT_FALSE(rig.dram.outputs().awready);
        }
      }
    }
    ASSERT_TRUE(rig.run_until_idle(1, 200, 200)) << "traffic did not complete";
    const DramStats& s = rig.dram.stats();
    if (c.total) {
      EXPECT_TRUE(at_limit_seen);
      EXPECT_EQ(s.peak_outstanding, c.total);
    }
    if (c.reads) {
      EXPECT_EQ(s.peak_reads, c.reads);
    }
    if (c.writes) {
      EXPECT_EQ(s.peak_writes, c.writes);
    }
    EXPECT_TRUE(rig.chk.ok()) << rig.chk.report();
  }
}

// Random reordering: responses of one ID keep their request order, different IDs overtake
// each other, and every read returns its own line. youngest_first reverses a queue of
// different IDs deterministically.
// Catches: reordering that breaks the AXI same-ID rule, data attached to the wrong response,
// a "random" mode that never actually reorders.
TEST(DramModel, ReorderAcrossIdsKeepsSameIdOrder) {
  DramConfig cfg;
  cfg.reorder = DramReorder::random;
  cfg.latency_jitter = 40;
  cfg.seed = tessera::sim::test::test_seed();
  Rig rig(cfg, bursts_allowed(), cfg.seed + 7);
  rig.master.rready_p = 0.7;
  std::map<std::uint32_t, std::vector<std::uint32_t>> issued;  // id -> addresses in order
  for (std::uint32_t i = 0; i < 600; ++i) {
    const std::uint32_t id = i % 5, addr = 0x40000 + i * 64;
    rig.dram.memory().write_line(addr, pattern_line(addr));
    rig.master.read_line(id, addr);
    issued[id].push_back(addr);
  }
  ASSERT_TRUE(rig.run_until_idle(100000, 600, 0));
  std::map<std::uint32_t, std::size_t> next;
  std::size_t overtakes = 0;
  std::uint32_t prev_seq = 0;
  for (const auto& b : rig.master.rbeats) {
    const std::uint32_t addr = issued[b.r.id].at(next[b.r.id]++);
    ASSERT_EQ(b.r.data, pattern_line(addr)) << "RID " << b.r.id << " returned the wrong line";
    const std::uint32_t seq = (addr - 0x40000) / 64;
    if (seq < prev_seq) ++overtakes;
    prev_seq = seq;
  }
  EXPECT_GT(overtakes, 50U) << "random reordering never reordered";
  EXPECT_TRUE(rig.chk.ok()) << rig.chk.report();

  // youngest_first with a saturated bus: the queue is served newest first.
  DramConfig y;
  y.reorder = DramReorder::youngest_first;
  y.bytes_per_cycle = 8;  // 8 cycles per line: the queue builds up
  Rig yr(y, bursts_allowed());
  for (std::uint32_t i = 0; i < 4; ++i) yr.master.read_line(i, i * 64);
  ASSERT_TRUE(yr.run_until_idle(10000, 4, 0));
  std::vector<std::uint32_t> order;
  for (const auto& b : yr.master.rbeats) order.push_back(b.r.id);
  EXPECT_EQ(order, (std::vector<std::uint32_t>{0, 3, 2, 1}));  // 0 started before the others arrived
}

// AXI writes and reads at address 0, the last line 0xFFFFFFC0 and random lines all over the
// 4 GiB space: data round-trips, the backdoor sees the same bytes, only touched pages exist.
// Catches: address truncation, storage keyed on the wrong bits, the top line lost.
TEST(DramModel, SparseStorageOverTheWholeSpace) {
  auto rng = tessera::sim::test::test_rng();
  std::set<std::uint32_t> lines = {0, 0xFFFFFFC0U, 0x40, 0x80000000U};
  while (lines.size() < 300) lines.insert(static_cast<std::uint32_t>(rng()) & ~63U);
  DramConfig cfg;
  cfg.latency = 10;
  Rig rig(cfg, bursts_allowed());
  std::uint32_t id = 0;
  for (auto a : lines) rig.master.write_line(id++ % 16, a, pattern_line(a, 5));
  ASSERT_TRUE(rig.run_until_idle(100000, 0, lines.size()));
  for (auto a : lines) rig.master.read_line(id++ % 16, a);
  ASSERT_TRUE(rig.run_until_idle(100000, lines.size(), lines.size()));
  auto it = lines.begin();
  for (const auto& b : rig.master.rbeats) {
    // In-order mode: responses come back in request order.
    EXPECT_EQ(b.r.data, pattern_line(*it, 5)) << std::hex << "line 0x" << *it;
    EXPECT_EQ(rig.dram.memory().read_line(*it), pattern_line(*it, 5));
    ++it;
  }
  std::set<std::uint32_t> pages;
  for (auto a : lines) pages.insert(a >> 12);
  EXPECT_EQ(rig.dram.memory().pages_allocated(), pages.size());
  EXPECT_TRUE(rig.chk.ok()) << rig.chk.report();
}

// The backdoor and AXI traffic see one memory: a backdoor write is returned by a later AXI
// read; a strobed AXI write is merged into backdoor-written data and visible through the
// backdoor no later than its B response.
// Catches: a model keeping an AXI-side copy, strobes ignored, writes applied after B.
TEST(DramModel, BackdoorCoherentWithAxi) {
  DramConfig cfg;
  cfg.latency = 30;
  Rig rig(cfg, bursts_allowed());
  SparseMemory& mem = rig.dram.memory();
  const AxiData host = pattern_line(0x5000, 1);
  mem.write_line(0x5000, host);
  rig.master.read_line(1, 0x5000);
  ASSERT_TRUE(rig.run_until_idle(1000, 1, 0));
  EXPECT_EQ(rig.master.rbeats.at(0).r.data, host);

  const AxiData dev = pattern_line(0x5000, 2);
  const std::uint64_t strb = 0x00FF00FF00FF00FFULL;
  rig.master.write_line(2, 0x5000, dev, strb);
  std::uint64_t seen_edge = 0;
  for (int i = 0; i < 1000 && rig.master.bresps.empty(); ++i) {
    rig.step();
    if (!seen_edge && mem.read_line(0x5000) != host) seen_edge = rig.dram.cycle();
  }
  ASSERT_EQ(rig.master.bresps.size(), 1U);
  EXPECT_NE(seen_edge, 0U);
  EXPECT_LE(seen_edge, rig.master.bresps[0].edge) << "a write must be visible by its B response";
  AxiData merged = host;
  for (unsigned i = 0; i < 64; ++i)
    if ((strb >> i) & 1U) merged[i] = dev[i];
  EXPECT_EQ(mem.read_line(0x5000), merged);
  mem.write32(0x5004, 0xDEADBEEFU);
  rig.master.read_line(3, 0x5000);
  ASSERT_TRUE(rig.run_until_idle(1000, 2, 1));
  AxiData expect = merged;
  expect[4] = 0xEF;
  expect[5] = 0xBE;
  expect[6] = 0xAD;
  expect[7] = 0xDE;
  EXPECT_EQ(rig.master.rbeats.at(1).r.data, expect);
  EXPECT_TRUE(rig.chk.ok()) << rig.chk.report();
}

// Counters after random traffic: transactions, beats and bytes exactly as sent.
// Catches: bytes counted per transaction instead of per beat, strobed bytes miscounted,
// error responses counted as data.
TEST(DramModel, ByteCountersExact) {
  auto rng = tessera::sim::test::test_rng();
  DramConfig cfg;
  cfg.latency = 15;
  cfg.reorder = DramReorder::random;
  cfg.seed = rng();
  Rig rig(cfg, bursts_allowed(), rng());
  std::uint64_t reads = 0, writes = 0, rbeats = 0, wbeats = 0, strobed = 0;
  for (int i = 0; i < 400; ++i) {
    const std::uint32_t addr = static_cast<std::uint32_t>(rng() % 4096) * 256;
    const std::uint8_t len = static_cast<std::uint8_t>(rng() % 4);
    if (rng() % 2) {
      rig.master.read(AxiAddr{.id = static_cast<std::uint32_t>(rng() % 4), .addr = addr, .len = len});
      ++reads;
      rbeats += len + 1U;
    } else {
      std::vector<AxiW> beats;
      for (unsigned b = 0; b <= len; ++b) {
        const std::uint64_t strb = rng();
        beats.push_back(AxiW{pattern_line(addr + b), strb, b == len});
        strobed += static_cast<std::uint64_t>(__builtin_popcountll(strb));
      }
      rig.master.write(AxiAddr{.id = static_cast<std::uint32_t>(rng() % 4), .addr = addr, .len = len}, beats);
      ++writes;
      wbeats += len + 1U;
    }
  }
  ASSERT_TRUE(rig.run_until_idle(100000, reads, writes));
  const DramStats& s = rig.dram.stats();
  EXPECT_EQ(s.reads, reads);
  EXPECT_EQ(s.writes, writes);
  EXPECT_EQ(s.reads_done, reads);
  EXPECT_EQ(s.writes_done, writes);
  EXPECT_EQ(s.read_beats, rbeats);
  EXPECT_EQ(s.write_beats, wbeats);
  EXPECT_EQ(s.read_bytes, 64 * rbeats);
  EXPECT_EQ(s.write_bytes, 64 * wbeats);
  EXPECT_EQ(s.write_bytes_strobed, strobed);
  EXPECT_EQ(s.error_responses, 0U);
  EXPECT_EQ(s.cycles, rig.dram.cycle());
  EXPECT_TRUE(rig.chk.ok()) << rig.chk.report();
  rig.dram.clear_stats();
  EXPECT_EQ(rig.dram.stats().read_bytes, 0U);
}

// Configured error ranges answer SLVERR / DECERR, erroneous reads return kDramErrorData and erroneous
// writes change nothing; reserved AxBURST and AxSIZE > 6 get SLVERR; a range limited to
// writes leaves reads alone.
// Catches: error responses that still write memory, the range end off by one.
TEST(DramModel, ErrorRangesAndIllegalBursts) {
  DramConfig cfg;
  cfg.latency = 5;
  cfg.error_ranges = {{0x10000, 0x1000, AxiResp::slverr, true, true},
                      {0x20000, 0x40, AxiResp::decerr, true, true},
                      {0x30000, 0x1000, AxiResp::slverr, false, true}};
  AxiCheckerConfig cc = bursts_allowed();
  Rig rig(cfg, cc);
  SparseMemory& mem = rig.dram.memory();
  for (std::uint32_t a : {0x10000U, 0x10FC0U, 0x11000U, 0x20000U, 0x20040U, 0x30000U, 0xFFC0U})
    mem.write_line(a, pattern_line(a));
  struct Probe {
    std::uint32_t addr;
    AxiResp rd, wr;
  };
  const Probe probes[] = {{0x10000, AxiResp::slverr, AxiResp::slverr}, {0x10FC0, AxiResp::slverr, AxiResp::slverr},
                          {0x11000, AxiResp::okay, AxiResp::okay},     {0xFFC0, AxiResp::okay, AxiResp::okay},
                          {0x20000, AxiResp::decerr, AxiResp::decerr}, {0x20040, AxiResp::okay, AxiResp::okay},
                          {0x30000, AxiResp::okay, AxiResp::slverr}};
  for (const auto& p : probes) {
    rig.master.read_line(0, p.addr);
    rig.master.write_line(1, p.addr, pattern_line(p.addr, 9));
  }
  const std::size_t n = std::size(probes);
  ASSERT_TRUE(rig.run_until_idle(10000, n, n));
  for (std::size_t i = 0; i < n; ++i) {
    const auto& p = probes[i];
    SCOPED_TRACE(::testing::Message() << std::hex << "addr 0x" << p.addr);
    EXPECT_EQ(rig.master.rbeats[i].r.resp, static_cast<std::uint8_t>(p.rd));
    // Reads are serviced before the write queued behind them (in-order mode).
    AxiData junk;
    junk.fill(kDramErrorData);
    EXPECT_EQ(rig.master.rbeats[i].r.data, p.rd == AxiResp::okay ? pattern_line(p.addr) : junk);
    EXPECT_EQ(rig.master.bresps[i].b.resp, static_cast<std::uint8_t>(p.wr));
    EXPECT_EQ(mem.read_line(p.addr), p.wr == AxiResp::okay ? pattern_line(p.addr, 9) : pattern_line(p.addr));
  }
  // Reserved burst type and an oversized beat.
  AxiCheckerConfig lax = cc;
  lax.check_4k = false;
  Rig bad(cfg, lax);
  bad.master.read(AxiAddr{.id = 0, .addr = 0x100, .burst = 3});
  bad.master.read(AxiAddr{.id = 0, .addr = 0x100, .size = 7});
  ASSERT_TRUE(bad.run_until_idle(1000, 2, 0));
  EXPECT_EQ(bad.master.rbeats[0].r.resp, static_cast<std::uint8_t>(AxiResp::slverr));
  EXPECT_EQ(bad.master.rbeats[1].r.resp, static_cast<std::uint8_t>(AxiResp::slverr));
  EXPECT_EQ(bad.dram.stats().error_responses, 2U);
  EXPECT_EQ(bad.chk.count("burst-type"), 1U);
  EXPECT_EQ(bad.chk.count("burst-size"), 1U);
  EXPECT_TRUE(rig.chk.ok()) << rig.chk.report();
}

// Multi-beat bursts: INCR, WRAP and FIXED addresses and narrow (4-byte) beats land where AXI
// says (A3.4.1); R beats carry RLAST on the last beat only.
// Catches: wrong wrap boundary, FIXED treated as INCR, narrow beats writing whole lines.
TEST(DramModel, BurstAddressing) {
  DramConfig cfg;
  cfg.latency = 4;
  Rig rig(cfg, bursts_allowed());
  SparseMemory& mem = rig.dram.memory();
  std::vector<AxiW> four;
  for (unsigned b = 0; b < 4; ++b) four.push_back(AxiW{pattern_line(b, 1), ~0ULL, b == 3});
  rig.master.write(AxiAddr{.id = 0, .addr = 0x1000, .len = 3}, four);                         // INCR
  rig.master.write(AxiAddr{.id = 0, .addr = 0x2080, .len = 3, .burst = 2}, four);              // WRAP
  rig.master.write(AxiAddr{.id = 0, .addr = 0x3000, .len = 1, .burst = 0},                     // FIXED
                   {AxiW{pattern_line(10), ~0ULL, false}, AxiW{pattern_line(11), 0xFULL, true}});
  std::vector<AxiW> narrow;
  for (unsigned b = 0; b < 4; ++b) {
    AxiData d{};
    d.fill(static_cast<std::uint8_t>(0xA0 + b));
    narrow.push_back(AxiW{d, ~0ULL & (0xFULL << ((4 + 4 * b) % 64)), b == 3});
  }
  rig.master.write(AxiAddr{.id = 0, .addr = 0x4004, .len = 3, .size = 2}, narrow);
  ASSERT_TRUE(rig.run_until_idle(1000, 0, 4));
  for (unsigned b = 0; b < 4; ++b) EXPECT_EQ(mem.read_line(0x1000 + 64 * b), pattern_line(b, 1)) << "INCR beat " << b;
  const std::uint32_t wrap_addr[4] = {0x2080, 0x20C0, 0x2000, 0x2040};
  for (unsigned b = 0; b < 4; ++b) EXPECT_EQ(mem.read_line(wrap_addr[b]), pattern_line(b, 1)) << "WRAP beat " << b;
  AxiData fixed = pattern_line(10);
  for (unsigned i = 0; i < 4; ++i) fixed[i] = pattern_line(11)[i];
  EXPECT_EQ(mem.read_line(0x3000), fixed);
  EXPECT_EQ(mem.read32(0x4004), 0xA0A0A0A0U);
  EXPECT_EQ(mem.read32(0x4010), 0xA3A3A3A3U);
  EXPECT_EQ(mem.read32(0x4000), 0U);
  EXPECT_EQ(mem.read32(0x4014), 0U);
  EXPECT_EQ(rig.dram.stats().write_bytes, 4 * 64 + 4 * 64 + 2 * 64 + 4 * 4U);

  rig.master.read(AxiAddr{.id = 1, .addr = 0x2080, .len = 3, .burst = 2});
  ASSERT_TRUE(rig.run_until_idle(1000, 1, 4));
  ASSERT_EQ(rig.master.rbeats.size(), 4U);
  for (unsigned b = 0; b < 4; ++b) {
    EXPECT_EQ(rig.master.rbeats[b].r.data, pattern_line(b, 1));
    EXPECT_EQ(rig.master.rbeats[b].r.last, b == 3);
  }
  EXPECT_TRUE(rig.chk.ok()) << rig.chk.report();
}

// Random READY backpressure, W beats sent ahead of their AW, random RREADY/BREADY, random
// reordering: everything completes, the data is right and the port stays legal.
// Catches: handshakes lost when READY toggles, W beats paired with the wrong AW, a W buffer
// that overflows or deadlocks when AWs are held back.
TEST(DramModel, RandomBackpressureAndEarlyW) {
  auto rng = tessera::sim::test::test_rng();
  DramConfig cfg;
  cfg.latency = 12;
  cfg.ready_stall = 0.4;
  cfg.reorder = DramReorder::random;
  cfg.latency_jitter = 10;
  cfg.max_outstanding = 7;
  cfg.w_buffer_beats = 3;
  cfg.seed = rng();
  Rig rig(cfg, bursts_allowed(), rng());
  rig.master.w_early = true;
  rig.master.idle_p = 0.2;
  rig.master.rready_p = 0.6;
  rig.master.bready_p = 0.6;
  std::vector<std::uint32_t> addrs;
  for (std::uint32_t i = 0; i < 500; ++i) {
    const std::uint32_t a = 0x100000 + i * 128;
    addrs.push_back(a);
    const std::uint8_t len = static_cast<std::uint8_t>(rng() % 2);
    std::vector<AxiW> beats;
    for (unsigned b = 0; b <= len; ++b) beats.push_back(AxiW{pattern_line(a + 64 * b), ~0ULL, b == len});
    rig.master.write(AxiAddr{.id = static_cast<std::uint32_t>(rng() % 6), .addr = a, .len = len}, beats);
  }
  ASSERT_TRUE(rig.run_until_idle(200000, 0, addrs.size()));
  for (std::uint32_t a : addrs) rig.master.read_line(static_cast<std::uint32_t>(rng() % 6), a);
  ASSERT_TRUE(rig.run_until_idle(200000, addrs.size(), addrs.size()));
  std::multiset<AxiData> got, want;
  for (const auto& b : rig.master.rbeats) got.insert(b.r.data);
  for (std::uint32_t a : addrs) {
    const AxiData d = pattern_line(a);
    want.insert(d);
    EXPECT_EQ(rig.dram.memory().read_line(a), d);
  }
  EXPECT_EQ(got, want);
  EXPECT_TRUE(rig.chk.ok()) << rig.chk.report();
}

// W beats ahead of their AW are buffered up to w_buffer_beats, then WREADY drops until the
// AW arrives. Catches: an unbounded W buffer, or one that refuses W before AW entirely.
TEST(DramModel, EarlyWBufferLimit) {
  DramConfig cfg;
  cfg.w_buffer_beats = 2;
  DramModel d(cfg);
  AxiMasterSignals m;
  m.wvalid = true;
  m.w = AxiW{pattern_line(1), ~0ULL, true};
  EXPECT_TRUE(edge(d, m).wready);
  EXPECT_TRUE(edge(d, m).wready);
  EXPECT_FALSE(edge(d, m).wready) << "third early beat must wait";
  m.wvalid = false;
  m.awvalid = true;
  m.aw = AxiAddr{.id = 0, .addr = 0x0};
  EXPECT_TRUE(edge(d, m).awready);
  m.awvalid = false;
  EXPECT_TRUE(d.outputs().wready) << "one buffered beat was claimed by the AW";
}

// reset_interface() drops what is in flight and lowers the VALIDs but keeps memory.
// Catches: a GPU reset leaving stale responses on the port (they would carry unknown IDs).
TEST(DramModel, ResetInterfaceKeepsMemory) {
  DramConfig cfg;
  cfg.latency = 3;
  Rig rig(cfg, bursts_allowed());
  rig.master.write_line(0, 0x700, pattern_line(0x700));
  ASSERT_TRUE(rig.run_until_idle(100, 0, 1));
  rig.master.read_line(0, 0x700);
  rig.master.rready_p = 0;
  for (int i = 0; i < 10; ++i) rig.step();
  EXPECT_TRUE(rig.dram.outputs().rvalid);
  rig.dram.reset_interface();
  EXPECT_FALSE(rig.dram.outputs().rvalid);
  EXPECT_TRUE(rig.dram.idle());
  EXPECT_EQ(rig.dram.memory().read_line(0x700), pattern_line(0x700));
}

// Ideal reads (DramConfig::ideal_reads, the limit study behind `tessera-sim --prefetch ideal`):
// a read inside a range answers one edge after its AR, ahead of older ordinary reads, with
// the memory's data, and takes no bus time; a read outside, or one crossing the range's end,
// is timed as always; a read of bytes an accepted write has not yet stored goes the ordinary
// way, so it returns the written data. Catches: the oracle leaking onto other addresses
// (the bound would be too good), ideal reads stuck behind the in-order response queue (too
// bad), stale data.
TEST(DramModel, IdealReadsAnswerAtOnceAndFreeTheBus) {
  DramConfig cfg;
  cfg.latency = 80;
  cfg.ideal_reads = {DramRange{0x10000, 0x1000}};
  Rig rig(cfg, bursts_allowed());
  SparseMemory& mem = rig.dram.memory();
  for (std::uint32_t a = 0x0F000; a < 0x12000; a += 64) mem.write_line(a, pattern_line(a, 7));
  rig.master.read_line(1, 0x0F000);   // ordinary, first
  rig.master.read_line(2, 0x10040);   // ideal, behind it
  rig.master.read_line(3, 0x11000);   // just past the range: ordinary
  ASSERT_TRUE(rig.run_until_idle(1000, 3, 0));
  std::map<std::uint32_t, RBeat> by_id;
  for (const RBeat& b : rig.master.rbeats) by_id[b.r.id] = b;
  ASSERT_EQ(by_id.size(), 3U);
  EXPECT_EQ(by_id[2].edge - rig.master.ar_edges[1], 1U) << "ideal: the next edge";
  EXPECT_LT(by_id[2].edge, by_id[1].edge) << "ideal reads pass older ordinary ones";
  EXPECT_GE(by_id[1].edge - rig.master.ar_edges[0], 80U);
  EXPECT_GE(by_id[3].edge - rig.master.ar_edges[2], 80U);
  EXPECT_EQ(by_id[2].r.data, pattern_line(0x10040, 7));
  EXPECT_EQ(rig.dram.stats().ideal_reads, 1U);
  EXPECT_EQ(rig.dram.stats().read_bytes, 3U * 64U) << "ideal reads still count as DRAM bytes";

  // No bus time: 64 ideal lines at 32 bytes a cycle would take 128 cycles of bus.
  Rig bulk(cfg, bursts_allowed());
  for (std::uint32_t i = 0; i < 64; ++i) bulk.master.read_line(i % 16, 0x10000 + i * 64);
  ASSERT_TRUE(bulk.run_until_idle(1000, 64, 0));
  EXPECT_LT(bulk.master.rbeats.back().edge - bulk.master.ar_edges.front(), 100U);
  EXPECT_EQ(bulk.dram.stats().ideal_reads, 64U);

  // A write accepted, not yet stored: the read of its line waits for it, and sees it.
  DramConfig slow = cfg;
  slow.bytes_per_cycle = 1;  // four ordinary reads hold the bus for 256 edges; the write waits
  Rig order(slow, bursts_allowed());
  for (std::uint32_t a = 0x10000; a < 0x11000; a += 64) order.dram.memory().write_line(a, pattern_line(a, 7));
  for (std::uint32_t i = 0; i < 4; ++i) order.master.read_line(i, 0x20000 + i * 64);
  order.master.write_line(4, 0x10080, pattern_line(0x10080, 9));
  for (int i = 0; i < 12; ++i) order.step();
  ASSERT_EQ(order.dram.memory().read_line(0x10080), pattern_line(0x10080, 7)) << "the write is still queued";
  order.master.read_line(5, 0x10080);
  ASSERT_TRUE(order.run_until_idle(4000, 5, 1));
  std::map<std::uint32_t, RBeat> ordered;
  for (const RBeat& b : order.master.rbeats) ordered[b.r.id] = b;
  EXPECT_EQ(ordered.at(5).r.data, pattern_line(0x10080, 9));
  EXPECT_EQ(order.dram.stats().ideal_reads, 0U);
  EXPECT_TRUE(rig.chk.ok() && bulk.chk.ok() && order.chk.ok()) << rig.chk.report() << bulk.chk.report() << order.chk.report();

  DramConfig bad;
  bad.ideal_reads = {DramRange{0xFFFFF000, 0x2000}};
  EXPECT_THROW(DramModel{bad}, std::invalid_argument);
  bad.ideal_reads = {DramRange{0x1000, 0}};
  EXPECT_THROW(DramModel{bad}, std::invalid_argument);
}

// DramConfig::ideal_pays_bus (`tessera-sim --prefetch ideal-bus`, the bound of a perfect
// prefetch that pays for its bandwidth): an ideal read has no latency but takes its bus time,
// ahead of the queue, and ordinary reads behind it wait for that time. Catches: the bus time
// not taken (the bound as free as `ideal`, the point of the option lost), the latency kept
// (the bound no better than no prefetch), the ordinary reads not delayed (the bandwidth free
// after all), the data wrong.
TEST(DramModel, IdealReadsPayingTheBusTakeItsTimeButNoLatency) {
  DramConfig cfg;
  cfg.latency = 80;
  cfg.max_outstanding = 0;
  cfg.ideal_reads = {DramRange{0x10000, 0x1000}};
  cfg.ideal_pays_bus = true;
  {  // one line on an idle bus: its two cycles of bus (64 bytes at 32 a cycle), no latency
    Rig rig(cfg, bursts_allowed());
    rig.dram.memory().write_line(0x10040, pattern_line(0x10040, 3));
    rig.master.read_line(1, 0x10040);
    ASSERT_TRUE(rig.run_until_idle(1000, 1, 0));
    EXPECT_EQ(rig.master.rbeats.at(0).edge - rig.master.ar_edges.at(0), 2U);
    EXPECT_EQ(rig.master.rbeats.at(0).r.data, pattern_line(0x10040, 3));
    EXPECT_EQ(rig.dram.stats().ideal_reads, 1U);
    EXPECT_TRUE(rig.chk.ok()) << rig.chk.report();
  }
  {  // 64 lines: 128 cycles of bus, and nothing of the 80-cycle latency on top
    Rig bulk(cfg, bursts_allowed());
    for (std::uint32_t i = 0; i < 64; ++i) bulk.master.read_line(i % 16, 0x10000 + i * 64);
    ASSERT_TRUE(bulk.run_until_idle(1000, 64, 0));
    const std::uint64_t span = bulk.master.rbeats.back().edge - bulk.master.ar_edges.front();
    EXPECT_GE(span, 128U) << "the bus time is paid";
    EXPECT_LT(span, 128U + 40U) << "no latency on top";
    EXPECT_TRUE(bulk.chk.ok()) << bulk.chk.report();
  }
  // An ordinary read behind 32 ideal lines waits for their bus time.
  const auto ordinary_latency = [&](bool ideal_ahead) {
    Rig rig(cfg, bursts_allowed());
    if (ideal_ahead)
      for (std::uint32_t i = 0; i < 32; ++i) rig.master.read_line(1 + i % 8, 0x10000 + i * 64);
    rig.master.read_line(0, 0x20000);
    EXPECT_TRUE(rig.run_until_idle(2000, ideal_ahead ? 33 : 1, 0));
    EXPECT_TRUE(rig.chk.ok()) << rig.chk.report();
    for (const RBeat& b : rig.master.rbeats)
      if (b.r.id == 0) return b.edge - rig.master.ar_edges.back();
    return std::uint64_t{0};
  };
  // (the master sends an AR a cycle, so of the 64 cycles the 32 ideal lines take, 32 pass while
  // the ordinary read is still being sent: it waits about 32 more)
  const std::uint64_t alone = ordinary_latency(false), behind = ordinary_latency(true);
  EXPECT_GE(alone, 80U);
  EXPECT_GE(behind, alone + 24U) << "the ideal lines' bus time delays the ordinary read";

  // Free, the same ordinary read does not wait for them (the default, for comparison).
  cfg.ideal_pays_bus = false;
  const std::uint64_t behind_free = ordinary_latency(true);
  EXPECT_LE(behind_free, alone + 8U);
}

// DramRange::percent: a range's own share overrides DramConfig::ideal_percent (`ideal:N/G`,
// the textures' and the targets' shares apart). Catches: the range's share ignored, or applied
// to the other ranges too.
TEST(DramModel, IdealRangeShareOverridesTheConfigsShare) {
  DramConfig cfg;
  cfg.latency = 80;
  cfg.max_outstanding = 0;
  cfg.ideal_percent = 30;
  cfg.ideal_reads = {DramRange{0x40000, 400 * 64}, DramRange{0x80000, 400 * 64, 100}};
  // each range read alone (a range's ordinary answers would hold the R channel for the other's)
  const auto ideal_lines = [&](std::uint32_t base) {
    Rig rig(cfg, bursts_allowed());
    for (std::uint32_t i = 0; i < 400; ++i) rig.master.read_line(i, base + i * 64);
    EXPECT_TRUE(rig.run_until_idle(200000, 400, 0));
    EXPECT_TRUE(rig.chk.ok()) << rig.chk.report();
    std::vector<std::uint64_t> answered(400, 0);
    for (const RBeat& b : rig.master.rbeats) answered.at(b.r.id) = b.edge;
    int n = 0;
    for (std::uint32_t i = 0; i < 400; ++i) n += answered[i] - rig.master.ar_edges[i] < 80;
    return n;
  };
  EXPECT_NEAR(ideal_lines(0x40000), 120, 30) << "the first range: the config's 30 %";
  EXPECT_EQ(ideal_lines(0x80000), 400) << "the second range: its own 100 %";

  DramConfig bad;
  bad.ideal_reads = {DramRange{0x1000, 0x1000, 101}};
  EXPECT_THROW(DramModel{bad}, std::invalid_argument);
}

// DramConfig::ideal_percent (`tessera-sim --prefetch ideal:N`, the bound at N % coverage): that
// share of the ranges' lines is ideal, the same lines in every run, spread over the range, and
// the rest are timed as ordinary reads. Catches: the share ignored (every line ideal, the
// curve flat), a share that differs from run to run (points of the curve not comparable), a
// hash that picks a contiguous block (one texture covered, another not), out-of-range shares.
TEST(DramModel, IdealPercentMakesThatShareOfTheLinesIdeal) {
  DramConfig cfg;
  cfg.latency = 80;
  cfg.max_outstanding = 0;
  cfg.ideal_reads = {DramRange{0x40000, 1000 * 64}};
  cfg.ideal_percent = 30;
  auto run = [&](std::vector<bool>& ideal) {
    Rig rig(cfg, bursts_allowed());
    for (std::uint32_t i = 0; i < 1000; ++i) rig.master.read_line(i, 0x40000 + i * 64);  // ID = line
    if (!rig.run_until_idle(200000, 1000, 0)) return false;
    std::vector<std::uint64_t> answered(1000, 0);
    for (const RBeat& b : rig.master.rbeats) answered.at(b.r.id) = b.edge;
    ideal.assign(1000, false);
    for (std::uint32_t i = 0; i < 1000; ++i) ideal[i] = answered[i] - rig.master.ar_edges[i] < 80;
    EXPECT_TRUE(rig.chk.ok()) << rig.chk.report();
    return true;
  };
  std::vector<bool> a, b;
  ASSERT_TRUE(run(a));
  ASSERT_TRUE(run(b));
  EXPECT_EQ(a, b) << "the same lines in every run";
  const auto count = [](const std::vector<bool>& v, std::size_t lo, std::size_t hi) {
    return std::count(v.begin() + static_cast<std::ptrdiff_t>(lo), v.begin() + static_cast<std::ptrdiff_t>(hi), true);
  };
  EXPECT_NEAR(static_cast<double>(count(a, 0, 1000)), 300.0, 45.0);
  for (std::size_t q = 0; q < 4; ++q)  // every quarter of the range gets its share
    EXPECT_NEAR(static_cast<double>(count(a, q * 250, q * 250 + 250)), 75.0, 30.0) << "quarter " << q;

  DramConfig bad;
  bad.ideal_percent = 0;
  EXPECT_THROW(DramModel{bad}, std::invalid_argument);
  bad.ideal_percent = 101;
  EXPECT_THROW(DramModel{bad}, std::invalid_argument);
}
