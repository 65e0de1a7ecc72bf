// prim_lzc -- leading- or trailing-zero count with an all-zero flag. Combinational.
//
// Why: normalisation (fixed/float), first-free-slot search and bit-scan in the binner and
// cache need one zero counter; this is PULP lzc's interface on top of prim_priority_enc.
//
// MODE = 0: trailing zeros, counted from bit 0 upward (cnt_o = index of the lowest 1).
// MODE = 1: leading zeros, counted from bit WIDTH-1 downward.
// empty_o = (in_i == 0); cnt_o is then 0 (a count of WIDTH does not fit the
// $clog2(WIDTH)-bit output; test empty_o first).

`include "prim_assert.svh"

module prim_lzc #(
  parameter int unsigned WIDTH = 32,
  parameter int unsigned MODE  = 0,   // 0: trailing zeros, 1: leading zeros
  // Derived (do not override): width of cnt_o.
  localparam int unsigned CntW = (WIDTH > 1) ? $clog2(WIDTH) : 1
) (
  input  logic [WIDTH-1:0] in_i,
  output logic [CntW-1:0]  cnt_o,
  output logic             empty_o
);

  logic [WIDTH-1:0] in_ordered;
  always_comb begin
    for (int unsigned i = 0; i < WIDTH; i++) begin
      in_ordered[i] = (MODE != 0) ? in_i[WIDTH-1-i] : in_i[i];
    end
  end

  logic [WIDTH-1:0] unused_onehot;
  logic             any;

  prim_priority_enc #(
    .WIDTH (WIDTH)
  ) u_enc (
    .in_i     (in_ordered),
    .onehot_o (unused_onehot),
    .idx_o    (cnt_o),
    .valid_o  (any)
  );

  assign empty_o = !any;

  `ASSERT_INIT(ModeBool_A, MODE <= 1)

endmodule
