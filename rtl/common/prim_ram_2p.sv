// prim_ram_2p -- simple dual-port RAM: one write port and one read port, one clock.
//
// Why: THE place where a Tessera two-port memory (FIFOs, tag/data arrays that read and
// fill in the same cycle) is modelled: a plain `logic [WIDTH-1:0] mem [DEPTH]`, simulated
// as is by Verilator and kept by Yosys as a memory cell ($mem_v2, `memory -nomap`).
// It is 1R1W, not true dual port: one port only writes, the other only reads, which is what
// SRAM compilers offer cheaply.
//
// Timing: synchronous. A read (re_i) returns mem[raddr_i] on rdata_o the next cycle,
// flagged by rvalid_o for that one cycle; rdata_o holds its value until the next read.
// A write (we_i) updates the bits whose mask group is set in wmask_i.
// Read during write to the same address in the same cycle: rdata_o returns the OLD
// contents (read-first); the new data is seen by a read in a later cycle. Yosys models the
// read port as non-transparent accordingly.
//
// Write mask: DATA_BITS_PER_MASK bits per wmask_i bit (1 = bit enables, 8 = byte enables,
// WIDTH = one enable for the word, the default). WIDTH must be a multiple of it.
// Contents are not reset; the array-writing always_ff is the sanctioned memory exception to
// "always_ff holds only reset and q <= d".

`include "prim_assert.svh"

module prim_ram_2p #(
  parameter int unsigned WIDTH              = 32,
  parameter int unsigned DEPTH              = 64,
  parameter int unsigned DATA_BITS_PER_MASK = WIDTH,
  // Derived (do not override)
  localparam int unsigned AddrW = (DEPTH > 1) ? $clog2(DEPTH) : 1,
  localparam int unsigned MaskW = WIDTH / DATA_BITS_PER_MASK
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // write port
  input  logic             we_i,
  input  logic [AddrW-1:0] waddr_i,
  input  logic [WIDTH-1:0] wdata_i,
  input  logic [MaskW-1:0] wmask_i,
  // read port
  input  logic             re_i,
  input  logic [AddrW-1:0] raddr_i,
  output logic [WIDTH-1:0] rdata_o,
  output logic             rvalid_o
);

  localparam int unsigned Gran = DATA_BITS_PER_MASK;

  logic [WIDTH-1:0] mem [DEPTH];
  logic [WIDTH-1:0] rdata_q;
  logic             rvalid_d, rvalid_q;

  // The write enable and the mask bit in one condition (prim_ram_1p says why).
  always_ff @(posedge clk_i) begin
    for (int unsigned m = 0; m < MaskW; m++) begin
      if (we_i && wmask_i[m]) begin
        mem[waddr_i][m*Gran +: Gran] <= wdata_i[m*Gran +: Gran];
      end
    end
  end

  // Registered read of the old contents (non-blocking write above: read-first).
  always_ff @(posedge clk_i) begin
    if (re_i) begin
      rdata_q <= mem[raddr_i];
    end
  end

  assign rvalid_d = re_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rvalid_q <= 1'b0;
    end else begin
      rvalid_q <= rvalid_d;
    end
  end

  assign rdata_o  = rdata_q;
  assign rvalid_o = rvalid_q;

  `ASSERT_INIT(DepthMin_A, DEPTH >= 1)
  `ASSERT_INIT(MaskDivides_A, DATA_BITS_PER_MASK >= 1 && (WIDTH % DATA_BITS_PER_MASK) == 0)
  `ASSERT(WaddrInRange_A, we_i |-> 32'(waddr_i) < DEPTH)
  `ASSERT(RaddrInRange_A, re_i |-> 32'(raddr_i) < DEPTH)

endmodule
