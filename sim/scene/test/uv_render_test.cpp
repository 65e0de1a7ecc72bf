// What the user sees of a texture on a mesh loaded from a file: the same unit quad in OBJ, PLY,
// glTF and COLLADA (sim/scene/test/data/quad_uv.*, each with the uv convention of its format),
// textured with an image whose four quadrants have different colours, seen head-on, is
// rendered by the raster slices' bit-exact reference (sim/raster) the way tessera-sim's
// reference backend does it. The top-left of the picture must show the image's top-left
// quadrant, and so on for every corner: an upside-down (or mirrored) texture fails.
// A generated cube's front face is the control (generated meshes were always upright).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "tessera/sim/frame_plan.hpp"
#include "tessera/sim/ref_render.hpp"
#include "tessera/sim/scene.hpp"
#include "tessera/sim/sparse_memory.hpp"
#include "tessera/sim/texture.hpp"
#include "tessera/sim/vertex.hpp"
#include "tessera_spec.h"

using namespace tessera::sim;
namespace fs = std::filesystem;

namespace {

const std::string kData = TESSERA_SCENE_TEST_DATA;
constexpr uint32_t kSize = 32;  // the screen, pixels
constexpr uint32_t kColorAddr = 0x10000, kDepthAddr = 0x20000, kTexAddr = 0x40000;

// RGBA8 as the render backend stores it (R in bits 7:0).
constexpr uint32_t kRed = 0xFF0000FF, kGreen = 0xFF00FF00, kBlue = 0xFFFF0000, kWhite = 0xFFFFFFFF;

// A 2x2 image, rows top first: red | green over blue | white.
std::string quadrant_png() {
  const fs::path p = fs::temp_directory_path() / ("tessera_uv_render_test_" + std::to_string(::getpid()) + ".png");
  const std::vector<uint8_t> rgba = {255, 0, 0, 255, 0, 255, 0, 255,  // top row: red, green
                                     0, 0, 255, 255, 255, 255, 255, 255};  // bottom row: blue, white
  EXPECT_TRUE(write_png(p.string(), 2, 2, rgba));
  return p.string();
}

// Renders the scene's only pass (one textured draw) with the reference renderer and returns
// the colour buffer's memory. Viewport as the GPU's (VP_OFFSET = half the target, VP_SCALE 1).
SparseMemory render(const LoadedScene& ls) {
  const FramePlan plan = plan_frame(ls, 0);
  EXPECT_EQ(plan.passes.size(), 1u);
  const PassPlan& pp = plan.passes.at(0);
  const Texture& tex = ls.textures.begin()->second;
  SparseMemory mem;
  mem.write(kTexAddr, tex.rgba);
  raster::RefRenderer r(mem);
  r.set_reg(TS_RASTER_TEX_CTRL_OFFSET, TS_RASTER_TEX_CTRL_ENABLE_PUT(1) | TS_RASTER_TEX_CTRL_LOG2_W_PUT(log2_u32(tex.width)) |
                                           TS_RASTER_TEX_CTRL_LOG2_H_PUT(log2_u32(tex.height)));
  r.set_reg(TS_RASTER_TEX_BASE_OFFSET, kTexAddr);
  raster::RenderPass rp;
  rp.color_addr = kColorAddr;
  rp.depth_addr = kDepthAddr;
  rp.width = pp.width;
  rp.height = pp.height;
  rp.color_load = rp.depth_load = 1;  // clear
  rp.clear_color = 0;
  rp.clear_depth = kDepthMax;
  r.renderpass_begin(rp);
  for (const ScreenDraw& d : pp.draws)
    for (std::size_t k = 0; k + 2 < d.indices.size(); k += 3) {
      raster::Triangle t;
      for (unsigned i = 0; i < 3; ++i) {
        const Vertex& v = d.vertices[d.indices[k + i]];
        t.v[i].x = v.x + static_cast<int32_t>(pp.width / 2 * 16);
        t.v[i].y = v.y + static_cast<int32_t>(pp.height / 2 * 16);
        t.v[i].z = v.z;
        t.v[i].rgba = pack_vertex(v)[2];
        t.v[i].u = v.u;
        t.v[i].v = v.v;
      }
      r.triangle(t);
    }
  r.renderpass_end();
  return mem;
}

uint32_t pixel(const SparseMemory& mem, uint32_t x, uint32_t y) { return mem.read32(kColorAddr + (y * kSize + x) * 4); }

}  // namespace

// Catches: file meshes (Assimp: uv origin at the image's bottom-left) sampled upside down or
// mirrored by the sampler (row 0 = the image's top), in any of the four formats.
TEST(FileMeshTexture, ImageTopLeftIsOnTheQuadsTopLeftInEveryFormat) {
  const std::string png = quadrant_png();
  // The quad spans x, y in 0..1 at z = 0; the camera looks at its centre from 0.6 in front, so
  // the picture shows the middle 70% of it (60 degree field of view).
  const std::vector<std::pair<std::string, std::string>> meshes = {
      {"OBJ", "{file: quad_uv.obj}"},
      {"PLY", "{file: quad_uv.ply}"},
      {"glTF", "{file: quad_uv.gltf}"},
      {"COLLADA", "{file: quad_uv.dae}"},
      {"generated cube (control)", "{generate: cube, size: 1}"},
  };
  for (const auto& [format, mesh] : meshes) {
    SCOPED_TRACE(format);
    const bool cube = format.rfind("generated", 0) == 0;
    const std::string yaml = fmt::format(
        "target: {{width: {0}, height: {0}}}\n"
        "camera: {{position: [0.5, 0.5, 0.6], look_at: [0.5, 0.5, 0]}}\n"
        "textures: {{img: {{file: '{1}'}}}}\n"
        "passes:\n"
        "  - cull: none\n"
        "    draws: [{{mesh: {2}, texture: img, lit: false, position: {3}}}]\n",
        kSize, png, mesh, cube ? "[0.5, 0.5, -0.5]" : "[0, 0, 0]");
    const LoadedScene ls = load_assets(parse_scene(yaml, "uv.yaml", kData));
    const SparseMemory mem = render(ls);
    EXPECT_EQ(pixel(mem, 3, 3), kRed) << "top-left of the picture";
    EXPECT_EQ(pixel(mem, kSize - 4, 3), kGreen) << "top-right of the picture";
    EXPECT_EQ(pixel(mem, 3, kSize - 4), kBlue) << "bottom-left of the picture";
    EXPECT_EQ(pixel(mem, kSize - 4, kSize - 4), kWhite) << "bottom-right of the picture";
  }
  fs::remove(png);
}
