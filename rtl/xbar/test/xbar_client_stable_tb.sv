// xbar_client_stable_tb -- checks the crossbar's client-protocol check ClReqStable_M on a
// configuration inside the Verilator 5.006 bug window (rtl/xbar/xbar-wide-assert-test.sh).
//
// What it catches: (1) the model not compiling without -fno-expand because an assertion
// samples a 40..64-word signal (verilator#4057: the old $stable(cl_req_i[...]) with
// N_CLIENTS = 2 or 3); (2) the rewritten check no longer firing: with +change, a client
// whose request is stalled (downstream never ready) changes one payload bit, and the
// simulation must stop with "[ASSUME] ClReqStable_M" in the cycle after the change; without
// it the run must end with PASS.
module xbar_client_stable_tb #(
  parameter int unsigned N_CLIENTS = 3
);
  localparam int unsigned ReqW = tessera_mem_pkg::MEM_REQ_W;
  localparam int unsigned RspW = tessera_mem_pkg::MEM_RSP_W;
  localparam int unsigned OutW = $clog2(4 + 1);

  logic                     clk_i = 1'b0;
  logic                     rst_ni = 1'b0;
  logic [N_CLIENTS-1:0]     req_valid = '0;
  logic [N_CLIENTS*ReqW-1:0] req = '0;
  logic [N_CLIENTS-1:0]     req_ready, rsp_valid;
  logic [N_CLIENTS*RspW-1:0] rsp;
  logic                     dn_valid, dn_rsp_ready;
  tessera_mem_pkg::mem_req_t dn_req;
  logic [N_CLIENTS*OutW-1:0] outstanding;
  logic [N_CLIENTS*32-1:0]  cnt_req, cnt_stall, cnt_limit;

  mem_xbar #(.N_CLIENTS(N_CLIENTS)) dut (
    .clk_i,
    .rst_ni,
    .cl_req_valid_i   (req_valid),
    .cl_req_ready_o   (req_ready),
    .cl_req_i         (req),
    .cl_rsp_valid_o   (rsp_valid),
    .cl_rsp_ready_i   ({N_CLIENTS{1'b1}}),
    .cl_rsp_o         (rsp),
    .mem_req_valid_o  (dn_valid),
    .mem_req_ready_i  (1'b0),             // never ready: every client ends up stalled
    .mem_req_o        (dn_req),
    .mem_rsp_valid_i  (1'b0),
    .mem_rsp_ready_o  (dn_rsp_ready),
    .mem_rsp_i        ({RspW{1'b0}}),
    .cl_outstanding_o (outstanding),
    .cnt_clr_i        (1'b0),
    .cnt_req_o        (cnt_req),
    .cnt_stall_o      (cnt_stall),
    .cnt_limit_o      (cnt_limit)
  );

  always #5 clk_i = ~clk_i;

  initial begin
    #12 rst_ni = 1'b1;
    @(negedge clk_i);
    req_valid = '1;
    for (int unsigned i = 0; i < N_CLIENTS; i++) begin
      req[i*ReqW + 100 +: 8] = 8'(8'h11 * (i + 1));
    end
    repeat (4) @(negedge clk_i);
    if (req_ready[N_CLIENTS-1]) $fatal(1, "FAIL: the last client is not stalled");
    if ($test$plusargs("change")) begin
      req[(N_CLIENTS-1)*ReqW + 300] = ~req[(N_CLIENTS-1)*ReqW + 300];
      $display("CHANGED the stalled request of client %0d", N_CLIENTS - 1);
    end
    repeat (4) @(negedge clk_i);
    $display("PASS: no assertion fired");
    $finish;
  end
endmodule
