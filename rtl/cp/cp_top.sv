// cp_top -- the command processor (ARCHITECTURE.md 5.1; docs/cp.md).
//
//   host AXI4-Lite --> axil_to_regbus --+--> regbus_arb --+--> cp_host_regs (CP block, 0x0000)
//   core register window (0x0004_xxxx) -+                 +--> ext_reg_* (every other block)
//
//   cp_core (RV32IM) -- instr --> ROM (16 KiB, firmware image)
//                    -- data  --> cp_bus --> ROM (.rodata) | DMEM 16 KiB | cp_fw_regs |
//                                            register window | GPU memory window (mem_w_*)
//   cp_fw_regs --> cp_fetcher (packet fetch channels, mem_f_*)
//              --> pipeline command FIFO (pipe_*), slice-cache maintenance (cache_*)
//
// Reset: rst_ni resets everything. CTRL.run = 0 or a CTRL.soft_reset pulse holds the core, its
// bus, the firmware registers and the fetcher in reset (cp_rst_n, registered so it is
// glitch-free); the host registers stay, and clear their own soft-reset state. While the core
// is held, the ROM can be loaded through rom_load_* (benches load a test firmware this way;
// ROM_INIT loads the firmware build at time 0).
`include "prim_assert.svh"

module cp_top #(
  parameter              ROM_INIT   = "",              // $readmemh image of the firmware
  parameter logic [31:0] MEM_BYTES  = 32'h0100_0000,   // GPU memory size
  parameter int unsigned PIPE_DEPTH = 8,
  // Derived (do not override)
  localparam int unsigned NumQueues = tessera_spec_pkg::TS_CP_QUEUE_COUNT
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,

  // host register port (AXI4-Lite, 16-bit addresses: the GPU register map)
  input  logic                         s_axil_awvalid_i,
  output logic                         s_axil_awready_o,
  input  logic [15:0]                  s_axil_awaddr_i,
  input  logic                         s_axil_wvalid_i,
  output logic                         s_axil_wready_o,
  input  logic [31:0]                  s_axil_wdata_i,
  input  logic [3:0]                   s_axil_wstrb_i,
  output logic                         s_axil_bvalid_o,
  input  logic                         s_axil_bready_i,
  output logic [1:0]                   s_axil_bresp_o,
  input  logic                         s_axil_arvalid_i,
  output logic                         s_axil_arready_o,
  input  logic [15:0]                  s_axil_araddr_i,
  output logic                         s_axil_rvalid_o,
  input  logic                         s_axil_rready_i,
  output logic [31:0]                  s_axil_rdata_o,
  output logic [1:0]                   s_axil_rresp_o,
  output logic                         irq_o,

  // register bus towards the other blocks (every address outside the CP block)
  output logic                         ext_reg_req_valid_o,
  input  logic                         ext_reg_req_ready_i,
  output tessera_regbus_pkg::reg_req_t ext_reg_req_o,
  input  logic                         ext_reg_rsp_valid_i,
  input  tessera_regbus_pkg::reg_rsp_t ext_reg_rsp_i,

  // memory clients: packet fetch (f) and the firmware's GPU memory window (w)
  output logic                         mem_f_req_valid_o,
  input  logic                         mem_f_req_ready_i,
  output tessera_mem_pkg::mem_req_t    mem_f_req_o,
  input  logic                         mem_f_rsp_valid_i,
  output logic                         mem_f_rsp_ready_o,
  input  tessera_mem_pkg::mem_rsp_t    mem_f_rsp_i,
  output logic                         mem_w_req_valid_o,
  input  logic                         mem_w_req_ready_i,
  output tessera_mem_pkg::mem_req_t    mem_w_req_o,
  input  logic                         mem_w_rsp_valid_i,
  output logic                         mem_w_rsp_ready_o,
  input  tessera_mem_pkg::mem_rsp_t    mem_w_rsp_i,

  // pipeline command port (PC_US)
  output logic                         pipe_valid_o,
  input  logic                         pipe_ready_i,
  output tessera_cp_pkg::pipe_cmd_t    pipe_cmd_o,
  input  logic                         pipe_done_i,

  // slice-cache maintenance
  output logic                         cache_req_o,
  output logic                         cache_flush_o,
  output logic                         cache_invalidate_o,
  input  logic                         cache_done_i,

  // ROM load port (only while the core is held in reset)
  input  logic                         rom_load_we_i,
  input  logic [11:0]                  rom_load_addr_i,
  input  logic [31:0]                  rom_load_data_i,

  // debug and statistics
  output logic                         console_valid_o,
  output logic [7:0]                   console_char_o,
  output logic [31:0]                  fw_status_o,
  output logic                         core_running_o,
  output logic                         retire_valid_o,
  output logic [31:0]                  retire_pc_o,
  output logic [31:0]                  retire_insn_o,
  output logic [31:0]                  pipe_issued_o,
  output logic [31:0]                  pipe_done_count_o
);

  localparam int unsigned NumCh = NumQueues * tessera_cp_pkg::CH_PER_QUEUE;
  localparam int unsigned ChW   = (NumCh > 1) ? $clog2(NumCh) : 1;

  // ---- host side: AXI4-Lite, register bus arbiter and decode ---------------------------------
  logic                         host_req_valid, host_req_ready, host_rsp_valid;
  tessera_regbus_pkg::reg_req_t host_req;
  logic                         core_reg_valid, core_reg_ready;
  tessera_regbus_pkg::reg_req_t core_reg_req;
  logic [1:0]                   m_req_ready, m_rsp_valid;
  tessera_regbus_pkg::reg_rsp_t m_rsp;
  logic                         bus_req_valid, bus_req_ready, bus_rsp_valid;
  tessera_regbus_pkg::reg_req_t bus_req;
  tessera_regbus_pkg::reg_rsp_t bus_rsp;

  axil_to_regbus #(.ADDR_W(16)) u_axil (
    .clk_i,
    .rst_ni,
    .s_awvalid_i    (s_axil_awvalid_i),
    .s_awready_o    (s_axil_awready_o),
    .s_awaddr_i     (s_axil_awaddr_i),
    .s_wvalid_i     (s_axil_wvalid_i),
    .s_wready_o     (s_axil_wready_o),
    .s_wdata_i      (s_axil_wdata_i),
    .s_wstrb_i      (s_axil_wstrb_i),
    .s_bvalid_o     (s_axil_bvalid_o),
    .s_bready_i     (s_axil_bready_i),
    .s_bresp_o      (s_axil_bresp_o),
    .s_arvalid_i    (s_axil_arvalid_i),
    .s_arready_o    (s_axil_arready_o),
    .s_araddr_i     (s_axil_araddr_i),
    .s_rvalid_o     (s_axil_rvalid_o),
    .s_rready_i     (s_axil_rready_i),
    .s_rdata_o      (s_axil_rdata_o),
    .s_rresp_o      (s_axil_rresp_o),
    .reg_req_valid_o(host_req_valid),
    .reg_req_ready_i(host_req_ready),
    .reg_req_o      (host_req),
    .reg_rsp_valid_i(host_rsp_valid),
    .reg_rsp_i      (m_rsp)
  );

  regbus_arb u_reg_arb (
    .clk_i,
    .rst_ni,
    .m_req_valid_i({core_reg_valid, host_req_valid}),
    .m_req_ready_o(m_req_ready),
    .m0_req_i     (host_req),
    .m1_req_i     (core_reg_req),
    .m_rsp_valid_o(m_rsp_valid),
    .m_rsp_o      (m_rsp),
    .s_req_valid_o(bus_req_valid),
    .s_req_ready_i(bus_req_ready),
    .s_req_o      (bus_req),
    .s_rsp_valid_i(bus_rsp_valid),
    .s_rsp_i      (bus_rsp)
  );
  assign host_req_ready = m_req_ready[0];
  assign core_reg_ready = m_req_ready[1];
  assign host_rsp_valid = m_rsp_valid[0];

  // Decode: the CP block answers its own aperture, everything else goes out.
  logic                         to_cp, cp_reg_ready, cp_rsp_valid;
  tessera_regbus_pkg::reg_rsp_t cp_rsp;
  assign to_cp = 32'(bus_req.addr) < tessera_spec_pkg::TS_CP_BASE_ADDR + tessera_spec_pkg::TS_CP_SIZE;
  assign ext_reg_req_valid_o = bus_req_valid && !to_cp;
  assign ext_reg_req_o       = bus_req;
  assign bus_req_ready       = to_cp ? cp_reg_ready : ext_reg_req_ready_i;
  assign bus_rsp_valid       = cp_rsp_valid || ext_reg_rsp_valid_i;
  assign bus_rsp             = cp_rsp_valid ? cp_rsp : ext_reg_rsp_i;

  // ---- CP reset domain ---------------------------------------------------------------------
  logic run, soft_reset, cp_rst_nq;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cp_rst_nq <= 1'b0;
    else         cp_rst_nq <= run && !soft_reset;
  end

  // ---- host registers ----------------------------------------------------------------------
  logic [NumQueues*32-1:0] ring_base;
  logic [NumQueues*5-1:0]  ring_log2;
  logic [NumQueues*16-1:0] wptr, rptr;
  logic [7:0]              queue_enable, queue_halted, queue_waiting, queue_busy, int_raise;
  logic                    err_report, pipe_idle;
  logic [31:0]             err_info, err_addr;

  cp_host_regs #(.NUM_QUEUES(NumQueues)) u_host_regs (
    .clk_i,
    .rst_ni,
    .reg_req_valid_i(bus_req_valid && to_cp),
    .reg_req_ready_o(cp_reg_ready),
    .reg_req_i      (bus_req),
    .reg_rsp_valid_o(cp_rsp_valid),
    .reg_rsp_o      (cp_rsp),
    .run_o          (run),
    .soft_reset_o   (soft_reset),
    .ring_base_o    (ring_base),
    .ring_log2_o    (ring_log2),
    .wptr_o         (wptr),
    .queue_enable_o (queue_enable),
    .queue_halted_o (queue_halted),
    .irq_o,
    .rptr_i         (rptr),
    .queue_waiting_i(queue_waiting),
    .queue_busy_i   (queue_busy),
    .int_raise_i    (int_raise),
    .err_report_i   (err_report),
    .err_info_i     (err_info),
    .err_addr_i     (err_addr),
    .core_running_i (cp_rst_nq),
    .pipe_idle_i    (pipe_idle)
  );

  // ---- core and its memories ---------------------------------------------------------------
  logic [31:0] rom_rdata;
  logic        instr_req, instr_gnt, instr_rvalid_q, instr_err_q;
  logic [31:0] instr_addr;
  logic        data_req, data_we, data_gnt, data_rvalid, data_err;
  logic [3:0]  data_be;
  logic [31:0] data_addr, data_wdata, data_rdata;
  logic        unused_retire_trap, unused_sleep;
  logic [4:0]  unused_retire_rd;
  logic [31:0] unused_retire_rd_wdata;

  cp_core #(
    .BOOT_ADDR(tessera_cp_pkg::ROM_BASE),
    .HART_ID  (32'h0)
  ) u_core (
    .clk_i,
    .rst_ni           (cp_rst_nq),
    .instr_req_o      (instr_req),
    .instr_addr_o     (instr_addr),
    .instr_gnt_i      (instr_gnt),
    .instr_rvalid_i   (instr_rvalid_q),
    .instr_rdata_i    (instr_err_q ? 32'd0 : rom_rdata),
    .instr_err_i      (instr_err_q),
    .data_req_o       (data_req),
    .data_we_o        (data_we),
    .data_be_o        (data_be),
    .data_addr_o      (data_addr),
    .data_wdata_o     (data_wdata),
    .data_gnt_i       (data_gnt),
    .data_rvalid_i    (data_rvalid),
    .data_rdata_i     (data_rdata),
    .data_err_i       (data_err),
    .irq_external_i   (1'b0),
    .retire_valid_o   (retire_valid_o),
    .retire_pc_o      (retire_pc_o),
    .retire_insn_o    (retire_insn_o),
    .retire_trap_o    (unused_retire_trap),
    .retire_rd_o      (unused_retire_rd),
    .retire_rd_wdata_o(unused_retire_rd_wdata),
    .sleep_o          (unused_sleep)
  );

  // ROM: one port shared by the load port (core in reset), data reads and instruction fetch,
  // in that priority. An instruction fetch outside the ROM is answered with an error.
  logic        rom_data_req;
  logic [11:0] rom_data_addr;
  logic        rom_req, rom_we, unused_rom_rvalid;
  logic [11:0] rom_addr;
  logic        instr_in_rom, loading;
  assign loading      = !cp_rst_nq && rom_load_we_i;
  assign instr_in_rom = instr_addr[31:14] == tessera_cp_pkg::ROM_BASE[31:14];
  assign instr_gnt    = instr_req && cp_rst_nq && !rom_data_req;
  always_comb begin
    rom_req  = 1'b0;
    rom_we   = 1'b0;
    rom_addr = instr_addr[13:2];
    if (loading) begin
      rom_req  = 1'b1;
      rom_we   = 1'b1;
      rom_addr = rom_load_addr_i;
    end else if (rom_data_req) begin
      rom_req  = 1'b1;
      rom_addr = rom_data_addr;
    end else if (instr_gnt && instr_in_rom) begin
      rom_req  = 1'b1;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      instr_rvalid_q <= 1'b0;
      instr_err_q    <= 1'b0;
    end else begin
      instr_rvalid_q <= instr_gnt && cp_rst_nq;
      instr_err_q    <= instr_gnt && !instr_in_rom;
    end
  end

  prim_ram_1p #(
    .WIDTH    (32),
    .DEPTH    (tessera_cp_pkg::ROM_BYTES / 4),
    .INIT_FILE(ROM_INIT)
  ) u_rom (
    .clk_i,
    .rst_ni,
    .req_i   (rom_req),
    .we_i    (rom_we),
    .addr_i  (rom_addr),
    .wdata_i (rom_load_data_i),
    .wmask_i (1'b1),
    .rdata_o (rom_rdata),
    .rvalid_o(unused_rom_rvalid)
  );

  logic        dmem_req, dmem_we, unused_dmem_rvalid;
  logic [11:0] dmem_addr;
  logic [31:0] dmem_wdata, dmem_rdata;
  logic [3:0]  dmem_be;
  prim_ram_1p #(
    .WIDTH             (32),
    .DEPTH             (tessera_cp_pkg::DMEM_BYTES / 4),
    .DATA_BITS_PER_MASK(8)
  ) u_dmem (
    .clk_i,
    .rst_ni,
    .req_i   (dmem_req),
    .we_i    (dmem_we),
    .addr_i  (dmem_addr),
    .wdata_i (dmem_wdata),
    .wmask_i (dmem_be),
    .rdata_o (dmem_rdata),
    .rvalid_o(unused_dmem_rvalid)
  );

  // ---- data bus ----------------------------------------------------------------------------
  logic                         fw_req, fw_we, fw_ack, fw_err;
  logic [3:0]                   fw_be;
  logic [11:0]                  fw_addr;
  logic [31:0]                  fw_wdata, fw_rdata;
  logic [5:0]                   window_dsid;
  tessera_regbus_pkg::reg_rsp_t core_reg_rsp;
  assign core_reg_rsp = m_rsp;

  cp_bus #(.MEM_BYTES(MEM_BYTES)) u_bus (
    .clk_i,
    .rst_ni         (cp_rst_nq),
    .data_req_i     (data_req),
    .data_we_i      (data_we),
    .data_be_i      (data_be),
    .data_addr_i    (data_addr),
    .data_wdata_i   (data_wdata),
    .data_gnt_o     (data_gnt),
    .data_rvalid_o  (data_rvalid),
    .data_rdata_o   (data_rdata),
    .data_err_o     (data_err),
    .rom_req_o      (rom_data_req),
    .rom_addr_o     (rom_data_addr),
    .rom_rdata_i    (rom_rdata),
    .dmem_req_o     (dmem_req),
    .dmem_we_o      (dmem_we),
    .dmem_addr_o    (dmem_addr),
    .dmem_wdata_o   (dmem_wdata),
    .dmem_be_o      (dmem_be),
    .dmem_rdata_i   (dmem_rdata),
    .fw_req_o       (fw_req),
    .fw_we_o        (fw_we),
    .fw_be_o        (fw_be),
    .fw_addr_o      (fw_addr),
    .fw_wdata_o     (fw_wdata),
    .fw_ack_i       (fw_ack),
    .fw_rdata_i     (fw_rdata),
    .fw_err_i       (fw_err),
    .reg_req_valid_o(core_reg_valid),
    .reg_req_ready_i(core_reg_ready),
    .reg_req_o      (core_reg_req),
    .reg_rsp_valid_i(m_rsp_valid[1]),
    .reg_rsp_i      (core_reg_rsp),
    .window_dsid_i  (window_dsid),
    .mem_req_valid_o(mem_w_req_valid_o),
    .mem_req_ready_i(mem_w_req_ready_i),
    .mem_req_o      (mem_w_req_o),
    .mem_rsp_valid_i(mem_w_rsp_valid_i),
    .mem_rsp_ready_o(mem_w_rsp_ready_o),
    .mem_rsp_i      (mem_w_rsp_i)
  );

  // ---- firmware registers and fetcher ------------------------------------------------------
  logic [NumCh-1:0]    fetch_start, fetch_err;
  logic [31:0]         fetch_start_addr, fetch_pop_data;
  logic [23:0]         fetch_start_count;
  logic [NumCh*32-1:0] fetch_pop_addr;
  logic [NumCh*24-1:0] fetch_remaining;
  logic                fetch_pop_req, fetch_pop_valid;
  logic [ChW-1:0]      fetch_pop_ch;

  cp_fw_regs #(
    .NUM_QUEUES(NumQueues),
    .PIPE_DEPTH(PIPE_DEPTH),
    .MEM_BYTES (MEM_BYTES)
  ) u_fw_regs (
    .clk_i,
    .rst_ni             (cp_rst_nq),
    .req_i              (fw_req),
    .we_i               (fw_we),
    .be_i               (fw_be),
    .addr_i             (fw_addr),
    .wdata_i            (fw_wdata),
    .ack_o              (fw_ack),
    .rdata_o            (fw_rdata),
    .err_o              (fw_err),
    .ring_base_i        (ring_base),
    .ring_log2_i        (ring_log2),
    .wptr_i             (wptr),
    .queue_enable_i     (queue_enable),
    .queue_halted_i     (queue_halted),
    .rptr_o             (rptr),
    .queue_waiting_o    (queue_waiting),
    .queue_busy_o       (queue_busy),
    .int_raise_o        (int_raise),
    .err_report_o       (err_report),
    .err_info_o         (err_info),
    .err_addr_o         (err_addr),
    .console_valid_o,
    .console_char_o,
    .window_dsid_o      (window_dsid),
    .fw_status_o,
    .fetch_start_o      (fetch_start),
    .fetch_start_addr_o (fetch_start_addr),
    .fetch_start_count_o(fetch_start_count),
    .fetch_pop_addr_i   (fetch_pop_addr),
    .fetch_remaining_i  (fetch_remaining),
    .fetch_pop_req_o    (fetch_pop_req),
    .fetch_pop_ch_o     (fetch_pop_ch),
    .fetch_pop_valid_i  (fetch_pop_valid),
    .fetch_pop_data_i   (fetch_pop_data),
    .fetch_err_i        (fetch_err),
    .pipe_valid_o,
    .pipe_ready_i,
    .pipe_cmd_o,
    .pipe_done_i,
    .pipe_idle_o        (pipe_idle),
    .pipe_issued_o,
    .pipe_done_count_o,
    .cache_req_o,
    .cache_flush_o,
    .cache_invalidate_o,
    .cache_done_i
  );

  cp_fetcher #(.NUM_CH(NumCh)) u_fetcher (
    .clk_i,
    .rst_ni         (cp_rst_nq),
    .start_i        (fetch_start),
    .start_addr_i   (fetch_start_addr),
    .start_count_i  (fetch_start_count),
    .pop_addr_o     (fetch_pop_addr),
    .remaining_o    (fetch_remaining),
    .pop_req_i      (fetch_pop_req),
    .pop_ch_i       (fetch_pop_ch),
    .pop_valid_o    (fetch_pop_valid),
    .pop_data_o     (fetch_pop_data),
    .err_o          (fetch_err),
    .mem_req_valid_o(mem_f_req_valid_o),
    .mem_req_ready_i(mem_f_req_ready_i),
    .mem_req_o      (mem_f_req_o),
    .mem_rsp_valid_i(mem_f_rsp_valid_i),
    .mem_rsp_ready_o(mem_f_rsp_ready_o),
    .mem_rsp_i      (mem_f_rsp_i)
  );

  assign core_running_o = cp_rst_nq;

  // Instructions are word aligned (the core traps misaligned targets before fetching).
  logic [1:0] unused_instr_addr;
  assign unused_instr_addr = instr_addr[1:0];

  `ASSERT(RomLoadOnlyInReset_A, rom_load_we_i |-> !cp_rst_nq)
  `ASSERT(OneRegRspAtATime_A, !(cp_rsp_valid && ext_reg_rsp_valid_i))

endmodule
