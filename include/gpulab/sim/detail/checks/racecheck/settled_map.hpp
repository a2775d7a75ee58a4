#pragma once
#ifndef GPULAB_INSIDE_PUBLIC_HEADER
#error "gpulab/sim/detail/ is the simulator's inside: include <gpulab/kernel.hpp> in a kernel file, <gpulab/gpulab.hpp> in host code"
#endif
// racecheck's map of settled device-memory words (src/sim/checks/racecheck/global_shadow.hpp): one 64-bit
// entry per 128 bytes, the launch it belongs to in the high half and a bit per 4-byte word in the low
// half, updated whole by compare-and-swap. An entry belongs to the launch that last reached the cells of
// its 128 bytes, settled words or not. Dense (a sixteenth of the memory it covers), so that the
// reads it lets through cost little more than the data they read. Shared by the checker and the
// inline test of racecheck.hpp.
#include <cstddef>
#include <cstdint>

namespace gpulab::sim::detail {

inline constexpr std::size_t settled_entry_bytes = 128;

// Whether the 4-byte word at byte `offset` is settled in `launch`.
__attribute__((always_inline, no_sanitize_address, no_sanitize_thread)) inline bool word_settled(const std::uint64_t* map,
                                                                              std::size_t offset,
                                                                              std::uint32_t launch) {
  const std::uint64_t entry = __atomic_load_n(&map[offset / settled_entry_bytes], __ATOMIC_RELAXED);
  // The bit shifted out of the low half as 32 bits: the shift count's mask is then the hardware's own.
  const auto bits = static_cast<std::uint32_t>(entry);
  return (entry >> 32) == launch && ((bits >> ((offset / 4) % 32)) & 1u) != 0;
}

// Whether every word of [offset, offset + bytes) is settled in `launch` (whole words only).
__attribute__((always_inline, no_sanitize_address, no_sanitize_thread)) inline bool words_settled(const std::uint64_t* map,
                                                                               std::size_t offset, std::size_t bytes,
                                                                               std::uint32_t launch) {
  if (((offset | bytes) & 3) != 0) return false;
  for (std::size_t i = 0; i < bytes / 4; ++i) {  // counted, not bounded by offset + bytes: nothing can wrap
    if (!word_settled(map, offset + 4 * i, launch)) return false;
  }
  return true;
}

// Marks the word at `offset` settled in `launch` (an entry of an older launch starts afresh), or
// unsettled (a write).
inline void mark_word(std::uint64_t* map, std::size_t offset, std::uint32_t launch, bool settled) {
  std::uint64_t* entry = &map[offset / settled_entry_bytes];
  const std::uint64_t bit = std::uint64_t{1} << ((offset / 4) % 32);
  std::uint64_t old = __atomic_load_n(entry, __ATOMIC_RELAXED);
  for (;;) {
    const bool current = (old >> 32) == launch;
    if (!settled && !current) return;  // nothing of this launch to clear
    const std::uint64_t bits = current ? old & 0xffffffffu : 0;
    const std::uint64_t next = std::uint64_t{launch} << 32 | (settled ? bits | bit : bits & ~bit);
    if (next == old || __atomic_compare_exchange_n(entry, &old, next, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return;
  }
}

// Makes the entry of `offset` belong to `launch` (no word settled) if it did not; returns whether it
// did not (the launch reaches these 128 bytes' cells for the first time).
inline bool touch_entry(std::uint64_t* map, std::size_t offset, std::uint32_t launch) {
  std::uint64_t* entry = &map[offset / settled_entry_bytes];
  std::uint64_t old = __atomic_load_n(entry, __ATOMIC_RELAXED);
  while ((old >> 32) != launch) {
    if (__atomic_compare_exchange_n(entry, &old, std::uint64_t{launch} << 32, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
      return true;
    }
  }
  return false;
}

}  // namespace gpulab::sim::detail
