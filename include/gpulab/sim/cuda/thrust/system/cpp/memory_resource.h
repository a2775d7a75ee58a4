#pragma once
// gpulab-simcc's shadow of Thrust's <thrust/system/cpp/memory_resource.h>. Thrust's device system is its
// CPP system on the simulator, and this is the memory resource of device_vector (and universal_vector):
// simulated device memory (../../../gpulab_thrust_support.h), in place of the CPP system's operator
// new, so that raw_pointer_cast(v.data()) is a device buffer to kernels and to memcheck. Thrust's host
// algorithms read and write it in place, as host code may touch the simulator's device memory.
#include <thrust/detail/config.h>

#include <thrust/mr/fancy_pointer_resource.h>
#include <thrust/mr/memory_resource.h>
#include <thrust/system/cpp/pointer.h>
#include <thrust/system/detail/bad_alloc.h>

#include <cstddef>
#include <string>

#include <cuda_runtime_api.h>
#include <gpulab_thrust_support.h>

THRUST_NAMESPACE_BEGIN
namespace system::cpp {
namespace detail {

class simulated_device_resource final : public thrust::mr::memory_resource<> {
 public:
  // Out of memory is Thrust's bad_alloc with the CUDA error, as on a GPU.
  void* do_allocate(std::size_t bytes, std::size_t /*alignment: cudaMalloc's 256 bytes*/) override {
    void* p = nullptr;
    const cudaError_t e = gpulabSimThrustMalloc(&p, bytes);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      throw thrust::system::detail::bad_alloc(std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e) +
                                              " (" + std::to_string(bytes) + " bytes)");
    }
    return p;
  }
  void do_deallocate(void* p, std::size_t, std::size_t) override { (void)cudaFree(p); }
};

using native_resource = thrust::mr::fancy_pointer_resource<simulated_device_resource, thrust::cpp::pointer<void>>;
using universal_native_resource =
  thrust::mr::fancy_pointer_resource<simulated_device_resource, thrust::cpp::universal_pointer<void>>;

}  // namespace detail

using memory_resource = detail::native_resource;
using universal_memory_resource = detail::universal_native_resource;
using universal_host_pinned_memory_resource = universal_memory_resource;

}  // namespace system::cpp
THRUST_NAMESPACE_END
