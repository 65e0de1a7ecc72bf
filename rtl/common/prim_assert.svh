// prim_assert.svh -- assertion macros for Tessera RTL (lowRISC prim_assert style).
//
// Why: every block states its invariants next to the logic, with one default clock (clk_i)
// and reset (rst_ni), so an assertion is one line and reads the same everywhere. Assertions
// are ON in every Verilator run (--assert, CONVENTIONS.md) and compiled out for synthesis:
// Yosys is run with -DSYNTHESIS and sees empty macros.
//
// Subset (Verilator 5.006 and Yosys 0.23): concurrent properties may use |->, |=>, $past,
// $rose, $fell, $stable; `sequence` and ##[m:n] are rejected by Verilator 5.006. Do not use
// `__FILE__` outside `ifndef SYNTHESIS: Yosys 0.23 does not know it.
//
// Macros (all take a unique label; the label is what a failure reports, with file:line):
//   `ASSERT(name, prop, clk = clk_i, rst_n = rst_ni)   concurrent, checked at posedge clk
//                                                      while rst_n is high
//   `ASSERT_NEVER(name, expr, clk, rst_n)              boolean expr must never hold
//   `ASSERT_KNOWN(name, sig, clk, rst_n)               sig has no X/Z. Verilator is 2-state:
//                                                      there $isunknown is always 0, so this
//                                                      only bites in a 4-state simulator
//   `ASSERT_KNOWN_IF(name, sig, en, clk, rst_n)        sig known whenever en is high
//   `ASSERT_I(name, expr)                              immediate; use inside always_comb /
//                                                      always_ff bodies
//   `ASSERT_INIT(name, prop)                           parameter check: fails elaboration
//                                                      (lint, verilation) and, because the
//                                                      build runs with -Wno-fatal, also
//                                                      stops the model at time 0
//   `ASSUME(name, prop, clk, rst_n)                    environment assumption; in
//                                                      simulation it is checked like ASSERT
//   `COVER(name, prop, clk, rst_n)                     cover point (counted with
//                                                      --coverage-user)
//
// A failure in Verilator prints, e.g.
//   %Error: prim_fifo_sync.sv:160: Assertion failed in TOP.x.u_fifo.DepthInRange_A:
//   [ASSERT] DepthInRange_A (prim_fifo_sync.sv:160)
// and stops the simulation ($error with the default error limit of 1).

`ifndef PRIM_ASSERT_SVH
`define PRIM_ASSERT_SVH

`ifndef SYNTHESIS

`define PRIM_ASSERT_ERROR(__name) \
  $error("[ASSERT] %s (%s:%0d)", `"__name`", `__FILE__, `__LINE__);

`define ASSERT(__name, __prop, __clk = clk_i, __rst_n = rst_ni) \
  __name: assert property (@(posedge __clk) disable iff (!(__rst_n)) (__prop)) \
    else `PRIM_ASSERT_ERROR(__name)

`define ASSERT_NEVER(__name, __prop, __clk = clk_i, __rst_n = rst_ni) \
  __name: assert property (@(posedge __clk) disable iff (!(__rst_n)) (!(__prop))) \
    else `PRIM_ASSERT_ERROR(__name)

`define ASSERT_KNOWN(__name, __sig, __clk = clk_i, __rst_n = rst_ni) \
  `ASSERT(__name, !$isunknown(__sig), __clk, __rst_n)

`define ASSERT_KNOWN_IF(__name, __sig, __en, __clk = clk_i, __rst_n = rst_ni) \
  `ASSERT(__name, (__en) |-> !$isunknown(__sig), __clk, __rst_n)

`define ASSERT_I(__name, __prop) \
  __name: assert (__prop) else `PRIM_ASSERT_ERROR(__name)

`define ASSERT_INIT(__name, __prop) \
  if (!(__prop)) begin : __name \
    $fatal(1, "[ASSERT_INIT] %s: %s does not hold (%s:%0d)", `"__name`", `"__prop`", \
           `__FILE__, `__LINE__); \
    initial $fatal(1, "[ASSERT_INIT] %m: %s does not hold (%s:%0d)", `"__prop`", \
                   `__FILE__, `__LINE__); \
  end

`define ASSUME(__name, __prop, __clk = clk_i, __rst_n = rst_ni) \
  __name: assert property (@(posedge __clk) disable iff (!(__rst_n)) (__prop)) \
    else $error("[ASSUME] %s (%s:%0d)", `"__name`", `__FILE__, `__LINE__);

`define COVER(__name, __prop, __clk = clk_i, __rst_n = rst_ni) \
  __name: cover property (@(posedge __clk) disable iff (!(__rst_n)) (__prop));

`else  // SYNTHESIS: assertions are simulation-only

`define ASSERT(__name, __prop, __clk = clk_i, __rst_n = rst_ni)
`define ASSERT_NEVER(__name, __prop, __clk = clk_i, __rst_n = rst_ni)
`define ASSERT_KNOWN(__name, __sig, __clk = clk_i, __rst_n = rst_ni)
`define ASSERT_KNOWN_IF(__name, __sig, __en, __clk = clk_i, __rst_n = rst_ni)
`define ASSERT_I(__name, __prop)
`define ASSERT_INIT(__name, __prop)
`define ASSUME(__name, __prop, __clk = clk_i, __rst_n = rst_ni)
`define COVER(__name, __prop, __clk = clk_i, __rst_n = rst_ni)

`endif  // SYNTHESIS

`endif  // PRIM_ASSERT_SVH
