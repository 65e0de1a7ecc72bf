#include "test_util.hpp"

#include <fmt/format.h>

namespace tessera::driver::test {

Rig::Rig(RigOptions o) : dev(o.device) {
  UmdConfig uc;
  uc.vdsid_pool_size = o.vdsid_pool;
  uc.max_command_buffer_dwords = o.max_cb_dwords;
  uc.warn = [this](const std::string& m) { warnings.push_back(m); };
  umd = std::make_unique<Umd>(state, uc);
  KmdConfig kc;
  kc.ring_log2_dwords = o.ring_log2;
  kc.warn = [this](const std::string& m) { warnings.push_back(m); };
  kc.on_vdsid_released = [this](uint16_t v) { umd->release_vdsid(v); };
  kc.timeout_cycles = 200'000;
  kmd = std::make_unique<Kmd>(dev, state, kc);
  if (o.init) {
    kmd->init();
    vis = VisBuffer{kmd->allocate(4096, 64), 4096};
    umd->set_vis_buffer(vis);
    scratch = kmd->allocate(64 * 1024, 4096);
  }
}

bool Rig::warned(const std::string& needle) const {
  for (const auto& w : warnings)
    if (w.find(needle) != std::string::npos) return true;
  return false;
}

std::vector<Packet> packets_of(const Dwords& d) { return decode_packets(d); }

std::vector<Packet> trace_packets(const RefDevice& dev, int queue, int level, bool first_pass_only, bool drop_cond_exec) {
  std::vector<Packet> out;
  for (const ExecutedPacket& e : dev.trace()) {
    if (queue >= 0 && e.queue != queue) continue;
    if (level >= 0 && e.ib_level != level) continue;
    if (first_pass_only && e.pass != 0) continue;
    auto p = decode_packets(e.dwords);
    if (drop_cond_exec && p.at(0).opcode == TS_OP_COND_EXEC) continue;
    out.push_back(p.at(0));
  }
  return out;
}

std::string dump(const std::vector<Packet>& p) {
  std::string s;
  for (std::size_t i = 0; i < p.size(); ++i) s += fmt::format("  {:3}: {}\n", i, format_packet(p[i]));
  return s;
}

Dwords read_dwords(Device& dev, uint32_t addr, uint32_t n) {
  Dwords d(n);
  dev.read_dwords(addr, d);
  return d;
}

// ---- random programs ------------------------------------------------------------------------------

ProgramEnv prepare_program(Rig& r) {
  ProgramEnv env;
  for (int g = 0; g < kProgramGroups; ++g) {
    // Render target g at scratch + g * 8 KiB, its depth right after it: disjoint groups.
    const Resource color = r.umd->create_resource(ResourceKind::RenderTarget, at(r, g * 8192), 4096, fmt::format("color{}", g));
    const Resource depth = r.umd->create_resource(ResourceKind::RenderTarget, at(r, g * 8192 + 4096), 4096, fmt::format("depth{}", g));
    env.groups.push_back(&r.umd->create_group(fmt::format("g{}", g), {color, depth}));
  }
  const uint32_t regs[] = {0x11, 0x22};
  Dwords ib2 = pkt::set_regs(0x200, regs);
  const Dwords nop = pkt::nop(1);
  ib2.insert(ib2.end(), nop.begin(), nop.end());
  env.ib2_addr = at(r, 40 * 1024);
  env.ib2_size = static_cast<uint32_t>(ib2.size());
  r.dev.write_dwords(env.ib2_addr, ib2);
  return env;
}

Program random_program(std::mt19937_64& rng, const Rig& r) {
  auto pick = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); };
  Program p;
  bool live[kProgramGroups] = {};
  uint32_t barrier = 0;
  const unsigned n = pick(1, 10);
  for (unsigned i = 0; i < n; ++i) {
    ProgramOp op{};
    switch (pick(0, 10)) {
      case 0: case 1: case 2: case 3: {
        op.kind = ProgramOp::RenderPass;
        op.rp.name = fmt::format("rp{}", i);
        // The targets are 4 KiB resources: at most 32 x 32 pixels. (Up to 2048 x 2048 came out
        // before: the reference device tags a render pass's whole width x height x 4 bytes with
        // its DSID, so a DSID_DELETE then poisoned the IB2 beside the targets and the next call
        // of it failed with BAD_OPCODE, in about one run in ten.) Same generator draws as before.
        op.rp.width = 1 + (pick(1, 2048) - 1) % 32;
        op.rp.height = 1 + (pick(1, 2048) - 1) % 32;
        const int g = static_cast<int>(pick(0, kProgramGroups - 1));
        op.rp.color.addr = at(r, g * 8192);
        op.rp.depth.addr = at(r, g * 8192 + 4096);
        op.rp.color.load = static_cast<LoadOp>(pick(0, 2));
        op.rp.color.store = static_cast<StoreOp>(pick(0, 1));
        op.rp.depth.load = static_cast<LoadOp>(pick(0, 2));
        op.rp.depth.store = static_cast<StoreOp>(pick(0, 1));
        op.rp.clear_color = static_cast<uint32_t>(rng());
        op.rp.clear_depth = pick(0, 0xFFFFFF);
        op.rp.single_level_only = pick(0, 3) == 0;
        op.rp.two_level = BinningInfo{BinMode::TwoLevel, static_cast<BinSize>(pick(0, 2)), static_cast<BinOrder>(pick(0, 1)),
                                      static_cast<uint8_t>(pick(1, 3)), static_cast<uint8_t>(pick(1, 2))};
        if (live[g] && pick(0, 1)) op.color_group = g;
        if (live[g] && pick(0, 1)) op.depth_group = g;
        for (unsigned d = pick(0, 4); d > 0; --d) {
          DrawDesc dd;
          dd.topology = static_cast<Topology>(pick(0, 4));
          dd.index_type = static_cast<IndexType>(pick(0, 2));
          dd.count = pick(0, 100000);
          // patch draws take whole patches (4 / 3 / 2 control points)
          if (dd.topology >= Topology::PatchQuad)
            dd.count -= dd.count % (dd.topology == Topology::PatchQuad ? 4u : dd.topology == Topology::PatchTri ? 3u : 2u);
          dd.vertex_addr = at(r, pick(0, 1023) * 16);
          dd.index_addr = at(r, pick(0, 4095) * 4);
          dd.tf_addr = at(r, pick(0, 4095) * 4 & ~15U);  // tf_records are 16-byte aligned (same draws of the generator as before)
          op.draws.push_back(dd);
        }
        for (unsigned e = pick(0, 2); e > 0; --e) op.body_extras.push_back(static_cast<int>(pick(0, 3)));
        break;
      }
      case 4: op.kind = ProgramOp::SetRegs; op.a = pick(0, 0x3FF) * 4; op.b = pick(1, 4); op.c = static_cast<uint32_t>(rng()); break;
      case 5: op.kind = ProgramOp::Fence; op.a = at(r, 36 * 1024 + pick(0, 255) * 4); op.b = static_cast<uint32_t>(rng()); op.c = pick(0, 7); break;
      case 6: op.kind = ProgramOp::BarrierPair; op.a = pick(0, 15); op.b = ++barrier + 1000; break;
      case 7: {
        const int g = static_cast<int>(pick(0, kProgramGroups - 1));
        if (!live[g] || pick(0, 1)) {
          op.kind = ProgramOp::SetGroup;
          live[g] = true;
        } else {
          op.kind = ProgramOp::DeleteGroup;
          live[g] = false;
        }
        op.group = g;
        break;
      }
      case 8: op.kind = pick(0, 1) ? ProgramOp::FrameEnd : ProgramOp::SetDefaultDsid; op.a = static_cast<uint32_t>(rng()); break;
      case 9: op.kind = pick(0, 1) ? ProgramOp::PerfSample : ProgramOp::Nop; op.a = at(r, 38 * 1024 + pick(0, 15) * 64); op.b = pick(0, 5); break;
      default: op.kind = ProgramOp::CallIb2; break;
    }
    p.ops.push_back(std::move(op));
  }
  return p;
}

