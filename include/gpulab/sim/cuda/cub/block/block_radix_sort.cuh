#pragma once
// The simulator's CUB (../config.cuh): cub::BlockRadixSort, a stable sort of the block's
// BLOCK_THREADS * ITEMS_PER_THREAD keys (and values) on the key bits [begin_bit, end_bit), as CUB's
// (detail/radix_key.cuh: signed and floating-point keys in their numeric order). The keys go to
// TempStorage in the blocked arrangement, and after a barrier thread 0 sorts them there; after a second
// barrier each thread takes its items in the blocked (Sort) or striped (SortBlockedToStriped)
// arrangement. TempStorage is the program's shared memory: reusing it without a barrier is a race.
#include <algorithm>
#include <cstdint>
#include <source_location>

#include <cub/detail/block_shape.cuh>
#include <cub/detail/radix_key.cuh>
#include <cub/util_type.cuh>

namespace cub {

template <typename KeyT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, typename ValueT = NullType, int RADIX_BITS = 4,
          bool MEMOIZE_OUTER_SCAN = true, int INNER_SCAN_ALGORITHM = 0, int SMEM_CONFIG = 0, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockRadixSort {
  using Shape = detail::block_shape<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  static constexpr int kItems = Shape::kThreads * ITEMS_PER_THREAD;
  static constexpr bool kPairs = !std::is_same_v<ValueT, NullType>;
  using Key = detail::radix_key<KeyT>;
  struct Storage {
    KeyT keys[kItems];
    std::conditional_t<kPairs, ValueT, char> values[kPairs ? kItems : 1];
    std::uint16_t order[kItems];  // the sort's permutation
    std::uint16_t scratch[kItems];  // the merge sort's second buffer: a kernel has no heap to borrow from
  };

 public:
  struct TempStorage : Uninitialized<Storage> {};

  __device__ explicit BlockRadixSort(const std::source_location where = std::source_location::current())
      : storage_(private_storage()), tid_(Shape::checked_tid("cub::BlockRadixSort", where)) {}
  __device__ explicit BlockRadixSort(TempStorage& temp_storage, const std::source_location where = std::source_location::current())
      : storage_(temp_storage.Alias()), tid_(Shape::checked_tid("cub::BlockRadixSort", where)) {}

  __device__ void Sort(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(KeyT) * 8) {
    ValueT* none = nullptr;
    sort(keys, none, begin_bit, end_bit, false, false);
  }
  __device__ void Sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
                       int end_bit = sizeof(KeyT) * 8) {
    ValueT* v = values;
    sort(keys, v, begin_bit, end_bit, false, false);
  }
  __device__ void SortDescending(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(KeyT) * 8) {
    ValueT* none = nullptr;
    sort(keys, none, begin_bit, end_bit, true, false);
  }
  __device__ void SortDescending(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
                                 int end_bit = sizeof(KeyT) * 8) {
    ValueT* v = values;
    sort(keys, v, begin_bit, end_bit, true, false);
  }
  __device__ void SortBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(KeyT) * 8) {
    ValueT* none = nullptr;
    sort(keys, none, begin_bit, end_bit, false, true);
  }
  __device__ void SortBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD],
                                       int begin_bit = 0, int end_bit = sizeof(KeyT) * 8) {
    ValueT* v = values;
    sort(keys, v, begin_bit, end_bit, false, true);
  }
  __device__ void SortDescendingBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], int begin_bit = 0,
                                                 int end_bit = sizeof(KeyT) * 8) {
    ValueT* none = nullptr;
    sort(keys, none, begin_bit, end_bit, true, true);
  }
  __device__ void SortDescendingBlockedToStriped(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&values)[ITEMS_PER_THREAD],
                                                 int begin_bit = 0, int end_bit = sizeof(KeyT) * 8) {
    ValueT* v = values;
    sort(keys, v, begin_bit, end_bit, true, true);
  }

 private:
  static_assert(kItems <= 65536, "cub::BlockRadixSort: at most 65536 items per block");

  __device__ static Storage& private_storage() {
    __shared__ Uninitialized<Storage> storage;
    return storage.Alias();
  }

  __device__ void sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT* values, int begin_bit, int end_bit, bool descending,
                       bool to_striped) {
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
      storage_.keys[tid_ * ITEMS_PER_THREAD + i] = keys[i];
      if constexpr (kPairs) storage_.values[tid_ * ITEMS_PER_THREAD + i] = values[i];
    }
    __syncthreads();
    if (tid_ == 0) merge_sort(begin_bit, end_bit, descending);
    __syncthreads();
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
      const int rank = to_striped ? i * Shape::kThreads + tid_ : tid_ * ITEMS_PER_THREAD + i;
      const int from = storage_.order[rank];
      keys[i] = storage_.keys[from];
      if constexpr (kPairs) values[i] = storage_.values[from];
    }
  }

  // A stable bottom-up merge sort of the permutation in shared memory, by the keys' sorted bits.
  __device__ void merge_sort(int begin_bit, int end_bit, bool descending) {
    std::uint16_t* from = storage_.order;
    std::uint16_t* to = storage_.scratch;
    for (int i = 0; i < kItems; ++i) from[i] = static_cast<std::uint16_t>(i);
    const KeyT* k = storage_.keys;
    auto before = [&](std::uint16_t a, std::uint16_t b) {  // strictly before: equal keys keep their order
      const auto da = Key::digit_bits(k[a], begin_bit, end_bit), db = Key::digit_bits(k[b], begin_bit, end_bit);
      return descending ? da > db : da < db;
    };
    for (int width = 1; width < kItems; width *= 2) {
      for (int lo = 0; lo < kItems; lo += 2 * width) {
        const int mid = std::min(lo + width, kItems), hi = std::min(lo + 2 * width, kItems);
        int a = lo, b = mid, out = lo;
        while (a < mid && b < hi) to[out++] = before(from[b], from[a]) ? from[b++] : from[a++];
        while (a < mid) to[out++] = from[a++];
        while (b < hi) to[out++] = from[b++];
      }
      std::swap(from, to);
    }
    if (from != storage_.order) {
      for (int i = 0; i < kItems; ++i) storage_.order[i] = from[i];
    }
  }

  Storage& storage_;
  int tid_;
};

}  // namespace cub
