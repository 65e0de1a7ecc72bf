// System tests: the same command buffers on every Device backend, memory compared.
//
// Backends: the C++ reference device ("ref") and the RTL ("rtl": tessera::sim::RtlDevice, the
// verilated GPU top with the CP running its firmware, the memory system and the DRAM model).
// Every test below runs on both, and SameCommandBuffersSameMemoryOnEveryBackend compares the
// memory they leave behind.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>

#include "tessera/driver/error.hpp"
#include "tessera/sim/rtl_device.hpp"
#include "test_seed.hpp"
#include "test_util.hpp"

using namespace tessera::driver;
using namespace tessera::driver::test;

namespace {

const std::vector<std::string> kBackends = {"ref", "rtl"};

std::unique_ptr<Device> make_backend(const std::string& name) {
  if (name == "ref") return std::make_unique<RefDevice>();
  if (name == "rtl") {
    tessera::sim::GpuSimConfig c;
    c.seed = tessera::driver::test::test_seed();
    c.pipe_ready_prob = 0.8;
    c.echo_console = false;
    return std::make_unique<tessera::sim::RtlDevice>(c);
  }
  throw std::invalid_argument("unknown backend " + name);
}

// A driver stack on one backend.
struct Stack {
  explicit Stack(const std::string& backend) : dev(make_backend(backend)) {
    UmdConfig uc;
    uc.warn = [](const std::string&) {};
    umd = std::make_unique<Umd>(state, uc);
    KmdConfig kc;
    // On the RTL a memory read is a real transaction through the memory system (~100 cycles).
    if (backend == "rtl") kc.poll_interval_cycles = 256;
    kc.on_vdsid_released = [this](uint16_t v) { umd->release_vdsid(v); };
    kmd = std::make_unique<Kmd>(*dev, state, kc);
    kmd->init();
    umd->set_vis_buffer(VisBuffer{kmd->allocate(4096), 4096});
    buf = kmd->allocate(1 << 16, 4096);
    dev->write_dwords(buf, Dwords(1 << 14, 0));
  }
  BinningState state;
  std::unique_ptr<Device> dev;
  std::unique_ptr<Umd> umd;
  std::unique_ptr<Kmd> kmd;
  uint32_t buf = 0;  // 64 KiB the scenario writes (fences) and compares
};

// A frame on two queues: queue 0 renders into a DSID-tagged target and deletes it after queue 1
// read it (barriers both ways), each step fenced into the compared buffer. Returns the
// expected value of every fence dword.
std::map<uint32_t, uint32_t> scenario(Stack& s, bool two_level, std::mt19937_64& rng) {
  std::map<uint32_t, uint32_t> expect;
  s.state.set(two_level);
  ResourceGroup& target = s.umd->create_group(
      "target", {s.umd->create_resource(ResourceKind::RenderTarget, s.buf + 0x8000, 0x4000, "color")});
  CommandBuffer q0 = s.umd->create_command_buffer("q0", (rng() & 1) ? PatchMethod::Gpu : PatchMethod::Cpu);
  CommandBuffer q1 = s.umd->create_command_buffer("q1");
  q0.set_group(target);
  RenderPassDesc rp;
  rp.name = "scene";
  rp.width = 320;
  rp.height = 240;
  rp.color = Attachment{s.buf + 0x8000, LoadOp::Clear, StoreOp::Store, &target};
  q0.begin_render_pass(rp);
  for (uint32_t i = 0; i < 4; ++i) q0.draw(DrawDesc{.count = 3 + static_cast<uint32_t>(rng() % 300)});
  q0.end_render_pass();
  q0.fence(s.buf + 0, 0x100);
  q0.barrier_update(0, 1);
  q0.barrier_wait(1, 1);
  q0.delete_group(target);
  q0.fence(s.buf + 4, 0x101, FenceFlags{true, false, false});
  q0.frame_end(1);
  q0.close();
  q1.barrier_wait(0, 1);
  q1.fence(s.buf + 8, 0x200);
  q1.barrier_update(1, 1);
  q1.close();
  const Submission a = s.kmd->submit(q1, 1);
  const Submission b = s.kmd->submit(q0, 0, SubmitOptions{.interrupt = true});
  s.kmd->wait(b, WaitMode::Interrupt);
  s.kmd->wait(a);
  expect[s.buf + 0] = 0x100;
  expect[s.buf + 4] = 0x101;
  expect[s.buf + 8] = 0x200;
  return expect;
}

class SystemTest : public ::testing::TestWithParam<std::string> {};

}  // namespace

