// raster_binner -- the raster slice's primitive batch binner: the batch store (triangles,
// pixel and tile boxes, two batches deep), the setup of each triangle as it enters (TSE,
// setup RAM), the bin walker with the per-primitive box flags, and the screen ownership.
//
// Sources: 000_b9c7be2d27aa8181.txt (AMD) -- primitive batch binning, the single-level mode:
// "a batch collects primitives ... ; for each batch, walk the bins touched by any batch
// primitive and send the batch's primitives touching each bin, in order" (ARCHITECTURE.md
// 5.4); 001_3630ef805e8956e2.txt (Qualcomm) -- tile (tx, ty) belongs to slice
// (tx + ty * skew) mod N (ARCHITECTURE.md 5.3). Issue 16 item 1: split out of raster_slice,
// whose control decides when to insert, walk, step and end a batch (docs/raster.md "Flow").
//
// - Insertion (ins_i): the triangle's pixel box (pixel centres inside the vertex box, clamped
//   to the render target) and tile box; vertices and pixel box to the tri RAM, the tile box
//   to flops, the batch's union box grows.
// - Setup once per triangle (issue 16 item 5, docs/raster.md "Setup once per triangle"): the
//   sequencer reads each inserted triangle that touches a tile this slice owns back from the
//   tri RAM, runs the TSE at the centre of its first 8x8 block and writes the result into the
//   setup RAM at the same entry. The slice's raster side reads records (sr_*) once ready.
// - Walk: from the union box's corner (a batch) or the target's (a clear walk, clear_walk_i),
//   one step per step_i, in raster order; bmask_o is the primitive mask of the walker's bin,
//   from box flags that follow the walker (equality compares only).
// - Banks: the batch being inserted and walked is in bank wbank_o; flip_i (the batch's last
//   bin handed on, every triangle set up) moves insertion to the other bank.

