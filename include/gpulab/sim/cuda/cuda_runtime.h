#pragma once
// gpulab-simcc's shadow of CUDA's <cuda_runtime.h>. A CUDA program built with gpulab-simcc (or CMake's
// gpulab_add_sim_executable) is compiled once, by the host compiler, against gpulab's simulator: its
// kernels are ordinary C++ functions, `k<<<grid, block, shared, stream>>>(args)` is rewritten by the
// driver into `k ->* ::gpulab::sim::cuda::launch_with(...)(args)` (see tools/simcc), and the launch runs
// on the `sim` device through gpulab's own launch path. The driver includes this header first, as nvcc
// includes the real one.
// CUDA's guard macro, which helper headers (the samples' helper_cuda.h among them) test.
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__
#endif

#if !defined(__cplusplus)
// A C host file: the runtime API (C linkage, in libgpulab_cudart) and its types, as CUDA's header
// gives C.
#include "cuda_runtime_api.h"
#else

#if !defined(GPULAB_SIM)
#error "this <cuda_runtime.h> is gpulab's simulator shadow of CUDA's: build with gpulab-simcc or gpulab_add_sim_executable"
#endif

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include <gpulab/launch.hpp>
#include <gpulab/sim/device_runtime.hpp>
#pragma push_macro("GPULAB_INSIDE_PUBLIC_HEADER")
#undef GPULAB_INSIDE_PUBLIC_HEADER
#define GPULAB_INSIDE_PUBLIC_HEADER 1
#include <gpulab/sim/detail/kernel_entry.hpp>
#pragma pop_macro("GPULAB_INSIDE_PUBLIC_HEADER")

#include "cuda_runtime_api.h"
#include "gpulab_cuda_launch.hpp"
#include "device_launch_parameters.h"
#include "library_types.h"
#include "vector_types.h"

#ifndef __align__
#define __align__(n) __attribute__((aligned(n)))
#endif
#ifndef __CUDA_ALIGN__
#define __CUDA_ALIGN__(n) __attribute__((aligned(n)))
#endif

namespace gpulab::sim::cuda {

namespace detail {

// The record of a kernel this compilation launches through a pointer, named as the launch wrote it.
template <class... P>
const gpulab::detail::KernelRecord& record_for(void (*kernel)(P...), const char* name, const char* file) {
  return register_kernel(reinterpret_cast<const void*>(kernel), typeid(void(P...)), GPULAB_SIM_KERNEL_BACKEND,
                         &::gpulab::sim::entry_for_signature<P...>(), name, file);
}

template <class... P, class Tuple, std::size_t... I>
cudaError_t launch_tuple(const gpulab::detail::KernelRecord& record, dim3 grid, dim3 block, std::size_t shared,
                         cudaStream_t stream, Tuple&& args, std::index_sequence<I...>, bool cooperative = false) {
  // Converted to the kernel's parameter types and copied here, as CUDA does at the launch.
  gpulab::detail::PackedArgs<P...> packed(std::get<I>(std::forward<Tuple>(args))...);
  return launch(record, grid, block, shared, stream, packed.pointers.data(), packed.info.data(), sizeof...(P),
                ::gpulab::sim::detail::instrumented_compilation, cooperative);
}

}  // namespace detail

// Where a launch was written: the kernel expression as text, and the file.
struct LaunchSite {
  const char* callee;
  const char* file;
};

template <class... A>
struct PendingLaunch {
  LaunchSite site;
  dim3 grid, block;
  std::size_t shared_bytes;
  cudaStream_t stream;
  std::tuple<A&&...> args;  // the launch statement's arguments, alive until its end
};

struct LaunchBuilder {
  LaunchSite site;
  dim3 grid, block;
  std::size_t shared_bytes;
  cudaStream_t stream;
  template <class... A>
  PendingLaunch<A...> operator()(A&&... args) const {
    return PendingLaunch<A...>{site, grid, block, shared_bytes, stream, std::forward_as_tuple(std::forward<A>(args)...)};
  }
};

// <<<grid, block, shared, stream>>>
inline LaunchBuilder launch_with(LaunchSite site, dim3 grid, dim3 block, std::size_t shared_bytes = 0,
                                 cudaStream_t stream = nullptr) {
  return LaunchBuilder{site, grid, block, shared_bytes, stream};
}

// `kernel ->* launch_with(...)(args...)`: the rewritten `kernel<<<...>>>(args...)`. A launch's errors go
// where CUDA puts them: cudaGetLastError / cudaPeekAtLastError, and the next synchronising call.
template <class... P, class... A>
void operator->*(void (*kernel)(P...), PendingLaunch<A...>&& pending) {
  static_assert(sizeof...(P) == sizeof...(A), "gpulab-simcc: a <<<>>> launch passes a different number of arguments "
                                              "than the kernel has parameters");
  static_assert(!(std::is_reference_v<P> || ...), "gpulab-simcc: a __global__ function cannot have a parameter of "
                                                  "reference type (CUDA passes kernel arguments by value)");
  const auto& record = detail::record_for(kernel, pending.site.callee, pending.site.file);
  detail::launch_tuple<P...>(record, pending.grid, pending.block, pending.shared_bytes, pending.stream,
                             std::move(pending.args), std::index_sequence_for<A...>{});
}

namespace detail {

// The types of a launch's arguments, handed to a KernelSelector.
template <class... A>
struct ArgTypes {};

// A kernel expression that names one function (or is a pointer to one) needs nothing more, when the
// launch passes an argument for every parameter; one that leaves some to the kernel's default
// arguments goes through the thunk below, whose call supplies them.
template <class... A, class... P>
  requires(sizeof...(A) == sizeof...(P))
auto as_kernel_pointer(ArgTypes<A...>, void (*kernel)(P...)) {
  return kernel;
}

// The call `kernel(args...)` as a function of the decayed argument types. `call` is a lambda that
// captures nothing (its kernel expression names functions only), but it is written with [&] so that
// the macro compiles where the expression is a local variable (another branch then applies); its one
// instance is kept so the thunk, which must be a plain function, can call it.
template <class Call>
const Call& kept_call(const Call* first) {
  static const Call instance = *first;
  return instance;
}
template <class Call, class... A>
auto thunk_for(ArgTypes<A...>, const Call& call) -> void (*)(std::decay_t<A>...) {
  static_assert(std::is_empty_v<Call>, "gpulab-simcc: internal: a kernel chosen by a call captured state");
  kept_call<Call>(&call);
  return [](std::decay_t<A>... args) { kept_call<Call>(nullptr)(args...); };
}

// What GPULAB_SIM_KERNEL_OF makes: given the launch's argument types, gives the kernel's pointer.
template <class Select>
struct KernelSelector {
  Select select;
};

}  // namespace detail

// The rewritten `k<<<...>>>(args)` when k is an overload set or a template whose arguments are deduced.
template <class Select, class... A>
void operator->*(detail::KernelSelector<Select>&& kernel, PendingLaunch<A...>&& pending) {
  std::move(kernel.select)(detail::ArgTypes<A...>{}) ->* std::move(pending);
}

}  // namespace gpulab::sim::cuda

