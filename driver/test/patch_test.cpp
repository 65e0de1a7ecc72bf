// Patching: CPU-side patch records applied and unapplied (once, the buffer knowing its mode,
// single-level-only workloads untouched), the GPU-side COND_EXEC form and its patch-enable
// values, and PATCH EQUIVALENCE: for random command buffers, the CPU-patched stream equals
// what the reference CP executes from the COND_EXEC form, for both patch-enable values.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "tessera/driver/error.hpp"
#include "test_seed.hpp"
#include "test_util.hpp"

using namespace tessera::driver;
using namespace tessera::driver::test;

namespace {

RenderPassDesc pass(const Rig& r, const std::string& name, bool single = false) {
  RenderPassDesc d;
  d.name = name;
  d.width = 256;
  d.height = 128;
  d.color = Attachment{at(r, 0), LoadOp::Clear, StoreOp::Store, nullptr};
  d.depth = Attachment{at(r, 4096), LoadOp::Clear, StoreOp::DontCare, nullptr};
  d.single_level_only = single;
  return d;
}

CommandBuffer three_passes(Rig& r, PatchMethod m = PatchMethod::Cpu) {
  CommandBuffer cb = r.umd->create_command_buffer("three", m);
  for (int i = 0; i < 3; ++i) {
    cb.begin_render_pass(pass(r, fmt::format("rp{}", i), i == 1));
    cb.draw(DrawDesc{.count = static_cast<uint32_t>(3 * (i + 1))});
    cb.end_render_pass();
  }
  return cb;
}

Packet packet_at(const CommandBuffer& cb, uint32_t offset) {
  for (const Packet& p : decode_packets(cb.dwords()))
    if (p.offset == offset) return p;
  ADD_FAILURE() << "no packet at dword " << offset;
  return {};
}

}  // namespace

// Catches: a patch not rewriting its slot, rewriting it twice, moving later commands, patching
// a single-level-only workload, losing track of the buffer's mode, an unpatch that does not
// restore the written stream exactly.
TEST(Patch, ApplyOnceUnapplyAndKnowItsMode) {
  Rig r;
  CommandBuffer cb = three_passes(r);
  ASSERT_EQ(cb.written_mode(), BinMode::Pbb);
  cb.close();  // state bit is PBB: nothing to do
  EXPECT_EQ(cb.mode(), BinMode::Pbb);
  const Dwords written(cb.dwords().begin(), cb.dwords().end());
  ASSERT_EQ(cb.workloads().size(), 3u);
  EXPECT_TRUE(cb.workloads()[1].patches.empty()) << "single-level-only workloads carry no patch records";
  const Workload w0 = cb.workloads()[0];
  ASSERT_EQ(w0.patches.size(), 2u);
  EXPECT_EQ(w0.patches[0].token, PatchToken::BinMode);
  EXPECT_EQ(w0.patches[1].token, PatchToken::VisBuffer);
  EXPECT_EQ(packet_at(cb, w0.patches[1].offset).opcode, static_cast<uint32_t>(TS_OP_NOP));

  EXPECT_TRUE(cb.patch(BinMode::TwoLevel));
  EXPECT_EQ(cb.mode(), BinMode::TwoLevel);
  const Dwords patched(cb.dwords().begin(), cb.dwords().end());
  ASSERT_EQ(patched.size(), written.size()) << "patching never moves commands";
  for (const Workload& w : cb.workloads()) {
    if (w.single_level_only) {
      EXPECT_TRUE(std::equal(written.begin() + w.begin, written.begin() + w.end, patched.begin() + w.begin));
      const Packet b = packet_at(cb, w.begin);
      EXPECT_EQ(TS_PKT_SET_BIN_MODE_MODE_GET(b.payload[TS_PKT_SET_BIN_MODE_MODE_DW]), TS_BIN_MODE_PBB);
      continue;
    }
    const Packet b = packet_at(cb, w.patches[0].offset), v = packet_at(cb, w.patches[1].offset);
    EXPECT_EQ(TS_PKT_SET_BIN_MODE_MODE_GET(b.payload[TS_PKT_SET_BIN_MODE_MODE_DW]), TS_BIN_MODE_TWO_LEVEL);
    EXPECT_EQ(TS_PKT_SET_BIN_MODE_COARSE_X_GET(b.payload[TS_PKT_SET_BIN_MODE_COARSE_X_DW]), r.umd->config().two_level.coarse_x);
    EXPECT_EQ(TS_PKT_SET_BIN_MODE_COARSE_Y_GET(b.payload[TS_PKT_SET_BIN_MODE_COARSE_Y_DW]), r.umd->config().two_level.coarse_y);
    ASSERT_EQ(v.opcode, static_cast<uint32_t>(TS_OP_BIND_VIS_BUFFER));
    EXPECT_EQ(TS_PKT_BIND_VIS_BUFFER_ADDR_GET(v.payload[TS_PKT_BIND_VIS_BUFFER_ADDR_DW]), r.vis.addr);
    EXPECT_EQ(TS_PKT_BIND_VIS_BUFFER_SIZE_GET(v.payload[TS_PKT_BIND_VIS_BUFFER_SIZE_DW]), r.vis.size);
    for (const auto& rec : w.patches) EXPECT_EQ(rec.slot_mode, BinMode::TwoLevel);
  }
  // Only the slots changed.
  std::size_t differing = 0;
  for (std::size_t i = 0; i < written.size(); ++i) differing += written[i] != patched[i];
  EXPECT_EQ(differing, 2u * (2u + 3u)) << "two workloads x (SET_BIN_MODE's two payload dwords + the NOP's 3 dwords)";

  EXPECT_FALSE(cb.patch(BinMode::TwoLevel)) << "a record is applied once";
  EXPECT_EQ(Dwords(cb.dwords().begin(), cb.dwords().end()), patched);
  EXPECT_TRUE(cb.patch(BinMode::Pbb));
  EXPECT_EQ(Dwords(cb.dwords().begin(), cb.dwords().end()), written) << "unpatching restores the written stream";
  EXPECT_FALSE(cb.patch(BinMode::Pbb));
}

