// The guide's other next step, "GPU random numbers", as a plain CUDA program: Monte Carlo with cuRAND.
//  1. pi from points in the unit square, drawn in a kernel with cuRAND's device API (a Philox state
//     per thread, curand_uniform4), counted with a block reduction and one atomic per block;
//  2. a European call option priced from normals drawn by cuRAND's host API into device memory
//     (curandGenerateNormal), against the Black-Scholes formula.
// Self-checking: each estimate must lie within 5 standard errors of the exact value (a correct
// program fails that about once in 1.7 million runs). Built unchanged by nvcc for a GPU and by
// gpulab-simcc for the simulator:
//   gpulab-simcc -O2 06_curand_monte_carlo.cu -lcurand -o montecarlo && ./montecarlo [samples]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

#define CHECK(call)                                                                               \
  do {                                                                                            \
    const cudaError_t e = (call);                                                                 \
    if (e != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e));  \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)
#define CHECK_CURAND(call)                                                                        \
  do {                                                                                            \
    const curandStatus_t s = (call);                                                              \
    if (s != CURAND_STATUS_SUCCESS) {                                                             \
      std::fprintf(stderr, "%s:%d: %s: cuRAND status %d\n", __FILE__, __LINE__, #call, (int)s);  \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

constexpr int kThreads = 128;

// Each thread draws `rounds` groups of four uniforms (two points) from its own Philox subsequence.
__global__ void countInCircle(unsigned long long seed, int rounds, unsigned long long* inside) {
  __shared__ unsigned int blockCount[kThreads];
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t state;
  curand_init(seed, tid, 0, &state);
  unsigned int count = 0;
  for (int r = 0; r < rounds; ++r) {
    const float4 u = curand_uniform4(&state);
    count += (u.x * u.x + u.y * u.y <= 1.0f) + (u.z * u.z + u.w * u.w <= 1.0f);
  }
  blockCount[threadIdx.x] = count;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) blockCount[threadIdx.x] += blockCount[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(inside, static_cast<unsigned long long>(blockCount[0]));
}

// The discounted payoff of one path for each normal z: max(S exp((r - v^2/2) T + v sqrt(T) z) - K, 0).
__global__ void callPayoffs(const float* z, int n, float s0, float k, float r, float v, float t, float* payoff) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float st = s0 * expf((r - 0.5f * v * v) * t + v * sqrtf(t) * z[i]);
    payoff[i] = expf(-r * t) * fmaxf(st - k, 0.0f);
  }
}

int main(int argc, char** argv) {
  const long long samples = argc > 1 ? std::atoll(argv[1]) : (1LL << 22);
  if (samples < 1024) {
    std::fprintf(stderr, "usage: %s [samples >= 1024]\n", argv[0]);
    return 2;
  }
  const auto seed = static_cast<unsigned long long>(std::time(nullptr));
  bool ok = true;

  // 1. pi: samples points, two per curand_uniform4.
  const int blocks = 64;
  const int rounds = static_cast<int>((samples + 2LL * blocks * kThreads - 1) / (2LL * blocks * kThreads));
  const double points = 2.0 * rounds * blocks * kThreads;
  unsigned long long* dInside;
  CHECK(cudaMalloc(&dInside, sizeof(unsigned long long)));
  CHECK(cudaMemset(dInside, 0, sizeof(unsigned long long)));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  countInCircle<<<blocks, kThreads>>>(seed, rounds, dInside);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms_pi = 0;
  CHECK(cudaEventElapsedTime(&ms_pi, start, stop));
  unsigned long long inside = 0;
  CHECK(cudaMemcpy(&inside, dInside, sizeof inside, cudaMemcpyDeviceToHost));
  const double p = inside / points, pi = 4.0 * p, pi_se = 4.0 * std::sqrt(p * (1 - p) / points);
  const double pi_exact = 3.14159265358979323846;
  std::printf("pi from %.0f points (device API, Philox): %.6f, exact %.6f, %.2f standard errors off, %.2f ms\n", points,
              pi, pi_exact, std::fabs(pi - pi_exact) / pi_se, ms_pi);
  ok = ok && std::fabs(pi - pi_exact) <= 5 * pi_se;

  // 2. A call option: S0 = 100, K = 105, r = 5%, volatility 20%, one year.
  const float s0 = 100, k = 105, r = 0.05f, v = 0.2f, t = 1.0f;
  const int n = static_cast<int>(samples & ~1LL);  // curandGenerateNormal takes an even count
  float *dz, *dpay;
  CHECK(cudaMalloc(&dz, n * sizeof(float)));
  CHECK(cudaMalloc(&dpay, n * sizeof(float)));
  curandGenerator_t gen;
  CHECK_CURAND(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10));
  CHECK_CURAND(curandSetPseudoRandomGeneratorSeed(gen, seed));
  CHECK(cudaEventRecord(start));
  CHECK_CURAND(curandGenerateNormal(gen, dz, n, 0.0f, 1.0f));
  callPayoffs<<<(n + 255) / 256, 256>>>(dz, n, s0, k, r, v, t, dpay);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms_option = 0;
  CHECK(cudaEventElapsedTime(&ms_option, start, stop));
  std::vector<float> pay(n);
  CHECK(cudaMemcpy(pay.data(), dpay, n * sizeof(float), cudaMemcpyDeviceToHost));
  double sum = 0, sum2 = 0;
  for (float x : pay) {
    sum += x;
    sum2 += static_cast<double>(x) * x;
  }
  const double mean = sum / n, se = std::sqrt((sum2 / n - mean * mean) / n);
  const double d1 = (std::log(s0 / k) + (r + 0.5 * v * v) * t) / (v * std::sqrt(t)), d2 = d1 - v * std::sqrt(t);
  auto phi = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  const double exact = s0 * phi(d1) - k * std::exp(-r * t) * phi(d2);
  std::printf("call price from %d paths (host API normals): %.4f, Black-Scholes %.4f, %.2f standard errors off, %.2f ms\n",
              n, mean, exact, std::fabs(mean - exact) / se, ms_option);
  ok = ok && std::fabs(mean - exact) <= 5 * se;

  CHECK_CURAND(curandDestroyGenerator(gen));
  for (void* q : {static_cast<void*>(dInside), static_cast<void*>(dz), static_cast<void*>(dpay)}) CHECK(cudaFree(q));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}
