#pragma once
// What the CPU FFT's files share (include/gpulab/cpu/fft.hpp is the interface): the complex arithmetic
// the passes use, the plan's inside, and roots of unity computed in double.
//
// Arithmetic is written out on real and imaginary parts (struct Cx) rather than with std::complex's
// operators: g++ compiles std::complex multiplication, without -ffast-math, to a call that handles
// infinities and NaNs the C99 way, several times slower than the four multiplies an FFT needs. The
// public arrays are std::complex<T>, which the standard lets us read as pairs of T.
#include <cmath>
#include <complex>
#include <cstddef>
#include <memory>
#include <numbers>
#include <vector>

#include <gpulab/cpu/fft.hpp>

namespace gpulab::cpu::fft::detail {

template <class T>
struct Cx {
  T re, im;
};

template <class T>
inline Cx<T> add(Cx<T> a, Cx<T> b) {
  return {a.re + b.re, a.im + b.im};
}
template <class T>
inline Cx<T> sub(Cx<T> a, Cx<T> b) {
  return {a.re - b.re, a.im - b.im};
}
template <class T>
inline Cx<T> mul(Cx<T> a, Cx<T> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
// a * conj(b): an inverse transform uses the conjugates of the forward twiddles.
template <class T>
inline Cx<T> mul_conj(Cx<T> a, Cx<T> b) {
  return {a.re * b.re + a.im * b.im, a.im * b.re - a.re * b.im};
}
template <class T>
inline Cx<T> conj(Cx<T> a) {
  return {a.re, -a.im};
}
template <class T>
inline Cx<T> scale(Cx<T> a, T s) {
  return {a.re * s, a.im * s};
}
// -i * a (forward) or +i * a (inverse).
template <bool Inverse, class T>
inline Cx<T> times_minus_i(Cx<T> a) {
  if constexpr (Inverse) return {-a.im, a.re};
  return {a.im, -a.re};
}

template <class T>
inline Cx<T>* cx(std::complex<T>* p) {
  return reinterpret_cast<Cx<T>*>(p);  // layout-compatible: std::complex<T> is T[2]
}
template <class T>
inline const Cx<T>* cx(const std::complex<T>* p) {
  return reinterpret_cast<const Cx<T>*>(p);
}

// e^{-2 pi i num/den} in double, rounded once to T. The fraction is reduced to the first octant so that
// sin and cos get arguments at most pi/4, where they are accurate to the last bit, and symmetric
// entries of a table come out exactly symmetric.
template <class T>
Cx<T> root(unsigned long long num, unsigned long long den) {
  num %= den;
  // 8 num / den picks the octant; exact integer comparisons decide it.
  const unsigned long long n8 = 8 * num;
  double c, s;  // cos and sin of 2 pi num / den
  auto angle = [&](long double numerator) {
    return static_cast<double>(2.0L * std::numbers::pi_v<long double> * numerator / static_cast<long double>(den));
  };
  const auto ln = static_cast<long double>(num), ld = static_cast<long double>(den);
  if (n8 <= den) {  // [0, pi/4]
    const double a = angle(ln);
    c = std::cos(a), s = std::sin(a);
  } else if (n8 <= 3 * den) {  // (pi/4, 3pi/4]: around pi/2
    const double a = angle(ln - ld / 4);
    c = -std::sin(a), s = std::cos(a);
  } else if (n8 <= 5 * den) {  // around pi
    const double a = angle(ln - ld / 2);
    c = -std::cos(a), s = -std::sin(a);
  } else if (n8 <= 7 * den) {  // around 3pi/2
    const double a = angle(ln - 3 * ld / 4);
    c = std::sin(a), s = -std::cos(a);
  } else {  // around 2pi
    const double a = angle(ln - ld);
    c = std::cos(a), s = std::sin(a);
  }
  return {static_cast<T>(c), static_cast<T>(-s)};
}

// One pass of the Stockham transform: `ns` is the length of the sub-transforms already done (the
// product of the radices before), `radix` how many of them this pass combines, `twiddles` where its
// ns * (radix - 1) twiddle factors start in the plan's table, `roots` where a generic radix's radix
// roots of unity start.
struct Pass {
  int radix = 0;
  std::size_t ns = 1;
  std::size_t twiddles = 0;
  std::size_t roots = 0;
};

// Bluestein's algorithm for a length n with a large prime factor: a convolution of length m (a power of
// two >= 2n - 1), run by `inner`.
template <class T>
struct Bluestein {
  std::size_t m = 0;
  std::unique_ptr<Plan<T>> inner;
  std::vector<Cx<T>> chirp;   // w_k = e^{-pi i k^2 / n}, k < n
  std::vector<Cx<T>> kernel;  // the transform of the chirp's conjugate, divided by m
};

template <class T>
struct PlanImpl {
  std::size_t n = 0;
  std::vector<Pass> passes;
  std::vector<Cx<T>> twiddles;
  std::vector<Cx<T>> roots;
  std::unique_ptr<Bluestein<T>> bluestein;
};

// The mixed-radix passes of `impl` (n's factors all <= 13): factors, twiddles, roots.
template <class T>
void plan_mixed_radix(PlanImpl<T>& impl);
// Runs the passes on contiguous arrays (in may be out only when there are two or more passes: the
// caller gathers otherwise); `work` holds 2n.
template <class T>
void run_mixed_radix(const PlanImpl<T>& impl, const Cx<T>* in, Cx<T>* out, bool inverse, Cx<T>* work);

template <class T>
void plan_bluestein(PlanImpl<T>& impl);
template <class T>
std::size_t bluestein_work_size(const PlanImpl<T>& impl);
template <class T>
void run_bluestein(const PlanImpl<T>& impl, const Cx<T>* in, std::ptrdiff_t in_stride, Cx<T>* out,
                   std::ptrdiff_t out_stride, bool inverse, Cx<T>* work);

// The largest prime factor the mixed-radix passes take; a length with a larger one runs Bluestein's.
inline constexpr std::size_t largest_radix = 13;

}  // namespace gpulab::cpu::fft::detail
