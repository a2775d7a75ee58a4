#pragma once
// The simulator's CUB (../config.cuh): cub::DeviceRunLengthEncode::Encode, each run of equal
// consecutive items as its item and its length, as a host task on the stream.
#include <cstddef>

#include <cub/detail/device_algorithm.cuh>
#include <cub/util_type.cuh>

namespace cub {

struct DeviceRunLengthEncode {
  template <typename InputIteratorT, typename UniqueOutputIteratorT, typename LengthsOutputIteratorT,
            typename NumRunsOutputIteratorT, typename NumItemsT>
  static cudaError_t Encode(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                            UniqueOutputIteratorT d_unique_out, LengthsOutputIteratorT d_counts_out,
                            NumRunsOutputIteratorT d_num_runs_out, NumItemsT num_items, cudaStream_t stream = 0) {
    detail::Regions regions;
    const std::size_t n = detail::count_of(num_items);
    detail::add_region(regions, d_in, n, "d_in", false);
    detail::add_region(regions, d_num_runs_out, 1, "d_num_runs_out", true);
    return detail::two_phase("cub::DeviceRunLengthEncode::Encode", d_temp_storage, temp_storage_bytes, 1, stream,
                             std::move(regions), [=]() mutable {
                               using Length = detail::non_void_value_t<std::size_t*, LengthsOutputIteratorT>;
                               std::size_t runs = 0;
                               for (std::size_t i = 0; i < n;) {
                                 std::size_t j = i + 1;
                                 while (j < n && d_in[j] == d_in[i]) ++j;
                                 d_unique_out[runs] = d_in[i];
                                 d_counts_out[runs] = static_cast<Length>(j - i);
                                 ++runs;
                                 i = j;
                               }
                               detail::write_count(d_num_runs_out, runs);
                             });
  }
};

}  // namespace cub
