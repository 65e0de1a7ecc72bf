#include "tessera/driver/pipe_command.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "tessera/driver/packets.hpp"
#include "tessera_spec.h"

namespace tessera::driver {

std::string format_pipe_command(const PipeCommand& c) {
  std::string s = fmt::format("q{} dsid{} {} [", c.queue, c.dsid, packet_name(c.opcode));
  for (std::size_t i = 0; i < c.args.size(); ++i) s += fmt::format("{}{:08x}", i ? " " : "", c.args[i]);
  return s + "]";
}

TwoLevelStateReader::TwoLevelStateReader()
    : vis_(TS_GEOM_VIS_RESET), base_(TS_GEOM_VIS_BASE_RESET), stride_(TS_GEOM_VIS_STRIDE_RESET),
      coarse_(TS_GEOM_COARSE_RESET) {}

void TwoLevelStateReader::write(uint32_t addr, uint32_t value) {
  if (addr == TS_GEOM_BASE_ADDR + TS_GEOM_VIS_OFFSET) vis_ = value;
  if (addr == TS_GEOM_BASE_ADDR + TS_GEOM_VIS_BASE_OFFSET) base_ = value;
  if (addr == TS_GEOM_BASE_ADDR + TS_GEOM_VIS_STRIDE_OFFSET) stride_ = value;
  if (addr == TS_GEOM_BASE_ADDR + TS_GEOM_COARSE_OFFSET) coarse_ = value;
}
TwoLevelStateReader::Mode TwoLevelStateReader::mode() const {
  const uint32_t m = TS_GEOM_VIS_MODE_GET(vis_);
  return m == TS_VIS_MODE_WRITE ? Mode::Write : m == TS_VIS_MODE_TEST ? Mode::Test : Mode::Off;
}
uint32_t TwoLevelStateReader::bin() const { return TS_GEOM_VIS_BIN_GET(vis_); }
uint32_t TwoLevelStateReader::base() const { return base_ & TS_GEOM_VIS_BASE_ADDR_MASK; }
uint32_t TwoLevelStateReader::stride() const { return stride_ & TS_GEOM_VIS_STRIDE_LINES_MASK; }
uint32_t TwoLevelStateReader::block_w() const { return std::max<uint32_t>(1, TS_GEOM_COARSE_W_GET(coarse_)); }
uint32_t TwoLevelStateReader::block_h() const { return std::max<uint32_t>(1, TS_GEOM_COARSE_H_GET(coarse_)); }
uint32_t TwoLevelStateReader::bins_x() const { return std::max<uint32_t>(1, TS_GEOM_COARSE_NX_GET(coarse_)); }
uint32_t TwoLevelStateReader::bins_y() const { return std::max<uint32_t>(1, TS_GEOM_COARSE_NY_GET(coarse_)); }

TwoLevelMark two_level_mark(const PipeCommand& c) {
  TwoLevelMark m;
  if (c.opcode != TS_OP_SET_REGS || c.args.size() != 2) return m;
  if (c.args[0] == TS_GEOM_BASE_ADDR + TS_GEOM_COARSE_OFFSET) {
    m.kind = TwoLevelMark::Kind::Grid;
    m.coarse_bins = TS_GEOM_COARSE_NX_GET(c.args[1]) * TS_GEOM_COARSE_NY_GET(c.args[1]);
  } else if (c.args[0] == TS_GEOM_BASE_ADDR + TS_GEOM_VIS_OFFSET) {
    const uint32_t mode = TS_GEOM_VIS_MODE_GET(c.args[1]);
    m.kind = mode == TS_VIS_MODE_WRITE  ? TwoLevelMark::Kind::VisibilityPass
             : mode == TS_VIS_MODE_TEST ? TwoLevelMark::Kind::Replay
                                        : TwoLevelMark::Kind::End;
  }
  return m;
}

}  // namespace tessera::driver
