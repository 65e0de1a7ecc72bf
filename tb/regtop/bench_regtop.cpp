// Bench for the generated register tops (build/generated/<block>_reg_top.sv, written by
// tessera-specgen from spec/registers/<block>.yaml; semantics in docs/spec-generator.md,
// "Register tops").
//
// Generic: the bench reads the same YAML at run time (tessera_specgen_lib) and builds its
// reference model from it, so every block, and every register added later, is checked without
// a line here: reset values of the stored fields, what each access type does (rw stores, ro
// shows the hardware's value, wo reads 0 and shows the written bits with qe, w1c clears on a
// written 1 and a hardware set wins), the strobes, werr, the in-band write port, and the err
// answer for unmapped, out-of-block and misaligned addresses and for refused writes.
// Random stimulus: bus requests (mostly to mapped registers, some to holes, outside the block
// and misaligned), random hardware values and sets every cycle, in-band writes where the block
// has them. Every output is compared every cycle (scoreboard: the model below).
// req_ack blocks (the CP core's MMIO): same-cycle answers, waits held until the hardware lets
// them go (the request is presented unchanged until acknowledged), sub-word writes refused.
// Rerun one test: RANDOM_SEED=<n> TESTCASE=<name> build/tb/regtop/bench_regtop (WAVES=1: FST).
#include <fmt/format.h>
#include <verilated.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "Vcp_reg_top_default.h"
#include "Vcpfw_reg_top_default.h"
#include "Vgeom_reg_top_default.h"
#include "Vraster_reg_top_default.h"
#include "Vslc_reg_top_default.h"
#include "tb/coverage.hpp"
#include "tb/sim.hpp"
#include "tb/test.hpp"
#include "tessera/specgen/emit.hpp"
#include "tessera/specgen/loader.hpp"

namespace sg = tessera::specgen;
using tb::RisingEdge;
using tb::Task;
using Kind = sg::RegtopMember::Kind;

namespace {

// ---- bits of verilated ports (integers up to 64 bits, VlWide above) --------------------------
template <class S>
std::uint64_t get_bits(const S& s, unsigned lo, unsigned w) {
  if constexpr (std::is_integral_v<S>) {
    const std::uint64_t m = w >= 64 ? ~0ULL : (1ULL << w) - 1;
    return (static_cast<std::uint64_t>(s) >> lo) & m;
  } else {
    std::uint64_t v = 0;
    for (unsigned b = 0; b < w; ++b) v |= static_cast<std::uint64_t>((s[(lo + b) / 32] >> ((lo + b) % 32)) & 1U) << b;
    return v;
  }
}
template <class S>
void set_bits(S& s, unsigned lo, unsigned w, std::uint64_t v) {
  if constexpr (std::is_integral_v<S>) {
    const std::uint64_t m = (w >= 64 ? ~0ULL : (1ULL << w) - 1) << lo;
    s = static_cast<S>((static_cast<std::uint64_t>(s) & ~m) | ((v << lo) & m));
  } else {
    for (unsigned b = 0; b < w; ++b) {
      const unsigned bit = lo + b;
      const EData m = EData{1} << (bit % 32);
      if ((v >> b) & 1U) s[bit / 32] |= m;
      else s[bit / 32] &= ~m;
    }
  }
}

std::uint64_t ones(unsigned w) { return w >= 64 ? ~0ULL : (1ULL << w) - 1; }

// The spec, loaded once, as the generator loads it.
const sg::Spec& spec() {
  static const sg::Spec s = [] {
    sg::SpecInputs in;
    in.packets = TESSERA_SPEC_DIR "/packets.yaml";
    for (const char* f : {"cp", "cpfw", "geom", "raster", "slc"}) {
      in.registers.push_back(fmt::format("{}/registers/{}.yaml", TESSERA_SPEC_DIR, f));
    }
    sg::Diagnostics diag;
    sg::Spec out = sg::load_spec(in, diag);
    if (!diag.ok()) tb::fail("the spec does not load: " + diag.str());
    return out;
  }();
  return s;
}

const sg::Block& block(const std::string& name) {
  for (const auto& b : spec().blocks) {
    if (b.name == name) return b;
  }
  tb::fail("no register block " + name + " in spec/registers");
}

// One register instance.
struct Inst {
  const sg::Register* reg;
  unsigned n;       // instance index (0 for a plain register)
  unsigned count;   // instances of the register
  uint64_t offset;  // byte offset in the block
};

struct Request {
  bool valid = false;  // reg_req_valid_i, or req_i of a req_ack block
  uint32_t addr = 0;
  bool we = false;
  uint32_t wdata = 0;
  unsigned be = 0xf;   // req_ack blocks: byte enables (a write needs all four)
};
struct InBand {
  bool we = false;
  uint32_t addr = 0;
  uint32_t wdata = 0;
};

// How the top treats a field (as docs/spec-generator.md, "Register tops", says).
bool stored(const sg::Register& r, const sg::Field& f) {
  return !r.external && (f.access == sg::Access::RW || f.access == sg::Access::W1C);
}
bool written_bits(const sg::Register& r, const sg::Field& f) {
  return f.access == sg::Access::WO || (r.external && f.access == sg::Access::RW);
}
bool hw_value(const sg::Register& r, const sg::Field& f) {
  return f.access == sg::Access::RO || (r.external && f.access == sg::Access::RW);
}
bool waits_on(const sg::Register& r, bool we) {
  return (r.wait == sg::Register::Wait::Read && !we) || (r.wait == sg::Register::Wait::Write && we);
}

// Reference model of a register top, from the spec alone.
class RegtopModel {
 public:
  explicit RegtopModel(const sg::Block& b)
      : b_(b), to_hw_(sg::regtop_layout(b, true)), from_hw_(sg::regtop_layout(b, false)) {
    for (const auto& r : b.registers) insts_.push_back({&r, 0, 1, r.offset});
    for (const auto& a : b.arrays) {
      for (const auto& r : a.registers) {
        for (unsigned n = 0; n < a.count; ++n) {
          insts_.push_back({&r, n, static_cast<unsigned>(a.count), a.offset + r.offset + n * a.stride});
        }
      }
    }
    for (const auto& m : from_hw_) hw2reg_width_ += m.width;
    hw_.assign(hw2reg_width_ / 64 + 2, 0);
    reset();
  }

