// How fast the simulator's CUDA libraries run against the CPU code they stand on, side by side in one
// process on the same memory: a simulated cublasSgemm (a host task on the handle's stream, its operands
// checked, the product on gpulab's CPU GEMM) against gpulab::cpu::gemm called directly on the same
// buffers, and a simulated cufftExecC2C (2^20 points, and 1000 x 1000) against gpulab::cpu::fft's plan
// executed directly; a simulated cub::DeviceRadixSort::SortKeys of 10^6 ints and, where CCCL's headers
// are there, a simulated thrust::sort of them, each against std::sort of the same keys. Prints one line per case: the median of the timed repetitions of each, and their
// ratio. Built for the simulator only (scripts/bench-cuda-libraries runs it); it needs libgpulab's CPU
// GEMM and FFT.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <cub/cub.cuh>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cufft.h>

#if GPULAB_SIM_HAVE_CCCL
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/equal.h>
#include <thrust/sort.h>
#endif

#include <gpulab/cpu/fft.hpp>
#include <gpulab/cpu/gemm.hpp>

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "library_speed: %s failed\n", what);
    std::exit(1);
  }
}

void bench_sgemm(int n, int repeats) {
  const std::size_t count = static_cast<std::size_t>(n) * n;
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> host(count);
  float *a, *b, *c;
  check(cudaMalloc(&a, count * sizeof(float)) == cudaSuccess, "cudaMalloc");
  check(cudaMalloc(&b, count * sizeof(float)) == cudaSuccess, "cudaMalloc");
  check(cudaMalloc(&c, count * sizeof(float)) == cudaSuccess, "cudaMalloc");
  for (auto& v : host) v = dist(rng);
  cudaMemcpy(a, host.data(), count * sizeof(float), cudaMemcpyHostToDevice);
  for (auto& v : host) v = dist(rng);
  cudaMemcpy(b, host.data(), count * sizeof(float), cudaMemcpyHostToDevice);
  cublasHandle_t handle;
  check(cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS, "cublasCreate");
  const float one = 1.0f, zero = 0.0f;
  using View = gpulab::matrix_view<const float>;
  const View va(a, n, n, n, gpulab::host_space, gpulab::Layout::col_major);
  const View vb(b, n, n, n, gpulab::host_space, gpulab::Layout::col_major);
  const gpulab::matrix_view<float> vc(c, n, n, n, gpulab::host_space, gpulab::Layout::col_major);
  std::vector<double> sim, direct;
  for (int r = -1; r < repeats; ++r) {  // r = -1 warms both up, untimed
    auto t0 = std::chrono::steady_clock::now();
    check(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n) == CUBLAS_STATUS_SUCCESS,
          "cublasSgemm");
    check(cudaDeviceSynchronize() == cudaSuccess, "cudaDeviceSynchronize");
    if (r >= 0) sim.push_back(seconds_since(t0));
    t0 = std::chrono::steady_clock::now();
    gpulab::cpu::gemm<float>(va, vb, vc, 1.0f, 0.0f);
    if (r >= 0) direct.push_back(seconds_since(t0));
  }
  const double flops = 2.0 * n * n * static_cast<double>(n);
  const double ts = median(sim), td = median(direct);
  std::printf("| cublasSgemm %d (simulated) vs gpulab::cpu::gemm | %.2f ms, %.1f GFLOP/s | %.2f ms, %.1f GFLOP/s | %.3fx |\n",
              n, ts * 1e3, flops / ts * 1e-9, td * 1e3, flops / td * 1e-9, ts / td);
  cublasDestroy(handle);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
}

// A simulated single-precision cufftExecC2C (forward, out of place) of `shape` against gpulab's CPU FFT
// (the plan beneath it) called directly on the same buffers.
void bench_fft(const std::vector<int>& shape, int repeats) {
  std::size_t count = 1;
  for (int e : shape) count *= static_cast<std::size_t>(e);
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<cufftComplex> host(count);
  for (auto& v : host) v = make_cuComplex(dist(rng), dist(rng));
  cufftComplex *in, *out;
  check(cudaMalloc(&in, count * sizeof(cufftComplex)) == cudaSuccess, "cudaMalloc");
  check(cudaMalloc(&out, count * sizeof(cufftComplex)) == cudaSuccess, "cudaMalloc");
  cudaMemcpy(in, host.data(), count * sizeof(cufftComplex), cudaMemcpyHostToDevice);
  cufftHandle plan;
  std::vector<int> n = shape;
  check(cufftPlanMany(&plan, static_cast<int>(n.size()), n.data(), nullptr, 1, 0, nullptr, 1, 0, CUFFT_C2C, 1) ==
            CUFFT_SUCCESS,
        "cufftPlanMany");
  namespace fft = gpulab::cpu::fft;
  const std::vector<std::size_t> extents(shape.begin(), shape.end());
  const fft::ManyPlan<float> direct_plan(extents, fft::Kind::c2c, fft::Layout::packed(extents),
                                         fft::Layout::packed(extents), 1);
  auto* cin = reinterpret_cast<const std::complex<float>*>(in);
  auto* cout = reinterpret_cast<std::complex<float>*>(out);
  std::vector<double> sim, direct;
  for (int r = -1; r < repeats; ++r) {  // r = -1 warms both up, untimed
    auto t0 = std::chrono::steady_clock::now();
    check(cufftExecC2C(plan, in, out, CUFFT_FORWARD) == CUFFT_SUCCESS, "cufftExecC2C");
    check(cudaDeviceSynchronize() == cudaSuccess, "cudaDeviceSynchronize");
    if (r >= 0) sim.push_back(seconds_since(t0));
    t0 = std::chrono::steady_clock::now();
    direct_plan.execute(cin, cout, fft::Direction::forward);
    if (r >= 0) direct.push_back(seconds_since(t0));
  }
  // 5 N log2 N: the customary flop count of a complex FFT, for a rate to compare sizes by.
  const double flops = 5.0 * static_cast<double>(count) * std::log2(static_cast<double>(count));
  const double ts = median(sim), td = median(direct);
  std::string name;
  for (std::size_t i = 0; i < shape.size(); ++i) name += (i ? "x" : "") + std::to_string(shape[i]);
  std::printf("| cufftExecC2C %s (simulated) vs gpulab::cpu::fft | %.2f ms, %.2f GFLOP/s | %.2f ms, %.2f GFLOP/s | %.3fx |\n",
              name.c_str(), ts * 1e3, flops / ts * 1e-9, td * 1e3, flops / td * 1e-9, ts / td);
  cufftDestroy(plan);
  cudaFree(in);
  cudaFree(out);
}

