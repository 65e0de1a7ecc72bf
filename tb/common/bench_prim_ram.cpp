// Bench for the memory wrappers: prim_ram_1p (single port) and prim_ram_2p (1 read + 1 write
// port), configurations prim_ram_1p_d64 / prim_ram_2p_d64 (DEPTH=64, WIDTH and mask
// granularity below).
//
// Reference model, from the module headers: a std::vector of words plus, per word, which
// bits have been written (contents start random, so unwritten bits are not compared).
// Synchronous read: rdata_o shows the word one cycle after the read, rvalid_o is high for
// exactly that cycle, and rdata_o holds until the next read. Writes change only the bit
// groups whose wmask_i bit is set. 1p: a write cycle leaves rdata_o alone. 2p: a read and a
// write of the same address in one cycle return the OLD contents (read-first).
#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "Vprim_ram_1p_d64.h"
#include "Vprim_ram_2p_d64.h"
#include "prim_tb.hpp"
#include "tb/test.hpp"

using tb::RisingEdge;
using tb::Task;

namespace {

// Must match prim_ram_1p_d64 / prim_ram_2p_d64 in rtl/common/CMakeLists.txt.
constexpr unsigned kDepth = 64;
constexpr unsigned kWidth = 32;
constexpr unsigned kBitsPerMask = 8;
constexpr unsigned kMaskW = kWidth / kBitsPerMask;
constexpr std::uint64_t kWordMask = kWidth >= 64 ? ~0ULL : (1ULL << kWidth) - 1;
constexpr std::uint64_t kAllMask = (1ULL << kMaskW) - 1;

// A word whose bits are known only where `known` is set.
struct Word {
  std::uint64_t val = 0;
  std::uint64_t known = 0;
};

class MemModel {
 public:
  MemModel() : mem_(kDepth) {}
  Word read(unsigned addr) const { return mem_.at(addr); }
  void write(unsigned addr, std::uint64_t data, std::uint64_t mask) {
    Word& w = mem_.at(addr);
    for (unsigned m = 0; m < kMaskW; ++m) {
      if (!((mask >> m) & 1U)) continue;
      const std::uint64_t bits = (kBitsPerMask >= 64 ? ~0ULL : ((1ULL << kBitsPerMask) - 1)) << (m * kBitsPerMask);
      w.val = (w.val & ~bits) | (data & bits);
      w.known |= bits;
    }
  }

 private:
  std::vector<Word> mem_;
};

// Compare the DUT's rdata_o with a partially known word.
template <class Where>
void check_rdata(std::uint64_t got, const Word& want, const Where& where) {
  const std::uint64_t diff = (got ^ want.val) & want.known & kWordMask;
  if (diff)
    tb::fail(fmt::format("{}: rdata_o={:#010x}, expected {:#010x} in the known bits {:#010x} (wrong bits {:#010x})",
                         where(), got, want.val, want.known, diff));
}

// Random data and masks; addresses mostly from a small hot set so that reads hit recent
// writes (and, for 2p, collide with a write in the same cycle).
struct AddrGen {
  std::vector<unsigned> hot;
  AddrGen() {
    for (int i = 0; i < 6; ++i) hot.push_back(static_cast<unsigned>(tb::randint(0, kDepth - 1)));
    hot.push_back(0);
    hot.push_back(kDepth - 1);
  }
  unsigned next() {
    return tb::chance(0.6) ? hot[tb::randint(0, hot.size() - 1)] : static_cast<unsigned>(tb::randint(0, kDepth - 1));
  }
};
std::uint64_t random_mask() {
  const double r = std::uniform_real_distribution<double>(0, 1)(tb::rng());
  if (r < 0.4) return kAllMask;
  if (r < 0.45) return 0;
  return tb::randint(0, kAllMask);
}

// ---------------------------------------------------------------------------------------
// prim_ram_1p

struct In1p {
  bool req = false, we = false;
  unsigned addr = 0;
  std::uint64_t wdata = 0, wmask = 0;
};

class Ram1pBench {
 public:
  explicit Ram1pBench(tb::Dut<Vprim_ram_1p_d64>& dut) : dut_(dut) {}
  Task<> reset() {
    co_await primtb::clock_and_reset(dut_, [this] { apply(In1p{}); });
  }
  // One cycle with `in`; checks rvalid_o every cycle and rdata_o (known bits) every cycle:
  // it must show the last read's word whether or not rvalid_o is high.
  Task<std::uint64_t> cycle(In1p in) {
    tb::defer([this, in] { apply(in); });
    co_await RisingEdge(dut_->clk_i);
    auto where = [&] {
      return fmt::format("1p cycle {} ({:.0f} ns, req={} we={} addr={} wmask={:#x})", cycle_, tb::get_sim_time(),
                         in.req, in.we, in.addr, in.wmask);
    };
    if (dut_->rvalid_o != rvalid_)
      tb::fail(fmt::format("{}: rvalid_o={}, expected {}", where(), dut_->rvalid_o, rvalid_));
    const std::uint64_t rdata = dut_->rdata_o;
    check_rdata(rdata, rdata_, where);
    cov_.hit("read of a fully written word", rvalid_ && (rdata_.known & kWordMask) == kWordMask);
    cov_.hit("read word held after a write cycle", !rvalid_ && prev_write_ && rdata_.known != 0);
    cov_.hit("partial write", in.req && in.we && in.wmask != kAllMask && in.wmask != 0);
    cov_.hit("back-to-back reads", rvalid_ && in.req && !in.we);
    // The edge.
    prev_write_ = in.req && in.we;
    if (in.req && in.we) mem_.write(in.addr, in.wdata, in.wmask);
    if (in.req && !in.we) rdata_ = mem_.read(in.addr);
    rvalid_ = in.req && !in.we;
    ++cycle_;
    co_return rdata;
  }
  primtb::Coverage& coverage() { return cov_; }

