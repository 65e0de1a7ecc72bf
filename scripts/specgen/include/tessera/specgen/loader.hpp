// Reading spec/ files: parse (schema: keys, types, names, bit syntax) then validate (semantics
// across the whole spec: duplicates, overlaps, widths, lengths). Both report into Diagnostics
// and carry on, so one run lists every mistake.
#pragma once

#include <string>
#include <vector>

#include "tessera/specgen/diagnostics.hpp"
#include "tessera/specgen/model.hpp"

namespace tessera::specgen {

struct SpecInputs {
  std::string packets;                 // optional: empty for a register-only run
  std::vector<std::string> registers;  // one register block per file
  std::string layouts;                 // optional: spec/layouts.yaml
};

// Paths are used as given in diagnostics and generated comments; pass them relative to the
// repository root (spec/packets.yaml) so the output does not depend on the checkout location.
void parse_packets_file(const std::string& path, Spec& spec, Diagnostics& diag);
void parse_register_file(const std::string& path, Spec& spec, Diagnostics& diag);
void parse_layouts_file(const std::string& path, Spec& spec, Diagnostics& diag);

// Semantic checks over everything parsed; also resolves derived values (enum widths, the
// maximum length of variable packets). Only a spec that passed may be given to the emitters.
void validate(Spec& spec, Diagnostics& diag);

// parse_* for every input, then validate() if parsing succeeded.
Spec load_spec(const SpecInputs& inputs, Diagnostics& diag);

}  // namespace tessera::specgen
