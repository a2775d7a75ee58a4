// gpulab::matmul's contract, through the host implementations every build has: shapes, spaces, impl
// selection, M/N/K = 0, beta = 0 never reading C. Each implementation's own accuracy tests live beside it.
#include <gpulab/array.hpp>
#include <gpulab/error.hpp>
#include <gpulab/matmul.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "test_support.hpp"

namespace {

using gpulab::HostArray;
using gpulab::matrix_view;

std::vector<double> reference(const std::vector<float>& a, const std::vector<float>& b, int m, int n, int k) {
  std::vector<double> c(static_cast<std::size_t>(m) * n, 0.0);
  for (int i = 0; i < m; ++i)
    for (int p = 0; p < k; ++p)
      for (int j = 0; j < n; ++j) c[i * n + j] += static_cast<double>(a[i * k + p]) * b[p * n + j];
  return c;
}

TEST(MatmulApi, CpuNaiveMatchesFloat64OnShapesThatAreNotTiles) {
  const auto seed = gpulab::testing::fresh_seed();
  for (auto [m, n, k] : {std::array{1, 1, 1}, {2, 3, 5}, {17, 31, 33}, {127, 129, 61}, {131, 7, 2}}) {
    auto a = gpulab::testing::random_vector<float>(static_cast<std::size_t>(m) * k, seed + 1);
    auto b = gpulab::testing::random_vector<float>(static_cast<std::size_t>(k) * n, seed + 2);
    std::vector<float> c(static_cast<std::size_t>(m) * n);
    gpulab::testing::poison(std::span<float>(c));
    const std::string used = gpulab::matmul<float>(matrix_view<const float>(a.data(), m, k, k),
                                                   matrix_view<const float>(b.data(), k, n, n),
                                                   matrix_view<float>(c.data(), m, n, n), 1.0f, 0.0f,
                                                   {.impl = "cpu-naive"});
    EXPECT_EQ(used, "cpu-naive");
    const double err = gpulab::testing::rel_frobenius_error(reference(a, b, m, n, k), c);
    EXPECT_LT(err, 1e-5 * std::sqrt(static_cast<double>(k)) + 1e-6) << m << "x" << n << "x" << k << " seed " << seed;
  }
}

TEST(MatmulApi, BetaZeroNeverReadsC) {
  std::vector<float> a{1, 2, 3, 4}, b{5, 6, 7, 8};
  std::vector<float> c(4, std::numeric_limits<float>::quiet_NaN());
  gpulab::matmul<float>(matrix_view<const float>(a.data(), 2, 2, 2), matrix_view<const float>(b.data(), 2, 2, 2),
                        matrix_view<float>(c.data(), 2, 2, 2), 1.0f, 0.0f, {.impl = "cpu-naive"});
  EXPECT_EQ(c, (std::vector<float>{19, 22, 43, 50}));
}

TEST(MatmulApi, AlphaBetaAndKZero) {
  std::vector<double> a{1, 2}, b{3, 4};  // 1x2 times 2x1
  std::vector<double> c{10};
  gpulab::matmul<double>(matrix_view<const double>(a.data(), 1, 2, 2), matrix_view<const double>(b.data(), 2, 1, 1),
                         matrix_view<double>(c.data(), 1, 1, 1), 2.0, 0.5, {.impl = "cpu-naive"});
  EXPECT_EQ(c[0], 2.0 * 11 + 5);
  // K = 0: C = beta * C.
  std::vector<double> c2{4, 6};
  gpulab::matmul<double>(matrix_view<const double>(a.data(), 2, 0, 1), matrix_view<const double>(b.data(), 0, 1, 1),
                         matrix_view<double>(c2.data(), 2, 1, 1), 1.0, 0.5, {.impl = "cpu-naive"});
  EXPECT_EQ(c2, (std::vector<double>{2, 3}));
}

TEST(MatmulApi, TransposedViewsNeedNoCopy) {
  // A is stored as its transpose (3x2 row-major), used as 2x3.
  std::vector<std::int32_t> at{1, 4, 2, 5, 3, 6}, b{1, 0, 0, 1, 1, 1};
  std::vector<std::int32_t> c(4, -999);
  const matrix_view<const std::int32_t> a = matrix_view<const std::int32_t>(at.data(), 3, 2, 2).transposed();
  gpulab::matmul<std::int32_t>(a, matrix_view<const std::int32_t>(b.data(), 3, 2, 2),
                               matrix_view<std::int32_t>(c.data(), 2, 2, 2), 1, 0, {.impl = "cpu-naive"});
  EXPECT_EQ(c, (std::vector<std::int32_t>{4, 5, 10, 11}));
}

TEST(MatmulApi, ShapesThatDoNotChainAreNamed) {
  std::vector<float> a(6), b(8), c(8);
  try {
    gpulab::matmul<float>(matrix_view<const float>(a.data(), 2, 3, 3), matrix_view<const float>(b.data(), 4, 2, 2),
                          matrix_view<float>(c.data(), 2, 2, 2));
    FAIL();
  } catch (const gpulab::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("A is 2x3"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("B is 4x2"), std::string::npos) << e.what();
  }
}

TEST(MatmulApi, OperandsInDifferentSpacesAreRefused) {
  std::vector<float> a(4), b(4), c(4);
  const gpulab::MemorySpace sim{gpulab::DeviceKind::sim, 0};
  try {
    gpulab::matmul<float>(matrix_view<const float>(a.data(), 2, 2, 2), matrix_view<const float>(b.data(), 2, 2, 2, sim),
                          matrix_view<float>(c.data(), 2, 2, 2));
    FAIL();
  } catch (const gpulab::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("different memory spaces"), std::string::npos) << e.what();
  }
}

