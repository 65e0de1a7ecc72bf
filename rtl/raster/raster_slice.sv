// raster_slice -- one raster slice: PBB binner, TSE, GRAS, FS, RB with its tile buffer, and
// the slice's memory port, from the triangle/command stream VPCBE_S produces to memory.
//
// Sources: 000_b9c7be2d27aa8181.txt (AMD) -- primitive batch binning, used as the
// single-level mode: "a batch collects primitives ... and closes when full, on a state or
// render-target change ...; for each batch, walk the bins touched by any batch primitive and
// send the batch's primitives touching each bin, in order" (ARCHITECTURE.md 5.4);
// 001_3630ef805e8956e2.txt (Qualcomm) -- the slice's units and screen ownership: tile
// (tx, ty) belongs to slice (tx + ty * skew) mod N (ARCHITECTURE.md 5.3).
//
// Flow (docs/raster.md): triangles enter the batch (tri RAM + per-primitive tile bounding
// box); a batch closes when full or when a command arrives. The binner walks the union of
// the batch's tile boxes in raster order; for each tile this slice owns whose primitive mask
// (the binning bitstream) is non-zero it emits {tile, mask, popcount} on the bs_* seam
// (prefetcher), loads the tile's color and depth lines into the RB tile buffer, moves each
// masked primitive's setup to the bin (TSE_BIN) and rasterizes it (GRAS) in order into the
// RB, and stores the tile's lines back. Each triangle is set up (TSE) once, as it enters the
// batch, into the setup RAM. RENDERPASS_BEGIN with a CLEAR load op marks every owned tile's
// clear pending (fast clear); RENDERPASS_END, FLUSH and INVALIDATE write the pending clears
// and complete when every write is acknowledged. Commands complete in order with one done_o
// pulse each.
//
// Units (issue 16 item 1): raster_regs (the RASTER registers, generated from spec/, and the
// render pass), raster_binner (batch store, setup once per triangle, walker, ownership),
// raster_tse_bin, raster_gras, raster_lrz, raster_fs, raster_rb and raster_tile_engine. What
// stays here: the walker's control (T_*) and the raster side (R_*), the fast-clear bits, the
// memory port's arbitration between the FS and the tile engine, and the counters.

