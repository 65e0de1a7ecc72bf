// prim_rr_arb -- round-robin arbiter with data, valid/ready, flat implementation.
//
// Why: every many-to-one point in Tessera (slices onto the crossbar, clients onto a cache
// port) needs a fair arbiter with AXI-style stability, so it is written and proven once.
// prim_rr_arb_tree has exactly the same behaviour with a log-depth structure for many
// requesters (16-64); this flat version (mask + find-first-set) suits N <= ~8.
//
// Protocol
//   - req_i[i] is requester i's valid, data_i[i] its payload. valid_o = |req_i.
//   - The winner is the first requesting index at or after the priority pointer, wrapping
//     around (exact round robin). idx_o / data_o name and carry the winner.
//   - gnt_o[i] is requester i's ready: gnt_o = onehot(winner) & ready_i. A transfer happens
//     on valid_o && ready_i, i.e. on req_i[i] && gnt_o[i].
//   - After a transfer to i, the pointer moves to i+1 (mod N): i gets lowest priority.
//   - LOCK_IN = 1: while valid_o && !ready_i, the pointer is parked on the winner, so the
//     same requester keeps winning next cycle as long as it keeps req_i high (idx_o/data_o
//     stay stable as AXI requires). If it drops req_i, arbitration restarts from it.
//     LOCK_IN = 0: the pointer only moves on a transfer; a newly arriving requester with
//     higher priority may replace a stalled winner.
//   - Purely combinational from req_i to valid_o/idx_o/data_o/gnt_o; ready_i only feeds
//     gnt_o and the pointer.
//
// Fairness (bounded wait): a requester that holds req_i high is granted after at most N-1
// transfers to other requesters. Proof: every transfer to another index w moves the pointer
// to w+1 where w lies in [pointer, i) circularly, and locking parks it on such a w, so the
// circular distance from the pointer to i never grows and shrinks by at least 1 on every
// transfer to someone else; it starts at most N-1. The simulation-only checker at the end
// counts exactly this and asserts it (BoundedWait_A).

`include "prim_assert.svh"

module prim_rr_arb #(
  parameter int unsigned N       = 4,
  parameter int unsigned WIDTH   = 8,
  parameter int unsigned LOCK_IN = 1,   // 0 or 1
  // Derived (do not override): width of idx_o.
  localparam int unsigned IdxW = (N > 1) ? $clog2(N) : 1
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  // requesters
  input  logic [N-1:0]            req_i,
  output logic [N-1:0]            gnt_o,
  input  logic [N*WIDTH-1:0]      data_i,   // requester i at [i*WIDTH +: WIDTH]
  // arbitrated output
  output logic                    valid_o,
  input  logic                    ready_i,
  output logic [WIDTH-1:0]        data_o,
  output logic [IdxW-1:0]         idx_o
);

  localparam logic [IdxW-1:0] IdxLast = IdxW'(N - 1);

  logic [IdxW-1:0] ptr_d, ptr_q;
  logic [N-1:0]    mask, req_hi, pick, onehot;
  logic [IdxW-1:0] idx;
  logic [WIDTH-1:0] data;

  // Requesters at or after the pointer come first; if none, the lowest requester wins.
  always_comb begin
    for (int unsigned i = 0; i < N; i++) begin
      mask[i] = (IdxW'(i) >= ptr_q);
    end
  end
  assign req_hi = req_i & mask;
  assign pick   = (req_hi != '0) ? req_hi : req_i;
  assign onehot = pick & (~pick + N'(1));  // lowest set bit

  always_comb begin
    idx  = '0;
    data = '0;
    for (int unsigned i = 0; i < N; i++) begin
      if (onehot[i]) begin
        idx  = idx | IdxW'(i);
        data = data | data_i[i*WIDTH +: WIDTH];
      end
    end
  end

  assign valid_o = (req_i != '0);
  assign idx_o   = idx;
  assign data_o  = data;
  assign gnt_o   = onehot & {N{ready_i}};

  always_comb begin
    ptr_d = ptr_q;
    if (valid_o && ready_i) begin
      ptr_d = (idx == IdxLast) ? '0 : idx + 1'b1;
    end else if (valid_o && (LOCK_IN != 0)) begin
      ptr_d = idx;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ptr_q <= '0;
    end else begin
      ptr_q <= ptr_d;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Assertions
  `ASSERT_INIT(NMin_A, N >= 1)
  `ASSERT_INIT(WidthMin_A, WIDTH >= 1)
  `ASSERT_INIT(LockBool_A, LOCK_IN <= 1)
  `ASSERT(PtrInRange_A, ptr_q <= IdxLast)
  `ASSERT(GntOnehot_A, $onehot0(gnt_o))
  `ASSERT(GntIsReq_A, (gnt_o & ~req_i) == '0)
  `ASSERT(WinnerRequests_A, valid_o |-> req_i[idx_o])
  `ASSERT(GntMatchesIdx_A, valid_o && ready_i |-> gnt_o[idx_o])

`ifndef SYNTHESIS
  // Lock and bounded-wait checks shared by both arbiters (simulation only).
  `include "prim_arb_checks.svh"
`endif

endmodule
