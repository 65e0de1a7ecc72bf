#include "yaml_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace tessera::specgen::detail {

namespace {

const char* type_name(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Null: return "nothing (null)";
    case YAML::NodeType::Scalar: return "a scalar";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Undefined: break;
  }
  return "nothing";
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

Loc loc_of(const YAML::Node& node, const std::string& file, const Loc& fallback) {
  // yaml-cpp gives null values the mark of whatever token follows them, which is misleading:
  // report those at the key instead (the caller's fallback).
  if (!node.IsDefined() || node.IsNull()) return fallback;
  const YAML::Mark m = node.Mark();
  if (m.is_null()) return fallback;
  return Loc{file, m.line + 1, m.column + 1};
}

std::optional<uint64_t> parse_uint(const std::string& text) {
  std::string s;
  for (char c : text) {
    if (c != '_') s += c;
  }
  unsigned base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s = s.substr(2);
  } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    base = 2;
    s = s.substr(2);
  }
  // Separators only between digits: "_1", "1_" and "0x_" are rejected as typos.
  if (s.empty() || text.front() == '_' || text.back() == '_') return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    unsigned d = 0;
    if (c >= '0' && c <= '9') {
      d = static_cast<unsigned>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      d = static_cast<unsigned>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      d = static_cast<unsigned>(c - 'A' + 10);
    } else {
      return std::nullopt;
    }
    if (d >= base) return std::nullopt;
    if (v > (std::numeric_limits<uint64_t>::max() - d) / base) return std::nullopt;
    v = v * base + d;
  }
  return v;
}

bool is_identifier(const std::string& s, IdStyle style) {
  // Words of letters and digits joined by single underscores: generated names are built by
  // joining identifiers with '_', so "A__B" or a trailing '_' would produce ambiguous names.
  if (s.empty()) return false;
  auto letter = [style](char c) {
    return style == IdStyle::Upper ? (c >= 'A' && c <= 'Z') : (c >= 'a' && c <= 'z');
  };
  if (!letter(s.front()) || s.back() == '_') return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '_') {
      if (s[i - 1] == '_') return false;
    } else if (!letter(c) && !(c >= '0' && c <= '9')) {
      return false;
    }
  }
  return true;
}

std::string closest(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_d = std::numeric_limits<std::size_t>::max();
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  // More than a couple of edits is a different word, not a typo.
  return best_d <= std::max<std::size_t>(2, word.size() / 3) ? best : std::string{};
}

MapReader::MapReader(const YAML::Node& node, Where where, Diagnostics& diag,
                     std::vector<std::string> allowed)
    : diag_(diag), where_(std::move(where)) {
  where_.loc = loc_of(node, where_.loc.file, where_.loc);
  if (!node.IsMap()) {
    diag_.error(where_, fmt::format("expected a mapping, got {}", type_name(node)));
    return;
  }
  valid_ = true;
  for (auto it = node.begin(); it != node.end(); ++it) {
    const Loc key_loc = loc_of(it->first, where_.loc.file, where_.loc);
    if (!it->first.IsScalar()) {
      diag_.error(Where{key_loc, where_.path}, "mapping keys must be plain words");
      continue;
    }
    const std::string key = it->first.Scalar();
    const Where key_where = where_.child(key);
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string msg = fmt::format("unknown key '{}'", key);
      const std::string guess = closest(key, allowed);
      if (key.find(' ') != std::string::npos) {
        // The usual cause: "{description: a, b}" -- the comma ends the value in a flow mapping.
        msg += " (an unquoted comma inside {...} ends a value: quote the text before it)";
      } else if (!guess.empty()) {
        msg += fmt::format(" (did you mean '{}'?)", guess);
      } else {
        msg += fmt::format(" (expected one of: {})", fmt::join(allowed, ", "));
      }
      diag_.error(Where{key_loc, key_where.path}, msg);
      continue;
    }
    if (find(key) != nullptr) {
      // yaml-cpp keeps both entries and node[key] would silently use the first one.
      diag_.error(Where{key_loc, key_where.path}, fmt::format("key '{}' is given twice", key));
      continue;
    }
    entries_.emplace_back(key, it->second);
    key_where_.emplace_back(key, Where{loc_of(it->second, where_.loc.file, key_loc),
                                       key_where.path});
  }
}

const YAML::Node* MapReader::find(const std::string& key) const {
  for (const auto& [k, v] : entries_) {
    if (k == key) return &v;
  }
  return nullptr;
}

bool MapReader::has(const std::string& key) const { return find(key) != nullptr; }

Where MapReader::at(const std::string& key) const {
  for (const auto& [k, w] : key_where_) {
    if (k == key) return w;
  }
  Where w = where_.child(key);
  return w;
}

Origin MapReader::origin() const {
  Origin o;
  o.where = where_;
  for (const auto& [k, w] : key_where_) o.keys.emplace(k, w);
  return o;
}

