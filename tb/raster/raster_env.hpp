// Environment of the raster slice benches (rtl/raster, docs/raster.md).
//
// One scene = a list of operations (state writes, render passes, triangles, batch closes)
// fed to BOTH the RTL slice (packed into rin_t, with random gaps) and the reference
// renderer (sim/raster, written from docs/raster.md). The memory model answers the slice's
// port out of order with random latency over a SparseMemory and random request stalls;
// the bitstream sink stalls at random too. Scoreboards: the color and depth targets after
// the scene, the sequence of per-bin bitstreams {tx, ty, mask, popcount}, the counters,
// the DSID of every write, and one done_o pulse per command.
//
// Everything is sampled once per clock at RisingEdge (the values the flops sample) and the
// next cycle is driven with tb::defer, as in tb/xbar.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "mem_protocol.hpp"
#include "tb/coverage.hpp"
#include "tb/sim.hpp"
#include "tb/test.hpp"
#include "tessera/sim/ref_render.hpp"
#include "tessera/sim/sparse_memory.hpp"
#include "tessera_layouts.hpp"
#include "tessera_spec.h"

namespace rastertb {

namespace mem = tb::mem;
namespace rr = tessera::sim::raster;
using tessera::sim::SparseMemory;

// The slice's input item: spec/layouts.yaml rin (tessera_raster_pkg::rin_t), a triangle's
// data being three svtx (v0 in the top bits), a command's its argument dwords.
using Rin = tessera::layout::Rin;
using Svtx = tessera::layout::Svtx;
inline constexpr unsigned kRinW = Rin::kBits;
inline constexpr unsigned kMaxBatch = 64;   // BATCH_PRIMS of raster_slice_default

// RASTER block offsets (spec/registers/raster.yaml)
inline constexpr std::uint32_t kRegDepth = TS_RASTER_DEPTH_OFFSET, kRegColor = TS_RASTER_COLOR_OFFSET,
                               kRegTexCtrl = TS_RASTER_TEX_CTRL_OFFSET, kRegTexBase = TS_RASTER_TEX_BASE_OFFSET,
                               kRegBatch = TS_RASTER_BATCH_OFFSET, kRegBin = TS_RASTER_BIN_OFFSET,
                               kRegSlice = TS_RASTER_SLICE_OFFSET, kRegLrz = TS_RASTER_LRZ_OFFSET,
                               kRegCoarse = TS_RASTER_COARSE_OFFSET;
inline constexpr std::uint32_t kTexAddr = 0x0800'0000;   // the benches' texture (64x64 texels max)

struct Op {
  enum Kind { kTri = 0, kSetReg = 1, kRpBegin = 2, kRpEnd = 3, kBatchClose = 4, kFlush = 5 } kind;
  rr::Triangle tri{};
  std::uint32_t off = 0, val = 0;
  rr::RenderPass rp{};
  static Op tri_op(const rr::Triangle& t) { Op o{kTri}; o.tri = t; return o; }
  static Op reg(std::uint32_t off, std::uint32_t val) { Op o{kSetReg}; o.off = off; o.val = val; return o; }
  static Op begin(const rr::RenderPass& rp) { Op o{kRpBegin}; o.rp = rp; return o; }
  static Op end() { return Op{kRpEnd}; }
  static Op close() { return Op{kBatchClose}; }
  static Op flush() { return Op{kFlush}; }
};
using Scene = std::vector<Op>;

inline void apply(rr::RefRenderer& r, const Op& o) {
  switch (o.kind) {
    case Op::kTri: r.triangle(o.tri); break;
    case Op::kSetReg: r.set_reg(o.off, o.val); break;
    case Op::kRpBegin: r.renderpass_begin(o.rp); break;
    case Op::kRpEnd: r.renderpass_end(); break;
    default: r.batch_close(); break;
  }
}

inline mem::Bits pack(const Op& o) {
  Rin in;
  in.kind = static_cast<std::uint8_t>(o.kind);
  std::array<std::uint32_t, Rin::Pos::data.width / 32> data{};  // data's words, bit 0 first
  switch (o.kind) {
    case Op::kTri:
      in.draw_id = o.tri.draw_id;
      in.prim_id = o.tri.prim_id;
      for (unsigned i = 0; i < 3; ++i) {
        const auto& v = o.tri.v[i];
        Svtx s;
        s.x = v.x;
        s.y = v.y;
        s.z = v.z;
        s.rgba = v.rgba;
        s.u = v.u;
        s.v = v.v;
        const auto w = s.pack();
        std::copy(w.begin(), w.end(), data.begin() + (2 - i) * Svtx::kWords);
      }
      break;
    case Op::kSetReg:
      data[0] = o.off;
      data[1] = o.val;
      break;
    case Op::kRpBegin:
      o.rp.to_payload(data.data());
      break;
    default: break;
  }
  for (unsigned b = 0; b < in.data.size(); ++b) in.data[b] = static_cast<std::uint8_t>(data[b / 4] >> (8 * (b % 4)));
  const auto w = in.pack();
  return mem::Bits(kRinW, std::vector<std::uint32_t>(w.begin(), w.end()));
}

struct BinSeen {
  std::uint32_t tx, ty;
  std::uint64_t mask;
  std::uint32_t count;
  bool operator==(const BinSeen&) const = default;
};

struct Knobs {
  double in_idle = 0.3;       // probability the source leaves a cycle empty
  double req_stall = 0.3;     // probability mem_req_ready is low
  double bs_stall = 0.3;      // probability bs_ready is low
  unsigned lat_min = 1, lat_max = 40;
};

struct Result {
  std::uint64_t cycles = 0;
  std::uint64_t rd_lines = 0, wr_lines = 0;
  std::uint64_t tris = 0, bins = 0, binprims = 0, quads = 0, frags = 0, pass = 0;
  std::uint64_t lrz_blocks = 0, lrz_quads = 0, hidden = 0;
  // the FS's texel reads (tags 0x80..0x87): the scout's (0x81..0x87), and the most in flight
  std::uint64_t scout_reads = 0, max_texel_reads_in_flight = 0;
  std::vector<BinSeen> bins_seen;
};

template <class V>
class Env {
 public:
  Env(tb::Dut<V>& dut, SparseMemory& memory, Knobs k = {}) : dut_(dut), t_(dut.top()), mem_(memory), k_(k) {}

