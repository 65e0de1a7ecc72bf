// Verification environment for geom_top (rtl/geom, docs/geometry.md). One coroutine checks
// and drives every port once per clock (sample at RisingEdge, drive with tb::defer), like
// tb/xbar; the loop, the CP and store-read drivers and the triangle hold check are
// tb/cycle_env.hpp's:
//   - CP agent: pipeline commands with random gaps; counts handshakes.
//   - memory agent per slice: accepts 64-byte READs with random backpressure, answers each
//     after a random latency, out of order, from the C++ memory image; checks the protocol
//     (READ, aligned, one request per tag outstanding).
//   - receiver agent per slice (plays VPCBE_S): takes triangles with random backpressure,
//     compares each with the reference's next triangle for that slice (draw id, primitive
//     id, mask), reads its vertices from the producing slice's store with random gaps and
//     compares them too; valid/data held while stalled.
//   - side agent: random ready; commands in order, each only after the triangles of every
//     earlier draw.
//   - done/err monitor: one done per accepted command, in order; a DRAW's done only after
//     all its triangles reached all their receivers; one err per erroneous DRAW.
//   - register agent: reads the counters at the end.
//   - two-level memory agent (vis_mem_*): answers PC_US's bitmap READs from the memory image
//     and applies the visibility writer's WRITEs to it, each checked against the reference's
//     next line for that address (Vis::expect_writes): every line exactly once, in pass order.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "geom_ref.hpp"
#include "mem_protocol.hpp"
#include "tb/coverage.hpp"
#include "tb/cycle_env.hpp"
#include "tb/sim.hpp"
#include "tb/test.hpp"
#include "tessera_layouts.hpp"

namespace geomtb {

namespace mem = tb::mem;

template <class... A>
void check(bool cond, fmt::format_string<A...> f, A&&... a) {
  if (!cond) tb::fail(fmt::format(f, std::forward<A>(a)...));
}

struct Cmd {
  enum class Kind { set_geom, draw, side } kind = Kind::side;
  std::uint8_t opcode = 0;
  std::vector<std::uint32_t> args;
  // draw
  std::uint16_t draw_id = 0;
  bool error = false;
  std::vector<std::uint64_t> expect_per_slice;  // triangles each receiver gets
};

struct Knobs {
  double p_cmd = 0.8;        // CP offers a command
  double p_mem_ready = 0.8;  // memory accepts a request
  unsigned lat_min = 1, lat_max = 20;
  double p_long = 0.02;
  unsigned lat_long = 120;
  double p_rsp = 0.9;        // memory offers a ready response
  double p_tri_ready = 0.7;  // receiver takes a triangle
  double p_rd = 0.7;         // receiver issues a store read
  double p_side_ready = 0.7;
};

struct Stats {
  std::uint64_t cycles = 0, tris = 0, reads = 0;
};

template <class V>
class GeomBench : public tb::CycleEnv<GeomBench<V>, V> {
  using Base = tb::CycleEnv<GeomBench<V>, V>;
  friend Base;
  using Base::t_;

 public:
  GeomBench(tb::Dut<V>& dut, unsigned n) : Base(dut.top()), dut_(dut), n_(n), rx_(n), mm_(n) {}
  using Base::cycle;
  using Base::step;

  Knobs k;
  State state;  // reference state as commands are generated
  Vis vis;      // two-level binning's reference (geom_ref.hpp)
  Memory memory;
  tb::Coverage cov;
  std::vector<Cmd> cmds;
  std::vector<std::deque<Tri>> expect;  // per receiver
  DrawResult totals;                    // culling totals over all draws
  std::uint64_t total_subbatches = 0, total_prims = 0, total_draws = 0, total_errors = 0;
  std::vector<std::uint64_t> rr_sb, rr_prims;  // per slice, exact under round robin only
  unsigned rr_ptr = 0;
  bool policy_changed = false;
  std::uint32_t alloc = 0x1000'0000;

