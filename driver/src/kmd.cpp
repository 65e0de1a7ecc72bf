// Kmd: see kmd.hpp and docs/driver.md "Submission" and "DSID lifetime".
#include "tessera/driver/kmd.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tessera::driver {

// ---- GpuHeap -----------------------------------------------------------------------------------

GpuHeap::GpuHeap(uint32_t base, uint64_t size) {
  if (size) free_[base] = size;
}

std::optional<uint32_t> GpuHeap::allocate(uint32_t bytes, uint32_t align) {
  if (bytes == 0) bytes = 1;
  if (align == 0 || (align & (align - 1)) != 0) throw DriverError(fmt::format("GpuHeap: alignment {} is not a power of 2", align));
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const uint64_t start = it->first, size = it->second;
    const uint64_t aligned = (start + align - 1) & ~static_cast<uint64_t>(align - 1);
    if (aligned + bytes > start + size) continue;
    free_.erase(it);
    if (aligned > start) free_[start] = aligned - start;
    if (aligned + bytes < start + size) free_[aligned + bytes] = start + size - aligned - bytes;
    used_[static_cast<uint32_t>(aligned)] = bytes;
    return static_cast<uint32_t>(aligned);
  }
  return std::nullopt;
}

void GpuHeap::free(uint32_t addr) {
  auto u = used_.find(addr);
  if (u == used_.end()) throw DriverError(fmt::format("GpuHeap: free of 0x{:08x}, which is not allocated", addr));
  uint64_t start = addr, size = u->second;
  used_.erase(u);
  auto next = free_.lower_bound(start);
  if (next != free_.end() && next->first == start + size) {
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      start = prev->first;
      size += prev->second;
      free_.erase(prev);
    }
  }
  free_[start] = size;
}

std::optional<uint64_t> GpuHeap::size_of(uint32_t addr) const {
  auto u = used_.find(addr);
  if (u == used_.end()) return std::nullopt;
  return u->second;
}

uint64_t GpuHeap::free_bytes() const {
  uint64_t n = 0;
  for (const auto& [s, z] : free_) n += z;
  return n;
}

// ---- helpers -----------------------------------------------------------------------------------

namespace {

const char* error_name(uint32_t code) {
  switch (code) {
    case TS_CP_ERROR_NONE: return "NONE";
    case TS_CP_ERROR_BAD_OPCODE: return "BAD_OPCODE";
    case TS_CP_ERROR_BAD_LENGTH: return "BAD_LENGTH";
    case TS_CP_ERROR_BAD_ADDRESS: return "BAD_ADDRESS";
    case TS_CP_ERROR_IB_OVERFLOW: return "IB_OVERFLOW";
    case TS_CP_ERROR_BAD_STATE: return "BAD_STATE";
    default: return "UNKNOWN";
  }
}

std::string describe_error(uint32_t es, uint32_t ea) {
  static const char* const kLevel[] = {"ring", "IB1", "IB2", "level 3"};
  return fmt::format("{} in {} '{}' packet at 0x{:08x} on queue {}", error_name(TS_CP_ERROR_STATUS_CODE_GET(es)),
                     kLevel[TS_CP_ERROR_STATUS_IB_LEVEL_GET(es) & 3], packet_name(TS_CP_ERROR_STATUS_OPCODE_GET(es)),
                     ea, TS_CP_ERROR_STATUS_QUEUE_GET(es));
}

constexpr uint32_t kSubmitDwords = 1 + TS_PKT_INDIRECT_BUFFER_LEN + 1 + TS_PKT_FENCE_LEN;

}  // namespace

// ---- Kmd ---------------------------------------------------------------------------------------

Kmd::Kmd(Device& dev, BinningState& state, KmdConfig cfg) : dev_(dev), state_(state), cfg_(std::move(cfg)) {
  if (cfg_.ring_log2_dwords < 4 || cfg_.ring_log2_dwords > 16)
    throw DriverError(fmt::format("KmdConfig::ring_log2_dwords {} outside 4..16 (RING_SIZE.log2_dwords)",
                                  cfg_.ring_log2_dwords));
  if (cfg_.poll_interval_cycles == 0) cfg_.poll_interval_cycles = 1;
  if (!cfg_.warn) cfg_.warn = default_warning_sink();
}

void Kmd::require_init() const {
  if (!initialised_) throw DriverError("Kmd: init() first");
}

const Kmd::Queue& Kmd::queue_at(unsigned q, const char* what) const {
  if (q < queues_.size()) return queues_[q];
  if (queues_.empty()) throw DriverError(fmt::format("Kmd::{}: queue {}: no queues before init()", what, q));
  throw DriverError(fmt::format("Kmd::{}: queue {} does not exist (valid queues: 0..{})", what, q, queues_.size() - 1));
}

// A Submission the caller passes back must be one this KMD's submit returned.
void Kmd::check_submission(const Submission& s, const char* what) const {
  queue_at(s.queue, what);
  if (s.id == 0 || s.id >= next_id_)
    throw DriverError(fmt::format("Kmd::{}: submission {} on queue {} was not returned by this KMD's submit (ids so "
                                  "far: 1..{})",
                                  what, s.id, s.queue, next_id_ - 1));
}

