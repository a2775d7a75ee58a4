#pragma once
// gpulab's CPU GEMM (`cpu-packed` in the matmul registry): C = alpha * A * B + beta * C on host
// matrices, in the style of BLIS. Blocks of A and B are packed into contiguous panels sized from the
// detected caches, and a register micro-kernel for the best ISA the CPU has (AVX-512, AVX2 with FMA,
// or portable code) multiplies them; the outer loops run on a thread pool. Operands may be row- or
// column-major (so transposes cost nothing) with any leading dimension. docs/cpu-gemm.md has the design.
//
// Semantics follow gpulab::matmul: M = 0 or N = 0 does nothing; K = 0 gives C = beta * C; with
// beta = 0, C is never read. Shapes that do not chain, operands outside host memory and leading
// dimensions smaller than the matrix raise InvalidArgument.
#include <cstdint>
#include <optional>

#include <gpulab/cpu/cpu_info.hpp>
#include <gpulab/view.hpp>

namespace gpulab::cpu {

struct GemmOptions {
  int threads = 0;         // 0: all cores
  std::optional<Isa> isa;  // unset: GPULAB_CPU_ISA when set, else the best the CPU has
  // Block sizes; 0 takes them from the cache sizes. Tests set small ones to cover every loop.
  int kc = 0, mc = 0, nc = 0;
};

// The ISA gemm() would use with `requested` (or, unset, GPULAB_CPU_ISA, then the best available).
// Throws InvalidArgument when the requested ISA is not supported by this CPU, naming what is.
Isa resolve_isa(std::optional<Isa> requested = std::nullopt);

// The register tile (rows x columns of C) of the micro-kernel for `isa` and `dtype`.
struct MicroTile {
  int mr = 0, nr = 0;
};
MicroTile micro_tile(Isa isa, Dtype dtype);

template <class T>
void gemm(matrix_view<const T> a, matrix_view<const T> b, matrix_view<T> c, T alpha = T{1}, T beta = T{0},
          const GemmOptions& options = {});

extern template void gemm<float>(matrix_view<const float>, matrix_view<const float>, matrix_view<float>, float,
                                 float, const GemmOptions&);
extern template void gemm<double>(matrix_view<const double>, matrix_view<const double>, matrix_view<double>,
                                  double, double, const GemmOptions&);
extern template void gemm<std::int32_t>(matrix_view<const std::int32_t>, matrix_view<const std::int32_t>,
                                        matrix_view<std::int32_t>, std::int32_t, std::int32_t,
                                        const GemmOptions&);

}  // namespace gpulab::cpu
