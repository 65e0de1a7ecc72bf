// SceneRunner: the demo scene's command stream on the RTL and on the reference device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "tessera/sim/ref_frame_renderer.hpp"
#include "tessera/sim/scene_runner.hpp"

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
// hit or a miss; DRAM traffic is the SLC's fills and writebacks (every client goes through it).
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

