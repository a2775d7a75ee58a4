#pragma once
// The simulator's CUB (../config.cuh): cub::DeviceRadixSort, a stable least-significant-digit radix sort
// of the key bits [begin_bit, end_bit) (8 bits a pass; detail/radix_key.cuh gives signed and
// floating-point keys their numeric order, as CUB's), as a host task on the stream. As in CUB, the
// pointer forms need temporary storage for a copy of the keys (and values), which the passes use as
// their second buffer, and the DoubleBuffer forms need almost none: they sort between the two buffers
// and leave the result in d_keys.Current(), the selector set by the call itself.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include <cub/detail/device_algorithm.cuh>
#include <cub/detail/radix_key.cuh>
#include <cub/util_type.cuh>

namespace cub {

namespace detail {

// cudaErrorInvalidValue, said on stderr, unless [begin_bit, end_bit) lies within the key's bits.
template <typename KeyT>
cudaError_t check_bits(const char* call, int begin_bit, int end_bit) {
  if (begin_bit >= 0 && end_bit <= static_cast<int>(8 * sizeof(KeyT)) && begin_bit <= end_bit) return cudaSuccess;
  return ::gpulab::sim::cub_support::refuse(call, cudaErrorInvalidValue,
                                            "the bits [" + std::to_string(begin_bit) + ", " + std::to_string(end_bit) +
                                                ") are not within the key's " + std::to_string(8 * sizeof(KeyT)));
}

inline int radix_passes(int begin_bit, int end_bit) { return end_bit > begin_bit ? (end_bit - begin_bit + 7) / 8 : 0; }

// Sorts n keys (and values when `values` is not null) from `src` through `passes` passes, each from one
// buffer into the other, starting in `a` (src's copy) and ending in whichever `passes` says.
template <typename KeyT, typename ValueT>
void radix_passes_run(KeyT* keys_a, KeyT* keys_b, ValueT* values_a, ValueT* values_b, std::size_t n, int begin_bit,
                      int end_bit, bool descending) {
  using Key = radix_key<KeyT>;
  KeyT* kin = keys_a;
  KeyT* kout = keys_b;
  ValueT* vin = values_a;
  ValueT* vout = values_b;
  std::vector<std::size_t> counts(256);
  for (int bit = begin_bit; bit < end_bit; bit += 8) {
    const int width = std::min(8, end_bit - bit);
    const unsigned mask = (1u << width) - 1;
    std::fill(counts.begin(), counts.end(), 0);
    auto digit = [&](const KeyT& k) {
      const unsigned d = static_cast<unsigned>(Key::ordered(k) >> bit) & mask;
      return descending ? mask - d : d;
    };
    for (std::size_t i = 0; i < n; ++i) ++counts[digit(kin[i])];
    std::size_t total = 0;
    for (auto& c : counts) {
      const std::size_t here = c;
      c = total;
      total += here;
    }
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t at = counts[digit(kin[i])]++;
      kout[at] = kin[i];
      if (vin != nullptr) vout[at] = vin[i];
    }
    std::swap(kin, kout);
    std::swap(vin, vout);
  }
}

template <typename KeyT, typename ValueT>
cudaError_t radix_sort_pointers(const char* call, void* d_temp_storage, std::size_t& temp_storage_bytes,
                                const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,
                                std::size_t n, int begin_bit, int end_bit, bool descending, cudaStream_t stream) {
  constexpr bool kPairs = !std::is_same_v<ValueT, NullType>;
  const std::size_t key_bytes = (n * sizeof(KeyT) + 255) / 256 * 256;
  const std::size_t needed = key_bytes + (kPairs ? n * sizeof(ValueT) : 0);
  if (const cudaError_t e = check_bits<KeyT>(call, begin_bit, end_bit); e != cudaSuccess) return e;
  Regions regions;
  add_region(regions, d_keys_in, n, "d_keys_in", false);
  add_region(regions, d_keys_out, n, "d_keys_out", true);
  if constexpr (kPairs) {
    add_region(regions, d_values_in, n, "d_values_in", false);
    add_region(regions, d_values_out, n, "d_values_out", true);
  }
  return two_phase(call, d_temp_storage, temp_storage_bytes, needed, stream, std::move(regions), [=] {
    KeyT* scratch_keys = static_cast<KeyT*>(d_temp_storage);
    ValueT* scratch_values = kPairs ? reinterpret_cast<ValueT*>(static_cast<char*>(d_temp_storage) + key_bytes) : nullptr;
    const int passes = radix_passes(begin_bit, end_bit);
    // The passes alternate between d_keys_out and the scratch copy; the copy of the input starts in the
    // one that makes the last pass land in d_keys_out.
    KeyT* first_keys = passes % 2 == 0 ? d_keys_out : scratch_keys;
    KeyT* second_keys = passes % 2 == 0 ? scratch_keys : d_keys_out;
    std::memmove(first_keys, d_keys_in, n * sizeof(KeyT));
    if constexpr (kPairs) {
      ValueT* first_values = passes % 2 == 0 ? d_values_out : scratch_values;
      ValueT* second_values = passes % 2 == 0 ? scratch_values : d_values_out;
      std::memmove(first_values, d_values_in, n * sizeof(ValueT));
      radix_passes_run(first_keys, second_keys, first_values, second_values, n, begin_bit, end_bit, descending);
    } else {
      radix_passes_run<KeyT, ValueT>(first_keys, second_keys, nullptr, nullptr, n, begin_bit, end_bit, descending);
    }
  });
}

template <typename KeyT, typename ValueT>
cudaError_t radix_sort_double_buffer(const char* call, void* d_temp_storage, std::size_t& temp_storage_bytes,
                                     DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>* d_values, std::size_t n,
                                     int begin_bit, int end_bit, bool descending, cudaStream_t stream) {
  if (const cudaError_t e = check_bits<KeyT>(call, begin_bit, end_bit); e != cudaSuccess) return e;
  KeyT* keys_a = d_keys.Current();
  KeyT* keys_b = d_keys.Alternate();
  ValueT* values_a = d_values != nullptr ? d_values->Current() : nullptr;
  ValueT* values_b = d_values != nullptr ? d_values->Alternate() : nullptr;
  Regions regions;
  add_region(regions, keys_a, n, "d_keys.Current()", false);
  add_region(regions, keys_a, n, "d_keys.Current()", true);
  add_region(regions, keys_b, n, "d_keys.Alternate()", true);
  if (d_values != nullptr) {
    add_region(regions, values_a, n, "d_values.Current()", false);
    add_region(regions, values_a, n, "d_values.Current()", true);
    add_region(regions, values_b, n, "d_values.Alternate()", true);
  }
  const cudaError_t e =
      two_phase(call, d_temp_storage, temp_storage_bytes, 1, stream, std::move(regions), [=] {
        radix_passes_run(keys_a, keys_b, values_a, values_b, n, begin_bit, end_bit, descending);
      });
  if (e == cudaSuccess && d_temp_storage != nullptr && radix_passes(begin_bit, end_bit) % 2 == 1) {
    d_keys.selector ^= 1;
    if (d_values != nullptr) d_values->selector ^= 1;
  }
  return e;
}

}  // namespace detail

