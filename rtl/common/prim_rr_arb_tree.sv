// prim_rr_arb_tree -- round-robin arbiter with data for many requesters (16-64), built as a
// binary tree of 2-input arbitration nodes (PULP common_cells rr_arb_tree style).
//
// Why: with many requesters a flat find-first-set plus an N-way one-hot mux gets wide and
// deep; a tree keeps the selection and the data mux at log2(N) node levels. Unlike PULP's
// default tree (priority taken from pointer bits per level, not exactly round robin for
// every request pattern), each node here carries its candidate's "at or after the pointer"
// flag, so the tree selects exactly what prim_rr_arb selects. The two are interchangeable:
// same parameters, ports, protocol, locking and fairness guarantee (see prim_rr_arb.sv).
//
// Node rule: candidates are ordered first by "index >= pointer", then by lower index. A
// node takes its right (higher-index) child only if the left has no request, or the right
// candidate is at/after the pointer and the left one is not. N need not be a power of 2:
// missing leaves never request.
//
// Fairness (bounded wait): a requester holding req_i is granted after at most N-1
// transfers to others; asserted in simulation by BoundedWait_A.

`include "prim_assert.svh"

module prim_rr_arb_tree #(
  parameter int unsigned N       = 16,
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

  localparam int unsigned Leaves = 2 ** IdxW;      // >= 2, >= N
  localparam int unsigned Nodes  = 2 * Leaves - 1; // heap: node k has children 2k+1, 2k+2
  localparam logic [IdxW-1:0] IdxLast = IdxW'(N - 1);

  logic [IdxW-1:0] ptr_d, ptr_q;

  // Leaves, padded to a power of two.
  // Flat vectors, not multi-dimensional packed arrays: Yosys 0.23 silently drops the outer
  // dimension of a typedef'd packed array (docs/lint-and-synthesis.md).
  logic [Leaves-1:0]       leaf_valid, leaf_hi;
  logic [Leaves*WIDTH-1:0] leaf_data;
  for (genvar i = 0; i < Leaves; i++) begin : gen_leaf
    if (i < N) begin : gen_req
      assign leaf_valid[i] = req_i[i];
      assign leaf_data[i*WIDTH +: WIDTH] = data_i[i*WIDTH +: WIDTH];
    end else begin : gen_pad
      assign leaf_valid[i] = 1'b0;
      assign leaf_data[i*WIDTH +: WIDTH] = '0;
    end
  end

  // Leaf at or after the pointer (a loop, not per-leaf assigns: for the last index the
  // comparison is constant, which lint would flag).
  always_comb begin
    leaf_hi = '0;
    for (int unsigned i = 0; i < N; i++) begin
      leaf_hi[i] = (IdxW'(i) >= ptr_q);
    end
  end

  // The tree, evaluated bottom-up in one block (heap layout, leaves at Leaves-1..Nodes-1).
  logic [Nodes-1:0]       nd_valid, nd_hi;
  logic [Nodes*IdxW-1:0]  nd_idx;   // node k at [k*IdxW +: IdxW]
  logic [Nodes*WIDTH-1:0] nd_data;  // node k at [k*WIDTH +: WIDTH]
  always_comb begin
    nd_valid = '0;
    nd_hi    = '0;
    nd_idx   = '0;
    nd_data  = '0;
    for (int unsigned i = 0; i < Leaves; i++) begin
      nd_valid[Leaves-1+i] = leaf_valid[i];
      nd_hi[Leaves-1+i]    = leaf_hi[i];
      nd_idx[(Leaves-1+i)*IdxW +: IdxW]    = IdxW'(i);
      nd_data[(Leaves-1+i)*WIDTH +: WIDTH] = leaf_data[i*WIDTH +: WIDTH];
    end
    for (int unsigned k = Leaves - 1; k > 0; k--) begin
      // node k-1, children l = 2k-1 (lower indices) and r = 2k
      if (nd_valid[2*k] && (!nd_valid[2*k-1] || (nd_hi[2*k] && !nd_hi[2*k-1]))) begin
        nd_hi[k-1]                    = nd_hi[2*k];
        nd_idx[(k-1)*IdxW +: IdxW]    = nd_idx[2*k*IdxW +: IdxW];
        nd_data[(k-1)*WIDTH +: WIDTH] = nd_data[2*k*WIDTH +: WIDTH];
      end else begin
        nd_hi[k-1]                    = nd_hi[2*k-1];
        nd_idx[(k-1)*IdxW +: IdxW]    = nd_idx[(2*k-1)*IdxW +: IdxW];
        nd_data[(k-1)*WIDTH +: WIDTH] = nd_data[(2*k-1)*WIDTH +: WIDTH];
      end
      nd_valid[k-1] = nd_valid[2*k-1] || nd_valid[2*k];
    end
  end

  assign valid_o = nd_valid[0];
  assign idx_o   = nd_idx[IdxW-1:0];
  assign data_o  = nd_data[WIDTH-1:0];

  always_comb begin
    for (int unsigned i = 0; i < N; i++) begin
      gnt_o[i] = valid_o && ready_i && (idx_o == IdxW'(i));
    end
  end

  always_comb begin
    ptr_d = ptr_q;
    if (valid_o && ready_i) begin
      ptr_d = (idx_o == IdxLast) ? '0 : idx_o + 1'b1;
    end else if (valid_o && (LOCK_IN != 0)) begin
      ptr_d = idx_o;
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
  `ASSERT(ValidIsAnyReq_A, valid_o == (req_i != '0))

`ifndef SYNTHESIS
  // Lock and bounded-wait checks shared by both arbiters (simulation only).
  `include "prim_arb_checks.svh"
`endif

endmodule
