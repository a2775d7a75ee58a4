// cuRAND's host API: generators writing device memory (on a stream, consumed by a kernel there) and
// host memory, checked for what is known without an oracle: the host and device generators give one
// sequence; an offset of k skips k elements whatever the distribution; consecutive calls continue one
// another; ranges and moments on fresh seeds; the status codes cuRAND documents for bad arguments.
// Self-checking: prints PASSED.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>
#include <curand.h>

#include "library_checks.h"

#define CHECK_CURAND(call) CHECK_STATUS(call, CURAND_STATUS_SUCCESS, status_number)

// A kernel on the generator's stream that reads what the generator wrote: the stream orders them.
__global__ void count_in_unit_interval(const float* x, size_t n, unsigned int* inside) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    if (x[i] > 0.0f && x[i] <= 1.0f) atomicAdd(inside, 1u);
  }
}

template <class T>
static void moments(const std::vector<T>& v, double* mean, double* var) {
  double m = 0, s = 0;
  for (T x : v) m += static_cast<double>(x);
  m /= static_cast<double>(v.size());
  for (T x : v) s += (static_cast<double>(x) - m) * (static_cast<double>(x) - m);
  *mean = m;
  *var = s / static_cast<double>(v.size() - 1);
}

// Generates n values with a device generator (through device memory) and a host generator, same seed.
template <class T, class Gen>
static void both(curandRngType_t type, unsigned long long seed, size_t n, Gen gen, std::vector<T>* from_device,
                 std::vector<T>* from_host) {
  curandGenerator_t dg, hg;
  CHECK_CURAND(curandCreateGenerator(&dg, type));
  CHECK_CURAND(curandCreateGeneratorHost(&hg, type));
  CHECK_CURAND(curandSetPseudoRandomGeneratorSeed(dg, seed));
  CHECK_CURAND(curandSetPseudoRandomGeneratorSeed(hg, seed));
  T* d;
  CHECK(cudaMalloc(&d, n * sizeof(T)));
  CHECK_CURAND(gen(dg, d, n));
  from_device->assign(n, T{});
  CHECK(cudaMemcpy(from_device->data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  from_host->assign(n, T{});
  CHECK_CURAND(gen(hg, from_host->data(), n));
  CHECK(cudaFree(d));
  CHECK_CURAND(curandDestroyGenerator(dg));
  CHECK_CURAND(curandDestroyGenerator(hg));
}

template <class T>
static bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

static void check_type(curandRngType_t type, const char* name) {
  const size_t n = 100002;  // even (normals), a multiple of nothing else
  const double se = 1.0 / std::sqrt(static_cast<double>(n));
  std::vector<float> fd, fh;
  std::vector<double> dd, dh;
  std::vector<unsigned int> ud, uh;
  double m, v;

  both<unsigned int>(type, 11, n, [](curandGenerator_t g, unsigned int* o, size_t k) { return curandGenerate(g, o, k); }, &ud, &uh);
  EXPECT(same_bits(ud, uh), "%s: raw words of the device and host generators differ", name);
  moments(ud, &m, &v);
  EXPECT(std::fabs(m / 4294967296.0 - 0.5) < 5 * se * 0.29, "%s: raw word mean %g", name, m);

  both<float>(type, 12, n, [](curandGenerator_t g, float* o, size_t k) { return curandGenerateUniform(g, o, k); }, &fd, &fh);
  EXPECT(same_bits(fd, fh), "%s: uniforms of the device and host generators differ", name);
  int outside = 0;
  for (float x : fd) outside += !(x > 0.0f && x <= 1.0f);
  EXPECT(outside == 0, "%s: %d uniforms outside (0, 1]", name, outside);
  moments(fd, &m, &v);
  EXPECT(std::fabs(m - 0.5) < 5 * se * 0.29 && std::fabs(v - 1.0 / 12) < 0.002, "%s: uniform mean %g variance %g", name, m, v);

  both<double>(type, 13, n, [](curandGenerator_t g, double* o, size_t k) { return curandGenerateUniformDouble(g, o, k); }, &dd, &dh);
  EXPECT(same_bits(dd, dh), "%s: uniform doubles of the device and host generators differ", name);
  outside = 0;
  for (double x : dd) outside += !(x > 0.0 && x <= 1.0);
  EXPECT(outside == 0, "%s: %d uniform doubles outside (0, 1]", name, outside);

  both<float>(type, 14, n, [](curandGenerator_t g, float* o, size_t k) { return curandGenerateNormal(g, o, k, 2.0f, 3.0f); }, &fd, &fh);
  EXPECT(same_bits(fd, fh), "%s: normals of the device and host generators differ", name);
  moments(fd, &m, &v);
  EXPECT(std::fabs(m - 2) < 5 * 3 * se && std::fabs(v - 9) < 5 * 9 * std::sqrt(2.0) * se, "%s: normal(2, 3) mean %g variance %g",
         name, m, v);

  both<double>(type, 15, n, [](curandGenerator_t g, double* o, size_t k) { return curandGenerateNormalDouble(g, o, k, -1.0, 0.5); }, &dd, &dh);
  EXPECT(same_bits(dd, dh), "%s: normal doubles of the device and host generators differ", name);
  moments(dd, &m, &v);
  EXPECT(std::fabs(m + 1) < 5 * 0.5 * se && std::fabs(v - 0.25) < 5 * 0.25 * std::sqrt(2.0) * se,
         "%s: normal double(-1, 0.5) mean %g variance %g", name, m, v);

  // Log-normal: the logarithms are normal(0.3, 0.4).
  both<float>(type, 16, n, [](curandGenerator_t g, float* o, size_t k) { return curandGenerateLogNormal(g, o, k, 0.3f, 0.4f); }, &fd, &fh);
  EXPECT(same_bits(fd, fh), "%s: log-normals of the device and host generators differ", name);
  std::vector<double> logs(n);
  for (size_t i = 0; i < n; ++i) logs[i] = std::log(static_cast<double>(fd[i]));
  moments(logs, &m, &v);
  EXPECT(std::fabs(m - 0.3) < 5 * 0.4 * se && std::fabs(v - 0.16) < 5 * 0.16 * std::sqrt(2.0) * se,
         "%s: log of log-normal(0.3, 0.4): mean %g variance %g", name, m, v);
  both<double>(type, 17, n, [](curandGenerator_t g, double* o, size_t k) { return curandGenerateLogNormalDouble(g, o, k, 0.3, 0.4); }, &dd, &dh);
  EXPECT(same_bits(dd, dh), "%s: log-normal doubles of the device and host generators differ", name);

  for (double lambda : {0.7, 30.0, 5000.0}) {
    both<unsigned int>(type, 18, n, [lambda](curandGenerator_t g, unsigned int* o, size_t k) { return curandGeneratePoisson(g, o, k, lambda); }, &ud, &uh);
    EXPECT(same_bits(ud, uh), "%s: Poisson counts of the device and host generators differ", name);
    moments(ud, &m, &v);
    EXPECT(std::fabs(m - lambda) < 5 * std::sqrt(lambda) * se && std::fabs(v - lambda) < 5 * std::sqrt(lambda * (1 + 2 * lambda)) * se,
           "%s: Poisson(%g) mean %g variance %g", name, lambda, m, v);
  }

  // The offset skips elements, and consecutive calls continue each other (host generators).
  curandGenerator_t a, b;
  CHECK_CURAND(curandCreateGeneratorHost(&a, type));
  CHECK_CURAND(curandCreateGeneratorHost(&b, type));
  CHECK_CURAND(curandSetPseudoRandomGeneratorSeed(a, 77));
  CHECK_CURAND(curandSetPseudoRandomGeneratorSeed(b, 77));
  std::vector<float> whole(5000), part1(1234), part2(5000 - 1234 - 17);
  CHECK_CURAND(curandGenerateUniform(a, whole.data(), whole.size()));
  CHECK_CURAND(curandSetGeneratorOffset(b, 17));
  CHECK_CURAND(curandGenerateUniform(b, part1.data(), part1.size()));
  CHECK_CURAND(curandGenerateUniform(b, part2.data(), part2.size()));
  EXPECT(std::memcmp(part1.data(), whole.data() + 17, part1.size() * sizeof(float)) == 0 &&
             std::memcmp(part2.data(), whole.data() + 17 + part1.size(), part2.size() * sizeof(float)) == 0,
         "%s: an offset of 17 and two calls do not continue one call", name);
  // A new seed restarts the sequence (the offset is kept): seed 77 again at offset 0 gives `whole` again.
  CHECK_CURAND(curandSetGeneratorOffset(b, 0));
  CHECK_CURAND(curandSetPseudoRandomGeneratorSeed(b, 77));
  std::vector<float> again(whole.size());
  CHECK_CURAND(curandGenerateUniform(b, again.data(), again.size()));
  EXPECT(std::memcmp(again.data(), whole.data(), whole.size() * sizeof(float)) == 0, "%s: reseeding does not restart", name);
  CHECK_CURAND(curandDestroyGenerator(a));
  CHECK_CURAND(curandDestroyGenerator(b));
}

static void check_stream() {
  // Uniforms generated on a stream, counted by a kernel on the same stream, without a synchronisation
  // between: the stream orders the generator's work before the kernel.
  const size_t n = 300001;
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  float* x;
  unsigned int* inside;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&inside, sizeof(unsigned int)));
  CHECK(cudaMemsetAsync(inside, 0, sizeof(unsigned int), s));
  curandGenerator_t g;
  CHECK_CURAND(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_XORWOW));
  CHECK_CURAND(curandSetStream(g, s));
  CHECK_CURAND(curandSetPseudoRandomGeneratorSeed(g, 2024));
  CHECK_CURAND(curandGenerateUniform(g, x, n));
  count_in_unit_interval<<<64, 256, 0, s>>>(x, n, inside);
  CHECK(cudaGetLastError());
  unsigned int count = 0;
  CHECK(cudaMemcpyAsync(&count, inside, sizeof count, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  EXPECT(count == n, "stream: the kernel after curandGenerateUniform counted %u of %zu in (0, 1]", count, n);
  CHECK_CURAND(curandDestroyGenerator(g));
  CHECK(cudaFree(x));
  CHECK(cudaFree(inside));
  CHECK(cudaStreamDestroy(s));
}

static void check_status_codes() {
  int version = 0;
  EXPECT(curandGetVersion(&version) == CURAND_STATUS_SUCCESS && version == CURAND_VERSION, "curandGetVersion: %d", version);
  curandGenerator_t g = nullptr;
  EXPECT(curandCreateGenerator(&g, static_cast<curandRngType_t>(5)) == CURAND_STATUS_TYPE_ERROR,
         "an invalid generator type is not CURAND_STATUS_TYPE_ERROR");
  EXPECT(curandDestroyGenerator(nullptr) == CURAND_STATUS_NOT_INITIALIZED, "destroying no generator");
  CHECK_CURAND(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT));
  float* d;
  CHECK(cudaMalloc(&d, 8 * sizeof(float)));
  EXPECT(curandGenerateNormal(g, d, 3, 0.0f, 1.0f) == CURAND_STATUS_LENGTH_NOT_MULTIPLE, "an odd count of normals");
  EXPECT(curandGenerateLogNormal(g, d, 7, 0.0f, 1.0f) == CURAND_STATUS_LENGTH_NOT_MULTIPLE, "an odd count of log-normals");
  EXPECT(curandGenerateNormalDouble(g, reinterpret_cast<double*>(d), 1, 0.0, 1.0) == CURAND_STATUS_LENGTH_NOT_MULTIPLE,
         "an odd count of normal doubles");
  EXPECT(curandGeneratePoisson(g, reinterpret_cast<unsigned int*>(d), 4, 0.0) == CURAND_STATUS_OUT_OF_RANGE, "Poisson lambda 0");
  EXPECT(curandGeneratePoisson(g, reinterpret_cast<unsigned int*>(d), 4, -2.0) == CURAND_STATUS_OUT_OF_RANGE, "Poisson lambda -2");
  EXPECT(curandGenerateLongLong(g, reinterpret_cast<unsigned long long*>(d), 4) == CURAND_STATUS_TYPE_ERROR,
         "64-bit words from a pseudo-random generator");
  EXPECT(curandSetQuasiRandomGeneratorDimensions(g, 2) == CURAND_STATUS_TYPE_ERROR, "dimensions of a pseudo-random generator");
  EXPECT(curandSetGeneratorOrdering(g, CURAND_ORDERING_QUASI_DEFAULT) == CURAND_STATUS_OUT_OF_RANGE,
         "a quasi-random ordering for a pseudo-random generator");
  EXPECT(curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_BEST) == CURAND_STATUS_SUCCESS, "CURAND_ORDERING_PSEUDO_BEST");
  EXPECT(curandGenerateNormal(g, d, 0, 0.0f, 1.0f) == CURAND_STATUS_SUCCESS, "zero normals");
  EXPECT(curandGenerateSeeds(g) == CURAND_STATUS_SUCCESS, "curandGenerateSeeds");
  EXPECT(curandGenerateUniform(nullptr, d, 8) == CURAND_STATUS_NOT_INITIALIZED, "generating with no generator");
  CHECK_CURAND(curandDestroyGenerator(g));
  CHECK(cudaFree(d));
  // MTGP32 runs on a GPU; the simulator refuses it, with a note on stderr.
  const curandStatus_t mtgp = curandCreateGenerator(&g, CURAND_RNG_PSEUDO_MTGP32);
#if defined(GPULAB_SIM)
  EXPECT(mtgp == CURAND_STATUS_TYPE_ERROR, "MTGP32 on the simulator: status %d", (int)mtgp);
#else
  EXPECT(mtgp == CURAND_STATUS_SUCCESS, "MTGP32: status %d", (int)mtgp);
  if (mtgp == CURAND_STATUS_SUCCESS) curandDestroyGenerator(g);
#endif
}

int main() {
  int devices = 0;
  CHECK(cudaGetDeviceCount(&devices));
  check_type(CURAND_RNG_PSEUDO_XORWOW, "XORWOW");
  check_type(CURAND_RNG_PSEUDO_PHILOX4_32_10, "Philox4_32_10");
  check_type(CURAND_RNG_PSEUDO_MRG32K3A, "MRG32k3a");
  check_stream();
  check_status_codes();
  if (failures != 0) {
    std::printf("FAILED: %d checks\n", failures);
    return 1;
  }
  std::printf("PASSED: cuRAND host API (XORWOW, Philox4_32_10, MRG32k3a)\n");
  return 0;
}
