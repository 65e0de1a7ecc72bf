// PfTrackerModel -- the C++ reference of the tile prefetcher's address tracker
// (rtl/prefetch/pf_tracker.sv; docs/prefetcher.md), written from the source's figures 6-7 and
// ARCHITECTURE.md 5.7, cycle for cycle with the RTL: the state after clock() is what the RTL's
// ranges_o shows in the next cycle.
//
// The block record (Inputs::blocks, GEOM.PF_RECORD BLOCKS; docs/prefetcher.md "Block record"):
// only texture reads (kind 0) are recorded, in all kinds x k_max entries, each an aligned block
// of 32 lines (the line address without its low 5 bits) with a bitmap of the lines read.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace tessera::sim {

// One entry of a tracker or history line: a range {valid, first, last} (the RANGES record), or
// a block with its bitmap (the BLOCKS record: valid when the bitmap is not 0).
struct PfRange {
  bool valid = false;
  std::uint32_t first = 0, last = 0;  // 64-byte line addresses
  std::uint32_t block = 0, bitmap = 0;  // the block record: lines block*32 + b, b a set bit
  bool operator==(const PfRange&) const = default;

  static constexpr unsigned kLineAw = 26, kEntW = 1 + 2 * kLineAw, kBlockW = kLineAw - 5;
  bool held(bool blocks) const { return blocks ? bitmap != 0 : valid; }
  // The entry's 53 bits (spec/layouts.yaml pf_history_line.ranges) in the given format.
  std::uint64_t bits(bool blocks) const {
    constexpr std::uint64_t lm = (1ULL << kLineAw) - 1, bm = (1ULL << kBlockW) - 1;
    if (blocks) return ((block & bm) << 32) | bitmap;
    return (std::uint64_t{valid} << (kEntW - 1)) | ((first & lm) << kLineAw) | (last & lm);
  }
  static PfRange from_bits(std::uint64_t v, bool blocks) {
    constexpr std::uint64_t lm = (1ULL << kLineAw) - 1, bm = (1ULL << kBlockW) - 1;
    PfRange r;
    if (blocks) {
      r.block = static_cast<std::uint32_t>((v >> 32) & bm);
      r.bitmap = static_cast<std::uint32_t>(v);
    } else {
      r.valid = ((v >> (kEntW - 1)) & 1U) != 0;
      r.first = static_cast<std::uint32_t>((v >> kLineAw) & lm);
      r.last = static_cast<std::uint32_t>(v & lm);
    }
    return r;
  }
};

class PfTrackerModel {
 public:
  PfTrackerModel(unsigned kinds, unsigned k_max) : kinds_(kinds), k_max_(k_max), st_(kinds * k_max) {}

  struct Inputs {
    unsigned k = 1;           // entries per kind in use (0 acts as 1, above k_max as k_max)
    std::uint32_t window = 8; // lines
    bool blocks = false;      // the block record
    bool load = false;
    std::vector<PfRange> load_ranges;  // kinds * k_max, kind-major
    bool rd_valid = false;
    unsigned rd_kind = 0;
    std::uint32_t rd_line = 0;
  };

  // One clock: returns whether the read was not tracked (the RTL's ev_untracked_o in the next
  // cycle, registered like the state).
  bool clock(const Inputs& in) {
    std::vector<PfRange> st = in.load ? in.load_ranges : st_;
    bool untracked = false;
    if (in.blocks) {
      // the block record: texture reads only; the block's entry (any), else the lowest free one
      // among the first kinds x k
      if (in.rd_valid && in.rd_kind == 0) {
        const unsigned k = in.k == 0 ? 1 : (in.k > k_max_ ? k_max_ : in.k);
        const std::uint32_t blk = in.rd_line >> 5, bit = 1U << (in.rd_line & 31);
        PfRange* hit = nullptr;
        for (auto& e : st)
          if (!hit && e.bitmap != 0 && e.block == blk) hit = &e;
        if (hit) {
          hit->bitmap |= bit;
        } else {
          PfRange* free = nullptr;
          for (unsigned e = 0; e < kinds_ * k && !free; ++e)
            if (st[e].bitmap == 0) free = &st[e];
          if (free) *free = PfRange{false, 0, 0, blk, bit};
          else untracked = true;
        }
      }
    } else if (in.rd_valid) {
      const unsigned k = in.k == 0 ? 1 : (in.k > k_max_ ? k_max_ : in.k);
      PfRange* kind = &st[in.rd_kind * k_max_];
      const std::uint64_t l = in.rd_line, w = in.window;
      PfRange* hit = nullptr;
      for (unsigned e = 0; e < k_max_ && !hit; ++e)
        if (kind[e].valid && l + w >= kind[e].first && l <= std::uint64_t{kind[e].last} + w) hit = &kind[e];
      if (hit) {
        hit->first = std::min(hit->first, in.rd_line);
        hit->last = std::max(hit->last, in.rd_line);
      } else {
        PfRange* free = nullptr;
        for (unsigned e = 0; e < k && !free; ++e)
          if (!kind[e].valid) free = &kind[e];
        if (free) *free = PfRange{true, in.rd_line, in.rd_line};
        else untracked = true;
      }
    }
    st_ = std::move(st);
    return untracked;
  }

  const std::vector<PfRange>& ranges() const { return st_; }
  unsigned kinds() const { return kinds_; }
  unsigned k_max() const { return k_max_; }

 private:
  unsigned kinds_, k_max_;
  std::vector<PfRange> st_;
};

}  // namespace tessera::sim
