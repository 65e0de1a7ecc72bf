// SliceRecorder on hand-written slice_monitor streams: bins, phases, stall merging, render
// passes and sub-batch ends, checked against what the stream says by construction.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "tessera/sim/slice_recording.hpp"
#include "tessera_layouts.hpp"

using namespace tessera::sim;
using Mon = tessera::layout::SliceMonitor;

namespace {

std::uint64_t pack(const Mon& m) {
  const auto w = m.pack();
  return std::uint64_t{w[0]} | (std::uint64_t{w[1]} << 32);
}

// A scripted slice: line counters it owns, advanced by the script.
struct Script {
  std::map<unsigned, std::pair<std::uint32_t, std::uint32_t>> lines;
  SliceRecorder rec{2, [this](unsigned k) { return lines[k]; }};
  std::uint64_t cyc = 100;
  void step(const Mon& a, const Mon& b = Mon{}) {
    const std::uint64_t w[2] = {pack(a), pack(b)};
    rec.sample(cyc++, w);
  }
};

Mon act(Activity a) {
  Mon m;
  m.act = static_cast<std::uint8_t>(a);
  return m;
}

}  // namespace

// Catches: a bin closed at the wrong cycle, phases that do not partition the bin, line
// requests attributed to the wrong bin, activity cycles lost between bins.
TEST(SliceRecorder, BinsPhasesAndLinesFollowTheMonitor) {
  Script s;
  s.rec.begin(s.cyc);
  Mon rp = act(Activity::setup);
  rp.rp_begin = true;
  s.step(rp);                                  // 100: pass 0 begins
  s.step(act(Activity::idle));                 // 101
  Mon b = act(Activity::setup);
  b.in_bin = b.bin_start = true;
  b.bin_tx = 3;
  b.bin_ty = 2;
  b.bin_prims = 5;
  s.step(b);                                   // 102: record
  Mon in = b;
  in.bin_start = false;
  for (int i = 0; i < 4; ++i) {                // 103..106: load, one memory wait
    in.act = static_cast<std::uint8_t>(i == 2 ? Activity::memory_wait : Activity::load);
    s.step(in);
    s.lines[0].first += 1;
  }
  in.act = static_cast<std::uint8_t>(Activity::raster);
  for (int i = 0; i < 6; ++i) s.step(in);      // 107..112
  in.act = static_cast<std::uint8_t>(Activity::store);
  for (int i = 0; i < 3; ++i) {                // 113..115
    s.step(in);
    s.lines[0].second += 1;
  }
  s.step(act(Activity::input_wait));           // 116: the bin ends
  const SliceRecording r = s.rec.snapshot(s.cyc);
  ASSERT_EQ(r.bins.size(), 1u);
  const BinVisit& v = r.bins[0];
  EXPECT_EQ(v.slice, 0u);
  EXPECT_EQ(v.pass, 0u);
  EXPECT_EQ(v.tx, 3u);
  EXPECT_EQ(v.ty, 2u);
  EXPECT_EQ(v.prims, 5u);
  EXPECT_EQ(v.start, 102u);
  EXPECT_EQ(v.end, 116u);
  EXPECT_EQ(v.raster_start, 102u);   // the record cycle is setup: the load comes after it
  EXPECT_EQ(v.store_start, 113u);
  EXPECT_EQ(v.line_reads, 4u);
  EXPECT_EQ(v.line_writes, 3u);
  std::uint64_t sum = 0;
  for (auto c : v.cycles) sum += c;
  EXPECT_EQ(sum, v.end - v.start);
  EXPECT_EQ(v.cycles[static_cast<int>(Activity::memory_wait)], 1u);
  EXPECT_EQ(r.outside_bins[0][static_cast<int>(Activity::idle)], 1u);
  EXPECT_EQ(r.outside_bins[0][static_cast<int>(Activity::input_wait)], 1u);
  EXPECT_EQ(r.outside_bins[1][static_cast<int>(Activity::idle)], 17u);   // slice 1 idled throughout
  ASSERT_EQ(r.pass_begins[0].size(), 1u);
  EXPECT_EQ(r.pass_begins[0][0], 100u);
}

// Catches: stalls not merged across short gaps, merged across long ones, or their cycle
// counts not exact.
TEST(SliceRecorder, StallsMergeAcrossShortGapsAndCountExactly) {
  Script s;
  s.rec.begin(s.cyc);
  std::mt19937 rng(7);
  std::uint64_t waits = 0;
  std::vector<bool> pattern;
  for (int i = 0; i < 2000; ++i) {
    const bool w = (rng() % 7) == 0 || (i >= 1000 && i < 1100);
    pattern.push_back(w);
    waits += w;
    s.step(act(w ? Activity::memory_wait : Activity::raster));
  }
  for (int i = 0; i < 40; ++i) s.step(act(Activity::idle));
  const SliceRecording r = s.rec.snapshot(s.cyc);
  std::uint64_t counted = 0;
  for (const StallSpan& sp : r.stalls) {
    EXPECT_EQ(sp.slice, 0u);
    counted += sp.cycles;
    EXPECT_LE(sp.cycles, sp.end - sp.start);
  }
  EXPECT_EQ(counted, waits);
  for (std::size_t i = 1; i < r.stalls.size(); ++i)
    EXPECT_GT(r.stalls[i].start - (r.stalls[i - 1].end - 1), SliceRecorder::kStallMergeGap);
}

// Catches: a sub-batch ended before its last primitive was finished, or never.
TEST(SliceRecorder, SubBatchesEndWhenTheirLastPrimitiveIsDone) {
  Script s;
  s.rec.begin(s.cyc);
  Mon m = act(Activity::idle);
  m.sb_issue = true;
  m.sb_prims = 3;
  s.step(m);                         // 100: 3 dispatched (outstanding shows them next cycle)
  m.sb_issue = true;
  m.sb_prims = 2;
  m.geom_outstanding = 3;
  s.step(m);                         // 101: 2 more
  m.sb_issue = false;
  m.geom_outstanding = 5;
  s.step(m);                         // 102
  m.geom_outstanding = 3;
  s.step(m);                         // 103: 2 done
  m.geom_outstanding = 2;
  s.step(m);                         // 104: 3 done -> the first ends
  m.geom_outstanding = 1;
  s.step(m);                         // 105
  m.geom_outstanding = 0;
  s.step(m);                         // 106: all done -> the second ends
  const SliceRecording r = s.rec.snapshot(s.cyc);
  ASSERT_EQ(r.sub_batches.size(), 2u);
  EXPECT_EQ(r.sub_batches[0].start, 100u);
  EXPECT_EQ(r.sub_batches[0].end, 104u);
  EXPECT_EQ(r.sub_batches[0].prims, 3u);
  EXPECT_EQ(r.sub_batches[1].start, 101u);
  EXPECT_EQ(r.sub_batches[1].end, 106u);
}
