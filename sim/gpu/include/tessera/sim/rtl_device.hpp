// RtlDevice: the driver's Device interface (driver/include/tessera/driver/device.hpp) on the
// RTL: tessera::sim::GpuSim, i.e. the verilated gpu_top (CP + firmware + memory system) with
// the DRAM model and the pipeline stand-in.
//
// Timing differs from RefDevice in one way the driver must tolerate: register and memory
// accesses take clock cycles (the AXI4-Lite handshake; memory goes through the memory system
// so it is coherent with the SLC, except where GpuSim's host rule allows the DRAM backdoor),
// so the GPU advances during them. Everything the KMD does before ringing a doorbell is
// therefore still ordered before the CP sees the work.
//
// GPU memory: memory_bytes = 0 (the default) is the model's own size (GpuSim::memory_bytes(),
// gpu_top MEM_BYTES); a smaller size restricts the device to its start, a larger one is
// refused (std::invalid_argument naming both). The progress watchdog (GpuSimConfig::
// watchdog_cycles) reaches the driver as a driver::DeviceFault from any call that advances
// the clock; GpuSimConfig::cancel as tessera::sim::SimulationCancelled.
#pragma once

#include <memory>

#include "tessera/driver/device.hpp"
#include "tessera/driver/pipe_command.hpp"
#include "tessera/sim/gpu_sim.hpp"

namespace tessera::sim {

class RtlDevice final : public driver::Device {
 public:
  explicit RtlDevice(GpuSimConfig cfg = {}, std::uint64_t memory_bytes = 0);

  std::string_view name() const override { return "rtl"; }
  uint32_t read_reg(uint32_t offset) override;
  void write_reg(uint32_t offset, uint32_t value) override;
  void write_mem(uint32_t addr, std::span<const uint8_t> bytes) override;
  void read_mem(uint32_t addr, std::span<uint8_t> bytes) override;
  uint64_t memory_size() const override { return memory_bytes_; }
  void advance(uint64_t cycles) override;
  bool wait_interrupt(uint64_t timeout_cycles) override;
  uint64_t cycles() const override;

  GpuSim& sim() { return *sim_; }
  // The pipeline commands the CP sent (GpuSim's log), comparable with RefDevice's.
  const std::vector<driver::PipeCommand>& pipe_log() const { return sim_->pipe_log(); }

 private:
  void check_range(uint32_t addr, std::size_t n) const;
  std::unique_ptr<GpuSim> sim_;
  std::uint64_t memory_bytes_;
};

}  // namespace tessera::sim
