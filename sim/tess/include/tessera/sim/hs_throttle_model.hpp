// HsThrottleModel: the C++ reference of the hull-shader launch throttle
// (rtl/tess/tess_hs_throttle.sv), written from the source document's figures 3-7
// (003_64193d4bb05efb1b.txt paragraphs 26-55) and the cycle semantics in docs/tessellation.md
// "The throttle". Cycle-based: clock() takes the cycle's inputs, returns what the unit shows
// during that cycle (its registered state and the combinational handshakes), then advances.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

namespace tessera::sim {

enum class PatchKind : std::uint8_t { Quad = 0, Tri = 1, Isoline = 2 };
enum class ThrottleMode : std::uint8_t { Off = 0, Source = 1, Cap = 2 };

struct PatchFactors {
  PatchKind kind = PatchKind::Quad;
  std::uint8_t f1 = 1, f2 = 1;   // quad: inside factors; triangle: f1; isoline: density, detail
  bool operator==(const PatchFactors&) const = default;
};

// The source's block 505 estimate: quad 2*in1*in2, triangle floor(1.5*in1^2), isoline f1*f2,
// factors above 64 counted as 64, a factor of 0 culls (0).
std::uint32_t prim_estimate(const PatchFactors& p);

struct ThrottleConfig {
  unsigned num_hs = 2, tg_depth = 4, patch_depth = 8;
  unsigned lat_bits = 16, cnt_bits = 20;
};

struct ThrottleInputs {
  ThrottleMode mode = ThrottleMode::Source;
  unsigned cap = 0, rate = 1;
  std::vector<bool> launch_req;          // per launcher
  std::vector<unsigned> launch_npatch;   // per launcher (>= 1 when requesting)
  std::vector<bool> hs_done;             // per launcher
  bool tf_valid = false;
  PatchFactors tf;
  bool patch_ready = false;
};

struct ThrottleOutputs {
  std::vector<bool> launch_gnt;
  bool tf_ready = false;
  bool patch_valid = false;
  PatchFactors patch;
  std::uint32_t patch_est = 0;
  std::uint64_t total = 0, error = 0;
  bool error_up = false;
  std::uint32_t avg_lat = 0;
  bool avg_valid = false;
  unsigned limit = 0, inflight = 0;
  bool forward = false;
};

class HsThrottleModel {
 public:
  explicit HsThrottleModel(ThrottleConfig cfg = {});
  void reset();
  ThrottleOutputs clock(const ThrottleInputs& in);

 private:
  struct Entry {
    unsigned seq = 0, npatch = 0;
    std::uint64_t lat = 0;
    bool done = false;
  };
  struct Patch {
    PatchFactors f;
    std::uint32_t est = 0;
  };
  ThrottleConfig cfg_;
  std::vector<std::deque<Entry>> meta_;   // per launcher, oldest first
  unsigned seq_ = 0, next_seq_ = 0, rr_ = 0;
  std::deque<std::uint64_t> window_;      // the last eight HS latencies, newest last (zeros at first)
  unsigned window_count_ = 0;             // latencies recorded, up to 8
  std::uint64_t avg_ = 0;                 // registered average (the window one cycle ago)
  bool avg_ok_ = false;
  unsigned inflight_ = 0, limit_ = 0, left_ = 0;
  std::deque<Patch> fifo_;
  std::uint64_t total_ = 0, err_ = 0;
  bool up_ = false, cur_ = false;
};

}  // namespace tessera::sim
