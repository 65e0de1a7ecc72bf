// GpuSim implementation: one clock cycle = settle with the current inputs, sample every
// handshake as the design presents it before the edge, let the DRAM model and the host-side
// agents compute their responses, clock the edge, then drive the new inputs (registered
// agents, as the benches' DramAgent does).
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

#include "Vgpu_cp.h"
#include "Vgpu_n1.h"
#include "Vgpu_n2.h"
#include "Vgpu_n4.h"
#include "tessera/sim/axi_verilated.hpp"
#include "tessera/sim/mem_protocol.hpp"
#include "tessera/sim/signal_ref.hpp"
#include "tessera_layouts.hpp"
#include "tessera_spec.h"

#ifndef TESSERA_CP_FW_HEX_DEFAULT
#define TESSERA_CP_FW_HEX_DEFAULT ""
#endif
// GPU memory of the models (gpu_top MEM_BYTES), from sim/gpu/CMakeLists.txt.
#ifndef TESSERA_GPU_MEM_BYTES
#error "TESSERA_GPU_MEM_BYTES (the gpu_n* models' MEM_BYTES) must be defined by sim/gpu/CMakeLists.txt"
#endif
#ifndef TESSERA_GPU_CP_MEM_BYTES
#error "TESSERA_GPU_CP_MEM_BYTES (the gpu_cp model's MEM_BYTES) must be defined by sim/gpu/CMakeLists.txt"
#endif

namespace tessera::sim {

std::vector<std::uint32_t> load_readmemh(const std::string& path, std::size_t max_words) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot open the ROM image", path));
  std::vector<std::uint32_t> words;
  std::size_t at = 0;
  std::string tok;
  unsigned line_no = 0;
  std::string line;
  while (std::getline(in, line)) {
    ++line_no;
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && isspace(static_cast<unsigned char>(line[i]))) ++i;
      if (i >= line.size()) break;
      std::size_t j = i;
      while (j < line.size() && !isspace(static_cast<unsigned char>(line[j]))) ++j;
      tok = line.substr(i, j - i);
      i = j;
      try {
        if (tok[0] == '@') {
          at = std::stoul(tok.substr(1), nullptr, 16);
          continue;
        }
        const auto v = static_cast<std::uint32_t>(std::stoul(tok, nullptr, 16));
        if (at >= max_words)
          throw std::runtime_error(fmt::format("{}:{}: word {} is beyond the {}-word ROM", path, line_no, at, max_words));
        if (words.size() <= at) words.resize(at + 1, 0);
        words[at++] = v;
      } catch (const std::invalid_argument&) {
        throw std::runtime_error(fmt::format("{}:{}: '{}' is not a hex word", path, line_no, tok));
      }
    }
  }
  return words;
}

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

namespace {
std::unique_ptr<GpuSim::Impl> make_impl(GpuSimConfig cfg) {
  switch (cfg.slices) {
    case 0: return std::make_unique<ModelImpl<Vgpu_cp>>(std::move(cfg), 2);
    case 1: return std::make_unique<ModelImpl<Vgpu_n1>>(std::move(cfg), 1);
    case 2: return std::make_unique<ModelImpl<Vgpu_n2>>(std::move(cfg), 1);
    case 4: return std::make_unique<ModelImpl<Vgpu_n4>>(std::move(cfg), 1);
    default:
      throw std::invalid_argument(fmt::format(
          "GpuSim: no GPU model with {} slices is built (models: 0 = pipeline stand-in, 1, 2, 4)", cfg.slices));
  }
}
}  // namespace

GpuSim::GpuSim(GpuSimConfig cfg) : p_(make_impl(std::move(cfg))) {}
GpuSim::~GpuSim() = default;

