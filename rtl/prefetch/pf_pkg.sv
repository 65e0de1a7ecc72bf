// pf_pkg -- types of the tile prefetcher (rtl/prefetch; docs/prefetcher.md).
//
// The history line itself is spec/layouts.yaml pf_history_line (tessera_spec_pkg::
// ts_pf_history_line_t); what is here is internal to pf_top.

package pf_pkg;

  localparam int unsigned KINDS   = 2;    // texture (FS texel reads), target (tile loads)
  localparam int unsigned K_MAX   = 4;    // history entries per kind
  localparam int unsigned LINE_AW = 26;   // 64-byte line addresses of a 32-bit byte space
  localparam int unsigned ENT_W   = 1 + 2 * LINE_AW;       // {valid, first, last}
  localparam int unsigned RNG_W   = KINDS * K_MAX * ENT_W; // 424: pf_history_line.ranges
  localparam int unsigned BLK_W   = LINE_AW - 5;           // the block record's block number
  localparam int unsigned N_ENT   = KINDS * K_MAX;         // entries of a line
  localparam int unsigned IDX_W   = 24;   // history line index (tile number within the frame x slots + slot)

  // Memory tags of the prefetcher's client: {kind, 3'b0, slice}. The slice is whose job the
  // request belongs to (the bench attributes requests by it).
  localparam logic [1:0] TAG_READ     = 2'd1;   // history line read
  localparam logic [1:0] TAG_WRITE    = 2'd2;   // history line write
  localparam logic [1:0] TAG_PREFETCH = 2'd3;   // PREFETCH of a recorded line

  // One queued bin event of a slice: write back the tile the slice leaves (p_*), then take
  // the tile it enters (t_*), with the frame state of the moment the event happened.
  typedef struct packed {
    logic             p_valid;      // the tile left has a line to write
    logic [IDX_W-1:0] p_idx;
    logic [RNG_W-1:0] p_ranges;     // the tracker's ranges of that batch
    logic             t_valid;      // the tile entered is tracked (its line is in the buffer)
    logic [IDX_W-1:0] t_idx;        // its history line (tile x slots + batch mod slots)
    logic [IDX_W-1:0] t_rel;        // ... counted from the pass's first line (the lookahead's pointer)
    logic [IDX_W-1:0] pass_lines;   // the pass's lines (its tiles x slots)
    logic [7:0]       t_batch;      // the batch number its line records (0: one line per tile)
    logic [7:0]       t_count;      // the batch's popcount
    logic [15:0]      epoch;
    logic [7:0]       threshold;
    logic [7:0]       window;       // PF_CFG as latched at the pass's RENDERPASS_BEGIN
    logic [2:0]       entries;      // 1..4
    logic             lookahead;    // prefetch the line's next too (PF_CFG.lookahead)
    logic             blocks;       // the block record (GEOM.PF_RECORD BLOCKS)
    logic [1:0]       kinds;
    logic [1:0]       slots;        // PF_CFG.slots of the pass
    logic [8:0]       max_lines;    // 1..256
    logic [11:0]      width;
    logic [11:0]      height;
    logic [1:0]       bin_size;
  } job_t;
  localparam int unsigned JOB_W = 614;  // $bits(job_t), spelled out for Yosys 0.23

endpackage
