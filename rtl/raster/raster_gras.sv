// raster_gras -- rasterizer (GRAS): walks one primitive's rectangle inside one bin in 2x2
// quads and emits the covered ones, one quad (4 pixels) per clock.
//
// Source: ARCHITECTURE.md 5.4 "GRAS: rasterize a primitive within a bin in 2x2 quads, 4
// pixels per clock by default"; 001_3630ef805e8956e2.txt (Qualcomm) names GRAS as the
// slice's rasterizer. Arithmetic (docs/raster.md "Rasterization"): the edge functions and
// attribute planes from raster_tse are stepped by additions only (exact, wrapping); a pixel
// is covered when every edge function is > 0, or == 0 on a top-left edge
// (A > 0, or A == 0 and B > 0). Attributes: (plane >>> 20) clamped to the attribute range.
// The rectangle is (pixel bbox of the primitive) x (bin) x (render target), quads aligned to
// even pixel coordinates; pixels of a quad outside the rectangle are never covered.
// Every input is registered at start_i (the increments too), so the TSE can set up the next
// primitive while this one is rasterized (issue 16 item 5: setup overlapped with raster).

module raster_gras (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          start_i,          // pulse; the setup inputs are read in that cycle only
  input  logic [10:0]   x0_i, y0_i, x1_i, y1_i,   // rectangle (inclusive, absolute pixels)
  input  logic [10:0]   tile_x_i, tile_y_i,       // bin origin (for tile-local quad positions)
  input  logic [3*48-1:0] w_i,
  input  logic [3*21-1:0] ea_i,
  input  logic [3*21-1:0] eb_i,
  input  logic [7*48-1:0] pv_i,
  input  logic [7*48-1:0] pgx_i,
  input  logic [7*48-1:0] pgy_i,
  output logic          busy_o,
  output logic          done_o,           // pulse after the last quad was accepted
  output logic          quad_valid_o,
  input  logic          quad_ready_i,
  output tessera_raster_pkg::quad_t quad_o
);

  localparam int unsigned NP = 10;   // planes: 3 edges, 7 attributes

  logic                 act_q, act_d, done_q, done_d;
  logic [10:0]          qx_q, qx_d, qy_q, qy_d;
  logic [10:0]          x0_q, y0_q, x1_q, y1_q, tx_q, ty_q;
  logic [NP*48-1:0]     cur_q, cur_d, row_q, row_d;
  logic [7*48-1:0]      pgx_q, pgy_q;     // attribute increments, held for the primitive
  logic [3*21-1:0]      ea_q, eb_q;       // edge coefficients, held for the primitive

  // per-plane increments per 1/16 pixel (flat: plane j at [j*48 +: 48]; Yosys 0.23 warns on
  // unpacked arrays assigned in always_comb)
  logic [NP*48-1:0] gxf, gyf;
  assign gxf = {pgx_q, 48'($signed(ea_q[42 +: 21])), 48'($signed(ea_q[21 +: 21])), 48'($signed(ea_q[0 +: 21]))};
  assign gyf = {pgy_q, 48'($signed(eb_q[42 +: 21])), 48'($signed(eb_q[21 +: 21])), 48'($signed(eb_q[0 +: 21]))};

  logic [2:0] tl;
  always_comb begin
    for (int j = 0; j < 3; j++) begin
      tl[j] = ($signed(gxf[j*48 +: 48]) > 0) ||
              ((gxf[j*48 +: 48] == '0) && ($signed(gyf[j*48 +: 48]) > 0));
    end
  end

  // plane values at the quad's four pixel centres (pixel i = 2*dy + dx) at
  // pval[(i*NP+j)*48 +: 48]
  logic [4*NP*48-1:0] pval;
  logic [3:0]         cov;
  logic [95:0]        zq;
  logic [127:0]       cq, uvq;
  logic [7*28-1:0]    iv;
  logic [10:0]        px, py;
  logic               inr, ins;
  logic signed [47:0] pv;
  logic [2:0]         anyin;     // some pixel of the quad is inside edge j
  always_comb begin
    anyin = '0;
    cov = '0;  zq = '0;  cq = '0;  uvq = '0;  iv = '0;  pv = '0;
    px = '0;  py = '0;  inr = 1'b0;  ins = 1'b0;
    for (int i = 0; i < 4; i++) begin
      for (int j = 0; j < NP; j++) begin
        pval[(i*NP+j)*48 +: 48] = cur_q[j*48 +: 48]
                   + ((i % 2 == 1) ? {gxf[j*48 +: 44], 4'd0} : 48'd0)
                   + ((i / 2 == 1) ? {gyf[j*48 +: 44], 4'd0} : 48'd0);
      end
      px  = qx_q + 11'(i % 2);
      py  = qy_q + 11'(i / 2);
      inr = (px >= x0_q) && (px <= x1_q) && (py >= y0_q) && (py <= y1_q);
      ins = 1'b1;
      for (int j = 0; j < 3; j++) begin
        pv = $signed(pval[(i*NP+j)*48 +: 48]);
        if (!((pv > 0) || ((pv == '0) && tl[j]))) ins = 1'b0;
        else anyin[j] = 1'b1;
      end
      cov[i] = inr && ins;
      for (int k = 0; k < 7; k++) iv[k*28 +: 28] = pval[(i*NP+3+k)*48 + 20 +: 28];
      zq[i*24 +: 24] = iv[27] ? 24'd0 : ((iv[24 +: 4] != 4'd0) ? 24'hFF_FFFF : iv[0 +: 24]);
      // u, v wrap modulo 1.0 (their low 16 bits), as the texture address does
      uvq[i*32 + 16 +: 16] = iv[5*28 +: 16];
      uvq[i*32 +: 16]      = iv[6*28 +: 16];
      for (int k = 0; k < 4; k++) begin
        cq[i*32 + k*8 +: 8] = iv[(1+k)*28 + 27] ? 8'd0 :
                              ((iv[(1+k)*28 + 8 +: 20] != 20'd0) ? 8'hFF : iv[(1+k)*28 +: 8]);
      end
    end
  end

  // Early row end: if every pixel of the quad is outside edge j and that edge does not grow
  // to the right (A_j <= 0), no quad further right in this row pair can be inside it.
  logic rowskip;
  always_comb begin
    rowskip = 1'b0;
    for (int j = 0; j < 3; j++) begin
      if (!anyin[j] && !($signed(gxf[j*48 +: 48]) > 0)) rowskip = 1'b1;
    end
  end

  logic last_x, last_y, adv;
  assign last_x = (qx_q + 11'd2 > x1_q) || rowskip;
  assign last_y = (qy_q + 11'd2 > y1_q);
  assign quad_valid_o = act_q && (cov != '0);
  assign adv = act_q && ((cov == '0) || quad_ready_i);

  always_comb begin
    act_d = act_q;  done_d = 1'b0;  qx_d = qx_q;  qy_d = qy_q;  cur_d = cur_q;  row_d = row_q;
    if (start_i) begin
      act_d = 1'b1;
      qx_d  = {x0_i[10:1], 1'b0};
      qy_d  = {y0_i[10:1], 1'b0};
      cur_d = {pv_i, w_i};
      row_d = {pv_i, w_i};
    end else if (adv) begin
      if (!last_x) begin
        qx_d = qx_q + 11'd2;
        for (int j = 0; j < NP; j++) cur_d[j*48 +: 48] = cur_q[j*48 +: 48] + {gxf[j*48 +: 43], 5'd0};
      end else if (!last_y) begin
        qx_d = {x0_q[10:1], 1'b0};
        qy_d = qy_q + 11'd2;
        for (int j = 0; j < NP; j++) begin
          row_d[j*48 +: 48] = row_q[j*48 +: 48] + {gyf[j*48 +: 43], 5'd0};
          cur_d[j*48 +: 48] = row_d[j*48 +: 48];
        end
      end else begin
        act_d  = 1'b0;
        done_d = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      act_q <= 1'b0;  done_q <= 1'b0;  qx_q <= '0;  qy_q <= '0;  cur_q <= '0;  row_q <= '0;
      x0_q <= '0;  y0_q <= '0;  x1_q <= '0;  y1_q <= '0;  tx_q <= '0;  ty_q <= '0;
      pgx_q <= '0;
      pgy_q <= '0;
      ea_q <= '0;
      eb_q <= '0;
    end else begin
      act_q <= act_d;  done_q <= done_d;  qx_q <= qx_d;  qy_q <= qy_d;
      cur_q <= cur_d;  row_q <= row_d;
      if (start_i) begin
        x0_q <= x0_i;  y0_q <= y0_i;  x1_q <= x1_i;  y1_q <= y1_i;
        tx_q <= tile_x_i;  ty_q <= tile_y_i;
        pgx_q <= pgx_i;
        pgy_q <= pgy_i;
        ea_q <= ea_i;
        eb_q <= eb_i;
      end
    end
  end

  logic [10:0] lqx, lqy;
  assign lqx = qx_q - tx_q;
  assign lqy = qy_q - ty_q;
  assign quad_o.lx   = lqx[5:0];
  assign quad_o.ly   = lqy[5:0];
  assign quad_o.mask = cov;
  assign quad_o.z    = zq;
  assign quad_o.rgba = cq;
  assign quad_o.uv   = uvq;
  assign busy_o      = act_q || done_q;
  assign done_o      = done_q;

  logic unused_g;
  assign unused_g = ^{lqx[10:6], lqy[10:6], iv[5*28+16 +: 12], iv[6*28+16 +: 12], gxf[47:43], gyf[47:43]};

endmodule
