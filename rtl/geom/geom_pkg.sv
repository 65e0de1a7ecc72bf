// geom_pkg -- types shared by the sliced geometry front end (ARCHITECTURE.md 5.3; source
// document 001_3630ef805e8956e2.txt, Qualcomm sliced GPU). docs/geometry.md explains them.
//
// Register offsets and fields come from the generated tessera_spec_pkg::TS_GEOM_* names
// (spec/registers/geom.yaml), the 16-byte vertex layout in memory from TS_VERTEX_*
// (spec/layouts.yaml); this package holds only what is internal to the block or on its ports:
// the per-sub-batch state, the descriptors and tokens that travel between PC_US, the slices
// and VPC_US, and the port formats towards the raster side (screen vertex, triangle record,
// store read request), the last three generated from spec/layouts.yaml, which the benches'
// C++ reads too (tessera_layouts.hpp).
package geom_pkg;

  /* verilator lint_off UNUSEDPARAM */
  localparam int unsigned MAX_SLICES = 8;
  localparam int unsigned SEQ_W       = 16;  // sub-batch sequence number
  localparam int unsigned DRAW_ID_W   = 16;
  localparam int unsigned SB_SIZE_W   = 11;  // 16..1024 primitives
  // From spec/layouts.yaml (docs/reference/layouts.md), with <L>_W and <L>_<F>_LSB / _WIDTH:
  // - svtx_t: screen-space vertex after the viewport transform (VS output, parameter-store
  //   contents). x, y: signed 16.4 fixed point, saturated; z, rgba, u, v copied from the vertex.
  // - tri_t: triangle record on a receiving slice's output (towards VPCBE_S): {src, entry}
  //   names the parameter-store entry, mask the receiving slices, then draw_id and prim_id.
  // - rd_req_t: parameter-store read request of a receiving slice, {src, entry}.
  `include "geom_pkg_layouts.svh"
  localparam int unsigned SLICE_IDX_W = TRI_SRC_WIDTH;    // slice numbers on ports: always 3 bits
  localparam int unsigned ENTRY_W     = TRI_ENTRY_WIDTH;  // parameter-store entry index on ports
  localparam int unsigned SCR_W       = SVTX_X_WIDTH;     // screen x, y: signed 16.4 fixed point
  localparam int unsigned STRI_W      = 3 * SVTX_W;
  /* verilator lint_on UNUSEDPARAM */

  // Draw state sampled by PC_US for each sub-batch (SET_REGS applies in order with draws).
  typedef struct packed {
    logic [31:0] scale_x;     // s15.16
    logic [31:0] scale_y;
    logic [31:0] offset_x;    // s27.4 (two's complement, 1/16 pixel)
    logic [31:0] offset_y;
    logic [1:0]  cull_mode;   // ts_cull_mode_e
    logic        front_cw;    // 1: clockwise triangles are front facing
    logic [1:0]  tile_size;   // ts_bin_size_e
    logic [2:0]  skew;
    logic [11:0] rt_w;        // pixels
    logic [11:0] rt_h;
  } gstate_t;
  localparam int unsigned GSTATE_W = 4 * 32 + 2 + 1 + 2 + 3 + 24;

  // The tessellation stage's configuration (GEOM TESS_THROTTLE, TESS_SHADER, TESS_HS_LAT,
  // TESS_DS_LAT), the same for every slice (slice-wide state, not sampled per sub-batch).
  typedef struct packed {
    logic [1:0]  mode;          // tess_pkg::throttle_mode_e
    logic [4:0]  cap;
    logic [3:0]  rate;
    logic [3:0]  tg_size;
    logic [4:0]  slots;
    logic        hold;          // HS slot held until the group is consumed (else freed at HS done)
    logic [11:0] hs_base;
    logic [7:0]  hs_per_patch;
    logic [11:0] ds_lat;
  } tess_cfg_t;

  // Per-slice tessellation-stage events towards the GEOM counters.
  typedef struct packed {
    logic        hs_done;       // a thread group's HS finished ...
    logic [15:0] hs_lat;        // ... this many cycles after its launch
    logic        hs_stall;      // a closed thread group waited for a launch
    logic        ds_stall;      // a DS wave waited for a slot
    logic        busy;          // the stage held work
    logic [4:0]  inflight;      // thread groups launched, HS not done
  } tess_ev_t;
  /* verilator lint_off UNUSEDPARAM */  // used by geom_top/geom_regs, not by every user of the package
  localparam int unsigned TESS_EV_W = 1 + 16 + 1 + 1 + 1 + 5;
  /* verilator lint_on UNUSEDPARAM */

  // Sub-batch descriptor, PC_US -> PC_S.
  typedef struct packed {
    gstate_t              st;
    logic                 strip;       // topology TRI_STRIP (else TRI_LIST or a patch)
    logic                 patch;       // a patch topology: primitives are patches
    logic [1:0]           pkind;       // ... of this tess_pkg::patch_kind_e (topology - PATCH_QUAD)
    logic [31:0]          tf_addr;     // ... with their tf_record at tf_addr + 16 * patch
    logic [1:0]           itype;       // ts_index_type_e
    logic [31:0]          vaddr;
    logic [31:0]          iaddr;
    logic [31:0]          first_prim;  // primitive index within the draw
    logic [SB_SIZE_W-1:0] nprims;      // 1..1024
    logic [DRAW_ID_W-1:0] draw_id;
    logic [SEQ_W-1:0]     seq;         // sub-batch number (API order)
    logic                 last;        // last sub-batch of its draw
  } sb_desc_t;
  localparam int unsigned SB_DESC_W = GSTATE_W + 1 + 1 + 2 + 32 + 2 + 32 * 3 + SB_SIZE_W + DRAW_ID_W + SEQ_W + 1;

  // Vertex token inside a slice (PC_S -> VFD -> VS -> TESS -> TSEFE_S). eos marks the end of
  // a sub-batch: it carries seq/last instead of a vertex. In a patch sub-batch every patch is
  // a tf token (its tf_record, fetched like a vertex) and then its control points (patch, the
  // last one with tri_done); triangles out of the tessellator carry patch too.
  typedef struct packed {
    logic                 eos;
    logic                 tf;        // the tf_record of a patch, not a vertex
    logic                 patch;     // belongs to a patch (control point or tessellated vertex)
    logic [1:0]           pkind;     // tess_pkg::patch_kind_e of the patch
    logic [1:0]           sid;       // state-table slot of the sub-batch
    logic                 tri_done;  // this vertex completes a triangle
    logic                 odd;       // odd strip primitive: swap the first two vertices
    logic [31:0]          prim_id;   // eos: {15'b0, last, seq}
    logic [DRAW_ID_W-1:0] draw_id;
  } vtok_t;
  localparam int unsigned VTOK_W = 1 + 1 + 1 + 2 + 2 + 1 + 1 + 32 + DRAW_ID_W;

  // A triangle's screen box in 64x64-pixel blocks (TSEFE_S's box, clamped to the target), for
  // two-level binning's visibility writer (docs/two-level.md "Visibility buffer").
  typedef struct packed {
    logic [5:0] x0;
    logic [5:0] x1;
    logic [5:0] y0;
    logic [5:0] y1;
  } cbox_t;
  localparam int unsigned CBOX_W = 24;

  // Mask-FIFO entry, VPCFE_S -> VPC_US.
  typedef struct packed {
    logic                   eos;
    logic [ENTRY_W-1:0]     entry;
    logic [MAX_SLICES-1:0]  mask;
    cbox_t                  cbox;
    logic [DRAW_ID_W-1:0]   draw_id;
    logic [31:0]            prim_id;  // eos: {15'b0, last, seq}
  } mask_ent_t;
  localparam int unsigned MASK_ENT_W = 1 + ENTRY_W + MAX_SLICES + CBOX_W + DRAW_ID_W + 32;

  // Two-level binning state (GEOM VIS, VIS_BASE, VIS_STRIDE, COARSE), for PC_US's coarse-bin
  // test and the visibility writer. Counts that read 0 act as 1 (spec/registers/geom.yaml).
  typedef struct packed {
    logic [1:0]  mode;        // ts_vis_mode_e
    logic [9:0]  bin;         // coarse bin under TEST
    logic [25:0] base;        // buffer address in 64-byte lines
    logic [15:0] stride;      // lines per coarse bin's bitmap
    logic [5:0]  w;           // coarse bin size in 64-pixel blocks
    logic [5:0]  h;
    logic [5:0]  nx;          // coarse bins across, down
    logic [5:0]  ny;
  } vis_cfg_t;

  // The tile prefetcher's tuning (GEOM.PF_CFG, PF_RECORD, PF_ADAPT) for pf_top in pipe_top, and what
  // GEOM.PF_STATUS and the PF_* counters read from it (docs/prefetcher.md "Registers").
  typedef struct packed {
    logic [7:0] threshold;
    logic [7:0] max_lines;
    logic [2:0] entries;
    logic       lookahead;   // prefetch one bin ahead (the line's next)
    logic [1:0] kinds;
    logic [1:0] slots;       // 4^slots history lines per tile
    logic [7:0] window;
    logic       blocks;      // GEOM.PF_RECORD.format: the block record (pf_record BLOCKS)
    logic [6:0] hit_high;
    logic [6:0] hit_low;
  } pf_cfg_t;

  typedef struct packed {
    logic [7:0]  threshold;
    logic [1:0]  mode;
    logic [15:0] epoch;
    logic [31:0] similar;
    logic [31:0] dissimilar;
    logic [31:0] no_history;
    logic [31:0] requested;
    logic [31:0] dropped;
    logic [31:0] untracked;
    logic [31:0] no_room;
  } pf_stat_t;

  // Order-FIFO entry, PC_US -> VPC_US: what completes next, in acceptance order.
  typedef enum logic [1:0] {
    ORD_SB   = 2'd0,   // a sub-batch: drain slice `slice` up to its eos `seq`
    ORD_DONE = 2'd1,   // a command that is complete on acceptance (state, error, empty draw)
    ORD_SIDE = 2'd2    // forward the side-FIFO head on the side output
  } ord_kind_e;
  // Two-level binning: vbase is the render pass's primitive number of the draw's primitive 0
  // (ORD_SB; a triangle's pass number is vbase + its prim_id) or the pass's primitive count
  // (ORD_SIDE of RENDERPASS_END); vis marks RENDERPASS_BEGIN/END of a visibility pass.
  typedef struct packed {
    ord_kind_e              kind;
    logic [SLICE_IDX_W-1:0] slice;
    logic [SEQ_W-1:0]       seq;
    logic                   last;
    logic                   vis;
    logic [31:0]            vbase;
  } ord_t;
  localparam int unsigned ORD_W = 2 + SLICE_IDX_W + SEQ_W + 1 + 1 + 32;

endpackage
