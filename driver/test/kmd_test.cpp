// KMD: initialisation, rings that wrap, doorbells, fence retirement by polling and by
// interrupt, two queues ordered by barriers in both directions, device faults, unbalanced
// barriers detected while waiting, freeing memory that pending work still uses.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "tessera/driver/error.hpp"
#include "test_seed.hpp"
#include "test_util.hpp"

using namespace tessera::driver;
using namespace tessera::driver::test;

namespace {

// Counts the doorbell writes a KMD makes, forwarding everything to a RefDevice.
class CountingDevice final : public Device {
 public:
  explicit CountingDevice(RefDevice& d) : d_(d) {}
  std::string_view name() const override { return "counting"; }
  uint32_t read_reg(uint32_t o) override { return d_.read_reg(o); }
  void write_reg(uint32_t o, uint32_t v) override {
    for (unsigned q = 0; q < TS_CP_QUEUE_COUNT; ++q)
      if (o == TS_CP_DOORBELL_OFFSET_N(q)) ++doorbells[q];
    d_.write_reg(o, v);
  }
  void write_mem(uint32_t a, std::span<const uint8_t> b) override { d_.write_mem(a, b); }
  void read_mem(uint32_t a, std::span<uint8_t> b) override { d_.read_mem(a, b); }
  uint64_t memory_size() const override { return d_.memory_size(); }
  void advance(uint64_t c) override { d_.advance(c); }
  bool wait_interrupt(uint64_t t) override { return d_.wait_interrupt(t); }
  uint64_t cycles() const override { return d_.cycles(); }
  unsigned doorbells[TS_CP_QUEUE_COUNT] = {};

 private:
  RefDevice& d_;
};

CommandBuffer frames(Umd& umd, uint32_t first, uint32_t n, const std::string& name = {}) {
  CommandBuffer cb = umd.create_command_buffer(name);
  for (uint32_t i = 0; i < n; ++i) cb.frame_end(first + i);
  cb.close();
  return cb;
}

std::vector<uint32_t> frame_ids(const RefDevice& d, int queue = -1) {
  std::vector<uint32_t> f;
  for (const auto& c : d.pipe_log())
    if (c.opcode == TS_OP_FRAME_END && (queue < 0 || c.queue == queue)) f.push_back(c.args[0]);
  return f;
}

}  // namespace

// Catches: rings not programmed from the spec's fields, a non-Tessera device accepted, a queue
// count not taken from VERSION.
TEST(Kmd, InitProgramsRingsAndChecksTheDevice) {
  Rig r;
  EXPECT_EQ(r.kmd->num_queues(), 2u);
  for (unsigned q = 0; q < 2; ++q) {
    EXPECT_EQ(r.dev.read_reg(TS_CP_RING_BASE_OFFSET_N(q)), r.kmd->ring_addr(q));
    EXPECT_EQ(TS_CP_RING_SIZE_LOG2_DWORDS_GET(r.dev.read_reg(TS_CP_RING_SIZE_OFFSET_N(q))), 10u);
  }
  EXPECT_EQ(TS_CP_CTRL_QUEUE_ENABLE_GET(r.dev.read_reg(TS_CP_CTRL_OFFSET)), 3u);
  RefDevice one(RefDeviceConfig{.num_queues = 1});
  BinningState st;
  Kmd k1(one, st);
  k1.init();
  EXPECT_EQ(k1.num_queues(), 1u);

  struct Imposter final : Device {
    std::string_view name() const override { return "imposter"; }
    uint32_t read_reg(uint32_t) override { return 0xDEADBEEF; }
    void write_reg(uint32_t, uint32_t) override {}
    void write_mem(uint32_t, std::span<const uint8_t>) override {}
    void read_mem(uint32_t, std::span<uint8_t>) override {}
    uint64_t memory_size() const override { return 1 << 20; }
    void advance(uint64_t) override {}
    bool wait_interrupt(uint64_t) override { return false; }
    uint64_t cycles() const override { return 0; }
  } imp;
  Kmd k2(imp, st);
  try {
    k2.init();
    ADD_FAILURE() << "imposter accepted";
  } catch (const DriverError& e) {
    EXPECT_NE(std::string(e.what()).find("not a Tessera CP"), std::string::npos) << e.what();
  }
}

