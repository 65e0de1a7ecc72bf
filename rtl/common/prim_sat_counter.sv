// prim_sat_counter -- saturating up/down counter with load and clear.
//
// Why: credit counters, throttle levels (hull-shader throttle) and statistics must never
// wrap; one cell with the saturation written and checked once.
//
// Next value, in priority order:
//   clr_i           -> 0
//   load_i          -> min(load_val_i, MAX_VAL)
//   otherwise       -> clamp(cnt + (inc_i ? inc_amt_i : 0) - (dec_i ? dec_amt_i : 0),
//                            0, MAX_VAL)
// The sum is computed exactly (WIDTH+2 bits) and then clamped, so an increment and a
// decrement in the same cycle net out before saturating. zero_o / max_o flag the current
// value at 0 / MAX_VAL. Latency: the new value appears on cnt_o the cycle after.
// MAX_VAL and RESET_VAL are WIDTH-bit parameters: override them with sized constants
// (e.g. 6'd40), or Verilator warns about the width.

`include "prim_assert.svh"

module prim_sat_counter #(
  parameter int unsigned     WIDTH     = 8,
  parameter logic [WIDTH-1:0] MAX_VAL   = '1,
  parameter logic [WIDTH-1:0] RESET_VAL = '0
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clr_i,
  input  logic             load_i,
  input  logic [WIDTH-1:0] load_val_i,
  input  logic             inc_i,
  input  logic [WIDTH-1:0] inc_amt_i,
  input  logic             dec_i,
  input  logic [WIDTH-1:0] dec_amt_i,
  output logic [WIDTH-1:0] cnt_o,
  output logic             zero_o,
  output logic             max_o
);

  localparam int unsigned SumW = WIDTH + 2;  // sign bit + one carry bit

  logic [WIDTH-1:0] cnt_d, cnt_q;
  logic [SumW-1:0]  sum;

  assign sum = SumW'(cnt_q) + (inc_i ? SumW'(inc_amt_i) : '0)
                            - (dec_i ? SumW'(dec_amt_i) : '0);

  // Clamp the load value; with MAX_VAL all ones there is nothing to clamp (and the compare
  // would be constant, which lint rightly flags).
  logic [WIDTH-1:0] load_val;
  if (MAX_VAL == '1) begin : gen_load_full
    assign load_val = load_val_i;
  end else begin : gen_load_clamp
    assign load_val = (load_val_i > MAX_VAL) ? MAX_VAL : load_val_i;
  end

  always_comb begin
    if (clr_i) begin
      cnt_d = '0;
    end else if (load_i) begin
      cnt_d = load_val;
    end else if (sum[SumW-1]) begin
      cnt_d = '0;                    // went below zero
    end else if (sum[SumW-2:0] > (SumW - 1)'(MAX_VAL)) begin
      cnt_d = MAX_VAL;
    end else begin
      cnt_d = sum[WIDTH-1:0];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q <= RESET_VAL;
    end else begin
      cnt_q <= cnt_d;
    end
  end

  assign cnt_o  = cnt_q;
  assign zero_o = (cnt_q == '0);
  assign max_o  = (cnt_q == MAX_VAL);

  `ASSERT_INIT(WidthMin_A, WIDTH >= 1)
  `ASSERT_INIT(ResetInRange_A, RESET_VAL <= MAX_VAL)
  `ASSERT(InRange_A, cnt_q <= MAX_VAL)

endmodule
