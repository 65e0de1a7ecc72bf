// Bench of the fixed-function tessellator (rtl/tess/tess_tessellator.sv, docs/tessellation.md
// "The tessellator").
//
// Scoreboard: tessera::sim::tessellate() (sim/tess), the C++ reference the reference backend
// draws with. Every patch the design takes is expanded by it; the design's vertex stream must be
// the same vertices, bit for bit, in the same order, with the end-of-triangle and end-of-patch
// flags where the reference's triangles and patches end. Isoline segments and patch events are
// counted on both sides. Stimulus: random patch kinds, factors 0..80 (0 culls, above 64 clamps),
// control points from small screen-space patches to ones at the 16.4 coordinate limits (so x, y
// saturate) with random depth, colour and uv; random gaps before patches and random
// backpressure on the output.
//
// Rerun a test: RANDOM_SEED=<n> TESTCASE=<name> build/tb/tess/bench_tessellator (WAVES=1 for
// an FST). TESSERA_REGRESS=1 runs 10x more patches.
#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "Vtess_tessellator.h"
#include "prim_tb.hpp"
#include "tb/stream.hpp"
#include "tb/test.hpp"
#include "tessera/sim/tessellator.hpp"
#include "tessera_layouts.hpp"

using tb::RisingEdge;
using tb::Task;
using tessera::sim::PatchFactors;
using tessera::sim::PatchKind;
using tessera::sim::TessVertex;
using V = Vtess_tessellator;

namespace {

using Words = std::array<std::uint32_t, 4>;

Words pack(const TessVertex& t) {
  tessera::layout::Svtx s;
  s.x = t.x;
  s.y = t.y;
  s.z = t.z;
  s.rgba = unsigned{t.r} | unsigned{t.g} << 8 | unsigned{t.b} << 16 | unsigned{t.a} << 24;
  s.u = t.u;
  s.v = t.v;
  return s.pack();
}

std::string show(const Words& w) {
  const auto s = tessera::layout::Svtx::unpack(w.data());
  return fmt::format("(x {} y {} z {:#x} rgba {:08x} u {:#x} v {:#x})", s.x, s.y, s.z, s.rgba, s.u, s.v);
}

struct Patch {
  PatchKind kind = PatchKind::Quad;
  std::uint8_t f1 = 1, f2 = 1;
  std::array<TessVertex, 4> cp{};
};

struct OutV {
  Words vtx{};
  bool tri_end = false, patch_end = false;
  bool operator==(const OutV&) const = default;
};

}  // namespace

template <>
struct fmt::formatter<OutV> : fmt::formatter<std::string> {
  auto format(const OutV& o, format_context& ctx) const {
    return fmt::formatter<std::string>::format(
        fmt::format("{}{}{}", show(o.vtx), o.tri_end ? " tri_end" : "", o.patch_end ? " patch_end" : ""), ctx);
  }
};

