#pragma once
// The simulator's CUB (../config.cuh): cub::WarpReduce, the reductions of a logical warp of
// LOGICAL_WARP_THREADS lanes (a power of two up to 32) by shuffles, as CUB's shuffle variant: the
// result is lane 0's (for the segmented forms, each segment's first lane's); TempStorage is kept for
// CUB's signatures and not touched.
#include <cub/detail/warp_shuffle.cuh>
#include <cub/thread/thread_operators.cuh>
#include <cub/util_type.cuh>

namespace cub {

template <typename T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpReduce {
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32 &&
                    (LOGICAL_WARP_THREADS & (LOGICAL_WARP_THREADS - 1)) == 0,
                "the simulator's cub::WarpReduce takes logical warps of 1, 2, 4, 8, 16 or 32 lanes");

 public:
  struct TempStorage : Uninitialized<NullType> {};

  __device__ explicit WarpReduce(TempStorage& /*temp_storage*/)
      : mask_(detail::logical_warp_mask(LOGICAL_WARP_THREADS)),
        lane_(static_cast<int>(detail::linear_tid() % LOGICAL_WARP_THREADS)),
        size_(detail::logical_warp_size(LOGICAL_WARP_THREADS)) {}

  __device__ T Sum(T input) { return Reduce(input, cub::Sum{}, size_); }
  __device__ T Sum(T input, int valid_items) { return Reduce(input, cub::Sum{}, valid_items); }
  template <typename ReductionOp>
  __device__ T Reduce(T input, ReductionOp reduction_op) {
    return Reduce(input, reduction_op, size_);
  }
  // Lanes from `valid_items` on take no part; every lane of the logical warp must call.
  template <typename ReductionOp>
  __device__ T Reduce(T input, ReductionOp reduction_op, int valid_items) {
    T value = input;
    for (int offset = 1; offset < LOGICAL_WARP_THREADS; offset *= 2) {
      const T other = detail::shuffle<detail::shuffle_kind::down>(value, offset, LOGICAL_WARP_THREADS, mask_);
      if (lane_ + offset < valid_items && lane_ + offset < size_) value = reduction_op(value, other);
    }
    return value;
  }

  template <typename FlagT>
  __device__ T HeadSegmentedSum(T input, FlagT head_flag) {
    return HeadSegmentedReduce(input, head_flag, cub::Sum{});
  }
  template <typename FlagT>
  __device__ T TailSegmentedSum(T input, FlagT tail_flag) {
    return TailSegmentedReduce(input, tail_flag, cub::Sum{});
  }
  // Each segment starts at a lane whose head flag is set (lane 0 always starts one); its reduction is
  // that lane's result.
  template <typename ReductionOp, typename FlagT>
  __device__ T HeadSegmentedReduce(T input, FlagT head_flag, ReductionOp reduction_op) {
    return segmented(input, head_flag != FlagT{}, reduction_op, true);
  }
  // Each segment ends at a lane whose tail flag is set; its reduction is the segment's first lane's.
  template <typename ReductionOp, typename FlagT>
  __device__ T TailSegmentedReduce(T input, FlagT tail_flag, ReductionOp reduction_op) {
    return segmented(input, tail_flag != FlagT{}, reduction_op, false);
  }

 private:
  // Every lane gathers the warp's values and flags, then reduces from its own lane to its segment's end.
  template <typename ReductionOp>
  __device__ T segmented(T input, bool flag, ReductionOp op, bool head) {
    T values[LOGICAL_WARP_THREADS];
    bool flags[LOGICAL_WARP_THREADS];
    for (int i = 0; i < LOGICAL_WARP_THREADS; ++i) {
      values[i] = detail::shuffle<detail::shuffle_kind::index>(input, i, LOGICAL_WARP_THREADS, mask_);
      flags[i] = detail::shuffle<detail::shuffle_kind::index>(static_cast<int>(flag), i, LOGICAL_WARP_THREADS, mask_) != 0;
    }
    T acc = values[lane_];
    for (int i = lane_ + 1; i < size_; ++i) {
      if (head ? flags[i] : flags[i - 1]) break;
      acc = op(acc, values[i]);
    }
    return acc;
  }

  unsigned mask_;
  int lane_;
  int size_;
};

}  // namespace cub
