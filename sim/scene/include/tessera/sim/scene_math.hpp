// Small vector and matrix types for the host-side transform of tessera-sim scenes
// (docs/tessera-sim.md "From the scene to the screen"). Column vectors: p' = M * p; m[row][col].
#pragma once

#include <array>
#include <cmath>

namespace tessera::sim {

struct Vec2 {
  double x = 0, y = 0;
};
struct Vec3 {
  double x = 0, y = 0, z = 0;
  Vec3 operator+(const Vec3& o) const { return {x + o.x, y + o.y, z + o.z}; }
  Vec3 operator-(const Vec3& o) const { return {x - o.x, y - o.y, z - o.z}; }
  Vec3 operator*(double s) const { return {x * s, y * s, z * s}; }
  bool operator==(const Vec3&) const = default;
};
struct Vec4 {
  double x = 0, y = 0, z = 0, w = 0;
  Vec4 operator+(const Vec4& o) const { return {x + o.x, y + o.y, z + o.z, w + o.w}; }
  Vec4 operator-(const Vec4& o) const { return {x - o.x, y - o.y, z - o.z, w - o.w}; }
  Vec4 operator*(double s) const { return {x * s, y * s, z * s, w * s}; }
  bool operator==(const Vec4&) const = default;
};

inline double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline double length(const Vec3& a) { return std::sqrt(dot(a, a)); }
inline Vec3 normalize(const Vec3& a) {
  const double l = length(a);
  return l > 0 ? a * (1.0 / l) : Vec3{};
}

struct Mat4 {
  std::array<std::array<double, 4>, 4> m{};
  static Mat4 identity();
  Mat4 operator*(const Mat4& o) const;
  Vec4 operator*(const Vec4& v) const;
  Vec3 transform_point(const Vec3& p) const;  // w = 1, no divide
  // Normals: the inverse transpose of the upper 3x3, renormalised.
  Vec3 transform_normal(const Vec3& n) const;
};

inline constexpr double kPi = 3.14159265358979323846;
inline double radians(double deg) { return deg * kPi / 180.0; }

Mat4 translate(const Vec3& t);
Mat4 scale(const Vec3& s);
Mat4 rotate_x(double deg);
Mat4 rotate_y(double deg);
Mat4 rotate_z(double deg);
// Rotation about an arbitrary unit axis (right-handed, counter-clockwise looking down the axis).
Mat4 rotate_axis(const Vec3& axis, double deg);
// Right-handed view: the camera at eye looks at target, +y of the image is `up`.
Mat4 look_at(const Vec3& eye, const Vec3& target, const Vec3& up);
// Right-handed perspective, depth mapped to [0, 1] (z_clip in [0, w]): near -> 0, far -> 1.
Mat4 perspective(double fov_y_deg, double aspect, double near, double far);

}  // namespace tessera::sim
