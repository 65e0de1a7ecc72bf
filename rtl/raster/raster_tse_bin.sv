// raster_tse_bin -- the bin-dependent part of triangle setup: moves a primitive's edge
// functions and attribute planes from its own first 8x8 block to the first block of its
// rectangle in one bin.
//
// Issue 16 item 5 ("setup once per triangle, at batch insertion ... per bin only the
// bin-dependent origin terms"): raster_tse sets a triangle up once, when it enters the batch,
// at the centre of the pixel (x0 & ~7, y0 & ~7) of the primitive's clamped pixel box
// (docs/raster.md "Triangle setup"), and the raster slice keeps the result in its setup RAM.
// In a bin the rectangle (box x bin) starts dbx blocks right of and dby blocks below that
// block (both >= 0: the rectangle's corner is the box's, or the bin's when the box starts in
// an earlier bin). The planes at the bin's origin are then
//   w_j + dbx * 128 A_j + dby * 128 B_j      (edges, A and B per 1/16 pixel, a block is 128)
//   pv_i + dbx * 128 gx_i + dby * 128 gy_i   (attributes)
// modulo 2^48: exactly what GRAS's block stepping (+128 A per block) would give, and what the
// reference's direct evaluation gives (docs/raster.md "Rasterization": stepping is exact).
//
// Schedule: a primitive whose rectangle starts in its own first block (every primitive inside
// one bin, and the first bin of every other) takes one cycle. Otherwise two 41x8-bit
// multipliers (only the low 41 bits of a product survive the << 7 modulo 2^48) take one plane
// per cycle; the registered products are added into the plane in two halves on consecutive
// cycles, bits 23..0 with their carry-out registered, then bits 47..24 (a 48-bit three-operand
// add in one cycle was 37 LUT levels in the flattened slice): 13 cycles for the 10 planes.
// It was 44 cycles of full setup per (bin, primitive).
//
// ea_i, eb_i, pgx_i, pgy_i and the start values must stay stable until done_o (the slice's
// setup RAM holds its read data until the next read).

