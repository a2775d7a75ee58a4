// Step 2 of the guide: the CPU triple loop against the guide's first GPU kernel, with the table the
// guide prints (implementation, seconds, speed-up), measured properly: the kernel's first call (module
// load, JIT) is timed apart, the kernel time is the median of several runs between device events, and
// both results are checked against float64.
//
//   ./02_naive_kernel [n]      (default 256: seconds on the simulator; the guide used 1024)
#include <cstdio>

#include "guide_common.hpp"

int main(int argc, char** argv) {
  const int n = guide::size_from_args(argc, argv, 256);
  gpulab::HostArray<float, 2> a(n, n), b(n, n), c_cpu(n, n);
  guide::fill_uniform(a, 2026, 0);
  guide::fill_uniform(b, 2026, 1);

  // The guide's CPU baseline, compiled C++ instead of interpreted Python.
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (int k = 0; k < n; ++k) sum += a(i, k) * b(k, j);
      c_cpu(i, j) = sum;
    }
  }
  const double cpu_s = guide::seconds_since(t0);

  // d_a = cuda.to_device(a); d_result = cuda.device_array((n, n))
  const gpulab::Device device = gpulab::default_device();
  const gpulab::Stream stream(device);
  const auto d_a = gpulab::to_device(device, a);
  const auto d_b = gpulab::to_device(device, b);
  auto d_c = gpulab::device_array<float>(device, n, n);
  const guide::MatmulKernel kernel("guide_naive_matmul");

  // The guide timed this first call, compilation included. Here it is reported apart.
  t0 = std::chrono::steady_clock::now();
  gpulab::launch(kernel, guide::guide_launch(n, n, stream), d_a.cview(), d_b.cview(), d_c.view());
  stream.synchronize();
  const double first_s = guide::seconds_since(t0);

  constexpr int repeats = 5;
  const double gpu_s = guide::median_kernel_seconds(kernel, device, stream, d_a, d_b, d_c, repeats);
  const auto c_gpu = d_c.copy_to_host();

  const gpulab::bench::MatmulReference<float> reference(a.cview(), b.cview());
  const auto v_cpu = reference.check(c_cpu.cview(), gpulab::bench::ComputeType::float32);
  const auto v_gpu = reference.check(c_gpu.cview(), gpulab::bench::ComputeType::float32);

  std::printf("C = A * B, %dx%d float32, kernel on %s%s\n\n", n, n, device.id().c_str(),
              device.is_sim() ? " (simulated: CPU time, not GPU performance)" : "");
  std::printf("%-26s %12s %10s   %s\n", "implementation", "seconds", "speed-up", "check");
  std::printf("%-26s %12.6f %9.1fx   %s\n", "C++ triple loop (CPU)", cpu_s, 1.0, guide::describe(v_cpu).c_str());
  std::printf("%-26s %12.6f %9.1fx   %s\n", "guide_naive_matmul", gpu_s, cpu_s / gpu_s, guide::describe(v_gpu).c_str());
  std::printf("\nfirst call of the kernel (what the guide timed): %.6f s; median of %d runs after it: %.6f s\n",
              first_s, repeats, gpu_s);
  return v_cpu.passed && v_gpu.passed ? 0 : 1;
}
