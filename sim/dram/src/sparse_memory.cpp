#include "tessera/sim/sparse_memory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace tessera::sim {

void SparseMemory::check_range(std::uint32_t addr, std::uint64_t size) {
  if (static_cast<std::uint64_t>(addr) + size > kSpaceBytes)
    throw std::out_of_range(
        fmt::format("SparseMemory: {} bytes at 0x{:08x} run past the end of the 4 GiB space", size, addr));
}

const SparseMemory::Page* SparseMemory::find(std::uint32_t page) const {
  auto it = pages_.find(page);
  return it == pages_.end() ? nullptr : it->second.get();
}

SparseMemory::Page& SparseMemory::touch(std::uint32_t page) {
  auto& p = pages_[page];
  if (!p) p = std::make_unique<Page>(Page{});  // zero-filled on first touch
  return *p;
}

void SparseMemory::read(std::uint32_t addr, std::span<std::uint8_t> out) const {
  check_range(addr, out.size());
  std::uint64_t a = addr;
  std::size_t done = 0;
  while (done < out.size()) {
    const auto page = static_cast<std::uint32_t>(a / kPageBytes);
    const auto off = static_cast<std::size_t>(a % kPageBytes);
    const std::size_t n = std::min<std::size_t>(kPageBytes - off, out.size() - done);
    if (const Page* p = find(page))
      std::copy_n(p->data() + off, n, out.data() + done);
    else
      std::fill_n(out.data() + done, n, std::uint8_t{0});
    done += n;
    a += n;
  }
}

void SparseMemory::write(std::uint32_t addr, std::span<const std::uint8_t> in) {
  check_range(addr, in.size());
  std::uint64_t a = addr;
  std::size_t done = 0;
  while (done < in.size()) {
    const auto page = static_cast<std::uint32_t>(a / kPageBytes);
    const auto off = static_cast<std::size_t>(a % kPageBytes);
    const std::size_t n = std::min<std::size_t>(kPageBytes - off, in.size() - done);
    std::copy_n(in.data() + done, n, touch(page).data() + off);
    done += n;
    a += n;
  }
}

void SparseMemory::fill(std::uint32_t addr, std::uint64_t size, std::uint8_t value) {
  check_range(addr, size);
  std::uint64_t a = addr;
  const std::uint64_t end = a + size;
  while (a < end) {
    const auto page = static_cast<std::uint32_t>(a / kPageBytes);
    const auto off = static_cast<std::size_t>(a % kPageBytes);
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(kPageBytes - off, end - a));
    if (value != 0 || find(page))  // filling an untouched page with zeros changes nothing
      std::fill_n(touch(page).data() + off, n, value);
    a += n;
  }
}

namespace {
template <class T>
T load_le(const SparseMemory& m, std::uint32_t addr) {
  std::array<std::uint8_t, sizeof(T)> b{};
  m.read(addr, b);
  T v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) v |= static_cast<T>(static_cast<T>(b[i]) << (8 * i));
  return v;
}
template <class T>
void store_le(SparseMemory& m, std::uint32_t addr, T v) {
  std::array<std::uint8_t, sizeof(T)> b{};
  for (std::size_t i = 0; i < sizeof(T); ++i) b[i] = static_cast<std::uint8_t>(v >> (8 * i));
  m.write(addr, b);
}
}  // namespace

std::uint8_t SparseMemory::read8(std::uint32_t addr) const { return load_le<std::uint8_t>(*this, addr); }
std::uint16_t SparseMemory::read16(std::uint32_t addr) const { return load_le<std::uint16_t>(*this, addr); }
std::uint32_t SparseMemory::read32(std::uint32_t addr) const { return load_le<std::uint32_t>(*this, addr); }
std::uint64_t SparseMemory::read64(std::uint32_t addr) const { return load_le<std::uint64_t>(*this, addr); }
void SparseMemory::write8(std::uint32_t addr, std::uint8_t v) { store_le(*this, addr, v); }
void SparseMemory::write16(std::uint32_t addr, std::uint16_t v) { store_le(*this, addr, v); }
void SparseMemory::write32(std::uint32_t addr, std::uint32_t v) { store_le(*this, addr, v); }
void SparseMemory::write64(std::uint32_t addr, std::uint64_t v) { store_le(*this, addr, v); }

AxiData SparseMemory::read_line(std::uint32_t addr) const {
  AxiData d{};
  read(addr & ~(kAxiDataBytes - 1), d);
  return d;
}

void SparseMemory::write_line(std::uint32_t addr, const AxiData& data, std::uint64_t strb) {
  const std::uint32_t base = addr & ~(kAxiDataBytes - 1);
  if (strb == ~0ULL) {
    write(base, data);
    return;
  }
  if (strb == 0) return;
  Page& p = touch(base / kPageBytes);  // a line never straddles a page
  const std::uint32_t off = base % kPageBytes;
  for (unsigned i = 0; i < kAxiDataBytes; ++i)
    if ((strb >> i) & 1U) p[off + i] = data[i];
}

}  // namespace tessera::sim
