// raster_tse -- triangle setup (TSE) for one (bin, primitive) pair.
//
// Source: ARCHITECTURE.md 5.4 "TSE and GRAS: edge functions in fixed point, pixel centres at
// +0.5, the top-left fill rule ... interpolated with one fixed-point reciprocal per
// triangle"; 001_3630ef805e8956e2.txt (Qualcomm) names the TSE as the slice's setup unit.
// The arithmetic is specified in docs/raster.md ("Triangle setup"); this is a sequential
// implementation of it with one shared 48x26 signed multiplier (operands registered):
//   D (2 products) -> orientation (swap v1, v2 when D < 0) -> D == 0 ends a degenerate
//   triangle (4 cycles) -> n = bitlen(D) ->
//   R = floor(2^(n+23) / D) (restoring division, 25 cycles) -> the three edge functions at
//   the walk origin (6 products) -> per attribute Gx, Gy, gx, gy and the value at the origin
//   (8 products each, 7 attributes).
// 90 cycles per setup, 74 for an untextured primitive (uv_en_i = 0: u and v, which the FS
// does not read then, are not set up and read as 0; issue 16 item 5); an attribute equal at
// the three vertices (alpha, a flat or unlit colour) takes 1 cycle instead of 8. The raster slice
// overlaps it with GRAS on the previous primitive. The seam for a faster TSE: setup once per
// triangle at batch insertion (everything but the 20 origin products is bin-independent) and
// more multipliers.

