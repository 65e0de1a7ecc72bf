// elf_image_test -- cp-run's ELF loader (elf_image.hpp) on inputs that are not a cp_core
// program: each must end in an ElfError whose message names the file and what is wrong,
// never in another exception, a crash, a hang or an attempt to read a device to its end.
// CP_CORE_TEST_ELF is a real program (tests/alu.S) that the truncation and corruption cases
// start from.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "elf_image.hpp"

namespace {

namespace fs = std::filesystem;

const std::vector<cprun::Region> kRegions = {
    {"ROM", 0x00000000, 0x4000}, {"DMEM", 0x00010000, 0x4000}, {"SLOW", 0x80000000, 0x1000}};

class ElfImageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("elf_image_test." + std::to_string(::getpid()));
    fs::create_directories(dir_);
    std::ifstream f(CP_CORE_TEST_ELF, std::ios::binary);
    ASSERT_TRUE(f) << CP_CORE_TEST_ELF;
    elf_.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    ASSERT_GT(elf_.size(), 64u);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::vector<char>& bytes) {
    const std::string p = (dir_ / name).string();
    std::ofstream o(p, std::ios::binary | std::ios::trunc);
    o.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return p;
  }
  // The ElfError message of load_elf(path), or "" if it loaded; other exceptions fail.
  static std::string error_of(const std::string& path) {
    try {
      cprun::load_elf(path, kRegions);
    } catch (const cprun::ElfError& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
  std::vector<char> elf_;
};

TEST_F(ElfImageTest, RealProgramLoads) {
  const cprun::ElfImage img = cprun::load_elf(CP_CORE_TEST_ELF, kRegions);
  EXPECT_TRUE(img.symbol("tohost").has_value());
  EXPECT_FALSE(img.words.empty());
}

// A directory opens as a stream on Linux and reads as an error: name it as a directory.
TEST_F(ElfImageTest, DirectoryIsRefusedByName) {
  const std::string msg = error_of(dir_.string());
  EXPECT_EQ(msg, dir_.string() + ": is a directory, not an ELF file");
}

// /dev/zero never ends: reading it whole used to grow a vector until std::bad_alloc.
TEST_F(ElfImageTest, CharacterDeviceIsRefusedWithoutReading) {
  EXPECT_EQ(error_of("/dev/zero"), "/dev/zero: is a character device, not an ELF file");
}

// Opening a FIFO for reading blocks until a writer comes: it must be refused before opening.
TEST_F(ElfImageTest, FifoIsRefusedWithoutOpening) {
  const std::string p = (dir_ / "fifo.elf").string();
  ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0);
  EXPECT_EQ(error_of(p), p + ": is a FIFO, not an ELF file");
}

TEST_F(ElfImageTest, MissingFileIsNamed) {
  const std::string p = (dir_ / "missing.elf").string();
  EXPECT_EQ(error_of(p), p + ": no such file");
}

// A huge (sparse) file is refused by its size, not read into memory.
TEST_F(ElfImageTest, OversizedFileIsRefusedBySize) {
  const std::string p = (dir_ / "huge.elf").string();
  {
    std::ofstream o(p, std::ios::binary);
  }
  fs::resize_file(p, cprun::kMaxElfBytes + 1);
  EXPECT_NE(error_of(p).find("more than the 64 MiB"), std::string::npos) << error_of(p);
}

// Strict prefixes of a real program (an interrupted copy, a truncated download) are refused
// with a message that names the file; the short ones say which header is cut off. Every
// length through the headers and the last 64 bytes (section headers), every 61st between.
TEST_F(ElfImageTest, TruncationsAreRefused) {
  for (std::size_t n = 0; n < elf_.size(); n += (n < 600 || n + 64 >= elf_.size()) ? 1 : 61) {
    const std::string p = write("cut.elf", std::vector<char>(elf_.begin(), elf_.begin() + static_cast<long>(n)));
    const std::string msg = error_of(p);
    ASSERT_FALSE(msg.empty()) << "a " << n << "-byte prefix of " << CP_CORE_TEST_ELF << " loaded";
    ASSERT_EQ(msg.rfind(p + ": ", 0), 0u) << msg;
  }
  EXPECT_EQ(error_of(write("cut.elf", std::vector<char>(elf_.begin(), elf_.begin() + 30))),
            (dir_ / "cut.elf").string() + ": truncated ELF file (ELF header at offset 0x0 needs 52 bytes, file has 30)");
}

// Random corruption of the headers and of any byte: loads or an ElfError, nothing else
// (error_of lets any other exception escape and fail the test; a crash fails it too).
TEST_F(ElfImageTest, CorruptedBytesEndInElfErrorOrLoad) {
  std::mt19937 rng(20240514);
  for (int i = 0; i < 1000; ++i) {
    std::vector<char> b = elf_;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < flips; ++k) {
      // Half of the flips hit the ELF and program headers, where offsets and counts live.
      const std::size_t at = (rng() & 1) ? rng() % std::min<std::size_t>(b.size(), 52 + 4 * 32) : rng() % b.size();
      b[at] = static_cast<char>(rng());
    }
    const std::string p = write("bad.elf", b);
    const std::string msg = error_of(p);
    if (!msg.empty()) {
      ASSERT_EQ(msg.rfind(p + ": ", 0), 0u) << msg;
    }
  }
}

}  // namespace
