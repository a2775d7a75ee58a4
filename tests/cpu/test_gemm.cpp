// gpulab::cpu::gemm, the `cpu-packed` matmul, on every ISA path this CPU supports: shapes that are not
// multiples of any tile, strides, both layouts of every operand, alpha/beta, the beta = 0 and K = 0
// rules, NaN/Inf propagation, small block sizes that exercise every loop, threads, and bad input.
#include <gpulab/cpu/gemm.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <gpulab/error.hpp>

#include "gemm_test_util.hpp"

namespace gpulab::testing {
namespace {

using cpu::GemmOptions;
using cpu::Isa;

template <class T>
T test_alpha() {
  if constexpr (std::is_integral_v<T>) return 3; else return static_cast<T>(1.25);
}
template <class T>
T test_beta() {
  if constexpr (std::is_integral_v<T>) return -2; else return static_cast<T>(-0.75);
}

struct Case {
  int m, n, k;
  Layout la = Layout::row_major, lb = Layout::row_major, lc = Layout::row_major;
  int pad = 0;
};

std::string describe(const Case& c, Isa isa, const GemmOptions& options) {
  auto l = [](Layout x) { return x == Layout::row_major ? "R" : "C"; };
  return fmt::format("{} m={} n={} k={} layouts A{}B{}C{} pad={} threads={} kc={} mc={} nc={}", cpu::to_string(isa),
                     c.m, c.n, c.k, l(c.la), l(c.lb), l(c.lc), c.pad, options.threads, options.kc, options.mc,
                     options.nc);
}

// Runs one product with fresh random operands and checks it; with beta = 0, C starts as NaN (or the
// integer sentinel), which must not reach the result.
template <class T>
void check_case(const Case& cs, Isa isa, T alpha, T beta, GemmOptions options = {}) {
  options.isa = isa;
  const std::uint64_t seed = fresh_seed();
  TestMatrix<T> a(cs.m, cs.k, cs.la, cs.pad), b(cs.k, cs.n, cs.lb, cs.pad), c(cs.m, cs.n, cs.lc, cs.pad);
  a.fill_random(seed);
  b.fill_random(seed + 1);
  if (beta == T{0}) {
    c.fill(std::numeric_limits<T>::has_quiet_NaN ? std::numeric_limits<T>::quiet_NaN() : T{-777});
  } else {
    c.fill_random(seed + 2);
  }
  const Reference ref = reference_gemm(a, b, c, alpha, beta);
  cpu::gemm(a.cview(), b.cview(), c.view(), alpha, beta, options);
  expect_matches(ref, c, cs.k, describe(cs, isa, options) + fmt::format(" seed={}", seed));
}

template <class T>
class CpuGemm : public ::testing::Test {};
using Dtypes = ::testing::Types<float, double, std::int32_t>;
TYPED_TEST_SUITE(CpuGemm, Dtypes);

TYPED_TEST(CpuGemm, ShapesThatAreNotTileMultiples) {
  using T = TypeParam;
  const int sizes[] = {1, 2, 17, 31, 33, 127, 129};
  for (Isa isa : cpu::cpu_info().isas) {
    for (int m : sizes) {
      for (int n : sizes) {
        for (int k : {1, 33, 131}) check_case<T>({m, n, k}, isa, T{1}, T{0});
      }
    }
  }
}

TYPED_TEST(CpuGemm, PrimeAndNonSquareShapes) {
  using T = TypeParam;
  const Case cases[] = {{1, 1, 1}, {3, 5, 7}, {61, 7, 263}, {7, 263, 61}, {263, 61, 7}, {101, 211, 397}, {13, 509, 3}};
  for (Isa isa : cpu::cpu_info().isas) {
    for (const Case& cs : cases) check_case<T>(cs, isa, test_alpha<T>(), test_beta<T>());
  }
}

TYPED_TEST(CpuGemm, EveryLayoutWithPaddedLeadingDimensions) {
  using T = TypeParam;
  for (Isa isa : cpu::cpu_info().isas) {
    for (Layout la : {Layout::row_major, Layout::col_major}) {
      for (Layout lb : {Layout::row_major, Layout::col_major}) {
        for (Layout lc : {Layout::row_major, Layout::col_major}) {
          check_case<T>({37, 41, 43, la, lb, lc, 5}, isa, test_alpha<T>(), test_beta<T>());
          check_case<T>({130, 67, 259, la, lb, lc, 3}, isa, T{1}, T{0});
        }
      }
    }
  }
}

// transposed() views: A^T B^T into C^T, the same memory read the other way round, nothing copied.
TYPED_TEST(CpuGemm, TransposedViews) {
  using T = TypeParam;
  const int m = 29, n = 53, k = 71;
  const std::uint64_t seed = fresh_seed();
  TestMatrix<T> at(k, m, Layout::row_major, 2), bt(n, k, Layout::row_major, 1), ct(n, m, Layout::row_major, 3);
  at.fill_random(seed);
  bt.fill_random(seed + 1);
  ct.fill_random(seed + 2);
  // The reference for C = alpha * A * B + beta * C, in the transposed views' own terms.
  TestMatrix<T> a(m, k, Layout::row_major, 0), b(k, n, Layout::row_major, 0), c0(m, n, Layout::row_major, 0);
  for (int i = 0; i < m; ++i) {
    for (int p = 0; p < k; ++p) a.at(i, p) = at.at(p, i);
  }
  for (int p = 0; p < k; ++p) {
    for (int j = 0; j < n; ++j) b.at(p, j) = bt.at(j, p);
  }
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) c0.at(i, j) = ct.at(j, i);
  }
  const Reference ref = reference_gemm(a, b, c0, test_alpha<T>(), test_beta<T>());
  for (Isa isa : cpu::cpu_info().isas) {
    TestMatrix<T> out = ct;
    GemmOptions options;
    options.isa = isa;
    cpu::gemm(at.cview().transposed(), bt.cview().transposed(), out.view().transposed(), test_alpha<T>(),
              test_beta<T>(), options);
    TestMatrix<T> got(m, n, Layout::row_major, 0);
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) got.at(i, j) = out.at(j, i);
    }
    expect_matches(ref, got, k, cpu::to_string(isa));
    EXPECT_TRUE(out.padding_intact());
  }
}

