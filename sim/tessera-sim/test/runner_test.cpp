// SceneRunner: the demo scene's command stream on the RTL and on the reference device.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "tessera/driver/error.hpp"
#include "tessera/sim/ref_frame_renderer.hpp"
#include "tessera/sim/rtl_device.hpp"
#include "tessera/sim/scene_runner.hpp"
#include "tessera/sim/texture.hpp"
#include "tessera_layouts.hpp"
#include "tessera_spec.h"

using namespace tessera::sim;
using tessera::driver::PipeCommand;

namespace {

LoadedScene demo(uint32_t w, uint32_t h) {
  Scene s = load_scene(std::string(TESSERA_SOURCE_DIR) + "/scenes/demo/demo.yaml");
  s.width = w;
  s.height = h;
  return load_assets(std::move(s));
}

struct Result {
  std::vector<FrameStats> frames;
  std::vector<PipeCommand> log;
  std::vector<uint8_t> memory;
  std::vector<uint8_t> screen;
};

struct Options {
  uint32_t slices = 2;
  bool least_loaded = false;
  tessera::driver::BinSize bin = tessera::driver::BinSize::Px32;
  uint32_t subbatch = 256;
  bool lrz = true;
};

// Runs `frames` frames; the reference backend renders with the reference renderer. Memory is
// read back from 0x1000 with the deleted targets' ranges zeroed (undefined after DSID_DELETE).
Result run(const LoadedScene& ls, const std::string& backend, uint32_t frames, uint32_t mem_bytes,
           const Options& o = {}, RefFrameRenderer* renderer = nullptr) {
  RunConfig rc;
  rc.backend = backend;
  rc.slices = o.slices;
  rc.least_loaded = o.least_loaded;
  rc.bin_size = o.bin;
  rc.subbatch = o.subbatch;
  rc.lrz = o.lrz;
  RefFrameRenderer own;
  if (backend == "ref" && !renderer) renderer = &own;
  SceneRunner r(ls, rc, backend == "ref" ? renderer : nullptr);
  Result out;
  for (uint32_t f = 0; f < frames; ++f) out.frames.push_back(r.run_frame(f));
  out.log = r.pipe_log();
  out.memory.resize(mem_bytes);
  r.device().read_mem(0x1000, out.memory);
  for (const auto& [addr, bytes] : r.deleted_target_ranges())
    for (uint32_t i = 0; i < bytes; ++i)
      if (addr + i >= 0x1000 && addr + i - 0x1000 < mem_bytes) out.memory[addr + i - 0x1000] = 0;
  out.screen = r.read_screen();
  return out;
}

}  // namespace

// Catches: the RTL's CP (firmware) and the reference device disagreeing on the demo scene's
// command stream -- what the pipeline receives, in order, with DSIDs -- or on the memory both
// leave behind (rings, command buffers, fences, delete fences, textures, vertex data, and the
// rendered targets: the RTL GPU's pixels against the reference renderer's, bit for bit).
// Also the stream's shape: one DRAW per draw, the render-to-texture group set and deleted.
TEST(Runner, DemoSameCommandStreamAndMemoryOnRtlAndRef) {
  const LoadedScene ls = demo(64, 48);
  const uint32_t kFrames = 2;
  // Everything the run wrote lies below the last non-zero byte of the reference's memory
  // (allocations start at 0x1000): compare that whole range.
  Result ref = run(ls, "ref", kFrames, 4u << 20);
  std::size_t used = ref.memory.size();
  while (used > 0 && ref.memory[used - 1] == 0) --used;
  used = (used + 63) & ~std::size_t{63};
  ASSERT_GT(used, 64u * 1024);
  ref.memory.resize(used);
  std::printf("comparing %zu bytes of GPU memory from 0x1000\n", used);
  const Result rtl = run(ls, "rtl", kFrames, static_cast<uint32_t>(used));
  ASSERT_EQ(rtl.log.size(), ref.log.size());
  for (std::size_t i = 0; i < ref.log.size(); ++i)
    ASSERT_EQ(rtl.log[i], ref.log[i]) << "command " << i << ": rtl " << format_pipe_command(rtl.log[i]) << " vs ref "
                                      << format_pipe_command(ref.log[i]);
  std::size_t first_diff = 0;
  while (first_diff < used && rtl.memory[first_diff] == ref.memory[first_diff]) ++first_diff;
  EXPECT_EQ(first_diff, used) << fmt::format("memory images differ first at 0x{:08x}", 0x1000 + first_diff);
  EXPECT_TRUE(rtl.screen == ref.screen) << "screen images differ";

  uint64_t draws = 0, frame_ends = 0, pipe = 0;
  for (const auto& c : ref.log) {
    draws += c.opcode == TS_OP_DRAW;
    frame_ends += c.opcode == TS_OP_FRAME_END;
  }
  for (const auto& f : rtl.frames) {
    pipe += f.pipe_commands;
    EXPECT_EQ(f.passes, 2u);
    EXPECT_EQ(f.dsid_deletes, 1u);
    EXPECT_GT(f.draws, 0u);
  }
  EXPECT_EQ(pipe, rtl.log.size());
  EXPECT_EQ(draws, rtl.frames[0].draws + rtl.frames[1].draws);
  EXPECT_EQ(frame_ends, kFrames);
  // The mirror pass writes with the render-to-texture group's DSID, the main pass with the
  // screen group's: two different non-zero hardware DSIDs.
  std::vector<uint8_t> rp_dsids;
  for (const auto& c : ref.log)
    if (c.opcode == TS_OP_RENDERPASS_BEGIN) rp_dsids.push_back(c.dsid);
  ASSERT_EQ(rp_dsids.size(), 2 * kFrames);
  EXPECT_NE(rp_dsids[0], 0);
  EXPECT_NE(rp_dsids[1], 0);
  EXPECT_NE(rp_dsids[0], rp_dsids[1]);
}

// Catches: statistics that do not agree with the blocks' own invariants: every SLC access is a
// hit or a miss; DRAM traffic is the SLC's fills and writebacks (every client goes through it);
// and an SLC too small to show the DSID delete's saving.
TEST(Runner, RtlCountersAgreeWithTheBlocks) {
  const LoadedScene ls = demo(64, 48);
  RunConfig rc;
  rc.backend = "rtl";
  SceneRunner r(ls, rc);
  const FrameStats st = r.run_frame(0);
  ASSERT_TRUE(st.slc && st.dram_read_bytes);
  EXPECT_GT(st.cycles, 0u);
  EXPECT_EQ(st.slc->hits + st.slc->misses, st.slc->reads + st.slc->writes);
  EXPECT_EQ(*st.dram_read_bytes, 64 * st.slc->fills);
  EXPECT_EQ(*st.dram_write_bytes, 64 * st.slc->writebacks);
  EXPECT_GT(st.slc->reads + st.slc->writes, 0u);
  // Issue 14 item 6: the demo's mirror target is still resident and dirty when the frame deletes
  // it, so the delete drops its lines instead of writing them back. At 64x48 this would hold
  // with a small SLC too: Runner.GpuModelsHaveTheRealisticSlc and
  // Cli.RenderToTextureDeleteSavesMoreThanTheOldSlcHeld tie the saving to the SLC's size.
  EXPECT_GT(st.slc->deleted_dirty, 0u) << "DSID_DELETE dropped no dirty line: the mirror target was evicted first";
}