void GpuSim::reset() {
  // ROM image: the firmware build unless the configuration names another one.
  std::string hex = p_->cfg.firmware_hex.empty() ? std::string(TESSERA_CP_FW_HEX_DEFAULT) : p_->cfg.firmware_hex;
  if (hex.empty()) throw std::runtime_error("GpuSim: no firmware image configured");
  auto& s = *p_;
  s.hq.clear();
  s.h_presented = false;
  s.h_outstanding = 0;
  s.reset_and_load(load_readmemh(hex, 4096));
  // The SLC walks its tag arrays after reset.
  for (unsigned c = 0; (reg_read(TS_SLC_BASE_ADDR + TS_SLC_STATUS_OFFSET) & TS_SLC_STATUS_BUSY_MASK); ++c)
    if (c > 10000) throw std::runtime_error("GpuSim: SLC still busy after reset");
  // The memory system is empty now: nothing read from DRAM, no line in the SLC.
  s.dram_read_seen = false;
  s.wd_last_progress = s.wd_pipe_quiet_since = s.cyc;
  s.wd_snap_valid = s.wd_due = false;
}

namespace {

// Register snapshot of the watchdog: what it compares across a quiet stretch (progress that the
// 1024-cycle signature cannot see: CP read pointers, SLC hits) and what it reports.
struct WdSnapshot {
  std::vector<std::uint64_t> sig;
  std::uint32_t cp_ctrl = 0, cp_status = 0, err_status = 0, err_addr = 0;
  std::vector<std::uint32_t> rptr, wptr;
  std::uint32_t slc_status = 0, slc_lines = 0;
  std::vector<std::uint32_t> geom_outstanding;
};

WdSnapshot wd_snapshot(GpuSim& g, GpuSim::Impl& s) {
  WdSnapshot w;
  auto rd = [&](std::uint32_t off) { return g.reg_read(off); };
  w.cp_ctrl = rd(TS_CP_CTRL_OFFSET);
  w.cp_status = rd(TS_CP_STATUS_OFFSET);
  w.err_status = rd(TS_CP_ERROR_STATUS_OFFSET);
  w.err_addr = rd(TS_CP_ERROR_ADDR_OFFSET);
  const unsigned nq = std::min<unsigned>(TS_CP_VERSION_NUM_QUEUES_GET(rd(TS_CP_VERSION_OFFSET)), TS_CP_QUEUE_COUNT);
  for (unsigned q = 0; q < nq; ++q) {
    w.rptr.push_back(TS_CP_RING_RPTR_PTR_GET(rd(TS_CP_RING_RPTR_OFFSET_N(q))));
    w.wptr.push_back(TS_CP_RING_WPTR_PTR_GET(rd(TS_CP_RING_WPTR_OFFSET_N(q))));
    w.sig.push_back(w.rptr.back());
  }
  w.sig.push_back(w.cp_status);
  const std::uint32_t slc = TS_SLC_BASE_ADDR;
  w.slc_status = rd(slc + TS_SLC_STATUS_OFFSET);
  w.slc_lines = rd(slc + TS_SLC_LINES_OFFSET);
  // SLC accesses by any client but the host (the KMD's polls are not GPU progress).
  w.sig.push_back(rd(slc + TS_SLC_CNT_READS_OFFSET) - static_cast<std::uint32_t>(s.host_rd_ok));
  w.sig.push_back(rd(slc + TS_SLC_CNT_WRITES_OFFSET) - static_cast<std::uint32_t>(s.host_wr_ok));
  w.sig.push_back(rd(slc + TS_SLC_CMD_COUNT_OFFSET));
  if (s.cfg.slices > 0) {
    w.sig.push_back(rd(TS_GEOM_BASE_ADDR + TS_GEOM_DRAWS_OFFSET));
    w.sig.push_back(rd(TS_GEOM_BASE_ADDR + TS_GEOM_VISIBLE_OFFSET));
    for (unsigned k = 0; k < s.cfg.slices; ++k) {
      w.sig.push_back(rd(TS_GEOM_BASE_ADDR + TS_GEOM_SL_PRIMS_OFFSET_N(k)));
      w.geom_outstanding.push_back(rd(TS_GEOM_BASE_ADDR + TS_GEOM_SL_OUTSTANDING_OFFSET_N(k)));
    }
  }
  return w;
}

// Blocks that hold work, from the snapshot and the model's outputs.
std::vector<std::string> wd_holders(GpuSim& g, GpuSim::Impl& s, const WdSnapshot& w) {
  std::vector<std::string> h;
  if (TS_CP_CTRL_RUN_GET(w.cp_ctrl)) {
    const std::uint32_t en = TS_CP_CTRL_QUEUE_ENABLE_GET(w.cp_ctrl);
    const std::uint32_t active = TS_CP_STATUS_QUEUE_ACTIVE_GET(w.cp_status);
    const std::uint32_t waiting = TS_CP_STATUS_QUEUE_WAITING_GET(w.cp_status);
    const std::uint32_t halted = TS_CP_STATUS_QUEUE_HALTED_GET(w.cp_status);
    for (unsigned q = 0; q < w.rptr.size(); ++q) {
      if (!(en >> q & 1U) || (halted >> q & 1U)) continue;   // off, or stopped on an error (reported by the KMD)
      if (w.rptr[q] == w.wptr[q] && !(active >> q & 1U)) continue;
      h.push_back(fmt::format("CP queue {} (RPTR 0x{:x}, WPTR 0x{:x}{}{})", q, w.rptr[q], w.wptr[q],
                              (active >> q & 1U) ? ", active" : "", (waiting >> q & 1U) ? ", waiting" : ""));
    }
  }
  const std::size_t pipe = s.pipe_inflight();
  if (pipe > 0 || g.pipe_busy())
    h.push_back(fmt::format("pipeline ({} command(s) issued and not completed{})", pipe,
                            g.pipe_busy() ? ", pipe_busy" : ""));
  for (unsigned k = 0; k < w.geom_outstanding.size(); ++k)
    if (w.geom_outstanding[k]) h.push_back(fmt::format("geometry slice {} ({} primitive(s) outstanding)", k, w.geom_outstanding[k]));
  if (s.cfg.slices > 0 && s.wd_stats_prev.size() == s.wd_stats_cur.size()) {
    for (unsigned k = 0; k < s.cfg.slices; ++k) {
      auto at = [&](const std::vector<std::uint32_t>& v, unsigned word) { return v.at(k * SliceStats::kWords + word); };
      // Where the slice's cycles went over the quiet stretch (every activity but idle).
      std::string where;
      for (const SliceStats::Activity& a : SliceStats::kActivities)
        if (a.word != SliceStats::kIdleCycles && at(s.wd_stats_cur, a.word) != at(s.wd_stats_prev, a.word))
          where += std::string(where.empty() ? "" : "/") + a.key;
      if (where.empty()) continue;
      h.push_back(fmt::format("raster slice {} (its cycles go to {}; its CCHE's hits, misses, fills and writebacks do "
                              "not move)", k, where));
    }
  }
  // A slice's CCHE with a miss, writeback or maintenance in flight (its busy output).
  const std::uint32_t cche = s.cche_busy();
  for (unsigned k = 0; k < s.cfg.slices; ++k)
    if (cche >> k & 1U) h.push_back(fmt::format("CCHE of slice {} (a miss, writeback or maintenance in flight)", k));
  const bool slc_busy = TS_SLC_STATUS_BUSY_GET(w.slc_status);
  if (slc_busy || !s.axi_idle())
    h.push_back(fmt::format("SLC ({}{} valid line(s), {} dirty{})", slc_busy ? "STATUS.busy, " : "",
                            TS_SLC_LINES_VALID_GET(w.slc_lines), TS_SLC_LINES_DIRTY_GET(w.slc_lines),
                            s.axi_idle() ? "" : "; misses or writebacks waiting on the AXI bridge"));
  if (!s.dram.idle() || s.axi_waiting)
    h.push_back(fmt::format("DRAM ({} read(s), {} write(s) accepted and unanswered{})", s.dram.reads_outstanding(),
                            s.dram.writes_outstanding(),
                            s.axi_waiting ? "; the GPU presents an AXI request the DRAM does not accept" : ""));
  if (s.h_outstanding || s.h_presented)
    h.push_back(fmt::format("host memory port ({} request(s) unanswered)", s.h_outstanding + (s.h_presented ? 1 : 0)));
  return h;
}

// Called at a safe point (no host register access under way) when wd_sample() asks.
void watchdog_check(GpuSim& g, GpuSim::Impl& s) {
  s.wd_due = false;
  s.wd_in_diag = true;
  struct Clear {
    bool& f;
    ~Clear() { f = false; }
  } clear{s.wd_in_diag};
  const std::uint64_t progress_before = s.wd_last_progress;
  const WdSnapshot w = wd_snapshot(g, s);
  if (s.wd_last_progress != progress_before) return;   // moved while the registers were read
  if (!s.wd_snap_valid) {
    s.wd_snap = w.sig;
    s.wd_snap_valid = true;
    s.wd_snap_cyc = s.cyc;
    return;
  }
  if (w.sig != s.wd_snap) {   // the CP or the SLC moved
    s.wd_last_progress = s.cyc;
    s.wd_snap_valid = false;
    return;
  }
  auto holders = wd_holders(g, s, w);
  if (holders.empty()) {   // idle: nothing to wait for
    s.wd_last_progress = s.cyc;
    s.wd_snap_valid = false;
    return;
  }
  const std::uint64_t quiet = s.cyc - s.wd_last_progress;
  std::string list;
  for (const auto& x : holders) list += (list.empty() ? "" : "; ") + x;
  throw WatchdogTimeout(
      fmt::format("GPU watchdog: at cycle {} nothing has progressed for {} cycles (GpuSimConfig::watchdog_cycles {}): "
                  "no pipeline command pushed or completed, no DRAM transfer, no slice counter, CP read pointer or "
                  "SLC access moved, while work is pending in: {}. CP ERROR_STATUS 0x{:08x}, ERROR_ADDR 0x{:08x}",
                  s.cyc, quiet, s.cfg.watchdog_cycles, list, w.err_status, w.err_addr),
      s.cyc, quiet, std::move(holders), w.err_status, w.err_addr);
}

// After every cycle of step() / run_until(): cancellation and the watchdog.
inline void safe_point(GpuSim& g, GpuSim::Impl& s) {
  if (s.cfg.cancel && s.cyc >= s.next_cancel_check) {
    s.next_cancel_check = s.cyc + 4096;
    if (s.cfg.cancel->load(std::memory_order_relaxed))
      throw SimulationCancelled(fmt::format("GpuSim: simulation cancelled at cycle {}", s.cyc));
  }
  if (s.wd_due && !s.wd_in_diag) watchdog_check(g, s);
  if (s.progress_cb && s.cyc >= s.next_progress) {
    s.next_progress = s.cyc + s.progress_every;
    s.progress_cb(s.cyc);
  }
}

// Sends the queued host requests (s.hq) through the memory system and waits for every answer.
// A safe point every cycle: the register port is free, so the watchdog can look.
void run_host(GpuSim& g, GpuSim::Impl& s) {
  s.h_got = 0;
  s.host_kick();
  const std::uint64_t limit = 200000 + 2 * s.cfg.watchdog_cycles;   // the watchdog, if on, speaks first
  std::uint64_t quiet = 0;
  std::size_t got = 0;
  while (s.h_got < s.h_rsp.size()) {
    if (++quiet > limit)
      throw std::runtime_error(fmt::format("GpuSim: host memory port: {} of {} line requests unanswered for {} cycles",
                                           s.h_rsp.size() - s.h_got, s.h_rsp.size(), limit));
    s.cycle_once();
    if (s.h_got != got) quiet = 0, got = s.h_got;
    safe_point(g, s);
  }
}

}  // namespace