  void reset() {
    stored_.clear();
    for (const auto& i : insts_) {
      for (const auto& f : i.reg->fields) {
        if (stored(*i.reg, f)) stored_[key(i, f)] = f.reset & ones(f.bits.width());
      }
    }
    rsp_valid_ = false;
    rsp_err_ = false;
    rsp_rdata_ = 0;
  }

  const std::vector<Inst>& insts() const { return insts_; }
  const std::vector<sg::RegtopMember>& to_hw() const { return to_hw_; }
  const std::vector<sg::RegtopMember>& from_hw() const { return from_hw_; }
  unsigned hw2reg_width() const { return hw2reg_width_; }
  bool rsp_valid() const { return rsp_valid_; }
  bool rsp_err() const { return rsp_err_; }
  uint32_t rsp_rdata() const { return rsp_rdata_; }
  bool ready() const { return !rsp_valid_; }
  const sg::Block& block() const { return b_; }

  // The hw2reg vector driven this cycle.
  void set_hw(const std::vector<uint64_t>& hw) { hw_ = hw; }

  // The register instance an address names, or null (unmapped, outside, misaligned).
  const Inst* decode(uint32_t addr) const {
    if (addr >= b_.size || (addr & 3U) != 0) return nullptr;
    for (const auto& i : insts_) {
      if (i.offset == addr) return &i;
    }
    return nullptr;
  }

  // What the top decides about a request this cycle.
  struct Eval {
    const Inst* hit = nullptr;
    bool acc_err = false;  // answered with err
    bool waiting = false;  // req_ack: held, not acknowledged
    bool go = false;       // performed this cycle
    bool wr_go = false;
    bool rd_go = false;
    uint32_t rdata = 0;
  };
  Eval evaluate(const Request& rq) const {
    Eval e;
    e.hit = decode(rq.addr);
    const bool word = !b_.req_ack || rq.be == 0xf;
    if (!e.hit) {
      e.acc_err = true;
    } else if (rq.we) {
      e.acc_err = !e.hit->reg->bus_writable(b_.in_band_state) || bit(*e.hit, nullptr, Kind::Werr) || !word;
    } else {
      e.acc_err = bit(*e.hit, nullptr, Kind::Rerr);
    }
    e.waiting = b_.req_ack && rq.valid && !e.acc_err && waits_on(*e.hit->reg, rq.we) &&
                bit(*e.hit, nullptr, Kind::Wait);
    e.go = b_.req_ack ? rq.valid && !e.waiting : rq.valid && ready();
    e.wr_go = e.go && rq.we && word;
    e.rd_go = e.go && !rq.we;
    if (e.hit && !rq.we && !e.acc_err) {
      for (const auto& f : e.hit->reg->fields) {
        uint64_t x = 0;
        if (stored(*e.hit->reg, f)) x = stored_.at(key(*e.hit, f));
        else if (hw_value(*e.hit->reg, f)) x = field(*e.hit, f, Kind::Value);
        e.rdata |= static_cast<uint32_t>(x << f.bits.lsb) & f.bits.mask();
      }
    }
    return e;
  }

