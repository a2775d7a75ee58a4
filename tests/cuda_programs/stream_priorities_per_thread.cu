// Stream priorities and flags, cudaEventRecordWithFlags, and the per-thread default stream: two host
// threads each run a pipeline on cudaStreamPerThread at once; stream 0 is that stream when the file is
// built with --default-stream per-thread and the legacy stream otherwise.
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.h"

__global__ void affine(const float* x, float* y, int n, float a, float b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + b;
}

// One host thread's pipeline, all of it on its per-thread default stream.
static void pipeline(int seed, int n, int* wrong) {
  std::vector<float> hx(n), hy(n, -1.0f);
  std::srand(seed);
  for (float& v : hx) v = std::rand() / static_cast<float>(RAND_MAX) - 0.5f;
  const float a = 1.5f + seed, b = -0.25f * seed;
  float *dx, *dy;
  CHECK(cudaMallocAsync(&dx, n * sizeof(float), cudaStreamPerThread));
  CHECK(cudaMallocAsync(&dy, n * sizeof(float), cudaStreamPerThread));
  CHECK(cudaMemcpyAsync(dx, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice, cudaStreamPerThread));
  CHECK(cudaMemsetAsync(dy, 0xff, n * sizeof(float), cudaStreamPerThread));
  affine<<<(n + 255) / 256, 256, 0, cudaStreamPerThread>>>(dx, dy, n, a, b);
  CHECK(cudaMemcpyAsync(hy.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost, cudaStreamPerThread));
  CHECK(cudaFreeAsync(dx, cudaStreamPerThread));
  CHECK(cudaFreeAsync(dy, cudaStreamPerThread));
  CHECK(cudaStreamSynchronize(cudaStreamPerThread));
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += hy[i] != a * hx[i] + b;
  *wrong = bad;
}

int main() {
  int least = 1, greatest = 1;
  CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  cudaStream_t high, low, clamped;
  CHECK(cudaStreamCreateWithPriority(&high, cudaStreamNonBlocking, greatest));
  CHECK(cudaStreamCreateWithPriority(&low, cudaStreamDefault, least));
  CHECK(cudaStreamCreateWithPriority(&clamped, cudaStreamDefault, greatest - 100));  // clamped to the range
  int p_high = 1, p_low = 1, p_clamped = 1;
  unsigned f_high = 0, f_low = 1;
  CHECK(cudaStreamGetPriority(high, &p_high));
  CHECK(cudaStreamGetPriority(low, &p_low));
  CHECK(cudaStreamGetPriority(clamped, &p_clamped));
  CHECK(cudaStreamGetFlags(high, &f_high));
  CHECK(cudaStreamGetFlags(low, &f_low));
  const bool priorities_ok = greatest <= least && p_high == greatest && p_low == least && p_clamped == greatest &&
                             f_high == cudaStreamNonBlocking && f_low == cudaStreamDefault;

  // An event recorded with flags orders a wait across the two streams.
  const int n = 4099;
  float *dx, *dy;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; ++i) hx[i] = static_cast<float>((i * 37) % 101) - 50.0f;
  cudaEvent_t copied;
  CHECK(cudaEventCreate(&copied, cudaEventDisableTiming));  // the C++ overload with flags
  CHECK(cudaMemcpyAsync(dx, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice, low));
  CHECK(cudaEventRecordWithFlags(copied, low, cudaEventRecordDefault));
  CHECK(cudaStreamWaitEvent(high, copied, 0));
  affine<<<(n + 127) / 128, 128, 0, high>>>(dx, dy, n, 2.0f, 1.0f);
  CHECK(cudaMemcpyAsync(hy.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost, high));
  CHECK(cudaStreamSynchronize(high));
  int event_wrong = 0;
  for (int i = 0; i < n; ++i) event_wrong += hy[i] != 2.0f * hx[i] + 1.0f;
  CHECK(cudaCtxResetPersistingL2Cache());

  int wrong[2] = {-1, -1};
  std::thread first(pipeline, 1, 10007, &wrong[0]);
  std::thread second(pipeline, 2, 6007, &wrong[1]);
  first.join();
  second.join();

  unsigned long long id_zero = 0, id_per_thread = 0, id_legacy = 0;
  CHECK(cudaStreamGetId(0, &id_zero));
  CHECK(cudaStreamGetId(cudaStreamPerThread, &id_per_thread));
  CHECK(cudaStreamGetId(cudaStreamLegacy, &id_legacy));
#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
  const bool zero_ok = id_zero == id_per_thread && id_zero != id_legacy;
  const char* zero_is = "the per-thread stream";
#else
  const bool zero_ok = id_zero == id_legacy && id_zero != id_per_thread;
  const char* zero_is = "the legacy stream";
#endif
  CHECK(cudaEventDestroy(copied));
  CHECK(cudaStreamDestroy(high));
  CHECK(cudaStreamDestroy(low));
  CHECK(cudaStreamDestroy(clamped));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  std::printf("priorities: range [%d, %d], got %d %d %d (%s); flags %u %u\n", least, greatest, p_high, p_low,
              p_clamped, priorities_ok ? "ok" : "wrong", f_high, f_low);
  std::printf("event-ordered streams: %d wrong of %d; per-thread pipelines: %d and %d wrong\n", event_wrong, n,
              wrong[0], wrong[1]);
  std::printf("stream 0 is %s: %s\n", zero_is, zero_ok ? "yes" : "no");
  if (!priorities_ok || event_wrong != 0 || wrong[0] != 0 || wrong[1] != 0 || !zero_ok) {
    std::printf("FAILED\n");
    return 1;
  }
  std::printf("PASSED: stream priorities and flags, event record flags, per-thread default streams\n");
  return 0;
}
