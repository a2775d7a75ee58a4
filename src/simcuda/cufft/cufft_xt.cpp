// cuFFTXt on the simulator (include/gpulab/sim/cuda/cufftXt.h): its single-GPU planning and execution by
// data type, on the plans of cufft_plans.cpp and the transforms of cufft_exec.cpp; the multi-GPU and
// callback calls refused with CUFFT_NOT_SUPPORTED, said on stderr.
#include <gpulab/sim/cuda/cufftXt.h>

#include <string>

#include "simcuda/cufft/cufft_context.hpp"

namespace gpulab::sim::cufft {
namespace {

const char* type_name(cudaDataType t) {
  switch (t) {
    case CUDA_R_32F: return "CUDA_R_32F";
    case CUDA_C_32F: return "CUDA_C_32F";
    case CUDA_R_64F: return "CUDA_R_64F";
    case CUDA_C_64F: return "CUDA_C_64F";
    case CUDA_R_16F: return "CUDA_R_16F";
    case CUDA_C_16F: return "CUDA_C_16F";
    default: return "another cudaDataType";
  }
}

// The cufftType of a plan by data types: the execution type is the complex type of the transform's
// precision, the input and output its real or complex forms.
cufftType type_of(cudaDataType input, cudaDataType output, cudaDataType execution) {
  const std::string what = std::string("input ") + type_name(input) + ", output " + type_name(output) +
                           ", execution " + type_name(execution);
  if (execution == CUDA_C_32F || execution == CUDA_R_32F) {
    if (input == CUDA_C_32F && output == CUDA_C_32F) return CUFFT_C2C;
    if (input == CUDA_R_32F && output == CUDA_C_32F) return CUFFT_R2C;
    if (input == CUDA_C_32F && output == CUDA_R_32F) return CUFFT_C2R;
  } else if (execution == CUDA_C_64F || execution == CUDA_R_64F) {
    if (input == CUDA_C_64F && output == CUDA_C_64F) return CUFFT_Z2Z;
    if (input == CUDA_R_64F && output == CUDA_C_64F) return CUFFT_D2Z;
    if (input == CUDA_C_64F && output == CUDA_R_64F) return CUFFT_Z2D;
  } else if (execution == CUDA_C_16F || execution == CUDA_R_16F || execution == CUDA_C_16BF ||
             execution == CUDA_R_16BF) {
    throw StatusError(CUFFT_NOT_SUPPORTED, what + ": half and bfloat16 transforms are not simulated");
  }
  throw StatusError(CUFFT_INVALID_TYPE, what + " is no transform cuFFT has");
}

cufftResult refused(const char* call, const char* why) {
  return api(call, CUFFT_NOT_SUPPORTED, [&] { throw StatusError(CUFFT_NOT_SUPPORTED, why); });
}

constexpr const char* kOneDevice = "the simulated machine has one device, so cuFFTXt's multi-GPU calls are not simulated";
constexpr const char* kNoCallbacks = "cuFFT callbacks are not simulated";

}  // namespace
}  // namespace gpulab::sim::cufft

using namespace gpulab::sim::cufft;  // NOLINT: the API below is cuFFT's, at global scope

