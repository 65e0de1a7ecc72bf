// C++ reference for VPCBE_S fed through pipe_cmd_map (tb/pipe/bench_vpcbe.cpp).
//
// Written from the documentation, not from the RTL logic:
//   - port formats: spec/layouts.yaml through the generated tessera_layouts.hpp (tri, rd_req,
//     pipe_cmd: argument i at [i*32 +: 32], rin), rtl/geom/geom_pkg.sv (STRI_W),
//     rtl/raster/tessera_raster_pkg.sv (the RIN_* kinds: a command carries its argument
//     dwords, argument i at [i*32 +: 32]);
//   - which commands reach the raster slices, and as what: the table in the header of
//     rtl/pipe/pipe_cmd_map.sv;
//   - slice identity: the header of rtl/raster/raster_vpcbe.sv ("RASTER.SLICE writes keep the
//     skew the driver chose but get this slice's index and the GPU's slice count"), with the
//     SLICE fields from spec/registers/raster.yaml (generated tessera_spec.h).
//   - a triangle leaves as RIN_TRI with the 384 bits the producing slice's parameter store
//     holds for {src, entry}, and its draw id and primitive id.
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tessera_layouts.hpp"
#include "tessera_spec.h"

namespace vpcbetb {

// Port widths, from the generated layouts (spec/layouts.yaml).
inline constexpr unsigned kTriW = tessera::layout::Tri::kBits;        // geom_pkg::TRI_W
inline constexpr unsigned kRdReqW = tessera::layout::RdReq::kBits;    // geom_pkg::RD_REQ_W
inline constexpr unsigned kDataWords = 12;                            // 3 x 128-bit vertices
inline constexpr unsigned kCmdW = tessera::layout::PipeCmd::kBits;    // tessera_cp_pkg::PIPE_CMD_W
inline constexpr unsigned kRinW = tessera::layout::Rin::kBits;        // tessera_raster_pkg::RIN_W
static_assert(tessera::layout::Rin::Pos::data.width == 32 * kDataWords);
inline constexpr unsigned kMaxSlices = 8;
inline constexpr unsigned kEntries = 256;

// tessera_raster_pkg input item kinds.
enum RinKind : unsigned {
  kRinTri = 0,
  kRinSetReg = 1,
  kRinRpBegin = 2,
  kRinRpEnd = 3,
  kRinBatchClose = 4,
  kRinFlush = 5,
  kRinInvalidate = 6,
};

inline const char* kind_name(unsigned k) {
  static const char* const names[] = {"TRI", "SET_REG", "RP_BEGIN", "RP_END", "BATCH_CLOSE", "FLUSH", "INVALIDATE"};
  return k < 7 ? names[k] : "?";
}

// A packed vector as 32-bit words, least significant first (what SignalRef reads and writes).
class Bits {
 public:
  explicit Bits(unsigned width) : width_(width), w_((width + 31) / 32, 0) {}
  Bits(unsigned width, std::vector<std::uint32_t> words) : width_(width), w_(std::move(words)) {
    w_.resize((width + 31) / 32, 0);
    if (width % 32) w_.back() &= (1U << (width % 32)) - 1;  // storage above the port is not ours
  }
  std::uint64_t get(unsigned lsb, unsigned n) const {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i) v |= static_cast<std::uint64_t>((w_[(lsb + i) / 32] >> ((lsb + i) % 32)) & 1U) << i;
    return v;
  }
  void set(unsigned lsb, unsigned n, std::uint64_t v) {
    for (unsigned i = 0; i < n; ++i) {
      const unsigned b = lsb + i;
      if ((v >> i) & 1U) w_[b / 32] |= 1U << (b % 32);
      else w_[b / 32] &= ~(1U << (b % 32));
    }
  }
  const std::vector<std::uint32_t>& words() const { return w_; }
  bool operator==(const Bits&) const = default;

 private:
  unsigned width_;
  std::vector<std::uint32_t> w_;
};

using Data = std::array<std::uint32_t, kDataWords>;  // word i = bits [32i +: 32]

// geom_pkg::tri_t (spec/layouts.yaml tri)
struct Tri {
  unsigned src = 0, entry = 0;
  std::uint8_t mask = 0;
  std::uint16_t draw_id = 0;
  std::uint32_t prim_id = 0;
  Bits pack() const {
    tessera::layout::Tri t;
    t.src = static_cast<std::uint8_t>(src);
    t.entry = static_cast<std::uint8_t>(entry);
    t.mask = mask;
    t.draw_id = draw_id;
    t.prim_id = prim_id;
    const auto w = t.pack();
    return Bits(kTriW, std::vector<std::uint32_t>(w.begin(), w.end()));
  }
  // The store read this triangle makes: geom_pkg::rd_req_t {src, entry} (layout rd_req).
  tessera::layout::RdReq rd_req() const {
    tessera::layout::RdReq q;
    q.src = static_cast<std::uint8_t>(src);
    q.entry = static_cast<std::uint8_t>(entry);
    return q;
  }
  // rd_req() as one number: the index of the store entry in the bench's model of all stores.
  unsigned rd_addr() const { return rd_req().pack()[0]; }
  std::string str() const {
    return fmt::format("tri(src {} entry {} mask {:#04x} draw {} prim {})", src, entry, mask, draw_id, prim_id);
  }
};

