// The `sim` device's Backend: the interface of src/runtime/backend.hpp over the simulator's engine
// (src/sim/engine/sim_device.hpp), which does the work.
#include <memory>
#include <utility>

#include "runtime/backend.hpp"
#include "sim/engine/sim_device.hpp"

namespace gpulab::detail {

namespace {

using gpulab::sim::detail::SimDevice;

class SimBackend final : public Backend {
 public:
  DeviceKind kind() const noexcept override { return DeviceKind::sim; }
  int device_count() override { return 1; }
  DeviceProperties properties(int) override { return device_.properties(); }
  MemoryInfo memory_info(int) override { return device_.memory_info(); }

  void* allocate(int, std::size_t bytes) override { return device_.allocate(bytes); }
  void deallocate(int, void* ptr) noexcept override { device_.deallocate(ptr); }
  bool register_host_memory(int, void* ptr, std::size_t bytes) override {
    return device_.memory().register_host(ptr, bytes);
  }
  bool unregister_host_memory(int, void* ptr) override { return device_.memory().unregister_host(ptr); }
  void copy(int, void* dst, const void* src, std::size_t bytes, CopyKind kind, StreamHandle stream) override {
    device_.copy(dst, src, bytes, kind, stream);
  }
  void fill(int, void* dst, int byte, std::size_t bytes, StreamHandle stream) override {
    device_.fill(dst, byte, bytes, stream);
  }

  StreamHandle default_stream(int) override { return device_.streams().default_stream(); }
  StreamHandle create_stream(int, StreamMode mode) override { return device_.streams().create_stream(mode); }
  void destroy_stream(int, StreamHandle stream) noexcept override { device_.streams().destroy_stream(stream); }
  void synchronize_stream(int, StreamHandle stream) override { device_.streams().synchronize(stream); }
  bool query_stream(int, StreamHandle stream) override { return device_.streams().query(stream); }
  void stream_wait_event(int, StreamHandle stream, EventHandle event) override { device_.streams().wait(stream, event); }

  EventHandle create_event(int) override { return device_.streams().create_event(); }
  void destroy_event(int, EventHandle event) noexcept override { device_.streams().destroy_event(event); }
  void record_event(int, EventHandle event, StreamHandle stream) override { device_.streams().record(event, stream); }
  void synchronize_event(int, EventHandle event) override { device_.streams().synchronize_event(event); }
  bool query_event(int, EventHandle event) override { return device_.streams().query_event(event); }
  float elapsed_ms(int, EventHandle start, EventHandle end) override { return device_.streams().elapsed_ms(start, end); }

  void launch(int, const LaunchRequest& request, StreamHandle stream) override { device_.launch(request, stream); }
  void set_max_dynamic_shared_bytes(const KernelRecord& kernel, std::size_t bytes) override {
    device_.set_max_dynamic_shared_bytes(kernel, bytes);
  }
  void synchronize_device(int) override { device_.streams().synchronize_all(); }
  void run_host_task(int, HostTask task, StreamHandle stream) override {
    device_.run_host_task(std::move(task), stream);
  }

 private:
  SimDevice device_;
};

}  // namespace

std::unique_ptr<Backend> make_sim_backend() { return std::make_unique<SimBackend>(); }

}  // namespace gpulab::detail
