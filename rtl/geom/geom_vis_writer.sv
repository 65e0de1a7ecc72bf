// geom_vis_writer -- two-level binning's visibility writer: in a visibility (WRITE) pass it
// records, for every triangle VPC_US hands out, the coarse bins its box touches, and writes
// each coarse bin's bitmap to the visibility buffer, one 64-byte line (512 primitives) at a time.
//
// Source: 000_b9c7be2d27aa8181.txt (selectable two-level binning) [0010]: "the visibility
// pass ... for each primitive that survives culling, one bit per coarse bin it touches is
// written to the visibility buffer"; docs/two-level.md "Visibility buffer" (the layout: coarse
// bin c's bitmap at VIS_BASE + c * VIS_STRIDE, bit p of the bitmap = primitive p of the pass).
//
// Where: at VPC_US, where triangles are in API order, so the pass's primitive numbers
// (ord_t.vbase + prim_id) only grow. The writer works on one group of 512 primitives at a
// time (one line of every coarse bin's bitmap):
//   - Run: a triangle of the current group is taken at once: its box (64-pixel blocks, from
//     TSEFE_S) goes to a 512-entry box RAM at its primitive's slot, the triangles of one
//     primitive (a patch's tessellated triangles) merged into their bounding box. A triangle
//     of a later group waits (tri_ready_o low) while the group is swept.
//   - Sweep: per coarse bin (raster order), 16 RAM rows of 32 boxes are compared with the
//     bin's block rectangle, giving the line's 512 bits in 16 cycles (1 cycle when the group
//     holds no triangle), and the line is written whole (a full-line WRITE). Groups with no
//     triangle between two that have one are written too (all zero), so that every line that
//     holds one of the pass's primitives is written, as the layout promises.
//   - RENDERPASS_END (end_valid_i, with the pass's primitive count) sweeps the last groups,
//     waits until every write is acknowledged (so the lines are in slice 0's CCHE before the
//     END reaches the raster slices, whose END writes the CCHE back), then lets it go.
// Primitives beyond the buffer (VIS_STRIDE lines of 512 per bin) are not recorded; PC_US
// treats them as visible. Up to 4 writes are outstanding (tags 0x40..0x43; PC_US's reads use
// 0x44; bit 6 set keeps them apart from the vertex fetch's tags when pipe_top merges the client
// into slice 0's port).

