// Patch draws through tessera-sim on the reference backend (docs/tessellation.md "Patch draws",
// docs/tessera-sim.md "Tessellation"): the TF buffer the scene runner writes, the DRAW it
// issues, and what the reference pipeline makes of it (triangle counts and pictures).
// The RTL == reference picture tests of patch scenes come with the RTL tessellator.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "tessera/sim/ref_frame_renderer.hpp"
#include "tessera/sim/scene_runner.hpp"
#include "tessera/sim/texture.hpp"
#include "tessera_layouts.hpp"
#include "tessera_spec.h"

using namespace tessera::sim;
namespace fs = std::filesystem;

namespace {

constexpr uint32_t kSize = 64;  // the screen, pixels
// RGBA8 as in memory (R in bits 7:0).
constexpr uint32_t kRed = 0xFF0000FF, kGreen = 0xFF00FF00, kBlue = 0xFFFF0000, kWhite = 0xFFFFFFFF, kClear = 0xFF000000;

// A 2x2 image, rows top first: red | green over blue | white (a flipped or mirrored picture
// puts another colour in a corner).
std::string quadrant_png() {
  const fs::path p = fs::temp_directory_path() / fmt::format("tessera_tess_runner_test_{}.png", ::getpid());
  const std::vector<uint8_t> rgba = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
  EXPECT_TRUE(write_png(p.string(), 2, 2, rgba));
  return p.string();
}

// One pass, one draw of `mesh` (a YAML flow map) with `extra` draw keys, textured with the
// quadrant image, unlit. Top view by default: the camera above the origin with -z up, so the
// plane's (x, z) = (-2, -2) corner (uv 0, 0) is the picture's top-left.
LoadedScene scene(const std::string& png, const std::string& mesh, const std::string& extra,
                  const std::string& camera = "{position: [0, 6, 0], look_at: [0, 0, 0], up: [0, 0, -1]}") {
  const std::string yaml = fmt::format(
      "target: {{width: {0}, height: {0}}}\n"
      "camera: {1}\n"
      "textures: {{img: {{file: '{2}'}}}}\n"
      "passes:\n"
      "  - clear_color: [0, 0, 0, 1]\n"
      "    draws: [{{mesh: {3}, texture: img, lit: false{4}}}]\n",
      kSize, camera, png, mesh, extra);
  return load_assets(parse_scene(yaml, "tess.yaml", ""));
}

struct Rendered {
  FrameStats stats;
  std::vector<uint8_t> screen;
  std::vector<GpuDraw> draws;
  std::vector<tessera::driver::PipeCommand> log;
  std::vector<tessera::layout::TfRecord> tf;  // the first draw's TF buffer, read back from GPU memory
  uint64_t rendered = 0;                      // triangles the reference rasterized (after cull)
};

Rendered run(const LoadedScene& ls) {
  RunConfig rc;
  rc.backend = "ref";
  RefFrameRenderer renderer;
  SceneRunner r(ls, rc, &renderer);
  Rendered out;
  out.stats = r.run_frame(0);
  out.screen = r.read_screen();
  out.draws = r.last_passes().at(0).draws;
  out.log = r.pipe_log();
  out.rendered = renderer.triangles_rendered();
  if (!out.draws.empty() && out.draws[0].tf_addr) {
    const std::size_t n = out.draws[0].index_count / (out.draws[0].topology == tessera::driver::Topology::PatchQuad ? 4 : 3);
    std::vector<uint8_t> bytes(16 * n);
    r.device().read_mem(out.draws[0].tf_addr, bytes);
    for (std::size_t p = 0; p < n; ++p) {
      std::array<uint32_t, 4> w{};
      for (unsigned i = 0; i < 4; ++i)
        for (unsigned b = 0; b < 4; ++b) w[i] |= uint32_t{bytes[16 * p + 4 * i + b]} << (8 * b);
      out.tf.push_back(tessera::layout::TfRecord::unpack(w.data()));
    }
  }
  return out;
}

uint32_t pixel(const std::vector<uint8_t>& s, uint32_t x, uint32_t y) {
  const uint8_t* p = &s[(y * kSize + x) * 4];
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

const char* kOffCentre = "{position: [1, 3, 4], look_at: [0, 0, 0]}";

}  // namespace

// Catches: a TF buffer with records in the wrong place or order, factors in the wrong fields
// (the spec's tf_record), the distance rule's factors not reaching the GPU, a DRAW without the
// patch topology or the TF buffer's address. The camera is off-centre so the four patches have
// four different factors (hand-computed in tess_scene_test DistanceFactorsPerPatchFromTheEye:
// distances 6.16, 5.83, 4.69, 4.24 from the eye -> 7, 9, 16, 19).
TEST(TessRunner, TfBufferHoldsEachPatchsDistanceFactor) {
  const std::string png = quadrant_png();
  const Rendered q = run(scene(png, "{generate: patch_grid, size: 4, divisions: 2}",
                          ", tess: {rule: distance, min: 2, max: 20, near: 4, far: 7}", kOffCentre));
  ASSERT_EQ(q.draws.size(), 1u);
  const GpuDraw& d = q.draws[0];
  EXPECT_EQ(d.topology, tessera::driver::Topology::PatchQuad);
  EXPECT_EQ(d.index_count, 16u);
  EXPECT_NE(d.tf_addr, 0u);
  EXPECT_EQ(d.tf_addr % 16, 0u);
  EXPECT_EQ(d.factors, (std::vector<uint32_t>{7, 9, 16, 19}));
  ASSERT_EQ(q.tf.size(), 4u);
  const uint8_t want[4] = {7, 9, 16, 19};
  for (unsigned p = 0; p < 4; ++p) {
    SCOPED_TRACE(fmt::format("patch {}", p));
    EXPECT_EQ(q.tf[p].inner0, want[p]);
    EXPECT_EQ(q.tf[p].inner1, want[p]);
    EXPECT_EQ(q.tf[p].outer0, want[p]);
    EXPECT_EQ(q.tf[p].outer1, want[p]);
    EXPECT_EQ(q.tf[p].outer2, want[p]);
    EXPECT_EQ(q.tf[p].outer3, want[p]);
  }
  EXPECT_EQ(q.stats.tf_bytes, 64u);
  // The DRAW the pipeline received: PATCH_QUAD, 16 control points, this TF buffer.
  int draws = 0;
  for (const auto& c : q.log)
    if (c.opcode == TS_OP_DRAW) {
      ++draws;
      EXPECT_EQ(TS_PKT_DRAW_TOPOLOGY_GET(c.args.at(TS_PKT_DRAW_TOPOLOGY_DW)), TS_TOPOLOGY_PATCH_QUAD);
      EXPECT_EQ(TS_PKT_DRAW_COUNT_GET(c.args.at(TS_PKT_DRAW_COUNT_DW)), 16u);
      EXPECT_EQ(TS_PKT_DRAW_TF_ADDR_GET(c.args.at(TS_PKT_DRAW_TF_ADDR_DW)), d.tf_addr);
    }
  EXPECT_EQ(draws, 1);
  // What the tessellator made of them: 2 * f^2 per patch.
  ASSERT_TRUE(q.stats.tess);
  EXPECT_EQ(q.stats.tess->patches, 4u);
  EXPECT_EQ(q.stats.tess->triangles, 2u * (49 + 81 + 256 + 361));

  // Triangle patches: inner0 is the factor, inner1 and outer3 stay 0.
  const Rendered t = run(scene(png, "{generate: patch_tris, size: 4, divisions: 2}", ", tess: {factor: 5}", kOffCentre));
  ASSERT_EQ(t.draws.size(), 1u);
  EXPECT_EQ(t.draws[0].topology, tessera::driver::Topology::PatchTri);
  ASSERT_EQ(t.tf.size(), 8u);
  for (const auto& r : t.tf) {
    EXPECT_EQ(r.inner0, 5);
    EXPECT_EQ(r.inner1, 0);
    EXPECT_EQ(r.outer3, 0);
  }
  fs::remove(png);
}

// Catches: the reference pipeline not tessellating (or drawing control points as triangles),
// wrong triangle counts (quad 2 * N^2, triangle N^2 per patch), a picture that is empty,
// flipped or mirrored (the quadrant image must land on its corners), and patch uv/colour not
// interpolated from the control points.
TEST(TessRunner, ReferenceRendersPatchGridWithItsTriangleCountAndTexture) {
  const std::string png = quadrant_png();
  for (const char* mesh : {"{generate: patch_grid, size: 4, divisions: 2}", "{generate: patch_tris, size: 4, divisions: 2}"}) {
    SCOPED_TRACE(mesh);
    const bool quads = std::string(mesh).find("patch_grid") != std::string::npos;
    const uint64_t n = 3;
    const Rendered r = run(scene(png, mesh, ", tess: {factor: 3}"));
    ASSERT_TRUE(r.stats.tess);
    const uint64_t patches = quads ? 4 : 8;
    EXPECT_EQ(r.stats.tess->patches, patches);
    EXPECT_EQ(r.stats.tess->triangles, quads ? patches * 2 * n * n : patches * n * n);
    EXPECT_EQ(r.stats.tess->isoline_segments, 0u);
    EXPECT_EQ(r.stats.clip.patches_out, patches);
    EXPECT_EQ(r.rendered, r.stats.tess->triangles);  // all face the camera, all on screen
    // The plane covers the middle of the picture (x, z = +-2 at 6 units, 60 degrees: pixels
    // 14..50); the background shows around it.
    EXPECT_EQ(pixel(r.screen, 2, 2), kClear);
    EXPECT_EQ(pixel(r.screen, kSize - 3, kSize - 3), kClear);
    EXPECT_EQ(pixel(r.screen, 22, 22), kRed) << "top-left";
    EXPECT_EQ(pixel(r.screen, 41, 22), kGreen) << "top-right";
    EXPECT_EQ(pixel(r.screen, 22, 41), kBlue) << "bottom-left";
    EXPECT_EQ(pixel(r.screen, 41, 41), kWhite) << "bottom-right";
  }
  // A factor of 0 culls every patch: counted, nothing drawn.
  const Rendered z = run(scene(png, "{generate: patch_grid, size: 4, divisions: 2}", ", tess: {factor: 0}"));
  ASSERT_TRUE(z.stats.tess);
  EXPECT_EQ(z.stats.tess->patches, 4u);
  EXPECT_EQ(z.stats.tess->triangles, 0u);
  EXPECT_EQ(pixel(z.screen, 32, 32), kClear);
  fs::remove(png);
}

// Catches: a factor-1 quad patch that is not the two triangles of make_grid's cell -- other
// corners, the other diagonal, other winding (culled), other attributes -- by comparing the
// pictures byte for byte with the plain grid drawn as a triangle list, in a top view and in a
// perspective view. The factor-1 tessellation of patch (c, d, b, a) is (c, d, b), (c, b, a):
// make_grid's (b, c, d), (a, c, b) with the vertices rotated, which the raster reference draws
// identically (same edges, same top-left rule, same plane equations).
TEST(TessRunner, FactorOnePatchGridIsThePlainGridsPicture) {
  const std::string png = quadrant_png();
  for (const char* cam : {"{position: [0, 6, 0], look_at: [0, 0, 0], up: [0, 0, -1]}", kOffCentre}) {
    SCOPED_TRACE(cam);
    const Rendered grid = run(scene(png, "{generate: grid, size: 4, divisions: 3}", "", cam));
    const Rendered patches = run(scene(png, "{generate: patch_grid, size: 4, divisions: 3}", ", tess: {factor: 1}", cam));
    ASSERT_TRUE(patches.stats.tess);
    EXPECT_EQ(patches.stats.tess->triangles, 18u);
    EXPECT_EQ(grid.stats.clip.triangles_out, 18u);
    std::size_t covered = 0;
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x) covered += pixel(grid.screen, x, y) != kClear;
    EXPECT_GT(covered, kSize * kSize / 8);
    std::size_t diff = 0;
    while (diff < grid.screen.size() && grid.screen[diff] == patches.screen[diff]) ++diff;
    EXPECT_EQ(diff, grid.screen.size()) << fmt::format("first difference at pixel ({}, {})", diff / 4 % kSize,
                                                       diff / 4 / kSize);
  }
  fs::remove(png);
}

