#pragma once
// The simulator's CUB (../config.cuh): cub::BlockExchange, rearrangements of the block's
// BLOCK_THREADS * ITEMS_PER_THREAD items between the blocked, striped and warp-striped arrangements and
// by ranks, through TempStorage across a barrier, as CUB's. Reusing TempStorage needs a barrier between.
#include <source_location>

#include <cub/detail/block_shape.cuh>
#include <cub/util_type.cuh>

namespace cub {

template <typename InputT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, bool WARP_TIME_SLICING = false, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockExchange {
  using Shape = detail::block_shape<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  static constexpr int kThreads = Shape::kThreads;
  static constexpr int kItems = kThreads * ITEMS_PER_THREAD;
  struct Storage {
    InputT items[kItems];
  };

 public:
  struct TempStorage : Uninitialized<Storage> {};

  __device__ explicit BlockExchange(const std::source_location where = std::source_location::current())
      : storage_(private_storage()), tid_(Shape::checked_tid("cub::BlockExchange", where)) {}
  __device__ explicit BlockExchange(TempStorage& temp_storage,
                                    const std::source_location where = std::source_location::current())
      : storage_(temp_storage.Alias()), tid_(Shape::checked_tid("cub::BlockExchange", where)) {}

  template <typename OutputT>
  __device__ void StripedToBlocked(const InputT (&input)[ITEMS_PER_THREAD], OutputT (&output)[ITEMS_PER_THREAD]) {
    exchange(input, output, [&](int i) { return i * kThreads + tid_; }, [&](int i) { return tid_ * ITEMS_PER_THREAD + i; });
  }
  template <typename OutputT>
  __device__ void BlockedToStriped(const InputT (&input)[ITEMS_PER_THREAD], OutputT (&output)[ITEMS_PER_THREAD]) {
    exchange(input, output, [&](int i) { return tid_ * ITEMS_PER_THREAD + i; }, [&](int i) { return i * kThreads + tid_; });
  }
  template <typename OutputT>
  __device__ void WarpStripedToBlocked(const InputT (&input)[ITEMS_PER_THREAD], OutputT (&output)[ITEMS_PER_THREAD]) {
    exchange(input, output, [&](int i) { return warp_striped(i); }, [&](int i) { return tid_ * ITEMS_PER_THREAD + i; });
  }
  template <typename OutputT>
  __device__ void BlockedToWarpStriped(const InputT (&input)[ITEMS_PER_THREAD], OutputT (&output)[ITEMS_PER_THREAD]) {
    exchange(input, output, [&](int i) { return tid_ * ITEMS_PER_THREAD + i; }, [&](int i) { return warp_striped(i); });
  }
  // Item i goes to rank ranks[i] of the block (a permutation of 0 .. BLOCK_THREADS * ITEMS_PER_THREAD - 1).
  template <typename OutputT, typename OffsetT>
  __device__ void ScatterToBlocked(const InputT (&input)[ITEMS_PER_THREAD], OutputT (&output)[ITEMS_PER_THREAD],
                                   OffsetT (&ranks)[ITEMS_PER_THREAD]) {
    exchange(input, output, [&](int i) { return static_cast<int>(ranks[i]); }, [&](int i) { return tid_ * ITEMS_PER_THREAD + i; });
  }
  template <typename OutputT, typename OffsetT>
  __device__ void ScatterToStriped(const InputT (&input)[ITEMS_PER_THREAD], OutputT (&output)[ITEMS_PER_THREAD],
                                   OffsetT (&ranks)[ITEMS_PER_THREAD]) {
    exchange(input, output, [&](int i) { return static_cast<int>(ranks[i]); }, [&](int i) { return i * kThreads + tid_; });
  }
  // CUB's in-place forms.
  __device__ void StripedToBlocked(InputT (&items)[ITEMS_PER_THREAD]) { StripedToBlocked(items, items); }
  __device__ void BlockedToStriped(InputT (&items)[ITEMS_PER_THREAD]) { BlockedToStriped(items, items); }
  __device__ void WarpStripedToBlocked(InputT (&items)[ITEMS_PER_THREAD]) { WarpStripedToBlocked(items, items); }
  __device__ void BlockedToWarpStriped(InputT (&items)[ITEMS_PER_THREAD]) { BlockedToWarpStriped(items, items); }
  template <typename OffsetT>
  __device__ void ScatterToBlocked(InputT (&items)[ITEMS_PER_THREAD], OffsetT (&ranks)[ITEMS_PER_THREAD]) {
    ScatterToBlocked(items, items, ranks);
  }
  template <typename OffsetT>
  __device__ void ScatterToStriped(InputT (&items)[ITEMS_PER_THREAD], OffsetT (&ranks)[ITEMS_PER_THREAD]) {
    ScatterToStriped(items, items, ranks);
  }

 private:
  __device__ static Storage& private_storage() {
    __shared__ Uninitialized<Storage> storage;
    return storage.Alias();
  }
  // The position of the calling thread's item i in its warp's striped arrangement.
  __device__ int warp_striped(int i) const {
    return (tid_ / 32) * 32 * ITEMS_PER_THREAD + i * 32 + tid_ % 32;
  }
  template <typename OutputT, typename From, typename To>
  __device__ void exchange(const InputT (&input)[ITEMS_PER_THREAD], OutputT (&output)[ITEMS_PER_THREAD], From from, To to) {
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) storage_.items[from(i)] = input[i];
    __syncthreads();
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) output[i] = storage_.items[to(i)];
  }

  Storage& storage_;
  int tid_;
};

}  // namespace cub
