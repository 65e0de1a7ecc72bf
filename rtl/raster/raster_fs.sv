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
// one, the covered pixels are textured one at a time: a direct-mapped cache of NLINES
// 64-byte lines (tags in flops, data in prim_ram_2p), 2 cycles per pixel on a hit, one
// blocking line read on a miss. inv_i drops every line (render pass boundaries, FLUSH,
// INVALIDATE): render targets never go through this cache, so it is never dirty.

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

  typedef enum logic [2:0] {F_IDLE, F_PIX, F_LOOK, F_REQ, F_WAIT, F_OUT} fstate_e;
  fstate_e st_q, st_d;
  tessera_raster_pkg::quad_t q_q, q_d;
  logic [1:0]  pi_q, pi_d;
  logic [NLINES-1:0]      val_q, val_d;
  logic [NLINES*26-1:0]   tag_q;
  logic [31:0] hits_q, misses_q;

  // texel address of pixel pi_q
  logic [15:0] pu, pv;
  logic [31:0] tx, ty, taddr;
  logic [31:0] vcol_sel;
  always_comb begin
    pu = '0;  pv = '0;  vcol_sel = '0;
    for (int i = 0; i < 4; i++) begin
      if (pi_q == 2'(i)) begin
        pu = q_q.uv[i*32 + 16 +: 16];
        pv = q_q.uv[i*32 +: 16];
        vcol_sel = q_q.rgba[i*32 +: 32];
      end
    end
  end
  assign tx = 32'(pu) >> (5'd16 - {1'b0, log2_w_i});
  assign ty = 32'(pv) >> (5'd16 - {1'b0, log2_h_i});
  assign taddr = tex_base_i + (((ty << log2_w_i) + tx) << 2);

  logic [IdxW-1:0] idx;
  logic [25:0]     tag;
  assign idx = taddr[6 +: IdxW];
  assign tag = 26'(taddr[31:6] >> IdxW);

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

  logic [31:0] texel, vcol, mod;
  logic [15:0] p;
  always_comb begin
    p = '0;
    texel = '0;
    for (int w = 0; w < 16; w++) if (taddr[5:2] == 4'(w)) texel = ram_rdata[w*32 +: 32];
    vcol  = vcol_sel;
 for (int c = 0; c < 4; c++) begin
      p = 16'(vcol[c*8 +: 8]) * 16'(texel[c*8 +: 8]) + 16'd255;
      mod[c*8 +: 8] = p[15:8];
    end
  end

  always_comb begin
    st_d = st_q;  q_d = q_q;  pi_d = pi_q;  val_d = val_q;
    ram_re = 1'b0;  ram_we = 1'b0;  mreq_valid_o = 1'b0;
    quad_ready_o = 1'b0;  quad_valid_o = 1'b0;  quad_o = quad_i;
    unique case (st_q)
      F_IDLE: begin
        if (!tex_en_i) begin
          quad_ready_o = 1'b1;          // pass-through
          quad_valid_o = quad_valid_i;
        end else if (quad_valid_i) begin
          quad_ready_o = 1'b1;
          q_d = quad_i;
          pi_d = '0;
          st_d = F_PIX;
        end
      end
      F_PIX: begin                      // next covered pixel, or done
        if (!q_q.mask[pi_q]) begin
          if (pi_q == 2'd3) st_d = F_OUT;
          else pi_d = pi_q + 2'd1;
        end else begin
          ram_re = 1'b1;
          st_d = F_LOOK;
        end
      end
      F_LOOK: begin
        if (hit) begin
          for (int i = 0; i < 4; i++) if (pi_q == 2'(i)) q_d.rgba[i*32 +: 32] = mod;
          if (pi_q == 2'd3) st_d = F_OUT;
          else begin pi_d = pi_q + 2'd1; st_d = F_PIX; end
        end else begin
          st_d = F_REQ;
        end
      end
      F_REQ: begin
        mreq_valid_o = 1'b1;
        if (mreq_ready_i) st_d = F_WAIT;
      end
      F_WAIT: if (mrsp_valid_i) begin
        ram_we = 1'b1;
        val_d[idx] = 1'b1;
        st_d = F_PIX;                   // look it up again (a hit now)
      end
      F_OUT: begin
        quad_valid_o = 1'b1;
        quad_o = q_q;
        st_d = F_IDLE;
      end
      default: st_d = F_IDLE;
    endcase
    if (inv_i) val_d = '0;
  end
  assign mreq_addr_o = {taddr[31:6], 6'd0};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= F_IDLE;  q_q <= '0;  pi_q <= '0;  val_q <= '0;  tag_q <= '0;
      hits_q <= '0;  misses_q <= '0;
    end else begin
      st_q <= st_d;  q_q <= q_d;  pi_q <= pi_d;  val_q <= val_d;
      for (int l = 0; l < NLINES; l++) if (ram_we && idx == IdxW'(l)) tag_q[l*26 +: 26] <= tag;
      if (st_q == F_LOOK && hit) hits_q <= hits_q + 32'd1;
      if (st_q == F_LOOK && !hit) misses_q <= misses_q + 32'd1;
    end
  end

  assign idle_o   = (st_q == F_IDLE);
  assign hits_o   = hits_q;
  assign misses_o = misses_q;

  logic unused_fs;
  assign unused_fs = ^{tx, ty, taddr[1:0], p[7:0]};

endmodule
