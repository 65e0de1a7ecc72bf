// The C header generated from the real spec/, compiled into this test (C++20, -Werror) and,
// through generated_header_c11.c, as C11. Fails if a header or field macro shifts or masks
// wrongly (a value spilling into a neighbouring field), if the opcode table helpers disagree
// with the spec, if array-register offsets collide, or if C and C++ evaluate a macro
// differently.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

#include "tessera_spec.h"

extern "C" {
uint32_t ts_c11_draw_header(void);
uint32_t ts_c11_set_regs_header(uint32_t len);
uint32_t ts_c11_ring_wptr_offset(uint32_t queue);
uint32_t ts_c11_draw_topology(uint32_t dw);
int ts_c11_header_valid(uint32_t header);
}

namespace {

// Usable in constant expressions (case labels, static tables in firmware).
static_assert(TS_PKT_HDR_OPCODE_GET(TS_PKT_HEADER(TS_OP_FENCE, 2)) == TS_OP_FENCE);
static_assert(TS_PKT_HDR_LENGTH_GET(TS_PKT_SET_REGS_HEADER(7)) == 7);

// Values that expose shift and mask mistakes: edges, all ones, alternating patterns.
const std::vector<uint32_t> kProbe = {0u,          1u,          2u,         0x7fu,
                                      0x80u,       0xffu,       0xffffu,    0x10000u,
                                      0x55555555u, 0xaaaaaaaau, 0xffffffffu};

TEST(GeneratedHeader, HeaderEncodeDecodeRoundTripsForEveryOpcode) {
  int known = 0;
  for (uint32_t op = 0; op <= 0xff; ++op) {
    if (!ts_pkt_known(op)) {
      EXPECT_EQ(ts_pkt_name(op), nullptr);
      EXPECT_FALSE(ts_pkt_header_valid(TS_PKT_HEADER(op, 0)));
      continue;
    }
    ++known;
    ASSERT_NE(ts_pkt_name(op), nullptr);
    const uint32_t lo = ts_pkt_min_len(op);
    const uint32_t hi = ts_pkt_max_len(op);
    ASSERT_LE(lo, hi) << ts_pkt_name(op);
    for (uint32_t len : {lo, hi, (lo + hi) / 2}) {
      const uint32_t h = TS_PKT_HEADER(op, len);
      EXPECT_EQ(TS_PKT_HDR_OPCODE_GET(h), op);
      EXPECT_EQ(TS_PKT_HDR_LENGTH_GET(h), len);
      EXPECT_EQ(TS_PKT_HDR_FLAGS_GET(h), 0u) << "flags must stay clear";
      EXPECT_TRUE(ts_pkt_header_valid(h)) << ts_pkt_name(op) << " len " << len;
    }
    if (lo > 0) {
      EXPECT_FALSE(ts_pkt_header_valid(TS_PKT_HEADER(op, lo - 1))) << ts_pkt_name(op);
    }
    if (hi < 0xffffu) {
      EXPECT_FALSE(ts_pkt_header_valid(TS_PKT_HEADER(op, hi + 1))) << ts_pkt_name(op);
    }
  }
  // ARCHITECTURE.md section 4 defines 16 packets; issue 19 added SET_PREFETCH (the tile
  // prefetcher's history buffer, "a packet or register in spec/").
  EXPECT_EQ(known, 17) << "ARCHITECTURE.md section 4's 16 packets and SET_PREFETCH";
}

TEST(GeneratedHeader, HeaderFieldsDoNotSpillIntoEachOther) {
  // Oversized arguments are masked to their field, not carried into the neighbour.
  const uint32_t h = TS_PKT_HEADER(0x1ffu, 0x1ffffu);
  EXPECT_EQ(h & TS_PKT_HDR_FLAGS_MASK, 0u);
  EXPECT_EQ(TS_PKT_HDR_OPCODE_GET(h), 0xffu);
  EXPECT_EQ(TS_PKT_HDR_LENGTH_GET(h), 0xffffu);
  EXPECT_EQ(TS_PKT_HDR_OPCODE_MASK | TS_PKT_HDR_FLAGS_MASK | TS_PKT_HDR_LENGTH_MASK, 0xffffffffu);
  EXPECT_EQ(TS_PKT_HDR_OPCODE_MASK & TS_PKT_HDR_FLAGS_MASK & TS_PKT_HDR_LENGTH_MASK, 0u);
}

#define CHECK_FIELD(F)                                                                   \
  do {                                                                                   \
    const uint32_t width_mask =                                                          \
        F##_WIDTH == 32u ? 0xffffffffu : static_cast<uint32_t>((1ull << F##_WIDTH) - 1); \
    EXPECT_EQ(F##_MASK, width_mask << F##_LSB) << #F;                                    \
    for (uint32_t v : kProbe) {                                                          \
      EXPECT_EQ(F##_PUT(v) & ~F##_MASK, 0u) << #F << " PUT(" << v << ") spills";         \
      EXPECT_EQ(F##_GET(F##_PUT(v)), v & width_mask) << #F << " round trip of " << v;    \
      EXPECT_EQ(F##_GET(v), (v >> F##_LSB) & width_mask) << #F << " GET(" << v << ")";   \
    }                                                                                    \
  } while (0)

TEST(GeneratedHeader, FieldMacrosRoundTrip) {
  CHECK_FIELD(TS_PKT_DRAW_TOPOLOGY);
  CHECK_FIELD(TS_PKT_DRAW_INDEX_TYPE);
  CHECK_FIELD(TS_PKT_DRAW_COUNT);
  CHECK_FIELD(TS_PKT_RENDERPASS_BEGIN_HEIGHT);
  CHECK_FIELD(TS_PKT_RENDERPASS_BEGIN_DEPTH_STORE);
  CHECK_FIELD(TS_PKT_RENDERPASS_BEGIN_DEPTH_DSID);
  CHECK_FIELD(TS_PKT_SET_BIN_MODE_COARSE_Y);
  CHECK_FIELD(TS_PKT_FENCE_FLAG_INTERRUPT);
  CHECK_FIELD(TS_PKT_HDR_LENGTH);
  CHECK_FIELD(TS_CP_RING_BASE_ADDR);
  CHECK_FIELD(TS_CP_ERROR_STATUS_QUEUE);
  CHECK_FIELD(TS_CP_ERROR_STATUS_VALID);
}

TEST(GeneratedHeader, BuildAndDecodeADrawPacket) {
  // What the driver writes and the firmware reads, through the generated names only.
  uint32_t pkt[1 + TS_PKT_DRAW_LEN] = {};
  pkt[0] = TS_PKT_DRAW_HEADER;
  pkt[1 + TS_PKT_DRAW_TOPOLOGY_DW] |= TS_PKT_DRAW_TOPOLOGY_PUT(TS_TOPOLOGY_TRI_STRIP);
  pkt[1 + TS_PKT_DRAW_INDEX_TYPE_DW] |= TS_PKT_DRAW_INDEX_TYPE_PUT(TS_INDEX_TYPE_U16);
  pkt[1 + TS_PKT_DRAW_COUNT_DW] |= TS_PKT_DRAW_COUNT_PUT(300);
  pkt[1 + TS_PKT_DRAW_VERTEX_ADDR_DW] |= TS_PKT_DRAW_VERTEX_ADDR_PUT(0x10000);
  pkt[1 + TS_PKT_DRAW_INDEX_ADDR_DW] |= TS_PKT_DRAW_INDEX_ADDR_PUT(0x20000);

  ASSERT_TRUE(ts_pkt_header_valid(pkt[0]));
  ASSERT_EQ(TS_PKT_HDR_OPCODE_GET(pkt[0]), TS_OP_DRAW);
  const uint32_t* p = pkt + 1;
  EXPECT_EQ(TS_PKT_DRAW_TOPOLOGY_GET(p[TS_PKT_DRAW_TOPOLOGY_DW]), TS_TOPOLOGY_TRI_STRIP);
  EXPECT_EQ(TS_PKT_DRAW_INDEX_TYPE_GET(p[TS_PKT_DRAW_INDEX_TYPE_DW]), TS_INDEX_TYPE_U16);
  EXPECT_EQ(TS_PKT_DRAW_COUNT_GET(p[TS_PKT_DRAW_COUNT_DW]), 300u);
  EXPECT_EQ(TS_PKT_DRAW_VERTEX_ADDR_GET(p[TS_PKT_DRAW_VERTEX_ADDR_DW]), 0x10000u);
  EXPECT_EQ(TS_PKT_DRAW_INDEX_ADDR_GET(p[TS_PKT_DRAW_INDEX_ADDR_DW]), 0x20000u);
  EXPECT_EQ(TS_PKT_DRAW_TF_ADDR_GET(p[TS_PKT_DRAW_TF_ADDR_DW]), 0u);

  // FENCE carries its flags in the header.
  const uint32_t fence = TS_PKT_FENCE_HEADER | TS_PKT_FENCE_FLAG_INTERRUPT_PUT(1);
  EXPECT_TRUE(ts_pkt_header_valid(fence));
  EXPECT_EQ(TS_PKT_FENCE_FLAG_INTERRUPT_GET(fence), 1u);
  EXPECT_EQ(TS_PKT_FENCE_FLAG_FLUSH_GET(fence), 0u);
}

TEST(GeneratedHeader, QueueRegistersAreDistinctAndInsideTheAperture) {
  std::set<uint32_t> seen;
  const uint32_t global[] = {TS_CP_ID_OFFSET,         TS_CP_VERSION_OFFSET,
                             TS_CP_CTRL_OFFSET,       TS_CP_STATUS_OFFSET,
                             TS_CP_INT_STATUS_OFFSET, TS_CP_INT_ENABLE_OFFSET,
                             TS_CP_ERROR_STATUS_OFFSET, TS_CP_ERROR_ADDR_OFFSET};
  for (uint32_t o : global) EXPECT_TRUE(seen.insert(o).second) << std::hex << o;
  for (uint32_t q = 0; q < TS_CP_QUEUE_COUNT; ++q) {
    for (uint32_t o : {TS_CP_RING_BASE_OFFSET_N(q), TS_CP_RING_SIZE_OFFSET_N(q),
                       TS_CP_RING_RPTR_OFFSET_N(q), TS_CP_RING_WPTR_OFFSET_N(q),
                       TS_CP_DOORBELL_OFFSET_N(q)}) {
      EXPECT_TRUE(seen.insert(o).second) << "queue " << q << " offset 0x" << std::hex << o;
      EXPECT_LT(o, TS_CP_SIZE);
      EXPECT_EQ(o % 4, 0u);
    }
  }
  EXPECT_EQ(TS_CP_RING_WPTR_OFFSET_N(1) - TS_CP_RING_WPTR_OFFSET_N(0), TS_CP_QUEUE_STRIDE);
  EXPECT_EQ(TS_CP_RING_WPTR_OFFSET_N(0), TS_CP_RING_WPTR_OFFSET);
}

TEST(GeneratedHeader, SpecIsSelfConsistent) {
  // VERSION.num_queues is a hand-written reset value; it must track the QUEUE array count.
  EXPECT_EQ(TS_CP_VERSION_NUM_QUEUES_GET(TS_CP_VERSION_RESET), TS_CP_QUEUE_COUNT);
  EXPECT_EQ(TS_CP_ID_RESET, 0x54535241u) << "\"TSRA\"";
  // Per-queue bit fields must have a bit for every queue.
  EXPECT_GE(TS_CP_CTRL_QUEUE_ENABLE_WIDTH, TS_CP_QUEUE_COUNT);
  EXPECT_GE(TS_CP_INT_STATUS_FENCE_WIDTH, TS_CP_QUEUE_COUNT);
  EXPECT_GE(1u << TS_CP_ERROR_STATUS_QUEUE_WIDTH, TS_CP_QUEUE_COUNT);
  // Ring pointers index a ring of up to 2^16 dwords (RING_SIZE.log2_dwords <= 16).
  EXPECT_EQ(TS_CP_RING_WPTR_PTR_WIDTH, 16u);
  EXPECT_EQ(TS_CP_DOORBELL_WPTR_WIDTH, TS_CP_RING_WPTR_PTR_WIDTH);
  EXPECT_EQ(TS_CP_RING_RPTR_PTR_WIDTH, TS_CP_RING_WPTR_PTR_WIDTH);
}

TEST(GeneratedHeader, CAndCppAgree) {
  EXPECT_EQ(ts_c11_draw_header(), static_cast<uint32_t>(TS_PKT_DRAW_HEADER));
  for (uint32_t n : {0u, 2u, 65535u}) {
    EXPECT_EQ(ts_c11_set_regs_header(n), static_cast<uint32_t>(TS_PKT_SET_REGS_HEADER(n)));
  }
  for (uint32_t q = 0; q < TS_CP_QUEUE_COUNT; ++q) {
    EXPECT_EQ(ts_c11_ring_wptr_offset(q), static_cast<uint32_t>(TS_CP_RING_WPTR_OFFSET_N(q)));
  }
  for (uint32_t v : kProbe) {
    EXPECT_EQ(ts_c11_draw_topology(v), static_cast<uint32_t>(TS_PKT_DRAW_TOPOLOGY_GET(v)));
    EXPECT_EQ(ts_c11_header_valid(v), ts_pkt_header_valid(v));
  }
}

}  // namespace
