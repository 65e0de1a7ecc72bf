// GpuSim's model-independent state (GpuSim::Impl) and its implementation on one verilated
// gpu_top configuration (ModelImpl<V>). Private to sim/gpu: gpu_sim.cpp instantiates it for
// the whole-GPU models gpu_n1/n2/n4, gpu_model_cp.cpp for gpu_cp (the pipeline stand-in), so a
// program that never runs the stand-in (tessera-sim) does not build or link gpu_cp
// (issue 20 item 8).
#pragma once

#include "tessera/sim/gpu_sim.hpp"

#include <fmt/format.h>
#include <verilated.h>
#include <verilated_fst_c.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <fstream>
#include <random>
#include <stdexcept>

#include "tessera/sim/axi_verilated.hpp"
#include "tessera/sim/mem_protocol.hpp"
#include "tessera/sim/signal_ref.hpp"
#include "tessera_layouts.hpp"
#include "tessera_spec.h"



namespace tessera::sim {

namespace {
constexpr unsigned kHostClient = 0;  // pc client ports: 0 host memory port, 1 pipeline stand-in
constexpr unsigned kPipeClient = 1;
}  // namespace

// Model-independent state of the simulation; ModelImpl<V> adds the verilated model (one
// class per gpu_top configuration: gpu_cp with the stand-in, gpu_n1/n2/n4 with the pipeline).
struct GpuSim::Impl {
  GpuSimConfig cfg;
  DramModel dram;
  std::mt19937_64 rng;
  std::uint64_t cyc = 0;
  std::uint64_t instret = 0, core_cycles = 0;
  std::string console, console_line;
  std::function<void(std::uint32_t, std::uint32_t)> retire_cb;

  // AXI4-Lite host agent: one access at a time.
  enum class HostPhase { idle, addr, resp } host_phase = HostPhase::idle;
  bool host_write = false, host_aw_done = false, host_w_done = false;
  std::uint32_t host_addr = 0, host_wdata = 0;
  bool host_done = false;
  RegResult host_result{};

  // Pipeline stand-in.
  struct InFlight {
    std::uint64_t done_at = 0;
    bool needs_write = false;
    bool write_sent = false;
    bool write_acked = false;
    mem::Req req;
  };
  std::deque<InFlight> inflight;
  std::vector<PipeCommand> pipe_log;
  bool pipe_ready = false;
  bool pipe_done_pulse = false;
  bool pipe_client_busy = false;   // a write presented, not accepted yet
  std::size_t pipe_write_idx = 0;  // which in-flight entry owns the presented write
  unsigned cache_count = 0;
  bool cache_done_pulse = false;

  // Host memory port: line requests waiting to be presented, the one presented, and those in
  // flight (at most cfg.host_window), answered in any order and matched by tag.
  std::deque<std::pair<mem::Req, std::size_t>> hq;   // request, index of its response
  bool h_presented = false;
  unsigned h_outstanding = 0;
  std::array<std::size_t, 256> h_tag_idx{};
  std::vector<mem::Rsp> h_rsp;
  std::size_t h_got = 0;
  std::uint8_t h_next_tag = 0;
  std::uint64_t host_rd_ok = 0, host_wr_ok = 0;   // host requests answered without err
  HostPathStats host_stats;
  bool dram_read_seen = false;   // the DRAM accepted a read (AR handshake) since reset()

