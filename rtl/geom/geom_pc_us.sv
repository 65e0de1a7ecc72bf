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
  output logic [geom_pkg::SB_SIZE_W-1:0]     ev_sb_prims_o
);

  localparam int unsigned NS = NUM_SLICES;
  localparam int unsigned SW = (NS > 1) ? $clog2(NS) : 1;
  localparam int unsigned SBW = geom_pkg::SB_SIZE_W;

  typedef enum logic [1:0] {Idle, Pick, Send} state_e;
  state_e state_d, state_q;

  // ---- command decode ----------------------------------------------------------------------
  logic [31:0] arg0, arg1, arg2, arg3, arg4;
  assign arg0 = pipe_cmd_i.args[0 +: 32];
  assign arg1 = pipe_cmd_i.args[32 +: 32];
  assign arg2 = pipe_cmd_i.args[64 +: 32];
  assign arg3 = pipe_cmd_i.args[96 +: 32];
  assign arg4 = pipe_cmd_i.args[128 +: 32];

  logic is_draw, is_setreg, setreg_mine;
  logic [2:0] topo;
  logic [1:0] itype;
  logic topo_ok, itype_ok, strip_in, patch_in;
  logic [2:0] ncp_in;   // vertices per primitive: list 3, quad patch 4, triangle 3, isoline 2
  assign is_draw   = (pipe_cmd_i.opcode == tessera_spec_pkg::TS_OP_DRAW);
  assign is_setreg = (pipe_cmd_i.opcode == tessera_spec_pkg::TS_OP_SET_REGS);
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
  logic go;
  assign pipe_ready_o = (state_q == Idle) && ord_ready_i && side_ready_i;
  assign go = pipe_valid_i && pipe_ready_o;

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
    unique case (state_q)
      Idle: begin
        if (go && is_draw) begin
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
          if (topo_ok && itype_ok && arg1 >= 32'(ncp_in)) state_d = Pick;
        end
      end
      Pick: begin
        pick_d  = policy_ll_i ? ll_pick : rr_pick;
        n_d     = n_next;
        last_d  = last_next;
        state_d = Send;
      end
      Send: begin
        if (send_go) begin
          rr_d    = (32'(pick_q) == NS - 1) ? '0 : pick_q + SW'(1);
          seq_d   = seq_q + 16'd1;
          first_d = first_q + 32'(n_q);
          rem_d   = strip_q ? rem_q - 32'(n_q) : rem_q - 32'(n_q) * 32'(ncp_q);
          state_d = last_q ? Idle : Pick;
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
    end else if (pipe_valid_i && state_q == Idle) begin
      // ready_o already requires room in both FIFOs: valid here means the push happens.
      if ((is_setreg && setreg_mine) || draw_bad || draw_empty) begin
        ord_valid_o = pipe_ready_o;
        ord_o.kind  = geom_pkg::ORD_DONE;
      end else if (!is_draw) begin
        ord_valid_o  = pipe_ready_o;
        side_valid_o = pipe_ready_o;
        ord_o.kind   = geom_pkg::ORD_SIDE;
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
  for (genvar s = 0; s < NS; s++) begin : gen_ev_sb
    assign ev_sb_o[s] = send_go && (32'(pick_q) == s);
  end

  `ASSERT_INIT(SlicesFit_A, NUM_SLICES >= 1 && NUM_SLICES <= geom_pkg::MAX_SLICES)
  `ASSERT(SubBatchNonEmpty_A, state_q == Send |-> n_q != '0)
  `ASSERT(PickInRange_A, 32'(pick_q) < NS)
  for (genvar s = 0; s < NS; s++) begin : gen_outst_chk
    // A slice never finishes more primitives than it was given.
    `ASSERT(OutstandingNoUnderflow_A, prim_done_i[s] |-> outst_q[s*16 +: 16] != 16'd0)
  end

endmodule
