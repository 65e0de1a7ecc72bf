// Reference model of the SLC, written from its specification (docs/slc.md: "Behaviour", the
// operation table, "Replacement", "DSIDs and delete") and the internal memory protocol
// (rtl/mem/tessera_mem_pkg.sv), not from the RTL.
//
// It is a functional cache: sets x ways of {valid, dirty, prefetched, dsid, tag, data}, a
// tree-PLRU per set, a backing memory ("DRAM"), the statistics counters and per-DSID
// occupancy. Every operation is atomic, so it predicts the RTL exactly when requests are
// performed one at a time (each waits for its response, the memory system is quiet), which is
// how bench_slc's serial tests drive it. Under concurrent traffic the RTL may see a way still
// reserved by an outstanding miss when it picks a victim; the concurrent tests therefore check
// data against a flat memory and the counters through identities (bench_slc.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <fmt/format.h>
#include <string>
#include <unordered_map>
#include <vector>

#include "mem_protocol.hpp"

namespace slctb {

using tb::mem::Line;
using tb::mem::Op;
using tb::mem::Req;
using tb::mem::Rsp;

// Statistics counters, in register order (spec/registers/slc.yaml CNT_READS .. CNT_PREFETCH_DROPPED).
// The model performs one request at a time, so a miss always finds a free MSHR and a PREFETCH
// is never dropped here: PREFETCH_DROPPED stays 0 (the concurrent benches bound it instead).
enum Cnt : unsigned {
  kReads, kWrites, kPrefetches, kHits, kMisses, kEvictions, kWritebacks, kFills, kDelDirty, kDelClean,
  kPfFills, kPfUsed, kPfUnused, kErrors, kInvalDirty, kMemErrors, kPfDropped, kNumCnt
};
inline const char* cnt_name(unsigned c) {
  static const char* n[] = {"READS",       "WRITES",       "PREFETCHES",  "HITS",          "MISSES",
                            "EVICTIONS",   "WRITEBACKS",   "FILLS",       "DELETED_DIRTY", "DELETED_CLEAN",
                            "PREFETCH_FILLS", "PREFETCH_USED", "PREFETCH_UNUSED", "ERRORS", "INVAL_DIRTY",
                            "MEM_ERRORS", "PREFETCH_DROPPED"};
  return c < kNumCnt ? n[c] : "?";
}
using Counters = std::array<std::uint64_t, kNumCnt>;

// The memory's contents before anything was written: a fixed pattern of the address, so a
// fill returning the wrong line (or stale data) is visible.
inline Line initial_line(std::uint32_t line_addr) {
  Line l{};
  std::uint32_t x = line_addr * 0x9e3779b1U + 0x7f4a7c15U;
  for (unsigned i = 0; i < l.size(); ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    l[i] = static_cast<std::uint8_t>(x);
  }
  return l;
}

// Memory traffic the SLC generates, as the model predicts it.
struct DnEvent {
  bool write = false;       // WRITE (writeback) or READ (fill)
  std::uint32_t line = 0;   // line address (byte address >> 6)
  Line data{};              // written data (writebacks only)
  bool operator==(const DnEvent&) const = default;
  auto operator<=>(const DnEvent& o) const {
    if (write != o.write) return write <=> o.write;
    if (line != o.line) return line <=> o.line;
    return data <=> o.data;
  }
};

struct Geometry {
  unsigned size_bytes = 4096;
  unsigned ways = 4;
  unsigned sets() const { return size_bytes / 64 / ways; }
  unsigned lines() const { return size_bytes / 64; }
  unsigned set_bits() const {
    unsigned b = 0;
    while ((1U << b) < sets()) ++b;
    return b;
  }
  unsigned set_of(std::uint32_t addr) const { return (addr >> 6) & (sets() - 1); }
  std::uint32_t tag_of(std::uint32_t addr) const { return addr >> (6 + set_bits()); }
  // Byte address of the line with this tag in this set.
  std::uint32_t addr_of(unsigned set, std::uint32_t tag) const {
    return (tag << (6 + set_bits())) | (set << 6);
  }
};

class SlcModel {
 public:
  explicit SlcModel(Geometry g) : g_(g), sets_(g.sets()) {
    unsigned l = 0;
    while ((1U << l) < g_.ways) ++l;
    levels_ = l;
    for (auto& s : sets_) {
      s.ways.resize(g_.ways);
      s.plru.assign(g_.ways - 1, 0);
    }
    cnt_.fill(0);
  }

