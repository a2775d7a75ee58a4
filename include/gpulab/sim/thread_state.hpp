#pragma once
// What simulated kernel code and the simulator's engine share on each host thread. All threads of a
// block run on one host thread (as fibers) and a host thread runs one block at a time, so a
// thread_local per host thread is per block; the engine rewrites the built-in variables at every switch
// from one simulated thread to another.
//
// The variables are initial-exec TLS: an access is one load from %fs, not a __tls_get_addr call,
// which matters because kernels read threadIdx in their innermost loops. libgpulab is linked, never
// dlopen'ed, so its static TLS is always available.
#include <cstddef>
#include <cstdint>
#include <source_location>

// constinit: they have no dynamic initialiser, so an access from another library or the program needs
// no call to a TLS wrapper function first.
#define GPULAB_SIM_TLS constinit thread_local __attribute__((tls_model("initial-exec")))

struct uint3 {
  unsigned int x, y, z;
};

struct dim3 {
  unsigned int x = 1, y = 1, z = 1;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

namespace gpulab::sim::detail {

struct BlockRun;  // the engine's state of the block this host thread is running
struct GlobalRaceCell;  // global_race_cell.hpp

struct HostThreadState {
  BlockRun* block = nullptr;              // null outside a simulated block
  unsigned char* dynamic_shared = nullptr;  // this block's `extern __shared__` memory
  unsigned current = 0;                   // linear index of the simulated thread now running
  unsigned loop_end = 0;                  // loop mode runs threads [current, loop_end); 0 stops the loop
  unsigned checks = 0;                    // the CheckFlags of the running launch
  unsigned thread_count = 0;              // threads of the running block
  std::uint32_t barrier_epoch = 0;        // barriers released on this host thread (racecheck orders by it)
  // Non-null while the block is in the barrier's fast mode (see fast_barrier.hpp): the saved stack
  // pointer of each suspended thread, their indices and the call sites they wait at.
  void** fast_contexts = nullptr;
  const uint3* thread_indices = nullptr;
  std::source_location* fast_sites = nullptr;
  // The checks' inline tests (checked_access.hpp). memcheck: the sim device's address range and its shadow (a byte
  // per 8 bytes: how many of them, from the first, are in a live buffer), and one range the checker
  // found valid as a whole (the TLS block that holds static __shared__ arrays).
  std::uintptr_t device_base = 0;
  std::size_t device_bytes = 0;
  const std::uint8_t* device_shadow = nullptr;
  std::uintptr_t valid_base = 0;
  std::size_t valid_bytes = 0;
  // ... and the host thread's fiber stacks (fiber_stacks.hpp): slots of 2^stack_shift bytes aligned to
  // their size, the first stack_guard bytes of each a guard. Kernel arguments and locals live there.
  std::uintptr_t stacks_base = 0;
  std::size_t stacks_bytes = 0;
  unsigned stack_shift = 0;
  std::size_t stack_guard = 0;
  // racecheck's inline test: which device words reads have nothing to record for, in which launch
  // (settled_map.hpp), the words' cells (global_race_cell.hpp), this launch's number and the running
  // block's index in the grid.
  const std::uint64_t* race_settled = nullptr;
  const GlobalRaceCell* race_word_cells = nullptr;
  std::uint32_t race_launch = 0;
  std::uint64_t race_block = 0;
  // ... and the device words whose reads by the running block change nothing in their cells until its
  // next barrier or warp call (global_race_cell.hpp: block_read_slot), null when not kept; and a count
  // of those events on this host thread, blocks started included, which the entries carry.
  std::uint64_t* block_reads = nullptr;
  std::uint32_t order_epoch = 0;
  // initcheck's inline test: a byte per byte of device memory, non-zero once written.
  std::uint8_t* device_initialized = nullptr;
  // racecheck on shared memory: each warp's completed warp-synchronous calls, and the shared range the
  // checker last saw (its word cells, and per word the interval in which it is tracked by bytes), all
  // of it valid memory (of dynamic shared memory, the launch's bytes).
  const std::uint32_t* warp_epochs = nullptr;
  std::uintptr_t shared_begin = 0;
  std::size_t shared_bytes = 0;
  std::uintptr_t shared_words_begin = 0;
  std::uintptr_t shared_cells_bias = 0;  // the cell of the word at a (4-byte aligned): bias + 8 * a
  const std::uint32_t* shared_byte_mode = nullptr;
  // Where shared memory can be at all: the dynamic shared memory, and the span of the TLS blocks that
  // hold static __shared__ arrays. racecheck has nothing to do elsewhere (stacks, arguments).
  std::uintptr_t race_dynamic_begin = 0;
  std::size_t race_dynamic_bytes = 0;
  std::uintptr_t race_tls_begin = 0;
  std::size_t race_tls_bytes = 0;
};

extern GPULAB_SIM_TLS HostThreadState host_thread;

// Whether the device bytes [offset, offset + bytes) from the device's base lie in a live buffer within
// one 8-byte granule (its shadow byte counts the live bytes from the granule's start).
__attribute__((always_inline, no_sanitize_address)) inline bool device_bytes_live(const HostThreadState& h,
                                                                                    std::size_t offset,
                                                                                    std::size_t bytes) {
  return (offset & 7) + bytes <= h.device_shadow[offset >> 3];
}

// Whether [a, a + bytes) lies on the running simulated thread's own stack, past the guard: in the slot
// of the stack pointer (the thread runs on its own stack), found without knowing which thread runs.
__attribute__((always_inline, no_sanitize_address)) inline bool own_stack(const HostThreadState& h, std::uintptr_t a,
                                                                           std::size_t bytes) {
  std::uintptr_t sp;
#if defined(__x86_64__)
  asm("mov %%rsp, %0" : "=r"(sp));
#else
  sp = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
#endif
  const std::uintptr_t last = a + bytes - 1;
  return a - h.stacks_base < h.stacks_bytes && ((a ^ sp) >> h.stack_shift) == 0 &&
         ((last ^ sp) >> h.stack_shift) == 0 && (a & ((std::uintptr_t{1} << h.stack_shift) - 1)) >= h.stack_guard;
}

// memcheck's common cases, decided without the checker: [a, a + bytes) is live device memory
// (device_bytes_live), lies in the range the checker last found valid as a whole, or on the running
// thread's stack (own_stack: kernel arguments and locals). False means "ask the checker", not "invalid".
__attribute__((always_inline, no_sanitize_address)) inline bool memcheck_passes(const HostThreadState& h,
                                                                                  std::uintptr_t a,
                                                                                  std::size_t bytes) {
  const std::size_t offset = a - h.device_base;
  if (offset < h.device_bytes) return device_bytes_live(h, offset, bytes);
  return (a - h.valid_base < h.valid_bytes && a + bytes - h.valid_base <= h.valid_bytes) || own_stack(h, a, bytes);
}

}  // namespace gpulab::sim::detail

// CUDA's built-in variables. Mutable here (CUDA's are read-only) because the engine writes them.
extern GPULAB_SIM_TLS uint3 threadIdx;
extern GPULAB_SIM_TLS uint3 blockIdx;
extern GPULAB_SIM_TLS dim3 blockDim;
extern GPULAB_SIM_TLS dim3 gridDim;
