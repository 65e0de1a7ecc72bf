// slc -- system-level cache (the UCHE of ARCHITECTURE.md) with DSID-tagged lines and the
// delete hint.
//
// Source document: 002_b7e5b877a4121c28.txt (Apple, "Memory cache management for graphics
// processing"): the write command "associates the cache line with the DSID"; the delete
// command makes "the memory cache ... delete the cache line (e.g., dirty cache line) without
// flushing the content to the system memory", while "where the memory cache has persisted the
// cache line to system memory, the memory cache does not delete the contents"; the default
// (zero) hardware DSID is "a normal cache line" that does not benefit from deletion.
// Design: ARCHITECTURE.md section 5.5 (SLC with DSIDs), section 3 (internal memory protocol,
// rtl/mem/tessera_mem_pkg.sv). Full description, deviations and figures: docs/slc.md.
//
// Organisation: SIZE_BYTES / 64 lines, WAYS ways, Sets = lines / WAYS sets, set index =
// addr[6 +: SetW], write-back, write-allocate, tree pseudo-LRU (prim_plru). Per line: valid,
// dirty, prefetched-and-unused, DSID of the last writer (a READ or PREFETCH fill installs
// DSID 0; a WRITE sets the writer's DSID), address tag. Arrays, all through the prim_ram_*
// wrappers: tag/state RAM (prim_ram_2p, one word per set, one mask group per way), PLRU RAM
// (prim_ram_2p, WAYS-1 bits per set), data RAM (prim_ram_1p, line per {set, way}, byte mask).
//
// Pipeline (one slot per cycle; a slot is a request, a fill, or a maintenance step):
//   S0  pick the slot (fill > replay > maintenance > new request), read tag and PLRU RAMs.
//   S1  tag compare (with a one-entry bypass of the previous cycle's tag/PLRU write), decide,
//       write tags/PLRU, one data RAM access (hit read, hit write, fill write, victim read).
//   S2  data RAM output -> response FIFO (upstream) or writeback FIFO (downstream).
// Hits run at one per clock. A miss takes an MSHR (NUM_MSHR of them) and the pipeline goes
// on: hit-under-miss, miss-under-miss. A request that cannot proceed (its line is in an MSHR,
// no MSHR / writeback slot / way free) is replayed from S0; the requests behind it wait, so
// requests are performed in the order they were accepted. Responses return out of order
// (a hit overtakes an older miss), matched by src/tag as the protocol allows.
//
// Maintenance (CMD register, queued in slc_regs): the SLC stops accepting requests, drains
// (pipeline, MSHRs, writebacks acknowledged), then walks the tag RAM: DELETE one set per cycle
// dropping lines of the DSID, from the lowest set a line of the DSID was installed in since its
// occupancy was last 0 (per-DSID register) until its occupancy counter reaches 0 (finishes at
// once when it is 0 or the DSID is 0), FLUSH writes back dirty lines (stops when no dirty line
// is left), INVALIDATE drops everything. Completion: ctrl_done_o pulse, STATUS.done.