  unsigned n() const { return n_; }

  // ---- stimulus: commands with the reference run at generation time ------------------------
  void add_set_reg(std::uint32_t off, std::uint32_t value) {
    Cmd c;
    c.opcode = TS_OP_SET_REGS;
    c.args = {TS_GEOM_BASE_ADDR + off, value};
    c.kind = Cmd::Kind::set_geom;
    const bool was_ll = state.least_loaded();
    state.set_reg(TS_GEOM_BASE_ADDR + off, value);
    if (state.least_loaded() != was_ll || state.least_loaded()) policy_changed = true;
    cmds.push_back(c);
  }
  void add_side(std::uint8_t opcode, std::vector<std::uint32_t> args) {
    Cmd c;
    c.opcode = opcode;
    c.args = std::move(args);
    c.kind = Cmd::Kind::side;
    if (opcode == TS_OP_RENDERPASS_BEGIN) vis.begin(state);
    if (opcode == TS_OP_RENDERPASS_END) vis.end();
    cmds.push_back(c);
  }
  void add_draw(const Draw& d) {
    Cmd c;
    c.kind = Cmd::Kind::draw;
    c.opcode = TS_OP_DRAW;
    c.args = {TS_PKT_DRAW_TOPOLOGY_PUT(d.topology) | TS_PKT_DRAW_INDEX_TYPE_PUT(d.index_type), d.count, d.vertex_addr,
              d.index_addr, d.tf_addr};
    c.draw_id = static_cast<std::uint16_t>(++total_draws);
    const DrawResult r = run_draw(state, d, memory, n_, c.draw_id, &vis);
    c.error = r.bad_topology || r.bad_index_type;
    if (std::getenv("GEOM_LIST_DRAWS"))  // debugging aid: the stream's draws as the reference sees them
      fmt::print("draw {} topology {} index_type {} count {} subbatch {} prims {} subbatches {} visible {}\n",
                 c.draw_id, d.topology, d.index_type, d.count, state.sb_size(), r.prims, r.subbatches.size(),
                 r.visible.size());
    total_errors += c.error;
    c.expect_per_slice.assign(n_, 0);
    if (expect.size() < n_) expect.resize(n_);
    for (const Tri& t : r.visible)
      for (unsigned s = 0; s < n_; ++s)
        if ((t.mask >> s) & 1U) {
          expect[s].push_back(t);
          ++c.expect_per_slice[s];
        }
    if (rr_sb.size() < n_) rr_sb.assign(n_, 0), rr_prims.assign(n_, 0);
    for (auto sz : r.subbatches) {
      const unsigned sl = rr_ptr;
      rr_ptr = (rr_ptr + 1) % n_;
      ++rr_sb[sl];
      rr_prims[sl] += sz;
    }
    total_subbatches += r.subbatches.size();
    for (auto sz : r.subbatches) total_prims += sz;  // what the slices get (two-level TEST drops some)
    totals.zero_area += r.zero_area;
    totals.face += r.face;
    totals.offscreen += r.offscreen;
    totals.huge += r.huge;
    totals.all_slices += r.all_slices;
    totals.patches += r.patches;
    totals.tess_triangles += r.tess_triangles;
    totals.isoline_segments += r.isoline_segments;
    visible_total += r.visible.size();
    for (const Tri& t : r.visible) assigned_total += static_cast<unsigned>(__builtin_popcount(t.mask));
    cov.hit("draw list", d.topology == TS_TOPOLOGY_TRI_LIST && !c.error);
    cov.hit("draw strip", d.topology == TS_TOPOLOGY_TRI_STRIP && !c.error);
    cov.hit("draw quad patches", d.topology == TS_TOPOLOGY_PATCH_QUAD && !c.error && r.tess_triangles);
    cov.hit("draw triangle patches", d.topology == TS_TOPOLOGY_PATCH_TRI && !c.error && r.tess_triangles);
    cov.hit("draw isoline patches", d.topology == TS_TOPOLOGY_PATCH_ISOLINE && !c.error && r.isoline_segments);
    cov.hit("index none", d.index_type == TS_INDEX_TYPE_NONE && !c.error && r.prims);
    cov.hit("index u16", d.index_type == TS_INDEX_TYPE_U16 && !c.error && r.prims);
    cov.hit("index u32", d.index_type == TS_INDEX_TYPE_U32 && !c.error && r.prims);
    cov.hit("draw of one primitive", r.prims == 1);
    cov.hit("draw of no primitive", r.prims == 0 && !c.error);
    cov.hit("draw over several sub-batches", r.subbatches.size() >= 3);
    cov.hit("erroneous draw", c.error);
    cmds.push_back(c);
  }
  std::uint64_t visible_total = 0, assigned_total = 0;

