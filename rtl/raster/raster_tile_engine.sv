// raster_tile_engine -- the raster slice's tile engine: moves a tile's lines between memory
// and the tile buffer (load, store) or writes the clear value into memory (clear).
//
// Source: ARCHITECTURE.md 5.4 (the bin's tile is loaded before its primitives and stored
// after them); issue 16 items 1 and 3: one unit for the tile traffic, with many line requests
// in flight. Split out of raster_slice, which decides what to move and when
// (docs/raster.md "Double-buffered tile buffer", "Fast clear").
//
// A job covers a tile's color target, then its depth target (a clear: the targets asked for).
// Lines of a tile: li over T*T/16, li -> (row, 16-pixel segment); lines outside the render
// target are skipped.
//   load  READs every line, up to 128 outstanding, and writes each response into the tile
//         buffer where its tag says (out of order); bins of up to 64 lines per target tag
//         their reads {0, target, line} and the depth reads follow the color reads without
//         waiting, 64x64 bins tag {0, line[6:0]} and wait at every 128-line chunk. A target
//         whose clear is pending (fill) is filled with the clear value instead, one line per
//         clock on the cycles no response needs the buffer's write port.
//   store reads a tile-buffer word, then WRITEs it (with the target's DSID), one line per
//         clock when the port takes every write.
//   clear WRITEs the clear value into every line.
// Write tags are {1, n}, n = 8..127 (8'h80..8'h87 are the FS's texel reads), at most 120 in flight.
// A store or clear is done (done_o) when its last request is taken. A load of a bin of up to
// 32x32 pixels (its tags name target and line) ends its job when its last read is taken: its
// data still arrives (tail_o) and goes into its slot through the write port while the engine
// already runs the next store through the read port, from another slot (issue 16 item 3:
// the load's latency no longer adds to the engine's time per bin); ld_done_o pulses when
// the last line is written. A 64x64 load is one job until its last response (its tags are
// reused per 128-line chunk). A load never starts during another load's tail.
//
// GMEM (two-level binning, docs/two-level.md "GMEM"): with gmem_i a load reads the tile's
// lines from the slice's GMEM instead of memory and a store writes them there, one line per
// clock each (a GMEM read returns the next cycle: the next line is read while one is
// written); a flush reads a GMEM-resident tile's lines and WRITEs them to memory, for the
// targets asked for (tgt_i first, depth too when clear_d_i), as a clear does. GMEM line of a
// tile: {slot, target, line}, 16 << 2 * l2t lines per target.

