#include "tessera/specgen/model.hpp"

#include <fmt/format.h>

namespace tessera::specgen {

Where Origin::at(const std::string& key) const {
  auto it = keys.find(key);
  return it != keys.end() ? it->second : where;
}

uint32_t BitRange::mask() const {
  // Built in 64 bits so a full 32-bit field does not shift by 32 (undefined in 32 bits).
  const uint64_t ones = (uint64_t{1} << width()) - 1;
  return static_cast<uint32_t>(ones << lsb);
}

std::string BitRange::str() const {
  return msb == lsb ? fmt::format("[{}]", lsb) : fmt::format("[{}:{}]", msb, lsb);
}

const char* access_name(Access a) {
  switch (a) {
    case Access::RW: return "rw";
    case Access::RO: return "ro";
    case Access::WO: return "wo";
    case Access::W1C: return "w1c";
  }
  return "?";
}

uint32_t Register::reset_value() const {
  uint32_t v = 0;
  for (const auto& f : fields) {
    v |= static_cast<uint32_t>(f.reset << f.bits.lsb) & f.bits.mask();
  }
  return v;
}

uint32_t Register::access_mask(Access a) const {
  uint32_t m = 0;
  for (const auto& f : fields) {
    if (f.access == a) m |= f.bits.mask();
  }
  return m;
}

bool Register::bus_writable(bool in_band_state) const {
  for (const auto& f : fields) {
    if (f.access == Access::WO || f.access == Access::W1C) return true;
    if (f.access == Access::RW && !in_band_state) return true;
  }
  return false;
}

std::string Register::access_summary() const {
  std::string s;
  for (Access a : {Access::RW, Access::RO, Access::WO, Access::W1C}) {
    if (access_mask(a) == 0) continue;
    if (!s.empty()) s += '/';
    s += access_name(a);
  }
  return s.empty() ? access_name(access) : s;
}

const Enum* Spec::find_enum(const std::string& name) const {
  for (const auto& e : enums) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

}  // namespace tessera::specgen
