// PfTopModel -- the C++ reference of the tile prefetcher (rtl/prefetch/pf_top.sv;
// docs/prefetcher.md), written from the Samsung source (004_c4de9378d94a44ec.txt: bin
// correlation, prefetch by tile ID, address tracking) as docs/prefetcher.md maps it.
//
// Transaction level: it does not model the engine's timing or the round robin between slices,
// only what each slice's jobs do, in the slice's order. A tile's line is read and written only
// by the jobs of the slice that owns the tile, so per slice the sequence of memory requests
// (history reads, history writes with their data, PREFETCHes) is a function of the slice's bin
// events and reads and of the commands between them; that is what a bench compares. The
// address tracking itself is cycle-exact (PfTrackerModel): a bench calls slice_cycle() for
// the inputs of every cycle in which a slice has a read or a bin event.
//
// One thing comes from the RTL: whether a bin event found room in the slice's queue (the
// queue drains at the engine's pace); a bench passes the RTL's ev_drop_o.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <vector>

#include "tessera/sim/pf_tracker_model.hpp"
#include "tessera_layouts.hpp"

namespace tessera::sim {

// GEOM.PF_CFG, PF_RECORD and PF_ADAPT (spec/registers/geom.yaml).
struct PfConfig {
  unsigned threshold = 8, max_lines = 128, entries = 4, kinds = 3, window = 8;
  unsigned slots = 2;  // 4^slots history lines per tile
  bool lookahead = true;  // prefetch one bin ahead (the line's next)
  bool blocks = false;    // PF_RECORD.format BLOCKS: the block record
  unsigned hit_high = 75, hit_low = 50;
};

struct PfRequest {
  enum Op : unsigned { kRead = 0, kWrite = 1, kPrefetch = 2 };
  unsigned op = kRead;
  std::uint32_t addr = 0;
  std::array<std::uint32_t, 16> data{};  // WRITE data (the line)
  bool operator==(const PfRequest&) const = default;
};

struct PfCounters {
  std::uint64_t similar = 0, dissimilar = 0, no_history = 0, requested = 0, dropped = 0,
                untracked = 0, no_room = 0;
  std::uint64_t closed = 0;  // open tiles closed by draining (the model's own count, no RTL counter)
  // the model's own counts for coverage: similar lines of a batch after the slice's first (history
  // per batch), and last frame's lines of the same slot left by another batch number (slots aliased)
  std::uint64_t similar_later_batch = 0, other_batch = 0;
  // the model's own counts of the lookahead: batches prefetched a bin ahead, and similar batches
  // whose own event found them prefetched already
  std::uint64_t ahead = 0, ahead_hit = 0;
  // the model's own counts of the block record: PREFETCHes from blocks, and blocks (read or
  // merged) that found no entry, and a batch's blocks merged into the same block of the line
  std::uint64_t block_requests = 0, block_untracked = 0, block_merged = 0;
};

class PfTopModel {
 public:
  static constexpr unsigned kKinds = 2, kKMax = 4, kLineAw = 26, kEntW = 1 + 2 * kLineAw;
  static constexpr unsigned kIdxW = 24;
  enum Mode : unsigned { kOff = 0, kOn = 1, kAdaptive = 2 };
  using Line = std::array<std::uint32_t, 16>;
  using Pos = layout::PfHistoryLine::Pos;

  // initial(addr): the memory's content of a line never written (what the bench's memory holds)
  PfTopModel(unsigned slices, std::uint32_t mem_bytes, std::function<Line(std::uint32_t)> initial)
      : mem_lines_(mem_bytes >> 6), initial_(std::move(initial)), sl_(slices) {
    for (auto& s : sl_) s.trk = PfTrackerModel(kKinds, kKMax);
  }

