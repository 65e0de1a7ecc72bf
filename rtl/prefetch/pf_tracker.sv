// pf_tracker -- the tile prefetcher's address tracker for one raster slice (issue 19;
// docs/prefetcher.md "Mapping onto Tessera").
//
// Source: 004_c4de9378d94a44ec.txt, figures 6 and 7: while a tile renders, the prefetcher keeps
// updating "the first address and the last address of the requested read addresses" per
// history entry (history address #1 first/last registers); when the job ends they give the
// data's start address and size (the example: 0x0800_0000 .. 0x0800_01b0, size 0x1b0), which
// the next frame prefetches. ARCHITECTURE.md 5.7: per data kind up to K history entries of
// {first, last} within a tracking window; a read outside every window opens a new entry.
//
// Here, per kind (KINDS of them: texture, target), K_MAX entries of {valid, first line, last
// line} (64-byte line addresses). A READ of line L of kind k (rd_*):
//   - extends the lowest valid entry of kind k whose range, widened by window_i lines on both
//     sides, holds L: first = min(first, L), last = max(last, L);
//   - else opens the lowest invalid entry among the first k_i ones as {L, L};
//   - else is not tracked (ev_untracked_o).
// load_i replaces every entry with load_ranges_i (a tile's ranges so far, or all invalid for a
// fresh tile); a read in the same cycle applies to the loaded entries. ranges_o is the state
// (what the prefetcher writes back to the tile's history line). One read per clock; the
// update is registered (ranges_o shows it the next cycle), and so is ev_untracked_o (the read
// of the previous cycle was not tracked).
//
// Entry layout in load_ranges_i / ranges_o, entry e of kind k at [(k*K_MAX + e)*EntW +: EntW]:
// {valid, first[LINE_AW-1:0], last[LINE_AW-1:0]}, valid the top bit.
//
// The block record (blocks_i, GEOM.PF_RECORD BLOCKS; beyond the source, docs/prefetcher.md
// "Block record"): only texture reads (kind 0) are recorded, in all KINDS x K_MAX entries, each
// {block[LINE_AW-6:0], bitmap[31:0]} (EntW bits), valid when the bitmap is not 0. A READ of
// line L sets bit L[4:0] of the lowest valid entry whose block is L[LINE_AW-1:5], else opens
// the lowest invalid entry among the first KINDS x k_i as {L[LINE_AW-1:5], 1 << L[4:0]}, else is
// not tracked. Target reads are not recorded (nor counted untracked); the window is not used.
// Why: a tile's texels are many short Morton runs, which ranges hold a third of, and a range
// wide enough to join them prefetches the gaps between them too; a bitmap holds the lines read.

