// fuzz_cp_fw_seeds <seed folder> <dictionary>: writes well-formed host streams for fuzz_cp_fw
// (one per packet type and per firmware path worth reaching: IB calls, COND_EXEC skips, fences
// with cache maintenance, DSID_DELETE, barriers between the queues, packets published in parts,
// a ring that wraps, a fetch error) and a libFuzzer dictionary of header dwords and addresses.
// Built from the generated packet macros, so the seeds follow spec/packets.yaml.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cp_fw_input.hpp"
#include "tessera_spec.h"

using namespace tessera::fuzz::cp_fw_input;
using Dw = std::vector<uint32_t>;

namespace {

Dw cat(std::initializer_list<Dw> parts) {
  Dw out;
  for (const Dw& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

Dw nop(uint32_t n) {
  Dw p{TS_PKT_NOP_HEADER(n)};
  for (uint32_t i = 0; i < n; i++) p.push_back(0x4e4f5000u + i);
  return p;
}

Dw draw(uint32_t count, uint32_t vaddr, uint32_t topology = TS_TOPOLOGY_TRI_LIST,
        uint32_t itype = TS_INDEX_TYPE_NONE, uint32_t iaddr = 0, uint32_t tf = 0) {
  return {TS_PKT_DRAW_HEADER,
          TS_PKT_DRAW_TOPOLOGY_PUT(topology) | TS_PKT_DRAW_INDEX_TYPE_PUT(itype),
          TS_PKT_DRAW_COUNT_PUT(count), TS_PKT_DRAW_VERTEX_ADDR_PUT(vaddr),
          TS_PKT_DRAW_INDEX_ADDR_PUT(iaddr), TS_PKT_DRAW_TF_ADDR_PUT(tf)};
}

Dw set_regs(uint32_t offset, uint32_t n) {
  Dw p{TS_PKT_SET_REGS_HEADER(1 + n), TS_PKT_SET_REGS_OFFSET_PUT(offset)};
  for (uint32_t i = 0; i < n; i++) p.push_back(0x5e700000u + i);
  return p;
}

Dw ib(uint32_t addr, uint32_t size) {
  return {TS_PKT_INDIRECT_BUFFER_HEADER, TS_PKT_INDIRECT_BUFFER_ADDR_PUT(addr), TS_PKT_INDIRECT_BUFFER_SIZE_PUT(size)};
}

Dw cond_exec(uint32_t addr, uint32_t mask, uint32_t ref, uint32_t count) {
  return {TS_PKT_COND_EXEC_HEADER, TS_PKT_COND_EXEC_ADDR_PUT(addr), TS_PKT_COND_EXEC_MASK_PUT(mask),
          TS_PKT_COND_EXEC_REF_PUT(ref), TS_PKT_COND_EXEC_COUNT_PUT(count)};
}

Dw fence(uint32_t addr, uint32_t value, uint32_t flags = 0) {
  return {TS_PKT_FENCE_HEADER | flags, TS_PKT_FENCE_ADDR_PUT(addr), TS_PKT_FENCE_VALUE_PUT(value)};
}

Dw barrier_update(uint32_t id, uint32_t v) {
  return {TS_PKT_BARRIER_UPDATE_HEADER, TS_PKT_BARRIER_UPDATE_ID_PUT(id), TS_PKT_BARRIER_UPDATE_VALUE_PUT(v)};
}

Dw barrier_wait(uint32_t id, uint32_t v) {
  return {TS_PKT_BARRIER_WAIT_HEADER, TS_PKT_BARRIER_WAIT_ID_PUT(id), TS_PKT_BARRIER_WAIT_VALUE_PUT(v)};
}

Dw dsid_set(uint32_t d) { return {TS_PKT_DSID_SET_HEADER, TS_PKT_DSID_SET_DSID_PUT(d)}; }

Dw dsid_delete(uint32_t d, uint32_t addr, uint32_t v) {
  return {TS_PKT_DSID_DELETE_HEADER, TS_PKT_DSID_DELETE_DSID_PUT(d), TS_PKT_DSID_DELETE_FENCE_ADDR_PUT(addr),
          TS_PKT_DSID_DELETE_FENCE_VALUE_PUT(v)};
}

Dw frame_end(uint32_t id) { return {TS_PKT_FRAME_END_HEADER, TS_PKT_FRAME_END_FRAME_ID_PUT(id)}; }

Dw perf_sample(uint32_t addr) { return {TS_PKT_PERF_SAMPLE_HEADER, TS_PKT_PERF_SAMPLE_ADDR_PUT(addr)}; }

Dw rp_begin(uint32_t color, uint32_t depth, uint32_t w, uint32_t h) {
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

Dw rp_end() { return {TS_PKT_RENDERPASS_END_HEADER}; }

Dw bin_mode(uint32_t mode, uint32_t cx, uint32_t cy) {
  return {TS_PKT_SET_BIN_MODE_HEADER,
          TS_PKT_SET_BIN_MODE_MODE_PUT(mode) | TS_PKT_SET_BIN_MODE_FINE_SIZE_PUT(TS_BIN_SIZE_PX32) |
              TS_PKT_SET_BIN_MODE_ORDER_PUT(TS_BIN_ORDER_SERPENTINE),
          TS_PKT_SET_BIN_MODE_COARSE_X_PUT(cx) | TS_PKT_SET_BIN_MODE_COARSE_Y_PUT(cy)};
}

Dw vis_buffer(uint32_t addr, uint32_t size) {
  return {TS_PKT_BIND_VIS_BUFFER_HEADER, TS_PKT_BIND_VIS_BUFFER_ADDR_PUT(addr), TS_PKT_BIND_VIS_BUFFER_SIZE_PUT(size)};
}

constexpr uint32_t kFenceAddr = 0x800;  // inside every MEM_LIMIT choice, outside the image
constexpr uint32_t kFlush = TS_PKT_FENCE_FLAG_FLUSH_MASK;
constexpr uint32_t kInvalidate = TS_PKT_FENCE_FLAG_INVALIDATE_MASK;
constexpr uint32_t kIrq = TS_PKT_FENCE_FLAG_INTERRUPT_MASK;

void write(const std::filesystem::path& dir, const std::string& name, const Input& in) {
  const std::vector<uint8_t> b = in.bytes();
  std::ofstream(dir / (name + ".bin"), std::ios::binary).write(reinterpret_cast<const char*>(b.data()),
                                                                static_cast<std::streamsize>(b.size()));
}

std::string dict_token(uint32_t v) {
  char buf[32];
  std::string s = "\"";
  for (int i = 0; i < 4; i++) {
    std::snprintf(buf, sizeof buf, "\\x%02x", (v >> (8 * i)) & 0xffu);
    s += buf;
  }
  return s + "\"";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: fuzz_cp_fw_seeds <seed folder> <dictionary file>\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  const uint32_t img = kImageBase;

  Input every;  // one of each packet type, ring level
  every.ring_cfg = 3;  // 128 dwords
  every.stream[0] = cat({nop(0), nop(3), set_regs(0x100, 3), bin_mode(1, 2, 2), vis_buffer(0x2000, 256),
                         rp_begin(0x4000, 0x8000, 16, 16), draw(3, 0x2000), draw(6, 0x2000, TS_TOPOLOGY_TRI_LIST,
                         TS_INDEX_TYPE_U16, 0x3000), rp_end(), dsid_set(5), fence(kFenceAddr, 1),
                         barrier_update(2, 7), barrier_wait(2, 7), dsid_delete(5, kFenceAddr + 4, 2),
                         frame_end(1), perf_sample(0xc00)});
  write(dir, "every-packet", every);

  Input ibs;  // IB1 calling IB2, DSIDs around the calls
  ibs.stream[0] = cat({dsid_set(3), ib(img, 12), draw(3, 0x2000), fence(kFenceAddr, 9)});
  ibs.image = cat({dsid_set(4), draw(3, 0x2000), ib(img + 4 * 16, 6), nop(0)});
  ibs.image.resize(16, 0);
  ibs.image = cat({ibs.image, draw(3, 0x2400), frame_end(2)});
  write(dir, "ib-nesting", ibs);

  Input cond;  // COND_EXEC taken and skipped, at ring level and inside an IB
  cond.stream[0] = cat({cond_exec(img, 0xff, 1, 6), draw(3, 0x2000), cond_exec(img, 0xff, 2, 6), draw(3, 0x2000),
                        ib(img + 16, 12)});
  cond.image = cat({Dw{1, 0, 0, 0}, cond_exec(img, 0xff, 0, 6), draw(3, 0x2000), nop(0)});
  write(dir, "cond-exec", cond);

  Input partial = cond;  // the same, published one dword per round: partial packets and skips
  partial.chunk = 1;
  write(dir, "cond-exec-partial", partial);

  Input fences;  // cache maintenance and SLC commands, a small SLC queue, a slow pipeline
  fences.flags = kQueue1 | kSmallSlcQueue | kSlowPipe;
  fences.stream[0] = cat({draw(3, 0x2000), fence(kFenceAddr, 1, kFlush), draw(3, 0x2000),
                          fence(kFenceAddr, 2, kInvalidate | kIrq), dsid_delete(7, kFenceAddr, 3)});
  fences.stream[1] = cat({dsid_delete(9, kFenceAddr + 8, 1), fence(kFenceAddr + 8, 2, kInvalidate)});
  write(dir, "fences-slc", fences);

  Input barriers;  // queue 1 waits for queue 0
  barriers.stream[0] = cat({draw(3, 0x2000), barrier_update(1, 5), nop(2)});
  barriers.stream[1] = cat({barrier_wait(1, 5), draw(3, 0x2000), barrier_wait(3, 1)});
  write(dir, "barriers", barriers);

  Input wrap;  // a long stream through a small ring starting near its end
  wrap.ring_cfg = 0;  // 16 dwords
  wrap.start = 13;
  wrap.chunk = 5;
  for (int i = 0; i < 12; i++) wrap.stream[0] = cat({wrap.stream[0], i % 3 ? draw(3, 0x2000) : set_regs(0x40, 4)});
  write(dir, "ring-wrap", wrap);

  Input faulty = ibs;  // a fetch error inside the IB
  faulty.bad_line = 1;
  write(dir, "fetch-error", faulty);

  Input bad;  // malformed: unknown opcode, bad length, address beyond memory, IB3
  bad.flags = mem_limit_choice(1);
  bad.stream[0] = cat({draw(3, 0x2000), Dw{TS_PKT_HEADER(0x7f, 1), 0}});
  bad.stream[1] = cat({ib(img, 3)});
  bad.image = cat({ib(img, 3)});
  write(dir, "malformed", bad);

  Input recover = bad;  // the host soft-resets halted queues; queue 0 paused for a while
  recover.flags = kQueue1 | kRecover | kPause;
  recover.chunk = 4;
  recover.stream[0] = cat({draw(3, 0x2000), Dw{TS_PKT_HEADER(0x7f, 1), 0}, draw(3, 0x2000), fence(kFenceAddr, 5)});
  write(dir, "malformed-recover", recover);

  std::ofstream d(argv[2]);
  d << "# fuzz_cp_fw dictionary, written by fuzz_cp_fw_seeds from tessera_spec.h\n";
  const uint32_t headers[] = {TS_PKT_NOP_HEADER(0), TS_PKT_NOP_HEADER(1), TS_PKT_INDIRECT_BUFFER_HEADER,
                              TS_PKT_COND_EXEC_HEADER, TS_PKT_SET_REGS_HEADER(2), TS_PKT_SET_BIN_MODE_HEADER,
                              TS_PKT_BIND_VIS_BUFFER_HEADER, TS_PKT_DRAW_HEADER, TS_PKT_RENDERPASS_BEGIN_HEADER,
                              TS_PKT_RENDERPASS_END_HEADER, TS_PKT_FENCE_HEADER, TS_PKT_FENCE_HEADER | kFlush,
                              TS_PKT_FENCE_HEADER | kInvalidate | kIrq, TS_PKT_BARRIER_UPDATE_HEADER,
                              TS_PKT_BARRIER_WAIT_HEADER, TS_PKT_DSID_SET_HEADER, TS_PKT_DSID_DELETE_HEADER,
                              TS_PKT_FRAME_END_HEADER, TS_PKT_PERF_SAMPLE_HEADER};
  int n = 0;
  for (uint32_t h : headers) d << "hdr" << n++ << "=" << dict_token(h) << "\n";
  const uint32_t addrs[] = {img, img + 64, kFenceAddr, kRingBase[0], kRingBase[1], 0x2000};
  n = 0;
  for (uint32_t a : addrs) d << "addr" << n++ << "=" << dict_token(a) << "\n";
  return 0;
}
