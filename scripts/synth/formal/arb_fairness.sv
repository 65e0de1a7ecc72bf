// Formal harness: bounded wait (no starvation) of prim_rr_arb and prim_rr_arb_tree, for every
// input sequence. Used by scripts/synth/prove-arb-fairness.sh (Yosys `sat -tempinduct`).
//
// wait[i] counts transfers to other requesters while requester i keeps req_i[i] high and is
// not granted (the same count as BoundedWait_A in the RTL). The claim is wait[i] <= N-1.
// It is proven by 1-induction through the stronger invariant
//     wait[i] + ((i - ptr) mod N) <= N-1
// where ptr is the arbiter's own priority pointer (connected by the script after
// flattening). The invariant holds at reset (wait = 0) and is preserved by every step of
// the real arbiter logic, so it holds in every reachable state.
module arb_fairness #(
  parameter int unsigned N       = 5,
  parameter int unsigned TREE    = 0,
  parameter int unsigned LOCK_IN = 1
) (
  input logic           clk_i,
  input logic           rst_ni,
  input logic [N-1:0]   req_i,
  input logic           ready_i,
  input logic [2*N-1:0] data_i
);
  localparam int unsigned IdxW  = (N > 1) ? $clog2(N) : 1;
  localparam int unsigned WaitW = $clog2(N + 1);

  logic [N-1:0]    gnt;
  logic            valid;
  logic [1:0]      data;
  logic [IdxW-1:0] idx;

  if (TREE != 0) begin : g_tree
    prim_rr_arb_tree #(.N(N), .WIDTH(2), .LOCK_IN(LOCK_IN)) dut (
      .clk_i, .rst_ni, .req_i, .gnt_o(gnt), .data_i, .valid_o(valid), .ready_i,
      .data_o(data), .idx_o(idx));
  end else begin : g_flat
    prim_rr_arb #(.N(N), .WIDTH(2), .LOCK_IN(LOCK_IN)) dut (
      .clk_i, .rst_ni, .req_i, .gnt_o(gnt), .data_i, .valid_o(valid), .ready_i,
      .data_o(data), .idx_o(idx));
  end

  // The arbiter's pointer: driven by `connect -set` in the script.
  (* keep *) wire [IdxW-1:0] dut_ptr;

  logic [N*WaitW-1:0] wait_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wait_q <= '0;
    end else begin
      for (int unsigned i = 0; i < N; i++) begin
        if (!req_i[i] || gnt[i]) begin
          wait_q[i*WaitW +: WaitW] <= '0;
        end else if (valid && ready_i) begin
          wait_q[i*WaitW +: WaitW] <= wait_q[i*WaitW +: WaitW] + 1'b1;
        end
      end
    end
  end

  int unsigned dist;
  always_comb begin
    assert (32'(dut_ptr) < N);
    for (int unsigned i = 0; i < N; i++) begin
      dist = (i + N - 32'(dut_ptr)) % N;
      assert (32'(wait_q[i*WaitW +: WaitW]) + dist <= N - 1);  // the inductive invariant
      assert (32'(wait_q[i*WaitW +: WaitW]) <= N - 1);         // the claim
    end
    if (valid) assert (req_i[idx]);                           // only requesters win
  end

  logic unused_data;
  assign unused_data = ^data;
endmodule
