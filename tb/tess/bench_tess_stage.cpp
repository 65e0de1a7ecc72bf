// Bench of one geometry slice's tessellation stage (rtl/tess/tess_stage.sv, docs/tessellation.md
// "The slice's tessellation stage") on tess_stage (16 slots, 8 thread
// groups in the throttle, 32 patches, 256 vertices, 16 DS waves, 57-bit tokens).
//
// Scoreboard, two layers:
//   - TessStageModel (sim/tess), written from the stage's header text around HsThrottleModel,
//     is compared with the RTL every cycle on every port: in_ready, the distributor's patch
//     (kind, factors, control points), tv_ready, the DS output (vertex, tri_end, token), busy,
//     the launch and HS-done events with the HS latency, the HS and DS stall flags, the thread
//     groups in flight and the slots used.
//   - Independently of the model, every patch accepted must reach the ts_* side once, in order,
//     with kind, factors and control points intact, and every vertex the tessellator hands
//     over must leave out_* once, in order, with its tri_end and the token of the patch it was
//     made from. Properties: the pool is never over-committed, a launch leaves a slot for the
//     DS, no vertex leaves before its wave has run ds_lat cycles, launches stay within a cap,
//     each HS takes at least its configured latency; at each drain every launched thread group
//     has finished, the groups together held every patch, no slot is used. A stretch without
//     any handshake or event longer than one HS plus one DS latency (+2000) fails as a hang.
//     The environment follows the RTL's handshakes, not the model's.
// Environment: random patches (quad, triangle, isoline; factors mostly 1..4, some 16..64,
// some 0 and above 64), random control points and tokens, random close_i pulses, a fake
// tessellator that takes a patch when idle (after a random delay) and emits a vertex stream
// for it (none for culled patches and some others, up to 200, tri_end every third vertex,
// patch_end on the last, random gaps), random backpressure on out_ready_i, and random
// register configurations (TESS_SHADER.hold included) changed between phases once the stage
// has drained.
//
// Rerun a test: RANDOM_SEED=<n> TESTCASE=<name> build/tb/tess/bench_tess_stage (WAVES=1 for an
// FST). TESSERA_REGRESS=1 makes the random tests 10x longer.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "Vtess_stage.h"
#include "prim_tb.hpp"
#include "tb/test.hpp"
#include "tessera/sim/tess_stage_model.hpp"

using tb::RisingEdge;
using tb::Task;
using tessera::sim::ControlPoints;
using tessera::sim::PatchFactors;
using tessera::sim::PatchKind;
using tessera::sim::StagePatch;
using tessera::sim::StageVertexOut;
using tessera::sim::TessStageInputs;
using tessera::sim::TessStageModel;
using tessera::sim::TessStageOutputs;
using tessera::sim::TessStageRegs;
using tessera::sim::ThrottleMode;
using tessera::sim::VertexBits;
using V = Vtess_stage;

namespace {

constexpr unsigned kSlots = 16, kTgDepth = 8, kTokBits = 57, kWave = 32;
constexpr std::uint64_t kTokMask = (std::uint64_t{1} << kTokBits) - 1;

unsigned effective_slots(unsigned raw) { return (raw == 0 || raw > kSlots) ? kSlots : std::max(raw, 2U); }

struct Knobs {
  TessStageRegs regs;
  double in_idle = 0.3;        // P(no new patch offered in a cycle)
  double close_p = 0.03;       // P(close_i in a cycle)
  double high_factor = 0.1;    // P(a patch with factors 16..64)
  double zero_vtx = 0.05;      // P(a patch with factors that the fake tessellator expands into nothing)
  unsigned max_vtx = 200;      // vertices of one patch at most
  double tv_gap = 0.15;        // P(the tessellator has no vertex ready in a cycle)
  unsigned ts_delay = 3;       // the tessellator waits 0..ts_delay cycles before it takes a patch
  double out_stall = 0.2;      // P(out_ready_i low in a cycle)
};

std::string show(const TessStageRegs& r) {
  return fmt::format("mode {} cap {} rate {} tg_size {} slots {} hold {} hs_base {} hs_per_patch {} ds_lat {}",
                     static_cast<unsigned>(r.mode), r.cap, r.rate, r.tg_size, r.slots, r.hold ? 1 : 0, r.hs_base,
                     r.hs_per_patch, r.ds_lat);
}

template <std::size_t N, class W>
bool words_equal(const std::array<std::uint32_t, N>& a, const W& w) {
  for (std::size_t i = 0; i < N; ++i)
    if (a[i] != w[i]) return false;
  return true;
}

template <std::size_t N>
std::string hex(const std::array<std::uint32_t, N>& a) {
  std::string s;
  for (std::size_t i = N; i-- > 0;) s += fmt::format("{:08x}", a[i]);
  return s;
}

template <std::size_t N, class W>
std::array<std::uint32_t, N> words(const W& w) {
  std::array<std::uint32_t, N> a{};
  for (std::size_t i = 0; i < N; ++i) a[i] = w[i];
  return a;
}

class Bench {
 public:
  explicit Bench(tb::Dut<V>& dut) : dut_(dut) {}

