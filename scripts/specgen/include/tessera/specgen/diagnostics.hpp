// Diagnostics for tessera-specgen: every problem in a spec file is reported as
//   FILE:LINE:COLUMN: PATH: message
// (the format compilers use, so editors and CI logs link straight to the line), where PATH is
// the YAML path of the offending value, e.g. packets[3].fields[2].bits.
#pragma once

#include <string>
#include <vector>

namespace tessera::specgen {

// A position in a spec file, 1-based like compiler messages (yaml-cpp marks are 0-based).
struct Loc {
  std::string file;
  int line = 0;
  int column = 0;
};

// Where a value lives: its position and its YAML path.
struct Where {
  Loc loc;
  std::string path;

  // The location of a child value: same position, path extended ("fields[2]" + ".bits").
  Where child(const std::string& suffix) const;
};

struct Diagnostic {
  Where where;
  std::string message;

  std::string str() const;  // "file:line:col: path: message"
};

// Collects every error instead of stopping at the first, so one run shows all mistakes.
class Diagnostics {
 public:
  void error(const Where& where, std::string message);
  bool ok() const { return errors_.empty(); }
  const std::vector<Diagnostic>& errors() const { return errors_; }
  std::string str() const;  // one diagnostic per line

 private:
  std::vector<Diagnostic> errors_;
};

}  // namespace tessera::specgen
