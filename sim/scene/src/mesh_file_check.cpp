#include "mesh_file_check.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string_view>
#include <vector>

#include "tessera/sim/mesh.hpp"

namespace tessera::sim::detail {

namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw MeshError("cannot be read");
  return {std::istreambuf_iterator<char>(in), {}};
}

// Whitespace-separated tokens of one line (no line ends inside).
std::vector<std::string_view> tokens(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r' || line[i] == '\f' || line[i] == '\v')) ++i;
    const std::size_t b = i;
    while (i < line.size() && !(line[i] == ' ' || line[i] == '\t' || line[i] == '\r' || line[i] == '\f' || line[i] == '\v')) ++i;
    if (i > b) out.push_back(line.substr(b, i - b));
  }
  return out;
}

// The whole token as a number, or nullopt.
std::optional<double> to_number(std::string_view tok) {
  const std::string s(tok);
  char* end = nullptr;
  const double d = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size()) return std::nullopt;
  return d;
}
std::optional<int64_t> to_integer(std::string_view tok) {
  const std::string s(tok);
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE) return std::nullopt;
  return v;
}

// A token of the file as messages show it: bytes outside printable ASCII as '?', at most 40.
std::string printable(std::string_view tok) {
  std::string s(tok.substr(0, 40));
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  return tok.size() > 40 ? s + "..." : s;
}

// "" when the token is a finite number (as the 32-bit float Assimp reads), else the reason.
std::string finite_problem(std::string_view tok) {
  const auto d = to_number(tok);
  if (!d) return "is not a number";
  if (!std::isfinite(*d)) return "is not a finite number";
  if (!std::isfinite(static_cast<float>(*d))) return "is not a finite number (as a 32-bit float)";
  return "";
}

}  // namespace

// ---- OBJ -------------------------------------------------------------------------------------

void check_obj_file(const std::string& path) {
  const std::string text = read_all(path);
  // kind 0: v, 1: vt, 2: vn
  static const char* const kLine[3] = {"v", "vt", "vn"};
  static const char* const kWhat[3] = {"vertex", "texture coordinate", "normal"};
  uint64_t count[3] = {0, 0, 0};
  struct Ref {
    unsigned line;
    std::string keyword;
    int kind;
    int64_t index;
  };
  std::vector<Ref> forward;  // positive indices: Assimp resolves them after reading the whole file
  unsigned line_no = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    std::string line = text.substr(pos, eol - pos);
    pos = eol + 1;
    const unsigned at = ++line_no;
    // A backslash at the end continues the statement on the next line.
    while (!line.empty() && (line.back() == '\\' || (line.back() == '\r' && line.size() > 1 && line[line.size() - 2] == '\\')) &&
           pos < text.size()) {
      line.erase(line.find_last_of('\\'));
      eol = text.find('\n', pos);
      if (eol == std::string::npos) eol = text.size();
      line += ' ' + text.substr(pos, eol - pos);
      pos = eol + 1;
      ++line_no;
    }
    std::vector<std::string_view> tok = tokens(line);
    for (std::size_t i = 0; i < tok.size(); ++i)
      if (tok[i].front() == '#') {
        tok.resize(i);
        break;
      }
    if (tok.empty()) continue;
    const std::string_view kw = tok[0];
    int kind = -1;
    for (int k = 0; k < 3; ++k)
      if (kw == kLine[k]) kind = k;
    if (kind >= 0) {
      ++count[kind];
      for (std::size_t i = 1; i < tok.size(); ++i) {
        const std::string why = finite_problem(tok[i]);
        if (!why.empty()) throw MeshError(fmt::format("line {}: {} {}: '{}' {}", at, kWhat[kind], count[kind], printable(tok[i]), why));
      }
      continue;
    }
    if (kw != "f" && kw != "l" && kw != "p") continue;
    for (std::size_t i = 1; i < tok.size(); ++i) {
      // v, v/vt, v//vn, v/vt/vn
      std::vector<std::string_view> parts;
      std::size_t b = 0;
      for (std::size_t e; (e = tok[i].find('/', b)) != std::string_view::npos; b = e + 1) parts.push_back(tok[i].substr(b, e - b));
      parts.push_back(tok[i].substr(b));
      std::optional<int64_t> idx[3];
      bool ok = parts.size() <= 3 && !parts[0].empty();
      for (std::size_t k = 0; ok && k < parts.size(); ++k) {
        if (parts[k].empty()) continue;
        idx[k] = to_integer(parts[k]);
        ok = idx[k].has_value();
      }
      if (!ok)
        throw MeshError(fmt::format("line {}: {}: '{}' is not a vertex index (v, v/vt, v//vn or v/vt/vn)", at, kw, printable(tok[i])));
      for (int k = 0; k < 3; ++k) {
        if (!idx[k]) continue;
        const int64_t v = *idx[k];
        if (v == 0) throw MeshError(fmt::format("line {}: {}: index 0 is invalid (OBJ indices count from 1)", at, kw));
        if (v > 0) {
          forward.push_back({at, std::string(kw), k, v});
        } else if (static_cast<uint64_t>(-(v + 1)) + 1 > count[k]) {  // relative to the lines read so far
          throw MeshError(fmt::format("line {}: {}: {} index {} is out of range ({} '{}' line{} before it)", at, kw, kWhat[k], v,
                                      count[k], kLine[k], count[k] == 1 ? "" : "s"));
        }
      }
    }
  }
  for (const Ref& r : forward)
    if (static_cast<uint64_t>(r.index) > count[r.kind])
      throw MeshError(fmt::format("line {}: {}: {} index {} is out of range (the file has {} '{}' line{})", r.line, r.keyword,
                                  kWhat[r.kind], r.index, count[r.kind], kLine[r.kind], count[r.kind] == 1 ? "" : "s"));
}

