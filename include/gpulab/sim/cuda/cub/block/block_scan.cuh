#pragma once
// The simulator's CUB (../config.cuh): cub::BlockScan. Each warp scans by shuffles, its last lane
// stores the warp's total in TempStorage, and after a barrier every thread adds the totals of the warps
// before its own (every BlockScanAlgorithm is this one; for an associative operator they agree). With a
// prefix callback, the first warp calls it with the block's aggregate, lane 0's answer is stored and,
// after a second barrier, is every thread's prefix, as in CUB. An exclusive scan with no initial value
// leaves thread 0's output unspecified, as CUB does. TempStorage is the program's shared memory.
#include <source_location>

#include <cub/detail/block_shape.cuh>
#include <cub/thread/thread_operators.cuh>
#include <cub/warp/warp_scan.cuh>

namespace cub {

enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };

template <typename T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockScan {
  using Shape = detail::block_shape<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  struct Storage {
    T warp_totals[Shape::kWarps];
    T block_prefix;
  };

 public:
  struct TempStorage : Uninitialized<Storage> {};

  __device__ explicit BlockScan(const std::source_location where = std::source_location::current())
      : storage_(private_storage()), tid_(Shape::checked_tid("cub::BlockScan", where)) {}
  __device__ explicit BlockScan(TempStorage& temp_storage, const std::source_location where = std::source_location::current())
      : storage_(temp_storage.Alias()), tid_(Shape::checked_tid("cub::BlockScan", where)) {}

  // ---- exclusive sums ----
  __device__ void ExclusiveSum(T input, T& output) { ExclusiveScan(input, output, T{}, cub::Sum{}); }
  __device__ void ExclusiveSum(T input, T& output, T& block_aggregate) {
    ExclusiveScan(input, output, T{}, cub::Sum{}, block_aggregate);
  }
  template <typename BlockPrefixCallbackOp>
  __device__ void ExclusiveSum(T input, T& output, BlockPrefixCallbackOp& block_prefix_callback_op) {
    ExclusiveScan(input, output, cub::Sum{}, block_prefix_callback_op);
  }
  template <int ITEMS_PER_THREAD>
  __device__ void ExclusiveSum(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD]) {
    ExclusiveScan(input, output, T{}, cub::Sum{});
  }
  template <int ITEMS_PER_THREAD>
  __device__ void ExclusiveSum(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD], T& block_aggregate) {
    ExclusiveScan(input, output, T{}, cub::Sum{}, block_aggregate);
  }
  template <int ITEMS_PER_THREAD, typename BlockPrefixCallbackOp>
  __device__ void ExclusiveSum(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                               BlockPrefixCallbackOp& block_prefix_callback_op) {
    ExclusiveScan(input, output, cub::Sum{}, block_prefix_callback_op);
  }

  // ---- exclusive scans ----
  template <typename ScanOp>
  __device__ void ExclusiveScan(T input, T& output, T initial_value, ScanOp scan_op) {
    T aggregate;
    ExclusiveScan(input, output, initial_value, scan_op, aggregate);
  }
  template <typename ScanOp>
  __device__ void ExclusiveScan(T input, T& output, T initial_value, ScanOp scan_op, T& block_aggregate) {
    T inclusive, exclusive;
    bool has_exclusive;
    scan(input, scan_op, inclusive, exclusive, has_exclusive, block_aggregate);
    output = has_exclusive ? scan_op(initial_value, exclusive) : initial_value;
  }
  template <typename ScanOp, typename BlockPrefixCallbackOp>
  __device__ void ExclusiveScan(T input, T& output, ScanOp scan_op, BlockPrefixCallbackOp& block_prefix_callback_op) {
    T inclusive, exclusive, aggregate;
    bool has_exclusive;
    scan(input, scan_op, inclusive, exclusive, has_exclusive, aggregate);
    const T prefix = callback_prefix(aggregate, block_prefix_callback_op);
    output = has_exclusive ? scan_op(prefix, exclusive) : prefix;
  }
  template <typename ScanOp>
  __device__ void ExclusiveScan(T input, T& output, ScanOp scan_op) {
    T aggregate;
    ExclusiveScan(input, output, scan_op, aggregate);
  }
  template <typename ScanOp>
  __device__ void ExclusiveScan(T input, T& output, ScanOp scan_op, T& block_aggregate) {
    T inclusive, exclusive;
    bool has_exclusive;
    scan(input, scan_op, inclusive, exclusive, has_exclusive, block_aggregate);
    if (has_exclusive) output = exclusive;
  }
  template <int ITEMS_PER_THREAD, typename ScanOp>
  __device__ void ExclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD], T initial_value,
                                ScanOp scan_op) {
    T aggregate;
    ExclusiveScan(input, output, initial_value, scan_op, aggregate);
  }
  template <int ITEMS_PER_THREAD, typename ScanOp>
  __device__ void ExclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD], T initial_value,
                                ScanOp scan_op, T& block_aggregate) {
    T thread_prefix;
    ExclusiveScan(thread_total(input, scan_op), thread_prefix, initial_value, scan_op, block_aggregate);
    exclusive_items(input, output, thread_prefix, true, scan_op);
  }
  template <int ITEMS_PER_THREAD, typename ScanOp, typename BlockPrefixCallbackOp>
  __device__ void ExclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD], ScanOp scan_op,
                                BlockPrefixCallbackOp& block_prefix_callback_op) {
    T thread_prefix;
    ExclusiveScan(thread_total(input, scan_op), thread_prefix, scan_op, block_prefix_callback_op);
    exclusive_items(input, output, thread_prefix, true, scan_op);
  }
  template <int ITEMS_PER_THREAD, typename ScanOp>
  __device__ void ExclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD], ScanOp scan_op) {
    T aggregate;
    ExclusiveScan(input, output, scan_op, aggregate);
  }
  template <int ITEMS_PER_THREAD, typename ScanOp>
  __device__ void ExclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD], ScanOp scan_op,
                                T& block_aggregate) {
    T inclusive, exclusive;
    bool has_exclusive;
    scan(thread_total(input, scan_op), scan_op, inclusive, exclusive, has_exclusive, block_aggregate);
    exclusive_items(input, output, exclusive, has_exclusive, scan_op);
  }

  // ---- inclusive sums ----
  __device__ void InclusiveSum(T input, T& output) { InclusiveScan(input, output, cub::Sum{}); }
  __device__ void InclusiveSum(T input, T& output, T& block_aggregate) { InclusiveScan(input, output, cub::Sum{}, block_aggregate); }
  template <typename BlockPrefixCallbackOp>
  __device__ void InclusiveSum(T input, T& output, BlockPrefixCallbackOp& block_prefix_callback_op) {
    InclusiveScan(input, output, cub::Sum{}, block_prefix_callback_op);
  }
  template <int ITEMS_PER_THREAD>
  __device__ void InclusiveSum(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD]) {
    InclusiveScan(input, output, cub::Sum{});
  }
  template <int ITEMS_PER_THREAD>
  __device__ void InclusiveSum(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD], T& block_aggregate) {
    InclusiveScan(input, output, cub::Sum{}, block_aggregate);
  }
  template <int ITEMS_PER_THREAD, typename BlockPrefixCallbackOp>
  __device__ void InclusiveSum(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD],
                               BlockPrefixCallbackOp& block_prefix_callback_op) {
    InclusiveScan(input, output, cub::Sum{}, block_prefix_callback_op);
  }

  // ---- inclusive scans ----
  template <typename ScanOp>
  __device__ void InclusiveScan(T input, T& output, ScanOp scan_op) {
    T aggregate;
    InclusiveScan(input, output, scan_op, aggregate);
  }
  template <typename ScanOp>
  __device__ void InclusiveScan(T input, T& output, ScanOp scan_op, T& block_aggregate) {
    T exclusive;
    bool has_exclusive;
    scan(input, scan_op, output, exclusive, has_exclusive, block_aggregate);
  }
  template <typename ScanOp, typename BlockPrefixCallbackOp>
  __device__ void InclusiveScan(T input, T& output, ScanOp scan_op, BlockPrefixCallbackOp& block_prefix_callback_op) {
    T inclusive, exclusive, aggregate;
    bool has_exclusive;
    scan(input, scan_op, inclusive, exclusive, has_exclusive, aggregate);
    output = scan_op(callback_prefix(aggregate, block_prefix_callback_op), inclusive);
  }
  template <int ITEMS_PER_THREAD, typename ScanOp>
  __device__ void InclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD], ScanOp scan_op) {
    T aggregate;
    InclusiveScan(input, output, scan_op, aggregate);
  }
  template <int ITEMS_PER_THREAD, typename ScanOp>
  __device__ void InclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD], ScanOp scan_op,
                                T& block_aggregate) {
    T inclusive, exclusive;
    bool has_exclusive;
    scan(thread_total(input, scan_op), scan_op, inclusive, exclusive, has_exclusive, block_aggregate);
    inclusive_items(input, output, exclusive, has_exclusive, scan_op);
  }
  template <int ITEMS_PER_THREAD, typename ScanOp>
  __device__ void InclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD], T initial_value,
                                ScanOp scan_op) {
    T aggregate;
    InclusiveScan(input, output, initial_value, scan_op, aggregate);
  }
  template <int ITEMS_PER_THREAD, typename ScanOp>
  __device__ void InclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD], T initial_value,
                                ScanOp scan_op, T& block_aggregate) {
    T thread_prefix;
    ExclusiveScan(thread_total(input, scan_op), thread_prefix, initial_value, scan_op, block_aggregate);
    inclusive_items(input, output, thread_prefix, true, scan_op);
  }
  template <int ITEMS_PER_THREAD, typename ScanOp, typename BlockPrefixCallbackOp>
  __device__ void InclusiveScan(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD], ScanOp scan_op,
                                BlockPrefixCallbackOp& block_prefix_callback_op) {
    T thread_prefix;
    ExclusiveScan(thread_total(input, scan_op), thread_prefix, scan_op, block_prefix_callback_op);
    inclusive_items(input, output, thread_prefix, true, scan_op);
  }

 private:
  __device__ static Storage& private_storage() {
    __shared__ Uninitialized<Storage> storage;
    return storage.Alias();
  }

  // The block-wide scan of one value per thread: the inclusive result, the exclusive one (absent for
  // thread 0) and the block's aggregate. One barrier.
  template <typename ScanOp>
  __device__ void scan(T input, ScanOp op, T& inclusive, T& exclusive, bool& has_exclusive, T& aggregate) {
    const int warp = tid_ / 32;
    const int lane = tid_ % 32;
    typename WarpScan<T>::TempStorage unused;
    WarpScan<T> warp_scan(unused);
    T warp_inclusive, warp_exclusive = input;
    warp_scan.Scan(input, warp_inclusive, warp_exclusive, op);
    if (lane == Shape::lanes_in(warp) - 1) storage_.warp_totals[warp] = warp_inclusive;
    __syncthreads();
    T prefix = storage_.warp_totals[0];
    for (int w = 1; w < warp; ++w) prefix = op(prefix, storage_.warp_totals[w]);
    aggregate = storage_.warp_totals[0];
    for (int w = 1; w < Shape::kWarps; ++w) aggregate = op(aggregate, storage_.warp_totals[w]);
    if (warp == 0) {
      inclusive = warp_inclusive;
      exclusive = warp_exclusive;
      has_exclusive = lane > 0;
    } else {
      inclusive = op(prefix, warp_inclusive);
      exclusive = lane == 0 ? prefix : op(prefix, warp_exclusive);
      has_exclusive = true;
    }
  }

  // The first warp asks the callback for the block's prefix; lane 0's answer is everyone's.
  template <typename BlockPrefixCallbackOp>
  __device__ T callback_prefix(const T& aggregate, BlockPrefixCallbackOp& callback) {
    if (tid_ < 32) {
      const T prefix = callback(aggregate);
      if (tid_ == 0) storage_.block_prefix = prefix;
    }
    __syncthreads();
    return storage_.block_prefix;
  }

  template <int ITEMS_PER_THREAD, typename ScanOp>
  __device__ static T thread_total(T (&input)[ITEMS_PER_THREAD], ScanOp op) {
    T total = input[0];
    for (int i = 1; i < ITEMS_PER_THREAD; ++i) total = op(total, input[i]);
    return total;
  }
  template <int ITEMS_PER_THREAD, typename ScanOp>
  __device__ static void exclusive_items(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD], T prefix,
                                         bool has_prefix, ScanOp op) {
    T running = prefix;
    bool has = has_prefix;
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
      const T item = input[i];  // input and output may be one array
      if (has) output[i] = running;
      running = has ? op(running, item) : item;
      has = true;
    }
  }
  template <int ITEMS_PER_THREAD, typename ScanOp>
  __device__ static void inclusive_items(T (&input)[ITEMS_PER_THREAD], T (&output)[ITEMS_PER_THREAD], T prefix,
                                         bool has_prefix, ScanOp op) {
    T running = prefix;
    bool has = has_prefix;
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
      running = has ? op(running, input[i]) : input[i];
      has = true;
      output[i] = running;
    }
  }

  Storage& storage_;
  int tid_;
};

}  // namespace cub
