// gpulab's CPU FFT (include/gpulab/cpu/fft.hpp) against a direct DFT in long double: every length
// kind (powers of 2 and 4, radices 3 and 5, the generic odd radices, primes and lengths with a large
// prime factor that run Bluestein's algorithm), forward and inverse, the round trip, strides and
// batches, in-place arrays, real transforms of odd and even length, and 2-D and 3-D shapes. Inputs are
// fresh random numbers each run (the seed is printed with any failure); errors are relative 2-norm
// errors, bounded by a small multiple of log2(n) * u of the working precision.
#include <gpulab/cpu/fft.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <gpulab/error.hpp>

namespace gpulab::testing {
namespace {

using cpu::fft::Direction;
using cpu::fft::Kind;
using cpu::fft::Layout;
using LD = long double;
using CL = std::complex<long double>;

// The rounding unit of T, and the bound on a relative error of an FFT of size n (as many as `passes`
// transforms in sequence: a round trip is two).
template <class T>
double bound(std::size_t n, double passes = 1) {
  const double u = std::numeric_limits<T>::epsilon() / 2;
  return 3.0 * passes * std::max(1.0, std::log2(static_cast<double>(n))) * u;
}

std::mt19937_64& rng() {
  static std::mt19937_64 engine = [] {
    const auto seed = std::random_device{}();
    std::printf("test_fft: seed %u\n", seed);
    return std::mt19937_64(seed);
  }();
  return engine;
}

template <class T>
std::vector<std::complex<T>> random_complex(std::size_t n) {
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<std::complex<T>> v(n);
  for (auto& x : v) x = {static_cast<T>(d(rng())), static_cast<T>(d(rng()))};
  return v;
}

template <class T>
std::vector<T> random_real(std::size_t n) {
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(d(rng()));
  return v;
}

// The direct DFT in long double, with the roots e^{-+2 pi i t/n} tabled once.
std::vector<CL> dft(const std::vector<CL>& x, bool inverse) {
  const std::size_t n = x.size();
  std::vector<CL> w(n), y(n);
  for (std::size_t t = 0; t < n; ++t) {
    const LD a = 2 * std::numbers::pi_v<LD> * static_cast<LD>(t) / static_cast<LD>(n);
    w[t] = CL(std::cos(a), inverse ? std::sin(a) : -std::sin(a));
  }
  for (std::size_t k = 0; k < n; ++k) {
    CL s = 0;
    for (std::size_t j = 0; j < n; ++j) s += x[j] * w[(j * k) % n];
    y[k] = s;
  }
  return y;
}

// The d-dimensional DFT of a packed row-major array: the 1-D DFT along every dimension.
std::vector<CL> dft_nd(std::vector<CL> x, const std::vector<std::size_t>& shape, bool inverse) {
  std::size_t total = 1;
  for (auto e : shape) total *= e;
  for (std::size_t a = 0; a < shape.size(); ++a) {
    std::size_t inner = 1;
    for (std::size_t k = a + 1; k < shape.size(); ++k) inner *= shape[k];
    const std::size_t n = shape[a];
    for (std::size_t base = 0; base < total; ++base) {
      if ((base / inner) % n != 0) continue;  // one line per start
      std::vector<CL> line(n);
      for (std::size_t i = 0; i < n; ++i) line[i] = x[base + i * inner];
      line = dft(line, inverse);
      for (std::size_t i = 0; i < n; ++i) x[base + i * inner] = line[i];
    }
  }
  return x;
}

template <class T>
std::vector<CL> widen(const std::vector<std::complex<T>>& v) {
  return {v.begin(), v.end()};
}

template <class T>
double rel_error(const std::complex<T>* y, const std::vector<CL>& ref, std::ptrdiff_t stride = 1) {
  LD num = 0, den = 0;
  for (std::size_t k = 0; k < ref.size(); ++k) {
    num += std::norm(CL(y[static_cast<std::ptrdiff_t>(k) * stride]) - ref[k]);
    den += std::norm(ref[k]);
  }
  return den == 0 ? static_cast<double>(std::sqrt(num)) : static_cast<double>(std::sqrt(num / den));
}

template <class T>
double rel_error_real(const T* y, const std::vector<LD>& ref, std::ptrdiff_t stride = 1) {
  LD num = 0, den = 0;
  for (std::size_t k = 0; k < ref.size(); ++k) {
    const LD e = static_cast<LD>(y[static_cast<std::ptrdiff_t>(k) * stride]) - ref[k];
    num += e * e;
    den += ref[k] * ref[k];
  }
  return static_cast<double>(std::sqrt(num / den));
}

const std::size_t lengths[] = {1, 2, 3, 5, 7, 8, 16, 17, 31, 64, 97, 100, 127, 128, 129, 243, 256, 1000, 1009, 4096};

template <class T>
class FftTest : public ::testing::Test {};
using Types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(FftTest, Types);

TYPED_TEST(FftTest, ComplexMatchesDirectDftBothDirections) {
  using T = TypeParam;
  for (std::size_t n : lengths) {
    SCOPED_TRACE(::testing::Message() << "n = " << n);
    const cpu::fft::Plan<T> plan(n);
    const auto x = random_complex<T>(n);
    for (bool inverse : {false, true}) {
      std::vector<std::complex<T>> y(n, std::complex<T>(std::numeric_limits<T>::quiet_NaN(), 0));
      plan.execute(x.data(), y.data(), inverse ? Direction::inverse : Direction::forward);
      const double err = rel_error(y.data(), dft(widen(x), inverse));
      EXPECT_LE(err, bound<T>(n)) << (inverse ? "inverse" : "forward");
    }
  }
}

TYPED_TEST(FftTest, PlansChooseTheAlgorithmTheLengthNeeds) {
  using T = TypeParam;
  EXPECT_FALSE(cpu::fft::Plan<T>(1000).uses_bluestein());
  EXPECT_FALSE(cpu::fft::Plan<T>(7 * 11 * 13 * 8).uses_bluestein());
  EXPECT_TRUE(cpu::fft::Plan<T>(17).uses_bluestein());
  EXPECT_TRUE(cpu::fft::Plan<T>(1009).uses_bluestein());
  EXPECT_EQ(cpu::fft::Plan<T>(4096).radices(), (std::vector<int>{4, 4, 4, 4, 4, 4}));
  EXPECT_EQ(cpu::fft::Plan<T>(7 * 11 * 13 * 8).radices(), (std::vector<int>{4, 2, 7, 11, 13}));
  // And each generic radix is right on its own and combined.
  for (std::size_t n : {11u, 13u, 7u * 11u * 13u * 8u, 3u * 5u * 7u * 7u}) {
    const auto x = random_complex<T>(n);
    std::vector<std::complex<T>> y(n);
    cpu::fft::Plan<T>(n).execute(x.data(), y.data(), Direction::forward);
    EXPECT_LE(rel_error(y.data(), dft(widen(x), false)), bound<T>(n)) << "n = " << n;
  }
}

TYPED_TEST(FftTest, InverseOfForwardIsNTimesTheInput) {
  using T = TypeParam;
  for (std::size_t n : lengths) {
    const cpu::fft::Plan<T> plan(n);
    const auto x = random_complex<T>(n);
    std::vector<std::complex<T>> y(n), z(n);
    plan.execute(x.data(), y.data(), Direction::forward);
    plan.execute(y.data(), z.data(), Direction::inverse);
    std::vector<CL> nx(n);
    for (std::size_t j = 0; j < n; ++j) nx[j] = CL(x[j]) * static_cast<LD>(n);
    EXPECT_LE(rel_error(z.data(), nx), bound<T>(n, 2)) << "n = " << n;
  }
}

TYPED_TEST(FftTest, StridedAndInPlace) {
  using T = TypeParam;
  for (std::size_t n : {1u, 4u, 7u, 16u, 17u, 100u, 129u}) {
    SCOPED_TRACE(::testing::Message() << "n = " << n);
    const cpu::fft::Plan<T> plan(n);
    std::vector<std::complex<T>> work(plan.work_size());
    const auto x = random_complex<T>(3 * n);  // read at stride 3
    const auto ref = dft(std::vector<CL>([&] {
                           std::vector<CL> v(n);
                           for (std::size_t j = 0; j < n; ++j) v[j] = x[3 * j];
                           return v;
                         }()),
                         false);
    const std::complex<T> sentinel(T(12345), T(-6789));
    std::vector<std::complex<T>> y(2 * n, sentinel);
    plan.execute(x.data(), 3, y.data(), 2, Direction::forward, work.data());
    EXPECT_LE(rel_error(y.data(), ref, 2), bound<T>(n));
    for (std::size_t k = 1; k < 2 * n; k += 2) ASSERT_EQ(y[k], sentinel) << "wrote between strided outputs";
    // In place, contiguous and strided.
    auto in_place = x;
    plan.execute(in_place.data(), 3, in_place.data(), 3, Direction::forward, work.data());
    EXPECT_LE(rel_error(in_place.data(), ref, 3), bound<T>(n));
    for (std::size_t j = 0; j < 3 * n; ++j) {
      if (j % 3 != 0) {
        ASSERT_EQ(in_place[j], x[j]);
      }
    }
    std::vector<std::complex<T>> packed(n);
    for (std::size_t j = 0; j < n; ++j) packed[j] = x[3 * j];
    plan.execute(packed.data(), 1, packed.data(), 1, Direction::forward, work.data());
    EXPECT_LE(rel_error(packed.data(), ref), bound<T>(n));
  }
}

TYPED_TEST(FftTest, BatchesWithStridesAndDistances) {
  using T = TypeParam;
  // cuFFT's advanced layout in 1-D: element j of transform b at b * distance + j * stride.
  for (std::size_t n : {5u, 16u, 17u, 36u}) {
    SCOPED_TRACE(::testing::Message() << "n = " << n);
    const std::size_t batch = 4;
    const Layout in{{n}, 2, static_cast<std::ptrdiff_t>(2 * n + 3)};
    const Layout out{{n}, 3, static_cast<std::ptrdiff_t>(3 * n + 1)};
    const cpu::fft::ManyPlan<T> plan({n}, Kind::c2c, in, out, batch);
    const auto x = random_complex<T>(batch * (2 * n + 3));
    const std::complex<T> sentinel(T(1.5), T(2.5));
    std::vector<std::complex<T>> y(batch * (3 * n + 1), sentinel);
    plan.execute(x.data(), y.data(), Direction::inverse);
    std::vector<bool> written(y.size(), false);
    for (std::size_t b = 0; b < batch; ++b) {
      std::vector<CL> v(n);
      for (std::size_t j = 0; j < n; ++j) v[j] = x[b * (2 * n + 3) + 2 * j];
      EXPECT_LE(rel_error(y.data() + b * (3 * n + 1), dft(v, true), 3), bound<T>(n)) << "batch " << b;
      for (std::size_t j = 0; j < n; ++j) written[b * (3 * n + 1) + 3 * j] = true;
    }
    for (std::size_t i = 0; i < y.size(); ++i) {
      if (!written[i]) {
        ASSERT_EQ(y[i], sentinel) << "wrote outside the layout at " << i;
      }
    }
  }
}

TYPED_TEST(FftTest, RealToComplexAndBackOddAndEven) {
  using T = TypeParam;
  for (std::size_t n : lengths) {
    SCOPED_TRACE(::testing::Message() << "n = " << n);
    const cpu::fft::RealPlan<T> plan(n);
    const auto x = random_real<T>(n);
    std::vector<std::complex<T>> spectrum(n / 2 + 1);
    plan.forward(x.data(), spectrum.data());
    std::vector<CL> xc(x.begin(), x.end());
    auto full = dft(xc, false);
    full.resize(n / 2 + 1);
    EXPECT_LE(rel_error(spectrum.data(), full), bound<T>(n)) << "r2c";

    // c2r of a random Hermitian half-spectrum (X_0, and X_{n/2} for even n, real): against
    // x_j = X_0 + 2 sum_{0<k<n/2} Re(X_k e^{2 pi i jk/n}) + X_{n/2} (-1)^j.
    auto half = random_complex<T>(n / 2 + 1);
    half[0].imag(0);
    if (n % 2 == 0) half[n / 2].imag(0);
    std::vector<CL> hermitian(n);
    for (std::size_t k = 0; k <= n / 2; ++k) {
      hermitian[k] = half[k];
      if (k != 0) hermitian[n - k] = std::conj(CL(half[k]));
    }
    const auto back = dft(hermitian, true);
    std::vector<LD> ref(n);
    for (std::size_t j = 0; j < n; ++j) ref[j] = back[j].real();
    std::vector<T> y(n, std::numeric_limits<T>::quiet_NaN());
    const auto kept = half;
    plan.inverse(half.data(), y.data());
    EXPECT_LE(rel_error_real(y.data(), ref), bound<T>(n)) << "c2r";
    EXPECT_EQ(half, kept) << "c2r wrote its input";

    // The round trip.
    std::vector<T> z(n);
    plan.inverse(spectrum.data(), z.data());
    std::vector<LD> nx(n);
    for (std::size_t j = 0; j < n; ++j) nx[j] = static_cast<LD>(x[j]) * static_cast<LD>(n);
    EXPECT_LE(rel_error_real(z.data(), nx), bound<T>(n, 2)) << "c2r(r2c(x))";
  }
}

TYPED_TEST(FftTest, RealInPlaceWithCufftsPaddedLayout) {
  using T = TypeParam;
  // Each row of n reals padded to 2 (n/2 + 1), where its n/2 + 1 complex outputs go.
  for (std::size_t n : {6u, 7u, 17u, 64u}) {
    SCOPED_TRACE(::testing::Message() << "n = " << n);
    const std::size_t batch = 3, pitch = 2 * (n / 2 + 1);
    const cpu::fft::ManyPlan<T> r2c({n}, Kind::r2c, Layout{{n}, 1, static_cast<std::ptrdiff_t>(pitch)},
                                    Layout{{n / 2 + 1}, 1, static_cast<std::ptrdiff_t>(pitch / 2)}, batch);
    const cpu::fft::ManyPlan<T> c2r({n}, Kind::c2r, Layout{{n / 2 + 1}, 1, static_cast<std::ptrdiff_t>(pitch / 2)},
                                    Layout{{n}, 1, static_cast<std::ptrdiff_t>(pitch)}, batch);
    std::vector<std::complex<T>> buffer(batch * pitch / 2);
    T* reals = reinterpret_cast<T*>(buffer.data());
    const auto x = random_real<T>(batch * pitch);
    std::copy(x.begin(), x.end(), reals);
    r2c.execute(reals, buffer.data());
    for (std::size_t b = 0; b < batch; ++b) {
      std::vector<CL> v(x.begin() + static_cast<std::ptrdiff_t>(b * pitch),
                        x.begin() + static_cast<std::ptrdiff_t>(b * pitch + n));
      auto ref = dft(v, false);
      ref.resize(n / 2 + 1);
      EXPECT_LE(rel_error(buffer.data() + b * pitch / 2, ref), bound<T>(n)) << "batch " << b;
    }
    c2r.execute(buffer.data(), reals);
    for (std::size_t b = 0; b < batch; ++b) {
      std::vector<LD> nx(n);
      for (std::size_t j = 0; j < n; ++j) nx[j] = static_cast<LD>(x[b * pitch + j]) * static_cast<LD>(n);
      EXPECT_LE(rel_error_real(reals + b * pitch, nx), bound<T>(n, 2)) << "batch " << b;
    }
  }
}

TYPED_TEST(FftTest, TwoAndThreeDimensionsComplex) {
  using T = TypeParam;
  const std::vector<std::vector<std::size_t>> shapes = {{5, 17}, {16, 9}, {1, 7}, {3, 4, 7}, {8, 1, 6}, {2, 5, 17}};
  for (const auto& shape : shapes) {
    std::size_t total = 1;
    for (auto e : shape) total *= e;
    SCOPED_TRACE(::testing::Message() << "shape of " << shape.size() << " dimensions, " << total << " elements");
    const auto x = random_complex<T>(total);
    const cpu::fft::ManyPlan<T> plan(shape, Kind::c2c, Layout::packed(shape), Layout::packed(shape), 1);
    for (bool inverse : {false, true}) {
      std::vector<std::complex<T>> y(total);
      plan.execute(x.data(), y.data(), inverse ? Direction::inverse : Direction::forward);
      EXPECT_LE(rel_error(y.data(), dft_nd(widen(x), shape, inverse)), bound<T>(total));
      auto in_place = x;
      plan.execute(in_place.data(), in_place.data(), inverse ? Direction::inverse : Direction::forward);
      EXPECT_LE(rel_error(in_place.data(), dft_nd(widen(x), shape, inverse)), bound<T>(total)) << "in place";
    }
  }
}

TYPED_TEST(FftTest, TwoDimensionsEmbeddedStridedBatched) {
  using T = TypeParam;
  // 2 arrays of 6 x 5 inside 8 x 7 embeddings, every element 2 apart, against packed references.
  const std::vector<std::size_t> shape = {6, 5};
  const Layout in{{8, 7}, 2, 2 * 8 * 7 + 5};
  const Layout out{{6, 6}, 1, 40};
  const std::size_t batch = 2;
  const auto x = random_complex<T>(batch * static_cast<std::size_t>(in.distance));
  std::vector<std::complex<T>> y(batch * 40, std::complex<T>(T(7), T(7)));
  cpu::fft::ManyPlan<T>(shape, Kind::c2c, in, out, batch).execute(x.data(), y.data(), Direction::forward);
  for (std::size_t b = 0; b < batch; ++b) {
    std::vector<CL> packed(30), got(30);
    for (std::size_t i = 0; i < 6; ++i) {
      for (std::size_t j = 0; j < 5; ++j) {
        packed[i * 5 + j] = x[b * static_cast<std::size_t>(in.distance) + 2 * (i * 7 + j)];
        got[i * 5 + j] = y[b * 40 + i * 6 + j];
      }
    }
    const auto ref = dft_nd(packed, shape, false);
    std::vector<std::complex<T>> g(got.begin(), got.end());
    EXPECT_LE(rel_error(g.data(), ref), bound<T>(30)) << "batch " << b;
    for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(y[b * 40 + i * 6 + 5], std::complex<T>(T(7), T(7)));
  }
}

TYPED_TEST(FftTest, TwoAndThreeDimensionsReal) {
  using T = TypeParam;
  const std::vector<std::vector<std::size_t>> shapes = {{6, 9}, {7, 10}, {17, 3}, {3, 5, 8}, {4, 3, 7}};
  for (const auto& shape : shapes) {
    const auto cshape = cpu::fft::complex_shape(shape);
    std::size_t total = 1, ctotal = 1;
    for (auto e : shape) total *= e;
    for (auto e : cshape) ctotal *= e;
    SCOPED_TRACE(::testing::Message() << "shape of " << shape.size() << " dimensions, " << total << " elements");
    const auto x = random_real<T>(total);
    std::vector<std::complex<T>> spectrum(ctotal);
    cpu::fft::ManyPlan<T>(shape, Kind::r2c, Layout::packed(shape), Layout::packed(cshape), 1)
        .execute(x.data(), spectrum.data());
    const auto full = dft_nd(std::vector<CL>(x.begin(), x.end()), shape, false);
    std::vector<CL> ref(ctotal);
    const std::size_t last = shape.back(), clast = cshape.back();
    for (std::size_t r = 0; r < total / last; ++r) {
      for (std::size_t k = 0; k < clast; ++k) ref[r * clast + k] = full[r * last + k];
    }
    EXPECT_LE(rel_error(spectrum.data(), ref), bound<T>(total)) << "r2c";
    const auto kept = spectrum;
    std::vector<T> back(total, std::numeric_limits<T>::quiet_NaN());
    cpu::fft::ManyPlan<T>(shape, Kind::c2r, Layout::packed(cshape), Layout::packed(shape), 1)
        .execute(spectrum.data(), back.data());
    EXPECT_EQ(spectrum, kept) << "c2r wrote its input";
    std::vector<LD> nx(total);
    for (std::size_t j = 0; j < total; ++j) nx[j] = static_cast<LD>(x[j]) * static_cast<LD>(total);
    EXPECT_LE(rel_error_real(back.data(), nx), bound<T>(total, 2)) << "c2r(r2c(x))";
  }
}

TEST(Fft, RefusesWhatIsNoTransform) {
  EXPECT_THROW(cpu::fft::Plan<float>(0), InvalidArgument);
  EXPECT_THROW(cpu::fft::RealPlan<double>(0), InvalidArgument);
  EXPECT_THROW(cpu::fft::ManyPlan<float>({4, 0}, Kind::c2c, Layout::packed({4, 0}), Layout::packed({4, 0}), 1),
               InvalidArgument);
  EXPECT_THROW(cpu::fft::ManyPlan<float>({4, 4}, Kind::c2c, Layout{{4, 3}, 1, 16}, Layout::packed({4, 4}), 1),
               InvalidArgument);
  const cpu::fft::ManyPlan<float> c2c({8}, Kind::c2c, Layout::packed({8}), Layout::packed({8}), 1);
  std::vector<float> r(8);
  std::vector<std::complex<float>> c(8);
  EXPECT_THROW(c2c.execute(r.data(), c.data()), InvalidArgument);
}

}  // namespace
}  // namespace gpulab::testing
