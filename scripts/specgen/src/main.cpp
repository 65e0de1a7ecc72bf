// tessera-specgen: spec/ YAML -> SystemVerilog package, C header, Markdown reference.
// Usage and schema: docs/spec-generator.md. Exit status 0 on success, 1 on a spec error (each
// reported as FILE:LINE:COL: PATH: message on stderr), 2 on a usage or I/O error.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <exception>

#include "tessera/specgen/emit.hpp"
#include "tessera/specgen/loader.hpp"

int main(int argc, char** argv) {
  namespace sg = tessera::specgen;
  CLI::App app{"tessera-specgen: generate the SV package, C header and Markdown reference from "
               "spec/ YAML (docs/spec-generator.md)"};
  sg::SpecInputs inputs;
  std::string out_sv;
  std::string out_c;
  std::string out_md;
  bool check_only = false;
  bool quiet = false;
  app.add_option("--packets", inputs.packets, "packet spec (spec/packets.yaml)")
      ->check(CLI::ExistingFile);
  app.add_option("--registers", inputs.registers, "register block specs, one block per file")
      ->check(CLI::ExistingFile);
  app.add_option("--layouts", inputs.layouts, "layout spec (spec/layouts.yaml)")
      ->check(CLI::ExistingFile);
  app.add_option("--out-sv", out_sv, "directory for tessera_spec_pkg.sv");
  app.add_option("--out-c", out_c, "directory for tessera_spec.h and tessera_layouts.hpp");
  app.add_option("--out-md", out_md, "directory for packets.md and registers.md");
  app.add_flag("--check", check_only, "validate only, write nothing");
  app.add_flag("-q,--quiet", quiet, "do not list the files written");
  CLI11_PARSE(app, argc, argv);

  if (inputs.packets.empty() && inputs.registers.empty()) {
    fmt::print(stderr, "tessera-specgen: nothing to do: give --packets and/or --registers\n");
    return 2;
  }

  sg::Diagnostics diag;
  const sg::Spec spec = sg::load_spec(inputs, diag);
  std::vector<sg::OutputFile> files;
  if (diag.ok()) {
    sg::OutputDirs dirs;
    if (!check_only) dirs = {out_sv, out_c, out_md};
    files = sg::generate(spec, dirs, diag);
  }
  if (!diag.ok()) {
    fmt::print(stderr, "{}", diag.str());
    fmt::print(stderr, "tessera-specgen: {} error{} in the spec; nothing written\n",
               diag.errors().size(), diag.errors().size() == 1 ? "" : "s");
    return 1;
  }
  try {
    for (const auto& f : files) {
      const bool written = sg::write_if_changed(f.path, f.content);
      if (!quiet) fmt::print("tessera-specgen: {} {}\n", written ? "wrote" : "unchanged", f.path.string());
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "tessera-specgen: {}\n", e.what());
    return 2;
  }
  return 0;
}
