// Texture objects read with linear filtering, checked against the programming guide's formula in
// float64 (texture_reference_model.h): 1-D, 2-D (every address mode), 3-D and layered arrays, 8- and
// 16-bit integers read as normalized floats, mipmapped arrays through tex2DLod and tex2DGrad, and
// CUDA's simpleTexture pattern (a rotation with normalized, wrapped coordinates). The weights are
// 8-bit fractions in hardware: each test also counts the samples where exact weights would be off by
// more than its tolerance, so a test that cannot tell the two apart fails.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.h"
#include "device_buffers.h"
#include "texture_reference_model.h"

namespace {

int failures = 0;

void expect_near(double got, double want, double tolerance, const char* what, int index) {
  if (std::fabs(got - want) <= tolerance) return;
  if (++failures <= 12) std::printf("  %s: sample %d: got %.9g, expected %.9g\n", what, index, got, want);
}

// A check of one sampled texture: every sample must match the 8-bit-weight model, and some must not
// match exact weights (else the inputs do not test the weights).
struct WeightCheck {
  const char* what;
  double tolerance;
  int telling = 0;  // samples that exact weights would get wrong
  void sample(int i, double got, double want, double want_exact) {
    expect_near(got, want, tolerance, what, i);
    if (std::fabs(want_exact - want) > 4 * tolerance) ++telling;
  }
  void done() {
    if (telling == 0) {
      std::printf("  %s: no sample tells 8-bit weights from exact ones: the test checks nothing\n", what);
      ++failures;
    }
  }
};

cudaResourceDesc array_resource(cudaArray_t a) {
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  return r;
}

cudaTextureDesc linear_desc(cudaTextureAddressMode mode, bool normalized,
                            cudaTextureReadMode read = cudaReadModeElementType) {
  cudaTextureDesc td;
  std::memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = read;
  td.normalizedCoords = normalized ? 1 : 0;
  return td;
}

void copy_3d_to_array(cudaArray_t a, const void* host, std::size_t row_bytes, std::size_t w, std::size_t h,
                      std::size_t d) {
  cudaMemcpy3DParms p;
  std::memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(const_cast<void*>(host), row_bytes, w, h);
  p.dstArray = a;
  p.extent = make_cudaExtent(w, h, d);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
}

int blocks(int n) { return (n + 127) / 128; }

}  // namespace

__global__ void sample1D(cudaTextureObject_t t, const float* at, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(t, at[i]);
}

__global__ void sample2D(cudaTextureObject_t t, const float2* at, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, at[i].x, at[i].y);
}

__global__ void sample2D4(cudaTextureObject_t t, const float2* at, float4* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(t, at[i].x, at[i].y);
}

__global__ void sample3D(cudaTextureObject_t t, const float4* at, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<float>(t, at[i].x, at[i].y, at[i].z);
}

__global__ void sample2DLayered(cudaTextureObject_t t, const float4* at, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DLayered<float>(t, at[i].x, at[i].y, static_cast<int>(at[i].z));
}

// at = (u, v, level): a tex2DLod; the Grad forms get gradients whose level is `level`.
__global__ void sampleLod(cudaTextureObject_t t, const float4* at, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DLod<float>(t, at[i].x, at[i].y, at[i].z);
}

__global__ void sampleGrad(cudaTextureObject_t t, const float4* at, float2 dx, float2 dy, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DGrad<float>(t, at[i].x, at[i].y, dx, dy);
}

// CUDA's simpleTexture kernel, in its own words: rotate an image by theta about its centre.
__global__ void rotate(float* out, int width, int height, float theta, cudaTextureObject_t tex) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= static_cast<unsigned>(width) || y >= static_cast<unsigned>(height)) return;
  const float u = static_cast<float>(x) - static_cast<float>(width) / 2, v = static_cast<float>(y) - static_cast<float>(height) / 2;
  const float tu = (u * cosf(theta) - v * sinf(theta)) / static_cast<float>(width);
  const float tv = (v * cosf(theta) + u * sinf(theta)) / static_cast<float>(height);
  out[y * width + x] = tex2D<float>(tex, tu + 0.5f, tv + 0.5f);
}

