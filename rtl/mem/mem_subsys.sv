// Tessera memory system: clients -> mem_xbar -> slc -> mem_axi_bridge -> AXI4 master.
// ARCHITECTURE.md sections 2 and 5.5; the SLC implements the DSID cache management of source
// document 002 (Apple). Every later memory client connects to a client port of this block;
// the DRAM model (sim/dram) sits on the AXI4 port. docs/memory-system.md.
module mem_subsys #(
  parameter int unsigned N_CLIENTS       = 4,
  parameter int unsigned MAX_OUTSTANDING = 4,       // per client, in the crossbar
  parameter int unsigned SLC_SIZE_BYTES  = 131072,
  parameter int unsigned SLC_WAYS        = 8,
  parameter int unsigned SLC_NUM_MSHR    = 8,
  parameter int unsigned SLC_NUM_WB      = 4,
  parameter int unsigned AXI_ID_W        = 6,
  parameter int unsigned AXI_MAX_RD      = 48,
  parameter int unsigned AXI_MAX_WR      = 48,
  // Derived (do not override).
  localparam int unsigned ReqW = tessera_mem_pkg::MEM_REQ_W,
  localparam int unsigned RspW = tessera_mem_pkg::MEM_RSP_W
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,

  // Memory clients (client i at [i*W +: W]; mem_req_t / mem_rsp_t; src is set by the crossbar).
  input  logic [N_CLIENTS-1:0]         cl_req_valid_i,
  output logic [N_CLIENTS-1:0]         cl_req_ready_o,
  input  logic [N_CLIENTS*ReqW-1:0]    cl_req_i,
  output logic [N_CLIENTS-1:0]         cl_rsp_valid_o,
  input  logic [N_CLIENTS-1:0]         cl_rsp_ready_i,
  output logic [N_CLIENTS*RspW-1:0]    cl_rsp_o,

  // SLC registers (spec/registers/slc.yaml) and maintenance status.
  input  logic                         reg_req_valid_i,
  output logic                         reg_req_ready_o,
  input  tessera_regbus_pkg::reg_req_t reg_req_i,
  output logic                         reg_rsp_valid_o,
  output tessera_regbus_pkg::reg_rsp_t reg_rsp_o,
  output logic                         slc_busy_o,
  output logic                         slc_done_o,
  output logic [31:0]                  slc_hits_o,     // SLC CNT_HITS, CNT_MISSES
  output logic [31:0]                  slc_misses_o,
  output logic                         axi_idle_o,

  // AXI4 master towards memory.
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

  // crossbar -> SLC
  logic                      x2s_req_valid, x2s_req_ready, x2s_rsp_valid, x2s_rsp_ready;
  tessera_mem_pkg::mem_req_t x2s_req;
  tessera_mem_pkg::mem_rsp_t x2s_rsp;
  // SLC -> AXI bridge
  logic                      s2b_req_valid, s2b_req_ready, s2b_rsp_valid, s2b_rsp_ready;
  tessera_mem_pkg::mem_req_t s2b_req;
  tessera_mem_pkg::mem_rsp_t s2b_rsp;

  localparam int unsigned OutW = $clog2(MAX_OUTSTANDING + 1);
  localparam int unsigned CntW = 32;
  localparam int unsigned RdCntW = $clog2(AXI_MAX_RD + 1);
  localparam int unsigned WrCntW = $clog2(AXI_MAX_WR + 1);
  // Statistics of the crossbar and the bridge's outstanding counts are not exported yet:
  // the SLC's counters (registers) are the memory system's statistics for now.
  logic [N_CLIENTS*OutW-1:0] unused_outstanding;
  logic [N_CLIENTS*CntW-1:0] unused_cnt_req, unused_cnt_stall, unused_cnt_limit;
  logic [RdCntW-1:0]         unused_rd_out;
  logic [WrCntW-1:0]         unused_wr_out;

  mem_xbar #(
    .N_CLIENTS       (N_CLIENTS),
    .MAX_OUTSTANDING (MAX_OUTSTANDING),
    .CNT_W           (CntW)
  ) u_xbar (
    .clk_i,
    .rst_ni,
    .cl_req_valid_i,
    .cl_req_ready_o,
    .cl_req_i,
    .cl_rsp_valid_o,
    .cl_rsp_ready_i,
    .cl_rsp_o,
    .mem_req_valid_o  (x2s_req_valid),
    .mem_req_ready_i  (x2s_req_ready),
    .mem_req_o        (x2s_req),
    .mem_rsp_valid_i  (x2s_rsp_valid),
    .mem_rsp_ready_o  (x2s_rsp_ready),
    .mem_rsp_i        (x2s_rsp),
    .cl_outstanding_o (unused_outstanding),
    .cnt_clr_i        (1'b0),
    .cnt_req_o        (unused_cnt_req),
    .cnt_stall_o      (unused_cnt_stall),
    .cnt_limit_o      (unused_cnt_limit)
  );

  slc #(
    .SIZE_BYTES (SLC_SIZE_BYTES),
    .WAYS       (SLC_WAYS),
    .NUM_MSHR   (SLC_NUM_MSHR),
    .NUM_WB     (SLC_NUM_WB)
  ) u_slc (
    .clk_i,
    .rst_ni,
    .up_req_valid_i  (x2s_req_valid),
    .up_req_ready_o  (x2s_req_ready),
    .up_req_i        (x2s_req),
    .up_rsp_valid_o  (x2s_rsp_valid),
    .up_rsp_ready_i  (x2s_rsp_ready),
    .up_rsp_o        (x2s_rsp),
    .dn_req_valid_o  (s2b_req_valid),
    .dn_req_ready_i  (s2b_req_ready),
    .dn_req_o        (s2b_req),
    .dn_rsp_valid_i  (s2b_rsp_valid),
    .dn_rsp_ready_o  (s2b_rsp_ready),
    .dn_rsp_i        (s2b_rsp),
    .reg_req_valid_i,
    .reg_req_ready_o,
    .reg_req_i,
    .reg_rsp_valid_o,
    .reg_rsp_o,
    .ctrl_busy_o     (slc_busy_o),
    .ctrl_done_o     (slc_done_o),
    .cnt_hits_o      (slc_hits_o),
    .cnt_misses_o    (slc_misses_o)
  );

  mem_axi_bridge #(
    .ID_W   (AXI_ID_W),
    .MAX_RD (AXI_MAX_RD),
    .MAX_WR (AXI_MAX_WR)
  ) u_axi (
    .clk_i,
    .rst_ni,
    .req_valid_i      (s2b_req_valid),
    .req_ready_o      (s2b_req_ready),
    .req_i            (s2b_req),
    .rsp_valid_o      (s2b_rsp_valid),
    .rsp_ready_i      (s2b_rsp_ready),
    .rsp_o            (s2b_rsp),
    .rd_outstanding_o (unused_rd_out),
    .wr_outstanding_o (unused_wr_out),
    .idle_o           (axi_idle_o),
    .m_axi_awvalid_o, .m_axi_awready_i, .m_axi_awid_o, .m_axi_awaddr_o, .m_axi_awlen_o,
    .m_axi_awsize_o, .m_axi_awburst_o, .m_axi_awlock_o, .m_axi_awcache_o, .m_axi_awprot_o,
    .m_axi_awqos_o, .m_axi_awregion_o,
    .m_axi_wvalid_o, .m_axi_wready_i, .m_axi_wdata_o, .m_axi_wstrb_o, .m_axi_wlast_o,
    .m_axi_bvalid_i, .m_axi_bready_o, .m_axi_bid_i, .m_axi_bresp_i,
    .m_axi_arvalid_o, .m_axi_arready_i, .m_axi_arid_o, .m_axi_araddr_o, .m_axi_arlen_o,
    .m_axi_arsize_o, .m_axi_arburst_o, .m_axi_arlock_o, .m_axi_arcache_o, .m_axi_arprot_o,
    .m_axi_arqos_o, .m_axi_arregion_o,
    .m_axi_rvalid_i, .m_axi_rready_o, .m_axi_rid_i, .m_axi_rdata_i, .m_axi_rresp_i,
    .m_axi_rlast_i
  );

  logic unused_stats;
  assign unused_stats = ^{unused_outstanding, unused_cnt_req, unused_cnt_stall, unused_cnt_limit,
                          unused_rd_out, unused_wr_out};

endmodule
