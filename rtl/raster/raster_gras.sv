// raster_gras -- rasterizer (GRAS): walks one primitive's rectangle inside one bin in 8x8
// pixel blocks, rejects the blocks no pixel of the primitive can cover (and, through LRZ,
// the blocks it cannot be seen in), and emits the covered 2x2 quads of the others, one quad
// (4 pixels) per clock.
//
// Source: ARCHITECTURE.md 5.4 "GRAS: rasterize a primitive within a bin in 2x2 quads, 4
// pixels per clock by default" and 5.3 (LRZ per 8x8 block, tested before the per-pixel
// test); 001_3630ef805e8956e2.txt (Qualcomm) names GRAS and LRZ as slice units. Arithmetic
// (docs/raster.md "Rasterization"): the edge functions and attribute planes from raster_tse
// are stepped by additions only (exact, wrapping); a pixel is covered when every edge
// function is > 0, or == 0 on a top-left edge (A > 0, or A == 0 and B > 0). Attributes:
// (plane >>> 20) clamped to the attribute range.
//
// Walk (issue 16 item 6, docs/raster.md "Block walk"): the rectangle is (pixel bbox of the
// primitive) x (bin) x (render target). The TSE evaluates the planes at the centre of the
// rectangle's first 8x8-aligned block's origin pixel. Two stages work on different blocks:
// the block walker (W_*), in raster order, per block:
//   W_BLK   the three edge functions and z at the block's corners (pixel centres bx, bx+8 x
//           by, by+8, a superset of the block's pixels) decide: an edge negative at all four
//           corners (zero counts as outside unless the edge is top-left) rejects the block,
//           and when that edge does not grow to the right, the rest of the block row too.
//           Otherwise the LRZ is asked (zmin/zmax of the corners, full coverage) and the
//           planes move 4 pixels into the block where the rectangle starts there.
//   W_LRZ   the LRZ answers; a rejected block is skipped; the planes move the last 2 pixels
//           to the block's first quad and the block goes to the quad stage (W_HOLD: while
//           the one-block buffer is full).
// and the quad stage (Q_RUN), which emits the block's quads inside the rectangle, one per
// clock (a quad row ends early once an edge that does not grow to the right has left it), and
// takes the next block in the cycle of a block's last quad: the walker's two cycles per
// accepted block and one per rejected block happen under the previous block's quads.
// Every input is registered at start_i, so the TSE sets up the next primitive meanwhile.

