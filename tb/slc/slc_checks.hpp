// Scoreboards for the SLC benches (bench_slc.cpp, bench_slc_perf.cpp).
//   Serial    drives one request (or command) at a time and checks the response, the memory
//             traffic it caused and, on demand, every counter, LINES and per-DSID occupancy
//             against the reference model (slc_ref.hpp), which is exact for serial traffic.
//   FlatModel the flat-memory scoreboard for concurrent traffic: expected READ data at
//             acceptance, the delete / flush / invalidate semantics applied at completion,
//             deleted-dirty and invalidated-dirty line predictions from the observed memory
//             traffic, and the check that deleted dirty data never reaches memory.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "slc_env.hpp"
#include "slc_ref.hpp"

namespace slctb {

template <class V>
class Serial {
 public:
  explicit Serial(SlcEnv<V>& env) : env_(env), model_(env.params().geometry()) {}
  SlcModel& model() { return model_; }

  // One request: send, wait for the response, let the memory system settle, compare the
  // response (in the Upstream checker) and the memory traffic with the model.
  Task<Rsp> op(Req r) {
    std::vector<DnEvent> dn;
    const Rsp rsp = co_await env_.transact(r, [&](const Req& q, std::uint64_t) { return model_.access(q, dn); });
    co_await env_.quiesce();
    check_traffic(dn, tb::mem::describe(r));
    co_return rsp;
  }
  // One maintenance command; returns its latency (CMD write accepted -> done pulse).
  Task<std::uint64_t> cmd(unsigned op, std::uint8_t dsid = 0) {
    std::vector<DnEvent> dn;
    if (op == TS_SLC_CMD_DELETE) model_.remove_dsid(dsid);
    if (op == TS_SLC_CMD_FLUSH) model_.flush(dn);
    if (op == TS_SLC_CMD_INVALIDATE) model_.invalidate();
    const std::uint64_t lat = co_await env_.run_command(op, dsid);
    co_await env_.quiesce();
    check_traffic(dn, fmt::format("command {} dsid {}", op, dsid));
    co_return lat;
  }
  // A command issued outside cmd() (e.g. several queued back to back): apply it to the model;
  // its memory traffic is checked with the next op() or cmd().
  void apply_command(unsigned op, std::uint8_t dsid = 0) {
    if (op == TS_SLC_CMD_DELETE) model_.remove_dsid(dsid);
    if (op == TS_SLC_CMD_FLUSH) model_.flush(carry_);
    if (op == TS_SLC_CMD_INVALIDATE) model_.invalidate();
  }
  Task<> clear_counters() {
    co_await env_.reg_write(TS_SLC_CMD_OFFSET, TS_SLC_CMD_CLEAR_COUNTERS_MASK);
    model_.clear_counters();
  }
  // Every counter, LINES and the occupancy of the given DSIDs against the model.
  Task<> check_state(const std::vector<std::uint8_t>& dsids, const std::string& where) {
    const Counters got = co_await env_.read_counters();
    for (unsigned i = 0; i < kNumCnt; ++i)
      check(got[i] == model_.counters()[i], "{}: counter {} = {}, reference model says {}", where, cnt_name(i), got[i],
            model_.counters()[i]);
    const std::uint32_t lines = co_await env_.reg_read(TS_SLC_LINES_OFFSET);
    check(TS_SLC_LINES_VALID_GET(lines) == model_.valid_lines() && TS_SLC_LINES_DIRTY_GET(lines) == model_.dirty_lines(),
          "{}: LINES valid {} dirty {}, model {} / {}", where, TS_SLC_LINES_VALID_GET(lines),
          TS_SLC_LINES_DIRTY_GET(lines), model_.valid_lines(), model_.dirty_lines());
    for (std::uint8_t d : dsids) {
      const unsigned occ = co_await env_.occupancy(d);
      check(occ == model_.occupancy(d), "{}: OCC of DSID {} = {}, model {}", where, d, occ, model_.occupancy(d));
    }
  }
  // The memory image equals the model's DRAM on these lines.
  void check_memory(const std::vector<std::uint32_t>& lines, const std::string& where) const {
    for (std::uint32_t l : lines) {
      check(env_.mem.read(l) == model_.dram(l), "{}: memory line 0x{:08x} differs from the model:\n  got      {}\n  expected {}",
            where, l << 6, hex_line(env_.mem.read(l)), hex_line(model_.dram(l)));
    }
  }

