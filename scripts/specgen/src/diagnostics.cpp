#include "tessera/specgen/diagnostics.hpp"

#include <fmt/format.h>

namespace tessera::specgen {

Where Where::child(const std::string& suffix) const {
  Where w = *this;
  if (w.path.empty() || suffix.empty() || suffix.front() == '[') {
    w.path += suffix;
  } else {
    w.path += "." + suffix;
  }
  return w;
}

std::string Diagnostic::str() const {
  std::string s = where.loc.file;
  if (where.loc.line > 0) {
    s += fmt::format(":{}:{}", where.loc.line, where.loc.column);
  }
  s += ": ";
  if (!where.path.empty()) {
    s += where.path + ": ";
  }
  return s + message;
}

void Diagnostics::error(const Where& where, std::string message) {
  errors_.push_back(Diagnostic{where, std::move(message)});
}

std::string Diagnostics::str() const {
  std::string s;
  for (const auto& e : errors_) {
    s += e.str();
    s += '\n';
  }
  return s;
}

}  // namespace tessera::specgen
