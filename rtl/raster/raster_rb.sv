// raster_rb -- render backend (RB) with the slice's tile buffer.
//
// Source: ARCHITECTURE.md 5.4 "RB: depth test (NEVER, LESS, LEQUAL, ALWAYS), depth write
// enable, color write"; 001_3630ef805e8956e2.txt (Qualcomm) names RB/CCU as the slice's
// backend. The tile buffer holds color and depth for up to 64x64 pixels as 64-byte lines (16
// pixels of one row), two banks per target (even and odd rows) so that a 2x2 quad reads and
// writes one word per bank: one quad per clock, read in stage 0, compared, merged and written
// in stage 1. The last written words are forwarded to the next quad (consecutive quads
// usually share words). The slice loads a tile from memory before the bin's primitives and
// stores it after them through the line port (docs/raster.md "RB and the tile buffer"); this
// buffer is the seam for GMEM.
//
// Two halves (issue 16 item 3, docs/raster.md "Double-buffered tile buffer"): every bank is
// two RAMs, the lower and upper 32 rows of a 64x64 tile. With split_i (bins of at most 32x32
// pixels) a tile uses at most segments 0-1 of rows 0-31, so the buffer holds four tiles:
// slot {s1, s0} is half s0 (each half with its own RAM ports), segments {s1, x}. Quads go to
// slot qslot_i, line writes to lwslot_i, line reads to lrslot_i. Quads own their half; line
// reads and writes may share the other half (a RAM's read and write ports are apart), so the
// slice loads the next bin into one slot of the other half while it stores the previous bin
// from the other slot there, and the current bin rasterizes. Without split_i a 64x64 tile
// spans the whole buffer and the slice never mixes line traffic with quads.