// Catches: ring pointers that do not wrap, a full ring overwritten instead of waited for, a
// doorbell per submission missing, fences retired out of order or early, memory of retired
// buffers not freed. A 16-dword ring holds two submissions (6 dwords each) at a time.
TEST(Kmd, RingWrapsDoorbellsAndFencesRetireInOrder) {
  RefDevice ref(RefDeviceConfig{.fence_latency = 3});
  CountingDevice dev(ref);
  BinningState st;
  Umd umd(st);
  KmdConfig kc;
  kc.ring_log2_dwords = 4;
  Kmd kmd(dev, st, kc);
  kmd.init();
  std::vector<Submission> subs;
  for (uint32_t i = 0; i < 25; ++i) {
    CommandBuffer cb = frames(umd, 10 * i, 1 + i % 3);
    subs.push_back(kmd.submit(cb, i % 2));  // waits for ring space when full
    kmd.poll();
    for (std::size_t k = 1; k < subs.size(); ++k)
      if (kmd.retired(subs[k])) {
        EXPECT_TRUE(kmd.retired(subs[k - 1]) || subs[k - 1].queue != subs[k].queue);
      }
  }
  EXPECT_GT(kmd.stats().ring_full_waits, 0u) << "the test should fill the ring";
  kmd.wait_idle();
  EXPECT_EQ(kmd.pending(), 0u);
  EXPECT_EQ(kmd.stats().retired, 25u);
  EXPECT_EQ(dev.doorbells[0] + dev.doorbells[1], 25u);
  EXPECT_EQ(kmd.completed_fence(0), 13u);
  EXPECT_EQ(kmd.completed_fence(1), 12u);
  std::vector<uint32_t> expect0, expect1;
  for (uint32_t i = 0; i < 25; ++i)
    for (uint32_t k = 0; k < 1 + i % 3; ++k) (i % 2 ? expect1 : expect0).push_back(10 * i + k);
  EXPECT_EQ(frame_ids(ref, 0), expect0);
  EXPECT_EQ(frame_ids(ref, 1), expect1);
  EXPECT_EQ(ref.read_reg(TS_CP_RING_RPTR_OFFSET_N(0)), (13u * 6u) % 16u) << "wrapped pointer";
}

// Catches: polling that never sees the fence, interrupt-driven waits that miss the interrupt,
// leave INT_STATUS set (an interrupt storm) or return before the fence, waiting by interrupt
// for a submission that will raise none.
TEST(Kmd, FenceRetirementByPollingAndByInterrupt) {
  Rig r(RigOptions{.device = RefDeviceConfig{.fence_latency = 40}});
  CommandBuffer a = frames(*r.umd, 1, 3), b = frames(*r.umd, 4, 3);
  const Submission sa = r.kmd->submit(a, 0);
  r.kmd->wait(sa, WaitMode::Poll);
  EXPECT_TRUE(r.kmd->retired(sa));
  EXPECT_EQ(r.kmd->stats().interrupts, 0u);
  const Submission sb = r.kmd->submit(b, 1, SubmitOptions{.interrupt = true});
  EXPECT_FALSE(r.kmd->retired(sb));
  r.kmd->wait(sb, WaitMode::Interrupt);
  EXPECT_TRUE(r.kmd->retired(sb));
  EXPECT_GE(r.kmd->stats().interrupts, 1u);
  EXPECT_FALSE(r.dev.interrupt_line()) << "the fence interrupt was acknowledged";
  CommandBuffer c = frames(*r.umd, 7, 1);
  const Submission sc = r.kmd->submit(c, 0);
  EXPECT_THROW(r.kmd->wait(sc, WaitMode::Interrupt), DriverError);
  r.kmd->wait(sc);
}

