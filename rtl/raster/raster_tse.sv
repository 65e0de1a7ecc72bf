// raster_tse -- triangle setup (TSE) for one (bin, primitive) pair.
//
// Source: ARCHITECTURE.md 5.4 "TSE and GRAS: edge functions in fixed point, pixel centres at
// +0.5, the top-left fill rule ... interpolated with one fixed-point reciprocal per
// triangle"; 001_3630ef805e8956e2.txt (Qualcomm) names the TSE as the slice's setup unit.
// The arithmetic is specified in docs/raster.md ("Triangle setup"); this is a sequential
// implementation of it with one shared 48x26 signed multiplier:
//   D (2 products) -> orientation (swap v1, v2 when D < 0) -> n = bitlen(D) ->
//   R = floor(2^(n+23) / D) (restoring division, 25 cycles) -> the three edge functions at
//   the walk origin (6 products) -> per attribute Gx, Gy, gx, gy and the value at the origin
//   (8 products each, 7 attributes).
// 90 cycles per setup. The seam for a faster TSE: setup once per triangle at batch insertion
// (everything but the 20 origin products is bin-independent) and more multipliers.

module raster_tse (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          start_i,      // pulse: vertices and origin are valid
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

  // ---- vertex fields (after the orientation swap held in v_q) -----------------------------
  // Flat vectors (Yosys 0.23 turns unpacked arrays assigned in always_comb into warnings):
  // vertex i's x at vxf[i*21 +: 21], attribute k of vertex i at vaf[(i*7+k)*24 +: 24].
  logic [3*21-1:0]   vxf, vyf;
  logic [3*7*24-1:0] vaf;
  always_comb begin
    for (int i = 0; i < 3; i++) begin
      vxf[i*21 +: 21] = {v_q[(2-i)*128 + 127], v_q[(2-i)*128 + 108 +: 20]};
      vyf[i*21 +: 21] = {v_q[(2-i)*128 + 107], v_q[(2-i)*128 + 88 +: 20]};
      vaf[(i*7+0)*24 +: 24] = v_q[(2-i)*128 + 64 +: 24];
      vaf[(i*7+1)*24 +: 24] = {16'd0, v_q[(2-i)*128 + 32 +: 8]};
      vaf[(i*7+2)*24 +: 24] = {16'd0, v_q[(2-i)*128 + 40 +: 8]};
      vaf[(i*7+3)*24 +: 24] = {16'd0, v_q[(2-i)*128 + 48 +: 8]};
      vaf[(i*7+4)*24 +: 24] = {16'd0, v_q[(2-i)*128 + 56 +: 8]};
      vaf[(i*7+5)*24 +: 24] = {8'd0, v_q[(2-i)*128 + 16 +: 16]};
      vaf[(i*7+6)*24 +: 24] = {8'd0, v_q[(2-i)*128 + 0 +: 16]};
    end
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

  logic signed [20:0] ocx, ocy;   // origin pixel centre, 1/16 pixel
  assign ocx = $signed({6'd0, ox_q, 4'd8});
  assign ocy = $signed({6'd0, oy_q, 4'd8});

  // ---- the shared multiplier -----------------------------------------------------------------
  logic signed [47:0] ma;
  logic signed [25:0] mb;
  logic signed [73:0] prod;
  assign prod = ma * mb;

  logic signed [20:0] ea_sel, eb_sel;
  assign ea_sel = (ei == 2'd0) ? ea0 : (ei == 2'd1) ? ea1 : ea2;
  assign eb_sel = (ei == 2'd0) ? eb0 : (ei == 2'd1) ? eb1 : eb2;
  logic signed [20:0] dx10, dy20, dx20, dy10, oe_x, oe_y, o0_x, o0_y;
  always_comb begin
    dx10 = vx1 - vx0;
    dy20 = vy2 - vy0;
    dx20 = vx2 - vx0;
    dy10 = vy1 - vy0;
    unique case (ei)
      2'd0:    begin oe_x = ocx - vx1; oe_y = ocy - vy1; end
      2'd1:    begin oe_x = ocx - vx2; oe_y = ocy - vy2; end
      default: begin oe_x = ocx - vx0; oe_y = ocy - vy0; end
    endcase
    o0_x = ocx - vx0;
    o0_y = ocy - vy0;
  end

  // the current attribute of each vertex (a mux, not a variable part-select: Yosys builds
  // the latter as a wide barrel shifter)
  logic [23:0] a0s, a1s, a2s;
  always_comb begin
    a0s = '0;  a1s = '0;  a2s = '0;
    for (int k = 0; k < 7; k++) begin
      if (ai_q == 3'(k)) begin
        a0s = vaf[(0*7+k)*24 +: 24];
        a1s = vaf[(1*7+k)*24 +: 24];
        a2s = vaf[(2*7+k)*24 +: 24];
      end
    end
  end

  logic signed [24:0] da1, da2;
  logic [1:0]         ei;
  always_comb begin
    da1 = $signed({1'b0, a1s}) - $signed({1'b0, a0s});
    da2 = $signed({1'b0, a2s}) - $signed({1'b0, a0s});
    ei  = k_q[2:1];
    ma  = '0;
    mb  = '0;
    unique case (st_q)
      S_D0: begin ma = 48'(dx10); mb = 26'(dy20); end
      S_D1: begin ma = 48'(dx20); mb = 26'(dy10); end
      S_EDGE: begin
        if (!k_q[0]) begin ma = 48'(ea_sel); mb = 26'(oe_x); end
        else         begin ma = 48'(eb_sel); mb = 26'(oe_y); end
      end
      S_ATTR: begin
        unique case (k_q[2:0])
          3'd0: begin ma = 48'(da1);  mb = 26'(ea1); end
          3'd1: begin ma = 48'(da2);  mb = 26'(ea2); end
          3'd2: begin ma = 48'(da1);  mb = 26'(eb1); end
          3'd3: begin ma = 48'(da2);  mb = 26'(eb2); end
          3'd4: begin ma = bigx_q;    mb = $signed({1'b0, r_q}); end
          3'd5: begin ma = bigy_q;    mb = $signed({1'b0, r_q}); end
          3'd6: begin ma = gx_q;      mb = 26'(o0_x); end
          default: begin ma = gy_q;   mb = 26'(o0_y); end
        endcase
      end
      default: ;
    endcase
  end

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
    unique case (st_q)
      S_IDLE: if (start_i) begin
        v_d = vtx_i;  ox_d = ox_i;  oy_d = oy_i;  st_d = S_D0;
      end
      S_D0: begin t0_d = prod[47:0]; st_d = S_D1; end
      S_D1: begin
        if (dsigned == '0) begin
          degen_d = 1'b1;  done_d = 1'b1;  st_d = S_IDLE;
        end else begin
          degen_d = 1'b0;
          if (dsigned[47]) begin
            d_d = 48'(-dsigned);
            v_d = {v_q[383:256], v_q[127:0], v_q[255:128]};
          end else begin
            d_d = dsigned;
          end
          st_d = S_NORM;
        end
      end
      S_NORM: begin
        n_d   = dlen;
        dn_d  = {1'b0, d_q[43:0]} << (6'd43 - dlen);
        rem_d = 45'(1) << 42;
        r_d   = '0;
        k_d   = 6'd24;
        st_d  = S_DIV;
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
      S_ATTR: begin
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
          if (ai_q == 3'd6) begin
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
    end else begin
      st_q <= st_d;  k_q <= k_d;  ai_q <= ai_d;  v_q <= v_d;  ox_q <= ox_d;  oy_q <= oy_d;
      t0_q <= t0_d;  d_q <= d_d;  n_q <= n_d;  dn_q <= dn_d;  rem_q <= rem_d;  r_q <= r_d;
      gx_q <= gx_d;  gy_q <= gy_d;  bigx_q <= bigx_d;  bigy_q <= bigy_d;
      w_q <= w_d;  pv_q <= pv_d;  pgx_q <= pgx_d;  pgy_q <= pgy_d;  done_q <= done_d;
      degen_q <= degen_d;
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

  logic unused_t;
  assign unused_t = ^{prod_sh[73:48], prod[73:48], d_q[47:44], rr[44]};

endmodule
