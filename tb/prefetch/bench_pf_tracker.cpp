// Bench of the tile prefetcher's address tracker (rtl/prefetch/pf_tracker.sv, docs/prefetcher.md)
// on pf_tracker_default (2 kinds, 4 entries each, 26-bit line addresses).
//
// Scoreboard: PfTrackerModel (sim/prefetch), the C++ reference written from the source's
// figures 6-7, compared with the RTL every cycle: every entry of ranges_o and the untracked
// pulse. Stimulus: READ streams as a tile's texture and target reads look (a few clusters of
// random lines per kind, the source's random order within a texture, some far reads), reads on
// most cycles, random entries in use (k, 0 and above K_MAX included) and windows (0 included),
// loads of saved ranges (a tile coming round again) or of nothing (a fresh tile), some in the
// cycle of a read. Catches: a read extending the wrong entry or none, a window off by one, a
// new entry opened past k or where an entry already covers the read, first/last not min/max,
// a load lost or a read applied before it, an untracked read not reported. The block record
// (blocks_i, switched now and then after an empty load, as pf_top does at RENDERPASS_BEGIN):
// a bit set in the wrong entry or block, a second entry opened for a block already held, a
// target read recorded, an entry opened past 2 x k.
//
// Rerun a test: RANDOM_SEED=<n> TESTCASE=<name> build/tb/prefetch/bench_pf_tracker (WAVES=1
// for an FST). TESSERA_REGRESS=1 makes the random test 10x longer.
#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "Vpf_tracker_default.h"
#include "prim_tb.hpp"
#include "tb/test.hpp"
#include "tessera/sim/pf_tracker_model.hpp"

using tb::RisingEdge;
using tb::Task;
using tessera::sim::PfRange;
using tessera::sim::PfTrackerModel;
using V = Vpf_tracker_default;

namespace {

constexpr unsigned kKinds = 2, kKMax = 4, kLineAw = 26, kEntW = 1 + 2 * kLineAw;
constexpr std::uint32_t kLineMask = (1U << kLineAw) - 1;

std::uint64_t field(const VlWide<(kKinds * kKMax * kEntW + 31) / 32>& w, unsigned lo, unsigned width) {
  std::uint64_t v = 0;
  for (unsigned b = 0; b < width; ++b) v |= std::uint64_t{(w[(lo + b) / 32] >> ((lo + b) % 32)) & 1U} << b;
  return v;
}

class Bench {
 public:
  explicit Bench(tb::Dut<V>& dut) : dut_(dut), model_(kKinds, kKMax) {}

  Task<> reset() {
    co_await primtb::clock_and_reset(dut_, [this] { drive(PfTrackerModel::Inputs{}); });
  }

  // One cycle: the inputs, the RTL against the model, both advance.
  Task<> cycle(const PfTrackerModel::Inputs& in) {
    tb::defer([this, in] { drive(in); });
    co_await RisingEdge(dut_->clk_i);
    // sampled at the edge, before it updates the flops: ranges_o and ev_untracked_o
    // (registered) show the previous cycle's inputs applied
    compare_state();
    primtb::check((dut_->ev_untracked_o & 1U) == prev_untracked_, "cycle {}: ev_untracked_o={} model {}", cycle_,
                  dut_->ev_untracked_o & 1U, prev_untracked_);
    auto valid_of_kind = [&] {
      unsigned n = 0;
      for (unsigned e = 0; e < kKMax; ++e) n += model_.ranges()[in.rd_kind * kKMax + e].valid;
      return n;
    };
    auto blocks_held = [&] {
      unsigned n = 0;
      for (const PfRange& e : model_.ranges()) n += e.bitmap != 0;
      return n;
    };
    const unsigned before = in.load ? 0 : (in.blocks ? blocks_held() : valid_of_kind());
    const bool untracked = model_.clock(in);
    prev_untracked_ = untracked;
    prev_blocks_ = in.blocks;
    if (in.blocks) {
      if (in.rd_valid && in.rd_kind != 0) cov_.hit("target read ignored by the block record");
      else if (in.rd_valid && !untracked)
        cov_.hit(blocks_held() > before && !in.load ? "block read opens an entry" : "block read sets a bit");
      cov_.hit("block read not tracked", untracked);
    } else if (in.rd_valid && !untracked) {
      cov_.hit(valid_of_kind() > before && !in.load ? "read opens an entry" : "read extends an entry");
    }
    if (in.rd_valid) ++reads_;
    untracked_ += untracked;
    cov_.hit("read not tracked", untracked);
    cov_.hit("load and read in one cycle", in.load && in.rd_valid);
    ++cycle_;
  }

  std::uint64_t reads() const { return reads_; }
  std::uint64_t untracked() const { return untracked_; }
  primtb::Coverage& coverage() { return cov_; }
  const PfTrackerModel& model() const { return model_; }

