#pragma once
// The simulator's CUB (../config.cuh): cub::DeviceReduce. Each call is CUB's two-phase protocol
// (detail/device_algorithm.cuh) and its work a host task on `stream` that folds the items in order,
// left to right, into an accumulator of the input's value type (a GPU's tree order differs, so a
// floating-point sum may differ in its last bits from a GPU's).
#include <cstddef>
#include <limits>

#include <cub/detail/device_algorithm.cuh>
#include <cub/thread/thread_operators.cuh>
#include <cub/util_type.cuh>

namespace cub {

struct DeviceReduce {
  template <typename InputIteratorT, typename OutputIteratorT, typename ReductionOpT, typename T, typename NumItemsT>
  static cudaError_t Reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                            OutputIteratorT d_out, NumItemsT num_items, ReductionOpT reduction_op, T init,
                            cudaStream_t stream = 0) {
    return fold("cub::DeviceReduce::Reduce", d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, reduction_op,
                init, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  static cudaError_t Sum(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                         NumItemsT num_items, cudaStream_t stream = 0) {
    using T = detail::non_void_value_t<InputIteratorT, OutputIteratorT>;
    return fold("cub::DeviceReduce::Sum", d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, cub::Sum{}, T{},
                stream);
  }
  // An empty input gives the type's greatest value, as CUB's.
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  static cudaError_t Min(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                         NumItemsT num_items, cudaStream_t stream = 0) {
    using T = detail::value_t<InputIteratorT>;
    return fold("cub::DeviceReduce::Min", d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, cub::Min{},
                std::numeric_limits<T>::max(), stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  static cudaError_t Max(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                         NumItemsT num_items, cudaStream_t stream = 0) {
    using T = detail::value_t<InputIteratorT>;
    return fold("cub::DeviceReduce::Max", d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, cub::Max{},
                std::numeric_limits<T>::lowest(), stream);
  }
  // The first least item and its offset, as KeyValuePair<int, T> (an empty input gives {1, max}).
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  static cudaError_t ArgMin(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                            OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0) {
    return arg("cub::DeviceReduce::ArgMin", d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, true, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  static cudaError_t ArgMax(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                            OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0) {
    return arg("cub::DeviceReduce::ArgMax", d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, false, stream);
  }
  // CCCL 3.0's forms: the extremum and its offset to separate outputs.
  template <typename InputIteratorT, typename ExtremumOutIteratorT, typename IndexOutIteratorT, typename NumItemsT>
  static cudaError_t ArgMin(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                            ExtremumOutIteratorT d_min_out, IndexOutIteratorT d_index_out, NumItemsT num_items,
                            cudaStream_t stream = 0) {
    return arg_split("cub::DeviceReduce::ArgMin", d_temp_storage, temp_storage_bytes, d_in, d_min_out, d_index_out,
                     num_items, true, stream);
  }
  template <typename InputIteratorT, typename ExtremumOutIteratorT, typename IndexOutIteratorT, typename NumItemsT>
  static cudaError_t ArgMax(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                            ExtremumOutIteratorT d_max_out, IndexOutIteratorT d_index_out, NumItemsT num_items,
                            cudaStream_t stream = 0) {
    return arg_split("cub::DeviceReduce::ArgMax", d_temp_storage, temp_storage_bytes, d_in, d_max_out, d_index_out,
                     num_items, false, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename ReductionOpT, typename TransformOpT, typename T,
            typename NumItemsT>
  static cudaError_t TransformReduce(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                                     OutputIteratorT d_out, NumItemsT num_items, ReductionOpT reduction_op,
                                     TransformOpT transform_op, T init, cudaStream_t stream = 0) {
    detail::Regions regions;
    const std::size_t n = detail::count_of(num_items);
    detail::add_region(regions, d_in, n, "d_in", false);
    detail::add_region(regions, d_out, 1, "d_out", true);
    return detail::two_phase("cub::DeviceReduce::TransformReduce", d_temp_storage, temp_storage_bytes, 1, stream,
                             std::move(regions), [=]() mutable {
                               T acc = init;
                               for (std::size_t i = 0; i < n; ++i) acc = reduction_op(acc, transform_op(d_in[i]));
                               *d_out = acc;
                             });
  }
  // Runs of equal consecutive keys: each run's key, the reduction of its values, and how many runs.
  template <typename KeysInputIteratorT, typename UniqueOutputIteratorT, typename ValuesInputIteratorT,
            typename AggregatesOutputIteratorT, typename NumRunsOutputIteratorT, typename ReductionOpT, typename NumItemsT>
  static cudaError_t ReduceByKey(void* d_temp_storage, std::size_t& temp_storage_bytes, KeysInputIteratorT d_keys_in,
                                 UniqueOutputIteratorT d_unique_out, ValuesInputIteratorT d_values_in,
                                 AggregatesOutputIteratorT d_aggregates_out, NumRunsOutputIteratorT d_num_runs_out,
                                 ReductionOpT reduction_op, NumItemsT num_items, cudaStream_t stream = 0) {
    detail::Regions regions;
    const std::size_t n = detail::count_of(num_items);
    detail::add_region(regions, d_keys_in, n, "d_keys_in", false);
    detail::add_region(regions, d_values_in, n, "d_values_in", false);
    detail::add_region(regions, d_num_runs_out, 1, "d_num_runs_out", true);
    return detail::two_phase("cub::DeviceReduce::ReduceByKey", d_temp_storage, temp_storage_bytes, 1, stream,
                             std::move(regions), [=]() mutable {
                               using V = detail::non_void_value_t<ValuesInputIteratorT, AggregatesOutputIteratorT>;
                               std::size_t runs = 0;
                               for (std::size_t i = 0; i < n;) {
                                 const auto key = d_keys_in[i];
                                 V acc = d_values_in[i];
                                 std::size_t j = i + 1;
                                 for (; j < n && d_keys_in[j] == key; ++j) acc = reduction_op(acc, d_values_in[j]);
                                 d_unique_out[runs] = key;
                                 d_aggregates_out[runs] = acc;
                                 ++runs;
                                 i = j;
                               }
                               detail::write_count(d_num_runs_out, runs);
                             });
  }

 private:
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT, typename ReductionOpT, typename T>
  static cudaError_t fold(const char* call, void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                          OutputIteratorT d_out, NumItemsT num_items, ReductionOpT op, T init, cudaStream_t stream) {
    detail::Regions regions;
    const std::size_t n = detail::count_of(num_items);
    detail::add_region(regions, d_in, n, "d_in", false);
    detail::add_region(regions, d_out, 1, "d_out", true);
    return detail::two_phase(call, d_temp_storage, temp_storage_bytes, 1, stream, std::move(regions), [=]() mutable {
      T acc = init;
      for (std::size_t i = 0; i < n; ++i) acc = op(acc, d_in[i]);
      *d_out = acc;
    });
  }
  template <typename InputIteratorT, typename ExtremumOutIteratorT, typename IndexOutIteratorT, typename NumItemsT>
  static cudaError_t arg_split(const char* call, void* d_temp_storage, std::size_t& temp_storage_bytes,
                               InputIteratorT d_in, ExtremumOutIteratorT d_value_out, IndexOutIteratorT d_index_out,
                               NumItemsT num_items, bool least, cudaStream_t stream) {
    detail::Regions regions;
    const std::size_t n = detail::count_of(num_items);
    detail::add_region(regions, d_in, n, "d_in", false);
    detail::add_region(regions, d_value_out, 1, least ? "d_min_out" : "d_max_out", true);
    detail::add_region(regions, d_index_out, 1, "d_index_out", true);
    return detail::two_phase(call, d_temp_storage, temp_storage_bytes, 1, stream, std::move(regions), [=]() mutable {
      using T = detail::value_t<InputIteratorT>;
      using Index = detail::non_void_value_t<std::size_t*, IndexOutIteratorT>;
      std::size_t best = 0;
      T value = n == 0 ? (least ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest()) : d_in[0];
      for (std::size_t i = 1; i < n; ++i) {
        const T v = d_in[i];
        if (least ? v < value : value < v) {
          value = v;
          best = i;
        }
      }
      *d_value_out = value;
      *d_index_out = static_cast<Index>(n == 0 ? 1 : best);
    });
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  static cudaError_t arg(const char* call, void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                         OutputIteratorT d_out, NumItemsT num_items, bool least, cudaStream_t stream) {
    detail::Regions regions;
    const std::size_t n = detail::count_of(num_items);
    detail::add_region(regions, d_in, n, "d_in", false);
    detail::add_region(regions, d_out, 1, "d_out", true);
    return detail::two_phase(call, d_temp_storage, temp_storage_bytes, 1, stream, std::move(regions), [=]() mutable {
      using T = detail::value_t<InputIteratorT>;
      using Out = detail::non_void_value_t<KeyValuePair<int, T>*, OutputIteratorT>;
      if (n == 0) {
        *d_out = Out(1, least ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest());
        return;
      }
      std::size_t best = 0;
      T value = d_in[0];
      for (std::size_t i = 1; i < n; ++i) {
        const T v = d_in[i];
        if (least ? v < value : value < v) {
          value = v;
          best = i;
        }
      }
      *d_out = Out(static_cast<decltype(Out{}.key)>(best), value);
    });
  }
};

}  // namespace cub
