// fake_gpu.hpp -- the fake register layer behind the host build of the CP firmware
// (docs/firmware.md, "Host test layer"). It implements hal_rd / hal_wr / hal_wr_try /
// hal_mcycle / hal_minstret for the firmware compiled with CP_FW_HOST, and models, from the
// register descriptions in spec/registers/cpfw.yaml and slc.yaml (not from the RTL):
//  - the CPFW registers (queue mirrors, QUEUE_STATE, INT_RAISE, ERROR_ADDR/REPORT, FW_STATUS,
//    CONSOLE, WINDOW_DSID, PIPE_*, CACHE_*, FETCH[n], FETCH_ERR),
//  - GPU memory behind the GPU window and behind the fetch channels,
//  - fetch channels with FETCH_START / FETCH_EXTEND / FETCH_DATA semantics; a run's dwords are
//    captured when the run is started or extended (the hardware reads ahead), reading past the
//    run is an access fault and fails the test,
//  - a pipe recorder: every PIPE_PUSH as {opcode, queue, dsid, args}; PIPE_DONE advances only
//    when the test says so (or automatically, the default),
//  - the SLC command interface (CMD, CMD_COUNT, STATUS, CNT_*) with a completion delay and a
//    bounded command queue whose overflow answers the CMD write with an error,
//  - slice-cache maintenance (CACHE_CTRL / CACHE_STATUS.busy with a delay).
// Time advances by one per register access and by tick(), which the test calls between
// cp_fw_poll() rounds.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace cpfw_test {

struct PipeCmd {
  uint32_t opcode = 0;
  uint32_t queue = 0;
  uint32_t dsid = 0;
  std::vector<uint32_t> args;
  uint64_t time = 0;
};

struct SlcCmd {
  uint32_t op = 0;
  uint32_t dsid = 0;
  uint64_t issued_at = 0;
  uint64_t done_at = 0;  // 0 while pending
  uint32_t pipe_done_at_issue = 0;
};

struct ErrorReport {
  uint32_t code = 0;
  uint32_t queue = 0;
  uint32_t level = 0;
  uint32_t opcode = 0;
  uint32_t addr = 0;
};

struct MemWrite {
  uint32_t addr = 0;
  uint32_t value = 0;
  uint64_t time = 0;
};

struct FetchOp {
  uint32_t channel = 0;
  bool extend = false;  // false: FETCH_START
  uint32_t addr = 0;    // first dword added to the run
  uint32_t count = 0;
};

class FakeGpu {
 public:
  FakeGpu();

  // ---- configuration (set before cp_fw_init) ----
  uint32_t mem_limit = 1u << 20;  // CPFW.MEM_LIMIT
  uint32_t hw_queues = 2;         // HW_CONFIG.num_queues

  // ---- GPU memory ----
  uint32_t mem(uint32_t addr) const;
  void set_mem(uint32_t addr, uint32_t value);
  void put_mem(uint32_t addr, const std::vector<uint32_t> &dwords);
  std::set<uint32_t> error_words;  // fetches of the lines holding these words answer an error

  // ---- host side of a queue ----
  struct Queue {
    uint32_t base = 0;
    uint32_t log2 = 6;
    uint32_t wptr = 0;   // published
    uint32_t rptr = 0;   // written by the firmware
    uint32_t wpos = 0;   // host's next write position (may run ahead of wptr)
  };
  Queue queue[2];
  uint32_t enable_mask = 0;
  uint32_t halted_mask = 0;
  // Writes dwords at the host's write position; publishes (DOORBELL) if asked.
  void ring_write(uint32_t q, const std::vector<uint32_t> &dwords, bool publish = true);
  void publish(uint32_t q) { queue[q].wptr = queue[q].wpos; }
  uint32_t ring_addr(uint32_t q, uint32_t index) const;

  // ---- pipeline ----
  std::vector<PipeCmd> pipe;
  uint32_t pipe_issued = 0;
  uint32_t pipe_done = 0;
  bool auto_done = true;  // tick() completes every pushed command
  uint64_t pipe_done_time = 0;
  void complete_pipe(uint32_t n = 0xffffffffu);

  // ---- slice caches ----
  std::vector<uint32_t> cache_ops;  // CACHE_CTRL values written
  std::vector<uint64_t> cache_op_time;
  uint32_t cache_delay = 3;  // ticks busy after a CACHE_CTRL write
  uint32_t cache_busy_ticks = 0;
  uint64_t cache_done_time = 0;

  // ---- SLC ----
  std::vector<SlcCmd> slc_cmds;  // accepted commands, in order
  uint32_t slc_capacity = 4;     // command queue depth (queued + running)
  uint32_t slc_delay = 4;        // ticks per command
  bool slc_fault_on_full = true; // full: error response (true) or silent drop (false)
  uint32_t slc_drops = 0;
  uint32_t slc_issued = 0;
  uint32_t slc_completed = 0;
  std::map<uint32_t, uint32_t> slc_counters;  // CNT_* offset -> value
  size_t slc_pending() const { return slc_queue_.size(); }

  // ---- what the firmware reported ----
  std::vector<ErrorReport> errors;
  uint32_t error_addr = 0;
  uint32_t int_raise = 0;        // OR of INT_RAISE writes
  uint32_t int_raise_writes = 0;
  uint32_t queue_state = 0;
  std::vector<uint32_t> queue_state_log;
  uint32_t fw_status = 0;
  uint32_t window_dsid = 0xff;
  std::string console;
  std::vector<MemWrite> mem_writes;    // through the GPU window
  std::vector<uint32_t> window_reads;  // GPU addresses read through the window
  std::vector<FetchOp> fetch_ops;
  uint32_t fetch_err = 0;
  uint32_t pipe_args[8] = {};

  // ---- time ----
  uint64_t now = 0;
  void tick();

  // ---- the firmware's accesses ----
  uint32_t read(uint32_t core_addr);
  void write(uint32_t core_addr, uint32_t value);
  int write_try(uint32_t core_addr, uint32_t value);

  // Fetch channel state (for tests).
  size_t fetch_buffered(uint32_t ch) const { return chan_[ch].run.size(); }

 private:
  struct Channel {
    uint32_t addr_reg = 0;   // FETCH_ADDR as written
    uint32_t read_addr = 0;  // address of the next dword FETCH_DATA returns
    uint32_t fill_addr = 0;  // address after the run's last dword
    std::deque<std::pair<uint32_t, bool>> run;  // {dword, error}
  };
  Channel chan_[6];
  std::map<uint32_t, uint32_t> mem_;
  struct SlcPending {
    size_t index;
    uint32_t left;
  };
  std::deque<SlcPending> slc_queue_;

  void fill(uint32_t ch, uint32_t count);
  uint32_t cpfw_read(uint32_t off);
  void cpfw_write(uint32_t off, uint32_t value);
  uint32_t regwin_read(uint32_t off);
  bool regwin_write(uint32_t off, uint32_t value, bool may_fail);
  bool slc_cmd(uint32_t value, bool may_fail);
};

// The fake the hal_* functions talk to (set by the test fixture).
extern FakeGpu *g_fake;

}  // namespace cpfw_test