// tessera_cp_pkg::pipe_cmd_t (spec/layouts.yaml pipe_cmd)
struct PipeCmd {
  std::uint8_t opcode = 0, queue_id = 0, dsid = 0, nargs = 0;
  std::array<std::uint32_t, 8> args{};
  Bits pack() const {
    static_assert(tessera::layout::PipeCmd::Pos::args.width == 32 * std::tuple_size_v<decltype(args)>);
    tessera::layout::PipeCmd c;
    c.opcode = opcode;
    c.queue_id = queue_id;
    c.dsid = dsid;
    c.nargs = nargs;
    for (unsigned i = 0; i < args.size(); ++i)  // argument i at [i*32 +: 32]: its bytes, low first
      for (unsigned j = 0; j < 4; ++j) c.args[4 * i + j] = static_cast<std::uint8_t>(args[i] >> (8 * j));
    const auto w = c.pack();
    return Bits(kCmdW, std::vector<std::uint32_t>(w.begin(), w.end()));
  }
  std::string str() const {
    std::string a;
    for (unsigned i = 0; i < 8; ++i) a += fmt::format("{}{:#x}", i ? "," : "", args[i]);
    return fmt::format("cmd(op {:#04x} q {} dsid {} nargs {} args {})", opcode, queue_id, dsid, nargs, a);
  }
};

// tessera_raster_pkg::rin_t
struct Rin {
  unsigned kind = 0;
  std::uint16_t draw_id = 0;
  std::uint32_t prim_id = 0;
  Data data{};
  bool operator==(const Rin&) const = default;
  static Rin unpack(const Bits& b) {
    Rin r;
    using P = tessera::layout::Rin::Pos;  // spec/layouts.yaml rin
    for (unsigned i = 0; i < kDataWords; ++i) r.data[i] = static_cast<std::uint32_t>(b.get(P::data.lsb + 32 * i, 32));
    r.prim_id = static_cast<std::uint32_t>(b.get(P::prim_id.lsb, P::prim_id.width));
    r.draw_id = static_cast<std::uint16_t>(b.get(P::draw_id.lsb, P::draw_id.width));
    r.kind = static_cast<unsigned>(b.get(P::kind.lsb, P::kind.width));
    return r;
  }
  std::string str() const {
    std::string d;
    for (unsigned i = kDataWords; i-- > 0;) d += fmt::format("{:08x}{}", data[i], i ? "_" : "");
    return fmt::format("{} draw {} prim {} data {}", kind_name(kind), draw_id, prim_id, d);
  }
};

// pipe_cmd_map's table:
//   SET_REGS in the RASTER window  -> RIN_SET_REG {block offset, value}
//   RENDERPASS_BEGIN / _END        -> RIN_RP_BEGIN (payload) / RIN_RP_END
//   DSID_SET                       -> RIN_BATCH_CLOSE
//   FENCE                          -> RIN_FLUSH, or RIN_INVALIDATE when args[0] bit 0
//   everything else                -> stays in geometry (nullopt)
// Commands carry their argument dwords (tessera_raster_pkg); SET_REG carries exactly arg0 =
// block offset and arg1 = value. Commands carry no draw or primitive id (0).
inline std::optional<Rin> map_command(const PipeCmd& c) {
  Rin r;
  for (unsigned i = 0; i < 8; ++i) r.data[i] = c.args[i];
  switch (c.opcode) {
    case TS_OP_SET_REGS: {
      const std::uint32_t a0 = c.args[0];
      if (a0 < TS_RASTER_BASE_ADDR || a0 - TS_RASTER_BASE_ADDR >= TS_RASTER_SIZE) return std::nullopt;
      r.kind = kRinSetReg;
      r.data = Data{};
      r.data[0] = a0 - TS_RASTER_BASE_ADDR;
      r.data[1] = c.args[1];
      return r;
    }
    case TS_OP_RENDERPASS_BEGIN: r.kind = kRinRpBegin; return r;
    case TS_OP_RENDERPASS_END: r.kind = kRinRpEnd; return r;
    case TS_OP_DSID_SET: r.kind = kRinBatchClose; return r;
    case TS_OP_FENCE: r.kind = (c.args[0] & 1U) ? kRinInvalidate : kRinFlush; return r;
    default: return std::nullopt;
  }
}

// VPCBE_S slice identity: a SLICE write gets num := NUM_SLICES and index := SLICE_IDX; the
// skew (and every other bit of the value) is kept.
inline Rin slice_identity(Rin r, unsigned slice_idx, unsigned num_slices) {
  if (r.kind == kRinSetReg && r.data[0] == TS_RASTER_SLICE_OFFSET)
    r.data[1] = (r.data[1] & ~(TS_RASTER_SLICE_NUM_MASK | TS_RASTER_SLICE_INDEX_MASK)) |
                TS_RASTER_SLICE_NUM_PUT(num_slices) | TS_RASTER_SLICE_INDEX_PUT(slice_idx);
  return r;
}

inline Rin tri_item(const Tri& t, const Data& store_data) {
  Rin r;
  r.kind = kRinTri;
  r.draw_id = t.draw_id;
  r.prim_id = t.prim_id;
  r.data = store_data;
  return r;
}

}  // namespace vpcbetb
