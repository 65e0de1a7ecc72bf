#include "tessera/sim/dram_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <unordered_set>

#include "beat.hpp"

namespace tessera::sim {

const char* to_string(DramReorder r) {
  switch (r) {
    case DramReorder::in_order: return "in_order";
    case DramReorder::random: return "random";
    case DramReorder::youngest_first: return "youngest_first";
  }
  return "?";
}

namespace {
void validate(const DramConfig& c) {
  if (c.latency < 1) throw std::invalid_argument("DramConfig: latency must be >= 1");
  if (c.bytes_per_cycle < 1) throw std::invalid_argument("DramConfig: bytes_per_cycle must be >= 1");
  if (c.w_buffer_beats < 1) throw std::invalid_argument("DramConfig: w_buffer_beats must be >= 1");
  if (c.ready_stall < 0 || c.ready_stall >= 1) throw std::invalid_argument("DramConfig: ready_stall must be in [0, 1)");
  if (c.ideal_percent < 1 || c.ideal_percent > 100)
    throw std::invalid_argument(fmt::format("DramConfig: ideal_percent = {} is outside 1..100", c.ideal_percent));
  for (std::size_t i = 0; i < c.ideal_reads.size(); ++i) {
    const DramRange& r = c.ideal_reads[i];
    if (r.size == 0 || static_cast<std::uint64_t>(r.base) + r.size > (std::uint64_t{1} << 32))
      throw std::invalid_argument(fmt::format("DramConfig: ideal_reads[{}] = [{:#x}, +{:#x}) is empty or leaves the 4 GiB space",
                                              i, r.base, r.size));
    if (r.percent > 100)
      throw std::invalid_argument(fmt::format("DramConfig: ideal_reads[{}].percent = {} is outside 1..100 (0: ideal_percent)",
                                              i, r.percent));
  }
}
}  // namespace

DramModel::DramModel(DramConfig cfg) : cfg_(std::move(cfg)), rng_(cfg_.seed) {
  validate(cfg_);
  reset_interface();
}

void DramModel::reconfigure(DramConfig cfg) {
  if (!idle() || out_.rvalid || out_.bvalid)
    throw std::logic_error("DramModel::reconfigure: transactions are still in flight");
  validate(cfg);
  cfg_ = std::move(cfg);
  rng_.seed(cfg_.seed);
  // The READYs already driven stay as they are for the current cycle (the master has seen
  // them); the new limits apply from the next edge on.
}

void DramModel::clear_stats() {
  stats_ = DramStats{};
  note_peaks();
}

void DramModel::reset_interface() {
  reads_.clear();
  writes_.clear();
  aw_wait_.clear();
  w_orphans_.clear();
  queue_.clear();
  out_ = AxiSlaveSignals{};
  compute_readies(AxiMasterSignals{}, false, false, out_);
}

std::uint64_t DramModel::rand_below(std::uint64_t n) {
  return n <= 1 ? 0 : std::uniform_int_distribution<std::uint64_t>(0, n - 1)(rng_);
}

AxiResp DramModel::classify(const AxiAddr& a, bool write) const {
  if (a.size > kAxiMaxSize || a.burst == static_cast<std::uint8_t>(AxiBurst::reserved)) return AxiResp::slverr;
  const auto [lo, hi] = detail::burst_span(a);
  for (const auto& r : cfg_.error_ranges) {
    if (write ? !r.writes : !r.reads) continue;
    const std::uint64_t rlo = r.base, rhi = static_cast<std::uint64_t>(r.base) + r.size;  // [rlo, rhi)
    if (lo < rhi && rlo <= hi) return r.resp;
  }
  return AxiResp::okay;
}

void DramModel::note_peaks() {
  stats_.peak_reads = std::max<std::uint64_t>(stats_.peak_reads, reads_.size());
  stats_.peak_writes = std::max<std::uint64_t>(stats_.peak_writes, writes_.size());
  stats_.peak_outstanding = std::max<std::uint64_t>(stats_.peak_outstanding, reads_.size() + writes_.size());
}

bool DramModel::is_ideal_read(const AxiAddr& a) const {
  if (cfg_.ideal_reads.empty()) return false;
  const auto [lo, hi] = detail::burst_span(a);  // [lo, hi], bytes
  const DramRange* range = nullptr;  // the first range holding the whole burst
  for (const DramRange& r : cfg_.ideal_reads)
    if (!range && r.base <= lo && hi < static_cast<std::uint64_t>(r.base) + r.size) range = &r;
  if (!range) return false;
  // the share (the range's own, else ideal_percent): the burst's first line decides (the GPU
  // reads one line a burst); splitmix64 spreads neighbouring lines, so a share covers every
  // texture and tile alike
  const unsigned share = range->percent ? range->percent : cfg_.ideal_percent;
  if (share < 100) {
    std::uint64_t z = (lo >> 6) + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    if (z % 100 >= share) return false;
  }
  // never ahead of an accepted write to the same bytes that has not reached memory yet
  for (const QueueEntry& q : queue_) {
    if (!q.write) continue;
    const auto [wlo, whi] = detail::burst_span(writes_.at(q.seq).a);
    if (wlo <= hi && lo <= whi) return false;
  }
  for (const std::uint64_t seq : aw_wait_) {
    const auto [wlo, whi] = detail::burst_span(writes_.at(seq).a);
    if (wlo <= hi && lo <= whi) return false;
  }
  return true;
}

void DramModel::accept_read(const AxiAddr& a) {
  Txn t;
  t.write = false;
  t.seq = next_seq_++;
  t.a = a;
  t.resp = classify(a, false);
  t.accept_edge = edge_;
  t.complete = true;
  t.ideal = t.resp == AxiResp::okay && is_ideal_read(a);
  ++stats_.reads;
  if (t.ideal) {
    // performed now, no latency; no bus time, beats from the next edge on, one an edge; or
    // (ideal_pays_bus) on the bus now, ahead of the queue, each beat once it has crossed it
    ++stats_.ideal_reads;
    if (cfg_.ideal_pays_bus) {
      const std::uint64_t bpc = cfg_.bytes_per_cycle;
      const std::uint64_t start = std::max(bus_free_, edge_ * bpc);
      const std::uint64_t beats = static_cast<std::uint64_t>(a.len) + 1;
      bus_free_ = start + kAxiDataBytes * beats;
      perform(t, start);
      for (unsigned i = 0; i < t.beat_ready.size(); ++i)
        t.beat_ready[i] = std::max<std::uint64_t>(edge_ + 1 + i, (start + kAxiDataBytes * (i + 1ull) + bpc - 1) / bpc);
    } else {
      perform(t, edge_ * cfg_.bytes_per_cycle);
      for (unsigned i = 0; i < t.beat_ready.size(); ++i) t.beat_ready[i] = edge_ + 1 + i;
    }
    reads_.emplace(t.seq, std::move(t));
    return;
  }
  reads_.emplace(t.seq, std::move(t));
  queue_.push_back({false, next_seq_ - 1});
}

void DramModel::accept_aw(const AxiAddr& a) {
  Txn t;
  t.write = true;
  t.seq = next_seq_++;
  t.a = a;
  t.resp = classify(a, true);
  writes_.emplace(t.seq, std::move(t));
  aw_wait_.push_back(next_seq_ - 1);
  ++stats_.writes;
}

// W beats belong to AWs in AW order (AXI4 has no WID). A write is complete when it has
// AxLEN+1 beats; it then queues for the data bus.
void DramModel::attach_w_beats() {
  while (!aw_wait_.empty() && !w_orphans_.empty()) {
    Txn& t = writes_.at(aw_wait_.front());
    t.wbeats.push_back(w_orphans_.front());
    w_orphans_.pop_front();
    if (t.wbeats.size() == static_cast<std::size_t>(t.a.len) + 1) {
      t.complete = true;
      t.accept_edge = edge_;
      queue_.push_back({true, t.seq});
      aw_wait_.pop_front();
    }
  }
}

// Start transactions on the data bus. Bus time is counted in bytes: edge e begins at
// e * bytes_per_cycle; a transaction may start while the bus has time left in this cycle.
void DramModel::service() {
  const std::uint64_t bpc = cfg_.bytes_per_cycle;
  while (!queue_.empty() && bus_free_ < (edge_ + 1) * bpc) {
    // Eligible: the oldest unserviced transaction of its direction and ID (same-ID order).
    std::vector<std::size_t> eligible;
    std::unordered_set<std::uint64_t> seen;  // (write << 32 | id) already ahead in the queue
    for (std::size_t i = 0; i < queue_.size(); ++i) {
      const QueueEntry& q = queue_[i];
      const Txn& t = q.write ? writes_.at(q.seq) : reads_.at(q.seq);
      const std::uint64_t key = (static_cast<std::uint64_t>(q.write) << 32) | t.a.id;
      if (seen.insert(key).second) eligible.push_back(i);
      if (cfg_.reorder == DramReorder::in_order) break;
    }
    std::size_t pick = eligible.front();
    if (cfg_.reorder == DramReorder::random) pick = eligible[rand_below(eligible.size())];
    else if (cfg_.reorder == DramReorder::youngest_first) pick = eligible.back();
    const QueueEntry q = queue_[pick];
    queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(pick));
    Txn& t = q.write ? writes_.at(q.seq) : reads_.at(q.seq);
    const std::uint64_t start = std::max(bus_free_, edge_ * bpc);
    bus_free_ = start + static_cast<std::uint64_t>(kAxiDataBytes) * (static_cast<std::uint64_t>(t.a.len) + 1);
    perform(t, start);
  }
}

