// fake_gpu.cpp -- see fake_gpu.hpp. Register semantics from spec/registers/cpfw.yaml and
// spec/registers/slc.yaml; every access the firmware should never make fails the test (on the
// CP core it would be an access fault and a fatal trap).
#include "fake_gpu.hpp"

#include <gtest/gtest.h>

#include <cstdio>

#include "cp_hal.h"
#include "tessera_spec.h"

namespace cpfw_test {

FakeGpu *g_fake = nullptr;

namespace {

std::string hex(uint32_t v)
{
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

// Offset inside an array instance: returns the instance or -1.
int instance(uint32_t off, uint32_t first, uint32_t stride, uint32_t count, uint32_t member)
{
  if (off < first)
    return -1;
  const uint32_t rel = off - first;
  if (rel % stride != member || rel / stride >= count)
    return -1;
  return static_cast<int>(rel / stride);
}

}  // namespace

FakeGpu::FakeGpu()
{
  queue[0].base = 0x1000;
  queue[1].base = 0x2000;
}

uint32_t FakeGpu::mem(uint32_t addr) const
{
  const auto it = mem_.find(addr & ~3u);
  return it == mem_.end() ? 0 : it->second;
}

void FakeGpu::set_mem(uint32_t addr, uint32_t value)
{
  mem_[addr & ~3u] = value;
}

void FakeGpu::put_mem(uint32_t addr, const std::vector<uint32_t> &dwords)
{
  for (size_t i = 0; i < dwords.size(); i++)
    set_mem(addr + 4u * static_cast<uint32_t>(i), dwords[i]);
}

uint32_t FakeGpu::ring_addr(uint32_t q, uint32_t index) const
{
  const uint32_t mask = (1u << queue[q].log2) - 1u;
  return queue[q].base + 4u * (index & mask);
}

void FakeGpu::ring_write(uint32_t q, const std::vector<uint32_t> &dwords, bool do_publish)
{
  const uint32_t mask = (1u << queue[q].log2) - 1u;
  for (uint32_t d : dwords) {
    set_mem(ring_addr(q, queue[q].wpos), d);
    queue[q].wpos = (queue[q].wpos + 1u) & mask;
  }
  if (do_publish)
    publish(q);
}

void FakeGpu::complete_pipe(uint32_t n)
{
  const uint32_t pending = pipe_issued - pipe_done;
  pipe_done += n < pending ? n : pending;
  pipe_done_time = now;
}

void FakeGpu::tick()
{
  now += 50;
  if (auto_done && pipe_done != pipe_issued) {
    pipe_done = pipe_issued;
    pipe_done_time = now;
  }
  if (cache_busy_ticks != 0 && --cache_busy_ticks == 0)
    cache_done_time = now;
  if (!slc_queue_.empty()) {
    SlcPending &head = slc_queue_.front();
    if (head.left != 0)
      head.left--;
    if (head.left == 0) {
      slc_cmds[head.index].done_at = now;
      slc_completed = (slc_completed + 1u) & 0xffffu;
      slc_queue_.pop_front();
    }
  }
}

// ---- fetch channels ----------------------------------------------------------------------------

void FakeGpu::fill(uint32_t ch, uint32_t count)
{
  Channel &c = chan_[ch];
  for (uint32_t i = 0; i < count; i++) {
    const uint32_t a = c.fill_addr;
    // The memory answers whole 64-byte lines: one bad word spoils its line. The channel reads
    // ahead, so FETCH_ERR is set when the line arrives, before the firmware reads the dword.
    bool err = a >= mem_limit;
    for (uint32_t w = a & ~63u; w < (a & ~63u) + 64u && !err; w += 4)
      err = error_words.count(w) != 0;
    if (err)
      fetch_err |= 1u << ch;
    c.run.emplace_back(err ? 0u : mem(a), err);
    c.fill_addr += 4;
  }
}

// ---- CPFW registers ----------------------------------------------------------------------------

uint32_t FakeGpu::cpfw_read(uint32_t off)
{
  int n;
  switch (off) {
    case TS_CPFW_HW_CONFIG_OFFSET:
      return TS_CPFW_HW_CONFIG_NUM_QUEUES_PUT(hw_queues) | TS_CPFW_HW_CONFIG_NUM_CHANNELS_PUT(6);
    case TS_CPFW_MEM_LIMIT_OFFSET:
      return mem_limit;
    case TS_CPFW_QUEUE_ENABLE_OFFSET:
      return TS_CPFW_QUEUE_ENABLE_ENABLE_PUT(enable_mask) |
             TS_CPFW_QUEUE_ENABLE_HALTED_PUT(halted_mask);
    case TS_CPFW_QUEUE_STATE_OFFSET:
      return queue_state;
    case TS_CPFW_ERROR_ADDR_OFFSET:
      return error_addr;
    case TS_CPFW_WINDOW_DSID_OFFSET:
      return window_dsid;
    case TS_CPFW_FW_STATUS_OFFSET:
      return fw_status;
    case TS_CPFW_PIPE_STATUS_OFFSET:
      return TS_CPFW_PIPE_STATUS_IDLE_PUT(pipe_done == pipe_issued ? 1u : 0u);
    case TS_CPFW_PIPE_ISSUED_OFFSET:
      return pipe_issued;
    case TS_CPFW_PIPE_DONE_OFFSET:
      return pipe_done;
    case TS_CPFW_CACHE_STATUS_OFFSET:
      return TS_CPFW_CACHE_STATUS_BUSY_PUT(cache_busy_ticks != 0 ? 1u : 0u);
    case TS_CPFW_FETCH_ERR_OFFSET:
      return fetch_err;
    default:
      break;
  }
  if (off >= TS_CPFW_PIPE_ARG_OFFSET &&
      off < TS_CPFW_PIPE_ARG_OFFSET + TS_CPFW_PIPE_ARG_COUNT * TS_CPFW_PIPE_ARG_STRIDE)
    return pipe_args[(off - TS_CPFW_PIPE_ARG_OFFSET) / 4];
  if ((n = instance(off, TS_CPFW_QUEUE_OFFSET, TS_CPFW_QUEUE_STRIDE, 2, 0x0)) >= 0)
    return queue[n].base;
  if ((n = instance(off, TS_CPFW_QUEUE_OFFSET, TS_CPFW_QUEUE_STRIDE, 2, 0x4)) >= 0)
    return queue[n].log2;
  if ((n = instance(off, TS_CPFW_QUEUE_OFFSET, TS_CPFW_QUEUE_STRIDE, 2, 0x8)) >= 0)
    return queue[n].wptr;
  if ((n = instance(off, TS_CPFW_QUEUE_OFFSET, TS_CPFW_QUEUE_STRIDE, 2, 0xc)) >= 0)
    return queue[n].rptr;
  if ((n = instance(off, TS_CPFW_FETCH_OFFSET, TS_CPFW_FETCH_STRIDE, 6, 0x0)) >= 0)
    return chan_[n].read_addr;
  if ((n = instance(off, TS_CPFW_FETCH_OFFSET, TS_CPFW_FETCH_STRIDE, 6, 0x4)) >= 0)
    return static_cast<uint32_t>(chan_[n].run.size());
  if ((n = instance(off, TS_CPFW_FETCH_OFFSET, TS_CPFW_FETCH_STRIDE, 6, 0xc)) >= 0) {
    Channel &c = chan_[n];
    if (c.run.empty()) {
      ADD_FAILURE() << "FETCH[" << n << "].DATA read with no dword left in the run (access fault)";
      return 0;
    }
    const auto [v, err] = c.run.front();
    c.run.pop_front();
    c.read_addr += 4;
    if (err)
      fetch_err |= 1u << n;
    return v;
  }
  ADD_FAILURE() << "read of CPFW offset " << hex(off) << " (write-only or unmapped)";
  return 0;
}

void FakeGpu::cpfw_write(uint32_t off, uint32_t value)
{
  int n;
  switch (off) {
    case TS_CPFW_CONSOLE_OFFSET:
      console.push_back(static_cast<char>(TS_CPFW_CONSOLE_CHAR_GET(value)));
      return;
    case TS_CPFW_QUEUE_STATE_OFFSET:
      queue_state = value & TS_CPFW_QUEUE_STATE_RW_MASK;
      queue_state_log.push_back(queue_state);
      return;
    case TS_CPFW_INT_RAISE_OFFSET:
      int_raise |= TS_CPFW_INT_RAISE_FENCE_GET(value);
      int_raise_writes++;
      return;
    case TS_CPFW_ERROR_ADDR_OFFSET:
      error_addr = value;
      return;
    case TS_CPFW_ERROR_REPORT_OFFSET: {
      ErrorReport e;
      e.code = TS_CPFW_ERROR_REPORT_CODE_GET(value);
      e.queue = TS_CPFW_ERROR_REPORT_QUEUE_GET(value);
      e.level = TS_CPFW_ERROR_REPORT_IB_LEVEL_GET(value);
      e.opcode = TS_CPFW_ERROR_REPORT_OPCODE_GET(value);
      e.addr = error_addr;
      errors.push_back(e);
      halted_mask |= 1u << e.queue;  // the RTL halts the queue
      return;
    }
    case TS_CPFW_WINDOW_DSID_OFFSET:
      window_dsid = value;
      return;
    case TS_CPFW_FW_STATUS_OFFSET:
      fw_status = value;
      return;
    case TS_CPFW_PIPE_PUSH_OFFSET: {
      PipeCmd c;
      c.opcode = TS_CPFW_PIPE_PUSH_OPCODE_GET(value);
      c.queue = TS_CPFW_PIPE_PUSH_QUEUE_GET(value);
      c.dsid = TS_CPFW_PIPE_PUSH_DSID_GET(value);
      const uint32_t nargs = TS_CPFW_PIPE_PUSH_NARGS_GET(value);
      EXPECT_LE(nargs, 8u) << "PIPE_PUSH nargs";
      c.args.assign(pipe_args, pipe_args + (nargs <= 8 ? nargs : 8));
      c.time = now;
      pipe.push_back(c);
      pipe_issued++;
      return;
    }
    case TS_CPFW_CACHE_CTRL_OFFSET:
      EXPECT_EQ(cache_busy_ticks, 0u) << "CACHE_CTRL written while a maintenance runs";
      cache_ops.push_back(value);
      cache_op_time.push_back(now);
      cache_busy_ticks = cache_delay;
      return;
    case TS_CPFW_FETCH_ERR_OFFSET:
      fetch_err &= ~TS_CPFW_FETCH_ERR_CHANNEL_GET(value);
      return;
    default:
      break;
  }
  if (off >= TS_CPFW_PIPE_ARG_OFFSET &&
      off < TS_CPFW_PIPE_ARG_OFFSET + TS_CPFW_PIPE_ARG_COUNT * TS_CPFW_PIPE_ARG_STRIDE) {
    pipe_args[(off - TS_CPFW_PIPE_ARG_OFFSET) / 4] = value;
    return;
  }
  if ((n = instance(off, TS_CPFW_QUEUE_OFFSET, TS_CPFW_QUEUE_STRIDE, 2, 0xc)) >= 0) {
    queue[n].rptr = TS_CPFW_RPTR_PTR_GET(value);
    return;
  }
  if ((n = instance(off, TS_CPFW_FETCH_OFFSET, TS_CPFW_FETCH_STRIDE, 6, 0x0)) >= 0) {
    EXPECT_EQ(value & 3u, 0u) << "FETCH_ADDR not dword aligned";
    chan_[n].addr_reg = value;
    return;
  }
  if ((n = instance(off, TS_CPFW_FETCH_OFFSET, TS_CPFW_FETCH_STRIDE, 6, 0x4)) >= 0) {
    Channel &c = chan_[n];
    c.run.clear();
    c.read_addr = c.addr_reg;
    c.fill_addr = c.addr_reg;
    const uint32_t count = TS_CPFW_FETCH_START_COUNT_GET(value);
    fetch_ops.push_back({static_cast<uint32_t>(n), false, c.addr_reg, count});
    fill(static_cast<uint32_t>(n), count);
    return;
  }
  if ((n = instance(off, TS_CPFW_FETCH_OFFSET, TS_CPFW_FETCH_STRIDE, 6, 0x8)) >= 0) {
    Channel &c = chan_[n];
    const uint32_t count = TS_CPFW_FETCH_EXTEND_COUNT_GET(value);
    fetch_ops.push_back({static_cast<uint32_t>(n), true, c.fill_addr, count});
    fill(static_cast<uint32_t>(n), count);
    return;
  }
  ADD_FAILURE() << "write of " << hex(value) << " to CPFW offset " << hex(off)
                << " (read-only or unmapped)";
}

// ---- register window: the SLC block ------------------------------------------------------------

bool FakeGpu::slc_cmd(uint32_t value, bool may_fail)
{
  const uint32_t op = TS_SLC_CMD_OP_GET(value);
  if (op == TS_SLC_CMD_NONE)
    return true;
  if (slc_queue_.size() >= slc_capacity) {
    slc_drops++;
    if (!may_fail)
      ADD_FAILURE() << "SLC CMD written with a plain store while the queue is full: the error "
                       "response would be a fatal trap (use hal_wr_try)";
    return !slc_fault_on_full;  // silent drop: the store completes, nothing is queued
  }
  SlcCmd c;
  c.op = op;
  c.dsid = TS_SLC_CMD_DSID_GET(value);
  c.issued_at = now;
  c.pipe_done_at_issue = pipe_done;
  slc_cmds.push_back(c);
  slc_queue_.push_back({slc_cmds.size() - 1, slc_delay});
  slc_issued = (slc_issued + 1u) & 0xffffu;
  return true;
}

uint32_t FakeGpu::regwin_read(uint32_t off)
{
  if (off >= TS_SLC_BASE_ADDR && off < TS_SLC_BASE_ADDR + TS_SLC_SIZE) {
    const uint32_t r = off - TS_SLC_BASE_ADDR;
    switch (r) {
      case TS_SLC_STATUS_OFFSET:
        return TS_SLC_STATUS_BUSY_PUT(slc_queue_.empty() ? 0u : 1u);
      case TS_SLC_CMD_COUNT_OFFSET:
        return TS_SLC_CMD_COUNT_ISSUED_PUT(slc_issued) |
               TS_SLC_CMD_COUNT_COMPLETED_PUT(slc_completed);
      default:
        if (r >= TS_SLC_CNT_READS_OFFSET && r <= TS_SLC_CNT_MEM_ERRORS_OFFSET) {
          const auto it = slc_counters.find(r);
          return it == slc_counters.end() ? 0 : it->second;
        }
        break;
    }
  }
  ADD_FAILURE() << "register window read of host offset " << hex(off) << " (access fault)";
  return 0;
}

bool FakeGpu::regwin_write(uint32_t off, uint32_t value, bool may_fail)
{
  if (off == TS_SLC_BASE_ADDR + TS_SLC_CMD_OFFSET)
    return slc_cmd(value, may_fail);
  ADD_FAILURE() << "register window write of " << hex(value) << " to host offset " << hex(off)
                << " (not expected from the firmware)";
  return true;
}

// ---- dispatch ------------------------------------------------------------------------------------

uint32_t FakeGpu::read(uint32_t a)
{
  now++;
  if (a >= TS_CPFW_BASE_ADDR && a < TS_CPFW_BASE_ADDR + TS_CPFW_SIZE)
    return cpfw_read(a - TS_CPFW_BASE_ADDR);
  if (a >= CP_CORE_REGWIN_BASE && a < CP_CORE_REGWIN_BASE + 0x10000u)
    return regwin_read(a - CP_CORE_REGWIN_BASE);
  if (a >= CP_CORE_GPUWIN_BASE) {
    const uint32_t g = a - CP_CORE_GPUWIN_BASE;
    if (g >= mem_limit) {
      ADD_FAILURE() << "GPU window read beyond memory at " << hex(g) << " (access fault)";
      return 0;
    }
    window_reads.push_back(g);
    return mem(g);
  }
  ADD_FAILURE() << "read of unmapped core address " << hex(a) << " (access fault)";
  return 0;
}

void FakeGpu::write(uint32_t a, uint32_t v)
{
  now++;
  if (a >= TS_CPFW_BASE_ADDR && a < TS_CPFW_BASE_ADDR + TS_CPFW_SIZE) {
    cpfw_write(a - TS_CPFW_BASE_ADDR, v);
    return;
  }
  if (a >= CP_CORE_REGWIN_BASE && a < CP_CORE_REGWIN_BASE + 0x10000u) {
    regwin_write(a - CP_CORE_REGWIN_BASE, v, false);
    return;
  }
  if (a >= CP_CORE_GPUWIN_BASE) {
    const uint32_t g = a - CP_CORE_GPUWIN_BASE;
    if (g >= mem_limit) {
      ADD_FAILURE() << "GPU window write beyond memory at " << hex(g) << " (access fault)";
      return;
    }
    EXPECT_EQ(g & 3u, 0u) << "misaligned GPU window write";
    set_mem(g, v);
    mem_writes.push_back({g, v, now});
    return;
  }
  ADD_FAILURE() << "write of unmapped core address " << hex(a) << " (access fault)";
}

int FakeGpu::write_try(uint32_t a, uint32_t v)
{
  now++;
  if (a >= CP_CORE_REGWIN_BASE && a < CP_CORE_REGWIN_BASE + 0x10000u)
    return regwin_write(a - CP_CORE_REGWIN_BASE, v, true) ? 0 : 1;
  now--;
  write(a, v);
  return 0;
}

}  // namespace cpfw_test

// ---- the HAL of the host build -------------------------------------------------------------------

extern "C" uint32_t hal_rd(uint32_t core_addr)
{
  return cpfw_test::g_fake->read(core_addr);
}

extern "C" void hal_wr(uint32_t core_addr, uint32_t value)
{
  cpfw_test::g_fake->write(core_addr, value);
}

extern "C" int hal_wr_try(uint32_t core_addr, uint32_t value)
{
  return cpfw_test::g_fake->write_try(core_addr, value);
}

extern "C" uint64_t hal_mcycle(void)
{
  // Above 2^32 so the PERF_SAMPLE test sees both halves.
  return (1ull << 32) + cpfw_test::g_fake->now;
}

extern "C" uint64_t hal_minstret(void)
{
  return cpfw_test::g_fake->now / 2;
}
