#pragma once
// gpulab-simcc's shadow of CUDA's <cooperative_groups.h>: the grid of a cooperative launch, thread
// blocks, their tiles (static of 1 to 1024 threads, run-time of 1 to 32), coalesced groups and their
// labeled and binary partitions, with the tile collectives (shfl, vote, cg::reduce, cg::inclusive_scan,
// cg::exclusive_scan, invoke_one) and cg::memcpy_async.
//
// Every group operation of at most a warp is one of CUDA's intrinsics with the group's lanes as its
// mask, so the simulator's synccheck sees a tile whose threads diverge around a collective exactly as
// it sees a raw __shfl_sync. A tile's mask names only threads the block has: the last warp of a block
// of, say, 48 threads has 16 lanes, and its tiles of 32 have those 16. A tile of more than a warp
// syncs through the engine's block waits; grid.sync() through the engine's grid barrier, which only a
// cooperative launch has (cudaLaunchCooperativeKernel).
//
// Not provided (a program that uses them fails to build, naming them): multi-grid groups (removed from
// CUDA 13) and thread-block clusters.
#if !defined(GPULAB_SIM)
#error "this <cooperative_groups.h> is gpulab's simulator shadow of CUDA's: build with gpulab-simcc or gpulab_add_sim_executable"
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <source_location>
#include <type_traits>

#include <gpulab/sim/device_runtime.hpp>

#pragma push_macro("GPULAB_INSIDE_PUBLIC_HEADER")
#undef GPULAB_INSIDE_PUBLIC_HEADER
#define GPULAB_INSIDE_PUBLIC_HEADER 1
#include <gpulab/sim/detail/grid_abi.hpp>
#pragma pop_macro("GPULAB_INSIDE_PUBLIC_HEADER")

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

inline unsigned lane_id() { return block_thread_rank() & 31u; }
inline unsigned popcount(unsigned m) { return static_cast<unsigned>(__builtin_popcount(m)); }
// The rank of `lane` among the lanes of `mask`, and the lane of the rank-th of them.
inline unsigned rank_in(unsigned mask, unsigned lane) { return popcount(mask & ((1u << lane) - 1u)); }
inline unsigned lane_at(unsigned mask, unsigned rank) {
  for (unsigned i = 0; i < rank; ++i) mask &= mask - 1;
  return static_cast<unsigned>(__builtin_ctz(mask));
}

// The lanes of a group of at most a warp (tiles, coalesced groups), for the partitions.
struct group_lanes;

// A tile of more than a warp: its threads wait for each other through the engine's block waits (one
// counter per tile of the block, on this host thread, which runs one block at a time). A thread that
// unwinds from the wait (its block ended early) leaves the counter as a new block needs it.
struct big_tile_barrier {
  unsigned arrived = 0;
  unsigned generation = 0;
};
// Not instrumented: the counters are the engine's bookkeeping, not the kernel's shared memory, which
// racecheck would otherwise see written by every thread of the tile.
GPULAB_SIM_UNCHECKED inline big_tile_barrier& big_tile_barrier_of(unsigned tile) {
  static thread_local big_tile_barrier barriers[1024 / 64];
  return barriers[tile];
}
GPULAB_SIM_UNCHECKED inline void big_tile_sync(unsigned tile, unsigned threads, const std::source_location& where) {
  __syncwarp(warp_lanes_of_block(), where);
  big_tile_barrier& b = big_tile_barrier_of(tile);
  if (++b.arrived == threads) {
    b.arrived = 0;
    ++b.generation;
    gpulab::sim::detail::block_notify(&b, true);
    return;
  }
  struct reset_on_unwind {
    big_tile_barrier& b;
    const int exceptions = std::uncaught_exceptions();
    ~reset_on_unwind() {
      if (std::uncaught_exceptions() > exceptions) b = big_tile_barrier{};
    }
  } guard{b};
  const unsigned generation = b.generation;
  while (b.generation == generation) gpulab::sim::detail::block_wait(&b, "thread_block_tile::sync", where);
}

