#include "tessera/driver/vertex.hpp"

namespace tessera::driver {

namespace {
void put_le(std::vector<uint8_t>& out, std::size_t at, uint32_t v, unsigned bytes) {
  for (unsigned b = 0; b < bytes; ++b) out[at + b] = static_cast<uint8_t>(v >> (8 * b));
}
}  // namespace

std::vector<uint8_t> pack_vertices(std::span<const Vertex> vertices) {
  std::vector<uint8_t> out(vertices.size() * kVertexBytes);
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const auto dw = pack_vertex(vertices[i]);
    for (unsigned k = 0; k < kVertexDwords; ++k) put_le(out, i * kVertexBytes + 4 * k, dw[k], 4);
  }
  return out;
}

IndexBuffer pack_indices(std::span<const uint32_t> indices, std::size_t vertex_count) {
  IndexBuffer ib;
  ib.type = vertex_count <= 65536 ? IndexType::U16 : IndexType::U32;
  const unsigned size = ib.type == IndexType::U16 ? 2 : 4;
  ib.bytes.resize(indices.size() * size);
  for (std::size_t i = 0; i < indices.size(); ++i) put_le(ib.bytes, i * size, indices[i], size);
  return ib;
}

}  // namespace tessera::driver