void record(const Program& p, const ProgramEnv& env, CommandBuffer& cb) {
  for (const ProgramOp& op : p.ops) {
    switch (op.kind) {
      case ProgramOp::RenderPass: {
        RenderPassDesc d = op.rp;
        if (op.color_group >= 0) d.color.group = env.groups[op.color_group];
        if (op.depth_group >= 0) d.depth.group = env.groups[op.depth_group];
        cb.begin_render_pass(d);
        std::size_t extra = 0;
        for (const DrawDesc& dd : op.draws) {
          cb.draw(dd);
          if (extra < op.body_extras.size()) {
            switch (op.body_extras[extra++]) {
              case 0: cb.set_regs(0x100, {dd.count}); break;
              case 1: cb.indirect_buffer(env.ib2_addr, env.ib2_size); break;
              case 2: cb.nop(2); break;
              default:
                if (env.groups[0]->live()) cb.set_group(*env.groups[0]);
                break;
            }
          }
        }
        cb.end_render_pass();
        break;
      }
      case ProgramOp::SetRegs: {
        std::vector<uint32_t> v(op.b);
        for (uint32_t i = 0; i < op.b; ++i) v[i] = op.c + i;
        cb.set_regs(op.a, v);
        break;
      }
      case ProgramOp::Fence: cb.fence(op.a, op.b, FenceFlags{(op.c & 1) != 0, (op.c & 2) != 0, (op.c & 4) != 0}); break;
      case ProgramOp::BarrierPair:
        cb.barrier_update(op.a, op.b);
        cb.barrier_wait(op.a, op.b);  // already satisfied: runs through
        break;
      case ProgramOp::SetGroup: cb.set_group(*env.groups[op.group]); break;
      case ProgramOp::DeleteGroup: cb.delete_group(*env.groups[op.group]); break;
      case ProgramOp::SetDefaultDsid: cb.set_default_dsid(); break;
      case ProgramOp::FrameEnd: cb.frame_end(op.a); break;
      case ProgramOp::PerfSample: cb.perf_sample(op.a); break;
      case ProgramOp::Nop: cb.nop(op.b); break;
      case ProgramOp::CallIb2: cb.indirect_buffer(env.ib2_addr, env.ib2_size); break;
    }
  }
}

}  // namespace tessera::driver::test
