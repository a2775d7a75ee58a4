#pragma once
// Graph memory: the allocations of memory-allocation nodes (cudaGraphAddMemAllocNode, or cudaMallocAsync
// in a capturing stream) and their frees (free nodes, cudaFreeAsync in a capture, or cudaFree /
// cudaFreeAsync outside the graph), with CUDA's lifetime rules and footprint accounting.
//
// As on a GPU, an allocation's address is fixed when its node is made, so later nodes may name it.
// The memory behind it is sim device memory reserved at that moment and held until no node refers to
// it and it is not allocated; in between, each launch of the alloc node allocates it (it must not be
// allocated already: a graph whose allocation was never freed cannot be relaunched) and a free makes
// it free again. The footprint (cudaDeviceGetGraphMemAttribute) counts what is allocated (used) and
// what a GPU would keep mapped for reuse (reserved: allocated, or freed and not yet trimmed by
// cudaDeviceGraphMemTrim).
#include <cstddef>
#include <memory>

#include <gpulab/sim/cuda/cuda_runtime_api.h>

namespace gpulab::sim::cuda::detail {

// A node's hold on one graph allocation: alloc nodes and free nodes (and their copies in clones and
// executable graphs) share it. When the last holder goes, the memory is released unless it is still
// allocated, in which case cudaFree releases it later.
class GraphAllocation {
 public:
  explicit GraphAllocation(void* ptr) : ptr_(ptr) {}
  ~GraphAllocation();
  GraphAllocation(const GraphAllocation&) = delete;
  GraphAllocation& operator=(const GraphAllocation&) = delete;
  void* ptr() const { return ptr_; }

 private:
  void* ptr_;
};

// A new graph allocation for an alloc node's parameters, validated as CUDA does; sets params.dptr.
std::shared_ptr<GraphAllocation> make_graph_allocation(cudaMemAllocNodeParams& params, const char* call);
// The graph allocation at `ptr`, for a free node (ApiError cudaErrorInvalidValue when `ptr` is not the
// address of one that a node still holds).
std::shared_ptr<GraphAllocation> graph_allocation_at(const void* ptr, const char* call);
// The allocation's size, for cudaGraphMemAllocNodeGetParams.
std::size_t graph_allocation_bytes(const GraphAllocation& allocation);

// A launch reaching an alloc node or a free node.
void allocate_at_launch(const GraphAllocation& allocation);
void free_at_launch(const GraphAllocation& allocation);
// cudaGraphInstantiateFlagAutoFreeOnLaunch: an allocation still allocated by the graph's previous
// launch is freed before the next.
void free_before_relaunch(const GraphAllocation& allocation);

// cudaFree / cudaFreeAsync of `ptr`: true if it is a graph allocation (now free), false if not one.
bool free_graph_allocation(const void* ptr, const char* call);

}  // namespace gpulab::sim::cuda::detail
