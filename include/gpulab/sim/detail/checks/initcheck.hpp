#pragma once
#ifndef GPULAB_INSIDE_PUBLIC_HEADER
#error "gpulab/sim/detail/ is the simulator's inside: include <gpulab/kernel.hpp> in a kernel file, <gpulab/gpulab.hpp> in host code"
#endif
// initcheck: a read of device memory that was never written. A mark per byte of device memory says
// whether it was written: by a kernel with initcheck on, by a copy or a fill, or before initcheck
// began watching (what a buffer holds when initcheck starts watching it counts as written, so turning
// initcheck on between launches never reports data that came in unwatched). Its marks, watching and
// reports are src/sim/checks/initcheck.cpp.
#include <cstddef>
#include <cstdint>

#include <gpulab/sim/checks.hpp>
#include <gpulab/sim/detail/instrumentation/client.hpp>

namespace gpulab::sim::detail {

class InitcheckMarks;  // src/sim/checks/initcheck.cpp

struct Initcheck : ClientDefaults<Initcheck> {
  static constexpr std::string_view name = "initcheck";
  static constexpr unsigned flag = gpulab::sim::initcheck;
  static constexpr bool needs_instrumentation = true;
  static constexpr bool observes_accesses = true;

  struct ThreadState {
    std::uint8_t* marks = nullptr;  // a byte per byte of device memory, non-zero once written; set while on
  };
  struct DeviceState {
    InitcheckMarks* initcheck_marks = nullptr;
  };

  // Whether four marks, loaded as one word, are all set (no zero byte among them).
  GPULAB_SIM_HOOK_INLINE static bool four_marks_set(std::uint32_t marks) {
    return ((marks - 0x01010101u) & ~marks & 0x80808080u) == 0;
  }

  // A read of live bytes all written, or a whole-word write, which marks them (relaxed stores of the
  // access's own bytes, as the checker's). Bytes outside live buffers go to the checker, which leaves
  // them to memcheck.
  GPULAB_SIM_HOOK_INLINE static bool device_access_passes(const EngineThreadState& e, const ThreadState& s,
                                                          const Access& a, std::size_t offset) {
    if (!device_bytes_live(e, offset, a.bytes)) return false;
    std::uint8_t* const at = s.marks + offset;
    if (a.bytes == 4 && (offset & 3) == 0) {
      auto* word = reinterpret_cast<std::uint32_t*>(at);
      if (a.write) {
        __atomic_store_n(word, 0x01010101u, __ATOMIC_RELAXED);
        return true;
      }
      return four_marks_set(__atomic_load_n(word, __ATOMIC_RELAXED));
    }
    if (a.write) return false;
    for (std::size_t i = 0; i < a.bytes; ++i) {
      if (__atomic_load_n(at + i, __ATOMIC_RELAXED) == 0) return false;
    }
    return true;
  }

  static void check_access(BlockRun& run, const Access& a);
  static void check_atomic(BlockRun& run, const Access& a);
  static void on_launch_start(SimDevice& device, LaunchJob& job);
  static void on_block_start(BlockRun& run);
  static void on_device_write(SimDevice& device, const void* p, std::size_t bytes, unsigned checks);
  static std::string on_host_read(SimDevice& device, const void* p, std::size_t bytes, unsigned checks);
  static void on_free(SimDevice& device, const Buffer& buffer);
  static void on_device_created(SimDevice& device);
  static void on_device_destroyed(SimDevice& device);
};

}  // namespace gpulab::sim::detail
