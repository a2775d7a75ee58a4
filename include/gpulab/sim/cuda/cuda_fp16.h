#pragma once
// gpulab-simcc's shadow of CUDA's <cuda_fp16.h>: IEEE 754 binary16 as `__half` and `__half2`, with
// CUDA's conversions, arithmetic, comparisons and warp shuffles, bit-identical to a GPU's for everything
// but the transcendental functions (see gpulab_small_float.hpp). Usable in host code too, as CUDA's is.
#if !defined(GPULAB_SIM)
#error "this <cuda_fp16.h> is gpulab's simulator shadow of CUDA's: build with gpulab-simcc or gpulab_add_sim_executable"
#endif

#include <type_traits>

#include <gpulab/sim/device_runtime.hpp>

#include "gpulab_small_float.hpp"
#include "vector_types.h"

struct __half_raw {
  unsigned short x;
};
struct __half2_raw {
  unsigned short x, y;
};

struct alignas(2) __half : gpulab::sim::small_float::scalar_storage<gpulab::sim::small_float::binary16, __half_raw> {
  using scalar_storage::scalar_storage;
};

struct alignas(4) __half2 : gpulab::sim::small_float::pair_storage<__half, __half2_raw> {
  using pair_storage::pair_storage;
};

typedef __half half;
typedef __half2 half2;

static_assert(sizeof(__half) == 2 && sizeof(__half2) == 4 && alignof(__half2) == 4);
static_assert(std::is_trivially_copyable_v<__half> && std::is_trivially_copyable_v<__half2>);


// ---- conversions: __float2half, __half2float, __floats2half2_rn, __half_as_ushort, ... ----
GPULAB_SMALL_FLOAT_CONVERSIONS(__half, __half2, half, half2)

// Arithmetic, comparisons and math, and the pair operations: gpulab_small_float.hpp (shared with
// <cuda_bf16.h>). Warp shuffles move any value of up to 8 bytes (device_runtime.hpp), so
// __shfl_sync(mask, h, lane) works on __half and __half2 as on a GPU.
