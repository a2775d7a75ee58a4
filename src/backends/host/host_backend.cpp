// The host as a backend: its memory, with copies that are plain memcpy and streams that are already
// finished. It lets arrays and copies be written once for every memory space; kernels never run here.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <string>
#include <thread>

#include <sys/sysinfo.h>
#include <unistd.h>

#include <fmt/format.h>

#include <gpulab/cpu/cpu_info.hpp>
#include <gpulab/error.hpp>

#include "runtime/backend.hpp"

namespace gpulab::detail {

namespace {

std::string host_cpu_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown CPU";
}

std::size_t physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : 0;
}

std::size_t swap_memory() {
  struct sysinfo info {};
  if (sysinfo(&info) != 0) return 0;
  return static_cast<std::size_t>(info.totalswap) * info.mem_unit;
}

std::size_t available_memory() {
  const long pages = sysconf(_SC_AVPHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : 0;
}

// Events on the host record the time they were recorded at: host work has finished by then.
struct HostEvent {
  std::chrono::steady_clock::time_point at{};
};

class HostBackend final : public Backend {
 public:
  DeviceKind kind() const noexcept override { return DeviceKind::host; }
  int device_count() override { return 1; }

  DeviceProperties properties(int) override {
    DeviceProperties p;
    p.id = "cpu";
    const cpu::CpuInfo& info = cpu::cpu_info();
    p.name = info.model_name.empty() ? host_cpu_name() : info.model_name;
    if (!info.microarchitecture.empty()) p.name += " (" + info.microarchitecture + ")";
    p.multiprocessor_count = info.cores > 0 ? info.cores : static_cast<int>(std::thread::hardware_concurrency());
    p.total_memory = physical_memory();
    p.isa = fmt::format("{} ({}-bit FMA, from {}), {:.2f} GHz", cpu::to_string(info.best_isa), info.fma_width_bits,
                        info.fma_width_source, info.clock_ghz);
    return p;
  }

  MemoryInfo memory_info(int) override { return {available_memory(), physical_memory()}; }

  void* allocate(int, std::size_t bytes) override {
    // 64-byte alignment: a cache line, and what AVX-512 loads like.
    const std::size_t rounded = (bytes + 63) / 64 * 64;
    // More than the machine's memory and swap cannot be had; refusing it here also keeps such a request
    // away from allocators (ASan's among them) that abort rather than return null.
    if (bytes > physical_memory() + swap_memory()) {
      throw OutOfMemory("cpu", bytes, available_memory(), physical_memory());
    }
    void* p = std::aligned_alloc(64, rounded);
    if (p == nullptr) throw OutOfMemory("cpu", bytes, available_memory(), physical_memory());
    return p;
  }
  void deallocate(int, void* ptr) noexcept override { std::free(ptr); }

  void copy(int, void* dst, const void* src, std::size_t bytes, CopyKind, StreamHandle) override {
    std::memmove(dst, src, bytes);
  }
  void fill(int, void* dst, int byte, std::size_t bytes, StreamHandle) override { std::memset(dst, byte, bytes); }

  StreamHandle default_stream(int) override { return &default_stream_token_; }
  StreamHandle create_stream(int, StreamMode) override { return new char(0); }
  void destroy_stream(int, StreamHandle stream) noexcept override {
    if (stream != &default_stream_token_) delete static_cast<char*>(stream);
  }
  void synchronize_stream(int, StreamHandle) override {}
  bool query_stream(int, StreamHandle) override { return true; }
  void stream_wait_event(int, StreamHandle, EventHandle) override {}

  EventHandle create_event(int) override { return new HostEvent; }
  void destroy_event(int, EventHandle event) noexcept override { delete static_cast<HostEvent*>(event); }
  void record_event(int, EventHandle event, StreamHandle) override {
    static_cast<HostEvent*>(event)->at = std::chrono::steady_clock::now();
  }
  void synchronize_event(int, EventHandle) override {}
  bool query_event(int, EventHandle) override { return true; }
  float elapsed_ms(int, EventHandle start, EventHandle end) override {
    const auto d = static_cast<HostEvent*>(end)->at - static_cast<HostEvent*>(start)->at;
    return std::chrono::duration<float, std::milli>(d).count();
  }

  void launch(int, const LaunchRequest& request, StreamHandle) override {
    throw InvalidArgument("kernel " + request.kernel->name + ": kernels run on cuda or sim devices, not on cpu");
  }
  void set_max_dynamic_shared_bytes(const KernelRecord&, std::size_t) override {}
  void synchronize_device(int) override {}

 private:
  char default_stream_token_ = 0;
};

}  // namespace

std::unique_ptr<Backend> make_host_backend() { return std::make_unique<HostBackend>(); }

}  // namespace gpulab::detail
