#include <gpulab/error.hpp>
#include <gpulab/launch.hpp>

#include <optional>

#include <fmt/format.h>

#include "runtime/backend.hpp"
#include "runtime/env.hpp"
#include "runtime/log.hpp"
#include "runtime/stream_state.hpp"

namespace gpulab::detail {

namespace {

// The device a launch runs on: the stream's, else the one its arguments' memory lives on.
Device launch_device(const KernelRecord& kernel, const LaunchConfig& config, const ArgInfo* info, std::size_t n) {
  std::optional<Device> device;
  if (config.stream.valid()) device = config.stream.device();
  for (std::size_t i = 0; i < n; ++i) {
    if (!info[i].has_space) continue;
    const Device arg_device(info[i].space.kind, info[i].space.ordinal);
    if (arg_device.is_host()) {
      throw InvalidArgument(fmt::format("kernel {}: argument {} is a view of host memory; kernels read device "
                                        "memory: copy it with to_device first",
                                        kernel.name, i + 1));
    }
    if (!device) {
      device = arg_device;
    } else if (*device != arg_device) {
      throw InvalidArgument(fmt::format("kernel {}: argument {} lives on {} but the launch runs on {}", kernel.name,
                                        i + 1, arg_device.id(), device->id()));
    }
  }
  return device ? *device : default_device();
}

void check_dims(const char* what, const Dim3& d, const std::array<int, 3>& limit) {
  const unsigned v[3] = {d.x, d.y, d.z};
  static constexpr char axis[3] = {'x', 'y', 'z'};
  for (int i = 0; i < 3; ++i) {
    if (v[i] == 0) throw InvalidArgument(fmt::format("{}.{} is 0: every extent must be at least 1", what, axis[i]));
    if (v[i] > static_cast<unsigned>(limit[i])) {
      throw InvalidArgument(
          fmt::format("{}.{} = {} exceeds the device's limit of {}", what, axis[i], v[i], limit[i]));
    }
  }
}

}  // namespace

void validate_launch(const DeviceProperties& props, const LaunchConfig& config) {
  check_dims("block", config.block, props.max_block_dim);
  check_dims("grid", config.grid, props.max_grid_dim);
  const std::uint64_t threads = config.block.count();
  if (threads > static_cast<std::uint64_t>(props.max_threads_per_block)) {
    throw InvalidArgument(fmt::format("block of {}x{}x{} = {} threads exceeds the limit of {} threads per block on {}",
                                      config.block.x, config.block.y, config.block.z, threads,
                                      props.max_threads_per_block, props.id));
  }
  if (config.shared_bytes > props.shared_memory_per_block_optin) {
    throw InvalidArgument(fmt::format("{} bytes of dynamic shared memory exceed the limit of {} bytes per block on {}",
                                      config.shared_bytes, props.shared_memory_per_block_optin, props.id));
  }
}

void launch_kernel(const KernelRecord& kernel, const LaunchConfig& config, void* const* args, const ArgInfo* info,
                   std::size_t arg_count) {
  const Device device = launch_device(kernel, config, info, arg_count);
  if (device.is_host()) {
    throw InvalidArgument(fmt::format("kernel {}: kernels run on cuda or sim devices, not on cpu", kernel.name));
  }
  const bool has_version = device.is_cuda() ? kernel.has(KernelBackend::cuda)
                                            : kernel.has(KernelBackend::sim) || kernel.has(KernelBackend::sim_checked);
  if (!has_version) {
    throw InvalidArgument(fmt::format(
        "kernel {} has no version compiled for {}: build its file with gpulab_add_kernels and export it with "
        "GPULAB_EXPORT_KERNEL{}",
        kernel.name, device.id(), device.is_cuda() ? " (and configure with CUDA on)" : ""));
  }
  validate_launch(device.properties(), config);
  if (config.cooperative && device.is_cuda()) {
    throw InvalidArgument(fmt::format("kernel {}: a cooperative launch through gpulab's launch API on {} (it runs on sim "
                                  "devices only, for now)",
                                  kernel.name, device.id()));
  }
  Backend& backend = backend_for(device.kind());
  const StreamHandle stream = stream_handle_for(config.stream, device);
  log_debug("launch {} on {}: grid ({},{},{}) block ({},{},{}) shared {} bytes stream {}", kernel.name, device.id(),
            config.grid.x, config.grid.y, config.grid.z, config.block.x, config.block.y, config.block.z,
            config.shared_bytes, static_cast<const void*>(stream));
  LaunchRequest request;
  request.kernel = &kernel;
  request.grid = config.grid;
  request.block = config.block;
  request.shared_bytes = config.shared_bytes;
  request.args = args;
  request.arg_info = info;
  request.arg_count = arg_count;
  request.cooperative = config.cooperative;
  backend.launch(device.ordinal(), request, stream);
  // GPULAB_LAUNCH_BLOCKING=1 (CUDA_LAUNCH_BLOCKING's counterpart): wait after each launch, so that a
  // fault is reported by the launch that caused it.
  static const bool blocking = env_flag("GPULAB_LAUNCH_BLOCKING", false);
  if (blocking) backend.synchronize_stream(device.ordinal(), stream);
}

}  // namespace gpulab::detail

namespace gpulab {

void set_max_dynamic_shared_bytes(const detail::KernelRecord& kernel, std::size_t bytes) {
  using detail::KernelBackend;
  if (kernel.has(KernelBackend::cuda)) {
    if (auto* b = detail::find_backend(DeviceKind::cuda); b != nullptr && b->device_count() > 0) {
      b->set_max_dynamic_shared_bytes(kernel, bytes);
    }
  }
  if (kernel.has(KernelBackend::sim) || kernel.has(KernelBackend::sim_checked)) {
    if (auto* b = detail::find_backend(DeviceKind::sim)) b->set_max_dynamic_shared_bytes(kernel, bytes);
  }
}

}  // namespace gpulab
