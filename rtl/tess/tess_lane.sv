// tess_lane -- one attribute of the tessellator's interpolation (docs/tessellation.md "The
// tessellator"): o = clamp(base + (sum of (e_k - base) * w_k + 2^15) >>> 16) over one or two
// terms.
//
// The weights are unsigned 0.16 fixed point (0 .. 65536 = 1.0). The sum is exact and the
// shift floors, which is the C++ reference's rounding (sim/tess/src/tessellator.cpp: `scaled`
// and the triangle patch's joint rounding). The result saturates to the attribute's range:
// signed W bits (screen x, y) or unsigned W bits (z, colour, u, v).
//
// One multiplier: a term is issued per cycle, and its product is added to 2^15 (acc_i = 0, a
// new sum) or to the running sum (acc_i = 1, the triangle patch's second term). Three register
// stages: the difference e - base and the weight are registered at issue, the sum after the
// multiplier, and the shift, addition and saturation work from the registers, so o_o shows an
// interpolation two cycles after its last term was issued. The registers around the
// multiplier matter for synthesis: with the tessellator's operand multiplexers or the
// saturation's comparisons in the multiplier's cone, ABC ran for over 20 minutes on the
// tessellator; with them, 18 seconds (as in geom_slice, docs/geometry.md "Synthesis").

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

  // issue: the difference and the weight
  logic signed [DW-1:0]  b, d, d_q, b_q1, b_q;
  logic [16:0]           w_q;
  logic                  acc_q;
  always_comb begin
    b = ext(base_i);
    d = ext(e_i) - b;
  end
  // product and running sum
  logic signed [DW+17:0] pr;   // DW x 18 bits, signed
  logic signed [PW-1:0]  p, p_q;
  always_comb begin
    pr = d_q * $signed({1'b0, w_q});
    p  = PW'(pr) + (acc_q ? p_q : $signed(PW'(32768)));
  end

  // datapath registers, no reset: a result is only read two cycles after its issue
  always_ff @(posedge clk_i) begin
    d_q   <= d;
    w_q   <= w_i;
    acc_q <= acc_i;
    b_q1  <= b;
    p_q   <= p;
    b_q   <= b_q1;
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
