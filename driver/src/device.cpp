#include "tessera/driver/device.hpp"

#include <array>
#include <vector>

namespace tessera::driver {

uint32_t Device::read_mem32(uint32_t addr) {
  std::array<uint8_t, 4> b{};
  read_mem(addr, b);
  return static_cast<uint32_t>(b[0]) | static_cast<uint32_t>(b[1]) << 8 | static_cast<uint32_t>(b[2]) << 16 |
         static_cast<uint32_t>(b[3]) << 24;
}

void Device::write_mem32(uint32_t addr, uint32_t v) {
  const std::array<uint8_t, 4> b{static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8), static_cast<uint8_t>(v >> 16),
                                 static_cast<uint8_t>(v >> 24)};
  write_mem(addr, b);
}

void Device::write_dwords(uint32_t addr, std::span<const uint32_t> dwords) {
  std::vector<uint8_t> b(dwords.size() * 4);
  for (std::size_t i = 0; i < dwords.size(); ++i)
    for (unsigned k = 0; k < 4; ++k) b[4 * i + k] = static_cast<uint8_t>(dwords[i] >> (8 * k));
  write_mem(addr, b);
}

void Device::read_dwords(uint32_t addr, std::span<uint32_t> dwords) {
  std::vector<uint8_t> b(dwords.size() * 4);
  read_mem(addr, b);
  for (std::size_t i = 0; i < dwords.size(); ++i)
    dwords[i] = static_cast<uint32_t>(b[4 * i]) | static_cast<uint32_t>(b[4 * i + 1]) << 8 |
                static_cast<uint32_t>(b[4 * i + 2]) << 16 | static_cast<uint32_t>(b[4 * i + 3]) << 24;
}

}  // namespace tessera::driver
