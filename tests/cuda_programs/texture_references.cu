// Texture references, as code written before CUDA 12 uses them (today's nvcc refuses this file; the
// simulator keeps the API): a 1-D reference bound to linear memory and read with tex1Dfetch, a 2-D
// reference bound to a CUDA array whose filter mode is changed after the binding (a fetch reads the
// reference's settings as they are), and a uchar4 reference in normalized-float mode bound to pitched
// memory with cudaBindTexture2D. Random inputs, odd sizes; checked against the host.
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.h"

texture<float, cudaTextureType1D, cudaReadModeElementType> linearRef;
texture<float, cudaTextureType2D, cudaReadModeElementType> arrayRef;
texture<uchar4, cudaTextureType2D, cudaReadModeNormalizedFloat> pitchRef;

constexpr int kN = 1001;
constexpr int kW = 33, kH = 17;

__global__ void readLinear(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch(linearRef, i) * 2.0f;
}

// At texel (x, y) + (dx, 0.5): linear filtering blends texels x and x + 1 of row y by dx - 0.5.
__global__ void readArray(float* out, float dx) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < kW) out[y * kW + x] = tex2D(arrayRef, x + dx, y + 0.5f);
}

__global__ void readPitch(float4* out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < kW) out[y * kW + x] = tex2D(pitchRef, x + 0.5f, y + 0.5f);
}

static int failures = 0;
static void expect(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what);
    ++failures;
  }
}

int main() {
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> dist(-10.0f, 10.0f);

  // 1-D: linear memory, tex1Dfetch.
  std::vector<float> h(kN), got(kN);
  for (float& v : h) v = dist(rng);
  float *d = nullptr, *dout = nullptr;
  CHECK(cudaMalloc(&d, kN * sizeof(float)));
  CHECK(cudaMalloc(&dout, kN * sizeof(float)));
  CHECK(cudaMemcpy(d, h.data(), kN * sizeof(float), cudaMemcpyHostToDevice));
  size_t offset = 1;
  CHECK(cudaBindTexture(&offset, linearRef, d, kN * sizeof(float)));
  expect(offset == 0, "cudaBindTexture's offset is 0");
  readLinear<<<(kN + 127) / 128, 128>>>(dout, kN);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(got.data(), dout, kN * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < kN; ++i) wrong += got[i] != h[i] * 2.0f;
  expect(wrong == 0, "tex1Dfetch through a reference bound to linear memory");
  CHECK(cudaUnbindTexture(linearRef));
  std::printf("tex1Dfetch of a reference bound with cudaBindTexture: %d of %d wrong\n", wrong, kN);

  // 2-D: a CUDA array, point then linear filtering set after the binding.
  std::vector<float> img(kW * kH), out(kW * kH);
  for (float& v : img) v = dist(rng);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  CHECK(cudaMallocArray(&array, &desc, kW, kH));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, img.data(), kW * sizeof(float), kW * sizeof(float), kH, cudaMemcpyHostToDevice));
  float* dimg = nullptr;
  CHECK(cudaMalloc(&dimg, kW * kH * sizeof(float)));
  CHECK(cudaBindTextureToArray(arrayRef, array));
  readArray<<<dim3(1, kH), 64>>>(dimg, 0.5f);  // point filtering at texel centres
  CHECK(cudaMemcpy(out.data(), dimg, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  wrong = 0;
  for (int i = 0; i < kW * kH; ++i) wrong += out[i] != img[i];
  expect(wrong == 0, "tex2D with point filtering through a reference bound to an array");
  arrayRef.filterMode = cudaFilterModeLinear;  // after the binding: the next fetch sees it
  readArray<<<dim3(1, kH), 64>>>(dimg, 0.75f);  // weight 1/4 for texel x + 1 (clamped at the edge)
  CHECK(cudaMemcpy(out.data(), dimg, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  double worst = 0.0;
  for (int y = 0; y < kH; ++y) {
    for (int x = 0; x < kW; ++x) {
      const double a = img[y * kW + x], b = img[y * kW + std::min(x + 1, kW - 1)];
      const double want = 0.75 * a + 0.25 * b;
      worst = std::max(worst, std::fabs(out[y * kW + x] - want) / (1.0 + std::fabs(want)));
    }
  }
  expect(worst < 1e-6, "tex2D with linear filtering set after the binding");
  CHECK(cudaUnbindTexture(arrayRef));
  std::printf("tex2D of an array reference: point exact, linear (set after binding) within %.1e\n", worst);

  // 2-D pitched memory of uchar4, read as normalized floats.
  std::vector<uchar4> px(kW * kH);
  std::uniform_int_distribution<int> byte(0, 255);
  for (uchar4& p : px) p = make_uchar4(byte(rng), byte(rng), byte(rng), byte(rng));
  uchar4* dpx = nullptr;
  size_t pitch = 0;
  CHECK(cudaMallocPitch(&dpx, &pitch, kW * sizeof(uchar4), kH));
  CHECK(cudaMemcpy2D(dpx, pitch, px.data(), kW * sizeof(uchar4), kW * sizeof(uchar4), kH, cudaMemcpyHostToDevice));
  CHECK(cudaBindTexture2D(nullptr, pitchRef, dpx, kW, kH, pitch));
  size_t alignment_offset = 7;
  CHECK(cudaGetTextureAlignmentOffset(&alignment_offset, pitchRef));
  expect(alignment_offset == 0, "cudaGetTextureAlignmentOffset of a bound reference");
  float4* dnorm = nullptr;
  CHECK(cudaMalloc(&dnorm, kW * kH * sizeof(float4)));
  readPitch<<<dim3(1, kH), 64>>>(dnorm);
  std::vector<float4> norm(kW * kH);
  CHECK(cudaMemcpy(norm.data(), dnorm, norm.size() * sizeof(float4), cudaMemcpyDeviceToHost));
  wrong = 0;
  for (int i = 0; i < kW * kH; ++i) {
    wrong += norm[i].x != px[i].x / 255.0f || norm[i].y != px[i].y / 255.0f || norm[i].z != px[i].z / 255.0f ||
             norm[i].w != px[i].w / 255.0f;
  }
  expect(wrong == 0, "tex2D of a uchar4 reference in normalized-float mode, bound to pitched memory");
  CHECK(cudaUnbindTexture(pitchRef));
  std::printf("tex2D of a normalized-float uchar4 reference on pitched memory: %d of %d wrong\n", wrong, kW * kH);

  CHECK(cudaFree(d));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(dimg));
  CHECK(cudaFree(dpx));
  CHECK(cudaFree(dnorm));
  CHECK(cudaFreeArray(array));
  if (failures != 0) return 1;
  std::printf("PASSED\n");
  return 0;
}