// Small blocks: several ic, pc and jc blocks, so every loop of the driver runs more than once, with
// partial blocks at every edge, on one, two and three threads.
TYPED_TEST(CpuGemm, SmallBlocksCoverEveryLoop) {
  using T = TypeParam;
  for (Isa isa : cpu::cpu_info().isas) {
    const cpu::MicroTile tile = cpu::micro_tile(isa, dtype_of<T>());
    for (int threads : {1, 2, 3}) {
      GemmOptions options;
      options.threads = threads;
      options.kc = 8;
      options.mc = 2 * tile.mr;
      options.nc = 2 * tile.nr;
      check_case<T>({5 * tile.mr + 3, 7 * tile.nr + 5, 29, Layout::row_major, Layout::col_major, Layout::row_major, 1},
                    isa, test_alpha<T>(), test_beta<T>(), options);
      check_case<T>({5 * tile.mr + 3, 7 * tile.nr + 5, 29}, isa, T{1}, T{0}, options);
      // Too few column panels to share: the threads split the rows instead.
      check_case<T>({9 * tile.mr + 1, 3, 17}, isa, test_alpha<T>(), test_beta<T>(), options);
    }
  }
}

TYPED_TEST(CpuGemm, KZeroScalesC) {
  using T = TypeParam;
  for (Isa isa : cpu::cpu_info().isas) {
    check_case<T>({17, 33, 0}, isa, test_alpha<T>(), test_beta<T>());
    check_case<T>({17, 33, 0, Layout::row_major, Layout::row_major, Layout::col_major, 2}, isa, T{1}, T{0});
  }
}

TYPED_TEST(CpuGemm, EmptyOutputDoesNothing) {
  using T = TypeParam;
  std::vector<T> storage(64, T{7});
  const matrix_view<const T> a(storage.data(), 0, 5, 5);
  const matrix_view<const T> b(storage.data(), 5, 4, 4);
  cpu::gemm(a, b, matrix_view<T>(storage.data(), 0, 4, 4), T{1}, T{0});
  cpu::gemm(matrix_view<const T>(storage.data(), 3, 5, 5), matrix_view<const T>(storage.data(), 5, 0, 1),
            matrix_view<T>(storage.data(), 3, 0, 1), T{1}, T{0});
  for (T x : storage) EXPECT_EQ(x, T{7});
}

TYPED_TEST(CpuGemm, MismatchedShapesThrow) {
  using T = TypeParam;
  std::vector<T> storage(1024, T{1});
  const matrix_view<const T> a(storage.data(), 4, 5, 5);
  const matrix_view<const T> b(storage.data(), 6, 3, 3);
  matrix_view<T> c(storage.data(), 4, 3, 3);
  EXPECT_THROW(cpu::gemm(a, b, c, T{1}, T{0}), InvalidArgument);
  const matrix_view<const T> b_ok(storage.data(), 5, 3, 3);
  EXPECT_THROW(cpu::gemm(a, b_ok, matrix_view<T>(storage.data(), 5, 3, 3), T{1}, T{0}), InvalidArgument);
  EXPECT_THROW(cpu::gemm(a, b_ok, matrix_view<T>(storage.data(), 4, 2, 3), T{1}, T{0}), InvalidArgument);
  // A leading dimension smaller than the row.
  EXPECT_THROW(cpu::gemm(matrix_view<const T>(storage.data(), 4, 5, 4), b_ok, c, T{1}, T{0}), InvalidArgument);
  // An operand that is not in host memory.
  const matrix_view<const T> on_gpu(storage.data(), 5, 3, 3, MemorySpace{DeviceKind::cuda, 0});
  EXPECT_THROW(cpu::gemm(a, on_gpu, c, T{1}, T{0}), InvalidArgument);
  GemmOptions negative;
  negative.threads = -1;
  EXPECT_THROW(cpu::gemm(a, b_ok, c, T{1}, T{0}, negative), InvalidArgument);
}

