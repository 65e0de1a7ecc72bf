// The driver API guide's example (docs/driver.md): build a command buffer, patch it for
// two-level binning when the policy says so, submit it and wait for its fence.
//
//   driver_example [policy.yaml]
//
// Runs on the C++ reference device; with the RTL backend only the Device changes.
#include <fmt/format.h>

#include <cstdio>
#include <exception>

#include "tessera/driver/kmd.hpp"
#include "tessera/driver/policy.hpp"
#include "tessera/driver/umd.hpp"
#include "tessera/sim/ref_device.hpp"

using namespace tessera::driver;

int main(int argc, char** argv) try {
  // 1. A device and the driver on it. The state bit is shared by policy, UMD and KMD.
  tessera::sim::RefDevice gpu;  // the reference model of the GPU (sim/gpu)
  BinningState binning;
  Umd umd(binning);
  KmdConfig kc;
  kc.on_vdsid_released = [&](uint16_t v) { umd.release_vdsid(v); };  // DSID reuse after the delete fence
  Kmd kmd(gpu, binning, kc);
  kmd.init();

  // 2. GPU memory: a render target, vertices, a visibility buffer, a fence.
  const uint32_t color = kmd.allocate(320 * 240 * 4);
  const uint32_t depth = kmd.allocate(320 * 240 * 4);
  const uint32_t vertices = kmd.allocate(3 * 16, 16);
  const uint32_t fence = kmd.allocate(4, 4);
  umd.set_vis_buffer(VisBuffer{kmd.allocate(8192), 8192});

  // 3. A resource group for the render target: it gets a virtual DSID when it is set.
  ResourceGroup& target = umd.create_group(
      "scene target", {umd.create_resource(ResourceKind::RenderTarget, color, 320 * 240 * 4, "color"),
                       umd.create_resource(ResourceKind::RenderTarget, depth, 320 * 240 * 4, "depth")});

  // 4. Record. The state bit is PBB now, so the buffer is written in PBB mode; its render pass
  //    carries patch records for the binning information and the visibility buffer.
  CommandBuffer cb = umd.create_command_buffer("frame 0");
  cb.set_group(target);
  RenderPassDesc rp;
  rp.name = "scene";
  rp.width = 320;
  rp.height = 240;
  rp.color = Attachment{color, LoadOp::Clear, StoreOp::Store, &target};
  rp.depth = Attachment{depth, LoadOp::Clear, StoreOp::DontCare, &target};
  rp.clear_color = 0xFF202020;
  cb.begin_render_pass(rp);
  cb.draw(DrawDesc{Topology::TriList, IndexType::None, 3, vertices, 0, 0});
  cb.end_render_pass();
  cb.delete_group(target);  // the target's cache lines are not needed after the frame
  cb.fence(fence, 1);
  cb.frame_end(0);
  cb.close();
  fmt::print("recorded '{}': {} dwords, written in {} mode, {} patch records\n", cb.name(), cb.size_dwords(),
             to_string(cb.written_mode()), cb.workloads()[0].patches.size());

  // 5. Performance data says the device is hot: the policy activates two-level binning.
  const PolicyConfig policy_cfg = argc > 1 ? load_policy_config(argv[1]) : PolicyConfig{};
  BinningPolicy policy(policy_cfg);
  PerfSample hot;
  hot.time_s = 1.0;
  hot.temps_c = {{"gpu", 78.0}, {"cpu", 74.0}};
  hot.power_w = 7.5;
  hot.soc_pct = 60;
  hot.gpu_clock_mhz = 650;  // throttled
  const Decision d = policy.update(hot);
  binning.set(d.two_level, d.reason);
  fmt::print("policy ({}): {}\n", policy_cfg.source, d.reason);

  // 6. Submit: the KMD patches the buffer right before submission (CPU side), maps the
  //    virtual DSID to a hardware DSID, and rings the doorbell. Then wait for the fence.
  const Submission s = kmd.submit(cb, 0, SubmitOptions{.interrupt = true});
  fmt::print("submitted as {} in {} mode at 0x{:08x}\n", s.id, to_string(s.mode), s.gpu_addr);
  kmd.wait(s, WaitMode::Interrupt);
  fmt::print("retired: fence = {}, {} packets executed, {} pipe commands, {} delete hint(s)\n", gpu.read_mem32(fence),
             gpu.trace().size(), gpu.pipe_log().size(), gpu.delete_hints().size());
  // The pipeline's view: the body replays once per coarse bin (8 x 4 by default).
  for (std::size_t i = 0; i < gpu.pipe_log().size(); ++i) {
    if (i == 5 && gpu.pipe_log().size() > 8) {
      fmt::print("  ... {} more ...\n", gpu.pipe_log().size() - 7);
      i = gpu.pipe_log().size() - 2;
    }
    fmt::print("  {}\n", format_pipe_command(gpu.pipe_log()[i]));
  }

  const bool ok = gpu.read_mem32(fence) == 1 && s.mode == (d.two_level ? BinMode::TwoLevel : BinMode::Pbb) &&
                  kmd.hw_dsids_in_use() == 0;
  fmt::print("{}\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "driver_example: %s\n", e.what());
  return 1;
}
