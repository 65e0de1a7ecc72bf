// Bad input: API misuse is rejected with a clear error, and nothing recorded or submitted is
// lost or corrupted -- a rejected call appends nothing, a rejected submit writes nothing, and
// work submitted before still executes.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <tuple>
#include <string>
#include <vector>

#include "tessera/driver/error.hpp"
#include "test_seed.hpp"
#include "test_util.hpp"

using namespace tessera::driver;
using namespace tessera::driver::test;

namespace {

RenderPassDesc pass(const Rig& r, ResourceGroup* g = nullptr) {
  RenderPassDesc d;
  d.name = "main";
  d.width = 64;
  d.height = 64;
  d.color = Attachment{at(r, 0), LoadOp::Clear, StoreOp::Store, g};
  return d;
}

// Runs f, which must throw a DriverError whose message contains `needle`, and checks that the
// command buffer did not change.
void expect_rejected(const CommandBuffer& cb, const std::function<void()>& f, const std::string& needle) {
  const Dwords before(cb.dwords().begin(), cb.dwords().end());
  const auto relocs = cb.relocations().size();
  const auto works = cb.workloads().size();
  try {
    f();
    ADD_FAILURE() << "accepted; expected an error mentioning: " << needle;
  } catch (const DriverError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(cb.name()), std::string::npos) << "the error names the buffer: " << e.what();
  }
  EXPECT_EQ(Dwords(cb.dwords().begin(), cb.dwords().end()), before) << "a rejected call appended something";
  EXPECT_EQ(cb.relocations().size(), relocs);
  EXPECT_EQ(cb.workloads().size(), works);
}

}  // namespace

