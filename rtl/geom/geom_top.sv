// geom_top -- the sliced geometry front end: PC_US, NUM_SLICES slices of geometry (PC_S, VFD,
// VS, TSEFE_S, VPCFE_S with its parameter store) and VPC_US, with the GEOM registers.
//
// Source: 001_3630ef805e8956e2.txt (Qualcomm sliced GPU): summary paragraphs 1 (PC_US
// sub-batches and their distribution) and 3 (TSEFE_S visibility, VPCFE_S, VPC_US assignment,
// VPCBE_S reading the vertices); ARCHITECTURE.md 5.3. docs/geometry.md is the block's manual.
//
// Ports (per-slice buses are flat vectors, slice i at [i*W +: W]: Yosys 0.23 drops packed
// arrays of structs):
//   pipe_*     commands from the CP (tessera_cp_pkg::pipe_cmd_t); pipe_done_o pulses once per
//              accepted command, in acceptance order, when it is complete; err_o pulses for
//              an erroneous DRAW (also recorded in ERR_STATUS).
//   side_*     every command that is not a DRAW or a GEOM SET_REGS, in order, after the
//              triangles of the draws before it (towards the raster side).
//   mem_*      one memory client per slice (the slice's VFD): 64-byte READs, tags matched.
//   vis_mem_*  two-level binning's client (docs/two-level.md): PC_US's coarse-bin bitmap
//              READs (tag 0x44) and the visibility writer's full-line WRITEs (tags 0x40..0x43),
//              tag bit 6 always set (the vertex fetch's never is: pipe_top merges this client
//              into slice 0's); the two never overlap (PC_US reads only once the writer is done).
//   tri_*      per receiving slice: triangles in API order (geom_pkg::tri_t).
//   rd_*       per receiving slice: parameter-store reads {src slice, entry}; the response
//              (the three screen vertices, geom_pkg::svtx_t each, v0 in the top bits) comes
//              exactly one cycle after the request handshake. Each delivered triangle must be
//              read exactly once by each receiver: that frees the entry.
//   reg_*      the GEOM register block (tessera_regbus_pkg).