  // Progress watchdog (docs/cp.md "Progress watchdog").
  std::uint64_t pipe_cmds_total = 0;        // CP -> pipeline commands (pipe_log may be cleared)
  std::uint64_t wd_sig = 0;                 // signature of the progress counters, last sample
  std::uint64_t wd_last_progress = 0;       // cycle of the last sample that saw progress
  std::uint64_t wd_pipe_quiet_since = 0;    // for watchdog_longest_quiet()
  std::uint64_t wd_longest = 0;
  bool wd_due = false, wd_in_diag = false;
  bool wd_snap_valid = false;               // register snapshot taken in this quiet stretch
  std::uint64_t wd_snap_cyc = 0;
  std::vector<std::uint64_t> wd_snap;
  std::vector<std::uint32_t> wd_stats_prev, wd_stats_cur;   // slice statistics, last two samples
  std::uint64_t next_cancel_check = 0;
  // Slice recording (slice_recording.hpp): sampled before every edge while set.
  std::unique_ptr<SliceRecorder> recorder;
  std::uint64_t geom_dispatched = 0;        // primitives PC_US dispatched since reset
  // Progress hook (GpuSim::on_progress).
  std::function<void(std::uint64_t)> progress_cb;
  std::uint64_t progress_every = 0, next_progress = 0;
  bool axi_waiting = false;                 // the GPU presents an AXI request the DRAM does not take

  explicit Impl(GpuSimConfig c) : cfg(std::move(c)), dram(cfg.dram), rng(cfg.seed) {
    if (cfg.host_window == 0 || cfg.host_window > 128)
      throw std::invalid_argument(fmt::format("GpuSimConfig::host_window is {}; it must be 1..128", cfg.host_window));
  }
  virtual ~Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  unsigned rand_between(unsigned lo, unsigned hi) {
    return lo + static_cast<unsigned>(rng() % (hi - lo + 1));
  }
  bool chance(double p) { return p >= 1.0 || std::uniform_real_distribution<double>(0, 1)(rng) < p; }

  // What needs the model.
  virtual void cycle_once() = 0;
  virtual void reset_and_load(const std::vector<std::uint32_t>& rom) = 0;
  virtual void start_reg_access(bool write, std::uint32_t offset, std::uint32_t value) = 0;
  virtual void host_kick() = 0;   // present the next queued host request if the port is free
  virtual bool irq() const = 0;
  virtual bool axi_idle() const = 0;
  virtual std::uint32_t fw_status() const = 0;
  virtual std::uint32_t pipe_issued() const = 0;
  virtual std::uint32_t pipe_done_count() const = 0;
  virtual bool pipe_busy() const = 0;
  virtual std::uint32_t cche_busy() const = 0;   // bit k: slice k's CCHE holds work
  virtual std::vector<std::uint32_t> pipe_stats() const = 0;
  // slice_mon_o: one 64-bit slice_monitor record per slice (layout::SliceMonitor).
  virtual void slice_monitor(std::uint64_t* out, unsigned slices) const = 0;

  std::size_t pipe_inflight() const {
    if (cfg.slices == 0) return inflight.size();
    return static_cast<std::uint32_t>(pipe_issued() - pipe_done_count());
  }

  // The watchdog's view of progress, sampled every 1024 cycles: pipeline commands pushed and
  // completed, DRAM transfers, slice statistics (except the busy and stage cycle counters).
  void wd_sample() {
    static constexpr std::uint64_t kPrime = 0x100000001b3ULL;
    std::uint64_t h = 0xcbf29ce484222325ULL;
    auto mix = [&](std::uint64_t v) { h = (h ^ v) * kPrime; };
    mix(pipe_cmds_total);
    mix(pipe_issued());
    mix(pipe_done_count());
    const DramStats& d = dram.stats();
    mix(d.reads);
    mix(d.writes);
    mix(d.read_beats);
    mix(d.write_beats);
    mix(d.reads_done);
    mix(d.writes_done);
    if (cfg.slices > 0) {
      std::swap(wd_stats_prev, wd_stats_cur);
      wd_stats_cur = pipe_stats();
      for (unsigned sl = 0; sl < cfg.slices; ++sl)
        for (unsigned k = 0; k < SliceStats::kWords; ++k) {
          if (SliceStats::is_cycle_counter(k)) continue;   // they advance while nothing happens
          mix(wd_stats_cur.at(sl * SliceStats::kWords + k));
        }
    }
    const bool progressed = h != wd_sig;
    if (progressed) {
      wd_sig = h;
      wd_last_progress = cyc;
      wd_snap_valid = false;
      wd_due = false;
    }
    if (progressed || pipe_inflight() == 0) wd_pipe_quiet_since = cyc;
    else wd_longest = std::max(wd_longest, cyc - wd_pipe_quiet_since);
    const std::uint64_t w = cfg.watchdog_cycles, quiet = cyc - wd_last_progress;
    if (w && ((!wd_snap_valid && quiet >= w / 2) || (wd_snap_valid && quiet >= w && cyc - wd_snap_cyc >= w / 2)))
      wd_due = true;
  }
};

namespace {

template <class V>
struct ModelImpl final : GpuSim::Impl {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<V> top;
  std::unique_ptr<VerilatedFstC> fst;
  const std::uint32_t pc_mask;   // the pc_* client ports this model has

