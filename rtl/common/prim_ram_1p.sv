// prim_ram_1p -- single-port RAM: one port that either reads or writes each cycle.
//
// Why: THE place where a Tessera single-port memory is modelled (CONVENTIONS.md): a plain
// `logic [WIDTH-1:0] mem [DEPTH]` that Verilator simulates directly and Yosys keeps as a
// memory cell ($mem_v2; the synth flow runs `memory -nomap` and reports its bits). A
// technology port swaps this file for an SRAM macro wrapper with the same ports.
//
// Timing: synchronous. A read (req_i && !we_i) returns mem[addr_i] on rdata_o the next
// cycle, flagged by rvalid_o for that one cycle; rdata_o then holds its value until the
// next read. A write (req_i && we_i) updates the bits whose mask group is set in wmask_i;
// rdata_o is unchanged in a write cycle (single port: no read-during-write).
//
// Write mask: DATA_BITS_PER_MASK bits per wmask_i bit (1 = bit enables, 8 = byte enables,
// WIDTH = one enable for the word, the default). WIDTH must be a multiple of it.
// INIT_FILE, when given, fills the array at time 0 (a ROM image); otherwise contents are not
// reset (Verilator starts them random with --x-initial unique); the
// always_ff that writes the array is the one sanctioned exception to "always_ff holds
// only reset and q <= d": it is how memories are inferred.

`include "prim_assert.svh"

module prim_ram_1p #(
  parameter int unsigned WIDTH              = 32,
  parameter int unsigned DEPTH              = 64,
  parameter int unsigned DATA_BITS_PER_MASK = WIDTH,
  // Optional $readmemh image loaded at time 0 (ROMs: the CP firmware). Untyped: Yosys 0.23
  // takes a string parameter only without the `string` keyword.
  parameter              INIT_FILE          = "",
  // Derived (do not override)
  localparam int unsigned AddrW = (DEPTH > 1) ? $clog2(DEPTH) : 1,
  localparam int unsigned MaskW = WIDTH / DATA_BITS_PER_MASK
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             req_i,
  input  logic             we_i,
  input  logic [AddrW-1:0] addr_i,
  input  logic [WIDTH-1:0] wdata_i,
  input  logic [MaskW-1:0] wmask_i,
  output logic [WIDTH-1:0] rdata_o,
  output logic             rvalid_o
);

  localparam int unsigned Gran = DATA_BITS_PER_MASK;

  logic [WIDTH-1:0] mem [DEPTH];

  if (INIT_FILE != "") begin : g_init
    initial begin
      $readmemh(INIT_FILE, mem);
    end
  end
  logic [WIDTH-1:0] rdata_q;
  logic             rvalid_d, rvalid_q;

  // The write enable and the mask bit in one condition, not an `if` around the loop: Yosys
  // 0.23's proc_mux expands every mask group's write over the nested decision tree, which took
  // 28 s for a 512-bit line with byte enables (one process per group is as fast in Yosys, but
  // 40 % slower in Verilator).
  always_ff @(posedge clk_i) begin
    for (int unsigned m = 0; m < MaskW; m++) begin
      if (req_i && we_i && wmask_i[m]) begin
        mem[addr_i][m*Gran +: Gran] <= wdata_i[m*Gran +: Gran];
      end
    end
  end

  // Registered read; no reset on the data (a RAM output is not reset).
  always_ff @(posedge clk_i) begin
    if (req_i && !we_i) begin
      rdata_q <= mem[addr_i];
    end
  end

  assign rvalid_d = req_i && !we_i;
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
  `ASSERT(AddrInRange_A, req_i |-> 32'(addr_i) < DEPTH)

endmodule
