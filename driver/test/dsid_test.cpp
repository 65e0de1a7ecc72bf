// Resource groups, the virtual DSID pool and DSID LIFETIME (Apple DSID source): vDSIDs
// assigned when a group is set, the default DSID 0 with a warning on exhaustion or a shared
// resource, relocation of DSID fields at submit, and hardware and virtual DSIDs reused only
// after the delete's fence signalled -- run on the RefDevice.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "tessera/driver/error.hpp"
#include "test_seed.hpp"
#include "test_util.hpp"

using namespace tessera::driver;
using namespace tessera::driver::test;

namespace {

ResourceGroup& group(Rig& r, const std::string& name, uint32_t off, uint32_t size = 4096) {
  return r.umd->create_group(name, {r.umd->create_resource(ResourceKind::RenderTarget, at(r, off), size, fmt::format("{}.rt", name))});
}

// A command buffer on `queue` that waits for barrier `id` >= 1 and then deletes g.
Submission gated_delete(Rig& r, ResourceGroup& g, uint32_t id, unsigned queue = 0) {
  CommandBuffer cb = r.umd->create_command_buffer(fmt::format("delete {}", g.name()));
  cb.barrier_wait(id, 1);
  cb.delete_group(g);
  cb.close();
  return r.kmd->submit(cb, queue);
}

Submission release(Rig& r, uint32_t id, unsigned queue = 1) {
  CommandBuffer cb = r.umd->create_command_buffer("release");
  cb.barrier_update(id, 1);
  cb.close();
  return r.kmd->submit(cb, queue);
}

Submission use(Rig& r, std::initializer_list<ResourceGroup*> groups, unsigned queue = 1) {
  CommandBuffer cb = r.umd->create_command_buffer("use");
  for (ResourceGroup* g : groups) cb.set_group(*g);
  cb.close();
  return r.kmd->submit(cb, queue);
}

}  // namespace

// Catches: a vDSID assigned at creation instead of at set, a different vDSID when the group is
// set again in another command buffer (FIG. 5), a new one after delete and re-set (FIG. 4).
TEST(Groups, VdsidAssignedWhenSetKeptUntilDeleted) {
  Rig r;
  ResourceGroup& g = group(r, "g", 0);
  EXPECT_EQ(g.vdsid(), 0u);
  EXPECT_FALSE(g.live());
  CommandBuffer a = r.umd->create_command_buffer("a"), b = r.umd->create_command_buffer("b");
  a.set_group(g);
  const uint16_t v = g.vdsid();
  EXPECT_NE(v, 0u);
  b.set_group(g);
  EXPECT_EQ(g.vdsid(), v);
  ASSERT_EQ(a.relocations().size(), 1u);
  EXPECT_EQ(a.relocations()[0].token, PatchToken::DsidSet);
  EXPECT_EQ(a.relocations()[0].vdsid, v);
  b.delete_group(g);
  EXPECT_FALSE(g.live());
  b.set_group(g);
  EXPECT_NE(g.vdsid(), v) << "the old vDSID is reserved until its delete fence";
  EXPECT_TRUE(r.umd->pool().allocated(v));
}

// Catches: an exhausted pool throwing or reusing a live vDSID instead of falling back to the
// default DSID 0 with a warning.
TEST(Groups, PoolExhaustionUsesDefaultDsidWithWarning) {
  Rig r(RigOptions{.vdsid_pool = 2});
  ResourceGroup &g1 = group(r, "g1", 0), &g2 = group(r, "g2", 4096), &g3 = group(r, "g3", 8192);
  CommandBuffer cb = r.umd->create_command_buffer();
  cb.set_group(g1);
  cb.set_group(g2);
  cb.set_group(g3);
  EXPECT_EQ(g1.vdsid(), 1u);
  EXPECT_EQ(g2.vdsid(), 2u);
  EXPECT_EQ(g3.vdsid(), 0u);
  EXPECT_TRUE(g3.live());
  EXPECT_EQ(r.umd->stats().vdsid_exhausted, 1u);
  EXPECT_TRUE(r.warned("no free virtual DSID for resource group 'g3'"));
  EXPECT_EQ(cb.relocations().size(), 2u) << "DSID 0 needs no relocation";
}