  Task<> reset(const TessStageRegs& regs) {
    k_.regs = regs;
    co_await primtb::clock_and_reset(dut_, [this] {
      TessStageInputs idle;
      idle.regs = k_.regs;
      drive(idle);
    });
    model_.reset();
  }

  // Offer `patches` random patches with the knobs' configuration, then drain: every patch
  // delivered, every vertex out, the tessellator idle and busy_o low. The configuration
  // changes only here, with the stage empty.
  Task<> phase(const Knobs& k, unsigned patches) {
    k_ = k;
    to_send_ = patches;
    ++phases_;
    const unsigned slots = effective_slots(k_.regs.slots & 0x1F);
    const std::uint64_t hs_max = k_.regs.hs_base + 15ULL * k_.regs.hs_per_patch;
    // The longest stretch without any handshake or event: one HS countdown or one DS wave's
    // latency, plus slack for backpressure and the tessellator's gaps.
    quiet_max_ = hs_max + k_.regs.ds_lat + 2000;
    const std::uint64_t bound = 100000 + patches * (hs_max + 3ULL * k_.regs.ds_lat / slots + 400);
    const std::uint64_t start = cycle_;
    last_progress_ = cycle_;
    while (!drained()) {
      if (cycle_ - start > bound)
        tb::fail(fmt::format("phase {} ({}) not drained after {} cycles: {}", phases_, show(k_.regs), bound, state()));
      co_await cycle();
      if (cycle_ - last_progress_ > quiet_max_)
        tb::fail(fmt::format("cycle {}: no handshake or event for {} cycles (hang), phase {} ({}): {}", cycle_,
                             quiet_max_, phases_, show(k_.regs), state()));
    }
    // drained: every thread group launched has finished its HS, and together they held every
    // patch sent; nothing holds a slot
    primtb::check(hs_sizes_.empty() && launched_patches_ == patches_out_,
                  "phase {} drained with {} thread groups running and {} patches launched in thread groups for {} "
                  "delivered",
                  phases_, hs_sizes_.size(), launched_patches_, patches_out_);
    primtb::check(last_used_ == 0 && last_inflight_ == 0, "phase {} drained with {} slots used, {} in flight",
                  phases_, last_used_, last_inflight_);
  }

  primtb::Coverage& coverage() { return cov_; }
  std::string summary() const {
    return fmt::format("{} phases, {} cycles, {} patches ({} without vertices), {} thread groups, {} vertices, {} "
                       "DS waves; {}",
                       phases_, cycle_, patches_out_, zero_patches_, launches_, vertices_out_, waves_formed_,
                       cov_.report());
  }

 private:
  struct ExpVertex {
    StageVertexOut v;
    std::uint64_t wave = 0;   // index of its DS wave (bench numbering)
  };
  struct Tess {                      // the fake tessellator
    bool busy = false;               // expanding a patch
    unsigned delay = 0;              // idle cycles left before it takes the next patch
    std::uint64_t tok = 0;           // token of the patch being expanded
    unsigned n = 0, sent = 0;        // its vertices, and how many the stage took
    bool offering = false;           // tv_valid_i held
    VertexBits vtx{};
  };

  bool drained() const {
    return to_send_ == 0 && !offered_ && exp_patches_.empty() && exp_vtx_.empty() && !tess_.busy && !last_busy_;
  }

  std::string state() const {
    return fmt::format("{} patches to send{}, {} patches and {} vertices expected, tessellator {} ({}/{} vertices), "
                       "busy_o {}, slots used {}, in flight {}, limit (model) {}",
                       to_send_, offered_ ? " (one offered)" : "", exp_patches_.size(), exp_vtx_.size(),
                       tess_.busy ? "busy" : "idle", tess_.sent, tess_.n, last_busy_, last_used_, last_inflight_,
                       last_.limit);
  }

  // ---- one cycle: the environment's inputs, the RTL against the model and the scoreboard ----
  Task<> cycle() {
    const TessStageInputs in = inputs();
    tb::defer([this, in] { drive(in); });
    co_await RisingEdge(dut_->clk_i);
    const TessStageOutputs want = model_.clock(in);
    compare(want);
    check_properties(in, want);
    react(in, want);
    last_ = want;
    last_busy_ = dut_->busy_o;
    last_used_ = dut_->slots_used_o;
    last_inflight_ = dut_->inflight_o;
    ++cycle_;
  }

