#pragma once
// Operands for the CPU GEMM tests: matrices stored in either layout with padding beyond the leading
// dimension, a float64 (or wrapping int64) reference, and the checks every test shares.
#include <algorithm>
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

// The expected C and the scale its rounding error is measured against. A K-term dot product's
// rounding errors, of random sign, grow like sqrt(K) times the root-sum-square of its terms, and the
// beta term adds its own; relative to the result that is about 1 for random operands, but cancellation
// (alpha.a.b close to -beta.c in a 1x1x1 case, say) makes the result small and the relative error large
// in a correct GEMM. So `magnitude` is |alpha|.sqrt(sum_p (a_ip b_pj)^2) + |beta|.|c_ij|, and the test
// scales its bound by ||magnitude|| / ||result|| when that exceeds 1.
struct Reference {
  std::vector<double> values;
  std::vector<double> magnitude;  // empty for int32, which is compared exactly
};

// alpha * A * B + beta * C0 in float64; int32 in wrapping 32-bit arithmetic, like the kernels. The
// operands are first copied into plain row-major arrays, so the loops stay cheap in Debug builds.
template <class T>
Reference reference_gemm(const TestMatrix<T>& a, const TestMatrix<T>& b, const TestMatrix<T>& c0, T alpha, T beta) {
  const int m = c0.rows, n = c0.cols, k = a.cols;
  constexpr bool exact = std::is_integral_v<T>;
  using Acc = std::conditional_t<exact, std::uint32_t, double>;
  auto dense = [](const TestMatrix<T>& x, auto transform) {
    std::vector<Acc> d(static_cast<std::size_t>(x.rows) * x.cols);
    const matrix_view<const T> v = x.cview();
    for (int i = 0; i < x.rows; ++i) {
      for (int j = 0; j < x.cols; ++j) d[static_cast<std::size_t>(i) * x.cols + j] = transform(static_cast<Acc>(v(i, j)));
    }
    return d;
  };
  // alpha * X * Y + beta * Z, in Acc.
  auto gemm = [&](const std::vector<Acc>& x, const std::vector<Acc>& y, const std::vector<Acc>& z, Acc al, Acc be) {
    std::vector<Acc> sum(static_cast<std::size_t>(m) * n, Acc{0});
    for (int i = 0; i < m; ++i) {
      Acc* row = sum.data() + static_cast<std::size_t>(i) * n;
      for (int p = 0; p < k; ++p) {
        const Acc xv = x[static_cast<std::size_t>(i) * k + p];
        const Acc* yrow = y.data() + static_cast<std::size_t>(p) * n;
        for (int j = 0; j < n; ++j) row[j] += xv * yrow[j];
      }
    }
    for (std::size_t e = 0; e < sum.size(); ++e) {
      sum[e] = al * sum[e];
      if (be != Acc{0}) sum[e] += be * z[e];
    }
    return sum;
  };
  const auto same = [](Acc v) { return v; };
  const std::vector<Acc> c_values = dense(c0, same);
  const std::vector<Acc> exact_sum =
      gemm(dense(a, same), dense(b, same), c_values, static_cast<Acc>(alpha), static_cast<Acc>(beta));
  Reference ref;
  ref.values.resize(exact_sum.size());
  for (std::size_t e = 0; e < exact_sum.size(); ++e) {
    if constexpr (exact) {
      ref.values[e] = static_cast<double>(static_cast<std::int32_t>(exact_sum[e]));
    } else {
      ref.values[e] = exact_sum[e];
    }
  }
  if constexpr (!exact) {
    const auto square = [](Acc v) { return v * v; };
    const std::vector<Acc> zeros(exact_sum.size(), Acc{0});
    ref.magnitude = gemm(dense(a, square), dense(b, square), zeros, Acc{1}, Acc{0});
    for (std::size_t e = 0; e < ref.magnitude.size(); ++e) {
      ref.magnitude[e] = std::abs(static_cast<Acc>(alpha)) * std::sqrt(ref.magnitude[e]);
      // With beta = 0, C0 is never read (it may hold NaN).
      if (beta != T{0}) ref.magnitude[e] += std::abs(static_cast<Acc>(beta)) * std::abs(c_values[e]);
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

// Checks `got` against the reference: exactly for int32, by relative Frobenius error otherwise, with
// error_bound scaled by ||magnitude|| / ||values|| when cancellation makes the result small.
template <class T>
void expect_matches(const Reference& ref, const TestMatrix<T>& got, int k, const std::string& what) {
  const std::vector<T> values = row_major_values(got);
  if constexpr (std::is_integral_v<T>) {
    std::size_t wrong = 0, first = 0;
    for (std::size_t i = 0; i < ref.values.size(); ++i) {
      if (static_cast<double>(values[i]) != ref.values[i] && wrong++ == 0) first = i;
    }
    EXPECT_EQ(wrong, 0u) << what << ": first mismatch at " << first << ": got "
                         << (values.empty() ? 0 : values[first]) << ", want "
                         << (ref.values.empty() ? 0 : ref.values[first]);
  } else {
    const double err = rel_frobenius_error(std::span<const double>(ref.values), std::span<const T>(values));
    double norm = 0, magnitude_norm = 0;
    for (std::size_t i = 0; i < ref.values.size(); ++i) {
      norm += ref.values[i] * ref.values[i];
      magnitude_norm += ref.magnitude[i] * ref.magnitude[i];
    }
    const double condition = norm > 0 ? std::max(1.0, std::sqrt(magnitude_norm / norm)) : 1.0;
    EXPECT_LE(err, error_bound<T>(k) * condition) << what << " (condition " << condition << ")";
  }
  EXPECT_TRUE(got.padding_intact()) << what << ": wrote outside C";
}

}  // namespace gpulab::testing
