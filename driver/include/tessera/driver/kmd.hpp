// Kmd: the kernel-mode driver (ARCHITECTURE.md 5.2): GPU memory, the hardware queues and their
// rings, submission of command buffers as indirect buffers, doorbells, fence retirement by
// polling or by interrupt, the virtual -> hardware DSID map with relocation at submit, and the
// patch-enable values of pending GPU-patched command buffers.
//
// Sources: Apple 002_b7e5b877a4121c28.txt ("kernel driver 103 assigns the DSID received from
// the user space driver 102 to the hardware DSID"; "Once graphics processor resource 112
// completes the delete operation, user space driver 102 and kernel driver 103 can release and
// reuse the given DSID and mapped hardware DSID"); AMD 000_b9c7be2d27aa8181.txt [0028], [0038],
// [0053] (patch-enable values set by the KMD before the GPU executes the buffer).
//
// Submission of one command buffer to queue q writes, in the ring:
//   INDIRECT_BUFFER(copy of the buffer, size)  FENCE(queue q's fence, sequence number)
// and rings q's doorbell. The copy is the closed buffer, CPU-patched to the current mode,
// with DSID fields relocated, COND_EXEC addresses pointing at its patch-enable value and
// delete fences filled in.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "tessera/driver/command_buffer.hpp"
#include "tessera/driver/device.hpp"
#include "tessera/driver/error.hpp"
#include "tessera/driver/umd.hpp"

namespace tessera::driver {

// First-fit allocator of GPU memory, the KMD's heap.
class GpuHeap {
 public:
  GpuHeap() = default;
  GpuHeap(uint32_t base, uint64_t size);
  std::optional<uint32_t> allocate(uint32_t bytes, uint32_t align);
  void free(uint32_t addr);  // throws DriverError if addr was not allocated
  uint64_t free_bytes() const;
  // The size of the allocation that starts at addr; nullopt if none does.
  std::optional<uint64_t> size_of(uint32_t addr) const;
  std::size_t allocations() const { return used_.size(); }

 private:
  std::map<uint64_t, uint64_t> free_;  // start -> size
  std::map<uint32_t, uint64_t> used_;  // start -> size
};

enum class WaitMode { Poll, Interrupt };

struct KmdConfig {
  uint32_t ring_log2_dwords = 10;     // 4..16 (spec/registers/cp.yaml RING_SIZE)
  uint32_t heap_base = 0x1000;        // the KMD's GPU memory: [heap_base, heap_base + heap_bytes)
  uint64_t heap_bytes = 0;            // 0: up to the device's memory size
  uint64_t poll_interval_cycles = 8;  // device cycles between two polls
  uint64_t timeout_cycles = 4'000'000;
  WarningSink warn = default_warning_sink();
  // Called when a deleted virtual DSID may be reused (its delete's fence signalled); normally
  // Umd::release_vdsid.
  std::function<void(uint16_t)> on_vdsid_released;
};

struct SubmitOptions {
  bool interrupt = false;  // the submission's FENCE raises the queue's fence interrupt
};

struct Submission {
  uint64_t id = 0;          // 1, 2, ... over all queues
  uint32_t queue = 0;
  uint32_t fence_value = 0;  // the queue's fence reaches it when the buffer has executed
  uint32_t gpu_addr = 0;     // the copy in GPU memory
  uint32_t size_dwords = 0;
  uint32_t patch_enable_addr = 0;  // GPU form: its patch-enable value; 0 otherwise
  BinMode mode = BinMode::Pbb;     // CPU form: the mode it was patched to; GPU form: the value at submit
  bool interrupt = false;
};

struct KmdStats {
  uint64_t submissions = 0;
  uint64_t retired = 0;
  uint64_t interrupts = 0;          // interrupts serviced
  uint64_t hw_dsid_exhausted = 0;   // references that fell back to hardware DSID 0
  uint64_t hw_dsids_released = 0;
  uint64_t patch_enable_writes = 0;  // patch-enable values changed after submission
  uint64_t ring_full_waits = 0;
  uint64_t deferred_frees = 0;      // Kmd::free calls whose memory a pending submission still used
  uint64_t deferred_reclaimed = 0;  // of those, reclaimed after the submissions retired
};

// The SLC's access counters (spec/registers/slc.yaml CNT_*): wrapping 32-bit values, so the
// work of an interval is the difference modulo 2^32.
struct SlcCounters {
  uint64_t reads = 0, writes = 0, hits = 0, misses = 0, fills = 0, writebacks = 0, deleted_dirty = 0,
           deleted_clean = 0;
  // PREFETCH requests performed, lines they filled, prefetched lines later used by demand and
  // evicted unused, and PREFETCHes dropped for want of a miss slot (docs/slc.md "Prefetch").
  uint64_t prefetches = 0, prefetch_fills = 0, prefetch_used = 0, prefetch_unused = 0, prefetch_dropped = 0;
};

// The geometry slices' tessellation counters (spec/registers/geom.yaml TESS_*): patches the
// tessellators took, triangles they produced (before culling), isoline segments. Wrapping 32-bit
// values like SlcCounters.
struct TessCounters {
  uint64_t patches = 0, triangles = 0, isoline_segments = 0;
  uint64_t thread_groups = 0;   // HS thread groups (GEOM.TESS_SHADER.tg_size patches, a sub-batch's end closes one)
  bool operator==(const TessCounters&) const = default;
};

// Two-level binning's counters (GEOM VIS_SKIPPED, VIS_RECORDED; docs/two-level.md):
// primitives the coarse-bin replays dropped before vertex fetch, primitives the visibility
// passes recorded. Wrapping 32-bit values like SlcCounters.
struct VisCounters {
  uint64_t skipped = 0, recorded = 0;
  bool operator==(const VisCounters&) const = default;
};

// The slices' tessellation-stage timing counters (GEOM TESS_HS_LATENCY, TESS_HS_STALL,
// TESS_DS_STALL, TESS_INFLIGHT_CYCLES; summed over the slices). Only the RTL has them.
struct ThrottleCounters {
  uint64_t hs_latency_sum = 0;           // cycles from launch to HS done, over all thread groups
  uint64_t hs_stall_cycles = 0;          // slice-cycles a closed thread group waited for a launch
  uint64_t ds_stall_cycles = 0;          // slice-cycles a DS wave waited for a shader slot
  std::array<uint64_t, 9> in_flight{};   // slice-cycles with k thread groups in flight (8: 8 or more)
  bool operator==(const ThrottleCounters&) const = default;
};

class Kmd {
 public:
  static constexpr unsigned kHwDsids = 1u << TS_PKT_DSID_SET_DSID_WIDTH;  // 64, 0 = default

