#pragma once
// gpulab-simcc's shadow of Thrust's <thrust/system/cpp/detail/malloc_and_free.h>: the CPP system's
// malloc and free, which Thrust's device system uses for device_malloc and temporary buffers, give
// simulated device memory (../../../../gpulab_thrust_support.h), so that a pointer from
// thrust::device_malloc is a device buffer to the kernels it is passed to and to memcheck.
#include <thrust/detail/config.h>

#include <thrust/detail/pointer.h>
#include <thrust/detail/raw_pointer_cast.h>
#include <thrust/system/cpp/detail/execution_policy.h>

#include <cstddef>

#include <cuda_runtime_api.h>
#include <gpulab_thrust_support.h>

THRUST_NAMESPACE_BEGIN
namespace system::cpp::detail {

// Null when the memory is not there, as std::malloc's; thrust::malloc turns that into bad_alloc.
template <typename DerivedPolicy>
inline void* malloc(execution_policy<DerivedPolicy>&, std::size_t n) {
  void* p = nullptr;
  if (gpulabSimThrustMalloc(&p, n) != cudaSuccess) {
    (void)cudaGetLastError();  // reported by Thrust's exception, not left for the next call
    return nullptr;
  }
  return p;
}

template <typename DerivedPolicy, typename Pointer>
inline void free(execution_policy<DerivedPolicy>&, Pointer ptr) {
  (void)cudaFree(thrust::raw_pointer_cast(ptr));
}

}  // namespace system::cpp::detail
THRUST_NAMESPACE_END