[[noreturn]] inline void refuse(const char* what, const std::source_location& where) {
  gpulab::sim::detail::kernel_abort(what, where);
}

// A group's shuffle moves any trivially copyable type, as CUDA's do: a value of more than the engine's
// 8-byte exchange moves a word at a time (uint4, a struct of doubles), each word one warp exchange.
template <class T, class ShuffleWord>
T shuffle_words(const T& value, ShuffleWord shuffle_word) {
  static_assert(std::is_trivially_copyable_v<T>, "cooperative_groups shuffles move trivially copyable types");
  if constexpr (sizeof(T) <= 8) {
    return shuffle_word(value);
  } else {
    constexpr std::size_t words = (sizeof(T) + 7) / 8;
    std::uint64_t in[words] = {};
    std::memcpy(in, &value, sizeof(T));
    std::uint64_t out[words];
    for (std::size_t i = 0; i < words; ++i) out[i] = shuffle_word(in[i]);
    T result = value;
    std::memcpy(&result, out, sizeof(T));
    return result;
  }
}

// What a tile of more than a warp exchanges through: a slot per tile (a block has at most 1024 / 64
// of them) or per warp, on this host thread, which runs one block at a time. Raw bytes, so that T
// need not be default-constructible; not instrumented, being the engine's stand-in for the hardware's
// own exchange (CUDA's block_tile_memory), not the kernel's shared memory.
template <class T, unsigned Slots>
GPULAB_SIM_UNCHECKED inline unsigned char* big_tile_slot(unsigned slot) {
  alignas(std::max_align_t) static thread_local unsigned char bytes[Slots][sizeof(T)];
  return bytes[slot];
}
template <class T, unsigned Slots>
GPULAB_SIM_UNCHECKED inline void store_slot(unsigned slot, const T& value) {
  std::memcpy(big_tile_slot<T, Slots>(slot), &value, sizeof(T));
}
// `like` gives the result its initial bits, which the slot's then replace.
template <class T, unsigned Slots>
GPULAB_SIM_UNCHECKED inline T load_slot(unsigned slot, const T& like) {
  T value = like;
  std::memcpy(&value, big_tile_slot<T, Slots>(slot), sizeof(T));
  return value;
}

}  // namespace details

// ---- the grid of a cooperative launch ----
class grid_group {
 public:
  // Every thread of the grid arrives before any goes on. Only in a cooperative launch
  // (cudaLaunchCooperativeKernel); elsewhere a fault naming the kernel, as CUDA's traps.
  void sync(const std::source_location where = std::source_location::current()) const {
    gpulab::sim::detail::grid_sync(where);
  }
  bool is_valid() const { return gpulab::sim::detail::grid_launch_is_cooperative(); }
  static unsigned long long block_rank() {
    return blockIdx.x + static_cast<unsigned long long>(gridDim.x) * (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
  }
  static unsigned long long num_blocks() {
    return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z;
  }
  static unsigned long long num_threads() { return num_blocks() * details::block_size(); }
  static unsigned long long size() { return num_threads(); }
  static unsigned long long thread_rank() { return block_rank() * details::block_size() + details::block_thread_rank(); }
  static dim3 dim_blocks() { return dim3(gridDim.x, gridDim.y, gridDim.z); }
  static dim3 group_dim() { return dim_blocks(); }
  static dim3 block_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static dim3 dim_threads() { return dim3(gridDim.x * blockDim.x, gridDim.y * blockDim.y, gridDim.z * blockDim.z); }
  static dim3 thread_index() {
    return dim3(blockIdx.x * blockDim.x + threadIdx.x, blockIdx.y * blockDim.y + threadIdx.y,
                blockIdx.z * blockDim.z + threadIdx.z);
  }
};

inline grid_group this_grid() { return grid_group{}; }

// Multi-device cooperative launches are gone from CUDA 13 and not simulated.
template <int Refused = 0>
void this_multi_grid() {
  static_assert(Refused != 0, "cooperative_groups::this_multi_grid: multi-device cooperative launches are not "
                              "supported by gpulab's simulator (CUDA 13 removed them)");
}

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

// The shared memory a GPU before sm_80 needs for tiles of more than a warp. The simulator's tiles
// exchange through their own slots, so the scratch is only storage of the size CUDA gives it.
template <unsigned MaxBlockSize = 1024>
struct block_tile_memory {
  static_assert(MaxBlockSize >= 1 && MaxBlockSize <= 1024, "block_tile_memory<MaxBlockSize>: 1 to 1024 threads");
  alignas(16) unsigned char scratch[(MaxBlockSize / 32 > 0 ? MaxBlockSize / 32 : 1) * 8 + 16];
};
template <unsigned MaxBlockSize>
inline thread_block this_thread_block(block_tile_memory<MaxBlockSize>&) {
  return thread_block{};
}

// ---- static tiles: thread_block_tile<N> is the tile as a parameter type, thread_block_tile<N, Parent>
// what tiled_partition<N>(parent) returns, which converts to it ----
template <unsigned N, class Parent = void>
class thread_block_tile;

// A tile of more than a warp (64 to 1024 threads, as CUDA allows): sync and ranks, no shuffles or votes
// (CUDA has none for them either).
template <unsigned N>
class big_thread_block_tile {
 public:
  static constexpr unsigned num_threads_v = N;

