// pipe_top -- the GPU pipeline behind the command processor: the sliced geometry front end
// (geom_top: PC_US, NUM_SLICES geometry slices, VPC_US) and, per slice, VPCBE_S and a raster
// slice (PBB binner, TSE, GRAS, FS/TP, RB). docs/pipeline.md is the manual.
//
// Sources: 001_3630ef805e8956e2.txt (Qualcomm sliced GPU; the slice structure and VPCBE_S),
// 000_b9c7be2d27aa8181.txt (AMD; primitive batch binning in the raster slices);
// ARCHITECTURE.md 5.3 and 5.4.
//
// Commands and completion. Every CP command enters geom_top in order. Commands the raster
// slices execute (pipe_cmd_map) leave geom_top on its side output after the triangles of the
// draws before them and are broadcast to every VPCBE_S. A completion tracker holds one entry
// per accepted command, in order: a command is complete (pipe_done_o) when geom_top has
// completed it and, if the raster slices execute it, when every raster slice has completed it
// too. So RENDERPASS_END is complete only when every slice has stored its tiles and had every
// write acknowledged, which is what the CP's FENCE and DSID_DELETE wait for.
// A DRAW is complete once its triangles are handed to the raster slices: its pixels are
// written when their batch is rendered, and the commands that close batches (render-pass end,
// DSID_SET, the cache maintenance below) complete after that. DSID_SET's completion puts the
// pixels in the slice's CCHE only; RENDERPASS_END and the maintenance put them in memory.
//
// Slice-cache maintenance (cache_req_i, from the CP's FENCE with flush/invalidate): pipe_top
// sends its own FENCE command down the same path, so every slice closes its batch, renders,
// waits for its writes and (invalidate) drops its texel cache; cache_done_o pulses when that
// command completes. It is not a CP command: it never counts in pipe_done_o.
//
// Memory: each slice's vertex fetch (geometry slice k) and raster slice k share the slice's
// write-back cache (CCHE, rtl/ccche); memory client k is CCHE k. The raster slice's commands
// that need their writes in memory (RENDERPASS_END, FLUSH, INVALIDATE) complete on that slice
// only after the CCHE has written back (and, for RENDERPASS_END and INVALIDATE, invalidated)
// its lines, and RENDERPASS_BEGIN waits for every slice's completions (the barrier below). So
// a raster slice starts each pass with no line in its CCHE and cannot read another slice's
// stale copy of a target (render to texture). The vertex fetch is not held by that barrier: it
// may fill lines for the next pass early, which is safe because the GPU never writes memory
// the vertex fetch reads (render to vertex buffer would need the barrier on geometry too).

