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
#include "packets.hpp"
#include "tessera_spec.h"

using namespace tessera::fuzz::cp_fw_input;
using Dw = cpfw_test::packets::Dw;

namespace {

// The packet builders are the firmware host tests' (firmware/test/packets.hpp); the seeds'
// payload fill patterns stay their own, so a seed's NOP and SET_REGS words are recognisable.
using namespace cpfw_test::packets;

Dw seed_nop(uint32_t n) { return nop(n, 0x4e4f5000u); }

Dw seed_set_regs(uint32_t offset, uint32_t n) {
  Dw values;
  for (uint32_t i = 0; i < n; i++) values.push_back(0x5e700000u + i);
  return set_regs(offset, values);
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
  every.stream[0] = cat({seed_nop(0), seed_nop(3), seed_set_regs(0x100, 3), bin_mode(1, 2, 2), vis_buffer(0x2000, 256),
                         rp_begin(0x4000, 0x8000, 16, 16), draw(3, 0x2000), draw(6, 0x2000, TS_TOPOLOGY_TRI_LIST,
                         TS_INDEX_TYPE_U16, 0x3000), rp_end(), dsid_set(5), fence(kFenceAddr, 1),
                         barrier_update(2, 7), barrier_wait(2, 7), dsid_delete(5, kFenceAddr + 4, 2),
                         frame_end(1), perf_sample(0xc00)});
  write(dir, "every-packet", every);

  Input ibs;  // IB1 calling IB2, DSIDs around the calls
  ibs.stream[0] = cat({dsid_set(3), ib(img, 12), draw(3, 0x2000), fence(kFenceAddr, 9)});
  ibs.image = cat({dsid_set(4), draw(3, 0x2000), ib(img + 4 * 16, 6), seed_nop(0)});
  ibs.image.resize(16, 0);
  ibs.image = cat({ibs.image, draw(3, 0x2400), frame_end(2)});
  write(dir, "ib-nesting", ibs);

  Input cond;  // COND_EXEC taken and skipped, at ring level and inside an IB
  cond.stream[0] = cat({cond_exec(img, 0xff, 1, 6), draw(3, 0x2000), cond_exec(img, 0xff, 2, 6), draw(3, 0x2000),
                        ib(img + 16, 12)});
  cond.image = cat({Dw{1, 0, 0, 0}, cond_exec(img, 0xff, 0, 6), draw(3, 0x2000), seed_nop(0)});
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
  barriers.stream[0] = cat({draw(3, 0x2000), barrier_update(1, 5), seed_nop(2)});
  barriers.stream[1] = cat({barrier_wait(1, 5), draw(3, 0x2000), barrier_wait(3, 1)});
  write(dir, "barriers", barriers);

  Input wrap;  // a long stream through a small ring starting near its end
  wrap.ring_cfg = 0;  // 16 dwords
  wrap.start = 13;
  wrap.chunk = 5;
  for (int i = 0; i < 12; i++) wrap.stream[0] = cat({wrap.stream[0], i % 3 ? draw(3, 0x2000) : seed_set_regs(0x40, 4)});
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
