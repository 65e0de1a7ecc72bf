// cp_fw_paths_test.cpp -- the fast paths (ring and IB) and the general path of the CP firmware
// must do the same thing (docs/firmware.md, "Ring fast path", "IB fast path"). Each test runs one packet stream twice on a
// fresh fake GPU, once as the firmware runs on the core (ring packets inside the channel's run
// take the ring fast path, IB packets the IB fast path) and once with the fast paths off
// (cp_fw_host_fast_path = 0: every packet
// takes the general path), and requires identical pipeline commands, errors (code, queue,
// level, opcode, address), GPU-window writes, interrupts, RPTR, FETCH_ERR, console text and
// per-type packet counts; and that the first run really took the fast path.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "cp_fw.h"
#include "fake_gpu.hpp"
#include "packets.hpp"
#include "tessera_spec.h"

using cpfw_test::FakeGpu;
using namespace cpfw_test::packets;

namespace {

// What a run did, in the terms both paths must agree on (not times or cycle counts).
struct Outcome {
  struct Cmd {
    uint32_t opcode, queue, dsid;
    std::vector<uint32_t> args;
    bool operator==(const Cmd &) const = default;
  };
  struct Error {
    uint32_t code, queue, level, opcode, addr;
    bool operator==(const Error &) const = default;
  };
  std::vector<Cmd> pipe;
  std::vector<Error> errors;
  std::vector<std::pair<uint32_t, uint32_t>> mem_writes;
  uint32_t rptr = 0, fetch_err = 0, int_raise = 0, last_frame = 0;
  std::string console;
  std::vector<uint32_t> op_counts;
  uint32_t packets = 0, reported = 0;
  uint32_t fast_packets = 0;  // not compared: how many the fast path executed
};

using Setup = std::function<void(FakeGpu &)>;

// Polls until queue 0 is drained or halted, and a few rounds more.
void settle(FakeGpu &gpu)
{
  int settled = 0;
  for (int round = 0; round < 20000 && settled < 8; round++) {
    cp_fw_poll();
    gpu.tick();
    const bool done = (gpu.queue[0].rptr == gpu.queue[0].wptr && gpu.queue_state == 0) ||
                      !gpu.errors.empty();
    settled = done ? settled + 1 : 0;
  }
}

// Runs queue 0 with the stream setup() writes until it settles, then, if given, with what
// later() writes, with the ring fast path on or off.
Outcome run(const Setup &setup, bool fast_path, const Setup &later)
{
  FakeGpu gpu;
  cpfw_test::g_fake = &gpu;
  gpu.enable_mask = 0x1;
  setup(gpu);
  cp_fw_host_fast_path = fast_path ? 1 : 0;
  cp_fw_init();
  settle(gpu);
  if (later) {
    later(gpu);
    settle(gpu);
  }
  cp_fw_host_fast_path = 1;
  cpfw_test::g_fake = nullptr;

  Outcome o;
  for (const auto &c : gpu.pipe)
    o.pipe.push_back({c.opcode, c.queue, c.dsid, c.args});
  for (const auto &e : gpu.errors)
    o.errors.push_back({e.code, e.queue, e.level, e.opcode, e.addr});
  for (const auto &w : gpu.mem_writes)
    o.mem_writes.emplace_back(w.addr, w.value);
  o.rptr = gpu.queue[0].rptr;
  o.fetch_err = gpu.fetch_err;
  o.int_raise = gpu.int_raise;
  o.last_frame = cp_fw_stats.last_frame;
  o.console = gpu.console;
  for (const auto &op : cp_fw_stats.op)
    o.op_counts.push_back(op.count);
  o.packets = cp_fw_stats.packets[0];
  o.reported = cp_fw_stats.errors;
  o.fast_packets = cp_fw_host_fast_packets;
  return o;
}

// Both runs, compared; returns the fast-path run for further checks.
Outcome expect_same(const Setup &setup, const Setup &later = nullptr)
{
  const Outcome fast = run(setup, true, later);
  const Outcome general = run(setup, false, later);
  EXPECT_GT(fast.fast_packets, 0u) << "the stream never took the fast path";
  EXPECT_EQ(general.fast_packets, 0u) << "the fast path ran while switched off";
  EXPECT_EQ(fast.pipe.size(), general.pipe.size());
  for (size_t i = 0; i < fast.pipe.size() && i < general.pipe.size(); i++)
    EXPECT_EQ(fast.pipe[i], general.pipe[i]) << "pipeline command " << i;
  EXPECT_EQ(fast.errors, general.errors);
  EXPECT_EQ(fast.mem_writes, general.mem_writes);
  EXPECT_EQ(fast.rptr, general.rptr);
  EXPECT_EQ(fast.fetch_err, general.fetch_err);
  EXPECT_EQ(fast.int_raise, general.int_raise);
  EXPECT_EQ(fast.last_frame, general.last_frame);
  EXPECT_EQ(fast.console, general.console);
  EXPECT_EQ(fast.op_counts, general.op_counts);
  EXPECT_EQ(fast.packets, general.packets);
  EXPECT_EQ(fast.reported, general.reported);
  return fast;
}

Setup ring(const Dw &stream, uint32_t log2 = 12, uint32_t base = 0x10000)
{
  return [=](FakeGpu &gpu) {
    gpu.queue[0].base = base;
    gpu.queue[0].log2 = log2;
    gpu.ring_write(0, stream);
  };
}

// A random valid packet of the kinds the fast path takes (NOP up to 8 dwords and longer ones,
// DRAW of every addressing kind, SET_REGS) mixed with packets it hands to exec_fixed (DSID_SET,
// which changes the DSID the fast path's pushes carry; FENCE; FRAME_END; SET_BIN_MODE).
Dw random_packet(std::mt19937 &rng)
{
  auto pick = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  switch (pick(10)) {
    case 0:
    case 1: return nop(pick(12), rng());
    case 2: return draw(1 + pick(100), 0x8000 + 16 * pick(64));
    case 3:
      return draw(3 * (1 + pick(20)), 0x8000, TS_TOPOLOGY_TRI_LIST, TS_INDEX_TYPE_U16, 0x9000);
    case 4: return draw(4, 0x8000, TS_TOPOLOGY_PATCH_QUAD, TS_INDEX_TYPE_U32, 0x9000, 0xa000);
    case 5:
    case 6: {
      Dw values(1 + pick(40));
      for (auto &v : values)
        v = rng();
      return set_regs(4 * pick(0x1000), values);
    }
    case 7: return dsid_set(pick(4));
    case 8: return pick(2) ? fence(0x20000 + 4 * pick(16), rng()) : frame_end(rng());
    default: return bin_mode(TS_BIN_MODE_PBB, 1, 1);
  }
}

// ==== tests =====================================================================================

// Catches: any packet the fast path executes differently from the general path (arguments,
// DSID tag, command count, RPTR, statistics), over a long random valid stream.
TEST(CpFwPaths, RandomValidStreamsAgree)
{
  for (uint32_t seed = 1; seed <= 8; seed++) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    Dw stream;
    while (stream.size() < 3000)
      stream = cat({stream, random_packet(rng)});
    const Outcome o = expect_same(ring(stream));
    EXPECT_TRUE(o.errors.empty());
    EXPECT_GT(o.packets, 100u);
  }
}

