#pragma once
// The sim device's memory: one reserved range of host address space, so "is this device memory?" is
// one comparison, with a shadow byte per 8 bytes saying how many of them belong to a live buffer (what
// memcheck and initcheck test). Buffers are 256-byte aligned like cudaMalloc's and separated by
// unowned bytes, so an overrun past a buffer's end lands in no buffer and is reported as such.
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace gpulab::sim::detail {

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
  // The live buffers whose ids are in [first_id, end_id).
  std::vector<Buffer> buffers_with_ids(std::uint64_t first_id, std::uint64_t end_id) const;
  // The id the next buffer will get.
  std::uint64_t next_id() const;

  // Host memory that cudaHostRegister page-locked and mapped: kernels may read and write it, so
  // memcheck accepts [p, p + bytes) as it accepts device memory. Registrations do not overlap.
  bool register_host(const void* p, std::size_t bytes);  // false when it overlaps a registration
  bool unregister_host(const void* p);                   // false when p begins no registration
  // Every byte of [p, p + bytes) is in one registered host range (the bytes of that range, else 0).
  std::size_t host_registered(const void* p, std::size_t bytes) const;

 private:
  void set_shadow(std::uintptr_t begin, std::size_t bytes, bool live) noexcept;

  std::size_t limit_;
  std::uintptr_t base_ = 0;
  std::size_t reserved_ = 0;
  std::uint8_t* shadow_ = nullptr;  // reserved_ / 8 bytes

  mutable std::mutex mutex_;
  std::map<std::uintptr_t, std::size_t> free_;   // offset -> bytes of free address space
  std::map<std::uintptr_t, Buffer> live_;        // begin -> buffer
  std::size_t used_ = 0;                         // bytes of live buffers, rounded to 256
  std::uint64_t next_id_ = 1;
  std::map<std::uintptr_t, std::size_t> registered_host_;  // begin -> bytes, under mutex_
};

}  // namespace gpulab::sim::detail
