// geom_line_stream -- in-order element reader over 64-byte lines with out-of-order memory
// responses: the fetch engine of VFD (one for indices, one for vertices).
//
// Source: 001_3630ef805e8956e2.txt; the VFD's index and vertex fetch of ARCHITECTURE.md 5.3
// ("VFD (index and vertex fetch)"), through the slice's memory client (docs/memory-protocol.md).
//
// Elements enter in order {addr, nofetch, flush, sideband}; each leaves in the same order with
// the 16-byte chunk of its line that holds addr (addr[5:4]) and addr[3:0]. nofetch elements
// (non-indexed draws, end-of-sub-batch tokens) pass without a memory access.
// - An element whose line is the line of the newest slot is served from that slot (no new
//   request): sequential vertices and indices cost one read per line. flush (end of a
//   sub-batch) forgets the newest line, so a later sub-batch or draw re-reads memory.
// - Otherwise a slot is allocated (ring order) and a READ with tag {TAG_ID, slot} queued;
//   up to SLOTS lines are in flight or held. The response fills the slot, whatever its order.
// - Slots are freed in ring order: when the first element of slot s+1 leaves, slot s is done.
// Throughput one element per clock while lines arrive in time. mem_rsp is always accepted
// (every response has its slot reserved).

`include "prim_assert.svh"

module geom_line_stream #(
  parameter int unsigned SLOTS    = 4,    // power of two, >= 2
  parameter int unsigned SB_W     = 8,    // sideband bits
  parameter int unsigned EL_DEPTH = 8,    // elements between accept and output
  parameter int unsigned TAG_ID   = 0,    // this stream's tag bit (tag[7])
  // Derived
  localparam int unsigned SlotW = $clog2(SLOTS)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // elements in
  input  logic               in_valid_i,
  output logic               in_ready_o,
  input  logic [31:0]        in_addr_i,
  input  logic               in_nofetch_i,
  input  logic               in_flush_i,
  input  logic [SB_W-1:0]    in_sb_i,
  // elements out
  output logic               out_valid_o,
  input  logic               out_ready_i,
  output logic [127:0]       out_chunk_o,
  output logic [3:0]         out_lo_o,
  output logic [SB_W-1:0]    out_sb_o,
  // line reads (tag = {TAG_ID, 0.., slot})
  output logic               req_valid_o,
  input  logic               req_ready_i,
  output logic [31:0]        req_addr_o,
  output logic [7:0]         req_tag_o,
  input  logic               rsp_valid_i,    // a response for this stream
  input  logic [7:0]         rsp_tag_i,
  input  logic [511:0]       rsp_data_i
);

  localparam int unsigned ElW = SB_W + 1 + 1 + SlotW + 6;  // sb, nofetch, first, slot, addr[5:0]
  localparam int unsigned CntW = $clog2(SLOTS + 1);

  // ---- slot ring -----------------------------------------------------------------------------
  logic [SlotW-1:0] alloc_q, alloc_d, tail_q, tail_d;
  logic [CntW-1:0]  used_q, used_d;
  logic [25:0]      newest_line_q, newest_line_d;
  logic             newest_ok_q, newest_ok_d;     // newest slot's line may be reused
  logic             held_q, held_d;               // some slot is being read by the output
  logic [SLOTS-1:0] filled_q, filled_d;
  logic [SLOTS*512-1:0] data_q;

  logic hit, need_alloc, can_alloc, el_wready, req_wready, accept, out_go, free_now;
  assign hit        = newest_ok_q && (newest_line_q == in_addr_i[31:6]);
  assign need_alloc = !in_nofetch_i && !hit;
  assign can_alloc  = (32'(used_q) < SLOTS);
  assign in_ready_o = el_wready && (!need_alloc || (can_alloc && req_wready));
  assign accept     = in_valid_i && in_ready_o;

  // element FIFO
  logic [ElW-1:0] el_wdata, el_rdata;
  logic           el_rvalid;
  logic [SB_W-1:0]  el_sb;
  logic             el_nofetch, el_first;
  logic [SlotW-1:0] el_slot;
  logic [5:0]       el_off;
  assign el_wdata = {in_sb_i, in_nofetch_i, need_alloc, (need_alloc ? alloc_q : alloc_q - SlotW'(1)),
                     in_addr_i[5:0]};
  assign {el_sb, el_nofetch, el_first, el_slot, el_off} = el_rdata;

  logic unused_el_full, unused_el_empty;
  logic [$clog2(EL_DEPTH+1)-1:0] unused_el_depth;
  prim_fifo_sync #(.WIDTH(ElW), .DEPTH(EL_DEPTH), .FALL_THROUGH(0)) u_el (
    .clk_i, .rst_ni, .clr_i(1'b0),
    .wvalid_i(accept), .wready_o(el_wready), .wdata_i(el_wdata),
    .rvalid_o(el_rvalid), .rready_i(out_go), .rdata_o(el_rdata),
    .full_o(unused_el_full), .empty_o(unused_el_empty), .depth_o(unused_el_depth));

  // request FIFO: one entry per allocated slot, so it never refuses an allocation's push
  logic [31:0] req_line;
  logic [SlotW+26-1:0] req_rdata;
  logic [SlotW-1:0] req_slot;
  logic unused_rq_full, unused_rq_empty;
  logic [$clog2(SLOTS+1)-1:0] unused_rq_depth;
  prim_fifo_sync #(.WIDTH(SlotW + 26), .DEPTH(SLOTS), .FALL_THROUGH(0)) u_req (
    .clk_i, .rst_ni, .clr_i(1'b0),
    .wvalid_i(accept && need_alloc), .wready_o(req_wready), .wdata_i({alloc_q, in_addr_i[31:6]}),
    .rvalid_o(req_valid_o), .rready_i(req_ready_i), .rdata_o(req_rdata),
    .full_o(unused_rq_full), .empty_o(unused_rq_empty), .depth_o(unused_rq_depth));
  assign req_slot   = req_rdata[26 +: SlotW];
  assign req_line   = {req_rdata[25:0], 6'b0};
  assign req_addr_o = req_line;
  assign req_tag_o  = {TAG_ID[0], (7 - SlotW)'(0), req_slot};

  // ---- output --------------------------------------------------------------------------------
  // One-hot AND-OR selection of the chunk over (slot, addr[5:4]): no if-chain over the slots
  // and no run-time part select (a barrel shifter in Yosys).
  logic [127:0] chunk;
  logic         slot_filled;
  always_comb begin
    chunk       = '0;
    slot_filled = 1'b0;
    for (int unsigned i = 0; i < SLOTS; i++) begin
      slot_filled |= (32'(el_slot) == i) && filled_q[i];
      for (int unsigned c = 0; c < 4; c++) begin
        chunk |= (32'(el_slot) == i && 32'(el_off[5:4]) == c) ? data_q[i*512 + c*128 +: 128]
                                                               : 128'd0;
      end
    end
  end
  assign out_valid_o = el_rvalid && (el_nofetch || slot_filled);
  assign out_go      = out_valid_o && out_ready_i;
  assign out_chunk_o = el_nofetch ? '0 : chunk;
  assign out_lo_o    = el_off[3:0];
  assign out_sb_o    = el_sb;
  // The first element of a new slot leaving means the slot before it is done.
  assign free_now    = out_go && !el_nofetch && el_first && held_q;

  always_comb begin
    alloc_d       = alloc_q;
    tail_d        = tail_q;
    used_d        = used_q;
    newest_line_d = newest_line_q;
    newest_ok_d   = newest_ok_q;
    held_d        = held_q;
    filled_d      = filled_q;
    if (accept && need_alloc) begin
      alloc_d       = alloc_q + SlotW'(1);
      newest_line_d = in_addr_i[31:6];
      newest_ok_d   = 1'b1;
    end
    if (accept && in_flush_i) newest_ok_d = 1'b0;
    if (rsp_valid_i) filled_d[rsp_tag_i[SlotW-1:0]] = 1'b1;
    if (free_now) begin
      filled_d[tail_q] = 1'b0;
      tail_d = tail_q + SlotW'(1);
    end
    if (out_go && !el_nofetch) held_d = 1'b1;
    used_d = used_q + CntW'(accept && need_alloc) - CntW'(free_now);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      alloc_q       <= '0;
      tail_q        <= '0;
      used_q        <= '0;
      newest_line_q <= '0;
      newest_ok_q   <= 1'b0;
      held_q        <= 1'b0;
      filled_q      <= '0;
    end else begin
      alloc_q       <= alloc_d;
      tail_q        <= tail_d;
      used_q        <= used_d;
      newest_line_q <= newest_line_d;
      newest_ok_q   <= newest_ok_d;
      held_q        <= held_d;
      filled_q      <= filled_d;
    end
  end

  // Line data: written by responses only (not reset; read only while filled).
  for (genvar i = 0; i < SLOTS; i++) begin : gen_slot
    always_ff @(posedge clk_i) begin
      if (rsp_valid_i && rsp_tag_i[SlotW-1:0] == SlotW'(i)) data_q[i*512 +: 512] <= rsp_data_i;
    end
  end

  logic unused_tag;
  assign unused_tag = ^rsp_tag_i[6:SlotW];

  `ASSERT_INIT(SlotsPow2_A, SLOTS >= 2 && (1 << SlotW) == SLOTS && SlotW <= 7)
  // A response arrives only for an allocated slot that is not filled yet.
  `ASSERT(RspForPending_A, rsp_valid_i |-> !filled_q[rsp_tag_i[SlotW-1:0]])
  `ASSERT(RspTagOwn_A, rsp_valid_i |-> rsp_tag_i[7] == TAG_ID[0])
  `ASSERT(UsedInRange_A, 32'(used_q) <= SLOTS)
  `ASSERT(ReqPushFits_A, (accept && need_alloc) |-> req_wready)

endmodule
