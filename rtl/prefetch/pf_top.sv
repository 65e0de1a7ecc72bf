// pf_top -- the tile prefetcher (issue 19; docs/prefetcher.md is the manual).
//
// Source: 004_c4de9378d94a44ec.txt (Samsung, tile-based rendering with prefetch): a bin
// correlator compares each tile's binning bitstream popcount with the same tile's in the
// previous frame (similar when the difference is at most a threshold, raised when the cache hit
// rate is high and lowered when it is low); when a similar tile is about to render, the data
// the tile read in the previous frame is prefetched by tile ID; while a tile renders, history
// registers keep the first and last address of its reads (figures 6, 7). ARCHITECTURE.md 5.7.
//
// Here, one unsliced unit for every raster slice:
//  - Per slice, the bin events {tile, popcount} (the bs_* seam, given just before a bin's
//    memory traffic) and the READs the raster slice's port accepts, both registered once, feed
//    an address tracker (pf_tracker): a bin event ends the tile the slice was on and starts the
//    next, so the reads between two events are one tile-batch's (a read in the event's cycle
//    is the new tile's).
//  - A bin event queues a job for the slice (QDEPTH per slice; when full the event is dropped
//    and counted, never waited for: the prefetcher never delays a slice). The job carries the
//    tracker's ranges of the batch that ended and the frame state of the moment.
//  - One engine serves the slices' queues in round robin, a job at a time:
//      1. the tile left: its ranges are merged into the tile's line (held per slice since the
//         tile was entered) and the line is written to the history buffer;
//      2. the tile entered: its line is read. A line of this epoch and target means the tile
//         was already rendered this frame: it is kept, to merge into. Otherwise this is the
//         tile's first batch of the frame: a fresh line is started with the batch's popcount,
//         and if the line read is the previous frame's (epoch - 1, same target and bin size)
//         the correlator compares the popcounts; a similar tile's recorded ranges become
//         PREFETCH requests, at most PF_CFG.max_lines, of the kinds PF_CFG.kinds allows.
//  - The history buffer (SET_PREFETCH) holds S = 4^PF_CFG.slots lines per tile of a frame's
//    render passes (tiles numbered in pass order): with S = 1 the tile's one line collects the
//    whole frame and is prefetched at its first batch, as the source's frame-wide bitstream;
//    with S > 1 the raster slice's batches are numbered in the frame (bs_first_i) and batch b
//    uses line tile x S + b mod S, so a batch is compared with, and prefetches, what the same
//    batch of the tile read last frame, just before it renders (the line records b: a line of
//    another batch is not the previous frame's). The line's epoch replaces the source's two
//    swapped buffers:
//    FRAME_END increments the epoch, so this frame's lines become the previous frame's.
//    Lines are read and written through the prefetcher's own memory client (to the SLC).
//  - Lookahead (PF_CFG.lookahead; beyond the source, docs/prefetcher.md "Lookahead"): a line
//    written when the slice leaves a batch names the line it enters next (`next`). Next frame a
//    similar batch's line read gives that successor; after the batch's own prefetches the engine
//    reads the successor's line and, if it is the previous frame's, prefetches its ranges a bin
//    early. The successor's own event, in that epoch, then issues nothing again.
//  - Block record (GEOM.PF_RECORD BLOCKS; beyond the source, docs/prefetcher.md "Block
//    record"): the line's eight entries hold the batch's texel reads as aligned 32-line blocks
//    with a bitmap each (pf_tracker), merged block by block, and prefetched line by line.
//  - ADAPTIVE mode: at FRAME_END the frame's SLC hit rate (hits / (hits + misses), from the
//    SLC's running counters) moves the threshold up by one above PF_ADAPT.hit_high percent and
//    down by one below hit_low, within 0..255.
//
// Commands arrive in command order from pipe_top: SET_PREFETCH (set_i, taken only when
// set_ready_o: nothing of an earlier history is in flight), RENDERPASS_BEGIN (pass_begin_i:
// the pass's target size, taken only when drained_o), RASTER.BIN writes (bin_size_we_i) and
// FRAME_END (frame_end_i, once every slice has finished the frame). A bin event never arrives
// in the cycle of a command.
//
// Draining (drain_i: a RENDERPASS_BEGIN or SET_PREFETCH waits, and every slice is idle): each
// slice's open tile is closed by a job that only merges and writes its line, and the engine
// runs every queued job; drained_o then holds. Why a pass starts only drained: tile numbers
// map to other slices when the target or bin size changes, so a job left over from the last
// pass could write a line that another slice has already started in this pass, and the newer
// line would be lost. Drained, the slices' jobs never touch one line across passes (within a
// pass every tile belongs to one slice), and the order in which the engine serves the slices
// cannot change the history.

