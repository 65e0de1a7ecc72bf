// HsThrottleModel (hs_throttle_model.hpp): the throttle's cycle semantics, written from
// docs/tessellation.md "The throttle" and the source's figures 3-7.
#include "tessera/sim/hs_throttle_model.hpp"

#include <algorithm>
#include <stdexcept>

namespace tessera::sim {

std::uint32_t prim_estimate(const PatchFactors& p) {
  const std::uint32_t a = std::min<std::uint32_t>(p.f1, 64), b = std::min<std::uint32_t>(p.f2, 64);
  switch (p.kind) {
    case PatchKind::Quad: return a && b ? 2 * a * b : 0;
    case PatchKind::Tri: return a ? a * a + (a * a) / 2 : 0;   // floor(1.5 * a^2)
    case PatchKind::Isoline: return a && b ? a * b : 0;
  }
  return 0;
}

HsThrottleModel::HsThrottleModel(ThrottleConfig cfg) : cfg_(cfg) {
  if (cfg_.num_hs == 0 || cfg_.tg_depth == 0 || cfg_.patch_depth == 0)
    throw std::invalid_argument("HsThrottleModel: launchers, metadata and patch FIFO depths must be at least 1");
  reset();
}

void HsThrottleModel::reset() {
  meta_.assign(cfg_.num_hs, {});
  seq_ = next_seq_ = rr_ = 0;
  window_.assign(8, 0);
  window_count_ = 0;
  inflight_ = limit_ = left_ = 0;
  fifo_.clear();
  total_ = err_ = 0;
  up_ = cur_ = false;
  avg_ = 0;
  avg_ok_ = false;
}

ThrottleOutputs HsThrottleModel::clock(const ThrottleInputs& in) {
  const unsigned n = cfg_.num_hs;
  const std::uint64_t rate = in.rate == 0 ? 1 : in.rate;
  const std::uint64_t cnt_max = (std::uint64_t{1} << cfg_.cnt_bits) - 1;
  const std::uint64_t lat_max = (std::uint64_t{1} << cfg_.lat_bits) - 1;
  ThrottleOutputs o;
  o.launch_gnt.assign(n, false);

  // ---- what the unit shows this cycle (registered state and combinational handshakes) ----
  std::uint64_t sum = 0;
  for (std::uint64_t v : window_) sum += v;
  const std::uint64_t avg = avg_;   // registered: the window's mean one cycle ago
  o.total = total_;
  o.error = err_;
  o.error_up = up_;
  o.avg_lat = static_cast<std::uint32_t>(avg);
  o.avg_valid = avg_ok_;
  const std::uint64_t next_avg = (sum >> 3) & lat_max;
  const bool next_avg_ok = window_count_ == 8;
  o.limit = limit_;
  o.inflight = inflight_;
  // launch: round robin from rr_, within the limit, room in the launcher's metadata buffer
  const bool allowed = limit_ == 0 || inflight_ < limit_;
  int gnt = -1;
  for (unsigned k = 0; k < n && allowed; ++k) {
    const unsigned h = (rr_ + k) % n;
    if (in.launch_req.at(h) && meta_[h].size() < cfg_.tg_depth) {
      gnt = static_cast<int>(h);
      break;
    }
  }
  if (gnt >= 0) o.launch_gnt[static_cast<unsigned>(gnt)] = true;
  // arbiter 330: the oldest entry of a launcher, done, with the next sequence number
  int fwd = -1;
  for (unsigned h = 0; h < n; ++h)
    if (!meta_[h].empty() && meta_[h].front().done && meta_[h].front().seq == next_seq_) fwd = static_cast<int>(h);
  o.forward = left_ == 0 && fwd >= 0;
  // parse and FIFO
  o.tf_ready = left_ != 0 && fifo_.size() < cfg_.patch_depth;
  const bool tf_fire = in.tf_valid && o.tf_ready;
  o.patch_valid = !fifo_.empty();
  if (o.patch_valid) {
    o.patch = fifo_.front().f;
    o.patch_est = fifo_.front().est;
  }
  const bool take = o.patch_valid && in.patch_ready;
  const bool done_cur = cur_ && in.patch_ready;

  // ---- method 700: the next limit, from this cycle's state ----
  unsigned next_limit = 0;
  if (in.mode == ThrottleMode::Cap) {
    next_limit = in.cap == 0 ? 1 : in.cap;
  } else if (in.mode == ThrottleMode::Source && avg_ok_) {
    const std::uint64_t l = avg * rate;
    if (total_ > 8 * l) next_limit = 2;
    else if (total_ > 4 * l) next_limit = 4;
    else if (total_ > 2 * l) next_limit = 8;
  }

  // ---- counters 435 and 440 ----
  std::uint64_t t = total_ > rate ? total_ - rate : 0;   // block 515
  if (done_cur && up_) t += err_;                         // block 535
  else if (done_cur) t = t > err_ ? t - err_ : 0;         // block 615 (610: err_ == 0)
  const std::uint32_t est_w = tf_fire ? prim_estimate(in.tf) : 0;
  t += est_w;                                             // block 510
  const std::uint64_t next_total = std::min(t, cnt_max);
  std::uint64_t next_err = err_;
  bool next_up = up_, next_cur = cur_;
  if (take) {
    next_err = fifo_.front().est;
    next_up = false;
    next_cur = true;
  } else if (done_cur) {
    next_err = 0;
    next_up = false;
    next_cur = false;
  } else if (cur_ && !up_) {
    if (err_ > rate) {
      next_err = err_ - rate;
    } else {
      next_err = 0;
      next_up = true;
    }
  } else if (cur_ && up_) {
    next_err = std::min(err_ + rate, cnt_max);
  }

  // ---- state updates, in the RTL's order ----
  for (auto& q : meta_)
    for (Entry& e : q)
      if (!e.done && e.lat != lat_max) ++e.lat;   // the latency counters count this cycle first...
  for (unsigned h = 0; h < n; ++h) {               // ...completions use the value before it
    if (!in.hs_done.at(h)) continue;
    for (Entry& e : meta_[h]) {
      if (e.done) continue;
      e.done = true;
      const std::uint64_t lat_before = e.lat == lat_max ? lat_max : e.lat - 1;   // value this cycle
      window_.pop_front();
      window_.push_back(lat_before == lat_max ? lat_max : lat_before + 1);
      if (window_count_ < 8) ++window_count_;
      --inflight_;
      break;
    }
  }
  if (o.forward) {
    const unsigned h = static_cast<unsigned>(fwd);
    left_ = meta_[h].front().npatch;
    meta_[h].pop_front();
    ++next_seq_;
  } else if (tf_fire) {
    --left_;
  }
  if (gnt >= 0) {
    const unsigned h = static_cast<unsigned>(gnt);
    meta_[h].push_back(Entry{seq_++, in.launch_npatch.at(h), 0, false});
    ++inflight_;
    rr_ = (h + 1) % n;
  }
  if (take) fifo_.pop_front();
  if (tf_fire) fifo_.push_back(Patch{in.tf, est_w});
  total_ = next_total;
  err_ = next_err;
  up_ = next_up;
  cur_ = next_cur;
  limit_ = next_limit;
  avg_ = next_avg;
  avg_ok_ = next_avg_ok;
  return o;
}

}  // namespace tessera::sim
