#pragma once
// gpulab-simcc's shadow of cuRAND's device API, <curand_kernel.h>: the states of the Philox4_32_10,
// XORWOW and MRG32k3a generators and the functions on them, compiled into the program as host code
// (device code is host code in the simulator), with the toolkit's names, state layouts and sequences.
// The generators themselves are in <gpulab/sim/device/curand_*.hpp>, shared with libgpulab_curand's
// host API. Not provided (a build error naming the missing function): the quasi-random states (Sobol),
// MTGP32, and the discrete distributions (curand_discrete, curandDiscreteDistribution_t on the device).
#ifndef CURAND_KERNEL_H_
#define CURAND_KERNEL_H_

#if !defined(__cplusplus)
#error "<curand_kernel.h> is C++ (cuRAND's device API)"
#endif

#include <cmath>
#include <cstdint>

#include "curand.h"
#include "vector_types.h"

#include <gpulab/sim/device/curand_common.hpp>
#include <gpulab/sim/device/curand_mrg32k3a.hpp>
#include <gpulab/sim/device/curand_philox.hpp>
#include <gpulab/sim/device/curand_xorwow.hpp>

#define EXTRA_FLAG_NORMAL 0x00000001
#define EXTRA_FLAG_LOG_NORMAL 0x00000002

// The states, field for field as cuRAND declares them (programs allocate arrays of them with cudaMalloc
// and sometimes read their fields).
struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