// ---- PLY -------------------------------------------------------------------------------------

namespace {

enum class PlyFormat { Ascii, BinaryLe, BinaryBe };

struct PlyType {
  unsigned size = 0;
  bool is_float = false, is_signed = false;
};

std::optional<PlyType> ply_type(std::string_view t) {
  if (t == "char" || t == "int8") return PlyType{1, false, true};
  if (t == "uchar" || t == "uint8") return PlyType{1, false, false};
  if (t == "short" || t == "int16") return PlyType{2, false, true};
  if (t == "ushort" || t == "uint16") return PlyType{2, false, false};
  if (t == "int" || t == "int32") return PlyType{4, false, true};
  if (t == "uint" || t == "uint32") return PlyType{4, false, false};
  if (t == "float" || t == "float32") return PlyType{4, true, true};
  if (t == "double" || t == "float64") return PlyType{8, true, true};
  return std::nullopt;
}

struct PlyProperty {
  std::string name;
  bool list = false;
  PlyType count_type, type;
};

struct PlyElement {
  std::string name;
  uint64_t count = 0;
  unsigned line = 0;  // of its `element` line in the header
  std::vector<PlyProperty> props;
  std::string decl() const { return fmt::format("line {}: element {} {}", line, name, count); }
};

bool is_vertex_index_list(const PlyElement& e, const PlyProperty& p) {
  return e.name == "face" && p.list && (p.name == "vertex_indices" || p.name == "vertex_index");
}

// One binary value as a double (integers exactly up to 2^53, which is plenty for counts).
double read_binary(const std::string& data, std::size_t at, const PlyType& t, bool big_endian) {
  uint64_t raw = 0;
  for (unsigned i = 0; i < t.size; ++i) {
    const unsigned b = static_cast<uint8_t>(data[at + (big_endian ? i : t.size - 1 - i)]);
    raw = raw << 8 | b;
  }
  if (t.is_float) {
    if (t.size == 4) {
      const auto u = static_cast<uint32_t>(raw);
      float f;
      std::memcpy(&f, &u, 4);
      return f;
    }
    double d;
    std::memcpy(&d, &raw, 8);
    return d;
  }
  if (t.is_signed && t.size < 8 && (raw >> (8 * t.size - 1)) & 1) return static_cast<double>(static_cast<int64_t>(raw) - (int64_t{1} << (8 * t.size)));
  return static_cast<double>(raw);
}

}  // namespace