  // What instance n of reg2hw member `m` must show this cycle, given the inputs.
  uint64_t expected_to_hw(const sg::RegtopMember& m, unsigned n, const Request& rq) const {
    const Eval e = evaluate(rq);
    if (m.kind == Kind::Wd) return rq.wdata;
    for (const auto& i : insts_) {
      if (i.reg != m.reg || i.n != n) continue;
      switch (m.kind) {
        case Kind::Value:
          if (stored(*i.reg, *m.field)) return stored_.at(key(i, *m.field));
          if (written_bits(*i.reg, *m.field)) return field_of(rq.wdata, *m.field);
          tb::fail(fmt::format("model: reg2hw {}.{} is neither stored nor written bits", m.id, m.member));
        case Kind::Qe: return e.wr_go && e.hit == &i;
        case Kind::Re: return e.rd_go && e.hit == &i;
        case Kind::Pend: return rq.valid && !e.acc_err && waits_on(*i.reg, rq.we) && e.hit == &i;
        default: return 0;
      }
    }
    tb::fail(fmt::format("model: no instance {} of {}", n, m.reg->name));
  }

  // One clock edge with the request and in-band write of this cycle.
  void clock(const Request& rq, const InBand& ib) {
    const Eval e = evaluate(rq);
    std::map<std::string, uint64_t> next = stored_;
    for (const auto& i : insts_) {
      const bool wr_ok = e.wr_go && e.hit == &i && i.reg->bus_writable(b_.in_band_state) &&
                         !bit(i, nullptr, Kind::Werr);
      const bool ib_hit = b_.in_band_state && ib.we && ib.addr == i.offset;
      for (const auto& f : i.reg->fields) {
        if (!stored(*i.reg, f)) continue;
        uint64_t& d = next[key(i, f)];
        if (f.access == sg::Access::RW) {
          if (wr_ok && !b_.in_band_state) d = field_of(rq.wdata, f);
          if (ib_hit) d = field_of(ib.wdata, f);
        } else {
          if (wr_ok) d &= ~field_of(rq.wdata, f) & ones(f.bits.width());
          d |= field(i, f, Kind::Set);
        }
        if (f.hw_write && bit(i, &f, Kind::De)) d = field(i, f, Kind::D);
      }
    }
    stored_ = std::move(next);
    if (!b_.req_ack) {
      if (e.go) {
        rsp_err_ = e.acc_err;
        rsp_rdata_ = rq.we || e.acc_err ? 0 : e.rdata;
      }
      rsp_valid_ = e.go;
    }
  }

  static uint64_t field_of(uint32_t word, const sg::Field& f) { return (word & f.bits.mask()) >> f.bits.lsb; }

 private:
  uint64_t hw_bits(unsigned lo, unsigned w) const {
    uint64_t v = 0;
    for (unsigned b = 0; b < w; ++b) v |= ((hw_[(lo + b) / 64] >> ((lo + b) % 64)) & 1ULL) << b;
    return v;
  }
  // A one-bit-per-instance hw2reg member (werr, rerr, wait; or a field's _de), 0 if absent.
  bool bit(const Inst& i, const sg::Field* f, Kind k) const {
    for (const auto& m : from_hw_) {
      if (m.reg == i.reg && m.kind == k && m.field == f) return hw_bits(m.lsb + i.n, 1) != 0;
    }
    return false;
  }
  uint64_t field(const Inst& i, const sg::Field& f, Kind k) const {
    for (const auto& m : from_hw_) {
      if (m.reg == i.reg && m.field == &f && m.kind == k) return hw_bits(m.lsb + i.n * f.bits.width(), f.bits.width());
    }
    tb::fail(fmt::format("model: no hw2reg member for {}.{}", i.reg->name, f.name));
  }
  static std::string key(const Inst& i, const sg::Field& f) { return fmt::format("{}[{}].{}", i.reg->name, i.n, f.name); }

