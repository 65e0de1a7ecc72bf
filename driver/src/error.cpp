#include "tessera/driver/error.hpp"

#include <fmt/format.h>

namespace tessera::driver {

ConfigError::ConfigError(std::string file, unsigned line, unsigned column, const std::string& what)
    : DriverError(fmt::format("{}:{}:{}: {}", file, line, column, what)),
      file_(std::move(file)),
      line_(line),
      column_(column) {}

WarningSink default_warning_sink() {
  return [](const std::string& msg) { fmt::print(stderr, "tessera-driver: warning: {}\n", msg); };
}

}  // namespace tessera::driver
