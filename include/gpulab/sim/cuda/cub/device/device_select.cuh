#pragma once
// The simulator's CUB (../config.cuh): cub::DeviceSelect (If, Flagged, Unique, UniqueByKey), stable
// compactions as host tasks on the stream, the count written to d_num_selected_out. The outputs' sizes
// depend on the data, so of the outputs only the count is declared to the checks.
#include <cstddef>

#include <cub/detail/device_algorithm.cuh>
#include <cub/thread/thread_operators.cuh>
#include <cub/util_type.cuh>

namespace cub {

struct DeviceSelect {
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSelectedIteratorT, typename SelectOp,
            typename NumItemsT>
  static cudaError_t If(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                        NumSelectedIteratorT d_num_selected_out, NumItemsT num_items, SelectOp select_op,
                        cudaStream_t stream = 0) {
    return select("cub::DeviceSelect::If", d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected_out, num_items,
                  stream, [=](const auto& v, std::size_t) { return static_cast<bool>(select_op(v)); });
  }
  // In place: the selected items are moved to the front of d_data.
  template <typename IteratorT, typename NumSelectedIteratorT, typename SelectOp, typename NumItemsT>
  static cudaError_t If(void* d_temp_storage, std::size_t& temp_storage_bytes, IteratorT d_data,
                        NumSelectedIteratorT d_num_selected_out, NumItemsT num_items, SelectOp select_op,
                        cudaStream_t stream = 0) {
    return If(d_temp_storage, temp_storage_bytes, d_data, d_data, d_num_selected_out, num_items, select_op, stream);
  }
  template <typename InputIteratorT, typename FlagIterator, typename OutputIteratorT, typename NumSelectedIteratorT,
            typename NumItemsT>
  static cudaError_t Flagged(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                             FlagIterator d_flags, OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out,
                             NumItemsT num_items, cudaStream_t stream = 0) {
    detail::Regions flags;
    detail::add_region(flags, d_flags, detail::count_of(num_items), "d_flags", false);
    return select("cub::DeviceSelect::Flagged", d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected_out,
                  num_items, stream, [=](const auto&, std::size_t i) { return static_cast<bool>(d_flags[i]); },
                  std::move(flags));
  }
  template <typename IteratorT, typename FlagIterator, typename NumSelectedIteratorT, typename NumItemsT>
  static cudaError_t Flagged(void* d_temp_storage, std::size_t& temp_storage_bytes, IteratorT d_data,
                             FlagIterator d_flags, NumSelectedIteratorT d_num_selected_out, NumItemsT num_items,
                             cudaStream_t stream = 0) {
    return Flagged(d_temp_storage, temp_storage_bytes, d_data, d_flags, d_data, d_num_selected_out, num_items, stream);
  }
  // The first item of each run of equal consecutive items.
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSelectedIteratorT, typename NumItemsT>
  static cudaError_t Unique(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                            OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out, NumItemsT num_items,
                            cudaStream_t stream = 0) {
    return select("cub::DeviceSelect::Unique", d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected_out,
                  num_items, stream, [=](const auto& v, std::size_t i) { return i == 0 || !(d_in[i - 1] == v); });
  }
  template <typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyOutputIteratorT,
            typename ValueOutputIteratorT, typename NumSelectedIteratorT, typename NumItemsT>
  static cudaError_t UniqueByKey(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyInputIteratorT d_keys_in,
                                 ValueInputIteratorT d_values_in, KeyOutputIteratorT d_keys_out,
                                 ValueOutputIteratorT d_values_out, NumSelectedIteratorT d_num_selected_out,
                                 NumItemsT num_items, cudaStream_t stream = 0) {
    detail::Regions regions;
    const std::size_t n = detail::count_of(num_items);
    detail::add_region(regions, d_keys_in, n, "d_keys_in", false);
    detail::add_region(regions, d_values_in, n, "d_values_in", false);
    detail::add_region(regions, d_num_selected_out, 1, "d_num_selected_out", true);
    return detail::two_phase("cub::DeviceSelect::UniqueByKey", d_temp_storage, temp_storage_bytes, 1, stream,
                             std::move(regions), [=]() mutable {
                               std::size_t kept = 0;
                               for (std::size_t i = 0; i < n; ++i) {
                                 if (i == 0 || !(d_keys_in[i - 1] == d_keys_in[i])) {
                                   d_keys_out[kept] = d_keys_in[i];
                                   d_values_out[kept] = d_values_in[i];
                                   ++kept;
                                 }
                               }
                               detail::write_count(d_num_selected_out, kept);
                             });
  }

 private:
  // Keeps item i where keep(item, i); in place when d_out is d_in (an item is read before any write
  // reaches it, since kept <= i).
  template <typename InputIteratorT, typename OutputIteratorT, typename NumSelectedIteratorT, typename NumItemsT,
            typename Keep>
  static cudaError_t select(const char* call, void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                            OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out, NumItemsT num_items,
                            cudaStream_t stream, Keep keep, detail::Regions regions = {}) {
    const std::size_t n = detail::count_of(num_items);
    detail::add_region(regions, d_in, n, "d_in", false);
    detail::add_region(regions, d_num_selected_out, 1, "d_num_selected_out", true);
    return detail::two_phase(call, d_temp_storage, temp_storage_bytes, 1, stream, std::move(regions), [=]() mutable {
      using T = detail::value_t<InputIteratorT>;
      std::size_t kept = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const T v = d_in[i];
        if (keep(v, i)) d_out[kept++] = v;
      }
      detail::write_count(d_num_selected_out, kept);
    });
  }
};

}  // namespace cub