// gpulab-simcc wraps the kernel expression of every <<<>>> launch in this. The rewriter sees tokens
// only, so the C++ compiler picks the kernel, in this order: the expression already names one function
// or is a function pointer (the kernel's own record, so cudaFuncSetAttribute on it applies); an overload
// or specialisation whose parameters are exactly the decayed argument types; otherwise the function a
// call with these arguments resolves to (deduced template arguments, conversions), through a thunk
// whose parameters are the decayed argument types. The thunk is its own kernel record: attributes set
// with cudaFuncSetAttribute on a specialisation do not reach a launch that needed it.
#define GPULAB_SIM_KERNEL_OF(...)                                                                              \
  ::gpulab::sim::cuda::detail::KernelSelector{[&]<class... GpulabA>(                                            \
                                                  ::gpulab::sim::cuda::detail::ArgTypes<GpulabA...> gpulab_types) { \
    if constexpr (requires { ::gpulab::sim::cuda::detail::as_kernel_pointer(gpulab_types, __VA_ARGS__); }) {     \
      return ::gpulab::sim::cuda::detail::as_kernel_pointer(gpulab_types, __VA_ARGS__);                          \
    } else if constexpr (requires { static_cast<void (*)(::std::decay_t<GpulabA>...)>(__VA_ARGS__); }) {        \
      return static_cast<void (*)(::std::decay_t<GpulabA>...)>(__VA_ARGS__);                                     \
    } else {                                                                                                   \
      return ::gpulab::sim::cuda::detail::thunk_for(                                                           \
          gpulab_types, [&](::std::decay_t<GpulabA>... gpulab_args) { __VA_ARGS__(gpulab_args...); });          \
    }                                                                                                          \
  }}

// __grid_constant__ marks a const kernel parameter that the kernel may take the address of; here every
// parameter is an ordinary object of the launch's copy, so it needs nothing.
#ifndef __grid_constant__
#define __grid_constant__
#endif

