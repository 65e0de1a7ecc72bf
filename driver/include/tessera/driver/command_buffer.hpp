// CommandBuffer: the UMD's command-buffer builder with per-workload patch metadata (AMD
// selectable two-level binning source, 000_b9c7be2d27aa8181.txt [0026]-[0029], [0041]-[0047],
// [0050]-[0051]; Apple DSID source for the DSID commands). docs/driver.md has the API guide.
//
// Written in the binning mode the state bit had when the buffer was created ([0022]). Every
// render pass is a workload ([0027]: operations on one set of render targets); unless marked
// single-level-only it carries patch records {offset, token}:
//  - CPU form: a binning-information slot (SET_BIN_MODE, PBB <-> TWO_LEVEL, [0047]) and a
//    visibility-buffer slot (NOP <-> BIND_VIS_BUFFER, [0046]) that patch() rewrites in place,
//    once per direction, so the buffer always knows its mode;
//  - GPU form: both variants behind COND_EXEC on the buffer's patch-enable value ([0028],
//    [0051]); the KMD fills in the value's address at submit and sets the value.
// DSID fields are written as 0 with relocation records {offset, token, virtual DSID} that the
// KMD resolves to hardware DSIDs at submit (Apple source, FIG. 3).
//
// Every recording call validates first and appends nothing when it throws.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "tessera/driver/packets.hpp"
#include "tessera/driver/pipeline_state.hpp"
#include "tessera/driver/prefetch.hpp"
#include "tessera/driver/resources.hpp"

namespace tessera::driver {

class Umd;

enum class PatchMethod : uint8_t { Cpu, Gpu };

enum class PatchToken : uint8_t {
  BinMode,          // CPU: SET_BIN_MODE slot, PBB <-> TWO_LEVEL binning information
  VisBuffer,        // CPU: NOP <-> BIND_VIS_BUFFER slot of the same size
  PatchEnableAddr,  // GPU: COND_EXEC.addr <- address of the buffer's patch-enable value (KMD)
  DsidSet,          // DSID_SET.dsid <- hw(vdsid) (KMD)
  DsidDelete,       // DSID_DELETE.dsid <- hw(vdsid), fence <- the KMD's delete fence (KMD)
  RenderPassDsids,  // RENDERPASS_BEGIN color/depth DSIDs <- hw(vdsid), hw(vdsid2) (KMD)
};
const char* to_string(PatchToken t);

struct PatchRecord {
  uint32_t offset = 0;  // dword index of the packet header in the command buffer
  PatchToken token = PatchToken::BinMode;
  uint16_t vdsid = 0;   // DSID tokens: the virtual DSID (RenderPassDsids: color)
  uint16_t vdsid2 = 0;  // RenderPassDsids: depth
  BinMode slot_mode = BinMode::Pbb;  // BinMode/VisBuffer: the variant the slot holds now
};

struct VisBuffer {
  uint32_t addr = 0;  // 64-byte aligned
  uint32_t size = 0;  // bytes
};

// One render pass and its patch metadata.
struct Workload {
  uint32_t index = 0;
  std::string name;
  bool single_level_only = false;
  uint32_t begin = 0;  // dword range [begin, end): slots, RENDERPASS_BEGIN, body, RENDERPASS_END
  uint32_t end = 0;
  uint32_t renderpass_offset = 0;  // the RENDERPASS_BEGIN header
  BinningInfo pbb;                 // the two binning variants and the visibility buffer
  BinningInfo two_level;
  VisBuffer vis;
  std::vector<PatchRecord> patches;  // BinMode + VisBuffer (CPU form) or PatchEnableAddr (GPU form)
};

struct Attachment {
  uint32_t addr = 0;  // 64-byte aligned
  LoadOp load = LoadOp::DontCare;
  StoreOp store = StoreOp::DontCare;
  ResourceGroup* group = nullptr;  // the resource group the pass writes through this target
};

struct RenderPassDesc {
  std::string name;
  uint32_t width = 0;   // 1..2048
  uint32_t height = 0;  // 1..2048
  Attachment color;
  uint32_t clear_color = 0;
  Attachment depth;
  uint32_t clear_depth = 0xFFFFFF;
  bool single_level_only = false;          // never patched ([0015])
  std::optional<BinningInfo> two_level;    // default: UmdConfig::two_level
  std::optional<VisBuffer> vis_buffer;     // default: UmdConfig::vis_buffer
};

class CommandBuffer {
 public:
  enum class State { Recording, Closed, Submitted };

  CommandBuffer(CommandBuffer&&) noexcept = default;
  CommandBuffer& operator=(CommandBuffer&&) noexcept = default;
  CommandBuffer(const CommandBuffer&) = delete;
  CommandBuffer& operator=(const CommandBuffer&) = delete;