`include "prim_assert.svh"

module raster_rb (
  input  logic          clk_i,
  input  logic          rst_ni,
  // state
  input  logic [1:0]    depth_func_i,     // ts_depth_func_e
  input  logic          depth_we_i,
  input  logic          color_we_i,
  input  logic          split_i,          // bins <= 32x32: four tile slots
  input  logic [1:0]    qslot_i,          // with split_i: the slot the quads work in
  input  logic [1:0]    lwslot_i,         // with split_i: the slot line writes go to
  input  logic [1:0]    lrslot_i,         // with split_i: the slot line reads come from
  // quads (always accepted)
  input  logic          quad_valid_i,
  input  tessera_raster_pkg::quad_t quad_i,
  output logic [2:0]    pass_cnt_o,       // pixels of the stage-1 quad that passed the test
  output logic          hidden_o,         // the quad merged last cycle passed no pixel (overdraw)
  output logic          idle_o,
  // line ports: tile load (write) and store (read), independent; target 0 color, 1 depth
  input  logic          lwe_i,
  input  logic          ltgt_i,
  input  logic [5:0]    lrow_i,
  input  logic [1:0]    lseg_i,
  input  logic [511:0]  lwdata_i,
  input  logic          lre_i,
  input  logic          lrtgt_i,
  input  logic [5:0]    lrrow_i,
  input  logic [1:0]    lrseg_i,
  output logic [511:0]  lrdata_o          // the cycle after lre_i
);

  // Word address {half, row[4:1], seg}: the half is row[5] of a 64x64 tile, or the half
  // chosen by the slice when split. 64 words per RAM.
  logic [6:0] qaddr, laddr, lraddr;
  assign qaddr  = split_i ? {qslot_i[0], quad_i.ly[4:1], qslot_i[1], quad_i.lx[4]}
                          : {quad_i.ly[5], quad_i.ly[4:1], quad_i.lx[5:4]};
  assign laddr  = split_i ? {lwslot_i[0], lrow_i[4:1], lwslot_i[1], lseg_i[0]}
                          : {lrow_i[5], lrow_i[4:1], lseg_i};
  assign lraddr = split_i ? {lrslot_i[0], lrrow_i[4:1], lrslot_i[1], lrseg_i[0]}
                          : {lrrow_i[5], lrrow_i[4:1], lrseg_i};

  // RAM (half h, bank b) at index h*4 + b; banks 0 color even, 1 color odd, 2 depth even,
  // 3 depth odd
  logic [7:0]        we, re;
  logic [2*6-1:0]    waddr, raddr;          // half h at [h*6 +: 6]
  logic [8*512-1:0]  wdata, rdata;          // RAM i at [i*512 +: 512]

  for (genvar i = 0; i < 8; i++) begin : g_ram
    logic unused_rv;
    prim_ram_2p #(.WIDTH(512), .DEPTH(64)) u_ram (
      .clk_i, .rst_ni,
      .we_i(we[i]), .waddr_i(waddr[(i / 4)*6 +: 6]), .wdata_i(wdata[i*512 +: 512]), .wmask_i(1'b1),
      .re_i(re[i]), .raddr_i(raddr[(i / 4)*6 +: 6]), .rdata_o(rdata[i*512 +: 512]),
      .rvalid_o(unused_rv));
  end

  // ---- stage 0 -> stage 1 ----------------------------------------------------------------
  logic                      s1_q;
  tessera_raster_pkg::quad_t q1_q;
  logic [6:0]                a1_q;
  logic                      lre_q, ltgt_q, lrow0_q, lhalf_q;
  logic                      fwd_q;
  logic [6:0]                fwd_a_q;
  logic [4*512-1:0]          fwd_d_q;

  // A line access and a quad in the same half in the same cycle: the slice never does that
  // (assertions below); the line access wins and the quad would be lost.
  logic q_line_conflict;
  assign q_line_conflict = (lre_i && lraddr[6] == qaddr[6]) || (lwe_i && laddr[6] == qaddr[6]);

  // ---- stage 1: depth test and merge ------------------------------------------------------
  logic [4*512-1:0] qrd, cur, nxt;
  logic [2:0]   npass;
  logic [3:0]   lane;
  logic [23:0]  zs, zf;
  logic         pass;
  assign qrd = a1_q[6] ? rdata[4*512 +: 4*512] : rdata[0 +: 4*512];
  always_comb begin
    npass = '0;
    lane  = '0;  zs = '0;  zf = '0;  pass = 1'b0;
    cur = (fwd_q && fwd_a_q == a1_q) ? fwd_d_q : qrd;
    nxt = cur;
    for (int i = 0; i < 4; i++) begin
      lane = q1_q.lx[3:0] + 4'(i % 2);
      zs = '0;
      for (int l = 0; l < 16; l++) if (lane == 4'(l)) zs = cur[(2 + i / 2)*512 + l*32 +: 24];
      zf   = q1_q.z[i*24 +: 24];
      unique case (depth_func_i)
        2'd0:    pass = 1'b0;
        2'd1:    pass = zf < zs;
        2'd2:    pass = zf <= zs;
        default: pass = 1'b1;
      endcase
      pass = pass && q1_q.mask[i];
      if (pass) npass = npass + 3'd1;
      for (int l = 0; l < 16; l++) begin
        if (pass && lane == 4'(l)) begin
          if (color_we_i) nxt[(i / 2)*512 + l*32 +: 32] = q1_q.rgba[i*32 +: 32];
          if (depth_we_i) nxt[(2 + i / 2)*512 + l*32 +: 32] = {8'd0, zf};
        end
      end
    end
  end

  // ---- RAM port muxing, per half ----------------------------------------------------------
  always_comb begin
    we = '0;  re = '0;
    waddr = {2{a1_q[5:0]}};
    raddr = {2{qaddr[5:0]}};
    wdata = {2{nxt}};
    for (int h = 0; h < 2; h++) begin
      if (lwe_i && laddr[6] == 1'(h)) begin
        waddr[h*6 +: 6] = laddr[5:0];
        we[h*4 + 32'({ltgt_i, lrow_i[0]})] = 1'b1;
        wdata[h*4*512 +: 4*512] = {4{lwdata_i}};
      end else if (s1_q && a1_q[6] == 1'(h)) begin
        we[h*4 +: 4] = 4'hF;
      end
      if (lre_i && lraddr[6] == 1'(h)) begin
        raddr[h*6 +: 6] = lraddr[5:0];
        re[h*4 + 32'({lrtgt_i, lrrow_i[0]})] = 1'b1;
      end else if (quad_valid_i && qaddr[6] == 1'(h)) begin
        re[h*4 +: 4] = 4'hF;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_q <= 1'b0;
      q1_q <= '0;
      a1_q <= '0;
      lre_q <= 1'b0;
      ltgt_q <= 1'b0;
      lrow0_q <= 1'b0;
      lhalf_q <= 1'b0;
      fwd_q <= 1'b0;
      fwd_a_q <= '0;
      fwd_d_q <= '0;
    end else begin
      s1_q <= quad_valid_i && !q_line_conflict;
      if (quad_valid_i) begin
        q1_q <= quad_i;
        a1_q <= qaddr;
      end
      lre_q <= lre_i;
      if (lre_i) begin
        ltgt_q  <= lrtgt_i;
        lrow0_q <= lrrow_i[0];
        lhalf_q <= lraddr[6];
      end
      // a merge refreshes the forwarded words; a line written into their half may replace
      // them (a new tile), so the forward is dropped
      if (s1_q) begin
        fwd_q   <= 1'b1;
        fwd_a_q <= a1_q;
        fwd_d_q <= nxt;
      end else if (lwe_i && laddr[6] == fwd_a_q[6]) begin
        fwd_q <= 1'b0;
      end
    end
  end

  assign lrdata_o   = rdata[32'({lhalf_q, ltgt_q, lrow0_q})*512 +: 512];
  assign pass_cnt_o = s1_q ? npass : 3'd0;
  // registered: the count may lag a cycle, the merge path's depth does not grow
  logic hidden_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hidden_q <= 1'b0;
    end else begin
      hidden_q <= s1_q && (npass == 3'd0);
    end
  end
  assign hidden_o   = hidden_q;
  assign idle_o     = !s1_q;

  logic unused_rb;
  assign unused_rb = ^{lre_q, q1_q.lx[5:4], q1_q.ly, q1_q.uv};

  // Line traffic and quads share a half never: not in the same cycle (the quad would be
  // lost), and no line write while a quad of that half merges (the merge would overwrite it).
  // Unsplit, the tile spans both halves, so they never overlap at all.
  `ASSERT(NoQuadDuringLine, !(quad_valid_i && q_line_conflict))
  `ASSERT(NoLineWriteInMerge, !(s1_q && lwe_i && laddr[6] == a1_q[6]))
  `ASSERT(UnsplitNoOverlap_A, !split_i |-> !((quad_valid_i || s1_q) && (lre_i || lwe_i)))
  `ASSERT(SplitTileFitsHalf_A, split_i && quad_valid_i |-> !quad_i.ly[5] && !quad_i.lx[5])
  `ASSERT(SplitLineFitsHalf_A, split_i && lwe_i |-> !lrow_i[5] && !lseg_i[1])
  `ASSERT(SplitLineReadFitsHalf_A, split_i && lre_i |-> !lrrow_i[5] && !lrseg_i[1])
  // a read and a write of lines in one cycle go to different slots (a load into one while a
  // store reads another), so unsplit they never meet
  `ASSERT(LineReadWriteApart_A, lre_i && lwe_i |-> split_i && lrslot_i != lwslot_i)

endmodule