extern "C" {

cufftResult cufftXtMakePlanMany(cufftHandle plan, int rank, long long int* n, long long int* inembed,
                                long long int istride, long long int idist, cudaDataType inputtype,
                                long long int* onembed, long long int ostride, long long int odist,
                                cudaDataType outputtype, long long int batch, size_t* workSize,
                                cudaDataType executiontype) {
  cufftType type = CUFFT_C2C;
  const cufftResult r = api("cufftXtMakePlanMany", CUFFT_SETUP_FAILED,
                            [&] { type = type_of(inputtype, outputtype, executiontype); });
  if (r != CUFFT_SUCCESS) return r;
  return cufftMakePlanMany64(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize);
}

cufftResult cufftXtGetSizeMany(cufftHandle plan, int rank, long long int* n, long long int* inembed,
                               long long int istride, long long int idist, cudaDataType inputtype,
                               long long int* onembed, long long int ostride, long long int odist,
                               cudaDataType outputtype, long long int batch, size_t* workSize,
                               cudaDataType executiontype) {
  cufftType type = CUFFT_C2C;
  const cufftResult r = api("cufftXtGetSizeMany", CUFFT_INTERNAL_ERROR,
                            [&] { type = type_of(inputtype, outputtype, executiontype); });
  if (r != CUFFT_SUCCESS) return r;
  return cufftGetSizeMany64(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize);
}

cufftResult cufftXtExec(cufftHandle plan, void* input, void* output, int direction) {
  cufftType type = CUFFT_C2C;
  const cufftResult r = api("cufftXtExec", CUFFT_EXEC_FAILED, [&] {
    const PlanState state = plan_of(plan);
    if (state.transform == nullptr) throw StatusError(CUFFT_INVALID_PLAN, "plan " + std::to_string(plan) + " has no plan made yet");
    type = state.transform->type;
  });
  if (r != CUFFT_SUCCESS) return r;
  switch (type) {
    case CUFFT_C2C:
      return cufftExecC2C(plan, static_cast<cufftComplex*>(input), static_cast<cufftComplex*>(output), direction);
    case CUFFT_Z2Z:
      return cufftExecZ2Z(plan, static_cast<cufftDoubleComplex*>(input), static_cast<cufftDoubleComplex*>(output),
                          direction);
    case CUFFT_R2C: return cufftExecR2C(plan, static_cast<cufftReal*>(input), static_cast<cufftComplex*>(output));
    case CUFFT_D2Z:
      return cufftExecD2Z(plan, static_cast<cufftDoubleReal*>(input), static_cast<cufftDoubleComplex*>(output));
    case CUFFT_C2R: return cufftExecC2R(plan, static_cast<cufftComplex*>(input), static_cast<cufftReal*>(output));
    case CUFFT_Z2D:
      return cufftExecZ2D(plan, static_cast<cufftDoubleComplex*>(input), static_cast<cufftDoubleReal*>(output));
  }
  return CUFFT_INVALID_TYPE;
}

// The work runs on the host with its own scratch, so every policy needs no work area.
cufftResult cufftXtSetWorkAreaPolicy(cufftHandle plan, cufftXtWorkAreaPolicy policy, size_t* workSize) {
  return api("cufftXtSetWorkAreaPolicy", CUFFT_INVALID_VALUE, [&] {
    (void)plan_of(plan);
    if (policy != CUFFT_WORKAREA_MINIMAL && policy != CUFFT_WORKAREA_USER && policy != CUFFT_WORKAREA_PERFORMANCE) {
      throw StatusError(CUFFT_INVALID_VALUE, "policy " + std::to_string(static_cast<int>(policy)) + " is not one cuFFT has");
    }
    if (workSize != nullptr) *workSize = 0;
  });
}

cufftResult cufftXtSetGPUs(cufftHandle, int, int*) { return refused("cufftXtSetGPUs", kOneDevice); }
cufftResult cufftXtMalloc(cufftHandle, cudaLibXtDesc**, cufftXtSubFormat) { return refused("cufftXtMalloc", kOneDevice); }
cufftResult cufftXtMemcpy(cufftHandle, void*, void*, cufftXtCopyType) { return refused("cufftXtMemcpy", kOneDevice); }
cufftResult cufftXtFree(cudaLibXtDesc*) { return refused("cufftXtFree", kOneDevice); }
cufftResult cufftXtSetWorkArea(cufftHandle, void**) { return refused("cufftXtSetWorkArea", kOneDevice); }
cufftResult cufftXtExecDescriptorC2C(cufftHandle, cudaLibXtDesc*, cudaLibXtDesc*, int) {
  return refused("cufftXtExecDescriptorC2C", kOneDevice);
}
cufftResult cufftXtExecDescriptorR2C(cufftHandle, cudaLibXtDesc*, cudaLibXtDesc*) {
  return refused("cufftXtExecDescriptorR2C", kOneDevice);
}
cufftResult cufftXtExecDescriptorC2R(cufftHandle, cudaLibXtDesc*, cudaLibXtDesc*) {
  return refused("cufftXtExecDescriptorC2R", kOneDevice);
}
cufftResult cufftXtExecDescriptorZ2Z(cufftHandle, cudaLibXtDesc*, cudaLibXtDesc*, int) {
  return refused("cufftXtExecDescriptorZ2Z", kOneDevice);
}
cufftResult cufftXtExecDescriptorD2Z(cufftHandle, cudaLibXtDesc*, cudaLibXtDesc*) {
  return refused("cufftXtExecDescriptorD2Z", kOneDevice);
}
cufftResult cufftXtExecDescriptorZ2D(cufftHandle, cudaLibXtDesc*, cudaLibXtDesc*) {
  return refused("cufftXtExecDescriptorZ2D", kOneDevice);
}
cufftResult cufftXtExecDescriptor(cufftHandle, cudaLibXtDesc*, cudaLibXtDesc*, int) {
  return refused("cufftXtExecDescriptor", kOneDevice);
}
cufftResult cufftXtQueryPlan(cufftHandle, void*, cufftXtQueryType) {
  return refused("cufftXtQueryPlan", "plan queries (the factors of a multi-GPU 1-D transform) are not simulated");
}
cufftResult cufftXtSetCallback(cufftHandle, void**, cufftXtCallbackType, void**) {
  return refused("cufftXtSetCallback", kNoCallbacks);
}
cufftResult cufftXtClearCallback(cufftHandle, cufftXtCallbackType) { return refused("cufftXtClearCallback", kNoCallbacks); }
cufftResult cufftXtSetCallbackSharedSize(cufftHandle, cufftXtCallbackType, size_t) {
  return refused("cufftXtSetCallbackSharedSize", kNoCallbacks);
}

}  // extern "C"
