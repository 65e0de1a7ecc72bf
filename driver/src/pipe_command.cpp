#include "tessera/driver/pipe_command.hpp"

#include <fmt/format.h>

#include "tessera/driver/packets.hpp"
#include "tessera_spec.h"

namespace tessera::driver {

std::string format_pipe_command(const PipeCommand& c) {
  std::string s = fmt::format("q{} dsid{} {} [", c.queue, c.dsid, packet_name(c.opcode));
  for (std::size_t i = 0; i < c.args.size(); ++i) s += fmt::format("{}{:08x}", i ? " " : "", c.args[i]);
  return s + "]";
}

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