  ModelImpl(GpuSimConfig c, unsigned pc_clients) : Impl(std::move(c)), pc_mask((1U << pc_clients) - 1) {
    ctx = std::make_unique<VerilatedContext>();
    ctx->randReset(2);
    ctx->randSeed(static_cast<int>(cfg.seed & 0x7fffffff));
    if (!cfg.wave_file.empty()) ctx->traceEverOn(true);
    top = std::make_unique<V>(ctx.get(), "gpu");
    if (!cfg.wave_file.empty()) {
      fst = std::make_unique<VerilatedFstC>();
      top->trace(fst.get(), 99);
      fst->open(cfg.wave_file.c_str());
    }
  }
  ~ModelImpl() override {
    if (fst) fst->close();
    top->final();
  }

  void dump(std::uint64_t t) {
    if (fst && cyc >= cfg.wave_start && cyc <= cfg.wave_end) fst->dump(t);
  }

  bool irq() const override { return top->irq_o; }
  bool axi_idle() const override { return top->axi_idle_o; }
  std::uint32_t fw_status() const override { return top->fw_status_o; }
  std::uint32_t pipe_issued() const override { return top->pipe_issued_o; }
  std::uint32_t pipe_done_count() const override { return top->pipe_done_count_o; }
  bool pipe_busy() const override { return top->pipe_busy_o; }
  std::uint32_t cche_busy() const override { return top->cche_busy_o; }
  std::vector<std::uint32_t> pipe_stats() const override {
    SignalRef sig(top->pipe_stat_o);
    return sig.read_words();
  }

  void slice_monitor(std::uint64_t* out, unsigned slices) const override {
    const SignalRef sig(top->slice_mon_o);
    std::memcpy(out, sig.address(), std::min<std::size_t>(sig.bytes(), slices * sizeof(std::uint64_t)));
  }

