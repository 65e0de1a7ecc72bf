// raster_tse -- triangle setup (TSE): one triangle's edge functions and attribute planes.
//
// Source: ARCHITECTURE.md 5.4 "TSE and GRAS: edge functions in fixed point, pixel centres at
// +0.5, the top-left fill rule ... interpolated with one fixed-point reciprocal per
// triangle"; 001_3630ef805e8956e2.txt (Qualcomm) names the TSE as the slice's setup unit.
// The arithmetic is specified in docs/raster.md ("Triangle setup"); this is a sequential
// implementation of it with two 48x26 signed multipliers (operands registered), scheduled
// around the one long step, the reciprocal's restoring division (docs/raster.md "TSE
// schedule", issue 16 item 5):
//   S_D0    the 2 products of D (registered, as every step's products: summed next cycle)
//   S_D1    D; orientation (swap v1, v2 when D < 0), |D|
//   S_NORM  D == 0 ends a degenerate triangle (3 cycles); n = bitlen(D)
//   S_DIV   R = floor(2^(n+23) / D), two bits per cycle (radix 4, 13 cycles). Meanwhile, on
//           the multipliers, everything that does not need R: the three edge functions at the
//           walk origin (1 cycle each) and Gx, Gy of each attribute (1 cycle each, parked in
//           the pgx/pgy output registers): 17 cycles textured, 13 untextured. S_DIV lasts
//           until both are done
//   S_GAP   the operands of the first R product take the last bit of R
//   S_C     per attribute gx = (Gx R) >> (n+3), gy (1 cycle) and its value at the origin
//           from gx, gy (1 cycle), interleaved so that no product waits for the one before
//   S_FIN   the last sum
// 36 cycles per setup, 28 for an untextured primitive (uv_en_i = 0: u and v, which the FS
// does not read then, are not set up and read as 0). It was 44 and 40 with one quotient bit
// per cycle, 90 and 74 on one multiplier.
// The raster slice runs it once per triangle, when the triangle enters the batch, with the
// origin at the triangle's first 8x8 block; raster_tse_bin moves the planes to each bin
// (docs/raster.md "Setup once per triangle"). The multipliers bound it now (64 products per
// textured triangle on two); a faster TSE needs more of them (docs/raster.md "Seams").

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

  typedef enum logic [2:0] {S_IDLE, S_D0, S_D1, S_NORM, S_DIV, S_GAP, S_C, S_FIN} state_e;
  // what a step multiplies (both multipliers): the product kinds
  typedef enum logic [2:0] {K_NONE, K_D, K_EDGE, K_GX, K_GY, K_C0, K_C1} kind_e;

  state_e             st_q, st_d;
  logic [4:0]         k_q, k_d;            // division: the next quotient bit (24, 22, .., 0)
  logic               dv_q, dv_d;          // the division is running
  logic [4:0]         b_q, b_d;            // S_DIV's product step (0, 1, ..)
  logic [3:0]         ck_q, ck_d;          // S_C step
  logic [383:0]       v_q, v_d;
  logic [10:0]        ox_q, ox_d, oy_q, oy_d;
  logic [47:0]        d_q, d_d;            // |D|
  logic [5:0]         n_q, n_d;            // bitlen(D)
  logic [44:0]        dn_q, dn_d;          // D << (43 - n)
  logic [44:0]        rem_q, rem_d;
  logic [24:0]        r_q, r_d;            // reciprocal
  logic [3*48-1:0]    w_q, w_d;
  // pgx/pgy hold Gx/Gy of attribute i from S_DIV until S_C replaces them by gx/gy
  logic [7*48-1:0]    pv_q, pv_d, pgx_q, pgx_d, pgy_q, pgy_d;
  logic               done_q, done_d, degen_q, degen_d;
  logic               uv_en_q, uv_en_d;
  logic [3:0]         nattr;               // attributes set up: 7, or 5 (z, r, g, b, a)
  assign nattr = uv_en_q ? 4'd7 : 4'd5;

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

  // attribute a (z, R, G, B, A, u, v) of vertex i of v (a mux, not a variable part-select)
  function automatic logic [23:0] attr_of(input logic [383:0] v, input logic [1:0] i,
                                          input logic [2:0] a);
    // only the attribute fields are read (x, y and the rest of the vertex are not)
    /* verilator lint_off UNUSEDSIGNAL */
    logic [VW-1:0] vi;
    /* verilator lint_on UNUSEDSIGNAL */
    vi = (i == 2'd0) ? v[2*VW +: VW] : (i == 2'd1) ? v[VW +: VW] : v[0 +: VW];
    unique case (a)
      3'd0:    attr_of = vi[ZL +: 24];
      3'd1:    attr_of = {16'd0, vi[CL + 0 +: 8]};
      3'd2:    attr_of = {16'd0, vi[CL + 8 +: 8]};
      3'd3:    attr_of = {16'd0, vi[CL + 16 +: 8]};
      3'd4:    attr_of = {16'd0, vi[CL + 24 +: 8]};
      3'd5:    attr_of = {8'd0, vi[UL +: 16]};
      default: attr_of = {8'd0, vi[VL +: 16]};
    endcase
  endfunction

  logic signed [20:0] vx0, vx1, vx2, vy0, vy1, vy2;
  assign vx0 = $signed({v_q[2*VW + XL + 19], v_q[2*VW + XL +: 20]});
  assign vy0 = $signed({v_q[2*VW + YL + 19], v_q[2*VW + YL +: 20]});
  assign vx1 = $signed({v_q[VW + XL + 19], v_q[VW + XL +: 20]});
  assign vy1 = $signed({v_q[VW + YL + 19], v_q[VW + YL +: 20]});
  assign vx2 = $signed({v_q[XL + 19], v_q[XL +: 20]});
  assign vy2 = $signed({v_q[YL + 19], v_q[YL +: 20]});

  // edge i is opposite vertex i: A = -(dy), B = dx of the directed edge, anchor its start
  logic signed [20:0] ea0, ea1, ea2, eb0, eb1, eb2;
  assign ea0 = vy1 - vy2;  assign eb0 = vx2 - vx1;
  assign ea1 = vy2 - vy0;  assign eb1 = vx0 - vx2;
  assign ea2 = vy0 - vy1;  assign eb2 = vx1 - vx0;

  // ---- the step schedule -------------------------------------------------------------------
  // A step is (kind, index): K_EDGE j, K_GX/K_GY/K_C0/K_C1 attribute i. Its two products are
  // registered (p0_q, p1_q) and summed or shifted into their register the cycle after. S_DIV's
  // cycle b runs edge b (b < 3), then Gx, Gy of attribute (b - 3) / 2. S_C's step c
  // runs C0 (gx, gy) of attributes 0, 1, 2, then C1 (the value at the origin) of i and C0 of
  // i + 3 in turn, and the last C1s: C1 of i comes at least 3 steps after C0 of i, whose gx_i
  // is written 2 steps after it starts and read by the operand select the step before C1.
  function automatic logic [6:0] step_of(input logic [2:0] st, input logic [4:0] b,
                                         input logic [3:0] c, input logic [3:0] na);
    logic [2:0] kind, idx;
    logic [4:0] j;
    kind = K_NONE;  idx = '0;
    j = b - 5'd3;
    if (st == S_D0) begin
      kind = K_D;
    end else if (st == S_DIV) begin
      if (b < 5'd3) begin
        kind = K_EDGE;  idx = b[2:0];
      end else if (j < {na, 1'b0}) begin
        kind = j[0] ? K_GY : K_GX;  idx = j[3:1];
      end
    end else if (st == S_C) begin
      if (c < 4'd3) begin
        kind = K_C0;  idx = c[2:0];
      end else if (c >= {na[2:0], 1'b0} - 4'd2) begin
        kind = K_C1;  idx = 3'(c - na);
      end else if (c[0]) begin
        kind = K_C1;  idx = 3'((c - 4'd3) >> 1);
      end else begin
        kind = K_C0;  idx = 3'((c + 4'd2) >> 1);
      end
    end
    step_of = {kind, idx, 1'b0};
  endfunction

  // ---- the two multipliers ------------------------------------------------------------------
  // Their operands come from flops: the select is a function of the step and of registers,
  // evaluated one cycle early on the next step and registered, so the products of step s are
  // on prod0/prod1 in step s with no added cycle, and the multipliers' inputs are free flops
  // rather than a mux of vertex differences. With that mux in front, ABC's SAT sweeping
  // (&fraig) spent over 5 minutes on the TSE's logic in the raster slice, seconds without it
  // (docs/raster.md, "Synthesis"). Every register a step reads was written at least one step
  // before it (the schedule above), so the select sees the values the step needs.
  function automatic logic [147:0] mul_ops(
      input logic [2:0]   kind,
      input logic [2:0]   idx,
      input logic [383:0] v,          // {v0, v1, v2}, after the orientation swap
      input logic [10:0]  ox,
      input logic [10:0]  oy,
      input logic [24:0]  r,
      input logic [7*48-1:0] gxs,     // Gx (K_C0) or gx (K_C1) of each attribute
      input logic [7*48-1:0] gys);
    logic signed [20:0] x0, x1, x2, y0, y1, y2, cx, cy, ea_s, eb_s, oex, oey, o0x, o0y;
    logic signed [20:0] a1e, a2e, b1e, b2e, dx10, dy20, dx20, dy10;
    logic [23:0]        a0, a1, a2;
    logic signed [24:0] d1, d2;
    logic signed [47:0] ma0, ma1, gxi, gyi;
    logic signed [25:0] mb0, mb1;
    x0 = $signed({v[2*VW + XL + 19], v[2*VW + XL +: 20]});
    y0 = $signed({v[2*VW + YL + 19], v[2*VW + YL +: 20]});
    x1 = $signed({v[VW + XL + 19], v[VW + XL +: 20]});
    y1 = $signed({v[VW + YL + 19], v[VW + YL +: 20]});
    x2 = $signed({v[XL + 19], v[XL +: 20]});
    y2 = $signed({v[YL + 19], v[YL +: 20]});
    cx = $signed({6'd0, ox, 4'd8});
    cy = $signed({6'd0, oy, 4'd8});
    a1e = y2 - y0;  a2e = y0 - y1;  b1e = x0 - x2;  b2e = x1 - x0;   // A1, A2, B1, B2
    dx10 = x1 - x0;  dy20 = y2 - y0;  dx20 = x2 - x0;  dy10 = y1 - y0;
    o0x = cx - x0;  o0y = cy - y0;
    // edge idx: A, B and the offset of the origin from the edge's start vertex
    case (idx[1:0])
      2'd0:    begin ea_s = y1 - y2; eb_s = x2 - x1; oex = cx - x1; oey = cy - y1; end
      2'd1:    begin ea_s = y2 - y0; eb_s = x0 - x2; oex = cx - x2; oey = cy - y2; end
      default: begin ea_s = y0 - y1; eb_s = x1 - x0; oex = cx - x0; oey = cy - y0; end
    endcase
    a0 = attr_of(v, 2'd0, idx);
    a1 = attr_of(v, 2'd1, idx);
    a2 = attr_of(v, 2'd2, idx);
    d1 = $signed({1'b0, a1}) - $signed({1'b0, a0});
    d2 = $signed({1'b0, a2}) - $signed({1'b0, a0});
    gxi = '0;
    gyi = '0;
    for (int i = 0; i < 7; i++) begin
      if (idx == 3'(i)) begin
        gxi = $signed(gxs[i*48 +: 48]);
        gyi = $signed(gys[i*48 +: 48]);
      end
    end
    ma0 = '0;  mb0 = '0;  ma1 = '0;  mb1 = '0;
    unique case (kind)
      K_D: begin      // (X1 - X0)(Y2 - Y0), (X2 - X0)(Y1 - Y0)
        ma0 = 48'(dx10);  mb0 = 26'(dy20);
        ma1 = 48'(dx20);  mb1 = 26'(dy10);
      end
      K_EDGE: begin
        ma0 = 48'(ea_s);  mb0 = 26'(oex);
        ma1 = 48'(eb_s);  mb1 = 26'(oey);
      end
      K_GX: begin
        ma0 = 48'(d1);  mb0 = 26'(a1e);
        ma1 = 48'(d2);  mb1 = 26'(a2e);
      end
      K_GY: begin
        ma0 = 48'(d1);  mb0 = 26'(b1e);
        ma1 = 48'(d2);  mb1 = 26'(b2e);
      end
      K_C0: begin
        ma0 = gxi;  mb0 = $signed({1'b0, r});
        ma1 = gyi;  mb1 = $signed({1'b0, r});
      end
      K_C1: begin
        ma0 = gxi;  mb0 = 26'(o0x);
        ma1 = gyi;  mb1 = 26'(o0y);
      end
      default: ;
    endcase
    mul_ops = {ma0, mb0, ma1, mb1};
  endfunction

  // ---- control --------------------------------------------------------------------------------
  logic [6:0] cur_step;        // {kind, idx, 0} of this cycle
  logic [2:0] cur_kind, cur_idx;
  logic [2:0] pk_q, pi_q;      // the step whose products are in p0_q, p1_q
  logic       unused_step, unused_nxt;
  assign cur_step = step_of(st_q, b_q, ck_q, nattr);
  assign cur_kind = cur_step[6:4];
  assign cur_idx  = cur_step[3:1];
  assign unused_step = cur_step[0];

  // bitlen of |D| (D < 2^43)
  logic [5:0] dlen;
  always_comb begin
    dlen = '0;
    for (int b = 0; b < 44; b++) if (d_q[b]) dlen = 6'(b + 1);
  end

  logic signed [47:0] ma0_q, ma1_q;
  logic signed [25:0] mb0_q, mb1_q;
  // The products are registered before they are summed: a 48x26 product and a four-operand
  // sum in one cycle made the TSE 3 LUT levels deeper than the one-multiplier version.
  logic signed [73:0] prod0, prod1, p0_q, p1_q, prod0_sh, prod1_sh;
  assign prod0 = ma0_q * mb0_q;
  assign prod1 = ma1_q * mb1_q;
  assign prod0_sh = p0_q >>> (n_q + 6'd3);
  assign prod1_sh = p1_q >>> (n_q + 6'd3);

  logic signed [47:0] dsigned;
  assign dsigned = p0_q[47:0] - p1_q[47:0];

  logic [23:0] a0c;            // attribute pi_q of vertex 0 (its value at the origin)
  assign a0c = attr_of(v_q, 2'd0, pi_q);

  logic [44:0] rr, rr1;
  logic        last_pre;     // S_DIV's last step that does not need R
  assign last_pre = b_q == 5'd2 + {nattr, 1'b0};
  always_comb begin
    rr = '0;  rr1 = '0;
    st_d = st_q;  k_d = k_q;  ck_d = ck_q;  v_d = v_q;  ox_d = ox_q;  oy_d = oy_q;
    dv_d = dv_q;  b_d = b_q;
    d_d = d_q;  n_d = n_q;  dn_d = dn_q;  rem_d = rem_q;  r_d = r_q;
    w_d = w_q;  pv_d = pv_q;  pgx_d = pgx_q;  pgy_d = pgy_q;
    done_d = 1'b0;  degen_d = degen_q;
    uv_en_d = uv_en_q;
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
      // |D|: -D as p1 - p0 rather than by negating D, whose carry chain (D's low bits all
      // zero) is a node random simulation never sets; ABC's SAT sweeping (&fraig) spent
      // minutes per such node. D == 0 is tested on the registered |D| in S_NORM for the same
      // reason (the geometry's area test did the same, docs/geometry.md).
      S_D0: st_d = S_D1;
      S_D1: begin
        if (dsigned[47]) begin
          d_d = p1_q[47:0] - p0_q[47:0];
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
          k_d   = 5'd24;
          dv_d  = 1'b1;
          b_d   = '0;
          st_d  = S_DIV;
        end
      end
      S_DIV: begin
        // Restoring division, bits k and k - 1 (bit 0 alone at the end). rem < 2 dn holds
        // before every bit (rem starts at 2^42 <= dn), so one compare per bit.
        if (dv_q) begin
          rr = rem_q;
          if (rem_q >= dn_q) begin
            rr = rem_q - dn_q;
            r_d[k_q] = 1'b1;
          end
          rr1 = rr << 1;
          if (k_q == 5'd0) begin
            rem_d = rr1;
            dv_d  = 1'b0;
          end else begin
            if (rr1 >= dn_q) begin
              rr1 = rr1 - dn_q;
              r_d[k_q - 5'd1] = 1'b1;
            end
            rem_d = rr1 << 1;
            k_d   = k_q - 5'd2;
          end
        end
        b_d = b_q + 5'd1;
        // done when the quotient's last bit and the last product that does not need R are
        if ((!dv_q || k_q == 5'd0) && last_pre) st_d = S_GAP;
      end
      S_GAP: begin
        ck_d = '0;
        st_d = S_C;
      end
      S_C: begin
        if (ck_q == {nattr[2:0], 1'b0} - 4'd1) begin
          st_d = S_FIN;               // the last sum is written in S_FIN
        end else begin
          ck_d = ck_q + 4'd1;
        end
      end
      S_FIN: begin
        done_d = 1'b1;  st_d = S_IDLE;
      end
      default: st_d = S_IDLE;
    endcase
    // the products of the last step
    for (int j = 0; j < 7; j++) begin
      if (pi_q == 3'(j)) begin
        unique case (pk_q)
          K_EDGE: if (j < 3) w_d[j*48 +: 48] = p0_q[47:0] + p1_q[47:0];
          K_GX:   pgx_d[j*48 +: 48] = p0_q[47:0] + p1_q[47:0];
          K_GY:   pgy_d[j*48 +: 48] = p0_q[47:0] + p1_q[47:0];
          K_C0: begin
            pgx_d[j*48 +: 48] = prod0_sh[47:0];
            pgy_d[j*48 +: 48] = prod1_sh[47:0];
          end
          K_C1: pv_d[j*48 +: 48] = 48'({a0c, 20'd0}) + 48'(20'h8_0000) + p0_q[47:0] + p1_q[47:0];
          default: ;
        endcase
      end
    end
  end

  // The next step's operands: the step st_d/k_d/ck_d give, from the registers as they are now
  // (or the inputs, at start).
  logic [6:0]   nxt_step;
  logic [147:0] ops_d;
  assign nxt_step = step_of(st_d, b_d, ck_d, (st_q == S_IDLE) ? (uv_en_i ? 4'd7 : 4'd5) : nattr);
  assign ops_d = mul_ops(nxt_step[6:4], nxt_step[3:1], (st_q == S_IDLE) ? vtx_i : v_q,
                         (st_q == S_IDLE) ? ox_i : ox_q, (st_q == S_IDLE) ? oy_i : oy_q,
                         r_q, pgx_q, pgy_q);
  assign unused_nxt = nxt_step[0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= S_IDLE;
      k_q <= '0;
      dv_q <= 1'b0;
      b_q <= '0;
      ck_q <= '0;
      v_q <= '0;
      ox_q <= '0;
      oy_q <= '0;
      d_q <= '0;
      n_q <= '0;
      dn_q <= '0;
      rem_q <= '0;
      r_q <= '0;
      w_q <= '0;
      pv_q <= '0;
      pgx_q <= '0;
      pgy_q <= '0;
      done_q <= 1'b0;
      degen_q <= 1'b0;
      ma0_q <= '0;
      mb0_q <= '0;
      ma1_q <= '0;
      mb1_q <= '0;
      p0_q <= '0;
      p1_q <= '0;
      pk_q <= K_NONE;
      pi_q <= '0;
      uv_en_q <= 1'b0;
    end else begin
      st_q <= st_d;
      k_q <= k_d;
      dv_q <= dv_d;
      b_q <= b_d;
      ck_q <= ck_d;
      v_q <= v_d;
      ox_q <= ox_d;
      oy_q <= oy_d;
      d_q <= d_d;
      n_q <= n_d;
      dn_q <= dn_d;
      rem_q <= rem_d;
      r_q <= r_d;
      w_q <= w_d;
      pv_q <= pv_d;
      pgx_q <= pgx_d;
      pgy_q <= pgy_d;
      done_q <= done_d;
      degen_q <= degen_d;
      {ma0_q, mb0_q, ma1_q, mb1_q} <= ops_d;
      p0_q <= prod0;
      p1_q <= prod1;
      pk_q <= cur_kind;
      pi_q <= cur_idx;
      uv_en_q <= uv_en_d;
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
  `ASSERT(MulOpsOfThisStep_A, st_q != S_IDLE |-> {ma0_q, mb0_q, ma1_q, mb1_q} ==
                              mul_ops(cur_kind, cur_idx, v_q, ox_q, oy_q, r_q, pgx_q, pgy_q))
  // S_DIV ends with the quotient complete and every product that does not need R done.
  `ASSERT(DivDoneAtGap_A, st_q == S_DIV && st_d == S_GAP |-> (!dv_q || k_q == 5'd0) && last_pre)
  // The quotient bits come two at a time from 24: k is even while the division runs.
  `ASSERT(DivBitsEven_A, dv_q |-> !k_q[0])
`ifndef SYNTHESIS
  // C1 of an attribute reads the gx, gy its C0 wrote, never the Gx, Gy parked before: when
  // its operands are selected, that C0's result is in pgx/pgy.
  logic [6:0] gx_ready_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      gx_ready_q <= '0;
    end else if (st_q == S_IDLE) begin
      gx_ready_q <= '0;
    end else if (pk_q == K_C0) begin
      gx_ready_q[pi_q] <= 1'b1;
    end
  end
  `ASSERT(C1ReadsItsC0_A, nxt_step[6:4] == K_C1 |-> gx_ready_q[nxt_step[3:1]])
`endif

  logic unused_t;
  assign unused_t = ^{prod0_sh[73:48], prod1_sh[73:48], d_q[47:44], rr1[44]};

endmodule