`include "prim_assert.svh"

module geom_top #(
  parameter int unsigned NUM_SLICES  = 2,
  parameter int unsigned STORE_DEPTH = 128,  // triangles per slice's parameter store
  parameter int unsigned ORD_DEPTH   = 32,
  parameter int unsigned IDX_SLOTS   = 2,
  parameter int unsigned VTX_SLOTS   = 4,
  parameter int unsigned MQ_DEPTH    = 32
) (
  input  logic                                          clk_i,
  input  logic                                          rst_ni,
  // CP pipeline command port
  input  logic                                          pipe_valid_i,
  output logic                                          pipe_ready_o,
  input  tessera_cp_pkg::pipe_cmd_t                     pipe_cmd_i,
  output logic                                          pipe_done_o,
  output logic                                          err_o,
  // side output (other commands, in order)
  output logic                                          side_valid_o,
  input  logic                                          side_ready_i,
  output tessera_cp_pkg::pipe_cmd_t                     side_cmd_o,
  // memory clients, one per slice
  output logic [NUM_SLICES-1:0]                         mem_req_valid_o,
  input  logic [NUM_SLICES-1:0]                         mem_req_ready_i,
  output logic [NUM_SLICES*tessera_mem_pkg::MEM_REQ_W-1:0] mem_req_o,
  input  logic [NUM_SLICES-1:0]                         mem_rsp_valid_i,
  output logic [NUM_SLICES-1:0]                         mem_rsp_ready_o,
  input  logic [NUM_SLICES*tessera_mem_pkg::MEM_RSP_W-1:0] mem_rsp_i,
  // two-level binning's memory client
  output logic                                          vis_mem_req_valid_o,
  input  logic                                          vis_mem_req_ready_i,
  output logic [tessera_mem_pkg::MEM_REQ_W-1:0]         vis_mem_req_o,
  input  logic                                          vis_mem_rsp_valid_i,
  output logic                                          vis_mem_rsp_ready_o,
  input  logic [tessera_mem_pkg::MEM_RSP_W-1:0]         vis_mem_rsp_i,
  // triangles per receiving slice
  output logic [NUM_SLICES-1:0]                         tri_valid_o,
  input  logic [NUM_SLICES-1:0]                         tri_ready_i,
  output logic [NUM_SLICES*geom_pkg::TRI_W-1:0]         tri_o,
  // parameter-store reads per receiving slice
  input  logic [NUM_SLICES-1:0]                         rd_req_valid_i,
  output logic [NUM_SLICES-1:0]                         rd_req_ready_o,
  input  logic [NUM_SLICES*geom_pkg::RD_REQ_W-1:0]      rd_req_i,
  output logic [NUM_SLICES-1:0]                         rd_rsp_valid_o,
  output logic [NUM_SLICES*geom_pkg::STRI_W-1:0]        rd_rsp_o,
  // registers
  input  logic                                          reg_req_valid_i,
  output logic                                          reg_req_ready_o,
  input  tessera_regbus_pkg::reg_req_t                  reg_req_i,
  output logic                                          reg_rsp_valid_o,
  output tessera_regbus_pkg::reg_rsp_t                  reg_rsp_o,
  // monitor (spec/layouts.yaml slice_monitor): PC_US's sub-batch dispatches and the
  // primitives each geometry slice holds
  output logic [NUM_SLICES-1:0]                         mon_sb_o,
  output logic [geom_pkg::SB_SIZE_W-1:0]                mon_sb_prims_o,
  output logic [NUM_SLICES*16-1:0]                      mon_outstanding_o,
  // the tile prefetcher's registers in this block (GEOM.PF_*; pf_top sits in pipe_top)
  output geom_pkg::pf_cfg_t                             pf_cfg_o,
  input  geom_pkg::pf_stat_t                            pf_stat_i
);

  localparam int unsigned NS   = NUM_SLICES;
  localparam int unsigned EW   = geom_pkg::ENTRY_W;
  localparam int unsigned QW   = tessera_mem_pkg::MEM_REQ_W;
  localparam int unsigned SW   = tessera_mem_pkg::MEM_RSP_W;
  localparam int unsigned CW   = tessera_cp_pkg::PIPE_CMD_W;
  localparam int unsigned WhoW = $clog2(geom_pkg::MAX_SLICES);

  // ---- registers ---------------------------------------------------------------------------
  logic                             set_we;
  logic [11:0]                      set_off;
  logic [31:0]                      set_val;
  geom_pkg::gstate_t                gstate;
  logic [geom_pkg::SB_SIZE_W-1:0]   sb_size;
  logic                             policy_ll;
  logic                             ev_draw, ev_bad_topo, ev_bad_itype;
  logic [NS-1:0]                    ev_vis, ev_za, ev_face, ev_off, ev_sb, busy, stall, prim_done;
  logic [NS-1:0]                    ev_tess_patch, ev_tess_tri;
  logic [NS*13-1:0]                 ev_tess_segs;
  logic [NS*geom_pkg::TESS_EV_W-1:0] ev_tess_stage;
  geom_pkg::tess_cfg_t              tess_cfg;
  logic [geom_pkg::SB_SIZE_W-1:0]   ev_sb_prims;
  logic [3:0]                       ev_asg;
  logic [NS*16-1:0]                 outstanding;
  logic [NS-1:0]                    probe_valid;
  logic [NS*128-1:0]                probe_vtx;
  geom_pkg::vis_cfg_t               vis_cfg;
  logic [5:0]                       ev_vis_skip;
  logic                             vw_done;
  logic [31:0]                      vw_rec_n;

  geom_regs #(.NUM_SLICES(NS), .STORE_DEPTH(STORE_DEPTH)) u_regs (
    .clk_i, .rst_ni,
    .reg_req_valid_i, .reg_req_ready_o, .reg_req_i, .reg_rsp_valid_o, .reg_rsp_o,
    .set_we_i(set_we), .set_off_i(set_off), .set_val_i(set_val),
    .state_o(gstate), .sb_size_o(sb_size), .policy_ll_o(policy_ll),
    .tess_cfg_o(tess_cfg), .vis_cfg_o(vis_cfg), .pf_cfg_o, .pf_stat_i,
    .ev_vis_skip_i(ev_vis_skip), .ev_vis_rec_i(vw_done), .ev_vis_rec_n_i(vw_rec_n),
    .ev_draw_i(ev_draw), .ev_bad_topo_i(ev_bad_topo), .ev_bad_itype_i(ev_bad_itype),
    .ev_visible_i(ev_vis), .ev_cull_za_i(ev_za), .ev_cull_face_i(ev_face), .ev_cull_off_i(ev_off),
    .ev_assigned_i(ev_asg), .ev_sb_i(ev_sb), .ev_sb_prims_i(ev_sb_prims),
    .ev_tess_patch_i(ev_tess_patch), .ev_tess_tri_i(ev_tess_tri), .ev_tess_segs_i(ev_tess_segs),
    .ev_tess_stage_i(ev_tess_stage),
    .busy_i(busy), .stall_i(stall), .outstanding_i(outstanding),
    .probe_valid_i(probe_valid[0]), .probe_vtx_i(probe_vtx[127:0]));

  // ---- PC_US -------------------------------------------------------------------------------
  logic [NS-1:0]          sb_valid, sb_ready;
  geom_pkg::sb_desc_t     sb_desc;
  logic                   ord_wvalid, ord_wready, ord_rvalid, ord_rready;
  geom_pkg::ord_t         ord_wdata;
  logic [geom_pkg::ORD_W-1:0] ord_rdata;
  logic                   sf_wvalid, sf_wready, sf_rvalid, sf_rready;
  tessera_cp_pkg::pipe_cmd_t sf_wdata, sf_head;
  logic [CW-1:0]          sf_rdata;

  logic                      vr_valid, vr_ready;
  logic [31:0]               vr_addr;
  tessera_mem_pkg::mem_rsp_t vis_rsp;
  assign vis_rsp = vis_mem_rsp_i;
  geom_pc_us #(.NUM_SLICES(NS)) u_pc_us (
    .clk_i, .rst_ni,
    .pipe_valid_i, .pipe_ready_o, .pipe_cmd_i,
    .set_we_o(set_we), .set_off_o(set_off), .set_val_o(set_val),
    .state_i(gstate), .sb_size_i(sb_size), .policy_ll_i(policy_ll),
    .vis_cfg_i(vis_cfg), .vis_done_i(vw_done),
    .vis_rd_valid_o(vr_valid), .vis_rd_ready_i(vr_ready), .vis_rd_addr_o(vr_addr),
    .vis_rsp_valid_i(vis_mem_rsp_valid_i && vis_rsp.tag[2]), .vis_rsp_err_i(vis_rsp.err),
    .vis_rsp_line_i(vis_rsp.rdata), .ev_vis_skip_o(ev_vis_skip),
    .sb_valid_o(sb_valid), .sb_ready_i(sb_ready), .sb_desc_o(sb_desc),
    .prim_done_i(prim_done), .outstanding_o(outstanding),
    .ord_valid_o(ord_wvalid), .ord_ready_i(ord_wready), .ord_o(ord_wdata),
    .side_valid_o(sf_wvalid), .side_ready_i(sf_wready), .side_cmd_o(sf_wdata),
    .ev_draw_o(ev_draw), .ev_bad_topo_o(ev_bad_topo), .ev_bad_itype_o(ev_bad_itype),
    .ev_sb_o(ev_sb), .ev_sb_prims_o(ev_sb_prims));

  assign mon_sb_o          = ev_sb;
  assign mon_sb_prims_o    = ev_sb_prims;
  assign mon_outstanding_o = outstanding;

  logic unused_sf_full, unused_sf_empty;
  logic [$clog2(ORD_DEPTH+1)-1:0] unused_of_depth;
  logic unused_of_full, unused_of_empty;
  logic [2:0] unused_sf_depth;
  // Order FIFO in a memory cell (prim_fifo_ram: same port timing as prim_fifo_sync).
  prim_fifo_ram #(.WIDTH(geom_pkg::ORD_W), .DEPTH(ORD_DEPTH)) u_ord (
    .clk_i, .rst_ni, .clr_i(1'b0),
    .wvalid_i(ord_wvalid), .wready_o(ord_wready), .wdata_i(ord_wdata),
    .rvalid_o(ord_rvalid), .rready_i(ord_rready), .rdata_o(ord_rdata),
    .full_o(unused_of_full), .empty_o(unused_of_empty), .depth_o(unused_of_depth));
  prim_fifo_sync #(.WIDTH(CW), .DEPTH(4), .FALL_THROUGH(0)) u_side (
    .clk_i, .rst_ni, .clr_i(1'b0),
    .wvalid_i(sf_wvalid), .wready_o(sf_wready), .wdata_i(sf_wdata),
    .rvalid_o(sf_rvalid), .rready_i(sf_rready), .rdata_o(sf_rdata),
    .full_o(unused_sf_full), .empty_o(unused_sf_empty), .depth_o(unused_sf_depth));
  assign sf_head = sf_rdata;

  logic err_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) err_q <= 1'b0;
    else         err_q <= ev_bad_topo || ev_bad_itype;
  end
  assign err_o = err_q;

  // ---- slices ------------------------------------------------------------------------------
  logic [NS-1:0]                      mq_valid, mq_ready;
  logic [NS*geom_pkg::MASK_ENT_W-1:0] mq;
  logic [NS*NS-1:0]                   rd_req_k, rd_gnt_k;   // producer k, receiver r at [k*NS + r]
  logic [NS*EW-1:0]                   rd_entries;
  logic [NS-1:0]                      rd_rvalid_k;
  logic [NS*WhoW-1:0]                 rd_who_k;
  logic [NS*geom_pkg::STRI_W-1:0]     rd_data_k;

  for (genvar r = 0; r < NS; r++) begin : gen_rd_entries
    assign rd_entries[r*EW +: EW] = rd_req_i[r*geom_pkg::RD_REQ_W +: EW];
  end

  for (genvar k = 0; k < NS; k++) begin : gen_slice
    for (genvar r = 0; r < NS; r++) begin : gen_req
      assign rd_req_k[k*NS + r] = rd_req_valid_i[r] &&
          (32'(rd_req_i[r*geom_pkg::RD_REQ_W + EW +: geom_pkg::SLICE_IDX_W]) == k);
    end
    tessera_mem_pkg::mem_req_t req;
    tessera_mem_pkg::mem_rsp_t rsp;
    assign mem_req_o[k*QW +: QW] = req;
    assign rsp = mem_rsp_i[k*SW +: SW];

    geom_slice #(
      .NUM_SLICES(NS), .STORE_DEPTH(STORE_DEPTH), .IDX_SLOTS(IDX_SLOTS), .VTX_SLOTS(VTX_SLOTS),
      .MQ_DEPTH(MQ_DEPTH)
    ) u_slice (
      .clk_i, .rst_ni,
      .sb_valid_i(sb_valid[k]), .sb_ready_o(sb_ready[k]), .sb_desc_i(sb_desc),
      .mem_req_valid_o(mem_req_valid_o[k]), .mem_req_ready_i(mem_req_ready_i[k]), .mem_req_o(req),
      .mem_rsp_valid_i(mem_rsp_valid_i[k]), .mem_rsp_ready_o(mem_rsp_ready_o[k]), .mem_rsp_i(rsp),
      .mq_valid_o(mq_valid[k]), .mq_ready_i(mq_ready[k]),
      .mq_o(mq[k*geom_pkg::MASK_ENT_W +: geom_pkg::MASK_ENT_W]),
      .rd_req_i(rd_req_k[k*NS +: NS]), .rd_entry_i(rd_entries), .rd_gnt_o(rd_gnt_k[k*NS +: NS]),
      .rd_rvalid_o(rd_rvalid_k[k]), .rd_who_o(rd_who_k[k*WhoW +: WhoW]),
      .rd_data_o(rd_data_k[k*geom_pkg::STRI_W +: geom_pkg::STRI_W]),
      .ev_tess_patch_o(ev_tess_patch[k]), .ev_tess_tri_o(ev_tess_tri[k]),
      .ev_tess_segs_o(ev_tess_segs[k*13 +: 13]),
      .tess_cfg_i(tess_cfg),
      .ev_tess_stage_o(ev_tess_stage[k*geom_pkg::TESS_EV_W +: geom_pkg::TESS_EV_W]),
      .prim_done_o(prim_done[k]), .ev_visible_o(ev_vis[k]), .ev_cull_za_o(ev_za[k]),
      .ev_cull_face_o(ev_face[k]), .ev_cull_off_o(ev_off[k]), .busy_o(busy[k]), .stall_o(stall[k]),
      .probe_valid_o(probe_valid[k]), .probe_vtx_o(probe_vtx[k*128 +: 128]));
  end

  // store read responses and grants back to the receivers
  always_comb begin
    rd_req_ready_o = '0;
    rd_rsp_valid_o = '0;
    rd_rsp_o       = '0;
    for (int unsigned r = 0; r < NS; r++) begin
      for (int unsigned k = 0; k < NS; k++) begin
        if (rd_gnt_k[k*NS + r]) rd_req_ready_o[r] = 1'b1;
        if (rd_rvalid_k[k] && 32'(rd_who_k[k*WhoW +: WhoW]) == r) begin
          rd_rsp_valid_o[r] = 1'b1;
          rd_rsp_o[r*geom_pkg::STRI_W +: geom_pkg::STRI_W] = rd_data_k[k*geom_pkg::STRI_W +: geom_pkg::STRI_W];
        end
      end
    end
  end

  // ---- visibility writer and the two-level memory client -----------------------------------
  logic                      vw_start, vw_tri_valid, vw_tri_ready, vw_tri_take;
  logic                      vw_end_valid, vw_end_ready, vw_end_take, vw_busy;
  logic [31:0]               vw_tri_pos, vw_end_total;
  geom_pkg::cbox_t           vw_tri_box;
  logic                      vw_req_valid, vw_req_ready;
  tessera_mem_pkg::mem_req_t vw_req, vr_req;
  geom_vis_writer u_vis_writer (
    .clk_i, .rst_ni, .cfg_i(vis_cfg), .start_i(vw_start),
    .tri_valid_i(vw_tri_valid), .tri_pos_i(vw_tri_pos), .tri_box_i(vw_tri_box),
    .tri_ready_o(vw_tri_ready), .tri_take_i(vw_tri_take),
    .end_valid_i(vw_end_valid), .end_total_i(vw_end_total), .end_ready_o(vw_end_ready),
    .end_take_i(vw_end_take), .done_o(vw_done), .rec_n_o(vw_rec_n),
    .mem_req_valid_o(vw_req_valid), .mem_req_ready_i(vw_req_ready), .mem_req_o(vw_req),
    .mem_rsp_valid_i(vis_mem_rsp_valid_i), .mem_rsp_i(vis_rsp), .busy_o(vw_busy));
  always_comb begin
    vr_req      = '0;
    vr_req.op   = tessera_mem_pkg::MEM_OP_READ;
    vr_req.addr = vr_addr;
    vr_req.tag  = 8'h44;
  end
  assign vis_mem_req_valid_o = vw_req_valid || vr_valid;
  assign vis_mem_req_o       = vw_req_valid ? vw_req : vr_req;
  assign vw_req_ready        = vis_mem_req_ready_i;
  assign vr_ready            = vis_mem_req_ready_i && !vw_req_valid;
  assign vis_mem_rsp_ready_o = 1'b1;

  // ---- VPC_US ------------------------------------------------------------------------------
  geom_vpc_us #(.NUM_SLICES(NS)) u_vpc_us (
    .clk_i, .rst_ni,
    .ord_valid_i(ord_rvalid), .ord_ready_o(ord_rready), .ord_i(ord_rdata),
    .mq_valid_i(mq_valid), .mq_ready_o(mq_ready), .mq_i(mq),
    .sidef_valid_i(sf_rvalid), .sidef_ready_o(sf_rready), .sidef_cmd_i(sf_head),
    .side_valid_o, .side_ready_i, .side_cmd_o,
    .tri_valid_o, .tri_ready_i, .tri_o,
    .vis_start_o(vw_start), .vis_tri_valid_o(vw_tri_valid), .vis_tri_pos_o(vw_tri_pos),
    .vis_tri_box_o(vw_tri_box), .vis_tri_ready_i(vw_tri_ready), .vis_tri_take_o(vw_tri_take),
    .vis_end_valid_o(vw_end_valid), .vis_end_total_o(vw_end_total), .vis_end_ready_i(vw_end_ready),
    .vis_end_take_o(vw_end_take),
    .done_o(pipe_done_o), .ev_assigned_o(ev_asg));

  logic unused;
  assign unused = ^{probe_valid, probe_vtx};

  `ASSERT_INIT(Slices_A, NUM_SLICES >= 1 && NUM_SLICES <= geom_pkg::MAX_SLICES)
  // PC_US reads bitmaps only when no visibility pass is being written
  `ASSERT(VisClientExclusive_A, !(vw_req_valid && vr_valid))
  `ASSERT(VisReadNotWhileWriting_A, vr_valid |-> !vw_busy)
  // A receiver's read names a real producing slice.
  for (genvar r = 0; r < NS; r++) begin : gen_rd_chk
    `ASSERT(ReadSrcInRange_A, rd_req_valid_i[r] |->
            32'(rd_req_i[r*geom_pkg::RD_REQ_W + EW +: geom_pkg::SLICE_IDX_W]) < NS)
  end

endmodule