void Kmd::init() {
  const uint32_t id = reg(TS_CP_ID_OFFSET);
  if (TS_CP_ID_MAGIC_GET(id) != TS_CP_ID_MAGIC_RESET)
    throw DriverError(fmt::format("device '{}' is not a Tessera CP: ID reads 0x{:08x}, expected 0x{:08x} (\"TSRA\")",
                                  dev_.name(), id, TS_CP_ID_MAGIC_RESET));
  const uint32_t ver = reg(TS_CP_VERSION_OFFSET);
  if (TS_CP_VERSION_MAJOR_GET(ver) != TS_CP_VERSION_MAJOR_RESET)
    throw DriverError(fmt::format("device '{}': CP interface version {}.{}, this driver knows major {}", dev_.name(),
                                  TS_CP_VERSION_MAJOR_GET(ver), TS_CP_VERSION_MINOR_GET(ver), TS_CP_VERSION_MAJOR_RESET));
  const uint32_t nq = TS_CP_VERSION_NUM_QUEUES_GET(ver);
  if (nq == 0 || nq > TS_CP_QUEUE_COUNT)
    throw DriverError(fmt::format("device '{}' reports {} queues; the register map has {}", dev_.name(), nq,
                                  TS_CP_QUEUE_COUNT));
  if (cfg_.heap_base >= dev_.memory_size())
    throw DriverError(fmt::format("KmdConfig::heap_base 0x{:08x} is beyond the device's {} bytes", cfg_.heap_base,
                                  dev_.memory_size()));
  const uint64_t heap_bytes = cfg_.heap_bytes ? cfg_.heap_bytes : dev_.memory_size() - cfg_.heap_base;

  set_reg(TS_CP_CTRL_OFFSET, TS_CP_CTRL_SOFT_RESET_PUT(1u));
  heap_ = GpuHeap(cfg_.heap_base, heap_bytes);
  app_allocs_.clear();
  deferred_.clear();
  queues_.assign(nq, Queue{});
  dsids_ = DsidMap{};
  deletes_.clear();
  submitted_update_.fill(0);
  for (unsigned q = 0; q < nq; ++q) {
    Queue& Q = queues_[q];
    auto ring = heap_.allocate(4u << cfg_.ring_log2_dwords, 64);
    auto fence = heap_.allocate(4, 4);
    if (!ring || !fence) throw DriverError("Kmd::init: GPU memory too small for the rings");
    Q.ring_addr = *ring;
    Q.fence_addr = *fence;
    dev_.write_dwords(Q.ring_addr, Dwords(1u << cfg_.ring_log2_dwords, 0));
    dev_.write_mem32(Q.fence_addr, 0);
    set_reg(TS_CP_RING_BASE_OFFSET_N(q), TS_CP_RING_BASE_ADDR_PUT(Q.ring_addr >> TS_CP_RING_BASE_ADDR_LSB));
    set_reg(TS_CP_RING_SIZE_OFFSET_N(q), TS_CP_RING_SIZE_LOG2_DWORDS_PUT(cfg_.ring_log2_dwords));
    set_reg(TS_CP_RING_WPTR_OFFSET_N(q), 0);
  }
  const uint32_t all = (1u << nq) - 1;
  set_reg(TS_CP_INT_STATUS_OFFSET, TS_CP_INT_STATUS_W1C_MASK);
  set_reg(TS_CP_INT_ENABLE_OFFSET, TS_CP_INT_ENABLE_FENCE_PUT(all) | TS_CP_INT_ENABLE_ERROR_MASK);
  set_reg(TS_CP_CTRL_OFFSET, TS_CP_CTRL_RUN_PUT(1u) | TS_CP_CTRL_QUEUE_ENABLE_PUT(all));
  synced_generation_ = state_.generation();
  last_fault_.reset();
  initialised_ = true;
}

void Kmd::update_consumed(unsigned q) {
  Queue& Q = queues_[q];
  const uint32_t rptr = TS_CP_RING_RPTR_PTR_GET(reg(TS_CP_RING_RPTR_OFFSET_N(q))) & ring_mask();
  Q.consumed += (rptr - Q.last_rptr) & ring_mask();
  Q.last_rptr = rptr;
}

uint32_t Kmd::ring_free(unsigned q) {
  update_consumed(q);
  const Queue& Q = queues_[q];
  return static_cast<uint32_t>(ring_mask() - (Q.written - Q.consumed));  // size - 1 - used
}

std::optional<uint32_t> Kmd::alloc_retrying(uint32_t bytes, uint32_t align) {
  if (auto a = heap_.allocate(bytes, align)) return a;
  poll();  // retiring finished submissions frees their copies
  return heap_.allocate(bytes, align);
}

uint32_t Kmd::allocate(uint32_t bytes, uint32_t align) {
  require_init();
  if (bytes == 0)
    throw DriverError(fmt::format("Kmd::allocate: 0 bytes (aligned to {}): an allocation holds at least 1 byte", align));
  if (align == 0 || (align & (align - 1)) != 0)
    throw DriverError(fmt::format("Kmd::allocate: {} bytes aligned to {}: the alignment is not a power of 2", bytes, align));
  if (auto a = alloc_retrying(bytes, align)) {
    app_allocs_.insert(*a);
    return *a;
  }
  throw DriverError(fmt::format("out of GPU memory: {} bytes aligned to {} ({} bytes free, fragmented)", bytes, align,
                                heap_.free_bytes()));
}

