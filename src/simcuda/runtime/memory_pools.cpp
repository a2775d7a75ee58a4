// CUDA's stream-ordered allocator for gpulab-simcc programs: cudaMallocAsync, cudaFreeAsync and memory
// pools. An allocation is made at the call, which is as soon as any later work of the stream could
// use it; a free waits for the stream's earlier work, then returns the memory at once, so the checks
// see a use after cudaFreeAsync as a use of freed memory. Pools keep CUDA's accounting (used and
// reserved bytes, their high-water marks) and attributes; the simulator's device memory is one heap,
// so a pool holds nothing back and trimming has nothing to release.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <set>

#include <fmt/format.h>

#include "simcuda/runtime/graph_memory.hpp"
#include "simcuda/runtime/runtime_state.hpp"
#include "simcuda/runtime/stream_capture.hpp"

struct CUmemPoolHandle_st {
  cudaMemPoolProps props{};
  std::uint64_t release_threshold = 0;
  int reuse_follow_event_dependencies = 1;
  int reuse_allow_opportunistic = 1;
  int reuse_allow_internal_dependencies = 1;
  std::uint64_t used = 0, used_high = 0;
  cudaMemAccessFlags device_access = cudaMemAccessFlagsProtReadWrite;
};

namespace gpulab::sim::cuda::detail {

namespace {

std::set<CUmemPoolHandle_st*>& pools() {
  static auto* all = new std::set<CUmemPoolHandle_st*>;  // under state().mutex
  return *all;
}

CUmemPoolHandle_st* default_pool() {
  static CUmemPoolHandle_st* pool = [] {
    auto* p = new CUmemPoolHandle_st;
    p->props.allocType = cudaMemAllocationTypePinned;
    p->props.location = {cudaMemLocationTypeDevice, 0};
    std::lock_guard lock(state().mutex);
    pools().insert(p);
    return p;
  }();
  return pool;
}

CUmemPoolHandle_st* current_pool = nullptr;  // cudaDeviceSetMemPool's, under state().mutex

CUmemPoolHandle_st* checked_pool(cudaMemPool_t pool, const char* call) {
  default_pool();
  std::lock_guard lock(state().mutex);
  if (pool == nullptr || pools().count(pool) == 0) {
    throw ApiError(cudaErrorInvalidValue, fmt::format("{}: not a memory pool cudaMemPoolCreate made (or destroyed)", call));
  }
  return pool;
}

void* allocate_from(CUmemPoolHandle_st* pool, std::size_t size, cudaStream_t stream, const char* call) {
  state().resolve(stream);  // a valid stream
  if (pool->props.maxSize != 0 && pool->used + size > pool->props.maxSize) {
    throw ApiError(cudaErrorMemoryAllocation,
                   fmt::format("{}: {} bytes do not fit the pool's maxSize {} ({} in use)", call, size, pool->props.maxSize, pool->used));
  }
  void* p = allocate_device(size, AllocationKind::device);
  std::lock_guard lock(state().mutex);
  state().device_allocations[reinterpret_cast<std::uintptr_t>(p)].pool = pool;
  pool->used += size;
  pool->used_high = std::max(pool->used_high, pool->used);
  return p;
}

}  // namespace

}  // namespace gpulab::sim::cuda::detail

using namespace gpulab::sim::cuda::detail;  // NOLINT: the API below is CUDA's, at global scope

cudaError_t cudaMallocAsync(void** devPtr, std::size_t size, cudaStream_t hStream) {
  return api_call("cudaMallocAsync", [&] {
    require(devPtr != nullptr, "devPtr is null");
    if (capture_mem_alloc(hStream, size, devPtr, "cudaMallocAsync")) return;
    CUmemPoolHandle_st* pool = default_pool();
    {
      std::lock_guard lock(state().mutex);
      if (current_pool != nullptr) pool = current_pool;
    }
    *devPtr = allocate_from(pool, size, hStream, "cudaMallocAsync");
  });
}

