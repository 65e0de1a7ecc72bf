// prim_priority_enc -- find the lowest set bit: its index, its one-hot, and whether any bit
// is set. Combinational.
//
// Why: the one find-first-set used by prim_lzc (leading/trailing zero count) and by blocks
// that pick the first free slot or the first pending request. The index comes from a binary
// tree (PULP lzc style), log2(WIDTH) levels deep, not a WIDTH-long priority chain.
//
// Outputs: valid_o = |in_i; idx_o = index of the lowest set bit (0 when valid_o is low);
// onehot_o = in_i with every bit above the lowest set bit cleared (0 when valid_o is low).

`include "prim_assert.svh"

module prim_priority_enc #(
  parameter int unsigned WIDTH = 8,
  // Derived (do not override): width of idx_o.
  localparam int unsigned IdxW = (WIDTH > 1) ? $clog2(WIDTH) : 1
) (
  input  logic [WIDTH-1:0] in_i,
  output logic [WIDTH-1:0] onehot_o,
  output logic [IdxW-1:0]  idx_o,
  output logic             valid_o
);

  localparam int unsigned Leaves = 2 ** IdxW;      // >= 2, >= WIDTH
  localparam int unsigned Nodes  = 2 * Leaves - 1; // heap: node k has children 2k+1, 2k+2

  logic [Leaves-1:0] leaf;
  assign leaf = Leaves'(in_i);  // zero-extend to the padded width

  // Flat vectors, not multi-dimensional packed arrays: Yosys 0.23 silently drops the outer
  // dimension of a typedef'd packed array (docs/lint-and-synthesis.md).
  logic [Nodes-1:0]      nd_valid;
  logic [Nodes*IdxW-1:0] nd_idx;  // node k at [k*IdxW +: IdxW]
  always_comb begin
    nd_valid = '0;
    nd_idx   = '0;
    for (int unsigned i = 0; i < Leaves; i++) begin
      nd_valid[Leaves-1+i] = leaf[i];
      nd_idx[(Leaves-1+i)*IdxW +: IdxW] = IdxW'(i);
    end
    // Node k-1 takes its left (lower-index) child 2k-1 if that one has a set bit.
    for (int unsigned k = Leaves - 1; k > 0; k--) begin
      nd_valid[k-1] = nd_valid[2*k-1] || nd_valid[2*k];
      nd_idx[(k-1)*IdxW +: IdxW] = nd_valid[2*k-1] ? nd_idx[(2*k-1)*IdxW +: IdxW]
                                                    : nd_idx[2*k*IdxW +: IdxW];
    end
  end

  assign valid_o  = nd_valid[0];
  assign idx_o    = nd_valid[0] ? nd_idx[IdxW-1:0] : '0;
  assign onehot_o = in_i & (~in_i + WIDTH'(1));

  `ASSERT_INIT(WidthMin_A, WIDTH >= 1)

endmodule