  big_thread_block_tile(unsigned meta_rank, unsigned meta_size) : meta_rank_(meta_rank), meta_size_(meta_size) {}

  void sync(const std::source_location where = std::source_location::current()) const {
    const unsigned first = meta_rank_ * N;
    const unsigned block = details::block_size();
    details::big_tile_sync(meta_rank_, block - first < N ? block - first : N, where);
  }
  unsigned thread_rank() const { return details::block_thread_rank() % N; }
  static constexpr unsigned size() { return N; }
  static constexpr unsigned num_threads() { return N; }
  unsigned meta_group_rank() const { return meta_rank_; }
  unsigned meta_group_size() const { return meta_size_; }

  // Every thread of the tile names the same src_rank, as CUDA requires of tiles over a warp: a
  // broadcast through the tile's slot, between syncs.
  template <class T>
  T shfl(T var, unsigned src_rank, const std::source_location where = std::source_location::current()) const {
    static_assert(std::is_trivially_copyable_v<T>, "thread_block_tile<N>::shfl moves trivially copyable types");
    sync(where);
    if (thread_rank() == src_rank % N) details::store_slot<T, 1024 / 64>(meta_rank_, var);
    sync(where);
    const T result = details::load_slot<T, 1024 / 64>(meta_rank_, var);
    sync(where);
    return result;
  }
  int any(int predicate, const std::source_location where = std::source_location::current()) const {
    return count(predicate, where) != 0;
  }
  int all(int predicate, const std::source_location where = std::source_location::current()) const {
    return count(predicate, where) == threads();
  }

  // The tile's threads in the block: a block's last tile may have fewer than N.
  unsigned threads() const {
    const unsigned first = meta_rank_ * N, block = details::block_size();
    return block - first < N ? block - first : N;
  }