  StagePatch random_patch() {
    StagePatch p;
    p.f.kind = static_cast<PatchKind>(tb::randint(0, 2));
    const bool high = tb::chance(k_.high_factor);
    auto factor = [&] {
      if (tb::chance(0.03)) return std::uint8_t{0};                                   // culled
      if (tb::chance(0.03)) return static_cast<std::uint8_t>(tb::randint(65, 255));   // counts as 64
      return static_cast<std::uint8_t>(high ? tb::randint(16, 64) : tb::randint(1, 4));
    };
    p.f.f1 = factor();
    p.f.f2 = factor();
    for (auto& w : p.cp) w = static_cast<std::uint32_t>(tb::randint(0, 0xFFFFFFFFULL));
    p.tok = tb::randint(0, kTokMask);
    return p;
  }

  TessStageInputs inputs() {
    TessStageInputs in;
    in.regs = k_.regs;
    if (!offered_ && to_send_ > 0 && !tb::chance(k_.in_idle)) {
      offered_ = true;
      offer_ = random_patch();
    }
    in.in_valid = offered_;
    in.in = offered_ ? offer_ : StagePatch{};
    // close_i stands for a non-patch item behind the patches; once the source is empty the
    // last partial group must be closed, so it comes more often
    in.close = tb::chance(to_send_ == 0 && !offered_ ? 0.2 : k_.close_p);
    if (!tess_.busy && tess_.delay > 0) --tess_.delay;
    in.ts_ready = !tess_.busy && tess_.delay == 0;
    if (tess_.busy && !tess_.offering && !tb::chance(k_.tv_gap)) {
      tess_.offering = true;
      for (auto& w : tess_.vtx) w = static_cast<std::uint32_t>(tb::randint(0, 0xFFFFFFFFULL));
    }
    in.tv_valid = tess_.offering;
    in.tv.vtx = tess_.vtx;
    in.tv.tri_end = tess_.offering && tess_.sent % 3 == 2;
    in.tv.patch_end = tess_.offering && tess_.sent + 1 == tess_.n;
    in.out_ready = !tb::chance(k_.out_stall);
    return in;
  }

  void drive(const TessStageInputs& in) {
    const TessStageRegs& r = in.regs;
    dut_->mode_i = static_cast<unsigned>(r.mode);
    dut_->cap_i = r.cap;
    dut_->rate_i = r.rate;
    dut_->tg_size_i = r.tg_size;
    dut_->slots_i = r.slots;
    dut_->hold_i = r.hold ? 1 : 0;
    dut_->hs_base_i = static_cast<std::uint16_t>(r.hs_base);
    dut_->hs_per_patch_i = r.hs_per_patch;
    dut_->ds_lat_i = static_cast<std::uint16_t>(r.ds_lat);
    dut_->in_valid_i = in.in_valid;
    dut_->in_kind_i = static_cast<unsigned>(in.in.f.kind);
    dut_->in_f1_i = in.in.f.f1;
    dut_->in_f2_i = in.in.f.f2;
    for (unsigned i = 0; i < 16; ++i) dut_->in_cp_i[i] = in.in.cp[i];
    dut_->in_tok_i = in.in.tok;
    dut_->close_i = in.close;
    dut_->ts_ready_i = in.ts_ready;
    dut_->tv_valid_i = in.tv_valid;
    for (unsigned i = 0; i < 4; ++i) dut_->tv_vtx_i[i] = in.tv.vtx[i];
    dut_->tv_tri_end_i = in.tv.tri_end;
    dut_->tv_patch_end_i = in.tv.patch_end;
    dut_->out_ready_i = in.out_ready;
  }

