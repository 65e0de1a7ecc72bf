// pipe_cmd_map -- which CP pipeline commands the raster slices execute, and as what
// (docs/pipeline.md, "Commands on the raster side"). Purely combinational; pipe_top uses it
// twice: at the pipeline input (to know what a command's completion waits for) and on the
// geometry front end's side output (to build the raster slices' input items).
//
//   SET_REGS in the RASTER window  -> RIN_SET_REG {block offset, value}
//   RENDERPASS_BEGIN / _END        -> RIN_RP_BEGIN (payload) / RIN_RP_END
//   DSID_SET                       -> RIN_BATCH_CLOSE (the source closes a batch on it)
//   FENCE (pipe_top's own, for the CP's slice-cache maintenance) -> RIN_FLUSH or
//                                     RIN_INVALIDATE (args[0] bit 0)
//   everything else (GEOM SET_REGS, DRAW, SET_BIN_MODE, FRAME_END, ...) stays in geometry.

module pipe_cmd_map (
  input  tessera_cp_pkg::pipe_cmd_t cmd_i,
  output logic                      to_raster_o,
  output tessera_raster_pkg::rin_t  rin_o
);

  logic [31:0] a0, a1;
  assign a0 = cmd_i.args[31:0];
  assign a1 = cmd_i.args[63:32];

  logic in_raster_win;
  assign in_raster_win = a0 >= tessera_spec_pkg::TS_RASTER_BASE_ADDR &&
                         a0 <  tessera_spec_pkg::TS_RASTER_BASE_ADDR + tessera_spec_pkg::TS_RASTER_SIZE;

  always_comb begin
    to_raster_o   = 1'b0;
    rin_o         = '0;
    rin_o.draw_id = '0;
    rin_o.prim_id = '0;
    rin_o.data    = {128'd0, cmd_i.args};
    unique case (cmd_i.opcode)
      tessera_spec_pkg::TS_OP_SET_REGS: if (in_raster_win) begin
        to_raster_o = 1'b1;
        rin_o.kind  = tessera_raster_pkg::RIN_SET_REG;
        rin_o.data  = {320'd0, a1, a0 - tessera_spec_pkg::TS_RASTER_BASE_ADDR};
      end
      tessera_spec_pkg::TS_OP_RENDERPASS_BEGIN: begin
        to_raster_o = 1'b1;
        rin_o.kind  = tessera_raster_pkg::RIN_RP_BEGIN;
      end
      tessera_spec_pkg::TS_OP_RENDERPASS_END: begin
        to_raster_o = 1'b1;
        rin_o.kind  = tessera_raster_pkg::RIN_RP_END;
      end
      tessera_spec_pkg::TS_OP_DSID_SET: begin
        to_raster_o = 1'b1;
        rin_o.kind  = tessera_raster_pkg::RIN_BATCH_CLOSE;
      end
      tessera_spec_pkg::TS_OP_FENCE: begin
        to_raster_o = 1'b1;
        rin_o.kind  = a0[0] ? tessera_raster_pkg::RIN_INVALIDATE : tessera_raster_pkg::RIN_FLUSH;
      end
      default: ;
    endcase
  end

  logic unused;
  assign unused = ^{cmd_i.queue_id, cmd_i.dsid, cmd_i.nargs};

endmodule
