// tess_stage -- the tessellation stage of one geometry slice around its tessellator: thread
// groups, the hull-shader (HS) launcher, the launch throttle, the patch distributor, the
// domain-shader (DS) waves and the slice's shader-slot pool (ARCHITECTURE.md 5.6; source
// document 003_64193d4bb05efb1b.txt, figures 3-4 and paragraphs 10, 26-35;
// docs/tessellation.md "The slice's tessellation stage").
//
// Paragraph 10 of the source is the premise: HS waves launched greedily can leave the DS
// without the resources it needs for the (many more) primitives the tessellator makes of each
// patch. Here the resource is the slice's pool of shader slots, shared by HS thread groups and
// DS waves; whether an HS group's slot stays taken until the tessellator has read its output
// (the model study's reading, docs/tessellation.md) or is freed when its HS is done is hold_i.
// The stage models the slots and the two shaders' latencies; the arithmetic the shaders would
// do is not modelled (control points pass unchanged, the tessellator's vertices are the DS
// output).
//
//   collector --patch--> [patch RAM FIFO] ............................ distributor --> TESS
//                 \----> [TF FIFO] -> tess_hs_throttle: parse 405 -> FIFO 415 -/
//   thread groups of tg_size_i patches (a non-patch item waiting behind them, close_i,
//   closes a partial one) -> launch (throttle grant + a free slot, one kept for the DS) ->
//   HS for hs_base_i + hs_per_patch_i x patches cycles (hs_done in launch order) -> the
//   throttle forwards the group, parses its factors and fills FIFO 415 -> the distributor
//   hands each patch to the tessellator (its in_ready is the FIFO's read enable). The group's
//   slot is freed once the tessellator has taken its last patch (hold_i, latched per group at
//   its launch: the HS output lives in the slot), or when its HS is done (!hold_i).
//   TESS vertices -> [vertex FIFO] in DS waves of 32 vertices (a patch's end closes a wave);
//   a wave waits for a slot (DS before HS), holds it ds_lat_i cycles, then its vertices
//   leave for TSEFE_S in order; the slot is freed with the wave's last vertex.
//
// The patch RAM FIFO keeps what the collector delivered (control points, factors, token) in
// patch order; the throttle sees only the factors (TF FIFO) and hands them back through FIFO
// 415 in the same order, so its head and the RAM's head are the same patch (asserted).