  // ---- every port against the model ----
  void compare(const TessStageOutputs& w) {
    auto fail_if = [&](bool bad, const char* what, std::uint64_t got, std::uint64_t want) {
      if (bad)
        tb::fail(fmt::format("cycle {}: {} is {}, the model says {} (phase {}: {}; model: slots used {} of {}, in "
                             "flight {}, limit {}, DS grant {}, launch request {}, busy {})",
                             cycle_, what, got, want, phases_, show(k_.regs), w.slots_used, w.slots, w.inflight,
                             w.limit, w.ds_grant, w.launch_req, w.busy));
    };
    fail_if(dut_->in_ready_o != w.in_ready, "in_ready_o", dut_->in_ready_o, w.in_ready);
    fail_if(dut_->ts_valid_o != w.ts_valid, "ts_valid_o", dut_->ts_valid_o, w.ts_valid);
    if (w.ts_valid) {
      fail_if(dut_->ts_kind_o != static_cast<unsigned>(w.ts.kind), "ts_kind_o", dut_->ts_kind_o,
              static_cast<unsigned>(w.ts.kind));
      fail_if(dut_->ts_f1_o != w.ts.f1, "ts_f1_o", dut_->ts_f1_o, w.ts.f1);
      fail_if(dut_->ts_f2_o != w.ts.f2, "ts_f2_o", dut_->ts_f2_o, w.ts.f2);
      if (!words_equal(w.ts_cp, dut_->ts_cp_o))
        tb::fail(fmt::format("cycle {}: ts_cp_o is {}, the model says {}", cycle_, hex(words<16>(dut_->ts_cp_o)),
                             hex(w.ts_cp)));
    }
    fail_if(dut_->tv_ready_o != w.tv_ready, "tv_ready_o", dut_->tv_ready_o, w.tv_ready);
    fail_if(dut_->out_valid_o != w.out_valid, "out_valid_o", dut_->out_valid_o, w.out_valid);
    if (w.out_valid) {
      if (!words_equal(w.out.vtx, dut_->out_vtx_o))
        tb::fail(fmt::format("cycle {}: out_vtx_o is {}, the model says {}", cycle_, hex(words<4>(dut_->out_vtx_o)),
                             hex(w.out.vtx)));
      fail_if(dut_->out_tri_end_o != w.out.tri_end, "out_tri_end_o", dut_->out_tri_end_o, w.out.tri_end);
      fail_if(dut_->out_tok_o != w.out.tok, "out_tok_o", dut_->out_tok_o, w.out.tok);
    }
    fail_if(dut_->busy_o != w.busy, "busy_o", dut_->busy_o, w.busy);
    fail_if(dut_->ev_launch_o != w.ev_launch, "ev_launch_o", dut_->ev_launch_o, w.ev_launch);
    fail_if(dut_->ev_hs_done_o != w.ev_hs_done, "ev_hs_done_o", dut_->ev_hs_done_o, w.ev_hs_done);
    if (w.ev_hs_done) fail_if(dut_->ev_hs_lat_o != w.ev_hs_lat, "ev_hs_lat_o", dut_->ev_hs_lat_o, w.ev_hs_lat);
    fail_if(dut_->hs_stall_o != w.hs_stall, "hs_stall_o", dut_->hs_stall_o, w.hs_stall);
    fail_if(dut_->ds_stall_o != w.ds_stall, "ds_stall_o", dut_->ds_stall_o, w.ds_stall);
    fail_if(dut_->inflight_o != w.inflight, "inflight_o", dut_->inflight_o, w.inflight);
    fail_if(dut_->slots_used_o != w.slots_used, "slots_used_o", dut_->slots_used_o, w.slots_used);
  }

  // ---- what the header promises, checked on the RTL's ports without the model ----
  void check_properties(const TessStageInputs& in, const TessStageOutputs& w) {
    const unsigned slots = effective_slots(in.regs.slots & 0x1F);
    const unsigned used = dut_->slots_used_o;
    primtb::check(used <= slots, "cycle {}: {} slots used of a pool of {}", cycle_, used, slots);
    if (dut_->ev_launch_o)
      primtb::check(used + 2 <= slots, "cycle {}: a thread group launched with {} of {} slots used (one must stay for "
                    "the DS)", cycle_, used, slots);
    if (last_launch_)
      primtb::check(used + 1 <= slots, "cycle {}: the cycle after a launch, {} of {} slots are used: none left for "
                    "the DS", cycle_, used, slots);
    last_launch_ = dut_->ev_launch_o;
    if (dut_->ev_launch_o && in.regs.mode == ThrottleMode::Cap) {
      const unsigned cap = (in.regs.cap & 0x1F) == 0 ? 1 : (in.regs.cap & 0x1F);
      primtb::check(dut_->inflight_o < cap, "cycle {}: a launch with {} thread groups in flight, cap {}", cycle_,
                    dut_->inflight_o, cap);
    }
    if (dut_->ev_launch_o && w.limit != 0)
      primtb::check(dut_->inflight_o < w.limit, "cycle {}: a launch with {} thread groups in flight, limit {}", cycle_,
                    dut_->inflight_o, w.limit);
    primtb::check(dut_->inflight_o <= kTgDepth, "cycle {}: {} thread groups in flight, the launcher tracks {}", cycle_,
                  dut_->inflight_o, kTgDepth);
    if (dut_->ev_hs_done_o) {
      primtb::check(!hs_sizes_.empty(), "cycle {}: ev_hs_done_o without a thread group launched", cycle_);
      const std::uint64_t min_lat = in.regs.hs_base + std::uint64_t{in.regs.hs_per_patch} * hs_sizes_.front() + 1;
      primtb::check(dut_->ev_hs_lat_o >= min_lat,
                    "cycle {}: the HS of a thread group of {} patches done after {} cycles, it takes {} + {} x {}",
                    cycle_, hs_sizes_.front(), dut_->ev_hs_lat_o, in.regs.hs_base, in.regs.hs_per_patch,
                    hs_sizes_.front());
      cov_.hit("HS done late (behind an older group)", dut_->ev_hs_lat_o > min_lat);
    }
  }

