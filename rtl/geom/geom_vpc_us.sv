// geom_vpc_us -- VPC_US, the unsliced vertex parameter cache: restores API order and assigns
// every visible triangle to each slice in its slice-visibility mask.
//
// Source: 001_3630ef805e8956e2.txt (Qualcomm sliced GPU), summary paragraph 3: "each TSEFE_S
// then sends one or more indications of triangle visibility for each of the one or more
// hardware slices to the VPC_US, which assigns triangles visible to each of the one or more
// hardware slices to the corresponding hardware slice based on the one or more indications";
// ARCHITECTURE.md 5.3: "VPC_US consumes the masks in sub-batch order".
//
// The order FIFO (filled by PC_US in command-acceptance order) says what completes next:
//   ORD_SB   drain slice `slice`'s mask FIFO up to the eos of sub-batch `seq`; each triangle
//            is offered to every slice in its mask at once and leaves when all have taken it
//            (per-receiver sent bits, so valid never drops before ready).
//   ORD_DONE complete a command that needs no pipeline work.
//   ORD_SIDE offer the side-FIFO head on the side output; complete it when taken.
// Completions (done_o) are therefore in acceptance order, and a DRAW completes once its last
// triangle has been accepted by every receiving slice's output. One triangle per clock.
//
// Two-level binning (docs/two-level.md): a visibility pass's triangles are also shown to the
// visibility writer (geom_vis_writer) with their pass number (ord_t.vbase + prim_id) and
// coarse box; a triangle is handed out only when the writer can take it (it sweeps a group of
// 512 primitives meanwhile), and the pass's RENDERPASS_END leaves only once the writer has
// written every line, so the lines are in memory (slice 0's CCHE) before the raster slices'
// END writes the caches back.
//
// No deadlock: the triangle at the head is already in its producer's store, receivers read
// stores without going through here, and a slice's store and mask FIFO only hold work of
// sub-batches at or after the one being drained.