namespace gpulab::sim::cuda::detail {

// A kernel defined in the file: known by its address from before main (GPULAB_SIM_KERNEL_DEFINED).
template <class... P>
bool kernel_defined(void (*kernel)(P...), const char* name, const char* file) {
  record_for(kernel, name, file);
  return true;
}

}  // namespace gpulab::sim::cuda::detail

// gpulab-simcc writes this after the body of every non-template __global__ function defined at
// namespace scope, with the parameter list as written (default arguments dropped), so that a call
// naming the kernel by a `const void*` (cudaLaunchKernel, cudaLaunchCooperativeKernel, a graph's
// kernel node) finds its parameter types, as CUDA's registration of every kernel at load does.
#define GPULAB_SIM_KERNEL_DEFINED_NAME2(a, b) a##b
#define GPULAB_SIM_KERNEL_DEFINED_NAME(a, b) GPULAB_SIM_KERNEL_DEFINED_NAME2(a, b)
#define GPULAB_SIM_KERNEL_DEFINED(name, parameters)                                                      \
  [[maybe_unused]] static const bool GPULAB_SIM_KERNEL_DEFINED_NAME(gpulab_sim_kernel_defined_, __COUNTER__) = \
      ::gpulab::sim::cuda::detail::kernel_defined(static_cast<void(*) parameters>(&name), #name, __FILE__);

// ---- the typed runtime templates (CUDA's cuda_runtime.h has them too) ------------------------------------------------
namespace gpulab::sim::cuda::detail {
template <class... P, std::size_t... I>
cudaError_t launch_untyped_args(void (*func)(P...), dim3 grid, dim3 block, void** args, std::size_t shared,
                                cudaStream_t stream, std::index_sequence<I...>, bool cooperative = false) {
  const char* const call = cooperative ? "cudaLaunchCooperativeKernel" : "cudaLaunchKernel";
  const auto& record = record_for(func, cooperative ? "kernel passed to cudaLaunchCooperativeKernel"
                                                    : "kernel passed to cudaLaunchKernel", call);
  // args[i] points to the i-th argument, of the parameter's own type.
  const gpulab::detail::ArgInfo info[sizeof...(P) + 1] = {
      gpulab::detail::describe_arg(*static_cast<const std::decay_t<P>*>(args[I]))...};
  return launch(record, grid, block, shared, stream, args, info, sizeof...(P),
                ::gpulab::sim::detail::instrumented_compilation, cooperative);
}
}  // namespace gpulab::sim::cuda::detail

template <class... P>
inline cudaError_t cudaLaunchKernel(void (*func)(P...), dim3 gridDim, dim3 blockDim, void** args,
                                    std::size_t sharedMem = 0, cudaStream_t stream = nullptr) {
  if (sizeof...(P) > 0 && args == nullptr) return cudaErrorInvalidValue;
  return ::gpulab::sim::cuda::detail::launch_untyped_args(func, gridDim, blockDim, args, sharedMem, stream,
                                                          std::index_sequence_for<P...>{});
}

// A cooperative launch: every block resident at once, so that the kernel may use grid.sync(); a grid
// beyond the co-residency limit is cudaErrorCooperativeLaunchTooLarge.
template <class... P>
inline cudaError_t cudaLaunchCooperativeKernel(void (*func)(P...), dim3 gridDim, dim3 blockDim, void** args,
                                               std::size_t sharedMem = 0, cudaStream_t stream = nullptr) {
  if (sizeof...(P) > 0 && args == nullptr) return cudaErrorInvalidValue;
  return ::gpulab::sim::cuda::detail::launch_untyped_args(func, gridDim, blockDim, args, sharedMem, stream,
                                                          std::index_sequence_for<P...>{}, true);
}

namespace gpulab::sim::cuda::detail {
// cudaLaunchKernelEx's attributes: the ones that only tune scheduling or caching are accepted after
// their values are checked; cudaLaunchAttributeCooperative makes the launch cooperative.
inline cudaError_t check_launch_attributes(const cudaLaunchConfig_t& config) {
  if (config.numAttrs > 0 && config.attrs == nullptr) return cudaErrorInvalidValue;
  for (unsigned int a = 0; a < config.numAttrs; ++a) {
    const cudaLaunchAttribute& attr = config.attrs[a];
    switch (attr.id) {
      case cudaLaunchAttributeIgnore:
      case cudaLaunchAttributeAccessPolicyWindow:
      case cudaLaunchAttributeSynchronizationPolicy:
      case cudaLaunchAttributeClusterSchedulingPolicyPreference:
      case cudaLaunchAttributeProgrammaticStreamSerialization:  // only allows overlap; running in order is valid
      case cudaLaunchAttributePriority:
      case cudaLaunchAttributeMemSyncDomainMap:
      case cudaLaunchAttributeMemSyncDomain:
      case cudaLaunchAttributePreferredSharedMemoryCarveout:
        break;
      case cudaLaunchAttributeCooperative:
        break;
      case cudaLaunchAttributeClusterDimension:
      case cudaLaunchAttributePreferredClusterDimension: {
        // The grid must be a whole number of clusters, as on the GPU; blocks run as without clusters.
        const auto& c = attr.val.clusterDim;
        if (c.x == 0 || c.y == 0 || c.z == 0 || config.gridDim.x % c.x != 0 || config.gridDim.y % c.y != 0 ||
            config.gridDim.z % c.z != 0 || c.x * c.y * c.z > 8) {
          return cudaErrorInvalidClusterSize;
        }
        break;
      }
      default:
        return unsupported_attribute("cudaLaunchKernelEx", attr.id);
    }
  }
  return cudaSuccess;
}
inline bool launch_is_cooperative(const cudaLaunchConfig_t& config) {
  bool cooperative = false;
  for (unsigned int a = 0; a < config.numAttrs; ++a) {
    if (config.attrs[a].id == cudaLaunchAttributeCooperative) cooperative = config.attrs[a].val.cooperative != 0;
  }
  return cooperative;
}
}  // namespace gpulab::sim::cuda::detail

// CUDA 12's typed form: the arguments are converted to the kernel's parameter types, as in a call.
template <class... P, class... A>
inline cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t* config, void (*kernel)(P...), A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A),
                "cudaLaunchKernelEx: the number of arguments differs from the kernel's parameters");
  namespace d = ::gpulab::sim::cuda::detail;
  if (config == nullptr || kernel == nullptr) return cudaErrorInvalidValue;
  if (const cudaError_t e = d::check_launch_attributes(*config); e != cudaSuccess) return e;
  const auto& record = d::record_for(kernel, "kernel passed to cudaLaunchKernelEx", "cudaLaunchKernelEx");
  return d::launch_tuple<P...>(record, config->gridDim, config->blockDim, config->dynamicSmemBytes, config->stream,
                               std::forward_as_tuple(std::forward<A>(args)...), std::index_sequence_for<A...>{},
                               d::launch_is_cooperative(*config));
}

