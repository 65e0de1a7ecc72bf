// cp-run: run a bare-metal RV32IM ELF on the verilated cp_core_sys (cp_core + ROM + DMEM +
// MMIO test device + slow memory window) until it writes `tohost`. docs/cp-core.md, "cp-run".
//
//   cp-run [--max-cycles N] [--trace] [--wave FILE.fst [--wave-start C] [--wave-end C]]
//          [--seed S] [--mem-latency N] [--stall-prob P] [--junit FILE] [--no-trap-check]
//          program.elf
//
// Exit status (riscv-tests convention for the value written to tohost):
//   0        tohost = 1: pass
//   1..255   tohost = (n << 1) | 1 (any other non-zero value): test n failed (clamped 1..255)
//   255      also: no verdict. A bad command line, a program that is not a cp_core ELF (a
//            directory, a device, truncated, ELF64, ...), an output path that cannot be
//            written, an unexpected trap, --max-cycles reached, an RTL assertion. The line
//            "cp-run: error: ..." on stderr says which.
// Everything is checked before the first simulated cycle: a refused run writes no waveform.
//
// Unexpected traps (kTrapRules below): the first trap taken with no handler installed
// (mtvec still 0x0, its reset value, so the trap restarts the program), at the handler's
// own first instruction (mepc = mtvec: it would trap there forever), or a synchronous
// exception inside a handler before its MRET (a double fault: the first trap's mepc and
// mcause are lost). cp-run stops there and prints mcause, mepc and mtval instead of spinning
// until --max-cycles. Traps a program arranges for (its own mtvec, handlers that return
// with MRET; tests/traps.S, irq.S) are expected. --no-trap-check turns the rules off.
//
// Console bytes (MMIO 0x00020000) and the --trace lines go to stdout (with --trace, each
// console byte is its own annotated line); the runner's own lines go to stderr.
#include <CLI/CLI.hpp>
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>
#include <verilated.h>
#include <verilated_fst_c.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include "Vcp_core_sys.h"
#include "Vcp_core_sys___024root.h"  // the core's trap CSRs (mcause, mepc, mtval, mtvec)
#include "elf_image.hpp"
#include "rv32_asm.hpp"

namespace {

constexpr int kRunnerError = 255;
constexpr std::uint64_t kMaxCyclesLimit = 1'000'000'000'000;  // ~days of simulation
constexpr std::uint32_t kBootAddr = 0x00000000;  // cp_core_sys boots here; mtvec resets to it
constexpr std::uint32_t kInsnMret = 0x30200073;

const char* const kExitStatus =
    "Exit status:\n"
    "  0       the program wrote 1 to tohost (PASS)\n"
    "  1..255  it wrote (n << 1) | 1: test n failed (n clamped to 1..255)\n"
    "  255     also: no verdict -- bad option, program not a cp_core ELF (directory, device,\n"
    "          truncated, ELF64...), output path not writable, unexpected trap (no handler,\n"
    "          handler faults on its first instruction, exception inside a handler before its\n"
    "          MRET), no write to tohost within --max-cycles, RTL assertion.\n"
    "          stderr's \"cp-run: error:\" line says which.\n";

// Whole unsigned number (decimal or 0x hex) in [lo, hi]. CLI11's own conversion goes through
// strtoull, which wraps "-5" to 2^64 - 5 and saturates on overflow; this check runs first and
// names the option and the value (CLI11 prefixes "--option: ").
CLI::Validator uint_in(std::uint64_t lo, std::uint64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& s) -> std::string {
        const std::string range = fmt::format("expected a whole number from {} to {}", lo, hi);
        if (!s.empty() && s[0] == '-') return fmt::format("{} is negative; {}", s, range);
        const char* b = s.data();
        const char* e = s.data() + s.size();
        int base = 10;
        if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
          b += 2;
          base = 16;
        }
        std::uint64_t v = 0;
        const auto [p, ec] = std::from_chars(b, e, v, base);
        if (ec == std::errc::result_out_of_range) return fmt::format("{} is too large; {}", s, range);
        if (b == e || ec != std::errc{} || p != e) return fmt::format("'{}' is not a number; {}", s, range);
        if (v < lo || v > hi) return fmt::format("{} is out of range; {}", s, range);
        s = std::to_string(v);  // what CLI11 then converts
        return {};
      },
      fmt::format("[{}, {}]", lo, hi == UINT64_MAX ? std::string("2^64-1") : std::to_string(hi)));
}

