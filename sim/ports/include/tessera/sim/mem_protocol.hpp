// C++ view of the internal memory protocol (rtl/mem/tessera_mem_pkg.sv): the request and
// response structs and their packing into the flat bit vectors Verilator exposes
// (VlWide words, least significant first). A packed SV struct puts its first member at the
// most significant end; the offsets below follow the package's member order.
//
// The one C++ copy of the layout: GpuSim (sim/gpu) drives the GPU's memory client ports with
// it and the benches use it as tb::mem (tb/mem/mem_protocol.hpp). The field widths and
// offsets are still typed here by hand from the package; they are due to be generated from
// spec/ like the registers, and this header is the one place that changes then.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <fmt/format.h>
#include <string>
#include <vector>

#include "tessera/sim/signal_ref.hpp"

namespace tessera::sim::mem {

inline constexpr unsigned kAddrW = 32, kLineBytes = 64, kLineW = 512, kDsidW = 6, kSrcW = 5, kTagW = 8;
inline constexpr unsigned kReqW = 2 + kAddrW + kDsidW + kSrcW + kTagW + kLineBytes + kLineW;  // 629
inline constexpr unsigned kRspW = 2 + 1 + kSrcW + kTagW + kLineW;                                // 528

enum class Op : std::uint8_t { read = 0, write = 1, prefetch = 2 };
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

// Field offsets (LSB) inside the packed structs.
namespace req_off {
inline constexpr unsigned wdata = 0, wstrb = wdata + kLineW, tag = wstrb + kLineBytes, src = tag + kTagW,
                          dsid = src + kSrcW, addr = dsid + kDsidW, op = addr + kAddrW;
}
namespace rsp_off {
inline constexpr unsigned rdata = 0, tag = rdata + kLineW, src = tag + kTagW, err = src + kSrcW, op = err + 1;
}

inline Bits pack(const Req& r) {
  Bits b(kReqW);
  b.set_bytes(req_off::wdata, r.wdata.data(), kLineBytes);
  b.set(req_off::wstrb, 64, r.wstrb);
  b.set(req_off::tag, kTagW, r.tag);
  b.set(req_off::src, kSrcW, r.src);
  b.set(req_off::dsid, kDsidW, r.dsid);
  b.set(req_off::addr, kAddrW, r.addr);
  b.set(req_off::op, 2, static_cast<std::uint64_t>(r.op));
  return b;
}
inline Req unpack_req(const Bits& b) {
  Req r;
  b.get_bytes(req_off::wdata, r.wdata.data(), kLineBytes);
  r.wstrb = b.get(req_off::wstrb, 64);
  r.tag = static_cast<std::uint8_t>(b.get(req_off::tag, kTagW));
  r.src = static_cast<std::uint8_t>(b.get(req_off::src, kSrcW));
  r.dsid = static_cast<std::uint8_t>(b.get(req_off::dsid, kDsidW));
  r.addr = static_cast<std::uint32_t>(b.get(req_off::addr, kAddrW));
  r.op = static_cast<Op>(b.get(req_off::op, 2));
  return r;
}
inline Bits pack(const Rsp& r) {
  Bits b(kRspW);
  b.set_bytes(rsp_off::rdata, r.rdata.data(), kLineBytes);
  b.set(rsp_off::tag, kTagW, r.tag);
  b.set(rsp_off::src, kSrcW, r.src);
  b.set(rsp_off::err, 1, r.err ? 1 : 0);
  b.set(rsp_off::op, 2, static_cast<std::uint64_t>(r.op));
  return b;
}
inline Rsp unpack_rsp(const Bits& b) {
  Rsp r;
  b.get_bytes(rsp_off::rdata, r.rdata.data(), kLineBytes);
  r.tag = static_cast<std::uint8_t>(b.get(rsp_off::tag, kTagW));
  r.src = static_cast<std::uint8_t>(b.get(rsp_off::src, kSrcW));
  r.err = b.get(rsp_off::err, 1) != 0;
  r.op = static_cast<Op>(b.get(rsp_off::op, 2));
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