// Catches: barriers that do not order work across queues (in either direction), a waiting
// queue blocking the other one, order that depends on which queue was submitted first.
TEST(Kmd, TwoQueuesOrderedByBarriersInBothDirections) {
  for (bool q1_first : {false, true}) {
    SCOPED_TRACE(q1_first ? "queue 1 submitted first" : "queue 0 submitted first");
    Rig r;
    // queue 0: A, release 1, wait 2, C        queue 1: wait 1, B, release 2
    CommandBuffer q0 = r.umd->create_command_buffer("q0"), q1 = r.umd->create_command_buffer("q1");
    q0.frame_end(0xA);
    q0.barrier_update(1, 1);
    q0.barrier_wait(2, 1);
    q0.frame_end(0xC);
    q0.close();
    q1.barrier_wait(1, 1);
    q1.frame_end(0xB);
    q1.barrier_update(2, 1);
    q1.close();
    Submission s0, s1;
    if (q1_first) {
      s1 = r.kmd->submit(q1, 1);
      r.dev.advance(100);  // queue 1 blocks; queue 0 is empty
      s0 = r.kmd->submit(q0, 0);
    } else {
      s0 = r.kmd->submit(q0, 0);
      r.dev.advance(100);
      s1 = r.kmd->submit(q1, 1);
    }
    r.kmd->wait(s0);
    r.kmd->wait(s1);
    EXPECT_EQ(frame_ids(r.dev), (std::vector<uint32_t>{0xA, 0xB, 0xC}));
  }
}

// Catches: a device fault reported as a timeout (or not at all), the other queue stopped by
// it, the fault's record lost when the interrupt handler acknowledges it.
TEST(Kmd, DeviceFaultIsReportedAndTheOtherQueueRuns) {
  for (WaitMode mode : {WaitMode::Poll, WaitMode::Interrupt}) {
    Rig r;
    CommandBuffer bad = r.umd->create_command_buffer("bad");
    bad.indirect_buffer(static_cast<uint32_t>(r.dev.memory_size() - 4), 16);  // runs off the end of memory
    bad.close();
    const Submission sb = r.kmd->submit(bad, 1, SubmitOptions{.interrupt = true});
    CommandBuffer good = frames(*r.umd, 1, 2);
    const Submission sg = r.kmd->submit(good, 0, SubmitOptions{.interrupt = true});
    try {
      r.kmd->wait(sb, mode);
      ADD_FAILURE() << "no fault reported";
    } catch (const DeviceFault& e) {
      EXPECT_EQ(TS_CP_ERROR_STATUS_CODE_GET(e.error_status()), TS_CP_ERROR_BAD_ADDRESS);
      EXPECT_EQ(TS_CP_ERROR_STATUS_QUEUE_GET(e.error_status()), 1u);
      EXPECT_EQ(e.error_addr(), sb.gpu_addr);
      EXPECT_NE(std::string(e.what()).find("BAD_ADDRESS"), std::string::npos) << e.what();
    }
    r.kmd->wait(sg, mode);
    EXPECT_EQ(frame_ids(r.dev), (std::vector<uint32_t>{1, 2}));
  }
}

