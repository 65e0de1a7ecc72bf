// AXI4 signal bundles for cycle-based C++ models (ARCHITECTURE.md 3, "external memory").
//
// One AXI4 port is two structs: what the master drives (AxiMasterSignals) and what the slave
// drives (AxiSlaveSignals). A cycle-based model samples both at a rising edge -- the values
// the flops see, i.e. the ones driven during the cycle that edge ends -- and computes what
// it drives during the next cycle. Data is 512 bits (64 byte lanes, lane i = bits 8i+7:8i);
// IDs up to 32 bits. Used by DramModel (the slave), AxiProtocolChecker, and the adapters that
// connect them to a verilated model (axi_verilated.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace tessera::sim {

inline constexpr unsigned kAxiDataBytes = 64;          // 512-bit data bus
inline constexpr unsigned kAxiMaxSize = 6;             // AxSIZE for a full beat (2^6 bytes)
using AxiData = std::array<std::uint8_t, kAxiDataBytes>;

enum class AxiBurst : std::uint8_t { fixed = 0, incr = 1, wrap = 2, reserved = 3 };
enum class AxiResp : std::uint8_t { okay = 0, exokay = 1, slverr = 2, decerr = 3 };
const char* to_string(AxiResp r);

// Address channel payload (AR or AW).
struct AxiAddr {
  std::uint32_t id = 0;
  std::uint32_t addr = 0;
  std::uint8_t len = 0;    // beats - 1
  std::uint8_t size = kAxiMaxSize;
  std::uint8_t burst = static_cast<std::uint8_t>(AxiBurst::incr);
  bool lock = false;
  std::uint8_t cache = 0, prot = 0, qos = 0, region = 0;
  bool operator==(const AxiAddr&) const = default;
};

struct AxiW {
  AxiData data{};
  std::uint64_t strb = 0;
  bool last = false;
  bool operator==(const AxiW&) const = default;
};

struct AxiR {
  std::uint32_t id = 0;
  AxiData data{};
  std::uint8_t resp = 0;
  bool last = false;
  bool operator==(const AxiR&) const = default;
};

struct AxiB {
  std::uint32_t id = 0;
  std::uint8_t resp = 0;
  bool operator==(const AxiB&) const = default;
};

// Driven by the master (GPU bridge): AW, W, AR payloads and valids; B and R readies.
struct AxiMasterSignals {
  bool awvalid = false;
  AxiAddr aw;
  bool wvalid = false;
  AxiW w;
  bool bready = false;
  bool arvalid = false;
  AxiAddr ar;
  bool rready = false;
};

// Driven by the slave (DRAM model): AW, W, AR readies; B and R payloads and valids.
struct AxiSlaveSignals {
  bool awready = false;
  bool wready = false;
  bool bvalid = false;
  AxiB b;
  bool arready = false;
  bool rvalid = false;
  AxiR r;
};

std::string describe(const AxiAddr& a);

}  // namespace tessera::sim
