#pragma once
// The simulator's CUB (../config.cuh): cub::BlockStore and the direct stores, the mirror of
// block_load.cuh: items in the blocked arrangement are written to items i * ITEMS_PER_THREAD ... of the
// block (for STRIPED, items in the striped arrangement to i, i + BLOCK_THREADS, ...). TRANSPOSE
// exchanges through TempStorage across a barrier before its striped writes, as CUB's does.
#include <source_location>

#include <cub/detail/block_shape.cuh>
#include <cub/util_type.cuh>

namespace cub {

template <typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
__device__ void StoreDirectBlocked(int linear_tid, OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD]) {
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) block_itr[linear_tid * ITEMS_PER_THREAD + i] = items[i];
}
template <typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
__device__ void StoreDirectBlocked(int linear_tid, OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
    if (linear_tid * ITEMS_PER_THREAD + i < valid_items) block_itr[linear_tid * ITEMS_PER_THREAD + i] = items[i];
  }
}
template <int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
__device__ void StoreDirectStriped(int linear_tid, OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD]) {
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) block_itr[i * BLOCK_THREADS + linear_tid] = items[i];
}
template <int BLOCK_THREADS, typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
__device__ void StoreDirectStriped(int linear_tid, OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
    if (i * BLOCK_THREADS + linear_tid < valid_items) block_itr[i * BLOCK_THREADS + linear_tid] = items[i];
  }
}
template <typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
__device__ void StoreDirectWarpStriped(int linear_tid, OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD]) {
  const int lane = linear_tid % 32, base = (linear_tid / 32) * 32 * ITEMS_PER_THREAD;
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) block_itr[base + i * 32 + lane] = items[i];
}
template <typename T, int ITEMS_PER_THREAD, typename OutputIteratorT>
__device__ void StoreDirectWarpStriped(int linear_tid, OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
  const int lane = linear_tid % 32, base = (linear_tid / 32) * 32 * ITEMS_PER_THREAD;
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
    if (base + i * 32 + lane < valid_items) block_itr[base + i * 32 + lane] = items[i];
  }
}
template <typename T, int ITEMS_PER_THREAD>
__device__ void StoreDirectBlockedVectorized(int linear_tid, T* block_ptr, T (&items)[ITEMS_PER_THREAD]) {
  StoreDirectBlocked(linear_tid, block_ptr, items);
}

enum BlockStoreAlgorithm {
  BLOCK_STORE_DIRECT,
  BLOCK_STORE_STRIPED,
  BLOCK_STORE_VECTORIZE,
  BLOCK_STORE_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED,
};

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockStore {
  using Shape = detail::block_shape<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  static constexpr int kThreads = Shape::kThreads;
  struct Storage {
    T items[ALGORITHM == BLOCK_STORE_TRANSPOSE ? kThreads * ITEMS_PER_THREAD : 1];
  };

 public:
  struct TempStorage : Uninitialized<Storage> {};

  __device__ explicit BlockStore(const std::source_location where = std::source_location::current())
      : storage_(private_storage()), tid_(Shape::checked_tid("cub::BlockStore", where)) {}
  __device__ explicit BlockStore(TempStorage& temp_storage, const std::source_location where = std::source_location::current())
      : storage_(temp_storage.Alias()), tid_(Shape::checked_tid("cub::BlockStore", where)) {}

  template <typename OutputIteratorT>
  __device__ void Store(OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD]) {
    store(block_itr, items, kThreads * ITEMS_PER_THREAD);
  }
  template <typename OutputIteratorT>
  __device__ void Store(OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
    store(block_itr, items, valid_items);
  }

 private:
  __device__ static Storage& private_storage() {
    __shared__ Uninitialized<Storage> storage;
    return storage.Alias();
  }

  template <typename OutputIteratorT>
  __device__ void store(OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
    if constexpr (ALGORITHM == BLOCK_STORE_STRIPED) {
      StoreDirectStriped<kThreads>(tid_, block_itr, items, valid_items);
    } else if constexpr (ALGORITHM == BLOCK_STORE_TRANSPOSE) {
      for (int i = 0; i < ITEMS_PER_THREAD; ++i) storage_.items[tid_ * ITEMS_PER_THREAD + i] = items[i];
      __syncthreads();
      for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
        const int at = i * kThreads + tid_;
        if (at < valid_items) block_itr[at] = storage_.items[at];
      }
    } else {
      StoreDirectBlocked(tid_, block_itr, items, valid_items);
    }
  }

  Storage& storage_;
  int tid_;
};

}  // namespace cub
