// Texture objects read with point sampling, checked against the programming guide's formulas
// (texture_reference_model.h) on random data and random coordinates: every address mode with
// normalized coordinates, clamp and border with unnormalized ones, 1-D, 2-D, 3-D, layered and cubemap
// arrays, linear and pitched memory, element and normalized-float read modes of 8-, 16- and 32-bit
// channels, half-precision channels, tex2Dgather, and the descriptors read back.
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "cuda_check.h"
#include "device_buffers.h"
#include "texture_reference_model.h"

// cudaMemcpyToArray is deprecated in CUDA, and still used: this program checks it works.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace {

int failures = 0;

void expect(bool ok, const char* what, int index, double got, double want) {
  if (ok) return;
  if (++failures <= 12) std::printf("  %s: sample %d: got %.9g, expected %.9g\n", what, index, got, want);
}

cudaTextureObject_t make_texture(const cudaResourceDesc& res, cudaTextureAddressMode mode, bool normalized,
                                 cudaTextureReadMode read = cudaReadModeElementType, const float* border = nullptr) {
  cudaTextureDesc td;
  std::memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
  td.filterMode = cudaFilterModePoint;
  td.readMode = read;
  td.normalizedCoords = normalized ? 1 : 0;
  if (border != nullptr) {
    for (int c = 0; c < 4; ++c) td.borderColor[c] = border[c];
  }
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &res, &td, nullptr));
  return t;
}

cudaResourceDesc array_resource(cudaArray_t a) {
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  return r;
}

}  // namespace

__global__ void fetch2D(cudaTextureObject_t t, const float2* at, float4* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(t, at[i].x, at[i].y);
}

// The same fetch through the out-parameter form.
__global__ void fetch2DInto(cudaTextureObject_t t, const float2* at, float4* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) tex2D(&out[i], t, at[i].x, at[i].y);
}

__global__ void fetch1D(cudaTextureObject_t t, const float* at, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(t, at[i]);
}

__global__ void fetch3D(cudaTextureObject_t t, const float4* at, float2* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<float2>(t, at[i].x, at[i].y, at[i].z);
}

__global__ void fetch2DLayered(cudaTextureObject_t t, const float4* at, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DLayered<float>(t, at[i].x, at[i].y, static_cast<int>(at[i].z));
}

__global__ void fetch1DLayered(cudaTextureObject_t t, const float2* at, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) tex1DLayered(&out[i], t, at[i].x, static_cast<int>(at[i].y));
}

__global__ void fetchCubemap(cudaTextureObject_t t, const float4* at, float* out, int n, int layered) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = layered != 0 ? texCubemapLayered<float>(t, at[i].x, at[i].y, at[i].z, static_cast<int>(at[i].w))
                        : texCubemap<float>(t, at[i].x, at[i].y, at[i].z);
}

__global__ void fetchUchar4(cudaTextureObject_t t, const float2* at, uchar4* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<uchar4>(t, at[i].x, at[i].y);
}

__global__ void fetchShort2(cudaTextureObject_t t, const float2* at, short2* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<short2>(t, at[i].x, at[i].y);
}

__global__ void fetchFloat2(cudaTextureObject_t t, const float2* at, float2* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float2>(t, at[i].x, at[i].y);
}

__global__ void fetchLinear(cudaTextureObject_t t, const int* at, float4* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float4>(t, at[i]);
}

__global__ void fetchLinearNormalized(cudaTextureObject_t t, const int* at, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) tex1Dfetch(&out[i], t, at[i]);
}

__global__ void gather(cudaTextureObject_t t, const float2* at, uchar4* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int comp = 0; comp < 4; ++comp) out[4 * i + comp] = tex2Dgather<uchar4>(t, at[i].x, at[i].y, comp);
  }
}

static int blocks(int n) { return (n + 127) / 128; }

