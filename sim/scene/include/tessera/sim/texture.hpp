// Textures of tessera-sim scenes: decoded with stb_image (PNG, JPEG, BMP, TGA, ...) to RGBA8,
// rows top to bottom. The sampler of the raster slice (spec/registers/raster.yaml TEX_CTRL)
// takes power-of-two sizes from 1 to 2048 texels; the scene loader checks that.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::sim {

struct Texture {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint8_t> rgba;  // width * height * 4, row 0 first
};

class TextureError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws TextureError (message without the file name: "not found", "is not a readable
// image: <stb_image's reason>").
Texture load_texture_file(const std::string& path);

// PNG writing (stb_image_write), for frames and tests. Returns false if the file cannot be written.
bool write_png(const std::string& path, uint32_t width, uint32_t height, const std::vector<uint8_t>& rgba);

inline bool is_pow2(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }
inline uint32_t log2_u32(uint32_t v) {
  uint32_t r = 0;
  while (v > 1) v >>= 1, ++r;
  return r;
}

}  // namespace tessera::sim
