#include "sim/ptx/shared_window.hpp"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "sim/engine/block_run.hpp"

namespace gpulab::sim::ptx {

namespace {

struct Range {
  std::uintptr_t generic = 0;
  std::size_t bytes = 0;
  std::uint64_t window = 0;
};

struct Window {
  const detail::BlockRun* run = nullptr;
  std::vector<Range> ranges;
};

constexpr std::uint64_t page = 4096;

// The window of the block running on this host thread, laid out once per host thread.
const Window* current_window() {
  thread_local Window window;
  const detail::BlockRun* run = detail::host_thread.block;
  if (run == nullptr) return nullptr;
  if (window.run != run) {
    window.run = run;
    window.ranges.clear();
    std::uint64_t cursor = page;
    const auto add = [&](std::uintptr_t begin, std::size_t bytes) {
      if (bytes == 0) return;
      const std::uint64_t at = (cursor + page - 1) / page * page + (begin & (page - 1));
      if (at + bytes > 0xffffffffull) return;  // past 4 GiB: not addressable by the window
      window.ranges.push_back({begin, bytes, at});
      cursor = at + bytes + page;
    };
    add(reinterpret_cast<std::uintptr_t>(run->shared_memory), run->shared_capacity);
    for (const auto& tls : run->tls) add(tls.begin, tls.bytes);
  }
  return &window;
}

}  // namespace

std::optional<std::uint32_t> find_window_address(const void* generic) {
  const Window* w = current_window();
  if (w == nullptr) return std::nullopt;
  const auto a = reinterpret_cast<std::uintptr_t>(generic);
  for (const Range& r : w->ranges) {
    if (a - r.generic < r.bytes) return static_cast<std::uint32_t>(r.window + (a - r.generic));
  }
  return std::nullopt;
}

void* find_window_pointer(std::uint64_t window, std::size_t bytes) {
  const Window* w = current_window();
  if (w == nullptr) return nullptr;
  for (const Range& r : w->ranges) {
    if (window - r.window < r.bytes) {
      if (bytes > r.bytes - (window - r.window)) return nullptr;
      return reinterpret_cast<void*>(r.generic + static_cast<std::uintptr_t>(window - r.window));
    }
  }
  return nullptr;
}

// ---- the functions inline_ptx.hpp declares for CUDA's address-space conversions ----

std::uint32_t shared_window_address(const void* generic) {
  if (const auto a = find_window_address(generic)) return *a;
  const std::string what = fmt::format(
      "__cvta_generic_to_shared({}): the address is not in this block's shared memory (static __shared__ data or "
      "the dynamic shared memory)",
      generic);
  detail::kernel_abort(what.c_str(), std::source_location{});
}

void* shared_window_pointer(std::uint64_t window_address) {
  if (void* p = find_window_pointer(window_address, 1)) return p;
  const std::string what =
      fmt::format("__cvta_shared_to_generic({:#x}): not an address of this block's shared memory", window_address);
  detail::kernel_abort(what.c_str(), std::source_location{});
}

bool is_shared_address(const void* generic) { return find_window_address(generic).has_value(); }

bool is_local_address(const void* generic) {
  const auto a = reinterpret_cast<std::uintptr_t>(generic);
  const auto& h = detail::host_thread;
  return h.block != nullptr && a - h.stacks_base < h.stacks_bytes;
}

}  // namespace gpulab::sim::ptx
