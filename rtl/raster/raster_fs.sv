// raster_fs -- fragment shading and texturing (FS/TP) with the slice's texel cache (CCHE
// read side).
//
// Source: ARCHITECTURE.md 5.4 "FS/TP: color = vertex color, or vertex color x texel
// (nearest, wrap, RGBA8 linear texture) when the draw binds a texture. Texel reads go
// through CCHE"; 001_3630ef805e8956e2.txt (Qualcomm) names FS/TP as slice units.
// Arithmetic (docs/raster.md "FS/TP"): texel (tx, ty) = (u >> (16 - log2_w),
// v >> (16 - log2_h)) of the wrapped 0.16 coordinates, at tex_base + 4 (ty w + tx); the
// channel c = (vertex_c * texel_c + 255) >> 8.
// Without a texture a quad passes straight through (no latency, 4 pixels per clock). With
// one, the covered pixels are textured in a pipeline, one pixel per clock on hits: the
// address stage computes the next covered pixel's texel address into a register; the lookup
// stage compares its tag (tags in flops) and reads the line (data in prim_ram_2p); the
// modulate stage, one cycle later, selects the texel word and writes the modulated colour
// back. The textured quad leaves through an output register while the next quad is taken, so
// a fully covered quad costs 6 cycles (it took 10 when one pixel was looked up every other
// cycle; issue 16, "where the cycles go"). A miss stops the lookups for one blocking line
// read of a direct-mapped cache of NLINES 64-byte lines; the pixel is then looked up again
// (a hit now). Hit and miss counts are those of the one-pixel-at-a-time FS: one lookup per
// covered pixel, plus one per miss. inv_i drops every line (render pass boundaries, FLUSH,
// INVALIDATE): render targets never go through this cache, so it is never dirty.

