// Kernel launches of gpulab-simcc programs: `k<<<...>>>(args)` (rewritten by the driver into a call of
// the launch templates in <cuda_runtime.h>), cudaLaunchKernel, and the kernel attribute and occupancy
// calls. A launch goes through gpulab's own launch path (gpulab::detail::launch_kernel) onto the sim
// device, so it gets the simulator's limits, checks and reports.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <new>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <typeinfo>

#include <fmt/format.h>

#include <gpulab/error.hpp>
#include <gpulab/launch.hpp>
#include <gpulab/sim/checks.hpp>
#include <gpulab/sim/cuda/gpulab_cuda_launch.hpp>
#include <gpulab/sim/detail/host_thread.hpp>
#include <gpulab/sim/detail/kernel_entry.hpp>

#include "sim/engine/device_limits.hpp"
#include "sim/engine/resident_blocks.hpp"
#include "simcuda/runtime/runtime_state.hpp"
#include "simcuda/runtime/stream_capture.hpp"

namespace gpulab::sim::cuda::detail {

namespace {

struct Registration {
  const gpulab::detail::KernelRecord* record = nullptr;
  bool placeholder = false;  // named by an API call, not by a launch written in the program
};

std::mutex registrations_mutex;
std::map<const void*, Registration> registrations;

bool is_placeholder_name(const char* name) { return std::string_view(name).starts_with("kernel passed to "); }

std::atomic<bool> reported_missing_instrumentation{false};

}  // namespace

const gpulab::detail::KernelRecord& register_kernel(const void* function, const std::type_info& signature,
                                                    gpulab::detail::KernelBackend backend, const void* entry,
                                                    const char* name, const char* file) {
  std::lock_guard lock(registrations_mutex);
  Registration& r = registrations[function];
  if (r.record != nullptr) {
    // A kernel first seen by cudaFuncSetAttribute takes the name of the first launch that names it.
    if (r.placeholder && !is_placeholder_name(name)) {
      const_cast<gpulab::detail::KernelRecord*>(r.record)->name = name;
      r.placeholder = false;
    }
    return *r.record;
  }
  if (const gpulab::detail::KernelRecord* exported = gpulab::detail::find_kernel(function)) {
    r.record = exported;
    return *exported;
  }
  // Keyed by file and address, so that two kernels launched through one pointer variable (one text)
  // stay two records.
  gpulab::detail::export_kernel(fmt::format("{}#{}", file, function).c_str(), name, signature, backend, function,
                                entry);
  r.record = gpulab::detail::find_kernel(function);
  r.placeholder = is_placeholder_name(name);
  if (r.record == nullptr) throw std::bad_alloc();
  return *r.record;
}

const gpulab::sim::KernelEntry& entry_of(const gpulab::detail::KernelRecord& kernel) {
  for (const auto backend : {gpulab::detail::KernelBackend::sim_checked, gpulab::detail::KernelBackend::sim}) {
    if (const void* e = kernel.entry[static_cast<int>(backend)]) return *static_cast<const gpulab::sim::KernelEntry*>(e);
  }
  throw ApiError(cudaErrorInvalidDeviceFunction, fmt::format("kernel {} has no version compiled for the simulator", kernel.name));
}

const gpulab::detail::KernelRecord* find_registered(const void* function) {
  std::lock_guard lock(registrations_mutex);
  auto it = registrations.find(function);
  return it == registrations.end() ? nullptr : it->second.record;
}

cudaError_t launch(const gpulab::detail::KernelRecord& kernel, dim3 grid, dim3 block, std::size_t shared_bytes,
                   cudaStream_t stream, void* const* args, const gpulab::detail::ArgInfo* info, std::size_t count,
                   bool instrumented, bool cooperative) {
  if (gpulab::sim::detail::host_thread.block != nullptr) {
    // A launch from device code is CUDA's dynamic parallelism, which the simulator does not run: the
    // launching kernel ends with the reason (nvcc, too, refuses it without -rdc).
    const std::string what = fmt::format(
        "launched kernel {} from device code: dynamic parallelism is not supported by the simulator", kernel.name);
    gpulab::sim::detail::kernel_abort(what.c_str(), std::source_location());
  }
  return api_call("kernel launch", [&] {
    const unsigned checks = enabled_checks();
    const unsigned instrumented_checks = checks_needing_instrumentation();
    if ((checks & instrumented_checks) != 0 && !instrumented) {
      // A check asked for but impossible is a finding: the program must not pass as checked.
      if (!reported_missing_instrumentation.exchange(true)) {
        report_finding(fmt::format("GPULAB_SIM_CHECK={} needs the kernels compiled with instrumentation, which kernel "
                                   "{} was not: rebuild the program with gpulab-simcc -G (or CHECKED in "
                                   "gpulab_add_sim_executable)",
                                   format_checks(checks & instrumented_checks), kernel.name));
      }
      throw ApiError(cudaErrorInvalidDeviceFunction,
                     fmt::format("kernel {} was not compiled with -G, which GPULAB_SIM_CHECK={} needs", kernel.name,
                                 format_checks(checks & instrumented_checks)));
    }
    if (cooperative) refuse_in_capture(stream, "cudaLaunchCooperativeKernel", "cooperative kernel nodes are not simulated");
    else if (capture_kernel(stream, kernel, grid, block, shared_bytes, args, info, count, instrumented)) return;
    LaunchConfig config;
    config.grid = Dim3(grid.x, grid.y, grid.z);
    config.block = Dim3(block.x, block.y, block.z);
    config.shared_bytes = shared_bytes;
    config.stream = RuntimeState::get().resolve(stream);
    config.cooperative = cooperative;
    if (cooperative) {
      // The co-residency limit a GPU enforces: the occupancy calls' blocks per multiprocessor times the
      // reported multiprocessors.
      const std::uint64_t blocks = std::uint64_t{grid.x} * grid.y * grid.z;
      const unsigned threads = block.x * block.y * block.z;
      const int multiprocessors = RuntimeState::get().device().properties().multiprocessor_count;
      const std::uint64_t limit = gpulab::sim::detail::co_resident_blocks(threads, shared_bytes, multiprocessors);
      if (blocks > limit && threads > 0 && threads <= 1024) {
        throw ApiError(cudaErrorCooperativeLaunchTooLarge,
                       fmt::format("cooperative launch of kernel {}: {} blocks exceed the {} that can be resident at "
                                   "once ({} per multiprocessor for blocks of {} threads with {} bytes of dynamic "
                                   "shared memory, {} multiprocessors)",
                                   kernel.name, blocks, limit, multiprocessors > 0 ? limit / multiprocessors : 0,
                                   threads, shared_bytes, multiprocessors));
      }
    }
    try {
      gpulab::detail::launch_kernel(kernel, config, args, info, count);
    } catch (const InvalidArgument& e) {
      // A configuration over a limit: CUDA's non-sticky launch error.
      throw ApiError(cudaErrorInvalidConfiguration, fmt::format("launch of kernel {}: {}", kernel.name, e.what()));
    }
    if (RuntimeState::get().host_waits_for(stream)) config.stream.synchronize();
  });
}

cudaError_t copy_symbol(void* symbol, std::size_t symbol_bytes, void* other, std::size_t count, std::size_t offset,
                        cudaMemcpyKind kind, bool to_symbol, cudaStream_t stream, bool async) {
  const char* call = to_symbol ? (async ? "cudaMemcpyToSymbolAsync" : "cudaMemcpyToSymbol")
                               : (async ? "cudaMemcpyFromSymbolAsync" : "cudaMemcpyFromSymbol");
  return api_call(call, [&] {
    if (offset > symbol_bytes || count > symbol_bytes - offset) {
      throw ApiError(cudaErrorInvalidValue, fmt::format("{}: {} bytes at offset {} of a {}-byte symbol", call, count,
                                                        offset, symbol_bytes));
    }
    const bool other_is_device = RuntimeState::get().device_range(other, count, call) != nullptr;
    const bool want_device = to_symbol ? kind == cudaMemcpyDeviceToDevice : kind == cudaMemcpyDeviceToDevice;
    if (kind != cudaMemcpyDefault && want_device != other_is_device) {
      throw ApiError(cudaErrorInvalidMemcpyDirection,
                     fmt::format("{}: the kind does not match where {} lives", call, static_cast<const void*>(other)));
    }
    if (!async) refuse_unsafe_in_capture(call, true);
    else if (capture_memcpy_1d(stream, to_symbol ? static_cast<char*>(symbol) + offset : other, to_symbol ? other : static_cast<char*>(symbol) + offset, count, cudaMemcpyDefault, call)) return;
    // Symbols are ordinary globals in the simulator: the copy waits for the stream's earlier work (and,
    // on the default stream, every blocking stream's), then copies on the caller's thread.
    RuntimeState::get().wait_in_order(stream);
    char* at = static_cast<char*>(symbol) + offset;
    if (to_symbol) {
      std::memmove(at, other, count);
    } else {
      std::memmove(other, at, count);
    }
  });
}

cudaError_t set_max_dynamic_shared(const gpulab::detail::KernelRecord& kernel, int bytes) {
  return api_call("cudaFuncSetAttribute", [&] {
    if (bytes < 0) throw ApiError(cudaErrorInvalidValue, fmt::format("cudaFuncSetAttribute: {} bytes", bytes));
    gpulab::set_max_dynamic_shared_bytes(kernel, static_cast<std::size_t>(bytes));
  });
}

cudaError_t unsupported_attribute(const char* call, int attr) {
  return api_call(call, [&] { throw Unsupported(fmt::format("cudaFuncAttribute {}", attr)); });
}

}  // namespace gpulab::sim::cuda::detail

