#include "tessera/sim/frame_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

namespace tessera::sim {

namespace {

ClipVertex lerp(const ClipVertex& a, const ClipVertex& b, double t) {
  return {a.pos + (b.pos - a.pos) * t, a.color + (b.color - a.color) * t,
          {a.uv.x + (b.uv.x - a.uv.x) * t, a.uv.y + (b.uv.y - a.uv.y) * t}};
}

// Signed distances to the six planes; >= 0 is inside.
double plane_dist(const Vec4& p, int plane, double gx, double gy) {
  switch (plane) {
    case 0: return p.z;                // near: z >= 0
    case 1: return p.w - p.z;          // far: z <= w
    case 2: return gx * p.w + p.x;     // left
    case 3: return gx * p.w - p.x;     // right
    case 4: return gy * p.w + p.y;     // bottom
    default: return gy * p.w - p.y;    // top
  }
}

}  // namespace

std::vector<ClipVertex> clip_triangle(const ClipVertex& a, const ClipVertex& b, const ClipVertex& c, double gx, double gy) {
  std::vector<ClipVertex> poly{a, b, c};
  for (int plane = 0; plane < 6 && !poly.empty(); ++plane) {
    std::vector<ClipVertex> out;
    for (std::size_t i = 0; i < poly.size(); ++i) {
      const ClipVertex& p = poly[i];
      const ClipVertex& q = poly[(i + 1) % poly.size()];
      const double dp = plane_dist(p.pos, plane, gx, gy), dq = plane_dist(q.pos, plane, gx, gy);
      if (dp >= 0) out.push_back(p);
      if ((dp >= 0) != (dq >= 0)) out.push_back(lerp(p, q, dp / (dp - dq)));
    }
    poly = std::move(out);
  }
  return poly;
}

Vertex to_screen(const ClipVertex& v, uint32_t width, uint32_t height) {
  const double iw = 1.0 / v.pos.w;
  Vertex o;
  o.x = to_fixed_12_4(v.pos.x * iw * (width / 2.0));
  o.y = to_fixed_12_4(-v.pos.y * iw * (height / 2.0));
  o.z = to_depth24(v.pos.z * iw);
  o.r = to_unorm8(v.color.x);
  o.g = to_unorm8(v.color.y);
  o.b = to_unorm8(v.color.z);
  o.a = to_unorm8(v.color.w);
  o.u = to_unorm16(v.uv.x);
  o.v = to_unorm16(v.uv.y);
  return o;
}

ClipStats FramePlan::stats() const {
  ClipStats s;
  for (const auto& p : passes)
    for (const auto& d : p.draws) s += d.stats;
  return s;
}

Vec3 camera_eye(const CameraSpec& cam, uint32_t frame) {
  Vec3 eye = cam.position;
  if (cam.orbit) {
    const double cuts = cam.orbit->cut_every ? static_cast<double>(frame / cam.orbit->cut_every) : 0.0;
    const Mat4 r = rotate_axis(cam.orbit->axis,
                               cam.orbit->start_deg + cam.orbit->deg_per_frame * frame + cam.orbit->cut_deg * cuts);
    eye = cam.orbit->center + r.transform_point(cam.position - cam.orbit->center);
  }
  return eye;
}

Mat4 view_matrix(const CameraSpec& cam, uint32_t frame) { return look_at(camera_eye(cam, frame), cam.look_at, cam.up); }

Mat4 projection_matrix(const CameraSpec& cam, uint32_t width, uint32_t height) {
  return perspective(cam.fov_y_deg, static_cast<double>(width) / height, cam.near, cam.far);
}

Mat4 model_matrix(const DrawSpec& d, uint32_t frame) {
  const Vec3 rot = d.rotation_deg + d.spin_deg_per_frame * frame;
  const Vec3 pos = d.position + d.velocity_per_frame * frame;
  return translate(pos) * rotate_z(rot.z) * rotate_y(rot.y) * rotate_x(rot.x) * scale(d.scale);
}

FramePlan plan_frame(const LoadedScene& ls, uint32_t frame) {
  const Scene& sc = ls.scene;
  FramePlan plan;
  plan.frame = frame;
  for (const PassSpec& ps : sc.passes) {
    PassPlan pp;
    pp.spec = &ps;
    if (ps.target == kScreenTarget) {
      pp.width = sc.width;
      pp.height = sc.height;
    } else {
      pp.width = sc.targets.at(ps.target).width;
      pp.height = sc.targets.at(ps.target).height;
    }
    const CameraSpec& cam = ps.camera ? *ps.camera : sc.camera;
    const Mat4 vp = projection_matrix(cam, pp.width, pp.height) * view_matrix(cam, frame);
    const double gx = kGuardBandPx / (pp.width / 2.0), gy = kGuardBandPx / (pp.height / 2.0);
    for (std::size_t k = 0; k < ps.draws.size(); ++k) {
      const DrawSpec& ds = ps.draws[k];
      const Mesh& mesh = ls.meshes.at(ds.mesh);
      const Mat4 model = model_matrix(ds, frame);
      const Mat4 mvp = vp * model;
      ScreenDraw out;
      out.label = fmt::format("{}.draws[{}] ({})", ps.name, k, ds.mesh);
      out.loc = ds.loc;
      out.texture = ds.texture;
      out.texture_is_target = ds.texture_is_target;
      out.cull = ds.cull ? *ds.cull : ps.cull;

      std::vector<ClipVertex> cv(mesh.positions.size());
      for (std::size_t i = 0; i < cv.size(); ++i) {
        const Vec3& p = mesh.positions[i];
        cv[i].pos = mvp * Vec4{p.x, p.y, p.z, 1.0};
        Vec4 c = i < mesh.colors.size() ? mesh.colors[i] : Vec4{1, 1, 1, 1};
        c = {c.x * ds.color.x, c.y * ds.color.y, c.z * ds.color.z, c.w * ds.color.w};
        if (sc.light && ds.lit && i < mesh.normals.size()) {
          const Vec3 n = model.transform_normal(mesh.normals[i]);
          const double k_diffuse = std::max(0.0, -dot(n, sc.light->direction));
          const double l = sc.light->ambient + (1.0 - sc.light->ambient) * k_diffuse;
          c = {c.x * l, c.y * l, c.z * l, c.w};
        }
        cv[i].color = c;
        cv[i].uv = i < mesh.uvs.size() ? mesh.uvs[i] : Vec2{};
      }
      // Original vertices are emitted once, on first use; clip-generated ones per polygon.
      std::unordered_map<uint32_t, uint32_t> remap;
      auto emit_orig = [&](uint32_t i) {
        auto [it, fresh] = remap.try_emplace(i, static_cast<uint32_t>(out.vertices.size()));
        if (fresh) out.vertices.push_back(to_screen(cv[i], pp.width, pp.height));
        return it->second;
      };
      if (mesh.patch_size) {
        // Patches: sent whole with their control points, or rejected whole (ClipStats).
        PatchPlan patch;
        patch.control_points = mesh.patch_size;
        const Vec3 eye = camera_eye(cam, frame);
        const unsigned ncp = mesh.patch_size;
        for (std::size_t p = 0; p + ncp <= mesh.indices.size(); p += ncp) {
          ++out.stats.patches_in;
          bool inside = true;
          Vec3 centre{};
          for (unsigned c = 0; c < ncp; ++c) {
            const uint32_t i = mesh.indices[p + c];
            centre = centre + mesh.positions[i];
            for (int plane = 0; plane < 6; ++plane) inside = inside && plane_dist(cv[i].pos, plane, gx, gy) >= 0;
          }
          if (!inside) {
            ++out.stats.patches_rejected;
            continue;
          }
          ++out.stats.patches_out;
          const Vec3 world = model.transform_point(centre * (1.0 / ncp));
          patch.factors.push_back(tess_factor(ds.tess.value_or(TessSpec{}), length(world - eye)));
          for (unsigned c = 0; c < ncp; ++c) out.indices.push_back(emit_orig(mesh.indices[p + c]));
        }
        out.patch = std::move(patch);
        pp.draws.push_back(std::move(out));
        continue;
      }
      for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        const uint32_t ia = mesh.indices[t], ib = mesh.indices[t + 1], ic = mesh.indices[t + 2];
        ++out.stats.triangles_in;
        bool inside = true, outside = false;
        for (int plane = 0; plane < 6; ++plane) {
          const double da = plane_dist(cv[ia].pos, plane, gx, gy), db = plane_dist(cv[ib].pos, plane, gx, gy),
                       dc = plane_dist(cv[ic].pos, plane, gx, gy);
          if (da < 0 || db < 0 || dc < 0) inside = false;
          if (da < 0 && db < 0 && dc < 0) outside = true;
        }
        if (outside) {
          ++out.stats.rejected;
          continue;
        }
        if (inside) {
          out.indices.insert(out.indices.end(), {emit_orig(ia), emit_orig(ib), emit_orig(ic)});
          ++out.stats.triangles_out;
          continue;
        }
        const std::vector<ClipVertex> poly = clip_triangle(cv[ia], cv[ib], cv[ic], gx, gy);
        if (poly.size() < 3) {
          ++out.stats.rejected;
          continue;
        }
        ++out.stats.clipped;
        const auto base = static_cast<uint32_t>(out.vertices.size());
        for (const ClipVertex& v : poly) out.vertices.push_back(to_screen(v, pp.width, pp.height));
        for (uint32_t i = 1; i + 1 < poly.size(); ++i) {
          out.indices.insert(out.indices.end(), {base, base + i, base + i + 1});
          ++out.stats.triangles_out;
        }
      }
      pp.draws.push_back(std::move(out));
    }
    plan.passes.push_back(std::move(pp));
  }
  return plan;
}

}  // namespace tessera::sim