  tb::Task<> reset() {
    t_.rst_ni = 0;
    t_.in_valid_i = 0;
    t_.mem_req_ready_i = 0;
    t_.mem_rsp_valid_i = 0;
    t_.bs_ready_i = 0;
    co_await tb::ClockCycles(t_.clk_i, 3);
    tb::write(t_.rst_ni, 1);
    co_await tb::RisingEdge(t_.clk_i);
    presenting_in_ = false;
    presenting_rsp_ = false;
    pending_.clear();
  }

  // Runs the scene to completion on the RTL (after reset()); returns what was observed.
  tb::Task<Result> run(const Scene& scene, std::uint64_t max_cycles = 2'000'000) {
    scene_ = &scene;
    idx_ = 0;
    dones_ = 0;
    res_ = Result{};
    ncmds_ = 0;
    for (const auto& o : scene) ncmds_ += (o.kind != Op::kTri);
    // color/depth target ranges of the scene, for the DSID check
    targets_.clear();
    for (const auto& o : scene)
      if (o.kind == Op::kRpBegin) targets_.push_back(o.rp);
    const std::uint64_t c0 = cycle_;
    drive();
    for (;;) {
      co_await tb::RisingEdge(t_.clk_i);
      sample();
      ++cycle_;
      if (idx_ == scene.size() && dones_ == ncmds_ && !t_.busy_o && pending_.empty() &&
          !presenting_rsp_) {
        break;
      }
      tb::check(cycle_ - c0 < max_cycles, fmt::format("raster slice hung: {} of {} items, {} of {} done",
                                                      idx_, scene.size(), dones_, ncmds_));
      drive();
    }
    tb::check(dones_ == ncmds_, "done_o pulses != commands");
    res_.cycles = cycle_ - c0;
    res_.tris = t_.cnt_tris_o;
    res_.bins = t_.cnt_bins_o;
    res_.binprims = t_.cnt_binprims_o;
    res_.quads = t_.cnt_quads_o;
    res_.lrz_blocks = t_.cnt_lrz_blocks_o;
    res_.lrz_quads = t_.cnt_lrz_quads_o;
    res_.hidden = t_.cnt_hidden_o;
    res_.frags = t_.cnt_frags_o;
    res_.pass = t_.cnt_pass_o;
    tb::check(t_.cnt_rd_o == res_.rd_lines && t_.cnt_wr_o == res_.wr_lines, "memory counters");
    co_return res_;
  }