// "" if `path` can be written as an output file (created or overwritten), else why not.
// Probes by opening it for writing without truncating; a file the probe created is removed
// again, so a refused run leaves nothing behind.
std::string output_problem(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty()) return "no file name given";
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  switch (st.type()) {
    case fs::file_type::directory: return "is a directory";
    case fs::file_type::fifo: return "is a FIFO, not a file";
    case fs::file_type::socket: return "is a socket, not a file";
    case fs::file_type::not_found: {
      const fs::path parent = fs::path(path).parent_path();
      const fs::file_status pst = fs::status(parent.empty() ? fs::path(".") : parent, ec);
      if (pst.type() == fs::file_type::not_found) return fmt::format("its folder {} does not exist", parent.string());
      if (!fs::is_directory(pst)) return fmt::format("{} is not a folder", parent.string());
      break;
    }
    default: break;
  }
  const bool existed = st.type() != fs::file_type::not_found;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0666);
  if (fd < 0) return fmt::format("cannot be opened for writing: {}", std::strerror(errno));
  ::close(fd);
  if (!existed) ::unlink(path.c_str());
  return "";
}

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

// One-testcase JUnit file, in the shape scripts/junit_summary.cpp reads. "" or why it failed.
std::string write_junit(const std::string& path, const std::string& name, bool pass, const std::string& message,
                        double seconds) {
  if (path.empty()) return "";
  std::ofstream o(path);
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o << fmt::format("<testsuites><testsuite name=\"cp-run\" tests=\"1\" failures=\"{}\">\n", pass ? 0 : 1);
  o << fmt::format("  <testcase classname=\"cp-run\" name=\"{}\" time=\"{:.3f}\"", xml_escape(name), seconds);
  if (pass)
    o << "/>\n";
  else
    o << fmt::format(">\n    <failure message=\"{}\"/>\n  </testcase>\n", xml_escape(message));
  o << "</testsuite></testsuites>\n";
  o.close();
  if (!o) return fmt::format("--junit {}: writing failed: {}", path, std::strerror(errno));
  return "";
}

std::string mcause_name(std::uint32_t mcause) {
  const std::uint32_t code = mcause & 0x7fffffffu;
  if (mcause >> 31) {
    switch (code) {
      case 3: return "machine software interrupt";
      case 7: return "machine timer interrupt";
      case 11: return "machine external interrupt";
      default: return "interrupt";
    }
  }
  switch (code) {
    case 0: return "instruction address misaligned";
    case 1: return "instruction access fault";
    case 2: return "illegal instruction";
    case 3: return "breakpoint";
    case 4: return "load address misaligned";
    case 5: return "load access fault";
    case 6: return "store address misaligned";
    case 7: return "store access fault";
    case 8: return "ecall from U-mode";
    case 11: return "ecall from M-mode";
    default: return "unknown exception";
  }
}

// One trap as the core took it: the CSRs it wrote, the instruction it retired as a trap.
struct Trap {
  std::uint64_t cycle = 0;
  std::uint32_t mcause = 0, mepc = 0, mtval = 0, mtvec = 0, insn = 0;
  std::string describe() const {
    const std::string at = mcause == 1 ? std::string("the fetch faulted")  // no instruction word
                                        : fmt::format("{:08x} {}", insn, rv32::disasm(insn, mepc));
    return fmt::format("mcause {:#010x} ({}), mepc {:#010x} ({}), mtval {:#010x}", mcause, mcause_name(mcause), mepc,
                       at, mtval);
  }
};

}  // namespace