// Catches: two live groups sharing a resource each getting their own DSID (a delete of one
// would drop the other's data), no warning, or the conflict persisting after a delete.
TEST(Groups, SharedResourceBetweenLiveGroupsUsesDefaultDsidWithWarning) {
  Rig r;
  const Resource shared = r.umd->create_resource(ResourceKind::Texture, at(r, 0), 4096, "shadow");
  const Resource own = r.umd->create_resource(ResourceKind::Buffer, at(r, 8192), 256, "own");
  ResourceGroup& a = r.umd->create_group("a", {shared});
  ResourceGroup& b = r.umd->create_group("b", {own, shared});
  ResourceGroup& c = group(r, "c", 2048, 64);  // overlaps 'shadow' by address, not by object
  CommandBuffer cb = r.umd->create_command_buffer();
  cb.set_group(a);
  const uint16_t va = a.vdsid();
  cb.set_group(b);
  EXPECT_EQ(b.vdsid(), 0u);
  EXPECT_TRUE(a.demoted());
  EXPECT_EQ(a.encoded_vdsid(), 0u) << "commands recorded from now on use the default DSID";
  EXPECT_EQ(a.vdsid(), va) << "the vDSID already encoded stays reserved until a's delete";
  EXPECT_TRUE(r.warned("resource group 'b' shares texture 'shadow' with live group 'a'"));
  cb.set_group(c);
  EXPECT_EQ(c.vdsid(), 0u) << "overlapping address ranges are shared resources too";
  EXPECT_EQ(r.umd->stats().shared_resource, 2u);
  cb.delete_group(a);
  cb.delete_group(b);
  cb.delete_group(c);
  cb.set_group(b);
  EXPECT_NE(b.vdsid(), 0u) << "no live group shares its resources any more";
}

