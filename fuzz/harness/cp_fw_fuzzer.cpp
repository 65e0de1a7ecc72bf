// fuzz_cp_fw: the CP firmware's packet parser and executor (firmware/src/cp_exec.c,
// cp_sched.c, cp_sync.c, cp_stream.c, cp_binning.c),
// built for the host against the host tests' fake register layer (firmware/test/fake_gpu.*).
//
// The input is a host: a small configuration, then dword streams the host writes into the two
// rings (as fast as the rings have room, in chunks), and a memory image that INDIRECT_BUFFER,
// COND_EXEC and the rest can point at. The harness polls the firmware until nothing changes any
// more and then requires, for every malformed stream, a reported error rather than undefined
// behaviour:
//  - no sanitizer report (ASan: the firmware's own tables and buffers; UBSan),
//  - no access the fake refuses (a FETCH_DATA read past the channel's run, an address outside
//    GPU memory or unmapped, a plain store to a full SLC queue, ...: gtest_shim aborts),
//  - no cp_fw_poll that does not return (libFuzzer's -timeout),
//  - no hang: once nothing changes, every served queue is drained, halted with an error
//    report, or waiting for something only the host or the other queue can give (a barrier
//    not reached, the rest of a packet or of a COND_EXEC skip that fits the ring),
//  - no pipeline command that reaches outside GPU memory (packets.yaml: BAD_ADDRESS).
//
// Input layout (little endian; cp_fw_seeds.cpp writes seeds in it):
//   byte 0   ring size: bit 7 clear: log2 = 4 + (bits 2:0); set: log2 = bits 4:0 (may be invalid)
//   byte 1   bit 0: queue 1 enabled; bit 1: HW_CONFIG says 1 queue; bits 3:2: MEM_LIMIT choice;
//            bit 4: SLC command queue of 1; bit 5: slow pipeline (one command done per 3 ticks);
//            bit 6: the host recovers from errors (3 rounds after a halt: RPTR = its write
//            position, halt cleared, as a soft reset); bit 7: queue 0 disabled in rounds 4..11
//   byte 2   the rings' initial RPTR = WPTR (dwords, masked)
//   byte 3   dwords the host publishes per round (0: as many as fit)
//   byte 4   a memory line that answers with an error: 0 none, 1..127 the image's line n-1,
//            128..255 ring 0's line n-128
//   byte 5-6 dwords of queue 0's stream; byte 7-8 dwords of queue 1's stream
//   then     the streams, then the memory image (at kImageBase)
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cp_fw.h"
#include "cp_fw_input.hpp"
#include "cp_fw_internal.h"
#include "fake_gpu.hpp"
#include "fuzz_common.hpp"
#include "tessera_spec.h"

using tessera::fuzz::fuzz_finding;
using namespace tessera::fuzz::cp_fw_input;