struct DeviceRadixSort {
  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                              KeyT* d_keys_out, NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                              cudaStream_t stream = 0) {
    return detail::radix_sort_pointers<KeyT, NullType>("cub::DeviceRadixSort::SortKeys", d_temp_storage,
                                                       temp_storage_bytes, d_keys_in, d_keys_out, nullptr, nullptr,
                                                       detail::count_of(num_items), begin_bit, end_bit, false, stream);
  }
  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                        KeyT* d_keys_out, NumItemsT num_items, int begin_bit = 0,
                                        int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0) {
    return detail::radix_sort_pointers<KeyT, NullType>("cub::DeviceRadixSort::SortKeysDescending", d_temp_storage,
                                                       temp_storage_bytes, d_keys_in, d_keys_out, nullptr, nullptr,
                                                       detail::count_of(num_items), begin_bit, end_bit, true, stream);
  }
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                               KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items,
                               int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0) {
    return detail::radix_sort_pointers("cub::DeviceRadixSort::SortPairs", d_temp_storage, temp_storage_bytes, d_keys_in,
                                       d_keys_out, d_values_in, d_values_out, detail::count_of(num_items), begin_bit,
                                       end_bit, false, stream);
  }
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                         KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,
                                         NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                                         cudaStream_t stream = 0) {
    return detail::radix_sort_pointers("cub::DeviceRadixSort::SortPairsDescending", d_temp_storage, temp_storage_bytes,
                                       d_keys_in, d_keys_out, d_values_in, d_values_out, detail::count_of(num_items),
                                       begin_bit, end_bit, true, stream);
  }
  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                              NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                              cudaStream_t stream = 0) {
    return detail::radix_sort_double_buffer<KeyT, NullType>("cub::DeviceRadixSort::SortKeys", d_temp_storage,
                                                            temp_storage_bytes, d_keys, nullptr,
                                                            detail::count_of(num_items), begin_bit, end_bit, false, stream);
  }
  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                                        NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                                        cudaStream_t stream = 0) {
    return detail::radix_sort_double_buffer<KeyT, NullType>("cub::DeviceRadixSort::SortKeysDescending", d_temp_storage,
                                                            temp_storage_bytes, d_keys, nullptr,
                                                            detail::count_of(num_items), begin_bit, end_bit, true, stream);
  }
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                               DoubleBuffer<ValueT>& d_values, NumItemsT num_items, int begin_bit = 0,
                               int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0) {
    return detail::radix_sort_double_buffer("cub::DeviceRadixSort::SortPairs", d_temp_storage, temp_storage_bytes, d_keys,
                                            &d_values, detail::count_of(num_items), begin_bit, end_bit, false, stream);
  }
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                         DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                                         NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                                         cudaStream_t stream = 0) {
    return detail::radix_sort_double_buffer("cub::DeviceRadixSort::SortPairsDescending", d_temp_storage,
                                            temp_storage_bytes, d_keys, &d_values, detail::count_of(num_items),
                                            begin_bit, end_bit, true, stream);
  }
};

}  // namespace cub
