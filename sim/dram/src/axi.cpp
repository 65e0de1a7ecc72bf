#include "tessera/sim/axi.hpp"

#include <fmt/format.h>

namespace tessera::sim {

const char* to_string(AxiResp r) {
  switch (r) {
    case AxiResp::okay: return "OKAY";
    case AxiResp::exokay: return "EXOKAY";
    case AxiResp::slverr: return "SLVERR";
    case AxiResp::decerr: return "DECERR";
  }
  return "?";
}

std::string describe(const AxiAddr& a) {
  return fmt::format("ID={} ADDR=0x{:08x} LEN={} SIZE={} BURST={}", a.id, a.addr, a.len, a.size, a.burst);
}

}  // namespace tessera::sim
