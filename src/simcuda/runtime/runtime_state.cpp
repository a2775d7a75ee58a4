// The state of gpulab-simcc programs' CUDA runtime beyond gpulab's runtime (runtime_state.hpp): CUDA's
// error variables and how an exception becomes one, the allocations and handles CUDA's calls made, and
// the exit handler that makes a program with findings fail.
//
// CUDA's semantics kept here: a fault inside a kernel is sticky (every later call returns it; only
// cudaDeviceReset clears it), other errors are non-sticky (cudaGetLastError returns and clears the
// last one, cudaPeekAtLastError only returns it).
#include "simcuda/runtime/runtime_state.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include <gpulab/error.hpp>
#include <gpulab/sim/checks.hpp>

#include "runtime/backend.hpp"
#include "simcuda/runtime/runtime_state.hpp"

namespace gpulab::sim::cuda::detail {

namespace {

std::atomic<int> sticky{cudaSuccess};
thread_local cudaError_t last_error = cudaSuccess;
std::atomic<int> findings{0};

// At exit, work still queued is finished (a fault in it is reported), and a process with findings
// exits non-zero whatever main returned, as compute-sanitizer's --error-exitcode does.
void finish_at_exit() {
  try {
    gpulab::detail::backend_for(DeviceKind::sim).synchronize_device(0);
  } catch (...) {
    translate_current_exception("exit");
  }
  if (const int n = findings.load(); n > 0) {
    std::fprintf(stderr, "========= gpulab-sim: ERROR SUMMARY: %d error%s\n", n, n == 1 ? "" : "s");
    std::fflush(nullptr);
    std::_Exit(EXIT_FAILURE);
  }
}

}  // namespace

RuntimeState::RuntimeState() : device_(sim_device()) {
  // The backend first, so that its destructor runs after the handler.
  gpulab::detail::backend_for(DeviceKind::sim);
  std::atexit(finish_at_exit);
}

RuntimeState& RuntimeState::get() {
  static RuntimeState* state = new RuntimeState;  // never destroyed: exit handlers and streams use it
  return *state;
}

const DeviceAllocation* RuntimeState::device_range(const void* p, std::size_t bytes, const char* call) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  std::lock_guard lock(mutex);
  auto it = device_allocations.upper_bound(a);
  if (it == device_allocations.begin()) return nullptr;
  --it;
  const std::uintptr_t begin = it->first;
  const std::size_t size = it->second.bytes;
  if (a - begin >= std::max<std::size_t>(size, 1)) return nullptr;
  if (bytes > size - (a - begin)) {
    throw ApiError(cudaErrorInvalidValue,
                   fmt::format("{}: {} bytes at offset {} of a {}-byte device buffer run {} bytes past its end", call,
                               bytes, a - begin, size, bytes - (size - (a - begin))));
  }
  return &it->second;
}

const DeviceAllocation* RuntimeState::allocation_of(const void* p, std::uintptr_t* begin) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  std::lock_guard lock(mutex);
  auto it = device_allocations.upper_bound(a);
  if (it == device_allocations.begin()) return nullptr;
  --it;
  if (a - it->first >= std::max<std::size_t>(it->second.bytes, 1)) return nullptr;
  if (begin != nullptr) *begin = it->first;
  return &it->second;
}

const HostRegistration* RuntimeState::registration_of(const void* p, std::uintptr_t* begin) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  std::lock_guard lock(mutex);
  auto it = host_registrations.upper_bound(a);
  if (it == host_registrations.begin()) return nullptr;
  --it;
  if (a - it->first >= it->second.bytes) return nullptr;
  if (begin != nullptr) *begin = it->first;
  return &it->second;
}

Stream RuntimeState::resolve(cudaStream_t stream) {
  if (is_legacy(stream)) return Stream::default_for(device_);
  if (is_per_thread(stream)) {
    // Made on first use by each host thread, and kept: CUDA's per-thread stream lives as long as
    // its thread, and work queued on it finishes even after the thread has gone.
    // (Held by a list that is never destroyed, so that nothing runs at exit and the leak checker
    // still sees them.)
    thread_local Stream* per_thread = nullptr;
    if (per_thread == nullptr) {
      static auto* all = new std::vector<std::unique_ptr<Stream>>;
      std::lock_guard lock(mutex);
      all->push_back(std::make_unique<Stream>(device_, StreamMode::blocking));
      per_thread = all->back().get();
    }
    return *per_thread;
  }
  std::lock_guard lock(mutex);
  if (streams.count(stream) == 0) {
    throw ApiError(cudaErrorInvalidResourceHandle, "not a stream created by cudaStreamCreate (or destroyed)");
  }
  return stream->stream;
}

