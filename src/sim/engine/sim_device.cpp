#include "sim/engine/sim_device.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include <gpulab/error.hpp>
#include <gpulab/sim/checks.hpp>
#include <gpulab/sim/profile.hpp>

#include "sim/engine/device_limits.hpp"
#include "sim/engine/grid_barrier.hpp"
#include "sim/engine/resident_blocks.hpp"
#include "sim/engine/launch_job.hpp"

namespace gpulab::sim::detail {

using gpulab::detail::CopyKind;
using gpulab::detail::KernelBackend;
using gpulab::detail::KernelRecord;
using gpulab::detail::LaunchRequest;

SimDevice::SimDevice() : memory_(DeviceMemory::configured_limit()), pool_(BlockPool::configured_threads()) {
  for_each_client(Clients{}, [this]<class C>() { C::on_device_created(*this); });
}

SimDevice::~SimDevice() {
  streams_.shutdown();  // queued work first: it may still need the clients' state
  for_each_client(Clients{}, [this]<class C>() { C::on_device_destroyed(*this); });
}

DeviceProperties SimDevice::properties() const {
  namespace lim = device_limits;
  DeviceProperties p;
  p.id = "sim";
  p.name = fmt::format("gpulab simulator (sm_{}{})", lim::compute_major, lim::compute_minor);
  p.compute_major = lim::compute_major;
  p.compute_minor = lim::compute_minor;
  p.multiprocessor_count = pool_.size();
  p.total_memory = memory_.limit();
  p.l2_cache_bytes = lim::l2_cache_bytes;
  p.shared_memory_per_block = lim::shared_bytes_per_block;
  p.shared_memory_per_block_optin = lim::shared_bytes_per_block_optin;
  p.shared_memory_per_multiprocessor = lim::shared_bytes_per_multiprocessor;
  p.max_threads_per_block = lim::max_threads_per_block;
  p.max_block_dim = {lim::max_block_dim[0], lim::max_block_dim[1], lim::max_block_dim[2]};
  p.max_grid_dim = {lim::max_grid_dim[0], lim::max_grid_dim[1], lim::max_grid_dim[2]};
  p.max_threads_per_multiprocessor = lim::max_threads_per_multiprocessor;
  p.registers_per_block = lim::registers_per_block;
  p.warp_size = lim::warp_size;
  return p;
}

MemoryInfo SimDevice::memory_info() const {
  const std::size_t used = memory_.used();
  return MemoryInfo{memory_.limit() - std::min(used, memory_.limit()), memory_.limit()};
}

void SimDevice::deallocate(void* p) noexcept {
  if (p == nullptr) return;
  if (const auto b = memory_.buffer_of(p); b && b->begin == reinterpret_cast<std::uintptr_t>(p)) {
    for_each_client(Clients{}, [&]<class C>() { C::on_free(*this, *b); });
  }
  memory_.deallocate(p);
}

void SimDevice::copy(void* dst, const void* src, std::size_t bytes, CopyKind kind, StreamHandle stream) {
  if (bytes == 0) return;
  const unsigned checks = enabled_checks();
  const bool to_device = kind != CopyKind::device_to_host;
  auto task = [this, dst, src, bytes, checks, to_device] {
    std::memmove(dst, src, bytes);
    if (to_device) for_each_client(Clients{}, [&]<class C>() { C::on_device_write(*this, dst, bytes, checks); });
  };
  if (kind == CopyKind::device_to_device) {
    streams_.submit(stream, task);
    return;
  }
  streams_.submit(stream, task).synchronize();
}

void SimDevice::fill(void* dst, int byte, std::size_t bytes, StreamHandle stream) {
  if (bytes == 0) return;
  const unsigned checks = enabled_checks();
  streams_.submit(stream, [this, dst, byte, bytes, checks] {
    std::memset(dst, byte, bytes);
    for_each_client(Clients{}, [&]<class C>() { C::on_device_write(*this, dst, bytes, checks); });
  });
}

void SimDevice::launch(const LaunchRequest& request, StreamHandle stream) {
  const KernelRecord& kernel = *request.kernel;
  unsigned checks = enabled_checks();
  // The profiler counts in kernels compiled with instrumentation; of the others it knows the launch.
  const bool profiling = gpulab::sim::profile_sections() != gpulab::sim::profile_none;
  if (profiling && kernel.has(KernelBackend::sim_checked)) checks |= Profiler::flag;
  KernelBackend version = KernelBackend::sim;
  if (checks & instrumented_clients) {
    if (!kernel.has(KernelBackend::sim_checked)) {
      throw InvalidArgument(fmt::format(
          "GPULAB_SIM_CHECK={} needs the instrumented compilation of kernel {} ({}), which this build lacks: "
          "configure with -DGPULAB_SIM_CHECKED_KERNELS=ON (the default; off in the sanitize preset only if "
          "set so) and do not pass NO_CHECKED to gpulab_add_kernels",
          format_checks(checks & instrumented_clients), kernel.name, kernel.file));
    }
    version = KernelBackend::sim_checked;
  } else if (!kernel.has(KernelBackend::sim)) {
    version = KernelBackend::sim_checked;  // the instrumented code runs fine with the checks off
  }
  const auto* entry = static_cast<const KernelEntry*>(kernel.entry[static_cast<int>(version)]);
  if (entry == nullptr) {
    throw InvalidArgument(fmt::format("kernel {} has no version compiled for the simulator", kernel.name));
  }
  const std::size_t limit = shared_limit(kernel);
  if (request.shared_bytes > limit) {
    throw InvalidArgument(fmt::format(
        "kernel {}: {} bytes of dynamic shared memory exceed its limit of {} bytes per block{}", kernel.name,
        request.shared_bytes, limit,
        limit < device_limits::shared_bytes_per_block_optin
            ? fmt::format("; raise it (up to {} bytes) with gpulab::set_max_dynamic_shared_bytes",
                          device_limits::shared_bytes_per_block_optin)
            : std::string()));
  }
  auto job = std::make_shared<LaunchJob>();
  job->kernel_name = kernel.name;
  job->entry = entry;
  job->function = kernel.function[static_cast<int>(version)];
  job->grid = dim3(request.grid.x, request.grid.y, request.grid.z);
  job->block = dim3(request.block.x, request.block.y, request.block.z);
  job->threads_per_block = static_cast<unsigned>(request.block.count());
  job->shared_bytes = request.shared_bytes;
  job->clients = checks;
  job->device = this;
  job->block_count = request.grid.count();
  job->arg_info.assign(request.arg_info, request.arg_info + request.arg_count);
  job->resident_limit = co_resident_blocks(job->threads_per_block, job->shared_bytes, pool_.size());
  if (request.cooperative) {
    // Every block resident at once, as a GPU requires of a cooperative launch.
    const std::uint64_t limit = job->resident_limit;
    if (job->block_count > limit) {
      throw InvalidArgument(fmt::format("kernel {}: a cooperative launch of {} blocks exceeds the {} blocks of {} threads "
                                        "({} bytes of dynamic shared memory) that can be resident at once on {} "
                                        "multiprocessors",
                                        kernel.name, job->block_count, limit, job->threads_per_block, job->shared_bytes,
                                        pool_.size()));
    }
    job->grid_barrier = std::make_shared<GridBarrier>(job->block_count);
  }
  for_each_client(Clients{}, [&]<class C>() { C::on_launch_queued(*this, *job); });
  job->args.reset(entry->clone_args(request.args));
  streams_.submit(stream, [this, job] {
    for_each_client(Clients{}, [&]<class C>() { C::on_launch_start(*this, *job); });
    job->stream.store(current_stream());
    pool_.run(job);
    for_each_client(Clients{}, [&]<class C>() { C::on_launch_end(*this, *job); });
    if (!job->fault.empty()) throw KernelFault(job->kernel_name, job->fault);
  });
}

void SimDevice::set_max_dynamic_shared_bytes(const KernelRecord& kernel, std::size_t bytes) {
  if (bytes > device_limits::shared_bytes_per_block_optin) {
    throw InvalidArgument(fmt::format("kernel {}: {} bytes of dynamic shared memory exceed the sim device's opt-in "
                                      "limit of {} bytes per block",
                                      kernel.name, bytes, device_limits::shared_bytes_per_block_optin));
  }
  std::lock_guard lock(limits_mutex_);
  shared_limits_[&kernel] = bytes;
}

std::size_t SimDevice::shared_limit(const KernelRecord& kernel) {
  std::lock_guard lock(limits_mutex_);
  auto it = shared_limits_.find(&kernel);
  return it == shared_limits_.end() ? device_limits::shared_bytes_per_block
                                    : std::max(it->second, device_limits::shared_bytes_per_block);
}

}  // namespace gpulab::sim::detail