cudaError_t cudaMallocFromPoolAsync(void** ptr, std::size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
  return api_call("cudaMallocFromPoolAsync", [&] {
    require(ptr != nullptr, "ptr is null");
    checked_pool(memPool, "cudaMallocFromPoolAsync");
    if (capture_mem_alloc(stream, size, ptr, "cudaMallocFromPoolAsync")) return;  // graph memory has its own pool
    *ptr = allocate_from(checked_pool(memPool, "cudaMallocFromPoolAsync"), size, stream, "cudaMallocFromPoolAsync");
  });
}

// Any device allocation may be freed by cudaFreeAsync (CUDA allows cudaMalloc'ed memory too).
cudaError_t cudaFreeAsync(void* devPtr, cudaStream_t hStream) {
  return api_call("cudaFreeAsync", [&] {
    if (devPtr == nullptr) return;
    if (capture_mem_free(hStream, devPtr, "cudaFreeAsync")) return;
    state().wait_in_order(hStream);
    if (free_graph_allocation(devPtr, "cudaFreeAsync")) return;
    CUmemPoolHandle_st* pool = nullptr;
    std::size_t bytes = 0;
    {
      std::lock_guard lock(state().mutex);
      const auto it = state().device_allocations.find(reinterpret_cast<std::uintptr_t>(devPtr));
      if (it != state().device_allocations.end()) {
        pool = it->second.pool;
        bytes = it->second.bytes;
      }
    }
    if (!free_allocation(devPtr, AllocationKind::device, false)) {
      throw ApiError(cudaErrorInvalidValue, fmt::format("cudaFreeAsync: {} is not a pointer cudaMallocAsync or cudaMalloc returned (or it was freed)", devPtr));
    }
    if (pool != nullptr) {
      std::lock_guard lock(state().mutex);
      pool->used -= bytes;
    }
  });
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t* memPool, const cudaMemPoolProps* poolProps) {
  return api_call("cudaMemPoolCreate", [&] {
    require(memPool != nullptr && poolProps != nullptr, "a null pointer");
    require(poolProps->allocType == cudaMemAllocationTypePinned, "allocType must be cudaMemAllocationTypePinned");
    if (poolProps->location.type != cudaMemLocationTypeDevice) {
      throw Unsupported("a memory pool of host memory (location type other than cudaMemLocationTypeDevice)");
    }
    check_device(poolProps->location.id, "cudaMemPoolCreate");
    if (poolProps->handleTypes != cudaMemHandleTypeNone) {
      throw Unsupported("memory pools exported to other processes (handleTypes other than cudaMemHandleTypeNone)");
    }
    default_pool();
    auto* pool = new CUmemPoolHandle_st;
    pool->props = *poolProps;
    std::lock_guard lock(state().mutex);
    pools().insert(pool);
    *memPool = pool;
  });
}

cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool) {
  return api_call("cudaMemPoolDestroy", [&] {
    CUmemPoolHandle_st* pool = checked_pool(memPool, "cudaMemPoolDestroy");
    if (pool == default_pool()) throw ApiError(cudaErrorInvalidValue, "cudaMemPoolDestroy: the device's default pool cannot be destroyed");
    std::lock_guard lock(state().mutex);
    // CUDA frees the pool once its allocations are freed; the simulator keeps the handle's memory.
    pools().erase(pool);
    if (current_pool == pool) current_pool = nullptr;
    for (auto& [begin, a] : state().device_allocations) {
      if (a.pool == pool) a.pool = nullptr;
    }
    delete pool;
  });
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr, void* value) {
  return api_call("cudaMemPoolSetAttribute", [&] {
    require(value != nullptr, "value is null");
    CUmemPoolHandle_st* pool = checked_pool(memPool, "cudaMemPoolSetAttribute");
    std::lock_guard lock(state().mutex);
    switch (attr) {
      case cudaMemPoolReuseFollowEventDependencies: std::memcpy(&pool->reuse_follow_event_dependencies, value, sizeof(int)); break;
      case cudaMemPoolReuseAllowOpportunistic: std::memcpy(&pool->reuse_allow_opportunistic, value, sizeof(int)); break;
      case cudaMemPoolReuseAllowInternalDependencies: std::memcpy(&pool->reuse_allow_internal_dependencies, value, sizeof(int)); break;
      case cudaMemPoolAttrReleaseThreshold: std::memcpy(&pool->release_threshold, value, sizeof(std::uint64_t)); break;
      case cudaMemPoolAttrReservedMemHigh:
      case cudaMemPoolAttrUsedMemHigh: {
        std::uint64_t v = 0;
        std::memcpy(&v, value, sizeof v);
        require(v == 0, "a high-water mark can only be reset to 0");
        pool->used_high = pool->used;
        break;
      }
      default:
        throw ApiError(cudaErrorInvalidValue, fmt::format("cudaMemPoolSetAttribute: attribute {} cannot be set", static_cast<int>(attr)));
    }
  });
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr, void* value) {
  return api_call("cudaMemPoolGetAttribute", [&] {
    require(value != nullptr, "value is null");
    CUmemPoolHandle_st* pool = checked_pool(memPool, "cudaMemPoolGetAttribute");
    std::lock_guard lock(state().mutex);
    const auto put64 = [&](std::uint64_t v) { std::memcpy(value, &v, sizeof v); };
    switch (attr) {
      case cudaMemPoolReuseFollowEventDependencies: std::memcpy(value, &pool->reuse_follow_event_dependencies, sizeof(int)); break;
      case cudaMemPoolReuseAllowOpportunistic: std::memcpy(value, &pool->reuse_allow_opportunistic, sizeof(int)); break;
      case cudaMemPoolReuseAllowInternalDependencies: std::memcpy(value, &pool->reuse_allow_internal_dependencies, sizeof(int)); break;
      case cudaMemPoolAttrReleaseThreshold: put64(pool->release_threshold); break;
      // A pool reserves exactly what is in use: freed memory goes back to the device at once.
      case cudaMemPoolAttrReservedMemCurrent:
      case cudaMemPoolAttrUsedMemCurrent: put64(pool->used); break;
      case cudaMemPoolAttrReservedMemHigh:
      case cudaMemPoolAttrUsedMemHigh: put64(pool->used_high); break;
      default:
        throw ApiError(cudaErrorInvalidValue, fmt::format("cudaMemPoolGetAttribute: {} is not a cudaMemPoolAttr", static_cast<int>(attr)));
    }
  });
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, std::size_t minBytesToKeep) {
  return api_call("cudaMemPoolTrimTo", [&] {
    (void)minBytesToKeep;  // nothing is held back to release
    checked_pool(memPool, "cudaMemPoolTrimTo");
  });
}

cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const cudaMemAccessDesc* descList, std::size_t count) {
  return api_call("cudaMemPoolSetAccess", [&] {
    CUmemPoolHandle_st* pool = checked_pool(memPool, "cudaMemPoolSetAccess");
    require(count == 0 || descList != nullptr, "descList is null");
    for (std::size_t i = 0; i < count; ++i) {
      require(descList[i].location.type == cudaMemLocationTypeDevice, "an access descriptor's location must be a device");
      check_device(descList[i].location.id, "cudaMemPoolSetAccess");
      // The owning device always has read-write access (CUDA refuses to change it).
      require(descList[i].flags == cudaMemAccessFlagsProtReadWrite, "the pool's own device keeps read-write access");
      std::lock_guard lock(state().mutex);
      pool->device_access = descList[i].flags;
    }
  });
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* memPool, int device) {
  return api_call("cudaDeviceGetDefaultMemPool", [&] {
    require(memPool != nullptr, "memPool is null");
    check_device(device, "cudaDeviceGetDefaultMemPool");
    *memPool = default_pool();
  });
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* memPool, int device) {
  return api_call("cudaDeviceGetMemPool", [&] {
    require(memPool != nullptr, "memPool is null");
    check_device(device, "cudaDeviceGetMemPool");
    CUmemPoolHandle_st* pool = default_pool();
    std::lock_guard lock(state().mutex);
    *memPool = current_pool != nullptr ? current_pool : pool;
  });
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool) {
  return api_call("cudaDeviceSetMemPool", [&] {
    check_device(device, "cudaDeviceSetMemPool");
    CUmemPoolHandle_st* pool = checked_pool(memPool, "cudaDeviceSetMemPool");
    std::lock_guard lock(state().mutex);
    current_pool = pool;
  });
}