`include "prim_assert.svh"

module slc #(
  parameter int unsigned SIZE_BYTES      = 131072,  // capacity; a power of 2
  parameter int unsigned WAYS            = 8,       // a power of 2, >= 2
  parameter int unsigned NUM_MSHR        = 8,       // outstanding misses, 1..63
  parameter int unsigned NUM_WB          = 4,       // outstanding writebacks, 1..63
  parameter int unsigned RSP_DEPTH       = 4,       // upstream response FIFO, >= 2
  parameter int unsigned CMD_DEPTH       = 4,       // maintenance command queue, 1..7
  parameter int unsigned SRC_ID          = 0,       // src of the SLC's own memory requests
  parameter logic [31:0] MEM_LIMIT_RESET = tessera_spec_pkg::TS_SLC_MEM_LIMIT_RESET
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  // upstream: requests from the crossbar, responses back to it
  input  logic                         up_req_valid_i,
  output logic                         up_req_ready_o,
  input  tessera_mem_pkg::mem_req_t    up_req_i,
  output logic                         up_rsp_valid_o,
  input  logic                         up_rsp_ready_i,
  output tessera_mem_pkg::mem_rsp_t    up_rsp_o,
  // downstream: line fills (READ) and writebacks (WRITE, all strobes) towards memory
  output logic                         dn_req_valid_o,
  input  logic                         dn_req_ready_i,
  output tessera_mem_pkg::mem_req_t    dn_req_o,
  input  logic                         dn_rsp_valid_i,
  output logic                         dn_rsp_ready_o,
  input  tessera_mem_pkg::mem_rsp_t    dn_rsp_i,
  // register bus (spec/registers/slc.yaml)
  input  logic                         reg_req_valid_i,
  output logic                         reg_req_ready_o,
  input  tessera_regbus_pkg::reg_req_t reg_req_i,
  output logic                         reg_rsp_valid_o,
  output tessera_regbus_pkg::reg_rsp_t reg_rsp_o,
  // maintenance: busy level, one-cycle pulse per completed command
  output logic                         ctrl_busy_o,
  output logic                         ctrl_done_o,
  // CNT_HITS and CNT_MISSES as the registers read them (the tile prefetcher's hit rate)
  output logic [31:0]                  cnt_hits_o,
  output logic [31:0]                  cnt_misses_o
);

  // ---- derived parameters -------------------------------------------------------------------
  localparam int unsigned LineBytes = tessera_mem_pkg::LINE_BYTES;
  localparam int unsigned LineW     = tessera_mem_pkg::LINE_W;
  localparam int unsigned OffW      = tessera_mem_pkg::OFFSET_W;
  localparam int unsigned AddrW     = tessera_mem_pkg::ADDR_W;
  localparam int unsigned DsidW     = tessera_mem_pkg::DSID_W;
  localparam int unsigned NumDsid   = tessera_mem_pkg::NUM_HW_DSID;
  localparam int unsigned ReqW      = tessera_mem_pkg::MEM_REQ_W;
  localparam int unsigned RspW      = tessera_mem_pkg::MEM_RSP_W;
  localparam int unsigned MTagW     = tessera_mem_pkg::TAG_W;
  localparam int unsigned SrcW      = tessera_mem_pkg::SRC_W;
  localparam int unsigned Lines     = SIZE_BYTES / LineBytes;
  localparam int unsigned Sets      = Lines / WAYS;
  localparam int unsigned SetW      = (Sets > 1) ? $clog2(Sets) : 1;
  localparam int unsigned WayW      = $clog2(WAYS);
  localparam int unsigned LineAW    = AddrW - OffW;             // line address bits
  localparam int unsigned TagW      = LineAW - SetW;            // address tag bits
  localparam int unsigned EntW      = TagW + DsidW + 3;         // one way's tag/state entry
  localparam int unsigned PlruW     = WAYS - 1;
  localparam int unsigned MshrW     = (NUM_MSHR > 1) ? $clog2(NUM_MSHR) : 1;
  localparam int unsigned WbW       = (NUM_WB > 1) ? $clog2(NUM_WB) : 1;
  localparam int unsigned OccW      = $clog2(Lines + 1);
  localparam int unsigned AmtW      = $clog2(WAYS + 1);         // per-cycle counter increment
  localparam int unsigned RspDepthW = $clog2(RSP_DEPTH + 1);
  localparam int unsigned WbEntW    = LineAW + DsidW + WbW + LineW;
  localparam int unsigned NumCnt    = 17;
  localparam int unsigned ArbN      = NUM_MSHR + 1;             // writeback FIFO + MSHR fills
  localparam int unsigned ArbIdxW   = $clog2(ArbN);
  localparam int unsigned MTagLoW   = MTagW - 1;                // tag bits below the kind bit
  localparam int unsigned ReqDsidLsb = LineW + LineBytes + MTagW + SrcW;  // mem_req_t.dsid

  // Entry layout, LSB first: tag, dsid, prefetched, dirty, valid.
  localparam int unsigned EDsid  = TagW;
  localparam int unsigned EPf    = TagW + DsidW;
  localparam int unsigned EDirty = EPf + 1;
  localparam int unsigned EValid = EPf + 2;

  // Statistics counters, in register order (CNT_READS .. CNT_MEM_ERRORS).
  localparam int unsigned CReads = 0, CWrites = 1, CPrefetches = 2, CHits = 3, CMisses = 4,
                          CEvictions = 5, CWritebacks = 6, CFills = 7, CDelDirty = 8,
                          CDelClean = 9, CPfFills = 10, CPfUsed = 11, CPfUnused = 12,
                          CErrors = 13, CInvalDirty = 14, CMemErrors = 15, CPfDropped = 16;

  localparam logic [1:0] OpRead  = tessera_mem_pkg::MEM_OP_READ;
  localparam logic [1:0] OpWrite = tessera_mem_pkg::MEM_OP_WRITE;
  localparam logic [1:0] OpPref  = tessera_mem_pkg::MEM_OP_PREFETCH;
  localparam logic [1:0] CmdNone = tessera_spec_pkg::TS_SLC_CMD_NONE;
  localparam logic [1:0] CmdDel  = tessera_spec_pkg::TS_SLC_CMD_DELETE;
  localparam logic [1:0] CmdFlush = tessera_spec_pkg::TS_SLC_CMD_FLUSH;
  localparam logic [1:0] CmdInval = tessera_spec_pkg::TS_SLC_CMD_INVALIDATE;

  localparam logic [SetW-1:0] SetLast = SetW'(Sets - 1);

  // Pipeline slot kinds.
  typedef enum logic [2:0] {
    K_REQ  = 3'd0,  // upstream request (new or replayed)
    K_FILL = 3'd1,  // install an MSHR's line (memory response, or a full-line write)
    K_DEL  = 3'd2,  // DELETE step: drop the set's lines of the DSID
    K_INV  = 3'd3,  // INVALIDATE step: drop the set's lines
    K_INIT = 3'd4,  // after reset: clear the set's tags and PLRU bits
    K_FLR  = 3'd5,  // FLUSH step: read the set, report its dirty ways
    K_FWB  = 3'd6   // FLUSH step: write back one dirty way, mark it clean
  } kind_e;

  // Maintenance states.
  typedef enum logic [3:0] {
    M_INIT     = 4'd0,
    M_IDLE     = 4'd1,
    M_DRAIN    = 4'd2,
    M_DEL      = 4'd3,
    M_INV      = 4'd4,
    M_FL_READ  = 4'd5,
    M_FL_WAITR = 4'd6,
    M_FL_WB    = 4'd7,
    M_FL_WAITW = 4'd8,
    M_FL_NEXT  = 4'd9,
    M_FINISH   = 4'd10,
    M_DONE     = 4'd11
  } mstate_e;

  // ---- declarations -------------------------------------------------------------------------
  // registers (slc_regs)
  logic                 cmd_valid, cmd_done;
  logic [1:0]           cmd_op, running;
  logic [DsidW-1:0]     cmd_dsid, occ_sel;
  logic [31:0]          mem_limit;
  logic [7:0]           way_limit;
  logic                 clear_counters;
  logic [NumCnt*32-1:0] counters;

  // S1 / S2 pipeline registers
  logic                       s1_valid_d, s1_valid_q;
  kind_e                      s1_kind_d, s1_kind_q;
  tessera_mem_pkg::mem_req_t  s1_req_d, s1_req_q;     // FILL: wdata holds the memory data
  logic [SetW-1:0]            s1_set_d, s1_set_q;
  logic [WayW-1:0]            s1_way_d, s1_way_q;
  logic [MshrW-1:0]           s1_mshr_d, s1_mshr_q;
  logic                       s1_err_d, s1_err_q;     // FILL: memory answered err
  logic                       s1_replay_d, s1_replay_q;

  logic                       s2_any_q;       // a slot left S1 last cycle (its counters update now)
  logic                       s2_rsp_push_d, s2_rsp_push_q;
  logic [1:0]                 s2_rsp_op_d, s2_rsp_op_q;
  logic                       s2_rsp_err_d, s2_rsp_err_q;
  logic [SrcW-1:0]            s2_rsp_src_d, s2_rsp_src_q;
  logic [MTagW-1:0]           s2_rsp_tag_d, s2_rsp_tag_q;
  logic                       s2_rsp_ram_d, s2_rsp_ram_q;  // rdata from the data RAM
  logic [LineW-1:0]           s2_line_d, s2_line_q;        // rdata otherwise
  logic                       s2_wb_push_d, s2_wb_push_q;
  logic [LineAW-1:0]          s2_wb_line_d, s2_wb_line_q;
  logic [DsidW-1:0]           s2_wb_dsid_d, s2_wb_dsid_q;
  logic [WbW-1:0]             s2_wb_idx_d, s2_wb_idx_q;

  // tag/state, PLRU and data RAMs
  logic                   tag_re, tag_we;
  logic [SetW-1:0]        tag_raddr, tag_waddr;
  logic [WAYS*EntW-1:0]   tag_wdata, tag_rdata;
  logic [WAYS-1:0]        tag_wmask;
  logic                   unused_tag_rvalid, unused_plru_rvalid, unused_data_rvalid;
  logic                   plru_we;
  logic [PlruW-1:0]       plru_wdata, plru_rdata;
  logic                   d_req, d_we;
  logic [SetW+WayW-1:0]   d_addr;
  logic [LineW-1:0]       d_wdata, d_rdata;
  logic [LineBytes-1:0]   d_wmask;

  // bypass of the previous cycle's tag / PLRU write into S1
  logic                   byp_valid_d, byp_valid_q, pbyp_valid_d, pbyp_valid_q;
  logic                   byp_same_d, byp_same_q;  // S1's set is the one written last cycle
  logic [WAYS-1:0]        byp_mask_d, byp_mask_q;
  logic [WAYS*EntW-1:0]   byp_data_d, byp_data_q;
  logic [PlruW-1:0]       pbyp_data_d, pbyp_data_q;

  // replay queue (2 entries, r0 = head)
  logic                       r0_valid_d, r0_valid_q, r1_valid_d, r1_valid_q;
  logic                       r0_inflight_d, r0_inflight_q;
  tessera_mem_pkg::mem_req_t  r0_d, r0_q, r1_d, r1_q;

  // MSHRs
  logic [NUM_MSHR-1:0]         mshr_valid_d, mshr_valid_q;
  logic [NUM_MSHR-1:0]         mshr_local_d, mshr_local_q;    // full-line write: no fill read
  logic [NUM_MSHR-1:0]         mshr_issued_d, mshr_issued_q;  // fill READ sent downstream
  logic [NUM_MSHR-1:0]         mshr_wbwait_d, mshr_wbwait_q;  // a writeback of the line is out
  logic [NUM_MSHR*LineAW-1:0]  mshr_line_d, mshr_line_q;
  logic [NUM_MSHR*WayW-1:0]    mshr_way_d, mshr_way_q;
  logic [NUM_MSHR*ReqW-1:0]    mshr_req_d, mshr_req_q;

  // writeback table (one entry per outstanding writeback, from S1 to the memory's ack)
  logic [NUM_WB-1:0]           wb_valid_d, wb_valid_q;
  logic [NUM_WB*LineAW-1:0]    wb_line_d, wb_line_q;

  // maintenance
  mstate_e                mstate_d, mstate_q;
  logic [SetW-1:0]        walk_set_d, walk_set_q;
  logic [WAYS-1:0]        fl_dmask_d, fl_dmask_q;

  // ---- register block -----------------------------------------------------------------------
  logic [NumDsid*OccW-1:0] occ_flat;       // DSID i at [i*OccW +: OccW]
  logic [OccW-1:0]        occ_sel_val, occ_cmd;
  // Per DSID, the lowest set a line of it was installed in since its occupancy was last 0: no
  // line of the DSID lives below it, so a DELETE walk starts there (docs/slc.md "DELETE").
  logic [NumDsid*SetW-1:0] dlo_d, dlo_q;
  logic [SetW-1:0]        dlo_cmd;
  logic [OccW-1:0]        vtot, dtot;
  logic                   init_busy;

  slc_regs #(
    .WAYS            (WAYS),
    .SET_W           (SetW),
    .NUM_MSHR        (NUM_MSHR),
    .NUM_WB          (NUM_WB),
    .CMD_DEPTH       (CMD_DEPTH),
    .NUM_CNT         (NumCnt),
    .MEM_LIMIT_RESET (MEM_LIMIT_RESET)
  ) u_regs (
    .clk_i,
    .rst_ni,
    .reg_req_valid_i,
    .reg_req_ready_o,
    .reg_req_i,
    .reg_rsp_valid_o,
    .reg_rsp_o,
    .cmd_valid_o      (cmd_valid),
    .cmd_op_o         (cmd_op),
    .cmd_dsid_o       (cmd_dsid),
    .cmd_done_i       (cmd_done),
    .init_busy_i      (init_busy),
    .running_i        (running),
    .occ_i            (16'(occ_sel_val)),
    .valid_lines_i    (16'(vtot)),
    .dirty_lines_i    (16'(dtot)),
    .counters_i       (counters),
    .mem_limit_o      (mem_limit),
    .way_limit_o      (way_limit),
    .occ_sel_o        (occ_sel),
    .clear_counters_o (clear_counters)
  );

  // ---- S1: tag/state view with bypass ---------------------------------------------------------
  logic [WAYS*EntW-1:0] ent;           // the set's entries as S1 sees them
  logic [PlruW-1:0]     plru;
  logic [WAYS-1:0]      w_valid, w_dirty, w_pf;
  logic [WAYS*DsidW-1:0] w_dsid;
  logic [WAYS*TagW-1:0] w_tag;

  always_comb begin
    ent = tag_rdata;
    if (byp_valid_q && byp_same_q) begin
      for (int unsigned w = 0; w < WAYS; w++) begin
        if (byp_mask_q[w]) begin
          ent[w*EntW +: EntW] = byp_data_q[w*EntW +: EntW];
        end
      end
    end
    plru = (pbyp_valid_q && byp_same_q) ? pbyp_data_q : plru_rdata;
    for (int unsigned w = 0; w < WAYS; w++) begin
      w_valid[w] = ent[w*EntW + EValid];
      w_dirty[w] = ent[w*EntW + EDirty];
      w_pf[w]    = ent[w*EntW + EPf];
      w_dsid[w*DsidW +: DsidW] = ent[w*EntW + EDsid +: DsidW];
      w_tag[w*TagW +: TagW]    = ent[w*EntW +: TagW];
    end
  end

  function automatic logic [EntW-1:0] mk_ent(input logic valid, input logic dirty, input logic pf,
                                             input logic [DsidW-1:0] dsid,
                                             input logic [TagW-1:0] tag);
    mk_ent = {valid, dirty, pf, dsid, tag};
  endfunction

  // ---- S1: request lookup -------------------------------------------------------------------
  tessera_mem_pkg::mem_req_t s1_req;
  logic [1:0]          s1_op;
  logic [LineAW-1:0]   s1_line;
  logic [TagW-1:0]     s1_tag;
  logic [WAYS-1:0]     hit_vec, pend_vec, free_vec;
  logic                hit, has_free, mshr_conflict;
  logic [WayW-1:0]     hit_way, free_way, valid_way, plru_victim, victim;
  logic                victim_ok;
  logic                any_valid;
  logic [WAYS-1:0]     unused_hit_oh, unused_free_oh, unused_valid_oh;
  logic                unused_hit_any, unused_free_any;

  assign s1_req  = s1_req_q;
  assign s1_op   = s1_req.op;
  assign s1_line = s1_req.addr[AddrW-1:OffW];
  assign s1_tag  = s1_req.addr[AddrW-1 -: TagW];

  always_comb begin
    mshr_conflict = 1'b0;
    pend_vec      = '0;
    for (int unsigned m = 0; m < NUM_MSHR; m++) begin
      if (mshr_valid_q[m] && mshr_line_q[m*LineAW +: LineAW] == s1_line) begin
        mshr_conflict = 1'b1;
      end
      if (mshr_valid_q[m] && mshr_line_q[m*LineAW +: SetW] == s1_set_q) begin
        pend_vec[mshr_way_q[m*WayW +: WayW]] = 1'b1;
      end
    end
    for (int unsigned w = 0; w < WAYS; w++) begin
      hit_vec[w] = w_valid[w] && (w_tag[w*TagW +: TagW] == s1_tag);
    end
  end
  assign hit      = |hit_vec;

  // WAY_LIMIT (cache partitioning): allocation may use ways [0, WAYS >> left_levels) only, the
  // largest power of two not above the limit; 0 or >= WAYS allows every way.
  logic [WayW:0]   left_levels;
  logic [WAYS-1:0] allow_vec;
  always_comb begin
    left_levels = '0;
    for (int unsigned k = 1; k <= WayW; k++) begin
      if (way_limit != '0 && 32'(way_limit) < (WAYS >> (k - 1))) left_levels = (WayW + 1)'(k);
    end
    for (int unsigned w = 0; w < WAYS; w++) begin
      allow_vec[w] = (w < (WAYS >> left_levels));
    end
  end
  assign free_vec = ~w_valid & ~pend_vec & allow_vec;

  prim_priority_enc #(.WIDTH(WAYS)) u_hit_enc (
    .in_i (hit_vec), .onehot_o (unused_hit_oh), .idx_o (hit_way), .valid_o (unused_hit_any));
  prim_priority_enc #(.WIDTH(WAYS)) u_free_enc (
    .in_i (free_vec), .onehot_o (unused_free_oh), .idx_o (free_way), .valid_o (has_free));
  prim_priority_enc #(.WIDTH(WAYS)) u_valid_enc (
    .in_i (w_valid & allow_vec), .onehot_o (unused_valid_oh), .idx_o (valid_way), .valid_o (any_valid));

  logic [PlruW-1:0] plru_touched;
  logic [WayW-1:0]  plru_touch_way;
  assign plru_touch_way = hit ? hit_way : victim;  // a hit's way, or the way a miss takes
  prim_plru #(.WAYS(WAYS)) u_plru (
    .bits_i      (plru),
    .left_levels_i(left_levels),
    .touch_way_i (plru_touch_way),
    .victim_o    (plru_victim),
    .bits_o      (plru_touched)
  );

  // Victim: an invalid way no miss has reserved, else the PLRU way if it holds a line, else
  // the lowest way holding a line (the PLRU way is reserved by an outstanding miss). Valid
  // ways are never reserved (a reservation invalidates the way). All within WAY_LIMIT's ways.
  always_comb begin
    victim_ok = 1'b1;
    if (has_free) begin
      victim = free_way;
    end else if (w_valid[plru_victim]) begin
      victim = plru_victim;
    end else begin
      victim    = valid_way;
      victim_ok = any_valid;
    end
  end

  // A dirty victim whose line still has a writeback outstanding (it was evicted, rewritten by a
  // full-line write and evicted again) waits: two writebacks of one line are never in flight,
  // so the memory need not order them.
  // A miss whose own line has a writeback outstanding records it: its fill waits for the ack.
  logic victim_wb_busy, s1_line_wb_busy;
  always_comb begin
    victim_wb_busy  = 1'b0;
    s1_line_wb_busy = 1'b0;
    for (int unsigned k = 0; k < NUM_WB; k++) begin
      if (wb_valid_q[k] && wb_line_q[k*LineAW +: LineAW] == {w_tag[victim*TagW +: TagW], s1_set_q}) begin
        victim_wb_busy = 1'b1;
      end
      if (wb_valid_q[k] && wb_line_q[k*LineAW +: LineAW] == s1_line) begin
        s1_line_wb_busy = 1'b1;
      end
    end
  end

  // ---- S1: delete / flush / invalidate helpers ------------------------------------------------
  logic [WAYS-1:0] del_match, del_match_dirty, del_match_clean, vd_vec;
  logic [AmtW-1:0] del_cnt, del_dirty_cnt, del_clean_cnt, vd_cnt, valid_cnt;
  always_comb begin
    for (int unsigned w = 0; w < WAYS; w++) begin
      del_match[w] = w_valid[w] && (w_dsid[w*DsidW +: DsidW] == cmd_dsid);
    end
  end
  assign del_match_dirty = del_match & w_dirty;
  assign del_match_clean = del_match & ~w_dirty;
  assign vd_vec          = w_valid & w_dirty;
  prim_popcount #(.WIDTH(WAYS)) u_pc_del   (.in_i (del_match),       .cnt_o (del_cnt));
  prim_popcount #(.WIDTH(WAYS)) u_pc_deld  (.in_i (del_match_dirty), .cnt_o (del_dirty_cnt));
  prim_popcount #(.WIDTH(WAYS)) u_pc_delc  (.in_i (del_match_clean), .cnt_o (del_clean_cnt));
  prim_popcount #(.WIDTH(WAYS)) u_pc_vd    (.in_i (vd_vec),          .cnt_o (vd_cnt));
  prim_popcount #(.WIDTH(WAYS)) u_pc_valid (.in_i (w_valid),         .cnt_o (valid_cnt));

  // ---- free MSHR / writeback slot ---------------------------------------------------------------
  logic             mshr_has_free, wb_has_free;
  logic [MshrW-1:0] mshr_free_idx;
  logic [WbW-1:0]   wb_free_idx;
  logic [NUM_MSHR-1:0] unused_mshr_oh;
  logic [NUM_WB-1:0]   unused_wb_oh;
  prim_priority_enc #(.WIDTH(NUM_MSHR)) u_mshr_free (
    .in_i (~mshr_valid_q), .onehot_o (unused_mshr_oh), .idx_o (mshr_free_idx),
    .valid_o (mshr_has_free));
  prim_priority_enc #(.WIDTH(NUM_WB)) u_wb_free (
    .in_i (~wb_valid_q), .onehot_o (unused_wb_oh), .idx_o (wb_free_idx), .valid_o (wb_has_free));

  // ---- S1: the slot's work --------------------------------------------------------------------
  // Everything S1 decides; registered into S2, the RAMs, MSHRs, counters and the walker.
  logic                 s1_stall;          // REQ could not proceed: replay it
  logic                 mshr_alloc, mshr_alloc_local, mshr_free_en;
  logic [MshrW-1:0]     mshr_free_sel;
  logic                 wb_alloc;
  logic [LineAW-1:0]    wb_alloc_line;
  logic [WAYS-1:0]      fl_dirty;
  logic                 fwb_ok;            // FWB: the writeback was started
  logic [NumCnt*AmtW-1:0] ev;              // counter increments this cycle
  logic                 occ_inc, occ_dec;
  logic [DsidW-1:0]     occ_inc_dsid, occ_dec_dsid;
  logic [AmtW-1:0]      occ_dec_amt;
  logic                 vtot_inc, dtot_inc;
  logic [AmtW-1:0]      vtot_dec, dtot_dec;
  tessera_mem_pkg::mem_req_t fill_req;     // FILL: the MSHR's request
  logic [LineAW-1:0]    fill_line;
  logic [WayW-1:0]      fill_way;
  logic [LineW-1:0]     fill_merged;
  logic                 s1_bad;

  always_comb begin
    fill_req  = mshr_req_q[s1_mshr_q*ReqW +: ReqW];
    fill_line = mshr_line_q[s1_mshr_q*LineAW +: LineAW];
    fill_way  = mshr_way_q[s1_mshr_q*WayW +: WayW];
    for (int unsigned b = 0; b < LineBytes; b++) begin
      fill_merged[b*8 +: 8] = (fill_req.op == tessera_mem_pkg::MEM_OP_WRITE && fill_req.wstrb[b])
                              ? fill_req.wdata[b*8 +: 8] : s1_req.wdata[b*8 +: 8];
    end
  end

  // Fields a FILL does not look at (its address is the MSHR's line).
  logic [AddrW-1:0] unused_fill_addr;
  logic [SrcW-1:0]  unused_dn_rsp_src;
  assign unused_fill_addr  = fill_req.addr;
  assign unused_dn_rsp_src = dn_rsp_i.src;

  assign s1_bad = (s1_req.addr[OffW-1:0] != '0)
               || (mem_limit != '0 && s1_req.addr >= mem_limit)
               || (s1_op != OpWrite && s1_req.wstrb != '0)
               || (s1_op != OpRead && s1_op != OpWrite && s1_op != OpPref);

  always_comb begin
    // RAM ports
    tag_we     = 1'b0;
    tag_waddr  = s1_set_q;
    tag_wmask  = '0;
    tag_wdata  = ent;
    plru_we    = 1'b0;
    plru_wdata = plru_touched;
    d_req      = 1'b0;
    d_we       = 1'b0;
    d_addr     = {s1_set_q, hit_way};
    d_wdata    = s1_req.wdata;
    d_wmask    = '1;
    // S2
    s2_rsp_push_d = 1'b0;
    s2_rsp_op_d   = s1_op;
    s2_rsp_err_d  = 1'b0;
    s2_rsp_src_d  = s1_req.src;
    s2_rsp_tag_d  = s1_req.tag;
    s2_rsp_ram_d  = 1'b0;
    s2_line_d     = '0;
    s2_wb_push_d  = 1'b0;
    s2_wb_line_d  = {w_tag[victim*TagW +: TagW], s1_set_q};
    s2_wb_dsid_d  = w_dsid[victim*DsidW +: DsidW];
    s2_wb_idx_d   = wb_free_idx;
    // resources
    s1_stall         = 1'b0;
    mshr_alloc       = 1'b0;
    mshr_alloc_local = 1'b0;
    mshr_free_en     = 1'b0;
    mshr_free_sel    = s1_mshr_q;
    wb_alloc         = 1'b0;
    wb_alloc_line    = {w_tag[victim*TagW +: TagW], s1_set_q};
    fl_dirty         = vd_vec;
    fwb_ok           = 1'b0;
    // counters
    ev           = '0;
    occ_inc      = 1'b0;
    occ_dec      = 1'b0;
    occ_inc_dsid = s1_req.dsid;
    occ_dec_dsid = w_dsid[hit_way*DsidW +: DsidW];
    occ_dec_amt  = AmtW'(1);
    vtot_inc     = 1'b0;
    dtot_inc     = 1'b0;
    vtot_dec     = '0;
    dtot_dec     = '0;

    if (s1_valid_q) begin
      unique case (s1_kind_q)
        // ------------------------------------------------------------------------------------
        K_REQ: begin
          if (s1_bad) begin
            s2_rsp_push_d = 1'b1;
            s2_rsp_err_d  = 1'b1;
            ev[CErrors*AmtW +: AmtW] = AmtW'(1);
          end else if (mshr_conflict && s1_op == OpPref) begin
            // a PREFETCH of a line already on its way: nothing to do (never wait: a prefetch
            // must not hold the demand requests behind it)
            s2_rsp_push_d = 1'b1;
            ev[CPrefetches*AmtW +: AmtW] = AmtW'(1);
          end else if (mshr_conflict) begin
            s1_stall = 1'b1;     // same line as an outstanding miss: wait for its install
          end else if (hit) begin
            s2_rsp_push_d = 1'b1;
            d_addr = {s1_set_q, hit_way};
            unique case (s1_op)
              OpRead: begin
                ev[CReads*AmtW +: AmtW] = AmtW'(1);
                ev[CHits*AmtW +: AmtW]  = AmtW'(1);
                d_req        = 1'b1;
                s2_rsp_ram_d = 1'b1;
                plru_we      = 1'b1;
                if (w_pf[hit_way]) begin
                  ev[CPfUsed*AmtW +: AmtW] = AmtW'(1);
                  tag_we    = 1'b1;
                  tag_wmask = WAYS'(1) << hit_way;
                  tag_wdata[hit_way*EntW + EPf] = 1'b0;
                end
              end
              OpWrite: begin
                ev[CWrites*AmtW +: AmtW] = AmtW'(1);
                ev[CHits*AmtW +: AmtW]   = AmtW'(1);
                if (w_pf[hit_way]) begin
                  ev[CPfUsed*AmtW +: AmtW] = AmtW'(1);
                end
                d_req     = 1'b1;
                d_we      = 1'b1;
                d_wmask   = s1_req.wstrb;
                plru_we   = 1'b1;
                tag_we    = 1'b1;
                tag_wmask = WAYS'(1) << hit_way;
                tag_wdata[hit_way*EntW +: EntW] = mk_ent(1'b1, 1'b1, 1'b0, s1_req.dsid, s1_tag);
                dtot_inc  = !w_dirty[hit_way];
                if (w_dsid[hit_way*DsidW +: DsidW] != s1_req.dsid) begin
                  occ_inc = 1'b1;          // the line now belongs to its last writer
                  occ_dec = 1'b1;
                end
              end
              default: begin             // PREFETCH of a resident line: nothing to do
                ev[CPrefetches*AmtW +: AmtW] = AmtW'(1);
              end
            endcase
          end else begin
            // Miss. A full-line WRITE needs no fill: with a clean victim it is installed
            // right here; with a dirty victim (the data RAM port reads the victim now) it
            // waits in an MSHR marked local and is installed by a FILL slot.
            logic full_wr, vdirty, direct, no_room;
            full_wr = (s1_op == OpWrite) && (&s1_req.wstrb);
            vdirty  = w_valid[victim] && w_dirty[victim];
            direct  = full_wr && !vdirty;
            no_room = !victim_ok || (!direct && !mshr_has_free) || (vdirty && (!wb_has_free || victim_wb_busy));
            if ((!victim_ok || !mshr_has_free) && s1_op == OpPref) begin
              // no free miss slot (or no way: every way of the set waits for a fill): the
              // PREFETCH is dropped and answered, not queued, so it never holds the demand
              // requests behind it for a miss's latency (issue 19). A dirty victim whose
              // writeback slot is busy waits as before: that lasts a writeback's ack at most.
              s2_rsp_push_d = 1'b1;
              ev[CPrefetches*AmtW +: AmtW] = AmtW'(1);
              ev[CPfDropped*AmtW +: AmtW]  = AmtW'(1);
            end else if (no_room) begin
              s1_stall = 1'b1;
            end else begin
              unique case (s1_op)
                OpRead: begin
                  ev[CReads*AmtW +: AmtW]  = AmtW'(1);
                  ev[CMisses*AmtW +: AmtW] = AmtW'(1);
                end
                OpWrite: begin
                  ev[CWrites*AmtW +: AmtW] = AmtW'(1);
                  ev[CMisses*AmtW +: AmtW] = AmtW'(1);
                end
                default: ev[CPrefetches*AmtW +: AmtW] = AmtW'(1);
              endcase
              plru_we        = 1'b1;
              d_addr         = {s1_set_q, victim};
              // the victim leaves
              tag_we    = 1'b1;
              tag_wmask = WAYS'(1) << victim;
              tag_wdata[victim*EntW +: EntW] = '0;  // reserved for the miss (invalid)
              if (w_valid[victim]) begin
                ev[CEvictions*AmtW +: AmtW] = AmtW'(1);
                occ_dec      = 1'b1;
                occ_dec_dsid = w_dsid[victim*DsidW +: DsidW];
                vtot_dec     = AmtW'(1);
                dtot_dec     = AmtW'(vdirty);
                if (w_pf[victim]) begin
                  ev[CPfUnused*AmtW +: AmtW] = AmtW'(1);
                end
              end
              if (vdirty) begin
                wb_alloc     = 1'b1;
                d_req        = 1'b1;       // read the victim; S2 queues the writeback
                s2_wb_push_d = 1'b1;
              end
              if (direct) begin
                d_req     = 1'b1;
                d_we      = 1'b1;
                d_wmask   = '1;
                tag_wdata[victim*EntW +: EntW] = mk_ent(1'b1, 1'b1, 1'b0, s1_req.dsid, s1_tag);
                occ_inc   = 1'b1;
                vtot_inc  = 1'b1;
                dtot_inc  = 1'b1;
                s2_rsp_push_d = 1'b1;
              end else begin
                mshr_alloc       = 1'b1;
                mshr_alloc_local = full_wr;
              end
            end
          end
        end
        // ------------------------------------------------------------------------------------
        K_FILL: begin
          mshr_free_en  = 1'b1;
          s2_rsp_push_d = 1'b1;
          s2_rsp_op_d   = fill_req.op;
          s2_rsp_err_d  = s1_err_q;
          s2_rsp_src_d  = fill_req.src;
          s2_rsp_tag_d  = fill_req.tag;
          s2_line_d     = (fill_req.op == tessera_mem_pkg::MEM_OP_READ && !s1_err_q)
                          ? fill_merged : '0;
          if (!s1_err_q) begin
            logic is_wr, is_pf;
            is_wr     = (fill_req.op == tessera_mem_pkg::MEM_OP_WRITE);
            is_pf     = (fill_req.op == tessera_mem_pkg::MEM_OP_PREFETCH);
            d_req     = 1'b1;
            d_we      = 1'b1;
            d_addr    = {s1_set_q, fill_way};
            d_wdata   = fill_merged;
            d_wmask   = '1;
            tag_we    = 1'b1;
            tag_wmask = WAYS'(1) << fill_way;
            tag_wdata[fill_way*EntW +: EntW] =
                mk_ent(1'b1, is_wr, is_pf, is_wr ? fill_req.dsid : '0, fill_line[LineAW-1 -: TagW]);
            occ_inc      = 1'b1;
            occ_inc_dsid = is_wr ? fill_req.dsid : '0;
            vtot_inc     = 1'b1;
            dtot_inc     = is_wr;
            if (is_pf) begin
              ev[CPfFills*AmtW +: AmtW] = AmtW'(1);
            end
          end
        end
        // ------------------------------------------------------------------------------------
        K_DEL: begin
          // Drop the set's lines of the DSID, dirty or clean, without writeback.
          tag_we       = (del_match != '0);
          tag_wmask    = del_match;
          tag_wdata    = '0;
          occ_dec      = (del_match != '0);
          occ_dec_dsid = cmd_dsid;
          occ_dec_amt  = del_cnt;
          vtot_dec     = del_cnt;
          dtot_dec     = del_dirty_cnt;
          ev[CDelDirty*AmtW +: AmtW] = del_dirty_cnt;
          ev[CDelClean*AmtW +: AmtW] = del_clean_cnt;
        end
        K_INV: begin
          tag_we    = 1'b1;
          tag_wmask = '1;
          tag_wdata = '0;
          vtot_dec  = valid_cnt;    // the walk stops when no valid line is left
          dtot_dec  = vd_cnt;
          ev[CInvalDirty*AmtW +: AmtW] = vd_cnt;
        end
        K_INIT: begin
          tag_we     = 1'b1;
          tag_wmask  = '1;
          tag_wdata  = '0;
          plru_we    = 1'b1;
          plru_wdata = '0;
        end
        K_FLR: ;   // the walker takes fl_dirty (the set's dirty ways) this cycle
        K_FWB: begin
          if (wb_has_free) begin
            fwb_ok        = 1'b1;
            wb_alloc      = 1'b1;
            wb_alloc_line = {w_tag[s1_way_q*TagW +: TagW], s1_set_q};
            d_req         = 1'b1;
            d_addr        = {s1_set_q, s1_way_q};
            s2_wb_push_d  = 1'b1;
            s2_wb_line_d  = {w_tag[s1_way_q*TagW +: TagW], s1_set_q};
            s2_wb_dsid_d  = w_dsid[s1_way_q*DsidW +: DsidW];
            tag_we        = 1'b1;
            tag_wmask     = WAYS'(1) << s1_way_q;
            tag_wdata[s1_way_q*EntW + EDirty] = 1'b0;   // stays valid, now clean
            dtot_dec      = AmtW'(1);
          end
        end
        default: ;
      endcase
    end
  end

  // ---- S0: slot selection -------------------------------------------------------------------
  logic                 credit_ok, fill_dn, wack, go_fill_dn, go_fill_loc, fill_any;
  logic                 go_replay, go_walk, go_new, walk_req, maint_block, squash;
  kind_e                walk_kind;
  logic [WayW-1:0]      walk_way;
  logic [NUM_MSHR-1:0]  local_vec;
  logic [MshrW-1:0]     local_idx, dn_mshr;
  logic                 local_any;
  logic [NUM_MSHR-1:0]  unused_local_oh;
  logic [RspDepthW-1:0] rsp_depth;
  logic                 s1_needs_rsp;

  assign s1_needs_rsp = s1_valid_q && (s1_kind_q == K_REQ || s1_kind_q == K_FILL);
  assign credit_ok = (32'(rsp_depth) + 32'(s1_needs_rsp) + 32'(s2_rsp_push_q)) < RSP_DEPTH;

  assign fill_dn = dn_rsp_valid_i && (dn_rsp_i.op == tessera_mem_pkg::MEM_OP_READ);
  assign wack    = dn_rsp_valid_i && (dn_rsp_i.op != tessera_mem_pkg::MEM_OP_READ);
  assign dn_mshr = dn_rsp_i.tag[MshrW-1:0];

  always_comb begin
    for (int unsigned m = 0; m < NUM_MSHR; m++) begin
      // A local MSHR whose FILL slot is in S1 is freed this cycle: do not pick it again.
      local_vec[m] = mshr_valid_q[m] && mshr_local_q[m]
                     && !(s1_valid_q && s1_kind_q == K_FILL && s1_mshr_q == MshrW'(m));
    end
  end
  prim_priority_enc #(.WIDTH(NUM_MSHR)) u_local_enc (
    .in_i (local_vec), .onehot_o (unused_local_oh), .idx_o (local_idx), .valid_o (local_any));

  assign go_fill_dn  = fill_dn && credit_ok;
  assign go_fill_loc = !go_fill_dn && local_any && credit_ok;
  assign fill_any    = go_fill_dn || go_fill_loc;
  assign go_replay   = !fill_any && r0_valid_q && !r0_inflight_q && credit_ok;
  assign go_walk     = !fill_any && !go_replay && walk_req;
  assign up_req_ready_o = !fill_any && !r0_valid_q && !maint_block && !walk_req && credit_ok;
  assign go_new      = up_req_valid_i && up_req_ready_o;
  assign dn_rsp_ready_o = wack || go_fill_dn;

  // A new request accepted in the cycle its predecessor stalls in S1 joins the replay queue
  // behind it instead of entering S1.
  assign squash = go_new && s1_valid_q && s1_kind_q == K_REQ && s1_stall;

  always_comb begin
    s1_valid_d  = 1'b0;
    s1_kind_d   = K_REQ;
    s1_req_d    = up_req_i;
    s1_set_d    = up_req_i.addr[OffW +: SetW];
    s1_way_d    = walk_way;
    s1_mshr_d   = local_idx;
    s1_err_d    = 1'b0;
    s1_replay_d = 1'b0;
    if (go_fill_dn) begin
      s1_valid_d = 1'b1;
      s1_kind_d  = K_FILL;
      s1_req_d.wdata = dn_rsp_i.rdata;
      s1_mshr_d  = dn_mshr;
      s1_err_d   = dn_rsp_i.err;
      s1_set_d   = mshr_line_q[dn_mshr*LineAW +: SetW];
    end else if (go_fill_loc) begin
      s1_valid_d = 1'b1;
      s1_kind_d  = K_FILL;
      s1_mshr_d  = local_idx;
      s1_set_d   = mshr_line_q[local_idx*LineAW +: SetW];
    end else if (go_replay) begin
      s1_valid_d  = 1'b1;
      s1_req_d    = r0_q;
      s1_set_d    = r0_q.addr[OffW +: SetW];
      s1_replay_d = 1'b1;
    end else if (go_walk) begin
      s1_valid_d = 1'b1;
      s1_kind_d  = walk_kind;
      s1_set_d   = walk_set_q;
    end else if (go_new) begin
      s1_valid_d = !squash;
    end
  end

  assign tag_re    = s1_valid_d && s1_kind_d != K_INIT;
  assign tag_raddr = s1_set_d;

  // ---- replay queue -----------------------------------------------------------------------------
  always_comb begin
    r0_valid_d    = r0_valid_q;
    r1_valid_d    = r1_valid_q;
    r0_inflight_d = r0_inflight_q || go_replay;
    r0_d          = r0_q;
    r1_d          = r1_q;
    if (s1_valid_q && s1_kind_q == K_REQ && s1_replay_q) begin
      r0_inflight_d = 1'b0;
      if (!s1_stall) begin      // the head was performed: the next one moves up
        r0_valid_d = r1_valid_q;
        r0_d       = r1_q;
        r1_valid_d = 1'b0;
      end
    end else if (s1_valid_q && s1_kind_q == K_REQ && s1_stall) begin
      r0_valid_d = 1'b1;
      r0_d       = s1_req_q;
      if (squash) begin
        r1_valid_d = 1'b1;
        r1_d       = up_req_i;
      end
    end
  end

  // ---- S2 and the FIFOs ---------------------------------------------------------------------------
  logic                 rsp_wready, unused_rsp_full, unused_rsp_empty;
  logic [RspW-1:0]      rsp_wdata, rsp_rdata;

  // mem_rsp_t member order (op, err, src, tag, rdata), MSB first.
  assign rsp_wdata = {s2_rsp_op_q, s2_rsp_err_q, s2_rsp_src_q, s2_rsp_tag_q,
                      s2_rsp_ram_q ? d_rdata : s2_line_q};

  prim_fifo_sync #(
    .WIDTH        (RspW),
    .DEPTH        (RSP_DEPTH),
    .FALL_THROUGH (0)
  ) u_rsp_fifo (
    .clk_i,
    .rst_ni,
    .clr_i    (1'b0),
    .wvalid_i (s2_rsp_push_q),
    .wready_o (rsp_wready),
    .wdata_i  (rsp_wdata),
    .rvalid_o (up_rsp_valid_o),
    .rready_i (up_rsp_ready_i),
    .rdata_o  (rsp_rdata),
    .full_o   (unused_rsp_full),
    .empty_o  (unused_rsp_empty),
    .depth_o  (rsp_depth)
  );
  assign up_rsp_o = rsp_rdata;

  // writeback FIFO: as deep as the writeback table, so a push always finds room
  logic              wbf_wready, wbf_rvalid, wbf_pop, wbf_empty, unused_wbf_full;
  logic [WbEntW-1:0] wbf_wdata, wbf_rdata;
  logic [$clog2(NUM_WB+1)-1:0] unused_wbf_depth;
  logic [LineAW-1:0] wbf_line;
  logic [DsidW-1:0]  wbf_dsid;
  logic [WbW-1:0]    wbf_idx;
  logic [LineW-1:0]  wbf_data;
  assign wbf_wdata = {s2_wb_line_q, s2_wb_dsid_q, s2_wb_idx_q, d_rdata};
  assign {wbf_line, wbf_dsid, wbf_idx, wbf_data} = wbf_rdata;

  prim_fifo_sync #(
    .WIDTH        (WbEntW),
    .DEPTH        (NUM_WB),
    .FALL_THROUGH (0)
  ) u_wb_fifo (
    .clk_i,
    .rst_ni,
    .clr_i    (1'b0),
    .wvalid_i (s2_wb_push_q),
    .wready_o (wbf_wready),
    .wdata_i  (wbf_wdata),
    .rvalid_o (wbf_rvalid),
    .rready_i (wbf_pop),
    .rdata_o  (wbf_rdata),
    .full_o   (unused_wbf_full),
    .empty_o  (wbf_empty),
    .depth_o  (unused_wbf_depth)
  );

  // ---- downstream requests: writebacks and fills, round robin ---------------------------------
  // A fill waits while a writeback of the same line is queued or unacknowledged (mshr_wbwait_q,
  // set at the miss from the writeback table, cleared by that writeback's ack), so the memory
  // never has to order a READ behind a WRITE of the line. The arbiter carries each requester's
  // {kind, line, dsid, tag index}; its one-hot AND-OR mux keeps the output path short.
  localparam int unsigned ArbW = 1 + LineAW + DsidW + MTagLoW;
  logic [NUM_MSHR-1:0]  mshr_elig;
  logic [ArbN-1:0]      arb_req, arb_gnt;
  logic [ArbN*ArbW-1:0] arb_data;
  logic [ArbW-1:0]      arb_out;
  logic                 arb_valid;
  logic [ArbIdxW-1:0]   arb_idx;
  logic                 arb_is_wb;
  logic [LineAW-1:0]    arb_line;
  logic [DsidW-1:0]     arb_dsid;
  logic [MTagLoW-1:0]   arb_tag;

  always_comb begin
    arb_data[0 +: ArbW] = {1'b1, wbf_line, wbf_dsid, MTagLoW'(wbf_idx)};
    for (int unsigned m = 0; m < NUM_MSHR; m++) begin
      mshr_elig[m] = mshr_valid_q[m] && !mshr_local_q[m] && !mshr_issued_q[m] && !mshr_wbwait_q[m];
      arb_data[(m+1)*ArbW +: ArbW] = {1'b0, mshr_line_q[m*LineAW +: LineAW],
                                      mshr_req_q[m*ReqW + ReqDsidLsb +: DsidW],  // the requester's
                                      MTagLoW'(m)};
    end
  end
  assign arb_req = {mshr_elig, wbf_rvalid};

  prim_rr_arb #(
    .N       (ArbN),
    .WIDTH   (ArbW),
    .LOCK_IN (1)
  ) u_dn_arb (
    .clk_i,
    .rst_ni,
    .req_i   (arb_req),
    .gnt_o   (arb_gnt),
    .data_i  (arb_data),
    .valid_o (arb_valid),
    .ready_i (dn_req_ready_i),
    .data_o  (arb_out),
    .idx_o   (arb_idx)
  );
  assign {arb_is_wb, arb_line, arb_dsid, arb_tag} = arb_out;
  assign wbf_pop = arb_gnt[0];

  always_comb begin
    dn_req_o       = '0;
    dn_req_o.src   = SrcW'(SRC_ID);
    dn_req_o.op    = arb_is_wb ? tessera_mem_pkg::MEM_OP_WRITE : tessera_mem_pkg::MEM_OP_READ;
    dn_req_o.addr  = {arb_line, {OffW{1'b0}}};
    dn_req_o.dsid  = arb_dsid;
    dn_req_o.tag   = {arb_is_wb, arb_tag};
    dn_req_o.wstrb = {LineBytes{arb_is_wb}};
    dn_req_o.wdata = arb_is_wb ? wbf_data : '0;
  end
  assign dn_req_valid_o = arb_valid;

  // ---- MSHR and writeback table updates ---------------------------------------------------------
  always_comb begin
    mshr_valid_d  = mshr_valid_q;
    mshr_local_d  = mshr_local_q;
    mshr_issued_d = mshr_issued_q | arb_gnt[ArbN-1:1];
    mshr_wbwait_d = mshr_wbwait_q;
    if (wack) begin
      for (int unsigned m = 0; m < NUM_MSHR; m++) begin
        if (mshr_line_q[m*LineAW +: LineAW] == wb_line_q[dn_rsp_i.tag[WbW-1:0]*LineAW +: LineAW]) begin
          mshr_wbwait_d[m] = 1'b0;
        end
      end
    end
    mshr_line_d   = mshr_line_q;
    mshr_way_d    = mshr_way_q;
    mshr_req_d    = mshr_req_q;
    if (mshr_free_en) begin
      mshr_valid_d[mshr_free_sel] = 1'b0;
    end
    if (mshr_alloc) begin
      mshr_valid_d[mshr_free_idx]  = 1'b1;
      mshr_local_d[mshr_free_idx]  = mshr_alloc_local;
      mshr_issued_d[mshr_free_idx] = 1'b0;
      // (unless that writeback is acknowledged in this very cycle)
      mshr_wbwait_d[mshr_free_idx] = s1_line_wb_busy
          && !(wack && wb_line_q[dn_rsp_i.tag[WbW-1:0]*LineAW +: LineAW] == s1_line);
      mshr_line_d[mshr_free_idx*LineAW +: LineAW] = s1_line;
      mshr_way_d[mshr_free_idx*WayW +: WayW]      = victim;
      mshr_req_d[mshr_free_idx*ReqW +: ReqW]      = s1_req_q;
    end

    wb_valid_d = wb_valid_q;
    wb_line_d  = wb_line_q;
    if (wack) begin
      wb_valid_d[dn_rsp_i.tag[WbW-1:0]] = 1'b0;
    end
    if (wb_alloc) begin
      wb_valid_d[wb_free_idx] = 1'b1;
      wb_line_d[wb_free_idx*LineAW +: LineAW] = wb_alloc_line;
    end
  end

  // ---- bypass registers --------------------------------------------------------------------------
  // Tag/PLRU writes happen in S1 at s1_set_q; the slot entering S1 reads its set in the same
  // cycle and gets the old word, so it takes the written entries from these registers. The set
  // comparison is done here, a cycle early, to keep it off S1's path.
  assign byp_valid_d  = tag_we;
  assign byp_same_d   = (s1_set_d == tag_waddr);
  assign byp_mask_d   = tag_wmask;
  assign byp_data_d   = tag_wdata;
  assign pbyp_valid_d = plru_we;
  assign pbyp_data_d  = plru_wdata;

  // ---- maintenance walker ------------------------------------------------------------------------
  logic            drained, occ_clr, pipe_empty;
  logic [WayW-1:0] fl_way;
  logic [WAYS-1:0] unused_fl_oh;
  logic            unused_fl_any;

  always_comb begin
    occ_cmd     = '0;
    occ_sel_val = '0;
    dlo_cmd     = '0;
    for (int unsigned i = 0; i < NumDsid; i++) begin
      if (cmd_dsid == DsidW'(i)) occ_cmd = occ_flat[i*OccW +: OccW];
      if (cmd_dsid == DsidW'(i)) dlo_cmd = dlo_q[i*SetW +: SetW];
      if (occ_sel == DsidW'(i))  occ_sel_val = occ_flat[i*OccW +: OccW];
    end
  end
  assign pipe_empty = !s1_valid_q && !s2_any_q && !s2_rsp_push_q && !s2_wb_push_q;
  assign drained = pipe_empty && !r0_valid_q && !r1_valid_q && (mshr_valid_q == '0)
                   && wbf_empty && (wb_valid_q == '0);
  assign maint_block = (mstate_q != M_IDLE) || cmd_valid;

  prim_priority_enc #(.WIDTH(WAYS)) u_fl_enc (
    .in_i (fl_dmask_q), .onehot_o (unused_fl_oh), .idx_o (fl_way), .valid_o (unused_fl_any));

  always_comb begin
    walk_req  = 1'b0;
    walk_kind = K_INIT;
    walk_way  = fl_way;
    unique case (mstate_q)
      M_INIT:    begin walk_req = 1'b1; walk_kind = K_INIT; end
      M_DEL:     begin walk_req = 1'b1; walk_kind = K_DEL;  end
      M_INV:     begin walk_req = 1'b1; walk_kind = K_INV;  end
      M_FL_READ: begin walk_req = 1'b1; walk_kind = K_FLR;  end
      M_FL_WB:   begin walk_req = 1'b1; walk_kind = K_FWB;  end
      default: ;
    endcase
  end

  always_comb begin
    mstate_d   = mstate_q;
    walk_set_d = walk_set_q;
    fl_dmask_d = fl_dmask_q;
    cmd_done   = 1'b0;
    occ_clr    = 1'b0;
    unique case (mstate_q)
      M_INIT: begin
        if (go_walk) begin
          walk_set_d = walk_set_q + 1'b1;
          if (walk_set_q == SetLast) mstate_d = M_IDLE;
        end
      end
      M_IDLE: begin
        if (cmd_valid) mstate_d = M_DRAIN;
      end
      M_DRAIN: begin
        if (drained) begin
          walk_set_d = (cmd_op == CmdDel) ? dlo_cmd : '0;
          unique case (cmd_op)
            CmdDel:   mstate_d = (cmd_dsid == '0 || occ_cmd == '0) ? M_DONE : M_DEL;
            CmdFlush: mstate_d = (dtot == '0) ? M_DONE : M_FL_READ;
            CmdInval: mstate_d = (vtot == '0) ? M_DONE : M_INV;
            default:  mstate_d = M_DONE;
          endcase
        end
      end
      M_DEL: begin
        if (go_walk) begin
          walk_set_d = walk_set_q + 1'b1;
          // occ_cmd lags the drops of the last three slots: a few extra, harmless steps.
          if (walk_set_q == SetLast || occ_cmd == '0) mstate_d = M_FINISH;
        end
      end
      M_INV: begin
        if (go_walk) begin
          walk_set_d = walk_set_q + 1'b1;
          if (walk_set_q == SetLast || vtot == '0) mstate_d = M_FINISH;
        end
      end
      M_FL_READ: begin
        if (go_walk) mstate_d = M_FL_WAITR;
      end
      M_FL_WAITR: begin
        // S1 holds this set's FLR slot now.
        fl_dmask_d = fl_dirty;
        mstate_d   = (fl_dirty == '0) ? M_FL_NEXT : M_FL_WB;
      end
      M_FL_WB: begin
        if (go_walk) mstate_d = M_FL_WAITW;
      end
      M_FL_WAITW: begin
        if (fwb_ok) begin
          logic [WAYS-1:0] left;
          left       = fl_dmask_q & ~(WAYS'(1) << fl_way);
          fl_dmask_d = left;
          mstate_d   = (left == '0) ? M_FL_NEXT : M_FL_WB;
        end else begin
          mstate_d = M_FL_WB;   // no writeback slot free: try again
        end
      end
      M_FL_NEXT: begin
        walk_set_d = walk_set_q + 1'b1;
        mstate_d   = (walk_set_q == SetLast || dtot == '0) ? M_FINISH : M_FL_READ;
      end
      M_FINISH: begin
        if (drained) mstate_d = M_DONE;
      end
      M_DONE: begin
        cmd_done = 1'b1;
        occ_clr  = (cmd_op == CmdInval);  // every line is gone
        mstate_d = M_IDLE;
      end
      default: mstate_d = M_IDLE;
    endcase
  end

  assign init_busy   = (mstate_q == M_INIT);
  assign running     = (mstate_q == M_INIT || mstate_q == M_IDLE) ? CmdNone : cmd_op;
  assign ctrl_busy_o = maint_block;
  assign ctrl_done_o = cmd_done;
  assign cnt_hits_o   = counters[3*32 +: 32];
  assign cnt_misses_o = counters[4*32 +: 32];

  // ---- occupancy, totals and statistics counters -------------------------------------------
  // S1's counter events are registered and applied a cycle later (off S1's critical path). The
  // walker therefore sees occupancy and totals up to three slots late: a DELETE walk may run a
  // few sets past the last line (harmless), and `drained` waits for the update (s2_any_q).
  logic                   occ_inc_q, occ_dec_q, vtot_inc_q, dtot_inc_q;
  logic [DsidW-1:0]       occ_inc_dsid_q, occ_dec_dsid_q;
  logic [SetW-1:0]        occ_inc_set_q;      // the set of the line occ_inc_q installs
  logic [AmtW-1:0]        occ_dec_amt_q, vtot_dec_q, dtot_dec_q;
  logic [NumCnt*AmtW-1:0] ev_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      occ_inc_q      <= 1'b0;
      occ_dec_q      <= 1'b0;
      vtot_inc_q     <= 1'b0;
      dtot_inc_q     <= 1'b0;
      occ_inc_dsid_q <= '0;
      occ_inc_set_q  <= '0;
      dlo_q          <= '0;
      occ_dec_dsid_q <= '0;
      occ_dec_amt_q  <= '0;
      vtot_dec_q     <= '0;
      dtot_dec_q     <= '0;
      ev_q           <= '0;
    end else begin
      occ_inc_q      <= occ_inc;
      occ_dec_q      <= occ_dec;
      vtot_inc_q     <= vtot_inc;
      dtot_inc_q     <= dtot_inc;
      occ_inc_dsid_q <= occ_inc_dsid;
      occ_inc_set_q  <= s1_set_q;       // every occupancy increment is an install in S1's set
      dlo_q          <= dlo_d;
      occ_dec_dsid_q <= occ_dec_dsid;
      occ_dec_amt_q  <= occ_dec_amt;
      vtot_dec_q     <= vtot_dec;
      dtot_dec_q     <= dtot_dec;
      ev_q           <= ev;
    end
  end

  // An increment applied to a DSID whose occupancy is 0 (no line of it is resident: the
  // counter has seen every earlier event) restarts its lowest set; otherwise the set is the
  // minimum. Decrements leave it (it only has to be a lower bound).
  always_comb begin
    dlo_d = dlo_q;
    for (int unsigned i = 0; i < NumDsid; i++) begin
      if (occ_inc_q && occ_inc_dsid_q == DsidW'(i)
          && (occ_flat[i*OccW +: OccW] == '0 || occ_inc_set_q < dlo_q[i*SetW +: SetW])) begin
        dlo_d[i*SetW +: SetW] = occ_inc_set_q;
      end
    end
  end

  for (genvar i = 0; i < NumDsid; i++) begin : gen_occ
    logic unused_zero, unused_max;
    prim_sat_counter #(
      .WIDTH (OccW)
    ) u_occ (
      .clk_i,
      .rst_ni,
      .clr_i      (occ_clr),
      .load_i     (1'b0),
      .load_val_i ({OccW{1'b0}}),
      .inc_i      (occ_inc_q && occ_inc_dsid_q == DsidW'(i)),
      .inc_amt_i  (OccW'(1)),
      .dec_i      (occ_dec_q && occ_dec_dsid_q == DsidW'(i)),
      .dec_amt_i  (OccW'(occ_dec_amt_q)),
      .cnt_o      (occ_flat[i*OccW +: OccW]),
      .zero_o     (unused_zero),
      .max_o      (unused_max)
    );
  end

  logic unused_vtot_zero, unused_vtot_max, unused_dtot_zero, unused_dtot_max;
  prim_sat_counter #(.WIDTH(OccW)) u_vtot (
    .clk_i, .rst_ni, .clr_i (occ_clr), .load_i (1'b0), .load_val_i ({OccW{1'b0}}),
    .inc_i (vtot_inc_q), .inc_amt_i (OccW'(1)), .dec_i (|vtot_dec_q), .dec_amt_i (OccW'(vtot_dec_q)),
    .cnt_o (vtot), .zero_o (unused_vtot_zero), .max_o (unused_vtot_max));
  prim_sat_counter #(.WIDTH(OccW)) u_dtot (
    .clk_i, .rst_ni, .clr_i (occ_clr), .load_i (1'b0), .load_val_i ({OccW{1'b0}}),
    .inc_i (dtot_inc_q), .inc_amt_i (OccW'(1)), .dec_i (|dtot_dec_q), .dec_amt_i (OccW'(dtot_dec_q)),
    .cnt_o (dtot), .zero_o (unused_dtot_zero), .max_o (unused_dtot_max));

  // Events counted outside S1: memory traffic (at the downstream handshake), memory errors.
  logic [NumCnt*AmtW-1:0] ev_all;
  always_comb begin
    ev_all = ev_q;
    ev_all[CFills*AmtW +: AmtW]      = AmtW'(arb_valid && dn_req_ready_i && arb_idx != '0);
    ev_all[CWritebacks*AmtW +: AmtW] = AmtW'(arb_valid && dn_req_ready_i && arb_idx == '0);
    ev_all[CMemErrors*AmtW +: AmtW]  = AmtW'(dn_rsp_valid_i && dn_rsp_ready_o && dn_rsp_i.err);
  end

  for (genvar i = 0; i < NumCnt; i++) begin : gen_cnt
    logic unused_zero, unused_max;
    prim_sat_counter #(
      .WIDTH (32)
    ) u_cnt (
      .clk_i,
      .rst_ni,
      .clr_i      (clear_counters),
      .load_i     (1'b0),
      .load_val_i (32'd0),
      .inc_i      (|ev_all[i*AmtW +: AmtW]),
      .inc_amt_i  (32'(ev_all[i*AmtW +: AmtW])),
      .dec_i      (1'b0),
      .dec_amt_i  (32'd0),
      .cnt_o      (counters[i*32 +: 32]),
      .zero_o     (unused_zero),
      .max_o      (unused_max)
    );
  end

  // ---- memories ---------------------------------------------------------------------------------
  prim_ram_2p #(
    .WIDTH              (WAYS * EntW),
    .DEPTH              (Sets),
    .DATA_BITS_PER_MASK (EntW)
  ) u_tag_ram (
    .clk_i,
    .rst_ni,
    .we_i     (tag_we),
    .waddr_i  (tag_waddr),
    .wdata_i  (tag_wdata),
    .wmask_i  (tag_wmask),
    .re_i     (tag_re),
    .raddr_i  (tag_raddr),
    .rdata_o  (tag_rdata),
    .rvalid_o (unused_tag_rvalid)
  );

  prim_ram_2p #(
    .WIDTH (PlruW),
    .DEPTH (Sets)
  ) u_plru_ram (
    .clk_i,
    .rst_ni,
    .we_i     (plru_we),
    .waddr_i  (tag_waddr),
    .wdata_i  (plru_wdata),
    .wmask_i  (1'b1),
    .re_i     (tag_re),
    .raddr_i  (tag_raddr),
    .rdata_o  (plru_rdata),
    .rvalid_o (unused_plru_rvalid)
  );

  prim_ram_1p #(
    .WIDTH              (LineW),
    .DEPTH              (Sets * WAYS),
    .DATA_BITS_PER_MASK (8)
  ) u_data_ram (
    .clk_i,
    .rst_ni,
    .req_i    (d_req),
    .we_i     (d_we),
    .addr_i   (d_addr),
    .wdata_i  (d_wdata),
    .wmask_i  (d_wmask),
    .rdata_o  (d_rdata),
    .rvalid_o (unused_data_rvalid)
  );

  // ---- flops ------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_valid_q    <= 1'b0;
      s1_kind_q     <= K_REQ;
      s1_set_q      <= '0;
      s1_way_q      <= '0;
      s1_mshr_q     <= '0;
      s1_err_q      <= 1'b0;
      s1_replay_q   <= 1'b0;
      s2_any_q      <= 1'b0;
      s2_rsp_push_q <= 1'b0;
      s2_rsp_op_q   <= '0;
      s2_rsp_err_q  <= 1'b0;
      s2_rsp_src_q  <= '0;
      s2_rsp_tag_q  <= '0;
      s2_rsp_ram_q  <= 1'b0;
      s2_wb_push_q  <= 1'b0;
      s2_wb_line_q  <= '0;
      s2_wb_dsid_q  <= '0;
      s2_wb_idx_q   <= '0;
      byp_valid_q   <= 1'b0;
      byp_same_q    <= 1'b0;
      byp_mask_q    <= '0;
      pbyp_valid_q  <= 1'b0;
      pbyp_data_q   <= '0;
      r0_valid_q    <= 1'b0;
      r1_valid_q    <= 1'b0;
      r0_inflight_q <= 1'b0;
      mshr_valid_q  <= '0;
      mshr_local_q  <= '0;
      mshr_issued_q <= '0;
      mshr_wbwait_q <= '0;
      mshr_line_q   <= '0;
      mshr_way_q    <= '0;
      wb_valid_q    <= '0;
      wb_line_q     <= '0;
      mstate_q      <= M_INIT;
      walk_set_q    <= '0;
      fl_dmask_q    <= '0;
    end else begin
      s1_valid_q    <= s1_valid_d;
      s1_kind_q     <= s1_kind_d;
      s1_set_q      <= s1_set_d;
      s1_way_q      <= s1_way_d;
      s1_mshr_q     <= s1_mshr_d;
      s1_err_q      <= s1_err_d;
      s1_replay_q   <= s1_replay_d;
      s2_any_q      <= s1_valid_q;
      s2_rsp_push_q <= s2_rsp_push_d;
      s2_rsp_op_q   <= s2_rsp_op_d;
      s2_rsp_err_q  <= s2_rsp_err_d;
      s2_rsp_src_q  <= s2_rsp_src_d;
      s2_rsp_tag_q  <= s2_rsp_tag_d;
      s2_rsp_ram_q  <= s2_rsp_ram_d;
      s2_wb_push_q  <= s2_wb_push_d;
      s2_wb_line_q  <= s2_wb_line_d;
      s2_wb_dsid_q  <= s2_wb_dsid_d;
      s2_wb_idx_q   <= s2_wb_idx_d;
      byp_valid_q   <= byp_valid_d;
      byp_same_q    <= byp_same_d;
      byp_mask_q    <= byp_mask_d;
      pbyp_valid_q  <= pbyp_valid_d;
      pbyp_data_q   <= pbyp_data_d;
      r0_valid_q    <= r0_valid_d;
      r1_valid_q    <= r1_valid_d;
      r0_inflight_q <= r0_inflight_d;
      mshr_valid_q  <= mshr_valid_d;
      mshr_local_q  <= mshr_local_d;
      mshr_issued_q <= mshr_issued_d;
      mshr_wbwait_q <= mshr_wbwait_d;
      mshr_line_q   <= mshr_line_d;
      mshr_way_q    <= mshr_way_d;
      wb_valid_q    <= wb_valid_d;
      wb_line_q     <= wb_line_d;
      mstate_q      <= mstate_d;
      walk_set_q    <= walk_set_d;
      fl_dmask_q    <= fl_dmask_d;
    end
  end

  // Wide payloads: no reset (only meaningful while their valid bit is set).
  always_ff @(posedge clk_i) begin
    s1_req_q   <= s1_req_d;
    s2_line_q  <= s2_line_d;
    byp_data_q <= byp_data_d;
    r0_q       <= r0_d;
    r1_q       <= r1_d;
    mshr_req_q <= mshr_req_d;
  end

  // ---- assertions -------------------------------------------------------------------------------
  `ASSERT_INIT(SizePow2_A, SIZE_BYTES >= 2 * WAYS * LineBytes && (SIZE_BYTES & (SIZE_BYTES - 1)) == 0)
  `ASSERT_INIT(WaysPow2_A, WAYS >= 2 && (WAYS & (WAYS - 1)) == 0)
  // 1..63: the CONFIG register reports them in 6 bits; the memory tag holds the index.
  `ASSERT_INIT(MshrRange_A, NUM_MSHR >= 1 && NUM_MSHR <= 63 && MshrW < MTagW)
  `ASSERT_INIT(WbRange_A, NUM_WB >= 1 && NUM_WB <= 63 && WbW < MTagW)
  `ASSERT_INIT(RspDepth_A, RSP_DEPTH >= 2)
  `ASSERT_INIT(OccFits_A, OccW <= 16)

  // Upstream and downstream valid/ready: a sender holds valid and payload until ready.
  `ASSERT(UpRspStable_A, up_rsp_valid_o && !up_rsp_ready_i |=> up_rsp_valid_o && $stable(up_rsp_o))
  `ASSERT(DnReqStable_A, dn_req_valid_o && !dn_req_ready_i |=> dn_req_valid_o && $stable(dn_req_o))
  // The response credit guarantees room: S2 never pushes into a full FIFO.
  `ASSERT_NEVER(RspOverflow_A, s2_rsp_push_q && !rsp_wready)
  `ASSERT_NEVER(WbOverflow_A, s2_wb_push_q && !wbf_wready)
  // A line is in at most one way of its set; a FILL installs into a reserved (invalid) way of
  // a line that is not resident.
  `ASSERT(HitOnehot_A, s1_valid_q && s1_kind_q == K_REQ |-> $onehot0(hit_vec))
  logic [WAYS-1:0] fill_hit_vec;
  always_comb begin
    for (int unsigned w = 0; w < WAYS; w++) begin
      fill_hit_vec[w] = w_valid[w] && w_tag[w*TagW +: TagW] == fill_line[LineAW-1 -: TagW];
    end
  end
  `ASSERT(FillWayFree_A, s1_valid_q && s1_kind_q == K_FILL |-> !w_valid[fill_way] && fill_hit_vec == '0)
  `ASSERT(FillSet_A, s1_valid_q && s1_kind_q == K_FILL |-> fill_line[SetW-1:0] == s1_set_q)
  `ASSERT(FillMshrValid_A, s1_valid_q && s1_kind_q == K_FILL |-> mshr_valid_q[s1_mshr_q])
  // Memory responses answer something outstanding.
  `ASSERT(FillRspKnown_A, fill_dn |-> !dn_rsp_i.tag[MTagW-1] && mshr_valid_q[dn_mshr]
                                     && mshr_issued_q[dn_mshr])
  `ASSERT(WackKnown_A, wack |-> dn_rsp_i.op == tessera_mem_pkg::MEM_OP_WRITE
                                && dn_rsp_i.tag[MTagW-1] && wb_valid_q[dn_rsp_i.tag[WbW-1:0]])
  // Allocation only of free entries.
  `ASSERT(MshrAllocFree_A, mshr_alloc |-> mshr_has_free)
  `ASSERT(WbAllocFree_A, wb_alloc |-> wb_has_free)
  // A new request is only accepted while the replay queue is empty, and S1 never holds a new
  // request while the queue has entries (order of acceptance is kept).
  `ASSERT(NewOnlyWithoutReplay_A, s1_valid_q && s1_kind_q == K_REQ && !s1_replay_q |-> !r0_valid_q)
  `ASSERT(ReplayOrder_A, r1_valid_q |-> r0_valid_q)
  // Maintenance slots run only on a drained pipeline (no requests, fills or replays with them).
  `ASSERT(WalkAlone_A, go_walk && mstate_q != M_INIT |-> mshr_valid_q == '0 && !r0_valid_q)
  `ASSERT(WalkNotStarved_A, walk_req |-> go_walk)
  // DSID 0 is never deleted.
  `ASSERT(NoDeleteDsid0_A, s1_valid_q && s1_kind_q == K_DEL |-> cmd_dsid != '0)
  // Every valid line S1 sees lies at or above its DSID's lowest set (dlo_d includes the install
  // of the cycle before, which the tag bypass already shows), so a DELETE walk from there
  // finds all of them.
  for (genvar w = 0; w < WAYS; w++) begin : gen_dlo_assert
    logic [SetW-1:0] dlo_w;
    always_comb begin
      dlo_w = '0;
      for (int unsigned i = 0; i < NumDsid; i++) begin
        if (w_dsid[w*DsidW +: DsidW] == DsidW'(i)) dlo_w = dlo_d[i*SetW +: SetW];
      end
    end
    `ASSERT(LineAboveDsidLowestSet_A, s1_valid_q && s1_kind_q != K_INIT && w_valid[w] |-> dlo_w <= s1_set_q)
  end
  // A flush writeback finds its way dirty (the walker read the set just before).
  `ASSERT(FwbDirty_A, s1_valid_q && s1_kind_q == K_FWB |-> w_valid[s1_way_q] && w_dirty[s1_way_q])
  // Pairwise invariants of the miss and writeback tables, one entry a cycle: chk_q walks the
  // entries, and the entry it points at is compared with every other. Checking every pair
  // every cycle took O(N^2) comparisons a cycle (1,600 for FillAfterWriteback alone at 40
  // MSHRs), most of the SLC's share of the GPU model's simulation time. An entry lives for a
  // memory round trip, longer than a walk, so a broken pair is still caught while it lasts.
  localparam int unsigned ChkN = (NUM_MSHR > NUM_WB) ? NUM_MSHR : NUM_WB;
  localparam int unsigned ChkW = (ChkN > 1) ? $clog2(ChkN) : 1;
  logic [ChkW-1:0]  chk_q;
  logic             chk_m_ok, chk_w_ok, chk_mshr_dup, chk_wb_block, chk_wb_dup;
  logic [MshrW-1:0] chk_m;
  logic [WbW-1:0]   chk_w;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) chk_q <= '0;
    else         chk_q <= (32'(chk_q) == ChkN - 1) ? '0 : chk_q + ChkW'(1);
  end
  assign chk_m_ok = 32'(chk_q) < NUM_MSHR;
  assign chk_w_ok = 32'(chk_q) < NUM_WB;
  assign chk_m    = MshrW'(chk_q);
  assign chk_w    = WbW'(chk_q);
  always_comb begin
    chk_mshr_dup = 1'b0;
    chk_wb_block = 1'b0;
    chk_wb_dup   = 1'b0;
    for (int unsigned b = 0; b < NUM_MSHR; b++) begin
      if (b != 32'(chk_m) && mshr_valid_q[b] &&
          mshr_line_q[b*LineAW +: LineAW] == mshr_line_q[32'(chk_m)*LineAW +: LineAW]) chk_mshr_dup = 1'b1;
    end
    for (int unsigned k = 0; k < NUM_WB; k++) begin
      // the fill waits while a writeback of its line is queued or unacknowledged
      if (wb_valid_q[k] && wb_line_q[k*LineAW +: LineAW] == mshr_line_q[32'(chk_m)*LineAW +: LineAW]) chk_wb_block = 1'b1;
      if (k != 32'(chk_w) && wb_valid_q[k] &&
          wb_line_q[k*LineAW +: LineAW] == wb_line_q[32'(chk_w)*LineAW +: LineAW]) chk_wb_dup = 1'b1;
    end
  end
  // The registered wait flag agrees with the writeback table: no fill is offered while a
  // writeback of its line is queued or unacknowledged.
  `ASSERT(FillAfterWriteback_A, chk_m_ok && mshr_valid_q[chk_m] |-> mshr_wbwait_q[chk_m] == chk_wb_block)
  // Outstanding misses are to distinct lines, and so are outstanding writebacks.
  `ASSERT(MshrDistinct_A, chk_m_ok && mshr_valid_q[chk_m] |-> !chk_mshr_dup)
  `ASSERT(WbDistinct_A, chk_w_ok && wb_valid_q[chk_w] |-> !chk_wb_dup)
  // Totals stay consistent: no more dirty lines than valid ones, no more than the cache holds.
  `ASSERT(TotalsInRange_A, dtot <= vtot && 32'(vtot) <= Lines)
  // WAY_LIMIT: a miss never takes a way outside the limit
  `ASSERT(VictimWithinLimit_A, s1_valid_q && victim_ok |-> allow_vec[victim])

endmodule
