#pragma once
// One GPU-matmul check, shared by the simulator and CUDA test binaries: fresh random operands laid out
// in device buffers with any leading dimension and base offset (the padding random too, so reading it
// shows), C poisoned (NaN, or INT_MIN for int32) when beta = 0, the product through gpulab::matmul with
// the implementation named, then the result against a float64 reference and the padding of C checked
// untouched.
#include <gpulab/array.hpp>
#include <gpulab/device.hpp>
#include <gpulab/matmul.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "test_support.hpp"

namespace gpulab::testing {

struct MatmulCase {
  int m = 1, n = 1, k = 1;
  int pad_a = 0, pad_b = 0, pad_c = 0;  // leading dimension = columns + pad
  int offset = 0;                       // elements before each operand's first one (misaligns the base)
  bool transpose_a = false, transpose_b = false;  // operand stored as its transpose, passed as .transposed()
  double alpha = 1.0, beta = 0.0;

  std::string describe() const {
    std::ostringstream s;
    s << m << "x" << n << "x" << k;
    if (pad_a || pad_b || pad_c) s << " pads " << pad_a << "/" << pad_b << "/" << pad_c;
    if (offset) s << " offset " << offset;
    if (transpose_a) s << " A^T";
    if (transpose_b) s << " B^T";
    if (alpha != 1.0 || beta != 0.0) s << " alpha " << alpha << " beta " << beta;
    return s.str();
  }
};

// The bound for float32 products of random [-1, 1) inputs (issue 6: 1e-5 for K <= 4096); float64 has
// its own, 29 bits tighter.
template <class T>
double matmul_tolerance() {
  return std::is_same_v<T, float> ? 1e-5 : 1e-13;
}

template <class T>
std::vector<T> random_values(std::size_t count, std::uint64_t seed) {
  if constexpr (std::is_same_v<T, std::int32_t>) {
    return random_int_vector(count, seed, 8);
  } else {
    return random_vector<T>(count, seed);
  }
}

template <class T>
T poison_value() {
  std::vector<T> one(1);
  poison(std::span<T>(one));
  return one[0];
}

// Stored rows x cols (row-major) with leading dimension ld, starting `offset` elements in.
struct Layout2d {
  int rows, cols;
  index_t ld;
  int offset;
  std::size_t elements() const { return static_cast<std::size_t>(offset) + static_cast<std::size_t>(rows) * ld; }
};

// Runs `impl` on `device` for `c` and checks the result; failures are reported with the seed. A
// tolerance of 0 means the dtype's own (matmul_tolerance); int32 is always exact.
template <class T>
void check_matmul_case(const std::string& impl, const Device& device, const MatmulCase& c, double tolerance = 0) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(impl + " " + to_string(dtype_of<T>()) + " on " + device.id() + ", " + c.describe() + ", seed " +
               std::to_string(seed));
  // Stored shapes: a transposed operand is stored as K x M (A) or N x K (B).
  const int a_rows = c.transpose_a ? c.k : c.m, a_cols = c.transpose_a ? c.m : c.k;
  const int b_rows = c.transpose_b ? c.n : c.k, b_cols = c.transpose_b ? c.k : c.n;
  const Layout2d la_{a_rows, a_cols, static_cast<index_t>(a_cols + c.pad_a), c.offset};
  const Layout2d lb_{b_rows, b_cols, static_cast<index_t>(b_cols + c.pad_b), c.offset};
  const Layout2d lc{c.m, c.n, static_cast<index_t>(c.n + c.pad_c), c.offset};

  std::vector<T> a = random_values<T>(la_.elements(), seed + 1);
  std::vector<T> b = random_values<T>(lb_.elements(), seed + 2);
  std::vector<T> c0 = random_values<T>(lc.elements(), seed + 3);
  if (c.beta == 0.0) poison(std::span<T>(c0));  // must not be read, must be overwritten

  auto da = to_device(device, std::span<const T>(a));
  auto db = to_device(device, std::span<const T>(b));
  auto dc = to_device(device, std::span<const T>(c0));
  const MemorySpace space = device.space();
  matrix_view<const T> va(da.data() + la_.offset, la_.rows, la_.cols, la_.ld, space);
  matrix_view<const T> vb(db.data() + lb_.offset, lb_.rows, lb_.cols, lb_.ld, space);
  if (c.transpose_a) va = va.transposed();
  if (c.transpose_b) vb = vb.transposed();
  const matrix_view<T> vc(dc.data() + lc.offset, c.m, c.n, lc.ld, space);
  ASSERT_EQ(va.rows(), c.m);
  ASSERT_EQ(va.cols(), c.k);
  ASSERT_EQ(vb.rows(), c.k);
  ASSERT_EQ(vb.cols(), c.n);

  const std::string used =
      matmul<T>(va, vb, vc, static_cast<T>(c.alpha), static_cast<T>(c.beta), MatmulOptions{.impl = impl});
  EXPECT_EQ(used, impl);
  std::vector<T> out(lc.elements());
  dc.copy_to_host(std::span<T>(out));

