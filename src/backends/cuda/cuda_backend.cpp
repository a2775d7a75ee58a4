// The CUDA backend, on the CUDA runtime API. Every call is checked (cuda_check.hpp); the last kernel
// launched on each device is remembered so that a fault reported later names it.
#include <cuda_runtime_api.h>

#include <array>
#include <mutex>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <gpulab/error.hpp>

#include "backends/cuda/cuda_check.hpp"
#include "runtime/backend.hpp"
#include "runtime/cuda_status.hpp"

namespace gpulab::detail {

CudaStatus query_cuda_status() {
  CudaStatus s;
  s.built_with_cuda = true;
  cudaRuntimeGetVersion(&s.runtime_version);
  cudaDriverGetVersion(&s.driver_version);  // succeeds with 0 when no driver is installed
  int count = 0;  // cudaGetDeviceCount leaves it untouched on failure
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    s.error_code = static_cast<int>(err);
    s.error_name = cudaGetErrorName(err);
    s.error_text = cudaGetErrorString(err);
    cudaGetLastError();  // the failure is not sticky: clear it
    count = 0;
  }
  s.device_count = count;
  return s;
}

namespace {

class CudaBackend final : public Backend {
 public:
  CudaBackend() {
    const CudaStatus s = query_cuda_status();
    count_ = s.device_count;
    last_kernel_.resize(static_cast<std::size_t>(count_));
  }

  DeviceKind kind() const noexcept override { return DeviceKind::cuda; }
  int device_count() override { return count_; }

  DeviceProperties properties(int ordinal) override {
    use(ordinal);
    cudaDeviceProp prop{};
    GPULAB_CUDA_CHECK(cudaGetDeviceProperties(&prop, ordinal));
    DeviceProperties p;
    p.id = fmt::format("cuda:{}", ordinal);
    p.name = prop.name;
    p.compute_major = prop.major;
    p.compute_minor = prop.minor;
    p.multiprocessor_count = prop.multiProcessorCount;
    p.total_memory = prop.totalGlobalMem;
    p.l2_cache_bytes = static_cast<std::size_t>(prop.l2CacheSize);
    p.shared_memory_per_block = prop.sharedMemPerBlock;
    p.shared_memory_per_block_optin = prop.sharedMemPerBlockOptin;
    p.shared_memory_per_multiprocessor = prop.sharedMemPerMultiprocessor;
    p.max_threads_per_block = prop.maxThreadsPerBlock;
    p.max_threads_per_multiprocessor = prop.maxThreadsPerMultiProcessor;
    p.registers_per_block = prop.regsPerBlock;
    p.warp_size = prop.warpSize;
    for (int i = 0; i < 3; ++i) {
      p.max_block_dim[i] = prop.maxThreadsDim[i];
      p.max_grid_dim[i] = prop.maxGridSize[i];
    }
    p.memory_bus_width_bits = prop.memoryBusWidth;
    // CUDA 13 dropped the clock fields from cudaDeviceProp; the attributes still answer, in kHz.
    if (cudaDeviceGetAttribute(&p.clock_khz, cudaDevAttrClockRate, ordinal) != cudaSuccess) p.clock_khz = 0;
    if (cudaDeviceGetAttribute(&p.memory_clock_khz, cudaDevAttrMemoryClockRate, ordinal) != cudaSuccess) {
      p.memory_clock_khz = 0;
    }
    cudaGetLastError();
    return p;
  }

  MemoryInfo memory_info(int ordinal) override {
    use(ordinal);
    MemoryInfo m;
    GPULAB_CUDA_CHECK(cudaMemGetInfo(&m.free_bytes, &m.total_bytes));
    return m;
  }

  void* allocate(int ordinal, std::size_t bytes) override {
    void* p = nullptr;
    if (ordinal < 0) {  // page-locked host memory
      const cudaError_t err = cudaMallocHost(&p, bytes);
      if (err == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        throw OutOfMemory("pinned host memory", bytes, 0, 0);
      }
      GPULAB_CUDA_CHECK(err);
      return p;
    }
    use(ordinal);
    const cudaError_t err = cudaMalloc(&p, bytes);
    if (err == cudaErrorMemoryAllocation) {
      cudaGetLastError();  // an allocation failure is not sticky
      std::size_t free_bytes = 0, total = 0;
      cudaMemGetInfo(&free_bytes, &total);
      throw OutOfMemory(fmt::format("cuda:{}", ordinal), bytes, free_bytes, total);
    }
    GPULAB_CUDA_CHECK(err);
    return p;
  }

  void deallocate(int ordinal, void* ptr) noexcept override {
    if (ordinal < 0) {
      cudaFreeHost(ptr);
    } else {
      cudaSetDevice(ordinal);
      cudaFree(ptr);
    }
  }