// 2-D float4 texture, every address mode.
static void check_address_modes() {
  const int w = 17, h = 31, n = 3000;
  TestRandom rng(1);
  std::vector<float4> texels(w * h);
  for (float4& v : texels) v = make_float4(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1));
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float4>();
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &desc, w, h));
  CHECK(cudaMemcpy2DToArray(a, 0, 0, texels.data(), w * sizeof(float4), w * sizeof(float4), h, cudaMemcpyHostToDevice));
  const float border[4] = {0.25f, -0.5f, 0.75f, 1.0f};
  struct Case {
    cudaTextureAddressMode mode;
    bool normalized;
    const char* name;
  } cases[] = {{cudaAddressModeWrap, true, "wrap, normalized"},     {cudaAddressModeClamp, true, "clamp, normalized"},
               {cudaAddressModeMirror, true, "mirror, normalized"}, {cudaAddressModeBorder, true, "border, normalized"},
               {cudaAddressModeClamp, false, "clamp"},              {cudaAddressModeBorder, false, "border"}};
  for (const Case& c : cases) {
    std::vector<float2> at(n);
    for (float2& p : at) {
      p = c.normalized ? make_float2(rng.uniform(-1.7f, 2.7f), rng.uniform(-1.7f, 2.7f))
                       : make_float2(rng.uniform(-4, w + 4), rng.uniform(-4, h + 4));
    }
    const cudaTextureObject_t t = make_texture(array_resource(a), c.mode, c.normalized, cudaReadModeElementType, border);
    float2* d_at = to_device(at);
    float4* d_out;
    CHECK(cudaMalloc(&d_out, n * sizeof(float4)));
    if (c.mode == cudaAddressModeBorder) {
      fetch2DInto<<<blocks(n), 128>>>(t, d_at, d_out, n);
    } else {
      fetch2D<<<blocks(n), 128>>>(t, d_at, d_out, n);
    }
    CHECK(cudaGetLastError());
    const std::vector<float4> got = to_host(d_out, n);
    const ModelTexture m = {w, h, 1, 2, {c.mode, c.mode, c.mode}, c.normalized, {{0.25, -0.5, 0.75, 1.0}}};
    const auto texel = [&](long long i, long long j, long long) {
      const float4 v = texels[j * w + i];
      return Texel4{{v.x, v.y, v.z, v.w}};
    };
    for (int i = 0; i < n; ++i) {
      const Texel4 want = model_fetch(m, texel, false, at[i].x, at[i].y, 0);
      const float g[4] = {got[i].x, got[i].y, got[i].z, got[i].w};
      for (int ch = 0; ch < 4; ++ch) expect(g[ch] == want.v[ch], c.name, i, g[ch], want.v[ch]);
    }
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFree(d_at));
    CHECK(cudaFree(d_out));
  }
  CHECK(cudaFreeArray(a));
}

// 1-D and 3-D arrays.
static void check_1d_3d() {
  TestRandom rng(2);
  {
    const int w = 29, n = 1000;
    std::vector<float> texels(w);
    for (float& v : texels) v = rng.uniform(-10, 10);
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &desc, w));  // height 0: a 1-D array
    CHECK(cudaMemcpyToArray(a, 0, 0, texels.data(), w * sizeof(float), cudaMemcpyHostToDevice));
    const cudaTextureObject_t t = make_texture(array_resource(a), cudaAddressModeWrap, true);
    std::vector<float> at(n);
    for (float& x : at) x = rng.uniform(-3, 3);
    float* d_at = to_device(at);
    float* d_out;
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    fetch1D<<<blocks(n), 128>>>(t, d_at, d_out, n);
    const std::vector<float> got = to_host(d_out, n);
    const ModelTexture m = {w, 1, 1, 1, {cudaAddressModeWrap}, true, {{0, 0, 0, 0}}};
    for (int i = 0; i < n; ++i) {
      const double want = model_fetch(m, [&](long long x, long long, long long) { return Texel4{{texels[x]}}; }, false, at[i], 0, 0).v[0];
      expect(got[i] == want, "tex1D, wrap", i, got[i], want);
    }
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(d_at));
    CHECK(cudaFree(d_out));
  }
  {
    const int w = 9, h = 7, d = 5, n = 2000;
    std::vector<float2> texels(w * h * d);
    for (float2& v : texels) v = make_float2(rng.uniform(-1, 1), rng.uniform(0, 100));
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float2>();
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &desc, make_cudaExtent(w, h, d)));
    cudaMemcpy3DParms p;
    std::memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(texels.data(), w * sizeof(float2), w, h);
    p.dstArray = a;
    p.extent = make_cudaExtent(w, h, d);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    const cudaTextureAddressMode modes[2] = {cudaAddressModeMirror, cudaAddressModeClamp};
    for (cudaTextureAddressMode mode : modes) {
      const cudaTextureObject_t t = make_texture(array_resource(a), mode, true);
      std::vector<float4> at(n);
      for (float4& c : at) c = make_float4(rng.uniform(-1.5f, 2.5f), rng.uniform(-1.5f, 2.5f), rng.uniform(-1.5f, 2.5f), 0);
      float4* d_at = to_device(at);
      float2* d_out;
      CHECK(cudaMalloc(&d_out, n * sizeof(float2)));
      fetch3D<<<blocks(n), 128>>>(t, d_at, d_out, n);
      const std::vector<float2> got = to_host(d_out, n);
      const ModelTexture m = {w, h, d, 3, {mode, mode, mode}, true, {{0, 0, 0, 0}}};
      const auto texel = [&](long long i, long long j, long long k) {
        const float2 v = texels[(k * h + j) * w + i];
        return Texel4{{v.x, v.y}};
      };
      for (int i = 0; i < n; ++i) {
        const Texel4 want = model_fetch(m, texel, false, at[i].x, at[i].y, at[i].z);
        expect(got[i].x == want.v[0] && got[i].y == want.v[1], "tex3D", i, got[i].x, want.v[0]);
      }
      CHECK(cudaDestroyTextureObject(t));
      CHECK(cudaFree(d_at));
      CHECK(cudaFree(d_out));
    }
    CHECK(cudaFreeArray(a));
  }
}