// int32 lanes wrap on overflow, the same on every ISA (and without undefined behaviour under UBSan).
TEST(CpuGemmInt32, OverflowWrapsTheSameOnEveryIsa) {
  const int m = 19, n = 37, k = 23;
  TestMatrix<std::int32_t> a(m, k, Layout::row_major, 0), b(k, n, Layout::row_major, 0);
  for (int i = 0; i < m; ++i) {
    for (int p = 0; p < k; ++p) a.at(i, p) = 0x7fff0000 - 977 * (i * k + p);
  }
  for (int p = 0; p < k; ++p) {
    for (int j = 0; j < n; ++j) b.at(p, j) = 0x10001 + 31 * (p * n + j);
  }
  for (Isa isa : cpu::cpu_info().isas) {
    TestMatrix<std::int32_t> c(m, n, Layout::row_major, 0);
    c.fill(123456789);
    const Reference ref = reference_gemm(a, b, c, 7, 5);
    GemmOptions options;
    options.isa = isa;
    cpu::gemm(a.cview(), b.cview(), c.view(), 7, 5, options);
    expect_matches(ref, c, k, cpu::to_string(isa));
  }
}

template <class T>
class CpuGemmFloat : public ::testing::Test {};
using FloatTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(CpuGemmFloat, FloatTypes);

// A NaN in A spoils its row of C, an Inf in B its column; every other element stays finite.
TYPED_TEST(CpuGemmFloat, NanAndInfPropagate) {
  using T = TypeParam;
  const int m = 45, n = 70, k = 50;
  const int nan_row = 13, nan_k = 21, inf_col = 66, inf_k = 9;
  for (Isa isa : cpu::cpu_info().isas) {
    TestMatrix<T> a(m, k, Layout::row_major, 0), b(k, n, Layout::col_major, 0), c(m, n, Layout::row_major, 0);
    a.fill_random(fresh_seed());
    b.fill_random(fresh_seed());
    a.at(nan_row, nan_k) = std::numeric_limits<T>::quiet_NaN();
    b.at(inf_k, inf_col) = std::numeric_limits<T>::infinity();
    c.fill(std::numeric_limits<T>::quiet_NaN());
    GemmOptions options;
    options.isa = isa;
    cpu::gemm(a.cview(), b.cview(), c.view(), T{1}, T{0}, options);
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        const T x = c.at(i, j);
        if (i == nan_row) {
          EXPECT_TRUE(std::isnan(x)) << cpu::to_string(isa) << " (" << i << "," << j << ") = " << x;
        } else if (j == inf_col) {
          EXPECT_TRUE(std::isinf(x)) << cpu::to_string(isa) << " (" << i << "," << j << ") = " << x;
        } else {
          EXPECT_TRUE(std::isfinite(x)) << cpu::to_string(isa) << " (" << i << "," << j << ") = " << x;
        }
      }
    }
  }
}

// The default options go through GPULAB_CPU_ISA; a name the CPU cannot run, or no name at all, throws.
TEST(CpuGemmIsa, EnvironmentForcesAnIsa) {
  const char* saved = std::getenv("GPULAB_CPU_ISA");
  const std::string saved_value = saved ? saved : "";
  for (Isa isa : cpu::cpu_info().isas) {
    setenv("GPULAB_CPU_ISA", cpu::to_string(isa), 1);
    EXPECT_EQ(cpu::resolve_isa(), isa);
    check_case<float>({33, 47, 19}, isa, 1.0f, 0.0f);
  }
  setenv("GPULAB_CPU_ISA", "sse9", 1);
  EXPECT_THROW(cpu::resolve_isa(), InvalidArgument);
  std::vector<float> storage(9, 1.0f);
  const matrix_view<const float> x(storage.data(), 3, 3, 3);
  EXPECT_THROW(cpu::gemm(x, x, matrix_view<float>(storage.data(), 3, 3, 3)), InvalidArgument);
  if (saved) {
    setenv("GPULAB_CPU_ISA", saved_value.c_str(), 1);
  } else {
    unsetenv("GPULAB_CPU_ISA");
  }
  EXPECT_EQ(cpu::resolve_isa(Isa::generic), Isa::generic);
}

TEST(CpuGemmIsa, UnsupportedIsaIsRefused) {
  const auto& isas = cpu::cpu_info().isas;
  for (Isa isa : {Isa::avx2, Isa::avx512}) {
    if (std::find(isas.begin(), isas.end(), isa) != isas.end()) continue;
    EXPECT_THROW(cpu::resolve_isa(isa), InvalidArgument) << cpu::to_string(isa);
    EXPECT_THROW(cpu::micro_tile(isa, Dtype::float32), InvalidArgument) << cpu::to_string(isa);
  }
  EXPECT_EQ(cpu::parse_isa("AVX512"), Isa::avx512);
  EXPECT_THROW(cpu::parse_isa("neon"), InvalidArgument);
}

}  // namespace
}  // namespace gpulab::testing
