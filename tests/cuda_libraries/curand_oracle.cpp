// The simulator's cuRAND against the CUDA toolkit's: gpulab's generators (libgpulab_curand's core,
// src/simcuda/curand/generator.hpp, and the device API's headers) beside the toolkit's host generator
// (curandCreateGeneratorHost, which runs with no GPU), for every generator and distribution the
// simulator provides.
//
// One binary cannot hold both C APIs (the same names), so this test calls gpulab's generators through
// their C++ interface, which the C API of libgpulab_curand is a thin layer over, and the toolkit's
// through its C API from libcurand. Where the toolkit is not found the tests skip, saying so.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <gpulab/sim/device/curand_mrg32k3a.hpp>
#include <gpulab/sim/device/curand_philox.hpp>
#include <gpulab/sim/device/curand_xorwow.hpp>

#include "simcuda/curand/generator.hpp"

#if GPULAB_CURAND_ORACLE
#include <curand.h>
#endif

namespace gc = gpulab::sim::curand;

namespace {

#if !GPULAB_CURAND_ORACLE
#define ORACLE_OR_SKIP() GTEST_SKIP() << "the CUDA toolkit's libcurand was not found at configure time (CUDA::curand)"
#else
#define ORACLE_OR_SKIP() (void)0

curandRngType_t toolkit_type(gc::RngKind k) { return static_cast<curandRngType_t>(static_cast<int>(k)); }

const char* kind_name(gc::RngKind k) {
  switch (k) {
    case gc::RngKind::xorwow: return "XORWOW";
    case gc::RngKind::mrg32k3a: return "MRG32k3a";
    case gc::RngKind::philox4_32_10: return "Philox4_32_10";
  }
  return "?";
}

// The toolkit's host generator and gpulab's, with the same seed and offset, stepped together.
struct Pair {
  curandGenerator_t theirs = nullptr;
  gc::Generator ours;
  Pair(gc::RngKind kind, unsigned long long seed, unsigned long long offset) : ours(kind) {
    EXPECT_EQ(curandCreateGeneratorHost(&theirs, toolkit_type(kind)), CURAND_STATUS_SUCCESS);
    EXPECT_EQ(curandSetPseudoRandomGeneratorSeed(theirs, seed), CURAND_STATUS_SUCCESS);
    EXPECT_EQ(curandSetGeneratorOffset(theirs, offset), CURAND_STATUS_SUCCESS);
    ours.set_seed(seed);
    ours.set_offset(offset);
  }
  ~Pair() { curandDestroyGenerator(theirs); }
  Pair(const Pair&) = delete;
  Pair& operator=(const Pair&) = delete;

