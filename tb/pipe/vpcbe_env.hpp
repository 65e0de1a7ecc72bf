// Verification environment for VPCBE_S behind pipe_cmd_map (wrapper tb/pipe/vpcbe_tb_top.sv).
// One coroutine samples every port at the rising edge and drives the inputs for the next
// cycle (tb::defer), like tb/geom (both on tb/cycle_env.hpp):
//   - stream driver: one API-ordered stream of triangle records and CP pipeline commands.
//     The next item is presented only after the previous one was accepted, so a command is
//     offered only once every older triangle has been taken and no younger triangle is
//     offered while a command waits: the ordering contract of raster_vpcbe.sv's header (the
//     geometry front end's side output and pipe_top's broadcast). Random idle gaps; valid
//     and data held until the handshake; random data on the idle channel.
//   - parameter-store model: random rd_req_ready; answers exactly one cycle after each
//     request handshake with the 384 bits it holds for {src, entry} (random per entry);
//     random data on rd_rsp_i when it does not answer.
//   - consumer: random out_ready (or a pattern from the test); out_o held while stalled.
//   - scoreboard: every output item against the reference (vpcbe_ref.hpp) in stream order;
//     pipe_cmd_map's forwarding decision of every command; a store read exactly when a
//     triangle is taken, at that triangle's {src, entry}; never more items inside (accepted,
//     not yet out) than the output FIFO holds; at the end everything out and nothing extra.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tb/coverage.hpp"
#include "tb/cycle_env.hpp"
#include "tb/sim.hpp"
#include "tb/test.hpp"
#include "vpcbe_ref.hpp"

namespace vpcbetb {

template <class... A>
void check(bool cond, fmt::format_string<A...> f, A&&... a) {
  if (!cond) tb::fail(fmt::format(f, std::forward<A>(a)...));
}

struct Cfg {
  unsigned slice_idx = 1, num_slices = 2, out_depth = 4;
};

struct Knobs {
  double p_idle = 0.2;      // the stream driver leaves a cycle empty before the next item
  double p_rd_ready = 0.8;  // the store accepts a read request
  double p_out_ready = 0.8; // the consumer takes an output item
};

struct Item {
  bool is_tri = true;
  Tri tri;
  PipeCmd cmd;
  bool fwd = false;  // command: pipe_cmd_map forwards it (reference)
};

template <class V>
class VpcbeEnv : public tb::CycleEnv<VpcbeEnv<V>, V> {
  using Base = tb::CycleEnv<VpcbeEnv<V>, V>;
  friend Base;
  using Base::t_;

 public:
  VpcbeEnv(tb::Dut<V>& dut, Cfg cfg) : Base(dut.top()), cfg_(cfg), store_(kMaxSlices * kEntries) {
    for (auto& d : store_)
      for (auto& w : d) w = rnd32();
  }

  Knobs k;
  tb::Coverage cov;
  std::vector<Item> items;
  std::deque<Rin> expect;
  // Optional consumer pattern: out_ready for the cycle being driven (overrides k.p_out_ready).
  std::function<bool(std::uint64_t)> out_ready_fn;
  // Optional hook at the start of every driven cycle (e.g. to change the knobs in phases).
  std::function<void(std::uint64_t)> on_cycle;
  using Base::cycle;
  using Base::step;
  // Figures
  std::uint64_t n_tris = 0, n_cmds = 0, n_out = 0;
  std::uint64_t first_tri_cycle = 0, last_tri_cycle = 0, first_out_cycle = 0, last_out_cycle = 0;

  const Cfg& cfg() const { return cfg_; }

  // ---- stimulus ----------------------------------------------------------------------------
  void add_tri(const Tri& t) {
    Item it;
    it.is_tri = true;
    it.tri = t;
    items.push_back(it);
    expect.push_back(tri_item(t, store_[t.rd_addr()]));
  }
  void add_cmd(const PipeCmd& c) {
    Item it;
    it.is_tri = false;
    it.cmd = c;
    const std::optional<Rin> m = map_command(c);
    it.fwd = m.has_value();
    items.push_back(it);
    if (m) expect.push_back(slice_identity(*m, cfg_.slice_idx, cfg_.num_slices));
  }
  // A triangle record for this slice: src any slice of the GPU, mask any set of slices that
  // contains this one.
  Tri rand_tri(std::uint16_t draw_id, std::uint32_t prim_id) const {
    Tri t;
    t.src = static_cast<unsigned>(tb::randint(0, cfg_.num_slices - 1));
    t.entry = static_cast<unsigned>(tb::randint(0, kEntries - 1));
    t.mask = static_cast<std::uint8_t>((tb::randint(0, (1U << cfg_.num_slices) - 1)) | (1U << cfg_.slice_idx));
    t.draw_id = draw_id;
    t.prim_id = prim_id;
    return t;
  }

