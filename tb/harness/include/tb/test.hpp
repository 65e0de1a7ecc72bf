// Test registration and the run loop: cocotb's regression manager on GoogleTest.
//
//   TB_TEST(Vprim_fifo_sync_d4, fifo_random_traffic) {
//     tb::Clock(dut->clk_i, 10, "ns").start();
//     co_await tb::ClockCycles(dut->clk_i, 5);
//     ...
//   }
//
// Every test gets a fresh VerilatedContext and model. Environment (as in cocotb):
//   RANDOM_SEED=n         run seed, printed at start; each test's RNG and Verilator's
//                         randReset are derived from it and the test's name, so
//                         RANDOM_SEED=n TESTCASE=name reproduces a test exactly
//   TESTCASE=a,b          run only these tests
//   WAVES=1               write <module>.<test>.fst per test (into WAVES_DIR, default cwd)
//   COCOTB_RESULTS_FILE   JUnit XML file (default results.xml)
//   COCOTB_LOG_LEVEL      DEBUG, INFO, WARNING, ERROR, CRITICAL
//   TESSERA_REGRESS=1     longer runs (tb::regress(), tb::scaled())
#pragma once

#include <verilated.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tb/log.hpp"
#include "tb/sim.hpp"

#if defined(TESSERA_MODEL_TRACE_FST) || VM_TRACE_FST
#include <verilated_fst_c.h>
#define TB_HAVE_FST 1
#endif

namespace tb {

struct TestOptions {
  double timeout = 0;            // 0: none (the stall detector still ends a hung test)
  const char* timeout_unit = "us";
  bool expect_fail = false;      // the test passes only if it fails (cocotb's expect_fail)
  bool skip = false;
};

// What the runner knows about the running test.
struct TestContext {
  std::string module;
  std::string name;
  std::uint64_t seed = 0;        // this test's seed, derived from RANDOM_SEED and its name
  std::mt19937_64 rng;
  Logger log;
};

// The running test's context; throws outside a test.
TestContext& this_test();
// The running test's random generator (seeded from RANDOM_SEED and the test name).
std::mt19937_64& rng();
std::uint64_t randint(std::uint64_t lo, std::uint64_t hi);  // inclusive
bool chance(double probability);
// The run's seed (RANDOM_SEED).
std::uint64_t random_seed();
// Fail the test now with a message (cocotb: raise TestFailure / assert).
[[noreturn]] void fail(const std::string& message);
// Fatal check: fails the test with the message when cond is false.
inline void check(bool cond, const std::string& message) {
  if (!cond) fail(message);
}
// Regression scaling: TESSERA_REGRESS=1 selects the long variant.
bool regress();
inline std::uint64_t scaled(std::uint64_t normal, std::uint64_t long_run) {
  return regress() ? long_run : normal;
}

// A model under test with its context, as the test body sees it: `dut->port`.
template <class V>
class Dut {
 public:
  Dut(V& top, VerilatedContext& ctx) : top_(top), ctx_(ctx) {}
  V* operator->() const { return &top_; }
  V& top() const { return top_; }
  VerilatedContext& context() const { return ctx_; }
  const Logger& log() const { return this_test().log; }

 private:
  V& top_;
  VerilatedContext& ctx_;
};

namespace detail {

struct RunEnv {
  bool waves = false;
  std::string wave_path;
  std::uint64_t seed = 0;
};

struct TestInfo {
  std::string module;
  std::string name;
  std::string file;
  int line = 0;
  TestOptions options;
  // Builds the model, runs the body; returns simulated time in ns.
  std::function<double(const RunEnv&, RunStats&)> run;
};

std::vector<TestInfo>& registry();
std::string module_from_file(const char* file);
bool add_test(TestInfo info);

template <class V>
double run_model(Task<> (*body)(Dut<V>&), const TestOptions& opts, const RunEnv& env, RunStats& stats) {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->randReset(2);
  ctx->randSeed(static_cast<int>(env.seed & 0x7fffffff) | 1);
  ctx->fatalOnError(false);
  if (env.waves) ctx->traceEverOn(true);
  auto top = std::make_unique<V>(ctx.get(), "TOP");
#ifdef TB_HAVE_FST
  std::unique_ptr<VerilatedFstC> fst;
  if (env.waves) {
    fst = std::make_unique<VerilatedFstC>();
    top->trace(fst.get(), 99);
    fst->open(env.wave_path.c_str());
  }
#endif
  ModelHooks hooks;
  hooks.eval_step = [&] { top->eval_step(); };
  hooks.eval_end_step = [&] { top->eval_end_step(); };
#ifdef TB_HAVE_FST
  if (fst) hooks.dump = [&](std::uint64_t t) { fst->dump(t); };
#endif
  double sim_ns = 0;
  {
    Scheduler sched(*ctx, hooks);
    Dut<V> dut(*top, *ctx);
    std::uint64_t timeout = 0;
    if (opts.timeout > 0) timeout = sched.to_steps(opts.timeout, parse_time_unit(opts.timeout_unit), RoundMode::ceil);
    std::exception_ptr err;
    try {
      sched.run(body(dut), timeout);
    } catch (...) {
      err = std::current_exception();
    }
    stats = sched.stats();
    stats.end_time_steps = sched.now();
    stats.end_time_ns = sim_ns = sched.from_steps(sched.now(), TimeUnit::ns);
    if (err) {
      // Keep the waveform up to the failure: it is what the engineer opens next.
#ifdef TB_HAVE_FST
      if (fst) fst->close();
#endif
      std::rethrow_exception(err);
    }
  }
  top->final();
#ifdef TB_HAVE_FST
  if (fst) fst->close();
#endif
  return sim_ns;
}

template <class V>
bool register_test(const char* file, int line, const char* name, Task<> (*body)(Dut<V>&), TestOptions opts = {}) {
  TestInfo info;
  info.module = module_from_file(file);
  info.name = name;
  info.file = file;
  info.line = line;
  info.options = opts;
  info.run = [body, opts](const RunEnv& env, RunStats& stats) { return run_model<V>(body, opts, env, stats); };
  return add_test(std::move(info));
}

}  // namespace detail

// Entry point used by tb/harness/src/main.cpp; benches link tessera_harness_main.
int run_main(int argc, char** argv);

}  // namespace tb

#define TB_CONCAT_INNER(a, b) a##b
#define TB_CONCAT(a, b) TB_CONCAT_INNER(a, b)

// TB_TEST(ModelClass, test_name) { body using `dut` }
#define TB_TEST(MODEL, NAME) TB_TEST_OPTS(MODEL, NAME, (::tb::TestOptions{}))

// TB_TEST_OPTS(ModelClass, test_name, (tb::TestOptions{.timeout = 10, .expect_fail = true}))
#define TB_TEST_OPTS(MODEL, NAME, OPTS)                                                        \
  static ::tb::Task<> TB_CONCAT(tb_test_body_, NAME)(::tb::Dut<MODEL> & dut);                  \
  [[maybe_unused]] static const bool TB_CONCAT(tb_test_registered_, NAME) =                    \
      ::tb::detail::register_test<MODEL>(__FILE__, __LINE__, #NAME, &TB_CONCAT(tb_test_body_, NAME), \
                                         ::tb::TestOptions OPTS);                              \
  static ::tb::Task<> TB_CONCAT(tb_test_body_, NAME)([[maybe_unused]] ::tb::Dut<MODEL> & dut)