  // Runs one call on both: `mine(sequence, batch, out)`, `toolkit(generator, out, n)`.
  template <class T, class Mine, class Toolkit>
  void call(gc::Dist d, std::vector<T>& a, std::vector<T>& b, std::size_t n, Mine mine, Toolkit toolkit) {
    a.assign(n, T{});
    b.assign(n, T{});
    const auto sequence = ours.sequence();
    mine(*sequence, ours.plan(d, n), a.data());
    ASSERT_EQ(toolkit(theirs, b.data(), n), CURAND_STATUS_SUCCESS);
  }
};

constexpr gc::RngKind kinds[] = {gc::RngKind::xorwow, gc::RngKind::mrg32k3a, gc::RngKind::philox4_32_10};
constexpr unsigned long long seeds[] = {0ull, 0xdeadbeefcafef00dull};
constexpr unsigned long long offsets[] = {0ull, 1ull, 1000003ull};
// Lengths that are multiples of nothing in particular, called one after the other on one generator (so
// that each call starts where the last left off, at every alignment).
constexpr std::size_t lengths[] = {1, 17, 4099, 2, 20001};
constexpr std::size_t even_lengths[] = {2, 18, 4098, 20002, 6};

template <class T>
double ulp_of(T x) {
  const T a = std::fabs(x);
  return static_cast<double>(std::nextafter(a, std::numeric_limits<T>::infinity()) - a);
}

std::string where(gc::RngKind k, unsigned long long seed, unsigned long long offset, std::size_t call,
                  std::size_t i) {
  return std::string(kind_name(k)) + " seed " + std::to_string(seed) + " offset " + std::to_string(offset) +
         " call " + std::to_string(call) + " element " + std::to_string(i);
}

// Bit for bit.
template <class T, class Mine, class Toolkit>
void expect_identical(gc::Dist d, const std::size_t (&ns)[5], Mine mine, Toolkit toolkit) {
  for (gc::RngKind k : kinds) {
    for (unsigned long long seed : seeds) {
      for (unsigned long long offset : offsets) {
        Pair p(k, seed, offset);
        for (std::size_t c = 0; c < 5; ++c) {
          std::vector<T> a, b;
          p.call(d, a, b, ns[c], mine, toolkit);
          const auto diff = std::mismatch(a.begin(), a.end(), b.begin());
          if (diff.first != a.end()) {
            const auto i = static_cast<std::size_t>(diff.first - a.begin());
            FAIL() << where(k, seed, offset, c, i) << ": gpulab " << a[i] << ", toolkit " << b[i];
          }
        }
      }
    }
  }
}

// Within `bound` units in the last place of the larger of |value| and `floor_scale`: Box-Muller's sine and
// cosine are computed by different formulas (the toolkit's host generator takes sin(v * pi), the
// simulator CUDA's sincospi, as a GPU does), whose difference near a zero of the sine is absolute, not
// relative; so results below floor_scale are held to the absolute error of floor_scale's ulp.
template <class T, class Mine, class Toolkit>
double max_error(gc::Dist d, Mine mine, Toolkit toolkit, double floor_scale) {
  double worst = 0;
  for (gc::RngKind k : kinds) {
    for (unsigned long long seed : seeds) {
      for (unsigned long long offset : offsets) {
        Pair p(k, seed, offset);
        for (std::size_t c = 0; c < 5; ++c) {
          std::vector<T> a, b;
          p.call(d, a, b, even_lengths[c], mine, toolkit);
          for (std::size_t i = 0; i < a.size(); ++i) {
            const double scale = ulp_of(std::max(std::fabs(b[i]), static_cast<T>(floor_scale)));
            const double e = std::fabs(static_cast<double>(a[i]) - static_cast<double>(b[i])) / scale;
            if (!(e <= 1e9)) {
              ADD_FAILURE() << where(k, seed, offset, c, i) << ": gpulab " << a[i] << ", toolkit " << b[i];
              return worst;
            }
            worst = std::max(worst, e);
          }
        }
      }
    }
  }
  return worst;
}
#endif

}  // namespace

#if GPULAB_CURAND_ORACLE
TEST(CurandOracle, RawWordsAreTheToolkits) {
  expect_identical<unsigned int>(
      gc::Dist::raw, lengths, [](const gc::Sequence& s, const gc::Batch& b, unsigned int* o) { s.bits(b, o); },
      [](curandGenerator_t g, unsigned int* o, std::size_t n) { return curandGenerate(g, o, n); });
}

TEST(CurandOracle, UniformFloatsAreTheToolkits) {
  expect_identical<float>(
      gc::Dist::uniform, lengths, [](const gc::Sequence& s, const gc::Batch& b, float* o) { s.uniform(b, o); },
      [](curandGenerator_t g, float* o, std::size_t n) { return curandGenerateUniform(g, o, n); });
}

TEST(CurandOracle, UniformDoublesAreTheToolkits) {
  expect_identical<double>(
      gc::Dist::uniform_double, lengths, [](const gc::Sequence& s, const gc::Batch& b, double* o) { s.uniform_double(b, o); },
      [](curandGenerator_t g, double* o, std::size_t n) { return curandGenerateUniformDouble(g, o, n); });
}

// The bounds docs/simulator.md states, measured here: the worst error over every case is printed.
TEST(CurandOracle, NormalsAreWithinTheStatedBound) {
  const double e = max_error<float>(
      gc::Dist::normal, [](const gc::Sequence& s, const gc::Batch& b, float* o) { s.normal(b, o, 0.5f, 2.0f); },
      [](curandGenerator_t g, float* o, std::size_t n) { return curandGenerateNormal(g, o, n, 0.5f, 2.0f); }, 1.0);
  std::printf("normal float: worst %.1f ulp of max(|x|, 1)\n", e);
  EXPECT_EQ(e, 0.0);  // the toolkit's host branch, bit for bit
}

TEST(CurandOracle, NormalDoublesAreWithinTheStatedBound) {
  const double e = max_error<double>(
      gc::Dist::normal_double, [](const gc::Sequence& s, const gc::Batch& b, double* o) { s.normal_double(b, o, -1.0, 0.25); },
      [](curandGenerator_t g, double* o, std::size_t n) { return curandGenerateNormalDouble(g, o, n, -1.0, 0.25); },
      1.0);
  std::printf("normal double: worst %.1f ulp of max(|x|, 1)\n", e);
  EXPECT_LE(e, 16.0);
}

