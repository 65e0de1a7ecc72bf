// prim_spill_reg -- spill (skid) register: a full-throughput valid/ready register slice that
// cuts every combinational path between its two sides.
//
// Why: long valid/ready chains between Tessera blocks (slices, crossbar, caches) need a
// timing break that costs no bandwidth. A plain pipeline register (prim_pipe_reg) registers
// valid and data but leaves ready_o = ready_i combinational; this one also registers the
// ready path, at the price of a second (skid) entry. Same algorithm as PULP
// spill_register: entry A takes new data, entry B catches A's word when the output stalls.
//
// Behaviour
//   - ready_o = "A or B is free": from flops only, independent of ready_i.
//   - valid_o = A or B holds a word; data_o is B's word when B is full (B always holds the
//     older word: a word moves A -> B only when the output stalls), else A's.
//   - Latency 1 cycle; throughput 1 word/cycle; order preserved; capacity 2 words.
//   - No reset on the data flops (area); data_o is only meaningful while valid_o is high.
//   - BYPASS = 1 makes the cell a pair of wires (for parameterised pipelines).

`include "prim_assert.svh"

module prim_spill_reg #(
  parameter int unsigned WIDTH  = 16,
  parameter int unsigned BYPASS = 0    // 0 or 1
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

  if (BYPASS != 0) begin : gen_bypass
    assign valid_o = valid_i;
    assign ready_o = ready_i;
    assign data_o  = data_i;

    // Clock and reset are unused in bypass mode.
    logic unused_bypass;
    assign unused_bypass = ^{clk_i, rst_ni};

  end else begin : gen_spill
    logic             a_full_d, a_full_q, b_full_d, b_full_q;
    logic [WIDTH-1:0] a_data_d, a_data_q, b_data_d, b_data_q;
    logic             a_fill, a_drain, b_fill, b_drain;

    // A fills on every accepted input. A drains when it holds a word and B is empty: the
    // word leaves (ready_i) or moves to B (!ready_i). B drains when the output takes it.
    assign a_fill  = valid_i && ready_o;
    assign a_drain = a_full_q && !b_full_q;
    assign b_fill  = a_drain && !ready_i;
    assign b_drain = b_full_q && ready_i;

    always_comb begin
      a_full_d = a_full_q;
      a_data_d = a_data_q;
      b_full_d = b_full_q;
      b_data_d = b_data_q;
      if (a_fill || a_drain) begin
        a_full_d = a_fill;
      end
      if (a_fill) begin
        a_data_d = data_i;
      end
      if (b_fill || b_drain) begin
        b_full_d = b_fill;
      end
      if (b_fill) begin
        b_data_d = a_data_q;
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        a_full_q <= 1'b0;
        b_full_q <= 1'b0;
      end else begin
        a_full_q <= a_full_d;
        b_full_q <= b_full_d;
      end
    end

    // Data flops: no reset (see header).
    always_ff @(posedge clk_i) begin
      a_data_q <= a_data_d;
      b_data_q <= b_data_d;
    end

    assign ready_o = !a_full_q || !b_full_q;
    assign valid_o = a_full_q || b_full_q;
    assign data_o  = b_full_q ? b_data_q : a_data_q;

    // With both entries full, nothing is accepted.
    `ASSERT(NoAcceptWhenFull_A, a_full_q && b_full_q |-> !ready_o)
    // Output stability: a stalled word stays on the output unchanged.
    `ASSERT(OutStable_A, valid_o && !ready_i |=> valid_o && $stable(data_o))
  end

  `ASSERT_INIT(BypassBool_A, BYPASS <= 1)
  `ASSERT_INIT(WidthMin_A, WIDTH >= 1)

endmodule
