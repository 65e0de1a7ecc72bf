// prim_fifo_sync -- synchronous valid/ready FIFO (one clock), any DEPTH >= 1.
//
// Why: every Tessera block decouples its neighbours with the same FIFO, so its corner cases
// (non-power-of-2 depth, fall-through, flush) are written and verified once. Modelled on
// lowRISC prim_fifo_sync and PULP fifo_v3.
//
// Behaviour
//   - Write side: a word is accepted when wvalid_i && wready_o. wready_o = !full_o && !clr_i;
//     it does not depend on rready_i (no combinational path read -> write side), so a full
//     FIFO accepts again the cycle after a read.
//   - Read side: rdata_o is valid when rvalid_o; it is consumed when rvalid_o && rready_i.
//     FALL_THROUGH = 0: rvalid_o/rdata_o come from flops (latency 1 cycle).
//     FALL_THROUGH = 1: when the FIFO is empty, wvalid_i/wdata_i pass straight to
//     rvalid_o/rdata_o in the same cycle (latency 0); if the reader takes the word in that
//     cycle it is never stored.
//   - clr_i: synchronous flush. In a cycle with clr_i high no transfer happens on either side
//     (wready_o = rvalid_o = 0) and the FIFO is empty the next cycle.
//   - depth_o: words held (0..DEPTH); full_o = (depth_o == DEPTH), empty_o = (depth_o == 0).
//     In fall-through mode a word passing through an empty FIFO is not counted.
//
// Storage: DEPTH x WIDTH flops in a packed array, not prim_ram_*. FIFOs here are shallow
// (1..16 entries) decoupling buffers; flops give a same-cycle fall-through read and no RAM
// read latency. A deep FIFO should be built around prim_ram_2p instead. The storage flops are
// not reset (area): rdata_o is only meaningful while rvalid_o is high.

`include "prim_assert.svh"

module prim_fifo_sync #(
  parameter int unsigned WIDTH        = 16,
  parameter int unsigned DEPTH        = 4,
  parameter int unsigned FALL_THROUGH = 0,  // 0 or 1 (int so that -G/chparam take a plain 1)
  // Derived (do not override): width of depth_o.
  localparam int unsigned DepthW = (DEPTH + 1 > 2) ? $clog2(DEPTH + 1) : 1
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              clr_i,
  // write side
  input  logic              wvalid_i,
  output logic              wready_o,
  input  logic [WIDTH-1:0]  wdata_i,
  // read side
  output logic              rvalid_o,
  input  logic              rready_i,
  output logic [WIDTH-1:0]  rdata_o,
  // status
  output logic              full_o,
  output logic              empty_o,
  output logic [DepthW-1:0] depth_o
);

  localparam bit          FallThrough = (FALL_THROUGH != 0);
  localparam int unsigned PtrW = (DEPTH > 1) ? $clog2(DEPTH) : 1;
  localparam logic [PtrW-1:0]   PtrLast  = PtrW'(DEPTH - 1);
  localparam logic [DepthW-1:0] DepthMax = DepthW'(DEPTH);

  logic [PtrW-1:0]   wptr_d, wptr_q, rptr_d, rptr_q;
  logic [DepthW-1:0] count_d, count_q;
  // Flat vectors, not multi-dimensional packed arrays: Yosys 0.23 silently drops the outer
  // dimension of a typedef'd packed array (docs/lint-and-synthesis.md).
  logic [DEPTH*WIDTH-1:0] storage_d, storage_q;  // entry i at [i*WIDTH +: WIDTH]
  logic [WIDTH-1:0]       storage_rdata;

  logic full, empty, passthru, push, pop;

  assign full  = (count_q == DepthMax);
  assign empty = (count_q == '0);

  // A word goes straight through only in fall-through mode, when nothing is stored and the
  // reader takes it this cycle.
  assign passthru = FallThrough && empty && wvalid_i && rready_i && !clr_i;

  assign wready_o = !full && !clr_i;
  assign push     = wvalid_i && wready_o && !passthru;

  // Read mux and write decode with constant slices (DEPTH need not be a power of 2).
  always_comb begin
    storage_rdata = '0;
    for (int unsigned i = 0; i < DEPTH; i++) begin
      if (rptr_q == PtrW'(i)) begin
        storage_rdata = storage_q[i*WIDTH +: WIDTH];
      end
    end
  end

  always_comb begin
    if (FallThrough && empty) begin
      rvalid_o = wvalid_i && !clr_i;
      rdata_o  = wdata_i;
    end else begin
      rvalid_o = !empty && !clr_i;
      rdata_o  = storage_rdata;
    end
  end

  assign pop = rvalid_o && rready_i && !passthru;

  always_comb begin
    wptr_d    = wptr_q;
    rptr_d    = rptr_q;
    count_d   = count_q;
    storage_d = storage_q;
    if (clr_i) begin
      wptr_d  = '0;
      rptr_d  = '0;
      count_d = '0;
    end else begin
      if (push) begin
        for (int unsigned i = 0; i < DEPTH; i++) begin
          if (wptr_q == PtrW'(i)) begin
            storage_d[i*WIDTH +: WIDTH] = wdata_i;
          end
        end
        wptr_d = (wptr_q == PtrLast) ? '0 : wptr_q + 1'b1;
      end
      if (pop) begin
        rptr_d = (rptr_q == PtrLast) ? '0 : rptr_q + 1'b1;
      end
      unique case ({push, pop})
        2'b10:   count_d = count_q + 1'b1;
        2'b01:   count_d = count_q - 1'b1;
        default: count_d = count_q;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q  <= '0;
      rptr_q  <= '0;
      count_q <= '0;
    end else begin
      wptr_q  <= wptr_d;
      rptr_q  <= rptr_d;
      count_q <= count_d;
    end
  end

  // Data storage: no reset (see header).
  always_ff @(posedge clk_i) begin
    storage_q <= storage_d;
  end

  assign full_o  = full;
  assign empty_o = empty;
  assign depth_o = count_q;

  // ---------------------------------------------------------------------------------------
  // Assertions
  `ASSERT_INIT(DepthMin_A, DEPTH >= 1)
  `ASSERT_INIT(WidthMin_A, WIDTH >= 1)
  `ASSERT_INIT(FallThroughBool_A, FALL_THROUGH <= 1)
  // The count stays within 0..DEPTH: no overflow, no underflow.
  `ASSERT(DepthInRange_A, count_q <= DepthMax)
  `ASSERT_NEVER(PushWhenFull_A, push && full)
  `ASSERT_NEVER(PopWhenEmpty_A, pop && empty)
  `ASSERT(PtrInRange_A, (wptr_q <= PtrLast) && (rptr_q <= PtrLast))
  // Pointers and count agree: when the FIFO is full or empty the pointers meet.
  `ASSERT(PtrCountAgree_A, (empty || full) |-> (wptr_q == rptr_q))
  // What is stored stays put until it is read.
  `ASSERT(ReadStable_A, rvalid_o && !rready_i && !empty && !clr_i |=>
          clr_i || (rvalid_o && $stable(rdata_o)))
  `ASSERT_KNOWN_IF(RdataKnown_A, rdata_o, rvalid_o)

endmodule