namespace {

struct Knobs {
  double in_idle = 0.3;      // P(a gap before a patch)
  double out_stall = 0.3;    // P(out_ready low in a cycle)
  double high_factor = 0.03; // P(a factor 48..80)
  double huge_coords = 0.1;  // P(control points at the coordinate limits)
};

TessVertex random_cp(bool huge, std::int32_t cx, std::int32_t cy) {
  TessVertex v;
  const std::int32_t span = huge ? (1 << 19) - 1 : 16 * 200;
  v.x = huge ? static_cast<std::int32_t>(tb::randint(0, 1)) * 2 * span - span + static_cast<std::int32_t>(tb::randint(0, 64)) * (tb::chance(0.5) ? 1 : -1)
             : cx + static_cast<std::int32_t>(tb::randint(0, 2 * span)) - span;
  v.y = huge ? static_cast<std::int32_t>(tb::randint(0, 1)) * 2 * span - span
             : cy + static_cast<std::int32_t>(tb::randint(0, 2 * span)) - span;
  v.x = std::clamp(v.x, -(1 << 19), (1 << 19) - 1);
  v.y = std::clamp(v.y, -(1 << 19), (1 << 19) - 1);
  v.z = static_cast<std::uint32_t>(tb::randint(0, (1U << 24) - 1));
  v.r = static_cast<std::uint8_t>(tb::randint(0, 255));
  v.g = static_cast<std::uint8_t>(tb::randint(0, 255));
  v.b = static_cast<std::uint8_t>(tb::randint(0, 255));
  v.a = static_cast<std::uint8_t>(tb::randint(0, 255));
  v.u = static_cast<std::uint16_t>(tb::randint(0, 65535));
  v.v = static_cast<std::uint16_t>(tb::randint(0, 65535));
  return v;
}

Patch random_patch(const Knobs& k, primtb::Coverage& cov) {
  Patch p;
  p.kind = static_cast<PatchKind>(tb::randint(0, 2));
  auto factor = [&] {
    if (tb::chance(k.high_factor)) return static_cast<std::uint8_t>(tb::randint(48, 80));
    if (tb::chance(0.08)) return std::uint8_t{0};
    return static_cast<std::uint8_t>(tb::randint(1, 9));
  };
  p.f1 = factor();
  p.f2 = factor();
  const bool huge = tb::chance(k.huge_coords);
  const auto cx = static_cast<std::int32_t>(tb::randint(0, 16 * 320)), cy = static_cast<std::int32_t>(tb::randint(0, 16 * 240));
  for (auto& c : p.cp) c = random_cp(huge, cx, cy);
  cov.hit("quad", p.kind == PatchKind::Quad && p.f1 && p.f2);
  cov.hit("triangle", p.kind == PatchKind::Tri && p.f1);
  cov.hit("isoline", p.kind == PatchKind::Isoline);
  cov.hit("culled (factor 0)", p.kind != PatchKind::Isoline && (p.f1 == 0 || (p.kind == PatchKind::Quad && p.f2 == 0)));
  cov.hit("factor above 64", p.kind != PatchKind::Isoline && (p.f1 > 64 || (p.kind == PatchKind::Quad && p.f2 > 64)));
  cov.hit("coordinates at the limits", huge);
  return p;
}

class Bench {
 public:
  Bench(tb::Dut<V>& dut, Knobs k)
      : dut_(dut),
        k_(k),
        src_({tb::SignalRef(dut->clk_i), tb::SignalRef(dut->in_valid_i), tb::SignalRef(dut->in_ready_o),
              tb::SignalRef(dut->rst_ni)},
             [this](const Patch& p) { drive(p); }, "patches"),
        sink_({tb::SignalRef(dut->clk_i), tb::SignalRef(dut->out_valid_o), tb::SignalRef(dut->out_ready_i),
               tb::SignalRef(dut->rst_ni)},
              "vertices"),
        mon_({tb::SignalRef(dut->clk_i), tb::SignalRef(dut->out_valid_o), tb::SignalRef(dut->out_ready_i),
              tb::SignalRef(dut->rst_ni)},
             [this] { return sample(); }, "vertices") {
    src_.set_idle_probability(k.in_idle);
    sink_.set_stall_probability(k.out_stall);
    mon_.keep_items(false);
    mon_.on_item([this](const OutV& o) { sb_.observe(o); });
  }

  Task<> run(unsigned patches) {
    co_await primtb::clock_and_reset(dut_, [this] {
      dut_->in_valid_i = 0;
      dut_->out_ready_i = 0;
    });
    src_.start();
    sink_.start();
    mon_.start();
    events_ = tb::start_soon(count_events());
    for (unsigned i = 0; i < patches; ++i) {
      const Patch p = random_patch(k_, cov_);
      expect(p);
      src_.send(p);
    }
    // a hang bound from the work: 12 clocks per triangle (about 6, 9 under backpressure) and
    // 60 per patch (a factor-1 quad patch takes about 25), plus slack
    const std::uint64_t bound = 20000 + 12 * triangles_ + 60 * patches;
    co_await primtb::wait_idle_or_fail(tb::SignalRef(dut_->clk_i), src_, bound);
    for (std::uint64_t c = 0; sb_.outstanding() != 0 || dut_->busy_o; ++c) {
      if (c == bound) tb::fail(fmt::format("{} vertices still expected after {} cycles", sb_.outstanding(), bound));
      co_await RisingEdge(dut_->clk_i);
    }
    co_await RisingEdge(dut_->clk_i);
    sb_.check_drained();
    primtb::check(patch_events_ == patches, "ev_patch_o pulsed {} times for {} patches", patch_events_, patches);
    primtb::check(segs_ == want_segs_, "ev_segs_o added up to {} isoline segments, the reference says {}", segs_,
                  want_segs_);
    dut_.log().info("{} patches, {} triangles, {} isoline segments, {} output stall cycles; {}", patches, triangles_,
                    segs_, mon_.stall_cycles(), cov_.report());
  }

