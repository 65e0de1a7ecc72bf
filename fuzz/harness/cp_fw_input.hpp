// The input layout of fuzz_cp_fw (cp_fw_fuzzer.cpp describes it), shared with the seed writer.
#pragma once

#include <cstdint>
#include <vector>

namespace tessera::fuzz::cp_fw_input {

inline constexpr uint32_t kHeaderBytes = 9;
inline constexpr uint32_t kImageBase = 0x1000;                 // the memory image
inline constexpr uint32_t kRingBase[2] = {0x10000, 0x20000};   // 64 KiB apart
// MEM_LIMIT choices: the fake captures an IB's dwords when the IB starts, so an IB costs up to
// MEM_LIMIT / 4 dwords of work at once; with gigabytes one input takes seconds. Rings over
// 2^14 dwords reach past the small limits (fetch errors) and fit the 1 MiB one.
inline constexpr uint32_t kMemLimits[4] = {0x30000, 0x2ffc0, 0x30040, 0x100000};

// Flags of byte 1.
inline constexpr uint8_t kQueue1 = 0x01, kOneHwQueue = 0x02, kSmallSlcQueue = 0x10, kSlowPipe = 0x20,
                         kRecover = 0x40, kPause = 0x80;
inline constexpr uint8_t mem_limit_choice(unsigned i) { return static_cast<uint8_t>((i & 3) << 2); }

struct Input {
  uint8_t ring_cfg = 2;  // log2 6 (64 dwords)
  uint8_t flags = kQueue1;
  uint8_t start = 0;
  uint8_t chunk = 0;
  uint8_t bad_line = 0;
  std::vector<uint32_t> stream[2];
  std::vector<uint32_t> image;

  std::vector<uint8_t> bytes() const {
    std::vector<uint8_t> b{ring_cfg, flags, start, chunk, bad_line,
                           static_cast<uint8_t>(stream[0].size()), static_cast<uint8_t>(stream[0].size() >> 8),
                           static_cast<uint8_t>(stream[1].size()), static_cast<uint8_t>(stream[1].size() >> 8)};
    auto put = [&](const std::vector<uint32_t>& v) {
      for (uint32_t d : v)
        for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(d >> (8 * i)));
    };
    put(stream[0]);
    put(stream[1]);
    put(image);
    return b;
  }
};

}  // namespace tessera::fuzz::cp_fw_input
