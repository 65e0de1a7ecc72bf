// RefDevice: the C++ functional reference of the command processor (ARCHITECTURE.md sections 4
// and 5.1), one backend of the driver's Device interface. A model of the GPU, so it lives in
// sim/ beside the RTL backend (RtlDevice); the driver knows only the Device interface. Written from spec/registers/cp.yaml and
// spec/packets.yaml, not from the RTL; docs/driver.md "The reference device" lists every
// choice it makes where the spec is silent.
//
// What it models:
//  - the CP host registers exactly as cp.yaml describes them (access types, reset values,
//    w1c, the first-error record, the interrupt line = INT_STATUS & INT_ENABLE != 0);
//  - the hardware queues: rings of 2^log2_dwords dwords, dword-index pointers that wrap, the
//    doorbell, round-robin service one packet per cycle, a blocked queue never stalling the
//    other;
//  - every packet: stream control (NOP, INDIRECT_BUFFER ring -> IB1 -> IB2, COND_EXEC), state
//    and drawing (forwarded to the pipeline as PipeCommands), render-pass replay per coarse bin
//    in two-level mode, FENCE, BARRIER_UPDATE/WAIT, DSID_SET/DSID_DELETE, FRAME_END,
//    PERF_SAMPLE;
//  - the errors BAD_OPCODE, BAD_LENGTH, BAD_ADDRESS, IB_OVERFLOW: the queue halts, the other
//    keeps running.
// It does not render: pipe commands go to an optional PipelineModel (tessera-sim's reference
// renderer), synchronously, as each packet executes. It has no caches (FENCE flush/invalidate
// are recorded), but it models what DSID_DELETE may do to memory in the worst case: every
// 64-byte line a render pass stored is tagged with the pass's color or depth DSID (a host write
// clears the tag), and DSID_DELETE(d) fills every line tagged d with kDeletedPoison, as if
// every such line were still in the SLC and dropped. A later read of deleted data therefore
// returns the poison instead of hiding as old data (docs/driver.md "The reference device").
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tessera/driver/device.hpp"
#include "tessera/driver/packets.hpp"
#include "tessera/driver/pipe_command.hpp"
#include "tessera/sim/sparse_memory.hpp"

namespace tessera::sim {

using driver::PipeCommand;

// A packet the CP executed (after COND_EXEC selection and IB expansion), in execution order.
// pass is the coarse-bin pass of a replayed render-pass body (0 the first time through).
struct ExecutedPacket {
  uint8_t queue = 0;
  uint8_t ib_level = 0;  // 0 ring, 1 IB1, 2 IB2
  uint32_t addr = 0;     // byte address of the header
  uint32_t pass = 0;
  driver::Dwords dwords;  // header + payload
};

// A delete hint sent to the (absent) SLC by DSID_DELETE.
struct DeleteHint {
  uint8_t queue = 0;
  uint8_t dsid = 0;
  uint64_t cycle = 0;
};

// Hook for the rendering model that arrives with the pipeline issues.
class PipelineModel {
 public:
  virtual ~PipelineModel() = default;
  virtual void execute(const PipeCommand& cmd, SparseMemory& memory) = 0;
};

struct RefDeviceConfig {
  uint64_t memory_bytes = 64ull << 20;  // GPU memory [0, memory_bytes); beyond it is BAD_ADDRESS
  uint32_t num_queues = TS_CP_VERSION_NUM_QUEUES_RESET;
  uint64_t fence_latency = 2;   // cycles from FENCE to its write (the queue waits meanwhile)
  uint64_t delete_latency = 8;  // cycles from DSID_DELETE's hint to its fence write
  bool record_trace = true;     // keep the executed-packet trace
  // Replay render-pass bodies once per coarse bin in two-level mode (ARCHITECTURE.md 4). The
  // CP firmware forwards RENDERPASS_BEGIN/END without replay until its replay lands
  // (docs/firmware.md "Render-pass seam"): compare with it with false.
  bool replay_render_passes = true;
};

// The PERF_SAMPLE counter block: the layout of firmware/include/cp_fw.h (CP_PERF_*), so both
// backends write the same block. Dwords 2..5 (CP core cycles, instructions) and 10..14 (SLC
// counters) are backend-specific; the reference writes its cycle count, 0 instructions and 0
// SLC counts (it has no caches).
namespace perf_block {
constexpr uint32_t kDwords = 16;
constexpr uint32_t kMagic = 0x50455246u;  // "PERF"
constexpr uint32_t kLayoutVersion = 1;
constexpr uint32_t kMagicDw = 0, kVersionDw = 1, kCyclesLoDw = 2, kCyclesHiDw = 3, kInstretLoDw = 4,
                   kInstretHiDw = 5, kPacketsQ0Dw = 6, kPacketsQ1Dw = 7, kPipeIssuedDw = 8, kPipeDoneDw = 9,
                   kSlcFirstDw = 10, kSlcLastDw = 14, kFrameDw = 15;
}  // namespace perf_block

class RefDevice final : public driver::Device {
 public:
  static constexpr unsigned kMaxQueues = TS_CP_QUEUE_COUNT;
  static constexpr unsigned kBarriers = 1u << TS_PKT_BARRIER_UPDATE_ID_WIDTH;
  static constexpr uint32_t kPerfBlockBytes = 4 * perf_block::kDwords;
  // The firmware reaches FENCE, COND_EXEC, DSID_DELETE and PERF_SAMPLE addresses through its
  // 2 GiB GPU-memory window (docs/firmware.md "Memory map").
  static constexpr uint64_t kWindowBytes = 1ull << 31;
  // What a line dropped by DSID_DELETE reads back as, in every dword: opaque magenta as RGBA8
  // (R in bits 7:0), depth 0xFF00FF as 24-bit depth.
  static constexpr uint32_t kDeletedPoison = 0xFFFF00FFu;
  static constexpr uint32_t kLineBytes = 64;