// Layered and cubemap arrays: the layer and face selection.
static void check_layered_cubemap() {
  TestRandom rng(3);
  {
    const int w = 13, h = 11, layers = 4, n = 2000;
    std::vector<float> texels(w * h * layers);
    for (float& v : texels) v = rng.uniform(-5, 5);
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &desc, make_cudaExtent(w, h, layers), cudaArrayLayered));
    cudaMemcpy3DParms p;
    std::memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(texels.data(), w * sizeof(float), w, h);
    p.dstArray = a;
    p.extent = make_cudaExtent(w, h, layers);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    const cudaTextureObject_t t = make_texture(array_resource(a), cudaAddressModeClamp, false);
    std::vector<float4> at(n);
    for (float4& c : at) c = make_float4(rng.uniform(-2, w + 2), rng.uniform(-2, h + 2), static_cast<float>(rng.next() % layers), 0);
    float4* d_at = to_device(at);
    float* d_out;
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    fetch2DLayered<<<blocks(n), 128>>>(t, d_at, d_out, n);
    const std::vector<float> got = to_host(d_out, n);
    const ModelTexture m = {w, h, 1, 2, {cudaAddressModeClamp, cudaAddressModeClamp}, false, {{0, 0, 0, 0}}};
    for (int i = 0; i < n; ++i) {
      const int layer = static_cast<int>(at[i].z);
      const auto texel = [&](long long x, long long y, long long) { return Texel4{{texels[(layer * h + y) * w + x]}}; };
      const double want = model_fetch(m, texel, false, at[i].x, at[i].y, 0).v[0];
      expect(got[i] == want, "tex2DLayered", i, got[i], want);
    }
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(d_at));
    CHECK(cudaFree(d_out));
  }
  {
    const int w = 19, layers = 3, n = 800;
    std::vector<int> texels(w * layers);
    for (int& v : texels) v = static_cast<int>(rng.next());  // every int, negative ones too (C++20 wraps)
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc<int>();
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &desc, make_cudaExtent(w, 0, layers), cudaArrayLayered));
    cudaMemcpy3DParms p;
    std::memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(texels.data(), w * sizeof(int), w, 1);
    p.dstArray = a;
    p.extent = make_cudaExtent(w, 1, layers);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    const cudaTextureObject_t t = make_texture(array_resource(a), cudaAddressModeWrap, true);
    std::vector<float2> at(n);
    for (float2& c : at) c = make_float2(rng.uniform(-2, 3), static_cast<float>(rng.next() % layers));
    float2* d_at = to_device(at);
    int* d_out;
    CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    fetch1DLayered<<<blocks(n), 128>>>(t, d_at, d_out, n);
    const std::vector<int> got = to_host(d_out, n);
    const ModelTexture m = {w, 1, 1, 1, {cudaAddressModeWrap}, true, {{0, 0, 0, 0}}};
    for (int i = 0; i < n; ++i) {
      const int layer = static_cast<int>(at[i].y);
      const auto texel = [&](long long x, long long, long long) { return Texel4{{static_cast<double>(texels[layer * w + x])}}; };
      const double want = model_fetch(m, texel, false, at[i].x, 0, 0).v[0];
      expect(got[i] == want, "tex1DLayered of int", i, got[i], want);
    }
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(d_at));
    CHECK(cudaFree(d_out));
  }
  // Cubemaps: directions built from (face, s, t) near texel centres, so that the face and texel the
  // guide's table gives are well inside their cells.
  for (int layered = 0; layered <= 1; ++layered) {
    const int edge = 8, cubes = layered != 0 ? 2 : 1, n = 1500;
    std::vector<float> texels(edge * edge * 6 * cubes);
    for (float& v : texels) v = rng.uniform(-1, 1);
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &desc, make_cudaExtent(edge, edge, 6 * cubes),
                            cudaArrayCubemap | (layered != 0 ? cudaArrayLayered : 0)));
    cudaMemcpy3DParms p;
    std::memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(texels.data(), edge * sizeof(float), edge, edge);
    p.dstArray = a;
    p.extent = make_cudaExtent(edge, edge, 6 * cubes);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    const cudaTextureObject_t t = make_texture(array_resource(a), cudaAddressModeClamp, true);
    std::vector<float4> at(n);
    std::vector<float> want(n);
    for (int i = 0; i < n; ++i) {
      const int face = static_cast<int>(rng.next() % 6), cube = static_cast<int>(rng.next() % cubes);
      const int tx = static_cast<int>(rng.next() % edge), ty = static_cast<int>(rng.next() % edge);
      const double s = (tx + 0.5 + rng.uniform(-0.3f, 0.3f)) / edge, tt = (ty + 0.5 + rng.uniform(-0.3f, 0.3f)) / edge;
      const float scale = rng.uniform(0.5f, 4.0f);
      const float3 dir = model_cube_direction(face, s, tt);
      at[i] = make_float4(dir.x * scale, dir.y * scale, dir.z * scale, static_cast<float>(cube));
      int f;
      double ms, mt;
      model_cube_face(at[i].x, at[i].y, at[i].z, &f, &ms, &mt);
      want[i] = texels[((cube * 6 + f) * edge + static_cast<int>(mt * edge)) * edge + static_cast<int>(ms * edge)];
    }
    float4* d_at = to_device(at);
    float* d_out;
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    fetchCubemap<<<blocks(n), 128>>>(t, d_at, d_out, n, layered);
    const std::vector<float> got = to_host(d_out, n);
    for (int i = 0; i < n; ++i) expect(got[i] == want[i], layered != 0 ? "texCubemapLayered" : "texCubemap", i, got[i], want[i]);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(d_at));
    CHECK(cudaFree(d_out));
  }
}

