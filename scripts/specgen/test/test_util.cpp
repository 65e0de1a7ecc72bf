#include "test_util.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <stdexcept>

namespace tessera::specgen::test {

const char* const kHeader =
    "header:\n"
    "  description: The header.\n"
    "  opcode: {bits: \"7:0\", description: Opcode.}\n"
    "  flags: {bits: \"15:8\", description: Flags.}\n"
    "  length: {bits: \"31:16\", description: Payload dwords.}\n"
    "packets:\n";

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  root_ = std::filesystem::temp_directory_path() /
          fmt::format("specgen_test_{}_{}", ::getpid(), counter++);
  std::filesystem::remove_all(root_);
  std::filesystem::create_directories(root_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(root_, ec);
}

std::string TempDir::write(const std::string& name, const std::string& content) const {
  const auto p = root_ / name;
  std::ofstream out(p, std::ios::binary);
  out << content;
  if (!out) throw std::runtime_error("cannot write " + p.string());
  return p.string();
}

Loaded load(const TempDir& dir, const std::string& packets,
            const std::vector<std::string>& registers) {
  Loaded l;
  SpecInputs in;
  if (!packets.empty()) l.packets_path = in.packets = dir.write("packets.yaml", packets);
  for (std::size_t i = 0; i < registers.size(); ++i) {
    l.register_paths.push_back(dir.write(fmt::format("reg{}.yaml", i), registers[i]));
  }
  in.registers = l.register_paths;
  l.spec = load_spec(in, l.diag);
  return l;
}

bool has_error(const Diagnostics& d, const std::string& file, int line, int col,
               const std::string& path, const std::string& message) {
  const std::string prefix = fmt::format("{}:{}:{}: {}: ", file, line, col, path);
  for (const auto& e : d.errors()) {
    const std::string s = e.str();
    if (s.rfind(prefix, 0) == 0 && s.find(message, prefix.size()) != std::string::npos) {
      return true;
    }
  }
  return false;
}

}  // namespace tessera::specgen::test
