// cp_core -- the command processor's RV32IM core: machine mode only, no caches, no C.
//
// Implements: RISC-V Unprivileged ISA (20191213) chapters 2 (RV32I; FENCE and FENCE.I as
// no-ops), 7 (M) and 9 (Zicsr); Privileged ISA (20211203) chapter 3 (machine level) for the
// CSRs and traps listed in docs/cp-core.md. Target design: ARCHITECTURE.md 5.1.
// Description, pipeline diagram, hazard rules, figures and deviations: docs/cp-core.md.
//
// Pipeline (in order, one instruction per stage):
//   IF  cp_core_fetch: pipelined requests, 3-entry fetch buffer (flop output).
//   EX  decode, register read with WB->EX forwarding, ALU, branch decision, CSRs, traps,
//       load/store request (address and data straight onto the data port), MUL/DIV (iterative).
//   WB  retires one instruction per cycle at most: writes the register file, waits for a
//       load/store's rvalid, takes a data access fault, drives the retirement trace.
// Hazards:
//   - ALU/CSR/MUL/DIV result used by the next instruction: forwarded from WB, no stall.
//   - Load result used by the next instruction: 1 stall cycle after the load's rvalid (load
//     data is never forwarded: the data port's rdata only feeds the register file write).
//   - Taken branch / jump / mret / trap: the fetch buffer is flushed, 2 bubbles.
//   - Memory: one access outstanding. A load/store in EX requests only when WB has no
//     access waiting or that access's rvalid (without error) arrives in the same cycle, so
//     with a 1-cycle memory loads and stores stream at one per cycle. EX stalls while gnt is
//     low and WB while rvalid is outstanding; nothing is dropped or repeated.
// Precise traps: an EX instruction changes state (registers, CSRs, PC, memory request) only in
// the cycle it advances into WB, which requires WB's access to complete without error in that
// cycle; an access fault in WB kills the EX instruction instead.

