#pragma once
// The simulator's CUB (../config.cuh): what every device-wide algorithm shares. CUB's two-phase protocol
// (called with d_temp_storage null, an algorithm only says how many bytes of temporary storage it needs;
// called again with that storage, it runs), the regions of device memory the work declares (for raw
// pointers; fancy iterators are read as they are, unchecked), and the queueing of the work as a host
// task on the stream (gpulab_cub_support.h).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <cub/util_type.cuh>
#include <gpulab_cub_support.h>

namespace cub::detail {

using Regions = std::vector<::gpulab::sim::cub_support::Region>;

// The region [it, it + count) when `it` is a pointer; none for any other iterator.
template <typename It>
void add_region(Regions& regions, It it, std::size_t count, const char* operand, bool written) {
  if constexpr (std::is_pointer_v<It>) {
    using T = std::remove_cv_t<std::remove_pointer_t<It>>;
    if constexpr (!std::is_void_v<T>) {
      if (count > 0) regions.push_back({static_cast<const void*>(it), count * sizeof(T), operand, written});
    }
  } else {
    (void)regions, (void)it, (void)count, (void)operand, (void)written;
  }
}

template <typename N>
std::size_t count_of(N n) {
  static_assert(std::is_integral_v<N>, "CUB's item counts are integers");
  return n > 0 ? static_cast<std::size_t>(n) : 0;
}

// Runs the protocol for `call`: answers the size query, checks the storage, queues `work`. `needed` is
// what the algorithm uses of the temporary storage (at least 1 byte, as CUB's sizes are), declared as
// written so that a short buffer is a memcheck finding.
inline cudaError_t two_phase(const char* call, void* d_temp_storage, std::size_t& temp_storage_bytes,
                             std::size_t needed, cudaStream_t stream, Regions regions, std::function<void()> work) {
  needed = needed < 1 ? 1 : needed;
  if (d_temp_storage == nullptr) {
    temp_storage_bytes = needed;
    return cudaSuccess;
  }
  if (temp_storage_bytes < needed) {
    return ::gpulab::sim::cub_support::refuse(
        call, cudaErrorInvalidValue,
        "temp_storage_bytes = " + std::to_string(temp_storage_bytes) + " is less than the " + std::to_string(needed) +
            " the call needs (ask with d_temp_storage = nullptr)");
  }
  regions.push_back({d_temp_storage, needed, "d_temp_storage", true});
  return ::gpulab::sim::cub_support::run_device_algorithm(stream, call, std::move(regions), std::move(work));
}

// A count CUB writes to device memory (d_num_selected_out, d_num_runs_out).
template <typename It, typename N>
void write_count(It out, N n) {
  using T = non_void_value_t<std::size_t*, It>;
  *out = static_cast<T>(n);
}

}  // namespace cub::detail