void GpuSim::step(std::uint64_t n) {
  auto& s = *p_;
  for (std::uint64_t i = 0; i < n; ++i) {
    s.cycle_once();
    safe_point(*this, s);
  }
}

bool GpuSim::run_until(const std::function<bool()>& pred, std::uint64_t max_cycles) {
  auto& s = *p_;
  for (std::uint64_t i = 0; i < max_cycles; ++i) {
    if (pred()) return true;
    s.cycle_once();
    safe_point(*this, s);
  }
  return pred();
}

std::uint64_t GpuSim::cycle() const { return p_->cyc; }

GpuSim::RegResult GpuSim::reg_access(std::uint32_t offset, bool write, std::uint32_t value) {
  auto& s = *p_;
  s.host_write = write;
  s.host_addr = offset;
  s.host_wdata = value;
  s.host_aw_done = s.host_w_done = false;
  s.host_done = false;
  s.host_phase = Impl::HostPhase::addr;
  s.start_reg_access(write, offset, value);
  for (std::uint64_t c = 0; !s.host_done; ++c) {
    if (c > s.cfg.reg_timeout)
      throw std::runtime_error(fmt::format("GpuSim: register {} of 0x{:04x} not answered in {} cycles",
                                           write ? "write" : "read", offset, s.cfg.reg_timeout));
    s.cycle_once();
  }
  return s.host_result;
}

