// SceneRunner: a scene's frames as command buffers through the driver (Umd, CommandBuffer,
// Kmd) on a driver::Device, with the per-frame statistics (docs/tessera-sim.md).
//
// Per frame: plan_frame() transforms the scene on the host; the runner uploads the frame's
// screen-space vertex and index buffers (and, per patch draw, a TF buffer of the patches'
// tessellation factors, docs/tessera-sim.md "Tessellation"), records one command buffer -- per pass DSID_SET of
// the target's resource group, RENDERPASS_BEGIN, SET_REGS state, DRAWs, RENDERPASS_END, then
// DSID_DELETE of every intermediate target the pass used last -- and FRAME_END, submits it to
// queue 0, waits for its fence and reads the counters.
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "tessera/driver/kmd.hpp"
#include "tessera/driver/prefetch.hpp"
#include "tessera/driver/umd.hpp"
#include "tessera/sim/frame_plan.hpp"
#include "tessera/sim/frame_renderer.hpp"
#include "tessera/sim/ref_device.hpp"
#include "tessera/sim/scene.hpp"
#include "tessera/sim/slice_recording.hpp"

namespace tessera::sim {

class RtlDevice;

// GPU memory both backends get by default: the gpu_n* models' MEM_BYTES (rtl/gpu/CMakeLists.txt),
// room for the largest legal scene (a 2048x2048 screen, 2048x2048 textures, docs/tessera-sim.md
// "GPU memory").
inline constexpr uint64_t kDefaultGpuMemoryBytes = 256ull << 20;
// What the KMD keeps for itself (rings, fences, command buffers, the visibility buffer) when
// tessera-sim checks a scene's memory need at load time.
inline constexpr uint64_t kKmdReserveBytes = 1ull << 20;

struct RunConfig {
  std::string backend = "rtl";  // "rtl" (RtlDevice) or "ref" (RefDevice)
  uint32_t slices = 4;          // rtl: the GPU model's slices (1, 2 or 4); ref: recorded
  uint64_t seed = 1;
  uint64_t memory_bytes = kDefaultGpuMemoryBytes;  // both backends, so allocations land at the same addresses
  std::string wave_file;              // rtl only: FST of the cycle window
  uint64_t wave_start = 0, wave_end = ~uint64_t{0};
  driver::BinSize bin_size = driver::BinSize::Px32;
  bool least_loaded = false;          // GEOM.DIST policy: least loaded (else round robin)
  uint32_t subbatch = driver::kDefaultSubbatch;  // GEOM.SUBBATCH: primitives per sub-batch, 16..1024
  bool lrz = true;                    // RASTER.LRZ: the slices' early depth rejection
  // Two-level binning (docs/two-level.md): the coarse grid and order the UMD writes (its
  // default, 8 x 4 raster, when unset), and how pending command buffers are patched.
  std::optional<driver::BinningInfo> two_level_binning;
  driver::PatchMethod patch = driver::PatchMethod::Cpu;
  // GEOM.TESS_*: the slices' HS throttle, thread groups, slot pool and shader latencies
  // (docs/tessellation.md "The slice's tessellation stage"); tessera-sim --throttle.
  driver::TessellationState tess;
  // SLC WAY_LIMIT (docs/slc.md "Way limit"): overrides the scene's gpu.slc_ways; 0 = all ways.
  std::optional<uint32_t> slc_ways;
  // The tile prefetcher (docs/prefetcher.md; tessera-sim --prefetch): mode and GEOM.PF_CFG /
  // PF_ADAPT. Not Off: the runner allocates the history buffer and the first frame's command
  // buffer starts with set_prefetch.
  driver::PrefetchConfig prefetch;
  // rtl only, a limit study (tessera-sim --prefetch ideal; docs/prefetcher.md "The bound"):
  // the DRAM model answers reads of the data the prefetcher may fetch (prefetch.kinds: bit 0
  // the scene's textures, bit 1 the render targets' colour and depth) with no latency and no
  // bus time (DramConfig::ideal_reads), as a perfect prefetcher would have them waiting in the
  // SLC. The prefetcher itself is left as prefetch.mode says (Off for the bound).
  bool ideal_prefetch = false;
  // With ideal_prefetch: the share of those data's lines that are ideal, in percent (1..100),
  // chosen by a hash of the line address (DramConfig::ideal_percent; tessera-sim --prefetch
  // ideal:N): the bound of a prefetcher that covers that share of the lines, perfectly timed.
  unsigned ideal_percent = 100;
  // With ideal_prefetch: the targets' share, when it differs from the textures' (1..100; 0:
  // ideal_percent; tessera-sim --prefetch ideal:T/G), e.g. every target line (their addresses
  // follow from the tile) with the share of the texture lines a given record could hold.
  unsigned ideal_target_percent = 0;
  // With ideal_prefetch: the ideal reads still take their bus time (DramConfig::ideal_pays_bus;
  // tessera-sim --prefetch ideal-bus): a perfect prefetch that pays for its bandwidth.
  bool ideal_pays_bus = false;
  // Scene textures in GPU memory: linear rows (false) or 4x4-texel blocks in Morton order
  // (RASTER.TEX_CTRL.tiled, docs/raster.md "Texture layout"); tessera-sim --texture-layout.
  bool tiled_textures = false;
  const std::atomic<bool>* cancel = nullptr;  // set (e.g. by SIGINT): the run stops with an exception
  // rtl only: record the slices' bins, phases, stalls and sub-batches per frame
  // (FrameStats::recording; GpuSim slice recording) for heatmaps and the timeline.
  bool record_slices = false;
  // rtl only: called every progress_every cycles while a frame runs (must not throw except to cancel).
  std::function<void(const struct FrameProgress&)> progress;
  uint64_t progress_every = 16384;
};

// Where a running frame is (RunConfig::progress).
struct FrameProgress {
  uint32_t frame = 0;
  uint64_t cycles = 0;            // since the frame's submission
  uint64_t prims_finished = 0;    // primitives the geometry front end finished in this frame
  uint64_t prims_total = 0;       // primitives of the frame's draws
};

// Where a raster slice's cycles go (docs/raster.md "Where the cycles go"): exactly one
// activity per cycle, so a slice's eight counts add up to the frame's cycles. stats.json
// slices[k].cycles keys, in the order of tessera_raster_pkg::act_e.
inline constexpr std::array<const char*, 8> kSliceActivities = {
    "idle", "input_wait", "memory_wait", "clear", "load", "setup", "raster", "store"};

// One slice's work in a frame (rtl only; pipe_top stat_o deltas, docs/pipeline.md).
struct SliceFrameStats {
  uint64_t triangles = 0;       // triangles VPC_US delivered to the slice
  uint64_t bins = 0, bin_primitives = 0;
  uint64_t quads = 0, fragments = 0, fragments_passed = 0;
  uint64_t line_reads = 0, line_writes = 0, texel_hits = 0, texel_misses = 0;
  uint64_t cche_hits = 0, cche_misses = 0, cche_writebacks = 0, cche_fills = 0;
  uint64_t lrz_rejected_blocks = 0, lrz_rejected_quads = 0;   // docs/raster.md "LRZ"
  uint64_t quads_hidden = 0;    // quads that reached the RB and passed no pixel
  uint64_t gmem_reads = 0, gmem_writes = 0;   // GMEM lines read, written (two-level binning)
  uint64_t busy_cycles = 0;     // doing work: clear + load + setup + raster + store
  std::array<uint64_t, kSliceActivities.size()> cycles{};  // per kSliceActivities entry
  // The memory waits (cycles[2]) by cause: the FS held for a texel line, a tile load waited;
  // the rest are write-side waits (stores, flushes, clears, the drain's acknowledgements).
  uint64_t texel_wait_cycles = 0, load_wait_cycles = 0;
};

// One draw of the frame as the host planned it and the pipeline received it.
struct DrawFrameStats {
  uint32_t pass = 0;
  std::string label;             // "pass.draws[k] (mesh)"
  ClipStats clip;                // host clipping of this draw
  uint32_t indices = 0;          // indices of its DRAW (0: clipped away, no DRAW sent)
  std::optional<uint64_t> issue_cycle;   // the pipeline accepted its DRAW (ref: scheduler step)
};
// One render pass of the frame.
struct PassFrameStats {
  std::string name, target;
  uint32_t width = 0, height = 0;
  uint32_t draws = 0;            // DRAW commands sent
  ClipStats clip;
  uint64_t pipe_commands = 0;    // commands the pipeline received from its RENDERPASS_BEGIN to its END
  std::optional<uint64_t> begin_cycle, end_cycle;   // acceptance of RENDERPASS_BEGIN / END
  // With RunConfig::record_slices (rtl): the pass's bin visits and their primitives, all slices.
  std::optional<uint64_t> bins, bin_primitives;
};

// Two-level binning in a frame (docs/two-level.md; stats.json "two_level").
struct TwoLevelFrameStats {
  uint64_t passes = 0;                  // render passes run two-level
  uint64_t coarse_bins = 0;             // their coarse bins (grid nx x ny, summed)
  uint64_t replays = 0;                 // coarse-bin replays of their bodies
  uint64_t visibility_pass_cycles = 0;  // RENDERPASS_BEGIN to END of the visibility passes
  // Input primitives dropped before vertex fetch in replays, and recorded by visibility
  // passes: the reference pipeline counts them; the RTL's counters are not built yet.
  std::optional<uint64_t> primitives_skipped, primitives_recorded;
  // GMEM traffic of the slices (rtl): bytes read from GMEM (tile loads it served, write-backs)
  // and written into it (tile stores).
  std::optional<uint64_t> gmem_load_bytes, gmem_store_bytes;
};

// The tile prefetcher in a frame (rtl only; stats.json "prefetch", docs/prefetcher.md): the
// GEOM PF_* counters and the SLC's prefetch counters, as deltas over the frame.
struct PrefetchFrameStats {
  std::string mode = "off";
  uint64_t tiles_similar = 0, tiles_dissimilar = 0, tiles_no_history = 0, tiles_no_room = 0;
  uint64_t lines_requested = 0;   // PREFETCHes the prefetcher sent
  uint64_t lines_filled = 0;      // lines they brought into the SLC (SLC CNT_PREFETCH_FILLS)
  uint64_t lines_dropped = 0;     // dropped by the SLC for want of a miss slot
  uint64_t lines_used = 0;        // prefetched lines a demand READ or WRITE later hit
  uint64_t lines_evicted_unused = 0;
  uint64_t events_dropped = 0, reads_untracked = 0;
  uint32_t threshold = 0;         // at the end of the frame
};

using driver::SlcCounters;
using driver::TessCounters;
using driver::ThrottleCounters;

struct FrameStats {
  uint32_t frame = 0;
  uint64_t cycles = 0;
  double wall_seconds = 0;
  std::optional<uint64_t> dram_read_bytes, dram_write_bytes;  // rtl only
  std::optional<SlcCounters> slc;                              // rtl only
  uint32_t passes = 0, draws = 0, dsid_deletes = 0;
  ClipStats clip;
  uint64_t vertices = 0, vertex_bytes = 0, index_bytes = 0;
  uint64_t tf_bytes = 0;       // TF buffers of the frame's patch draws
  // Tessellation (docs/tessera-sim.md "stats.json"): rtl from the GEOM TESS_* registers, ref
  // from the reference pipeline; unset on the reference backend without one (--no-render).
  std::optional<TessCounters> tess;
  // rtl only: the tessellation stage's stalls, HS latencies and in-flight histogram.
  std::optional<ThrottleCounters> throttle;
  uint64_t command_dwords = 0;
  uint64_t pipe_commands = 0;  // commands the pipeline received this frame
  // Host uploads of the frame's vertex and index buffers (before the submission): bytes, device
  // cycles and wall time they took. Not part of cycles / wall_seconds.
  uint64_t upload_bytes = 0, upload_cycles = 0;
  double upload_seconds = 0;
  std::string binning_mode = "pbb";
  std::optional<TwoLevelFrameStats> two_level;   // frames with two-level passes
  std::optional<PrefetchFrameStats> prefetch;    // rtl only
  std::vector<SliceFrameStats> slices;  // rtl only: one per slice
  std::vector<PassFrameStats> pass_stats;   // per render pass, both backends
  std::vector<DrawFrameStats> draw_stats;   // per draw of the scene, both backends
  // rtl with RunConfig::record_slices: the frame's recording, from the cycle the slice counters
  // were read at the start to the cycle they were read at the end (so it also holds the host
  // upload cycles, as idle).
  std::optional<SliceRecording> recording;
};

class SceneRunner {
 public:
  SceneRunner(const LoadedScene& scene, RunConfig cfg, FrameRenderer* renderer = nullptr);
  ~SceneRunner();
  SceneRunner(const SceneRunner&) = delete;
  SceneRunner& operator=(const SceneRunner&) = delete;