namespace {
constexpr int kQuietRounds = 24;   // rounds without a change (waits last < 8): settled
constexpr int kMaxRounds = 1024;   // long but legal streams (big IBs of NOPs) end here unjudged

uint32_t dword_at(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

struct HostQueue {
  std::vector<uint32_t> stream;
  size_t next = 0;  // first dword not yet written to the ring
  bool served = false;
};

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}

// The ring writes the host can make now: room is size - 1 - (written - RPTR).
void host_publish(cpfw_test::FakeGpu& gpu, uint32_t q, HostQueue& h, uint32_t chunk) {
  if (!h.served || h.next == h.stream.size()) return;
  const uint32_t mask = (1u << gpu.queue[q].log2) - 1u;
  const uint32_t used = (gpu.queue[q].wpos - gpu.queue[q].rptr) & mask;
  size_t n = mask - used;
  if (chunk != 0 && n > chunk) n = chunk;
  if (n > h.stream.size() - h.next) n = h.stream.size() - h.next;
  if (n == 0) return;
  gpu.ring_write(q, std::vector<uint32_t>(h.stream.begin() + h.next, h.stream.begin() + h.next + n));
  h.next += n;
}

// A pipeline command must not reach outside GPU memory (packets.yaml: such a packet is a
// BAD_ADDRESS error, not forwarded).
void check_pipe(const cpfw_test::FakeGpu& gpu, size_t from) {
  const uint64_t limit = gpu.mem_limit;
  auto inside = [&](uint64_t addr, uint64_t bytes) { return addr < limit && bytes <= limit - addr; };
  for (size_t i = from; i < gpu.pipe.size(); ++i) {
    const cpfw_test::PipeCmd& c = gpu.pipe[i];
    const std::vector<uint32_t>& a = c.args;
    bool ok = true;
    if (c.opcode == TS_OP_DRAW && a.size() == TS_PKT_DRAW_LEN) {
      const uint64_t count = TS_PKT_DRAW_COUNT_GET(a[TS_PKT_DRAW_COUNT_DW]);
      const uint32_t itype = TS_PKT_DRAW_INDEX_TYPE_GET(a[TS_PKT_DRAW_INDEX_TYPE_DW]);
      const uint64_t vaddr = TS_PKT_DRAW_VERTEX_ADDR_GET(a[TS_PKT_DRAW_VERTEX_ADDR_DW]);
      if (itype == TS_INDEX_TYPE_NONE) {
        ok = inside(vaddr, count * 16u);
      } else {
        const uint64_t isize = itype == TS_INDEX_TYPE_U16 ? 2u : 4u;
        ok = inside(vaddr, 16) && inside(TS_PKT_DRAW_INDEX_ADDR_GET(a[TS_PKT_DRAW_INDEX_ADDR_DW]), count * isize);
      }
    } else if (c.opcode == TS_OP_RENDERPASS_BEGIN && a.size() == TS_PKT_RENDERPASS_BEGIN_LEN) {
      const uint64_t bytes = uint64_t(TS_PKT_RENDERPASS_BEGIN_WIDTH_GET(a[TS_PKT_RENDERPASS_BEGIN_WIDTH_DW])) *
                             TS_PKT_RENDERPASS_BEGIN_HEIGHT_GET(a[TS_PKT_RENDERPASS_BEGIN_HEIGHT_DW]) * 4u;
      ok = inside(TS_PKT_RENDERPASS_BEGIN_COLOR_ADDR_GET(a[TS_PKT_RENDERPASS_BEGIN_COLOR_ADDR_DW]), bytes) &&
           inside(TS_PKT_RENDERPASS_BEGIN_DEPTH_ADDR_GET(a[TS_PKT_RENDERPASS_BEGIN_DEPTH_ADDR_DW]), bytes);
    } else if (c.opcode == TS_OP_BIND_VIS_BUFFER && a.size() == TS_PKT_BIND_VIS_BUFFER_LEN) {
      ok = inside(TS_PKT_BIND_VIS_BUFFER_ADDR_GET(a[TS_PKT_BIND_VIS_BUFFER_ADDR_DW]),
                  TS_PKT_BIND_VIS_BUFFER_SIZE_GET(a[TS_PKT_BIND_VIS_BUFFER_SIZE_DW]));
    }
    if (!ok)
      fuzz_finding("queue " + std::to_string(c.queue) + " forwarded opcode " + hex(c.opcode) +
                   " reaching outside GPU memory (MEM_LIMIT " + hex(gpu.mem_limit) + ")");
  }
}

// Once the firmware has settled: why a served queue is not drained must be a legitimate wait.
void judge(const cpfw_test::FakeGpu& gpu, uint32_t q, const HostQueue& h) {
  const cp_queue_t& st = cp_fw.q[q];
  const std::string who = "queue " + std::to_string(q);
  const uint32_t avail = (st.wptr - st.rd) & st.mask;
  if (st.phase == CP_PH_HALTED) {
    for (const cpfw_test::ErrorReport& e : gpu.errors)
      if (e.queue == q) return;
    fuzz_finding(who + " halted without an error report");
  }
  if (st.phase == CP_PH_WAIT_BARRIER) {
    if (cp_fw_barrier(st.addr) >= st.value)
      fuzz_finding(who + " waits for barrier " + std::to_string(st.addr) + " >= " + hex(st.value) +
                   ", which it has reached");
    return;  // only the other queue (or a later packet) could release it
  }
  if (st.phase == CP_PH_WAIT_SKIP) {
    if (st.level != 0 || st.skip > st.size - 1u)
      fuzz_finding(who + " waits for a COND_EXEC skip of " + std::to_string(st.skip) +
                   " dwords that the ring can never publish");
    if (avail >= st.skip) fuzz_finding(who + " waits for a COND_EXEC skip that is all published");
    return;
  }
  if (st.phase != CP_PH_IDLE)
    fuzz_finding(who + " is stuck in wait phase " + std::to_string(st.phase) +
                 " (pipeline, caches and SLC all completed)");
  if (st.level != 0)
    fuzz_finding(who + " is stuck inside IB" + std::to_string(st.level) + " with " +
                 std::to_string(st.ib_left[st.level]) + " dwords left");
  if (st.have_hdr == CP_HDR_WAIT) {
    const uint32_t len = TS_PKT_HDR_LENGTH_GET(st.hdr);
    if (len > st.size - 2u) fuzz_finding(who + " waits for a packet longer than the ring can publish");
    if (avail >= len) fuzz_finding(who + " waits for the rest of a packet that is all published");
    return;
  }
  if (st.have_hdr != CP_HDR_NONE) fuzz_finding(who + " holds a header it does not execute");
  if (avail != 0) fuzz_finding(who + " leaves " + std::to_string(avail) + " published dwords unread");
  if (h.next != h.stream.size())
    fuzz_finding(who + " drained the ring but the host could not write the rest of its stream");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < kHeaderBytes) return 0;
  cpfw_test::FakeGpu gpu;
  cpfw_test::g_fake = &gpu;