  // ---- commands, in command order ---------------------------------------------------------------
  void set(unsigned mode, std::uint32_t addr, std::uint32_t size, const PfConfig& cfg, std::uint32_t hits,
           std::uint32_t misses) {
    drain();  // the RTL takes SET_PREFETCH only drained
    mode_ = mode;
    base_ = addr;
    lines_ = std::min<std::uint32_t>(size >> 6, (1U << kIdxW) - 1);
    epoch_ = static_cast<std::uint16_t>(epoch_ + 2);
    thr_ = cfg.threshold & 0xff;
    latch(cfg);
    pass_open_ = false;
    pass_base_ = 0;
    hits_ = hits;
    misses_ = misses;
    for (auto& s : sl_) {
      s.open = false;
      s.bn = 0xff;
    }
    clear_trackers();
  }
  void bin_size(unsigned b) { bin_ = b & 3; }
  void pass_begin(unsigned width, unsigned height, const PfConfig& cfg) {
    drain();  // ... and RENDERPASS_BEGIN
    latch(cfg);
    if (pass_open_) pass_base_ = (pass_base_ + tx_n_ * ty_n_) & ((1U << kIdxW) - 1);
    pass_open_ = true;
    pw_ = width & 0xfff;
    ph_ = height & 0xfff;
    tx_n_ = tiles(pw_);
    ty_n_ = tiles(ph_);
    clear_trackers();
  }
  void frame_end(std::uint32_t hits, std::uint32_t misses, const PfConfig& cfg) {
    if (mode_ == kAdaptive) {
      const std::uint64_t dh = static_cast<std::uint32_t>(hits - hits_);
      const std::uint64_t dt = dh + static_cast<std::uint32_t>(misses - misses_);
      const bool up = dt != 0 && dh * 100 > dt * cfg.hit_high && thr_ != 0xff;
      const bool down = dt != 0 && dh * 100 < dt * cfg.hit_low && thr_ != 0;
      if (down) --thr_;  // the RTL's later assignment wins when both hold (hit_low > hit_high)
      else if (up) ++thr_;
    }
    epoch_ = static_cast<std::uint16_t>(epoch_ + 1);
    for (auto& s : sl_) s.bn = 0xff;
    pass_open_ = false;
    pass_base_ = 0;
    hits_ = hits;
    misses_ = misses;
  }

  // ---- per slice and cycle: a bin event and/or an accepted READ (tag bit 7: FS texel read) -------
  struct CycleIn {
    bool bs = false;
    bool first = false;  // the event is its batch's first (the raster slice's bs_first_o)
    unsigned tx = 0, ty = 0, count = 0;
    bool dropped = false;  // the RTL's ev_drop_o for this event
    bool rd = false;
    std::uint32_t addr = 0;
    unsigned tag = 0;
  };
  void slice_cycle(unsigned s, const CycleIn& in) {
    if (mode_ == kOff) return;
    Slice& sl = sl_[s];
    if (in.bs) {
      // the slice's batch number, the tile's number in the frame and its line (tile x S + batch
      // mod S)
      const unsigned bn = in.first ? ((sl.bn + 1) & 0xff) : sl.bn;
      sl.bn = bn;
      const std::uint32_t tile =
          (pass_base_ + ((in.ty & 0x7f) * tx_n_ & 0xffff) + (in.tx & 0x7f)) & ((1U << kIdxW) - 1);
      const unsigned sh = 2 * c_slots_;
      const std::uint32_t line = (tile << sh) | (bn & ((1U << sh) - 1));
      const std::uint32_t t_idx = line & ((1U << kIdxW) - 1);
      const bool t_in = pass_open_ && (in.tx & 0x7f) < tx_n_ && (in.ty & 0x7f) < ty_n_ && line < lines_;
      counters_.no_room += !t_in;
      if (sl.open || t_in) {
        if (in.dropped) {
          ++counters_.dropped;
          sl.open = false;
        } else {
          Job j;
          j.p_valid = sl.open;
          j.p_idx = sl.open_idx;
          j.p_ranges = sl.trk.ranges();
          j.t_valid = t_in;
          j.t_idx = t_idx;
          // the line counted from the pass's first, and the pass's lines (the lookahead's
          // pass-relative pointer)
          j.t_rel = (line - (pass_base_ << sh)) & ((1U << kIdxW) - 1);
          j.pass_lines = ((tx_n_ * ty_n_ & 0xffff) << sh) & ((1U << kIdxW) - 1);
          j.t_batch = c_slots_ == 0 ? 0 : bn;
          j.t_count = in.count & 0xff;
          j.epoch = epoch_;
          j.threshold = mode_ == kAdaptive ? thr_ : c_thr_;
          j.window = c_win_;
          j.entries = c_ent_;
          j.lookahead = c_la_;
          j.blocks = c_blk_;
          j.slots = c_slots_;
          j.kinds = c_kinds_;
          j.max_lines = c_max_;
          j.width = pw_;
          j.height = ph_;
          j.bin = bin_;
          sl.jobs.push_back(j);
          sl.open = t_in;
        }
      } else {
        sl.open = false;
      }
      sl.open_idx = t_idx;
    }
    PfTrackerModel::Inputs ti;
    ti.k = c_ent_;
    ti.window = c_win_;
    ti.blocks = c_blk_;
    ti.load = in.bs;
    ti.load_ranges.assign(kKinds * kKMax, PfRange{});
    ti.rd_valid = in.rd;
    ti.rd_kind = (in.tag & 0x80) ? 0 : 1;
    ti.rd_line = (in.addr >> 6) & ((1U << kLineAw) - 1);
    const bool untracked = sl.trk.clock(ti);
    counters_.untracked += untracked;
    counters_.block_untracked += untracked && c_blk_;
  }

