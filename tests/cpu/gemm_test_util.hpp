#pragma once
// Operands for the CPU GEMM tests: matrices stored in either layout with padding beyond the leading
// dimension, a float64 (or wrapping int64) reference, and the checks every test shares.
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <gpulab/view.hpp>

#include "test_support.hpp"

namespace gpulab::testing {

// A rows x cols matrix in `layout`, with `pad` extra elements per leading dimension. The padding holds
// a sentinel, so a write outside the view shows.
template <class T>
struct TestMatrix {
  int rows = 0, cols = 0;
  Layout layout = Layout::row_major;
  index_t ld = 0;
  std::vector<T> storage;

  TestMatrix(int r, int c, Layout l, int pad) : rows(r), cols(c), layout(l) {
    ld = (l == Layout::row_major ? c : r) + pad;
    const index_t lines = l == Layout::row_major ? r : c;
    storage.assign(static_cast<std::size_t>(std::max<index_t>(1, lines * ld)), sentinel());
  }
  static T sentinel() { return static_cast<T>(-12345); }
  matrix_view<T> view() { return matrix_view<T>(storage.data(), rows, cols, ld, host_space, layout); }
  matrix_view<const T> cview() const {
    return matrix_view<const T>(storage.data(), rows, cols, ld, host_space, layout);
  }
  T& at(int i, int j) { return view()(i, j); }
  T at(int i, int j) const { return cview()(i, j); }

  void fill_random(std::uint64_t seed) {
    const std::size_t count = static_cast<std::size_t>(rows) * cols;
    std::vector<T> values;
    if constexpr (std::is_integral_v<T>) {
      values = random_int_vector(count, seed);
    } else {
      values = random_vector<T>(count, seed);
    }
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < cols; ++j) at(i, j) = values[static_cast<std::size_t>(i) * cols + j];
    }
  }
  void fill(T value) {
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < cols; ++j) at(i, j) = value;
    }
  }
  // True when every element outside the view still holds the sentinel.
  bool padding_intact() const {
    const index_t lines = layout == Layout::row_major ? rows : cols;
    const index_t used = layout == Layout::row_major ? cols : rows;
    for (index_t line = 0; line < lines; ++line) {
      for (index_t e = used; e < ld; ++e) {
        if (storage[static_cast<std::size_t>(line * ld + e)] != sentinel()) return false;
      }
    }
    return true;
  }
};

// alpha * A * B + beta * C0 in float64; int32 in wrapping 32-bit arithmetic, like the kernels. The
// operands are first copied into plain row-major arrays, so the loops stay cheap in Debug builds.
template <class T>
std::vector<double> reference_gemm(const TestMatrix<T>& a, const TestMatrix<T>& b, const TestMatrix<T>& c0, T alpha,
                                   T beta) {
  const int m = c0.rows, n = c0.cols, k = a.cols;
  using Acc = std::conditional_t<std::is_integral_v<T>, std::uint32_t, double>;
  auto dense = [](const TestMatrix<T>& x) {
    std::vector<Acc> d(static_cast<std::size_t>(x.rows) * x.cols);
    const matrix_view<const T> v = x.cview();
    for (int i = 0; i < x.rows; ++i) {
      for (int j = 0; j < x.cols; ++j) d[static_cast<std::size_t>(i) * x.cols + j] = static_cast<Acc>(v(i, j));
    }
    return d;
  };
  const std::vector<Acc> da = dense(a), db = dense(b), dc = dense(c0);
  std::vector<Acc> sum(static_cast<std::size_t>(m) * n, Acc{0});
  for (int i = 0; i < m; ++i) {
    Acc* row = sum.data() + static_cast<std::size_t>(i) * n;
    for (int p = 0; p < k; ++p) {
      const Acc x = da[static_cast<std::size_t>(i) * k + p];
      const Acc* brow = db.data() + static_cast<std::size_t>(p) * n;
      for (int j = 0; j < n; ++j) row[j] += x * brow[j];
    }
  }
  std::vector<double> ref(sum.size());
  for (std::size_t e = 0; e < ref.size(); ++e) {
    Acc r = static_cast<Acc>(alpha) * sum[e];
    if (beta != T{0}) r += static_cast<Acc>(beta) * dc[e];
    if constexpr (std::is_integral_v<T>) {
      ref[e] = static_cast<double>(static_cast<std::int32_t>(r));
    } else {
      ref[e] = r;
    }
  }
  return ref;
}

template <class T>
std::vector<T> row_major_values(const TestMatrix<T>& c) {
  std::vector<T> v(static_cast<std::size_t>(c.rows) * c.cols);
  for (int i = 0; i < c.rows; ++i) {
    for (int j = 0; j < c.cols; ++j) v[static_cast<std::size_t>(i) * c.cols + j] = c.at(i, j);
  }
  return v;
}

// The bound for a relative Frobenius error of a K-term dot product in T: rounding errors of random
// sign grow like sqrt(K); the factor covers the blocked summation and the beta term.
template <class T>
double error_bound(int k) {
  return 8.0 * std::numeric_limits<T>::epsilon() * (std::sqrt(static_cast<double>(k)) + 1.0);
}

// Checks `got` against the reference: exactly for int32, by relative Frobenius error otherwise.
template <class T>
void expect_matches(const std::vector<double>& ref, const TestMatrix<T>& got, int k, const std::string& what) {
  const std::vector<T> values = row_major_values(got);
  if constexpr (std::is_integral_v<T>) {
    std::size_t wrong = 0, first = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
      if (static_cast<double>(values[i]) != ref[i] && wrong++ == 0) first = i;
    }
    EXPECT_EQ(wrong, 0u) << what << ": first mismatch at " << first << ": got "
                         << (values.empty() ? 0 : values[first]) << ", want " << (ref.empty() ? 0 : ref[first]);
  } else {
    const double err = rel_frobenius_error(std::span<const double>(ref), std::span<const T>(values));
    EXPECT_LE(err, error_bound<T>(k)) << what;
  }
  EXPECT_TRUE(got.padding_intact()) << what << ": wrote outside C";
}

}  // namespace gpulab::testing