std::uint32_t GpuSim::reg_read(std::uint32_t offset) {
  const auto r = reg_access(offset, false, 0);
  if (!r.ok) throw std::runtime_error(fmt::format("GpuSim: register read of 0x{:04x} answered SLVERR", offset));
  return r.value;
}

void GpuSim::reg_write(std::uint32_t offset, std::uint32_t value) {
  if (!reg_access(offset, true, value).ok)
    throw std::runtime_error(fmt::format("GpuSim: register write of 0x{:04x} answered SLVERR", offset));
}

namespace {
// The host-port rule (docs/cp.md "Host memory path"): the DRAM backdoor is coherent when the
// memory system holds no copy of any line and none can be on its way into the SLC: the DRAM
// accepted no read since reset (no fill in flight, no SLC line holds DRAM data) and the SLC
// reports no valid line (no line written by a client; with no fill ever, no eviction's
// writeback can be in flight either: a line leaves LINES.valid only by DELETE or INVALIDATE,
// which complete after every writeback). Also not when the access would be answered err on
// the memory path (SLC MEM_LIMIT, DRAM error ranges), so both paths fail the same way.
bool backdoor_coherent(GpuSim& g, GpuSim::Impl& s, std::uint32_t addr, std::size_t n) {
  if (!s.cfg.host_backdoor || s.dram_read_seen) return false;
  for (const auto& e : s.dram.config().error_ranges)
    if (std::uint64_t{addr} < e.base + e.size && std::uint64_t{e.base} < std::uint64_t{addr} + n) return false;
  const std::uint32_t lines = g.reg_read(TS_SLC_BASE_ADDR + TS_SLC_LINES_OFFSET);
  const std::uint32_t limit = g.reg_read(TS_SLC_BASE_ADDR + TS_SLC_MEM_LIMIT_OFFSET) & TS_SLC_MEM_LIMIT_LIMIT_MASK;
  if (limit != 0 && std::uint64_t{addr} + n > limit) return false;
  // (Time passed during the register reads: the GPU may have read DRAM meanwhile.)
  return TS_SLC_LINES_VALID_GET(lines) == 0 && !s.dram_read_seen;
}

void check_span(std::uint32_t addr, std::size_t n, const char* what) {
  if (std::uint64_t{addr} + n > (std::uint64_t{1} << 32))
    throw std::out_of_range(fmt::format("GpuSim: host {} of {} bytes at 0x{:08x} runs past the 4 GiB address space",
                                        what, n, addr));
}
}  // namespace