`include "prim_assert.svh"

module tess_stage #(
  parameter int unsigned SLOTS      = 16,   // shader slots of the slice's pool (slots_i caps it)
  parameter int unsigned TG_DEPTH   = 8,    // thread groups the HS launcher tracks (throttle)
  parameter int unsigned PATCH_CAP  = 32,   // patches held between the collector and TESS
  parameter int unsigned VQ_DEPTH   = 256,  // tessellated vertices held while DS waves run
  parameter int unsigned WAVE_DEPTH = 16,   // DS waves formed or running
  parameter int unsigned TOK_W      = 57,   // the patch's token (geom_pkg::vtok_t), carried along
  // Derived (do not override)
  localparam int unsigned SlotW = $clog2(SLOTS + 1)
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // configuration (GEOM TESS_THROTTLE, TESS_SHADER, TESS_HS_LAT, TESS_DS_LAT)
  input  logic [1:0]                mode_i,          // tess_pkg::throttle_mode_e
  input  logic [4:0]                cap_i,
  input  logic [3:0]                rate_i,
  input  logic [3:0]                tg_size_i,       // patches per thread group, 0 acts as 1
  input  logic [4:0]                slots_i,         // pool size: 0 or above SLOTS acts as SLOTS, below 2 as 2
  input  logic                      hold_i,          // 1: an HS slot is held until its group is consumed
  input  logic [11:0]               hs_base_i,
  input  logic [7:0]                hs_per_patch_i,
  input  logic [11:0]               ds_lat_i,
  // complete patches from the collector
  input  logic                      in_valid_i,
  output logic                      in_ready_o,
  input  logic [1:0]                in_kind_i,
  input  logic [7:0]                in_f1_i,
  input  logic [7:0]                in_f2_i,
  input  logic [511:0]              in_cp_i,
  input  logic [TOK_W-1:0]          in_tok_i,
  input  logic                      close_i,         // close the open thread group
  // the patch distributor towards the tessellator
  output logic                      ts_valid_o,
  input  logic                      ts_ready_i,
  output logic [1:0]                ts_kind_o,
  output logic [7:0]                ts_f1_o,
  output logic [7:0]                ts_f2_o,
  output logic [511:0]              ts_cp_o,
  // the tessellator's vertices
  input  logic                      tv_valid_i,
  output logic                      tv_ready_o,
  input  logic [127:0]              tv_vtx_i,
  input  logic                      tv_tri_end_i,
  input  logic                      tv_patch_end_i,
  // the DS output towards TSEFE_S
  output logic                      out_valid_o,
  input  logic                      out_ready_i,
  output logic [127:0]              out_vtx_o,
  output logic                      out_tri_end_o,
  output logic [TOK_W-1:0]          out_tok_o,
  // state and events (GEOM TESS_* counters)
  output logic                      busy_o,          // a patch or vertex is held
  output logic                      ev_launch_o,     // a thread group launched
  output logic                      ev_hs_done_o,    // a thread group's HS finished ...
  output logic [15:0]               ev_hs_lat_o,     // ... this many cycles after its launch
  output logic                      hs_stall_o,      // a closed thread group was refused a launch
  output logic                      ds_stall_o,      // a DS wave waited for a slot
  output logic [4:0]                inflight_o,      // thread groups launched, HS not done
  output logic [SlotW-1:0]          slots_used_o
);

  localparam int unsigned PW    = 2 + 8 + 8 + 512 + TOK_W;          // patch RAM word
  localparam int unsigned VW    = 128 + 1 + TOK_W;                  // vertex FIFO word
  localparam int unsigned GPtrW = $clog2(PATCH_CAP);                // thread-group ring
  localparam int unsigned HPtrW = $clog2(TG_DEPTH);                 // running HS entries
  localparam int unsigned WPtrW = $clog2(WAVE_DEPTH);               // DS wave ring
  localparam int unsigned Wave  = 32;                               // vertices per DS wave

  // ---- configuration -------------------------------------------------------------------------
  logic [3:0]       tg_size;
  logic [SlotW-1:0] slots;
  assign tg_size = (tg_size_i == 4'd0) ? 4'd1 : tg_size_i;
  always_comb begin
    if (slots_i == 5'd0 || 32'(slots_i) > SLOTS) slots = SlotW'(SLOTS);
    else if (slots_i < 5'd2)                     slots = SlotW'(2);
    else                                         slots = SlotW'(slots_i);
  end

  // ---- patch RAM FIFO and TF FIFO (written together by the collector) -----------------------
  logic pr_wready, pr_rvalid, pr_pop, tf_wready, tf_rvalid, tf_pop, in_go;
  logic [PW-1:0] pr_rdata;
  logic [17:0]   tf_rdata;
  logic          unused_pr_full, unused_pr_empty, unused_tf_full, unused_tf_empty;
  logic [$clog2(PATCH_CAP+1)-1:0] unused_pr_depth, unused_tf_depth;
  assign in_ready_o = pr_wready && tf_wready;
  assign in_go      = in_valid_i && in_ready_o;
  prim_fifo_ram #(.WIDTH(PW), .DEPTH(PATCH_CAP)) u_patch_ram (
    .clk_i, .rst_ni, .clr_i(1'b0),
    .wvalid_i(in_valid_i && tf_wready), .wready_o(pr_wready),
    .wdata_i({in_tok_i, in_kind_i, in_f1_i, in_f2_i, in_cp_i}),
    .rvalid_o(pr_rvalid), .rready_i(pr_pop), .rdata_o(pr_rdata),
    .full_o(unused_pr_full), .empty_o(unused_pr_empty), .depth_o(unused_pr_depth));
  prim_fifo_ram #(.WIDTH(18), .DEPTH(PATCH_CAP)) u_tf_fifo (
    .clk_i, .rst_ni, .clr_i(1'b0),
    .wvalid_i(in_valid_i && pr_wready), .wready_o(tf_wready),
    .wdata_i({in_kind_i, in_f1_i, in_f2_i}),
    .rvalid_o(tf_rvalid), .rready_i(tf_pop), .rdata_o(tf_rdata),
    .full_o(unused_tf_full), .empty_o(unused_tf_empty), .depth_o(unused_tf_depth));

  // ---- thread groups: ring of patch counts (closed -> launched -> consumed) -----------------
  // A group has at least one patch, so PATCH_CAP entries never overflow.
  logic [PATCH_CAP*4-1:0] grp_n_q, grp_n_d;
  logic [PATCH_CAP-1:0]   grp_hold_q, grp_hold_d;                // hold_i at the group's launch
  logic [GPtrW-1:0]       gw_q, gw_d, gl_q, gl_d, gc_q, gc_d;   // close, launch, consume
  logic [GPtrW:0]         gclosed_q, gclosed_d;                 // closed, not launched
  logic [GPtrW:0]         gheld_q, gheld_d;                     // launched, not consumed
  logic [3:0]             open_n_q, open_n_d;                   // patches of the open group
  logic [3:0]             cons_n_q, cons_n_d;                   // patches taken of group gc
  logic [3:0]             open_new, grp_launch_n, grp_cons_n;
  logic                   grp_cons_hold;
  logic                   close;
  assign open_new = open_n_q + 4'(in_go);
  // >=: a tg_size lowered while a group is open closes it at once (== would let it run past)
  assign close    = (open_new != 4'd0) && (open_new >= tg_size || close_i);
  always_comb begin
    grp_launch_n  = '0;
    grp_cons_n    = '0;
    grp_cons_hold = 1'b0;
    for (int unsigned e = 0; e < PATCH_CAP; e++) begin
      grp_launch_n  |= (32'(gl_q) == e) ? grp_n_q[e*4 +: 4] : 4'd0;
      grp_cons_n    |= (32'(gc_q) == e) ? grp_n_q[e*4 +: 4] : 4'd0;
      grp_cons_hold |= (32'(gc_q) == e) && grp_hold_q[e];
    end
  end

  // ---- slot pool ---------------------------------------------------------------------------
  logic [SlotW-1:0] hs_slots_q, hs_slots_d, ds_slots_q, ds_slots_d, used;
  logic             ds_grant, hs_slot_ok, launch, hs_release, ds_release;
  assign used = hs_slots_q + ds_slots_q;

  // ---- HS launcher and the throttle --------------------------------------------------------
  logic             launch_req, launch_gnt, hs_done;
  logic [4:0]       limit, inflight;
  logic             thr_tf_ready, thr_pv, fwd;
  tess_pkg::tf_t    thr_tf, thr_patch;
  logic [tess_pkg::EST_W-1:0] unused_est;
  logic [19:0]      unused_total, unused_error;
  logic             unused_err_up, unused_avg_valid;
  logic [15:0]      unused_avg;
  // a launch leaves one slot for the DS (and none when a DS wave takes a slot this cycle), so
  // greedy launching can never hold every slot while the DS waits
  assign hs_slot_ok = (32'(used) + 32'(ds_grant) + 2) <= 32'(slots);
  assign launch_req = (gclosed_q != '0) && hs_slot_ok;
  assign thr_tf     = tf_rdata;
  tess_hs_throttle #(.NUM_HS(1), .TG_DEPTH(TG_DEPTH), .PATCH_DEPTH(8), .NPATCH_W(4)) u_throttle (
    .clk_i, .rst_ni,
    .mode_i, .cap_i, .rate_i,
    .launch_req_i(launch_req), .launch_gnt_o(launch_gnt), .launch_npatch_i(grp_launch_n),
    .hs_done_i(hs_done),
    .tf_valid_i(tf_rvalid), .tf_ready_o(thr_tf_ready), .tf_i(thr_tf),
    .patch_valid_o(thr_pv), .patch_ready_i(ts_ready_i), .patch_o(thr_patch),
    .patch_est_o(unused_est),
    .total_o(unused_total), .error_o(unused_error), .error_up_o(unused_err_up),
    .avg_lat_o(unused_avg), .avg_valid_o(unused_avg_valid), .limit_o(limit),
    .inflight_o(inflight), .forward_o(fwd));
  assign tf_pop = tf_rvalid && thr_tf_ready;
  assign launch = launch_gnt;

  // running HS thread groups, in launch order: cycles left and launch time
  logic [TG_DEPTH*13-1:0] hs_left_q, hs_left_d;
  logic [TG_DEPTH*16-1:0] hs_t0_q, hs_t0_d;
  logic [TG_DEPTH-1:0]    hs_hold_q, hs_hold_d;                  // hold_i at the launch
  logic [HPtrW-1:0]       hw_q, hw_d, hr_q, hr_d;
  logic [HPtrW:0]         hcnt_q, hcnt_d;
  logic [15:0]            now_q, now_d;
  logic [12:0]            hs_lat, hs_head_left;
  logic [15:0]            hs_head_t0;
  logic                   hs_head_hold;
  assign hs_lat = 13'(hs_base_i) + 13'(hs_per_patch_i) * 13'(grp_launch_n);
  always_comb begin
    hs_head_left = '0;
    hs_head_t0   = '0;
    hs_head_hold = 1'b0;
    for (int unsigned e = 0; e < TG_DEPTH; e++) begin
      hs_head_left |= (32'(hr_q) == e) ? hs_left_q[e*13 +: 13] : 13'd0;
      hs_head_t0   |= (32'(hr_q) == e) ? hs_t0_q[e*16 +: 16] : 16'd0;
      hs_head_hold |= (32'(hr_q) == e) && hs_hold_q[e];
    end
  end
  assign hs_done = (hcnt_q != '0) && (hs_head_left == '0);

  // ---- patch distributor -------------------------------------------------------------------
  logic [TOK_W-1:0] pr_tok, tp_tok_q, tp_tok_d;
  logic [1:0]       pr_kind;
  logic [7:0]       pr_f1, pr_f2;
  logic             take;
  assign {pr_tok, pr_kind, pr_f1, pr_f2, ts_cp_o} = pr_rdata;
  assign ts_valid_o = thr_pv;
  assign ts_kind_o  = thr_patch.kind;
  assign ts_f1_o    = thr_patch.f1;
  assign ts_f2_o    = thr_patch.f2;
  assign take       = thr_pv && ts_ready_i;
  assign pr_pop     = take;
  assign hs_release = take && (cons_n_q + 4'd1 == grp_cons_n);   // the group is consumed
  // the group's slot: freed at consumption (held) or when its HS is done
  logic [1:0] hs_free_n;
  assign hs_free_n = 2'(hs_release && grp_cons_hold) + 2'(hs_done && !hs_head_hold);

  // ---- DS waves ----------------------------------------------------------------------------
  logic             vq_wready, vq_rvalid, vq_pop;
  logic [VW-1:0]    vq_rdata;
  logic             unused_vq_full, unused_vq_empty;
  logic [$clog2(VQ_DEPTH+1)-1:0] unused_vq_depth;
  logic [WAVE_DEPTH*6-1:0]  wv_n_q, wv_n_d;        // vertices per wave
  logic [WAVE_DEPTH*12-1:0] wv_left_q, wv_left_d;  // DS cycles left (granted waves)
  logic [WPtrW-1:0] ww_q, ww_d, wg_q, wg_d, wr_q, wr_d;   // formed, granted, output
  logic [WPtrW:0]   wcnt_q, wcnt_d, wpend_q, wpend_d;     // waves held / formed not granted
  logic [5:0]       wn_q, wn_d, on_q, on_d;               // open wave / output progress
  logic             tv_go, wave_close;
  logic [5:0]       out_wave_n;
  logic [11:0]      out_wave_left;
  assign tv_ready_o = vq_wready && (32'(wcnt_q) < WAVE_DEPTH);
  assign tv_go      = tv_valid_i && tv_ready_o;
  assign wave_close = tv_go && (tv_patch_end_i || wn_q == 6'(Wave - 1));
  prim_fifo_ram #(.WIDTH(VW), .DEPTH(VQ_DEPTH)) u_vq (
    .clk_i, .rst_ni, .clr_i(1'b0),
    .wvalid_i(tv_valid_i && (32'(wcnt_q) < WAVE_DEPTH)), .wready_o(vq_wready),
    .wdata_i({tp_tok_q, tv_tri_end_i, tv_vtx_i}),
    .rvalid_o(vq_rvalid), .rready_i(vq_pop), .rdata_o(vq_rdata),
    .full_o(unused_vq_full), .empty_o(unused_vq_empty), .depth_o(unused_vq_depth));
  assign ds_grant = (wpend_q != '0) && (used < slots);
  always_comb begin
    out_wave_n    = '0;
    out_wave_left = '0;
    for (int unsigned e = 0; e < WAVE_DEPTH; e++) begin
      out_wave_n    |= (32'(wr_q) == e) ? wv_n_q[e*6 +: 6] : 6'd0;
      out_wave_left |= (32'(wr_q) == e) ? wv_left_q[e*12 +: 12] : 12'd0;
    end
  end
  // the output wave is granted (held waves beyond the pending ones) and its DS is done
  logic out_ok;
  assign out_ok        = (wcnt_q != wpend_q) && (out_wave_left == '0);
  assign out_valid_o   = vq_rvalid && out_ok;
  assign vq_pop        = out_valid_o && out_ready_i;
  assign {out_tok_o, out_tri_end_o, out_vtx_o} = vq_rdata;
  assign ds_release    = vq_pop && (on_q + 6'd1 == out_wave_n);

  // ---- next state --------------------------------------------------------------------------
  always_comb begin
    grp_n_d    = grp_n_q;
    gw_d       = gw_q;
    gl_d       = gl_q;
    gc_d       = gc_q;
    gclosed_d  = gclosed_q + (GPtrW+1)'(close) - (GPtrW+1)'(launch);
    gheld_d    = gheld_q + (GPtrW+1)'(launch) - (GPtrW+1)'(hs_release);
    open_n_d   = close ? 4'd0 : open_new;
    cons_n_d   = cons_n_q;
    hs_slots_d = hs_slots_q + SlotW'(launch) - SlotW'(hs_free_n);
    grp_hold_d = grp_hold_q;
    hs_hold_d  = hs_hold_q;
    ds_slots_d = ds_slots_q + SlotW'(ds_grant) - SlotW'(ds_release);
    hs_left_d  = hs_left_q;
    hs_t0_d    = hs_t0_q;
    hw_d       = hw_q;
    hr_d       = hr_q;
    hcnt_d     = hcnt_q + (HPtrW+1)'(launch) - (HPtrW+1)'(hs_done);
    now_d      = now_q + 16'd1;
    tp_tok_d   = take ? pr_tok : tp_tok_q;
    wv_n_d     = wv_n_q;
    wv_left_d  = wv_left_q;
    ww_d       = ww_q;
    wg_d       = wg_q;
    wr_d       = wr_q;
    wcnt_d     = wcnt_q + (WPtrW+1)'(wave_close) - (WPtrW+1)'(ds_release);
    wpend_d    = wpend_q + (WPtrW+1)'(wave_close) - (WPtrW+1)'(ds_grant);
    wn_d       = wave_close ? 6'd0 : wn_q + 6'(tv_go);
    on_d       = ds_release ? 6'd0 : on_q + 6'(vq_pop);

    if (close) gw_d = gw_q + GPtrW'(1);
    if (launch) gl_d = gl_q + GPtrW'(1);
    if (take) cons_n_d = hs_release ? 4'd0 : cons_n_q + 4'd1;
    if (hs_release) gc_d = gc_q + GPtrW'(1);
    for (int unsigned e = 0; e < PATCH_CAP; e++) begin
      if (close && 32'(gw_q) == e) grp_n_d[e*4 +: 4] = open_new;
      if (launch && 32'(gl_q) == e) grp_hold_d[e] = hold_i;
    end

    // HS entries count down; a launch loads the next one
    for (int unsigned e = 0; e < TG_DEPTH; e++) begin
      if (hs_left_q[e*13 +: 13] != '0) hs_left_d[e*13 +: 13] = hs_left_q[e*13 +: 13] - 13'd1;
      if (launch && 32'(hw_q) == e) begin
        hs_left_d[e*13 +: 13] = hs_lat;
        hs_t0_d[e*16 +: 16]   = now_q;
        hs_hold_d[e]          = hold_i;
      end
    end
    if (launch) hw_d = hw_q + HPtrW'(1);
    if (hs_done) hr_d = hr_q + HPtrW'(1);

    // DS waves: formed at ww, granted at wg (loads the latency), leave at wr
    for (int unsigned e = 0; e < WAVE_DEPTH; e++) begin
      if (wv_left_q[e*12 +: 12] != '0) wv_left_d[e*12 +: 12] = wv_left_q[e*12 +: 12] - 12'd1;
      if (wave_close && 32'(ww_q) == e) wv_n_d[e*6 +: 6] = wn_q + 6'd1;
      if (ds_grant && 32'(wg_q) == e) wv_left_d[e*12 +: 12] = ds_lat_i;
    end
    if (wave_close) ww_d = ww_q + WPtrW'(1);
    if (ds_grant) wg_d = wg_q + WPtrW'(1);
    if (ds_release) wr_d = wr_q + WPtrW'(1);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      grp_n_q    <= '0;
      grp_hold_q <= '0;
      hs_hold_q  <= '0;
      gw_q       <= '0;
      gl_q       <= '0;
      gc_q       <= '0;
      gclosed_q  <= '0;
      gheld_q    <= '0;
      open_n_q   <= '0;
      cons_n_q   <= '0;
      hs_slots_q <= '0;
      ds_slots_q <= '0;
      hs_left_q  <= '0;
      hs_t0_q    <= '0;
      hw_q       <= '0;
      hr_q       <= '0;
      hcnt_q     <= '0;
      now_q      <= '0;
      tp_tok_q   <= '0;
      wv_n_q     <= '0;
      wv_left_q  <= '0;
      ww_q       <= '0;
      wg_q       <= '0;
      wr_q       <= '0;
      wcnt_q     <= '0;
      wpend_q    <= '0;
      wn_q       <= '0;
      on_q       <= '0;
    end else begin
      grp_n_q    <= grp_n_d;
      grp_hold_q <= grp_hold_d;
      hs_hold_q  <= hs_hold_d;
      gw_q       <= gw_d;
      gl_q       <= gl_d;
      gc_q       <= gc_d;
      gclosed_q  <= gclosed_d;
      gheld_q    <= gheld_d;
      open_n_q   <= open_n_d;
      cons_n_q   <= cons_n_d;
      hs_slots_q <= hs_slots_d;
      ds_slots_q <= ds_slots_d;
      hs_left_q  <= hs_left_d;
      hs_t0_q    <= hs_t0_d;
      hw_q       <= hw_d;
      hr_q       <= hr_d;
      hcnt_q     <= hcnt_d;
      now_q      <= now_d;
      tp_tok_q   <= tp_tok_d;
      wv_n_q     <= wv_n_d;
      wv_left_q  <= wv_left_d;
      ww_q       <= ww_d;
      wg_q       <= wg_d;
      wr_q       <= wr_d;
      wcnt_q     <= wcnt_d;
      wpend_q    <= wpend_d;
      wn_q       <= wn_d;
      on_q       <= on_d;
    end
  end

  // ---- outputs -----------------------------------------------------------------------------
  assign busy_o       = (open_n_q != '0) || (gclosed_q != '0) || (gheld_q != '0) || pr_rvalid ||
                        (wn_q != '0) || (wcnt_q != '0) || vq_rvalid;
  assign ev_launch_o  = launch;
  assign ev_hs_done_o = hs_done;
  assign ev_hs_lat_o  = now_q - hs_head_t0;
  assign hs_stall_o   = (gclosed_q != '0) && !launch;
  assign ds_stall_o   = (wpend_q != '0) && !ds_grant;
  assign inflight_o   = inflight;
  assign slots_used_o = used;

  logic unused;
  assign unused = ^{limit, fwd, unused_est, unused_total, unused_error, unused_err_up,
                    unused_avg_valid, unused_avg, unused_pr_full, unused_pr_empty,
                    unused_tf_full, unused_tf_empty, unused_pr_depth, unused_tf_depth,
                    unused_vq_full, unused_vq_empty, unused_vq_depth};

  // ---- assertions --------------------------------------------------------------------------
  `ASSERT_INIT(Depths_A, PATCH_CAP >= 16 && (PATCH_CAP & (PATCH_CAP - 1)) == 0 &&
                         TG_DEPTH >= 2 && (TG_DEPTH & (TG_DEPTH - 1)) == 0 &&
                         WAVE_DEPTH >= 2 && (WAVE_DEPTH & (WAVE_DEPTH - 1)) == 0 &&
                         VQ_DEPTH >= Wave && SLOTS >= 2 && SLOTS <= 31)
  // the pool is never over-committed, and a launch always leaves a slot for the DS
  `ASSERT(PoolBound_A, 32'(used) <= SLOTS)
  `ASSERT(LaunchLeavesDsSlot_A, launch |-> 32'(used) + 2 <= 32'(slots))
  // the throttle's patch and the patch RAM's head are the same patch
  `ASSERT(DistributorInStep_A, thr_pv |-> pr_rvalid && pr_kind == thr_patch.kind &&
                                          pr_f1 == thr_patch.f1 && pr_f2 == thr_patch.f2)
  // a thread group is consumed only after its launch; a DS wave leaves only once granted
  `ASSERT(ConsumeAfterLaunch_A, hs_release |-> gheld_q != '0)
  `ASSERT(HsDoneRunning_A, hs_done |-> hcnt_q != '0)
  `ASSERT(HsRunningBound_A, 32'(hcnt_q) <= TG_DEPTH)
  `ASSERT(WaveOutGranted_A, vq_pop |-> wcnt_q != wpend_q)
  `ASSERT(WaveSize_A, wave_close |-> 32'(wn_q) < Wave)
  // every slot is a launched, unconsumed thread group's or a granted, unfinished wave's
  `ASSERT(SlotsBalanced_A, 32'(hs_slots_q) <= 32'(gheld_q) &&
                           32'(ds_slots_q) == 32'(wcnt_q) - 32'(wpend_q))
  // an HS slot is freed only once, by its group: at HS done or at consumption, never both
  `ASSERT(HsFreeHeld_A, 32'(hs_free_n) <= 32'(hs_slots_q))

endmodule
