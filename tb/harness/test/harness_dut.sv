// Harness self-test design: small enough to reason about every value the harness shows.
// - count_q: increments on every rising edge while en_i (registered)
// - sum_o: a_i + b_i (combinational), to check ReadOnly sees settled values
// - a one-entry valid/ready pipe (in_* -> out_*), to exercise the stream components
// - fail_i: fires an RTL assertion, to check an RTL failure fails the test
module harness_dut (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  output logic [15:0] count_o,
  input  logic [7:0]  a_i,
  input  logic [7:0]  b_i,
  output logic [8:0]  sum_o,
  input  logic        in_valid_i,
  output logic        in_ready_o,
  input  logic [31:0] in_data_i,
  output logic        out_valid_o,
  input  logic        out_ready_i,
  output logic [31:0] out_data_o,
  input  logic        fail_i
);
  logic [15:0] count_d, count_q;
  logic        full_d, full_q;
  logic [31:0] data_d, data_q;

  always_comb begin
    count_d = en_i ? count_q + 16'd1 : count_q;
    full_d  = full_q;
    data_d  = data_q;
    if (full_q && out_ready_i) full_d = 1'b0;
    if (in_valid_i && in_ready_o) begin
      full_d = 1'b1;
      data_d = in_data_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= '0;
      full_q  <= 1'b0;
      data_q  <= '0;
    end else begin
      count_q <= count_d;
      full_q  <= full_d;
      data_q  <= data_d;
    end
  end

  assign count_o     = count_q;
  assign sum_o       = {1'b0, a_i} + {1'b0, b_i};
  assign in_ready_o  = !full_q || out_ready_i;
  assign out_valid_o = full_q;
  assign out_data_o  = data_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) assert (!fail_i) else $error("harness_dut: fail_i asserted");
  end
`endif
endmodule
