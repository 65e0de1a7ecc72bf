// Shared pieces of the driver tests: a rig (RefDevice + UMD + KMD wired like an application
// would), trace helpers, and the random program generator of the patch-equivalence test.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tessera/driver/kmd.hpp"
#include "tessera/driver/packets.hpp"
#include "tessera/driver/umd.hpp"
#include "tessera/sim/ref_device.hpp"

namespace tessera::driver::test {

// The driver is tested on the reference model of the GPU (sim/gpu), as an application would.
using sim::RefDevice;
using sim::ExecutedPacket;
using sim::RefDeviceConfig;

struct RigOptions {
  RefDeviceConfig device = {};
  uint32_t vdsid_pool = VirtualDsidPool::kDefaultCapacity;
  uint32_t ring_log2 = 10;
  uint32_t max_cb_dwords = 1u << 20;
  bool init = true;
};

// A RefDevice driven by a Umd and a Kmd, warnings captured, vDSIDs released to the UMD.
struct Rig {
  explicit Rig(RigOptions o = {});
  BinningState state;
  std::vector<std::string> warnings;
  RefDevice dev;
  std::unique_ptr<Umd> umd;
  std::unique_ptr<Kmd> kmd;
  VisBuffer vis;        // the default visibility buffer
  uint32_t scratch = 0;  // 64 KiB of GPU memory for targets, fences, buffers

  bool warned(const std::string& needle) const;
};

// Address of the test's scratch byte `off`.
inline uint32_t at(const Rig& r, uint32_t off) { return r.scratch + off; }

std::vector<Packet> packets_of(const Dwords& d);
// Trace entries of one queue (optionally only one IB level / pass 0), as packets.
std::vector<Packet> trace_packets(const RefDevice& dev, int queue, int level = -1, bool first_pass_only = false,
                                  bool drop_cond_exec = false);
std::string dump(const std::vector<Packet>& p);
Dwords read_dwords(Device& dev, uint32_t addr, uint32_t n);

// A random program: the operations an application records, replayable into any command
// buffer of a rig prepared by prepare_program (same groups, same IB2).
struct ProgramOp {
  enum Kind { RenderPass, SetRegs, Fence, BarrierPair, SetGroup, DeleteGroup, SetDefaultDsid, FrameEnd, PerfSample, Nop, CallIb2 } kind;
  RenderPassDesc rp;              // RenderPass (groups as indices below)
  int color_group = -1, depth_group = -1;
  std::vector<DrawDesc> draws;    // RenderPass body
  std::vector<int> body_extras;   // RenderPass body: 0 SET_REGS, 1 CallIb2, 2 NOP, 3 set group 0 if live
  uint32_t a = 0, b = 0, c = 0;
  int group = -1;
};
struct Program {
  std::vector<ProgramOp> ops;
};

constexpr int kProgramGroups = 4;
// Groups and the IB2 the programs use; identical in every rig it is called on.
struct ProgramEnv {
  std::vector<ResourceGroup*> groups;
  uint32_t ib2_addr = 0, ib2_size = 0;
};
ProgramEnv prepare_program(Rig& r);
Program random_program(std::mt19937_64& rng, const Rig& r);
void record(const Program& p, const ProgramEnv& env, CommandBuffer& cb);

}  // namespace tessera::driver::test
