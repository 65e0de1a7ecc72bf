// SliceRecorder: gpu_top slice_mon_o, cycle by cycle, into bin visits, phases, memory stalls
// and sub-batches (slice_recording.hpp; docs/tessera-sim.md "Heatmaps", "Timeline").
#include <stdexcept>

#include "tessera/sim/slice_recording.hpp"
#include "tessera_layouts.hpp"

namespace tessera::sim {

namespace {
using Mon = layout::SliceMonitor;
constexpr std::uint64_t field(std::uint64_t w, layout::FieldPos p) {
  return (w >> p.lsb) & ((std::uint64_t{1} << p.width) - 1);
}
static_assert(Mon::kBits == 64, "the recorder reads one 64-bit slice_monitor record per slice");
}  // namespace

SliceRecorder::SliceRecorder(unsigned slices, LineCounters lines) : lines_(std::move(lines)), st_(slices) {
  if (slices == 0) throw std::invalid_argument("SliceRecorder: no slices to record");
  begin(0);
}

void SliceRecorder::begin(std::uint64_t cycle) {
  const unsigned n = slices();
  st_.assign(n, SliceState{});
  rec_ = SliceRecording{};
  rec_.start = rec_.end = cycle;
  rec_.pass_begins.resize(n);
  rec_.outside_bins.resize(n);
  first_sample_ = true;
}

void SliceRecorder::close_bin(SliceState& s, unsigned slice, std::uint64_t cycle, SliceRecording& out) const {
  BinVisit b = s.bin;
  b.end = cycle;
  const auto [rd, wr] = lines_(slice);
  b.line_reads = static_cast<std::uint32_t>(rd - s.rd0);   // wrapping 32-bit counters
  b.line_writes = static_cast<std::uint32_t>(wr - s.wr0);
  if (b.raster_start == 0) b.raster_start = b.store_start ? b.store_start : b.end;
  if (b.store_start == 0) b.store_start = b.end;
  out.bins.push_back(b);
}

void SliceRecorder::flush(const OpenSpan& sp, unsigned slice, std::vector<StallSpan>& out) {
  if (sp.open) out.push_back(StallSpan{slice, sp.start, sp.last + 1, sp.cycles});
}

void SliceRecorder::extend(OpenSpan& sp, std::uint64_t cycle, unsigned slice, std::vector<StallSpan>& out) {
  if (sp.open && cycle - sp.last <= kStallMergeGap) {
    sp.last = cycle;
    ++sp.cycles;
    return;
  }
  flush(sp, slice, out);
  sp = OpenSpan{true, cycle, cycle, 1};
}

void SliceRecorder::sample(std::uint64_t cycle, const std::uint64_t* monitor) {
  for (unsigned k = 0; k < slices(); ++k) {
    SliceState& s = st_[k];
    const std::uint64_t m = monitor[k];
    const auto act = static_cast<unsigned>(field(m, Mon::Pos::act));
    const bool in_bin = field(m, Mon::Pos::in_bin) != 0;
    const bool bin_start = field(m, Mon::Pos::bin_start) != 0;

    if (field(m, Mon::Pos::rp_begin)) {
      ++s.passes;
      rec_.pass_begins[k].push_back(cycle);
    }
    if (s.in_bin && (!in_bin || bin_start)) {
      close_bin(s, k, cycle, rec_);
      s.in_bin = false;
    }
    if (bin_start) {
      s.in_bin = true;
      s.bin = BinVisit{};
      s.bin.slice = k;
      s.bin.pass = s.passes ? s.passes - 1 : 0;
      s.bin.tx = static_cast<unsigned>(field(m, Mon::Pos::bin_tx));
      s.bin.ty = static_cast<unsigned>(field(m, Mon::Pos::bin_ty));
      s.bin.prims = static_cast<unsigned>(field(m, Mon::Pos::bin_prims));
      s.bin.start = cycle;
      const auto [rd, wr] = lines_(k);
      s.rd0 = rd;
      s.wr0 = wr;
    }
    if (s.in_bin) {
      ++s.bin.cycles[act];
      if ((act == static_cast<unsigned>(Activity::setup) || act == static_cast<unsigned>(Activity::raster)) &&
          s.bin.raster_start == 0)
        s.bin.raster_start = cycle;
      if (act == static_cast<unsigned>(Activity::store) && s.bin.store_start == 0) s.bin.store_start = cycle;
    } else {
      ++rec_.outside_bins[k][act];
    }
    if (act == static_cast<unsigned>(Activity::memory_wait)) extend(s.stall, cycle, k, rec_.stalls);
    if (act == static_cast<unsigned>(Activity::clear)) extend(s.clear, cycle, k, rec_.clears);

    // Sub-batches: finished primitives = dispatched before this cycle - outstanding now.
    const std::uint64_t outstanding = field(m, Mon::Pos::geom_outstanding);
    if (first_sample_ && outstanding > s.issued) s.issued = outstanding;   // work from before the recording
    const std::uint64_t done = s.issued >= outstanding ? s.issued - outstanding : 0;
    while (!s.sbs.empty() && done >= s.sbs.front().done_target) {
      const PendingSb& p = s.sbs.front();
      rec_.sub_batches.push_back(SubBatchSpan{k, p.prims, p.start, cycle});
      s.sbs.pop_front();
    }
    if (field(m, Mon::Pos::sb_issue)) {
      const auto n = static_cast<unsigned>(field(m, Mon::Pos::sb_prims));
      s.issued += n;
      s.sbs.push_back(PendingSb{n, cycle, s.issued});
    }
  }
  first_sample_ = false;
  rec_.end = cycle + 1;
}

SliceRecording SliceRecorder::snapshot(std::uint64_t cycle) const {
  SliceRecording out = rec_;
  out.end = cycle;
  for (unsigned k = 0; k < slices(); ++k) {
    SliceState s = st_[k];
    if (s.in_bin) close_bin(s, k, cycle, out);
    flush(s.stall, k, out.stalls);
    flush(s.clear, k, out.clears);
    for (const PendingSb& p : s.sbs) out.sub_batches.push_back(SubBatchSpan{k, p.prims, p.start, cycle});
  }
  return out;
}

}  // namespace tessera::sim