`include "prim_assert.svh"

module raster_tse (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          start_i,      // pulse: vertices and origin are valid
  input  logic          uv_en_i,      // with start_i: set up u and v (a textured primitive)
  input  logic [383:0]  vtx_i,        // {v0, v1, v2}
  input  logic [10:0]   ox_i,         // walk origin (even pixel), its centre is 16*o+8
  input  logic [10:0]   oy_i,
  output logic          busy_o,
  output logic          done_o,       // pulse
  output logic          degen_o,      // valid with done_o: D == 0, nothing to rasterize
  // edge functions at the origin's pixel centre, and their per-1/16-pixel coefficients
  output logic [3*48-1:0] w_o,
  output logic [3*21-1:0] ea_o,
  output logic [3*21-1:0] eb_o,
  // attribute planes: value at the origin's centre (with the rounding half) and gradients
  // per 1/16 pixel, all with PLANE_F fraction bits, wrapping in PLANE_W bits
  output logic [7*48-1:0] pv_o,
  output logic [7*48-1:0] pgx_o,
  output logic [7*48-1:0] pgy_o
);

  typedef enum logic [2:0] {S_IDLE, S_D0, S_D1, S_NORM, S_DIV, S_EDGE, S_ATTR} state_e;

  state_e             st_q, st_d;
  logic [5:0]         k_q, k_d;            // sub-step / division bit counter
  logic [2:0]         ai_q, ai_d;          // attribute index
  logic [383:0]       v_q, v_d;
  logic [10:0]        ox_q, ox_d, oy_q, oy_d;
  logic signed [47:0] t0_q, t0_d;
  logic [47:0]        d_q, d_d;            // |D|
  logic [5:0]         n_q, n_d;            // bitlen(D)
  logic [44:0]        dn_q, dn_d;          // D << (43 - n)
  logic [44:0]        rem_q, rem_d;
  logic [24:0]        r_q, r_d;            // reciprocal
  logic signed [47:0] gx_q, gx_d, gy_q, gy_d, bigx_q, bigx_d, bigy_q, bigy_d;
  logic [3*48-1:0]    w_q, w_d;
  logic [7*48-1:0]    pv_q, pv_d, pgx_q, pgx_d, pgy_q, pgy_d;
  logic               done_q, done_d, degen_q, degen_d;
  logic               uv_en_q, uv_en_d;
  // Attributes equal at the three vertices (flat colour, alpha, unlit draws): their plane is
  // the value with zero gradients, exactly what the 8 products give, in one step instead of 8.
  // Found in S_D0 from the registered vertices (an orientation swap does not change it).
  logic [6:0]         flat_q, flat_d;
  logic [2:0]         attr_last;           // the last attribute set up: v (6), or A (4)
  assign attr_last = uv_en_q ? 3'd6 : 3'd4;

  // ---- vertex fields (after the orientation swap held in v_q) -----------------------------
  // v_q = {v0, v1, v2}, each a screen vertex (spec/layouts.yaml svtx, tessera_spec_pkg::
  // ts_svtx_t): vertex i at v_q[(2-i)*VW +: VW], fields at the generated positions. x, y are
  // 20 bits, z 24, u, v 16, rgba four bytes R..A from its bit 0; the widths are the arithmetic's.
  localparam int unsigned VW = tessera_spec_pkg::TS_SVTX_W;
  localparam int unsigned XL = tessera_spec_pkg::TS_SVTX_X_LSB;
  localparam int unsigned YL = tessera_spec_pkg::TS_SVTX_Y_LSB;
  localparam int unsigned ZL = tessera_spec_pkg::TS_SVTX_Z_LSB;
  localparam int unsigned CL = tessera_spec_pkg::TS_SVTX_RGBA_LSB;
  localparam int unsigned UL = tessera_spec_pkg::TS_SVTX_U_LSB;
  localparam int unsigned VL = tessera_spec_pkg::TS_SVTX_V_LSB;
  // attribute k (z, R, G, B, A, u, v) of vertex i of v
  function automatic logic [23:0] attr_of(logic [383:0] v, int unsigned i, int unsigned k);
    unique case (k)
      0:       attr_of = v[(2-i)*VW + ZL +: 24];
      1:       attr_of = {16'd0, v[(2-i)*VW + CL + 0 +: 8]};
      2:       attr_of = {16'd0, v[(2-i)*VW + CL + 8 +: 8]};
      3:       attr_of = {16'd0, v[(2-i)*VW + CL + 16 +: 8]};
      4:       attr_of = {16'd0, v[(2-i)*VW + CL + 24 +: 8]};
      5:       attr_of = {8'd0, v[(2-i)*VW + UL +: 16]};
      default: attr_of = {8'd0, v[(2-i)*VW + VL +: 16]};
    endcase
  endfunction

  // Flat vectors (Yosys 0.23 turns unpacked arrays assigned in always_comb into warnings):
  // vertex i's x at vxf[i*21 +: 21]; attribute k of vertex 0 at va0f[k*24 +: 24] (the
  // multiplier's operands decode the vertices in mul_ops below).
  logic [3*21-1:0] vxf, vyf;
  logic [7*24-1:0] va0f;
  always_comb begin
    for (int i = 0; i < 3; i++) begin
      vxf[i*21 +: 21] = {v_q[(2-i)*VW + XL + 19], v_q[(2-i)*VW + XL +: 20]};
      vyf[i*21 +: 21] = {v_q[(2-i)*VW + YL + 19], v_q[(2-i)*VW + YL +: 20]};
    end
    va0f[0*24 +: 24] = v_q[2*VW + ZL +: 24];
    va0f[1*24 +: 24] = {16'd0, v_q[2*VW + CL + 0 +: 8]};
    va0f[2*24 +: 24] = {16'd0, v_q[2*VW + CL + 8 +: 8]};
    va0f[3*24 +: 24] = {16'd0, v_q[2*VW + CL + 16 +: 8]};
    va0f[4*24 +: 24] = {16'd0, v_q[2*VW + CL + 24 +: 8]};
    va0f[5*24 +: 24] = {8'd0, v_q[2*VW + UL +: 16]};
    va0f[6*24 +: 24] = {8'd0, v_q[2*VW + VL +: 16]};
  end
  logic [6:0] flat;
  always_comb begin
    for (int k = 0; k < 7; k++) flat[k] = attr_of(v_q, 0, k) == attr_of(v_q, 1, k) &&
                                          attr_of(v_q, 0, k) == attr_of(v_q, 2, k);
  end
  logic signed [20:0] vx0, vx1, vx2, vy0, vy1, vy2;
  assign vx0 = $signed(vxf[0 +: 21]);   assign vy0 = $signed(vyf[0 +: 21]);
  assign vx1 = $signed(vxf[21 +: 21]);  assign vy1 = $signed(vyf[21 +: 21]);
  assign vx2 = $signed(vxf[42 +: 21]);  assign vy2 = $signed(vyf[42 +: 21]);

  // edge i is opposite vertex i: A = -(dy), B = dx of the directed edge, anchor its start
  logic signed [20:0] ea0, ea1, ea2, eb0, eb1, eb2;
  assign ea0 = vy1 - vy2;  assign eb0 = vx2 - vx1;
  assign ea1 = vy2 - vy0;  assign eb1 = vx0 - vx2;
  assign ea2 = vy0 - vy1;  assign eb2 = vx1 - vx0;

  // vertex 0's current attribute (for its value at the origin)
  logic [23:0] a0s;
  always_comb begin
    a0s = '0;
    for (int k = 0; k < 7; k++) if (ai_q == 3'(k)) a0s = va0f[k*24 +: 24];
  end

  logic [1:0] ei;     // S_EDGE: the edge of this step
  assign ei = k_q[2:1];

  // ---- the shared multiplier -----------------------------------------------------------------
  // Its operands come from flops. The operand select is a function of the step (state, k,
  // attribute) and of registers; it is evaluated one cycle early, on the next step, and
  // registered (ma_q, mb_q), so the product of step s is on `prod` in step s exactly as
  // before (no added cycle) but the multiplier's inputs are free flops rather than a mux of
  // vertex differences. With that mux in front, ABC's SAT sweeping (&fraig) spent over 5
  // minutes on the TSE's logic in the raster slice, seconds without it (docs/raster.md,
  // "Synthesis").
  function automatic logic [73:0] mul_ops(
      input logic [2:0]  st,         // state_e of the step
      input logic [2:0]  k,          // k[0]: A or B (S_EDGE); k[2:1] edge; k: ATTR step
      input logic [2:0]  ai,
      input logic [383:0] v,         // {v0, v1, v2}, after the orientation swap
      input logic [10:0] ox,
      input logic [10:0] oy,
      input logic [24:0] r,
      input logic [47:0] bx,
      input logic [47:0] by,
      input logic [47:0] gx,
      input logic [47:0] gy);
    logic signed [20:0] x0, x1, x2, y0, y1, y2, cx, cy, ea_s, eb_s, oex, oey;
    logic signed [20:0] dx10, dy20, dx20, dy10, a1e, a2e, b1e, b2e, o0x, o0y;
    logic [23:0]        a0, a1, a2;
    logic signed [24:0] d1, d2;
    logic signed [47:0] ma;
    logic signed [25:0] mb;
    x0 = $signed({v[2*VW + XL + 19], v[2*VW + XL +: 20]});
    y0 = $signed({v[2*VW + YL + 19], v[2*VW + YL +: 20]});
    x1 = $signed({v[VW + XL + 19], v[VW + XL +: 20]});
    y1 = $signed({v[VW + YL + 19], v[VW + YL +: 20]});
    x2 = $signed({v[XL + 19], v[XL +: 20]});
    y2 = $signed({v[YL + 19], v[YL +: 20]});
    cx = $signed({6'd0, ox, 4'd8});
    cy = $signed({6'd0, oy, 4'd8});
    dx10 = x1 - x0;  dy20 = y2 - y0;  dx20 = x2 - x0;  dy10 = y1 - y0;
    a1e = y2 - y0;  a2e = y0 - y1;  b1e = x0 - x2;  b2e = x1 - x0;   // A1, A2, B1, B2
    o0x = cx - x0;  o0y = cy - y0;
    // edge k[2:1]: A, B and the offset of the origin from the edge's start vertex
    case (k[2:1])
      2'd0:    begin ea_s = y1 - y2; eb_s = x2 - x1; oex = cx - x1; oey = cy - y1; end
      2'd1:    begin ea_s = y2 - y0; eb_s = x0 - x2; oex = cx - x2; oey = cy - y2; end
      default: begin ea_s = y0 - y1; eb_s = x1 - x0; oex = cx - x0; oey = cy - y0; end
    endcase
    // attribute ai of each vertex (a mux, not a variable part-select)
    a0 = '0;  a1 = '0;  a2 = '0;
    case (ai)
      3'd0:    begin a0 = v[2*VW + ZL +: 24];  a1 = v[VW + ZL +: 24];  a2 = v[ZL +: 24];  end
      3'd1:    begin a0 = {16'd0, v[2*VW + CL + 0 +: 8]};  a1 = {16'd0, v[VW + CL + 0 +: 8]};
                     a2 = {16'd0, v[CL + 0 +: 8]};  end
      3'd2:    begin a0 = {16'd0, v[2*VW + CL + 8 +: 8]};  a1 = {16'd0, v[VW + CL + 8 +: 8]};
                     a2 = {16'd0, v[CL + 8 +: 8]};  end
      3'd3:    begin a0 = {16'd0, v[2*VW + CL + 16 +: 8]};  a1 = {16'd0, v[VW + CL + 16 +: 8]};
                     a2 = {16'd0, v[CL + 16 +: 8]};  end
      3'd4:    begin a0 = {16'd0, v[2*VW + CL + 24 +: 8]};  a1 = {16'd0, v[VW + CL + 24 +: 8]};
                     a2 = {16'd0, v[CL + 24 +: 8]};  end
      3'd5:    begin a0 = {8'd0, v[2*VW + UL +: 16]};  a1 = {8'd0, v[VW + UL +: 16]};
                     a2 = {8'd0, v[UL +: 16]};  end
      3'd6:    begin a0 = {8'd0, v[2*VW + VL +: 16]};  a1 = {8'd0, v[VW + VL +: 16]};
                     a2 = {8'd0, v[VL +: 16]};  end
      default: ;
    endcase
    d1 = $signed({1'b0, a1}) - $signed({1'b0, a0});
    d2 = $signed({1'b0, a2}) - $signed({1'b0, a0});
    ma = '0;
    mb = '0;
    if (st == S_D0) begin
      ma = 48'(dx10);  mb = 26'(dy20);
    end else if (st == S_D1) begin
      ma = 48'(dx20);  mb = 26'(dy10);
    end else if (st == S_EDGE) begin
      if (!k[0]) begin ma = 48'(ea_s); mb = 26'(oex); end
      else       begin ma = 48'(eb_s); mb = 26'(oey); end
    end else if (st == S_ATTR) begin
      case (k[2:0])
        3'd0:    begin ma = 48'(d1);  mb = 26'(a1e); end
        3'd1:    begin ma = 48'(d2);  mb = 26'(a2e); end
        3'd2:    begin ma = 48'(d1);  mb = 26'(b1e); end
        3'd3:    begin ma = 48'(d2);  mb = 26'(b2e); end
        3'd4:    begin ma = $signed(bx);  mb = $signed({1'b0, r}); end
        3'd5:    begin ma = $signed(by);  mb = $signed({1'b0, r}); end
        3'd6:    begin ma = $signed(gx);  mb = 26'(o0x); end
        default: begin ma = $signed(gy);  mb = 26'(o0y); end
      endcase
    end
    mul_ops = {ma, mb};
  endfunction

  // The next step, as st_d/k_d/ai_d give it (the operand registers need only the steps that
  // multiply).
  logic [2:0] nst;
  logic [2:0] nk;
  logic [2:0] nai;
  always_comb begin
    nst = S_IDLE;  nk = '0;  nai = ai_q;
    unique case (st_q)
      S_IDLE: if (start_i) nst = S_D0;
      S_D0:   nst = S_D1;
      S_DIV:  if (k_q == 0) nst = S_EDGE;
      S_EDGE: begin
        nst = S_EDGE;  nk = k_q[2:0] + 3'd1;
        if (k_q == 6'd5) begin nst = S_ATTR;  nk = '0;  nai = '0; end
      end
      S_ATTR: begin
        nst = S_ATTR;  nk = k_q[2:0] + 3'd1;
        if (k_q[2:0] == 3'd7 || (k_q[2:0] == 3'd0 && flat_q[ai_q])) begin
          nk = '0;  nai = ai_q + 3'd1;
          if (ai_q == attr_last) nst = S_IDLE;
        end
      end
      default: ;   // S_D1, S_NORM (then S_DIV or, degenerate, S_IDLE), S_DIV before its
                   // last bit: no product next
    endcase
  end

  // Registers the next step reads: the vertices and origin change only at start (the
  // orientation swap in S_D1 is followed by S_NORM and S_DIV, which multiply nothing); the
  // reciprocal, Gx, Gy, gx and gy are written at least one step before the one using them.
  logic signed [47:0] ma_q;
  logic signed [25:0] mb_q;
  logic [73:0]        ops_d;
  assign ops_d = mul_ops(nst, nk, nai, (st_q == S_IDLE) ? vtx_i : v_q,
                         (st_q == S_IDLE) ? ox_i : ox_q, (st_q == S_IDLE) ? oy_i : oy_q,
                         r_q, bigx_q, bigy_q, gx_q, gy_q);

  logic signed [73:0] prod;
  assign prod = ma_q * mb_q;

  // bitlen of |D| (D < 2^43)
  logic [5:0] dlen;
  always_comb begin
    dlen = '0;
    for (int b = 0; b < 44; b++) if (d_q[b]) dlen = 6'(b + 1);
  end

  logic signed [73:0] prod_sh;
  assign prod_sh = prod >>> (n_q + 6'd3);

  logic signed [47:0] dsigned;
  assign dsigned = t0_q - prod[47:0];

  logic [44:0] rr;
  always_comb begin
    rr = '0;
    st_d = st_q;  k_d = k_q;  ai_d = ai_q;  v_d = v_q;  ox_d = ox_q;  oy_d = oy_q;
    t0_d = t0_q;  d_d = d_q;  n_d = n_q;  dn_d = dn_q;  rem_d = rem_q;  r_d = r_q;
    gx_d = gx_q;  gy_d = gy_q;  bigx_d = bigx_q;  bigy_d = bigy_q;
    w_d = w_q;  pv_d = pv_q;  pgx_d = pgx_q;  pgy_d = pgy_q;
    done_d = 1'b0;  degen_d = degen_q;
    uv_en_d = uv_en_q;
    flat_d = flat_q;
    unique case (st_q)
      S_IDLE: if (start_i) begin
        v_d = vtx_i;  ox_d = ox_i;  oy_d = oy_i;  st_d = S_D0;
        uv_en_d = uv_en_i;
        if (!uv_en_i) begin   // u and v planes of an untextured primitive: 0
          pv_d[5*48 +: 96]  = '0;
          pgx_d[5*48 +: 96] = '0;
          pgy_d[5*48 +: 96] = '0;
        end
      end
      S_D0: begin t0_d = prod[47:0]; flat_d = flat; st_d = S_D1; end
      // D == 0 (degenerate) is tested on the registered |D| in S_NORM, one cycle later, not on
      // t0 - product here: a wide zero test right behind the multiplier is a node random
      // simulation never sets, and ABC's SAT sweeping (&fraig) spent minutes per such node
      // finding a product that sets it (the geometry's area test did the same,
      // docs/geometry.md).
      S_D1: begin
        // |D|: -D as prod - t0 rather than by negating D, whose carry chain (D's low bits all
        // zero) is the same kind of rare node
        if (dsigned[47]) begin
          d_d = prod[47:0] - t0_q;
          v_d = {v_q[2*VW +: VW], v_q[0 +: VW], v_q[VW +: VW]};
        end else begin
          d_d = dsigned;
        end
        st_d = S_NORM;
      end
      S_NORM: begin
        if (d_q == '0) begin
          degen_d = 1'b1;  done_d = 1'b1;  st_d = S_IDLE;
        end else begin
          degen_d = 1'b0;
          n_d   = dlen;
          dn_d  = {1'b0, d_q[43:0]} << (6'd43 - dlen);
          rem_d = 45'(1) << 42;
          r_d   = '0;
          k_d   = 6'd24;
          st_d  = S_DIV;
        end
      end
      S_DIV: begin
        rr = rem_q;
        if (rem_q >= dn_q) begin
          rr = rem_q - dn_q;
          r_d[k_q[4:0]] = 1'b1;
        end
        rem_d = rr << 1;
        if (k_q == 0) begin
          k_d = '0;  st_d = S_EDGE;
        end else begin
          k_d = k_q - 6'd1;
        end
      end
      S_EDGE: begin
        if (!k_q[0]) t0_d = prod[47:0];
        else begin
          for (int j = 0; j < 3; j++) if (ei == 2'(j)) w_d[j*48 +: 48] = t0_q + prod[47:0];
        end
        if (k_q == 6'd5) begin
          k_d = '0;  ai_d = '0;  st_d = S_ATTR;
        end else begin
          k_d = k_q + 6'd1;
        end
      end
      S_ATTR: if (k_q[2:0] == 3'd0 && flat_q[ai_q]) begin
        // a flat attribute: gradients 0, value a0 (plus the rounding half), no products
        for (int j = 0; j < 7; j++) begin
          if (ai_q == 3'(j)) begin
            pv_d[j*48 +: 48]  = 48'({a0s, 20'd0}) + 48'(20'h8_0000);
            pgx_d[j*48 +: 48] = '0;
            pgy_d[j*48 +: 48] = '0;
          end
        end
        if (ai_q == attr_last) begin
          done_d = 1'b1;  st_d = S_IDLE;
        end else begin
          ai_d = ai_q + 3'd1;
        end
      end else begin
        unique case (k_q[2:0])
          3'd0, 3'd2, 3'd6: t0_d = prod[47:0];
          3'd1: bigx_d = t0_q + prod[47:0];
          3'd3: bigy_d = t0_q + prod[47:0];
          3'd4: gx_d = prod_sh[47:0];
          default: ;
        endcase
        if (k_q[2:0] == 3'd5) gy_d = prod_sh[47:0];
        if (k_q[2:0] == 3'd7) begin
          for (int j = 0; j < 7; j++) begin
            if (ai_q == 3'(j)) begin
              pv_d[j*48 +: 48]  = 48'({a0s, 20'd0}) + 48'(20'h8_0000) + t0_q + prod[47:0];
              pgx_d[j*48 +: 48] = gx_q;
              pgy_d[j*48 +: 48] = gy_q;
            end
          end
          k_d = '0;
          if (ai_q == attr_last) begin
            done_d = 1'b1;  st_d = S_IDLE;
          end else begin
            ai_d = ai_q + 3'd1;
          end
        end else begin
          k_d = k_q + 6'd1;
        end
      end
      default: st_d = S_IDLE;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= S_IDLE;  k_q <= '0;  ai_q <= '0;  v_q <= '0;  ox_q <= '0;  oy_q <= '0;
      t0_q <= '0;  d_q <= '0;  n_q <= '0;  dn_q <= '0;  rem_q <= '0;  r_q <= '0;
      gx_q <= '0;  gy_q <= '0;  bigx_q <= '0;  bigy_q <= '0;
      w_q <= '0;  pv_q <= '0;  pgx_q <= '0;  pgy_q <= '0;  done_q <= 1'b0;  degen_q <= 1'b0;
      ma_q <= '0;  mb_q <= '0;
      uv_en_q <= 1'b0;
      flat_q <= '0;
    end else begin
      st_q <= st_d;  k_q <= k_d;  ai_q <= ai_d;  v_q <= v_d;  ox_q <= ox_d;  oy_q <= oy_d;
      t0_q <= t0_d;  d_q <= d_d;  n_q <= n_d;  dn_q <= dn_d;  rem_q <= rem_d;  r_q <= r_d;
      gx_q <= gx_d;  gy_q <= gy_d;  bigx_q <= bigx_d;  bigy_q <= bigy_d;
      w_q <= w_d;  pv_q <= pv_d;  pgx_q <= pgx_d;  pgy_q <= pgy_d;  done_q <= done_d;
      degen_q <= degen_d;
      {ma_q, mb_q} <= ops_d;
      uv_en_q <= uv_en_d;
      flat_q <= flat_d;
    end
  end

  assign ea_o = {ea2, ea1, ea0};
  assign eb_o = {eb2, eb1, eb0};
  assign w_o     = w_q;
  assign pv_o    = pv_q;
  assign pgx_o   = pgx_q;
  assign pgy_o   = pgy_q;
  assign done_o  = done_q;
  assign degen_o = degen_q;
  assign busy_o  = (st_q != S_IDLE) || done_q;

  // The registered operands are those of the current step (the select evaluated on it).
  `ASSERT(MulOpsOfThisStep_A, {ma_q, mb_q} == mul_ops(st_q, k_q[2:0], ai_q, v_q, ox_q, oy_q, r_q,
                                                      bigx_q, bigy_q, gx_q, gy_q))

  logic unused_t;
  assign unused_t = ^{prod_sh[73:48], prod[73:48], d_q[47:44], rr[44]};

endmodule
