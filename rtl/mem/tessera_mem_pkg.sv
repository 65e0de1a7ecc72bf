// Tessera internal memory protocol (ARCHITECTURE.md section 3, "internal memory protocol").
//
// One valid/ready request channel and one valid/ready response channel, used by every
// memory client (CP, VFD, TP, RB/CCU, resolve, visibility writes, prefetcher) towards the
// memory crossbar and the SLC, and by the SLC towards the AXI4 bridge.
//
// Rules (docs/memory-protocol.md):
// - Requests are whole 64-byte lines: addr[5:0] must be 0. A misaligned or out-of-range
//   request is answered with rsp.err = 1 and has no other effect.
// - READ returns the line in rsp.rdata. WRITE merges wdata under wstrb (byte strobes) and is
//   acknowledged by a response without data. PREFETCH fills the line into the SLC without
//   returning data; it is acknowledged like a write. wstrb must be 0 for READ and PREFETCH
//   (non-zero strobes there are an error, answered with err = 1).
// - Every request gets exactly one response carrying the request's src and tag. Responses may
//   return in any order (hits under misses, AXI IDs): a client matches them by tag, and keeps
//   at most one request per tag outstanding.
// - Ordering: requests to the same line are performed in the order the receiver accepted them
//   (read-after-write and write-after-write to one line are ordered), and a write's response
//   means every request accepted after it sees the write.
// - dsid is the hardware data-set ID of the writer (0 = default, untagged, never deleted).
// - valid/ready: a sender never lowers valid or changes the payload before ready; valid
//   never depends on ready.
//
// Wide buses of several clients are flat vectors (client i at [i*W +: W]): Yosys 0.23 drops
// elements of packed arrays of structs (docs/lint-and-synthesis.md).
package tessera_mem_pkg;

  // A package's constants are shared by many designs; each uses a few. Verilator -Wall
  // reports every unused one per user (UNUSEDPARAM), so that one rule is off in this file.
  /* verilator lint_off UNUSEDPARAM */
  localparam int unsigned ADDR_W      = 32;
  localparam int unsigned LINE_BYTES  = 64;
  localparam int unsigned LINE_W      = LINE_BYTES * 8;   // 512
  localparam int unsigned OFFSET_W    = 6;                // $clog2(LINE_BYTES)
  localparam int unsigned DSID_W      = 6;                // hardware DSIDs 0..63
  localparam int unsigned NUM_HW_DSID = 64;
  localparam int unsigned SRC_W       = 5;                // up to 32 clients per crossbar
  localparam int unsigned TAG_W       = 8;                // per-client transaction tag

  typedef enum logic [1:0] {
    MEM_OP_READ     = 2'd0,
    MEM_OP_WRITE    = 2'd1,
    MEM_OP_PREFETCH = 2'd2
  } mem_op_e;

  typedef struct packed {
    mem_op_e                 op;
    logic [ADDR_W-1:0]       addr;
    logic [DSID_W-1:0]       dsid;
    logic [SRC_W-1:0]        src;
    logic [TAG_W-1:0]        tag;
    logic [LINE_BYTES-1:0]   wstrb;
    logic [LINE_W-1:0]       wdata;
  } mem_req_t;

  typedef struct packed {
    mem_op_e                 op;    // the op this answers
    logic                    err;   // misaligned, out of range, strobes on READ/PREFETCH
    logic [SRC_W-1:0]        src;
    logic [TAG_W-1:0]        tag;
    logic [LINE_W-1:0]       rdata; // READ only; 0 otherwise
  } mem_rsp_t;

  // Widths spelled out: Yosys 0.23 rejects $bits() of a type inside a package.
  localparam int unsigned MEM_REQ_W = 2 + ADDR_W + DSID_W + SRC_W + TAG_W + LINE_BYTES + LINE_W;
  localparam int unsigned MEM_RSP_W = 2 + 1 + SRC_W + TAG_W + LINE_W;

  /* verilator lint_on UNUSEDPARAM */

endpackage
