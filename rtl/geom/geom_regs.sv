// geom_regs -- the GEOM register block (spec/registers/geom.yaml): the draw state written
// in-band by SET_REGS, and the status and counters read over the register bus.
//
// Source: ARCHITECTURE.md 5.3; source document 001_3630ef805e8956e2.txt (Qualcomm sliced GPU),
// "the size of each sub-batch is configurable" (claims 7, 18) and the two distribution
// mechanisms of claims 5/6 selected by DIST.policy. Every offset, field and reset comes from
// the generated register top geom_reg_top (spec/registers/geom.yaml).
//
// Decode, storage, resets and errors are the generated register top's (geom_reg_top, from
// spec/registers/geom.yaml, `state_writes: in_band`; docs/spec-generator.md "Register tops"):
// state writes (set_we_i) come from PC_US in command order through its in-band port and change
// only rw fields; the register bus reads everything and writes only ERR_STATUS (w1c), every
// other write answers err. What stays here is the block's own logic: the counters, the sticky
// error sets, the vertex probe, the sub-batch clamp and the state outputs.

`include "prim_assert.svh"

module geom_regs #(
  parameter int unsigned NUM_SLICES  = 2,
  parameter int unsigned STORE_DEPTH = 128
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  // register bus
  input  logic                             reg_req_valid_i,
  output logic                             reg_req_ready_o,
  input  tessera_regbus_pkg::reg_req_t     reg_req_i,
  output logic                             reg_rsp_valid_o,
  output tessera_regbus_pkg::reg_rsp_t     reg_rsp_o,
  // in-band state writes from PC_US (offset within the block)
  input  logic                             set_we_i,
  input  logic [11:0]                      set_off_i,
  input  logic [31:0]                      set_val_i,
  // state
  output geom_pkg::gstate_t                state_o,
  output logic [geom_pkg::SB_SIZE_W-1:0]   sb_size_o,     // clamped to 16..1024
  output logic                             policy_ll_o,   // 1: LEAST_LOADED
  output geom_pkg::tess_cfg_t              tess_cfg_o,
  output geom_pkg::vis_cfg_t               vis_cfg_o,
  output geom_pkg::pf_cfg_t                pf_cfg_o,      // the tile prefetcher's (pipe_top)
  input  geom_pkg::pf_stat_t               pf_stat_i,
  // events and status
  input  logic                             ev_draw_i,
  input  logic                             ev_bad_topo_i,
  input  logic                             ev_bad_itype_i,
  input  logic [NUM_SLICES-1:0]            ev_visible_i,
  input  logic [NUM_SLICES-1:0]            ev_cull_za_i,
  input  logic [NUM_SLICES-1:0]            ev_cull_face_i,
  input  logic [NUM_SLICES-1:0]            ev_cull_off_i,
  input  logic [3:0]                       ev_assigned_i,   // deliveries this cycle
  input  logic [NUM_SLICES-1:0]            ev_sb_i,         // sub-batch dispatched to slice
  input  logic [geom_pkg::SB_SIZE_W-1:0]   ev_sb_prims_i,   // ... with this many primitives
  input  logic [NUM_SLICES-1:0]            ev_tess_patch_i, // a slice's tessellator took a patch
  input  logic [NUM_SLICES-1:0]            ev_tess_tri_i,   // ... produced a triangle
  input  logic [NUM_SLICES*13-1:0]         ev_tess_segs_i,  // ... counted isoline segments
  input  logic [NUM_SLICES*geom_pkg::TESS_EV_W-1:0] ev_tess_stage_i,  // the slices' tess_ev_t
  input  logic [NUM_SLICES-1:0]            busy_i,
  input  logic [NUM_SLICES-1:0]            stall_i,
  input  logic [NUM_SLICES*16-1:0]         outstanding_i,
  input  logic [5:0]                       ev_vis_skip_i,   // PC_US dropped this many (TEST)
  input  logic                             ev_vis_rec_i,    // the visibility writer ended a pass ...
  input  logic [31:0]                      ev_vis_rec_n_i,  // ... having recorded this many
  input  logic                             probe_valid_i,   // slice 0 fetched a vertex
  input  logic [127:0]                     probe_vtx_i      // ... in memory layout
);

  localparam int unsigned NS = NUM_SLICES;
  localparam int unsigned SlCount = tessera_spec_pkg::TS_GEOM_SLICE_COUNT;

  geom_reg_pkg::geom_reg2hw_t reg2hw;
  geom_reg_pkg::geom_hw2reg_t hw2reg;

  geom_reg_top u_reg_top (
    .clk_i,
    .rst_ni,
    .reg_req_valid_i,
    .reg_req_ready_o,
    .reg_req_i,
    .reg_rsp_valid_o,
    .reg_rsp_o,
    .ib_we_i    (set_we_i),
    .ib_addr_i  (set_off_i),
    .ib_wdata_i (set_val_i),
    .reg2hw_o   (reg2hw),
    .hw2reg_i   (hw2reg)
  );

  // ---- state -------------------------------------------------------------------------------
  logic [10:0] sb_raw;
  assign sb_raw = reg2hw.subbatch.size;
  always_comb begin
    state_o.scale_x   = reg2hw.vp_scale_x.value;
    state_o.scale_y   = reg2hw.vp_scale_y.value;
    state_o.offset_x  = reg2hw.vp_offset_x.value;
    state_o.offset_y  = reg2hw.vp_offset_y.value;
    state_o.cull_mode = reg2hw.cull.mode;
    state_o.front_cw  = reg2hw.cull.front_cw;
    state_o.tile_size = reg2hw.tile.size;
    state_o.skew      = reg2hw.tile.skew;
    state_o.rt_w      = reg2hw.rt_size.width;
    state_o.rt_h      = reg2hw.rt_size.height;
    if (sb_raw < 11'd16)        sb_size_o = 11'd16;
    else if (sb_raw > 11'd1024) sb_size_o = 11'd1024;
    else                        sb_size_o = sb_raw;
  end
  assign policy_ll_o = reg2hw.dist_r.policy;
  always_comb begin
    tess_cfg_o.mode         = reg2hw.tess_throttle.mode;
    tess_cfg_o.cap          = reg2hw.tess_throttle.cap;
    tess_cfg_o.rate         = reg2hw.tess_throttle.rate;
    tess_cfg_o.tg_size      = reg2hw.tess_shader.tg_size;
    tess_cfg_o.slots        = reg2hw.tess_shader.slots;
    tess_cfg_o.hold         = reg2hw.tess_shader.hold;
    tess_cfg_o.hs_base      = reg2hw.tess_hs_lat.base;
    tess_cfg_o.hs_per_patch = reg2hw.tess_hs_lat.per_patch;
    tess_cfg_o.ds_lat       = reg2hw.tess_ds_lat.wave;
  end
  // the tile prefetcher's tuning (pf_top latches it at RENDERPASS_BEGIN)
  always_comb begin
    pf_cfg_o.threshold = reg2hw.pf_cfg.threshold;
    pf_cfg_o.max_lines = reg2hw.pf_cfg.max_lines;
    pf_cfg_o.entries   = reg2hw.pf_cfg.entries;
    pf_cfg_o.kinds     = reg2hw.pf_cfg.kinds;
    pf_cfg_o.lookahead = reg2hw.pf_cfg.lookahead;
    pf_cfg_o.slots     = reg2hw.pf_cfg.slots;
    pf_cfg_o.window    = reg2hw.pf_cfg.window;
    pf_cfg_o.blocks    = reg2hw.pf_record.format == 1'(tessera_spec_pkg::TS_PF_RECORD_BLOCKS);
    pf_cfg_o.hit_high  = reg2hw.pf_adapt.hit_high;
    pf_cfg_o.hit_low   = reg2hw.pf_adapt.hit_low;
  end
  // two-level binning; counts of 0 act as 1
  always_comb begin
    vis_cfg_o.mode   = reg2hw.vis.mode;
    vis_cfg_o.bin    = reg2hw.vis.bin;
    vis_cfg_o.base   = reg2hw.vis_base.addr;
    vis_cfg_o.stride = reg2hw.vis_stride.lines;
    vis_cfg_o.w      = (reg2hw.coarse.w == '0) ? 6'd1 : reg2hw.coarse.w;
    vis_cfg_o.h      = (reg2hw.coarse.h == '0) ? 6'd1 : reg2hw.coarse.h;
    vis_cfg_o.nx     = (reg2hw.coarse.nx == '0) ? 6'd1 : reg2hw.coarse.nx;
    vis_cfg_o.ny     = (reg2hw.coarse.ny == '0) ? 6'd1 : reg2hw.coarse.ny;
  end

  // ---- counters ----------------------------------------------------------------------------
  logic [31:0] c_draws_q, c_vis_q, c_za_q, c_face_q, c_off_q, c_asg_q;
  logic [31:0] c_draws_d, c_vis_d, c_za_d, c_face_d, c_off_d, c_asg_d;
  logic [31:0] c_tpatch_q, c_ttri_q, c_tsegs_q, c_tpatch_d, c_ttri_d, c_tsegs_d;
  logic [31:0] c_tg_q, c_hslat_q, c_hsst_q, c_dsst_q, c_tg_d, c_hslat_d, c_hsst_d, c_dsst_d;
  logic [31:0] c_vskip_q, c_vrec_q, c_vskip_d, c_vrec_d;
  logic [9*32-1:0] c_infl_q, c_infl_d;   // in-flight histogram, k at [k*32 +: 32]
  logic [15:0] e_count_q, e_count_d;
  logic [127:0] probe_q, probe_d;
  // per-slice counters, slice s at [s*32 +: 32]
  logic [NS*32-1:0] sl_sb_q, sl_prims_q, sl_busy_q, sl_stall_q, sl_culled_q;
  logic [NS*32-1:0] sl_sb_d, sl_prims_d, sl_busy_d, sl_stall_d, sl_culled_d;

  geom_pkg::tess_ev_t tev;

  function automatic logic [31:0] popc(input logic [NS-1:0] b);
    popc = '0;
    for (int unsigned i = 0; i < NS; i++) popc = popc + 32'(b[i]);
  endfunction

  always_comb begin
    c_draws_d = c_draws_q + (ev_draw_i ? 32'd1 : 32'd0);
    c_vis_d   = c_vis_q + popc(ev_visible_i);
    c_za_d    = c_za_q + popc(ev_cull_za_i);
    c_face_d  = c_face_q + popc(ev_cull_face_i);
    c_off_d   = c_off_q + popc(ev_cull_off_i);
    c_asg_d   = c_asg_q + 32'(ev_assigned_i);
    c_vskip_d = c_vskip_q + 32'(ev_vis_skip_i);
    c_vrec_d  = c_vrec_q + (ev_vis_rec_i ? ev_vis_rec_n_i : 32'd0);
    e_count_d = e_count_q + ((ev_bad_topo_i || ev_bad_itype_i) ? 16'd1 : 16'd0);
    probe_d   = probe_valid_i ? probe_vtx_i : probe_q;
    c_tpatch_d = c_tpatch_q + popc(ev_tess_patch_i);
    c_ttri_d   = c_ttri_q + popc(ev_tess_tri_i);
    c_tsegs_d  = c_tsegs_q;
    for (int unsigned s = 0; s < NS; s++) c_tsegs_d = c_tsegs_d + 32'(ev_tess_segs_i[s*13 +: 13]);
    c_tg_d    = c_tg_q;
    c_hslat_d = c_hslat_q;
    c_hsst_d  = c_hsst_q;
    c_dsst_d  = c_dsst_q;
    c_infl_d  = c_infl_q;
    for (int unsigned s = 0; s < NS; s++) begin
      tev = ev_tess_stage_i[s*geom_pkg::TESS_EV_W +: geom_pkg::TESS_EV_W];
      c_tg_d    = c_tg_d + 32'(tev.hs_done);
      c_hslat_d = c_hslat_d + (tev.hs_done ? 32'(tev.hs_lat) : 32'd0);
      c_hsst_d  = c_hsst_d + 32'(tev.hs_stall);
      c_dsst_d  = c_dsst_d + 32'(tev.ds_stall);
      for (int unsigned k = 0; k < 9; k++) begin
        if (tev.busy && (k == 8 ? tev.inflight >= 5'd8 : 32'(tev.inflight) == k)) begin
          c_infl_d[k*32 +: 32] = c_infl_d[k*32 +: 32] + 32'd1;
        end
      end
    end
    for (int unsigned s = 0; s < NS; s++) begin
      sl_sb_d[s*32 +: 32]     = sl_sb_q[s*32 +: 32] + 32'(ev_sb_i[s]);
      sl_prims_d[s*32 +: 32]  = sl_prims_q[s*32 +: 32] + (ev_sb_i[s] ? 32'(ev_sb_prims_i) : 32'd0);
      sl_busy_d[s*32 +: 32]   = sl_busy_q[s*32 +: 32] + 32'(busy_i[s]);
      sl_stall_d[s*32 +: 32]  = sl_stall_q[s*32 +: 32] + 32'(stall_i[s]);
      sl_culled_d[s*32 +: 32] = sl_culled_q[s*32 +: 32] +
          32'(ev_cull_za_i[s] || ev_cull_face_i[s] || ev_cull_off_i[s]);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      c_draws_q   <= '0;
      c_vis_q     <= '0;
      c_za_q      <= '0;
      c_face_q    <= '0;
      c_off_q     <= '0;
      c_asg_q     <= '0;
      c_vskip_q   <= '0;
      c_vrec_q    <= '0;
      e_count_q   <= '0;
      probe_q     <= '0;
      c_tpatch_q  <= '0;
      c_ttri_q    <= '0;
      c_tsegs_q   <= '0;
      c_tg_q      <= '0;
      c_hslat_q   <= '0;
      c_hsst_q    <= '0;
      c_dsst_q    <= '0;
      c_infl_q    <= '0;
      sl_sb_q     <= '0;
      sl_prims_q  <= '0;
      sl_busy_q   <= '0;
      sl_stall_q  <= '0;
      sl_culled_q <= '0;
    end else begin
      c_draws_q   <= c_draws_d;
      c_vis_q     <= c_vis_d;
      c_za_q      <= c_za_d;
      c_face_q    <= c_face_d;
      c_off_q     <= c_off_d;
      c_asg_q     <= c_asg_d;
      c_vskip_q   <= c_vskip_d;
      c_vrec_q    <= c_vrec_d;
      e_count_q   <= e_count_d;
      probe_q     <= probe_d;
      c_tpatch_q  <= c_tpatch_d;
      c_ttri_q    <= c_ttri_d;
      c_tsegs_q   <= c_tsegs_d;
      c_tg_q      <= c_tg_d;
      c_hslat_q   <= c_hslat_d;
      c_hsst_q    <= c_hsst_d;
      c_dsst_q    <= c_dsst_d;
      c_infl_q    <= c_infl_d;
      sl_sb_q     <= sl_sb_d;
      sl_prims_q  <= sl_prims_d;
      sl_busy_q   <= sl_busy_d;
      sl_stall_q  <= sl_stall_d;
      sl_culled_q <= sl_culled_d;
    end
  end

  // ---- values the register top reads -------------------------------------------------------
  always_comb begin
    hw2reg = '0;
    hw2reg.config_r.num_slices          = 4'(NS);
    hw2reg.config_r.store_depth         = 8'(STORE_DEPTH);
    hw2reg.err_status.bad_topology_set  = ev_bad_topo_i;
    hw2reg.err_status.bad_index_type_set = ev_bad_itype_i;
    hw2reg.err_status.count             = e_count_q;
    hw2reg.draws.value                  = c_draws_q;
    hw2reg.visible.value                = c_vis_q;
    hw2reg.cull_zero_area.value         = c_za_q;
    hw2reg.cull_face.value              = c_face_q;
    hw2reg.cull_offscreen.value         = c_off_q;
    hw2reg.assigned.value               = c_asg_q;
    hw2reg.vis_skipped.value            = c_vskip_q;
    hw2reg.vis_recorded.value           = c_vrec_q;
    hw2reg.pf_status.threshold          = pf_stat_i.threshold;
    hw2reg.pf_status.mode               = pf_stat_i.mode;
    hw2reg.pf_status.epoch              = pf_stat_i.epoch;
    hw2reg.pf_tiles_similar.value       = pf_stat_i.similar;
    hw2reg.pf_tiles_dissimilar.value    = pf_stat_i.dissimilar;
    hw2reg.pf_tiles_no_history.value    = pf_stat_i.no_history;
    hw2reg.pf_lines_requested.value     = pf_stat_i.requested;
    hw2reg.pf_events_dropped.value      = pf_stat_i.dropped;
    hw2reg.pf_reads_untracked.value     = pf_stat_i.untracked;
    hw2reg.pf_tiles_no_room.value       = pf_stat_i.no_room;
    hw2reg.tess_patches.value           = c_tpatch_q;
    hw2reg.tess_triangles.value         = c_ttri_q;
    hw2reg.tess_isoline_segments.value  = c_tsegs_q;
    hw2reg.tess_thread_groups.value     = c_tg_q;
    hw2reg.tess_hs_latency.value        = c_hslat_q;
    hw2reg.tess_hs_stall.value          = c_hsst_q;
    hw2reg.tess_ds_stall.value          = c_dsst_q;
    hw2reg.tess_inflight_inflight_cycles.value = c_infl_q;
    // the vertex probe, in the memory layout these registers define
    hw2reg.vtx_dw0.x = probe_q[tessera_spec_pkg::TS_GEOM_VTX_DW0_X_LSB +: 16];
    hw2reg.vtx_dw0.y = probe_q[tessera_spec_pkg::TS_GEOM_VTX_DW0_Y_LSB +: 16];
    hw2reg.vtx_dw1.z = probe_q[32 + tessera_spec_pkg::TS_GEOM_VTX_DW1_Z_LSB +: 24];
    hw2reg.vtx_dw2.r = probe_q[64 + tessera_spec_pkg::TS_GEOM_VTX_DW2_R_LSB +: 8];
    hw2reg.vtx_dw2.g = probe_q[64 + tessera_spec_pkg::TS_GEOM_VTX_DW2_G_LSB +: 8];
    hw2reg.vtx_dw2.b = probe_q[64 + tessera_spec_pkg::TS_GEOM_VTX_DW2_B_LSB +: 8];
    hw2reg.vtx_dw2.a = probe_q[64 + tessera_spec_pkg::TS_GEOM_VTX_DW2_A_LSB +: 8];
    hw2reg.vtx_dw3.u = probe_q[96 + tessera_spec_pkg::TS_GEOM_VTX_DW3_U_LSB +: 16];
    hw2reg.vtx_dw3.v = probe_q[96 + tessera_spec_pkg::TS_GEOM_VTX_DW3_V_LSB +: 16];
    // slices this instance does not have read 0
    hw2reg.slice_sl_subbatches.value[NS*32-1:0]  = sl_sb_q;
    hw2reg.slice_sl_prims.value[NS*32-1:0]       = sl_prims_q;
    hw2reg.slice_sl_busy.value[NS*32-1:0]        = sl_busy_q;
    hw2reg.slice_sl_stall.value[NS*32-1:0]       = sl_stall_q;
    hw2reg.slice_sl_culled.value[NS*32-1:0]      = sl_culled_q;
    for (int unsigned s = 0; s < NS; s++) begin
      hw2reg.slice_sl_outstanding.value[s*32 +: 32] = 32'(outstanding_i[s*16 +: 16]);
    end
  end

  // The sticky error bits live in the register top; nothing here reads them back.
  logic unused_err_status;
  assign unused_err_status = ^reg2hw.err_status;

  `ASSERT_INIT(SlicesFit_A, NUM_SLICES >= 1 && NUM_SLICES <= SlCount)

endmodule
