// CommandBuffer: see command_buffer.hpp and docs/driver.md "Command buffers".
#include "tessera/driver/command_buffer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "tessera/driver/error.hpp"
#include "tessera/driver/umd.hpp"

namespace tessera::driver {

namespace {
constexpr uint32_t kMaxTarget = 2048;  // ARCHITECTURE.md 3: render targets up to 2048x2048

Dwords& operator+=(Dwords& a, const Dwords& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
}  // namespace

const char* to_string(PatchToken t) {
  switch (t) {
    case PatchToken::BinMode: return "BIN_MODE";
    case PatchToken::VisBuffer: return "VIS_BUFFER";
    case PatchToken::PatchEnableAddr: return "PATCH_ENABLE_ADDR";
    case PatchToken::DsidSet: return "DSID_SET";
    case PatchToken::DsidDelete: return "DSID_DELETE";
    case PatchToken::RenderPassDsids: return "RENDERPASS_DSIDS";
  }
  return "?";
}

CommandBuffer::CommandBuffer(Umd& umd, std::string name, PatchMethod method, BinMode mode, uint32_t max_dwords)
    : umd_(&umd), name_(std::move(name)), method_(method), written_mode_(mode), mode_(mode), max_dwords_(max_dwords) {}

std::string CommandBuffer::where() const { return fmt::format("command buffer '{}'", name_); }

void CommandBuffer::require_recording(const char* what) const {
  if (state_ == State::Closed)
    throw DriverError(fmt::format("{}: {} after close(): a closed command buffer cannot be written", where(), what));
  if (state_ == State::Submitted)
    throw DriverError(fmt::format("{}: {} after submission: a submitted command buffer cannot be written", where(), what));
}

void CommandBuffer::require_outside_render_pass(const char* what) const {
  if (open_rp_)
    throw DriverError(fmt::format("{}: {} inside render pass '{}': a render-pass body replays once per coarse bin "
                                  "and may hold only draws, SET_REGS, DSID_SET, NOPs and indirect buffers",
                                  where(), what, open_rp_->name));
}

void CommandBuffer::check_room(std::size_t more, const char* what) const {
  const std::size_t reserve = open_rp_ ? 1 : 0;  // the open render pass still needs its END
  const std::size_t total = dwords_.size() + more + reserve;
  if (total > max_dwords_)
    throw DriverError(fmt::format("{}: {} ({} dwords) would make it {} dwords, over the limit of {} "
                                  "(UmdConfig::max_command_buffer_dwords; an indirect buffer holds at most {})",
                                  where(), what, more, total, max_dwords_, TS_PKT_INDIRECT_BUFFER_SIZE_MASK));
}

void CommandBuffer::append(const Dwords& d) { dwords_.insert(dwords_.end(), d.begin(), d.end()); }

void CommandBuffer::check_group(const ResourceGroup& g, const char* what) const {
  if (g.owner() != umd_)
    throw DriverError(fmt::format("{}: {}: resource group '{}' belongs to another UMD", where(), what, g.name()));
}

// ---- render passes ---------------------------------------------------------------------------

// GMEM sizing (docs/two-level.md): the finest grid at or beyond the request whose coarse bin's
// tiles fit a slice's GMEM. A coarse bin of w x h 64-pixel blocks holds (w*64/T) x (h*64/T)
// tiles of T pixels, of which a slice owns at most ceil(columns / N) per row (ownership
// (tx + ty*skew) mod N gives every N-th tile of a row to a slice); a slice's GMEM holds
// min(32, lines / (32 T^2/256)) tiles (colour and depth, 16 pixels per line). The grid is made
// finer along its coarser axis until the bin fits; nullopt if even one block does not fit.
namespace {
std::optional<BinningInfo> fit_coarse_grid(BinningInfo b, uint32_t width, uint32_t height, uint32_t slices,
                                           uint32_t gmem_lines) {
  const uint32_t tile = 16u << static_cast<unsigned>(b.fine_size);
  const uint32_t per_block = 64 / tile;
  const uint32_t lines_per_tile = 2 * tile * tile / 16;
  const uint32_t slots = std::min<uint32_t>(32, gmem_lines / lines_per_tile);
  const uint32_t n = std::max<uint32_t>(1, slices);
  const uint32_t bx = (width + 63) / 64, by = (height + 63) / 64;
  const uint32_t cx0 = std::clamp<uint32_t>(b.coarse_x, 1, bx), cy0 = std::clamp<uint32_t>(b.coarse_y, 1, by);
  uint32_t cx = cx0, cy = cy0;
  for (;;) {
    const uint32_t w = (bx + cx - 1) / cx, h = (by + cy - 1) / cy;
    const uint32_t cols = w * per_block, rows = h * per_block;
    if (rows * ((cols + n - 1) / n) <= slots) break;
    if (cx == bx && cy == by) return std::nullopt;
    if ((w >= h && cx < bx) || cy == by) ++cx;
    else ++cy;
  }
  // an axis the fit did not refine keeps the request (the CP clamps it to the blocks)
  if (cx != cx0) b.coarse_x = static_cast<uint8_t>(cx);
  if (cy != cy0) b.coarse_y = static_cast<uint8_t>(cy);
  return b;
}
}  // namespace

void CommandBuffer::begin_render_pass(const RenderPassDesc& desc) {
  require_recording("begin_render_pass");
  const std::string name = desc.name.empty() ? fmt::format("rp{}", workloads_.size()) : desc.name;
  if (open_rp_)
    throw DriverError(fmt::format("{}: render pass '{}' begun inside render pass '{}': render passes do not nest",
                                  where(), name, open_rp_->name));
  auto bad = [&](const std::string& msg) { return DriverError(fmt::format("{}: render pass '{}': {}", where(), name, msg)); };
  if (desc.width < 1 || desc.width > kMaxTarget || desc.height < 1 || desc.height > kMaxTarget)
    throw bad(fmt::format("{}x{} render target outside 1..{} in each dimension", desc.width, desc.height, kMaxTarget));
  for (const auto* a : {&desc.color, &desc.depth}) {
    const char* which = a == &desc.color ? "color" : "depth";
    if (a->addr % 64 != 0) throw bad(fmt::format("{} target 0x{:08x} is not 64-byte aligned", which, a->addr));
    if (a->group) {
      check_group(*a->group, "begin_render_pass");
      if (!a->group->live())
        throw bad(fmt::format("it writes resource group '{}', which is not set: call set_group() first",
                              a->group->name()));
      if (!a->group->contains(a->addr))
        throw bad(fmt::format("{} target 0x{:08x} is not a resource of group '{}'", which, a->addr, a->group->name()));
    }
  }
  const UmdConfig& cfg = umd_->config();
  const bool patchable = !desc.single_level_only;
  BinningInfo two = desc.two_level.value_or(cfg.two_level);
  if (pass_bin_size_) two.fine_size = *pass_bin_size_;   // the pass's own bin size (its state)
  if (patchable && two.mode == BinMode::TwoLevel && two.coarse_x != 0 && two.coarse_y != 0) {
    const std::optional<BinningInfo> fit = fit_coarse_grid(two, desc.width, desc.height, cfg.slices, cfg.gmem_lines);
    if (!fit)
      throw bad(fmt::format("no two-level coarse grid of {}x{} fits {} slice(s) with {} GMEM lines each at {}-pixel "
                            "bins (one 64x64 block is already too large): use a smaller bin size or mark the pass "
                            "single_level_only",
                            desc.width, desc.height, cfg.slices, cfg.gmem_lines, 16u << static_cast<unsigned>(two.fine_size)));
    two = *fit;
  }
  const BinningInfo pbb{BinMode::Pbb, cfg.pbb_fine_size, BinOrder::Raster, 0, 0};
  const VisBuffer vis = desc.vis_buffer.value_or(cfg.vis_buffer);
  if (patchable) {
    if (two.mode != BinMode::TwoLevel || two.coarse_x == 0 || two.coarse_y == 0 || two.coarse_x > 32 ||
        two.coarse_y > 32)
      throw bad(fmt::format("its two-level binning information needs mode TWO_LEVEL and 1..32 x 1..32 coarse bins, "
                            "not {} x {}", two.coarse_x, two.coarse_y));
    if (vis.size == 0 || vis.addr % 64 != 0)
      throw bad(fmt::format("it may run two-level but its visibility buffer ({} bytes at 0x{:08x}) is empty or not "
                            "64-byte aligned: set UmdConfig::vis_buffer or RenderPassDesc::vis_buffer, or mark it "
                            "single_level_only",
                            vis.size, vis.addr));
  }

  Workload w;
  w.index = static_cast<uint32_t>(workloads_.size());
  w.name = name;
  w.single_level_only = desc.single_level_only;
  w.begin = static_cast<uint32_t>(dwords_.size());
  w.pbb = pbb;
  w.two_level = two;
  w.vis = vis;
  Dwords seq;
  auto here = [&] { return static_cast<uint32_t>(dwords_.size() + seq.size()); };
  if (!patchable) {
    seq += pkt::set_bin_mode(pbb);  // plain state, never patched
  } else if (method_ == PatchMethod::Cpu) {
    const bool t = written_mode_ == BinMode::TwoLevel;
    w.patches.push_back(PatchRecord{here(), PatchToken::BinMode, 0, 0, written_mode_});
    seq += pkt::set_bin_mode(t ? two : pbb);
    w.patches.push_back(PatchRecord{here(), PatchToken::VisBuffer, 0, 0, written_mode_});
    seq += t ? pkt::bind_vis_buffer(vis.addr, vis.size) : pkt::nop(TS_PKT_BIND_VIS_BUFFER_LEN);
  } else {
    Dwords tl = pkt::set_bin_mode(two);
    tl += pkt::bind_vis_buffer(vis.addr, vis.size);
    Dwords sl = pkt::set_bin_mode(pbb);
    sl += pkt::nop(TS_PKT_BIND_VIS_BUFFER_LEN);
    w.patches.push_back(PatchRecord{here(), PatchToken::PatchEnableAddr, 0, 0, BinMode::TwoLevel});
    seq += pkt::cond_exec(0, 1, 1, static_cast<uint32_t>(tl.size()));
    seq += tl;
    w.patches.push_back(PatchRecord{here(), PatchToken::PatchEnableAddr, 0, 0, BinMode::Pbb});
    seq += pkt::cond_exec(0, 1, 0, static_cast<uint32_t>(sl.size()));
    seq += sl;
  }
  w.renderpass_offset = here();
  RenderPassPacket rp;
  rp.color_addr = desc.color.addr;
  rp.width = desc.width;
  rp.height = desc.height;
  rp.depth_addr = desc.depth.addr;
  rp.color_load = desc.color.load;
  rp.color_store = desc.color.store;
  rp.depth_load = desc.depth.load;
  rp.depth_store = desc.depth.store;
  rp.clear_color = desc.clear_color;
  rp.clear_depth = desc.clear_depth;
  seq += pkt::renderpass_begin(rp);  // validates the clear depth and the other fields
  const uint16_t cv = desc.color.group ? desc.color.group->encoded_vdsid() : 0;
  const uint16_t dv = desc.depth.group ? desc.depth.group->encoded_vdsid() : 0;
  check_room(seq.size() + 1, "begin_render_pass");

  append(seq);
  if (cv || dv) relocations_.push_back(PatchRecord{w.renderpass_offset, PatchToken::RenderPassDsids, cv, dv});
  workloads_.push_back(std::move(w));
  open_rp_.open(OpenRenderPass{workloads_.size() - 1, name, desc.color.group, desc.depth.group});
}

void CommandBuffer::OpenHold::open(OpenRenderPass rp) {
  reset();
  for (ResourceGroup* g : {rp.color_group, rp.depth_group})
    if (g && g->open_render_passes_++ == 0) g->open_render_pass_name_ = rp.name;
  v_ = std::move(rp);
}

void CommandBuffer::OpenHold::reset() {
  if (!v_) return;
  for (ResourceGroup* g : {v_->color_group, v_->depth_group})
    if (g) --g->open_render_passes_;
  v_.reset();
}

void CommandBuffer::end_render_pass() {
  require_recording("end_render_pass");
  if (!open_rp_) throw DriverError(fmt::format("{}: end_render_pass without begin_render_pass", where()));
  Workload& w = workloads_[open_rp_->workload];
  const uint32_t body_pos = w.renderpass_offset + 1 + TS_PKT_RENDERPASS_BEGIN_LEN;
  const uint32_t body = static_cast<uint32_t>(dwords_.size()) - body_pos;
  if (body > (TS_PKT_RENDERPASS_BEGIN_BODY_SIZE_MASK >> TS_PKT_RENDERPASS_BEGIN_BODY_SIZE_LSB))
    throw DriverError(fmt::format("{}: render pass '{}': body of {} dwords does not fit RENDERPASS_BEGIN.body_size",
                                  where(), open_rp_->name, body));
  uint32_t& dw = dwords_[w.renderpass_offset + 1 + TS_PKT_RENDERPASS_BEGIN_BODY_SIZE_DW];
  dw = (dw & ~TS_PKT_RENDERPASS_BEGIN_BODY_SIZE_MASK) | TS_PKT_RENDERPASS_BEGIN_BODY_SIZE_PUT(body);
  append(pkt::renderpass_end());  // room was reserved when the pass began
  w.end = static_cast<uint32_t>(dwords_.size());
  open_rp_.reset();
  pass_state_.reset();
}

// ---- draw-level state ------------------------------------------------------------------------

namespace {

// SET_REGS packets for the registers of one run (want, starting at register address first)
// whose state group changed from have (every register when have is null).
template <std::size_t N>
Dwords state_runs(uint32_t first, const std::array<uint32_t, N>& want, const std::array<uint32_t, N>* have,
                  StateGroup (*group_of)(unsigned)) {
  std::array<bool, N> write{};
  for (unsigned i = 0; i < N; ++i) {
    if (!have) {
      write[i] = true;
      continue;
    }
    for (unsigned j = 0; j < N; ++j)
      if (group_of(j) == group_of(i) && want[j] != (*have)[j]) write[i] = true;
  }
  Dwords out;
  for (unsigned i = 0; i < N;) {
    if (!write[i]) {
      ++i;
      continue;
    }
    unsigned j = i;
    while (j < N && write[j]) ++j;
    out += pkt::set_regs(first + 4 * i, std::span<const uint32_t>(want.data() + i, j - i));
    i = j;
  }
  return out;
}

Dwords state_packets(const StateRegisters& want, const StateRegisters* have) {
  Dwords out = state_runs(StateRegisters::kGeomFirst, want.geom, have ? &have->geom : nullptr, geom_group);
  out += state_runs(StateRegisters::kRasterFirst, want.raster, have ? &have->raster : nullptr, raster_group);
  return out;
}

}  // namespace

void CommandBuffer::begin_render_pass(const RenderPassDesc& desc, const PipelineState& state) {
  require_recording("begin_render_pass");
  require_outside_render_pass("begin_render_pass");
  const StateRegisters regs = encode_state(state, desc.width, desc.height);
  const uint32_t bin[] = {regs.raster_bin};
  const uint32_t lrz[] = {regs.raster_lrz};
  Dwords bin_pkt = pkt::set_regs(StateRegisters::kRasterBin, bin);
  bin_pkt += pkt::set_regs(StateRegisters::kRasterLrz, lrz);
  const Dwords state_pkts = state_packets(regs, nullptr);
  check_room(bin_pkt.size(), "SET_REGS RASTER.BIN");
  // Nothing is appended when a call throws: undo the bin size and the pass if a later step fails.
  const std::size_t dwords0 = dwords_.size(), workloads0 = workloads_.size(), relocations0 = relocations_.size();
  append(bin_pkt);
  try {
    pass_bin_size_ = state.bin_size;
    begin_render_pass(desc);
    pass_bin_size_.reset();
    check_room(state_pkts.size(), "pipeline state");
  } catch (...) {
    pass_bin_size_.reset();
    if (workloads_.size() > workloads0) open_rp_.reset();
    workloads_.resize(workloads0);
    relocations_.resize(relocations0);
    dwords_.resize(dwords0);
    throw;
  }
  append(state_pkts);
  pass_state_ = PassState{state, regs, desc.width, desc.height};
}

void CommandBuffer::set_state(const PipelineState& state) {
  require_recording("set_state");
  if (!open_rp_ || !pass_state_)
    throw DriverError(fmt::format("{}: set_state outside a render pass begun with a pipeline state: pass the state "
                                  "to begin_render_pass(desc, state)",
                                  where()));
  if (state.bin_size != pass_state_->state.bin_size)
    throw DriverError(fmt::format("{}: set_state: bin size {} inside render pass '{}' begun with {}: the bin size "
                                  "is the render pass's (RENDERPASS_BEGIN's clear writes each slice's tiles under it)",
                                  where(), static_cast<unsigned>(state.bin_size), open_rp_->name,
                                  static_cast<unsigned>(pass_state_->state.bin_size)));
  const StateRegisters regs = encode_state(state, pass_state_->width, pass_state_->height);
  Dwords p = state_packets(regs, &pass_state_->regs);
  if (regs.raster_lrz != pass_state_->regs.raster_lrz) {
    const uint32_t lrz[] = {regs.raster_lrz};
    p += pkt::set_regs(StateRegisters::kRasterLrz, lrz);
  }
  check_room(p.size(), "set_state");
  append(p);
  pass_state_->state = state;
  pass_state_->regs = regs;
}

// ---- commands --------------------------------------------------------------------------------

void CommandBuffer::draw(const DrawDesc& d) {
  require_recording("draw");
  if (!open_rp_)
    throw DriverError(fmt::format("{}: draw outside a render pass: begin_render_pass() first", where()));
  if (d.topology > Topology::PatchIsoline)
    throw DriverError(fmt::format("{}: draw: unknown topology {}", where(), static_cast<unsigned>(d.topology)));
  if (d.index_type > IndexType::U32)
    throw DriverError(fmt::format("{}: draw: unknown index type {}", where(), static_cast<unsigned>(d.index_type)));
  if (d.vertex_addr % 16 != 0)
    throw DriverError(fmt::format("{}: draw: vertex buffer 0x{:08x} is not 16-byte aligned", where(), d.vertex_addr));
  const uint32_t isize = d.index_type == IndexType::U16 ? 2 : 4;
  if (d.index_type != IndexType::None && d.index_addr % isize != 0)
    throw DriverError(fmt::format("{}: draw: index buffer 0x{:08x} is not {}-byte aligned", where(), d.index_addr, isize));
  const bool patch = d.topology >= Topology::PatchQuad;
  if (patch && d.tf_addr % 4 != 0)
    throw DriverError(fmt::format("{}: draw: TF buffer 0x{:08x} is not dword aligned", where(), d.tf_addr));
  // A patch draw takes whole patches: 4 control points per quad, 3 per triangle, 2 per isoline
  // (issue 18: refused here rather than leaving the geometry front end a partial patch).
  if (patch) {
    const uint32_t size = d.topology == Topology::PatchQuad ? 4 : d.topology == Topology::PatchTri ? 3 : 2;
    const char* name = to_string(d.topology);
    if (d.count % size != 0)
      throw DriverError(fmt::format("{}: draw: {} takes {} control points per patch; a count of {} is not a multiple "
                                    "of {}",
                                    where(), name, size, d.count, size));
  }
  const Dwords p = pkt::draw(d);
  check_room(p.size(), "DRAW");
  append(p);
}

void CommandBuffer::set_regs(uint32_t offset, std::span<const uint32_t> values) {
  require_recording("set_regs");
  if (offset % 4 != 0 || values.empty() ||
      offset + 4ull * (values.size() - 1) > TS_PKT_SET_REGS_OFFSET_MASK)
    throw DriverError(fmt::format("{}: set_regs: {} registers at 0x{:05x} are not dword aligned or leave the "
                                  "{}-bit register map",
                                  where(), values.size(), offset, TS_PKT_SET_REGS_OFFSET_WIDTH));
  if (open_rp_) {
    // The bin size and the slice mapping belong to the render pass: RENDERPASS_BEGIN's CLEAR
    // writes each raster slice's own tiles under them, so a change inside the pass would let
    // one slice clear a tile another renders (docs/raster.md "The render pass").
    const uint64_t end = offset + 4ull * values.size();
    for (const auto& [reg, name] : {std::pair{TS_RASTER_BASE_ADDR + TS_RASTER_BIN_OFFSET, "RASTER.BIN"},
                                    std::pair{TS_RASTER_BASE_ADDR + TS_RASTER_SLICE_OFFSET, "RASTER.SLICE"}})
      if (reg >= offset && reg < end)
        throw DriverError(fmt::format("{}: set_regs: {} (0x{:05x}) inside render pass '{}': the bin size and slice "
                                      "mapping are the render pass's; write them before begin_render_pass",
                                      where(), name, reg, open_rp_->name));
  }
  const Dwords p = pkt::set_regs(offset, values);
  check_room(p.size(), "SET_REGS");
  append(p);
}

void CommandBuffer::fence(uint32_t addr, uint32_t value, FenceFlags flags) {
  require_recording("fence");
  require_outside_render_pass("fence");
  if (addr % 4 != 0) throw DriverError(fmt::format("{}: fence: address 0x{:08x} is not dword aligned", where(), addr));
  const Dwords p = pkt::fence(addr, value, flags);
  check_room(p.size(), "FENCE");
  append(p);
}

void CommandBuffer::barrier_update(uint32_t id, uint32_t value) {
  require_recording("barrier_update");
  require_outside_render_pass("barrier_update");
  constexpr uint32_t kBarriers = 1u << TS_PKT_BARRIER_UPDATE_ID_WIDTH;
  if (id >= kBarriers) throw DriverError(fmt::format("{}: barrier {} outside 0..{}", where(), id, kBarriers - 1));
  if (value < umd_->max_update(id))
    throw DriverError(fmt::format("{}: unbalanced barriers: barrier {} set to {} after an earlier update to {}; "
                                  "barrier values must not decrease (BARRIER_WAIT waits for >=)",
                                  where(), id, value, umd_->max_update(id)));
  for (const auto& w : unmet_waits_)
    if (w.id == id && w.value <= value && umd_->max_update(id) < w.value)
      throw DriverError(fmt::format("{}: unbalanced barriers: it waits for barrier {} >= {} and only sets it to {} "
                                    "later itself, with nothing recorded before that could release the wait: the "
                                    "queue would wait for itself forever",
                                    where(), id, w.value, value));
  const Dwords p = pkt::barrier_update(id, value);
  check_room(p.size(), "BARRIER_UPDATE");
  append(p);
  umd_->on_update(id, value);
}

void CommandBuffer::barrier_wait(uint32_t id, uint32_t value) {
  require_recording("barrier_wait");
  require_outside_render_pass("barrier_wait");
  constexpr uint32_t kBarriers = 1u << TS_PKT_BARRIER_WAIT_ID_WIDTH;
  if (id >= kBarriers) throw DriverError(fmt::format("{}: barrier {} outside 0..{}", where(), id, kBarriers - 1));
  const Dwords p = pkt::barrier_wait(id, value);
  check_room(p.size(), "BARRIER_WAIT");
  append(p);
  if (umd_->max_update(id) < value) unmet_waits_.push_back(PendingWait{id, value});
}

void CommandBuffer::set_group(ResourceGroup& g) {
  require_recording("set_group");
  check_group(g, "set_group");
  const Dwords p = pkt::dsid_set(0);
  check_room(p.size(), "DSID_SET");
  umd_->on_set(g);
  const uint16_t v = g.encoded_vdsid();
  if (v) relocations_.push_back(PatchRecord{static_cast<uint32_t>(dwords_.size()), PatchToken::DsidSet, v, 0});
  append(p);
  current_dsid_group_ = &g;
}

void CommandBuffer::set_default_dsid() {
  require_recording("set_default_dsid");
  const Dwords p = pkt::dsid_set(0);
  check_room(p.size(), "DSID_SET");
  append(p);
  current_dsid_group_ = nullptr;
}

void CommandBuffer::delete_group(ResourceGroup& g) {
  require_recording("delete_group");
  check_group(g, "delete_group");
  if (g.open_render_passes() > 0)
    throw DriverError(fmt::format("{}: delete_group('{}'): its DSID is still in use by render pass '{}', which "
                                  "writes it and has not ended",
                                  where(), g.name(), g.open_render_pass_name_));
  require_outside_render_pass("delete_group");
  if (!g.live())
    throw DriverError(fmt::format("{}: delete_group('{}'): the group is not set (never set, or already deleted), "
                                  "so it has no DSID to delete",
                                  where(), g.name()));
  const uint16_t v = g.vdsid();
  const bool reset = current_dsid_group_ == &g;
  Dwords p;
  if (v) p += pkt::dsid_delete(0, 0, 0);
  if (reset) p += pkt::dsid_set(0);  // later commands do not inherit the deleted DSID (FIG. 4)
  check_room(p.size(), "DSID_DELETE");
  if (v) relocations_.push_back(PatchRecord{static_cast<uint32_t>(dwords_.size()), PatchToken::DsidDelete, v, 0});
  append(p);
  if (reset) current_dsid_group_ = nullptr;
  umd_->on_delete(g);
}

void CommandBuffer::indirect_buffer(uint32_t addr, uint32_t size_dwords) {
  require_recording("indirect_buffer");
  if (addr % 4 != 0)
    throw DriverError(fmt::format("{}: indirect_buffer: address 0x{:08x} is not dword aligned", where(), addr));
  const Dwords p = pkt::indirect_buffer(addr, size_dwords);
  check_room(p.size(), "INDIRECT_BUFFER");
  append(p);
}

void CommandBuffer::frame_end(uint32_t frame_id) {
  require_recording("frame_end");
  require_outside_render_pass("frame_end");
  const Dwords p = pkt::frame_end(frame_id);
  check_room(p.size(), "FRAME_END");
  append(p);
}

void CommandBuffer::set_prefetch(const PrefetchConfig& c, uint32_t history_addr, uint32_t history_bytes) {
  require_recording("set_prefetch");
  require_outside_render_pass("set_prefetch");
  try {
    check_prefetch_config(c);
  } catch (const DriverError& e) {
    throw DriverError(fmt::format("{}: set_prefetch: {}", where(), e.what()));
  }
  if (c.mode != PrefetchMode::Off && (history_addr == 0 || history_addr % 64 != 0 || history_bytes < 64))
    throw DriverError(fmt::format("{}: set_prefetch: mode {} needs a history buffer: address 0x{:08x} (64-byte aligned, "
                                  "not 0) and at least 64 bytes (got {})",
                                  where(), to_string(c.mode), history_addr, history_bytes));
  const uint32_t cfg = TS_GEOM_PF_CFG_THRESHOLD_PUT(c.threshold) | TS_GEOM_PF_CFG_MAX_LINES_PUT(c.max_lines & 0xffu) |
                       TS_GEOM_PF_CFG_ENTRIES_PUT(c.entries) | TS_GEOM_PF_CFG_KINDS_PUT(c.kinds) |
                       TS_GEOM_PF_CFG_LOOKAHEAD_PUT(c.lookahead ? 1u : 0u) |
                       TS_GEOM_PF_CFG_SLOTS_PUT(static_cast<uint32_t>(std::countr_zero(c.history_slots)) / 2) |
                       TS_GEOM_PF_CFG_WINDOW_PUT(c.window_lines);
  const uint32_t adapt = TS_GEOM_PF_ADAPT_HIT_HIGH_PUT(c.hit_high) | TS_GEOM_PF_ADAPT_HIT_LOW_PUT(c.hit_low);
  const uint32_t record = TS_GEOM_PF_RECORD_FORMAT_PUT(c.blocks ? TS_PF_RECORD_BLOCKS : TS_PF_RECORD_RANGES);
  set_regs(TS_GEOM_BASE_ADDR + TS_GEOM_PF_RECORD_OFFSET, {record});
  set_regs(TS_GEOM_BASE_ADDR + TS_GEOM_PF_CFG_OFFSET, {cfg, adapt});
  const Dwords p = pkt::set_prefetch(static_cast<uint32_t>(c.mode), history_addr, history_bytes);
  check_room(p.size(), "SET_PREFETCH");
  append(p);
}

void CommandBuffer::perf_sample(uint32_t addr) {
  require_recording("perf_sample");
  require_outside_render_pass("perf_sample");
  if (addr % 64 != 0)
    throw DriverError(fmt::format("{}: perf_sample: address 0x{:08x} is not 64-byte aligned", where(), addr));
  const Dwords p = pkt::perf_sample(addr);
  check_room(p.size(), "PERF_SAMPLE");
  append(p);
}

void CommandBuffer::nop(uint32_t n) {
  require_recording("nop");
  const Dwords p = pkt::nop(n);
  check_room(p.size(), "NOP");
  append(p);
}

void CommandBuffer::close() {
  require_recording("close");
  if (open_rp_)
    throw DriverError(fmt::format("{}: close() with render pass '{}' not ended: end_render_pass() first", where(),
                                  open_rp_->name));
  state_ = State::Closed;
  if (method_ == PatchMethod::Cpu) patch(umd_->binning_state().mode());
}

void CommandBuffer::mark_submitted() { state_ = State::Submitted; }

// ---- patching ----------------------------------------------------------------------------------

bool CommandBuffer::patch(BinMode target) {
  if (method_ == PatchMethod::Gpu)
    throw DriverError(fmt::format("{}: patch(): the buffer uses GPU-side patching (COND_EXEC); the KMD's "
                                  "patch-enable value selects its mode",
                                  where()));
  if (state_ == State::Recording)
    throw DriverError(fmt::format("{}: patch() while recording: close() patches it to the current mode", where()));
  if (state_ == State::Submitted)
    throw DriverError(fmt::format("{}: patch() after submission: its copy in GPU memory is not patched again",
                                  where()));
  bool changed = false;
  for (Workload& w : workloads_) {
    if (w.single_level_only) continue;  // never patched
    for (PatchRecord& r : w.patches) {
      if (r.slot_mode == target) continue;  // applied once
      const bool t = target == BinMode::TwoLevel;
      Dwords v;
      if (r.token == PatchToken::BinMode) v = pkt::set_bin_mode(t ? w.two_level : w.pbb);
      else v = t ? pkt::bind_vis_buffer(w.vis.addr, w.vis.size) : pkt::nop(TS_PKT_BIND_VIS_BUFFER_LEN);
      std::copy(v.begin(), v.end(), dwords_.begin() + r.offset);
      r.slot_mode = target;
      changed = true;
    }
  }
  mode_ = target;
  return changed;
}

}  // namespace tessera::driver