TEST(CurandOracle, LogNormalsAreWithinTheStatedBound) {
  const double e = max_error<float>(
      gc::Dist::normal, [](const gc::Sequence& s, const gc::Batch& b, float* o) { s.log_normal(b, o, 0.1f, 0.5f); },
      [](curandGenerator_t g, float* o, std::size_t n) { return curandGenerateLogNormal(g, o, n, 0.1f, 0.5f); },
      0.0);
  std::printf("log-normal float: worst %.1f ulp\n", e);
  EXPECT_EQ(e, 0.0);
}

TEST(CurandOracle, LogNormalDoublesAreWithinTheStatedBound) {
  const double e = max_error<double>(
      gc::Dist::normal_double, [](const gc::Sequence& s, const gc::Batch& b, double* o) { s.log_normal_double(b, o, 0.1, 0.5); },
      [](curandGenerator_t g, double* o, std::size_t n) { return curandGenerateLogNormalDouble(g, o, n, 0.1, 0.5); },
      0.0);
  std::printf("log-normal double: worst %.1f ulp\n", e);
  EXPECT_LE(e, 16.0);
}
#endif

TEST(CurandOracle, PoissonIsDistributedAsTheToolkits) {
  ORACLE_OR_SKIP();
#if GPULAB_CURAND_ORACLE
  // Not the same sequence (see generator.hpp): the same distribution. Mean and variance of each within
  // five standard errors of lambda, and the two histograms alike by a chi-square test at a level that a
  // correct pair fails about once in 10^5 runs.
  constexpr std::size_t n = 200000;
  for (gc::RngKind k : kinds) {
    for (double lambda : {0.3, 7.0, 150.0, 2500.0, 20000.0}) {
      Pair p(k, 42, 0);
      std::vector<unsigned int> a, b;
      p.call(gc::Dist::poisson, a, b, n, [lambda](const gc::Sequence& s, const gc::Batch& bt, unsigned int* o) { s.poisson(bt, o, lambda); },
             [lambda](curandGenerator_t g, unsigned int* o, std::size_t m) { return curandGeneratePoisson(g, o, m, lambda); });
      for (const auto* v : {&a, &b}) {
        double mean = 0, var = 0;
        for (unsigned x : *v) mean += x;
        mean /= n;
        for (unsigned x : *v) var += (x - mean) * (x - mean);
        var /= n - 1;
        EXPECT_NEAR(mean, lambda, 5 * std::sqrt(lambda / n)) << kind_name(k) << " lambda " << lambda;
        // The variance's standard error for a Poisson variable: sqrt((mu4 - sigma^4) / n), mu4 = lambda(1 + 3 lambda).
        EXPECT_NEAR(var, lambda, 5 * std::sqrt((lambda * (1 + 3 * lambda) - lambda * lambda) / n))
            << kind_name(k) << " lambda " << lambda;
      }
      // Bins of about equal expected count from the pooled sample, then the two-sample chi-square.
      std::vector<unsigned> pooled(a);
      pooled.insert(pooled.end(), b.begin(), b.end());
      std::sort(pooled.begin(), pooled.end());
      std::vector<unsigned> edges;
      for (int q = 1; q < 40; ++q) {
        const unsigned e = pooled[pooled.size() * q / 40];
        if (edges.empty() || e > edges.back()) edges.push_back(e);
      }
      std::vector<double> ca(edges.size() + 1), cb(edges.size() + 1);
      auto bin = [&](unsigned x) { return static_cast<std::size_t>(std::upper_bound(edges.begin(), edges.end(), x) - edges.begin()); };
      for (unsigned x : a) ca[bin(x)] += 1;
      for (unsigned x : b) cb[bin(x)] += 1;
      double chi2 = 0;
      std::size_t used = 0;
      for (std::size_t i = 0; i < ca.size(); ++i) {
        if (ca[i] + cb[i] == 0) continue;
        chi2 += (ca[i] - cb[i]) * (ca[i] - cb[i]) / (ca[i] + cb[i]);
        ++used;
      }
      const double dof = static_cast<double>(used - 1);
      // Wilson-Hilferty: the chi-square quantile at z = 4.3 (one-sided, about 1e-5).
      const double limit = dof * std::pow(1 - 2 / (9 * dof) + 4.3 * std::sqrt(2 / (9 * dof)), 3);
      EXPECT_LE(chi2, limit) << kind_name(k) << " lambda " << lambda << " (" << used << " bins)";
    }
  }
#endif
}