`include "prim_assert.svh"

module raster_gras (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          start_i,          // pulse; the setup inputs are read in that cycle only
  input  logic [10:0]   x0_i, y0_i, x1_i, y1_i,   // rectangle (inclusive, absolute pixels)
  input  logic [10:0]   tile_x_i, tile_y_i,       // bin origin (for tile-local quad positions)
  // planes at the pixel centre ({x0_i[10:3], 3'b0}, {y0_i[10:3], 3'b0})
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
  output tessera_raster_pkg::quad_t quad_o,
  // LRZ (raster_lrz): one request per block that survives the edge test, answered next cycle
  input  logic          lrz_hold_i,       // LRZ not ready (clearing): blocks wait
  output logic          lrz_req_o,
  output logic [10:0]   lrz_bx_o,         // block origin pixel (multiple of 8)
  output logic [10:0]   lrz_by_o,
  output logic [23:0]   lrz_zmin_o,       // z bounds of the block's pixels for this primitive
  output logic [23:0]   lrz_zmax_o,
  output logic          lrz_zok_o,        // the bounds are exact (the z plane does not wrap)
  output logic          lrz_full_o,       // the primitive covers every pixel of the block
  output logic [4:0]    lrz_nquads_o,     // quad positions of the block inside the rectangle
  input  logic          lrz_reject_i      // the cycle after lrz_req_o: skip the block
);

  localparam int unsigned NP = 10;   // planes: 3 edges, 7 attributes (z is plane 3)

  typedef enum logic [1:0] {W_IDLE, W_BLK, W_LRZ, W_HOLD} wstate_e;   // the block walker
  typedef enum logic {Q_IDLE, Q_RUN} qstate_e;                          // the quad stage
  wstate_e              ws_q, ws_d;
  qstate_e              qs_q, qs_d;
  logic                 act_q, act_d;       // a primitive is in GRAS
  logic                 done_q, done_d;
  logic [NP*48-1:0]     ent_q, ent_d;       // walker: planes at the block's entry (4-pixel steps)
  logic [10:0]          qxs_q, qxs_d;       // quad stage: the block's first quad column
  logic [1:0]           qeqx_q, qeqx_d, qeqy_q, qeqy_d;   // ... its last quad column / row
  logic                 nb_v_q, nb_v_d;     // the buffered next block
  logic [NP*48-1:0]     nb_cur_q, nb_cur_d;
  logic [10:0]          nb_qx_q, nb_qx_d, nb_qy_q, nb_qy_d;
  logic [1:0]           nb_eqx_q, nb_eqx_d, nb_eqy_q, nb_eqy_d;
  logic [10:0]          bx_q, bx_d, by_q, by_d;     // block origin
  logic [10:0]          qx_q, qx_d, qy_q, qy_d;     // quad origin
  logic [10:0]          x0_q, y0_q, x1_q, y1_q, tx_q, ty_q;
  logic [NP*48-1:0]     borg_q, borg_d, brow_q, brow_d;   // planes at the block / block row origin
  logic                 first_bx_q, first_bx_d, first_by_q, first_by_d;   // first block column / row
  logic [NP*48-1:0]     cur_q, cur_d, row_q, row_d;       // planes at the quad / quad row origin
  logic [7*48-1:0]      pgx_q, pgy_q;     // attribute increments, held for the primitive
  logic [3*21-1:0]      ea_q, eb_q;       // edge coefficients, held for the primitive

  // per-plane increments per 1/16 pixel (flat: plane j at [j*48 +: 48]; Yosys 0.23 warns on
  // unpacked arrays assigned in always_comb)
  logic [NP*48-1:0] gxf, gyf;
  assign gxf = {pgx_q, 48'($signed(ea_q[42 +: 21])), 48'($signed(ea_q[21 +: 21])), 48'($signed(ea_q[0 +: 21]))};
  assign gyf = {pgy_q, 48'($signed(eb_q[42 +: 21])), 48'($signed(eb_q[21 +: 21])), 48'($signed(eb_q[0 +: 21]))};

  // ---- logic depth (docs/raster.md "GRAS depth") ---------------------------------------------
  // Every 48-bit plane add is a prim_add (a parallel prefix: 8 LUT levels, against 19 for `+`
  // in this flow), three-operand adds go through a carry-save layer first, and the inside test
  // of an edge needs only a sign bit: E > 0, or E == 0 on a top-left edge, is E - 1 + tl >= 0,
  // so the test is the sign of E plus a per-primitive constant (offset - 1, carry in tl). Those
  // constants are computed at start_i and held for the primitive, like the pixel-3 attribute
  // offset (gx + gy) * 16 and z's (gx + gy) * 128, so no add in a cycle has three operands
  // but the walker's entry offsets. Edge values stay far inside 48 bits (A, B are 21 bits and
  // positions 16), so E - 1 does not wrap (EdgeInRange_A).

  // carry-save layer: a + b + c == sum + carry, both WIDTH bits (wrapping)
  function automatic logic [95:0] csa48(input logic [47:0] a, input logic [47:0] b, input logic [47:0] c);
    logic [47:0] sm, cy;
    sm = a ^ b ^ c;
    cy = {((a[46:0] & b[46:0]) | (a[46:0] & c[46:0]) | (b[46:0] & c[46:0])), 1'b0};
    csa48 = {cy, sm};
  endfunction

  // top-left edges: A > 0, or A == 0 and B > 0 (from the setup inputs, held)
  logic [2:0] tl_d, tl_q, tl;
  always_comb begin
    for (int j = 0; j < 3; j++) begin
      tl_d[j] = ($signed(ea_i[j*21 +: 21]) > 0) || ((ea_i[j*21 +: 21] == '0) && ($signed(eb_i[j*21 +: 21]) > 0));
    end
  end
  assign tl = tl_q;

  // Edge offsets with the -1 folded in, edge j, offset o at [(o*3+j)*48 +: 48]: o = 0, 1, 2 the
  // quad's pixels 1, 2, 3 (16 A, 16 B, 16 (A + B)), o = 3, 4, 5 the block's corners 1, 2, 3
  // (128 A, 128 B, 128 (A + B)); each is offset + ~0 + tl, one carry-save layer and a prim_add.
  localparam int unsigned NOFS = 6;
  logic [NOFS*3*48-1:0] eofs_d, eofs_q;
  logic [NOFS*3-1:0]    unused_eofs_co;
  for (genvar o = 0; o < NOFS; o++) begin : g_eofs
    for (genvar j = 0; j < 3; j++) begin : g_edge
      localparam int unsigned Sh = (o < 3) ? 4 : 7;
      logic [47:0] ax, by, ones;
      logic [95:0] cs;
      assign ax = ((o % 3) != 1) ? (48'($signed(ea_i[j*21 +: 21])) << Sh) : 48'd0;
      assign by = ((o % 3) != 0) ? (48'($signed(eb_i[j*21 +: 21])) << Sh) : 48'd0;
      assign ones = '1;
      assign cs = csa48(ax, by, ones);
      prim_add #(.WIDTH(48)) u_add (.a_i(cs[47:0]), .b_i(cs[95:48]), .ci_i(tl_d[j]),
                                    .sum_o(eofs_d[(o*3+j)*48 +: 48]), .co_o(unused_eofs_co[o*3+j]));
    end
  end

  // attribute offsets of the quad's pixel 3, 16 (gx + gy), and z's 128 (gx + gy)
  logic [7*48-1:0] aofs3_d, aofs3_q;
  logic [47:0]     z8xy_d, z8xy_q;
  logic [7:0]      unused_aofs_co;
  for (genvar k = 0; k < 7; k++) begin : g_aofs
    prim_add #(.WIDTH(48)) u_add (.a_i({pgx_i[k*48 +: 44], 4'd0}), .b_i({pgy_i[k*48 +: 44], 4'd0}), .ci_i(1'b0),
                                  .sum_o(aofs3_d[k*48 +: 48]), .co_o(unused_aofs_co[k]));
  end
  prim_add #(.WIDTH(48)) u_z8xy (.a_i({pgx_i[0 +: 41], 7'd0}), .b_i({pgy_i[0 +: 41], 7'd0}), .ci_i(1'b0),
                                 .sum_o(z8xy_d), .co_o(unused_aofs_co[7]));

  // ---- block test (G_BLK) ---------------------------------------------------------------------
  // Corners k = 0..3 at (bx + 8*(k%2), by + 8*(k/2)): borg plus 128 gx and/or 128 gy (8 pixels
  // of 16 sub-pixel units). For z the sums are checked for signed overflow, so zok means the
  // plane is linear (not wrapped) over the block and the corner values bound its pixels.
  logic [4*3*48-1:0] ecorner;   // corner k, edge j at [(k*3+j)*48 +: 48] (flat: Yosys 0.23)
  logic [4*48-1:0]   zc;        // corner k at [k*48 +: 48]
  logic [3:0]      zc_ovf;
  logic [47:0]     z8x, z8y;
  logic            z8x_ovf, z8y_ovf;
  assign z8x = {gxf[3*48 +: 41], 7'd0};
  assign z8y = {gyf[3*48 +: 41], 7'd0};
  // the shift by 7 overflows unless bits 47..40 are all sign
  assign z8x_ovf = !((&gxf[3*48 + 40 +: 8]) || (gxf[3*48 + 40 +: 8] == '0));
  assign z8y_ovf = !((&gyf[3*48 + 40 +: 8]) || (gyf[3*48 + 40 +: 8] == '0));

  // signed overflow of s = a + b, from the three sign bits (Yosys 0.23 does not parse a
  // `return` of a logical expression: function name assignment)
  function automatic logic add_ovf(input logic a, input logic b, input logic s);
    add_ovf = (a == b) && (s != a);
  endfunction

  // ecorner: edge j at corner k minus 1 plus tl_j (its sign is the outside test)
  logic [14:0] unused_corner_co;
  for (genvar k = 0; k < 4; k++) begin : g_corner
    for (genvar j = 0; j < 3; j++) begin : g_edge
      prim_add #(.WIDTH(48)) u_add (.a_i(borg_q[j*48 +: 48]),
                                    .b_i((k == 0) ? 48'hFFFF_FFFF_FFFF : eofs_q[((k+2)*3+j)*48 +: 48]),
                                    .ci_i((k == 0) ? tl[j] : 1'b0),
                                    .sum_o(ecorner[(k*3+j)*48 +: 48]), .co_o(unused_corner_co[k*3+j]));
    end
  end
  assign zc[0*48 +: 48] = borg_q[3*48 +: 48];
  prim_add #(.WIDTH(48)) u_zc1 (.a_i(borg_q[3*48 +: 48]), .b_i(z8x), .ci_i(1'b0), .sum_o(zc[1*48 +: 48]),
                                .co_o(unused_corner_co[12]));
  prim_add #(.WIDTH(48)) u_zc2 (.a_i(borg_q[3*48 +: 48]), .b_i(z8y), .ci_i(1'b0), .sum_o(zc[2*48 +: 48]),
                                .co_o(unused_corner_co[13]));
  prim_add #(.WIDTH(48)) u_zc3 (.a_i(borg_q[3*48 +: 48]), .b_i(z8xy_q), .ci_i(1'b0), .sum_o(zc[3*48 +: 48]),
                                .co_o(unused_corner_co[14]));
  always_comb begin
    zc_ovf[0] = 1'b0;
    zc_ovf[1] = add_ovf(zc[0*48+47], z8x[47], zc[1*48+47]);
    zc_ovf[2] = add_ovf(zc[0*48+47], z8y[47], zc[2*48+47]);
    zc_ovf[3] = zc_ovf[1] || add_ovf(zc[1*48+47], z8y[47], zc[3*48+47]);
  end

  // per edge: inside at corner k (E - 1 + tl >= 0); the block is outside edge j when no corner is inside
  logic [2:0] eout, eout_stop;
  logic       eall, blk_reject, row_reject;
  always_comb begin
    eall = 1'b1;
    for (int j = 0; j < 3; j++) begin
      eout[j] = 1'b1;
      for (int k = 0; k < 4; k++) begin
        if (!ecorner[(k*3+j)*48 + 47]) begin
          eout[j] = 1'b0;
        end else begin
          eall = 1'b0;
        end
      end
      // nothing to the right of this block is inside edge j either
      eout_stop[j] = eout[j] && !($signed(gxf[j*48 +: 48]) > 0);
    end
    blk_reject = |eout;
    row_reject = |eout_stop;
  end

  // (plane >>> 20) clamped to [0, 2^24 - 1], from the plane's bits 47..20
  function automatic logic [23:0] zclamp(input logic [27:0] v);
    zclamp = v[27] ? 24'd0 : ((v[24 +: 3] != 3'd0) ? 24'hFF_FFFF : v[0 +: 24]);
  endfunction

  // z is linear over the block when zok: its smallest corner is the one the negative gradients
  // point to (corner k = x + 2 y), its largest the opposite one, and clamping keeps the order.
  // When !zok the LRZ ignores both (raster_lrz: reject and update need zok).
  logic [1:0]  kzmin;
  logic [23:0] zmin, zmax;
  assign kzmin = {z8y[47], z8x[47]};
  always_comb begin
    zmin = '0;
    zmax = '0;
    for (int k = 0; k < 4; k++) begin
      if (kzmin == 2'(k)) zmin = zclamp(zc[k*48+20 +: 28]);
      if (kzmin == 2'(3 - k)) zmax = zclamp(zc[k*48+20 +: 28]);
    end
  end
`ifndef SYNTHESIS
  // the four corners' minimum and maximum, as the LRZ defines its bounds
  logic [23:0] zmin_all, zmax_all, zk;
  always_comb begin
    zmin_all = zclamp(zc[0*48+20 +: 28]);
    zmax_all = zmin_all;
    for (int k = 1; k < 4; k++) begin
      zk = zclamp(zc[k*48+20 +: 28]);
      if (zk < zmin_all) zmin_all = zk;
      if (zk > zmax_all) zmax_all = zk;
    end
  end
  `ASSERT(ZBoundsAreCornerMinMax_A, lrz_req_o && lrz_zok_o |-> zmin == zmin_all && zmax == zmax_all)
`endif


  // ---- the walker's block: entry position, last quad, quads inside the rectangle -----------
  // Where the rectangle starts inside this block (in quads, 0..3): only in the first block
  // column / row. The last quad column / row inside the block and the rectangle.
  logic       first_bx, first_by, full_rect;
  logic [1:0] oqx, oqy, eqx, eqy;
  logic [2:0] nqx, nqy;
  logic [10:0] bxs, bys;
  logic        unused_bys;
  assign unused_bys = ^bys;
  assign bxs = {x0_q[10:3], 3'd0};
  assign bys = {y0_q[10:3], 3'd0};
  assign first_bx = first_bx_q;   // registered with the block position (depth)
  assign first_by = first_by_q;
  assign oqx = first_bx ? x0_q[2:1] : 2'd0;
  assign oqy = first_by ? y0_q[2:1] : 2'd0;
  assign eqx = (x1_q[10:3] != bx_q[10:3]) ? 2'd3 : x1_q[2:1];
  assign eqy = (y1_q[10:3] != by_q[10:3]) ? 2'd3 : y1_q[2:1];
  assign nqx = 3'(eqx) - 3'(oqx) + 3'd1;
  assign nqy = 3'(eqy) - 3'(oqy) + 3'd1;
  assign full_rect = (bx_q >= x0_q) && (11'(bx_q + 11'd7) <= x1_q) &&
                     (by_q >= y0_q) && (11'(by_q + 11'd7) <= y1_q);

  // next block: right, else the next block row, else the primitive is done
  logic last_bx, last_by;
  assign last_bx = (bx_q[10:3] == x1_q[10:3]);
  assign last_by = (by_q[10:3] == y1_q[10:3]);


  // ---- quads (the quad stage) -----------------------------------------------------------------
  // attribute values at the quad's four pixel centres (pixel i = 2*dy + dx) at
  // pval[(i*NP+j)*48 +: 48] (j >= 3); for the edges (j < 3) pval holds E - 1 + tl, whose sign
  // bit is the outside test
  logic [4*NP*48-1:0] pval;
  logic [4*NP-1:0]    unused_pval_co;
  for (genvar i = 0; i < 4; i++) begin : g_pix
    for (genvar j = 0; j < NP; j++) begin : g_plane
      if (j < 3) begin : g_edge
        prim_add #(.WIDTH(48)) u_add (.a_i(cur_q[j*48 +: 48]),
                                      .b_i((i == 0) ? 48'hFFFF_FFFF_FFFF : eofs_q[((i-1)*3+j)*48 +: 48]),
                                      .ci_i((i == 0) ? tl[j] : 1'b0),
                                      .sum_o(pval[(i*NP+j)*48 +: 48]), .co_o(unused_pval_co[i*NP+j]));
      end else if (i == 0) begin : g_attr0
        assign pval[(i*NP+j)*48 +: 48] = cur_q[j*48 +: 48];
        assign unused_pval_co[i*NP+j] = 1'b0;
      end else begin : g_attr
        prim_add #(.WIDTH(48)) u_add (.a_i(cur_q[j*48 +: 48]),
                                      .b_i((i == 1) ? {gxf[j*48 +: 44], 4'd0} :
                                           (i == 2) ? {gyf[j*48 +: 44], 4'd0} : aofs3_q[(j-3)*48 +: 48]),
                                      .ci_i(1'b0),
                                      .sum_o(pval[(i*NP+j)*48 +: 48]), .co_o(unused_pval_co[i*NP+j]));
      end
    end
  end
  logic [3:0]         cov;
  logic [95:0]        zq;
  logic [127:0]       cq, uvq;
  logic [7*28-1:0]    iv;
  logic [10:0]        px, py;
  logic               inr, ins;
  logic [2:0]         anyin;     // some pixel of the quad is inside edge j
  always_comb begin
    anyin = '0;
    cov = '0;  zq = '0;  cq = '0;  uvq = '0;  iv = '0;
    px = '0;  py = '0;  inr = 1'b0;  ins = 1'b0;
    for (int i = 0; i < 4; i++) begin
      px  = qx_q + 11'(i % 2);
      py  = qy_q + 11'(i / 2);
      inr = (px >= x0_q) && (px <= x1_q) && (py >= y0_q) && (py <= y1_q);
      ins = 1'b1;
      for (int j = 0; j < 3; j++) begin
        if (pval[(i*NP+j)*48 + 47]) ins = 1'b0;
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

  // ---- the two stages ------------------------------------------------------------------------
  // The walker (W_*) tests blocks and asks the LRZ; an accepted block goes, with the planes at
  // its first quad, to the quad stage (Q_*) directly when that takes a block this cycle, or
  // into the one-block buffer (nb_*) in between. The quad stage emits one quad per clock and
  // takes the next block in the cycle of its last quad, so a block's test and LRZ question
  // happen while the block before it is still emitting quads.
  logic last_qx, last_qy, adv, blk_end;
  assign last_qx = (qx_q[2:1] == qeqx_q) || rowskip;
  assign last_qy = (qy_q[2:1] == qeqy_q);
  assign quad_valid_o = (qs_q == Q_RUN) && (cov != '0);
  assign adv     = (qs_q == Q_RUN) && ((cov == '0) || quad_ready_i);
  assign blk_end = adv && last_qx && last_qy;

  // The plane steps, each a prim_add per plane: the entry (borg plus the first block's 4-pixel
  // skips) and the first quad (ent plus its 2-pixel skips), three operands through a carry-save
  // layer; the next block (borg + 128 gx), block row (brow + 128 gy), quad (cur + 32 gx) and
  // quad row (row + 32 gy).
  logic [NP*48-1:0] ent_v, cur0, borg_x, brow_y, cur_x, row_y;
  logic [6*NP-1:0]  unused_step_co;
  for (genvar j = 0; j < NP; j++) begin : g_step
    logic [95:0] cs_ent, cs_cur0;
    assign cs_ent  = csa48(borg_q[j*48 +: 48], oqx[1] ? {gxf[j*48 +: 42], 6'd0} : 48'd0,
                           oqy[1] ? {gyf[j*48 +: 42], 6'd0} : 48'd0);
    assign cs_cur0 = csa48(ent_q[j*48 +: 48], oqx[0] ? {gxf[j*48 +: 43], 5'd0} : 48'd0,
                           oqy[0] ? {gyf[j*48 +: 43], 5'd0} : 48'd0);
    prim_add #(.WIDTH(48)) u_ent (.a_i(cs_ent[47:0]), .b_i(cs_ent[95:48]), .ci_i(1'b0),
                                  .sum_o(ent_v[j*48 +: 48]), .co_o(unused_step_co[j*6+0]));
    prim_add #(.WIDTH(48)) u_cur0 (.a_i(cs_cur0[47:0]), .b_i(cs_cur0[95:48]), .ci_i(1'b0),
                                   .sum_o(cur0[j*48 +: 48]), .co_o(unused_step_co[j*6+1]));
    prim_add #(.WIDTH(48)) u_borg (.a_i(borg_q[j*48 +: 48]), .b_i({gxf[j*48 +: 41], 7'd0}), .ci_i(1'b0),
                                   .sum_o(borg_x[j*48 +: 48]), .co_o(unused_step_co[j*6+2]));
    prim_add #(.WIDTH(48)) u_brow (.a_i(brow_q[j*48 +: 48]), .b_i({gyf[j*48 +: 41], 7'd0}), .ci_i(1'b0),
                                   .sum_o(brow_y[j*48 +: 48]), .co_o(unused_step_co[j*6+3]));
    prim_add #(.WIDTH(48)) u_cur (.a_i(cur_q[j*48 +: 48]), .b_i({gxf[j*48 +: 43], 5'd0}), .ci_i(1'b0),
                                  .sum_o(cur_x[j*48 +: 48]), .co_o(unused_step_co[j*6+4]));
    prim_add #(.WIDTH(48)) u_row (.a_i(row_q[j*48 +: 48]), .b_i({gyf[j*48 +: 43], 5'd0}), .ci_i(1'b0),
                                  .sum_o(row_y[j*48 +: 48]), .co_o(unused_step_co[j*6+5]));
  end

  logic push, q_take, next_blk, next_row;
  always_comb begin
    ws_d = ws_q;  qs_d = qs_q;  done_d = 1'b0;  act_d = act_q;
    bx_d = bx_q;  by_d = by_q;  borg_d = borg_q;  brow_d = brow_q;  ent_d = ent_q;
    first_bx_d = first_bx_q;  first_by_d = first_by_q;
    qx_d = qx_q;  qy_d = qy_q;  cur_d = cur_q;  row_d = row_q;
    qxs_d = qxs_q;  qeqx_d = qeqx_q;  qeqy_d = qeqy_q;
    nb_v_d = nb_v_q;  nb_cur_d = nb_cur_q;  nb_qx_d = nb_qx_q;  nb_qy_d = nb_qy_q;
    nb_eqx_d = nb_eqx_q;  nb_eqy_d = nb_eqy_q;
    next_blk = 1'b0;
    next_row = 1'b0;
    push = 1'b0;
    lrz_req_o = 1'b0;
    // ---- walker ----
    unique case (ws_q)
      W_IDLE: ;
      W_BLK: begin
        // the planes at the block's entry (the first quad column / row where the rectangle
        // starts inside the block), whatever the test says: the test does not steer the adders
        ent_d = ent_v;
        if (lrz_hold_i) begin
          ws_d = W_BLK;
        end else if (blk_reject) begin
          next_blk = !row_reject;
          next_row = row_reject;
        end else begin
          lrz_req_o = 1'b1;
          ws_d = W_LRZ;
        end
      end
      W_LRZ: begin            // the LRZ answers now
        if (lrz_reject_i) begin
          next_blk = 1'b1;
        end else if (!nb_v_q) begin
          push = 1'b1;
          next_blk = 1'b1;
        end else begin
          ws_d = W_HOLD;        // the buffer is full: hold the block (ent_q, so cur0, stays)
        end
      end
      W_HOLD: if (!nb_v_q) begin
        push = 1'b1;
        next_blk = 1'b1;
      end
      default: ws_d = W_IDLE;
    endcase
    // leaving a block: to the next one, the next block row, or the walk is over
    if (next_blk && !last_bx) begin
      bx_d = bx_q + 11'd8;
      first_bx_d = 1'b0;
      borg_d = borg_x;
      ws_d = W_BLK;
    end else if ((next_blk || next_row) && !last_by) begin
      bx_d = bxs;
      by_d = by_q + 11'd8;
      first_bx_d = 1'b1;
      first_by_d = 1'b0;
      brow_d = brow_y;
      borg_d = brow_y;
      ws_d = W_BLK;
    end else if (next_blk || next_row) begin
      ws_d = W_IDLE;
    end

    // ---- quad stage ----
    // one quad step
    if (adv) begin
      if (!last_qx) begin
        qx_d = qx_q + 11'd2;
        cur_d = cur_x;
      end else if (!last_qy) begin
        qx_d = qxs_q;
        qy_d = qy_q + 11'd2;
        row_d = row_y;
        cur_d = row_y;
      end
    end
    // the next block: from the buffer, or straight from the walker's push
    q_take = (qs_q == Q_IDLE) || blk_end;
    if (q_take) begin
      if (nb_v_q) begin
        cur_d = nb_cur_q;  row_d = nb_cur_q;  qx_d = nb_qx_q;  qy_d = nb_qy_q;
        qxs_d = nb_qx_q;  qeqx_d = nb_eqx_q;  qeqy_d = nb_eqy_q;
        nb_v_d = 1'b0;
        qs_d = Q_RUN;
      end else if (push) begin
        cur_d = cur0;
        row_d = cur0;
        qx_d = bx_q + {8'd0, oqx, 1'b0};
        qy_d = by_q + {8'd0, oqy, 1'b0};
        qxs_d = qx_d;  qeqx_d = eqx;  qeqy_d = eqy;
        qs_d = Q_RUN;
      end else begin
        qs_d = Q_IDLE;
      end
    end
    if (push && !(q_take && !nb_v_q)) begin
      nb_v_d = 1'b1;
      nb_cur_d = cur0;
      nb_qx_d = bx_q + {8'd0, oqx, 1'b0};
      nb_qy_d = by_q + {8'd0, oqy, 1'b0};
      nb_eqx_d = eqx;
      nb_eqy_d = eqy;
    end
    // the primitive is done when the walker has finished and every block's quads are out
    if (act_q && ws_q == W_IDLE && !nb_v_q && (qs_q == Q_IDLE || (blk_end && !nb_v_q)) &&
        !push) begin
      act_d = 1'b0;
      done_d = 1'b1;
      qs_d = Q_IDLE;
    end
    if (start_i) begin
      act_d  = 1'b1;
      ws_d   = W_BLK;
      bx_d   = {x0_i[10:3], 3'd0};
      by_d   = {y0_i[10:3], 3'd0};
      first_bx_d = 1'b1;
      first_by_d = 1'b1;
      borg_d = {pv_i, w_i};
      brow_d = {pv_i, w_i};
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ws_q <= W_IDLE;
      qs_q <= Q_IDLE;
      act_q <= 1'b0;
      done_q <= 1'b0;
      bx_q <= '0;
      by_q <= '0;
      qx_q <= '0;
      qy_q <= '0;
      borg_q <= '0;
      brow_q <= '0;
      ent_q <= '0;
      first_bx_q <= 1'b0;
      first_by_q <= 1'b0;
      tl_q <= '0;
      eofs_q <= '0;
      aofs3_q <= '0;
      z8xy_q <= '0;
      cur_q <= '0;
      row_q <= '0;
      qxs_q <= '0;
      qeqx_q <= '0;
      qeqy_q <= '0;
      nb_v_q <= 1'b0;
      nb_cur_q <= '0;
      nb_qx_q <= '0;
      nb_qy_q <= '0;
      nb_eqx_q <= '0;
      nb_eqy_q <= '0;
      x0_q <= '0;
      y0_q <= '0;
      x1_q <= '0;
      y1_q <= '0;
      tx_q <= '0;
      ty_q <= '0;
      pgx_q <= '0;
      pgy_q <= '0;
      ea_q <= '0;
      eb_q <= '0;
    end else begin
      ws_q <= ws_d;
      qs_q <= qs_d;
      act_q <= act_d;
      done_q <= done_d;
      bx_q <= bx_d;
      by_q <= by_d;
      qx_q <= qx_d;
      qy_q <= qy_d;
      borg_q <= borg_d;
      brow_q <= brow_d;
      ent_q <= ent_d;
      first_bx_q <= first_bx_d;
      first_by_q <= first_by_d;
      cur_q <= cur_d;
      row_q <= row_d;
      qxs_q <= qxs_d;
      qeqx_q <= qeqx_d;
      qeqy_q <= qeqy_d;
      nb_v_q <= nb_v_d;
      nb_cur_q <= nb_cur_d;
      nb_qx_q <= nb_qx_d;
      nb_qy_q <= nb_qy_d;
      nb_eqx_q <= nb_eqx_d;
      nb_eqy_q <= nb_eqy_d;
      if (start_i) begin
        x0_q <= x0_i;
        y0_q <= y0_i;
        x1_q <= x1_i;
        y1_q <= y1_i;
        tx_q <= tile_x_i;
        ty_q <= tile_y_i;
        pgx_q <= pgx_i;
        pgy_q <= pgy_i;
        ea_q <= ea_i;
        eb_q <= eb_i;
        tl_q <= tl_d;
        eofs_q <= eofs_d;
        aofs3_q <= aofs3_d;
        z8xy_q <= z8xy_d;
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

  assign lrz_bx_o     = bx_q;
  assign lrz_by_o     = by_q;
  assign lrz_zmin_o   = zmin;
  assign lrz_zmax_o   = zmax;
  assign lrz_zok_o    = !(|zc_ovf) && !z8x_ovf && !z8y_ovf;
  assign lrz_full_o   = eall && full_rect;
  assign lrz_nquads_o = 5'(nqx * nqy);

  logic unused_g;
  assign unused_g = ^{unused_eofs_co, unused_aofs_co, unused_corner_co, unused_pval_co, unused_step_co,
                      pval[0 +: 47], pval[48 +: 47], pval[96 +: 47], pval[NP*48 +: 47], pval[NP*48+48 +: 47],
                      pval[NP*48+96 +: 47], pval[2*NP*48 +: 47], pval[2*NP*48+48 +: 47], pval[2*NP*48+96 +: 47],
                      pval[3*NP*48 +: 47], pval[3*NP*48+48 +: 47], pval[3*NP*48+96 +: 47],
                      ecorner[0 +: 47], ecorner[48 +: 47], ecorner[96 +: 47], ecorner[144 +: 47], ecorner[192 +: 47],
                      ecorner[240 +: 47], ecorner[288 +: 47], ecorner[336 +: 47], ecorner[384 +: 47],
                      ecorner[432 +: 47], ecorner[480 +: 47], ecorner[528 +: 47], lqx[10:6], lqy[10:6], iv[5*28+16 +: 12], iv[6*28+16 +: 12], gxf, gyf,
                      zc[0*48 +: 20], zc[1*48 +: 20], zc[2*48 +: 20], zc[3*48 +: 20]};

  // ---- assertions -------------------------------------------------------------------------------
  // A start only when free; the walk stays inside the rectangle's blocks; quads are inside
  // the block; a quad with covered pixels lies in the rectangle.
  `ASSERT(StartWhenIdle_A, start_i |-> !act_q)
  `ASSERT(StartRectOrdered_A, start_i |-> x0_i <= x1_i && y0_i <= y1_i)
  `ASSERT(BlockInRect_A, ws_q != W_IDLE |-> bx_q[10:3] >= x0_q[10:3] && bx_q[10:3] <= x1_q[10:3] &&
                                             by_q[10:3] >= y0_q[10:3] && by_q[10:3] <= y1_q[10:3])
  `ASSERT(BlockAligned_A, ws_q != W_IDLE |-> bx_q[2:0] == '0 && by_q[2:0] == '0)
  `ASSERT(QuadInBlock_A, qs_q == Q_RUN |-> qx_q[2:1] <= qeqx_q && qy_q[2:1] <= qeqy_q &&
                                          qx_q[0] == 1'b0 && qy_q[0] == 1'b0)
  `ASSERT(QuadInRect_A, quad_valid_o |-> qx_q + 11'd1 >= x0_q && qx_q <= x1_q &&
                                        qy_q + 11'd1 >= y0_q && qy_q <= y1_q)
  `ASSERT(QuadHeldUntilReady_A, quad_valid_o && !quad_ready_i |=> quad_valid_o && $stable(quad_o))
  `ASSERT(LrzRequestFromBlock_A, lrz_req_o |-> ws_q == W_BLK && !blk_reject)
  `ASSERT(DoneAfterWalk_A, done_q |-> ws_q == W_IDLE && qs_q == Q_IDLE && !nb_v_q)
  // a block waits in the buffer only while the quad stage works on another
  `ASSERT(BufferBehindQuads_A, nb_v_q |-> qs_q == Q_RUN)
  `ASSERT(PushIntoRoom_A, push |-> !nb_v_q)
  // The inside test E - 1 + tl >= 0 equals E > 0 || (E == 0 && tl) unless E - 1 wraps: edge
  // values at the quads and block corners stay within 2^46.
  `ASSERT(EdgeInRange_A, qs_q == Q_RUN |-> ($signed(cur_q[0 +: 48]) < 48'sh4000_0000_0000) &&
                                          ($signed(cur_q[0 +: 48]) > -48'sh4000_0000_0000) &&
                                          ($signed(cur_q[48 +: 48]) < 48'sh4000_0000_0000) &&
                                          ($signed(cur_q[48 +: 48]) > -48'sh4000_0000_0000) &&
                                          ($signed(cur_q[96 +: 48]) < 48'sh4000_0000_0000) &&
                                          ($signed(cur_q[96 +: 48]) > -48'sh4000_0000_0000))
`ifndef SYNTHESIS
  // An edge-rejected block has no covered pixel: its quads, walked here, would all be empty.
  // Checked by the reference model's exhaustive walk in the bench; here: a full block
  // has all its corners inside every edge.
  `ASSERT(FullMeansNoEdgeOut_A, lrz_req_o && lrz_full_o |-> eout == '0)
`endif

endmodule