// Catches: a fast path that disagrees at the ring's end (runs never cross it; the last dword of
// a run ending there is the general path's) or when packets straddle the wrap.
TEST(CpFwPaths, RingWrapAgrees)
{
  for (uint32_t seed = 1; seed <= 6; seed++) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    Dw stream;
    while (stream.size() < 180)  // whole packets: at most 180 + 42 dwords, the ring holds 255
      stream = cat({stream, random_packet(rng)});
    expect_same([&](FakeGpu &gpu) {
      gpu.queue[0].log2 = 8;  // 256 dwords: the stream wraps
      gpu.queue[0].base = 0x10000;
      gpu.queue[0].rptr = gpu.queue[0].wptr = gpu.queue[0].wpos = 256 - 37;
      gpu.ring_write(0, stream);
    });
  }
}

// SET_REGS ranges at the edge of the 20-bit register map, through both paths: {offset, count,
// whether it is valid}. The last register is offset + 4 * (count - 1); 0xFFFFC is the last
// register of the map.
struct RegRange {
  uint32_t offset, count;
  bool ok;
};

void expect_set_regs_range(const RegRange &r)
{
  SCOPED_TRACE("offset " + std::to_string(r.offset) + " count " + std::to_string(r.count));
  const Dw values(r.count, 0x5a5a0000u);
  // The longest SET_REGS (65534 payload dwords = 65533 registers) fills a 2^16-dword ring
  // alone (65535 dwords published at most); shorter ones sit between two DRAWs.
  const bool alone = r.count > 1000;
  const uint32_t pos = alone ? 0u : 6u;  // the SET_REGS header's ring index
  const Dw stream =
      alone ? set_regs(r.offset, values) : cat({draw(3), set_regs(r.offset, values), draw(6)});
  const Outcome o = expect_same(ring(stream, alone ? 16 : 12, 0x40000));
  const size_t first = alone ? 0 : 1;  // the first register's command
  if (r.ok) {
    EXPECT_TRUE(o.errors.empty());
    ASSERT_EQ(o.pipe.size(), r.count + 2 * first);
    EXPECT_EQ(o.pipe[first].args, (std::vector<uint32_t>{r.offset, 0x5a5a0000u}));
    EXPECT_EQ(o.pipe[first + r.count - 1].args[0], r.offset + 4u * (r.count - 1u));
  } else {
    ASSERT_EQ(o.errors.size(), 1u);
    EXPECT_EQ(o.errors[0].code, TS_CP_ERROR_BAD_ADDRESS);
    EXPECT_EQ(o.errors[0].opcode, TS_OP_SET_REGS);
    EXPECT_EQ(o.errors[0].addr, 0x40000u + 4u * pos) << "the SET_REGS packet";
    EXPECT_EQ(o.pipe.size(), first) << "nothing of the SET_REGS is pushed";
    EXPECT_EQ(o.rptr, pos) << "RPTR stays at the offending packet";
  }
}

