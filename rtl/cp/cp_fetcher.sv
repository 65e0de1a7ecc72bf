// cp_fetcher -- packet fetch channels of the command processor (ARCHITECTURE.md 5.1: "a
// fetcher that streams packet dwords from rings and IBs so the firmware does not pay memory
// latency per dword").
//
// NUM_CH independent channels (3 per queue: ring, IB1, IB2; registers CPFW.FETCH[n]). A
// channel streams a run of `count` consecutive dwords starting at a byte address: it reads
// whole 64-byte lines through the internal memory protocol into two line slots, the one
// being consumed and the next, so a line's latency hides behind the firmware's processing
// of the previous 16 dwords. The firmware pops one dword per access (pop_*).
//
// Slot states: FREE -> PENDING (request sent) -> VALID (line arrived) -> FREE (last dword of
// the line popped, or a new run started). A new run (start_i) frees VALID slots and turns
// PENDING ones STALE: their responses are dropped when they come back, because a request
// in flight cannot be recalled. Requests go out in line order, so the slot holding the
// line of the next dword is found by address compare.
//
// Lines beyond the run are never requested; the line holding the run's last dword may hold
// dwords the host had not written yet when it was read, which is why EXTEND (cp_fw_regs)
// restarts the run at the current position instead of appending to it.
`include "prim_assert.svh"

module cp_fetcher #(
  parameter int unsigned NUM_CH = 6,
  // Derived (do not override)
  localparam int unsigned ChW = (NUM_CH > 1) ? $clog2(NUM_CH) : 1
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,

  // Run control: start_i[c] (one cycle) starts channel c at start_addr_i for start_count_i dwords.
  input  logic [NUM_CH-1:0]         start_i,
  input  logic [31:0]               start_addr_i,
  input  logic [23:0]               start_count_i,
  output logic [NUM_CH*32-1:0]      pop_addr_o,      // byte address of the next dword, per channel
  output logic [NUM_CH*24-1:0]      remaining_o,     // dwords of the run not yet popped

  // Dword pop: pop_req_i && pop_valid_o pops channel pop_ch_i's next dword.
  input  logic                      pop_req_i,
  input  logic [ChW-1:0]            pop_ch_i,
  output logic                      pop_valid_o,
  output logic [31:0]               pop_data_o,
  output logic [NUM_CH-1:0]         err_o,           // one cycle: a line of channel c came back with err

  // Memory client (tessera_mem_pkg protocol), reads only.
  output logic                      mem_req_valid_o,
  input  logic                      mem_req_ready_i,
  output tessera_mem_pkg::mem_req_t mem_req_o,
  input  logic                      mem_rsp_valid_i,
  output logic                      mem_rsp_ready_o,
  input  tessera_mem_pkg::mem_rsp_t mem_rsp_i
);

  localparam int unsigned NSLOT  = 2;
  localparam int unsigned LineW  = 26;                 // address bits 31:6
  localparam int unsigned ArbW   = 1 + LineW;          // {slot, line}

  localparam logic [1:0] SlotFree    = 2'd0;
  localparam logic [1:0] SlotPending = 2'd1;
  localparam logic [1:0] SlotStale   = 2'd2;
  localparam logic [1:0] SlotValid   = 2'd3;

  // Per channel (flat vectors: Yosys 0.23 drops packed arrays of structs).
  logic [NUM_CH*32-1:0]          pop_addr_d, pop_addr_q;
  logic [NUM_CH*24-1:0]          remaining_d, remaining_q;
  logic [NUM_CH*LineW-1:0]       req_line_d, req_line_q;     // next line to request
  logic [NUM_CH*33-1:0]          end_addr_d, end_addr_q;     // one past the run (33 bits: no wrap)
  // Per slot (index c*NSLOT + s).
  logic [NUM_CH*NSLOT*2-1:0]     slot_state_d, slot_state_q;
  logic [NUM_CH*NSLOT*LineW-1:0] slot_line_d, slot_line_q;
  logic [NUM_CH*NSLOT*512-1:0]   slot_data_d, slot_data_q;

  // ---- request arbitration ----------------------------------------------------------------
  logic [NUM_CH-1:0]      want;
  logic [NUM_CH*ArbW-1:0] want_data;
  logic [NUM_CH-1:0]      arb_gnt;
  logic                   arb_valid, arb_ready;
  logic [ArbW-1:0]        arb_data;
  logic [ChW-1:0]         arb_idx;

  always_comb begin
    want      = '0;
    want_data = '0;
    for (int unsigned c = 0; c < NUM_CH; c++) begin
      logic       free0, free1;
      logic [LineW-1:0] line;
      free0 = slot_state_q[(c*NSLOT+0)*2 +: 2] == SlotFree;
      free1 = slot_state_q[(c*NSLOT+1)*2 +: 2] == SlotFree;
      line  = req_line_q[c*LineW +: LineW];
      // More of the run to request, and a slot to put it in.
      want[c] = ({1'b0, line, 6'b0} < end_addr_q[c*33 +: 33]) && (free0 || free1) && !start_i[c];
      want_data[c*ArbW +: ArbW] = {free0 ? 1'b0 : 1'b1, line};
    end
  end

  prim_rr_arb #(
    .N      (NUM_CH),
    .WIDTH  (ArbW),
    .LOCK_IN(0)
  ) u_arb (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .req_i  (want),
    .gnt_o  (arb_gnt),
    .data_i (want_data),
    .valid_o(arb_valid),
    .ready_i(arb_ready),
    .data_o (arb_data),
    .idx_o  (arb_idx)
  );

  // The granted request is committed (its slot turns PENDING) when it enters this spill
  // register, which keeps the memory request stable until the memory accepts it.
  tessera_mem_pkg::mem_req_t new_req;
  always_comb begin
    new_req       = '0;
    new_req.op    = tessera_mem_pkg::MEM_OP_READ;
    new_req.addr  = {arb_data[LineW-1:0], 6'b0};
    new_req.tag   = 8'({arb_idx, arb_data[ArbW-1]});
  end

  prim_spill_reg #(
    .WIDTH(tessera_mem_pkg::MEM_REQ_W)
  ) u_req_spill (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(arb_valid),
    .ready_o(arb_ready),
    .data_i (new_req),
    .valid_o(mem_req_valid_o),
    .ready_i(mem_req_ready_i),
    .data_o (mem_req_o)
  );

  logic grant_fire;
  assign grant_fire = arb_valid && arb_ready;

  // ---- responses ---------------------------------------------------------------------------
  logic [ChW-1:0] rsp_ch;
  logic           rsp_slot;
  assign rsp_ch          = mem_rsp_i.tag[ChW:1];
  assign rsp_slot        = mem_rsp_i.tag[0];
  assign mem_rsp_ready_o = 1'b1;

  // ---- pop ---------------------------------------------------------------------------------
  // Every index below is a loop constant: the channel and slot are compared, not used as
  // variable part-select offsets, which keeps the multiplexers small for synthesis (a
  // variable offset into the 6 Kbit line store made Yosys build one huge shifter).
  logic [31:0]      pop_addr_sel;
  logic [23:0]      pop_remaining;
  logic [NSLOT-1:0] hit;
  // One-hot AND-OR selection (not if-chains): the depth grows with log2 of the choices.
  always_comb begin
    pop_addr_sel  = '0;
    pop_remaining = '0;
    for (int unsigned c = 0; c < NUM_CH; c++) begin
      pop_addr_sel  |= (32'(pop_ch_i) == c) ? pop_addr_q[c*32 +: 32] : 32'd0;
      pop_remaining |= (32'(pop_ch_i) == c) ? remaining_q[c*24 +: 24] : 24'd0;
    end
  end
  logic [NUM_CH*NSLOT-1:0] slot_hit;
  logic [15:0]             word_sel;
  always_comb begin
    for (int unsigned w = 0; w < 16; w++) word_sel[w] = 32'(pop_addr_sel[5:2]) == w;
    hit        = '0;
    pop_data_o = '0;
    for (int unsigned c = 0; c < NUM_CH; c++) begin
      for (int unsigned s = 0; s < NSLOT; s++) begin
        slot_hit[c*NSLOT+s] = 32'(pop_ch_i) == c &&
                              slot_state_q[(c*NSLOT+s)*2 +: 2] == SlotValid &&
                              slot_line_q[(c*NSLOT+s)*LineW +: LineW] == pop_addr_sel[31:6];
        hit[s] |= slot_hit[c*NSLOT+s];
        for (int unsigned w = 0; w < 16; w++) begin
          pop_data_o |= (slot_hit[c*NSLOT+s] && word_sel[w]) ?
                        slot_data_q[(c*NSLOT+s)*512 + w*32 +: 32] : 32'd0;
        end
      end
    end
    pop_valid_o = (|hit) && pop_remaining != '0;
  end

  logic pop_fire;
  assign pop_fire = pop_req_i && pop_valid_o;

  // ---- next state ----------------------------------------------------------------------------
  always_comb begin
    pop_addr_d   = pop_addr_q;
    remaining_d  = remaining_q;
    req_line_d   = req_line_q;
    end_addr_d   = end_addr_q;
    slot_state_d = slot_state_q;
    slot_line_d  = slot_line_q;
    slot_data_d  = slot_data_q;
    err_o        = '0;

    for (int unsigned c = 0; c < NUM_CH; c++) begin
      for (int unsigned s = 0; s < NSLOT; s++) begin
        // A response fills its slot (or frees a stale one).
        if (mem_rsp_valid_i && 32'(rsp_ch) == c && 32'(rsp_slot) == s) begin
          if (slot_state_q[(c*NSLOT+s)*2 +: 2] == SlotPending) begin
            slot_state_d[(c*NSLOT+s)*2 +: 2] = SlotValid;
            slot_data_d[(c*NSLOT+s)*512 +: 512] = mem_rsp_i.err ? '0 : mem_rsp_i.rdata;
            err_o[c] = mem_rsp_i.err;
          end else if (slot_state_q[(c*NSLOT+s)*2 +: 2] == SlotStale) begin
            slot_state_d[(c*NSLOT+s)*2 +: 2] = SlotFree;
          end
        end
        // The granted request claims its slot.
        if (grant_fire && 32'(arb_idx) == c && 32'(arb_data[ArbW-1]) == s) begin
          slot_state_d[(c*NSLOT+s)*2 +: 2] = SlotPending;
          slot_line_d[(c*NSLOT+s)*LineW +: LineW] = arb_data[LineW-1:0];
        end
        // The slot is freed after its last dword is popped.
        if (pop_fire && 32'(pop_ch_i) == c && hit[s] && pop_addr_sel[5:2] == 4'hf) begin
          slot_state_d[(c*NSLOT+s)*2 +: 2] = SlotFree;
        end
      end
      if (grant_fire && 32'(arb_idx) == c) begin
        req_line_d[c*LineW +: LineW] = arb_data[LineW-1:0] + 1'b1;
      end
      // A pop advances the run.
      if (pop_fire && 32'(pop_ch_i) == c) begin
        pop_addr_d[c*32 +: 32]  = pop_addr_sel + 32'd4;
        remaining_d[c*24 +: 24] = pop_remaining - 24'd1;
      end
      // A new run discards the channel's lines (start_i never coincides with a pop or a grant
      // of the same channel: want[] is masked by start_i and the bus does not pop and start at
      // once).
      if (start_i[c]) begin
        pop_addr_d[c*32 +: 32]  = {start_addr_i[31:2], 2'b00};
        remaining_d[c*24 +: 24] = start_count_i;
        req_line_d[c*LineW +: LineW] = start_addr_i[31:6];
        end_addr_d[c*33 +: 33]  = {1'b0, start_addr_i[31:2], 2'b00} + {7'b0, start_count_i, 2'b00};
        for (int unsigned s = 0; s < NSLOT; s++) begin
          if (slot_state_d[(c*NSLOT+s)*2 +: 2] == SlotPending ||
              slot_state_d[(c*NSLOT+s)*2 +: 2] == SlotStale) begin
            slot_state_d[(c*NSLOT+s)*2 +: 2] = SlotStale;
          end else begin
            slot_state_d[(c*NSLOT+s)*2 +: 2] = SlotFree;
          end
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pop_addr_q   <= '0;
      remaining_q  <= '0;
      req_line_q   <= '0;
      end_addr_q   <= '0;
      slot_state_q <= '0;
      slot_line_q  <= '0;
    end else begin
      pop_addr_q   <= pop_addr_d;
      remaining_q  <= remaining_d;
      req_line_q   <= req_line_d;
      end_addr_q   <= end_addr_d;
      slot_state_q <= slot_state_d;
      slot_line_q  <= slot_line_d;
    end
  end

  // Line data: no reset (only read while the slot is VALID).
  always_ff @(posedge clk_i) begin
    slot_data_q <= slot_data_d;
  end

  assign pop_addr_o  = pop_addr_q;

  // The run is dword aligned; the response's op, src and the tag bits above the channel are
  // not needed (responses are matched by channel and slot); the arbiter's grant vector
  // duplicates idx.
  logic [1:0]                 unused_start_addr;
  logic [NUM_CH-1:0]          unused_arb_gnt;
  logic [tessera_mem_pkg::SRC_W+2:0] unused_rsp;
  assign unused_start_addr = start_addr_i[1:0];
  assign unused_arb_gnt    = arb_gnt;
  assign unused_rsp        = {mem_rsp_i.op, mem_rsp_i.src, 1'b0};
  assign remaining_o = remaining_q;

  // ---- assertions ----------------------------------------------------------------------------
  `ASSERT_INIT(TagFits_A, ChW + 1 <= tessera_mem_pkg::TAG_W)
  `ASSERT(PopChInRange_A, pop_req_i |-> 32'(pop_ch_i) < NUM_CH)
  `ASSERT(StartOneHot_A, $onehot0(start_i))
  `ASSERT(NoPopAndStartSameChannel_A, pop_req_i |-> !start_i[pop_ch_i])
  `ASSERT(RspIsRead_A, mem_rsp_valid_i |-> mem_rsp_i.op == tessera_mem_pkg::MEM_OP_READ)

endmodule