void DramModel::perform(Txn& t, std::uint64_t start) {
  const std::uint64_t bpc = cfg_.bytes_per_cycle;
  const unsigned beats = static_cast<unsigned>(t.a.len) + 1;
  const std::uint64_t jitter = cfg_.latency_jitter ? rand_below(cfg_.latency_jitter + 1ULL) : 0;
  const std::uint64_t offset = start - edge_ * bpc;
  t.serviced = true;
  t.beat_ready.resize(beats);
  for (unsigned i = 0; i < beats; ++i)
    t.beat_ready[i] = edge_ + cfg_.latency + jitter + (offset + static_cast<std::uint64_t>(i) * kAxiDataBytes) / bpc;
  const bool ok = t.resp == AxiResp::okay;
  if (!ok) ++stats_.error_responses;
  if (!t.write) {
    AxiData junk;
    junk.fill(kDramErrorData);
    t.rdata.assign(beats, junk);
  }
  for (unsigned i = 0; i < beats; ++i) {
    const detail::BeatWindow w = detail::beat_window(t.a, i);
    if (t.write) {
      ++stats_.write_beats;
      stats_.write_bytes += w.bytes;
      if (ok) {
        const std::uint64_t strb = t.wbeats[i].strb & w.lanes;
        mem_.write_line(w.line, t.wbeats[i].data, strb);
        stats_.write_bytes_strobed += static_cast<std::uint64_t>(__builtin_popcountll(strb));
      }
    } else {
      ++stats_.read_beats;
      stats_.read_bytes += w.bytes;
      if (ok) t.rdata[i] = mem_.read_line(w.line);  // every lane: the inactive ones are don't-care
    }
  }
  if (t.write) t.wbeats.clear();
}

