// raster_lrz -- low-resolution Z (LRZ) of one raster slice: one conservative depth per 8x8
// pixel block of the slice's own tiles, tested by GRAS before it emits a block's quads.
//
// Source: 001_3630ef805e8956e2.txt (Qualcomm), paragraph 2 of the description and claims
// 10-11: "each LRZ is configured to store only the cache lines corresponding to the pixel
// tiles assigned to its hardware slice ... by first mapping screen coordinates into a slice
// space that is contiguous in coordinates and holds only the slice's blocks, and then
// addressing tiles by their slice-space coordinates"; ARCHITECTURE.md 5.3. How it works
// (docs/raster.md "LRZ"):
//
// Slice space. Tile (tx, ty) is owned by slice (tx + ty*skew) mod N, so each tile row holds
// the slice's tiles at tx = c, c+N, c+2N...: slice-space column k = tx / N (exact: the
// remainder is the row's offset c), row ty. The LRZ holds ceil(tiles_x / N) x tiles_y tiles
// of (T/8)^2 entries: a quarter of the screen on 4 slices, nothing for other slices' tiles.
// Entries beyond BLOCKS (a target too large for the RAM) are neither tested nor updated.
//
// Entry. 16 bits L: every depth stored in the block's pixels is <= {L, 8'hFF}.
//   RENDERPASS_BEGIN: L = clear_depth[23:8] when the depth target is cleared, else 16'hFFFF
//   (no information); the pass's entries are written 4 per clock (GRAS waits: lrz_hold_o).
//   Test (depth function LESS or LEQUAL): the primitive's block z minimum zmin from GRAS;
//   LESS rejects when zmin >= {L, FF}, LEQUAL when zmin > {L, FF}: every pixel of the
//   primitive in the block would fail the depth test against what is stored.
//   Update (LESS or LEQUAL with depth write, block fully covered, not rejected): every pixel
//   then holds min(stored, z) <= zmax, so L = min(L, zmax[23:8]).
// Safety rule (when the LRZ is switched off until the next render pass): a depth state that
// could raise a stored depth (ALWAYS with depth write), and any write of the BIN or SLICE
// register (they change the slice-space layout). NEVER and disabled depth writes are safe.