void RuntimeState::wait_in_order(cudaStream_t stream) {
  Event point(device_);
  point.record(resolve(stream));
  point.synchronize();
}

cudaError_t sticky_error() noexcept { return static_cast<cudaError_t>(sticky.load()); }
void set_last_error(cudaError_t code) noexcept { last_error = code; }

// A fault one of the checks raised (their reports start with the check's name).
static bool is_check_finding(const std::string& what) {
  for (const char* check : {"memcheck:", "racecheck:", "synccheck:", "initcheck:"}) {
    if (what.find(check) != std::string::npos) return true;
  }
  return false;
}

void report_finding(const std::string& what) noexcept {
  findings.fetch_add(1);
  std::fprintf(stderr, "========= gpulab-sim: %s\n", what.c_str());
  std::fflush(stderr);
}

cudaError_t translate_current_exception(const char* call) noexcept {
  cudaError_t code = cudaErrorUnknown;
  try {
    throw;
  } catch (const KernelFault& e) {
    const std::string what = e.what();
    // The fault's kind, as CUDA's error codes tell them apart: an access out of bounds, a failed
    // device-side assert, or anything else that ends a kernel (a trap, a check's finding).
    if (what.find("memcheck") != std::string::npos) {
      code = cudaErrorIllegalAddress;
    } else if (what.find("device-side assertion") != std::string::npos) {
      code = cudaErrorAssert;
    } else {
      code = cudaErrorLaunchFailure;
    }
    // Under the checks every fault is a finding, as under compute-sanitizer, and the process exits
    // non-zero; without them a fault the program made itself (an assert, a trap) is only its error code,
    // which the program sees and may handle, as it would on a GPU.
    if (gpulab::sim::enabled_checks() != 0 || is_check_finding(what)) {
      report_finding(what);
    } else {
      std::fprintf(stderr, "gpulab-sim: %s\n", what.c_str());
      std::fflush(stderr);
    }
    int expected = cudaSuccess;
    sticky.compare_exchange_strong(expected, code);
    code = static_cast<cudaError_t>(sticky.load());
  } catch (const ApiError& e) {
    code = e.code();
    if (code != cudaErrorNotReady) std::fprintf(stderr, "gpulab-sim: %s: %s\n", call, e.what());
  } catch (const Unsupported& e) {
    code = cudaErrorNotSupported;
    std::fprintf(stderr, "gpulab-sim: %s is not supported by the simulator: %s\n", call, e.what());
  } catch (const OutOfMemory& e) {
    code = cudaErrorMemoryAllocation;
  } catch (const InvalidArgument& e) {
    code = cudaErrorInvalidValue;
    std::fprintf(stderr, "gpulab-sim: %s: %s\n", call, e.what());
  } catch (const std::bad_alloc&) {
    code = cudaErrorMemoryAllocation;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpulab-sim: %s: %s\n", call, e.what());
  } catch (...) {
  }
  if (code != cudaErrorNotReady) last_error = code;  // "not ready" is an answer, not an error
  return code;
}

cudaError_t take_last_error() noexcept {
  if (const cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  return std::exchange(last_error, cudaSuccess);
}

cudaError_t peek_last_error() noexcept {
  if (const cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  return last_error;
}

void clear_errors() noexcept {
  sticky.store(cudaSuccess);
  last_error = cudaSuccess;
}

RuntimeState& state() { return RuntimeState::get(); }

void note_once(const char* name, const char* meaning) noexcept {
  static std::mutex noted_mutex;
  static std::set<std::string>* noted = new std::set<std::string>;
  std::lock_guard lock(noted_mutex);
  if (!noted->insert(name).second) return;
  std::fprintf(stderr, "gpulab-sim: note: %s %s\n", name, meaning);
}

void require(bool condition, const char* what) {
  if (!condition) throw ApiError(cudaErrorInvalidValue, what);
}

void check_device(int device, const char* call) {
  if (device != 0) {
    throw ApiError(cudaErrorInvalidDevice, fmt::format("{}: device {}: the simulator has one device, 0", call, device));
  }
}

CUevent_st* checked_event(cudaEvent_t event) {
  std::lock_guard lock(state().mutex);
  if (event == nullptr || state().events.count(event) == 0) {
    throw ApiError(cudaErrorInvalidResourceHandle, "not an event created by cudaEventCreate (or destroyed)");
  }
  return event;
}

}  // namespace gpulab::sim::cuda::detail

void gpulabSimSelectPerThreadDefaultStream(void) {
  gpulab::sim::cuda::detail::RuntimeState::get().per_thread_default_stream = true;
}
