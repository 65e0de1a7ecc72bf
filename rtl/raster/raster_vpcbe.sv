// raster_vpcbe -- VPCBE_S, the back end of the vertex-parameter cache in one raster slice:
// turns the triangle records VPC_US assigns to this slice into triangles with their three
// screen vertices (read from the producing slice's parameter store), merges them with the
// raster-side commands the geometry front end forwards, and feeds the raster slice in order.
//
// Source: 001_3630ef805e8956e2.txt (Qualcomm sliced GPU), summary paragraph 3: "VPCBE_S
// reads the vertex attributes of the primitives assigned to its slice"; ARCHITECTURE.md 5.3.
// docs/raster.md ("VPCBE_S") is the manual.
//
// Ordering. The geometry front end releases a command on its side output only after every
// receiver has taken the triangles of the draws before it, and it emits no later triangle
// before every slice has taken the command (pipe_top broadcasts it). So when a command is
// offered, every triangle this slice holds or is reading is older, and any triangle offered
// at the same time is younger: the command waits for the reads in flight and goes first.
//
// Store reads answer exactly one cycle after the request handshake, without backpressure, so
// a read is issued only when the output FIFO has room for it and every read still in flight.
//
// Slice identity: RASTER.SLICE writes (broadcast to every slice) keep the skew the driver
// chose but get this slice's index and the GPU's slice count: a sliced GPU knows its shape.

