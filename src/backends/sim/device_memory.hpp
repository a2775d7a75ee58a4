#pragma once
// The sim device's memory: one reserved range of host address space, so "is this device memory?" is
// one comparison, with a shadow byte per 8 bytes saying how many of them belong to a live buffer
// (memcheck) and, for initcheck, a byte per byte saying whether it was ever written. Buffers are
// 256-byte aligned like cudaMalloc's and separated by unowned bytes, so an overrun past a buffer's end
// lands in no buffer and is reported as such.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

namespace gpulab::sim::detail {

class GlobalRaceShadow;

struct Buffer {
  std::uintptr_t begin = 0;
  std::size_t bytes = 0;
  std::uint64_t id = 0;  // 1, 2, ... in allocation order
};

class DeviceMemory {
 public:
  // GPULAB_SIM_MEMORY, or 4 GiB.
  static std::size_t configured_limit();

  explicit DeviceMemory(std::size_t limit);
  ~DeviceMemory();
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;

  // Throws OutOfMemory when `bytes` does not fit in what is left of the limit.
  void* allocate(std::size_t bytes);
  void deallocate(void* p) noexcept;

  std::size_t limit() const noexcept { return limit_; }
  std::size_t used() const;

  std::uintptr_t base() const noexcept { return base_; }
  std::size_t reserved() const noexcept { return reserved_; }
  const std::uint8_t* shadow() const noexcept { return shadow_; }
  // initcheck's marks (a byte per byte), for the hooks' inline test; a launch that may mark them says
  // so first (a freed buffer's marks are then cleared).
  std::uint8_t* initialized_marks() noexcept {
    if (!__atomic_load_n(&init_marked_, __ATOMIC_RELAXED)) __atomic_store_n(&init_marked_, true, __ATOMIC_RELAXED);
    return initialized_;
  }

  bool contains(const void* p) const noexcept {
    return static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(p) - base_) < reserved_;
  }
  // Every byte of [p, p + bytes) is in a live buffer (p must be contains()).
  bool addressable(const void* p, std::size_t bytes) const noexcept;
  // The buffer holding `p`, else the nearest one below it (for "N bytes past the end of ...").
  std::optional<Buffer> buffer_at_or_below(const void* p) const;
  std::optional<Buffer> buffer_of(const void* p) const;
  // The first buffer that starts above `p`.
  std::optional<Buffer> buffer_above(const void* p) const;

  // racecheck's cells for device memory, made by the first launch that asks for racecheck; null before.
  GlobalRaceShadow* global_races() const noexcept { return races_.load(std::memory_order_acquire); }
  GlobalRaceShadow& enable_global_races();

  void mark_initialized(const void* p, std::size_t bytes) noexcept;
  // The first byte of [p, p + bytes) never written, or nullopt.
  std::optional<std::size_t> first_uninitialized(const void* p, std::size_t bytes) const noexcept;

 private:
  void set_shadow(std::uintptr_t begin, std::size_t bytes, bool live) noexcept;

  std::size_t limit_;
  std::uintptr_t base_ = 0;
  std::size_t reserved_ = 0;
  std::uint8_t* shadow_ = nullptr;       // reserved_ / 8 bytes
  std::uint8_t* initialized_ = nullptr;  // reserved_ bytes, touched only where initcheck looks
  bool init_marked_ = false;             // some byte was ever marked (atomic access)
  std::atomic<GlobalRaceShadow*> races_{nullptr};
  std::unique_ptr<GlobalRaceShadow> races_owner_;

  mutable std::mutex mutex_;
  std::map<std::uintptr_t, std::size_t> free_;   // offset -> bytes of free address space
  std::map<std::uintptr_t, Buffer> live_;        // begin -> buffer
  std::size_t used_ = 0;                         // bytes of live buffers, rounded to 256
  std::uint64_t next_id_ = 1;
};

}  // namespace gpulab::sim::detail