// Catches: the UMD ignoring the state bit when writing ([0022]), close() not patching to the
// mode active at close ([0026]), submit not patching right before submission ([0043]).
TEST(Patch, WrittenInStateModeThenPatchedAtCloseAndSubmit) {
  Rig r;
  r.state.set(true, "test");
  CommandBuffer cb = three_passes(r);
  EXPECT_EQ(cb.written_mode(), BinMode::TwoLevel);
  EXPECT_EQ(packet_at(cb, cb.workloads()[0].patches[1].offset).opcode, static_cast<uint32_t>(TS_OP_BIND_VIS_BUFFER));
  r.state.set(false, "cooled down");
  cb.close();
  EXPECT_EQ(cb.mode(), BinMode::Pbb);
  EXPECT_EQ(packet_at(cb, cb.workloads()[0].patches[1].offset).opcode, static_cast<uint32_t>(TS_OP_NOP));
  r.state.set(true, "hot again");
  const Submission s = r.kmd->submit(cb, 0);
  EXPECT_EQ(s.mode, BinMode::TwoLevel);
  EXPECT_EQ(cb.mode(), BinMode::TwoLevel);
  r.kmd->wait(s);
  std::size_t vis = 0;
  for (const auto& c : r.dev.pipe_log()) vis += c.opcode == TS_OP_BIND_VIS_BUFFER;
  EXPECT_EQ(vis, 2u) << "the two patchable render passes bound the visibility buffer";
  EXPECT_THROW(cb.patch(BinMode::Pbb), DriverError) << "a submitted buffer is not patched on the CPU";
}