 private:
  void compare_state() {
    const auto& got = dut_->ranges_o;
    for (unsigned i = 0; i < kKinds * kKMax; ++i) {
      if (prev_blocks_) {  // the block record: every bit of the entry
        const std::uint64_t r = field(got, i * kEntW, kEntW), want = model_.ranges()[i].bits(true);
        primtb::check(r == want, "cycle {}: block entry {}: RTL block {:#x} bitmap {:#010x}, model block {:#x} bitmap {:#010x}",
                      cycle_, i, r >> 32, r & 0xffffffffU, want >> 32, want & 0xffffffffU);
        continue;
      }
      PfRange r;
      r.valid = field(got, i * kEntW + kEntW - 1, 1) != 0;
      r.first = static_cast<std::uint32_t>(field(got, i * kEntW + kLineAw, kLineAw));
      r.last = static_cast<std::uint32_t>(field(got, i * kEntW, kLineAw));
      const PfRange& want = model_.ranges()[i];
      primtb::check(r.valid == want.valid && (!r.valid || (r.first == want.first && r.last == want.last)),
                    "cycle {}: kind {} entry {}: RTL {} {:#x}..{:#x}, model {} {:#x}..{:#x}", cycle_, i / kKMax,
                    i % kKMax, r.valid, r.first, r.last, want.valid, want.first, want.last);
    }
  }
  void drive(const PfTrackerModel::Inputs& in) {
    dut_->k_i = in.k;
    dut_->window_i = in.window;
    dut_->blocks_i = in.blocks;
    dut_->load_i = in.load;
    for (unsigned i = 0; i < kKinds * kKMax; ++i) {
      const PfRange r = i < in.load_ranges.size() ? in.load_ranges[i] : PfRange{};
      const std::uint64_t bits = r.bits(in.blocks);
      primtb::set_field(dut_->load_ranges_i, i * kEntW, 32, static_cast<std::uint32_t>(bits));
      primtb::set_field(dut_->load_ranges_i, i * kEntW + 32, kEntW - 32, static_cast<std::uint32_t>(bits >> 32));
    }
    dut_->rd_valid_i = in.rd_valid;
    dut_->rd_kind_i = in.rd_kind;
    dut_->rd_line_i = in.rd_line;
  }