// R: keep a stalled beat; otherwise continue the burst in progress; otherwise pick among the
// reads whose next beat is due, one per ID (the oldest of that ID), by the reorder policy.
void DramModel::present_r(AxiSlaveSignals& out) {
  if (out_.rvalid) {  // not taken at this edge (clock_edge cleared it otherwise)
    out.rvalid = true;
    out.r = out_.r;
    return;
  }
  const std::uint64_t due = edge_ + 1;  // the edge that would complete a beat presented now
  auto ready = [&](const Txn& t) { return t.serviced && t.beat_ready[t.beats_sent] <= due; };
  const Txn* pick = nullptr;
  if (auto it = reads_.find(cur_r_); it != reads_.end() && it->second.beats_sent > 0) {
    if (ready(it->second)) pick = &it->second;  // no interleaving inside a burst
    else return;
  } else {
    std::vector<const Txn*> cand;
    std::unordered_set<std::uint32_t> seen;
    bool ordinary_seen = false;
    for (const auto& [seq, t] : reads_) {
      if (!seen.insert(t.a.id).second) continue;  // an older read of this ID goes first
      // in order: the oldest ordinary read; ideal reads (no other case has any) at any time
      if (cfg_.reorder == DramReorder::in_order && !t.ideal) {
        if (ordinary_seen) continue;
        ordinary_seen = true;
      }
      if (ready(t)) cand.push_back(&t);
      if (cfg_.reorder == DramReorder::in_order && cfg_.ideal_reads.empty()) break;
    }
    if (cand.empty()) return;
    pick = cand.front();
    if (cfg_.reorder == DramReorder::random) pick = cand[rand_below(cand.size())];
    else if (cfg_.reorder == DramReorder::youngest_first) pick = cand.back();
  }
  cur_r_ = pick->seq;
  out.rvalid = true;
  out.r.id = pick->a.id;
  out.r.data = pick->rdata[pick->beats_sent];
  out.r.resp = static_cast<std::uint8_t>(pick->resp);
  out.r.last = pick->beats_sent == pick->a.len;
}