struct curandStateMRG32k3a {
  unsigned int s1[3];
  unsigned int s2[3];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;

static_assert(sizeof(curandStateXORWOW) == 48 && sizeof(curandStatePhilox4_32_10) == 64 &&
              sizeof(curandStateMRG32k3a) == 48, "cuRAND's state sizes");

namespace gpulab::sim::curand::api {
using ::gpulab::sim::curand::Pair;
inline float2 f2(Pair<float> p) { return make_float2(p.x, p.y); }
inline double2 d2(Pair<double> p) { return make_double2(p.x, p.y); }
inline uint4 u4(Words4 w) { return make_uint4(w.x, w.y, w.z, w.w); }
}  // namespace gpulab::sim::curand::api

#define GPULAB_CURAND_QUALIFIERS static inline

// ---- XORWOW ------------------------------------------------------------------------------------------
GPULAB_CURAND_QUALIFIERS void curand_init(unsigned long long seed, unsigned long long subsequence,
                                          unsigned long long offset, curandStateXORWOW_t* state) {
  gpulab::sim::curand::xorwow_init(seed, subsequence, offset, *state);
}
GPULAB_CURAND_QUALIFIERS unsigned int curand(curandStateXORWOW_t* state) {
  return gpulab::sim::curand::xorwow_next(*state);
}
GPULAB_CURAND_QUALIFIERS void skipahead(unsigned long long n, curandStateXORWOW_t* state) {
  gpulab::sim::curand::xorwow_skipahead(n, *state);
}
GPULAB_CURAND_QUALIFIERS void skipahead_sequence(unsigned long long n, curandStateXORWOW_t* state) {
  gpulab::sim::curand::xorwow_skipahead_sequence(n, *state);
}
GPULAB_CURAND_QUALIFIERS float curand_uniform(curandStateXORWOW_t* state) {
  return gpulab::sim::curand::uniform_float(curand(state));
}
GPULAB_CURAND_QUALIFIERS double curand_uniform_double(curandStateXORWOW_t* state) {
  const unsigned int x = curand(state);
  const unsigned int y = curand(state);
  return gpulab::sim::curand::uniform_double_53(x, y);
}
GPULAB_CURAND_QUALIFIERS float2 curand_normal2(curandStateXORWOW_t* state) {
  const unsigned int x = curand(state);
  const unsigned int y = curand(state);
  return gpulab::sim::curand::api::f2(gpulab::sim::curand::box_muller_float(x, y));
}
GPULAB_CURAND_QUALIFIERS double2 curand_normal2_double(curandStateXORWOW_t* state) {
  const unsigned int x0 = curand(state), x1 = curand(state), y0 = curand(state), y1 = curand(state);
  return gpulab::sim::curand::api::d2(gpulab::sim::curand::box_muller_double(x0, x1, y0, y1));
}

// ---- Philox4_32_10 -----------------------------------------------------------------------------------
GPULAB_CURAND_QUALIFIERS void curand_init(unsigned long long seed, unsigned long long subsequence,
                                          unsigned long long offset, curandStatePhilox4_32_10_t* state) {
  gpulab::sim::curand::philox_init(seed, subsequence, offset, *state);
}
GPULAB_CURAND_QUALIFIERS unsigned int curand(curandStatePhilox4_32_10_t* state) {
  return gpulab::sim::curand::philox_next(*state);
}
GPULAB_CURAND_QUALIFIERS uint4 curand4(curandStatePhilox4_32_10_t* state) {
  return gpulab::sim::curand::api::u4(gpulab::sim::curand::philox_next4(*state));
}
GPULAB_CURAND_QUALIFIERS void skipahead(unsigned long long n, curandStatePhilox4_32_10_t* state) {
  gpulab::sim::curand::philox_skipahead(n, *state);
}
GPULAB_CURAND_QUALIFIERS void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t* state) {
  gpulab::sim::curand::philox_skipahead_sequence(n, *state);
}
GPULAB_CURAND_QUALIFIERS float curand_uniform(curandStatePhilox4_32_10_t* state) {
  return gpulab::sim::curand::uniform_float(curand(state));
}
GPULAB_CURAND_QUALIFIERS float4 curand_uniform4(curandStatePhilox4_32_10_t* state) {
  using gpulab::sim::curand::uniform_float;
  const uint4 x = curand4(state);
  return make_float4(uniform_float(x.x), uniform_float(x.y), uniform_float(x.z), uniform_float(x.w));
}
// One word (cuRAND's Philox double uniform), unlike XORWOW's two.
GPULAB_CURAND_QUALIFIERS double curand_uniform_double(curandStatePhilox4_32_10_t* state) {
  return gpulab::sim::curand::uniform_double_32(curand(state));
}
GPULAB_CURAND_QUALIFIERS double2 curand_uniform2_double(curandStatePhilox4_32_10_t* state) {
  using gpulab::sim::curand::uniform_double_53;
  const uint4 x = curand4(state);
  return make_double2(uniform_double_53(x.x, x.y), uniform_double_53(x.z, x.w));
}
// Not in cuRAND's documented API, but in its header (and what its host generator's doubles are made of).
GPULAB_CURAND_QUALIFIERS double4 curand_uniform4_double(curandStatePhilox4_32_10_t* state) {
  using gpulab::sim::curand::uniform_double_53;
  const uint4 x = curand4(state);
  const uint4 y = curand4(state);
  return double4{uniform_double_53(x.x, x.y), uniform_double_53(x.z, x.w), uniform_double_53(y.x, y.y),
                     uniform_double_53(y.z, y.w)};
}
GPULAB_CURAND_QUALIFIERS float2 curand_normal2(curandStatePhilox4_32_10_t* state) {
  const unsigned int x = curand(state);
  const unsigned int y = curand(state);
  return gpulab::sim::curand::api::f2(gpulab::sim::curand::box_muller_float(x, y));
}
GPULAB_CURAND_QUALIFIERS float4 curand_normal4(curandStatePhilox4_32_10_t* state) {
  using gpulab::sim::curand::box_muller_float;
  const uint4 x = curand4(state);
  const auto a = box_muller_float(x.x, x.y), b = box_muller_float(x.z, x.w);
  return make_float4(a.x, a.y, b.x, b.y);
}
GPULAB_CURAND_QUALIFIERS double2 curand_normal2_double(curandStatePhilox4_32_10_t* state) {
  const uint4 x = curand4(state);
  return gpulab::sim::curand::api::d2(gpulab::sim::curand::box_muller_double(x.x, x.y, x.z, x.w));
}
GPULAB_CURAND_QUALIFIERS double4 curand_normal4_double(curandStatePhilox4_32_10_t* state) {
  using gpulab::sim::curand::box_muller_double;
  const uint4 x = curand4(state);
  const uint4 y = curand4(state);
  const auto a = box_muller_double(x.x, x.y, x.z, x.w), b = box_muller_double(y.x, y.y, y.z, y.w);
  return double4{a.x, a.y, b.x, b.y};
}