// Read modes and element types: 8- and 16-bit integers as normalized floats and as they are, 16-bit
// floats, and the normalized channel kinds.
static void check_read_modes() {
  TestRandom rng(4);
  const int w = 21, h = 9, n = w * h;
  std::vector<float2> centres(n);
  for (int i = 0; i < n; ++i) centres[i] = make_float2(i % w + 0.5f, i / w + 0.5f);
  float2* d_at = to_device(centres);
  float4* d_out4;
  CHECK(cudaMalloc(&d_out4, n * sizeof(float4)));

  std::vector<uchar4> u8(n);
  for (uchar4& v : u8) v = make_uchar4(rng.next() & 255, rng.next() & 255, rng.next() & 255, rng.next() & 255);
  u8[0] = make_uchar4(0, 255, 1, 254);
  std::vector<char4> s8(n);
  for (char4& v : s8) {
    v = make_char4(static_cast<signed char>(rng.next()), static_cast<signed char>(rng.next()),
                   static_cast<signed char>(rng.next()), static_cast<signed char>(rng.next()));
  }
  s8[0] = make_char4(-128, -127, 127, 0);  // -128 reads as -1, as -127 does
  std::vector<ushort4> u16(n);
  for (ushort4& v : u16) v = make_ushort4(rng.next() & 0xffff, rng.next() & 0xffff, rng.next() & 0xffff, 65535);
  std::vector<short4> s16(n);
  for (short4& v : s16) {
    v = make_short4(static_cast<short>(rng.next()), static_cast<short>(rng.next()), -32768, static_cast<short>(rng.next()));
  }

  struct Case {
    const char* name;
    cudaChannelFormatDesc desc;
    const void* data;
    std::size_t element;
    double scale;  // the normalized value is max(-1, v / scale)
    bool is_signed;
  } cases[] = {
      {"uchar4, cudaReadModeNormalizedFloat", cudaCreateChannelDesc<uchar4>(), u8.data(), 4, 255.0, false},
      {"char4, cudaReadModeNormalizedFloat", cudaCreateChannelDesc<char4>(), s8.data(), 4, 127.0, true},
      {"ushort4, cudaReadModeNormalizedFloat", cudaCreateChannelDesc<ushort4>(), u16.data(), 8, 65535.0, false},
      {"short4, cudaReadModeNormalizedFloat", cudaCreateChannelDesc<short4>(), s16.data(), 8, 32767.0, true},
      {"cudaChannelFormatKindUnsignedNormalized8X4", cudaCreateChannelDesc<cudaChannelFormatKindUnsignedNormalized8X4>(),
       u8.data(), 4, 255.0, false},
  };
  for (const Case& c : cases) {
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &c.desc, w, h));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, c.data, w * c.element, w * c.element, h, cudaMemcpyHostToDevice));
    // The normalized kinds read as normalized floats whatever the read mode says.
    const bool kind_normalizes = c.desc.f != cudaChannelFormatKindSigned && c.desc.f != cudaChannelFormatKindUnsigned;
    const cudaTextureObject_t t = make_texture(array_resource(a), cudaAddressModeClamp, false,
                                               kind_normalizes ? cudaReadModeElementType : cudaReadModeNormalizedFloat);
    fetch2D<<<blocks(n), 128>>>(t, d_at, d_out4, n);
    const std::vector<float4> got = to_host(d_out4, n);
    for (int i = 0; i < n; ++i) {
      const float g[4] = {got[i].x, got[i].y, got[i].z, got[i].w};
      for (int ch = 0; ch < 4; ++ch) {
        double v;
        if (c.element == 4) {
          v = c.is_signed ? static_cast<double>(reinterpret_cast<const signed char*>(c.data)[4 * i + ch])
                          : static_cast<double>(reinterpret_cast<const unsigned char*>(c.data)[4 * i + ch]);
        } else {
          v = c.is_signed ? static_cast<double>(reinterpret_cast<const short*>(c.data)[4 * i + ch])
                          : static_cast<double>(reinterpret_cast<const unsigned short*>(c.data)[4 * i + ch]);
        }
        const double want = v / c.scale < -1.0 ? -1.0 : v / c.scale;
        expect(std::fabs(g[ch] - want) <= 1e-6, c.name, i, g[ch], want);
      }
    }
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
  }

  // Element-type reads return the integers as they are.
  {
    cudaArray_t a;
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
    CHECK(cudaMallocArray(&a, &desc, w, h));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, u8.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
    const cudaTextureObject_t t = make_texture(array_resource(a), cudaAddressModeClamp, false);
    uchar4* d_out;
    CHECK(cudaMalloc(&d_out, n * sizeof(uchar4)));
    fetchUchar4<<<blocks(n), 128>>>(t, d_at, d_out, n);
    const std::vector<uchar4> got = to_host(d_out, n);
    for (int i = 0; i < n; ++i) expect(std::memcmp(&got[i], &u8[i], 4) == 0, "uchar4, cudaReadModeElementType", i, got[i].x, u8[i].x);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(d_out));
  }
  {
    std::vector<short2> s2(n);
    for (int i = 0; i < n; ++i) s2[i] = make_short2(s16[i].x, s16[i].z);
    cudaArray_t a;
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc<short2>();
    CHECK(cudaMallocArray(&a, &desc, w, h));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, s2.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
    const cudaTextureObject_t t = make_texture(array_resource(a), cudaAddressModeClamp, false);
    short2* d_out;
    CHECK(cudaMalloc(&d_out, n * sizeof(short2)));
    fetchShort2<<<blocks(n), 128>>>(t, d_at, d_out, n);
    const std::vector<short2> got = to_host(d_out, n);
    for (int i = 0; i < n; ++i) expect(got[i].x == s2[i].x && got[i].y == s2[i].y, "short2, cudaReadModeElementType", i, got[i].x, s2[i].x);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(d_out));
  }
  // Half-precision channels read as float.
  {
    std::vector<__half2> h2(n);
    std::vector<float2> want(n);
    for (int i = 0; i < n; ++i) {
      want[i] = make_float2(static_cast<float>(static_cast<int>(rng.next() % 4001) - 2000) / 16.0f,
                            static_cast<float>(rng.next() % 1024) / 1024.0f);
      h2[i] = __floats2half2_rn(want[i].x, want[i].y);
    }
    cudaArray_t a;
    const cudaChannelFormatDesc desc = cudaCreateChannelDescHalf2();
    CHECK(cudaMallocArray(&a, &desc, w, h));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, h2.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
    const cudaTextureObject_t t = make_texture(array_resource(a), cudaAddressModeClamp, false);
    float2* d_out;
    CHECK(cudaMalloc(&d_out, n * sizeof(float2)));
    fetchFloat2<<<blocks(n), 128>>>(t, d_at, d_out, n);
    const std::vector<float2> got = to_host(d_out, n);
    for (int i = 0; i < n; ++i) expect(got[i].x == want[i].x && got[i].y == want[i].y, "half2 channels", i, got[i].x, want[i].x);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(d_out));
  }
  CHECK(cudaFree(d_at));
  CHECK(cudaFree(d_out4));
}

