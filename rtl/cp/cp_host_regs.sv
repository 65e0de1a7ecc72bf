// cp_host_regs -- the CP's host-visible registers (spec/registers/cp.yaml, block CP) on the
// internal register bus: identification, control (run, soft reset, queue enables), status,
// interrupts, the first-error record and the per-queue ring registers with doorbells.
//
// Decode, storage, resets and errors are the generated register top's (cp_reg_top, from
// spec/registers/cp.yaml; docs/spec-generator.md "Register tops"): ready whenever no response
// is pending, answer one cycle after the request; err = 1 for an unmapped or misaligned offset
// and for a write to a read-only register (nothing changes). What stays here is the CP's side:
// soft reset, the first-error record, the halted queues, doorbells and the interrupt line.
// One deviation from the hand-written block this replaced: a fence or error interrupt raised
// in the very cycle software clears its INT_STATUS bit now stays set (the generated w1c rule,
// a set wins), where before the clear won and the interrupt was lost.
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

  localparam logic [7:0] QueueMask = 8'((1 << NUM_QUEUES) - 1);
  localparam int unsigned ErrQueueLsb = tessera_spec_pkg::TS_CPFW_ERROR_REPORT_QUEUE_LSB;

  cp_reg_pkg::cp_reg2hw_t reg2hw;
  cp_reg_pkg::cp_hw2reg_t hw2reg;

  cp_reg_top #(
    .CTRL_QUEUE_ENABLE_WMASK (QueueMask),
    .INT_ENABLE_FENCE_WMASK  (QueueMask)
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

  // ---- soft reset, halted queues and the first-error record --------------------------------
  logic       soft_d, soft_q;
  logic [7:0] halted_d, halted_q;
  logic [3:0] err_code_d, err_code_q;
  logic [2:0] err_queue_d, err_queue_q;
  logic [1:0] err_level_d, err_level_q;
  logic [7:0] err_opcode_d, err_opcode_q;
  logic [31:0] err_addr_d, err_addr_q;
  logic       record;  // this report is the first since the record was cleared

  assign soft_d = reg2hw.ctrl.qe && reg2hw.ctrl.soft_reset;
  assign record = err_report_i && !reg2hw.error_status.valid;

  always_comb begin
    halted_d     = halted_q;
    err_code_d   = err_code_q;
    err_queue_d  = err_queue_q;
    err_level_d  = err_level_q;
    err_opcode_d = err_opcode_q;
    err_addr_d   = err_addr_q;
    if (err_report_i) halted_d[err_info_i[ErrQueueLsb +: 3]] = 1'b1;
    if (record) begin
      err_code_d   = err_info_i[tessera_spec_pkg::TS_CPFW_ERROR_REPORT_CODE_LSB +: 4];
      err_queue_d  = err_info_i[ErrQueueLsb +: 3];
      err_level_d  = err_info_i[tessera_spec_pkg::TS_CPFW_ERROR_REPORT_IB_LEVEL_LSB +: 2];
      err_opcode_d = err_info_i[tessera_spec_pkg::TS_CPFW_ERROR_REPORT_OPCODE_LSB +: 8];
      err_addr_d   = err_addr_i;
    end
    if (soft_q) halted_d = '0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      soft_q       <= 1'b0;
      halted_q     <= '0;
      err_code_q   <= '0;
      err_queue_q  <= '0;
      err_level_q  <= '0;
      err_opcode_q <= '0;
      err_addr_q   <= '0;
    end else begin
      soft_q       <= soft_d;
      halted_q     <= halted_d;
      err_code_q   <= err_code_d;
      err_queue_q  <= err_queue_d;
      err_level_q  <= err_level_d;
      err_opcode_q <= err_opcode_d;
      err_addr_q   <= err_addr_d;
    end
  end

  // ---- values and hardware writes for the register top -------------------------------------
  logic [7:0] active;
  logic       int_error_cleared;  // the host cleared INT_STATUS.error: the record goes too (cp.yaml)
  assign int_error_cleared = reg2hw.int_status.qe &&
                             reg2hw.int_status.wd[tessera_spec_pkg::TS_CP_INT_STATUS_ERROR_LSB];

  always_comb begin
    active = queue_busy_i;
    for (int unsigned q = 0; q < NUM_QUEUES; q++) begin
      if (rptr_i[q*16 +: 16] != reg2hw.queue_ring_wptr.ptr[q*16 +: 16]) active[q] = 1'b1;
    end
    active &= QueueMask;

    hw2reg = '0;
    hw2reg.id.magic                  = tessera_spec_pkg::TS_CP_ID_MAGIC_RESET;
    hw2reg.version.minor             = tessera_spec_pkg::TS_CP_VERSION_MINOR_RESET;
    hw2reg.version.major             = tessera_spec_pkg::TS_CP_VERSION_MAJOR_RESET;
    hw2reg.version.num_queues        = 4'(NUM_QUEUES);
    hw2reg.ctrl.queue_enable_de      = soft_q;  // soft reset stops the queues
    hw2reg.ctrl.queue_enable_d       = '0;
    hw2reg.status.idle               = (active == '0) && pipe_idle_i;
    hw2reg.status.core_running       = core_running_i;
    hw2reg.status.queue_active       = active;
    hw2reg.status.queue_waiting      = queue_waiting_i & QueueMask;
    hw2reg.status.queue_halted       = halted_q;
    hw2reg.int_status.fence_set      = int_raise_i & QueueMask;
    hw2reg.int_status.error_set      = err_report_i;
    hw2reg.int_status.fence_de       = soft_q;
    hw2reg.int_status.fence_d        = '0;
    hw2reg.int_status.error_de       = soft_q;
    hw2reg.int_status.error_d        = 1'b0;
    hw2reg.error_status.code         = err_code_q;
    hw2reg.error_status.queue_f      = err_queue_q;
    hw2reg.error_status.ib_level     = err_level_q;
    hw2reg.error_status.opcode       = err_opcode_q;
    hw2reg.error_status.valid_set    = err_report_i;
    hw2reg.error_status.valid_de     = soft_q || int_error_cleared;
    hw2reg.error_status.valid_d      = 1'b0;
    hw2reg.error_addr.addr           = err_addr_q;
    for (int unsigned q = 0; q < NUM_QUEUES; q++) begin
      hw2reg.queue_ring_rptr.ptr[q*16 +: 16] = rptr_i[q*16 +: 16];
      // a doorbell sets the write pointer; soft reset clears it
      hw2reg.queue_ring_wptr.ptr_de[q]       = soft_q || reg2hw.queue_doorbell.qe[q];
      hw2reg.queue_ring_wptr.ptr_d[q*16 +: 16] =
          soft_q ? 16'd0 : reg2hw.queue_doorbell.wptr[q*16 +: 16];
    end
  end

  // ---- outputs -----------------------------------------------------------------------------
  always_comb begin
    ring_base_o = '0;
    ring_log2_o = '0;
    wptr_o      = '0;
    for (int unsigned q = 0; q < NUM_QUEUES; q++) begin
      ring_base_o[q*32 +: 32] = {reg2hw.queue_ring_base.addr[q*26 +: 26], 6'b0};
      ring_log2_o[q*5 +: 5]   = reg2hw.queue_ring_size.log2_dwords[q*5 +: 5];
      wptr_o[q*16 +: 16]      = reg2hw.queue_ring_wptr.ptr[q*16 +: 16];
    end
  end
  assign queue_enable_o = reg2hw.ctrl.queue_enable;
  assign queue_halted_o = halted_q;
  assign run_o          = reg2hw.ctrl.run;
  assign soft_reset_o   = soft_q;
  assign irq_o          = |(reg2hw.int_status.fence & reg2hw.int_enable.fence) ||
                          (reg2hw.int_status.error && reg2hw.int_enable.error);

  // ERROR_REPORT fields this block does not store are reserved bits of the report; the
  // written INT_STATUS word matters for its error bit only.
  logic [31:0] unused_err_info;
  logic        unused_int_status_wd;
  assign unused_err_info      = err_info_i;
  assign unused_int_status_wd = ^reg2hw.int_status.wd;

  `ASSERT_INIT(QueuesFit_A, NUM_QUEUES == tessera_spec_pkg::TS_CP_QUEUE_COUNT)

endmodule
