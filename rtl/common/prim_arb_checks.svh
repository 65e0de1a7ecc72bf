// Simulation-only checks shared by prim_rr_arb and prim_rr_arb_tree: `include it inside
// `ifndef SYNTHESIS in an arbiter body. It expects the arbiter's ports and parameters:
// clk_i, rst_ni, req_i[N], gnt_o[N], valid_o, ready_i, idx_o[IdxW], N, IdxW, LOCK_IN.
// The same properties are proven for all input sequences by scripts/synth/prove-arb-fairness.sh.
  if (LOCK_IN != 0) begin : gen_lock_chk
    logic [IdxW-1:0] idx_last_q;
    always_ff @(posedge clk_i) begin
      idx_last_q <= idx_o;
    end
    // A stalled winner that keeps requesting keeps the grant.
    `ASSERT(LockHolds_A, valid_o && !ready_i |=> !req_i[idx_last_q] || idx_o == idx_last_q)
  end

  // Bounded wait: count transfers to others while requester i waits; never more than N-1.
  localparam int unsigned WaitW = $clog2(N + 1);
  logic [N*WaitW-1:0] wait_d, wait_q;  // requester i at [i*WaitW +: WaitW]
  always_comb begin
    for (int unsigned i = 0; i < N; i++) begin
      wait_d[i*WaitW +: WaitW] = wait_q[i*WaitW +: WaitW];
      if (!req_i[i] || gnt_o[i]) begin
        wait_d[i*WaitW +: WaitW] = '0;
      end else if (valid_o && ready_i) begin
        wait_d[i*WaitW +: WaitW] = wait_q[i*WaitW +: WaitW] + 1'b1;
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wait_q <= '0;
    end else begin
      wait_q <= wait_d;
    end
  end
  for (genvar i = 0; i < N; i++) begin : gen_fair_chk
    `ASSERT(BoundedWait_A, wait_q[i*WaitW +: WaitW] <= WaitW'(N - 1))
  end
