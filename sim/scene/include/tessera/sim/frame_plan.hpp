// From a scene to what the GPU draws in one frame: the host-side transform of tessera-sim
// (docs/tessera-sim.md "From the scene to the screen").
//
// Per draw and frame: model (animated) -> view (camera, orbit) -> projection (right-handed,
// depth 0..1) -> clipping in homogeneous clip space against the near and far planes and a
// guard band in x and y -> perspective divide -> viewport. The vertices hold x and y relative
// to the centre of the render target in signed 12.4 pixels, y down (row 0 of the target is the
// top of the picture); the GPU's viewport offset (GEOM VP_OFFSET_X/Y = width/2, height/2)
// moves them to the target. z is the depth 0..1 in 24 bits. Clipping interpolates every
// attribute linearly in clip space; a polygon from a clipped triangle is split into a fan.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tessera/sim/scene.hpp"
#include "tessera/sim/scene_math.hpp"
#include "tessera/sim/vertex.hpp"

namespace tessera::sim {

// The guard band: |x|, |y| relative to the target centre stay below this many pixels, so every
// vertex fits signed 12.4 (kXyMax = 2047.9375) with room for rounding.
inline constexpr double kGuardBandPx = 2040.0;

// A vertex in clip space with its attributes (color RGBA 0..1, uv).
struct ClipVertex {
  Vec4 pos;
  Vec4 color;
  Vec2 uv;
};

// Clips the triangle against 0 <= z <= w and |x| <= gx * w, |y| <= gy * w. Returns the convex
// polygon (0 vertices when the triangle is wholly outside; the input when wholly inside).
std::vector<ClipVertex> clip_triangle(const ClipVertex& a, const ClipVertex& b, const ClipVertex& c, double gx, double gy);

// Perspective divide and viewport for a width x height target (see the header comment).
Vertex to_screen(const ClipVertex& v, uint32_t width, uint32_t height);

struct ClipStats {
  uint64_t triangles_in = 0;   // triangles of the mesh
  uint64_t triangles_out = 0;  // triangles sent to the GPU (after clipping, fans included)
  uint64_t clipped = 0;        // triangles that crossed a clip plane and were cut
  uint64_t rejected = 0;       // triangles wholly outside (behind the camera, beyond far, outside the guard band)
  // Patch meshes: the host cannot clip a patch (the GPU tessellates it in screen space), so a
  // patch is sent only when every control point is inside the clip volume (near, far, guard
  // band); any other patch is rejected whole.
  uint64_t patches_in = 0, patches_out = 0, patches_rejected = 0;
  ClipStats& operator+=(const ClipStats& o) {
    triangles_in += o.triangles_in;
    triangles_out += o.triangles_out;
    clipped += o.clipped;
    rejected += o.rejected;
    patches_in += o.patches_in;
    patches_out += o.patches_out;
    patches_rejected += o.patches_rejected;
    return *this;
  }
};

// A patch draw's patches as sent: `indices` holds control_points indices per patch, and
// factors[p] is patch p's tessellation factor for this frame (TessSpec, from the patch centre's
// distance to the eye); the runner writes them to the draw's TF buffer.
struct PatchPlan {
  unsigned control_points = 4;    // 4: quad patches, 3: triangle patches
  std::vector<uint32_t> factors;  // one per patch sent, 0..255
};

struct ScreenDraw {
  std::string label;  // "pass.draws[k] (mesh)"
  SourceLoc loc;      // the draw in the scene file
  std::vector<Vertex> vertices;
  std::vector<uint32_t> indices;  // triangle list into vertices (patch list when `patch` is set)
  std::optional<PatchPlan> patch;  // a patch draw
  std::optional<std::string> texture;  // a texture or intermediate target name
  bool texture_is_target = false;
  Cull cull = Cull::Back;
  ClipStats stats;
};

struct PassPlan {
  const PassSpec* spec = nullptr;
  uint32_t width = 0, height = 0;  // of its target
  std::vector<ScreenDraw> draws;
};

struct FramePlan {
  uint32_t frame = 0;
  std::vector<PassPlan> passes;
  ClipStats stats() const;
};

// The camera of a pass in a frame (orbit applied) and its matrices.
Mat4 view_matrix(const CameraSpec& cam, uint32_t frame);
// The camera's position in world space in a frame (orbit applied).
Vec3 camera_eye(const CameraSpec& cam, uint32_t frame);
Mat4 projection_matrix(const CameraSpec& cam, uint32_t width, uint32_t height);
Mat4 model_matrix(const DrawSpec& d, uint32_t frame);

FramePlan plan_frame(const LoadedScene& scene, uint32_t frame);

}  // namespace tessera::sim
