// The texture-fetching formulas of the CUDA programming guide (appendix "Texture Fetching"), in
// float64 on the host, for the texture test programs to check their fetches against. Included by
// textures_fetch.cu, textures_filtering.cu and surfaces_readwrite.cu; never compiled on its own.
//
// A texture is given as a function texel(i, j, k) -> Texel4 of in-range indices. Coordinates are
// scaled to texels in float, as the GPU does (u * n); everything after that is exact:
// - point: texel floor(x);
// - linear: xB = x - 0.5, i = floor(xB), alpha = frac(xB) held in 9-bit fixed point (8 fraction bits:
//   xB rounded to the nearest 1/256), tex = (1 - alpha) T[i] + alpha T[i + 1], and the same per dimension;
// - address modes per texel index: clamp, border (the border colour), wrap (mod n) and mirror (mod 2n,
//   reflected), wrap and mirror with normalized coordinates only.
#pragma once
#include <cmath>
#include <cstdint>

#include <cuda_runtime.h>

struct Texel4 {
  double v[4];
};

// A deterministic source of test inputs (64-bit LCG).
struct TestRandom {
  std::uint64_t state;
  explicit TestRandom(std::uint64_t seed) : state(seed * 6364136223846793005ull + 1442695040888963407ull) {}
  std::uint32_t next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(state >> 32);
  }
  // Uniform in [lo, hi).
  float uniform(float lo, float hi) { return lo + (hi - lo) * static_cast<float>(next() >> 8) * (1.0f / 16777216.0f); }
};

const long long model_border = -1;

inline long long model_address(long long i, long long n, cudaTextureAddressMode mode, bool normalized) {
  if (!normalized && (mode == cudaAddressModeWrap || mode == cudaAddressModeMirror)) mode = cudaAddressModeClamp;
  switch (mode) {
    case cudaAddressModeBorder: return i < 0 || i >= n ? model_border : i;
    case cudaAddressModeWrap: return ((i % n) + n) % n;
    case cudaAddressModeMirror: {
      const long long m = ((i % (2 * n)) + 2 * n) % (2 * n);
      return m < n ? m : 2 * n - 1 - m;
    }
    default: return i < 0 ? 0 : (i >= n ? n - 1 : i);
  }
}

// A coordinate in texels, computed in float as the GPU computes it.
inline float model_texel_coordinate(float c, int n, bool normalized) { return normalized ? c * static_cast<float>(n) : c; }

// Linear filtering's pair around x: the lower index and the 8-bit weight of the upper one. With
// `quantized` false, the weight is the exact fraction (what the hardware does not do), for a test to
// show that its inputs tell the two apart.
inline void model_linear_pair(float x, bool quantized, long long* i, double* alpha) {
  const double xb = static_cast<double>(x) - 0.5;
  if (!quantized) {
    *i = static_cast<long long>(std::floor(xb));
    *alpha = xb - std::floor(xb);
    return;
  }
  const long long q = static_cast<long long>(std::floor(xb * 256.0 + 0.5));
  *i = static_cast<long long>(std::floor(q / 256.0));
  *alpha = static_cast<double>(q - *i * 256) / 256.0;
}

struct ModelTexture {
  int width, height, depth;  // height, depth 1 for fewer dimensions
  int dims;
  cudaTextureAddressMode mode[3];
  bool normalized;
  Texel4 border;
};

// One fetch of a 1-, 2- or 3-D texture. `texel(i, j, k)` gives in-range texels.
template <class TexelFn>
Texel4 model_fetch(const ModelTexture& t, TexelFn texel, bool linear, float x, float y, float z, bool quantized = true) {
  const int size[3] = {t.width, t.height, t.depth};
  const float c[3] = {x, y, z};
  long long base[3] = {0, 0, 0};
  double alpha[3] = {0, 0, 0};
  for (int d = 0; d < t.dims; ++d) {
    const float tc = model_texel_coordinate(c[d], size[d], t.normalized);
    if (linear) {
      model_linear_pair(tc, quantized, &base[d], &alpha[d]);
    } else {
      base[d] = static_cast<long long>(std::floor(tc));
    }
  }
  Texel4 sum = {{0, 0, 0, 0}};
  const int taps = linear ? 1 << t.dims : 1;
  for (int tap = 0; tap < taps; ++tap) {
    double w = 1.0;
    long long at[3] = {0, 0, 0};
    bool border = false;
    for (int d = 0; d < t.dims; ++d) {
      const int up = linear ? (tap >> d) & 1 : 0;
      if (linear) w *= up != 0 ? alpha[d] : 1.0 - alpha[d];
      at[d] = model_address(base[d] + up, size[d], t.mode[d], t.normalized);
      border = border || at[d] == model_border;
    }
    const Texel4 v = border ? t.border : texel(at[0], at[1], at[2]);
    for (int ch = 0; ch < 4; ++ch) sum.v[ch] += w * v.v[ch];
  }
  return sum;
}

// The cubemap face a direction selects and the face coordinates in [0, 1] (the guide's table).
inline void model_cube_face(double x, double y, double z, int* face, double* s, double* t) {
  const double ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  double m, sc, tc;
  if (ax >= ay && ax >= az) {
    m = ax, *face = x >= 0 ? 0 : 1, sc = x >= 0 ? -z : z, tc = -y;
  } else if (ay >= az) {
    m = ay, *face = y >= 0 ? 2 : 3, sc = x, tc = y >= 0 ? z : -z;
  } else {
    m = az, *face = z >= 0 ? 4 : 5, sc = z >= 0 ? x : -x, tc = -y;
  }
  *s = (sc / m + 1.0) / 2.0;
  *t = (tc / m + 1.0) / 2.0;
}

// A direction that the table maps to face `face` at (s, t), s and t in (0, 1): the inverse of the above.
inline float3 model_cube_direction(int face, double s, double t) {
  const double sc = 2.0 * s - 1.0, tc = 2.0 * t - 1.0;
  switch (face) {
    case 0: return make_float3(1.0f, static_cast<float>(-tc), static_cast<float>(-sc));
    case 1: return make_float3(-1.0f, static_cast<float>(-tc), static_cast<float>(sc));
    case 2: return make_float3(static_cast<float>(sc), 1.0f, static_cast<float>(tc));
    case 3: return make_float3(static_cast<float>(sc), -1.0f, static_cast<float>(-tc));
    case 4: return make_float3(static_cast<float>(sc), static_cast<float>(-tc), 1.0f);
    default: return make_float3(static_cast<float>(-sc), static_cast<float>(-tc), -1.0f);
  }
}
