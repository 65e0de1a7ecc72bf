#include "tessera/sim/scene_runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <chrono>
#include <string_view>

#include "tessera/driver/pipeline_state.hpp"
#include "tessera/driver/vertex.hpp"
#include "tessera/sim/rtl_device.hpp"
#include "tessera/sim/texel_layout.hpp"
#include "tessera_layouts.hpp"
#include "tessera_spec.h"
#include "tessera/sim/vertex.hpp"

namespace tessera::sim {

using namespace tessera::driver;

namespace {

LoadOp load_op(LoadAction a) {
  switch (a) {
    case LoadAction::Clear: return LoadOp::Clear;
    case LoadAction::Load: return LoadOp::Load;
    case LoadAction::DontCare: return LoadOp::DontCare;
  }
  return LoadOp::DontCare;
}

uint32_t rgba8(const Vec4& c) { return pack_rgba8(to_unorm8(c.x), to_unorm8(c.y), to_unorm8(c.z), to_unorm8(c.w)); }

CullState cull_state(Cull c) {
  const CullMode mode = c == Cull::Back ? CullMode::Back : (c == Cull::Front ? CullMode::Front : CullMode::None);
  // Screen y points down, so the scene's counter-clockwise front faces are clockwise on the
  // GPU's (x right, y up) winding (docs/tessera-sim.md "Winding").
  return CullState{mode, FrontFace::Clockwise};
}

DepthCompare depth_compare(DepthFunc f) {
  switch (f) {
    case DepthFunc::Never: return DepthCompare::Never;
    case DepthFunc::Less: return DepthCompare::Less;
    case DepthFunc::LEqual: return DepthCompare::LEqual;
    case DepthFunc::Always: return DepthCompare::Always;
  }
  return DepthCompare::Always;
}

// A patch draw's TF buffer (docs/tessera-sim.md "Tessellation"): one 16-byte record per patch.
// Quad patches: both inside factors and the four outer factors are the patch's factor;
// triangle patches: inner0 and the three outer factors. (The uniform tessellator reads the
// inside factors only; the outer ones are written for a reader that adapts edges.)
std::vector<uint8_t> tf_buffer(const PatchPlan& p) {
  std::vector<uint8_t> out;
  out.reserve(p.factors.size() * 16);
  for (uint32_t f : p.factors) {
    layout::TfRecord r;
    const auto v = static_cast<uint8_t>(f);
    r.inner0 = v;
    r.outer0 = r.outer1 = r.outer2 = v;
    if (p.control_points == 4) r.inner1 = r.outer3 = v;
    for (uint32_t w : r.pack())
      for (unsigned b = 0; b < 4; ++b) out.push_back(static_cast<uint8_t>(w >> (8 * b)));
  }
  static_assert(layout::TfRecord::kWords * 4 == 16);
  return out;
}

// Triangles the tessellator makes of the draw's patches (for the progress estimate).
uint64_t patch_triangles(const PatchPlan& p) {
  uint64_t n = 0;
  for (uint32_t f : p.factors) {
    const uint64_t k = std::min<uint32_t>(f, 64);
    n += p.control_points == 4 ? 2 * k * k : k * k;
  }
  return n;
}

}  // namespace

void check_scene_memory(const LoadedScene& ls, uint64_t memory_bytes) {
  struct Use {
    uint64_t bytes;
    std::string what;
  };
  const Scene& sc = ls.scene;
  std::vector<Use> uses;
  auto at = [&](const SourceLoc& l) { return fmt::format("{}:{}:{}", sc.file, l.line, l.column); };
  // Each target has a color and a depth buffer of 4 bytes per pixel. The screen is named by
  // the scene's `target:` (or as the default size when the scene has none).
  const std::string screen_at =
      sc.target_loc.line ? at(sc.target_loc) : fmt::format("{}: the default size", sc.file);
  uses.push_back({8ull * sc.width * sc.height,
                  fmt::format("target 'screen' {}x{} ({})", sc.width, sc.height, screen_at)});
  for (const auto& [name, t] : sc.targets)
    uses.push_back({8ull * t.width * t.height, fmt::format("target '{}' {}x{} ({})", name, t.width, t.height, at(t.loc))});
  for (const auto& [name, tex] : ls.textures) {
    auto spec = sc.textures.find(name);
    uses.push_back({tex.rgba.size(), fmt::format("texture '{}' {}x{} ({})", name, tex.width, tex.height,
                                                 spec != sc.textures.end() ? at(spec->second.loc) : sc.file)});
  }
  const FramePlan plan = plan_frame(ls, 0);
  for (const PassPlan& pp : plan.passes)
    for (std::size_t k = 0; k < pp.draws.size(); ++k) {
      const ScreenDraw& d = pp.draws[k];
      uses.push_back({d.vertices.size() * kVertexBytes + index_buffer_bytes(d.indices.size(), d.vertices.size()) +
                          (d.patch ? 16 * d.patch->factors.size() : 0),
                      fmt::format("draw {} ({})", d.label, at(pp.spec->draws[k].loc))});
    }
  uint64_t need = 0;
  for (const Use& u : uses) need += u.bytes;
  const uint64_t have = memory_bytes > kKmdReserveBytes ? memory_bytes - kKmdReserveBytes : 0;
  if (need <= have) return;
  std::sort(uses.begin(), uses.end(), [](const Use& a, const Use& b) { return a.bytes > b.bytes; });
  std::string list;
  for (std::size_t i = 0; i < uses.size() && i < 4; ++i)
    list += fmt::format("\n  {:.1f} MiB  {}", static_cast<double>(uses[i].bytes) / (1 << 20), uses[i].what);
  throw SceneMemoryError(fmt::format(
      "{}: the scene needs {:.1f} MiB of GPU memory, the device has {:.1f} MiB ({} MiB kept for the KMD); the largest "
      "users:{}\nMake them smaller, or give the GPU more memory with --memory-mib",
      sc.file, static_cast<double>(need) / (1 << 20), static_cast<double>(have) / (1 << 20), kKmdReserveBytes >> 20, list));
}

void SceneRunner::upload(uint32_t addr, std::span<const uint8_t> bytes, uint64_t& n, uint64_t& cycles, double& seconds) {
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t c0 = dev_->cycles();
  dev_->write_mem(addr, bytes);
  cycles += dev_->cycles() - c0;
  seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  n += bytes.size();
}

SceneRunner::SceneRunner(const LoadedScene& scene, RunConfig cfg, FrameRenderer* renderer)
    : scene_(scene), cfg_(std::move(cfg)), renderer_(renderer) {
  check_scene_memory(scene_, cfg_.memory_bytes);
  if (cfg_.backend == "ref") {
    RefDeviceConfig rc;
    rc.memory_bytes = cfg_.memory_bytes;
    rc.record_trace = false;
    auto d = std::make_unique<RefDevice>(rc);
    ref_ = d.get();
    if (renderer_) ref_->set_pipeline(renderer_);  // renders as the command stream executes
    dev_ = std::move(d);
  } else if (cfg_.backend == "rtl") {
    GpuSimConfig gc;
    gc.slices = cfg_.slices;   // the whole GPU: CP, pipeline (gpu_n<slices>), memory system
    gc.seed = cfg_.seed;
    gc.wave_file = cfg_.wave_file;
    gc.wave_start = cfg_.wave_start;
    gc.wave_end = cfg_.wave_end;
    gc.echo_console = false;
    gc.cancel = cfg_.cancel;  // SIGINT/SIGTERM in tessera-sim: stop within a few thousand cycles
    auto d = std::make_unique<RtlDevice>(gc, cfg_.memory_bytes);
    rtl_ = d.get();
    dev_ = std::move(d);
  } else {
    throw std::invalid_argument(fmt::format("unknown backend '{}' (rtl or ref)", cfg_.backend));
  }
  UmdConfig uc;
  if (cfg_.two_level_binning) uc.two_level = *cfg_.two_level_binning;
  uc.slices = cfg_.slices;   // the two-level grid fits the slices' GMEM (raster_slice GMEM_LINES)
  umd_ = std::make_unique<Umd>(binning_, uc);
  KmdConfig kc;
  // On the RTL a poll is a memory read through the memory system (~100 cycles).
  if (rtl_) kc.poll_interval_cycles = 256;
  kc.timeout_cycles = 400'000'000;
  kc.on_vdsid_released = [this](uint16_t v) { umd_->release_vdsid(v); };
  kmd_ = std::make_unique<Kmd>(*dev_, binning_, kc);
  kmd_->init();
  if (const uint32_t ways = cfg_.slc_ways.value_or(scene_.scene.slc_ways); ways != 0) kmd_->set_slc_way_limit(ways);
  // The visibility buffer of two-level passes (docs/two-level.md "Visibility buffer"): one bit
  // per primitive and coarse bin, each coarse bin's bitmap whole 64-byte lines. Sized for the
  // UMD's coarse grid and the scene's primitives, so no pass outgrows it (a primitive beyond
  // it would count as visible everywhere: correct, only slower).
  {
    const UmdConfig& uc = umd_->config();
    const uint64_t bins = std::max<uint64_t>(1, uint64_t{uc.two_level.coarse_x} * uc.two_level.coarse_y);
    const uint64_t lines = std::max<uint64_t>(1, (scene_.triangles() + scene_.patches() + 511) / 512);
    const uint32_t bytes = static_cast<uint32_t>(std::min<uint64_t>(bins * lines * 64, 64u << 20));
    vis_buffer_ = VisBuffer{kmd_->allocate(bytes, 64), bytes};
    umd_->set_vis_buffer(vis_buffer_);
  }

  // The tile prefetcher's history (docs/prefetcher.md "History in memory"): 64 bytes per tile
  // of a frame's render passes, at the smallest bin size; a two-level pass runs once more per
  // coarse bin, and each run is a render pass of its own. Fresh memory reads 0, which is never
  // a previous frame's line.
  if (cfg_.prefetch.mode != driver::PrefetchMode::Off) {
    const UmdConfig& uc = umd_->config();
    const uint64_t runs = 1 + uint64_t{uc.two_level.coarse_x} * uc.two_level.coarse_y;
    uint64_t tiles = 0;
    for (const PassSpec& ps : scene_.scene.passes) {
      const bool screen = ps.target == kScreenTarget;
      const auto it = scene_.scene.targets.find(ps.target);
      const uint32_t w = screen || it == scene_.scene.targets.end() ? scene_.scene.width : it->second.width;
      const uint32_t h = screen || it == scene_.scene.targets.end() ? scene_.scene.height : it->second.height;
      tiles += uint64_t{(w + 15) / 16} * ((h + 15) / 16) * runs;
    }
    pf_history_bytes_ = driver::prefetch_history_bytes(std::max<uint64_t>(tiles, 1), cfg_.prefetch.history_slots);
    pf_history_addr_ = kmd_->allocate(pf_history_bytes_, 64);
  }

  auto make_target = [&](const std::string& name, uint32_t w, uint32_t h) {
    Target t;
    t.width = w;
    t.height = h;
    const uint32_t bytes = w * h * 4;
    try {
      t.color = kmd_->allocate(bytes, 64);
      t.depth = kmd_->allocate(bytes, 64);
    } catch (const DriverError& e) {
      throw DriverError(fmt::format("target '{}' ({}x{}) does not fit the {} backend's {} MiB of GPU memory: {}", name, w,
                                    h, cfg_.backend, dev_->memory_size() >> 20, e.what()));
    }
    // A target's initial contents are defined: zero (transparent black, depth 0) on both
    // backends, which is what a pass that loads it before anything rendered it reads. Targets
    // are the first application allocations of a fresh device, so their memory was never
    // written, and both the DRAM model and the reference's memory read 0 there (SparseMemory);
    // no upload is needed to make it so. Checked in runner_test Runner.LoadBeforeRenderReadsZero
    // (colour and depth, both backends) and Runner.AccumulatingTargetSurvivesAcrossFrames.
    t.group = &umd_->create_group(
        name == kScreenTarget ? "screen" : "rtt " + name,
        {umd_->create_resource(ResourceKind::RenderTarget, t.color, bytes, name + " color"),
         umd_->create_resource(ResourceKind::RenderTarget, t.depth, bytes, name + " depth")});
    targets_[name] = t;
  };
  make_target(kScreenTarget, scene_.scene.width, scene_.scene.height);
  for (const auto& [name, t] : scene_.scene.targets) make_target(name, t.width, t.height);
  // Scene textures go to GPU memory in rows, or (RunConfig::tiled_textures) in 4x4-texel blocks
  // in Morton order (RASTER.TEX_CTRL.tiled, docs/raster.md "Texture layout"), as a tiler's
  // driver lays them out, so a tile's texels are a few runs of whole lines. Render targets
  // sampled as textures stay linear: the RB writes them in rows.
  for (const auto& [name, tex] : scene_.textures) {
    TextureBinding t{kmd_->allocate(static_cast<uint32_t>(tex.rgba.size()), 64), tex.width, tex.height};
    const unsigned lw = static_cast<unsigned>(std::countr_zero(tex.width));
    const unsigned lh = static_cast<unsigned>(std::countr_zero(tex.height));
    t.tiled = texture_tiled(cfg_.tiled_textures, lw, lh);
    std::vector<uint8_t> laid(tex.rgba.size());
    for (uint32_t y = 0; y < tex.height; ++y)
      for (uint32_t x = 0; x < tex.width; ++x)
        std::memcpy(&laid[texel_offset(x, y, lw, lh, t.tiled)], &tex.rgba[(std::size_t{y} * tex.width + x) * 4], 4);
    upload(t.addr, laid, setup_upload_bytes_, setup_upload_cycles_, setup_upload_seconds_);
    textures_[name] = t;
  }

  // The ideal prefetch bound (RunConfig::ideal_prefetch): the kinds' data costs the DRAM
  // nothing to read.
  if (cfg_.ideal_prefetch) {
    if (!rtl_) throw DriverError("the ideal prefetch bound (--prefetch ideal) needs the rtl backend: it changes DRAM timing");
    DramConfig dc = rtl_->sim().dram().config();
    dc.ideal_reads.clear();
    dc.ideal_percent = cfg_.ideal_percent;
    dc.ideal_pays_bus = cfg_.ideal_pays_bus;
    if (cfg_.prefetch.kinds & 1u)
      for (const auto& [name, tex] : scene_.textures)
        dc.ideal_reads.push_back(DramRange{textures_.at(name).addr, tex.rgba.size()});
    if (cfg_.prefetch.kinds & 2u)
      for (const auto& [name, t] : targets_) {
        dc.ideal_reads.push_back(DramRange{t.color, uint64_t{t.width} * t.height * 4, cfg_.ideal_target_percent});
        dc.ideal_reads.push_back(DramRange{t.depth, uint64_t{t.width} * t.height * 4, cfg_.ideal_target_percent});
      }
    rtl_->sim().dram().reconfigure(std::move(dc));
  }
}

SceneRunner::~SceneRunner() = default;

void SceneRunner::close() {
  kmd_.reset();
  umd_.reset();
  ref_ = nullptr;
  rtl_ = nullptr;
  dev_.reset();
}

SlcCounters SceneRunner::read_slc() { return kmd_->read_slc_counters(); }

std::optional<TessCounters> SceneRunner::read_tess() {
  if (rtl_) return kmd_->read_tess_counters();  // the GEOM TESS_* registers
  if (renderer_) return renderer_->tess_counters();
  return std::nullopt;  // the reference backend without a pipeline model draws nothing
}

std::optional<driver::VisCounters> SceneRunner::read_vis() {
  if (rtl_) return kmd_->read_vis_counters();  // the GEOM VIS_* registers
  if (renderer_) {
    const std::optional<uint64_t> s = renderer_->primitives_skipped(), r = renderer_->primitives_recorded();
    if (s && r) return driver::VisCounters{*s, *r};
  }
  return std::nullopt;
}

std::vector<driver::PipeCommand> SceneRunner::pipe_log() const {
  if (ref_) return ref_->pipe_log();
  if (rtl_) return rtl_->pipe_log();
  return {};
}

void SceneRunner::set_two_level(bool on, const std::string& reason) { binning_.set(on, reason); }

FrameStats SceneRunner::run_frame(uint32_t frame) {
  FrameStats st;
  st.frame = frame;
  st.binning_mode = binning_.two_level() ? "two-level" : "pbb";
  const auto t0 = std::chrono::steady_clock::now();
  // The tessellation counters are read outside the frame's cycles (before cyc0 here, after
  // every other counter at the end): their register reads clock the RTL GPU.
  const std::optional<TessCounters> tess0 = read_tess();
  const std::optional<driver::VisCounters> vis0 = read_vis();
  const std::optional<ThrottleCounters> thr0 =
      rtl_ ? std::optional<ThrottleCounters>(kmd_->read_throttle_counters()) : std::nullopt;
  driver::PrefetchCounters pf0{};
  if (rtl_) pf0 = kmd_->read_prefetch_counters();
  const uint64_t cyc0 = dev_->cycles();
  // Read with no cycle in between (read_slc() below clocks the GPU through register reads):
  // a slice's activity counts then add up to the frame's cycles exactly.
  const std::vector<SliceStats> slice0 = rtl_ ? rtl_->sim().slice_stats() : std::vector<SliceStats>{};
  DramStats dram0{};
  SlcCounters slc0{};
  if (rtl_) {
    dram0 = rtl_->sim().dram().stats();
    slc0 = read_slc();
  }
  const std::size_t pipe0 = rtl_ ? rtl_->sim().pipe_log().size() : ref_->pipe_log().size();
  if (rtl_ && cfg_.record_slices) rtl_->sim().start_slice_recording();

  const FramePlan plan = plan_frame(scene_, frame);
  std::vector<uint32_t> allocs;
  std::vector<GpuPass> passes;
  CommandBuffer cb = umd_->create_command_buffer(fmt::format("{} frame {}", scene_.scene.name, frame), cfg_.patch);
  if (cfg_.prefetch.mode != driver::PrefetchMode::Off && !pf_sent_) {
    cb.set_prefetch(cfg_.prefetch, pf_history_addr_, pf_history_bytes_);
    pf_sent_ = true;
  }
  for (const PassPlan& pp : plan.passes) {
    const PassSpec& ps = *pp.spec;
    const Target& t = targets_.at(ps.target);
    GpuPass gp;
    gp.name = ps.name;
    gp.width = t.width;
    gp.height = t.height;
    gp.color_addr = t.color;
    gp.depth_addr = t.depth;
    gp.color_load = load_op(ps.color_load);
    gp.depth_load = load_op(ps.depth_load);
    gp.depth_store = ps.depth_store ? StoreOp::Store : StoreOp::DontCare;
    gp.clear_color = rgba8(ps.clear_color);
    gp.clear_depth = to_depth24(ps.clear_depth);
    PipelineState state;
    state.viewport = Viewport::centered(t.width, t.height);
    state.cull = cull_state(ps.cull);
    state.depth = DepthState{ps.depth_test, depth_compare(ps.depth_func), ps.depth_write};
    state.color = ColorState{ps.color_write};
    state.bin_size = cfg_.bin_size;
    state.distribution = cfg_.least_loaded ? DistributionPolicy::LeastLoaded : DistributionPolicy::RoundRobin;
    state.subbatch = cfg_.subbatch;
    state.lrz = cfg_.lrz;
    state.tess = cfg_.tess;
    gp.state = state;

    cb.set_group(*t.group);
    RenderPassDesc rp;
    rp.name = ps.name;
    rp.width = t.width;
    rp.height = t.height;
    rp.color = Attachment{t.color, gp.color_load, gp.color_store, t.group};
    rp.depth = Attachment{t.depth, gp.depth_load, gp.depth_store, t.group};
    rp.clear_color = gp.clear_color;
    rp.clear_depth = gp.clear_depth;
    cb.begin_render_pass(rp, state);
    ++st.passes;
    PassFrameStats pst;
    pst.name = ps.name;
    pst.target = ps.target;
    pst.width = t.width;
    pst.height = t.height;
    for (const ScreenDraw& d : pp.draws) {
      pst.clip += d.stats;
      DrawFrameStats dst;
      dst.pass = static_cast<uint32_t>(st.pass_stats.size());
      dst.label = d.label;
      dst.clip = d.stats;
      dst.indices = static_cast<uint32_t>(d.indices.size());
      st.draw_stats.push_back(dst);
      if (d.indices.empty()) continue;  // everything clipped away: no DRAW
      ++pst.draws;
      GpuDraw gd;
      gd.vertex_count = static_cast<uint32_t>(d.vertices.size());
      gd.index_count = static_cast<uint32_t>(d.indices.size());
      const std::vector<uint8_t> vb = pack_vertices(d.vertices);
      IndexBuffer ib = pack_indices(d.indices, d.vertices.size());
      gd.index_type = ib.type;
      const std::vector<uint8_t> tf = d.patch ? tf_buffer(*d.patch) : std::vector<uint8_t>{};
      try {
        gd.vertex_addr = kmd_->allocate(static_cast<uint32_t>(vb.size()), 64);
        allocs.push_back(gd.vertex_addr);
        gd.index_addr = kmd_->allocate(static_cast<uint32_t>(ib.bytes.size()), 64);
        allocs.push_back(gd.index_addr);
        if (d.patch) {
          gd.tf_addr = kmd_->allocate(static_cast<uint32_t>(tf.size()), 64);
          allocs.push_back(gd.tf_addr);
        }
      } catch (const DriverError& e) {
        for (uint32_t a : allocs) kmd_->free(a);
        throw DriverError(fmt::format("{}:{}:{}: frame {}: draw {}: {} bytes of vertices, indices and tessellation factors "
                                      "do not fit: {}",
                                      scene_.scene.file, d.loc.line, d.loc.column, frame, d.label,
                                      vb.size() + ib.bytes.size() + tf.size(), e.what()));
      }
      upload(gd.vertex_addr, vb, st.upload_bytes, st.upload_cycles, st.upload_seconds);
      upload(gd.index_addr, ib.bytes, st.upload_bytes, st.upload_cycles, st.upload_seconds);
      if (d.patch) {
        upload(gd.tf_addr, tf, st.upload_bytes, st.upload_cycles, st.upload_seconds);
        gd.topology = d.patch->control_points == 4 ? Topology::PatchQuad : Topology::PatchTri;
        gd.factors = d.patch->factors;
        st.tf_bytes += tf.size();
      }
      st.vertices += d.vertices.size();
      st.vertex_bytes += vb.size();
      st.index_bytes += ib.bytes.size();

      gd.cull = cull_state(d.cull);
      if (d.texture) {
        if (d.texture_is_target) {
          const Target& src = targets_.at(*d.texture);
          gd.texture = TextureBinding{src.color, src.width, src.height};
        } else {
          gd.texture = textures_.at(*d.texture);
        }
      }
      state.cull = gd.cull;
      state.texture = gd.texture;
      cb.set_state(state);  // writes only what changed since the last draw
      cb.draw(DrawDesc{gd.topology, gd.index_type, gd.index_count, gd.vertex_addr, gd.index_addr, gd.tf_addr});
      ++st.draws;
      gp.draws.push_back(gd);
    }
    for (const ScreenDraw& d : pp.draws) st.clip += d.stats;
    cb.end_render_pass();
    st.pass_stats.push_back(pst);
    for (const std::string& name : ps.delete_after) {
      cb.delete_group(*targets_.at(name).group);
      ++st.dsid_deletes;
    }
    passes.push_back(std::move(gp));
  }
  cb.frame_end(frame);
  cb.close();
  st.command_dwords = cb.size_dwords();
  if (rtl_ && cfg_.progress) {
    FrameProgress fp;
    fp.frame = frame;
    for (const PassPlan& pp : plan.passes)
      for (const ScreenDraw& d : pp.draws) fp.prims_total += d.patch ? patch_triangles(*d.patch) : d.indices.size() / 3;
    GpuSim& g = rtl_->sim();
    const uint64_t sub_cycle = g.cycle(), prims0 = g.geometry_prims_finished();
    g.on_progress(
        [&g, fp, sub_cycle, prims0, this](uint64_t cyc) mutable {
          fp.cycles = cyc - sub_cycle;
          fp.prims_finished = g.geometry_prims_finished() - prims0;
          cfg_.progress(fp);
        },
        cfg_.progress_every);
  }
  const Submission sub = kmd_->submit(cb, 0);
  kmd_->wait(sub, WaitMode::Poll);
  if (rtl_ && cfg_.progress) rtl_->sim().on_progress(nullptr, 0);
  for (uint32_t a : allocs) kmd_->free(a);

  st.cycles = dev_->cycles() - cyc0 - st.upload_cycles;
  const std::vector<SliceStats> slice1 = rtl_ ? rtl_->sim().slice_stats() : std::vector<SliceStats>{};
  if (rtl_ && cfg_.record_slices) st.recording = rtl_->sim().slice_recording();
  if (rtl_) {
    const DramStats& d1 = rtl_->sim().dram().stats();
    st.dram_read_bytes = d1.read_bytes - dram0.read_bytes;
    st.dram_write_bytes = d1.write_bytes - dram0.write_bytes;
    const SlcCounters s1 = read_slc();
    SlcCounters s;
    s.reads = s1.reads - slc0.reads;
    s.writes = s1.writes - slc0.writes;
    s.hits = s1.hits - slc0.hits;
    s.misses = s1.misses - slc0.misses;
    s.fills = s1.fills - slc0.fills;
    s.writebacks = s1.writebacks - slc0.writebacks;
    s.deleted_dirty = s1.deleted_dirty - slc0.deleted_dirty;
    s.deleted_clean = s1.deleted_clean - slc0.deleted_clean;
    s.prefetches = s1.prefetches - slc0.prefetches;
    s.prefetch_fills = s1.prefetch_fills - slc0.prefetch_fills;
    s.prefetch_used = s1.prefetch_used - slc0.prefetch_used;
    s.prefetch_unused = s1.prefetch_unused - slc0.prefetch_unused;
    s.prefetch_dropped = s1.prefetch_dropped - slc0.prefetch_dropped;
    st.slc = s;
  }
  std::optional<driver::VisCounters> vis_delta;
  if (const std::optional<driver::VisCounters> vis1 = read_vis(); vis0 && vis1) {
    auto d = [&](uint64_t a, uint64_t b) -> uint64_t { return rtl_ ? static_cast<uint32_t>(b - a) : b - a; };
    vis_delta = driver::VisCounters{d(vis0->skipped, vis1->skipped), d(vis0->recorded, vis1->recorded)};
  }
  if (const std::optional<TessCounters> tess1 = read_tess(); tess0 && tess1) {
    // the RTL's are wrapping 32-bit counters: the difference modulo 2^32
    auto d = [&](uint64_t a, uint64_t b) -> uint64_t { return rtl_ ? static_cast<uint32_t>(b - a) : b - a; };
    st.tess = TessCounters{d(tess0->patches, tess1->patches), d(tess0->triangles, tess1->triangles),
                           d(tess0->isoline_segments, tess1->isoline_segments),
                           d(tess0->thread_groups, tess1->thread_groups)};
  }
  if (rtl_) {
    const driver::PrefetchCounters pf1 = kmd_->read_prefetch_counters();
    auto d = [](uint64_t a, uint64_t b) -> uint64_t { return static_cast<uint32_t>(b - a); };
    PrefetchFrameStats p;
    p.mode = driver::to_string(cfg_.prefetch.mode);
    p.tiles_similar = d(pf0.tiles_similar, pf1.tiles_similar);
    p.tiles_dissimilar = d(pf0.tiles_dissimilar, pf1.tiles_dissimilar);
    p.tiles_no_history = d(pf0.tiles_no_history, pf1.tiles_no_history);
    p.tiles_no_room = d(pf0.tiles_no_room, pf1.tiles_no_room);
    p.lines_requested = d(pf0.lines_requested, pf1.lines_requested);
    p.events_dropped = d(pf0.events_dropped, pf1.events_dropped);
    p.reads_untracked = d(pf0.reads_untracked, pf1.reads_untracked);
    p.threshold = pf1.threshold;
    if (st.slc) {
      p.lines_filled = static_cast<uint32_t>(st.slc->prefetch_fills);
      p.lines_dropped = static_cast<uint32_t>(st.slc->prefetch_dropped);
      p.lines_used = static_cast<uint32_t>(st.slc->prefetch_used);
      p.lines_evicted_unused = static_cast<uint32_t>(st.slc->prefetch_unused);
    }
    st.prefetch = p;
  }
  if (thr0) {
    const ThrottleCounters thr1 = kmd_->read_throttle_counters();
    auto d = [](uint64_t a, uint64_t b) -> uint64_t { return static_cast<uint32_t>(b - a); };
    ThrottleCounters t;
    t.hs_latency_sum = d(thr0->hs_latency_sum, thr1.hs_latency_sum);
    t.hs_stall_cycles = d(thr0->hs_stall_cycles, thr1.hs_stall_cycles);
    t.ds_stall_cycles = d(thr0->ds_stall_cycles, thr1.ds_stall_cycles);
    for (std::size_t k = 0; k < t.in_flight.size(); ++k) t.in_flight[k] = d(thr0->in_flight[k], thr1.in_flight[k]);
    st.throttle = t;
  }
  if (rtl_) {
    for (std::size_t i = 0; i < slice1.size(); ++i) {
      // wrapping 32-bit counters: the difference modulo 2^32
      auto d = [&](SliceStats::Word w) -> uint64_t { return static_cast<uint32_t>(slice1[i][w] - slice0[i][w]); };
      SliceFrameStats f;
      f.triangles = d(SliceStats::kGeomTris);
      f.bins = d(SliceStats::kBins);
      f.bin_primitives = d(SliceStats::kBinPrims);
      f.quads = d(SliceStats::kQuads);
      f.fragments = d(SliceStats::kFrags);
      f.fragments_passed = d(SliceStats::kFragsPassed);
      f.line_reads = d(SliceStats::kLineReads);
      f.line_writes = d(SliceStats::kLineWrites);
      f.texel_hits = d(SliceStats::kTexHits);
      f.texel_misses = d(SliceStats::kTexMisses);
      f.cche_hits = d(SliceStats::kCcheHits);
      f.cche_misses = d(SliceStats::kCcheMisses);
      f.cche_writebacks = d(SliceStats::kCcheWritebacks);
      f.cche_fills = d(SliceStats::kCcheFills);
      f.busy_cycles = d(SliceStats::kBusyCycles);
      f.lrz_rejected_blocks = d(SliceStats::kLrzRejectedBlocks);
      f.lrz_rejected_quads = d(SliceStats::kLrzRejectedQuads);
      f.quads_hidden = d(SliceStats::kQuadsHidden);
      f.gmem_reads = d(SliceStats::kGmemReads);
      f.gmem_writes = d(SliceStats::kGmemWrites);
      f.texel_wait_cycles = d(SliceStats::kTexelWaitCycles);
      f.load_wait_cycles = d(SliceStats::kLoadWaitCycles);
      for (std::size_t a = 0; a < kSliceActivities.size(); ++a) f.cycles[a] = d(SliceStats::kActivities[a].word);
      // The host's vertex and index uploads happen before the submission, with the GPU idle;
      // the frame's cycles leave them out, so its idle cycles do too.
      f.cycles[0] -= std::min(f.cycles[0], st.upload_cycles);
      st.slices.push_back(f);
    }
  }
  st.pipe_commands = (rtl_ ? rtl_->sim().pipe_log().size() : ref_->pipe_log().size()) - pipe0;
  // Per pass and per draw: when the pipeline accepted their commands (ref: scheduler steps).
  {
    const std::vector<driver::PipeCommand>& log = rtl_ ? rtl_->sim().pipe_log() : ref_->pipe_log();
    std::size_t pass = 0, draw = 0;
    bool in_pass = false;
    uint64_t pass_cmds = 0;
    auto next_sent_draw = [&]() -> DrawFrameStats* {
      while (draw < st.draw_stats.size() && st.draw_stats[draw].indices == 0) ++draw;
      return draw < st.draw_stats.size() ? &st.draw_stats[draw++] : nullptr;
    };
    // A two-level pass is several pipeline passes (docs/two-level.md "The passes"): the
    // visibility pass and the coarse-bin replays, each a RENDERPASS_BEGIN .. END after the
    // firmware's GEOM.VIS write; the scene pass ends with the END after which GEOM.VIS goes
    // back to OFF. Its draws are timed in the visibility pass, their first execution.
    bool two_level = false;    // GEOM.VIS is not OFF: the pass replays
    uint32_t begins = 0;       // pipeline passes of the scene pass so far
    uint64_t vis_begin = 0;
    TwoLevelFrameStats tl;
    auto close_pass = [&](uint64_t cycle) {
      st.pass_stats[pass].end_cycle = cycle;
      st.pass_stats[pass].pipe_commands = pass_cmds;
      in_pass = false;
      begins = 0;
      ++pass;
    };
    for (std::size_t i = pipe0; i < log.size(); ++i) {
      const driver::PipeCommand& c = log[i];
      if (in_pass) ++pass_cmds;
      if (const driver::TwoLevelMark m = driver::two_level_mark(c); m.kind != driver::TwoLevelMark::Kind::None) {
        using K = driver::TwoLevelMark::Kind;
        if (m.kind == K::Grid) {
          tl.coarse_bins += m.coarse_bins;
          ++tl.passes;
        } else {
          if (m.kind == K::End && two_level && in_pass && pass < st.pass_stats.size())
            close_pass(st.pass_stats[pass].end_cycle.value_or(c.cycle));
          two_level = m.kind != K::End;
          if (m.kind == K::Replay) ++tl.replays;
        }
      } else if (c.opcode == TS_OP_RENDERPASS_BEGIN && pass < st.pass_stats.size()) {
        if (begins++ == 0) {
          st.pass_stats[pass].begin_cycle = c.cycle;
          in_pass = true;
          pass_cmds = 1;
          vis_begin = c.cycle;
        }
      } else if (c.opcode == TS_OP_DRAW) {
        if (begins <= 1)
          if (DrawFrameStats* d = next_sent_draw()) d->issue_cycle = c.cycle;
      } else if (c.opcode == TS_OP_RENDERPASS_END && pass < st.pass_stats.size() && in_pass) {
        if (!two_level) {
          close_pass(c.cycle);
        } else {
          st.pass_stats[pass].end_cycle = c.cycle;   // provisional: a replay may follow
          if (begins == 1) tl.visibility_pass_cycles += c.cycle - vis_begin;
        }
      }
    }
    if (binning_.two_level() || tl.passes != 0) {
      if (rtl_) {
        uint64_t rd = 0, wr = 0;
        for (const SliceFrameStats& f : st.slices) {
          rd += f.gmem_reads;
          wr += f.gmem_writes;
        }
        tl.gmem_load_bytes = 64 * rd;
        tl.gmem_store_bytes = 64 * wr;
      }
      if (vis_delta) {
        tl.primitives_skipped = vis_delta->skipped;
        tl.primitives_recorded = vis_delta->recorded;
      }
      st.two_level = tl;
    }
    if (st.recording) {
      for (PassFrameStats& p : st.pass_stats) p.bins = p.bin_primitives = 0;
      for (const BinVisit& b : st.recording->bins)
        if (b.pass < st.pass_stats.size()) {
          ++*st.pass_stats[b.pass].bins;
          *st.pass_stats[b.pass].bin_primitives += b.prims;
        }
    }
  }
  st.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - st.upload_seconds;
  last_passes_ = std::move(passes);
  return st;
}

namespace {
constexpr bool same_activities() {
  for (std::size_t a = 0; a < kSliceActivities.size(); ++a)
    if (std::string_view(kSliceActivities[a]) != SliceStats::kActivities[a].key) return false;
  return std::size(SliceStats::kActivities) == kSliceActivities.size();
}
static_assert(same_activities(), "stats.json activity keys must follow the GPU's activity counters");
}  // namespace

std::vector<std::pair<uint32_t, uint32_t>> SceneRunner::deleted_target_ranges() const {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (const auto& ps : scene_.scene.passes)
    for (const std::string& name : ps.delete_after) {
      const Target& t = targets_.at(name);
      out.push_back({t.color, t.width * t.height * 4});
      out.push_back({t.depth, t.width * t.height * 4});
    }
  return out;
}

std::vector<std::pair<uint32_t, uint32_t>> SceneRunner::texture_ranges() const {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (const auto& [name, tex] : scene_.textures)
    out.push_back({textures_.at(name).addr, static_cast<uint32_t>(tex.rgba.size())});
  return out;
}

std::vector<uint8_t> SceneRunner::read_vis_buffer() {
  std::vector<uint8_t> b(vis_buffer_.size);
  dev_->read_mem(vis_buffer_.addr, b);
  return b;
}

std::vector<uint8_t> SceneRunner::read_screen() {
  const Target& t = targets_.at(kScreenTarget);
  std::vector<uint8_t> px(static_cast<std::size_t>(t.width) * t.height * 4);
  dev_->read_mem(t.color, px);
  return px;
}

}  // namespace tessera::sim
