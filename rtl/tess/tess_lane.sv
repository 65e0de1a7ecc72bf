// tess_lane -- one attribute of the tessellator's interpolation (docs/tessellation.md "The
// tessellator"): o = clamp(base + (sum of (e_k - base) * w_k + 2^15) >>> 16) over one or two
// terms.
//
// The weights are unsigned 0.16 fixed point (0 .. 65536 = 1.0). The sum is exact and the
// shift floors, which is the C++ reference's rounding (sim/tess/src/tessellator.cpp: `scaled`
// and the triangle patch's joint rounding). The result saturates to the attribute's range:
// signed W bits (screen x, y) or unsigned W bits (z, colour, u, v).
//
// One multiplier: a term is issued per cycle and its product added to 2^15 (acc_i = 0, a new
// sum) or to the registered sum (acc_i = 1, the triangle patch's second term). The sum is
// registered with the base; the shift, addition and saturation work from the registers, so
// o_o shows the sum the previous cycle completed. The register also keeps the saturation's
// comparisons out of the multiplier's cone, where ABC's SAT sweeping otherwise spends many
// minutes (as it did in geom_slice, docs/geometry.md "Synthesis").

module tess_lane #(
  parameter int unsigned W      = 8,
  parameter bit          SIGNED = 1'b0
) (
  input  logic         clk_i,
  input  logic [W-1:0] base_i,
  input  logic [W-1:0] e_i,
  input  logic [16:0]  w_i,
  input  logic         acc_i,
  output logic [W-1:0] o_o
);

  localparam int unsigned DW = W + 2;        // a difference of two attributes, signed
  localparam int unsigned PW = DW + 19;      // the sum of two DW x 18 products and the half
  localparam int unsigned SW = PW - 16;      // after >>> 16
  localparam int unsigned OW = SW + 1;       // base + that

  function automatic logic signed [DW-1:0] ext(input logic [W-1:0] v);
    if (SIGNED) ext = $signed({v[W-1], v[W-1], v});
    else        ext = $signed({2'b00, v});
  endfunction

  logic signed [DW-1:0] b, d, b_q;
  logic signed [DW+17:0] pr;   // DW x 18 bits, signed
  logic signed [PW-1:0] p, p_q;
  always_comb begin
    b  = ext(base_i);
    d  = ext(e_i) - b;
    pr = d * $signed({1'b0, w_i});
    p  = PW'(pr) + (acc_i ? p_q : $signed(PW'(32768)));
  end

  // datapath registers, no reset: the result is only read the cycle after an issue
  always_ff @(posedge clk_i) begin
    p_q <= p;
    b_q <= b;
  end

  logic signed [SW-1:0] s;
  logic signed [OW-1:0] o, lo, hi;
  logic [15:0]          unused_frac;
  always_comb begin
    s  = p_q[PW-1:16];
    unused_frac = p_q[15:0];
    o  = OW'(b_q) + OW'(s);
    if (SIGNED) begin
      lo = -$signed(OW'(1) <<< (W - 1));
      hi = $signed(OW'(1) <<< (W - 1)) - $signed(OW'(1));
    end else begin
      lo = '0;
      hi = $signed(OW'(1) <<< W) - $signed(OW'(1));
    end
    if (o < lo)      o_o = lo[W-1:0];
    else if (o > hi) o_o = hi[W-1:0];
    else             o_o = o[W-1:0];
  end

endmodule