  const Geometry& geometry() const { return g_; }
  void set_mem_limit(std::uint32_t limit) { mem_limit_ = limit & ~0x3fU; }

  // One request, performed atomically. Returns the response and appends the memory traffic
  // it causes to `dn`.
  Rsp access(const Req& r, std::vector<DnEvent>& dn) {
    Rsp rsp;
    rsp.op = r.op;
    rsp.src = r.src;
    rsp.tag = r.tag;
    if (bad(r)) {
      rsp.err = true;
      ++cnt_[kErrors];
      return rsp;
    }
    Set& s = sets_[g_.set_of(r.addr)];
    const std::uint32_t tag = g_.tag_of(r.addr);
    int hit = -1;
    for (unsigned w = 0; w < g_.ways; ++w)
      if (s.ways[w].valid && s.ways[w].tag == tag) hit = static_cast<int>(w);

    if (hit >= 0) {
      Way& way = s.ways[static_cast<unsigned>(hit)];
      switch (r.op) {
        case Op::read:
          ++cnt_[kReads];
          ++cnt_[kHits];
          if (way.pf) ++cnt_[kPfUsed];
          way.pf = false;
          touch(s, static_cast<unsigned>(hit));
          rsp.rdata = way.data;
          break;
        case Op::write:
          ++cnt_[kWrites];
          ++cnt_[kHits];
          if (way.pf) ++cnt_[kPfUsed];
          merge(way.data, r);
          way.dirty = true;
          way.pf = false;
          way.dsid = r.dsid;
          touch(s, static_cast<unsigned>(hit));
          break;
        case Op::prefetch:
          ++cnt_[kPrefetches];  // already resident: nothing to do, no PLRU update
          break;
      }
      return rsp;
    }

    // Miss: counted, a victim chosen (lowest invalid way, else the PLRU way), made MRU.
    if (r.op == Op::read) ++cnt_[kReads];
    if (r.op == Op::write) ++cnt_[kWrites];
    if (r.op == Op::prefetch) ++cnt_[kPrefetches];
    if (r.op != Op::prefetch) ++cnt_[kMisses];
    unsigned v = victim(s);
    Way& way = s.ways[v];
    touch(s, v);
    if (way.valid) {
      ++cnt_[kEvictions];
      if (way.pf) ++cnt_[kPfUnused];
      if (way.dirty) {
        const std::uint32_t line = g_.addr_of(g_.set_of(r.addr), way.tag) >> 6;
        dram_[line] = way.data;
        ++cnt_[kWritebacks];
        dn.push_back({true, line, way.data});
      }
    }
    const std::uint32_t line = r.addr >> 6;
    const bool full_write = r.op == Op::write && r.wstrb == ~0ULL;
    Line data{};
    if (!full_write) {  // write-allocate: a partial write fills the line first
      data = dram(line);
      ++cnt_[kFills];
      dn.push_back({false, line, Line{}});
    }
    way = Way{};
    way.valid = true;
    way.tag = g_.tag_of(r.addr);
    way.data = data;
    if (r.op == Op::write) {
      merge(way.data, r);
      way.dirty = true;
      way.dsid = r.dsid;  // the last writer's DSID
    } else if (r.op == Op::prefetch) {
      way.pf = true;      // fills carry DSID 0
      ++cnt_[kPfFills];
    } else {
      rsp.rdata = way.data;
    }
    return rsp;
  }

  // DELETE(d): drop every resident line whose DSID is d, dirty or clean, without writeback.
  // DSID 0 is never deleted.
  void remove_dsid(std::uint8_t d) {
    if (d == 0) return;
    for (auto& s : sets_)
      for (auto& w : s.ways)
        if (w.valid && w.dsid == d) {
          ++cnt_[w.dirty ? kDelDirty : kDelClean];
          w.valid = false;
        }
  }
  // FLUSH: write back every dirty line; lines stay resident, clean, with their DSID.
  void flush(std::vector<DnEvent>& dn) {
    for (unsigned si = 0; si < sets_.size(); ++si)
      for (auto& w : sets_[si].ways)
        if (w.valid && w.dirty) {
          const std::uint32_t line = g_.addr_of(si, w.tag) >> 6;
          dram_[line] = w.data;
          ++cnt_[kWritebacks];
          dn.push_back({true, line, w.data});
          w.dirty = false;
        }
  }
  // INVALIDATE: drop everything; dirty data is lost.
  void invalidate() {
    for (auto& s : sets_)
      for (auto& w : s.ways) {
        if (w.valid && w.dirty) ++cnt_[kInvalDirty];
        w.valid = false;
      }
  }

