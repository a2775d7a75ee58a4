#include "backends/sim/device_memory.hpp"

#include <sys/mman.h>

#include <cstring>

#include <gpulab/error.hpp>
#include <gpulab/sim/checked_access.hpp>

#include "backends/sim/global_race_shadow.hpp"
#include "runtime/env.hpp"

namespace gpulab::sim::detail {

namespace {

constexpr std::size_t alignment = 256;  // cudaMalloc's
constexpr std::size_t gap = 256;        // unowned bytes after each buffer
constexpr std::size_t large_free = std::size_t{1} << 20;

std::size_t round_up(std::size_t n, std::size_t a) { return (n + a - 1) / a * a; }

void* reserve(std::size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

}  // namespace

std::size_t DeviceMemory::configured_limit() {
  if (auto text = gpulab::detail::env_value("GPULAB_SIM_MEMORY")) {
    const std::size_t bytes = gpulab::detail::parse_byte_size(*text, "GPULAB_SIM_MEMORY");
    if (bytes == 0) throw InvalidArgument("GPULAB_SIM_MEMORY=0: the sim device needs some memory");
    return bytes;
  }
  return std::size_t{4} << 30;
}

DeviceMemory::DeviceMemory(std::size_t limit) : limit_(limit) {
  // Room for the gaps and for fragmentation; address space only, memory comes when touched.
  reserved_ = round_up(limit + limit / 2 + (std::size_t{64} << 20), std::size_t{1} << 21);
  void* arena = reserve(reserved_);
  void* shadow = arena != nullptr ? reserve(reserved_ / 8) : nullptr;
  void* init = shadow != nullptr ? reserve(reserved_) : nullptr;
  if (init == nullptr) {
    if (arena != nullptr) munmap(arena, reserved_);
    if (shadow != nullptr) munmap(shadow, reserved_ / 8);
    throw OutOfMemory("sim (reserving address space for GPULAB_SIM_MEMORY)", limit, 0, limit);
  }
  base_ = reinterpret_cast<std::uintptr_t>(arena);
  shadow_ = static_cast<std::uint8_t*>(shadow);
  initialized_ = static_cast<std::uint8_t*>(init);
  free_.emplace(base_, reserved_);
}

DeviceMemory::~DeviceMemory() {
  munmap(reinterpret_cast<void*>(base_), reserved_);
  munmap(shadow_, reserved_ / 8);
  munmap(initialized_, reserved_);
}

GlobalRaceShadow& DeviceMemory::enable_global_races() {
  std::lock_guard lock(mutex_);
  if (!races_owner_) {
    races_owner_ = std::make_unique<GlobalRaceShadow>(base_, reserved_);
    races_.store(races_owner_.get(), std::memory_order_release);
  }
  return *races_owner_;
}

std::size_t DeviceMemory::used() const {
  std::lock_guard lock(mutex_);
  return used_;
}

void* DeviceMemory::allocate(std::size_t bytes) {
  const std::size_t rounded = round_up(bytes == 0 ? 1 : bytes, alignment);
  const std::size_t span = rounded + gap;
  std::lock_guard lock(mutex_);
  if (used_ + rounded > limit_) throw OutOfMemory("sim", bytes, limit_ - used_, limit_);
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < span) continue;
    const std::uintptr_t begin = it->first;
    const std::size_t left = it->second - span;
    free_.erase(it);
    if (left > 0) free_.emplace(begin + span, left);
    live_.emplace(begin, Buffer{begin, bytes, next_id_++});
    used_ += rounded;
    set_shadow(begin, bytes, true);
    return reinterpret_cast<void*>(begin);
  }
  throw OutOfMemory("sim (address space fragmented)", bytes, limit_ - used_, limit_);
}

