// tess_hs_throttle -- hull-shader thread-group launch throttle from tessellation factors
// (ARCHITECTURE.md 5.6; source document 003_64193d4bb05efb1b.txt, figures 3-7, paragraphs
// 26-55; docs/tessellation.md "The throttle").
//
// Figure 3 (paragraphs 27-30): per HS launcher h a metadata buffer (301-304) with one entry
// per launched thread group, a latency counter per entry (311-314) that counts from the launch
// until the completion buffer (321-324, here hs_done_i) marks the thread group done, and an
// arbiter (330) that forwards completed thread groups in the order they were scheduled.
// Figure 4 (paragraphs 32-35): circuit 405 reads the thread group's tessellation factors
// (tf_*), writes one entry per patch into the patch FIFO (415) with its primitive estimate in
// the register beside the entry (425), and the patch distributor (420) reads the FIFO
// (patch_ready_i is its read enable). Counter 435 (total) and counter 440 (error) follow
// figures 5 and 6; the comparison circuit (445) averages the last eight thread groups' HS
// latencies, and method 700 (figure 7) turns total against that average into a limit of
// thread groups in flight.
//
// Cycle semantics (the C++ model sim/tess/hs_throttle_model.cpp implements the same text):
//   R = rate_i (0 acts as 1): primitives the tessellators take per clock.
//   launch: launcher h is granted when launch_req_i[h], its metadata buffer has room and the
//     thread groups in flight (launched, HS not done) are below the limit (0 = none); one
//     grant per cycle, round robin from the launcher after the last granted one.
//   complete: hs_done_i[h] marks launcher h's oldest running thread group done; its latency
//     (cycles from launch to done) enters the window of the last eight (launchers in index
//     order when several finish in one cycle).
//   forward: when the parse stage is idle, the completed thread group with the next sequence
//     number leaves its metadata buffer and the parse stage takes its patch count.
//   parse: one TF record per cycle (tf_valid_i && tf_ready_o) while patches are left and the
//     FIFO has room; each becomes a FIFO entry with est = tess_pkg::prim_estimate.
//   total (435): total' = max(0, max(0, total - R) + add - sub) + est_written, saturating,
//     where add/sub settle the error counter when the current patch's read enable comes.
//   error (440): a patch taken by the distributor becomes current and loads its estimate
//     (blocks 510/610); while current, the error counts down by R (515) and, once it reached
//     0 (520), up by R per clock, saturating (525). The next read enable (patch_ready_i while
//     a patch is current) ends the current patch: counted up -> total += error (535); still
//     above 0 -> total -= error (615); exactly 0 -> nothing (610).
//   average: registered, the mean of the window as it was in the previous cycle.
//   limit (method 700, registered): TM_SOURCE with eight latencies recorded and L = average
//     latency x R: total > 8L -> 2, > 4L -> 4, > 2L -> 8, else unlimited; TM_CAP -> cap_i
//     (0 acts as 1); TM_OFF -> unlimited.

