// geom_pc_us -- PC_US, the unsliced primitive controller: takes the CP's pipeline commands,
// splits each DRAW into sub-batches and sends every sub-batch to one slice's PC_S.
//
// Source: 001_3630ef805e8956e2.txt (Qualcomm sliced GPU), summary paragraph 1 ("PC_US then
// divides the graphics workload into a plurality of sub-batches, and distributes each
// sub-batch to a PC_S of a hardware slice for processing (e.g., based on a round-robin slice
// selection mechanism, and/or based on a current processing utilization of each hardware
// slice)"), claims 5-8 (round robin; by utilization; configurable size; 256 primitives).
// ARCHITECTURE.md 5.3: least loaded = fewest outstanding primitives, ties round robin.
//
// Commands (tessera_cp_pkg::pipe_cmd_t), one accepted at a time, in order:
//   SET_REGS {offset, value}: inside the GEOM window -> written to geom_regs now (state is
//     sampled into every later sub-batch), completes at once (ORD_DONE); elsewhere -> side.
//   DRAW: TRI_LIST / TRI_STRIP / PATCH_QUAD / PATCH_TRI / PATCH_ISOLINE with index type
//     NONE/U16/U32 -> sub-batches (ORD_SB each; a patch draw's primitives are its patches, 4,
//     3 or 2 control points each); topologies 5..7 or index type 3 -> error pulse, completes
//     at once; no primitives (fewer vertices than one needs) -> completes at once.
//   anything else -> forwarded on the side output in order (ORD_SIDE).
// Completion order is kept by VPC_US, which walks the order FIFO this block fills.
//
// Sub-batch dispatch: a PICK cycle chooses the slice (locked, so valid towards one slice
// never drops), a SEND cycle hands the descriptor over when that slice's FIFO and the order
// FIFO both have room: at most one sub-batch per two cycles (>= 8 primitives per clock).
//
// Two-level binning (source 000_b9c7be2d27aa8181.txt [0010]-[0012]; docs/two-level.md):
//   - Every primitive has a number in its render pass (pass_pos: the pass's DRAWs in API
//     order, culled primitives included); RENDERPASS_BEGIN restarts it. Order entries carry it
//     (ord_t.vbase) so that VPC_US's visibility writer knows each triangle's bit.
//   - In a TEST pass (GEOM.VIS) a list or patch DRAW is scanned against coarse bin VIS.bin's
//     bitmap, 32 primitives per cycle from a 512-primitive line read on vis_rd_*: invisible
//     runs are skipped (no sub-batch, so no index or vertex fetch), visible runs become
//     sub-batches (at most SUBBATCH primitives, cut where the run ends). A draw whose last
//     primitives are all invisible completes with an ORD_DONE entry. Strips are never cut
//     (a strip primitive shares the previous primitives' vertices). Primitives beyond the
//     buffer's capacity (VIS_STRIDE lines of 512) count as visible; a read error too.
//   - A visibility (WRITE) pass's primitives are written by the writer at VPC_US, behind this
//     block. Until it has finished (vis_done_i), GEOM VIS/VIS_BASE/VIS_STRIDE/COARSE writes and
//     the next WRITE pass's RENDERPASS_BEGIN wait here, so the writer reads this pass's
//     registers and a replay never reads lines not yet written.

