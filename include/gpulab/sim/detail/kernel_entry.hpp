#pragma once
#ifndef GPULAB_INSIDE_PUBLIC_HEADER
#error "gpulab/sim/detail/ is the simulator's inside: include <gpulab/kernel.hpp> in a kernel file, <gpulab/gpulab.hpp> in host code"
#endif
// How the simulator runs one kernel: the contract between code compiled for the simulator (which knows
// the kernel's parameter types) and the simulator's runtime (which does not). launch.hpp and
// GPULAB_EXPORT_KERNEL create these; the sim backend calls them.
#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include <gpulab/sim/detail/host_thread.hpp>

// The entries read their arguments from the launch's copy (host memory): in the instrumented
// compilation they must not be seen by memcheck, only the kernel they call.
#if defined(GPULAB_SIM_CHECKED)
#define GPULAB_SIM_ENTRY_UNCHECKED __attribute__((no_sanitize_address, no_sanitize_thread))
#else
#define GPULAB_SIM_ENTRY_UNCHECKED
#endif

namespace gpulab::sim {

// Arguments copied for an asynchronous launch: the simulator owns them until the kernel ends.
struct ArgStorage {
  virtual ~ArgStorage() = default;
  virtual void* const* pointers() noexcept = 0;
};

struct KernelEntry {
  // Runs one simulated thread: the caller has already set threadIdx, blockIdx and the rest.
  // `function` is the kernel's address (used by entries made from a pointer at run time).
  void (*run_thread)(const void* function, void* const* args);
  // Loop mode: runs threads host_thread.current, current + 1, ... while current + 1 < loop_end,
  // setting threadIdx for each. Compiled with the kernel, so the call is inlined and there is no
  // indirect call per simulated thread. The engine sets loop_end to 0 when a barrier turns the block
  // into fibers; the loop then ends after the thread that is running.
  void (*run_loop)(const void* function, void* const* args);
  // Copies the arguments that `args` points to.
  ArgStorage* (*clone_args)(void* const* args);
  // Compiled with the instrumentation that memcheck and racecheck need.
  bool instrumented;
};

namespace detail {

template <class... P>
struct TypedArgStorage final : ArgStorage {
  explicit TypedArgStorage(void* const* args) : TypedArgStorage(args, std::index_sequence_for<P...>{}) {}
  void* const* pointers() noexcept override { return ptrs.data(); }

  template <std::size_t... I>
  TypedArgStorage(void* const* args, std::index_sequence<I...>)
      : values(*static_cast<std::decay_t<P>*>(args[I])...) {
    ptrs = std::apply([](auto&... v) { return std::array<void*, sizeof...(P)>{static_cast<void*>(&v)...}; }, values);
  }
  std::tuple<std::decay_t<P>...> values;
  std::array<void*, sizeof...(P)> ptrs{};
};

template <class... P>
ArgStorage* clone_args(void* const* args) {
  return new TypedArgStorage<P...>(args);
}

template <class... P, std::size_t... I>
GPULAB_SIM_ENTRY_UNCHECKED inline void call_with(void (*fn)(P...), void* const* args, std::index_sequence<I...>) {
  fn(*static_cast<std::decay_t<P>*>(args[I])...);
}

// The loop shared by both kinds of entry; `call` runs one thread.
template <class Call>
GPULAB_SIM_ENTRY_UNCHECKED __attribute__((always_inline)) inline void run_threads(const Call& call) {
  HostThreadState& st = host_thread;
  const unsigned bx = blockDim.x, by = blockDim.y;
  unsigned t = st.current;
  unsigned x = t % bx, y = (t / bx) % by, z = t / (bx * by);
  for (;;) {
    threadIdx = uint3{x, y, z};
    call();
    if (st.current + 1 >= st.loop_end) break;
    ++st.current;
    if (++x == bx) {
      x = 0;
      if (++y == by) {
        y = 0;
        ++z;
      }
    }
  }
}

template <class F>
struct function_traits;
template <class... P>
struct function_traits<void (*)(P...)> {
  template <auto Fn, std::size_t... I>
  GPULAB_SIM_ENTRY_UNCHECKED static void call(void* const* args, std::index_sequence<I...>) {
    Fn(*static_cast<std::decay_t<P>*>(args[I])...);
  }
  template <auto Fn>
  GPULAB_SIM_ENTRY_UNCHECKED static void run(const void*, void* const* args) {
    call<Fn>(args, std::index_sequence_for<P...>{});
  }
  template <auto Fn>
  struct CallOne {
    void* const* args;
    GPULAB_SIM_ENTRY_UNCHECKED __attribute__((always_inline)) void operator()() const {
      call<Fn>(args, std::index_sequence_for<P...>{});
    }
  };
  template <auto Fn>
  GPULAB_SIM_ENTRY_UNCHECKED static void loop(const void*, void* const* args) {
    run_threads(CallOne<Fn>{args});
  }
  static ArgStorage* clone(void* const* args) { return clone_args<P...>(args); }
};

template <class... P>
struct pointer_entry {
  GPULAB_SIM_ENTRY_UNCHECKED static void run(const void* function, void* const* args) {
    auto fn = reinterpret_cast<void (*)(P...)>(const_cast<void*>(function));
    call_with(fn, args, std::index_sequence_for<P...>{});
  }
  struct CallOne {
    void (*fn)(P...);
    void* const* args;
    GPULAB_SIM_ENTRY_UNCHECKED __attribute__((always_inline)) void operator()() const {
      call_with(fn, args, std::index_sequence_for<P...>{});
    }
  };
  GPULAB_SIM_ENTRY_UNCHECKED static void loop(const void* function, void* const* args) {
    run_threads(CallOne{reinterpret_cast<void (*)(P...)>(const_cast<void*>(function)), args});
  }
};

#if defined(GPULAB_SIM_CHECKED)
inline constexpr bool instrumented_compilation = true;
#else
inline constexpr bool instrumented_compilation = false;
#endif

}  // namespace detail

// An entry for a kernel known only as a pointer of this signature: calls through the pointer.
template <class... P>
const KernelEntry& entry_for_signature() {
  using traits = detail::pointer_entry<P...>;
  static constexpr KernelEntry entry{&traits::run, &traits::loop, &detail::clone_args<P...>,
                                     detail::instrumented_compilation};
  return entry;
}

// An entry for a kernel known at compile time (exported kernels): the call can be inlined.
template <auto Fn>
const KernelEntry& entry_for() {
  using traits = detail::function_traits<decltype(Fn)>;
  static constexpr KernelEntry entry{&traits::template run<Fn>, &traits::template loop<Fn>, &traits::clone,
                                     detail::instrumented_compilation};
  return entry;
}

}  // namespace gpulab::sim

#if defined(GPULAB_SIM_CHECKED)
#define GPULAB_SIM_KERNEL_BACKEND ::gpulab::detail::KernelBackend::sim_checked
#else
#define GPULAB_SIM_KERNEL_BACKEND ::gpulab::detail::KernelBackend::sim
#endif
