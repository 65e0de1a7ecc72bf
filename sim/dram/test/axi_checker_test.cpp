// AxiProtocolChecker: every rule fires on a deliberately illegal sequence, with the right
// channel, rule and cycle; legal random traffic (bursts, reordering, backpressure, W before
// AW) produces no report at all.
#include <gtest/gtest.h>

#include <vector>

#include "axi_test_master.hpp"
#include "tessera/sim/axi_checker.hpp"
#include "test_seed.hpp"

using namespace tessera::sim;
using tessera::sim::test::pattern_line;
using tessera::sim::test::Rig;

namespace {

// One cycle of both sides, as the checker samples it.
struct Cycle {
  AxiMasterSignals m;
  AxiSlaveSignals s;
};

// Runs the cycles and returns the checker (for its violations).
AxiProtocolChecker run(const std::vector<Cycle>& cycles, AxiCheckerConfig cfg = {}) {
  AxiProtocolChecker c(std::move(cfg));
  for (const auto& cy : cycles) c.sample(cy.m, cy.s);
  return c;
}

// Expect exactly one violation, of `rule` on `channel` at `cycle`.
void expect_one(const AxiProtocolChecker& c, const char* channel, const char* rule, std::uint64_t cycle) {
  ASSERT_EQ(c.violations().size(), 1U) << c.report();
  const AxiViolation& v = c.violations()[0];
  EXPECT_EQ(v.channel, channel) << v.to_string();
  EXPECT_EQ(v.rule, rule) << v.to_string();
  EXPECT_EQ(v.cycle, cycle) << v.to_string();
  EXPECT_NE(v.to_string().find(std::string(channel) + ": " + rule), std::string::npos) << v.to_string();
}

AxiMasterSignals ar(std::uint32_t id, std::uint32_t addr, std::uint8_t len = 0) {
  AxiMasterSignals m;
  m.arvalid = true;
  m.ar = AxiAddr{.id = id, .addr = addr, .len = len};
  m.rready = true;
  m.bready = true;
  return m;
}
AxiMasterSignals aw(std::uint32_t id, std::uint32_t addr, std::uint8_t len = 0) {
  AxiMasterSignals m;
  m.awvalid = true;
  m.aw = AxiAddr{.id = id, .addr = addr, .len = len};
  m.rready = true;
  m.bready = true;
  return m;
}
AxiMasterSignals w(bool last, std::uint64_t strb = ~0ULL) {
  AxiMasterSignals m;
  m.wvalid = true;
  m.w = AxiW{pattern_line(0), strb, last};
  m.rready = true;
  m.bready = true;
  return m;
}
AxiMasterSignals idle() {
  AxiMasterSignals m;
  m.rready = true;
  m.bready = true;
  return m;
}
AxiSlaveSignals ready(bool r = true) {
  AxiSlaveSignals s;
  s.arready = s.awready = s.wready = r;
  return s;
}
AxiSlaveSignals rbeat(std::uint32_t id, bool last, bool rdy = true) {
  AxiSlaveSignals s = ready(rdy);
  s.rvalid = true;
  s.r = AxiR{id, pattern_line(id), 0, last};
  return s;
}
AxiSlaveSignals bresp(std::uint32_t id) {
  AxiSlaveSignals s = ready();
  s.bvalid = true;
  s.b = AxiB{id, 0};
  return s;
}

}  // namespace

// Catches: a master that withdraws a request (VALID drops before READY) on AR, AW or W.
TEST(AxiChecker, ValidDroppedBeforeReadyMaster) {
  expect_one(run({{ar(1, 0x40), ready(false)}, {ar(1, 0x40), ready(false)}, {idle(), ready(false)}}), "AR",
             "valid-dropped", 3);
  expect_one(run({{aw(1, 0x40), ready(false)}, {idle(), ready(false)}}), "AW", "valid-dropped", 2);
  expect_one(run({{aw(1, 0x40), ready()}, {w(true), ready(false)}, {idle(), ready()}}), "W", "valid-dropped", 3);
}