// Catches: a range check that differs between the paths, lets the last register run past the
// map, wraps in 32 bits for long packets, or refuses the last register of the map.
TEST(CpFwPaths, SetRegsRangeAtTheMapEdge)
{
  const RegRange cases[] = {
      {0xFFFFC, 1, true},       // the last register
      {0xFFFF8, 2, true},       // ends at the last register
      {0xFFFF8, 3, false},      // one past
      {0x100000 - 4 * 40, 40, true},
      {0x100000 - 4 * 40, 41, false},
      {0xFFFFE, 1, false},      // misaligned
      {0x00002, 4, false},      // misaligned
      {0x00000, 1, true},
      // The longest packet (len 65534: 65533 registers, 4 * 65532 = 0x3FFF0 bytes past the
      // first): valid up to first = 0xC000C, one register past at 0xC0010; and from far
      // up the map, where a 32-bit sum would still not wrap but runs 0x3FFEC past the end.
      {0xC000C, 65533, true},
      {0xC0010, 65533, false},
      {0xFFFFC, 65533, false},
  };
  for (const RegRange &r : cases)
    expect_set_regs_range(r);
}

// Catches: errors of fast-path packets reported differently (code, address, FETCH_ERR clearing,
// RPTR) from the general path's: bad DRAW addresses, a failed line under a DRAW / NOP /
// SET_REGS payload, header flags on NOP / SET_REGS / DRAW, an unknown opcode.
TEST(CpFwPaths, ErrorsAgree)
{
  const Dw prefix = cat({set_regs(0x100, {1, 2}), draw(3), nop(2)});  // 11 dwords
  const uint32_t base = 0x10000, bad_pos = static_cast<uint32_t>(prefix.size());
  const Dw bad_packets[] = {
      draw(3, 0x8004),                                                // misaligned vertices
      draw(1u << 20, 0x8000),                                         // past MEM_LIMIT
      draw(3, 0x8000, TS_TOPOLOGY_PATCH_TRI, TS_INDEX_TYPE_U16, 0x9001),  // misaligned indices
      draw(3, 0x8000, TS_TOPOLOGY_PATCH_TRI, TS_INDEX_TYPE_NONE, 0, 0x9008),  // TF buffer misaligned
      draw(6, 0x8000, TS_TOPOLOGY_PATCH_TRI, TS_INDEX_TYPE_NONE, 0, 0xfffff0),  // 2 tf_records past the end
      {TS_PKT_NOP_HEADER(2) | TS_PKT_HDR_FLAGS_PUT(1), 0, 0},
      {TS_PKT_SET_REGS_HEADER(2) | TS_PKT_HDR_FLAGS_PUT(0x80), 0x100, 1},
      {TS_PKT_DRAW_HEADER | TS_PKT_HDR_FLAGS_PUT(2), 0, 0, 0, 0, 0},
      {TS_PKT_SET_REGS_HEADER(1), 0x100},                               // too short
      {TS_PKT_HEADER(0xee, 0)},                                         // unknown opcode
  };
  for (const Dw &bad : bad_packets) {
    SCOPED_TRACE("header " + std::to_string(bad[0]));
    const Outcome o = expect_same(ring(cat({prefix, bad, draw(9)}), 12, base));
    ASSERT_EQ(o.errors.size(), 1u);
    EXPECT_EQ(o.errors[0].addr, base + 4u * bad_pos);
    EXPECT_EQ(o.rptr, bad_pos);
  }
  // A line that answers with an error under a payload (it reads as zeros). The channel reads
  // ahead, so FETCH_ERR is set when the line arrives: the packet is published after the ones
  // before it were executed, so that its own check is the first to see the bit.
  struct Failed {
    Dw packet;
    uint32_t bad_dword;  // index in the packet of a payload dword in the failed line
  };
  const Failed failed[] = {
      {draw(3), 3},
      {nop(6), 5},
      {set_regs(0x200, Dw(20, 7)), 12},
  };
  for (const Failed &f : failed) {
    SCOPED_TRACE("opcode " + std::to_string(f.packet[0] & 0xff));
    // The packet's header is the last dword of the first 64-byte line (ring index 15), its
    // payload in the next line.
    const Outcome o = expect_same(ring(nop(14), 12, base), [&](FakeGpu &gpu) {
      gpu.error_words.insert(base + 4u * (15 + f.bad_dword));
      gpu.ring_write(0, cat({f.packet, draw(9)}));
    });
    ASSERT_EQ(o.errors.size(), 1u);
    EXPECT_EQ(o.errors[0].code, TS_CP_ERROR_BAD_ADDRESS);
    EXPECT_EQ(o.errors[0].opcode, f.packet[0] & 0xffu);
    EXPECT_EQ(o.errors[0].addr, base + 4u * 15u);
    EXPECT_EQ(o.fetch_err, 0u) << "FETCH_ERR bit cleared";
    EXPECT_EQ(o.rptr, 15u);
  }
}


