// GpuSim: the verilated GPU (rtl/gpu/gpu_top.sv) with the C++ DRAM model and a host that talks
// to it through the AXI4-Lite register port and a coherent host memory port.
//
// GpuSimConfig::slices picks the model: 1, 2 or 4 (gpu_n1/n2/n4) is the whole GPU, the CP
// driving the real pipeline (pipe_top: sliced geometry and raster slices); 0 (gpu_cp) is the
// CP and memory system with a stand-in for the pipeline that accepts the CP's commands with
// random backpressure, writes one line tagged with the command's DSID for every DRAW, and
// reports completion in order after a random latency (the CP system tests control timing
// with it). Every model logs the CP's pipeline commands (pipe_log).
//
// Synchronous and free of the test harness: the driver's RTL device backend and tessera-sim
// step it directly; the CP system tests use it from GoogleTest.
//
// docs/cp.md "gpu_top and GpuSim" describes the progress watchdog, the host memory path (DRAM
// backdoor or memory system, and the rule that picks one) and the cancellation hook.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "tessera/driver/pipe_command.hpp"
#include "tessera/sim/dram_model.hpp"
#include "tessera/sim/slice_recording.hpp"
#include "tessera_layouts.hpp"

namespace tessera::sim {

// The commands the CP sent to the pipeline, in the driver's PipeCommand (cycle = acceptance
// cycle), the same records the reference device logs.
using driver::PipeCommand;

// Statistics of one slice (pipe_top stat_o, docs/pipeline.md): wrapping 32-bit counters. The
// block is spec/layouts.yaml's slice_stats; each word index is read off the generated layout.
struct SliceStats {
  using Layout = layout::SliceStats;
  static constexpr unsigned kWords = Layout::kWords;
  enum Word : unsigned {
    kTris = Layout::Pos::tris.lsb / 32,
    kBins = Layout::Pos::bins_rendered.lsb / 32,
    kBinPrims = Layout::Pos::bin_prims.lsb / 32,
    kQuads = Layout::Pos::quads.lsb / 32,
    kFrags = Layout::Pos::frags.lsb / 32,
    kFragsPassed = Layout::Pos::frags_passed.lsb / 32,
    kLineReads = Layout::Pos::line_reads.lsb / 32,
    kLineWrites = Layout::Pos::line_writes.lsb / 32,
    kTexHits = Layout::Pos::tex_hits.lsb / 32,
    kTexMisses = Layout::Pos::tex_misses.lsb / 32,
    kLoadCycles = Layout::Pos::load_cycles.lsb / 32,
    kSetupCycles = Layout::Pos::setup_cycles.lsb / 32,
    kRasterCycles = Layout::Pos::raster_cycles.lsb / 32,
    kStoreCycles = Layout::Pos::store_cycles.lsb / 32,
    kBusyCycles = Layout::Pos::busy_cycles.lsb / 32,
    kGeomTris = Layout::Pos::geom_tris.lsb / 32,
    kCcheHits = Layout::Pos::cche_hits.lsb / 32,
    kCcheMisses = Layout::Pos::cche_misses.lsb / 32,
    kCcheWritebacks = Layout::Pos::cche_writebacks.lsb / 32,
    kCcheFills = Layout::Pos::cche_fills.lsb / 32,
    kIdleCycles = Layout::Pos::idle_cycles.lsb / 32,
    kInputWaitCycles = Layout::Pos::input_wait_cycles.lsb / 32,
    kMemoryWaitCycles = Layout::Pos::memory_wait_cycles.lsb / 32,
    kClearCycles = Layout::Pos::clear_cycles.lsb / 32,
    kLrzRejectedBlocks = Layout::Pos::lrz_rejected_blocks.lsb / 32,
    kLrzRejectedQuads = Layout::Pos::lrz_rejected_quads.lsb / 32,
    kQuadsHidden = Layout::Pos::quads_hidden.lsb / 32,
    kGmemReads = Layout::Pos::gmem_reads.lsb / 32,
    kGmemWrites = Layout::Pos::gmem_writes.lsb / 32,
    kTexelWaitCycles = Layout::Pos::texel_wait_cycles.lsb / 32,   // of memory_wait: texel misses
    kLoadWaitCycles = Layout::Pos::load_wait_cycles.lsb / 32,     // of memory_wait: tile loads
  };
  // The eight activity counters: exactly one advances per cycle (tessera_raster_pkg::act_e),
  // so they add up to the cycles elapsed. In the order of act_e.
  struct Activity {
    Word word;
    const char* key;  // stats.json slices[k].cycles key
  };
  static constexpr Activity kActivities[] = {
      {kIdleCycles, "idle"}, {kInputWaitCycles, "input_wait"}, {kMemoryWaitCycles, "memory_wait"},
      {kClearCycles, "clear"}, {kLoadCycles, "load"}, {kSetupCycles, "setup"},
      {kRasterCycles, "raster"}, {kStoreCycles, "store"}};
  // Counters that advance with time rather than with work done: the activities and busy.
  static constexpr bool is_cycle_counter(unsigned w) {
    if (w == kBusyCycles || w == kTexelWaitCycles || w == kLoadWaitCycles) return true;
    for (const Activity& a : kActivities)
      if (a.word == w) return true;
    return false;
  }
  // Word indices are only meaningful for a block of whole 32-bit words.
  static_assert(Layout::kBits == kWords * 32 && Layout::Pos::tris.width == 32);
  std::uint32_t word[kWords] = {};
  std::uint32_t operator[](Word w) const { return word[w]; }
};

// Thrown by step(), run_until() and the host memory path when GpuSimConfig::cancel is set
// (checked every 4096 cycles). The simulation is abandoned: nothing is in a defined state afterwards.
class SimulationCancelled : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Thrown by step(), run_until() and the host memory path when the progress watchdog fires: work is pending and no
// block retired any for GpuSimConfig::watchdog_cycles. RtlDevice turns it into a
// driver::DeviceFault with the same message.
class WatchdogTimeout : public std::runtime_error {
 public:
  WatchdogTimeout(const std::string& what, std::uint64_t cycle, std::uint64_t quiet_cycles,
                  std::vector<std::string> holders, std::uint32_t error_status, std::uint32_t error_addr)
      : std::runtime_error(what), cycle_(cycle), quiet_(quiet_cycles), holders_(std::move(holders)),
        error_status_(error_status), error_addr_(error_addr) {}
  std::uint64_t cycle() const { return cycle_; }               // when it fired
  std::uint64_t quiet_cycles() const { return quiet_; }        // how long nothing moved
  const std::vector<std::string>& holders() const { return holders_; }  // blocks holding work
  std::uint32_t error_status() const { return error_status_; }  // CP ERROR_STATUS / ERROR_ADDR then
  std::uint32_t error_addr() const { return error_addr_; }

