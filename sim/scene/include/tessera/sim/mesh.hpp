// Meshes of tessera-sim scenes: loaded through Assimp (OBJ, PLY, glTF 2.0 and whatever else the
// installed Assimp reads) or generated procedurally. Triangle lists, object space, counter-
// clockwise front faces (OpenGL convention). The generated patch meshes (make_patch_grid,
// make_patch_tris) are patch lists instead: `patch_size` control points per patch in `indices`,
// drawn with a patch topology and tessellated on the GPU (docs/tessellation.md "Patch draws").
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "tessera/sim/scene_math.hpp"

namespace tessera::sim {

struct Mesh {
  std::vector<Vec3> positions;
  std::vector<Vec3> normals;   // one per position (generated when the file has none)
  std::vector<Vec4> colors;    // one per position, RGBA in [0, 1]; empty: white
  std::vector<Vec2> uvs;       // one per position; empty: (0, 0). Origin at the image's top-left,
                               // v down (the sampler's row 0 is the image's top row)
  std::vector<uint32_t> indices;  // triangle list, or patch list when patch_size != 0
  // 0: a triangle list; 4: quad patches (P00, P10, P11, P01); 3: triangle patches (P0, P1, P2).
  unsigned patch_size = 0;
  // Triangles of a triangle list (a patch mesh's triangles depend on its factors: 0 here).
  std::size_t triangles() const { return patch_size ? 0 : indices.size() / 3; }
  std::size_t patches() const { return patch_size ? indices.size() / patch_size : 0; }
};

// A mesh file that cannot be read: the message is Assimp's reason (or ours), without the
// file name; the scene loader adds file, line and field.
class MeshError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Every mesh of the file, merged, with each node's transform applied; triangulated, normals
// generated when missing, identical vertices joined; uv turned from Assimp's origin (the
// image's bottom-left) to the sampler's (top-left): v = 1 - v_assimp. Throws MeshError for a
// missing, unreadable or inconsistent file (OBJ, PLY and COLLADA: checked line by line,
// mesh_file_check.hpp) and for NaN or infinite vertex data, naming the line or the vertex.
Mesh load_mesh_file(const std::string& path);

// Procedural meshes, centred on the origin. Sizes > 0; counts within the documented ranges
// (the scene loader checks them).
Mesh make_cube(double size);                                 // 24 vertices, 12 triangles, uv 0..1 per face
Mesh make_grid(double size, unsigned divisions);            // XZ plane facing +y, divisions^2 quads
// The same plane and vertices as make_grid, as divisions^2 quad patches. Cell (i, j) (x step i,
// z step j) with corners a = (i, j), b = (i+1, j), c = (i, j+1), d = (i+1, j+1) is the patch
// P00 = c, P10 = d, P11 = b, P01 = a: counter-clockwise seen from +y, and its factor-1
// tessellation (P00, P10, P11), (P00, P11, P01) = (c, d, b), (c, b, a) is make_grid's two
// triangles of the cell, (a, c, b) and (b, c, d), with the vertices rotated and the two swapped.
Mesh make_patch_grid(double size, unsigned divisions);
// The same plane as 2 * divisions^2 triangle patches (P0, P1, P2): per cell (c, d, b), (c, b, a).
Mesh make_patch_tris(double size, unsigned divisions);
Mesh make_sphere(double radius, unsigned segments, unsigned rings);
Mesh make_torus(double major, double minor, unsigned segments, unsigned sides);  // around +y

}  // namespace tessera::sim