`include "prim_assert.svh"

module geom_vis_writer (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  geom_pkg::vis_cfg_t            cfg_i,        // sampled at start_i
  input  logic                          start_i,      // a WRITE pass's RENDERPASS_BEGIN left VPC_US
  // the triangle at VPC_US's head
  input  logic                          tri_valid_i,
  input  logic [31:0]                   tri_pos_i,    // its primitive's number in the pass
  input  geom_pkg::cbox_t               tri_box_i,
  output logic                          tri_ready_o,  // VPC_US may hand it out
  input  logic                          tri_take_i,   // ... and does, this cycle
  // the WRITE pass's RENDERPASS_END at VPC_US's head
  input  logic                          end_valid_i,
  input  logic [31:0]                   end_total_i,  // primitives in the pass
  output logic                          end_ready_o,  // every line written: it may go
  input  logic                          end_take_i,
  output logic                          done_o,       // pulse: the pass is finished
  output logic [31:0]                   rec_n_o,      // ... having recorded this many primitives
  // memory (full-line WRITEs)
  output logic                          mem_req_valid_o,
  input  logic                          mem_req_ready_i,
  output tessera_mem_pkg::mem_req_t     mem_req_o,
  input  logic                          mem_rsp_valid_i,
  input  tessera_mem_pkg::mem_rsp_t     mem_rsp_i,
  output logic                          busy_o
);

  typedef enum logic [2:0] {Off, Run, Flush, Rows, Req, Drain, Done} state_e;
  state_e st_q, st_d;

  geom_pkg::vis_cfg_t cfg_q, cfg_d;
  logic [22:0]  grp_q, grp_d;        // the group being collected
  logic [22:0]  tgt_q, tgt_d;        // sweep groups until grp reaches this
  logic         ending_q, ending_d;  // the sweep is the pass's end
  logic [31:0]  tot_q, tot_d;
  logic [511:0] valid_q, valid_d;    // box RAM slots holding a primitive of the group
  logic         lb_valid_q, lb_valid_d;  // the last primitive's box, still being merged
  logic [8:0]   lb_pos_q, lb_pos_d;
  geom_pkg::cbox_t lb_box_q, lb_box_d;
  logic         gempty_q, gempty_d;  // the group being swept holds no primitive
  logic [5:0]   cx_q, cx_d, cy_q, cy_d;
  logic [10:0]  lox_q, lox_d, loy_q, loy_d;  // the coarse bin's first block
  logic [25:0]  la_q, la_d;          // its line address
  logic [4:0]   row_q, row_d;        // next RAM row to read (16: all issued)
  logic [3:0]   rrow_q;              // the row the RAM answers
  logic [511:0] lbuf_q, lbuf_d;
  logic [3:0]   busy_q, busy_d;      // write tags outstanding

  logic [22:0] tgrp, cap, end_groups;
  assign tgrp = tri_pos_i[31:9];
  assign cap  = 23'(cfg_q.stride);
  // groups holding the pass's primitives, up to the capacity
  assign end_groups = (end_total_i[31:9] + 23'(end_total_i[8:0] != '0) > cap) ? cap
                    : end_total_i[31:9] + 23'(end_total_i[8:0] != '0);

  assign tri_ready_o = (st_q == Off) || ((st_q == Run) && (tgrp == grp_q || tgrp >= cap));
  logic record;
  assign record = (st_q == Run) && tri_take_i && (tgrp == grp_q) && (tgrp < cap);

  // ---- box RAM: 16 rows of 32 boxes, one box written per cycle ------------------------------
  logic                ram_we, ram_re, ram_rvalid;
  logic [3:0]          ram_waddr;
  logic [31:0]         ram_wmask;
  logic [32*24-1:0]    ram_rdata;
  geom_pkg::cbox_t     wbox;
  logic [8:0]          wpos;
  prim_ram_2p #(.WIDTH(32 * geom_pkg::CBOX_W), .DEPTH(16), .DATA_BITS_PER_MASK(geom_pkg::CBOX_W)) u_boxes (
    .clk_i, .rst_ni,
    .we_i(ram_we), .waddr_i(ram_waddr), .wdata_i({32{wbox}}), .wmask_i(ram_wmask),
    .re_i(ram_re), .raddr_i(row_q[3:0]), .rdata_o(ram_rdata), .rvalid_o(ram_rvalid));
  // the held box goes to the RAM when another primitive arrives or the group is swept
  assign ram_we    = lb_valid_q && ((record && tri_pos_i[8:0] != lb_pos_q) || st_q == Flush);
  assign wbox      = lb_box_q;
  assign wpos      = lb_pos_q;
  assign ram_waddr = wpos[8:5];
  assign ram_wmask = 32'd1 << wpos[4:0];
  assign ram_re    = (st_q == Rows) && !gempty_q && !row_q[4];

  // ---- the line's bits from a returned row ---------------------------------------------------
  logic [10:0] hix, hiy;
  logic [31:0] row_bits;
  geom_pkg::cbox_t rb;
  assign hix = lox_q + 11'(cfg_q.w) - 11'd1;
  assign hiy = loy_q + 11'(cfg_q.h) - 11'd1;
  always_comb begin
    for (int unsigned i = 0; i < 32; i++) begin
      rb = ram_rdata[i*geom_pkg::CBOX_W +: geom_pkg::CBOX_W];
      row_bits[i] = valid_q[32'(rrow_q)*32 + i] &&
                    (11'(rb.x0) <= hix) && (11'(rb.x1) >= lox_q) &&
                    (11'(rb.y0) <= hiy) && (11'(rb.y1) >= loy_q);
    end
  end

  // ---- write tags -----------------------------------------------------------------------------
  logic       tag_free, req_go;
  logic [1:0] tag;
  always_comb begin
    tag_free = 1'b0;
    tag      = '0;
    for (int i = 3; i >= 0; i--) begin
      if (!busy_q[i]) begin
        tag_free = 1'b1;
        tag      = 2'(i);
      end
    end
  end
  assign mem_req_valid_o = (st_q == Req) && tag_free;
  assign req_go          = mem_req_valid_o && mem_req_ready_i;
  always_comb begin
    mem_req_o       = '0;
    mem_req_o.op    = tessera_mem_pkg::MEM_OP_WRITE;
    mem_req_o.addr  = {la_q, 6'b0};
    mem_req_o.wstrb = '1;
    mem_req_o.wdata = lbuf_q;
    mem_req_o.tag   = {6'b010000, tag};
  end
  logic rsp_mine;
  assign rsp_mine = mem_rsp_valid_i && !mem_rsp_i.tag[2];

  logic last_bin;
  assign last_bin = (cx_q == cfg_q.nx - 6'd1) && (cy_q == cfg_q.ny - 6'd1);

  always_comb begin
    st_d       = st_q;
    cfg_d      = cfg_q;
    grp_d      = grp_q;
    tgt_d      = tgt_q;
    ending_d   = ending_q;
    tot_d      = tot_q;
    valid_d    = valid_q;
    lb_valid_d = lb_valid_q;
    lb_pos_d   = lb_pos_q;
    lb_box_d   = lb_box_q;
    gempty_d   = gempty_q;
    cx_d       = cx_q;
    cy_d       = cy_q;
    lox_d      = lox_q;
    loy_d      = loy_q;
    la_d       = la_q;
    row_d      = row_q;
    lbuf_d     = lbuf_q;
    busy_d     = busy_q;
    if (rsp_mine) busy_d[mem_rsp_i.tag[1:0]] = 1'b0;
    if (req_go)   busy_d[tag] = 1'b1;
    if (ram_we)   valid_d[wpos] = 1'b1;
    if (ram_rvalid) lbuf_d[32'(rrow_q)*32 +: 32] = row_bits;
    unique case (st_q)
      Off: begin
        if (start_i) begin
          cfg_d      = cfg_i;
          grp_d      = '0;
          valid_d    = '0;
          lb_valid_d = 1'b0;
          st_d       = Run;
        end
      end
      Run: begin
        if (record) begin
          if (lb_valid_q && tri_pos_i[8:0] == lb_pos_q) begin
            lb_box_d.x0 = (tri_box_i.x0 < lb_box_q.x0) ? tri_box_i.x0 : lb_box_q.x0;
            lb_box_d.y0 = (tri_box_i.y0 < lb_box_q.y0) ? tri_box_i.y0 : lb_box_q.y0;
            lb_box_d.x1 = (tri_box_i.x1 > lb_box_q.x1) ? tri_box_i.x1 : lb_box_q.x1;
            lb_box_d.y1 = (tri_box_i.y1 > lb_box_q.y1) ? tri_box_i.y1 : lb_box_q.y1;
          end else begin
            lb_valid_d = 1'b1;
            lb_pos_d   = tri_pos_i[8:0];
            lb_box_d   = tri_box_i;
          end
        end else if (tri_valid_i && !tri_ready_o) begin
          tgt_d    = tgrp;             // a later group: sweep up to it
          ending_d = 1'b0;
          st_d     = Flush;
        end else if (end_valid_i) begin
          tot_d    = end_total_i;
          tgt_d    = end_groups;
          ending_d = 1'b1;
          st_d     = (grp_q < end_groups) ? Flush : Drain;
        end
      end
      Flush: begin
        // the held box went to the RAM this cycle (ram_we)
        lb_valid_d = 1'b0;
        gempty_d   = (valid_q == '0) && !lb_valid_q;
        if (grp_q >= cap) begin
          grp_d = tgt_q;
          st_d  = ending_q ? Drain : Run;
        end else begin
          cx_d  = '0;
          cy_d  = '0;
          lox_d = '0;
          loy_d = '0;
          la_d  = cfg_q.base + 26'(grp_q);
          row_d = '0;
          lbuf_d = '0;
          st_d  = Rows;
        end
      end
      Rows: begin
        if (ram_re) row_d = row_q + 5'd1;
        if (gempty_q || (ram_rvalid && rrow_q == 4'd15)) st_d = Req;
      end
      Req: begin
        if (req_go) begin
          lbuf_d = '0;
          row_d  = '0;
          if (last_bin) begin
            valid_d = '0;
            grp_d   = grp_q + 23'd1;
            if (grp_q + 23'd1 == tgt_q) st_d = ending_q ? Drain : Run;
            else                        st_d = Flush;   // an empty group on the way
          end else begin
            la_d = la_q + 26'(cfg_q.stride);
            if (cx_q == cfg_q.nx - 6'd1) begin
              cx_d  = '0;
              lox_d = '0;
              cy_d  = cy_q + 6'd1;
              loy_d = loy_q + 11'(cfg_q.h);
            end else begin
              cx_d  = cx_q + 6'd1;
              lox_d = lox_q + 11'(cfg_q.w);
            end
            st_d = Rows;
          end
        end
      end
      Drain: if (busy_d == '0 && busy_q == '0) st_d = Done;
      Done: if (end_take_i) st_d = Off;
      default: st_d = Off;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q       <= Off;
      cfg_q      <= '0;
      grp_q      <= '0;
      tgt_q      <= '0;
      ending_q   <= 1'b0;
      tot_q      <= '0;
      valid_q    <= '0;
      lb_valid_q <= 1'b0;
      lb_pos_q   <= '0;
      lb_box_q   <= '0;
      gempty_q   <= 1'b0;
      cx_q       <= '0;
      cy_q       <= '0;
      lox_q      <= '0;
      loy_q      <= '0;
      la_q       <= '0;
      row_q      <= '0;
      rrow_q     <= '0;
      lbuf_q     <= '0;
      busy_q     <= '0;
    end else begin
      st_q       <= st_d;
      cfg_q      <= cfg_d;
      grp_q      <= grp_d;
      tgt_q      <= tgt_d;
      ending_q   <= ending_d;
      tot_q      <= tot_d;
      valid_q    <= valid_d;
      lb_valid_q <= lb_valid_d;
      lb_pos_q   <= lb_pos_d;
      lb_box_q   <= lb_box_d;
      gempty_q   <= gempty_d;
      cx_q       <= cx_d;
      cy_q       <= cy_d;
      lox_q      <= lox_d;
      loy_q      <= loy_d;
      la_q       <= la_d;
      row_q      <= row_d;
      rrow_q     <= row_q[3:0];
      lbuf_q     <= lbuf_d;
      busy_q     <= busy_d;
    end
  end

  assign end_ready_o = (st_q == Done);
  assign done_o      = (st_q == Done) && end_take_i;
  assign rec_n_o     = ({cap, 9'b0} < tot_q) ? {cap, 9'b0} : tot_q;
  assign busy_o      = (st_q != Off);

  logic unused;
  assign unused = ^{cfg_q.mode, cfg_q.bin, mem_rsp_i.err, mem_rsp_i.op, mem_rsp_i.src,
                    mem_rsp_i.rdata, mem_rsp_i.tag[7:3]};

  // triangles come in API order: a pass number never goes back a group
  `ASSERT(TrianglesInOrder_A, tri_valid_i && st_q == Run |-> tgrp >= grp_q)
  `ASSERT(StartWhenOff_A, start_i |-> st_q == Off)
  `ASSERT(EndOnlyInPass_A, end_take_i |-> st_q == Done)
  `ASSERT(RspOfOurTag_A, rsp_mine |-> busy_q[mem_rsp_i.tag[1:0]])
  `ASSERT(SweepNeverPastTarget_A, st_q == Flush |-> grp_q < tgt_q || grp_q >= cap)

endmodule
