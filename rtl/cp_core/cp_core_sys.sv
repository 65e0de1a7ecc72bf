// cp_core_sys -- cp_core with the command processor's memory map, for cp-run and benches.
//
// Design: docs/cp-core.md, "cp_core_sys"; memory map of ARCHITECTURE.md 5.1 (ROM 16 KiB,
// DMEM 16 KiB, MMIO window, GPU memory window), the same map the CP firmware links against.
//
//   0x0000_0000..0x0000_3FFF  ROM: instructions and read-only data. One prim_ram_1p shared by
//                             the fetch and data ports: a data read (.rodata) wins the
//                             cycle and the fetch port sees gnt low for it (the core's fetch
//                             unit holds its request). One array instead of two copies, and it
//                             exercises the fetch port's gnt stall. A data write is an access
//                             fault.
//   0x0001_0000..0x0001_3FFF  DMEM (prim_ram_1p, byte enables). Loads/stores: gnt at once,
//                             rvalid the next cycle.
//   0x0002_0000..0x0002_FFFF  MMIO test device:
//                               +0x0 CONSOLE  write: the lowest enabled byte is printed
//                                             (console_valid_o/console_data_o); reads 0
//                               +0x4 IRQ      write N: clear the interrupt, raise it N cycles
//                                             later (N = 0: stay clear); read: bit 0 = level
//                             other offsets read 0, writes ignored
//   0x8000_0000..0x8000_0FFF  slow memory (stands in for the CP's GPU-memory window): gnt held
//                             low while slow_gnt_stall_i, rvalid slow_latency_i cycles after
//                             gnt (0 counts as 1). The rest of 0x8000_0000.. faults.
//   anything else             access fault (err with rvalid, next cycle).
// Instruction fetch outside the ROM answers with err (instruction access fault).
// Load port: while rst_ni is low, load_we_i writes one word into ROM, DMEM or the slow memory
// (the arrays are not reset, so they keep it); outside those it is ignored.

