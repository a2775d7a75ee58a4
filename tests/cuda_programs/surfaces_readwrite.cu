// Surface objects: kernels write every kind of array through surf*write (x in bytes), the host copies
// the arrays back (cudaMemcpy3D, cudaMemcpy2DFromArray) and compares with what was written, and
// kernels read them through surf*read and, in CUDA's simpleSurfaceWrite pattern, through a texture
// of one array written into another surface. The clamp and zero boundary modes are checked on
// reads and writes outside the surface. Sizes are odd, data random.
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.h"
#include "device_buffers.h"
#include "texture_reference_model.h"

namespace {

int failures = 0;

template <class T>
void expect_equal(const T& got, const T& want, const char* what, int index) {
  if (std::memcmp(&got, &want, sizeof(T)) == 0) return;
  if (++failures <= 12) std::printf("  %s: element %d differs\n", what, index);
}

cudaResourceDesc array_resource(cudaArray_t a) {
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  return r;
}

cudaSurfaceObject_t make_surface(cudaArray_t a) {
  const cudaResourceDesc r = array_resource(a);
  cudaSurfaceObject_t s;
  CHECK(cudaCreateSurfaceObject(&s, &r));
  return s;
}

// The whole array (w x h x d elements; h and d at least 1) copied to the host.
template <class T>
std::vector<T> array_to_host(cudaArray_t a, int w, int h, int d) {
  std::vector<T> host(static_cast<std::size_t>(w) * h * d);
  cudaMemcpy3DParms p;
  std::memset(&p, 0, sizeof p);
  p.srcArray = a;
  p.dstPtr = make_cudaPitchedPtr(host.data(), w * sizeof(T), w, h);
  p.extent = make_cudaExtent(w, h, d);
  p.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&p));
  return host;
}

// Element values, a hash of the position.
__host__ __device__ unsigned mix(unsigned x, unsigned y, unsigned z, unsigned seed) {
  unsigned h = seed * 0x9e3779b9u ^ x * 0x85ebca6bu ^ y * 0xc2b2ae35u ^ z * 0x27d4eb2fu;
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 12;
  return h;
}

}  // namespace

__device__ float value_f(unsigned x, unsigned y, unsigned z) { return static_cast<float>(mix(x, y, z, 1) % 20001) / 100.0f - 100.0f; }

// ---- 2-D: a texture of an input array, read and scaled, written into a surface (simpleSurfaceWrite's pattern) ----
__global__ void scaleIntoSurface(cudaTextureObject_t in, cudaSurfaceObject_t out, int w, int h, float scale) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) surf2Dwrite(tex2D<float>(in, x + 0.5f, y + 0.5f) * scale, out, x * static_cast<int>(sizeof(float)), y);
}

__global__ void readSurface2D(cudaSurfaceObject_t s, float* out, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  if (y % 2 == 0) {
    out[y * w + x] = surf2Dread<float>(s, x * 4, y);
  } else {
    surf2Dread(&out[y * w + x], s, x * 4, y);  // the out-parameter form
  }
}

// Reads outside the surface: clamp and zero modes.
__global__ void readOutside(cudaSurfaceObject_t s, const int2* at, float* clamped, float* zeroed, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  clamped[i] = surf2Dread<float>(s, at[i].x * 4, at[i].y, cudaBoundaryModeClamp);
  zeroed[i] = surf2Dread<float>(s, at[i].x * 4, at[i].y, cudaBoundaryModeZero);
}

// Writes outside the surface: the zero mode drops them; the clamp mode moves them to the edge (one
// thread, so that no two writes meet).
__global__ void writeOutside(cudaSurfaceObject_t s, int w, int h) {
  surf2Dwrite(-1.0f, s, -4, 2, cudaBoundaryModeZero);
  surf2Dwrite(-2.0f, s, w * 4, 0, cudaBoundaryModeZero);
  surf2Dwrite(-3.0f, s, 0, h + 5, cudaBoundaryModeZero);
  surf2Dwrite(1000.0f, s, -20, 3, cudaBoundaryModeClamp);              // -> (0, 3)
  surf2Dwrite(2000.0f, s, (w + 7) * 4, h + 2, cudaBoundaryModeClamp);  // -> (w - 1, h - 1)
}

