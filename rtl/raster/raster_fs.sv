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
// stops the lookups for one line read (the demand read, tag FsTag + 0) of a direct-mapped cache
// of NLINES 64-byte lines; the leader is then looked up again (a hit now).
//
// Misses overlap (issue 16 item 3, "texel misses do not stall quads that hit"): textured quads
// wait in a queue of QDEPTH quads in front of the work register, their texel addresses computed
// as they enter. A scout walks the queued quads' pixels ahead of the lookups and reads every
// line that is neither resident nor already on its way (up to NSCOUT reads in flight, tags
// FsTag + 1..NSCOUT); each answer fills the cache where it arrives, so by the time a quad is
// looked up its lines are mostly there or on their way (a lookup that misses on a line a scout
// is fetching waits for it rather than reading it again). The scout has the port last (after
// the FS's demand read and the tile engine). Quads still retire in order: a quad behind a miss
// waits, but its misses are already in flight, which is how a texture unit hides latency.
// In this direct-mapped cache a scout fill can evict a line an earlier quad still needs; the
// lookup then misses and reads it again (only time is lost: every lookup compares tags).
//
// Counts: one hit per pixel served from a resident line, one miss per line read (demand or
// scout). inv_i drops every line and every scout read in flight (its answer fills nothing):
// render pass boundaries, FLUSH, INVALIDATE; render targets never go through this cache, so it
// is never dirty.

