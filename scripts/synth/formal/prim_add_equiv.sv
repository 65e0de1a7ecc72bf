// Formal harness for scripts/synth/prove-prim-add.sh: prim_add's parallel prefix equals the
// plain sum, for every input (the large simulation models add with `+`, rtl/common/prim_add.sv).
module prim_add_equiv #(
  parameter int unsigned WIDTH = 48
) (
  input logic [WIDTH-1:0] a,
  input logic [WIDTH-1:0] b,
  input logic             ci
);
  logic [WIDTH-1:0] s;
  logic             co;
  prim_add #(.WIDTH(WIDTH)) dut (.a_i(a), .b_i(b), .ci_i(ci), .sum_o(s), .co_o(co));
  always_comb assert ({co, s} == {1'b0, a} + {1'b0, b} + {{WIDTH{1'b0}}, ci});
endmodule