 private:
  std::uint64_t cycle_, quiet_;
  std::vector<std::string> holders_;
  std::uint32_t error_status_, error_addr_;
};

// Where the host's GPU-memory accesses went (mem_write / mem_read), see docs/cp.md.
struct HostPathStats {
  std::uint64_t write_backdoor_bytes = 0;  // written straight into the DRAM model
  std::uint64_t write_memsys_bytes = 0;    // written through the crossbar and the SLC
  std::uint64_t read_backdoor_bytes = 0;
  std::uint64_t read_memsys_bytes = 0;
  std::uint64_t cycles = 0;                // clock cycles spent inside mem_write / mem_read
  std::uint64_t memsys_requests = 0;       // line requests sent through the memory system
};

struct GpuSimConfig {
  unsigned slices = 0;                   // 0: pipeline stand-in (gpu_cp); 1, 2, 4: whole GPU
  std::uint64_t seed = 1;
  DramConfig dram{};
  std::string firmware_hex;              // $readmemh ROM image; empty: TESSERA_CP_FW_HEX (build)
  std::string wave_file;                 // FST; empty: no waveform
  std::uint64_t wave_start = 0;          // cycle window of the waveform
  std::uint64_t wave_end = ~std::uint64_t{0};
  // Pipeline stand-in (slices = 0) only:
  double pipe_ready_prob = 1.0;          // P(ready) per cycle
  unsigned pipe_min_latency = 4;         // cycles from acceptance to completion
  unsigned pipe_max_latency = 24;
  bool pipe_draw_writes = true;          // a DRAW writes the line at its vertex_addr, tagged
  bool echo_console = true;              // print the firmware's console lines with "[cp] "
  std::uint64_t reg_timeout = 200000;    // cycles a register access may take
  // Progress watchdog (docs/cp.md "gpu_top and GpuSim", "Progress watchdog"): step(),
  // run_until() and the host memory path throw WatchdogTimeout when work is pending and
  // nothing progressed for this many cycles; 0 = off.
  // 200k is far above every legitimate quiet stretch: a DRAM access is ~85 cycles (queued
  // behind 64 outstanding ones, a few hundred), an SLC maintenance walk of a 2 MiB SLC 4096
  // cycles, a slice's tile pass moves a statistics counter every few cycles.
  std::uint64_t watchdog_cycles = 200'000;
  // Host memory path: false sends every host access through the memory system (for
  // comparisons); true uses the DRAM backdoor where that is coherent (docs/cp.md).
  bool host_backdoor = true;
  unsigned host_window = 16;             // host line requests in flight through the memory system (1..128)
  // Cancellation: step(), run_until() and the host memory path throw SimulationCancelled once
  // this is true (checked every 4096 cycles). nullptr: none. Must outlive the GpuSim.
  const std::atomic<bool>* cancel = nullptr;
};

class GpuSim {
 public:
  explicit GpuSim(GpuSimConfig cfg = {});
  ~GpuSim();
  GpuSim(const GpuSim&) = delete;
  GpuSim& operator=(const GpuSim&) = delete;

