#pragma once
// The simulator's CUB (../config.cuh): cub::WarpScan, the prefix scans of a logical warp of
// LOGICAL_WARP_THREADS lanes (a power of two up to 32) by shuffles, as CUB's shuffle variant. An
// exclusive scan with no initial value leaves lane 0's output as CUB leaves it: unspecified (here, the
// value it had). TempStorage is kept for CUB's signatures and not touched.
#include <cub/detail/warp_shuffle.cuh>
#include <cub/thread/thread_operators.cuh>
#include <cub/util_type.cuh>

namespace cub {

template <typename T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpScan {
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32 &&
                    (LOGICAL_WARP_THREADS & (LOGICAL_WARP_THREADS - 1)) == 0,
                "the simulator's cub::WarpScan takes logical warps of 1, 2, 4, 8, 16 or 32 lanes");

 public:
  struct TempStorage : Uninitialized<NullType> {};

  __device__ explicit WarpScan(TempStorage& /*temp_storage*/)
      : mask_(detail::logical_warp_mask(LOGICAL_WARP_THREADS)),
        lane_(static_cast<int>(detail::linear_tid() % LOGICAL_WARP_THREADS)),
        size_(detail::logical_warp_size(LOGICAL_WARP_THREADS)) {}

  // ---- inclusive ----
  __device__ void InclusiveSum(T input, T& inclusive_output) { InclusiveScan(input, inclusive_output, cub::Sum{}); }
  __device__ void InclusiveSum(T input, T& inclusive_output, T& warp_aggregate) {
    InclusiveScan(input, inclusive_output, cub::Sum{}, warp_aggregate);
  }
  template <typename ScanOp>
  __device__ void InclusiveScan(T input, T& inclusive_output, ScanOp scan_op) {
    inclusive_output = inclusive(input, scan_op);
  }
  template <typename ScanOp>
  __device__ void InclusiveScan(T input, T& inclusive_output, ScanOp scan_op, T& warp_aggregate) {
    inclusive_output = inclusive(input, scan_op);
    warp_aggregate = Broadcast(inclusive_output, size_ - 1);
  }
  template <typename ScanOp>
  __device__ void InclusiveScan(T input, T& inclusive_output, T initial_value, ScanOp scan_op) {
    inclusive_output = scan_op(initial_value, inclusive(input, scan_op));
  }
  template <typename ScanOp>
  __device__ void InclusiveScan(T input, T& inclusive_output, T initial_value, ScanOp scan_op, T& warp_aggregate) {
    const T plain = inclusive(input, scan_op);
    warp_aggregate = Broadcast(plain, size_ - 1);
    inclusive_output = scan_op(initial_value, plain);
  }

  // ---- exclusive ----
  __device__ void ExclusiveSum(T input, T& exclusive_output) { ExclusiveScan(input, exclusive_output, T{}, cub::Sum{}); }
  __device__ void ExclusiveSum(T input, T& exclusive_output, T& warp_aggregate) {
    ExclusiveScan(input, exclusive_output, T{}, cub::Sum{}, warp_aggregate);
  }
  template <typename ScanOp>
  __device__ void ExclusiveScan(T input, T& exclusive_output, ScanOp scan_op) {
    const T incl = inclusive(input, scan_op);
    const T up = detail::shuffle<detail::shuffle_kind::up>(incl, 1, LOGICAL_WARP_THREADS, mask_);
    if (lane_ > 0) exclusive_output = up;
  }
  template <typename ScanOp>
  __device__ void ExclusiveScan(T input, T& exclusive_output, ScanOp scan_op, T& warp_aggregate) {
    const T incl = inclusive(input, scan_op);
    warp_aggregate = Broadcast(incl, size_ - 1);
    const T up = detail::shuffle<detail::shuffle_kind::up>(incl, 1, LOGICAL_WARP_THREADS, mask_);
    if (lane_ > 0) exclusive_output = up;
  }
  template <typename ScanOp>
  __device__ void ExclusiveScan(T input, T& exclusive_output, T initial_value, ScanOp scan_op) {
    const T incl = inclusive(input, scan_op);
    const T up = detail::shuffle<detail::shuffle_kind::up>(incl, 1, LOGICAL_WARP_THREADS, mask_);
    exclusive_output = lane_ == 0 ? initial_value : scan_op(initial_value, up);
  }
  template <typename ScanOp>
  __device__ void ExclusiveScan(T input, T& exclusive_output, T initial_value, ScanOp scan_op, T& warp_aggregate) {
    const T incl = inclusive(input, scan_op);
    warp_aggregate = Broadcast(incl, size_ - 1);
    const T up = detail::shuffle<detail::shuffle_kind::up>(incl, 1, LOGICAL_WARP_THREADS, mask_);
    exclusive_output = lane_ == 0 ? initial_value : scan_op(initial_value, up);
  }

  // ---- both at once ----
  template <typename ScanOp>
  __device__ void Scan(T input, T& inclusive_output, T& exclusive_output, ScanOp scan_op) {
    inclusive_output = inclusive(input, scan_op);
    const T up = detail::shuffle<detail::shuffle_kind::up>(inclusive_output, 1, LOGICAL_WARP_THREADS, mask_);
    if (lane_ > 0) exclusive_output = up;
  }
  template <typename ScanOp>
  __device__ void Scan(T input, T& inclusive_output, T& exclusive_output, T initial_value, ScanOp scan_op) {
    const T incl = inclusive(input, scan_op);
    const T up = detail::shuffle<detail::shuffle_kind::up>(incl, 1, LOGICAL_WARP_THREADS, mask_);
    inclusive_output = scan_op(initial_value, incl);
    exclusive_output = lane_ == 0 ? initial_value : scan_op(initial_value, up);
  }

  __device__ T Broadcast(T input, unsigned int src_lane) {
    return detail::shuffle<detail::shuffle_kind::index>(input, static_cast<int>(src_lane), LOGICAL_WARP_THREADS, mask_);
  }

 private:
  template <typename ScanOp>
  __device__ T inclusive(T value, ScanOp scan_op) {
    for (int offset = 1; offset < LOGICAL_WARP_THREADS; offset *= 2) {
      const T other = detail::shuffle<detail::shuffle_kind::up>(value, offset, LOGICAL_WARP_THREADS, mask_);
      if (lane_ >= offset) value = scan_op(other, value);
    }
    return value;
  }

  unsigned mask_;
  int lane_;
  int size_;
};

}  // namespace cub
