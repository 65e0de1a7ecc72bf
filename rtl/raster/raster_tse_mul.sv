// raster_tse_mul -- the TSE's multiplier: s_o + c_o = a_i * b_i + e_i modulo 2^74 (signed a_i,
// b_i), in carry-save form. Combinational; raster_tse registers s_o, c_o and resolves them with
// the adder of the step that consumes the product, the cycle after (docs/raster.md "TSE depth").
//
// Why carry-save: Yosys 0.23 maps `*` with a ripple-carry final add, 23 LUT levels for 48 x 26.
// Here: Baugh-Wooley partial products (26 rows, the signs' corrections the constant row
// 2^73 + 2^47 + 2^25), the addend e as one more row, and a 3:2 compressor tree (28 -> 19 ->
// 13 -> 9 -> 6 -> 4 -> 3 -> 2 rows), 6 LUT levels.
//
// Why a module of its own, kept out of line in the simulator (no_inline in raster.vlt): as a
// function of raster_tse the unrolled tree sat in the TSE's evaluation code, about 20k lines
// of C++ per slice; as its own evaluation functions bench_raster_perf runs 8 % faster (3.98 s
// -> 3.65 s). Same netlist either way.

module raster_tse_mul (
  input  logic signed [47:0] a_i,
  input  logic signed [25:0] b_i,
  input  logic [47:0]        e_i,     // added as an unsigned row
  output logic [73:0]        s_o,
  output logic [73:0]        c_o
);

  localparam int unsigned PW = 74;   // product width

`ifdef TESSERA_FAST_ARITH
  // The large simulation models (the raster slice's and the GPU's, BUILD_ARGS in their
  // CMakeLists) multiply with `*`: the tree below is about 600 word operations per product on
  // every evaluation. Equal for the consumer: raster_tse uses the pair only through s_o + c_o
  // (modulo 2^74 or its low 48 bits), so (a * b + e, 0) is the same pair for it.
  // bench_tse_mul compares the tree (this module without the define) with a * b + e on
  // corner and random operands.
  logic signed [PW-1:0] prod;
  assign prod = a_i * b_i;                  // both signed: sign-extended to 74 bits
  assign s_o  = PW'(prod) + PW'(e_i);
  assign c_o  = '0;
`else
  // rows sit at a stride of whole 32-bit words, so the simulator moves them by words
  localparam int unsigned RS = 96;

  always_comb begin : tree
    logic [30*RS-1:0] t, u;   // row r at [r*RS +: PW]
    logic [PW-1:0]    x, y, z;
    logic [47:0]      row;
    t = '0;
    // row j: a & b[j] at weight 2^j, the sign bit's product inverted (the last row: every bit
    // but the sign's); whole-row operations, so the simulator does word operations
    for (int j = 0; j < 26; j++) begin
      row = (a_i & {48{b_i[j]}}) ^ ((j < 25) ? 48'h8000_0000_0000 : 48'h7FFF_FFFF_FFFF);
      t[j*RS +: PW] = PW'(row) << j;
    end
    t[26*RS + 73] = 1'b1;
    t[26*RS + 47] = 1'b1;
    t[26*RS + 25] = 1'b1;
    t[27*RS +: PW] = PW'(e_i);
    for (int l = 0; l < 7; l++) begin
      u = '0;
      for (int g = 0; g < 10; g++) begin
        x = t[(3*g) * RS +: PW];
        y = t[(3*g + 1) * RS +: PW];
        z = t[(3*g + 2) * RS +: PW];
        u[(2*g) * RS +: PW]     = x ^ y ^ z;
        u[(2*g + 1) * RS +: PW] = {(x[PW-2:0] & y[PW-2:0]) | (x[PW-2:0] & z[PW-2:0]) |
                                   (y[PW-2:0] & z[PW-2:0]), 1'b0};
      end
      t = u;
    end
    s_o = t[RS +: PW];
    c_o = t[0 +: PW];
  end
`endif

endmodule