TEST(MatmulApi, UnknownOrUnfitImplementationsAreRefusedWithTheReason) {
  std::vector<float> a(4), b(4), c(4);
  try {
    gpulab::matmul<float>(matrix_view<const float>(a.data(), 2, 2, 2), matrix_view<const float>(b.data(), 2, 2, 2),
                          matrix_view<float>(c.data(), 2, 2, 2), 1.0f, 0.0f, {.impl = "no-such-impl"});
    FAIL();
  } catch (const gpulab::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("cpu-naive"), std::string::npos) << e.what();  // lists the known ones
  }
}

TEST(MatmulApi, AutoPicksAHostImplementationForHostMemoryAndSaysWhich) {
  const auto seed = gpulab::testing::fresh_seed();
  auto a = gpulab::testing::random_vector<float>(33 * 17, seed);
  auto b = gpulab::testing::random_vector<float>(17 * 9, seed + 1);
  std::vector<float> c(33 * 9);
  const std::string used = gpulab::matmul<float>(matrix_view<const float>(a.data(), 33, 17, 17),
                                                 matrix_view<const float>(b.data(), 17, 9, 9),
                                                 matrix_view<float>(c.data(), 33, 9, 9));
  const gpulab::MatmulImpl* impl = gpulab::find_matmul(used);
  ASSERT_NE(impl, nullptr) << used;
  EXPECT_TRUE(impl->runs_on(gpulab::DeviceKind::host));
  EXPECT_LT(gpulab::testing::rel_frobenius_error(reference(a, b, 33, 9, 17), c), 1e-5);
}

TEST(MatmulApi, RegistryListsTheBaselineFirst) {
  const auto impls = gpulab::matmul_impls();
  ASSERT_FALSE(impls.empty());
  EXPECT_EQ(impls.front()->name, "cpu-naive");
  gpulab::MatmulProblem p;
  p.m = p.n = p.k = 8;
  p.space = {gpulab::DeviceKind::cuda, 0};
  EXPECT_NE(impls.front()->why_not(p).find("runs on cpu"), std::string::npos) << impls.front()->why_not(p);
}

// The bench's tolerance follows the registry's flag, not the name: only the TF32 peer carries it, and
// `auto` never picks it. The registration exists whenever the CUDA backend is built, GPU or not.
#if GPULAB_HAVE_CUDA
TEST(MatmulApi, OnlyTheTf32PeerRoundsFloat32ToTf32) {
  for (const gpulab::MatmulImpl* impl : gpulab::matmul_impls()) {
    EXPECT_EQ(impl->float32_as_tf32, impl->name == "cublas-tf32") << impl->name;
    if (impl->float32_as_tf32) {
      EXPECT_FALSE(impl->automatic) << impl->name;
    }
  }
  EXPECT_NE(gpulab::find_matmul("cublas-tf32"), nullptr);
}
#endif

}  // namespace
