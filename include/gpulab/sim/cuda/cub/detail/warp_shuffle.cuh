#pragma once
// The simulator's CUB (../config.cuh): shuffles of any trivially copyable T, word by word, as CUB's
// ShuffleIndex/Up/Down move a T in 32-bit pieces; and the lanes of a logical warp.
#include <cstring>
#include <type_traits>

#include <cub/config.cuh>

namespace cub::detail {

enum class shuffle_kind { index, up, down };

template <shuffle_kind Kind, typename T>
__device__ T shuffle(T value, int arg, int width, unsigned member_mask) {
  static_assert(std::is_trivially_copyable_v<T>, "CUB's warp collectives move values by shuffles: T must be trivially copyable");
  constexpr int kWords = static_cast<int>((sizeof(T) + 3) / 4);
  unsigned words[kWords] = {};
  std::memcpy(words, &value, sizeof(T));
  for (int i = 0; i < kWords; ++i) {
    if constexpr (Kind == shuffle_kind::index) {
      words[i] = __shfl_sync(member_mask, words[i], arg, width);
    } else if constexpr (Kind == shuffle_kind::up) {
      words[i] = __shfl_up_sync(member_mask, words[i], static_cast<unsigned>(arg), width);
    } else {
      words[i] = __shfl_down_sync(member_mask, words[i], static_cast<unsigned>(arg), width);
    }
  }
  T out;
  std::memcpy(&out, words, sizeof(T));
  return out;
}

// The calling thread's linear index in its block, x fastest.
__device__ inline unsigned linear_tid() { return threadIdx.x + (threadIdx.y + threadIdx.z * blockDim.y) * blockDim.x; }

// The lanes of the calling thread's logical warp of `width` lanes (a power of two up to 32) that exist:
// a block whose size is no multiple of 32 leaves its last warp short.
__device__ inline unsigned logical_warp_mask(int width) {
  const unsigned tid = linear_tid();
  const unsigned block_threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned warp_base = tid & ~31u;
  const unsigned present = block_threads - warp_base >= 32 ? 32 : block_threads - warp_base;
  const unsigned present_mask = present == 32 ? 0xffffffffu : (1u << present) - 1;
  const unsigned lane = tid & 31u;
  const unsigned first = lane & ~static_cast<unsigned>(width - 1);
  const unsigned width_mask = width == 32 ? 0xffffffffu : ((1u << width) - 1) << first;
  return width_mask & present_mask;
}

// How many lanes of the calling thread's logical warp exist (the warp's lanes from its first).
__device__ inline int logical_warp_size(int width) { return __builtin_popcount(logical_warp_mask(width)); }

}  // namespace cub::detail
