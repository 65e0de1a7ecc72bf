// tess_pkg -- types of the tessellation stage's units (ARCHITECTURE.md 5.6; source document
// 003_64193d4bb05efb1b.txt, hull-shader wave-launch throttling from tessellation factors).
// docs/tessellation.md explains them. Internal to the block: what travels between the hull
// shader's launchers, the throttle and the patch distributor.
package tess_pkg;

  // Patch kinds (spec/packets.yaml names the topologies PATCH_QUAD, PATCH_TRI, PATCH_ISOLINE).
  typedef enum logic [1:0] {
    PK_QUAD    = 2'd0,
    PK_TRI     = 2'd1,
    PK_ISOLINE = 2'd2
  } patch_kind_e;

  // How the throttle limits hull-shader thread-group launches (the throttle register's mode).
  typedef enum logic [1:0] {
    TM_OFF    = 2'd0,  // greedy: launch whenever a launcher has a thread group
    TM_SOURCE = 2'd1,  // the source's throttle (method 700): 2 / 4 / 8 / unlimited in flight
    TM_CAP    = 2'd2   // a static cap of N thread groups in flight
  } throttle_mode_e;

  localparam int unsigned TF_W  = 8;   // a tessellation factor as read (0..255; clamped to 64)
  localparam int unsigned TF_MAX = 64;
  // Primitive estimate of one patch: at most 2 * 64 * 64 = 8192.
  localparam int unsigned EST_W = 14;

  // One patch's factors as circuit 405 hands them over (source figure 4): quad patches use
  // the two inside factors, triangle patches the first, isolines the two line factors
  // (density, detail). A factor of 0 culls the patch (estimate 0).
  typedef struct packed {
    patch_kind_e       kind;
    logic [TF_W-1:0]   f1;
    logic [TF_W-1:0]   f2;
  } tf_t;
  localparam int unsigned TF_REC_W = 2 + 2 * TF_W;   // $bits(tf_t) (Yosys 0.23 takes no $bits of a type)

  // The primitives the source's block 505 estimates for a patch: quad 2*in1*in2, triangle
  // floor(1.5*in1^2), isoline f1*f2; factors above 64 count as 64, a 0 factor culls.
  function automatic logic [EST_W-1:0] prim_estimate(logic [1:0] kind, logic [TF_W-1:0] f1,
                                                     logic [TF_W-1:0] f2);
    logic [6:0]  a, b;
    logic [13:0] sq, ab;
    a  = (f1 > TF_W'(TF_MAX)) ? 7'(TF_MAX) : f1[6:0];
    b  = (f2 > TF_W'(TF_MAX)) ? 7'(TF_MAX) : f2[6:0];
    sq = 14'(a) * 14'(a);
    ab = 14'(a) * 14'(b);
    prim_estimate = '0;
    // kinds by value (PK_QUAD 0, PK_TRI 1, PK_ISOLINE 2): Yosys 0.23 does not resolve the
    // package's enum names inside its function
    if (kind == 2'd0 && a != '0 && b != '0) prim_estimate = {ab[12:0], 1'b0};
    if (kind == 2'd1 && a != '0)            prim_estimate = sq + (sq >> 1);
    if (kind == 2'd2 && a != '0 && b != '0) prim_estimate = ab;
  endfunction

endpackage
