#include "sim/engine/device_memory.hpp"

#include <sys/mman.h>

#include <cstring>
#include <iterator>

#include <gpulab/error.hpp>

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
  if (shadow == nullptr) {
    if (arena != nullptr) munmap(arena, reserved_);
    throw OutOfMemory("sim (reserving address space for GPULAB_SIM_MEMORY)", limit, 0, limit);
  }
  base_ = reinterpret_cast<std::uintptr_t>(arena);
  shadow_ = static_cast<std::uint8_t*>(shadow);
  free_.emplace(base_, reserved_);
}

DeviceMemory::~DeviceMemory() {
  munmap(reinterpret_cast<void*>(base_), reserved_);
  munmap(shadow_, reserved_ / 8);
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

std::vector<Buffer> DeviceMemory::buffers_with_ids(std::uint64_t first_id, std::uint64_t end_id) const {
  std::lock_guard lock(mutex_);
  std::vector<Buffer> out;
  for (const auto& [begin, b] : live_) {
    if (b.id >= first_id && b.id < end_id) out.push_back(b);
  }
  return out;
}

std::uint64_t DeviceMemory::next_id() const {
  std::lock_guard lock(mutex_);
  return next_id_;
}

bool DeviceMemory::register_host(const void* p, std::size_t bytes) {
  const auto begin = reinterpret_cast<std::uintptr_t>(p);
  std::lock_guard lock(mutex_);
  auto next = registered_host_.lower_bound(begin);
  if (next != registered_host_.end() && next->first < begin + bytes) return false;
  if (next != registered_host_.begin() && std::prev(next)->first + std::prev(next)->second > begin) return false;
  registered_host_.emplace(begin, bytes);
  return true;
}

bool DeviceMemory::unregister_host(const void* p) {
  std::lock_guard lock(mutex_);
  return registered_host_.erase(reinterpret_cast<std::uintptr_t>(p)) != 0;
}

std::size_t DeviceMemory::host_registered(const void* p, std::size_t bytes) const {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  std::lock_guard lock(mutex_);
  auto it = registered_host_.upper_bound(a);
  if (it == registered_host_.begin()) return 0;
  --it;
  return a + bytes <= it->first + it->second ? it->second : 0;
}

}  // namespace gpulab::sim::detail