// Catches: a wait on work that waits for a barrier nothing submitted will ever set hanging
// until the timeout instead of reporting the unbalanced barrier.
TEST(Kmd, UnbalancedBarrierDetectedWhenWaiting) {
  Rig r;
  CommandBuffer w = r.umd->create_command_buffer("waiter");
  w.barrier_wait(5, 3);
  w.close();
  const Submission s = r.kmd->submit(w, 0);
  const uint64_t before = r.dev.cycles();
  try {
    r.kmd->wait(s);
    ADD_FAILURE() << "no error";
  } catch (const DriverError& e) {
    EXPECT_NE(std::string(e.what()).find("unbalanced barriers"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("barrier 5 >= 3"), std::string::npos) << e.what();
  }
  EXPECT_LT(r.dev.cycles() - before, 1000u) << "reported at once, not after a timeout";
  CommandBuffer p = r.umd->create_command_buffer("producer");
  p.barrier_update(5, 3);
  p.close();
  r.kmd->submit(p, 1);
  r.kmd->wait(s);
}

namespace {

// A buffer that renders into `target` (64x64), held pending behind barrier 7 until a producer
// sets it.
CommandBuffer renders_into(Rig& r, uint32_t target, const std::string& name, bool hold) {
  CommandBuffer cb = r.umd->create_command_buffer(name);
  if (hold) cb.barrier_wait(7, 1);
  RenderPassDesc d;
  d.name = "pass";
  d.width = 64;
  d.height = 64;
  d.color = Attachment{target, LoadOp::Clear, StoreOp::Store, nullptr};
  d.single_level_only = true;
  cb.begin_render_pass(d);
  cb.end_render_pass();
  cb.close();
  return cb;
}

}  // namespace

// Issue #14 item 9. Catches: Kmd::free of a render target that a pending submission still
// renders into handing the memory out again at once (the GPU would overwrite the new owner's
// data), the deferred memory never reclaimed after the submission retires, a second free of
// it accepted, and a later submission using the freed memory accepted (use after free).
TEST(Kmd, FreeOfMemoryInUseIsDeferredUntilTheSubmissionRetires) {
  Rig r;
  constexpr uint32_t kBytes = 64 * 64 * 4;
  const uint32_t rt = r.kmd->allocate(kBytes, 64);
  CommandBuffer cb = renders_into(r, rt, "uses rt", true);
  const Submission s = r.kmd->submit(cb, 0);
  r.dev.advance(1000);
  r.kmd->poll();
  ASSERT_FALSE(r.kmd->retired(s)) << "held behind barrier 7";

  const std::string addr = fmt::format("0x{:08x}", rt);
  r.kmd->free(rt);  // deferred: the pending submission still renders into it
  const uint32_t other = r.kmd->allocate(kBytes, 64);
  EXPECT_TRUE(other >= rt + kBytes || other + kBytes <= rt)
      << fmt::format("0x{:08x} handed out again while submission {} still renders into {}", other, s.id, addr);
  try {
    r.kmd->free(rt);
    ADD_FAILURE() << "second free accepted";
  } catch (const DriverError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(addr), std::string::npos) << m;
    EXPECT_NE(m.find("already freed"), std::string::npos) << m;
    EXPECT_NE(m.find(fmt::format("submission {} ('uses rt') on queue 0", s.id)), std::string::npos) << m;
  }
  CommandBuffer late = renders_into(r, rt, "late", false);
  try {
    r.kmd->submit(late, 1);
    ADD_FAILURE() << "a submission rendering into freed memory was accepted";
  } catch (const DriverError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("use after free"), std::string::npos) << m;
    EXPECT_NE(m.find(addr), std::string::npos) << m;
    EXPECT_NE(m.find("'late'"), std::string::npos) << m;
  }

  CommandBuffer producer = r.umd->create_command_buffer("producer");
  producer.barrier_update(7, 1);
  producer.close();
  r.kmd->submit(producer, 1);
  EXPECT_EQ(r.kmd->deferred_frees(), 1u);
  r.kmd->wait(s);
  EXPECT_EQ(r.kmd->deferred_frees(), 0u);
  EXPECT_EQ(r.kmd->stats().deferred_frees, 1u);
  EXPECT_EQ(r.kmd->stats().deferred_reclaimed, 1u);
  // Retired: the memory is reclaimed (first fit hands out the same place again) ...
  const uint32_t again = r.kmd->allocate(kBytes, 64);
  EXPECT_EQ(again, rt) << "the deferred free was never reclaimed";
  // ... and memory no submission uses is freed at once; freeing it twice is an error.
  r.kmd->free(again);
  EXPECT_EQ(r.kmd->allocate(kBytes, 64), rt);
  r.kmd->free(rt);
  EXPECT_THROW(r.kmd->free(rt), DriverError);
  r.kmd->free(other);
}
