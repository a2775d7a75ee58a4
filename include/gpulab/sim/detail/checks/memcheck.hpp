#pragma once
#ifndef GPULAB_INSIDE_PUBLIC_HEADER
#error "gpulab/sim/detail/ is the simulator's inside: include <gpulab/kernel.hpp> in a kernel file, <gpulab/gpulab.hpp> in host code"
#endif
// memcheck: every load and store of an instrumented kernel lands in a live device buffer, the launch's
// dynamic shared memory, a static __shared__ array, the thread's own stack or a loaded module's image;
// and a pointer argument of a launch points into the sim device's memory. Its out-of-line check and
// reports are src/sim/checks/memcheck.cpp.
#include <cstddef>
#include <cstdint>

#include <gpulab/sim/checks.hpp>
#include <gpulab/sim/detail/instrumentation/client.hpp>

namespace gpulab::sim::detail {

struct Memcheck : ClientDefaults<Memcheck> {
  static constexpr std::string_view name = "memcheck";
  static constexpr unsigned flag = gpulab::sim::memcheck;
  static constexpr bool needs_instrumentation = true;
  static constexpr bool observes_accesses = true;

  // Ranges every byte of which is valid memory: the TLS block the checker last found static
  // __shared__ memory in (a kernel's static shared arrays mostly live in one), and the launch's
  // dynamic shared memory.
  struct ThreadState {
    std::uintptr_t valid_base = 0;
    std::size_t valid_bytes = 0;
    std::uintptr_t dynamic_base = 0;
    std::size_t dynamic_bytes = 0;
  };

  // Device memory: the bytes lie in a live buffer.
  GPULAB_SIM_HOOK_INLINE static bool device_access_passes(const EngineThreadState& e, const ThreadState&,
                                                          const Access& a, std::size_t offset) {
    return device_bytes_live(e, offset, a.bytes);
  }
  // Anything else: a range known valid, or the running thread's stack (kernel arguments and locals).
  GPULAB_SIM_HOOK_INLINE static bool host_access_passes(const EngineThreadState& e, const ThreadState& s,
                                                        const Access& a) {
    return within(a, s.valid_base, s.valid_bytes) || within(a, s.dynamic_base, s.dynamic_bytes) ||
           own_stack(e, a.address, a.bytes);
  }

  static void check_access(BlockRun& run, const Access& a);
  static void check_atomic(BlockRun& run, const Access& a);
  // A pointer argument must point into the sim device's memory (throws KernelFault naming it).
  static void on_launch_queued(SimDevice& device, LaunchJob& job);
  static void on_block_start(BlockRun& run);

 private:
  GPULAB_SIM_HOOK_INLINE static bool within(const Access& a, std::uintptr_t base, std::size_t bytes) {
    return a.address - base < bytes && a.address + a.bytes - base <= bytes;
  }
};

}  // namespace gpulab::sim::detail