// ---- MRG32k3a ----------------------------------------------------------------------------------------
GPULAB_CURAND_QUALIFIERS void curand_init(unsigned long long seed, unsigned long long subsequence,
                                          unsigned long long offset, curandStateMRG32k3a_t* state) {
  gpulab::sim::curand::mrg32k3a_init(seed, subsequence, offset, *state);
}
GPULAB_CURAND_QUALIFIERS unsigned int curand(curandStateMRG32k3a_t* state) {
  return gpulab::sim::curand::mrg32k3a_next(*state);
}
GPULAB_CURAND_QUALIFIERS void skipahead(unsigned long long n, curandStateMRG32k3a_t* state) {
  gpulab::sim::curand::mrg32k3a_skipahead(n, *state);
}
GPULAB_CURAND_QUALIFIERS void skipahead_subsequence(unsigned long long n, curandStateMRG32k3a_t* state) {
  gpulab::sim::curand::mrg32k3a_skipahead_subsequence(n, *state);
}
GPULAB_CURAND_QUALIFIERS void skipahead_sequence(unsigned long long n, curandStateMRG32k3a_t* state) {
  gpulab::sim::curand::mrg32k3a_skipahead_sequence(n, *state);
}
GPULAB_CURAND_QUALIFIERS float curand_uniform(curandStateMRG32k3a_t* state) {
  return gpulab::sim::curand::mrg32k3a_uniform(*state);
}
GPULAB_CURAND_QUALIFIERS double curand_uniform_double(curandStateMRG32k3a_t* state) {
  return gpulab::sim::curand::mrg32k3a_uniform_double(*state);
}
GPULAB_CURAND_QUALIFIERS float2 curand_normal2(curandStateMRG32k3a_t* state) {
  return gpulab::sim::curand::api::f2(gpulab::sim::curand::mrg32k3a_box_muller(*state));
}
GPULAB_CURAND_QUALIFIERS double2 curand_normal2_double(curandStateMRG32k3a_t* state) {
  return gpulab::sim::curand::api::d2(gpulab::sim::curand::mrg32k3a_box_muller_double(*state));
}

// ---- What every generator has the same way -------------------------------------------------------------
// One normal at a time: the second of each Box-Muller pair is kept in the state (cuRAND's flags), in
// float and double apart; the double forms of XORWOW and Philox draw from four words.
#define GPULAB_CURAND_PAIRED(State, draw_float, draw_double)                                                  \
  GPULAB_CURAND_QUALIFIERS float curand_normal(State* state) {                                                \
    return gpulab::sim::curand::one_of_pair(*state, EXTRA_FLAG_NORMAL, [&] {                                  \
      const float2 v = draw_float(state);                                                                     \
      return gpulab::sim::curand::Pair<float>{v.x, v.y};                                                      \
    });                                                                                                       \
  }                                                                                                           \
  GPULAB_CURAND_QUALIFIERS double curand_normal_double(State* state) {                                        \
    return gpulab::sim::curand::one_of_pair_double(*state, EXTRA_FLAG_NORMAL, [&] {                           \
      const double2 v = draw_double(state);                                                                   \
      return gpulab::sim::curand::Pair<double>{v.x, v.y};                                                     \
    });                                                                                                       \
  }                                                                                                           \
  GPULAB_CURAND_QUALIFIERS float curand_log_normal(State* state, float mean, float stddev) {                  \
    return gpulab::sim::curand::one_of_pair(*state, EXTRA_FLAG_LOG_NORMAL, [&] {                              \
      const float2 v = draw_float(state);                                                                     \
      return gpulab::sim::curand::Pair<float>{gpulab::sim::curand::log_normal_of(v.x, mean, stddev),          \
                                              gpulab::sim::curand::log_normal_of(v.y, mean, stddev)};         \
    });                                                                                                       \
  }                                                                                                           \
  GPULAB_CURAND_QUALIFIERS double curand_log_normal_double(State* state, double mean, double stddev) {        \
    return gpulab::sim::curand::one_of_pair_double(*state, EXTRA_FLAG_LOG_NORMAL, [&] {                       \
      const double2 v = draw_double(state);                                                                   \
      return gpulab::sim::curand::Pair<double>{gpulab::sim::curand::log_normal_of(v.x, mean, stddev),         \
                                               gpulab::sim::curand::log_normal_of(v.y, mean, stddev)};        \
    });                                                                                                       \
  }                                                                                                           \
  GPULAB_CURAND_QUALIFIERS float2 curand_log_normal2(State* state, float mean, float stddev) {                \
    const float2 v = draw_float(state);                                                                       \
    return make_float2(gpulab::sim::curand::log_normal_of(v.x, mean, stddev),                                \
                       gpulab::sim::curand::log_normal_of(v.y, mean, stddev));                                \
  }                                                                                                           \
  GPULAB_CURAND_QUALIFIERS double2 curand_log_normal2_double(State* state, double mean, double stddev) {      \
    const double2 v = draw_double(state);                                                                     \
    return make_double2(gpulab::sim::curand::log_normal_of(v.x, mean, stddev),                                \
                        gpulab::sim::curand::log_normal_of(v.y, mean, stddev));                               \
  }                                                                                                           \
  /* Knuth's method below a mean of 64, a normal approximation above 4000, cuRAND's rejection method         \
     between. */                                                                                              \
  GPULAB_CURAND_QUALIFIERS unsigned int curand_poisson(State* state, double lambda) {                         \
    if (lambda < 64) {                                                                                        \
      return gpulab::sim::curand::poisson_knuth(static_cast<float>(lambda), [&] { return curand_uniform(state); }); \
    }                                                                                                         \
    if (lambda > 4000) return gpulab::sim::curand::poisson_from_normal(lambda, curand_normal_double(state));  \
    return gpulab::sim::curand::poisson_rejection(static_cast<float>(lambda), [&] { return curand_uniform(state); }); \
  }