// Linear memory (tex1Dfetch: out of range reads 0) and pitched memory (tex2D).
static void check_linear_and_pitched() {
  TestRandom rng(5);
  {
    const int count = 333, n = 700;
    std::vector<float4> values(count);
    for (float4& v : values) v = make_float4(rng.uniform(-9, 9), rng.uniform(-9, 9), rng.uniform(-9, 9), rng.uniform(-9, 9));
    float4* d_values = to_device(values);
    cudaResourceDesc r;
    std::memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeLinear;
    r.res.linear.devPtr = d_values;
    r.res.linear.desc = cudaCreateChannelDesc<float4>();
    r.res.linear.sizeInBytes = count * sizeof(float4);
    const cudaTextureObject_t t = make_texture(r, cudaAddressModeClamp, false);
    std::vector<int> at(n);
    for (int& i : at) i = static_cast<int>(rng.next() % (count + 20)) - 10;
    int* d_at = to_device(at);
    float4* d_out;
    CHECK(cudaMalloc(&d_out, n * sizeof(float4)));
    fetchLinear<<<blocks(n), 128>>>(t, d_at, d_out, n);
    const std::vector<float4> got = to_host(d_out, n);
    for (int i = 0; i < n; ++i) {
      const float4 want = at[i] >= 0 && at[i] < count ? values[at[i]] : make_float4(0, 0, 0, 0);
      expect(std::memcmp(&got[i], &want, sizeof want) == 0, "tex1Dfetch of float4", i, got[i].x, want.x);
    }
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFree(d_values));
    CHECK(cudaFree(d_at));
    CHECK(cudaFree(d_out));
  }
  {
    const int count = 1000;
    std::vector<unsigned char> bytes(count);
    for (unsigned char& b : bytes) b = static_cast<unsigned char>(rng.next());
    unsigned char* d_bytes = to_device(bytes);
    cudaResourceDesc r;
    std::memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeLinear;
    r.res.linear.devPtr = d_bytes;
    r.res.linear.desc = cudaCreateChannelDesc<unsigned char>();
    r.res.linear.sizeInBytes = count;
    const cudaTextureObject_t t = make_texture(r, cudaAddressModeClamp, false, cudaReadModeNormalizedFloat);
    std::vector<int> at(count);
    for (int i = 0; i < count; ++i) at[i] = i;
    int* d_at = to_device(at);
    float* d_out;
    CHECK(cudaMalloc(&d_out, count * sizeof(float)));
    fetchLinearNormalized<<<blocks(count), 128>>>(t, d_at, d_out, count);
    const std::vector<float> got = to_host(d_out, count);
    for (int i = 0; i < count; ++i) expect(std::fabs(got[i] - bytes[i] / 255.0) <= 1e-6, "tex1Dfetch of uchar, normalized", i, got[i], bytes[i] / 255.0);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFree(d_bytes));
    CHECK(cudaFree(d_at));
    CHECK(cudaFree(d_out));
  }
  {
    // simplePitchLinearTexture's pattern: cudaMallocPitch memory as a pitch2D resource, normalized wrap.
    const int w = 33, h = 21, n = 2500;
    float* d_image;
    std::size_t pitch;
    CHECK(cudaMallocPitch(reinterpret_cast<void**>(&d_image), &pitch, w * sizeof(float), h));
    std::vector<float> image(w * h);
    for (float& v : image) v = rng.uniform(-3, 3);
    CHECK(cudaMemcpy2D(d_image, pitch, image.data(), w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
    cudaResourceDesc r;
    std::memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypePitch2D;
    r.res.pitch2D.devPtr = d_image;
    r.res.pitch2D.desc = cudaCreateChannelDesc<float>();
    r.res.pitch2D.width = w;
    r.res.pitch2D.height = h;
    r.res.pitch2D.pitchInBytes = pitch;
    const cudaTextureObject_t t = make_texture(r, cudaAddressModeWrap, true);
    std::vector<float2> at(n);
    for (float2& c : at) c = make_float2(rng.uniform(-2, 3), rng.uniform(-2, 3));
    float2* d_at = to_device(at);
    float2* d_out;
    CHECK(cudaMalloc(&d_out, n * sizeof(float2)));
    fetchFloat2<<<blocks(n), 128>>>(t, d_at, d_out, n);
    const std::vector<float2> got = to_host(d_out, n);
    const ModelTexture m = {w, h, 1, 2, {cudaAddressModeWrap, cudaAddressModeWrap}, true, {{0, 0, 0, 0}}};
    for (int i = 0; i < n; ++i) {
      const double want =
          model_fetch(m, [&](long long x, long long y, long long) { return Texel4{{image[y * w + x]}}; }, false, at[i].x, at[i].y, 0).v[0];
      expect(got[i].x == want, "pitch2D, wrap", i, got[i].x, want);
    }
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFree(d_image));
    CHECK(cudaFree(d_at));
    CHECK(cudaFree(d_out));
  }
}

