// Logging in cocotb's format: simulation time, level, logger name, message.
//      1230.00ns INFO     tb.fifo                            sent 42 words
// The level comes from COCOTB_LOG_LEVEL (DEBUG, INFO, WARNING, ERROR, CRITICAL).
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>
#include <utility>

namespace tb {

enum class Level { debug = 10, info = 20, warning = 30, error = 40, critical = 50 };

Level log_level();
void set_log_level(Level l);

class Logger {
 public:
  explicit Logger(std::string name = "tb") : name_(std::move(name)) {}
  const std::string& name() const { return name_; }
  Logger child(std::string_view suffix) const { return Logger(name_ + "." + std::string(suffix)); }

  void log(Level level, std::string_view msg) const;

  template <class... A>
  void debug(fmt::format_string<A...> f, A&&... a) const {
    if (log_level() <= Level::debug) log(Level::debug, fmt::format(f, std::forward<A>(a)...));
  }
  template <class... A>
  void info(fmt::format_string<A...> f, A&&... a) const {
    if (log_level() <= Level::info) log(Level::info, fmt::format(f, std::forward<A>(a)...));
  }
  template <class... A>
  void warning(fmt::format_string<A...> f, A&&... a) const {
    if (log_level() <= Level::warning) log(Level::warning, fmt::format(f, std::forward<A>(a)...));
  }
  template <class... A>
  void error(fmt::format_string<A...> f, A&&... a) const {
    if (log_level() <= Level::error) log(Level::error, fmt::format(f, std::forward<A>(a)...));
  }
  template <class... A>
  void critical(fmt::format_string<A...> f, A&&... a) const {
    log(Level::critical, fmt::format(f, std::forward<A>(a)...));
  }

 private:
  std::string name_;
};

}  // namespace tb
