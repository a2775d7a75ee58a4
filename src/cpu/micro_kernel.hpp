#pragma once
// The seam between the portable GEMM driver and the ISA-specific micro-kernels. Each kernel file is
// compiled with its own ISA flags (src/cpu/CMakeLists.txt), so the driver must only call the table
// getter of an ISA after checking that the CPU has it: even building the table may use its instructions.
#include <cstdint>

namespace gpulab::cpu::detail {

// C[mr x nr] (row stride ldc, unit column stride) = alpha * A * B + beta * C, where A is a packed
// micro-panel a[k * mr + i] and B a packed micro-panel b[k * nr + j], k in [0, kc). With beta == 0,
// C is only written. `a_next` is the A micro-panel to prefetch while this one runs (the next one the
// caller will use, or `a` itself): a hint, never read.
template <class T>
using MicroKernelFn = void (*)(std::int64_t kc, const T* a, const T* b, T* c, std::int64_t ldc, T alpha, T beta,
                               const T* a_next);

template <class T>
struct MicroKernel {
  int mr = 0;
  int nr = 0;
  MicroKernelFn<T> run = nullptr;
};

struct MicroKernelSet {
  MicroKernel<float> f32;
  MicroKernel<double> f64;
  MicroKernel<std::int32_t> i32;
};

MicroKernelSet generic_micro_kernels();
#if defined(__x86_64__)
MicroKernelSet avx2_micro_kernels();
MicroKernelSet avx512_micro_kernels();
#endif

}  // namespace gpulab::cpu::detail
