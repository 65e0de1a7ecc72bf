// Command-buffer encoding: every packet's encoder checked field by field through the
// generated tessera_spec.h macros (TS_PKT_<P>_<F>_GET on payload dword TS_PKT_<P>_<F>_DW).
#include <gtest/gtest.h>

#include <set>

#include "tessera/driver/error.hpp"
#include "tessera/driver/packets.hpp"
#include "test_seed.hpp"

using namespace tessera::driver;
using tessera::driver::test::test_rng;

namespace {

// Header of a fixed packet: opcode, length and the generated complete header.
void expect_header(const Dwords& d, uint32_t op, uint32_t len, uint32_t full) {
  ASSERT_EQ(d.size(), 1u + len);
  EXPECT_EQ(TS_PKT_HDR_OPCODE_GET(d[0]), op);
  EXPECT_EQ(TS_PKT_HDR_LENGTH_GET(d[0]), len);
  EXPECT_EQ(d[0] & ~TS_PKT_HDR_FLAGS_MASK, full);
  EXPECT_TRUE(ts_pkt_header_valid(d[0]));
}

#define FIELD(d, P, F) TS_PKT_##P##_##F##_GET((d)[1 + TS_PKT_##P##_##F##_DW])

}  // namespace

// Catches: an encoder writing a field into the wrong dword or bits, truncating a value that
// fits, or a header with the wrong opcode/length. Random field values over 200 rounds.
TEST(Encoding, EveryPacketFieldByField) {
  auto rng = test_rng();
  auto bits = [&](unsigned w) { return static_cast<uint32_t>(rng() & (w >= 32 ? 0xFFFFFFFFu : (1u << w) - 1)); };
  for (int round = 0; round < 200; ++round) {
    {
      const uint32_t n = bits(4);
      const Dwords d = pkt::nop(n);
      ASSERT_EQ(d.size(), 1u + n);
      EXPECT_EQ(d[0], TS_PKT_NOP_HEADER(n));
    }
    {
      const uint32_t a = bits(30) << 2, s = bits(24);
      const Dwords d = pkt::indirect_buffer(a, s);
      expect_header(d, TS_OP_INDIRECT_BUFFER, TS_PKT_INDIRECT_BUFFER_LEN, TS_PKT_INDIRECT_BUFFER_HEADER);
      EXPECT_EQ(FIELD(d, INDIRECT_BUFFER, ADDR), a);
      EXPECT_EQ(FIELD(d, INDIRECT_BUFFER, SIZE), s);
    }
    {
      const uint32_t a = bits(32), m = bits(32), r = bits(32), c = bits(24);
      const Dwords d = pkt::cond_exec(a, m, r, c);
      expect_header(d, TS_OP_COND_EXEC, TS_PKT_COND_EXEC_LEN, TS_PKT_COND_EXEC_HEADER);
      EXPECT_EQ(FIELD(d, COND_EXEC, ADDR), a);
      EXPECT_EQ(FIELD(d, COND_EXEC, MASK), m);
      EXPECT_EQ(FIELD(d, COND_EXEC, REF), r);
      EXPECT_EQ(FIELD(d, COND_EXEC, COUNT), c);
    }
    {
      std::vector<uint32_t> v(1 + bits(3));
      for (auto& x : v) x = bits(32);
      const uint32_t off = bits(18) << 2;
      const Dwords d = pkt::set_regs(off, v);
      ASSERT_EQ(d.size(), 2u + v.size());
      EXPECT_EQ(d[0], TS_PKT_SET_REGS_HEADER(static_cast<uint32_t>(1 + v.size())));
      EXPECT_EQ(FIELD(d, SET_REGS, OFFSET), off);
      for (std::size_t i = 0; i < v.size(); ++i)
        EXPECT_EQ(TS_PKT_SET_REGS_VALUE_GET(d[1 + TS_PKT_SET_REGS_VALUE_DW + i]), v[i]);
    }
    {
      const BinningInfo b{static_cast<BinMode>(bits(1)), static_cast<BinSize>(bits(1)), static_cast<BinOrder>(bits(1)),
                          static_cast<uint8_t>(bits(8)), static_cast<uint8_t>(bits(8))};
      const Dwords d = pkt::set_bin_mode(b);
      expect_header(d, TS_OP_SET_BIN_MODE, TS_PKT_SET_BIN_MODE_LEN, TS_PKT_SET_BIN_MODE_HEADER);
      EXPECT_EQ(FIELD(d, SET_BIN_MODE, MODE), static_cast<uint32_t>(b.mode));
      EXPECT_EQ(FIELD(d, SET_BIN_MODE, FINE_SIZE), static_cast<uint32_t>(b.fine_size));
      EXPECT_EQ(FIELD(d, SET_BIN_MODE, ORDER), static_cast<uint32_t>(b.order));
      EXPECT_EQ(FIELD(d, SET_BIN_MODE, COARSE_X), b.coarse_x);
      EXPECT_EQ(FIELD(d, SET_BIN_MODE, COARSE_Y), b.coarse_y);
    }
    {
      const uint32_t a = bits(26) << 6, s = bits(32);
      const Dwords d = pkt::bind_vis_buffer(a, s);
      expect_header(d, TS_OP_BIND_VIS_BUFFER, TS_PKT_BIND_VIS_BUFFER_LEN, TS_PKT_BIND_VIS_BUFFER_HEADER);
      EXPECT_EQ(FIELD(d, BIND_VIS_BUFFER, ADDR), a);
      EXPECT_EQ(FIELD(d, BIND_VIS_BUFFER, SIZE), s);
    }
    {
      DrawDesc x{static_cast<Topology>(bits(32) % 5), static_cast<IndexType>(bits(32) % 3), bits(32), bits(32), bits(32), bits(32)};
      const Dwords d = pkt::draw(x);
      expect_header(d, TS_OP_DRAW, TS_PKT_DRAW_LEN, TS_PKT_DRAW_HEADER);
      EXPECT_EQ(FIELD(d, DRAW, TOPOLOGY), static_cast<uint32_t>(x.topology));
      EXPECT_EQ(FIELD(d, DRAW, INDEX_TYPE), static_cast<uint32_t>(x.index_type));
      EXPECT_EQ(FIELD(d, DRAW, COUNT), x.count);
      EXPECT_EQ(FIELD(d, DRAW, VERTEX_ADDR), x.vertex_addr);
      EXPECT_EQ(FIELD(d, DRAW, INDEX_ADDR), x.index_addr);
      EXPECT_EQ(FIELD(d, DRAW, TF_ADDR), x.tf_addr);
    }
    {
      RenderPassPacket r;
      r.body_size = bits(24);
      r.color_addr = bits(32);
      r.width = bits(12);
      r.height = bits(12);
      r.depth_addr = bits(32);
      r.color_load = static_cast<LoadOp>(bits(32) % 3);
      r.color_store = static_cast<StoreOp>(bits(1));
      r.depth_load = static_cast<LoadOp>(bits(32) % 3);
      r.depth_store = static_cast<StoreOp>(bits(1));
      r.clear_color = bits(32);
      r.clear_depth = bits(24);
      r.color_dsid = bits(6);
      r.depth_dsid = bits(6);
      const Dwords d = pkt::renderpass_begin(r);
      expect_header(d, TS_OP_RENDERPASS_BEGIN, TS_PKT_RENDERPASS_BEGIN_LEN, TS_PKT_RENDERPASS_BEGIN_HEADER);
      EXPECT_EQ(FIELD(d, RENDERPASS_BEGIN, BODY_SIZE), r.body_size);
      EXPECT_EQ(FIELD(d, RENDERPASS_BEGIN, COLOR_ADDR), r.color_addr);
      EXPECT_EQ(FIELD(d, RENDERPASS_BEGIN, WIDTH), r.width);
      EXPECT_EQ(FIELD(d, RENDERPASS_BEGIN, HEIGHT), r.height);
      EXPECT_EQ(FIELD(d, RENDERPASS_BEGIN, DEPTH_ADDR), r.depth_addr);
      EXPECT_EQ(FIELD(d, RENDERPASS_BEGIN, COLOR_LOAD), static_cast<uint32_t>(r.color_load));
      EXPECT_EQ(FIELD(d, RENDERPASS_BEGIN, COLOR_STORE), static_cast<uint32_t>(r.color_store));
      EXPECT_EQ(FIELD(d, RENDERPASS_BEGIN, DEPTH_LOAD), static_cast<uint32_t>(r.depth_load));
      EXPECT_EQ(FIELD(d, RENDERPASS_BEGIN, DEPTH_STORE), static_cast<uint32_t>(r.depth_store));
      EXPECT_EQ(FIELD(d, RENDERPASS_BEGIN, CLEAR_COLOR), r.clear_color);
      EXPECT_EQ(FIELD(d, RENDERPASS_BEGIN, CLEAR_DEPTH), r.clear_depth);
      EXPECT_EQ(FIELD(d, RENDERPASS_BEGIN, COLOR_DSID), r.color_dsid);
      EXPECT_EQ(FIELD(d, RENDERPASS_BEGIN, DEPTH_DSID), r.depth_dsid);
      // The KMD's relocation rewrites exactly the two DSID fields.
      const uint32_t i = 1 + TS_PKT_RENDERPASS_BEGIN_COLOR_DSID_DW;
      const uint32_t c = bits(6), z = bits(6);
      const uint32_t rel = pkt::with_renderpass_dsids(d[i], c, z);
      EXPECT_EQ(TS_PKT_RENDERPASS_BEGIN_COLOR_DSID_GET(rel), c);
      EXPECT_EQ(TS_PKT_RENDERPASS_BEGIN_DEPTH_DSID_GET(rel), z);
      EXPECT_EQ(rel & ~(TS_PKT_RENDERPASS_BEGIN_COLOR_DSID_MASK | TS_PKT_RENDERPASS_BEGIN_DEPTH_DSID_MASK),
                d[i] & ~(TS_PKT_RENDERPASS_BEGIN_COLOR_DSID_MASK | TS_PKT_RENDERPASS_BEGIN_DEPTH_DSID_MASK));
    }
    {
      const Dwords d = pkt::renderpass_end();
      expect_header(d, TS_OP_RENDERPASS_END, TS_PKT_RENDERPASS_END_LEN, TS_PKT_RENDERPASS_END_HEADER);
    }
    {
      const uint32_t a = bits(30) << 2, v = bits(32);
      const FenceFlags f{bits(1) != 0, bits(1) != 0, bits(1) != 0};
      const Dwords d = pkt::fence(a, v, f);
      expect_header(d, TS_OP_FENCE, TS_PKT_FENCE_LEN, TS_PKT_FENCE_HEADER);
      EXPECT_EQ(TS_PKT_FENCE_FLAG_FLUSH_GET(d[0]), f.flush ? 1u : 0u);
      EXPECT_EQ(TS_PKT_FENCE_FLAG_INVALIDATE_GET(d[0]), f.invalidate ? 1u : 0u);
      EXPECT_EQ(TS_PKT_FENCE_FLAG_INTERRUPT_GET(d[0]), f.interrupt ? 1u : 0u);
      EXPECT_EQ(FIELD(d, FENCE, ADDR), a);
      EXPECT_EQ(FIELD(d, FENCE, VALUE), v);
    }
    {
      const uint32_t id = bits(4), v = bits(32);
      const Dwords u = pkt::barrier_update(id, v), w = pkt::barrier_wait(id, v);
      expect_header(u, TS_OP_BARRIER_UPDATE, TS_PKT_BARRIER_UPDATE_LEN, TS_PKT_BARRIER_UPDATE_HEADER);
      expect_header(w, TS_OP_BARRIER_WAIT, TS_PKT_BARRIER_WAIT_LEN, TS_PKT_BARRIER_WAIT_HEADER);
      EXPECT_EQ(FIELD(u, BARRIER_UPDATE, ID), id);
      EXPECT_EQ(FIELD(u, BARRIER_UPDATE, VALUE), v);
      EXPECT_EQ(FIELD(w, BARRIER_WAIT, ID), id);
      EXPECT_EQ(FIELD(w, BARRIER_WAIT, VALUE), v);
    }
    {
      const uint32_t h = bits(6), a = bits(30) << 2, v = bits(32);
      const Dwords s = pkt::dsid_set(h), x = pkt::dsid_delete(h, a, v);
      expect_header(s, TS_OP_DSID_SET, TS_PKT_DSID_SET_LEN, TS_PKT_DSID_SET_HEADER);
      expect_header(x, TS_OP_DSID_DELETE, TS_PKT_DSID_DELETE_LEN, TS_PKT_DSID_DELETE_HEADER);
      EXPECT_EQ(FIELD(s, DSID_SET, DSID), h);
      EXPECT_EQ(FIELD(x, DSID_DELETE, DSID), h);
      EXPECT_EQ(FIELD(x, DSID_DELETE, FENCE_ADDR), a);
      EXPECT_EQ(FIELD(x, DSID_DELETE, FENCE_VALUE), v);
      const uint32_t h2 = bits(6);
      EXPECT_EQ(TS_PKT_DSID_SET_DSID_GET(pkt::with_dsid_set_dsid(s[1 + TS_PKT_DSID_SET_DSID_DW], h2)), h2);
      EXPECT_EQ(TS_PKT_DSID_DELETE_DSID_GET(pkt::with_dsid_delete_dsid(x[1 + TS_PKT_DSID_DELETE_DSID_DW], h2)), h2);
    }
    {
      const uint32_t f = bits(32), a = bits(26) << 6;
      const Dwords e = pkt::frame_end(f), p = pkt::perf_sample(a);
      const uint32_t m = bits(2), sz = bits(32);
      const Dwords q = pkt::set_prefetch(m, a, sz);
      expect_header(q, TS_OP_SET_PREFETCH, TS_PKT_SET_PREFETCH_LEN, TS_PKT_SET_PREFETCH_HEADER);
      EXPECT_EQ(FIELD(q, SET_PREFETCH, MODE), m);
      EXPECT_EQ(FIELD(q, SET_PREFETCH, ADDR), a);
      EXPECT_EQ(FIELD(q, SET_PREFETCH, SIZE), sz);
      expect_header(e, TS_OP_FRAME_END, TS_PKT_FRAME_END_LEN, TS_PKT_FRAME_END_HEADER);
      expect_header(p, TS_OP_PERF_SAMPLE, TS_PKT_PERF_SAMPLE_LEN, TS_PKT_PERF_SAMPLE_HEADER);
      EXPECT_EQ(FIELD(e, FRAME_END, FRAME_ID), f);
      EXPECT_EQ(FIELD(p, PERF_SAMPLE, ADDR), a);
    }
  }
}