 private:
  void check_traffic(std::vector<DnEvent> expect, const std::string& what) {
    expect.insert(expect.end(), carry_.begin(), carry_.end());
    carry_.clear();
    std::vector<DnEvent> got;
    const auto& log = env_.mem.log();
    for (; pos_ < log.size(); ++pos_) {
      const Req& q = log[pos_].req;
      got.push_back({q.op == Op::write, q.addr >> 6, q.op == Op::write ? q.wdata : Line{}});
    }
    std::sort(got.begin(), got.end());
    std::sort(expect.begin(), expect.end());
    if (got != expect) {
      std::string g, e;
      for (const auto& x : got) g += fmt::format(" {}@0x{:08x}", x.write ? "WB" : "FILL", x.line << 6);
      for (const auto& x : expect) e += fmt::format(" {}@0x{:08x}", x.write ? "WB" : "FILL", x.line << 6);
      tb::fail(fmt::format("memory traffic of {}:\n  got     {}\n  expected{}", what, g.empty() ? " (none)" : g,
                           e.empty() ? " (none)" : e));
    }
  }

  SlcEnv<V>& env_;
  SlcModel model_;
  std::size_t pos_ = 0;
  std::vector<DnEvent> carry_;
};

// Flat-memory scoreboard for concurrent traffic (see the file comment).
class FlatModel {
 public:
  struct LineState {
    Line data{};
    std::uint8_t writer = 0;   // DSID of the last WRITE
    bool written = false;      // written since the start or the last delete/invalidate of it
    bool wb_seen = true;       // its current data has been seen going to memory
    std::vector<Line> deleted; // versions dropped dirty by DELETE or INVALIDATE
  };

  explicit FlatModel(std::uint32_t mem_limit = 0) : limit_(mem_limit) {}

  LineState& at(std::uint32_t line) {
    auto it = lines_.find(line);
    if (it == lines_.end()) {
      LineState s;
      s.data = initial_line(line);
      it = lines_.emplace(line, s).first;
    }
    return it->second;
  }
  bool bad(const Req& r) const {
    return (r.addr & 0x3fU) || (limit_ && r.addr >= limit_) || (r.op != Op::write && r.wstrb) ||
           static_cast<unsigned>(r.op) > 2;
  }
  // At acceptance: the expected response; a WRITE updates the line.
  Rsp accept(const Req& r) {
    Rsp rsp;
    rsp.op = r.op;
    rsp.src = r.src;
    rsp.tag = r.tag;
    if (bad(r)) {
      rsp.err = true;
      ++errors;
      return rsp;
    }
    LineState& s = at(r.addr >> 6);
    if (r.op == Op::read) {
      ++reads;
      rsp.rdata = s.data;
    } else if (r.op == Op::write) {
      ++writes;
      for (unsigned b = 0; b < 64; ++b)
        if ((r.wstrb >> b) & 1U) s.data[b] = r.wdata[b];
      s.writer = r.dsid;
      s.written = true;
      s.wb_seen = false;
    } else {
      ++prefetches;
    }
    return rsp;
  }
  // A writeback seen by the memory.
  void writeback(std::uint32_t line, const Line& data) {
    LineState& s = at(line);
    if (data == s.data) {
      s.wb_seen = true;
    } else {
      for (const Line& d : s.deleted)
        check(d != data, "deleted dirty data of line 0x{:08x} reached memory: {}", line << 6, hex_line(data));
    }
  }
  // DELETE(d) completed. `mem` reads the memory image.
  template <class Mem>
  void deleted(std::uint8_t d, const Mem& mem) {
    if (d == 0) return;
    for (auto& [line, s] : lines_) {
      if (!s.written || s.writer != d) continue;
      if (!s.wb_seen) {  // resident and dirty at the delete: dropped without writeback
        ++deleted_dirty;
        s.deleted.push_back(s.data);
      }
      s.data = mem.read(line);
      s.written = false;
      s.wb_seen = true;
    }
  }
  template <class Mem>
  void invalidated(const Mem& mem) {
    for (auto& [line, s] : lines_) {
      if (s.written && !s.wb_seen) {
        ++inval_dirty;
        s.deleted.push_back(s.data);
      }
      s.data = mem.read(line);
      s.written = false;
      s.wb_seen = true;
    }
  }
  // FLUSH completed: every line's current data is in memory.
  template <class Mem>
  void flushed(const Mem& mem, const char* where) {
    for (auto& [line, s] : lines_) {
      check(mem.read(line) == s.data, "{}: after FLUSH memory line 0x{:08x} differs from the flat model:\n  got      {}\n  expected {}",
            where, line << 6, hex_line(mem.read(line)), hex_line(s.data));
      for (const Line& d : s.deleted)
        check(d == s.data || mem.read(line) != d, "{}: deleted dirty data of line 0x{:08x} is in memory", where, line << 6);
      s.wb_seen = true;
    }
  }
  std::size_t size() const { return lines_.size(); }

  std::uint64_t reads = 0, writes = 0, prefetches = 0, errors = 0, deleted_dirty = 0, inval_dirty = 0;

 private:
  std::uint32_t limit_;
  std::map<std::uint32_t, LineState> lines_;
};

}  // namespace slctb