namespace {

tessera::driver::PipeCommand command(const tessera::driver::Dwords& packet) {
  tessera::driver::PipeCommand c;
  c.opcode = static_cast<uint8_t>(TS_PKT_HDR_OPCODE_GET(packet.at(0)));
  c.args.assign(packet.begin() + 1, packet.end());
  return c;
}

}  // namespace

// Catches, in the reference pipeline alone (what the scenes do not reach): control points not
// read through a U16 index buffer, isoline factors taken from the inner fields, isoline
// segments not counted or isolines rasterized, a culled patch (factor 0) not counted, factors
// above 64 not clamped, and TRI_STRIP no longer refused. Viewport and cull at their reset
// values (scale 1, offset 0, no cull), so a vertex's 12.4 x, y are its screen position.
TEST(TessRefPipeline, IndexedQuadAndIsolinePatchesFromTheTfBuffer) {
  using namespace tessera::driver;
  constexpr uint32_t kColor = 0x10000, kDepth = 0x20000, kVb = 0x30000, kIb = 0x31000, kTf = 0x32000, kW = 32;
  SparseMemory mem;
  // Four corners of the square (8, 8)..(24, 24) in a scrambled order, each with its own colour;
  // the index buffer puts them back as P00 (8, 24), P10 (24, 24), P11 (24, 8), P01 (8, 8).
  const int16_t xy[4][2] = {{24, 8}, {8, 24}, {8, 8}, {24, 24}};
  for (uint32_t k = 0; k < 4; ++k) {
    Vertex v;
    v.x = static_cast<int16_t>(xy[k][0] * 16);
    v.y = static_cast<int16_t>(xy[k][1] * 16);
    v.z = 0x100;
    v.r = 200;
    v.g = static_cast<uint8_t>(40 * k);
    v.b = 10;
    v.a = 255;
    const auto dw = pack_vertex(v);
    for (unsigned i = 0; i < 4; ++i) mem.write32(kVb + 16 * k + 4 * i, dw[i]);
  }
  // Quad patch 0: indices 1 3 0 2. Isoline patches 1..3 after it (positions 4..9): any vertices.
  const uint16_t idx[10] = {1, 3, 0, 2, 0, 1, 2, 3, 1, 2};
  for (uint32_t k = 0; k < 10; ++k) mem.write16(kIb + 2 * k, idx[k]);
  auto tf = [&](uint32_t addr, tessera::layout::TfRecord r) {
    const auto w = r.pack();
    for (unsigned i = 0; i < 4; ++i) mem.write32(addr + 4 * i, w[i]);
  };
  tf(kTf, {.inner0 = 200, .inner1 = 3});  // 200 counts as 64: 2 * 64 * 3 triangles
  tf(kTf + 0x100, {.inner0 = 9, .inner1 = 9, .outer0 = 2, .outer1 = 3});
  tf(kTf + 0x110, {.inner0 = 9, .inner1 = 9, .outer0 = 5, .outer1 = 1});
  tf(kTf + 0x120, {.outer0 = 0, .outer1 = 4});  // culled

  RefFrameRenderer r;
  RenderPassPacket rp;
  rp.color_addr = kColor;
  rp.depth_addr = kDepth;
  rp.width = rp.height = kW;
  rp.color_load = rp.depth_load = LoadOp::Clear;
  rp.color_store = StoreOp::Store;
  rp.clear_color = kClear;
  rp.clear_depth = 0xFFFFFF;
  r.execute(command(pkt::renderpass_begin(rp)), mem);
  r.execute(command(pkt::draw({Topology::PatchQuad, IndexType::U16, 4, kVb, kIb, kTf})), mem);
  r.execute(command(pkt::draw({Topology::PatchIsoline, IndexType::U16, 6, kVb, kIb + 8, kTf + 0x100})), mem);
  EXPECT_THROW(r.execute(command(pkt::draw({Topology::TriStrip, IndexType::None, 3, kVb, 0, 0})), mem), DriverError);
  r.execute(command(pkt::renderpass_end()), mem);

  ASSERT_TRUE(r.tess_counters());
  EXPECT_EQ(r.tess_counters()->patches, 4u);
  EXPECT_EQ(r.tess_counters()->triangles, 2u * 64 * 3);
  EXPECT_EQ(r.tess_counters()->isoline_segments, 2u * 3 + 5 * 1);
  EXPECT_EQ(r.triangles_rendered(), 2u * 64 * 3);
  auto px = [&](uint32_t x, uint32_t y) { return mem.read32(kColor + (y * kW + x) * 4); };
  EXPECT_EQ(px(4, 4), kClear);
  EXPECT_EQ(px(28, 16), kClear);
  // Inside the square the control points' colours are interpolated: R 200 and B 10
  // everywhere; G bilinear between P00 40, P10 120, P11 0, P01 80 (vertex k has G = 40 k), at
  // the pixel centre (9.5, 9.5): u 0.094, v 0.906 -> 70.2; at (22.5, 22.5): u 0.906, v 0.094
  // -> 102.7 (a wrong index read or a mirrored patch gives other values).
  const uint32_t tl = px(9, 9), br = px(22, 22);
  EXPECT_EQ(tl & 0xFF, 200u);
  EXPECT_EQ((tl >> 16) & 0xFF, 10u);
  EXPECT_NEAR(static_cast<int>((tl >> 8) & 0xFF), 70, 3);
  EXPECT_NEAR(static_cast<int>((br >> 8) & 0xFF), 103, 3);
}
