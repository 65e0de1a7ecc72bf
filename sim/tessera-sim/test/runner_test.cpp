// SceneRunner: the demo scene's command stream on the RTL and on the reference device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

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
};

Result run(const LoadedScene& ls, const std::string& backend, uint32_t frames, uint32_t mem_bytes) {
  RunConfig rc;
  rc.backend = backend;
  SceneRunner r(ls, rc);
  Result out;
  for (uint32_t f = 0; f < frames; ++f) out.frames.push_back(r.run_frame(f));
  out.log = r.pipe_log();
  out.memory.resize(mem_bytes);
  r.device().read_mem(0x1000, out.memory);
  return out;
}

}  // namespace

// Catches: the RTL's CP (firmware) and the reference device disagreeing on the demo scene's
// command stream -- what the pipeline receives, in order, with DSIDs -- or on the memory both
// leave behind (rings, command buffers, fences, delete fences, textures, vertex data, targets).
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
  EXPECT_TRUE(rtl.memory == ref.memory) << "memory images differ";

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