`include "prim_assert.svh"

module raster_fs #(
  parameter int unsigned NLINES = 64,
  parameter int unsigned QDEPTH = 8,        // textured quads queued ahead of the lookups
  parameter int unsigned NSCOUT = 7,        // scout reads in flight (tags FsTag + 1..NSCOUT)
  localparam int unsigned IdxW = $clog2(NLINES),
  localparam int unsigned QPW  = $clog2(QDEPTH),
  localparam int unsigned KW   = $clog2(NSCOUT + 1)
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
  // line reads (the slice muxes them onto its memory port): the demand read, tag offset 0
  output logic        mreq_valid_o,
  input  logic        mreq_ready_i,
  output logic [31:0] mreq_addr_o,
  // ... and the scout's, tag offset sreq_k_o (1..NSCOUT); held until taken
  output logic        sreq_valid_o,
  input  logic        sreq_ready_i,
  output logic [31:0] sreq_addr_o,
  output logic [KW-1:0] sreq_k_o,
  output logic        sreq_urgent_o,  // the lookups wait for this read: give it the port first
  // answers to both: the tag offset says whose
  input  logic        mrsp_valid_i,
  input  logic [KW-1:0] mrsp_k_i,
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

  function automatic logic [1:0] lowest(logic [3:0] m);
    lowest = 2'd3;
    for (int i = 2; i >= 0; i--) if (m[i]) lowest = 2'(i);
  endfunction

  // ---- address stage: an entering quad's four texel addresses ------------------------------
  // Computed from quad_i as the quad enters the queue, and queued with it: the scout reads
  // them ahead of the lookups, and the lookup compares registered addresses (a_q, valid av_q).
  // la_q is the leader's address: the lowest pixel of rem_q (pi_q), kept in its own register
  // so that the tag compare does not wait for a mux.
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
      tx4[i*32 +: 32] = 32'(quad_i.uv[i*32 + 16 +: 16]) >> (5'd16 - {1'b0, log2_w_i});
      ty4[i*32 +: 32] = 32'(quad_i.uv[i*32 +: 16]) >> (5'd16 - {1'b0, log2_h_i});
      blk4[i*18 +: 18] = morton(tx4[i*32 + 2 +: 9], ty4[i*32 + 2 +: 9], bm, bw > bh);
      ta4[i*32 +: 32] = tiled ? tex_base_i + {8'd0, blk4[i*18 +: 18], 6'd0} +
                                32'({ty4[i*32 +: 2], tx4[i*32 +: 2], 2'b00})
                              : tex_base_i + (((ty4[i*32 +: 32] << log2_w_i) + tx4[i*32 +: 32]) << 2);
      taddr4[i*30 +: 30] = ta4[i*32 + 2 +: 30];
    end
  end

  // ---- the queue of textured quads: a ring of QDEPTH entries ---------------------------------
  // What the scout and the lookups need, the mask and the four texel addresses, is in flops
  // (fq_q: {mask, addresses}); the rest, position, depth and colours, in a RAM read at the head
  // (the texture coordinates are not kept: only the addresses were made of them). The RAM's
  // output holds the head's payload until the next read, which is issued as the head is taken
  // (or, for an empty queue's first entry, the cycle after it was written): hd_ok_q / ram_rv.
  localparam int unsigned FW = 4 + 4 * 30;
  localparam int unsigned PW = 6 + 6 + 96 + 128;  // quad_t's lx, ly, z, rgba
  logic [QDEPTH*FW-1:0] fq_q, fq_d;
  logic [QPW-1:0]       fh_q, fh_d, ft_q, ft_d;   // head (next taken), tail (next written)
  logic [QPW:0]         fn_q, fn_d;               // entries
  logic                 f_push, f_pop, f_avail, f_re;
  logic [QPW-1:0]       f_raddr;
  logic                 hd_ok_q, hd_ok_d, ram_rv;
  logic [PW-1:0]        f_payload;
  logic [FW-1:0]        f_head;
  tessera_raster_pkg::quad_t f_hquad;
  logic [4*30-1:0]      f_haddr;
  assign f_head  = fq_q[32'(fh_q)*FW +: FW];
  assign f_haddr = f_head[0 +: 4*30];
  always_comb begin
    f_hquad      = '0;
    f_hquad.lx   = f_payload[PW-6 +: 6];
    f_hquad.ly   = f_payload[PW-12 +: 6];
    f_hquad.mask = f_head[4*30 +: 4];
    f_hquad.z    = f_payload[128 +: 96];
    f_hquad.rgba = f_payload[0 +: 128];
  end
  assign f_push  = tex_en_i && quad_valid_i && fn_q != (QPW + 1)'(QDEPTH);
  always_comb begin
    fq_d = fq_q;
    if (f_push) fq_d[32'(ft_q)*FW +: FW] = {quad_i.mask, taddr4};
  end
  assign ft_d = f_push ? ((32'(ft_q) == QDEPTH - 1) ? '0 : ft_q + QPW'(1)) : ft_q;
  assign fh_d = f_pop ? ((32'(fh_q) == QDEPTH - 1) ? '0 : fh_q + QPW'(1)) : fh_q;
  assign fn_d = fn_q + (QPW + 1)'(f_push) - (QPW + 1)'(f_pop);
  // the head's payload is on the RAM's output: read last cycle (ram_rv), or earlier and not
  // taken since (hd_ok_q)
  assign f_avail = hd_ok_q || ram_rv;
  // read the next head as the head is taken, or the head when nothing is on the output; only
  // entries written in an earlier cycle (counted in fn_q; a push writes the tail)
  assign f_re    = f_pop ? (fn_q >= (QPW + 1)'(2)) : (!f_avail && fn_q != '0);
  assign f_raddr = f_pop ? fh_d : fh_q;
  assign hd_ok_d = f_avail && !f_pop;
  prim_ram_2p #(.WIDTH(PW), .DEPTH(QDEPTH)) u_payload (
    .clk_i, .rst_ni,
    .we_i(f_push), .waddr_i(ft_q), .wdata_i({quad_i.lx, quad_i.ly, quad_i.z, quad_i.rgba}), .wmask_i(1'b1),
    .re_i(f_re), .raddr_i(f_raddr), .rdata_o(f_payload), .rvalid_o(ram_rv));

  // the pixels left whose texel is in the leader's line
  logic [3:0] same, serve, rem_after;
  always_comb begin
    for (int i = 0; i < 4; i++) same[i] = (a_q[i*30 + 4 +: 26] == la_q[29:4]);
  end
  assign serve     = rem_q & same;
  assign rem_after = rem_q & ~serve;

  // ---- lookup stage ------------------------------------------------------------------------
  logic [IdxW-1:0] idx;
  assign idx = la_q[4 +: IdxW];

  // fills: the line an answer brings (the demand's is the leader's; a scout's its table entry)
  logic            fill;
  logic [25:0]     fill_line;
  logic [IdxW-1:0] fill_idx;
  logic            ram_re;
  logic [511:0]    ram_rdata;
  logic            unused_rv;
  assign fill_idx = fill_line[IdxW-1:0];
  prim_ram_2p #(.WIDTH(512), .DEPTH(NLINES)) u_data (
    .clk_i, .rst_ni,
    .we_i(fill), .waddr_i(fill_idx), .wdata_i(mrsp_data_i), .wmask_i(1'b1),
    .re_i(ram_re), .raddr_i(idx), .rdata_o(ram_rdata), .rvalid_o(unused_rv));

  // is a line resident (tags in flops: one compare for the lookup, one for the scout)
  function automatic logic resident(input logic [25:0] line, input logic [NLINES-1:0] v,
                                    input logic [NLINES*26-1:0] t);
    logic [25:0] tr;
    tr = '0;
    for (int l = 0; l < NLINES; l++) if (line[IdxW-1:0] == IdxW'(l)) tr = t[l*26 +: 26];
    resident = v[line[IdxW-1:0]] && tr == 26'(line >> IdxW);
  endfunction
  logic hit;
  assign hit = resident(la_q[29:4], val_q, tag_q);

  logic [2:0] nserve;                       // pixels served by this lookup
  prim_popcount #(.WIDTH(4)) u_nserve (.in_i(serve), .cnt_o(nserve));

  logic lookup;                             // a line is looked up this cycle
  assign lookup = (st_q == F_RUN) && qv_q && av_q;

  // ---- the scout's reads in flight: per tag offset 1..NSCOUT, the line and whether an
  // inv_i since has made its answer stale
  logic [NSCOUT:0]        sv_q, sv_d;       // entry 0 unused (the demand's offset)
  logic [NSCOUT:0]        sdrop_q, sdrop_d;
  logic [(NSCOUT+1)*26-1:0] sl_q, sl_d;
  logic                   scout_wait;       // the leader's line is on its way (a scout read)
  logic                   sr_q;             // a scout read waits for the port (below)
  logic [25:0]            srl_q;            // ... its line
  always_comb begin
    scout_wait = sr_q && srl_q == la_q[29:4];
    for (int k = 1; k <= NSCOUT; k++)
      if (sv_q[k] && !sdrop_q[k] && sl_q[k*26 +: 26] == la_q[29:4]) scout_wait = 1'b1;
  end

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
  // in this very cycle (registers only, so the take does not wait for a tag compare).
  logic finish;
  assign finish = qv_q && (rem_q == '0);

  // the queue's head is taken into a free work register, or one whose quad finishes now
  assign f_pop = fn_q != '0 && f_avail && (!qv_q || finish) && (st_q == F_RUN);

  logic demand_miss;                        // the lookup misses a line nobody is fetching
  assign demand_miss = lookup && !hit && !scout_wait;

  always_comb begin
    st_d = st_q;  q_d = q_q;  qv_d = qv_q;  rem_d = rem_q;
    m_d = 1'b0;  mhot_d = '0;  mword_d = mword_q;  pi_d = pi_q;
    av_d = av_q;  a_d = a_q;  la_d = la_q;
    oq_d = oq_q;  ov_d = 1'b0;
    ram_re = 1'b0;  mreq_valid_o = 1'b0;
    // modulate: the colour of the pixel read last cycle
    for (int i = 0; i < 4; i++) if (m_q && mhot_q[i]) q_d.rgba[i*32 +: 32] = mod[i*32 +: 32];
    // A finished quad moves to the output register (its last colour comes from the modulate
    // stage this cycle), which frees q_q for the next quad in the same cycle.
    if (finish) begin
      oq_d = q_d;
      oq_d.uv = '0;                         // read by nothing after the FS: no flops for it
      ov_d = 1'b1;
      qv_d = 1'b0;
      av_d = 1'b0;
    end
    if (f_pop) begin
      q_d = f_hquad;
      qv_d = 1'b1;
      rem_d = f_hquad.mask;
      pi_d = lowest(f_hquad.mask);
      av_d = 1'b1;
      a_d = f_haddr;
      la_d = f_haddr[32'(lowest(f_hquad.mask))*30 +: 30];
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
          end else if (!scout_wait) begin
            st_d = F_REQ;
          end
        end
      end
      F_REQ: begin
        mreq_valid_o = 1'b1;
        if (mreq_ready_i) st_d = F_WAIT;
      end
      F_WAIT: if (mrsp_valid_i && mrsp_k_i == '0) begin
        st_d = F_RUN;                       // look the pixel up again (a hit now)
      end
      default: st_d = F_RUN;
    endcase
  end
  assign mreq_addr_o = {la_q[29:4], 6'd0};

  // ---- the scout ----------------------------------------------------------------------------
  // It looks at one pixel of a queued quad per cycle: entry (head + so_q), pixel sp_q. A line
  // neither resident, nor on its way (a scout read, the demand read, the read waiting to be
  // taken), nor the one just looked at, is read: the read waits in sr_q until the port takes
  // it. The entry under the scout moves down as the head is taken; one already taken into the
  // work register is left to the lookups.
  logic [QPW:0]   so_q, so_d;
  logic [1:0]     sp_q, sp_d;
  logic           sr_d;
  logic [25:0]    srl_d;
  logic [KW-1:0]  srk_q, srk_d;             // ... its tag offset
  logic [25:0]    slast_q, slast_d;         // the line the scout looked at last
  logic           slv_q, slv_d;
  logic [QPW-1:0] s_ent;
  logic [FW-1:0]  s_e;
  logic [3:0]     s_mask;                   // the entry's quad's mask
  logic [25:0]    s_line;
  logic           s_have, s_cov, s_busy, s_need, s_step;
  logic [NSCOUT:0] s_free;
  logic [KW-1:0]  s_k;
  logic           s_kv;
  logic [QPW+1:0] s_entw;
  assign s_entw = (QPW + 2)'(fh_q) + (QPW + 2)'(so_q);
  assign s_ent  = QPW'((s_entw >= (QPW + 2)'(QDEPTH)) ? s_entw - (QPW + 2)'(QDEPTH) : s_entw);
  assign s_e    = fq_q[32'(s_ent)*FW +: FW];
  assign s_mask = s_e[4*30 +: 4];
  assign s_line = s_e[32'(sp_q)*30 + 4 +: 26];
  assign s_have = so_q < fn_q;
  assign s_cov  = s_mask[sp_q];
  always_comb begin
    s_busy = (st_q != F_RUN && la_q[29:4] == s_line) || (sr_q && srl_q == s_line) ||
             (slv_q && slast_q == s_line);
    for (int k = 1; k <= NSCOUT; k++) if (sv_q[k] && !sdrop_q[k] && sl_q[k*26 +: 26] == s_line) s_busy = 1'b1;
    s_free = '0;
    for (int k = 1; k <= NSCOUT; k++) s_free[k] = !sv_q[k] && !(sr_q && srk_q == KW'(k));
    s_kv = 1'b0;
    s_k  = '0;
    for (int k = NSCOUT; k >= 1; k--) if (s_free[k]) begin s_kv = 1'b1; s_k = KW'(k); end
  end
  assign s_need = s_have && s_cov && !s_busy && !resident(s_line, val_q, tag_q);
  // a step: the pixel is looked at (read, or nothing to read); a needed line waits for a
  // free tag and for the read register
  assign s_step = s_have && !inv_i && (!s_need || (s_kv && !sr_q));

  always_comb begin
    so_d = so_q;  sp_d = sp_q;  sr_d = sr_q;  srl_d = srl_q;  srk_d = srk_q;
    slast_d = slast_q;  slv_d = slv_q;
    if (sr_q && sreq_ready_i) sr_d = 1'b0;
    if (s_step) begin
      if (s_need) begin
        sr_d = 1'b1;  srl_d = s_line;  srk_d = s_k;
      end
      if (s_cov) begin
        slast_d = s_line;  slv_d = 1'b1;
      end
      sp_d = sp_q + 2'd1;
      if (sp_q == 2'd3) so_d = so_q + (QPW + 1)'(1);
    end
    // the head taken: the entries move down; the head itself is the lookups' from now on
    if (f_pop) begin
      if (so_d != '0) so_d = so_d - (QPW + 1)'(1);
      else sp_d = 2'd0;
    end
    if (inv_i) slv_d = 1'b0;
  end
  assign sreq_valid_o = sr_q;
  assign sreq_addr_o  = {srl_q, 6'd0};
  assign sreq_k_o     = srk_q;
  assign sreq_urgent_o = lookup && !hit && sr_q && srl_q == la_q[29:4];

  // the table of scout reads in flight, and the fills
  always_comb begin
    sv_d = sv_q;  sdrop_d = sdrop_q;  sl_d = sl_q;
    fill = 1'b0;
    fill_line = la_q[29:4];
    if (mrsp_valid_i && mrsp_k_i == '0) begin
      fill = 1'b1;                          // the demand read: the leader's line
    end else if (mrsp_valid_i) begin
      fill_line = sl_q[32'(mrsp_k_i)*26 +: 26];
      fill = !sdrop_q[mrsp_k_i];
      sv_d[mrsp_k_i] = 1'b0;
    end
    if (sr_q && sreq_ready_i) begin
      sv_d[srk_q] = 1'b1;
      sdrop_d[srk_q] = 1'b0;
      sl_d[32'(srk_q)*26 +: 26] = srl_q;
    end
    if (inv_i) sdrop_d = sv_d;
  end
  always_comb begin
    val_d = val_q;
    if (fill) val_d[fill_idx] = 1'b1;
    if (inv_i) val_d = '0;
  end

  // Untextured quads pass straight through while nothing textured is in flight.
  logic pass;
  assign pass = !tex_en_i && fn_q == '0 && !qv_q && !m_q && !ov_q;
  always_comb begin
    quad_ready_o = tex_en_i && fn_q != (QPW + 1)'(QDEPTH);
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
      fq_q <= '0;
      fh_q <= '0;
      ft_q <= '0;
      fn_q <= '0;
      hd_ok_q <= 1'b0;
      so_q <= '0;
      sp_q <= '0;
      sr_q <= 1'b0;
      srl_q <= '0;
      srk_q <= '0;
      slast_q <= '0;
      slv_q <= 1'b0;
      sv_q <= '0;
      sdrop_q <= '0;
      sl_q <= '0;
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
      fq_q <= fq_d;
      fh_q <= fh_d;
      ft_q <= ft_d;
      fn_q <= fn_d;
      hd_ok_q <= hd_ok_d;
      so_q <= so_d;
      sp_q <= sp_d;
      sr_q <= sr_d;
      srl_q <= srl_d;
      srk_q <= srk_d;
      slast_q <= slast_d;
      slv_q <= slv_d;
      sv_q <= sv_d;
      sdrop_q <= sdrop_d;
      sl_q <= sl_d;
      if (lookup && hit) hits_q <= hits_q + 32'(nserve);
      misses_q <= misses_q + 32'(demand_miss) + 32'(sr_q && sreq_ready_i);
    end
  end

  // tags have no reset: a line's tag is written with its data and read only while it is valid
  always_ff @(posedge clk_i) begin
    for (int l = 0; l < NLINES; l++) begin
      if (fill && fill_idx == IdxW'(l)) tag_q[l*26 +: 26] <= 26'(fill_line >> IdxW);
    end
  end

  // idle: no quad anywhere in the FS (scout reads may still be in flight: inv_i drops them)
  assign idle_o   = (st_q == F_RUN) && !qv_q && !m_q && !ov_q && fn_q == '0;
  assign miss_wait_o = st_q != F_RUN || (lookup && !hit);
  assign hits_o   = hits_q;
  assign misses_o = misses_q;

  // A quad is taken only into a free (or finishing) work register, a demand fill only while
  // the lookups wait for it, and the modulate stage always belongs to the quad in q_q.
  `ASSERT_INIT(FsParams_A, QDEPTH >= 2 && (QDEPTH & (QDEPTH - 1)) == 0 && NSCOUT >= 1 &&
               (NSCOUT & (NSCOUT + 1)) == 0)
  `ASSERT(FsDemandFillOnlyWaiting_A, mrsp_valid_i && mrsp_k_i == '0 |-> st_q == F_WAIT)
  `ASSERT(FsScoutFillExpected_A, mrsp_valid_i && mrsp_k_i != '0 |-> sv_q[mrsp_k_i])
  `ASSERT(FsScoutTagFree_A, sr_q |-> !sv_q[srk_q] && srk_q != '0)
  `ASSERT(FsScoutHeld_A, sr_q && !sreq_ready_i |=> sr_q && srl_q == $past(srl_q) && srk_q == $past(srk_q))
  `ASSERT(FsDemandHeld_A, mreq_valid_o && !mreq_ready_i |=> mreq_valid_o && mreq_addr_o == $past(mreq_addr_o))
  `ASSERT(FsModulateHasQuad_A, m_q |-> qv_q)
  `ASSERT(FsLookupExcludesTake_A, lookup |-> !finish && !f_pop)
  `ASSERT(FsModulateServes_A, m_q == (mhot_q != '0))
  `ASSERT(FsQueueBounded_A, fn_q <= (QPW + 1)'(QDEPTH))
  `ASSERT(FsScoutInQueue_A, so_q <= fn_q)
  `ASSERT(FsQuadCovered_A, quad_valid_i && tex_en_i |-> quad_i.mask != '0)
  `ASSERT(FsScoutMask_A, fn_q != '0 && so_q == '0 |-> s_mask == f_hquad.mask)
  `ASSERT(FsHeadReadable_A, f_avail |-> fn_q != '0)
  `ASSERT(FsInvOnlyIdle_A, inv_i |-> idle_o)
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
  assign unused_fs = ^{unused_bits, prod16, sv_q[0], sdrop_q[0], sl_q[25:0]};

endmodule