// ---- the other kinds of surface: each kernel writes mix(...) bits, another reads them back ----
__global__ void write1D(cudaSurfaceObject_t s, int w) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned v = mix(x, 0, 0, 2);
  if (x < w) surf1Dwrite(make_uchar4(v, v >> 8, v >> 16, v >> 24), s, x * 4);
}
__global__ void read1D(cudaSurfaceObject_t s, uchar4* out, int w) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < w) out[x] = surf1Dread<uchar4>(s, x * 4);
}

__global__ void write3D(cudaSurfaceObject_t s, int w, int h, int d) {
  const int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
  if (x < w && y < h && z < d) surf3Dwrite(make_int2(mix(x, y, z, 3), -static_cast<int>(mix(x, y, z, 4))), s, x * 8, y, z);
}
__global__ void read3D(cudaSurfaceObject_t s, int2* out, int w, int h, int d) {
  const int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
  if (x < w && y < h && z < d) surf3Dread(&out[(z * h + y) * w + x], s, x * 8, y, z);
}

__global__ void write1DLayered(cudaSurfaceObject_t s, int w, int layers) {
  const int x = threadIdx.x, layer = blockIdx.x;
  if (x < w && layer < layers) surf1DLayeredwrite(static_cast<unsigned short>(mix(x, layer, 0, 5)), s, x * 2, layer);
}
__global__ void read1DLayered(cudaSurfaceObject_t s, unsigned short* out, int w, int layers) {
  const int x = threadIdx.x, layer = blockIdx.x;
  if (x < w && layer < layers) out[layer * w + x] = surf1DLayeredread<unsigned short>(s, x * 2, layer);
}

__global__ void write2DLayered(cudaSurfaceObject_t s, int w, int h, int layers) {
  const int x = threadIdx.x, y = threadIdx.y, layer = blockIdx.x;
  if (x < w && y < h && layer < layers) {
    surf2DLayeredwrite(make_float4(value_f(x, y, layer), -value_f(y, x, layer), static_cast<float>(layer), 0.5f), s, x * 16, y,
                       layer);
  }
}
__global__ void read2DLayered(cudaSurfaceObject_t s, float4* out, int w, int h, int layers) {
  const int x = threadIdx.x, y = threadIdx.y, layer = blockIdx.x;
  if (x < w && y < h && layer < layers) out[(layer * h + y) * w + x] = surf2DLayeredread<float4>(s, x * 16, y, layer);
}

// Cubemaps: face (or layer * 6 + face) in blockIdx.x.
__global__ void writeCubemap(cudaSurfaceObject_t s, int edge, int layered) {
  const int x = threadIdx.x, y = threadIdx.y, f = blockIdx.x;
  if (x >= edge || y >= edge) return;
  if (layered != 0) {
    surfCubemapLayeredwrite(value_f(x, y, f), s, x * 4, y, f);
  } else {
    surfCubemapwrite(value_f(x, y, f), s, x * 4, y, f);
  }
}
__global__ void readCubemap(cudaSurfaceObject_t s, float* out, int edge, int layered) {
  const int x = threadIdx.x, y = threadIdx.y, f = blockIdx.x;
  if (x >= edge || y >= edge) return;
  out[(f * edge + y) * edge + x] = layered != 0 ? surfCubemapLayeredread<float>(s, x * 4, y, f) : surfCubemapread<float>(s, x * 4, y, f);
}

static float host_value_f(unsigned x, unsigned y, unsigned z) { return static_cast<float>(mix(x, y, z, 1) % 20001) / 100.0f - 100.0f; }

