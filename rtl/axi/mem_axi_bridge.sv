// mem_axi_bridge -- the internal memory protocol (tessera_mem_pkg) to an AXI4 master.
//
// Implements ARCHITECTURE.md section 3, "external memory": AXI4 master, 512-bit data,
// one-beat (one line) bursts, IDs for outstanding requests. Upstream is the SLC's downstream
// side (line READ fills, full-line WRITE writebacks), but any client of the internal
// protocol may drive it. docs/axi-and-dram.md describes it in full.
//
// Behaviour
//   - Requests: READ and PREFETCH become one AR (ARLEN=0, ARSIZE=6 (64 bytes), ARBURST=INCR);
//     WRITE becomes one AW plus one W beat (WLAST=1) with WSTRB = req.wstrb. A PREFETCH is
//     read from memory and answered like a write (op PREFETCH, rdata 0): the bridge has no
//     cache to fill. AxCACHE=4'b0011 (normal, non-cacheable, bufferable), AxPROT/AxQOS/
//     AxREGION/AxLOCK = 0.
//   - Local errors: a misaligned address (addr[5:0] != 0), non-zero wstrb on READ/PREFETCH or
//     the undefined op 2'd3 is answered with err = 1 (op echoed, rdata 0) and never reaches
//     AXI. 32-bit addresses cover the whole AXI space: nothing is out of range here.
//   - IDs: allocated, not derived from the tag. Reads own IDs 0..MAX_RD-1 on AR/R, writes
//     own IDs 0..MAX_WR-1 on AW/B (AXI read and write IDs are independent). A request takes
//     the lowest free ID of its kind; the ID's table entry remembers src, tag, op and line
//     until the response is delivered upstream. Every outstanding transaction thus has a
//     unique ID, so the slave may return R and B in any order and each is matched by ID;
//     upstream responses are out of order, matched by tag, as the internal protocol allows.
//     Any tag values work (also equal tags from different src).
//   - Outstanding limits: at most MAX_RD reads (incl. prefetches) and MAX_WR writes from
//     acceptance until the response is delivered upstream. At the limit req_ready_o is low
//     for that kind of request.
//   - Ordering (internal protocol: requests to one line are performed in acceptance order;
//     AXI orders nothing between reads and writes or across IDs): a READ/PREFETCH to a line
//     with a write in flight, and a WRITE to a line with any read or write in flight, wait
//     (req_ready_o low) until the older transaction's response has been delivered. Reads of
//     the same line may overlap. Requests are taken in order, so a waiting request also
//     holds back the ones behind it.
//   - W and AW of one write are presented in the same cycle from the same acceptance (W never
//     before AW); their handshakes complete independently, so the slave may take W before,
//     with or after AW (legal AXI4). A new write is accepted only when both the AW and the W
//     register are free or being freed, so writes leave in acceptance order on both channels.
//   - AR, AW and W are driven from registers (prim_pipe_reg): VALID never depends on READY,
//     and the payload is stable while VALID && !READY. RREADY/BREADY come from 2-entry
//     FIFOs (not full), R data never passes combinationally to rsp_o.
//   - Responses: RRESP/BRESP other than OKAY (SLVERR, DECERR, and EXOKAY, which this master
//     never asks for) set rsp.err; a read answered with an error returns rdata 0. R, B and
//     local-error responses share rsp_o through a round-robin arbiter that holds a stalled
//     response (LOCK_IN), so rsp_o is stable while rsp_valid_o && !rsp_ready_i.
//   - Latency (READ, nothing queued, all READYs high): AR leaves 1 cycle after acceptance;
//     rsp_valid_o rises 1 cycle after the R handshake. See docs/axi-and-dram.md.
//   - Status: rd_outstanding_o / wr_outstanding_o count the IDs in use; idle_o is high when
//     nothing is in flight (no ID in use, no local error response pending).
//
// Parameters: ID_W (AXI ID width, 1..32, 2**ID_W >= MAX_RD and >= MAX_WR), MAX_RD, MAX_WR.
//
// Yosys 0.23 drops elements of packed arrays of structs: the ID tables are flat vectors
// (entry i at [i*W +: W]), and responses are assembled as flat vectors in the struct's field
// order (op, err, src, tag, rdata), which also avoids assigning raw bits to the op enum.

