// Types of the raster slice (docs/raster.md; ARCHITECTURE.md 5.3 and 5.4).
//
// rin_t is the one input stream of a raster slice: VPCBE_S merges the screen-space triangles
// assigned to its slice with the raster-side commands the geometry front end forwards on its
// side output, in API order. A triangle carries its three vertices (the geometry store's
// vertex layout, geom_pkg::svtx_t: x, y signed 16.4 in 1/16 pixel, z 24-bit, RGBA8, u, v
// unsigned 0.16); a command carries up to eight argument dwords (argument i at [i*32 +: 32]
// of data).
package tessera_raster_pkg;

  /* verilator lint_off UNUSEDPARAM */
  // rin_t, RIN_W and RIN_<F>_LSB / _WIDTH: spec/layouts.yaml, layout rin.
  `include "tessera_raster_pkg_layouts.svh"
  localparam int unsigned SCR_W  = 20;      // screen x, y: signed 16.4 (as geom_pkg::SCR_W)
  localparam int unsigned DATA_W = RIN_DATA_WIDTH;
  localparam int unsigned VTX_W  = DATA_W / 3;  // one vertex, spec/layouts.yaml svtx

  // Input item kinds.
  localparam logic [2:0] RIN_TRI         = 3'd0;  // data = {v0, v1, v2}, v0 at [383:256]
  localparam logic [2:0] RIN_SET_REG     = 3'd1;  // arg0 = RASTER block offset, arg1 = value
  localparam logic [2:0] RIN_RP_BEGIN    = 3'd2;  // args = RENDERPASS_BEGIN payload dwords 0..7
  localparam logic [2:0] RIN_RP_END      = 3'd3;  // completes when every write is acknowledged
  localparam logic [2:0] RIN_BATCH_CLOSE = 3'd4;  // DSID_SET: close the open batch
  localparam logic [2:0] RIN_FLUSH       = 3'd5;  // CCHE flush (write back, keep lines)
  localparam logic [2:0] RIN_INVALIDATE  = 3'd6;  // CCHE flush + invalidate

  // Interpolation: attribute planes carry PLANE_F fraction bits in PLANE_W-bit wrapping
  // two's complement (docs/raster.md, "Attribute planes").
  localparam int unsigned PLANE_W = 48;
  localparam int unsigned PLANE_F = 20;
  localparam int unsigned NUM_ATTR = 7;     // z, r, g, b, a, u, v
  localparam int unsigned EDGE_W  = 48;     // edge functions (need 44)
  localparam int unsigned RCP_W   = 25;     // reciprocal, 2^23 < R <= 2^24

  // Quad from GRAS to FS/RB: tile-local position of its top-left pixel, coverage of the
  // pixels (bit 2*dy+dx), depth, color and texture coordinates per pixel (pixel i at
  // [i*24 +: 24], [i*32 +: 32]; uv: u at [i*32+16 +: 16], v at [i*32 +: 16]).
  typedef struct packed {
    logic [5:0]   lx;
    logic [5:0]   ly;
    logic [3:0]   mask;
    logic [95:0]  z;
    logic [127:0] rgba;
    logic [127:0] uv;
  } quad_t;
  localparam int unsigned QUAD_W = 6 + 6 + 4 + 96 + 128 + 128;

  // What a raster slice does in a cycle (raster_slice act_o): exactly one per cycle, so the
  // per-activity cycle counters add up to the cycles elapsed (docs/raster.md "Where the cycles
  // go"; issue 16 item 8). ACT_CLEAR..ACT_STORE are work; the three others are not.
  typedef enum logic [2:0] {
    ACT_IDLE        = 3'd0,  // nothing to do: no open batch, no input
    ACT_INPUT_WAIT  = 3'd1,  // an open batch waits for its next triangle or closing command
    ACT_MEMORY_WAIT = 3'd2,  // a line request waits for the port, or the tile waits for data or acks
    ACT_CLEAR       = 3'd3,  // render-pass clear writes
    ACT_LOAD        = 3'd4,  // tile load: read requests issued, data arriving
    ACT_SETUP       = 3'd5,  // batch insertion, bin walk, bitstream, triangle setup
    ACT_RASTER      = 3'd6,  // GRAS, FS and the RB draining
    ACT_STORE       = 3'd7   // tile store
  } act_e;

  // A job of the slice's tile engine (raster_tile_engine): load a tile into a half of the tile
  // buffer, store it from there (each from/to memory, or GMEM in a two-level pass), write the
  // clear value into memory, or write a GMEM-resident tile back to memory (flush).
  typedef enum logic [1:0] {
    TE_LOAD  = 2'd0,
    TE_STORE = 2'd1,
    TE_CLEAR = 2'd2,
    TE_FLUSH = 2'd3
  } tile_op_e;
  /* verilator lint_on UNUSEDPARAM */

endpackage
