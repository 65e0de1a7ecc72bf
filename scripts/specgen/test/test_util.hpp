// Helpers for the specgen tests: spec files written to a private temporary directory, loaded
// through the same entry points the tool uses, and diagnostics matched on their exact
// "file:line:col: path: message" prefix.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "tessera/specgen/diagnostics.hpp"
#include "tessera/specgen/emit.hpp"
#include "tessera/specgen/loader.hpp"
#include "tessera/specgen/model.hpp"

namespace tessera::specgen::test {

// A temporary directory removed with the object.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // Writes `content` to `name` and returns its path.
  std::string write(const std::string& name, const std::string& content) const;
  const std::filesystem::path& path() const { return root_; }

 private:
  std::filesystem::path root_;
};

struct Loaded {
  Spec spec;
  Diagnostics diag;
  std::string packets_path;
  std::vector<std::string> register_paths;
};

// Writes the YAML texts into `dir` (packets.yaml, reg0.yaml, reg1.yaml, ...), then parses and
// validates them like the tool does. An empty `packets` text means no packet file.
Loaded load(const TempDir& dir, const std::string& packets,
            const std::vector<std::string>& registers = {});

// True if some diagnostic starts with "<file>:<line>:<col>: <path>: " and its message contains
// `message`.
bool has_error(const Diagnostics& d, const std::string& file, int line, int col,
               const std::string& path, const std::string& message);

// A valid packet header section (lines 1-5) followed by "packets:" on line 6, so a test's
// packets begin on line 7.
extern const char* const kHeader;

}  // namespace tessera::specgen::test
