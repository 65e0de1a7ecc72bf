// geom_regs -- the GEOM register block (spec/registers/geom.yaml): the draw state written
// in-band by SET_REGS, and the status and counters read over the register bus.
//
// Source: ARCHITECTURE.md 5.3; source document 001_3630ef805e8956e2.txt (Qualcomm sliced GPU),
// "the size of each sub-batch is configurable" (claims 7, 18) and the two distribution
// mechanisms of claims 5/6 selected by DIST.policy. Every offset, field and reset comes from
// the generated tessera_spec_pkg::TS_GEOM_* names.
//
// State writes (set_we_i) come from PC_US in command order; only rw fields change, writes to
// read-only registers or unmapped offsets are ignored there (PC_US only sends offsets inside
// the GEOM window). Register bus: ready whenever no response is pending, response one cycle
// after the request; err for unmapped/misaligned offsets and for writes to anything but
// ERR_STATUS (state is written in-band only, see the yaml header).

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
  input  logic [NUM_SLICES-1:0]            busy_i,
  input  logic [NUM_SLICES-1:0]            stall_i,
  input  logic [NUM_SLICES*16-1:0]         outstanding_i,
  input  logic                             probe_valid_i,   // slice 0 fetched a vertex
  input  logic [127:0]                     probe_vtx_i      // ... in memory layout
);

  localparam int unsigned AW = tessera_spec_pkg::TS_GEOM_ADDR_WIDTH;
  localparam int unsigned NS = NUM_SLICES;
  localparam int unsigned NumSlCnt = 5;  // SUBBATCHES, PRIMS, BUSY, STALL, CULLED

  // ---- state registers ---------------------------------------------------------------------
  logic [31:0] r_scale_x_q, r_scale_y_q, r_off_x_q, r_off_y_q, r_cull_q, r_tile_q, r_rt_q,
               r_sb_q, r_dist_q;
  logic [31:0] r_scale_x_d, r_scale_y_d, r_off_x_d, r_off_y_d, r_cull_d, r_tile_d, r_rt_d,
               r_sb_d, r_dist_d;

  function automatic logic at(input logic [AW-1:0] o, input logic [31:0] reg_off);
    at = (32'(o) == reg_off);
  endfunction

  always_comb begin
    r_scale_x_d = r_scale_x_q;
    r_scale_y_d = r_scale_y_q;
    r_off_x_d   = r_off_x_q;
    r_off_y_d   = r_off_y_q;
    r_cull_d    = r_cull_q;
    r_tile_d    = r_tile_q;
    r_rt_d      = r_rt_q;
    r_sb_d      = r_sb_q;
    r_dist_d    = r_dist_q;
    if (set_we_i) begin
      if (at(set_off_i, tessera_spec_pkg::TS_GEOM_VP_SCALE_X_OFFSET))
        r_scale_x_d = set_val_i & tessera_spec_pkg::TS_GEOM_VP_SCALE_X_RW_MASK;
      if (at(set_off_i, tessera_spec_pkg::TS_GEOM_VP_SCALE_Y_OFFSET))
        r_scale_y_d = set_val_i & tessera_spec_pkg::TS_GEOM_VP_SCALE_Y_RW_MASK;
      if (at(set_off_i, tessera_spec_pkg::TS_GEOM_VP_OFFSET_X_OFFSET))
        r_off_x_d = set_val_i & tessera_spec_pkg::TS_GEOM_VP_OFFSET_X_RW_MASK;
      if (at(set_off_i, tessera_spec_pkg::TS_GEOM_VP_OFFSET_Y_OFFSET))
        r_off_y_d = set_val_i & tessera_spec_pkg::TS_GEOM_VP_OFFSET_Y_RW_MASK;
      if (at(set_off_i, tessera_spec_pkg::TS_GEOM_CULL_OFFSET))
        r_cull_d = set_val_i & tessera_spec_pkg::TS_GEOM_CULL_RW_MASK;
      if (at(set_off_i, tessera_spec_pkg::TS_GEOM_TILE_OFFSET))
        r_tile_d = set_val_i & tessera_spec_pkg::TS_GEOM_TILE_RW_MASK;
      if (at(set_off_i, tessera_spec_pkg::TS_GEOM_RT_SIZE_OFFSET))
        r_rt_d = set_val_i & tessera_spec_pkg::TS_GEOM_RT_SIZE_RW_MASK;
      if (at(set_off_i, tessera_spec_pkg::TS_GEOM_SUBBATCH_OFFSET))
        r_sb_d = set_val_i & tessera_spec_pkg::TS_GEOM_SUBBATCH_RW_MASK;
      if (at(set_off_i, tessera_spec_pkg::TS_GEOM_DIST_OFFSET))
        r_dist_d = set_val_i & tessera_spec_pkg::TS_GEOM_DIST_RW_MASK;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      r_scale_x_q <= tessera_spec_pkg::TS_GEOM_VP_SCALE_X_RESET;
      r_scale_y_q <= tessera_spec_pkg::TS_GEOM_VP_SCALE_Y_RESET;
      r_off_x_q   <= tessera_spec_pkg::TS_GEOM_VP_OFFSET_X_RESET;
      r_off_y_q   <= tessera_spec_pkg::TS_GEOM_VP_OFFSET_Y_RESET;
      r_cull_q    <= tessera_spec_pkg::TS_GEOM_CULL_RESET;
      r_tile_q    <= tessera_spec_pkg::TS_GEOM_TILE_RESET;
      r_rt_q      <= tessera_spec_pkg::TS_GEOM_RT_SIZE_RESET;
      r_sb_q      <= tessera_spec_pkg::TS_GEOM_SUBBATCH_RESET;
      r_dist_q    <= tessera_spec_pkg::TS_GEOM_DIST_RESET;
    end else begin
      r_scale_x_q <= r_scale_x_d;
      r_scale_y_q <= r_scale_y_d;
      r_off_x_q   <= r_off_x_d;
      r_off_y_q   <= r_off_y_d;
      r_cull_q    <= r_cull_d;
      r_tile_q    <= r_tile_d;
      r_rt_q      <= r_rt_d;
      r_sb_q      <= r_sb_d;
      r_dist_q    <= r_dist_d;
    end
  end

  logic [10:0] sb_raw;
  assign sb_raw = r_sb_q[tessera_spec_pkg::TS_GEOM_SUBBATCH_SIZE_LSB +: 11];
  always_comb begin
    state_o.scale_x   = r_scale_x_q;
    state_o.scale_y   = r_scale_y_q;
    state_o.offset_x  = r_off_x_q;
    state_o.offset_y  = r_off_y_q;
    state_o.cull_mode = r_cull_q[tessera_spec_pkg::TS_GEOM_CULL_MODE_LSB +: 2];
    state_o.front_cw  = r_cull_q[tessera_spec_pkg::TS_GEOM_CULL_FRONT_CW_LSB];
    state_o.tile_size = r_tile_q[tessera_spec_pkg::TS_GEOM_TILE_SIZE_LSB +: 2];
    state_o.skew      = r_tile_q[tessera_spec_pkg::TS_GEOM_TILE_SKEW_LSB +: 3];
    state_o.rt_w      = r_rt_q[tessera_spec_pkg::TS_GEOM_RT_SIZE_WIDTH_LSB +: 12];
    state_o.rt_h      = r_rt_q[tessera_spec_pkg::TS_GEOM_RT_SIZE_HEIGHT_LSB +: 12];
    if (sb_raw < 11'd16)        sb_size_o = 11'd16;
    else if (sb_raw > 11'd1024) sb_size_o = 11'd1024;
    else                        sb_size_o = sb_raw;
  end
  assign policy_ll_o = r_dist_q[tessera_spec_pkg::TS_GEOM_DIST_POLICY_LSB];

  // ---- counters ----------------------------------------------------------------------------
  logic [31:0] c_draws_q, c_vis_q, c_za_q, c_face_q, c_off_q, c_asg_q;
  logic [31:0] c_draws_d, c_vis_d, c_za_d, c_face_d, c_off_d, c_asg_d;
  logic        e_topo_q, e_itype_q, e_topo_d, e_itype_d;
  logic [15:0] e_count_q, e_count_d;
  logic [127:0] probe_q, probe_d;
  logic [NS*NumSlCnt*32-1:0] sl_q, sl_d;  // slice s counter k at [(s*NumSlCnt+k)*32 +: 32]

  function automatic logic [31:0] popc(input logic [NS-1:0] b);
    popc = '0;
    for (int unsigned i = 0; i < NS; i++) popc = popc + 32'(b[i]);
  endfunction

  // register bus decode
  logic          req_go, aligned, in_block;
  logic [AW-1:0] off;
  logic          rsp_valid_q;
  tessera_regbus_pkg::reg_rsp_t rsp_d, rsp_q;
  logic          w1c_go;
  assign reg_req_ready_o = !rsp_valid_q;
  assign req_go   = reg_req_valid_i && reg_req_ready_o;
  assign off      = reg_req_i.addr[AW-1:0];
  assign aligned  = (reg_req_i.addr[1:0] == 2'b00);
  assign in_block = (32'(reg_req_i.addr) < tessera_spec_pkg::TS_GEOM_SIZE);
  assign w1c_go   = req_go && reg_req_i.we && aligned && in_block &&
                    at(off, tessera_spec_pkg::TS_GEOM_ERR_STATUS_OFFSET);

  always_comb begin
    c_draws_d = c_draws_q + (ev_draw_i ? 32'd1 : 32'd0);
    c_vis_d   = c_vis_q + popc(ev_visible_i);
    c_za_d    = c_za_q + popc(ev_cull_za_i);
    c_face_d  = c_face_q + popc(ev_cull_face_i);
    c_off_d   = c_off_q + popc(ev_cull_off_i);
    c_asg_d   = c_asg_q + 32'(ev_assigned_i);
    e_topo_d  = e_topo_q;
    e_itype_d = e_itype_q;
    if (w1c_go) begin
      if (reg_req_i.wdata[tessera_spec_pkg::TS_GEOM_ERR_STATUS_BAD_TOPOLOGY_LSB])   e_topo_d = 1'b0;
      if (reg_req_i.wdata[tessera_spec_pkg::TS_GEOM_ERR_STATUS_BAD_INDEX_TYPE_LSB]) e_itype_d = 1'b0;
    end
    if (ev_bad_topo_i)  e_topo_d = 1'b1;
    if (ev_bad_itype_i) e_itype_d = 1'b1;
    e_count_d = e_count_q + ((ev_bad_topo_i || ev_bad_itype_i) ? 16'd1 : 16'd0);
    probe_d   = probe_valid_i ? probe_vtx_i : probe_q;
    sl_d      = sl_q;
    for (int unsigned s = 0; s < NS; s++) begin
      sl_d[(s*NumSlCnt+0)*32 +: 32] = sl_q[(s*NumSlCnt+0)*32 +: 32] + 32'(ev_sb_i[s]);
      sl_d[(s*NumSlCnt+1)*32 +: 32] = sl_q[(s*NumSlCnt+1)*32 +: 32] +
                                      (ev_sb_i[s] ? 32'(ev_sb_prims_i) : 32'd0);
      sl_d[(s*NumSlCnt+2)*32 +: 32] = sl_q[(s*NumSlCnt+2)*32 +: 32] + 32'(busy_i[s]);
      sl_d[(s*NumSlCnt+3)*32 +: 32] = sl_q[(s*NumSlCnt+3)*32 +: 32] + 32'(stall_i[s]);
      sl_d[(s*NumSlCnt+4)*32 +: 32] = sl_q[(s*NumSlCnt+4)*32 +: 32] +
          32'(ev_cull_za_i[s] || ev_cull_face_i[s] || ev_cull_off_i[s]);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      c_draws_q <= '0;
      c_vis_q   <= '0;
      c_za_q    <= '0;
      c_face_q  <= '0;
      c_off_q   <= '0;
      c_asg_q   <= '0;
      e_topo_q  <= 1'b0;
      e_itype_q <= 1'b0;
      e_count_q <= '0;
      probe_q   <= '0;
      sl_q      <= '0;
    end else begin
      c_draws_q <= c_draws_d;
      c_vis_q   <= c_vis_d;
      c_za_q    <= c_za_d;
      c_face_q  <= c_face_d;
      c_off_q   <= c_off_d;
      c_asg_q   <= c_asg_d;
      e_topo_q  <= e_topo_d;
      e_itype_q <= e_itype_d;
      e_count_q <= e_count_d;
      probe_q   <= probe_d;
      sl_q      <= sl_d;
    end
  end

  // ---- register bus reads ------------------------------------------------------------------
  logic [31:0] rdata;
  logic        hit;
  always_comb begin
    rdata = '0;
    hit   = 1'b1;
    if (at(off, tessera_spec_pkg::TS_GEOM_VP_SCALE_X_OFFSET))        rdata = r_scale_x_q;
    else if (at(off, tessera_spec_pkg::TS_GEOM_VP_SCALE_Y_OFFSET))   rdata = r_scale_y_q;
    else if (at(off, tessera_spec_pkg::TS_GEOM_VP_OFFSET_X_OFFSET))  rdata = r_off_x_q;
    else if (at(off, tessera_spec_pkg::TS_GEOM_VP_OFFSET_Y_OFFSET))  rdata = r_off_y_q;
    else if (at(off, tessera_spec_pkg::TS_GEOM_CULL_OFFSET))         rdata = r_cull_q;
    else if (at(off, tessera_spec_pkg::TS_GEOM_TILE_OFFSET))         rdata = r_tile_q;
    else if (at(off, tessera_spec_pkg::TS_GEOM_RT_SIZE_OFFSET))      rdata = r_rt_q;
    else if (at(off, tessera_spec_pkg::TS_GEOM_SUBBATCH_OFFSET))     rdata = r_sb_q;
    else if (at(off, tessera_spec_pkg::TS_GEOM_DIST_OFFSET))         rdata = r_dist_q;
    else if (at(off, tessera_spec_pkg::TS_GEOM_CONFIG_OFFSET)) begin
      rdata[tessera_spec_pkg::TS_GEOM_CONFIG_NUM_SLICES_LSB +: 4]  = 4'(NS);
      rdata[tessera_spec_pkg::TS_GEOM_CONFIG_STORE_DEPTH_LSB +: 8] = 8'(STORE_DEPTH);
    end else if (at(off, tessera_spec_pkg::TS_GEOM_ERR_STATUS_OFFSET)) begin
      rdata[tessera_spec_pkg::TS_GEOM_ERR_STATUS_BAD_TOPOLOGY_LSB]   = e_topo_q;
      rdata[tessera_spec_pkg::TS_GEOM_ERR_STATUS_BAD_INDEX_TYPE_LSB] = e_itype_q;
      rdata[tessera_spec_pkg::TS_GEOM_ERR_STATUS_COUNT_LSB +: 16]    = e_count_q;
    end
    else if (at(off, tessera_spec_pkg::TS_GEOM_DRAWS_OFFSET))          rdata = c_draws_q;
    else if (at(off, tessera_spec_pkg::TS_GEOM_VISIBLE_OFFSET))        rdata = c_vis_q;
    else if (at(off, tessera_spec_pkg::TS_GEOM_CULL_ZERO_AREA_OFFSET)) rdata = c_za_q;
    else if (at(off, tessera_spec_pkg::TS_GEOM_CULL_FACE_OFFSET))      rdata = c_face_q;
    else if (at(off, tessera_spec_pkg::TS_GEOM_CULL_OFFSCREEN_OFFSET)) rdata = c_off_q;
    else if (at(off, tessera_spec_pkg::TS_GEOM_ASSIGNED_OFFSET))       rdata = c_asg_q;
    else if (at(off, tessera_spec_pkg::TS_GEOM_VTX_DW0_OFFSET))        rdata = probe_q[31:0];
    else if (at(off, tessera_spec_pkg::TS_GEOM_VTX_DW1_OFFSET))        rdata = probe_q[63:32];
    else if (at(off, tessera_spec_pkg::TS_GEOM_VTX_DW2_OFFSET))        rdata = probe_q[95:64];
    else if (at(off, tessera_spec_pkg::TS_GEOM_VTX_DW3_OFFSET))        rdata = probe_q[127:96];
    else begin
      hit = 1'b0;
      for (int unsigned s = 0; s < tessera_spec_pkg::TS_GEOM_SLICE_COUNT; s++) begin
        for (int unsigned k = 0; k < 6; k++) begin
          if (32'(off) == tessera_spec_pkg::TS_GEOM_SLICE_OFFSET +
                          s * tessera_spec_pkg::TS_GEOM_SLICE_STRIDE + 32'(4 * k)) begin
            hit = 1'b1;
            if (s < NS) begin
              if (k < NumSlCnt) rdata = sl_q[(s*NumSlCnt+k)*32 +: 32];
              else              rdata = 32'(outstanding_i[s*16 +: 16]);
            end
          end
        end
      end
    end
  end

  always_comb begin
    rsp_d = '0;
    if (!in_block || !aligned || !hit) begin
      rsp_d.err = 1'b1;
    end else if (reg_req_i.we) begin
      rsp_d.err = !at(off, tessera_spec_pkg::TS_GEOM_ERR_STATUS_OFFSET);
    end else begin
      rsp_d.rdata = rdata;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rsp_valid_q <= 1'b0;
      rsp_q       <= '0;
    end else begin
      rsp_valid_q <= req_go;
      if (req_go) rsp_q <= rsp_d;
    end
  end
  assign reg_rsp_valid_o = rsp_valid_q;
  assign reg_rsp_o       = rsp_q;

  `ASSERT_INIT(SlicesFit_A, NUM_SLICES >= 1 && NUM_SLICES <= tessera_spec_pkg::TS_GEOM_SLICE_COUNT)
  `ASSERT_INIT(SlCounters_A, tessera_spec_pkg::TS_GEOM_SL_OUTSTANDING_OFFSET ==
                             tessera_spec_pkg::TS_GEOM_SLICE_OFFSET + 32'(4 * NumSlCnt))
  `ASSERT(RspOneCycle_A, req_go |=> reg_rsp_valid_o)

endmodule