  unsigned occupancy(std::uint8_t d) const {
    unsigned n = 0;
    for (const auto& s : sets_)
      for (const auto& w : s.ways) n += (w.valid && w.dsid == d) ? 1 : 0;
    return n;
  }
  unsigned valid_lines() const {
    unsigned n = 0;
    for (const auto& s : sets_)
      for (const auto& w : s.ways) n += w.valid ? 1 : 0;
    return n;
  }
  unsigned dirty_lines() const {
    unsigned n = 0;
    for (const auto& s : sets_)
      for (const auto& w : s.ways) n += (w.valid && w.dirty) ? 1 : 0;
    return n;
  }
  bool resident(std::uint32_t addr) const {
    const Set& s = sets_[g_.set_of(addr)];
    for (const auto& w : s.ways)
      if (w.valid && w.tag == g_.tag_of(addr)) return true;
    return false;
  }
  const Counters& counters() const { return cnt_; }
  void clear_counters() { cnt_.fill(0); }
  Line dram(std::uint32_t line) const {
    auto it = dram_.find(line);
    return it == dram_.end() ? initial_line(line) : it->second;
  }

 private:
  struct Way {
    bool valid = false, dirty = false, pf = false;
    std::uint8_t dsid = 0;
    std::uint32_t tag = 0;
    Line data{};
  };
  struct Set {
    std::vector<Way> ways;
    std::vector<std::uint8_t> plru;  // WAYS-1 node bits, heap order
  };

  bool bad(const Req& r) const {
    if (r.addr & 0x3fU) return true;
    if (mem_limit_ != 0 && r.addr >= mem_limit_) return true;
    if (r.op != Op::write && r.wstrb != 0) return true;
    return static_cast<unsigned>(r.op) > 2;
  }
  static void merge(Line& l, const Req& r) {
    for (unsigned b = 0; b < l.size(); ++b)
      if ((r.wstrb >> b) & 1U) l[b] = r.wdata[b];
  }
  // Tree PLRU (docs/slc.md "Replacement"): node (2^l - 1) + p at level l, bit 0 = the victim
  // is in the left (lower) half; following the bits from the root gives the victim's index
  // MSB first. Touching a way sets every node on its path to point away from it.
  unsigned plru_victim(const Set& s) const {
    unsigned p = 0;
    for (unsigned l = 0; l < levels_; ++l) p = (p << 1) | (l < left_levels() ? 0U : s.plru[(1U << l) - 1 + p]);
    return p;
  }
  void touch(Set& s, unsigned w) const {
    for (unsigned l = 0; l < levels_; ++l) {
      const unsigned q = w >> (levels_ - l);
      s.plru[(1U << l) - 1 + q] = ((w >> (levels_ - 1 - l)) & 1U) ? 0 : 1;
    }
  }
  unsigned victim(const Set& s) const {
    for (unsigned w = 0; w < (g_.ways >> left_levels()); ++w)
      if (!s.ways[w].valid) return w;
    return plru_victim(s);
  }

 public:
  // WAY_LIMIT.ways (docs/slc.md "Way limit"): allocation uses ways [0, ways >> left_levels()),
  // the largest power of two not above the limit; 0 or >= the associativity: every way.
  void set_way_limit(unsigned ways) { way_limit_ = ways & 0xff; }
  unsigned left_levels() const {
    unsigned k = 0;
    while (way_limit_ != 0 && k < levels_ && way_limit_ < (g_.ways >> k)) ++k;
    return k;
  }

 private:
  unsigned way_limit_ = 0;

  Geometry g_;
  unsigned levels_ = 0;
  std::vector<Set> sets_;
  std::unordered_map<std::uint32_t, Line> dram_;
  Counters cnt_{};
  std::uint32_t mem_limit_ = 0;
};

}  // namespace slctb
