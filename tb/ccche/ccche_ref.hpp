// Reference models of the CCHE (rtl/ccche/ccche.sv), written from its specification
// (docs/ccche.md: "Behaviour", "Replacement", "Maintenance") and the internal memory
// protocol (rtl/mem/tessera_mem_pkg.sv), not from the RTL.
//
//   FlatRef    the flat memory every client sees: a READ returns the latest accepted WRITE's
//              data of its line; it also remembers each line's last writer DSID (what a
//              writeback of that line must carry). Exact for any interleaving, because
//              requests to a line are performed in the order the cache accepts them (a READ
//              miss's data is that of its acceptance, even though it is answered later).
//   CcheModel  the cache itself (sets x ways of {valid, dirty, dsid, tag, data}, lowest
//              invalid way else tree PLRU, write-back, full-line write-allocate without
//              fetch, partial-write-miss write-around, PREFETCH forwarded; a READ miss drops
//              its victim when accepted, so a failed fill leaves the way invalid): predicts
//              every counter and every downstream request when requests are performed one at
//              a time (serial traffic: one request outstanding, so no way is ever reserved by
//              a fill in flight and the victim rule is the plain one).
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "mem_protocol.hpp"

namespace cctb {

using tb::mem::Line;
using tb::mem::Op;
using tb::mem::Req;
using tb::mem::Rsp;

// Geometry of a configuration (rtl/ccche/CMakeLists.txt).
struct Geometry {
  unsigned lines = 64;
  unsigned ways = 4;
  unsigned sets() const { return lines / ways; }
  unsigned set_bits() const {
    unsigned b = 0;
    while ((1U << b) < sets()) ++b;
    return b;
  }
  unsigned set_of(std::uint32_t addr) const { return (addr >> 6) & (sets() - 1); }
  std::uint32_t tag_of(std::uint32_t addr) const { return addr >> (6 + set_bits()); }
  std::uint32_t addr_of(unsigned set, std::uint32_t tag) const { return (tag << (6 + set_bits())) | (set << 6); }
};

// Memory contents before anything was written: a pattern of the line address, so a fill of
// the wrong line or stale data shows.
inline Line initial_line(std::uint32_t line) {
  Line l{};
  std::uint32_t x = line * 0x9e3779b1U + 0x1234567U;
  for (auto& b : l) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    b = static_cast<std::uint8_t>(x);
  }
  return l;
}

inline void merge(Line& l, const Req& r) {
  for (unsigned b = 0; b < l.size(); ++b)
    if ((r.wstrb >> b) & 1U) l[b] = r.wdata[b];
}

// Malformed requests (tessera_mem_pkg): misaligned, strobes on READ/PREFETCH, unknown op.
inline bool bad(const Req& r) {
  return (r.addr & 0x3fU) != 0 || static_cast<unsigned>(r.op) > 2 || (r.op != Op::write && r.wstrb != 0);
}

// ---------------------------------------------------------------------------------------------
class FlatRef {
 public:
  struct LineState {
    Line data{};
    std::uint8_t writer = 0;
    bool written = false;
  };
  LineState& at(std::uint32_t line) {
    auto it = lines_.find(line);
    if (it == lines_.end()) it = lines_.emplace(line, LineState{initial_line(line), 0, false}).first;
    return it->second;
  }
  // Lines whose every downstream access is answered err (never written by the tests).
  std::set<std::uint32_t>& error_lines() { return err_; }

  // At acceptance: the expected response; a WRITE updates the line.
  Rsp accept(const Req& r) {
    Rsp rsp{r.op, false, r.src, r.tag, {}};
    if (bad(r)) {
      rsp.err = true;
      ++errors;
      return rsp;
    }
    const std::uint32_t line = r.addr >> 6;
    LineState& s = at(line);
    if (r.op == Op::read) {
      ++reads;
      if (err_.count(line)) rsp.err = true;  // never resident: every fill fails
      else rsp.rdata = s.data;
    } else if (r.op == Op::write) {
      ++writes;
      merge(s.data, r);
      s.writer = r.dsid;
      s.written = true;
    } else {
      ++prefetches;
      if (err_.count(line)) rsp.err = true;
    }
    return rsp;
  }
  const std::map<std::uint32_t, LineState>& lines() const { return lines_; }

  std::uint64_t reads = 0, writes = 0, prefetches = 0, errors = 0;

 private:
  std::map<std::uint32_t, LineState> lines_;
  std::set<std::uint32_t> err_;
};

// ---------------------------------------------------------------------------------------------
// Downstream traffic as the model predicts it.
struct DnEvent {
  Op op = Op::read;
  std::uint32_t line = 0;
  std::uint8_t dsid = 0;
  std::uint64_t wstrb = 0;
  Line data{};  // writes only
  bool wb = false;
  bool operator==(const DnEvent&) const = default;
  auto operator<=>(const DnEvent&) const = default;
  std::string str() const {
    return fmt::format("{}{}@0x{:08x} dsid {}", wb ? "WB " : "", tb::mem::to_string(op), line << 6, dsid);
  }
};

struct Counts {
  std::uint64_t hits = 0, misses = 0, writebacks = 0, fills = 0;
  bool operator==(const Counts&) const = default;
};

class CcheModel {
 public:
  explicit CcheModel(Geometry g) : g_(g), sets_(g.sets()) {
    while ((1U << levels_) < g_.ways) ++levels_;
    for (auto& s : sets_) {
      s.ways.resize(g_.ways);
      s.plru.assign(g_.ways - 1, 0);
    }
  }