static void check_2d() {
  const int w = 33, h = 17;
  TestRandom rng(21);
  std::vector<float> input(w * h);
  for (float& v : input) v = rng.uniform(-50, 50);
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t in, out;
  CHECK(cudaMallocArray(&in, &desc, w, h));
  CHECK(cudaMallocArray(&out, &desc, w, h, cudaArraySurfaceLoadStore));
  CHECK(cudaMemcpy2DToArray(in, 0, 0, input.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
  cudaTextureDesc td;
  std::memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  const cudaResourceDesc rin = array_resource(in);
  cudaTextureObject_t t;
  CHECK(cudaCreateTextureObject(&t, &rin, &td, nullptr));
  const cudaSurfaceObject_t s = make_surface(out);
  const dim3 block(8, 8), grid((w + 7) / 8, (h + 7) / 8);
  scaleIntoSurface<<<grid, block>>>(t, s, w, h, 3.0f);
  CHECK(cudaGetLastError());
  std::vector<float> want(w * h);
  for (int i = 0; i < w * h; ++i) want[i] = input[i] * 3.0f;
  std::vector<float> back(w * h);
  CHECK(cudaMemcpy2DFromArray(back.data(), w * 4, out, 0, 0, w * 4, h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < w * h; ++i) expect_equal(back[i], want[i], "surf2Dwrite, copied back", i);
  float* d_read;
  CHECK(cudaMalloc(&d_read, w * h * sizeof(float)));
  readSurface2D<<<grid, block>>>(s, d_read, w, h);
  const std::vector<float> read = to_host(d_read, w * h);
  for (int i = 0; i < w * h; ++i) expect_equal(read[i], want[i], "surf2Dread", i);

  // Outside the surface.
  const int n = 400;
  std::vector<int2> at(n);
  for (int2& c : at) c = make_int2(static_cast<int>(rng.next() % (w + 20)) - 10, static_cast<int>(rng.next() % (h + 20)) - 10);
  int2* d_at;
  float *d_clamped, *d_zeroed;
  CHECK(cudaMalloc(&d_at, n * sizeof(int2)));
  CHECK(cudaMemcpy(d_at, at.data(), n * sizeof(int2), cudaMemcpyHostToDevice));
  CHECK(cudaMalloc(&d_clamped, n * sizeof(float)));
  CHECK(cudaMalloc(&d_zeroed, n * sizeof(float)));
  readOutside<<<(n + 127) / 128, 128>>>(s, d_at, d_clamped, d_zeroed, n);
  const std::vector<float> clamped = to_host(d_clamped, n), zeroed = to_host(d_zeroed, n);
  for (int i = 0; i < n; ++i) {
    const bool inside = at[i].x >= 0 && at[i].x < w && at[i].y >= 0 && at[i].y < h;
    const int cx = at[i].x < 0 ? 0 : (at[i].x >= w ? w - 1 : at[i].x), cy = at[i].y < 0 ? 0 : (at[i].y >= h ? h - 1 : at[i].y);
    expect_equal(clamped[i], want[cy * w + cx], "surf2Dread, cudaBoundaryModeClamp", i);
    expect_equal(zeroed[i], inside ? want[at[i].y * w + at[i].x] : 0.0f, "surf2Dread, cudaBoundaryModeZero", i);
  }
  writeOutside<<<1, 1>>>(s, w, h);
  CHECK(cudaMemcpy2DFromArray(back.data(), w * 4, out, 0, 0, w * 4, h, cudaMemcpyDeviceToHost));
  want[3 * w + 0] = 1000.0f;
  want[(h - 1) * w + w - 1] = 2000.0f;
  for (int i = 0; i < w * h; ++i) expect_equal(back[i], want[i], "surf2Dwrite outside the surface", i);

  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaDestroySurfaceObject(s));
  CHECK(cudaFreeArray(in));
  CHECK(cudaFreeArray(out));
  CHECK(cudaFree(d_read));
  CHECK(cudaFree(d_at));
  CHECK(cudaFree(d_clamped));
  CHECK(cudaFree(d_zeroed));
}

static void check_other_kinds() {
  {
    const int w = 77;
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &desc, w, 0, cudaArraySurfaceLoadStore));
    const cudaSurfaceObject_t s = make_surface(a);
    write1D<<<(w + 31) / 32, 32>>>(s, w);
    uchar4* d_out;
    CHECK(cudaMalloc(&d_out, w * sizeof(uchar4)));
    read1D<<<(w + 31) / 32, 32>>>(s, d_out, w);
    const std::vector<uchar4> back = array_to_host<uchar4>(a, w, 1, 1), read = to_host(d_out, w);
    for (int x = 0; x < w; ++x) {
      const unsigned v = mix(x, 0, 0, 2);
      const uchar4 want = make_uchar4(v, v >> 8, v >> 16, v >> 24);
      expect_equal(back[x], want, "surf1Dwrite", x);
      expect_equal(read[x], want, "surf1Dread", x);
    }
    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(d_out));
  }
  {
    const int w = 5, h = 4, d = 3;
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc<int2>();
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &desc, make_cudaExtent(w, h, d), cudaArraySurfaceLoadStore));
    const cudaSurfaceObject_t s = make_surface(a);
    write3D<<<d, dim3(w, h)>>>(s, w, h, d);
    int2* d_out;
    CHECK(cudaMalloc(&d_out, w * h * d * sizeof(int2)));
    read3D<<<d, dim3(w, h)>>>(s, d_out, w, h, d);
    const std::vector<int2> back = array_to_host<int2>(a, w, h, d), read = to_host(d_out, w * h * d);
    for (int z = 0; z < d; ++z) {
      for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
          const int i = (z * h + y) * w + x;
          const int2 want = make_int2(mix(x, y, z, 3), -static_cast<int>(mix(x, y, z, 4)));
          expect_equal(back[i], want, "surf3Dwrite", i);
          expect_equal(read[i], want, "surf3Dread", i);
        }
      }
    }
    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(d_out));
  }
  {
    const int w = 23, layers = 3;
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc<unsigned short>();
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &desc, make_cudaExtent(w, 0, layers), cudaArrayLayered | cudaArraySurfaceLoadStore));
    const cudaSurfaceObject_t s = make_surface(a);
    write1DLayered<<<layers, w>>>(s, w, layers);
    unsigned short* d_out;
    CHECK(cudaMalloc(&d_out, w * layers * sizeof(unsigned short)));
    read1DLayered<<<layers, w>>>(s, d_out, w, layers);
    const std::vector<unsigned short> back = array_to_host<unsigned short>(a, w, 1, layers), read = to_host(d_out, w * layers);
    for (int i = 0; i < w * layers; ++i) {
      const unsigned short want = static_cast<unsigned short>(mix(i % w, i / w, 0, 5));
      expect_equal(back[i], want, "surf1DLayeredwrite", i);
      expect_equal(read[i], want, "surf1DLayeredread", i);
    }
    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(d_out));
  }
  {
    const int w = 7, h = 5, layers = 3;
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float4>();
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &desc, make_cudaExtent(w, h, layers), cudaArrayLayered | cudaArraySurfaceLoadStore));
    const cudaSurfaceObject_t s = make_surface(a);
    write2DLayered<<<layers, dim3(w, h)>>>(s, w, h, layers);
    float4* d_out;
    CHECK(cudaMalloc(&d_out, w * h * layers * sizeof(float4)));
    read2DLayered<<<layers, dim3(w, h)>>>(s, d_out, w, h, layers);
    const std::vector<float4> back = array_to_host<float4>(a, w, h, layers), read = to_host(d_out, w * h * layers);
    for (int layer = 0; layer < layers; ++layer) {
      for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
          const int i = (layer * h + y) * w + x;
          const float4 want = make_float4(host_value_f(x, y, layer), -host_value_f(y, x, layer), static_cast<float>(layer), 0.5f);
          expect_equal(back[i], want, "surf2DLayeredwrite", i);
          expect_equal(read[i], want, "surf2DLayeredread", i);
        }
      }
    }
    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(d_out));
  }
  for (int layered = 0; layered <= 1; ++layered) {
    const int edge = 6, faces = layered != 0 ? 12 : 6;
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &desc, make_cudaExtent(edge, edge, faces),
                            cudaArrayCubemap | cudaArraySurfaceLoadStore | (layered != 0 ? cudaArrayLayered : 0)));
    const cudaSurfaceObject_t s = make_surface(a);
    writeCubemap<<<faces, dim3(edge, edge)>>>(s, edge, layered);
    float* d_out;
    CHECK(cudaMalloc(&d_out, edge * edge * faces * sizeof(float)));
    readCubemap<<<faces, dim3(edge, edge)>>>(s, d_out, edge, layered);
    const std::vector<float> back = array_to_host<float>(a, edge, edge, faces), read = to_host(d_out, edge * edge * faces);
    for (int i = 0; i < edge * edge * faces; ++i) {
      const float want = host_value_f(i % edge, (i / edge) % edge, i / (edge * edge));
      expect_equal(back[i], want, layered != 0 ? "surfCubemapLayeredwrite" : "surfCubemapwrite", i);
      expect_equal(read[i], want, layered != 0 ? "surfCubemapLayeredread" : "surfCubemapread", i);
    }
    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(d_out));
  }
}

int main() {
  check_2d();
  check_other_kinds();
  CHECK(cudaDeviceSynchronize());
  if (failures != 0) {
    std::printf("FAILED: %d mismatches\n", failures);
    return 1;
  }
  std::printf("PASSED: surface writes and reads of every kind of array, boundary modes clamp and zero\n");
  return 0;
}
