// The energy model of tessera-sim (ARCHITECTURE.md 5.8; docs/tessera-sim.md "Energy"):
//   E = DRAM bytes x e_dram + SLC accesses x e_slc + CCHE accesses x e_cche
//       + GMEM accesses x e_gmem + active slice cycles x e_slice_cycle
// with the constants and their sources in a YAML file (sim/tessera-sim/config/energy.yaml).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tessera::sim {

struct EnergyConfig {
  std::string source;
  double dram_pj_per_byte = 0;
  double slc_pj_per_access = 0;
  double cche_pj_per_access = 0;
  double gmem_pj_per_access = 0;
  double slice_pj_per_active_cycle = 0;
};

// Throws std::runtime_error "FILE:LINE:COLUMN: key: message".
EnergyConfig load_energy_config(const std::string& path);

// Counts the model needs; absent ones are not measured by the backend (yet).
struct EnergyInputs {
  std::optional<double> dram_bytes;
  std::optional<double> slc_accesses;
  std::optional<double> cche_accesses;
  std::optional<double> gmem_accesses;
  std::optional<double> active_slice_cycles;
};

struct EnergyEstimate {
  double total_pj = 0;  // sum of the measured terms
  std::optional<double> dram_pj, slc_pj, cche_pj, gmem_pj, slice_pj;
  std::vector<std::string> missing;  // terms whose counts are not measured
};

EnergyEstimate estimate_energy(const EnergyConfig& cfg, const EnergyInputs& in);

}  // namespace tessera::sim