// tex2Dgather: component comp of the 2 x 2 footprint, (i, j+1), (i+1, j+1), (i+1, j), (i, j).
static void check_gather() {
  TestRandom rng(6);
  const int w = 17, h = 13, n = 1200;
  std::vector<uchar4> texels(w * h);
  for (uchar4& v : texels) v = make_uchar4(rng.next() & 255, rng.next() & 255, rng.next() & 255, rng.next() & 255);
  cudaArray_t a;
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
  CHECK(cudaMallocArray(&a, &desc, w, h, cudaArrayTextureGather));
  CHECK(cudaMemcpy2DToArray(a, 0, 0, texels.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
  const cudaTextureObject_t t = make_texture(array_resource(a), cudaAddressModeClamp, false);
  std::vector<float2> at(n);
  for (float2& c : at) c = make_float2(rng.uniform(-2, w + 2), rng.uniform(-2, h + 2));
  float2* d_at = to_device(at);
  uchar4* d_out;
  CHECK(cudaMalloc(&d_out, 4 * n * sizeof(uchar4)));
  gather<<<blocks(n), 128>>>(t, d_at, d_out, n);
  const std::vector<uchar4> got = to_host(d_out, 4 * n);
  for (int i = 0; i < n; ++i) {
    long long x0, y0;
    double ax, ay;
    model_linear_pair(at[i].x, true, &x0, &ax);
    model_linear_pair(at[i].y, true, &y0, &ay);
    const long long dx[4] = {0, 1, 1, 0}, dy[4] = {1, 1, 0, 0};
    for (int comp = 0; comp < 4; ++comp) {
      const unsigned char* g = &got[4 * i + comp].x;
      for (int k = 0; k < 4; ++k) {
        const long long x = model_address(x0 + dx[k], w, cudaAddressModeClamp, false);
        const long long y = model_address(y0 + dy[k], h, cudaAddressModeClamp, false);
        const unsigned char want = (&texels[y * w + x].x)[comp];
        expect(g[k] == want, "tex2Dgather", i, g[k], want);
      }
    }
  }
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFreeArray(a));
  CHECK(cudaFree(d_at));
  CHECK(cudaFree(d_out));
}

// What cudaGetTextureObject*Desc and cudaGetSurfaceObjectResourceDesc give back is what was passed.
static void check_descriptors_read_back() {
  cudaArray_t a;
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float2>();
  CHECK(cudaMallocArray(&a, &desc, 40, 30, cudaArraySurfaceLoadStore));
  cudaResourceDesc r = array_resource(a);
  cudaTextureDesc td;
  std::memset(&td, 0, sizeof td);
  td.addressMode[0] = cudaAddressModeBorder;
  td.addressMode[1] = cudaAddressModeMirror;
  td.filterMode = cudaFilterModeLinear;
  td.normalizedCoords = 1;
  td.borderColor[2] = 0.5f;
  td.maxAnisotropy = 4;
  cudaResourceViewDesc view;
  std::memset(&view, 0, sizeof view);
  view.format = cudaResViewFormatFloat2;
  view.width = 40;
  view.height = 30;
  cudaTextureObject_t t;
  CHECK(cudaCreateTextureObject(&t, &r, &td, &view));
  cudaResourceDesc r2;
  cudaTextureDesc td2;
  cudaResourceViewDesc view2;
  CHECK(cudaGetTextureObjectResourceDesc(&r2, t));
  CHECK(cudaGetTextureObjectTextureDesc(&td2, t));
  CHECK(cudaGetTextureObjectResourceViewDesc(&view2, t));
  if (r2.resType != r.resType || r2.res.array.array != a || td2.addressMode[0] != td.addressMode[0] ||
      td2.addressMode[1] != td.addressMode[1] || td2.filterMode != td.filterMode || td2.borderColor[2] != 0.5f ||
      td2.normalizedCoords != 1 || view2.format != view.format || view2.width != 40 || view2.height != 30) {
    std::printf("  the texture object's descriptors read back differ from those passed\n");
    ++failures;
  }
  cudaSurfaceObject_t s;
  CHECK(cudaCreateSurfaceObject(&s, &r));
  cudaResourceDesc r3;
  CHECK(cudaGetSurfaceObjectResourceDesc(&r3, s));
  cudaChannelFormatDesc got_desc;
  cudaExtent extent;
  unsigned flags;
  CHECK(cudaArrayGetInfo(&got_desc, &extent, &flags, a));
  if (r3.resType != cudaResourceTypeArray || r3.res.array.array != a || got_desc.x != 32 || got_desc.y != 32 ||
      got_desc.z != 0 || got_desc.f != cudaChannelFormatKindFloat || extent.width != 40 || extent.height != 30 ||
      extent.depth != 0 || flags != cudaArraySurfaceLoadStore) {
    std::printf("  the surface object's descriptor or cudaArrayGetInfo differ from what was made\n");
    ++failures;
  }
  CHECK(cudaDestroySurfaceObject(s));
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFreeArray(a));
}

int main() {
  check_address_modes();
  check_1d_3d();
  check_layered_cubemap();
  check_read_modes();
  check_linear_and_pitched();
  check_gather();
  check_descriptors_read_back();
  CHECK(cudaDeviceSynchronize());
  if (failures != 0) {
    std::printf("FAILED: %d mismatches\n", failures);
    return 1;
  }
  std::printf("PASSED: texture fetches (address modes, read modes, array kinds, linear and pitched memory, gather)\n");
  return 0;
}
