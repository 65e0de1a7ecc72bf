// tess_tessellator -- the fixed-function tessellator of one geometry slice (TESS between the
// hull and the domain shader; ARCHITECTURE.md 5.6, docs/tessellation.md "The tessellator").
// It expands one patch at a time into triangles, bit for bit the C++ reference
// tessellate() (sim/tess/src/tessellator.cpp):
//   quad patch, factors n1 x n2: the (n1+1) x (n2+1) grid; vertex (i, j) =
//     lerp(lerp(P0, P1, w(i,n1)), lerp(P3, P2, w(i,n1)), w(j,n2)); per cell, rows j outer,
//     columns i inner: (i,j) (i+1,j) (i+1,j+1) and (i,j) (i+1,j+1) (i,j+1);
//   triangle patch, factor n: vertex (a, b) = P0 + round((P1-P0) w(a,n) + (P2-P0) w(b,n));
//     rows b outer, a inner: (a,b) (a+1,b) (a,b+1), and when a+b < n-1 (a+1,b) (a+1,b+1) (a,b+1);
//   isoline patch: n1 * n2 segments, counted (ev_segs_o), no triangles;
//   w(i, n) = floor((i * 65536 + floor(n/2)) / n); factors above 64 count as 64; a factor of
//   0 culls the patch.
//
// How: the weights of each dimension are stepped, never divided: w(i+1) = w(i) + Q with a
// remainder carried in R, where 65536 = Q n + R comes from a 64-entry table. A column of two
// grid vertices (rows j and j+1) is computed into R0/R1 by one lane set (tess_lane, 9
// attributes, one multiplier each), one term per clock: quad 4 (the column's bottom and top
// edge points, then the two vertices), triangle 4 (two vertices of two terms each). Once columns i and i+1 are held
// (L0/L1 and R0/R1), the cell's triangles leave as a vertex stream, three per triangle
// (out_tri_end_o on the third, out_patch_end_o on the patch's last). The lanes have one
// multiplier each and registers around it (an interpolation's result is captured two cycles
// after its last term), so a column takes 8 clocks (quad) or 6 (triangle: two terms per
// vertex). The column computer and the emitter overlap: the next column is computed while a
// cell's vertices leave, so a cell costs about max(column, 6 vertices) clocks;
// docs/tessellation.md has the figures.
//
// Vertices are svtx (spec/layouts.yaml): x, y signed 16.4; z; rgba; u, v.

