// slc_regs -- the SLC's register block on the internal register bus, and its command queue.
//
// Source: spec/registers/slc.yaml (every offset, field and reset used here comes from the
// generated tessera_spec_pkg::TS_SLC_* constants); ARCHITECTURE.md section 5.5 ("Control
// reachable through registers"); source document 002_b7e5b877a4121c28.txt (Apple, DSID cache
// management): the delete command that "notif[ies] the memory cache to delete data stored
// within the cache line without flushing to memory" arrives here as CMD.op = DELETE.
//
// Decode, storage, resets and errors are the generated register top's (slc_reg_top, from
// spec/registers/slc.yaml; docs/spec-generator.md "Register tops"): ready whenever no
// response is pending, each response one cycle after its request, err = 1 for an offset
// outside the block or not mapped, a misaligned address, a write to a read-only register, and
// a CMD write that found the command queue full (CMD is `write_error`: the command is dropped
// and STATUS.cmd_dropped set here). An err write changes nothing else. What stays here is the
// SLC's side of the registers: the command queue, the command counts and the values read.
//
// Commands go into a prim_fifo_sync (CMD_DEPTH entries of {op, dsid}); the SLC core reads the
// head (cmd_valid_o, cmd_op_o, cmd_dsid_o) and pops it when the command has completed
// (cmd_done_i), which also sets STATUS.done and counts CMD_COUNT.completed.