`include "prim_assert.svh"

module raster_tile_engine #(
  parameter int unsigned SRC_ID  = 0,   // mem_req_t.src of the slice's port
  parameter int unsigned GMEM_AW = 10   // GMEM line address bits
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  // a job, in a cycle the engine is idle
  input  logic                          start_i,
  input  tessera_raster_pkg::tile_op_e  op_i,
  input  logic                          tgt_i,        // first target: 0 color, 1 depth
  input  logic [6:0]                    tx_i,
  input  logic [6:0]                    ty_i,
  input  logic [1:0]                    slot_i,       // tile-buffer slot (load, store; raster_rb)
  input  logic                          fill_c_i,     // load: fill color with the clear value
  input  logic                          fill_d_i,     // load: fill depth with the clear value
  input  logic                          clear_d_i,    // clear, flush: the depth target too
  input  logic                          gmem_i,       // load, store: GMEM instead of memory
  input  logic [GMEM_AW-5:0]            gslot_i,      // ... the tile's GMEM slot (load, store, flush)
  // the render pass and the tile grid
  input  logic [2:0]                    l2t_i,        // log2(tile) - 4
  input  logic [11:0]                   rtw_i,
  input  logic [11:0]                   rth_i,
  input  logic [31:0]                   caddr_i,
  input  logic [31:0]                   daddr_i,
  input  logic [5:0]                    cdsid_i,
  input  logic [5:0]                    ddsid_i,
  input  logic [31:0]                   cclear_i,
  input  logic [23:0]                   dclear_i,
  // memory: the request, and grant_i when the port takes it this cycle (a request not taken
  // is shown again, unchanged); responses of the engine's reads and of the port's writes
  output logic                          req_valid_o,
  output tessera_mem_pkg::mem_req_t     req_o,
  input  logic                          grant_i,
  input  logic                          rsp_rd_i,
  input  logic                          rsp_wr_i,
  input  logic [7:0]                    rsp_tag_i,
  input  logic [511:0]                  rsp_data_i,
  // tile-buffer line ports (raster_rb): writes (load responses, fills), reads (store)
  output logic                          lwe_o,
  output logic                          ltgt_o,
  output logic [5:0]                    lrow_o,
  output logic [1:0]                    lseg_o,
  output logic [1:0]                    lwslot_o,
  output logic [511:0]                  lwdata_o,
  output logic                          lre_o,
  output logic                          lrtgt_o,
  output logic [5:0]                    lrrow_o,
  output logic [1:0]                    lrseg_o,
  input  logic [511:0]                  lrdata_i,     // the cycle after lre_o
  // GMEM line ports (a prim_ram_2p in the slice): read (load, flush), write (store)
  output logic                          gre_o,
  output logic [GMEM_AW-1:0]            graddr_o,
  input  logic [511:0]                  grdata_i,     // the cycle after gre_o, held until the next
  output logic                          gwe_o,
  output logic [GMEM_AW-1:0]            gwaddr_o,
  output logic [511:0]                  gwdata_o,
  output logic                          gline_rd_o,   // a GMEM line was used (into the tile buffer or memory)
  // state
  output logic                          busy_o,
  output tessera_raster_pkg::tile_op_e  op_o,
  output logic [6:0]                    tx_o,
  output logic [6:0]                    ty_o,
  output logic [1:0]                    slot_o,
  output logic                          done_o,       // pulse: the job is done
  output logic                          tail_o,       // a finished load's data still arrives
  output logic [1:0]                    tail_slot_o,  // ... into this slot
  output logic                          ld_done_o,    // pulse: a load's last line is written
  output logic                          fill_we_o,    // a fill line written this cycle
  output logic                          rd_out_o,     // reads in flight
  output logic                          wr_out_o      // writes not yet acknowledged
);

  tessera_raster_pkg::tile_op_e emode_q, emode_d;
  logic [7:0]  li_q, li_d;
  logic        etgt_q, etgt_d;
  logic        eph_q, eph_d;         // store/clear: 0 read the tile word, 1 write it
  logic        ewait_q, ewait_d;     // load: all lines issued, waiting for the data
  logic        echunk_q, echunk_d;
  logic        ebusy_q, ebusy_d;
  logic [6:0]  etx_q, etx_d, ety_q, ety_d;
  logic [1:0]  eh_q, eh_d;
  logic        efill_c_q, efill_c_d, efill_d_q, efill_d_d;
  logic        ecl_d_q, ecl_d_d;
  logic        egm_q, egm_d;         // load/store: through GMEM
  logic [GMEM_AW-5:0] egs_q, egs_d;  // ... its slot
  logic        e_fill, e_fill_we, e_adv;
  logic [8:0]  rd_out_q, rd_out_d;
  logic [7:0]  wr_out_q, wr_out_d;
  logic [6:0]  wr_tag_q, wr_tag_d;
  logic        tl_q, tl_d;           // a small bin's load has ended its job; data still arrives
  logic [1:0]  tlh_q, tlh_d;         // ... into this slot
  logic        ld_done;

  logic small_bin;
  assign small_bin = (l2t_i != 3'd2);

  // Line li of a tile of 16 << l2t pixels: {row, 16-pixel segment}
  function automatic logic [7:0] line_pos(input logic [2:0] l2t, input logic [7:0] li);
    unique case (l2t)
      3'd0:    line_pos = {2'd0, li[3:0], 2'd0};
      3'd1:    line_pos = {1'd0, li[5:1], 1'b0, li[0]};
      default: line_pos = li;
    endcase
  endfunction

  logic [5:0]  e_row;
  logic [1:0]  e_seg;
  logic [7:0]  e_last;
  assign {e_row, e_seg} = line_pos(l2t_i, li_q);
  assign e_last = (l2t_i == 3'd0) ? 8'd15 : (l2t_i == 3'd1) ? 8'd63 : 8'd255;
  // the next line's position: a store reads line li+1 while line li's write is accepted
  logic [7:0] li_n;
  logic [5:0] e_row_n;
  logic [1:0] e_seg_n;
  assign li_n = li_q + 8'd1;
  assign {e_row_n, e_seg_n} = line_pos(l2t_i, li_n);

  logic [10:0] etile_x, etile_y;
  assign etile_x = 11'({etx_q, 4'd0} << l2t_i);
  assign etile_y = 11'({ety_q, 4'd0} << l2t_i);
  logic [11:0] e_px, e_py;
  logic        e_lvalid;
  logic [31:0] e_addr;
  logic [23:0] e_rowoff;
  assign e_px = 12'(etile_x) + {6'd0, e_seg, 4'd0};
  assign e_py = 12'(etile_y) + {6'd0, e_row};
  assign e_lvalid = (e_px < rtw_i) && (e_py < rth_i);
  assign e_fill = etgt_q ? efill_d_q : efill_c_q;
  assign e_rowoff = e_py * rtw_i;     // 12 x 12 bits
  assign e_addr = (etgt_q ? daddr_i : caddr_i) + ((32'(e_rowoff) + 32'(e_px)) << 2);

  // GMEM line {slot, target, line} of line li (and of li + 1, read ahead)
  function automatic logic [GMEM_AW-1:0] gline(input logic [GMEM_AW-5:0] slot, input logic tgt,
                                               input logic [1:0] l2t, input logic [7:0] li);
    gline = GMEM_AW'(((GMEM_AW+9)'({slot, tgt}) << (4'd4 + {1'b0, l2t, 1'b0})) | (GMEM_AW+9)'(li));
  endfunction
  logic e_gload, e_gflush;
  assign e_gload  = (emode_q == tessera_raster_pkg::TE_LOAD) && egm_q;
  assign e_gflush = (emode_q == tessera_raster_pkg::TE_FLUSH);

  // response decode
  logic [7:0] r_li;
  logic [5:0] r_row;
  logic [1:0] r_seg;
  logic       r_tgt;
  assign r_li  = small_bin ? {2'b00, rsp_tag_i[5:0]} : {echunk_q, rsp_tag_i[6:0]};
  assign r_tgt = small_bin ? rsp_tag_i[6] : etgt_q;
  assign {r_row, r_seg} = line_pos(l2t_i, r_li);

  logic [511:0] clr_line;
  assign clr_line = etgt_q ? {16{8'd0, dclear_i}} : {16{cclear_i}};

  logic e_done, next_line, wrote;
  always_comb begin
    next_line = 1'b0;
    wrote = 1'b0;
    emode_d = emode_q;  li_d = li_q;  etgt_d = etgt_q;  eph_d = eph_q;  ewait_d = ewait_q;
    echunk_d = echunk_q;  ebusy_d = ebusy_q;  wr_tag_d = wr_tag_q;
    etx_d = etx_q;  ety_d = ety_q;  eh_d = eh_q;
    efill_c_d = efill_c_q;  efill_d_d = efill_d_q;  ecl_d_d = ecl_d_q;
    egm_d = egm_q;  egs_d = egs_q;
    gre_o = 1'b0;  graddr_o = gline(egs_q, etgt_q, l2t_i[1:0], li_q);
    gwe_o = 1'b0;  gwaddr_o = gline(egs_q, etgt_q, l2t_i[1:0], li_q);
    e_done = 1'b0;
    req_valid_o = 1'b0;
    req_o = '0;
    req_o.src = tessera_mem_pkg::SRC_W'(SRC_ID);
    lre_o = 1'b0;
    lrtgt_o = etgt_q;  lrrow_o = e_row;  lrseg_o = e_seg;
    ltgt_o = etgt_q;  lrow_o = e_row;  lseg_o = e_seg;
    lwe_o = rsp_rd_i;
    tl_d = tl_q;  tlh_d = tlh_q;  ld_done = 1'b0;
    // the tail of a load: its last response written ends it
    if (tl_q && rsp_rd_i && rd_out_q == 9'd1) begin
      tl_d = 1'b0;
      ld_done = 1'b1;
    end
    e_fill_we = 1'b0;
    e_adv = 1'b0;
    if (rsp_rd_i) begin
      ltgt_o = r_tgt;  lrow_o = r_row;  lseg_o = r_seg;
    end
    if (start_i) begin
      ebusy_d = 1'b1;  emode_d = op_i;  etgt_d = tgt_i;
      li_d = '0;  eph_d = 1'b0;  ewait_d = 1'b0;
      etx_d = tx_i;  ety_d = ty_i;  eh_d = slot_i;
      efill_c_d = fill_c_i;  efill_d_d = fill_d_i;  ecl_d_d = clear_d_i;
      egm_d = gmem_i;  egs_d = gslot_i;
    end else if (ebusy_q) begin
      if (ewait_q && small_bin) begin
        // every read issued: the job ends, its data goes on arriving in the tail
        ebusy_d = 1'b0;
        ewait_d = 1'b0;
        li_d = '0;
        if (rd_out_q == '0 || (rsp_rd_i && rd_out_q == 9'd1)) begin
          ld_done = 1'b1;
        end else begin
          tl_d = 1'b1;
          tlh_d = eh_q;
        end
      end else if (ewait_q) begin
        if (rd_out_q == '0 && !rsp_rd_i) next_line = 1'b1;
      end else if (!e_lvalid) begin
        next_line = 1'b1;
      end else if (e_gload && !eph_q) begin
        gre_o = 1'b1;                       // GMEM -> tile buffer: read the line ...
        eph_d = 1'b1;
      end else if (e_gload) begin
        // ... and write it on a cycle no load response needs the write port
        if (!rsp_rd_i) begin
          e_fill_we = 1'b1;
          lwe_o     = 1'b1;
          next_line = 1'b1;
          wrote     = 1'b1;
        end
      end else if (emode_q == tessera_raster_pkg::TE_LOAD) begin
        if (e_fill) begin
          // clear pending (fast clear): the clear value straight into the tile buffer, one
          // line per clock, on the cycles no load response needs the write port
          e_fill_we = !rsp_rd_i;
          lwe_o     = lwe_o || e_fill_we;
          e_adv     = e_fill_we;
        end else if (!(li_q[6:0] == 7'd0 && li_q != 8'd0 && rd_out_q != '0)) begin
          req_valid_o = 1'b1;
          req_o.op    = tessera_mem_pkg::MEM_OP_READ;
          req_o.addr  = e_addr;
          req_o.tag   = small_bin ? {1'b0, etgt_q, li_q[5:0]} : {1'b0, li_q[6:0]};
          e_adv       = grant_i;
        end
        if (e_adv) begin
          echunk_d = li_q[7];
          if (li_q != e_last) begin
            li_d = li_q + 8'd1;
          end else if (small_bin && !etgt_q) begin
            etgt_d = 1'b1;  li_d = '0;      // straight on to the depth lines
          end else begin
            ewait_d = 1'b1;
          end
        end
      end else if (!eph_q) begin
        lre_o = (emode_q == tessera_raster_pkg::TE_STORE);   // the read port: no response conflicts
        gre_o = e_gflush;
        eph_d = 1'b1;
      end else if (emode_q == tessera_raster_pkg::TE_STORE && egm_q) begin
        gwe_o = 1'b1;                       // tile buffer -> GMEM: no port to wait for
        next_line = 1'b1;
        wrote = 1'b1;
      end else if (wr_out_q < 8'd120) begin
        req_valid_o = 1'b1;
        req_o.op    = tessera_mem_pkg::MEM_OP_WRITE;
        req_o.addr  = e_addr;
        req_o.dsid  = etgt_q ? ddsid_i : cdsid_i;
        req_o.tag   = {1'b1, wr_tag_q};
        req_o.wstrb = '1;
        req_o.wdata = (emode_q == tessera_raster_pkg::TE_CLEAR) ? clr_line : e_gflush ? grdata_i : lrdata_i;
        if (grant_i) begin
          wr_tag_d = (wr_tag_q == 7'd127) ? 7'd8 : wr_tag_q + 7'd1;
          eph_d = 1'b0;
          next_line = 1'b1;
          wrote = 1'b1;
        end
      end
      if (next_line) begin
        eph_d = 1'b0;
        if (emode_q == tessera_raster_pkg::TE_LOAD && !egm_q && !ewait_q && li_q == e_last &&
            small_bin && !etgt_q) begin
          etgt_d = 1'b1;  li_d = '0;          // a skipped last color line
        end else if (emode_q == tessera_raster_pkg::TE_LOAD && !egm_q && !ewait_q && li_q == e_last) begin
          ewait_d = 1'b1;   // a skipped last line: wait for the data of the others
        end else if (li_q != e_last) begin
          li_d = li_q + 8'd1;
          // back-to-back writes: fetch the next line's word now (one line per clock)
          if (wrote) begin
            eph_d    = 1'b1;
            lre_o    = (emode_q == tessera_raster_pkg::TE_STORE);
            lrrow_o  = e_row_n;
            lrseg_o  = e_seg_n;
            gre_o    = e_gload || e_gflush;
            graddr_o = gline(egs_q, etgt_q, l2t_i[1:0], li_n);
          end
        end else begin
          ewait_d = 1'b0;
          li_d = '0;
          // next target: load/store do color then depth; clear and flush the ones asked for
          if (!etgt_q && ((emode_q != tessera_raster_pkg::TE_CLEAR && !e_gflush) || ecl_d_q)) begin
            etgt_d = 1'b1;
          end else begin
            ebusy_d = 1'b0;
            e_done  = 1'b1;
          end
        end
      end
    end
  end
  assign lwdata_o = (e_fill_we && egm_q) ? grdata_i : e_fill_we ? clr_line : rsp_data_i;
  assign gwdata_o = lrdata_i;
  assign gline_rd_o = (e_fill_we && egm_q) ||
                      (e_gflush && req_valid_o && grant_i && req_o.op == tessera_mem_pkg::MEM_OP_WRITE);
  assign lwslot_o = tl_q ? tlh_q : eh_q;

  always_comb begin
    rd_out_d = rd_out_q;
    wr_out_d = wr_out_q;
    if (req_valid_o && grant_i && req_o.op == tessera_mem_pkg::MEM_OP_READ) rd_out_d = rd_out_d + 9'd1;
    if (rsp_rd_i) rd_out_d = rd_out_d - 9'd1;
    if (req_valid_o && grant_i && req_o.op == tessera_mem_pkg::MEM_OP_WRITE) wr_out_d = wr_out_d + 8'd1;
    if (rsp_wr_i) wr_out_d = wr_out_d - 8'd1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      emode_q <= tessera_raster_pkg::TE_LOAD;
      li_q <= '0;
      etgt_q <= 1'b0;
      eph_q <= 1'b0;
      ewait_q <= 1'b0;
      echunk_q <= 1'b0;
      ebusy_q <= 1'b0;
      etx_q <= '0;
      ety_q <= '0;
      eh_q <= '0;
      efill_c_q <= 1'b0;
      efill_d_q <= 1'b0;
      ecl_d_q <= 1'b0;
      egm_q <= 1'b0;
      egs_q <= '0;
      rd_out_q <= '0;
      wr_out_q <= '0;
      wr_tag_q <= 7'd8;
      tl_q <= 1'b0;
      tlh_q <= '0;
    end else begin
      emode_q <= emode_d;
      li_q <= li_d;
      etgt_q <= etgt_d;
      eph_q <= eph_d;
      ewait_q <= ewait_d;
      echunk_q <= echunk_d;
      ebusy_q <= ebusy_d;
      etx_q <= etx_d;
      ety_q <= ety_d;
      eh_q <= eh_d;
      efill_c_q <= efill_c_d;
      efill_d_q <= efill_d_d;
      ecl_d_q <= ecl_d_d;
      egm_q <= egm_d;
      egs_q <= egs_d;
      rd_out_q <= rd_out_d;
      wr_out_q <= wr_out_d;
      wr_tag_q <= wr_tag_d;
      tl_q <= tl_d;
      tlh_q <= tlh_d;
    end
  end

  assign busy_o    = ebusy_q;
  assign op_o      = emode_q;
  assign tx_o      = etx_q;
  assign ty_o      = ety_q;
  assign slot_o    = eh_q;
  assign done_o    = e_done;
  assign tail_o    = tl_q;
  assign tail_slot_o = tlh_q;
  assign ld_done_o = ld_done || (e_done && emode_q == tessera_raster_pkg::TE_LOAD);
  assign fill_we_o = e_fill_we;
  assign rd_out_o  = (rd_out_q != '0);
  assign wr_out_o  = (wr_out_q != '0);

  logic unused_te;
  assign unused_te = ^{rsp_tag_i[7], etile_x[10], etile_y[10]};

  `ASSERT(TeStartIdle_A, start_i |-> !ebusy_q)
  `ASSERT(TeReadExpected_A, rsp_rd_i |-> rd_out_q != '0)
  `ASSERT(TeWriteExpected_A, rsp_wr_i |-> wr_out_q != '0)
  `ASSERT(TeFillOnlyOnLoad_A, e_fill_we |-> ebusy_q && emode_q == tessera_raster_pkg::TE_LOAD && !rsp_rd_i)
  `ASSERT(TeWriteTagNotFs_A, req_valid_o && req_o.op == tessera_mem_pkg::MEM_OP_WRITE |-> req_o.tag[7:3] != 5'b10000)
  // a load's responses are written only while the load waits for them
  `ASSERT(TeResponseInLoad_A, rsp_rd_i |-> (ebusy_q && emode_q == tessera_raster_pkg::TE_LOAD) || tl_q)
  // no load starts in a tail (its tags would meet the tail's); a tail is a small bin's, and
  // the store beside it reads another slot
  `ASSERT(TeNoLoadInTail_A, start_i && tl_q |-> op_i != tessera_raster_pkg::TE_LOAD)
  `ASSERT(TeTailSmallBin_A, tl_q |-> small_bin)
  `ASSERT(TeTailOtherHalf_A, tl_q && lre_o |-> eh_q != tlh_q)
  // GMEM: a resident tile has no clear pending (its first load filled it); a GMEM load never
  // meets a tail or a response (it starts only after the tail, and issues no reads); only
  // loads and stores go through GMEM, and only GMEM jobs touch its ports
  `ASSERT(TeGmemNoFill_A, start_i && gmem_i |-> !fill_c_i && !fill_d_i)
  `ASSERT(TeGmemOnlyLoadStore_A, start_i && gmem_i |-> op_i == tessera_raster_pkg::TE_LOAD ||
                                                       op_i == tessera_raster_pkg::TE_STORE)
  `ASSERT(TeGmemLoadNoTail_A, ebusy_q && e_gload |-> !tl_q && !rsp_rd_i)
  `ASSERT(TeGmemPorts_A, gre_o || gwe_o |-> ebusy_q && (egm_q || e_gflush))

endmodule
