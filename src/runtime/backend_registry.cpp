#include <array>
#include <memory>
#include <mutex>

#include <gpulab/error.hpp>

#include "runtime/backend.hpp"

namespace gpulab::detail {

namespace {

// Created on first use, destroyed at exit after every static that might still free memory through them
// (function-local statics die in reverse order of construction, and the first allocation constructs
// the backends before any array that uses them).
struct Backends {
  std::array<std::unique_ptr<Backend>, 3> by_kind;
  Backends() {
    by_kind[static_cast<int>(DeviceKind::host)] = make_host_backend();
    by_kind[static_cast<int>(DeviceKind::sim)] = make_sim_backend();
    by_kind[static_cast<int>(DeviceKind::cuda)] = make_cuda_backend();
  }
};

Backends& backends() {
  static Backends instance;
  return instance;
}

}  // namespace

Backend* find_backend(DeviceKind kind) noexcept { return backends().by_kind[static_cast<int>(kind)].get(); }

Backend& backend_for(DeviceKind kind) {
  Backend* b = find_backend(kind);
  if (b == nullptr) {
    if (kind == DeviceKind::cuda) {
      throw InvalidArgument("gpulab was built without the CUDA backend (GPULAB_CUDA=OFF or no toolkit); "
                            "use --device sim or cpu");
    }
    throw InvalidArgument(std::string("the ") + to_string(kind) + " backend is not part of this build");
  }
  return *b;
}

void Backend::run_host_task(int, HostTask task, StreamHandle) {
  throw InvalidArgument(std::string(task.name) + ": host tasks (the simulator's CUDA libraries) run only on the " +
                        "sim device, not on the " + to_string(kind()) + " device");
}

#if !defined(GPULAB_HAVE_CUDA)
std::unique_ptr<Backend> make_cuda_backend() { return nullptr; }
#endif

}  // namespace gpulab::detail
