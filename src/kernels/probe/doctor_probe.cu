// The tiny kernel `gpulab doctor` runs on every device to prove that it can launch and compute:
// y[i] = a * x[i] + i, so a skipped, repeated or misplaced write shows in the check.
#include <gpulab/kernel.hpp>

namespace {

__global__ void doctor_probe(float a, gpulab::vector_view<const float> x, gpulab::vector_view<float> y) {
  const int i = gpulab::grid<1>();
  if (i < y.size()) y[i] = a * x[i] + static_cast<float>(i);
}

}  // namespace

GPULAB_EXPORT_KERNEL(doctor_probe);