  const sg::Block& b_;
  std::vector<sg::RegtopMember> to_hw_, from_hw_;
  std::vector<Inst> insts_;
  unsigned hw2reg_width_ = 0;
  std::vector<uint64_t> hw_;
  std::map<std::string, uint64_t> stored_;
  bool rsp_valid_ = false;
  bool rsp_err_ = false;
  uint32_t rsp_rdata_ = 0;
};

// reg_req_t = {addr[15:0], we, wdata[31:0]}, reg_rsp_t = {err, rdata[31:0]} (tessera_regbus_pkg).
constexpr unsigned kReqWdataLsb = 0, kReqWeLsb = 32, kReqAddrLsb = 33;
constexpr unsigned kRspErrLsb = 32;

template <class V>
class RegtopBench {
 public:
  RegtopBench(tb::Dut<V>& dut, const sg::Block& b) : dut_(dut), b_(b), model_(b) {}

  Task<> reset() {
    apply({}, {}, std::vector<uint64_t>(model_.hw2reg_width() / 64 + 2, 0));
    dut_->rst_ni = 0;
    tb::Clock(dut_->clk_i, 10, "ns").start();
    co_await tb::ClockCycles(dut_->clk_i, 3);
    tb::write(dut_->rst_ni, 1);
    model_.reset();
  }

  // Every stored field shows its spec reset on reg2hw.
  void check_resets() {
    for (const auto& m : model_.to_hw()) {
      if (m.kind != Kind::Value || !stored(*m.reg, *m.field)) continue;
      const unsigned w = m.field->bits.width();
      for (unsigned n = 0; n < m.count; ++n) {
        const uint64_t got = get_bits(dut_->reg2hw_o, m.lsb + n * w, w);
        if (got != (m.field->reset & ones(w))) {
          tb::fail(fmt::format("{}: after reset {}[{}].{} = {:#x}, the spec's reset is {:#x}", b_.name, m.reg->name, n,
                               m.field->name, got, m.field->reset));
        }
      }
    }
  }

  // One cycle: drive, wait for the edge, compare every output with the model, clock the model.
  Task<> cycle(const Request& rq, const InBand& ib) {
    std::vector<uint64_t> hw = random_hw2reg();
    tb::defer([this, rq, ib, hw] { apply(rq, ib, hw); });
    co_await RisingEdge(dut_->clk_i);
    model_.set_hw(hw);
    compare(rq);
    const auto e = model_.evaluate(rq);
    if (e.go) {
      ++requests_;
      const bool writable = e.hit && e.hit->reg->bus_writable(b_.in_band_state);
      cov_.hit("read of a mapped register", e.hit && !rq.we && !e.acc_err);
      cov_.hit("accepted write", e.hit && rq.we && !e.acc_err);
      cov_.hit("refused write", e.hit && rq.we && !writable);
      cov_.hit("unmapped or misaligned", !e.hit);
      cov_.hit("array instance > 0", e.hit && e.hit->n > 0);
      cov_.hit("hardware error (werr, rerr)", e.hit && writable == rq.we && e.acc_err && rq.be == 0xf);
    }
    cov_.hit("waited", e.waiting);
    last_ = rq;
    last_acked_ = !b_.req_ack || e.go || !rq.valid;
    model_.clock(rq, ib);
  }

  // A random request: mostly a mapped register, some holes, outside the block, misaligned. A
  // req_ack request that was not acknowledged is presented again unchanged (the protocol).
  Request random_request() {
    if (!last_acked_) return last_;
    Request rq;
    rq.valid = tb::chance(0.7);
    rq.we = tb::chance(0.5);
    rq.wdata = static_cast<uint32_t>(tb::chance(0.3) ? ~0ULL : tb::randint(0, 0xffffffffULL));
    const auto& insts = model_.insts();
    const double p = static_cast<double>(tb::randint(0, 999)) / 1000.0;
    const uint64_t top = b_.req_ack ? b_.size - 1 : 0xffff;  // req_ack: addr_i spans the block
    // a few requests go to a register that can answer a hardware error (werr on writes, rerr on
    // reads), so that case is reached with every seed however many registers the block has
    std::vector<const Inst*> err_insts;
    for (const auto& i : insts)
      if (i.reg->write_error || i.reg->read_error) err_insts.push_back(&i);
    if (!err_insts.empty() && tb::chance(0.03)) {
      const Inst& i = *err_insts[tb::randint(0, err_insts.size() - 1)];
      rq.addr = static_cast<uint32_t>(i.offset);
      rq.we = i.reg->write_error && (!i.reg->read_error || tb::chance(0.5));
      return rq;
    }
    if (p < 0.85) rq.addr = static_cast<uint32_t>(insts[tb::randint(0, insts.size() - 1)].offset);
    else if (p < 0.93) rq.addr = static_cast<uint32_t>(tb::randint(0, b_.size - 1) & ~3ULL);
    else if (p < 0.97) rq.addr = static_cast<uint32_t>(tb::randint(std::min<uint64_t>(b_.size, top), top));
    else rq.addr = static_cast<uint32_t>(insts[tb::randint(0, insts.size() - 1)].offset + tb::randint(1, 3));
    if (b_.req_ack && tb::chance(0.05)) rq.be = static_cast<unsigned>(tb::randint(0, 14));
    return rq;
  }