template <class... P>
inline cudaError_t cudaFuncSetAttribute(void (*func)(P...), cudaFuncAttribute attr, int value) {
  namespace d = ::gpulab::sim::cuda::detail;
  if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize) {
    return attr == cudaFuncAttributePreferredSharedMemoryCarveout ? cudaSuccess
                                                                  : d::unsupported_attribute("cudaFuncSetAttribute", attr);
  }
  return d::set_max_dynamic_shared(d::record_for(func, "kernel passed to cudaFuncSetAttribute", "cudaFuncSetAttribute"), value);
}

template <class... P>
inline cudaError_t cudaFuncSetCacheConfig(void (*func)(P...), cudaFuncCache cacheConfig) {
  return cudaFuncSetCacheConfig(reinterpret_cast<const void*>(func), cacheConfig);
}
template <class... P>
inline cudaError_t cudaFuncSetSharedMemConfig(void (*func)(P...), cudaSharedMemConfig config) {
  return cudaFuncSetSharedMemConfig(reinterpret_cast<const void*>(func), config);
}

template <class... P>
inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, void (*func)(P...)) {
  return cudaFuncGetAttributes(attr, reinterpret_cast<const void*>(func));
}

template <class... P>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, void (*func)(P...), int blockSize,
                                                                 std::size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, reinterpret_cast<const void*>(func), blockSize,
                                                       dynamicSMemSize);
}

template <class... P>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, void (*func)(P...),
                                                                          int blockSize, std::size_t dynamicSMemSize,
                                                                          unsigned int flags) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, reinterpret_cast<const void*>(func),
                                                                blockSize, dynamicSMemSize, flags);
}
template <class... P>
inline cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(std::size_t* dynamicSmemSize, void (*func)(P...),
                                                             int numBlocks, int blockSize) {
  return cudaOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, reinterpret_cast<const void*>(func), numBlocks,
                                                   blockSize);
}