std::string Kmd::users_of(uint32_t addr, uint64_t bytes) const {
  std::string out;
  for (unsigned q = 0; q < queues_.size(); ++q)
    for (const Pending& p : queues_[q].pending)
      for (const MemUse& u : p.uses)
        if (u.addr < addr + bytes && addr < u.addr + u.bytes) {
          out += fmt::format("{}submission {} ('{}') on queue {} ({} at 0x{:08x})", out.empty() ? "" : ", ", p.sub.id,
                             p.name, q, u.what, u.addr);
          break;
        }
  return out;
}

void Kmd::free(uint32_t addr) {
  require_init();
  if (auto d = deferred_.find(addr); d != deferred_.end())
    throw DriverError(fmt::format("Kmd::free of 0x{:08x}: already freed; its memory is reclaimed once {} retire(s)", addr,
                                  users_of(addr, d->second)));
  if (!app_allocs_.count(addr)) {
    if (heap_.size_of(addr))
      throw DriverError(fmt::format("Kmd::free of 0x{:08x}: the KMD's own memory (a ring, fence or submitted copy), "
                                    "not returned by Kmd::allocate",
                                    addr));
    throw DriverError(fmt::format("Kmd::free of 0x{:08x}: not an address Kmd::allocate returned, or already freed", addr));
  }
  // Work that finished but was not polled yet still counts as using it: the next poll reclaims.
  const uint64_t size = *heap_.size_of(addr);
  app_allocs_.erase(addr);
  if (users_of(addr, size).empty()) {
    heap_.free(addr);
    return;
  }
  // In use by work the GPU has not finished: reclaim it when that work retires (reclaim_deferred).
  deferred_[addr] = size;
  ++stats_.deferred_frees;
}

void Kmd::reclaim_deferred() {
  for (auto it = deferred_.begin(); it != deferred_.end();) {
    if (!users_of(it->first, it->second).empty()) {
      ++it;
      continue;
    }
    heap_.free(it->first);
    ++stats_.deferred_reclaimed;
    it = deferred_.erase(it);
  }
}

// The application memory a command buffer's packets name. Fields the KMD fills in itself
// (COND_EXEC's patch-enable address, DSID_DELETE's fence) are not the application's; address 0
// means "none" (an unused depth target, index or TF buffer). Addresses named only inside an
// IB2 the buffer calls are not seen: the IB2 itself is.
std::vector<Kmd::MemUse> Kmd::memory_uses(const CommandBuffer& cb) {
  std::vector<MemUse> out;
  auto use = [&](uint32_t addr, uint64_t bytes, const char* what) {
    if (addr != 0) out.push_back(MemUse{addr, std::max<uint64_t>(bytes, 1), what});
  };
  for (const Packet& k : decode_packets(cb.dwords())) {
    const auto f = [&](uint32_t dw) { return k.payload.size() > dw ? k.payload[dw] : 0u; };
    switch (k.opcode) {
      case TS_OP_INDIRECT_BUFFER:
        use(TS_PKT_INDIRECT_BUFFER_ADDR_GET(f(TS_PKT_INDIRECT_BUFFER_ADDR_DW)),
            4ull * TS_PKT_INDIRECT_BUFFER_SIZE_GET(f(TS_PKT_INDIRECT_BUFFER_SIZE_DW)), "INDIRECT_BUFFER");
        break;
      case TS_OP_BIND_VIS_BUFFER:
        use(TS_PKT_BIND_VIS_BUFFER_ADDR_GET(f(TS_PKT_BIND_VIS_BUFFER_ADDR_DW)),
            TS_PKT_BIND_VIS_BUFFER_SIZE_GET(f(TS_PKT_BIND_VIS_BUFFER_SIZE_DW)), "BIND_VIS_BUFFER");
        break;
      case TS_OP_RENDERPASS_BEGIN: {
        const uint64_t px = uint64_t{TS_PKT_RENDERPASS_BEGIN_WIDTH_GET(f(TS_PKT_RENDERPASS_BEGIN_WIDTH_DW))} *
                            TS_PKT_RENDERPASS_BEGIN_HEIGHT_GET(f(TS_PKT_RENDERPASS_BEGIN_HEIGHT_DW));
        use(TS_PKT_RENDERPASS_BEGIN_COLOR_ADDR_GET(f(TS_PKT_RENDERPASS_BEGIN_COLOR_ADDR_DW)), 4 * px,
            "RENDERPASS_BEGIN color target");
        use(TS_PKT_RENDERPASS_BEGIN_DEPTH_ADDR_GET(f(TS_PKT_RENDERPASS_BEGIN_DEPTH_ADDR_DW)), 4 * px,
            "RENDERPASS_BEGIN depth target");
        break;
      }
      case TS_OP_DRAW: {
        const uint32_t it = TS_PKT_DRAW_INDEX_TYPE_GET(f(TS_PKT_DRAW_INDEX_TYPE_DW));
        const uint64_t count = TS_PKT_DRAW_COUNT_GET(f(TS_PKT_DRAW_COUNT_DW));
        const uint32_t topo = TS_PKT_DRAW_TOPOLOGY_GET(f(TS_PKT_DRAW_TOPOLOGY_DW));
        // Indexed: the vertices an index names are not known here; the buffer's start is.
        use(TS_PKT_DRAW_VERTEX_ADDR_GET(f(TS_PKT_DRAW_VERTEX_ADDR_DW)), it == TS_INDEX_TYPE_NONE ? 16 * count : 16,
            "DRAW vertex buffer");
        if (it != TS_INDEX_TYPE_NONE)
          use(TS_PKT_DRAW_INDEX_ADDR_GET(f(TS_PKT_DRAW_INDEX_ADDR_DW)), count * (it == TS_INDEX_TYPE_U16 ? 2 : 4),
              "DRAW index buffer");
        if (topo == TS_TOPOLOGY_PATCH_QUAD || topo == TS_TOPOLOGY_PATCH_TRI || topo == TS_TOPOLOGY_PATCH_ISOLINE)
          use(TS_PKT_DRAW_TF_ADDR_GET(f(TS_PKT_DRAW_TF_ADDR_DW)), 4, "DRAW tessellation-factor buffer");
        break;
      }
      case TS_OP_FENCE: use(TS_PKT_FENCE_ADDR_GET(f(TS_PKT_FENCE_ADDR_DW)), 4, "FENCE"); break;
      case TS_OP_PERF_SAMPLE: use(TS_PKT_PERF_SAMPLE_ADDR_GET(f(TS_PKT_PERF_SAMPLE_ADDR_DW)), 64, "PERF_SAMPLE"); break;
      case TS_OP_SET_REGS: {
        // The texture the following draws sample (RASTER.TEX_BASE).
        const uint32_t first = TS_PKT_SET_REGS_OFFSET_GET(f(TS_PKT_SET_REGS_OFFSET_DW));
        const uint32_t tex = TS_RASTER_BASE_ADDR + TS_RASTER_TEX_BASE_OFFSET;
        if (tex >= first && (tex - first) % 4 == 0 && (tex - first) / 4 + 1 < k.payload.size())
          use(k.payload[(tex - first) / 4 + 1], 1, "texture (RASTER.TEX_BASE)");
        break;
      }
      default: break;
    }
  }
  // The visibility buffer of every patchable render pass: bound in two-level mode, which the
  // patch-enable value of a GPU-form buffer may still switch to.
  for (const Workload& w : cb.workloads())
    if (!w.patches.empty()) use(w.vis.addr, w.vis.size, "visibility buffer");
  return out;
}

