// ccche -- per-slice cluster cache (CCHE): a small write-back cache with non-blocking read
// misses between one slice's memory clients and the memory crossbar.
//
// Source document: 001_3630ef805e8956e2.txt (Qualcomm, sliced GPU architecture): every
// hardware slice contains, among its slice hardware units, a "cluster cache (CCHE)"
// (summary paragraphs 1 and 4, claims 2/14/24), and "each CCHE of each hardware slice may
// receive data from one or more clients (i.e. one or more of the slice hardware units) and
// may synchronize the one or more clients; a unified cache (UCHE) coupled to the CCHE also
// synchronizes the multiple hardware slices" (summary paragraph 2). Design: ARCHITECTURE.md
// 5.3 ("CCHE per slice: a small write-back cache in front of the memory crossbar for the
// slice's clients ... The SLC plays UCHE") and section 3 (internal memory protocol,
// rtl/mem/tessera_mem_pkg.sv). Full description, deviations and figures: docs/ccche.md.
//
// Organisation: LINES lines of 64 bytes, WAYS ways, Sets = LINES / WAYS sets, set index
// addr[6 +: SetW], tag = the address bits above. Per line {valid, dirty, dsid of the last
// writer, tag} in flops (the lookup is combinational, so a hit is decided in the cycle the
// request is offered; invalidate-all clears the valid bits in one cycle). Line data in
// prim_ram_1p (LINES x 512 bits, byte mask), index {set, way}. Replacement: the lowest invalid
// way, else the tree pseudo-LRU way (prim_plru, the tree the SLC uses too), updated on every hit and
// allocation; ways reserved by a fill in flight are never victims.
//
// Operation ("peek, then accept"): a round-robin arbiter (prim_rr_arb, LOCK_IN) picks one
// client request; the cache looks it up without accepting it.
//   - Hit (READ, or WRITE with any strobes), full-line WRITE miss with a clean or invalid
//     victim, malformed request: accepted at once; the data RAM is accessed in the same
//     cycle and the response is offered the next cycle (1-cycle hit latency).
//   - READ miss with a clean or invalid victim and a free MSHR: accepted at once into the
//     MSHR (miss status holding register: line, victim way, client port/src/tag). The victim
//     is dropped (invalid, its way reserved), the MSHR offers the fill downstream, the fill
//     data is written to the RAM and the line installed clean, then the MSHR answers by
//     reading the line like a hit. Up to NUM_MSHR fills are in flight; hits, full-line writes
//     and further misses to other lines go on meanwhile; responses come out of order.
//   - A READ of a line whose fill is in flight merges: it takes an MSHR of its own, without a
//     fill, and is answered (from the RAM) once the fill lands. Any other request to a line an
//     MSHR holds (a WRITE, a PREFETCH, or anything once the fill has landed) waits until the
//     line's MSHRs have answered: per line, requests are performed in acceptance order.
//   - A dirty victim (READ or full-line WRITE miss), a partial WRITE miss (write-around) or a
//     PREFETCH starts the blocking miss sequencer: the request stays un-accepted on its port
//     (the protocol holds valid and payload until ready), the arbiter stays locked on it, the
//     victim is written back (with ITS dsid) or the request forwarded downstream; then the
//     same request is accepted (a READ now into an MSHR). Fills in flight land and are
//     answered meanwhile.
// Writebacks are posted: up to NUM_WB may be outstanding while the cache goes on. Any
// downstream request to a line whose writeback is still unanswered waits for that answer, so
// the cache is correct even over a downstream that applies a write only when it acknowledges
// it (AXI-like), not only over one that orders requests per line as the protocol promises.
//
// Maintenance (maint_req_i level, maint_inv_i): stop accepting, finish the sequencer's miss
// (its request is accepted), wait until every MSHR has answered, write back every dirty line
// (with its dsid), wait until every writeback is answered and every response handed over,
// invalidate all lines if maint_inv_i, pulse maint_done_o, wait for maint_req_i to fall.
//
// Combinational paths: cl_req_ready_o depends on cl_req_valid_i, cl_req_i (the lookup),
// cl_rsp_ready_i (the single response register frees in the cycle it is taken), maint_req_i
// and mem_rsp_valid_i/mem_rsp_i (a fill landing takes the data RAM in that cycle). mem_req_o
// depends on cl_req_i (wstrb/wdata of a forwarded WRITE come straight from the held client
// request). Every valid output comes from flops; mem_rsp_ready_o is 1.

