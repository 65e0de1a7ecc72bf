// Tessera internal register bus: how a block exposes the registers described in
// spec/registers/<block>.yaml. The CP's AXI4-Lite host port and its MMIO window bridge to it.
//
// One request at a time per block: the host holds req until ready, the block answers with
// rsp_valid one or more cycles later (exactly one response per accepted request). Addresses
// are byte offsets within the block (4-byte aligned). An access to an unmapped offset, a write
// to a read-only register or a misaligned address answers err = 1 and changes nothing.
package tessera_regbus_pkg;

  // A package's constants are shared by many designs; each uses a few. Verilator -Wall
  // reports every unused one per user (UNUSEDPARAM), so that one rule is off in this file.
  /* verilator lint_off UNUSEDPARAM */
  localparam int unsigned REG_ADDR_W = 16;
  localparam int unsigned REG_DATA_W = 32;

  typedef struct packed {
    logic [REG_ADDR_W-1:0] addr;
    logic                  we;
    logic [REG_DATA_W-1:0] wdata;
  } reg_req_t;

  typedef struct packed {
    logic                  err;
    logic [REG_DATA_W-1:0] rdata;
  } reg_rsp_t;

  /* verilator lint_on UNUSEDPARAM */

endpackage