using namespace gpulab::sim::cuda::detail;  // NOLINT: the API below is CUDA's, at global scope

namespace {

// The untyped forms (a kernel as a `const void*`, arguments as CUDA's void**): the kernel must be one
// the simulator knows, which every non-template __global__ function defined in a file gpulab-simcc
// compiled is (and any other once launched or named by its type); its entry copies the arguments.
cudaError_t launch_untyped(const char* call, const void* func, dim3 grid, dim3 block, void** args,
                           std::size_t shared_bytes, cudaStream_t stream, bool cooperative) {
  const gpulab::detail::KernelRecord* record = find_registered(func);
  if (record == nullptr) {
    return api_call(call, [&] {
      throw ApiError(cudaErrorInvalidDeviceFunction,
                     fmt::format("{}: the kernel at {} is unknown to the simulator: a template kernel passed as a void "
                                 "pointer must have been launched or named by its type before; or pass the kernel "
                                 "itself (the typed overload)",
                                 call, func));
    });
  }
  std::unique_ptr<gpulab::sim::ArgStorage> copied;
  static void* const no_arguments[1] = {nullptr};
  const cudaError_t code = api_call(call, [&] {
    if (args == nullptr && *record->signature != typeid(void())) {
      throw ApiError(cudaErrorInvalidValue, fmt::format("{}: kernel {} takes parameters but args is null", call, record->name));
    }
    copied.reset(entry_of(*record).clone_args(args != nullptr ? args : no_arguments));
  });
  if (code != cudaSuccess) return code;
  return launch(*record, grid, block, shared_bytes, stream, copied->pointers(), nullptr, 0,
                record->has(gpulab::detail::KernelBackend::sim_checked), cooperative);
}

}  // namespace