void GpuSim::mem_write(std::uint32_t addr, std::span<const std::uint8_t> bytes) {
  if (bytes.empty()) return;
  check_span(addr, bytes.size(), "write");
  auto& s = *p_;
  const std::uint64_t c0 = s.cyc;
  if (backdoor_coherent(*this, s, addr, bytes.size())) {
    s.dram.memory().write(addr, bytes);
    s.host_stats.write_backdoor_bytes += bytes.size();
    s.host_stats.cycles += s.cyc - c0;
    return;
  }
  s.h_rsp.clear();
  std::size_t done = 0;
  while (done < bytes.size()) {
    const std::uint32_t a = addr + static_cast<std::uint32_t>(done);
    const std::uint32_t line = a & ~63U, off = a & 63U;
    const std::size_t n = std::min<std::size_t>(64 - off, bytes.size() - done);
    mem::Req r;
    r.op = mem::Op::write;
    r.addr = line;
    for (std::size_t i = 0; i < n; ++i) {
      r.wdata[off + i] = bytes[done + i];
      r.wstrb |= std::uint64_t{1} << (off + i);
    }
    s.hq.emplace_back(r, s.h_rsp.size());
    s.h_rsp.emplace_back();
    done += n;
  }
  run_host(*this, s);
  s.host_stats.write_memsys_bytes += bytes.size();
  s.host_stats.memsys_requests += s.h_rsp.size();
  s.host_stats.cycles += s.cyc - c0;
  for (std::size_t i = 0; i < s.h_rsp.size(); ++i)
    if (s.h_rsp[i].err)
      throw std::runtime_error(fmt::format("GpuSim: host write to 0x{:08x} answered err", (addr & ~63U) + 64 * i));
}

