// TessStageModel (tess_stage_model.hpp): the tessellation stage's cycle semantics, written from
// rtl/tess/tess_stage.sv's header text and docs/tessellation.md.
#include "tessera/sim/tess_stage_model.hpp"

#include <stdexcept>

namespace tessera::sim {

namespace {
constexpr unsigned kWave = 32;   // vertices per DS wave
}

TessStageModel::TessStageModel(TessStageConfig cfg)
    : cfg_(cfg), thr_(ThrottleConfig{1, cfg.tg_depth, 8, 16, 20}) {
  if (cfg_.slots < 2 || cfg_.patch_cap == 0 || cfg_.vq_depth == 0 || cfg_.wave_depth == 0 || cfg_.tok_bits == 0 ||
      cfg_.tok_bits > 64)
    throw std::invalid_argument("TessStageModel: at least 2 slots, non-empty FIFOs and a token of 1..64 bits");
  reset();
}

void TessStageModel::reset() {
  thr_.reset();
  now_ = 0;
  pram_.clear();
  tf_.clear();
  open_n_ = 0;
  closed_.clear();
  held_.clear();
  held_hold_.clear();
  cons_n_ = 0;
  meta_ = 0;
  running_.clear();
  hs_slots_ = ds_slots_ = 0;
  tp_tok_ = 0;
  vq_.clear();
  waves_.clear();
  wn_ = 0;
  on_ = 0;
}

TessStageOutputs TessStageModel::clock(const TessStageInputs& in) {
  const TessStageRegs& r = in.regs;
  TessStageOutputs o;
  const std::uint64_t tok_mask = cfg_.tok_bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << cfg_.tok_bits) - 1;

  // ---- configuration ----
  const unsigned tg_size = (r.tg_size & 0xF) == 0 ? 1 : (r.tg_size & 0xF);
  const unsigned slots_raw = r.slots & 0x1F;
  const unsigned slots = (slots_raw == 0 || slots_raw > cfg_.slots) ? cfg_.slots : (slots_raw < 2 ? 2 : slots_raw);
  o.slots = slots;

  // ---- collector side and thread groups ----
  o.in_ready = pram_.size() < cfg_.patch_cap && tf_.size() < cfg_.patch_cap;
  const bool in_go = in.in_valid && o.in_ready;
  const unsigned open_new = open_n_ + (in_go ? 1U : 0U);
  // >=: a tg_size lowered while a group is open closes it at once (rtl/tess/tess_stage.sv)
  const bool close = open_new != 0 && (open_new >= tg_size || in.close);
  o.close = close;
  o.close_partial = close && open_new < tg_size;

  // ---- slot pool: the DS first, then a launch that leaves a slot for the DS ----
  const unsigned used = hs_slots_ + ds_slots_;
  unsigned pending = 0;
  for (const Wave& w : waves_) pending += w.granted ? 0U : 1U;
  const bool ds_grant = pending != 0 && used < slots;
  const bool hs_slot_ok = used + (ds_grant ? 1U : 0U) + 2 <= slots;
  const bool launch_req = !closed_.empty() && hs_slot_ok;
  o.ds_grant = ds_grant;
  o.launch_req = launch_req;

  // ---- HS completion (launch order) ----
  const bool hs_done = !running_.empty() && now_ >= running_.front().done_at;

  // ---- the throttle (one launcher): launch grant, forward, parse, patch FIFO ----
  ThrottleInputs ti;
  ti.mode = r.mode;
  ti.cap = r.cap & 0x1F;
  ti.rate = r.rate & 0xF;
  ti.launch_req.assign(1, launch_req);
  ti.launch_npatch.assign(1, closed_.empty() ? 0 : closed_.front());
  ti.hs_done.assign(1, hs_done);
  ti.tf_valid = !tf_.empty();
  if (ti.tf_valid) ti.tf = tf_.front();
  ti.patch_ready = in.ts_ready;
  const ThrottleOutputs t = thr_.clock(ti);
  const bool launch = t.launch_gnt.at(0);
  const bool tf_pop = ti.tf_valid && t.tf_ready;
  o.limit = t.limit;
  o.inflight = t.inflight;
  o.hs_meta = meta_;

