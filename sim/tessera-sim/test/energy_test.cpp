// The energy model (docs/tessera-sim.md "Energy"): the shipped constants load, every term is
// its count times its constant, unmeasured terms are listed and left out, and a bad constants
// file is refused with its file, line, column and key.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tessera/sim/energy.hpp"

using namespace tessera::sim;
namespace fs = std::filesystem;

namespace {

std::string write_yaml(const std::string& text) {
  const fs::path p = fs::temp_directory_path() / ("tessera_energy_test_" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(p) << text;
  return p.string();
}

std::string load_error(const std::string& text) {
  try {
    load_energy_config(write_yaml(text));
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(accepted)";
}

const char* const kGood =
    "dram_pj_per_byte: 1\nslc_pj_per_access: {value: 2, source: x}\ncche_pj_per_access: 3\n"
    "gmem_pj_per_access: 4\nslice_pj_per_active_cycle: 5\n";

}  // namespace

TEST(Energy, ShippedConstantsLoad) {
  const EnergyConfig c = load_energy_config(TESSERA_SOURCE_DIR "/sim/tessera-sim/config/energy.yaml");
  EXPECT_EQ(c.dram_pj_per_byte, 160);
  EXPECT_EQ(c.slc_pj_per_access, 400);
  EXPECT_EQ(c.cche_pj_per_access, 60);
  EXPECT_EQ(c.gmem_pj_per_access, 10);
  EXPECT_EQ(c.slice_pj_per_active_cycle, 50);
}

TEST(Energy, EveryTermIsCountTimesConstant) {
  const EnergyConfig c = load_energy_config(write_yaml(kGood));
  EnergyInputs in;
  in.dram_bytes = 1000;
  in.slc_accesses = 100;
  in.cche_accesses = 10;
  in.gmem_accesses = 7;
  in.active_slice_cycles = 3;
  EnergyEstimate e = estimate_energy(c, in);
  EXPECT_EQ(*e.dram_pj, 1000);
  EXPECT_EQ(*e.slc_pj, 200);
  EXPECT_EQ(*e.cche_pj, 30);
  EXPECT_EQ(*e.gmem_pj, 28);
  EXPECT_EQ(*e.slice_pj, 15);
  EXPECT_EQ(e.total_pj, 1273);
  EXPECT_TRUE(e.missing.empty());
  // A backend without slices (ref): those terms are missing, not zero.
  in.cche_accesses.reset();
  in.gmem_accesses.reset();
  in.active_slice_cycles.reset();
  e = estimate_energy(c, in);
  EXPECT_EQ(e.total_pj, 1200);
  EXPECT_FALSE(e.cche_pj.has_value());
  EXPECT_EQ(e.missing, (std::vector<std::string>{"cche", "gmem", "slice_cycles"}));
}

TEST(Energy, BadConstantsAreRefusedWithTheirPlace) {
  EXPECT_NE(load_error(std::string(kGood) + "l2_pj: 3\n").find(":6:1: l2_pj: unknown key"), std::string::npos);
  EXPECT_NE(load_error("dram_pj_per_byte: 1\nslc_pj_per_access: 2\ngmem_pj_per_access: 4\nslice_pj_per_active_cycle: 5\n")
                .find("cche_pj_per_access: missing"),
            std::string::npos);
  EXPECT_NE(load_error("dram_pj_per_byte: 1\nslc_pj_per_access: 2\ncche_pj_per_access: -1\ngmem_pj_per_access: 4\n"
                       "slice_pj_per_active_cycle: 5\n")
                .find(":3:21: cche_pj_per_access: must be a finite number >= 0"),
            std::string::npos);
  EXPECT_NE(load_error("dram_pj_per_byte: [1\n").find("malformed YAML"), std::string::npos);
}

// Catches: a directory given as --energy read as an empty document ("expected a map of
// constants"), and a constant given twice silently taking the later value; both must name
// the file (and line).
TEST(Energy, DirectoryAndRepeatedKeyAreRefused) {
  const fs::path dir = fs::temp_directory_path();
  try {
    load_energy_config(dir.string());
    ADD_FAILURE() << "a directory was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), dir.string() + ":0:0: is a directory, not a file of energy constants");
  }
  EXPECT_NE(load_error(std::string(kGood) + "dram_pj_per_byte: 7\n").find(":6:1: dram_pj_per_byte: the key is repeated (first on line 1)"),
            std::string::npos)
      << load_error(std::string(kGood) + "dram_pj_per_byte: 7\n");
  EXPECT_NE(load_error(std::string(kGood) + "[a]: 1\n").find(":6:1: (key): a key must be a name"), std::string::npos)
      << load_error(std::string(kGood) + "[a]: 1\n");
}
