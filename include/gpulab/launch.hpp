#pragma once
// Launching kernels: gpulab::launch(kernel, {grid, block, shared_bytes, stream}, args...) is Numba's
// kernel[grid, block, stream, sharedmem](args). The device is the stream's, or else the one the
// arguments' memory lives on. Arguments are converted to the kernel's parameter types here and copied
// by the launch, so it may run after the caller's arguments are gone.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include <gpulab/kernel_qualifiers.hpp>
#include <gpulab/kernel_registry.hpp>
#include <gpulab/stream.hpp>
#include <gpulab/view.hpp>

#if defined(GPULAB_SIM)
#pragma push_macro("GPULAB_INSIDE_PUBLIC_HEADER")
#undef GPULAB_INSIDE_PUBLIC_HEADER
#define GPULAB_INSIDE_PUBLIC_HEADER 1
#include <gpulab/sim/detail/kernel_entry.hpp>
#pragma pop_macro("GPULAB_INSIDE_PUBLIC_HEADER")
#endif

namespace gpulab {

// Grid and block extents. Converts from CUDA's dim3 and from integers.
struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
  GPULAB_HD constexpr Dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
  template <class D>
    requires requires(const D& d) {
      d.x;
      d.y;
      d.z;
    } && (!std::is_same_v<D, Dim3>)
  GPULAB_HD constexpr Dim3(const D& d) : x(d.x), y(d.y), z(d.z) {}
  GPULAB_HD constexpr std::uint64_t count() const {
    return static_cast<std::uint64_t>(x) * static_cast<std::uint64_t>(y) * static_cast<std::uint64_t>(z);
  }
  friend constexpr bool operator==(const Dim3&, const Dim3&) = default;
};

struct LaunchConfig {
  Dim3 grid{1};
  Dim3 block{1};
  std::size_t shared_bytes = 0;  // dynamic shared memory per block
  Stream stream{};               // none: the default stream of the arguments' device
  // All blocks resident at once, so that they may wait on each other (cooperative_groups' grid.sync());
  // refused when the grid exceeds the co-residency limit. Sim devices only, for now.
  bool cooperative = false;
};

// The guide's ceil-div: how many blocks of `block` threads cover `extent` elements.
GPULAB_HD constexpr unsigned grid_for(index_t extent, unsigned block) {
  return extent <= 0 || block == 0 ? 0u : static_cast<unsigned>((extent + block - 1) / block);
}
GPULAB_HD constexpr Dim3 grid_for(Dim3 extent, Dim3 block) {
  return Dim3(grid_for(extent.x, block.x), grid_for(extent.y, block.y), grid_for(extent.z, block.z));
}

namespace detail {

// What a launch knows about one argument, for choosing the device and for the simulator's checks.
struct ArgInfo {
  const void* pointer = nullptr;  // the memory it refers to, if it is a pointer or a view
  MemorySpace space{};            // valid when has_space
  bool has_space = false;         // views know their space; raw pointers do not
  bool is_pointer = false;
  const char* type_name = "";
};

template <class T>
ArgInfo describe_arg(const T& value) {
  ArgInfo info;
  info.type_name = typeid(T).name();
  if constexpr (std::is_pointer_v<T> && std::is_function_v<std::remove_pointer_t<T>>) {
    // A function pointer is an address in code, not memory the checks look at.
  } else if constexpr (std::is_pointer_v<T>) {
    // Through const volatile void*: kernels take volatile and const volatile pointers too.
    info.pointer = const_cast<const void*>(static_cast<const volatile void*>(value));
    info.is_pointer = true;
  } else if constexpr (is_view<T>::value) {
    info.pointer = static_cast<const void*>(value.data());
    info.space = value.space();
    info.has_space = true;
  }
  return info;
}

template <class... P>
struct PackedArgs {
  template <class... A>
  explicit PackedArgs(A&&... args) : values(static_cast<std::decay_t<P>>(std::forward<A>(args))...) {
    pointers = std::apply([](auto&... v) { return std::array<void*, sizeof...(P)>{static_cast<void*>(&v)...}; },
                          values);
    info = std::apply([](const auto&... v) { return std::array<ArgInfo, sizeof...(P)>{describe_arg(v)...}; },
                      values);
  }
  PackedArgs(const PackedArgs&) = delete;
  PackedArgs& operator=(const PackedArgs&) = delete;

  std::tuple<std::decay_t<P>...> values;
  std::array<void*, sizeof...(P)> pointers{};
  std::array<ArgInfo, sizeof...(P)> info{};
};

// Chooses the device and the backend's version of `kernel`, checks the configuration against the
// device's limits, and queues the launch. Defined in the runtime.
void launch_kernel(const KernelRecord& kernel, const LaunchConfig& config, void* const* args, const ArgInfo* info,
                   std::size_t arg_count);

// How this translation unit was compiled decides what a raw kernel pointer is.
template <class... P>
const KernelRecord& record_for_pointer(void (*kernel)(P...)) {
  const void* fn = reinterpret_cast<const void*>(kernel);
#if defined(__CUDACC__) && !defined(GPULAB_SIM)
  return kernel_for_pointer(KernelBackend::cuda, fn, nullptr, typeid(void(P...)));
#elif defined(GPULAB_SIM)
  constexpr KernelBackend backend = GPULAB_SIM_KERNEL_BACKEND;
  return kernel_for_pointer(backend, fn, &sim::entry_for_signature<P...>(), typeid(void(P...)));
#else
  // Plain host code sees only the CUDA host stub, or an exported simulator kernel.
  if (const KernelRecord* r = find_kernel(fn)) return *r;
  return kernel_for_pointer(KernelBackend::cuda, fn, nullptr, typeid(void(P...)));
#endif
}

}  // namespace detail

// A kernel found by the name it was exported under, for host code that cannot see its definition.
template <class Signature>
class Kernel;

template <class... P>
class Kernel<void(P...)> {
 public:
  explicit Kernel(std::string_view name) : record_(&detail::find_kernel(name, typeid(void(P...)))) {}
  const detail::KernelRecord& record() const noexcept { return *record_; }
  const std::string& name() const noexcept { return record_->name; }

 private:
  const detail::KernelRecord* record_;
};

template <class... P, class... A>
void launch(void (*kernel)(P...), const LaunchConfig& config, A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "launch: the number of arguments differs from the kernel's parameters");
  detail::PackedArgs<P...> packed(std::forward<A>(args)...);
  detail::launch_kernel(detail::record_for_pointer(kernel), config, packed.pointers.data(), packed.info.data(),
                        sizeof...(P));
}

template <class... P, class... A>
void launch(const Kernel<void(P...)>& kernel, const LaunchConfig& config, A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "launch: the number of arguments differs from the kernel's parameters");
  detail::PackedArgs<P...> packed(std::forward<A>(args)...);
  detail::launch_kernel(kernel.record(), config, packed.pointers.data(), packed.info.data(), sizeof...(P));
}

// Raises the dynamic shared memory a kernel may use above the 48 KiB default (cudaFuncSetAttribute with
// cudaFuncAttributeMaxDynamicSharedMemorySize), on every backend it was compiled for.
void set_max_dynamic_shared_bytes(const detail::KernelRecord& kernel, std::size_t bytes);
template <class... P>
void set_max_dynamic_shared_bytes(void (*kernel)(P...), std::size_t bytes) {
  set_max_dynamic_shared_bytes(detail::record_for_pointer(kernel), bytes);
}

}  // namespace gpulab