`include "prim_assert.svh"

module pf_tracker #(
  parameter int unsigned KINDS   = 2,
  parameter int unsigned K_MAX   = 4,
  parameter int unsigned LINE_AW = 26,
  // Derived (do not override)
  localparam int unsigned EntW   = 1 + 2 * LINE_AW,
  localparam int unsigned KindW  = (KINDS > 1) ? $clog2(KINDS) : 1,
  localparam int unsigned KW     = $clog2(K_MAX + 1)
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic [KW-1:0]                 k_i,         // entries per kind in use, 1..K_MAX (0 acts as 1)
  input  logic [15:0]                   window_i,    // tracking window in lines
  input  logic                          blocks_i,    // the block record (above)
  input  logic                          load_i,
  input  logic [KINDS*K_MAX*EntW-1:0]   load_ranges_i,
  input  logic                          rd_valid_i,
  input  logic [KindW-1:0]              rd_kind_i,
  input  logic [LINE_AW-1:0]            rd_line_i,
  output logic [KINDS*K_MAX*EntW-1:0]   ranges_o,
  output logic                          ev_untracked_o
);

  localparam int unsigned N = KINDS * K_MAX;

  logic [N*EntW-1:0] st_q, st_d, base;
  logic [KW-1:0]     k_eff;
  assign k_eff = (k_i == '0) ? KW'(1) : ((32'(k_i) > K_MAX) ? KW'(K_MAX) : k_i);
  assign base  = load_i ? load_ranges_i : st_q;

  // the kind's entries: valid, inside the widened range, free
  logic [K_MAX-1:0] ent_valid, ent_hit, ent_free;
  logic [K_MAX*LINE_AW-1:0] ent_first, ent_last;
  logic [LINE_AW+16:0] lo_w, hi_w, l_ext;   // one bit wider: no wrap at the ends of memory
  always_comb begin
    l_ext = (LINE_AW + 17)'(rd_line_i);
    for (int unsigned e = 0; e < K_MAX; e++) begin
      ent_valid[e] = 1'b0;
      ent_first[e*LINE_AW +: LINE_AW] = '0;
      ent_last[e*LINE_AW +: LINE_AW]  = '0;
      for (int unsigned k = 0; k < KINDS; k++) begin
        if (32'(rd_kind_i) == k) begin
          ent_valid[e] = base[(k*K_MAX + e)*EntW + EntW - 1];
          ent_first[e*LINE_AW +: LINE_AW] = base[(k*K_MAX + e)*EntW + LINE_AW +: LINE_AW];
          ent_last[e*LINE_AW +: LINE_AW]  = base[(k*K_MAX + e)*EntW +: LINE_AW];
        end
      end
    end
    for (int unsigned e = 0; e < K_MAX; e++) begin
      lo_w = (LINE_AW + 17)'(ent_first[e*LINE_AW +: LINE_AW]);
      hi_w = (LINE_AW + 17)'(ent_last[e*LINE_AW +: LINE_AW]) + (LINE_AW + 17)'(window_i);
      ent_hit[e]  = ent_valid[e] && (l_ext + (LINE_AW + 17)'(window_i) >= lo_w) && (l_ext <= hi_w);
      ent_free[e] = !ent_valid[e] && (e < 32'(k_eff));
    end
  end

  logic [K_MAX-1:0] unused_hit_oh, unused_free_oh;
  logic [$clog2(K_MAX)-1:0] hit_idx, free_idx;
  logic any_hit, any_free;
  prim_priority_enc #(.WIDTH(K_MAX)) u_hit (
    .in_i(ent_hit), .onehot_o(unused_hit_oh), .idx_o(hit_idx), .valid_o(any_hit));
  prim_priority_enc #(.WIDTH(K_MAX)) u_free (
    .in_i(ent_free), .onehot_o(unused_free_oh), .idx_o(free_idx), .valid_o(any_free));

  logic [LINE_AW-1:0] h_first, h_last;
  assign h_first = ent_first[32'(hit_idx)*LINE_AW +: LINE_AW];
  assign h_last  = ent_last[32'(hit_idx)*LINE_AW +: LINE_AW];

  always_comb begin
    st_d = base;
    if (rd_valid_i) begin
      for (int unsigned k = 0; k < KINDS; k++) begin
        for (int unsigned e = 0; e < K_MAX; e++) begin
          if (32'(rd_kind_i) == k) begin
            if (any_hit && 32'(hit_idx) == e) begin
              st_d[(k*K_MAX + e)*EntW + LINE_AW +: LINE_AW] = (rd_line_i < h_first) ? rd_line_i : h_first;
              st_d[(k*K_MAX + e)*EntW +: LINE_AW]           = (rd_line_i > h_last) ? rd_line_i : h_last;
            end else if (!any_hit && any_free && 32'(free_idx) == e) begin
              st_d[(k*K_MAX + e)*EntW +: EntW] = {1'b1, rd_line_i, rd_line_i};
            end
          end
        end
      end
    end
  end

  // ---- the block record ----------------------------------------------------------------------
  localparam int unsigned BlkW = LINE_AW - 5;   // block number: a line address without its 5 low bits
  logic [N-1:0]       b_hit, b_free;
  logic [BlkW-1:0]    rd_blk;
  logic [N*EntW-1:0]  b_st;
  assign rd_blk = rd_line_i[LINE_AW-1:5];
  always_comb begin
    for (int unsigned i = 0; i < N; i++) begin
      b_hit[i]  = base[i*EntW +: 32] != '0 && base[i*EntW + 32 +: BlkW] == rd_blk;
      b_free[i] = base[i*EntW +: 32] == '0 && i < KINDS * 32'(k_eff);
    end
  end
  logic [N-1:0] unused_bhit_oh, unused_bfree_oh;
  logic [$clog2(N)-1:0] b_hit_idx, b_free_idx;
  logic b_any_hit, b_any_free;
  prim_priority_enc #(.WIDTH(N)) u_bhit (
    .in_i(b_hit), .onehot_o(unused_bhit_oh), .idx_o(b_hit_idx), .valid_o(b_any_hit));
  prim_priority_enc #(.WIDTH(N)) u_bfree (
    .in_i(b_free), .onehot_o(unused_bfree_oh), .idx_o(b_free_idx), .valid_o(b_any_free));
  logic b_rec;                                  // a read the block record records
  assign b_rec = rd_valid_i && rd_kind_i == '0;
  always_comb begin
    b_st = base;
    if (b_rec) begin
      for (int unsigned i = 0; i < N; i++) begin
        if (b_any_hit && 32'(b_hit_idx) == i) begin
          b_st[i*EntW + 32'(rd_line_i[4:0])] = 1'b1;
        end else if (!b_any_hit && b_any_free && 32'(b_free_idx) == i) begin
          b_st[i*EntW +: EntW] = {{(EntW - 32 - BlkW){1'b0}}, rd_blk, 32'd1 << rd_line_i[4:0]};
        end
      end
    end
  end

  logic untracked_d, untracked_q;
  assign untracked_d = blocks_i ? b_rec && !b_any_hit && !b_any_free : rd_valid_i && !any_hit && !any_free;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q        <= '0;
      untracked_q <= 1'b0;
    end else begin
      st_q        <= blocks_i ? b_st : st_d;
      untracked_q <= untracked_d;
    end
  end

  assign ranges_o       = st_q;
  assign ev_untracked_o = untracked_q;

  `ASSERT_INIT(Params_A, KINDS >= 1 && K_MAX >= 2 && (K_MAX & (K_MAX - 1)) == 0 && LINE_AW <= 32 &&
               EntW >= 32 + LINE_AW - 5)
  `ASSERT(KindInRange_A, rd_valid_i |-> 32'(rd_kind_i) < KINDS)
  // a valid entry's range is ordered; in the block record no two valid entries hold one block
  for (genvar i = 0; i < N; i++) begin : gen_chk
    `ASSERT(RangeOrdered_A, !blocks_i && st_q[i*EntW + EntW - 1] |->
            st_q[i*EntW + LINE_AW +: LINE_AW] <= st_q[i*EntW +: LINE_AW])
    for (genvar j = i + 1; j < N; j++) begin : gen_pair
      `ASSERT(BlockOnce_A, blocks_i && st_q[i*EntW +: 32] != '0 && st_q[j*EntW +: 32] != '0 |->
              st_q[i*EntW + 32 +: BlkW] != st_q[j*EntW + 32 +: BlkW])
    end
  end

endmodule