void check_ply_file(const std::string& path) {
  const std::string data = read_all(path);
  if (data.empty()) throw MeshError("the file is empty");
  // Header: lines up to end_header. Assimp 5.2 hangs on a header without an end_header line
  // of its own and aborts (an assertion in triangulation) on a property of an unknown type
  // (fuzz/open, mesh-ply-header): both are refused here, as is any malformed format, element
  // or property line. Lines with other keywords are skipped, as Assimp does (old Blender
  // exporters wrote a comment without the `comment` keyword).
  std::vector<PlyElement> elems;
  std::optional<PlyFormat> format;
  std::size_t pos = 0;
  unsigned line_no = 0;
  bool ended = false;
  while (pos < data.size() && !ended) {
    const std::size_t eol = data.find('\n', pos);
    if (eol == std::string::npos) break;
    const std::string_view line(data.data() + pos, eol - pos);
    pos = eol + 1;
    ++line_no;
    const auto t = tokens(line);
    auto bad = [&](const std::string& why) { throw MeshError(fmt::format("line {}: {}", line_no, why)); };
    if (line_no == 1) {
      if (t.size() != 1 || t[0] != "ply") bad("a PLY file starts with the line 'ply'");
      continue;
    }
    if (t.empty() || t[0] == "comment" || t[0] == "obj_info") continue;
    if (t[0] == "format") {
      if (t.size() != 3) bad("expected 'format ascii|binary_little_endian|binary_big_endian 1.0'");
      if (t[1] == "ascii") format = PlyFormat::Ascii;
      else if (t[1] == "binary_little_endian") format = PlyFormat::BinaryLe;
      else if (t[1] == "binary_big_endian") format = PlyFormat::BinaryBe;
      else bad(fmt::format("unknown format '{}' (ascii, binary_little_endian or binary_big_endian)", printable(t[1])));
    } else if (t[0] == "element") {
      if (t.size() != 3) bad("expected 'element NAME COUNT'");
      const auto n = to_integer(t[2]);
      if (!n || *n < 0) bad(fmt::format("element {}: '{}' is not a count", printable(t[1]), printable(t[2])));
      elems.push_back({printable(t[1]), static_cast<uint64_t>(*n), line_no, {}});  // names as messages show them
    } else if (t[0] == "property") {
      if (elems.empty()) bad("a property before any element");
      PlyProperty p;
      if (t.size() >= 2 && t[1] == "list") {
        if (t.size() != 5) bad("expected 'property list COUNT_TYPE ITEM_TYPE NAME'");
        const auto ct = ply_type(t[2]), it = ply_type(t[3]);
        if (!ct || ct->is_float) bad(fmt::format("'{}' is not an integer type for a list count", printable(t[2])));
        if (!it) bad(fmt::format("unknown property type '{}'", printable(t[3])));
        p = {printable(t[4]), true, *ct, *it};
      } else {
        if (t.size() != 3) bad("expected 'property TYPE NAME'");
        const auto ty = ply_type(t[1]);
        if (!ty) bad(fmt::format("unknown property type '{}'", printable(t[1])));
        p = {printable(t[2]), false, {}, *ty};
      }
      elems.back().props.push_back(p);
    } else if (t[0].starts_with("end_header")) {
      if (t.size() != 1 || t[0] != "end_header")
        bad(fmt::format("end_header must be alone on its line, found '{}'", printable(line)));
      ended = true;
    }
  }
  if (!ended) throw MeshError("the header has no end_header line");
  if (!format) throw MeshError("the header has no format line");
  uint64_t vertices = 0;
  for (const PlyElement& e : elems)
    if (e.name == "vertex") vertices = e.count;

  if (*format == PlyFormat::Ascii) {
    // One record per line (as every writer does and the PLY description shows).
    auto next_line = [&](std::string_view& out) {
      while (pos < data.size()) {
        std::size_t eol = data.find('\n', pos);
        if (eol == std::string::npos) eol = data.size();
        out = std::string_view(data.data() + pos, eol - pos);
        pos = eol + 1;
        ++line_no;
        if (!tokens(out).empty()) return true;
      }
      return false;
    };
    for (const PlyElement& e : elems) {
      if (e.props.empty()) continue;
      for (uint64_t r = 0; r < e.count; ++r) {
        std::string_view line;
        if (!next_line(line))
          throw MeshError(fmt::format("the body ends after {} of the {} '{}' records the header declares ({})", r, e.count, e.name,
                                      e.decl()));
        const auto t = tokens(line);
        std::size_t i = 0, need = 0;
        for (const PlyProperty& p : e.props) {
          if (!p.list) {
            if (i < t.size() && e.name == "vertex") {
              const auto d = to_number(t[i]);
              if (!d) throw MeshError(fmt::format("line {}: vertex {}: {} is '{}', not a number", line_no, r, p.name, printable(t[i])));
              if (!std::isfinite(*d) || (p.type.size == 4 && p.type.is_float && !std::isfinite(static_cast<float>(*d))))
                throw MeshError(fmt::format("line {}: vertex {}: {} is '{}', not a finite number", line_no, r, p.name, printable(t[i])));
            }
            ++i, ++need;
            continue;
          }
          ++need;
          if (i >= t.size()) break;
          const auto n = to_integer(t[i]);
          if (!n || *n < 0)
            throw MeshError(fmt::format("line {}: {} {}: list {} has the count '{}'", line_no, e.name, r, p.name, printable(t[i])));
          // A face of fewer than 3 vertices is no polygon; Assimp 5.2's triangulation aborts on 0.
          if (is_vertex_index_list(e, p) && *n < 3)
            throw MeshError(fmt::format("line {}: {} {}: a face needs at least 3 vertex indices, not {}", line_no, e.name, r, *n));
          for (int64_t k = 0; k < *n && i + 1 + k < t.size() && is_vertex_index_list(e, p); ++k) {
            const auto v = to_integer(t[i + 1 + k]);
            if (!v) throw MeshError(fmt::format("line {}: {} {}: '{}' is not a vertex index", line_no, e.name, r, printable(t[i + 1 + k])));
            if (*v < 0 || static_cast<uint64_t>(*v) >= vertices)
              throw MeshError(fmt::format("line {}: {} {}: vertex index {} is out of range ({} vertices)", line_no, e.name, r, *v, vertices));
          }
          i += 1 + static_cast<std::size_t>(*n);
          need += static_cast<std::size_t>(*n);
        }
        if (t.size() != need)
          throw MeshError(fmt::format("line {}: {} {} has {} values where the header's properties need {} (is line {}, 'element {} {}', right?)",
                                      line_no, e.name, r, t.size(), need, e.line, e.name, e.count));
      }
    }
    std::string_view extra;
    if (next_line(extra)) {
      std::string shown(extra);
      while (!shown.empty() && (shown.back() == '\r' || shown.back() == ' ')) shown.pop_back();
      if (shown.size() > 40) shown = shown.substr(0, 40) + "...";
      throw MeshError(fmt::format("line {}: data after the last record the header declares: '{}'", line_no, shown));
    }
    return;
  }

  const bool be = *format == PlyFormat::BinaryBe;
  const std::size_t body = pos;
  const PlyElement* last = nullptr;
  for (const PlyElement& e : elems) {
    if (e.props.empty()) continue;
    last = &e;
    for (uint64_t r = 0; r < e.count; ++r) {
      const std::size_t record = pos;
      auto need = [&](uint64_t bytes) {
        if (bytes > data.size() - pos)
          throw MeshError(fmt::format("the file ends inside {} {} of the {} the header declares ({})", e.name, r, e.count, e.decl()));
      };
      for (const PlyProperty& p : e.props) {
        if (!p.list) {
          need(p.type.size);
          if (e.name == "vertex" && p.type.is_float) {
            const double d = read_binary(data, pos, p.type, be);
            if (!std::isfinite(d))
              throw MeshError(fmt::format("vertex {} (byte {} of the body): {} is {}, not a finite number", r, record - body, p.name, d));
          }
          pos += p.type.size;
          continue;
        }
        need(p.count_type.size);
        const double n = read_binary(data, pos, p.count_type, be);
        pos += p.count_type.size;
        if (n < 0)
          throw MeshError(fmt::format("{} {} (byte {} of the body): list {} has the count {}", e.name, r, record - body, p.name, n));
        if (is_vertex_index_list(e, p) && n < 3)
          throw MeshError(fmt::format("{} {} (byte {} of the body): a face needs at least 3 vertex indices, not {}", e.name, r,
                                      record - body, n));
        need(static_cast<uint64_t>(n) * p.type.size);
        if (is_vertex_index_list(e, p))
          for (uint64_t k = 0; k < static_cast<uint64_t>(n); ++k) {
            const double v = read_binary(data, pos + k * p.type.size, p.type, be);
            if (v < 0 || v >= static_cast<double>(vertices))
              throw MeshError(fmt::format("{} {} (byte {} of the body): vertex index {} is out of range ({} vertices)", e.name, r,
                                          record - body, v, vertices));
          }
        pos += static_cast<std::size_t>(n) * p.type.size;
      }
    }
  }
  if (last && pos < data.size())
    throw MeshError(fmt::format("{} bytes follow the last record the header declares ({})", data.size() - pos, last->decl()));
}

}  // namespace tessera::sim::detail