 private:
  GPULAB_SIM_UNCHECKED unsigned count(int predicate, const std::source_location& where) const {
    unsigned* counter = reinterpret_cast<unsigned*>(details::big_tile_slot<unsigned, 1024 / 64>(meta_rank_));
    sync(where);
    if (thread_rank() == 0) *counter = 0;
    sync(where);
    if (predicate) ++*counter;
    sync(where);
    const unsigned total = *counter;
    sync(where);
    return total;
  }
  unsigned meta_rank_ = 0, meta_size_ = 0;
};

template <unsigned N>
class thread_block_tile<N, void> {
  static_assert(N == 1 || N == 2 || N == 4 || N == 8 || N == 16 || N == 32,
                "tiled_partition<N>: N is a power of two from 1 to 1024 (tiles over 32 come from a thread block)");
  friend struct details::group_lanes;

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
    return details::shuffle_words(var, [&](auto word) { return __shfl_sync(mask_, word, src_rank, static_cast<int>(N), where); });
  }
  template <class T>
  T shfl_up(T var, unsigned delta, const std::source_location where = std::source_location::current()) const {
    return details::shuffle_words(var, [&](auto word) { return __shfl_up_sync(mask_, word, delta, static_cast<int>(N), where); });
  }
  template <class T>
  T shfl_down(T var, unsigned delta, const std::source_location where = std::source_location::current()) const {
    return details::shuffle_words(var, [&](auto word) { return __shfl_down_sync(mask_, word, delta, static_cast<int>(N), where); });
  }
  template <class T>
  T shfl_xor(T var, unsigned lane_mask, const std::source_location where = std::source_location::current()) const {
    return details::shuffle_words(var, [&](auto word) { return __shfl_xor_sync(mask_, word, static_cast<int>(lane_mask), static_cast<int>(N), where); });
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

#define GPULAB_CG_BIG_TILE(N)                                                                         \
  template <>                                                                                        \
  class thread_block_tile<N, void> : public big_thread_block_tile<N> {                                \
   public:                                                                                           \
    using big_thread_block_tile<N>::big_thread_block_tile;                                            \
  };
GPULAB_CG_BIG_TILE(64)
GPULAB_CG_BIG_TILE(128)
GPULAB_CG_BIG_TILE(256)
GPULAB_CG_BIG_TILE(512)
GPULAB_CG_BIG_TILE(1024)
#undef GPULAB_CG_BIG_TILE

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
    static_assert(N <= 32 && Parent::num_threads_v >= N,
                  "a tile is partitioned from a thread block or from a larger tile (tiles over 32 from a block only)");
  }
  return thread_block_tile<N, Parent>(parent);
}

// ---- the coalesced group: the warp's threads that are active where it is made ----
class coalesced_group {
  friend struct details::group_lanes;

 public:
  explicit coalesced_group(unsigned mask, unsigned meta_rank = 0, unsigned meta_size = 1)
      : mask_(mask), meta_rank_(meta_rank), meta_size_(meta_size) {}

  unsigned meta_group_rank() const { return meta_rank_; }
  unsigned meta_group_size() const { return meta_size_; }

  void sync(const std::source_location where = std::source_location::current()) const { __syncwarp(mask_, where); }
  unsigned thread_rank() const { return rank_of(details::block_thread_rank() & 31u); }
  unsigned size() const { return static_cast<unsigned>(__builtin_popcount(mask_)); }
  unsigned num_threads() const { return size(); }