  void cycle_once() override {
    V& t = *top;
    t.clk_i = 0;
    t.eval();
    dump(cyc * 2);
    if (cfg.slices > 0) {
      // The slice monitor: primitives PC_US dispatched (progress) and, when asked, the recording.
      std::array<std::uint64_t, 8> mon{};
      slice_monitor(mon.data(), cfg.slices);
      using MonPos = tessera::layout::SliceMonitor::Pos;
      for (unsigned k = 0; k < cfg.slices; ++k)
        if ((mon[k] >> MonPos::sb_issue.lsb) & 1U)
          geom_dispatched += (mon[k] >> MonPos::sb_prims.lsb) & ((1U << MonPos::sb_prims.width) - 1);
      if (recorder) recorder->sample(cyc, mon.data());
    }

    // ---- sample what the design presents before the edge ----
    const AxiMasterSignals m = sample_axi_master(t);
    const bool aw_fire = t.s_axil_awvalid_i && t.s_axil_awready_o;
    const bool w_fire = t.s_axil_wvalid_i && t.s_axil_wready_o;
    const bool ar_fire = t.s_axil_arvalid_i && t.s_axil_arready_o;
    const bool b_fire = t.s_axil_bvalid_o && t.s_axil_bready_i;
    const bool r_fire = t.s_axil_rvalid_o && t.s_axil_rready_i;
    const std::uint32_t rdata = t.s_axil_rdata_o;
    const unsigned bresp = t.s_axil_bresp_o, rresp = t.s_axil_rresp_o;
    const bool pipe_fire = t.pipe_valid_o && t.pipe_ready_i;   // the stand-in's handshake
    const bool pipe_mon = t.rst_ni && t.pipe_mon_valid_o;       // any model: CP -> pipeline
    PipeCommand cmd;
    if (pipe_mon) {
      SignalRef sig(t.pipe_mon_cmd_o);
      // tessera_cp_pkg::pipe_cmd_t, spec/layouts.yaml pipe_cmd: argument i at [i*32 +: 32].
      using PipeCmdLayout = tessera::layout::PipeCmd;
      const mem::Bits b(static_cast<unsigned>(sig.bytes() * 8), sig.read_words());
      const auto pc = PipeCmdLayout::unpack(b.words().data());
      cmd.opcode = pc.opcode;
      cmd.queue = pc.queue_id;
      cmd.dsid = pc.dsid;
      constexpr unsigned kMaxArgs = PipeCmdLayout::Pos::args.width / 32;
      for (unsigned i = 0; i < pc.nargs && i < kMaxArgs; ++i)
        cmd.args.push_back(static_cast<std::uint32_t>(b.get(PipeCmdLayout::Pos::args.lsb + i * 32, 32)));
      cmd.cycle = cyc;
    }
    const bool cache_req = t.cache_req_o;
    const bool console_valid = t.console_valid_o;
    const char console_char = static_cast<char>(t.console_char_o);
    if (t.retire_valid_o) {
      ++instret;
      if (retire_cb) retire_cb(t.retire_pc_o, t.retire_insn_o);
    }
    if (t.core_running_o) ++core_cycles;
    // memory client handshakes (pc ports)
    const bool host_req_fire = (t.pc_req_valid_i >> kHostClient & 1U) && (t.pc_req_ready_o >> kHostClient & 1U);
    const bool pipe_req_fire = (t.pc_req_valid_i >> kPipeClient & 1U) && (t.pc_req_ready_o >> kPipeClient & 1U);
    const bool host_rsp_fire = (t.pc_rsp_valid_o >> kHostClient & 1U);
    const bool pipe_rsp_fire = (t.pc_rsp_valid_o >> kPipeClient & 1U);
    mem::Rsp host_rsp, pipe_rsp;
    if (host_rsp_fire) host_rsp = mem::unpack_rsp(mem::read_port(SignalRef(t.pc_rsp_o), mem::kRspW, kHostClient));
    if (pipe_rsp_fire) pipe_rsp = mem::unpack_rsp(mem::read_port(SignalRef(t.pc_rsp_o), mem::kRspW, kPipeClient));

    // While reset is asserted the model's port state is held in reset (memory is kept), as
    // the benches' DramAgent does: the design's outputs are not meaningful yet.
    AxiSlaveSignals out = dram.outputs();
    if (t.rst_ni) {
      if (m.arvalid && out.arready) dram_read_seen = true;
      axi_waiting = (m.arvalid && !out.arready) || (m.awvalid && !out.awready) || (m.wvalid && !out.wready);
      dram.clock_edge(m, out);
    } else {
      dram.reset_interface();
      out = dram.outputs();
    }

    // ---- the edge ----
    t.clk_i = 1;
    t.eval();
    dump(cyc * 2 + 1);
    ++cyc;

    // ---- agents update and drive their new outputs ----
    drive_axi_slave(t, out);

    // AXI4-Lite host
    if (host_phase == HostPhase::addr) {
      if (host_write) {
        if (aw_fire) host_aw_done = true;
        if (w_fire) host_w_done = true;
        if (host_aw_done && host_w_done) host_phase = HostPhase::resp;
      } else if (ar_fire) {
        host_phase = HostPhase::resp;
      }
    } else if (host_phase == HostPhase::resp) {
      if (host_write && b_fire) {
        host_result = {0, bresp == 0};
        host_done = true;
        host_phase = HostPhase::idle;
      } else if (!host_write && r_fire) {
        host_result = {rdata, rresp == 0};
        host_done = true;
        host_phase = HostPhase::idle;
      }
    }
    t.s_axil_awvalid_i = host_phase == HostPhase::addr && host_write && !host_aw_done;
    t.s_axil_wvalid_i = host_phase == HostPhase::addr && host_write && !host_w_done;
    t.s_axil_awaddr_i = static_cast<std::uint16_t>(host_addr);
    t.s_axil_wdata_i = host_wdata;
    t.s_axil_wstrb_i = 0xf;
    t.s_axil_arvalid_i = host_phase == HostPhase::addr && !host_write;
    t.s_axil_araddr_i = static_cast<std::uint16_t>(host_addr);
    t.s_axil_bready_i = 1;
    t.s_axil_rready_i = 1;

    // Console
    if (console_valid) {
      console += console_char;
      if (console_char == '\n') {
        if (cfg.echo_console) fmt::print("[cp] {}\n", console_line);
        console_line.clear();
      } else {
        console_line += console_char;
      }
    }

    // Pipeline stand-in: accept, record, complete in order.
    if (pipe_fire) {
      InFlight f;
      f.done_at = cyc + rand_between(cfg.pipe_min_latency, cfg.pipe_max_latency);
      if (cfg.pipe_draw_writes && cmd.opcode == TS_OP_DRAW && cmd.args.size() >= 3) {
        f.needs_write = true;
        f.req.op = mem::Op::write;
        f.req.addr = cmd.args[2] & ~63U;
        f.req.dsid = cmd.dsid;
        f.req.wstrb = ~std::uint64_t{0};
        for (unsigned i = 0; i < 64; ++i) f.req.wdata[i] = static_cast<std::uint8_t>(pipe_log.size() + i);
      }
      inflight.push_back(f);
    }
    if (pipe_mon) {
      pipe_log.push_back(std::move(cmd));
      ++pipe_cmds_total;
    }
    if (pipe_req_fire) {
      pipe_client_busy = false;
      inflight[pipe_write_idx].write_sent = true;
    }
    if (pipe_rsp_fire) {
      for (auto& f : inflight)
        if (f.needs_write && f.write_sent && !f.write_acked) {
          if (pipe_rsp.err) throw std::runtime_error("pipeline stand-in: memory write answered err");
          f.write_acked = true;
          break;
        }
    }
    // Present the next DRAW write (one at a time, in order).
    if (!pipe_client_busy) {
      for (std::size_t i = 0; i < inflight.size(); ++i) {
        auto& f = inflight[i];
        if (f.needs_write && !f.write_sent) {
          bool older_pending = false;
          for (std::size_t j = 0; j < i; ++j)
            if (inflight[j].needs_write && !inflight[j].write_acked) older_pending = true;
          if (older_pending) break;
          mem::write_port(SignalRef(t.pc_req_i), mem::pack(f.req), kPipeClient);
          pipe_client_busy = true;
          pipe_write_idx = i;
          break;
        }
        if (f.needs_write && !f.write_acked) break;
      }
    }
    // Completion, in order.
    pipe_done_pulse = false;
    if (!inflight.empty()) {
      const auto& h = inflight.front();
      if (cyc >= h.done_at && (!h.needs_write || h.write_acked)) {
        pipe_done_pulse = true;
        inflight.pop_front();
        if (pipe_client_busy && pipe_write_idx > 0) --pipe_write_idx;
      }
    }
    pipe_ready = chance(cfg.pipe_ready_prob);
    t.pipe_ready_i = pipe_ready;
    t.pipe_done_i = pipe_done_pulse;

    // Slice-cache maintenance: no slice caches yet; complete after a few cycles.
    cache_done_pulse = false;
    if (cache_req) {
      if (++cache_count >= 8) {
        cache_done_pulse = true;
        cache_count = 0;
      }
    } else {
      cache_count = 0;
    }
    t.cache_done_i = cache_done_pulse;

    // Host memory port.
    if (h_presented && host_req_fire) {
      h_presented = false;
      ++h_outstanding;
    }
    if (host_rsp_fire) {
      if (h_outstanding == 0) throw std::runtime_error("GpuSim: host memory port: a response nothing asked for");
      --h_outstanding;
      const std::size_t idx = h_tag_idx[host_rsp.tag];
      if (idx < h_rsp.size()) {
        h_rsp[idx] = host_rsp;
        ++h_got;
      }
      if (!host_rsp.err) ++(host_rsp.op == mem::Op::read ? host_rd_ok : host_wr_ok);
    }
    present_host();
    std::uint32_t valid = 0;
    if (h_presented) valid |= 1U << kHostClient;
    if (pipe_client_busy) valid |= 1U << kPipeClient;
    t.pc_req_valid_i = valid & pc_mask;
    t.pc_rsp_ready_i = pc_mask;

    if ((cyc & 1023U) == 0 && cfg.watchdog_cycles) wd_sample();
  }