// cub::DeviceRadixSort::SortKeys from one device buffer to another (its temporary storage asked for
// and allocated once, untimed) against std::sort of a std::vector, the same random keys before each.
void bench_radix_sort(std::size_t count, int repeats) {
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int> dist(std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
  std::vector<int> keys(count);
  for (auto& k : keys) k = dist(rng);
  int *in, *out;
  check(cudaMalloc(&in, count * sizeof(int)) == cudaSuccess, "cudaMalloc");
  check(cudaMalloc(&out, count * sizeof(int)) == cudaSuccess, "cudaMalloc");
  std::size_t bytes = 0;
  const int n = static_cast<int>(count);
  check(cub::DeviceRadixSort::SortKeys(nullptr, bytes, in, out, n) == cudaSuccess, "SortKeys (size)");
  void* temp;
  check(cudaMalloc(&temp, bytes) == cudaSuccess, "cudaMalloc");
  std::vector<int> h(count);
  std::vector<double> sim, direct;
  for (int r = -1; r < repeats; ++r) {
    cudaMemcpy(in, keys.data(), count * sizeof(int), cudaMemcpyHostToDevice);
    auto t0 = std::chrono::steady_clock::now();
    check(cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, n) == cudaSuccess, "SortKeys");
    check(cudaDeviceSynchronize() == cudaSuccess, "cudaDeviceSynchronize");
    if (r >= 0) sim.push_back(seconds_since(t0));
    h = keys;
    t0 = std::chrono::steady_clock::now();
    std::sort(h.begin(), h.end());
    if (r >= 0) direct.push_back(seconds_since(t0));
  }
  std::vector<int> sorted(count);
  cudaMemcpy(sorted.data(), out, count * sizeof(int), cudaMemcpyDeviceToHost);
  check(sorted == h, "cub::DeviceRadixSort against std::sort");
  const double ts = median(sim), td = median(direct);
  std::printf("| cub::DeviceRadixSort::SortKeys %zu ints (simulated) vs std::sort | %.2f ms, %.1f Mkeys/s | %.2f ms, %.1f Mkeys/s | %.3fx |\n",
              count, ts * 1e3, static_cast<double>(count) / ts * 1e-6, td * 1e3, static_cast<double>(count) / td * 1e-6,
              ts / td);
  cudaFree(in);
  cudaFree(out);
  cudaFree(temp);
}

#if GPULAB_SIM_HAVE_CCCL
// thrust::sort on a device_vector (Thrust's CPP system over simulated device memory) against std::sort
// of a std::vector, both given the same random keys afresh before each timed sort.
void bench_sort(std::size_t count, int repeats) {
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int> dist(std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
  std::vector<int> keys(count);
  for (auto& k : keys) k = dist(rng);
  thrust::device_vector<int> d(count);
  std::vector<int> h(count);
  std::vector<double> sim, direct;
  for (int r = -1; r < repeats; ++r) {
    thrust::copy(keys.begin(), keys.end(), d.begin());
    auto t0 = std::chrono::steady_clock::now();
    thrust::sort(d.begin(), d.end());
    if (r >= 0) sim.push_back(seconds_since(t0));
    h = keys;
    t0 = std::chrono::steady_clock::now();
    std::sort(h.begin(), h.end());
    if (r >= 0) direct.push_back(seconds_since(t0));
  }
  check(thrust::equal(d.begin(), d.end(), h.begin()), "thrust::sort against std::sort");
  const double ts = median(sim), td = median(direct);
  std::printf("| thrust::sort %zu ints (simulated) vs std::sort | %.2f ms, %.1f Mkeys/s | %.2f ms, %.1f Mkeys/s | %.3fx |\n",
              count, ts * 1e3, static_cast<double>(count) / ts * 1e-6, td * 1e3, static_cast<double>(count) / td * 1e-6,
              ts / td);
}
#endif

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1024;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 9;
  check(n > 0 && repeats > 0, "arguments: [n] [repeats], both positive");
  std::printf("| case | simulated library | direct | ratio (simulated / direct) |\n| --- | --- | --- | --- |\n");
  bench_sgemm(n, repeats);
  bench_fft({1 << 20}, repeats);
  bench_fft({1000, 1000}, repeats);
  bench_radix_sort(1000000, repeats);
#if GPULAB_SIM_HAVE_CCCL
  bench_sort(1000000, repeats);
#endif
  return 0;
}
