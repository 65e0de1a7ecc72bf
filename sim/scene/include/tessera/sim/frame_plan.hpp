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
  ClipStats& operator+=(const ClipStats& o) {
    triangles_in += o.triangles_in;
    triangles_out += o.triangles_out;
    clipped += o.clipped;
    rejected += o.rejected;
    return *this;
  }
};

struct ScreenDraw {
  std::string label;  // "pass.draws[k] (mesh)"
  SourceLoc loc;      // the draw in the scene file
  std::vector<Vertex> vertices;
  std::vector<uint32_t> indices;  // triangle list into vertices
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
Mat4 projection_matrix(const CameraSpec& cam, uint32_t width, uint32_t height);
Mat4 model_matrix(const DrawSpec& d, uint32_t frame);

FramePlan plan_frame(const LoadedScene& scene, uint32_t frame);

}  // namespace tessera::sim