`include "prim_assert.svh"

module geom_vpc_us #(
  parameter int unsigned NUM_SLICES = 2
) (
  input  logic                                   clk_i,
  input  logic                                   rst_ni,
  // order FIFO head
  input  logic                                   ord_valid_i,
  output logic                                   ord_ready_o,
  input  geom_pkg::ord_t                         ord_i,
  // mask FIFO heads of the slices
  input  logic [NUM_SLICES-1:0]                  mq_valid_i,
  output logic [NUM_SLICES-1:0]                  mq_ready_o,
  input  logic [NUM_SLICES*geom_pkg::MASK_ENT_W-1:0] mq_i,
  // side FIFO head -> side output
  input  logic                                   sidef_valid_i,
  output logic                                   sidef_ready_o,
  input  tessera_cp_pkg::pipe_cmd_t              sidef_cmd_i,
  output logic                                   side_valid_o,
  input  logic                                   side_ready_i,
  output tessera_cp_pkg::pipe_cmd_t              side_cmd_o,
  // triangles to the receiving slices
  output logic [NUM_SLICES-1:0]                  tri_valid_o,
  input  logic [NUM_SLICES-1:0]                  tri_ready_i,
  output logic [NUM_SLICES*geom_pkg::TRI_W-1:0]  tri_o,
  // the visibility writer
  output logic                                   vis_start_o,
  output logic                                   vis_tri_valid_o,
  output logic [31:0]                            vis_tri_pos_o,
  output geom_pkg::cbox_t                        vis_tri_box_o,
  input  logic                                   vis_tri_ready_i,
  output logic                                   vis_tri_take_o,
  output logic                                   vis_end_valid_o,
  output logic [31:0]                            vis_end_total_o,
  input  logic                                   vis_end_ready_i,
  output logic                                   vis_end_take_o,
  // completion
  output logic                                   done_o,
  output logic [3:0]                             ev_assigned_o
);

  localparam int unsigned NS = NUM_SLICES;
  localparam int unsigned MW = geom_pkg::MASK_ENT_W;

  geom_pkg::mask_ent_t head;
  logic                head_valid;
  always_comb begin
    head       = '0;
    head_valid = 1'b0;
    for (int unsigned s = 0; s < NS; s++) begin
      if (32'(ord_i.slice) == s) begin
        head       = mq_i[s*MW +: MW];
        head_valid = mq_valid_i[s];
      end
    end
  end

  logic is_sb, is_done, is_side, sb_tri, sb_eos;
  assign is_sb   = ord_valid_i && (ord_i.kind == geom_pkg::ORD_SB);
  assign is_done = ord_valid_i && (ord_i.kind == geom_pkg::ORD_DONE);
  assign is_side = ord_valid_i && (ord_i.kind == geom_pkg::ORD_SIDE);
  assign sb_tri  = is_sb && head_valid && !head.eos;
  assign sb_eos  = is_sb && head_valid && head.eos;

  logic [NS-1:0] sent_q, sent_d, want, took, acc;
  logic          tri_all, sb_tri_go;
  // the writer holds a triangle of a later 512-primitive group while it sweeps (its ready
  // depends only on its state and this head, so it never falls once a receiver has taken it)
  assign sb_tri_go = sb_tri && vis_tri_ready_i;
  assign want    = sb_tri_go ? head.mask[NS-1:0] : '0;
  assign tri_valid_o = want & ~sent_q;
  assign took    = tri_valid_o & tri_ready_i;
  assign acc     = sent_q | took;
  assign tri_all = sb_tri_go && ((acc & want) == want);
  assign sent_d  = tri_all ? '0 : (sb_tri_go ? acc : sent_q);

  assign vis_tri_valid_o = sb_tri;
  assign vis_tri_pos_o   = ord_i.vbase + head.prim_id;
  assign vis_tri_box_o   = head.cbox;
  assign vis_tri_take_o  = tri_all;

  geom_pkg::tri_t rec;
  always_comb begin
    rec         = '0;
    rec.src     = ord_i.slice;
    rec.entry   = head.entry;
    rec.mask    = head.mask;
    rec.draw_id = head.draw_id;
    rec.prim_id = head.prim_id;
  end
  for (genvar r = 0; r < NS; r++) begin : gen_tri
    assign tri_o[r*geom_pkg::TRI_W +: geom_pkg::TRI_W] = rec;
  end

  logic vis_end, side_hold;
  assign vis_end   = is_side && ord_i.vis && (sidef_cmd_i.opcode == tessera_spec_pkg::TS_OP_RENDERPASS_END);
  assign side_hold = vis_end && !vis_end_ready_i;
  assign side_valid_o  = is_side && sidef_valid_i && !side_hold;
  assign side_cmd_o    = sidef_cmd_i;
  assign sidef_ready_o = is_side && side_ready_i && !side_hold;

  logic side_go;
  assign side_go = side_valid_o && side_ready_i;
  assign vis_end_valid_o = vis_end && sidef_valid_i;
  assign vis_end_total_o = ord_i.vbase;
  assign vis_end_take_o  = vis_end && side_go;
  assign vis_start_o     = is_side && ord_i.vis && side_go &&
                           (sidef_cmd_i.opcode == tessera_spec_pkg::TS_OP_RENDERPASS_BEGIN);

  for (genvar s = 0; s < NS; s++) begin : gen_mq_ready
    assign mq_ready_o[s] = (32'(ord_i.slice) == s) && (tri_all || sb_eos);
  end
  assign ord_ready_o = is_done || side_go || sb_eos;

  logic done_d, done_q;
  assign done_d = is_done || side_go || (sb_eos && head.prim_id[geom_pkg::SEQ_W]);

  logic [3:0] asg;
  always_comb begin
    asg = '0;
    for (int unsigned r = 0; r < NS; r++) asg = asg + 4'(took[r]);
  end
  assign ev_assigned_o = asg;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sent_q <= '0;
      done_q <= 1'b0;
    end else begin
      sent_q <= sent_d;
      done_q <= done_d;
    end
  end
  assign done_o = done_q;

  logic unused;
  assign unused = ^{head.prim_id[31:geom_pkg::SEQ_W+1]};

  // The eos met is the one of the sub-batch the order FIFO names (sub-batch numbering).
  `ASSERT(EosSeqMatches_A, sb_eos |-> head.prim_id[geom_pkg::SEQ_W-1:0] == ord_i.seq)
  `ASSERT(EosLastMatches_A, sb_eos |-> head.prim_id[geom_pkg::SEQ_W] == ord_i.last)
  `ASSERT(SideHeadPresent_A, is_side |-> sidef_valid_i)
  `ASSERT(SliceInRange_A, is_sb |-> 32'(ord_i.slice) < NS)
  `ASSERT(MaskInRange_A, sb_tri |-> (head.mask >> NS) == '0)

endmodule