  tb::Dut<V>& dut_;
  PfTrackerModel model_;
  std::uint64_t cycle_ = 0, reads_ = 0, untracked_ = 0;
  bool prev_untracked_ = false, prev_blocks_ = false;
  primtb::Coverage cov_;
};

// A tile's saved blocks (the block record): distinct blocks, some entries empty.
std::vector<PfRange> random_blocks() {
  std::vector<PfRange> r(kKinds * kKMax);
  auto block = static_cast<std::uint32_t>(tb::randint(0, (kLineMask >> 5) - 64));
  for (unsigned i = 0; i < r.size(); ++i) {
    block += static_cast<std::uint32_t>(tb::randint(1, 7));
    if (!tb::chance(0.6)) continue;
    r[i].block = block;
    r[i].bitmap = static_cast<std::uint32_t>(tb::randint(1, 0xffffffff));
  }
  return r;
}

// A tile's saved ranges: ordered, some entries invalid.
std::vector<PfRange> random_ranges() {
  std::vector<PfRange> r(kKinds * kKMax);
  for (PfRange& e : r) {
    if (!tb::chance(0.6)) continue;
    const auto a = static_cast<std::uint32_t>(tb::randint(0, kLineMask));
    const auto b = std::min<std::uint64_t>(kLineMask, a + static_cast<std::uint64_t>(tb::randint(0, 40)));
    e = PfRange{true, a, static_cast<std::uint32_t>(b)};
  }
  return r;
}

TB_TEST(Vpf_tracker_default, random_tiles) {
  Bench b(dut);
  co_await b.reset();
  PfTrackerModel::Inputs in;
  in.k = kKMax;
  std::vector<std::uint32_t> clusters;  // per kind, a few textures' (or target rows') base lines
  unsigned per_kind = 1;
  auto new_tile = [&] {
    clusters.clear();
    per_kind = static_cast<unsigned>(tb::randint(1, kKMax + 1));  // sometimes more than the entries
    for (unsigned i = 0; i < kKinds * per_kind; ++i) {
      // near the ends of memory now and then: the widened range must not wrap
      const bool edge = tb::chance(0.05);
      clusters.push_back(edge ? (tb::chance(0.5) ? 0U : kLineMask - static_cast<std::uint32_t>(tb::randint(0, 20)))
                              : static_cast<std::uint32_t>(tb::randint(0, kLineMask)));
    }
  };
  new_tile();
  const auto n = static_cast<std::uint64_t>(tb::scaled(40000, 400000));
  for (std::uint64_t c = 0; c < n; ++c) {
    in.load = false;
    if (tb::chance(0.0005)) {
      // the other record format: the tracker emptied first (pf_top loads it at RENDERPASS_BEGIN,
      // a cycle before the new format is latched)
      in.load = true;
      in.load_ranges.assign(kKinds * kKMax, PfRange{});
      in.rd_valid = false;
      co_await b.cycle(in);
      in.blocks = !in.blocks;
      in.load = false;
    }
    if (tb::chance(0.002)) {  // the next tile: its saved ranges, or nothing
      in.load = true;
      in.load_ranges = !tb::chance(0.5) ? std::vector<PfRange>(kKinds * kKMax)
                       : in.blocks      ? random_blocks()
                                        : random_ranges();
      new_tile();
    }
    if (tb::chance(0.003)) in.k = static_cast<unsigned>(tb::randint(0, kKMax + 2));
    if (tb::chance(0.003)) in.window = static_cast<std::uint32_t>(tb::chance(0.1) ? 0 : tb::randint(2, 16));
    in.rd_valid = tb::chance(0.8);
    in.rd_kind = static_cast<unsigned>(tb::randint(0, kKinds - 1));
    const std::uint32_t base = clusters[in.rd_kind * per_kind + static_cast<unsigned>(tb::randint(0, per_kind - 1))];
    const auto off = static_cast<std::int64_t>(tb::randint(0, 24)) - 4;
    std::int64_t line = tb::chance(0.01) ? tb::randint(0, kLineMask) : static_cast<std::int64_t>(base) + off;
    line = std::clamp<std::int64_t>(line, 0, kLineMask);
    in.rd_line = static_cast<std::uint32_t>(line);
    co_await b.cycle(in);
  }
  auto& cov = b.coverage();
  dut.log().info("{} cycles, {} reads, {} not tracked; {}", n, b.reads(), b.untracked(), cov.report());
  cov.require("read not tracked");
  cov.require("read opens an entry");
  cov.require("read extends an entry");
  cov.require("load and read in one cycle");
  for (const char* c : {"block read opens an entry", "block read sets a bit", "block read not tracked",
                        "target read ignored by the block record"})
    cov.require(c);
}

// The block record by hand: texel reads in two blocks fill two entries' bitmaps in any order, a
// target read is not recorded, and with k = 1 (two entries) a third block is not tracked.
TB_TEST(Vpf_tracker_default, block_record) {
  Bench b(dut);
  co_await b.reset();
  PfTrackerModel::Inputs in;
  in.k = 1;
  in.blocks = true;
  in.load = true;
  in.load_ranges.assign(kKinds * kKMax, PfRange{});
  co_await b.cycle(in);
  in.load = false;
  in.rd_valid = true;
  for (std::uint32_t line : {0x1005U, 0x1000U, 0x101fU, 0x1020U, 0x1005U, 0x1021U}) {
    in.rd_kind = 0;
    in.rd_line = line;
    co_await b.cycle(in);
  }
  in.rd_kind = 1;  // a target read: not recorded
  in.rd_line = 0x2000U;
  co_await b.cycle(in);
  in.rd_kind = 0;  // a third block with two entries in use: not tracked
  in.rd_line = 0x3000U;
  co_await b.cycle(in);
  in.rd_valid = false;
  co_await b.cycle(in);
  const auto& r = b.model().ranges();
  primtb::check(r[0].block == 0x80U && r[0].bitmap == 0x8000'0021U, "entry 0: block {:#x} bitmap {:#x}, expected 0x80 0x80000021",
                r[0].block, r[0].bitmap);
  primtb::check(r[1].block == 0x81U && r[1].bitmap == 0x3U, "entry 1: block {:#x} bitmap {:#x}, expected 0x81 0x3", r[1].block,
                r[1].bitmap);
  for (unsigned i = 2; i < kKinds * kKMax; ++i) primtb::check(r[i].bitmap == 0, "entry {} must stay empty", i);
  primtb::check(b.untracked() == 1, "{} reads not tracked, expected 1 (the third block)", b.untracked());
}

// The source's worked example (figure 7): texture reads at random inside 0x0800_0000 ..
// 0x0800_01b0 give start 0x0800_0000 and last 0x0800_01b0 (lines 0x20_0000 .. 0x20_0006),
// one entry; a read far away opens the second.
TB_TEST(Vpf_tracker_default, source_example) {
  Bench b(dut);
  co_await b.reset();
  PfTrackerModel::Inputs in;
  in.k = 2;
  in.window = 0x200 / 64;
  in.load = true;
  in.load_ranges.assign(kKinds * kKMax, PfRange{});
  co_await b.cycle(in);
  in.load = false;
  for (std::uint32_t a : {0x0800'0100U, 0x0800'0040U, 0x0800'01b0U, 0x0800'0000U, 0x0800'0080U}) {
    in.rd_valid = true;
    in.rd_kind = 0;
    in.rd_line = a >> 6;
    co_await b.cycle(in);
  }
  in.rd_line = 0x0900'0000U >> 6;
  co_await b.cycle(in);
  in.rd_valid = false;
  co_await b.cycle(in);
  const auto& r = b.model().ranges();
  primtb::check(r[0].valid && r[0].first == 0x0800'0000U >> 6 && r[0].last == 0x0800'01b0U >> 6,
                "entry 0: {:#x}..{:#x}, expected lines 0x200000..0x200006", r[0].first, r[0].last);
  primtb::check(r[1].valid && r[1].first == 0x0900'0000U >> 6, "the far read must open entry 1");
}

}  // namespace