  explicit RefDevice(RefDeviceConfig cfg = {});

  std::string_view name() const override { return "ref"; }
  uint32_t read_reg(uint32_t offset) override;
  void write_reg(uint32_t offset, uint32_t value) override;
  void write_mem(uint32_t addr, std::span<const uint8_t> bytes) override;
  void read_mem(uint32_t addr, std::span<uint8_t> bytes) override;
  uint64_t memory_size() const override { return cfg_.memory_bytes; }
  void advance(uint64_t cycles) override;
  bool wait_interrupt(uint64_t timeout_cycles) override;
  uint64_t cycles() const override { return cycle_; }

  bool interrupt_line() const { return (int_status_ & int_enable_) != 0; }

  // Observation for tests and system comparisons.
  const std::vector<PipeCommand>& pipe_log() const { return pipe_log_; }
  const std::vector<ExecutedPacket>& trace() const { return trace_; }
  const std::vector<DeleteHint>& delete_hints() const { return delete_hints_; }
  void clear_logs();
  uint32_t state_reg(uint32_t offset) const;  // last value SET_REGS wrote there (0 if never)
  uint32_t barrier(unsigned id) const { return barriers_.at(id); }
  uint64_t packets_executed() const { return packets_; }
  uint64_t flushes() const { return flushes_; }
  uint64_t invalidates() const { return invalidates_; }
  // Lines DSID_DELETE filled with kDeletedPoison so far, and the DSID tag of a line (0: none).
  uint64_t poisoned_lines() const { return poisoned_lines_; }
  uint8_t line_dsid(uint32_t addr) const;
  SparseMemory& memory() { return mem_; }
  void set_pipeline(PipelineModel* p) { pipeline_ = p; }

