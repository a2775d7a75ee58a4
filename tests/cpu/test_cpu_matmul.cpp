// cpu-packed and the openblas peer through the matmul registry: registration, `auto` on the host, and
// results through matmul() and run_matmul() for every layout.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <gpulab/matmul.hpp>

#include "gemm_test_util.hpp"

namespace gpulab::testing {
namespace {

TEST(CpuMatmulRegistry, CpuPackedIsRegisteredForTheHost) {
  const MatmulImpl* impl = find_matmul("cpu-packed");
  ASSERT_NE(impl, nullptr);
  EXPECT_EQ(impl->family, MatmulFamily::cpu);
  EXPECT_TRUE(impl->runs_on(DeviceKind::host));
  EXPECT_FALSE(impl->runs_on(DeviceKind::cuda));
  EXPECT_EQ(impl->dtypes.size(), 3u);
}

TEST(CpuMatmulRegistry, AutoPicksCpuPackedOnTheHost) {
  std::vector<float> a(6 * 4, 0.5f), b(4 * 5, 2.0f), c(6 * 5, -1.0f);
  const std::string used = matmul<float>(matrix_view<const float>(a.data(), 6, 4, 4),
                                         matrix_view<const float>(b.data(), 4, 5, 5), matrix_view<float>(c.data(), 6, 5, 5));
  EXPECT_EQ(used, "cpu-packed");
  for (float x : c) EXPECT_EQ(x, 4.0f);
}

template <class T>
void check_impl(const std::string& name, Layout la, Layout lb, Layout lc, int threads, int m = 67, int n = 45,
                int k = 131) {
  const std::uint64_t seed = fresh_seed();
  TestMatrix<T> a(m, k, la, 3), b(k, n, lb, 2), c(m, n, lc, 1);
  a.fill_random(seed);
  b.fill_random(seed + 1);
  c.fill_random(seed + 2);
  const T alpha = static_cast<T>(-1.5), beta = static_cast<T>(0.5);
  const Reference ref = reference_gemm(a, b, c, alpha, beta);
  MatmulOptions options;
  options.impl = name;
  options.threads = threads;
  EXPECT_EQ(matmul<T>(a.cview(), b.cview(), c.view(), alpha, beta, options), name);
  expect_matches(ref, c, k, name + " seed " + std::to_string(seed));
}

TEST(CpuMatmulRegistry, CpuPackedThroughMatmulEveryLayout) {
  for (Layout la : {Layout::row_major, Layout::col_major}) {
    for (Layout lb : {Layout::row_major, Layout::col_major}) {
      for (Layout lc : {Layout::row_major, Layout::col_major}) {
        check_impl<float>("cpu-packed", la, lb, lc, 0);
        check_impl<double>("cpu-packed", la, lb, lc, 1);
      }
    }
  }
}

TEST(CpuMatmulRegistry, CpuPackedInt32ThroughRunMatmul) {
  const int m = 33, n = 17, k = 29;
  TestMatrix<std::int32_t> a(m, k, Layout::col_major, 1), b(k, n, Layout::row_major, 0), c(m, n, Layout::row_major, 2);
  a.fill_random(fresh_seed());
  b.fill_random(fresh_seed());
  c.fill_random(fresh_seed());
  const Reference ref = reference_gemm(a, b, c, 2, 3);
  const MatmulImpl* impl = find_matmul("cpu-packed");
  ASSERT_NE(impl, nullptr);
  run_matmul(*impl, AnyMatmulArgs{MatmulArgs<std::int32_t>{a.cview(), b.cview(), c.view(), 2, 3}}, MatmulContext{});
  expect_matches(ref, c, k, "int32");
}

#if defined(GPULAB_HAVE_OPENBLAS)
TEST(OpenblasPeer, IsRegisteredAndRefusesInt32) {
  const MatmulImpl* impl = find_matmul("openblas");
  ASSERT_NE(impl, nullptr);
  EXPECT_EQ(impl->family, MatmulFamily::peer);
  EXPECT_TRUE(impl->runs_on(DeviceKind::host));
  MatmulProblem problem;
  problem.m = problem.n = problem.k = 8;
  problem.lda = problem.ldb = problem.ldc = 8;
  problem.dtype = Dtype::int32;
  const std::string why = impl->why_not(problem);
  EXPECT_NE(why.find("int32"), std::string::npos) << why;
  problem.dtype = Dtype::float64;
  EXPECT_EQ(impl->why_not(problem), "");
}

TEST(OpenblasPeer, EveryLayoutAndThreadCount) {
  for (Layout la : {Layout::row_major, Layout::col_major}) {
    for (Layout lb : {Layout::row_major, Layout::col_major}) {
      for (Layout lc : {Layout::row_major, Layout::col_major}) {
        check_impl<float>("openblas", la, lb, lc, 1);
        check_impl<double>("openblas", la, lb, lc, 0);
      }
    }
  }
}
TEST(OpenblasPeer, RunsAgainOnAllCoresAfterItsWorkersAreParked) {
  const MatmulImpl* impl = find_matmul("openblas");
  ASSERT_NE(impl, nullptr);
  ASSERT_TRUE(impl->after_bench_row);  // bench parks them after the row
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE(round);
    // Large enough for OpenBLAS to split over its workers, which parking ended.
    check_impl<double>("openblas", Layout::row_major, Layout::col_major, Layout::row_major, 0, 331, 293, 307);
    check_impl<float>("openblas", Layout::col_major, Layout::row_major, Layout::row_major, 0, 257, 301, 263);
    impl->after_bench_row();
  }
}
#else
TEST(OpenblasPeer, AbsentWithoutOpenblas) { EXPECT_EQ(find_matmul("openblas"), nullptr); }
#endif

}  // namespace
}  // namespace gpulab::testing
