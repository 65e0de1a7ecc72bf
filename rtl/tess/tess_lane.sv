// tess_lane -- one attribute of the tessellator's interpolation (docs/tessellation.md "The
// tessellator"): o = clamp(base + ((ea - base) * wa + (eb - base) * wb + 2^15) >>> 16).
//
// The weights are unsigned 0.16 fixed point (0 .. 65536 = 1.0). The sum is exact and the
// shift floors, which is the C++ reference's rounding (sim/tess/src/tessellator.cpp: `scaled`
// and the triangle patch's joint rounding). The result saturates to the attribute's range:
// signed W bits (screen x, y) or unsigned W bits (z, colour, u, v). A quad patch's lerps use
// only the first term (wb = 0); a triangle patch's vertex uses both.
//
// Two stages: the products' sum is registered (with the base), and the shift, addition and
// saturation work from the registers, so the result of an interpolation issued in one cycle is
// on o_o in the next. The register also keeps the saturation's comparisons out of the
// multipliers' cone, where ABC's SAT sweeping otherwise spends many minutes (as it did in
// geom_slice, docs/geometry.md "Synthesis").

module tess_lane #(
  parameter int unsigned W      = 8,
  parameter bit          SIGNED = 1'b0
) (
  input  logic         clk_i,
  input  logic [W-1:0] base_i,
  input  logic [W-1:0] ea_i,
  input  logic [W-1:0] eb_i,
  input  logic [16:0]  wa_i,
  input  logic [16:0]  wb_i,
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

  logic signed [DW-1:0] b, da, db, b_q;
  logic signed [DW+17:0] pa, pb;   // DW x 18 bits, signed
  logic signed [PW-1:0] p, p_q;
  always_comb begin
    b  = ext(base_i);
    da = ext(ea_i) - b;
    db = ext(eb_i) - b;
    pa = da * $signed({1'b0, wa_i});
    pb = db * $signed({1'b0, wb_i});
    p  = PW'(pa) + PW'(pb) + $signed(PW'(32768));
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
