// The verifier: it passes correct products, catches corrupted ones (a wrong entry, a NaN, a wrong row
// mapping like the guide's shared-memory kernel), and Freivalds' estimate agrees with the full
// reference.
#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <gpulab/array.hpp>
#include <gpulab/bench/verify.hpp>

#include "test_support.hpp"

namespace {

using gpulab::HostArray;
using gpulab::bench::ComputeType;
using gpulab::bench::MatmulReference;
using gpulab::bench::VerifyOptions;

template <class T>
HostArray<T, 2> random_matrix(int rows, int cols, std::uint64_t seed) {
  HostArray<T, 2> m(rows, cols);
  if constexpr (std::is_integral_v<T>) {
    const auto v = gpulab::testing::random_int_vector(static_cast<std::size_t>(m.size()), seed);
    std::copy(v.begin(), v.end(), m.begin());
  } else {
    const auto v = gpulab::testing::random_vector<T>(static_cast<std::size_t>(m.size()), seed);
    std::copy(v.begin(), v.end(), m.begin());
  }
  return m;
}

// C = A * B in T, the straightforward way: what an implementation with the right answer returns.
template <class T>
HostArray<T, 2> product(const HostArray<T, 2>& a, const HostArray<T, 2>& b) {
  HostArray<T, 2> c(a.rows(), b.cols());
  for (gpulab::index_t i = 0; i < a.rows(); ++i) {
    for (gpulab::index_t j = 0; j < b.cols(); ++j) {
      T s{0};
      for (gpulab::index_t p = 0; p < a.cols(); ++p) s += a(i, p) * b(p, j);
      c(i, j) = s;
    }
  }
  return c;
}

VerifyOptions full_options() {
  VerifyOptions o;
  o.full_reference_limit = std::int64_t{1} << 40;
  return o;
}
VerifyOptions freivalds_options() {
  VerifyOptions o;
  o.full_reference_limit = 0;
  return o;
}

struct Shape {
  int m, n, k;
};
const Shape shapes[] = {{1, 1, 1}, {17, 31, 33}, {129, 127, 131}, {64, 2, 200}};

TEST(Verify, ToleranceFollowsComputeTypeAndK) {
  using gpulab::bench::matmul_tolerance;
  EXPECT_DOUBLE_EQ(matmul_tolerance(ComputeType::float32, 1024), 4.0 * 0x1p-24 * 32);
  EXPECT_DOUBLE_EQ(matmul_tolerance(ComputeType::float64, 16), 4.0 * 0x1p-53 * 4);
  EXPECT_DOUBLE_EQ(matmul_tolerance(ComputeType::tf32, 4), 4.0 * 0x1p-11 * 2);
  EXPECT_EQ(matmul_tolerance(ComputeType::int32, 1000), 0.0);
}

TEST(Verify, CorrectProductsPassBothMethods) {
  const std::uint64_t seed = gpulab::testing::fresh_seed();
  SCOPED_TRACE(seed);
  for (const Shape s : shapes) {
    const auto a = random_matrix<float>(s.m, s.k, seed);
    const auto b = random_matrix<float>(s.k, s.n, seed + 1);
    const auto c = product(a, b);
    for (const VerifyOptions& o : {full_options(), freivalds_options()}) {
      const MatmulReference<float> ref(a.cview(), b.cview(), o);
      const auto v = ref.check(c.cview(), ComputeType::float32);
      EXPECT_TRUE(v.passed) << v.method << " " << s.m << "x" << s.n << "x" << s.k << ": " << v.rel_error << " > "
                            << v.tolerance;
      EXPECT_GT(v.tolerance, 0);
    }
  }
}

TEST(Verify, CatchesACorruptedProduct) {
  const std::uint64_t seed = gpulab::testing::fresh_seed();
  SCOPED_TRACE(seed);
  const int m = 67, n = 45, k = 89;
  const auto a = random_matrix<float>(m, k, seed);
  const auto b = random_matrix<float>(k, n, seed + 1);
  for (const VerifyOptions& o : {full_options(), freivalds_options()}) {
    const MatmulReference<float> ref(a.cview(), b.cview(), o);
    SCOPED_TRACE(ref.full() ? "full" : "freivalds");
    // One entry off by the size of a typical entry.
    auto c = product(a, b);
    c(13, 29) += 3.0f;
    EXPECT_FALSE(ref.check(c.cview(), ComputeType::float32).passed);
    // A NaN: an entry never written.
    c = product(a, b);
    c(m - 1, n - 1) = std::nanf("");
    const auto v = ref.check(c.cview(), ComputeType::float32);
    EXPECT_FALSE(v.passed);
    EXPECT_TRUE(std::isinf(v.rel_error));
    // Every entry a little off, well above float32 rounding.
    c = product(a, b);
    for (float& x : c) x *= 1.0f + 1e-4f;
    EXPECT_FALSE(ref.check(c.cview(), ComputeType::float32).passed);
    // Rows swapped: the kind of mistake the guide's shared-memory kernel makes.
    c = product(a, b);
    for (int j = 0; j < n; ++j) std::swap(c(0, j), c(1, j));
    EXPECT_FALSE(ref.check(c.cview(), ComputeType::float32).passed);
  }
}

TEST(Verify, FreivaldsEstimateAgreesWithFullReference) {
  const std::uint64_t seed = gpulab::testing::fresh_seed();
  SCOPED_TRACE(seed);
  const int m = 96, n = 80, k = 120;
  const auto a = random_matrix<double>(m, k, seed);
  const auto b = random_matrix<double>(k, n, seed + 1);
  const MatmulReference<double> full(a.cview(), b.cview(), full_options());
  VerifyOptions fo = freivalds_options();
  fo.freivalds_vectors = 16;
  const MatmulReference<double> freivalds(a.cview(), b.cview(), fo);
  ASSERT_TRUE(full.full());
  ASSERT_FALSE(freivalds.full());
  // A dense relative perturbation of known size.
  auto c = product(a, b);
  const auto noise = gpulab::testing::random_vector<double>(static_cast<std::size_t>(c.size()), seed + 2);
  for (std::size_t i = 0; i < noise.size(); ++i) c.data()[i] *= 1.0 + 1e-6 * noise[i];
  const double exact = full.check(c.cview(), ComputeType::float64).rel_error;
  const double estimate = freivalds.check(c.cview(), ComputeType::float64).rel_error;
  EXPECT_GT(exact, 1e-7);
  EXPECT_GT(estimate, exact / 3);
  EXPECT_LT(estimate, exact * 3);
  // Both see a correct product as correct.
  const auto good = product(a, b);
  EXPECT_TRUE(full.check(good.cview(), ComputeType::float64).passed);
  EXPECT_TRUE(freivalds.check(good.cview(), ComputeType::float64).passed);
}

TEST(Verify, Int32IsExact) {
  const std::uint64_t seed = gpulab::testing::fresh_seed();
  SCOPED_TRACE(seed);
  const auto a = random_matrix<std::int32_t>(33, 129, seed);
  const auto b = random_matrix<std::int32_t>(129, 17, seed + 1);
  for (const VerifyOptions& o : {full_options(), freivalds_options()}) {
    const MatmulReference<std::int32_t> ref(a.cview(), b.cview(), o);
    auto c = product(a, b);
    EXPECT_TRUE(ref.check(c.cview(), ComputeType::int32).passed);
    c(5, 7) += 1;  // off by one anywhere fails
    const auto v = ref.check(c.cview(), ComputeType::int32);
    EXPECT_FALSE(v.passed) << v.method;
    EXPECT_GT(v.rel_error, 0);
  }
}

TEST(Verify, RefusesMismatchedShapes) {
  const auto a = random_matrix<float>(4, 5, 1);
  const auto b = random_matrix<float>(6, 3, 2);
  EXPECT_THROW(MatmulReference<float>(a.cview(), b.cview()), gpulab::InvalidArgument);
  const auto b2 = random_matrix<float>(5, 3, 2);
  const MatmulReference<float> ref(a.cview(), b2.cview());
  const auto wrong = random_matrix<float>(3, 4, 3);
  EXPECT_THROW(ref.check(wrong.cview(), ComputeType::float32), gpulab::InvalidArgument);
}

}  // namespace