void MapReader::missing(const std::string& key) {
  diag_.error(where_, fmt::format("missing required key '{}'", key));
}

std::optional<std::string> MapReader::scalar(const std::string& key, Need need,
                                             const char* what) {
  const YAML::Node* n = find(key);
  if (n == nullptr) {
    if (need == Need::Required) missing(key);
    return std::nullopt;
  }
  if (!n->IsScalar()) {
    diag_.error(at(key), fmt::format("expected {}, got {}", what, type_name(*n)));
    return std::nullopt;
  }
  return n->Scalar();
}

std::optional<std::string> MapReader::string(const std::string& key, Need need) {
  auto s = scalar(key, need, "a string");
  if (s && s->find_first_not_of(" \t\r\n") == std::string::npos) {
    diag_.error(at(key), "must not be empty");
    return std::nullopt;
  }
  return s;
}

std::optional<std::string> MapReader::identifier(const std::string& key, Need need,
                                                 IdStyle style) {
  auto s = scalar(key, need, "a name");
  if (!s) return std::nullopt;
  if (!is_identifier(*s, style)) {
    diag_.error(at(key),
                fmt::format("'{}' is not a valid name: use {} (letters, digits, single '_')", *s,
                            style == IdStyle::Upper ? "UPPER_SNAKE_CASE" : "lower_snake_case"));
    return std::nullopt;
  }
  return s;
}

std::optional<uint64_t> MapReader::uint(const std::string& key, Need need) {
  auto s = scalar(key, need, "an unsigned integer");
  if (!s) return std::nullopt;
  auto v = parse_uint(*s);
  if (!v) {
    diag_.error(at(key), fmt::format("expected an unsigned integer (42, 0x2a or 0b101010), got '{}'",
                                     *s));
  }
  return v;
}

std::optional<bool> MapReader::boolean(const std::string& key, Need need) {
  auto s = scalar(key, need, "true or false");
  if (!s) return std::nullopt;
  if (*s == "true") return true;
  if (*s == "false") return false;
  diag_.error(at(key), fmt::format("expected true or false, got '{}'", *s));
  return std::nullopt;
}

std::optional<BitRange> MapReader::bits(const std::string& key, Need need) {
  auto s = scalar(key, need, "a bit range");
  if (!s) return std::nullopt;
  const auto colon = s->find(':');
  std::optional<uint64_t> msb;
  std::optional<uint64_t> lsb;
  if (colon == std::string::npos) {
    msb = lsb = parse_uint(*s);
  } else {
    msb = parse_uint(s->substr(0, colon));
    lsb = parse_uint(s->substr(colon + 1));
  }
  if (!msb || !lsb) {
    diag_.error(at(key), fmt::format("expected a bit range 'msb:lsb' or a bit number, got '{}'", *s));
    return std::nullopt;
  }
  if (*msb < *lsb) {
    diag_.error(at(key), fmt::format("bits '{}': write the range as msb:lsb ('{}:{}')", *s, *lsb,
                                     *msb));
    return std::nullopt;
  }
  if (*msb > 31) {
    diag_.error(at(key), fmt::format("bits '{}' lie outside the 32-bit dword (bit {} > 31)", *s,
                                     *msb));
    return std::nullopt;
  }
  return BitRange{static_cast<unsigned>(*lsb), static_cast<unsigned>(*msb)};
}

std::optional<Access> MapReader::access(const std::string& key, Need need) {
  auto s = scalar(key, need, "an access type");
  if (!s) return std::nullopt;
  if (*s == "rw") return Access::RW;
  if (*s == "ro") return Access::RO;
  if (*s == "wo") return Access::WO;
  if (*s == "w1c") return Access::W1C;
  diag_.error(at(key), fmt::format("unknown access '{}' (expected rw, ro, wo or w1c)", *s));
  return std::nullopt;
}

std::optional<Items> MapReader::sequence(const std::string& key, Need need) {
  const YAML::Node* n = find(key);
  if (n == nullptr) {
    if (need == Need::Required) missing(key);
    return std::nullopt;
  }
  if (!n->IsSequence()) {
    diag_.error(at(key), fmt::format("expected a list, got {}", type_name(*n)));
    return std::nullopt;
  }
  Items items;
  const Where base = at(key);
  std::size_t i = 0;
  for (const auto& item : *n) {
    Where w{loc_of(item, base.loc.file, base.loc), fmt::format("{}[{}]", base.path, i++)};
    items.emplace_back(item, w);
  }
  return items;
}

std::optional<YAML::Node> MapReader::mapping(const std::string& key, Need need) {
  const YAML::Node* n = find(key);
  if (n == nullptr) {
    if (need == Need::Required) missing(key);
    return std::nullopt;
  }
  return *n;  // the caller's MapReader reports a non-mapping with the right path
}

}  // namespace tessera::specgen::detail