 private:
  void apply(const In1p& in) {
    dut_->req_i = in.req;
    dut_->we_i = in.we;
    dut_->addr_i = in.addr;
    dut_->wdata_i = static_cast<std::uint32_t>(in.wdata);
    dut_->wmask_i = in.wmask;
  }
  tb::Dut<Vprim_ram_1p_d64>& dut_;
  MemModel mem_;
  Word rdata_;  // unknown until the first read
  bool rvalid_ = false;
  bool prev_write_ = false;
  std::uint64_t cycle_ = 0;
  primtb::Coverage cov_;
};

// ---------------------------------------------------------------------------------------
// prim_ram_2p

struct In2p {
  bool we = false;
  unsigned waddr = 0;
  std::uint64_t wdata = 0, wmask = 0;
  bool re = false;
  unsigned raddr = 0;
};

class Ram2pBench {
 public:
  explicit Ram2pBench(tb::Dut<Vprim_ram_2p_d64>& dut) : dut_(dut) {}
  Task<> reset() {
    co_await primtb::clock_and_reset(dut_, [this] { apply(In2p{}); });
  }
  Task<std::uint64_t> cycle(In2p in) {
    tb::defer([this, in] { apply(in); });
    co_await RisingEdge(dut_->clk_i);
    auto where = [&] {
      return fmt::format("2p cycle {} ({:.0f} ns, we={} waddr={} wmask={:#x} re={} raddr={})", cycle_,
                         tb::get_sim_time(), in.we, in.waddr, in.wmask, in.re, in.raddr);
    };
    if (dut_->rvalid_o != rvalid_)
      tb::fail(fmt::format("{}: rvalid_o={}, expected {}", where(), dut_->rvalid_o, rvalid_));
    const std::uint64_t rdata = dut_->rdata_o;
    check_rdata(rdata, rdata_, where);
    const bool collide = in.re && in.we && in.raddr == in.waddr && in.wmask != 0;
    cov_.hit("read and write of one address in one cycle", collide);
    cov_.hit("collision where old and new data differ",
             collide && ((mem_.read(in.raddr).val ^ in.wdata) & mem_.read(in.raddr).known) != 0);
    cov_.hit("read and write of different addresses in one cycle", in.re && in.we && in.raddr != in.waddr);
    cov_.hit("partial write", in.we && in.wmask != kAllMask && in.wmask != 0);
    cov_.hit("read of a fully written word", rvalid_ && (rdata_.known & kWordMask) == kWordMask);
    cov_.hit("rdata held with re low", !rvalid_ && rdata_.known != 0);
    // The edge: read first (old contents), then the write.
    if (in.re) rdata_ = mem_.read(in.raddr);
    if (in.we) mem_.write(in.waddr, in.wdata, in.wmask);
    rvalid_ = in.re;
    ++cycle_;
    co_return rdata;
  }
  primtb::Coverage& coverage() { return cov_; }