  // Buffers: fresh memory for every draw, so the reference can be run at generation time.
  std::uint32_t allocate(std::uint32_t bytes, std::uint32_t align) {
    alloc = (alloc + align - 1) & ~(align - 1);
    const std::uint32_t a = alloc;
    alloc += bytes + 64 * static_cast<std::uint32_t>(tb::randint(0, 3));
    return a;
  }

  // ---- run ---------------------------------------------------------------------------------------
  tb::Task<> reset() {
    t_.pipe_valid_i = 0;
    t_.side_ready_i = 0;
    t_.mem_req_ready_i = 0;
    t_.mem_rsp_valid_i = 0;
    t_.vis_mem_req_ready_i = 0;
    t_.vis_mem_rsp_valid_i = 0;
    t_.tri_ready_i = 0;
    t_.rd_req_valid_i = 0;
    t_.reg_req_valid_i = 0;
    co_await this->clock_and_reset();
  }

  bool all_done() const { return done_count_ == cmds.size() && side_pending_empty(); }

  tb::Task<> run_all(std::uint64_t max_cycles) {
    co_await this->run_until([this] { return all_done(); }, max_cycles, [this] {
      std::string s;
      for (unsigned r = 0; r < n_; ++r)
        s += fmt::format(" rx{}: {} expected left, {} unread;", r, expect[r].size(), rx_[r].unread.size());
      return fmt::format("{} of {} commands accepted, {} done;{}", cp_.taken(), cmds.size(), done_count_, s);
    });
    // let the receivers read their last triangles (bounded: a stuck read fails below)
    auto reads_left = [&] {
      for (const auto& x : rx_)
        if (!x.unread.empty() || x.rd.busy() || x.rsp_due) return true;
      return false;
    };
    for (unsigned i = 0; i < 5000 && reads_left(); ++i) co_await step();
    co_await step();
    for (unsigned r = 0; r < n_; ++r) {
      check(expect[r].empty(), "receiver {}: {} triangles never delivered, next {}", r, expect[r].size(),
            expect[r].empty() ? std::string() : expect[r].front().str());
      check(rx_[r].unread.empty() && !rx_[r].rd.busy() && !rx_[r].rsp_due, "receiver {}: reads not finished", r);
    }
    check(err_count_ == total_errors, "err_o pulsed {} times, {} erroneous draws", err_count_, total_errors);
    for (const auto& [a, q] : vis.expect_writes)
      check(q.empty(), "visibility line {:#x} was never written ({} writes missing)", a, q.size());
  }
  std::uint64_t vis_reads = 0, vis_writes = 0;

  // Register read through the register port (after the run; the loop keeps stepping).
  tb::Task<std::uint32_t> read_reg(std::uint32_t off) {
    reg_rd_ = off;
    reg_state_ = 1;
    while (reg_state_ != 3) co_await step();
    reg_state_ = 0;
    check(!reg_err_, "register read at {:#x} answered err", off);
    co_return reg_val_;
  }
  tb::Task<bool> write_reg(std::uint32_t off, std::uint32_t v) {
    reg_rd_ = off;
    reg_wdata_ = v;
    reg_we_ = true;
    reg_state_ = 1;
    while (reg_state_ != 3) co_await step();
    reg_state_ = 0;
    reg_we_ = false;
    co_return !reg_err_;
  }