  // ---- the environment reacts to this cycle's handshakes as the RTL's ports show them (the
  // scoreboard does not lean on the model; `w` serves the model's view for coverage) ----
  void react(const TessStageInputs& in, const TessStageOutputs& w) {
    const unsigned slots = effective_slots(in.regs.slots & 0x1F);
    bool progress = false;
    // collector
    if (in.in_valid && dut_->in_ready_o) {
      exp_patches_.push_back(offer_);
      exp_patches_.back().tok &= kTokMask;
      offered_ = false;
      --to_send_;
      progress = true;
    }
    // thread groups and HS
    if (dut_->ev_launch_o) {
      hs_sizes_.push_back(w.launch_npatch);
      launched_patches_ += w.launch_npatch;
      ++launches_;
      progress = true;
    }
    if (dut_->ev_hs_done_o && !hs_sizes_.empty()) {
      hs_sizes_.pop_front();
      progress = true;
    }
    // distributor -> fake tessellator
    if (dut_->ts_valid_o && in.ts_ready) {
      primtb::check(!exp_patches_.empty(), "cycle {}: the tessellator got a patch nobody sent", cycle_);
      const StagePatch& e = exp_patches_.front();
      const PatchFactors got{static_cast<PatchKind>(dut_->ts_kind_o), static_cast<std::uint8_t>(dut_->ts_f1_o),
                             static_cast<std::uint8_t>(dut_->ts_f2_o)};
      primtb::check(got == e.f && words_equal(e.cp, dut_->ts_cp_o),
                    "cycle {}: patch {} reached the tessellator as kind {} f1 {} f2 {} cp {}, it was sent as kind {} "
                    "f1 {} f2 {} cp {}",
                    cycle_, patches_out_, static_cast<unsigned>(got.kind), got.f1, got.f2,
                    hex(words<16>(dut_->ts_cp_o)), static_cast<unsigned>(e.f.kind), e.f.f1, e.f.f2, hex(e.cp));
      start_patch(e);
      exp_patches_.pop_front();
      ++patches_out_;
      progress = true;
    }
    // fake tessellator -> DS
    if (in.tv_valid && dut_->tv_ready_o) {
      exp_vtx_.push_back(ExpVertex{StageVertexOut{in.tv.vtx, in.tv.tri_end, tess_.tok}, waves_formed_});
      ++wave_fill_;
      if (in.tv.patch_end || wave_fill_ == kWave) {
        wave_closed_at_.push_back(cycle_);
        ++waves_formed_;
        wave_fill_ = 0;
      }
      tess_.offering = false;
      if (++tess_.sent == tess_.n) end_patch();
      progress = true;
    }
    // DS -> TSEFE_S
    if (dut_->out_valid_o && in.out_ready) {
      primtb::check(!exp_vtx_.empty(), "cycle {}: a vertex left that the tessellator never sent", cycle_);
      const ExpVertex& e = exp_vtx_.front();
      const StageVertexOut got{words<4>(dut_->out_vtx_o), dut_->out_tri_end_o != 0, dut_->out_tok_o};
      primtb::check(got == e.v,
                    "cycle {}: vertex {} left as {} tri_end {} token {:#x}, the tessellator sent {} tri_end {} for the "
                    "patch with token {:#x}",
                    cycle_, vertices_out_, hex(got.vtx), got.tri_end, got.tok, hex(e.v.vtx), e.v.tri_end, e.v.tok);
      primtb::check(e.wave < waves_formed_, "cycle {}: vertex {} left before its DS wave was complete", cycle_,
                    vertices_out_);
      const std::uint64_t closed = wave_closed_at_[e.wave - wave_base_];
      primtb::check(cycle_ >= closed + 1 + in.regs.ds_lat,
                    "cycle {}: vertex {} left {} cycles after its wave was formed; the DS takes {} cycles after the "
                    "wave's grant",
                    cycle_, vertices_out_, cycle_ - closed, in.regs.ds_lat);
      exp_vtx_.pop_front();
      // forget the formation cycles of waves whose vertices have all left
      const std::uint64_t oldest = exp_vtx_.empty() ? waves_formed_ : exp_vtx_.front().wave;
      while (wave_base_ < oldest && !wave_closed_at_.empty()) {
        wave_closed_at_.pop_front();
        ++wave_base_;
      }
      ++vertices_out_;
      progress = true;
    }
    if (progress) last_progress_ = cycle_ + 1;

    // coverage
    const bool source = in.regs.mode == ThrottleMode::Source;
    cov_.hit("limit 2 (source)", source && w.limit == 2);
    cov_.hit("limit 4 (source)", source && w.limit == 4);
    cov_.hit("limit 8 (source)", source && w.limit == 8);
    cov_.hit("launch refused by the throttle", w.hs_stall && w.launch_req && w.limit != 0 && w.inflight >= w.limit);
    cov_.hit("launch refused for a slot", w.hs_stall && !w.launch_req);
    cov_.hit("launch refused, metadata buffer full", w.hs_stall && w.launch_req && w.hs_meta == kTgDepth);
    cov_.hit("hs_stall", w.hs_stall);
    cov_.hit("ds_stall", w.ds_stall);
    cov_.hit("pool full", w.slots_used == slots);
    cov_.hit("launch and DS grant together", w.ev_launch && w.ds_grant);
    cov_.hit("partial group closed by close_i", w.close_partial);
    cov_.hit("wave of 32", w.wave_closed == kWave);
    cov_.hit("wave closed by a patch end", w.wave_closed != 0 && w.wave_closed < kWave);
    cov_.hit("patch FIFO full", !w.in_ready);
    cov_.hit("vertices refused (FIFO or waves full)", !w.tv_ready && in.tv_valid);
    cov_.hit("wave of 32 ending a patch", w.wave_closed == kWave && in.tv.patch_end);
  }

