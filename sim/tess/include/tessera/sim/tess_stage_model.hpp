// TessStageModel: the C++ reference of one geometry slice's tessellation stage
// (rtl/tess/tess_stage.sv), written from that unit's header text and docs/tessellation.md
// ("Next: HS, DS and the shader-slot pool in the slice", "The throttle"): thread groups, the
// HS launcher with the throttle (HsThrottleModel, one launcher), the patch distributor, DS
// waves and the slice's shader-slot pool. Cycle-based like HsThrottleModel: clock() takes the
// cycle's inputs, returns what the stage shows during that cycle (registered state and the
// combinational handshakes), then advances.
//
// Cycle semantics (what "written from the header" resolves to, cycle by cycle):
//   - The patch RAM and the TF FIFO are FIFOs without fall-through: a patch accepted in cycle
//     t is readable from t+1; in_ready depends only on their fullness (PATCH_CAP).
//   - Thread groups: the open group takes the accepted patch; it closes when it reaches
//     tg_size patches (0 acts as 1) or close is high while it holds a patch (the patch
//     accepted in that cycle included). A closed group can launch from the next cycle.
//   - Slots: slots (0 or above SLOTS acts as SLOTS, below 2 as 2). A DS wave is granted when
//     one is formed and not granted and used < slots (one per cycle, in order). A launch is
//     requested when a closed group waits and used + ds_grant + 2 <= slots (one slot kept for
//     the DS), and granted by the throttle (its limit, its metadata buffer).
//   - HS: the countdown hs_base + hs_per_patch x n (13 bits) is loaded at the launch and
//     decremented each cycle while above 0; the oldest running group is done in the cycle its
//     countdown is 0 (launch in t, countdown L: done in t + 1 + L at the earliest, later only
//     behind an older group). ev_hs_lat = cycles from the launch to the done (16 bits, wraps).
//   - Distributor: the throttle's patch FIFO head is the patch offered to the tessellator
//     (ts_valid); ts_ready is its read enable. The group's slot is freed when its last patch
//     is taken. The vertices the tessellator sends carry the token of the last patch taken
//     before their cycle.
//   - DS: vertices enter the vertex FIFO (VQ_DEPTH) while fewer than WAVE_DEPTH waves are
//     held; a wave closes at 32 vertices or with a patch's end; granted in cycle g with ds_lat
//     D, its vertices may leave from g + 1 + D, in order; its slot is freed with its last
//     vertex.
#pragma once

#include <array>
#include <cstdint>
#include <deque>

#include "tessera/sim/hs_throttle_model.hpp"