// The block size that maximises occupancy on the sim device's sm_90 limits (threads and shared memory;
// registers are not modelled): the largest multiple of 32 up to blockSizeLimit (or 1024).
template <class F>
inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int* minGridSize, int* blockSize, F func,
                                                      std::size_t dynamicSMemSize = 0, int blockSizeLimit = 0) {
  if (minGridSize == nullptr || blockSize == nullptr) return cudaErrorInvalidValue;
  const int limit = blockSizeLimit > 0 && blockSizeLimit < 1024 ? blockSizeLimit : 1024;
  int best_block = 0, best_active = -1;
  for (int b = 32; b <= limit; b += 32) {
    int blocks = 0;
    if (const cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, func, b, dynamicSMemSize);
        e != cudaSuccess) {
      return e;
    }
    if (blocks * b >= best_active) {
      best_active = blocks * b;
      best_block = b;
    }
  }
  if (best_block == 0) best_block = limit;
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  *blockSize = best_block;
  *minGridSize = prop.multiProcessorCount * (best_active > 0 ? best_active / best_block : 1);
  return cudaSuccess;
}

// __constant__ and __device__ variables are ordinary globals in the simulator; copies to and from them
// are ordered after the work queued on the legacy default stream (cudaMemcpyToSymbol's own order).
template <class T>
inline cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, std::size_t count, std::size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return ::gpulab::sim::cuda::detail::copy_symbol(const_cast<void*>(static_cast<const void*>(&symbol)), sizeof(T),
                                                  const_cast<void*>(src), count, offset, kind, true, nullptr, false);
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, std::size_t count, std::size_t offset = 0,
                                        cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return ::gpulab::sim::cuda::detail::copy_symbol(const_cast<void*>(static_cast<const void*>(&symbol)), sizeof(T),
                                                  dst, count, offset, kind, false, nullptr, false);
}
template <class T>
inline cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* src, std::size_t count, std::size_t offset = 0,
                                           cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t stream = nullptr) {
  return ::gpulab::sim::cuda::detail::copy_symbol(const_cast<void*>(static_cast<const void*>(&symbol)), sizeof(T),
                                                  const_cast<void*>(src), count, offset, kind, true, stream, true);
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, std::size_t count, std::size_t offset = 0,
                                             cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t stream = nullptr) {
  return ::gpulab::sim::cuda::detail::copy_symbol(const_cast<void*>(static_cast<const void*>(&symbol)), sizeof(T),
                                                  dst, count, offset, kind, false, stream, true);
}
template <class T>
inline cudaError_t cudaGetSymbolAddress(void** devPtr, const T& symbol) {
  if (devPtr == nullptr) return cudaErrorInvalidValue;
  *devPtr = const_cast<void*>(static_cast<const void*>(&symbol));
  return cudaSuccess;
}

// The typed allocation helpers of CUDA's C++ API.
template <class T>
inline cudaError_t cudaMalloc(T** devPtr, std::size_t size) {
  return cudaMalloc(reinterpret_cast<void**>(devPtr), size);
}
template <class T>
inline cudaError_t cudaMallocManaged(T** devPtr, std::size_t size, unsigned int flags = cudaMemAttachGlobal) {
  return cudaMallocManaged(reinterpret_cast<void**>(devPtr), size, flags);
}
template <class T>
inline cudaError_t cudaMallocHost(T** ptr, std::size_t size) {
  return cudaMallocHost(reinterpret_cast<void**>(ptr), size);
}
template <class T>
inline cudaError_t cudaHostAlloc(T** ptr, std::size_t size, unsigned int flags) {
  return cudaHostAlloc(reinterpret_cast<void**>(ptr), size, flags);
}
template <class T>
inline cudaError_t cudaMallocAsync(T** devPtr, std::size_t size, cudaStream_t stream) {
  return cudaMallocAsync(reinterpret_cast<void**>(devPtr), size, stream);
}
template <class T>
inline cudaError_t cudaMallocAsync(T** devPtr, std::size_t size, cudaMemPool_t pool, cudaStream_t stream) {
  return cudaMallocFromPoolAsync(reinterpret_cast<void**>(devPtr), size, pool, stream);
}
template <class T>
inline cudaError_t cudaMallocFromPoolAsync(T** devPtr, std::size_t size, cudaMemPool_t pool, cudaStream_t stream) {
  return cudaMallocFromPoolAsync(reinterpret_cast<void**>(devPtr), size, pool, stream);
}
template <class T>
inline cudaError_t cudaHostGetDevicePointer(T** pDevice, void* pHost, unsigned int flags) {
  return cudaHostGetDevicePointer(reinterpret_cast<void**>(pDevice), pHost, flags);
}
template <class T>
inline cudaError_t cudaMallocPitch(T** devPtr, std::size_t* pitch, std::size_t width, std::size_t height) {
  return cudaMallocPitch(reinterpret_cast<void**>(devPtr), pitch, width, height);
}

// Whether CCCL's headers are there (GPULAB_SIM_HAVE_CCCL), and how they will be read.
#include <gpulab_cccl_config.hpp>

#endif  // __cplusplus