`include "prim_assert.svh"

module ccche #(
  parameter int unsigned NUM_PORTS = 2,    // client ports, 1..32
  parameter int unsigned LINES     = 64,   // capacity in 64-byte lines; a power of 2
  parameter int unsigned WAYS      = 4,    // a power of 2, 2..LINES/2
  parameter int unsigned NUM_WB    = 2,    // writebacks outstanding downstream, 1..128
  parameter int unsigned SRC_ID    = 0,    // src of downstream requests (the crossbar stamps its own)
  parameter int unsigned NUM_MSHR  = 8,    // read misses (fills) outstanding, 1..64
  // Derived (do not override)
  localparam int unsigned ReqW = tessera_mem_pkg::MEM_REQ_W,
  localparam int unsigned RspW = tessera_mem_pkg::MEM_RSP_W
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  // client ports (port i at [i*W +: W]): mem_req_t / mem_rsp_t
  input  logic [NUM_PORTS-1:0]        cl_req_valid_i,
  output logic [NUM_PORTS-1:0]        cl_req_ready_o,
  input  logic [NUM_PORTS*ReqW-1:0]   cl_req_i,
  output logic [NUM_PORTS-1:0]        cl_rsp_valid_o,
  input  logic [NUM_PORTS-1:0]        cl_rsp_ready_i,
  output logic [NUM_PORTS*RspW-1:0]   cl_rsp_o,        // src and tag of the request
  // downstream (memory crossbar): fills, writebacks, forwarded writes and prefetches
  output logic                        mem_req_valid_o,
  input  logic                        mem_req_ready_i,
  output tessera_mem_pkg::mem_req_t   mem_req_o,
  input  logic                        mem_rsp_valid_i,
  output logic                        mem_rsp_ready_o,
  input  tessera_mem_pkg::mem_rsp_t   mem_rsp_i,
  // maintenance handshake
  input  logic                        maint_req_i,     // level, held until maint_done_o
  input  logic                        maint_inv_i,     // 1: flush + invalidate, 0: flush
  output logic                        maint_done_o,    // one-cycle pulse
  // statistics (wrapping)
  output logic [31:0]                 cnt_hits_o,       // READ/WRITE hits
  output logic [31:0]                 cnt_misses_o,     // READ/WRITE misses
  output logic [31:0]                 cnt_writebacks_o, // dirty lines written downstream
  output logic [31:0]                 cnt_fills_o,      // line fills requested downstream
  // holds work: a miss, writeback, forward or maintenance in flight, or a response not taken
  // (the GPU's progress watchdog names a stuck CCHE by it)
  output logic                        busy_o
);

  // ---- derived parameters -------------------------------------------------------------------
  localparam int unsigned LineBytes = tessera_mem_pkg::LINE_BYTES;
  localparam int unsigned LineW     = tessera_mem_pkg::LINE_W;
  localparam int unsigned OffW      = tessera_mem_pkg::OFFSET_W;
  localparam int unsigned AddrW     = tessera_mem_pkg::ADDR_W;
  localparam int unsigned DsidW     = tessera_mem_pkg::DSID_W;
  localparam int unsigned SrcW      = tessera_mem_pkg::SRC_W;
  localparam int unsigned MTagW     = tessera_mem_pkg::TAG_W;
  localparam int unsigned Sets      = LINES / WAYS;
  localparam int unsigned SetW      = (Sets > 1) ? $clog2(Sets) : 1;
  localparam int unsigned WayW      = (WAYS > 1) ? $clog2(WAYS) : 1;
  localparam int unsigned IdxW      = SetW + WayW;               // line index {set, way}
  localparam int unsigned LineAW    = AddrW - OffW;              // line address bits
  localparam int unsigned TagW      = LineAW - SetW;             // address tag bits
  localparam int unsigned PlruW     = (WAYS > 1) ? WAYS - 1 : 1;
  localparam int unsigned PortW     = (NUM_PORTS > 1) ? $clog2(NUM_PORTS) : 1;
  localparam int unsigned WbW       = (NUM_WB > 1) ? $clog2(NUM_WB) : 1;
  localparam int unsigned MshrW     = (NUM_MSHR > 1) ? $clog2(NUM_MSHR) : 1;
  localparam int unsigned MTagLoW   = MTagW - 1;                 // tag bits below the kind bit
  localparam int unsigned MTagFillW = MTagW - 2;                 // fill tags {2'b00, mshr}

  localparam logic [1:0] OpRead  = tessera_mem_pkg::MEM_OP_READ;
  localparam logic [1:0] OpWrite = tessera_mem_pkg::MEM_OP_WRITE;
  // Downstream tags: {1, slot} writeback, 8'h40 the forward, {2'b00, mshr} a fill.
  localparam logic [MTagW-1:0] FwdTag = MTagW'(8'h40);

  typedef enum logic [3:0] {
    S_IDLE      = 4'd0,   // look up / accept client requests
    S_WB_RD     = 4'd1,   // read the line to write back (RAM), reserve a writeback slot
    S_WB_REQ    = 4'd2,   // writeback offered downstream
    S_FWD_REQ   = 4'd3,   // forwarded partial WRITE / PREFETCH: wait for the downstream slot
    S_FWD_OFFER = 4'd4,   // ... offered downstream
    S_FWD_WAIT  = 4'd5,   // waiting for its answer
    S_M_DRAIN   = 4'd6,   // maintenance: every MSHR answered
    S_M_SCAN    = 4'd7,   // maintenance: find the next set holding a dirty line
    S_M_PICK    = 4'd8,   // maintenance: pick that set's first dirty way
    S_M_WAIT    = 4'd9,   // maintenance: all writebacks answered, response handed over
    S_M_DONE    = 4'd10,  // maintenance: maint_done_o pulse
    S_M_RELEASE = 4'd11   // maintenance: wait for maint_req_i to fall
  } state_e;

  // What the downstream request register offers.
  typedef enum logic [1:0] {
    DN_WB   = 2'd0,
    DN_FILL = 2'd1,
    DN_FWD  = 2'd2
  } dn_kind_e;

  // ---- declarations -------------------------------------------------------------------------
  state_e                 state_d, state_q;

  // line state (flops), line l = {set, way} at [l*W +: W]
  logic [LINES-1:0]       valid_d, valid_q, dirty_d, dirty_q;
  logic [LINES*TagW-1:0]  tag_d, tag_q;
  logic [LINES*DsidW-1:0] dsid_d, dsid_q;
  logic [Sets*PlruW-1:0]  plru_d, plru_q;

  // the sequencer's miss (its request is held, un-accepted, on port miss_port_q)
  logic                   pend_d, pend_q;          // a miss of the arbiter's winner is open
  logic                   pend_ans_d, pend_ans_q;  // ... and only its answer remains
  logic                   pend_err_d, pend_err_q;  // ... which is err
  logic [PortW-1:0]       miss_port_d, miss_port_q;
  logic [LineAW-1:0]      miss_line_d, miss_line_q;
  logic [DsidW-1:0]       miss_dsid_d, miss_dsid_q;
  logic [1:0]             miss_op_d, miss_op_q;

  // MSHRs: accepted READ misses. valid from acceptance until answered; sent once the fill is
  // offered downstream; done once it has been answered (the line installed, or err).
  logic [NUM_MSHR-1:0]        m_valid_d, m_valid_q, m_sent_d, m_sent_q;
  logic [NUM_MSHR-1:0]        m_done_d, m_done_q, m_err_d, m_err_q;
  logic [NUM_MSHR*LineAW-1:0] m_line_d, m_line_q;
  logic [NUM_MSHR*WayW-1:0]   m_way_d, m_way_q;
  logic [NUM_MSHR*DsidW-1:0]  m_dsid_d, m_dsid_q;
  logic [NUM_MSHR*PortW-1:0]  m_port_d, m_port_q;
  logic [NUM_MSHR*SrcW-1:0]   m_src_d, m_src_q;
  logic [NUM_MSHR*MTagW-1:0]  m_tag_d, m_tag_q;

  // the line being written back (eviction or maintenance)
  logic [IdxW-1:0]        wb_idx_d, wb_idx_q;
  logic [TagW-1:0]        wb_tag_d, wb_tag_q;
  logic [DsidW-1:0]       wb_dsid_d, wb_dsid_q;
  logic                   wb_maint_d, wb_maint_q;  // return to the maintenance scan
  logic [SetW-1:0]        scan_set_d, scan_set_q;
  logic                   inv_d, inv_q;

  // outstanding writebacks: slot s holds the line whose WRITE carries tag {1, s}
  logic [NUM_WB-1:0]      slot_valid_d, slot_valid_q;
  logic [NUM_WB*LineAW-1:0] slot_line_d, slot_line_q;
  logic [WbW-1:0]         dn_slot_d, dn_slot_q;    // slot of the writeback being offered
  logic                   dn_valid_d, dn_valid_q;  // mem_req_valid_o
  dn_kind_e               dn_kind_d, dn_kind_q;    // what is offered
  logic [MshrW-1:0]       dn_mshr_d, dn_mshr_q;    // MSHR of the fill being offered

  // response register (one response in flight; rdata straight from the data RAM's output)
  logic                   rsp_valid_d, rsp_valid_q;
  logic [PortW-1:0]       rsp_port_d, rsp_port_q;
  logic [1:0]             rsp_op_d, rsp_op_q;
  logic                   rsp_err_d, rsp_err_q;
  logic [SrcW-1:0]        rsp_src_d, rsp_src_q;
  logic [MTagW-1:0]       rsp_tag_d, rsp_tag_q;
  logic                   rsp_ram_d, rsp_ram_q;    // rdata = data RAM output (READ), else 0

  // Counter events are registered before the increment: the hit/miss decision is at the end
  // of the lookup path and a 32-bit increment after it would add its own logic levels.
  logic                   ev_hit_d, ev_hit_q, ev_miss_d, ev_miss_q;
  logic                   ev_wb_d, ev_wb_q, ev_fill_d, ev_fill_q;
  logic [31:0]            cnt_hits_d, cnt_hits_q, cnt_misses_d, cnt_misses_q;
  logic [31:0]            cnt_wbs_d, cnt_wbs_q, cnt_fills_d, cnt_fills_q;

  // ---- client arbitration -------------------------------------------------------------------
  logic                        arb_valid, accept;
  logic [PortW-1:0]            arb_idx;
  logic [ReqW-1:0]             arb_data;
  tessera_mem_pkg::mem_req_t   q;

  // LOCK_IN: while the winner waits (a miss in progress, the response register busy, its line
  // held by an MSHR, maintenance) the pointer stays on it, so the held request stays the winner.
  prim_rr_arb #(
    .N       (NUM_PORTS),
    .WIDTH   (ReqW),
    .LOCK_IN (1)
  ) u_arb (
    .clk_i,
    .rst_ni,
    .req_i   (cl_req_valid_i),
    .gnt_o   (cl_req_ready_o),
    .data_i  (cl_req_i),
    .valid_o (arb_valid),
    .ready_i (accept),
    .data_o  (arb_data),
    .idx_o   (arb_idx)
  );
  assign q = arb_data;

  // ---- lookup -------------------------------------------------------------------------------
  logic [SetW-1:0]        q_set, lk_set;
  logic [TagW-1:0]        q_tag;
  logic                   q_bad, q_full, is_rd, is_wr, is_pf;
  logic [WAYS-1:0]        set_valid, set_dirty, hit_oh;
  logic [WAYS*TagW-1:0]   set_tags;
  logic [WAYS*DsidW-1:0]  set_dsid;
  logic [PlruW-1:0]       set_plru, plru_new;
  logic                   hit;
  logic [WayW-1:0]        hit_way, plru_victim, inv_way, victim, dirty_way, touch_way;
  logic                   inv_any, victim_dirty, unused_dirty_any;
  logic [WAYS-1:0]        unused_inv_oh, unused_dirty_oh;

  assign q_set  = q.addr[OffW +: SetW];
  assign q_tag  = q.addr[AddrW-1 -: TagW];
  assign is_rd  = (q.op == tessera_mem_pkg::MEM_OP_READ);
  assign is_wr  = (q.op == tessera_mem_pkg::MEM_OP_WRITE);
  assign is_pf  = (q.op == tessera_mem_pkg::MEM_OP_PREFETCH);
  assign q_full = (q.wstrb == '1);
  // Malformed (tessera_mem_pkg rules): misaligned, strobes on READ/PREFETCH, unknown op.
  assign q_bad  = (q.addr[OffW-1:0] != '0) || !(is_rd || is_wr || is_pf) ||
                  (!is_wr && (q.wstrb != '0));

  // The set looked at: the client request's, or the maintenance scan's.
  assign lk_set = (state_q == S_M_PICK) ? scan_set_q : q_set;

  // Set read-out as an AND-OR mux (the set selects are one-hot: a balanced tree, no chain).
  always_comb begin
    set_valid = '0;
    set_dirty = '0;
    set_tags  = '0;
    set_dsid  = '0;
    set_plru  = '0;
    for (int unsigned s = 0; s < Sets; s++) begin
      if (lk_set == SetW'(s)) begin
        set_valid = set_valid | valid_q[s*WAYS +: WAYS];
        set_dirty = set_dirty | dirty_q[s*WAYS +: WAYS];
        set_tags  = set_tags  | tag_q[s*WAYS*TagW +: WAYS*TagW];
        set_dsid  = set_dsid  | dsid_q[s*WAYS*DsidW +: WAYS*DsidW];
        set_plru  = set_plru  | plru_q[s*PlruW +: PlruW];
      end
    end
  end

  always_comb begin
    hit_way = '0;
    for (int unsigned w = 0; w < WAYS; w++) begin
      hit_oh[w] = set_valid[w] && (set_tags[w*TagW +: TagW] == q_tag);
      if (hit_oh[w]) begin
        hit_way = hit_way | WayW'(w);
      end
    end
  end
  assign hit = (hit_oh != '0);

  // MSHRs against the request: its line held by an MSHR (the request waits), and the ways of
  // its set reserved by an MSHR (never victims: the fill lands there).
  // (Every MSHR of one line has the same way and the same done state: a fill landing marks
  // them all.)
  logic [LineAW-1:0]      q_line;
  logic                   mshr_hit, mshr_hit_done;
  logic [WayW-1:0]        mshr_hit_way;
  logic [WAYS-1:0]        set_resv;
  assign q_line = q.addr[AddrW-1:OffW];
  always_comb begin
    mshr_hit      = 1'b0;
    mshr_hit_done = 1'b0;
    mshr_hit_way  = '0;
    set_resv      = '0;
    for (int unsigned m = 0; m < NUM_MSHR; m++) begin
      if (m_valid_q[m] && m_line_q[m*LineAW +: LineAW] == q_line) begin
        mshr_hit      = 1'b1;
        mshr_hit_done = mshr_hit_done | m_done_q[m];
        mshr_hit_way  = mshr_hit_way | m_way_q[m*WayW +: WayW];
      end
      for (int unsigned w = 0; w < WAYS; w++) begin
        if (m_valid_q[m] && m_line_q[m*LineAW +: SetW] == q_set &&
            m_way_q[m*WayW +: WayW] == WayW'(w)) begin
          set_resv[w] = 1'b1;
        end
      end
    end
  end

  // Victim: the lowest invalid way, else the PLRU way; reserved ways excluded (if the PLRU way
  // is reserved: the lowest unreserved way). None if every way is reserved.
  logic             plru_ok, free_any, victim_ok;
  logic [WayW-1:0]  free_way;
  logic [WAYS-1:0]  unused_free_oh;
  prim_priority_enc #(.WIDTH (WAYS)) u_inv_enc (
    .in_i (~set_valid & ~set_resv), .onehot_o (unused_inv_oh), .idx_o (inv_way),
    .valid_o (inv_any));
  prim_priority_enc #(.WIDTH (WAYS)) u_free_enc (
    .in_i (~set_resv), .onehot_o (unused_free_oh), .idx_o (free_way), .valid_o (free_any));
  assign plru_ok      = !set_resv[plru_victim];
  assign victim       = inv_any ? inv_way : (plru_ok ? plru_victim : free_way);
  assign victim_ok    = free_any;
  assign victim_dirty = set_valid[victim] && set_dirty[victim];

  // Maintenance: the first dirty way of the scanned set.
  prim_priority_enc #(.WIDTH (WAYS)) u_dirty_enc (
    .in_i (set_valid & set_dirty), .onehot_o (unused_dirty_oh), .idx_o (dirty_way),
    .valid_o (unused_dirty_any));

  prim_plru #(.WAYS (WAYS)) u_plru (
    .bits_i      (set_plru),
    .left_levels_i({(WayW + 1){1'b0}}),   // a sized constant: Yosys 0.23 (docs/lint-and-synthesis.md)
    .touch_way_i (touch_way),
    .victim_o    (plru_victim),
    .bits_o      (plru_new)
  );

  // Sets holding a dirty line, for the maintenance scan.
  logic [Sets-1:0]  set_has_dirty, unused_dset_oh;
  logic [SetW-1:0]  dirty_set;
  logic             any_dirty;
  always_comb begin
    for (int unsigned s = 0; s < Sets; s++) begin
      set_has_dirty[s] = |(valid_q[s*WAYS +: WAYS] & dirty_q[s*WAYS +: WAYS]);
    end
  end
  prim_priority_enc #(.WIDTH (Sets)) u_dset_enc (
    .in_i (set_has_dirty), .onehot_o (unused_dset_oh), .idx_o (dirty_set), .valid_o (any_dirty));

  // ---- writeback slots ----------------------------------------------------------------------
  logic [NUM_WB-1:0] unused_slot_oh;
  logic [WbW-1:0]    free_slot;
  logic              slot_free_any;
  logic [LineAW-1:0] wb_line;
  logic              wb_conflict, miss_conflict;
  logic [NUM_MSHR-1:0] fill_conflict;

  prim_priority_enc #(.WIDTH (NUM_WB)) u_slot_enc (
    .in_i (~slot_valid_q), .onehot_o (unused_slot_oh), .idx_o (free_slot),
    .valid_o (slot_free_any));

  assign wb_line = {wb_tag_q, wb_idx_q[WayW +: SetW]};

  // A line with an unanswered writeback is not requested again until the answer is in.
  always_comb begin
    wb_conflict   = 1'b0;
    miss_conflict = 1'b0;
    fill_conflict = '0;
    for (int unsigned s = 0; s < NUM_WB; s++) begin
      if (slot_valid_q[s] && (slot_line_q[s*LineAW +: LineAW] == wb_line)) begin
        wb_conflict = 1'b1;
      end
      if (slot_valid_q[s] && (slot_line_q[s*LineAW +: LineAW] == miss_line_q)) begin
        miss_conflict = 1'b1;
      end
      for (int unsigned m = 0; m < NUM_MSHR; m++) begin
        if (slot_valid_q[s] && (slot_line_q[s*LineAW +: LineAW] == m_line_q[m*LineAW +: LineAW])) begin
          fill_conflict[m] = 1'b1;
        end
      end
    end
  end

  // ---- MSHR selection -----------------------------------------------------------------------
  logic [NUM_MSHR-1:0] unused_mfree_oh, unused_miss_oh, unused_mans_oh;
  logic [MshrW-1:0]    mfree_idx, miss_idx, mans_idx;
  logic                mfree_any, miss_any, mans_any;

  // a free MSHR (for the next READ miss)
  prim_priority_enc #(.WIDTH (NUM_MSHR)) u_mfree_enc (
    .in_i (~m_valid_q), .onehot_o (unused_mfree_oh), .idx_o (mfree_idx), .valid_o (mfree_any));
  // an MSHR whose fill may be offered (not yet sent, no writeback of its line unanswered)
  prim_priority_enc #(.WIDTH (NUM_MSHR)) u_miss_enc (
    .in_i (m_valid_q & ~m_sent_q & ~fill_conflict), .onehot_o (unused_miss_oh),
    .idx_o (miss_idx), .valid_o (miss_any));
  // an MSHR whose fill has been answered: its client response is due
  prim_priority_enc #(.WIDTH (NUM_MSHR)) u_mans_enc (
    .in_i (m_done_q), .onehot_o (unused_mans_oh), .idx_o (mans_idx), .valid_o (mans_any));

  // fields of the answering MSHR, of the offered fill and of the landing fill
  logic [MshrW-1:0]  fl_idx;
  logic [SetW-1:0]   ans_set;
  logic [LineAW-1:0] dn_m_line, fl_line;
  logic [WayW-1:0]   ans_way, fl_way;
  logic [PortW-1:0]  ans_port;
  logic [SrcW-1:0]   ans_src;
  logic [MTagW-1:0]  ans_tag;
  logic              ans_err;
  logic [DsidW-1:0]  dn_m_dsid;
  assign fl_idx = mem_rsp_i.tag[MshrW-1:0];
  always_comb begin
    ans_set   = '0;
    ans_way   = '0;
    ans_port  = '0;
    ans_src   = '0;
    ans_tag   = '0;
    ans_err   = 1'b0;
    dn_m_line = '0;
    dn_m_dsid = '0;
    fl_line   = '0;
    fl_way    = '0;
    for (int unsigned m = 0; m < NUM_MSHR; m++) begin
      if (mans_idx == MshrW'(m)) begin
        ans_set  = m_line_q[m*LineAW +: SetW];
        ans_way  = m_way_q[m*WayW +: WayW];
        ans_port = m_port_q[m*PortW +: PortW];
        ans_src  = m_src_q[m*SrcW +: SrcW];
        ans_tag  = m_tag_q[m*MTagW +: MTagW];
        ans_err  = m_err_q[m];
      end
      if (dn_mshr_q == MshrW'(m)) begin
        dn_m_line = m_line_q[m*LineAW +: LineAW];
        dn_m_dsid = m_dsid_q[m*DsidW +: DsidW];
      end
      if (fl_idx == MshrW'(m)) begin
        fl_line = m_line_q[m*LineAW +: LineAW];
        fl_way  = m_way_q[m*WayW +: WayW];
      end
    end
  end

  // ---- data RAM -----------------------------------------------------------------------------
  logic                 d_req, d_we;
  logic [IdxW-1:0]      d_addr;
  logic [LineW-1:0]     d_wdata, d_rdata;
  logic [LineBytes-1:0] d_wmask;
  logic                 unused_d_rvalid;

  prim_ram_1p #(
    .WIDTH              (LineW),
    .DEPTH              (LINES),
    .DATA_BITS_PER_MASK (8)
  ) u_data (
    .clk_i,
    .rst_ni,
    .req_i    (d_req),
    .we_i     (d_we),
    .addr_i   (d_addr),
    .wdata_i  (d_wdata),
    .wmask_i  (d_wmask),
    .rdata_o  (d_rdata),
    .rvalid_o (unused_d_rvalid)
  );

  // ---- control ------------------------------------------------------------------------------
  logic rsp_taken, rsp_free, ram_out_free, open;
  logic act_answer, act_err, act_hold, act_merge, act_hit, act_alloc, act_rdmiss, act_evict, act_fwd;
  logic fill_same;
  logic lk, miss_kind, need_rsp, start, ans_go, wb_go;
  logic dn_rsp_wb, dn_rsp_fwd, dn_rsp_fill, fill_wr, dn_hs;
  // one line-state write per cycle from the lookup / sequencer, one from a landing fill
  logic             ent_we, ent_valid, ent_dirty;
  logic [IdxW-1:0]  ent_idx;
  logic [TagW-1:0]  ent_tag;
  logic [DsidW-1:0] ent_dsid;
  logic             inval_all, plru_we;

  // The response register is free, or is handed over in this cycle.
  always_comb begin
    rsp_taken = 1'b0;
    for (int unsigned p = 0; p < NUM_PORTS; p++) begin
      if (rsp_port_q == PortW'(p) && cl_rsp_ready_i[p]) begin
        rsp_taken = rsp_valid_q;
      end
    end
  end
  assign rsp_free     = !rsp_valid_q || rsp_taken;
  // The data RAM's output may change only once a READ response holding it is handed over.
  assign ram_out_free = !(rsp_valid_q && rsp_ram_q) || rsp_taken;

  // Downstream responses: tag[7] = 1 answers writeback slot tag[WbW-1:0]; 8'h40 the forward;
  // {2'b00, m} the fill of MSHR m. A fill that lands is written to the RAM in that cycle
  // (mem_rsp_ready_o is 1): it has the RAM port first.
  assign dn_rsp_wb   = mem_rsp_valid_i && mem_rsp_i.tag[MTagW-1];
  assign dn_rsp_fwd  = mem_rsp_valid_i && mem_rsp_i.tag[MTagW-1 -: 2] == 2'b01;
  assign dn_rsp_fill = mem_rsp_valid_i && mem_rsp_i.tag[MTagW-1 -: 2] == 2'b00;
  assign fill_wr     = dn_rsp_fill && !mem_rsp_i.err;
  assign fill_same   = dn_rsp_fill && (fl_line == q_line);
  assign dn_hs       = dn_valid_q && mem_req_ready_i;
  assign mem_rsp_ready_o = 1'b1;  // nothing downstream of a response can stall

  // An answered MSHR answers its client (a READ of the installed line, or err): the response
  // register and the RAM output must be free (not holding a writeback being offered).
  assign ans_go = mans_any && rsp_free && !fill_wr && (state_q != S_WB_REQ);

  // What the offered request needs. A held request whose sequencer work is done (pend_q) is
  // either answered from pend_* (forward) or now hits / allocates / takes an MSHR.
  assign act_answer = pend_ans_q;
  assign act_err    = !pend_ans_q && q_bad;
  // A READ of a line whose fill is still in flight merges: it takes an MSHR of its own, with
  // no fill, answered once the fill lands. Anything else to a line an MSHR holds waits.
  assign act_merge  = !pend_ans_q && !q_bad && mshr_hit && !mshr_hit_done && is_rd && mfree_any;
  assign act_hold   = !pend_ans_q && !q_bad && mshr_hit && !act_merge;
  assign lk         = !pend_ans_q && !q_bad && !mshr_hit;
  assign act_hit    = lk && (is_rd || is_wr) && hit;
  // READ or full-line WRITE miss with a victim (a READ also needs an MSHR)
  assign miss_kind  = lk && !hit && (is_rd || (is_wr && q_full)) && victim_ok &&
                      (is_wr || mfree_any);
  assign act_alloc  = miss_kind && is_wr && !victim_dirty;
  assign act_rdmiss = miss_kind && is_rd && !victim_dirty;
  assign act_evict  = miss_kind && victim_dirty;
  assign act_fwd    = lk && ((is_wr && !q_full && !hit) || is_pf);

  // New requests are looked at in S_IDLE unless maintenance is requested; the held request
  // of an open miss is always finished. Accepting a READ miss needs only the MSHR; the others
  // need the response register (after a due MSHR answer) and hits/allocations the RAM port
  // (after a landing fill).
  assign open     = (state_q == S_IDLE) && arb_valid && (pend_q || !maint_req_i);
  assign need_rsp = act_answer || act_err || act_hit || act_alloc;
  assign accept   = open && (act_rdmiss || act_merge ||
                             (need_rsp && rsp_free && !ans_go && !((act_hit || act_alloc) && fill_wr)));
  assign start    = open && !pend_q && (act_evict || act_fwd);

  // The sequencer's writeback read: RAM port and output free, a slot, no writeback of the line
  // open, the downstream register free.
  assign wb_go = (state_q == S_WB_RD) && !dn_valid_q && ram_out_free && !fill_wr && !ans_go &&
                 slot_free_any && !wb_conflict;

  always_comb begin
    state_d      = state_q;
    pend_d       = pend_q;
    pend_ans_d   = pend_ans_q;
    pend_err_d   = pend_err_q;
    miss_port_d  = miss_port_q;
    miss_line_d  = miss_line_q;
    miss_dsid_d  = miss_dsid_q;
    miss_op_d    = miss_op_q;
    wb_idx_d     = wb_idx_q;
    wb_tag_d     = wb_tag_q;
    wb_dsid_d    = wb_dsid_q;
    wb_maint_d   = wb_maint_q;
    scan_set_d   = scan_set_q;
    inv_d        = inv_q;
    dn_valid_d   = dn_valid_q;
    dn_kind_d    = dn_kind_q;
    dn_mshr_d    = dn_mshr_q;
    dn_slot_d    = dn_slot_q;
    slot_valid_d = slot_valid_q;
    slot_line_d  = slot_line_q;
    m_valid_d    = m_valid_q;
    m_sent_d     = m_sent_q;
    m_done_d     = m_done_q;
    m_err_d      = m_err_q;
    m_line_d     = m_line_q;
    m_way_d      = m_way_q;
    m_dsid_d     = m_dsid_q;
    m_port_d     = m_port_q;
    m_src_d      = m_src_q;
    m_tag_d      = m_tag_q;

    rsp_valid_d  = rsp_valid_q && !rsp_taken;
    rsp_port_d   = rsp_port_q;
    rsp_op_d     = rsp_op_q;
    rsp_err_d    = rsp_err_q;
    rsp_src_d    = rsp_src_q;
    rsp_tag_d    = rsp_tag_q;
    rsp_ram_d    = rsp_ram_q;

    d_req     = 1'b0;
    d_we      = 1'b0;
    d_addr    = {q_set, hit_way};
    d_wdata   = q.wdata;
    d_wmask   = q.wstrb;
    ent_we    = 1'b0;
    ent_valid = 1'b1;
    ent_idx   = {q_set, hit_way};
    ent_dirty = 1'b1;
    ent_tag   = q_tag;
    ent_dsid  = q.dsid;
    inval_all = 1'b0;
    plru_we   = 1'b0;
    touch_way = hit_way;

    ev_hit_d  = 1'b0;
    ev_miss_d = 1'b0;
    ev_wb_d   = 1'b0;
    ev_fill_d = 1'b0;

    // Writeback answered: its slot is free from the next cycle.
    if (dn_rsp_wb) begin
      for (int unsigned s = 0; s < NUM_WB; s++) begin
        if (mem_rsp_i.tag[WbW-1:0] == WbW'(s)) begin
          slot_valid_d[s] = 1'b0;
        end
      end
    end

    // ---- a fill lands: data to the RAM (the line is installed by the second line-state
    // port, below); an err fill installs nothing. Its MSHR and those merged into it answer
    // from the next cycle.
    if (dn_rsp_fill) begin
      for (int unsigned m = 0; m < NUM_MSHR; m++) begin
        if (m_valid_q[m] && m_line_q[m*LineAW +: LineAW] == fl_line) begin
          m_done_d[m] = 1'b1;
          m_err_d[m]  = mem_rsp_i.err;
        end
      end
    end
    if (fill_wr) begin
      d_req   = 1'b1;
      d_we    = 1'b1;
      d_addr  = {fl_line[SetW-1:0], fl_way};
      d_wdata = mem_rsp_i.rdata;
      d_wmask = '1;
    end

    // ---- an MSHR answers: read the line (like a hit) or answer err; the MSHR is free
    if (ans_go) begin
      rsp_valid_d = 1'b1;
      rsp_port_d  = ans_port;
      rsp_op_d    = OpRead;
      rsp_src_d   = ans_src;
      rsp_tag_d   = ans_tag;
      rsp_err_d   = ans_err;
      rsp_ram_d   = !ans_err;
      if (!ans_err) begin
        d_req  = 1'b1;
        d_we   = 1'b0;
        d_addr = {ans_set, ans_way};
      end
      for (int unsigned m = 0; m < NUM_MSHR; m++) begin
        if (mans_idx == MshrW'(m)) begin
          m_valid_d[m] = 1'b0;
          m_sent_d[m]  = 1'b0;
          m_done_d[m]  = 1'b0;
          m_err_d[m]   = 1'b0;
        end
      end
    end

    // ---- accept ----------------------------------------------------------------------------
    if (accept) begin
      pend_d      = 1'b0;
      pend_ans_d  = 1'b0;
      pend_err_d  = 1'b0;
      if (act_merge) begin
        // READ of a line being filled: an MSHR without a fill of its own (sent), on the same
        // way; done with the fill (also if the fill lands in this very cycle).
        for (int unsigned m = 0; m < NUM_MSHR; m++) begin
          if (mfree_idx == MshrW'(m)) begin
            m_valid_d[m]                   = 1'b1;
            m_sent_d[m]                    = 1'b1;
            m_done_d[m]                    = fill_same;
            m_err_d[m]                     = fill_same && mem_rsp_i.err;
            m_line_d[m*LineAW +: LineAW]   = q_line;
            m_way_d[m*WayW +: WayW]        = mshr_hit_way;
            m_dsid_d[m*DsidW +: DsidW]     = q.dsid;
            m_port_d[m*PortW +: PortW]     = arb_idx;
            m_src_d[m*SrcW +: SrcW]        = q.src;
            m_tag_d[m*MTagW +: MTagW]      = q.tag;
          end
        end
        if (!pend_q) begin
          ev_miss_d = 1'b1;
        end
      end else if (act_rdmiss) begin
        // READ miss: into a free MSHR; the (clean) victim is dropped and its way reserved.
        for (int unsigned m = 0; m < NUM_MSHR; m++) begin
          if (mfree_idx == MshrW'(m)) begin
            m_valid_d[m]                   = 1'b1;
            m_sent_d[m]                    = 1'b0;
            m_done_d[m]                    = 1'b0;
            m_err_d[m]                     = 1'b0;
            m_line_d[m*LineAW +: LineAW]   = q_line;
            m_way_d[m*WayW +: WayW]        = victim;
            m_dsid_d[m*DsidW +: DsidW]     = q.dsid;
            m_port_d[m*PortW +: PortW]     = arb_idx;
            m_src_d[m*SrcW +: SrcW]        = q.src;
            m_tag_d[m*MTagW +: MTagW]      = q.tag;
          end
        end
        ent_we    = 1'b1;
        ent_valid = 1'b0;
        ent_idx   = {q_set, victim};
        ent_dirty = 1'b0;
        ent_dsid  = '0;
        plru_we   = 1'b1;
        touch_way = victim;
        if (!pend_q) begin
          ev_miss_d = 1'b1;
        end
      end else begin
        // answered in the next cycle
        rsp_valid_d = 1'b1;
        rsp_port_d  = arb_idx;
        rsp_op_d    = q.op;
        rsp_src_d   = q.src;
        rsp_tag_d   = q.tag;
        rsp_err_d   = act_answer ? pend_err_q : act_err;
        rsp_ram_d   = act_hit && is_rd;
        if (act_hit) begin
          // READ: read the line; WRITE: merge under the strobes, dirty, dsid := writer's.
          d_req   = 1'b1;
          d_we    = is_wr;
          ent_we  = is_wr;
          plru_we = 1'b1;
          if (!pend_q) begin
            ev_hit_d = 1'b1;
          end
        end else if (act_alloc) begin
          // Full-line WRITE miss: write-allocate without fetch into the (clean) victim.
          d_req     = 1'b1;
          d_we      = 1'b1;
          d_addr    = {q_set, victim};
          d_wmask   = '1;
          ent_we    = 1'b1;
          ent_idx   = {q_set, victim};
          plru_we   = 1'b1;
          touch_way = victim;
          if (!pend_q) begin
            ev_miss_d = 1'b1;
          end
        end
      end
    end

    // ---- start the sequencer: the request stays on its port until the work is done ---------
    if (start) begin
      pend_d      = 1'b1;
      miss_port_d = arb_idx;
      miss_line_d = q_line;
      miss_dsid_d = q.dsid;
      miss_op_d   = q.op;
      wb_idx_d    = {q_set, victim};
      wb_tag_d    = set_tags[victim*TagW +: TagW];
      wb_dsid_d   = set_dsid[victim*DsidW +: DsidW];
      wb_maint_d  = 1'b0;
      if (!is_pf) begin
        ev_miss_d = 1'b1;
      end
      if (act_evict) begin
        state_d = S_WB_RD;
      end else begin
        state_d = S_FWD_REQ;
      end
    end

    // ---- downstream request register: the sequencer's writeback / forward first, else a fill
    if (dn_hs) begin
      dn_valid_d = 1'b0;
      if (dn_kind_q == DN_FILL) begin
        ev_fill_d = 1'b1;
      end
    end
    if (!dn_valid_q) begin
      if (wb_go) begin
        // Read the line and reserve a slot (and so its tag) as the writeback is offered, so
        // the offered payload never changes.
        d_req      = 1'b1;
        d_we       = 1'b0;
        d_addr     = wb_idx_q;
        dn_valid_d = 1'b1;
        dn_kind_d  = DN_WB;
        dn_slot_d  = free_slot;
        for (int unsigned s = 0; s < NUM_WB; s++) begin
          if (free_slot == WbW'(s)) begin
            slot_valid_d[s]                   = 1'b1;
            slot_line_d[s*LineAW +: LineAW]   = wb_line;
          end
        end
        state_d = S_WB_REQ;
      end else if (state_q == S_FWD_REQ && !miss_conflict) begin
        dn_valid_d = 1'b1;
        dn_kind_d  = DN_FWD;
        state_d    = S_FWD_OFFER;
      end else if (miss_any) begin
        dn_valid_d = 1'b1;
        dn_kind_d  = DN_FILL;
        dn_mshr_d  = miss_idx;
        for (int unsigned m = 0; m < NUM_MSHR; m++) begin
          if (miss_idx == MshrW'(m)) begin
            m_sent_d[m] = 1'b1;
          end
        end
      end
    end

    unique case (state_q)
      S_IDLE: begin
        if (!pend_q && maint_req_i) begin
          state_d = S_M_DRAIN;
          inv_d   = maint_inv_i;
        end
      end

      S_WB_RD: begin
        // wb_go above
      end

      S_WB_REQ: begin
        if (dn_hs) begin
          ent_we     = 1'b1;           // the line stays valid, now clean
          ent_idx    = wb_idx_q;
          ent_dirty  = 1'b0;
          ent_tag    = wb_tag_q;
          ent_dsid   = wb_dsid_q;
          ev_wb_d    = 1'b1;
          if (wb_maint_q) begin
            state_d = S_M_SCAN;
          end else begin
            state_d = S_IDLE;          // the held request now finds a clean victim
          end
        end
      end

      S_FWD_REQ: begin
        // offered above once the downstream register is free and no writeback of the line open
      end

      S_FWD_OFFER: begin
        if (dn_hs) begin
          state_d = S_FWD_WAIT;
        end
      end

      S_FWD_WAIT: begin
        if (dn_rsp_fwd) begin
          pend_ans_d = 1'b1;
          pend_err_d = mem_rsp_i.err;
          state_d    = S_IDLE;
        end
      end

      S_M_DRAIN: begin
        if (m_valid_q == '0) begin
          state_d = S_M_SCAN;
        end
      end

      S_M_SCAN: begin
        if (any_dirty) begin
          scan_set_d = dirty_set;
          state_d    = S_M_PICK;
        end else begin
          state_d    = S_M_WAIT;
        end
      end

      S_M_PICK: begin
        wb_idx_d   = {scan_set_q, dirty_way};
        wb_tag_d   = set_tags[dirty_way*TagW +: TagW];
        wb_dsid_d  = set_dsid[dirty_way*DsidW +: DsidW];
        wb_maint_d = 1'b1;
        state_d    = S_WB_RD;
      end

      S_M_WAIT: begin
        if (slot_valid_q == '0 && !rsp_valid_q) begin
          inval_all = inv_q;
          state_d   = S_M_DONE;
        end
      end

      S_M_DONE: begin
        state_d = S_M_RELEASE;
      end

      S_M_RELEASE: begin
        if (!maint_req_i) begin
          state_d = S_IDLE;
        end
      end

      default: begin
        state_d = S_IDLE;
      end
    endcase
  end

  // Line-state and PLRU updates: one entry from the lookup / sequencer, one from a landing
  // fill (installed valid and clean; always a reserved way, never the other entry's line);
  // invalidate-all clears every valid bit.
  // Unconditional assignments with the conditions in the values, not `if`s in the loop:
  // Yosys 0.23's proc_mux builds a decision tree per assigned slice over the whole process,
  // and the `if` form cost it 12 s (make synth). (Continuous assignments per line would be as
  // cheap for Yosys but make Verilator rebuild the vectors by concatenation, a fifth of the
  // GPU's simulation time.)
  always_comb begin
    for (int unsigned l = 0; l < LINES; l++) begin
      logic ent_here, fill_here;
      ent_here  = ent_we && ent_idx == IdxW'(l);
      fill_here = fill_wr && {fl_line[SetW-1:0], fl_way} == IdxW'(l);
      valid_d[l] = !inval_all && (fill_here || (ent_here ? ent_valid : valid_q[l]));
      dirty_d[l] = !fill_here && (ent_here ? ent_dirty : dirty_q[l]);
      tag_d[l*TagW +: TagW] = fill_here ? fl_line[LineAW-1:SetW]
                            : ent_here  ? ent_tag : tag_q[l*TagW +: TagW];
      // clean: the dsid matters only once written
      dsid_d[l*DsidW +: DsidW] = fill_here ? '0
                               : ent_here  ? ent_dsid : dsid_q[l*DsidW +: DsidW];
    end
    for (int unsigned st = 0; st < Sets; st++) begin
      plru_d[st*PlruW +: PlruW] = (plru_we && q_set == SetW'(st)) ? plru_new
                                                                   : plru_q[st*PlruW +: PlruW];
    end
  end

  // ---- outputs ------------------------------------------------------------------------------
  // Downstream request: writeback (line data from the RAM output, which holds it), fill, or
  // the held client request forwarded (write-around / prefetch).
  always_comb begin
    mem_req_o     = '0;
    mem_req_o.src = SrcW'(SRC_ID);
    unique case (dn_kind_q)
      DN_WB: begin
        mem_req_o.op    = tessera_mem_pkg::MEM_OP_WRITE;
        mem_req_o.addr  = {wb_line, {OffW{1'b0}}};
        mem_req_o.dsid  = wb_dsid_q;
        mem_req_o.tag   = {1'b1, MTagLoW'(dn_slot_q)};
        mem_req_o.wstrb = '1;
        mem_req_o.wdata = d_rdata;
      end
      DN_FILL: begin
        mem_req_o.op    = tessera_mem_pkg::MEM_OP_READ;
        mem_req_o.addr  = {dn_m_line, {OffW{1'b0}}};
        mem_req_o.dsid  = dn_m_dsid;
        mem_req_o.tag   = {2'b00, MTagFillW'(dn_mshr_q)};
      end
      DN_FWD: begin
        mem_req_o.op    = (miss_op_q == OpWrite) ? tessera_mem_pkg::MEM_OP_WRITE
                                                 : tessera_mem_pkg::MEM_OP_PREFETCH;
        mem_req_o.addr  = {miss_line_q, {OffW{1'b0}}};
        mem_req_o.dsid  = miss_dsid_q;
        mem_req_o.tag   = FwdTag;
        mem_req_o.wstrb = (miss_op_q == OpWrite) ? q.wstrb : '0;
        mem_req_o.wdata = (miss_op_q == OpWrite) ? q.wdata : '0;
      end
      default: begin
      end
    endcase
  end
  assign mem_req_valid_o = dn_valid_q;

  // Responses: one register shared by the ports (mem_rsp_t member order op, err, src, tag,
  // rdata, MSB first); every port sees the payload, only the addressed one sees valid.
  logic [RspW-1:0]  rsp_bits;
  logic [LineW-1:0] rsp_rdata;
  assign rsp_rdata = rsp_ram_q ? d_rdata : '0;
  assign rsp_bits  = {rsp_op_q, rsp_err_q, rsp_src_q, rsp_tag_q, rsp_rdata};
  always_comb begin
    for (int unsigned p = 0; p < NUM_PORTS; p++) begin
      cl_rsp_valid_o[p]         = rsp_valid_q && (rsp_port_q == PortW'(p));
      cl_rsp_o[p*RspW +: RspW]  = rsp_bits;
    end
  end

  assign cnt_hits_d   = cnt_hits_q + 32'(ev_hit_q);
  assign cnt_misses_d = cnt_misses_q + 32'(ev_miss_q);
  assign cnt_wbs_d    = cnt_wbs_q + 32'(ev_wb_q);
  assign cnt_fills_d  = cnt_fills_q + 32'(ev_fill_q);

  assign maint_done_o     = (state_q == S_M_DONE);
  assign cnt_hits_o       = cnt_hits_q;
  assign cnt_misses_o     = cnt_misses_q;
  assign cnt_writebacks_o = cnt_wbs_q;
  assign cnt_fills_o      = cnt_fills_q;
  assign busy_o           = (state_q != S_IDLE) || pend_q || (|m_valid_q) || (|slot_valid_q) ||
                            dn_valid_q || rsp_valid_q;

  // Not used: the downstream response's op and src (answers are told apart by their tag).
  logic unused_rsp;
  assign unused_rsp = ^{mem_rsp_i.op, mem_rsp_i.src, mem_rsp_i.tag};

  // ---- flops --------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q      <= S_IDLE;
      valid_q      <= '0;
      dirty_q      <= '0;
      tag_q        <= '0;
      dsid_q       <= '0;
      plru_q       <= '0;
      pend_q       <= 1'b0;
      pend_ans_q   <= 1'b0;
      pend_err_q   <= 1'b0;
      miss_port_q  <= '0;
      miss_line_q  <= '0;
      miss_dsid_q  <= '0;
      miss_op_q    <= '0;
      wb_idx_q     <= '0;
      wb_tag_q     <= '0;
      wb_dsid_q    <= '0;
      wb_maint_q   <= 1'b0;
      scan_set_q   <= '0;
      inv_q        <= 1'b0;
      slot_valid_q <= '0;
      slot_line_q  <= '0;
      dn_slot_q    <= '0;
      dn_valid_q   <= 1'b0;
      dn_kind_q    <= DN_WB;
      dn_mshr_q    <= '0;
      m_valid_q    <= '0;
      m_sent_q     <= '0;
      m_done_q     <= '0;
      m_err_q      <= '0;
      m_line_q     <= '0;
      m_way_q      <= '0;
      m_dsid_q     <= '0;
      m_port_q     <= '0;
      m_src_q      <= '0;
      m_tag_q      <= '0;
      rsp_valid_q  <= 1'b0;
      rsp_port_q   <= '0;
      rsp_op_q     <= '0;
      rsp_err_q    <= 1'b0;
      rsp_src_q    <= '0;
      rsp_tag_q    <= '0;
      rsp_ram_q    <= 1'b0;
      ev_hit_q     <= 1'b0;
      ev_miss_q    <= 1'b0;
      ev_wb_q      <= 1'b0;
      ev_fill_q    <= 1'b0;
      cnt_hits_q   <= '0;
      cnt_misses_q <= '0;
      cnt_wbs_q    <= '0;
      cnt_fills_q  <= '0;
    end else begin
      state_q      <= state_d;
      valid_q      <= valid_d;
      dirty_q      <= dirty_d;
      tag_q        <= tag_d;
      dsid_q       <= dsid_d;
      plru_q       <= plru_d;
      pend_q       <= pend_d;
      pend_ans_q   <= pend_ans_d;
      pend_err_q   <= pend_err_d;
      miss_port_q  <= miss_port_d;
      miss_line_q  <= miss_line_d;
      miss_dsid_q  <= miss_dsid_d;
      miss_op_q    <= miss_op_d;
      wb_idx_q     <= wb_idx_d;
      wb_tag_q     <= wb_tag_d;
      wb_dsid_q    <= wb_dsid_d;
      wb_maint_q   <= wb_maint_d;
      scan_set_q   <= scan_set_d;
      inv_q        <= inv_d;
      slot_valid_q <= slot_valid_d;
      slot_line_q  <= slot_line_d;
      dn_slot_q    <= dn_slot_d;
      dn_valid_q   <= dn_valid_d;
      dn_kind_q    <= dn_kind_d;
      dn_mshr_q    <= dn_mshr_d;
      m_valid_q    <= m_valid_d;
      m_sent_q     <= m_sent_d;
      m_done_q     <= m_done_d;
      m_err_q      <= m_err_d;
      m_line_q     <= m_line_d;
      m_way_q      <= m_way_d;
      m_dsid_q     <= m_dsid_d;
      m_port_q     <= m_port_d;
      m_src_q      <= m_src_d;
      m_tag_q      <= m_tag_d;
      rsp_valid_q  <= rsp_valid_d;
      rsp_port_q   <= rsp_port_d;
      rsp_op_q     <= rsp_op_d;
      rsp_err_q    <= rsp_err_d;
      rsp_src_q    <= rsp_src_d;
      rsp_tag_q    <= rsp_tag_d;
      rsp_ram_q    <= rsp_ram_d;
      ev_hit_q     <= ev_hit_d;
      ev_miss_q    <= ev_miss_d;
      ev_wb_q      <= ev_wb_d;
      ev_fill_q    <= ev_fill_d;
      cnt_hits_q   <= cnt_hits_d;
      cnt_misses_q <= cnt_misses_d;
      cnt_wbs_q    <= cnt_wbs_d;
      cnt_fills_q  <= cnt_fills_d;
    end
  end

  // ---- assertions ---------------------------------------------------------------------------
  `ASSERT_INIT(WaysPow2_A, WAYS >= 2 && (WAYS & (WAYS - 1)) == 0)
  `ASSERT_INIT(LinesPow2_A, LINES >= 2 * WAYS && (LINES & (LINES - 1)) == 0)
  `ASSERT_INIT(NumPorts_A, NUM_PORTS >= 1 && NUM_PORTS <= 32)
  `ASSERT_INIT(NumWb_A, NUM_WB >= 1 && NUM_WB <= 128)
  `ASSERT_INIT(SrcId_A, SRC_ID < 32)

  `ASSERT_INIT(NumMshr_A, NUM_MSHR >= 1 && NUM_MSHR <= 64)

`ifndef SYNTHESIS
  logic miss_busy;
  assign miss_busy = pend_q || (state_q == S_WB_RD && !wb_maint_q) ||
                     (state_q == S_WB_REQ && !wb_maint_q) || state_q == S_FWD_REQ ||
                     state_q == S_FWD_OFFER || state_q == S_FWD_WAIT;
  logic maint_busy;
  assign maint_busy = state_q == S_M_DRAIN || state_q == S_M_SCAN || state_q == S_M_PICK ||
                      state_q == S_M_WAIT || state_q == S_M_DONE ||
                      ((state_q == S_WB_RD || state_q == S_WB_REQ) && wb_maint_q);
  // MSHR invariants: MSHRs of one line share the way and the done state; a reserved way is
  // invalid until its fill lands.
  logic mshr_dup, mshr_way_valid;
  always_comb begin
    mshr_dup       = 1'b0;
    mshr_way_valid = 1'b0;
    for (int unsigned a = 0; a < NUM_MSHR; a++) begin
      for (int unsigned b = a + 1; b < NUM_MSHR; b++) begin
        if (m_valid_q[a] && m_valid_q[b] &&
            m_line_q[a*LineAW +: LineAW] == m_line_q[b*LineAW +: LineAW] &&
            (m_way_q[a*WayW +: WayW] != m_way_q[b*WayW +: WayW] || m_done_q[a] != m_done_q[b])) begin
          mshr_dup = 1'b1;
        end
      end
      if (m_valid_q[a] && !m_done_q[a] &&
          valid_q[{m_line_q[a*LineAW +: SetW], m_way_q[a*WayW +: WayW]}]) begin
        mshr_way_valid = 1'b1;
      end
    end
  end
