// gpu_top -- the Tessera GPU as the host sees it (ARCHITECTURE.md 2): the command processor
// and the memory system, with the pipeline's command port and memory clients brought out.
//
// NUM_SLICES >= 1: the CP (cp_top) drives the pipeline (pipe_top: sliced geometry, VPCBE_S
// and raster slices) and the memory system (mem_subsys: crossbar -> SLC -> AXI4); the pipe_*
// and cache_* ports are unused (tied off). NUM_SLICES = 0: no pipeline; the pipeline command
// port (pipe_*), its completion pulse and the slice-cache handshake are brought out for a
// bench model (sim/gpu GpuSim's stand-in), which the CP system tests use to control
// completion timing exactly.
// NUM_PIPE_CLIENTS memory client ports (pc_*) are brought out in both cases (the host's
// coherent memory port, and the stand-in's).
//
// Register map on the host port (16-bit byte addresses): CP block at TS_CP_BASE_ADDR,
// SLC block at TS_SLC_BASE_ADDR and (with a pipeline) GEOM block at TS_GEOM_BASE_ADDR
// (offsets rebased to the block), anything else answers err.
// Memory clients: 0 = CP packet fetch, 1 = CP firmware window, 2.. = pc_* ports, then the
// pipeline's NUM_SLICES (each slice's CCHE).
`include "prim_assert.svh"

module gpu_top #(
  parameter              ROM_INIT         = "",
  parameter logic [31:0] MEM_BYTES        = 32'h0100_0000,
  parameter int unsigned NUM_PIPE_CLIENTS = 1,
  parameter int unsigned NUM_SLICES       = 0,
  parameter int unsigned SLC_SIZE_BYTES   = 131072,
  parameter int unsigned SLC_WAYS         = 8,
  parameter int unsigned SLC_NUM_MSHR     = 8,
  parameter int unsigned SLC_NUM_WB       = 4,
  parameter int unsigned AXI_ID_W         = 6,
  // Requests in flight per crossbar client. A slice's CCHE is one client carrying the slice's
  // vertex fetch and raster traffic, with up to 8 fills and 2 writebacks outstanding; 4 cost the
  // 1-slice demo frame 3.6% of its cycles, 16 gain nothing over 8 (docs/pipeline.md).
  parameter int unsigned XBAR_MAX_OUTSTANDING = 8,
  // Derived (do not override)
  localparam int unsigned NPp  = NUM_SLICES > 0 ? NUM_SLICES + 1 : 0,  // pipeline clients: CCHEs, prefetcher
  localparam int unsigned NCl  = 2 + NUM_PIPE_CLIENTS + NPp,
  localparam int unsigned StatW = (NUM_SLICES > 0 ? NUM_SLICES : 1) * tessera_spec_pkg::TS_SLICE_STATS_W,
  localparam int unsigned MonW  = (NUM_SLICES > 0 ? NUM_SLICES : 1) * tessera_spec_pkg::TS_SLICE_MONITOR_W,
  localparam int unsigned ReqW = tessera_mem_pkg::MEM_REQ_W,
  localparam int unsigned RspW = tessera_mem_pkg::MEM_RSP_W,
  localparam int unsigned PcW  = NUM_PIPE_CLIENTS
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,

  // host register port (AXI4-Lite)
  input  logic                         s_axil_awvalid_i,
  output logic                         s_axil_awready_o,
  input  logic [15:0]                  s_axil_awaddr_i,
  input  logic                         s_axil_wvalid_i,
  output logic                         s_axil_wready_o,
  input  logic [31:0]                  s_axil_wdata_i,
  input  logic [3:0]                   s_axil_wstrb_i,
  output logic                         s_axil_bvalid_o,
  input  logic                         s_axil_bready_i,
  output logic [1:0]                   s_axil_bresp_o,
  input  logic                         s_axil_arvalid_i,
  output logic                         s_axil_arready_o,
  input  logic [15:0]                  s_axil_araddr_i,
  output logic                         s_axil_rvalid_o,
  input  logic                         s_axil_rready_i,
  output logic [31:0]                  s_axil_rdata_o,
  output logic [1:0]                   s_axil_rresp_o,
  output logic                         irq_o,

  // pipeline stand-in: commands, completion, slice-cache maintenance, memory clients
  output logic                         pipe_valid_o,
  input  logic                         pipe_ready_i,
  output tessera_cp_pkg::pipe_cmd_t    pipe_cmd_o,
  input  logic                         pipe_done_i,
  output logic                         cache_req_o,
  output logic                         cache_flush_o,
  output logic                         cache_invalidate_o,
  input  logic                         cache_done_i,
  input  logic [PcW-1:0]               pc_req_valid_i,
  output logic [PcW-1:0]               pc_req_ready_o,
  input  logic [PcW*ReqW-1:0]          pc_req_i,
  output logic [PcW-1:0]               pc_rsp_valid_o,
  input  logic [PcW-1:0]               pc_rsp_ready_i,
  output logic [PcW*RspW-1:0]          pc_rsp_o,

  // ROM load port and debug
  input  logic                         rom_load_we_i,
  input  logic [11:0]                  rom_load_addr_i,
  input  logic [31:0]                  rom_load_data_i,
  output logic                         console_valid_o,
  output logic [7:0]                   console_char_o,
  output logic [31:0]                  fw_status_o,
  output logic                         core_running_o,
  output logic                         retire_valid_o,
  output logic [31:0]                  retire_pc_o,
  output logic [31:0]                  retire_insn_o,
  output logic [31:0]                  pipe_issued_o,
  output logic [31:0]                  pipe_done_count_o,
  output logic                         slc_busy_o,
  output logic                         axi_idle_o,
  output logic                         pipe_busy_o,
  output logic [7:0]                   cche_busy_o,   // bit k: slice k's CCHE holds work
  output logic                         pipe_mon_valid_o,  // a CP pipeline command accepted
  output tessera_cp_pkg::pipe_cmd_t    pipe_mon_cmd_o,    // ... and which
  output logic [StatW-1:0]             pipe_stat_o,   // pipe_top stat_o (0 without a pipeline)
  output logic [MonW-1:0]              slice_mon_o,   // pipe_top mon_o (0 without a pipeline)

  // AXI4 master towards the DRAM model
  output logic                         m_axi_awvalid_o,
  input  logic                         m_axi_awready_i,
  output logic [AXI_ID_W-1:0]          m_axi_awid_o,
  output logic [31:0]                  m_axi_awaddr_o,
  output logic [7:0]                   m_axi_awlen_o,
  output logic [2:0]                   m_axi_awsize_o,
  output logic [1:0]                   m_axi_awburst_o,
  output logic                         m_axi_awlock_o,
  output logic [3:0]                   m_axi_awcache_o,
  output logic [2:0]                   m_axi_awprot_o,
  output logic [3:0]                   m_axi_awqos_o,
  output logic [3:0]                   m_axi_awregion_o,
  output logic                         m_axi_wvalid_o,
  input  logic                         m_axi_wready_i,
  output logic [511:0]                 m_axi_wdata_o,
  output logic [63:0]                  m_axi_wstrb_o,
  output logic                         m_axi_wlast_o,
  input  logic                         m_axi_bvalid_i,
  output logic                         m_axi_bready_o,
  input  logic [AXI_ID_W-1:0]          m_axi_bid_i,
  input  logic [1:0]                   m_axi_bresp_i,
  output logic                         m_axi_arvalid_o,
  input  logic                         m_axi_arready_i,
  output logic [AXI_ID_W-1:0]          m_axi_arid_o,
  output logic [31:0]                  m_axi_araddr_o,
  output logic [7:0]                   m_axi_arlen_o,
  output logic [2:0]                   m_axi_arsize_o,
  output logic [1:0]                   m_axi_arburst_o,
  output logic                         m_axi_arlock_o,
  output logic [3:0]                   m_axi_arcache_o,
  output logic [2:0]                   m_axi_arprot_o,
  output logic [3:0]                   m_axi_arqos_o,
  output logic [3:0]                   m_axi_arregion_o,
  input  logic                         m_axi_rvalid_i,
  output logic                         m_axi_rready_o,
  input  logic [AXI_ID_W-1:0]          m_axi_rid_i,
  input  logic [511:0]                 m_axi_rdata_i,
  input  logic [1:0]                   m_axi_rresp_i,
  input  logic                         m_axi_rlast_i
);

  // ---- memory clients ----------------------------------------------------------------------
  logic [NCl-1:0]      cl_req_valid, cl_req_ready, cl_rsp_valid, cl_rsp_ready;
  logic [NCl*ReqW-1:0] cl_req;
  logic [NCl*RspW-1:0] cl_rsp;
  tessera_mem_pkg::mem_req_t f_req, w_req;
  logic f_req_valid, w_req_valid, f_rsp_ready, w_rsp_ready;

  localparam int unsigned PcHi = 2 + PcW;   // first pipeline client
  logic [(NPp > 0 ? NPp : 1)-1:0]      pp_req_valid, pp_req_ready, pp_rsp_valid, pp_rsp_ready;
  logic [(NPp > 0 ? NPp : 1)*ReqW-1:0] pp_req;
  logic [(NPp > 0 ? NPp : 1)*RspW-1:0] pp_rsp;

  assign cl_req_valid[PcHi-1:0] = {pc_req_valid_i, w_req_valid, f_req_valid};
  assign cl_req[PcHi*ReqW-1:0]  = {pc_req_i, w_req, f_req};
  assign cl_rsp_ready[PcHi-1:0] = {pc_rsp_ready_i, w_rsp_ready, f_rsp_ready};
  assign pc_req_ready_o = cl_req_ready[PcHi-1:2];
  assign pc_rsp_valid_o = cl_rsp_valid[PcHi-1:2];
  assign pc_rsp_o       = cl_rsp[PcHi*RspW-1:2*RspW];
  if (NPp > 0) begin : gen_pp_clients
    assign cl_req_valid[NCl-1:PcHi]          = pp_req_valid;
    assign cl_req[NCl*ReqW-1:PcHi*ReqW]      = pp_req;
    assign cl_rsp_ready[NCl-1:PcHi]          = pp_rsp_ready;
    assign pp_req_ready = cl_req_ready[NCl-1:PcHi];
    assign pp_rsp_valid = cl_rsp_valid[NCl-1:PcHi];
    assign pp_rsp       = cl_rsp[NCl*RspW-1:PcHi*RspW];
  end else begin : gen_no_pp_clients
    assign pp_req_ready = '0;
    assign pp_rsp_valid = '0;
    assign pp_rsp       = '0;
    logic unused_pp_out;
    assign unused_pp_out = ^{pp_req_valid, pp_req, pp_rsp_ready};
  end

  // ---- register bus: CP -> SLC ---------------------------------------------------------------
  logic                         ext_req_valid, ext_req_ready, ext_rsp_valid;
  tessera_regbus_pkg::reg_req_t ext_req, slc_req, geom_req;
  tessera_regbus_pkg::reg_rsp_t ext_rsp, slc_rsp, geom_rsp;
  logic                         slc_req_ready, slc_rsp_valid, to_slc;
  logic                         geom_req_ready, geom_rsp_valid, to_geom;
  logic                         err_rsp_q;

  assign to_slc = 32'(ext_req.addr) >= tessera_spec_pkg::TS_SLC_BASE_ADDR &&
                  32'(ext_req.addr) <  tessera_spec_pkg::TS_SLC_BASE_ADDR + tessera_spec_pkg::TS_SLC_SIZE;
  assign to_geom = NUM_SLICES > 0 &&
                   32'(ext_req.addr) >= tessera_spec_pkg::TS_GEOM_BASE_ADDR &&
                   32'(ext_req.addr) <  tessera_spec_pkg::TS_GEOM_BASE_ADDR + tessera_spec_pkg::TS_GEOM_SIZE;
  always_comb begin
    slc_req       = ext_req;
    slc_req.addr  = ext_req.addr - tessera_spec_pkg::TS_SLC_BASE_ADDR[15:0];
    geom_req      = ext_req;
    geom_req.addr = ext_req.addr - tessera_spec_pkg::TS_GEOM_BASE_ADDR[15:0];
  end
  // An address no block claims is answered err one cycle later.
  assign ext_req_ready = to_slc ? slc_req_ready : to_geom ? geom_req_ready : !err_rsp_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) err_rsp_q <= 1'b0;
    else         err_rsp_q <= ext_req_valid && !to_slc && !to_geom && !err_rsp_q;
  end
  assign ext_rsp_valid = slc_rsp_valid || geom_rsp_valid || err_rsp_q;
  always_comb begin
    ext_rsp = geom_rsp_valid ? geom_rsp : slc_rsp;
    if (err_rsp_q) begin
      ext_rsp       = '0;
      ext_rsp.err   = 1'b1;
    end
  end

  // ---- CP pipeline port: to pipe_top, or brought out for the stand-in ---------------------
  logic                      cp_pipe_valid, cp_pipe_ready, cp_pipe_done;
  tessera_cp_pkg::pipe_cmd_t cp_pipe_cmd;
  logic                      cp_cache_req, cp_cache_flush, cp_cache_inv, cp_cache_done;

  // Monitor of the CP -> pipeline handshake (the host model logs the commands from it).
  assign pipe_mon_valid_o = cp_pipe_valid && cp_pipe_ready;
  assign pipe_mon_cmd_o   = cp_pipe_cmd;

  if (NUM_SLICES > 0) begin : gen_pipe
    logic [NUM_SLICES-1:0] cche_busy;   // pipe_top allows at most 8 slices
    logic unused_standin;
    assign unused_standin = ^{pipe_ready_i, pipe_done_i, cache_done_i};
    assign pipe_valid_o       = 1'b0;
    assign pipe_cmd_o         = '0;
    assign cache_req_o        = 1'b0;
    assign cache_flush_o      = 1'b0;
    assign cache_invalidate_o = 1'b0;
    logic unused_pipe_err;

    pipe_top #(.NUM_SLICES(NUM_SLICES), .MEM_BYTES(MEM_BYTES)) u_pipe (
      .clk_i, .rst_ni,
      .pipe_valid_i(cp_pipe_valid), .pipe_ready_o(cp_pipe_ready), .pipe_cmd_i(cp_pipe_cmd),
      .pipe_done_o(cp_pipe_done), .err_o(unused_pipe_err),
      .cache_req_i(cp_cache_req), .cache_flush_i(cp_cache_flush),
      .cache_invalidate_i(cp_cache_inv), .cache_done_o(cp_cache_done),
      .reg_req_valid_i(ext_req_valid && to_geom), .reg_req_ready_o(geom_req_ready),
      .reg_req_i(geom_req), .reg_rsp_valid_o(geom_rsp_valid), .reg_rsp_o(geom_rsp),
      .mem_req_valid_o(pp_req_valid), .mem_req_ready_i(pp_req_ready), .mem_req_o(pp_req),
      .mem_rsp_valid_i(pp_rsp_valid), .mem_rsp_ready_o(pp_rsp_ready), .mem_rsp_i(pp_rsp),
      .slc_hits_i(slc_hits), .slc_misses_i(slc_misses),
      .busy_o(pipe_busy_o), .cche_busy_o(cche_busy), .stat_o(pipe_stat_o),
      .mon_o(slice_mon_o));
    assign cche_busy_o = 8'(cche_busy);
  end else begin : gen_standin
    assign pipe_valid_o       = cp_pipe_valid;
    assign cp_pipe_ready      = pipe_ready_i;
    assign pipe_cmd_o         = cp_pipe_cmd;
    assign cp_pipe_done       = pipe_done_i;
    assign cache_req_o        = cp_cache_req;
    assign cache_flush_o      = cp_cache_flush;
    assign cache_invalidate_o = cp_cache_inv;
    assign cp_cache_done      = cache_done_i;
    assign geom_req_ready     = 1'b0;
    assign geom_rsp_valid     = 1'b0;
    assign geom_rsp           = '0;
    assign pp_req_valid       = '0;
    assign pp_req             = '0;
    assign pp_rsp_ready       = '0;
    assign pipe_busy_o        = 1'b0;
    assign cche_busy_o        = '0;
    assign pipe_stat_o        = '0;
    assign slice_mon_o        = '0;
    logic unused_pp;
    assign unused_pp = ^{pp_req_ready, pp_rsp_valid, pp_rsp, geom_req, slc_hits, slc_misses};
  end

  cp_top #(
    .ROM_INIT (ROM_INIT),
    .MEM_BYTES(MEM_BYTES)
  ) u_cp (
    .clk_i,
    .rst_ni,
    .s_axil_awvalid_i,
    .s_axil_awready_o,
    .s_axil_awaddr_i,
    .s_axil_wvalid_i,
    .s_axil_wready_o,
    .s_axil_wdata_i,
    .s_axil_wstrb_i,
    .s_axil_bvalid_o,
    .s_axil_bready_i,
    .s_axil_bresp_o,
    .s_axil_arvalid_i,
    .s_axil_arready_o,
    .s_axil_araddr_i,
    .s_axil_rvalid_o,
    .s_axil_rready_i,
    .s_axil_rdata_o,
    .s_axil_rresp_o,
    .irq_o,
    .ext_reg_req_valid_o(ext_req_valid),
    .ext_reg_req_ready_i(ext_req_ready),
    .ext_reg_req_o      (ext_req),
    .ext_reg_rsp_valid_i(ext_rsp_valid),
    .ext_reg_rsp_i      (ext_rsp),
    .mem_f_req_valid_o  (f_req_valid),
    .mem_f_req_ready_i  (cl_req_ready[0]),
    .mem_f_req_o        (f_req),
    .mem_f_rsp_valid_i  (cl_rsp_valid[0]),
    .mem_f_rsp_ready_o  (f_rsp_ready),
    .mem_f_rsp_i        (cl_rsp[0 +: RspW]),
    .mem_w_req_valid_o  (w_req_valid),
    .mem_w_req_ready_i  (cl_req_ready[1]),
    .mem_w_req_o        (w_req),
    .mem_w_rsp_valid_i  (cl_rsp_valid[1]),
    .mem_w_rsp_ready_o  (w_rsp_ready),
    .mem_w_rsp_i        (cl_rsp[RspW +: RspW]),
    .pipe_valid_o       (cp_pipe_valid),
    .pipe_ready_i       (cp_pipe_ready),
    .pipe_cmd_o         (cp_pipe_cmd),
    .pipe_done_i        (cp_pipe_done),
    .cache_req_o        (cp_cache_req),
    .cache_flush_o      (cp_cache_flush),
    .cache_invalidate_o (cp_cache_inv),
    .cache_done_i       (cp_cache_done),
    .rom_load_we_i,
    .rom_load_addr_i,
    .rom_load_data_i,
    .console_valid_o,
    .console_char_o,
    .fw_status_o,
    .core_running_o,
    .retire_valid_o,
    .retire_pc_o,
    .retire_insn_o,
    .pipe_issued_o,
    .pipe_done_count_o
  );

  logic unused_slc_done;
  logic [31:0] slc_hits, slc_misses;

  mem_subsys #(
    .N_CLIENTS      (NCl),
    .MAX_OUTSTANDING(XBAR_MAX_OUTSTANDING),
    .SLC_SIZE_BYTES (SLC_SIZE_BYTES),
    .SLC_WAYS       (SLC_WAYS),
    .SLC_NUM_MSHR   (SLC_NUM_MSHR),
    .SLC_NUM_WB     (SLC_NUM_WB),
    .AXI_ID_W       (AXI_ID_W)
  ) u_mem (
    .clk_i,
    .rst_ni,
    .cl_req_valid_i (cl_req_valid),
    .cl_req_ready_o (cl_req_ready),
    .cl_req_i       (cl_req),
    .cl_rsp_valid_o (cl_rsp_valid),
    .cl_rsp_ready_i (cl_rsp_ready),
    .cl_rsp_o       (cl_rsp),
    .reg_req_valid_i(ext_req_valid && to_slc),
    .reg_req_ready_o(slc_req_ready),
    .reg_req_i      (slc_req),
    .reg_rsp_valid_o(slc_rsp_valid),
    .reg_rsp_o      (slc_rsp),
    .slc_busy_o,
    .slc_done_o     (unused_slc_done),
    .slc_hits_o     (slc_hits),
    .slc_misses_o   (slc_misses),
    .axi_idle_o,
    .m_axi_awvalid_o,
    .m_axi_awready_i,
    .m_axi_awid_o,
    .m_axi_awaddr_o,
    .m_axi_awlen_o,
    .m_axi_awsize_o,
    .m_axi_awburst_o,
    .m_axi_awlock_o,
    .m_axi_awcache_o,
    .m_axi_awprot_o,
    .m_axi_awqos_o,
    .m_axi_awregion_o,
    .m_axi_wvalid_o,
    .m_axi_wready_i,
    .m_axi_wdata_o,
    .m_axi_wstrb_o,
    .m_axi_wlast_o,
    .m_axi_bvalid_i,
    .m_axi_bready_o,
    .m_axi_bid_i,
    .m_axi_bresp_i,
    .m_axi_arvalid_o,
    .m_axi_arready_i,
    .m_axi_arid_o,
    .m_axi_araddr_o,
    .m_axi_arlen_o,
    .m_axi_arsize_o,
    .m_axi_arburst_o,
    .m_axi_arlock_o,
    .m_axi_arcache_o,
    .m_axi_arprot_o,
    .m_axi_arqos_o,
    .m_axi_arregion_o,
    .m_axi_rvalid_i,
    .m_axi_rready_o,
    .m_axi_rid_i,
    .m_axi_rdata_i,
    .m_axi_rresp_i,
    .m_axi_rlast_i
  );

  `ASSERT_INIT(PipeClients_A, NUM_PIPE_CLIENTS >= 1)

endmodule