// Catches: DSID fields left virtual (or 0) in the submitted copy, the wrong field rewritten,
// the host buffer modified by relocation, the delete fence not filled in, the pipeline
// tagging writes with anything but the hardware DSID.
TEST(Dsid, RelocatedAtSubmit) {
  Rig r;
  ResourceGroup &color = group(r, "color", 0), &depth = group(r, "depth", 4096);
  CommandBuffer filler = r.umd->create_command_buffer("filler");  // so vDSID != hwDSID
  for (int i = 0; i < 5; ++i) filler.set_group(group(r, fmt::format("f{}", i), 16384 + 4096 * i));
  CommandBuffer cb = r.umd->create_command_buffer("rel");
  cb.set_group(color);
  RenderPassDesc d;
  d.width = d.height = 64;
  d.color = Attachment{at(r, 0), LoadOp::Clear, StoreOp::Store, &color};
  d.depth = Attachment{at(r, 4096), LoadOp::Clear, StoreOp::DontCare, &depth};
  d.single_level_only = true;
  cb.set_group(depth);
  cb.set_group(color);
  cb.begin_render_pass(d);
  cb.draw(DrawDesc{.count = 3});
  cb.end_render_pass();
  cb.delete_group(depth);
  cb.close();
  const Dwords host(cb.dwords().begin(), cb.dwords().end());
  const uint16_t vc = color.vdsid();
  const Submission sub = r.kmd->submit(cb, 0);
  EXPECT_EQ(Dwords(cb.dwords().begin(), cb.dwords().end()), host) << "the host copy stays virtual";
  const uint8_t hc = r.kmd->hw_dsid(vc);
  ASSERT_NE(hc, 0u);
  EXPECT_NE(hc, vc);
  const auto copy = decode_packets(read_dwords(r.dev, sub.gpu_addr, sub.size_dwords));
  uint32_t hd = 0, sets = 0;
  for (const Packet& p : copy) {
    if (p.opcode == TS_OP_DSID_SET) {
      ++sets;
      EXPECT_NE(TS_PKT_DSID_SET_DSID_GET(p.payload[TS_PKT_DSID_SET_DSID_DW]), 0u);
    }
    if (p.opcode == TS_OP_RENDERPASS_BEGIN) {
      EXPECT_EQ(TS_PKT_RENDERPASS_BEGIN_COLOR_DSID_GET(p.payload[TS_PKT_RENDERPASS_BEGIN_COLOR_DSID_DW]), hc);
      hd = TS_PKT_RENDERPASS_BEGIN_DEPTH_DSID_GET(p.payload[TS_PKT_RENDERPASS_BEGIN_DEPTH_DSID_DW]);
    }
    if (p.opcode == TS_OP_DSID_DELETE) {
      EXPECT_EQ(TS_PKT_DSID_DELETE_DSID_GET(p.payload[TS_PKT_DSID_DELETE_DSID_DW]), hd);
      EXPECT_NE(TS_PKT_DSID_DELETE_FENCE_ADDR_GET(p.payload[TS_PKT_DSID_DELETE_FENCE_ADDR_DW]), 0u);
      EXPECT_NE(TS_PKT_DSID_DELETE_FENCE_VALUE_GET(p.payload[TS_PKT_DSID_DELETE_FENCE_VALUE_DW]), 0u);
    }
  }
  EXPECT_EQ(sets, 3u);
  EXPECT_NE(hd, 0u);
  EXPECT_NE(hd, hc);
  r.kmd->wait(sub);
  for (const auto& c : r.dev.pipe_log()) {
    if (c.opcode == TS_OP_DRAW) {
      EXPECT_EQ(c.dsid, hc);
    }
  }
  ASSERT_EQ(r.dev.delete_hints().size(), 1u);
  EXPECT_EQ(r.dev.delete_hints()[0].dsid, hd);
}

// DSID LIFETIME, virtual side. Catches: a deleted vDSID handed out again before the GPU
// finished the delete (its fence not yet written), or never handed out again after.
TEST(Dsid, VirtualDsidReusedOnlyAfterDeleteFence) {
  Rig r(RigOptions{.vdsid_pool = 2});
  ResourceGroup &g1 = group(r, "g1", 0), &g2 = group(r, "g2", 4096), &g3 = group(r, "g3", 8192), &g4 = group(r, "g4", 12288);
  r.kmd->wait(use(r, {&g1, &g2}));
  ASSERT_EQ(g1.vdsid(), 1u);
  const Submission del = gated_delete(r, g1, 3);
  r.dev.advance(500);
  r.kmd->poll();
  EXPECT_FALSE(r.kmd->retired(del));
  EXPECT_TRUE(r.kmd->vdsid_deleting(1));
  EXPECT_TRUE(r.umd->pool().allocated(1)) << "the delete's fence has not been written";
  r.kmd->wait(use(r, {&g3}));
  EXPECT_EQ(g3.vdsid(), 0u) << "pool of 2: vDSID 1 is still reserved";
  r.kmd->wait(release(r, 3));
  r.kmd->wait(del);
  EXPECT_FALSE(r.kmd->vdsid_deleting(1));
  EXPECT_FALSE(r.umd->pool().allocated(1));
  r.kmd->wait(use(r, {&g4}));
  EXPECT_EQ(g4.vdsid(), 1u) << "reused after the fence";
}