  tb::Coverage& coverage() { return cov_; }

 private:
  struct Pending {
    std::uint64_t ready_at;
    mem::Rsp rsp;
  };

  void sample() {
    if (presenting_in_ && t_.in_ready_o) {
      presenting_in_ = false;
      ++idx_;
    }
    if (t_.done_o) ++dones_;
    if (req_ready_ && t_.mem_req_valid_o) accept(mem::unpack_req(mem::read_port(tb::SignalRef(t_.mem_req_o), mem::kReqW)));
    if (presenting_rsp_ && t_.mem_rsp_ready_o) presenting_rsp_ = false;
    if (bs_ready_ && t_.bs_valid_o) {
      res_.bins_seen.push_back(BinSeen{std::uint32_t(t_.bs_tx_o), std::uint32_t(t_.bs_ty_o),
                                       std::uint64_t(t_.bs_mask_o), std::uint32_t(t_.bs_count_o)});
    }
  }

  void accept(const mem::Req& r) {
    tb::check((r.addr & 63) == 0, "misaligned request");
    mem::Rsp rsp;
    rsp.op = r.op;
    rsp.src = r.src;
    rsp.tag = r.tag;
    for (const auto& p : pending_) tb::check(p.rsp.tag != r.tag, fmt::format("tag {} reused while outstanding", r.tag));
    if (r.op == mem::Op::write) {
      tessera::sim::AxiData d{};
      std::copy(r.wdata.begin(), r.wdata.end(), d.begin());
      mem_.write_line(r.addr, d, r.wstrb);
      ++res_.wr_lines;
      for (const auto& rp : targets_) {
        const std::uint64_t size = std::uint64_t(rp.width) * rp.height * 4;
        if (r.addr >= rp.color_addr && r.addr < rp.color_addr + size)
          tb::check(r.dsid == rp.color_dsid, fmt::format("color write 0x{:x} dsid {}", r.addr, r.dsid));
        if (r.addr >= rp.depth_addr && r.addr < rp.depth_addr + size)
          tb::check(r.dsid == rp.depth_dsid, fmt::format("depth write 0x{:x} dsid {}", r.addr, r.dsid));
      }
    } else {
      const auto d = mem_.read_line(r.addr);
      std::copy(d.begin(), d.end(), rsp.rdata.begin());
      ++res_.rd_lines;
      if ((r.tag & 0xF8U) == 0x80U) {
        std::uint64_t in_flight = 1;
        for (const auto& p : pending_)
          in_flight += (p.rsp.op != mem::Op::write && (p.rsp.tag & 0xF8U) == 0x80U) ? 1 : 0;
        res_.max_texel_reads_in_flight = std::max(res_.max_texel_reads_in_flight, in_flight);
        res_.scout_reads += r.tag != 0x80U ? 1 : 0;
      }
    }
    pending_.push_back(Pending{cycle_ + tb::randint(k_.lat_min, k_.lat_max), rsp});
  }

  void drive() {
    std::optional<mem::Bits> in_bits;
    if (!presenting_in_ && idx_ < scene_->size() && !tb::chance(k_.in_idle)) {
      presenting_in_ = true;
      in_bits = pack((*scene_)[idx_]);
    }
    req_ready_ = !tb::chance(k_.req_stall);
    bs_ready_ = !tb::chance(k_.bs_stall);
    std::optional<mem::Bits> rsp_bits;
    if (!presenting_rsp_) {
      std::vector<std::size_t> cand;
      for (std::size_t i = 0; i < pending_.size(); ++i)
        if (pending_[i].ready_at <= cycle_) cand.push_back(i);
      if (!cand.empty()) {
        const std::size_t pick = cand[tb::randint(0, cand.size() - 1)];
        cov_.hit("response out of order", pick != 0);
        rsp_bits = mem::pack(pending_[pick].rsp);
        pending_.erase(pending_.begin() + std::ptrdiff_t(pick));
        presenting_rsp_ = true;
      }
    }
    tb::defer([this, in_bits, rsp_bits, iv = presenting_in_, rv = presenting_rsp_, qr = req_ready_,
               br = bs_ready_] {
      if (in_bits) mem::write_port(tb::SignalRef(t_.in_i), *in_bits);
      t_.in_valid_i = iv;
      if (rsp_bits) mem::write_port(tb::SignalRef(t_.mem_rsp_i), *rsp_bits);
      t_.mem_rsp_valid_i = rv;
      t_.mem_req_ready_i = qr;
      t_.bs_ready_i = br;
    });
  }

