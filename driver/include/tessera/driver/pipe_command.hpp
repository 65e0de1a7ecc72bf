// PipeCommand: one command the CP sends to the pipeline, the unit both device backends report
// (the reference device's pipe_log, GpuSim's log of the RTL's CP -> pipeline port) so a test
// can compare them. The driver owns it because it is the driver's vocabulary (packets and
// registers of spec/); the models in sim/ produce it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::driver {

// A packet the pipeline executes, as the primitive controller receives it (cpfw.yaml
// PIPE_PUSH): DRAW, RENDERPASS_BEGIN/END, SET_BIN_MODE, BIND_VIS_BUFFER, FRAME_END with args =
// the payload dwords, one record per register of SET_REGS with args = {register offset,
// value}, and DSID_SET with args = {new DSID} for every DSID_SET packet and for every change
// of the DSID state at an IB boundary (0 at an IB's start, the caller's on return), as the CP
// firmware pushes them. dsid is the issuing queue's DSID_SET state when the packet executed
// (for DSID_SET: the new DSID).
struct PipeCommand {
  uint8_t opcode = 0;  // TS_OP_*
  uint8_t queue = 0;
  uint8_t dsid = 0;
  std::vector<uint32_t> args;
  uint64_t cycle = 0;  // RTL: the cycle the pipeline accepted it; reference: 0
  // Equal when the pipeline receives the same thing; when it arrived is not compared.
  bool operator==(const PipeCommand& o) const {
    return opcode == o.opcode && queue == o.queue && dsid == o.dsid && args == o.args;
  }
};

// "q0 dsid3 DRAW [00000000 ...]" for diagnostics.
std::string format_pipe_command(const PipeCommand& c);

// What a pipeline command says about two-level binning (docs/two-level.md "The passes"): the
// CP's register writes that start a two-level render pass (its coarse grid) and each of its
// passes (the visibility pass, a coarse-bin replay), and the one that ends it. For readers of
// a pipe log that must not decode registers themselves (tessera-sim's statistics).
struct TwoLevelMark {
  enum class Kind { None, Grid, VisibilityPass, Replay, End } kind = Kind::None;
  uint32_t coarse_bins = 0;  // Grid: the grid's bins
};
TwoLevelMark two_level_mark(const PipeCommand& c);

// The two-level registers the CP writes for each pass (GEOM.VIS, VIS_BASE, VIS_STRIDE,
// COARSE; docs/two-level.md), decoded from its SET_REGS writes, for a model of the geometry
// that acts on them (the reference pipeline) without decoding registers itself.
class TwoLevelStateReader {
 public:
  enum class Mode { Off, Write, Test };
  TwoLevelStateReader();   // the registers' resets
  // A SET_REGS write of `value` to GPU byte address `addr`; other registers are ignored.
  void write(uint32_t addr, uint32_t value);
  Mode mode() const;
  uint32_t bin() const;            // the coarse bin under TEST
  uint32_t base() const;           // the visibility buffer's byte address
  uint32_t stride() const;         // bytes per coarse bin bitmap
  uint32_t block_w() const, block_h() const;   // coarse bin size in 64-pixel blocks (0 acts as 1)
  uint32_t bins_x() const, bins_y() const;     // the grid (0 acts as 1)

 private:
  uint32_t vis_, base_, stride_, coarse_;
};

}  // namespace tessera::driver