// Catches: the COND_EXEC form with wrong counts, masks or references, the KMD not relocating
// the COND_EXEC address to the buffer's patch-enable value, the value not written, a pending
// buffer not re-targeted when the mode changes before the CP reaches it, or a started one
// re-targeted.
TEST(Patch, GpuFormAndPatchEnableValues) {
  Rig r;
  CommandBuffer cb = three_passes(r, PatchMethod::Gpu);
  cb.close();
  const Workload& w = cb.workloads()[0];
  ASSERT_EQ(w.patches.size(), 2u);
  const Packet c1 = packet_at(cb, w.patches[0].offset), c2 = packet_at(cb, w.patches[1].offset);
  ASSERT_EQ(c1.opcode, static_cast<uint32_t>(TS_OP_COND_EXEC));
  EXPECT_EQ(TS_PKT_COND_EXEC_MASK_GET(c1.payload[TS_PKT_COND_EXEC_MASK_DW]), 1u);
  EXPECT_EQ(TS_PKT_COND_EXEC_REF_GET(c1.payload[TS_PKT_COND_EXEC_REF_DW]), 1u);
  EXPECT_EQ(TS_PKT_COND_EXEC_REF_GET(c2.payload[TS_PKT_COND_EXEC_REF_DW]), 0u);
  const uint32_t n = TS_PKT_COND_EXEC_COUNT_GET(c1.payload[TS_PKT_COND_EXEC_COUNT_DW]);
  EXPECT_EQ(n, 2u * (1u + TS_PKT_SET_BIN_MODE_LEN));
  EXPECT_EQ(packet_at(cb, c1.offset + 5).opcode, static_cast<uint32_t>(TS_OP_SET_BIN_MODE));
  EXPECT_EQ(packet_at(cb, c1.offset + 5 + 3).opcode, static_cast<uint32_t>(TS_OP_BIND_VIS_BUFFER));
  EXPECT_EQ(c2.offset, c1.offset + 5 + n);
  EXPECT_THROW(cb.patch(BinMode::TwoLevel), DriverError);

  // Hold queue 0 behind a barrier so the GPU-form buffer is pending and not started.
  CommandBuffer gate = r.umd->create_command_buffer("gate");
  gate.barrier_wait(6, 1);
  gate.close();
  const Submission sg = r.kmd->submit(gate, 0);
  const Submission s = r.kmd->submit(cb, 0);
  ASSERT_NE(s.patch_enable_addr, 0u);
  EXPECT_EQ(r.dev.read_mem32(s.patch_enable_addr), 0u);
  const Dwords copy = read_dwords(r.dev, s.gpu_addr, s.size_dwords);
  for (const auto& wl : cb.workloads())
    for (const auto& rec : wl.patches)
      EXPECT_EQ(TS_PKT_COND_EXEC_ADDR_GET(copy[rec.offset + 1 + TS_PKT_COND_EXEC_ADDR_DW]), s.patch_enable_addr);
  r.dev.advance(200);
  r.state.set(true, "hot");
  r.kmd->poll();
  EXPECT_EQ(r.dev.read_mem32(s.patch_enable_addr), 1u) << "pending, not started: the KMD sets the new value";
  EXPECT_EQ(r.kmd->stats().patch_enable_writes, 1u);

  CommandBuffer release = r.umd->create_command_buffer("release");
  release.barrier_update(6, 1);
  release.close();
  r.kmd->wait(r.kmd->submit(release, 1));
  r.kmd->wait(sg);
  r.kmd->wait(s);
  std::size_t two = 0;
  for (const auto& c : r.dev.pipe_log()) {
    if (c.opcode == TS_OP_SET_BIN_MODE) two += TS_PKT_SET_BIN_MODE_MODE_GET(c.args[TS_PKT_SET_BIN_MODE_MODE_DW]) == TS_BIN_MODE_TWO_LEVEL;
  }
  EXPECT_EQ(two, 2u);

  // A buffer the CP has started keeps its value: block inside it, then flip the mode.
  CommandBuffer started = r.umd->create_command_buffer("started", PatchMethod::Gpu);
  started.barrier_wait(7, 1);
  started.begin_render_pass(pass(r, "late"));
  started.end_render_pass();
  started.close();
  const Submission s2 = r.kmd->submit(started, 0);
  r.dev.advance(100);
  r.state.set(false, "cool");
  r.kmd->poll();
  EXPECT_EQ(r.dev.read_mem32(s2.patch_enable_addr), 1u) << "already started: left alone";
  CommandBuffer release2 = r.umd->create_command_buffer("release2");
  release2.barrier_update(7, 1);
  release2.close();
  r.kmd->submit(release2, 1);
  r.kmd->wait(s2);
}