  void start_patch(const StagePatch& p) {
    tess_.busy = true;
    tess_.tok = p.tok & kTokMask;
    tess_.sent = 0;
    const std::uint32_t est = tessera::sim::prim_estimate(p.f);
    // a culled patch makes no vertices; some others none either (isolines, say); otherwise
    // up to three per estimated triangle, at most max_vtx
    if (est == 0 || tb::chance(k_.zero_vtx)) {
      tess_.n = 0;
    } else {
      const unsigned most = static_cast<unsigned>(std::min<std::uint64_t>(k_.max_vtx, 3ULL * est));
      tess_.n = tb::chance(0.4) ? most : static_cast<unsigned>(tb::randint(1, most));
    }
    if (tess_.n == 0) {
      ++zero_patches_;
      cov_.hit("zero-vertex patch");
      end_patch();
    }
  }

  void end_patch() {
    tess_.busy = false;
    tess_.offering = false;
    tess_.delay = static_cast<unsigned>(tb::randint(0, k_.ts_delay));
  }

  tb::Dut<V>& dut_;
  Knobs k_;
  TessStageModel model_;
  primtb::Coverage cov_;
  std::uint64_t cycle_ = 0, last_progress_ = 0, quiet_max_ = 0;
  unsigned phases_ = 0;
  // source
  std::uint64_t to_send_ = 0;
  bool offered_ = false;
  StagePatch offer_;
  // scoreboard
  std::deque<StagePatch> exp_patches_;
  std::deque<ExpVertex> exp_vtx_;
  std::deque<unsigned> hs_sizes_;            // launched thread groups, HS not done: patches
  std::deque<std::uint64_t> wave_closed_at_;  // cycle each DS wave was formed, from wave_base_
  std::uint64_t wave_base_ = 0, waves_formed_ = 0;
  unsigned wave_fill_ = 0;
  Tess tess_;
  TessStageOutputs last_;
  bool last_busy_ = false, last_launch_ = false;
  unsigned last_used_ = 0, last_inflight_ = 0;
  std::uint64_t patches_out_ = 0, vertices_out_ = 0, zero_patches_ = 0, launches_ = 0, launched_patches_ = 0;
};

TessStageRegs random_regs() {
  TessStageRegs r;
  r.mode = static_cast<ThrottleMode>(tb::randint(0, 2));
  r.cap = static_cast<unsigned>(tb::chance(0.8) ? tb::randint(0, 8) : tb::randint(9, 31));
  r.rate = static_cast<unsigned>(tb::randint(0, 15));
  r.tg_size = static_cast<unsigned>(tb::randint(0, 15));
  r.slots = static_cast<unsigned>(tb::chance(0.1) ? tb::randint(21, 31) : tb::randint(0, 20));
  r.hs_base = static_cast<unsigned>(tb::chance(0.05) ? tb::randint(0, 4095) : tb::randint(0, 200));
  r.hs_per_patch = static_cast<unsigned>(tb::chance(0.05) ? tb::randint(0, 255) : tb::randint(0, 30));
  r.ds_lat = static_cast<unsigned>(tb::randint(0, 300));
  r.hold = tb::chance(0.5);
  return r;
}

Knobs random_knobs() {
  Knobs k;
  k.regs = random_regs();
  k.in_idle = tb::chance(0.3) ? 0.0 : 0.5 * static_cast<double>(tb::randint(0, 100)) / 100.0;
  k.close_p = tb::chance(0.3) ? 0.0 : 0.1 * static_cast<double>(tb::randint(0, 100)) / 100.0;
  k.high_factor = tb::chance(0.5) ? 0.05 : 0.4;
  k.tv_gap = 0.3 * static_cast<double>(tb::randint(0, 100)) / 100.0;
  k.ts_delay = static_cast<unsigned>(tb::randint(0, 6));
  k.out_stall = tb::chance(0.2) ? 0.0 : 0.6 * static_cast<double>(tb::randint(0, 100)) / 100.0;
  return k;
}

}  // namespace

