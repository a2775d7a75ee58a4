// Graph memory (graph_memory.hpp): the registry of graph allocations, their lifetime through alloc
// nodes, free nodes and cudaFree, and the device's graph-memory footprint.
#include "simcuda/runtime/graph_memory.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "simcuda/runtime/runtime_state.hpp"

namespace gpulab::sim::cuda::detail {

namespace {

struct Entry {
  std::size_t bytes = 0;
  std::weak_ptr<GraphAllocation> holder;  // expired once no node refers to the allocation
  bool allocated = false;  // by a launch of its alloc node, not freed since
  bool mapped = false;     // allocated, or freed and not yet trimmed: what a GPU keeps mapped
};

struct Registry {
  std::mutex mutex;
  std::map<std::uintptr_t, Entry> entries;
  std::size_t used_high = 0, reserved_high = 0;

  // Under the mutex.
  std::size_t used() const {
    std::size_t n = 0;
    for (const auto& [address, e] : entries) n += e.allocated ? e.bytes : 0;
    return n;
  }
  std::size_t reserved() const {
    std::size_t n = 0;
    for (const auto& [address, e] : entries) n += e.mapped ? e.bytes : 0;
    return n;
  }
  void note_high_water() {
    used_high = std::max(used_high, used());
    reserved_high = std::max(reserved_high, reserved());
  }
};

Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: graphs may outlive static destruction order
  return *r;
}

std::uintptr_t address_of(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

// Returns the sim device memory behind a graph allocation (the registry's mutex not held: it waits for
// the device).
void release_memory(void* ptr) { free_allocation(ptr, AllocationKind::device, true); }

}  // namespace

GraphAllocation::~GraphAllocation() {
  Registry& r = registry();
  bool release = false;
  {
    std::lock_guard lock(r.mutex);
    const auto it = r.entries.find(address_of(ptr_));
    if (it != r.entries.end() && !it->second.allocated) {
      r.entries.erase(it);
      release = true;
    }
  }
  if (release) {
    try {
      release_memory(ptr_);
    } catch (...) {
      // A fault of earlier work found while waiting: it is sticky and reported at the next call.
    }
  }
}

std::shared_ptr<GraphAllocation> make_graph_allocation(cudaMemAllocNodeParams& params, const char* call) {
  const cudaMemPoolProps& pool = params.poolProps;
  if (pool.allocType != cudaMemAllocationTypePinned) {
    throw ApiError(cudaErrorInvalidValue, fmt::format("{}: poolProps.allocType is {}; graph allocations are "
                                                      "cudaMemAllocationTypePinned ({})",
                                                      call, static_cast<int>(pool.allocType),
                                                      static_cast<int>(cudaMemAllocationTypePinned)));
  }
  if (pool.location.type != cudaMemLocationTypeDevice || pool.location.id != 0) {
    throw ApiError(cudaErrorInvalidValue, fmt::format("{}: poolProps.location is type {} id {}; the simulator has "
                                                      "one device (cudaMemLocationTypeDevice, id 0)",
                                                      call, static_cast<int>(pool.location.type), pool.location.id));
  }
  if (pool.handleTypes != cudaMemHandleTypeNone) {
    throw Unsupported(fmt::format("{} with poolProps.handleTypes {} (graph memory exported to other processes)", call,
                                  static_cast<int>(pool.handleTypes)));
  }
  if (params.bytesize == 0) throw ApiError(cudaErrorInvalidValue, fmt::format("{}: bytesize is 0", call));
  if (params.accessDescCount != 0 && params.accessDescs == nullptr) {
    throw ApiError(cudaErrorInvalidValue,
                   fmt::format("{}: accessDescCount is {} and accessDescs is null", call, params.accessDescCount));
  }
  void* ptr = allocate_device(params.bytesize, AllocationKind::device);
  auto allocation = std::make_shared<GraphAllocation>(ptr);
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.entries[address_of(ptr)] = Entry{params.bytesize, allocation, false, false};
  params.dptr = ptr;
  return allocation;
}

std::shared_ptr<GraphAllocation> graph_allocation_at(const void* ptr, const char* call) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  const auto it = r.entries.find(address_of(ptr));
  std::shared_ptr<GraphAllocation> holder = it == r.entries.end() ? nullptr : it->second.holder.lock();
  if (holder == nullptr) {
    throw ApiError(cudaErrorInvalidValue,
                   fmt::format("{}: {} is not the address of a graph allocation (one that an alloc node made)", call, ptr));
  }
  return holder;
}

std::size_t graph_allocation_bytes(const GraphAllocation& allocation) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  const auto it = r.entries.find(address_of(allocation.ptr()));
  return it == r.entries.end() ? 0 : it->second.bytes;
}