`include "prim_assert.svh"

module raster_binner #(
  parameter int unsigned BATCH_PRIMS = 64,
  parameter int unsigned NUM_TSE     = 2,    // TSEs the sequencer starts in turn (1 or more)
  // Derived
  localparam int unsigned BIdxW = (BATCH_PRIMS > 1) ? $clog2(BATCH_PRIMS) : 1,
  localparam int unsigned BCntW = $clog2(BATCH_PRIMS + 1),
  localparam int unsigned SRW   = 1 + 44 + 3*48 + 2*3*21 + 3*7*48   // a setup record
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  // state: tile grid, render target, ownership, texturing (u, v set up)
  input  logic [2:0]              l2t_i,          // log2(tile) - 4
  input  logic [11:0]             rtw_i,          // the target's size (from next cycle on)
  input  logic [11:0]             rth_i,
  input  logic [3:0]              snum_i,
  input  logic [2:0]              sidx_i,
  input  logic [2:0]              skew_i,
  // two-level binning: the coarse bin this pass renders (RASTER.COARSE, 64-pixel blocks,
  // inclusive), when crect_en_i; the walk and the boxes stay inside it
  // (these and rtw_i / rth_i are the values from the next cycle on: the write or
  // RENDERPASS_BEGIN taken this cycle included, so the limits below are never a cycle late)
  input  logic                    crect_en_i,
  input  logic [4:0]              cx0_i,
  input  logic [4:0]              cy0_i,
  input  logic [4:0]              cx1_i,
  input  logic [4:0]              cy1_i,
  output logic                    crect_empty_o,  // enabled and empty: nothing to render or clear
  input  logic                    uv_en_i,
  // insertion: the offered triangle {v0, v1, v2} (spec/layouts.yaml svtx), taken with ins_i
  input  logic [383:0]            tri_i,
  input  logic                    ins_i,
  // walker control (raster_slice's T_* machine)
  input  logic                    idle_i,         // T_IDLE: the flags follow insertion
  input  logic                    walking_i,      // a batch walk (the flags are valid)
  input  logic                    clear_walk_i,   // T_CWALK / T_CLEAR: bounds are the target
  input  logic                    walk_start_i,   // start a walk at its first tile ...
  input  logic                    walk_batch_i,   // ... of the batch (else of the target)
  input  logic                    step_i,         // step to the next tile
  input  logic                    batch_end_i,    // the batch is over (walked, or dropped)
  input  logic                    flip_i,         // ... and the next goes into the other bank
  // batch state
  output logic [BCntW-1:0]        bcnt_o,         // triangles in the batch
  output logic                    uv_next_o,      // the union box is valid after this cycle's insertion
  output logic                    wbank_o,
  output logic                    sq_done_o,      // every inserted triangle is set up
  // the walker's tile
  output logic [6:0]              wtx_o,
  output logic [6:0]              wty_o,
  output logic                    walk_last_o,
  output logic                    owned_o,
  output logic [BATCH_PRIMS-1:0]  bmask_o,
  output logic [7:0]              bpop_o,
  // setup records (the raster side): ready when written; data the cycle after sr_re_i,
  // held until the next read
  input  logic                    sr_bank_i,
  input  logic [BIdxW-1:0]        sr_idx_i,
  output logic                    sr_ready_o,
  input  logic                    sr_re_i,
  output logic [SRW-1:0]          sr_rdata_o      // {degen, x0, y0, x1, y1, w, ea, eb, pv, pgx, pgy}
);

  // ============================================================================================
  // The area a pass renders: the target, or its part inside the coarse bin (two-level
  // binning; docs/two-level.md). Registered, from the values the target's size and
  // RASTER.COARSE take next cycle (a triangle may follow RENDERPASS_BEGIN or the register
  // write by one cycle), so the box compares below take them at no extra depth.
  // ============================================================================================
  logic [10:0] plx0_q, plx1_q, ply0_q, ply1_q, plx0_d, plx1_d, ply0_d, ply1_d;  // pixels, inclusive
  logic [6:0]  ctx0_q, ctx1_q, cty0_q, cty1_q, ctx0_d, ctx1_d, cty0_d, cty1_d;  // tiles, inclusive
  logic        cempty_q, cempty_d;
  always_comb begin
    logic [11:0] lx1, ly1;
    lx1 = rtw_i - 12'd1;
    ly1 = rth_i - 12'd1;
    plx0_d = '0;  ply0_d = '0;  plx1_d = lx1[10:0];  ply1_d = ly1[10:0];
    cempty_d = 1'b0;
    if (crect_en_i) begin
      plx0_d = {cx0_i, 6'd0};
      ply0_d = {cy0_i, 6'd0};
      if ({1'b0, cx1_i, 6'h3f} < lx1) plx1_d = {cx1_i, 6'h3f};
      if ({1'b0, cy1_i, 6'h3f} < ly1) ply1_d = {cy1_i, 6'h3f};
      cempty_d = (cx0_i > cx1_i) || (cy0_i > cy1_i) || ({1'b0, cx0_i, 6'd0} > lx1) ||
                 ({1'b0, cy0_i, 6'd0} > ly1);
    end
    ctx0_d = 7'(plx0_d >> (l2t_i + 3'd4));
    ctx1_d = 7'(plx1_d >> (l2t_i + 3'd4));
    cty0_d = 7'(ply0_d >> (l2t_i + 3'd4));
    cty1_d = 7'(ply1_d >> (l2t_i + 3'd4));
  end
  assign crect_empty_o = cempty_d;

  // ============================================================================================
  // Insertion: pixel bounding box and tile box
  // ============================================================================================
  localparam int unsigned VW = tessera_spec_pkg::TS_SVTX_W;
  localparam int unsigned XL = tessera_spec_pkg::TS_SVTX_X_LSB;
  localparam int unsigned YL = tessera_spec_pkg::TS_SVTX_Y_LSB;
  logic signed [20:0] ix0, ix1, ix2, iy0, iy1, iy2;
  assign ix0 = $signed({tri_i[2*VW + XL + 19], tri_i[2*VW + XL +: 20]});
  assign iy0 = $signed({tri_i[2*VW + YL + 19], tri_i[2*VW + YL +: 20]});
  assign ix1 = $signed({tri_i[VW + XL + 19], tri_i[VW + XL +: 20]});
  assign iy1 = $signed({tri_i[VW + YL + 19], tri_i[VW + YL +: 20]});
  assign ix2 = $signed({tri_i[XL + 19], tri_i[XL +: 20]});
  assign iy2 = $signed({tri_i[YL + 19], tri_i[YL +: 20]});
  logic signed [20:0] xmin, xmax, ymin, ymax, pxlo, pxhi, pylo, pyhi;
  logic               ins_empty;
  logic [10:0]        bx0, bx1, by0, by1;
  always_comb begin
    xmin = ix0;  xmax = ix0;  ymin = iy0;  ymax = iy0;
    if (ix1 < xmin) xmin = ix1;
    if (ix1 > xmax) xmax = ix1;
    if (iy1 < ymin) ymin = iy1;
    if (iy1 > ymax) ymax = iy1;
    if (ix2 < xmin) xmin = ix2;
    if (ix2 > xmax) xmax = ix2;
    if (iy2 < ymin) ymin = iy2;
    if (iy2 > ymax) ymax = iy2;
    pxlo = (xmin + 21'sd7) >>> 4;
    pxhi = (xmax - 21'sd8) >>> 4;
    pylo = (ymin + 21'sd7) >>> 4;
    pyhi = (ymax - 21'sd8) >>> 4;
    if (pxlo < $signed({10'd0, plx0_q})) pxlo = $signed({10'd0, plx0_q});
    if (pylo < $signed({10'd0, ply0_q})) pylo = $signed({10'd0, ply0_q});
    if (pxhi > $signed({10'd0, plx1_q})) pxhi = $signed({10'd0, plx1_q});
    if (pyhi > $signed({10'd0, ply1_q})) pyhi = $signed({10'd0, ply1_q});
    ins_empty = (pxlo > pxhi) || (pylo > pyhi) || cempty_q;
    bx0 = pxlo[10:0];  bx1 = pxhi[10:0];  by0 = pylo[10:0];  by1 = pyhi[10:0];
  end

  logic [6:0] itx0, itx1, ity0, ity1;
  assign itx0 = 7'(bx0 >> (l2t_i + 3'd4));
  assign itx1 = 7'(bx1 >> (l2t_i + 3'd4));
  assign ity0 = 7'(by0 >> (l2t_i + 3'd4));
  assign ity1 = 7'(by1 >> (l2t_i + 3'd4));

  // Ownership (tx + ty * skew) mod N, N = 2..8, by restoring division: one conditional
  // subtraction per bit, the partial remainder < N fits 3 bits. (Seven `%` operators made
  // Yosys build a divider per divisor, then spend seconds in `share` merging them.)
  function automatic logic tile_owned(input logic [6:0] tx, input logic [6:0] ty,
                                      input logic [3:0] num, input logic [2:0] idx,
                                      input logic [2:0] skew);
    logic [9:0] sum;
    logic [3:0] t;
    logic [2:0] r;
    sum = 10'(tx) + 10'(ty) * 10'(skew);
    r = '0;
    for (int b = 9; b >= 0; b--) begin
      t = {r, sum[b]};
      if (t >= num) t = t - num;
      r = t[2:0];
    end
    if (!(num >= 4'd2 && num <= 4'd8)) r = 3'd0;   // 0, 1, > 8: one slice
    tile_owned = (r == idx);
  endfunction

  // Does the inserted triangle touch a tile this slice owns? Only then can a bin of this
  // slice's walk hold it, and only then does the setup sequencer set it up: a slice fed
  // triangles it does not own (a broadcast, or the tile box of a sliver) spends no setup on
  // them. Exact for tile boxes of up to 2 x 2 tiles (their corners are all their tiles),
  // assumed for larger ones. Decided the cycle after insertion from registered tile boxes
  // (the box and the ownership division in one cycle were 37 LUT levels); the sequencer
  // does not take an entry whose decision is still pending.
  logic             ip_q, ip_d;        // a decision is pending for entry ip_idx
  logic [BIdxW-1:0] ip_idx_q, ip_idx_d;
  logic             ip_ne_q, ip_ne_d;
  logic [6:0]       ip_tx0_q, ip_tx1_q, ip_ty0_q, ip_ty1_q;
  logic             ins_need;
  always_comb begin
    ins_need = 1'b1;
    if (!ip_ne_q) begin
      ins_need = 1'b0;
    end else if (ip_tx1_q - ip_tx0_q <= 7'd1 && ip_ty1_q - ip_ty0_q <= 7'd1) begin
      ins_need = tile_owned(ip_tx0_q, ip_ty0_q, snum_i, sidx_i, skew_i) ||
                 tile_owned(ip_tx1_q, ip_ty0_q, snum_i, sidx_i, skew_i) ||
                 tile_owned(ip_tx0_q, ip_ty1_q, snum_i, sidx_i, skew_i) ||
                 tile_owned(ip_tx1_q, ip_ty1_q, snum_i, sidx_i, skew_i);
    end
  end

  // ============================================================================================
  // Batch store: triangles (+ pixel box) in a RAM, two batches' worth (issue 16 item 2: the
  // next batch is inserted into one bank while the raster side renders the last bins of the
  // previous one from the other); tile boxes in flops
  // ============================================================================================
  localparam int unsigned TRW = 384 + 44;
  logic             tr_re;
  logic [BIdxW:0]   tr_waddr, tr_raddr;
  logic             wbank_q, wbank_d;
  logic [TRW-1:0]   tr_rdata;
  logic             unused_tr_rv;
  prim_ram_2p #(.WIDTH(TRW), .DEPTH(2 * BATCH_PRIMS)) u_tri_ram (
    .clk_i, .rst_ni,
    .we_i(ins_i), .waddr_i(tr_waddr), .wdata_i({tri_i, bx0, by0, bx1, by1}), .wmask_i(1'b1),
    .re_i(tr_re), .raddr_i(tr_raddr), .rdata_o(tr_rdata), .rvalid_o(unused_tr_rv));

  logic [BATCH_PRIMS-1:0]   ne_q, ne_d;            // non-empty (touches a pixel)
  logic [BATCH_PRIMS-1:0]   nd_q, nd_d;            // ... and a tile this slice owns
  logic [BATCH_PRIMS*7-1:0] tx0_q, tx1_q, ty0_q, ty1_q;
  logic [BCntW-1:0]         bcnt_q, bcnt_d;
  logic                     uv_q, uv_d;            // union box valid
  logic [6:0]               utx0_q, utx1_q, uty0_q, uty1_q, utx0_d, utx1_d, uty0_d, uty1_d;
  logic                     uv_ins;                // the union box with this cycle's insertion
  logic [6:0]               utx0_ins, uty0_ins;
  logic [BATCH_PRIMS-1:0]   ne_ins;
  logic [BCntW-1:0]         bcnt_ins;

  // the batch with this cycle's insertion (separate from its end: the control decides to drop
  // a batch from uv_ins)
  always_comb begin
    ne_ins = ne_q;  bcnt_ins = bcnt_q;  uv_ins = uv_q;
    utx0_d = utx0_q;  utx1_d = utx1_q;  uty0_d = uty0_q;  uty1_d = uty1_q;
    if (ins_i) begin
      bcnt_ins = bcnt_q + BCntW'(1);
      if (!ins_empty) begin
        ne_ins[BIdxW'(bcnt_q)] = 1'b1;
        uv_ins = 1'b1;
        if (!uv_q || itx0 < utx0_q) utx0_d = itx0;
        if (!uv_q || itx1 > utx1_q) utx1_d = itx1;
        if (!uv_q || ity0 < uty0_q) uty0_d = ity0;
        if (!uv_q || ity1 > uty1_q) uty1_d = ity1;
      end
    end
  end
  assign utx0_ins = utx0_d;
  assign uty0_ins = uty0_d;

  always_comb begin
    nd_d = nd_q;
    // the pending ownership decision of the entry inserted last cycle
    if (ip_q) nd_d[ip_idx_q] = ins_need;
  end
  assign ne_d    = batch_end_i ? '0 : ne_ins;
  assign bcnt_d  = batch_end_i ? '0 : bcnt_ins;
  assign uv_d    = batch_end_i ? 1'b0 : uv_ins;
  assign wbank_d = flip_i ? !wbank_q : wbank_q;
  assign tr_waddr = {wbank_q, BIdxW'(bcnt_q)};
  // the entry inserted now gets its ownership decision next cycle
  assign ip_d     = ins_i;
  assign ip_idx_d = BIdxW'(bcnt_q);
  assign ip_ne_d  = !ins_empty;

  // ============================================================================================
  // Walker, ownership, per-bin primitive mask
  // ============================================================================================
  logic [6:0] wtx_q, wtx_d, wty_q, wty_d;
  logic       owned;
  assign owned = tile_owned(wtx_q, wty_q, snum_i, sidx_i, skew_i);

  // walker bounds: the batch's union box, or the whole target when clearing
  logic [6:0] wx0, wx1, wy0, wy1;
  logic       walk_last;
  always_comb begin
    if (clear_walk_i) begin
      wx0 = ctx0_q;  wy0 = cty0_q;  wx1 = ctx1_q;  wy1 = cty1_q;
    end else begin
      wx0 = utx0_q;  wx1 = utx1_q;  wy0 = uty0_q;  wy1 = uty1_q;
    end
    walk_last = (wtx_q == wx1) && (wty_q == wy1);
  end

  logic [6:0] wtx_n, wty_n;
  assign wtx_n = (wtx_q == wx1) ? wx0 : wtx_q + 7'd1;
  assign wty_n = (wtx_q == wx1) ? wty_q + 7'd1 : wty_q;

  always_comb begin
    wtx_d = wtx_q;
    wty_d = wty_q;
    if (walk_start_i) begin
      wtx_d = (walk_batch_i && uv_ins) ? utx0_ins : ctx0_d;   // (the pass starting now)
      wty_d = (walk_batch_i && uv_ins) ? uty0_ins : cty0_d;
    end else if (step_i) begin
      wtx_d = wtx_n;
      wty_d = wty_n;
    end
  end

  // The primitive mask of the walker's bin: bmask[i] = ne[i] && tx0[i] <= wtx <= tx1[i] &&
  // ty0[i] <= wty <= ty1[i]. Not 256 magnitude comparators (11k cells before mapping, a third
  // of Yosys' time before ABC): per primitive, flags "the walker's column / row is inside the
  // primitive's tile box" follow the walker, which only starts at the batch's union box
  // corner and steps right or to the start of the next row. A flag sets when the walker
  // reaches the box's first column (row) and clears after its last, so it needs equality
  // compares only. (The flags are valid while the walker walks a batch, walking_i; the
  // assertion below checks them against the comparator definition.)
  logic [BATCH_PRIMS-1:0] xin_q, xin_d, yin_q, yin_d;
  logic [BATCH_PRIMS-1:0] bmask;
  assign bmask = ne_q & xin_q & yin_q;

  // the bin's primitive count: the shared popcount primitive (issue 16 item 1)
  localparam int unsigned BPopW = (BATCH_PRIMS > 1) ? $clog2(BATCH_PRIMS + 1) : 1;
  logic [BPopW-1:0] bpop_cnt;
  prim_popcount #(.WIDTH(BATCH_PRIMS)) u_bpop (.in_i(bmask), .cnt_o(bpop_cnt));

  // Box flags: in idle_i they are set up for the walk's start at the union box's corner
  // (utx0, uty0), counting the triangle being inserted; when the walker steps they follow it.
  // Every non-empty primitive's box lies inside the union box, so the walker meets the first
  // column and row of each box exactly (equality), and leaves after the last.
  logic                   xwrap;
  logic [6:0]             fx, fy;               // the column / row entered next
  logic                   ins_ne, ins_lo_x, ins_lo_y;
  logic [BATCH_PRIMS-1:0] ent_x, ent_y, ext_x, ext_y, newp;
  assign xwrap = (wtx_q == wx1);
  assign fx = idle_i ? utx0_q : wtx_n;
  assign fy = idle_i ? uty0_q : wty_n;
  // the triangle inserted now (non-empty) starts the union box or moves its corner
  assign ins_ne   = ins_i && !ins_empty;
  assign ins_lo_x = ins_ne && uv_q && (itx0 < utx0_q);
  assign ins_lo_y = ins_ne && uv_q && (ity0 < uty0_q);
  always_comb begin
    for (int i = 0; i < BATCH_PRIMS; i++) begin
      ent_x[i] = (tx0_q[i*7 +: 7] == fx);
      ent_y[i] = (ty0_q[i*7 +: 7] == fy);
      ext_x[i] = (tx1_q[i*7 +: 7] == wtx_q);
      ext_y[i] = (ty1_q[i*7 +: 7] == wty_q);
      newp[i]  = ins_i && (bcnt_q == BCntW'(i));
    end
    xin_d = xin_q;
    yin_d = yin_q;
    if (idle_i) begin
      // walk start: a box's first column is the union's first iff it equals the corner the
      // walk starts from, which the inserted triangle may lower (then only it starts there)
      for (int i = 0; i < BATCH_PRIMS; i++) begin
        xin_d[i] = newp[i] ? (!uv_q || itx0 <= utx0_q) : (ent_x[i] && !ins_lo_x);
        yin_d[i] = newp[i] ? (!uv_q || ity0 <= uty0_q) : (ent_y[i] && !ins_lo_y);
      end
    end else if (step_i) begin
      xin_d = ent_x | (xin_q & ~ext_x & {BATCH_PRIMS{!xwrap}});
      if (xwrap) yin_d = ent_y | (yin_q & ~ext_y);
    end
  end

  // ============================================================================================
  // Setup once per triangle: the sequencer, NUM_TSE TSEs and the setup RAM
  // ============================================================================================
  // The sequencer walks the inserting bank's entries in order (si_q): an entry that touches
  // no bin of this slice is skipped; another is read from the tri RAM (one cycle) and started
  // on the next TSE in turn, once that TSE is free. TSEs are started in turn and retired in
  // turn (ro_q: the oldest), so records are written in entry order and every entry below the
  // oldest one in flight is set up: sr_ready_o. With two TSEs a triangle is set up every
  // ~15 cycles (a TSE takes 28 untextured, 36 textured, then one to write its record):
  // docs/raster.md "Setup once per triangle".
  localparam int unsigned TseW = (NUM_TSE > 1) ? $clog2(NUM_TSE) : 1;
  logic [BCntW-1:0]   si_q, si_d;          // the next entry to look at
  logic               rd_q, rd_d;          // an entry was read last cycle: start it now ...
  logic [BCntW-1:0]   rde_q, rde_d;        // ... which entry
  logic [TseW-1:0]    nx_q, nx_d;          // the TSE the next entry goes to
  logic [TseW-1:0]    ro_q, ro_d;          // the TSE holding the oldest entry in flight
  logic [NUM_TSE-1:0] tb_q, tb_d;          // per TSE: an entry in flight (started, not written)
  logic [NUM_TSE-1:0] tr_q, tr_d;          // ... its result is ready (done seen)
  logic [NUM_TSE*BCntW-1:0] te_q, te_d;    // ... which entry
  logic [NUM_TSE*44-1:0]    tbox_q, tbox_d; // ... its box (tri RAM bits 43:0)
  logic               sq_done, sq_any;
  logic [BCntW-1:0]   sq_ready;            // entries below it are set up
  logic [NUM_TSE-1:0] tse_start, tse_busy, tse_done, tse_degen;
  logic [NUM_TSE*3*48-1:0] tse_w;
  logic [NUM_TSE*3*21-1:0] tse_ea, tse_eb;
  logic [NUM_TSE*7*48-1:0] tse_pv, tse_pgx, tse_pgy;
  logic [7:0]         sq_bx0, sq_by0;      // the read triangle's first block
  logic               retire, nx_free;
  assign sq_bx0  = tr_rdata[36 +: 8];      // box x0 >> 3 (tri RAM: {.., x0, y0, x1, y1})
  assign sq_by0  = tr_rdata[25 +: 8];
  assign sq_any  = rd_q || (tb_q != '0);
  assign sq_done = !sq_any && (si_q == bcnt_q);
  assign sq_ready = tb_q[ro_q] ? te_q[ro_q*BCntW +: BCntW] : rd_q ? rde_q : si_q;
  assign tr_raddr = {wbank_q, BIdxW'(si_q)};

  for (genvar t = 0; t < NUM_TSE; t++) begin : gen_tse
    raster_tse u_tse (
      .clk_i, .rst_ni, .start_i(tse_start[t]), .vtx_i(tr_rdata[TRW-1 -: 384]), .uv_en_i,
      .ox_i({sq_bx0, 3'd0}), .oy_i({sq_by0, 3'd0}),
      .busy_o(tse_busy[t]), .done_o(tse_done[t]), .degen_o(tse_degen[t]),
      .w_o(tse_w[t*3*48 +: 3*48]), .ea_o(tse_ea[t*3*21 +: 3*21]), .eb_o(tse_eb[t*3*21 +: 3*21]),
      .pv_o(tse_pv[t*7*48 +: 7*48]), .pgx_o(tse_pgx[t*7*48 +: 7*48]),
      .pgy_o(tse_pgy[t*7*48 +: 7*48]));
  end

  logic             sr_we;
  logic [BIdxW:0]   sr_waddr;
  logic [SRW-1:0]   sr_wdata;
  logic             unused_sr_rv;
  assign sr_we    = retire;
  assign sr_waddr = {wbank_q, BIdxW'(te_q[ro_q*BCntW +: BCntW])};
  assign sr_wdata = {tse_degen[ro_q], tbox_q[ro_q*44 +: 44], tse_w[ro_q*3*48 +: 3*48],
                     tse_ea[ro_q*3*21 +: 3*21], tse_eb[ro_q*3*21 +: 3*21],
                     tse_pv[ro_q*7*48 +: 7*48], tse_pgx[ro_q*7*48 +: 7*48],
                     tse_pgy[ro_q*7*48 +: 7*48]};
  prim_ram_2p #(.WIDTH(SRW), .DEPTH(2 * BATCH_PRIMS)) u_setup_ram (
    .clk_i, .rst_ni,
    .we_i(sr_we), .waddr_i(sr_waddr), .wdata_i(sr_wdata), .wmask_i(1'b1),
    .re_i(sr_re_i), .raddr_i({sr_bank_i, sr_idx_i}), .rdata_o(sr_rdata_o),
    .rvalid_o(unused_sr_rv));

  // the oldest TSE's record is written once its result is ready (the done pulse, or since)
  assign retire  = tb_q[ro_q] && (tr_q[ro_q] || tse_done[ro_q]);
  // the next TSE in turn is free, or writes its record this cycle (it starts the cycle after)
  assign nx_free = !tb_q[nx_q] || (retire && ro_q == nx_q);
  always_comb begin
    si_d = si_q;  rd_d = 1'b0;  rde_d = rde_q;  nx_d = nx_q;  ro_d = ro_q;
    tb_d = tb_q;  tr_d = tr_q | tse_done;  te_d = te_q;  tbox_d = tbox_q;
    tr_re = 1'b0;  tse_start = '0;
    // the entry read last cycle starts on the next TSE in turn
    if (rd_q) begin
      tse_start[nx_q] = 1'b1;
      tb_d[nx_q] = 1'b1;
      tr_d[nx_q] = 1'b0;
      te_d[nx_q*BCntW +: BCntW] = rde_q;
      tbox_d[nx_q*44 +: 44] = tr_rdata[43:0];
      nx_d = (32'(nx_q) == NUM_TSE - 1) ? '0 : nx_q + TseW'(1);
    end
    if (retire) begin
      if (!(rd_q && nx_q == ro_q)) begin
        tb_d[ro_q] = 1'b0;
        tr_d[ro_q] = 1'b0;
      end
      ro_d = (32'(ro_q) == NUM_TSE - 1) ? '0 : ro_q + TseW'(1);
    end
    // the next entry: skipped (no bin of this slice's walk), or read for the next TSE (not
    // while the entry read last cycle still waits for it)
    if (si_q != bcnt_q && !(ip_q && BIdxW'(si_q) == ip_idx_q) && !rd_q) begin
      if (!nd_q[BIdxW'(si_q)]) begin
        si_d = si_q + BCntW'(1);
      end else if (nx_free) begin
        tr_re = 1'b1;
        rd_d = 1'b1;
        rde_d = si_q;
        si_d = si_q + BCntW'(1);
      end
    end
    // A batch ends (walked, once the sequencer is done) or is dropped (nothing in it touches
    // a pixel, so the sequencer only skipped its entries): the next one starts at entry 0.
    if (bcnt_d == '0) si_d = '0;
  end

  // a bank behind the inserting one is set up whole; in the inserting one, the entries below
  // the oldest in flight (or below the sequencer's, none in flight)
  assign sr_ready_o = (sr_bank_i != wbank_q) || (BCntW'(sr_idx_i) < sq_ready);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      plx0_q   <= '0;
      plx1_q   <= '0;
      ply0_q   <= '0;
      ply1_q   <= '0;
      ctx0_q   <= '0;
      ctx1_q   <= '0;
      cty0_q   <= '0;
      cty1_q   <= '0;
      cempty_q <= 1'b0;
      ip_q     <= 1'b0;
      ip_idx_q <= '0;
      ip_ne_q  <= 1'b0;
      ip_tx0_q <= '0;
      ip_tx1_q <= '0;
      ip_ty0_q <= '0;
      ip_ty1_q <= '0;
      ne_q     <= '0;
      nd_q     <= '0;
      bcnt_q   <= '0;
      uv_q     <= 1'b0;
      utx0_q   <= '0;
      utx1_q   <= '0;
      uty0_q   <= '0;
      uty1_q   <= '0;
      wbank_q  <= 1'b0;
      wtx_q    <= '0;
      wty_q    <= '0;
      xin_q    <= '0;
      yin_q    <= '0;
      si_q     <= '0;
      rd_q     <= 1'b0;
      rde_q    <= '0;
      nx_q     <= '0;
      ro_q     <= '0;
      tb_q     <= '0;
      tr_q     <= '0;
      te_q     <= '0;
      tbox_q   <= '0;
      tx0_q    <= '0;
      tx1_q    <= '0;
      ty0_q    <= '0;
      ty1_q    <= '0;
    end else begin
      plx0_q   <= plx0_d;
      plx1_q   <= plx1_d;
      ply0_q   <= ply0_d;
      ply1_q   <= ply1_d;
      ctx0_q   <= ctx0_d;
      ctx1_q   <= ctx1_d;
      cty0_q   <= cty0_d;
      cty1_q   <= cty1_d;
      cempty_q <= cempty_d;
      ip_q     <= ip_d;
      ip_idx_q <= ip_idx_d;
      ip_ne_q  <= ip_ne_d;
      ip_tx0_q <= itx0;
      ip_tx1_q <= itx1;
      ip_ty0_q <= ity0;
      ip_ty1_q <= ity1;
      ne_q     <= ne_d;
      nd_q     <= nd_d;
      bcnt_q   <= bcnt_d;
      uv_q     <= uv_d;
      utx0_q   <= utx0_d;
      utx1_q   <= utx1_d;
      uty0_q   <= uty0_d;
      uty1_q   <= uty1_d;
      wbank_q  <= wbank_d;
      wtx_q    <= wtx_d;
      wty_q    <= wty_d;
      xin_q    <= xin_d;
      yin_q    <= yin_d;
      si_q     <= si_d;
      rd_q     <= rd_d;
      rde_q    <= rde_d;
      nx_q     <= nx_d;
      ro_q     <= ro_d;
      tb_q     <= tb_d;
      tr_q     <= tr_d;
      te_q     <= te_d;
      tbox_q   <= tbox_d;
      for (int i = 0; i < BATCH_PRIMS; i++) begin
        if (ins_i && bcnt_q == BCntW'(i)) begin
          tx0_q[i*7 +: 7] <= itx0;
          tx1_q[i*7 +: 7] <= itx1;
          ty0_q[i*7 +: 7] <= ity0;
          ty1_q[i*7 +: 7] <= ity1;
        end
      end
    end
  end

  assign bcnt_o      = bcnt_q;
  assign uv_next_o   = uv_ins;
  assign wbank_o     = wbank_q;
  assign sq_done_o   = sq_done;
  assign wtx_o       = wtx_q;
  assign wty_o       = wty_q;
  assign walk_last_o = walk_last;
  assign owned_o     = owned;
  assign bmask_o     = bmask;
  assign bpop_o      = 8'(bpop_cnt);

  logic unused_binner;
  assign unused_binner = ^{tse_busy, wy0};

`ifndef SYNTHESIS
  // The box flags give the comparator definition of the mask while the walker walks a batch.
  logic [BATCH_PRIMS-1:0] bmask_ref;
  always_comb begin
    for (int i = 0; i < BATCH_PRIMS; i++) begin
      bmask_ref[i] = ne_q[i] && (wtx_q >= tx0_q[i*7 +: 7]) && (wtx_q <= tx1_q[i*7 +: 7]) &&
                     (wty_q >= ty0_q[i*7 +: 7]) && (wty_q <= ty1_q[i*7 +: 7]);
    end
  end
  `ASSERT(BinMaskIsBoxTest_A, walking_i |-> bmask == bmask_ref)
`endif
  // Setup once per triangle: the sequencer stays behind insertion and within the batch, a
  // batch leaves the inserting bank only set up whole, and the raster side reads a record
  // only once it is written and was found to be needed at insertion.
  `ASSERT(SeqBehindInsertion_A, si_q <= bcnt_q)
  `ASSERT(SeqDoneAtBankFlip_A, flip_i |-> sq_done)
  `ASSERT(SeqIdleAtBatchEnd_A, bcnt_q != '0 && bcnt_d == '0 |-> !sq_any && !rd_d && tb_d == '0)
  `ASSERT(SetupReadWritten_A, sr_re_i |-> sr_ready_o)
  `ASSERT(SetupReadNeeded_A, sr_re_i && sr_bank_i == wbank_q |-> nd_q[sr_idx_i])
  `ASSERT(SetupWriteNotRead_A, sr_we && sr_re_i |-> sr_waddr != {sr_bank_i, sr_idx_i})
  `ASSERT(TseStartsIdle_A, (tse_start & tse_busy) == '0)
  // at most one entry per TSE: a TSE starts only once its last record is written
  `ASSERT(TseStartsRetired_A, (tse_start & tb_q) == '0)
  // records are written in entry order: the oldest in flight is below every younger one
  `ASSERT(TseRetireInOrder_A, retire && rd_q |-> te_q[ro_q*BCntW +: BCntW] < rde_q)
  // a TSE's done comes only for the entry it holds
  `ASSERT(TseDoneHeld_A, (tse_done & ~tb_q) == '0)
  `ASSERT(FlipAtBatchEnd_A, flip_i |-> batch_end_i)

endmodule