  Stats st;
  std::vector<std::uint64_t> first_tri_cycle, last_tri_cycle;

 private:
  struct Rx {
    struct Unread {
      unsigned src, entry;
      Tri want;
    };
    std::deque<Unread> unread;
    tb::OfferSlot rd;  // store read request
    bool rsp_due = false;
    Tri rsp_want;
    tb::HoldCheck<std::vector<std::uint32_t>> tri;
  };
  struct Pend {
    mem::Rsp rsp;
    std::uint64_t at;
  };
  struct MemModel {
    std::vector<Pend> pending;
    std::map<unsigned, bool> tags;
    bool presenting = false;
    Pend cur;
  };

  bool side_pending_empty() const { return true; }

  static std::uint64_t field(const mem::Bits& b, unsigned lsb, unsigned w) { return b.get(lsb, w); }

  SVtx decode_svtx(const mem::Bits& b, unsigned base) const {
    // spec/layouts.yaml svtx, through the generated layout (x, y sign-extended)
    using L = tessera::layout::Svtx;
    std::array<std::uint32_t, L::kWords> w{};
    for (unsigned i = 0; i < L::kWords; ++i) w[i] = static_cast<std::uint32_t>(b.get(base + 32 * i, 32));
    const L s = L::unpack(w.data());
    SVtx v;
    v.x = s.x;
    v.y = s.y;
    v.z = s.z;
    v.rgba = s.rgba;
    v.u = s.u;
    v.v = s.v;
    return v;
  }