// ==== IB level (the IB fast path) ===============================================================

constexpr uint32_t kIb1 = 0x40000, kIb2 = 0x48000;

// The ring calls IB1 holding `body` (and IB2, if given, called from IB1's middle), then a DRAW.
Setup in_ib(const Dw &body, const Dw &ib2_body = {})
{
  return [=](FakeGpu &gpu) {
    Dw b1 = body;
    if (!ib2_body.empty()) {
      const size_t mid = 0;  // IB2 first: IB1's packets follow its return
      b1 = cat({Dw(body.begin(), body.begin() + static_cast<long>(mid)),
                ib(kIb2, static_cast<uint32_t>(ib2_body.size())),
                Dw(body.begin() + static_cast<long>(mid), body.end())});
      gpu.put_mem(kIb2, ib2_body);
    }
    gpu.put_mem(kIb1, b1);
    gpu.queue[0].base = 0x10000;
    gpu.queue[0].log2 = 10;
    gpu.ring_write(0, cat({draw(7), ib(kIb1, static_cast<uint32_t>(b1.size())), draw(8)}));
  };
}

// Catches: an IB packet the IB fast path executes differently from the general path
// (arguments, the DSID tag after DSID_SETs and across IB2 call and return, counts), over long
// random valid IB streams, in IB1 and in an IB2.
TEST(CpFwPaths, IbRandomValidStreamsAgree)
{
  for (uint32_t seed = 1; seed <= 8; seed++) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    Dw b1, b2;
    while (b1.size() < 1500)
      b1 = cat({b1, random_packet(rng)});
    while (seed % 2 == 0 && b2.size() < 600)
      b2 = cat({b2, random_packet(rng)});
    const Outcome o = expect_same(in_ib(b1, b2));
    EXPECT_TRUE(o.errors.empty());
    EXPECT_GT(o.fast_packets, 100u) << "the IB's packets did not take the IB fast path";
  }
}

