// raster_fs -- fragment shading and texturing (FS/TP) with the slice's texel cache (CCHE
// read side).
//
// Source: ARCHITECTURE.md 5.4 "FS/TP: color = vertex color, or vertex color x texel
// (nearest, wrap, RGBA8 linear texture) when the draw binds a texture. Texel reads go
// through CCHE"; 001_3630ef805e8956e2.txt (Qualcomm) names FS/TP as slice units.
// Arithmetic (docs/raster.md "FS/TP"): texel (tx, ty) = (u >> (16 - log2_w),
// v >> (16 - log2_h)) of the wrapped 0.16 coordinates, at tex_base + 4 (ty w + tx) (linear) or
// in its 4x4 block in Morton order (TEX_CTRL.tiled, below); the
// channel c = (vertex_c * texel_c + 255) >> 8.
// Without a texture a quad passes straight through (no latency, 4 pixels per clock). With
// one, the covered pixels are textured in a pipeline, one cache line per clock on hits: the
// address stage computes the four pixels' texel addresses into registers in the quad's first
// cycle; the lookup stage compares the tag of the lowest pixel still to do (the leader; tags
// in flops) and reads its line (data in prim_ram_2p), and every pixel left whose texel is in
// the same 64-byte line is served by that read; the modulate stage, one cycle later, selects
// each served pixel's texel word and writes the modulated colours back (four modulators).
// Neighbouring pixels mostly read neighbouring texels, so a fully covered quad usually costs
// 2 or 3 cycles (issue 16 item 3; 6 when one pixel was looked up per clock, 10 before that).
// The textured quad leaves through an output register while the next quad is taken. A miss
// stops the lookups for one blocking line read of a direct-mapped cache of NLINES 64-byte
// lines; the leader is then looked up again (a hit now). Counts: one hit per pixel served
// from a resident line, one miss per line read. inv_i drops every line (render pass
// boundaries, FLUSH, INVALIDATE): render targets never go through this cache, so it is never
// dirty.

