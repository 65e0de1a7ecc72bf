// The 16-byte vertex of ARCHITECTURE.md 3 in GPU memory and the buffers a draw reads: the
// driver's vertex and index packers, so applications hand it vertices and indices, never bytes.
//
// The layout is not restated here: it is spec/layouts.yaml's vertex (docs/reference/layouts.md),
// through the generated tessera::layout::Vertex (the GEOM VTX_DW0..3 registers show the same
// fields). Little endian, 4 dwords:
//   dword 0: x[15:0] | y[31:16]      signed 12.4 fixed point (1/16 pixel)
//   dword 1: z[23:0]                 24-bit unsigned depth; bits 31:24 written 0, ignored
//   dword 2: R[7:0] G[15:8] B[23:16] A[31:24]
//   dword 3: u[15:0] | v[31:16]      unsigned 0.16 fixed point
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "tessera/driver/packets.hpp"
#include "tessera_layouts.hpp"
#include "tessera_spec.h"

namespace tessera::driver {

inline constexpr unsigned kVertexDwords = layout::Vertex::kWords;  // 4
inline constexpr unsigned kVertexBytes = kVertexDwords * 4;       // 16

struct Vertex {
  int16_t x = 0;  // signed 12.4
  int16_t y = 0;  // signed 12.4
  uint32_t z = 0;  // 24-bit unsigned
  uint8_t r = 0, g = 0, b = 0, a = 0;
  uint16_t u = 0;  // unsigned 0.16
  uint16_t v = 0;  // unsigned 0.16
  bool operator==(const Vertex&) const = default;
};

inline std::array<uint32_t, kVertexDwords> pack_vertex(const Vertex& v) {
  layout::Vertex l;
  l.x = v.x;
  l.y = v.y;
  l.z = v.z;
  l.r = v.r;
  l.g = v.g;
  l.b = v.b;
  l.a = v.a;
  l.u = v.u;
  l.v = v.v;
  return l.pack();
}

inline Vertex unpack_vertex(std::span<const uint32_t, kVertexDwords> d) {
  const layout::Vertex l = layout::Vertex::unpack(d.data());
  Vertex v;
  v.x = l.x;
  v.y = l.y;
  v.z = l.z;
  v.r = l.r;
  v.g = l.g;
  v.b = l.b;
  v.a = l.a;
  v.u = l.u;
  v.v = l.v;
  return v;
}

// A colour as the GPU stores it in a render target (and in vertex dword 2): RGBA8, R in bits 7:0.
inline uint32_t pack_rgba8(uint8_t r, uint8_t g, uint8_t b, uint8_t a) {
  return TS_GEOM_VTX_DW2_R_PUT(r) | TS_GEOM_VTX_DW2_G_PUT(g) | TS_GEOM_VTX_DW2_B_PUT(b) | TS_GEOM_VTX_DW2_A_PUT(a);
}

// A vertex buffer as GPU memory holds it: kVertexBytes per vertex, little endian.
std::vector<uint8_t> pack_vertices(std::span<const Vertex> vertices);

// An index buffer and the DRAW index type that reads it: 16-bit indices when every vertex of
// the draw is reachable with them (at most 65536 vertices), else 32-bit; little endian.
struct IndexBuffer {
  IndexType type = IndexType::U16;
  std::vector<uint8_t> bytes;
};
IndexBuffer pack_indices(std::span<const uint32_t> indices, std::size_t vertex_count);
// Bytes of the index buffer pack_indices would produce (for a memory budget before packing).
inline std::size_t index_buffer_bytes(std::size_t index_count, std::size_t vertex_count) {
  return index_count * (vertex_count <= 65536 ? 2 : 4);
}

}  // namespace tessera::driver