`include "prim_assert.svh"

module pipe_top #(
  parameter int unsigned NUM_SLICES  = 2,
  parameter int unsigned BATCH_PRIMS = 64,
  parameter int unsigned TRK_DEPTH   = 32,   // commands in flight
  parameter int unsigned CCHE_LINES  = 256,  // per-slice write-back cache (64-byte lines)
  parameter int unsigned CCHE_WAYS   = 8,
  // Triangles VPCBE_S buffers in front of each raster slice: one batch (BATCH_PRIMS), so a
  // slice takes the next batch while it renders this one and a triangle offered to several
  // slices is not held by the busiest (issue 16; docs/pipeline.md "Decoupled slices").
  parameter int unsigned VPCBE_DEPTH = 64,
  parameter logic [31:0] MEM_BYTES   = 32'h0100_0000,  // the tile prefetcher prefetches below this
  // Derived
  localparam int unsigned NS       = NUM_SLICES,
  localparam int unsigned NCl      = NUM_SLICES + 1,   // the slices' CCHEs, then the prefetcher
  localparam int unsigned ReqW     = tessera_mem_pkg::MEM_REQ_W,
  localparam int unsigned RspW     = tessera_mem_pkg::MEM_RSP_W,
  localparam int unsigned StatW    = tessera_spec_pkg::TS_SLICE_STATS_W,  // statistics bits per slice
  localparam int unsigned MonW     = tessera_spec_pkg::TS_SLICE_MONITOR_W  // monitor bits per slice
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  // CP pipeline command port
  input  logic                         pipe_valid_i,
  output logic                         pipe_ready_o,
  input  tessera_cp_pkg::pipe_cmd_t    pipe_cmd_i,
  output logic                         pipe_done_o,
  output logic                         err_o,
  // slice-cache maintenance (cache_req_i held until cache_done_o)
  input  logic                         cache_req_i,
  input  logic                         cache_flush_i,
  input  logic                         cache_invalidate_i,
  output logic                         cache_done_o,
  // GEOM register block
  input  logic                         reg_req_valid_i,
  output logic                         reg_req_ready_o,
  input  tessera_regbus_pkg::reg_req_t reg_req_i,
  output logic                         reg_rsp_valid_o,
  output tessera_regbus_pkg::reg_rsp_t reg_rsp_o,
  // memory clients: k < NUM_SLICES slice k's CCHE; NUM_SLICES the tile prefetcher (pf_top)
  output logic [NCl-1:0]               mem_req_valid_o,
  input  logic [NCl-1:0]               mem_req_ready_i,
  output logic [NCl*ReqW-1:0]          mem_req_o,
  input  logic [NCl-1:0]               mem_rsp_valid_i,
  output logic [NCl-1:0]               mem_rsp_ready_o,
  input  logic [NCl*RspW-1:0]          mem_rsp_i,
  // the SLC's running CNT_HITS and CNT_MISSES (the prefetcher's ADAPTIVE threshold)
  input  logic [31:0]                  slc_hits_i,
  input  logic [31:0]                  slc_misses_i,
  // status and statistics
  output logic                         busy_o,
  output logic [NS-1:0]                cche_busy_o,   // slice s's CCHE holds work (ccche busy_o)
  // per slice s, the statistics block at [s*StatW +: StatW] (wrapping counters): layout
  // slice_stats of spec/layouts.yaml (docs/reference/layouts.md), field F at
  // tessera_spec_pkg::TS_SLICE_STATS_<F>_LSB
  output logic [NS*StatW-1:0]          stat_o,
  // per slice s, what it does this cycle at [s*MonW +: MonW]: layout slice_monitor of
  // spec/layouts.yaml (debug port for the simulator's per-bin figures and timeline)
  output logic [NS*MonW-1:0]           mon_o
);

  localparam int unsigned CrW = 8;   // completion credits (bounded by TRK_DEPTH)

  // ============================================================================================
  // Input: CP commands, or pipe_top's own FENCE for cache maintenance
  // ============================================================================================
  typedef enum logic [1:0] {K_GEOM = 2'd0, K_RAST = 2'd1, K_CACHE = 2'd2} kind_e;

  logic                      inj_sent_q, inj, g_valid, g_ready, g_fire;
  tessera_cp_pkg::pipe_cmd_t inj_cmd, g_cmd;
  logic                      trk_wready, trk_rvalid, trk_rready;
  logic [1:0]                trk_rdata;
  logic                      in_to_raster;
  tessera_raster_pkg::rin_t  unused_in_rin;

  always_comb begin
    inj_cmd        = '0;
    inj_cmd.opcode = tessera_spec_pkg::TS_OP_FENCE;
    inj_cmd.nargs  = 4'd1;
    inj_cmd.args[0] = cache_invalidate_i;
  end
  assign inj     = cache_req_i && !inj_sent_q;
  assign g_valid = (inj || pipe_valid_i) && trk_wready;
  assign g_cmd   = inj ? inj_cmd : pipe_cmd_i;
  assign g_fire  = g_valid && g_ready;
  assign pipe_ready_o = !inj && g_ready && trk_wready;

  pipe_cmd_map u_map_in (.cmd_i(g_cmd), .to_raster_o(in_to_raster), .rin_o(unused_in_rin));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) inj_sent_q <= 1'b0;
    else         inj_sent_q <= cache_req_i && (inj_sent_q || (inj && g_fire));
  end

  // ---- completion tracker ------------------------------------------------------------------
  kind_e in_kind;
  assign in_kind = inj ? K_CACHE : (in_to_raster ? K_RAST : K_GEOM);
  logic unused_trk_full, unused_trk_empty;
  logic [$clog2(TRK_DEPTH+1)-1:0] unused_trk_depth;
  prim_fifo_sync #(.WIDTH(2), .DEPTH(TRK_DEPTH), .FALL_THROUGH(0)) u_trk (
    .clk_i, .rst_ni, .clr_i(1'b0),
    .wvalid_i(g_fire), .wready_o(trk_wready), .wdata_i(in_kind),
    .rvalid_o(trk_rvalid), .rready_i(trk_rready), .rdata_o(trk_rdata),
    .full_o(unused_trk_full), .empty_o(unused_trk_empty), .depth_o(unused_trk_depth));

  logic            geom_done;
  logic [NS-1:0]   r_done;
  logic [CrW-1:0]  g_cred_q;
  logic [NS*CrW-1:0] r_cred_q;
  logic            r_all;
  always_comb begin
    r_all = 1'b1;
    for (int unsigned s = 0; s < NS; s++) if (r_cred_q[s*CrW +: CrW] == '0) r_all = 1'b0;
  end
  kind_e head_kind;
  assign head_kind  = kind_e'(trk_rdata);
  assign trk_rready = trk_rvalid && g_cred_q != '0 && (head_kind == K_GEOM || r_all);

  logic done_q, cdone_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      g_cred_q <= '0;
      r_cred_q <= '0;
      done_q   <= 1'b0;
      cdone_q  <= 1'b0;
    end else begin
      g_cred_q <= g_cred_q + CrW'(geom_done) - CrW'(trk_rready);
      for (int unsigned s = 0; s < NS; s++) begin
        r_cred_q[s*CrW +: CrW] <= r_cred_q[s*CrW +: CrW] + CrW'(r_done[s]) -
                                  CrW'(trk_rready && head_kind != K_GEOM);
      end
      done_q  <= trk_rready && head_kind != K_CACHE;
      cdone_q <= trk_rready && head_kind == K_CACHE;
    end
  end
  assign pipe_done_o  = done_q;
  assign cache_done_o = cdone_q;

  // ============================================================================================
  // Geometry front end
  // ============================================================================================
  logic                       side_valid, side_ready;
  tessera_cp_pkg::pipe_cmd_t  side_cmd;
  logic [NS-1:0]              tri_valid, tri_ready;
  logic [NS*geom_pkg::TRI_W-1:0] tris;
  logic [NS-1:0]              rd_req_valid, rd_req_ready, rd_rsp_valid;
  logic [NS*geom_pkg::RD_REQ_W-1:0] rd_req;
  logic [NS*geom_pkg::STRI_W-1:0]   rd_rsp;
  logic [NS-1:0]                    gm_req_valid, gm_req_ready, gm_rsp_valid, gm_rsp_ready;
  logic [NS*ReqW-1:0]               gm_req;
  logic [NS*RspW-1:0]               gm_rsp;
  logic [NS-1:0]                    g_mon_sb;
  logic [geom_pkg::SB_SIZE_W-1:0]   g_mon_sb_prims;
  logic [NS*16-1:0]                 g_mon_outstanding;
  // the tile prefetcher: its registers in GEOM, and what it snoops from every raster slice
  geom_pkg::pf_cfg_t                pf_cfg;
  geom_pkg::pf_stat_t               pf_stat;
  logic [NS-1:0]                    pf_bs_valid, pf_rd_valid;
  logic [NS*7-1:0]                  pf_bs_tx, pf_bs_ty;
  logic [NS*8-1:0]                  pf_bs_count, pf_rd_tag;
  logic [NS-1:0]                    pf_bs_first;
  logic [NS*32-1:0]                 pf_rd_addr;
  logic                             pf_busy;
  // two-level binning's client (bitmap reads, visibility writes), merged into CCHE 0's port 0
  logic                             gv_req_valid, gv_req_ready, gv_rsp_valid, gv_rsp_ready;
  logic [ReqW-1:0]                  gv_req;
  logic [RspW-1:0]                  gv_rsp;

  geom_top #(.NUM_SLICES(NS)) u_geom (
    .clk_i, .rst_ni,
    .pipe_valid_i(g_valid), .pipe_ready_o(g_ready), .pipe_cmd_i(g_cmd),
    .pipe_done_o(geom_done), .err_o,
    .side_valid_o(side_valid), .side_ready_i(side_ready), .side_cmd_o(side_cmd),
    .mem_req_valid_o(gm_req_valid), .mem_req_ready_i(gm_req_ready), .mem_req_o(gm_req),
    .mem_rsp_valid_i(gm_rsp_valid), .mem_rsp_ready_o(gm_rsp_ready), .mem_rsp_i(gm_rsp),
    .vis_mem_req_valid_o(gv_req_valid), .vis_mem_req_ready_i(gv_req_ready), .vis_mem_req_o(gv_req),
    .vis_mem_rsp_valid_i(gv_rsp_valid), .vis_mem_rsp_ready_o(gv_rsp_ready), .vis_mem_rsp_i(gv_rsp),
    .tri_valid_o(tri_valid), .tri_ready_i(tri_ready), .tri_o(tris),
    .rd_req_valid_i(rd_req_valid), .rd_req_ready_o(rd_req_ready), .rd_req_i(rd_req),
    .rd_rsp_valid_o(rd_rsp_valid), .rd_rsp_o(rd_rsp),
    .reg_req_valid_i, .reg_req_ready_o, .reg_req_i, .reg_rsp_valid_o, .reg_rsp_o,
    .mon_sb_o(g_mon_sb), .mon_sb_prims_o(g_mon_sb_prims), .mon_outstanding_o(g_mon_outstanding),
    .pf_cfg_o(pf_cfg), .pf_stat_i(pf_stat));

  // ---- side output: raster commands broadcast to every slice, the rest dropped -------------
  // (SET_PREFETCH and FRAME_END are dropped here too, once the tile prefetcher has taken them.)
  logic                     side_to_raster;
  tessera_raster_pkg::rin_t side_rin;
  logic [NS-1:0]            sent_q, bc_valid, bc_ready;
  pipe_cmd_map u_map_side (.cmd_i(side_cmd), .to_raster_o(side_to_raster), .rin_o(side_rin));

  // Render-pass boundary: RENDERPASS_BEGIN reaches the slices only once every slice has
  // completed everything before it (the previous pass's tiles are stored and acknowledged), so
  // a pass that samples an earlier pass's target (render to texture) reads finished pixels
  // whichever slice wrote them. Once the broadcast has started it completes.
  logic [NS*4-1:0] outst_q;      // commands delivered to a slice and not completed by it
  logic            slices_idle, rpb_hold;
  always_comb begin
    slices_idle = 1'b1;
    for (int unsigned s = 0; s < NS; s++) if (outst_q[s*4 +: 4] != '0) slices_idle = 1'b0;
  end
  // ... and, with the slices idle, until the tile prefetcher has drained the last pass's jobs
  // (pf_top.sv "Draining": a pass's history jobs never mix with the next pass's)
  logic pf_drain, pf_drained;
  assign rpb_hold = side_rin.kind == tessera_raster_pkg::RIN_RP_BEGIN && (!slices_idle || !pf_drained) &&
                    (sent_q == '0);

  assign bc_valid   = {NS{side_valid && side_to_raster && !rpb_hold}} & ~sent_q;
  logic [NS-1:0] kq_wready, vp_cmd_ready;
  assign bc_ready   = vp_cmd_ready & kq_wready;
  // The tile prefetcher takes FRAME_END and SET_PREFETCH once every slice has completed
  // everything before them (every bin event of the frame has happened), SET_PREFETCH also
  // once the prefetcher has nothing of the old history in flight (docs/prefetcher.md).
  logic side_is_fe, side_is_pf, pf_hold, pf_set_ready;
  assign side_is_fe = side_cmd.opcode == tessera_spec_pkg::TS_OP_FRAME_END;
  assign side_is_pf = side_cmd.opcode == tessera_spec_pkg::TS_OP_SET_PREFETCH;
  assign pf_hold    = (side_is_fe || side_is_pf) && (!slices_idle || (side_is_pf && !pf_set_ready));
  assign pf_drain   = side_valid && slices_idle &&
                      (side_is_pf || (side_to_raster && side_rin.kind == tessera_raster_pkg::RIN_RP_BEGIN &&
                                      sent_q == '0));
  assign side_ready = side_to_raster ? (&(sent_q | bc_ready)) : !pf_hold;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)                       sent_q <= '0;
    else if (side_valid && side_ready) sent_q <= '0;
    else                               sent_q <= sent_q | (bc_valid & bc_ready);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      outst_q <= '0;
    end else begin
      for (int unsigned s = 0; s < NS; s++) begin
        outst_q[s*4 +: 4] <= outst_q[s*4 +: 4] + 4'(bc_valid[s] && bc_ready[s]) - 4'(r_done[s]);
      end
    end
  end

  // ============================================================================================
  // Per slice: VPCBE_S and the raster slice
  // ============================================================================================
  logic [NS-1:0] r_busy;
  for (genvar s = 0; s < NS; s++) begin : gen_slice
    logic                     in_valid, in_ready;
    tessera_raster_pkg::rin_t rin;
    tessera_mem_pkg::mem_req_t req;
    tessera_mem_pkg::mem_rsp_t rsp;
    logic                     bs_valid;
    logic [6:0]               bs_tx, bs_ty;
    logic [BATCH_PRIMS-1:0]   bs_mask;
    logic [7:0]               bs_count;
    logic                     bs_first;
    logic [31:0]              busy_cyc_q, tri_cnt_q;
    // busy = doing work, not waiting (issue 16 item 8: "idle with an open batch" is waiting)
    tessera_raster_pkg::act_e r_act;
    logic                     r_work;
    logic                     r_mon_rp_begin, r_mon_in_bin;
    assign r_work = (r_act != tessera_raster_pkg::ACT_IDLE) &&
                    (r_act != tessera_raster_pkg::ACT_INPUT_WAIT) &&
                    (r_act != tessera_raster_pkg::ACT_MEMORY_WAIT);

    raster_vpcbe #(.SLICE_IDX(s), .NUM_SLICES(NS), .OUT_DEPTH(VPCBE_DEPTH)) u_vpcbe (
      .clk_i, .rst_ni,
      .tri_valid_i(tri_valid[s]), .tri_ready_o(tri_ready[s]),
      .tri_i(tris[s*geom_pkg::TRI_W +: geom_pkg::TRI_W]),
      .rd_req_valid_o(rd_req_valid[s]), .rd_req_ready_i(rd_req_ready[s]),
      .rd_req_o(rd_req[s*geom_pkg::RD_REQ_W +: geom_pkg::RD_REQ_W]),
      .rd_rsp_valid_i(rd_rsp_valid[s]), .rd_rsp_i(rd_rsp[s*geom_pkg::STRI_W +: geom_pkg::STRI_W]),
      .cmd_valid_i(bc_valid[s] && kq_wready[s]), .cmd_ready_o(vp_cmd_ready[s]), .cmd_i(side_rin),
      .out_valid_o(in_valid), .out_ready_i(in_ready), .out_o(rin));

    logic                     r_req_valid, r_req_ready, r_rsp_valid, r_rsp_ready, r_done_raw;

    raster_slice #(.BATCH_PRIMS(BATCH_PRIMS), .SLICE_NUM(NS), .SLICE_INDEX(s)) u_raster (
      .clk_i, .rst_ni,
      .in_valid_i(in_valid), .in_ready_o(in_ready), .in_i(rin),
      .done_o(r_done_raw), .busy_o(r_busy[s]),
      .mem_req_valid_o(r_req_valid), .mem_req_ready_i(r_req_ready), .mem_req_o(req),
      .mem_rsp_valid_i(r_rsp_valid), .mem_rsp_ready_o(r_rsp_ready), .mem_rsp_i(rsp),
      // binning bitstream seam: the tile prefetcher plugs in here (docs/raster.md)
      .bs_valid_o(bs_valid), .bs_ready_i(1'b1), .bs_tx_o(bs_tx), .bs_ty_o(bs_ty),
      .bs_mask_o(bs_mask), .bs_count_o(bs_count), .bs_first_o(bs_first),
      .cnt_tris_o    (stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_TRIS_LSB +: 32]),
      .cnt_bins_o    (stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_BINS_RENDERED_LSB +: 32]),
      .cnt_binprims_o(stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_BIN_PRIMS_LSB +: 32]),
      .cnt_quads_o   (stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_QUADS_LSB +: 32]),
      .cnt_frags_o   (stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_FRAGS_LSB +: 32]),
      .cnt_pass_o    (stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_FRAGS_PASSED_LSB +: 32]),
      .cnt_rd_o      (stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_LINE_READS_LSB +: 32]),
      .cnt_wr_o      (stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_LINE_WRITES_LSB +: 32]),
      .cnt_tex_hit_o (stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_TEX_HITS_LSB +: 32]),
      .cnt_tex_miss_o(stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_TEX_MISSES_LSB +: 32]),
      .cnt_lrz_blocks_o(stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_LRZ_REJECTED_BLOCKS_LSB +: 32]),
      .cnt_lrz_quads_o(stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_LRZ_REJECTED_QUADS_LSB +: 32]),
      .cnt_hidden_o  (stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_QUADS_HIDDEN_LSB +: 32]),
      .cnt_gmem_rd_o (stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_GMEM_READS_LSB +: 32]),
      .cnt_gmem_wr_o (stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_GMEM_WRITES_LSB +: 32]),
      .cyc_idle_o    (stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_IDLE_CYCLES_LSB +: 32]),
      .cyc_input_wait_o(stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_INPUT_WAIT_CYCLES_LSB +: 32]),
      .cyc_memory_wait_o(stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_MEMORY_WAIT_CYCLES_LSB +: 32]),
      .cyc_texel_wait_o(stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_TEXEL_WAIT_CYCLES_LSB +: 32]),
      .cyc_load_wait_o(stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_LOAD_WAIT_CYCLES_LSB +: 32]),
      .cyc_clear_o   (stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_CLEAR_CYCLES_LSB +: 32]),
      .cyc_load_o    (stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_LOAD_CYCLES_LSB +: 32]),
      .cyc_setup_o   (stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_SETUP_CYCLES_LSB +: 32]),
      .cyc_raster_o  (stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_RASTER_CYCLES_LSB +: 32]),
      .cyc_store_o   (stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_STORE_CYCLES_LSB +: 32]),
      .act_o         (r_act),
      .mon_rp_begin_o(r_mon_rp_begin), .mon_in_bin_o(r_mon_in_bin));

    // the slice monitor (spec/layouts.yaml slice_monitor)
    tessera_spec_pkg::ts_slice_monitor_t mon;
    always_comb begin
      mon                  = '0;
      mon.act              = r_act;
      mon.rp_begin         = r_mon_rp_begin;
      mon.in_bin           = r_mon_in_bin;
      mon.bin_start        = bs_valid;
      mon.bin_tx           = bs_tx;
      mon.bin_ty           = bs_ty;
      mon.bin_prims        = bs_count;
      mon.sb_issue         = g_mon_sb[s];
      mon.sb_prims         = g_mon_sb_prims;
      mon.geom_outstanding = g_mon_outstanding[s*16 +: 16];
    end
    assign mon_o[s*MonW +: MonW] = mon;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        busy_cyc_q <= '0;
        tri_cnt_q  <= '0;
      end else begin
        if (r_work)                         busy_cyc_q <= busy_cyc_q + 32'd1;
        if (tri_valid[s] && tri_ready[s])   tri_cnt_q  <= tri_cnt_q + 32'd1;
      end
    end
    assign stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_BUSY_CYCLES_LSB +: 32] = busy_cyc_q;
    assign stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_GEOM_TRIS_LSB +: 32] = tri_cnt_q;

    // ---- CCHE: port 0 the geometry slice's vertex fetch, port 1 the raster slice. Slice 0's
    // port 0 also carries two-level binning's client (bitmap reads, visibility writes; tag bit
    // 6, which the vertex fetch never sets): its lines are written back with the raster
    // slice's at RENDERPASS_END, and PC_US's bitmap reads see the writer's lines here. (Not a
    // third port: a 3-port response bus is 50 words, which an assertion on a client's tag
    // samples whole, and Verilator 5.006 cannot build that; docs/lint-and-synthesis.md.) ------
    logic [2*ReqW-1:0] c_req;
    logic [2*RspW-1:0] c_rsp;
    logic [1:0]        c_req_valid, c_req_ready, c_rsp_valid, c_rsp_ready;
    logic              maint_req_q, maint_inv_q, maint_done;
    tessera_mem_pkg::mem_req_t d_req;
    tessera_mem_pkg::mem_rsp_t d_rsp;
    logic              g_req_valid, g_req_ready, g_rsp_valid, g_rsp_ready;
    logic [ReqW-1:0]   g_req;
    assign c_req_valid = {r_req_valid, g_req_valid};
    assign c_req       = {req, g_req};
    assign {r_req_ready, g_req_ready} = c_req_ready;
    assign c_rsp_ready = {r_rsp_ready, g_rsp_ready};
    assign {r_rsp_valid, g_rsp_valid} = c_rsp_valid;
    assign rsp = c_rsp[RspW +: RspW];
    assign gm_rsp[s*RspW +: RspW] = c_rsp[0 +: RspW];
    if (s == 0) begin : gen_vis_merge
      // the visibility client first (a few lines per pass), held while not accepted
      logic vsel, vsel_q, vlock_q;
      logic p0_vis;   // the port-0 response is the visibility client's
      assign p0_vis      = c_rsp[tessera_mem_pkg::MEM_RSP_TAG_LSB + 6];
      assign vsel        = vlock_q ? vsel_q : gv_req_valid;
      assign g_req_valid = vsel ? gv_req_valid : gm_req_valid[s];
      assign g_req       = vsel ? gv_req : gm_req[s*ReqW +: ReqW];
      assign gv_req_ready      = vsel && g_req_ready;
      assign gm_req_ready[s]   = !vsel && g_req_ready;
      assign gv_rsp_valid      = g_rsp_valid && p0_vis;
      assign gm_rsp_valid[s]   = g_rsp_valid && !p0_vis;
      assign g_rsp_ready       = p0_vis ? gv_rsp_ready : gm_rsp_ready[s];
      assign gv_rsp            = c_rsp[0 +: RspW];
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          vsel_q  <= 1'b0;
          vlock_q <= 1'b0;
        end else begin
          vsel_q  <= vsel;
          vlock_q <= g_req_valid && !g_req_ready;
        end
      end
      // the vertex fetch never uses tag bit 6
      `ASSERT(VfdTagBit6Clear_A, gm_req_valid[s] |-> !gm_req[s*ReqW + tessera_mem_pkg::MEM_REQ_TAG_LSB + 6])
    end else begin : gen_no_vis
      assign g_req_valid     = gm_req_valid[s];
      assign g_req           = gm_req[s*ReqW +: ReqW];
      assign gm_req_ready[s] = g_req_ready;
      assign gm_rsp_valid[s] = g_rsp_valid;
      assign g_rsp_ready     = gm_rsp_ready[s];
    end
    assign mem_req_o[s*ReqW +: ReqW] = d_req;
    assign d_rsp = mem_rsp_i[s*RspW +: RspW];

    ccche #(.NUM_PORTS(2), .LINES(CCHE_LINES), .WAYS(CCHE_WAYS)) u_ccche (
      .clk_i, .rst_ni,
      .cl_req_valid_i(c_req_valid), .cl_req_ready_o(c_req_ready), .cl_req_i(c_req),
      .cl_rsp_valid_o(c_rsp_valid), .cl_rsp_ready_i(c_rsp_ready), .cl_rsp_o(c_rsp),
      .mem_req_valid_o(mem_req_valid_o[s]), .mem_req_ready_i(mem_req_ready_i[s]), .mem_req_o(d_req),
      .mem_rsp_valid_i(mem_rsp_valid_i[s]), .mem_rsp_ready_o(mem_rsp_ready_o[s]), .mem_rsp_i(d_rsp),
      .maint_req_i(maint_req_q), .maint_inv_i(maint_inv_q), .maint_done_o(maint_done),
      .cnt_hits_o      (stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_CCHE_HITS_LSB +: 32]),
      .cnt_misses_o    (stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_CCHE_MISSES_LSB +: 32]),
      .cnt_writebacks_o(stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_CCHE_WRITEBACKS_LSB +: 32]),
      .cnt_fills_o     (stat_o[s*StatW + tessera_spec_pkg::TS_SLICE_STATS_CCHE_FILLS_LSB +: 32]),
      .busy_o          (cche_busy_o[s]));

    // ---- completion of the slice's commands: after the CCHE maintenance they need --------
    // One entry per command delivered to the slice: {needs maintenance, invalidate}.
    logic [1:0] kq_wdata, kq_rdata;
    logic       kq_rvalid, kq_rready, unused_kq_full, unused_kq_empty;
    logic [3:0] unused_kq_depth;
    logic [3:0] pend_q;              // raster completions not yet processed
    always_comb begin
      unique case (side_rin.kind)
        tessera_raster_pkg::RIN_RP_END, tessera_raster_pkg::RIN_INVALIDATE: kq_wdata = 2'b11;
        tessera_raster_pkg::RIN_FLUSH:                                       kq_wdata = 2'b10;
        default:                                                             kq_wdata = 2'b00;
      endcase
    end
    prim_fifo_sync #(.WIDTH(2), .DEPTH(8), .FALL_THROUGH(0)) u_kq (
      .clk_i, .rst_ni, .clr_i(1'b0),
      .wvalid_i(bc_valid[s] && bc_ready[s]), .wready_o(kq_wready[s]), .wdata_i(kq_wdata),
      .rvalid_o(kq_rvalid), .rready_i(kq_rready), .rdata_o(kq_rdata),
      .full_o(unused_kq_full), .empty_o(unused_kq_empty), .depth_o(unused_kq_depth));

    assign kq_rready = kq_rvalid && pend_q != '0 && !maint_req_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        pend_q      <= '0;
        maint_req_q <= 1'b0;
        maint_inv_q <= 1'b0;
      end else begin
        pend_q <= pend_q + 4'(r_done_raw) - 4'(kq_rready);
        if (kq_rready && kq_rdata[1]) begin
          maint_req_q <= 1'b1;
          maint_inv_q <= kq_rdata[0];
        end else if (maint_done) begin
          maint_req_q <= 1'b0;
        end
      end
    end
    // the slice's command is complete: directly, or when its maintenance is
    assign r_done[s] = (kq_rready && !kq_rdata[1]) || maint_done;

    // what the tile prefetcher sees: the bin events and the READs the raster port accepts
    assign pf_bs_valid[s]          = bs_valid;
    assign pf_bs_tx[s*7 +: 7]      = bs_tx;
    assign pf_bs_ty[s*7 +: 7]      = bs_ty;
    assign pf_bs_count[s*8 +: 8]   = bs_count;
    assign pf_bs_first[s]          = bs_first;
    assign pf_rd_valid[s]          = r_req_valid && r_req_ready && req.op == tessera_mem_pkg::MEM_OP_READ;
    assign pf_rd_addr[s*32 +: 32]  = req.addr;
    assign pf_rd_tag[s*8 +: 8]     = req.tag;

    logic unused_bs;
    assign unused_bs = ^{bs_mask};
  end

  // ============================================================================================
  // The tile prefetcher (rtl/prefetch/pf_top.sv, docs/prefetcher.md): memory client NS
  // ============================================================================================
  // Its commands, in command order from the side output: SET_PREFETCH and FRAME_END when the
  // side output drops them (pf_hold above), RENDERPASS_BEGIN and RASTER.BIN writes when the first
  // slice takes them (before any slice can send a bin event of what follows).
  logic       pf_set, pf_fe, pf_rpb, pf_bin_we, bc_first;
  logic [NS-1:0] unused_pf_drop;   // counted in PF_EVENTS_DROPPED
  assign bc_first  = side_valid && side_to_raster && sent_q == '0 && (|(bc_valid & bc_ready));
  assign pf_set    = side_valid && side_ready && side_is_pf;
  assign pf_fe     = side_valid && side_ready && side_is_fe;
  assign pf_rpb    = bc_first && side_rin.kind == tessera_raster_pkg::RIN_RP_BEGIN;
  assign pf_bin_we = bc_first && side_rin.kind == tessera_raster_pkg::RIN_SET_REG &&
                     side_rin.data[31:0] == tessera_spec_pkg::TS_RASTER_BIN_OFFSET;

  pf_top #(.NUM_SLICES(NS), .MEM_BYTES(MEM_BYTES)) u_pf (
    .clk_i, .rst_ni,
    .cfg_threshold_i(pf_cfg.threshold), .cfg_max_lines_i(pf_cfg.max_lines),
    .cfg_entries_i(pf_cfg.entries), .cfg_kinds_i(pf_cfg.kinds), .cfg_window_i(pf_cfg.window), .cfg_slots_i(pf_cfg.slots),
    .cfg_lookahead_i(pf_cfg.lookahead), .cfg_blocks_i(pf_cfg.blocks),
    .cfg_hit_high_i(pf_cfg.hit_high), .cfg_hit_low_i(pf_cfg.hit_low),
    .set_i(pf_set), .set_ready_o(pf_set_ready), .drain_i(pf_drain), .drained_o(pf_drained),
    .set_mode_i(side_cmd.args[tessera_spec_pkg::TS_PKT_SET_PREFETCH_MODE_DW*32 +
                              tessera_spec_pkg::TS_PKT_SET_PREFETCH_MODE_LSB +: 2]),
    .set_addr_i(side_cmd.args[tessera_spec_pkg::TS_PKT_SET_PREFETCH_ADDR_DW*32 +: 32]),
    .set_size_i(side_cmd.args[tessera_spec_pkg::TS_PKT_SET_PREFETCH_SIZE_DW*32 +: 32]),
    .pass_begin_i(pf_rpb),
    .pass_width_i(side_rin.data[tessera_spec_pkg::TS_PKT_RENDERPASS_BEGIN_WIDTH_DW*32 +
                                tessera_spec_pkg::TS_PKT_RENDERPASS_BEGIN_WIDTH_LSB +: 12]),
    .pass_height_i(side_rin.data[tessera_spec_pkg::TS_PKT_RENDERPASS_BEGIN_HEIGHT_DW*32 +
                                 tessera_spec_pkg::TS_PKT_RENDERPASS_BEGIN_HEIGHT_LSB +: 12]),
    .bin_size_we_i(pf_bin_we),
    .bin_size_i(side_rin.data[32 + tessera_spec_pkg::TS_RASTER_BIN_SIZE_LSB +: 2]),
    .frame_end_i(pf_fe),
    .slc_hits_i, .slc_misses_i,
    .bs_valid_i(pf_bs_valid), .bs_tx_i(pf_bs_tx), .bs_ty_i(pf_bs_ty), .bs_count_i(pf_bs_count),
    .bs_first_i(pf_bs_first),
    .rd_valid_i(pf_rd_valid), .rd_addr_i(pf_rd_addr), .rd_tag_i(pf_rd_tag),
    .mem_req_valid_o(mem_req_valid_o[NS]), .mem_req_ready_i(mem_req_ready_i[NS]),
    .mem_req_o(mem_req_o[NS*ReqW +: ReqW]),
    .mem_rsp_valid_i(mem_rsp_valid_i[NS]), .mem_rsp_ready_o(mem_rsp_ready_o[NS]),
    .mem_rsp_i(mem_rsp_i[NS*RspW +: RspW]),
    .threshold_o(pf_stat.threshold), .mode_o(pf_stat.mode), .epoch_o(pf_stat.epoch),
    .cnt_similar_o(pf_stat.similar), .cnt_dissimilar_o(pf_stat.dissimilar),
    .cnt_no_history_o(pf_stat.no_history), .cnt_requested_o(pf_stat.requested),
    .cnt_dropped_o(pf_stat.dropped), .cnt_untracked_o(pf_stat.untracked),
    .cnt_no_room_o(pf_stat.no_room), .ev_drop_o(unused_pf_drop), .busy_o(pf_busy));

  assign busy_o = trk_rvalid || (|r_busy) || pf_busy;

  logic unused;
  assign unused = ^{cache_flush_i, unused_in_rin};

  `ASSERT_INIT(Params_A, NUM_SLICES >= 1 && NUM_SLICES <= 8 && TRK_DEPTH >= 2 && TRK_DEPTH < 128)
  // Completions never run ahead of the commands they complete.
  `ASSERT(GeomDoneHasCommand_A, geom_done |-> trk_rvalid || g_fire)
  `ASSERT(NoCreditOverflow_A, g_cred_q != '1)
  for (genvar s = 0; s < NS; s++) begin : gen_kq_chk
    // every raster completion has its command's entry
    `ASSERT(RasterDoneHasEntry_A, gen_slice[s].pend_q != '0 |-> gen_slice[s].kq_rvalid)
    `ASSERT(MaintDoneOnlyWhenAsked_A, gen_slice[s].maint_done |-> gen_slice[s].maint_req_q)
  end
  for (genvar s = 0; s < NS; s++) begin : gen_outst_chk
    `ASSERT(OutstandingNoWrap_A, outst_q[s*4 +: 4] != 4'hf)
    `ASSERT(DoneHasOutstanding_A, r_done[s] |-> outst_q[s*4 +: 4] != '0)
  end
  // A slice never completes a command nobody sent it.
  `ASSERT(RasterDoneHasCommand_A, |r_done |-> trk_rvalid)
  // The CP asks for maintenance only with a flush or an invalidate to do.
  `ASSERT(CacheReqHasOp_A, cache_req_i |-> cache_flush_i || cache_invalidate_i)

endmodule
