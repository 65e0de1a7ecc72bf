// AXI4 burst address arithmetic (AMBA AXI4 A3.4.1), shared by the DRAM model and the
// protocol checker. Private to tessera_dram.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>

#include "tessera/sim/axi.hpp"

namespace tessera::sim::detail {

struct BeatWindow {
  std::uint32_t addr = 0;   // address of the beat (the start address for the first beat)
  std::uint32_t line = 0;   // 64-byte aligned line the beat falls in
  std::uint64_t lanes = 0;  // active byte lanes of the data bus
  unsigned bytes = 0;       // number of active lanes
};

inline unsigned beat_bytes(const AxiAddr& a) { return 1U << std::min<unsigned>(a.size, kAxiMaxSize); }

inline std::uint64_t beat_address(const AxiAddr& a, unsigned i) {
  const std::uint64_t nb = beat_bytes(a);
  const std::uint64_t start = a.addr;
  const std::uint64_t aligned = start & ~(nb - 1);
  const std::uint64_t beats = static_cast<std::uint64_t>(a.len) + 1;
  if (i == 0 || a.burst == static_cast<std::uint8_t>(AxiBurst::fixed)) return start;
  if (a.burst == static_cast<std::uint8_t>(AxiBurst::wrap)) {
    const std::uint64_t total = nb * beats;
    const std::uint64_t boundary = (start / total) * total;
    return boundary + ((aligned - boundary + i * nb) % total);
  }
  return aligned + i * nb;  // INCR (and reserved, answered with an error anyway)
}

inline BeatWindow beat_window(const AxiAddr& a, unsigned i) {
  const std::uint64_t nb = beat_bytes(a);
  const std::uint64_t addr = beat_address(a, i) & 0xFFFFFFFFULL;
  const std::uint64_t upper = (addr & ~(nb - 1)) + nb - 1;  // last byte of the beat's container
  BeatWindow w;
  w.addr = static_cast<std::uint32_t>(addr);
  w.line = static_cast<std::uint32_t>(addr & ~std::uint64_t{kAxiDataBytes - 1});
  const unsigned lo = static_cast<unsigned>(addr % kAxiDataBytes);
  const unsigned hi = static_cast<unsigned>(upper % kAxiDataBytes);
  w.bytes = hi - lo + 1;
  w.lanes = (w.bytes == 64 ? ~0ULL : ((1ULL << w.bytes) - 1)) << lo;
  return w;
}

// First and last byte address a burst touches (64-bit: an INCR burst may run past 4 GiB).
inline std::pair<std::uint64_t, std::uint64_t> burst_span(const AxiAddr& a) {
  const std::uint64_t nb = beat_bytes(a);
  const std::uint64_t start = a.addr;
  const std::uint64_t aligned = start & ~(nb - 1);
  const std::uint64_t beats = static_cast<std::uint64_t>(a.len) + 1;
  if (a.burst == static_cast<std::uint8_t>(AxiBurst::fixed)) return {start, aligned + nb - 1};
  if (a.burst == static_cast<std::uint8_t>(AxiBurst::wrap)) {
    const std::uint64_t total = nb * beats;
    const std::uint64_t boundary = (start / total) * total;
    return {boundary, boundary + total - 1};
  }
  return {start, aligned + beats * nb - 1};
}

}  // namespace tessera::sim::detail
