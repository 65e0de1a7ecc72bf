// cp_host_regs -- the CP's host-visible registers (spec/registers/cp.yaml, block CP) on the
// internal register bus: identification, control (run, soft reset, queue enables), status,
// interrupts, the first-error record and the per-queue ring registers with doorbells.
//
// Every offset, field and reset value comes from tessera_spec_pkg::TS_CP_*. The register bus
// protocol (tessera_regbus_pkg): ready whenever no response is pending, answer one cycle
// after the request; err = 1 for an unmapped or misaligned offset and for a write to a
// read-only register (nothing changes).
//
// The firmware drives RPTR, the waiting/busy bits, fence interrupts and error reports through
// cp_fw_regs; this block turns them into what the host reads and the interrupt line.
`include "prim_assert.svh"

module cp_host_regs #(
  parameter int unsigned NUM_QUEUES = 2
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,

  input  logic                         reg_req_valid_i,
  output logic                         reg_req_ready_o,
  input  tessera_regbus_pkg::reg_req_t reg_req_i,        // addr = offset in the CP block
  output logic                         reg_rsp_valid_o,
  output tessera_regbus_pkg::reg_rsp_t reg_rsp_o,

  // towards the CP
  output logic                         run_o,             // CTRL.run
  output logic                         soft_reset_o,      // one cycle
  output logic [NUM_QUEUES*32-1:0]     ring_base_o,       // byte addresses
  output logic [NUM_QUEUES*5-1:0]      ring_log2_o,
  output logic [NUM_QUEUES*16-1:0]     wptr_o,
  output logic [7:0]                   queue_enable_o,
  output logic [7:0]                   queue_halted_o,
  output logic                         irq_o,

  // from the firmware registers and the CP
  input  logic [NUM_QUEUES*16-1:0]     rptr_i,
  input  logic [7:0]                   queue_waiting_i,
  input  logic [7:0]                   queue_busy_i,
  input  logic [7:0]                   int_raise_i,
  input  logic                         err_report_i,
  input  logic [31:0]                  err_info_i,        // CPFW.ERROR_REPORT layout
  input  logic [31:0]                  err_addr_i,
  input  logic                         core_running_i,
  input  logic                         pipe_idle_i
);

  localparam int unsigned AW = 12;
  localparam logic [7:0] QueueMask = 8'((1 << NUM_QUEUES) - 1);

  logic [AW-1:0] off;
  logic          req_go, aligned, in_block;
  assign reg_req_ready_o = !reg_rsp_valid_o;
  assign req_go   = reg_req_valid_i && reg_req_ready_o;
  assign off      = reg_req_i.addr[AW-1:0];
  assign aligned  = reg_req_i.addr[1:0] == 2'b00;
  assign in_block = 32'(reg_req_i.addr) < tessera_spec_pkg::TS_CP_SIZE;

  function automatic logic at(input logic [AW-1:0] o, input logic [31:0] reg_off);
    at = (32'(o) == reg_off);
  endfunction

  // Queue array decode.
  logic [31:0] q_idx, q_off;
  always_comb begin
    q_idx = 32'(NUM_QUEUES);
    q_off = '0;
    for (int unsigned q = 0; q < NUM_QUEUES; q++) begin
      if (32'(off) >= tessera_spec_pkg::TS_CP_QUEUE_OFFSET + q * tessera_spec_pkg::TS_CP_QUEUE_STRIDE &&
          32'(off) <  tessera_spec_pkg::TS_CP_QUEUE_OFFSET + (q + 1) * tessera_spec_pkg::TS_CP_QUEUE_STRIDE) begin
        q_idx = q;
        q_off = 32'(off) - q * tessera_spec_pkg::TS_CP_QUEUE_STRIDE;
      end
    end
  end

  // ---- state -------------------------------------------------------------------------------
  logic                     run_d, run_q, soft_d, soft_q;
  logic [7:0]               qen_d, qen_q, halted_d, halted_q;
  logic [7:0]               int_fence_d, int_fence_q, en_fence_d, en_fence_q;
  logic                     int_err_d, int_err_q, en_err_d, en_err_q;
  logic                     err_valid_d, err_valid_q;
  logic [31:0]              err_status_d, err_status_q, err_addr_d, err_addr_q;
  logic [NUM_QUEUES*26-1:0] base_d, base_q;
  logic [NUM_QUEUES*5-1:0]  log2_d, log2_q;
  logic [NUM_QUEUES*16-1:0] wptr_d, wptr_q;
  logic                     rsp_valid_d, rsp_valid_q;
  tessera_regbus_pkg::reg_rsp_t rsp_d, rsp_q;

  logic [7:0] active;
  always_comb begin
    active = queue_busy_i;
    for (int unsigned q = 0; q < NUM_QUEUES; q++) begin
      if (rptr_i[q*16 +: 16] != wptr_q[q*16 +: 16]) active[q] = 1'b1;
    end
    active &= QueueMask;
  end

  logic [31:0] status_rdata, ctrl_rdata, version_rdata, int_status_rdata, int_enable_rdata;
  always_comb begin
    status_rdata = '0;
    status_rdata[tessera_spec_pkg::TS_CP_STATUS_IDLE_LSB]          = (active == '0) && pipe_idle_i;
    status_rdata[tessera_spec_pkg::TS_CP_STATUS_CORE_RUNNING_LSB]  = core_running_i;
    status_rdata[tessera_spec_pkg::TS_CP_STATUS_QUEUE_ACTIVE_LSB +: 8]  = active;
    status_rdata[tessera_spec_pkg::TS_CP_STATUS_QUEUE_WAITING_LSB +: 8] = queue_waiting_i & QueueMask;
    status_rdata[tessera_spec_pkg::TS_CP_STATUS_QUEUE_HALTED_LSB +: 8]  = halted_q;
    ctrl_rdata = '0;
    ctrl_rdata[tessera_spec_pkg::TS_CP_CTRL_RUN_LSB] = run_q;
    ctrl_rdata[tessera_spec_pkg::TS_CP_CTRL_QUEUE_ENABLE_LSB +: 8] = qen_q;
    version_rdata = tessera_spec_pkg::TS_CP_VERSION_RESET;
    version_rdata[tessera_spec_pkg::TS_CP_VERSION_NUM_QUEUES_LSB +: 4] = 4'(NUM_QUEUES);
    int_status_rdata = '0;
    int_status_rdata[tessera_spec_pkg::TS_CP_INT_STATUS_FENCE_LSB +: 8] = int_fence_q;
    int_status_rdata[tessera_spec_pkg::TS_CP_INT_STATUS_ERROR_LSB]      = int_err_q;
    int_enable_rdata = '0;
    int_enable_rdata[tessera_spec_pkg::TS_CP_INT_ENABLE_FENCE_LSB +: 8] = en_fence_q;
    int_enable_rdata[tessera_spec_pkg::TS_CP_INT_ENABLE_ERROR_LSB]      = en_err_q;
  end

  logic [31:0] wd;
  assign wd = reg_req_i.wdata;

  always_comb begin
    run_d        = run_q;
    soft_d       = 1'b0;
    qen_d        = qen_q;
    halted_d     = halted_q;
    int_fence_d  = int_fence_q | (int_raise_i & QueueMask);
    int_err_d    = int_err_q;
    en_fence_d   = en_fence_q;
    en_err_d     = en_err_q;
    err_valid_d  = err_valid_q;
    err_status_d = err_status_q;
    err_addr_d   = err_addr_q;
    base_d       = base_q;
    log2_d       = log2_q;
    wptr_d       = wptr_q;
    rsp_valid_d  = req_go;
    rsp_d        = '0;

    // A firmware error report: the first one since the record was cleared is kept.
    if (err_report_i) begin
      int_err_d = 1'b1;
      halted_d[err_info_i[tessera_spec_pkg::TS_CPFW_ERROR_REPORT_QUEUE_LSB +: 3]] = 1'b1;
      if (!err_valid_q) begin
        err_valid_d  = 1'b1;
        err_status_d = '0;
        err_status_d[tessera_spec_pkg::TS_CP_ERROR_STATUS_CODE_LSB +: 4] =
            err_info_i[tessera_spec_pkg::TS_CPFW_ERROR_REPORT_CODE_LSB +: 4];
        err_status_d[tessera_spec_pkg::TS_CP_ERROR_STATUS_QUEUE_LSB +: 3] =
            err_info_i[tessera_spec_pkg::TS_CPFW_ERROR_REPORT_QUEUE_LSB +: 3];
        err_status_d[tessera_spec_pkg::TS_CP_ERROR_STATUS_IB_LEVEL_LSB +: 2] =
            err_info_i[tessera_spec_pkg::TS_CPFW_ERROR_REPORT_IB_LEVEL_LSB +: 2];
        err_status_d[tessera_spec_pkg::TS_CP_ERROR_STATUS_OPCODE_LSB +: 8] =
            err_info_i[tessera_spec_pkg::TS_CPFW_ERROR_REPORT_OPCODE_LSB +: 8];
        err_addr_d = err_addr_i;
      end
    end

    if (req_go) begin
      if (!in_block || !aligned) begin
        rsp_d.err = 1'b1;
      end else if (q_idx < 32'(NUM_QUEUES)) begin
        if (q_off == tessera_spec_pkg::TS_CP_RING_BASE_OFFSET) begin
          rsp_d.rdata = {base_q[q_idx*26 +: 26], 6'b0};
          if (reg_req_i.we) base_d[q_idx*26 +: 26] = wd[31:6];
        end else if (q_off == tessera_spec_pkg::TS_CP_RING_SIZE_OFFSET) begin
          rsp_d.rdata = 32'(log2_q[q_idx*5 +: 5]);
          if (reg_req_i.we) log2_d[q_idx*5 +: 5] = wd[4:0];
        end else if (q_off == tessera_spec_pkg::TS_CP_RING_RPTR_OFFSET) begin
          rsp_d.rdata = 32'(rptr_i[q_idx*16 +: 16]);
          rsp_d.err   = reg_req_i.we;
        end else if (q_off == tessera_spec_pkg::TS_CP_RING_WPTR_OFFSET) begin
          rsp_d.rdata = 32'(wptr_q[q_idx*16 +: 16]);
          if (reg_req_i.we) wptr_d[q_idx*16 +: 16] = wd[15:0];
        end else if (q_off == tessera_spec_pkg::TS_CP_DOORBELL_OFFSET) begin
          if (reg_req_i.we) wptr_d[q_idx*16 +: 16] = wd[15:0];
        end else begin
          rsp_d.err = 1'b1;
        end
      end else if (at(off, tessera_spec_pkg::TS_CP_ID_OFFSET)) begin
        rsp_d.rdata = tessera_spec_pkg::TS_CP_ID_RESET;
        rsp_d.err   = reg_req_i.we;
      end else if (at(off, tessera_spec_pkg::TS_CP_VERSION_OFFSET)) begin
        rsp_d.rdata = version_rdata;
        rsp_d.err   = reg_req_i.we;
      end else if (at(off, tessera_spec_pkg::TS_CP_CTRL_OFFSET)) begin
        rsp_d.rdata = ctrl_rdata;
        if (reg_req_i.we) begin
          run_d  = wd[tessera_spec_pkg::TS_CP_CTRL_RUN_LSB];
          qen_d  = wd[tessera_spec_pkg::TS_CP_CTRL_QUEUE_ENABLE_LSB +: 8] & QueueMask;
          soft_d = wd[tessera_spec_pkg::TS_CP_CTRL_SOFT_RESET_LSB];
        end
      end else if (at(off, tessera_spec_pkg::TS_CP_STATUS_OFFSET)) begin
        rsp_d.rdata = status_rdata;
        rsp_d.err   = reg_req_i.we;
      end else if (at(off, tessera_spec_pkg::TS_CP_INT_STATUS_OFFSET)) begin
        rsp_d.rdata = int_status_rdata;
        if (reg_req_i.we) begin
          int_fence_d &= ~wd[tessera_spec_pkg::TS_CP_INT_STATUS_FENCE_LSB +: 8];
          if (wd[tessera_spec_pkg::TS_CP_INT_STATUS_ERROR_LSB]) begin
            int_err_d   = 1'b0;
            err_valid_d = 1'b0;   // clearing the interrupt clears the record (cp.yaml)
          end
        end
      end else if (at(off, tessera_spec_pkg::TS_CP_INT_ENABLE_OFFSET)) begin
        rsp_d.rdata = int_enable_rdata;
        if (reg_req_i.we) begin
          en_fence_d = wd[tessera_spec_pkg::TS_CP_INT_ENABLE_FENCE_LSB +: 8] & QueueMask;
          en_err_d   = wd[tessera_spec_pkg::TS_CP_INT_ENABLE_ERROR_LSB];
        end
      end else if (at(off, tessera_spec_pkg::TS_CP_ERROR_STATUS_OFFSET)) begin
        rsp_d.rdata = err_status_q;
        rsp_d.rdata[tessera_spec_pkg::TS_CP_ERROR_STATUS_VALID_LSB] = err_valid_q;
        if (reg_req_i.we && wd[tessera_spec_pkg::TS_CP_ERROR_STATUS_VALID_LSB]) begin
          err_valid_d = 1'b0;
        end
      end else if (at(off, tessera_spec_pkg::TS_CP_ERROR_ADDR_OFFSET)) begin
        rsp_d.rdata = err_addr_q;
        rsp_d.err   = reg_req_i.we;
      end else begin
        rsp_d.err = 1'b1;
      end
    end

    // Soft reset: queues stop, pointers, halts and the error record clear (cp.yaml CTRL).
    if (soft_q) begin
      qen_d       = '0;
      halted_d    = '0;
      wptr_d      = '0;
      err_valid_d = 1'b0;
      int_err_d   = 1'b0;
      int_fence_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q        <= tessera_spec_pkg::TS_CP_CTRL_RUN_RESET;
      soft_q       <= 1'b0;
      qen_q        <= '0;
      halted_q     <= '0;
      int_fence_q  <= '0;
      int_err_q    <= 1'b0;
      en_fence_q   <= '0;
      en_err_q     <= 1'b0;
      err_valid_q  <= 1'b0;
      err_status_q <= '0;
      err_addr_q   <= '0;
      base_q       <= '0;
      log2_q       <= '0;
      wptr_q       <= '0;
      rsp_valid_q  <= 1'b0;
      rsp_q        <= '0;
    end else begin
      run_q        <= run_d;
      soft_q       <= soft_d;
      qen_q        <= qen_d;
      halted_q     <= halted_d;
      int_fence_q  <= int_fence_d;
      int_err_q    <= int_err_d;
      en_fence_q   <= en_fence_d;
      en_err_q     <= en_err_d;
      err_valid_q  <= err_valid_d;
      err_status_q <= err_status_d;
      err_addr_q   <= err_addr_d;
      base_q       <= base_d;
      log2_q       <= log2_d;
      wptr_q       <= wptr_d;
      rsp_valid_q  <= rsp_valid_d;
      rsp_q        <= rsp_d;
    end
  end

  always_comb begin
    ring_base_o = '0;
    for (int unsigned q = 0; q < NUM_QUEUES; q++) begin
      ring_base_o[q*32 +: 32] = {base_q[q*26 +: 26], 6'b0};
    end
  end
  assign ring_log2_o     = log2_q;
  assign wptr_o          = wptr_q;
  assign queue_enable_o  = qen_q;
  assign queue_halted_o  = halted_q;
  assign run_o           = run_q;
  assign soft_reset_o    = soft_q;
  assign reg_rsp_valid_o = rsp_valid_q;
  assign reg_rsp_o       = rsp_q;
  assign irq_o           = |(int_fence_q & en_fence_q) || (int_err_q && en_err_q);

  // ERROR_REPORT fields this block does not store are reserved bits of the report.
  logic [31:0] unused_err_info;
  assign unused_err_info = err_info_i;

  `ASSERT_INIT(QueuesFit_A, NUM_QUEUES >= 1 && NUM_QUEUES <= 8)

endmodule
