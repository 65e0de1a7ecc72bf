// cp_core_fetch -- instruction fetch unit of cp_core (the command processor's RV32IM core).
//
// Design: docs/cp-core.md, "Fetch". ARCHITECTURE.md 5.1 (CP core, instruction ROM).
//
// Issues word fetches on an ibex-style request/grant/rvalid port and queues the answers in a
// 3-entry fetch buffer (prim_fifo_sync, registered output) that feeds the EX stage.
//   - Requests are pipelined: a new one may be issued every cycle while earlier ones are
//     outstanding, so with a 1-cycle ROM the buffer delivers one instruction per cycle.
//   - Space is reserved before issuing: a request goes out only while
//     (granted-but-unanswered requests + buffered words) < 3, so every answer has a slot and
//     instr_req_o/instr_addr_o depend on flops only (no path from EX or from the port).
//   - Once raised, a request is held with its address until granted (protocol rule), even
//     across a redirect: it is then answered and dropped.
//   - flush_i (taken branch, jump, trap, mret: combinational from EX) marks every request
//     still in flight as to be dropped and sends the next request to flush_addr_i. The buffer
//     is cleared by the registered flush one cycle later: EX pops the redirecting instruction
//     in the flush cycle and the clear (rvalid_o low while clr_i) hides the wrong-path words
//     in the next, before any answer for flush_addr_i can arrive. Clearing in the flush cycle
//     itself would be a combinational loop (rvalid_o -> EX decision -> flush -> clr_i).
//     Answers are in order, so dropping is a counter.
// The buffer is a flop stage between the ROM's output and decode: it costs one cycle of
// taken-branch penalty and keeps the SRAM access time out of the EX stage's path.
// The PC of each instruction is tracked by EX (the architectural PC), not stored here.

`include "prim_assert.svh"

module cp_core_fetch #(
  parameter logic [31:0] BOOT_ADDR = 32'h0000_0000
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // instruction port (ibex-style)
  output logic        instr_req_o,
  output logic [31:0] instr_addr_o,
  input  logic        instr_gnt_i,
  input  logic        instr_rvalid_i,
  input  logic [31:0] instr_rdata_i,
  input  logic        instr_err_i,
  // redirect from EX: drop everything fetched, continue at flush_addr_i
  input  logic        flush_i,
  input  logic [31:0] flush_addr_i,
  // head of the fetch buffer, in program order
  output logic        valid_o,
  output logic [31:0] insn_o,
  output logic        err_o,        // instruction access fault on this word
  input  logic        ready_i       // EX consumes the head this cycle
);

  localparam int unsigned Depth = 3;

  logic [31:0] addr_d, addr_q;             // address of the request being / to be issued
  logic [31:0] redir_addr_d, redir_addr_q; // where to go once a held request is granted
  logic        redir_d, redir_q;           // a redirect is waiting for the held request
  logic        clr_q;                      // flush_i last cycle: clear the buffer now
  logic        pend_d, pend_q;             // request raised and not granted last cycle
  logic [1:0]  out_d, out_q;               // granted, not yet answered (0..3)
  logic [1:0]  drop_d, drop_q;             // of those, how many answers to discard
  logic [1:0]  buf_depth;
  logic [2:0]  inflight;
  logic        accept, rsp_drop, push, buf_wready;
  logic [32:0] buf_rdata;
  logic        unused_full, unused_empty;

  assign inflight     = {1'b0, out_q} + {1'b0, buf_depth};
  assign instr_req_o  = pend_q | (inflight < 3'(Depth));
  assign instr_addr_o = addr_q;
  assign accept       = instr_req_o & instr_gnt_i;
  assign rsp_drop     = instr_rvalid_i & (drop_q != 2'd0);
  assign push         = instr_rvalid_i & ~rsp_drop;
  assign pend_d       = instr_req_o & ~instr_gnt_i;

  always_comb begin
    out_d        = out_q + {1'b0, accept} - {1'b0, instr_rvalid_i};
    addr_d       = addr_q;
    redir_d      = redir_q;
    redir_addr_d = redir_addr_q;
    drop_d       = drop_q - {1'b0, rsp_drop} + {1'b0, accept & redir_q};
    if (flush_i) begin
      // Everything still in flight after this cycle (including a grant now) is wrong-path.
      drop_d = out_d;
      if (instr_req_o && !instr_gnt_i) begin
        // The raised request must stay as it is until granted; redirect after that.
        redir_d      = 1'b1;
        redir_addr_d = flush_addr_i;
      end else begin
        redir_d = 1'b0;
        addr_d  = flush_addr_i;
      end
    end else if (accept) begin
      addr_d  = redir_q ? redir_addr_q : addr_q + 32'd4;
      redir_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      addr_q       <= BOOT_ADDR;
      redir_addr_q <= 32'h0;
      redir_q      <= 1'b0;
      pend_q       <= 1'b0;
      out_q        <= 2'd0;
      drop_q       <= 2'd0;
      clr_q        <= 1'b0;
    end else begin
      addr_q       <= addr_d;
      redir_addr_q <= redir_addr_d;
      redir_q      <= redir_d;
      pend_q       <= pend_d;
      out_q        <= out_d;
      drop_q       <= drop_d;
      clr_q        <= flush_i;
    end
  end

  prim_fifo_sync #(
    .WIDTH       (33),
    .DEPTH       (Depth),
    .FALL_THROUGH(0)
  ) u_buf (
    .clk_i,
    .rst_ni,
    .clr_i   (clr_q),
    .wvalid_i(push),
    .wready_o(buf_wready),
    .wdata_i ({instr_err_i, instr_rdata_i}),
    .rvalid_o(valid_o),
    .rready_i(ready_i),
    .rdata_o (buf_rdata),
    .full_o  (unused_full),
    .empty_o (unused_empty),
    .depth_o (buf_depth)
  );

  assign err_o  = buf_rdata[32];
  assign insn_o = buf_rdata[31:0];

  // Protocol and bookkeeping invariants.
  `ASSERT(InstrReqHeld_A, instr_req_o && !instr_gnt_i |=> instr_req_o && $stable(instr_addr_o))
  `ASSERT(InstrRvalidExpected_A, instr_rvalid_i |-> out_q != 2'd0)
  `ASSERT(DropWithinOutstanding_A, drop_q <= out_q)
  `ASSERT(OutstandingBounded_A, accept |-> out_q != 2'd3)
  `ASSERT(BufferNeverOverflows_A, push && !clr_q |-> buf_wready)
  `ASSERT(NoAnswerBeforeClear_A, clr_q |-> !push)
  `ASSERT(FetchAddrAligned_A, instr_addr_o[1:0] == 2'b00)
  `ASSERT_KNOWN(InstrReqKnown_A, instr_req_o)

endmodule