void allocate_at_launch(const GraphAllocation& allocation) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  Entry& e = r.entries.at(address_of(allocation.ptr()));
  if (e.allocated) {
    throw ApiError(cudaErrorInvalidValue,
                   fmt::format("cudaGraphLaunch: the graph allocation at {} ({} bytes) is still allocated from an earlier "
                               "launch; free it (a free node, cudaFree or cudaFreeAsync) before launching its alloc "
                               "node again, or instantiate with cudaGraphInstantiateFlagAutoFreeOnLaunch",
                               allocation.ptr(), e.bytes));
  }
  e.allocated = true;
  e.mapped = true;
  r.note_high_water();
}

void free_at_launch(const GraphAllocation& allocation) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  Entry& e = r.entries.at(address_of(allocation.ptr()));
  if (!e.allocated) {
    throw ApiError(cudaErrorInvalidValue, fmt::format("cudaGraphLaunch: a free node frees the graph allocation at {}, "
                                                      "which is not allocated (never launched, or freed already)",
                                                      allocation.ptr()));
  }
  e.allocated = false;
}

void free_before_relaunch(const GraphAllocation& allocation) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.entries.at(address_of(allocation.ptr())).allocated = false;
}

bool free_graph_allocation(const void* ptr, const char* call) {
  Registry& r = registry();
  void* release = nullptr;
  {
    std::lock_guard lock(r.mutex);
    const auto it = r.entries.find(address_of(ptr));
    if (it == r.entries.end()) return false;
    if (!it->second.allocated) {
      throw ApiError(cudaErrorInvalidValue,
                     fmt::format("{}: the graph allocation at {} is not allocated (freed already, or its alloc node "
                                 "never ran)",
                                 call, ptr));
    }
    it->second.allocated = false;
    if (it->second.holder.expired()) {  // no node refers to it any more: the memory goes
      release = const_cast<void*>(ptr);
      r.entries.erase(it);
    }
  }
  if (release != nullptr) release_memory(release);
  return true;
}

}  // namespace gpulab::sim::cuda::detail

using namespace gpulab::sim::cuda::detail;  // NOLINT: the API below is CUDA's, at global scope

cudaError_t cudaDeviceGraphMemTrim(int device) {
  return api_call("cudaDeviceGraphMemTrim", [&] {
    check_device(device, "cudaDeviceGraphMemTrim");
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    for (auto& [address, e] : r.entries) {
      if (!e.allocated) e.mapped = false;
    }
  });
}

cudaError_t cudaDeviceGetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value) {
  return api_call("cudaDeviceGetGraphMemAttribute", [&] {
    check_device(device, "cudaDeviceGetGraphMemAttribute");
    require(value != nullptr, "value is null");
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    std::uint64_t v = 0;
    switch (attr) {
      case cudaGraphMemAttrUsedMemCurrent: v = r.used(); break;
      case cudaGraphMemAttrUsedMemHigh: v = r.used_high; break;
      case cudaGraphMemAttrReservedMemCurrent: v = r.reserved(); break;
      case cudaGraphMemAttrReservedMemHigh: v = r.reserved_high; break;
      default:
        throw ApiError(cudaErrorInvalidValue, fmt::format("cudaDeviceGetGraphMemAttribute: attribute {} is not a "
                                                          "cudaGraphMemAttributeType (0 to 3)",
                                                          static_cast<int>(attr)));
    }
    *static_cast<std::uint64_t*>(value) = v;
  });
}

// Only the high-water marks may be set, and only to 0 (a reset to the current value), as in CUDA.
cudaError_t cudaDeviceSetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value) {
  return api_call("cudaDeviceSetGraphMemAttribute", [&] {
    check_device(device, "cudaDeviceSetGraphMemAttribute");
    require(value != nullptr, "value is null");
    const std::uint64_t v = *static_cast<const std::uint64_t*>(value);
    if (v != 0) {
      throw ApiError(cudaErrorInvalidValue,
                     fmt::format("cudaDeviceSetGraphMemAttribute: value {}; a high-water mark is reset with 0", v));
    }
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    if (attr == cudaGraphMemAttrUsedMemHigh) {
      r.used_high = r.used();
    } else if (attr == cudaGraphMemAttrReservedMemHigh) {
      r.reserved_high = r.reserved();
    } else {
      throw ApiError(cudaErrorInvalidValue, fmt::format("cudaDeviceSetGraphMemAttribute: attribute {} cannot be set "
                                                        "(only cudaGraphMemAttrUsedMemHigh and ReservedMemHigh)",
                                                        static_cast<int>(attr)));
    }
  });
}