  // Puts the next queued host request on the port (valid from now until accepted).
  void present_host() {
    if (h_presented || hq.empty() || h_outstanding >= cfg.host_window) return;
    auto [r, idx] = std::move(hq.front());
    hq.pop_front();
    r.tag = h_next_tag++;
    h_tag_idx[r.tag] = idx;
    mem::write_port(SignalRef(top->pc_req_i), mem::pack(r), kHostClient);
    h_presented = true;
  }

  void host_kick() override {
    present_host();
    if (h_presented) top->pc_req_valid_i = (top->pc_req_valid_i | (1U << kHostClient)) & pc_mask;
  }

  void reset_and_load(const std::vector<std::uint32_t>& words) override {
    V& t = *top;
    // A real falling edge of rst_ni before the first clock edge: every asynchronously reset
    // flop (and the CP's derived reset cp_rst_nq) is reset before any assertion samples it.
    // Starting with rst_ni already 0 from the random initial values gives no edge, and the
    // first clock edge would see random state in the CP's reset domain.
    t.clk_i = 0;
    t.rst_ni = 1;
    t.eval();
    t.rst_ni = 0;
    t.eval();
    t.s_axil_awvalid_i = t.s_axil_wvalid_i = t.s_axil_arvalid_i = 0;
    t.s_axil_bready_i = t.s_axil_rready_i = 1;
    t.pipe_ready_i = 0;
    t.pipe_done_i = 0;
    t.cache_done_i = 0;
    t.pc_req_valid_i = 0;
    t.pc_rsp_ready_i = pc_mask;
    t.rom_load_we_i = 0;
    dram.reset_interface();
    drive_axi_slave(t, dram.outputs());
    for (int i = 0; i < 4; ++i) cycle_once();
    t.rst_ni = 1;
    cycle_once();
    for (std::size_t i = 0; i < words.size(); ++i) {
      t.rom_load_we_i = 1;
      t.rom_load_addr_i = static_cast<std::uint16_t>(i);
      t.rom_load_data_i = words[i];
    cycle_once();
  }
  t.rom_load_we_i = 0;
    cycle_once();
  }

  void start_reg_access(bool write, std::uint32_t offset, std::uint32_t value) override {
    top->s_axil_awvalid_i = write;
    top->s_axil_wvalid_i = write;
    top->s_axil_awaddr_i = static_cast<std::uint16_t>(offset);
    top->s_axil_wdata_i = value;
    top->s_axil_wstrb_i = 0xf;
    top->s_axil_arvalid_i = !write;
    top->s_axil_araddr_i = static_cast<std::uint16_t>(offset);
  }
};

}  // namespace

}  // namespace tessera::sim
