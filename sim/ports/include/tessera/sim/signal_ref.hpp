// SignalRef: a type-erased reference to a verilated model's port or public signal.
// Verilator exposes ports as plain members (CData, SData, IData, QData, VlWide<N>); a
// SignalRef remembers where one lives and how wide its storage is, so triggers can watch it
// for edges and drivers can read and write it without templates everywhere.
//
// It lives in sim/ because GpuSim (a model that tools link) reads and drives wide ports with
// it; the harness (tb/signal.hpp) uses this one under the name tb::SignalRef.
#pragma once

#include <verilated.h>

#include <cstdint>
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace tessera::sim {

class SignalRef {
 public:
  SignalRef() = default;
  SignalRef(CData& s, std::string name = {}) : ptr_(&s), bytes_(sizeof(CData)), name_(std::move(name)) {}
  SignalRef(SData& s, std::string name = {}) : ptr_(&s), bytes_(sizeof(SData)), name_(std::move(name)) {}
  SignalRef(IData& s, std::string name = {}) : ptr_(&s), bytes_(sizeof(IData)), name_(std::move(name)) {}
  SignalRef(QData& s, std::string name = {}) : ptr_(&s), bytes_(sizeof(QData)), name_(std::move(name)) {}
  template <std::size_t N>
  SignalRef(VlWide<N>& s, std::string name = {})
      : ptr_(s.data()), bytes_(N * sizeof(EData)), name_(std::move(name)) {}

  bool valid() const { return ptr_ != nullptr; }
  void* address() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }
  const std::string& name() const { return name_; }

  // Value of the low 64 bits.
  std::uint64_t read() const {
    std::uint64_t v = 0;
    std::memcpy(&v, ptr_, bytes_ < 8 ? bytes_ : 8);
    return v;
  }
  bool bit0() const { return (*static_cast<const std::uint8_t*>(ptr_) & 1U) != 0; }
  // Writes the low 64 bits (storage narrower than 64 bits takes the low bytes).
  void write(std::uint64_t v) const { std::memcpy(ptr_, &v, bytes_ < 8 ? bytes_ : 8); }
  // Whole value as 32-bit words, least significant first (for wide signals).
  std::vector<std::uint32_t> read_words() const {
    std::vector<std::uint32_t> w((bytes_ + 3) / 4, 0);
    std::memcpy(w.data(), ptr_, bytes_);
    return w;
  }
  void write_words(const std::vector<std::uint32_t>& w) const {
    std::memset(ptr_, 0, bytes_);
    std::memcpy(ptr_, w.data(), std::min(bytes_, w.size() * 4));
  }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
  std::string name_;
};

}  // namespace tessera::sim