  // The thread of rank `src_rank` (modulo the group's size) is the lane of the mask's src_rank-th bit.
  template <class T>
  T shfl(T var, unsigned src_rank, const std::source_location where = std::source_location::current()) const {
    return details::shuffle_words(var, [&](auto word) { return __shfl_sync(mask_, word, static_cast<int>(lane_of(src_rank % static_cast<unsigned>(size()))), 32, where); });
  }
  template <class T>
  T shfl_up(T var, unsigned delta, const std::source_location where = std::source_location::current()) const {
    const unsigned rank = static_cast<unsigned>(thread_rank());
    return details::shuffle_words(var, [&](auto word) { return __shfl_sync(mask_, word, static_cast<int>(lane_of(rank >= delta ? rank - delta : rank)), 32, where); });
  }
  template <class T>
  T shfl_down(T var, unsigned delta, const std::source_location where = std::source_location::current()) const {
    const unsigned rank = static_cast<unsigned>(thread_rank());
    return details::shuffle_words(var, [&](auto word) { return __shfl_sync(mask_, word, static_cast<int>(lane_of(rank + delta < size() ? rank + delta : rank)), 32, where); });
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
  unsigned lane_of(unsigned rank) const { return details::lane_at(mask_, rank); }
  unsigned mask_;
  unsigned meta_rank_ = 0, meta_size_ = 1;
};

inline coalesced_group coalesced_threads(const std::source_location where = std::source_location::current()) {
  return coalesced_group(__activemask(where));
}

namespace details {
struct group_lanes {
  template <unsigned N>
  static unsigned of(const thread_block_tile<N, void>& tile) {
    return tile.mask_;
  }
  static unsigned of(const coalesced_group& group) { return group.mask_; }
};
}  // namespace details

// ---- thread_group: any group, as a value (what the run-time tiled_partition returns) ----
class thread_group {
 public:
  thread_group(const thread_block&) : kind_(kind::block) {}
  template <unsigned N, class Parent>
  thread_group(const thread_block_tile<N, Parent>& tile)  // NOLINT: converts, as CUDA's does
      : kind_(N <= 32 ? kind::lanes : kind::big_tile), size_(N), meta_rank_(tile.meta_group_rank()),
        meta_size_(tile.meta_group_size()) {
    if constexpr (N <= 32) mask_ = details::group_lanes::of(tile);
  }
  thread_group(const coalesced_group& group)  // NOLINT: converts, as CUDA's does
      : kind_(kind::lanes), mask_(details::group_lanes::of(group)), size_(group.size()),
        meta_rank_(group.meta_group_rank()), meta_size_(group.meta_group_size()) {}

  void sync(const std::source_location where = std::source_location::current()) const {
    switch (kind_) {
      case kind::block: __syncthreads(where); break;
      case kind::lanes: __syncwarp(mask_, where); break;
      case kind::big_tile: {
        const unsigned first = meta_rank_ * size_, block = details::block_size();
        details::big_tile_sync(meta_rank_, block - first < size_ ? block - first : size_, where);
        break;
      }
    }
  }
  unsigned long long thread_rank() const {
    switch (kind_) {
      case kind::block: return details::block_thread_rank();
      case kind::lanes: return details::rank_in(mask_, details::lane_id());
      default: return details::block_thread_rank() % size_;
    }
  }
  unsigned long long num_threads() const { return kind_ == kind::block ? details::block_size() : size_; }
  unsigned long long size() const { return num_threads(); }

 private:
  enum class kind : unsigned char { block, lanes, big_tile };
  friend thread_group tiled_partition(const thread_group& parent, unsigned tile_size, std::source_location where);
  thread_group(unsigned mask, unsigned size, unsigned meta_rank, unsigned meta_size)
      : kind_(kind::lanes), mask_(mask), size_(size), meta_rank_(meta_rank), meta_size_(meta_size) {}