  Kmd(Device& dev, BinningState& state, KmdConfig cfg = {});
  Kmd(const Kmd&) = delete;
  Kmd& operator=(const Kmd&) = delete;

  // Checks the device ID, soft-resets the CP, sets up one ring per queue, enables interrupts
  // and starts the queues.
  void init();
  unsigned num_queues() const { return static_cast<unsigned>(queues_.size()); }

  // Submits a closed command buffer to `queue`. Throws DriverError (nothing written, the buffer
  // still closed) if the buffer is not closed or was submitted, the queue does not exist, a
  // DSID it uses was already deleted, or GPU memory or ring space stay short for timeout_cycles.
  Submission submit(CommandBuffer& cb, unsigned queue, SubmitOptions opt = {});

  // Reads the fences: retires finished submissions, releases DSIDs whose delete fence
  // signalled, updates patch-enable values if the binning mode changed.
  void poll();
  bool retired(const Submission& s) const;
  // Until s retired. Poll: read the fence every poll_interval_cycles. Interrupt: sleep in
  // Device::wait_interrupt, then service the interrupt (s must have been submitted with
  // SubmitOptions::interrupt). Throws DeviceFault if s's queue halted on an error, DriverError on
  // a timeout or when s waits on a barrier no submitted work can release (unbalanced barriers).
  void wait(const Submission& s, WaitMode mode = WaitMode::Poll, uint64_t timeout_cycles = 0);
  void wait_idle(WaitMode mode = WaitMode::Poll, uint64_t timeout_cycles = 0);
  std::size_t pending() const;

  // The KMD side of GPU patching: write the binning state into the patch-enable value of every
  // pending GPU-form submission the CP has not started yet. poll() and submit() call it.
  void sync_patch_enables();

  // GPU memory for the application (vertex data, render targets, visibility buffer, ...).
  // Throws DriverError for 0 bytes, an alignment that is not a power of 2, or no memory.
  uint32_t allocate(uint32_t bytes, uint32_t align = 64);
  // Frees what allocate returned. If a pending (not yet retired) submission uses the memory --
  // a packet of its command buffer names an address in it (docs/driver.md "GPU memory") -- the
  // free is deferred: the memory is reclaimed when the last such submission retires (poll),
  // and until then a second free of it, and a submit that uses it, are DriverErrors naming the
  // address and the submissions. Throws DriverError for an address allocate did not return,
  // one already freed, or the KMD's own memory (rings, fences).
  void free(uint32_t addr);
  // Addresses freed while in use whose memory is not reclaimed yet.
  std::size_t deferred_frees() const { return deferred_.size(); }

  // DSIDs.
  uint8_t hw_dsid(uint16_t vdsid) const;   // its hardware DSID now, 0 if it has none
  bool hw_dsid_reserved(uint8_t hw) const;  // mapped, or its delete's fence not yet signalled
  unsigned hw_dsids_in_use() const;
  bool vdsid_deleting(uint16_t vdsid) const;  // its delete was submitted, fence not yet signalled