  // Draining (pf_top.sv): every open tile is closed by a job that only writes its line, and every
  // job runs.
  void drain() {
    for (auto& sl : sl_) {
      if (!sl.open) continue;
      Job j;
      j.p_valid = true;
      j.p_idx = sl.open_idx;
      j.p_ranges = sl.trk.ranges();
      j.window = c_win_;
      j.entries = c_ent_;
      j.slots = c_slots_;  // the line written records them
      j.blocks = c_blk_;
      sl.jobs.push_back(j);
      sl.open = false;
      ++counters_.closed;
      PfTrackerModel::Inputs ti;
      ti.k = c_ent_;
      ti.window = c_win_;
      ti.blocks = c_blk_;
      ti.load = true;
      ti.load_ranges.assign(kKinds * kKMax, PfRange{});
      counters_.untracked += sl.trk.clock(ti);
    }
    run();
  }

  // Runs every queued job; the requests each slice's jobs make are appended to requests(s).
  void run() {
    for (unsigned s = 0; s < sl_.size(); ++s) {
      Slice& sl = sl_[s];
      while (!sl.jobs.empty()) {
        const Job j = sl.jobs.front();
        sl.jobs.pop_front();
        run_job(sl, s, j);
      }
    }
  }

  std::deque<PfRequest>& requests(unsigned s) { return sl_[s].out; }
  const PfCounters& counters() const { return counters_; }
  unsigned threshold() const { return mode_ == kAdaptive ? thr_ : c_thr_; }
  std::uint16_t epoch() const { return epoch_; }
  unsigned mode() const { return mode_; }
  // the history memory as the model's jobs left it (lines never touched are absent)
  const std::map<std::uint32_t, Line>& memory() const { return mem_; }

  static std::uint64_t get(const Line& l, layout::FieldPos p, unsigned off = 0, unsigned width = 0) {
    return layout::detail::get_bits(l.data(), p.lsb + off, width ? width : p.width);
  }
  static void put(Line& l, layout::FieldPos p, std::uint64_t v, unsigned off = 0, unsigned width = 0) {
    layout::detail::put_bits(l.data(), p.lsb + off, width ? width : p.width, v);
  }

