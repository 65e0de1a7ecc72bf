// C++ view of the internal memory protocol (rtl/mem/tessera_mem_pkg.sv): the request and
// response structs and their packing into the flat bit vectors Verilator exposes
// (VlWide words, least significant first).
//
// The layout is spec/layouts.yaml's mem_req / mem_rsp (the same description the RTL's
// tessera_mem_pkg::mem_req_t / mem_rsp_t come from): widths, positions and packing are the
// generated tessera::layout::MemReq / MemRsp (tessera_layouts.hpp). Req and Rsp add the typed
// op and the names the benches and GpuSim use; GpuSim (sim/gpu) drives the GPU's memory
// client ports with them and the benches use them as tb::mem (tb/mem/mem_protocol.hpp).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <fmt/format.h>
#include <string>
#include <vector>

#include "tessera/sim/signal_ref.hpp"
#include "tessera_layouts.hpp"
#include "tessera_spec.h"

namespace tessera::sim::mem {

using layout::MemReq;
using layout::MemRsp;
inline constexpr unsigned kAddrW = MemReq::Pos::addr.width, kLineW = MemReq::Pos::wdata.width,
                          kLineBytes = kLineW / 8, kDsidW = MemReq::Pos::dsid.width,
                          kSrcW = MemReq::Pos::src.width, kTagW = MemReq::Pos::tag.width;
inline constexpr unsigned kReqW = MemReq::kBits;  // 629
inline constexpr unsigned kRspW = MemRsp::kBits;  // 528

enum class Op : std::uint8_t { read = TS_MEM_OP_READ, write = TS_MEM_OP_WRITE, prefetch = TS_MEM_OP_PREFETCH };
inline const char* to_string(Op op) {
  return op == Op::read ? "READ" : op == Op::write ? "WRITE" : op == Op::prefetch ? "PREFETCH" : "?";
}

using Line = std::array<std::uint8_t, kLineBytes>;

// A flat little-endian bit vector with field access, sized in 32-bit words.
class Bits {
 public:
  explicit Bits(unsigned width) : width_(width), w_((width + 31) / 32, 0) {}
  explicit Bits(unsigned width, std::vector<std::uint32_t> words) : width_(width), w_(std::move(words)) {
    w_.resize((width + 31) / 32, 0);
  }
  std::uint64_t get(unsigned lsb, unsigned width) const {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < width; ++i) v |= static_cast<std::uint64_t>(bit(lsb + i)) << i;
    return v;
  }
  void set(unsigned lsb, unsigned width, std::uint64_t v) {
    for (unsigned i = 0; i < width; ++i) set_bit(lsb + i, (v >> i) & 1U);
  }
  void get_bytes(unsigned lsb, std::uint8_t* out, unsigned n) const {
    for (unsigned b = 0; b < n; ++b) out[b] = static_cast<std::uint8_t>(get(lsb + 8 * b, 8));
  }
  void set_bytes(unsigned lsb, const std::uint8_t* in, unsigned n) {
    for (unsigned b = 0; b < n; ++b) set(lsb + 8 * b, 8, in[b]);
  }
  const std::vector<std::uint32_t>& words() const { return w_; }
  unsigned width() const { return width_; }

 private:
  bool bit(unsigned i) const { return (w_[i / 32] >> (i % 32)) & 1U; }
  void set_bit(unsigned i, bool v) {
    if (v) w_[i / 32] |= 1U << (i % 32);
    else w_[i / 32] &= ~(1U << (i % 32));
  }
  unsigned width_;
  std::vector<std::uint32_t> w_;
};

struct Req {
  Op op = Op::read;
  std::uint32_t addr = 0;
  std::uint8_t dsid = 0;
  std::uint8_t src = 0;
  std::uint8_t tag = 0;
  std::uint64_t wstrb = 0;
  Line wdata{};
  bool operator==(const Req&) const = default;
};

struct Rsp {
  Op op = Op::read;
  bool err = false;
  std::uint8_t src = 0;
  std::uint8_t tag = 0;
  Line rdata{};
  bool operator==(const Rsp&) const = default;
};

inline Bits pack(const Req& r) {
  MemReq l;
  l.op = static_cast<std::uint8_t>(r.op);
  l.addr = r.addr;
  l.dsid = r.dsid;
  l.src = r.src;
  l.tag = r.tag;
  l.wstrb = r.wstrb;
  l.wdata = r.wdata;
  const auto w = l.pack();
  return Bits(kReqW, std::vector<std::uint32_t>(w.begin(), w.end()));
}
inline Req unpack_req(const Bits& b) {
  const MemReq l = MemReq::unpack(b.words().data());
  Req r;
  r.op = static_cast<Op>(l.op);
  r.addr = l.addr;
  r.dsid = l.dsid;
  r.src = l.src;
  r.tag = l.tag;
  r.wstrb = l.wstrb;
  r.wdata = l.wdata;
  return r;
}
inline Bits pack(const Rsp& r) {
  MemRsp l;
  l.op = static_cast<std::uint8_t>(r.op);
  l.err = r.err;
  l.src = r.src;
  l.tag = r.tag;
  l.rdata = r.rdata;
  const auto w = l.pack();
  return Bits(kRspW, std::vector<std::uint32_t>(w.begin(), w.end()));
}
inline Rsp unpack_rsp(const Bits& b) {
  const MemRsp l = MemRsp::unpack(b.words().data());
  Rsp r;
  r.op = static_cast<Op>(l.op);
  r.err = l.err;
  r.src = l.src;
  r.tag = l.tag;
  r.rdata = l.rdata;
  return r;
}

// Read/write a packed struct held in a model port (a VlWide) or a slice of a flat vector of
// several clients (client i at bit i*width).
inline Bits read_port(const SignalRef& sig, unsigned width, unsigned index = 0) {
  Bits all(static_cast<unsigned>(sig.bytes() * 8), sig.read_words());
  Bits out(width);
  for (unsigned i = 0; i < width; i += 32) {
    const unsigned n = std::min(32U, width - i);
    out.set(i, n, all.get(index * width + i, n));
  }
  return out;
}
inline void write_port(const SignalRef& sig, const Bits& value, unsigned index = 0) {
  Bits all(static_cast<unsigned>(sig.bytes() * 8), sig.read_words());
  for (unsigned i = 0; i < value.width(); i += 32) {
    const unsigned n = std::min(32U, value.width() - i);
    all.set(index * value.width() + i, n, value.get(i, n));
  }
  sig.write_words(all.words());
}

inline std::string describe(const Req& r) {
  return fmt::format("{} addr=0x{:08x} dsid={} src={} tag={} wstrb=0x{:016x}", to_string(r.op), r.addr, r.dsid, r.src,
                     r.tag, r.wstrb);
}
inline std::string describe(const Rsp& r) {
  return fmt::format("{} rsp src={} tag={} err={}", to_string(r.op), r.src, r.tag, r.err);
}

}  // namespace tessera::sim::mem
