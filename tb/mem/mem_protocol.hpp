// The benches' name for the memory protocol's C++ layout (tb::mem): the one definition is
// sim/'s (sim/ports/include/tessera/sim/mem_protocol.hpp), which GpuSim uses too. Declared
// name by name so they are members of tb::mem and no bench name can shadow them.
#pragma once

#include "tb/signal.hpp"
#include "tessera/sim/mem_protocol.hpp"

namespace tb::mem {
using tessera::sim::mem::kAddrW;
using tessera::sim::mem::kDsidW;
using tessera::sim::mem::kLineBytes;
using tessera::sim::mem::kLineW;
using tessera::sim::mem::kReqW;
using tessera::sim::mem::kRspW;
using tessera::sim::mem::kSrcW;
using tessera::sim::mem::kTagW;
using tessera::sim::mem::Bits;
using tessera::sim::mem::describe;
using tessera::sim::mem::Line;
using tessera::sim::mem::Op;
using tessera::sim::mem::pack;
using tessera::sim::mem::read_port;
using tessera::sim::mem::Req;
using tessera::sim::mem::Rsp;
using tessera::sim::mem::to_string;
using tessera::sim::mem::unpack_req;
using tessera::sim::mem::unpack_rsp;
using tessera::sim::mem::write_port;
}  // namespace tb::mem
