#include "tessera/sim/axi_checker.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "beat.hpp"

namespace tessera::sim {

namespace {
enum Ch { kAR = 0, kAW = 1, kW = 2, kR = 3, kB = 4 };

std::string addr_fields(const char* p, const AxiAddr& a) {
  return fmt::format("{0}ID={1} {0}ADDR=0x{2:08x} {0}LEN={3} {0}SIZE={4} {0}BURST={5}", p, a.id, a.addr, a.len, a.size,
                     a.burst);
}

// Names of the fields that differ, for payload-changed messages.
std::string diff(const AxiAddr& x, const AxiAddr& y, const char* p) {
  std::string d;
  auto f = [&](const char* n, bool same) {
    if (!same) d += fmt::format("{}{}{}", d.empty() ? "" : ", ", p, n);
  };
  f("ID", x.id == y.id);
  f("ADDR", x.addr == y.addr);
  f("LEN", x.len == y.len);
  f("SIZE", x.size == y.size);
  f("BURST", x.burst == y.burst);
  f("LOCK", x.lock == y.lock);
  f("CACHE", x.cache == y.cache);
  f("PROT", x.prot == y.prot);
  f("QOS", x.qos == y.qos);
  f("REGION", x.region == y.region);
  return d;
}
}  // namespace

std::string AxiViolation::to_string() const {
  return fmt::format("{}: cycle {}: {}: {}: {}", checker, cycle, channel, rule, message);
}

AxiProtocolChecker::AxiProtocolChecker(AxiCheckerConfig cfg) : cfg_(std::move(cfg)) {}

void AxiProtocolChecker::flag(const char* channel, const char* rule, std::string message) {
  AxiViolation v{cycle_, channel, rule, std::move(message), cfg_.name};
  violations_.push_back(v);
  if (cb_) cb_(violations_.back());
}

std::size_t AxiProtocolChecker::count(std::string_view rule) const {
  return static_cast<std::size_t>(
      std::count_if(violations_.begin(), violations_.end(), [&](const AxiViolation& v) { return v.rule == rule; }));
}

std::string AxiProtocolChecker::report(std::size_t max_lines) const {
  if (violations_.empty()) return fmt::format("{}: no AXI protocol violations", cfg_.name);
  std::string s = fmt::format("{}: {} AXI protocol violation(s)", cfg_.name, violations_.size());
  for (std::size_t i = 0; i < violations_.size() && i < max_lines; ++i) s += "\n  " + violations_[i].to_string();
  if (violations_.size() > max_lines) s += fmt::format("\n  ... and {} more", violations_.size() - max_lines);
  return s;
}

void AxiProtocolChecker::reset() {
  have_prev_ = false;
  reads_.clear();
  writes_.clear();
  w_wait_.clear();
  w_early_.clear();
  reads_out_ = writes_out_ = 0;
}

void AxiProtocolChecker::check_idle() {
  for (const auto& [id, q] : reads_)
    for (const auto& r : q)
      flag("R", "unanswered",
           fmt::format("read {} accepted at cycle {} has {} of {} beats", addr_fields("AR", r.a), r.cycle, r.beats,
                       r.a.len + 1));
  for (const auto& [id, q] : writes_)
    for (const auto& w : q)
      flag("B", "unanswered",
           fmt::format("write {} accepted at cycle {} ({} of {} W beats) has no B response", addr_fields("AW", w.a),
                       w.cycle, w.beats, w.a.len + 1));
  if (!w_early_.empty())
    flag("W", "unanswered", fmt::format("{} W beat(s) never matched by an AW", w_early_.size()));
}

void AxiProtocolChecker::check_id(const char* ch, std::uint32_t id) {
  if (cfg_.id_width < 32 && (id >> cfg_.id_width) != 0)
    flag(ch, "id-width", fmt::format("{}ID={} does not fit in {} bits", ch, id, cfg_.id_width));
}

void AxiProtocolChecker::check_addr(const char* ch, const AxiAddr& a) {
  const std::string f = addr_fields(ch, a);
  check_id(ch, a.id);
  if (cfg_.one_beat_only && a.len != 0)
    flag(ch, "burst-length", fmt::format("{}LEN={} but this port uses one-beat bursts ({})", ch, a.len, f));
  if (a.size > kAxiMaxSize)
    flag(ch, "burst-size", fmt::format("{}SIZE={} is wider than the {}-byte data bus ({})", ch, a.size, kAxiDataBytes, f));
  else if (cfg_.required_size >= 0 && a.size != cfg_.required_size)
    flag(ch, "burst-size", fmt::format("{}SIZE={} but this port requires {} ({})", ch, a.size, cfg_.required_size, f));
  if (a.burst == static_cast<std::uint8_t>(AxiBurst::reserved))
    flag(ch, "burst-type", fmt::format("{}BURST=2'b11 is reserved ({})", ch, f));
  if (a.burst == static_cast<std::uint8_t>(AxiBurst::wrap)) {
    const unsigned beats = a.len + 1U;
    if (beats != 2 && beats != 4 && beats != 8 && beats != 16)
      flag(ch, "burst-length", fmt::format("a WRAP burst must have 2, 4, 8 or 16 beats ({})", f));
    if (a.addr % detail::beat_bytes(a) != 0)
      flag(ch, "burst-type", fmt::format("a WRAP burst must start aligned to its size ({})", f));
  }
  if (cfg_.check_4k && a.burst == static_cast<std::uint8_t>(AxiBurst::incr)) {
    const auto [lo, hi] = detail::burst_span(a);
    if ((lo >> 12) != (hi >> 12))
      flag(ch, "4k-boundary", fmt::format("the burst covers 0x{:x}..0x{:x}, across a 4 KiB boundary ({})", lo, hi, f));
  }
}

void AxiProtocolChecker::check_stable(const AxiMasterSignals& m, const AxiSlaveSignals& s) {
  // A channel is "pending" when VALID was high and READY low at the previous edge: VALID must
  // still be high now, with the same payload.
  auto pend = [&](bool pv, bool pr) { return have_prev_ && pv && !pr; };
  if (pend(pm_.arvalid, ps_.arready)) {
    if (!m.arvalid)
      flag("AR", "valid-dropped", fmt::format("ARVALID fell before ARREADY ({}, pending since cycle {})",
                                              addr_fields("AR", pm_.ar), pending_since_[kAR]));
    else if (!(m.ar == pm_.ar))
      flag("AR", "payload-changed", fmt::format("{} changed while ARVALID && !ARREADY (was {}, now {})",
                                                diff(pm_.ar, m.ar, "AR"), addr_fields("AR", pm_.ar), addr_fields("AR", m.ar)));
  }
  if (pend(pm_.awvalid, ps_.awready)) {
    if (!m.awvalid)
      flag("AW", "valid-dropped", fmt::format("AWVALID fell before AWREADY ({}, pending since cycle {})",
                                              addr_fields("AW", pm_.aw), pending_since_[kAW]));
    else if (!(m.aw == pm_.aw))
      flag("AW", "payload-changed", fmt::format("{} changed while AWVALID && !AWREADY (was {}, now {})",
                                                diff(pm_.aw, m.aw, "AW"), addr_fields("AW", pm_.aw), addr_fields("AW", m.aw)));
  }
  if (pend(pm_.wvalid, ps_.wready)) {
    if (!m.wvalid) {
      flag("W", "valid-dropped",
           fmt::format("WVALID fell before WREADY (pending since cycle {})", pending_since_[kW]));
    } else if (!(m.w == pm_.w)) {
      std::string d;
      if (m.w.data != pm_.w.data) d += "WDATA";
      if (m.w.strb != pm_.w.strb) d += d.empty() ? "WSTRB" : ", WSTRB";
      if (m.w.last != pm_.w.last) d += d.empty() ? "WLAST" : ", WLAST";
      flag("W", "payload-changed", fmt::format("{} changed while WVALID && !WREADY", d));
    }
  }
  if (pend(ps_.rvalid, pm_.rready)) {
    if (!s.rvalid)
      flag("R", "valid-dropped", fmt::format("RVALID fell before RREADY (RID={}, pending since cycle {})", ps_.r.id,
                                             pending_since_[kR]));
    else if (!(s.r == ps_.r)) {
      std::string d;
      auto f = [&](const char* n, bool same) {
        if (!same) d += fmt::format("{}{}", d.empty() ? "" : ", ", n);
      };
      f("RID", s.r.id == ps_.r.id);
      f("RDATA", s.r.data == ps_.r.data);
      f("RRESP", s.r.resp == ps_.r.resp);
      f("RLAST", s.r.last == ps_.r.last);
      flag("R", "payload-changed", fmt::format("{} changed while RVALID && !RREADY (RID was {})", d, ps_.r.id));
    }
  }
  if (pend(ps_.bvalid, pm_.bready)) {
    if (!s.bvalid)
      flag("B", "valid-dropped", fmt::format("BVALID fell before BREADY (BID={}, pending since cycle {})", ps_.b.id,
                                             pending_since_[kB]));
    else if (!(s.b == ps_.b))
      flag("B", "payload-changed",
           fmt::format("BID/BRESP changed while BVALID && !BREADY (was BID={} BRESP={}, now BID={} BRESP={})", ps_.b.id,
                       ps_.b.resp, s.b.id, s.b.resp));
  }
}

void AxiProtocolChecker::on_w_beat(Write& w, const AxiW& beat) {
  const bool last = w.beats == w.a.len;
  if (last && !beat.last)
    flag("W", "wlast-missing", fmt::format("WLAST low on beat {} of {}, the last beat of the write {}", w.beats + 1,
                                           w.a.len + 1, addr_fields("AW", w.a)));
  else if (!last && beat.last)
    flag("W", "wlast-early", fmt::format("WLAST high on beat {} of {} of the write {}", w.beats + 1, w.a.len + 1,
                                         addr_fields("AW", w.a)));
  if (w.a.size <= kAxiMaxSize) {
    const detail::BeatWindow win = detail::beat_window(w.a, w.beats);
    if ((beat.strb & ~win.lanes) != 0)
      flag("W", "wstrb-lanes", fmt::format("WSTRB=0x{:016x} has lanes outside the beat's window 0x{:016x} (write {})",
                                           beat.strb, win.lanes, addr_fields("AW", w.a)));
  }
  ++w.beats;
  if (last) w.data_done = true;
}

void AxiProtocolChecker::sample(const AxiMasterSignals& m, const AxiSlaveSignals& s) {
  ++cycle_;
  check_stable(m, s);

  // Responses first: a response completing at this edge was valid during the cycle before,
  // so it must answer a transaction accepted at an earlier edge.
  if (s.rvalid && m.rready) {
    ++n_r_;
    check_id("R", s.r.id);
    auto it = reads_.find(s.r.id);
    if (it == reads_.end() || it->second.empty()) {
      flag("R", "unknown-id", fmt::format("R beat with RID={} but no read with that ID is outstanding", s.r.id));
    } else {
      Read& r = it->second.front();
      const bool last = r.beats == r.a.len;
      if (last && !s.r.last)
        flag("R", "rlast-missing", fmt::format("RLAST low on beat {} of {}, the last beat of the read {}", r.beats + 1,
                                               r.a.len + 1, addr_fields("AR", r.a)));
      else if (!last && s.r.last)
        flag("R", "rlast-early", fmt::format("RLAST high on beat {} of {} of the read {}", r.beats + 1, r.a.len + 1,
                                             addr_fields("AR", r.a)));
      ++r.beats;
      if (last || s.r.last) {  // an early RLAST ends the burst too: keep matching what follows
        it->second.pop_front();
        --reads_out_;
      }
    }
  }
  if (s.bvalid && m.bready) {
    ++n_b_;
    check_id("B", s.b.id);
    auto it = writes_.find(s.b.id);
    if (it == writes_.end() || it->second.empty()) {
      flag("B", "unknown-id", fmt::format("B with BID={} but no write with that ID is outstanding", s.b.id));
    } else {
      Write& w = it->second.front();
      if (!w.data_done) {
        flag("B", "early-b", fmt::format("B for the write {} after {} of its {} W beats: the slave must wait for WLAST",
                                         addr_fields("AW", w.a), w.beats, w.a.len + 1));
        w_wait_.erase(std::remove(w_wait_.begin(), w_wait_.end(), &w), w_wait_.end());
      }
      it->second.pop_front();
      --writes_out_;
    }
  }

  // WVALID needs an accepted AW still waiting for data, or its AW presented in this cycle
  // (counting the beats already taken ahead of that AW). Checked when VALID rises.
  if (cfg_.w_after_aw && m.wvalid && !(have_prev_ && pm_.wvalid && !ps_.wready)) {
    const bool aw_waiting = !w_wait_.empty();
    const bool aw_now = m.awvalid && w_early_.size() < static_cast<std::size_t>(m.aw.len) + 1;
    if (!aw_waiting && !aw_now)
      flag("W", "w-before-aw",
           fmt::format("WVALID high before the beat's AW was presented ({} beat(s) already ahead of any AW); this "
                       "port sends W with or after AW",
                       w_early_.size()));
  }
  // Requests.
  if (m.arvalid && s.arready) {
    ++n_ar_;
    check_addr("AR", m.ar);
    reads_[m.ar.id].push_back(Read{m.ar, cycle_, 0});
    ++reads_out_;
    if (cfg_.max_reads && reads_out_ > cfg_.max_reads)
      flag("AR", "outstanding-limit", fmt::format("{} reads outstanding after {}, more than the {} allowed", reads_out_,
                                                  addr_fields("AR", m.ar), cfg_.max_reads));
  }
  if (m.awvalid && s.awready) {
    ++n_aw_;
    check_addr("AW", m.aw);
    auto& q = writes_[m.aw.id];
    q.push_back(Write{m.aw, cycle_, 0, false});
    w_wait_.push_back(&q.back());
    ++writes_out_;
    if (cfg_.max_writes && writes_out_ > cfg_.max_writes)
      flag("AW", "outstanding-limit", fmt::format("{} writes outstanding after {}, more than the {} allowed",
                                                  writes_out_, addr_fields("AW", m.aw), cfg_.max_writes));
  }
  if (m.wvalid && s.wready) {
    ++n_w_;
    w_early_.push_back(m.w);
  }
  // Pair W beats with writes in AW order (also beats that arrived before their AW).
  while (!w_wait_.empty() && !w_early_.empty()) {
    Write& w = *w_wait_.front();
    on_w_beat(w, w_early_.front());
    w_early_.pop_front();
    if (w.data_done) w_wait_.pop_front();
  }

  // Remember this edge for the stability rules.
  auto since = [&](int ch, bool pv, bool pr, bool now) {
    if (!now) return;
    if (!(have_prev_ && pv && !pr)) pending_since_[ch] = cycle_;
  };
  since(kAR, pm_.arvalid, ps_.arready, m.arvalid);
  since(kAW, pm_.awvalid, ps_.awready, m.awvalid);
  since(kW, pm_.wvalid, ps_.wready, m.wvalid);
  since(kR, ps_.rvalid, pm_.rready, s.rvalid);
  since(kB, ps_.bvalid, pm_.bready, s.bvalid);
  pm_ = m;
  ps_ = s;
  have_prev_ = true;
}

}  // namespace tessera::sim