`include "prim_assert.svh"

module raster_fs #(
  parameter int unsigned NLINES = 64,
  localparam int unsigned IdxW = $clog2(NLINES)
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        tex_en_i,
  input  logic [31:0] tex_base_i,
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
  logic [1:0]  mpi_q, mpi_d;                // its pixel
  logic [3:0]  mhot_q, mhot_d;              // the same, one-hot (a LUT level less on write-back)
  logic [3:0]  mword_q, mword_d;            // its texel's word in the line
  tessera_raster_pkg::quad_t oq_q, oq_d;    // output register
  logic        ov_q, ov_d;
  logic [NLINES-1:0]      val_q, val_d;
  logic [NLINES*26-1:0]   tag_q;
  logic [31:0] hits_q, misses_q;

  // ---- address stage: the texel address of the pixel looked up next -----------------------
  // The lookup compares a registered address (a_q, valid av_q), so the tag compare does not
  // wait for the address arithmetic. The address unit works from registers only: it computes
  // pixel pi_q's address in the quad's first cycle, and while a lookup runs, the address of
  // the pixel after it (the lowest of rem_after), taken if the lookup hits. pi_q is kept equal
  // to the lowest set bit of rem_q.
  function automatic logic [1:0] lowest(logic [3:0] m);
    lowest = 2'd3;
    for (int i = 2; i >= 0; i--) if (m[i]) lowest = 2'(i);
  endfunction

  logic [1:0]  pi_q, pi_d;
  logic [3:0]  rem_after;                   // rem_q once pixel pi_q is looked up
  assign rem_after = rem_q & ~(4'b0001 << pi_q);
  logic        av_q, av_d;
  logic [29:0] a_q, a_d;                    // texel word address (byte address >> 2)
  logic [1:0]  apix;                        // the pixel the address unit works on
  assign apix = av_q ? lowest(rem_after) : pi_q;

  logic [15:0] pu, pv;
  logic [31:0] tx, ty, taddr;
  always_comb begin
    pu = '0;  pv = '0;
    for (int i = 0; i < 4; i++) begin
      if (apix == 2'(i)) begin
        pu = q_q.uv[i*32 + 16 +: 16];
        pv = q_q.uv[i*32 +: 16];
      end
    end
  end
  assign tx = 32'(pu) >> (5'd16 - {1'b0, log2_w_i});
  assign ty = 32'(pv) >> (5'd16 - {1'b0, log2_h_i});
  assign taddr = tex_base_i + (((ty << log2_w_i) + tx) << 2);

  // ---- lookup stage ------------------------------------------------------------------------
  logic [IdxW-1:0] idx;
  logic [25:0]     tag;
  assign idx = a_q[4 +: IdxW];
  assign tag = 26'(a_q[29:4] >> IdxW);

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

  logic lookup;                             // a pixel is looked up this cycle
  assign lookup = (st_q == F_RUN) && qv_q && av_q;

  // ---- modulate stage: the texel of the pixel looked up last cycle -------------------------
  logic [31:0] texel, vcol, mod;
  logic [15:0] p;
  always_comb begin
    p = '0;
    texel = '0;
    vcol = '0;
    for (int w = 0; w < 16; w++) if (mword_q == 4'(w)) texel = ram_rdata[w*32 +: 32];
    for (int i = 0; i < 4; i++) if (mpi_q == 2'(i)) vcol = q_q.rgba[i*32 +: 32];
    for (int c = 0; c < 4; c++) begin
      p = 16'(vcol[c*8 +: 8]) * 16'(texel[c*8 +: 8]) + 16'd255;
      mod[c*8 +: 8] = p[15:8];
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
    m_d = 1'b0;  mpi_d = mpi_q;  mhot_d = '0;  mword_d = mword_q;  pi_d = pi_q;
    av_d = av_q;  a_d = a_q;
    // the quad's first address
    if (qv_q && !av_q && rem_q != '0) begin
      av_d = 1'b1;
      a_d = taddr[31:2];
    end
    oq_d = oq_q;  ov_d = 1'b0;  val_d = val_q;
    ram_re = 1'b0;  ram_we = 1'b0;  mreq_valid_o = 1'b0;
    // modulate: the colour of the pixel read last cycle
    if (m_q) begin
      for (int i = 0; i < 4; i++) if (mhot_q[i]) q_d.rgba[i*32 +: 32] = mod;
    end
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
            mpi_d = pi_q;
            mhot_d = 4'b0001 << pi_q;
            mword_d = a_q[3:0];
            av_d = (rem_after != '0);
            a_d = taddr[31:2];
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
  assign mreq_addr_o = {a_q[29:4], 6'd0};

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
      mpi_q <= '0;
      mhot_q <= '0;
      pi_q <= '0;
      av_q <= 1'b0;
      a_q <= '0;
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
      mpi_q <= mpi_d;
      mhot_q <= mhot_d;
      pi_q <= pi_d;
      av_q <= av_d;
      a_q <= a_d;
      mword_q <= mword_d;
      oq_q <= oq_d;
      ov_q <= ov_d;
      val_q <= val_d;
      if (lookup && hit) hits_q <= hits_q + 32'd1;
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
  assign hits_o   = hits_q;
  assign misses_o = misses_q;

  // A quad is taken only into a free (or finishing) work register, a fill only while the
  // lookups wait for it, and the modulate stage always belongs to the quad in q_q.
  `ASSERT(FsTakeIntoFree_A, quad_valid_i && quad_ready_o && tex_en_i |-> !qv_q || finish)
  `ASSERT(FsFillOnlyWaiting_A, ram_we |-> st_q == F_WAIT && !ram_re)
  `ASSERT(FsModulateHasQuad_A, m_q |-> qv_q)
  `ASSERT(FsLookupExcludesTake_A, lookup |-> !finish && !quad_take_ready)
  `ASSERT(FsModulateOneHot_A, m_q == (mhot_q != '0) && $countones(mhot_q) <= 1)
  `ASSERT(FsPixelIsLowest_A, qv_q && rem_q != '0 |-> rem_q[pi_q] && lowest(rem_q) == pi_q)
  `ASSERT(FsAddressHasPixel_A, av_q |-> qv_q && rem_q != '0)
  `ASSERT(FsOutputOnlyCovered_A, ov_q |-> oq_q.mask != '0)
  `ASSERT(FsNoPassWhileTextured_A, tex_en_i |-> !(quad_valid_o && !ov_q))

  logic unused_fs;
  assign unused_fs = ^{tx, ty, taddr[1:0], p[7:0]};

endmodule
