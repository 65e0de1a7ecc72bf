// prim_add -- a shallow adder: sum_o = a_i + b_i + ci_i, co_o the carry out. Combinational.
//
// Why: the synthesis flow (docs/lint-and-synthesis.md) maps `a + b` as a ripple carry that ABC
// does not restructure, about WIDTH / 2.5 LUT6 levels (48 bits: 19). The setup and raster
// datapaths add 48-bit planes every cycle, so `+` alone put them over any cycle budget. This is
// a radix-4 Kogge-Stone parallel prefix: each prefix level merges four groups (generate, propagate)
// of the level below, ceil(log4(WIDTH + 1)) levels, which ABC maps into about two LUT6 levels
// each. Measured (Yosys 0.23, abc -lut 6, registered operands): 48 bits 7 levels, 209 LUTs,
// against 19 levels and 48 LUTs for `+`. Use it on a path that the depth report names, not for
// every add: it costs about four times the LUTs.
//
// Subtraction and compares: a - b is prim_add(a, ~b, 1); a >= b (unsigned) is its co_o.
//
// The carry in is prefix position 0 (generate = ci_i, propagate = 0), so bit i of the operands
// is position i + 1 and the carry into bit i is the group generate of positions 0..i.

`include "prim_assert.svh"

module prim_add #(
  parameter int unsigned WIDTH = 48
) (
  input  logic [WIDTH-1:0] a_i,
  input  logic [WIDTH-1:0] b_i,
  input  logic             ci_i,
  output logic [WIDTH-1:0] sum_o,
  output logic             co_o
);

`ifdef TESSERA_FAST_ARITH
  // The large simulation models (the raster slice's and the GPU's, BUILD_ARGS in their
  // CMakeLists) add with `+`: Verilator evaluates every adder on every clock edge, and the
  // prefix below cost them half their speed. It is the same function:
  // scripts/synth/prove-prim-add.sh proves the prefix equal to the sum for the widths the RTL
  // uses and more (make test), and lint, synthesis and bench_prim_bitops see the prefix.
  assign {co_o, sum_o} = {1'b0, a_i} + {1'b0, b_i} + {{WIDTH{1'b0}}, ci_i};
`else
  localparam int unsigned N = WIDTH + 1;      // prefix positions: the carry in, then the bits
  // levels: the smallest L with 4^L >= N
  localparam int unsigned Levels = (N <= 4) ? 1 : (N <= 16) ? 2 : (N <= 64) ? 3 : (N <= 256) ? 4 : 5;

  logic [N-1:0] g0, p0;                       // per position: generate, propagate
  assign g0 = {a_i & b_i, ci_i};
  assign p0 = {a_i ^ b_i, 1'b0};

  // Level l (s = 4^l) turns the groups of positions i - s + 1 .. i into groups of i - 4s + 1 .. i,
  // merging each with the three groups below it: G = g_i | p_i g_{i-s} | p_i p_{i-s} g_{i-2s} |
  // p_i p_{i-s} p_{i-2s} g_{i-3s}. Written on whole vectors (shifts by constants are wiring),
  // so the simulator evaluates a few word operations per level; the zeros shifted in below
  // position 0 change nothing, since every group that reaches position 0 has propagate 0 (the
  // carry in's).
  logic [N-1:0] gc;                           // carry out of position i: the group 0..i
  always_comb begin : prefix
    logic [N-1:0] g, p, p1, p2;
    g = g0;
    p = p0;
    for (int unsigned l = 0; l < Levels; l++) begin
      p1 = p & (p << (4 ** l));
      p2 = p1 & (p << (2 * 4 ** l));
      g  = g | (p & (g << (4 ** l))) | (p1 & (g << (2 * 4 ** l))) | (p2 & (g << (3 * 4 ** l)));
      p  = p2 & (p << (3 * 4 ** l));
    end
    gc = g;
`ifndef SYNTHESIS
    // The construction against the plain sum, from this block's own values (an assertion on
    // the outputs could see them between evaluations).
    `ASSERT_I(PrefixIsSum_A, {g[N-1], p0[N-1:1] ^ g[N-2:0]} ==
                             ({1'b0, a_i} + {1'b0, b_i} + {{WIDTH{1'b0}}, ci_i}))
`endif
  end

  assign sum_o = p0[N-1:1] ^ gc[N-2:0];
  assign co_o  = gc[N-1];

`endif

endmodule
