#pragma once
// gpulab-simcc's shadow of CUDA's <cuda_bf16.h>: bfloat16 (float's 8-bit exponent, 7 fraction bits) as
// `__nv_bfloat16` and `__nv_bfloat162`, with the same operations as <cuda_fp16.h> and the same rounding
// (see gpulab_small_float.hpp). Usable in host code too, as CUDA's is.
#if !defined(GPULAB_SIM)
#error "this <cuda_bf16.h> is gpulab's simulator shadow of CUDA's: build with gpulab-simcc or gpulab_add_sim_executable"
#endif

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <gpulab/sim/device_runtime.hpp>

#include "gpulab_small_float.hpp"
#include "vector_types.h"

struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __nv_bfloat162_raw {
  unsigned short x, y;
};

struct alignas(2) __nv_bfloat16
    : gpulab::sim::small_float::scalar_storage<gpulab::sim::small_float::bfloat16, __nv_bfloat16_raw> {
  using scalar_storage::scalar_storage;
};

struct alignas(4) __nv_bfloat162 : gpulab::sim::small_float::pair_storage<__nv_bfloat16, __nv_bfloat162_raw> {
  using pair_storage::pair_storage;
};

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

static_assert(sizeof(__nv_bfloat16) == 2 && sizeof(__nv_bfloat162) == 4 && alignof(__nv_bfloat162) == 4);
static_assert(std::is_trivially_copyable_v<__nv_bfloat16> && std::is_trivially_copyable_v<__nv_bfloat162>);

// ---- conversions: __float2bfloat16, __bfloat162float, __floats2bfloat162_rn, ... ----
GPULAB_SMALL_FLOAT_CONVERSIONS(__nv_bfloat16, __nv_bfloat162, bfloat16, bfloat162)

// Toward zero: bfloat16 is float's upper half, so truncating the bits is the conversion.
inline __nv_bfloat16 __float2bfloat16_rz(float a) {
  std::uint32_t bits;
  std::memcpy(&bits, &a, sizeof bits);
  if (std::isnan(a)) return gpulab::sim::small_float::from_bits<__nv_bfloat16>(0x7fffu);
  return gpulab::sim::small_float::from_bits<__nv_bfloat16>(static_cast<std::uint16_t>(bits >> 16));
}

// Arithmetic, comparisons and math, and the pair operations: gpulab_small_float.hpp (shared with
// <cuda_fp16.h>).
