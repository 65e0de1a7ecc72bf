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

#include "gpu_sim_impl.hpp"

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


// gpu_cp (the pipeline stand-in) lives in gpu_model_cp.cpp, library tessera_gpu_model_cp: a
// weak reference, so a program that does not link it (tessera-sim) does not build gpu_cp.
std::unique_ptr<GpuSim::Impl> make_gpu_cp_model(GpuSimConfig cfg) __attribute__((weak));

namespace {
std::unique_ptr<GpuSim::Impl> make_impl(GpuSimConfig cfg) {
  switch (cfg.slices) {
    case 0:
      if (!make_gpu_cp_model)
        throw std::invalid_argument("GpuSim: slices = 0 (the pipeline stand-in, model gpu_cp) needs the program to "
                                    "link tessera_gpu_model_cp (sim/gpu/CMakeLists.txt)");
      return make_gpu_cp_model(std::move(cfg));
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
    // Culled triangles and the tessellation stage's work are progress too: a tessellated draw
    // whose triangles are all culled moves no other counter while its DS waves run.
    w.sig.push_back(rd(TS_GEOM_BASE_ADDR + TS_GEOM_CULL_ZERO_AREA_OFFSET));
    w.sig.push_back(rd(TS_GEOM_BASE_ADDR + TS_GEOM_CULL_FACE_OFFSET));
    w.sig.push_back(rd(TS_GEOM_BASE_ADDR + TS_GEOM_CULL_OFFSCREEN_OFFSET));
    w.sig.push_back(rd(TS_GEOM_BASE_ADDR + TS_GEOM_TESS_TRIANGLES_OFFSET));
    w.sig.push_back(rd(TS_GEOM_BASE_ADDR + TS_GEOM_TESS_THREAD_GROUPS_OFFSET));
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
