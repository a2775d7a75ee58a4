// Host tasks (src/runtime/backend.hpp): the work of the simulator's CUDA libraries, done on the host in
// stream order. The device is the host, so a cuBLAS product is gpulab's CPU GEMM run on the device
// buffers in place; what keeps it honest is that each region the task declares is checked as a kernel's
// accesses would be: all of it in live device memory (always, as a GPU faults on a wild pointer), its
// reads written before under initcheck, its writes marked written.
#include <cstdint>
#include <string>
#include <utility>

#include <fmt/format.h>

#include <gpulab/error.hpp>
#include <gpulab/sim/checks.hpp>

#include "sim/engine/sim_device.hpp"

namespace gpulab::sim::detail {

namespace {

using gpulab::detail::DeviceRegion;

class SimHostTaskAccess final : public gpulab::detail::HostTaskAccess {
 public:
  SimHostTaskAccess(SimDevice& device, const std::string& task, unsigned checks)
      : device_(device), task_(task), checks_(checks) {}

  void read(const DeviceRegion& region) override {
    for_each_run(region, [&](const void* p) {
      require_device_memory(region, p, "read");
      for_each_client(Clients{}, [&]<class C>() {
        if (std::string finding = C::on_host_read(device_, p, region.run_bytes, checks_); !finding.empty()) {
          throw KernelFault(task_, fmt::format("{} (operand {})", finding, region.operand));
        }
      });
    });
  }

  void write(const DeviceRegion& region) override {
    for_each_run(region, [&](const void* p) {
      require_device_memory(region, p, "write");
      for_each_client(Clients{}, [&]<class C>() { C::on_device_write(device_, p, region.run_bytes, checks_); });
    });
  }

 private:
  template <class F>
  static void for_each_run(const DeviceRegion& region, F&& f) {
    if (region.run_bytes == 0) return;
    const auto* p = static_cast<const unsigned char*>(region.begin);
    for (std::size_t r = 0; r < region.runs; ++r) f(p + r * region.stride);
  }

  // Every byte of the run is in a live device buffer or in registered host memory; else a memcheck
  // finding that says where the run lies.
  void require_device_memory(const DeviceRegion& region, const void* p, const char* verb) const {
    const DeviceMemory& memory = device_.memory();
    const std::size_t bytes = region.run_bytes;
    if (memory.contains(p) ? memory.addressable(p, bytes) : memory.host_registered(p, bytes) != 0) return;
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    std::string where;
    if (!memory.contains(p)) {
      where = "host memory, not device memory (a pointer cudaMalloc did not return, or host memory not "
              "registered with cudaHostRegister)";
    } else if (const auto b = memory.buffer_at_or_below(p); b && at < b->begin + b->bytes) {
      where = fmt::format("offset {} of device buffer #{} ({} bytes), and runs {} bytes past its end", at - b->begin,
                          b->id, b->bytes, at + bytes - (b->begin + b->bytes));
    } else if (b) {
      where = fmt::format("{} bytes past the end of device buffer #{} ({} bytes)", at - (b->begin + b->bytes), b->id,
                          b->bytes);
    } else {
      where = "device memory no live buffer holds (freed, or never allocated)";
    }
    throw KernelFault(task_, fmt::format("memcheck: it would {} {} bytes of operand {} at {}: {}", verb, bytes,
                                         region.operand, p, where));
  }

  SimDevice& device_;
  const std::string& task_;
  const unsigned checks_;
};

}  // namespace

void SimDevice::run_host_task(gpulab::detail::HostTask task, StreamHandle stream) {
  const unsigned checks = enabled_checks();
  streams_.submit(stream, [this, task = std::move(task), checks] {
    SimHostTaskAccess access(*this, task.name, checks);
    task.body(access);
  });
}

}  // namespace gpulab::sim::detail
