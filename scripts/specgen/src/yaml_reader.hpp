// Strict, typed access to yaml-cpp nodes for the spec parser. yaml-cpp itself happily returns
// defaults for misspelt keys and keeps duplicate keys; a register map must not silently lose a
// field to a typo, so every mapping is checked against its allowed keys here, and every value
// is converted with a diagnostic naming FILE:LINE:COL and the YAML path on failure.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tessera/specgen/diagnostics.hpp"
#include "tessera/specgen/model.hpp"

namespace tessera::specgen::detail {

enum class Need { Required, Optional };
enum class IdStyle { Upper, Lower };  // UPPER_SNAKE (packets, registers) or lower_snake (fields)

// The location of a node; falls back to `fallback` where yaml-cpp has no mark (null values).
Loc loc_of(const YAML::Node& node, const std::string& file, const Loc& fallback);

// Parses "42", "0x2a", "0b101010", with optional '_' separators. Empty on failure.
std::optional<uint64_t> parse_uint(const std::string& text);

bool is_identifier(const std::string& s, IdStyle style);

// Closest of `candidates` to `word` when it is a plausible typo, else empty.
std::string closest(const std::string& word, const std::vector<std::string>& candidates);

using Items = std::vector<std::pair<YAML::Node, Where>>;

class MapReader {
 public:
  // Reports (and makes valid() false) if `node` is not a mapping; reports unknown keys (with a
  // "did you mean" suggestion), non-scalar keys and repeated keys.
  MapReader(const YAML::Node& node, Where where, Diagnostics& diag,
            std::vector<std::string> allowed);

  bool valid() const { return valid_; }
  bool has(const std::string& key) const;
  const Where& where() const { return where_; }
  Where at(const std::string& key) const;  // the value of `key`, or the mapping if absent
  Origin origin() const;                   // where() plus the location of every present key

  std::optional<std::string> string(const std::string& key, Need need);
  std::optional<std::string> identifier(const std::string& key, Need need, IdStyle style);
  std::optional<uint64_t> uint(const std::string& key, Need need);
  std::optional<bool> boolean(const std::string& key, Need need);
  std::optional<BitRange> bits(const std::string& key, Need need);
  std::optional<Access> access(const std::string& key, Need need);
  std::optional<Items> sequence(const std::string& key, Need need);  // items with paths key[i]
  std::optional<YAML::Node> mapping(const std::string& key, Need need);

 private:
  // The scalar text of `key`, reporting missing keys and non-scalar values as `what`.
  std::optional<std::string> scalar(const std::string& key, Need need, const char* what);
  const YAML::Node* find(const std::string& key) const;
  void missing(const std::string& key);

  Diagnostics& diag_;
  Where where_;
  bool valid_ = false;
  std::vector<std::pair<std::string, YAML::Node>> entries_;  // first occurrence of each key
  std::vector<std::pair<std::string, Where>> key_where_;
};

}  // namespace tessera::specgen::detail