cudaError_t cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args, std::size_t sharedMem,
                             cudaStream_t stream) {
  return launch_untyped("cudaLaunchKernel", func, gridDim, blockDim, args, sharedMem, stream, false);
}

cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                        std::size_t sharedMem, cudaStream_t stream) {
  return launch_untyped("cudaLaunchCooperativeKernel", func, gridDim, blockDim, args, sharedMem, stream, true);
}

cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  const gpulab::detail::KernelRecord* record = find_registered(func);
  if (record == nullptr) {
    return api_call("cudaFuncSetAttribute", [] {
      throw ApiError(cudaErrorInvalidDeviceFunction, "pass the kernel itself, not a void pointer");
    });
  }
  if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) return cudaSuccess;
  if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize) return unsupported_attribute("cudaFuncSetAttribute", attr);
  return set_max_dynamic_shared(*record, value);
}

// What the simulator knows of a kernel: its limits. Static shared memory, registers and local memory
// are not measured (reported as 0).
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  return api_call("cudaFuncGetAttributes", [&] {
    if (attr == nullptr || func == nullptr) throw ApiError(cudaErrorInvalidValue, "a null pointer");
    *attr = cudaFuncAttributes{};
    namespace lim = gpulab::sim::detail::device_limits;
    attr->maxThreadsPerBlock = lim::max_threads_per_block;
    attr->ptxVersion = lim::compute_major * 10 + lim::compute_minor;
    attr->binaryVersion = attr->ptxVersion;
    attr->maxDynamicSharedSizeBytes = static_cast<int>(lim::shared_bytes_per_block);
  });
}