// Catches (issue 14 item 6): a GPU model tessera-sim runs with an SLC below the system caches
// of the SoCs it stands for (docs/slc.md "Size": 2 MiB chosen; the old 128 KiB let the demo's
// render-to-texture target be evicted before its delete). Read from the SLC's own CONFIG
// register of every model tessera-sim uses (1, 2 and 4 slices), so it is the hardware's size,
// not a build setting's. Cli.RenderToTextureDeleteSavesMoreThanTheOldSlcHeld shows the effect.
TEST(Runner, GpuModelsHaveTheRealisticSlc) {
  const LoadedScene ls = demo(64, 48);
  for (uint32_t slices : {1u, 2u, 4u}) {
    RunConfig rc;
    rc.backend = "rtl";
    rc.slices = slices;
    SceneRunner r(ls, rc);
    const uint32_t cfg = r.device().read_reg(TS_SLC_BASE_ADDR + TS_SLC_CONFIG_OFFSET);
    const uint64_t bytes = uint64_t{TS_SLC_CONFIG_WAYS_GET(cfg)}
                           << TS_SLC_CONFIG_SETS_LOG2_GET(cfg) << 6;  // 64-byte lines
    EXPECT_GE(bytes, 2u << 20) << slices << " slice(s): SLC of " << bytes << " bytes";
  }
}

// Catches: the sliced RTL GPU's picture differing from the reference renderer's in any pixel,
// for 1, 2 and 4 slices, both PC_US distribution policies, every bin size and small sub-batches
// (so every slice gets geometry and triangles cross slices through VPC_US); the slices'
// fragment counters not adding up to the reference's (every pixel has exactly one owner).
struct SliceCase {
  uint32_t slices;
  bool least_loaded;
  tessera::driver::BinSize bin;
  uint32_t subbatch;
};
class RtlFramebuffer : public ::testing::TestWithParam<SliceCase> {};

TEST_P(RtlFramebuffer, EqualsTheReferenceRenderer) {
  const SliceCase c = GetParam();
  const LoadedScene ls = demo(64, 48);
  const Options o{c.slices, c.least_loaded, c.bin, c.subbatch};
  RefFrameRenderer ref_renderer;
  const Result ref = run(ls, "ref", 1, 64, o, &ref_renderer);
  const Result rtl = run(ls, "rtl", 1, 64, o);
  ASSERT_EQ(rtl.screen.size(), ref.screen.size());
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < ref.screen.size(); i += 4)
    if (std::memcmp(&rtl.screen[i], &ref.screen[i], 4) != 0 && bad++ == 0) first = i / 4;
  EXPECT_EQ(bad, 0u) << fmt::format("{} pixels differ, the first at ({}, {})", bad, first % 64, first / 64);

  const auto& sl = rtl.frames.at(0).slices;
  ASSERT_EQ(sl.size(), c.slices);
  uint64_t frags = 0, passed = 0, quads = 0, cche_wb = 0;
  for (const auto& s : sl) {
    frags += s.fragments;
    passed += s.fragments_passed;
    quads += s.quads;
    cche_wb += s.cche_writebacks;
    // Every slice's traffic goes through its CCHE (vertex fetch at least: every slice gets
    // sub-batches); a fill is a miss, and a slice writes back only lines it wrote.
    EXPECT_GT(s.cche_hits + s.cche_misses, 0u) << "a slice's CCHE saw no request";
    EXPECT_LE(s.cche_fills, s.cche_misses);
    EXPECT_LE(s.cche_writebacks, s.line_writes);
    // Every slice owns a tile of both targets except with 64x64 bins (the 64x48 screen is one
    // tile, the 128x128 mirror four): then a slice may legitimately get nothing.
    if (c.bin != tessera::driver::BinSize::Px64) {
      EXPECT_GT(s.triangles, 0u) << "a slice received no triangle";
    }
    EXPECT_GT(s.busy_cycles, 0u);
    // One activity per cycle: the eight counts add up to the frame's cycles exactly, and busy
    // is the five kinds of work (docs/raster.md "Where the cycles go").
    uint64_t sum = 0;
    for (uint64_t a : s.cycles) sum += a;
    EXPECT_EQ(sum, rtl.frames[0].cycles) << "a slice's activity cycles do not add up to the frame's";
    EXPECT_EQ(s.busy_cycles, s.cycles[3] + s.cycles[4] + s.cycles[5] + s.cycles[6] + s.cycles[7]);
    if (s.bins > 0) {   // with 64x64 bins a slice may own no tile (above)
      EXPECT_GT(s.cycles[5], 0u) << "a slice that rendered bins spent no cycle in setup";
      EXPECT_GT(s.cycles[6], 0u) << "a slice that rendered bins spent no cycle rasterizing";
    }
  }
  EXPECT_EQ(frags, ref_renderer.fragments());
  EXPECT_EQ(passed, ref_renderer.fragments_passed());
  EXPECT_EQ(quads, ref_renderer.quads());
  // The rendered targets reach memory through the CCHEs' writebacks (the screen above is read
  // from memory after the last RENDERPASS_END's flush).
  EXPECT_GT(cche_wb, 0u);
  std::printf("slices %u %s bin %u subbatch %u: %lu cycles, %lu fragments\n", c.slices,
              c.least_loaded ? "least-loaded" : "round-robin", 16u << static_cast<unsigned>(c.bin), c.subbatch,
              static_cast<unsigned long>(rtl.frames[0].cycles), static_cast<unsigned long>(frags));
}

using tessera::driver::BinSize;
INSTANTIATE_TEST_SUITE_P(
    Slices, RtlFramebuffer,
    ::testing::Values(SliceCase{1, false, BinSize::Px32, 256}, SliceCase{1, true, BinSize::Px64, 64},
                      SliceCase{2, false, BinSize::Px16, 32}, SliceCase{2, true, BinSize::Px32, 16},
                      SliceCase{4, false, BinSize::Px16, 16}, SliceCase{4, true, BinSize::Px64, 32}),
    [](const ::testing::TestParamInfo<SliceCase>& i) {
      return fmt::format("n{}_{}_bin{}_sb{}", i.param.slices, i.param.least_loaded ? "ll" : "rr",
                         16u << static_cast<unsigned>(i.param.bin), i.param.subbatch);
    });


