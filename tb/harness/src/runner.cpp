// The regression manager: seeds, TESTCASE filtering, GoogleTest registration, the
// cocotb-style summary table and JUnit results file.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "tb/test.hpp"

namespace tb {

namespace {

struct Result {
  std::string module, name, file;
  int line = 0;
  enum Status { pass, fail, skip } status = pass;
  std::string message;
  double sim_ns = 0;
  double real_s = 0;
  std::uint64_t seed = 0;
};

std::uint64_t g_seed = 0;
bool g_regress = false;
std::vector<Result> g_results;
TestContext* g_test = nullptr;

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
// FNV-1a: stable across runs and compilers, unlike std::hash.
std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

std::string xml_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') o += ' ';
        else o += c;
    }
  }
  return o;
}

std::vector<std::string> split_csv(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) {
    auto b = item.find_first_not_of(" \t");
    auto e = item.find_last_not_of(" \t");
    if (b != std::string::npos) out.push_back(item.substr(b, e - b + 1));
  }
  return out;
}

Logger g_log("cocotb.regression");

void run_one(const detail::TestInfo& info, std::size_t index, std::size_t total) {
  Result r;
  r.module = info.module;
  r.name = info.name;
  r.file = info.file;
  r.line = info.line;
  if (info.options.skip) {
    r.status = Result::skip;
    g_log.info("skipping {}.{} ({}/{})", info.module, info.name, index, total);
    g_results.push_back(r);
    GTEST_SKIP() << "skipped by its options";
  }

  TestContext ctx;
  ctx.module = info.module;
  ctx.name = info.name;
  ctx.seed = splitmix64(g_seed ^ fnv1a(info.module + "." + info.name));
  ctx.rng.seed(ctx.seed);
  ctx.log = Logger("cocotb." + info.module);
  r.seed = ctx.seed;

  detail::RunEnv env;
  env.seed = ctx.seed;
  const char* waves = std::getenv("WAVES");
  env.waves = waves && std::string(waves) != "0" && std::string(waves) != "";
  if (env.waves) {
    const char* dir = std::getenv("WAVES_DIR");
    env.wave_path = (std::filesystem::path(dir ? dir : ".") / (info.module + "." + info.name + ".fst")).string();
  }

  g_log.info("running {}.{} ({}/{})", info.module, info.name, index, total);
  g_test = &ctx;
  const auto t0 = std::chrono::steady_clock::now();
  std::optional<std::string> failure;
  RunStats stats;
  try {
    r.sim_ns = info.run(env, stats);
  } catch (const std::exception& e) {
    failure = e.what();
  } catch (...) {
    failure = "unknown exception";
  }
  r.real_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  g_test = nullptr;
  if (failure) r.sim_ns = stats.end_time_ns;  // how far the failed test got

  if (info.options.expect_fail) {
    if (failure) {
      g_log.info("{}.{} failed as expected: {}", info.module, info.name, *failure);
      failure.reset();
    } else {
      failure = "test was expected to fail but passed";
    }
  }
  if (env.waves) g_log.info("waveform: {}", env.wave_path);
  if (failure) {
    r.status = Result::fail;
    r.message = *failure;
    g_log.error("{}.{} failed: {}", info.module, info.name, *failure);
    g_log.error("rerun with: RANDOM_SEED={} TESTCASE={} (add WAVES=1 for an FST)", g_seed, info.name);
    g_results.push_back(r);
    FAIL() << *failure << "\n  rerun with: RANDOM_SEED=" << g_seed << " TESTCASE=" << info.name;
  }
  g_log.info("{}.{} passed", info.module, info.name);
  g_results.push_back(r);
}

void print_summary() {
  const int w_name = 50;
  double tot_sim = 0, tot_real = 0;
  int pass = 0, fail = 0, skip = 0;
  std::string out;
  const std::string rule(w_name + 62, '*');
  out += rule + "\n";
  out += fmt::format("** {:<{}} STATUS  SIM TIME (ns)  REAL TIME (s)  RATIO (ns/s) **\n", "TEST", w_name);
  out += rule + "\n";
  for (const auto& r : g_results) {
    const char* st = r.status == Result::pass ? " PASS " : r.status == Result::fail ? " FAIL " : " SKIP ";
    const double ratio = r.real_s > 0 ? r.sim_ns / r.real_s : 0;
    std::string name = r.module + "." + r.name;
    out += fmt::format("** {:<{}} {}  {:>13.2f}  {:>13.2f}  {:>12.2f} **\n", name, w_name, st, r.sim_ns, r.real_s, ratio);
    tot_sim += r.sim_ns;
    tot_real += r.real_s;
    (r.status == Result::pass ? pass : r.status == Result::fail ? fail : skip)++;
  }
  out += rule + "\n";
  out += fmt::format("** {:<{}}         {:>13.2f}  {:>13.2f}  {:>12.2f} **\n",
                     fmt::format("TESTS={} PASS={} FAIL={} SKIP={}", pass + fail + skip, pass, fail, skip), w_name,
                     tot_sim, tot_real, tot_real > 0 ? tot_sim / tot_real : 0.0);
  out += rule + "\n";
  std::fputs(out.c_str(), stdout);
  std::fflush(stdout);
}