  InBand random_in_band() {
    InBand ib;
    if (!b_.in_band_state) return ib;
    ib.we = tb::chance(0.3);
    const auto& insts = model_.insts();
    ib.addr = static_cast<uint32_t>(tb::chance(0.9) ? insts[tb::randint(0, insts.size() - 1)].offset
                                                    : tb::randint(0, b_.size - 1) & ~3ULL);
    ib.wdata = static_cast<uint32_t>(tb::randint(0, 0xffffffffULL));
    if (ib.we) cov_.hit("in-band write", true);
    return ib;
  }

  tb::Coverage& coverage() { return cov_; }
  uint64_t requests() const { return requests_; }

 private:
  std::vector<uint64_t> random_hw2reg() {
    std::vector<uint64_t> v(model_.hw2reg_width() / 64 + 2, 0);
    for (const auto& m : model_.from_hw()) {
      for (unsigned b = 0; b < m.width; ++b) {
        // sets, hardware writes and errors are sparse, so stored bits live long enough to be
        // read and cleared; wait is 1 half the time, so accesses both wait and pass
        const double p1 = m.kind == Kind::Value || m.kind == Kind::D || m.kind == Kind::Wait ? 0.5 : 0.08;
        if (tb::chance(p1)) v[(m.lsb + b) / 64] |= 1ULL << ((m.lsb + b) % 64);
      }
    }
    return v;
  }

  void apply(const Request& rq, const InBand& ib, const std::vector<uint64_t>& hw) {
    if constexpr (requires { dut_->req_i; }) {
      dut_->req_i = rq.valid;
      dut_->we_i = rq.we;
      dut_->be_i = rq.be;
      dut_->addr_i = rq.addr;
      dut_->wdata_i = rq.wdata;
    } else {
      dut_->reg_req_valid_i = rq.valid;
      uint64_t req = 0;
      req |= static_cast<uint64_t>(rq.wdata) << kReqWdataLsb;
      req |= static_cast<uint64_t>(rq.we) << kReqWeLsb;
      req |= static_cast<uint64_t>(rq.addr & 0xffffU) << kReqAddrLsb;
      dut_->reg_req_i = req;
    }
    if constexpr (requires { dut_->ib_we_i; }) {
      dut_->ib_we_i = ib.we;
      dut_->ib_addr_i = ib.addr;
      dut_->ib_wdata_i = ib.wdata;
    }
    for (unsigned b = 0; b < model_.hw2reg_width(); ++b) set_bits(dut_->hw2reg_i, b, 1, (hw[b / 64] >> (b % 64)) & 1ULL);
  }

