#pragma once
// The simulator's CUB (../config.cuh): cub::DeviceSegmentedReduce, a reduction per segment
// [d_begin_offsets[i], d_end_offsets[i]), in order, as a host task on the stream. An empty segment gives
// the initial value (Sum: 0, Min: the type's greatest, Max: its least; ArgMin and ArgMax: {1, that}).
// ArgMin and ArgMax give offsets relative to their segment's start, as CUB's.
#include <cstddef>
#include <limits>

#include <cub/detail/device_algorithm.cuh>
#include <cub/thread/thread_operators.cuh>
#include <cub/util_type.cuh>

namespace cub {

struct DeviceSegmentedReduce {
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename ReductionOpT, typename T>
  static cudaError_t Reduce(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                            OutputIteratorT d_out, int num_segments, BeginOffsetIteratorT d_begin_offsets,
                            EndOffsetIteratorT d_end_offsets, ReductionOpT reduction_op, T initial_value,
                            cudaStream_t stream = 0) {
    return fold("cub::DeviceSegmentedReduce::Reduce", d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
                d_begin_offsets, d_end_offsets, reduction_op, initial_value, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  static cudaError_t Sum(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                         int num_segments, BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                         cudaStream_t stream = 0) {
    using T = detail::non_void_value_t<InputIteratorT, OutputIteratorT>;
    return fold("cub::DeviceSegmentedReduce::Sum", d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
                d_begin_offsets, d_end_offsets, cub::Sum{}, T{}, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  static cudaError_t Min(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                         int num_segments, BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                         cudaStream_t stream = 0) {
    using T = detail::value_t<InputIteratorT>;
    return fold("cub::DeviceSegmentedReduce::Min", d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
                d_begin_offsets, d_end_offsets, cub::Min{}, std::numeric_limits<T>::max(), stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  static cudaError_t Max(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in, OutputIteratorT d_out,
                         int num_segments, BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                         cudaStream_t stream = 0) {
    using T = detail::value_t<InputIteratorT>;
    return fold("cub::DeviceSegmentedReduce::Max", d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
                d_begin_offsets, d_end_offsets, cub::Max{}, std::numeric_limits<T>::lowest(), stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  static cudaError_t ArgMin(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                            OutputIteratorT d_out, int num_segments, BeginOffsetIteratorT d_begin_offsets,
                            EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0) {
    return arg("cub::DeviceSegmentedReduce::ArgMin", d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
               d_begin_offsets, d_end_offsets, true, stream);
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  static cudaError_t ArgMax(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                            OutputIteratorT d_out, int num_segments, BeginOffsetIteratorT d_begin_offsets,
                            EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0) {
    return arg("cub::DeviceSegmentedReduce::ArgMax", d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments,
               d_begin_offsets, d_end_offsets, false, stream);
  }

 private:
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
            typename EndOffsetIteratorT, typename ReductionOpT, typename T>
  static cudaError_t fold(const char* call, void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                          OutputIteratorT d_out, int num_segments, BeginOffsetIteratorT d_begin_offsets,
                          EndOffsetIteratorT d_end_offsets, ReductionOpT op, T init, cudaStream_t stream) {
    const std::size_t segments = detail::count_of(num_segments);
    detail::Regions regions;
    detail::add_region(regions, d_begin_offsets, segments, "d_begin_offsets", false);
    detail::add_region(regions, d_end_offsets, segments, "d_end_offsets", false);
    detail::add_region(regions, d_out, segments, "d_out", true);
    return detail::two_phase(call, d_temp_storage, temp_storage_bytes, 1, stream, std::move(regions), [=]() mutable {
      for (std::size_t s = 0; s < segments; ++s) {
        T acc = init;
        for (auto i = d_begin_offsets[s]; i < d_end_offsets[s]; ++i) acc = op(acc, d_in[i]);
        d_out[s] = acc;
      }
    });
  }
  template <typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  static cudaError_t arg(const char* call, void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                         OutputIteratorT d_out, int num_segments, BeginOffsetIteratorT d_begin_offsets,
                         EndOffsetIteratorT d_end_offsets, bool least, cudaStream_t stream) {
    const std::size_t segments = detail::count_of(num_segments);
    detail::Regions regions;
    detail::add_region(regions, d_begin_offsets, segments, "d_begin_offsets", false);
    detail::add_region(regions, d_end_offsets, segments, "d_end_offsets", false);
    detail::add_region(regions, d_out, segments, "d_out", true);
    return detail::two_phase(call, d_temp_storage, temp_storage_bytes, 1, stream, std::move(regions), [=]() mutable {
      using T = detail::value_t<InputIteratorT>;
      using Out = detail::non_void_value_t<KeyValuePair<int, T>*, OutputIteratorT>;
      for (std::size_t s = 0; s < segments; ++s) {
        const auto begin = d_begin_offsets[s], end = d_end_offsets[s];
        if (!(begin < end)) {
          d_out[s] = Out(1, least ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest());
          continue;
        }
        auto best = begin;
        T value = d_in[begin];
        for (auto i = begin + 1; i < end; ++i) {
          const T v = d_in[i];
          if (least ? v < value : value < v) {
            value = v;
            best = i;
          }
        }
        d_out[s] = Out(static_cast<decltype(Out{}.key)>(best - begin), value);
      }
    });
  }
};

}  // namespace cub
