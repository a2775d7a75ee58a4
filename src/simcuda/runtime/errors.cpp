// CUDA's error API for gpulab-simcc programs: the last error, and the names and texts of the codes.
#include "simcuda/runtime/runtime_state.hpp"

using namespace gpulab::sim::cuda::detail;  // NOLINT: the API below is CUDA's, at global scope

cudaError_t cudaGetLastError() { return take_last_error(); }

cudaError_t cudaPeekAtLastError() { return peek_last_error(); }

namespace {

struct ErrorText {
  cudaError_t code;
  const char* name;
  const char* text;
};

// CUDA's names and texts for the codes the simulator returns.
constexpr ErrorText error_texts[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorCudartUnloading, "cudaErrorCudartUnloading", "driver shutting down"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidHostPointer, "cudaErrorInvalidHostPointer", "invalid host pointer"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorNotYetImplemented, "cudaErrorNotYetImplemented", "function not yet implemented"},
    {cudaErrorInsufficientDriver, "cudaErrorInsufficientDriver",
     "CUDA driver version is insufficient for CUDA runtime version"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorNotPermitted, "cudaErrorNotPermitted", "operation not permitted"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

const ErrorText* find_error(cudaError_t code) {
  for (const ErrorText& e : error_texts) {
    if (e.code == code) return &e;
  }
  return nullptr;
}

}  // namespace

const char* cudaGetErrorString(cudaError_t error) {
  const ErrorText* e = find_error(error);
  return e != nullptr ? e->text : "unrecognized error code";
}

const char* cudaGetErrorName(cudaError_t error) {
  const ErrorText* e = find_error(error);
  return e != nullptr ? e->name : "cudaErrorUnknown";
}