// Catches each misuse being accepted (or crashing) and a rejected call leaving partial
// packets behind; at the end the same buffer is still usable and executes as recorded.
TEST(Misuse, RecordingErrorsAreClearAndAppendNothing) {
  Rig r;
  ResourceGroup& g = r.umd->create_group("rt", {r.umd->create_resource(ResourceKind::RenderTarget, at(r, 0), 16384, "rt0")});
  ResourceGroup& unset = r.umd->create_group("unset", {r.umd->create_resource(ResourceKind::Buffer, at(r, 32768), 64, "b")});
  BinningState other_state;
  Umd other(other_state);
  ResourceGroup& foreign = other.create_group("foreign", {other.create_resource(ResourceKind::Buffer, 0, 64, "f")});
  CommandBuffer cb = r.umd->create_command_buffer("app");

  // Draw outside a render pass.
  expect_rejected(cb, [&] { cb.draw(DrawDesc{.count = 3}); }, "draw outside a render pass");
  // Render passes: bad size, misaligned targets, groups not set / foreign / not containing the target.
  RenderPassDesc big = pass(r);
  big.width = 4096;
  expect_rejected(cb, [&] { cb.begin_render_pass(big); }, "outside 1..2048");
  RenderPassDesc mis = pass(r);
  mis.color.addr += 4;
  expect_rejected(cb, [&] { cb.begin_render_pass(mis); }, "not 64-byte aligned");
  expect_rejected(cb, [&] { cb.begin_render_pass(pass(r, &unset)); }, "which is not set");
  expect_rejected(cb, [&] { cb.begin_render_pass(pass(r, &foreign)); }, "belongs to another UMD");
  cb.set_group(unset);
  expect_rejected(cb, [&] { cb.begin_render_pass(pass(r, &unset)); }, "is not a resource of group 'unset'");
  RenderPassDesc novis = pass(r);
  novis.vis_buffer = VisBuffer{0, 0};
  expect_rejected(cb, [&] { cb.begin_render_pass(novis); }, "visibility buffer");
  expect_rejected(cb, [&] { cb.end_render_pass(); }, "without begin_render_pass");
  // Unbalanced barriers.
  expect_rejected(cb, [&] { cb.barrier_update(16, 1); }, "barrier 16 outside 0..15");
  cb.barrier_update(3, 5);
  expect_rejected(cb, [&] { cb.barrier_update(3, 4); }, "unbalanced barriers: barrier 3 set to 4 after an earlier update to 5");
  cb.barrier_wait(4, 2);
  expect_rejected(cb, [&] { cb.barrier_update(4, 2); }, "the queue would wait for itself forever");
  // Deleting a DSID still in use, or one that is not set.
  cb.set_group(g);
  cb.begin_render_pass(pass(r, &g));
  expect_rejected(cb, [&] { cb.delete_group(g); }, "still in use by render pass 'main'");
  expect_rejected(cb, [&] { cb.begin_render_pass(pass(r)); }, "render passes do not nest");
  expect_rejected(cb, [&] { cb.fence(at(r, 60000), 1); }, "fence inside render pass 'main'");
  // The bin size and slice mapping are the pass's (the CLEAR at RENDERPASS_BEGIN used them).
  expect_rejected(cb, [&] { cb.set_regs(TS_RASTER_BASE_ADDR + TS_RASTER_BIN_OFFSET, {2}); },
                  "RASTER.BIN (0x03014) inside render pass 'main'");
  expect_rejected(cb, [&] { cb.set_regs(TS_RASTER_BASE_ADDR + TS_RASTER_SLICE_OFFSET, {0}); },
                  "RASTER.SLICE (0x03018) inside render pass 'main'");
  expect_rejected(cb, [&] { cb.draw(DrawDesc{.vertex_addr = 8}); }, "not 16-byte aligned");
  // Whole patches only (issue 18).
  expect_rejected(cb, [&] { cb.draw(DrawDesc{.topology = Topology::PatchQuad, .count = 10}); },
                  "PATCH_QUAD takes 4 control points per patch; a count of 10 is not a multiple of 4");
  expect_rejected(cb, [&] { cb.draw(DrawDesc{.topology = Topology::PatchTri, .count = 7}); },
                  "PATCH_TRI takes 3 control points per patch; a count of 7");
  expect_rejected(cb, [&] { cb.draw(DrawDesc{.topology = Topology::PatchIsoline, .count = 5}); },
                  "PATCH_ISOLINE takes 2 control points per patch");
  expect_rejected(cb, [&] { cb.close(); }, "render pass 'main' not ended");
  cb.draw(DrawDesc{.count = 3, .vertex_addr = at(r, 20480)});
  cb.end_render_pass();
  CommandBuffer other_cb = r.umd->create_command_buffer("other");
  other_cb.delete_group(g);
  expect_rejected(cb, [&] { cb.delete_group(g); }, "is not set (never set, or already deleted)");
  expect_rejected(cb, [&] { cb.set_regs(0x102, {1}); }, "not dword aligned");
  expect_rejected(cb, [&] { cb.perf_sample(at(r, 60000) + 4); }, "not 64-byte aligned");
  cb.fence(at(r, 60000), 0x600D);
  cb.close();
  // Writing a closed buffer: every recording call.
  const std::vector<std::function<void()>> writes = {
      [&] { cb.draw({}); }, [&] { cb.begin_render_pass(pass(r)); }, [&] { cb.end_render_pass(); },
      [&] { cb.set_regs(0, {1}); }, [&] { cb.fence(0, 0); }, [&] { cb.barrier_update(0, 9); },
      [&] { cb.barrier_wait(0, 0); }, [&] { cb.set_group(g); }, [&] { cb.set_default_dsid(); },
      [&] { cb.delete_group(unset); }, [&] { cb.indirect_buffer(0, 0); }, [&] { cb.frame_end(0); },
      [&] { cb.perf_sample(0); }, [&] { cb.nop(0); }, [&] { cb.close(); }};
  for (const auto& w : writes) expect_rejected(cb, w, "after close(): a closed command buffer cannot be written");

  // Nothing was lost: the buffer executes as recorded (its wait on barrier 4 released by a
  // producer on the other queue).
  CommandBuffer producer = r.umd->create_command_buffer("producer");
  producer.barrier_update(4, 2);
  producer.close();
  r.kmd->submit(producer, 1);
  const Submission s = r.kmd->submit(cb, 0);
  r.kmd->wait(s);
  EXPECT_EQ(r.dev.read_mem32(at(r, 60000)), 0x600Du);
  std::size_t draws = 0;
  for (const auto& c : r.dev.pipe_log()) draws += c.opcode == TS_OP_DRAW;
  EXPECT_EQ(draws, 1u);
  expect_rejected(cb, [&] { cb.nop(0); }, "after submission");
}