GPULAB_CURAND_PAIRED(curandStateXORWOW_t, curand_normal2, curand_normal2_double)
GPULAB_CURAND_PAIRED(curandStatePhilox4_32_10_t, curand_normal2, curand_normal2_double)
GPULAB_CURAND_PAIRED(curandStateMRG32k3a_t, curand_normal2, curand_normal2_double)
#undef GPULAB_CURAND_PAIRED

GPULAB_CURAND_QUALIFIERS float4 curand_log_normal4(curandStatePhilox4_32_10_t* state, float mean, float stddev) {
  using gpulab::sim::curand::log_normal_of;
  const float4 v = curand_normal4(state);
  return make_float4(log_normal_of(v.x, mean, stddev), log_normal_of(v.y, mean, stddev),
                     log_normal_of(v.z, mean, stddev), log_normal_of(v.w, mean, stddev));
}
GPULAB_CURAND_QUALIFIERS double4 curand_log_normal4_double(curandStatePhilox4_32_10_t* state, double mean,
                                                               double stddev) {
  using gpulab::sim::curand::log_normal_of;
  const double4 v = curand_normal4_double(state);
  return double4{log_normal_of(v.x, mean, stddev), log_normal_of(v.y, mean, stddev),
                     log_normal_of(v.z, mean, stddev), log_normal_of(v.w, mean, stddev)};
}
GPULAB_CURAND_QUALIFIERS uint4 curand_poisson4(curandStatePhilox4_32_10_t* state, double lambda) {
  using namespace gpulab::sim::curand;
  auto uniform = [&] { return curand_uniform(state); };
  if (lambda < 64) {
    const float l = static_cast<float>(lambda);
    const unsigned a = poisson_knuth(l, uniform), b = poisson_knuth(l, uniform);
    const unsigned c = poisson_knuth(l, uniform), d = poisson_knuth(l, uniform);
    return make_uint4(a, b, c, d);
  }
  if (lambda > 4000) {
    const double4 z = curand_normal4_double(state);
    return make_uint4(poisson_from_normal(lambda, z.x), poisson_from_normal(lambda, z.y),
                      poisson_from_normal(lambda, z.z), poisson_from_normal(lambda, z.w));
  }
  const float l = static_cast<float>(lambda);
  const unsigned a = poisson_rejection(l, uniform), b = poisson_rejection(l, uniform);
  const unsigned c = poisson_rejection(l, uniform), d = poisson_rejection(l, uniform);
  return make_uint4(a, b, c, d);
}

#undef GPULAB_CURAND_QUALIFIERS
#endif  // CURAND_KERNEL_H_
