// cp_fw_regs -- the CPFW register block: what the CP firmware sees in its MMIO window.
//
// Source: spec/registers/cpfw.yaml; ARCHITECTURE.md 5.1. docs/cp.md explains the block.
//
// Decode, storage, resets and errors are the generated register top's (cpfw_reg_top,
// `protocol: req_ack`; docs/spec-generator.md "Register tops"): req_i is held, with
// we/addr/wdata stable, until ack_o. Most registers ack in the cycle of the request;
// FETCH_DATA (`wait: read`) acks when the dword has arrived and PIPE_PUSH (`wait: write`) when
// the pipeline command FIFO has room, which is how the core stalls on them. err_o (with ack_o)
// = unmapped offset, write to a read-only register, sub-word write, or a FETCH_DATA read of a
// channel with no dword left in its run (`read_error`). A read of a write-only register
// returns 0 (the hand-written block this replaced answered it with err; the firmware never
// reads them). What stays here is the CP's side: the fetch-channel starts, the pipeline
// command FIFO and its counts, cache maintenance, and the values read.
`include "prim_assert.svh"

module cp_fw_regs #(
  parameter int unsigned NUM_QUEUES = 2,
  parameter int unsigned PIPE_DEPTH = 8,
  parameter logic [31:0] MEM_BYTES  = 32'h0100_0000,
  // Derived (do not override)
  localparam int unsigned NumCh = NUM_QUEUES * tessera_cp_pkg::CH_PER_QUEUE,
  localparam int unsigned ChW   = (NumCh > 1) ? $clog2(NumCh) : 1
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,

  // access from the core's bus
  input  logic                          req_i,
  input  logic                          we_i,
  input  logic [3:0]                    be_i,
  input  logic [11:0]                   addr_i,
  input  logic [31:0]                   wdata_i,
  output logic                          ack_o,
  output logic [31:0]                   rdata_o,
  output logic                          err_o,

  // host-side queue registers (cp_host_regs)
  input  logic [NUM_QUEUES*32-1:0]      ring_base_i,     // byte address
  input  logic [NUM_QUEUES*5-1:0]       ring_log2_i,
  input  logic [NUM_QUEUES*16-1:0]      wptr_i,
  input  logic [7:0]                    queue_enable_i,
  input  logic [7:0]                    queue_halted_i,
  output logic [NUM_QUEUES*16-1:0]      rptr_o,
  output logic [7:0]                    queue_waiting_o,
  output logic [7:0]                    queue_busy_o,
  output logic [7:0]                    int_raise_o,     // one cycle: set INT_STATUS.fence bits
  output logic                          err_report_o,    // one cycle: record an error
  output logic [31:0]                   err_info_o,      // ERROR_REPORT value
  output logic [31:0]                   err_addr_o,
  output logic                          console_valid_o,
  output logic [7:0]                    console_char_o,
  output logic [5:0]                    window_dsid_o,
  output logic [31:0]                   fw_status_o,

  // fetcher
  output logic [NumCh-1:0]              fetch_start_o,
  output logic [31:0]                   fetch_start_addr_o,
  output logic [23:0]                   fetch_start_count_o,
  input  logic [NumCh*32-1:0]           fetch_pop_addr_i,
  input  logic [NumCh*24-1:0]           fetch_remaining_i,
  output logic                          fetch_pop_req_o,
  output logic [ChW-1:0]                fetch_pop_ch_o,
  input  logic                          fetch_pop_valid_i,
  input  logic [31:0]                   fetch_pop_data_i,
  input  logic [NumCh-1:0]              fetch_err_i,

  // pipeline command port
  output logic                          pipe_valid_o,
  input  logic                          pipe_ready_i,
  output tessera_cp_pkg::pipe_cmd_t     pipe_cmd_o,
  input  logic                          pipe_done_i,
  output logic                          pipe_idle_o,
  output logic [31:0]                   pipe_issued_o,
  output logic [31:0]                   pipe_done_count_o,

  // slice-cache maintenance: cache_req_o held until cache_done_i (one cycle)
  output logic                          cache_req_o,
  output logic                          cache_flush_o,
  output logic                          cache_invalidate_o,
  input  logic                          cache_done_i
);

  localparam int unsigned NArgs = tessera_cp_pkg::PIPE_NARGS;
  localparam int unsigned QDepthW = (PIPE_DEPTH + 1 > 2) ? $clog2(PIPE_DEPTH + 1) : 1;

  cpfw_reg_pkg::cpfw_reg2hw_t reg2hw;
  cpfw_reg_pkg::cpfw_hw2reg_t hw2reg;

  cpfw_reg_top u_reg_top (
    .clk_i,
    .rst_ni,
    .req_i,
    .we_i,
    .be_i,
    .addr_i,
    .wdata_i,
    .ack_o,
    .rdata_o,
    .err_o,
    .reg2hw_o (reg2hw),
    .hw2reg_i (hw2reg)
  );

  // ---- fetch channels ----------------------------------------------------------------------
  // FETCH[c].ADDR writes are remembered per channel; START uses the remembered address, EXTEND
  // restarts at the current position with the longer run (the line holding the old end may
  // have been read before the host wrote the new dwords).
  logic [NumCh*32-1:0] start_addr_d, start_addr_q;
  always_comb begin
    start_addr_d        = start_addr_q;
    fetch_start_o       = '0;
    fetch_start_addr_o  = '0;
    fetch_start_count_o = '0;
    fetch_pop_req_o     = 1'b0;
    fetch_pop_ch_o      = '0;
    for (int unsigned c = 0; c < NumCh; c++) begin
      if (reg2hw.fetch_fetch_addr.qe[c]) begin
        start_addr_d[c*32 +: 32] = reg2hw.fetch_fetch_addr.addr[c*32 +: 32];
      end
      if (reg2hw.fetch_fetch_start.qe[c]) begin
        fetch_start_o[c]    = 1'b1;
        fetch_start_addr_o  = start_addr_q[c*32 +: 32];
        fetch_start_count_o = reg2hw.fetch_fetch_start.count[c*24 +: 24];
      end
      if (reg2hw.fetch_fetch_extend.qe[c]) begin
        fetch_start_o[c]    = 1'b1;
        fetch_start_addr_o  = fetch_pop_addr_i[c*32 +: 32];
        fetch_start_count_o = fetch_remaining_i[c*24 +: 24] +
                              reg2hw.fetch_fetch_extend.count[c*24 +: 24];
      end
      // a FETCH_DATA read pops the channel's next dword (it waits until the dword is there)
      if (reg2hw.fetch_fetch_data.pend[c]) begin
        fetch_pop_req_o = 1'b1;
        fetch_pop_ch_o  = ChW'(c);
      end
    end
  end

  // ---- pipeline command FIFO and cache maintenance -----------------------------------------
  logic                      pipe_push, pipe_wready, pipe_full, pipe_empty;
  logic [QDepthW-1:0]        pipe_depth;
  tessera_cp_pkg::pipe_cmd_t pipe_wcmd;
  logic [31:0]               issued_d, issued_q, done_d, done_q;
  logic                      cache_busy_d, cache_busy_q, cache_flush_d, cache_flush_q;
  logic                      cache_inv_d, cache_inv_q;

  assign pipe_push = reg2hw.pipe_push.qe;  // acknowledged only while the FIFO has room
  assign issued_d  = issued_q + (pipe_push ? 32'd1 : 32'd0);
  assign done_d    = done_q + (pipe_done_i ? 32'd1 : 32'd0);

  always_comb begin
    pipe_wcmd          = '0;
    pipe_wcmd.opcode   = reg2hw.pipe_push.opcode;
    pipe_wcmd.queue_id = reg2hw.pipe_push.queue_f;
    pipe_wcmd.dsid     = reg2hw.pipe_push.dsid;
    pipe_wcmd.nargs    = reg2hw.pipe_push.nargs;
    for (int unsigned i = 0; i < NArgs; i++) begin
      // Arguments beyond nargs are sent as 0 so receivers never see stale values.
      pipe_wcmd.args[i*32 +: 32] = (i < 32'(pipe_wcmd.nargs)) ? reg2hw.pipe_arg_arg.value[i*32 +: 32] : 32'd0;
    end
    cache_busy_d  = cache_busy_q && !cache_done_i;
    cache_flush_d = cache_flush_q;
    cache_inv_d   = cache_inv_q;
    if (reg2hw.cache_ctrl.qe && (reg2hw.cache_ctrl.flush || reg2hw.cache_ctrl.invalidate)) begin
      cache_busy_d  = 1'b1;
      cache_flush_d = reg2hw.cache_ctrl.flush;
      cache_inv_d   = reg2hw.cache_ctrl.invalidate;
    end
  end

  prim_fifo_sync #(
    .WIDTH       (tessera_cp_pkg::PIPE_CMD_W),
    .DEPTH       (PIPE_DEPTH),
    .FALL_THROUGH(0)
  ) u_pipe_fifo (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .clr_i   (1'b0),
    .wvalid_i(pipe_push),
    .wready_o(pipe_wready),
    .wdata_i (pipe_wcmd),
    .rvalid_o(pipe_valid_o),
    .rready_i(pipe_ready_i),
    .rdata_o (pipe_cmd_o),
    .full_o  (pipe_full),
    .empty_o (pipe_empty),
    .depth_o (pipe_depth)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      issued_q      <= '0;
      done_q        <= '0;
      cache_busy_q  <= 1'b0;
      cache_flush_q <= 1'b0;
      cache_inv_q   <= 1'b0;
      start_addr_q  <= '0;
    end else begin
      issued_q      <= issued_d;
      done_q        <= done_d;
      cache_busy_q  <= cache_busy_d;
      cache_flush_q <= cache_flush_d;
      cache_inv_q   <= cache_inv_d;
      start_addr_q  <= start_addr_d;
    end
  end

  // ---- values the register top reads -------------------------------------------------------
  always_comb begin
    hw2reg = '0;
    hw2reg.hw_config.num_queues   = 4'(NUM_QUEUES);
    hw2reg.hw_config.num_channels = 4'(NumCh);
    hw2reg.mem_limit.limit        = MEM_BYTES;
    hw2reg.queue_enable.enable    = queue_enable_i;
    hw2reg.queue_enable.halted    = queue_halted_i;
    hw2reg.pipe_push.hold         = !pipe_wready;
    hw2reg.pipe_status.level      = 5'(pipe_depth);
    hw2reg.pipe_status.full       = pipe_full;
    hw2reg.pipe_status.idle       = pipe_idle_o;
    hw2reg.pipe_issued.count      = issued_q;
    hw2reg.pipe_done.count        = done_q;
    hw2reg.cache_status.busy      = cache_busy_q;
    hw2reg.fetch_err.channel_set  = 8'(fetch_err_i);
    for (int unsigned q = 0; q < NUM_QUEUES; q++) begin
      hw2reg.queue_ring_base.addr[q*32 +: 32]       = ring_base_i[q*32 +: 32];
      hw2reg.queue_ring_size.log2_dwords[q*5 +: 5]  = ring_log2_i[q*5 +: 5];
      hw2reg.queue_wptr.ptr[q*16 +: 16]             = wptr_i[q*16 +: 16];
    end
    for (int unsigned c = 0; c < NumCh; c++) begin
      hw2reg.fetch_fetch_addr.addr[c*32 +: 32]   = fetch_pop_addr_i[c*32 +: 32];
      hw2reg.fetch_fetch_start.count[c*24 +: 24] = fetch_remaining_i[c*24 +: 24];
      hw2reg.fetch_fetch_data.dword[c*32 +: 32]  = fetch_pop_data_i;
      hw2reg.fetch_fetch_data.hold[c]            = !fetch_pop_valid_i;
      hw2reg.fetch_fetch_data.rerr[c]            = fetch_remaining_i[c*24 +: 24] == '0;
    end
  end

  // ---- outputs -----------------------------------------------------------------------------
  assign rptr_o             = reg2hw.queue_rptr.ptr;
  assign queue_waiting_o    = reg2hw.queue_state.waiting;
  assign queue_busy_o       = reg2hw.queue_state.busy;
  assign int_raise_o        = reg2hw.int_raise.qe ? reg2hw.int_raise.fence : 8'h00;
  assign err_report_o       = reg2hw.error_report.qe;
  assign err_info_o         = reg2hw.error_report.wd;
  assign err_addr_o         = reg2hw.error_addr.addr;
  assign console_valid_o    = reg2hw.console.qe;
  assign console_char_o     = reg2hw.console.char_f;
  assign window_dsid_o      = reg2hw.window_dsid.dsid;
  assign fw_status_o        = reg2hw.fw_status.value;
  assign pipe_idle_o        = pipe_empty && (done_q == issued_q);
  assign pipe_issued_o      = issued_q;
  assign pipe_done_count_o  = done_q;
  assign cache_req_o        = cache_busy_q;
  assign cache_flush_o      = cache_flush_q;
  assign cache_invalidate_o = cache_inv_q;

  // Fields of write-only registers whose value nothing here needs: the ERROR_REPORT fields
  // travel as the whole written word (err_info_o), and the sticky FETCH_ERR bits are the
  // firmware's to read.
  logic unused_reg2hw;
  assign unused_reg2hw = ^{reg2hw.error_report.code, reg2hw.error_report.queue_f,
                           reg2hw.error_report.ib_level, reg2hw.error_report.opcode,
                           reg2hw.fetch_err.channel};

  `ASSERT_INIT(QueuesFit_A, NUM_QUEUES == tessera_spec_pkg::TS_CPFW_QUEUE_COUNT &&
                            NumCh == tessera_spec_pkg::TS_CPFW_FETCH_COUNT)
  `ASSERT(DoneNotAheadOfIssued_A, pipe_done_i |-> done_q != issued_q)
  `ASSERT(CacheDoneOnlyWhenBusy_A, cache_done_i |-> cache_busy_q)

endmodule
