// packets.hpp -- packet builders for the CP firmware's host tests (generated names only:
// TS_PKT_*, TS_OP_* from tessera_spec.h), shared by cp_fw_test.cpp and cp_fw_paths_test.cpp.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "tessera_spec.h"

namespace cpfw_test::packets {

using Dw = std::vector<uint32_t>;

inline Dw cat(std::initializer_list<Dw> parts)
{
  Dw out;
  for (const Dw &p : parts)
    out.insert(out.end(), p.begin(), p.end());
  return out;
}

inline Dw nop(uint32_t n, uint32_t fill = 0xdeadbeef)
{
  Dw p{TS_PKT_NOP_HEADER(n)};
  for (uint32_t i = 0; i < n; i++)
    p.push_back(fill + i);
  return p;
}

inline Dw draw(uint32_t count, uint32_t vertex_addr = 0x8000,
               uint32_t topology = TS_TOPOLOGY_TRI_LIST, uint32_t index_type = TS_INDEX_TYPE_NONE,
               uint32_t index_addr = 0, uint32_t tf_addr = 0)
{
  return {TS_PKT_DRAW_HEADER,
          TS_PKT_DRAW_TOPOLOGY_PUT(topology) | TS_PKT_DRAW_INDEX_TYPE_PUT(index_type),
          TS_PKT_DRAW_COUNT_PUT(count), TS_PKT_DRAW_VERTEX_ADDR_PUT(vertex_addr),
          TS_PKT_DRAW_INDEX_ADDR_PUT(index_addr), TS_PKT_DRAW_TF_ADDR_PUT(tf_addr)};
}

inline Dw set_regs(uint32_t offset, const Dw &values)
{
  Dw p{TS_PKT_SET_REGS_HEADER(1 + static_cast<uint32_t>(values.size())),
       TS_PKT_SET_REGS_OFFSET_PUT(offset)};
  p.insert(p.end(), values.begin(), values.end());
  return p;
}

inline Dw ib(uint32_t addr, uint32_t size)
{
  return {TS_PKT_INDIRECT_BUFFER_HEADER, TS_PKT_INDIRECT_BUFFER_ADDR_PUT(addr),
          TS_PKT_INDIRECT_BUFFER_SIZE_PUT(size)};
}

inline Dw cond_exec(uint32_t addr, uint32_t mask, uint32_t ref, uint32_t count)
{
  return {TS_PKT_COND_EXEC_HEADER, TS_PKT_COND_EXEC_ADDR_PUT(addr), TS_PKT_COND_EXEC_MASK_PUT(mask),
          TS_PKT_COND_EXEC_REF_PUT(ref), TS_PKT_COND_EXEC_COUNT_PUT(count)};
}

inline Dw fence(uint32_t addr, uint32_t value, uint32_t flags = 0)
{
  return {TS_PKT_FENCE_HEADER | flags, TS_PKT_FENCE_ADDR_PUT(addr), TS_PKT_FENCE_VALUE_PUT(value)};
}

inline Dw barrier_update(uint32_t id, uint32_t value)
{
  return {TS_PKT_BARRIER_UPDATE_HEADER, TS_PKT_BARRIER_UPDATE_ID_PUT(id),
          TS_PKT_BARRIER_UPDATE_VALUE_PUT(value)};
}

inline Dw barrier_wait(uint32_t id, uint32_t value)
{
  return {TS_PKT_BARRIER_WAIT_HEADER, TS_PKT_BARRIER_WAIT_ID_PUT(id),
          TS_PKT_BARRIER_WAIT_VALUE_PUT(value)};
}

inline Dw dsid_set(uint32_t dsid)
{
  return {TS_PKT_DSID_SET_HEADER, TS_PKT_DSID_SET_DSID_PUT(dsid)};
}

inline Dw dsid_delete(uint32_t dsid, uint32_t addr, uint32_t value)
{
  return {TS_PKT_DSID_DELETE_HEADER, TS_PKT_DSID_DELETE_DSID_PUT(dsid),
          TS_PKT_DSID_DELETE_FENCE_ADDR_PUT(addr), TS_PKT_DSID_DELETE_FENCE_VALUE_PUT(value)};
}

inline Dw frame_end(uint32_t id)
{
  return {TS_PKT_FRAME_END_HEADER, TS_PKT_FRAME_END_FRAME_ID_PUT(id)};
}

inline Dw perf_sample(uint32_t addr)
{
  return {TS_PKT_PERF_SAMPLE_HEADER, TS_PKT_PERF_SAMPLE_ADDR_PUT(addr)};
}

inline Dw rp_begin(uint32_t color, uint32_t depth, uint32_t w = 64, uint32_t h = 32)
{
  return {TS_PKT_RENDERPASS_BEGIN_HEADER,
          TS_PKT_RENDERPASS_BEGIN_BODY_SIZE_PUT(12),
          TS_PKT_RENDERPASS_BEGIN_COLOR_ADDR_PUT(color),
          TS_PKT_RENDERPASS_BEGIN_WIDTH_PUT(w) | TS_PKT_RENDERPASS_BEGIN_HEIGHT_PUT(h),
          TS_PKT_RENDERPASS_BEGIN_DEPTH_ADDR_PUT(depth),
          TS_PKT_RENDERPASS_BEGIN_COLOR_LOAD_PUT(TS_LOAD_OP_CLEAR) |
              TS_PKT_RENDERPASS_BEGIN_COLOR_STORE_PUT(TS_STORE_OP_STORE),
          TS_PKT_RENDERPASS_BEGIN_CLEAR_COLOR_PUT(0xff102030u),
          TS_PKT_RENDERPASS_BEGIN_CLEAR_DEPTH_PUT(0xffffffu),
          TS_PKT_RENDERPASS_BEGIN_COLOR_DSID_PUT(3) | TS_PKT_RENDERPASS_BEGIN_DEPTH_DSID_PUT(4)};
}

inline Dw rp_end()
{
  return {TS_PKT_RENDERPASS_END_HEADER};
}

inline Dw bin_mode(uint32_t mode, uint32_t cx, uint32_t cy)
{
  return {TS_PKT_SET_BIN_MODE_HEADER,
          TS_PKT_SET_BIN_MODE_MODE_PUT(mode) | TS_PKT_SET_BIN_MODE_FINE_SIZE_PUT(TS_BIN_SIZE_PX32) |
              TS_PKT_SET_BIN_MODE_ORDER_PUT(TS_BIN_ORDER_SERPENTINE),
          TS_PKT_SET_BIN_MODE_COARSE_X_PUT(cx) | TS_PKT_SET_BIN_MODE_COARSE_Y_PUT(cy)};
}

inline Dw vis_buffer(uint32_t addr, uint32_t size)
{
  return {TS_PKT_BIND_VIS_BUFFER_HEADER, TS_PKT_BIND_VIS_BUFFER_ADDR_PUT(addr),
          TS_PKT_BIND_VIS_BUFFER_SIZE_PUT(size)};
}

inline Dw set_prefetch(uint32_t mode, uint32_t addr, uint32_t size)
{
  return {TS_PKT_SET_PREFETCH_HEADER, TS_PKT_SET_PREFETCH_MODE_PUT(mode), TS_PKT_SET_PREFETCH_ADDR_PUT(addr),
          TS_PKT_SET_PREFETCH_SIZE_PUT(size)};
}

inline Dw payload(const Dw &pkt)
{
  return Dw(pkt.begin() + 1, pkt.end());
}

}  // namespace cpfw_test::packets