  // Reset the GPU, load the ROM image (the core is held: CTRL.run = 0) and wait for the SLC.
  void reset();
  // Advance n clock cycles.
  void step(std::uint64_t n = 1);
  // Step until pred() is true (checked once per cycle); false if max_cycles passed first.
  bool run_until(const std::function<bool()>& pred, std::uint64_t max_cycles);
  std::uint64_t cycle() const;

  // Host register port (AXI4-Lite). Throws std::runtime_error on a timeout; returns the
  // response (SLVERR -> ok = false).
  struct RegResult {
    std::uint32_t value = 0;
    bool ok = true;
  };
  RegResult reg_access(std::uint32_t offset, bool write, std::uint32_t value);
  std::uint32_t reg_read(std::uint32_t offset);                 // throws on SLVERR
  void reg_write(std::uint32_t offset, std::uint32_t value);    // throws on SLVERR

  // Coherent host access to GPU memory. Through the DRAM backdoor (no clock cycles) while the
  // memory system provably holds no copy (since reset no DRAM read was accepted and the SLC
  // reports LINES.valid == 0); otherwise through the memory system (a crossbar client, so the
  // SLC's copies are seen and updated), host_window lines in flight. Throws on an error
  // response.
  void mem_write(std::uint32_t addr, std::span<const std::uint8_t> bytes);
  void mem_read(std::uint32_t addr, std::span<std::uint8_t> bytes);
  void mem_write32(std::uint32_t addr, std::uint32_t v);
  std::uint32_t mem_read32(std::uint32_t addr);
  const HostPathStats& host_path_stats() const;
  void set_host_backdoor(bool on);

  // GPU memory of the model in bytes: gpu_top's MEM_BYTES, what the CP's firmware sees in
  // CPFW.MEM_LIMIT (16 MiB for gpu_cp, TESSERA_GPU_MEM_BYTES for gpu_n1/n2/n4).
  std::uint64_t memory_bytes() const;

  // Progress watchdog: the longest stretch without visible progress (1024-cycle resolution)
  // while the pipeline held commands (pipe_in_flight() > 0): how far below watchdog_cycles
  // a run stayed.
  std::uint64_t watchdog_longest_quiet() const;
  void set_watchdog_cycles(std::uint64_t cycles);   // 0: off

  bool irq() const;
  std::uint32_t fw_status() const;
  unsigned slices() const;
  bool pipe_busy() const;                       // the pipeline holds work (always false: stand-in)
  std::vector<SliceStats> slice_stats() const;  // one per slice (none: stand-in)
  // Slice recording (slice_recording.hpp; gpu_n1/n2/n4 only): from now on every cycle's
  // slice_mon_o feeds a SliceRecorder, which keeps bin visits, phases, stalls and sub-batches
  // (a few loads per cycle; off by default). start again to begin a new recording.
  void start_slice_recording();
  void stop_slice_recording();
  bool slice_recording_on() const;
  SliceRecording slice_recording() const;   // what was recorded up to now
  // Primitives the geometry front end finished since reset: what PC_US dispatched to the
  // geometry slices minus what they still hold (slice_monitor; 0 for the stand-in).
  std::uint64_t geometry_prims_finished() const;
  // Calls cb(cycle) every every_cycles cycles, at a safe point of step(), run_until() or the
  // host memory path (cb must not clock the GPU; it may read statistics). nullptr: off.
  void on_progress(std::function<void(std::uint64_t cycle)> cb, std::uint64_t every_cycles);
  std::uint64_t instructions_retired() const;
  std::uint64_t core_cycles() const;   // cycles the core was out of reset
  const std::vector<PipeCommand>& pipe_log() const;
  void clear_pipe_log();
  // Commands whose completion has not been reported yet.
  std::size_t pipe_in_flight() const;
  const std::string& console() const;
  DramModel& dram();
  const GpuSimConfig& config() const;
  // Pipeline stand-in knobs at run time.
  void set_pipe_ready_prob(double p);
  void set_pipe_latency(unsigned min_cycles, unsigned max_cycles);
  // Retired-instruction hook (pc, insn), e.g. for a trace.
  void on_retire(std::function<void(std::uint32_t pc, std::uint32_t insn)> cb);

 struct Impl;   // (defined in gpu_sim.cpp)

 private:
  std::unique_ptr<Impl> p_;
};

// Loads a $readmemh image (32-bit words, optional @word-address lines) into `words`.
std::vector<std::uint32_t> load_readmemh(const std::string& path, std::size_t max_words);

}  // namespace tessera::sim
