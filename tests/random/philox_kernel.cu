// Philox words, uniforms and normals drawn inside a kernel, to compare bit for bit with the host.
#include <gpulab/kernel.hpp>
#include <gpulab/random/distributions.hpp>

namespace {

__global__ void philox_fill_kernel(gpulab::vector_view<std::uint32_t> words, gpulab::vector_view<float> uniforms,
                                   gpulab::vector_view<float> normals, std::uint64_t seed, std::uint64_t offset) {
  const int i = gpulab::grid<1>();
  if (i >= words.size()) return;
  const gpulab::random::Philox philox(seed);
  const std::uint64_t at = offset + static_cast<std::uint64_t>(i);
  words[i] = philox.word(at);
  uniforms[i] = gpulab::random::uniform_at(philox, at);
  normals[i] = gpulab::random::normal_at(philox, at);
}

}  // namespace

GPULAB_EXPORT_KERNEL(philox_fill_kernel);
