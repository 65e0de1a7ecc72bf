// cp_fw_regs -- the CPFW register block: what the CP firmware sees in its MMIO window.
//
// Source: spec/registers/cpfw.yaml (every offset and field comes from the generated
// tessera_spec_pkg::TS_CPFW_* constants); ARCHITECTURE.md 5.1. docs/cp.md explains the block.
//
// Access protocol (from cp_bus): req_i is held, with we/addr/wdata stable, until ack_o. Most
// registers ack in the cycle of the request; FETCH_DATA acks when the dword has arrived and
// PIPE_PUSH when the pipeline command FIFO has room, which is how the core stalls on them.
// err_o (with ack_o) = unmapped offset, write to a read-only register, sub-word write, or a
// FETCH_DATA read of a channel with no dword left in its run.
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

  function automatic logic at(input logic [11:0] a, input logic [31:0] off);
    at = (32'(a) == off);
  endfunction

  // Which array element an address selects (returns NONE = count when none).
  logic [31:0] q_idx, ch_idx, arg_idx;
  logic [31:0] q_off, ch_off;
  always_comb begin
    q_idx  = 32'(NUM_QUEUES);
    q_off  = '0;
    ch_idx = 32'(NumCh);
    ch_off = '0;
    arg_idx = 32'(NArgs);
    for (int unsigned q = 0; q < NUM_QUEUES; q++) begin
      if (32'(addr_i) >= tessera_spec_pkg::TS_CPFW_QUEUE_OFFSET + q * tessera_spec_pkg::TS_CPFW_QUEUE_STRIDE &&
          32'(addr_i) <  tessera_spec_pkg::TS_CPFW_QUEUE_OFFSET + (q + 1) * tessera_spec_pkg::TS_CPFW_QUEUE_STRIDE) begin
        q_idx = q;
        q_off = 32'(addr_i) - q * tessera_spec_pkg::TS_CPFW_QUEUE_STRIDE;  // instance-0 offset
      end
    end
    for (int unsigned c = 0; c < NumCh; c++) begin
      if (32'(addr_i) >= tessera_spec_pkg::TS_CPFW_FETCH_OFFSET + c * tessera_spec_pkg::TS_CPFW_FETCH_STRIDE &&
          32'(addr_i) <  tessera_spec_pkg::TS_CPFW_FETCH_OFFSET + (c + 1) * tessera_spec_pkg::TS_CPFW_FETCH_STRIDE) begin
        ch_idx = c;
        ch_off = 32'(addr_i) - c * tessera_spec_pkg::TS_CPFW_FETCH_STRIDE;
      end
    end
    for (int unsigned i = 0; i < NArgs; i++) begin
      if (at(addr_i, tessera_spec_pkg::TS_CPFW_ARG_OFFSET + i * tessera_spec_pkg::TS_CPFW_PIPE_ARG_STRIDE)) begin
        arg_idx = i;
      end
    end
  end

  // FETCH[c].ADDR writes are remembered per channel; START uses the remembered address.
  logic [NumCh*32-1:0] start_addr_d, start_addr_q;
  always_comb begin
    start_addr_d = start_addr_q;
    if (req_i && we_i && ch_idx < 32'(NumCh) &&
        ch_off == tessera_spec_pkg::TS_CPFW_FETCH_ADDR_OFFSET) begin
      start_addr_d[ch_idx*32 +: 32] = wdata_i;
    end
  end
  logic [31:0] start_addr_sel;
  always_comb begin
    start_addr_sel = '0;
    for (int unsigned c = 0; c < NumCh; c++) begin
      if (32'(c) == ch_idx) start_addr_sel = start_addr_q[c*32 +: 32];
    end
  end
  // EXTEND restarts at the current position; START at the staged address.
  logic is_extend;
  assign is_extend = ch_off == tessera_spec_pkg::TS_CPFW_FETCH_EXTEND_OFFSET;
  logic [31:0] cur_pop_addr;
  always_comb begin
    cur_pop_addr = '0;
    for (int unsigned c = 0; c < NumCh; c++) begin
      if (32'(c) == ch_idx) cur_pop_addr = fetch_pop_addr_i[c*32 +: 32];
    end
  end
  logic [31:0] start_addr_out;
  assign start_addr_out = is_extend ? cur_pop_addr : start_addr_sel;

  // ---- state -------------------------------------------------------------------------------
  logic [NUM_QUEUES*16-1:0]   rptr_d, rptr_q;
  logic [7:0]                 waiting_d, waiting_q, busy_d, busy_q;
  logic [31:0]                err_addr_d, err_addr_q;
  logic [5:0]                 dsid_d, dsid_q;
  logic [31:0]                fw_status_d, fw_status_q;
  logic [NArgs*32-1:0]        args_d, args_q;
  logic [31:0]                issued_d, issued_q, done_d, done_q;
  logic [7:0]                 fetch_err_d, fetch_err_q;
  logic                       cache_busy_d, cache_busy_q, cache_flush_d, cache_flush_q;
  logic                       cache_inv_d, cache_inv_q;

  // pipeline command FIFO
  logic                       pipe_push, pipe_wready, pipe_full, pipe_empty;
  logic [QDepthW-1:0]         pipe_depth;
  tessera_cp_pkg::pipe_cmd_t  pipe_wcmd;

  logic is_word;
  assign is_word = (be_i == 4'hf);

  always_comb begin
    rptr_d        = rptr_q;
    waiting_d     = waiting_q;
    busy_d        = busy_q;
    err_addr_d    = err_addr_q;
    dsid_d        = dsid_q;
    fw_status_d   = fw_status_q;
    args_d        = args_q;
    issued_d      = issued_q;
    done_d        = done_q + (pipe_done_i ? 32'd1 : 32'd0);
    fetch_err_d   = fetch_err_q | 8'(fetch_err_i);
    cache_busy_d  = cache_busy_q && !cache_done_i;
    cache_flush_d = cache_flush_q;
    cache_inv_d   = cache_inv_q;

    ack_o   = 1'b0;
    err_o   = 1'b0;
    rdata_o = '0;

    int_raise_o     = '0;
    err_report_o    = 1'b0;
    err_info_o      = wdata_i;
    console_valid_o = 1'b0;
    console_char_o  = wdata_i[7:0];
    fetch_start_o       = '0;
    fetch_start_addr_o  = start_addr_out;
    fetch_start_count_o = wdata_i[23:0];
    fetch_pop_req_o     = 1'b0;
    fetch_pop_ch_o      = ChW'(ch_idx);
    pipe_push  = 1'b0;
    pipe_wcmd  = '0;
    pipe_wcmd.opcode = wdata_i[tessera_spec_pkg::TS_CPFW_PIPE_PUSH_OPCODE_LSB +: 8];
    pipe_wcmd.queue_id = wdata_i[tessera_spec_pkg::TS_CPFW_PIPE_PUSH_QUEUE_LSB +: 3];
    pipe_wcmd.dsid   = wdata_i[tessera_spec_pkg::TS_CPFW_PIPE_PUSH_DSID_LSB +: 6];
    pipe_wcmd.nargs  = wdata_i[tessera_spec_pkg::TS_CPFW_PIPE_PUSH_NARGS_LSB +: 4];
    for (int unsigned i = 0; i < NArgs; i++) begin
      // Arguments beyond nargs are sent as 0 so receivers never see stale values.
      pipe_wcmd.args[i*32 +: 32] = (i < 32'(pipe_wcmd.nargs)) ? args_q[i*32 +: 32] : 32'd0;
    end

    if (req_i) begin
      ack_o = 1'b1;
      if (addr_i[1:0] != 2'b00 || (we_i && !is_word)) begin
        err_o = 1'b1;
      end else if (q_idx < 32'(NUM_QUEUES)) begin
        // ---- QUEUE[q] ----
        if (q_off == tessera_spec_pkg::TS_CPFW_RING_BASE_OFFSET && !we_i) begin
          rdata_o = ring_base_i[q_idx*32 +: 32];
        end else if (q_off == tessera_spec_pkg::TS_CPFW_RING_SIZE_OFFSET && !we_i) begin
          rdata_o = 32'(ring_log2_i[q_idx*5 +: 5]);
        end else if (q_off == tessera_spec_pkg::TS_CPFW_WPTR_OFFSET && !we_i) begin
          rdata_o = 32'(wptr_i[q_idx*16 +: 16]);
        end else if (q_off == tessera_spec_pkg::TS_CPFW_RPTR_OFFSET) begin
          rdata_o = 32'(rptr_q[q_idx*16 +: 16]);
          if (we_i) rptr_d[q_idx*16 +: 16] = wdata_i[15:0];
        end else begin
          err_o = 1'b1;
        end
      end else if (ch_idx < 32'(NumCh)) begin
        // ---- FETCH[c] ----
        if (ch_off == tessera_spec_pkg::TS_CPFW_FETCH_ADDR_OFFSET) begin
          rdata_o = fetch_pop_addr_i[ch_idx*32 +: 32];
        end else if (ch_off == tessera_spec_pkg::TS_CPFW_FETCH_START_OFFSET) begin
          rdata_o = 32'(fetch_remaining_i[ch_idx*24 +: 24]);
          if (we_i) begin
            fetch_start_o[ch_idx] = 1'b1;
          end
        end else if (ch_off == tessera_spec_pkg::TS_CPFW_FETCH_EXTEND_OFFSET && we_i) begin
          // Restart at the current position with the longer run: the line holding the old
          // end may have been read before the host wrote the new dwords.
          fetch_start_o[ch_idx] = 1'b1;
          fetch_start_count_o   = fetch_remaining_i[ch_idx*24 +: 24] + wdata_i[23:0];
        end else if (ch_off == tessera_spec_pkg::TS_CPFW_FETCH_DATA_OFFSET && !we_i) begin
          if (fetch_remaining_i[ch_idx*24 +: 24] == '0) begin
            err_o = 1'b1;
          end else begin
            fetch_pop_req_o = 1'b1;
            ack_o   = fetch_pop_valid_i;
            rdata_o = fetch_pop_data_i;
          end
        end else begin
          err_o = 1'b1;
        end
      end else if (arg_idx < 32'(NArgs)) begin
        rdata_o = args_q[arg_idx*32 +: 32];
        if (we_i) args_d[arg_idx*32 +: 32] = wdata_i;
      end else if (at(addr_i, tessera_spec_pkg::TS_CPFW_CONSOLE_OFFSET) && we_i) begin
        console_valid_o = 1'b1;
      end else if (at(addr_i, tessera_spec_pkg::TS_CPFW_HW_CONFIG_OFFSET) && !we_i) begin
        rdata_o[tessera_spec_pkg::TS_CPFW_HW_CONFIG_NUM_QUEUES_LSB +: 4]   = 4'(NUM_QUEUES);
        rdata_o[tessera_spec_pkg::TS_CPFW_HW_CONFIG_NUM_CHANNELS_LSB +: 4] = 4'(NumCh);
      end else if (at(addr_i, tessera_spec_pkg::TS_CPFW_MEM_LIMIT_OFFSET) && !we_i) begin
        rdata_o = MEM_BYTES;
      end else if (at(addr_i, tessera_spec_pkg::TS_CPFW_QUEUE_ENABLE_OFFSET) && !we_i) begin
        rdata_o[tessera_spec_pkg::TS_CPFW_QUEUE_ENABLE_ENABLE_LSB +: 8] = queue_enable_i;
        rdata_o[tessera_spec_pkg::TS_CPFW_QUEUE_ENABLE_HALTED_LSB +: 8] = queue_halted_i;
      end else if (at(addr_i, tessera_spec_pkg::TS_CPFW_QUEUE_STATE_OFFSET)) begin
        rdata_o[tessera_spec_pkg::TS_CPFW_QUEUE_STATE_WAITING_LSB +: 8] = waiting_q;
        rdata_o[tessera_spec_pkg::TS_CPFW_QUEUE_STATE_BUSY_LSB +: 8]    = busy_q;
        if (we_i) begin
          waiting_d = wdata_i[tessera_spec_pkg::TS_CPFW_QUEUE_STATE_WAITING_LSB +: 8];
          busy_d    = wdata_i[tessera_spec_pkg::TS_CPFW_QUEUE_STATE_BUSY_LSB +: 8];
        end
      end else if (at(addr_i, tessera_spec_pkg::TS_CPFW_INT_RAISE_OFFSET) && we_i) begin
        int_raise_o = wdata_i[tessera_spec_pkg::TS_CPFW_INT_RAISE_FENCE_LSB +: 8];
      end else if (at(addr_i, tessera_spec_pkg::TS_CPFW_ERROR_ADDR_OFFSET)) begin
        rdata_o = err_addr_q;
        if (we_i) err_addr_d = wdata_i;
      end else if (at(addr_i, tessera_spec_pkg::TS_CPFW_ERROR_REPORT_OFFSET) && we_i) begin
        err_report_o = 1'b1;
      end else if (at(addr_i, tessera_spec_pkg::TS_CPFW_WINDOW_DSID_OFFSET)) begin
        rdata_o = 32'(dsid_q);
        if (we_i) dsid_d = wdata_i[5:0];
      end else if (at(addr_i, tessera_spec_pkg::TS_CPFW_FW_STATUS_OFFSET)) begin
        rdata_o = fw_status_q;
        if (we_i) fw_status_d = wdata_i;
      end else if (at(addr_i, tessera_spec_pkg::TS_CPFW_PIPE_PUSH_OFFSET) && we_i) begin
        pipe_push = pipe_wready;
        ack_o     = pipe_wready;
        if (pipe_wready) issued_d = issued_q + 32'd1;
      end else if (at(addr_i, tessera_spec_pkg::TS_CPFW_PIPE_STATUS_OFFSET) && !we_i) begin
        rdata_o[tessera_spec_pkg::TS_CPFW_PIPE_STATUS_LEVEL_LSB +: 5] = 5'(pipe_depth);
        rdata_o[tessera_spec_pkg::TS_CPFW_PIPE_STATUS_FULL_LSB]       = pipe_full;
        rdata_o[tessera_spec_pkg::TS_CPFW_PIPE_STATUS_IDLE_LSB]       = pipe_idle_o;
      end else if (at(addr_i, tessera_spec_pkg::TS_CPFW_PIPE_ISSUED_OFFSET) && !we_i) begin
        rdata_o = issued_q;
      end else if (at(addr_i, tessera_spec_pkg::TS_CPFW_PIPE_DONE_OFFSET) && !we_i) begin
        rdata_o = done_q;
      end else if (at(addr_i, tessera_spec_pkg::TS_CPFW_CACHE_CTRL_OFFSET) && we_i) begin
        if (wdata_i[1:0] != 2'b00) begin
          cache_busy_d  = 1'b1;
          cache_flush_d = wdata_i[tessera_spec_pkg::TS_CPFW_CACHE_CTRL_FLUSH_LSB];
          cache_inv_d   = wdata_i[tessera_spec_pkg::TS_CPFW_CACHE_CTRL_INVALIDATE_LSB];
        end
      end else if (at(addr_i, tessera_spec_pkg::TS_CPFW_CACHE_STATUS_OFFSET) && !we_i) begin
        rdata_o[tessera_spec_pkg::TS_CPFW_CACHE_STATUS_BUSY_LSB] = cache_busy_q;
      end else if (at(addr_i, tessera_spec_pkg::TS_CPFW_FETCH_ERR_OFFSET)) begin
        rdata_o = 32'(fetch_err_q);
        if (we_i) fetch_err_d = (fetch_err_q & ~wdata_i[7:0]) | 8'(fetch_err_i);
      end else begin
        err_o = 1'b1;
      end
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
      rptr_q        <= '0;
      waiting_q     <= '0;
      busy_q        <= '0;
      err_addr_q    <= '0;
      dsid_q        <= '0;
      fw_status_q   <= '0;
      args_q        <= '0;
      issued_q      <= '0;
      done_q        <= '0;
      fetch_err_q   <= '0;
      cache_busy_q  <= 1'b0;
      cache_flush_q <= 1'b0;
      cache_inv_q   <= 1'b0;
      start_addr_q  <= '0;
    end else begin
      rptr_q        <= rptr_d;
      waiting_q     <= waiting_d;
      busy_q        <= busy_d;
      err_addr_q    <= err_addr_d;
      dsid_q        <= dsid_d;
      fw_status_q   <= fw_status_d;
      args_q        <= args_d;
      issued_q      <= issued_d;
      done_q        <= done_d;
      fetch_err_q   <= fetch_err_d;
      cache_busy_q  <= cache_busy_d;
      cache_flush_q <= cache_flush_d;
      cache_inv_q   <= cache_inv_d;
      start_addr_q  <= start_addr_d;
    end
  end

  assign rptr_o             = rptr_q;
  assign queue_waiting_o    = waiting_q;
  assign queue_busy_o       = busy_q;
  assign err_addr_o         = err_addr_q;
  assign window_dsid_o      = dsid_q;
  assign fw_status_o        = fw_status_q;
  assign pipe_idle_o        = pipe_empty && (done_q == issued_q);
  assign pipe_issued_o      = issued_q;
  assign pipe_done_count_o  = done_q;
  assign cache_req_o        = cache_busy_q;
  assign cache_flush_o      = cache_flush_q;
  assign cache_invalidate_o = cache_inv_q;

  `ASSERT(DoneNotAheadOfIssued_A, pipe_done_i |-> done_q != issued_q)
  `ASSERT(CacheDoneOnlyWhenBusy_A, cache_done_i |-> cache_busy_q)

endmodule
