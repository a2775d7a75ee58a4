#pragma once
// The sim device as the engine sees it: its memory, the host threads that run blocks, its streams and
// events, and the state each instrumentation client keeps for the device (its DeviceState). Every
// operation that reaches device memory goes through here, so the clients hear of it: a launch queued
// and started, a copy or fill into device memory, a free.
#include <cstddef>
#include <map>
#include <mutex>

#include <gpulab/device.hpp>
#include <gpulab/kernel_registry.hpp>
#include <gpulab/sim/detail/instrumentation/clients.hpp>

#include "runtime/backend.hpp"
#include "sim/engine/block_pool.hpp"
#include "sim/engine/device_memory.hpp"
#include "sim/engine/streams.hpp"

namespace gpulab::sim::detail {

class SimDevice : public ClientDeviceStates<Clients> {
 public:
  using StreamHandle = StreamSet::Handle;

  SimDevice();  // GPULAB_SIM_MEMORY and GPULAB_SIM_THREADS
  ~SimDevice();
  SimDevice(const SimDevice&) = delete;
  SimDevice& operator=(const SimDevice&) = delete;

  DeviceProperties properties() const;
  MemoryInfo memory_info() const;
  DeviceMemory& memory() noexcept { return memory_; }
  const DeviceMemory& memory() const noexcept { return memory_; }
  StreamSet& streams() noexcept { return streams_; }

  void* allocate(std::size_t bytes) { return memory_.allocate(bytes); }
  void deallocate(void* p) noexcept;

  // Copies from or to host memory the caller owns (and may free on return) return once done, like
  // CUDA's copies of pageable memory; device-to-device copies and fills are asynchronous.
  void copy(void* dst, const void* src, std::size_t bytes, gpulab::detail::CopyKind kind, StreamHandle stream);
  void fill(void* dst, int byte, std::size_t bytes, StreamHandle stream);

  // Queues a launch on `stream`: the kernel's version for the checks on (instrumented or not), the
  // configuration against the kernel's dynamic shared memory limit, the clients' queue-time checks.
  void launch(const gpulab::detail::LaunchRequest& request, StreamHandle stream);
  void set_max_dynamic_shared_bytes(const gpulab::detail::KernelRecord& kernel, std::size_t bytes);
  // Queues a library's host work on `stream` (host_tasks.cpp): the regions it declares are checked as a
  // kernel's accesses are, under the checks on now.
  void run_host_task(gpulab::detail::HostTask task, StreamHandle stream);

  // A client's part of the device.
  template <class C>
  typename C::DeviceState& state() noexcept {
    return *this;
  }

 private:
  std::size_t shared_limit(const gpulab::detail::KernelRecord& kernel);

  DeviceMemory memory_;
  BlockPool pool_;
  StreamSet streams_;  // after the pool and memory: destroyed first, finishing queued work
  std::mutex limits_mutex_;
  std::map<const gpulab::detail::KernelRecord*, std::size_t> shared_limits_;
};

}  // namespace gpulab::sim::detail
