#pragma once
// The simulator's CUB (../config.cuh): cub::DevicePartition (If, Flagged), as a host task on the stream:
// the selected items first, in order, then the rejected ones in reverse order from the end, as CUB's;
// the count of selected items to d_num_selected_out.
#include <cstddef>

#include <cub/detail/device_algorithm.cuh>
#include <cub/util_type.cuh>

namespace cub {

struct DevicePartition {
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSelectedIteratorT, typename SelectOp,
            typename NumItemsT>
  static cudaError_t If(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                        NumSelectedIteratorT d_num_selected_out, NumItemsT num_items, SelectOp select_op,
                        cudaStream_t stream = 0) {
    return partition("cub::DevicePartition::If", d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected_out,
                     num_items, stream, [=](const auto& v, std::size_t) { return static_cast<bool>(select_op(v)); }, {});
  }
  template <typename InputIteratorT, typename FlagIterator, typename OutputIteratorT, typename NumSelectedIteratorT,
            typename NumItemsT>
  static cudaError_t Flagged(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                             FlagIterator d_flags, OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out,
                             NumItemsT num_items, cudaStream_t stream = 0) {
    detail::Regions flags;
    detail::add_region(flags, d_flags, detail::count_of(num_items), "d_flags", false);
    return partition("cub::DevicePartition::Flagged", d_temp_storage, temp_storage_bytes, d_in, d_out,
                     d_num_selected_out, num_items, stream,
                     [=](const auto&, std::size_t i) { return static_cast<bool>(d_flags[i]); }, std::move(flags));
  }

 private:
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSelectedIteratorT, typename NumItemsT,
            typename Keep>
  static cudaError_t partition(const char* call, void* d_temp_storage, std::size_t& temp_storage_bytes,
                               InputIteratorT d_in, OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out,
                               NumItemsT num_items, cudaStream_t stream, Keep keep, detail::Regions regions) {
    const std::size_t n = detail::count_of(num_items);
    detail::add_region(regions, d_in, n, "d_in", false);
    detail::add_region(regions, d_out, n, "d_out", true);
    detail::add_region(regions, d_num_selected_out, 1, "d_num_selected_out", true);
    return detail::two_phase(call, d_temp_storage, temp_storage_bytes, 1, stream, std::move(regions), [=]() mutable {
      std::size_t front = 0, back = n;
      for (std::size_t i = 0; i < n; ++i) {
        const auto v = d_in[i];
        if (keep(v, i)) {
          d_out[front++] = v;
        } else {
          d_out[--back] = v;
        }
      }
      detail::write_count(d_num_selected_out, front);
    });
  }
};

}  // namespace cub
