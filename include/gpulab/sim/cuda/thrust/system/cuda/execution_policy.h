#pragma once
// gpulab-simcc's shadow of Thrust's <thrust/system/cuda/execution_policy.h>: thrust::cuda::par,
// par_nosync, par.on(stream) and par(allocator), as programs written for the GPU pass them. On the
// simulator Thrust's device system is its CPP system, so these policies run an algorithm on the calling
// host thread, as the CPP system's do. What a stream adds: `.on(stream)` waits for the stream's
// earlier work when it is called, just before the algorithm it is passed to runs, so the algorithm sees
// what that work wrote, as it would when queued on the stream on a GPU.
#include <thrust/detail/config.h>

#include <thrust/detail/allocator_aware_execution_policy.h>
#include <thrust/system/cpp/detail/execution_policy.h>

#include <cuda_runtime_api.h>

THRUST_NAMESPACE_BEGIN
namespace system::cuda {
namespace detail {

template <typename Derived>
struct execution_policy : thrust::system::cpp::detail::execution_policy<Derived> {
  Derived on(cudaStream_t stream) const {
    (void)cudaStreamSynchronize(stream);  // its error stays for the program's next check
    Derived policy = static_cast<const Derived&>(*this);
    policy.stream_ = stream;
    return policy;
  }
  cudaStream_t stream() const { return stream_; }

  cudaStream_t stream_ = nullptr;
};

struct par_t : execution_policy<par_t>, thrust::detail::allocator_aware_execution_policy<execution_policy> {
  constexpr par_t() = default;
};
struct par_nosync_t : execution_policy<par_nosync_t>,
                      thrust::detail::allocator_aware_execution_policy<execution_policy> {
  constexpr par_nosync_t() = default;
};

}  // namespace detail

using detail::execution_policy;
inline constexpr detail::par_t par{};
inline constexpr detail::par_nosync_t par_nosync{};

template <typename Derived>
cudaStream_t get_stream(const detail::execution_policy<Derived>& policy) {
  return policy.stream();
}

}  // namespace system::cuda

namespace cuda {
using namespace thrust::system::cuda;  // NOLINT: thrust::cuda is thrust::system::cuda, as in Thrust
}  // namespace cuda
namespace cuda_cub {
using namespace thrust::system::cuda;  // NOLINT: the older name of the same namespace
}  // namespace cuda_cub
THRUST_NAMESPACE_END