namespace {

// Issue 14 item 1: a target that a pass accumulates into with color_load: load in every frame,
// sampled by the main pass. The cube moves right by 0.8 per frame.
constexpr const char* kAccumulateScene = R"(
frames: 2
target: {width: 32, height: 32}
targets: {rt: {width: 16, height: 16}}
camera: {position: [0, 0, 3], look_at: [0, 0, 0]}
passes:
  - {name: acc, target: rt, color_load: load, depth: {test: off, write: false}, cull: none,
     draws: [{mesh: {generate: cube, size: 0.5}, position: [-0.8, 0, 0], velocity: [0.8, 0, 0], lit: false, color: [1, 0, 0]}]}
  - {name: main, cull: none, draws: [{mesh: {generate: grid, size: 2.4, divisions: 1}, rotation: [90, 0, 0], texture: rt, lit: false}]}
)";

struct FrameImages {
  std::vector<std::vector<uint8_t>> screen, rt;  // per frame
};

FrameImages run_frames(const LoadedScene& ls, const std::string& backend, uint32_t frames) {
  RunConfig rc;
  rc.backend = backend;
  rc.slices = 1;
  RefFrameRenderer renderer;
  SceneRunner r(ls, rc, backend == "ref" ? &renderer : nullptr);
  FrameImages out;
  for (uint32_t f = 0; f < frames; ++f) {
    r.run_frame(f);
    out.screen.push_back(r.read_screen());
    std::vector<uint8_t> rt(16 * 16 * 4);
    r.device().read_mem(r.last_passes().at(0).color_addr, rt);
    out.rt.push_back(std::move(rt));
  }
  return out;
}

std::size_t count_rgba(const std::vector<uint8_t>& px, uint32_t rgba) {
  std::size_t n = 0;
  for (std::size_t i = 0; i + 3 < px.size(); i += 4)
    n += (px[i] | px[i + 1] << 8 | px[i + 2] << 16 | static_cast<uint32_t>(px[i + 3]) << 24) == rgba;
  return n;
}

}  // namespace

// Catches (issue 14 item 1): a render target that every frame loads being deleted after its
// last use, so frame 1 loads dropped lines. What the user sees: the RTL's and the reference's
// screens equal in every frame, no poison (what the reference returns for deleted lines) in
// any picture, and the accumulation visible: frame 1's target holds frame 0's red cube and
// frame 1's, so it has more red than frame 0's. Frame 0 loads the never-written target, which
// both backends define as zero: the target's untouched pixels are 0 (transparent black).
TEST(Runner, AccumulatingTargetSurvivesAcrossFrames) {
  const LoadedScene ls = load_assets(parse_scene(kAccumulateScene, "accumulate.yaml", ""));
  ASSERT_EQ(ls.scene.warnings.size(), 1u) << "the frame-0 load of the never-written target is warned about";
  const FrameImages ref = run_frames(ls, "ref", 2);
  const FrameImages rtl = run_frames(ls, "rtl", 2);
  const uint32_t red = 0xFF0000FFu, poison = tessera::sim::RefDevice::kDeletedPoison;
  for (uint32_t f = 0; f < 2; ++f) {
    EXPECT_TRUE(rtl.screen[f] == ref.screen[f]) << "frame " << f << ": RTL and reference screens differ";
    EXPECT_TRUE(rtl.rt[f] == ref.rt[f]) << "frame " << f << ": RTL and reference render targets differ";
    EXPECT_EQ(count_rgba(ref.screen[f], poison), 0u) << "frame " << f << " shows deleted (poisoned) lines";
    EXPECT_EQ(count_rgba(ref.rt[f], poison), 0u) << "frame " << f << ": the target was deleted while live";
  }
  const std::size_t red0 = count_rgba(ref.rt[0], red), red1 = count_rgba(ref.rt[1], red);
  EXPECT_GT(red0, 0u);
  EXPECT_GT(red1, red0) << "frame 1 did not accumulate onto frame 0's target";
  EXPECT_GT(count_rgba(ref.rt[0], 0u), 0u) << "frame 0's untouched target pixels are not zero";
}

// Catches (issue 14 item 1): a pass that loads a target nothing has rendered yet (frame 0)
// reading anything but the defined initial contents, zero, in colour or depth, on either
// backend; or the load quietly turned into a clear. The pass loads colour and depth, clears to
// red and depth 1 if it cleared, draws nothing and stores both: the target must read back 0.
TEST(Runner, LoadBeforeRenderReadsZero) {
  const LoadedScene ls = load_assets(parse_scene(R"(
frames: 1
target: {width: 32, height: 32}
targets: {rt: {width: 16, height: 16}}
passes:
  - {name: acc, target: rt, color_load: load, depth_load: load, depth_store: true,
     clear_color: [1, 0, 0, 1], clear_depth: 1, draws: []}
  - {name: main, draws: [{mesh: {generate: grid, size: 2, divisions: 1}, rotation: [90, 0, 0],
                          texture: rt, lit: false}]}
)", "load_before_render.yaml", ""));
  ASSERT_EQ(ls.scene.warnings.size(), 1u) << "the frame-0 load of the never-written target is warned about";
  for (const char* backend : {"ref", "rtl"}) {
    RunConfig rc;
    rc.backend = backend;
    rc.slices = 1;
    RefFrameRenderer renderer;
    SceneRunner r(ls, rc, rc.backend == "ref" ? &renderer : nullptr);
    r.run_frame(0);
    const GpuPass& p = r.last_passes().at(0);
    ASSERT_EQ(p.name, "acc");
    std::vector<uint8_t> color(16 * 16 * 4), depth(16 * 16 * 4);
    r.device().read_mem(p.color_addr, color);
    r.device().read_mem(p.depth_addr, depth);
    EXPECT_EQ(count_rgba(color, 0u), 16u * 16u) << backend << ": colour is not zero after the load";
    EXPECT_EQ(count_rgba(depth, 0u), 16u * 16u) << backend << ": depth is not zero after the load";
  }
}

// Catches: the reference device not modelling DSID_DELETE, so a delete of live data would read
// back the old data on the reference and hide. After the demo's frame, the render-to-texture
// target (deleted after its last use) reads back kDeletedPoison in every dword, the screen
// (never deleted) holds no poison.
TEST(Runner, ReferenceDevicePoisonsDeletedTargets) {
  const LoadedScene ls = demo(64, 48);
  RunConfig rc;
  rc.backend = "ref";
  RefFrameRenderer renderer;
  SceneRunner r(ls, rc, &renderer);
  r.run_frame(0);
  const auto ranges = r.deleted_target_ranges();
  ASSERT_FALSE(ranges.empty());
  auto* ref = dynamic_cast<tessera::sim::RefDevice*>(&r.device());
  ASSERT_NE(ref, nullptr);
  EXPECT_GT(ref->poisoned_lines(), 0u);
  const auto [addr, bytes] = ranges.front();  // the color buffer (color store is STORE)
  std::vector<uint8_t> px(bytes);
  r.device().read_mem(addr, px);
  EXPECT_EQ(count_rgba(px, tessera::sim::RefDevice::kDeletedPoison), bytes / 4);
  EXPECT_EQ(count_rgba(r.read_screen(), tessera::sim::RefDevice::kDeletedPoison), 0u);
}

// Catches (issue 14 item 4): a scene that cannot fit GPU memory failing late with a raw "out of
// GPU memory: N bytes" after loading. The check at load time names the need, the memory and
// the largest users with file and line; the default memory holds the documented maximum (a
// 2048x2048 screen and a 2048x2048 texture).
TEST(Runner, SceneMemoryNeedIsCheckedAtLoadWithTheCulprit) {
  // A scene with a 2048x2048 screen and a 2048x2048 texture (48 MiB), built in memory.
  LoadedScene ls;
  ls.scene = parse_scene(R"(
target: {width: 2048, height: 2048}
passes:
  - {draws: [{mesh: {generate: cube}}]}
)", "big.yaml", "");
  ls.meshes = load_assets(ls.scene).meshes;
  Texture tex;
  tex.width = tex.height = 2048;
  tex.rgba.assign(2048u * 2048u * 4u, 0);
  ls.textures["big.png"] = tex;
  EXPECT_NO_THROW(check_scene_memory(ls, kDefaultGpuMemoryBytes));
  try {
    check_scene_memory(ls, 16u << 20);
    FAIL() << "a 48 MiB scene fitted 16 MiB";
  } catch (const SceneMemoryError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("big.yaml"), std::string::npos) << m;
    // Every culprit with file and line: the screen by the scene's `target:` (line 2), the
    // draw by its entry in the pass (line 4).
    EXPECT_NE(m.find("target 'screen' 2048x2048 (big.yaml:2:"), std::string::npos) << m;
    EXPECT_NE(m.find("texture 'big.png' 2048x2048"), std::string::npos) << m;
    EXPECT_NE(m.find("draw pass0.draws[0]"), std::string::npos) << m;
    EXPECT_NE(m.find("(big.yaml:4:"), std::string::npos) << m;
    EXPECT_NE(m.find("--memory-mib"), std::string::npos) << m;
  }
}

