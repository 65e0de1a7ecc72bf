#include "tessera/driver/pipe_command.hpp"

#include <fmt/format.h>

#include "tessera/driver/packets.hpp"

namespace tessera::driver {

std::string format_pipe_command(const PipeCommand& c) {
  std::string s = fmt::format("q{} dsid{} {} [", c.queue, c.dsid, packet_name(c.opcode));
  for (std::size_t i = 0; i < c.args.size(); ++i) s += fmt::format("{}{:08x}", i ? " " : "", c.args[i]);
  return s + "]";
}

}  // namespace tessera::driver
