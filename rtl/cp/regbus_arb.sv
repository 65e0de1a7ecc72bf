// regbus_arb -- two register-bus masters (the host port and the CP core's register window)
// share one register bus, one transaction at a time. Round-robin between waiting masters;
// the winner keeps the bus until its response has come back, so responses need no routing
// tag. A master holds its request until ready (tessera_regbus_pkg).
`include "prim_assert.svh"

module regbus_arb (
  input  logic                         clk_i,
  input  logic                         rst_ni,

  input  logic [1:0]                   m_req_valid_i,
  output logic [1:0]                   m_req_ready_o,
  input  tessera_regbus_pkg::reg_req_t m0_req_i,
  input  tessera_regbus_pkg::reg_req_t m1_req_i,
  output logic [1:0]                   m_rsp_valid_o,
  output tessera_regbus_pkg::reg_rsp_t m_rsp_o,           // shared; valid per master

  output logic                         s_req_valid_o,
  input  logic                         s_req_ready_i,
  output tessera_regbus_pkg::reg_req_t s_req_o,
  input  logic                         s_rsp_valid_i,
  input  tessera_regbus_pkg::reg_rsp_t s_rsp_i
);

  logic busy_d, busy_q, owner_d, owner_q, prio_d, prio_q;
  logic pick;

  // Which master goes next when the bus is free.
  always_comb begin
    if (m_req_valid_i == 2'b11) pick = prio_q;
    else                        pick = m_req_valid_i[1];
  end

  logic cur;
  assign cur = busy_q ? owner_q : pick;

  // While not busy the picked master's request is presented; once the slave accepts it the
  // bus is busy until the response.
  logic presenting;
  assign presenting    = !busy_q && (|m_req_valid_i);
  assign s_req_valid_o = presenting;
  assign s_req_o       = cur ? m1_req_i : m0_req_i;

  always_comb begin
    m_req_ready_o      = '0;
    m_req_ready_o[cur] = presenting && s_req_ready_i;
    m_rsp_valid_o        = '0;
    m_rsp_valid_o[owner_q] = busy_q && s_rsp_valid_i;
  end
  assign m_rsp_o = s_rsp_i;

  always_comb begin
    busy_d  = busy_q;
    owner_d = owner_q;
    prio_d  = prio_q;
    if (presenting && s_req_ready_i) begin
      busy_d  = 1'b1;
      owner_d = cur;
      prio_d  = !cur;
    end else if (busy_q && s_rsp_valid_i) begin
      busy_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= 1'b0;
      owner_q <= 1'b0;
      prio_q  <= 1'b0;
    end else begin
      busy_q  <= busy_d;
      owner_q <= owner_d;
      prio_q  <= prio_d;
    end
  end

  `ASSERT(RspOnlyWhenBusy_A, s_rsp_valid_i |-> busy_q)

endmodule
