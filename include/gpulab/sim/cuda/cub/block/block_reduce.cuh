#pragma once
// The simulator's CUB (../config.cuh): cub::BlockReduce. Each warp reduces by shuffles, its first lane
// stores the warp's aggregate in TempStorage, and after a barrier thread 0 combines them in warp order
// (CUB's warp-reductions algorithm; the raking ones give the same results for an associative operator,
// so every BlockReduceAlgorithm is this one). The result is thread 0's, as CUB says; TempStorage is the
// program's shared memory, so a reuse without a barrier between is a race that racecheck reports.
#include <source_location>

#include <cub/detail/block_shape.cuh>
#include <cub/thread/thread_operators.cuh>
#include <cub/warp/warp_reduce.cuh>

namespace cub {

enum BlockReduceAlgorithm {
  BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
  BLOCK_REDUCE_RAKING,
  BLOCK_REDUCE_WARP_REDUCTIONS,
};

template <typename T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockReduce {
  using Shape = detail::block_shape<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  struct Storage {
    T warp_aggregates[Shape::kWarps];
  };

 public:
  struct TempStorage : Uninitialized<Storage> {};

  __device__ explicit BlockReduce(const std::source_location where = std::source_location::current())
      : storage_(private_storage()), tid_(Shape::checked_tid("cub::BlockReduce", where)) {}
  __device__ explicit BlockReduce(TempStorage& temp_storage, const std::source_location where = std::source_location::current())
      : storage_(temp_storage.Alias()), tid_(Shape::checked_tid("cub::BlockReduce", where)) {}

  template <typename ReductionOp>
  __device__ T Reduce(T input, ReductionOp reduction_op) {
    return reduce(input, reduction_op, Shape::kThreads);
  }
  template <int ITEMS_PER_THREAD, typename ReductionOp>
  __device__ T Reduce(T (&inputs)[ITEMS_PER_THREAD], ReductionOp reduction_op) {
    T partial = inputs[0];
    for (int i = 1; i < ITEMS_PER_THREAD; ++i) partial = reduction_op(partial, inputs[i]);
    return reduce(partial, reduction_op, Shape::kThreads);
  }
  // Threads from num_valid on take no part (all must call).
  template <typename ReductionOp>
  __device__ T Reduce(T input, ReductionOp reduction_op, int num_valid) {
    return reduce(input, reduction_op, num_valid);
  }
  __device__ T Sum(T input) { return reduce(input, cub::Sum{}, Shape::kThreads); }
  template <int ITEMS_PER_THREAD>
  __device__ T Sum(T (&inputs)[ITEMS_PER_THREAD]) {
    return Reduce(inputs, cub::Sum{});
  }
  __device__ T Sum(T input, int num_valid) { return reduce(input, cub::Sum{}, num_valid); }

 private:
  __device__ static Storage& private_storage() {
    __shared__ Uninitialized<Storage> storage;
    return storage.Alias();
  }

  template <typename ReductionOp>
  __device__ T reduce(T input, ReductionOp op, int num_valid) {
    const int warp = tid_ / 32;
    const int lane = tid_ % 32;
    const int warp_valid = num_valid - 32 * warp;
    typename WarpReduce<T>::TempStorage unused;
    const T partial = WarpReduce<T>(unused).Reduce(input, op, warp_valid < 0 ? 0 : warp_valid);
    if (lane == 0 && warp_valid > 0) storage_.warp_aggregates[warp] = partial;
    __syncthreads();
    if (tid_ != 0) return partial;
    T total = partial;
    const int warps_valid = num_valid <= 0 ? 1 : (num_valid + 31) / 32;
    for (int w = 1; w < warps_valid && w < Shape::kWarps; ++w) total = op(total, storage_.warp_aggregates[w]);
    return total;
  }

  Storage& storage_;
  int tid_;
};

}  // namespace cub