// Random mixes of every distribution, lengths and offsets on one generator: the layout's bookkeeping
// (generator.hpp: the position in results or in pairs, the threads' word counts, calls cut off at the
// end of a batch) against the toolkit's. Raw words and uniforms bit for bit; normals within the
// bounds above (float normals are bit for bit too).
TEST(CurandOracle, MixedCallsFollowTheToolkit) {
  ORACLE_OR_SKIP();
#if GPULAB_CURAND_ORACLE
  std::uint64_t lcg = 12345;
  auto next = [&] { return lcg = lcg * 6364136223846793005ull + 1442695040888963407ull, lcg >> 33; };
  for (gc::RngKind k : kinds) {
    for (int trial = 0; trial < 3; ++trial) {
      const unsigned long long seed = next(), offset = trial == 0 ? 0 : next() % 100000;
      Pair p(k, seed, offset);
      for (int call = 0; call < 14; ++call) {
        const int d = static_cast<int>(next() % 5);  // not Poisson: the toolkit's Poisson position is not modelled
        std::size_t n = 1 + next() % 9000;
        if (d >= 3 && d <= 4) n += n % 2;
        const std::string at = std::string(kind_name(k)) + " trial " + std::to_string(trial) + " call " +
                               std::to_string(call) + " dist " + std::to_string(d) + " n " + std::to_string(n);
        if (d == 0 || d == 5) {
          std::vector<unsigned int> a, b;
          if (d == 0) {
            p.call(gc::Dist::raw, a, b, n, [](const gc::Sequence& s, const gc::Batch& bt, unsigned int* o) { s.bits(bt, o); },
                   [](curandGenerator_t g, unsigned int* o, std::size_t m) { return curandGenerate(g, o, m); });
            EXPECT_TRUE(a == b) << at;
          } else {  // Poisson: only the position must move alike (compared by the raw words after it)
            p.call(gc::Dist::poisson, a, b, n, [](const gc::Sequence& s, const gc::Batch& bt, unsigned int* o) { s.poisson(bt, o, 4.0); },
                   [](curandGenerator_t g, unsigned int* o, std::size_t m) { return curandGeneratePoisson(g, o, m, 4.0); });
          }
        } else if (d == 1 || d == 3) {
          std::vector<float> a, b;
          if (d == 1) {
            p.call(gc::Dist::uniform, a, b, n, [](const gc::Sequence& s, const gc::Batch& bt, float* o) { s.uniform(bt, o); },
                   [](curandGenerator_t g, float* o, std::size_t m) { return curandGenerateUniform(g, o, m); });
          } else {
            p.call(gc::Dist::normal, a, b, n, [](const gc::Sequence& s, const gc::Batch& bt, float* o) { s.normal(bt, o, 0.0f, 1.0f); },
                   [](curandGenerator_t g, float* o, std::size_t m) { return curandGenerateNormal(g, o, m, 0.0f, 1.0f); });
          }
          EXPECT_TRUE(std::memcmp(a.data(), b.data(), n * sizeof(float)) == 0) << at;
        } else {
          std::vector<double> a, b;
          if (d == 2) {
            p.call(gc::Dist::uniform_double, a, b, n, [](const gc::Sequence& s, const gc::Batch& bt, double* o) { s.uniform_double(bt, o); },
                   [](curandGenerator_t g, double* o, std::size_t m) { return curandGenerateUniformDouble(g, o, m); });
            EXPECT_TRUE(a == b) << at;
          } else {
            p.call(gc::Dist::normal_double, a, b, n, [](const gc::Sequence& s, const gc::Batch& bt, double* o) { s.normal_double(bt, o, 0.0, 1.0); },
                   [](curandGenerator_t g, double* o, std::size_t m) { return curandGenerateNormalDouble(g, o, m, 0.0, 1.0); });
            double worst = 0;
            for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, std::fabs(a[i] - b[i]) / ulp_of(std::max(std::fabs(b[i]), 1.0)));
            EXPECT_LE(worst, 16.0) << at;
          }
        }
      }
    }
  }
#endif
}