`include "prim_assert.svh"

module cp_core #(
  parameter logic [31:0] BOOT_ADDR = 32'h0000_0000,
  parameter logic [31:0] HART_ID   = 32'h0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // Instruction fetch (ibex-style): req held with addr until gnt; rvalid (+rdata/err) one or
  // more cycles after gnt, in order.
  output logic        instr_req_o,
  output logic [31:0] instr_addr_o,
  input  logic        instr_gnt_i,
  input  logic        instr_rvalid_i,
  input  logic [31:0] instr_rdata_i,
  input  logic        instr_err_i,
  // Data (ibex-style): req/we/be/addr/wdata held until gnt; rvalid one or more cycles after
  // gnt, in order, for loads and stores; err with rvalid = access fault.
  // data_addr_o is word aligned (bits 1:0 zero); data_be_o selects the bytes.
  output logic        data_req_o,
  output logic        data_we_o,
  output logic [3:0]  data_be_o,
  output logic [31:0] data_addr_o,
  output logic [31:0] data_wdata_o,
  input  logic        data_gnt_i,
  input  logic        data_rvalid_i,
  input  logic [31:0] data_rdata_i,
  input  logic        data_err_i,
  input  logic        irq_external_i,
  // Retirement trace (one instruction per cycle at most)
  output logic        retire_valid_o,
  output logic [31:0] retire_pc_o,
  output logic [31:0] retire_insn_o,
  output logic        retire_trap_o,
  output logic [4:0]  retire_rd_o,
  output logic [31:0] retire_rd_wdata_o,
  output logic        sleep_o
);

  // --- Encodings ---------------------------------------------------------------------------
  localparam logic [6:0] OpcLoad    = 7'b0000011;
  localparam logic [6:0] OpcMiscMem = 7'b0001111;
  localparam logic [6:0] OpcOpImm   = 7'b0010011;
  localparam logic [6:0] OpcAuipc   = 7'b0010111;
  localparam logic [6:0] OpcStore   = 7'b0100011;
  localparam logic [6:0] OpcOp      = 7'b0110011;
  localparam logic [6:0] OpcLui     = 7'b0110111;
  localparam logic [6:0] OpcBranch  = 7'b1100011;
  localparam logic [6:0] OpcJalr    = 7'b1100111;
  localparam logic [6:0] OpcJal     = 7'b1101111;
  localparam logic [6:0] OpcSystem  = 7'b1110011;

  localparam logic [31:0] InsnEcall  = 32'h0000_0073;
  localparam logic [31:0] InsnEbreak = 32'h0010_0073;
  localparam logic [31:0] InsnMret   = 32'h3020_0073;
  localparam logic [31:0] InsnWfi    = 32'h1050_0073;

  localparam logic [11:0] CsrMstatus   = 12'h300;
  localparam logic [11:0] CsrMisa      = 12'h301;
  localparam logic [11:0] CsrMie       = 12'h304;
  localparam logic [11:0] CsrMtvec     = 12'h305;
  localparam logic [11:0] CsrMstatush  = 12'h310;
  localparam logic [11:0] CsrMscratch  = 12'h340;
  localparam logic [11:0] CsrMepc      = 12'h341;
  localparam logic [11:0] CsrMcause    = 12'h342;
  localparam logic [11:0] CsrMtval     = 12'h343;
  localparam logic [11:0] CsrMip       = 12'h344;
  localparam logic [11:0] CsrMcycle    = 12'hB00;
  localparam logic [11:0] CsrMinstret  = 12'hB02;
  localparam logic [11:0] CsrMcycleh   = 12'hB80;
  localparam logic [11:0] CsrMinstreth = 12'hB82;
  localparam logic [11:0] CsrCycle     = 12'hC00;
  localparam logic [11:0] CsrInstret   = 12'hC02;
  localparam logic [11:0] CsrCycleh    = 12'hC80;
  localparam logic [11:0] CsrInstreth  = 12'hC82;
  localparam logic [11:0] CsrMvendorid = 12'hF11;
  localparam logic [11:0] CsrMarchid   = 12'hF12;
  localparam logic [11:0] CsrMimpid    = 12'hF13;
  localparam logic [11:0] CsrMhartid   = 12'hF14;

  localparam logic [31:0] MisaValue = 32'h4000_1100;  // MXL=1 (32-bit), I, M

  localparam logic [4:0] ExcInsnMisaligned  = 5'd0;
  localparam logic [4:0] ExcInsnAccessFault = 5'd1;
  localparam logic [4:0] ExcIllegal         = 5'd2;
  localparam logic [4:0] ExcBreakpoint      = 5'd3;
  localparam logic [4:0] ExcLoadMisaligned  = 5'd4;
  localparam logic [4:0] ExcLoadAccessFault = 5'd5;
  localparam logic [4:0] ExcStoreMisaligned = 5'd6;
  localparam logic [4:0] ExcStoreAccessFault= 5'd7;
  localparam logic [4:0] ExcEcallM          = 5'd11;
  localparam logic [4:0] IrqExternalM       = 5'd11;

  localparam logic [1:0] ResAlu = 2'd0;
  localparam logic [1:0] ResPc4 = 2'd1;
  localparam logic [1:0] ResCsr = 2'd2;
  localparam logic [1:0] ResMd  = 2'd3;

  localparam logic [1:0] SelRs1  = 2'd0;
  localparam logic [1:0] SelPc   = 2'd1;
  localparam logic [1:0] SelZero = 2'd2;

  // --- Fetch -------------------------------------------------------------------------------
  logic        flush;
  logic [31:0] flush_addr;
  logic        ex_valid, if_err, if_ready;
  logic [31:0] insn;

  cp_core_fetch #(
    .BOOT_ADDR(BOOT_ADDR)
  ) u_fetch (
    .clk_i,
    .rst_ni,
    .instr_req_o,
    .instr_addr_o,
    .instr_gnt_i,
    .instr_rvalid_i,
    .instr_rdata_i,
    .instr_err_i,
    .flush_i     (flush),
    .flush_addr_i(flush_addr),
    .valid_o     (ex_valid),
    .insn_o      (insn),
    .err_o       (if_err),
    .ready_i     (if_ready)
  );

  // Architectural PC: the address of the instruction at the head of the fetch buffer.
  logic [31:0] pc_d, pc_q;

  // --- Decode ------------------------------------------------------------------------------
  logic [6:0]  opcode;
  logic [2:0]  funct3;
  logic [6:0]  funct7;
  logic [4:0]  rs1_idx, rs2_idx, rd_idx;
  logic [31:0] imm_i, imm_s, imm_b, imm_u, imm_j;

  assign opcode  = insn[6:0];
  assign funct3  = insn[14:12];
  assign funct7  = insn[31:25];
  assign rs1_idx = insn[19:15];
  assign rs2_idx = insn[24:20];
  assign rd_idx  = insn[11:7];
  assign imm_i   = {{20{insn[31]}}, insn[31:20]};
  assign imm_s   = {{20{insn[31]}}, insn[31:25], insn[11:7]};
  assign imm_b   = {{19{insn[31]}}, insn[31], insn[7], insn[30:25], insn[11:8], 1'b0};
  assign imm_u   = {insn[31:12], 12'b0};
  assign imm_j   = {{11{insn[31]}}, insn[31], insn[19:12], insn[20], insn[30:21], 1'b0};

  logic        dec_illegal, dec_use_rs1, dec_use_rs2, dec_rd_we;
  logic [3:0]  dec_alu_op;    // {alternate (SUB/SRA), funct3}
  logic [1:0]  dec_a_sel;
  logic        dec_b_imm;
  logic [31:0] dec_imm;
  logic        dec_branch, dec_jal, dec_jalr, dec_load, dec_store, dec_md, dec_csr;
  logic        dec_ecall, dec_ebreak, dec_mret, dec_wfi;
  logic [1:0]  dec_res_sel;

  always_comb begin
    dec_illegal = 1'b0;
    dec_use_rs1 = 1'b0;
    dec_use_rs2 = 1'b0;
    dec_rd_we   = 1'b0;
    dec_alu_op  = 4'b0000;
    dec_a_sel   = SelRs1;
    dec_b_imm   = 1'b0;
    dec_imm     = imm_i;
    dec_branch  = 1'b0;
    dec_jal     = 1'b0;
    dec_jalr    = 1'b0;
    dec_load    = 1'b0;
    dec_store   = 1'b0;
    dec_md      = 1'b0;
    dec_csr     = 1'b0;
    dec_ecall   = 1'b0;
    dec_ebreak  = 1'b0;
    dec_mret    = 1'b0;
    dec_wfi     = 1'b0;
    dec_res_sel = ResAlu;
    unique case (opcode)
      OpcLui: begin
        dec_rd_we = 1'b1;
        dec_a_sel = SelZero;
        dec_b_imm = 1'b1;
        dec_imm   = imm_u;
      end
      OpcAuipc: begin
        dec_rd_we = 1'b1;
        dec_a_sel = SelPc;
        dec_b_imm = 1'b1;
        dec_imm   = imm_u;
      end
      OpcJal: begin
        dec_jal     = 1'b1;
        dec_rd_we   = 1'b1;
        dec_res_sel = ResPc4;
      end
      OpcJalr: begin
        dec_jalr    = 1'b1;
        dec_use_rs1 = 1'b1;
        dec_rd_we   = 1'b1;
        dec_b_imm   = 1'b1;
        dec_res_sel = ResPc4;
        dec_illegal = (funct3 != 3'b000);
      end
      OpcBranch: begin
        dec_branch  = 1'b1;
        dec_use_rs1 = 1'b1;
        dec_use_rs2 = 1'b1;
        dec_illegal = (funct3 == 3'b010) || (funct3 == 3'b011);
      end
      OpcLoad: begin
        dec_load    = 1'b1;
        dec_use_rs1 = 1'b1;
        dec_rd_we   = 1'b1;
        dec_b_imm   = 1'b1;
        dec_illegal = (funct3 == 3'b011) || (funct3 == 3'b110) || (funct3 == 3'b111);
      end
      OpcStore: begin
        dec_store   = 1'b1;
        dec_use_rs1 = 1'b1;
        dec_use_rs2 = 1'b1;
        dec_b_imm   = 1'b1;
        dec_imm     = imm_s;
        dec_illegal = funct3[2] || (funct3[1:0] == 2'b11);
      end
      OpcOpImm: begin
        dec_use_rs1 = 1'b1;
        dec_rd_we   = 1'b1;
        dec_b_imm   = 1'b1;
        dec_alu_op  = {(funct3 == 3'b101) & insn[30], funct3};
        if (funct3 == 3'b001) dec_illegal = (funct7 != 7'b0000000);
        if (funct3 == 3'b101) dec_illegal = (funct7 != 7'b0000000) && (funct7 != 7'b0100000);
      end
      OpcOp: begin
        dec_use_rs1 = 1'b1;
        dec_use_rs2 = 1'b1;
        dec_rd_we   = 1'b1;
        dec_alu_op  = {insn[30], funct3};
        if (funct7 == 7'b0000001) begin
          dec_md      = 1'b1;
          dec_res_sel = ResMd;
        end else if (funct7 == 7'b0100000) begin
          dec_illegal = (funct3 != 3'b000) && (funct3 != 3'b101);
        end else begin
          dec_illegal = (funct7 != 7'b0000000);
        end
      end
      OpcMiscMem: begin
        // FENCE, FENCE.I: no-ops (single hart, no caches, in-order memory accesses).
        dec_illegal = (funct3[2:1] != 2'b00);
      end
      OpcSystem: begin
        if (funct3 == 3'b000) begin
          dec_ecall   = (insn == InsnEcall);
          dec_ebreak  = (insn == InsnEbreak);
          dec_mret    = (insn == InsnMret);
          dec_wfi     = (insn == InsnWfi);
          dec_illegal = !(dec_ecall || dec_ebreak || dec_mret || dec_wfi);
        end else if (funct3 == 3'b100) begin
          dec_illegal = 1'b1;
        end else begin
          dec_csr     = 1'b1;
          dec_use_rs1 = ~funct3[2];
          dec_rd_we   = 1'b1;
          dec_res_sel = ResCsr;
        end
      end
      default: dec_illegal = 1'b1;
    endcase
    if (insn[1:0] != 2'b11) dec_illegal = 1'b1;  // compressed encodings: no C extension
    if (rd_idx == 5'd0) dec_rd_we = 1'b0;
  end

  // --- Register file (x1..x31 in flops, reset to 0) and WB->EX forwarding ---------------------
  logic [32*32-1:0] rf_all;     // x0 at [31:0] reads as zero
  logic [31*32-1:0] rf_q;
  logic             rf_we;
  logic [4:0]       rf_waddr;
  logic [31:0]      rf_wdata;

  for (genvar r = 1; r < 32; r++) begin : g_rf
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        rf_q[(r-1)*32 +: 32] <= 32'd0;
      end else if (rf_we && rf_waddr == 5'(r)) begin
        rf_q[(r-1)*32 +: 32] <= rf_wdata;
      end
    end
  end
  assign rf_all = {rf_q, 32'd0};

  // WB stage state (declared here for forwarding).
  logic        wb_valid_q, wb_trap_q, wb_load_q, wb_store_q, wb_rd_we_q, wb_noinstret_q;
  logic [31:0] wb_pc_q, wb_insn_q, wb_result_q;
  logic [4:0]  wb_rd_q;
  logic [2:0]  wb_funct3_q;

  logic        fwd_rs1, fwd_rs2, wb_fwd_ok;
  logic [31:0] rs1_val, rs2_val;
  assign wb_fwd_ok = wb_valid_q & wb_rd_we_q & ~wb_load_q & ~wb_trap_q;
  assign fwd_rs1   = wb_fwd_ok & (wb_rd_q == rs1_idx);
  assign fwd_rs2   = wb_fwd_ok & (wb_rd_q == rs2_idx);
  assign rs1_val   = fwd_rs1 ? wb_result_q : rf_all[{rs1_idx, 5'd0} +: 32];
  assign rs2_val   = fwd_rs2 ? wb_result_q : rf_all[{rs2_idx, 5'd0} +: 32];

  // Load-use: the next instruction waits until the load has written the register file.
  // A CSR instruction on minstret/instret(h) also waits until WB is empty, so that minstret_q
  // already counts every older instruction (no incrementer on the CSR read path).
  logic lu_stall, instret_stall;
  assign lu_stall = wb_valid_q & wb_load_q & wb_rd_we_q &
                    ((dec_use_rs1 & (wb_rd_q == rs1_idx)) | (dec_use_rs2 & (wb_rd_q == rs2_idx)));
  assign instret_stall = wb_valid_q & dec_csr & (insn[26:20] == 7'b000_0010) &
                         ((insn[31:28] == 4'hB) | (insn[31:28] == 4'hC));

  // --- ALU, branch, address ------------------------------------------------------------------
  logic [31:0] alu_a, alu_b, alu_add, alu_res;
  logic [32:0] alu_sub;
  logic        alu_lt, alu_ltu, op_eq;

  always_comb begin
    unique case (dec_a_sel)
      SelPc:   alu_a = pc_q;
      SelZero: alu_a = 32'd0;
      default: alu_a = rs1_val;
    endcase
  end
  assign alu_b   = dec_b_imm ? dec_imm : rs2_val;
  assign alu_add = alu_a + alu_b;
  assign alu_sub = {1'b0, alu_a} - {1'b0, alu_b};
  assign alu_ltu = alu_sub[32];
  assign alu_lt  = (alu_a[31] ^ alu_b[31]) ? alu_a[31] : alu_sub[31];
  assign op_eq   = (rs1_val == rs2_val);

  always_comb begin
    unique case (dec_alu_op)
      4'b1000:          alu_res = alu_sub[31:0];
      4'b0001, 4'b1001: alu_res = alu_a << alu_b[4:0];
      4'b0010, 4'b1010: alu_res = {31'd0, alu_lt};
      4'b0011, 4'b1011: alu_res = {31'd0, alu_ltu};
      4'b0100, 4'b1100: alu_res = alu_a ^ alu_b;
      4'b0101:          alu_res = alu_a >> alu_b[4:0];
      4'b1101:          alu_res = 32'($signed(alu_a) >>> alu_b[4:0]);
      4'b0110, 4'b1110: alu_res = alu_a | alu_b;
      4'b0111, 4'b1111: alu_res = alu_a & alu_b;
      default:          alu_res = alu_add;  // ADD, and LUI/AUIPC/address arithmetic
    endcase
  end

  logic        br_cond, jump_taken;
  logic [31:0] pc_imm, pc_plus4, jump_target;
  always_comb begin
    unique case (funct3)
      3'b000:  br_cond = op_eq;
      3'b001:  br_cond = ~op_eq;
      3'b100:  br_cond = alu_lt;
      3'b101:  br_cond = ~alu_lt;
      3'b110:  br_cond = alu_ltu;
      default: br_cond = ~alu_ltu;  // 3'b111 (010/011 are illegal)
    endcase
  end
  assign pc_imm      = pc_q + (dec_jal ? imm_j : imm_b);
  assign pc_plus4    = pc_q + 32'd4;
  assign jump_taken  = dec_jal | dec_jalr | (dec_branch & br_cond);
  assign jump_target = dec_jalr ? {alu_add[31:1], 1'b0} : pc_imm;

  // Load/store: address, alignment, byte enables, write data on its byte lanes.
  logic [31:0] lsu_addr;
  logic        lsu_misaligned;
  logic [3:0]  lsu_be;
  assign lsu_addr = alu_add;
  always_comb begin
    unique case (funct3[1:0])
      2'b00:   begin lsu_be = 4'b0001 << lsu_addr[1:0]; lsu_misaligned = 1'b0; end
      2'b01:   begin lsu_be = 4'b0011 << lsu_addr[1:0]; lsu_misaligned = lsu_addr[0]; end
      default: begin lsu_be = 4'b1111;                  lsu_misaligned = lsu_addr[1:0] != 2'b00; end
    endcase
  end

  // --- CSRs ----------------------------------------------------------------------------------
  logic        mstatus_mie_d, mstatus_mie_q, mstatus_mpie_d, mstatus_mpie_q;
  logic        mie_meie_d, mie_meie_q, mip_meip_q;
  logic [31:0] mtvec_d, mtvec_q, mscratch_d, mscratch_q, mepc_d, mepc_q, mtval_d, mtval_q;
  logic [31:0] mcause_d, mcause_q;
  logic [63:0] mcycle_d, mcycle_q, minstret_d, minstret_q, minstret_inc;

  logic [11:0] csr_addr;
  logic [31:0] csr_src, csr_rdata, csr_wdata;
  logic        csr_exists, csr_wr_intent, csr_legal, csr_we;
  assign csr_addr      = insn[31:20];
  assign csr_src       = funct3[2] ? {27'd0, rs1_idx} : rs1_val;
  assign csr_wr_intent = (funct3[1:0] == 2'b01) | (rs1_idx != 5'd0);

  always_comb begin
    csr_exists = 1'b1;
    unique case (csr_addr)
      CsrMstatus:               csr_rdata = {19'd0, 2'b11, 3'd0, mstatus_mpie_q, 3'd0, mstatus_mie_q, 3'd0};
      CsrMisa:                  csr_rdata = MisaValue;
      CsrMie:                   csr_rdata = {20'd0, mie_meie_q, 11'd0};
      CsrMtvec:                 csr_rdata = mtvec_q;
      CsrMstatush:              csr_rdata = 32'd0;
      CsrMscratch:              csr_rdata = mscratch_q;
      CsrMepc:                  csr_rdata = mepc_q;
      CsrMcause:                csr_rdata = mcause_q;
      CsrMtval:                 csr_rdata = mtval_q;
      CsrMip:                   csr_rdata = {20'd0, mip_meip_q, 11'd0};
      CsrMcycle, CsrCycle:      csr_rdata = mcycle_q[31:0];
      CsrMcycleh, CsrCycleh:    csr_rdata = mcycle_q[63:32];
      CsrMinstret, CsrInstret:  csr_rdata = minstret_q[31:0];
      CsrMinstreth, CsrInstreth:csr_rdata = minstret_q[63:32];
      CsrMvendorid, CsrMarchid, CsrMimpid: csr_rdata = 32'd0;
      CsrMhartid:               csr_rdata = HART_ID;
      default: begin
        csr_rdata  = 32'd0;
        csr_exists = 1'b0;
      end
    endcase
  end
  // Read-only CSRs (address bits 11:10 == 2'b11) may be read but not written.
  assign csr_legal = csr_exists & ~((csr_addr[11:10] == 2'b11) & csr_wr_intent);

  always_comb begin
    unique case (funct3[1:0])
      2'b01:   csr_wdata = csr_src;
      2'b10:   csr_wdata = csr_rdata | csr_src;
      default: csr_wdata = csr_rdata & ~csr_src;
    endcase
  end

  // --- MUL/DIV -------------------------------------------------------------------------------
  logic        md_start, md_kill, md_ack, md_busy, md_done;
  logic [31:0] md_result;

  cp_core_muldiv u_muldiv (
    .clk_i,
    .rst_ni,
    .start_i (md_start),
    .kill_i  (md_kill),
    .ack_i   (md_ack),
    .op_i    (funct3),
    .a_i     (rs1_val),
    .b_i     (rs2_val),
    .busy_o  (md_busy),
    .done_o  (md_done),
    .result_o(md_result)
  );

  // --- EX control: stalls, exceptions, commit ------------------------------------------------
  logic wb_mem_wait, wb_done_ok, wb_trap_now;
  assign wb_mem_wait = wb_valid_q & (wb_load_q | wb_store_q);
  // WB is free at the end of this cycle without a trap: EX may advance into it.
  assign wb_done_ok  = ~wb_mem_wait | (data_rvalid_i & ~data_err_i);
  assign wb_trap_now = wb_mem_wait & data_rvalid_i & data_err_i;

  logic data_pend_q;  // a data request was raised and not granted last cycle: hold it
  logic irq_take, wfi_wait, ex_go, ex_exc, ex_done, ex_commit, ex_trap, ex_mem_ok;
  logic [4:0]  ex_cause;
  logic        ex_cause_irq;
  logic [31:0] ex_tval;

  // Interrupts are taken at an instruction that has not started (no request held, no MUL/DIV
  // running); a WFI completes first so that mepc points after it (privileged spec 3.3.3).
  assign irq_take = ex_valid & ~dec_wfi & mstatus_mie_q & mie_meie_q & mip_meip_q &
                    ~data_pend_q & ~md_busy;
  assign wfi_wait = ~(mie_meie_q & mip_meip_q);

  always_comb begin
    ex_exc       = 1'b1;
    ex_cause_irq = 1'b0;
    ex_cause     = ExcIllegal;
    ex_tval      = 32'd0;
    if (irq_take) begin
      ex_cause_irq = 1'b1;
      ex_cause     = IrqExternalM;
    end else if (if_err) begin
      ex_cause = ExcInsnAccessFault;
      ex_tval  = pc_q;
    end else if (dec_illegal || (dec_csr && !csr_legal)) begin
      ex_cause = ExcIllegal;
      ex_tval  = insn;
    end else if (dec_ecall) begin
      ex_cause = ExcEcallM;
    end else if (dec_ebreak) begin
      ex_cause = ExcBreakpoint;
      ex_tval  = pc_q;
    end else if (jump_taken && jump_target[1]) begin
      ex_cause = ExcInsnMisaligned;
      ex_tval  = jump_target;
    end else if ((dec_load || dec_store) && lsu_misaligned) begin
      ex_cause = dec_store ? ExcStoreMisaligned : ExcLoadMisaligned;
      ex_tval  = lsu_addr;
    end else begin
      ex_exc = 1'b0;
    end
  end

  // Only the exceptions a load/store can have, for the request (keeps the branch logic off
  // the data port's path).
  assign ex_mem_ok = ~irq_take & ~if_err & ~dec_illegal & ~lsu_misaligned;

  assign ex_go      = ex_valid & wb_done_ok & ~lu_stall & ~instret_stall;
  assign ex_trap    = ex_go & ex_exc;
  assign ex_done    = (~(dec_load | dec_store) | data_gnt_i) & (~dec_md | md_done) &
                      (~dec_wfi | ~wfi_wait);
  assign ex_commit  = ex_go & ~ex_exc & ex_done;
  assign if_ready   = ex_commit;
  assign sleep_o    = ex_valid & dec_wfi & ~ex_exc & wfi_wait;

  assign data_req_o   = ex_go & (dec_load | dec_store) & ex_mem_ok;
  assign data_we_o    = dec_store;
  assign data_be_o    = lsu_be;
  assign data_addr_o  = {lsu_addr[31:2], 2'b00};
  // Loads drive zero: their rs2 field is immediate bits, and the port's fields must stay stable
  // while a request waits for its grant (the register those bits name may be written meanwhile).
  assign data_wdata_o = dec_store ? (rs2_val << {lsu_addr[1:0], 3'b000}) : 32'd0;

  assign md_start = ex_go & ~ex_exc & dec_md & ~md_busy;
  assign md_ack   = ex_commit & dec_md;
  assign md_kill  = wb_trap_now;

  logic [31:0] ex_result;
  always_comb begin
    unique case (dec_res_sel)
      ResPc4:  ex_result = pc_plus4;
      ResCsr:  ex_result = csr_rdata;
      ResMd:   ex_result = md_result;
      default: ex_result = (dec_load | dec_store) ? lsu_addr : alu_res;
    endcase
  end

  // --- Redirects ----------------------------------------------------------------------------
  always_comb begin
    flush      = 1'b0;
    flush_addr = pc_plus4;
    if (wb_trap_now || ex_trap) begin
      flush      = 1'b1;
      flush_addr = mtvec_q;
    end else if (ex_commit && dec_mret) begin
      flush      = 1'b1;
      flush_addr = mepc_q;
    end else if (ex_commit && jump_taken) begin
      flush      = 1'b1;
      flush_addr = jump_target;
    end
  end
  assign pc_d = flush ? flush_addr : (ex_commit ? pc_plus4 : pc_q);

  // --- CSR updates ---------------------------------------------------------------------------
  logic wb_retire_ok;  // WB retires an instruction (not a trap) this cycle
  logic csr_w_minstret, csr_w_minstreth;
  assign csr_we = ex_commit & dec_csr & csr_wr_intent;
  assign csr_w_minstret  = csr_we & (csr_addr == CsrMinstret);
  assign csr_w_minstreth = csr_we & (csr_addr == CsrMinstreth);
  assign minstret_inc = minstret_q + {63'd0, wb_retire_ok & ~wb_noinstret_q};

  always_comb begin
    mstatus_mie_d  = mstatus_mie_q;
    mstatus_mpie_d = mstatus_mpie_q;
    mie_meie_d     = mie_meie_q;
    mtvec_d        = mtvec_q;
    mscratch_d     = mscratch_q;
    mepc_d         = mepc_q;
    mcause_d       = mcause_q;
    mtval_d        = mtval_q;
    mcycle_d       = mcycle_q + 64'd1;
    minstret_d     = minstret_inc;
    if (wb_trap_now) begin
      mepc_d         = wb_pc_q;
      mcause_d       = {27'd0, wb_store_q ? ExcStoreAccessFault : ExcLoadAccessFault};
      mtval_d        = wb_result_q;
      mstatus_mpie_d = mstatus_mie_q;
      mstatus_mie_d  = 1'b0;
    end else if (ex_trap) begin
      mepc_d         = pc_q;
      mcause_d       = {ex_cause_irq, 26'd0, ex_cause};
      mtval_d        = ex_tval;
      mstatus_mpie_d = mstatus_mie_q;
      mstatus_mie_d  = 1'b0;
    end else if (ex_commit && dec_mret) begin
      mstatus_mie_d  = mstatus_mpie_q;
      mstatus_mpie_d = 1'b1;
    end else if (csr_we) begin
      unique case (csr_addr)
        CsrMstatus: begin
          mstatus_mie_d  = csr_wdata[3];
          mstatus_mpie_d = csr_wdata[7];
        end
        CsrMie:       mie_meie_d  = csr_wdata[11];
        CsrMtvec:     mtvec_d     = {csr_wdata[31:2], 2'b00};   // direct mode only
        CsrMscratch:  mscratch_d  = csr_wdata;
        CsrMepc:      mepc_d      = {csr_wdata[31:2], 2'b00};   // IALIGN = 32
        CsrMcause:    mcause_d    = {csr_wdata[31], 26'd0, csr_wdata[4:0]};  // WLRL
        CsrMtval:     mtval_d     = csr_wdata;
        CsrMcycle:    mcycle_d    = {mcycle_q[63:32], csr_wdata};
        CsrMcycleh:   mcycle_d    = {csr_wdata, mcycle_q[31:0]};
        CsrMinstret:  minstret_d  = {minstret_q[63:32], csr_wdata};
        CsrMinstreth: minstret_d  = {csr_wdata, minstret_q[31:0]};
        default: ;  // misa, mstatush, mip: WARL, writes ignored
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pc_q           <= BOOT_ADDR;
      data_pend_q    <= 1'b0;
      mstatus_mie_q  <= 1'b0;
      mstatus_mpie_q <= 1'b0;
      mie_meie_q     <= 1'b0;
      mip_meip_q     <= 1'b0;
      mtvec_q        <= {BOOT_ADDR[31:2], 2'b00};
      mscratch_q     <= 32'd0;
      mepc_q         <= 32'd0;
      mcause_q       <= 32'd0;
      mtval_q        <= 32'd0;
      mcycle_q       <= 64'd0;
      minstret_q     <= 64'd0;
    end else begin
      pc_q           <= pc_d;
      data_pend_q    <= data_req_o & ~data_gnt_i;
      mstatus_mie_q  <= mstatus_mie_d;
      mstatus_mpie_q <= mstatus_mpie_d;
      mie_meie_q     <= mie_meie_d;
      mip_meip_q     <= irq_external_i;  // registered: no path from the pin into EX
      mtvec_q        <= mtvec_d;
      mscratch_q     <= mscratch_d;
      mepc_q         <= mepc_d;
      mcause_q       <= mcause_d;
      mtval_q        <= mtval_d;
      mcycle_q       <= mcycle_d;
      minstret_q     <= minstret_d;
    end
  end

  // --- WB ------------------------------------------------------------------------------------
  logic        wb_valid_d, wb_trap_d, wb_load_d, wb_store_d, wb_rd_we_d, wb_noinstret_d;
  logic [31:0] wb_pc_d, wb_insn_d, wb_result_d;
  logic [4:0]  wb_rd_d;
  logic [2:0]  wb_funct3_d;
  logic        wb_retire;

  // An instruction leaves WB this cycle: at once, or on its access's rvalid.
  assign wb_retire    = wb_valid_q & (~wb_mem_wait | data_rvalid_i);
  assign wb_retire_ok = wb_retire & ~wb_trap_q & ~wb_trap_now;

  always_comb begin
    wb_valid_d     = wb_valid_q & ~wb_retire;
    wb_trap_d      = wb_trap_q;
    wb_load_d      = wb_load_q;
    wb_store_d     = wb_store_q;
    wb_rd_we_d     = wb_rd_we_q;
    wb_noinstret_d = wb_noinstret_q;
    wb_pc_d        = wb_pc_q;
    wb_insn_d      = wb_insn_q;
    wb_result_d    = wb_result_q;
    wb_rd_d        = wb_rd_q;
    wb_funct3_d    = wb_funct3_q;
    if (ex_commit || ex_trap) begin
      wb_valid_d     = 1'b1;
      wb_trap_d      = ex_trap;
      wb_load_d      = ex_commit & dec_load;
      wb_store_d     = ex_commit & dec_store;
      wb_rd_we_d     = ex_commit & dec_rd_we;
      wb_noinstret_d = csr_w_minstret | csr_w_minstreth;
      wb_pc_d        = pc_q;
      wb_insn_d      = insn;
      wb_result_d    = ex_result;
      wb_rd_d        = rd_idx;
      wb_funct3_d    = funct3;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wb_valid_q     <= 1'b0;
      wb_trap_q      <= 1'b0;
      wb_load_q      <= 1'b0;
      wb_store_q     <= 1'b0;
      wb_rd_we_q     <= 1'b0;
      wb_noinstret_q <= 1'b0;
      wb_pc_q        <= 32'd0;
      wb_insn_q      <= 32'd0;
      wb_result_q    <= 32'd0;
      wb_rd_q        <= 5'd0;
      wb_funct3_q    <= 3'd0;
    end else begin
      wb_valid_q     <= wb_valid_d;
      wb_trap_q      <= wb_trap_d;
      wb_load_q      <= wb_load_d;
      wb_store_q     <= wb_store_d;
      wb_rd_we_q     <= wb_rd_we_d;
      wb_noinstret_q <= wb_noinstret_d;
      wb_pc_q        <= wb_pc_d;
      wb_insn_q      <= wb_insn_d;
      wb_result_q    <= wb_result_d;
      wb_rd_q        <= wb_rd_d;
      wb_funct3_q    <= wb_funct3_d;
    end
  end

  // Load data: pick the byte/half at the address's offset and extend it.
  logic [7:0]  ld_byte;
  logic [15:0] ld_half;
  logic [31:0] ld_value;
  always_comb begin
    unique case (wb_result_q[1:0])
      2'b00:   ld_byte = data_rdata_i[7:0];
      2'b01:   ld_byte = data_rdata_i[15:8];
      2'b10:   ld_byte = data_rdata_i[23:16];
      default: ld_byte = data_rdata_i[31:24];
    endcase
    ld_half = wb_result_q[1] ? data_rdata_i[31:16] : data_rdata_i[15:0];
    unique case (wb_funct3_q)
      3'b000:  ld_value = {{24{ld_byte[7]}}, ld_byte};
      3'b001:  ld_value = {{16{ld_half[15]}}, ld_half};
      3'b100:  ld_value = {24'd0, ld_byte};
      3'b101:  ld_value = {16'd0, ld_half};
      default: ld_value = data_rdata_i;
    endcase
  end

  assign rf_we    = wb_retire_ok & wb_rd_we_q;
  assign rf_waddr = wb_rd_q;
  assign rf_wdata = wb_load_q ? ld_value : wb_result_q;

  assign retire_valid_o    = wb_retire;
  assign retire_pc_o       = wb_pc_q;
  assign retire_insn_o     = wb_insn_q;
  assign retire_trap_o     = wb_trap_q | wb_trap_now;
  assign retire_rd_o       = rf_we ? wb_rd_q : 5'd0;
  assign retire_rd_wdata_o = rf_we ? rf_wdata : 32'd0;

  // --- Assertions ----------------------------------------------------------------------------
  `ASSERT(DataReqHeld_A, data_req_o && !data_gnt_i |=>
          data_req_o && $stable(data_addr_o) && $stable(data_we_o) && $stable(data_be_o) &&
          $stable(data_wdata_o))
  `ASSERT(DataOneOutstanding_A, data_req_o |-> !wb_mem_wait || data_rvalid_i)
  `ASSERT(DataRvalidExpected_A, data_rvalid_i |-> wb_mem_wait)
  `ASSERT(WbFreeOnAdvance_A, ex_commit || ex_trap |-> !wb_valid_q || wb_retire)
  `ASSERT(PcAligned_A, pc_q[1:0] == 2'b00)
  `ASSERT(NoCommitAndTrap_A, !(ex_commit && ex_trap))
  `ASSERT(KillOnlyIdleEx_A, wb_trap_now |-> !md_busy && !data_pend_q)
  `ASSERT_KNOWN(RetireValidKnown_A, retire_valid_o)
  `ASSERT_KNOWN_IF(RetireKnown_A, {retire_pc_o, retire_insn_o, retire_trap_o, retire_rd_o,
                                   retire_rd_wdata_o}, retire_valid_o)
  `ASSERT_KNOWN(DataReqKnown_A, data_req_o)
  `ASSERT_KNOWN_IF(DataReqFieldsKnown_A, {data_we_o, data_be_o, data_addr_o, data_wdata_o},
                   data_req_o)

endmodule