void DeviceMemory::deallocate(void* p) noexcept {
  if (p == nullptr) return;
  std::lock_guard lock(mutex_);
  const auto it = live_.find(reinterpret_cast<std::uintptr_t>(p));
  if (it == live_.end()) return;
  const Buffer b = it->second;
  live_.erase(it);
  const std::size_t rounded = round_up(b.bytes == 0 ? 1 : b.bytes, alignment);
  used_ -= rounded;
  set_shadow(b.begin, b.bytes, false);  // later accesses are use-after-free for memcheck
  // The next buffer here starts uninitialised (fresh pages are zero, so only marked ones need it).
  if (__atomic_load_n(&init_marked_, __ATOMIC_RELAXED)) std::memset(initialized_ + (b.begin - base_), 0, b.bytes);
  // racecheck's cells of a small buffer stay (their launch numbers make them stale): the next buffer at
  // this address, often the same size, reuses them instead of faulting in and zeroing its cells again
  // (which, at 32 bytes of cell a byte, took as long as the checked launch itself in a bench loop).
  if (races_owner_) {
    races_owner_->unsettle(b.begin, b.bytes);
    if (b.bytes >= large_free) races_owner_->forget(b.begin, b.bytes);
  }
  std::uintptr_t begin = b.begin;
  std::size_t span = rounded + gap;
  if (span >= large_free) madvise(reinterpret_cast<void*>(begin), span, MADV_DONTNEED);
  // Coalesce with the free neighbours.
  auto next = free_.lower_bound(begin);
  if (next != free_.end() && next->first == begin + span) {
    span += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == begin) {
      begin = prev->first;
      span += prev->second;
      free_.erase(prev);
    }
  }
  free_.emplace(begin, span);
}

void DeviceMemory::set_shadow(std::uintptr_t begin, std::size_t bytes, bool live) noexcept {
  const std::size_t first = (begin - base_) / 8;
  const std::size_t full = bytes / 8;
  std::memset(shadow_ + first, live ? 8 : 0, full);
  if (bytes % 8 != 0) shadow_[first + full] = live ? static_cast<std::uint8_t>(bytes % 8) : 0;
}

bool DeviceMemory::addressable(const void* p, std::size_t bytes) const noexcept {
  const std::size_t offset = reinterpret_cast<std::uintptr_t>(p) - base_;
  if (bytes == 0) return true;
  if (offset + bytes > reserved_) return false;
  const std::size_t last = offset + bytes - 1;
  // Buffers start on granule boundaries, so only a buffer's last granule is partial: a byte is live
  // when its index within the granule is below the granule's count.
  for (std::size_t g = offset / 8; g <= last / 8; ++g) {
    const std::size_t hi = g == last / 8 ? last % 8 : 7;
    if (shadow_[g] <= hi) return false;
  }
  return true;
}

std::optional<Buffer> DeviceMemory::buffer_at_or_below(const void* p) const {
  std::lock_guard lock(mutex_);
  auto it = live_.upper_bound(reinterpret_cast<std::uintptr_t>(p));
  if (it == live_.begin()) return std::nullopt;
  return std::prev(it)->second;
}

std::optional<Buffer> DeviceMemory::buffer_above(const void* p) const {
  std::lock_guard lock(mutex_);
  auto it = live_.upper_bound(reinterpret_cast<std::uintptr_t>(p));
  if (it == live_.end()) return std::nullopt;
  return it->second;
}

std::optional<Buffer> DeviceMemory::buffer_of(const void* p) const {
  auto b = buffer_at_or_below(p);
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  if (b && a - b->begin < b->bytes) return b;
  return std::nullopt;
}

void DeviceMemory::mark_initialized(const void* p, std::size_t bytes) noexcept {
  if (!contains(p)) return;
  const std::size_t offset = reinterpret_cast<std::uintptr_t>(p) - base_;
  if (offset + bytes > reserved_) bytes = reserved_ - offset;
  if (!__atomic_load_n(&init_marked_, __ATOMIC_RELAXED)) __atomic_store_n(&init_marked_, true, __ATOMIC_RELAXED);
  // Blocks on other host threads may mark neighbouring bytes: relaxed byte stores, never a read-modify-write.
  for (std::size_t i = 0; i < bytes; ++i) __atomic_store_n(initialized_ + offset + i, 1, __ATOMIC_RELAXED);
}

std::optional<std::size_t> DeviceMemory::first_uninitialized(const void* p, std::size_t bytes) const noexcept {
  const std::size_t offset = reinterpret_cast<std::uintptr_t>(p) - base_;
  if (offset % 4 == 0 && bytes % 4 == 0 && offset + bytes <= reserved_) {
    // Whole words, the common case: a word's four marks at once (a relaxed load of the word, as the
    // marks are stored), the bytes one by one only where one is missing.
    bool all = true;
    for (std::size_t i = 0; i < bytes && all; i += 4) {
      all = four_marks_set(__atomic_load_n(reinterpret_cast<const std::uint32_t*>(initialized_ + offset + i), __ATOMIC_RELAXED));
    }
    if (all) return std::nullopt;
  }
  for (std::size_t i = 0; i < bytes && offset + i < reserved_; ++i) {
    if (__atomic_load_n(initialized_ + offset + i, __ATOMIC_RELAXED) == 0) return i;
  }
  return std::nullopt;
}

}  // namespace gpulab::sim::detail
