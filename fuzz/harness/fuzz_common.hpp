// Shared by the fuzz harnesses (docs/fuzzing.md): how a harness reports a finding.
//
// libFuzzer keeps an input as a finding when the process crashes. Sanitizer reports (ASan,
// UBSan) crash by themselves; a harness checks the parser's contract on top of that (the only
// exception type it may throw, what an accepted input must satisfy) and calls fuzz_finding()
// when the contract is broken, which prints what is wrong and aborts.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <typeinfo>

namespace tessera::fuzz {

[[noreturn]] inline void fuzz_finding(const std::string& what) {
  std::fprintf(stderr, "\n==== fuzz finding: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

// For catch (...): the dynamic type and message of the exception in flight.
inline std::string current_exception_text() {
  try {
    throw;
  } catch (const std::exception& e) {
    return std::string(typeid(e).name()) + ": " + e.what();
  } catch (...) {
    return "an exception not derived from std::exception";
  }
}

}  // namespace tessera::fuzz