uint8_t Kmd::map_vdsid(DsidMap& m, uint16_t v, const CommandBuffer& cb, std::set<uint16_t>& exhausted) const {
  if (v == 0) return 0;
  if (m.deleting.count(v))
    throw DriverError(fmt::format("command buffer '{}' uses virtual DSID {} after its DSID_DELETE was submitted: "
                                  "the DSID is being deleted (set the resource group again for a new DSID)",
                                  cb.name(), v));
  if (auto it = m.v2h.find(v); it != m.v2h.end()) return it->second;
  for (unsigned h = 1; h < kHwDsids; ++h) {
    if (m.hw[h].state != SlotState::Free) continue;
    m.hw[h] = HwSlot{SlotState::Mapped, v};
    m.v2h[v] = static_cast<uint8_t>(h);
    return static_cast<uint8_t>(h);
  }
  exhausted.insert(v);
  return 0;
}

Submission Kmd::submit(CommandBuffer& cb, unsigned queue, SubmitOptions opt) {
  require_init();
  if (queue >= queues_.size())
    throw DriverError(fmt::format("submit '{}': queue {} does not exist (valid queues: 0..{})", cb.name(), queue,
                                  queues_.size() - 1));
  if (cb.state() == CommandBuffer::State::Recording)
    throw DriverError(fmt::format("submit '{}': the command buffer is still recording: close() it first", cb.name()));
  if (cb.state() == CommandBuffer::State::Submitted)
    throw DriverError(fmt::format("submit '{}': the command buffer was already submitted", cb.name()));
  poll();  // retire what has finished: frees memory and DSIDs

  // 0. Memory the buffer uses that the application freed while earlier work still used it.
  std::vector<MemUse> uses = memory_uses(cb);
  for (const MemUse& u : uses)
    for (const auto& [addr, size] : deferred_)
      if (u.addr < addr + size && addr < u.addr + u.bytes)
        throw DriverError(fmt::format("submit '{}': its {} at 0x{:08x} is in memory freed at 0x{:08x} (Kmd::free, "
                                      "reclaimed once {} retire(s)): use after free",
                                      cb.name(), u.what, u.addr, addr, users_of(addr, size)));

  // 1. Relocation plan on a copy of the DSID map: nothing changes unless the submit succeeds.
  DsidMap m = dsids_;
  std::set<uint16_t> exhausted;
  struct Edit {
    uint32_t index;
    uint32_t value;
  };
  std::vector<Edit> edits;
  std::vector<PendingDelete> new_deletes;
  const auto dw = cb.dwords();
  for (const PatchRecord& r : cb.relocations()) {
    switch (r.token) {
      case PatchToken::DsidSet: {
        const uint32_t i = r.offset + 1 + TS_PKT_DSID_SET_DSID_DW;
        edits.push_back({i, pkt::with_dsid_set_dsid(dw[i], map_vdsid(m, r.vdsid, cb, exhausted))});
        break;
      }
      case PatchToken::RenderPassDsids: {
        const uint32_t i = r.offset + 1 + TS_PKT_RENDERPASS_BEGIN_COLOR_DSID_DW;
        const uint8_t c = map_vdsid(m, r.vdsid, cb, exhausted);
        const uint8_t d = map_vdsid(m, r.vdsid2, cb, exhausted);
        edits.push_back({i, pkt::with_renderpass_dsids(dw[i], c, d)});
        break;
      }
      case PatchToken::DsidDelete: {
        if (r.vdsid == 0 || m.deleting.count(r.vdsid))
          throw DriverError(fmt::format("submit '{}': DSID_DELETE of virtual DSID {}, which is already being deleted",
                                        cb.name(), r.vdsid));
        auto it = m.v2h.find(r.vdsid);
        const uint8_t hw = it == m.v2h.end() ? 0 : it->second;
        if (hw) m.hw[hw].state = SlotState::Deleting;
        m.deleting[r.vdsid] = hw;
        const uint32_t i = r.offset + 1 + TS_PKT_DSID_DELETE_DSID_DW;
        edits.push_back({i, pkt::with_dsid_delete_dsid(dw[i], hw)});
        new_deletes.push_back(PendingDelete{r.vdsid, hw, r.offset, 0});  // fence filled in below
        break;
      }
      default: break;
    }
  }

  // 2. GPU memory: the copy, its patch-enable value, one fence per delete.
  std::vector<uint32_t> allocated;
  auto rollback = [&] {
    for (uint32_t a : allocated) heap_.free(a);
  };
  auto alloc = [&](uint32_t bytes, uint32_t align, const char* what) {
    auto a = alloc_retrying(bytes, align);
    if (!a) {
      rollback();
      throw DriverError(fmt::format("submit '{}': out of GPU memory for its {} ({} bytes; {} free)", cb.name(), what,
                                    bytes, heap_.free_bytes()));
    }
    allocated.push_back(*a);
    return *a;
  };
  // Small slots first, the copy last: two submissions that differ only in the copy's size
  // (CPU and GPU form of one program) get the same fence addresses.
  for (auto& d : new_deletes) {
    const uint32_t offset = d.fence_addr;
    d.fence_addr = alloc(4, 4, "delete fence");
    d.fence_value = next_delete_token_ + static_cast<uint32_t>(&d - new_deletes.data());
    const uint32_t base = offset + 1;
    edits.push_back({base + TS_PKT_DSID_DELETE_FENCE_ADDR_DW,
                     (dw[base + TS_PKT_DSID_DELETE_FENCE_ADDR_DW] & ~TS_PKT_DSID_DELETE_FENCE_ADDR_MASK) |
                         TS_PKT_DSID_DELETE_FENCE_ADDR_PUT(d.fence_addr)});
    edits.push_back({base + TS_PKT_DSID_DELETE_FENCE_VALUE_DW,
                     (dw[base + TS_PKT_DSID_DELETE_FENCE_VALUE_DW] & ~TS_PKT_DSID_DELETE_FENCE_VALUE_MASK) |
                         TS_PKT_DSID_DELETE_FENCE_VALUE_PUT(d.fence_value)});
  }
  bool needs_pe = false;
  if (cb.method() == PatchMethod::Gpu)
    for (const auto& w : cb.workloads()) needs_pe |= !w.patches.empty();
  const uint32_t pe_addr = needs_pe ? alloc(4, 4, "patch-enable value") : 0;
  const uint32_t size = static_cast<uint32_t>(cb.size_dwords());
  const uint32_t cb_addr = alloc(4 * std::max<uint32_t>(size, 1), 64, "copy");

  // 3. Ring space for INDIRECT_BUFFER + FENCE.
  for (uint64_t waited = 0; ring_free(queue) < kSubmitDwords; waited += cfg_.poll_interval_cycles) {
    if (waited >= cfg_.timeout_cycles) {
      rollback();
      throw DriverError(fmt::format("submit '{}': the ring of queue {} stayed full for {} cycles", cb.name(), queue,
                                    waited));
    }
    ++stats_.ring_full_waits;
    dev_.advance(cfg_.poll_interval_cycles);
    poll();
  }

  // 4. Commit: patch right before submission ([0026], [0043]), relocate, write, ring the bell.
  const BinMode mode = state_.mode();
  if (cb.method() == PatchMethod::Cpu) cb.patch(mode);
  Dwords copy(cb.dwords().begin(), cb.dwords().end());
  for (const Edit& e : edits) copy[e.index] = e.value;
  if (needs_pe) {
    for (const auto& w : cb.workloads())
      for (const auto& r : w.patches) {
        uint32_t& a = copy[r.offset + 1 + TS_PKT_COND_EXEC_ADDR_DW];
        a = (a & ~TS_PKT_COND_EXEC_ADDR_MASK) | TS_PKT_COND_EXEC_ADDR_PUT(pe_addr);
      }
    dev_.write_mem32(pe_addr, mode == BinMode::TwoLevel ? 1u : 0u);
  }
  for (const auto& d : new_deletes) dev_.write_mem32(d.fence_addr, 0);
  if (!copy.empty()) dev_.write_dwords(cb_addr, copy);

  Queue& Q = queues_[queue];
  Pending p;
  p.sub = Submission{next_id_++, queue, Q.next_fence++, cb_addr, size, pe_addr, mode, opt.interrupt};
  p.name = cb.name();
  p.ring_pos = Q.written;
  p.pe_value = mode == BinMode::TwoLevel ? 1u : 0u;
  p.uses = std::move(uses);
  for (const Packet& k : decode_packets(copy)) {
    if (k.opcode == TS_OP_BARRIER_UPDATE) {
      const uint32_t id = TS_PKT_BARRIER_UPDATE_ID_GET(k.payload[TS_PKT_BARRIER_UPDATE_ID_DW]);
      submitted_update_[id] =
          std::max(submitted_update_[id], TS_PKT_BARRIER_UPDATE_VALUE_GET(k.payload[TS_PKT_BARRIER_UPDATE_VALUE_DW]));
    } else if (k.opcode == TS_OP_BARRIER_WAIT) {
      p.barrier_waits.emplace_back(TS_PKT_BARRIER_WAIT_ID_GET(k.payload[TS_PKT_BARRIER_WAIT_ID_DW]),
                                   TS_PKT_BARRIER_WAIT_VALUE_GET(k.payload[TS_PKT_BARRIER_WAIT_VALUE_DW]));
    }
  }
  Dwords ring = pkt::indirect_buffer(cb_addr, size);
  const Dwords f = pkt::fence(Q.fence_addr, p.sub.fence_value, FenceFlags{false, false, opt.interrupt});
  ring.insert(ring.end(), f.begin(), f.end());
  for (std::size_t i = 0; i < ring.size(); ++i)
    dev_.write_mem32(Q.ring_addr + 4 * ((Q.wptr + static_cast<uint32_t>(i)) & ring_mask()), ring[i]);
  Q.wptr = (Q.wptr + static_cast<uint32_t>(ring.size())) & ring_mask();
  Q.written += ring.size();
  set_reg(TS_CP_DOORBELL_OFFSET_N(queue), TS_CP_DOORBELL_WPTR_PUT(Q.wptr));

  dsids_ = std::move(m);
  next_delete_token_ += static_cast<uint32_t>(new_deletes.size());
  deletes_.insert(deletes_.end(), new_deletes.begin(), new_deletes.end());
  for (uint16_t v : exhausted) {
    ++stats_.hw_dsid_exhausted;
    cfg_.warn(fmt::format("submit '{}': no free hardware DSID for virtual DSID {} ({} of {} in use or awaiting their "
                          "delete fence): using the default DSID 0",
                          cb.name(), v, hw_dsids_in_use(), kHwDsids - 1));
  }
  cb.mark_submitted();
  ++stats_.submissions;
  const Submission out = p.sub;
  Q.pending.push_back(std::move(p));
  return out;
}