  const KmdStats& stats() const { return stats_; }
  Device& device() { return dev_; }
  // Reads the SLC's counters, one register at a time in SlcCounters' order (on the RTL each
  // read takes clock cycles).
  SlcCounters read_slc_counters();
  // Reads the GEOM block's tessellation counters, in TessCounters' order.
  TessCounters read_tess_counters();
  // Reads the GEOM block's two-level binning counters.
  VisCounters read_vis_counters();
  // GEOM.PF_STATUS and the PF_* counters (docs/prefetcher.md "Registers").
  PrefetchCounters read_prefetch_counters();
  // Limits the SLC's allocation to `ways` ways (SLC WAY_LIMIT; 0 = all): cache partitioning,
  // so a small frame can meet the cache a large one meets (docs/slc.md "Way limit").
  void set_slc_way_limit(uint32_t ways);
  // Reads the GEOM block's tessellation-stage timing counters.
  ThrottleCounters read_throttle_counters();
  // Per queue; a queue that does not exist (or any before init) is a DriverError naming it and
  // the valid range.
  uint32_t ring_addr(unsigned q) const { return queue_at(q, "ring_addr").ring_addr; }
  uint32_t fence_addr(unsigned q) const { return queue_at(q, "fence_addr").fence_addr; }
  uint32_t completed_fence(unsigned q);  // the queue's fence value in memory now

 private:
  enum class SlotState : uint8_t { Free, Mapped, Deleting };
  struct HwSlot {
    SlotState state = SlotState::Free;
    uint16_t vdsid = 0;
  };
  struct DsidMap {
    std::array<HwSlot, kHwDsids> hw{};
    std::unordered_map<uint16_t, uint8_t> v2h;  // mapped or deleting
    std::unordered_map<uint16_t, uint8_t> deleting;  // vdsid -> hw (0 if it had none)
  };
  struct PendingDelete {
    uint16_t vdsid;
    uint8_t hw;
    uint32_t fence_addr;
    uint32_t fence_value;
  };
  // An address range a command buffer's packet names (render target, vertex buffer, ...).
  struct MemUse {
    uint32_t addr;
    uint64_t bytes;
    const char* what;  // "RENDERPASS_BEGIN color target", ...
  };
  struct Pending {
    Submission sub;
    std::string name;
    uint64_t ring_pos = 0;  // absolute ring position of its INDIRECT_BUFFER packet
    uint32_t pe_value = 0;
    std::vector<std::pair<uint32_t, uint32_t>> barrier_waits;  // (id, value) it contains
    std::vector<MemUse> uses;  // application memory its packets name
  };
  struct Queue {
    uint32_t ring_addr = 0;
    uint32_t fence_addr = 0;
    uint32_t wptr = 0;
    uint32_t last_rptr = 0;
    uint64_t written = 0;   // absolute dwords written
    uint64_t consumed = 0;  // absolute dwords the CP consumed (from RPTR)
    uint32_t next_fence = 1;
    std::deque<Pending> pending;
  };

  uint32_t reg(uint32_t off) { return dev_.read_reg(TS_CP_BASE_ADDR + off); }
  void set_reg(uint32_t off, uint32_t v) { dev_.write_reg(TS_CP_BASE_ADDR + off, v); }
  uint32_t ring_mask() const { return (1u << cfg_.ring_log2_dwords) - 1; }
  void update_consumed(unsigned q);
  uint32_t ring_free(unsigned q);
  std::optional<uint32_t> alloc_retrying(uint32_t bytes, uint32_t align);
  uint8_t map_vdsid(DsidMap& m, uint16_t v, const CommandBuffer& cb, std::set<uint16_t>& exhausted) const;
  void service_interrupt();
  void check_fault(unsigned q);
  void check_barriers(const Submission& s);
  void require_init() const;
  const Queue& queue_at(unsigned q, const char* what) const;
  void check_submission(const Submission& s, const char* what) const;
  static std::vector<MemUse> memory_uses(const CommandBuffer& cb);
  // "submission 3 ('frame 2') on queue 0, ..." for every pending submission using [addr, addr + bytes).
  std::string users_of(uint32_t addr, uint64_t bytes) const;
  void reclaim_deferred();

  Device& dev_;
  BinningState& state_;
  KmdConfig cfg_;
  bool initialised_ = false;
  GpuHeap heap_;
  std::set<uint32_t> app_allocs_;            // returned by allocate, not freed
  std::map<uint32_t, uint64_t> deferred_;    // freed while in use: address -> size, not reclaimed yet
  std::vector<Queue> queues_;
  DsidMap dsids_;
  std::vector<PendingDelete> deletes_;
  std::array<uint32_t, 1u << TS_PKT_BARRIER_UPDATE_ID_WIDTH> submitted_update_{};
  uint64_t next_id_ = 1;
  uint32_t next_delete_token_ = 1;
  uint64_t synced_generation_ = 0;
  std::optional<std::pair<uint32_t, uint32_t>> last_fault_;  // ERROR_STATUS, ERROR_ADDR seen by the ISR
  KmdStats stats_;
};

}  // namespace tessera::driver