`include "prim_assert.svh"

module tess_hs_throttle #(
  parameter int unsigned NUM_HS      = 2,   // HS launchers sharing the throttle (buffers 301-304)
  parameter int unsigned TG_DEPTH    = 4,   // metadata entries per launcher (a power of 2)
  parameter int unsigned PATCH_DEPTH = 8,   // patch FIFO 415 entries
  parameter int unsigned NPATCH_W    = 4,   // patches per thread group: 1 .. 2^NPATCH_W - 1
  parameter int unsigned LAT_W       = 16,  // HS latency counters (saturating)
  parameter int unsigned CNT_W       = 20,  // total and error counters (saturating)
  // Derived (do not override)
  localparam int unsigned EstW = tess_pkg::EST_W,
  localparam int unsigned HsW  = (NUM_HS > 1) ? $clog2(NUM_HS) : 1
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  // configuration (the throttle register)
  input  logic [1:0]                        mode_i,       // tess_pkg::throttle_mode_e
  input  logic [4:0]                        cap_i,
  input  logic [3:0]                        rate_i,
  // HS launch, per launcher
  input  logic [NUM_HS-1:0]                 launch_req_i,
  output logic [NUM_HS-1:0]                 launch_gnt_o,
  input  logic [NUM_HS*NPATCH_W-1:0]        launch_npatch_i,
  // HS completion, per launcher, in that launcher's launch order
  input  logic [NUM_HS-1:0]                 hs_done_i,
  // tessellation factors of the thread group being parsed (circuit 405)
  input  logic                              tf_valid_i,
  output logic                              tf_ready_o,
  input  tess_pkg::tf_t                     tf_i,
  // patch FIFO 415 towards the patch distributor 420
  output logic                              patch_valid_o,
  input  logic                              patch_ready_i,
  output tess_pkg::tf_t                     patch_o,
  output logic [EstW-1:0]                   patch_est_o,
  // state (statistics, benches)
  output logic [CNT_W-1:0]                  total_o,
  output logic [CNT_W-1:0]                  error_o,
  output logic                              error_up_o,
  output logic [LAT_W-1:0]                  avg_lat_o,
  output logic                              avg_valid_o,
  output logic [4:0]                        limit_o,      // 0: unlimited
  output logic [4:0]                        inflight_o,
  output logic                              forward_o     // a thread group left for the parse stage
);

  localparam int unsigned PtrW  = (TG_DEPTH > 1) ? $clog2(TG_DEPTH) : 1;
  localparam int unsigned CntW  = PtrW + 1;                  // entries held, 0..TG_DEPTH
  localparam int unsigned SeqW  = $clog2(NUM_HS * TG_DEPTH) + 1;
  localparam int unsigned EntW  = SeqW + NPATCH_W;           // {seq, npatch}
  localparam int unsigned NEnt  = NUM_HS * TG_DEPTH;
  localparam int unsigned WinN  = 8;                         // latencies averaged (paragraph 35)
  localparam int unsigned SumW  = LAT_W + 3;
  localparam int unsigned WideW = CNT_W + 2;
  localparam logic [CNT_W-1:0] CntMax = {CNT_W{1'b1}};
  localparam logic [LAT_W-1:0] LatMax = {LAT_W{1'b1}};

  // ---- rate and limit ------------------------------------------------------------------------
  logic [3:0] rate;
  assign rate = (rate_i == 4'd0) ? 4'd1 : rate_i;

  // ---- metadata buffers 301-304, latency counters 311-314, completion flags 321-324 ----------
  // Flat vectors: entry e of launcher h at index h*TG_DEPTH + e.
  logic [NEnt*EntW-1:0]  ent_q, ent_d;
  logic [NEnt*LAT_W-1:0] lat_q, lat_d;
  logic [NEnt-1:0]       done_q, done_d;
  logic [NUM_HS*PtrW-1:0] wptr_q, wptr_d, rptr_q, rptr_d, dptr_q, dptr_d;
  logic [NUM_HS*CntW-1:0] cnt_q, cnt_d;        // entries held (launched, not forwarded)
  logic [NUM_HS*CntW-1:0] run_q, run_d;        // entries whose HS has not finished
  logic [SeqW-1:0]        seq_q, seq_d;        // sequence number of the next launch
  logic [SeqW-1:0]        nseq_q, nseq_d;      // sequence number the arbiter forwards next
  logic [HsW-1:0]         rr_q, rr_d;
  logic [4:0]             inflight_q, inflight_d, limit_q, limit_d;

  // launch arbitration (round robin from rr_q)
  logic [NUM_HS-1:0] elig, gnt;
  logic              allowed, launch;
  logic [HsW-1:0]    gnt_idx;
  assign allowed = (limit_q == 5'd0) || (inflight_q < limit_q);
  always_comb begin
    for (int h = 0; h < NUM_HS; h++) elig[h] = launch_req_i[h] && (cnt_q[h*CntW +: CntW] != CntW'(TG_DEPTH));
    gnt     = '0;
    gnt_idx = '0;
    for (int k = NUM_HS - 1; k >= 0; k--) begin
      // candidate (rr_q + k) mod NUM_HS; the smallest k wins
      if (elig[(32'(rr_q) + k) % NUM_HS] && allowed) begin
        gnt     = '0;
        gnt[(32'(rr_q) + k) % NUM_HS] = 1'b1;
        gnt_idx = HsW'((32'(rr_q) + k) % NUM_HS);
      end
    end
  end
  assign launch       = |gnt;
  assign launch_gnt_o = gnt;

  // parse stage state
  logic [NPATCH_W-1:0] left_q, left_d;
  logic                fwd;
  logic [NUM_HS-1:0]   fwd_hit;
  logic [HsW-1:0]      fwd_idx;
  logic [NPATCH_W-1:0] fwd_np;

  // arbiter 330: the launcher whose oldest entry is done and carries the next sequence number
  always_comb begin
    fwd_hit = '0;
    fwd_idx = '0;
    fwd_np  = '0;
    for (int h = 0; h < NUM_HS; h++) begin
      if (cnt_q[h*CntW +: CntW] != '0 &&
          done_q[h*TG_DEPTH + 32'(rptr_q[h*PtrW +: PtrW])] &&
          ent_q[(h*TG_DEPTH + 32'(rptr_q[h*PtrW +: PtrW]))*EntW + NPATCH_W +: SeqW] == nseq_q) begin
        fwd_hit[h] = 1'b1;
        fwd_idx    = HsW'(h);
        fwd_np     = ent_q[(h*TG_DEPTH + 32'(rptr_q[h*PtrW +: PtrW]))*EntW +: NPATCH_W];
      end
    end
  end
  assign fwd       = (left_q == '0) && (|fwd_hit);
  assign forward_o = fwd;

  // latency window (comparison circuit 445)
  logic [WinN*LAT_W-1:0] win_q, win_d;
  logic [3:0]            nwin_q, nwin_d;
  logic [LAT_W-1:0]      new_lat;
  // The window's sum is kept as a running sum (each latency in adds, the one it evicts goes
  // out), so no eight-input adder sits in any path; the average is registered from it, one cycle
  // after the window.
  logic [SumW-1:0]       sum_q, sum_d;
  logic [LAT_W-1:0]      avg_q, avg_d;
  logic                  avg_ok_q, avg_ok_d;

  always_comb begin
    ent_d      = ent_q;
    lat_d      = lat_q;
    done_d     = done_q;
    wptr_d     = wptr_q;
    rptr_d     = rptr_q;
    dptr_d     = dptr_q;
    cnt_d      = cnt_q;
    run_d      = run_q;
    seq_d      = seq_q;
    nseq_d     = nseq_q;
    rr_d       = rr_q;
    win_d      = win_q;
    sum_d      = sum_q;
    new_lat    = '0;
    nwin_d     = nwin_q;
    inflight_d = inflight_q;
    // latency counters: every running entry counts this cycle
    for (int i = 0; i < NEnt; i++)
      if (!done_q[i] && lat_q[i*LAT_W +: LAT_W] != LatMax) lat_d[i*LAT_W +: LAT_W] = lat_q[i*LAT_W +: LAT_W] + 1'b1;
    // completions (launcher order): the oldest running entry is done; its latency joins the window
    for (int h = 0; h < NUM_HS; h++) begin
      if (hs_done_i[h] && run_q[h*CntW +: CntW] != '0) begin
        done_d[h*TG_DEPTH + 32'(dptr_q[h*PtrW +: PtrW])] = 1'b1;
        new_lat = (lat_q[(h*TG_DEPTH + 32'(dptr_q[h*PtrW +: PtrW]))*LAT_W +: LAT_W] == LatMax) ? LatMax :
                  lat_q[(h*TG_DEPTH + 32'(dptr_q[h*PtrW +: PtrW]))*LAT_W +: LAT_W] + 1'b1;
        sum_d = sum_d - SumW'(win_d[(WinN-1)*LAT_W +: LAT_W]) + SumW'(new_lat);
        win_d = {win_d[(WinN-1)*LAT_W-1:0], new_lat};
        if (nwin_d != 4'(WinN)) nwin_d = nwin_d + 4'd1;
        dptr_d[h*PtrW +: PtrW] = dptr_q[h*PtrW +: PtrW] + 1'b1;
        run_d[h*CntW +: CntW]  = run_q[h*CntW +: CntW] - 1'b1;
        inflight_d = inflight_d - 5'd1;
      end
    end
    // launch
    if (launch) begin
      ent_d[(32'(gnt_idx)*TG_DEPTH + 32'(wptr_q[gnt_idx*PtrW +: PtrW]))*EntW +: EntW] =
          {seq_q, launch_npatch_i[gnt_idx*NPATCH_W +: NPATCH_W]};
      lat_d[(32'(gnt_idx)*TG_DEPTH + 32'(wptr_q[gnt_idx*PtrW +: PtrW]))*LAT_W +: LAT_W] = '0;
      done_d[32'(gnt_idx)*TG_DEPTH + 32'(wptr_q[gnt_idx*PtrW +: PtrW])] = 1'b0;
      wptr_d[gnt_idx*PtrW +: PtrW] = wptr_q[gnt_idx*PtrW +: PtrW] + 1'b1;
      cnt_d[gnt_idx*CntW +: CntW]  = cnt_q[gnt_idx*CntW +: CntW] + 1'b1;
      run_d[gnt_idx*CntW +: CntW]  = run_d[gnt_idx*CntW +: CntW] + 1'b1;
      seq_d      = seq_q + 1'b1;
      inflight_d = inflight_d + 5'd1;
      rr_d       = (32'(gnt_idx) == NUM_HS - 1) ? '0 : gnt_idx + 1'b1;
    end
    // forward (the entry is done, so it is no longer running)
    if (fwd) begin
      rptr_d[fwd_idx*PtrW +: PtrW] = rptr_q[fwd_idx*PtrW +: PtrW] + 1'b1;
      cnt_d[fwd_idx*CntW +: CntW]  = cnt_d[fwd_idx*CntW +: CntW] - 1'b1;
      nseq_d = nseq_q + 1'b1;
    end
  end

  assign avg_d    = LAT_W'(sum_q >> 3);
  assign avg_ok_d = (nwin_q == 4'(WinN));

  // ---- circuit 405 and FIFO 415 with the estimate registers 425 -------------------------------
  logic                fifo_wready, fifo_rvalid;
  logic                tf_fire, take, done_cur;
  logic [EstW-1:0]     est_w;
  logic [tess_pkg::TF_REC_W+EstW-1:0] fifo_rdata;
  logic                unused_full, unused_empty;
  logic [$clog2(PATCH_DEPTH+1)-1:0] unused_depth;

  assign tf_ready_o = (left_q != '0) && fifo_wready;
  assign tf_fire    = tf_valid_i && tf_ready_o;
  assign est_w      = tess_pkg::prim_estimate(tf_i.kind, tf_i.f1, tf_i.f2);
  assign left_d     = fwd ? fwd_np : (tf_fire ? left_q - 1'b1 : left_q);

  prim_fifo_sync #(.WIDTH(tess_pkg::TF_REC_W + EstW), .DEPTH(PATCH_DEPTH)) u_patches (
    .clk_i, .rst_ni, .clr_i(1'b0),
    .wvalid_i(tf_fire), .wready_o(fifo_wready), .wdata_i({tf_i, est_w}),
    .rvalid_o(fifo_rvalid), .rready_i(patch_ready_i), .rdata_o(fifo_rdata),
    .full_o(unused_full), .empty_o(unused_empty), .depth_o(unused_depth));

  assign patch_valid_o = fifo_rvalid;
  assign patch_o       = fifo_rdata[EstW +: tess_pkg::TF_REC_W];
  assign patch_est_o   = fifo_rdata[EstW-1:0];

  // ---- counters 435 (total) and 440 (error), figures 5 and 6 ----------------------------------
  logic [CNT_W-1:0] total_q, total_d, err_q, err_d;
  logic             up_q, up_d, cur_q, cur_d;
  logic [WideW-1:0] t_down, t_adj;
  logic [WideW:0]   t_new;

  assign take     = fifo_rvalid && patch_ready_i;
  assign done_cur = cur_q && patch_ready_i;

  always_comb begin
    // block 515: total counts down by R, not below 0
    t_down = (total_q > CNT_W'(rate)) ? WideW'(total_q) - WideW'(rate) : '0;
    // blocks 535 / 615 when the current patch's read enable comes
    t_adj = t_down;
    if (done_cur && up_q) begin
      t_adj = t_down + WideW'(err_q);
    end else if (done_cur && !up_q) begin
      t_adj = (t_down > WideW'(err_q)) ? t_down - WideW'(err_q) : '0;
    end
    // block 510: a patch written adds its estimate
    t_new   = {1'b0, t_adj} + (tf_fire ? (WideW + 1)'(est_w) : '0);
    total_d = (t_new > (WideW + 1)'(CntMax)) ? CntMax : CNT_W'(t_new);
  end

  always_comb begin
    err_d = err_q;
    up_d  = up_q;
    cur_d = cur_q;
    if (take) begin
      err_d = CNT_W'(fifo_rdata[EstW-1:0]);   // blocks 510 / 610: load the new position
      up_d  = 1'b0;
      cur_d = 1'b1;
    end else if (done_cur) begin
      err_d = '0;
      up_d  = 1'b0;
      cur_d = 1'b0;
    end else if (cur_q && !up_q) begin
      if (err_q > CNT_W'(rate)) begin
        err_d = err_q - CNT_W'(rate);        // block 515
      end else begin
        err_d = '0;                          // block 520: reached 0 before the read enable
        up_d  = 1'b1;
      end
    end else if (cur_q && up_q) begin
      err_d = (err_q > CntMax - CNT_W'(rate)) ? CntMax : err_q + CNT_W'(rate);   // block 525
    end
  end

  // ---- method 700: the limit of thread groups in flight ---------------------------------------
  logic [CNT_W+LAT_W+7:0] lat_r, total_w;
  always_comb begin
    lat_r   = (CNT_W + LAT_W + 8)'(avg_q) * (CNT_W + LAT_W + 8)'(rate);
    total_w = (CNT_W + LAT_W + 8)'(total_q);
    limit_d = 5'd0;
    unique case (mode_i)
      tess_pkg::TM_CAP:    limit_d = (cap_i == 5'd0) ? 5'd1 : cap_i;
      tess_pkg::TM_SOURCE: begin
        if (avg_ok_q) begin
          if (total_w > (lat_r << 3))      limit_d = 5'd2;   // block 720
          else if (total_w > (lat_r << 2)) limit_d = 5'd4;   // block 730
          else if (total_w > (lat_r << 1)) limit_d = 5'd8;   // block 740
          else                             limit_d = 5'd0;   // block 745
        end
      end
      default: limit_d = 5'd0;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ent_q      <= '0;
      lat_q      <= '0;
      done_q     <= '0;
      wptr_q     <= '0;
      rptr_q     <= '0;
      dptr_q     <= '0;
      cnt_q      <= '0;
      run_q      <= '0;
      seq_q      <= '0;
      nseq_q     <= '0;
      rr_q       <= '0;
      win_q      <= '0;
      sum_q      <= '0;
      nwin_q     <= '0;
      inflight_q <= '0;
      limit_q    <= '0;
      left_q     <= '0;
      total_q    <= '0;
      err_q      <= '0;
      up_q       <= 1'b0;
      cur_q      <= 1'b0;
      avg_q      <= '0;
      avg_ok_q   <= 1'b0;
    end else begin
      ent_q      <= ent_d;
      lat_q      <= lat_d;
      done_q     <= done_d;
      wptr_q     <= wptr_d;
      rptr_q     <= rptr_d;
      dptr_q     <= dptr_d;
      cnt_q      <= cnt_d;
      run_q      <= run_d;
      seq_q      <= seq_d;
      nseq_q     <= nseq_d;
      rr_q       <= rr_d;
      win_q      <= win_d;
      sum_q      <= sum_d;
      nwin_q     <= nwin_d;
      inflight_q <= inflight_d;
      limit_q    <= limit_d;
      left_q     <= left_d;
      total_q    <= total_d;
      err_q      <= err_d;
      up_q       <= up_d;
      cur_q      <= cur_d;
      avg_q      <= avg_d;
      avg_ok_q   <= avg_ok_d;
    end
  end

  assign total_o     = total_q;
  assign error_o     = err_q;
  assign error_up_o  = up_q;
  assign avg_lat_o   = avg_q;
  assign avg_valid_o = avg_ok_q;
  assign limit_o     = limit_q;
  assign inflight_o  = inflight_q;

  // ---- assertions ---------------------------------------------------------------------------
  logic [NUM_HS-1:0] run_nonzero;
  int unsigned       run_total;
  always_comb begin
    run_total = 0;
    for (int h = 0; h < NUM_HS; h++) begin
      run_nonzero[h] = run_q[h*CntW +: CntW] != '0;
      run_total      = run_total + 32'(run_q[h*CntW +: CntW]);
    end
  end

  `ASSERT(GrantOneHot, $onehot0(launch_gnt_o))
  `ASSERT(GrantOnlyRequested, (launch_gnt_o & ~launch_req_i) == '0)
  `ASSERT(LaunchWithinLimit, launch |-> (limit_q == 5'd0 || inflight_q < limit_q))
  `ASSERT(LaunchHasPatches, launch |-> launch_npatch_i[gnt_idx*NPATCH_W +: NPATCH_W] != '0)
  `ASSERT(DoneOnlyWhenRunning, (hs_done_i & ~run_nonzero) == '0)
  `ASSERT(InflightIsRunning, 32'(inflight_q) == run_total)
  `ASSERT(OneForwardAtATime, $onehot0(fwd_hit))
  `ASSERT(TakeOnlyWithData, take |-> fifo_rvalid)

endmodule
