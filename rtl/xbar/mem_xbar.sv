// mem_xbar -- memory crossbar: N_CLIENTS memory clients onto one downstream port (the SLC),
// the internal memory protocol (rtl/mem/tessera_mem_pkg.sv) on every port.
//
// Implements ARCHITECTURE.md section 2 ("CCHE (per slice) -> memory crossbar -> SLC") and
// section 3 (internal memory protocol: "source ID for response routing"), and the crossbar
// of issue 3: "fair (round-robin) under contention, backpressure on both channels,
// responses routed by source ID, any number of outstanding requests per client up to a
// parameter". Documentation, latencies and measured figures: docs/mem-crossbar.md.
//
// Structure
//   request:  cl_req_valid_i[i] --> gate (outstanding[i] < MAX_OUTSTANDING)
//             --> prim_rr_arb / prim_rr_arb_tree (LOCK_IN=1) --> winner index
//             --> mux cl_req_i[winner], src := winner --> prim_spill_reg (REQ_SPILL)
//             --> mem_req_o
//   response: mem_rsp_i --> prim_spill_reg (RSP_SPILL) --> demux by rsp.src
//             --> prim_fifo_sync per client (DEPTH = MAX_OUTSTANDING) --> cl_rsp_o[i]
//
// src: the crossbar stamps every request's src with the client's port index and ignores
// what the client put there (clients need not know their port; drive 0). Responses reach
// client i with src = i, as the downstream returned them.
//
// Outstanding limit and why no response is ever blocked. outstanding[i] counts requests
// granted to client i whose response client i has not yet taken (it rises on the request
// handshake and falls on the response handshake). Client i takes part in arbitration only
// while outstanding[i] < MAX_OUTSTANDING. Every response waiting in client i's FIFO is one
// of those outstanding requests, so the FIFO (MAX_OUTSTANDING deep) always has room for
// the next response to i: the crossbar accepts every response the protocol allows in the
// cycle it is offered (mem_rsp_ready_o is high; with RSP_SPILL, the spill register's
// ready is). A client that does not take its responses fills only its own FIFO and then
// stops being granted; responses to the other clients keep flowing (no head-of-line
// blocking).
//
// Ordering: requests leave in grant order (each client's in its own order). Per client,
// responses are delivered in the order the downstream returned them; across requests the
// downstream may reorder freely, clients match by tag (tessera_mem_pkg rules).
//
// Latency (no contention, all ready): request 1 cycle with REQ_SPILL=1 (0 without);
// response 1 cycle (FIFO output register) + 1 with RSP_SPILL=1. Throughput: one request
// per clock downstream; one response per clock from downstream, up to one per client per
// clock to the clients.
//
// Combinational paths: cl_req_ready_o depends on cl_req_valid_i (the arbiter: allowed,
// ready may depend on valid) and on flops; with REQ_SPILL=1 not on mem_req_ready_i.
// mem_req_valid_o/mem_req_o come from flops with REQ_SPILL=1. cl_rsp_valid_o/cl_rsp_o
// come from flops (FIFO); cl_rsp_ready_i reaches no output. mem_rsp_ready_o depends on
// mem_rsp_i.src with RSP_SPILL=0 (always high for a legal response) and on flops only
// with RSP_SPILL=1. No valid output depends on any ready input.