`include "prim_assert.svh"

module pf_top #(
  parameter int unsigned NUM_SLICES = 2,
  parameter int unsigned QDEPTH     = 2,              // bin events queued per slice
  parameter logic [31:0] MEM_BYTES  = 32'h0100_0000,  // PREFETCH only below this
  // Derived (do not override)
  localparam int unsigned NS    = NUM_SLICES,
  localparam int unsigned SW    = (NS > 1) ? $clog2(NS) : 1,
  localparam int unsigned KINDS = pf_pkg::KINDS,
  localparam int unsigned K_MAX = pf_pkg::K_MAX,
  localparam int unsigned LAW   = pf_pkg::LINE_AW,
  localparam int unsigned EntW  = pf_pkg::ENT_W,
  localparam int unsigned RngW  = pf_pkg::RNG_W,
  localparam int unsigned IdxW  = pf_pkg::IDX_W,
  localparam int unsigned JobW  = pf_pkg::JOB_W
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  // tuning (GEOM.PF_CFG, PF_ADAPT)
  input  logic [7:0]                  cfg_threshold_i,
  input  logic [7:0]                  cfg_max_lines_i,   // 0 acts as 256
  input  logic [2:0]                  cfg_entries_i,
  input  logic [1:0]                  cfg_kinds_i,
  input  logic [1:0]                  cfg_slots_i,       // 4^slots history lines per tile
  input  logic                        cfg_lookahead_i,   // prefetch one bin ahead
  input  logic                        cfg_blocks_i,      // GEOM.PF_RECORD: the block record
  input  logic [7:0]                  cfg_window_i,      // lines
  input  logic [6:0]                  cfg_hit_high_i,
  input  logic [6:0]                  cfg_hit_low_i,
  // commands, in command order
  input  logic                        set_i,
  output logic                        set_ready_o,
  input  logic                        drain_i,
  output logic                        drained_o,
  input  logic [1:0]                  set_mode_i,
  input  logic [31:0]                 set_addr_i,
  input  logic [31:0]                 set_size_i,
  input  logic                        pass_begin_i,
  input  logic [11:0]                 pass_width_i,
  input  logic [11:0]                 pass_height_i,
  input  logic                        bin_size_we_i,
  input  logic [1:0]                  bin_size_i,
  input  logic                        frame_end_i,
  // the SLC's running counters (CNT_HITS, CNT_MISSES)
  input  logic [31:0]                 slc_hits_i,
  input  logic [31:0]                 slc_misses_i,
  // per slice: bin events and the READs its raster port accepts
  input  logic [NS-1:0]               bs_valid_i,
  input  logic [NS*7-1:0]             bs_tx_i,
  input  logic [NS*7-1:0]             bs_ty_i,
  input  logic [NS*8-1:0]             bs_count_i,
  input  logic [NS-1:0]               bs_first_i,        // the event is its batch's first
  input  logic [NS-1:0]               rd_valid_i,
  input  logic [NS*32-1:0]            rd_addr_i,
  input  logic [NS*8-1:0]             rd_tag_i,
  // memory client
  output logic                        mem_req_valid_o,
  input  logic                        mem_req_ready_i,
  output tessera_mem_pkg::mem_req_t   mem_req_o,
  input  logic                        mem_rsp_valid_i,
  output logic                        mem_rsp_ready_o,
  input  tessera_mem_pkg::mem_rsp_t   mem_rsp_i,
  // status (GEOM.PF_STATUS) and counters (GEOM.PF_*; 32 bits, wrapping)
  output logic [7:0]                  threshold_o,
  output logic [1:0]                  mode_o,
  output logic [15:0]                 epoch_o,
  output logic [31:0]                 cnt_similar_o,
  output logic [31:0]                 cnt_dissimilar_o,
  output logic [31:0]                 cnt_no_history_o,
  output logic [31:0]                 cnt_requested_o,
  output logic [31:0]                 cnt_dropped_o,
  output logic [31:0]                 cnt_untracked_o,
  output logic [31:0]                 cnt_no_room_o,
  output logic [NS-1:0]               ev_drop_o,         // a slice's bin event is dropped now
  output logic                        busy_o
);

  // ============================================================================================
  // Frame state, in command order
  // ============================================================================================
  logic [1:0]      mode_q;
  logic [31:0]     base_q;               // history buffer address
  logic [IdxW-1:0] lines_q;              // ... and its size in lines
  logic [15:0]     epoch_q;
  logic [7:0]      thr_q;                // ADAPTIVE mode's threshold
  logic [1:0]      bin_q;                // RASTER.BIN.size
  logic [11:0]     pw_q, ph_q;           // the pass's target
  logic [7:0]      tx_n_q, ty_n_q;       // ... in tiles
  logic            pass_open_q;
  logic [IdxW-1:0] pass_base_q;          // first tile number of the pass
  logic [31:0]     hits_q, misses_q;     // SLC counters at the last FRAME_END or SET_PREFETCH
  logic            adapt_q;              // FRAME_END seen: adapt the threshold this cycle
  logic [32:0]     dh_q, dt_q;           // ... from these hits and requests
  logic            active;
  // PF_CFG, latched at RENDERPASS_BEGIN and SET_PREFETCH (slices idle): a pass tracks, merges
  // and prefetches with one configuration, whenever the engine gets to its jobs
  logic [7:0]      c_thr_q, c_win_q;
  logic [2:0]      c_ent_q;
  logic [1:0]      c_kinds_q;
  logic [1:0]      c_slots_q;
  logic [8:0]      c_max_q;
  logic            c_la_q;
  logic            c_blk_q;

  assign active = mode_q != tessera_spec_pkg::TS_PF_MODE_OFF;

  // tiles across a target: ceil(width / bin), bin = 16 << bin_size
  function automatic logic [7:0] tiles(input logic [11:0] px, input logic [1:0] bsz);
    logic [12:0] r;
    r = 13'(px) + ((13'd16 << bsz) - 13'd1);
    tiles = 8'(r >> (4 + 32'(bsz)));
  endfunction

  logic [15:0] pass_tiles;
  assign pass_tiles = 16'(tx_n_q) * 16'(ty_n_q);

  // the threshold decision, a cycle after FRAME_END (the products are registered inputs)
  logic [39:0] hit_scaled, hi_scaled, lo_scaled;
  logic        go_up, go_down;
  assign hit_scaled = 40'(dh_q) * 40'd100;
  assign hi_scaled  = 40'(dt_q) * 40'(cfg_hit_high_i);
  assign lo_scaled  = 40'(dt_q) * 40'(cfg_hit_low_i);
  assign go_up   = dt_q != '0 && hit_scaled > hi_scaled && thr_q != 8'hff;
  assign go_down = dt_q != '0 && hit_scaled < lo_scaled && thr_q != 8'h00;

  logic [7:0] thr_now;                   // the threshold a bin event takes
  assign thr_now = (mode_q == tessera_spec_pkg::TS_PF_MODE_ADAPTIVE) ? thr_q : c_thr_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mode_q      <= tessera_spec_pkg::TS_PF_MODE_OFF;
      base_q      <= '0;
      lines_q     <= '0;
      epoch_q     <= 16'd1;
      thr_q       <= '0;
      bin_q       <= 2'd1;
      pw_q        <= '0;
      ph_q        <= '0;
      tx_n_q      <= '0;
      ty_n_q      <= '0;
      pass_open_q <= 1'b0;
      pass_base_q <= '0;
      hits_q      <= '0;
      misses_q    <= '0;
      adapt_q     <= 1'b0;
      dh_q        <= '0;
      dt_q        <= '0;
      c_thr_q     <= '0;
      c_win_q     <= '0;
      c_ent_q     <= 3'd1;
      c_kinds_q   <= '0;
      c_slots_q   <= '0;
      c_max_q     <= 9'd1;
      c_la_q      <= 1'b0;
      c_blk_q     <= 1'b0;
    end else begin
      if (set_i || pass_begin_i) begin
        c_thr_q   <= cfg_threshold_i;
        c_win_q   <= cfg_window_i;
        c_ent_q   <= (cfg_entries_i == '0) ? 3'd1 : ((cfg_entries_i > 3'(K_MAX)) ? 3'(K_MAX) : cfg_entries_i);
        c_kinds_q <= cfg_kinds_i;
        c_slots_q <= cfg_slots_i;
        c_max_q   <= (cfg_max_lines_i == '0) ? 9'd256 : 9'(cfg_max_lines_i);
        c_la_q    <= cfg_lookahead_i;
        c_blk_q   <= cfg_blocks_i;
      end
      adapt_q <= frame_end_i && mode_q == tessera_spec_pkg::TS_PF_MODE_ADAPTIVE;
      if (frame_end_i) begin
        dh_q <= 33'(slc_hits_i - hits_q);
        dt_q <= 33'(slc_hits_i - hits_q) + 33'(slc_misses_i - misses_q);
      end
      if (set_i) begin
        mode_q      <= set_mode_i;
        base_q      <= set_addr_i;
        lines_q     <= (set_size_i[31:6] > 26'(2**IdxW - 1)) ? '1 : IdxW'(set_size_i[31:6]);
        epoch_q     <= epoch_q + 16'd2;   // every earlier line is older than the previous frame's
        thr_q       <= cfg_threshold_i;
        pass_open_q <= 1'b0;
        pass_base_q <= '0;
        hits_q      <= slc_hits_i;
        misses_q    <= slc_misses_i;
      end else if (frame_end_i) begin
        epoch_q     <= epoch_q + 16'd1;
        pass_open_q <= 1'b0;
        pass_base_q <= '0;
        hits_q      <= slc_hits_i;
        misses_q    <= slc_misses_i;
      end else if (pass_begin_i) begin
        pass_open_q <= 1'b1;
        pass_base_q <= pass_open_q ? pass_base_q + IdxW'(pass_tiles) : pass_base_q;
        pw_q        <= pass_width_i;
        ph_q        <= pass_height_i;
        tx_n_q      <= tiles(pass_width_i, bin_q);
        ty_n_q      <= tiles(pass_height_i, bin_q);
      end
      if (bin_size_we_i) bin_q <= bin_size_i;
      if (adapt_q && !set_i && go_up)   thr_q <= thr_q + 8'd1;
      if (adapt_q && !set_i && go_down) thr_q <= thr_q - 8'd1;
    end
  end

  // ============================================================================================
  // Per slice: registered snoop, tracker, job queue
  // ============================================================================================
  logic [NS-1:0]        q_wvalid, q_wready, q_rvalid, q_rready;
  logic [NS*JobW-1:0] q_wdata, q_rdata;
  logic [NS-1:0]        trk_untracked, no_room, bs_pend, open;
  logic [3:0]           n_untracked_slices;

  for (genvar s = 0; s < NS; s++) begin : gen_slice
    // registered inputs
    logic            rd_q, bs_q, first_q;
    logic            rd_kind_q;          // 0 texture (FS tag 0x80), 1 target (tile engine)
    logic [LAW-1:0]  rd_line_q;
    logic [6:0]      tx_q, ty_q;
    logic [7:0]      cnt_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        rd_q      <= 1'b0;
        bs_q      <= 1'b0;
        first_q   <= 1'b0;
        rd_kind_q <= 1'b0;
        rd_line_q <= '0;
        tx_q      <= '0;
        ty_q      <= '0;
        cnt_q     <= '0;
      end else begin
        rd_q      <= rd_valid_i[s] && active;
        bs_q      <= bs_valid_i[s] && active;
        first_q   <= bs_first_i[s];
        rd_kind_q <= !rd_tag_i[s*8 + 7];
        rd_line_q <= rd_addr_i[s*32 + 6 +: LAW];
        tx_q      <= bs_tx_i[s*7 +: 7];
        ty_q      <= bs_ty_i[s*7 +: 7];
        cnt_q     <= bs_count_i[s*8 +: 8];
      end
    end

    // the tile the slice is on (its line is the engine's line_q for this slice), and the job
    // that closes it when draining (below)
    logic            open_q;
    logic [IdxW-1:0] open_idx_q;
    logic            close;

    // the slice's tracker: a bin event (or closing the tile) starts the new tile empty, and so
    // does a new configuration (the record format may change; the slices are idle)
    logic [RngW-1:0] ranges;
    pf_tracker #(.KINDS(KINDS), .K_MAX(K_MAX), .LINE_AW(LAW)) u_trk (
      .clk_i, .rst_ni,
      .k_i(c_ent_q), .window_i(16'(c_win_q)), .blocks_i(c_blk_q),
      .load_i(bs_q || close || set_i || pass_begin_i), .load_ranges_i({RngW{1'b0}}),
      .rd_valid_i(rd_q), .rd_kind_i(rd_kind_q), .rd_line_i(rd_line_q),
      .ranges_o(ranges), .ev_untracked_o(trk_untracked[s]));

    // the slice's batch number within the frame: the event's (bn), and the last event's (bn_q;
    // all ones before the frame's first batch, so that batch is 0)
    logic [7:0]      bn_q, bn;
    assign bn = first_q ? bn_q + 8'd1 : bn_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        bn_q <= 8'hff;
      end else if (set_i || frame_end_i) begin
        bn_q <= 8'hff;
      end else if (bs_q) begin
        bn_q <= bn;
      end
    end

    // the tile entered: its number within the frame, its line (tile x S + batch mod S, S =
    // 4^slots lines per tile), the batch number the line records (0 with one line per tile),
    // and whether the buffer holds the line
    logic [IdxW-1:0] t_tile, t_idx, t_rel, p_lines;
    logic [31:0]     t_line;
    logic [7:0]      t_bat;
    logic            t_in;
    assign t_tile = pass_base_q + IdxW'(16'(ty_q) * 16'(tx_n_q)) + IdxW'(tx_q);
    assign t_line = (32'(t_tile) << {c_slots_q, 1'b0}) |
                    (32'(bn) & ((32'd1 << {c_slots_q, 1'b0}) - 32'd1));
    assign t_idx  = IdxW'(t_line);
    // the line counted from the pass's first, and the pass's lines: the lookahead's pointer is
    // relative to the pass, so it names a tile of this pass, which this slice owns (below)
    assign t_rel   = IdxW'(t_line - (32'(pass_base_q) << {c_slots_q, 1'b0}));
    assign p_lines = IdxW'(32'(pass_tiles) << {c_slots_q, 1'b0});
    assign t_bat  = (c_slots_q == '0) ? 8'd0 : bn;
    assign t_in   = pass_open_q && 8'(tx_q) < tx_n_q && 8'(ty_q) < ty_n_q &&
                    t_line < 32'(lines_q);

    // draining: the open tile is closed by a job without a tile entered, when the queue has room
    // (no bin event comes while draining, so nothing is dropped for it)
    assign close       = drain_i && open_q && !bs_q && q_wready[s];
    assign q_wvalid[s] = (bs_q && (open_q || t_in)) || close;
    // a pf_pkg::job_t, field by field (Yosys 0.23 cannot assign struct members in a generate)
    assign q_wdata[s*JobW +: JobW] = {open_q, open_idx_q, ranges, bs_q && t_in, t_idx, t_rel, p_lines, t_bat, cnt_q, epoch_q,
                                      thr_now, c_win_q, c_ent_q, c_la_q, c_blk_q, c_kinds_q, c_slots_q, c_max_q, pw_q, ph_q,
                                      bin_q};
    assign ev_drop_o[s] = q_wvalid[s] && !q_wready[s];
    assign no_room[s]   = bs_q && !t_in;
    assign bs_pend[s]   = bs_q;
    assign open[s]      = open_q;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        open_q     <= 1'b0;
        open_idx_q <= '0;
      end else if (set_i) begin
        open_q     <= 1'b0;
      end else if (bs_q) begin
        open_q     <= t_in && q_wready[s];
        open_idx_q <= t_idx;
      end else if (close) begin
        open_q     <= 1'b0;
      end
    end

    logic unused_full, unused_empty;
    logic [$clog2(QDEPTH+1)-1:0] unused_depth;
    prim_fifo_sync #(.WIDTH(JobW), .DEPTH(QDEPTH), .FALL_THROUGH(0)) u_q (
      .clk_i, .rst_ni, .clr_i(1'b0),
      .wvalid_i(q_wvalid[s]), .wready_o(q_wready[s]),
      .wdata_i(q_wdata[s*JobW +: JobW]),
      .rvalid_o(q_rvalid[s]), .rready_i(q_rready[s]),
      .rdata_o(q_rdata[s*JobW +: JobW]),
      .full_o(unused_full), .empty_o(unused_empty), .depth_o(unused_depth));

    logic unused_rd_addr;
    assign unused_rd_addr = ^{rd_addr_i[s*32 +: 6], rd_tag_i[s*8 +: 7]};
  end

  always_comb begin
    n_untracked_slices = '0;
    for (int unsigned s = 0; s < NS; s++) n_untracked_slices = n_untracked_slices + 4'(trk_untracked[s]);
  end

  // ============================================================================================
  // Engine: one job at a time
  // ============================================================================================
  typedef enum logic [3:0] {
    E_IDLE, E_MERGE, E_WRITE, E_WACK, E_READ, E_RWAIT, E_ISSUE, E_AREAD, E_AWAIT
  } est_e;

  est_e            est_q, est_d;
  logic [SW-1:0]   sel_q, sel_d, rr_q, rr_d, pick;
  logic            any_job;
  pf_pkg::job_t    job_q, job_d, head;
  logic [511:0]    wl_q, wl_d;           // the line being merged and written (pf_history_line)
  logic [511:0]    wl_merged;            // ... with the current range merged
  logic [RngW-1:0] wl_ranges;
  logic [RngW-1:0] pr_q, pr_d;           // the previous frame's ranges being prefetched
  logic [2:0]      mi_q, mi_d;           // merge step / issue entry
  logic [LAW:0]    cur_q, cur_d;         // next line to prefetch (one bit wider: no wrap)
  logic [8:0]      n_q, n_d;             // PREFETCHes of this tile
  logic [NS*512-1:0] line_q, line_d;     // per slice, the line of the tile it is on
  logic [7:0]      pf_out_q;             // PREFETCH responses outstanding
  // Lookahead (PF_CFG.lookahead; docs/prefetcher.md "Lookahead"): a similar batch's line names
  // the line its slice entered next last frame; that line is read and prefetched right after.
  logic            ah_q, ah_d;           // the walk in E_ISSUE is the lookahead's
  logic [IdxW-1:0] nx_q, nx_d;           // the next line + 1 to look ahead to (0: none)
  // per slice, the line + 1 (0: none) and the epoch of the job that prefetched it ahead: when
  // that line's own batch comes, in that epoch, it is not prefetched again
  logic [NS*IdxW-1:0] ahd_q, ahd_d;
  logic [NS*16-1:0]   ahe_q, ahe_d;
  logic [IdxW-1:0]    rl_next;
  logic [IdxW-1:0]    ah_idx;            // the line the successor names, in this frame's numbering
  logic               done_ahead;        // the job's batch was prefetched a bin ago
  logic            merge_lost;           // a merged range found no entry
  logic            ev_similar, ev_dissimilar, ev_no_history, ev_request;

  // round robin from rr_q
  always_comb begin
    pick    = rr_q;
    any_job = 1'b0;
    for (int unsigned i = 0; i < NS; i++) begin
      if (!any_job && q_rvalid[(32'(rr_q) + i) % NS]) begin
        any_job = 1'b1;
        pick    = SW'((32'(rr_q) + i) % NS);
      end
    end
  end
  assign head = q_rdata[32'(pick)*JobW +: JobW];

  // ---- merge one range of the batch into the line's entries of its kind ----------------------
  logic [EntW-1:0]      m_ent;
  logic                 m_kind;
  logic [LAW-1:0]       m_first, m_last;
  logic [K_MAX-1:0]     m_hit, m_free;
  logic [RngW-1:0]      m_ranges;
  logic                 m_any_hit, m_any_free;
  logic [1:0]           m_hit_idx, m_free_idx;
  logic [K_MAX-1:0]     unused_m_hit_oh, unused_m_free_oh;
  localparam int unsigned RngLsb = tessera_spec_pkg::TS_PF_HISTORY_LINE_RANGES_LSB;
  assign wl_ranges = wl_q[RngLsb +: RngW];
  assign m_ent   = job_q.p_ranges[32'(mi_q) * EntW +: EntW];
  assign m_kind  = mi_q[2];
  assign m_first = m_ent[LAW +: LAW];
  assign m_last  = m_ent[0 +: LAW];
  // one bit wider than a line address: the widened range does not wrap at the ends of memory
  logic [K_MAX*EntW-1:0] m_kent;         // the line's entries of the range's kind
  logic [LAW:0]          m_a, m_b, m_w;
  assign m_kent = wl_ranges[32'(m_kind) * K_MAX * EntW +: K_MAX * EntW];
  assign m_a    = (LAW + 1)'(m_first);
  assign m_b    = (LAW + 1)'(m_last);
  assign m_w    = (LAW + 1)'(job_q.window);
  always_comb begin
    for (int unsigned e = 0; e < K_MAX; e++) begin
      m_hit[e]  = m_kent[e*EntW + EntW - 1] &&
                  m_a <= (LAW + 1)'(m_kent[e*EntW +: LAW]) + m_w &&
                  m_b + m_w >= (LAW + 1)'(m_kent[e*EntW + LAW +: LAW]);
      m_free[e] = !m_kent[e*EntW + EntW - 1] && e < 32'(job_q.entries);
    end
  end
  prim_priority_enc #(.WIDTH(K_MAX)) u_mhit (
    .in_i(m_hit), .onehot_o(unused_m_hit_oh), .idx_o(m_hit_idx), .valid_o(m_any_hit));
  prim_priority_enc #(.WIDTH(K_MAX)) u_mfree (
    .in_i(m_free), .onehot_o(unused_m_free_oh), .idx_o(m_free_idx), .valid_o(m_any_free));
  logic [EntW-1:0] m_h;                  // the entry the range extends
  logic [LAW-1:0]  hf, hl;
  assign m_h = m_kent[32'(m_hit_idx) * EntW +: EntW];
  assign hf  = m_h[LAW +: LAW];
  assign hl  = m_h[0 +: LAW];
  always_comb begin
    m_ranges = wl_ranges;
    if (m_any_hit) begin
      m_ranges[(32'(m_kind) * K_MAX + 32'(m_hit_idx)) * EntW +: EntW] =
          {1'b1, (m_first < hf) ? m_first : hf, (m_last > hl) ? m_last : hl};
    end else if (m_any_free) begin
      m_ranges[(32'(m_kind) * K_MAX + 32'(m_free_idx)) * EntW +: EntW] = {1'b1, m_first, m_last};
    end
  end
  // the block record: the batch's block into the line's entry holding the same block (any of
  // the eight) by OR-ing its bitmap, else into the lowest free one of the first 2 x entries
  localparam int unsigned BlkW = pf_pkg::BLK_W;
  localparam int unsigned NEnt = pf_pkg::N_ENT;
  logic [NEnt-1:0]         mb_hit, mb_free, unused_mb_hit_oh, unused_mb_free_oh;
  logic [$clog2(NEnt)-1:0] mb_hit_idx, mb_free_idx;
  logic                    mb_any_hit, mb_any_free;
  logic [RngW-1:0]         mb_ranges;
  logic                    m_valid;      // the batch's entry mi_q holds something
  always_comb begin
    for (int unsigned i = 0; i < NEnt; i++) begin
      mb_hit[i]  = wl_ranges[i*EntW +: 32] != '0 && wl_ranges[i*EntW + 32 +: BlkW] == m_ent[32 +: BlkW];
      mb_free[i] = wl_ranges[i*EntW +: 32] == '0 && i < KINDS * 32'(job_q.entries);
    end
  end
  prim_priority_enc #(.WIDTH(NEnt)) u_mbhit (
    .in_i(mb_hit), .onehot_o(unused_mb_hit_oh), .idx_o(mb_hit_idx), .valid_o(mb_any_hit));
  prim_priority_enc #(.WIDTH(NEnt)) u_mbfree (
    .in_i(mb_free), .onehot_o(unused_mb_free_oh), .idx_o(mb_free_idx), .valid_o(mb_any_free));
  always_comb begin
    mb_ranges = wl_ranges;
    if (mb_any_hit) begin
      mb_ranges[32'(mb_hit_idx) * EntW +: 32] = wl_ranges[32'(mb_hit_idx) * EntW +: 32] | m_ent[31:0];
    end else if (mb_any_free) begin
      mb_ranges[32'(mb_free_idx) * EntW +: EntW] = m_ent;
    end
  end
  assign m_valid = job_q.blocks ? m_ent[31:0] != '0 : m_ent[EntW-1];

  always_comb begin
    wl_merged = wl_q;
    wl_merged[RngLsb +: RngW] = job_q.blocks ? mb_ranges : m_ranges;
  end
  assign merge_lost = est_q == E_MERGE && m_valid &&
                      (job_q.blocks ? !mb_any_hit && !mb_any_free : !m_any_hit && !m_any_free);

  // ---- the prefetch walk over the previous frame's entries -----------------------------------
  // A range's lines from first to last; a block's lines whose bitmap bit is set, in order. cur_q
  // is the next line the walk may prefetch; an entry's walk starts at its first line.
  // (hi: the entry's bits above the range's last line, EntW-1:LAW)
  function automatic logic [LAW:0] ent_start(input logic [EntW-LAW-1:0] hi, input logic blk);
    ent_start = blk ? {1'b0, hi[32 - LAW +: BlkW], 5'd0} : {1'b0, hi[0 +: LAW]};
  endfunction
  logic [EntW-1:0] i_ent;
  logic            i_ok, i_more;
  logic [LAW:0]    i_line;               // the line the walk prefetches now
  logic [31:0]     ib_left, unused_ib_oh;
  logic [4:0]      ib_idx;
  logic            ib_any;
  localparam logic [LAW:0] MemLines = (LAW + 1)'(MEM_BYTES >> 6);
  assign i_ent   = pr_q[32'(mi_q) * EntW +: EntW];
  // the block's lines read at or above cur_q
  assign ib_left = i_ent[31:0] & ~((32'd1 << cur_q[4:0]) - 32'd1);
  prim_priority_enc #(.WIDTH(32)) u_ibit (
    .in_i(ib_left), .onehot_o(unused_ib_oh), .idx_o(ib_idx), .valid_o(ib_any));
  assign i_line  = job_q.blocks ? {1'b0, i_ent[32 +: BlkW], ib_idx} : cur_q;
  // the entry is prefetched, and i_line is within it and memory
  assign i_ok   = job_q.blocks ?
                  job_q.kinds[0] && ib_any && cur_q[LAW:5] == {1'b0, i_ent[32 +: BlkW]} && i_line < MemLines :
                  i_ent[EntW-1] && job_q.kinds[mi_q[2]] && cur_q <= (LAW + 1)'(i_ent[0 +: LAW]) &&
                  cur_q < MemLines;
  assign i_more = n_q < job_q.max_lines && pf_out_q != 8'hff;

  // ---- the decision on the line read -----------------------------------------------------------
  // the line read, field by field (spec/layouts.yaml pf_history_line)
  logic [511:0] rl, fresh;
  logic [15:0]  rl_epoch;
  logic [11:0]  rl_w, rl_h;
  logic [1:0]   rl_bin;
  logic [7:0]   rl_count;
  logic [7:0]   rl_batch;
  logic [RngW-1:0] rl_ranges;
  logic  rl_blocks;
  logic  same_tgt, this_frame, last_frame, similar;
  logic [7:0] cdiff;
  assign rl         = mem_rsp_i.rdata;
  assign rl_epoch   = rl[tessera_spec_pkg::TS_PF_HISTORY_LINE_EPOCH_LSB +: 16];
  assign rl_w       = rl[tessera_spec_pkg::TS_PF_HISTORY_LINE_WIDTH_LSB +: 12];
  assign rl_h       = rl[tessera_spec_pkg::TS_PF_HISTORY_LINE_HEIGHT_LSB +: 12];
  assign rl_bin     = rl[tessera_spec_pkg::TS_PF_HISTORY_LINE_BIN_SIZE_LSB +: 2];
  assign rl_count   = rl[tessera_spec_pkg::TS_PF_HISTORY_LINE_COUNT_LSB +: 8];
  assign rl_batch   = rl[tessera_spec_pkg::TS_PF_HISTORY_LINE_BATCH_LSB +: 8];
  assign rl_ranges  = rl[RngLsb +: RngW];
  assign rl_blocks  = rl[tessera_spec_pkg::TS_PF_HISTORY_LINE_BLOCKS_LSB];
  assign rl_next    = rl[tessera_spec_pkg::TS_PF_HISTORY_LINE_NEXT_LSB +: IdxW];
  logic  rl_mine;                        // the line read is one this job's slice wrote
  assign rl_mine    = rl[tessera_spec_pkg::TS_PF_HISTORY_LINE_SLICE_LSB +: 3] == 3'(sel_q) &&
                      rl[tessera_spec_pkg::TS_PF_HISTORY_LINE_SLOTS_LSB +: 2] == job_q.slots;
  assign ah_idx     = job_q.t_idx - job_q.t_rel + rl_next - IdxW'(1);
  assign done_ahead = ahd_q[32'(sel_q)*IdxW +: IdxW] == job_q.t_idx + IdxW'(1) &&
                      ahe_q[32'(sel_q)*16 +: 16] == job_q.epoch;
  // The lookahead of a job whose batch is similar: the successor of a line this slice wrote, if
  // any, not the batch itself, a line of this pass and in the buffer. The pointer is pass-
  // relative: a tile of a pass with this target and bin size that this slice entered last frame,
  // so one this slice owns now, and no other slice can write the line while this one reads it.
  logic  ahead_ok;
  assign ahead_ok = job_q.lookahead && rl_mine && rl_next != '0 && rl_next - IdxW'(1) != job_q.t_rel &&
                    rl_next - IdxW'(1) < job_q.pass_lines && ah_idx < lines_q;
  assign same_tgt   = !mem_rsp_i.err && rl_w == job_q.width && rl_h == job_q.height &&
                      rl_bin == job_q.bin_size && rl_batch == job_q.t_batch && rl_blocks == job_q.blocks;
  assign this_frame = same_tgt && rl_epoch == job_q.epoch;
  assign last_frame = same_tgt && rl_epoch == job_q.epoch - 16'd1;
  assign cdiff      = (rl_count > job_q.t_count) ? rl_count - job_q.t_count : job_q.t_count - rl_count;
  assign similar    = cdiff <= job_q.threshold;
  always_comb begin
    fresh = '0;
    fresh[tessera_spec_pkg::TS_PF_HISTORY_LINE_EPOCH_LSB +: 16]   = job_q.epoch;
    fresh[tessera_spec_pkg::TS_PF_HISTORY_LINE_WIDTH_LSB +: 12]   = job_q.width;
    fresh[tessera_spec_pkg::TS_PF_HISTORY_LINE_HEIGHT_LSB +: 12]  = job_q.height;
    fresh[tessera_spec_pkg::TS_PF_HISTORY_LINE_BIN_SIZE_LSB +: 2] = job_q.bin_size;
    fresh[tessera_spec_pkg::TS_PF_HISTORY_LINE_COUNT_LSB +: 8]    = job_q.t_count;
    fresh[tessera_spec_pkg::TS_PF_HISTORY_LINE_BATCH_LSB +: 8]    = job_q.t_batch;
    fresh[tessera_spec_pkg::TS_PF_HISTORY_LINE_BLOCKS_LSB]        = job_q.blocks;
  end

  logic rsp_read, rsp_write, rsp_pf;
  assign rsp_read  = mem_rsp_valid_i && mem_rsp_i.tag[7:6] == pf_pkg::TAG_READ;
  assign rsp_write = mem_rsp_valid_i && mem_rsp_i.tag[7:6] == pf_pkg::TAG_WRITE;
  assign rsp_pf    = mem_rsp_valid_i && mem_rsp_i.tag[7:6] == pf_pkg::TAG_PREFETCH;
  assign mem_rsp_ready_o = 1'b1;

  always_comb begin
    est_d  = est_q;
    sel_d  = sel_q;
    rr_d   = rr_q;
    job_d  = job_q;
    wl_d   = wl_q;
    pr_d   = pr_q;
    mi_d   = mi_q;
    cur_d  = cur_q;
    n_d    = n_q;
    line_d = line_q;
    ah_d   = ah_q;
    nx_d   = nx_q;
    ahd_d  = ahd_q;
    ahe_d  = ahe_q;
    q_rready = '0;
    mem_req_valid_o = 1'b0;
    mem_req_o       = '0;
    mem_req_o.src   = '0;
    mem_req_o.dsid  = '0;
    mem_req_o.tag   = 8'(sel_q);
    ev_similar    = 1'b0;
    ev_dissimilar = 1'b0;
    ev_no_history = 1'b0;
    ev_request    = 1'b0;
    unique case (est_q)
      E_IDLE: begin
        if (any_job) begin
          q_rready[pick] = 1'b1;
          sel_d = pick;
          rr_d  = (32'(pick) == NS - 1) ? '0 : pick + SW'(1);
          job_d = head;
          wl_d  = line_q[32'(pick)*512 +: 512];
          mi_d  = '0;
          est_d = head.p_valid ? E_MERGE : E_READ;
        end
      end
      E_MERGE: begin
        wl_d = m_valid ? wl_merged : wl_q;
        mi_d = mi_q + 3'd1;
        if (mi_q == 3'd7) est_d = E_WRITE;
      end
      E_WRITE: begin
        mem_req_valid_o = 1'b1;
        mem_req_o.op    = tessera_mem_pkg::MEM_OP_WRITE;
        mem_req_o.addr  = base_q + 32'({job_q.p_idx, 6'd0});
        mem_req_o.wdata = wl_q;
        // the line the slice enters now is this batch's successor (read back by the lookahead)
        mem_req_o.wdata[tessera_spec_pkg::TS_PF_HISTORY_LINE_NEXT_LSB +: IdxW] =
            job_q.t_valid ? job_q.t_rel + IdxW'(1) : '0;
        mem_req_o.wdata[tessera_spec_pkg::TS_PF_HISTORY_LINE_SLICE_LSB +: 3] = 3'(sel_q);
        mem_req_o.wdata[tessera_spec_pkg::TS_PF_HISTORY_LINE_SLOTS_LSB +: 2] = job_q.slots;
        mem_req_o.wdata[tessera_spec_pkg::TS_PF_HISTORY_LINE_BLOCKS_LSB]     = job_q.blocks;
        mem_req_o.wstrb = '1;
        mem_req_o.tag   = {pf_pkg::TAG_WRITE, 3'd0, 3'(sel_q)};
        if (mem_req_ready_i) est_d = E_WACK;
      end
      E_WACK: begin
        if (rsp_write) est_d = job_q.t_valid ? E_READ : E_IDLE;
      end
      // a history line read: the tile entered's (E_READ), or the lookahead's successor (E_AREAD;
      // if it is the previous frame's, its ranges are prefetched now, and its batch will not
      // prefetch them again)
      E_READ, E_AREAD: begin
        mem_req_valid_o = 1'b1;
        mem_req_o.op    = tessera_mem_pkg::MEM_OP_READ;
        mem_req_o.addr  = base_q + 32'({(est_q == E_READ) ? job_q.t_idx : nx_q - IdxW'(1), 6'd0});
        mem_req_o.tag   = {pf_pkg::TAG_READ, 3'd0, 3'(sel_q)};
        if (mem_req_ready_i) est_d = (est_q == E_READ) ? E_RWAIT : E_AWAIT;
      end
      E_RWAIT: begin
        if (rsp_read) begin
          est_d = E_IDLE;
          if (this_frame) begin
            line_d[32'(sel_q)*512 +: 512] = rl;
          end else begin
            line_d[32'(sel_q)*512 +: 512] = fresh;
            if (!last_frame) begin
              ev_no_history = 1'b1;
            end else if (!similar) begin
              ev_dissimilar = 1'b1;
            end else begin
              ev_similar = 1'b1;
              pr_d  = rl_ranges;
              mi_d  = '0;
              cur_d = ent_start(rl_ranges[LAW +: EntW - LAW], job_q.blocks);
              n_d   = '0;
              ah_d  = 1'b0;
              nx_d  = ahead_ok ? ah_idx + IdxW'(1) : '0;
              // prefetched a bin ago (the lookahead of the slice's last job): on to the next
              if (done_ahead) est_d = ahead_ok ? E_AREAD : E_IDLE;
              else            est_d = E_ISSUE;
            end
          end
        end
      end
      E_ISSUE: begin
        if (i_ok && i_more) begin
          mem_req_valid_o = 1'b1;
          mem_req_o.op    = tessera_mem_pkg::MEM_OP_PREFETCH;
          mem_req_o.addr  = {i_line[LAW-1:0], 6'd0};
          mem_req_o.tag   = {pf_pkg::TAG_PREFETCH, 3'd0, 3'(sel_q)};
          if (mem_req_ready_i) begin
            ev_request = 1'b1;
            n_d   = n_q + 9'd1;
            cur_d = i_line + (LAW + 1)'(1);
          end
        end else if (n_q >= job_q.max_lines) begin
          est_d = (!ah_q && nx_q != '0) ? E_AREAD : E_IDLE;
        end else if (!i_ok) begin
          // this entry is done (or not prefetched): the next one
          mi_d  = mi_q + 3'd1;
          cur_d = ent_start(pr_q[((32'(mi_q) + 1) % NEnt) * EntW + LAW +: EntW - LAW], job_q.blocks);
          if (mi_q == 3'd7) est_d = (!ah_q && nx_q != '0) ? E_AREAD : E_IDLE;
        end
      end
      E_AWAIT: begin
        if (rsp_read) begin
          est_d = E_IDLE;
          if (!mem_rsp_i.err && rl_w == job_q.width && rl_h == job_q.height && rl_bin == job_q.bin_size &&
              rl_blocks == job_q.blocks && rl_epoch == job_q.epoch - 16'd1 && rl_mine) begin
            pr_d  = rl_ranges;
            mi_d  = '0;
            cur_d = ent_start(rl_ranges[LAW +: EntW - LAW], job_q.blocks);
            n_d   = '0;
            ah_d  = 1'b1;
            ahd_d[32'(sel_q)*IdxW +: IdxW] = nx_q;
            ahe_d[32'(sel_q)*16 +: 16]     = job_q.epoch;
            est_d = E_ISSUE;
          end
        end
      end
      default: est_d = E_IDLE;
    endcase
  end

  // ---- counters --------------------------------------------------------------------------------
  logic [31:0] c_sim_q, c_dis_q, c_noh_q, c_req_q, c_drop_q, c_untr_q, c_room_q;
  logic [3:0]  n_drop, n_room;
  always_comb begin
    n_drop = '0;
    n_room = '0;
    for (int unsigned s = 0; s < NS; s++) begin
      n_drop = n_drop + 4'(ev_drop_o[s]);
      n_room = n_room + 4'(no_room[s]);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      est_q    <= E_IDLE;
      sel_q    <= '0;
      rr_q     <= '0;
      job_q    <= '0;
      wl_q     <= '0;
      pr_q     <= '0;
      mi_q     <= '0;
      cur_q    <= '0;
      n_q      <= '0;
      line_q   <= '0;
      ah_q     <= 1'b0;
      nx_q     <= '0;
      ahd_q    <= '0;
      ahe_q    <= '0;
      pf_out_q <= '0;
      c_sim_q  <= '0;
      c_dis_q  <= '0;
      c_noh_q  <= '0;
      c_req_q  <= '0;
      c_drop_q <= '0;
      c_untr_q <= '0;
      c_room_q <= '0;
    end else begin
      est_q    <= est_d;
      sel_q    <= sel_d;
      rr_q     <= rr_d;
      job_q    <= job_d;
      wl_q     <= wl_d;
      pr_q     <= pr_d;
      mi_q     <= mi_d;
      cur_q    <= cur_d;
      n_q      <= n_d;
      line_q   <= line_d;
      ah_q     <= ah_d;
      nx_q     <= nx_d;
      ahd_q    <= ahd_d;
      ahe_q    <= ahe_d;
      pf_out_q <= pf_out_q + 8'(ev_request) - 8'(rsp_pf);
      c_sim_q  <= c_sim_q + 32'(ev_similar);
      c_dis_q  <= c_dis_q + 32'(ev_dissimilar);
      c_noh_q  <= c_noh_q + 32'(ev_no_history);
      c_req_q  <= c_req_q + 32'(ev_request);
      c_drop_q <= c_drop_q + 32'(n_drop);
      c_untr_q <= c_untr_q + 32'(n_untracked_slices) + 32'(merge_lost);
      c_room_q <= c_room_q + 32'(n_room);
    end
  end

  assign cnt_similar_o    = c_sim_q;
  assign cnt_dissimilar_o = c_dis_q;
  assign cnt_no_history_o = c_noh_q;
  assign cnt_requested_o  = c_req_q;
  assign cnt_dropped_o    = c_drop_q;
  assign cnt_untracked_o  = c_untr_q;
  assign cnt_no_room_o    = c_room_q;
  assign threshold_o      = thr_now;
  assign mode_o           = mode_q;
  assign epoch_o          = epoch_q;
  assign busy_o      = est_q != E_IDLE || (|q_rvalid) || pf_out_q != '0 || (|bs_pend);
  assign drained_o   = est_q == E_IDLE && !(|q_rvalid) && !(|bs_pend) && !(|open);
  assign set_ready_o = drained_o && pf_out_q == '0;

  logic unused;
  assign unused = ^{set_size_i[5:0], m_h[EntW-1], mem_rsp_i.src, mem_rsp_i.op, mem_rsp_i.tag[5:0], unused_m_hit_oh,
                    unused_m_free_oh, unused_mb_hit_oh, unused_mb_free_oh, unused_ib_oh};

  // ---- assertions ------------------------------------------------------------------------------
  `ASSERT_INIT(Params_A, NS >= 1 && NS <= 8 && QDEPTH >= 1)
  `ASSERT_INIT(JobWidth_A, $bits(pf_pkg::job_t) == JobW)
  // history writes and reads stay inside the buffer SET_PREFETCH bound
  `ASSERT(WriteInBuffer_A, est_q == E_WRITE |-> job_q.p_idx < lines_q)
  `ASSERT(ReadInBuffer_A, est_q == E_READ |-> job_q.t_idx < lines_q)
  `ASSERT(AheadInBuffer_A, est_q == E_AREAD |-> nx_q != '0 && nx_q - IdxW'(1) < lines_q)
  `ASSERT(PrefetchInMemory_A, mem_req_valid_o && mem_req_o.op == tessera_mem_pkg::MEM_OP_PREFETCH
          |-> mem_req_o.addr < MEM_BYTES)
  // a request is held until taken
  `ASSERT(ReqStable_A, mem_req_valid_o && !mem_req_ready_i |=> mem_req_valid_o)
  // every response is one the engine waits for, or a PREFETCH's
  `ASSERT(RspExpected_A, mem_rsp_valid_i |-> (rsp_read && (est_q == E_RWAIT || est_q == E_AWAIT)) ||
          (rsp_write && est_q == E_WACK) || (rsp_pf && pf_out_q != '0))
  // the command-order contract: SET_PREFETCH only when nothing is in flight, and no bin event
  // in the cycle of a command (an event belongs to the state before it)
  `ASSERT(SetWhenReady_A, set_i |-> set_ready_o)
  `ASSERT(PassWhenDrained_A, pass_begin_i |-> drained_o)
  `ASSERT(NoEventWhileDraining_A, drain_i |-> !(|bs_valid_i))
  `ASSERT(OneCommandPerCycle_A, $onehot0({set_i, pass_begin_i, frame_end_i, bin_size_we_i}))
  `ASSERT(NoEventWithCommand_A, frame_end_i || pass_begin_i || set_i |-> !(|bs_valid_i))
  // a dropped event is one the queue could not take
  `ASSERT(DropOnlyWhenFull_A, |ev_drop_o |-> |(q_wvalid & ~q_wready))

endmodule