 private:
  struct Job {
    bool p_valid = false;
    std::uint32_t p_idx = 0;
    std::vector<PfRange> p_ranges;
    bool t_valid = false;
    std::uint32_t t_idx = 0, t_rel = 0, pass_lines = 0;
    unsigned t_batch = 0;
    unsigned t_count = 0;
    std::uint16_t epoch = 0;
    unsigned threshold = 0, window = 0, entries = 1, kinds = 0, max_lines = 1;
    bool lookahead = false, blocks = false;
    unsigned slots = 0;
    unsigned width = 0, height = 0, bin = 0;
  };
  struct Slice {
    PfTrackerModel trk{kKinds, kKMax};
    bool open = false;
    std::uint32_t open_idx = 0;
    unsigned bn = 0xff;  // the batch number of the last bin event in this frame
    // the line + 1 (0: none) the lookahead prefetched last, and the epoch of the job that did
    std::uint32_t ahead_line = 0;
    std::uint16_t ahead_epoch = 0;
    Line line{};  // the line of the tile the slice is on, as the engine holds it
    std::deque<Job> jobs;
    std::deque<PfRequest> out;
  };

  void latch(const PfConfig& cfg) {
    c_thr_ = cfg.threshold & 0xff;
    c_win_ = cfg.window & 0xff;
    const unsigned e = cfg.entries & 7;
    c_ent_ = e == 0 ? 1 : (e > kKMax ? kKMax : e);
    c_kinds_ = cfg.kinds & 3;
    c_max_ = (cfg.max_lines & 0xff) == 0 ? 256 : (cfg.max_lines & 0xff);
    c_slots_ = cfg.slots & 3;
    c_la_ = cfg.lookahead;
    c_blk_ = cfg.blocks;
  }
  // The RTL loads every slice's tracker empty at SET_PREFETCH and RENDERPASS_BEGIN (the record
  // format may change; the slices are idle): the reads of no tile are dropped.
  void clear_trackers() {
    for (auto& s : sl_) {
      PfTrackerModel::Inputs ti;
      ti.load = true;
      ti.load_ranges.assign(kKinds * kKMax, PfRange{});
      s.trk.clock(ti);
    }
  }
  unsigned tiles(unsigned px) const { return ((px + (16U << bin_) - 1) >> (4 + bin_)) & 0xff; }

  Line& mem(std::uint32_t addr) {
    auto it = mem_.find(addr);
    if (it == mem_.end()) it = mem_.emplace(addr, initial_(addr)).first;
    return it->second;
  }

  static PfRange entry(const Line& l, unsigned i, bool blocks = false) {
    return PfRange::from_bits(get(l, Pos::ranges, i * kEntW, kEntW), blocks);
  }
  static void set_entry(Line& l, unsigned i, const PfRange& r, bool blocks = false) {
    put(l, Pos::ranges, r.bits(blocks), i * kEntW, kEntW);
  }

  // The block record: a batch's block into the line's entry holding the same block (any of the
  // eight), its bitmap OR-ed in; else the lowest free entry among the first kinds x entries; else
  // it is lost (counted untracked).
  void merge_block(Line& l, const PfRange& r, const Job& j) {
    for (unsigned e = 0; e < kKinds * kKMax; ++e) {
      PfRange x = entry(l, e, true);
      if (x.bitmap != 0 && x.block == r.block) {
        x.bitmap |= r.bitmap;
        set_entry(l, e, x, true);
        ++counters_.block_merged;
        return;
      }
    }
    for (unsigned e = 0; e < kKinds * j.entries; ++e) {
      if (entry(l, e, true).bitmap == 0) {
        set_entry(l, e, r, true);
        return;
      }
    }
    ++counters_.untracked;
    ++counters_.block_untracked;
  }

