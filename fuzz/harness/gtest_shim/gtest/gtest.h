// A stand-in for <gtest/gtest.h> with only what firmware/test/fake_gpu.cpp uses, for the
// packet fuzzer (fuzz/CMakeLists.txt puts this folder first on fake_gpu.cpp's include path).
// The fake reports every access the firmware must never make (reads past a fetch run, unmapped
// or out-of-memory addresses, a plain store to a full SLC command queue, ...) with
// ADD_FAILURE() / EXPECT_*(); here each one prints the fake's message and aborts, so libFuzzer
// keeps the input as a crash.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

namespace fuzz_gtest {

class Failure {
 public:
  Failure(const char* file, int line) : file_(file), line_(line) {}
  Failure(const Failure&) = delete;
  Failure& operator=(const Failure&) = delete;
  template <typename T>
  Failure& operator<<(const T& v) {
    os_ << v;
    return *this;
  }
  ~Failure() {
    std::fprintf(stderr, "\n==== fuzz finding: the fake register layer reports (%s:%d): %s\n", file_, line_,
                 os_.str().c_str());
    std::fflush(stderr);
    std::abort();
  }

 private:
  const char* file_;
  int line_;
  std::ostringstream os_;
};

}  // namespace fuzz_gtest

#define ADD_FAILURE() ::fuzz_gtest::Failure(__FILE__, __LINE__)
#define FUZZ_GTEST_EXPECT_(cond, text) \
  if (cond)                            \
    ;                                  \
  else                                 \
    ADD_FAILURE() << "expected " text ": "
#define EXPECT_EQ(a, b) FUZZ_GTEST_EXPECT_((a) == (b), #a " == " #b)
#define EXPECT_LE(a, b) FUZZ_GTEST_EXPECT_((a) <= (b), #a " <= " #b)