// Random register configurations (every mode, caps, rates, thread-group sizes 0..15, pool sizes
// 0..31, HS and DS latencies), each run until the stage has drained, then the next.
// Catches: a launch that takes the DS's last slot or over-commits the pool, a slot freed too
// early (at the HS's done instead of the group's last patch) or never, HS latencies off by a
// cycle or counted from the wrong launch, HS done out of launch order, a wave of 33 or a patch
// end that does not close a wave, a wave leaving before ds_lat or granted out of order, DS
// waves not served before HS launches, a partial group never closed, a patch or vertex lost,
// duplicated or reordered, control points or tokens mixed up between patches, slots_i and
// tg_size_i clamps wrong, busy_o falling while work is held.
TB_TEST(V, random_configs) {
  Bench b(dut);
  Knobs first = random_knobs();
  co_await b.reset(first.regs);
  const std::uint64_t phases = tb::scaled(30, 300);
  for (std::uint64_t p = 0; p < phases; ++p) {
    const Knobs k = p == 0 ? first : random_knobs();
    co_await b.phase(k, static_cast<unsigned>(tb::randint(60, 160)));
  }
  dut.log().info("{}", b.summary());
  std::vector<std::string> must;
  for (const char* w : {"hs_stall", "ds_stall", "pool full", "partial group closed by close_i", "wave of 32",
                        "wave closed by a patch end", "zero-vertex patch", "launch refused for a slot",
                        "HS done late (behind an older group)"})
    must.push_back(w);
  for (const std::string& w : must) b.coverage().require(w, 3);
  b.coverage().require("wave of 32 ending a patch", 1);
}

// The source's throttle (TM_SOURCE) against patches with many high factors: the DS side falls
// behind, the throttle's total outgrows the HS latency and limits launches to 8, 4 and 2.
// Catches: the stage not wiring the throttle's grant, the group's patch count or the HS's
// completion to it (launches beyond the limit, a limit never reached because latencies are
// never recorded), the throttle's patch FIFO and the patch RAM falling out of step.
TB_TEST(V, source_throttle_high_factors) {
  Bench b(dut);
  Knobs k;
  k.regs.mode = ThrottleMode::Source;
  k.regs.slots = 16;
  k.in_idle = 0.05;
  k.high_factor = 0.5;
  k.out_stall = 0.3;
  k.ts_delay = 2;
  co_await b.reset(k.regs);
  // Eight phases, half of them with mostly low factors: the backlog then sits between 2x and
  // 4x the HS latency often enough for the 8-in-flight limit (four phases of high factors
  // alone missed it with some seeds, e.g. 586032107).
  const std::uint64_t phases = tb::scaled(8, 40);
  for (std::uint64_t p = 0; p < phases; ++p) {
    k.high_factor = p % 2 == 0 ? 0.5 : 0.1;
    k.regs.rate = static_cast<unsigned>(tb::randint(1, 6));
    k.regs.tg_size = static_cast<unsigned>(tb::randint(1, 4));
    k.regs.hs_base = static_cast<unsigned>(tb::randint(10, 60));
    k.regs.hs_per_patch = static_cast<unsigned>(tb::randint(0, 8));
    k.regs.ds_lat = static_cast<unsigned>(tb::randint(0, 60));
    co_await b.phase(k, static_cast<unsigned>(tb::randint(150, 250)));
  }
  dut.log().info("{}", b.summary());
  std::vector<std::string> must;
  for (const char* w : {"limit 2 (source)", "limit 4 (source)", "limit 8 (source)", "launch refused by the throttle"})
    must.push_back(w);
  for (const std::string& w : must) b.coverage().require(w, 3);
}