// Catches (issue 14 item 12): a deadlock report that does not say which slices hold the work,
// or that reaches tessera-sim as anything but the driver's DeviceFault (what its user sees as
// "tessera-sim: error: ..."; GpuSim's own WatchdogTimeout must not leak through RtlDevice). The
// DRAM stops accepting requests a third of the way into the demo's second frame on the 1-slice GPU
// (window narrowed to 20k cycles): the report names the geometry slice with primitives
// outstanding, the raster slice whose cycles still go to work and its CCHE, besides the DRAM.
TEST(Runner, WatchdogNamesTheStalledSlices) {
  const LoadedScene ls = demo(64, 48);
  RunConfig rc;
  rc.backend = "rtl";
  rc.slices = 1;
  SceneRunner r(ls, rc);
  auto& sim = dynamic_cast<RtlDevice&>(r.device()).sim();
  const uint64_t frame_cycles = r.run_frame(0).cycles;
  sim.set_watchdog_cycles(20'000);
  // a third into the main pass: geometry still busy (half way, the faster raster slices of
  // issue 16 found the geometry done)
  const uint64_t stall_at = sim.cycle() + frame_cycles / 3;
  bool stalled = false;
  sim.on_retire([&](uint32_t, uint32_t) {
    if (!stalled && sim.cycle() >= stall_at) {
      sim.dram().set_ready_stall(1.0);
      stalled = true;
    }
  });
  try {
    r.run_frame(1);
    FAIL() << "the frame completed although the DRAM stopped";
  } catch (const tessera::driver::DeviceFault& x) {
    const std::string what = x.what();
    std::printf("%s\n", what.c_str());
    ASSERT_TRUE(stalled) << "the stall was never injected";
    EXPECT_NE(what.find("GPU watchdog"), std::string::npos) << what;
    EXPECT_NE(what.find("geometry slice 0 ("), std::string::npos) << what;
    EXPECT_NE(what.find("raster slice 0 (its cycles go to"), std::string::npos) << what;
    // the stalled DRAM holds a CCHE miss or writeback (the CCHE's busy output)
    EXPECT_NE(what.find("CCHE of slice "), std::string::npos) << what;
    EXPECT_NE(what.find("DRAM ("), std::string::npos) << what;
  }
}

// Catches (issue 16 item 7, docs/raster.md "LRZ"): the shipped overdraw scene (eight
// screen-filling layers drawn front to back) leaving more than 10% of its hidden quads to the
// fragment shader on the 4-slice GPU; the LRZ removing a quad that was not hidden (the quads it
// removes must equal the hidden quads it removes); the picture changing with the LRZ, or
// differing from the reference renderer's. Prints the figure.
TEST(Runner, OverdrawSceneLrzRemovesTheHiddenQuads) {
  const LoadedScene ls = load_assets(load_scene(std::string(TESSERA_SOURCE_DIR) + "/scenes/overdraw/overdraw.yaml"));
  Options o;
  o.slices = 4;
  RefFrameRenderer ref_renderer;
  const Result ref = run(ls, "ref", 1, 64, o, &ref_renderer);
  uint64_t quads[2] = {}, hidden[2] = {}, rejected[2] = {}, cycles[2] = {};
  std::vector<uint8_t> screen[2];
  for (int lrz : {0, 1}) {
    o.lrz = lrz != 0;
    const Result r = run(ls, "rtl", 1, 64, o);
    screen[lrz] = r.screen;
    cycles[lrz] = r.frames.at(0).cycles;
    for (const auto& s : r.frames.at(0).slices) {
      quads[lrz] += s.quads;
      hidden[lrz] += s.quads_hidden;
      rejected[lrz] += s.lrz_rejected_quads;
    }
  }
  EXPECT_TRUE(screen[0] == ref.screen) << "LRZ off: the picture differs from the reference renderer's";
  EXPECT_TRUE(screen[1] == ref.screen) << "LRZ on: the picture differs from the reference renderer's";
  EXPECT_EQ(quads[1], ref_renderer.quads()) << "the reference renderer's LRZ rejects other quads";
  EXPECT_EQ(rejected[0], 0u) << "--lrz off still rejected quads";
  ASSERT_GT(hidden[0], 0u);
  EXPECT_EQ(quads[0] - quads[1], hidden[0] - hidden[1]) << "the LRZ removed quads that were not hidden";
  const double share = double(hidden[0] - hidden[1]) / double(hidden[0]);
  std::printf("FIGURE overdraw scene (8 layers, 320x240, 4 slices): LRZ off %lu quads, %lu hidden, %lu cycles; "
              "LRZ on %lu quads, %lu hidden, %lu cycles, %lu quad positions rejected: %.1f%% of the hidden quads "
              "removed before FS (target 90%%)\n",
              static_cast<unsigned long>(quads[0]), static_cast<unsigned long>(hidden[0]),
              static_cast<unsigned long>(cycles[0]), static_cast<unsigned long>(quads[1]),
              static_cast<unsigned long>(hidden[1]), static_cast<unsigned long>(cycles[1]),
              static_cast<unsigned long>(rejected[1]), 100.0 * share);
  EXPECT_GE(share, 0.90);
}

// Issue 18: patch draws on the RTL (docs/tessellation.md "Patch draws on the RTL").
// Catches: the RTL tessellator's triangles differing from the reference's in any vertex (a
// picture pixel moves), a patch's triangles out of order against the next draw's (depth test
// LESS with overlapping draws makes order visible), TF records read from the wrong place,
// a patch kind's factors taken from the wrong tf_record fields, patches lost or counted twice
// across sub-batches and slices (small sub-batches spread the patches over every slice).
// Asymmetric data: an off-centre camera gives every quad patch its own distance factor, and the
// triangle patches are lit and coloured differently from the quad grid.
namespace {
constexpr const char* kPatchScene = R"(
frames: 1
target: {width: 64, height: 48}
camera: {position: [1.2, 2.5, 3.5], look_at: [0, 0, 0]}
passes:
  - name: main
    clear_color: [0.1, 0.1, 0.2, 1]
    depth: {test: less, write: true}
    cull: none
    draws:
      - {mesh: {generate: patch_grid, size: 3, divisions: 3}, color: [0.9, 0.6, 0.2],
         tess: {rule: distance, min: 1, max: 9, near: 2.5, far: 5.5}}
      - {mesh: {generate: patch_tris, size: 2, divisions: 2}, position: [0.3, 0.4, 0.2], rotation: [20, 30, 0],
         color: [0.2, 0.7, 0.9], tess: {factor: 5}}
)";
}  // namespace