// 2-D float texture, linear, every address mode.
static void check_2d() {
  const int w = 33, h = 17, n = 4000;
  TestRandom rng(11);
  std::vector<float> texels(w * h);
  for (float& v : texels) v = rng.uniform(-4, 4);
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &desc, w, h));
  CHECK(cudaMemcpy2DToArray(a, 0, 0, texels.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
  const struct {
    cudaTextureAddressMode mode;
    bool normalized;
    const char* name;
  } cases[] = {{cudaAddressModeWrap, true, "tex2D linear, wrap"},     {cudaAddressModeClamp, true, "tex2D linear, clamp"},
               {cudaAddressModeMirror, true, "tex2D linear, mirror"}, {cudaAddressModeBorder, true, "tex2D linear, border"},
               {cudaAddressModeClamp, false, "tex2D linear, clamp, unnormalized"},
               {cudaAddressModeBorder, false, "tex2D linear, border, unnormalized"}};
  for (const auto& c : cases) {
    cudaTextureDesc td = linear_desc(c.mode, c.normalized);
    td.borderColor[0] = -0.75f;
    cudaTextureObject_t t;
    const cudaResourceDesc r = array_resource(a);
    CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    std::vector<float2> at(n);
    for (float2& p : at) {
      p = c.normalized ? make_float2(rng.uniform(-1.3f, 2.3f), rng.uniform(-1.3f, 2.3f))
                       : make_float2(rng.uniform(-3, w + 3), rng.uniform(-3, h + 3));
    }
    float2* d_at = to_device(at);
    float* d_out;
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    sample2D<<<blocks(n), 128>>>(t, d_at, d_out, n);
    const std::vector<float> got = to_host(d_out, n);
    const ModelTexture m = {w, h, 1, 2, {c.mode, c.mode}, c.normalized, {{-0.75}}};
    const auto texel = [&](long long i, long long j, long long) { return Texel4{{texels[j * w + i]}}; };
    WeightCheck check{c.name, 2e-5};
    for (int i = 0; i < n; ++i) {
      check.sample(i, got[i], model_fetch(m, texel, true, at[i].x, at[i].y, 0).v[0],
                   model_fetch(m, texel, true, at[i].x, at[i].y, 0, false).v[0]);
    }
    check.done();
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFree(d_at));
    CHECK(cudaFree(d_out));
  }
  CHECK(cudaFreeArray(a));
}

// 1-D, 3-D and layered arrays, linear.
static void check_other_dimensions() {
  TestRandom rng(12);
  {
    const int w = 45, n = 2000;
    std::vector<float> texels(w);
    for (float& v : texels) v = rng.uniform(-8, 8);
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &desc, w, 0));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, texels.data(), w * 4, w * 4, 1, cudaMemcpyHostToDevice));
    const cudaTextureDesc td = linear_desc(cudaAddressModeClamp, false);
    const cudaResourceDesc r = array_resource(a);
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    std::vector<float> at(n);
    for (float& x : at) x = rng.uniform(-2, w + 2);
    float* d_at = to_device(at);
    float* d_out;
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    sample1D<<<blocks(n), 128>>>(t, d_at, d_out, n);
    const std::vector<float> got = to_host(d_out, n);
    const ModelTexture m = {w, 1, 1, 1, {cudaAddressModeClamp}, false, {{0}}};
    const auto texel = [&](long long i, long long, long long) { return Texel4{{texels[i]}}; };
    WeightCheck check{"tex1D linear", 4e-5};
    for (int i = 0; i < n; ++i) {
      check.sample(i, got[i], model_fetch(m, texel, true, at[i], 0, 0).v[0], model_fetch(m, texel, true, at[i], 0, 0, false).v[0]);
    }
    check.done();
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(d_at));
    CHECK(cudaFree(d_out));
  }
  {
    const int w = 9, h = 7, d = 5, n = 3000;
    std::vector<float> texels(w * h * d);
    for (float& v : texels) v = rng.uniform(-2, 2);
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &desc, make_cudaExtent(w, h, d)));
    copy_3d_to_array(a, texels.data(), w * 4, w, h, d);
    const cudaTextureDesc td = linear_desc(cudaAddressModeWrap, true);
    const cudaResourceDesc r = array_resource(a);
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    std::vector<float4> at(n);
    for (float4& c : at) c = make_float4(rng.uniform(-1, 2), rng.uniform(-1, 2), rng.uniform(-1, 2), 0);
    float4* d_at = to_device(at);
    float* d_out;
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    sample3D<<<blocks(n), 128>>>(t, d_at, d_out, n);
    const std::vector<float> got = to_host(d_out, n);
    const ModelTexture m = {w, h, d, 3, {cudaAddressModeWrap, cudaAddressModeWrap, cudaAddressModeWrap}, true, {{0}}};
    const auto texel = [&](long long i, long long j, long long k) { return Texel4{{texels[(k * h + j) * w + i]}}; };
    WeightCheck check{"tex3D trilinear, wrap", 2e-5};
    for (int i = 0; i < n; ++i) {
      check.sample(i, got[i], model_fetch(m, texel, true, at[i].x, at[i].y, at[i].z).v[0],
                   model_fetch(m, texel, true, at[i].x, at[i].y, at[i].z, false).v[0]);
    }
    check.done();
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(d_at));
    CHECK(cudaFree(d_out));
  }
  {
    const int w = 14, h = 10, layers = 3, n = 2000;
    std::vector<float> texels(w * h * layers);
    for (float& v : texels) v = rng.uniform(0, 10);
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &desc, make_cudaExtent(w, h, layers), cudaArrayLayered));
    copy_3d_to_array(a, texels.data(), w * 4, w, h, layers);
    const cudaTextureDesc td = linear_desc(cudaAddressModeMirror, true);
    const cudaResourceDesc r = array_resource(a);
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    std::vector<float4> at(n);
    for (float4& c : at) c = make_float4(rng.uniform(-1, 2), rng.uniform(-1, 2), static_cast<float>(rng.next() % layers), 0);
    float4* d_at = to_device(at);
    float* d_out;
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    sample2DLayered<<<blocks(n), 128>>>(t, d_at, d_out, n);
    const std::vector<float> got = to_host(d_out, n);
    const ModelTexture m = {w, h, 1, 2, {cudaAddressModeMirror, cudaAddressModeMirror}, true, {{0}}};
    WeightCheck check{"tex2DLayered linear, mirror", 5e-5};
    for (int i = 0; i < n; ++i) {
      const int layer = static_cast<int>(at[i].z);
      const auto texel = [&](long long x, long long y, long long) { return Texel4{{texels[(layer * h + y) * w + x]}}; };
      check.sample(i, got[i], model_fetch(m, texel, true, at[i].x, at[i].y, 0).v[0],
                   model_fetch(m, texel, true, at[i].x, at[i].y, 0, false).v[0]);
    }
    check.done();
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(d_at));
    CHECK(cudaFree(d_out));
  }
}

