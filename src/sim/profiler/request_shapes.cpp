#include "sim/profiler/request_shapes.hpp"

#include <algorithm>
#include <array>

namespace gpulab::sim::detail {

std::size_t distinct_sectors(const std::uintptr_t* address, std::uint32_t mask, std::size_t bytes,
                             std::uint64_t* sectors, std::size_t room) {
  if (mask == 0 || bytes == 0) return 0;
  std::array<std::uint64_t, 64> local;
  std::uint64_t* out = sectors != nullptr ? sectors : local.data();
  const std::size_t cap = sectors != nullptr ? room : local.size();
  // The active lanes' addresses, in lane order (a full warp, the usual case, as given).
  std::array<std::uintptr_t, 32> dense;
  const std::uintptr_t* a = address;
  std::size_t lanes = 32;
  if (mask != 0xffffffffu) {
    lanes = 0;
    for (std::uint32_t m = mask; m != 0; m &= m - 1) dense[lanes++] = address[__builtin_ctz(m)];
    a = dense.data();
  }
  // The common shapes (coalesced, broadcast, strided upward, each lane within one sector) give the
  // lanes' sectors in ascending order: the distinct ones are then the changes along the lanes, listed
  // branch-free (the compiler vectorises the passes).
  if (cap >= 32) {
    std::array<std::uint64_t, 32> sector;
    bool simple = true;
    for (std::size_t l = 0; l < lanes; ++l) {
      sector[l] = a[l] / sector_bytes;
      simple &= (a[l] % sector_bytes) + bytes <= sector_bytes;
    }
    for (std::size_t l = 1; l < lanes; ++l) simple &= sector[l] >= sector[l - 1];
    if (simple) {
      std::size_t n = 1;
      out[0] = sector[0];
      for (std::size_t l = 1; l < lanes; ++l) {
        out[n] = sector[l];
        n += sector[l] != sector[l - 1] ? 1 : 0;
      }
      return n;
    }
  }
  // Anything else: every sector of every lane, once each, through a small open-addressing set (faster
  // than a sort for a warp's few dozen sectors); accesses so wide that the set would fill are sorted.
  constexpr std::size_t slots = 64;
  std::array<std::uint64_t, slots> seen;  // sector + 1; 0 is empty
  seen.fill(0);
  std::size_t n = 0, distinct = 0;
  bool overflow = false;
  for (std::size_t l = 0; l < lanes && !overflow; ++l) {
    for (std::uint64_t s = a[l] / sector_bytes; s <= (a[l] + bytes - 1) / sector_bytes; ++s) {
      if (distinct >= slots * 5 / 8) {
        overflow = true;
        break;
      }
      std::size_t h = static_cast<std::size_t>((s * 0x9E3779B97F4A7C15ull) >> 58);
      while (seen[h] != 0 && seen[h] != s + 1) h = (h + 1) % slots;
      if (seen[h] != 0) continue;
      seen[h] = s + 1;
      ++distinct;
      if (n < cap) out[n++] = s;
    }
  }
  if (!overflow) return distinct;
  n = 0;
  std::size_t wide = 0;  // sectors beyond `cap`, counted but not listed
  for (std::size_t l = 0; l < lanes; ++l) {
    for (std::uint64_t s = a[l] / sector_bytes; s <= (a[l] + bytes - 1) / sector_bytes; ++s) {
      if (n < cap) {
        out[n++] = s;
      } else {
        ++wide;
      }
    }
  }
  std::sort(out, out + n);
  n = static_cast<std::size_t>(std::unique(out, out + n) - out);
  return n + wide;
}

namespace {

// The wavefronts of the lanes of `mask` in one phase: the most distinct words in one bank.
std::size_t phase_wavefronts(const std::uintptr_t* address, std::uint32_t mask, std::size_t bytes) {
  // The common case first: every bank holds at most one distinct word (a row, a padded column, a
  // broadcast), told in one pass with a word per bank.
  if (bytes <= bank_bytes) {
    std::array<std::uint64_t, shared_banks> held;  // word + 1; 0: none yet
    held.fill(0);
    bool one_each = true;
    for (std::uint32_t m = mask; m != 0 && one_each; m &= m - 1) {
      const std::uintptr_t a = address[__builtin_ctz(m)];
      const std::uint64_t w = a / bank_bytes;
      if (w != (a + bytes - 1) / bank_bytes) {
        one_each = false;
        break;
      }
      std::uint64_t& h = held[w % shared_banks];
      if (h == 0) {
        h = w + 1;
      } else if (h != w + 1) {
        one_each = false;
      }
    }
    if (one_each) return 1;
  }
  std::array<std::uint64_t, 32 * 4> words;
  std::size_t n = 0;
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const std::uintptr_t a = address[__builtin_ctz(m)];
    for (std::uint64_t w = a / bank_bytes; w <= (a + bytes - 1) / bank_bytes && n < words.size(); ++w) {
      words[n++] = w;
    }
  }
  std::sort(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(n));
  n = static_cast<std::size_t>(std::unique(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(n)) - words.begin());
  std::array<std::size_t, shared_banks> per_bank{};
  std::size_t most = 0;
  for (std::size_t i = 0; i < n; ++i) most = std::max(most, ++per_bank[words[i] % shared_banks]);
  return most;
}

}  // namespace

SharedCost shared_cost(const std::uintptr_t* address, std::uint32_t mask, std::size_t bytes) {
  if (mask == 0 || bytes == 0) return {};
  // 4-byte accesses (or narrower) in one phase of 32 lanes; 8-byte in two of 16; 16-byte (or wider) in
  // four of 8.
  const unsigned phases = bytes <= 4 ? 1 : bytes <= 8 ? 2 : 4;
  const unsigned lanes = 32 / phases;
  SharedCost cost;
  for (unsigned p = 0; p < phases; ++p) {
    const std::uint32_t in_phase = mask & static_cast<std::uint32_t>(((std::uint64_t{1} << lanes) - 1) << (p * lanes));
    if (in_phase == 0) continue;
    cost.wavefronts += phase_wavefronts(address, in_phase, bytes);
    cost.ideal_wavefronts += 1;
  }
  return cost;
}

std::size_t same_address_conflicts(const std::uintptr_t* address, std::uint32_t mask) {
  std::array<std::uintptr_t, 32> a;
  std::size_t n = 0;
  for (std::uint32_t m = mask; m != 0; m &= m - 1) a[n++] = address[__builtin_ctz(m)];
  std::sort(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(n));
  const auto distinct = static_cast<std::size_t>(std::unique(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(n)) - a.begin());
  return n - distinct;
}

}  // namespace gpulab::sim::detail