// Greedy launching (TM_OFF) with long HS latencies, small thread groups and slow DS waves: the
// HS takes every slot it may and the DS waves the rest, so the pool runs full.
// Catches: greedy launching taking the last slot (a deadlock of the pool: the DS waits for a
// slot the HS only frees once the DS has drained the tessellator), DS waves starved by
// launches, a full pool over-committed by a launch and a wave grant in the same cycle, the
// pool size clamps (2, 16, above 16).
TB_TEST(V, greedy_fills_pool) {
  Bench b(dut);
  Knobs k;
  k.regs.mode = ThrottleMode::Off;
  k.in_idle = 0.0;
  k.high_factor = 0.3;
  k.out_stall = 0.5;
  k.ts_delay = 0;
  k.tv_gap = 0.0;
  co_await b.reset(k.regs);
  std::vector<unsigned> pools;
  for (unsigned s : {2u, 3u, 16u, 0u, 25u}) pools.push_back(s);
  for (std::uint64_t p = 3; p < tb::scaled(6, 30); ++p) pools.push_back(static_cast<unsigned>(tb::randint(1, 20)));
  for (unsigned slots : pools) {
    k.regs.slots = slots;
    k.regs.tg_size = static_cast<unsigned>(tb::randint(0, 2));
    k.regs.hs_base = static_cast<unsigned>(tb::randint(40, 150));
    k.regs.hs_per_patch = static_cast<unsigned>(tb::randint(0, 20));
    k.regs.ds_lat = static_cast<unsigned>(tb::randint(30, 300));
    co_await b.phase(k, static_cast<unsigned>(tb::randint(80, 140)));
  }
  dut.log().info("{}", b.summary());
  std::vector<std::string> must;
  for (const char* w : {"pool full", "hs_stall", "ds_stall", "launch refused for a slot",
                        "launch refused, metadata buffer full", "vertices refused (FIFO or waves full)"})
    must.push_back(w);
  for (const std::string& w : must) b.coverage().require(w, 3);
}

// The registers at their limits, one phase each: slots_i 1 (acts as 2), 31 (acts as 16) and 0
// (16); tg_size_i 0 (acts as 1) and 15; cap 0 (acts as 1); rate 0; HS and DS latencies 0 and
// at their widths (hs_base 4095 + 255 x 15 patches = 7920 cycles, ds_lat 4095); a free-flowing
// phase (no latencies, no backpressure) where launches and DS grants meet in one cycle.
// Catches: a clamp of slots_i or tg_size_i wrong, a countdown truncated to fewer bits than the
// register (a 7920-cycle HS or a 4095-cycle wave finishing early), a latency of 0 taking a
// cycle less than one (done in the launch's own cycle), a launch that ignores the DS grant of
// its cycle.
TB_TEST(V, corner_configs) {
  Bench b(dut);
  auto regs = [](ThrottleMode mode, unsigned cap, unsigned rate, unsigned tg, unsigned slots, unsigned base,
                 unsigned per, unsigned ds) {
    TessStageRegs r;
    r.mode = mode;
    r.cap = cap;
    r.rate = rate;
    r.tg_size = tg;
    r.slots = slots;
    r.hs_base = base;
    r.hs_per_patch = per;
    r.ds_lat = ds;
    return r;
  };
  struct Phase {
    TessStageRegs r;
    unsigned patches;
    double close_p, out_stall, high, in_idle;
    unsigned max_vtx = 200;
  };
  std::vector<Phase> phases;
  phases.push_back(Phase{regs(ThrottleMode::Cap, 0, 0, 0, 1, 0, 0, 0), 150, 0.02, 0.2, 0.1, 0.3});
  phases.push_back(Phase{regs(ThrottleMode::Off, 0, 0, 0, 0, 0, 0, 0), 300, 0.0, 0.0, 0.0, 0.0});
  // patches trickle in and the tessellator keeps up: a group's launch and the previous
  // patch's wave grant fall into one cycle now and then
  phases.push_back(Phase{regs(ThrottleMode::Off, 0, 0, 1, 16, 0, 0, 0), 300, 0.0, 0.0, 0.0, 0.85, 6});
  phases.push_back(Phase{regs(ThrottleMode::Off, 0, 0, 15, 31, 0, 255, 0), 100, 0.01, 0.1, 0.1, 0.3});
  phases.push_back(Phase{regs(ThrottleMode::Source, 0, 15, 15, 2, 4095, 255, 300), 32, 0.0, 0.2, 0.3, 0.3});
  phases.push_back(Phase{regs(ThrottleMode::Cap, 31, 1, 2, 20, 3, 1, 4095), 40, 0.05, 0.2, 0.2, 0.3});
  Knobs k;
  k.regs = phases.front().r;
  co_await b.reset(k.regs);
  for (const Phase& p : phases) {
    k.regs = p.r;
    k.close_p = p.close_p;
    k.out_stall = p.out_stall;
    k.high_factor = p.high;
    const bool fast = p.out_stall == 0.0;
    k.in_idle = p.in_idle;
    k.max_vtx = p.max_vtx;
    k.tv_gap = fast ? 0.0 : 0.15;
    k.ts_delay = fast ? 0 : 3;
    co_await b.phase(k, p.patches);
  }
  dut.log().info("{}", b.summary());
  b.coverage().require("launch and DS grant together", 3);
  b.coverage().require("HS done late (behind an older group)", 1);
}