// 8- and 16-bit integers read as normalized floats and filtered.
static void check_normalized_filtering() {
  TestRandom rng(13);
  const int w = 23, h = 19, n = 3000;
  std::vector<uchar4> u8(w * h);
  for (uchar4& v : u8) v = make_uchar4(rng.next() & 255, rng.next() & 255, rng.next() & 255, rng.next() & 255);
  std::vector<short4> s16(w * h);
  for (short4& v : s16) {
    v = make_short4(static_cast<short>(rng.next()), static_cast<short>(rng.next()), static_cast<short>(rng.next()),
                    static_cast<short>(rng.next()));
  }
  std::vector<float2> at(n);
  for (float2& c : at) c = make_float2(rng.uniform(-2, w + 2), rng.uniform(-2, h + 2));
  float2* d_at = to_device(at);
  float4* d_out;
  CHECK(cudaMalloc(&d_out, n * sizeof(float4)));
  for (int signed16 = 0; signed16 <= 1; ++signed16) {
    const cudaChannelFormatDesc desc = signed16 != 0 ? cudaCreateChannelDesc<short4>() : cudaCreateChannelDesc<uchar4>();
    const std::size_t element = signed16 != 0 ? 8 : 4;
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &desc, w, h));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, signed16 != 0 ? static_cast<const void*>(s16.data()) : u8.data(), w * element,
                              w * element, h, cudaMemcpyHostToDevice));
    const cudaTextureDesc td = linear_desc(cudaAddressModeClamp, false, cudaReadModeNormalizedFloat);
    const cudaResourceDesc r = array_resource(a);
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    sample2D4<<<blocks(n), 128>>>(t, d_at, d_out, n);
    const std::vector<float4> got = to_host(d_out, n);
    const ModelTexture m = {w, h, 1, 2, {cudaAddressModeClamp, cudaAddressModeClamp}, false, {{0}}};
    const auto texel = [&](long long i, long long j, long long) {
      Texel4 v;
      for (int ch = 0; ch < 4; ++ch) {
        v.v[ch] = signed16 != 0 ? std::fmax(-1.0, (&s16[j * w + i].x)[ch] / 32767.0) : (&u8[j * w + i].x)[ch] / 255.0;
      }
      return v;
    };
    // A GPU filters 16-bit channels at about their own precision.
    WeightCheck check{signed16 != 0 ? "short4 normalized, linear" : "uchar4 normalized, linear", signed16 != 0 ? 4e-5 : 2e-6};
    for (int i = 0; i < n; ++i) {
      const Texel4 want = model_fetch(m, texel, true, at[i].x, at[i].y, 0);
      const Texel4 exact = model_fetch(m, texel, true, at[i].x, at[i].y, 0, false);
      const float g[4] = {got[i].x, got[i].y, got[i].z, got[i].w};
      for (int ch = 0; ch < 4; ++ch) check.sample(i, g[ch], want.v[ch], exact.v[ch]);
    }
    check.done();
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
  }
  CHECK(cudaFree(d_at));
  CHECK(cudaFree(d_out));
}

