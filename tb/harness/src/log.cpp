#include "tb/log.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "tb/sim.hpp"

namespace tb {

namespace {
Level level_from_env() {
  const char* e = std::getenv("COCOTB_LOG_LEVEL");
  if (!e) return Level::info;
  const std::string s(e);
  if (s == "DEBUG" || s == "TRACE") return Level::debug;
  if (s == "INFO") return Level::info;
  if (s == "WARNING") return Level::warning;
  if (s == "ERROR") return Level::error;
  if (s == "CRITICAL") return Level::critical;
  std::fprintf(stderr, "COCOTB_LOG_LEVEL=%s is not one of DEBUG, INFO, WARNING, ERROR, CRITICAL; using INFO\n", e);
  return Level::info;
}
Level g_level = level_from_env();

const char* level_name(Level l) {
  switch (l) {
    case Level::debug: return "DEBUG";
    case Level::info: return "INFO";
    case Level::warning: return "WARNING";
    case Level::error: return "ERROR";
    case Level::critical: return "CRITICAL";
  }
  return "?";
}
}  // namespace

Level log_level() { return g_level; }
void set_log_level(Level l) { g_level = l; }

void Logger::log(Level level, std::string_view msg) const {
  if (level < g_level) return;
  std::string time = Scheduler::active() ? fmt::format("{:>10.2f}ns", get_sim_time(TimeUnit::ns)) : fmt::format("{:>12}", "-.--ns");
  std::string name = name_.size() > 34 ? "..." + name_.substr(name_.size() - 31) : name_;
  fmt::print("{} {:<8} {:<34} {}\n", time, level_name(level), name, msg);
  std::fflush(stdout);
}

}  // namespace tb
