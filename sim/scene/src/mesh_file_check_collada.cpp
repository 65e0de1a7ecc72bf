// COLLADA pre-scan (mesh_file_check.hpp): what Assimp 5.2's COLLADA importer
// (code/AssetLib/Collada/ColladaParser.cpp) trusts without checking. It reserves memory for
// the counts a file declares before it reads the values, reads an index list until the text
// ends even where a token is no number (it then stands still and appends zeros until memory
// runs out: fuzz/regressions/mesh/collada-index-not-a-number-oom.dae asked for 3 GiB), and
// reads accessors, polygon counts and skin indices without bounds. Debian builds it with its
// assertions, so a few inconsistencies abort the process. The scan reads the XML as pugixml
// (Assimp's XML reader) does and refuses, naming the line:
//   - an index (<p>, <v>) or polygon size (<vcount>) that is not an integer;
//   - a primitive element whose <p> does not hold what its count declares (triangles, lines:
//     3 or 2 per primitive, polylist: the <vcount> sum, each times the inputs per vertex), a
//     strip, fan or polygon of too few vertices, a <p> under a count of 0, and <p> lists that
//     do not add up to the count (triangles, polylist: one list; polygons: one per polygon;
//     Assimp asserts it: fuzz/regressions/mesh/collada-primitive-count-without-p-abort.dae);
//   - a data array (<float_array>, <Name_array>, <IDREF_array>) declaring more values than it
//     holds, an <accessor> reaching past its array or naming more params than its stride;
//   - skin weights (<vertex_weights>) whose counts exceed their <vcount> or <v> lists, that
//     cover fewer vertices than the skinned mesh's positions, or whose <v> pairs name a joint
//     or weight that does not exist; joint names or inverse bind matrices short of a joint;
//   - a colour input whose accessor has more than 4 components, and an embedded <hex> image
//     (Assimp 5.2 writes or reads past a buffer for both); a <skew> node transform and an
//     image whose file name is empty (Assimp asserts on both);
//   - XML that pugixml would refuse as well (unclosed or mismatched elements, unquoted
//     attributes), since the scan must see the elements Assimp sees.
// Every refused count is bounded by the file's own size, so what Assimp allocates for an
// accepted file is a small multiple of it.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "mesh_file_check.hpp"
#include "tessera/sim/mesh.hpp"