void DramModel::present_b(AxiSlaveSignals& out) {
  if (out_.bvalid) {
    out.bvalid = true;
    out.b = out_.b;
    return;
  }
  const std::uint64_t due = edge_ + 1;
  std::vector<const Txn*> cand;
  std::unordered_set<std::uint32_t> seen;
  for (const auto& [seq, t] : writes_) {
    if (!seen.insert(t.a.id).second) continue;
    if (t.serviced && t.beat_ready.back() <= due) cand.push_back(&t);
    if (cfg_.reorder == DramReorder::in_order) break;
  }
  if (cand.empty()) return;
  const Txn* pick = cand.front();
  if (cfg_.reorder == DramReorder::random) pick = cand[rand_below(cand.size())];
  else if (cfg_.reorder == DramReorder::youngest_first) pick = cand.back();
  cur_b_ = pick->seq;
  out.bvalid = true;
  out.b.id = pick->a.id;
  out.b.resp = static_cast<std::uint8_t>(pick->resp);
}

void DramModel::compute_readies(const AxiMasterSignals& in, bool ar_taken, bool aw_taken, AxiSlaveSignals& out) {
  const std::uint64_t r = reads_.size(), w = writes_.size();
  const bool read_ok = cfg_.max_reads == 0 || r < cfg_.max_reads;
  const bool write_ok = cfg_.max_writes == 0 || w < cfg_.max_writes;
  const std::uint64_t left = cfg_.max_outstanding == 0 ? ~0ULL : (r + w < cfg_.max_outstanding ? cfg_.max_outstanding - r - w : 0);
  bool ar = read_ok && left >= 1;
  bool aw = write_ok && left >= 1;
  if (ar && aw && left == 1) {
    // One slot for two channels: READY must not wait for VALID, so offer it to the channel
    // that is waiting, or alternate.
    const bool ar_wait = in.arvalid && !ar_taken, aw_wait = in.awvalid && !aw_taken;
    if (ar_wait != aw_wait) {
      ar = ar_wait;
      aw = aw_wait;
    } else {
      ar = prefer_read_;
      aw = !prefer_read_;
      prefer_read_ = !prefer_read_;
    }
  }
  bool wr = w_orphans_.size() < cfg_.w_buffer_beats;
  if (cfg_.ready_stall > 0) {
    std::bernoulli_distribution stall(cfg_.ready_stall);
    if (stall(rng_)) ar = false;
    if (stall(rng_)) aw = false;
    if (stall(rng_)) wr = false;
  }
  out.arready = ar;
  out.awready = aw;
  out.wready = wr;
}

void DramModel::clock_edge(const AxiMasterSignals& in, AxiSlaveSignals& out) {
  edge_ = ++stats_.cycles;
  // 1. Handshakes at this edge, against what this model drove during the cycle.
  if (out_.rvalid && in.rready) {
    auto it = reads_.find(cur_r_);
    Txn& t = it->second;
    ++t.beats_sent;
    out_.rvalid = false;
    if (t.beats_sent == static_cast<unsigned>(t.a.len) + 1) {
      stats_.read_latency_sum += edge_ - t.accept_edge;
      ++stats_.reads_done;
      reads_.erase(it);
    }
  }
  if (out_.bvalid && in.bready) {
    auto it = writes_.find(cur_b_);
    stats_.write_latency_sum += edge_ - it->second.accept_edge;
    ++stats_.writes_done;
    writes_.erase(it);
    out_.bvalid = false;
  }
  const bool ar_taken = in.arvalid && out_.arready;
  const bool aw_taken = in.awvalid && out_.awready;
  if (ar_taken) accept_read(in.ar);
  if (aw_taken) accept_aw(in.aw);
  if (in.wvalid && out_.wready) w_orphans_.push_back(in.w);
  attach_w_beats();
  note_peaks();
  // 2. The data bus.
  service();
  // 3. Outputs for the next cycle.
  AxiSlaveSignals next;
  present_r(next);
  present_b(next);
  compute_readies(in, ar_taken, aw_taken, next);
  out_ = next;
  out = next;
}

}  // namespace tessera::sim