// On the sim device's sm_90 limits: 2048 threads, 32 blocks and 228 KiB of shared memory (1 KiB of it
// reserved per block) per multiprocessor; registers are not modelled.
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func, int blockSize,
                                                          std::size_t dynamicSMemSize) {
  return api_call("cudaOccupancyMaxActiveBlocksPerMultiprocessor", [&] {
    if (numBlocks == nullptr || func == nullptr) throw ApiError(cudaErrorInvalidValue, "a null pointer");
    namespace lim = gpulab::sim::detail::device_limits;
    if (blockSize <= 0 || blockSize > lim::max_threads_per_block) {
      throw ApiError(cudaErrorInvalidValue,
                     fmt::format("block size {} is not from 1 to {}", blockSize, lim::max_threads_per_block));
    }
    *numBlocks = lim::resident_blocks(blockSize, dynamicSMemSize);
  });
}

// A kernel's cache and shared-memory preferences: hints to a GPU's L1/shared split and bank width,
// which the simulator has not, so they are checked and accepted (noted once on stderr). The kernel need
// not have been launched yet, so any non-null pointer is taken as one.
cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache cacheConfig) {
  return api_call("cudaFuncSetCacheConfig", [&] {
    if (func == nullptr) throw ApiError(cudaErrorInvalidDeviceFunction, "the kernel is null");
    if (cacheConfig < cudaFuncCachePreferNone || cacheConfig > cudaFuncCachePreferEqual) {
      throw ApiError(cudaErrorInvalidValue, fmt::format("cache configuration {} is not a cudaFuncCache",
                                                        static_cast<int>(cacheConfig)));
    }
    note_once("cudaFuncSetCacheConfig", "is a hint: the simulator has no L1/shared split, so it changes nothing");
  });
}

cudaError_t cudaFuncSetSharedMemConfig(const void* func, cudaSharedMemConfig config) {
  return api_call("cudaFuncSetSharedMemConfig", [&] {
    if (func == nullptr) throw ApiError(cudaErrorInvalidDeviceFunction, "the kernel is null");
    if (config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte) {
      throw ApiError(cudaErrorInvalidValue,
                     fmt::format("shared memory configuration {} is not a cudaSharedMemConfig", static_cast<int>(config)));
    }
    note_once("cudaFuncSetSharedMemConfig", "is deprecated and a hint: shared memory has no banks in the simulator");
  });
}
