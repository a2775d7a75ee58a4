#pragma once
// The simulator's CUB (config.cuh): CachingDeviceAllocator, which CUB's samples and many programs use
// for temporary storage. Here it caches nothing: each allocation is cudaMalloc's (so memcheck sees
// each as the device buffer it is) and each free is cudaFree's, after the stream the block was
// allocated on has done its work with it.
#include <cstddef>
#include <map>
#include <mutex>

#include <cub/config.cuh>

namespace cub {

struct CachingDeviceAllocator {
  static constexpr unsigned INVALID_BIN = static_cast<unsigned>(-1);
  static constexpr std::size_t INVALID_SIZE = static_cast<std::size_t>(-1);
  static constexpr int INVALID_DEVICE_ORDINAL = -1;

  unsigned bin_growth = 8, min_bin = 3, max_bin = 7;
  std::size_t max_cached_bytes = 0;
  bool skip_cleanup = false, debug = false;

  explicit CachingDeviceAllocator(unsigned growth, unsigned minimum = 1, unsigned maximum = INVALID_BIN,
                                  std::size_t max_cached = INVALID_SIZE, bool skip = false, bool dbg = false)
      : bin_growth(growth), min_bin(minimum), max_bin(maximum), max_cached_bytes(max_cached), skip_cleanup(skip), debug(dbg) {}
  explicit CachingDeviceAllocator(bool skip = false, bool dbg = false) : skip_cleanup(skip), debug(dbg) {}
  ~CachingDeviceAllocator() { FreeAllCached(); }
  CachingDeviceAllocator(const CachingDeviceAllocator&) = delete;
  CachingDeviceAllocator& operator=(const CachingDeviceAllocator&) = delete;

  cudaError_t SetMaxCachedBytes(std::size_t bytes) {
    max_cached_bytes = bytes;
    return cudaSuccess;
  }
  cudaError_t DeviceAllocate(int /*device*/, void** d_ptr, std::size_t bytes, cudaStream_t stream = 0) {
    return DeviceAllocate(d_ptr, bytes, stream);
  }
  cudaError_t DeviceAllocate(void** d_ptr, std::size_t bytes, cudaStream_t stream = 0) {
    const cudaError_t e = cudaMalloc(d_ptr, bytes);
    if (e == cudaSuccess) {
      std::lock_guard lock(mutex_);
      streams_[*d_ptr] = stream;
    }
    return e;
  }
  cudaError_t DeviceFree(int /*device*/, void* d_ptr) { return DeviceFree(d_ptr); }
  cudaError_t DeviceFree(void* d_ptr) {
    cudaStream_t stream = 0;
    {
      std::lock_guard lock(mutex_);
      const auto it = streams_.find(d_ptr);
      if (it != streams_.end()) {
        stream = it->second;
        streams_.erase(it);
      }
    }
    const cudaError_t e = cudaStreamSynchronize(stream);
    const cudaError_t f = cudaFree(d_ptr);
    return e != cudaSuccess ? e : f;
  }
  cudaError_t FreeAllCached() { return cudaSuccess; }

 private:
  std::mutex mutex_;
  std::map<void*, cudaStream_t> streams_;
};

}  // namespace cub
