// Named event counts for functional coverage. require() fails a test whose random stimulus
// never reached a case it claims to cover: a random test that stopped reaching "FIFO full"
// or "push at full" would otherwise pass silently.
#pragma once

#include <cstdint>
#include <fmt/format.h>
#include <map>
#include <string>

#include "tb/test.hpp"

namespace tb {

class Coverage {
 public:
  // Count `what` when cond holds; name it (with count 0) either way, so report() lists it.
  void hit(const std::string& what, bool cond = true) {
    if (cond)
      ++counts_[what];
    else
      counts_.try_emplace(what, 0);
  }
  std::uint64_t count(const std::string& what) const {
    auto it = counts_.find(what);
    return it == counts_.end() ? 0 : it->second;
  }
  void require(const std::string& what, std::uint64_t at_least = 1) const {
    check(count(what) >= at_least,
          fmt::format("coverage: '{}' happened {} times, the stimulus must reach it at least {} times", what,
                      count(what), at_least));
  }
  std::string report() const {
    std::string s;
    for (const auto& [k, v] : counts_) s += fmt::format("{}{}={}", s.empty() ? "" : ", ", k, v);
    return s;
  }

 private:
  std::map<std::string, std::uint64_t> counts_;
};

}  // namespace tb