  primtb::Coverage& coverage() { return cov_; }

 private:
  void drive(const Patch& p) {
    dut_->in_kind_i = static_cast<unsigned>(p.kind);
    dut_->in_f1_i = p.f1;
    dut_->in_f2_i = p.f2;
    for (unsigned c = 0; c < 4; ++c) {
      const Words w = pack(p.cp[c]);
      for (unsigned i = 0; i < 4; ++i) dut_->in_cp_i[c * 4 + i] = w[i];
    }
  }

  OutV sample() const {
    OutV o;
    for (unsigned i = 0; i < 4; ++i) o.vtx[i] = dut_->out_vtx_o[i];
    o.tri_end = dut_->out_tri_end_o;
    o.patch_end = dut_->out_patch_end_o;
    return o;
  }

  void expect(const Patch& p) {
    const std::size_t n = p.kind == PatchKind::Quad ? 4 : p.kind == PatchKind::Tri ? 3 : 2;
    const std::vector<TessVertex> cps(p.cp.begin(), p.cp.begin() + static_cast<std::ptrdiff_t>(n));
    const auto r = tessera::sim::tessellate(p.kind, cps, PatchFactors{p.kind, p.f1, p.f2});
    want_segs_ += r.isoline_segments;
    triangles_ += r.triangles.size();
    for (std::size_t t = 0; t < r.triangles.size(); ++t)
      for (unsigned v = 0; v < 3; ++v)
        sb_.expect(OutV{pack(r.triangles[t][v]), v == 2, v == 2 && t + 1 == r.triangles.size()});
    cov_.hit("a patch of more than 1000 triangles", r.triangles.size() > 1000);
  }

  Task<> count_events() {
    while (true) {
      co_await RisingEdge(dut_->clk_i);
      if (!dut_->rst_ni) continue;
      if (dut_->ev_patch_o) ++patch_events_;
      else if (dut_->ev_segs_o != 0) tb::fail(fmt::format("ev_segs_o is {} in a cycle without ev_patch_o", dut_->ev_segs_o));
      segs_ += dut_->ev_segs_o;
    }
  }

  tb::Dut<V>& dut_;
  Knobs k_;
  tb::StreamSource<Patch> src_;
  tb::StreamSink sink_;
  tb::StreamMonitor<OutV> mon_;
  tb::Scoreboard<OutV> sb_{"tessellator"};
  primtb::Coverage cov_;
  Task<> events_;
  std::uint64_t patch_events_ = 0, segs_ = 0, want_segs_ = 0, triangles_ = 0;
};

}  // namespace

// Random patches of every kind against the reference, with gaps and backpressure.
// Catches: a weight off by one step or rounded the other way (a remainder not carried), the
// last column or row not reaching exactly the far control point, a triangle emitted in the
// wrong order or with the wrong winding, a triangle patch's second triangle on the diagonal
// (a+b = n-1) emitted or one inside missing, a factor above 64 not clamped, a 0 factor not
// culling, attributes not saturated at the coordinate limits, flags on the wrong vertex, a
// vertex changed or dropped under backpressure, isoline segments miscounted.
TB_TEST(V, random_patches) {
  Bench b(dut, Knobs{});
  co_await b.run(static_cast<unsigned>(tb::scaled(600, 6000)));
  std::vector<std::string> must;
  for (const char* w : {"quad", "triangle", "isoline", "culled (factor 0)", "coordinates at the limits"})
    must.push_back(w);
  for (const std::string& w : must) b.coverage().require(w.c_str(), 3);
}

// Large factors (48..80) and no backpressure: patches of thousands of triangles, the weights
// stepped 64 times per dimension.
TB_TEST(V, high_factors) {
  Knobs k;
  k.high_factor = 1.0;
  k.out_stall = 0.0;
  k.in_idle = 0.0;
  Bench b(dut, k);
  co_await b.run(static_cast<unsigned>(tb::scaled(16, 160)));
  b.coverage().require("factor above 64", 1);
  b.coverage().require("a patch of more than 1000 triangles", 1);
}
