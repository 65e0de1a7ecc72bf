// Resources, resource groups and the virtual DSID pool (Apple DSID source,
// 002_b7e5b877a4121c28.txt; docs/driver.md "DSID lifetime").
//
// A resource is a memory allocation the GPU reads or writes (buffer, texture, render target).
// A resource group is an immutable list of resources ("once an application creates a resource
// group, resources cannot be added to or deleted from the resource group"). Setting a group
// assigns it a virtual DSID from a pool of about 64K; the KMD maps virtual to hardware DSIDs.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tessera::driver {

class Umd;

enum class ResourceKind : uint8_t { Buffer, Texture, RenderTarget };
const char* to_string(ResourceKind k);

struct Resource {
  uint32_t id = 0;  // unique within its Umd
  ResourceKind kind = ResourceKind::Buffer;
  uint32_t addr = 0;
  uint32_t size = 0;  // bytes, > 0
  std::string name;
  bool overlaps(const Resource& o) const {
    return static_cast<uint64_t>(addr) < static_cast<uint64_t>(o.addr) + o.size &&
           static_cast<uint64_t>(o.addr) < static_cast<uint64_t>(addr) + size;
  }
};

class ResourceGroup {
 public:
  uint32_t id() const { return id_; }
  const std::string& name() const { return name_; }
  std::span<const Resource> resources() const { return resources_; }
  // The virtual DSID the group was given when it was set (0 = default: never set, pool
  // exhausted, or it shares a resource with another live group).
  uint16_t vdsid() const { return vdsid_; }
  // The DSID commands that reference the group are encoded with: vdsid(), or 0 once the group
  // was found to share a resource with a group set later.
  uint16_t encoded_vdsid() const { return demoted_ ? 0 : vdsid_; }
  bool live() const { return live_; }  // set, and its delete not yet recorded
  bool demoted() const { return demoted_; }
  bool contains(uint32_t addr) const;  // some resource covers the byte at addr
  const Resource* shared_with(const ResourceGroup& o) const;  // a resource overlapping o's
  const Umd* owner() const { return owner_; }
  uint32_t open_render_passes() const { return open_render_passes_; }  // not ended, writing it

 private:
  friend class Umd;
  friend class CommandBuffer;
  ResourceGroup(uint32_t id, std::string name, std::vector<Resource> r, const Umd* owner)
      : id_(id), name_(std::move(name)), resources_(std::move(r)), owner_(owner) {}
  uint32_t id_;
  std::string name_;
  std::vector<Resource> resources_;  // immutable after creation: no API adds or removes one
  const Umd* owner_;
  uint16_t vdsid_ = 0;
  bool live_ = false;
  bool demoted_ = false;
  uint32_t open_render_passes_ = 0;
  std::string open_render_pass_name_;
};

// Virtual DSIDs 1..capacity (0 is the default DSID and never allocated). The lowest free ID
// is handed out first, so a released ID is visibly reused: the DSID-lifetime tests rely on it.
class VirtualDsidPool {
 public:
  static constexpr uint32_t kDefaultCapacity = 65535;  // 16-bit virtual DSIDs (ARCHITECTURE.md 3)
  explicit VirtualDsidPool(uint32_t capacity = kDefaultCapacity);
  std::optional<uint16_t> allocate();
  void release(uint16_t vdsid);  // throws DriverError if it is not allocated
  bool allocated(uint16_t vdsid) const;
  uint32_t capacity() const { return capacity_; }
  uint32_t in_use() const { return in_use_count_; }

 private:
  uint32_t capacity_;
  std::vector<uint8_t> in_use_;  // index = vdsid
  uint32_t in_use_count_ = 0;
  uint32_t hint_ = 1;            // no free ID below it
};

}  // namespace tessera::driver