`include "prim_assert.svh"

module geom_pc_us #(
  parameter int unsigned NUM_SLICES = 2
) (
  input  logic                               clk_i,
  input  logic                               rst_ni,
  // CP pipeline command port
  input  logic                               pipe_valid_i,
  output logic                               pipe_ready_o,
  input  tessera_cp_pkg::pipe_cmd_t          pipe_cmd_i,
  // state
  output logic                               set_we_o,
  output logic [11:0]                        set_off_o,
  output logic [31:0]                        set_val_o,
  input  geom_pkg::gstate_t                  state_i,
  input  logic [geom_pkg::SB_SIZE_W-1:0]     sb_size_i,
  input  logic                               policy_ll_i,
  input  geom_pkg::vis_cfg_t                 vis_cfg_i,
  input  logic                               vis_done_i,     // the writer finished a WRITE pass
  // coarse-bin bitmap reads (TEST passes): one 64-byte line at a time
  output logic                               vis_rd_valid_o,
  input  logic                               vis_rd_ready_i,
  output logic [31:0]                        vis_rd_addr_o,
  input  logic                               vis_rsp_valid_i,
  input  logic                               vis_rsp_err_i,
  input  logic [511:0]                       vis_rsp_line_i,
  // sub-batches to the slices (one descriptor bus, per-slice valid/ready)
  output logic [NUM_SLICES-1:0]              sb_valid_o,
  input  logic [NUM_SLICES-1:0]              sb_ready_i,
  output geom_pkg::sb_desc_t                 sb_desc_o,
  // primitives finished by each slice's TSEFE_S (one per pulse)
  input  logic [NUM_SLICES-1:0]              prim_done_i,
  output logic [NUM_SLICES*16-1:0]           outstanding_o,
  // order and side FIFOs towards VPC_US
  output logic                               ord_valid_o,
  input  logic                               ord_ready_i,
  output geom_pkg::ord_t                     ord_o,
  output logic                               side_valid_o,
  input  logic                               side_ready_i,
  output tessera_cp_pkg::pipe_cmd_t          side_cmd_o,
  // events
  output logic                               ev_draw_o,
  output logic                               ev_bad_topo_o,
  output logic                               ev_bad_itype_o,
  output logic [NUM_SLICES-1:0]              ev_sb_o,
  output logic [geom_pkg::SB_SIZE_W-1:0]     ev_sb_prims_o,
  output logic [5:0]                         ev_vis_skip_o   // primitives dropped this cycle
);

  localparam int unsigned NS = NUM_SLICES;
  localparam int unsigned SW = (NS > 1) ? $clog2(NS) : 1;
  localparam int unsigned SBW = geom_pkg::SB_SIZE_W;

  typedef enum logic [2:0] {Idle, Pick, Send, Scan, Fetch, Wait, Fin} state_e;
  state_e state_d, state_q;

  // ---- command decode ----------------------------------------------------------------------
  logic [31:0] arg0, arg1, arg2, arg3, arg4;
  assign arg0 = pipe_cmd_i.args[0 +: 32];
  assign arg1 = pipe_cmd_i.args[32 +: 32];
  assign arg2 = pipe_cmd_i.args[64 +: 32];
  assign arg3 = pipe_cmd_i.args[96 +: 32];
  assign arg4 = pipe_cmd_i.args[128 +: 32];

  logic is_draw, is_setreg, setreg_mine, is_begin, is_end, is_visreg;
  logic [2:0] topo;
  logic [1:0] itype;
  logic topo_ok, itype_ok, strip_in, patch_in;
  logic [2:0] ncp_in;   // vertices per primitive: list 3, quad patch 4, triangle 3, isoline 2
  assign is_draw   = (pipe_cmd_i.opcode == tessera_spec_pkg::TS_OP_DRAW);
  assign is_setreg = (pipe_cmd_i.opcode == tessera_spec_pkg::TS_OP_SET_REGS);
  assign is_begin  = (pipe_cmd_i.opcode == tessera_spec_pkg::TS_OP_RENDERPASS_BEGIN);
  assign is_end    = (pipe_cmd_i.opcode == tessera_spec_pkg::TS_OP_RENDERPASS_END);
  assign is_visreg = is_setreg &&
      ((arg0 == tessera_spec_pkg::TS_GEOM_BASE_ADDR + tessera_spec_pkg::TS_GEOM_VIS_OFFSET) ||
       (arg0 == tessera_spec_pkg::TS_GEOM_BASE_ADDR + tessera_spec_pkg::TS_GEOM_VIS_BASE_OFFSET) ||
       (arg0 == tessera_spec_pkg::TS_GEOM_BASE_ADDR + tessera_spec_pkg::TS_GEOM_VIS_STRIDE_OFFSET) ||
       (arg0 == tessera_spec_pkg::TS_GEOM_BASE_ADDR + tessera_spec_pkg::TS_GEOM_COARSE_OFFSET));
  assign setreg_mine = (arg0 >= tessera_spec_pkg::TS_GEOM_BASE_ADDR) &&
                       (arg0 < tessera_spec_pkg::TS_GEOM_BASE_ADDR + tessera_spec_pkg::TS_GEOM_SIZE);
  assign topo  = arg0[tessera_spec_pkg::TS_PKT_DRAW_TOPOLOGY_LSB +: 3];
  assign itype = arg0[tessera_spec_pkg::TS_PKT_DRAW_INDEX_TYPE_LSB +: 2];
  assign topo_ok  = (topo == tessera_spec_pkg::TS_TOPOLOGY_TRI_LIST) ||
                    (topo == tessera_spec_pkg::TS_TOPOLOGY_TRI_STRIP) || patch_in;
  assign strip_in = (topo == tessera_spec_pkg::TS_TOPOLOGY_TRI_STRIP);
  assign patch_in = (topo == tessera_spec_pkg::TS_TOPOLOGY_PATCH_QUAD) ||
                    (topo == tessera_spec_pkg::TS_TOPOLOGY_PATCH_TRI) ||
                    (topo == tessera_spec_pkg::TS_TOPOLOGY_PATCH_ISOLINE);
  always_comb begin
    unique case (topo)
      tessera_spec_pkg::TS_TOPOLOGY_PATCH_QUAD:    ncp_in = 3'd4;
      tessera_spec_pkg::TS_TOPOLOGY_PATCH_ISOLINE: ncp_in = 3'd2;
      default:                                     ncp_in = 3'd3;
    endcase
  end
  assign itype_ok = (itype == tessera_spec_pkg::TS_INDEX_TYPE_NONE) ||
                    (itype == tessera_spec_pkg::TS_INDEX_TYPE_U16) ||
                    (itype == tessera_spec_pkg::TS_INDEX_TYPE_U32);

  // Commands are accepted only in Idle and only when both FIFOs have room, so every
  // command's ORD (and side) entry is pushed in its acceptance cycle.
  logic go, vis_write, vis_hold;
  logic vis_pend_q, vis_pend_d;   // a WRITE pass was accepted and its writer has not finished
  logic pass_vis_q, pass_vis_d;   // the open render pass is a WRITE pass
  assign vis_write = (vis_cfg_i.mode == tessera_spec_pkg::TS_VIS_MODE_WRITE);
  assign vis_hold  = vis_pend_q && (is_visreg || (is_begin && vis_write));
  assign pipe_ready_o = (state_q == Idle) && ord_ready_i && side_ready_i && !vis_hold;
  assign go = pipe_valid_i && pipe_ready_o;
  assign vis_pend_d = (vis_pend_q && !vis_done_i) || (go && is_begin && vis_write);
  always_comb begin
    pass_vis_d = pass_vis_q;
    if (go && is_begin) pass_vis_d = vis_write;
    if (go && is_end)   pass_vis_d = 1'b0;
  end

  // ---- draw being split ----------------------------------------------------------------------
  logic                       strip_q, strip_d;
  logic                       patch_q, patch_d;
  logic [1:0]                 pkind_q, pkind_d;
  logic [2:0]                 ncp_q, ncp_d;
  logic [31:0]                tf_q, tf_d;
  logic [1:0]                 itype_q, itype_d;
  logic [31:0]                vaddr_q, vaddr_d, iaddr_q, iaddr_d;
  logic [31:0]                rem_q, rem_d;        // list, patch: vertices left; strip: primitives left
  logic [31:0]                first_q, first_d;    // next primitive index
  logic [15:0]                draw_id_q, draw_id_d;
  logic [15:0]                seq_q, seq_d;
  logic [SW-1:0]              rr_q, rr_d, pick_q, pick_d;
  logic [SBW-1:0]             n_q, n_d;
  logic                       last_q, last_d;
  // two-level binning
  logic                       test_q, test_d;      // this draw is scanned against the bitmap
  logic [31:0]                pbase_q, pbase_d;    // pass number of the draw's primitive 0
  logic [31:0]                pos_q, pos_d;        // pass number of the next primitive to scan
  logic [SBW-1:0]             acc_q, acc_d;        // visible primitives collected for a sub-batch
  logic [511:0]               line_q, line_d;      // the bitmap line held
  logic                       line_ok_q, line_ok_d;
  logic [15:0]                line_grp_q, line_grp_d;
  logic [31:0]                rd_addr_q, rd_addr_d;

  // Primitives in the next sub-batch and whether it is the draw's last.
  logic [SBW-1:0] n_next;
  logic           last_next;
  logic [13:0]    sbn;
  logic [12:0]    small_v;
  always_comb begin
    sbn = 14'(sb_size_i) * 14'(ncp_q);
    small_v = rem_q[12:0];
    if (strip_q) begin
      last_next = (rem_q <= 32'(sb_size_i));
      n_next    = last_next ? SBW'(rem_q) : sb_size_i;
    end else begin
      // floor(rem/ncp) primitives left; the last sub-batch has rem < ncp*sb + ncp (< 4100)
      // vertices.
      last_next = (rem_q < 32'(sbn) + 32'(ncp_q));
      unique case (ncp_q)
        3'd4:    n_next = last_next ? SBW'(small_v >> 2) : sb_size_i;
        3'd2:    n_next = last_next ? SBW'(small_v >> 1) : sb_size_i;
        default: n_next = last_next ? SBW'(small_v / 13'd3) : sb_size_i;
      endcase
    end
  end

  // Primitives left in the draw, exact below 8192 vertices, else 2047 (fewer than the truth,
  // and more than a sub-batch and a scan step can take, so "the draw ends" is never claimed
  // wrongly).
  logic [11:0] lcap0, lft;
  always_comb begin
    unique case (ncp_q)
      3'd4:    lcap0 = 12'(rem_q[12:0] >> 2);
      3'd2:    lcap0 = 12'(rem_q[12:0] >> 1);
      default: lcap0 = 12'(rem_q[12:0] / 13'd3);
    endcase
    if (rem_q[31:13] != '0) lcap0 = 12'd2047;
    lft = lcap0 - 12'(acc_q);
  end

  // ---- TEST scan: 32 primitives of the held line per cycle ---------------------------------
  logic [22:0] grp;
  logic        beyond, have_line, need_line;
  logic [31:0] word_raw, word;
  logic [5:0]  avail, zc, oc;
  logic [4:0]  zc_cnt, oc_cnt;
  logic        z_empty, o_empty;
  assign grp       = pos_q[31:9];
  assign beyond    = (grp >= 23'(vis_cfg_i.stride));
  assign have_line = line_ok_q && (line_grp_q == grp[15:0]);
  assign need_line = !beyond && !have_line;
  assign word_raw  = line_q[pos_q[8:5]*32 +: 32];
  assign word      = beyond ? 32'hffff_ffff : (word_raw >> pos_q[4:0]);
  assign avail     = 6'd32 - 6'(pos_q[4:0]);
  prim_lzc #(.WIDTH(32), .MODE(0)) u_ctz (.in_i(word), .cnt_o(zc_cnt), .empty_o(z_empty));
  prim_lzc #(.WIDTH(32), .MODE(0)) u_cto (.in_i(~word), .cnt_o(oc_cnt), .empty_o(o_empty));
  // runs of invisible (zc) and visible (oc) primitives from pos, within the line's word
  assign zc = (z_empty || 6'(zc_cnt) > avail) ? avail : 6'(zc_cnt);
  assign oc = (o_empty || 6'(oc_cnt) > avail) ? avail : 6'(oc_cnt);

  logic        skip, fin;
  logic [5:0]  skip_n;
  logic [11:0] room, take;
  always_comb begin
    skip   = (acc_q == '0) && (zc != 6'd0);
    skip_n = (12'(zc) > lft) ? 6'(lft) : zc;
    room   = 12'(sb_size_i) - 12'(acc_q);
    take   = 12'(oc);
    if (room < take) take = room;
    if (lft < take)  take = lft;
    fin    = (oc < avail) || (take == room) || (take == lft);
  end

  // ---- slice choice --------------------------------------------------------------------------
  logic [NS*16-1:0] outst_q, outst_d;
  logic [SW-1:0]    ll_pick, rr_pick;
  assign rr_pick = rr_q;
  logic [15:0]   ll_best;
  logic [SW-1:0] ll_idx;
  always_comb begin
    ll_pick = rr_q;
    ll_best = outst_q[32'(rr_q)*16 +: 16];
    ll_idx  = rr_q;
    for (int unsigned i = 1; i < NS; i++) begin
      if (32'(rr_q) + i >= NS) ll_idx = SW'(32'(rr_q) + i - NS);
      else                     ll_idx = SW'(32'(rr_q) + i);
      if (outst_q[32'(ll_idx)*16 +: 16] < ll_best) begin
        ll_best = outst_q[32'(ll_idx)*16 +: 16];
        ll_pick = ll_idx;
      end
    end
  end

  logic send_go;
  assign send_go = (state_q == Send) && sb_ready_i[pick_q] && ord_ready_i;

  always_comb begin
    state_d   = state_q;
    strip_d   = strip_q;
    patch_d   = patch_q;
    pkind_d   = pkind_q;
    ncp_d     = ncp_q;
    tf_d      = tf_q;
    itype_d   = itype_q;
    vaddr_d   = vaddr_q;
    iaddr_d   = iaddr_q;
    rem_d     = rem_q;
    first_d   = first_q;
    draw_id_d = draw_id_q;
    seq_d     = seq_q;
    rr_d      = rr_q;
    pick_d    = pick_q;
    n_d       = n_q;
    last_d    = last_q;
    test_d    = test_q;
    pbase_d   = pbase_q;
    pos_d     = pos_q;
    acc_d     = acc_q;
    line_d    = line_q;
    line_ok_d = line_ok_q;
    line_grp_d = line_grp_q;
    rd_addr_d = rd_addr_q;
    unique case (state_q)
      Idle: begin
        if (go && is_begin) begin
          pbase_d   = '0;
          line_ok_d = 1'b0;
        end
        if (go && is_visreg) line_ok_d = 1'b0;
        if (go && is_draw) begin
          test_d    = (vis_cfg_i.mode == tessera_spec_pkg::TS_VIS_MODE_TEST) && !strip_in;
          pos_d     = pbase_q;
          acc_d     = '0;
          draw_id_d = draw_id_q + 16'd1;
          strip_d   = strip_in;
          patch_d   = patch_in;
          pkind_d   = 2'(topo - tessera_spec_pkg::TS_TOPOLOGY_PATCH_QUAD);
          ncp_d     = ncp_in;
          tf_d      = arg4;
          itype_d   = itype;
          rem_d     = strip_in ? ((arg1 >= 32'd3) ? arg1 - 32'd2 : 32'd0) : arg1;
          first_d   = '0;
          vaddr_d   = arg2;
          iaddr_d   = arg3;
          if (topo_ok && itype_ok && arg1 >= 32'(ncp_in)) begin
            state_d = (vis_cfg_i.mode == tessera_spec_pkg::TS_VIS_MODE_TEST && !strip_in) ? Scan : Pick;
          end
        end
      end
      Scan: begin
        if (lft == '0) begin
          state_d = Fin;                       // the rest of the draw was invisible
        end else if (need_line) begin
          if (!vis_pend_q) begin
            rd_addr_d = {vis_cfg_i.base + 26'(vis_cfg_i.bin) * 26'(vis_cfg_i.stride) + 26'(grp), 6'b0};
            state_d   = Fetch;
          end
        end else if (skip) begin
          first_d = first_q + 32'(skip_n);
          pos_d   = pos_q + 32'(skip_n);
          rem_d   = rem_q - 32'(9'(skip_n) * 9'(ncp_q));
          if (12'(skip_n) == lft) state_d = Fin;
        end else begin
          acc_d = acc_q + SBW'(take);
          pos_d = pos_q + 32'(take);
          if (fin) begin
            n_d     = acc_q + SBW'(take);
            last_d  = (take == lft);
            acc_d   = '0;
            state_d = Pick;
          end
        end
      end
      Fetch: if (vis_rd_ready_i) state_d = Wait;
      Wait: begin
        if (vis_rsp_valid_i) begin
          line_d     = vis_rsp_err_i ? '1 : vis_rsp_line_i;   // an error: all visible
          line_ok_d  = 1'b1;
          line_grp_d = grp[15:0];
          state_d    = Scan;
        end
      end
      Fin: begin
        if (ord_ready_i) begin
          pbase_d = pbase_q + first_q;
          state_d = Idle;
        end
      end
      Pick: begin
        pick_d  = policy_ll_i ? ll_pick : rr_pick;
        if (!test_q) begin
          n_d    = n_next;
          last_d = last_next;
        end
        state_d = Send;
      end
      Send: begin
        if (send_go) begin
          rr_d    = (32'(pick_q) == NS - 1) ? '0 : pick_q + SW'(1);
          seq_d   = seq_q + 16'd1;
          first_d = first_q + 32'(n_q);
          rem_d   = strip_q ? rem_q - 32'(n_q) : rem_q - 32'(n_q) * 32'(ncp_q);
          if (last_q) begin
            pbase_d = pbase_q + first_q + 32'(n_q);
            state_d = Idle;
          end else begin
            state_d = test_q ? Scan : Pick;
          end
        end
      end
      default: state_d = Idle;
    endcase
  end

  // outstanding primitives per slice: + n on dispatch, - 1 per finished primitive
  always_comb begin
    outst_d = outst_q;
    for (int unsigned s = 0; s < NS; s++) begin
      if (send_go && 32'(pick_q) == s) outst_d[s*16 +: 16] = outst_d[s*16 +: 16] + 16'(n_q);
      if (prim_done_i[s])              outst_d[s*16 +: 16] = outst_d[s*16 +: 16] - 16'd1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= Idle;
      strip_q   <= 1'b0;
      patch_q   <= 1'b0;
      pkind_q   <= '0;
      ncp_q     <= 3'd3;
      tf_q      <= '0;
      itype_q   <= '0;
      vaddr_q   <= '0;
      iaddr_q   <= '0;
      rem_q     <= '0;
      first_q   <= '0;
      draw_id_q <= '0;
      seq_q     <= '0;
      rr_q      <= '0;
      pick_q    <= '0;
      n_q       <= '0;
      last_q    <= 1'b0;
      outst_q   <= '0;
      test_q    <= 1'b0;
      pbase_q   <= '0;
      pos_q     <= '0;
      acc_q     <= '0;
      line_q    <= '0;
      line_ok_q <= 1'b0;
      line_grp_q <= '0;
      rd_addr_q <= '0;
      vis_pend_q <= 1'b0;
      pass_vis_q <= 1'b0;
    end else begin
      state_q   <= state_d;
      strip_q   <= strip_d;
      patch_q   <= patch_d;
      pkind_q   <= pkind_d;
      ncp_q     <= ncp_d;
      tf_q      <= tf_d;
      itype_q   <= itype_d;
      vaddr_q   <= vaddr_d;
      iaddr_q   <= iaddr_d;
      rem_q     <= rem_d;
      first_q   <= first_d;
      draw_id_q <= draw_id_d;
      seq_q     <= seq_d;
      rr_q      <= rr_d;
      pick_q    <= pick_d;
      n_q       <= n_d;
      last_q    <= last_d;
      outst_q   <= outst_d;
      test_q    <= test_d;
      pbase_q   <= pbase_d;
      pos_q     <= pos_d;
      acc_q     <= acc_d;
      line_q    <= line_d;
      line_ok_q <= line_ok_d;
      line_grp_q <= line_grp_d;
      rd_addr_q <= rd_addr_d;
      vis_pend_q <= vis_pend_d;
      pass_vis_q <= pass_vis_d;
    end
  end
  assign outstanding_o = outst_q;

  // ---- outputs -------------------------------------------------------------------------------
  always_comb begin
    sb_desc_o.st         = state_i;
    sb_desc_o.strip      = strip_q;
    sb_desc_o.patch      = patch_q;
    sb_desc_o.pkind      = pkind_q;
    sb_desc_o.tf_addr    = tf_q;
    sb_desc_o.itype      = itype_q;
    sb_desc_o.vaddr      = vaddr_q;
    sb_desc_o.iaddr      = iaddr_q;
    sb_desc_o.first_prim = first_q;
    sb_desc_o.nprims     = n_q;
    sb_desc_o.draw_id    = draw_id_q;
    sb_desc_o.seq        = seq_q;
    sb_desc_o.last       = last_q;
  end
  for (genvar s = 0; s < NS; s++) begin : gen_sb_valid
    assign sb_valid_o[s] = (state_q == Send) && (32'(pick_q) == s) && ord_ready_i;
  end

  logic draw_bad, draw_empty;
  assign draw_bad   = is_draw && (!topo_ok || !itype_ok);
  assign draw_empty = is_draw && topo_ok && itype_ok && (arg1 < 32'(ncp_in));

  always_comb begin
    ord_valid_o  = 1'b0;
    ord_o        = '0;
    side_valid_o = 1'b0;
    if (state_q == Send) begin
      ord_valid_o = sb_ready_i[pick_q];
      ord_o.kind  = geom_pkg::ORD_SB;
      ord_o.slice = geom_pkg::SLICE_IDX_W'(pick_q);
      ord_o.seq   = seq_q;
      ord_o.last  = last_q;
      ord_o.vbase = pbase_q;
    end else if (state_q == Fin) begin
      ord_valid_o = 1'b1;                       // the draw's completion
      ord_o.kind  = geom_pkg::ORD_DONE;
    end else if (pipe_valid_i && state_q == Idle) begin
      // ready_o already requires room in both FIFOs: valid here means the push happens.
      if ((is_setreg && setreg_mine) || draw_bad || draw_empty) begin
        ord_valid_o = pipe_ready_o;
        ord_o.kind  = geom_pkg::ORD_DONE;
      end else if (!is_draw) begin
        ord_valid_o  = pipe_ready_o;
        side_valid_o = pipe_ready_o;
        ord_o.kind   = geom_pkg::ORD_SIDE;
        ord_o.vis    = (is_begin && vis_write) || (is_end && pass_vis_q);
        ord_o.vbase  = pbase_q;
      end
    end
  end
  assign side_cmd_o = pipe_cmd_i;

  assign set_we_o  = go && is_setreg && setreg_mine;
  assign set_off_o = arg0[11:0];
  assign set_val_o = arg1;

  assign ev_draw_o      = go && is_draw;
  assign ev_bad_topo_o  = go && is_draw && !topo_ok;
  assign ev_bad_itype_o = go && is_draw && !itype_ok;
  assign ev_sb_prims_o  = n_q;
  assign ev_vis_skip_o  = (state_q == Scan && lft != '0 && !need_line && skip) ? skip_n : 6'd0;
  assign vis_rd_valid_o = (state_q == Fetch);
  assign vis_rd_addr_o  = rd_addr_q;
  for (genvar s = 0; s < NS; s++) begin : gen_ev_sb
    assign ev_sb_o[s] = send_go && (32'(pick_q) == s);
  end

  // the coarse grid is the visibility writer's business
  logic unused_vis_cfg;
  assign unused_vis_cfg = ^{vis_cfg_i.w, vis_cfg_i.h, vis_cfg_i.nx, vis_cfg_i.ny};

  `ASSERT_INIT(SlicesFit_A, NUM_SLICES >= 1 && NUM_SLICES <= geom_pkg::MAX_SLICES)
  `ASSERT(SubBatchNonEmpty_A, state_q == Send |-> n_q != '0)
  `ASSERT(PickInRange_A, 32'(pick_q) < NS)
  // a scanned sub-batch never exceeds SUBBATCH nor the draw
  `ASSERT(ScanTakeFits_A, state_q == Scan && !need_line && !skip && lft != '0 |->
          12'(acc_q) + take != '0 && 12'(acc_q) + take <= 12'(sb_size_i))
  `ASSERT(StripsNotScanned_A, test_q |-> !strip_q)
  `ASSERT(NoReadWhileWriting_A, vis_rd_valid_o |-> !vis_pend_q)
  `ASSERT(WriterDoneOnlyWhenPending_A, vis_done_i |-> vis_pend_q)
  for (genvar s = 0; s < NS; s++) begin : gen_outst_chk
    // A slice never finishes more primitives than it was given.
    `ASSERT(OutstandingNoUnderflow_A, prim_done_i[s] |-> outst_q[s*16 +: 16] != 16'd0)
  end

endmodule