`include "prim_assert.svh"

module tess_tessellator (
  input  logic         clk_i,
  input  logic         rst_ni,
  // one patch: kind (tess_pkg::patch_kind_e), raw factors, control points (cp k at [k*128 +: 128])
  input  logic         in_valid_i,
  output logic         in_ready_o,
  input  logic [1:0]   in_kind_i,
  input  logic [7:0]   in_f1_i,
  input  logic [7:0]   in_f2_i,
  input  logic [511:0] in_cp_i,
  // the triangles as a vertex stream
  output logic         out_valid_o,
  input  logic         out_ready_i,
  output logic [127:0] out_vtx_o,
  output logic         out_tri_end_o,
  output logic         out_patch_end_o,
  // events
  output logic         busy_o,      // a patch is being expanded
  output logic         ev_patch_o,  // a patch was taken
  output logic [12:0]  ev_segs_o    // isoline segments of the patch taken (0 otherwise)
);

  localparam int unsigned VW = 128;

  // 65536 = Q * n + R for n = 1 .. 64 (n = 0 is never looked up)
  function automatic logic [22:0] recip(input logic [6:0] n);
    unique case (n)
      7'd1: recip = {17'd65536, 6'd0};
      7'd2: recip = {17'd32768, 6'd0};
      7'd3: recip = {17'd21845, 6'd1};
      7'd4: recip = {17'd16384, 6'd0};
      7'd5: recip = {17'd13107, 6'd1};
      7'd6: recip = {17'd10922, 6'd4};
      7'd7: recip = {17'd9362, 6'd2};
      7'd8: recip = {17'd8192, 6'd0};
      7'd9: recip = {17'd7281, 6'd7};
      7'd10: recip = {17'd6553, 6'd6};
      7'd11: recip = {17'd5957, 6'd9};
      7'd12: recip = {17'd5461, 6'd4};
      7'd13: recip = {17'd5041, 6'd3};
      7'd14: recip = {17'd4681, 6'd2};
      7'd15: recip = {17'd4369, 6'd1};
      7'd16: recip = {17'd4096, 6'd0};
      7'd17: recip = {17'd3855, 6'd1};
      7'd18: recip = {17'd3640, 6'd16};
      7'd19: recip = {17'd3449, 6'd5};
      7'd20: recip = {17'd3276, 6'd16};
      7'd21: recip = {17'd3120, 6'd16};
      7'd22: recip = {17'd2978, 6'd20};
      7'd23: recip = {17'd2849, 6'd9};
      7'd24: recip = {17'd2730, 6'd16};
      7'd25: recip = {17'd2621, 6'd11};
      7'd26: recip = {17'd2520, 6'd16};
      7'd27: recip = {17'd2427, 6'd7};
      7'd28: recip = {17'd2340, 6'd16};
      7'd29: recip = {17'd2259, 6'd25};
      7'd30: recip = {17'd2184, 6'd16};
      7'd31: recip = {17'd2114, 6'd2};
      7'd32: recip = {17'd2048, 6'd0};
      7'd33: recip = {17'd1985, 6'd31};
      7'd34: recip = {17'd1927, 6'd18};
      7'd35: recip = {17'd1872, 6'd16};
      7'd36: recip = {17'd1820, 6'd16};
      7'd37: recip = {17'd1771, 6'd9};
      7'd38: recip = {17'd1724, 6'd24};
      7'd39: recip = {17'd1680, 6'd16};
      7'd40: recip = {17'd1638, 6'd16};
      7'd41: recip = {17'd1598, 6'd18};
      7'd42: recip = {17'd1560, 6'd16};
      7'd43: recip = {17'd1524, 6'd4};
      7'd44: recip = {17'd1489, 6'd20};
      7'd45: recip = {17'd1456, 6'd16};
      7'd46: recip = {17'd1424, 6'd32};
      7'd47: recip = {17'd1394, 6'd18};
      7'd48: recip = {17'd1365, 6'd16};
      7'd49: recip = {17'd1337, 6'd23};
      7'd50: recip = {17'd1310, 6'd36};
      7'd51: recip = {17'd1285, 6'd1};
      7'd52: recip = {17'd1260, 6'd16};
      7'd53: recip = {17'd1236, 6'd28};
      7'd54: recip = {17'd1213, 6'd34};
      7'd55: recip = {17'd1191, 6'd31};
      7'd56: recip = {17'd1170, 6'd16};
      7'd57: recip = {17'd1149, 6'd43};
      7'd58: recip = {17'd1129, 6'd54};
      7'd59: recip = {17'd1110, 6'd46};
      7'd60: recip = {17'd1092, 6'd16};
      7'd61: recip = {17'd1074, 6'd22};
      7'd62: recip = {17'd1057, 6'd2};
      7'd63: recip = {17'd1040, 6'd16};
      7'd64: recip = {17'd1024, 6'd0};
      default: recip = '0;
    endcase
  endfunction

  function automatic logic [6:0] clamp_f(input logic [7:0] f);
    clamp_f = (f > 8'd64) ? 7'd64 : f[6:0];
  endfunction

  // ---- the column computer -------------------------------------------------------------------
  // (a triangle patch's vertex takes two terms: S_V0 + S_V0B, S_V1 + S_V1B; a result is on the
  // lanes' output two cycles after its last term: bot in S_BW, top in S_TW, R0 in S_W1 (quad)
  // or S_V1B (triangle), R1 in S_V1W)
  typedef enum logic [3:0] {
    S_IDLE, S_NEXT, S_BOT, S_TOP, S_BW, S_TW, S_V0, S_V0B, S_V1, S_V1B, S_W1, S_V1W
  } state_e;
  state_e state_q, state_d;

  logic             tri_q;             // triangle patch (else quad)
  logic [6:0]       n1_q, n2_q;        // clamped factors (triangle: n1 = n2 = n)
  logic [VW-1:0]    p0_q, p1_q, p2_q, p3_q;
  logic [VW-1:0]    bot_q, top_q;      // quad: the column's points on edges P0-P1 and P3-P2
  logic [6:0]       ci_q;              // column being computed
  logic [6:0]       rj_q;              // row: the cells between rows rj and rj+1
  // weight steppers: column i, rows j and j+1; {weight, remainder}
  logic [16:0]      wc_q, wr0_q, wr1_q;
  logic [5:0]       rc_q, rr1_q;
  logic [16:0]      q1_q, q2_q;        // 65536 div n1, div n2
  logic [5:0]       m1_q, m2_q;        // 65536 mod n1, mod n2

  // One step of w(i) -> w(i+1) for factor n with (Q, R).
  function automatic logic [22:0] step(input logic [16:0] w, input logic [5:0] r,
                                       input logic [16:0] q, input logic [5:0] m,
                                       input logic [6:0] n);
    logic [6:0]  r2;
    logic [16:0] w2;
    r2 = 7'(r) + 7'(m);
    w2 = w + q;
    if (r2 >= n) begin
      r2 = r2 - n;
      w2 = w2 + 17'd1;
    end
    step = {w2, r2[5:0]};
  endfunction

  // ---- the interpolation lanes --------------------------------------------------------------
  logic [VW-1:0] ln_base, ln_e, ln_o;
  logic [16:0]   ln_w;
  logic          ln_acc;
  always_comb begin
    ln_base = p0_q;
    ln_e    = p1_q;
    ln_w    = wc_q;
    ln_acc  = 1'b0;
    unique case (state_q)
      S_BOT: begin ln_base = p0_q; ln_e = p1_q; ln_w = wc_q; end
      S_TOP: begin ln_base = p3_q; ln_e = p2_q; ln_w = wc_q; end
      // triangle: (P1 - P0) w(a), then + (P2 - P0) w(b) or w(b+1); quad: lerp(bot, top, w(j))
      S_V0, S_V1: begin
        if (tri_q) begin
          ln_base = p0_q;
          ln_e    = p1_q;
          ln_w    = wc_q;
        end else begin
          ln_base = bot_q;
          ln_e    = top_q;
          ln_w    = (state_q == S_V0) ? wr0_q : wr1_q;
        end
      end
      S_V0B, S_V1B: begin
        ln_base = p0_q;
        ln_e    = p2_q;
        ln_w    = (state_q == S_V0B) ? wr0_q : wr1_q;
        ln_acc  = 1'b1;
      end
      default: ;
    endcase
  end

  tess_lane #(.W(tessera_spec_pkg::TS_SVTX_X_WIDTH), .SIGNED(1'b1)) u_x (
    .base_i(ln_base[tessera_spec_pkg::TS_SVTX_X_LSB +: tessera_spec_pkg::TS_SVTX_X_WIDTH]),
    .e_i(ln_e[tessera_spec_pkg::TS_SVTX_X_LSB +: tessera_spec_pkg::TS_SVTX_X_WIDTH]),
    .clk_i, .w_i(ln_w), .acc_i(ln_acc),
    .o_o(ln_o[tessera_spec_pkg::TS_SVTX_X_LSB +: tessera_spec_pkg::TS_SVTX_X_WIDTH]));
  tess_lane #(.W(tessera_spec_pkg::TS_SVTX_Y_WIDTH), .SIGNED(1'b1)) u_y (
    .base_i(ln_base[tessera_spec_pkg::TS_SVTX_Y_LSB +: tessera_spec_pkg::TS_SVTX_Y_WIDTH]),
    .e_i(ln_e[tessera_spec_pkg::TS_SVTX_Y_LSB +: tessera_spec_pkg::TS_SVTX_Y_WIDTH]),
    .clk_i, .w_i(ln_w), .acc_i(ln_acc),
    .o_o(ln_o[tessera_spec_pkg::TS_SVTX_Y_LSB +: tessera_spec_pkg::TS_SVTX_Y_WIDTH]));
  tess_lane #(.W(tessera_spec_pkg::TS_SVTX_Z_WIDTH), .SIGNED(1'b0)) u_z (
    .base_i(ln_base[tessera_spec_pkg::TS_SVTX_Z_LSB +: tessera_spec_pkg::TS_SVTX_Z_WIDTH]),
    .e_i(ln_e[tessera_spec_pkg::TS_SVTX_Z_LSB +: tessera_spec_pkg::TS_SVTX_Z_WIDTH]),
    .clk_i, .w_i(ln_w), .acc_i(ln_acc),
    .o_o(ln_o[tessera_spec_pkg::TS_SVTX_Z_LSB +: tessera_spec_pkg::TS_SVTX_Z_WIDTH]));
  // r, g, b, a: four bytes from TS_SVTX_RGBA_LSB up
  for (genvar c = 0; c < 4; c++) begin : gen_rgba
    tess_lane #(.W(8), .SIGNED(1'b0)) u_c (
      .base_i(ln_base[tessera_spec_pkg::TS_SVTX_RGBA_LSB + 8*c +: 8]),
      .e_i(ln_e[tessera_spec_pkg::TS_SVTX_RGBA_LSB + 8*c +: 8]),
      .clk_i, .w_i(ln_w), .acc_i(ln_acc),
      .o_o(ln_o[tessera_spec_pkg::TS_SVTX_RGBA_LSB + 8*c +: 8]));
  end
  tess_lane #(.W(tessera_spec_pkg::TS_SVTX_U_WIDTH), .SIGNED(1'b0)) u_u (
    .base_i(ln_base[tessera_spec_pkg::TS_SVTX_U_LSB +: tessera_spec_pkg::TS_SVTX_U_WIDTH]),
    .e_i(ln_e[tessera_spec_pkg::TS_SVTX_U_LSB +: tessera_spec_pkg::TS_SVTX_U_WIDTH]),
    .clk_i, .w_i(ln_w), .acc_i(ln_acc),
    .o_o(ln_o[tessera_spec_pkg::TS_SVTX_U_LSB +: tessera_spec_pkg::TS_SVTX_U_WIDTH]));
  tess_lane #(.W(tessera_spec_pkg::TS_SVTX_V_WIDTH), .SIGNED(1'b0)) u_v (
    .base_i(ln_base[tessera_spec_pkg::TS_SVTX_V_LSB +: tessera_spec_pkg::TS_SVTX_V_WIDTH]),
    .e_i(ln_e[tessera_spec_pkg::TS_SVTX_V_LSB +: tessera_spec_pkg::TS_SVTX_V_WIDTH]),
    .clk_i, .w_i(ln_w), .acc_i(ln_acc),
    .o_o(ln_o[tessera_spec_pkg::TS_SVTX_V_LSB +: tessera_spec_pkg::TS_SVTX_V_WIDTH]));

  // ---- the column computer -----------------------------------------------------------------
  // It computes the columns in order (rows outer) into NR, one at a time: a column starts
  // (S_NEXT) only when NR is empty, so its results can be captured at their fixed cycles.
  logic       take, produces, last_col, last_row, nr_load;
  logic [6:0] f1c, f2c, last_ci;
  logic [22:0] rc1, rc2, wc_next, wr_next;
  logic        busy;
  assign f1c      = clamp_f(in_f1_i);
  assign f2c      = clamp_f(in_f2_i);
  assign rc1      = recip(f1c);
  assign rc2      = recip((in_kind_i == 2'd1) ? f1c : f2c);
  assign in_ready_o = !busy;
  assign take     = in_valid_i && in_ready_o;
  // a patch with triangles: quad with both factors, triangle with its factor (kinds by value:
  // tess_pkg::PK_QUAD 0, PK_TRI 1, PK_ISOLINE 2)
  assign produces = ((in_kind_i == 2'd0) && f1c != '0 && f2c != '0) || ((in_kind_i == 2'd1) && f1c != '0);
  // columns of the row: quad 0..n1; triangle 0..n-rj
  assign last_ci  = tri_q ? n1_q - rj_q : n1_q;
  assign last_col = (ci_q == last_ci);
  assign last_row = tri_q ? (rj_q == n1_q - 7'd1) : (rj_q == n2_q - 7'd1);
  assign wc_next  = step(wc_q, rc_q, q1_q, m1_q, n1_q);
  assign wr_next  = tri_q ? step(wr1_q, rr1_q, q1_q, m1_q, n1_q) : step(wr1_q, rr1_q, q2_q, m2_q, n2_q);

  logic nr_valid_q;
  logic adv_col, adv_row;
  always_comb begin
    state_d = state_q;
    adv_col = 1'b0;
    adv_row = 1'b0;
    unique case (state_q)
      S_IDLE: if (take && produces) state_d = S_NEXT;
      S_NEXT: if (!nr_valid_q) state_d = tri_q ? S_V0 : S_BOT;
      S_BOT:  state_d = S_TOP;
      S_TOP:  state_d = S_BW;
      S_BW:   state_d = S_TW;
      S_TW:   state_d = S_V0;
      S_V0:   state_d = tri_q ? S_V0B : S_V1;
      S_V0B:  state_d = S_V1;
      S_V1:   state_d = tri_q ? S_V1B : S_W1;
      S_V1B:  state_d = S_W1;
      S_W1:   state_d = S_V1W;
      S_V1W: begin
        // the column is in NR (its second vertex captured now)
        if (!last_col) begin
          adv_col = 1'b1;
          state_d = S_NEXT;
        end else if (!last_row) begin
          adv_row = 1'b1;
          state_d = S_NEXT;
        end else begin
          state_d = S_IDLE;
        end
      end
      default: state_d = S_IDLE;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= S_IDLE;
      tri_q   <= 1'b0;
      n1_q    <= '0;
      n2_q    <= '0;
      ci_q    <= '0;
      rj_q    <= '0;
      wc_q    <= '0;
      wr0_q   <= '0;
      wr1_q   <= '0;
      rc_q    <= '0;
      rr1_q   <= '0;
      q1_q    <= '0;
      q2_q    <= '0;
      m1_q    <= '0;
      m2_q    <= '0;
    end else begin
      state_q <= state_d;
      if (take) begin
        tri_q <= (in_kind_i == 2'd1);
        n1_q  <= f1c;
        n2_q  <= (in_kind_i == 2'd1) ? f1c : f2c;
        q1_q  <= rc1[22:6];
        m1_q  <= rc1[5:0];
        q2_q  <= rc2[22:6];
        m2_q  <= rc2[5:0];
        ci_q  <= '0;
        rj_q  <= '0;
        wc_q  <= '0;
        rc_q  <= 6'(f1c >> 1);
        wr0_q <= '0;
        // row 1's weight: one step from row 0 (w(0) = 0, remainder n/2)
        {wr1_q, rr1_q} <= (in_kind_i == 2'd1)
                          ? step(17'd0, 6'(f1c >> 1), rc1[22:6], rc1[5:0], f1c)
                          : step(17'd0, 6'(f2c >> 1), rc2[22:6], rc2[5:0], f2c);
      end
      if (adv_col) begin
        ci_q         <= ci_q + 7'd1;
        {wc_q, rc_q} <= wc_next;
      end
      if (adv_row) begin
        ci_q           <= '0;
        rj_q           <= rj_q + 7'd1;
        wc_q           <= '0;
        rc_q           <= 6'(n1_q >> 1);
        wr0_q          <= wr1_q;
        {wr1_q, rr1_q} <= wr_next;
      end
    end
  end

  // NR: the finished column, {row rj, row rj+1} at column ci, until the emitter loads it
  logic [VW-1:0] nr0_q, nr1_q;
  logic [6:0]    nr_ci_q, nr_rj_q;
  logic          nr_final_q;   // the patch's last column
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      nr_valid_q <= 1'b0;
      nr_ci_q    <= '0;
      nr_rj_q    <= '0;
      nr_final_q <= 1'b0;
    end else begin
      if (nr_load) nr_valid_q <= 1'b0;
      if (state_q == S_V1W) begin
        nr_valid_q <= 1'b1;
        nr_ci_q    <= ci_q;
        nr_rj_q    <= rj_q;
        nr_final_q <= last_col && last_row;
      end
    end
  end
  // datapath registers (not reset: read only once written for the current patch)
  always_ff @(posedge clk_i) begin
    if (take) begin
      p0_q <= in_cp_i[0*VW +: VW];
      p1_q <= in_cp_i[1*VW +: VW];
      p2_q <= in_cp_i[2*VW +: VW];
      p3_q <= in_cp_i[3*VW +: VW];
    end
    if (state_q == S_BW)  bot_q <= ln_o;
    if (state_q == S_TW)  top_q <= ln_o;
    if ((state_q == S_W1 && !tri_q) || (state_q == S_V1B && tri_q)) nr0_q <= ln_o;
    if (state_q == S_V1W) nr1_q <= ln_o;
  end

  // ---- the emitter ---------------------------------------------------------------------------
  // It holds two columns, L (ci-1) and R (ci), and sends the cell between them as six vertices
  // (three for a triangle patch's cell on the diagonal) while the computer works on the next
  // column; then R moves to L and NR to R. A row's column 0 only loads.
  logic [VW-1:0] l0_q, l1_q, r0_q, r1_q;
  logic [6:0]    r_ci_q, r_rj_q;
  logic          r_final_q, em_active_q, cell_has2, emit_go, emit_last_k, em_free;
  logic [2:0]    k_q;          // vertex of the cell being emitted (0..5)
  // the cell (ci-1, rj) of a triangle patch has its second triangle when ci-1+rj < n-1
  assign cell_has2   = !tri_q || (7'(r_ci_q + r_rj_q) < n1_q);
  assign emit_last_k = cell_has2 ? (k_q == 3'd5) : (k_q == 3'd2);
  assign emit_go     = em_active_q && out_ready_i;
  assign em_free     = !em_active_q || (emit_go && emit_last_k);
  assign nr_load     = nr_valid_q && em_free;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      em_active_q <= 1'b0;
      k_q         <= '0;
      r_ci_q      <= '0;
      r_rj_q      <= '0;
      r_final_q   <= 1'b0;
    end else begin
      if (emit_go) k_q <= emit_last_k ? 3'd0 : k_q + 3'd1;
      if (emit_go && emit_last_k) em_active_q <= 1'b0;
      if (nr_load) begin
        em_active_q <= (nr_ci_q != '0);
        k_q         <= '0;
        r_ci_q      <= nr_ci_q;
        r_rj_q      <= nr_rj_q;
        r_final_q   <= nr_final_q;
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (nr_load) begin
      l0_q <= r0_q;
      l1_q <= r1_q;
      r0_q <= nr0_q;
      r1_q <= nr1_q;
    end
  end

  // ---- output: quad cell L0 R0 R1 / L0 R1 L1; triangle cell L0 R0 L1 / R0 R1 L1 --------------
  always_comb begin
    unique case (k_q)
      3'd0:    out_vtx_o = l0_q;
      3'd1:    out_vtx_o = r0_q;
      3'd2:    out_vtx_o = tri_q ? l1_q : r1_q;
      3'd3:    out_vtx_o = tri_q ? r0_q : l0_q;
      3'd4:    out_vtx_o = r1_q;
      default: out_vtx_o = l1_q;
    endcase
  end
  assign out_valid_o     = em_active_q;
  assign out_tri_end_o   = (k_q == 3'd2) || (k_q == 3'd5);
  assign out_patch_end_o = emit_last_k && r_final_q;

  logic [12:0] segs;   // at most 64 x 64
  assign busy       = (state_q != S_IDLE) || nr_valid_q || em_active_q;
  assign segs       = 13'(f1c) * 13'(f2c);
  assign busy_o     = busy;
  assign ev_patch_o = take;
  assign ev_segs_o  = (take && in_kind_i == 2'd2) ? segs : 13'd0;

  // ---- assertions ----------------------------------------------------------------------------
  `ASSERT(KindKnown_A, in_valid_i |-> in_kind_i != 2'd3)
  `ASSERT(FactorsInRange_A, state_q != S_IDLE |-> n1_q != '0 && n1_q <= 7'd64 && n2_q <= 7'd64)
  `ASSERT(ColumnInRange_A, state_q != S_IDLE |-> ci_q <= last_ci)
  // the weights reach exactly 1.0 at the last column and row
  `ASSERT(LastColumnWeightOne_A, state_q == S_V0 && !tri_q && ci_q == n1_q |-> wc_q == 17'd65536)
  `ASSERT(LastRowWeightOne_A, state_q == S_V0 && !tri_q && last_row |-> wr1_q == 17'd65536)
  // a column is captured into NR only when NR is empty, and columns reach R in order
  `ASSERT(NrFree_A, state_q == S_V1W |-> !nr_valid_q || nr_load)
  `ASSERT(ColumnsInOrder_A, nr_load && nr_ci_q != '0 |-> nr_ci_q == r_ci_q + 7'd1 && nr_rj_q == r_rj_q)
  `ASSERT(OutputHeld_A, out_valid_o && !out_ready_i |=> out_valid_o && $stable(out_vtx_o))

endmodule