// Catches: the tile prefetcher switched on without a history buffer (the CP would refuse the
// stream), tuning that does not fit its registers, or SET_PREFETCH inside a render pass; and a
// good setting not reaching the pipeline with its registers before it.
TEST(Misuse, PrefetchSettingsChecked) {
  Rig r;
  CommandBuffer cb = r.umd->create_command_buffer("prefetch");
  PrefetchConfig on;
  on.mode = PrefetchMode::On;
  expect_rejected(cb, [&] { cb.set_prefetch(on, 0, 4096); }, "needs a history buffer");
  expect_rejected(cb, [&] { cb.set_prefetch(on, at(r, 0) + 32, 4096); }, "needs a history buffer");
  expect_rejected(cb, [&] { cb.set_prefetch(on, at(r, 0), 32); }, "at least 64 bytes (got 32)");
  for (auto [field, value, needle] : {std::tuple{&PrefetchConfig::threshold, 256u, "threshold = 256"},
                                      std::tuple{&PrefetchConfig::max_lines, 0u, "max_lines = 0"},
                                      std::tuple{&PrefetchConfig::entries, 5u, "entries = 5 is outside 1..4"},
                                      std::tuple{&PrefetchConfig::kinds, 4u, "kinds = 4"},
                                      std::tuple{&PrefetchConfig::window_lines, 256u, "window = 256"},
                                      std::tuple{&PrefetchConfig::history_slots, 2u, "history_slots = 2 is not 1, 4, 16 or 64"},
                                      std::tuple{&PrefetchConfig::hit_low, 90u, "hit_low = 90 is outside 0..75"}}) {
    PrefetchConfig bad = on;
    bad.*field = value;
    expect_rejected(cb, [&] { cb.set_prefetch(bad, at(r, 0), 4096); }, needle);
  }
  cb.begin_render_pass(pass(r));
  expect_rejected(cb, [&] { cb.set_prefetch(on, at(r, 0), 4096); }, "set_prefetch inside render pass 'main'");
  cb.end_render_pass();
  PrefetchConfig tuned = on;
  tuned.mode = PrefetchMode::Adaptive;
  tuned.max_lines = 256;  // written as 0
  tuned.window_lines = 16;
  tuned.history_slots = 64;  // written as 3
  tuned.lookahead = false;   // its reset is 1: the bit must go out cleared
  tuned.blocks = true;       // GEOM.PF_RECORD, written just before PF_CFG
  cb.set_prefetch(tuned, at(r, 4096), 8192);
  cb.close();
  r.kmd->wait(r.kmd->submit(cb, 0));
  const auto log = r.dev.pipe_log();
  const auto it = std::find_if(log.begin(), log.end(), [](const auto& c) { return c.opcode == TS_OP_SET_PREFETCH; });
  ASSERT_NE(it, log.end());
  EXPECT_EQ(TS_PKT_SET_PREFETCH_MODE_GET(it->args.at(TS_PKT_SET_PREFETCH_MODE_DW)), TS_PF_MODE_ADAPTIVE);
  EXPECT_EQ(it->args.at(TS_PKT_SET_PREFETCH_ADDR_DW), at(r, 4096));
  EXPECT_EQ(it->args.at(TS_PKT_SET_PREFETCH_SIZE_DW), 8192u);
  // GEOM.PF_RECORD, PF_CFG and PF_ADAPT went in-band just before it, one register write each
  ASSERT_GE(it - log.begin(), 3);
  const auto& record = *(it - 3);
  ASSERT_EQ(record.opcode, TS_OP_SET_REGS);
  ASSERT_EQ(record.args.size(), 2u);
  EXPECT_EQ(record.args[0], TS_GEOM_BASE_ADDR + TS_GEOM_PF_RECORD_OFFSET);
  EXPECT_EQ(TS_GEOM_PF_RECORD_FORMAT_GET(record.args[1]), TS_PF_RECORD_BLOCKS);
  const auto& cfg = *(it - 2);
  const auto& adapt = *(it - 1);
  ASSERT_EQ(cfg.opcode, TS_OP_SET_REGS);
  ASSERT_EQ(cfg.args.size(), 2u);
  EXPECT_EQ(cfg.args[0], TS_GEOM_BASE_ADDR + TS_GEOM_PF_CFG_OFFSET);
  EXPECT_EQ(TS_GEOM_PF_CFG_MAX_LINES_GET(cfg.args[1]), 0u);
  EXPECT_EQ(TS_GEOM_PF_CFG_WINDOW_GET(cfg.args[1]), 16u);
  EXPECT_EQ(TS_GEOM_PF_CFG_SLOTS_GET(cfg.args[1]), 3u);
  EXPECT_EQ(TS_GEOM_PF_CFG_LOOKAHEAD_GET(cfg.args[1]), 0u);
  ASSERT_EQ(adapt.args.size(), 2u);
  EXPECT_EQ(adapt.args[0], TS_GEOM_BASE_ADDR + TS_GEOM_PF_ADAPT_OFFSET);
  EXPECT_EQ(TS_GEOM_PF_ADAPT_HIT_HIGH_GET(adapt.args[1]), TS_GEOM_PF_ADAPT_HIT_HIGH_RESET);
}