namespace {

int run(int argc, char** argv) {
  // Named here: CLI11 would print argv[0], the build machine's absolute path under CTest.
  CLI::App app{"Run a bare-metal RV32IM ELF on cp_core_sys until it writes tohost (docs/cp-core.md, \"cp-run\")",
               "cp-run"};
  std::string elf_path, wave_path, junit_path;
  std::uint64_t max_cycles = 10'000'000, wave_start = 0, wave_end = UINT64_MAX;
  std::uint32_t seed = 1;
  unsigned mem_latency = 20;
  double stall_prob = 0.0;
  bool trace = false, no_trap_check = false;
  app.add_option("program", elf_path, "RV32IM ELF (linked for ROM at 0x0, DMEM at 0x10000)")->required();
  app.add_option("--max-cycles", max_cycles, "give up (exit 255) after this many cycles")
      ->capture_default_str()
      ->check(uint_in(1, kMaxCyclesLimit));
  app.add_flag("--trace", trace, "print every retired instruction: cycle, pc, insn, disassembly, rd=value");
  app.add_option("--wave", wave_path, "write an FST waveform of cp_core_sys to this file");
  app.add_option("--wave-start", wave_start, "first cycle dumped into --wave (default 0)")
      ->check(uint_in(0, UINT64_MAX));
  app.add_option("--wave-end", wave_end, "last cycle dumped into --wave (default: the end of the run)")
      ->check(uint_in(0, UINT64_MAX));
  app.add_option("--seed", seed, "seed for Verilator's random init and --stall-prob")
      ->capture_default_str()
      ->check(uint_in(0, UINT32_MAX));
  app.add_option("--mem-latency", mem_latency, "slow window (0x80000000): cycles from grant to rvalid")
      ->capture_default_str()
      ->check(uint_in(1, 65535));
  app.add_option("--stall-prob", stall_prob, "slow window: probability the grant is withheld in a cycle")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 0.95));
  app.add_option("--junit", junit_path, "write a one-testcase JUnit XML result");
  app.add_flag("--no-trap-check", no_trap_check,
               "do not stop at an unexpected trap (no handler, handler faulting on entry, double fault)");
  app.footer(kExitStatus);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);  // --help
    fmt::print(stderr, "cp-run: error: {}\nRun 'cp-run --help' for the options.\n", e.what());
    return kRunnerError;
  }
  auto usage_error = [](const std::string& msg) {  // an error that cannot go into --junit
    fmt::print(stderr, "cp-run: error: {}\n", msg);
    return kRunnerError;
  };
  // --junit first: every later error is also written into it.
  if (app.count("--junit"))
    if (const std::string why = output_problem(junit_path); !why.empty())
      return usage_error(fmt::format("--junit {}: {}", junit_path, why));

  const auto t0 = std::chrono::steady_clock::now();
  const std::string test_name = std::filesystem::path(elf_path).stem().string();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  auto runner_error = [&](const std::string& msg) {
    fmt::print(stderr, "cp-run: error: {}\n", msg);
    if (const std::string why = write_junit(junit_path, test_name, false, msg, elapsed()); !why.empty())
      fmt::print(stderr, "cp-run: error: {}\n", why);
    return kRunnerError;
  };

  // --- Options that depend on each other, output paths ---------------------------------------
  if (!(stall_prob >= 0.0 && stall_prob <= 0.95))  // CLI::Range lets NaN through
    return runner_error(fmt::format("--stall-prob: {} is not a probability from 0 to 0.95", stall_prob));
  if (wave_path.empty() && (app.count("--wave-start") || app.count("--wave-end")))
    return runner_error("--wave-start / --wave-end select the cycles of --wave FILE; give --wave too");
  if (!wave_path.empty() || app.count("--wave")) {
    if (wave_start > wave_end)
      return runner_error(fmt::format("wave window inverted: --wave-start {} is after --wave-end {}", wave_start,
                                      wave_end));
    if (wave_start > max_cycles)
      return runner_error(fmt::format("--wave-start {} is after --max-cycles {}: the waveform would be empty",
                                      wave_start, max_cycles));
    if (const std::string why = output_problem(wave_path); !why.empty())
      return runner_error(fmt::format("--wave {}: {}", wave_path, why));
  }

  // --- Program ------------------------------------------------------------------------------
  const std::vector<cprun::Region> regions = {
      {"ROM", 0x00000000, 0x4000}, {"DMEM", 0x00010000, 0x4000}, {"SLOW", 0x80000000, 0x1000}};
  cprun::ElfImage img;
  try {
    img = cprun::load_elf(elf_path, regions);
  } catch (const cprun::ElfError& e) {
    return runner_error(e.what());
  }
  if (img.entry != kBootAddr)
    return runner_error(fmt::format("{}: entry point {:#010x}, but cp_core boots at {:#010x}", elf_path, img.entry,
                                    kBootAddr));
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
    if (!fst->isOpen()) return runner_error(fmt::format("--wave {}: cannot open for writing", wave_path));
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
  // The trap CSRs as the core holds them (valid from the rising edge after the trap's
  // retirement; a load/store access fault writes them at that edge).
  auto trap_csrs = [&](std::uint64_t at, std::uint32_t insn) {
    const auto* r = top->rootp;
    Trap t;
    t.cycle = at;
    t.insn = insn;
    t.mcause = r->cp_core_sys__DOT__u_core__DOT__mcause_q;
    t.mepc = r->cp_core_sys__DOT__u_core__DOT__mepc_q;
    t.mtval = r->cp_core_sys__DOT__u_core__DOT__mtval_q;
    t.mtvec = r->cp_core_sys__DOT__u_core__DOT__mtvec_q;
    return t;
  };

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
  std::optional<Trap> last_trap;     // the latest trap taken
  bool in_handler = false;           // a trap was taken and no MRET retired since
  std::optional<std::string> unexpected;  // why the run stopped at a trap
  for (cycle = 1; cycle <= max_cycles && !done && !unexpected; ++cycle) {
    top->slow_gnt_stall_i = stall_prob > 0 && stall(rng);
    half(0);  // clk low: outputs settle for this cycle's inputs
    data_stalls += top->data_stall_o;
    bool trap_now = false;
    const std::uint32_t retired_insn = top->retire_insn_o;
    if (top->retire_valid_o) {
      if (top->retire_trap_o) {
        ++traps;
        trap_now = true;
      } else {
        ++instret;
        if (retired_insn == kInsnMret) in_handler = false;
      }
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
    if (trap_now) {
      const Trap t = trap_csrs(cycle, retired_insn);
      const bool exception = (t.mcause >> 31) == 0;
      if (no_trap_check) {
        // every trap is the program's business
      } else if (t.mtvec == kBootAddr) {
        unexpected = fmt::format("no trap handler: mtvec is {:#010x}, its reset value (the boot address), so the "
                                 "trap would restart the program",
                                 t.mtvec);
      } else if (t.mepc == t.mtvec) {
        unexpected = fmt::format("the trap handler at mtvec {:#010x} traps on its first instruction, so the core "
                                 "would trap there forever",
                                 t.mtvec);
      } else if (exception && in_handler && last_trap) {
        unexpected = fmt::format("double fault: taken inside the handler of the trap at cycle {} ({}) before it "
                                 "returned with mret",
                                 last_trap->cycle, last_trap->describe());
      }
      if (unexpected) *unexpected = fmt::format("{}: unexpected trap at cycle {}: {}; {}", elf_path, cycle,
                                                t.describe(), *unexpected);
      last_trap = t;
      in_handler = true;
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
  if (unexpected) return runner_error(*unexpected);
  if (!done)
    return runner_error(fmt::format("{}: no write to tohost ({:#010x}) within --max-cycles {}{}", elf_path, tohost,
                                    max_cycles,
                                    last_trap ? fmt::format(" ({} traps; the last at cycle {}: {})", traps,
                                                            last_trap->cycle, last_trap->describe())
                                              : std::string()));
  if (tohost_value == 1) {
    fmt::print(stderr, "cp-run: PASS ({})\n", elf_path);
    if (const std::string why = write_junit(junit_path, test_name, true, "", elapsed()); !why.empty())
      return usage_error(why);
    return 0;
  }
  const std::uint32_t n = tohost_value >> 1;
  const int rc = static_cast<int>(std::clamp<std::uint32_t>(n, 1, 255));
  const std::string msg = fmt::format("FAIL: test {} (tohost = {:#x})", n, tohost_value);
  fmt::print(stderr, "cp-run: {} ({})\n", msg, elf_path);
  if (const std::string why = write_junit(junit_path, test_name, false, msg, elapsed()); !why.empty())
    return usage_error(why);
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {  // a defect of cp-run: still no abort, and the status says "no verdict"
    fmt::print(stderr, "cp-run: internal error: {}\n", e.what());
    return kRunnerError;
  }
}
