// Umd: the user-mode driver context (ARCHITECTURE.md 5.2): the binning-mode state bit it
// reads when it writes a command buffer, resources and immutable resource groups, the virtual
// DSID pool, and the command buffers it creates.
//
// Sources: AMD 000_b9c7be2d27aa8181.txt [0021]-[0022], [0034], [0037] (state bit);
// Apple 002_b7e5b877a4121c28.txt "User space driver 102 is configured to manage and assign
// DSIDs to resource groups" and FIG. 3 (default DSID on exhaustion or a shared resource).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "tessera/driver/command_buffer.hpp"
#include "tessera/driver/error.hpp"
#include "tessera/driver/packets.hpp"
#include "tessera/driver/resources.hpp"

namespace tessera::driver {

// The binning-mode state bit ([0021]: "setting a value status bit" in system memory). The
// policy (or the application) sets it; the UMD reads it when it writes and closes a command
// buffer, the KMD right before submission and for patch-enable values.
class BinningState {
 public:
  bool two_level() const { return two_level_; }
  BinMode mode() const { return two_level_ ? BinMode::TwoLevel : BinMode::Pbb; }
  // True if the bit changed. The reason is kept for logs ("avg_temp 72.0 > 70.0 ...").
  bool set(bool two_level, std::string reason = {});
  const std::string& reason() const { return reason_; }
  uint64_t generation() const { return generation_; }  // counts changes

 private:
  bool two_level_ = false;
  uint64_t generation_ = 0;
  std::string reason_;
};

struct UmdConfig {
  uint32_t vdsid_pool_size = VirtualDsidPool::kDefaultCapacity;
  // Largest command buffer in dwords; at most 2^24 - 1 (INDIRECT_BUFFER.size is 24 bits).
  uint32_t max_command_buffer_dwords = 1u << 20;
  // Binning information written for two-level workloads: 8 x 4 = 32 coarse bins as in the
  // source's example ([0010]), 32x32 fine bins (ARCHITECTURE.md 3).
  BinningInfo two_level{BinMode::TwoLevel, BinSize::Px32, BinOrder::Raster, 8, 4};
  // The GPU the two-level grid must fit (docs/two-level.md "GMEM sizing"): its raster slices
  // and each slice's GMEM in 64-byte lines (raster_slice GMEM_LINES). A render pass's grid is
  // this request made finer until a coarse bin's tiles fit every slice's GMEM.
  uint32_t slices = 1;
  uint32_t gmem_lines = 1024;
  BinSize pbb_fine_size = BinSize::Px32;
  VisBuffer vis_buffer;  // default visibility buffer of two-level render passes
  WarningSink warn = default_warning_sink();
};

struct UmdStats {
  uint64_t vdsid_exhausted = 0;   // sets that got DSID 0 because the pool was empty
  uint64_t shared_resource = 0;   // sets that got DSID 0 because a live group shares a resource
};

class Umd {
 public:
  explicit Umd(BinningState& state, UmdConfig cfg = {});
  Umd(const Umd&) = delete;
  Umd& operator=(const Umd&) = delete;

  Resource create_resource(ResourceKind kind, uint32_t addr, uint32_t size, std::string name);
  // An immutable group (at least one resource). Owned by the Umd; the reference stays valid.
  ResourceGroup& create_group(std::string name, std::vector<Resource> resources);
  // Written in the mode the state bit has now.
  CommandBuffer create_command_buffer(std::string name = {}, PatchMethod method = PatchMethod::Cpu);

  // The KMD saw the fence of this virtual DSID's delete: it may be assigned again.
  void release_vdsid(uint16_t vdsid);

  BinningState& binning_state() { return state_; }
  const UmdConfig& config() const { return cfg_; }
  void set_vis_buffer(VisBuffer v) { cfg_.vis_buffer = v; }
  const UmdStats& stats() const { return stats_; }
  const VirtualDsidPool& pool() const { return pool_; }
  void warn(const std::string& msg) const;

 private:
  friend class CommandBuffer;
  // A set command for g was recorded: assign its virtual DSID if it has none.
  void on_set(ResourceGroup& g);
  // A delete command for g was recorded: g is no longer live; its vDSID stays reserved until
  // release_vdsid().
  void on_delete(ResourceGroup& g);
  uint32_t max_update(uint32_t id) const { return max_update_.at(id); }
  void on_update(uint32_t id, uint32_t value) { max_update_.at(id) = std::max(max_update_.at(id), value); }

  BinningState& state_;
  UmdConfig cfg_;
  VirtualDsidPool pool_;
  UmdStats stats_;
  uint32_t next_resource_id_ = 1;
  uint32_t unnamed_ = 0;
  std::deque<std::unique_ptr<ResourceGroup>> groups_;
  std::array<uint32_t, 1u << TS_PKT_BARRIER_UPDATE_ID_WIDTH> max_update_{};
};

}  // namespace tessera::driver
