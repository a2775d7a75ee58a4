// Step 1 of the guide: check the environment. The guide runs nvidia-smi and print(cuda.gpus); gpulab
// lists every device it can use (CUDA GPUs, the simulator, the host) and, when there is no GPU, says
// why (no driver, a driver older than the runtime) instead of failing later.
#include <cstdio>

#include <gpulab/device.hpp>
#include <gpulab/error.hpp>

int main() {
  const gpulab::CudaStatus cuda = gpulab::cuda_status();
  if (cuda.usable()) {
    std::printf("CUDA driver %s, runtime %s, %d device(s)\n", gpulab::format_cuda_version(cuda.driver_version).c_str(),
                gpulab::format_cuda_version(cuda.runtime_version).c_str(), cuda.device_count);
  } else if (!cuda.built_with_cuda) {
    std::printf("no CUDA: gpulab was built without the CUDA backend\n");
  } else {
    std::printf("no usable CUDA device: %s (%s); kernels will run on the simulator\n", cuda.error_name.c_str(),
                cuda.error_text.c_str());
  }
  for (const gpulab::Device& d : gpulab::devices()) {
    const gpulab::DeviceProperties& p = d.properties();
    std::printf("%-7s %s: %d SMs/cores, %.1f GiB", d.id().c_str(), p.name.c_str(), p.multiprocessor_count,
                static_cast<double>(p.total_memory) / (1u << 30));
    if (!d.is_host()) std::printf(", sm_%d%d, %d threads/block max", p.compute_major, p.compute_minor, p.max_threads_per_block);
    std::printf("\n");
  }
  std::printf("default device: %s\n", gpulab::default_device().id().c_str());
  return 0;
}