  // ---- run -----------------------------------------------------------------------------------
  tb::Task<> reset() {
    t_.tri_valid_i = 0;
    t_.rd_req_ready_i = 0;
    t_.rd_rsp_valid_i = 0;
    t_.cmd_valid_i = 0;
    t_.out_ready_i = 0;
    co_await this->clock_and_reset();
  }

  // Runs the stream to the end; then a quiet period with the consumer ready, in which nothing
  // may come out any more.
  tb::Task<> run(std::uint64_t max_cycles) {
    co_await this->run_until([this] { return next_ >= items.size() && !src_.busy() && expect.empty(); }, max_cycles,
                             [this] {
                               return fmt::format("{} of {} items accepted, {} expected items not out, next {}",
                                                  src_.taken(), items.size(), expect.size(),
                                                  expect.empty() ? std::string("-") : expect.front().str());
                             });
    quiet_ = true;
    for (unsigned i = 0; i < 2 * cfg_.out_depth + 8; ++i) co_await step();
    quiet_ = false;
    check(src_.taken() == items.size() && expect.empty() && inside_ == 0,
          "end: {} of {} items accepted, {} expected items not out, {} inside", src_.taken(), items.size(),
          expect.size(), inside_);
  }

 private:
  static std::uint32_t rnd32() { return static_cast<std::uint32_t>(tb::randint(0, 0xffffffffULL)); }
  template <std::size_t N>
  static void write_random(VlWide<N>& w) {
    for (std::size_t i = 0; i < N; ++i) w[i] = rnd32();
  }

  void sample() {
    const bool tv = t_.tri_valid_i & 1U, tr = t_.tri_ready_o & 1U;
    const bool qv = t_.rd_req_valid_o & 1U, qr = t_.rd_req_ready_i & 1U;
    const bool cv = t_.cmd_valid_i & 1U, cr = t_.cmd_ready_o & 1U;
    const bool ov = t_.out_valid_o & 1U, orr = t_.out_ready_i & 1U;
    const bool inflight = rsp_due_.has_value();  // a read made at the previous edge answers now
    const Item* cur = src_.busy() ? &items[cur_] : nullptr;
    src_.sample((tv && tr) || (cv && cr));  // the item offered, on either channel, is taken

    // ---- triangle in, store read ------------------------------------------------------------
    check((qv && qr) == (tv && tr), "cycle {}: store read handshake {} but triangle handshake {}", cycle, qv && qr,
          tv && tr);
    rsp_due_.reset();
    if (qv && qr) {  // rd_req_t through its layout: only its own bits, as the store index rd_addr() gives
      const std::uint32_t port = t_.rd_req_o;
      rsp_due_ = tessera::layout::RdReq::unpack(&port).pack()[0];
    }
    if (tv && tr) {
      const Tri& t = cur->tri;
      const auto read = tessera::layout::RdReq::unpack(&*rsp_due_);
      check(*rsp_due_ == t.rd_addr(), "cycle {}: store read at src {} entry {} for {}", cycle, read.src, read.entry,
            t.str());
      cov.hit("triangle right after a forwarded command", prev_fwd_cmd_ && prev_accept_cycle_ + 1 == cycle);
      accept();
      ++inside_;
      ++n_tris;
      if (!first_tri_cycle) first_tri_cycle = cycle;
      last_tri_cycle = cycle;
      cov.hit("triangle from another slice's store", t.src != cfg_.slice_idx);
    }
    if (tv && !tr) {
      cov.hit("triangle waits: store not ready", qv && !qr);
      cov.hit("triangle waits: output FIFO has no room", !qv && qr);
    }
    // ---- command in -------------------------------------------------------------------------
    if (cv) {
      check(((t_.map_to_raster_o & 1U) != 0) == cur->fwd, "cycle {}: pipe_cmd_map to_raster={} for {}", cycle,
            t_.map_to_raster_o & 1U, cur->cmd.str());
      if (cur->fwd) {
        cov.hit("command waits for the read in flight", inflight);
        cov.hit("command waits: output FIFO full", !cr && !inflight);
      }
    }
    if (cv && cr) {
      const Item& it = *cur;
      accept();
      ++n_cmds;
      if (it.fwd) {
        ++inside_;
        const Rin& e = expect[static_cast<std::size_t>(inside_ - 1)];  // accepted, not yet out
        cov.hit(fmt::format("command {}", kind_name(e.kind)));
        cov.hit("SLICE write", e.kind == kRinSetReg && e.data[0] == TS_RASTER_SLICE_OFFSET);
      } else {
        cov.hit("command not forwarded");
      }
    }
    // ---- output -----------------------------------------------------------------------------
    const Bits ob(kRinW, tb::SignalRef(t_.out_o).read_words());
    if (out_.sample(ov, orr, ob, [this] { return fmt::format("cycle {}: out_o", cycle); })) cov.hit("output stalled");
    if (ov && orr) {
      const Rin got = Rin::unpack(ob);
      check(!expect.empty(), "cycle {}: extra output item {}", cycle, got.str());
      check(got == expect.front(), "cycle {}: output item {}\n  got      {}\n  expected {}", cycle, n_out, got.str(),
            expect.front().str());
      expect.pop_front();
      --inside_;
      ++n_out;
      if (!first_out_cycle) first_out_cycle = cycle;
      last_out_cycle = cycle;
    }
    // The output FIFO holds OUT_DEPTH items; a read in flight has its place reserved.
    check(inside_ <= cfg_.out_depth, "cycle {}: {} items accepted and not out, the output FIFO holds {}", cycle,
          inside_, cfg_.out_depth);
    cov.hit("output FIFO full", inside_ == cfg_.out_depth);
  }