  // ---- recording ----
  void begin_render_pass(const RenderPassDesc& desc);
  void end_render_pass();
  void draw(const DrawDesc& d);  // inside a render pass only
  // Draw-level state (pipeline_state.hpp): the driver writes the registers. This overload
  // writes RASTER.BIN for state.bin_size (final before RENDERPASS_BEGIN's clear), begins the
  // pass, then writes the whole state: GEOM VP_SCALE_X..DIST and RASTER DEPTH..TEX_BASE, one
  // SET_REGS each, GEOM.RT_SIZE from desc's size.
  void begin_render_pass(const RenderPassDesc& desc, const PipelineState& state);
  // Inside a pass begun with a state: writes the state groups that differ from the pass's
  // current state (StateGroup: a texture binding is TEX_CTRL and TEX_BASE together), GEOM
  // before RASTER, each in register order, adjacent groups in one SET_REGS; nothing if
  // nothing changed. The bin size belongs to the render pass and cannot change here.
  void set_state(const PipelineState& state);
  void set_regs(uint32_t offset, std::span<const uint32_t> values);
  void set_regs(uint32_t offset, std::initializer_list<uint32_t> values) {
    set_regs(offset, std::span<const uint32_t>(values.begin(), values.size()));
  }
  void fence(uint32_t addr, uint32_t value, FenceFlags flags = {});
  void barrier_update(uint32_t id, uint32_t value);
  void barrier_wait(uint32_t id, uint32_t value);
  void set_group(ResourceGroup& g);     // DSID_SET: the group's DSID tags later writes
  void set_default_dsid();              // DSID_SET 0
  void delete_group(ResourceGroup& g);  // DSID_DELETE: drop the group's cache lines
  void indirect_buffer(uint32_t addr, uint32_t size_dwords);
  void frame_end(uint32_t frame_id);
  // The tile prefetcher (docs/prefetcher.md): GEOM.PF_CFG and PF_ADAPT, then SET_PREFETCH with
  // the history buffer (history_addr, history_bytes; 64 bytes per tile of a frame). Outside a
  // render pass; a mode other than Off needs a 64-byte aligned buffer of at least one line, and
  // every field must fit its register: a DriverError names what does not.
  void set_prefetch(const PrefetchConfig& cfg, uint32_t history_addr, uint32_t history_bytes);
  void perf_sample(uint32_t addr);
  void nop(uint32_t payload_dwords);
  // Ends recording and patches to the binning mode active now ([0026], [0042]).
  void close();

  // ---- CPU-side patching ----
  // Rewrites the slots of every patchable workload to `target`. A record already in that
  // variant is left alone, so patching twice is a no-op; true if anything changed. Only for
  // closed, not yet submitted CPU-form buffers.
  bool patch(BinMode target);

  // ---- inspection ----
  const std::string& name() const { return name_; }
  State state() const { return state_; }
  PatchMethod method() const { return method_; }
  BinMode written_mode() const { return written_mode_; }
  BinMode mode() const { return mode_; }  // CPU form: the variant the slots hold now
  std::span<const uint32_t> dwords() const { return dwords_; }
  std::size_t size_dwords() const { return dwords_.size(); }
  const std::vector<Workload>& workloads() const { return workloads_; }
  const std::vector<PatchRecord>& relocations() const { return relocations_; }
  bool in_render_pass() const { return open_rp_.has_value(); }
  const Umd& umd() const { return *umd_; }

  void mark_submitted();  // the KMD, once the buffer is in GPU memory

 private:
  friend class Umd;
  CommandBuffer(Umd& umd, std::string name, PatchMethod method, BinMode mode, uint32_t max_dwords);

  struct OpenRenderPass {
    std::size_t workload;
    std::string name;
    ResourceGroup* color_group;
    ResourceGroup* depth_group;
  };
  // The open render pass marks the groups it writes as in use; a buffer destroyed or moved
  // from while it is open must release them exactly once.
  class OpenHold {
   public:
    OpenHold() = default;
    OpenHold(OpenHold&& o) noexcept : v_(std::exchange(o.v_, std::nullopt)) {}
    OpenHold& operator=(OpenHold&& o) noexcept {
      if (this != &o) {
        reset();
        v_ = std::exchange(o.v_, std::nullopt);
      }
      return *this;
    }
    ~OpenHold() { reset(); }
    void open(OpenRenderPass rp);
    void reset();
    explicit operator bool() const { return v_.has_value(); }
    bool has_value() const { return v_.has_value(); }
    const OpenRenderPass* operator->() const { return &*v_; }

   private:
    std::optional<OpenRenderPass> v_;
  };
  struct PendingWait {
    uint32_t id;
    uint32_t value;
  };
  // The pipeline state the open render pass has on the GPU (when begun with one).
  struct PassState {
    PipelineState state;
    StateRegisters regs;
    uint32_t width = 0, height = 0;
  };

  void require_recording(const char* what) const;
  void require_outside_render_pass(const char* what) const;
  void check_room(std::size_t more, const char* what) const;
  void append(const Dwords& d);
  void check_group(const ResourceGroup& g, const char* what) const;
  std::string where() const;

  Umd* umd_;
  std::string name_;
  PatchMethod method_;
  std::optional<BinSize> pass_bin_size_;   // begin_render_pass(desc, state): the pass's bin size
  BinMode written_mode_;
  BinMode mode_;
  uint32_t max_dwords_;
  State state_ = State::Recording;
  Dwords dwords_;
  std::vector<Workload> workloads_;
  std::vector<PatchRecord> relocations_;
  OpenHold open_rp_;
  const ResourceGroup* current_dsid_group_ = nullptr;  // whose DSID the last DSID_SET set
  std::vector<PendingWait> unmet_waits_;  // waits nothing recorded before them could satisfy
  std::optional<PassState> pass_state_;
};

}  // namespace tessera::driver
