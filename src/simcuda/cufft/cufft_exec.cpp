// cuFFT's exec calls on the simulator: each validates its plan, type, pointers and direction, then
// queues the transform on the plan's stream as a host task that declares, region by region, exactly
// the device elements the plan's layout reads (its input) and writes (its output), so that memcheck
// names an exec that would run past a buffer and initcheck one that reads an unwritten input. The
// transform itself is gpulab's CPU FFT (include/gpulab/cpu/fft.hpp) run on the device buffers in place.
// C2R and Z2D keep their input intact (cuFFT may overwrite it).
#include <type_traits>

#include <fmt/format.h>

#include "simcuda/cufft/cufft_context.hpp"

namespace gpulab::sim::cufft {

namespace {

using fft::Direction;

const char* type_name(cufftType t) {
  switch (t) {
    case CUFFT_R2C:
      return "CUFFT_R2C";
    case CUFFT_C2R:
      return "CUFFT_C2R";
    case CUFFT_C2C:
      return "CUFFT_C2C";
    case CUFFT_D2Z:
      return "CUFFT_D2Z";
    case CUFFT_Z2D:
      return "CUFFT_Z2D";
    case CUFFT_Z2Z:
      return "CUFFT_Z2Z";
  }
  return "an unknown type";
}

// The made transform of `handle` for an exec of `type`, its pointers checked.
PlanState checked(const char* call, cufftHandle handle, cufftType type, const void* idata, const void* odata) {
  PlanState state = plan_of(handle);
  require(state.transform != nullptr, CUFFT_INVALID_PLAN,
          [&] { return fmt::format("plan {} was created but no plan was made for it (cufftMakePlan*)", handle); });
  require(state.transform->type == type, CUFFT_INVALID_TYPE, [&] {
    return fmt::format("plan {} is a {} plan, which {} does not execute", handle, type_name(state.transform->type), call);
  });
  require(idata != nullptr, CUFFT_INVALID_VALUE, [] { return std::string("idata is null"); });
  require(odata != nullptr, CUFFT_INVALID_VALUE, [] { return std::string("odata is null"); });
  return state;
}

Direction direction_of(int direction) {
  if (direction == CUFFT_FORWARD) return Direction::forward;
  if (direction == CUFFT_INVERSE) return Direction::inverse;
  throw StatusError(CUFFT_INVALID_VALUE,
                    fmt::format("direction = {} is not CUFFT_FORWARD (-1) or CUFFT_INVERSE (1)", direction));
}

// Queues the transform: `run(plan)` on the CPU plan of precision T that fits (the padded one of a real
// transform in basic layout run in place).
template <class T, class Run>
void enqueue(const char* call, const PlanState& state, const void* idata, void* odata, Run run) {
  const auto t = state.transform;
  const bool padded = idata == odata && (t->single_padded != nullptr || t->dual_padded != nullptr);
  const Side& in = padded ? t->in_padded : t->in;
  const Side& out = padded ? t->out_padded : t->out;
  std::shared_ptr<const fft::ManyPlan<T>> plan;
  if constexpr (std::is_same_v<T, float>) {
    plan = padded ? t->single_padded : t->single;
  } else {
    plan = padded ? t->dual_padded : t->dual;
  }
  auto reads = side_regions(idata, in, t->batch, "idata");
  auto writes = side_regions(odata, out, t->batch, "odata");
  if (gpulab::sim::cuda::detail::library_context_error() != cudaSuccess) {
    throw StatusError(CUFFT_EXEC_FAILED, "the CUDA context has failed (an earlier kernel or call faulted)");
  }
  gpulab::sim::cuda::detail::run_library_task(
      state.stream, call,
      [t, plan, reads = std::move(reads), writes = std::move(writes), run](HostTaskAccess& access) {
        for (const auto& r : reads) access.read(r);
        for (const auto& w : writes) access.write(w);
        run(*plan);
      });
}

template <class T>
cufftResult exec_c2c(const char* call, cufftType type, cufftHandle plan, std::complex<T>* in, std::complex<T>* out,
                     int direction) {
  return api(call, CUFFT_EXEC_FAILED, [&] {
    const PlanState state = checked(call, plan, type, in, out);
    const Direction d = direction_of(direction);
    enqueue<T>(call, state, in, out, [in, out, d](const fft::ManyPlan<T>& p) { p.execute(in, out, d); });
  });
}

template <class T>
cufftResult exec_r2c(const char* call, cufftType type, cufftHandle plan, T* in, std::complex<T>* out) {
  return api(call, CUFFT_EXEC_FAILED, [&] {
    const PlanState state = checked(call, plan, type, in, out);
    enqueue<T>(call, state, in, out, [in, out](const fft::ManyPlan<T>& p) { p.execute(in, out); });
  });
}

template <class T>
cufftResult exec_c2r(const char* call, cufftType type, cufftHandle plan, std::complex<T>* in, T* out) {
  return api(call, CUFFT_EXEC_FAILED, [&] {
    const PlanState state = checked(call, plan, type, in, out);
    enqueue<T>(call, state, in, out, [in, out](const fft::ManyPlan<T>& p) { p.execute(in, out); });
  });
}

template <class T, class C>
std::complex<T>* as_complex(C* p) {
  static_assert(sizeof(C) == 2 * sizeof(T));
  return reinterpret_cast<std::complex<T>*>(p);  // cuFFT's complex types are interleaved pairs, as std::complex
}

}  // namespace

}  // namespace gpulab::sim::cufft

using namespace gpulab::sim::cufft;  // NOLINT: the API below is cuFFT's, at global scope

extern "C" {

cufftResult cufftExecC2C(cufftHandle plan, cufftComplex* idata, cufftComplex* odata, int direction) {
  return exec_c2c<float>("cufftExecC2C", CUFFT_C2C, plan, as_complex<float>(idata), as_complex<float>(odata), direction);
}

cufftResult cufftExecZ2Z(cufftHandle plan, cufftDoubleComplex* idata, cufftDoubleComplex* odata, int direction) {
  return exec_c2c<double>("cufftExecZ2Z", CUFFT_Z2Z, plan, as_complex<double>(idata), as_complex<double>(odata),
                          direction);
}

cufftResult cufftExecR2C(cufftHandle plan, cufftReal* idata, cufftComplex* odata) {
  return exec_r2c<float>("cufftExecR2C", CUFFT_R2C, plan, idata, as_complex<float>(odata));
}

cufftResult cufftExecD2Z(cufftHandle plan, cufftDoubleReal* idata, cufftDoubleComplex* odata) {
  return exec_r2c<double>("cufftExecD2Z", CUFFT_D2Z, plan, idata, as_complex<double>(odata));
}

cufftResult cufftExecC2R(cufftHandle plan, cufftComplex* idata, cufftReal* odata) {
  return exec_c2r<float>("cufftExecC2R", CUFFT_C2R, plan, as_complex<float>(idata), odata);
}

cufftResult cufftExecZ2D(cufftHandle plan, cufftDoubleComplex* idata, cufftDoubleReal* odata) {
  return exec_c2r<double>("cufftExecZ2D", CUFFT_Z2D, plan, as_complex<double>(idata), odata);
}

}  // extern "C"