void Kmd::poll() {
  if (!initialised_) return;
  for (unsigned q = 0; q < queues_.size(); ++q) {
    Queue& Q = queues_[q];
    const uint32_t done = dev_.read_mem32(Q.fence_addr);
    while (!Q.pending.empty() && static_cast<int32_t>(done - Q.pending.front().sub.fence_value) >= 0) {
      const Submission& s = Q.pending.front().sub;
      heap_.free(s.gpu_addr);
      if (s.patch_enable_addr) heap_.free(s.patch_enable_addr);
      Q.pending.pop_front();
      ++stats_.retired;
    }
  }
  if (!deferred_.empty()) reclaim_deferred();
  for (auto it = deletes_.begin(); it != deletes_.end();) {
    if (dev_.read_mem32(it->fence_addr) != it->fence_value) {
      ++it;
      continue;
    }
    // The delete completed: hardware DSID and virtual DSID may be reused from now on.
    if (it->hw) {
      dsids_.hw[it->hw] = HwSlot{};
      ++stats_.hw_dsids_released;
    }
    dsids_.v2h.erase(it->vdsid);
    dsids_.deleting.erase(it->vdsid);
    heap_.free(it->fence_addr);
    const uint16_t v = it->vdsid;
    it = deletes_.erase(it);
    if (cfg_.on_vdsid_released) cfg_.on_vdsid_released(v);
  }
  sync_patch_enables();
}

