// What the slices did, cycle by cycle, turned into bins, phases and sub-batches: the data
// behind tessera-sim's heatmaps and timeline (docs/tessera-sim.md "Heatmaps", "Timeline").
//
// GpuSim feeds a SliceRecorder from gpu_top's slice_mon_o (spec/layouts.yaml slice_monitor,
// one 64-bit record per slice per cycle) while recording is on; the recorder keeps no per-cycle
// data, only spans. Every cycle of a slice falls in exactly one activity (the monitor's act,
// the one the slice's cycle counters count), so the recording can be checked against the
// statistics block of the same run: per slice, the bins' activity cycles plus the cycles
// outside bins equal the activity counters, the bins' primitives equal bin_prims, the bin
// count equals bins_rendered, the bins' line requests equal line_reads and line_writes.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

namespace tessera::sim {

// The eight activities in the order of tessera_raster_pkg::act_e (and SliceStats::kActivities).
inline constexpr unsigned kNumActivities = 8;
enum class Activity : std::uint8_t { idle, input_wait, memory_wait, clear, load, setup, raster, store };

// One visit of a slice to a bin: from its bitstream record to the end of its tile store.
struct BinVisit {
  unsigned slice = 0;
  unsigned pass = 0;              // render pass of the frame, counted by the slice's RENDERPASS_BEGINs
  unsigned tx = 0, ty = 0;        // tile column and row
  unsigned prims = 0;             // primitives of the batch in the bin (the bitstream's popcount)
  std::uint64_t start = 0, end = 0;                   // cycles [start, end)
  std::array<std::uint64_t, kNumActivities> cycles{}; // per activity, adds up to end - start
  std::uint64_t line_reads = 0, line_writes = 0;      // the slice's 64-byte line requests in the visit
  // Phases inside the visit: load until the first setup or raster cycle, raster until the
  // first store cycle, store to the end (memory waits count in the phase they interrupt).
  std::uint64_t raster_start = 0, store_start = 0;
};

// A sub-batch PC_US dispatched to a geometry slice, from the dispatch to the cycle its last
// primitive was finished (the slice's outstanding count says how far it got).
struct SubBatchSpan {
  unsigned slice = 0;
  unsigned prims = 0;
  std::uint64_t start = 0, end = 0;
};

// A stretch of one slice's memory waits: consecutive memory_wait cycles, merged while the
// gaps between them are shorter than kStallMergeGap cycles; `cycles` is exact.
struct StallSpan {
  unsigned slice = 0;
  std::uint64_t start = 0, end = 0;
  std::uint64_t cycles = 0;
};

struct SliceRecording {
  std::uint64_t start = 0, end = 0;                    // recorded cycles [start, end)
  std::vector<BinVisit> bins;                          // in order of their end
  std::vector<SubBatchSpan> sub_batches;               // in order of their end
  std::vector<StallSpan> stalls;
  std::vector<StallSpan> clears;                       // clear cycles, merged like stalls
  std::vector<std::vector<std::uint64_t>> pass_begins; // per slice: cycles of its RENDERPASS_BEGINs
  // Per slice, per activity: cycles outside every bin visit.
  std::vector<std::array<std::uint64_t, kNumActivities>> outside_bins;
};

class SliceRecorder {
 public:
  static constexpr std::uint64_t kStallMergeGap = 16;
  // The slice's line request counters (slice_stats line_reads, line_writes), read at bin
  // boundaries only.
  using LineCounters = std::function<std::pair<std::uint32_t, std::uint32_t>(unsigned slice)>;

  SliceRecorder(unsigned slices, LineCounters lines);
  // Starts a new recording at `cycle` (what was recorded before is dropped).
  void begin(std::uint64_t cycle);
  // One cycle: the slice_monitor record of every slice, sampled before the clock edge.
  void sample(std::uint64_t cycle, const std::uint64_t* monitor);
  // Closes the open spans at `cycle` and returns the recording (recording goes on).
  SliceRecording snapshot(std::uint64_t cycle) const;
  unsigned slices() const { return static_cast<unsigned>(st_.size()); }

 private:
  struct OpenSpan {
    bool open = false;
    std::uint64_t start = 0, last = 0, cycles = 0;
  };
  struct PendingSb {
    unsigned prims;
    std::uint64_t start;
    std::uint64_t done_target;   // cumulative finished primitives that end it
  };
  struct SliceState {
    bool in_bin = false;
    BinVisit bin;
    std::uint32_t rd0 = 0, wr0 = 0;
    unsigned passes = 0;
    OpenSpan stall, clear;
    std::uint64_t issued = 0;     // primitives dispatched in earlier cycles
    std::deque<PendingSb> sbs;
  };
  void close_bin(SliceState& s, unsigned slice, std::uint64_t cycle, SliceRecording& out) const;
  static void extend(OpenSpan& sp, std::uint64_t cycle, unsigned slice, std::vector<StallSpan>& out);
  static void flush(const OpenSpan& sp, unsigned slice, std::vector<StallSpan>& out);

  LineCounters lines_;
  std::vector<SliceState> st_;
  SliceRecording rec_;
  bool first_sample_ = true;
};

}  // namespace tessera::sim