  // The binning mode of the frames run from now on (the KMD's and UMD's BinningState, which
  // the policy sets in a real driver): command buffers are written, or patched before
  // submission, for two-level binning when on (docs/two-level.md).
  void set_two_level(bool on, const std::string& reason);
  // The tile prefetcher's history buffer {address, bytes} ({0, 0} with the prefetcher off).
  std::pair<uint32_t, uint32_t> prefetch_history() const { return {pf_history_addr_, pf_history_bytes_}; }
  FrameStats run_frame(uint32_t frame);
  // The scene's set-up uploads (textures, zero-filled targets) in the constructor.
  uint64_t setup_upload_bytes() const { return setup_upload_bytes_; }
  uint64_t setup_upload_cycles() const { return setup_upload_cycles_; }
  double setup_upload_seconds() const { return setup_upload_seconds_; }
  // The screen target's color as RGBA8 rows (read back from GPU memory).
  std::vector<uint8_t> read_screen();
  // The two-level visibility buffer's bytes (docs/two-level.md "Visibility buffer"): after a
  // two-level frame, the bitmaps its last visibility pass wrote.
  std::vector<uint8_t> read_vis_buffer();
  // Everything the pipeline received so far, in RefDevice's format (both backends).
  std::vector<driver::PipeCommand> pipe_log() const;
  driver::Device& device() { return *dev_; }
  driver::Kmd& kmd() { return *kmd_; }
  uint32_t screen_color_addr() const { return targets_.at(kScreenTarget).color; }
  const std::vector<GpuPass>& last_passes() const { return last_passes_; }
  // [address, bytes) of the color and depth buffers of the targets the scene deletes
  // (DSID_DELETE): their memory is undefined afterwards (dirty lines may be dropped).
  std::vector<std::pair<uint32_t, uint32_t>> deleted_target_ranges() const;
  // [address, bytes) of the scene's textures in GPU memory.
  std::vector<std::pair<uint32_t, uint32_t>> texture_ranges() const;
  // Flushes and closes the waveform (rtl); the device is gone afterwards.
  void close();