`include "prim_assert.svh"

module raster_lrz #(
  parameter int unsigned BLOCKS = 4096,   // entries (8x8 blocks); a multiple of 4
  localparam int unsigned Words = BLOCKS / 4,
  localparam int unsigned WAddrW = $clog2(Words)
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // state of the slice (RASTER registers, current render pass)
  input  logic        enable_i,           // LRZ.enable: test and update (the state is kept either way)
  input  logic [1:0]  depth_func_i,       // ts_depth_func_e
  input  logic        depth_we_i,
  input  logic [2:0]  l2t_i,              // log2(bin size) - 4
  input  logic [3:0]  snum_i,             // slices (0 and > 8 act as 1)
  input  logic [11:0] rtw_i,              // render target of the current pass
  input  logic [11:0] rth_i,
  // render pass begin (the RENDERPASS_BEGIN is accepted; rtw_i/rth_i follow next cycle)
  input  logic        rp_begin_i,
  input  logic        rp_clear_i,         // depth load op is CLEAR
  input  logic [23:0] rp_clear_depth_i,
  input  logic        layout_wr_i,        // BIN or SLICE register written: off until next pass
  // the bin the slice renders next (its tile, once per visit, before any request)
  input  logic        bin_i,
  input  logic [6:0]  bin_tx_i,
  input  logic [6:0]  bin_ty_i,
  // GRAS
  output logic        hold_o,             // clearing: no request now
  input  logic        req_i,
  input  logic [10:0] bx_i,
  input  logic [10:0] by_i,
  input  logic [23:0] zmin_i,
  input  logic [23:0] zmax_i,
  input  logic        zok_i,
  input  logic        full_i,
  input  logic [4:0]  nquads_i,
  output logic        reject_o,           // the cycle after req_i
  // counters (wrap)
  output logic [31:0] cnt_blocks_o,       // block-primitive pairs rejected
  output logic [31:0] cnt_quads_o         // their quad positions inside the primitives' rectangles
);

  // ---- slice space ------------------------------------------------------------------------------
  // x / N for x < 136 and N = 1..8 as (x * ceil(1024 / N)) >> 10 (exact in that range; an
  // assertion checks it), so no divider.
  logic [3:0]  nslices;
  logic [10:0] recip;
  assign nslices = (snum_i >= 4'd2 && snum_i <= 4'd8) ? snum_i : 4'd1;
  always_comb begin
    unique case (nslices)
      4'd2:    recip = 11'd512;
      4'd3:    recip = 11'd342;
      4'd4:    recip = 11'd256;
      4'd5:    recip = 11'd205;
      4'd6:    recip = 11'd171;
      4'd7:    recip = 11'd147;
      4'd8:    recip = 11'd128;
      default: recip = 11'd1024;
    endcase
  end
  function automatic logic [7:0] div_n(input logic [7:0] x, input logic [10:0] r);
    logic [18:0] p;
    p = 19'(x) * 19'(r);
    div_n = 8'(p >> 10);
  endfunction

  // tiles of the target, and the slice-space row length ceil(tiles_x / N)
  logic [7:0] tiles_x, tiles_y, stw;
  assign tiles_x = 8'((rtw_i - 12'd1) >> (l2t_i + 3'd4)) + 8'd1;
  assign tiles_y = 8'((rth_i - 12'd1) >> (l2t_i + 3'd4)) + 8'd1;
  assign stw = div_n(tiles_x + 8'(nslices) - 8'd1, recip);

  // the bin's first entry: ((ty * stw) + tx / N) * (T/8)^2
  logic [6:0]  btx_q, bty_q;
  logic [21:0] tile_base_q, tile_base_d;
  logic [15:0] tile_idx;
  assign tile_idx = 16'(bty_q) * 16'(stw) + 16'(div_n({1'b0, btx_q}, recip));
  assign tile_base_d = 22'(tile_idx) << (2 * (l2t_i + 3'd1));

  // ---- state ------------------------------------------------------------------------------------
  typedef enum logic [1:0] {L_OFF, L_SIZE, L_SWEEP, L_READY} lstate_e;
  lstate_e            st_q, st_d;
  logic [15:0]        init_q, init_d;          // entry value at pass begin
  logic [WAddrW:0]    sw_q, sw_d, sw_end_q, sw_end_d;
  logic               valid_q, valid_d;        // the LRZ may be used in this pass
  logic               unsafe;
  assign unsafe = (depth_func_i == 2'(tessera_spec_pkg::TS_DEPTH_FUNC_ALWAYS)) && depth_we_i;

  // entries of the pass: tiles_y * stw * (T/8)^2, capped at BLOCKS; in words of 4
  logic [23:0] pass_entries;
  assign pass_entries = (24'(tiles_y) * 24'(stw)) << (2 * (l2t_i + 3'd1));

  // ---- RAM: 4 entries per word ------------------------------------------------------------------
  logic              ram_we, ram_re;
  logic [WAddrW-1:0] ram_waddr, ram_raddr;
  logic [63:0]       ram_wdata, ram_rdata;
  logic [3:0]        ram_wmask;
  logic              unused_rvalid;
  prim_ram_2p #(.WIDTH(64), .DEPTH(Words), .DATA_BITS_PER_MASK(16)) u_ram (
    .clk_i, .rst_ni,
    .we_i(ram_we), .waddr_i(ram_waddr), .wdata_i(ram_wdata), .wmask_i(ram_wmask),
    .re_i(ram_re), .raddr_i(ram_raddr), .rdata_o(ram_rdata), .rvalid_o(unused_rvalid));

  // request address
  logic [2:0]  bmask, biy;
  logic [21:0] req_addr;
  logic        req_in_range;
  assign bmask = 3'((4'd2 << l2t_i) - 4'd1);         // T/8 - 1
  assign biy = by_i[5:3] & bmask;
  assign req_addr = tile_base_q + ({19'd0, biy} << (l2t_i + 3'd1)) + {19'd0, bx_i[5:3] & bmask};
  assign req_in_range = (req_addr < 22'(BLOCKS));

  // registered request (answered the next cycle)
  logic        rq_q, rq_d, rok_q, rok_d, rzok_q, rzok_d, rfull_q, rfull_d;
  logic [1:0]  rsel_q, rsel_d;
  logic [WAddrW-1:0] rword_q, rword_d;
  logic [23:0] rzmin_q, rzmin_d, rzmax_q, rzmax_d;
  logic [4:0]  rnq_q, rnq_d;
  assign rq_d    = req_i;
  assign rok_d   = req_i && valid_q && (st_q == L_READY) && req_in_range;
  assign rzok_d  = zok_i;
  assign rfull_d = full_i;
  assign rsel_d  = req_addr[1:0];
  assign rword_d = WAddrW'(req_addr >> 2);
  assign rzmin_d = zmin_i;
  assign rzmax_d = zmax_i;
  assign rnq_d   = nquads_i;

  logic        less, lequal, test_en;
  logic [15:0] lval;
  logic [23:0] bound;
  logic        reject, update;
  assign less    = (depth_func_i == 2'(tessera_spec_pkg::TS_DEPTH_FUNC_LESS));
  assign lequal  = (depth_func_i == 2'(tessera_spec_pkg::TS_DEPTH_FUNC_LEQUAL));
  assign test_en = enable_i && (less || lequal);
  assign lval    = ram_rdata[rsel_q*16 +: 16];
  assign bound   = {lval, 8'hFF};
  assign reject  = rq_q && rok_q && rzok_q && test_en &&
                   (less ? (rzmin_q >= bound) : (rzmin_q > bound));
  assign update  = rq_q && rok_q && rzok_q && test_en && depth_we_i && rfull_q && !reject &&
                   (rzmax_q[23:8] < lval);

  always_comb begin
    st_d = st_q;
    init_d = init_q;
    sw_d = sw_q;
    sw_end_d = sw_end_q;
    valid_d = valid_q && !unsafe && !layout_wr_i;
    ram_we = 1'b0;
    ram_waddr = rword_q;
    ram_wdata = {4{rzmax_q[23:8]}};
    ram_wmask = 4'b0001 << rsel_q;
    ram_re = req_i;
    ram_raddr = WAddrW'(req_addr >> 2);
    unique case (st_q)
      L_OFF, L_READY: ;
      // the target's size registers with the RENDERPASS_BEGIN: size the sweep a cycle later
      L_SIZE: begin
        sw_end_d = (pass_entries >= 24'(BLOCKS)) ? (WAddrW+1)'(Words) : (WAddrW+1)'((pass_entries + 24'd3) >> 2);
        sw_d = '0;
        st_d = L_SWEEP;
      end
      L_SWEEP: begin
        if (sw_q == sw_end_q) begin
          st_d = L_READY;
        end else begin
          ram_we = 1'b1;
          ram_waddr = WAddrW'(sw_q);
          ram_wdata = {4{init_q}};
          ram_wmask = 4'b1111;
          sw_d = sw_q + 1'b1;
        end
      end
      default: st_d = L_OFF;
    endcase
    if (update) ram_we = 1'b1;
    if (rp_begin_i) begin
      st_d = L_SIZE;
      init_d = rp_clear_i ? rp_clear_depth_i[23:8] : 16'hFFFF;
      valid_d = 1'b1;
    end
  end

  logic [31:0] c_blocks_q, c_quads_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= L_OFF;
      init_q <= '0;
      sw_q <= '0;
      sw_end_q <= '0;
      valid_q <= 1'b0;
      btx_q <= '0;
      bty_q <= '0;
      tile_base_q <= '0;
      rq_q <= 1'b0;
      rok_q <= 1'b0;
      rzok_q <= 1'b0;
      rfull_q <= 1'b0;
      rsel_q <= '0;
      rword_q <= '0;
      rzmin_q <= '0;
      rzmax_q <= '0;
      rnq_q <= '0;
      c_blocks_q <= '0;
      c_quads_q <= '0;
    end else begin
      st_q <= st_d;
      init_q <= init_d;
      sw_q <= sw_d;
      sw_end_q <= sw_end_d;
      valid_q <= valid_d;
      if (bin_i) begin
        btx_q <= bin_tx_i;
        bty_q <= bin_ty_i;
      end
      tile_base_q <= tile_base_d;
      rq_q <= rq_d;
      rok_q <= rok_d;
      rzok_q <= rzok_d;
      rfull_q <= rfull_d;
      rsel_q <= rsel_d;
      rword_q <= rword_d;
      rzmin_q <= rzmin_d;
      rzmax_q <= rzmax_d;
      rnq_q <= rnq_d;
      if (reject) begin
        c_blocks_q <= c_blocks_q + 32'd1;
        c_quads_q <= c_quads_q + 32'(rnq_q);
      end
    end
  end

  assign hold_o       = (st_q == L_SIZE) || (st_q == L_SWEEP);
  assign reject_o     = reject;
  assign cnt_blocks_o = c_blocks_q;
  assign cnt_quads_o  = c_quads_q;

  logic unused_lrz;
  // the block's position inside its tile is bits 5:3; bits 2:0 are 0 (blocks are aligned),
  // the tile comes from bin_i; entries keep the clear depth's top 16 bits
  assign unused_lrz = ^{bx_i[10:6], by_i[10:6], bx_i[2:0], by_i[2:0], rzmax_q[7:0], tile_idx[15:14],
                        rp_clear_depth_i[7:0]};

  `ASSERT_INIT(BlocksMultipleOf4_A, BLOCKS >= 4 && BLOCKS % 4 == 0 && (BLOCKS & (BLOCKS - 1)) == 0)
  // GRAS asks only when the LRZ is not clearing, for a block of the bin it was told about
  `ASSERT(NoRequestWhileClearing_A, req_i |-> !hold_o)
  `ASSERT(RequestInBin_A, req_i |-> bx_i[10:3] >> (l2t_i + 3'd1) == 8'(btx_q) &&
                                    by_i[10:3] >> (l2t_i + 3'd1) == 8'(bty_q))
  // a sweep never overlaps an update; an update lowers an entry
  `ASSERT(UpdateNotInSweep_A, update |-> st_q == L_READY)
  `ASSERT(UpdateLowers_A, update |-> rzmax_q[23:8] < lval)
  // the reciprocal division is exact: tx = k*N + r with r < N
  `ASSERT(SliceSpaceColumnExact_A, bin_i |=> 16'(div_n({1'b0, btx_q}, recip)) * 16'(nslices) <= 16'(btx_q) &&
                                             16'(btx_q) < (16'(div_n({1'b0, btx_q}, recip)) + 16'd1) * 16'(nslices))

endmodule