void Kmd::sync_patch_enables() {
  if (!initialised_ || state_.generation() == synced_generation_) return;
  const uint32_t pe = state_.two_level() ? 1u : 0u;
  for (unsigned q = 0; q < queues_.size(); ++q) {
    update_consumed(q);
    Queue& Q = queues_[q];
    for (Pending& p : Q.pending) {
      // Started once RPTR moved past its INDIRECT_BUFFER: from then on its value is left alone.
      if (!p.sub.patch_enable_addr || Q.consumed > p.ring_pos || p.pe_value == pe) continue;
      dev_.write_mem32(p.sub.patch_enable_addr, pe);
      p.pe_value = pe;
      p.sub.mode = state_.mode();
      ++stats_.patch_enable_writes;
    }
  }
  synced_generation_ = state_.generation();
}

bool Kmd::retired(const Submission& s) const {
  queue_at(s.queue, "retired");
  for (const Pending& p : queues_[s.queue].pending)
    if (p.sub.id == s.id) return false;
  return s.id != 0 && s.id < next_id_;
}

std::size_t Kmd::pending() const {
  std::size_t n = 0;
  for (const auto& q : queues_) n += q.pending.size();
  return n;
}

uint32_t Kmd::completed_fence(unsigned q) { return dev_.read_mem32(queue_at(q, "completed_fence").fence_addr); }