// A mipmapped array: each level its own data; tex2DLod with point and linear mip filtering (level
// clamped to [minMipmapLevelClamp, maxMipmapLevelClamp]), and tex2DGrad with gradients of whole levels.
static void check_mipmaps() {
  TestRandom rng(14);
  const int w = 40, h = 24, levels = 5, n = 2000;
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t mip;
  CHECK(cudaMallocMipmappedArray(&mip, &desc, make_cudaExtent(w, h, 0), levels));
  std::vector<std::vector<float>> data(levels);
  int lw[levels], lh[levels];
  for (int l = 0; l < levels; ++l) {
    cudaArray_t level;
    CHECK(cudaGetMipmappedArrayLevel(&level, mip, l));
    cudaExtent e;
    CHECK(cudaArrayGetInfo(nullptr, &e, nullptr, level));
    lw[l] = static_cast<int>(e.width), lh[l] = static_cast<int>(e.height);
    const int want_w = w >> l > 0 ? w >> l : 1, want_h = h >> l > 0 ? h >> l : 1;
    if (lw[l] != want_w || lh[l] != want_h) {
      std::printf("  mip level %d is %d x %d, expected %d x %d\n", l, lw[l], lh[l], want_w, want_h);
      ++failures;
    }
    data[l].resize(lw[l] * lh[l]);
    for (float& v : data[l]) v = static_cast<float>(10 * l) + rng.uniform(0, 1);
    CHECK(cudaMemcpy2DToArray(level, 0, 0, data[l].data(), lw[l] * 4, lw[l] * 4, lh[l], cudaMemcpyHostToDevice));
  }
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeMipmappedArray;
  r.res.mipmap.mipmap = mip;
  std::vector<float4> at(n);
  // Levels are whole 256ths (as a GPU holds them) and keep clear of the point filter's half-way ties.
  for (float4& c : at) {
    int k;
    do {
      k = static_cast<int>(rng.next() % (6 * 256)) - 128;
    } while (std::abs(((k % 256) + 256) % 256 - 128) < 6);
    c = make_float4(rng.uniform(0, 1), rng.uniform(0, 1), static_cast<float>(k) / 256.0f, 0);
  }
  float4* d_at = to_device(at);
  float* d_out;
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  const float max_clamp = 3.0f;
  const auto sample_level = [&](int l, float u, float v, bool linear) {
    const ModelTexture m = {lw[l], lh[l], 1, 2, {cudaAddressModeClamp, cudaAddressModeClamp}, true, {{0}}};
    const auto texel = [&](long long i, long long j, long long) { return Texel4{{data[l][j * lw[l] + i]}}; };
    return model_fetch(m, texel, linear, u, v, 0).v[0];
  };
  for (int linear_mip = 0; linear_mip <= 1; ++linear_mip) {
    cudaTextureDesc td = linear_desc(cudaAddressModeClamp, true);
    td.filterMode = cudaFilterModePoint;
    td.mipmapFilterMode = linear_mip != 0 ? cudaFilterModeLinear : cudaFilterModePoint;
    td.minMipmapLevelClamp = 0.0f;
    td.maxMipmapLevelClamp = max_clamp;
    td.maxAnisotropy = 1;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    sampleLod<<<blocks(n), 128>>>(t, d_at, d_out, n);
    const std::vector<float> got = to_host(d_out, n);
    for (int i = 0; i < n; ++i) {
      const double level = std::fmin(std::fmax(static_cast<double>(at[i].z), 0.0), max_clamp);
      double want;
      if (linear_mip == 0) {
        want = sample_level(static_cast<int>(std::floor(level + 0.5)), at[i].x, at[i].y, false);
      } else {
        const long long q = static_cast<long long>(std::floor(level * 256.0 + 0.5));
        const int lower = static_cast<int>(q / 256);
        const double f = static_cast<double>(q % 256) / 256.0;
        const double s0 = sample_level(lower, at[i].x, at[i].y, false);
        const double s1 = lower + 1 < levels ? sample_level(lower + 1, at[i].x, at[i].y, false) : s0;
        want = (1 - f) * s0 + f * s1;
      }
      // The sampled texel is picked at random coordinates; 5e-5 of the level's 10-unit step.
      expect_near(got[i], want, 5e-4, linear_mip != 0 ? "tex2DLod, linear mip filtering" : "tex2DLod, point mip filtering", i);
    }
    if (linear_mip == 0) {
      // Gradients of 2^k level-0 texels select level k.
      for (int k = 0; k <= 2; ++k) {
        const float2 dx = make_float2(static_cast<float>(1 << k) / w, 0.0f), dy = make_float2(0.0f, 0.5f / h);
        sampleGrad<<<blocks(n), 128>>>(t, d_at, dx, dy, d_out, n);
        const std::vector<float> grad = to_host(d_out, n);
        for (int i = 0; i < n; ++i) expect_near(grad[i], sample_level(k, at[i].x, at[i].y, false), 0, "tex2DGrad", i);
      }
    }
    CHECK(cudaDestroyTextureObject(t));
  }
  CHECK(cudaFree(d_at));
  CHECK(cudaFree(d_out));
  CHECK(cudaFreeMipmappedArray(mip));
}