`include "prim_assert.svh"

module mem_xbar #(
  parameter int unsigned N_CLIENTS       = 4,   // 1..32 (src is 5 bits)
  parameter int unsigned MAX_OUTSTANDING = 4,   // per client, 1..256 (one per tag at most)
  parameter int unsigned REQ_SPILL       = 1,   // 0/1: spill register on the request output
  parameter int unsigned RSP_SPILL       = 0,   // 0/1: spill register on the response input
  parameter int unsigned CNT_W           = 32,  // statistics counter width (saturating)
  // Derived (do not override).
  localparam int unsigned ReqW = tessera_mem_pkg::MEM_REQ_W,
  localparam int unsigned RspW = tessera_mem_pkg::MEM_RSP_W,
  localparam int unsigned OutW = $clog2(MAX_OUTSTANDING + 1)
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,

  // Clients (client i at [i*W +: W]).
  input  logic [N_CLIENTS-1:0]        cl_req_valid_i,
  output logic [N_CLIENTS-1:0]        cl_req_ready_o,
  input  logic [N_CLIENTS*ReqW-1:0]   cl_req_i,        // mem_req_t; src ignored
  output logic [N_CLIENTS-1:0]        cl_rsp_valid_o,
  input  logic [N_CLIENTS-1:0]        cl_rsp_ready_i,
  output logic [N_CLIENTS*RspW-1:0]   cl_rsp_o,        // mem_rsp_t; src = i

  // Downstream (towards the SLC).
  output logic                        mem_req_valid_o,
  input  logic                        mem_req_ready_i,
  output tessera_mem_pkg::mem_req_t   mem_req_o,       // src = client index
  input  logic                        mem_rsp_valid_i,
  output logic                        mem_rsp_ready_o,
  input  tessera_mem_pkg::mem_rsp_t   mem_rsp_i,       // src routes it to its client

  // Status and statistics (client i at [i*W +: W]).
  output logic [N_CLIENTS*OutW-1:0]   cl_outstanding_o, // requests granted, response not yet taken
  input  logic                        cnt_clr_i,        // clears the three counters below
  output logic [N_CLIENTS*CNT_W-1:0]  cnt_req_o,        // requests granted
  output logic [N_CLIENTS*CNT_W-1:0]  cnt_stall_o,      // cycles valid && !ready (any cause)
  output logic [N_CLIENTS*CNT_W-1:0]  cnt_limit_o       // of those, cycles at the outstanding limit
);

  localparam int unsigned SrcW = tessera_mem_pkg::SRC_W;
  localparam logic [OutW-1:0] OutMax = OutW'(MAX_OUTSTANDING);
  // Many clients: the log-depth tree (same behaviour and guarantee, docs/rtl-primitives.md).
  localparam bit UseTree = (N_CLIENTS > 8);

  // ---------------------------------------------------------------------------------------
  // Request path

  localparam int unsigned IdxW = (N_CLIENTS > 1) ? $clog2(N_CLIENTS) : 1;

  logic [N_CLIENTS-1:0] arb_req, arb_gnt, at_limit, rsp_take;
  logic                 arb_valid, arb_ready;
  logic [IdxW-1:0]      arb_idx;

  // A client at its limit does not take part: it is not granted, and (being absent from
  // the arbiter) does not delay the others.
  assign arb_req = cl_req_valid_i & ~at_limit;

  // The arbiter only chooses (1-bit dummy payload); the 629-bit request is selected below
  // by its index. Passing the request through the arbiter would carry it through every
  // node of the tree arbiter (N*629-bit intermediate vectors).
  // LOCK_IN=1: a winner stalled by the output keeps the grant (its request and the output
  // stay stable). The outstanding gate cannot withdraw a stalled winner: at_limit[i] only
  // rises on a grant to i.
  // Port constants are sized ({N{1'b0}}), never '0: Yosys 0.23 aborts (Assert
  // `modules_.count(module->name) == 0') on a '0 connected to a parameterised instance's
  // port when the top is elaborated with -chparam.
  logic unused_arb_data;
  if (UseTree) begin : gen_arb_tree
    prim_rr_arb_tree #(
      .N       (N_CLIENTS),
      .WIDTH   (1),
      .LOCK_IN (1)
    ) u_arb (
      .clk_i,
      .rst_ni,
      .req_i   (arb_req),
      .gnt_o   (arb_gnt),
      .data_i  ({N_CLIENTS{1'b0}}),
      .valid_o (arb_valid),
      .ready_i (arb_ready),
      .data_o  (unused_arb_data),
      .idx_o   (arb_idx)
    );
  end else begin : gen_arb_flat
    prim_rr_arb #(
      .N       (N_CLIENTS),
      .WIDTH   (1),
      .LOCK_IN (1)
    ) u_arb (
      .clk_i,
      .rst_ni,
      .req_i   (arb_req),
      .gnt_o   (arb_gnt),
      .data_i  ({N_CLIENTS{1'b0}}),
      .valid_o (arb_valid),
      .ready_i (arb_ready),
      .data_o  (unused_arb_data),
      .idx_o   (arb_idx)
    );
  end

  // The winner's request, selected by the winner's index (an indexed part-select), src :=
  // winner. Not an AND-OR of {ReqW{arb_idx == i}} masks: that built and ORed N ReqW-bit
  // masks on every evaluation, measured as the hottest code of the verilated GPU models
  // (docs/mem-crossbar.md, "Simulation speed"). The arbiters give arb_idx < N_CLIENTS
  // always (0 when nothing is requested), so the select never leaves cl_req_i.
  tessera_mem_pkg::mem_req_t arb_out;
  always_comb begin
    arb_out     = cl_req_i[arb_idx*ReqW +: ReqW];
    arb_out.src = SrcW'(arb_idx);
  end

  assign cl_req_ready_o = arb_gnt;   // gnt only ever goes to a requesting client

  logic [ReqW-1:0] req_out;
  prim_spill_reg #(
    .WIDTH  (ReqW),
    .BYPASS ((REQ_SPILL != 0) ? 0 : 1)
  ) u_req_spill (
    .clk_i,
    .rst_ni,
    .valid_i (arb_valid),
    .ready_o (arb_ready),
    .data_i  (arb_out),
    .valid_o (mem_req_valid_o),
    .ready_i (mem_req_ready_i),
    .data_o  (req_out)
  );
  assign mem_req_o = req_out;

  // ---------------------------------------------------------------------------------------
  // Response path

  logic                      rsp_valid, rsp_ready;
  tessera_mem_pkg::mem_rsp_t rsp;
  prim_spill_reg #(
    .WIDTH  (RspW),
    .BYPASS ((RSP_SPILL != 0) ? 0 : 1)
  ) u_rsp_spill (
    .clk_i,
    .rst_ni,
    .valid_i (mem_rsp_valid_i),
    .ready_o (mem_rsp_ready_o),
    .data_i  (mem_rsp_i),
    .valid_o (rsp_valid),
    .ready_i (rsp_ready),
    .data_o  (rsp)
  );

  // Demultiplex by src. A src naming no client (a protocol violation, asserted below) is
  // accepted and dropped rather than hanging the channel.
  logic [N_CLIENTS-1:0] rsp_sel, fifo_wready, fifo_full, fifo_empty;
  always_comb begin
    for (int unsigned i = 0; i < N_CLIENTS; i++) begin
      rsp_sel[i] = (rsp.src == SrcW'(i));
    end
  end
  // Always 1 for a legal response (see the header); computed, not tied, so an illegal
  // extra response cannot overwrite a full FIFO.
  assign rsp_ready = ((rsp_sel & ~fifo_wready) == '0);

  localparam int unsigned FifoDepthW = (MAX_OUTSTANDING + 1 > 2) ? $clog2(MAX_OUTSTANDING + 1) : 1;
  logic [N_CLIENTS*FifoDepthW-1:0] fifo_depth;

  for (genvar i = 0; i < N_CLIENTS; i++) begin : gen_rsp
    prim_fifo_sync #(
      .WIDTH        (RspW),
      .DEPTH        (MAX_OUTSTANDING),
      .FALL_THROUGH (0)
    ) u_rsp_fifo (
      .clk_i,
      .rst_ni,
      .clr_i    (1'b0),
      .wvalid_i (rsp_valid && rsp_sel[i]),
      .wready_o (fifo_wready[i]),
      .wdata_i  (rsp),
      .rvalid_o (cl_rsp_valid_o[i]),
      .rready_i (cl_rsp_ready_i[i]),
      .rdata_o  (cl_rsp_o[i*RspW +: RspW]),
      .full_o   (fifo_full[i]),
      .empty_o  (fifo_empty[i]),
      .depth_o  (fifo_depth[i*FifoDepthW +: FifoDepthW])
    );
    assign rsp_take[i] = cl_rsp_valid_o[i] && cl_rsp_ready_i[i];
  end

  // ---------------------------------------------------------------------------------------
  // Outstanding counters and statistics

  logic [N_CLIENTS*OutW-1:0] out_cnt;
  logic [N_CLIENTS-1:0]      out_zero;

  for (genvar i = 0; i < N_CLIENTS; i++) begin : gen_cnt
    prim_sat_counter #(
      .WIDTH   (OutW),
      .MAX_VAL (OutMax)
    ) u_outstanding (
      .clk_i,
      .rst_ni,
      .clr_i      (1'b0),
      .load_i     (1'b0),
      .load_val_i ({OutW{1'b0}}),
      .inc_i      (arb_gnt[i]),
      .inc_amt_i  (OutW'(1)),
      .dec_i      (rsp_take[i]),
      .dec_amt_i  (OutW'(1)),
      .cnt_o      (out_cnt[i*OutW +: OutW]),
      .zero_o     (out_zero[i]),
      .max_o      (at_limit[i])
    );

    logic stall;
    assign stall = cl_req_valid_i[i] && !cl_req_ready_o[i];

    logic [5:0] unused_stat_flags;
    prim_sat_counter #(.WIDTH(CNT_W)) u_cnt_req (
      .clk_i,
      .rst_ni,
      .clr_i      (cnt_clr_i),
      .load_i     (1'b0),
      .load_val_i ({CNT_W{1'b0}}),
      .inc_i      (arb_gnt[i]),
      .inc_amt_i  (CNT_W'(1)),
      .dec_i      (1'b0),
      .dec_amt_i  ({CNT_W{1'b0}}),
      .cnt_o      (cnt_req_o[i*CNT_W +: CNT_W]),
      .zero_o     (unused_stat_flags[0]),
      .max_o      (unused_stat_flags[3])
    );
    prim_sat_counter #(.WIDTH(CNT_W)) u_cnt_stall (
      .clk_i,
      .rst_ni,
      .clr_i      (cnt_clr_i),
      .load_i     (1'b0),
      .load_val_i ({CNT_W{1'b0}}),
      .inc_i      (stall),
      .inc_amt_i  (CNT_W'(1)),
      .dec_i      (1'b0),
      .dec_amt_i  ({CNT_W{1'b0}}),
      .cnt_o      (cnt_stall_o[i*CNT_W +: CNT_W]),
      .zero_o     (unused_stat_flags[1]),
      .max_o      (unused_stat_flags[4])
    );
    prim_sat_counter #(.WIDTH(CNT_W)) u_cnt_limit (
      .clk_i,
      .rst_ni,
      .clr_i      (cnt_clr_i),
      .load_i     (1'b0),
      .load_val_i ({CNT_W{1'b0}}),
      .inc_i      (cl_req_valid_i[i] && at_limit[i]),
      .inc_amt_i  (CNT_W'(1)),
      .dec_i      (1'b0),
      .dec_amt_i  ({CNT_W{1'b0}}),
      .cnt_o      (cnt_limit_o[i*CNT_W +: CNT_W]),
      .zero_o     (unused_stat_flags[2]),
      .max_o      (unused_stat_flags[5])
    );
  end

  assign cl_outstanding_o = out_cnt;

  // FIFO status outputs only feed assertions.
  logic unused_fifo_status;
  assign unused_fifo_status = ^{fifo_full, fifo_empty, out_zero};

  // ---------------------------------------------------------------------------------------
  // Assertions

  `ASSERT_INIT(NClients_A, N_CLIENTS >= 1 && N_CLIENTS <= (1 << SrcW))
  `ASSERT_INIT(MaxOutstanding_A, MAX_OUTSTANDING >= 1 && MAX_OUTSTANDING <= (1 << tessera_mem_pkg::TAG_W))
  `ASSERT_INIT(SpillBool_A, REQ_SPILL <= 1 && RSP_SPILL <= 1)
  `ASSERT_INIT(CntWidth_A, CNT_W >= 1 && CNT_W <= 64)

  // One grant at a time, only to a requesting client, never to one at its limit.
  `ASSERT(GntOnehot_A, $onehot0(cl_req_ready_o))
  `ASSERT(GntIsValid_A, (cl_req_ready_o & ~cl_req_valid_i) == '0)
  `ASSERT(GntNotAtLimit_A, (cl_req_ready_o & at_limit) == '0)
  // Every legal response finds room in its client's FIFO (the outstanding bound at work).
  `ASSERT(RspAlwaysRoom_A, rsp_valid && (rsp_sel != '0) |-> rsp_ready)
  // The downstream names an existing client.
  `ASSERT(RspSrcKnown_A, rsp_valid |-> rsp_sel != '0)
  `ASSERT(ReqOutStable_A, mem_req_valid_o && !mem_req_ready_i |=> mem_req_valid_o && $stable(mem_req_o))
  `ASSUME(RspInStable_M, mem_rsp_valid_i && !mem_rsp_ready_o |=> mem_rsp_valid_i && $stable(mem_rsp_i))

  for (genvar i = 0; i < N_CLIENTS; i++) begin : gen_chk
    // Counters never overflow or underflow (prim_sat_counter would clamp and hide it).
    `ASSERT(OutstandingInRange_A, out_cnt[i*OutW +: OutW] <= OutMax)
    `ASSERT_NEVER(OutstandingOverflow_A, arb_gnt[i] && !rsp_take[i] && at_limit[i])
    `ASSERT_NEVER(OutstandingUnderflow_A, rsp_take[i] && !arb_gnt[i] && out_zero[i])
    // A buffered response is an outstanding request whose response was not yet taken.
    `ASSERT(FifoWithinOutstanding_A,
            OutW'(fifo_depth[i*FifoDepthW +: FifoDepthW]) <= out_cnt[i*OutW +: OutW])
    // Client protocol (valid/ready): a request offered stays until taken, unchanged.
    // An immediate check on a registered copy of client i's request, not a concurrent
    // $stable(cl_req_i[i*ReqW +: ReqW]): a concurrent assertion samples every variable it
    // names whole (and a slice held in a wire is folded back into cl_req_i), and a
    // sampled copy of 40 to 64 32-bit words (cl_req_i with N_CLIENTS = 2 or 3) becomes C++
    // that does not compile in Verilator 5.006 (verilator#4057; docs/mem-crossbar.md,
    // "Wide signals in assertions"). Same check, same cycle: at a clock edge always_ff
    // reads the values from before the edge, as a concurrent assertion samples them.
`ifndef SYNTHESIS
    logic            cl_stall_q;   // client i's request was offered and not taken
    logic [ReqW-1:0] cl_req_q;     // that request
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        cl_stall_q <= 1'b0;
        cl_req_q   <= '0;
      end else begin
        if (cl_stall_q) begin
          ClReqStable_M: assert (cl_req_valid_i[i] && (cl_req_i[i*ReqW +: ReqW] == cl_req_q))
            else $error("[ASSUME] %s (%s:%0d)", "ClReqStable_M", `__FILE__, `__LINE__);
        end
        cl_stall_q <= cl_req_valid_i[i] && !cl_req_ready_o[i];
        cl_req_q   <= cl_req_i[i*ReqW +: ReqW];
      end
    end
`endif
  end

`ifndef SYNTHESIS
  // Requests in flight downstream per client (accepted by the downstream, response not yet
  // accepted from it): a response for a client with none in flight is a downstream bug
  // (duplicate or misrouted response).
  localparam int unsigned InfW = OutW + 1;
  logic dn_req_fire, dn_rsp_fire;
  assign dn_req_fire = mem_req_valid_o && mem_req_ready_i;
  assign dn_rsp_fire = mem_rsp_valid_i && mem_rsp_ready_o;
  logic [N_CLIENTS*InfW-1:0] inflight_d, inflight_q;
  logic [N_CLIENTS-1:0]      dn_req_hit, dn_rsp_hit;
  always_comb begin
    for (int unsigned i = 0; i < N_CLIENTS; i++) begin
      dn_req_hit[i] = dn_req_fire && (mem_req_o.src == SrcW'(i));
      dn_rsp_hit[i] = dn_rsp_fire && (mem_rsp_i.src == SrcW'(i));
      inflight_d[i*InfW +: InfW] = inflight_q[i*InfW +: InfW]
                                   + InfW'(dn_req_hit[i]) - InfW'(dn_rsp_hit[i]);
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      inflight_q <= '0;
    end else begin
      inflight_q <= inflight_d;
    end
  end
  for (genvar i = 0; i < N_CLIENTS; i++) begin : gen_inflight_chk
    `ASSERT(RspHasOutstanding_A, dn_rsp_hit[i] |-> inflight_q[i*InfW +: InfW] != '0 || dn_req_hit[i])
    `ASSERT(InflightWithinLimit_A, inflight_q[i*InfW +: InfW] <= InfW'(MAX_OUTSTANDING))
  end
`endif

endmodule
