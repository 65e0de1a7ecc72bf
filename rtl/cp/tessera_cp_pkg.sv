// Command processor types shared by the CP and the blocks it commands (ARCHITECTURE.md 5.1).
//
// pipe_cmd_t is the command the firmware sends to the pipeline with CPFW.PIPE_PUSH
// (spec/registers/cpfw.yaml): the packet's opcode (TS_OP_*), the queue, the queue's hardware
// DSID and up to eight argument dwords (the packet's payload; SET_REGS is sent once per
// register as {byte offset, value}). Its layout comes from spec/layouts.yaml (pipe_cmd,
// docs/reference/layouts.md): pipe_cmd_t, PIPE_CMD_W and PIPE_CMD_<F>_LSB / _WIDTH, through the
// generated tessera_cp_pkg_layouts.svh. The receiver (PC_US, or a bench model of it until it
// exists) pulses pipe_done_i once per command, in order, when the command's memory writes are
// all acknowledged: FENCE and DSID_DELETE wait on that count.
package tessera_cp_pkg;

  /* verilator lint_off UNUSEDPARAM */
  `include "tessera_cp_pkg_layouts.svh"
  localparam int unsigned PIPE_ARGS_W = PIPE_CMD_ARGS_WIDTH;  // argument i at [i*32 +: 32]
  localparam int unsigned PIPE_NARGS  = PIPE_ARGS_W / 32;     // 8

  // Core address map (docs/cp.md). The CPFW block base comes from the spec.
  localparam logic [31:0] ROM_BASE     = 32'h0000_0000;
  localparam int unsigned ROM_BYTES    = 16384;
  localparam logic [31:0] DMEM_BASE    = 32'h0001_0000;
  localparam int unsigned DMEM_BYTES   = 16384;
  localparam logic [31:0] REGWIN_BASE  = 32'h0004_0000;   // + GPU register byte offset
  localparam logic [31:0] MEMWIN_BASE  = 32'h8000_0000;   // + GPU byte address

  // Fetch channels: 3 per queue (ring, IB1, IB2).
  localparam int unsigned CH_PER_QUEUE = 3;
  /* verilator lint_on UNUSEDPARAM */

endpackage