// DSID LIFETIME, hardware side. Catches: a hardware DSID reused while its delete is pending
// (its lines would be dropped under the new owner), exhaustion of the 63 hardware DSIDs not
// falling back to 0 or not counted, a freed hardware DSID not reused; and the device order:
// delete hint first, fence after.
TEST(Dsid, HardwareDsidReusedOnlyAfterDeleteFenceExhaustionCounted) {
  Rig r;
  std::vector<ResourceGroup*> g;
  for (int i = 0; i < 64; ++i) g.push_back(&group(r, fmt::format("g{}", i), 256u * i, 256));
  std::vector<ResourceGroup*> first(g.begin(), g.begin() + 63);
  CommandBuffer all = r.umd->create_command_buffer("all63");
  for (ResourceGroup* x : first) all.set_group(*x);
  all.close();
  r.kmd->wait(r.kmd->submit(all, 0));
  EXPECT_EQ(r.kmd->hw_dsids_in_use(), 63u);
  EXPECT_EQ(r.kmd->stats().hw_dsid_exhausted, 0u);
  const uint16_t v0 = g[0]->vdsid();
  const uint8_t h0 = r.kmd->hw_dsid(v0);
  ASSERT_NE(h0, 0u);

  const Submission del = gated_delete(r, *g[0], 9);
  r.dev.advance(500);
  r.kmd->poll();
  EXPECT_TRUE(r.kmd->hw_dsid_reserved(h0)) << "delete submitted, fence not written: still reserved";
  const Submission u = use(r, {g[63]});
  EXPECT_EQ(r.kmd->stats().hw_dsid_exhausted, 1u);
  EXPECT_TRUE(r.warned("no free hardware DSID for virtual DSID"));
  const auto copy = decode_packets(read_dwords(r.dev, u.gpu_addr, u.size_dwords));
  EXPECT_EQ(TS_PKT_DSID_SET_DSID_GET(copy.at(0).payload[TS_PKT_DSID_SET_DSID_DW]), 0u) << "fell back to DSID 0";
  r.kmd->wait(u);

  r.kmd->wait(release(r, 9));
  r.kmd->wait(del);
  EXPECT_FALSE(r.kmd->hw_dsid_reserved(h0));
  EXPECT_EQ(r.kmd->stats().hw_dsids_released, 1u);
  ASSERT_EQ(r.dev.delete_hints().size(), 1u);
  EXPECT_EQ(r.dev.delete_hints()[0].dsid, h0);
  r.kmd->wait(use(r, {g[63]}));
  EXPECT_EQ(r.kmd->hw_dsid(g[63]->vdsid()), h0) << "the freed hardware DSID is reused";
  EXPECT_EQ(r.kmd->stats().hw_dsid_exhausted, 1u);
  // And the freed vDSID too.
  CommandBuffer again = r.umd->create_command_buffer("again");
  again.set_group(*g[0]);
  EXPECT_EQ(g[0]->vdsid(), v0);
}

// Catches: a command buffer that still uses a vDSID whose delete was submitted being accepted
// (its DSID could be remapped while the delete drops its lines), and a rejected submit that
// leaves something behind in the ring.
TEST(Dsid, UseAfterDeleteIsRejectedAndNothingIsSubmitted) {
  Rig r;
  ResourceGroup& g = group(r, "g", 0);
  CommandBuffer early = r.umd->create_command_buffer("early");
  early.set_group(g);  // recorded before the delete, submitted after it
  early.close();
  r.kmd->wait(use(r, {&g}));
  gated_delete(r, g, 2);
  const uint32_t wptr = r.dev.read_reg(TS_CP_RING_WPTR_OFFSET_N(1));
  const std::size_t pending = r.kmd->pending();
  try {
    r.kmd->submit(early, 1);
    ADD_FAILURE() << "use after delete accepted";
  } catch (const DriverError& e) {
    EXPECT_NE(std::string(e.what()).find("after its DSID_DELETE was submitted"), std::string::npos) << e.what();
  }
  EXPECT_EQ(early.state(), CommandBuffer::State::Closed);
  EXPECT_EQ(r.kmd->pending(), pending);
  EXPECT_EQ(r.dev.read_reg(TS_CP_RING_WPTR_OFFSET_N(1)), wptr);
  r.kmd->wait(release(r, 2));
  r.kmd->wait_idle();
}