  // Memory behind the cache (what the downstream holds once every write has landed).
  Line mem(std::uint32_t line) const {
    auto it = mem_.find(line);
    return it == mem_.end() ? initial_line(line) : it->second;
  }
  std::set<std::uint32_t>& error_lines() { return err_; }
  const Counts& counts() const { return cnt_; }

  // One request, performed atomically; appends its downstream traffic to dn.
  Rsp access(const Req& r, std::vector<DnEvent>& dn) {
    Rsp rsp{r.op, false, r.src, r.tag, {}};
    if (bad(r)) {
      rsp.err = true;
      return rsp;
    }
    const std::uint32_t line = r.addr >> 6;
    Set& s = sets_[g_.set_of(r.addr)];
    int hit = -1;
    for (unsigned w = 0; w < g_.ways; ++w)
      if (s.ways[w].valid && s.ways[w].tag == g_.tag_of(r.addr)) hit = static_cast<int>(w);

    if (r.op == Op::prefetch) {  // forwarded, never allocated, not counted
      dn.push_back({Op::prefetch, line, r.dsid, 0, {}, false});
      rsp.err = err_.count(line) != 0;
      return rsp;
    }
    if (hit >= 0) {
      Way& w = s.ways[static_cast<unsigned>(hit)];
      ++cnt_.hits;
      touch(s, static_cast<unsigned>(hit));
      if (r.op == Op::read) {
        rsp.rdata = w.data;
      } else {
        merge(w.data, r);
        w.dirty = true;
        w.dsid = r.dsid;
      }
      return rsp;
    }
    ++cnt_.misses;
    if (r.op == Op::write && r.wstrb != ~0ULL) {  // write-around
      dn.push_back({Op::write, line, r.dsid, r.wstrb, r.wdata, false});
      if (err_.count(line)) {
        rsp.err = true;
      } else {
        Line m = mem(line);
        merge(m, r);
        mem_[line] = m;
      }
      return rsp;
    }
    const unsigned v = victim(s);
    Way& w = s.ways[v];
    if (w.valid && w.dirty) write_back(g_.set_of(r.addr), w, dn);
    touch(s, v);  // at acceptance, also for a fill that will fail
    if (r.op == Op::read) {
      // Accepted into an MSHR: the victim is dropped, its way reserved for the fill.
      w.valid = false;
      ++cnt_.fills;
      dn.push_back({Op::read, line, r.dsid, 0, {}, false});
      if (err_.count(line)) {  // not allocated: the way stays invalid
        rsp.err = true;
        return rsp;
      }
      w = Way{true, false, 0, g_.tag_of(r.addr), mem(line)};
      rsp.rdata = w.data;
    } else {  // full-line write: allocate without fetch
      w = Way{true, true, r.dsid, g_.tag_of(r.addr), r.wdata};
    }
    return rsp;
  }

  // Maintenance: every dirty line written back (set order, then way order), then optionally
  // every line invalidated.
  void maintain(bool inv, std::vector<DnEvent>& dn) {
    for (unsigned si = 0; si < sets_.size(); ++si)
      for (auto& w : sets_[si].ways)
        if (w.valid && w.dirty) write_back(si, w, dn);
    if (inv)
      for (auto& s : sets_)
        for (auto& w : s.ways) w.valid = false;
  }

  unsigned dirty_lines() const {
    unsigned n = 0;
    for (const auto& s : sets_)
      for (const auto& w : s.ways) n += (w.valid && w.dirty) ? 1U : 0U;
    return n;
  }
  unsigned valid_lines() const {
    unsigned n = 0;
    for (const auto& s : sets_)
      for (const auto& w : s.ways) n += w.valid ? 1U : 0U;
    return n;
  }

 private:
  struct Way {
    bool valid = false, dirty = false;
    std::uint8_t dsid = 0;
    std::uint32_t tag = 0;
    Line data{};
  };
  struct Set {
    std::vector<Way> ways;
    std::vector<std::uint8_t> plru;  // WAYS-1 node bits, heap order
  };

  void write_back(unsigned set, Way& w, std::vector<DnEvent>& dn) {
    const std::uint32_t line = g_.addr_of(set, w.tag) >> 6;
    dn.push_back({Op::write, line, w.dsid, ~0ULL, w.data, true});
    mem_[line] = w.data;
    w.dirty = false;
    ++cnt_.writebacks;
  }
  // Tree PLRU (docs/ccche.md "Replacement", the SLC's tree): node (2^l - 1) + p at level l;
  // a node bit of 0 = the victim is in the lower half. Touching a way points every node on
  // its path away from it.
  unsigned victim(const Set& s) const {
    for (unsigned w = 0; w < g_.ways; ++w)
      if (!s.ways[w].valid) return w;
    unsigned p = 0;
    for (unsigned l = 0; l < levels_; ++l) p = (p << 1) | s.plru[(1U << l) - 1 + p];
    return p;
  }
  void touch(Set& s, unsigned w) const {
    for (unsigned l = 0; l < levels_; ++l) {
      const unsigned q = w >> (levels_ - l);
      s.plru[(1U << l) - 1 + q] = ((w >> (levels_ - 1 - l)) & 1U) ? 0 : 1;
    }
  }

  Geometry g_;
  unsigned levels_ = 0;
  std::vector<Set> sets_;
  std::unordered_map<std::uint32_t, Line> mem_;
  std::set<std::uint32_t> err_;
  Counts cnt_;
};

}  // namespace cctb