void GpuSim::mem_read(std::uint32_t addr, std::span<std::uint8_t> bytes) {
  if (bytes.empty()) return;
  check_span(addr, bytes.size(), "read");
  auto& s = *p_;
  const std::uint64_t c0 = s.cyc;
  if (backdoor_coherent(*this, s, addr, bytes.size())) {
    s.dram.memory().read(addr, bytes);
    s.host_stats.read_backdoor_bytes += bytes.size();
    s.host_stats.cycles += s.cyc - c0;
    return;
  }
  s.h_rsp.clear();
  const std::uint32_t first = addr & ~63U;
  const std::uint64_t end = std::uint64_t{addr} + bytes.size();
  for (std::uint64_t line = first; line < end; line += 64) {
    mem::Req r;
    r.op = mem::Op::read;
    r.addr = static_cast<std::uint32_t>(line);
    s.hq.emplace_back(r, s.h_rsp.size());
    s.h_rsp.emplace_back();
  }
  run_host(*this, s);
  s.host_stats.read_memsys_bytes += bytes.size();
  s.host_stats.memsys_requests += s.h_rsp.size();
  s.host_stats.cycles += s.cyc - c0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const std::uint64_t a = std::uint64_t{addr} + i;
    const auto& rsp = s.h_rsp[(a - first) / 64];
    if (rsp.err) throw std::runtime_error(fmt::format("GpuSim: host read of 0x{:08x} answered err", a & ~63ULL));
    bytes[i] = rsp.rdata[a & 63U];
  }
}

void GpuSim::mem_write32(std::uint32_t addr, std::uint32_t v) {
  const std::uint8_t b[4] = {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8),
                             static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 24)};
  mem_write(addr, b);
}

std::uint32_t GpuSim::mem_read32(std::uint32_t addr) {
  std::uint8_t b[4];
  mem_read(addr, b);
  return b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<std::uint32_t>(b[3]) << 24);
}

const HostPathStats& GpuSim::host_path_stats() const { return p_->host_stats; }
void GpuSim::set_host_backdoor(bool on) { p_->cfg.host_backdoor = on; }
std::uint64_t GpuSim::memory_bytes() const {
  return p_->cfg.slices == 0 ? std::uint64_t{TESSERA_GPU_CP_MEM_BYTES} : std::uint64_t{TESSERA_GPU_MEM_BYTES};
}
std::uint64_t GpuSim::watchdog_longest_quiet() const { return p_->wd_longest; }
void GpuSim::set_watchdog_cycles(std::uint64_t cycles) {
  auto& s = *p_;
  s.cfg.watchdog_cycles = cycles;
  s.wd_last_progress = s.wd_pipe_quiet_since = s.cyc;   // a new window starts now
  s.wd_snap_valid = s.wd_due = false;
}

