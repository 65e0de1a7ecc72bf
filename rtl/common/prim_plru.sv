// prim_plru -- tree pseudo-LRU of one cache set: victim selection and update. Combinational.
//
// Source: ARCHITECTURE.md section 5.5 ("pseudo-LRU"); the exact tree below is the SLC's
// specification (docs/slc.md, "Replacement"), which the C++ reference model in tb/slc follows.
//
// The WAYS-1 bits form a binary tree stored heap-style: node 0 is the root, node n at level l
// (0 = root) is n = (2^l - 1) + p, where p is the l-bit path prefix from the root. Way w sits
// under the path given by its own bits, most significant first: at level l the way goes left
// (0) or right (1) according to w[LEVELS-1-l]. A node bit says where the victim is: 0 = left
// subtree, 1 = right subtree.
//   victim_o: follow the bits from the root; the leaf reached is the pseudo least recently
//             used way.
//   left_levels_i: the first left_levels_i levels from the root go left whatever their bits
//             say, so the victim lies in ways [0, WAYS >> left_levels_i): a way limit (cache
//             partitioning, the SLC's WAY_LIMIT). 0 = the plain tree.
//   bits_o:   bits_i after touching touch_way_i: every node on the way's path is set to point
//             away from it (bit = NOT the direction taken), so the way is the most recently
//             used one.

`include "prim_assert.svh"

module prim_plru #(
  parameter int unsigned WAYS = 8,
  // Derived (do not override)
  localparam int unsigned WayW   = (WAYS > 1) ? $clog2(WAYS) : 1,
  localparam int unsigned Levels = $clog2(WAYS),
  localparam int unsigned BitsW  = (WAYS > 1) ? WAYS - 1 : 1
) (
  input  logic [BitsW-1:0] bits_i,
  input  logic [WayW:0]    left_levels_i,
  input  logic [WayW-1:0]  touch_way_i,
  output logic [WayW-1:0]  victim_o,
  output logic [BitsW-1:0] bits_o
);

  // Victim: the path prefix grows by one bit per level; the node read at level l is
  // (2^l - 1) + prefix. Written with constant indices (a mux per level) for Yosys.
  always_comb begin
    logic [WayW-1:0] prefix;
    prefix = '0;
    for (int unsigned l = 0; l < Levels; l++) begin
      logic dir;
      dir = 1'b0;
      for (int unsigned q = 0; q < (1 << l); q++) begin
        if (prefix == WayW'(q)) begin
          dir = bits_i[(1 << l) - 1 + q];
        end
      end
      if (32'(left_levels_i) > l) dir = 1'b0;
      prefix = WayW'({prefix, dir});
    end
    victim_o = prefix;
  end

  // Update: a node at level l with prefix q lies on touch_way_i's path when the way's top l
  // bits equal q; it then points away from the way's direction at that level.
  always_comb begin
    bits_o = bits_i;
    for (int unsigned l = 0; l < Levels; l++) begin
      for (int unsigned q = 0; q < (1 << l); q++) begin
        if ((32'(touch_way_i) >> (Levels - l)) == q) begin
          bits_o[(1 << l) - 1 + q] = !touch_way_i[Levels - 1 - l];
        end
      end
    end
  end

  `ASSERT_INIT(WaysPow2_A, WAYS >= 2 && (WAYS & (WAYS - 1)) == 0)

endmodule
