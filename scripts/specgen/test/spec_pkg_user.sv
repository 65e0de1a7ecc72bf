// A small consumer of the generated tessera_spec_pkg, in the style RTL will use it: qualified
// names only, packet header decode, field part-selects, an enum-typed signal, an array-register
// address decode and reset values. `verilator --lint-only -Wall` and Yosys 0.23 `synth` run on
// it (CTest spec_pkg_verilator / spec_pkg_yosys) so a spec change that makes the package
// unusable in either tool fails the regression, not the first RTL block that notices.
module spec_pkg_user (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  input  logic [31:0]                     dw_i,       // a packet header or payload dword
  input  logic [31:0]                     addr_i,     // host-port byte address
  input  logic                            wr_i,
  input  logic [31:0]                     wdata_i,
  output logic                            is_draw_o,
  output logic                            len_ok_o,
  output logic                            irq_flag_o,
  output tessera_spec_pkg::ts_topology_e  topology_o,
  output logic                            patch_o,
  output logic [tessera_spec_pkg::TS_CP_QUEUE_COUNT*16-1:0] wptrs_o,  // queue q in [16q+15:16q]
  output logic [31:0]                     ctrl_o
);
  localparam int unsigned NumQueues = tessera_spec_pkg::TS_CP_QUEUE_COUNT;

  logic [7:0]  opcode;
  logic [15:0] length;
  logic [2:0]  topo_bits;

  assign opcode = dw_i[tessera_spec_pkg::TS_PKT_HDR_OPCODE_LSB +: tessera_spec_pkg::TS_PKT_HDR_OPCODE_WIDTH];
  assign length = dw_i[tessera_spec_pkg::TS_PKT_HDR_LENGTH_LSB +: tessera_spec_pkg::TS_PKT_HDR_LENGTH_WIDTH];
  assign is_draw_o = (opcode == tessera_spec_pkg::TS_OP_DRAW);

  always_comb begin
    len_ok_o = 1'b0;
    unique case (opcode)
      tessera_spec_pkg::TS_OP_DRAW:     len_ok_o = (length == tessera_spec_pkg::TS_PKT_DRAW_LEN);
      tessera_spec_pkg::TS_OP_SET_REGS: len_ok_o = (length >= tessera_spec_pkg::TS_PKT_SET_REGS_MIN_LEN);
      tessera_spec_pkg::TS_OP_NOP:      len_ok_o = 1'b1;
      default:                          len_ok_o = 1'b0;
    endcase
  end

  assign irq_flag_o = |(dw_i & tessera_spec_pkg::TS_PKT_FENCE_FLAG_INTERRUPT_MASK);

  assign topo_bits = dw_i[tessera_spec_pkg::TS_PKT_DRAW_TOPOLOGY_LSB +: tessera_spec_pkg::TS_PKT_DRAW_TOPOLOGY_WIDTH];
  always_comb begin
    topology_o = tessera_spec_pkg::TS_TOPOLOGY_TRI_LIST;
    if (topo_bits == tessera_spec_pkg::TS_TOPOLOGY_TRI_STRIP) topology_o = tessera_spec_pkg::TS_TOPOLOGY_TRI_STRIP;
  end
  assign patch_o = (topology_o == tessera_spec_pkg::TS_TOPOLOGY_PATCH_QUAD);

  // Register file slice: CTRL and the per-queue RING_WPTR.
  logic [11:0] offset;
  assign offset = addr_i[tessera_spec_pkg::TS_CP_ADDR_WIDTH-1:0];

  logic [31:0] ctrl_q;
  logic [NumQueues*16-1:0] wptr_q;  // flat: Yosys 0.23 has no multi-dimensional packed arrays
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ctrl_q <= tessera_spec_pkg::TS_CP_CTRL_RESET;
      for (int unsigned q = 0; q < NumQueues; q++) begin
        wptr_q[q*16 +: 16] <= tessera_spec_pkg::TS_CP_RING_WPTR_PTR_RESET;
      end
    end else if (wr_i) begin
      if (offset == tessera_spec_pkg::TS_CP_CTRL_OFFSET[11:0]) begin
        ctrl_q <= wdata_i & tessera_spec_pkg::TS_CP_CTRL_RW_MASK;
      end
      for (int unsigned q = 0; q < NumQueues; q++) begin
        if (32'(offset) == tessera_spec_pkg::TS_CP_RING_WPTR_OFFSET
                           + 32'(q) * tessera_spec_pkg::TS_CP_QUEUE_STRIDE) begin
          wptr_q[q*16 +: 16] <= wdata_i[tessera_spec_pkg::TS_CP_RING_WPTR_PTR_LSB +: tessera_spec_pkg::TS_CP_RING_WPTR_PTR_WIDTH];
        end
      end
    end
  end
  assign ctrl_o = ctrl_q;
  assign wptrs_o = wptr_q;

  // Upper address bits select the block; this user only models the CP aperture.
  logic unused_addr;
  assign unused_addr = ^addr_i[31:tessera_spec_pkg::TS_CP_ADDR_WIDTH];
endmodule