// CUDA's simpleTexture: an image in an array, read with normalized coordinates, linear filtering and
// wrapping, rotated by 0.5 radians; checked against the model at the same coordinates.
static void check_simple_texture_pattern() {
  const int w = 64, h = 48;
  const float theta = 0.5f;
  TestRandom rng(15);
  std::vector<float> image(w * h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) image[y * w + x] = std::sin(x * 0.3f) * std::cos(y * 0.2f) + rng.uniform(-0.1f, 0.1f);
  }
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  cudaArray* a;
  CHECK(cudaMallocArray(&a, &desc, w, h));
  CHECK(cudaMemcpy2DToArray(a, 0, 0, image.data(), w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
  const cudaResourceDesc r = array_resource(a);
  const cudaTextureDesc td = linear_desc(cudaAddressModeWrap, true);
  cudaTextureObject_t t;
  CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
  float* d_out;
  CHECK(cudaMalloc(&d_out, w * h * sizeof(float)));
  rotate<<<dim3(w / 8, h / 8), dim3(8, 8)>>>(d_out, w, h, theta, t);
  CHECK(cudaGetLastError());
  const std::vector<float> got = to_host(d_out, w * h);
  const ModelTexture m = {w, h, 1, 2, {cudaAddressModeWrap, cudaAddressModeWrap}, true, {{0}}};
  const auto texel = [&](long long i, long long j, long long) { return Texel4{{image[j * w + i]}}; };
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      // The kernel's coordinates, computed the same way on the host.
      const float u = static_cast<float>(x) - static_cast<float>(w) / 2, v = static_cast<float>(y) - static_cast<float>(h) / 2;
      const float tu = (u * std::cos(theta) - v * std::sin(theta)) / static_cast<float>(w);
      const float tv = (v * std::cos(theta) + u * std::sin(theta)) / static_cast<float>(h);
      // A GPU's cosf/sinf may differ from the host's in the last bit, which can move a weight by one
      // 256th: 5e-3 covers that for this image's neighbour differences.
      expect_near(got[y * w + x], model_fetch(m, texel, true, tu + 0.5f, tv + 0.5f, 0).v[0], 5e-3, "simpleTexture rotation",
                  y * w + x);
    }
  }
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFreeArray(a));
  CHECK(cudaFree(d_out));
}

int main() {
  check_2d();
  check_other_dimensions();
  check_normalized_filtering();
  check_mipmaps();
  check_simple_texture_pattern();
  CHECK(cudaDeviceSynchronize());
  if (failures != 0) {
    std::printf("FAILED: %d mismatches\n", failures);
    return 1;
  }
  std::printf("PASSED: linear filtering with 8-bit weights (1-D, 2-D, 3-D, layered, normalized reads, mipmaps)\n");
  return 0;
}