`include "prim_assert.svh"

module raster_tse_bin (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,    // pulse
  input  logic [7:0]      dbx_i,      // blocks from the primitive's first block to the bin's
  input  logic [7:0]      dby_i,
  input  logic [3*48-1:0] w_i,        // at the primitive's first block
  input  logic [3*21-1:0] ea_i,
  input  logic [3*21-1:0] eb_i,
  input  logic [7*48-1:0] pv_i,
  input  logic [7*48-1:0] pgx_i,
  input  logic [7*48-1:0] pgy_i,
  output logic            busy_o,
  output logic            done_o,     // pulse: w_o, pv_o hold the planes at the bin's block
  output logic [3*48-1:0] w_o,
  output logic [7*48-1:0] pv_o
);

  localparam int unsigned NP = 10;    // planes: 3 edges, then z, r, g, b, a, u, v

  typedef enum logic [1:0] {B_IDLE, B_MUL, B_DRAIN} bstate_e;
  bstate_e          st_q, st_d;
  logic [NP*48-1:0] acc_q, acc_d;     // the planes: loaded at start, offsets added in turn
  logic [7:0]       dbx_q, dbx_d, dby_q, dby_d;
  logic [3:0]       j_q, j_d;         // the plane whose products are formed this cycle
  logic [3:0]       pj_q, pj_d;       // the plane whose registered products are added
  logic             pv_q, pv_d;       // the registered products are valid
  logic [40:0]      px_q, px_d, py_q, py_d;
  logic [3:0]       hj_q, hj_d;       // the plane whose upper half is added
  logic             hv_q, hv_d;
  logic [23:0]      hx_q, hx_d, hy_q, hy_d;   // the products' bits 40..17 (plane bits 47..24)
  logic [1:0]       hc_q, hc_d;       // carry out of the lower half
  logic             done_q, done_d;

  // the plane's increments per 1/16 pixel, low 41 bits (edges sign-extended from 21 bits)
  logic [40:0] sx, sy;
  always_comb begin
    sx = '0;
    sy = '0;
    for (int j = 0; j < 3; j++) begin
      if (j_q == 4'(j)) begin
        sx = 41'($signed(ea_i[j*21 +: 21]));
        sy = 41'($signed(eb_i[j*21 +: 21]));
      end
    end
    for (int i = 0; i < 7; i++) begin
      if (j_q == 4'(i + 3)) begin
        sx = pgx_i[i*48 +: 41];
        sy = pgy_i[i*48 +: 41];
      end
    end
  end

  always_comb begin
    st_d = st_q;  acc_d = acc_q;  dbx_d = dbx_q;  dby_d = dby_q;
    j_d = j_q;  pj_d = pj_q;  pv_d = 1'b0;  px_d = px_q;  py_d = py_q;  done_d = 1'b0;
    hj_d = hj_q;  hv_d = 1'b0;  hx_d = hx_q;  hy_d = hy_q;  hc_d = hc_q;
    // The registered products of plane pj go into it, (dbx S_x + dby S_y) << 7 modulo 2^48:
    // bits 23..0 now (the products' bits 16..0 above 7 zero bits), with the carry-out kept ...
    if (pv_q) begin
      for (int j = 0; j < NP; j++) begin
        if (pj_q == 4'(j)) begin
          {hc_d, acc_d[j*48 +: 24]} = 26'(acc_q[j*48 +: 24]) + 26'({px_q[16:0], 7'd0}) +
                                      26'({py_q[16:0], 7'd0});
        end
      end
      hj_d = pj_q;
      hv_d = 1'b1;
      hx_d = px_q[40:17];
      hy_d = py_q[40:17];
    end
    // ... and bits 47..24 the cycle after (another plane's lower half may go in meanwhile)
    if (hv_q) begin
      for (int j = 0; j < NP; j++) begin
        if (hj_q == 4'(j)) begin
          acc_d[j*48 + 24 +: 24] = acc_q[j*48 + 24 +: 24] + hx_q + hy_q + 24'(hc_q);
        end
      end
    end
    unique case (st_q)
      B_IDLE: if (start_i) begin
        acc_d = {pv_i, w_i};
        dbx_d = dbx_i;
        dby_d = dby_i;
        j_d = '0;
        if (dbx_i == '0 && dby_i == '0) done_d = 1'b1;   // the primitive's own first block
        else                            st_d = B_MUL;
      end
      B_MUL: begin
        px_d = 41'(dbx_q * sx);
        py_d = 41'(dby_q * sy);
        pv_d = 1'b1;
        pj_d = j_q;
        if (j_q == 4'(NP - 1)) begin
          st_d = B_DRAIN;
        end else begin
          j_d = j_q + 4'd1;
        end
      end
      B_DRAIN: begin              // the last plane's halves go in (pv, then hv)
        if (!pv_q) begin
          done_d = 1'b1;
          st_d = B_IDLE;
        end
      end
      default: st_d = B_IDLE;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q   <= B_IDLE;
      acc_q  <= '0;
      dbx_q  <= '0;
      dby_q  <= '0;
      j_q    <= '0;
      pj_q   <= '0;
      pv_q   <= 1'b0;
      px_q   <= '0;
      py_q   <= '0;
      hj_q   <= '0;
      hv_q   <= 1'b0;
      hx_q   <= '0;
      hy_q   <= '0;
      hc_q   <= '0;
      done_q <= 1'b0;
    end else begin
      st_q   <= st_d;
      acc_q  <= acc_d;
      dbx_q  <= dbx_d;
      dby_q  <= dby_d;
      j_q    <= j_d;
      pj_q   <= pj_d;
      pv_q   <= pv_d;
      px_q   <= px_d;
      py_q   <= py_d;
      hj_q   <= hj_d;
      hv_q   <= hv_d;
      hx_q   <= hx_d;
      hy_q   <= hy_d;
      hc_q   <= hc_d;
      done_q <= done_d;
    end
  end

  assign busy_o = (st_q != B_IDLE);
  assign done_o = done_q;
  assign w_o    = acc_q[0 +: 3*48];
  assign pv_o   = acc_q[3*48 +: 7*48];

  logic unused_hi;
  // the bits of the attribute increments above 41 do not reach a product kept modulo 2^48
  always_comb begin
    unused_hi = 1'b0;
    for (int i = 0; i < 7; i++) begin
      unused_hi = unused_hi ^ (^pgx_i[i*48 + 41 +: 7]) ^ (^pgy_i[i*48 + 41 +: 7]);
    end
  end

  `ASSERT(StartWhenIdle_A, start_i |-> st_q == B_IDLE)
  `ASSERT(DoneOnce_A, done_q |-> !$past(done_q))
  // the offset products of a plane are added exactly once, in plane order
  `ASSERT(PlanesInOrder_A, pv_q && $past(pv_q) |-> pj_q == $past(pj_q) + 4'd1)
  // a plane's upper half follows its lower half, never the same plane in one cycle
  `ASSERT(HalvesInStep_A, hv_q |-> $past(pv_q) && hj_q == $past(pj_q))
  `ASSERT(HalvesApart_A, hv_q && pv_q |-> hj_q != pj_q)

endmodule
