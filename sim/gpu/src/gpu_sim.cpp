// GpuSim implementation: one clock cycle = settle with the current inputs, sample every
// handshake as the design presents it before the edge, let the DRAM model and the host-side
// agents compute their responses, clock the edge, then drive the new inputs (registered
// agents, exactly like tb::axi::DramAgent).
#include "tessera/sim/gpu_sim.hpp"

#include <fmt/format.h>
#include <verilated.h>
#include <verilated_fst_c.h>

#include <deque>
#include <fstream>
#include <random>
#include <stdexcept>

#include "Vgpu_cp.h"
#include "Vgpu_n1.h"
#include "Vgpu_n2.h"
#include "Vgpu_n4.h"
#include "mem_protocol.hpp"
#include "tb/signal.hpp"
#include "tessera/sim/axi_verilated.hpp"
#include "tessera_spec.h"

#ifndef TESSERA_CP_FW_HEX_DEFAULT
#define TESSERA_CP_FW_HEX_DEFAULT ""
#endif

namespace tessera::sim {

namespace mem = tb::mem;

std::string describe(const PipeCommand& c) {
  std::string s = fmt::format("op=0x{:02x} q={} dsid={} args=[", c.opcode, c.queue, c.dsid);
  for (std::size_t i = 0; i < c.args.size(); ++i) s += fmt::format("{}0x{:x}", i ? " " : "", c.args[i]);
  return s + "]";
}

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
constexpr unsigned kPipeCmdW = 8 + 3 + 6 + 4 + 256;
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

  // Host memory port.
  bool hmem_busy = false, hmem_accepted = false, hmem_got = false;
  mem::Req hmem_req;
  mem::Rsp hmem_rsp;

  explicit Impl(GpuSimConfig c) : cfg(std::move(c)), dram(cfg.dram), rng(cfg.seed) {}
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
  virtual mem::Rsp host_transact(const mem::Req& r) = 0;
  virtual bool irq() const = 0;
  virtual std::uint32_t fw_status() const = 0;
  virtual std::uint32_t pipe_issued() const = 0;
  virtual std::uint32_t pipe_done_count() const = 0;
  virtual bool pipe_busy() const = 0;
  virtual std::vector<std::uint32_t> pipe_stats() const = 0;
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
  std::uint32_t fw_status() const override { return top->fw_status_o; }
  std::uint32_t pipe_issued() const override { return top->pipe_issued_o; }
  std::uint32_t pipe_done_count() const override { return top->pipe_done_count_o; }
  bool pipe_busy() const override { return top->pipe_busy_o; }
  std::vector<std::uint32_t> pipe_stats() const override {
    tb::SignalRef sig(top->pipe_stat_o);
    return sig.read_words();
  }

