#include "tessera/driver/umd.hpp"

#include <fmt/format.h>

namespace tessera::driver {

const char* to_string(ResourceKind k) {
  switch (k) {
    case ResourceKind::Buffer: return "buffer";
    case ResourceKind::Texture: return "texture";
    case ResourceKind::RenderTarget: return "render target";
  }
  return "?";
}

bool ResourceGroup::contains(uint32_t addr) const {
  for (const auto& r : resources_)
    if (addr >= r.addr && static_cast<uint64_t>(addr) < static_cast<uint64_t>(r.addr) + r.size) return true;
  return false;
}

const Resource* ResourceGroup::shared_with(const ResourceGroup& o) const {
  for (const auto& a : resources_)
    for (const auto& b : o.resources_)
      if (a.id == b.id || a.overlaps(b)) return &a;
  return nullptr;
}

// ---- VirtualDsidPool ---------------------------------------------------------------------------

VirtualDsidPool::VirtualDsidPool(uint32_t capacity) : capacity_(capacity), in_use_(capacity + 1, 0) {
  if (capacity == 0 || capacity > kDefaultCapacity)
    throw DriverError(fmt::format("virtual DSID pool size {} outside 1..{}", capacity, kDefaultCapacity));
  in_use_[0] = 1;  // the default DSID is never handed out
}

std::optional<uint16_t> VirtualDsidPool::allocate() {
  for (uint32_t v = hint_; v <= capacity_; ++v) {
    if (!in_use_[v]) {
      in_use_[v] = 1;
      ++in_use_count_;
      hint_ = v + 1;
      return static_cast<uint16_t>(v);
    }
  }
  hint_ = capacity_ + 1;
  return std::nullopt;
}

void VirtualDsidPool::release(uint16_t v) {
  if (v == 0 || v > capacity_ || !in_use_[v])
    throw DriverError(fmt::format("virtual DSID {} released but not allocated", v));
  in_use_[v] = 0;
  --in_use_count_;
  hint_ = std::min<uint32_t>(hint_, v);
}

bool VirtualDsidPool::allocated(uint16_t v) const { return v != 0 && v <= capacity_ && in_use_[v]; }

// ---- BinningState ------------------------------------------------------------------------------

bool BinningState::set(bool two_level, std::string reason) {
  reason_ = std::move(reason);
  if (two_level == two_level_) return false;
  two_level_ = two_level;
  ++generation_;
  return true;
}

// ---- Umd ---------------------------------------------------------------------------------------

Umd::Umd(BinningState& state, UmdConfig cfg) : state_(state), cfg_(std::move(cfg)), pool_(cfg_.vdsid_pool_size) {
  if (cfg_.max_command_buffer_dwords == 0 || cfg_.max_command_buffer_dwords > TS_PKT_INDIRECT_BUFFER_SIZE_MASK)
    throw DriverError(fmt::format("max_command_buffer_dwords {} outside 1..{} (INDIRECT_BUFFER.size is {} bits)",
                                  cfg_.max_command_buffer_dwords, TS_PKT_INDIRECT_BUFFER_SIZE_MASK,
                                  TS_PKT_INDIRECT_BUFFER_SIZE_WIDTH));
  if (cfg_.two_level.mode != BinMode::TwoLevel || cfg_.two_level.coarse_x == 0 || cfg_.two_level.coarse_y == 0 ||
      cfg_.two_level.coarse_x > 32 || cfg_.two_level.coarse_y > 32)
    throw DriverError(fmt::format("UmdConfig::two_level must be a TWO_LEVEL binning with 1..32 x 1..32 coarse bins "
                                  "(the CP refuses others, docs/two-level.md); it has {} x {}",
                                  cfg_.two_level.coarse_x, cfg_.two_level.coarse_y));
  if (!cfg_.warn) cfg_.warn = default_warning_sink();
}

void Umd::warn(const std::string& msg) const { cfg_.warn(msg); }

Resource Umd::create_resource(ResourceKind kind, uint32_t addr, uint32_t size, std::string name) {
  if (size == 0) throw DriverError(fmt::format("resource '{}': size 0", name));
  if (static_cast<uint64_t>(addr) + size > (1ull << 32))
    throw DriverError(fmt::format("resource '{}': {} bytes at 0x{:08x} run past the 32-bit address space", name, size, addr));
  return Resource{next_resource_id_++, kind, addr, size, std::move(name)};
}

ResourceGroup& Umd::create_group(std::string name, std::vector<Resource> resources) {
  if (resources.empty()) throw DriverError(fmt::format("resource group '{}': no resources", name));
  for (const auto& r : resources)
    if (r.id == 0 || r.id >= next_resource_id_)
      throw DriverError(fmt::format("resource group '{}': resource '{}' was not created by this UMD", name, r.name));
  groups_.push_back(std::unique_ptr<ResourceGroup>(
      new ResourceGroup(static_cast<uint32_t>(groups_.size() + 1), std::move(name), std::move(resources), this)));
  return *groups_.back();
}

CommandBuffer Umd::create_command_buffer(std::string name, PatchMethod method) {
  if (name.empty()) name = fmt::format("cb{}", ++unnamed_);
  return CommandBuffer(*this, std::move(name), method, state_.mode(), cfg_.max_command_buffer_dwords);
}

void Umd::on_set(ResourceGroup& g) {
  if (g.live_) return;  // set again (e.g. in another command buffer): same DSID (FIG. 5)
  for (auto& other : groups_) {
    if (other.get() == &g || !other->live_) continue;
    if (const Resource* r = g.shared_with(*other)) {
      // FIG. 3: two live groups with a resource in common are a programming error; both use the
      // default DSID. The other group's DSID is already in recorded command buffers, so it is
      // demoted for commands recorded from now on and keeps its vDSID until its delete.
      ++stats_.shared_resource;
      warn(fmt::format("resource group '{}' shares {} '{}' with live group '{}': both use the default DSID 0 "
                       "(a programming error: delete '{}' before setting '{}')",
                       g.name_, to_string(r->kind), r->name, other->name_, other->name_, g.name_));
      g.vdsid_ = 0;
      g.live_ = true;
      g.demoted_ = false;
      other->demoted_ = true;
      return;
    }
  }
  if (auto v = pool_.allocate()) {
    g.vdsid_ = *v;
  } else {
    ++stats_.vdsid_exhausted;
    warn(fmt::format("no free virtual DSID for resource group '{}' ({} in use, including deleted ones whose fence "
                     "has not signalled): using the default DSID 0",
                     g.name_, pool_.in_use()));
    g.vdsid_ = 0;
  }
  g.live_ = true;
  g.demoted_ = false;
}

void Umd::on_delete(ResourceGroup& g) {
  g.live_ = false;
  g.demoted_ = false;
  g.vdsid_ = 0;  // the vDSID stays allocated in the pool until the KMD releases it
}

void Umd::release_vdsid(uint16_t v) { pool_.release(v); }

}  // namespace tessera::driver