`include "prim_assert.svh"

module slc_regs #(
  parameter int unsigned WAYS            = 8,
  parameter int unsigned SET_W           = 8,
  parameter int unsigned NUM_MSHR        = 4,
  parameter int unsigned NUM_WB          = 4,
  parameter int unsigned CMD_DEPTH       = 4,
  parameter int unsigned NUM_CNT         = 16,
  parameter logic [31:0] MEM_LIMIT_RESET = 32'h0
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  // register bus
  input  logic                                reg_req_valid_i,
  output logic                                reg_req_ready_o,
  input  tessera_regbus_pkg::reg_req_t        reg_req_i,
  output logic                                reg_rsp_valid_o,
  output tessera_regbus_pkg::reg_rsp_t        reg_rsp_o,
  // command queue head, towards the SLC core
  output logic                                cmd_valid_o,
  output logic [1:0]                          cmd_op_o,        // tessera_spec_pkg::ts_slc_cmd_e
  output logic [tessera_mem_pkg::DSID_W-1:0]  cmd_dsid_o,
  input  logic                                cmd_done_i,      // pops the head
  // status from the core
  input  logic                                init_busy_i,     // tag arrays being initialised
  input  logic [1:0]                          running_i,       // ts_slc_cmd_e; NONE when idle
  input  logic [15:0]                         occ_i,           // occupancy of occ_sel_o
  input  logic [15:0]                         valid_lines_i,
  input  logic [15:0]                         dirty_lines_i,
  input  logic [NUM_CNT*32-1:0]               counters_i,      // counter i at [i*32 +: 32]
  // configuration towards the core
  output logic [31:0]                         mem_limit_o,
  output logic [7:0]                          way_limit_o,     // WAY_LIMIT.ways (0 = all)
  output logic [tessera_mem_pkg::DSID_W-1:0]  occ_sel_o,
  output logic                                clear_counters_o
);

  localparam int unsigned DW = tessera_mem_pkg::DSID_W;
  localparam int unsigned CmdW = tessera_spec_pkg::TS_SLC_CMD_OP_WIDTH + DW;
  localparam int unsigned CmdDepthW = (CMD_DEPTH + 1 > 2) ? $clog2(CMD_DEPTH + 1) : 1;
  // Field widths as local names: a width cast needs a plain identifier (Yosys 0.23).
  localparam int unsigned QueuedW = tessera_spec_pkg::TS_SLC_STATUS_QUEUED_WIDTH;
  localparam int unsigned WaysW   = tessera_spec_pkg::TS_SLC_CONFIG_WAYS_WIDTH;
  localparam int unsigned SetsW   = tessera_spec_pkg::TS_SLC_CONFIG_SETS_LOG2_WIDTH;
  localparam int unsigned MshrsW  = tessera_spec_pkg::TS_SLC_CONFIG_MSHRS_WIDTH;
  localparam int unsigned WbsW    = tessera_spec_pkg::TS_SLC_CONFIG_WBS_WIDTH;
  localparam int unsigned OpW     = tessera_spec_pkg::TS_SLC_CMD_OP_WIDTH;
  localparam int unsigned LimitW  = tessera_spec_pkg::TS_SLC_MEM_LIMIT_LIMIT_WIDTH;
  localparam int unsigned LimitLsb = tessera_spec_pkg::TS_SLC_MEM_LIMIT_LIMIT_LSB;
  localparam logic [LimitW-1:0] LimitReset = MEM_LIMIT_RESET[LimitLsb +: LimitW];

  slc_reg_pkg::slc_reg2hw_t reg2hw;
  slc_reg_pkg::slc_hw2reg_t hw2reg;

  slc_reg_top #(
    .MEM_LIMIT_LIMIT_RESET (LimitReset)
  ) u_reg_top (
    .clk_i,
    .rst_ni,
    .reg_req_valid_i,
    .reg_req_ready_o,
    .reg_req_i,
    .reg_rsp_valid_o,
    .reg_rsp_o,
    .reg2hw_o (reg2hw),
    .hw2reg_i (hw2reg)
  );

  // ---- commands ----------------------------------------------------------------------------
  logic                 cmd_push, cmd_wready, cmd_rvalid, cmd_is_op;
  logic [CmdW-1:0]      cmd_wdata, cmd_rdata;
  logic [CmdDepthW-1:0] cmd_depth;
  logic                 unused_cmd_full, unused_cmd_empty;
  logic [15:0]          issued_d, issued_q, completed_d, completed_q;

  // A CMD write with an op is refused (werr) while the queue is full; a NONE write only
  // clears the counters and is never refused.
  assign cmd_is_op        = reg2hw.cmd.op != tessera_spec_pkg::TS_SLC_CMD_NONE;
  assign cmd_push         = reg2hw.cmd.qe && cmd_is_op && cmd_wready;
  assign clear_counters_o = reg2hw.cmd.qe && reg2hw.cmd.clear_counters;
  assign issued_d         = issued_q + (cmd_push ? 16'd1 : 16'd0);
  assign completed_d      = completed_q + (cmd_done_i ? 16'd1 : 16'd0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      issued_q    <= '0;
      completed_q <= '0;
    end else begin
      issued_q    <= issued_d;
      completed_q <= completed_d;
    end
  end

  // ---- values the register top reads -------------------------------------------------------
  always_comb begin
    hw2reg = '0;
    hw2reg.cmd.werr               = cmd_is_op && !cmd_wready;
    hw2reg.status.busy            = init_busy_i || cmd_rvalid ||
                                    (running_i != tessera_spec_pkg::TS_SLC_CMD_NONE);
    hw2reg.status.done_set        = cmd_done_i;
    hw2reg.status.cmd_dropped_set = reg2hw.cmd.qe && cmd_is_op && !cmd_wready;
    hw2reg.status.queued          = QueuedW'(cmd_depth);
    hw2reg.status.running         = running_i;
    hw2reg.cmd_count.issued       = issued_q;
    hw2reg.cmd_count.completed    = completed_q;
    hw2reg.occ.lines              = occ_i;
    hw2reg.lines.valid            = valid_lines_i;
    hw2reg.lines.dirty            = dirty_lines_i;
    hw2reg.config_r.ways          = WaysW'(WAYS);
    hw2reg.config_r.sets_log2     = SetsW'(SET_W);
    hw2reg.config_r.mshrs         = MshrsW'(NUM_MSHR);
    hw2reg.config_r.wbs           = WbsW'(NUM_WB);
    // the statistics counters, in register order CNT_READS .. CNT_MEM_ERRORS
    hw2reg.cnt_reads.value           = counters_i[0*32 +: 32];
    hw2reg.cnt_writes.value          = counters_i[1*32 +: 32];
    hw2reg.cnt_prefetches.value      = counters_i[2*32 +: 32];
    hw2reg.cnt_hits.value            = counters_i[3*32 +: 32];
    hw2reg.cnt_misses.value          = counters_i[4*32 +: 32];
    hw2reg.cnt_evictions.value       = counters_i[5*32 +: 32];
    hw2reg.cnt_writebacks.value      = counters_i[6*32 +: 32];
    hw2reg.cnt_fills.value           = counters_i[7*32 +: 32];
    hw2reg.cnt_deleted_dirty.value   = counters_i[8*32 +: 32];
    hw2reg.cnt_deleted_clean.value   = counters_i[9*32 +: 32];
    hw2reg.cnt_prefetch_fills.value  = counters_i[10*32 +: 32];
    hw2reg.cnt_prefetch_used.value   = counters_i[11*32 +: 32];
    hw2reg.cnt_prefetch_unused.value = counters_i[12*32 +: 32];
    hw2reg.cnt_errors.value          = counters_i[13*32 +: 32];
    hw2reg.cnt_inval_dirty.value     = counters_i[14*32 +: 32];
    hw2reg.cnt_prefetch_dropped.value = counters_i[16*32 +: 32];
    hw2reg.cnt_mem_errors.value      = counters_i[15*32 +: 32];
  end

  assign mem_limit_o = {reg2hw.mem_limit.limit, LimitLsb'(0)};
  assign way_limit_o = reg2hw.way_limit.ways;
  assign occ_sel_o   = reg2hw.occ_sel.dsid;

  // The sticky status bits live in the register top; the SLC does not read them back.
  logic unused_status;
  assign unused_status = ^reg2hw.status;

  // ---- command queue -----------------------------------------------------------------------
  assign cmd_wdata = {reg2hw.cmd.op, reg2hw.cmd.dsid};

  prim_fifo_sync #(
    .WIDTH        (CmdW),
    .DEPTH        (CMD_DEPTH),
    .FALL_THROUGH (0)
  ) u_cmd_fifo (
    .clk_i,
    .rst_ni,
    .clr_i    (1'b0),
    .wvalid_i (cmd_push),
    .wready_o (cmd_wready),
    .wdata_i  (cmd_wdata),
    .rvalid_o (cmd_rvalid),
    .rready_i (cmd_done_i),
    .rdata_o  (cmd_rdata),
    .full_o   (unused_cmd_full),
    .empty_o  (unused_cmd_empty),
    .depth_o  (cmd_depth)
  );

  assign cmd_valid_o = cmd_rvalid;
  assign cmd_op_o    = cmd_rdata[DW +: OpW];
  assign cmd_dsid_o  = cmd_rdata[DW-1:0];

  // ---- assertions --------------------------------------------------------------------------
  `ASSERT_INIT(CmdDepthFits_A, CMD_DEPTH >= 1 && CMD_DEPTH < (1 << tessera_spec_pkg::TS_SLC_STATUS_QUEUED_WIDTH))
  `ASSERT_INIT(CounterSpan_A, NUM_CNT == (tessera_spec_pkg::TS_SLC_CNT_PREFETCH_DROPPED_OFFSET
                                          - tessera_spec_pkg::TS_SLC_CNT_READS_OFFSET) / 4 + 1)
  `ASSERT_INIT(DsidFits_A, DW == tessera_spec_pkg::TS_SLC_CMD_DSID_WIDTH &&
                           DW == tessera_spec_pkg::TS_SLC_OCC_SEL_DSID_WIDTH)
  // The core only completes a command it has been given.
  `ASSERT(DoneHasCmd_A, cmd_done_i |-> cmd_rvalid)
  // Queued commands are real commands (NONE is never queued).
  `ASSERT(QueuedIsCmd_A, cmd_rvalid |-> cmd_op_o != tessera_spec_pkg::TS_SLC_CMD_NONE)

endmodule