  void cycle_once() override {
    V& t = *top;
    t.clk_i = 0;
    t.eval();
    dump(cyc * 2);

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
      tb::SignalRef sig(t.pipe_mon_cmd_o);
      const mem::Bits b(static_cast<unsigned>(sig.bytes() * 8), sig.read_words());
      cmd.opcode = static_cast<std::uint8_t>(b.get(269, 8));
      cmd.queue = static_cast<std::uint8_t>(b.get(266, 3));
      cmd.dsid = static_cast<std::uint8_t>(b.get(260, 6));
      const unsigned nargs = static_cast<unsigned>(b.get(256, 4));
      for (unsigned i = 0; i < nargs && i < 8; ++i) cmd.args.push_back(static_cast<std::uint32_t>(b.get(i * 32, 32)));
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
    if (host_rsp_fire) host_rsp = mem::unpack_rsp(mem::read_port(tb::SignalRef(t.pc_rsp_o), mem::kRspW, kHostClient));
    if (pipe_rsp_fire) pipe_rsp = mem::unpack_rsp(mem::read_port(tb::SignalRef(t.pc_rsp_o), mem::kRspW, kPipeClient));

    // While reset is asserted the model's port state is held in reset (memory is kept), as
    // tb::axi::DramAgent does: the design's outputs are not meaningful yet.
    AxiSlaveSignals out = dram.outputs();
    if (t.rst_ni) {
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
    if (pipe_mon) pipe_log.push_back(std::move(cmd));
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
          mem::write_port(tb::SignalRef(t.pc_req_i), mem::pack(f.req), kPipeClient);
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
    if (hmem_busy && host_req_fire) hmem_accepted = true;
    if (host_rsp_fire) {
      hmem_rsp = host_rsp;
      hmem_got = true;
    }
    std::uint32_t valid = 0;
    if (hmem_busy && !hmem_accepted) valid |= 1U << kHostClient;
    if (pipe_client_busy) valid |= 1U << kPipeClient;
    t.pc_req_valid_i = valid & pc_mask;
    t.pc_rsp_ready_i = pc_mask;
  }

  mem::Rsp host_transact(const mem::Req& r) override {
    hmem_req = r;
    hmem_busy = true;
    hmem_accepted = false;
    hmem_got = false;
    mem::write_port(tb::SignalRef(top->pc_req_i), mem::pack(r), kHostClient);
    top->pc_req_valid_i = (top->pc_req_valid_i | (1U << kHostClient)) & pc_mask;
    for (std::uint64_t c = 0; !hmem_got; ++c) {
      if (c > 200000) throw std::runtime_error(fmt::format("host memory port: no response to {}", mem::describe(r)));
      cycle_once();
    }
    hmem_busy = false;
    return hmem_rsp;
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
  p_->reset_and_load(load_readmemh(hex, 4096));
  // The SLC walks its tag arrays after reset.
  for (unsigned c = 0; (reg_read(TS_SLC_BASE_ADDR + TS_SLC_STATUS_OFFSET) & TS_SLC_STATUS_BUSY_MASK); ++c)
    if (c > 10000) throw std::runtime_error("GpuSim: SLC still busy after reset");
}

void GpuSim::step(std::uint64_t n) {
  for (std::uint64_t i = 0; i < n; ++i) p_->cycle_once();
}

bool GpuSim::run_until(const std::function<bool()>& pred, std::uint64_t max_cycles) {
  for (std::uint64_t i = 0; i < max_cycles; ++i) {
    if (pred()) return true;
    p_->cycle_once();
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

void GpuSim::mem_write(std::uint32_t addr, std::span<const std::uint8_t> bytes) {
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
    const auto rsp = p_->host_transact(r);
    if (rsp.err) throw std::runtime_error(fmt::format("GpuSim: host write to 0x{:08x} answered err", line));
    done += n;
  }
}

void GpuSim::mem_read(std::uint32_t addr, std::span<std::uint8_t> bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const std::uint32_t a = addr + static_cast<std::uint32_t>(done);
    const std::uint32_t line = a & ~63U, off = a & 63U;
    const std::size_t n = std::min<std::size_t>(64 - off, bytes.size() - done);
    mem::Req r;
    r.op = mem::Op::read;
    r.addr = line;
    const auto rsp = p_->host_transact(r);
    if (rsp.err) throw std::runtime_error(fmt::format("GpuSim: host read of 0x{:08x} answered err", line));
    for (std::size_t i = 0; i < n; ++i) bytes[done + i] = rsp.rdata[off + i];
    done += n;
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
std::uint64_t GpuSim::instructions_retired() const { return p_->instret; }
std::uint64_t GpuSim::core_cycles() const { return p_->core_cycles; }
const std::vector<PipeCommand>& GpuSim::pipe_log() const { return p_->pipe_log; }
void GpuSim::clear_pipe_log() { p_->pipe_log.clear(); }
std::size_t GpuSim::pipe_in_flight() const {
  if (p_->cfg.slices == 0) return p_->inflight.size();
  return static_cast<std::uint32_t>(p_->pipe_issued() - p_->pipe_done_count());
}
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