  void copy(int ordinal, void* dst, const void* src, std::size_t bytes, CopyKind, StreamHandle stream) override {
    use(ordinal);
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, as_stream(stream)), "cudaMemcpyAsync", ordinal);
  }

  void fill(int ordinal, void* dst, int byte, std::size_t bytes, StreamHandle stream) override {
    use(ordinal);
    check(cudaMemsetAsync(dst, byte, bytes, as_stream(stream)), "cudaMemsetAsync", ordinal);
  }

  // The legacy default stream is CUDA's null stream.
  StreamHandle default_stream(int) override { return nullptr; }
  StreamHandle create_stream(int ordinal, StreamMode mode) override {
    use(ordinal);
    cudaStream_t s = nullptr;
    GPULAB_CUDA_CHECK(
        cudaStreamCreateWithFlags(&s, mode == StreamMode::non_blocking ? cudaStreamNonBlocking : cudaStreamDefault));
    return s;
  }
  void destroy_stream(int ordinal, StreamHandle stream) noexcept override {
    cudaSetDevice(ordinal);
    cudaStreamDestroy(as_stream(stream));
  }
  void synchronize_stream(int ordinal, StreamHandle stream) override {
    use(ordinal);
    check(cudaStreamSynchronize(as_stream(stream)), "cudaStreamSynchronize", ordinal);
  }
  bool query_stream(int ordinal, StreamHandle stream) override {
    use(ordinal);
    const cudaError_t err = cudaStreamQuery(as_stream(stream));
    if (err == cudaErrorNotReady) return false;
    check(err, "cudaStreamQuery", ordinal);
    return true;
  }
  void stream_wait_event(int ordinal, StreamHandle stream, EventHandle event) override {
    use(ordinal);
    GPULAB_CUDA_CHECK(cudaStreamWaitEvent(as_stream(stream), static_cast<cudaEvent_t>(event), 0));
  }

  EventHandle create_event(int ordinal) override {
    use(ordinal);
    cudaEvent_t e = nullptr;
    GPULAB_CUDA_CHECK(cudaEventCreate(&e));
    return e;
  }
  void destroy_event(int ordinal, EventHandle event) noexcept override {
    cudaSetDevice(ordinal);
    cudaEventDestroy(static_cast<cudaEvent_t>(event));
  }
  void record_event(int ordinal, EventHandle event, StreamHandle stream) override {
    use(ordinal);
    GPULAB_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(event), as_stream(stream)));
  }
  void synchronize_event(int ordinal, EventHandle event) override {
    use(ordinal);
    check(cudaEventSynchronize(static_cast<cudaEvent_t>(event)), "cudaEventSynchronize", ordinal);
  }
  bool query_event(int ordinal, EventHandle event) override {
    use(ordinal);
    const cudaError_t err = cudaEventQuery(static_cast<cudaEvent_t>(event));
    if (err == cudaErrorNotReady) return false;
    check(err, "cudaEventQuery", ordinal);
    return true;
  }
  float elapsed_ms(int ordinal, EventHandle start, EventHandle end) override {
    use(ordinal);
    float ms = 0;
    GPULAB_CUDA_CHECK(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start), static_cast<cudaEvent_t>(end)));
    return ms;
  }

  void launch(int ordinal, const LaunchRequest& r, StreamHandle stream) override {
    use(ordinal);
    const void* fn = r.kernel->function[static_cast<int>(KernelBackend::cuda)];
    {
      const std::lock_guard lock(mutex_);
      last_kernel_[static_cast<std::size_t>(ordinal)] = r.kernel->name;
    }
    const dim3 grid(r.grid.x, r.grid.y, r.grid.z), block(r.block.x, r.block.y, r.block.z);
    check(cudaLaunchKernel(fn, grid, block, const_cast<void**>(r.args), r.shared_bytes, as_stream(stream)),
          "cudaLaunchKernel", ordinal);
    // A bad configuration shows here rather than at the next synchronisation.
    check(cudaPeekAtLastError(), "cudaPeekAtLastError after a launch", ordinal);
  }

  void set_max_dynamic_shared_bytes(const KernelRecord& kernel, std::size_t bytes) override {
    const void* fn = kernel.function[static_cast<int>(KernelBackend::cuda)];
    GPULAB_CUDA_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  }

  void synchronize_device(int ordinal) override {
    use(ordinal);
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize", ordinal);
  }

 private:
  static cudaStream_t as_stream(StreamHandle h) { return static_cast<cudaStream_t>(h); }

  void use(int ordinal) {
    if (ordinal < 0 || ordinal >= count_) {
      throw InvalidArgument(fmt::format("cuda:{} does not exist ({} CUDA devices)", ordinal, count_));
    }
    GPULAB_CUDA_CHECK(cudaSetDevice(ordinal));
  }

  // Checks a call that may report a fault left by an earlier kernel, naming that kernel.
  void check(cudaError_t code, const char* call, int ordinal) {
    if (code == cudaSuccess) return;
    std::string kernel;
    {
      const std::lock_guard lock(mutex_);
      kernel = last_kernel_[static_cast<std::size_t>(ordinal)];
    }
    check_cuda(code, call, __FILE__, __LINE__, kernel.empty() ? nullptr : kernel.c_str());
  }

  int count_ = 0;
  std::mutex mutex_;
  std::vector<std::string> last_kernel_;
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend() { return std::make_unique<CudaBackend>(); }

}  // namespace gpulab::detail