  const uint8_t ring_cfg = data[0], flags = data[1], start = data[2], chunk = data[3], bad_line = data[4];
  const uint32_t log2 = (ring_cfg & 0x80) ? (ring_cfg & 0x1fu) : 4u + (ring_cfg & 7u);
  const bool ring_ok = log2 >= 4 && log2 <= 16;
  gpu.hw_queues = (flags & kOneHwQueue) ? 1 : 2;
  gpu.enable_mask = (flags & kQueue1) ? 0x3 : 0x1;
  gpu.mem_limit = kMemLimits[(flags >> 2) & 3];
  if (flags & kSmallSlcQueue) gpu.slc_capacity = 1;
  const bool slow_pipe = (flags & kSlowPipe) != 0;
  const bool recover = (flags & kRecover) != 0;
  const bool pause = (flags & kPause) != 0;
  const uint32_t enabled = gpu.enable_mask;
  int halted_for[2] = {0, 0};
  gpu.auto_done = !slow_pipe;

  const uint8_t* p = data + kHeaderBytes;
  size_t words = (size - kHeaderBytes) / 4;
  HostQueue host[2];
  const size_t want[2] = {size_t(data[5]) | size_t(data[6]) << 8, size_t(data[7]) | size_t(data[8]) << 8};
  for (uint32_t q = 0; q < 2; ++q) {
    const size_t n = want[q] < words ? want[q] : words;
    for (size_t i = 0; i < n; ++i, p += 4) host[q].stream.push_back(dword_at(p));
    words -= n;
    gpu.queue[q].base = kRingBase[q];
    gpu.queue[q].log2 = log2;
    host[q].served = ring_ok && q < gpu.hw_queues && (gpu.enable_mask >> q & 1u);
    if (ring_ok) {
      const uint32_t s = start & ((1u << log2) - 1u);
      gpu.queue[q].rptr = gpu.queue[q].wptr = gpu.queue[q].wpos = s;
    }
  }
  for (size_t i = 0; i < words; ++i, p += 4) gpu.set_mem(kImageBase + 4u * uint32_t(i), dword_at(p));
  if (bad_line >= 128)
    gpu.error_words.insert(kRingBase[0] + 64u * (bad_line - 128u));
  else if (bad_line != 0)
    gpu.error_words.insert(kImageBase + 64u * (bad_line - 1u));

  cp_fw_init();
  std::vector<uint8_t> before(sizeof cp_fw);
  int quiet = 0;
  size_t checked = 0;
  for (int round = 0; round < kMaxRounds && quiet < kQuietRounds; ++round) {
    if (pause) gpu.enable_mask = (round >= 4 && round < 12) ? (enabled & ~1u) : enabled;
    for (uint32_t q = 0; q < 2; ++q) {
      if (recover && host[q].served && (gpu.halted_mask >> q & 1u) && ++halted_for[q] == 3) {
        halted_for[q] = 0;
        gpu.queue[q].rptr = gpu.queue[q].wptr = gpu.queue[q].wpos;  // drop what is left, restart
        gpu.halted_mask &= ~(1u << q);
      }
      host_publish(gpu, q, host[q], chunk);
    }
    std::memcpy(before.data(), &cp_fw, sizeof cp_fw);
    const size_t pushed = gpu.pipe.size();
    const size_t written = host[0].next + host[1].next;
    const uint32_t fake_progress = gpu.pipe_done + gpu.slc_completed + gpu.cache_busy_ticks;
    cp_fw_poll();
    gpu.tick();
    if (slow_pipe && round % 3 == 0) gpu.complete_pipe(1);
    check_pipe(gpu, checked);
    checked = gpu.pipe.size();
    const bool changed = std::memcmp(before.data(), &cp_fw, sizeof cp_fw) != 0 || gpu.pipe.size() != pushed ||
                         host[0].next + host[1].next != written ||
                         gpu.pipe_done + gpu.slc_completed + gpu.cache_busy_ticks != fake_progress;
    quiet = changed ? 0 : quiet + 1;
  }
  if (quiet >= kQuietRounds) {
    for (uint32_t q = 0; q < 2; ++q)
      if (host[q].served) judge(gpu, q, host[q]);
  }
  for (const cpfw_test::ErrorReport& e : gpu.errors) {
    if (e.code < TS_CP_ERROR_BAD_OPCODE || e.code > TS_CP_ERROR_BAD_STATE)
      fuzz_finding("error report with unknown code " + std::to_string(e.code));
    if (e.queue >= gpu.hw_queues) fuzz_finding("error report for queue " + std::to_string(e.queue) + ", not served");
  }
  cpfw_test::g_fake = nullptr;
  return 0;
}