// Catches: a slave that withdraws a response (RVALID / BVALID drops before READY).
TEST(AxiChecker, ValidDroppedBeforeReadySlave) {
  AxiMasterSignals stall = idle();
  stall.rready = false;
  stall.bready = false;
  expect_one(run({{ar(2, 0x80), ready()}, {stall, rbeat(2, true)}, {stall, ready()}}), "R", "valid-dropped", 3);
  AxiMasterSignals aww = aw(2, 0x80);
  aww.wvalid = true;
  aww.w = AxiW{pattern_line(0), ~0ULL, true};
  expect_one(run({{aww, ready()}, {stall, bresp(2)}, {stall, ready()}}), "B", "valid-dropped", 3);
}

// Catches: payload changing under VALID && !READY on each channel (address, data, strobes,
// response data), the bug that corrupts transfers only when the other side stalls.
TEST(AxiChecker, PayloadChangedWhileStalled) {
  expect_one(run({{ar(1, 0x40), ready(false)}, {ar(1, 0x80), ready()}}), "AR", "payload-changed", 2);
  expect_one(run({{aw(1, 0x40), ready(false)}, {aw(2, 0x40), ready()}}), "AW", "payload-changed", 2);
  {
    const auto c = run({{aw(1, 0x40), ready()}, {w(true, 0xFF), ready(false)}, {w(true, 0xF0), ready()}});
    expect_one(c, "W", "payload-changed", 3);
    EXPECT_NE(c.violations()[0].message.find("WSTRB"), std::string::npos) << "the message names the field";
  }
  AxiMasterSignals stall = idle();
  stall.rready = false;
  AxiSlaveSignals r2 = rbeat(3, true);
  r2.r.data[5] ^= 1;
  expect_one(run({{ar(3, 0), ready()}, {stall, rbeat(3, true)}, {idle(), r2}}), "R", "payload-changed", 3);
  AxiMasterSignals aww = aw(4, 0);
  aww.wvalid = true;
  aww.w = AxiW{pattern_line(0), ~0ULL, true};
  AxiMasterSignals bstall = idle();
  bstall.bready = false;
  AxiSlaveSignals b2 = bresp(4);
  b2.b.resp = 2;
  expect_one(run({{aww, ready()}, {bstall, bresp(4)}, {idle(), b2}}), "B", "payload-changed", 3);
}

// Catches: bursts where one-beat is required, wrong AxSIZE, reserved AxBURST, IDs wider
// than the port, INCR bursts crossing 4 KiB, illegal WRAP lengths.
TEST(AxiChecker, AddressChannelRules) {
  expect_one(run({{ar(1, 0x40, 3), ready()}}), "AR", "burst-length", 1);
  {
    AxiMasterSignals m = aw(1, 0x40);
    m.aw.size = 5;
    expect_one(run({{m, ready()}}), "AW", "burst-size", 1);
  }
  {
    AxiMasterSignals m = ar(1, 0x40);
    m.ar.burst = 3;
    expect_one(run({{m, ready()}}), "AR", "burst-type", 1);
  }
  {
    AxiCheckerConfig cfg;
    cfg.id_width = 4;
    expect_one(run({{idle(), ready()}, {ar(16, 0x40), ready()}}, cfg), "AR", "id-width", 2);
  }
  AxiCheckerConfig bursts;
  bursts.one_beat_only = false;
  expect_one(run({{ar(1, 0xF80, 2), ready()}}, bursts), "AR", "4k-boundary", 1);
  EXPECT_TRUE(run({{ar(1, 0xF80, 1), ready()}}, bursts).ok()) << "0xF80 + 2 beats ends at 0xFFF";
  {
    AxiMasterSignals m = ar(1, 0x100, 2);  // 3 beats
    m.ar.burst = 2;
    expect_one(run({{m, ready()}}, bursts), "AR", "burst-length", 1);
  }
}

