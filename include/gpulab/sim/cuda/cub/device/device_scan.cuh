#pragma once
// The simulator's CUB (../config.cuh): cub::DeviceScan, prefix scans in order as host tasks on their
// stream (detail/device_algorithm.cuh); in place (d_out == d_in) as CUB allows.
#include <cstddef>

#include <cub/detail/device_algorithm.cuh>
#include <cub/thread/thread_operators.cuh>
#include <cub/util_type.cuh>

namespace cub {

struct DeviceScan {
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  static cudaError_t InclusiveSum(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                                  OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0) {
    return scan("cub::DeviceScan::InclusiveSum", d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, cub::Sum{},
                false, false, detail::non_void_value_t<InputIteratorT, OutputIteratorT>{}, stream);
  }
  template <typename IteratorT, typename NumItemsT>
  static cudaError_t InclusiveSum(void* d_temp_storage, std::size_t& temp_storage_bytes, IteratorT d_data,
                                  NumItemsT num_items, cudaStream_t stream = 0) {
    return InclusiveSum(d_temp_storage, temp_storage_bytes, d_data, d_data, num_items, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  static cudaError_t ExclusiveSum(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                                  OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0) {
    return scan("cub::DeviceScan::ExclusiveSum", d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, cub::Sum{},
                true, true, detail::non_void_value_t<InputIteratorT, OutputIteratorT>{}, stream);
  }
  template <typename IteratorT, typename NumItemsT>
  static cudaError_t ExclusiveSum(void* d_temp_storage, std::size_t& temp_storage_bytes, IteratorT d_data,
                                  NumItemsT num_items, cudaStream_t stream = 0) {
    return ExclusiveSum(d_temp_storage, temp_storage_bytes, d_data, d_data, num_items, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename NumItemsT>
  static cudaError_t InclusiveScan(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                                   OutputIteratorT d_out, ScanOpT scan_op, NumItemsT num_items, cudaStream_t stream = 0) {
    return scan("cub::DeviceScan::InclusiveScan", d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, scan_op,
                false, false, detail::non_void_value_t<InputIteratorT, OutputIteratorT>{}, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT, typename NumItemsT>
  static cudaError_t InclusiveScanInit(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                                       OutputIteratorT d_out, ScanOpT scan_op, InitValueT init_value, NumItemsT num_items,
                                       cudaStream_t stream = 0) {
    return scan("cub::DeviceScan::InclusiveScanInit", d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, scan_op,
                true, false, init_value, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT, typename NumItemsT>
  static cudaError_t ExclusiveScan(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                                   OutputIteratorT d_out, ScanOpT scan_op, InitValueT init_value, NumItemsT num_items,
                                   cudaStream_t stream = 0) {
    return scan("cub::DeviceScan::ExclusiveScan", d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, scan_op,
                true, true, init_value, stream);
  }
  // Scans restarting at each run of equal keys.
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
            typename EqualityOpT = cub::Equality, typename NumItemsT = int>
  static cudaError_t InclusiveSumByKey(void* d_temp_storage, std::size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                                       ValuesInputIteratorT d_values_in, ValuesOutputIteratorT d_values_out,
                                       NumItemsT num_items, EqualityOpT equality_op = EqualityOpT(), cudaStream_t stream = 0) {
    return by_key("cub::DeviceScan::InclusiveSumByKey", d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in,
                  d_values_out, cub::Sum{}, detail::non_void_value_t<ValuesInputIteratorT, ValuesOutputIteratorT>{}, false,
                  num_items, equality_op, stream);
  }
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT,
            typename EqualityOpT = cub::Equality, typename NumItemsT = int>
  static cudaError_t ExclusiveSumByKey(void* d_temp_storage, std::size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                                       ValuesInputIteratorT d_values_in, ValuesOutputIteratorT d_values_out,
                                       NumItemsT num_items, EqualityOpT equality_op = EqualityOpT(), cudaStream_t stream = 0) {
    return by_key("cub::DeviceScan::ExclusiveSumByKey", d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in,
                  d_values_out, cub::Sum{}, detail::non_void_value_t<ValuesInputIteratorT, ValuesOutputIteratorT>{}, true,
                  num_items, equality_op, stream);
  }
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT, typename ScanOpT,
            typename EqualityOpT = cub::Equality, typename NumItemsT = int>
  static cudaError_t InclusiveScanByKey(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                        KeysInputIteratorT d_keys_in, ValuesInputIteratorT d_values_in,
                                        ValuesOutputIteratorT d_values_out, ScanOpT scan_op, NumItemsT num_items,
                                        EqualityOpT equality_op = EqualityOpT(), cudaStream_t stream = 0) {
    return by_key("cub::DeviceScan::InclusiveScanByKey", d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in,
                  d_values_out, scan_op, detail::non_void_value_t<ValuesInputIteratorT, ValuesOutputIteratorT>{}, false,
                  num_items, equality_op, stream);
  }
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT, typename ScanOpT,
            typename InitValueT, typename EqualityOpT = cub::Equality, typename NumItemsT = int>
  static cudaError_t ExclusiveScanByKey(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                        KeysInputIteratorT d_keys_in, ValuesInputIteratorT d_values_in,
                                        ValuesOutputIteratorT d_values_out, ScanOpT scan_op, InitValueT init_value,
                                        NumItemsT num_items, EqualityOpT equality_op = EqualityOpT(),
                                        cudaStream_t stream = 0) {
    return by_key("cub::DeviceScan::ExclusiveScanByKey", d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in,
                  d_values_out, scan_op, init_value, true, num_items, equality_op, stream);
  }

 private:
  // `has_init`: the scan starts from init (exclusive scans write it first).
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT, typename ScanOpT, typename InitT>
  static cudaError_t scan(const char* call, void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                          OutputIteratorT d_out, NumItemsT num_items, ScanOpT op, bool has_init, bool exclusive,
                          InitT init, cudaStream_t stream) {
    detail::Regions regions;
    const std::size_t n = detail::count_of(num_items);
    detail::add_region(regions, d_in, n, "d_in", false);
    detail::add_region(regions, d_out, n, "d_out", true);
    return detail::two_phase(call, d_temp_storage, temp_storage_bytes, 1, stream, std::move(regions), [=]() mutable {
      using Acc = detail::non_void_value_t<InputIteratorT, OutputIteratorT>;
      if (n == 0) return;
      Acc running = has_init ? static_cast<Acc>(init) : static_cast<Acc>(d_in[0]);
      std::size_t i = 0;
      if (!has_init) {
        d_out[0] = running;
        i = 1;
      }
      for (; i < n; ++i) {
        const Acc item = d_in[i];  // read before the write: d_out may be d_in
        if (exclusive) {
          d_out[i] = running;
          running = op(running, item);
        } else {
          running = op(running, item);
          d_out[i] = running;
        }
      }
    });
  }
  template <typename KeysInputIteratorT, typename ValuesInputIteratorT, typename ValuesOutputIteratorT, typename ScanOpT,
            typename InitT, typename NumItemsT, typename EqualityOpT>
  static cudaError_t by_key(const char* call, void* d_temp_storage, std::size_t& temp_storage_bytes,
                            KeysInputIteratorT d_keys_in, ValuesInputIteratorT d_values_in,
                            ValuesOutputIteratorT d_values_out, ScanOpT op, InitT init, bool exclusive,
                            NumItemsT num_items, EqualityOpT equal, cudaStream_t stream) {
    detail::Regions regions;
    const std::size_t n = detail::count_of(num_items);
    detail::add_region(regions, d_keys_in, n, "d_keys_in", false);
    detail::add_region(regions, d_values_in, n, "d_values_in", false);
    detail::add_region(regions, d_values_out, n, "d_values_out", true);
    return detail::two_phase(call, d_temp_storage, temp_storage_bytes, 1, stream, std::move(regions), [=]() mutable {
      using Acc = detail::non_void_value_t<ValuesInputIteratorT, ValuesOutputIteratorT>;
      Acc running{};
      for (std::size_t i = 0; i < n; ++i) {
        const bool starts = i == 0 || !equal(d_keys_in[i - 1], d_keys_in[i]);
        const Acc item = d_values_in[i];
        if (exclusive) {
          if (starts) running = static_cast<Acc>(init);
          d_values_out[i] = running;
          running = op(running, item);
        } else {
          running = starts ? item : op(running, item);
          d_values_out[i] = running;
        }
      }
    });
  }
};

}  // namespace cub
