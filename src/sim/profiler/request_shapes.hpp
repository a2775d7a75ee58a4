#pragma once
// What one warp-level memory instruction costs a GPU, from the addresses its lanes gave: the 32-byte
// sectors a global access touches, and the wavefronts a shared-memory access needs on 32 banks of 4
// bytes. Pure functions of the addresses, so that the tests check them against hand-computed answers.
#include <cstddef>
#include <cstdint>

namespace gpulab::sim::detail {

inline constexpr unsigned sector_bytes = 32;
inline constexpr unsigned shared_banks = 32;
inline constexpr unsigned bank_bytes = 4;

// The distinct 32-byte sectors that the accesses [address[l], address[l] + bytes) of the lanes l in
// `mask` touch (an access that straddles a sector boundary touches both). When `sectors` is not null,
// the sector numbers (address / 32) are also written there, each once (ascending for lanes in
// ascending order, else in no particular order): room for
// 2 * 32 is enough for accesses of at most 32 bytes (more: every sector of the span).
std::size_t distinct_sectors(const std::uintptr_t* address, std::uint32_t mask, std::size_t bytes,
                             std::uint64_t* sectors, std::size_t room);

// What a shared-memory access costs. The banks serve one 4-byte word each per wavefront, and a word read
// by several lanes is served once (the broadcast rule); a wavefront also returns at most 128 bytes, so a
// warp's 8-byte accesses are served by half-warps and its 16-byte accesses by quarter-warps, one phase
// after another. A phase needs as many wavefronts as the most distinct words any one bank holds among
// those its lanes touch (each word of a wide access counts); with no conflict, one. The wavefronts
// beyond one per phase that has an active lane are the access's bank conflicts.
struct SharedCost {
  std::size_t wavefronts = 0;
  std::size_t ideal_wavefronts = 0;
};
SharedCost shared_cost(const std::uintptr_t* address, std::uint32_t mask, std::size_t bytes);

// Lanes of an atomic instruction beyond the first on each address: the updates a GPU serialises.
std::size_t same_address_conflicts(const std::uintptr_t* address, std::uint32_t mask);

}  // namespace gpulab::sim::detail
