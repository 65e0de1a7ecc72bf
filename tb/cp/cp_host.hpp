// A minimal host for the CP system tests: ring set-up, packet building and submission,
// waiting for the CP to drain, over tessera::sim::GpuSim. The real driver (driver/) is
// tested on its own; these tests exercise the CP RTL + firmware with exact packet streams.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "tessera/sim/gpu_sim.hpp"
#include "tessera_spec.h"

namespace cptest {

using Dwords = std::vector<std::uint32_t>;

// ---- packets (encodings from tessera_spec.h only) -------------------------------------------
inline Dwords pkt(std::uint32_t op, std::initializer_list<std::uint32_t> payload, std::uint32_t flags = 0) {
  Dwords d{TS_PKT_HEADER(op, static_cast<std::uint32_t>(payload.size())) | flags};
  d.insert(d.end(), payload);
  return d;
}
inline Dwords nop(unsigned n) {
  Dwords d(n + 1, 0xdeadbeef);
  d[0] = TS_PKT_NOP_HEADER(n);
  return d;
}
inline Dwords set_regs(std::uint32_t offset, const Dwords& values) {
  Dwords d{TS_PKT_HEADER(TS_OP_SET_REGS, static_cast<std::uint32_t>(values.size() + 1)), offset};
  d.insert(d.end(), values.begin(), values.end());
  return d;
}
inline Dwords ib(std::uint32_t addr, std::uint32_t size) { return pkt(TS_OP_INDIRECT_BUFFER, {addr, size}); }
inline Dwords fence(std::uint32_t addr, std::uint32_t value, bool irq = false, bool flush = false) {
  return pkt(TS_OP_FENCE, {addr, value},
             (irq ? TS_PKT_FENCE_FLAG_INTERRUPT_MASK : 0) | (flush ? TS_PKT_FENCE_FLAG_FLUSH_MASK : 0)) ;
}
inline Dwords draw(std::uint32_t count, std::uint32_t vaddr) {
  return pkt(TS_OP_DRAW, {TS_PKT_DRAW_TOPOLOGY_PUT(TS_TOPOLOGY_TRI_LIST), count, vaddr, 0, 0});
}
inline Dwords dsid_set(unsigned d) { return pkt(TS_OP_DSID_SET, {d}); }
inline Dwords dsid_delete(unsigned d, std::uint32_t addr, std::uint32_t v) { return pkt(TS_OP_DSID_DELETE, {d, addr, v}); }
inline Dwords barrier_update(unsigned id, std::uint32_t v) { return pkt(TS_OP_BARRIER_UPDATE, {id, v}); }
inline Dwords barrier_wait(unsigned id, std::uint32_t v) { return pkt(TS_OP_BARRIER_WAIT, {id, v}); }
inline Dwords cond_exec(std::uint32_t addr, std::uint32_t mask, std::uint32_t ref, std::uint32_t n) {
  return pkt(TS_OP_COND_EXEC, {addr, mask, ref, n});
}
inline void append(Dwords& a, const Dwords& b) { a.insert(a.end(), b.begin(), b.end()); }
inline Dwords cat(std::initializer_list<Dwords> parts) {
  Dwords d;
  for (const auto& p : parts) append(d, p);
  return d;
}

inline std::uint64_t seed_from_env() {
  const char* s = std::getenv("RANDOM_SEED");
  return s ? std::strtoull(s, nullptr, 0) : 1;
}
inline bool waves_from_env() {
  const char* s = std::getenv("WAVES");
  return s && std::string(s) == "1";
}

// ---- the host ------------------------------------------------------------------------------
class Host {
 public:
  static constexpr std::uint32_t kRingBase[2] = {0x0001'0000, 0x0002'0000};
  static constexpr unsigned kRingLog2 = 10;  // 1024 dwords

  explicit Host(tessera::sim::GpuSim& g) : g_(g) {}

  void start(unsigned queue_mask = 3, unsigned log2 = kRingLog2) {
    log2_ = log2;
    for (unsigned q = 0; q < 2; ++q) {
      g_.reg_write(TS_CP_RING_BASE_OFFSET_N(q), kRingBase[q]);
      g_.reg_write(TS_CP_RING_SIZE_OFFSET_N(q), log2);
      g_.reg_write(TS_CP_RING_WPTR_OFFSET_N(q), 0);
      wptr_[q] = 0;
    }
    g_.reg_write(TS_CP_INT_ENABLE_OFFSET, TS_CP_INT_ENABLE_FENCE_PUT(0xff) | TS_CP_INT_ENABLE_ERROR_MASK);
    g_.reg_write(TS_CP_CTRL_OFFSET, TS_CP_CTRL_RUN_MASK | TS_CP_CTRL_QUEUE_ENABLE_PUT(queue_mask));
  }

  // Write the dwords into queue q's ring (wrapping) and ring the doorbell.
  void submit(unsigned q, const Dwords& d) {
    write_ring(q, d);
    doorbell(q);
  }
  void write_ring(unsigned q, const Dwords& d) {
    const std::uint32_t mask = (1U << log2_) - 1;
    for (std::uint32_t v : d) {
      g_.mem_write32(kRingBase[q] + 4 * wptr_[q], v);
      wptr_[q] = (wptr_[q] + 1) & mask;
    }
  }
  void doorbell(unsigned q) { g_.reg_write(TS_CP_DOORBELL_OFFSET_N(q), wptr_[q]); }
  std::uint32_t wptr(unsigned q) const { return wptr_[q]; }

  void write_buffer(std::uint32_t addr, const Dwords& d) {
    for (std::size_t i = 0; i < d.size(); ++i) g_.mem_write32(addr + 4 * static_cast<std::uint32_t>(i), d[i]);
  }

  // Step until pred() (evaluated every `every` cycles) or fail with `what`.
  void wait(const std::function<bool()>& pred, const std::string& what, std::uint64_t max_cycles = 400000,
            unsigned every = 64) {
    const std::uint64_t t0 = g_.cycle();
    while (!pred()) {
      if (g_.cycle() - t0 > max_cycles)
        throw std::runtime_error(fmt::format("timeout after {} cycles waiting for {} (fw_status 0x{:08x})",
                                             max_cycles, what, g_.fw_status()));
      g_.step(every);
    }
  }
  bool consumed(unsigned q) { return g_.reg_read(TS_CP_RING_RPTR_OFFSET_N(q)) == wptr_[q]; }
  void wait_idle(const std::string& what = "the CP to go idle") {
    wait([&] {
      const std::uint32_t st = g_.reg_read(TS_CP_STATUS_OFFSET);
      return consumed(0) && consumed(1) && TS_CP_STATUS_IDLE_GET(st) && TS_CP_STATUS_QUEUE_WAITING_GET(st) == 0;
    }, what);
  }
  void wait_value(std::uint32_t addr, std::uint32_t v, const std::string& what) {
    wait([&] { return g_.mem_read32(addr) == v; }, what, 400000, 256);
  }

 private:
  tessera::sim::GpuSim& g_;
  unsigned log2_ = kRingLog2;
  std::uint32_t wptr_[2] = {0, 0};
};

}  // namespace cptest