// The device API's states, made by curand_init(seed, subsequence, offset) as a kernel's thread makes
// them, against the host generator's documented layout (thread t of T at word k of its subsequence is
// raw element k T + t; Philox's blocks of four), which the raw words above match the toolkit's in.
TEST(CurandOracle, DeviceApiStatesFollowTheHostLayout) {
  ORACLE_OR_SKIP();
#if GPULAB_CURAND_ORACLE
  for (gc::RngKind k : kinds) {
    for (unsigned long long seed : {7ull, 0x123456789abcdefull}) {
      curandGenerator_t g;
      ASSERT_EQ(curandCreateGeneratorHost(&g, toolkit_type(k)), CURAND_STATUS_SUCCESS);
      ASSERT_EQ(curandSetPseudoRandomGeneratorSeed(g, seed), CURAND_STATUS_SUCCESS);
      const std::uint64_t threads = k == gc::RngKind::xorwow ? 4096 : k == gc::RngKind::mrg32k3a ? 81920 : 65536;
      const std::uint64_t chunk = k == gc::RngKind::philox4_32_10 ? 4 : 1;
      // Words far into each subsequence: the generator's offset moves the layout's start there, and one
      // call then holds that word of every thread.
      for (std::uint64_t word : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{5}, std::uint64_t{1000003},
                                 std::uint64_t{1} << 33}) {
        const std::uint64_t block = word / chunk;
        const std::uint64_t start = block * threads * chunk;
        std::vector<unsigned int> row(threads * chunk);
        ASSERT_EQ(curandSetGeneratorOffset(g, start), CURAND_STATUS_SUCCESS);
        ASSERT_EQ(curandGenerate(g, row.data(), row.size()), CURAND_STATUS_SUCCESS);
        for (std::uint64_t t : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{1000}, threads - 1}) {
          const unsigned int expected = row[t * chunk + word % chunk];
          unsigned int got = 0;
          if (k == gc::RngKind::xorwow) {
            gc::XorwowState s;
            gc::xorwow_init(seed, t, word, s);
            got = gc::xorwow_next(s);
          } else if (k == gc::RngKind::mrg32k3a) {
            gc::Mrg32k3aState s;
            gc::mrg32k3a_init(seed, t, word, s);
            got = gc::mrg32k3a_next(s);
          } else {
            gc::PhiloxState s;
            gc::philox_init(seed, t, word, s);
            got = gc::philox_next(s);
          }
          EXPECT_EQ(got, expected) << kind_name(k) << " seed " << seed << " subsequence " << t << " word " << word;
        }
      }
      curandDestroyGenerator(g);
    }
  }
#endif
}
#if !GPULAB_CURAND_ORACLE
TEST(CurandOracle, RawWordsAreTheToolkits) { ORACLE_OR_SKIP(); }
#endif

// Without the toolkit: the jumps against plain stepping, so the GF(2) and modular matrices are checked
// everywhere (a skip of n words equals n steps; skipahead composes).
TEST(CurandDeviceApi, SkipaheadEqualsStepping) {
  for (std::uint64_t n : {1ull, 2ull, 3ull, 4ull, 5ull, 63ull, 64ull, 1000ull, 65537ull}) {
    gc::XorwowState a, b;
    gc::xorwow_init(99, 3, 0, a);
    b = a;
    gc::xorwow_skipahead(n, a);
    for (std::uint64_t i = 0; i < n; ++i) gc::xorwow_next(b);
    EXPECT_EQ(gc::xorwow_next(a), gc::xorwow_next(b)) << "XORWOW n " << n;
    gc::Mrg32k3aState c, d;
    gc::mrg32k3a_init(99, 3, 0, c);
    d = c;
    gc::mrg32k3a_skipahead(n, c);
    for (std::uint64_t i = 0; i < n; ++i) gc::mrg32k3a_next(d);
    EXPECT_EQ(gc::mrg32k3a_next(c), gc::mrg32k3a_next(d)) << "MRG32k3a n " << n;
    gc::PhiloxState e, f;
    gc::philox_init(99, 3, 0, e);
    f = e;
    gc::philox_skipahead(n, e);
    for (std::uint64_t i = 0; i < n; ++i) gc::philox_next(f);
    EXPECT_EQ(gc::philox_next(e), gc::philox_next(f)) << "Philox n " << n;
  }
  // Subsequence numbers beyond the host layout's threads: skipahead_sequence(a + b) = (a) then (b).
  for (std::uint64_t a : {1ull << 20, 123456789ull, 1ull << 63}) {
    const std::uint64_t b = 0x5555aaaa5555ull;
    gc::XorwowState x, y;
    gc::xorwow_init(5, 0, 0, x);
    y = x;
    gc::xorwow_skipahead_sequence(a + b, x);
    gc::xorwow_skipahead_sequence(a, y);
    gc::xorwow_skipahead_sequence(b, y);
    EXPECT_EQ(gc::xorwow_next(x), gc::xorwow_next(y));
    gc::Mrg32k3aState u, v;
    gc::mrg32k3a_init(5, 0, 0, u);
    v = u;
    gc::mrg32k3a_skipahead_subsequence(a + b, u);
    gc::mrg32k3a_skipahead_subsequence(a, v);
    gc::mrg32k3a_skipahead_subsequence(b, v);
    EXPECT_EQ(gc::mrg32k3a_next(u), gc::mrg32k3a_next(v));
  }
}
