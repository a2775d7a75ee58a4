// Portable micro-kernels in plain C++ (compiled without AVX on x86-64; see src/cpu/CMakeLists.txt), for
// CPUs without AVX2 and as the reference path the tests compare the vector kernels against. The
// vector "width" is one element; the compiler may still use the baseline SIMD (SSE2) for it.
#include <cstdint>

#include "cpu/micro_kernel.hpp"
#include "cpu/micro_kernel_body.hpp"

namespace gpulab::cpu::detail {
namespace {

template <class T>
struct Scalar {
  using scalar = T;
  using reg = T;
  static constexpr int width = 1;
  static reg zero() { return T{0}; }
  static reg load(const T* p) { return *p; }
  static reg broadcast(const T* p) { return *p; }
  static reg fma(reg a, reg b, reg c) { return a * b + c; }
  static reg mul(reg a, reg b) { return a * b; }
  static void store(T* p, reg r) { *p = r; }
};

// int32 arithmetic in uint32, so that overflow wraps (as the SIMD kernels do) instead of being undefined.
struct WrappingInt32 {
  using scalar = std::int32_t;
  using reg = std::uint32_t;
  static constexpr int width = 1;
  static reg zero() { return 0; }
  static reg load(const std::int32_t* p) { return static_cast<std::uint32_t>(*p); }
  static reg broadcast(const std::int32_t* p) { return static_cast<std::uint32_t>(*p); }
  static reg fma(reg a, reg b, reg c) { return a * b + c; }
  static reg mul(reg a, reg b) { return a * b; }
  static void store(std::int32_t* p, reg r) { *p = static_cast<std::int32_t>(r); }
};

}  // namespace

MicroKernelSet generic_micro_kernels() {
  MicroKernelSet set;
  set.f32 = {4, 8, &micro_kernel<Scalar<float>, 4, 8>};
  set.f64 = {4, 8, &micro_kernel<Scalar<double>, 4, 8>};
  set.i32 = {4, 8, &micro_kernel<WrappingInt32, 4, 8>};
  return set;
}

}  // namespace gpulab::cpu::detail
