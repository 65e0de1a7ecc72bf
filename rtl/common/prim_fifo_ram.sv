// prim_fifo_ram -- a deep valid/ready FIFO kept in prim_ram_2p, cycle for cycle the same at
// its ports as prim_fifo_sync with FALL_THROUGH = 0: the same ports, rvalid_o the cycle after
// the first write, one word per clock, wready_o = !full_o && !clr_i (never looking at
// rready_i), clr_i a synchronous flush with no transfer in its cycle. bench_prim_fifo checks
// it against prim_fifo_sync's own reference model.
//
// Why: prim_fifo_sync keeps its words in flops behind a DEPTH-way read mux; at 32 entries
// that is ~2k flops and a 32-deep mux chain per FIFO (prim_fifo_sync's header: "a deep FIFO
// should be built around prim_ram_2p instead"). Here the words sit in a memory cell and only
// the head is in flops. Used by the geometry's mask and order FIFOs and by VPCBE_S's triangle
// buffer (issue 16: a slice takes the next batch's triangles while it renders).
//
// Structure: elements in age order are H (bypass register), R (the RAM's read register) and
// the RAM. A write goes straight to H when nothing else would be left in the FIFO after this
// cycle's pop, so a word written into an empty FIFO is at the head the next cycle, as in
// prim_fifo_sync; otherwise it goes to the RAM. The RAM is read whenever it holds a word and
// R is free or being popped, so R is refilled in time for a pop every clock. The head is H
// when H holds a word, else R. Invariant: the FIFO holds a word => H or R holds one (a word
// enters the RAM only behind H or R, and R is refilled the cycle it empties).

`include "prim_assert.svh"

module prim_fifo_ram #(
  parameter int unsigned WIDTH = 16,
  parameter int unsigned DEPTH = 32,    // >= 2
  // Derived (do not override)
  localparam int unsigned CntW = $clog2(DEPTH + 1),
  localparam int unsigned PtrW = (DEPTH > 1) ? $clog2(DEPTH) : 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clr_i,
  // write side
  input  logic             wvalid_i,
  output logic             wready_o,
  input  logic [WIDTH-1:0] wdata_i,
  // read side
  output logic             rvalid_o,
  input  logic             rready_i,
  output logic [WIDTH-1:0] rdata_o,
  // status
  output logic             full_o,
  output logic             empty_o,
  output logic [CntW-1:0]  depth_o      // words held, 0..DEPTH
);

  localparam logic [PtrW-1:0] PtrLast = PtrW'(DEPTH - 1);

  logic             h_valid_q, h_valid_d, r_valid_q, r_valid_d;
  logic [WIDTH-1:0] h_q;
  logic [CntW-1:0]  cnt_q, cnt_d;          // all words: H + R + RAM
  logic [CntW-1:0]  ram_cnt_q, ram_cnt_d;  // words in the RAM (a word being read still counts)
  logic [PtrW-1:0]  wptr_q, wptr_d, rptr_q, rptr_d;
  logic [WIDTH-1:0] ram_rdata;
  logic             unused_ram_rvalid;

  logic push, pop, pop_h, pop_r, bypass, ram_we, ram_re, head_valid;
  assign head_valid = h_valid_q || r_valid_q;
  assign full_o   = (32'(cnt_q) == DEPTH);
  assign empty_o  = (cnt_q == '0);
  assign wready_o = !full_o && !clr_i;
  assign rvalid_o = head_valid && !clr_i;
  assign rdata_o  = h_valid_q ? h_q : ram_rdata;
  assign push     = wvalid_i && wready_o;
  assign pop      = rvalid_o && rready_i;
  assign pop_h    = pop && h_valid_q;
  assign pop_r    = pop && !h_valid_q;
  // nothing else left after this cycle's pop: the new word becomes the head directly
  assign bypass   = push && (cnt_q == CntW'(pop));
  assign ram_we   = push && !bypass;
  assign ram_re   = !clr_i && (ram_cnt_q != '0) && (!r_valid_q || pop_r);

  always_comb begin
    h_valid_d = h_valid_q;
    if (pop_h) h_valid_d = 1'b0;
    if (bypass) h_valid_d = 1'b1;
    r_valid_d = r_valid_q;
    if (pop_r) r_valid_d = 1'b0;
    if (ram_re) r_valid_d = 1'b1;
    wptr_d    = ram_we ? ((wptr_q == PtrLast) ? '0 : wptr_q + PtrW'(1)) : wptr_q;
    rptr_d    = ram_re ? ((rptr_q == PtrLast) ? '0 : rptr_q + PtrW'(1)) : rptr_q;
    ram_cnt_d = ram_cnt_q + CntW'(ram_we) - CntW'(ram_re);
    cnt_d     = cnt_q + CntW'(push) - CntW'(pop);
    if (clr_i) begin
      h_valid_d = 1'b0;
      r_valid_d = 1'b0;
      wptr_d    = '0;
      rptr_d    = '0;
      ram_cnt_d = '0;
      cnt_d     = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      h_valid_q <= 1'b0;
      r_valid_q <= 1'b0;
      wptr_q    <= '0;
      rptr_q    <= '0;
      ram_cnt_q <= '0;
      cnt_q     <= '0;
    end else begin
      h_valid_q <= h_valid_d;
      r_valid_q <= r_valid_d;
      wptr_q    <= wptr_d;
      rptr_q    <= rptr_d;
      ram_cnt_q <= ram_cnt_d;
      cnt_q     <= cnt_d;
    end
  end
  // Head data: not reset (read only while h_valid_q).
  always_ff @(posedge clk_i) begin
    if (bypass) h_q <= wdata_i;
  end

  prim_ram_2p #(.WIDTH(WIDTH), .DEPTH(DEPTH)) u_ram (
    .clk_i, .rst_ni,
    .we_i(ram_we), .waddr_i(wptr_q), .wdata_i(wdata_i), .wmask_i(1'b1),
    .re_i(ram_re), .raddr_i(rptr_q), .rdata_o(ram_rdata), .rvalid_o(unused_ram_rvalid));

  assign depth_o = cnt_q;

  `ASSERT_INIT(DepthMin_A, DEPTH >= 2)
  `ASSERT(CountInRange_A, 32'(cnt_q) <= DEPTH)
  `ASSERT(CountsAgree_A, cnt_q == CntW'(h_valid_q) + CntW'(r_valid_q) + ram_cnt_q)
  // The head is never missing while the FIFO holds a word (no bubble compared with
  // prim_fifo_sync).
  `ASSERT(HeadPresent_A, (cnt_q != '0) == head_valid)
  // A word bypasses to H only when no older word would stay behind in R or the RAM.
  `ASSERT(BypassOnlyWhenAlone_A, bypass |-> !(r_valid_q && !pop_r) && (ram_cnt_q == '0))
  `ASSERT(ReadStable_A, rvalid_o && !rready_i && !clr_i |=>
          clr_i || (rvalid_o && $stable(rdata_o)))
  `ASSERT_NEVER(PushWhenFull_A, push && full_o)
  `ASSERT_KNOWN_IF(RdataKnown_A, rdata_o, rvalid_o)

endmodule