`include "prim_assert.svh"

module mem_axi_bridge #(
  parameter int unsigned ID_W   = 6,
  parameter int unsigned MAX_RD = 48,
  parameter int unsigned MAX_WR = 48,
  // Derived (do not override): widths of the outstanding counters.
  localparam int unsigned RdCntW = $clog2(MAX_RD + 1),
  localparam int unsigned WrCntW = $clog2(MAX_WR + 1)
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,

  // Internal memory protocol (upstream).
  input  logic                      req_valid_i,
  output logic                      req_ready_o,
  input  tessera_mem_pkg::mem_req_t req_i,
  output logic                      rsp_valid_o,
  input  logic                      rsp_ready_i,
  output tessera_mem_pkg::mem_rsp_t rsp_o,

  // Status.
  output logic [RdCntW-1:0]         rd_outstanding_o,
  output logic [WrCntW-1:0]         wr_outstanding_o,
  output logic                      idle_o,

  // AXI4 master: write address.
  output logic                      m_axi_awvalid_o,
  input  logic                      m_axi_awready_i,
  output logic [ID_W-1:0]           m_axi_awid_o,
  output logic [31:0]               m_axi_awaddr_o,
  output logic [7:0]                m_axi_awlen_o,
  output logic [2:0]                m_axi_awsize_o,
  output logic [1:0]                m_axi_awburst_o,
  output logic                      m_axi_awlock_o,
  output logic [3:0]                m_axi_awcache_o,
  output logic [2:0]                m_axi_awprot_o,
  output logic [3:0]                m_axi_awqos_o,
  output logic [3:0]                m_axi_awregion_o,
  // write data
  output logic                      m_axi_wvalid_o,
  input  logic                      m_axi_wready_i,
  output logic [511:0]              m_axi_wdata_o,
  output logic [63:0]               m_axi_wstrb_o,
  output logic                      m_axi_wlast_o,
  // write response
  input  logic                      m_axi_bvalid_i,
  output logic                      m_axi_bready_o,
  input  logic [ID_W-1:0]           m_axi_bid_i,
  input  logic [1:0]                m_axi_bresp_i,
  // read address
  output logic                      m_axi_arvalid_o,
  input  logic                      m_axi_arready_i,
  output logic [ID_W-1:0]           m_axi_arid_o,
  output logic [31:0]               m_axi_araddr_o,
  output logic [7:0]                m_axi_arlen_o,
  output logic [2:0]                m_axi_arsize_o,
  output logic [1:0]                m_axi_arburst_o,
  output logic                      m_axi_arlock_o,
  output logic [3:0]                m_axi_arcache_o,
  output logic [2:0]                m_axi_arprot_o,
  output logic [3:0]                m_axi_arqos_o,
  output logic [3:0]                m_axi_arregion_o,
  // read data
  input  logic                      m_axi_rvalid_i,
  output logic                      m_axi_rready_o,
  input  logic [ID_W-1:0]           m_axi_rid_i,
  input  logic [511:0]              m_axi_rdata_i,
  input  logic [1:0]                m_axi_rresp_i,
  input  logic                      m_axi_rlast_i
);

  localparam int unsigned AddrW   = tessera_mem_pkg::ADDR_W;
  localparam int unsigned LineW   = tessera_mem_pkg::LINE_W;      // 512
  localparam int unsigned StrbW   = tessera_mem_pkg::LINE_BYTES;  // 64
  localparam int unsigned OffW    = tessera_mem_pkg::OFFSET_W;    // 6
  localparam int unsigned LnW     = AddrW - OffW;                 // line address bits
  localparam int unsigned SrcW    = tessera_mem_pkg::SRC_W;
  localparam int unsigned TagW    = tessera_mem_pkg::TAG_W;
  localparam int unsigned RspW    = tessera_mem_pkg::MEM_RSP_W;
  localparam int unsigned RdIdxW  = (MAX_RD > 1) ? $clog2(MAX_RD) : 1;
  localparam int unsigned WrIdxW  = (MAX_WR > 1) ? $clog2(MAX_WR) : 1;
  localparam int unsigned RdMetaW = 1 + SrcW + TagW;              // {prefetch, src, tag}
  localparam int unsigned WrMetaW = SrcW + TagW;                  // {src, tag}

  localparam logic [1:0] OpRead     = 2'd0;  // tessera_mem_pkg::MEM_OP_READ
  localparam logic [1:0] OpWrite    = 2'd1;  // MEM_OP_WRITE
  localparam logic [1:0] OpPrefetch = 2'd2;  // MEM_OP_PREFETCH
  localparam logic [1:0] RespOkay   = 2'b00;

  // ---------------------------------------------------------------------------------------
  // Request decode

  logic [1:0]      req_op;
  logic [AddrW-1:0] req_addr;
  logic [LnW-1:0]  req_line;
  logic            req_is_rd, req_is_wr, req_bad;

  assign req_op    = 2'(req_i.op);
  assign req_addr  = req_i.addr;
  assign req_line  = req_addr[AddrW-1:OffW];
  assign req_is_rd = (req_op == OpRead) || (req_op == OpPrefetch);
  assign req_is_wr = (req_op == OpWrite);
  assign req_bad   = (req_addr[OffW-1:0] != '0) || !(req_is_rd || req_is_wr) ||
                     (req_is_rd && (req_i.wstrb != '0));

  // ---------------------------------------------------------------------------------------
  // ID tables: entry i of the read table is AXI read ID i, entry i of the write table is
  // AXI write ID i.

  logic [MAX_RD-1:0]         rd_vld_d, rd_vld_q;
  logic [MAX_RD*LnW-1:0]     rd_line_d, rd_line_q;
  logic [MAX_RD*RdMetaW-1:0] rd_meta_d, rd_meta_q;
  logic [MAX_WR-1:0]         wr_vld_d, wr_vld_q;
  logic [MAX_WR*LnW-1:0]     wr_line_d, wr_line_q;
  logic [MAX_WR*WrMetaW-1:0] wr_meta_d, wr_meta_q;

  // Lowest free ID of each kind.
  logic [MAX_RD-1:0] unused_rd_onehot;
  logic [MAX_WR-1:0] unused_wr_onehot;
  logic [RdIdxW-1:0] rd_alloc;
  logic [WrIdxW-1:0] wr_alloc;
  logic              rd_has_free, wr_has_free;

  prim_priority_enc #(.WIDTH(MAX_RD)) u_rd_free (
    .in_i(~rd_vld_q), .onehot_o(unused_rd_onehot), .idx_o(rd_alloc), .valid_o(rd_has_free)
  );
  prim_priority_enc #(.WIDTH(MAX_WR)) u_wr_free (
    .in_i(~wr_vld_q), .onehot_o(unused_wr_onehot), .idx_o(wr_alloc), .valid_o(wr_has_free)
  );

  // Same-line hazards against everything in flight.
  logic rd_hit, wr_hit;
  always_comb begin
    rd_hit = 1'b0;
    for (int unsigned i = 0; i < MAX_RD; i++) begin
      if (rd_vld_q[i] && (rd_line_q[i*LnW +: LnW] == req_line)) begin
        rd_hit = 1'b1;
      end
    end
    wr_hit = 1'b0;
    for (int unsigned i = 0; i < MAX_WR; i++) begin
      if (wr_vld_q[i] && (wr_line_q[i*LnW +: LnW] == req_line)) begin
        wr_hit = 1'b1;
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // Acceptance

  logic ar_in_ready, aw_in_ready, w_in_ready, e_in_ready;
  logic accept_rd, accept_wr, accept_err;

  always_comb begin
    if (req_bad) begin
      req_ready_o = e_in_ready;
    end else if (req_is_rd) begin
      req_ready_o = rd_has_free && !wr_hit && ar_in_ready;
    end else begin
      req_ready_o = wr_has_free && !wr_hit && !rd_hit && aw_in_ready && w_in_ready;
    end
  end

  assign accept_rd  = req_valid_i && req_ready_o && !req_bad && req_is_rd;
  assign accept_wr  = req_valid_i && req_ready_o && !req_bad && req_is_wr;
  assign accept_err = req_valid_i && req_ready_o && req_bad;

  // ---------------------------------------------------------------------------------------
  // AR, AW, W output registers

  logic [ID_W-1:0] ar_id_in, aw_id_in;
  assign ar_id_in = ID_W'(rd_alloc);
  assign aw_id_in = ID_W'(wr_alloc);

  prim_pipe_reg #(.WIDTH(ID_W + AddrW)) u_ar_reg (
    .clk_i, .rst_ni,
    .valid_i (accept_rd),
    .ready_o (ar_in_ready),
    .data_i  ({ar_id_in, req_addr}),
    .valid_o (m_axi_arvalid_o),
    .ready_i (m_axi_arready_i),
    .data_o  ({m_axi_arid_o, m_axi_araddr_o})
  );

  prim_pipe_reg #(.WIDTH(ID_W + AddrW)) u_aw_reg (
    .clk_i, .rst_ni,
    .valid_i (accept_wr),
    .ready_o (aw_in_ready),
    .data_i  ({aw_id_in, req_addr}),
    .valid_o (m_axi_awvalid_o),
    .ready_i (m_axi_awready_i),
    .data_o  ({m_axi_awid_o, m_axi_awaddr_o})
  );

  // The W register also carries the write's ID (not an AXI4 W signal) for the assertion that
  // no B arrives before its data was sent.
  logic [ID_W-1:0] w_id;
  prim_pipe_reg #(.WIDTH(ID_W + StrbW + LineW)) u_w_reg (
    .clk_i, .rst_ni,
    .valid_i (accept_wr),
    .ready_o (w_in_ready),
    .data_i  ({aw_id_in, req_i.wstrb, req_i.wdata}),
    .valid_o (m_axi_wvalid_o),
    .ready_i (m_axi_wready_i),
    .data_o  ({w_id, m_axi_wstrb_o, m_axi_wdata_o})
  );

  // Constant burst attributes: one beat of 64 bytes.
  assign m_axi_arlen_o    = 8'd0;
  assign m_axi_arsize_o   = 3'd6;
  assign m_axi_arburst_o  = 2'b01;   // INCR
  assign m_axi_arlock_o   = 1'b0;
  assign m_axi_arcache_o  = 4'b0011; // normal, non-cacheable, bufferable
  assign m_axi_arprot_o   = 3'b000;
  assign m_axi_arqos_o    = 4'd0;
  assign m_axi_arregion_o = 4'd0;
  assign m_axi_awlen_o    = 8'd0;
  assign m_axi_awsize_o   = 3'd6;
  assign m_axi_awburst_o  = 2'b01;
  assign m_axi_awlock_o   = 1'b0;
  assign m_axi_awcache_o  = 4'b0011;
  assign m_axi_awprot_o   = 3'b000;
  assign m_axi_awqos_o    = 4'd0;
  assign m_axi_awregion_o = 4'd0;
  assign m_axi_wlast_o    = 1'b1;

  // ---------------------------------------------------------------------------------------
  // Response buffers: R, B and local errors, 2 entries each (full throughput, READY from
  // flops).

  localparam int unsigned RBufW = ID_W + 1 + LineW;      // {id, err, data}
  localparam int unsigned BBufW = ID_W + 1;              // {id, err}
  localparam int unsigned EBufW = 2 + SrcW + TagW;       // {op, src, tag}

  logic             r_valid, r_pop, b_valid, b_pop, e_valid, e_pop;
  logic [RBufW-1:0] r_head;
  logic [BBufW-1:0] b_head;
  logic [EBufW-1:0] e_head;
  logic             unused_r_full, unused_r_empty, unused_b_full, unused_b_empty;
  logic             unused_e_full, e_empty;
  logic [1:0]       unused_r_depth, unused_b_depth, unused_e_depth;

  prim_fifo_sync #(.WIDTH(RBufW), .DEPTH(2), .FALL_THROUGH(0)) u_r_buf (
    .clk_i, .rst_ni, .clr_i(1'b0),
    .wvalid_i (m_axi_rvalid_i),
    .wready_o (m_axi_rready_o),
    .wdata_i  ({m_axi_rid_i, m_axi_rresp_i != RespOkay, m_axi_rdata_i}),
    .rvalid_o (r_valid),
    .rready_i (r_pop),
    .rdata_o  (r_head),
    .full_o   (unused_r_full),
    .empty_o  (unused_r_empty),
    .depth_o  (unused_r_depth)
  );

  prim_fifo_sync #(.WIDTH(BBufW), .DEPTH(2), .FALL_THROUGH(0)) u_b_buf (
    .clk_i, .rst_ni, .clr_i(1'b0),
    .wvalid_i (m_axi_bvalid_i),
    .wready_o (m_axi_bready_o),
    .wdata_i  ({m_axi_bid_i, m_axi_bresp_i != RespOkay}),
    .rvalid_o (b_valid),
    .rready_i (b_pop),
    .rdata_o  (b_head),
    .full_o   (unused_b_full),
    .empty_o  (unused_b_empty),
    .depth_o  (unused_b_depth)
  );

  prim_fifo_sync #(.WIDTH(EBufW), .DEPTH(2), .FALL_THROUGH(0)) u_e_buf (
    .clk_i, .rst_ni, .clr_i(1'b0),
    .wvalid_i (accept_err),
    .wready_o (e_in_ready),
    .wdata_i  ({req_op, req_i.src, req_i.tag}),
    .rvalid_o (e_valid),
    .rready_i (e_pop),
    .rdata_o  (e_head),
    .full_o   (unused_e_full),
    .empty_o  (e_empty),
    .depth_o  (unused_e_depth)
  );

  // Table look-ups for the buffered R and B heads.
  logic [ID_W-1:0]    r_id, b_id;
  logic               r_err, b_err;
  logic [LineW-1:0]   r_data;
  logic [RdMetaW-1:0] r_meta;
  logic [WrMetaW-1:0] b_meta;
  logic               r_id_known, b_id_known;

  assign {r_id, r_err, r_data} = r_head;
  assign {b_id, b_err}         = b_head;

  always_comb begin
    r_meta     = '0;
    r_id_known = 1'b0;
    for (int unsigned i = 0; i < MAX_RD; i++) begin
      if (r_id == ID_W'(i)) begin
        r_meta     = rd_meta_q[i*RdMetaW +: RdMetaW];
        r_id_known = rd_vld_q[i];
      end
    end
    b_meta     = '0;
    b_id_known = 1'b0;
    for (int unsigned i = 0; i < MAX_WR; i++) begin
      if (b_id == ID_W'(i)) begin
        b_meta     = wr_meta_q[i*WrMetaW +: WrMetaW];
        b_id_known = wr_vld_q[i];
      end
    end
  end

  // Candidate responses, flat in mem_rsp_t field order {op, err, src, tag, rdata}.
  logic             r_pf;
  logic [RspW-1:0]  r_rsp, b_rsp, e_rsp;
  assign r_pf  = r_meta[RdMetaW-1];
  assign r_rsp = {r_pf ? OpPrefetch : OpRead, r_err, r_meta[SrcW+TagW-1:0],
                  (r_pf || r_err) ? {LineW{1'b0}} : r_data};
  assign b_rsp = {OpWrite, b_err, b_meta, {LineW{1'b0}}};
  assign e_rsp = {e_head[EBufW-1 -: 2], 1'b1, e_head[SrcW+TagW-1:0], {LineW{1'b0}}};

  // ---------------------------------------------------------------------------------------
  // Response arbitration: requester 0 = R, 1 = B, 2 = local error.

  logic [2:0]      arb_gnt;
  logic [1:0]      unused_arb_idx;
  logic [RspW-1:0] rsp_flat;

  prim_rr_arb #(.N(3), .WIDTH(RspW), .LOCK_IN(1)) u_rsp_arb (
    .clk_i, .rst_ni,
    .req_i   ({e_valid, b_valid, r_valid}),
    .gnt_o   (arb_gnt),
    .data_i  ({e_rsp, b_rsp, r_rsp}),
    .valid_o (rsp_valid_o),
    .ready_i (rsp_ready_i),
    .data_o  (rsp_flat),
    .idx_o   (unused_arb_idx)
  );
  assign rsp_o = rsp_flat;
  assign r_pop = arb_gnt[0];
  assign b_pop = arb_gnt[1];
  assign e_pop = arb_gnt[2];

  // ---------------------------------------------------------------------------------------
  // Table updates: allocate on acceptance, free when the response is delivered upstream.

  always_comb begin
    rd_vld_d  = rd_vld_q;
    rd_line_d = rd_line_q;
    rd_meta_d = rd_meta_q;
    for (int unsigned i = 0; i < MAX_RD; i++) begin
      if (r_pop && (r_id == ID_W'(i))) begin
        rd_vld_d[i] = 1'b0;
      end
      if (accept_rd && (rd_alloc == RdIdxW'(i))) begin
        rd_vld_d[i]                   = 1'b1;
        rd_line_d[i*LnW +: LnW]       = req_line;
        rd_meta_d[i*RdMetaW +: RdMetaW] = {req_op == OpPrefetch, req_i.src, req_i.tag};
      end
    end
    wr_vld_d  = wr_vld_q;
    wr_line_d = wr_line_q;
    wr_meta_d = wr_meta_q;
    for (int unsigned i = 0; i < MAX_WR; i++) begin
      if (b_pop && (b_id == ID_W'(i))) begin
        wr_vld_d[i] = 1'b0;
      end
      if (accept_wr && (wr_alloc == WrIdxW'(i))) begin
        wr_vld_d[i]                     = 1'b1;
        wr_line_d[i*LnW +: LnW]         = req_line;
        wr_meta_d[i*WrMetaW +: WrMetaW] = {req_i.src, req_i.tag};
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_vld_q <= '0;
      wr_vld_q <= '0;
    end else begin
      rd_vld_q <= rd_vld_d;
      wr_vld_q <= wr_vld_d;
    end
  end

  // Entry contents: no reset (only meaningful while the entry's valid bit is set).
  always_ff @(posedge clk_i) begin
    rd_line_q <= rd_line_d;
    rd_meta_q <= rd_meta_d;
    wr_line_q <= wr_line_d;
    wr_meta_q <= wr_meta_d;
  end

  // ---------------------------------------------------------------------------------------
  // Status

  prim_popcount #(.WIDTH(MAX_RD)) u_rd_cnt (.in_i(rd_vld_q), .cnt_o(rd_outstanding_o));
  prim_popcount #(.WIDTH(MAX_WR)) u_wr_cnt (.in_i(wr_vld_q), .cnt_o(wr_outstanding_o));
  assign idle_o = (rd_vld_q == '0) && (wr_vld_q == '0) && e_empty;

  // The upper bits of the line address are all a request needs; dsid is not carried to AXI.
  logic unused_req;
  assign unused_req = ^{req_i.dsid, m_axi_rlast_i};

  // ---------------------------------------------------------------------------------------
  // Assertions

  `ASSERT_INIT(IdWidth_A, ID_W >= 1 && ID_W <= 32)
  `ASSERT_INIT(MaxRd_A, MAX_RD >= 1 && $clog2(MAX_RD) <= ID_W)
  `ASSERT_INIT(MaxWr_A, MAX_WR >= 1 && $clog2(MAX_WR) <= ID_W)

  // AXI master rules (AMBA AXI4 A3.2.1): once VALID is high it stays high, with the same
  // payload, until the handshake.
  `ASSERT(ArStable_A, m_axi_arvalid_o && !m_axi_arready_i |=>
          m_axi_arvalid_o && $stable(m_axi_arid_o) && $stable(m_axi_araddr_o))
  `ASSERT(AwStable_A, m_axi_awvalid_o && !m_axi_awready_i |=>
          m_axi_awvalid_o && $stable(m_axi_awid_o) && $stable(m_axi_awaddr_o))
  `ASSERT(WStable_A, m_axi_wvalid_o && !m_axi_wready_i |=>
          m_axi_wvalid_o && $stable(m_axi_wdata_o) && $stable(m_axi_wstrb_o) && $stable(w_id))
  // Every AR/AW names an ID that is in use and line aligned.
  `ASSERT(ArIdInUse_A, m_axi_arvalid_o |-> rd_vld_q[RdIdxW'(m_axi_arid_o)] &&
          m_axi_araddr_o[OffW-1:0] == '0)
  `ASSERT(AwIdInUse_A, m_axi_awvalid_o |-> wr_vld_q[WrIdxW'(m_axi_awid_o)] &&
          m_axi_awaddr_o[OffW-1:0] == '0)
  // A fresh ID is really free, and the write's AW and W are created together.
  `ASSERT_NEVER(RdAllocBusy_A, accept_rd && rd_vld_q[rd_alloc])
  `ASSERT_NEVER(WrAllocBusy_A, accept_wr && wr_vld_q[wr_alloc])
  `ASSERT(AwWTogether_A, aw_in_ready && w_in_ready || !accept_wr)
  // Internal response channel: stable while stalled.
  `ASSERT(RspStable_A, rsp_valid_o && !rsp_ready_i |=> rsp_valid_o && $stable(rsp_o))

  // Slave and upstream behaviour this bridge relies on (checked like assertions).
  // R and B name an outstanding transaction whose request already left on AR / AW and W.
  logic r_in_known, b_in_known;
  always_comb begin
    r_in_known = 1'b0;
    for (int unsigned i = 0; i < MAX_RD; i++) begin
      if (m_axi_rid_i == ID_W'(i)) begin
        r_in_known = rd_vld_q[i];
      end
    end
    b_in_known = 1'b0;
    for (int unsigned i = 0; i < MAX_WR; i++) begin
      if (m_axi_bid_i == ID_W'(i)) begin
        b_in_known = wr_vld_q[i];
      end
    end
  end
  `ASSUME(RidKnown_M, m_axi_rvalid_i |-> r_in_known &&
          !(m_axi_arvalid_o && m_axi_arid_o == m_axi_rid_i))
  `ASSUME(BidKnown_M, m_axi_bvalid_i |-> b_in_known &&
          !(m_axi_awvalid_o && m_axi_awid_o == m_axi_bid_i) &&
          !(m_axi_wvalid_o && w_id == m_axi_bid_i))
  `ASSUME(RlastOneBeat_M, m_axi_rvalid_i |-> m_axi_rlast_i)
  `ASSUME(RStable_M, m_axi_rvalid_i && !m_axi_rready_o |=> m_axi_rvalid_i &&
          $stable(m_axi_rid_i) && $stable(m_axi_rdata_i) && $stable(m_axi_rresp_i))
  `ASSUME(BStable_M, m_axi_bvalid_i && !m_axi_bready_o |=> m_axi_bvalid_i &&
          $stable(m_axi_bid_i) && $stable(m_axi_bresp_i))
  `ASSUME(ReqStable_M, req_valid_i && !req_ready_o |=> req_valid_i && $stable(req_i))
  // Buffered heads are always matched (follows from RidKnown_M / BidKnown_M).
  `ASSERT(RHeadKnown_A, r_valid |-> r_id_known)
  `ASSERT(BHeadKnown_A, b_valid |-> b_id_known)

  `ASSERT_KNOWN(AxiValidKnown_A, {m_axi_arvalid_o, m_axi_awvalid_o, m_axi_wvalid_o,
                                  m_axi_rready_o, m_axi_bready_o})
  `ASSERT_KNOWN(ReqReadyKnown_A, req_ready_o)
  `ASSERT_KNOWN(RspValidKnown_A, rsp_valid_o)

endmodule