  // A batch's range into the line: it extends the lowest valid entry of its kind whose range,
  // widened by the window on both sides, overlaps it; else it takes the lowest free entry among
  // the first `entries`; else it is lost (counted untracked).
  void merge(Line& l, unsigned kind, const PfRange& r, const Job& j) {
    const std::uint64_t w = j.window;
    for (unsigned e = 0; e < kKMax; ++e) {
      PfRange x = entry(l, kind * kKMax + e);
      if (x.valid && r.first <= x.last + w && r.last + w >= x.first) {
        x.first = std::min(x.first, r.first);
        x.last = std::max(x.last, r.last);
        set_entry(l, kind * kKMax + e, x);
        return;
      }
    }
    for (unsigned e = 0; e < j.entries; ++e) {
      if (!entry(l, kind * kKMax + e).valid) {
        set_entry(l, kind * kKMax + e, PfRange{true, r.first, r.last});
        return;
      }
    }
    ++counters_.untracked;
  }

  void run_job(Slice& sl, unsigned s, const Job& j) {
    if (j.p_valid) {
      for (unsigned i = 0; i < kKinds * kKMax; ++i) {
        if (!j.p_ranges[i].held(j.blocks)) continue;
        if (j.blocks) merge_block(sl.line, j.p_ranges[i], j);
        else merge(sl.line, i / kKMax, j.p_ranges[i], j);
      }
      const std::uint32_t a = base_ + (j.p_idx << 6);
      // the line written names its successor: the line the slice enters now (the lookahead's)
      Line w = sl.line;
      put(w, Pos::next, j.t_valid ? (j.t_rel + 1) & ((1U << kIdxW) - 1) : 0);
      put(w, Pos::slice, s & 7);
      put(w, Pos::slots, j.slots & 3);
      put(w, Pos::blocks, j.blocks);
      sl.out.push_back(PfRequest{PfRequest::kWrite, a, w});
      mem(a) = w;
    }
    if (!j.t_valid) return;
    const std::uint32_t a = base_ + (j.t_idx << 6);
    sl.out.push_back(PfRequest{PfRequest::kRead, a, {}});
    const Line rl = mem(a);
    const bool same_tgt = get(rl, Pos::width) == j.width && get(rl, Pos::height) == j.height &&
                          get(rl, Pos::bin_size) == j.bin && get(rl, Pos::blocks) == j.blocks;
    const bool same = same_tgt && get(rl, Pos::batch) == j.t_batch;
    const auto ep = static_cast<std::uint16_t>(get(rl, Pos::epoch));
    if (same && ep == j.epoch) {
      sl.line = rl;
      return;
    }
    Line fresh{};
    put(fresh, Pos::epoch, j.epoch);
    put(fresh, Pos::width, j.width);
    put(fresh, Pos::height, j.height);
    put(fresh, Pos::bin_size, j.bin);
    put(fresh, Pos::count, j.t_count);
    put(fresh, Pos::batch, j.t_batch);
    put(fresh, Pos::blocks, j.blocks);
    sl.line = fresh;
    counters_.other_batch += same_tgt && !same && ep == static_cast<std::uint16_t>(j.epoch - 1);
    if (!same || ep != static_cast<std::uint16_t>(j.epoch - 1)) {
      ++counters_.no_history;
      return;
    }
    const unsigned c = static_cast<unsigned>(get(rl, Pos::count));
    const unsigned diff = c > j.t_count ? c - j.t_count : j.t_count - c;
    if (diff > j.threshold) {
      ++counters_.dissimilar;
      return;
    }
    ++counters_.similar;
    counters_.similar_later_batch += j.t_batch != 0;
    const bool done_ahead = sl.ahead_line == ((j.t_idx + 1) & ((1U << kIdxW) - 1)) && sl.ahead_epoch == j.epoch;
    counters_.ahead_hit += done_ahead;
    if (!done_ahead) issue(sl, rl, j);
    // Lookahead: the line this batch's slice entered next last frame, prefetched now, a bin
    // before its batch renders. The pointer counts from the pass's first line, so it names a
    // tile of this pass that this slice owns (no other slice writes the line meanwhile); not
    // this batch's own line, and inside the buffer.
    const auto next = static_cast<std::uint32_t>(get(rl, Pos::next));
    constexpr std::uint32_t kMask = (1U << kIdxW) - 1;
    const std::uint32_t rel = (next - 1) & kMask, ah_idx = (j.t_idx - j.t_rel + rel) & kMask;
    // only a line this slice wrote: with passes of other sizes a line number can name another
    // slice's tile, whose successor that slice may be writing now
    const bool mine = get(rl, Pos::slice) == (s & 7) && get(rl, Pos::slots) == (j.slots & 3);
    if (!j.lookahead || !mine || next == 0 || rel == j.t_rel || rel >= j.pass_lines || ah_idx >= lines_) return;
    const std::uint32_t na = base_ + (ah_idx << 6);
    sl.out.push_back(PfRequest{PfRequest::kRead, na, {}});
    const Line nl = mem(na);
    if (get(nl, Pos::width) != j.width || get(nl, Pos::height) != j.height || get(nl, Pos::bin_size) != j.bin ||
        static_cast<std::uint16_t>(get(nl, Pos::epoch)) != static_cast<std::uint16_t>(j.epoch - 1) ||
        get(nl, Pos::slice) != (s & 7) || get(nl, Pos::slots) != (j.slots & 3) || get(nl, Pos::blocks) != j.blocks)
      return;
    ++counters_.ahead;
    sl.ahead_line = (ah_idx + 1) & kMask;
    sl.ahead_epoch = j.epoch;
    issue(sl, nl, j);
  }

