#pragma once
// The element types of the simulator's cuBLAS as the work computes with them: float, double and
// std::complex of each, which share cuComplex's and cuDoubleComplex's layout (two values, real first),
// so CUDA's pointers are read in place. And the BLAS conventions every routine shares.
#include <complex>
#include <cstddef>
#include <type_traits>

#include <gpulab/sim/cuda/cuComplex.h>

namespace gpulab::sim::cublas {

template <class T>
struct is_complex : std::false_type {};
template <class R>
struct is_complex<std::complex<R>> : std::true_type {};
template <class T>
inline constexpr bool is_complex_v = is_complex<T>::value;

template <class T>
struct real_of {
  using type = T;
};
template <class R>
struct real_of<std::complex<R>> {
  using type = R;
};
template <class T>
using real_t = typename real_of<T>::type;

// CUDA's types to the ones computed with.
template <class C>
struct element_of {
  using type = C;
};
template <>
struct element_of<cuComplex> {
  using type = std::complex<float>;
};
template <>
struct element_of<cuDoubleComplex> {
  using type = std::complex<double>;
};
static_assert(sizeof(cuComplex) == sizeof(std::complex<float>) && sizeof(cuDoubleComplex) == sizeof(std::complex<double>));

template <class C>
auto* elements(C* p) {
  using E = typename element_of<std::remove_const_t<C>>::type;
  if constexpr (std::is_const_v<C>) {
    return reinterpret_cast<const E*>(p);
  } else {
    return reinterpret_cast<E*>(p);
  }
}

template <class T>
T conj_if(T x, bool conjugate) {
  if constexpr (is_complex_v<T>) {
    return conjugate ? std::conj(x) : x;
  } else {
    (void)conjugate;
    return x;
  }
}

// |re| + |im|: the magnitude BLAS's i?amax, i?amin and ?asum use for complex numbers.
template <class T>
real_t<T> abs1(T x) {
  if constexpr (is_complex_v<T>) {
    return std::abs(x.real()) + std::abs(x.imag());
  } else {
    return std::abs(x);
  }
}

// Element i of an n-vector with increment inc: BLAS walks a negative increment from the far end.
template <class T>
T& at(T* x, long long i, long long n, long long inc) {
  return inc >= 0 ? x[i * inc] : x[(n - 1 - i) * -inc];
}

}  // namespace gpulab::sim::cublas