`endif

  // Client protocol: a request whose miss is being worked on is held, unchanged, on its port
  // (valid/ready rule of tessera_mem_pkg); the design relies on it.
  `ASSUME(MissReqHeld_A, miss_busy |-> arb_valid && arb_idx == miss_port_q &&
                                       q_line == miss_line_q && q.op == miss_op_q)
  // Maintenance requester: req held until done, inv stable while req is high.
  `ASSUME(MaintReqHeld_A, maint_busy |-> maint_req_i)
  `ASSUME(MaintInvStable_A, maint_req_i && $past(maint_req_i) |-> $stable(maint_inv_i))
  // busy_o covers every miss and maintenance step (the watchdog relies on it)
  `ASSERT(BusyCoversWork_A, miss_busy || maint_busy |-> busy_o)
  // Downstream: answers only what was asked.
  `ASSERT(DnRspFwdExpected_A, dn_rsp_fwd |-> state_q == S_FWD_WAIT && mem_rsp_i.tag == FwdTag)
  `ASSERT(DnRspFillKnown_A, dn_rsp_fill |-> 32'(mem_rsp_i.tag) < NUM_MSHR && m_valid_q[fl_idx] &&
                                           m_sent_q[fl_idx] && !m_done_q[fl_idx] &&
                                           !(dn_valid_q && dn_kind_q == DN_FILL &&
                                             dn_mshr_q == fl_idx))
  `ASSERT(DnRspWbKnown_A, dn_rsp_wb |-> 32'(mem_rsp_i.tag[WbW-1:0]) < NUM_WB &&
                                         slot_valid_q[mem_rsp_i.tag[WbW-1:0]])

  // Invariants.
  `ASSERT(HitOnehot_A, arb_valid && state_q == S_IDLE |-> $onehot0(hit_oh))
  `ASSERT(AcceptOnlyIdle_A, accept |-> state_q == S_IDLE)
  // A held request whose sequencer work is done is finished at once (no second miss for it).
  `ASSERT(PendFinishes_A, open && pend_q |-> act_answer || act_hit || act_alloc || act_rdmiss ||
                                             act_err)
  `ASSERT(HoldWaits_A, open && act_hold |-> !accept && !start)
  `ASSERT(MergeInFlight_A, accept && act_merge |-> !hit || fill_same)
  `ASSERT(NoAcceptInMaint_A, accept && maint_req_i |-> pend_q)
  `ASSERT(MshrLineConsistent_A, !mshr_dup)
  `ASSERT(MshrWayReserved_A, !mshr_way_valid)
  `ASSERT(ScanNoMshr_A, state_q == S_M_SCAN |-> m_valid_q == '0)
  `ASSERT(ScanPicksDirty_A, state_q == S_M_PICK |-> (set_valid & set_dirty) != '0)
  `ASSERT(DoneQuiet_A, maint_done_o |-> slot_valid_q == '0 && !rsp_valid_q && !pend_q &&
                                        m_valid_q == '0 && (valid_q & dirty_q) == '0)
  `ASSERT(DoneInvalidated_A, maint_done_o && inv_q |-> valid_q == '0)
  `ASSERT(DirtyIsValid_A, (dirty_q & ~valid_q) == '0)
  // valid/ready: offered payloads hold until taken; valids never depend on readies.
  `ASSERT(MemReqHeld_A, mem_req_valid_o && !mem_req_ready_i |=>
                        mem_req_valid_o && $stable(mem_req_o))
  `ASSERT(RspHeld_A, rsp_valid_q && !rsp_taken |=> rsp_valid_q && $stable(rsp_port_q) &&
                     $stable(rsp_bits))

endmodule
