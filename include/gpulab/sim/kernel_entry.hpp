#pragma once
// How the simulator runs one kernel: the contract between code compiled for the simulator (which knows
// the kernel's parameter types) and the simulator's runtime (which does not). launch.hpp and
// GPULAB_EXPORT_KERNEL create these; the sim backend calls them.
#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

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
inline void call_with(void (*fn)(P...), void* const* args, std::index_sequence<I...>) {
  fn(*static_cast<std::decay_t<P>*>(args[I])...);
}

template <class F>
struct function_traits;
template <class... P>
struct function_traits<void (*)(P...)> {
  template <auto Fn, std::size_t... I>
  static void call(void* const* args, std::index_sequence<I...>) {
    Fn(*static_cast<std::decay_t<P>*>(args[I])...);
  }
  template <auto Fn>
  static void run(const void*, void* const* args) {
    call<Fn>(args, std::index_sequence_for<P...>{});
  }
  static ArgStorage* clone(void* const* args) { return clone_args<P...>(args); }
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
  static constexpr KernelEntry entry{
      [](const void* function, void* const* args) {
        auto fn = reinterpret_cast<void (*)(P...)>(const_cast<void*>(function));
        detail::call_with(fn, args, std::index_sequence_for<P...>{});
      },
      &detail::clone_args<P...>, detail::instrumented_compilation};
  return entry;
}

// An entry for a kernel known at compile time (exported kernels): the call can be inlined.
template <auto Fn>
const KernelEntry& entry_for() {
  using traits = detail::function_traits<decltype(Fn)>;
  static constexpr KernelEntry entry{&traits::template run<Fn>, &traits::clone, detail::instrumented_compilation};
  return entry;
}

}  // namespace gpulab::sim

#if defined(GPULAB_SIM_CHECKED)
#define GPULAB_SIM_KERNEL_BACKEND ::gpulab::detail::KernelBackend::sim_checked
#else
#define GPULAB_SIM_KERNEL_BACKEND ::gpulab::detail::KernelBackend::sim
#endif