void write_junit() {
  const char* f = std::getenv("COCOTB_RESULTS_FILE");
  const std::string path = f && *f ? f : "results.xml";
  std::ofstream o(path);
  if (!o) {
    g_log.error("cannot write results file {}", path);
    return;
  }
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"results\">\n";
  o << "  <testsuite name=\"all\" package=\"all\" tests=\"" << g_results.size() << "\">\n";
  o << "    <property name=\"random_seed\" value=\"" << g_seed << "\" />\n";
  for (const auto& r : g_results) {
    const double ratio = r.real_s > 0 ? r.sim_ns / r.real_s : 0;
    o << fmt::format(
        "    <testcase name=\"{}\" classname=\"{}\" file=\"{}\" lineno=\"{}\" time=\"{:.3f}\" sim_time_ns=\"{:.3f}\" "
        "ratio_time=\"{:.3f}\"",
        xml_escape(r.name), xml_escape(r.module), xml_escape(r.file), r.line, r.real_s, r.sim_ns, ratio);
    if (r.status == Result::pass) {
      o << " />\n";
    } else if (r.status == Result::skip) {
      o << ">\n      <skipped />\n    </testcase>\n";
    } else {
      o << ">\n      <failure message=\"" << xml_escape(r.message) << "\" />\n    </testcase>\n";
    }
  }
  o << "  </testsuite>\n</testsuites>\n";
}

}  // namespace

namespace detail {
std::vector<TestInfo>& registry() {
  static std::vector<TestInfo> r;
  return r;
}
std::string module_from_file(const char* file) { return std::filesystem::path(file).stem().string(); }
bool add_test(TestInfo info) {
  registry().push_back(std::move(info));
  return true;
}
}  // namespace detail

TestContext& this_test() {
  if (!g_test) throw HarnessError("no test is running");
  return *g_test;
}
std::mt19937_64& rng() { return this_test().rng; }
std::uint64_t randint(std::uint64_t lo, std::uint64_t hi) {
  return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng());
}
bool chance(double p) { return std::bernoulli_distribution(p)(rng()); }
std::uint64_t random_seed() { return g_seed; }
bool regress() { return g_regress; }
void fail(const std::string& message) { throw TestFailure(message); }

int run_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Verilated::commandArgs(argc, argv);

  if (const char* s = std::getenv("RANDOM_SEED"); s && *s) {
    char* end = nullptr;
    g_seed = std::strtoull(s, &end, 0);
    if (*end) {
      std::fprintf(stderr, "RANDOM_SEED=%s is not a number\n", s);
      return 2;
    }
  } else {
    g_seed = static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()) % 1000000000ULL;
  }
  if (const char* r = std::getenv("TESSERA_REGRESS")) g_regress = std::string(r) == "1";
  g_log.info("Seeding C++ harness with seed {}", g_seed);

  auto& all = detail::registry();
  std::vector<const detail::TestInfo*> selected;
  if (const char* tc = std::getenv("TESTCASE"); tc && *tc) {
    for (const auto& want : split_csv(tc)) {
      bool found = false;
      for (const auto& t : all) {
        if (t.name == want || t.module + "." + t.name == want) {
          selected.push_back(&t);
          found = true;
        }
      }
      if (!found) {
        std::string names;
        for (const auto& t : all) names += " " + t.name;
        std::fprintf(stderr, "TESTCASE: no test named '%s' in this bench (have:%s)\n", want.c_str(), names.c_str());
        return 2;
      }
    }
  } else {
    for (const auto& t : all) selected.push_back(&t);
  }
  g_log.info("Found {} tests, running {}", all.size(), selected.size());

  std::size_t index = 0;
  for (const auto* t : selected) {
    const std::size_t i = ++index;
    const std::size_t n = selected.size();
    ::testing::RegisterTest(t->module.c_str(), t->name.c_str(), nullptr, nullptr, t->file.c_str(), t->line,
                            [t, i, n]() -> ::testing::Test* {
                              class Body : public ::testing::Test {
                               public:
                                Body(const detail::TestInfo* ti, std::size_t ii, std::size_t nn) : t_(ti), i_(ii), n_(nn) {}
                                void TestBody() override { run_one(*t_, i_, n_); }

                               private:
                                const detail::TestInfo* t_;
                                std::size_t i_, n_;
                              };
                              return new Body(t, i, n);
                            });
  }
  const int rc = RUN_ALL_TESTS();
  print_summary();
  write_junit();
  int pass = 0, fail = 0;
  for (const auto& r : g_results) {
    if (r.status == Result::pass) ++pass;
    if (r.status == Result::fail) ++fail;
  }
  std::printf("%d passed, %d failed\n", pass, fail);
  return rc != 0 || fail != 0 ? 1 : 0;
}

}  // namespace tb
