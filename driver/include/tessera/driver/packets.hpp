// Packet encoding and decoding for the Tessera command stream (ARCHITECTURE.md section 4).
//
// Every encoding comes from the generated tessera_spec.h (spec/packets.yaml): the headers
// (TS_PKT_<P>_HEADER), the field positions (TS_PKT_<P>_<F>_PUT / _DW) and the enum values.
// Nothing here restates a bit position. A value that does not fit its field is rejected
// with a DriverError naming the packet and the field, never silently masked.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "tessera_spec.h"

namespace tessera::driver {

using Dwords = std::vector<uint32_t>;

enum class Topology : uint8_t {
  TriList = TS_TOPOLOGY_TRI_LIST,
  TriStrip = TS_TOPOLOGY_TRI_STRIP,
  PatchQuad = TS_TOPOLOGY_PATCH_QUAD,
  PatchTri = TS_TOPOLOGY_PATCH_TRI,
  PatchIsoline = TS_TOPOLOGY_PATCH_ISOLINE,
};
enum class IndexType : uint8_t { None = TS_INDEX_TYPE_NONE, U16 = TS_INDEX_TYPE_U16, U32 = TS_INDEX_TYPE_U32 };
enum class LoadOp : uint8_t { Load = TS_LOAD_OP_LOAD, Clear = TS_LOAD_OP_CLEAR, DontCare = TS_LOAD_OP_DONT_CARE };
enum class StoreOp : uint8_t { DontCare = TS_STORE_OP_DONT_CARE, Store = TS_STORE_OP_STORE };
enum class BinMode : uint8_t { Pbb = TS_BIN_MODE_PBB, TwoLevel = TS_BIN_MODE_TWO_LEVEL };
enum class BinSize : uint8_t { Px16 = TS_BIN_SIZE_PX16, Px32 = TS_BIN_SIZE_PX32, Px64 = TS_BIN_SIZE_PX64 };
enum class BinOrder : uint8_t { Raster = TS_BIN_ORDER_RASTER, Serpentine = TS_BIN_ORDER_SERPENTINE };

const char* to_string(BinMode m);
const char* to_string(Topology t);

// DRAW payload.
struct DrawDesc {
  Topology topology = Topology::TriList;
  IndexType index_type = IndexType::None;
  uint32_t count = 0;
  uint32_t vertex_addr = 0;
  uint32_t index_addr = 0;
  uint32_t tf_addr = 0;
};

// SET_BIN_MODE payload: the binning information of the AMD source ([0047]: bin count, bin
// sizes, processing order).
struct BinningInfo {
  BinMode mode = BinMode::Pbb;
  BinSize fine_size = BinSize::Px32;
  BinOrder order = BinOrder::Raster;
  uint8_t coarse_x = 0;
  uint8_t coarse_y = 0;
  // Two-level: the visibility pass also renders the first coarse bin of the order (the
  // source's option), which is then not replayed.
  bool vis_first = false;
  bool operator==(const BinningInfo&) const = default;
};

// RENDERPASS_BEGIN payload as the CP sees it (hardware DSIDs).
struct RenderPassPacket {
  uint32_t body_size = 0;
  uint32_t color_addr = 0;
  uint32_t width = 1;
  uint32_t height = 1;
  uint32_t depth_addr = 0;
  LoadOp color_load = LoadOp::DontCare;
  StoreOp color_store = StoreOp::DontCare;
  LoadOp depth_load = LoadOp::DontCare;
  StoreOp depth_store = StoreOp::DontCare;
  uint32_t clear_color = 0;
  uint32_t clear_depth = 0;
  uint32_t color_dsid = 0;
  uint32_t depth_dsid = 0;
};

struct FenceFlags {
  bool flush = false;
  bool invalidate = false;
  bool interrupt = false;
};

// One encoder per packet of spec/packets.yaml; each returns header + payload.
namespace pkt {
Dwords nop(uint32_t payload_dwords);
Dwords indirect_buffer(uint32_t addr, uint32_t size_dwords);
Dwords cond_exec(uint32_t addr, uint32_t mask, uint32_t ref, uint32_t count);
Dwords set_regs(uint32_t offset, std::span<const uint32_t> values);
Dwords set_bin_mode(const BinningInfo& info);
Dwords bind_vis_buffer(uint32_t addr, uint32_t size_bytes);
Dwords set_prefetch(uint32_t mode, uint32_t addr, uint32_t size_bytes);
Dwords draw(const DrawDesc& d);
Dwords renderpass_begin(const RenderPassPacket& rp);
Dwords renderpass_end();
Dwords fence(uint32_t addr, uint32_t value, FenceFlags flags = {});
Dwords barrier_update(uint32_t id, uint32_t value);
Dwords barrier_wait(uint32_t id, uint32_t value);
Dwords dsid_set(uint32_t hw_dsid);
Dwords dsid_delete(uint32_t hw_dsid, uint32_t fence_addr, uint32_t fence_value);
Dwords frame_end(uint32_t frame_id);
Dwords perf_sample(uint32_t addr);

// Field helpers shared with the patcher and the KMD's relocation: rewrite one field of an
// already encoded dword (the other bits are kept).
uint32_t with_dsid_set_dsid(uint32_t dw, uint32_t hw);
uint32_t with_dsid_delete_dsid(uint32_t dw, uint32_t hw);
uint32_t with_renderpass_dsids(uint32_t dw, uint32_t color_hw, uint32_t depth_hw);
}  // namespace pkt

// A decoded packet: where it starts (dword index in the decoded span), its header fields and
// its payload.
struct Packet {
  uint32_t offset = 0;
  uint32_t opcode = 0;
  uint32_t flags = 0;
  Dwords payload;
  Dwords dwords() const;  // header + payload, re-encoded
  bool operator==(const Packet& o) const { return opcode == o.opcode && flags == o.flags && payload == o.payload; }
};

// Splits a stream into packets. Throws DriverError on an unknown opcode, an illegal length or
// a packet running past the end of the span (the same checks the CP makes).
std::vector<Packet> decode_packets(std::span<const uint32_t> stream);

// "DRAW" etc., or "OP_0x7f" for an unknown opcode.
std::string packet_name(uint32_t opcode);
// One line for diagnostics: "DRAW [00000000 00000003 ...]".
std::string format_packet(const Packet& p);

}  // namespace tessera::driver
