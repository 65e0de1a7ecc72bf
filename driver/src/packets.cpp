#include "tessera/driver/packets.hpp"

#include <fmt/format.h>

#include "tessera/driver/error.hpp"

namespace tessera::driver {

namespace {

uint32_t checked(uint32_t value, uint32_t placed, uint32_t roundtrip, uint32_t width, const char* packet,
                 const char* field) {
  if (roundtrip != value)
    throw DriverError(fmt::format("{}.{}: value {} (0x{:x}) does not fit the field's {} bits", packet, field, value,
                                  value, width));
  return placed;
}

}  // namespace

// Place value v into field F of packet P through the generated macros, rejecting a value that
// does not survive the round trip PUT -> GET (i.e. does not fit).
#define TS_PUT(P, F, v)                                                                                      \
  [&] {                                                                                                      \
    const uint32_t value_ = static_cast<uint32_t>(v);                                                        \
    return checked(value_, TS_PKT_##P##_##F##_PUT(value_), TS_PKT_##P##_##F##_GET(TS_PKT_##P##_##F##_PUT(value_)), \
                   TS_PKT_##P##_##F##_WIDTH, #P, #F);                                                        \
  }()

const char* to_string(BinMode m) { return m == BinMode::TwoLevel ? "two-level" : "PBB"; }

const char* to_string(Topology t) {
  switch (t) {
    case Topology::TriList: return "TRI_LIST";
    case Topology::TriStrip: return "TRI_STRIP";
    case Topology::PatchQuad: return "PATCH_QUAD";
    case Topology::PatchTri: return "PATCH_TRI";
    case Topology::PatchIsoline: return "PATCH_ISOLINE";
  }
  return "?";
}

namespace pkt {

Dwords nop(uint32_t n) {
  if (n > TS_PKT_NOP_MAX_LEN)
    throw DriverError(fmt::format("NOP: {} payload dwords, the header holds at most {}", n, TS_PKT_NOP_MAX_LEN));
  Dwords d(1 + n, 0);
  d[0] = TS_PKT_NOP_HEADER(n);
  return d;
}

Dwords indirect_buffer(uint32_t addr, uint32_t size) {
  Dwords d(1 + TS_PKT_INDIRECT_BUFFER_LEN, 0);
  d[0] = TS_PKT_INDIRECT_BUFFER_HEADER;
  d[1 + TS_PKT_INDIRECT_BUFFER_ADDR_DW] |= TS_PUT(INDIRECT_BUFFER, ADDR, addr);
  d[1 + TS_PKT_INDIRECT_BUFFER_SIZE_DW] |= TS_PUT(INDIRECT_BUFFER, SIZE, size);
  return d;
}

Dwords cond_exec(uint32_t addr, uint32_t mask, uint32_t ref, uint32_t count) {
  Dwords d(1 + TS_PKT_COND_EXEC_LEN, 0);
  d[0] = TS_PKT_COND_EXEC_HEADER;
  d[1 + TS_PKT_COND_EXEC_ADDR_DW] |= TS_PUT(COND_EXEC, ADDR, addr);
  d[1 + TS_PKT_COND_EXEC_MASK_DW] |= TS_PUT(COND_EXEC, MASK, mask);
  d[1 + TS_PKT_COND_EXEC_REF_DW] |= TS_PUT(COND_EXEC, REF, ref);
  d[1 + TS_PKT_COND_EXEC_COUNT_DW] |= TS_PUT(COND_EXEC, COUNT, count);
  return d;
}

Dwords set_regs(uint32_t offset, std::span<const uint32_t> values) {
  const std::size_t len = TS_PKT_SET_REGS_VALUE_DW + values.size();
  if (values.empty() || len < TS_PKT_SET_REGS_MIN_LEN || len > TS_PKT_SET_REGS_MAX_LEN)
    throw DriverError(fmt::format("SET_REGS: {} register values; the packet takes {}..{}", values.size(),
                                  TS_PKT_SET_REGS_MIN_LEN - TS_PKT_SET_REGS_VALUE_DW,
                                  TS_PKT_SET_REGS_MAX_LEN - TS_PKT_SET_REGS_VALUE_DW));
  Dwords d(1 + len, 0);
  d[0] = TS_PKT_SET_REGS_HEADER(static_cast<uint32_t>(len));
  d[1 + TS_PKT_SET_REGS_OFFSET_DW] |= TS_PUT(SET_REGS, OFFSET, offset);
  for (std::size_t i = 0; i < values.size(); ++i)
    d[1 + TS_PKT_SET_REGS_VALUE_DW + i] |= TS_PUT(SET_REGS, VALUE, values[i]);
  return d;
}

Dwords set_bin_mode(const BinningInfo& b) {
  Dwords d(1 + TS_PKT_SET_BIN_MODE_LEN, 0);
  d[0] = TS_PKT_SET_BIN_MODE_HEADER;
  d[1 + TS_PKT_SET_BIN_MODE_MODE_DW] |= TS_PUT(SET_BIN_MODE, MODE, b.mode);
  d[1 + TS_PKT_SET_BIN_MODE_FINE_SIZE_DW] |= TS_PUT(SET_BIN_MODE, FINE_SIZE, b.fine_size);
  d[1 + TS_PKT_SET_BIN_MODE_ORDER_DW] |= TS_PUT(SET_BIN_MODE, ORDER, b.order);
  d[1 + TS_PKT_SET_BIN_MODE_VIS_FIRST_DW] |= TS_PUT(SET_BIN_MODE, VIS_FIRST, b.vis_first ? 1u : 0u);
  d[1 + TS_PKT_SET_BIN_MODE_COARSE_X_DW] |= TS_PUT(SET_BIN_MODE, COARSE_X, b.coarse_x);
  d[1 + TS_PKT_SET_BIN_MODE_COARSE_Y_DW] |= TS_PUT(SET_BIN_MODE, COARSE_Y, b.coarse_y);
  return d;
}

Dwords set_prefetch(uint32_t mode, uint32_t addr, uint32_t size) {
  Dwords d(1 + TS_PKT_SET_PREFETCH_LEN, 0);
  d[0] = TS_PKT_SET_PREFETCH_HEADER;
  d[1 + TS_PKT_SET_PREFETCH_MODE_DW] |= TS_PUT(SET_PREFETCH, MODE, mode);
  d[1 + TS_PKT_SET_PREFETCH_ADDR_DW] |= TS_PUT(SET_PREFETCH, ADDR, addr);
  d[1 + TS_PKT_SET_PREFETCH_SIZE_DW] |= TS_PUT(SET_PREFETCH, SIZE, size);
  return d;
}

Dwords bind_vis_buffer(uint32_t addr, uint32_t size) {
  Dwords d(1 + TS_PKT_BIND_VIS_BUFFER_LEN, 0);
  d[0] = TS_PKT_BIND_VIS_BUFFER_HEADER;
  d[1 + TS_PKT_BIND_VIS_BUFFER_ADDR_DW] |= TS_PUT(BIND_VIS_BUFFER, ADDR, addr);
  d[1 + TS_PKT_BIND_VIS_BUFFER_SIZE_DW] |= TS_PUT(BIND_VIS_BUFFER, SIZE, size);
  return d;
}

Dwords draw(const DrawDesc& x) {
  Dwords d(1 + TS_PKT_DRAW_LEN, 0);
  d[0] = TS_PKT_DRAW_HEADER;
  d[1 + TS_PKT_DRAW_TOPOLOGY_DW] |= TS_PUT(DRAW, TOPOLOGY, x.topology);
  d[1 + TS_PKT_DRAW_INDEX_TYPE_DW] |= TS_PUT(DRAW, INDEX_TYPE, x.index_type);
  d[1 + TS_PKT_DRAW_COUNT_DW] |= TS_PUT(DRAW, COUNT, x.count);
  d[1 + TS_PKT_DRAW_VERTEX_ADDR_DW] |= TS_PUT(DRAW, VERTEX_ADDR, x.vertex_addr);
  d[1 + TS_PKT_DRAW_INDEX_ADDR_DW] |= TS_PUT(DRAW, INDEX_ADDR, x.index_addr);
  d[1 + TS_PKT_DRAW_TF_ADDR_DW] |= TS_PUT(DRAW, TF_ADDR, x.tf_addr);
  return d;
}

Dwords renderpass_begin(const RenderPassPacket& r) {
  Dwords d(1 + TS_PKT_RENDERPASS_BEGIN_LEN, 0);
  d[0] = TS_PKT_RENDERPASS_BEGIN_HEADER;
  d[1 + TS_PKT_RENDERPASS_BEGIN_BODY_SIZE_DW] |= TS_PUT(RENDERPASS_BEGIN, BODY_SIZE, r.body_size);
  d[1 + TS_PKT_RENDERPASS_BEGIN_COLOR_ADDR_DW] |= TS_PUT(RENDERPASS_BEGIN, COLOR_ADDR, r.color_addr);
  d[1 + TS_PKT_RENDERPASS_BEGIN_WIDTH_DW] |= TS_PUT(RENDERPASS_BEGIN, WIDTH, r.width);
  d[1 + TS_PKT_RENDERPASS_BEGIN_HEIGHT_DW] |= TS_PUT(RENDERPASS_BEGIN, HEIGHT, r.height);
  d[1 + TS_PKT_RENDERPASS_BEGIN_DEPTH_ADDR_DW] |= TS_PUT(RENDERPASS_BEGIN, DEPTH_ADDR, r.depth_addr);
  d[1 + TS_PKT_RENDERPASS_BEGIN_COLOR_LOAD_DW] |= TS_PUT(RENDERPASS_BEGIN, COLOR_LOAD, r.color_load);
  d[1 + TS_PKT_RENDERPASS_BEGIN_COLOR_STORE_DW] |= TS_PUT(RENDERPASS_BEGIN, COLOR_STORE, r.color_store);
  d[1 + TS_PKT_RENDERPASS_BEGIN_DEPTH_LOAD_DW] |= TS_PUT(RENDERPASS_BEGIN, DEPTH_LOAD, r.depth_load);
  d[1 + TS_PKT_RENDERPASS_BEGIN_DEPTH_STORE_DW] |= TS_PUT(RENDERPASS_BEGIN, DEPTH_STORE, r.depth_store);
  d[1 + TS_PKT_RENDERPASS_BEGIN_CLEAR_COLOR_DW] |= TS_PUT(RENDERPASS_BEGIN, CLEAR_COLOR, r.clear_color);
  d[1 + TS_PKT_RENDERPASS_BEGIN_CLEAR_DEPTH_DW] |= TS_PUT(RENDERPASS_BEGIN, CLEAR_DEPTH, r.clear_depth);
  d[1 + TS_PKT_RENDERPASS_BEGIN_COLOR_DSID_DW] |= TS_PUT(RENDERPASS_BEGIN, COLOR_DSID, r.color_dsid);
  d[1 + TS_PKT_RENDERPASS_BEGIN_DEPTH_DSID_DW] |= TS_PUT(RENDERPASS_BEGIN, DEPTH_DSID, r.depth_dsid);
  return d;
}

Dwords renderpass_end() { return Dwords{TS_PKT_RENDERPASS_END_HEADER}; }

Dwords fence(uint32_t addr, uint32_t value, FenceFlags f) {
  Dwords d(1 + TS_PKT_FENCE_LEN, 0);
  d[0] = TS_PKT_FENCE_HEADER | TS_PKT_FENCE_FLAG_FLUSH_PUT(f.flush ? 1u : 0u) |
         TS_PKT_FENCE_FLAG_INVALIDATE_PUT(f.invalidate ? 1u : 0u) | TS_PKT_FENCE_FLAG_INTERRUPT_PUT(f.interrupt ? 1u : 0u);
  d[1 + TS_PKT_FENCE_ADDR_DW] |= TS_PUT(FENCE, ADDR, addr);
  d[1 + TS_PKT_FENCE_VALUE_DW] |= TS_PUT(FENCE, VALUE, value);
  return d;
}

Dwords barrier_update(uint32_t id, uint32_t value) {
  Dwords d(1 + TS_PKT_BARRIER_UPDATE_LEN, 0);
  d[0] = TS_PKT_BARRIER_UPDATE_HEADER;
  d[1 + TS_PKT_BARRIER_UPDATE_ID_DW] |= TS_PUT(BARRIER_UPDATE, ID, id);
  d[1 + TS_PKT_BARRIER_UPDATE_VALUE_DW] |= TS_PUT(BARRIER_UPDATE, VALUE, value);
  return d;
}

Dwords barrier_wait(uint32_t id, uint32_t value) {
  Dwords d(1 + TS_PKT_BARRIER_WAIT_LEN, 0);
  d[0] = TS_PKT_BARRIER_WAIT_HEADER;
  d[1 + TS_PKT_BARRIER_WAIT_ID_DW] |= TS_PUT(BARRIER_WAIT, ID, id);
  d[1 + TS_PKT_BARRIER_WAIT_VALUE_DW] |= TS_PUT(BARRIER_WAIT, VALUE, value);
  return d;
}

Dwords dsid_set(uint32_t hw) {
  Dwords d(1 + TS_PKT_DSID_SET_LEN, 0);
  d[0] = TS_PKT_DSID_SET_HEADER;
  d[1 + TS_PKT_DSID_SET_DSID_DW] |= TS_PUT(DSID_SET, DSID, hw);
  return d;
}

Dwords dsid_delete(uint32_t hw, uint32_t fence_addr, uint32_t fence_value) {
  Dwords d(1 + TS_PKT_DSID_DELETE_LEN, 0);
  d[0] = TS_PKT_DSID_DELETE_HEADER;
  d[1 + TS_PKT_DSID_DELETE_DSID_DW] |= TS_PUT(DSID_DELETE, DSID, hw);
  d[1 + TS_PKT_DSID_DELETE_FENCE_ADDR_DW] |= TS_PUT(DSID_DELETE, FENCE_ADDR, fence_addr);
  d[1 + TS_PKT_DSID_DELETE_FENCE_VALUE_DW] |= TS_PUT(DSID_DELETE, FENCE_VALUE, fence_value);
  return d;
}

Dwords frame_end(uint32_t frame_id) {
  Dwords d(1 + TS_PKT_FRAME_END_LEN, 0);
  d[0] = TS_PKT_FRAME_END_HEADER;
  d[1 + TS_PKT_FRAME_END_FRAME_ID_DW] |= TS_PUT(FRAME_END, FRAME_ID, frame_id);
  return d;
}

Dwords perf_sample(uint32_t addr) {
  Dwords d(1 + TS_PKT_PERF_SAMPLE_LEN, 0);
  d[0] = TS_PKT_PERF_SAMPLE_HEADER;
  d[1 + TS_PKT_PERF_SAMPLE_ADDR_DW] |= TS_PUT(PERF_SAMPLE, ADDR, addr);
  return d;
}

uint32_t with_dsid_set_dsid(uint32_t dw, uint32_t hw) {
  return (dw & ~TS_PKT_DSID_SET_DSID_MASK) | TS_PUT(DSID_SET, DSID, hw);
}
uint32_t with_dsid_delete_dsid(uint32_t dw, uint32_t hw) {
  return (dw & ~TS_PKT_DSID_DELETE_DSID_MASK) | TS_PUT(DSID_DELETE, DSID, hw);
}
uint32_t with_renderpass_dsids(uint32_t dw, uint32_t color_hw, uint32_t depth_hw) {
  static_assert(TS_PKT_RENDERPASS_BEGIN_COLOR_DSID_DW == TS_PKT_RENDERPASS_BEGIN_DEPTH_DSID_DW,
                "relocation rewrites both DSIDs in one dword");
  return (dw & ~(TS_PKT_RENDERPASS_BEGIN_COLOR_DSID_MASK | TS_PKT_RENDERPASS_BEGIN_DEPTH_DSID_MASK)) |
         TS_PUT(RENDERPASS_BEGIN, COLOR_DSID, color_hw) | TS_PUT(RENDERPASS_BEGIN, DEPTH_DSID, depth_hw);
}

}  // namespace pkt

#undef TS_PUT

Dwords Packet::dwords() const {
  Dwords d;
  d.reserve(1 + payload.size());
  d.push_back(TS_PKT_HEADER(opcode, static_cast<uint32_t>(payload.size())) | TS_PKT_HDR_FLAGS_PUT(flags));
  d.insert(d.end(), payload.begin(), payload.end());
  return d;
}

std::vector<Packet> decode_packets(std::span<const uint32_t> s) {
  std::vector<Packet> out;
  std::size_t i = 0;
  while (i < s.size()) {
    const uint32_t h = s[i];
    const uint32_t op = TS_PKT_HDR_OPCODE_GET(h);
    const uint32_t len = TS_PKT_HDR_LENGTH_GET(h);
    if (!ts_pkt_known(op))
      throw DriverError(fmt::format("dword {}: unknown opcode 0x{:02x} (header 0x{:08x})", i, op, h));
    if (!ts_pkt_header_valid(h))
      throw DriverError(fmt::format("dword {}: {} with {} payload dwords (legal {}..{})", i, packet_name(op), len,
                                    ts_pkt_min_len(op), ts_pkt_max_len(op)));
    if (i + 1 + len > s.size())
      throw DriverError(fmt::format("dword {}: {} of {} payload dwords runs past the end of the {}-dword stream", i,
                                    packet_name(op), len, s.size()));
    Packet p;
    p.offset = static_cast<uint32_t>(i);
    p.opcode = op;
    p.flags = TS_PKT_HDR_FLAGS_GET(h);
    p.payload.assign(s.begin() + static_cast<std::ptrdiff_t>(i + 1), s.begin() + static_cast<std::ptrdiff_t>(i + 1 + len));
    out.push_back(std::move(p));
    i += 1 + len;
  }
  return out;
}

std::string packet_name(uint32_t opcode) {
  if (const char* n = ts_pkt_name(opcode)) return n;
  return fmt::format("OP_0x{:02x}", opcode);
}

std::string format_packet(const Packet& p) {
  std::string s = packet_name(p.opcode);
  if (p.flags) s += fmt::format(" flags=0x{:02x}", p.flags);
  s += " [";
  for (std::size_t i = 0; i < p.payload.size(); ++i) s += fmt::format("{}{:08x}", i ? " " : "", p.payload[i]);
  s += "]";
  return s;
}

}  // namespace tessera::driver
