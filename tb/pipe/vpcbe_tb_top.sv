// vpcbe_tb_top -- bench wrapper for VPCBE_S (rtl/raster/raster_vpcbe.sv) fed through
// pipe_cmd_map, as in pipe_top: the bench presents CP pipeline commands (pipe_cmd_t); those
// the map forwards reach raster_vpcbe, the others are taken and dropped here, as pipe_top
// drops them on geom_top's side output. The map's outputs are ports too, so the bench checks
// the forwarding decision of every command it presents (tb/pipe/bench_vpcbe.cpp).

module vpcbe_tb_top #(
  parameter int unsigned SLICE_IDX  = 1,
  parameter int unsigned NUM_SLICES = 2,
  parameter int unsigned OUT_DEPTH  = 4
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  // triangle records (geom_pkg::tri_t)
  input  logic                          tri_valid_i,
  output logic                          tri_ready_o,
  input  logic [geom_pkg::TRI_W-1:0]    tri_i,
  // parameter-store read port
  output logic                          rd_req_valid_o,
  input  logic                          rd_req_ready_i,
  output logic [geom_pkg::RD_REQ_W-1:0] rd_req_o,
  input  logic                          rd_rsp_valid_i,
  input  logic [geom_pkg::STRI_W-1:0]   rd_rsp_i,
  // CP pipeline commands
  input  logic                          cmd_valid_i,
  output logic                          cmd_ready_o,
  input  tessera_cp_pkg::pipe_cmd_t     cmd_i,
  // pipe_cmd_map's decision for cmd_i, observed by the bench
  output logic                          map_to_raster_o,
  // towards the raster slice
  output logic                          out_valid_o,
  input  logic                          out_ready_i,
  output tessera_raster_pkg::rin_t      out_o
);

  logic                     to_raster, vp_cmd_valid, vp_cmd_ready;
  tessera_raster_pkg::rin_t rin;

  pipe_cmd_map u_map (.cmd_i, .to_raster_o(to_raster), .rin_o(rin));

  // pipe_top: side_ready = !side_to_raster || taken
  assign vp_cmd_valid    = cmd_valid_i && to_raster;
  assign cmd_ready_o     = !to_raster || vp_cmd_ready;
  assign map_to_raster_o = to_raster;

  raster_vpcbe #(.SLICE_IDX(SLICE_IDX), .NUM_SLICES(NUM_SLICES), .OUT_DEPTH(OUT_DEPTH)) u_vpcbe (
    .clk_i, .rst_ni,
    .tri_valid_i, .tri_ready_o, .tri_i,
    .rd_req_valid_o, .rd_req_ready_i, .rd_req_o,
    .rd_rsp_valid_i, .rd_rsp_i,
    .cmd_valid_i(vp_cmd_valid), .cmd_ready_o(vp_cmd_ready), .cmd_i(rin),
    .out_valid_o, .out_ready_i, .out_o);

endmodule