 private:
  void apply(const In2p& in) {
    dut_->we_i = in.we;
    dut_->waddr_i = in.waddr;
    dut_->wdata_i = static_cast<std::uint32_t>(in.wdata);
    dut_->wmask_i = in.wmask;
    dut_->re_i = in.re;
    dut_->raddr_i = in.raddr;
  }
  tb::Dut<Vprim_ram_2p_d64>& dut_;
  MemModel mem_;
  Word rdata_;
  bool rvalid_ = false;
  std::uint64_t cycle_ = 0;
  primtb::Coverage cov_;
};

}  // namespace

// Random reads and writes (hot addresses, random byte masks, idle cycles) against the model.
// Catches: wrong read latency, rvalid_o not exactly one cycle per read, rdata_o not holding
// between reads or changing in a write cycle, byte enables writing the wrong lanes or all
// lanes, address decode errors (first/last word), writes lost or landing on a neighbour.
TB_TEST(Vprim_ram_1p_d64, ram1p_random_vs_model) {
  Ram1pBench b(dut);
  co_await b.reset();
  AddrGen ag;
  const std::uint64_t cycles = tb::scaled(100000, 2000000);
  for (std::uint64_t c = 0; c < cycles; ++c) {
    In1p in;
    in.req = tb::chance(0.8);
    in.we = tb::chance(c < 500 ? 0.8 : 0.45);
    in.addr = ag.next();
    in.wdata = tb::randint(0, kWordMask);
    in.wmask = random_mask();
    co_await b.cycle(in);
  }
  auto& cov = b.coverage();
  dut.log().info("{} cycles; {}", cycles, cov.report());
  for (const char* what :
       {"read of a fully written word", "read word held after a write cycle", "partial write", "back-to-back reads"})
    cov.require(what, 200);
}

// Directed: write and read back every address, byte-enable lanes, rdata_o hold.
// Catches: aliasing between addresses (every word carries its own address), a byte enable
// mapped to the wrong lane, a zero mask still writing, rdata_o disturbed by a write cycle
// or by idle cycles.
TB_TEST(Vprim_ram_1p_d64, ram1p_directed) {
  Ram1pBench b(dut);
  co_await b.reset();
  auto pattern = [](unsigned a) { return (0x9E3779B9ULL * (a + 1)) & kWordMask; };
  for (unsigned a = 0; a < kDepth; ++a)
    co_await b.cycle({.req = true, .we = true, .addr = a, .wdata = pattern(a), .wmask = kAllMask});
  for (unsigned a = 0; a <= kDepth; ++a) {
    // Back-to-back reads: the word of address a-1 arrives while address a is requested.
    const std::uint64_t r = co_await b.cycle({.req = a < kDepth, .addr = a % kDepth});
    if (a > 0) primtb::check(r == pattern(a - 1), "address {} reads {:#x}, wrote {:#x}", a - 1, r, pattern(a - 1));
  }
  // Byte lanes, one at a time, over a known word.
  const unsigned addr = 17;
  for (unsigned m = 0; m < kMaskW; ++m) {
    co_await b.cycle({.req = true, .we = true, .addr = addr, .wdata = 0, .wmask = kAllMask});
    co_await b.cycle({.req = true, .we = true, .addr = addr, .wdata = kWordMask, .wmask = 1ULL << m});
    co_await b.cycle({.req = true, .addr = addr});
    const std::uint64_t r = co_await b.cycle({});
    const std::uint64_t lane = ((1ULL << kBitsPerMask) - 1) << (m * kBitsPerMask);
    primtb::check(r == lane, "wmask_i bit {} alone must set exactly bits {:#x}, the word reads {:#x}", m, lane, r);
  }
  co_await b.cycle({.req = true, .we = true, .addr = addr, .wdata = 0x5A5A5A5A & kWordMask, .wmask = 0});
  co_await b.cycle({.req = true, .addr = addr});
  std::uint64_t r = co_await b.cycle({});
  const std::uint64_t held = r;
  tb::check(r == ((1ULL << kBitsPerMask) - 1) << ((kMaskW - 1) * kBitsPerMask),
            "a write with wmask_i = 0 must change nothing");
  // rdata_o holds through a write cycle (to the same address) and idle cycles.
  r = co_await b.cycle({.req = true, .we = true, .addr = addr, .wdata = 0x12345678 & kWordMask, .wmask = kAllMask});
  tb::check(r == held, "rdata_o unchanged during a write cycle");
  for (int i = 0; i < 3; ++i) {
    r = co_await b.cycle({});
    tb::check(r == held, "rdata_o keeps the last read word through a write cycle and idle cycles");
  }
}

