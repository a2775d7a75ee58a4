#pragma once
// The few things a device does. Two backends implement it for kernels, `cuda` (on cudart) and `sim`
// (the CPU simulator), and a third, `host`, gives the host's memory the same interface so that copies
// and arrays are written once. Nothing above this layer knows which backend it talks to.
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include <gpulab/device.hpp>
#include <gpulab/kernel_registry.hpp>
#include <gpulab/launch.hpp>
#include <gpulab/stream.hpp>

namespace gpulab::detail {

using StreamHandle = void*;  // owned by the backend; nullptr is never a valid created stream
using EventHandle = void*;

enum class CopyKind { host_to_device, device_to_host, device_to_device, host_to_host };

struct LaunchRequest {
  const KernelRecord* kernel = nullptr;
  Dim3 grid, block;
  std::size_t shared_bytes = 0;
  void* const* args = nullptr;
  const ArgInfo* arg_info = nullptr;
  std::size_t arg_count = 0;
  bool cooperative = false;  // LaunchConfig::cooperative
};

// Device memory that a library's host code (the simulator's cuBLAS and cuRAND) reads or writes: `runs`
// runs of `run_bytes` contiguous bytes, `stride` bytes apart (a column-major matrix's columns, a strided
// vector's elements); `operand` is the parameter's name for reports ("A", "x").
struct DeviceRegion {
  const void* begin = nullptr;
  std::size_t run_bytes = 0;
  std::size_t runs = 1;
  std::size_t stride = 0;
  const char* operand = "";
};

// What a host task says of the device memory it is about to touch, so that the checks see it as they
// see a kernel's accesses: each call throws KernelFault naming the task and the operand when the region
// is not all in device memory (or, read under initcheck, holds bytes never written).
class HostTaskAccess {
 public:
  virtual void read(const DeviceRegion& region) = 0;
  virtual void write(const DeviceRegion& region) = 0;

 protected:
  ~HostTaskAccess() = default;
};

// Library work done on the host in stream order, as a kernel on that stream would run: after the
// stream's earlier work, before its later work, its faults the stream's.
struct HostTask {
  std::string name;  // the API call, "cublasSgemm_v2"
  std::function<void(HostTaskAccess&)> body;
};

class Backend {
 public:
  virtual ~Backend() = default;

  virtual DeviceKind kind() const noexcept = 0;
  // Usable devices of this kind; 0 when none (and never throws for that).
  virtual int device_count() = 0;
  virtual DeviceProperties properties(int ordinal) = 0;
  virtual MemoryInfo memory_info(int ordinal) = 0;

  // Throws OutOfMemory when it does not fit.
  virtual void* allocate(int ordinal, std::size_t bytes) = 0;
  virtual void deallocate(int ordinal, void* ptr) noexcept = 0;
  // Host memory kernels may use in place (CUDA's cudaHostRegister): false when [ptr, ptr + bytes)
  // overlaps a registration, or when the device cannot map host memory.
  virtual bool register_host_memory(int ordinal, void* ptr, std::size_t bytes) {
    (void)ordinal, (void)ptr, (void)bytes;
    return false;
  }
  virtual bool unregister_host_memory(int ordinal, void* ptr) {
    (void)ordinal, (void)ptr;
    return false;
  }

  // Copies and fills are ordered on `stream` and may return before they finish.
  virtual void copy(int ordinal, void* dst, const void* src, std::size_t bytes, CopyKind kind,
                    StreamHandle stream) = 0;
  virtual void fill(int ordinal, void* dst, int byte, std::size_t bytes, StreamHandle stream) = 0;

  virtual StreamHandle default_stream(int ordinal) = 0;
  virtual StreamHandle create_stream(int ordinal, StreamMode mode) = 0;
  virtual void destroy_stream(int ordinal, StreamHandle stream) noexcept = 0;
  virtual void synchronize_stream(int ordinal, StreamHandle stream) = 0;
  virtual bool query_stream(int ordinal, StreamHandle stream) = 0;
  virtual void stream_wait_event(int ordinal, StreamHandle stream, EventHandle event) = 0;

  virtual EventHandle create_event(int ordinal) = 0;
  virtual void destroy_event(int ordinal, EventHandle event) noexcept = 0;
  virtual void record_event(int ordinal, EventHandle event, StreamHandle stream) = 0;
  virtual void synchronize_event(int ordinal, EventHandle event) = 0;
  virtual bool query_event(int ordinal, EventHandle event) = 0;
  virtual float elapsed_ms(int ordinal, EventHandle start, EventHandle end) = 0;

  // The configuration was already checked against properties(ordinal).
  virtual void launch(int ordinal, const LaunchRequest& request, StreamHandle stream) = 0;
  virtual void set_max_dynamic_shared_bytes(const KernelRecord& kernel, std::size_t bytes) = 0;
  virtual void synchronize_device(int ordinal) = 0;

  // Queues `task` on `stream`. Only the sim device runs host tasks (its memory is the host's); the
  // others refuse with InvalidArgument.
  virtual void run_host_task(int ordinal, HostTask task, StreamHandle stream);
};

// Checks a launch configuration against a device's limits; throws InvalidArgument naming the limit.
void validate_launch(const DeviceProperties& props, const LaunchConfig& config);

// The backend for a kind; throws InvalidArgument when it was not built (CUDA off) or not available.
Backend& backend_for(DeviceKind kind);
// nullptr when the kind was not built in.
Backend* find_backend(DeviceKind kind) noexcept;

// Each backend's factory, defined beside it. The CUDA and sim ones return nullptr when not built.
std::unique_ptr<Backend> make_host_backend();
std::unique_ptr<Backend> make_cuda_backend();
std::unique_ptr<Backend> make_sim_backend();

}  // namespace gpulab::detail