  void sample() {
    // ---- CP commands -----------------------------------------------------------------------
    cp_.sample(t_.pipe_ready_o & 1U);
    // ---- done / err ------------------------------------------------------------------------
    if (t_.pipe_done_o & 1U) {
      check(done_count_ < cp_.taken(), "cycle {}: pipe_done_o pulsed with {} commands accepted and {} done", cycle,
            cp_.taken(), done_count_);
      const Cmd& c = cmds[done_count_];
      if (c.kind == Cmd::Kind::draw)
        for (unsigned r = 0; r < n_; ++r)
          check(delivered_[c.draw_id].size() == n_ ? delivered_[c.draw_id][r] == c.expect_per_slice[r]
                                                   : c.expect_per_slice[r] == 0,
                "cycle {}: DRAW {} done before receiver {} got all its triangles ({} of {}); next expected {}", cycle,
                c.draw_id, r, delivered_[c.draw_id].size() == n_ ? delivered_[c.draw_id][r] : 0,
                c.expect_per_slice[r], expect[r].empty() ? std::string("none") : expect[r].front().str());
      if (c.kind == Cmd::Kind::side) {
        check(side_taken_ > side_done_, "cycle {}: side command {} done before the side output took it", cycle,
              done_count_);
        ++side_done_;
      }
      ++done_count_;
    }
    if (t_.err_o & 1U) ++err_count_;
    // ---- side output -------------------------------------------------------------------------
    if ((t_.side_valid_o & 1U) && (t_.side_ready_i & 1U)) {
      while (side_next_ < cmds.size() && cmds[side_next_].kind != Cmd::Kind::side) ++side_next_;
      check(side_next_ < cmds.size(), "cycle {}: unexpected side command", cycle);
      const Cmd& c = cmds[side_next_];
      const mem::Bits b = mem::read_port(tb::SignalRef(t_.side_cmd_o), kCmdW);
      const auto got = tessera::layout::PipeCmd::unpack(b.words().data());
      check(got.opcode == c.opcode, "cycle {}: side command opcode {:#x}, expected {:#x} (command {})", cycle,
            got.opcode, c.opcode, side_next_);
      for (std::size_t i = 0; i < c.args.size(); ++i)
        check(b.get(tessera::layout::PipeCmd::Pos::args.lsb + 32 * static_cast<unsigned>(i), 32) == c.args[i],
              "cycle {}: side command {} arg {} differs", cycle, side_next_, i);
      // every draw before it complete
      for (std::size_t j = 0; j < side_next_; ++j)
        if (cmds[j].kind == Cmd::Kind::draw)
          for (unsigned r = 0; r < n_; ++r)
            check((delivered_[cmds[j].draw_id].size() == n_ ? delivered_[cmds[j].draw_id][r] : 0) ==
                      cmds[j].expect_per_slice[r],
                  "cycle {}: side command {} overtook draw {}", cycle, side_next_, cmds[j].draw_id);
      ++side_next_;
      ++side_taken_;
      cov.hit("side command");
    }
    // ---- memory ------------------------------------------------------------------------------
    const std::uint64_t mq_v = t_.mem_req_valid_o, mq_r = t_.mem_req_ready_i;
    const std::uint64_t ms_v = t_.mem_rsp_valid_i, ms_r = t_.mem_rsp_ready_o;
    for (unsigned s = 0; s < n_; ++s) {
      MemModel& m = mm_[s];
      if (((mq_v >> s) & 1U) && ((mq_r >> s) & 1U)) {
        const mem::Req q = mem::unpack_req(mem::read_port(tb::SignalRef(t_.mem_req_o), mem::kReqW, s));
        check(q.op == mem::Op::read && (q.addr & 63) == 0 && q.wstrb == 0,
              "cycle {}: slice {} memory request {} is not a line READ", cycle, s, mem::describe(q));
        check(!m.tags[q.tag], "cycle {}: slice {} reuses tag {} while outstanding", cycle, s, q.tag);
        m.tags[q.tag] = true;
        mem::Rsp rsp;
        rsp.op = mem::Op::read;
        rsp.src = q.src;
        rsp.tag = q.tag;
        rsp.rdata = memory.line(q.addr);
        const std::uint64_t lat = tb::chance(k.p_long) ? k.lat_long : tb::randint(k.lat_min, k.lat_max);
        m.pending.push_back(Pend{rsp, cycle + lat});
        cov.hit("memory request stalled", false);
      }
      if (((mq_v >> s) & 1U) && !((mq_r >> s) & 1U)) cov.hit("memory request stalled");
      if (m.presenting && ((ms_v >> s) & 1U) && ((ms_r >> s) & 1U)) {
        m.tags[m.cur.rsp.tag] = false;
        m.presenting = false;
      }
    }
    // ---- two-level binning's memory client ---------------------------------------------------
    if ((t_.vis_mem_req_valid_o & 1U) && (t_.vis_mem_req_ready_i & 1U)) {
      const mem::Req q = mem::unpack_req(mem::read_port(tb::SignalRef(t_.vis_mem_req_o), mem::kReqW));
      check((q.addr & 63) == 0, "cycle {}: visibility request {} not line aligned", cycle, mem::describe(q));
      check(!vm_.tags[q.tag], "cycle {}: visibility client reuses tag {} while outstanding", cycle, q.tag);
      vm_.tags[q.tag] = true;
      mem::Rsp rsp;
      rsp.op = q.op;
      rsp.src = q.src;
      rsp.tag = q.tag;
      if (q.op == mem::Op::read) {
        check(q.wstrb == 0, "cycle {}: visibility READ with strobes", cycle);
        rsp.rdata = memory.line(q.addr);
        ++vis_reads;
        cov.hit("visibility line read");
      } else {
        check(q.op == mem::Op::write && q.wstrb == ~std::uint64_t{0}, "cycle {}: visibility request {} is not a full-line WRITE",
              cycle, mem::describe(q));
        auto it = vis.expect_writes.find(q.addr);
        check(it != vis.expect_writes.end() && !it->second.empty(),
              "cycle {}: the visibility writer wrote line {:#x}, which the reference does not write (now)", cycle, q.addr);
        if (it->second.front() != q.wdata) {
          std::string want, got;
          for (unsigned i = 64; i-- > 0;) want += fmt::format("{:02x}", it->second.front()[i]), got += fmt::format("{:02x}", q.wdata[i]);
          check(false, "cycle {}: visibility line {:#x} (bin {}, group {}):\n  got  {}\n  want {}", cycle, q.addr,
                (q.addr - vis.base) / 64 / std::max(1U, vis.stride_lines), (q.addr - vis.base) / 64 % std::max(1U, vis.stride_lines), got, want);
        }
        it->second.pop_front();
        for (unsigned i = 0; i < 64; ++i) memory.set_byte(q.addr + i, q.wdata[i]);
        ++vis_writes;
        cov.hit("visibility line written");
      }
      const std::uint64_t lat = tb::chance(k.p_long) ? k.lat_long : tb::randint(k.lat_min, k.lat_max);
      vm_.pending.push_back(Pend{rsp, cycle + lat});
    }
    if ((t_.vis_mem_req_valid_o & 1U) && !(t_.vis_mem_req_ready_i & 1U)) cov.hit("visibility request stalled");
    if (vm_.presenting && (t_.vis_mem_rsp_valid_i & 1U) && (t_.vis_mem_rsp_ready_o & 1U)) {
      vm_.tags[vm_.cur.rsp.tag] = false;
      vm_.presenting = false;
    }
    // ---- triangles and store reads -----------------------------------------------------------
    const std::uint64_t tv = t_.tri_valid_o, tr = t_.tri_ready_i;
    const std::uint64_t rqv = t_.rd_req_valid_i, rqr = t_.rd_req_ready_o, rsv = t_.rd_rsp_valid_o;
    for (unsigned r = 0; r < n_; ++r) {
      Rx& x = rx_[r];
      // read response (one cycle after the request handshake)
      const bool rsp = (rsv >> r) & 1U;
      check(rsp == x.rsp_due, "cycle {}: receiver {} rd_rsp_valid_o={} but a response is {}due", cycle, r, rsp,
            x.rsp_due ? "" : "not ");
      if (rsp) {
        const mem::Bits b = mem::read_port(tb::SignalRef(t_.rd_rsp_o), kStriW, r);
        for (unsigned i = 0; i < 3; ++i) {
          const SVtx got = decode_svtx(b, (2 - i) * kSvtxW);
          check(got == x.rsp_want.v[i], "cycle {}: receiver {} read vertex {} of {}: got {}", cycle, r, i,
                x.rsp_want.str(), got.str());
        }
        x.rsp_due = false;
        ++st.reads;
      }
      if (x.rd.sample(((rqv >> r) & 1U) && ((rqr >> r) & 1U))) {
        x.rsp_due = true;
        x.rsp_want = x.unread.front().want;
        x.unread.pop_front();
      }
      // triangle handshake
      const bool v = (tv >> r) & 1U, rd = (tr >> r) & 1U;
      const mem::Bits tb_bits = mem::read_port(tb::SignalRef(t_.tri_o), kTriW, r);
      if (x.tri.sample(v, rd, tb_bits.words(), [&] { return fmt::format("cycle {}: receiver {} tri_o", cycle, r); }))
        cov.hit("triangle output stalled");
      if (!v || !rd) continue;
      const auto tri = tessera::layout::Tri::unpack(tb_bits.words().data());
      const unsigned src = tri.src, entry = tri.entry;
      const std::uint32_t mask = tri.mask;
      const std::uint16_t draw_id = tri.draw_id;
      const std::uint32_t prim_id = tri.prim_id;
      check(!expect[r].empty(), "cycle {}: receiver {} got draw {} prim {} but expects nothing more", cycle, r,
            draw_id, prim_id);
      const Tri& w = expect[r].front();
      check(draw_id == w.draw_id && prim_id == w.prim_id && mask == w.mask,
            "cycle {}: receiver {} got draw {} prim {} mask {:#x}; reference next: {}", cycle, r, draw_id, prim_id,
            mask, w.str());
      check(src < n_, "cycle {}: receiver {} got src slice {}", cycle, r, src);
      cov.hit("triangle from another slice's store", src != r);
      cov.hit("triangle to every slice", mask == (1U << n_) - 1 && n_ > 1);
      auto& dl = delivered_[draw_id];
      if (dl.size() != n_) dl.assign(n_, 0);
      ++dl[r];
      x.unread.push_back(typename Rx::Unread{src, entry, w});
      expect[r].pop_front();
      ++st.tris;
      if (first_tri_cycle.size() != n_) first_tri_cycle.assign(n_, 0), last_tri_cycle.assign(n_, 0);
      if (!first_tri_cycle[r]) first_tri_cycle[r] = cycle;
      last_tri_cycle[r] = cycle;
    }
    // ---- register port -----------------------------------------------------------------------
    if (reg_state_ == 1 && (t_.reg_req_valid_i & 1U) && (t_.reg_req_ready_o & 1U)) reg_state_ = 2;
    else if (reg_state_ == 2 && (t_.reg_rsp_valid_o & 1U)) {
      const std::uint64_t rsp = t_.reg_rsp_o;
      reg_val_ = static_cast<std::uint32_t>(rsp);
      reg_err_ = (rsp >> 32) & 1U;
      reg_state_ = 3;
    }
  }