`include "prim_assert.svh"

module raster_slice #(
  parameter int unsigned BATCH_PRIMS    = 64,   // largest batch (BATCH register clamps to it)
  parameter int unsigned NUM_TSE        = 2,    // triangle-setup units (docs/raster.md "Setup once per triangle")
  parameter int unsigned PIXELS_PER_CLK = 4,    // GRAS/RB quad rate; 4 (one 2x2 quad) only
  parameter int unsigned SRC_ID         = 0,    // mem_req_t.src of this port
  parameter int unsigned CCHE_LINES     = 64,   // texel cache lines (64 bytes each)
  // Reset value of RASTER.SLICE num and index: a sliced GPU (pipe_top) builds each slice
  // knowing its place; the register still overrides them (benches use that).
  parameter int unsigned SLICE_NUM      = 1,
  parameter int unsigned SLICE_INDEX    = 0,
  parameter int unsigned LRZ_BLOCKS     = 4096, // LRZ entries (8x8 blocks of the slice's tiles)
  // GMEM (two-level binning): 64-byte lines of on-chip colour and depth for the slice's tiles
  // of one coarse bin (docs/two-level.md "GMEM"); a power of two, at least 512 (one 64x64 tile)
  parameter int unsigned GMEM_LINES     = 1024,
  // Derived
  localparam int unsigned BIdxW = (BATCH_PRIMS > 1) ? $clog2(BATCH_PRIMS) : 1,
  localparam int unsigned BCntW = $clog2(BATCH_PRIMS + 1)
) (
  input  logic clk_i,
  input  logic rst_ni,
  // triangles and commands, in order
  input  logic                        in_valid_i,
  output logic                        in_ready_o,
  input  tessera_raster_pkg::rin_t    in_i,
  output logic                        done_o,     // one pulse per completed command
  output logic                        busy_o,
  // memory client port (tessera_mem_pkg)
  output logic                        mem_req_valid_o,
  input  logic                        mem_req_ready_i,
  output tessera_mem_pkg::mem_req_t   mem_req_o,
  input  logic                        mem_rsp_valid_i,
  output logic                        mem_rsp_ready_o,
  input  tessera_mem_pkg::mem_rsp_t   mem_rsp_i,
  // binning bitstream seam (prefetcher): one record per rendered bin
  output logic                        bs_valid_o,
  input  logic                        bs_ready_i,
  output logic [6:0]                  bs_tx_o,
  output logic [6:0]                  bs_ty_o,
  output logic [BATCH_PRIMS-1:0]      bs_mask_o,
  output logic [7:0]                  bs_count_o,
  output logic                        bs_first_o,     // the record is its batch's first
  // counters (wrap)
  output logic [31:0]                 cnt_tris_o,     // triangles accepted
  output logic [31:0]                 cnt_bins_o,     // bins rendered (bitstream records)
  output logic [31:0]                 cnt_binprims_o, // sum of the bitstreams' popcounts
  output logic [31:0]                 cnt_quads_o,    // quads with >= 1 covered pixel
  output logic [31:0]                 cnt_frags_o,    // covered pixels (fragments)
  output logic [31:0]                 cnt_pass_o,     // fragments passing the depth test
  output logic [31:0]                 cnt_rd_o,       // memory line reads
  output logic [31:0]                 cnt_wr_o,       // memory line writes
  output logic [31:0]                 cnt_tex_hit_o,  // texel cache hits / misses
  output logic [31:0]                 cnt_tex_miss_o,
  output logic [31:0]                 cnt_lrz_blocks_o,  // LRZ: block-primitive pairs rejected
  output logic [31:0]                 cnt_lrz_quads_o,   // LRZ: their quad positions
  output logic [31:0]                 cnt_hidden_o,      // quads that reached the RB and passed no pixel
  output logic [31:0]                 cnt_gmem_rd_o,     // GMEM lines read (loads, write-backs)
  output logic [31:0]                 cnt_gmem_wr_o,     // GMEM lines written (stores)
  // cycles per activity (tessera_raster_pkg::act_e, one per cycle: they add up to the
  // cycles since reset, modulo 2^32), and this cycle's activity
  output logic [31:0]                 cyc_idle_o,
  output logic [31:0]                 cyc_input_wait_o,
  output logic [31:0]                 cyc_memory_wait_o,
  output logic [31:0]                 cyc_texel_wait_o,   // of memory_wait: the FS held for a texel line
  output logic [31:0]                 cyc_load_wait_o,    // of memory_wait: a tile load waited
  output logic [31:0]                 cyc_clear_o,
  output logic [31:0]                 cyc_load_o,
  output logic [31:0]                 cyc_setup_o,
  output logic [31:0]                 cyc_raster_o,
  output logic [31:0]                 cyc_store_o,
  output tessera_raster_pkg::act_e    act_o,
  // slice monitor (spec/layouts.yaml slice_monitor): a RENDERPASS_BEGIN taken, and the slice
  // working on a bin (its bitstream record to the end of its store)
  output logic                        mon_rp_begin_o,
  output logic                        mon_in_bin_o
);

  // ============================================================================================
  // State registers (RASTER block, in-band SET_REGS) and the render pass: raster_regs, below
  // ============================================================================================
  raster_reg_pkg::raster_reg2hw_t rg;
  logic [31:0] caddr, daddr, cclear;
  logic [23:0] dclear;
  logic [11:0] rtw, rth;
  logic [5:0]  cdsid, ddsid;
  logic        rp_clr_c, rp_clr_d;     // the open pass's load ops are CLEAR
  logic        rp_st_c, rp_st_d;       // ... its store ops are STORE

  logic [2:0]  l2t;          // log2(tile) - 4: 0, 1, 2
  assign l2t = (rg.bin.size == 2'd0) ? 3'd0 : (rg.bin.size == 2'd1) ? 3'd1 : 3'd2;

  logic [BCntW-1:0] blim;
  assign blim = (rg.batch.prims == 8'd0 || 32'(rg.batch.prims) > BATCH_PRIMS) ? BCntW'(BATCH_PRIMS)
                                                                : BCntW'(rg.batch.prims);

  // A command's arguments as RENDERPASS_BEGIN's payload (spec/packets.yaml, dword 0 at bit 0)
  tessera_spec_pkg::ts_pkt_renderpass_begin_t in_rp;
  assign in_rp = in_i.data[tessera_spec_pkg::TS_PKT_RENDERPASS_BEGIN_W-1:0];

  // ============================================================================================
  // Binner (raster_binner): the batch store, setup once per triangle, the bin walker, the
  // per-bin primitive mask and the ownership. The control below inserts, walks and ends
  // batches; the raster side reads the setup records.
  // ============================================================================================
  localparam int unsigned SRW = 1 + 44 + 3*48 + 2*3*21 + 3*7*48;   // a setup record
  logic                   b_ins, b_walk_start, b_walk_batch, b_end, b_flip;
  logic [BCntW-1:0]       bcnt;
  logic                   uv_next, wbank, sq_done, walk_last, owned, sr_ready, sr_re;
  logic [6:0]             wtx, wty;
  logic [BATCH_PRIMS-1:0] bmask;
  logic [7:0]             bpop;
  logic [SRW-1:0]         sr_rdata;
  logic                   wmove;                // the walker steps to the next tile
  logic                   rb_q, rb_d;           // the bank of the raster side's bin

  // The raster side's bin (rtx/rty; the tile engine has its own). With the double-buffered
  // tile buffer they are different bins (docs/raster.md "Double-buffered tile buffer"); the
  // walker only finds bins and hands them on.
  logic [6:0]  rtx_q, rtx_d, rty_q, rty_d;
  logic [10:0] tile_x, tile_y, tile_x1, tile_y1;
  logic [11:0] tend_x, tend_y;
  always_comb begin
    tile_x = 11'({rtx_q, 4'd0} << l2t);
    tile_y = 11'({rty_q, 4'd0} << l2t);
    tend_x = 12'(tile_x) + (12'd16 << l2t) - 12'd1;
    tend_y = 12'(tile_y) + (12'd16 << l2t) - 12'd1;
    if (tend_x > rtw - 12'd1) tend_x = rtw - 12'd1;
    if (tend_y > rth - 12'd1) tend_y = rth - 12'd1;
    tile_x1 = tend_x[10:0];
    tile_y1 = tend_y[10:0];
  end

  logic [10:0]     rx0, ry0, rx1, ry1;       // primitive rectangle in the bin
  logic [10:0]     prx0_q, pry0_q, prx1_q, pry1_q, prx0_d, pry0_d, prx1_d, pry1_d;
  logic            sr_degen;
  logic [3*48-1:0] sr_w;
  logic [3*21-1:0] sr_ea, sr_eb;
  logic [7*48-1:0] sr_pv, sr_pgx, sr_pgy;
  logic [10:0]     pb_x0, pb_y0, pb_x1, pb_y1;
  assign {sr_degen, pb_x0, pb_y0, pb_x1, pb_y1, sr_w, sr_ea, sr_eb, sr_pv, sr_pgx, sr_pgy} = sr_rdata;

  // rectangle: primitive pixel box x bin (the box is already clamped to the target)
  always_comb begin
    rx0 = (pb_x0 > tile_x)  ? pb_x0 : tile_x;
    ry0 = (pb_y0 > tile_y)  ? pb_y0 : tile_y;
    rx1 = (pb_x1 < tile_x1) ? pb_x1 : tile_x1;
    ry1 = (pb_y1 < tile_y1) ? pb_y1 : tile_y1;
  end

  // TSE_BIN: the planes at the rectangle's first block, dbx, dby blocks from the primitive's
  logic            tb_start, tb_busy, tb_done;
  logic [3*48-1:0] tb_w;
  logic [7*48-1:0] tb_pv;
  logic [7:0]      tb_dbx, tb_dby;
  assign tb_dbx = rx0[10:3] - pb_x0[10:3];
  assign tb_dby = ry0[10:3] - pb_y0[10:3];
  raster_tse_bin u_tse_bin (
    .clk_i, .rst_ni, .start_i(tb_start), .dbx_i(tb_dbx), .dby_i(tb_dby),
    .w_i(sr_w), .ea_i(sr_ea), .eb_i(sr_eb), .pv_i(sr_pv), .pgx_i(sr_pgx), .pgy_i(sr_pgy),
    .busy_o(tb_busy), .done_o(tb_done), .w_o(tb_w), .pv_o(tb_pv));

  // LRZ: the slice-space depth bounds GRAS tests per block (docs/raster.md "LRZ")
  logic        lrz_hold, lrz_req, lrz_zok, lrz_full, lrz_reject, lrz_bin;
  logic [10:0] lrz_bx, lrz_by;
  logic [23:0] lrz_zmin, lrz_zmax;
  logic [4:0]  lrz_nquads;
  logic [31:0] lrz_blocks, lrz_quads;

  logic                      gras_start, gras_busy, gras_done, quad_valid;
  tessera_raster_pkg::quad_t quad;
  raster_gras u_gras (
    .clk_i, .rst_ni, .start_i(gras_start),
    .x0_i(prx0_q), .y0_i(pry0_q), .x1_i(prx1_q), .y1_i(pry1_q),
    .tile_x_i(tile_x), .tile_y_i(tile_y),
    .w_i(tb_w), .ea_i(sr_ea), .eb_i(sr_eb), .pv_i(tb_pv), .pgx_i(sr_pgx), .pgy_i(sr_pgy),
    .busy_o(gras_busy), .done_o(gras_done),
    .quad_valid_o(quad_valid), .quad_ready_i(fs_ready), .quad_o(quad),
    .lrz_hold_i(lrz_hold), .lrz_req_o(lrz_req), .lrz_bx_o(lrz_bx), .lrz_by_o(lrz_by),
    .lrz_zmin_o(lrz_zmin), .lrz_zmax_o(lrz_zmax), .lrz_zok_o(lrz_zok), .lrz_full_o(lrz_full),
    .lrz_nquads_o(lrz_nquads), .lrz_reject_i(lrz_reject));

  // FS/TP: vertex color, or vertex color x texel through the slice's texel cache
  logic                      fs_ready, fs_valid, fs_idle, fs_req, fs_rsp, fs_inv, fs_miss_wait;
  logic                      fs_ready_port;   // the port takes the FS's texel read
  logic                      fs_sreq, fs_sready_port, fs_surgent;   // ... the FS scout's
  logic [31:0]               fs_saddr;
  logic [2:0]                fs_sk;
  tessera_raster_pkg::quad_t fs_quad;
  logic [31:0]               fs_addr, fs_hits, fs_misses;
  raster_fs #(.NLINES(CCHE_LINES)) u_fs (
    .clk_i, .rst_ni,
    .tex_en_i(rg.tex_ctrl.enable),
    .tex_base_i(rg.tex_base.addr),
    .tex_tiled_i(rg.tex_ctrl.tiled),
    .log2_w_i(rg.tex_ctrl.log2_w),
    .log2_h_i(rg.tex_ctrl.log2_h),
    .inv_i(fs_inv),
    .quad_valid_i(quad_valid), .quad_ready_o(fs_ready), .quad_i(quad),
    .quad_valid_o(fs_valid), .quad_o(fs_quad), .idle_o(fs_idle), .miss_wait_o(fs_miss_wait),
    .mreq_valid_o(fs_req), .mreq_ready_i(fs_ready_port), .mreq_addr_o(fs_addr),
    .sreq_valid_o(fs_sreq), .sreq_ready_i(fs_sready_port), .sreq_addr_o(fs_saddr), .sreq_k_o(fs_sk),
    .sreq_urgent_o(fs_surgent),
    .mrsp_valid_i(fs_rsp), .mrsp_k_i(mem_rsp_i.tag[2:0]), .mrsp_data_i(mem_rsp_i.rdata),
    .hits_o(fs_hits), .misses_o(fs_misses));

  logic         lwe, lre, ltgt, lrtgt;
  logic [1:0]   lwslot;
  logic [5:0]   lrow, lrrow;
  logic [1:0]   lseg, lrseg;
  logic [511:0] lrdata;
  logic [511:0] lwdata;   // a load response, or the clear value (fast clear)
  logic [2:0]   rb_pass;
  logic         rb_hidden;
  logic         rb_idle;
  raster_rb u_rb (
    .clk_i, .rst_ni,
    .depth_func_i(rg.depth.func), .depth_we_i(rg.depth.write_en), .color_we_i(rg.color.write_en),
    .split_i(dbuf), .qslot_i(qslot), .lwslot_i(lwslot), .lrslot_i(eh_q),
    .quad_valid_i(fs_valid), .quad_i(fs_quad), .pass_cnt_o(rb_pass), .hidden_o(rb_hidden), .idle_o(rb_idle),
    .lwe_i(lwe), .ltgt_i(ltgt), .lrow_i(lrow), .lseg_i(lseg),
    .lre_i(lre), .lrtgt_i(lrtgt), .lrrow_i(lrrow), .lrseg_i(lrseg),
    .lwdata_i(lwdata), .lrdata_o(lrdata));

  // ============================================================================================
  // Tile engine (raster_tile_engine): tile load (READ into the tile buffer), store (tile buffer
  // -> WRITE) and clear (constant -> WRITE); the control below starts its jobs.
  // ============================================================================================
  logic                         e_start;
  tessera_raster_pkg::tile_op_e e_start_mode;
  logic                         e_start_tgt;
  logic [6:0]                   e_start_tx, e_start_ty;
  logic [1:0]                   e_start_slot;
  logic                         e_start_fill_c, e_start_fill_d, e_start_clear_d;
  logic                         e_start_gmem;
  logic [GsW-1:0]               e_start_gslot;
  tessera_raster_pkg::tile_op_e emode_q;           // the engine's job (its outputs)
  logic                         ebusy_q, e_done, e_fill_we, e_rd_out, e_wr_out;
  logic [1:0]                   eh_q, e_tail_slot;   // the engine's job's slot; its tail's
  logic                         e_tail, e_ld_done;   // a load's data still arrives; it all has
  logic [6:0]                   etx_q, ety_q;
  logic                         e_clr_c, e_clr_d;

  // ---- fast clear (issue 16 item 4) ----------------------------------------------------------
  // A CLEAR at RENDERPASS_BEGIN writes nothing when the pass's tile grid fits 32 x 32: every
  // tile gets a pending bit per target instead. The first load of a tile with its clear
  // pending fills the tile buffer with the clear value rather than reading memory (the tile's
  // store then writes it, as it would have written the loaded clear value), and
  // RENDERPASS_END, FLUSH and INVALIDATE first write the clear value into the owned tiles
  // still pending, so memory ends the pass exactly as the line-by-line clear left it. A larger
  // target keeps the line-by-line clear at RENDERPASS_BEGIN.
  localparam int unsigned FcTiles = 1024;   // 32 x 32 tiles, index {ty[4:0], tx[4:0]}
  logic [FcTiles-1:0] fc_pc_q, fc_pc_d, fc_pd_q, fc_pd_d;   // clear pending: color, depth
  logic [9:0]         fc_idx;
  logic               fc_pc, fc_pd, fc_any, fc_fits_in;
  logic               fc_mat_q, fc_mat_d;       // the clear walk writes the pending tiles
  logic               fc_hold_q, fc_hold_d;     // ... before a layout change, not for a command
  logic               cwalk_end;                // the clear walk ends this cycle

  assign fc_idx = {wty[4:0], wtx[4:0]};
  assign fc_pc  = fc_pc_q[fc_idx];
  assign fc_pd  = fc_pd_q[fc_idx];
  assign fc_any = (|fc_pc_q) || (|fc_pd_q);
  // the incoming pass's tile grid is at most 32 x 32: (size - 1) >> log2(T) < 32
  logic [11:0] fc_wm1, fc_hm1;
  assign fc_wm1 = 12'(in_rp.width) - 12'd1;
  assign fc_hm1 = 12'(in_rp.height) - 12'd1;
  assign fc_fits_in = ((fc_wm1 >> (l2t + 3'd4)) < 12'd32) && ((fc_hm1 >> (l2t + 3'd4)) < 12'd32) &&
                      (in_rp.width != '0) && (in_rp.height != '0);

  // Read tags: the line engine's {0, ...} (above), the FS's texel lines FsTag + k (k = 0 the
  // demand read, 1..7 the scout's); writes {1, n}, n = 8..127 (never an FS tag: one tag per
  // outstanding request of the port). The FS's texel reads and the engine's line traffic
  // overlap (double-buffered tiles).
  localparam logic [7:0] FsTag = 8'h80;
  logic rsp_rd, rsp_wr, e_rsp;
  assign mem_rsp_ready_o = 1'b1;
  assign rsp_rd = mem_rsp_valid_i && (mem_rsp_i.op == tessera_mem_pkg::MEM_OP_READ);
  assign rsp_wr = mem_rsp_valid_i && (mem_rsp_i.op != tessera_mem_pkg::MEM_OP_READ);
  assign fs_rsp = rsp_rd && mem_rsp_i.tag[7];
  assign e_rsp  = rsp_rd && !mem_rsp_i.tag[7];

  // The FS's demand read has the port first (a stalled quad stops the raster), then the
  // engine, then the FS scout's read (it only runs ahead), unless the FS's lookups wait for
  // that very read (fs_surgent: then it goes before the engine). A request shown and not taken is
  // held until it is taken (tessera_mem_pkg), so its owner keeps the port then (e_lock_q,
  // s_lock_q).
  logic e_req_valid, e_lock_q, e_lock_d, s_lock_q, s_lock_d, fs_sel, sc_sel, req_fire, e_fire;
  tessera_mem_pkg::mem_req_t e_req, port_req;
  assign fs_sel   = fs_req && !e_lock_q && !s_lock_q;
  assign sc_sel   = fs_sreq && !e_lock_q && (s_lock_q || (!fs_req && (fs_surgent || !e_req_valid)));
  assign e_lock_d = e_req_valid && !fs_sel && !sc_sel && !mem_req_ready_i;
  assign s_lock_d = sc_sel && !mem_req_ready_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      e_lock_q <= 1'b0;
      s_lock_q <= 1'b0;
    end else begin
      e_lock_q <= e_lock_d;
      s_lock_q <= s_lock_d;
    end
  end
  always_comb begin
    port_req = e_req;
    if (fs_sel || sc_sel) begin
      port_req      = '0;
      port_req.src  = tessera_mem_pkg::SRC_W'(SRC_ID);
      port_req.op   = tessera_mem_pkg::MEM_OP_READ;
      port_req.addr = fs_sel ? fs_addr : fs_saddr;
      port_req.tag  = fs_sel ? FsTag : (FsTag | 8'(fs_sk));
    end
  end
  assign mem_req_valid_o = fs_sel || sc_sel || e_req_valid;
  assign mem_req_o       = port_req;
  assign req_fire = mem_req_valid_o && mem_req_ready_i;
  assign fs_ready_port  = mem_req_ready_i && fs_sel;
  assign fs_sready_port = mem_req_ready_i && sc_sel;
  assign e_fire   = req_fire && !fs_sel && !sc_sel;

  logic small_bin;
  assign small_bin = (l2t != 3'd2);
  // ---- GMEM (two-level binning; docs/two-level.md "GMEM") ------------------------------------
  // In a pass with RASTER.COARSE (a coarse bin), a tile's first store allocates it a GMEM
  // slot: from then on its stores write GMEM and its loads read it, so the coarse bin's tiles
  // cross memory once each way however many batches visit them. A directory maps tiles to
  // slots (slots in allocation order, so the tags need no valid bits); RENDERPASS_END (or a
  // FLUSH, INVALIDATE or layout change) writes every resident tile back (TE_FLUSH) for the
  // targets whose store op is STORE, and empties it. A tile that finds no free slot keeps
  // using memory, as in PBB: nothing depends on the coarse bin fitting.
  localparam int unsigned GAW    = $clog2(GMEM_LINES);
  localparam int unsigned GsW    = GAW - 4;                        // engine slot port width
  localparam int unsigned GdN    = 32;                             // directory entries
  logic [GdN*14-1:0]  gd_tag_q, gd_tag_d;                          // {tx, ty} per slot
  logic [5:0]         gd_n_q, gd_n_d;                              // slots in use
  logic [5:0]         gd_lim;                                      // ... at most, this tile size
  logic [5:0]         gf_q, gf_d;                                  // flush walk: next slot
  logic               gd_any, gmem_on;
  assign gd_any  = (gd_n_q != '0);
  assign gmem_on = rg.coarse.enable && !crect_empty;
  always_comb begin
    logic [GAW:0] per_tile;                    // lines of a tile, colour and depth
    per_tile = (GAW+1)'(32) << {l2t[1:0], 1'b0};
    gd_lim = 6'((GAW+1)'(GMEM_LINES) / per_tile);
    if (gd_lim > 6'(GdN)) gd_lim = 6'(GdN);
  end
  function automatic logic [5:0] gd_find(input logic [GdN*14-1:0] tags, input logic [5:0] n,
                                         input logic [6:0] tx, input logic [6:0] ty);
    // the slot + 1 of tile (tx, ty), 0 if it has none (tiles are unique: an OR of the matches)
    gd_find = '0;
    for (int unsigned i = 0; i < GdN; i++) begin
      if (6'(i) < n && tags[i*14 +: 14] == {tx, ty}) gd_find = gd_find | 6'(i + 1);
    end
  endfunction
  logic [5:0] gd_ld, gd_st;                    // the walker's tile, the waiting store's tile
  assign gd_ld = gd_find(gd_tag_q, gd_n_q, wtx, wty);

  logic               g_re, g_we;
  logic [GAW-1:0]     g_raddr, g_waddr;
  logic [511:0]       g_rdata, g_wdata;
  logic               unused_g_rvalid;
  logic               g_line_rd;                                   // a GMEM line consumed
  logic [31:0]        g_rd_cnt_q, g_wr_cnt_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      g_rd_cnt_q <= '0;
      g_wr_cnt_q <= '0;
    end else begin
      g_rd_cnt_q <= g_rd_cnt_q + 32'(g_line_rd);
      g_wr_cnt_q <= g_wr_cnt_q + 32'(g_we);
    end
  end
  assign cnt_gmem_rd_o = g_rd_cnt_q;
  assign cnt_gmem_wr_o = g_wr_cnt_q;
  prim_ram_2p #(.WIDTH(512), .DEPTH(GMEM_LINES)) u_gmem (
    .clk_i, .rst_ni,
    .we_i(g_we), .waddr_i(g_waddr), .wdata_i(g_wdata), .wmask_i(1'b1),
    .re_i(g_re), .raddr_i(g_raddr), .rdata_o(g_rdata), .rvalid_o(unused_g_rvalid));

  raster_tile_engine #(.SRC_ID(SRC_ID), .GMEM_AW(GAW)) u_tile_engine (
    .clk_i, .rst_ni,
    .start_i(e_start), .op_i(e_start_mode), .tgt_i(e_start_tgt), .tx_i(e_start_tx),
    .ty_i(e_start_ty), .slot_i(e_start_slot), .fill_c_i(e_start_fill_c),
    .fill_d_i(e_start_fill_d), .clear_d_i(e_start_clear_d),
    .gmem_i(e_start_gmem), .gslot_i(e_start_gslot),
    .l2t_i(l2t), .rtw_i(rtw), .rth_i(rth), .caddr_i(caddr), .daddr_i(daddr),
    .cdsid_i(cdsid), .ddsid_i(ddsid), .cclear_i(cclear), .dclear_i(dclear),
    .req_valid_o(e_req_valid), .req_o(e_req), .grant_i(mem_req_ready_i && !fs_sel && !sc_sel),
    .rsp_rd_i(e_rsp), .rsp_wr_i(rsp_wr), .rsp_tag_i(mem_rsp_i.tag), .rsp_data_i(mem_rsp_i.rdata),
    .lwe_o(lwe), .ltgt_o(ltgt), .lrow_o(lrow), .lseg_o(lseg), .lwslot_o(lwslot), .lwdata_o(lwdata),
    .lre_o(lre), .lrtgt_o(lrtgt), .lrrow_o(lrrow), .lrseg_o(lrseg),
    .lrdata_i(lrdata),
    .gre_o(g_re), .graddr_o(g_raddr), .grdata_i(g_rdata), .gwe_o(g_we), .gwaddr_o(g_waddr),
    .gwdata_o(g_wdata), .gline_rd_o(g_line_rd),
    .busy_o(ebusy_q), .op_o(emode_q), .tx_o(etx_q), .ty_o(ety_q), .slot_o(eh_q),
    .done_o(e_done), .tail_o(e_tail), .tail_slot_o(e_tail_slot), .ld_done_o(e_ld_done),
    .fill_we_o(e_fill_we), .rd_out_o(e_rd_out), .wr_out_o(e_wr_out));

  // ============================================================================================
  // Control
  // ============================================================================================
  // Two state machines (docs/raster.md "Double-buffered tile buffer"):
  // - the walker (st): batch insertion, the bin walk, the bitstream record and the bin's tile
  //   load into a free slot of the tile buffer, the hand-off of the loaded bin to the raster
  //   side; commands (clear walk, drain);
  // - the raster side (rs): setup and GRAS for each primitive of its bin, the drain of FS and
  //   RB, then a store request for the bin's slot, which the line engine serves first.
  // With bins of at most 32x32 pixels (dbuf) the buffer holds four tiles, two per half
  // (raster_rb slots). Quads own their half; the walker loads bin b+1 into a slot of the
  // other half, where the engine may still store bin b-1 from the other slot, while the
  // raster side renders bin b; a bin goes to the raster side once no line traffic is left in
  // its half. 64x64 bins use the whole buffer, so load, raster and store of a bin follow
  // each other as before.
  typedef enum logic [3:0] {
    T_IDLE, T_WALK, T_BS, T_LOAD, T_HAND, T_FIN, T_CWALK, T_CLEAR, T_GFLUSH, T_GWAIT, T_DRAIN
  } tstate_e;
  typedef enum logic [2:0] {
    R_IDLE, R_PRIM, R_PRIM_RD, R_SETUP, R_GRAS
  } rstate_e;
  tstate_e st_q, st_d;
  rstate_e rs_q, rs_d;
  logic [BATCH_PRIMS-1:0] pm_q, pm_d;        // primitives of the raster's bin still to render
  logic                   dbuf;              // four tile slots: a tile fits a quarter of the buffer
  logic [1:0]             rh_q, rh_d;        // the raster's slot (its half: bit 0)
  logic [1:0]             lh_q, lh_d;        // the slot the walker loads / hands on
  logic                   dr_q, dr_d;        // a bin's last quads drain through FS and RB
  logic [1:0]             drh_q, drh_d;
  logic [6:0]             drtx_q, drtx_d, drty_q, drty_d;
  logic                   lrzp_q, lrzp_d;    // the raster's bin is not yet the LRZ's
  logic [1:0]             qslot;             // the slot of the quads in flight
  logic                   drained;           // no bin is rendered, drains, waits or is stored
  logic                   sp_q, sp_d;        // a rendered bin waits for its store
  logic [1:0]             sph_q, sph_d;
  logic [6:0]             sptx_q, sptx_d, spty_q, spty_d;
  assign gd_st = gd_find(gd_tag_q, gd_n_q, sptx_q, spty_q);
  // A tile kept across batches: a bin's store waits (sp_hold) while the walker inserts the
  // next batch, waits for its setups or walks to that batch's first bin; if that bin is the
  // same tile (sp_match at T_BS: a batch's walk ends where the next one's starts, as with
  // small primitives in one bin) the raster side takes the slot back, and the tile is neither
  // stored nor loaded. Anything that needs the store releases it: a command (the walker is
  // idle with no batch), another tile's load (T_BS), a hand-off (T_LOAD, T_HAND), the next
  // bin's drain (dr_q, which waits for sp). Held only while the slice is busy anyway (a
  // batch in the walker or inserting), so busy_o and the drain mean what they did.
  logic sp_match, sp_hold;
  assign sp_match = sp_q && sptx_q == wtx && spty_q == wty;
  assign sp_hold  = sp_q && !dr_q &&
                    ((st_q == T_IDLE && (bcnt != '0 || (in_valid_i && cmd_is_tri))) ||
                     st_q == T_FIN || st_q == T_WALK || (st_q == T_BS && sp_match));
  logic [3:0]             sbusy;             // per slot: loaded, rendered or stored
  logic [1:0]             qbusy;             // per half: quads work there (raster side, drain)
  logic [1:0]             lbusy;             // per half: line traffic there (engine, tail, store waiting)
  logic                   lslot_free;        // a slot the walker may load into, and which
  logic [1:0]             lslot;
  assign dbuf = small_bin;
  assign qslot = dr_q ? drh_q : rh_q;
  assign drained = (rs_q == R_IDLE) && !dr_q && !sp_q && !ebusy_q && !e_tail;
  // The walker's tile is still in flight from the previous batch (rendered, draining, waiting
  // for or in its store): its load must wait for that store, which it reads back. Inside a
  // batch every tile is visited once.
  // the engine's job uses the tile buffer (a load or a store, not a clear or a GMEM flush)
  logic e_tb;
  assign e_tb = ebusy_q && (emode_q == tessera_raster_pkg::TE_LOAD || emode_q == tessera_raster_pkg::TE_STORE);
  logic tile_busy;
  assign tile_busy = ((rs_q != R_IDLE) && rtx_q == wtx && rty_q == wty) ||
                     (dr_q && drtx_q == wtx && drty_q == wty) ||
                     (sp_q && sptx_q == wtx && spty_q == wty) ||
                     (ebusy_q && emode_q == tessera_raster_pkg::TE_STORE && etx_q == wtx && ety_q == wty);
  always_comb begin
    for (int h = 0; h < 4; h++) begin
      sbusy[h] = ((rs_q != R_IDLE) && rh_q == 2'(h)) || (sp_q && sph_q == 2'(h)) ||
                 (dr_q && drh_q == 2'(h)) ||
                 (e_tb && eh_q == 2'(h)) ||
                 (e_tail && e_tail_slot == 2'(h)) ||
                 ((st_q == T_LOAD || st_q == T_HAND) && lh_q == 2'(h));
    end
    for (int h = 0; h < 2; h++) begin
      qbusy[h] = ((rs_q != R_IDLE) && rh_q[0] == 1'(h)) || (dr_q && drh_q[0] == 1'(h));
      lbusy[h] = (e_tb && eh_q[0] == 1'(h)) ||
                 (e_tail && e_tail_slot[0] == 1'(h)) || (sp_q && sph_q[0] == 1'(h));
    end
    // the load goes into a free slot of a half no quads work in (the lowest such slot)
    lslot = 2'd0;
    lslot_free = 1'b0;
    if (!dbuf) begin
      lslot_free = (sbusy == 4'b0000);
    end else begin
      for (int h = 3; h >= 0; h--) begin
        if (!sbusy[h] && !qbusy[h % 2]) begin
          lslot = 2'(h);
          lslot_free = 1'b1;
        end
      end
    end
  end
  logic [BIdxW-1:0]       pidx;
  logic                   done_d, done_q;

  // the bin's next primitive: the lowest set bit (the shared priority encoder)
  logic [BATCH_PRIMS-1:0] unused_pm_onehot;
  logic                   unused_pm_valid;
  prim_priority_enc #(.WIDTH(BATCH_PRIMS)) u_pidx (
    .in_i(pm_q), .onehot_o(unused_pm_onehot), .idx_o(pidx), .valid_o(unused_pm_valid));

  logic crect_empty;   // RASTER.COARSE is enabled and holds no tile of the target
  logic cmd_is_tri;
  // RASTER.COARSE and the target's size as they are from the next cycle on (raster_binner)
  logic        cnx_set, cnx_en;
  logic [4:0]  cnx_x0, cnx_y0, cnx_x1, cnx_y1;
  logic [11:0] rtw_nx, rth_nx;
  // (cmd_take: the offered command is taken this cycle, as T_IDLE below takes it; not
  // cmd_fire, which depends on crect_empty through in_ready_o)
  logic cmd_take;
  assign cmd_take = in_valid_i && !cmd_is_tri && st_q == T_IDLE && bcnt == '0 && drained &&
                    !((layout_chg || coarse_chg) && (fc_any || gd_any));
  assign cnx_set = cmd_take && in_i.kind == tessera_raster_pkg::RIN_SET_REG &&
                   in_i.data[11:0] == 12'(tessera_spec_pkg::TS_RASTER_COARSE_OFFSET);
  assign cnx_en  = cnx_set ? in_i.data[32 + tessera_spec_pkg::TS_RASTER_COARSE_ENABLE_LSB] : rg.coarse.enable;
  assign cnx_x0  = cnx_set ? in_i.data[32 + tessera_spec_pkg::TS_RASTER_COARSE_X0_LSB +: 5] : rg.coarse.x0;
  assign cnx_y0  = cnx_set ? in_i.data[32 + tessera_spec_pkg::TS_RASTER_COARSE_Y0_LSB +: 5] : rg.coarse.y0;
  assign cnx_x1  = cnx_set ? in_i.data[32 + tessera_spec_pkg::TS_RASTER_COARSE_X1_LSB +: 5] : rg.coarse.x1;
  assign cnx_y1  = cnx_set ? in_i.data[32 + tessera_spec_pkg::TS_RASTER_COARSE_Y1_LSB +: 5] : rg.coarse.y1;
  assign rtw_nx  = (cmd_take && in_i.kind == tessera_raster_pkg::RIN_RP_BEGIN) ? in_rp.width : rtw;
  assign rth_nx  = (cmd_take && in_i.kind == tessera_raster_pkg::RIN_RP_BEGIN) ? in_rp.height : rth;
  raster_binner #(.BATCH_PRIMS(BATCH_PRIMS), .NUM_TSE(NUM_TSE)) u_binner (
    .clk_i, .rst_ni,
    .l2t_i(l2t), .rtw_i(rtw_nx), .rth_i(rth_nx), .snum_i(rg.slice.num), .sidx_i(rg.slice.index),
    .skew_i(rg.slice.skew), .uv_en_i(rg.tex_ctrl.enable),
    .crect_en_i(cnx_en), .cx0_i(cnx_x0), .cy0_i(cnx_y0), .cx1_i(cnx_x1), .cy1_i(cnx_y1),
    .crect_empty_o(crect_empty),
    .tri_i(in_i.data[383:0]), .ins_i(b_ins),
    .idle_i(st_q == T_IDLE),
    .walking_i(st_q != T_IDLE && st_q != T_CWALK && st_q != T_CLEAR && st_q != T_DRAIN),
    .clear_walk_i(st_q == T_CWALK || st_q == T_CLEAR),
    .walk_start_i(b_walk_start), .walk_batch_i(b_walk_batch), .step_i(wmove),
    .batch_end_i(b_end), .flip_i(b_flip),
    .bcnt_o(bcnt), .uv_next_o(uv_next), .wbank_o(wbank), .sq_done_o(sq_done),
    .wtx_o(wtx), .wty_o(wty), .walk_last_o(walk_last), .owned_o(owned), .bmask_o(bmask),
    .bpop_o(bpop),
    .sr_bank_i(rb_q), .sr_idx_i(pidx), .sr_ready_o(sr_ready), .sr_re_i(sr_re),
    .sr_rdata_o(sr_rdata));

  logic layout_chg, lrz_layout_wr;   // see the LRZ below
  logic coarse_chg;                  // a write that changes RASTER.COARSE
  assign cmd_is_tri = (in_i.kind == tessera_raster_pkg::RIN_TRI);

  always_comb begin
    st_d = st_q;  rs_d = rs_q;  done_d = 1'b0;  in_ready_o = 1'b0;  wmove = 1'b0;
    b_ins = 1'b0;  b_walk_start = 1'b0;  b_walk_batch = 1'b0;  b_end = 1'b0;  b_flip = 1'b0;
    rh_d = rh_q;  lh_d = lh_q;  rtx_d = rtx_q;  rty_d = rty_q;
    e_start_tx = '0;  e_start_ty = '0;  e_start_slot = '0;
    e_start_fill_c = 1'b0;  e_start_fill_d = 1'b0;  e_start_clear_d = 1'b0;
    sp_d = sp_q;  sph_d = sph_q;  sptx_d = sptx_q;  spty_d = spty_q;
    dr_d = dr_q;  drh_d = drh_q;  drtx_d = drtx_q;  drty_d = drty_q;  lrzp_d = lrzp_q;
    lrz_bin = 1'b0;  bs_valid_o = 1'b0;
    pm_d = pm_q;
    prx0_d = prx0_q;  pry0_d = pry0_q;  prx1_d = prx1_q;  pry1_d = pry1_q;
    sr_re = 1'b0;  tb_start = 1'b0;  rb_d = rb_q;  gras_start = 1'b0;
    e_start = 1'b0;  e_start_mode = tessera_raster_pkg::TE_LOAD;  e_start_tgt = 1'b0;
    e_start_gmem = 1'b0;  e_start_gslot = '0;
    gd_tag_d = gd_tag_q;  gd_n_d = gd_n_q;  gf_d = gf_q;
    cwalk_end = 1'b0;
    fc_pc_d = fc_pc_q;
    fc_pd_d = fc_pd_q;
    fc_mat_d = fc_mat_q;
    fc_hold_d = fc_hold_q;
    unique case (st_q)
      T_IDLE: if (in_valid_i) begin
        if (cmd_is_tri) begin
          in_ready_o = 1'b1;
          b_ins = 1'b1;
          if (bcnt + BCntW'(1) >= blim) st_d = T_WALK;     // full: close
        end else if (bcnt != '0) begin
          st_d = T_WALK;                                  // a command closes the batch
        end else if (!drained) begin
          // a command waits until the batches before it are rendered and stored: it may
          // change the state they render with (triangles do not wait)
        end else if ((layout_chg || coarse_chg) && (fc_any || gd_any)) begin
          // a BIN, SLICE or COARSE write that changes the tile grid, the ownership or the
          // coarse bin while clears are pending or tiles are in GMEM: write them first, with
          // the grid they were recorded in (the write is taken afterwards, without a done of
          // its own for the walk)
          fc_mat_d = fc_any;
          fc_hold_d = 1'b1;
          st_d = fc_any ? T_CWALK : T_GFLUSH;
        end else begin
          in_ready_o = 1'b1;
          unique case (in_i.kind)
            tessera_raster_pkg::RIN_RP_BEGIN: begin
              gd_n_d = '0;                                // (empty already: the last pass flushed)
              if (crect_empty) begin
                done_d = 1'b1;                            // a pass that renders no tile
              end else if ((e_clr_c || e_clr_d) && !fc_fits_in) begin
                st_d = T_CWALK;                           // line by line, now
              end else begin
                fc_pc_d = {FcTiles{e_clr_c}};             // fast clear: pending per tile
                fc_pd_d = {FcTiles{e_clr_d}};
                done_d = 1'b1;
              end
            end
            tessera_raster_pkg::RIN_RP_END, tessera_raster_pkg::RIN_FLUSH,
            tessera_raster_pkg::RIN_INVALIDATE: begin
              // the tiles whose clear is still pending get it written first, then the tiles
              // in GMEM are written back
              fc_mat_d = fc_any;
              st_d = fc_any ? T_CWALK : gd_any ? T_GFLUSH : T_DRAIN;
            end
            default: done_d = 1'b1;   // SET_REG, BATCH_CLOSE (the batch is empty), unknown
          endcase
        end
        if (st_d == T_WALK || st_d == T_CWALK) begin
          // the walk starts at the batch's union box corner, or the target's
          b_walk_start = 1'b1;
          b_walk_batch = (st_d == T_WALK);
          if (st_d == T_WALK && !uv_next) begin
            // nothing in the batch touches a pixel: drop it
            st_d = T_IDLE;
            b_end = 1'b1;
          end
        end
      end
      T_WALK: begin
        if (owned && bmask != '0) begin
          st_d = T_BS;
        end else if (walk_last) begin
          st_d = T_FIN;
        end else begin
          wmove = 1'b1;
        end
      end
      // The bitstream record goes out when the bin's load can start: a free slot, the engine
      // free and the tile not in flight from the previous batch. With four slots (dbuf) the
      // load goes before a waiting store: it has a slot of its own, and the bin after the
      // raster side's needs it first; 64x64 bins store first (the store frees the buffer).
      // A tile whose store still waits (sp_match: the last bin of the batch before, held below)
      // is taken back instead: its slot holds what the store would write and the load read
      // back, so the bin goes to the raster side with no line traffic (docs/raster.md "Tile
      // kept across batches").
      T_BS: if (sp_match) begin
        bs_valid_o = 1'b1;
        if (bs_ready_i) begin
          sp_d = 1'b0;
          lh_d = sph_q;
          st_d = T_HAND;
        end
      end else if (lslot_free && !ebusy_q && !e_tail && (dbuf || !sp_q) && !tile_busy) begin
        bs_valid_o = 1'b1;
        if (bs_ready_i) begin
          e_start = 1'b1;  e_start_mode = tessera_raster_pkg::TE_LOAD;  e_start_tgt = 1'b0;
          e_start_tx = wtx;  e_start_ty = wty;
          e_start_slot = dbuf ? lslot : 2'd0;
          lh_d = dbuf ? lslot : 2'd0;
          // a target whose clear is pending is filled with the clear value, not read; a tile
          // in GMEM is read from there (it has no clear pending)
          e_start_fill_c = fc_pc;
          e_start_fill_d = fc_pd;
          if (gmem_on && gd_ld != '0) begin
            e_start_gmem  = 1'b1;
            e_start_gslot = GsW'(gd_ld - 6'd1);
          end
          fc_pc_d[fc_idx] = 1'b0;
          fc_pd_d[fc_idx] = 1'b0;
          st_d = T_LOAD;
        end
      end
      T_LOAD: if (e_ld_done) st_d = T_HAND;
      // The loaded bin goes to the raster side when it is free; the walker moves on.
      // ... once no line traffic is left in its half, and no bin drains there (its store
      // would follow): the bin's quads will own that half
      T_HAND: if (rs_q == R_IDLE && !lbusy[lh_q[0]] && !(dr_q && drh_q[0] == lh_q[0])) begin
        rs_d = R_PRIM;
        pm_d = bmask;
        rtx_d = wtx;  rty_d = wty;  rh_d = lh_q;  rb_d = wbank;
        lrzp_d = 1'b1;
        if (walk_last) begin
          st_d = T_FIN;
        end else begin
          wmove = 1'b1;
          st_d = T_WALK;
        end
      end
      // Every bin of the batch is handed on: the next batch goes into the other bank of the
      // tri RAM, once the raster side is not reading it (a bin of the batch before) and every
      // triangle of this one is set up (so a bank the raster side reads is set up whole).
      T_FIN: if ((rs_q == R_IDLE || rb_q == wbank) && sq_done) begin
        st_d = T_IDLE;
        b_end = 1'b1;
        b_flip = 1'b1;
      end
      T_CWALK: begin
        if (owned && (!fc_mat_q || fc_pc || fc_pd)) begin
          e_start = 1'b1;  e_start_mode = tessera_raster_pkg::TE_CLEAR;
          e_start_tx = wtx;  e_start_ty = wty;
          if (fc_mat_q) begin                 // pass end: this tile's pending clears
            e_start_tgt = !fc_pc;
            e_start_clear_d = fc_pd;
            fc_pc_d[fc_idx] = 1'b0;
            fc_pd_d[fc_idx] = 1'b0;
          end else begin                      // pass begin, target too large for fast clear
            e_start_tgt = !rp_clr_c;
            e_start_clear_d = rp_clr_d;
          end
          st_d = T_CLEAR;
        end else if (walk_last) begin
          cwalk_end = 1'b1;
        end else begin
          wmove = 1'b1;
        end
      end
      T_CLEAR: if (e_done) begin
        if (walk_last) begin
          cwalk_end = 1'b1;
        end else begin
          wmove = 1'b1;
          st_d = T_CWALK;
        end
      end
      // GMEM write-back: every resident tile, in slot order, for the targets stored
      T_GFLUSH: begin
        if (gf_q == gd_n_q) begin
          gd_n_d = '0;
          gf_d = '0;
          st_d = T_DRAIN;
        end else if (!rp_st_c && !rp_st_d) begin
          gf_d = gf_q + 6'd1;                  // DONT_CARE both: nothing is written back
        end else if (!ebusy_q) begin
          e_start = 1'b1;  e_start_mode = tessera_raster_pkg::TE_FLUSH;
          e_start_tgt = !rp_st_c;  e_start_clear_d = rp_st_d;
          e_start_tx = gd_tag_q[gf_q[4:0]*14 + 7 +: 7];
          e_start_ty = gd_tag_q[gf_q[4:0]*14 +: 7];
          e_start_gslot = GsW'(gf_q);
          gf_d = gf_q + 6'd1;
          st_d = T_GWAIT;
        end
      end
      T_GWAIT: if (e_done) st_d = T_GFLUSH;
      T_DRAIN: if (!e_wr_out && !e_rd_out) begin
        done_d = !fc_hold_q;
        fc_hold_d = 1'b0;
        st_d = T_IDLE;
      end
      default: st_d = T_IDLE;
    endcase
    // ---- raster side ----
    // Setup overlaps raster (issue 16 item 5): GRAS registers a primitive's setup when it
    // starts, so TSE_BIN moves the next primitive of the bin to it while GRAS walks this one
    // (the TSE itself set every triangle up at insertion, the sequencer below).
    // A primitive leaves the bin's mask when GRAS takes it; R_GRAS holds a finished setup
    // until GRAS is free. Quads stay in primitive order: one GRAS, started in mask order.
    unique case (rs_q)
      // The bin's last primitive is with GRAS: its quads drain (dr) while the raster side
      // takes the next bin and sets up its first primitive; GRAS starts that one when the
      // drain is over (one bin's quads in FS and RB at a time, in the drain's half).
      R_PRIM: begin
        if (pm_q == '0) begin
          if (!dr_q) begin
            dr_d = 1'b1;  drh_d = rh_q;  drtx_d = rtx_q;  drty_d = rty_q;
            rs_d = R_IDLE;
          end
        end else if (sr_ready) begin
          // its setup is in the setup RAM (a bank behind the inserting one is set up whole)
          sr_re = 1'b1;
          rs_d = R_PRIM_RD;
        end
      end
      R_PRIM_RD: begin
        prx0_d = rx0;  pry0_d = ry0;  prx1_d = rx1;  pry1_d = ry1;
        if (sr_degen) begin
          pm_d[pidx] = 1'b0;            // D == 0: nothing to rasterize
          rs_d = R_PRIM;
        end else begin
          tb_start = 1'b1;
          rs_d = R_SETUP;
        end
      end
      R_SETUP: if (tb_done) begin
        if (!gras_busy && !dr_q && !lrzp_q) begin
          gras_start = 1'b1;
          pm_d[pidx] = 1'b0;
          rs_d = R_PRIM;
        end else begin
          rs_d = R_GRAS;
        end
      end
      R_GRAS: if (!gras_busy && !dr_q && !lrzp_q) begin
        gras_start = 1'b1;
        pm_d[pidx] = 1'b0;
        rs_d = R_PRIM;
      end
      default: ;
    endcase
    // The drained bin's store is requested (the previous store has started by now: it had
    // the engine first); then the LRZ may take the raster side's bin.
    if (dr_q && !gras_busy && rb_idle && fs_idle && !fs_valid && !sp_q) begin
      sp_d = 1'b1;  sph_d = drh_q;  sptx_d = drtx_q;  spty_d = drty_q;
      dr_d = 1'b0;
    end
    if (lrzp_q && !dr_q) begin
      lrz_bin = 1'b1;
      lrzp_d = 1'b0;
    end
    // The engine serves a waiting store as soon as it is free (the walker's load waits),
    // unless it is held for the next batch (sp_hold).
    if (sp_q && !sp_hold && !ebusy_q && !e_start) begin
      e_start = 1'b1;  e_start_mode = tessera_raster_pkg::TE_STORE;  e_start_tgt = 1'b0;
      e_start_tx = sptx_q;  e_start_ty = spty_q;  e_start_slot = sph_q;
      sp_d = 1'b0;
      // in a coarse bin: into the tile's GMEM slot, or a new one while there is room
      if (gmem_on && gd_st != '0) begin
        e_start_gmem  = 1'b1;
        e_start_gslot = GsW'(gd_st - 6'd1);
      end else if (gmem_on && gd_n_q < gd_lim) begin
        e_start_gmem  = 1'b1;
        e_start_gslot = GsW'(gd_n_q);
        gd_tag_d[gd_n_q[4:0]*14 +: 14] = {sptx_q, spty_q};
        gd_n_d = gd_n_q + 6'd1;
      end
    end

    // The clear walk's end, from T_CWALK or T_CLEAR. At a pass's end (fc_mat_q) every owned
    // tile of the target is written, so no clear is pending any more (the bits beyond the
    // target's grid were set with the rest at RENDERPASS_BEGIN) and the command drains; at a
    // pass's begin (line-by-line clear) the RENDERPASS_BEGIN completes.
    if (cwalk_end) begin
      if (fc_mat_q) begin
        fc_pc_d = '0;
        fc_pd_d = '0;
        fc_mat_d = 1'b0;
        st_d = gd_any ? T_GFLUSH : T_DRAIN;
      end else begin
        done_d = 1'b1;
        st_d = T_IDLE;
      end
    end
  end

  assign e_clr_c = (in_rp.color_load == tessera_spec_pkg::TS_LOAD_OP_CLEAR);
  assign e_clr_d = (in_rp.depth_load == tessera_spec_pkg::TS_LOAD_OP_CLEAR);

  logic cmd_fire, setreg;
  assign fs_inv = cmd_fire && (in_i.kind != tessera_raster_pkg::RIN_SET_REG);
  assign cmd_fire = in_valid_i && in_ready_o && !cmd_is_tri;
  assign setreg   = cmd_fire && (in_i.kind == tessera_raster_pkg::RIN_SET_REG);
  logic [11:0] roff;
  logic [31:0] rval;
  assign roff = in_i.data[11:0];
  assign rval = in_i.data[63:32];

  // The state registers and the render pass (raster_regs). A BIN or SLICE write that changes
  // the tile grid or the ownership (layout_chg) switches the LRZ off for the pass (the
  // slice-space layout changed), and pending fast clears are written first.
  raster_regs #(.SLICE_NUM(SLICE_NUM), .SLICE_INDEX(SLICE_INDEX)) u_regs (
    .clk_i, .rst_ni,
    .set_off_i(roff), .set_val_i(rval),
    .set_valid_i(in_valid_i && in_i.kind == tessera_raster_pkg::RIN_SET_REG), .set_we_i(setreg),
    .rp_we_i(cmd_fire && in_i.kind == tessera_raster_pkg::RIN_RP_BEGIN), .rp_i(in_rp),
    .reg_o(rg),
    .caddr_o(caddr), .daddr_o(daddr), .rtw_o(rtw), .rth_o(rth), .cclear_o(cclear),
    .dclear_o(dclear), .cdsid_o(cdsid), .ddsid_o(ddsid), .clr_c_o(rp_clr_c), .clr_d_o(rp_clr_d),
    .st_c_o(rp_st_c), .st_d_o(rp_st_d),
    .layout_chg_o(layout_chg), .coarse_chg_o(coarse_chg));
  assign lrz_layout_wr = setreg && layout_chg;
  raster_lrz #(.BLOCKS(LRZ_BLOCKS)) u_lrz (
    .clk_i, .rst_ni,
    .enable_i(rg.lrz.enable), .depth_func_i(rg.depth.func), .depth_we_i(rg.depth.write_en),
    .l2t_i(l2t), .snum_i(rg.slice.num), .rtw_i(rtw), .rth_i(rth),
    .rp_begin_i(cmd_fire && in_i.kind == tessera_raster_pkg::RIN_RP_BEGIN),
    .rp_clear_i(e_clr_d), .rp_clear_depth_i(in_rp.clear_depth),
    .layout_wr_i(lrz_layout_wr),
    .bin_i(lrz_bin), .bin_tx_i(rtx_q), .bin_ty_i(rty_q),
    .hold_o(lrz_hold), .req_i(lrz_req), .bx_i(lrz_bx), .by_i(lrz_by),
    .zmin_i(lrz_zmin), .zmax_i(lrz_zmax), .zok_i(lrz_zok), .full_i(lrz_full),
    .nquads_i(lrz_nquads), .reject_o(lrz_reject),
    .cnt_blocks_o(lrz_blocks), .cnt_quads_o(lrz_quads));


  // counters
  logic [31:0] c_tris_q, c_bins_q, c_bprims_q, c_quads_q, c_frags_q, c_pass_q, c_rd_q, c_wr_q;
  logic [31:0] c_hidden_q;
  logic [2:0]  qpop;
  logic [31:0] y_load_q, y_setup_q, y_rast_q, y_store_q;
  logic [31:0] y_idle_q, y_inwait_q, y_memwait_q, y_clear_q;
  logic [31:0] y_texwait_q, y_ldwait_q;   // memory waits on the read side, by cause

  // ---- where the cycles go: one activity per cycle -----------------------------------------
  // The raster side's work counts first (setup, raster); a cycle it is idle goes to the line
  // engine's job (load, store, clear: a line request the port does not take, a load with
  // nothing issued or arriving are memory waits), then to the walker (insertion and walk are
  // setup; input wait, idle; the drain's wait for write acknowledgements is a memory wait).
  // With double-buffered tiles, loads and stores hidden under the raster are not counted.
  // A texel miss holds the FS (and so the raster) until its line arrives: a memory wait too
  // (the tile prefetcher's figure, issue 19: the cycles the slices stall on memory).
  // Which memory waits are reads (what a prefetch can shorten): the FS's texel misses and the
  // tile loads; the rest are the write side (stores, flushes, clears the port does not take,
  // the drain's write acknowledgements).
  tessera_raster_pkg::act_e act;
  logic                     mem_stall;
  logic                     load_wait;
  assign mem_stall = mem_req_valid_o && !mem_req_ready_i;
  always_comb begin
    load_wait = 1'b0;
    if (fs_miss_wait) begin
      act = tessera_raster_pkg::ACT_MEMORY_WAIT;
    end else if (rs_q == R_GRAS || (dr_q && rs_q == R_IDLE)) begin
      act = tessera_raster_pkg::ACT_RASTER;
    end else if (rs_q != R_IDLE) begin
      // prim, setup: raster while GRAS works in their shadow
      act = gras_busy ? tessera_raster_pkg::ACT_RASTER : tessera_raster_pkg::ACT_SETUP;
    end else if (ebusy_q) begin
      unique case (emode_q)
        tessera_raster_pkg::TE_LOAD: begin
          load_wait = mem_stall || !(e_fire || e_rsp || e_fill_we);
          act = load_wait ? tessera_raster_pkg::ACT_MEMORY_WAIT : tessera_raster_pkg::ACT_LOAD;
        end
        tessera_raster_pkg::TE_STORE, tessera_raster_pkg::TE_FLUSH:
          act = mem_stall ? tessera_raster_pkg::ACT_MEMORY_WAIT : tessera_raster_pkg::ACT_STORE;
        default: act = mem_stall ? tessera_raster_pkg::ACT_MEMORY_WAIT : tessera_raster_pkg::ACT_CLEAR;
      endcase
    end else if (e_tail) begin
      // a load's last lines arrive with no engine job: as in the load itself
      load_wait = !e_rsp;
      act = e_rsp ? tessera_raster_pkg::ACT_LOAD : tessera_raster_pkg::ACT_MEMORY_WAIT;
    end else begin
      unique case (st_q)
        T_IDLE: begin
          if (in_valid_i)          act = tessera_raster_pkg::ACT_SETUP;
          else if (bcnt != '0)   act = tessera_raster_pkg::ACT_INPUT_WAIT;
          else                     act = tessera_raster_pkg::ACT_IDLE;
        end
        T_CWALK, T_CLEAR: act = tessera_raster_pkg::ACT_CLEAR;
        T_GFLUSH, T_GWAIT: act = tessera_raster_pkg::ACT_STORE;
        T_DRAIN:          act = tessera_raster_pkg::ACT_MEMORY_WAIT;
        default:          act = tessera_raster_pkg::ACT_SETUP;   // walk, record, hand-off
      endcase
    end
  end
  assign act_o = act;
  assign mon_rp_begin_o = cmd_fire && (in_i.kind == tessera_raster_pkg::RIN_RP_BEGIN);
  // a bin is in flight from its bitstream record until the last store's line is issued
  assign mon_in_bin_o   = (st_q == T_BS) || (st_q == T_LOAD) || (st_q == T_HAND) ||
                          (rs_q != R_IDLE) || dr_q || sp_q || (ebusy_q && emode_q == tessera_raster_pkg::TE_STORE);
  prim_popcount #(.WIDTH(4)) u_qpop (.in_i(quad.mask), .cnt_o(qpop));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fc_pc_q <= '0;
      fc_pd_q <= '0;
      fc_mat_q <= 1'b0;
      fc_hold_q <= 1'b0;
      gd_tag_q <= '0;
      gd_n_q <= '0;
      gf_q <= '0;
      st_q <= T_IDLE;  done_q <= 1'b0;
      rs_q <= R_IDLE;
      rb_q <= 1'b0;
      rh_q <= '0;
      lh_q <= '0;
      rtx_q <= '0;
      rty_q <= '0;
      sp_q <= 1'b0;
      sph_q <= '0;
      dr_q <= 1'b0;
      drh_q <= '0;
      drtx_q <= '0;
      drty_q <= '0;
      lrzp_q <= 1'b0;
      sptx_q <= '0;
      spty_q <= '0;
      pm_q <= '0;  prx0_q <= '0;  pry0_q <= '0;  prx1_q <= '0;  pry1_q <= '0;
      c_tris_q <= '0;  c_bins_q <= '0;  c_bprims_q <= '0;  c_quads_q <= '0;  c_frags_q <= '0;
      c_pass_q <= '0;  c_rd_q <= '0;  c_wr_q <= '0;
      c_hidden_q <= '0;
      y_load_q <= '0;  y_setup_q <= '0;  y_rast_q <= '0;  y_store_q <= '0;
      y_idle_q <= '0;  y_inwait_q <= '0;  y_memwait_q <= '0;  y_clear_q <= '0;
      y_texwait_q <= '0;  y_ldwait_q <= '0;
    end else begin
      fc_pc_q <= fc_pc_d;
      fc_pd_q <= fc_pd_d;
      fc_mat_q <= fc_mat_d;
      fc_hold_q <= fc_hold_d;
      gd_tag_q <= gd_tag_d;
      gd_n_q <= gd_n_d;
      gf_q <= gf_d;
      unique case (act)
        tessera_raster_pkg::ACT_IDLE:        y_idle_q    <= y_idle_q + 32'd1;
        tessera_raster_pkg::ACT_INPUT_WAIT:  y_inwait_q  <= y_inwait_q + 32'd1;
        tessera_raster_pkg::ACT_MEMORY_WAIT: y_memwait_q <= y_memwait_q + 32'd1;
        tessera_raster_pkg::ACT_CLEAR:       y_clear_q   <= y_clear_q + 32'd1;
        tessera_raster_pkg::ACT_LOAD:        y_load_q    <= y_load_q + 32'd1;
        tessera_raster_pkg::ACT_SETUP:       y_setup_q   <= y_setup_q + 32'd1;
        tessera_raster_pkg::ACT_RASTER:      y_rast_q    <= y_rast_q + 32'd1;
        default:                             y_store_q   <= y_store_q + 32'd1;
      endcase
      if (fs_miss_wait) y_texwait_q <= y_texwait_q + 32'd1;
      if (load_wait)    y_ldwait_q  <= y_ldwait_q + 32'd1;
      st_q <= st_d;  done_q <= done_d;
      rs_q <= rs_d;
      rb_q <= rb_d;
      rh_q <= rh_d;
      lh_q <= lh_d;
      rtx_q <= rtx_d;
      rty_q <= rty_d;
      sp_q <= sp_d;
      sph_q <= sph_d;
      dr_q <= dr_d;
      drh_q <= drh_d;
      drtx_q <= drtx_d;
      drty_q <= drty_d;
      lrzp_q <= lrzp_d;
      sptx_q <= sptx_d;
      spty_q <= spty_d;
      pm_q <= pm_d;
      prx0_q <= prx0_d;  pry0_q <= pry0_d;  prx1_q <= prx1_d;  pry1_q <= pry1_d;
      if (b_ins) c_tris_q <= c_tris_q + 32'd1;
      if (bs_valid_o && bs_ready_i) begin
        c_bins_q   <= c_bins_q + 32'd1;
        c_bprims_q <= c_bprims_q + 32'(bpop);
      end
      if (quad_valid && fs_ready) begin
        c_quads_q <= c_quads_q + 32'd1;
        c_frags_q <= c_frags_q + 32'(qpop);
      end
      c_pass_q <= c_pass_q + 32'(rb_pass);
      if (rb_hidden) c_hidden_q <= c_hidden_q + 32'd1;
      if (req_fire && mem_req_o.op == tessera_mem_pkg::MEM_OP_READ)  c_rd_q <= c_rd_q + 32'd1;
      if (req_fire && mem_req_o.op == tessera_mem_pkg::MEM_OP_WRITE) c_wr_q <= c_wr_q + 32'd1;
    end
  end

  assign done_o   = done_q;
  assign busy_o   = (st_q != T_IDLE) || (bcnt != '0) || !drained || e_wr_out || e_rd_out;
  assign bs_tx_o  = wtx;
  assign bs_ty_o  = wty;
  assign bs_mask_o  = bmask;
  assign bs_count_o = bpop;

  // the first bitstream record of a batch (the prefetcher numbers the batches of a frame by
  // it: docs/prefetcher.md "History per batch"); a batch with no owned bin has no record
  logic bfirst_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bfirst_q <= 1'b1;
    end else if (b_walk_start && b_walk_batch) begin
      bfirst_q <= 1'b1;
    end else if (bs_valid_o && bs_ready_i) begin
      bfirst_q <= 1'b0;
    end
  end
  assign bs_first_o = bfirst_q;
  assign cnt_tris_o = c_tris_q;   assign cnt_bins_o  = c_bins_q;
  assign cnt_binprims_o = c_bprims_q;  assign cnt_quads_o = c_quads_q;
  assign cnt_frags_o = c_frags_q; assign cnt_pass_o  = c_pass_q;
  assign cnt_rd_o    = c_rd_q;    assign cnt_wr_o    = c_wr_q;
  assign cnt_tex_hit_o = fs_hits;  assign cnt_tex_miss_o = fs_misses;
  assign cnt_lrz_blocks_o = lrz_blocks;
  assign cnt_lrz_quads_o  = lrz_quads;
  assign cnt_hidden_o     = c_hidden_q;
  assign cyc_idle_o = y_idle_q;
  assign cyc_input_wait_o = y_inwait_q;
  assign cyc_memory_wait_o = y_memwait_q;
  assign cyc_texel_wait_o = y_texwait_q;
  assign cyc_load_wait_o  = y_ldwait_q;
  assign cyc_clear_o = y_clear_q;
  assign cyc_load_o  = y_load_q;   assign cyc_setup_o = y_setup_q;
  assign cyc_raster_o = y_rast_q;  assign cyc_store_o = y_store_q;

  logic unused_top;
  assign unused_top = ^{in_i.draw_id, in_i.prim_id,
                        mem_rsp_i.err, mem_rsp_i.src, mem_rsp_i.tag[7], tb_busy, gras_busy};

  // PIXELS_PER_CLK: one 2x2 quad per clock is what GRAS and RB implement
  `ASSERT_INIT(PixelsPerClkIs4, PIXELS_PER_CLK == 4)
  `ASSERT_INIT(SliceParams_A, SLICE_NUM >= 1 && SLICE_NUM <= 8 && SLICE_INDEX < SLICE_NUM)
  // the port's request is held until taken: the engine's stays when it was not taken
  `ASSERT(EngineReqHeld_A, e_lock_q |-> e_req_valid && !fs_sel && e_req == $past(e_req))
  `ASSERT(ScoutReqHeld_A, s_lock_q |-> fs_sreq && sc_sel && !fs_sel)
  `ASSERT(OneLock_A, !(e_lock_q && s_lock_q))
  `ASSERT(RspNoError, mem_rsp_valid_i |-> !mem_rsp_i.err)
  // Fast clear: a pass never begins with clears of the last one still pending (every pass
  // ends with RENDERPASS_END, which writes them), only a fitting pass has pending tiles, and a
  // fill never takes the tile buffer's write port from a load response.
  `ASSERT(FcNoneAtPassBegin_A, cmd_fire && in_i.kind == tessera_raster_pkg::RIN_RP_BEGIN |-> !fc_any)
  `ASSERT(FcOnlyInsideGrid_A, fc_any && (st_q == T_BS || st_q == T_CWALK) |-> wtx < 7'd32 && wty < 7'd32)
  `ASSERT(FcFillOnlyOnLoad_A, e_fill_we |-> ebusy_q && emode_q == tessera_raster_pkg::TE_LOAD && !e_rsp)
  // GMEM: a pass begins with it empty (the last one wrote it back); the directory stays within
  // GMEM; a GMEM job runs only in a coarse bin, and a flush only in the write-back walk
  `ASSERT(CmdTakeIsFire_A, cmd_take == cmd_fire)
  `ASSERT(GmemNoneAtPassBegin_A, cmd_fire && in_i.kind == tessera_raster_pkg::RIN_RP_BEGIN |-> !gd_any)
  `ASSERT(GmemWithinLimit_A, gd_n_q <= gd_lim || st_q == T_GFLUSH || st_q == T_GWAIT)
  `ASSERT(GmemOnlyInCoarseBin_A, e_start && e_start_gmem |-> gmem_on)
  `ASSERT(GmemFlushInWalk_A, e_start && e_start_mode == tessera_raster_pkg::TE_FLUSH |-> st_q == T_GFLUSH)
  `ASSERT_INIT(GmemLines_A, GMEM_LINES >= 512 && (GMEM_LINES & (GMEM_LINES - 1)) == 0)
  // Setup/raster overlap: GRAS is started only when free, and it finishes (done_o) only while
  // it is working; the bin's store waits for it.
  `ASSERT(GrasStartsFree_A, gras_start |-> !gras_busy)
  `ASSERT(GrasDoneWhileBusy_A, gras_done |-> gras_busy)
  `ASSERT(StoreAfterGras_A, ebusy_q && emode_q == tessera_raster_pkg::TE_STORE && !dbuf |-> !gras_busy)
  // Double-buffered tiles: the raster side and the line engine never work in the same half,
  // and only with bins that fit a half; the walker hands on only loaded bins.
  `ASSERT(HalvesApart_A, rs_q != R_IDLE && ebusy_q && emode_q != tessera_raster_pkg::TE_CLEAR |-> dbuf && eh_q[0] != rh_q[0])
  `ASSERT(DrainApart_A, dr_q && ebusy_q && emode_q != tessera_raster_pkg::TE_CLEAR |-> eh_q[0] != drh_q[0])
  `ASSERT(TailApart_A, e_tail && (rs_q != R_IDLE || dr_q) |-> e_tail_slot[0] != qslot[0])
  // 64x64 bins use the whole buffer: slot 0 (a slot left from smaller bins is never in use)
  `ASSERT(SlotsOnlySplit_A, !dbuf |-> (rs_q == R_IDLE || rh_q == '0) && (!ebusy_q || eh_q == '0) &&
                                     (!(st_q == T_LOAD || st_q == T_HAND) || lh_q == '0))
  `ASSERT(HandOffLoaded_A, st_q == T_HAND |-> !(ebusy_q && emode_q == tessera_raster_pkg::TE_LOAD) && !e_tail)
  // the batch being inserted never writes the bank the raster side reads; commands run drained
  `ASSERT(BanksApart_A, b_ins && rs_q != R_IDLE |-> rb_q != wbank)
  `ASSERT(CommandsDrained_A, cmd_fire |-> drained)
  // a tile is loaded only after the previous batch's store of it (read back through memory)
  `ASSERT(LoadAfterStore_A, e_start && e_start_mode == tessera_raster_pkg::TE_LOAD |-> !tile_busy)
  // GRAS starts a bin's primitive only after the previous bin drained and the LRZ took it
  `ASSERT(GrasAfterDrain_A, gras_start |-> !dr_q && !lrzp_q)
  `ASSERT(OneStoreWaiting_A, dr_q && !dr_d |-> !sp_q)
  // the raster side reads a setup record only once the binner has written it
  `ASSERT(SetupReadReady_A, sr_re |-> sr_ready)
  // a read wait by cause is a memory wait, and has one cause
  `ASSERT(ReadWaitIsMemoryWait_A, fs_miss_wait || load_wait |-> act == tessera_raster_pkg::ACT_MEMORY_WAIT)
  `ASSERT(OneReadWaitCause_A, !(fs_miss_wait && load_wait))

endmodule