  void compare(const Request& rq) {
    const std::string what = fmt::format("({} {:#x})", rq.we ? "write" : "read", rq.addr);
    if constexpr (requires { dut_->req_i; }) {
      const auto e = model_.evaluate(rq);
      const bool ack = dut_->ack_o, err = dut_->err_o;
      const uint32_t rdata = dut_->rdata_o;
      const bool want_ack = rq.valid && !e.waiting, want_err = rq.valid && e.acc_err;
      const uint32_t want_rdata = rq.valid && !rq.we && !e.acc_err ? e.rdata : 0;
      if (ack != want_ack || err != want_err || rdata != want_rdata)
        tb::fail(fmt::format("{}: ack={} err={} rdata={:#010x}, expected ack={} err={} rdata={:#010x} {}", b_.name, ack,
                             err, rdata, want_ack, want_err, want_rdata, what));
    } else {
      const bool ready = dut_->reg_req_ready_o;
      const bool rsp_valid = dut_->reg_rsp_valid_o;
      if (ready != model_.ready() || rsp_valid != model_.rsp_valid())
        tb::fail(fmt::format("{}: ready={} rsp_valid={}, expected {} {}", b_.name, ready, rsp_valid, model_.ready(),
                             model_.rsp_valid()));
      if (rsp_valid) {
        const uint64_t rsp = get_bits(dut_->reg_rsp_o, 0, 33);
        const bool err = (rsp >> kRspErrLsb) & 1U;
        const auto rdata = static_cast<uint32_t>(rsp);
        if (err != model_.rsp_err() || rdata != model_.rsp_rdata())
          tb::fail(fmt::format("{}: response err={} rdata={:#010x}, expected err={} rdata={:#010x}", b_.name, err,
                               rdata, model_.rsp_err(), model_.rsp_rdata()));
      }
    }
    for (const auto& m : model_.to_hw()) {
      const unsigned w = m.width / m.count;
      for (unsigned n = 0; n < m.count; ++n) {
        const uint64_t got = get_bits(dut_->reg2hw_o, m.lsb + n * w, w);
        const uint64_t want = model_.expected_to_hw(m, n, rq) & ones(w);
        if (got != want)
          tb::fail(fmt::format("{}: reg2hw.{}.{} instance {} = {:#x}, expected {:#x} {}", b_.name, m.id, m.member, n,
                               got, want, what));
      }
    }
  }

  tb::Dut<V>& dut_;
  const sg::Block& b_;
  RegtopModel model_;
  tb::Coverage cov_;
  uint64_t requests_ = 0;
  Request last_;
  bool last_acked_ = true;
};

template <class V>
Task<> run_block(tb::Dut<V>& dut, const char* name) {
  const sg::Block& b = block(name);
  RegtopBench<V> bench(dut, b);
  co_await bench.reset();
  co_await RisingEdge(dut->clk_i);
  bench.check_resets();
  // Read every register once first: the reads after reset must show the spec's resets.
  const uint64_t cycles = tb::scaled(20000, 400000);
  for (uint64_t c = 0; c < cycles; ++c) co_await bench.cycle(bench.random_request(), bench.random_in_band());
  auto& cov = bench.coverage();
  dut.log().info("{}: {} cycles, {} requests; {}", name, cycles, bench.requests(), cov.report());
  for (const char* what : {"read of a mapped register", "unmapped or misaligned"}) cov.require(what, 20);
  bool any_writable = false, any_refused = false, any_array = !b.arrays.empty();
  for (const auto& r : b.registers) {
    any_writable |= r.bus_writable(b.in_band_state);
    any_refused |= !r.bus_writable(b.in_band_state);
  }
  if (any_writable) cov.require("accepted write", 20);
  if (any_refused) cov.require("refused write", 20);
  if (any_array) cov.require("array instance > 0", 20);
  if (b.in_band_state) cov.require("in-band write", 20);
  bool any_wait = false, any_hw_err = false;
  for (const auto& r : b.registers) {
    any_wait |= r.wait != sg::Register::Wait::None;
    any_hw_err |= r.write_error || r.read_error;
  }
  for (const auto& a : b.arrays) {
    for (const auto& r : a.registers) {
      any_wait |= r.wait != sg::Register::Wait::None;
      any_hw_err |= r.write_error || r.read_error;
    }
  }
  if (any_wait) cov.require("waited", 20);
  if (any_hw_err) cov.require("hardware error (werr, rerr)", 5);
}

}  // namespace

// Each test: reset values of every stored field, then random bus traffic, hardware values,
// sets, werr and in-band writes with every output checked every cycle against the spec model.
// Catches: a wrong reset, an offset decoded into the wrong register or array instance, a
// missing err (hole, outside, misaligned, read-only, in-band-only, werr), a write stored
// despite err, a w1c clear losing a simultaneous set, a strobe on the wrong cycle or register.
TB_TEST(Vcp_reg_top_default, cp_registers) { co_await run_block(dut, "CP"); }
TB_TEST(Vcpfw_reg_top_default, cpfw_registers) { co_await run_block(dut, "CPFW"); }
TB_TEST(Vgeom_reg_top_default, geom_registers) { co_await run_block(dut, "GEOM"); }
TB_TEST(Vraster_reg_top_default, raster_registers) { co_await run_block(dut, "RASTER"); }
TB_TEST(Vslc_reg_top_default, slc_registers) { co_await run_block(dut, "SLC"); }
