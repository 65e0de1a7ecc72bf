// PfTrackerModel -- the C++ reference of the tile prefetcher's address tracker
// (rtl/prefetch/pf_tracker.sv; docs/prefetcher.md), written from the source's figures 6-7 and
// ARCHITECTURE.md 5.7, cycle for cycle with the RTL: the state after clock() is what the RTL's
// ranges_o shows in the next cycle.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace tessera::sim {

struct PfRange {
  bool valid = false;
  std::uint32_t first = 0, last = 0;  // 64-byte line addresses
  bool operator==(const PfRange&) const = default;
};

class PfTrackerModel {
 public:
  PfTrackerModel(unsigned kinds, unsigned k_max) : kinds_(kinds), k_max_(k_max), st_(kinds * k_max) {}

  struct Inputs {
    unsigned k = 1;           // entries per kind in use (0 acts as 1, above k_max as k_max)
    std::uint32_t window = 8; // lines
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
    if (in.rd_valid) {
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
