#pragma once
// gpulab-simcc's shadow of CUDA's <cooperative_groups.h>: thread blocks, their static tiles of 32, 16,
// 8, 4, 2 and 1 threads, and the coalesced group of a warp's active threads, with the tile collectives
// (shfl, vote, cg::reduce, cg::inclusive_scan and cg::exclusive_scan).
//
// Every group operation is one of CUDA's intrinsics with the group's lanes as its mask, so the
// simulator's synccheck sees a tile whose threads diverge around a collective exactly as it sees a raw
// __shfl_sync. A tile's mask names only threads the block has: the last warp of a block of, say, 48
// threads has 16 lanes, and its tiles of 32 have those 16.
//
// Not provided (a program that uses them fails to build): grid groups and multi-grid groups (they need
// cooperative launches), runtime-sized tiled_partition(parent, n), labeled_partition and
// binary_partition, memcpy_async, and the block-wide cg::reduce of newer toolkits.
#if !defined(GPULAB_SIM)
#error "this <cooperative_groups.h> is gpulab's simulator shadow of CUDA's: build with gpulab-simcc or gpulab_add_sim_executable"
#endif

#include <source_location>
#include <type_traits>

#include <gpulab/sim/device_runtime.hpp>

namespace cooperative_groups {

namespace details {

inline unsigned block_thread_rank() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
inline unsigned block_size() { return blockDim.x * blockDim.y * blockDim.z; }

// The lanes of the caller's warp that are threads of the block.
inline unsigned warp_lanes_of_block() {
  const unsigned first = block_thread_rank() & ~31u;
  const unsigned count = block_size() - first;
  return count >= 32 ? 0xffffffffu : (1u << count) - 1u;
}

}  // namespace details

// ---- the thread block ----
class thread_block {
 public:
  void sync(const std::source_location where = std::source_location::current()) const { __syncthreads(where); }
  unsigned thread_rank() const { return details::block_thread_rank(); }
  unsigned size() const { return details::block_size(); }
  unsigned num_threads() const { return details::block_size(); }
  dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  dim3 group_dim() const { return blockDim; }
  dim3 dim_threads() const { return blockDim; }
};

inline thread_block this_thread_block() { return thread_block{}; }

// ---- static tiles: thread_block_tile<N> is the tile as a parameter type, thread_block_tile<N, Parent>
// what tiled_partition<N>(parent) returns, which converts to it ----
template <unsigned N, class Parent = void>
class thread_block_tile;

template <unsigned N>
class thread_block_tile<N, void> {
  static_assert(N == 1 || N == 2 || N == 4 || N == 8 || N == 16 || N == 32,
                "gpulab's simulator supports tiled_partition<N> for N = 1, 2, 4, 8, 16 and 32");

 public:
  static constexpr unsigned num_threads_v = N;

  thread_block_tile(unsigned meta_rank, unsigned meta_size) : meta_rank_(meta_rank), meta_size_(meta_size) {
    const unsigned lane = details::block_thread_rank() & 31u;
    first_lane_ = lane & ~(N - 1);
    const unsigned tile_lanes = N == 32 ? 0xffffffffu : ((1u << N) - 1u) << first_lane_;
    mask_ = tile_lanes & details::warp_lanes_of_block();
  }

  void sync(const std::source_location where = std::source_location::current()) const { __syncwarp(mask_, where); }
  unsigned thread_rank() const { return (details::block_thread_rank() & 31u) - first_lane_; }
  static constexpr unsigned size() { return N; }
  static constexpr unsigned num_threads() { return N; }
  unsigned meta_group_rank() const { return meta_rank_; }
  unsigned meta_group_size() const { return meta_size_; }

  template <class T>
  T shfl(T var, int src_rank, const std::source_location where = std::source_location::current()) const {
    return __shfl_sync(mask_, var, src_rank, static_cast<int>(N), where);
  }
  template <class T>
  T shfl_up(T var, unsigned delta, const std::source_location where = std::source_location::current()) const {
    return __shfl_up_sync(mask_, var, delta, static_cast<int>(N), where);
  }
  template <class T>
  T shfl_down(T var, unsigned delta, const std::source_location where = std::source_location::current()) const {
    return __shfl_down_sync(mask_, var, delta, static_cast<int>(N), where);
  }
  template <class T>
  T shfl_xor(T var, unsigned lane_mask, const std::source_location where = std::source_location::current()) const {
    return __shfl_xor_sync(mask_, var, static_cast<int>(lane_mask), static_cast<int>(N), where);
  }
  int any(int predicate, const std::source_location where = std::source_location::current()) const {
    return __any_sync(mask_, predicate, where);
  }
  int all(int predicate, const std::source_location where = std::source_location::current()) const {
    return __all_sync(mask_, predicate, where);
  }
  // Bit i is the tile's thread of rank i.
  unsigned ballot(int predicate, const std::source_location where = std::source_location::current()) const {
    return __ballot_sync(mask_, predicate, where) >> first_lane_;
  }
  template <class T>
  unsigned match_any(T value, const std::source_location where = std::source_location::current()) const {
    return __match_any_sync(mask_, value, where) >> first_lane_;
  }

