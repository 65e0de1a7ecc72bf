// tess-throttle-study: what the source's hull-shader throttle buys, measured on the
// cycle-exact throttle model (HsThrottleModel, compared with the RTL in tb/tess) inside a
// model of one geometry slice's shader-slot pool (docs/tessellation.md "A first measurement").
//
// The slice: S shader slots shared by the hull shader and the domain shader. An HS thread
// group takes one slot for base + per_patch x patches cycles. The patch distributor hands a
// patch to TESS + DS: its triangles (the reference tessellator's count) give
// ceil(vertices / 32) DS waves, each taking a slot for ds_latency cycles; once every wave of
// the patch has a slot, the distributor reads the next patch (the throttle's read enable).
// Free slots go to DS waves first, then to HS launches the throttle grants. Greedy launching
// fills the slots with HS thread groups that run far ahead of the DS; the throttle holds them
// back when the queued DS work (counter 435) is many HS latencies long.
//
// Prints, per scene (factor mix) and throttle mode, the cycles to finish every patch.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "tessera/sim/hs_throttle_model.hpp"
#include "tessera/sim/tessellator.hpp"

using namespace tessera::sim;

namespace {

struct Scene {
  std::string name;
  std::vector<PatchFactors> patches;
};

struct SliceConfig {
  unsigned slots = 16;
  unsigned patches_per_tg = 4;
  unsigned hs_base = 60, hs_per_patch = 10;
  unsigned ds_latency = 40, wave = 32;
  unsigned rate = 1;
  unsigned tg_depth = 4, patch_depth = 8;   // the throttle's buffers (the RTL default: 4, 8)
  bool hs_first = false;   // free slots go to HS launches before DS waves (greedy launching)
  // An HS thread group's slot stays taken until the distributor has taken all its patches: its
  // output (control points, factors) lives in the slot's on-chip memory until the tessellator
  // reads it, as the source's premise has it (paragraph 10); otherwise it is freed at HS done.
  bool hold_until_consumed = false;
};

struct Result {
  bool deadlock = false;       // every slot held by thread groups whose output the DS cannot consume
  std::uint64_t cycles = 0;
  std::uint64_t hs_stall = 0;   // a launcher had a thread group, the throttle or the slots refused
  std::uint64_t ds_stall = 0;   // DS waves waited for a slot
  std::vector<std::uint64_t> inflight_hist = std::vector<std::uint64_t>(9, 0);
  // cycles under each limit (0: none, 2, 4, 8), and of them the cycles the DS waited for a slot
  std::vector<std::uint64_t> limit_cycles = std::vector<std::uint64_t>(9, 0);
  std::vector<std::uint64_t> limit_ds_stall = std::vector<std::uint64_t>(9, 0);
};

Result run(const Scene& sc, ThrottleMode mode, unsigned cap, const SliceConfig& cfg) {
  HsThrottleModel thr(ThrottleConfig{2, cfg.tg_depth, cfg.patch_depth, 16, 20});
  const std::size_t n = sc.patches.size();
  std::size_t next_tg_patch = 0;    // first patch of the next thread group to launch
  std::size_t next_tf = 0;          // next patch whose factors circuit 405 reads
  std::vector<unsigned> tg_size;    // patches per launched thread group
  struct Hs {
    unsigned launcher;
    std::uint64_t done_at;
  };
  std::deque<Hs> hs_running[2];
  std::vector<std::uint64_t> ds_free_at;   // DS waves holding slots: their end cycles
  std::deque<unsigned> held;               // thread groups holding a slot for their output, in launch order
  unsigned hs_holding = 0;                 // slots held by thread groups (running or output not consumed)
  unsigned ds_waves_left = 0;              // waves of the current patch still without a slot
  std::size_t patches_taken = 0;
  Result r;
  std::uint64_t cyc = 0;
  unsigned launcher_rr = 0;
  while (patches_taken < n || ds_waves_left > 0 || !ds_free_at.empty()) {
    if (++cyc > 400'000) {
      r.deadlock = true;
      break;
    }
    // DS waves finishing this cycle free their slots
    ds_free_at.erase(std::remove_if(ds_free_at.begin(), ds_free_at.end(), [&](std::uint64_t t) { return t <= cyc; }),
                     ds_free_at.end());
    unsigned used = static_cast<unsigned>(ds_free_at.size()) + hs_holding;
    auto dispatch_ds = [&] {
      while (ds_waves_left > 0 && used < cfg.slots) {
        ds_free_at.push_back(cyc + cfg.ds_latency);
        --ds_waves_left;
        ++used;
      }
    };
    // DS waves first, unless HS launches take the free slots first (below, after the launch)
    if (!cfg.hs_first) dispatch_ds();
    // the throttle's inputs
    ThrottleInputs in;
    in.mode = mode;
    in.cap = cap;
    in.rate = cfg.rate;
    in.launch_req.assign(2, false);
    in.launch_npatch.assign(2, 0);
    in.hs_done.assign(2, false);
    const bool have_tg = next_tg_patch < n;
    const unsigned this_tg = have_tg ? static_cast<unsigned>(std::min<std::size_t>(cfg.patches_per_tg, n - next_tg_patch)) : 0;
    if (have_tg && used < cfg.slots) {
      in.launch_req[launcher_rr] = true;
      in.launch_npatch[launcher_rr] = this_tg;
    }
    for (unsigned h = 0; h < 2; ++h) in.hs_done[h] = !hs_running[h].empty() && hs_running[h].front().done_at <= cyc;
    in.tf_valid = next_tf < n;
    if (in.tf_valid) in.tf = sc.patches[next_tf];
    in.patch_ready = ds_waves_left == 0;
    const ThrottleOutputs o = thr.clock(in);
    r.inflight_hist[std::min(o.inflight, 8u)]++;
    if (have_tg && !o.launch_gnt[launcher_rr]) ++r.hs_stall;
    for (unsigned h = 0; h < 2; ++h)
      if (in.hs_done[h]) {
        hs_running[h].pop_front();
        if (!cfg.hold_until_consumed) --hs_holding;
      }
    if (o.launch_gnt[launcher_rr]) {
      hs_running[launcher_rr].push_back(Hs{launcher_rr, cyc + cfg.hs_base + cfg.hs_per_patch * this_tg});
      next_tg_patch += this_tg;
      launcher_rr ^= 1;
      ++used;
      ++hs_holding;
      held.push_back(this_tg);
    }
    if (cfg.hs_first) dispatch_ds();
    if (ds_waves_left > 0) ++r.ds_stall;
    r.limit_cycles[std::min(o.limit, 8u)]++;
    if (ds_waves_left > 0) r.limit_ds_stall[std::min(o.limit, 8u)]++;
    if (in.tf_valid && o.tf_ready) ++next_tf;
    if (o.patch_valid && in.patch_ready) {
      const std::uint32_t tris = tess_triangle_count(o.patch.kind, o.patch);
      const std::uint32_t verts = o.patch.kind == PatchKind::Isoline ? 2 * prim_estimate(o.patch) : tris + 2;
      ds_waves_left = std::max<std::uint32_t>(1, (verts + cfg.wave - 1) / cfg.wave);
      ++patches_taken;
      if (--held.front() == 0) {   // the thread group's output is consumed
        held.pop_front();
        if (cfg.hold_until_consumed) --hs_holding;
      }
    }
  }
  r.cycles = cyc;
  return r;
}

Scene make_scene(const std::string& name, unsigned patches, double p_high, unsigned lo_max, unsigned hi_min,
                 unsigned hi_max, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Scene s{name, {}};
  for (unsigned i = 0; i < patches; ++i) {
    const bool high = std::uniform_real_distribution<double>(0, 1)(rng) < p_high;
    auto f = [&] {
      return static_cast<std::uint8_t>(high ? std::uniform_int_distribution<unsigned>(hi_min, hi_max)(rng)
                                            : std::uniform_int_distribution<unsigned>(1, lo_max)(rng));
    };
    s.patches.push_back(PatchFactors{PatchKind::Quad, f(), f()});
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1;
  struct Setup {
    unsigned tg_depth, patch_depth;
    bool hs_first, hold;
  };
  for (const Setup& su : {Setup{4, 8, false, false}, Setup{4, 8, true, false}, Setup{16, 32, true, false},
                          Setup{4, 8, false, true}, Setup{16, 32, false, true}, Setup{4, 8, true, true},
                          Setup{16, 32, true, true}}) {
  SliceConfig cfg;
  cfg.tg_depth = su.tg_depth;
  cfg.patch_depth = su.patch_depth;
  cfg.hs_first = su.hs_first;
  cfg.hold_until_consumed = su.hold;
  const std::vector<Scene> scenes = {make_scene("mixed (20 % factors 16..48, the rest 1..3)", 600, 0.2, 3, 16, 48, seed),
                                     make_scene("uniformly low (factors 1..3)", 600, 0.0, 3, 0, 0, seed + 1)};
  fmt::print("tess-throttle-study (seed {}): one geometry slice, {} shader slots, thread groups of {} patches, HS "
             "latency {} + {}/patch, DS waves of {} vertices x {} cycles; throttle buffers: {} thread groups per "
             "launcher, {} patches; free slots to {} first; an HS thread group's slot freed {}\n\n",
             seed, cfg.slots, cfg.patches_per_tg, cfg.hs_base, cfg.hs_per_patch, cfg.wave, cfg.ds_latency, cfg.tg_depth,
             cfg.patch_depth, cfg.hs_first ? "HS launches" : "DS waves",
             cfg.hold_until_consumed ? "when its patches are consumed" : "when the HS is done");
  for (const Scene& sc : scenes) {
    fmt::print("{}: {} quad patches\n", sc.name, sc.patches.size());
    fmt::print("  {:<10} {:>10} {:>9} {:>10} {:>10}   thread groups in flight (share of cycles 0..8)\n", "throttle",
               "cycles", "vs greedy", "HS stall", "DS stall");
    const Result greedy = run(sc, ThrottleMode::Off, 0, cfg);
    struct M {
      std::string name;
      ThrottleMode mode;
      unsigned cap;
    };
    for (const M& m : {M{"off", ThrottleMode::Off, 0}, M{"source", ThrottleMode::Source, 0}, M{"cap:2", ThrottleMode::Cap, 2},
                       M{"cap:4", ThrottleMode::Cap, 4}, M{"cap:8", ThrottleMode::Cap, 8}}) {
      const Result r = run(sc, m.mode, m.cap, cfg);
      std::string hist;
      for (std::uint64_t h : r.inflight_hist) hist += fmt::format(" {:3.0f}", 100.0 * static_cast<double>(h) / static_cast<double>(r.cycles));
      if (r.deadlock) {
        fmt::print("  {:<10} {:>10}  (every slot held by thread groups whose output the DS cannot consume)\n", m.name,
                   "deadlock");
        continue;
      }
      const std::string vs = greedy.deadlock ? std::string("-")
                                             : fmt::format("{:.1f}%", 100.0 * (static_cast<double>(r.cycles) /
                                                                                   static_cast<double>(greedy.cycles) -
                                                                               1.0));
      fmt::print("  {:<10} {:>10} {:>9} {:>10} {:>10}  {}\n", m.name, r.cycles, vs, r.hs_stall, r.ds_stall, hist);
      if (m.mode == ThrottleMode::Source)
        fmt::print("  {:<10} the source's limit: none {} cycles (DS waiting in {}), 2: {} ({}), 4: {} ({}), 8: {} ({})\n",
                   "", r.limit_cycles[0], r.limit_ds_stall[0], r.limit_cycles[2], r.limit_ds_stall[2],
                   r.limit_cycles[4], r.limit_ds_stall[4], r.limit_cycles[8], r.limit_ds_stall[8]);
    }
    fmt::print("\n");
  }
  }
  return 0;
}
