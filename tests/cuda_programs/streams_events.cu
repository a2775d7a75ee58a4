// Overlapped work on several streams, as CUDA programs write it: pinned host buffers, per-chunk
// H2D copy, kernel and D2H copy on round-robin streams, events to time each stream and to make a final
// stream wait for all of them, and a host callback that runs once the last stream's work is done.
// Self-checking against the host.
#include <atomic>
#include <cmath>
#include <cstdio>

#include <cuda_runtime.h>

#include "cuda_check.h"

__global__ void polynomial(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float v = x[i];
    y[i] = fmaf(fmaf(fmaf(0.5f, v, -1.0f), v, 2.0f), v, 0.25f);  // 0.5v^3 - v^2 + 2v + 0.25
  }
}

__global__ void scaleAll(float* y, int n, float s) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] *= s;
}

static std::atomic<int> callbacks{0};
static void CUDART_CB onDone(void* user) { static_cast<std::atomic<int>*>(user)->fetch_add(1); }

int main() {
  const int n = 1 << 20, streams = 4, chunks = 13;  // chunks of unequal size: n is no multiple of 13
  float *hx = nullptr, *hy = nullptr, *dx = nullptr, *dy = nullptr;
  CHECK(cudaMallocHost(&hx, n * sizeof(float)));
  CHECK(cudaHostAlloc(reinterpret_cast<void**>(&hy), n * sizeof(float), cudaHostAllocDefault));
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  for (int i = 0; i < n; ++i) {
    hx[i] = std::sin(0.001f * static_cast<float>(i));
    hy[i] = NAN;
  }

  cudaStream_t s[streams], last;
  cudaEvent_t start[streams], stop[streams];
  for (int k = 0; k < streams; ++k) {
    CHECK(cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking));
    CHECK(cudaEventCreate(&start[k]));
    CHECK(cudaEventCreate(&stop[k]));
  }
  CHECK(cudaStreamCreate(&last));

  for (int k = 0; k < streams; ++k) CHECK(cudaEventRecord(start[k], s[k]));
  for (int c = 0; c < chunks; ++c) {
    const int begin = static_cast<int>(static_cast<long long>(n) * c / chunks);
    const int end = static_cast<int>(static_cast<long long>(n) * (c + 1) / chunks);
    const int count = end - begin;
    cudaStream_t st = s[c % streams];
    CHECK(cudaMemcpyAsync(dx + begin, hx + begin, count * sizeof(float), cudaMemcpyHostToDevice, st));
    polynomial<<<(count + 255) / 256, 256, 0, st>>>(dx + begin, dy + begin, count);
    CHECK(cudaGetLastError());
  }
  for (int k = 0; k < streams; ++k) {
    CHECK(cudaEventRecord(stop[k], s[k]));
    CHECK(cudaStreamWaitEvent(last, stop[k], 0));  // `last` starts when every stream is done
  }
  scaleAll<<<64, 256, 0, last>>>(dy, n, 2.0f);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpyAsync(hy, dy, n * sizeof(float), cudaMemcpyDeviceToHost, last));
  CHECK(cudaLaunchHostFunc(last, onDone, &callbacks));
  CHECK(cudaStreamSynchronize(last));

  int failures = 0;
  if (callbacks.load() != 1) {
    std::printf("FAIL host callback ran %d times\n", callbacks.load());
    ++failures;
  }
  if (cudaStreamQuery(last) != cudaSuccess) {
    std::printf("FAIL a synchronised stream is not idle\n");
    ++failures;
  }
  for (int k = 0; k < streams; ++k) {
    float ms = -1.0f;
    CHECK(cudaEventElapsedTime(&ms, start[k], stop[k]));
    if (!(ms >= 0.0f)) {
      std::printf("FAIL stream %d: elapsed %g ms\n", k, ms);
      ++failures;
    }
  }
  for (int i = 0; i < n; ++i) {
    const double v = hx[i];
    const double want = 2.0 * (((0.5 * v - 1.0) * v + 2.0) * v + 0.25);
    if (!(std::fabs(hy[i] - want) <= 1e-5 * (1.0 + std::fabs(want)))) {
      std::printf("FAIL at %d: got %g, want %g\n", i, hy[i], want);
      ++failures;
      break;
    }
  }

  for (int k = 0; k < streams; ++k) {
    CHECK(cudaStreamDestroy(s[k]));
    CHECK(cudaEventDestroy(start[k]));
    CHECK(cudaEventDestroy(stop[k]));
  }
  CHECK(cudaStreamDestroy(last));
  CHECK(cudaFreeHost(hx));
  CHECK(cudaFreeHost(hy));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  if (failures != 0) return 1;
  std::printf("PASSED\n");
  return 0;
}
