#pragma once
// The simulator's CUB (../config.cuh): cub::BlockLoad and the direct loads (LoadDirectBlocked,
// LoadDirectStriped, LoadDirectWarpStriped). Every algorithm gives the arrangement CUB's gives: blocked
// (thread i holds items i * ITEMS_PER_THREAD ...) for DIRECT, VECTORIZE, TRANSPOSE and the
// WARP_TRANSPOSE forms, striped (thread i holds items i, i + BLOCK_THREADS, ...) for STRIPED. TRANSPOSE
// reads striped and exchanges through TempStorage across a barrier, as CUB's does; the others read
// their items directly and leave TempStorage untouched.
#include <iterator>
#include <source_location>

#include <cub/detail/block_shape.cuh>
#include <cub/util_type.cuh>

namespace cub {

template <typename InputIteratorT, typename T, int ITEMS_PER_THREAD>
__device__ void LoadDirectBlocked(int linear_tid, InputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD]) {
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) items[i] = block_itr[linear_tid * ITEMS_PER_THREAD + i];
}
template <typename InputIteratorT, typename T, int ITEMS_PER_THREAD>
__device__ void LoadDirectBlocked(int linear_tid, InputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
    if (linear_tid * ITEMS_PER_THREAD + i < valid_items) items[i] = block_itr[linear_tid * ITEMS_PER_THREAD + i];
  }
}
template <typename InputIteratorT, typename T, int ITEMS_PER_THREAD, typename DefaultT>
__device__ void LoadDirectBlocked(int linear_tid, InputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items,
                                  DefaultT oob_default) {
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) items[i] = static_cast<T>(oob_default);
  LoadDirectBlocked(linear_tid, block_itr, items, valid_items);
}
template <int BLOCK_THREADS, typename InputIteratorT, typename T, int ITEMS_PER_THREAD>
__device__ void LoadDirectStriped(int linear_tid, InputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD]) {
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) items[i] = block_itr[i * BLOCK_THREADS + linear_tid];
}
template <int BLOCK_THREADS, typename InputIteratorT, typename T, int ITEMS_PER_THREAD>
__device__ void LoadDirectStriped(int linear_tid, InputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
    if (i * BLOCK_THREADS + linear_tid < valid_items) items[i] = block_itr[i * BLOCK_THREADS + linear_tid];
  }
}
template <int BLOCK_THREADS, typename InputIteratorT, typename T, int ITEMS_PER_THREAD, typename DefaultT>
__device__ void LoadDirectStriped(int linear_tid, InputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items,
                                  DefaultT oob_default) {
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) items[i] = static_cast<T>(oob_default);
  LoadDirectStriped<BLOCK_THREADS>(linear_tid, block_itr, items, valid_items);
}
// Each warp's items striped across its lanes: warp w holds items [w * 32 * ITEMS_PER_THREAD, ...).
template <typename InputIteratorT, typename T, int ITEMS_PER_THREAD>
__device__ void LoadDirectWarpStriped(int linear_tid, InputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD]) {
  const int lane = linear_tid % 32, base = (linear_tid / 32) * 32 * ITEMS_PER_THREAD;
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) items[i] = block_itr[base + i * 32 + lane];
}
template <typename InputIteratorT, typename T, int ITEMS_PER_THREAD>
__device__ void LoadDirectWarpStriped(int linear_tid, InputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
  const int lane = linear_tid % 32, base = (linear_tid / 32) * 32 * ITEMS_PER_THREAD;
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
    if (base + i * 32 + lane < valid_items) items[i] = block_itr[base + i * 32 + lane];
  }
}
template <typename T, int ITEMS_PER_THREAD>
__device__ void LoadDirectBlockedVectorized(int linear_tid, T* block_ptr, T (&items)[ITEMS_PER_THREAD]) {
  LoadDirectBlocked(linear_tid, block_ptr, items);
}

enum BlockLoadAlgorithm {
  BLOCK_LOAD_DIRECT,
  BLOCK_LOAD_STRIPED,
  BLOCK_LOAD_VECTORIZE,
  BLOCK_LOAD_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED,
};

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockLoad {
  using Shape = detail::block_shape<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  static constexpr int kThreads = Shape::kThreads;
  struct Storage {
    T items[ALGORITHM == BLOCK_LOAD_TRANSPOSE ? kThreads * ITEMS_PER_THREAD : 1];
  };

 public:
  struct TempStorage : Uninitialized<Storage> {};

  __device__ explicit BlockLoad(const std::source_location where = std::source_location::current())
      : storage_(private_storage()), tid_(Shape::checked_tid("cub::BlockLoad", where)) {}
  __device__ explicit BlockLoad(TempStorage& temp_storage, const std::source_location where = std::source_location::current())
      : storage_(temp_storage.Alias()), tid_(Shape::checked_tid("cub::BlockLoad", where)) {}

  template <typename InputIteratorT>
  __device__ void Load(InputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD]) {
    load(block_itr, items, kThreads * ITEMS_PER_THREAD);
  }
  template <typename InputIteratorT>
  __device__ void Load(InputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
    load(block_itr, items, valid_items);
  }
  template <typename InputIteratorT, typename DefaultT>
  __device__ void Load(InputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items, DefaultT oob_default) {
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) items[i] = static_cast<T>(oob_default);
    load(block_itr, items, valid_items);
  }

 private:
  __device__ static Storage& private_storage() {
    __shared__ Uninitialized<Storage> storage;
    return storage.Alias();
  }

  template <typename InputIteratorT>
  __device__ void load(InputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
    if constexpr (ALGORITHM == BLOCK_LOAD_STRIPED) {
      LoadDirectStriped<kThreads>(tid_, block_itr, items, valid_items);
    } else if constexpr (ALGORITHM == BLOCK_LOAD_TRANSPOSE) {
      // Striped reads (coalesced on a GPU), then striped-to-blocked through shared memory.
      for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
        const int at = i * kThreads + tid_;
        if (at < valid_items) storage_.items[at] = block_itr[at];
      }
      __syncthreads();
      for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
        const int at = tid_ * ITEMS_PER_THREAD + i;
        if (at < valid_items) items[i] = storage_.items[at];
      }
    } else {
      LoadDirectBlocked(tid_, block_itr, items, valid_items);
    }
  }

  Storage& storage_;
  int tid_;
};

}  // namespace cub
