#pragma once
// How the checks word a finding. A finding made inside an instrumentation hook ends its thread there,
// and the hook's frames are abandoned (never unwound), so those messages are built in fixed buffers on
// the stack (Text), never in heap strings that would leak.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "sim/engine/block_run.hpp"
#include "sim/engine/device_memory.hpp"

namespace gpulab::sim::detail {

struct Text {
  char data[640];
  std::size_t size = 0;
  template <class... A>
  Text(fmt::format_string<A...> f, A&&... args) {
    size = fmt::format_to_n(data, sizeof(data) - 1, f, std::forward<A>(args)...).size;
    if (size > sizeof(data) - 1) size = sizeof(data) - 1;
    data[size] = '\0';
  }
  std::string_view view() const { return {data, size}; }
};

inline const char* verb(bool write) { return write ? "wrote" : "read"; }

// "thread (3, 0, 0) of block (1, 2, 0)": thread `linear` of the launch's block `block`.
Text thread_text(const LaunchJob& job, unsigned linear, std::uint64_t block);
// A thread of the running block.
inline Text thread_text(const BlockRun& run, unsigned linear) { return thread_text(*run.job, linear, run.block_linear); }

// "device buffer #3 (400 bytes at 0x..., passed as parameter 1)".
Text describe_buffer(const LaunchJob& job, const Buffer& b);

// Reports `message` as a finding of the running thread, which ends there.
[[noreturn]] inline void fail(BlockRun& run, const Text& message) { run.fault_in_thread(message.data); }

// Whether p is in the sim device's address range: from the host thread's copy of it, one subtraction
// away (the job's DeviceMemory is three dependent loads away).
inline bool in_device_memory(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) - host_thread.device_base < host_thread.device_bytes;
}

}  // namespace gpulab::sim::detail