  kind kind_;
  unsigned mask_ = 0;  // kind::lanes: the group's lanes of the caller's warp
  unsigned size_ = 0;  // kind::lanes and big_tile: its threads
  // Its index among its parent's tiles and their count (CUDA's thread_group does not expose them).
  unsigned meta_rank_ = 0, meta_size_ = 1;
};

// The run-time tile: tiles of `tile_size` threads in rank order, a power of two up to 32 as CUDA allows
// (larger tiles are tiled_partition<N> only). A tile of the last, partial warp of a block has only the
// block's threads.
inline thread_group tiled_partition(const thread_group& parent, unsigned tile_size,
                                    std::source_location where = std::source_location::current()) {
  if (tile_size == 0 || tile_size > 32 || (tile_size & (tile_size - 1)) != 0) {
    details::refuse("cooperative_groups::tiled_partition(parent, n) at run time takes n = 1, 2, 4, 8, 16 or 32 (as "
                    "CUDA's): use tiled_partition<N>(block) for tiles of 64 to 1024 threads",
                    where);
  }
  if (tile_size > parent.num_threads()) {
    details::refuse("cooperative_groups::tiled_partition(parent, n): n exceeds the parent group's size", where);
  }
  const unsigned n = tile_size;
  if (parent.kind_ != thread_group::kind::lanes) {
    // A block or a tile of whole warps: tiles are aligned runs of lanes.
    const unsigned lane = details::lane_id();
    const unsigned first = lane & ~(n - 1);
    const unsigned lanes = (n == 32 ? 0xffffffffu : ((1u << n) - 1u) << first) & details::warp_lanes_of_block();
    const unsigned rank = static_cast<unsigned>(parent.thread_rank());
    const auto parent_size = static_cast<unsigned>(parent.num_threads());
    return thread_group(lanes, n, rank / n, (parent_size + n - 1) / n);
  }
  // A group of lanes: tiles of consecutive ranks.
  const unsigned rank = details::rank_in(parent.mask_, details::lane_id());
  const unsigned tile = rank / n;
  unsigned lanes = 0;
  for (unsigned r = tile * n; r < tile * n + n && r < parent.size_; ++r) lanes |= 1u << details::lane_at(parent.mask_, r);
  return thread_group(lanes, n, tile, (parent.size_ + n - 1) / n);
}
inline thread_group tiled_partition(const thread_block& parent, unsigned tile_size,
                                    std::source_location where = std::source_location::current()) {
  return tiled_partition(thread_group(parent), tile_size, where);
}

// ---- partitions of a group of at most a warp, into coalesced groups ----
// The threads of the group with the same label (an integer), each partition ranked in lane order.
template <class Group, class Label>
coalesced_group labeled_partition(const Group& group, Label label,
                                  const std::source_location where = std::source_location::current()) {
  static_assert(std::is_integral_v<Label>, "cooperative_groups::labeled_partition: the label is an integer");
  return coalesced_group(__match_any_sync(details::group_lanes::of(group), label, where));
}
// The threads of the group whose predicate agrees with the caller's.
template <class Group>
coalesced_group binary_partition(const Group& group, bool predicate,
                                 const std::source_location where = std::source_location::current()) {
  const unsigned lanes = details::group_lanes::of(group);
  const unsigned set = __ballot_sync(lanes, predicate, where);
  return coalesced_group(predicate ? set & lanes : lanes & ~set);
}

template <class Group>
inline void sync(const Group& g, const std::source_location where = std::source_location::current()) {
  g.sync(where);
}

// ---- one thread of a group acts for it ----
template <class Group, class Fn, class... Args>
void invoke_one(const Group& group, Fn&& fn, Args&&... args) {
  if (group.thread_rank() == 0) static_cast<Fn&&>(fn)(static_cast<Args&&>(args)...);
}
// ... and its result goes to every thread of the group (a group of at most a warp).
template <class Group, class Fn, class... Args>
auto invoke_one_broadcast(const Group& group, Fn&& fn, Args&&... args) {
  using Result = std::invoke_result_t<Fn, Args...>;
  static_assert(!std::is_void_v<Result>, "cooperative_groups::invoke_one_broadcast: the callable returns a value");
  Result value{};
  if (group.thread_rank() == 0) value = static_cast<Fn&&>(fn)(static_cast<Args&&>(args)...);
  return group.shfl(value, 0);
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
  if constexpr (N <= 32) {
    for (unsigned offset = N / 2; offset > 0; offset /= 2) value = op(value, tile.shfl_xor(value, offset));
    return value;
  } else {
    // A tile of several warps: every thread's value goes to its slot (by rank in the block), and each
    // thread folds its tile's slots in rank order, so that every thread gets the same result.
    static_assert(std::is_trivially_copyable_v<T>, "cooperative_groups::reduce moves trivially copyable types");
    const unsigned rank = details::block_thread_rank();
    const unsigned first = rank - tile.thread_rank();
    tile.sync();
    details::store_slot<T, 1024>(rank, value);
    tile.sync();
    T total = details::load_slot<T, 1024>(first, value);
    for (unsigned r = 1; r < tile.threads(); ++r) total = op(total, details::load_slot<T, 1024>(first + r, value));
    tile.sync();
    return total;
  }
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
