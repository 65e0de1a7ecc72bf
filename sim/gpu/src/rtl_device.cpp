#include "tessera/sim/rtl_device.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "tessera/driver/error.hpp"

namespace tessera::sim {

namespace {
// The progress watchdog reaches the driver as a DeviceFault (the device stopped doing the
// work it was given), with GpuSim's message naming the blocks that hold work.
template <class F>
auto fault_on_hang(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const WatchdogTimeout& e) {
    throw driver::DeviceFault(e.error_status(), e.error_addr(), fmt::format("rtl device: {}", e.what()));
  }
}

std::uint64_t checked_memory(const GpuSim& sim, std::uint64_t memory_bytes) {
  const std::uint64_t hw = sim.memory_bytes();
  if (memory_bytes == 0) return hw;
  if (memory_bytes > hw)
    throw std::invalid_argument(fmt::format(
        "RtlDevice: memory_bytes {} ({} MiB) is larger than the GPU memory of the {}-slice model, {} ({} MiB; "
        "gpu_top MEM_BYTES): pass 0 for the hardware's size or at most that",
        memory_bytes, memory_bytes >> 20, sim.slices(), hw, hw >> 20));
  return memory_bytes;
}
}  // namespace

RtlDevice::RtlDevice(GpuSimConfig cfg, std::uint64_t memory_bytes)
    : sim_(std::make_unique<GpuSim>(std::move(cfg))), memory_bytes_(checked_memory(*sim_, memory_bytes)) {
  sim_->reset();
}

uint32_t RtlDevice::read_reg(uint32_t offset) {
  const auto r = fault_on_hang([&] { return sim_->reg_access(offset, false, 0); });
  if (!r.ok) throw std::runtime_error(fmt::format("rtl device: register read of 0x{:04x} answered SLVERR", offset));
  return r.value;
}

void RtlDevice::write_reg(uint32_t offset, uint32_t value) {
  if (!fault_on_hang([&] { return sim_->reg_access(offset, true, value); }).ok)
    throw std::runtime_error(fmt::format("rtl device: register write of 0x{:04x} answered SLVERR", offset));
}

void RtlDevice::check_range(uint32_t addr, std::size_t n) const {
  if (std::uint64_t{addr} + n > memory_bytes_)
    throw std::out_of_range(fmt::format("rtl device: [0x{:08x}, +{}) is outside the {} bytes of GPU memory", addr, n,
                                        memory_bytes_));
}

void RtlDevice::write_mem(uint32_t addr, std::span<const uint8_t> bytes) {
  check_range(addr, bytes.size());
  fault_on_hang([&] { sim_->mem_write(addr, bytes); });
}

void RtlDevice::read_mem(uint32_t addr, std::span<uint8_t> bytes) {
  check_range(addr, bytes.size());
  fault_on_hang([&] { sim_->mem_read(addr, bytes); });
}

void RtlDevice::advance(uint64_t cycles) {
  fault_on_hang([&] { sim_->step(cycles); });
}

bool RtlDevice::wait_interrupt(uint64_t timeout_cycles) {
  return fault_on_hang([&] { return sim_->run_until([this] { return sim_->irq(); }, timeout_cycles); });
}

uint64_t RtlDevice::cycles() const { return sim_->cycle(); }

}  // namespace tessera::sim
