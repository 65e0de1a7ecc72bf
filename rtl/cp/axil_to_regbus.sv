// axil_to_regbus -- AXI4-Lite slave (the GPU's host port, ARCHITECTURE.md 3) to the internal
// register bus (tessera_regbus_pkg).
//
// One transaction at a time: a write needs both AW and W (accepted together once both are
// valid), a read needs AR; when both a read and a write are waiting they alternate so
// neither starves. The register bus answer becomes the B or R response (err -> SLVERR).
// WSTRB other than all ones is treated as a full-word write: every Tessera register is a
// 32-bit word (documented in docs/cp.md).
`include "prim_assert.svh"

module axil_to_regbus #(
  parameter int unsigned ADDR_W = 16
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,

  input  logic                         s_awvalid_i,
  output logic                         s_awready_o,
  input  logic [ADDR_W-1:0]            s_awaddr_i,
  input  logic                         s_wvalid_i,
  output logic                         s_wready_o,
  input  logic [31:0]                  s_wdata_i,
  input  logic [3:0]                   s_wstrb_i,
  output logic                         s_bvalid_o,
  input  logic                         s_bready_i,
  output logic [1:0]                   s_bresp_o,
  input  logic                         s_arvalid_i,
  output logic                         s_arready_o,
  input  logic [ADDR_W-1:0]            s_araddr_i,
  output logic                         s_rvalid_o,
  input  logic                         s_rready_i,
  output logic [31:0]                  s_rdata_o,
  output logic [1:0]                   s_rresp_o,

  output logic                         reg_req_valid_o,
  input  logic                         reg_req_ready_i,
  output tessera_regbus_pkg::reg_req_t reg_req_o,
  input  logic                         reg_rsp_valid_i,
  input  tessera_regbus_pkg::reg_rsp_t reg_rsp_i
);

  typedef enum logic [2:0] {Idle, Req, Wait, WrResp, RdResp} state_e;

  state_e                       state_d, state_q;
  tessera_regbus_pkg::reg_req_t req_d, req_q;
  logic                         last_was_write_d, last_was_write_q;
  logic [31:0]                  rdata_d, rdata_q;
  logic                         err_d, err_q;

  logic wr_ready, rd_ready, take_write, take_read;
  assign wr_ready   = s_awvalid_i && s_wvalid_i;
  assign rd_ready   = s_arvalid_i;
  assign take_write = (state_q == Idle) && wr_ready && (!rd_ready || !last_was_write_q);
  assign take_read  = (state_q == Idle) && rd_ready && !take_write;

  always_comb begin
    state_d          = state_q;
    req_d            = req_q;
    last_was_write_d = last_was_write_q;
    rdata_d          = rdata_q;
    err_d            = err_q;
    unique case (state_q)
      Idle: begin
        if (take_write) begin
          req_d.addr  = tessera_regbus_pkg::REG_ADDR_W'(s_awaddr_i);
          req_d.we    = 1'b1;
          req_d.wdata = s_wdata_i;
          last_was_write_d = 1'b1;
          state_d = Req;
        end else if (take_read) begin
          req_d.addr  = tessera_regbus_pkg::REG_ADDR_W'(s_araddr_i);
          req_d.we    = 1'b0;
          req_d.wdata = '0;
          last_was_write_d = 1'b0;
          state_d = Req;
        end
      end
      Req: begin
        if (reg_req_ready_i) state_d = Wait;
      end
      Wait: begin
        if (reg_rsp_valid_i) begin
          rdata_d = reg_rsp_i.rdata;
          err_d   = reg_rsp_i.err;
          state_d = req_q.we ? WrResp : RdResp;
        end
      end
      WrResp: if (s_bready_i) state_d = Idle;
      RdResp: if (s_rready_i) state_d = Idle;
      default: state_d = Idle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q          <= Idle;
      req_q            <= '0;
      last_was_write_q <= 1'b0;
      rdata_q          <= '0;
      err_q            <= 1'b0;
    end else begin
      state_q          <= state_d;
      req_q            <= req_d;
      last_was_write_q <= last_was_write_d;
      rdata_q          <= rdata_d;
      err_q            <= err_d;
    end
  end

  assign s_awready_o     = take_write;
  assign s_wready_o      = take_write;
  assign s_arready_o     = take_read;
  assign s_bvalid_o      = state_q == WrResp;
  assign s_bresp_o       = err_q ? 2'b10 : 2'b00;
  assign s_rvalid_o      = state_q == RdResp;
  assign s_rdata_o       = rdata_q;
  assign s_rresp_o       = err_q ? 2'b10 : 2'b00;
  assign reg_req_valid_o = state_q == Req;
  assign reg_req_o       = req_q;

  logic [3:0] unused_wstrb;
  assign unused_wstrb = s_wstrb_i;

  `ASSERT(NoRspWhileIdle_A, reg_rsp_valid_i |-> state_q == Wait)

endmodule