  void drive() {
    // CP
    std::optional<mem::Bits> cmd_bits;
    if (cp_.offer(next_cmd_ < cmds.size(), [this] { return tb::chance(k.p_cmd); })) {
      const Cmd& c = cmds[next_cmd_++];
      const auto queue_id = static_cast<std::uint8_t>(tb::randint(0, 1));  // drawn in this order: seeds replay
      const auto dsid = static_cast<std::uint8_t>(tb::randint(0, 63));
      cmd_bits = mem::Bits(kCmdW, pack_pipe_cmd(c.opcode, queue_id, dsid, c.args));
    }
    // memory
    std::uint64_t mq_ready = 0, ms_valid = 0;
    std::vector<std::pair<unsigned, mem::Bits>> rsp_writes;
    for (unsigned s = 0; s < n_; ++s) {
      MemModel& m = mm_[s];
      if (tb::chance(k.p_mem_ready)) mq_ready |= 1ULL << s;
      if (!m.presenting && tb::chance(k.p_rsp)) {
        std::vector<std::size_t> cand;
        for (std::size_t i = 0; i < m.pending.size(); ++i)
          if (m.pending[i].at <= cycle) cand.push_back(i);
        if (!cand.empty()) {
          const std::size_t pick = cand[tb::randint(0, cand.size() - 1)];
          cov.hit("memory response out of order", pick != 0);
          m.cur = m.pending[pick];
          m.pending.erase(m.pending.begin() + static_cast<std::ptrdiff_t>(pick));
          m.presenting = true;
          rsp_writes.emplace_back(s, mem::pack(m.cur.rsp));
        }
      }
      if (m.presenting) ms_valid |= 1ULL << s;
    }
    const bool vq_ready = tb::chance(k.p_mem_ready);
    std::optional<mem::Bits> vrsp;
    if (!vm_.presenting && tb::chance(k.p_rsp)) {
      std::vector<std::size_t> cand;
      for (std::size_t i = 0; i < vm_.pending.size(); ++i)
        if (vm_.pending[i].at <= cycle) cand.push_back(i);
      if (!cand.empty()) {
        const std::size_t pick = cand[tb::randint(0, cand.size() - 1)];
        vm_.cur = vm_.pending[pick];
        vm_.pending.erase(vm_.pending.begin() + static_cast<std::ptrdiff_t>(pick));
        vm_.presenting = true;
        vrsp = mem::pack(vm_.cur.rsp);
      }
    }
    const bool vrsp_valid = vm_.presenting;
    // receivers
    std::uint64_t tri_ready = 0, rd_valid = 0;
    std::vector<std::pair<unsigned, mem::Bits>> rd_writes;
    for (unsigned r = 0; r < n_; ++r) {
      Rx& x = rx_[r];
      if (tb::chance(k.p_tri_ready) && x.unread.size() < 8) tri_ready |= 1ULL << r;
      if (x.rd.offer(!x.unread.empty(), [this] { return tb::chance(k.p_rd); })) {
        tessera::layout::RdReq q;
        q.entry = static_cast<std::uint8_t>(x.unread.front().entry);
        q.src = static_cast<std::uint8_t>(x.unread.front().src);
        const auto w = q.pack();
        rd_writes.emplace_back(r, mem::Bits(kRdReqW, std::vector<std::uint32_t>(w.begin(), w.end())));
      }
      if (x.rd.busy()) rd_valid |= 1ULL << r;
    }
    const bool side_ready = tb::chance(k.p_side_ready);
    // register port
    const bool reg_valid = reg_state_ == 1;
    const std::uint64_t reg_req = (std::uint64_t{reg_rd_ & 0xffff} << 33) | (std::uint64_t{reg_we_} << 32) | reg_wdata_;

    tb::defer([this, cmd_bits, mq_ready, ms_valid, rsp_writes = std::move(rsp_writes), tri_ready, rd_valid,
               rd_writes = std::move(rd_writes), side_ready, reg_valid, reg_req, vq_ready, vrsp, vrsp_valid] {
      t_.vis_mem_req_ready_i = vq_ready ? 1 : 0;
      if (vrsp) mem::write_port(tb::SignalRef(t_.vis_mem_rsp_i), *vrsp);
      t_.vis_mem_rsp_valid_i = vrsp_valid ? 1 : 0;
      if (cmd_bits) mem::write_port(tb::SignalRef(t_.pipe_cmd_i), *cmd_bits);
      t_.pipe_valid_i = cp_.busy() ? 1 : 0;
      tb::SignalRef(t_.mem_req_ready_i).write(mq_ready);
      for (const auto& [s, b] : rsp_writes) mem::write_port(tb::SignalRef(t_.mem_rsp_i), b, s);
      tb::SignalRef(t_.mem_rsp_valid_i).write(ms_valid);
      tb::SignalRef(t_.tri_ready_i).write(tri_ready);
      for (const auto& [r, b] : rd_writes) mem::write_port(tb::SignalRef(t_.rd_req_i), b, r);
      tb::SignalRef(t_.rd_req_valid_i).write(rd_valid);
      t_.side_ready_i = side_ready ? 1 : 0;
      t_.reg_req_valid_i = reg_valid ? 1 : 0;
      t_.reg_req_i = reg_req;
    });
  }

  tb::Dut<V>& dut_;
  unsigned n_;
  std::vector<Rx> rx_;
  std::vector<MemModel> mm_;
  MemModel vm_;  // the two-level client
  tb::OfferSlot cp_;  // CP pipeline command
  std::size_t next_cmd_ = 0, done_count_ = 0, side_next_ = 0, side_taken_ = 0, side_done_ = 0;
  std::uint64_t err_count_ = 0;
  std::map<std::uint16_t, std::vector<std::uint64_t>> delivered_;
  int reg_state_ = 0;
  std::uint32_t reg_rd_ = 0, reg_val_ = 0, reg_wdata_ = 0;
  bool reg_err_ = false, reg_we_ = false;
};

}  // namespace geomtb
