#pragma once
// What every call of the simulator's cuFFT shares: the plans behind cufftHandles, the result a call
// returns (and says on stderr when it refuses), and the device regions a transform's layout occupies
// (what the checks are told an exec reads and writes).
#include <cstddef>
#include <cstdio>
#include <functional>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gpulab/cpu/fft.hpp>
#include <gpulab/sim/cuda/cufft.h>

#include "simcuda/runtime/library_tasks.hpp"

namespace gpulab::sim::cufft {

using gpulab::sim::cuda::detail::DeviceRegion;
using gpulab::sim::cuda::detail::HostTaskAccess;
namespace fft = gpulab::cpu::fft;

// A call refused with a cuFFT result; the text names the argument, its value and the rule.
class StatusError : public std::runtime_error {
 public:
  StatusError(cufftResult status, const std::string& what) : std::runtime_error(what), status_(status) {}
  cufftResult status() const noexcept { return status_; }

 private:
  cufftResult status_;
};

template <class What>
void require(bool ok, cufftResult status, What&& what) {
  if (!ok) throw StatusError(status, std::forward<What>(what)());
}

const char* result_name(cufftResult result) noexcept;

// Where one side (input or output) of a plan's transforms lies: cuFFT's advanced layout, in elements
// of that side's type (real or complex).
struct Side {
  std::vector<std::size_t> extents;  // of each array (the complex side of a real transform: n/2 + 1 last)
  fft::Layout layout;
  std::size_t element_bytes = 0;
};

// A made plan: the CPU plans and the layouts. A real transform in cuFFT's basic layout reads (r2c) or
// writes (c2r) its reals padded to 2 (n/2 + 1) a row when it runs in place, packed otherwise: `padded`
// is the in-place one.
struct Transform {
  cufftType type = CUFFT_C2C;
  std::size_t batch = 1;
  Side in, out;
  Side in_padded, out_padded;  // set when `padded` is
  std::shared_ptr<const fft::ManyPlan<float>> single, single_padded;
  std::shared_ptr<const fft::ManyPlan<double>> dual, dual_padded;
};

// A cufftHandle's state: what cufftCreate made, and once a plan call has run, its transform.
struct PlanState {
  std::shared_ptr<const Transform> transform;  // null until made
  cudaStream_t stream = nullptr;
  bool auto_allocate = true;
  void* work_area = nullptr;  // cufftSetWorkArea's: recorded, not needed (the work has its own)
};

// Runs a call: its body validates and does the call. Returns its result: a StatusError's, ALLOC_FAILED
// for memory, else `failure` (a fault of the stream or a refused stream, reported as the CUDA runtime
// reports it).
template <class F>
cufftResult api(const char* call, cufftResult failure, F&& body) noexcept {
  try {
    body();
    return CUFFT_SUCCESS;
  } catch (const StatusError& e) {
    std::fprintf(stderr, "gpulab-sim: %s: %s: %s\n", call, result_name(e.status()), e.what());
    return e.status();
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "gpulab-sim: %s: CUFFT_ALLOC_FAILED: out of host memory for the plan\n", call);
    return CUFFT_ALLOC_FAILED;
  } catch (...) {
    gpulab::sim::cuda::detail::record_library_error(call);
    return failure;
  }
}

// The state of a handle cufftCreate made and cufftDestroy has not destroyed (else INVALID_PLAN); a
// copy, so the caller holds it without the registry's lock.
PlanState plan_of(cufftHandle handle);
// Runs `update` on the live state of `handle` under the registry's lock.
void update_plan(cufftHandle handle, const std::function<void(PlanState&)>& update);

// The regions the arrays of `side` (a batch of them at `base`) occupy: one run per line along the
// last dimension, merged where the lines are contiguous.
std::vector<DeviceRegion> side_regions(const void* base, const Side& side, std::size_t batch, const char* operand);

}  // namespace gpulab::sim::cufft