namespace tessera::sim::detail {

namespace {

// Assimp's separators between numbers (SkipSpacesAndLineEnd): not '\f' or '\v', on which its
// readers stand still.
bool is_sep(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
// pugixml's whitespace (a text chunk of only these is no text node).
bool is_xml_space(char c) { return is_sep(c); }

uint64_t sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
uint64_t sat_mul(uint64_t a, uint64_t b) {
  return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

// Calls f(token) for each separator-delimited token of s.
template <class F>
void for_each_token(std::string_view s, F&& f) {
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_sep(s[i])) ++i;
    const std::size_t b = i;
    while (i < s.size() && !is_sep(s[i])) ++i;
    if (i > b) f(s.substr(b, i - b));
  }
}

uint64_t count_tokens(std::string_view s) {
  uint64_t n = 0;
  for_each_token(s, [&](std::string_view) { ++n; });
  return n;
}

// A decimal integer token (digits, with an optional sign when `sign` is true) as uint64
// (saturated; the sign dropped), or nullopt.
std::optional<uint64_t> to_uint(std::string_view t, bool sign) {
  if (sign && !t.empty() && (t[0] == '-' || t[0] == '+')) t.remove_prefix(1);
  if (t.empty()) return std::nullopt;
  uint64_t v = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return std::nullopt;
    v = sat_add(sat_mul(v, 10), static_cast<uint64_t>(c - '0'));
  }
  return v;
}

// XML's predefined entities and character references, decoded as pugixml's parse_escapes
// does; anything else stays as it is.
std::string decode_entities(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out += s[i];
      continue;
    }
    const std::size_t semi = s.find(';', i);
    if (semi == std::string_view::npos || semi - i > 12) {
      out += s[i];
      continue;
    }
    const std::string_view e = s.substr(i + 1, semi - i - 1);
    static const std::pair<std::string_view, char> kNamed[] = {
        {"lt", '<'}, {"gt", '>'}, {"amp", '&'}, {"apos", '\''}, {"quot", '"'}};
    bool done = false;
    for (const auto& [name, c] : kNamed)
      if (e == name) out += c, done = true;
    if (!done && e.size() > 1 && e[0] == '#') {
      const bool hex = e[1] == 'x';
      uint32_t cp = 0;
      bool ok = e.size() > (hex ? 2u : 1u);
      for (std::size_t k = hex ? 2 : 1; ok && k < e.size(); ++k) {
        const char c = e[k];
        const int d = c >= '0' && c <= '9'          ? c - '0'
                      : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10
                      : hex && c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                    : -1;
        ok = d >= 0 && cp < 0x110000;
        cp = cp * (hex ? 16 : 10) + static_cast<uint32_t>(d);
      }
      // Only the code point's class matters here (separator, digit, other): ASCII as itself,
      // anything else as a byte that is neither.
      if (ok) out += cp < 0x80 ? static_cast<char>(cp) : '\x80', done = true;
    }
    if (done) {
      i = semi;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string shown(std::string_view tok) {
  std::string s(tok.substr(0, 40));
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  return tok.size() > 40 ? s + "..." : s;
}

bool is_primitive(std::string_view n) {
  return n == "triangles" || n == "lines" || n == "polylist" || n == "polygons" ||
         n == "linestrips" || n == "trifans" || n == "tristrips";
}
bool is_data_array(std::string_view n) {
  return n == "float_array" || n == "Name_array" || n == "IDREF_array";
}

struct Element {
  std::string name;
  unsigned line = 0;
  std::map<std::string, std::string, std::less<>> attrs;  // the first of duplicates
  int prim = -1, weights = -1, accessor = -1, skin = -1;  // records this element opened
  bool text_taken = false;
  std::string text;  // the first text node (what pugixml's text() returns)
  const std::string* attr(std::string_view k) const {
    const auto it = attrs.find(k);
    return it == attrs.end() ? nullptr : &it->second;
  }
};

struct Prim {
  std::string name;
  unsigned line = 0;
  uint64_t count = 0;
  uint64_t stride = 1;  // inputs per vertex: the largest input offset + 1
  unsigned vcounts = 0;
  uint64_t vcount_sum = 0;
  struct P {
    unsigned line;
    uint64_t indices;
    bool before_vcount;
  };
  std::vector<P> ps;
};

struct Weights {
  unsigned line = 0;
  uint64_t count = 0;
  std::optional<uint64_t> vcount_values, vcount_sum, v_values;
  std::vector<uint64_t> vcount, v;    // the values, for the skin checks
  std::string joint_src, weight_src;  // its JOINT and WEIGHT inputs' sources, without '#'
};

// A <skin>: Assimp 5.2 indexes its bone and weight arrays with the <v> pairs, and reads the
// inverse bind matrices and joint names per bone, without bounds (assertions or worse).
struct Skin {
  unsigned line = 0;
  std::string mesh;                   // the skinned geometry, without '#'
  std::string joint_src, matrix_src;  // <joints>' JOINT and INV_BIND_MATRIX sources
  int weights = -1;
};

struct Accessor {
  unsigned line = 0;
  std::string owner;  // the id of the <source> it describes (Assimp files it under that id)
  std::string array;  // the array it reads, without '#'
  uint64_t count = 0, offset = 0, stride = 1;
  uint64_t params = 0, size = 0;  // <param>s; values per element as Assimp counts them
};

class ColladaScan {
 public:
  explicit ColladaScan(std::string_view doc) : doc_(doc) {
    for (std::size_t i = 0; i < doc_.size(); ++i)
      if (doc_[i] == '\n') newlines_.push_back(i);
  }

  void run() {
    std::size_t pos = 0;
    while (pos < doc_.size()) {
      const std::size_t lt = doc_.find('<', pos);
      text(doc_.substr(pos, (lt == std::string_view::npos ? doc_.size() : lt) - pos));
      if (lt == std::string_view::npos) break;
      pos = markup(lt);
    }
    if (!stack_.empty())
      throw MeshError(fmt::format("the file ends inside <{}> (line {})", shown(stack_.back().name),
                                  stack_.back().line));
    check_accessors();
    check_skins();
  }

 private:
  std::string_view doc_;
  std::vector<std::size_t> newlines_;
  std::vector<Element> stack_;
  std::vector<Prim> prims_;
  std::vector<Weights> weights_;
  std::vector<Accessor> accessors_;
  std::map<std::string, std::pair<uint64_t, unsigned>> arrays_;  // id -> smallest count, line
  std::set<std::string> colour_sources_;  // sources named by COLOR inputs, without '#'
  std::vector<Skin> skins_;
  std::map<std::string, std::string> geometry_positions_;  // geometry id -> POSITION source
  bool v14_ = false;  // COLLADA 1.4: Assimp reads <image><init_from> as the file name

  unsigned line_at(std::size_t pos) const {
    return static_cast<unsigned>(std::lower_bound(newlines_.begin(), newlines_.end(), pos) -
                                 newlines_.begin()) +
           1;
  }
  [[noreturn]] void fail(std::size_t pos, const std::string& why) const {
    throw MeshError(fmt::format("line {}: {}", line_at(pos), why));
  }

  void text(std::string_view chunk) {
    if (stack_.empty() || stack_.back().text_taken) return;
    if (std::all_of(chunk.begin(), chunk.end(), is_xml_space)) return;  // no text node
    stack_.back().text = decode_entities(chunk);
    stack_.back().text_taken = true;
  }

  // One piece of markup starting at '<'; returns the position after it.
  std::size_t markup(std::size_t lt) {
    const std::string_view rest = doc_.substr(lt);
    auto skip_to = [&](std::string_view end, const char* what) {
      const std::size_t e = doc_.find(end, lt);
      if (e == std::string_view::npos) fail(lt, fmt::format("{} that never ends", what));
      return e + end.size();
    };
    if (rest.starts_with("<!--")) return skip_to("-->", "a comment");
    if (rest.starts_with("<?")) return skip_to("?>", "a processing instruction");
    if (rest.starts_with("<![CDATA[")) {
      const std::size_t end = skip_to("]]>", "a CDATA section");
      if (!stack_.empty() && !stack_.back().text_taken) {  // a CDATA node is a text node
        stack_.back().text = std::string(doc_.substr(lt + 9, end - 3 - (lt + 9)));
        stack_.back().text_taken = true;
      }
      return end;
    }
    if (rest.starts_with("<!")) {  // <!DOCTYPE ...>, with an internal subset in [ ]
      int depth = 0;
      for (std::size_t i = lt + 2; i < doc_.size(); ++i) {
        const char c = doc_[i];
        if (c == '"' || c == '\'') {
          i = doc_.find(c, i + 1);
          if (i == std::string_view::npos) break;
        } else if (c == '[') {
          ++depth;
        } else if (c == ']') {
          --depth;
        } else if (c == '>' && depth <= 0) {
          return i + 1;
        }
      }
      fail(lt, "a <! declaration that never ends");
    }
    std::size_t i = lt + 1;
    const bool closing = i < doc_.size() && doc_[i] == '/';
    if (closing) ++i;
    const std::size_t name_begin = i;
    while (i < doc_.size() && !is_xml_space(doc_[i]) && doc_[i] != '>' && doc_[i] != '/' &&
           doc_[i] != '=')
      ++i;
    const std::string name(doc_.substr(name_begin, i - name_begin));
    if (name.empty()) fail(lt, "a '<' that starts no element");
    if (closing) {
      while (i < doc_.size() && is_xml_space(doc_[i])) ++i;
      if (i >= doc_.size() || doc_[i] != '>')
        fail(lt, fmt::format("</{} is not closed", shown(name)));
      if (stack_.empty() || stack_.back().name != name)
        fail(lt, stack_.empty() ? fmt::format("</{}> closes no element", shown(name))
                                : fmt::format("</{}> closes <{}> (line {})", shown(name),
                                              shown(stack_.back().name), stack_.back().line));
      close();
      return i + 1;
    }
    Element el;
    el.name = name;
    el.line = line_at(lt);
    for (;;) {
      while (i < doc_.size() && is_xml_space(doc_[i])) ++i;
      if (i >= doc_.size()) fail(lt, fmt::format("<{} is not closed", shown(name)));
      if (doc_[i] == '>' || doc_.substr(i).starts_with("/>")) break;
      const std::size_t a = i;
      while (i < doc_.size() && !is_xml_space(doc_[i]) && doc_[i] != '=' && doc_[i] != '>' &&
             doc_[i] != '/')
        ++i;
      const std::string key(doc_.substr(a, i - a));
      while (i < doc_.size() && is_xml_space(doc_[i])) ++i;
      if (key.empty() || i >= doc_.size() || doc_[i] != '=')
        fail(a, fmt::format("<{}>: an attribute without '=\"value\"'", shown(name)));
      ++i;
      while (i < doc_.size() && is_xml_space(doc_[i])) ++i;
      if (i >= doc_.size() || (doc_[i] != '"' && doc_[i] != '\''))
        fail(a, fmt::format("<{}>: attribute {} has no quoted value", shown(name), shown(key)));
      const std::size_t end = doc_.find(doc_[i], i + 1);
      if (end == std::string_view::npos)
        fail(a, fmt::format("<{}>: the value of {} never ends", shown(name), shown(key)));
      el.attrs.emplace(key, decode_entities(doc_.substr(i + 1, end - i - 1)));
      i = end + 1;
    }
    const bool empty = doc_[i] == '/';
    open(std::move(el));
    if (empty) close();
    return i + (empty ? 2 : 1);
  }

  // A count attribute (a non-negative integer; absent: 0, as Assimp reads it).
  uint64_t count_attr(const Element& el, const char* key) const {
    const std::string* v = el.attr(key);
    if (!v) return 0;
    std::string_view t(*v);
    while (!t.empty() && is_xml_space(t.front())) t.remove_prefix(1);
    while (!t.empty() && is_xml_space(t.back())) t.remove_suffix(1);
    const auto n = to_uint(t, false);
    if (!n)
      throw MeshError(fmt::format("line {}: <{}> {}=\"{}\" is not a non-negative integer", el.line,
                                  el.name, key, shown(*v)));
    return *n;
  }
  std::string named_source(const Element& el) const {
    const std::string* s = el.attr("source");
    return s && !s->empty() && (*s)[0] == '#' ? s->substr(1) : std::string();
  }

  void open(Element el) {
    const std::string& n = el.name;
    if (is_primitive(n)) {
      el.prim = static_cast<int>(prims_.size());
      prims_.push_back({n, el.line, count_attr(el, "count"), 1, 0, 0, {}});
    } else if (n == "vertex_weights") {
      el.weights = static_cast<int>(weights_.size());
      weights_.push_back({el.line, count_attr(el, "count"), {}, {}, {}, {}, {}, {}, {}});
      if (!stack_.empty() && stack_.back().skin >= 0)
        skins_[static_cast<std::size_t>(stack_.back().skin)].weights = el.weights;
    } else if (n == "skin") {
      el.skin = static_cast<int>(skins_.size());
      skins_.push_back({el.line, named_source(el), {}, {}, -1});
    } else if (n == "COLLADA" && stack_.empty()) {
      const std::string* v = el.attr("version");
      v14_ = v && v->starts_with("1.4");
    } else if (n == "skew" && !stack_.empty() && stack_.back().name == "node") {
      fail_at(el, "a <skew> node transform is not supported (Assimp 5.2 aborts on it)");
    } else if (n == "accessor") {
      Accessor a;
      a.line = el.line;
      a.array = named_source(el);
      a.count = count_attr(el, "count");
      a.offset = count_attr(el, "offset");
      a.stride = el.attr("stride") ? count_attr(el, "stride") : 1;
      // Assimp files an accessor under the id of the <source> around it.
      for (auto it = stack_.rbegin(); it != stack_.rend(); ++it)
        if (it->name == "source") {
          const std::string* id = it->attr("id");
          a.owner = id ? *id : "";
          break;
        }
      el.accessor = static_cast<int>(accessors_.size());
      accessors_.push_back(a);
    } else if (n == "param") {
      for (auto it = stack_.rbegin(); it != stack_.rend(); ++it)
        if (it->accessor >= 0) {
          Accessor& a = accessors_[static_cast<std::size_t>(it->accessor)];
          ++a.params;
          if (const std::string* t = el.attr("type")) a.size += *t == "float4x4" ? 16 : 1;
          break;
        }
    } else if (n == "input") {
      const std::string* sem = el.attr("semantic");
      const std::string src = named_source(el);
      if (sem && *sem == "COLOR") colour_sources_.insert(src);
      input(sem ? *sem : std::string(), src);
      const std::optional<uint64_t> offset =
          el.attr("offset") ? std::optional<uint64_t>(count_attr(el, "offset")) : std::nullopt;
      if (offset)
        for (const Element& up : stack_)
          if (up.prim >= 0) {
            Prim& p = prims_[static_cast<std::size_t>(up.prim)];
            p.stride = std::max(p.stride, sat_add(*offset, 1));
          }
    } else if (n == "hex" && !stack_.empty() && stack_.back().name == "init_from") {
      fail_at(el, "an embedded <hex> image is not supported (Assimp 5.2 reads past its end)");
    }
    stack_.push_back(std::move(el));
  }

  // Where an <input> feeds a skin or names a mesh's positions.
  void input(const std::string& sem, const std::string& src) {
    if (stack_.empty()) return;
    const Element& up = stack_.back();
    if (up.weights >= 0) {
      Weights& w = weights_[static_cast<std::size_t>(up.weights)];
      if (sem == "JOINT") w.joint_src = src;
      if (sem == "WEIGHT") w.weight_src = src;
    } else if (up.name == "joints" && stack_.size() >= 2 && stack_[stack_.size() - 2].skin >= 0) {
      Skin& sk = skins_[static_cast<std::size_t>(stack_[stack_.size() - 2].skin)];
      if (sem == "JOINT") sk.joint_src = src;
      if (sem == "INV_BIND_MATRIX") sk.matrix_src = src;
    } else if (up.name == "vertices" && sem == "POSITION") {
      for (auto it = stack_.rbegin(); it != stack_.rend(); ++it)
        if (it->name == "geometry") {
          const std::string* id = it->attr("id");
          if (id && !geometry_positions_.count(*id)) geometry_positions_[*id] = src;
          break;
        }
    }
  }

  [[noreturn]] void fail_at(const Element& el, const std::string& why) const {
    throw MeshError(fmt::format("line {}: {}", el.line, why));
  }

  void close() {
    Element el = std::move(stack_.back());
    stack_.pop_back();
    const std::string& n = el.name;
    if (n == "p") {
      close_p(el);
    } else if (n == "vcount") {
      close_vcount(el);
    } else if (n == "v" && !stack_.empty() && stack_.back().weights >= 0) {
      Weights& w = weights_[static_cast<std::size_t>(stack_.back().weights)];
      for_each_token(el.text, [&](std::string_view t) {
        const auto v = to_uint(t, false);
        if (!v) fail_at(el, fmt::format("<v>: '{}' is not an index", shown(t)));
        w.v.push_back(*v);
      });
      w.v_values = w.v.size();
    } else if (n == "init_from" && !stack_.empty() && stack_.back().name == "image" && v14_) {
      image_file(el);
    } else if (n == "ref" && stack_.size() >= 2 && stack_.back().name == "init_from" &&
               stack_[stack_.size() - 2].name == "image" && !v14_) {
      image_file(el);
    } else if (is_data_array(n)) {
      const uint64_t count = count_attr(el, "count"), held = count_tokens(el.text);
      if (count > held)
        fail_at(el, fmt::format("<{} count=\"{}\"> holds {} value{}", n, count, held,
                                held == 1 ? "" : "s"));
      const std::string* id = el.attr("id");
      const std::string key = id ? *id : "";
      const auto it = arrays_.find(key);
      if (it == arrays_.end() || it->second.first > count) arrays_[key] = {count, el.line};
    } else if (el.prim >= 0) {
      close_prim(prims_[static_cast<std::size_t>(el.prim)]);
    } else if (el.weights >= 0) {
      close_weights(weights_[static_cast<std::size_t>(el.weights)]);
    }
  }

  // Assimp 5.2 asserts that an image's file name is not empty once a "file://" prefix is gone.
  void image_file(const Element& el) {
    std::string_view name(el.text);
    if (name.starts_with("file://")) name.remove_prefix(7);
    if (name.empty())
      fail_at(el, fmt::format("<{}> names no image file (Assimp 5.2 aborts on that)", el.name));
  }

  void close_p(const Element& el) {
    bool in_prim = false;
    for (const Element& up : stack_) in_prim |= up.prim >= 0;
    if (!in_prim) return;  // Assimp reads <p> only inside a primitive element
    uint64_t indices = 0;
    for_each_token(el.text, [&](std::string_view t) {
      if (!to_uint(t, true)) fail_at(el, fmt::format("<p>: '{}' is not an index", shown(t)));
      ++indices;
    });
    for (const Element& up : stack_)
      if (up.prim >= 0) {
        Prim& p = prims_[static_cast<std::size_t>(up.prim)];
        p.ps.push_back({el.line, indices, p.vcounts == 0});
      }
  }

  void close_vcount(const Element& el) {
    uint64_t values = 0, sum = 0;
    std::vector<uint64_t> all;
    for_each_token(el.text, [&](std::string_view t) {
      const auto v = to_uint(t, false);
      if (!v) fail_at(el, fmt::format("<vcount>: '{}' is not a count", shown(t)));
      ++values;
      sum = sat_add(sum, *v);
      all.push_back(*v);
    });
    if (!stack_.empty() && stack_.back().weights >= 0) {
      Weights& w = weights_[static_cast<std::size_t>(stack_.back().weights)];
      w.vcount_values = values;
      w.vcount = std::move(all);
      // Assimp reads `count` weight counts and as many weights as they add up to.
      w.vcount_sum = 0;
      for (std::size_t k = 0; k < w.vcount.size() && k < w.count; ++k)
        w.vcount_sum = sat_add(*w.vcount_sum, w.vcount[k]);
    }
    for (const Element& up : stack_) {
      if (up.prim < 0) continue;
      Prim& p = prims_[static_cast<std::size_t>(up.prim)];
      if (++p.vcounts > 1)
        fail_at(el, fmt::format("a second <vcount> in the <{}> at line {}", p.name, p.line));
      // Assimp reads `count` sizes whatever the element (and reserves them first).
      if (p.count != 0 && values != p.count)
        fail_at(el, fmt::format("<vcount> holds {} polygon size{} where the <{}> at line {} "
                                "declares count=\"{}\"",
                                values, values == 1 ? "" : "s", p.name, p.line, p.count));
      p.vcount_sum = sum;
    }
  }

  void close_prim(const Prim& p) {
    // Assimp 5.2 (built with its assertions, as Debian's is) aborts unless it reads `count`
    // primitives: one <p> of them for triangles and polylist, one <p> per polygon for polygons.
    const uint64_t lists = p.ps.size();
    auto lists_bad = [&](const std::string& need) {
      throw MeshError(fmt::format("line {}: <{} count=\"{}\"> has {} <p> list{}; it needs {}",
                                  p.line, p.name, p.count, lists, lists == 1 ? "" : "s", need));
    };
    if (p.count != 0 && (p.name == "triangles" || p.name == "polylist") && lists != 1)
      lists_bad("exactly one");
    if (p.count != 0 && p.name == "polygons" && lists != p.count) lists_bad("one per polygon");
    for (const Prim::P& list : p.ps) {
      auto bad = [&](const std::string& why) {
        throw MeshError(
            fmt::format("line {}: <p> of the <{}> at line {}: {}", list.line, p.name, p.line, why));
      };
      if (p.count == 0) bad("the element declares count=\"0\"");
      const uint64_t n = list.indices;
      auto holds = [&](uint64_t need, const std::string& what) {
        if (n != need)
          bad(fmt::format("it holds {} ind{} where {} need {}", n, n == 1 ? "ex" : "ices", what,
                          need));
      };
      const std::string per_vertex =
          p.stride == 1 ? "" : fmt::format(", {} per vertex (the inputs' offsets)", p.stride);
      if (p.name == "triangles") {
        holds(sat_mul(sat_mul(p.count, 3), p.stride),
              fmt::format("count=\"{}\" triangles{}", p.count, per_vertex));
      } else if (p.name == "lines") {
        holds(sat_mul(sat_mul(p.count, 2), p.stride),
              fmt::format("count=\"{}\" lines{}", p.count, per_vertex));
      } else if (p.name == "polylist") {
        // Assimp takes each polygon's size from <vcount>, which must therefore come first.
        if (p.vcounts == 0 || list.before_vcount) bad("a <polylist> needs its <vcount> before <p>");
        holds(sat_mul(p.vcount_sum, p.stride),
              fmt::format("the <vcount> sizes (sum {}){}", p.vcount_sum, per_vertex));
      } else {
        // One strip, fan or polygon per <p>.
        const uint64_t least = p.name == "linestrips" ? 2 : 3;
        if (n % p.stride != 0)
          bad(fmt::format("{} indices are no whole number of vertices of {} indices", n, p.stride));
        if (n / p.stride < least)
          bad(fmt::format("{} vert{}; a <{}> element needs at least {}", n / p.stride,
                          n / p.stride == 1 ? "ex" : "ices", p.name, least));
      }
    }
  }

  void close_weights(const Weights& w) {
    auto bad = [&](const std::string& why) {
      throw MeshError(
          fmt::format("line {}: <vertex_weights count=\"{}\">: {}", w.line, w.count, why));
    };
    if (w.count == 0) return;  // Assimp reads neither list then
    const uint64_t values = w.vcount_values.value_or(0);
    if (values < w.count)
      bad(fmt::format("its <vcount> holds {} weight count{}", values, values == 1 ? "" : "s"));
    // A (joint, weight) index pair per weight.
    const uint64_t need = sat_mul(w.vcount_sum.value_or(0), 2), held = w.v_values.value_or(0);
    if (need > held)
      bad(
          fmt::format("its <vcount> declares {} weights (2 indices each) but <v> holds {} "
                      "ind{}",
                      w.vcount_sum.value_or(0), held, held == 1 ? "ex" : "ices"));
  }

  // The accessor Assimp files under a <source> id (the last one of that id), or null.
  const Accessor* accessor_of(const std::string& source) const {
    const Accessor* found = nullptr;
    for (const Accessor& a : accessors_)
      if (a.owner == source) found = &a;
    return found;
  }
  std::optional<uint64_t> array_count(const Accessor* a) const {
    if (!a) return std::nullopt;
    const auto it = arrays_.find(a->array);
    return it == arrays_.end() ? std::nullopt : std::optional<uint64_t>(it->second.first);
  }

  void check_skins() const {
    for (const Skin& sk : skins_) {
      if (sk.weights < 0) continue;
      const Weights& w = weights_[static_cast<std::size_t>(sk.weights)];
      if (w.count == 0) continue;
      auto bad = [&](const std::string& why) {
        throw MeshError(fmt::format("line {}: <skin> of '{}': {}", sk.line, shown(sk.mesh), why));
      };
      // Assimp looks up each vertex's weights by its position index.
      const auto pos = geometry_positions_.find(sk.mesh);
      if (const Accessor* p = pos == geometry_positions_.end() ? nullptr : accessor_of(pos->second))
        if (p->count > w.count)
          bad(
              fmt::format("<vertex_weights count=\"{}\"> (line {}) covers fewer than the mesh's {} "
                          "positions",
                          w.count, w.line, p->count));
      const Accessor* joints = accessor_of(w.joint_src);
      const Accessor* weights = accessor_of(w.weight_src);
      const Accessor* matrices = accessor_of(sk.matrix_src);
      const std::optional<uint64_t> bones = array_count(joints);
      if (bones && *bones > 0) {
        if (sat_add(joints->offset, sat_mul(joints->stride, *bones - 1)) >= *bones)
          bad(fmt::format("the joint names' accessor (line {}) reads past its {} names",
                          joints->line, *bones));
        const std::optional<uint64_t> m = array_count(matrices);
        if (m && sat_add(sat_add(matrices->offset, sat_mul(matrices->stride, *bones - 1)), 16) > *m)
          bad(fmt::format("the inverse bind matrices (line {}) do not hold a matrix per joint ({})",
                          matrices->line, *bones));
      }
      const uint64_t pairs = w.vcount_sum.value_or(0);
      for (uint64_t k = 0; k < pairs && 2 * k + 1 < w.v.size(); ++k) {
        const uint64_t j = w.v[2 * k], i = w.v[2 * k + 1];
        if (bones && j >= *bones)
          bad(fmt::format("<v> weight {}: joint {} of {} joints", k, j, *bones));
        if (weights && i >= weights->count)
          bad(fmt::format("<v> weight {}: weight {} of {} weights", k, i, weights->count));
      }
    }
  }

  void check_accessors() const {
    for (const Accessor& a : accessors_) {
      auto bad = [&](const std::string& why) {
        throw MeshError(
            fmt::format("line {}: <accessor count=\"{}\" offset=\"{}\" stride=\"{}\">"
                        ": {}",
                        a.line, a.count, a.offset, a.stride, why));
      };
      if (a.stride == 0) bad("a stride of 0");
      if (a.params > a.stride) bad(fmt::format("{} params do not fit in its stride", a.params));
      if (a.size > 4 && colour_sources_.contains(a.owner))
        bad(fmt::format("a colour of {} components (at most 4)", a.size));
      const auto it = arrays_.find(a.array);
      if (it == arrays_.end()) continue;  // Assimp refuses an unknown source itself
      const uint64_t reach = sat_add(a.offset, sat_mul(a.count, a.stride));
      if (reach > it->second.first)
        bad(fmt::format("it reads {} values of '{}', which declares {} (line {})", reach,
                        shown(a.array), it->second.first, it->second.second));
    }
  }
};

}  // namespace

bool looks_like_collada(const std::string& path) {
  // Assimp's own test (ColladaLoader::CanRead, SearchFileHeaderForToken): "<collada" in the
  // first 200 bytes, NUL bytes dropped, case ignored.
  std::ifstream in(path, std::ios::binary);
  char buf[200];
  in.read(buf, sizeof buf);
  std::string head;
  for (std::streamsize i = 0; i < in.gcount(); ++i)
    if (buf[i] != '\0') head += static_cast<char>(std::tolower(static_cast<unsigned char>(buf[i])));
  return head.find("<collada") != std::string::npos;
}

void check_collada_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw MeshError("cannot be read");
  std::string data{std::istreambuf_iterator<char>(in), {}};
  // Assimp hands pugixml the text up to the first NUL byte (XmlParser::parse, load_string).
  data.resize(std::min(data.size(), data.find('\0')));
  std::string_view doc(data);
  if (doc.starts_with("\xEF\xBB\xBF")) doc.remove_prefix(3);
  const std::size_t first = doc.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || doc[first] != '<')
    throw MeshError("a COLLADA file is XML, and this one does not start with '<'");
  ColladaScan(doc).run();
}

}  // namespace tessera::sim::detail