  void accept() {
    prev_fwd_cmd_ = !items[cur_].is_tri && items[cur_].fwd;
    prev_accept_cycle_ = cycle;
  }

  void drive() {
    if (on_cycle) on_cycle(cycle);
    std::optional<Bits> tri_bits, cmd_bits;
    if (src_.offer(next_ < items.size(), [this] { return !tb::chance(k.p_idle); })) {
      cur_ = next_++;
      if (items[cur_].is_tri) tri_bits = items[cur_].tri.pack();
      else cmd_bits = items[cur_].cmd.pack();
      cov.hit("item offered right after the previous one", prev_accept_cycle_ + 1 == cycle);
    }
    const bool tri_valid = src_.busy() && items[cur_].is_tri;
    const bool cmd_valid = src_.busy() && !items[cur_].is_tri;
    const bool noise_tri = !tri_valid && tb::chance(0.5), noise_cmd = !cmd_valid && tb::chance(0.5);
    const bool rd_ready = tb::chance(k.p_rd_ready);
    const std::optional<unsigned> rsp = rsp_due_;
    const bool noise_rsp = !rsp && tb::chance(0.5);
    const bool out_ready = quiet_ || (out_ready_fn ? out_ready_fn(cycle) : tb::chance(k.p_out_ready));

    tb::defer([this, tri_bits, cmd_bits, tri_valid, cmd_valid, noise_tri, noise_cmd, rd_ready, rsp, noise_rsp,
               out_ready] {
      if (tri_bits) tb::SignalRef(t_.tri_i).write_words(tri_bits->words());
      else if (noise_tri) write_random(t_.tri_i);
      if (cmd_bits) tb::SignalRef(t_.cmd_i).write_words(cmd_bits->words());
      else if (noise_cmd) write_random(t_.cmd_i);
      t_.tri_valid_i = tri_valid;
      t_.cmd_valid_i = cmd_valid;
      t_.rd_req_ready_i = rd_ready;
      t_.rd_rsp_valid_i = rsp.has_value();
      if (rsp) {
        const Data& d = store_[*rsp];
        tb::SignalRef(t_.rd_rsp_i).write_words(std::vector<std::uint32_t>(d.begin(), d.end()));
      } else if (noise_rsp) {
        write_random(t_.rd_rsp_i);
      }
      t_.out_ready_i = out_ready;
    });
  }

  Cfg cfg_;
  std::vector<Data> store_;  // index {src, entry}
  tb::OfferSlot src_;  // the item of the stream offered on tri_i or cmd_i
  std::size_t next_ = 0, cur_ = 0;
  bool quiet_ = false, prev_fwd_cmd_ = false;
  std::uint64_t prev_accept_cycle_ = ~0ULL;
  std::optional<unsigned> rsp_due_;  // {src, entry} the store answers in the coming cycle
  tb::HoldCheck<Bits> out_;
  std::uint64_t inside_ = 0;  // accepted items not yet out
};

}  // namespace vpcbetb