namespace tessera::sim {

struct TessStageConfig {
  unsigned slots = 16;        // SLOTS: the pool's size (slots_i caps it)
  unsigned tg_depth = 8;      // TG_DEPTH: the throttle's metadata entries (thread groups launched, not forwarded)
  unsigned patch_cap = 32;    // PATCH_CAP: patch RAM and TF FIFO entries
  unsigned vq_depth = 256;    // VQ_DEPTH: vertex FIFO entries
  unsigned wave_depth = 16;   // WAVE_DEPTH: DS waves formed or running
  unsigned tok_bits = 57;     // TOK_W
};

// The registers (GEOM TESS_THROTTLE, TESS_TG, TESS_SLOTS, TESS_HS_LAT, TESS_DS_LAT) as the
// stage's inputs, raw.
struct TessStageRegs {
  ThrottleMode mode = ThrottleMode::Off;
  unsigned cap = 0, rate = 1;
  unsigned tg_size = 1;        // 4 bits, 0 acts as 1
  unsigned slots = 0;          // 5 bits
  unsigned hs_base = 0;        // 12 bits
  unsigned hs_per_patch = 0;   // 8 bits
  unsigned ds_lat = 0;         // 12 bits
  bool hold = true;            // an HS slot held until its group is consumed (else freed at HS done)
};

using ControlPoints = std::array<std::uint32_t, 16>;   // 512 bits, least significant word first
using VertexBits = std::array<std::uint32_t, 4>;       // 128 bits

struct StagePatch {
  PatchFactors f;
  ControlPoints cp{};
  std::uint64_t tok = 0;
  bool operator==(const StagePatch&) const = default;
};

struct StageVertexIn {
  VertexBits vtx{};
  bool tri_end = false, patch_end = false;
};

struct StageVertexOut {
  VertexBits vtx{};
  bool tri_end = false;
  std::uint64_t tok = 0;
  bool operator==(const StageVertexOut&) const = default;
};

struct TessStageInputs {
  TessStageRegs regs;
  bool in_valid = false;
  StagePatch in;
  bool close = false;
  bool ts_ready = false;
  bool tv_valid = false;
  StageVertexIn tv;
  bool out_ready = false;
};

struct TessStageOutputs {
  // ports
  bool in_ready = false;
  bool ts_valid = false;
  PatchFactors ts;             // valid with ts_valid
  ControlPoints ts_cp{};       // valid with ts_valid
  bool tv_ready = false;
  bool out_valid = false;
  StageVertexOut out;          // valid with out_valid
  bool busy = false;
  bool ev_launch = false, ev_hs_done = false;
  unsigned ev_hs_lat = 0;      // valid with ev_hs_done
  bool hs_stall = false, ds_stall = false;
  unsigned inflight = 0, slots_used = 0;
  // the model's view of internal events (no ports; for checks and coverage)
  unsigned slots = 0;          // the effective pool size
  unsigned limit = 0;          // the throttle's limit (0: unlimited)
  bool ds_grant = false;
  bool launch_req = false;     // a closed group and a slot for it (the throttle decides)
  unsigned launch_npatch = 0;  // patches of the group launched (with ev_launch)
  bool close = false;          // a thread group closed ...
  bool close_partial = false;  // ... by close with fewer than tg_size patches
  unsigned wave_closed = 0;    // vertices of the DS wave that closed this cycle (0: none)
  bool take = false;           // the tessellator took a patch
  bool hs_release = false;     // ... the last of its thread group
  unsigned hs_meta = 0;        // thread groups launched, not yet forwarded by the throttle
};

class TessStageModel {
 public:
  explicit TessStageModel(TessStageConfig cfg = {});
  void reset();
  TessStageOutputs clock(const TessStageInputs& in);
  const TessStageConfig& config() const { return cfg_; }

 private:
  struct Hs {
    std::uint64_t done_at = 0;   // first cycle its countdown shows 0
    std::uint64_t t0 = 0;        // launch cycle
    bool hold = true;            // TESS_SHADER.hold at the launch
  };
  struct Wave {
    unsigned n = 0;              // vertices
    bool granted = false;
    std::uint64_t out_at = 0;    // first cycle its vertices may leave (granted)
  };

  TessStageConfig cfg_;
  HsThrottleModel thr_;
  std::uint64_t now_ = 0;
  std::deque<StagePatch> pram_;          // patch RAM FIFO (accepted, not taken)
  std::deque<PatchFactors> tf_;          // TF FIFO (accepted, not parsed by the throttle)
  unsigned open_n_ = 0;                  // patches of the open group
  std::deque<unsigned> closed_;          // closed, not launched (patch counts)
  std::deque<unsigned> held_;            // launched, not consumed (front: being consumed)
  std::deque<bool> held_hold_;           // ... TESS_SHADER.hold at each one's launch
  unsigned cons_n_ = 0;                  // patches taken of held_.front()
  unsigned meta_ = 0;                    // launched, not forwarded (the throttle's buffer)
  std::deque<Hs> running_;               // HS not done, launch order
  unsigned hs_slots_ = 0, ds_slots_ = 0;
  std::uint64_t tp_tok_ = 0;             // token of the last patch taken
  std::deque<StageVertexOut> vq_;        // vertex FIFO
  std::deque<Wave> waves_;               // formed, not released (front: the output wave)
  unsigned wn_ = 0;                      // vertices of the open wave
  unsigned on_ = 0;                      // vertices of the output wave that have left
};

}  // namespace tessera::sim
