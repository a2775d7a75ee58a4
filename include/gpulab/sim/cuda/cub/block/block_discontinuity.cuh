#pragma once
// The simulator's CUB (../config.cuh): cub::BlockDiscontinuity, the flags of items that differ from
// their predecessor (FlagHeads) or successor (FlagTails) in the blocked arrangement, by a flag operator
// taking (a, b) or (a, b, b's index). Each thread's edge item goes through TempStorage across a barrier,
// as in CUB; the block's first item is a head (its last a tail) unless a tile predecessor (successor)
// is given.
#include <source_location>
#include <type_traits>

#include <cub/detail/block_shape.cuh>
#include <cub/util_type.cuh>

namespace cub {

template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockDiscontinuity {
  using Shape = detail::block_shape<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  static constexpr int kThreads = Shape::kThreads;
  struct Storage {
    T first_items[kThreads];
    T last_items[kThreads];
  };

 public:
  struct TempStorage : Uninitialized<Storage> {};

  __device__ explicit BlockDiscontinuity(const std::source_location where = std::source_location::current())
      : storage_(private_storage()), tid_(Shape::checked_tid("cub::BlockDiscontinuity", where)) {}
  __device__ explicit BlockDiscontinuity(TempStorage& temp_storage,
                                         const std::source_location where = std::source_location::current())
      : storage_(temp_storage.Alias()), tid_(Shape::checked_tid("cub::BlockDiscontinuity", where)) {}

  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOp>
  __device__ void FlagHeads(FlagT (&head_flags)[ITEMS_PER_THREAD], T (&input)[ITEMS_PER_THREAD], FlagOp flag_op) {
    heads(head_flags, input, flag_op, nullptr);
  }
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOp>
  __device__ void FlagHeads(FlagT (&head_flags)[ITEMS_PER_THREAD], T (&input)[ITEMS_PER_THREAD], FlagOp flag_op,
                            T tile_predecessor_item) {
    heads(head_flags, input, flag_op, &tile_predecessor_item);
  }
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOp>
  __device__ void FlagTails(FlagT (&tail_flags)[ITEMS_PER_THREAD], T (&input)[ITEMS_PER_THREAD], FlagOp flag_op) {
    tails(tail_flags, input, flag_op, nullptr);
  }
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOp>
  __device__ void FlagTails(FlagT (&tail_flags)[ITEMS_PER_THREAD], T (&input)[ITEMS_PER_THREAD], FlagOp flag_op,
                            T tile_successor_item) {
    tails(tail_flags, input, flag_op, &tile_successor_item);
  }

 private:
  __device__ static Storage& private_storage() {
    __shared__ Uninitialized<Storage> storage;
    return storage.Alias();
  }
  template <typename FlagOp>
  __device__ static bool differ(FlagOp& op, const T& a, const T& b, int b_index) {
    if constexpr (std::is_invocable_v<FlagOp&, const T&, const T&, int>) {
      return static_cast<bool>(op(a, b, b_index));
    } else {
      return static_cast<bool>(op(a, b));
    }
  }
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOp>
  __device__ void heads(FlagT (&flags)[ITEMS_PER_THREAD], T (&input)[ITEMS_PER_THREAD], FlagOp& op, const T* predecessor) {
    storage_.last_items[tid_] = input[ITEMS_PER_THREAD - 1];
    __syncthreads();
    const int base = tid_ * ITEMS_PER_THREAD;
    if (tid_ > 0) {
      flags[0] = differ(op, storage_.last_items[tid_ - 1], input[0], base);
    } else {
      flags[0] = predecessor != nullptr ? differ(op, *predecessor, input[0], 0) : true;
    }
    for (int i = 1; i < ITEMS_PER_THREAD; ++i) flags[i] = differ(op, input[i - 1], input[i], base + i);
  }
  template <int ITEMS_PER_THREAD, typename FlagT, typename FlagOp>
  __device__ void tails(FlagT (&flags)[ITEMS_PER_THREAD], T (&input)[ITEMS_PER_THREAD], FlagOp& op, const T* successor) {
    storage_.first_items[tid_] = input[0];
    __syncthreads();
    const int base = tid_ * ITEMS_PER_THREAD;
    for (int i = 0; i < ITEMS_PER_THREAD - 1; ++i) flags[i] = differ(op, input[i], input[i + 1], base + i + 1);
    if (tid_ < kThreads - 1) {
      flags[ITEMS_PER_THREAD - 1] = differ(op, input[ITEMS_PER_THREAD - 1], storage_.first_items[tid_ + 1], base + ITEMS_PER_THREAD);
    } else {
      flags[ITEMS_PER_THREAD - 1] =
          successor != nullptr ? differ(op, input[ITEMS_PER_THREAD - 1], *successor, base + ITEMS_PER_THREAD) : true;
    }
  }

  Storage& storage_;
  int tid_;
};

}  // namespace cub