  // A line's recorded ranges, texture kind first, of the kinds the job allows: one PREFETCH per
  // line, at most max_lines, below the end of memory. The block record: each block's lines whose
  // bit is set, in order, the entries in order (texture, so only when the job allows it).
  void issue(Slice& sl, const Line& rl, const Job& j) {
    unsigned n = 0;
    if (j.blocks) {
      for (unsigned i = 0; i < kKinds * kKMax && n < j.max_lines && (j.kinds & 1U); ++i) {
        const PfRange r = entry(rl, i, true);
        for (unsigned b = 0; b < 32 && n < j.max_lines; ++b) {
          const std::uint64_t cur = (std::uint64_t{r.block} << 5) | b;
          if (!((r.bitmap >> b) & 1U)) continue;
          if (cur >= mem_lines_) break;
          sl.out.push_back(PfRequest{PfRequest::kPrefetch, static_cast<std::uint32_t>(cur << 6), {}});
          ++n;
        }
      }
      counters_.requested += n;
      counters_.block_requests += n;
      return;
    }
    for (unsigned i = 0; i < kKinds * kKMax && n < j.max_lines; ++i) {
      const PfRange r = entry(rl, i);
      if (!r.valid || !((j.kinds >> (i / kKMax)) & 1U)) continue;
      for (std::uint64_t cur = r.first; cur <= r.last && cur < mem_lines_ && n < j.max_lines; ++cur, ++n)
        sl.out.push_back(PfRequest{PfRequest::kPrefetch, static_cast<std::uint32_t>(cur << 6), {}});
    }
    counters_.requested += n;
  }

  std::uint32_t mem_lines_;
  std::function<Line(std::uint32_t)> initial_;
  std::vector<Slice> sl_;
  std::map<std::uint32_t, Line> mem_;
  PfCounters counters_;
  unsigned mode_ = kOff;
  std::uint32_t base_ = 0, lines_ = 0;
  std::uint16_t epoch_ = 1;
  unsigned thr_ = 0, bin_ = 1, pw_ = 0, ph_ = 0, tx_n_ = 0, ty_n_ = 0;
  bool pass_open_ = false;
  std::uint32_t pass_base_ = 0, hits_ = 0, misses_ = 0;
  unsigned c_thr_ = 0, c_win_ = 0, c_ent_ = 1, c_kinds_ = 0, c_max_ = 1, c_slots_ = 0;
  bool c_la_ = false, c_blk_ = false;
};

}  // namespace tessera::sim