`include "prim_assert.svh"

module raster_fs #(
  parameter int unsigned NLINES = 64,
  localparam int unsigned IdxW = $clog2(NLINES)
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        tex_en_i,
  input  logic [31:0] tex_base_i,
  input  logic        tex_tiled_i,   // TEX_CTRL.tiled: 4x4-texel blocks in Morton order
  input  logic [3:0]  log2_w_i,
  input  logic [3:0]  log2_h_i,
  input  logic        inv_i,
  // quads from GRAS
  input  logic        quad_valid_i,
  output logic        quad_ready_o,
  input  tessera_raster_pkg::quad_t quad_i,
  // quads to RB (always accepted)
  output logic        quad_valid_o,
  output tessera_raster_pkg::quad_t quad_o,
  output logic        idle_o,
  output logic        miss_wait_o,   // a texel miss holds the lookups (its line read not answered)
  // line reads (the slice muxes them onto its memory port)
  output logic        mreq_valid_o,
  input  logic        mreq_ready_i,
  output logic [31:0] mreq_addr_o,
  input  logic        mrsp_valid_i,
  input  logic [511:0] mrsp_data_i,
  output logic [31:0] hits_o,
  output logic [31:0] misses_o
);

  typedef enum logic [1:0] {F_RUN, F_REQ, F_WAIT} fstate_e;
  fstate_e st_q, st_d;
  tessera_raster_pkg::quad_t q_q, q_d;      // the quad being textured
  logic        qv_q, qv_d;                  // q_q holds a quad
  logic [3:0]  rem_q, rem_d;                // its covered pixels not looked up yet
  logic        m_q, m_d;                    // modulate stage: a looked-up pixel's line was read
  logic [3:0]  mhot_q, mhot_d;              // the pixels served by that line
  logic [15:0] mword_q, mword_d;            // pixel i's texel word in the line at [i*4 +: 4]
  tessera_raster_pkg::quad_t oq_q, oq_d;    // output register
  logic        ov_q, ov_d;
  logic [NLINES-1:0]      val_q, val_d;
  logic [NLINES*26-1:0]   tag_q;
  logic [31:0] hits_q, misses_q;

  // ---- address stage: the four pixels' texel addresses, in the quad's first cycle ----------
  // The lookup compares registered addresses (a_q, valid av_q), so the tag compare does not
  // wait for the address arithmetic. la_q is the leader's address: the lowest pixel of rem_q
  // (pi_q), kept in its own register so that the tag compare does not wait for a mux.
  function automatic logic [1:0] lowest(logic [3:0] m);
    lowest = 2'd3;
    for (int i = 2; i >= 0; i--) if (m[i]) lowest = 2'(i);
  endfunction

  logic [1:0]   pi_q, pi_d;
  logic         av_q, av_d;
  logic [4*30-1:0] a_q, a_d;                // pixel i's texel word address at [i*30 +: 30]
  logic [29:0]  la_q, la_d;
  logic [4*30-1:0] taddr4;
  logic [4*32-1:0] tx4, ty4, ta4;           // pixel i's texel column, row, byte address
  // Tiled layout (TEX_CTRL.tiled; docs/raster.md "Texture layout", the C++ definition in
  // sim/raster texel_layout.hpp): the texel's 4x4 block in Morton order, the low min(bw, bh)
  // bits of block column and row interleaved (column first), the longer side's bits above.
  logic       tiled;
  logic [3:0] bw, bh, bm;
  assign tiled = tex_tiled_i && log2_w_i >= 4'd2 && log2_h_i >= 4'd2;
  assign bw    = log2_w_i - 4'd2;
  assign bh    = log2_h_i - 4'd2;
  assign bm    = (bw < bh) ? bw : bh;
  function automatic logic [17:0] morton(input logic [8:0] bx, input logic [8:0] by, input logic [3:0] m,
                                         input logic x_longer);
    morton = '0;
    for (int p = 0; p < 18; p++) begin
      if (p < 2 * 32'(m)) morton[p] = (p % 2 == 1) ? by[p / 2] : bx[p / 2];
      else if (p - 32'(m) < 9) morton[p] = x_longer ? bx[p - 32'(m)] : by[p - 32'(m)];
    end
  endfunction
  logic [4*18-1:0] blk4;                    // pixel i's block number (tiled)
  always_comb begin
    for (int i = 0; i < 4; i++) begin
      tx4[i*32 +: 32] = 32'(q_q.uv[i*32 + 16 +: 16]) >> (5'd16 - {1'b0, log2_w_i});
      ty4[i*32 +: 32] = 32'(q_q.uv[i*32 +: 16]) >> (5'd16 - {1'b0, log2_h_i});
      blk4[i*18 +: 18] = morton(tx4[i*32 + 2 +: 9], ty4[i*32 + 2 +: 9], bm, bw > bh);
      ta4[i*32 +: 32] = tiled ? tex_base_i + {8'd0, blk4[i*18 +: 18], 6'd0} +
                                32'({ty4[i*32 +: 2], tx4[i*32 +: 2], 2'b00})
                              : tex_base_i + (((ty4[i*32 +: 32] << log2_w_i) + tx4[i*32 +: 32]) << 2);
      taddr4[i*30 +: 30] = ta4[i*32 + 2 +: 30];
    end
  end

  // the pixels left whose texel is in the leader's line
  logic [3:0] same, serve, rem_after;
  always_comb begin
    for (int i = 0; i < 4; i++) same[i] = (a_q[i*30 + 4 +: 26] == la_q[29:4]);
  end
  assign serve     = rem_q & same;
  assign rem_after = rem_q & ~serve;

  // ---- lookup stage ------------------------------------------------------------------------
  logic [IdxW-1:0] idx;
  logic [25:0]     tag;
  assign idx = la_q[4 +: IdxW];
  assign tag = 26'(la_q[29:4] >> IdxW);

  logic         ram_re, ram_we;
  logic [511:0] ram_rdata;
  logic         unused_rv;
  prim_ram_2p #(.WIDTH(512), .DEPTH(NLINES)) u_data (
    .clk_i, .rst_ni,
    .we_i(ram_we), .waddr_i(idx), .wdata_i(mrsp_data_i), .wmask_i(1'b1),
    .re_i(ram_re), .raddr_i(idx), .rdata_o(ram_rdata), .rvalid_o(unused_rv));

  logic        hit;
  logic [25:0] tag_rd;
  always_comb begin
    tag_rd = '0;
    for (int l = 0; l < NLINES; l++) if (idx == IdxW'(l)) tag_rd = tag_q[l*26 +: 26];
  end
  assign hit = val_q[idx] && (tag_rd == tag);

  logic [2:0] nserve;                       // pixels served by this lookup
  prim_popcount #(.WIDTH(4)) u_nserve (.in_i(serve), .cnt_o(nserve));

  logic lookup;                             // a line is looked up this cycle
  assign lookup = (st_q == F_RUN) && qv_q && av_q;

  // ---- modulate stage: the texels of the pixels served last cycle --------------------------
  // the channel c = (vertex_c * texel_c + 255) >> 8, per served pixel
  logic [4*32-1:0] texel4, mod;             // pixel i's texel, modulated colour at [i*32 +: 32]
  logic [16*16-1:0] prod16;                 // pixel i, channel c at [(i*4 + c)*16 +: 16]
  always_comb begin
    for (int i = 0; i < 4; i++) begin
      texel4[i*32 +: 32] = '0;
      for (int w = 0; w < 16; w++) begin
        if (mword_q[i*4 +: 4] == 4'(w)) texel4[i*32 +: 32] = ram_rdata[w*32 +: 32];
      end
      for (int c = 0; c < 4; c++) begin
        prod16[(i*4 + c)*16 +: 16] = 16'(q_q.rgba[i*32 + c*8 +: 8]) * 16'(texel4[i*32 + c*8 +: 8]) + 16'd255;
        mod[i*32 + c*8 +: 8] = prod16[(i*4 + c)*16 + 8 +: 8];
      end
    end
  end

  // The quad is finished when every covered pixel was looked up: the last one is modulated
  // in this very cycle (registers only, so quad_ready_o does not wait for a tag compare).
  logic finish;
  assign finish = qv_q && (rem_q == '0);

  // a textured quad is taken into a free work register, or one whose quad finishes now
  logic quad_take_ready;
  assign quad_take_ready = tex_en_i && (!qv_q || finish) && (st_q == F_RUN);

  always_comb begin
    st_d = st_q;  q_d = q_q;  qv_d = qv_q;  rem_d = rem_q;
    m_d = 1'b0;  mhot_d = '0;  mword_d = mword_q;  pi_d = pi_q;
    av_d = av_q;  a_d = a_q;  la_d = la_q;
    // the quad's addresses
    if (qv_q && !av_q && rem_q != '0) begin
      av_d = 1'b1;
      a_d = taddr4;
      la_d = taddr4[32'(pi_q)*30 +: 30];
    end
    oq_d = oq_q;  ov_d = 1'b0;  val_d = val_q;
    ram_re = 1'b0;  ram_we = 1'b0;  mreq_valid_o = 1'b0;
    // modulate: the colour of the pixel read last cycle
    for (int i = 0; i < 4; i++) if (m_q && mhot_q[i]) q_d.rgba[i*32 +: 32] = mod[i*32 +: 32];
    // A finished quad moves to the output register (its last colour comes from the modulate
    // stage this cycle), which frees q_q for the next quad in the same cycle.
    if (finish) begin
      oq_d = q_d;
      oq_d.uv = '0;                         // read by nothing after the FS: no flops for it
      ov_d = 1'b1;
      qv_d = 1'b0;
    end
    if (quad_take_ready) begin
      if (quad_valid_i) begin
        q_d = quad_i;
        qv_d = 1'b1;
        rem_d = quad_i.mask;
        pi_d = lowest(quad_i.mask);
        av_d = 1'b0;
      end
    end
    // A lookup never meets a finish or a take (it needs a pixel left), so its hit decides
    // last: one LUT level between the tag compare and the registers.
    unique case (st_q)
      F_RUN: begin
        if (lookup) begin
          if (hit) begin
            ram_re = 1'b1;
            rem_d = rem_after;
            pi_d = lowest(rem_after);
            m_d = 1'b1;
            mhot_d = serve;
            for (int i = 0; i < 4; i++) mword_d[i*4 +: 4] = a_q[i*30 +: 4];
            av_d = (rem_after != '0);
            la_d = a_q[32'(lowest(rem_after))*30 +: 30];
          end else begin
            st_d = F_REQ;
          end
        end
      end
      F_REQ: begin
        mreq_valid_o = 1'b1;
        if (mreq_ready_i) st_d = F_WAIT;
      end
      F_WAIT: if (mrsp_valid_i) begin
        ram_we = 1'b1;
        val_d[idx] = 1'b1;
        st_d = F_RUN;                       // look the pixel up again (a hit now)
      end
      default: st_d = F_RUN;
    endcase
    if (inv_i) val_d = '0;
  end
  assign mreq_addr_o = {la_q[29:4], 6'd0};

  // Untextured quads pass straight through while nothing textured is in flight.
  logic pass;
  assign pass = !tex_en_i && !qv_q && !m_q && !ov_q;
  always_comb begin
    quad_ready_o = quad_take_ready;
    if (pass) begin
      quad_ready_o = 1'b1;
      quad_valid_o = quad_valid_i;
      quad_o = quad_i;
    end else begin
      quad_valid_o = ov_q;
      quad_o = oq_q;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= F_RUN;
      q_q <= '0;
      qv_q <= 1'b0;
      rem_q <= '0;
      m_q <= 1'b0;
      mhot_q <= '0;
      pi_q <= '0;
      av_q <= 1'b0;
      a_q <= '0;
      la_q <= '0;
      mword_q <= '0;
      oq_q <= '0;
      ov_q <= 1'b0;
      val_q <= '0;
      hits_q <= '0;
      misses_q <= '0;
    end else begin
      st_q <= st_d;
      q_q <= q_d;
      qv_q <= qv_d;
      rem_q <= rem_d;
      m_q <= m_d;
      mhot_q <= mhot_d;
      pi_q <= pi_d;
      av_q <= av_d;
      a_q <= a_d;
      la_q <= la_d;
      mword_q <= mword_d;
      oq_q <= oq_d;
      ov_q <= ov_d;
      val_q <= val_d;
      if (lookup && hit) hits_q <= hits_q + 32'(nserve);
      if (lookup && !hit) misses_q <= misses_q + 32'd1;
    end
  end

  // tags have no reset: a line's tag is written with its data and read only while it is valid
  always_ff @(posedge clk_i) begin
    for (int l = 0; l < NLINES; l++) begin
      if (ram_we && idx == IdxW'(l)) tag_q[l*26 +: 26] <= tag;
    end
  end

  assign idle_o   = (st_q == F_RUN) && !qv_q && !m_q && !ov_q;
  assign miss_wait_o = st_q != F_RUN;
  assign hits_o   = hits_q;
  assign misses_o = misses_q;

  // A quad is taken only into a free (or finishing) work register, a fill only while the
  // lookups wait for it, and the modulate stage always belongs to the quad in q_q.
  `ASSERT(FsTakeIntoFree_A, quad_valid_i && quad_ready_o && tex_en_i |-> !qv_q || finish)
  `ASSERT(FsFillOnlyWaiting_A, ram_we |-> st_q == F_WAIT && !ram_re)
  `ASSERT(FsModulateHasQuad_A, m_q |-> qv_q)
  `ASSERT(FsLookupExcludesTake_A, lookup |-> !finish && !quad_take_ready)
  `ASSERT(FsModulateServes_A, m_q == (mhot_q != '0))
  // the leader is always served by its own line, and its register holds its address
  `ASSERT(FsLeaderServed_A, lookup |-> serve[pi_q])
  `ASSERT(FsLeaderAddress_A, av_q |-> la_q == a_q[32'(pi_q)*30 +: 30])
  `ASSERT(FsPixelIsLowest_A, qv_q && rem_q != '0 |-> rem_q[pi_q] && lowest(rem_q) == pi_q)
  `ASSERT(FsAddressHasPixel_A, av_q |-> qv_q && rem_q != '0)
  `ASSERT(FsOutputOnlyCovered_A, ov_q |-> oq_q.mask != '0)
  `ASSERT(FsNoPassWhileTextured_A, tex_en_i |-> !(quad_valid_o && !ov_q))

  logic unused_fs;
  logic [4*8+2*4*16+4*2-1:0] unused_bits;
  always_comb begin
    for (int i = 0; i < 4; i++) begin
      unused_bits[i*8 +: 8]            = {prod16[(i*4 + 0)*16 +: 2], prod16[(i*4 + 1)*16 +: 2],
                                          prod16[(i*4 + 2)*16 +: 2], prod16[(i*4 + 3)*16 +: 2]};
      unused_bits[32 + i*32 +: 32]     = {tx4[i*32 + 16 +: 16], ty4[i*32 + 16 +: 16]};
      unused_bits[160 + i*2 +: 2]      = ta4[i*32 +: 2];
    end
  end
  assign unused_fs = ^{unused_bits, prod16};

endmodule
