#pragma once
// The simulator's CUB (../config.cuh): cub::DeviceSegmentedRadixSort, each segment [d_begin_offsets[i],
// d_end_offsets[i]) sorted stably on the key bits [begin_bit, end_bit), as a host task on the stream
// (the passes of device_radix_sort.cuh, per segment, in scratch of their own). Items in no segment are
// left as they are in the output.
#include <cstddef>
#include <vector>

#include <cub/device/device_radix_sort.cuh>

namespace cub {

struct DeviceSegmentedRadixSort {
  template <typename KeyT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                              KeyT* d_keys_out, long long num_items, long long num_segments,
                              BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets, int begin_bit = 0,
                              int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0) {
    return sort<KeyT, NullType>("cub::DeviceSegmentedRadixSort::SortKeys", d_temp_storage, temp_storage_bytes, d_keys_in,
                                d_keys_out, nullptr, nullptr, num_items, num_segments, d_begin_offsets, d_end_offsets,
                                begin_bit, end_bit, false, stream);
  }
  template <typename KeyT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                        KeyT* d_keys_out, long long num_items, long long num_segments,
                                        BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                        int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0) {
    return sort<KeyT, NullType>("cub::DeviceSegmentedRadixSort::SortKeysDescending", d_temp_storage,
                                temp_storage_bytes, d_keys_in, d_keys_out, nullptr, nullptr, num_items, num_segments,
                                d_begin_offsets, d_end_offsets, begin_bit, end_bit, true, stream);
  }
  template <typename KeyT, typename ValueT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                               KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out, long long num_items,
                               long long num_segments, BeginOffsetIteratorT d_begin_offsets,
                               EndOffsetIteratorT d_end_offsets, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                               cudaStream_t stream = 0) {
    return sort("cub::DeviceSegmentedRadixSort::SortPairs", d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                d_values_in, d_values_out, num_items, num_segments, d_begin_offsets, d_end_offsets, begin_bit, end_bit,
                false, stream);
  }
  template <typename KeyT, typename ValueT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                         KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,
                                         long long num_items, long long num_segments,
                                         BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                                         int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0) {
    return sort("cub::DeviceSegmentedRadixSort::SortPairsDescending", d_temp_storage, temp_storage_bytes, d_keys_in,
                d_keys_out, d_values_in, d_values_out, num_items, num_segments, d_begin_offsets, d_end_offsets,
                begin_bit, end_bit, true, stream);
  }

 private:
  template <typename KeyT, typename ValueT, typename BeginOffsetIteratorT, typename EndOffsetIteratorT>
  static cudaError_t sort(const char* call, void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                          KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out, long long num_items,
                          long long num_segments, BeginOffsetIteratorT d_begin_offsets,
                          EndOffsetIteratorT d_end_offsets, int begin_bit, int end_bit, bool descending,
                          cudaStream_t stream) {
    constexpr bool kPairs = !std::is_same_v<ValueT, NullType>;
    if (const cudaError_t e = detail::check_bits<KeyT>(call, begin_bit, end_bit); e != cudaSuccess) return e;
    const std::size_t n = detail::count_of(num_items), segments = detail::count_of(num_segments);
    detail::Regions regions;
    detail::add_region(regions, d_keys_in, n, "d_keys_in", false);
    detail::add_region(regions, d_keys_out, n, "d_keys_out", true);
    if constexpr (kPairs) {
      detail::add_region(regions, d_values_in, n, "d_values_in", false);
      detail::add_region(regions, d_values_out, n, "d_values_out", true);
    }
    detail::add_region(regions, d_begin_offsets, segments, "d_begin_offsets", false);
    detail::add_region(regions, d_end_offsets, segments, "d_end_offsets", false);
    return detail::two_phase(call, d_temp_storage, temp_storage_bytes, 1, stream, std::move(regions), [=]() mutable {
      std::vector<KeyT> ka, kb;
      std::vector<std::conditional_t<kPairs, ValueT, NullType>> va, vb;
      for (std::size_t s = 0; s < segments; ++s) {
        const auto begin = static_cast<std::size_t>(d_begin_offsets[s]), end = static_cast<std::size_t>(d_end_offsets[s]);
        if (end <= begin) continue;
        const std::size_t len = end - begin;
        ka.assign(d_keys_in + begin, d_keys_in + end);
        kb.resize(len);
        if constexpr (kPairs) {
          va.assign(d_values_in + begin, d_values_in + end);
          vb.resize(len);
          detail::radix_passes_run(ka.data(), kb.data(), va.data(), vb.data(), len, begin_bit, end_bit, descending);
        } else {
          detail::radix_passes_run<KeyT, NullType>(ka.data(), kb.data(), nullptr, nullptr, len, begin_bit, end_bit,
                                                   descending);
        }
        const bool in_a = detail::radix_passes(begin_bit, end_bit) % 2 == 0;
        const KeyT* result = in_a ? ka.data() : kb.data();
        for (std::size_t i = 0; i < len; ++i) d_keys_out[begin + i] = result[i];
        if constexpr (kPairs) {
          const ValueT* values = in_a ? va.data() : vb.data();
          for (std::size_t i = 0; i < len; ++i) d_values_out[begin + i] = values[i];
        }
      }
    });
  }
};

}  // namespace cub
