// The one translation unit with the stb_image and stb_image_write implementations (Debian's
// libstb-dev headers; the shared libstb is not linked).
#include "tessera/sim/texture.hpp"

#include <filesystem>

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#endif
#define STB_IMAGE_IMPLEMENTATION
#define STBI_FAILURE_USERMSG
#include <stb/stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace tessera::sim {

Texture load_texture_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw TextureError("not found");
  int w = 0, h = 0, n = 0;
  stbi_uc* px = stbi_load(path.c_str(), &w, &h, &n, 4);
  if (!px) {
    const char* why = stbi_failure_reason();
    throw TextureError(std::string("is not a readable image: ") + (why ? why : "unknown reason"));
  }
  Texture t;
  t.width = static_cast<uint32_t>(w);
  t.height = static_cast<uint32_t>(h);
  t.rgba.assign(px, px + static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4);
  stbi_image_free(px);
  return t;
}

bool write_png(const std::string& path, uint32_t width, uint32_t height, const std::vector<uint8_t>& rgba) {
  if (rgba.size() < static_cast<std::size_t>(width) * height * 4) return false;
  return stbi_write_png(path.c_str(), static_cast<int>(width), static_cast<int>(height), 4, rgba.data(),
                        static_cast<int>(width * 4)) != 0;
}

}  // namespace tessera::sim
