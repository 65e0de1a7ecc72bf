#include "tessera/sim/scene_math.hpp"

namespace tessera::sim {

Mat4 Mat4::identity() {
  Mat4 r;
  for (int i = 0; i < 4; ++i) r.m[i][i] = 1.0;
  return r;
}

Mat4 Mat4::operator*(const Mat4& o) const {
  Mat4 r;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      double s = 0;
      for (int k = 0; k < 4; ++k) s += m[i][k] * o.m[k][j];
      r.m[i][j] = s;
    }
  return r;
}

Vec4 Mat4::operator*(const Vec4& v) const {
  const double in[4] = {v.x, v.y, v.z, v.w};
  double out[4];
  for (int i = 0; i < 4; ++i) out[i] = m[i][0] * in[0] + m[i][1] * in[1] + m[i][2] * in[2] + m[i][3] * in[3];
  return {out[0], out[1], out[2], out[3]};
}

Vec3 Mat4::transform_point(const Vec3& p) const {
  const Vec4 r = (*this) * Vec4{p.x, p.y, p.z, 1.0};
  return {r.x, r.y, r.z};
}

Vec3 Mat4::transform_normal(const Vec3& n) const {
  // Inverse transpose of the 3x3 block a: (a^-1)^T = cofactor(a) / det(a); the scale does not
  // matter because the result is renormalised.
  const auto& a = m;
  double c[3][3];
  c[0][0] = a[1][1] * a[2][2] - a[1][2] * a[2][1];
  c[0][1] = a[1][2] * a[2][0] - a[1][0] * a[2][2];
  c[0][2] = a[1][0] * a[2][1] - a[1][1] * a[2][0];
  c[1][0] = a[0][2] * a[2][1] - a[0][1] * a[2][2];
  c[1][1] = a[0][0] * a[2][2] - a[0][2] * a[2][0];
  c[1][2] = a[0][1] * a[2][0] - a[0][0] * a[2][1];
  c[2][0] = a[0][1] * a[1][2] - a[0][2] * a[1][1];
  c[2][1] = a[0][2] * a[1][0] - a[0][0] * a[1][2];
  c[2][2] = a[0][0] * a[1][1] - a[0][1] * a[1][0];
  const double det = a[0][0] * c[0][0] + a[0][1] * c[0][1] + a[0][2] * c[0][2];
  Vec3 r{c[0][0] * n.x + c[0][1] * n.y + c[0][2] * n.z, c[1][0] * n.x + c[1][1] * n.y + c[1][2] * n.z,
         c[2][0] * n.x + c[2][1] * n.y + c[2][2] * n.z};
  if (det < 0) r = r * -1.0;
  return normalize(r);
}

Mat4 translate(const Vec3& t) {
  Mat4 r = Mat4::identity();
  r.m[0][3] = t.x;
  r.m[1][3] = t.y;
  r.m[2][3] = t.z;
  return r;
}

Mat4 scale(const Vec3& s) {
  Mat4 r = Mat4::identity();
  r.m[0][0] = s.x;
  r.m[1][1] = s.y;
  r.m[2][2] = s.z;
  return r;
}

Mat4 rotate_x(double deg) { return rotate_axis({1, 0, 0}, deg); }
Mat4 rotate_y(double deg) { return rotate_axis({0, 1, 0}, deg); }
Mat4 rotate_z(double deg) { return rotate_axis({0, 0, 1}, deg); }

Mat4 rotate_axis(const Vec3& axis, double deg) {
  const Vec3 k = normalize(axis);
  const double c = std::cos(radians(deg)), s = std::sin(radians(deg)), t = 1 - c;
  Mat4 r = Mat4::identity();
  r.m[0][0] = t * k.x * k.x + c;
  r.m[0][1] = t * k.x * k.y - s * k.z;
  r.m[0][2] = t * k.x * k.z + s * k.y;
  r.m[1][0] = t * k.x * k.y + s * k.z;
  r.m[1][1] = t * k.y * k.y + c;
  r.m[1][2] = t * k.y * k.z - s * k.x;
  r.m[2][0] = t * k.x * k.z - s * k.y;
  r.m[2][1] = t * k.y * k.z + s * k.x;
  r.m[2][2] = t * k.z * k.z + c;
  return r;
}

Mat4 look_at(const Vec3& eye, const Vec3& target, const Vec3& up) {
  const Vec3 f = normalize(target - eye);
  const Vec3 s = normalize(cross(f, up));
  const Vec3 u = cross(s, f);
  Mat4 r = Mat4::identity();
  r.m[0] = {s.x, s.y, s.z, -dot(s, eye)};
  r.m[1] = {u.x, u.y, u.z, -dot(u, eye)};
  r.m[2] = {-f.x, -f.y, -f.z, dot(f, eye)};
  return r;
}

Mat4 perspective(double fov_y_deg, double aspect, double near, double far) {
  const double f = 1.0 / std::tan(radians(fov_y_deg) / 2.0);
  Mat4 r;
  r.m[0][0] = f / aspect;
  r.m[1][1] = f;
  r.m[2][2] = far / (near - far);
  r.m[2][3] = near * far / (near - far);
  r.m[3][2] = -1.0;
  return r;
}

}  // namespace tessera::sim
