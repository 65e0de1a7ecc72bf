// slc_regs -- the SLC's register block on the internal register bus, and its command queue.
//
// Source: spec/registers/slc.yaml (every offset, field and reset used here comes from the
// generated tessera_spec_pkg::TS_SLC_* constants); ARCHITECTURE.md section 5.5 ("Control
// reachable through registers"); source document 002_b7e5b877a4121c28.txt (Apple, DSID cache
// management): the delete command that "notif[ies] the memory cache to delete data stored
// within the cache line without flushing to memory" arrives here as CMD.op = DELETE.
//
// Register bus (tessera_regbus_pkg): reg_req_ready_o is high whenever no response is
// pending; an accepted request is answered with reg_rsp_valid_o exactly one cycle later.
// err = 1 for an offset outside the block or not mapped, a misaligned address, a write to a
// read-only register, and a CMD write that found the command queue full (the command is
// dropped and STATUS.cmd_dropped set). An err write changes nothing else.
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
  output logic [tessera_mem_pkg::DSID_W-1:0]  occ_sel_o,
  output logic                                clear_counters_o
);

  localparam int unsigned AW = tessera_spec_pkg::TS_SLC_ADDR_WIDTH;
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

  // ---- decode ------------------------------------------------------------------------------
  logic        req_go, is_write, in_block, aligned;
  logic [AW-1:0] off;
  assign reg_req_ready_o = !reg_rsp_valid_o;
  assign req_go   = reg_req_valid_i && reg_req_ready_o;
  assign is_write = reg_req_i.we;
  assign off      = reg_req_i.addr[AW-1:0];
  assign in_block = (32'(reg_req_i.addr) < tessera_spec_pkg::TS_SLC_SIZE);
  assign aligned  = (reg_req_i.addr[1:0] == 2'b00);

  function automatic logic hit(input logic [AW-1:0] o, input logic [31:0] reg_off);
    hit = (32'(o) == reg_off);
  endfunction

  // Counter registers: CNT_READS .. CNT_MEM_ERRORS, consecutive words from CNT_READS.
  localparam logic [31:0] CntBase = tessera_spec_pkg::TS_SLC_CNT_READS_OFFSET;
  logic          cnt_sel;
  logic [31:0]   cnt_rdata;
  always_comb begin
    cnt_sel   = 1'b0;
    cnt_rdata = '0;
    for (int unsigned i = 0; i < NUM_CNT; i++) begin
      if (hit(off, CntBase + 32'(4 * i))) begin
        cnt_sel   = 1'b1;
        cnt_rdata = counters_i[i*32 +: 32];
      end
    end
  end

  // ---- state -------------------------------------------------------------------------------
  logic [31:0]   mem_limit_d, mem_limit_q;
  logic [DW-1:0] occ_sel_d, occ_sel_q;
  logic          done_d, done_q, dropped_d, dropped_q;
  logic [15:0]   issued_d, issued_q, completed_d, completed_q;
  logic          rsp_valid_d, rsp_valid_q;
  tessera_regbus_pkg::reg_rsp_t rsp_d, rsp_q;

  // command FIFO
  logic                 cmd_push, cmd_wready, cmd_rvalid;
  logic [CmdW-1:0]      cmd_wdata, cmd_rdata;
  logic [CmdDepthW-1:0] cmd_depth;
  logic                 unused_cmd_full, unused_cmd_empty;

  logic [31:0] status_rdata, config_rdata, count_rdata, lines_rdata;
  always_comb begin
    status_rdata = '0;
    status_rdata[tessera_spec_pkg::TS_SLC_STATUS_BUSY_LSB] =
        init_busy_i || cmd_rvalid || (running_i != tessera_spec_pkg::TS_SLC_CMD_NONE);
    status_rdata[tessera_spec_pkg::TS_SLC_STATUS_DONE_LSB] = done_q;
    status_rdata[tessera_spec_pkg::TS_SLC_STATUS_CMD_DROPPED_LSB] = dropped_q;
    status_rdata[tessera_spec_pkg::TS_SLC_STATUS_QUEUED_LSB +: QueuedW] = QueuedW'(cmd_depth);
    status_rdata[tessera_spec_pkg::TS_SLC_STATUS_RUNNING_LSB +: OpW]    = running_i;

    config_rdata = '0;
    config_rdata[tessera_spec_pkg::TS_SLC_CONFIG_WAYS_LSB +: WaysW]       = WaysW'(WAYS);
    config_rdata[tessera_spec_pkg::TS_SLC_CONFIG_SETS_LOG2_LSB +: SetsW]  = SetsW'(SET_W);
    config_rdata[tessera_spec_pkg::TS_SLC_CONFIG_MSHRS_LSB +: MshrsW]     = MshrsW'(NUM_MSHR);
    config_rdata[tessera_spec_pkg::TS_SLC_CONFIG_WBS_LSB +: WbsW]         = WbsW'(NUM_WB);

    count_rdata = '0;
    count_rdata[tessera_spec_pkg::TS_SLC_CMD_COUNT_ISSUED_LSB +: 16]    = issued_q;
    count_rdata[tessera_spec_pkg::TS_SLC_CMD_COUNT_COMPLETED_LSB +: 16] = completed_q;

    lines_rdata = '0;
    lines_rdata[tessera_spec_pkg::TS_SLC_LINES_VALID_LSB +: 16] = valid_lines_i;
    lines_rdata[tessera_spec_pkg::TS_SLC_LINES_DIRTY_LSB +: 16] = dirty_lines_i;
  end

  // ---- access ------------------------------------------------------------------------------
  logic [OpW-1:0] wr_op;
  assign wr_op = reg_req_i.wdata[tessera_spec_pkg::TS_SLC_CMD_OP_LSB +: OpW];

  always_comb begin
    mem_limit_d      = mem_limit_q;
    occ_sel_d        = occ_sel_q;
    done_d           = done_q || cmd_done_i;
    dropped_d        = dropped_q;
    issued_d         = issued_q;
    completed_d      = completed_q + (cmd_done_i ? 16'd1 : 16'd0);
    cmd_push         = 1'b0;
    clear_counters_o = 1'b0;
    rsp_valid_d      = req_go;
    rsp_d            = '0;

    if (req_go) begin
      if (!in_block || !aligned) begin
        rsp_d.err = 1'b1;
      end else if (is_write) begin
        if (hit(off, tessera_spec_pkg::TS_SLC_CMD_OFFSET)) begin
          clear_counters_o = reg_req_i.wdata[tessera_spec_pkg::TS_SLC_CMD_CLEAR_COUNTERS_LSB];
          if (wr_op != tessera_spec_pkg::TS_SLC_CMD_NONE) begin
            if (cmd_wready) begin
              cmd_push = 1'b1;
              issued_d = issued_q + 16'd1;
            end else begin
              dropped_d = 1'b1;
              rsp_d.err = 1'b1;
            end
          end
        end else if (hit(off, tessera_spec_pkg::TS_SLC_STATUS_OFFSET)) begin
          // w1c fields; the ro fields ignore the write.
          if (reg_req_i.wdata[tessera_spec_pkg::TS_SLC_STATUS_DONE_LSB]) begin
            done_d = cmd_done_i;  // a completion in this very cycle stays visible
          end
          if (reg_req_i.wdata[tessera_spec_pkg::TS_SLC_STATUS_CMD_DROPPED_LSB]) begin
            dropped_d = 1'b0;
          end
        end else if (hit(off, tessera_spec_pkg::TS_SLC_MEM_LIMIT_OFFSET)) begin
          mem_limit_d = reg_req_i.wdata & tessera_spec_pkg::TS_SLC_MEM_LIMIT_RW_MASK;
        end else if (hit(off, tessera_spec_pkg::TS_SLC_OCC_SEL_OFFSET)) begin
          occ_sel_d = reg_req_i.wdata[tessera_spec_pkg::TS_SLC_OCC_SEL_DSID_LSB +: DW];
        end else begin
          rsp_d.err = 1'b1;  // read-only or unmapped
        end
      end else begin
        if (hit(off, tessera_spec_pkg::TS_SLC_CMD_OFFSET)) begin
          rsp_d.rdata = '0;  // write-only: reads 0
        end else if (hit(off, tessera_spec_pkg::TS_SLC_STATUS_OFFSET)) begin
          rsp_d.rdata = status_rdata;
        end else if (hit(off, tessera_spec_pkg::TS_SLC_CMD_COUNT_OFFSET)) begin
          rsp_d.rdata = count_rdata;
        end else if (hit(off, tessera_spec_pkg::TS_SLC_MEM_LIMIT_OFFSET)) begin
          rsp_d.rdata = mem_limit_q;
        end else if (hit(off, tessera_spec_pkg::TS_SLC_OCC_SEL_OFFSET)) begin
          rsp_d.rdata = 32'(occ_sel_q);
        end else if (hit(off, tessera_spec_pkg::TS_SLC_OCC_OFFSET)) begin
          rsp_d.rdata = 32'(occ_i);
        end else if (hit(off, tessera_spec_pkg::TS_SLC_LINES_OFFSET)) begin
          rsp_d.rdata = lines_rdata;
        end else if (hit(off, tessera_spec_pkg::TS_SLC_CONFIG_OFFSET)) begin
          rsp_d.rdata = config_rdata;
        end else if (cnt_sel) begin
          rsp_d.rdata = cnt_rdata;
        end else begin
          rsp_d.err = 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mem_limit_q <= MEM_LIMIT_RESET & tessera_spec_pkg::TS_SLC_MEM_LIMIT_RW_MASK;
      occ_sel_q   <= tessera_spec_pkg::TS_SLC_OCC_SEL_DSID_RESET;
      done_q      <= tessera_spec_pkg::TS_SLC_STATUS_DONE_RESET;
      dropped_q   <= tessera_spec_pkg::TS_SLC_STATUS_CMD_DROPPED_RESET;
      issued_q    <= '0;
      completed_q <= '0;
      rsp_valid_q <= 1'b0;
      rsp_q       <= '0;
    end else begin
      mem_limit_q <= mem_limit_d;
      occ_sel_q   <= occ_sel_d;
      done_q      <= done_d;
      dropped_q   <= dropped_d;
      issued_q    <= issued_d;
      completed_q <= completed_d;
      rsp_valid_q <= rsp_valid_d;
      rsp_q       <= rsp_d;
    end
  end

  assign reg_rsp_valid_o = rsp_valid_q;
  assign reg_rsp_o       = rsp_q;
  assign mem_limit_o     = mem_limit_q;
  assign occ_sel_o       = occ_sel_q;

  // ---- command queue -----------------------------------------------------------------------
  assign cmd_wdata = {wr_op, reg_req_i.wdata[tessera_spec_pkg::TS_SLC_CMD_DSID_LSB +: DW]};

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
  `ASSERT_INIT(CounterSpan_A, NUM_CNT == (tessera_spec_pkg::TS_SLC_CNT_MEM_ERRORS_OFFSET
                                          - tessera_spec_pkg::TS_SLC_CNT_READS_OFFSET) / 4 + 1)
  // The core only completes a command it has been given.
  `ASSERT(DoneHasCmd_A, cmd_done_i |-> cmd_rvalid)
  // Queued commands are real commands (NONE is never queued).
  `ASSERT(QueuedIsCmd_A, cmd_rvalid |-> cmd_op_o != tessera_spec_pkg::TS_SLC_CMD_NONE)
  // One response per accepted request, one cycle later.
  `ASSERT(RspOneCycle_A, req_go |=> reg_rsp_valid_o)
  `ASSERT(RspOnlyForReq_A, reg_rsp_valid_o |-> $past(req_go))

endmodule