// Catches: a packet added to spec/packets.yaml without an encoder here (the opcode table of the
// generated header is compared with the opcodes this library encodes).
TEST(Encoding, EncodersCoverEveryOpcode) {
  const std::vector<Dwords> all = {
      pkt::nop(0), pkt::indirect_buffer(0, 0), pkt::cond_exec(0, 0, 0, 0), pkt::set_regs(0, std::vector<uint32_t>{1}),
      pkt::set_bin_mode({}), pkt::bind_vis_buffer(0, 0), pkt::set_prefetch(0, 0, 0), pkt::draw({}), pkt::renderpass_begin({}),
      pkt::renderpass_end(), pkt::fence(0, 0), pkt::barrier_update(0, 0), pkt::barrier_wait(0, 0),
      pkt::dsid_set(0), pkt::dsid_delete(0, 0, 0), pkt::frame_end(0), pkt::perf_sample(0)};
  std::set<uint32_t> encoded, known;
  for (const auto& d : all) encoded.insert(TS_PKT_HDR_OPCODE_GET(d[0]));
  for (uint32_t op = 0; op < 256; ++op)
    if (ts_pkt_known(op)) known.insert(op);
  EXPECT_EQ(encoded, known);
}

// Catches: values silently masked into a field they do not fit (a 64 in a 6-bit DSID would
// become DSID 0; a 2^24 IB size would become 0).
TEST(Encoding, RejectsValuesThatDoNotFit) {
  auto expect_msg = [](auto f, const std::string& needle) {
    try {
      f();
      ADD_FAILURE() << "no error; expected one mentioning " << needle;
    } catch (const DriverError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expect_msg([] { pkt::dsid_set(64); }, "DSID_SET.DSID");
  expect_msg([] { pkt::barrier_wait(16, 0); }, "BARRIER_WAIT.ID");
  expect_msg([] { pkt::indirect_buffer(0, 1u << 24); }, "INDIRECT_BUFFER.SIZE");
  expect_msg([] { pkt::set_regs(1u << 20, std::vector<uint32_t>{1}); }, "SET_REGS.OFFSET");
  expect_msg([] { pkt::nop(TS_PKT_NOP_MAX_LEN + 1); }, "NOP");
  expect_msg([] { pkt::set_regs(0, std::vector<uint32_t>{}); }, "SET_REGS");
  RenderPassPacket r;
  r.clear_depth = 1u << 24;
  expect_msg([&] { pkt::renderpass_begin(r); }, "RENDERPASS_BEGIN.CLEAR_DEPTH");
}

// Catches: the decoder accepting what the CP rejects (unknown opcode, illegal length, a packet
// running off the end) or splitting a valid stream wrongly.
TEST(Encoding, DecodeRoundTripAndRejects) {
  Dwords s = pkt::draw({});
  const Dwords f = pkt::fence(0x40, 7, FenceFlags{true, false, true});
  s.insert(s.end(), f.begin(), f.end());
  const auto p = decode_packets(s);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[1].offset, 1u + TS_PKT_DRAW_LEN);
  EXPECT_EQ(p[1].dwords(), f);
  EXPECT_THROW(decode_packets(Dwords{TS_PKT_HEADER(0x7f, 0)}), DriverError);
  EXPECT_THROW(decode_packets(Dwords{TS_PKT_HEADER(TS_OP_DRAW, 1), 0}), DriverError);
  EXPECT_THROW(decode_packets(Dwords{TS_PKT_DRAW_HEADER, 0, 0}), DriverError);
}