// Random traffic on both ports, many same-address read/write pairs.
// Catches: write-first (transparent) behaviour where read-first is specified, a read port
// that ignores re_i or holds rdata wrongly, wrong byte lanes, lost writes.
TB_TEST(Vprim_ram_2p_d64, ram2p_random_vs_model) {
  Ram2pBench b(dut);
  co_await b.reset();
  AddrGen ag;
  const std::uint64_t cycles = tb::scaled(100000, 2000000);
  for (std::uint64_t c = 0; c < cycles; ++c) {
    In2p in;
    in.we = tb::chance(c < 500 ? 0.9 : 0.6);
    in.waddr = ag.next();
    in.wdata = tb::randint(0, kWordMask);
    in.wmask = random_mask();
    in.re = tb::chance(0.6);
    in.raddr = tb::chance(0.3) ? in.waddr : ag.next();
    co_await b.cycle(in);
  }
  auto& cov = b.coverage();
  dut.log().info("{} cycles; {}", cycles, cov.report());
  for (const char* what : {"read and write of one address in one cycle", "collision where old and new data differ",
                           "read and write of different addresses in one cycle", "partial write",
                           "read of a fully written word", "rdata held with re low"})
    cov.require(what, 200);
}

// Directed read-during-write and lanes on the 2-port RAM.
// Catches: new data returned by a read in the same cycle as the write (the spec says old),
// the write being lost when a read of the same address happens in its cycle, a write to
// another address disturbing the read.
TB_TEST(Vprim_ram_2p_d64, ram2p_read_during_write) {
  Ram2pBench b(dut);
  co_await b.reset();
  co_await b.cycle({.we = true, .waddr = 5, .wdata = 0x11111111 & kWordMask, .wmask = kAllMask});
  co_await b.cycle({.we = true, .waddr = 6, .wdata = 0x66666666 & kWordMask, .wmask = kAllMask});
  // Same address, same cycle: the read returns the old word.
  co_await b.cycle(
      {.we = true, .waddr = 5, .wdata = 0x22222222 & kWordMask, .wmask = kAllMask, .re = true, .raddr = 5});
  std::uint64_t r = co_await b.cycle({.re = true, .raddr = 5});
  primtb::check(r == (0x11111111 & kWordMask),
                "read during write of the same address returned {:#x}, the spec says the old word 0x11111111", r);
  r = co_await b.cycle({.we = true, .waddr = 6, .wdata = 0, .wmask = kAllMask, .re = true, .raddr = 5});
  primtb::check(r == (0x22222222 & kWordMask), "the next read sees the new word, got {:#x}", r);
  r = co_await b.cycle({.re = true, .raddr = 6});
  tb::check(r == (0x22222222 & kWordMask), "a write to another address does not disturb the read in its cycle");
  r = co_await b.cycle({});
  primtb::check(r == 0, "address 6 was cleared, got {:#x}", r);
  // Partial write colliding with a read: old word back, then the merged word.
  co_await b.cycle({.we = true, .waddr = 9, .wdata = 0xAABBCCDD & kWordMask, .wmask = kAllMask});
  co_await b.cycle(
      {.we = true, .waddr = 9, .wdata = 0x11223344 & kWordMask, .wmask = 0b0101 & kAllMask, .re = true, .raddr = 9});
  r = co_await b.cycle({.re = true, .raddr = 9});
  primtb::check(r == (0xAABBCCDD & kWordMask), "partial write + read: old word expected, got {:#x}", r);
  r = co_await b.cycle({});
  if (kBitsPerMask == 8 && kWidth == 32)
    primtb::check(r == 0xAA22CC44, "byte enables 0b0101 merge to 0xaa22cc44, got {:#x}", r);
}