void Kmd::service_interrupt() {
  const uint32_t st = reg(TS_CP_INT_STATUS_OFFSET);
  if (TS_CP_INT_STATUS_ERROR_GET(st)) {
    // Clearing INT_STATUS.error clears the error record: keep it for the DeviceFault.
    const uint32_t es = reg(TS_CP_ERROR_STATUS_OFFSET);
    if (TS_CP_ERROR_STATUS_VALID_GET(es)) last_fault_ = std::make_pair(es, reg(TS_CP_ERROR_ADDR_OFFSET));
  }
  if (st) set_reg(TS_CP_INT_STATUS_OFFSET, st & TS_CP_INT_STATUS_W1C_MASK);
  ++stats_.interrupts;
  poll();
}

void Kmd::check_fault(unsigned q) {
  const uint32_t status = reg(TS_CP_STATUS_OFFSET);
  if (!((TS_CP_STATUS_QUEUE_HALTED_GET(status) >> q) & 1u)) return;
  uint32_t es = reg(TS_CP_ERROR_STATUS_OFFSET), ea = reg(TS_CP_ERROR_ADDR_OFFSET);
  if (!TS_CP_ERROR_STATUS_VALID_GET(es) && last_fault_) std::tie(es, ea) = *last_fault_;
  throw DeviceFault(es, ea,
                    fmt::format("device '{}': queue {} halted on a command-stream error: {}", dev_.name(), q,
                                TS_CP_ERROR_STATUS_VALID_GET(es) ? describe_error(es, ea) : std::string("record cleared")));
}

void Kmd::check_barriers(const Submission& s) {
  for (const Pending& p : queues_[s.queue].pending) {
    if (p.sub.id > s.id) break;
    for (const auto& [id, value] : p.barrier_waits)
      if (submitted_update_[id] < value)
        throw DriverError(fmt::format("unbalanced barriers: waiting for submission {} ('{}') on queue {}, which "
                                      "waits for barrier {} >= {}, but no submitted command buffer sets it that high "
                                      "(highest: {}): submit the producer before waiting",
                                      s.id, p.name, s.queue, id, value, submitted_update_[id]));
  }
}

void Kmd::wait(const Submission& s, WaitMode mode, uint64_t timeout) {
  require_init();
  check_submission(s, "wait");
  if (mode == WaitMode::Interrupt && !s.interrupt)
    throw DriverError(fmt::format("wait for submission {}: it was submitted without SubmitOptions::interrupt, so no "
                                  "interrupt will come: wait with WaitMode::Poll",
                                  s.id));
  if (timeout == 0) timeout = cfg_.timeout_cycles;
  const uint64_t start = dev_.cycles();
  for (;;) {
    poll();
    if (retired(s)) return;
    check_fault(s.queue);
    check_barriers(s);
    const uint64_t elapsed = dev_.cycles() - start;
    if (elapsed >= timeout)
      throw DriverError(fmt::format("timed out after {} cycles waiting for submission {} on queue {} (fence 0x{:08x} "
                                    "reads {}, expects {}); CP STATUS 0x{:08x}",
                                    elapsed, s.id, s.queue, queues_[s.queue].fence_addr, completed_fence(s.queue),
                                    s.fence_value, reg(TS_CP_STATUS_OFFSET)));
    const uint64_t left = timeout - elapsed;
    if (mode == WaitMode::Poll) {
      dev_.advance(std::min(cfg_.poll_interval_cycles, left));
    } else if (dev_.wait_interrupt(left)) {
      service_interrupt();
    }
  }
}

void Kmd::wait_idle(WaitMode mode, uint64_t timeout) {
  for (unsigned q = 0; q < queues_.size(); ++q) {
    if (queues_[q].pending.empty()) continue;
    const Submission last = queues_[q].pending.back().sub;
    wait(last, mode == WaitMode::Interrupt && last.interrupt ? WaitMode::Interrupt : WaitMode::Poll, timeout);
  }
}

uint8_t Kmd::hw_dsid(uint16_t v) const {
  auto it = dsids_.v2h.find(v);
  return it == dsids_.v2h.end() ? 0 : it->second;
}

bool Kmd::hw_dsid_reserved(uint8_t hw) const { return hw < kHwDsids && dsids_.hw[hw].state != SlotState::Free; }