// Catches: a buffer destroyed (or moved from) with a render pass open leaving its groups "in
// use" for ever, or releasing them twice.
TEST(Misuse, AbandonedRenderPassReleasesItsGroups) {
  Rig r;
  ResourceGroup& g = r.umd->create_group("rt", {r.umd->create_resource(ResourceKind::RenderTarget, at(r, 0), 4096, "rt")});
  {
    CommandBuffer a = r.umd->create_command_buffer("a");
    a.set_group(g);
    a.begin_render_pass(pass(r, &g));
    CommandBuffer b = std::move(a);
    EXPECT_EQ(g.open_render_passes(), 1u);
    CommandBuffer c = r.umd->create_command_buffer("c");
    c.begin_render_pass(pass(r, &g));
    EXPECT_EQ(g.open_render_passes(), 2u);
    c = std::move(b);  // c's own pass released, b's moved in
    EXPECT_EQ(g.open_render_passes(), 1u);
  }
  EXPECT_EQ(g.open_render_passes(), 0u);
  CommandBuffer d = r.umd->create_command_buffer("d");
  d.delete_group(g);  // no longer in use
}

// Catches: a command buffer allowed past its size limit (or past the 24-bit IB size), the
// failing call leaving a partial packet, an open render pass left unable to end because the
// limit ate its RENDERPASS_END.
TEST(Misuse, OversizedBufferRejected) {
  Rig r(RigOptions{.max_cb_dwords = 64});
  CommandBuffer cb = r.umd->create_command_buffer("small");
  RenderPassDesc d = pass(r);
  d.single_level_only = true;
  cb.begin_render_pass(d);
  int draws = 0;
  try {
    for (;; ++draws) cb.draw(DrawDesc{.count = 3});
  } catch (const DriverError& e) {
    EXPECT_NE(std::string(e.what()).find("over the limit of 64"), std::string::npos) << e.what();
  }
  EXPECT_LE(cb.size_dwords(), 63u);
  EXPECT_GT(draws, 0);
  cb.end_render_pass();  // room for it was reserved
  EXPECT_LE(cb.size_dwords(), 64u);
  cb.close();
  r.kmd->wait(r.kmd->submit(cb, 0));
  BinningState st;
  UmdConfig too_big;
  too_big.max_command_buffer_dwords = 1u << 24;  // INDIRECT_BUFFER.size is 24 bits
  EXPECT_THROW({ Umd u(st, too_big); }, DriverError);
}

