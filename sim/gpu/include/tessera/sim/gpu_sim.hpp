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
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tessera/sim/dram_model.hpp"

namespace tessera::sim {

// One command the CP sent to the pipeline (cpfw.yaml PIPE_PUSH): opcode TS_OP_*, queue,
// hardware DSID, and the argument dwords (SET_REGS: {register offset, value}).
struct PipeCommand {
  std::uint8_t opcode = 0;
  std::uint8_t queue = 0;
  std::uint8_t dsid = 0;
  std::vector<std::uint32_t> args;
  std::uint64_t cycle = 0;  // acceptance cycle
  bool operator==(const PipeCommand& o) const {
    return opcode == o.opcode && queue == o.queue && dsid == o.dsid && args == o.args;
  }
};
std::string describe(const PipeCommand& c);

// Statistics of one slice (pipe_top stat_o, docs/pipeline.md): wrapping 32-bit counters.
struct SliceStats {
  static constexpr unsigned kWords = 20;
  enum Word : unsigned {
    kTris = 0, kBins, kBinPrims, kQuads, kFrags, kFragsPassed, kLineReads, kLineWrites, kTexHits,
    kTexMisses, kLoadCycles, kSetupCycles, kRasterCycles, kStoreCycles, kBusyCycles, kGeomTris,
    kCcheHits, kCcheMisses, kCcheWritebacks, kCcheFills
  };
  std::uint32_t word[kWords] = {};
  std::uint32_t operator[](Word w) const { return word[w]; }
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

  // Coherent host access to GPU memory through the memory system (a crossbar client, so the
  // SLC's copies are seen and updated). Throws on an error response.
  void mem_write(std::uint32_t addr, std::span<const std::uint8_t> bytes);
  void mem_read(std::uint32_t addr, std::span<std::uint8_t> bytes);
  void mem_write32(std::uint32_t addr, std::uint32_t v);
  std::uint32_t mem_read32(std::uint32_t addr);

  bool irq() const;
  std::uint32_t fw_status() const;
  unsigned slices() const;
  bool pipe_busy() const;                       // the pipeline holds work (always false: stand-in)
  std::vector<SliceStats> slice_stats() const;  // one per slice (none: stand-in)
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