// Catches: errors of IB fast-path packets reported differently (code, level, address) from
// the general path's: the bad packets of ErrorsAgree, inside an IB, and a packet reaching past
// the IB's end.
TEST(CpFwPaths, IbErrorsAgree)
{
  const Dw prefix = cat({set_regs(0x100, {1, 2}), draw(3), nop(2)});  // 11 dwords
  const Dw bad_packets[] = {
      draw(3, 0x8004),
      draw(1u << 20, 0x8000),
      {TS_PKT_SET_REGS_HEADER(2) | TS_PKT_HDR_FLAGS_PUT(0x80), 0x100, 1},
      {TS_PKT_DRAW_HEADER | TS_PKT_HDR_FLAGS_PUT(2), 0, 0, 0, 0, 0},
      {TS_PKT_SET_REGS_HEADER(1), 0x100},
      {TS_PKT_HEADER(0xee, 0)},
      set_regs(0xFFFF8, {1, 2, 3}),  // one register past the map
  };
  for (const Dw &bad : bad_packets) {
    SCOPED_TRACE("header " + std::to_string(bad[0]));
    const Outcome o = expect_same(in_ib(cat({prefix, bad, draw(9)})));
    ASSERT_EQ(o.errors.size(), 1u);
    EXPECT_EQ(o.errors[0].level, 1u);
    EXPECT_EQ(o.errors[0].addr, kIb1 + 4u * static_cast<uint32_t>(prefix.size()));
  }
  // The IB ends inside a DRAW's payload and inside a SET_REGS: the IB size is cut short.
  for (uint32_t cut : {2u, 4u}) {
    SCOPED_TRACE("cut " + std::to_string(cut));
    const Dw pkt = cut == 2 ? draw(3) : set_regs(0x200, {1, 2, 3, 4});
    const Dw body = cat({prefix, pkt});
    const Outcome o = expect_same([&](FakeGpu &gpu) {
      gpu.put_mem(kIb1, body);
      gpu.queue[0].base = 0x10000;
      gpu.queue[0].log2 = 10;
      gpu.ring_write(0, cat({ib(kIb1, static_cast<uint32_t>(prefix.size()) + cut), draw(8)}));
    });
    ASSERT_EQ(o.errors.size(), 1u);
    EXPECT_EQ(o.errors[0].code, TS_CP_ERROR_IB_OVERFLOW);
    EXPECT_EQ(o.errors[0].addr, kIb1 + 4u * static_cast<uint32_t>(prefix.size()));
  }
  // A failed line under a DRAW / SET_REGS payload in the IB: FETCH_ERR reported, bit cleared.
  struct Failed {
    Dw packet;
    uint32_t bad_dword;
  };
  const Failed failed[] = {{draw(3), 3}, {set_regs(0x200, Dw(20, 7)), 12}};
  for (const Failed &f : failed) {
    const Dw body = cat({nop(14), f.packet, draw(9)});  // the packet's header at IB index 15
    const Outcome o = expect_same([&](FakeGpu &gpu) {
      gpu.error_words.insert(kIb1 + 4u * (15 + f.bad_dword));
      in_ib(body)(gpu);
    });
    // The IB channel streams the whole IB at once, so the failed line may already be in when
    // an earlier packet checks FETCH_ERR: the packet reported is that one or this one, the
    // same on both paths (compared above).
    ASSERT_EQ(o.errors.size(), 1u);
    EXPECT_EQ(o.errors[0].code, TS_CP_ERROR_BAD_ADDRESS);
    EXPECT_LE(o.errors[0].addr, kIb1 + 4u * 15u);
    EXPECT_EQ(o.fetch_err, 0u) << "FETCH_ERR bit cleared";
  }
}

// Catches: an IB fast path that executes a packet reaching past a render pass's body (the
// general path reports BAD_LENGTH: body_size does not lead to RENDERPASS_END), or misses the
// body's end; and one that agrees inside a well-formed pass at IB level.
TEST(CpFwPaths, IbRenderPassBodyAgrees)
{
  auto begin = [](uint32_t body) {
    Dw p = rp_begin(0x80000, 0x90000, 64, 64);
    p[1 + TS_PKT_RENDERPASS_BEGIN_BODY_SIZE_DW] = TS_PKT_RENDERPASS_BEGIN_BODY_SIZE_PUT(body);
    return p;
  };
  const Dw inner = cat({set_regs(0x100, {1, 2}), draw(3), draw(6)});  // 4 + 6 + 6 dwords
  {
    const Outcome o = expect_same(in_ib(cat({begin(static_cast<uint32_t>(inner.size())), inner, rp_end(),
                                             draw(12)})));
    EXPECT_TRUE(o.errors.empty()) << o.console;
  }
  // body_size ends inside the second DRAW, or inside the SET_REGS: the packet straddles it.
  for (uint32_t body : {13u, 2u}) {
    SCOPED_TRACE("body " + std::to_string(body));
    const Outcome o = expect_same(in_ib(cat({begin(body), inner, rp_end(), draw(12)})));
    ASSERT_EQ(o.errors.size(), 1u) << o.console;
    EXPECT_EQ(o.errors[0].code, TS_CP_ERROR_BAD_LENGTH);
  }
}

}  // namespace
