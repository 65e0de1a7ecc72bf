// raster_rb -- render backend (RB) with the bin's tile buffer.
//
// Source: ARCHITECTURE.md 5.4 "RB: depth test (NEVER, LESS, LEQUAL, ALWAYS), depth write
// enable, color write"; 001_3630ef805e8956e2.txt (Qualcomm) names RB/CCU as the slice's
// backend. The tile buffer holds the current bin's color and depth (up to 64x64 pixels) as
// 64-byte lines (16 pixels of one row), two banks per target (even and odd rows) so that a
// 2x2 quad reads and writes one word per bank: one quad per clock, read in stage 0,
// compared, merged and written in stage 1. The last written words are forwarded to the next
// quad (consecutive quads usually share words). The slice loads the tile from memory before
// the bin's primitives and stores it after them through the line ports
// (docs/raster.md "RB and the tile buffer"); this buffer is the seam for GMEM.

`include "prim_assert.svh"

module raster_rb (
  input  logic          clk_i,
  input  logic          rst_ni,
  // state
  input  logic [1:0]    depth_func_i,     // ts_depth_func_e
  input  logic          depth_we_i,
  input  logic          color_we_i,
  // quads (always accepted)
  input  logic          quad_valid_i,
  input  tessera_raster_pkg::quad_t quad_i,
  output logic [2:0]    pass_cnt_o,       // pixels of the stage-1 quad that passed the test
  output logic          hidden_o,         // the quad merged last cycle passed no pixel (overdraw)
  output logic          idle_o,
  // line port: tile load (write) and store (read); target 0 color, 1 depth
  input  logic          lwe_i,
  input  logic          lre_i,
  input  logic          ltgt_i,
  input  logic [5:0]    lrow_i,
  input  logic [1:0]    lseg_i,
  input  logic [511:0]  lwdata_i,
  output logic [511:0]  lrdata_o          // the cycle after lre_i
);

  // RAM index {row[5:1], seg}: 128 words per bank
  logic [3:0]   we, re;
  logic [6:0]   waddr, raddr;
  logic [4*512-1:0] wdata, rdata;   // bank b at [b*512 +: 512]

  for (genvar b = 0; b < 4; b++) begin : g_bank   // 0 color even, 1 color odd, 2 depth even, 3 depth odd
    logic unused_rv;
    prim_ram_2p #(.WIDTH(512), .DEPTH(128)) u_ram (
      .clk_i, .rst_ni,
      .we_i(we[b]), .waddr_i(waddr), .wdata_i(wdata[b*512 +: 512]), .wmask_i(1'b1),
      .re_i(re[b]), .raddr_i(raddr), .rdata_o(rdata[b*512 +: 512]), .rvalid_o(unused_rv));
  end

  // ---- stage 0 -> stage 1 ----------------------------------------------------------------
  logic                      s1_q;
  tessera_raster_pkg::quad_t q1_q;
  logic [6:0]                a1_q;
  logic                      lre_q, ltgt_q, lrow0_q;
  logic                      fwd_q;
  logic [6:0]                fwd_a_q;
  logic [4*512-1:0]          fwd_d_q;

  logic [6:0] qaddr;
  assign qaddr = {quad_i.ly[5:1], quad_i.lx[5:4]};

  // ---- stage 1: depth test and merge ------------------------------------------------------
  logic [4*512-1:0] cur, nxt;
  logic [2:0]   npass;
  logic [3:0]   lane;
  logic [23:0]  zs, zf;
  logic         pass;
  always_comb begin
    npass = '0;
    lane  = '0;  zs = '0;  zf = '0;  pass = 1'b0;
    cur = (fwd_q && fwd_a_q == a1_q) ? fwd_d_q : rdata;
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

  // ---- RAM port muxing ----------------------------------------------------------------------
  always_comb begin
    we = '0;  re = '0;  waddr = a1_q;  raddr = qaddr;
    wdata = nxt;
    if (lwe_i) begin
      waddr = {lrow_i[5:1], lseg_i};
      we[{ltgt_i, lrow_i[0]}] = 1'b1;
      wdata = {4{lwdata_i}};
    end else if (s1_q) begin
      we = 4'hF;
    end
    if (lre_i) begin
      raddr = {lrow_i[5:1], lseg_i};
      re[{ltgt_i, lrow_i[0]}] = 1'b1;
    end else if (quad_valid_i) begin
      re = 4'hF;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_q <= 1'b0;  q1_q <= '0;  a1_q <= '0;  lre_q <= 1'b0;  ltgt_q <= 1'b0;  lrow0_q <= 1'b0;
      fwd_q <= 1'b0;  fwd_a_q <= '0;
      fwd_d_q <= '0;
    end else begin
      s1_q <= quad_valid_i && !lre_i && !lwe_i;
      if (quad_valid_i) begin
        q1_q <= quad_i;
        a1_q <= qaddr;
      end
      lre_q <= lre_i;
      if (lre_i) begin
        ltgt_q  <= ltgt_i;
        lrow0_q <= lrow_i[0];
      end
      if (lwe_i) begin
        fwd_q <= 1'b0;
      end else if (s1_q) begin
        fwd_q   <= 1'b1;
        fwd_a_q <= a1_q;
        fwd_d_q <= nxt;
      end
    end
  end

  assign lrdata_o   = rdata[32'({ltgt_q, lrow0_q})*512 +: 512];
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

  // The slice never mixes line traffic with quads, nor writes lines while a quad is in
  // stage 1 (that write would lose the quad's merge).
  `ASSERT(NoQuadDuringLine, !(quad_valid_i && (lre_i || lwe_i)))
  `ASSERT(NoLineWriteInMerge, !(s1_q && lwe_i))

endmodule