`include "prim_assert.svh"

module cp_core_sys #(
  parameter logic [31:0] HART_ID = 32'h0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // bench load port (use while rst_ni is low)
  input  logic        load_we_i,
  input  logic [31:0] load_addr_i,
  input  logic [31:0] load_wdata_i,
  // environment
  input  logic        irq_i,             // external interrupt, ORed with the MMIO IRQ timer
  input  logic [15:0] slow_latency_i,    // slow window: cycles from gnt to rvalid
  input  logic        slow_gnt_stall_i,  // slow window: hold gnt low this cycle
  // console
  output logic        console_valid_o,
  output logic [7:0]  console_data_o,
  // accepted data stores (for tohost detection)
  output logic        store_valid_o,
  output logic [31:0] store_addr_o,
  output logic [31:0] store_wdata_o,
  output logic [3:0]  store_be_o,
  // cycles the data port waited for gnt or rvalid (for CPI breakdowns)
  output logic        data_stall_o,
  // retirement trace of the core
  output logic        retire_valid_o,
  output logic [31:0] retire_pc_o,
  output logic [31:0] retire_insn_o,
  output logic        retire_trap_o,
  output logic [4:0]  retire_rd_o,
  output logic [31:0] retire_rd_wdata_o,
  output logic        sleep_o
);

  localparam int unsigned RomWords  = 4096;
  localparam int unsigned DmemWords = 4096;
  localparam int unsigned SlowWords = 1024;

  // --- Core ----------------------------------------------------------------------------------
  logic        instr_req, instr_gnt, instr_rvalid, instr_err;
  logic [31:0] instr_addr, instr_rdata;
  logic        data_req, data_we, data_gnt, data_rvalid, data_err;
  logic [3:0]  data_be;
  logic [31:0] data_addr, data_wdata, data_rdata;
  logic        irq;

  cp_core #(
    .BOOT_ADDR(32'h0000_0000),
    .HART_ID  (HART_ID)
  ) u_core (
    .clk_i,
    .rst_ni,
    .instr_req_o      (instr_req),
    .instr_addr_o     (instr_addr),
    .instr_gnt_i      (instr_gnt),
    .instr_rvalid_i   (instr_rvalid),
    .instr_rdata_i    (instr_rdata),
    .instr_err_i      (instr_err),
    .data_req_o       (data_req),
    .data_we_o        (data_we),
    .data_be_o        (data_be),
    .data_addr_o      (data_addr),
    .data_wdata_o     (data_wdata),
    .data_gnt_i       (data_gnt),
    .data_rvalid_i    (data_rvalid),
    .data_rdata_i     (data_rdata),
    .data_err_i       (data_err),
    .irq_external_i   (irq),
    .retire_valid_o,
    .retire_pc_o,
    .retire_insn_o,
    .retire_trap_o,
    .retire_rd_o,
    .retire_rd_wdata_o,
    .sleep_o
  );

  // --- Address decode ------------------------------------------------------------------------
  logic d_rom, d_dmem, d_mmio, d_slow, d_ok, i_rom;
  logic l_rom, l_dmem, l_slow;
  assign d_rom  = (data_addr[31:14] == 18'h0);
  assign d_dmem = (data_addr[31:14] == 18'h4);
  assign d_mmio = (data_addr[31:16] == 16'h0002);
  assign d_slow = (data_addr[31:12] == 20'h80000);
  assign d_ok   = (d_rom & ~data_we) | d_dmem | d_mmio | d_slow;
  assign i_rom  = (instr_addr[31:14] == 18'h0);
  assign l_rom  = load_we_i & (load_addr_i[31:14] == 18'h0);
  assign l_dmem = load_we_i & (load_addr_i[31:14] == 18'h4);
  assign l_slow = load_we_i & (load_addr_i[31:12] == 20'h80000);

  // --- Slow window FSM -----------------------------------------------------------------------
  logic        slow_busy_d, slow_busy_q;
  logic [15:0] slow_cnt_d, slow_cnt_q;
  logic        slow_gnt, slow_acc, slow_rvalid;
  assign slow_gnt    = ~slow_busy_q & ~slow_gnt_stall_i;
  assign slow_acc    = data_req & d_slow & slow_gnt;
  assign slow_rvalid = slow_busy_q & (slow_cnt_q == 16'd1);
  always_comb begin
    slow_busy_d = slow_busy_q;
    slow_cnt_d  = slow_cnt_q;
    if (slow_acc) begin
      slow_busy_d = 1'b1;
      slow_cnt_d  = (slow_latency_i == 16'd0) ? 16'd1 : slow_latency_i;
    end else if (slow_busy_q) begin
      if (slow_cnt_q == 16'd1) slow_busy_d = 1'b0;
      else slow_cnt_d = slow_cnt_q - 16'd1;
    end
  end

  // --- Data port: grant, accept, response ----------------------------------------------------
  logic data_acc;
  assign data_gnt = d_slow ? slow_gnt : 1'b1;
  assign data_acc = data_req & data_gnt;

  localparam logic [1:0] SrcRom = 2'd0, SrcDmem = 2'd1, SrcMmio = 2'd2, SrcNone = 2'd3;
  logic       rsp_valid_d, rsp_valid_q, rsp_err_d, rsp_err_q;
  logic [1:0] rsp_src_d, rsp_src_q;
  always_comb begin
    rsp_valid_d = data_acc & ~d_slow;
    rsp_err_d   = data_acc & ~d_ok;
    rsp_src_d   = d_rom ? SrcRom : d_dmem ? SrcDmem : d_mmio ? SrcMmio : SrcNone;
    if (!d_ok) rsp_src_d = SrcNone;
  end

  // MMIO test device.
  logic       mmio_wr;
  logic [31:0] mmio_rdata_d, mmio_rdata_q;
  logic       irq_d, irq_q;
  logic [31:0] irq_cnt_d, irq_cnt_q;
  logic       con_valid_d, con_valid_q;
  logic [7:0] con_data_d, con_data_q;
  assign mmio_wr       = data_acc & d_mmio & data_we;
  assign mmio_rdata_d  = (data_addr[15:2] == 14'd1) ? {31'd0, irq_q} : 32'd0;
  always_comb begin
    con_valid_d = mmio_wr & (data_addr[15:2] == 14'd0) & (data_be != 4'b0000);
    con_data_d  = data_be[0] ? data_wdata[7:0]   :
                  data_be[1] ? data_wdata[15:8]  :
                  data_be[2] ? data_wdata[23:16] : data_wdata[31:24];
    irq_d     = irq_q;
    irq_cnt_d = irq_cnt_q;
    if (irq_cnt_q != 32'd0) begin
      irq_cnt_d = irq_cnt_q - 32'd1;
      if (irq_cnt_q == 32'd1) irq_d = 1'b1;
    end
    if (mmio_wr && data_addr[15:2] == 14'd1) begin
      irq_d     = 1'b0;
      irq_cnt_d = data_wdata;
    end
  end
  assign irq = irq_q | irq_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      slow_busy_q   <= 1'b0;
      slow_cnt_q    <= 16'd0;
      rsp_valid_q   <= 1'b0;
      rsp_err_q     <= 1'b0;
      rsp_src_q     <= SrcNone;
      mmio_rdata_q  <= 32'd0;
      irq_q         <= 1'b0;
      irq_cnt_q     <= 32'd0;
      con_valid_q   <= 1'b0;
      con_data_q    <= 8'd0;
    end else begin
      slow_busy_q   <= slow_busy_d;
      slow_cnt_q    <= slow_cnt_d;
      rsp_valid_q   <= rsp_valid_d;
      rsp_err_q     <= rsp_err_d;
      rsp_src_q     <= rsp_src_d;
      mmio_rdata_q  <= mmio_rdata_d;
      irq_q         <= irq_d;
      irq_cnt_q     <= irq_cnt_d;
      con_valid_q   <= con_valid_d;
      con_data_q    <= con_data_d;
    end
  end
  assign console_valid_o = con_valid_q;
  assign console_data_o  = con_data_q;

  // --- ROM: one read port shared by data (priority) and fetch; load port in reset -----------
  logic        rom_dread, rom_fetch, rom_req, rom_we, rom_rvalid;
  logic [11:0] rom_addr;
  logic [31:0] rom_rdata;
  assign rom_dread = data_req & d_rom & ~data_we;     // always granted
  assign rom_fetch = instr_req & i_rom & ~rom_dread & ~l_rom;
  assign rom_req   = l_rom | rom_dread | rom_fetch;
  assign rom_we    = l_rom;
  assign rom_addr  = l_rom ? load_addr_i[13:2] : rom_dread ? data_addr[13:2] : instr_addr[13:2];

  prim_ram_1p #(
    .WIDTH(32),
    .DEPTH(RomWords),
    .DATA_BITS_PER_MASK(32)
  ) u_rom (
    .clk_i,
    .rst_ni,
    .req_i   (rom_req),
    .we_i    (rom_we),
    .addr_i  (rom_addr),
    .wdata_i (load_wdata_i),
    .wmask_i (1'b1),
    .rdata_o (rom_rdata),
    .rvalid_o(rom_rvalid)
  );

  // Fetch port: ROM reads answer next cycle; fetches outside the ROM fault next cycle.
  logic if_rsp_d, if_rsp_q, if_err_d, if_err_q;
  assign instr_gnt = i_rom ? (~rom_dread & ~l_rom) : 1'b1;
  assign if_rsp_d  = instr_req & instr_gnt;
  assign if_err_d  = instr_req & instr_gnt & ~i_rom;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      if_rsp_q <= 1'b0;
      if_err_q <= 1'b0;
    end else begin
      if_rsp_q <= if_rsp_d;
      if_err_q <= if_err_d;
    end
  end
  assign instr_rvalid = if_rsp_q;
  assign instr_err    = if_err_q;
  assign instr_rdata  = if_err_q ? 32'd0 : rom_rdata;

  // --- DMEM ----------------------------------------------------------------------------------
  logic        dmem_req, dmem_we, dmem_rvalid;
  logic [11:0] dmem_addr;
  logic [31:0] dmem_wdata, dmem_rdata;
  logic [3:0]  dmem_mask;
  assign dmem_req   = l_dmem | (data_acc & d_dmem);
  assign dmem_we    = l_dmem | data_we;
  assign dmem_addr  = l_dmem ? load_addr_i[13:2] : data_addr[13:2];
  assign dmem_wdata = l_dmem ? load_wdata_i : data_wdata;
  assign dmem_mask  = l_dmem ? 4'b1111 : data_be;

  prim_ram_1p #(
    .WIDTH(32),
    .DEPTH(DmemWords),
    .DATA_BITS_PER_MASK(8)
  ) u_dmem (
    .clk_i,
    .rst_ni,
    .req_i   (dmem_req),
    .we_i    (dmem_we),
    .addr_i  (dmem_addr),
    .wdata_i (dmem_wdata),
    .wmask_i (dmem_mask),
    .rdata_o (dmem_rdata),
    .rvalid_o(dmem_rvalid)
  );

  // --- Slow memory array (accessed when the request is granted; answered after the latency) --
  logic        slowm_req, slowm_we, slowm_rvalid;
  logic [9:0]  slowm_addr;
  logic [31:0] slowm_wdata, slowm_rdata;
  logic [3:0]  slowm_mask;
  assign slowm_req   = l_slow | slow_acc;
  assign slowm_we    = l_slow | data_we;
  assign slowm_addr  = l_slow ? load_addr_i[11:2] : data_addr[11:2];
  assign slowm_wdata = l_slow ? load_wdata_i : data_wdata;
  assign slowm_mask  = l_slow ? 4'b1111 : data_be;

  prim_ram_1p #(
    .WIDTH(32),
    .DEPTH(SlowWords),
    .DATA_BITS_PER_MASK(8)
  ) u_slow (
    .clk_i,
    .rst_ni,
    .req_i   (slowm_req),
    .we_i    (slowm_we),
    .addr_i  (slowm_addr),
    .wdata_i (slowm_wdata),
    .wmask_i (slowm_mask),
    .rdata_o (slowm_rdata),
    .rvalid_o(slowm_rvalid)
  );

  // --- Data response mux ---------------------------------------------------------------------
  assign data_rvalid = rsp_valid_q | slow_rvalid;
  assign data_err    = rsp_valid_q & rsp_err_q;
  always_comb begin
    if (slow_rvalid) begin
      data_rdata = slowm_rdata;
    end else begin
      unique case (rsp_src_q)
        SrcRom:  data_rdata = rom_rdata;
        SrcDmem: data_rdata = dmem_rdata;
        SrcMmio: data_rdata = mmio_rdata_q;
        default: data_rdata = 32'd0;
      endcase
    end
  end

  assign store_valid_o = data_acc & data_we;
  assign store_addr_o  = data_addr;
  assign store_wdata_o = data_wdata;
  assign store_be_o    = data_be;
  assign data_stall_o  = (data_req & ~data_gnt) | (slow_busy_q & ~slow_rvalid);

  // The RAM rvalid outputs are implied by the response flags above; word addresses only.
  logic unused_sys;
  assign unused_sys = ^{rom_rvalid, dmem_rvalid, slowm_rvalid, load_addr_i[1:0], instr_addr[1:0]};

  `ASSERT(SlowOneAtATime_A, slow_acc |-> !slow_busy_q)
  `ASSERT(RomDataReadAnswered_A, rsp_valid_q && rsp_src_q == SrcRom && !rsp_err_q |-> rom_rvalid)
  `ASSERT(FetchAnswered_A, if_rsp_q && !if_err_q |-> rom_rvalid)
  `ASSERT(NoFastAndSlowRsp_A, !(rsp_valid_q && slow_rvalid))

endmodule