`include "prim_assert.svh"

module raster_vpcbe #(
  parameter int unsigned SLICE_IDX  = 0,
  parameter int unsigned NUM_SLICES = 1,
  parameter int unsigned OUT_DEPTH  = 4    // >= 3 for one triangle per clock (a read reserves
                                           // its slot); > 8 keeps the words in a RAM
) (
  input  logic                               clk_i,
  input  logic                               rst_ni,
  // triangles VPC_US assigns to this slice (geom_pkg::tri_t)
  input  logic                               tri_valid_i,
  output logic                               tri_ready_o,
  input  logic [geom_pkg::TRI_W-1:0]         tri_i,
  // parameter-store reads (geom_top rd_*)
  output logic                               rd_req_valid_o,
  input  logic                               rd_req_ready_i,
  output logic [geom_pkg::RD_REQ_W-1:0]      rd_req_o,
  input  logic                               rd_rsp_valid_i,
  input  logic [geom_pkg::STRI_W-1:0]        rd_rsp_i,
  // raster-side commands (pipe_cmd_map output; never RIN_TRI)
  input  logic                               cmd_valid_i,
  output logic                               cmd_ready_o,
  input  tessera_raster_pkg::rin_t           cmd_i,
  // towards the raster slice
  output logic                               out_valid_o,
  input  logic                               out_ready_i,
  output tessera_raster_pkg::rin_t           out_o
);

  localparam int unsigned RinW = tessera_raster_pkg::RIN_W;
  localparam int unsigned CntW = $clog2(OUT_DEPTH + 1);

  geom_pkg::tri_t tri_rec;
  assign tri_rec = geom_pkg::tri_t'(tri_i);

  // ---- output FIFO -------------------------------------------------------------------------
  // The slice's triangle buffer. Deep (pipe_top: 64, one batch) so that the slice keeps taking
  // triangles while it renders and VPC_US, which offers a triangle to every slice in its mask
  // at once, is not held by the slowest slice (issue 16 "decoupled slices"); a deep one lives
  // in a RAM (prim_fifo_ram, same port timing as prim_fifo_sync).
  logic                 f_wvalid, f_wready, f_full, f_empty;
  logic [RinW-1:0]      f_wdata, f_rdata;
  logic [CntW-1:0]      f_depth;
  if (OUT_DEPTH > 8) begin : g_ram
    prim_fifo_ram #(.WIDTH(RinW), .DEPTH(OUT_DEPTH)) u_out (
      .clk_i, .rst_ni, .clr_i(1'b0),
      .wvalid_i(f_wvalid), .wready_o(f_wready), .wdata_i(f_wdata),
      .rvalid_o(out_valid_o), .rready_i(out_ready_i), .rdata_o(f_rdata),
      .full_o(f_full), .empty_o(f_empty), .depth_o(f_depth));
  end else begin : g_flops
    prim_fifo_sync #(.WIDTH(RinW), .DEPTH(OUT_DEPTH), .FALL_THROUGH(0)) u_out (
      .clk_i, .rst_ni, .clr_i(1'b0),
      .wvalid_i(f_wvalid), .wready_o(f_wready), .wdata_i(f_wdata),
      .rvalid_o(out_valid_o), .rready_i(out_ready_i), .rdata_o(f_rdata),
      .full_o(f_full), .empty_o(f_empty), .depth_o(f_depth));
  end
  assign out_o = tessera_raster_pkg::rin_t'(f_rdata);

  // ---- store reads -------------------------------------------------------------------------
  // One read can be in flight (its response is in the next cycle); its record waits here.
  logic                          rd_inflight_q;
  logic [geom_pkg::DRAW_ID_W-1:0] rd_draw_q;
  logic [31:0]                   rd_prim_q;
  logic                          room, rd_fire;

  // room for one more entry after the one in flight lands
  assign room = (32'(f_depth) + 32'(rd_inflight_q)) < OUT_DEPTH;

  assign rd_req_valid_o = tri_valid_i && !cmd_valid_i && room;
  assign rd_req_o       = {tri_rec.src, tri_rec.entry};
  assign rd_fire        = rd_req_valid_o && rd_req_ready_i;
  assign tri_ready_o    = rd_fire;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_inflight_q <= 1'b0;
      rd_draw_q     <= '0;
      rd_prim_q     <= '0;
    end else begin
      rd_inflight_q <= rd_fire;
      if (rd_fire) begin
        rd_draw_q <= tri_rec.draw_id;
        rd_prim_q <= tri_rec.prim_id;
      end
    end
  end

  // ---- command path ------------------------------------------------------------------------
  tessera_raster_pkg::rin_t cmd_fix;
  always_comb begin
    cmd_fix = cmd_i;
    if (cmd_i.kind == tessera_raster_pkg::RIN_SET_REG &&
        cmd_i.data[31:0] == tessera_spec_pkg::TS_RASTER_SLICE_OFFSET) begin
      cmd_fix.data[32 + tessera_spec_pkg::TS_RASTER_SLICE_NUM_LSB +: 4]   = 4'(NUM_SLICES);
      cmd_fix.data[32 + tessera_spec_pkg::TS_RASTER_SLICE_INDEX_LSB +: 3] = 3'(SLICE_IDX);
    end
  end
  // a command enters when no read is in flight (the response would land after it)
  assign cmd_ready_o = cmd_valid_i && !rd_inflight_q && f_wready;

  // ---- FIFO write: a read response, or a command -------------------------------------------
  tessera_raster_pkg::rin_t tri_out;
  always_comb begin
    tri_out         = '0;
    tri_out.kind    = tessera_raster_pkg::RIN_TRI;
    tri_out.draw_id = rd_draw_q;
    tri_out.prim_id = rd_prim_q;
    tri_out.data    = rd_rsp_i;
  end
  assign f_wvalid = rd_rsp_valid_i || cmd_ready_o;
  assign f_wdata  = rd_rsp_valid_i ? RinW'(tri_out) : RinW'(cmd_fix);

  logic unused;
  assign unused = ^{f_full, f_empty, tri_rec.mask};

  `ASSERT_INIT(Params_A, NUM_SLICES >= 1 && NUM_SLICES <= geom_pkg::MAX_SLICES &&
                         SLICE_IDX < NUM_SLICES && OUT_DEPTH >= 2)
  // The store answers exactly the read this slice made, one cycle later.
  `ASSERT(RspMatchesRead_A, rd_rsp_valid_i == rd_inflight_q)
  // The FIFO always has room for the response it reserved.
  `ASSERT(RspHasRoom_A, rd_rsp_valid_i |-> f_wready)
  `ASSERT(NoTriCmd_A, cmd_valid_i |-> cmd_i.kind != tessera_raster_pkg::RIN_TRI)
  // The triangle goes to this slice.
  `ASSERT(TriForThisSlice_A, tri_valid_i |-> tri_rec.mask[SLICE_IDX])

endmodule
