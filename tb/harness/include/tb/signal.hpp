// tb::SignalRef is sim/'s SignalRef (sim/ports/include/tessera/sim/signal_ref.hpp): GpuSim,
// which tools link, needs it too, and the layers run rtl <- sim <- tb, so the one definition
// lives in sim/ and the harness uses it under its own name.
#pragma once

#include "tessera/sim/signal_ref.hpp"

namespace tb {
using tessera::sim::SignalRef;
}  // namespace tb