class RtlPatches : public ::testing::TestWithParam<uint32_t> {};

TEST_P(RtlPatches, EqualTheReferenceRenderer) {
  const uint32_t slices = GetParam();
  const LoadedScene ls = load_assets(parse_scene(kPatchScene, "patches.yaml", ""));
  const Options o{slices, false, tessera::driver::BinSize::Px16, 16};
  RefFrameRenderer ref_renderer;
  const Result ref = run(ls, "ref", 1, 64, o, &ref_renderer);
  const Result rtl = run(ls, "rtl", 1, 64, o);
  ASSERT_EQ(rtl.screen.size(), ref.screen.size());
  std::size_t bad = 0, first = 0, lit = 0;
  for (std::size_t i = 0; i < ref.screen.size(); i += 4) {
    if (std::memcmp(&rtl.screen[i], &ref.screen[i], 4) != 0 && bad++ == 0) first = i / 4;
    lit += ref.screen[i] + ref.screen[i + 1] + ref.screen[i + 2] > 150;  // clear (0.1, 0.1, 0.2) sums to 102
  }
  EXPECT_EQ(bad, 0u) << fmt::format("{} pixels differ, the first at ({}, {})", bad, first % 64, first / 64);
  EXPECT_GT(lit, 64u * 48u / 8) << "the patches cover too little of the screen for the test to mean anything";
  ASSERT_TRUE(rtl.frames.at(0).tess.has_value());
  ASSERT_TRUE(ref.frames.at(0).tess.has_value());
  const auto& t = *rtl.frames[0].tess;
  EXPECT_EQ(t, *ref.frames[0].tess) << fmt::format("RTL patches/triangles/segments {}/{}/{}", t.patches, t.triangles,
                                                    t.isoline_segments);
  EXPECT_GT(t.triangles, 2 * t.patches) << "the factors should not all be 1";
  EXPECT_GT(t.thread_groups, 0u);
  // The tessellation stage's timing counters (RTL only): it was busy, and every thread group's
  // HS took at least its register latency (60 + 10 per patch, +1: done the cycle after).
  ASSERT_TRUE(rtl.frames[0].throttle.has_value());
  EXPECT_FALSE(ref.frames[0].throttle.has_value());
  const auto& th = *rtl.frames[0].throttle;
  uint64_t busy = 0;
  for (uint64_t c : th.in_flight) busy += c;
  EXPECT_GT(busy, 0u) << "the stage's in-flight histogram counted no busy cycle";
  EXPECT_GE(th.hs_latency_sum, t.thread_groups * (60 + 10 + 1));
  std::printf("patches, %u slice(s): %lu patches, %lu triangles, %lu cycles\n", slices,
              static_cast<unsigned long>(t.patches), static_cast<unsigned long>(t.triangles),
              static_cast<unsigned long>(rtl.frames[0].cycles));
}

INSTANTIATE_TEST_SUITE_P(Slices, RtlPatches, ::testing::Values(1u, 2u, 4u),
                         [](const ::testing::TestParamInfo<uint32_t>& i) { return fmt::format("n{}", i.param); });

namespace {

// Issue 17: two-level binning end to end on the RTL GPU. A 112x72 target is 2 x 2 blocks of 64
// pixels, the last column 48 and the last row 8 pixels wide, so the coarse grids below do not
// divide the screen evenly.
struct TwoLevelCase {
  uint32_t slices;
  tessera::driver::BinSize bin;
  tessera::driver::BinningInfo grid;
  tessera::driver::PatchMethod patch;
  std::vector<bool> modes;   // per frame: two-level?
};
class RtlTwoLevel : public ::testing::TestWithParam<TwoLevelCase> {};

std::vector<std::vector<uint8_t>> screens(const LoadedScene& ls, const std::string& backend, const TwoLevelCase& c,
                                          const std::vector<bool>& modes, std::vector<FrameStats>* stats = nullptr,
                                          std::vector<std::vector<uint8_t>>* vis = nullptr) {
  RunConfig rc;
  rc.backend = backend;
  rc.slices = c.slices;
  rc.bin_size = c.bin;
  rc.two_level_binning = c.grid;
  rc.patch = c.patch;
  RefFrameRenderer renderer;
  SceneRunner r(ls, rc, backend == "ref" ? &renderer : nullptr);
  std::vector<std::vector<uint8_t>> out;
  for (uint32_t f = 0; f < modes.size(); ++f) {
    r.set_two_level(modes[f], "test");
    const FrameStats st = r.run_frame(f);
    if (stats) stats->push_back(st);
    out.push_back(r.read_screen());
    if (vis) vis->push_back(r.read_vis_buffer());
  }
  return out;
}

}  // namespace