// Catches: WLAST missing on the last beat or raised early; strobes outside a narrow beat.
TEST(AxiChecker, WlastAndStrobes) {
  expect_one(run({{aw(1, 0x40), ready()}, {w(false), ready()}}), "W", "wlast-missing", 2);
  AxiCheckerConfig bursts;
  bursts.one_beat_only = false;
  expect_one(run({{aw(1, 0x40, 1), ready()}, {w(true), ready()}, {w(true), ready()}}, bursts), "W", "wlast-early", 2);
  bursts.required_size = -1;
  AxiMasterSignals narrow = aw(1, 0x44);
  narrow.aw.size = 2;  // 4-byte beat at lanes 4..7
  EXPECT_TRUE(run({{narrow, ready()}, {w(true, 0xF0), ready()}}, bursts).ok());
  expect_one(run({{narrow, ready()}, {w(true, 0xF00), ready()}}, bursts), "W", "wstrb-lanes", 2);
}

// Catches: WVALID raised before its AW when the port promises W "with or after" AW; the
// same sequence is legal AXI4 otherwise (no report). W presented in the cycle its AW is
// presented is fine even if the W handshake completes first; a second beat ahead of the
// same one-beat AW is not.
TEST(AxiChecker, WBeforeAw) {
  AxiCheckerConfig strict;
  strict.w_after_aw = true;
  const std::vector<Cycle> early = {{w(true), ready()}, {aw(1, 0x40), ready()}};
  expect_one(run(early, strict), "W", "w-before-aw", 1);
  EXPECT_TRUE(run(early).ok()) << run(early).report();
  AxiMasterSignals both = aw(1, 0x40);
  both.wvalid = true;
  both.w = AxiW{pattern_line(0), ~0ULL, true};
  AxiSlaveSignals w_only = ready();
  w_only.awready = false;
  AxiSlaveSignals none = ready(false);
  // W taken at edge 1 while AW waits until edge 2: legal.
  EXPECT_TRUE(run({{both, w_only}, {aw(1, 0x40), ready()}}, strict).ok());
  // ... but a further W beat while that AW is still waiting belongs to a later write.
  AxiMasterSignals aw_and_w = aw(1, 0x40);
  aw_and_w.wvalid = true;
  aw_and_w.w = AxiW{pattern_line(1), ~0ULL, true};
  expect_one(run({{both, w_only}, {aw_and_w, none}}, strict), "W", "w-before-aw", 2);
}

// Catches: responses with IDs nobody asked for, R at the same edge as its AR (RVALID before
// the request was accepted), RLAST wrong, B before the write data, B for an unknown ID.
TEST(AxiChecker, ResponseRules) {
  expect_one(run({{idle(), rbeat(5, true)}}), "R", "unknown-id", 1);
  expect_one(run({{ar(5, 0), rbeat(5, true)}}), "R", "unknown-id", 1);
  expect_one(run({{ar(5, 0), ready()}, {idle(), rbeat(6, true)}}), "R", "unknown-id", 2);
  expect_one(run({{idle(), bresp(1)}}), "B", "unknown-id", 1);
  expect_one(run({{ar(5, 0), ready()}, {idle(), rbeat(5, false)}}), "R", "rlast-missing", 2);
  AxiCheckerConfig bursts;
  bursts.one_beat_only = false;
  expect_one(run({{ar(5, 0, 1), ready()}, {idle(), rbeat(5, true)}}, bursts), "R", "rlast-early", 2);
  expect_one(run({{aw(7, 0), ready()}, {idle(), bresp(7)}}), "B", "early-b", 2);
  // The B may come the edge after the last W beat, not with it.
  AxiMasterSignals wb = w(true);
  expect_one(run({{aw(7, 0), ready()}, {wb, bresp(7)}}), "B", "early-b", 2);
  EXPECT_TRUE(run({{aw(7, 0), ready()}, {wb, ready()}, {idle(), bresp(7)}}).ok());
}

// Catches: a master exceeding its outstanding budget (e.g. an ID table that overflows).
TEST(AxiChecker, OutstandingLimit) {
  AxiCheckerConfig cfg;
  cfg.max_reads = 2;
  cfg.max_writes = 1;
  expect_one(run({{ar(0, 0), ready()}, {ar(1, 64), ready()}, {ar(2, 128), ready()}}, cfg), "AR", "outstanding-limit",
             3);
  // A response in between frees a slot: legal.
  EXPECT_TRUE(run({{ar(0, 0), ready()}, {ar(1, 64), ready()}, {idle(), rbeat(0, true)}, {ar(2, 128), ready()}}, cfg).ok());
  expect_one(run({{aw(0, 0), ready()}, {aw(1, 64), ready()}}, cfg), "AW", "outstanding-limit", 2);
}

