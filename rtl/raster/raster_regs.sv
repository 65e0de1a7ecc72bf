// raster_regs -- the raster slice's state: the RASTER register block (spec/registers/raster.yaml)
// written in-band, and the render pass that RENDERPASS_BEGIN opens.
//
// Source: ARCHITECTURE.md 5.4; issue 16 item 1 ("the slice's registers from spec/"). Decode,
// storage and resets are the generated register top's (raster_reg_top, `state_writes:
// in_band`; docs/spec-generator.md "Register tops"): the slice's SET_REG commands, in order
// with its triangles, are its in-band writes. The slice has no register-bus port, so the bus
// side of the top is tied off. What stays here: the render pass's targets, load ops, clear
// values and DSIDs, latched when RENDERPASS_BEGIN is taken, and the "layout change" a BIN or
// SLICE write makes (a new tile grid or ownership: the LRZ switches off for the pass and
// pending fast clears are written first).

`include "prim_assert.svh"

module raster_regs #(
  // reset value of SLICE.num / SLICE.index: a sliced GPU builds each slice knowing its place
  parameter int unsigned SLICE_NUM   = 1,
  parameter int unsigned SLICE_INDEX = 0
) (
  input  logic                                        clk_i,
  input  logic                                        rst_ni,
  // a SET_REG command: block offset and value (taken when set_we_i)
  input  logic [11:0]                                 set_off_i,
  input  logic [31:0]                                 set_val_i,
  input  logic                                        set_valid_i,   // offered (for layout_chg_o)
  input  logic                                        set_we_i,      // taken
  // RENDERPASS_BEGIN taken, with its payload
  input  logic                                        rp_we_i,
  input  tessera_spec_pkg::ts_pkt_renderpass_begin_t  rp_i,
  // the registers
  output raster_reg_pkg::raster_reg2hw_t              reg_o,
  // the render pass
  output logic [31:0]                                 caddr_o,
  output logic [31:0]                                 daddr_o,
  output logic [11:0]                                 rtw_o,
  output logic [11:0]                                 rth_o,
  output logic [31:0]                                 cclear_o,
  output logic [23:0]                                 dclear_o,
  output logic [5:0]                                  cdsid_o,
  output logic [5:0]                                  ddsid_o,
  output logic                                        clr_c_o,       // its load ops are CLEAR
  output logic                                        clr_d_o,
  output logic                                        st_c_o,        // its store ops are STORE
  output logic                                        st_d_o,
  // the offered SET_REG writes BIN or SLICE with a value that changes the tile grid or the
  // ownership
  output logic                                        layout_chg_o,
  // the offered write changes RASTER.COARSE (the tiles a pass renders)
  output logic                                        coarse_chg_o
);

  // ---- the register block ------------------------------------------------------------------
  tessera_regbus_pkg::reg_rsp_t   unused_rsp;
  logic                           unused_rsp_valid, unused_req_ready;
  raster_reg_pkg::raster_hw2reg_t hw2reg;
  assign hw2reg = '0;
  raster_reg_top #(
    .SLICE_NUM_RESET(4'(SLICE_NUM)),
    .SLICE_INDEX_RESET(3'(SLICE_INDEX))
  ) u_reg_top (
    .clk_i, .rst_ni,
    .reg_req_valid_i(1'b0), .reg_req_ready_o(unused_req_ready), .reg_req_i('0),
    .reg_rsp_valid_o(unused_rsp_valid), .reg_rsp_o(unused_rsp),
    .ib_we_i(set_we_i), .ib_addr_i(set_off_i), .ib_wdata_i(set_val_i),
    .reg2hw_o(reg_o), .hw2reg_i(hw2reg));

  // ---- layout change -----------------------------------------------------------------------
  assign layout_chg_o = set_valid_i &&
      ((set_off_i == 12'(tessera_spec_pkg::TS_RASTER_BIN_OFFSET) &&
        set_val_i[tessera_spec_pkg::TS_RASTER_BIN_SIZE_LSB +: 2] != reg_o.bin.size) ||
       (set_off_i == 12'(tessera_spec_pkg::TS_RASTER_SLICE_OFFSET) &&
        {set_val_i[tessera_spec_pkg::TS_RASTER_SLICE_NUM_LSB +: 4],
         set_val_i[tessera_spec_pkg::TS_RASTER_SLICE_INDEX_LSB +: 3],
         set_val_i[tessera_spec_pkg::TS_RASTER_SLICE_SKEW_LSB +: 3]} !=
        {reg_o.slice.num, reg_o.slice.index, reg_o.slice.skew}));

  assign coarse_chg_o = set_valid_i && set_off_i == 12'(tessera_spec_pkg::TS_RASTER_COARSE_OFFSET) &&
      {set_val_i[tessera_spec_pkg::TS_RASTER_COARSE_X0_LSB +: 5],
       set_val_i[tessera_spec_pkg::TS_RASTER_COARSE_Y0_LSB +: 5],
       set_val_i[tessera_spec_pkg::TS_RASTER_COARSE_X1_LSB +: 5],
       set_val_i[tessera_spec_pkg::TS_RASTER_COARSE_Y1_LSB +: 5],
       set_val_i[tessera_spec_pkg::TS_RASTER_COARSE_ENABLE_LSB]} != reg_o.coarse;

  // ---- the render pass ---------------------------------------------------------------------
  logic [31:0] caddr_q, daddr_q, cclear_q;
  logic [23:0] dclear_q;
  logic [11:0] rtw_q, rth_q;
  logic [5:0]  cdsid_q, ddsid_q;
  logic        clr_c_q, clr_d_q, st_c_q, st_d_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      caddr_q  <= '0;
      daddr_q  <= '0;
      rtw_q    <= '0;
      rth_q    <= '0;
      cclear_q <= '0;
      dclear_q <= '0;
      cdsid_q  <= '0;
      ddsid_q  <= '0;
      clr_c_q  <= 1'b0;
      clr_d_q  <= 1'b0;
      st_c_q   <= 1'b0;
      st_d_q   <= 1'b0;
    end else if (rp_we_i) begin
      caddr_q  <= rp_i.color_addr;
      daddr_q  <= rp_i.depth_addr;
      rtw_q    <= rp_i.width;
      rth_q    <= rp_i.height;
      cclear_q <= rp_i.clear_color;
      dclear_q <= rp_i.clear_depth;
      cdsid_q  <= rp_i.color_dsid;
      ddsid_q  <= rp_i.depth_dsid;
      clr_c_q  <= (rp_i.color_load == tessera_spec_pkg::TS_LOAD_OP_CLEAR);
      clr_d_q  <= (rp_i.depth_load == tessera_spec_pkg::TS_LOAD_OP_CLEAR);
      st_c_q   <= (rp_i.color_store == tessera_spec_pkg::TS_STORE_OP_STORE);
      st_d_q   <= (rp_i.depth_store == tessera_spec_pkg::TS_STORE_OP_STORE);
    end
  end
  assign caddr_o  = caddr_q;
  assign daddr_o  = daddr_q;
  assign rtw_o    = rtw_q;
  assign rth_o    = rth_q;
  assign cclear_o = cclear_q;
  assign dclear_o = dclear_q;
  assign cdsid_o  = cdsid_q;
  assign ddsid_o  = ddsid_q;
  assign clr_c_o  = clr_c_q;
  assign clr_d_o  = clr_d_q;
  assign st_c_o   = st_c_q;
  assign st_d_o   = st_d_q;

  logic unused_regs;
  // the bus side of the top is tied off; of the render pass, the body size is the CP's (and
  // the packet has reserved bits)
  assign unused_regs = ^{unused_rsp, unused_rsp_valid, unused_req_ready, rp_i};

  `ASSERT(SetTakenOffered_A, set_we_i |-> set_valid_i)

endmodule
