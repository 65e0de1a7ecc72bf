// RefDevice: see ref_device.hpp and docs/driver.md "The reference device".
#include "tessera/sim/ref_device.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "tessera/driver/error.hpp"

namespace tessera::sim {

using namespace tessera::driver;

RefDevice::RefDevice(RefDeviceConfig cfg) : cfg_(cfg) {
  if (cfg_.num_queues == 0 || cfg_.num_queues > kMaxQueues)
    throw DriverError(fmt::format("RefDevice: num_queues {} outside 1..{} (spec/registers/cp.yaml QUEUE count)",
                                  cfg_.num_queues, kMaxQueues));
  if (cfg_.memory_bytes == 0 || cfg_.memory_bytes > SparseMemory::kSpaceBytes)
    throw DriverError(fmt::format("RefDevice: memory_bytes {} outside 1..4 GiB", cfg_.memory_bytes));
  queues_.resize(cfg_.num_queues);
  for (auto& q : queues_) reset_queue(q);
}

// ---- host port -------------------------------------------------------------------------------

void RefDevice::reset_queue(Queue& q) {
  // RING_BASE and RING_SIZE survive a soft reset; pointers, blocked packets and state do not.
  q.wptr = 0;
  q.awake = false;
  q.halted = false;
  q.levels.assign(1, Level{});
  q.rp = {};
  q.bin = {};
  q.wait = Wait::None;
  q.inflight = {};
}

void RefDevice::soft_reset() {
  for (auto& q : queues_) reset_queue(q);
  last_frame_ = 0;
  barriers_.fill(0);
  error_status_ = TS_CP_ERROR_STATUS_RESET;
  error_addr_ = TS_CP_ERROR_ADDR_RESET;
  int_status_ = TS_CP_INT_STATUS_RESET;
  ctrl_ &= ~TS_CP_CTRL_QUEUE_ENABLE_MASK;  // "queues stop"
}

uint32_t RefDevice::ring_mask(const Queue& q) const {
  const uint32_t log2 = TS_CP_RING_SIZE_LOG2_DWORDS_GET(q.ring_size_reg);
  return log2 >= 4 && log2 <= 16 ? (1u << log2) - 1 : TS_CP_RING_RPTR_PTR_MASK >> TS_CP_RING_RPTR_PTR_LSB;
}

uint32_t RefDevice::rptr(const Queue& q) const {
  // During a render pass in the ring the body is not consumed until its last pass.
  const uint64_t pos = q.rp.active && q.rp.level == 0 ? q.rp.begin_pos : q.levels[0].pos;
  return static_cast<uint32_t>(pos) & ring_mask(q);
}

uint32_t RefDevice::available(const Queue& q) const {
  const uint32_t m = ring_mask(q);
  return (q.wptr - static_cast<uint32_t>(q.levels[0].pos)) & m;
}

bool RefDevice::queue_active(unsigned n) const {
  const Queue& q = queues_[n];
  return rptr(q) != (q.wptr & ring_mask(q)) || q.levels.size() > 1 || q.wait != Wait::None || q.rp.active;
}

uint32_t RefDevice::status() const {
  uint32_t active = 0, waiting = 0, halted = 0;
  for (unsigned n = 0; n < queues_.size(); ++n) {
    if (queue_active(n)) active |= 1u << n;
    if (queues_[n].wait != Wait::None) waiting |= 1u << n;
    if (queues_[n].halted) halted |= 1u << n;
  }
  return TS_CP_STATUS_IDLE_PUT(active == 0 ? 1u : 0u) | TS_CP_STATUS_CORE_RUNNING_PUT(TS_CP_CTRL_RUN_GET(ctrl_)) |
         TS_CP_STATUS_QUEUE_ACTIVE_PUT(active) | TS_CP_STATUS_QUEUE_WAITING_PUT(waiting) |
         TS_CP_STATUS_QUEUE_HALTED_PUT(halted);
}

namespace {
// Which queue register an offset inside the CP block addresses; false if none.
bool queue_reg(uint32_t off, unsigned& n, uint32_t& reg) {
  if (off < TS_CP_QUEUE_OFFSET || off >= TS_CP_QUEUE_OFFSET + TS_CP_QUEUE_COUNT * TS_CP_QUEUE_STRIDE) return false;
  n = (off - TS_CP_QUEUE_OFFSET) / TS_CP_QUEUE_STRIDE;
  reg = off - (n * TS_CP_QUEUE_STRIDE);  // offset of the instance-0 register
  return true;
}
}  // namespace

uint32_t RefDevice::read_reg(uint32_t offset) {
  const uint32_t off = offset - TS_CP_BASE_ADDR;  // wraps for offsets below the block
  if (off >= TS_CP_SIZE) return 0;                 // not the CP: blocks not modelled read 0
  switch (off) {
    case TS_CP_ID_OFFSET: return TS_CP_ID_RESET;
    case TS_CP_VERSION_OFFSET:
      return (TS_CP_VERSION_RESET & ~TS_CP_VERSION_NUM_QUEUES_MASK) | TS_CP_VERSION_NUM_QUEUES_PUT(cfg_.num_queues);
    case TS_CP_CTRL_OFFSET: return ctrl_ & ~TS_CP_CTRL_WO_MASK;
    case TS_CP_STATUS_OFFSET: return status();
    case TS_CP_INT_STATUS_OFFSET: return int_status_;
    case TS_CP_INT_ENABLE_OFFSET: return int_enable_;
    case TS_CP_ERROR_STATUS_OFFSET: return error_status_;
    case TS_CP_ERROR_ADDR_OFFSET: return error_addr_;
    default: break;
  }
  unsigned n;
  uint32_t reg;
  if (!queue_reg(off, n, reg) || n >= queues_.size()) return 0;
  const Queue& q = queues_[n];
  switch (reg) {
    case TS_CP_RING_BASE_OFFSET: return q.ring_base_reg;
    case TS_CP_RING_SIZE_OFFSET: return q.ring_size_reg;
    case TS_CP_RING_RPTR_OFFSET: return TS_CP_RING_RPTR_PTR_PUT(rptr(q));
    case TS_CP_RING_WPTR_OFFSET: return TS_CP_RING_WPTR_PTR_PUT(q.wptr);
    default: return 0;  // DOORBELL is write-only
  }
}

void RefDevice::write_reg(uint32_t offset, uint32_t value) {
  const uint32_t off = offset - TS_CP_BASE_ADDR;
  if (off >= TS_CP_SIZE) return;
  const uint32_t queue_bits = ((1u << queues_.size()) - 1) << TS_CP_CTRL_QUEUE_ENABLE_LSB;
  switch (off) {
    case TS_CP_CTRL_OFFSET:
      ctrl_ = value & TS_CP_CTRL_RW_MASK & (~TS_CP_CTRL_QUEUE_ENABLE_MASK | queue_bits);
      if (TS_CP_CTRL_SOFT_RESET_GET(value)) soft_reset();
      return;
    case TS_CP_INT_STATUS_OFFSET:
      int_status_ &= ~(value & TS_CP_INT_STATUS_W1C_MASK);
      if (TS_CP_INT_STATUS_ERROR_GET(value)) {  // clearing INT_STATUS.error clears the record
        error_status_ = TS_CP_ERROR_STATUS_RESET;
        error_addr_ = TS_CP_ERROR_ADDR_RESET;
      }
      return;
    case TS_CP_INT_ENABLE_OFFSET: int_enable_ = value & TS_CP_INT_ENABLE_RW_MASK; return;
    case TS_CP_ERROR_STATUS_OFFSET:
      if (TS_CP_ERROR_STATUS_VALID_GET(value)) {
        error_status_ = TS_CP_ERROR_STATUS_RESET;
        error_addr_ = TS_CP_ERROR_ADDR_RESET;
      }
      return;
    default: break;
  }
  unsigned n;
  uint32_t reg;
  if (!queue_reg(off, n, reg) || n >= queues_.size()) return;
  Queue& q = queues_[n];
  const bool enabled = (TS_CP_CTRL_QUEUE_ENABLE_GET(ctrl_) >> n) & 1u;
  switch (reg) {
    case TS_CP_RING_BASE_OFFSET:
      if (!enabled) q.ring_base_reg = value & TS_CP_RING_BASE_RW_MASK;
      return;
    case TS_CP_RING_SIZE_OFFSET:
      if (!enabled) q.ring_size_reg = value & TS_CP_RING_SIZE_RW_MASK;
      return;
    case TS_CP_RING_WPTR_OFFSET: q.wptr = TS_CP_RING_WPTR_PTR_GET(value); return;
    case TS_CP_DOORBELL_OFFSET:
      q.wptr = TS_CP_DOORBELL_WPTR_GET(value);
      q.awake = true;
      return;
    default: return;
  }
}

void RefDevice::write_mem(uint32_t addr, std::span<const uint8_t> bytes) {
  if (static_cast<uint64_t>(addr) + bytes.size() > cfg_.memory_bytes)
    throw std::out_of_range(fmt::format("RefDevice: write of {} bytes at 0x{:08x} outside the {}-byte memory",
                                        bytes.size(), addr, cfg_.memory_bytes));
  mem_.write(addr, bytes);
  tag_lines(addr, bytes.size(), 0);  // host writes carry no DSID
}

uint8_t RefDevice::line_dsid(uint32_t addr) const {
  auto it = line_dsid_.find(addr & ~(kLineBytes - 1));
  return it == line_dsid_.end() ? 0 : it->second;
}

void RefDevice::tag_lines(uint32_t addr, uint64_t bytes, uint8_t dsid) {
  if (bytes == 0) return;
  const uint64_t first = addr & ~uint64_t{kLineBytes - 1};
  const uint64_t end = static_cast<uint64_t>(addr) + bytes;
  if (dsid == 0) {
    line_dsid_.erase(line_dsid_.lower_bound(static_cast<uint32_t>(first)),
                     end > 0xFFFFFFFFull ? line_dsid_.end() : line_dsid_.lower_bound(static_cast<uint32_t>(end)));
    return;
  }
  for (uint64_t a = first; a < end; a += kLineBytes) line_dsid_[static_cast<uint32_t>(a)] = dsid;
}

void RefDevice::tag_render_pass_stores(const Dwords& p) {
  if (p.size() < TS_PKT_RENDERPASS_BEGIN_LEN) return;
  const uint64_t bytes = 4ull * TS_PKT_RENDERPASS_BEGIN_WIDTH_GET(p[TS_PKT_RENDERPASS_BEGIN_WIDTH_DW]) *
                         TS_PKT_RENDERPASS_BEGIN_HEIGHT_GET(p[TS_PKT_RENDERPASS_BEGIN_HEIGHT_DW]);
  if (TS_PKT_RENDERPASS_BEGIN_COLOR_STORE_GET(p[TS_PKT_RENDERPASS_BEGIN_COLOR_STORE_DW]) == TS_STORE_OP_STORE)
    tag_lines(TS_PKT_RENDERPASS_BEGIN_COLOR_ADDR_GET(p[TS_PKT_RENDERPASS_BEGIN_COLOR_ADDR_DW]), bytes,
              static_cast<uint8_t>(TS_PKT_RENDERPASS_BEGIN_COLOR_DSID_GET(p[TS_PKT_RENDERPASS_BEGIN_COLOR_DSID_DW])));
  if (TS_PKT_RENDERPASS_BEGIN_DEPTH_STORE_GET(p[TS_PKT_RENDERPASS_BEGIN_DEPTH_STORE_DW]) == TS_STORE_OP_STORE)
    tag_lines(TS_PKT_RENDERPASS_BEGIN_DEPTH_ADDR_GET(p[TS_PKT_RENDERPASS_BEGIN_DEPTH_ADDR_DW]), bytes,
              static_cast<uint8_t>(TS_PKT_RENDERPASS_BEGIN_DEPTH_DSID_GET(p[TS_PKT_RENDERPASS_BEGIN_DEPTH_DSID_DW])));
}

void RefDevice::poison_dsid(uint8_t dsid) {
  std::array<uint8_t, kLineBytes> poison{};
  for (uint32_t i = 0; i < kLineBytes; i += 4)
    for (uint32_t b = 0; b < 4; ++b) poison[i + b] = static_cast<uint8_t>(kDeletedPoison >> (8 * b));
  for (auto it = line_dsid_.begin(); it != line_dsid_.end();) {
    if (it->second == dsid) {
      mem_.write(it->first, poison);
      ++poisoned_lines_;
      it = line_dsid_.erase(it);
    } else {
      ++it;
    }
  }
}

void RefDevice::read_mem(uint32_t addr, std::span<uint8_t> bytes) {
  if (static_cast<uint64_t>(addr) + bytes.size() > cfg_.memory_bytes)
    throw std::out_of_range(fmt::format("RefDevice: read of {} bytes at 0x{:08x} outside the {}-byte memory",
                                        bytes.size(), addr, cfg_.memory_bytes));
  mem_.read(addr, bytes);
}

void RefDevice::clear_logs() {
  pipe_log_.clear();
  trace_.clear();
  delete_hints_.clear();
}

uint32_t RefDevice::state_reg(uint32_t offset) const {
  auto it = regs_.find(offset);
  return it == regs_.end() ? 0 : it->second;
}

// ---- time ------------------------------------------------------------------------------------

void RefDevice::advance(uint64_t cycles) {
  for (uint64_t c = 0; c < cycles; ++c) step();
}

bool RefDevice::wait_interrupt(uint64_t timeout_cycles) {
  for (uint64_t c = 0; !interrupt_line(); ++c) {
    if (c >= timeout_cycles) return false;
    step();
  }
  return true;
}

bool RefDevice::step() {
  ++cycle_;
  if (!TS_CP_CTRL_RUN_GET(ctrl_)) return false;
  const unsigned n = static_cast<unsigned>(queues_.size());
  for (unsigned i = 0; i < n; ++i) {
    const unsigned q = (rr_next_ + i) % n;
    if (step_queue(q)) {
      rr_next_ = (q + 1) % n;
      return true;
    }
  }
  return false;
}

// ---- fetch -----------------------------------------------------------------------------------

bool RefDevice::addr_ok(uint32_t addr, uint64_t bytes, uint32_t align) const {
  return addr % align == 0 && addr < cfg_.memory_bytes && bytes <= cfg_.memory_bytes - addr;
}

bool RefDevice::win_ok(uint32_t addr, uint64_t bytes, uint32_t align) const {
  const uint64_t limit = std::min<uint64_t>(cfg_.memory_bytes, kWindowBytes);
  return addr % align == 0 && addr < limit && bytes <= limit - addr;
}

uint32_t RefDevice::stream_addr(const Queue& q, unsigned level, uint64_t pos) const {
  const Level& l = q.levels[level];
  if (level == 0) return l.base + 4 * (static_cast<uint32_t>(pos) & (l.size - 1));
  return l.base + 4 * static_cast<uint32_t>(pos);
}

uint32_t RefDevice::read_stream(const Queue& q, unsigned level, uint64_t pos) const {
  return mem_.read32(stream_addr(q, level, pos));
}

void RefDevice::raise(unsigned q, uint32_t code, unsigned level, uint32_t opcode, uint32_t addr) {
  if (!TS_CP_ERROR_STATUS_VALID_GET(error_status_)) {  // the first error is kept
    error_status_ = TS_CP_ERROR_STATUS_CODE_PUT(code) | TS_CP_ERROR_STATUS_QUEUE_PUT(q) |
                    TS_CP_ERROR_STATUS_IB_LEVEL_PUT(level) | TS_CP_ERROR_STATUS_OPCODE_PUT(opcode) |
                    TS_CP_ERROR_STATUS_VALID_PUT(1u);
    error_addr_ = addr;
  }
  int_status_ |= TS_CP_INT_STATUS_ERROR_MASK;
  queues_[q].halted = true;
}

void RefDevice::complete(unsigned q, unsigned level, uint32_t hdr_addr, const Dwords& pkt, bool advance_pos) {
  Queue& Q = queues_[q];
  if (advance_pos) Q.levels[level].pos += pkt.size();
  ++packets_;
  if (cfg_.record_trace)
    trace_.push_back(ExecutedPacket{static_cast<uint8_t>(q), static_cast<uint8_t>(level), hdr_addr,
                                    Q.rp.active ? Q.rp.pass : 0u, pkt});
}

// ---- two-level binning (docs/two-level.md "The passes") ----------------------------------------

RefDevice::CoarseGrid RefDevice::CoarseGrid::of(const BinningInfo& bin, uint32_t width, uint32_t height) {
  // Per axis: the target in 64-pixel blocks, split into at most the requested number of
  // coarse bins of equal size; bins that would be empty are dropped from the grid.
  auto axis = [](uint32_t pixels, uint32_t want, uint32_t& size) {
    const uint32_t blocks = std::max<uint32_t>(1, (pixels + 63) / 64);
    want = std::clamp<uint32_t>(want, 1, blocks);
    size = (blocks + want - 1) / want;
    return (blocks + size - 1) / size;
  };
  CoarseGrid g;
  g.bx = std::max<uint32_t>(1, (width + 63) / 64);
  g.by = std::max<uint32_t>(1, (height + 63) / 64);
  g.nx = axis(width, bin.coarse_x, g.w);
  g.ny = axis(height, bin.coarse_y, g.h);
  g.serpentine = bin.order == BinOrder::Serpentine;
  return g;
}

uint32_t RefDevice::CoarseGrid::bin_at(uint32_t k, uint32_t& rect) const {
  const uint32_t cy = k / nx;
  uint32_t cx = k % nx;
  if (serpentine && cy % 2 == 1) cx = nx - 1 - cx;
  const uint32_t x0 = cx * w, y0 = cy * h;
  const uint32_t x1 = std::min(x0 + w, bx) - 1, y1 = std::min(y0 + h, by) - 1;
  rect = TS_RASTER_COARSE_X0_PUT(x0) | TS_RASTER_COARSE_Y0_PUT(y0) | TS_RASTER_COARSE_X1_PUT(x1) |
         TS_RASTER_COARSE_Y1_PUT(y1) | TS_RASTER_COARSE_ENABLE_PUT(1);
  return cy * nx + cx;
}

void RefDevice::set_pipe_reg(unsigned q, uint32_t addr, uint32_t value) {
  regs_[addr] = value;
  pipe(q, TS_OP_SET_REGS, {addr, value});
}

// The pass Q.rp.pass begins: in two-level mode its GEOM.VIS and RASTER.COARSE first (pass 0
// is the visibility pass; it renders the first coarse bin of the order when vis_first is set,
// else nothing), then RENDERPASS_BEGIN with the pass's payload.
void RefDevice::start_pass(unsigned q) {
  Queue& Q = queues_[q];
  if (Q.rp.two_level) {
    const uint32_t first = Q.bin.vis_first ? 1 : 0;
    uint32_t vis = TS_GEOM_VIS_MODE_PUT(TS_VIS_MODE_WRITE);
    uint32_t rect = TS_RASTER_COARSE_X0_PUT(1) | TS_RASTER_COARSE_Y0_PUT(1) | TS_RASTER_COARSE_ENABLE_PUT(1);
    if (Q.rp.pass == 0) {
      if (first) Q.rp.grid.bin_at(0, rect);
    } else {
      const uint32_t bin = Q.rp.grid.bin_at(Q.rp.pass - 1 + first, rect);
      vis = TS_GEOM_VIS_MODE_PUT(TS_VIS_MODE_TEST) | TS_GEOM_VIS_BIN_PUT(bin);
    }
    set_pipe_reg(q, TS_GEOM_BASE_ADDR + TS_GEOM_VIS_OFFSET, vis);
    set_pipe_reg(q, TS_RASTER_BASE_ADDR + TS_RASTER_COARSE_OFFSET, rect);
  }
  pipe(q, TS_OP_RENDERPASS_BEGIN, Q.rp_begin);
}

void RefDevice::pipe(unsigned q, uint32_t opcode, std::vector<uint32_t> args) {
  const Queue& Q = queues_[q];
  PipeCommand c{static_cast<uint8_t>(opcode), static_cast<uint8_t>(q), static_cast<uint8_t>(Q.levels.back().dsid),
                std::move(args)};
  ++pipe_issued_;
  if (pipeline_) pipeline_->execute(c, mem_);
  pipe_log_.push_back(std::move(c));
}

bool RefDevice::step_queue(unsigned q) {
  Queue& Q = queues_[q];
  if (!((TS_CP_CTRL_QUEUE_ENABLE_GET(ctrl_) >> q) & 1u) || Q.halted) return false;
  if (Q.wait != Wait::None) return finish_wait(q);
  // The DSID before returning from finished IBs: IBs that end together (IB2 at the end of IB1)
  // return at once, and one DSID_SET is forwarded for the net change, as the firmware does.
  int64_t returned_from = -1;
  for (;;) {
    const unsigned level = static_cast<unsigned>(Q.levels.size() - 1);
    Level& L = Q.levels.back();
    if (level > 0 && L.pos >= L.size) {  // end of the IB: return to the caller
      if (Q.rp.active && Q.rp.level == level) {  // its render pass never reached RENDERPASS_END
        raise(q, TS_CP_ERROR_BAD_LENGTH, level, TS_OP_RENDERPASS_BEGIN, Q.rp.begin_addr);
        return true;
      }
      if (returned_from < 0) returned_from = L.dsid;
      Q.levels.pop_back();
      continue;
    }
    if (returned_from >= 0 && static_cast<uint32_t>(returned_from) != L.dsid)
      pipe(q, TS_OP_DSID_SET, {L.dsid});  // the caller's DSID is back
    returned_from = -1;
    if (level == 0) {
      if (!Q.awake) return false;
      const uint32_t log2 = TS_CP_RING_SIZE_LOG2_DWORDS_GET(Q.ring_size_reg);
      const uint32_t base = Q.ring_base_reg & TS_CP_RING_BASE_ADDR_MASK;
      if (log2 < 4 || log2 > 16) return false;  // invalid ring size: the queue is not served
      L.base = base;
      L.size = 1u << log2;
      if (!addr_ok(base, 4ull << log2, 64)) {  // the fetch of the next header fails
        raise(q, TS_CP_ERROR_BAD_ADDRESS, 0, 0, stream_addr(Q, 0, L.pos));
        return true;
      }
      if (available(Q) == 0) {
        Q.awake = false;  // drained: sleep until the next doorbell
        return false;
      }
    }
    if (Q.rp.active && Q.rp.level == level && L.pos > Q.rp.end_pos) {  // skipped past its END
      raise(q, TS_CP_ERROR_BAD_LENGTH, level, TS_OP_RENDERPASS_BEGIN, Q.rp.begin_addr);
      return true;
    }
    const uint32_t hdr_addr = stream_addr(Q, level, L.pos);
    const uint32_t hdr = read_stream(Q, level, L.pos);
    const uint32_t op = TS_PKT_HDR_OPCODE_GET(hdr);
    const uint32_t len = TS_PKT_HDR_LENGTH_GET(hdr);
    // Header flag bits only FENCE defines; any other is a bad opcode (as the firmware checks).
    const uint32_t flags_ok = op == TS_OP_FENCE ? TS_PKT_FENCE_FLAG_FLUSH_MASK | TS_PKT_FENCE_FLAG_INVALIDATE_MASK |
                                                      TS_PKT_FENCE_FLAG_INTERRUPT_MASK
                                                : 0u;
    if (!ts_pkt_known(op) || (hdr & TS_PKT_HDR_FLAGS_MASK & ~flags_ok) != 0) {
      raise(q, TS_CP_ERROR_BAD_OPCODE, level, op, hdr_addr);
      return true;
    }
    if (!ts_pkt_header_valid(hdr)) {
      raise(q, TS_CP_ERROR_BAD_LENGTH, level, op, hdr_addr);
      return true;
    }
    if (level > 0) {
      if (L.pos + 1 + len > L.size) {
        raise(q, TS_CP_ERROR_IB_OVERFLOW, level, op, hdr_addr);
        return true;
      }
    } else {
      if (1 + len > L.size - 1) {  // can never be published whole in this ring
        raise(q, TS_CP_ERROR_IB_OVERFLOW, level, op, hdr_addr);
        return true;
      }
      if (available(Q) < 1 + len) return false;  // rest of the packet not published yet
    }
    Dwords pkt(1 + len);
    for (uint32_t i = 0; i <= len; ++i) pkt[i] = read_stream(Q, level, L.pos + i);
    ++queue_packets_[q];
    return execute(q, level, hdr_addr, pkt);
  }
}

bool RefDevice::finish_wait(unsigned q) {
  Queue& Q = queues_[q];
  Inflight& in = Q.inflight;
  const uint32_t* p = in.dwords.data() + 1;
  switch (Q.wait) {
    case Wait::Barrier:
      if (barriers_[TS_PKT_BARRIER_WAIT_ID_GET(p[TS_PKT_BARRIER_WAIT_ID_DW])] <
          TS_PKT_BARRIER_WAIT_VALUE_GET(p[TS_PKT_BARRIER_WAIT_VALUE_DW]))
        return false;
      break;
    case Wait::Fence:
      if (cycle_ < in.until) return false;
      mem_.write32(TS_PKT_FENCE_ADDR_GET(p[TS_PKT_FENCE_ADDR_DW]), TS_PKT_FENCE_VALUE_GET(p[TS_PKT_FENCE_VALUE_DW]));
      if (TS_PKT_FENCE_FLAG_INTERRUPT_GET(in.dwords[0])) int_status_ |= TS_CP_INT_STATUS_FENCE_PUT(1u << q);
      break;
    case Wait::Delete:
      if (cycle_ < in.until) return false;
      mem_.write32(TS_PKT_DSID_DELETE_FENCE_ADDR_GET(p[TS_PKT_DSID_DELETE_FENCE_ADDR_DW]),
                   TS_PKT_DSID_DELETE_FENCE_VALUE_GET(p[TS_PKT_DSID_DELETE_FENCE_VALUE_DW]));
      break;
    case Wait::None: return false;
  }
  Q.wait = Wait::None;
  complete(q, in.level, in.addr, in.dwords);
  return true;
}

// ---- packets ---------------------------------------------------------------------------------

bool RefDevice::execute(unsigned q, unsigned level, uint32_t hdr_addr, const Dwords& pkt) {
  Queue& Q = queues_[q];
  Level& L = Q.levels[level];
  const uint32_t op = TS_PKT_HDR_OPCODE_GET(pkt[0]);
  const uint32_t len = static_cast<uint32_t>(pkt.size() - 1);
  const uint32_t* p = pkt.data() + 1;
  auto fail = [&](uint32_t code) {
    raise(q, code, level, op, hdr_addr);
    return true;
  };
  auto block = [&](Wait w, uint64_t latency) {
    Q.wait = w;
    Q.inflight = Inflight{level, hdr_addr, pkt, cycle_ + latency};
    if (latency == 0 && w != Wait::Barrier) finish_wait(q);
    return true;
  };

  // Inside an open render pass every packet at the body's level lies inside the body, and its
  // RENDERPASS_END exactly at the end: otherwise body_size is wrong (BAD_LENGTH where found).
  if (Q.rp.active && level == Q.rp.level) {
    const uint64_t off = L.pos - Q.rp.body_start, body = Q.rp.end_pos - Q.rp.body_start;
    if (op == TS_OP_RENDERPASS_END ? off != body : (off >= body || pkt.size() > body - off))
      return fail(TS_CP_ERROR_BAD_LENGTH);
  }

  switch (op) {
    case TS_OP_NOP: break;

    case TS_OP_INDIRECT_BUFFER: {
      if (level >= 2) return fail(TS_CP_ERROR_IB_OVERFLOW);  // ring -> IB1 -> IB2 only
      const uint32_t addr = TS_PKT_INDIRECT_BUFFER_ADDR_GET(p[TS_PKT_INDIRECT_BUFFER_ADDR_DW]);
      const uint32_t size = TS_PKT_INDIRECT_BUFFER_SIZE_GET(p[TS_PKT_INDIRECT_BUFFER_SIZE_DW]);
      if (!addr_ok(addr, 4ull * size, 4)) return fail(TS_CP_ERROR_BAD_ADDRESS);
      complete(q, level, hdr_addr, pkt);  // the caller resumes after this packet
      if (size == 0) return true;         // nothing to run: no level, the DSID is kept
      const uint32_t caller_dsid = L.dsid;
      Q.levels.push_back(Level{addr, size, 0, 0});  // DSID state starts at 0 in every command buffer
      if (caller_dsid != 0) pipe(q, TS_OP_DSID_SET, {0});  // forwarded when it changes
      return true;
    }

    case TS_OP_COND_EXEC: {
      const uint32_t addr = TS_PKT_COND_EXEC_ADDR_GET(p[TS_PKT_COND_EXEC_ADDR_DW]);
      const uint32_t mask = TS_PKT_COND_EXEC_MASK_GET(p[TS_PKT_COND_EXEC_MASK_DW]);
      const uint32_t ref = TS_PKT_COND_EXEC_REF_GET(p[TS_PKT_COND_EXEC_REF_DW]);
      const uint32_t count = TS_PKT_COND_EXEC_COUNT_GET(p[TS_PKT_COND_EXEC_COUNT_DW]);
      if (!win_ok(addr, 4, 4)) return fail(TS_CP_ERROR_BAD_ADDRESS);
      // The dwords must lie in the current buffer, whatever the condition says.
      if (level > 0 && L.pos + pkt.size() + count > L.size) return fail(TS_CP_ERROR_IB_OVERFLOW);
      if (level == 0 && count > L.size - 1) return fail(TS_CP_ERROR_IB_OVERFLOW);
      const bool run = (mem_.read32(addr) & mask) == ref;
      if (!run && level == 0 && available(Q) < pkt.size() + count) return false;  // not published yet
      complete(q, level, hdr_addr, pkt);
      if (!run) L.pos += count;
      return true;
    }

    case TS_OP_SET_REGS: {
      const uint32_t off = TS_PKT_SET_REGS_OFFSET_GET(p[TS_PKT_SET_REGS_OFFSET_DW]);
      const uint32_t n = len - TS_PKT_SET_REGS_VALUE_DW;
      if (off % 4 != 0 || off + 4ull * (n - 1) > TS_PKT_SET_REGS_OFFSET_MASK) return fail(TS_CP_ERROR_BAD_ADDRESS);
      for (uint32_t i = 0; i < n; ++i) {
        const uint32_t v = p[TS_PKT_SET_REGS_VALUE_DW + i];
        regs_[off + 4 * i] = v;
        pipe(q, op, {off + 4 * i, v});
      }
      break;
    }

    case TS_OP_SET_BIN_MODE: {
      const uint32_t d0 = p[TS_PKT_SET_BIN_MODE_MODE_DW];
      const uint32_t mode = TS_PKT_SET_BIN_MODE_MODE_GET(d0);
      const uint32_t cx = TS_PKT_SET_BIN_MODE_COARSE_X_GET(p[TS_PKT_SET_BIN_MODE_COARSE_X_DW]);
      const uint32_t cy = TS_PKT_SET_BIN_MODE_COARSE_Y_GET(p[TS_PKT_SET_BIN_MODE_COARSE_Y_DW]);
      // binning state between render passes only, a known mode, a two-level grid of 1..32 x 1..32
      if (Q.rp.active || mode > TS_BIN_MODE_TWO_LEVEL ||
          (mode == TS_BIN_MODE_TWO_LEVEL && (cx < 1 || cx > 32 || cy < 1 || cy > 32)))
        return fail(TS_CP_ERROR_BAD_STATE);
      Q.bin.mode = static_cast<BinMode>(TS_PKT_SET_BIN_MODE_MODE_GET(d0));
      Q.bin.fine_size = static_cast<BinSize>(TS_PKT_SET_BIN_MODE_FINE_SIZE_GET(p[TS_PKT_SET_BIN_MODE_FINE_SIZE_DW]));
      Q.bin.order = static_cast<BinOrder>(TS_PKT_SET_BIN_MODE_ORDER_GET(p[TS_PKT_SET_BIN_MODE_ORDER_DW]));
      Q.bin.coarse_x = static_cast<uint8_t>(TS_PKT_SET_BIN_MODE_COARSE_X_GET(p[TS_PKT_SET_BIN_MODE_COARSE_X_DW]));
      Q.bin.coarse_y = static_cast<uint8_t>(TS_PKT_SET_BIN_MODE_COARSE_Y_GET(p[TS_PKT_SET_BIN_MODE_COARSE_Y_DW]));
      Q.bin.vis_first = TS_PKT_SET_BIN_MODE_VIS_FIRST_GET(d0) != 0;
      pipe(q, op, Dwords(p, p + len));
      break;
    }

    case TS_OP_BIND_VIS_BUFFER: {
      const uint32_t addr = TS_PKT_BIND_VIS_BUFFER_ADDR_GET(p[TS_PKT_BIND_VIS_BUFFER_ADDR_DW]);
      const uint32_t size = TS_PKT_BIND_VIS_BUFFER_SIZE_GET(p[TS_PKT_BIND_VIS_BUFFER_SIZE_DW]);
      if (Q.rp.active) return fail(TS_CP_ERROR_BAD_STATE);
      if (!addr_ok(addr, size, 64)) return fail(TS_CP_ERROR_BAD_ADDRESS);
      Q.vis_addr = addr;
      Q.vis_size = size;
      pipe(q, op, Dwords(p, p + len));
      break;
    }

    case TS_OP_SET_PREFETCH: {  // the prefetcher changes no pixel; the checks are the CP's
      const uint32_t mode = TS_PKT_SET_PREFETCH_MODE_GET(p[TS_PKT_SET_PREFETCH_MODE_DW]);
      const uint32_t addr = TS_PKT_SET_PREFETCH_ADDR_GET(p[TS_PKT_SET_PREFETCH_ADDR_DW]);
      const uint32_t size = TS_PKT_SET_PREFETCH_SIZE_GET(p[TS_PKT_SET_PREFETCH_SIZE_DW]);
      if (Q.rp.active || mode > TS_PF_MODE_ADAPTIVE) return fail(TS_CP_ERROR_BAD_STATE);
      if (mode != TS_PF_MODE_OFF && (addr == 0 || size < 64 || !addr_ok(addr, size, 64)))
        return fail(TS_CP_ERROR_BAD_ADDRESS);
      pipe(q, op, Dwords(p, p + len));
      break;
    }

    case TS_OP_DRAW: {
      const uint32_t topo = TS_PKT_DRAW_TOPOLOGY_GET(p[TS_PKT_DRAW_TOPOLOGY_DW]);
      const uint32_t itype = TS_PKT_DRAW_INDEX_TYPE_GET(p[TS_PKT_DRAW_INDEX_TYPE_DW]);
      const uint64_t count = TS_PKT_DRAW_COUNT_GET(p[TS_PKT_DRAW_COUNT_DW]);
      const uint32_t vaddr = TS_PKT_DRAW_VERTEX_ADDR_GET(p[TS_PKT_DRAW_VERTEX_ADDR_DW]);
      if (itype == TS_INDEX_TYPE_NONE) {  // the vertices read are count * 16 bytes
        if (!addr_ok(vaddr, 16 * count, 16)) return fail(TS_CP_ERROR_BAD_ADDRESS);
      } else {  // indexed: which vertices depends on the indices; check the buffer's start
        const uint32_t isize = itype == TS_INDEX_TYPE_U16 ? 2 : 4;
        if (!addr_ok(vaddr, 16, 16) ||
            !addr_ok(TS_PKT_DRAW_INDEX_ADDR_GET(p[TS_PKT_DRAW_INDEX_ADDR_DW]), isize * count, isize))
          return fail(TS_CP_ERROR_BAD_ADDRESS);
      }
      if (topo == TS_TOPOLOGY_PATCH_QUAD || topo == TS_TOPOLOGY_PATCH_TRI || topo == TS_TOPOLOGY_PATCH_ISOLINE) {
        // one 16-byte tf_record per patch of 4, 3 or 2 control points (docs/tessellation.md)
        const uint64_t ncp = topo == TS_TOPOLOGY_PATCH_QUAD ? 4 : topo == TS_TOPOLOGY_PATCH_TRI ? 3 : 2;
        if (!addr_ok(TS_PKT_DRAW_TF_ADDR_GET(p[TS_PKT_DRAW_TF_ADDR_DW]), count / ncp * 16, 16))
          return fail(TS_CP_ERROR_BAD_ADDRESS);
      }
      ++draws_;
      pipe(q, op, Dwords(p, p + len));
      break;
    }

    case TS_OP_RENDERPASS_BEGIN: {
      const uint64_t target = 4ull * TS_PKT_RENDERPASS_BEGIN_WIDTH_GET(p[TS_PKT_RENDERPASS_BEGIN_WIDTH_DW]) *
                              TS_PKT_RENDERPASS_BEGIN_HEIGHT_GET(p[TS_PKT_RENDERPASS_BEGIN_HEIGHT_DW]);
      if (!addr_ok(TS_PKT_RENDERPASS_BEGIN_COLOR_ADDR_GET(p[TS_PKT_RENDERPASS_BEGIN_COLOR_ADDR_DW]), target, 64) ||
          !addr_ok(TS_PKT_RENDERPASS_BEGIN_DEPTH_ADDR_GET(p[TS_PKT_RENDERPASS_BEGIN_DEPTH_ADDR_DW]), target, 64))
        return fail(TS_CP_ERROR_BAD_ADDRESS);
      Q.rp_begin.assign(p, p + len);
      if (!cfg_.replay_render_passes) {
        pipe(q, op, Dwords(p, p + len));
        break;
      }
      if (Q.rp.active) return fail(TS_CP_ERROR_BAD_LENGTH);  // nested: the outer body_size is wrong
      const uint32_t body = TS_PKT_RENDERPASS_BEGIN_BODY_SIZE_GET(p[TS_PKT_RENDERPASS_BEGIN_BODY_SIZE_DW]);
      const uint64_t body_start = L.pos + pkt.size();
      const uint64_t end_pos = body_start + body;
      if (level > 0 && end_pos + 1 > L.size) return fail(TS_CP_ERROR_IB_OVERFLOW);
      if (level == 0 && pkt.size() + body + 1 > L.size - 1) return fail(TS_CP_ERROR_IB_OVERFLOW);
      RenderPass rp{true, level, hdr_addr, L.pos, body_start, end_pos, 1, 0, false, {}};
      if (Q.bin.mode == BinMode::TwoLevel) {
        rp.grid = CoarseGrid::of(Q.bin, TS_PKT_RENDERPASS_BEGIN_WIDTH_GET(p[TS_PKT_RENDERPASS_BEGIN_WIDTH_DW]),
                                 TS_PKT_RENDERPASS_BEGIN_HEIGHT_GET(p[TS_PKT_RENDERPASS_BEGIN_HEIGHT_DW]));
        const uint32_t lines = std::min<uint32_t>((Q.vis_size / 64) / rp.grid.bins(),
                                                  TS_GEOM_VIS_STRIDE_LINES_MASK >> TS_GEOM_VIS_STRIDE_LINES_LSB);
        if (lines == 0) return fail(TS_CP_ERROR_BAD_ADDRESS);  // not one line per coarse bin
        rp.two_level = true;
        rp.passes = 1 + rp.grid.bins() - (Q.bin.vis_first ? 1 : 0);
        set_pipe_reg(q, TS_GEOM_BASE_ADDR + TS_GEOM_COARSE_OFFSET,
                     TS_GEOM_COARSE_W_PUT(rp.grid.w) | TS_GEOM_COARSE_H_PUT(rp.grid.h) |
                         TS_GEOM_COARSE_NX_PUT(rp.grid.nx) | TS_GEOM_COARSE_NY_PUT(rp.grid.ny));
        set_pipe_reg(q, TS_GEOM_BASE_ADDR + TS_GEOM_VIS_BASE_OFFSET, Q.vis_addr & TS_GEOM_VIS_BASE_ADDR_MASK);
        set_pipe_reg(q, TS_GEOM_BASE_ADDR + TS_GEOM_VIS_STRIDE_OFFSET, TS_GEOM_VIS_STRIDE_LINES_PUT(lines));
      }
      Q.rp = rp;
      start_pass(q);
      break;
    }

    case TS_OP_RENDERPASS_END: {
      if (!Q.rp.active) {  // (always so without replay)  // no render pass to end: forwarded, nothing replayed
        pipe(q, op, {});
        tag_render_pass_stores(Q.rp_begin);
        break;
      }
      if (level != Q.rp.level || L.pos != Q.rp.end_pos) return fail(TS_CP_ERROR_BAD_LENGTH);
      pipe(q, op, {});
      tag_render_pass_stores(Q.rp_begin);
      if (Q.rp.pass + 1 < Q.rp.passes) {  // replay the body for the next coarse bin
        complete(q, level, hdr_addr, pkt, false);
        ++Q.rp.pass;
        L.pos = Q.rp.body_start;
        start_pass(q);
      } else {
        complete(q, level, hdr_addr, pkt);
        if (Q.rp.two_level) {
          set_pipe_reg(q, TS_GEOM_BASE_ADDR + TS_GEOM_VIS_OFFSET, TS_GEOM_VIS_MODE_PUT(TS_VIS_MODE_OFF));
          set_pipe_reg(q, TS_RASTER_BASE_ADDR + TS_RASTER_COARSE_OFFSET, TS_RASTER_COARSE_RESET);
        }
        Q.rp.active = false;
      }
      return true;
    }

    case TS_OP_FENCE: {
      if (!win_ok(TS_PKT_FENCE_ADDR_GET(p[TS_PKT_FENCE_ADDR_DW]), 4, 4)) return fail(TS_CP_ERROR_BAD_ADDRESS);
      if (TS_PKT_FENCE_FLAG_FLUSH_GET(pkt[0])) ++flushes_;
      if (TS_PKT_FENCE_FLAG_INVALIDATE_GET(pkt[0])) ++invalidates_;
      return block(Wait::Fence, cfg_.fence_latency);
    }

    case TS_OP_BARRIER_UPDATE:
      barriers_[TS_PKT_BARRIER_UPDATE_ID_GET(p[TS_PKT_BARRIER_UPDATE_ID_DW])] =
          TS_PKT_BARRIER_UPDATE_VALUE_GET(p[TS_PKT_BARRIER_UPDATE_VALUE_DW]);
      break;

    case TS_OP_BARRIER_WAIT:
      block(Wait::Barrier, 0);
      finish_wait(q);  // completes at once if the barrier is already there
      return true;

    case TS_OP_DSID_SET:  // forwarded (every packet, changed or not) with the new DSID
      L.dsid = TS_PKT_DSID_SET_DSID_GET(p[TS_PKT_DSID_SET_DSID_DW]);
      pipe(q, op, {L.dsid});
      break;

    case TS_OP_DSID_DELETE: {
      if (!win_ok(TS_PKT_DSID_DELETE_FENCE_ADDR_GET(p[TS_PKT_DSID_DELETE_FENCE_ADDR_DW]), 4, 4))
        return fail(TS_CP_ERROR_BAD_ADDRESS);
      const uint32_t dsid = TS_PKT_DSID_DELETE_DSID_GET(p[TS_PKT_DSID_DELETE_DSID_DW]);
      if (dsid != 0) {  // DSID 0 is never deleted; the fence is still written
        delete_hints_.push_back(DeleteHint{static_cast<uint8_t>(q), static_cast<uint8_t>(dsid), cycle_});
        poison_dsid(static_cast<uint8_t>(dsid));
      }
      return block(Wait::Delete, cfg_.delete_latency);
    }

    case TS_OP_FRAME_END:
      ++frames_;
      last_frame_ = TS_PKT_FRAME_END_FRAME_ID_GET(p[TS_PKT_FRAME_END_FRAME_ID_DW]);
      pipe(q, op, Dwords(p, p + len));
      break;

    case TS_OP_PERF_SAMPLE: {
      const uint32_t addr = TS_PKT_PERF_SAMPLE_ADDR_GET(p[TS_PKT_PERF_SAMPLE_ADDR_DW]);
      if (!win_ok(addr, kPerfBlockBytes, 64)) return fail(TS_CP_ERROR_BAD_ADDRESS);
      namespace pb = perf_block;
      std::array<uint32_t, pb::kDwords> b{};
      b[pb::kMagicDw] = pb::kMagic;
      b[pb::kVersionDw] = pb::kLayoutVersion | (q << 8) | (level << 16);
      b[pb::kCyclesLoDw] = static_cast<uint32_t>(cycle_);
      b[pb::kCyclesHiDw] = static_cast<uint32_t>(cycle_ >> 32);
      b[pb::kPacketsQ0Dw] = queue_packets_[0];
      b[pb::kPacketsQ1Dw] = queue_packets_[1];
      b[pb::kPipeIssuedDw] = b[pb::kPipeDoneDw] = pipe_issued_;  // the reference completes at once
      b[pb::kFrameDw] = last_frame_;
      for (uint32_t i = 0; i < pb::kDwords; ++i) mem_.write32(addr + 4 * i, b[i]);
      break;
    }

    default: return fail(TS_CP_ERROR_BAD_OPCODE);  // known to the header but not executed here
  }
  complete(q, level, hdr_addr, pkt);
  return true;
}

}  // namespace tessera::sim
