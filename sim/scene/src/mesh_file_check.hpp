// Light pre-scans of the mesh formats whose mistakes Assimp 5.2 passes on silently or without
// a line number (issue 14 item 3). They read the file once, before Assimp, and throw MeshError
// "line N: ..." (or, where the file has no lines, the record and byte) for:
//   OBJ: a v, vt or vn value that is not a number or not a finite 32-bit float; a face index
//        (f, l, p) that is 0 or outside the file's v, vt or vn lines (Assimp refuses a bad v
//        index without a line and silently drops every uv or normal of the mesh for a bad vt
//        or vn index).
//   PLY: a malformed format, element or property line, an unknown property type, or no
//        end_header line of its own (Assimp 5.2 hangs or aborts on these); header element
//        counts that disagree with the body (Assimp repeats the last face or drops faces, or
//        reads a face as a vertex); a vertex property that is not a finite number; a face's
//        vertex index outside the vertex element. ASCII and both binary encodings.
//   COLLADA: index lists that are not integers and declared counts the file does not hold
//        (Assimp 5.2 reserves memory for them, or reads an index list forever), accessors
//        reaching past their arrays (mesh_file_check_collada.cpp lists every rule).
// An OBJ statement these checks do not know is left to Assimp.
#pragma once

#include <string>

namespace tessera::sim::detail {

void check_obj_file(const std::string& path);
void check_ply_file(const std::string& path);
void check_collada_file(const std::string& path);

// Whether Assimp would read the file as COLLADA whatever its extension: "<collada" in its
// first 200 bytes (Assimp's ColladaLoader::CanRead).
bool looks_like_collada(const std::string& path);

}  // namespace tessera::sim::detail
