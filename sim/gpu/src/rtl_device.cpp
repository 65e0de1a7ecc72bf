#include "tessera/sim/rtl_device.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace tessera::sim {

RtlDevice::RtlDevice(GpuSimConfig cfg, std::uint64_t memory_bytes)
    : sim_(std::make_unique<GpuSim>(std::move(cfg))), memory_bytes_(memory_bytes) {
  sim_->reset();
}

uint32_t RtlDevice::read_reg(uint32_t offset) {
  const auto r = sim_->reg_access(offset, false, 0);
  if (!r.ok) throw std::runtime_error(fmt::format("rtl device: register read of 0x{:04x} answered SLVERR", offset));
  return r.value;
}

void RtlDevice::write_reg(uint32_t offset, uint32_t value) {
  if (!sim_->reg_access(offset, true, value).ok)
    throw std::runtime_error(fmt::format("rtl device: register write of 0x{:04x} answered SLVERR", offset));
}

void RtlDevice::check_range(uint32_t addr, std::size_t n) const {
  if (std::uint64_t{addr} + n > memory_bytes_)
    throw std::out_of_range(fmt::format("rtl device: [0x{:08x}, +{}) is outside the {} bytes of GPU memory", addr, n,
                                        memory_bytes_));
}

void RtlDevice::write_mem(uint32_t addr, std::span<const uint8_t> bytes) {
  check_range(addr, bytes.size());
  sim_->mem_write(addr, bytes);
}

void RtlDevice::read_mem(uint32_t addr, std::span<uint8_t> bytes) {
  check_range(addr, bytes.size());
  sim_->mem_read(addr, bytes);
}

void RtlDevice::advance(uint64_t cycles) { sim_->step(cycles); }

bool RtlDevice::wait_interrupt(uint64_t timeout_cycles) {
  return sim_->run_until([this] { return sim_->irq(); }, timeout_cycles);
}

uint64_t RtlDevice::cycles() const { return sim_->cycle(); }

std::vector<driver::PipeCommand> RtlDevice::pipe_log() const {
  std::vector<driver::PipeCommand> out;
  for (const auto& c : sim_->pipe_log()) out.push_back({c.opcode, c.queue, c.dsid, c.args});
  return out;
}

}  // namespace tessera::sim