bool GpuSim::irq() const { return p_->irq(); }
std::uint32_t GpuSim::fw_status() const { return p_->fw_status(); }
unsigned GpuSim::slices() const { return p_->cfg.slices; }
bool GpuSim::pipe_busy() const { return p_->pipe_busy(); }
std::vector<SliceStats> GpuSim::slice_stats() const {
  std::vector<SliceStats> out;
  const auto w = p_->pipe_stats();
  for (unsigned s = 0; s < p_->cfg.slices; ++s) {
    SliceStats st;
    for (unsigned k = 0; k < SliceStats::kWords; ++k) st.word[k] = w.at(s * SliceStats::kWords + k);
    out.push_back(st);
  }
  return out;
}
void GpuSim::start_slice_recording() {
  auto& s = *p_;
  if (s.cfg.slices == 0) throw std::logic_error("GpuSim: slice recording needs a model with slices (gpu_n1/n2/n4)");
  if (s.cfg.slices > 8) throw std::logic_error("GpuSim: slice recording takes at most 8 slices");
  if (!s.recorder)
    s.recorder = std::make_unique<SliceRecorder>(s.cfg.slices, [this](unsigned k) {
      const SliceStats st = slice_stats().at(k);
      return std::pair<std::uint32_t, std::uint32_t>{st[SliceStats::kLineReads], st[SliceStats::kLineWrites]};
    });
  s.recorder->begin(s.cyc);
}
std::uint64_t GpuSim::geometry_prims_finished() const {
  auto& s = *p_;
  if (s.cfg.slices == 0) return 0;
  std::array<std::uint64_t, 8> mon{};
  s.slice_monitor(mon.data(), s.cfg.slices);
  using MonPos = tessera::layout::SliceMonitor::Pos;
  std::uint64_t outstanding = 0;
  for (unsigned k = 0; k < s.cfg.slices; ++k)
    outstanding += (mon[k] >> MonPos::geom_outstanding.lsb) & ((1U << MonPos::geom_outstanding.width) - 1);
  return s.geom_dispatched >= outstanding ? s.geom_dispatched - outstanding : 0;
}
void GpuSim::on_progress(std::function<void(std::uint64_t cycle)> cb, std::uint64_t every_cycles) {
  if (cb && every_cycles == 0) throw std::invalid_argument("GpuSim::on_progress: every_cycles must be > 0");
  p_->progress_cb = std::move(cb);
  p_->progress_every = every_cycles;
  p_->next_progress = p_->cyc + every_cycles;
}
void GpuSim::stop_slice_recording() { p_->recorder.reset(); }
bool GpuSim::slice_recording_on() const { return p_->recorder != nullptr; }
SliceRecording GpuSim::slice_recording() const {
  if (!p_->recorder) throw std::logic_error("GpuSim::slice_recording: recording is off (start_slice_recording)");
  return p_->recorder->snapshot(p_->cyc);
}
std::uint64_t GpuSim::instructions_retired() const { return p_->instret; }
std::uint64_t GpuSim::core_cycles() const { return p_->core_cycles; }
const std::vector<PipeCommand>& GpuSim::pipe_log() const { return p_->pipe_log; }
void GpuSim::clear_pipe_log() { p_->pipe_log.clear(); }
std::size_t GpuSim::pipe_in_flight() const { return p_->pipe_inflight(); }
const std::string& GpuSim::console() const { return p_->console; }
DramModel& GpuSim::dram() { return p_->dram; }
const GpuSimConfig& GpuSim::config() const { return p_->cfg; }
void GpuSim::set_pipe_ready_prob(double p) { p_->cfg.pipe_ready_prob = p; }
void GpuSim::set_pipe_latency(unsigned lo, unsigned hi) {
  p_->cfg.pipe_min_latency = lo;
  p_->cfg.pipe_max_latency = std::max(lo, hi);
}
void GpuSim::on_retire(std::function<void(std::uint32_t, std::uint32_t)> cb) { p_->retire_cb = std::move(cb); }

}  // namespace tessera::sim
