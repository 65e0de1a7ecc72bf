# Tessera timing constraints, used by every block and by the top.
#
# Target clock: 500 MHz (2.0 ns) on clk_i, the one clock of the design (ARCHITECTURE.md 3).
# Why 500 MHz: mobile GPU front ends run at roughly 500-900 MHz; 500 MHz is the
# conservative end for a mid-range process, and it matches the memory system the
# architecture fixes: the DRAM model's default 32 bytes/cycle at 500 MHz is 16 GB/s, the
# bandwidth of a two-channel LPDDR4X-class mobile memory.
#
# Yosys 0.23 does no static timing analysis. The synthesis flow (scripts/synth/synth.sh)
# reads this file for the report header: it takes the clk_i period and the two tessera_*
# variables below and turns the longest combinational path, in generic LUT6 levels, into a
# figure against a per-cycle budget. An STA tool reads the standard commands and ignores
# the variables.

# --- clock -------------------------------------------------------------------------------
create_clock -name clk_i -period 2.000 [get_ports clk_i]
set_clock_uncertainty 0.100 [get_clocks clk_i]

# --- logic-depth model used by the synthesis reports ---------------------------------------
# One generic LUT6 level plus local routing, in a 28 nm-class process: about 0.2 ns.
set tessera_lut_level_ns 0.200
# Clock-to-q + setup + uncertainty taken out of every cycle.
set tessera_seq_overhead_ns 0.400
# => budget = (2.000 - 0.400) / 0.200 = 8 LUT6 levels between two flops.

# --- inputs and outputs ------------------------------------------------------------------
# Blocks talk over valid/ready with registered outputs where they can (prim_spill_reg).
# Give the neighbour 30% of the cycle on each side of a block boundary, so a block's
# input-to-flop and flop-to-output paths each get the remaining 70%, and a combinational
# input-to-output path (arbiter req -> gnt, fall-through FIFO) only 40%.
set tessera_io_delay_ns 0.600
set_input_delay  -clock clk_i $tessera_io_delay_ns \
    [remove_from_collection [all_inputs] [get_ports {clk_i rst_ni}]]
set_output_delay -clock clk_i $tessera_io_delay_ns [all_outputs]

# --- reset -------------------------------------------------------------------------------
# rst_ni is asynchronous active-low (ARCHITECTURE.md 3); its release is synchronised
# outside the blocks, so no timing path starts at it.
set_false_path -from [get_ports rst_ni]
