// An outside project's kernel, built by gpulab_add_kernels for every backend the install has.
#include <gpulab/kernel.hpp>

namespace {
__global__ void consumer_scale(float a, gpulab::vector_view<float> x) {
  const int i = gpulab::grid<1>();
  if (i < x.size()) x[i] = a * x[i] + 1.0f;
}
}  // namespace

GPULAB_EXPORT_KERNEL(consumer_scale);
