// cp_bus -- the CP core's data bus: decodes each load/store of the core to the ROM (read
// only: .rodata), the data RAM, the CPFW registers, the GPU register window or the GPU memory
// window, and returns one response per access (docs/cp.md, "Memory map").
//
// Core side: the ibex-style protocol of cp_core (req held until gnt; rvalid later, in order).
// The bus performs one access at a time: gnt in Idle or in the cycle the previous access
// answers (rvalid), so loads and stores can follow each other back to back. DMEM and ROM answer one cycle after gnt;
// the CPFW registers when they ack (FETCH_DATA and PIPE_PUSH can make the core wait); the
// register window when the register bus answers; the memory window when the line read or the
// strobed line write has been acknowledged by the memory system (a store through the window
// retires only once it is visible to every later reader).
`include "prim_assert.svh"

module cp_bus #(
  parameter logic [31:0] MEM_BYTES = 32'h0100_0000   // GPU memory size (window range check)
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,

  // core data port
  input  logic                         data_req_i,
  input  logic                         data_we_i,
  input  logic [3:0]                   data_be_i,
  input  logic [31:0]                  data_addr_i,
  input  logic [31:0]                  data_wdata_i,
  output logic                         data_gnt_o,
  output logic                         data_rvalid_o,
  output logic [31:0]                  data_rdata_o,
  output logic                         data_err_o,

  // ROM data read (shares the ROM with instruction fetch; cp_top gives this priority)
  output logic                         rom_req_o,
  output logic [11:0]                  rom_addr_o,        // word index
  input  logic [31:0]                  rom_rdata_i,

  // DMEM (prim_ram_1p, byte mask)
  output logic                         dmem_req_o,
  output logic                         dmem_we_o,
  output logic [11:0]                  dmem_addr_o,
  output logic [31:0]                  dmem_wdata_o,
  output logic [3:0]                   dmem_be_o,
  input  logic [31:0]                  dmem_rdata_i,

  // CPFW registers
  output logic                         fw_req_o,
  output logic                         fw_we_o,
  output logic [3:0]                   fw_be_o,
  output logic [11:0]                  fw_addr_o,
  output logic [31:0]                  fw_wdata_o,
  input  logic                         fw_ack_i,
  input  logic [31:0]                  fw_rdata_i,
  input  logic                         fw_err_i,

  // GPU register window (register bus master)
  output logic                         reg_req_valid_o,
  input  logic                         reg_req_ready_i,
  output tessera_regbus_pkg::reg_req_t reg_req_o,
  input  logic                         reg_rsp_valid_i,
  input  tessera_regbus_pkg::reg_rsp_t reg_rsp_i,

  // GPU memory window (memory client)
  input  logic [5:0]                   window_dsid_i,
  output logic                         mem_req_valid_o,
  input  logic                         mem_req_ready_i,
  output tessera_mem_pkg::mem_req_t    mem_req_o,
  input  logic                         mem_rsp_valid_i,
  output logic                         mem_rsp_ready_o,
  input  tessera_mem_pkg::mem_rsp_t    mem_rsp_i
);

  typedef enum logic [2:0] {Idle, Rom, Dmem, Fw, RegReq, RegWait, MemReq, MemWait} state_e;
  // Err is folded into Rom/Dmem timing: an error answers one cycle after gnt via err_q.

  state_e      state_d, state_q;
  logic        we_q, err_q, err_d;
  logic [3:0]  be_q;
  logic [31:0] addr_q, wdata_q;
  logic [31:0] rdata_d, rdata_q;

  // ---- decode ----------------------------------------------------------------------------
  logic is_rom, is_dmem, is_fw, is_reg, is_mem, mem_in_range;
  always_comb begin
    is_rom  = data_addr_i[31:14] == tessera_cp_pkg::ROM_BASE[31:14];
    is_dmem = data_addr_i[31:14] == tessera_cp_pkg::DMEM_BASE[31:14];
    is_fw   = data_addr_i[31:12] == tessera_spec_pkg::TS_CPFW_BASE_ADDR[31:12];
    is_reg  = data_addr_i[31:16] == tessera_cp_pkg::REGWIN_BASE[31:16];
    is_mem  = data_addr_i[31];
    mem_in_range = {1'b0, data_addr_i[30:0]} < MEM_BYTES;
  end

  // A new access is granted in Idle or in the cycle the previous one answers (back to back).
  logic accept, done;
  assign accept     = (state_q == Idle || done) && data_req_i;
  assign data_gnt_o = accept;

  // ---- memory window request ---------------------------------------------------------------
  logic [31:0] gpu_addr;
  assign gpu_addr = {1'b0, addr_q[30:0]};
  always_comb begin
    mem_req_o       = '0;
    mem_req_o.op    = we_q ? tessera_mem_pkg::MEM_OP_WRITE : tessera_mem_pkg::MEM_OP_READ;
    mem_req_o.addr  = {gpu_addr[31:6], 6'b0};
    mem_req_o.dsid  = window_dsid_i;
    mem_req_o.tag   = '0;
    mem_req_o.wstrb = we_q ? (64'(be_q) << (32'(gpu_addr[5:2]) * 4)) : '0;
    mem_req_o.wdata = we_q ? {16{wdata_q}} : '0;
  end
  assign mem_req_valid_o = state_q == MemReq;
  assign mem_rsp_ready_o = 1'b1;

  assign reg_req_valid_o = state_q == RegReq;
  always_comb begin
    reg_req_o       = '0;
    reg_req_o.addr  = addr_q[15:0];
    reg_req_o.we    = we_q;
    reg_req_o.wdata = wdata_q;
  end

  // ---- ROM / DMEM ports: driven in the accept cycle -----------------------------------------
  assign rom_req_o    = accept && is_rom && !data_we_i;
  assign rom_addr_o   = data_addr_i[13:2];
  assign dmem_req_o   = accept && is_dmem;
  assign dmem_we_o    = data_we_i;
  assign dmem_addr_o  = data_addr_i[13:2];
  assign dmem_wdata_o = data_wdata_i;
  assign dmem_be_o    = data_be_i;

  assign fw_req_o   = state_q == Fw;
  assign fw_we_o    = we_q;
  assign fw_be_o    = be_q;
  assign fw_addr_o  = addr_q[11:0];
  assign fw_wdata_o = wdata_q;

  // ---- state machine -------------------------------------------------------------------------
  always_comb begin
    state_d = state_q;
    err_d   = err_q;
    rdata_d = rdata_q;
    data_rvalid_o = 1'b0;
    data_rdata_o  = rdata_q;
    data_err_o    = 1'b0;
    done          = 1'b0;
    unique case (state_q)
      Idle: ;
      Rom: begin
        data_rvalid_o = 1'b1;
        data_rdata_o  = err_q ? 32'd0 : rom_rdata_i;
        data_err_o    = err_q;
        state_d       = Idle;
        done          = 1'b1;
      end
      Dmem: begin
        data_rvalid_o = 1'b1;
        data_rdata_o  = dmem_rdata_i;
        state_d       = Idle;
        done          = 1'b1;
      end
      Fw: begin
        if (fw_ack_i) begin
          data_rvalid_o = 1'b1;
          data_rdata_o  = fw_rdata_i;
          data_err_o    = fw_err_i;
          state_d       = Idle;
          done          = 1'b1;
        end
      end
      RegReq: if (reg_req_ready_i) state_d = RegWait;
      RegWait: begin
        if (reg_rsp_valid_i) begin
          data_rvalid_o = 1'b1;
          data_rdata_o  = reg_rsp_i.rdata;
          data_err_o    = reg_rsp_i.err;
          state_d       = Idle;
          done          = 1'b1;
        end
      end
      MemReq: if (mem_req_ready_i) state_d = MemWait;
      MemWait: begin
        if (mem_rsp_valid_i) begin
          data_rvalid_o = 1'b1;
          data_rdata_o  = mem_rsp_i.rdata[32'(gpu_addr[5:2])*32 +: 32];
          data_err_o    = mem_rsp_i.err;
          state_d       = Idle;
          done          = 1'b1;
        end
      end
      default: state_d = Idle;
    endcase

    if (accept) begin
      err_d = 1'b0;
      if (is_rom) begin
        err_d   = data_we_i;             // the ROM is read-only
        state_d = Rom;
      end else if (is_dmem) begin
        state_d = Dmem;
      end else if (is_fw) begin
        state_d = Fw;
      end else if (is_reg) begin
        state_d = RegReq;
      end else if (is_mem && mem_in_range) begin
        state_d = MemReq;
      end else begin
        err_d   = 1'b1;                  // unmapped, or beyond GPU memory
        state_d = Rom;                   // answer next cycle like a ROM access
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= Idle;
      we_q    <= 1'b0;
      be_q    <= '0;
      addr_q  <= '0;
      wdata_q <= '0;
      err_q   <= 1'b0;
      rdata_q <= '0;
    end else begin
      state_q <= state_d;
      err_q   <= err_d;
      rdata_q <= rdata_d;
      if (accept) begin
        we_q    <= data_we_i;
        be_q    <= data_be_i;
        addr_q  <= data_addr_i;
        wdata_q <= data_wdata_i;
      end
    end
  end

  // Window addresses drop bit 31 (the window select) and are dword aligned; responses are
  // matched by state, not by op/src/tag.
  logic                                      unused_addr31;
  logic [1:0]                                unused_gpu_addr;
  logic [2+tessera_mem_pkg::SRC_W+tessera_mem_pkg::TAG_W-1:0] unused_rsp;
  assign unused_addr31   = addr_q[31];
  assign unused_gpu_addr = gpu_addr[1:0];
  assign unused_rsp      = {mem_rsp_i.op, mem_rsp_i.src, mem_rsp_i.tag};

  `ASSERT(MemRspOnlyWhenWaiting_A, mem_rsp_valid_i |-> state_q == MemWait)
  `ASSERT(RegRspOnlyWhenWaiting_A, reg_rsp_valid_i |-> state_q == RegWait)

endmodule
