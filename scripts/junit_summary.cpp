// junit-summary: the closing report of `make test`.
//
//   junit-summary <ctest-junit.xml> <results-dir> [<ctest-junit.xml> <results-dir> ...]
//
// Several pairs (one per seed in `make regress`) are summed into one report.
// CTest knows each executable's verdict; the benches' own JUnit files (cocotb's
// COCOTB_RESULTS_FILE, GoogleTest's GTEST_OUTPUT) know each test case. For every CTest test
// this prints one line per bench, counting its test cases when it wrote a results file and
// the CTest verdict otherwise (a crash after the file was written still counts as a
// failure), lists each failed case, and ends with the line "N passed, N failed".
// Exit status: 0 when nothing failed.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Case {
  std::string suite, name;
  double time = 0;
  enum { pass, fail, skip } status = pass;
  std::string message;
};

std::string attr(const std::string& tag, const std::string& key) {
  const std::string needle = " " + key + "=\"";
  auto p = tag.find(needle);
  if (p == std::string::npos) return {};
  p += needle.size();
  auto e = tag.find('"', p);
  std::string v = tag.substr(p, e - p);
  // Undo the few escapes the writers use.
  const std::pair<const char*, const char*> esc[] = {{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}, {"&#x0A;", " "}, {"&amp;", "&"}};
  for (auto [from, to] : esc) {
    for (std::size_t q; (q = v.find(from)) != std::string::npos;) v.replace(q, std::string(from).size(), to);
  }
  return v;
}

// Minimal scan of a JUnit file: <testcase> elements and their failure/error/skipped children.
std::vector<Case> parse(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string s = ss.str();
  std::vector<Case> cases;
  std::string suite;
  bool open_case = false;
  for (std::size_t p = 0; (p = s.find('<', p)) != std::string::npos;) {
    auto e = s.find('>', p);
    if (e == std::string::npos) break;
    const std::string tag = s.substr(p, e - p + 1);
    p = e + 1;
    if (tag.rfind("<testsuite ", 0) == 0) {
      suite = attr(tag, "name");
    } else if (tag.rfind("<testcase ", 0) == 0) {
      Case c;
      c.name = attr(tag, "name");
      c.suite = attr(tag, "classname");
      if (c.suite.empty()) c.suite = suite;
      c.time = std::atof(attr(tag, "time").c_str());
      const std::string status = attr(tag, "status");
      const std::string result = attr(tag, "result");
      if (status == "fail") c.status = Case::fail;
      if (status == "notrun" || status == "disabled" || result == "skipped" || result == "suppressed") c.status = Case::skip;
      cases.push_back(c);
      open_case = tag.size() < 2 || tag[tag.size() - 2] != '/';
    } else if (tag.rfind("</testcase", 0) == 0) {
      open_case = false;
    } else if (open_case && (tag.rfind("<failure", 0) == 0 || tag.rfind("<error", 0) == 0)) {
      cases.back().status = Case::fail;
      if (cases.back().message.empty()) cases.back().message = attr(tag, "message");
    } else if (open_case && tag.rfind("<skipped", 0) == 0) {
      if (cases.back().status != Case::fail) cases.back().status = Case::skip;
    }
  }
  return cases;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc % 2 != 1) {
    fmt::print(stderr, "usage: junit-summary <ctest-junit.xml> <results-dir> [<ctest-junit.xml> <results-dir> ...]\n");
    return 2;
  }
  int pass = 0, fail = 0, skip = 0;
  std::vector<std::string> failures;
  const std::string rule(96, '*');
  fmt::print("{}\n** {:<44} {:>6} {:>6} {:>6} {:>6} {:>10} {:>8} **\n{}\n", rule, "BENCH", "TESTS", "PASS", "FAIL", "SKIP",
             "TIME (s)", "STATUS", rule);
  const bool several = argc > 3;
  for (int pair = 1; pair + 1 < argc; pair += 2) {
  const fs::path ctest_file = argv[pair];
  const fs::path results = argv[pair + 1];
  if (!fs::exists(ctest_file)) {
    fmt::print(stderr, "junit-summary: {} does not exist (did ctest run?)\n", ctest_file.string());
    return 2;
  }
  const std::string run = several ? results.filename().string() + ": " : "";
  for (const auto& ct : parse(ctest_file)) {
    const fs::path own = results / (ct.name + ".xml");
    int p = 0, f = 0, s = 0;
    if (ct.status != Case::skip && fs::exists(own)) {
      for (const auto& c : parse(own)) {
        if (c.status == Case::pass) ++p;
        else if (c.status == Case::skip) ++s;
        else {
          ++f;
          failures.push_back(fmt::format("{}{} :: {}.{}: {}", run, ct.name, c.suite, c.name, c.message));
        }
      }
      if (ct.status == Case::fail && f == 0) {
        ++f;  // the executable failed after writing its results (crash, leak, exit code)
        failures.push_back(fmt::format("{}{}: the executable failed although its test cases passed (see its log)", run, ct.name));
      }
    } else {
      if (ct.status == Case::pass) ++p;
      else if (ct.status == Case::skip) ++s;
      else {
        ++f;
        failures.push_back(fmt::format("{}{}: failed (see its log above)", run, ct.name));
      }
    }
    pass += p;
    fail += f;
    skip += s;
    fmt::print("** {:<44} {:>6} {:>6} {:>6} {:>6} {:>10.2f} {:>8} **\n", run + ct.name, p + f + s, p, f, s, ct.time,
               f ? "FAIL" : "PASS");
  }
  }
  fmt::print("{}\n** {:<44} {:>6} {:>6} {:>6} {:>6} {:>10} {:>8} **\n{}\n", rule, "TOTAL", pass + fail + skip, pass, fail,
             skip, "", fail ? "FAIL" : "PASS", rule);
  for (const auto& f : failures) fmt::print("FAILED: {}\n", f);
  fmt::print("{} passed, {} failed", pass, fail);
  if (skip) fmt::print(", {} skipped", skip);
  fmt::print("\n");
  return fail ? 1 : 0;
}
