// SparseMemory: the DRAM model's storage and the host backdoor.
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <vector>

#include "tessera/sim/sparse_memory.hpp"
#include "test_seed.hpp"

using tessera::sim::AxiData;
using tessera::sim::SparseMemory;

// Catches: untouched memory not reading as zero, reads allocating pages (a 4 GiB sweep of
// reads would exhaust the host), writes at the very first and very last line of the space
// failing or aliasing each other.
TEST(SparseMemory, ZeroFilledLazyAndBothEnds) {
  SparseMemory m;
  EXPECT_EQ(m.read32(0), 0U);
  EXPECT_EQ(m.read64(0xFFFFFFF8U), 0U);
  EXPECT_EQ(m.read_line(0x12345678U), AxiData{});
  EXPECT_EQ(m.pages_allocated(), 0U) << "reads must not allocate pages";
  AxiData a{}, b{};
  for (unsigned i = 0; i < 64; ++i) {
    a[i] = static_cast<std::uint8_t>(i + 1);
    b[i] = static_cast<std::uint8_t>(0xFF - i);
  }
  m.write_line(0, a);
  m.write_line(0xFFFFFFC0U, b);
  EXPECT_EQ(m.read_line(0), a);
  EXPECT_EQ(m.read_line(0xFFFFFFC0U), b);
  EXPECT_EQ(m.read_line(0xFFFFFFFFU), b) << "read_line rounds down to the line";
  EXPECT_EQ(m.read8(0xFFFFFFFFU), 0xC0);
  EXPECT_EQ(m.pages_allocated(), 2U);
  // Neighbouring bytes in the same page were zero-filled on first touch.
  EXPECT_EQ(m.read32(0x40), 0U);
  EXPECT_EQ(m.read32(0xFFFFFF00U), 0U);
}

// Catches: wrong byte order of the word accessors, unaligned words across a page boundary
// split wrongly, strobed line writes touching unstrobed bytes.
TEST(SparseMemory, WordsEndianPagesAndStrobes) {
  SparseMemory m;
  m.write32(0x1000, 0x11223344U);
  EXPECT_EQ(m.read8(0x1000), 0x44);
  EXPECT_EQ(m.read8(0x1003), 0x11);
  EXPECT_EQ(m.read16(0x1001), 0x2233);
  m.write64(0x1FFC, 0x8877665544332211ULL);  // straddles pages 1 and 2
  EXPECT_EQ(m.read64(0x1FFC), 0x8877665544332211ULL);
  EXPECT_EQ(m.read32(0x2000), 0x88776655U);
  EXPECT_EQ(m.pages_allocated(), 2U);
  AxiData d{};
  d.fill(0xAB);
  m.write_line(0x3000, d, 0x8000000000000001ULL);
  EXPECT_EQ(m.read8(0x3000), 0xAB);
  EXPECT_EQ(m.read8(0x3001), 0x00);
  EXPECT_EQ(m.read8(0x303F), 0xAB);
  m.fill(0x4000, 0x2000, 0x5A);
  EXPECT_EQ(m.read8(0x4000), 0x5A);
  EXPECT_EQ(m.read8(0x5FFF), 0x5A);
  EXPECT_EQ(m.read8(0x6000), 0x00);
  const std::size_t pages = m.pages_allocated();
  m.fill(0x100000, 0x10000, 0);  // zero fill of untouched pages allocates nothing
  EXPECT_EQ(m.pages_allocated(), pages);
}

// Catches: an access that runs past 0xFFFFFFFF silently wrapping to address 0.
TEST(SparseMemory, RunningPastTheTopThrows) {
  SparseMemory m;
  std::vector<std::uint8_t> buf(8);
  EXPECT_THROW(m.read(0xFFFFFFFCU, buf), std::out_of_range);
  EXPECT_THROW(m.write(0xFFFFFFFCU, buf), std::out_of_range);
  EXPECT_THROW(m.write64(0xFFFFFFFCU, 1), std::out_of_range);
  EXPECT_NO_THROW(m.write32(0xFFFFFFFCU, 0xCAFEF00DU));
  EXPECT_EQ(m.read32(0xFFFFFFFCU), 0xCAFEF00DU);
  EXPECT_EQ(m.read32(0), 0U);
}

// Random byte ranges at random addresses (hot pages and the whole space) against a byte map.
// Catches: page-crossing copy bugs, offsets within a page, stale data after overwrite.
TEST(SparseMemory, RandomAgainstByteMap) {
  auto rng = tessera::sim::test::test_rng();
  SparseMemory m;
  std::map<std::uint32_t, std::uint8_t> ref;
  auto rnd = [&](std::uint64_t lo, std::uint64_t hi) { return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng); };
  for (int i = 0; i < 3000; ++i) {
    const bool hot = rnd(0, 1) == 0;
    const std::uint32_t len = static_cast<std::uint32_t>(rnd(1, 300));
    const std::uint32_t addr = static_cast<std::uint32_t>(hot ? rnd(0, 0x3000) : rnd(0, 0xFFFFFFFFULL - len));
    std::vector<std::uint8_t> buf(len);
    if (rnd(0, 2) != 0) {
      for (auto& b : buf) b = static_cast<std::uint8_t>(rnd(0, 255));
      m.write(addr, buf);
      for (std::uint32_t k = 0; k < len; ++k) ref[addr + k] = buf[k];
    } else {
      m.read(addr, buf);
      for (std::uint32_t k = 0; k < len; ++k) {
        auto it = ref.find(addr + k);
        ASSERT_EQ(buf[k], it == ref.end() ? 0 : it->second) << "byte 0x" << std::hex << addr + k;
      }
    }
  }
  for (const auto& [a, v] : ref) ASSERT_EQ(m.read8(a), v);
}
