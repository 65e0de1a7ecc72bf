// cp_core_muldiv -- iterative multiplier/divider for cp_core's M extension.
//
// Implements: RISC-V unprivileged ISA, chapter "M" Standard Extension for Integer
// Multiplication and Division (MUL, MULH, MULHSU, MULHU, DIV, DIVU, REM, REMU), including
// its table of division corner cases (divide by zero: quotient all ones, remainder = dividend;
// overflow -2^31 / -1: quotient -2^31, remainder 0). Design: docs/cp-core.md, "MUL/DIV".
//
// Why iterative: the core targets 500 MHz, and a single-cycle 32x32 multiplier would be the
// longest path of the design by far. Both operations work on magnitudes (signed operands are
// negated in the start cycle) and fix the sign of the result when it is read.
//   MUL*:   4 multiplier bits per cycle (acc += a * nibble, shift right 4): 8 steps.
//   DIV/REM: restoring division, 1 quotient bit per cycle: 32 steps.
// Handshake with EX: start_i (unit idle) captures the operands; done_o stays high with
// result_o until ack_i (EX retires the instruction) or kill_i (pipeline flush).
// Latency seen by the instruction in EX: 1 start + steps + 1 done cycle = 10 (MUL*), 34 (DIV*).

`include "prim_assert.svh"

module cp_core_muldiv (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,
  input  logic        kill_i,
  input  logic        ack_i,
  input  logic [2:0]  op_i,      // funct3 of the M instruction
  input  logic [31:0] a_i,       // rs1
  input  logic [31:0] b_i,       // rs2
  output logic        busy_o,    // an operation is in progress or its result not yet taken
  output logic        done_o,
  output logic [31:0] result_o
);

  localparam logic [1:0] StIdle = 2'd0;
  localparam logic [1:0] StMul  = 2'd1;
  localparam logic [1:0] StDiv  = 2'd2;
  localparam logic [1:0] StDone = 2'd3;

  localparam logic [2:0] OpMul    = 3'd0;
  localparam logic [2:0] OpMulh   = 3'd1;
  localparam logic [2:0] OpMulhsu = 3'd2;
  localparam logic [2:0] OpMulhu  = 3'd3;

  logic [1:0]  state_d, state_q;
  logic [4:0]  cnt_d, cnt_q;
  logic [2:0]  op_d, op_q;
  logic        neg_d, neg_q;           // negate the result (sign of product / quotient / rem)
  logic        divzero_d, divzero_q;
  logic [31:0] m_d, m_q;               // multiplicand magnitude / divisor magnitude
  logic [64:0] acc_d, acc_q;           // MUL: {partial product, multiplier}; DIV: {rem, quot}

  // Operand magnitudes and signs (start cycle).
  logic        a_signed, b_signed, sa, sb;
  logic [31:0] abs_a, abs_b;
  assign a_signed = (op_i == OpMulh) | (op_i == OpMulhsu) | (op_i == 3'd4) | (op_i == 3'd6);
  assign b_signed = (op_i == OpMulh) | (op_i == 3'd4) | (op_i == 3'd6);
  assign sa       = a_signed & a_i[31];
  assign sb       = b_signed & b_i[31];
  assign abs_a    = sa ? 32'd0 - a_i : a_i;
  assign abs_b    = sb ? 32'd0 - b_i : b_i;

  // One multiply step: add multiplicand x low nibble to the upper part, shift right by 4.
  logic [35:0] mul_pp;
  logic [36:0] mul_sum;
  // m_q x nibble as four masked, shifted copies (a 32x4 multiplier, written out).
  assign mul_pp  = ({4'b0, m_q}       & {36{acc_q[0]}}) + ({3'b0, m_q, 1'b0} & {36{acc_q[1]}})
                 + ({2'b0, m_q, 2'b0} & {36{acc_q[2]}}) + ({1'b0, m_q, 3'b0} & {36{acc_q[3]}});
  assign mul_sum = {4'b0, acc_q[64:32]} + {1'b0, mul_pp};

  // One restoring division step on {remainder, quotient}.
  // The partial remainder stays below the divisor, so {rem, next bit} < 2 * divisor and the
  // difference fits 33 bits with its sign (divisor 0: the shifted value stays below 2^32).
  logic [32:0] div_shift, div_diff;
  logic        div_ge;
  assign div_shift = {acc_q[63:32], acc_q[31]};
  assign div_diff  = div_shift - {1'b0, m_q};
  assign div_ge    = ~div_diff[32];

  always_comb begin
    state_d   = state_q;
    cnt_d     = cnt_q;
    op_d      = op_q;
    neg_d     = neg_q;
    divzero_d = divzero_q;
    m_d       = m_q;
    acc_d     = acc_q;
    unique case (state_q)
      StIdle: begin
        if (start_i) begin
          op_d      = op_i;
          divzero_d = (b_i == 32'd0);
          // REM takes the dividend's sign; MULH, MULHSU and DIV the product of signs.
          neg_d     = (op_i[2] & op_i[1]) ? sa : (sa ^ sb);
          if (op_i[2]) begin
            state_d = StDiv;
            cnt_d   = 5'd31;
            m_d     = abs_b;
            acc_d   = {33'd0, abs_a};
          end else begin
            state_d = StMul;
            cnt_d   = 5'd7;
            // MUL: the low word does not depend on signedness; use the raw operands.
            m_d     = (op_i == OpMul) ? a_i : abs_a;
            acc_d   = {33'd0, (op_i == OpMul) ? b_i : abs_b};
          end
        end
      end
      StMul: begin
        acc_d = {mul_sum, acc_q[31:4]};
        cnt_d = cnt_q - 5'd1;
        if (cnt_q == 5'd0) state_d = StDone;
      end
      StDiv: begin
        acc_d = {1'b0, div_ge ? div_diff[31:0] : div_shift[31:0], acc_q[30:0], div_ge};
        cnt_d = cnt_q - 5'd1;
        if (cnt_q == 5'd0) state_d = StDone;
      end
      StDone: begin
        if (ack_i) state_d = StIdle;
      end
      default: state_d = StIdle;
    endcase
    if (kill_i) state_d = StIdle;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= StIdle;
      cnt_q     <= 5'd0;
      op_q      <= 3'd0;
      neg_q     <= 1'b0;
      divzero_q <= 1'b0;
      m_q       <= 32'd0;
      acc_q     <= 65'd0;
    end else begin
      state_q   <= state_d;
      cnt_q     <= cnt_d;
      op_q      <= op_d;
      neg_q     <= neg_d;
      divzero_q <= divzero_d;
      m_q       <= m_d;
      acc_q     <= acc_d;
    end
  end

  // Result with the sign fixed. High word of a negated 64-bit product: ~hi + (lo == 0).
  logic [31:0] hi_neg, quot, rem;
  assign hi_neg = ~acc_q[63:32] + {31'd0, acc_q[31:0] == 32'd0};
  assign quot   = acc_q[31:0];
  assign rem    = acc_q[63:32];

  always_comb begin
    unique case (op_q)
      OpMul:                result_o = acc_q[31:0];
      OpMulh, OpMulhsu:     result_o = neg_q ? hi_neg : acc_q[63:32];
      OpMulhu:              result_o = acc_q[63:32];
      3'd4, 3'd5:           result_o = divzero_q ? 32'hFFFF_FFFF : (neg_q ? 32'd0 - quot : quot);
      default:              result_o = neg_q ? 32'd0 - rem : rem;  // REM, REMU
    endcase
  end

  assign busy_o = (state_q != StIdle);
  assign done_o = (state_q == StDone);

  `ASSERT(StartOnlyWhenIdle_A, start_i |-> state_q == StIdle)
  `ASSERT(AckOnlyWhenDone_A, ack_i |-> state_q == StDone)
  `ASSERT(MulProductFits_A, state_q == StMul |-> !mul_sum[36])

endmodule
