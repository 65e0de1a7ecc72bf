// cp-run: run a bare-metal RV32IM ELF on the verilated cp_core_sys (cp_core + ROM + DMEM +
// MMIO test device + slow memory window) until it writes `tohost`. docs/cp-core.md, "cp-run".
//
//   cp-run [--max-cycles N] [--trace] [--wave FILE.fst [--wave-start C] [--wave-end C]]
//          [--seed S] [--mem-latency N] [--stall-prob P] [--junit FILE] program.elf
//
// Exit status (riscv-tests convention for the value written to tohost):
//   0        tohost = 1: pass
//   1..255   tohost = (n << 1) | 1 (any other non-zero value): test n failed (clamped 1..255)
//   255      also: runner error (bad ELF, no tohost symbol, --max-cycles exceeded, RTL assertion)
// Console bytes (MMIO 0x00020000) and the --trace lines go to stdout (with --trace, each
// console byte is its own annotated line); the runner's own lines go to stderr.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <verilated.h>
#include <verilated_fst_c.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>

#include "Vcp_core_sys.h"
#include "elf_image.hpp"
#include "rv32_asm.hpp"

namespace {

constexpr int kRunnerError = 255;

std::string xml_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '&': o += "&amp;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

// One-testcase JUnit file, in the shape scripts/junit_summary.cpp reads.
void write_junit(const std::string& path, const std::string& name, bool pass, const std::string& message,
                 double seconds) {
  if (path.empty()) return;
  std::ofstream o(path);
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o << fmt::format("<testsuites><testsuite name=\"cp-run\" tests=\"1\" failures=\"{}\">\n", pass ? 0 : 1);
  o << fmt::format("  <testcase classname=\"cp-run\" name=\"{}\" time=\"{:.3f}\"", xml_escape(name), seconds);
  if (pass)
    o << "/>\n";
  else
    o << fmt::format(">\n    <failure message=\"{}\"/>\n  </testcase>\n", xml_escape(message));
  o << "</testsuite></testsuites>\n";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Run a bare-metal RV32IM ELF on cp_core_sys until it writes tohost"};
  std::string elf_path, wave_path, junit_path;
  std::uint64_t max_cycles = 10'000'000, wave_start = 0, wave_end = UINT64_MAX;
  std::uint32_t seed = 1;
  unsigned mem_latency = 20;
  double stall_prob = 0.0;
  bool trace = false;
  app.add_option("program", elf_path, "RV32IM ELF (linked for ROM at 0x0, DMEM at 0x10000)")->required();
  app.add_option("--max-cycles", max_cycles, "give up (exit 255) after this many cycles")->capture_default_str();
  app.add_flag("--trace", trace, "print every retired instruction: cycle, pc, insn, disassembly, rd=value");
  app.add_option("--wave", wave_path, "write an FST waveform of cp_core_sys to this file");
  app.add_option("--wave-start", wave_start, "first cycle dumped into --wave");
  app.add_option("--wave-end", wave_end, "last cycle dumped into --wave");
  app.add_option("--seed", seed, "seed for Verilator's random init and --stall-prob")->capture_default_str();
  app.add_option("--mem-latency", mem_latency, "slow window (0x80000000): cycles from grant to rvalid")
      ->capture_default_str()
      ->check(CLI::Range(1u, 65535u));
  app.add_option("--stall-prob", stall_prob, "slow window: probability the grant is withheld in a cycle")
      ->check(CLI::Range(0.0, 0.95));
  app.add_option("--junit", junit_path, "write a one-testcase JUnit XML result");
  CLI11_PARSE(app, argc, argv);

  const auto t0 = std::chrono::steady_clock::now();
  const std::string test_name = std::filesystem::path(elf_path).stem().string();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  auto runner_error = [&](const std::string& msg) {
    fmt::print(stderr, "cp-run: error: {}\n", msg);
    write_junit(junit_path, test_name, false, msg, elapsed());
    return kRunnerError;
  };

  // --- Program ------------------------------------------------------------------------------
  const std::vector<cprun::Region> regions = {
      {"ROM", 0x00000000, 0x4000}, {"DMEM", 0x00010000, 0x4000}, {"SLOW", 0x80000000, 0x1000}};
  cprun::ElfImage img;
  try {
    img = cprun::load_elf(elf_path, regions);
  } catch (const cprun::ElfError& e) {
    return runner_error(e.what());
  }
  if (img.entry != 0)
    return runner_error(fmt::format("{}: entry point {:#010x}, but cp_core boots at 0x00000000", elf_path, img.entry));
  const auto tohost_sym = img.symbol("tohost");
  if (!tohost_sym)
    return runner_error(fmt::format("{}: no 'tohost' symbol; cp-run ends a run on the program's write to tohost",
                                    elf_path));
  const std::uint32_t tohost = *tohost_sym;
  if (!regions[1].contains(tohost, 4) && !regions[2].contains(tohost, 4))
    return runner_error(fmt::format("{}: tohost at {:#010x} is not in writable memory (DMEM or SLOW)", elf_path, tohost));
  if (tohost & 3) return runner_error(fmt::format("{}: tohost at {:#010x} is not word aligned", elf_path, tohost));

  // --- Model --------------------------------------------------------------------------------
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->randReset(2);
  ctx->randSeed(static_cast<int>(seed & 0x7fffffff) | 1);
  ctx->fatalOnError(false);
  if (!wave_path.empty()) ctx->traceEverOn(true);
  auto top = std::make_unique<Vcp_core_sys>(ctx.get(), "TOP");
  std::unique_ptr<VerilatedFstC> fst;
  if (!wave_path.empty()) {
    fst = std::make_unique<VerilatedFstC>();
    top->trace(fst.get(), 99);
    fst->open(wave_path.c_str());
  }
  std::mt19937 rng(seed);
  std::bernoulli_distribution stall(stall_prob);

  std::uint64_t cycle = 0;
  auto dump = [&] {
    if (fst && cycle >= wave_start && cycle <= wave_end) fst->dump(ctx->time());
  };
  // One clock cycle: falling edge, settle inputs and outputs, sample, rising edge.
  auto half = [&](int clk) {
    top->clk_i = clk;
    top->eval();
    dump();
    ctx->timeInc(5);
  };
  auto check_rtl = [&]() -> bool { return !ctx->gotError() && !ctx->gotFinish(); };

  top->clk_i = 1;
  top->rst_ni = 0;
  top->load_we_i = 0;
  top->irq_i = 0;
  top->slow_latency_i = static_cast<std::uint16_t>(mem_latency);
  top->slow_gnt_stall_i = 0;
  top->eval();
  // Load the image through the load port while the core is in reset.
  for (const auto& [addr, value] : img.words) {
    top->load_we_i = 1;
    top->load_addr_i = addr;
    top->load_wdata_i = value;
    half(0);
    half(1);
  }
  top->load_we_i = 0;
  for (int i = 0; i < 3; ++i) {
    half(0);
    half(1);
  }
  top->rst_ni = 1;

  std::uint64_t instret = 0, traps = 0, data_stalls = 0;
  bool done = false;
  std::uint32_t tohost_value = 0;
  bool console_open_line = false;
  for (cycle = 1; cycle <= max_cycles && !done; ++cycle) {
    top->slow_gnt_stall_i = stall_prob > 0 && stall(rng);
    half(0);  // clk low: outputs settle for this cycle's inputs
    data_stalls += top->data_stall_o;
    if (top->retire_valid_o) {
      if (top->retire_trap_o)
        ++traps;
      else
        ++instret;
      if (trace) {
        std::string line = fmt::format("{:>9}  {:08x}  {:08x}  {:<32}", cycle, top->retire_pc_o, top->retire_insn_o,
                                       rv32::disasm(top->retire_insn_o, top->retire_pc_o));
        if (top->retire_trap_o)
          line += "  trap";
        else if (top->retire_rd_o)
          line += fmt::format("  {}={:08x}", rv32::reg_name(top->retire_rd_o), top->retire_rd_wdata_o);
        fmt::print("{}\n", line);
      }
    }
    if (top->store_valid_o && top->store_addr_o == tohost) {
      std::uint32_t mask = 0;
      for (int b = 0; b < 4; ++b)
        if (top->store_be_o & (1u << b)) mask |= 0xFFu << (8 * b);
      tohost_value = top->store_wdata_o & mask;
      if (tohost_value != 0) done = true;
    }
    half(1);
    if (top->console_valid_o) {
      const char c = static_cast<char>(top->console_data_o);
      if (trace) {
        fmt::print("{:>9}  console {:#04x} '{}'\n", cycle, top->console_data_o,
                   (c >= 32 && c < 127) ? std::string(1, c) : std::string("."));
      } else {
        std::fputc(c, stdout);
        console_open_line = c != '\n';
      }
    }
    if (!check_rtl()) {
      if (fst) fst->close();
      return runner_error(fmt::format("RTL assertion failed at cycle {} (see the message above)", cycle));
    }
  }
  const std::uint64_t cycles = cycle - 1;
  std::fflush(stdout);
  if (console_open_line) fmt::print(stderr, "\n");
  top->final();
  if (fst) fst->close();

  const double cpi = instret ? static_cast<double>(cycles) / static_cast<double>(instret) : 0.0;
  fmt::print(stderr, "cp-run: {} cycles, {} instructions retired, {} traps, CPI {:.3f} ({} cycles waiting on data gnt/rvalid)\n",
             cycles, instret, traps, cpi, data_stalls);
  if (!done)
    return runner_error(fmt::format("{}: no write to tohost ({:#010x}) within --max-cycles {}", elf_path, tohost,
                                    max_cycles));
  if (tohost_value == 1) {
    fmt::print(stderr, "cp-run: PASS ({})\n", elf_path);
    write_junit(junit_path, test_name, true, "", elapsed());
    return 0;
  }
  const std::uint32_t n = tohost_value >> 1;
  const int rc = static_cast<int>(std::clamp<std::uint32_t>(n, 1, 255));
  const std::string msg = fmt::format("FAIL: test {} (tohost = {:#x})", n, tohost_value);
  fmt::print(stderr, "cp-run: {} ({})\n", msg, elf_path);
  write_junit(junit_path, test_name, false, msg, elapsed());
  return rc;
}