// Catches: submitting an open, already submitted or misdirected buffer being accepted, and a
// rejected submit disturbing work submitted before it.
TEST(Misuse, BadSubmissionsRejectedEarlierWorkIntact) {
  Rig r;
  CommandBuffer good = r.umd->create_command_buffer("good");
  good.fence(at(r, 100), 42);
  good.close();
  const Submission s = r.kmd->submit(good, 0);
  CommandBuffer open = r.umd->create_command_buffer("open");
  auto expect = [&](const std::function<void()>& f, const std::string& needle) {
    try {
      f();
      ADD_FAILURE() << "accepted: " << needle;
    } catch (const DriverError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expect([&] { r.kmd->submit(open, 0); }, "still recording: close() it first");
  open.close();
  expect([&] { r.kmd->submit(open, 2); }, "queue 2 does not exist");
  expect([&] { r.kmd->submit(good, 1); }, "already submitted");
  EXPECT_EQ(r.kmd->pending(), 1u);
  r.kmd->wait(s);
  EXPECT_EQ(r.dev.read_mem32(at(r, 100)), 42u);
  r.kmd->wait(r.kmd->submit(open, 1));
}

// Issue #14 item 9. Catches: KMD calls with a queue, submission, size or address that makes no
// sense being accepted (allocate(0) handing out an address), escaping as std::out_of_range
// (waiting on queue 9), or freeing the KMD's own ring; each must be a DriverError that names
// the argument and, for queues, the valid range.
TEST(Misuse, KmdArgumentsOutOfRangeAreDriverErrors) {
  Rig r;
  auto expect = [&](const std::function<void()>& f, const std::vector<std::string>& needles) {
    try {
      f();
      ADD_FAILURE() << "accepted: " << needles.front();
    } catch (const DriverError& e) {
      for (const auto& n : needles) EXPECT_NE(std::string(e.what()).find(n), std::string::npos) << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "not a DriverError: " << e.what();
    }
  };
  expect([&] { r.kmd->allocate(0); }, {"Kmd::allocate: 0 bytes"});
  expect([&] { r.kmd->allocate(64, 48); }, {"aligned to 48", "not a power of 2"});

  Submission bogus;
  bogus.id = 1;
  bogus.queue = 9;
  for (const std::string what : {"wait", "retired", "ring_addr", "fence_addr", "completed_fence"}) {
    SCOPED_TRACE(what);
    expect(
        [&] {
          if (what == "wait") r.kmd->wait(bogus);
          if (what == "retired") (void)r.kmd->retired(bogus);
          if (what == "ring_addr") (void)r.kmd->ring_addr(9);
          if (what == "fence_addr") (void)r.kmd->fence_addr(9);
          if (what == "completed_fence") (void)r.kmd->completed_fence(9);
        },
        {"Kmd::" + what + ": queue 9 does not exist (valid queues: 0..1)"});
  }
  Submission never;
  never.id = 42;
  expect([&] { r.kmd->wait(never); }, {"submission 42 on queue 0 was not returned by this KMD's submit"});
  expect([&] { r.kmd->wait(Submission{}); }, {"submission 0 on queue 0 was not returned"});
  CommandBuffer cb = r.umd->create_command_buffer("cb");
  cb.close();
  expect([&] { r.kmd->submit(cb, 9); }, {"submit 'cb': queue 9 does not exist (valid queues: 0..1)"});

  const uint32_t ring = r.kmd->ring_addr(0);
  expect([&] { r.kmd->free(ring); }, {fmt::format("free of 0x{:08x}: the KMD's own memory", ring)});
  expect([&] { r.kmd->free(at(r, 64)); }, {fmt::format("free of 0x{:08x}: not an address Kmd::allocate returned", at(r, 64))});

  // Before init there are no queues.
  BinningState st;
  Kmd raw(r.dev, st);
  expect([&] { (void)raw.ring_addr(0); }, {"Kmd::ring_addr: queue 0: no queues before init()"});

  // Nothing was disturbed: the buffer still runs.
  r.kmd->wait(r.kmd->submit(cb, 1));
}

// GMEM sizing (docs/two-level.md "GMEM sizing"; issue 17 item 4). Catches: a two-level grid
// whose coarse bin holds more tiles per slice than the slices' GMEM (the bin would overflow it
// and fall back to memory) being written as requested, a grid refined on an axis that did not
// need it, and a GMEM too small for one 64x64 block accepted rather than refused by name.
TEST(Misuse, TwoLevelGridFitsTheSlicesGmem) {
  Rig r;
  r.state.set(true, "test");
  CommandBuffer cb = r.umd->create_command_buffer("gmem");
  RenderPassDesc d = pass(r);
  d.width = 640;   // 10 x 8 blocks; the default 8 x 4 request gives 2 x 2-block coarse bins:
  d.height = 480;  // 16 tiles of 32x32 on one slice, 8 fit 1024 lines; 10 x 4 gives 8
  cb.begin_render_pass(d);
  cb.end_render_pass();
  Packet mode;
  for (const Packet& p : decode_packets(cb.dwords()))
    if (p.offset == cb.workloads()[0].patches[0].offset) mode = p;
  ASSERT_EQ(mode.opcode, static_cast<uint32_t>(TS_OP_SET_BIN_MODE));
  EXPECT_EQ(TS_PKT_SET_BIN_MODE_COARSE_X_GET(mode.payload[TS_PKT_SET_BIN_MODE_COARSE_X_DW]), 10u);
  EXPECT_EQ(TS_PKT_SET_BIN_MODE_COARSE_Y_GET(mode.payload[TS_PKT_SET_BIN_MODE_COARSE_Y_DW]), 4u);

  // A GMEM of 256 lines holds no 64x64 tile (512 lines of colour and depth): refused by name.
  BinningState state;
  state.set(true, "test");
  UmdConfig cfg;
  cfg.vis_buffer = r.vis;
  cfg.gmem_lines = 256;
  cfg.two_level.fine_size = BinSize::Px64;
  Umd small(state, cfg);
  CommandBuffer cb2 = small.create_command_buffer("small gmem");
  expect_rejected(cb2, [&] { cb2.begin_render_pass(d); }, "no two-level coarse grid of 640x480 fits 1 slice(s) with 256 GMEM lines");
}