  // The float64 reference, on the host copies of the operands.
  auto a_at = [&](int i, int p) {
    return static_cast<double>(c.transpose_a ? a[la_.offset + p * la_.ld + i] : a[la_.offset + i * la_.ld + p]);
  };
  auto b_at = [&](int p, int j) {
    return static_cast<double>(c.transpose_b ? b[lb_.offset + j * lb_.ld + p] : b[lb_.offset + p * lb_.ld + j]);
  };
  std::vector<double> ref(static_cast<std::size_t>(c.m) * c.n);
  std::vector<T> got(ref.size());
  for (int i = 0; i < c.m; ++i) {
    for (int j = 0; j < c.n; ++j) {
      double sum = 0;
      for (int p = 0; p < c.k; ++p) sum += a_at(i, p) * b_at(p, j);
      double r = c.alpha * sum;
      if (c.beta != 0.0) r += c.beta * static_cast<double>(c0[lc.offset + i * lc.ld + j]);
      ref[static_cast<std::size_t>(i) * c.n + j] = r;
      got[static_cast<std::size_t>(i) * c.n + j] = out[lc.offset + i * lc.ld + j];
    }
  }
  if constexpr (std::is_same_v<T, std::int32_t>) {
    int wrong = 0;
    for (std::size_t e = 0; e < ref.size(); ++e) {
      if (static_cast<double>(got[e]) != ref[e]) {
        if (wrong < 3) ADD_FAILURE() << "element " << e / c.n << "," << e % c.n << ": " << got[e] << " != " << ref[e];
        ++wrong;
      }
    }
    EXPECT_EQ(wrong, 0) << "int32 must be exact";
  } else {
    const double err = rel_frobenius_error(ref, std::span<const T>(got));
    EXPECT_LE(err, tolerance > 0 ? tolerance : matmul_tolerance<T>()) << "relative Frobenius error";
  }

  // Nothing outside C's elements was written: the offset and the padding keep their values.
  int touched = 0;
  for (std::size_t e = 0; e < out.size(); ++e) {
    const bool inside = e >= static_cast<std::size_t>(lc.offset) &&
                        static_cast<index_t>(e - lc.offset) % lc.ld < c.n;
    if (inside) continue;
    const bool same = std::is_floating_point_v<T> && std::isnan(static_cast<double>(c0[e]))
                          ? std::isnan(static_cast<double>(out[e]))
                          : out[e] == c0[e];
    if (!same) ++touched;
  }
  EXPECT_EQ(touched, 0) << "elements outside C (padding or before its start) were written";
}

// The shapes every rung is checked on: 1, 2, 17, 31, 33, 127, 129, primes, non-square, up to a few
// hundred; leading dimensions equal to the columns (so most are not 16-byte multiples).
inline std::vector<MatmulCase> edge_shape_cases() {
  std::vector<MatmulCase> cases;
  for (auto [m, n, k] : std::vector<std::array<int, 3>>{{1, 1, 1},     {2, 2, 2},     {1, 7, 3},     {5, 1, 9},
                                                        {17, 17, 17},  {31, 33, 29},  {33, 31, 37},  {127, 129, 131},
                                                        {129, 127, 61}, {131, 2, 257}, {1, 139, 149}, {211, 97, 151},
                                                        {257, 263, 67}, {300, 200, 383}}) {
    cases.push_back(MatmulCase{.m = m, .n = n, .k = k});
  }
  return cases;
}

// Shapes whose leading dimensions are 16-byte multiples, so interior tiles take the vector paths, mixed
// with partial edge tiles; and the same with beta != 0 (the vector epilogue reading C).
inline std::vector<MatmulCase> aligned_cases() {
  return {MatmulCase{.m = 256, .n = 256, .k = 64},
          MatmulCase{.m = 200, .n = 132, .k = 100},
          MatmulCase{.m = 260, .n = 136, .k = 72, .alpha = 2.0, .beta = -1.0},
          MatmulCase{.m = 128, .n = 256, .k = 48, .pad_a = 4, .pad_b = 8, .pad_c = 4, .beta = 2.0}};
}

// Unaligned leading dimensions and base pointers, alpha and beta, K = 0. (alpha and beta are integers
// so that int32 takes the same cases.)
inline std::vector<MatmulCase> layout_cases() {
  return {MatmulCase{.m = 67, .n = 131, .k = 45, .pad_a = 1, .pad_b = 3, .pad_c = 2, .offset = 1},
          MatmulCase{.m = 140, .n = 140, .k = 40, .pad_a = 4, .pad_b = 4, .pad_c = 4, .offset = 2, .alpha = -2.0},
          MatmulCase{.m = 33, .n = 65, .k = 17, .pad_c = 5, .alpha = -1.0, .beta = 2.0},
          MatmulCase{.m = 19, .n = 23, .k = 0, .alpha = 1.0, .beta = 3.0},
          MatmulCase{.m = 19, .n = 23, .k = 0, .alpha = 1.0, .beta = 0.0}};
}

}  // namespace gpulab::testing