// PATCH EQUIVALENCE. For random programs (render passes of random size, topology and
// single-level-only flag; state, fences, barriers, DSID set/delete, frame ends, perf samples,
// NOPs, IB2 calls) and both binning modes:
//   CPU form, written in a random mode and patched to the target at close/submit, executed on
//   one RefDevice; GPU (COND_EXEC) form with the patch-enable value = target on another.
// Catches: any difference between the two paths the GPU would see -- a variant with different
// packets, a COND_EXEC count that runs into or skips part of the next packet, a patch-enable
// value or relocation that differs, a slot patched in one path and not the other.
TEST(Patch, CpuPatchedStreamEqualsCondExecExecution) {
  auto rng = test_rng();
  std::size_t compared = 0, executed = 0, patched_slots = 0;
  for (int round = 0; round < 200; ++round) {
    Rig probe;
    const Program prog = random_program(rng, probe);
    for (BinMode target : {BinMode::Pbb, BinMode::TwoLevel}) {
      SCOPED_TRACE(testing::Message() << "round " << round << " target " << to_string(target));
      const bool written_two = (rng() & 1) != 0;
      Rig a, b;
      const ProgramEnv ea = prepare_program(a), eb = prepare_program(b);
      a.state.set(written_two);
      b.state.set((rng() & 1) != 0);
      CommandBuffer cpu = a.umd->create_command_buffer("cpu", PatchMethod::Cpu);
      CommandBuffer gpu = b.umd->create_command_buffer("gpu", PatchMethod::Gpu);
      record(prog, ea, cpu);
      record(prog, eb, gpu);
      cpu.close();
      gpu.close();
      a.state.set(target == BinMode::TwoLevel);
      b.state.set(target == BinMode::TwoLevel);
      const Submission sa = a.kmd->submit(cpu, 0), sb = b.kmd->submit(gpu, 0);
      EXPECT_EQ(cpu.mode(), target);
      if (sb.patch_enable_addr) {
        EXPECT_EQ(b.dev.read_mem32(sb.patch_enable_addr), target == BinMode::TwoLevel ? 1u : 0u);
      }
      const Dwords cpu_stream = read_dwords(a.dev, sa.gpu_addr, sa.size_dwords);  // patched and relocated
      a.kmd->wait(sa);
      b.kmd->wait(sb);

      // 1. The static CPU-patched stream = what the CP executed from the COND_EXEC form.
      const auto stat = decode_packets(cpu_stream);
      const auto from_cond = trace_packets(b.dev, 0, 1, true, true);
      ASSERT_EQ(stat, from_cond) << "CPU-patched:\n" << dump(stat) << "executed from COND_EXEC form:\n" << dump(from_cond);
      // ... and what it executed from the CPU form (sanity of the trace).
      ASSERT_EQ(stat, trace_packets(a.dev, 0, 1, true, false));
      // 2. The whole execution (IB2 calls, coarse-bin replays) and the pipeline's view agree.
      ASSERT_EQ(trace_packets(a.dev, 0, -1, false, true).size(), trace_packets(b.dev, 0, -1, false, true).size());
      EXPECT_EQ(trace_packets(a.dev, 0, 2), trace_packets(b.dev, 0, 2));
      EXPECT_EQ(a.dev.pipe_log(), b.dev.pipe_log());
      EXPECT_EQ(a.dev.delete_hints().size(), b.dev.delete_hints().size());
      compared += stat.size();
      executed += b.dev.trace().size();
      for (const auto& w : cpu.workloads()) patched_slots += w.patches.size();
    }
  }
  fmt::print("patch equivalence: 400 buffers, {} packets compared, {} executed (with replays), {} patch slots\n",
             compared, executed, patched_slots);
  EXPECT_GT(patched_slots, 0u);
}