 private:
  struct Target {
    uint32_t color = 0, depth = 0, width = 0, height = 0;
    driver::ResourceGroup* group = nullptr;
  };
  SlcCounters read_slc();
  std::optional<TessCounters> read_tess();
  std::optional<driver::VisCounters> read_vis();  // two-level binning's counters, if the backend has them
  // Host write of GPU memory, timed into the given upload counters.
  void upload(uint32_t addr, std::span<const uint8_t> bytes, uint64_t& n, uint64_t& cycles, double& seconds);

  const LoadedScene& scene_;
  RunConfig cfg_;
  FrameRenderer* renderer_;
  std::unique_ptr<driver::Device> dev_;
  RefDevice* ref_ = nullptr;
  RtlDevice* rtl_ = nullptr;
  driver::BinningState binning_;
  std::unique_ptr<driver::Umd> umd_;
  std::unique_ptr<driver::Kmd> kmd_;
  std::map<std::string, Target> targets_;
  driver::VisBuffer vis_buffer_;
  uint32_t pf_history_addr_ = 0, pf_history_bytes_ = 0;   // the prefetcher's history buffer
  bool pf_sent_ = false;                                  // set_prefetch recorded
  std::map<std::string, driver::TextureBinding> textures_;
  std::vector<GpuPass> last_passes_;
  uint64_t setup_upload_bytes_ = 0, setup_upload_cycles_ = 0;
  double setup_upload_seconds_ = 0;
};

// Thrown when a scene does not fit the GPU memory: what it needs, what there is, and the
// largest consumers (target, texture, draw) with file:line.
class SceneMemoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The scene's GPU memory need at load time: every target (color + depth), every texture, and
// frame 0's vertex and index buffers. Throws SceneMemoryError if it exceeds memory_bytes minus
// the KMD's reserve.
void check_scene_memory(const LoadedScene& scene, uint64_t memory_bytes);

}  // namespace tessera::sim