 private:
  struct Level {
    uint32_t base = 0;
    uint32_t size = 0;  // IB: dwords; ring: 2^log2_dwords
    uint64_t pos = 0;   // IB: dword index; ring: absolute dwords consumed (index = pos & mask)
    uint32_t dsid = 0;  // DSID_SET state of this command buffer
  };
  // The coarse grid of a two-level render pass, in 64-pixel blocks (docs/two-level.md).
  struct CoarseGrid {
    uint32_t bx = 1, by = 1;  // the target
    uint32_t w = 1, h = 1;    // a coarse bin
    uint32_t nx = 1, ny = 1;  // coarse bins
    bool serpentine = false;
    static CoarseGrid of(const driver::BinningInfo& bin, uint32_t width, uint32_t height);
    uint32_t bins() const { return nx * ny; }
    // The k-th coarse bin of the order: its index cy * nx + cx, and its RASTER.COARSE.
    uint32_t bin_at(uint32_t k, uint32_t& rect) const;
  };
  struct RenderPass {
    bool active = false;
    unsigned level = 0;
    uint32_t begin_addr = 0;
    uint64_t begin_pos = 0;  // position of the RENDERPASS_BEGIN header
    uint64_t body_start = 0;
    uint64_t end_pos = 0;    // position of the matching RENDERPASS_END header
    uint32_t passes = 1;
    uint32_t pass = 0;
    bool two_level = false;
    CoarseGrid grid;
  };
  enum class Wait { None, Barrier, Fence, Delete };
  struct Inflight {  // the packet a queue is blocked in
    unsigned level = 0;
    uint32_t addr = 0;
    driver::Dwords dwords;
    uint64_t until = 0;
  };
  struct Queue {
    uint32_t ring_base_reg = 0;
    uint32_t ring_size_reg = 0;
    uint32_t wptr = 0;
    bool awake = false;
    bool halted = false;
    std::vector<Level> levels;  // [0] ring, then IB1, IB2
    RenderPass rp;
    driver::BinningInfo bin;
    uint32_t vis_addr = 0, vis_size = 0;  // BIND_VIS_BUFFER
    driver::Dwords rp_begin;  // payload of the last RENDERPASS_BEGIN: the targets RENDERPASS_END stores
    Wait wait = Wait::None;
    Inflight inflight;
  };

  void soft_reset();
  void reset_queue(Queue& q);
  uint32_t status() const;
  bool queue_active(unsigned q) const;
  uint32_t ring_mask(const Queue& q) const;
  uint32_t rptr(const Queue& q) const;
  uint32_t available(const Queue& q) const;  // published ring dwords not yet fetched

  bool step();                 // one cycle: one packet from the next ready queue
  bool step_queue(unsigned q);  // true if the queue made progress
  bool finish_wait(unsigned q);
  bool execute(unsigned q, unsigned level, uint32_t hdr_addr, const driver::Dwords& pkt);
  void complete(unsigned q, unsigned level, uint32_t hdr_addr, const driver::Dwords& pkt, bool advance_pos = true);
  void raise(unsigned q, uint32_t code, unsigned level, uint32_t opcode, uint32_t addr);
  bool addr_ok(uint32_t addr, uint64_t bytes, uint32_t align) const;  // inside memory
  bool win_ok(uint32_t addr, uint64_t bytes, uint32_t align) const;   // inside memory and the window
  uint32_t read_stream(const Queue& q, unsigned level, uint64_t pos) const;
  uint32_t stream_addr(const Queue& q, unsigned level, uint64_t pos) const;
  void pipe(unsigned q, uint32_t opcode, std::vector<uint32_t> args);
  void set_pipe_reg(unsigned q, uint32_t addr, uint32_t value);  // an in-band register write the CP makes
  void start_pass(unsigned q);
  void tag_lines(uint32_t addr, uint64_t bytes, uint8_t dsid);  // dsid 0 clears the tags
  void tag_render_pass_stores(const driver::Dwords& begin_payload);
  void poison_dsid(uint8_t dsid);

  RefDeviceConfig cfg_;
  SparseMemory mem_;
  uint64_t cycle_ = 0;
  uint32_t ctrl_ = TS_CP_CTRL_RESET;
  uint32_t int_status_ = TS_CP_INT_STATUS_RESET;
  uint32_t int_enable_ = TS_CP_INT_ENABLE_RESET;
  uint32_t error_status_ = TS_CP_ERROR_STATUS_RESET;
  uint32_t error_addr_ = TS_CP_ERROR_ADDR_RESET;
  std::vector<Queue> queues_;
  std::array<uint32_t, kBarriers> barriers_{};
  unsigned rr_next_ = 0;
  std::map<uint32_t, uint32_t> regs_;  // SET_REGS state
  std::vector<PipeCommand> pipe_log_;
  std::vector<ExecutedPacket> trace_;
  std::vector<DeleteHint> delete_hints_;
  uint64_t packets_ = 0;
  uint64_t flushes_ = 0;
  uint64_t invalidates_ = 0;
  uint64_t frames_ = 0;
  uint64_t draws_ = 0;
  uint32_t last_frame_ = 0;
  uint32_t pipe_issued_ = 0;
  std::array<uint32_t, kMaxQueues> queue_packets_{};  // packets whose header passed its checks
  PipelineModel* pipeline_ = nullptr;
  std::map<uint32_t, uint8_t> line_dsid_;  // line address -> DSID of the render pass that stored it
  uint64_t poisoned_lines_ = 0;
};

}  // namespace tessera::sim