  tb::Dut<V>& dut_;
  V& t_;
  SparseMemory& mem_;
  Knobs k_;
  tb::Coverage cov_;
  const Scene* scene_ = nullptr;
  std::size_t idx_ = 0;
  std::uint64_t dones_ = 0, ncmds_ = 0, cycle_ = 0;
  bool presenting_in_ = false, presenting_rsp_ = false, req_ready_ = false, bs_ready_ = false;
  std::deque<Pending> pending_;
  std::vector<rr::RenderPass> targets_;
  Result res_;
};

// ---- scoreboard ------------------------------------------------------------------------------

inline std::uint64_t mask64(const rr::BinRecord& b) { return b.mask.empty() ? 0 : b.mask[0]; }

// Compares the RTL run against the reference run of the same scene: the targets of every
// render pass (pixels of `owned_only` slice tiles only when given), bitstreams, counters.
inline void compare(const Result& got, const SparseMemory& rtl_mem, const rr::RefRenderer& ref,
                    const SparseMemory& ref_mem, const Scene& scene) {
  // images
  for (const auto& o : scene) {
    if (o.kind != Op::kRpBegin) continue;
    const auto& rp = o.rp;
    std::uint64_t bad = 0;
    std::string first;
    for (std::uint32_t y = 0; y < rp.height; ++y)
      for (std::uint32_t x = 0; x < rp.width; ++x)
        for (int t = 0; t < 2; ++t) {
          const std::uint32_t a = (t ? rp.depth_addr : rp.color_addr) + (y * rp.width + x) * 4;
          const std::uint32_t g = rtl_mem.read32(a), e = ref_mem.read32(a);
          if (g != e) {
            if (bad++ == 0) first = fmt::format("{} ({},{}) rtl 0x{:08x} ref 0x{:08x}", t ? "depth" : "color", x, y, g, e);
          }
        }
    tb::check(bad == 0, fmt::format("framebuffer mismatch: {} words, first {}", bad, first));
  }
  // bitstreams
  const auto& eb = ref.bins();
  tb::check(got.bins_seen.size() == eb.size(),
            fmt::format("bitstream records: rtl {} ref {}", got.bins_seen.size(), eb.size()));
  for (std::size_t i = 0; i < eb.size(); ++i) {
    const BinSeen e{eb[i].tx, eb[i].ty, mask64(eb[i]), eb[i].count};
    const auto& g = got.bins_seen[i];
    tb::check(g == e, fmt::format("bitstream {}: rtl ({},{}) mask {:016x} n {} ref ({},{}) mask {:016x} n {}", i,
                                  g.tx, g.ty, g.mask, g.count, e.tx, e.ty, e.mask, e.count));
  }
  const auto& c = ref.counters();
  tb::check(got.tris == c.tris, fmt::format("tris rtl {} ref {}", got.tris, c.tris));
  tb::check(got.bins == c.bins, fmt::format("bins rtl {} ref {}", got.bins, c.bins));
  tb::check(got.binprims == c.bin_prims, fmt::format("bin prims rtl {} ref {}", got.binprims, c.bin_prims));
  tb::check(got.quads == c.quads, fmt::format("quads rtl {} ref {}", got.quads, c.quads));
  tb::check(got.frags == c.frags, fmt::format("fragments rtl {} ref {}", got.frags, c.frags));
  tb::check(got.pass == c.pass, fmt::format("depth passes rtl {} ref {}", got.pass, c.pass));
  tb::check(got.lrz_blocks == c.lrz_blocks, fmt::format("LRZ rejected blocks rtl {} ref {}", got.lrz_blocks, c.lrz_blocks));
  tb::check(got.lrz_quads == c.lrz_quads, fmt::format("LRZ rejected quads rtl {} ref {}", got.lrz_quads, c.lrz_quads));
  tb::check(got.hidden == c.hidden_quads, fmt::format("hidden quads rtl {} ref {}", got.hidden, c.hidden_quads));
  // LRZ safety: no rejected block held a pixel that passes the full depth test
  tb::check(ref.lrz_unsafe() == 0, fmt::format("{} unsafe LRZ rejections, first: {}", ref.lrz_unsafe(), ref.lrz_unsafe_first()));
}

}  // namespace rastertb