unsigned Kmd::hw_dsids_in_use() const {
  unsigned n = 0;
  for (unsigned h = 1; h < kHwDsids; ++h) n += dsids_.hw[h].state != SlotState::Free;
  return n;
}

bool Kmd::vdsid_deleting(uint16_t v) const { return dsids_.deleting.count(v) != 0; }

SlcCounters Kmd::read_slc_counters() {
  auto r = [&](uint32_t off) { return static_cast<uint64_t>(dev_.read_reg(TS_SLC_BASE_ADDR + off)); };
  SlcCounters c;
  c.reads = r(TS_SLC_CNT_READS_OFFSET);
  c.writes = r(TS_SLC_CNT_WRITES_OFFSET);
  c.hits = r(TS_SLC_CNT_HITS_OFFSET);
  c.misses = r(TS_SLC_CNT_MISSES_OFFSET);
  c.fills = r(TS_SLC_CNT_FILLS_OFFSET);
  c.writebacks = r(TS_SLC_CNT_WRITEBACKS_OFFSET);
  c.deleted_dirty = r(TS_SLC_CNT_DELETED_DIRTY_OFFSET);
  c.deleted_clean = r(TS_SLC_CNT_DELETED_CLEAN_OFFSET);
  c.prefetches = r(TS_SLC_CNT_PREFETCHES_OFFSET);
  c.prefetch_fills = r(TS_SLC_CNT_PREFETCH_FILLS_OFFSET);
  c.prefetch_used = r(TS_SLC_CNT_PREFETCH_USED_OFFSET);
  c.prefetch_unused = r(TS_SLC_CNT_PREFETCH_UNUSED_OFFSET);
  c.prefetch_dropped = r(TS_SLC_CNT_PREFETCH_DROPPED_OFFSET);
  return c;
}

TessCounters Kmd::read_tess_counters() {
  auto r = [&](uint32_t off) { return static_cast<uint64_t>(dev_.read_reg(TS_GEOM_BASE_ADDR + off)); };
  TessCounters c;
  c.patches = r(TS_GEOM_TESS_PATCHES_OFFSET);
  c.triangles = r(TS_GEOM_TESS_TRIANGLES_OFFSET);
  c.isoline_segments = r(TS_GEOM_TESS_ISOLINE_SEGMENTS_OFFSET);
  c.thread_groups = r(TS_GEOM_TESS_THREAD_GROUPS_OFFSET);
  return c;
}

void Kmd::set_slc_way_limit(uint32_t ways) {
  dev_.write_reg(TS_SLC_BASE_ADDR + TS_SLC_WAY_LIMIT_OFFSET, TS_SLC_WAY_LIMIT_WAYS_PUT(ways));
}

VisCounters Kmd::read_vis_counters() {
  auto r = [&](uint32_t off) { return static_cast<uint64_t>(dev_.read_reg(TS_GEOM_BASE_ADDR + off)); };
  VisCounters c;
  c.skipped = r(TS_GEOM_VIS_SKIPPED_OFFSET);
  c.recorded = r(TS_GEOM_VIS_RECORDED_OFFSET);
  return c;
}

PrefetchCounters Kmd::read_prefetch_counters() {
  auto r = [&](uint32_t off) { return static_cast<uint64_t>(dev_.read_reg(TS_GEOM_BASE_ADDR + off)); };
  PrefetchCounters c;
  c.tiles_similar = r(TS_GEOM_PF_TILES_SIMILAR_OFFSET);
  c.tiles_dissimilar = r(TS_GEOM_PF_TILES_DISSIMILAR_OFFSET);
  c.tiles_no_history = r(TS_GEOM_PF_TILES_NO_HISTORY_OFFSET);
  c.tiles_no_room = r(TS_GEOM_PF_TILES_NO_ROOM_OFFSET);
  c.lines_requested = r(TS_GEOM_PF_LINES_REQUESTED_OFFSET);
  c.events_dropped = r(TS_GEOM_PF_EVENTS_DROPPED_OFFSET);
  c.reads_untracked = r(TS_GEOM_PF_READS_UNTRACKED_OFFSET);
  const auto st = static_cast<uint32_t>(r(TS_GEOM_PF_STATUS_OFFSET));
  c.threshold = TS_GEOM_PF_STATUS_THRESHOLD_GET(st);
  c.epoch = TS_GEOM_PF_STATUS_EPOCH_GET(st);
  c.mode = static_cast<PrefetchMode>(TS_GEOM_PF_STATUS_MODE_GET(st));
  return c;
}

ThrottleCounters Kmd::read_throttle_counters() {
  auto r = [&](uint32_t off) { return static_cast<uint64_t>(dev_.read_reg(TS_GEOM_BASE_ADDR + off)); };
  ThrottleCounters c;
  c.hs_latency_sum = r(TS_GEOM_TESS_HS_LATENCY_OFFSET);
  c.hs_stall_cycles = r(TS_GEOM_TESS_HS_STALL_OFFSET);
  c.ds_stall_cycles = r(TS_GEOM_TESS_DS_STALL_OFFSET);
  for (unsigned k = 0; k < c.in_flight.size(); ++k) c.in_flight[k] = r(TS_GEOM_INFLIGHT_CYCLES_OFFSET_N(k));
  return c;
}

}  // namespace tessera::driver
