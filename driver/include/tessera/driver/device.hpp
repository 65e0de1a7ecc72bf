// Device: what the KMD needs from a GPU backend (ARCHITECTURE.md 5.2 "Device backends").
//
// Two backends implement it: RefDevice (C++ functional reference of the CP's packets, this
// library) and the RTL backend (the verilated GPU top with the C++ DRAM model), which lands
// with the CP. The interface is the GPU's external view only -- the AXI4-Lite host port,
// the shared-memory backdoor and the interrupt line -- so both backends are driven the same
// way and a system test can run one command sequence on each and compare memory.
//
// Time moves inside advance() and wait_interrupt(), and on the RTL backend also during a
// register access (an AXI4-Lite transaction) and a host memory access that has to go through
// the memory system to stay coherent with the SLC (docs/cp.md "Host memory path"); on the
// reference, memory accesses take no time. The KMD
// reads RPTR and then writes a patch-enable value through the backdoor: the CP must not reach
// the COND_EXEC of a buffer within the few cycles of that read (docs/driver.md "For the RTL
// backend").
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace tessera::driver {

class Device {
 public:
  virtual ~Device() = default;

  virtual std::string_view name() const = 0;

  // Host AXI4-Lite register port: byte offsets on the port (CP block at TS_CP_BASE_ADDR,
  // SLC at TS_SLC_BASE_ADDR, per spec/registers/*.yaml), 32-bit, dword aligned.
  virtual uint32_t read_reg(uint32_t offset) = 0;
  virtual void write_reg(uint32_t offset, uint32_t value) = 0;

  // Host access to GPU memory, coherent with the GPU's caches, little endian: untimed on the
  // reference; on the RTL through the DRAM backdoor where that is provably coherent, else
  // through the memory system (clock cycles pass). An access outside
  // [0, memory_size()) throws std::out_of_range.
  virtual void write_mem(uint32_t addr, std::span<const uint8_t> bytes) = 0;
  virtual void read_mem(uint32_t addr, std::span<uint8_t> bytes) = 0;
  virtual uint64_t memory_size() const = 0;

  // Let the device run for `cycles` (RTL: clock cycles; reference: scheduler steps, one packet
  // per step).
  virtual void advance(uint64_t cycles) = 0;
  // Advance until the interrupt output is high (returns at once if it already is); false if
  // it is still low after timeout_cycles.
  virtual bool wait_interrupt(uint64_t timeout_cycles) = 0;
  // Cycles advanced since construction.
  virtual uint64_t cycles() const = 0;

  // Convenience on top of the backdoor.
  uint32_t read_mem32(uint32_t addr);
  void write_mem32(uint32_t addr, uint32_t value);
  void write_dwords(uint32_t addr, std::span<const uint32_t> dwords);
  void read_dwords(uint32_t addr, std::span<uint32_t> dwords);
};

}  // namespace tessera::driver
