// prim_popcount -- number of set bits in a vector. Combinational.
//
// Why: coverage masks, slice-visibility masks and byte-strobe counts are popcounts; one
// cell, one reference model. Written as a plain sum: Yosys (alumacc/maccmap) and any ASIC
// flow turn a sum of single bits into a compressor tree, so the RTL stays obvious.
//
// cnt_o has $clog2(WIDTH+1) bits, enough for the all-ones input.

`include "prim_assert.svh"

module prim_popcount #(
  parameter int unsigned WIDTH = 32,
  // Derived (do not override): width of cnt_o.
  localparam int unsigned CntW = (WIDTH > 1) ? $clog2(WIDTH + 1) : 1
) (
  input  logic [WIDTH-1:0] in_i,
  output logic [CntW-1:0]  cnt_o
);

  always_comb begin
    cnt_o = '0;
    for (int unsigned i = 0; i < WIDTH; i++) begin
      cnt_o = cnt_o + CntW'(in_i[i]);
    end
  end

  `ASSERT_INIT(WidthMin_A, WIDTH >= 1)

endmodule
