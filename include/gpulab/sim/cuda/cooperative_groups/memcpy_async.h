#pragma once
// gpulab-simcc's shadow of CUDA's <cooperative_groups/memcpy_async.h>: cg::memcpy_async, cg::wait and
// cg::wait_prior<N>. The group's threads copy at once (each its share, in rank order); CUDA promises the
// bytes only after the wait, so copying earlier is one of the orders a GPU may show. The wait is the
// group's sync, which orders the copy's writes before every thread's reads for racecheck, as CUDA's wait
// does: a read of the destination before the wait is still reported.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../cooperative_groups.h"

namespace cooperative_groups {

// Copies `bytes` bytes from `src` to `dst` (shared or global memory) on behalf of the whole group; every
// thread of the group calls it with the same arguments.
template <class Group, class Size>
void memcpy_async(const Group& group, void* dst, const void* src, const Size& bytes) {
  static_assert(std::is_convertible_v<Size, std::size_t>, "cooperative_groups::memcpy_async: a size in bytes");
  const auto count = static_cast<std::size_t>(bytes);
  const auto rank = static_cast<std::size_t>(group.thread_rank());
  const auto threads = static_cast<std::size_t>(group.num_threads());
  if (((reinterpret_cast<std::uintptr_t>(dst) | reinterpret_cast<std::uintptr_t>(src) | count) & 3) == 0) {
    auto* to = static_cast<std::uint32_t*>(dst);
    const auto* from = static_cast<const std::uint32_t*>(src);
    for (std::size_t i = rank; i < count / 4; i += threads) to[i] = from[i];
    return;
  }
  auto* to = static_cast<unsigned char*>(dst);
  const auto* from = static_cast<const unsigned char*>(src);
  for (std::size_t i = rank; i < count; i += threads) to[i] = from[i];
}

// The element form: `dst_count` elements of `dst` receive the first `src_count` of `src` (CUDA requires
// them equal or the destination larger).
template <class Group, class T>
void memcpy_async(const Group& group, T* dst, std::size_t dst_count, const T* src, std::size_t src_count) {
  static_assert(std::is_trivially_copyable_v<T>, "cooperative_groups::memcpy_async: trivially copyable elements");
  memcpy_async(group, static_cast<void*>(dst), static_cast<const void*>(src),
               (dst_count < src_count ? dst_count : src_count) * sizeof(T));
}

// Waits for the group's copies: all of them (wait), or all but the latest N (wait_prior<N>); the
// simulator's copies are done already, so both are the group's sync.
template <class Group>
void wait(const Group& group, const std::source_location where = std::source_location::current()) {
  group.sync(where);
}
template <unsigned N, class Group>
void wait_prior(const Group& group, const std::source_location where = std::source_location::current()) {
  group.sync(where);
}

}  // namespace cooperative_groups