 private:
  unsigned mask_ = 0, first_lane_ = 0, meta_rank_ = 0, meta_size_ = 0;
};

template <unsigned N, class Parent>
class thread_block_tile : public thread_block_tile<N, void> {
 public:
  explicit thread_block_tile(const Parent& parent)
      : thread_block_tile<N, void>(static_cast<unsigned>(parent.thread_rank() / N),
                                   static_cast<unsigned>((parent.num_threads() + N - 1) / N)) {}
};

template <unsigned N, class Parent>
thread_block_tile<N, Parent> tiled_partition(const Parent& parent) {
  if constexpr (!std::is_same_v<Parent, thread_block>) {
    static_assert(Parent::num_threads_v >= N, "a tile is partitioned from a thread block or from a larger tile");
  }
  return thread_block_tile<N, Parent>(parent);
}

// ---- the coalesced group: the warp's threads that are active where it is made ----
class coalesced_group {
 public:
  explicit coalesced_group(unsigned mask) : mask_(mask) {}

  void sync(const std::source_location where = std::source_location::current()) const { __syncwarp(mask_, where); }
  unsigned thread_rank() const { return rank_of(details::block_thread_rank() & 31u); }
  unsigned size() const { return static_cast<unsigned>(__builtin_popcount(mask_)); }
  unsigned num_threads() const { return size(); }

  // The thread of rank `src_rank` (modulo the group's size) is the lane of the mask's src_rank-th bit.
  template <class T>
  T shfl(T var, unsigned src_rank, const std::source_location where = std::source_location::current()) const {
    return __shfl_sync(mask_, var, static_cast<int>(lane_of(src_rank % static_cast<unsigned>(size()))), 32, where);
  }
  template <class T>
  T shfl_up(T var, unsigned delta, const std::source_location where = std::source_location::current()) const {
    const unsigned rank = static_cast<unsigned>(thread_rank());
    return __shfl_sync(mask_, var, static_cast<int>(lane_of(rank >= delta ? rank - delta : rank)), 32, where);
  }
  template <class T>
  T shfl_down(T var, unsigned delta, const std::source_location where = std::source_location::current()) const {
    const unsigned rank = static_cast<unsigned>(thread_rank());
    return __shfl_sync(mask_, var, static_cast<int>(lane_of(rank + delta < size() ? rank + delta : rank)), 32, where);
  }
  int any(int predicate, const std::source_location where = std::source_location::current()) const {
    return __any_sync(mask_, predicate, where);
  }
  int all(int predicate, const std::source_location where = std::source_location::current()) const {
    return __all_sync(mask_, predicate, where);
  }
  // Bit i is the group's thread of rank i: the warp's ballot with the group's lanes packed together.
  unsigned ballot(int predicate, const std::source_location where = std::source_location::current()) const {
    const unsigned lanes = __ballot_sync(mask_, predicate, where);
    unsigned packed = 0;
    for (unsigned m = mask_, rank = 0; m != 0; m &= m - 1, ++rank) {
      if (lanes & (m & -m)) packed |= 1u << rank;
    }
    return packed;
  }

 private:
  unsigned rank_of(unsigned lane) const { return static_cast<unsigned>(__builtin_popcount(mask_ & ((1u << lane) - 1u))); }
  unsigned lane_of(unsigned rank) const {
    unsigned m = mask_;
    for (unsigned i = 0; i < rank; ++i) m &= m - 1;
    return static_cast<unsigned>(__builtin_ctz(m));
  }
  unsigned mask_;
};

inline coalesced_group coalesced_threads(const std::source_location where = std::source_location::current()) {
  return coalesced_group(__activemask(where));
}

template <class Group>
inline void sync(const Group& g, const std::source_location where = std::source_location::current()) {
  g.sync(where);
}

// ---- the operators of cg::reduce and the scans ----
template <class T = void>
struct plus {
  constexpr T operator()(const T& a, const T& b) const { return a + b; }
};
template <class T = void>
struct less {  // reduces to the minimum
  constexpr T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <class T = void>
struct greater {  // reduces to the maximum
  constexpr T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <class T = void>
struct bit_and {
  constexpr T operator()(const T& a, const T& b) const { return a & b; }
};
template <class T = void>
struct bit_or {
  constexpr T operator()(const T& a, const T& b) const { return a | b; }
};
template <class T = void>
struct bit_xor {
  constexpr T operator()(const T& a, const T& b) const { return a ^ b; }
};

// The reduction of every thread's value by `op`, returned to all of them. A tile folds by butterfly
// (log2 N exchanges); a coalesced group, whose lanes need not be contiguous, by rank.
template <class T, unsigned N, class Parent, class Op>
T reduce(const thread_block_tile<N, Parent>& tile, T value, Op op) {
  for (unsigned offset = N / 2; offset > 0; offset /= 2) value = op(value, tile.shfl_xor(value, offset));
  return value;
}
template <class T, class Op>
T reduce(const coalesced_group& group, T value, Op op) {
  T total = group.shfl(value, 0);
  for (unsigned rank = 1; rank < group.size(); ++rank) total = op(total, group.shfl(value, rank));
  return total;
}

// The scan of the values in rank order: thread r gets op over ranks 0..r (inclusive) or 0..r-1
// (exclusive; rank 0 gets a value-initialised T, as CUDA specifies for plus).
template <class T, class Group, class Op = plus<T>>
T inclusive_scan(const Group& group, T value, Op op = Op{}) {
  const unsigned rank = static_cast<unsigned>(group.thread_rank());
  for (unsigned offset = 1; offset < group.size(); offset *= 2) {
    const T other = group.shfl_up(value, offset);
    if (rank >= offset) value = op(other, value);
  }
  return value;
}
template <class T, class Group, class Op = plus<T>>
T exclusive_scan(const Group& group, T value, Op op = Op{}) {
  const T inclusive = inclusive_scan(group, value, op);
  const T previous = group.shfl_up(inclusive, 1);
  return group.thread_rank() == 0 ? T{} : previous;
}

}  // namespace cooperative_groups