// check_idle() names transactions that were never answered.
// Catches: a bench that ends with requests silently lost.
TEST(AxiChecker, UnansweredAtEnd) {
  AxiProtocolChecker c = run({{ar(1, 0), ready()}, {aw(2, 0), ready()}});
  EXPECT_TRUE(c.ok());
  c.check_idle();
  EXPECT_EQ(c.count("unanswered"), 2U) << c.report();
}

// Legal random traffic -- INCR bursts, narrow and full beats, W before and with AW, random
// READY/VALID timing, reordering across IDs -- against the DRAM model: no report. Also the
// one-beat configuration with the Tessera checker settings.
// Catches: false alarms (a checker that cries wolf gets switched off), and any illegal
// handshake by the DRAM model itself.
TEST(AxiChecker, SilentOnLegalRandomTraffic) {
  auto rng = tessera::sim::test::test_rng();
  for (int variant = 0; variant < 2; ++variant) {
    const bool one_beat = variant == 1;
    DramConfig dc;
    dc.latency = 1 + static_cast<unsigned>(rng() % 30);
    dc.bytes_per_cycle = 16 + static_cast<unsigned>(rng() % 64);
    dc.reorder = DramReorder::random;
    dc.latency_jitter = 20;
    dc.ready_stall = 0.3;
    dc.max_outstanding = 12;
    dc.seed = rng();
    AxiCheckerConfig cc;
    cc.one_beat_only = one_beat;
    cc.required_size = one_beat ? 6 : -1;
    cc.w_after_aw = false;
    Rig rig(dc, cc, rng());
    rig.master.idle_p = 0.3;
    rig.master.rready_p = 0.6;
    rig.master.bready_p = 0.6;
    rig.master.w_early = !one_beat;
    std::size_t reads = 0, writes = 0;
    for (int i = 0; i < 3000; ++i) {
      const std::uint8_t size = one_beat ? 6 : static_cast<std::uint8_t>(rng() % 7);
      const std::uint8_t len = one_beat ? 0 : static_cast<std::uint8_t>(rng() % 4);
      const std::uint32_t bytes = (1U << size) * (len + 1U);
      std::uint32_t addr = static_cast<std::uint32_t>(rng()) & ~((1U << size) - 1);
      if ((addr & 0xFFF) + bytes > 0x1000) addr &= ~0xFFFU;  // stay inside the 4 KiB page
      AxiAddr a{.id = static_cast<std::uint32_t>(rng() % 8), .addr = addr, .len = len, .size = size};
      if (rng() % 2) {
        rig.master.read(a);
        ++reads;
      } else {
        std::vector<AxiW> beats;
        for (unsigned b = 0; b <= len; ++b) {
          const std::uint64_t nb = 1ULL << size;
          const std::uint64_t ba = b == 0 ? addr : (addr & ~(nb - 1)) + b * nb;
          const unsigned lo = static_cast<unsigned>(ba % 64), hi = static_cast<unsigned>(((ba & ~(nb - 1)) + nb - 1) % 64);
          const std::uint64_t lanes = (hi - lo + 1 == 64 ? ~0ULL : ((1ULL << (hi - lo + 1)) - 1)) << lo;
          beats.push_back(AxiW{pattern_line(addr + b), rng() & lanes, b == len});
        }
        rig.master.write(a, beats);
        ++writes;
      }
    }
    ASSERT_TRUE(rig.run_until_idle(1000000, reads, writes));
    rig.chk.check_idle();
    EXPECT_TRUE(rig.chk.ok()) << rig.chk.report();
    EXPECT_EQ(rig.chk.ar_count(), reads);
    EXPECT_EQ(rig.chk.aw_count(), writes);
  }
}