// Catches: a two-level frame on the RTL whose picture differs from the reference's, or from the
// same frame rendered PBB (what the user sees must not depend on the binning mode), for 1, 2 and
// 4 slices, every bin size, raster and serpentine orders, vis_first, 1x1 and uneven grids, a mode
// that changes from frame to frame, and both ways of patching pending command buffers (CPU:
// the NOP slots rewritten before submission; GPU: COND_EXEC on the patch-enable word); and the
// two_level statistics not reporting the passes the firmware ran.
TEST_P(RtlTwoLevel, PicturesEqualTheReferenceAndPbb) {
  const TwoLevelCase c = GetParam();
  Scene s = load_scene(std::string(TESSERA_SOURCE_DIR) + "/scenes/demo/demo.yaml");
  s.width = 112;
  s.height = 72;
  const LoadedScene ls = load_assets(std::move(s));
  std::vector<FrameStats> st, ref_st;
  std::vector<std::vector<uint8_t>> rtl_vis, ref_vis;
  const auto rtl = screens(ls, "rtl", c, c.modes, &st, &rtl_vis);
  const auto ref = screens(ls, "ref", c, c.modes, &ref_st, &ref_vis);
  const auto pbb = screens(ls, "ref", c, std::vector<bool>(c.modes.size(), false));
  for (std::size_t f = 0; f < c.modes.size(); ++f) {
    SCOPED_TRACE(fmt::format("frame {} ({})", f, c.modes[f] ? "two-level" : "pbb"));
    EXPECT_EQ(st[f].binning_mode, c.modes[f] ? "two-level" : "pbb");
    EXPECT_TRUE(rtl[f] == ref[f]) << "the RTL's picture differs from the reference's";
    EXPECT_TRUE(ref[f] == pbb[f]) << "the two-level picture differs from the PBB one";
    if (c.modes[f]) {
      ASSERT_TRUE(st[f].two_level.has_value());
      // the demo's two passes (mirror 128x128, screen 112x72): grids, replays, GMEM in use
      EXPECT_EQ(st[f].two_level->passes, 2u);
      EXPECT_GT(st[f].two_level->replays, 0u);
      EXPECT_GT(st[f].two_level->gmem_store_bytes.value_or(0), 0u);
      // the geometry's visibility pass and coarse-bin test, bit for bit with the reference
      EXPECT_TRUE(rtl_vis[f] == ref_vis[f]) << "the RTL's visibility buffer differs from the reference's";
      ASSERT_TRUE(ref_st[f].two_level.has_value());
      EXPECT_EQ(st[f].two_level->primitives_recorded, ref_st[f].two_level->primitives_recorded);
      EXPECT_EQ(st[f].two_level->primitives_skipped, ref_st[f].two_level->primitives_skipped);
      EXPECT_GT(st[f].two_level->primitives_recorded.value_or(0), 0u);
      std::printf("%u slice(s), %u px bins, %ux%u grid: frame %zu, %lu cycles, %lu coarse bins, GMEM %lu B written\n",
                  c.slices, 16u << static_cast<unsigned>(c.bin), c.grid.coarse_x, c.grid.coarse_y, f,
                  static_cast<unsigned long>(st[f].cycles), static_cast<unsigned long>(st[f].two_level->coarse_bins),
                  static_cast<unsigned long>(*st[f].two_level->gmem_store_bytes));
    } else {
      EXPECT_FALSE(st[f].two_level.has_value());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    TwoLevel, RtlTwoLevel,
    ::testing::Values(
        TwoLevelCase{1, BinSize::Px16,
                     {tessera::driver::BinMode::TwoLevel, BinSize::Px16, tessera::driver::BinOrder::Serpentine, 2, 2, true},
                     tessera::driver::PatchMethod::Cpu, {true, false}},
        TwoLevelCase{2, BinSize::Px64,
                     {tessera::driver::BinMode::TwoLevel, BinSize::Px64, tessera::driver::BinOrder::Raster, 1, 1, false},
                     tessera::driver::PatchMethod::Gpu, {true}},
        TwoLevelCase{4, BinSize::Px32,
                     {tessera::driver::BinMode::TwoLevel, BinSize::Px32, tessera::driver::BinOrder::Raster, 8, 4, false},
                     tessera::driver::PatchMethod::Gpu, {false, true}}),
    [](const ::testing::TestParamInfo<TwoLevelCase>& i) {
      return fmt::format("n{}_bin{}_{}x{}_{}", i.param.slices, 16u << static_cast<unsigned>(i.param.bin),
                         i.param.grid.coarse_x, i.param.grid.coarse_y,
                         i.param.patch == tessera::driver::PatchMethod::Cpu ? "cpu" : "gpu");
    });

// Catches (issue 19): the tile prefetcher changing a picture (a PREFETCH or a history write
// landing in the frame's data, or the SLC answering a demand read wrongly after a prefetch),
// or not working at all. The coherent prefetch scene at 96x64 (textured floor, walls, boxes;
// the camera orbits 1.5 degrees a frame) for three frames on 2 slices, the RTL with the
// prefetcher ADAPTIVE against the reference renderer, every frame's screen; frame 0 has no
// history (every tile new), the later frames find most tiles similar and prefetch, and the
// history buffer holds this frame's lines (epoch, target size) where the tiles are, with the
// lookahead's successor pointers (PF_CFG.lookahead, on at the reset) inside the buffer.
namespace {
// The coherent prefetch scene at 96x64 for `frames` frames: the prefetcher tests' scene.
// Pixels of the screen that differ between two runners' last frames (all of them when the
// screens' sizes differ).
std::size_t pixels_differing(SceneRunner& a_run, SceneRunner& b_run) {
  const std::vector<uint8_t> a = a_run.read_screen(), b = b_run.read_screen();
  if (a.size() != b.size()) return std::max(a.size(), b.size()) / 4;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < a.size(); i += 4) bad += std::memcmp(&a[i], &b[i], 4) != 0;
  return bad;
}

LoadedScene small_coherent_scene(uint32_t frames) {
  Scene s = load_scene(std::string(TESSERA_SOURCE_DIR) + "/scenes/prefetch/coherent.yaml");
  s.width = 96;
  s.height = 64;
  s.frames = frames;
  return load_assets(std::move(s));
}
// The reference renderer and the 2-slice RTL GPU with a prefetcher configuration, side by side
// on one scene: frame() runs a frame on both and checks that the pictures are equal.
struct RefAndRtlWithPrefetcher {
  RefAndRtlWithPrefetcher(const LoadedScene& ls, const tessera::driver::PrefetchConfig& pf)
      : ref(ls, config("ref", {}), &renderer), rtl(ls, config("rtl", pf)) {}
  static RunConfig config(const char* backend, const tessera::driver::PrefetchConfig& pf) {
    RunConfig rc;
    rc.slices = 2;
    rc.backend = backend;
    rc.prefetch = pf;
    return rc;
  }
  // The RTL's frame statistics.
  FrameStats frame(uint32_t f) {
    ref.run_frame(f);
    FrameStats st = rtl.run_frame(f);
    EXPECT_EQ(pixels_differing(ref, rtl), 0u) << "frame " << f << ": pixels differ with the prefetcher on";
    return st;
  }
  RefFrameRenderer renderer;
  SceneRunner ref, rtl;
};
}  // namespace

TEST(Runner, PrefetcherChangesNoPictureAndPrefetchesSimilarTiles) {
  const LoadedScene ls = small_coherent_scene(3);
  tessera::driver::PrefetchConfig pf;
  pf.mode = tessera::driver::PrefetchMode::Adaptive;
  RefAndRtlWithPrefetcher run(ls, pf);
  SceneRunner& rtl = run.rtl;
  for (uint32_t f = 0; f < 3; ++f) {
    const FrameStats st = run.frame(f);
    ASSERT_TRUE(st.prefetch.has_value());
    const PrefetchFrameStats& p = *st.prefetch;
    EXPECT_EQ(p.mode, "adaptive");
    EXPECT_EQ(p.events_dropped, 0u);
    // with a history line per batch (PF_CFG.slots reset: 16 lines per tile), every bin a slice
    // renders is one decision
    uint64_t bins = 0;
    for (const auto& sl : st.slices) bins += sl.bins;
    EXPECT_GE(bins, 3u * 2u) << "96x64 in 32x32 bins: every tile is rendered";
    EXPECT_EQ(p.tiles_similar + p.tiles_dissimilar + p.tiles_no_history, bins) << "frame " << f;
    if (f == 0) {
      EXPECT_EQ(p.tiles_no_history, bins);
      EXPECT_EQ(p.lines_requested, 0u);
    } else {
      EXPECT_GE(p.tiles_similar, bins / 2) << "frame " << f << ": a slow orbit keeps most batches similar";
      EXPECT_GT(p.lines_requested, 0u);
      EXPECT_LE(p.lines_filled + p.lines_dropped, p.lines_requested);
    }
  }
  // The history in GPU memory (spec/layouts.yaml pf_history_line): batch b of tile t at
  // history + 64 (16 t + b mod 16). Epochs: 1 at reset, + 2 for SET_PREFETCH, + 1 per
  // FRAME_END, so frame 2 writes epoch 5. A slice writes a batch's line when it moves on to its
  // next bin, so all but each slice's last tile of frame 2 have one, with the target's size,
  // the 32x32 bins and the batch number of its slot.
  constexpr unsigned kSlots = 1u << (2 * TS_GEOM_PF_CFG_SLOTS_RESET);
  const auto [addr, bytes] = rtl.prefetch_history();
  ASSERT_GE(bytes, 6u * kSlots * 64);
  std::vector<uint8_t> hist(6 * kSlots * 64);
  rtl.device().read_mem(addr, hist);
  auto line_at = [&](unsigned i) {
    std::array<uint32_t, 16> w{};
    std::memcpy(w.data(), &hist[i * 64], 64);
    return tessera::layout::PfHistoryLine::unpack(w.data());
  };
  unsigned current = 0, with_next = 0, next_written = 0;
  for (unsigned t = 0; t < 6; ++t) {
    unsigned lines = 0;
    for (unsigned b = 0; b < kSlots; ++b) {
      const auto line = line_at(t * kSlots + b);
      if (line.epoch != 5) continue;
      ++lines;
      // the lookahead's pointer: the line the slice entered next, + 1, inside the buffer (the
      // slice's last line of the frame is not written yet, so not every one names a written line)
      if (line.next != 0) {
        ++with_next;
        ASSERT_LT(line.next - 1, 6u * kSlots) << "tile " << t << ": next points outside the history";
        EXPECT_NE(line.next - 1, t * kSlots + b) << "tile " << t << ": a line is not its own successor";
        next_written += line_at(line.next - 1).epoch == 5;
      }
      EXPECT_EQ(line.batch % kSlots, b) << "tile " << t;
      EXPECT_EQ(line.width, 96u) << "tile " << t;
      EXPECT_EQ(line.height, 64u) << "tile " << t;
      EXPECT_EQ(line.bin_size, TS_BIN_SIZE_PX32) << "tile " << t;
      EXPECT_GT(line.count, 0u) << "tile " << t;
    }
    current += lines > 0;
  }
  EXPECT_GE(current, 6u - 2u) << "tiles with a line frame 2 wrote";
  EXPECT_GT(with_next, 0u) << "no history line names its successor (PF_CFG.lookahead)";
  EXPECT_GT(next_written, 0u) << "no successor named is a line frame 2 wrote";
}

// Catches (issue 19, the block record, GEOM.PF_RECORD BLOCKS): a picture changed by it; a line
// recorded in the ranges format or without the format bit; a block holding a line no texel
// read touched (a target line, an address off by a block or a bit); one block in two entries;
// a block record that prefetches nothing the next frame. The coherent scene at 96x64, 2 frames
// on the 2-slice RTL GPU.
TEST(Runner, BlockRecordHoldsTheTexelLinesRead) {
  const LoadedScene ls = small_coherent_scene(2);
  tessera::driver::PrefetchConfig pf;
  pf.mode = tessera::driver::PrefetchMode::On;
  pf.blocks = true;
  RefAndRtlWithPrefetcher run(ls, pf);
  SceneRunner& rtl = run.rtl;
  for (uint32_t f = 0; f < 2; ++f) {
    const FrameStats st = run.frame(f);
    ASSERT_TRUE(st.prefetch.has_value());
    if (f == 1) {
      EXPECT_GT(st.prefetch->tiles_similar, 0u);
      EXPECT_GT(st.prefetch->lines_requested, 0u) << "last frame's blocks prefetch nothing";
    }
  }
  // Frame 1's lines (epoch 1 + 2 + 1): the block format, and every line a block names is a
  // texture's (the texel reads are the only ones recorded).
  constexpr unsigned kSlots = 1u << (2 * TS_GEOM_PF_CFG_SLOTS_RESET);
  constexpr unsigned kEntW = 53;
  const auto [addr, bytes] = rtl.prefetch_history();
  ASSERT_GE(bytes, 6u * kSlots * 64);
  std::vector<uint8_t> hist(6 * kSlots * 64);
  rtl.device().read_mem(addr, hist);
  const auto textures = rtl.texture_ranges();
  unsigned lines = 0, blocks = 0;
  for (unsigned i = 0; i < 6 * kSlots; ++i) {
    std::array<uint32_t, 16> w{};
    std::memcpy(w.data(), &hist[i * 64], 64);
    const auto line = tessera::layout::PfHistoryLine::unpack(w.data());
    if (line.epoch != 4) continue;
    ++lines;
    EXPECT_EQ(line.blocks, 1u) << "line " << i << " is not in the block format";
    std::vector<uint32_t> seen;
    for (unsigned e = 0; e < 8; ++e) {
      auto bits = [&](unsigned lo, unsigned n) {
        uint64_t v = 0;
        for (unsigned k = 0; k < n; ++k) {
          const unsigned bit = tessera::layout::PfHistoryLine::Pos::ranges.lsb + e * kEntW + lo + k;
          v |= uint64_t{(w[bit / 32] >> (bit % 32)) & 1u} << k;
        }
        return v;
      };
      const auto bitmap = static_cast<uint32_t>(bits(0, 32)), block = static_cast<uint32_t>(bits(32, 21));
      if (bitmap == 0) continue;
      ++blocks;
      EXPECT_EQ(std::count(seen.begin(), seen.end(), block), 0) << "line " << i << ": block " << block << " twice";
      seen.push_back(block);
      for (unsigned b = 0; b < 32; ++b) {
        if (!((bitmap >> b) & 1u)) continue;
        const uint64_t a = (uint64_t{block} * 32 + b) * 64;
        const bool in_texture = std::any_of(textures.begin(), textures.end(),
                                            [&](const auto& t) { return a >= t.first && a < uint64_t{t.first} + t.second; });
        EXPECT_TRUE(in_texture) << "line " << i << " block entry " << e << ": line 0x" << std::hex << a
                                << " is no texture's";
      }
    }
  }
  EXPECT_GE(lines, 4u) << "lines frame 1 wrote";
  EXPECT_GT(blocks, 0u) << "no texel read recorded";
}

// Catches (issue 19, the bound): `--prefetch ideal` changing a picture (an ideal read answered
// with data older than a write, or from the wrong address), leaking onto data the prefetcher
// does not fetch (ranges other than the kinds'), or not taking effect (no read answered as
// ideal, memory waits not shorter than with the prefetcher off). The coherent prefetch scene at
// 96x64 for two frames on 2 slices: the RTL with the bound against the reference renderer,
// then the ideal runs' memory waits against a run without it.
TEST(Runner, IdealPrefetchBoundChangesNoPictureAndShortensTheMemoryWaits) {
  const LoadedScene ls = small_coherent_scene(2);
  RunConfig rc;
  rc.slices = 2;
  rc.tiled_textures = true;
  // One RTL runner alive at a time (two verilated GPUs torn down together can deadlock in
  // Verilator 5.006's scope registry).
  std::vector<uint64_t> wait_off;
  {
    rc.backend = "rtl";
    SceneRunner off(ls, rc);
    EXPECT_TRUE(dynamic_cast<RtlDevice&>(off.device()).sim().dram().config().ideal_reads.empty());
    for (uint32_t f = 0; f < 2; ++f) {
      uint64_t w = 0;
      for (const auto& sl : off.run_frame(f).slices) w += sl.cycles[2];
      wait_off.push_back(w);
    }
  }
  {
    rc.backend = "rtl";
    rc.ideal_prefetch = true;
    rc.prefetch.kinds = 1;
    SceneRunner textures_only(ls, rc);
    EXPECT_EQ(dynamic_cast<RtlDevice&>(textures_only.device()).sim().dram().config().ideal_reads.size(),
              ls.textures.size())
        << "kinds 1: the scene's textures only";
    EXPECT_EQ(dynamic_cast<RtlDevice&>(textures_only.device()).sim().dram().config().ideal_percent, 100u);
  }
  {
    rc.ideal_percent = 40;   // --prefetch ideal:40
    SceneRunner partial(ls, rc);
    EXPECT_EQ(dynamic_cast<RtlDevice&>(partial.device()).sim().dram().config().ideal_percent, 40u)
        << "the share reaches the DRAM model";
    rc.ideal_percent = 100;
  }
  {
    rc.prefetch.kinds = 3;
    rc.ideal_percent = 78;          // --prefetch ideal-bus:78/100
    rc.ideal_target_percent = 100;
    rc.ideal_pays_bus = true;
    SceneRunner apart(ls, rc);
    const DramConfig& dc = dynamic_cast<RtlDevice&>(apart.device()).sim().dram().config();
    EXPECT_TRUE(dc.ideal_pays_bus) << "ideal-bus reaches the DRAM model";
    EXPECT_EQ(dc.ideal_percent, 78u);
    ASSERT_EQ(dc.ideal_reads.size(), ls.textures.size() + 2u);
    for (std::size_t i = 0; i < dc.ideal_reads.size(); ++i)
      EXPECT_EQ(dc.ideal_reads[i].percent, i < ls.textures.size() ? 0u : 100u)
          << "range " << i << ": the textures take ideal_percent, the targets their own share";
    rc.ideal_percent = 100;
    rc.ideal_target_percent = 0;
    rc.ideal_pays_bus = false;
    rc.prefetch.kinds = 1;
  }
  rc.backend = "ref";
  rc.ideal_prefetch = false;
  RefFrameRenderer renderer;
  SceneRunner ref(ls, rc, &renderer);
  rc.backend = "rtl";
  rc.ideal_prefetch = true;
  rc.prefetch.kinds = 3;
  SceneRunner ideal(ls, rc);
  auto& rtl = dynamic_cast<RtlDevice&>(ideal.device());
  EXPECT_EQ(rtl.sim().dram().config().ideal_reads.size(), ls.textures.size() + 2u)
      << "kinds 3: every texture, and colour and depth of every target (the screen only here)";
  uint64_t sum_off = 0, sum_ideal = 0;
  for (uint32_t f = 0; f < 2; ++f) {
    ref.run_frame(f);
    const uint64_t ideal0 = rtl.sim().dram().stats().ideal_reads;
    const FrameStats b = ideal.run_frame(f);
    EXPECT_GT(rtl.sim().dram().stats().ideal_reads, ideal0) << "frame " << f;
    const std::vector<uint8_t> want = ref.read_screen(), got = ideal.read_screen();
    ASSERT_EQ(want.size(), got.size());
    std::size_t bad = 0;
    for (std::size_t i = 0; i < want.size(); i += 4) bad += std::memcmp(&want[i], &got[i], 4) != 0;
    EXPECT_EQ(bad, 0u) << "frame " << f << ": pixels differ under the ideal prefetch bound";
    sum_off += wait_off[f];
    for (const auto& sl : b.slices) sum_ideal += sl.cycles[2];
    ASSERT_TRUE(b.prefetch.has_value());
    EXPECT_EQ(b.prefetch->mode, "off") << "the bound runs without the prefetcher";
  }
  EXPECT_LT(sum_ideal, sum_off) << "reads answered at once must shorten the memory waits";
  // the reference backend has no DRAM timing to change
  rc.backend = "ref";
  EXPECT_THROW(SceneRunner(ls, rc, &renderer), tessera::driver::DriverError);
}
