#include "tessera/driver/prefetch.hpp"

#include <fmt/format.h>

#include "tessera/driver/error.hpp"

namespace tessera::driver {

const char* to_string(PrefetchMode m) {
  switch (m) {
    case PrefetchMode::Off: return "off";
    case PrefetchMode::On: return "on";
    case PrefetchMode::Adaptive: return "adaptive";
  }
  return "?";
}

std::optional<PrefetchMode> parse_prefetch_mode(std::string_view s) {
  if (s == "off") return PrefetchMode::Off;
  if (s == "on") return PrefetchMode::On;
  if (s == "adaptive") return PrefetchMode::Adaptive;
  return std::nullopt;
}

void check_prefetch_config(const PrefetchConfig& c) {
  auto field = [](const char* name, uint32_t v, uint32_t lo, uint32_t hi) {
    if (v < lo || v > hi)
      throw DriverError(fmt::format("prefetcher: {} = {} is outside {}..{}", name, v, lo, hi));
  };
  field("threshold", c.threshold, 0, 255);
  field("max_lines", c.max_lines, 1, 256);
  field("entries", c.entries, 1, 4);
  field("kinds", c.kinds, 0, 3);
  if (c.history_slots != 1 && c.history_slots != 4 && c.history_slots != 16 && c.history_slots != 64)
    throw DriverError(fmt::format("prefetcher: history_slots = {} is not 1, 4, 16 or 64", c.history_slots));
  field("window", c.window_lines, 0, 255);
  field("hit_high", c.hit_high, 0, 100);
  field("hit_low", c.hit_low, 0, c.hit_high);
}

}  // namespace tessera::driver