  // ---- distributor ----
  o.ts_valid = t.patch_valid;
  if (o.ts_valid) {
    if (pram_.empty() || !(pram_.front().f == t.patch))
      throw std::logic_error("TessStageModel: the throttle's patch is not the patch RAM's head");
    o.ts = t.patch;
    o.ts_cp = pram_.front().cp;
  }
  const bool take = o.ts_valid && in.ts_ready;
  if (take && held_.empty()) throw std::logic_error("TessStageModel: a patch taken from no launched thread group");
  const bool hs_release = take && cons_n_ + 1 == held_.front();
  o.take = take;
  o.hs_release = hs_release;

  // ---- DS waves ----
  o.tv_ready = vq_.size() < cfg_.vq_depth && waves_.size() < cfg_.wave_depth;
  const bool tv_go = in.tv_valid && o.tv_ready;
  const bool wave_close = tv_go && (in.tv.patch_end || wn_ == kWave - 1);
  o.wave_closed = wave_close ? wn_ + 1 : 0;
  const bool out_ok = !waves_.empty() && waves_.front().granted && now_ >= waves_.front().out_at;
  o.out_valid = !vq_.empty() && out_ok;
  if (o.out_valid) o.out = vq_.front();
  const bool vq_pop = o.out_valid && in.out_ready;
  const bool ds_release = vq_pop && on_ + 1 == waves_.front().n;

  // ---- state and events ----
  o.busy = open_n_ != 0 || !closed_.empty() || !held_.empty() || !pram_.empty() || wn_ != 0 || !waves_.empty() ||
           !vq_.empty();
  o.ev_launch = launch;
  o.ev_hs_done = hs_done;
  o.ev_hs_lat = hs_done ? static_cast<unsigned>((now_ - running_.front().t0) & 0xFFFF) : 0;
  o.hs_stall = !closed_.empty() && !launch;
  o.ds_stall = pending != 0 && !ds_grant;
  o.slots_used = used;

  // ---- next state ----
  const std::uint64_t tok_q = tp_tok_;   // vertices of this cycle carry the token taken before it
  if (in_go) {
    StagePatch p = in.in;
    p.tok &= tok_mask;
    tf_.push_back(p.f);
    pram_.push_back(p);
  }
  // a closed group can be launched from the next cycle (launch looks at the groups closed before)
  if (launch) {
    const unsigned n = closed_.front();
    closed_.pop_front();
    held_.push_back(n);
    held_hold_.push_back(r.hold);
    const unsigned lat = (r.hs_base + r.hs_per_patch * n) & 0x1FFF;
    running_.push_back(Hs{now_ + 1 + lat, now_, r.hold});
    o.launch_npatch = n;
    ++meta_;
  }
  if (close) closed_.push_back(open_new);
  open_n_ = close ? 0 : open_new;
  // the group's slot: freed when its HS is done (hold 0) or when it is consumed (hold 1)
  unsigned hs_free = 0;
  if (hs_done) {
    if (!running_.front().hold) ++hs_free;
    running_.pop_front();
  }
  if (t.forward) --meta_;
  if (tf_pop) tf_.pop_front();
  if (take) {
    tp_tok_ = pram_.front().tok;
    pram_.pop_front();
    if (hs_release) {
      if (held_hold_.front()) ++hs_free;
      held_.pop_front();
      held_hold_.pop_front();
      cons_n_ = 0;
    } else {
      ++cons_n_;
    }
  }
  hs_slots_ = hs_slots_ + (launch ? 1U : 0U) - hs_free;
  ds_slots_ = ds_slots_ + (ds_grant ? 1U : 0U) - (ds_release ? 1U : 0U);
  // the grant goes to the oldest formed wave (not to one forming this cycle)
  if (ds_grant) {
    for (Wave& w : waves_) {
      if (!w.granted) {
        w.granted = true;
        w.out_at = now_ + 1 + (r.ds_lat & 0xFFF);
        break;
      }
    }
  }
  if (vq_pop) {
    vq_.pop_front();
    if (ds_release) {
      waves_.pop_front();
      on_ = 0;
    } else {
      ++on_;
    }
  }
  if (tv_go) {
    vq_.push_back(StageVertexOut{in.tv.vtx, in.tv.tri_end, tok_q});
    if (wave_close) {
      waves_.push_back(Wave{wn_ + 1, false, 0});
      wn_ = 0;
    } else {
      ++wn_;
    }
  }
  ++now_;
  return o;
}

}  // namespace tessera::sim
