// SparseMemory: the DRAM model's storage -- the full 32-bit (4 GiB) byte address space,
// kept as 4 KiB pages allocated on first write and zero-filled. Reading a page never
// written returns zeros without allocating it.
//
// This is also the host's backdoor (the shared-memory view the driver uses): every access
// is immediate, with no timing and no AXI traffic. Multi-byte words are little endian.
// An access that would run past address 0xFFFFFFFF throws std::out_of_range (no silent
// wrap-around).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>

#include "tessera/sim/axi.hpp"

namespace tessera::sim {

class SparseMemory {
 public:
  static constexpr std::uint32_t kPageBytes = 4096;
  static constexpr std::uint64_t kSpaceBytes = 1ULL << 32;

  // Bytes.
  void read(std::uint32_t addr, std::span<std::uint8_t> out) const;
  void write(std::uint32_t addr, std::span<const std::uint8_t> in);
  void fill(std::uint32_t addr, std::uint64_t size, std::uint8_t value);

  // Little-endian words (any alignment).
  std::uint8_t read8(std::uint32_t addr) const;
  std::uint16_t read16(std::uint32_t addr) const;
  std::uint32_t read32(std::uint32_t addr) const;
  std::uint64_t read64(std::uint32_t addr) const;
  void write8(std::uint32_t addr, std::uint8_t v);
  void write16(std::uint32_t addr, std::uint16_t v);
  void write32(std::uint32_t addr, std::uint32_t v);
  void write64(std::uint32_t addr, std::uint64_t v);

  // 64-byte lines: addr is rounded down to the line. write_line writes byte i only where
  // bit i of strb is set.
  AxiData read_line(std::uint32_t addr) const;
  void write_line(std::uint32_t addr, const AxiData& data, std::uint64_t strb = ~0ULL);

  // Pages allocated so far (each 4 KiB) and all of them dropped (memory reads as zero).
  std::size_t pages_allocated() const { return pages_.size(); }
  void clear() { pages_.clear(); }

 private:
  using Page = std::array<std::uint8_t, kPageBytes>;
  const Page* find(std::uint32_t page) const;
  Page& touch(std::uint32_t page);
  static void check_range(std::uint32_t addr, std::uint64_t size);

  std::unordered_map<std::uint32_t, std::unique_ptr<Page>> pages_;
};

}  // namespace tessera::sim