// Catches, on each backend: fences not written, barriers not ordering the queues, the DSID
// delete and its fence not completing, the KMD not reclaiming what it allocated.
TEST_P(SystemTest, FrameOnTwoQueuesWritesItsFences) {
  auto rng = test_rng();
  for (bool two : {false, true}) {
    Stack s(GetParam());
    const auto expect = scenario(s, two, rng);
    for (const auto& [addr, value] : expect) EXPECT_EQ(s.dev->read_mem32(addr), value) << std::hex << addr;
    EXPECT_EQ(s.kmd->pending(), 0u);
    EXPECT_EQ(s.kmd->hw_dsids_in_use(), 0u) << "the delete's fence released the hardware DSID";
    EXPECT_FALSE(s.umd->pool().allocated(1)) << "and the virtual one";
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, SystemTest, ::testing::ValuesIn(kBackends),
                         [](const auto& info) { return info.param; });

// Catches: backends that disagree on the memory image the same command buffers produce.
TEST(System, SameCommandBuffersSameMemoryOnEveryBackend) {
  if (kBackends.size() < 2) GTEST_SKIP() << "only the reference backend is built; RtlDevice lands with the CP";
  const uint64_t seed = tessera::driver::test::test_seed();
  std::vector<Dwords> images;
  for (const auto& b : kBackends) {
    std::mt19937_64 rng(seed);
    Stack s(b);
    scenario(s, true, rng);
    Dwords img(1 << 13);
    s.dev->read_dwords(s.buf, img);
    images.push_back(std::move(img));
  }
  for (std::size_t i = 1; i < images.size(); ++i) EXPECT_EQ(images[i], images[0]) << kBackends[i] << " vs ref";
}

// Catches: the firmware on the RTL and the reference device disagreeing on what the pipeline
// receives (order per queue, payloads, DSIDs, SET_REGS splitting) for the same command buffers.
// Single-level mode: the firmware does not replay two-level render passes yet.
TEST(System, SamePipelineCommandsOnEveryBackend) {
  const uint64_t seed = tessera::driver::test::test_seed();
  std::vector<std::vector<PipeCommand>> per_queue[2];
  for (const auto& b : kBackends) {
    std::mt19937_64 rng(seed);
    Stack s(b);
    scenario(s, false, rng);
    std::vector<PipeCommand> log;
    if (auto* ref = dynamic_cast<RefDevice*>(s.dev.get())) log = ref->pipe_log();
    if (auto* rtl = dynamic_cast<tessera::sim::RtlDevice*>(s.dev.get())) log = rtl->pipe_log();
    ASSERT_FALSE(log.empty()) << b;
    for (unsigned q = 0; q < 2; ++q) {
      std::vector<PipeCommand> mine;
      for (const auto& c : log)
        if (c.queue == q) mine.push_back(c);
      per_queue[q].push_back(std::move(mine));
    }
  }
  for (unsigned q = 0; q < 2; ++q)
    for (std::size_t i = 1; i < per_queue[q].size(); ++i) {
      ASSERT_EQ(per_queue[q][i].size(), per_queue[q][0].size()) << kBackends[i] << " queue " << q;
      for (std::size_t k = 0; k < per_queue[q][0].size(); ++k)
        EXPECT_EQ(per_queue[q][i][k], per_queue[q][0][k])
            << kBackends[i] << " queue " << q << " command " << k << ": " << format_pipe_command(per_queue[q][i][k])
            << " vs ref " << format_pipe_command(per_queue[q][0][k]);
    }
}
