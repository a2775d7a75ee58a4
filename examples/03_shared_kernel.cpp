// Step 3 of the guide: the shared-memory kernel. The guide's version, run exactly as printed, gives a
// wrong answer (see guide_kernels.cu for why); the fixed version gives the right one. Both are timed
// like the naive kernel, which is the baseline here. Inputs are the guide's: uniform in (0, 1].
//
//   ./03_shared_kernel [n]     (default 256)
#include <cstdio>
#include <limits>
#include <utility>

#include "guide_common.hpp"

namespace {

struct Timed {
  double seconds = 0;
  gpulab::bench::VerifyResult check;
};

Timed time_kernel(const char* name, const gpulab::Device& device, const gpulab::DeviceArray<float, 2>& d_a,
                  const gpulab::DeviceArray<float, 2>& d_b, const gpulab::bench::MatmulReference<float>& reference) {
  const gpulab::Stream stream(device);
  auto d_c = gpulab::device_array<float>(device, d_a.rows(), d_b.cols());
  d_c.fill(std::numeric_limits<float>::quiet_NaN(), stream);  // an entry never written shows as NaN
  const guide::MatmulKernel kernel(name);
  const int n = static_cast<int>(d_a.rows());
  gpulab::launch(kernel, guide::guide_launch(n, n, stream), d_a.cview(), d_b.cview(), d_c.view());  // first call
  const double seconds = guide::median_kernel_seconds(kernel, device, stream, d_a, d_b, d_c);
  const auto c = d_c.copy_to_host();
  return {seconds, reference.check(c.cview(), gpulab::bench::ComputeType::float32)};
}

}  // namespace

int main(int argc, char** argv) {
  const int n = guide::size_from_args(argc, argv, 256);
  gpulab::HostArray<float, 2> a(n, n), b(n, n);
  guide::fill_uniform(a, 2026, 0);
  guide::fill_uniform(b, 2026, 1);
  const gpulab::Device device = gpulab::default_device();
  const auto d_a = gpulab::to_device(device, a);
  const auto d_b = gpulab::to_device(device, b);
  const gpulab::bench::MatmulReference<float> reference(a.cview(), b.cview());

  const Timed naive = time_kernel("guide_naive_matmul", device, d_a, d_b, reference);
  const Timed printed = time_kernel("guide_shared_matmul_as_printed", device, d_a, d_b, reference);
  const Timed fixed = time_kernel("guide_shared_matmul_fixed", device, d_a, d_b, reference);

  std::printf("C = A * B, %dx%d float32 on %s%s\n\n", n, n, device.id().c_str(),
              device.is_sim() ? " (simulated: CPU time, not GPU performance)" : "");
  std::printf("%-32s %12s %14s   %s\n", "kernel", "seconds", "vs naive", "check");
  for (const auto& [label, t] : {std::pair{"guide_naive_matmul", naive}, std::pair{"shared, as printed in the guide", printed},
                                 std::pair{"shared, fixed", fixed}}) {
    std::printf("%-32s %12.6f %13.2fx   %s\n", label, t.seconds, naive.seconds / t.seconds, guide::describe(t.check).c_str());
  }
  std::printf("\nThe printed kernel's speed is the speed of a wrong answer.\n");
  // Success means: the fixed kernel is right and the printed one is caught.
  return naive.check.passed && fixed.check.passed && !printed.check.passed ? 0 : 1;
}
