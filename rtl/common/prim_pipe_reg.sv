// prim_pipe_reg -- one-entry valid/ready pipeline register.
//
// Why: the cheapest register slice. valid_o and data_o come from flops, so it breaks the
// forward (valid/data) path; ready_o = !valid_o || ready_i is combinational, so it does NOT
// break the backward path (use prim_spill_reg for that). Full throughput: a word can enter
// in the cycle the held word leaves. Latency 1 cycle. Data flops are not reset; data_o is
// only meaningful while valid_o is high.

`include "prim_assert.svh"

module prim_pipe_reg #(
  parameter int unsigned WIDTH = 16
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // upstream
  input  logic             valid_i,
  output logic             ready_o,
  input  logic [WIDTH-1:0] data_i,
  // downstream
  output logic             valid_o,
  input  logic             ready_i,
  output logic [WIDTH-1:0] data_o
);

  logic             valid_d, valid_q;
  logic [WIDTH-1:0] data_d, data_q;

  assign ready_o = !valid_q || ready_i;

  always_comb begin
    valid_d = valid_q;
    data_d  = data_q;
    if (ready_o) begin
      valid_d = valid_i;
      if (valid_i) begin
        data_d = data_i;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
    end else begin
      valid_q <= valid_d;
    end
  end

  always_ff @(posedge clk_i) begin
    data_q <= data_d;
  end

  assign valid_o = valid_q;
  assign data_o  = data_q;

  `ASSERT_INIT(WidthMin_A, WIDTH >= 1)
  `ASSERT(OutStable_A, valid_o && !ready_i |=> valid_o && $stable(data_o))

endmodule
