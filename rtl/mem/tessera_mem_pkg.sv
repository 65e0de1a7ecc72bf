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
  // The request and response layouts and mem_op_e come from spec/layouts.yaml (mem_req,
  // mem_rsp, mem_op; docs/reference/layouts.md): mem_req_t, mem_rsp_t, MEM_REQ_W, MEM_RSP_W
  // and every field's MEM_REQ_<F>_LSB / _WIDTH. The sizes below are read off those fields.
  `include "tessera_mem_pkg_layouts.svh"

  localparam int unsigned ADDR_W      = MEM_REQ_ADDR_WIDTH;   // 32
  localparam int unsigned LINE_BYTES  = MEM_REQ_WSTRB_WIDTH;  // 64: one strobe per byte
  localparam int unsigned LINE_W      = MEM_REQ_WDATA_WIDTH;  // 512
  localparam int unsigned OFFSET_W    = 6;                    // $clog2(LINE_BYTES)
  localparam int unsigned DSID_W      = MEM_REQ_DSID_WIDTH;   // hardware DSIDs 0..63
  localparam int unsigned NUM_HW_DSID = 64;
  localparam int unsigned SRC_W       = MEM_REQ_SRC_WIDTH;    // up to 32 clients per crossbar
  localparam int unsigned TAG_W       = MEM_REQ_TAG_WIDTH;    // per-client transaction tag

  /* verilator lint_on UNUSEDPARAM */

endpackage
