// raster_tse -- triangle setup (TSE): one triangle's edge functions and attribute planes.
//
// Source: ARCHITECTURE.md 5.4 "TSE and GRAS: edge functions in fixed point, pixel centres at
// +0.5, the top-left fill rule ... interpolated with one fixed-point reciprocal per
// triangle"; 001_3630ef805e8956e2.txt (Qualcomm) names the TSE as the slice's setup unit.
// The arithmetic is specified in docs/raster.md ("Triangle setup"); this is a sequential
// implementation of it with two 48x26 signed multipliers (operands registered), scheduled
// around the one long step, the reciprocal's restoring division (docs/raster.md "TSE
// schedule", issue 16 item 5):
//   S_D0    the 2 products of D (registered in carry-save form, as every step's products:
//           resolved by the adder that sums them the cycle after); the vertex differences
//           (edge coefficients and their negations, the origin's offsets, d1/d2 per attribute)
//           are registered from v_q
//   S_D1    D and -D side by side; orientation: when D < 0 the differences are permuted as
//           swapping v1, v2 would change them; |D|
//   S_NORM  D == 0 ends a degenerate triangle (3 cycles); n = bitlen(D)
//   S_DIV   R = floor(2^(n+23) / D), two bits per cycle (radix 4, compares against dn, 2dn
//           and a registered 3dn side by side; 13 cycles). Meanwhile, on the multipliers,
//           everything that does not need R: the three edge functions at the walk origin
//           (1 cycle each) and Gx, Gy of each attribute (1 cycle each, parked in the pgx/pgy
//           output registers): 17 cycles textured, 13 untextured. S_DIV lasts until both
//           are done
//   S_GAP   the operands of the first R product take the last bit of R
//   S_C     per attribute gx = (Gx R) >> (n+3), gy (C0: resolved the cycle after the
//           products, shifted the cycle after that) and its value at the origin from gx, gy
//           (C1, 1 cycle), interleaved so that no C1 waits for its C0 (4 steps apart)
//   S_FIN   the last sum
// Every path is at most 10 LUT6 levels (it was 23: the multipliers' ripple-carry final add,
// the operand select's vertex subtractions, the 48-bit sums): docs/raster.md "TSE depth".
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

  localparam int unsigned PW = 74;         // product width (48 x 26 signed)

  state_e             st_q, st_d;
  logic [4:0]         k_q, k_d;            // division: the next quotient bit (24, 22, .., 0)
  logic               dv_q, dv_d;          // the division is running
  logic [4:0]         b_q, b_d;            // S_DIV's product step (0, 1, ..)
  logic [3:0]         ck_q, ck_d;          // S_C step
  logic [383:0]       v_q, v_d;            // {v0, v1, v2} as given (the swap is swap_q)
  logic [10:0]        ox_q, ox_d, oy_q, oy_d;
  logic               swap_q, swap_d;      // D < 0: vertices 1 and 2 swapped
  logic [47:0]        d_q, d_d;            // |D|
  logic [5:0]         n_q, n_d;            // bitlen(D)
  logic [44:0]        dn_q, dn_d;          // D << (43 - n)
  logic [44:0]        dn3_q, dn3_d;        // 3 dn (valid from S_DIV's second cycle)
  logic [44:0]        rem_q, rem_d;
  logic [24:0]        r_q, r_d;            // reciprocal
  logic [3*48-1:0]    w_q, w_d;
  // pgx/pgy hold Gx/Gy of attribute i from S_DIV until S_C replaces them by gx/gy
  logic [7*48-1:0]    pv_q, pv_d, pgx_q, pgx_d, pgy_q, pgy_d;
  logic               done_q, done_d, degen_q, degen_d;
  logic               uv_en_q, uv_en_d;
  logic [3:0]         nattr;               // attributes set up: 7, or 5 (z, r, g, b, a)
  assign nattr = uv_en_q ? 4'd7 : 4'd5;

  // The setup's differences, registered (issue: "TSE and GRAS at most 12 LUT levels"): S_D0
  // computes them from v_q while the products of D are in flight, S_D1 applies the orientation
  // (swapping v1 and v2 permutes them: the edge coefficients become the negated ones, which
  // are registered too), so that from S_NORM on the operand select is a mux of registers.
  logic [3*21-1:0]    ea_q, ea_d, eb_q, eb_d;   // A_j, B_j of edge j (after the swap)
  logic [3*21-1:0]    na_q, na_d, nb_q, nb_d;   // -A_j, -B_j (before the swap; S_D1 reads them)
  logic [3*21-1:0]    ovx_q, ovx_d, ovy_q, ovy_d; // cx - x_i, cy - y_i of vertex i
  // d1 = a1 - a0, d2 = a2 - a0 per attribute, each in its width (z 25 bits, colors 9, u, v 17)
  localparam int unsigned ADW = 25 + 4 * 9 + 2 * 17;
  logic [ADW-1:0]     ad1_q, ad1_d, ad2_q, ad2_d;

  // ---- vertex fields ------------------------------------------------------------------------
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

  // x or y (c = 0, 1) of vertex i of v, sign-extended to 21 bits
  function automatic logic signed [20:0] xy_of(input logic [383:0] v, input int i,
                                               input logic c);
    logic [19:0] f;
    f = c ? v[(2 - i) * VW + YL +: 20] : v[(2 - i) * VW + XL +: 20];
    xy_of = $signed({f[19], f});
  endfunction

  logic signed [20:0] vx0, vx1, vx2, vy0, vy1, vy2, cx, cy;
  assign vx0 = xy_of(v_q, 0, 1'b0);  assign vy0 = xy_of(v_q, 0, 1'b1);
  assign vx1 = xy_of(v_q, 1, 1'b0);  assign vy1 = xy_of(v_q, 1, 1'b1);
  assign vx2 = xy_of(v_q, 2, 1'b0);  assign vy2 = xy_of(v_q, 2, 1'b1);
  assign cx = $signed({6'd0, ox_q, 4'd8});
  assign cy = $signed({6'd0, oy_q, 4'd8});

  // the differences of attribute a between vertex i and v0, in the packed widths of ad1_q
  function automatic logic [ADW-1:0] ad_pack(input logic [383:0] v, input logic [1:0] i);
    // a color's difference has 9 significant bits, a u or v one 17
    /* verilator lint_off UNUSEDSIGNAL */
    logic [7*25-1:0] d;
    /* verilator lint_on UNUSEDSIGNAL */
    for (int a = 0; a < 7; a++) begin
      d[a*25 +: 25] = {1'b0, attr_of(v, i, 3'(a))} - {1'b0, attr_of(v, 2'd0, 3'(a))};
    end
    ad_pack = {d[6*25 +: 17], d[5*25 +: 17], d[4*25 +: 9], d[3*25 +: 9], d[2*25 +: 9], d[1*25 +: 9],
               d[0 +: 25]};
  endfunction
  // attribute a's difference from a packed vector, sign-extended to 25 bits
  function automatic logic [24:0] ad_get(input logic [ADW-1:0] p, input logic [2:0] a);
    unique case (a)
      3'd0:    ad_get = p[24:0];
      3'd1:    ad_get = 25'($signed(p[25 +: 9]));
      3'd2:    ad_get = 25'($signed(p[34 +: 9]));
      3'd3:    ad_get = 25'($signed(p[43 +: 9]));
      3'd4:    ad_get = 25'($signed(p[52 +: 9]));
      3'd5:    ad_get = 25'($signed(p[61 +: 17]));
      default: ad_get = 25'($signed(p[78 +: 17]));
    endcase
  endfunction

  // S_D0's differences, from v_q as loaded. Edge j is opposite vertex j: A = -(dy), B = dx of
  // the directed edge, anchored at its start (v1, v2, v0).
  logic [3*21-1:0] ea_v, eb_v, na_v, nb_v, ovx_v, ovy_v;
  logic [ADW-1:0] ad1_v, ad2_v;
  always_comb begin
    ea_v = {21'(vy0 - vy1), 21'(vy2 - vy0), 21'(vy1 - vy2)};
    eb_v = {21'(vx1 - vx0), 21'(vx0 - vx2), 21'(vx2 - vx1)};
    na_v = {21'(vy1 - vy0), 21'(vy0 - vy2), 21'(vy2 - vy1)};
    nb_v = {21'(vx0 - vx1), 21'(vx2 - vx0), 21'(vx1 - vx2)};
    ovx_v = {21'(cx - vx2), 21'(cx - vx1), 21'(cx - vx0)};
    ovy_v = {21'(cy - vy2), 21'(cy - vy1), 21'(cy - vy0)};
    ad1_v = ad_pack(v_q, 2'd1);
    ad2_v = ad_pack(v_q, 2'd2);
  end

  // ---- the step schedule -------------------------------------------------------------------
  // A step is (kind, index): K_EDGE j, K_GX/K_GY/K_C0/K_C1 attribute i. Its two products are
  // registered in carry-save form and summed into their register the cycle after (a C0's are
  // resolved the cycle after and shifted into pgx/pgy the cycle after that). S_DIV's cycle b
  // runs edge b (b < 3), then Gx, Gy of attribute (b - 3) / 2. S_C's step c runs C0 (gx, gy)
  // of attributes 0..3, then C1 (the value at the origin) of i and C0 of i + 4 in turn, and the
  // last C1s: C1 of i comes at least 4 steps after C0 of i, whose gx_i is written 3 steps after
  // it starts and read by the operand select the step before C1.
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
      if (c < 4'd4) begin
        kind = K_C0;  idx = c[2:0];
      end else if (c >= {na[2:0], 1'b0} - 4'd4) begin
        kind = K_C1;  idx = 3'(c - na);
      end else if (!c[0]) begin
        kind = K_C1;  idx = 3'((c - 4'd4) >> 1);
      end else begin
        kind = K_C0;  idx = 3'((c + 4'd3) >> 1);
      end
    end
    step_of = {kind, idx, 1'b0};
  endfunction

  // ---- the two multipliers ------------------------------------------------------------------
  // raster_tse_mul: a * b + e modulo 2^74 in carry-save form (Baugh-Wooley rows, a 3:2 tree,
  // 6 LUT levels), resolved by the consumer's adder the cycle after.

  // ---- control --------------------------------------------------------------------------------
  logic [6:0] cur_step;        // {kind, idx, 0} of this cycle
  logic [2:0] cur_kind, cur_idx;
  logic [2:0] pk_q, pi_q;      // the step whose products are in ps*_q/pc*_q
  logic [2:0] rk_q, ri_q;      // the step whose resolved products are in pr0_q, pr1_q
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
  logic [47:0]        mc0_q;       // K_C1: the plane's constant part, added into product 0
  logic [PW-1:0]      ps0_q, pc0_q, ps1_q, pc1_q;
  logic [PW-1:0]      ps0, pc0, ps1, pc1;
  raster_tse_mul u_mul0 (.a_i(ma0_q), .b_i(mb0_q), .e_i(mc0_q), .s_o(ps0), .c_o(pc0));
  raster_tse_mul u_mul1 (.a_i(ma1_q), .b_i(mb1_q), .e_i(48'd0), .s_o(ps1), .c_o(pc1));

  // The sum of a step's two products (low 48 bits), or for K_D their difference D: a 4:2
  // compressor and a prefix adder. -x = ~x + 1, so p0 - p1 = s0 + c0 + ~s1 + ~c1 + 2: the 2 is
  // the first compressor's free carry bit 0 and the carry in.
  logic        sub_d;
  logic [47:0] sx, cx1, sy, cy1, sum48;
  logic        unused_co;
  assign sub_d = pk_q == K_D;
  assign sx  = ps0_q[47:0] ^ pc0_q[47:0] ^ (ps1_q[47:0] ^ {48{sub_d}});
  assign cx1 = {(ps0_q[46:0] & pc0_q[46:0]) | (ps0_q[46:0] & (ps1_q[46:0] ^ {47{sub_d}})) |
                (pc0_q[46:0] & (ps1_q[46:0] ^ {47{sub_d}})), sub_d};
  assign sy  = sx ^ cx1 ^ (pc1_q[47:0] ^ {48{sub_d}});
  assign cy1 = {(sx[46:0] & cx1[46:0]) | (sx[46:0] & (pc1_q[46:0] ^ {47{sub_d}})) |
                (cx1[46:0] & (pc1_q[46:0] ^ {47{sub_d}})), 1'b0};
  prim_add #(.WIDTH(48)) u_sum (.a_i(sy), .b_i(cy1), .ci_i(sub_d), .sum_o(sum48), .co_o(unused_co));

  // S_D1: -D = p1 - p0 = s1 + c1 + ~s0 + ~c0 + 2 beside D (rather than negating D, whose carry
  // chain, D's low bits all zero, is a node random simulation never sets: ABC's SAT sweeping
  // spent minutes per such node). D == 0 is tested on the registered |D| in S_NORM for the same
  // reason (the geometry's area test did the same, docs/geometry.md).
  logic [47:0] nx, ncx, ny, ncy, negd;
  logic        unused_nco;
  assign nx  = ps1_q[47:0] ^ pc1_q[47:0] ^ ~ps0_q[47:0];
  assign ncx = {(ps1_q[46:0] & pc1_q[46:0]) | (ps1_q[46:0] & ~ps0_q[46:0]) |
                (pc1_q[46:0] & ~ps0_q[46:0]), 1'b1};
  assign ny  = nx ^ ncx ^ ~pc0_q[47:0];
  assign ncy = {(nx[46:0] & ncx[46:0]) | (nx[46:0] & ~pc0_q[46:0]) | (ncx[46:0] & ~pc0_q[46:0]),
                1'b0};
  prim_add #(.WIDTH(48)) u_negd (.a_i(ny), .b_i(ncy), .ci_i(1'b1), .sum_o(negd), .co_o(unused_nco));

  // K_C0: the full products, resolved the cycle after (pr0_q, pr1_q), shifted the cycle after
  logic [PW-1:0] pr0, pr1, pr0_q, pr1_q;
  logic          unused_rco0, unused_rco1;
  prim_add #(.WIDTH(PW)) u_res0 (.a_i(ps0_q), .b_i(pc0_q), .ci_i(1'b0), .sum_o(pr0), .co_o(unused_rco0));
  prim_add #(.WIDTH(PW)) u_res1 (.a_i(ps1_q), .b_i(pc1_q), .ci_i(1'b0), .sum_o(pr1), .co_o(unused_rco1));
  logic signed [PW-1:0] prod0_sh, prod1_sh;
  assign prod0_sh = $signed(pr0_q) >>> (n_q + 6'd3);
  assign prod1_sh = $signed(pr1_q) >>> (n_q + 6'd3);

  // S_DIV: radix 4 with the three compares side by side: with Y = 2 rem < 4 dn, the quotient
  // digit is q = floor(Y / dn) (compares against dn, 2 dn, 3 dn) and the next rem is
  // 2 (Y - q dn). Bit for bit the restoring division's two serial bits (rem >= dn, then
  // 2 rr >= dn). 3 dn is registered (dn3_q, from S_DIV's second cycle); in the first cycle
  // rem = 2^42 and dn >= 2^42, so Y < 3 dn there.
  logic [44:0] dy, dy1, dy2, dy3;
  logic        ge1, ge2, ge3, ge3_ok;
  logic        unused_dco;
  assign dy = {rem_q[43:0], 1'b0};
  prim_add #(.WIDTH(45)) u_div1 (.a_i(dy), .b_i(~dn_q), .ci_i(1'b1), .sum_o(dy1), .co_o(ge1));
  prim_add #(.WIDTH(45)) u_div2 (.a_i(dy), .b_i(~{dn_q[43:0], 1'b0}), .ci_i(1'b1), .sum_o(dy2),
                                 .co_o(ge2));
  prim_add #(.WIDTH(45)) u_div3 (.a_i(dy), .b_i(~dn3_q), .ci_i(1'b1), .sum_o(dy3), .co_o(ge3));
  prim_add #(.WIDTH(45)) u_dn3 (.a_i(dn_q), .b_i({dn_q[43:0], 1'b0}), .ci_i(1'b0), .sum_o(dn3_d),
                                .co_o(unused_dco));
  assign ge3_ok = ge3 && (k_q != 5'd24);

  logic [23:0] a0c;            // attribute of vertex 0 (its value at the origin), for mc0
  logic [2:0]  nxt_idx_c;
  assign a0c = attr_of(v_q, 2'd0, nxt_idx_c);

  logic        last_pre;     // S_DIV's last step that does not need R
  assign last_pre = b_q == 5'd2 + {nattr, 1'b0};
  always_comb begin
    st_d = st_q;  k_d = k_q;  ck_d = ck_q;  v_d = v_q;  ox_d = ox_q;  oy_d = oy_q;
    dv_d = dv_q;  b_d = b_q;  swap_d = swap_q;
    d_d = d_q;  n_d = n_q;  dn_d = dn_q;  rem_d = rem_q;  r_d = r_q;
    w_d = w_q;  pv_d = pv_q;  pgx_d = pgx_q;  pgy_d = pgy_q;
    ea_d = ea_q;  eb_d = eb_q;  na_d = na_q;  nb_d = nb_q;
    ovx_d = ovx_q;  ovy_d = ovy_q;  ad1_d = ad1_q;  ad2_d = ad2_q;
    done_d = 1'b0;  degen_d = degen_q;
    uv_en_d = uv_en_q;
    unique case (st_q)
      S_IDLE: if (start_i) begin
        v_d = vtx_i;  ox_d = ox_i;  oy_d = oy_i;  st_d = S_D0;
        uv_en_d = uv_en_i;
        swap_d = 1'b0;
        if (!uv_en_i) begin   // u and v planes of an untextured primitive: 0
          pv_d[5*48 +: 96]  = '0;
          pgx_d[5*48 +: 96] = '0;
          pgy_d[5*48 +: 96] = '0;
        end
      end
      S_D0: begin
        ea_d = ea_v;  eb_d = eb_v;  na_d = na_v;  nb_d = nb_v;
        ovx_d = ovx_v;  ovy_d = ovy_v;  ad1_d = ad1_v;  ad2_d = ad2_v;
        st_d = S_D1;
      end
      // D = sum48 (the adder subtracts for K_D); D < 0: swap v1 and v2, which turns
      // (A0, A1, A2) into (-A0, -A2, -A1) (B alike), swaps the offsets of v1 and v2 and d1, d2
      S_D1: begin
        if (sum48[47]) begin
          d_d = negd;
          swap_d = 1'b1;
          ea_d = {na_q[1*21 +: 21], na_q[2*21 +: 21], na_q[0 +: 21]};
          eb_d = {nb_q[1*21 +: 21], nb_q[2*21 +: 21], nb_q[0 +: 21]};
          ovx_d = {ovx_q[1*21 +: 21], ovx_q[2*21 +: 21], ovx_q[0 +: 21]};
          ovy_d = {ovy_q[1*21 +: 21], ovy_q[2*21 +: 21], ovy_q[0 +: 21]};
          ad1_d = ad2_q;
          ad2_d = ad1_q;
        end else begin
          d_d = sum48;
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
        // quotient bits k and k - 1 (bit 0 alone at the end); rem < 2 dn holds before each
        if (dv_q) begin
          if (k_q == 5'd0) begin
            r_d[0] = ge2;
            rem_d  = ge2 ? dy2 : dy;
            dv_d   = 1'b0;
          end else begin
            r_d[k_q]        = ge2;
            r_d[k_q - 5'd1] = ge3_ok || (!ge2 && ge1);
            rem_d = ge3_ok ? {dy3[43:0], 1'b0} : ge2 ? {dy2[43:0], 1'b0} :
                    ge1 ? {dy1[43:0], 1'b0} : {dy[43:0], 1'b0};
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
          K_EDGE: if (j < 3) w_d[j*48 +: 48] = sum48;
          K_GX:   pgx_d[j*48 +: 48] = sum48;
          K_GY:   pgy_d[j*48 +: 48] = sum48;
          K_C1:   pv_d[j*48 +: 48] = sum48;
          default: ;
        endcase
      end
      if (rk_q == K_C0 && ri_q == 3'(j)) begin
        pgx_d[j*48 +: 48] = prod0_sh[47:0];
        pgy_d[j*48 +: 48] = prod1_sh[47:0];
      end
    end
  end

  // The next step's operands: the step st_d/k_d/ck_d give, from the registers as they are now
  // (or the inputs, at start). D's differences come from the inputs; from S_NORM on every
  // operand is a register (ea_q .. ad2_q, written by S_D1; pgx/pgy; r_q), so this is a mux.
  logic [6:0]   nxt_step;
  logic [2:0]   nxt_kind, nxt_idx;
  logic signed [47:0] ma0_d, ma1_d;
  logic signed [25:0] mb0_d, mb1_d;
  logic [47:0]        mc0_d;
  logic signed [20:0] ix0, ix1, ix2, iy0, iy1, iy2;
  assign nxt_step = step_of(st_d, b_d, ck_d, (st_q == S_IDLE) ? (uv_en_i ? 4'd7 : 4'd5) : nattr);
  assign nxt_kind = nxt_step[6:4];
  assign nxt_idx  = nxt_step[3:1];
  assign nxt_idx_c = nxt_idx;
  assign unused_nxt = nxt_step[0];
  assign ix0 = xy_of(vtx_i, 0, 1'b0);  assign iy0 = xy_of(vtx_i, 0, 1'b1);
  assign ix1 = xy_of(vtx_i, 1, 1'b0);  assign iy1 = xy_of(vtx_i, 1, 1'b1);
  assign ix2 = xy_of(vtx_i, 2, 1'b0);  assign iy2 = xy_of(vtx_i, 2, 1'b1);
  logic signed [20:0] idx10, idy20, idx20, idy10;
  assign idx10 = ix1 - ix0;
  assign idy20 = iy2 - iy0;
  assign idx20 = ix2 - ix0;
  assign idy10 = iy1 - iy0;
  always_comb begin
    logic [47:0] gxi, gyi;
    logic [20:0] eaj, ebj, oxj, oyj;
    logic [24:0] d1i, d2i;
    gxi = '0;  gyi = '0;
    for (int i = 0; i < 7; i++) begin
      if (nxt_idx == 3'(i)) begin
        gxi = pgx_q[i*48 +: 48];
        gyi = pgy_q[i*48 +: 48];
      end
    end
    d1i = ad_get(ad1_q, nxt_idx);
    d2i = ad_get(ad2_q, nxt_idx);
    // edge j: its coefficients and the origin's offset from its anchor (v1, v2, v0)
    unique case (nxt_idx[1:0])
      2'd0:    begin eaj = ea_q[0 +: 21];  ebj = eb_q[0 +: 21];  oxj = ovx_q[21 +: 21];  oyj = ovy_q[21 +: 21]; end
      2'd1:    begin eaj = ea_q[21 +: 21]; ebj = eb_q[21 +: 21]; oxj = ovx_q[42 +: 21];  oyj = ovy_q[42 +: 21]; end
      default: begin eaj = ea_q[42 +: 21]; ebj = eb_q[42 +: 21]; oxj = ovx_q[0 +: 21];   oyj = ovy_q[0 +: 21]; end
    endcase
    ma0_d = '0;  mb0_d = '0;  ma1_d = '0;  mb1_d = '0;  mc0_d = '0;
    unique case (nxt_kind)
      K_D: begin      // (X1 - X0)(Y2 - Y0), (X2 - X0)(Y1 - Y0), from the inputs
        ma0_d = 48'(idx10);  mb0_d = 26'(idy20);
        ma1_d = 48'(idx20);  mb1_d = 26'(idy10);
      end
      K_EDGE: begin
        ma0_d = 48'($signed(eaj));  mb0_d = 26'($signed(oxj));
        ma1_d = 48'($signed(ebj));  mb1_d = 26'($signed(oyj));
      end
      K_GX: begin
        ma0_d = 48'($signed(d1i));  mb0_d = 26'($signed(ea_q[21 +: 21]));
        ma1_d = 48'($signed(d2i));  mb1_d = 26'($signed(ea_q[42 +: 21]));
      end
      K_GY: begin
        ma0_d = 48'($signed(d1i));  mb0_d = 26'($signed(eb_q[21 +: 21]));
        ma1_d = 48'($signed(d2i));  mb1_d = 26'($signed(eb_q[42 +: 21]));
      end
      K_C0: begin
        ma0_d = gxi;  mb0_d = $signed({1'b0, r_q});
        ma1_d = gyi;  mb1_d = $signed({1'b0, r_q});
      end
      K_C1: begin     // a0 2^20 + 2^19 (rounding) rides in product 0's compressor tree
        ma0_d = gxi;  mb0_d = 26'($signed(ovx_q[0 +: 21]));
        ma1_d = gyi;  mb1_d = 26'($signed(ovy_q[0 +: 21]));
        mc0_d = {4'd0, a0c, 20'h8_0000};
      end
      default: ;
    endcase
  end

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
      swap_q <= 1'b0;
      d_q <= '0;
      n_q <= '0;
      dn_q <= '0;
      dn3_q <= '0;
      rem_q <= '0;
      r_q <= '0;
      w_q <= '0;
      pv_q <= '0;
      pgx_q <= '0;
      pgy_q <= '0;
      ea_q <= '0;
      eb_q <= '0;
      na_q <= '0;
      nb_q <= '0;
      ovx_q <= '0;
      ovy_q <= '0;
      ad1_q <= '0;
      ad2_q <= '0;
      done_q <= 1'b0;
      degen_q <= 1'b0;
      ma0_q <= '0;
      mb0_q <= '0;
      ma1_q <= '0;
      mb1_q <= '0;
      mc0_q <= '0;
      ps0_q <= '0;
      pc0_q <= '0;
      ps1_q <= '0;
      pc1_q <= '0;
      pr0_q <= '0;
      pr1_q <= '0;
      pk_q <= K_NONE;
      pi_q <= '0;
      rk_q <= K_NONE;
      ri_q <= '0;
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
      swap_q <= swap_d;
      d_q <= d_d;
      n_q <= n_d;
      dn_q <= dn_d;
      dn3_q <= dn3_d;
      rem_q <= rem_d;
      r_q <= r_d;
      w_q <= w_d;
      pv_q <= pv_d;
      pgx_q <= pgx_d;
      pgy_q <= pgy_d;
      ea_q <= ea_d;
      eb_q <= eb_d;
      na_q <= na_d;
      nb_q <= nb_d;
      ovx_q <= ovx_d;
      ovy_q <= ovy_d;
      ad1_q <= ad1_d;
      ad2_q <= ad2_d;
      done_q <= done_d;
      degen_q <= degen_d;
      ma0_q <= ma0_d;
      mb0_q <= mb0_d;
      ma1_q <= ma1_d;
      mb1_q <= mb1_d;
      mc0_q <= mc0_d;
      ps0_q <= ps0;
      pc0_q <= pc0;
      ps1_q <= ps1;
      pc1_q <= pc1;
      pr0_q <= pr0;
      pr1_q <= pr1;
      pk_q <= cur_kind;
      pi_q <= cur_idx;
      rk_q <= pk_q;
      ri_q <= pi_q;
      uv_en_q <= uv_en_d;
    end
  end

  // ea_o/eb_o are registered now (written in S_D1): valid with done_o, when the binner reads them
  assign ea_o = ea_q;
  assign eb_o = eb_q;
  assign w_o     = w_q;
  assign pv_o    = pv_q;
  assign pgx_o   = pgx_q;
  assign pgy_o   = pgy_q;
  assign done_o  = done_q;
  assign degen_o = degen_q;
  assign busy_o  = (st_q != S_IDLE) || done_q;

  // S_DIV ends with the quotient complete and every product that does not need R done.
  `ASSERT(DivDoneAtGap_A, st_q == S_DIV && st_d == S_GAP |-> (!dv_q || k_q == 5'd0) && last_pre)
  // The quotient bits come two at a time from 24: k is even while the division runs.
  `ASSERT(DivBitsEven_A, dv_q |-> !k_q[0])
  // The first radix-4 digit, the one cycle dn3_q is not valid yet, is 1 or 2.
`ifndef SYNTHESIS
  // The first radix-4 digit, the one cycle dn3_q is not valid yet, is 1 or 2.
  logic [46:0] dn3_ref;
  assign dn3_ref = 47'(3) * {2'b0, dn_q};
  `ASSERT(DivFirstDigitBelow3_A, dv_q && k_q == 5'd24 |-> {2'b0, dy} < dn3_ref)
  `ASSERT(Dn3Valid_A, dv_q && k_q != 5'd24 |-> {2'b0, dn3_q} == dn3_ref)
  // The reference: the operands each step multiplies, from the vertices after the orientation
  // swap (the computation the registered differences replace).
  function automatic logic [147:0] mul_ops(
      input logic [2:0]   kind,
      input logic [2:0]   idx,
      input logic [383:0] v,          // {v0, v1, v2}, after the orientation swap
      input logic [10:0]  ox,
      input logic [10:0]  oy,
      input logic [24:0]  r,
      input logic [7*48-1:0] gxs,     // Gx (K_C0) or gx (K_C1) of each attribute
      input logic [7*48-1:0] gys);
    logic signed [20:0] x0, x1, x2, y0, y1, y2, rcx, rcy, ea_s, eb_s, oex, oey, o0x, o0y;
    logic signed [20:0] a1e, a2e, b1e, b2e, dx10, dy20, dx20, dy10;
    logic [23:0]        a0, a1, a2;
    logic signed [24:0] d1, d2;
    logic signed [47:0] ma0, ma1, gxi, gyi;
    logic signed [25:0] mb0, mb1;
    x0 = xy_of(v, 0, 1'b0);  y0 = xy_of(v, 0, 1'b1);
    x1 = xy_of(v, 1, 1'b0);  y1 = xy_of(v, 1, 1'b1);
    x2 = xy_of(v, 2, 1'b0);  y2 = xy_of(v, 2, 1'b1);
    rcx = $signed({6'd0, ox, 4'd8});
    rcy = $signed({6'd0, oy, 4'd8});
    a1e = y2 - y0;  a2e = y0 - y1;  b1e = x0 - x2;  b2e = x1 - x0;   // A1, A2, B1, B2
    dx10 = x1 - x0;  dy20 = y2 - y0;  dx20 = x2 - x0;  dy10 = y1 - y0;
    o0x = rcx - x0;  o0y = rcy - y0;
    case (idx[1:0])
      2'd0:    begin ea_s = y1 - y2; eb_s = x2 - x1; oex = rcx - x1; oey = rcy - y1; end
      2'd1:    begin ea_s = y2 - y0; eb_s = x0 - x2; oex = rcx - x2; oey = rcy - y2; end
      default: begin ea_s = y0 - y1; eb_s = x1 - x0; oex = rcx - x0; oey = rcy - y0; end
    endcase
    a0 = attr_of(v, 2'd0, idx);
    a1 = attr_of(v, 2'd1, idx);
    a2 = attr_of(v, 2'd2, idx);
    d1 = $signed({1'b0, a1}) - $signed({1'b0, a0});
    d2 = $signed({1'b0, a2}) - $signed({1'b0, a0});
    gxi = '0;
    gyi = '0;
    // (loop variable named apart: Verilator 5.006 reports it hiding a loop variable of the
    // binner, raster_tse's parent, in the GPU models, VARHIDDEN)
    for (int ai = 0; ai < 7; ai++) begin
      if (idx == 3'(ai)) begin
        gxi = $signed(gxs[ai*48 +: 48]);
        gyi = $signed(gys[ai*48 +: 48]);
      end
    end
    ma0 = '0;  mb0 = '0;  ma1 = '0;  mb1 = '0;
    unique case (kind)
      K_D:     begin ma0 = 48'(dx10); mb0 = 26'(dy20); ma1 = 48'(dx20); mb1 = 26'(dy10); end
      K_EDGE:  begin ma0 = 48'(ea_s); mb0 = 26'(oex);  ma1 = 48'(eb_s); mb1 = 26'(oey);  end
      K_GX:    begin ma0 = 48'(d1);   mb0 = 26'(a1e);  ma1 = 48'(d2);   mb1 = 26'(a2e);  end
      K_GY:    begin ma0 = 48'(d1);   mb0 = 26'(b1e);  ma1 = 48'(d2);   mb1 = 26'(b2e);  end
      K_C0:    begin ma0 = gxi; mb0 = $signed({1'b0, r}); ma1 = gyi; mb1 = $signed({1'b0, r}); end
      K_C1:    begin ma0 = gxi; mb0 = 26'(o0x); ma1 = gyi; mb1 = 26'(o0y); end
      default: ;
    endcase
    mul_ops = {ma0, mb0, ma1, mb1};
  endfunction

  logic [383:0] v_sw;          // v_q after the orientation swap
  assign v_sw = swap_q ? {v_q[2*VW +: VW], v_q[0 +: VW], v_q[VW +: VW]} : v_q;
  // The registered operands are those of the current step (the register mux against the
  // reference computation from the vertices).
  `ASSERT(MulOpsOfThisStep_A, st_q != S_IDLE |-> {ma0_q, mb0_q, ma1_q, mb1_q} ==
                              mul_ops(cur_kind, cur_idx, v_sw, ox_q, oy_q, r_q, pgx_q, pgy_q))
  `ASSERT(MulAddendOfThisStep_A, st_q != S_IDLE |-> mc0_q == ((cur_kind == K_C1) ?
                              {4'd0, attr_of(v_q, 2'd0, cur_idx), 20'h8_0000} : 48'd0))
  // The carry-save products are the products (plus the addend).
  logic signed [PW-1:0] pref0, pref1;
  assign pref0 = ma0_q * mb0_q;
  assign pref1 = ma1_q * mb1_q;
  `ASSERT(MulCarrySave_A, PW'(ps0 + pc0) == PW'(pref0 + PW'(mc0_q)) && PW'(ps1 + pc1) == pref1)
  // The edge outputs are those of the swapped vertices once S_D1 has written them.
  `ASSERT(EdgeRegsSwapped_A, done_q |-> ea_o == {21'(xy_of(v_sw, 0, 1'b1) - xy_of(v_sw, 1, 1'b1)),
                              21'(xy_of(v_sw, 2, 1'b1) - xy_of(v_sw, 0, 1'b1)),
                              21'(xy_of(v_sw, 1, 1'b1) - xy_of(v_sw, 2, 1'b1))} &&
                              eb_o == {21'(xy_of(v_sw, 1, 1'b0) - xy_of(v_sw, 0, 1'b0)),
                              21'(xy_of(v_sw, 0, 1'b0) - xy_of(v_sw, 2, 1'b0)),
                              21'(xy_of(v_sw, 2, 1'b0) - xy_of(v_sw, 1, 1'b0))})
  // C1 of an attribute reads the gx, gy its C0 wrote, never the Gx, Gy parked before: when
  // its operands are selected, that C0's result is in pgx/pgy.
  logic [6:0] gx_ready_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      gx_ready_q <= '0;
    end else if (st_q == S_IDLE) begin
      gx_ready_q <= '0;
    end else if (rk_q == K_C0) begin
      gx_ready_q[ri_q] <= 1'b1;
    end
  end
  `ASSERT(C1ReadsItsC0_A, nxt_kind == K_C1 |-> gx_ready_q[nxt_idx])
  // A step's operands read the derived registers only after S_D1 has written them.
  `ASSERT(DerivedRegsWritten_A, nxt_kind != K_NONE && nxt_kind != K_D |->
                                st_q != S_IDLE && st_q != S_D0 && st_q != S_D1)
`endif

  logic unused_t;
  assign unused_t = ^{prod0_sh[PW-1:48], prod1_sh[PW-1:48], d_q[47:44], rem_q[44], unused_co,
                      unused_nco, unused_rco0, unused_rco1, unused_dco, dy3[44], dy2[44], dy1[44],
                      ps0_q[PW-1:48] & 26'd0, pc0_q[PW-1:48] & 26'd0};

endmodule
