// GpuSim and RtlDevice (sim/gpu; docs/cp.md "gpu_top and GpuSim"): the progress watchdog, the
// host memory path (DRAM backdoor under its coherence rule, the pipelined memory-system path),
// the models' GPU memory size and the cancellation hook. What each test would catch is said
// above it.
//
// Reproduce: RANDOM_SEED=<seed> ./test_gpu_sim --gtest_filter=<test>.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <ctime>
#include <random>
#include <regex>

#include "cp_host.hpp"
#include "tessera/driver/error.hpp"
#include "tessera/sim/rtl_device.hpp"
#include "tessera/sim/scene.hpp"
#include "tessera/sim/scene_runner.hpp"

using namespace cptest;
using tessera::sim::GpuSim;
using tessera::sim::GpuSimConfig;

namespace {

constexpr std::uint32_t kFenceArea = 0x0008'0000;

GpuSimConfig config(unsigned slices, std::uint64_t watchdog = 200'000) {
  GpuSimConfig c;
  c.slices = slices;
  c.seed = seed_from_env();
  c.echo_console = false;
  c.watchdog_cycles = watchdog;
  return c;
}

struct Env {
  GpuSim g;
  Host host;
  explicit Env(GpuSimConfig c) : g(std::move(c)), host(g) {
    fmt::print("seed {}\n", g.config().seed);
    g.reset();
    host.start();
  }
};

bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

tessera::sim::LoadedScene demo(std::uint32_t w, std::uint32_t h) {
  auto s = tessera::sim::load_scene(std::string(TESSERA_SOURCE_DIR) + "/scenes/demo/demo.yaml");
  s.width = w;
  s.height = h;
  return tessera::sim::load_assets(std::move(s));
}

std::vector<std::uint8_t> random_bytes(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

}  // namespace

// ---- progress watchdog ----------------------------------------------------------------------

// A pipeline that never accepts a command (the stand-in's ready held low) leaves the CP stuck in
// PIPE_PUSH with its queue unread. Catches: no watchdog (the test would step 2M cycles and
// fail), a watchdog that fires late (more than watchdog_cycles + 4096 after the last progress)
// or that does not name the CP queue holding the work.
TEST(GpuWatchdog, StuckPipelinePortNamesTheCpQueue) {
  constexpr std::uint64_t kWindow = 20'000;
  auto c = config(0, kWindow);
  c.pipe_ready_prob = 0;
  Env e(c);
  e.host.submit(0, cat({draw(3, 0x200000), draw(3, 0x210000), fence(kFenceArea, 1)}));
  const std::uint64_t t0 = e.g.cycle();
  try {
    e.g.step(2'000'000);
    FAIL() << "the watchdog did not fire in 2M cycles";
  } catch (const tessera::sim::WatchdogTimeout& x) {
    fmt::print("{}\n", x.what());
    EXPECT_GE(x.quiet_cycles(), kWindow);
    EXPECT_LE(x.quiet_cycles(), kWindow + 4096) << "fired late";
    EXPECT_LE(x.cycle() - t0, kWindow + 8192) << "fired late after the submission";
    EXPECT_TRUE(contains(x.what(), "CP queue 0 (RPTR")) << x.what();
    EXPECT_TRUE(contains(x.what(), "WPTR 0x" + fmt::format("{:x}", e.host.wptr(0)))) << x.what();
  }
}

// An idle GPU (the CP's firmware spinning, nothing submitted) and one that finished its work are
// not deadlocked. Catches a watchdog that counts time instead of pending work.
TEST(GpuWatchdog, IdleGpuDoesNotTrip) {
  Env e(config(0, 4096));
  e.g.step(30'000);
  e.host.submit(0, cat({draw(3, 0x200000), fence(kFenceArea, 7)}));
  e.host.wait_value(kFenceArea, 7, "the fence");
  e.g.step(30'000);
  SUCCEED();
}

// A normal frame on the 1-slice GPU, driven by the real driver stack (tessera-sim's SceneRunner
// on RtlDevice, default watchdog), never trips it and stays far below the window: the longest
// stretch without visible progress while the pipeline held commands is printed. Then the DRAM
// stops accepting requests (AR/AW/W READY low) in the middle of the next frame, with the window
// narrowed to 20k cycles to keep the test short. Catches: a progress signature that misses a
// block's work (the quiet stretch would grow towards the frame's length), no watchdog (the KMD
// would wait 400M cycles), a fault that is not a driver::DeviceFault, one later than the window
// + 4096 cycles after the last progress, or a message that does not name the DRAM, the SLC and
// the pipeline as the blocks holding work.
TEST(GpuWatchdog, NormalFramePassesAndDramStallMidFrameIsADeviceFault) {
  const auto ls = demo(64, 48);
  tessera::sim::RunConfig rc;
  rc.slices = 1;
  rc.seed = seed_from_env();
  tessera::sim::SceneRunner r(ls, rc);
  auto& sim = dynamic_cast<tessera::sim::RtlDevice&>(r.device()).sim();
  ASSERT_EQ(sim.config().watchdog_cycles, 200'000u) << "the documented default";
  // The scene's set-up (KMD rings, textures) happens before the CP reads memory: all of it
  // through the backdoor.
  const auto setup = sim.host_path_stats();
  fmt::print("set-up uploads: {} bytes through the backdoor, {} through the memory system, {} cycles\n",
             setup.write_backdoor_bytes, setup.write_memsys_bytes, setup.cycles);
  EXPECT_GT(setup.write_backdoor_bytes, 0u);
  EXPECT_EQ(setup.write_memsys_bytes, 0u);
  const std::uint64_t frame_cycles = r.run_frame(0).cycles;
  const std::uint64_t q = sim.watchdog_longest_quiet();
  fmt::print("demo frame (64x48, 1 slice): {} cycles; longest quiet stretch with pipeline work {} cycles "
             "(1024-cycle resolution; watchdog {})\n", frame_cycles, q, sim.config().watchdog_cycles);
  EXPECT_LT(q, sim.config().watchdog_cycles / 10);

  constexpr std::uint64_t kWindow = 20'000;
  sim.set_watchdog_cycles(kWindow);
  const std::uint64_t stall_at = sim.cycle() + frame_cycles / 4;
  std::uint64_t stalled = 0;
  sim.on_retire([&](std::uint32_t, std::uint32_t) {
    if (!stalled && sim.cycle() >= stall_at) {
      sim.dram().set_ready_stall(1.0);
      stalled = sim.cycle();
    }
  });
  try {
    r.run_frame(1);
    FAIL() << "the frame completed although the DRAM stopped at cycle " << stalled;
  } catch (const tessera::driver::DeviceFault& x) {
    fmt::print("DRAM stalled at cycle {}; {}\n", stalled, x.what());
    ASSERT_NE(stalled, 0u) << "the stall was never injected";
    // The slices go on with what their CCHEs hold for a while after the DRAM stops; the window
    // counts from the last progress, which the message states.
    std::smatch m;
    const std::string what = x.what();
    ASSERT_TRUE(std::regex_search(what, m, std::regex("progressed for ([0-9]+) cycles"))) << what;
    const std::uint64_t quiet = std::stoull(m[1]);
    EXPECT_GE(quiet, kWindow);
    EXPECT_LE(quiet, kWindow + 4096) << "fired late";
    EXPECT_LE(sim.cycle() - stalled, 3 * kWindow) << "fired late";
    EXPECT_TRUE(contains(x.what(), "DRAM (")) << x.what();
    EXPECT_TRUE(contains(x.what(), "does not accept")) << x.what();
    EXPECT_TRUE(contains(x.what(), "SLC (")) << x.what();
    EXPECT_TRUE(contains(x.what(), "pipeline (")) << x.what();
  }
}

// ---- cancellation -----------------------------------------------------------------------------

// Catches a cancel flag that is not looked at, or looked at too rarely (more than 4096 cycles).
TEST(GpuSimCancel, StepAndRunUntilStopWithin4096Cycles) {
  std::atomic<bool> cancel{false};
  auto c = config(0);
  c.cancel = &cancel;
  GpuSim g(c);
  g.reset();
  g.step(10'000);   // not set: runs
  cancel = true;
  std::uint64_t t0 = g.cycle();
  EXPECT_THROW(g.step(1'000'000), tessera::sim::SimulationCancelled);
  EXPECT_LE(g.cycle() - t0, 4096u);
  t0 = g.cycle();
  EXPECT_THROW(g.run_until([] { return false; }, 1'000'000), tessera::sim::SimulationCancelled);
  EXPECT_LE(g.cycle() - t0, 4096u);
}

// ---- GPU memory size --------------------------------------------------------------------------

// RtlDevice's default is the model's size; a smaller one is kept, a larger one refused naming
// both sizes. Catches the former fixed 16 MiB default and a device larger than its hardware.
TEST(GpuSimMemory, RtlDeviceDefaultIsTheHardwareSize) {
  EXPECT_EQ(GpuSim(config(1)).memory_bytes(), 256ull << 20);
  EXPECT_EQ(GpuSim(config(4)).memory_bytes(), 256ull << 20);
  EXPECT_EQ(tessera::sim::RtlDevice(config(0)).memory_size(), 16ull << 20);
  EXPECT_EQ(tessera::sim::RtlDevice(config(0), 8u << 20).memory_size(), 8ull << 20);
  try {
    tessera::sim::RtlDevice d(config(0), 32u << 20);
    FAIL() << "a device larger than the hardware was accepted";
  } catch (const std::invalid_argument& x) {
    EXPECT_TRUE(contains(x.what(), "33554432")) << x.what();
    EXPECT_TRUE(contains(x.what(), "16777216")) << x.what();
  }
}

// The size GpuSim reports is the one the hardware enforces: the CP's firmware (which reads
// CPFW.MEM_LIMIT, i.e. gpu_top MEM_BYTES) accepts a FENCE to the last dword and refuses one at
// the limit with BAD_ADDRESS. Catches a GpuSim size that disagrees with the model's parameter.
TEST(GpuSimMemory, FirmwareAgreesOnTheSize) {
  for (unsigned slices : {0u, 1u}) {
    SCOPED_TRACE(fmt::format("{} slice(s)", slices));
    Env e(config(slices));
    const auto limit = static_cast<std::uint32_t>(e.g.memory_bytes());
    e.host.submit(0, fence(limit - 4, 0x600d));
    e.host.wait_value(limit - 4, 0x600d, "the fence at the last dword");
    e.host.submit(0, fence(limit, 0xbad));
    e.host.wait([&] { return TS_CP_STATUS_QUEUE_HALTED_GET(e.g.reg_read(TS_CP_STATUS_OFFSET)) & 1U; },
                "queue 0 to halt on the fence at the limit");
    EXPECT_EQ(TS_CP_ERROR_STATUS_CODE_GET(e.g.reg_read(TS_CP_ERROR_STATUS_OFFSET)), TS_CP_ERROR_BAD_ADDRESS);
  }
}

// ---- host memory path -------------------------------------------------------------------------

// Right after reset the rule allows the backdoor; what it wrote (unaligned start and end) is
// read back through the memory system (crossbar, SLC, AXI, DRAM). Catches a backdoor write to
// the wrong place or a rule that refuses the backdoor on an empty memory system.
TEST(GpuHostPath, BackdoorWriteAfterResetReadsBackThroughTheMemorySystem) {
  GpuSim g(config(0));
  g.reset();
  const auto data = random_bytes(4099, seed_from_env());
  const std::uint32_t addr = 0x0030'0013;
  g.mem_write(addr, data);
  EXPECT_EQ(g.host_path_stats().write_backdoor_bytes, data.size());
  EXPECT_EQ(g.host_path_stats().write_memsys_bytes, 0u);
  g.set_host_backdoor(false);
  std::vector<std::uint8_t> back(data.size());
  g.mem_read(addr, back);
  EXPECT_EQ(g.host_path_stats().read_memsys_bytes, data.size());
  EXPECT_EQ(back, data);
}

// After GPU activity (the stand-in wrote a DSID-tagged line, so the SLC holds it dirty) a host
// write must update the SLC's copy: it goes through the memory system, a read sees it, and
// after an SLC FLUSH the DRAM holds it. Catches a rule that uses the backdoor while the SLC
// holds the line (the read would return the stand-in's bytes, the flush would overwrite DRAM).
TEST(GpuHostPath, WriteAfterGpuActivityUpdatesTheSlcCopy) {
  Env e(config(0));
  const std::uint32_t line = 0x0020'0000;
  e.host.submit(0, cat({dsid_set(3), draw(3, line), fence(kFenceArea, 1)}));
  e.host.wait_value(kFenceArea, 1, "the fence");
  std::vector<std::uint8_t> want(64);
  e.g.mem_read(line, want);   // the stand-in's pattern, from the SLC
  const auto before = e.g.host_path_stats();
  const auto data = random_bytes(20, seed_from_env() + 1);
  e.g.mem_write(line + 5, data);
  std::copy(data.begin(), data.end(), want.begin() + 5);
  const auto after = e.g.host_path_stats();
  EXPECT_EQ(after.write_backdoor_bytes, before.write_backdoor_bytes) << "backdoor used with lines in the SLC";
  EXPECT_EQ(after.write_memsys_bytes, before.write_memsys_bytes + data.size());
  std::vector<std::uint8_t> got(64);
  e.g.mem_read(line, got);
  EXPECT_EQ(got, want);
  e.g.reg_write(TS_SLC_BASE_ADDR + TS_SLC_CMD_OFFSET, TS_SLC_CMD_OP_PUT(TS_SLC_CMD_FLUSH));
  e.host.wait([&] { return !(e.g.reg_read(TS_SLC_BASE_ADDR + TS_SLC_STATUS_OFFSET) & TS_SLC_STATUS_BUSY_MASK); },
              "the SLC flush");
  std::vector<std::uint8_t> dram(64);
  e.g.dram().memory().read(line, dram);
  EXPECT_EQ(dram, want) << "DRAM after the flush";
}

// A 1 MiB upload on the 1-slice GPU (2 MiB SLC): the backdoor right after reset, the
// memory-system path with 16 lines in flight, and with one at a time (how every upload went
// before). Prints cycles and host bytes per wall-clock second; checks the data and that the
// pipelined path is faster in cycles than one at a time.
TEST(GpuHostPath, UploadFigures) {
  const auto data = random_bytes(1u << 20, seed_from_env() + 2);
  const std::uint32_t addr = 0x0100'0000;
  struct Run {
    const char* what;
    bool backdoor;
    unsigned window;
    std::uint64_t cycles = 0;
    double seconds = 0;
  };
  Run runs[] = {{"backdoor (after reset)", true, 16}, {"memory system, 16 in flight", false, 16},
                {"memory system, 1 in flight (before)", false, 1}};
  for (auto& run : runs) {
    auto c = config(1);
    c.host_backdoor = run.backdoor;
    c.host_window = run.window;
    GpuSim g(c);
    g.reset();
    const std::uint64_t c0 = g.cycle();
    const auto t0 = std::chrono::steady_clock::now();
    g.mem_write(addr, data);
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    run.cycles = g.cycle() - c0;
    EXPECT_EQ(g.host_path_stats().cycles, run.cycles);
    g.set_host_backdoor(false);
    std::vector<std::uint8_t> back(4096);
    g.mem_read(addr + (1u << 20) - 4096, back);
    EXPECT_TRUE(std::equal(back.begin(), back.end(), data.end() - 4096)) << run.what;
    fmt::print("1 MiB upload, {:<36} {:>9} cycles {:>8.3f} s {:>10.1f} MiB/s\n", run.what, run.cycles, run.seconds,
               1.0 / std::max(run.seconds, 1e-9));
  }
  EXPECT_LT(runs[1].cycles * 2, runs[2].cycles) << "pipelining the memory-system path";
  EXPECT_LT(runs[0].cycles, 100u) << "the backdoor costs a register read, not a transaction per line";
}


// Benchmark (run by hand: --gtest_also_run_disabled_tests --gtest_filter=*WatchdogCost*): the
// demo frame (64x48, 1 slice) with the watchdog off and on, interleaved, best of three in CPU
// time, so that other load on the machine affects both alike.
TEST(GpuWatchdog, DISABLED_WatchdogCost) {
  const auto ls = demo(64, 48);
  double best[2] = {1e30, 1e30};
  std::uint64_t cycles[2] = {0, 0};
  for (int rep = 0; rep < 3; ++rep)
    for (int on = 0; on < 2; ++on) {
      tessera::sim::RunConfig rc;
      rc.slices = 1;
      tessera::sim::SceneRunner r(ls, rc);
      dynamic_cast<tessera::sim::RtlDevice&>(r.device()).sim().set_watchdog_cycles(on ? 200'000 : 0);
      const std::clock_t t0 = std::clock();
      cycles[on] = r.run_frame(0).cycles;
      best[on] = std::min(best[on], static_cast<double>(std::clock() - t0) / CLOCKS_PER_SEC);
    }
  for (int on = 0; on < 2; ++on)
    fmt::print("watchdog {}: {} cycles, {:.2f} s CPU, {:.0f} cycles/s\n", on ? "on (200k)" : "off", cycles[on], best[on],
               static_cast<double>(cycles[on]) / best[on]);
  EXPECT_EQ(cycles[0], cycles[1]) << "the watchdog does not change what the GPU does";
}
