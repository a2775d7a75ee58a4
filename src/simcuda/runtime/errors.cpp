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

// Every code of CUDA 13's cudaError enum, with its name and (for those the simulator can return, and
// the common rest) CUDA's text. A code without a text here reads as its name.
constexpr ErrorText error_texts[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorCudartUnloading, "cudaErrorCudartUnloading", "driver shutting down"},
    {cudaErrorProfilerDisabled, "cudaErrorProfilerDisabled", "profiler disabled while using external profiling tool"},
    {cudaErrorProfilerNotInitialized, "cudaErrorProfilerNotInitialized", nullptr},
    {cudaErrorProfilerAlreadyStarted, "cudaErrorProfilerAlreadyStarted", nullptr},
    {cudaErrorProfilerAlreadyStopped, "cudaErrorProfilerAlreadyStopped", nullptr},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidHostPointer, "cudaErrorInvalidHostPointer", "invalid host pointer"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidTexture, "cudaErrorInvalidTexture", "invalid texture reference"},
    {cudaErrorInvalidTextureBinding, "cudaErrorInvalidTextureBinding", "texture is not bound to a pointer"},
    {cudaErrorInvalidChannelDescriptor, "cudaErrorInvalidChannelDescriptor", "invalid channel descriptor"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorAddressOfConstant, "cudaErrorAddressOfConstant", nullptr},
    {cudaErrorTextureFetchFailed, "cudaErrorTextureFetchFailed", nullptr},
    {cudaErrorTextureNotBound, "cudaErrorTextureNotBound", nullptr},
    {cudaErrorSynchronizationError, "cudaErrorSynchronizationError", nullptr},
    {cudaErrorInvalidFilterSetting, "cudaErrorInvalidFilterSetting", "linear filtering not supported for non-float type"},
    {cudaErrorInvalidNormSetting, "cudaErrorInvalidNormSetting", "read as normalized float not supported for 32-bit non float type"},
    {cudaErrorMixedDeviceExecution, "cudaErrorMixedDeviceExecution", nullptr},
    {cudaErrorNotYetImplemented, "cudaErrorNotYetImplemented", "function not yet implemented"},
    {cudaErrorMemoryValueTooLarge, "cudaErrorMemoryValueTooLarge", nullptr},
    {cudaErrorStubLibrary, "cudaErrorStubLibrary", "CUDA driver is a stub library"},
    {cudaErrorInsufficientDriver, "cudaErrorInsufficientDriver", "CUDA driver version is insufficient for CUDA runtime version"},
    {cudaErrorCallRequiresNewerDriver, "cudaErrorCallRequiresNewerDriver", nullptr},
    {cudaErrorInvalidSurface, "cudaErrorInvalidSurface", "invalid surface"},
    {cudaErrorDuplicateVariableName, "cudaErrorDuplicateVariableName", "duplicate global variable looked up by string name"},
    {cudaErrorDuplicateTextureName, "cudaErrorDuplicateTextureName", nullptr},
    {cudaErrorDuplicateSurfaceName, "cudaErrorDuplicateSurfaceName", nullptr},
    {cudaErrorDevicesUnavailable, "cudaErrorDevicesUnavailable", "CUDA-capable device(s) is/are busy or unavailable"},
    {cudaErrorIncompatibleDriverContext, "cudaErrorIncompatibleDriverContext", "incompatible driver context"},
    {cudaErrorMissingConfiguration, "cudaErrorMissingConfiguration", "__global__ function call is not configured"},
    {cudaErrorPriorLaunchFailure, "cudaErrorPriorLaunchFailure", nullptr},
    {cudaErrorLaunchMaxDepthExceeded, "cudaErrorLaunchMaxDepthExceeded", "launch would exceed maximum depth of nested launches"},
    {cudaErrorLaunchFileScopedTex, "cudaErrorLaunchFileScopedTex", nullptr},
    {cudaErrorLaunchFileScopedSurf, "cudaErrorLaunchFileScopedSurf", nullptr},
    {cudaErrorSyncDepthExceeded, "cudaErrorSyncDepthExceeded", nullptr},
    {cudaErrorLaunchPendingCountExceeded, "cudaErrorLaunchPendingCountExceeded", nullptr},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorDeviceNotLicensed, "cudaErrorDeviceNotLicensed", "device doesn't have valid Grid license"},
    {cudaErrorSoftwareValidityNotEstablished, "cudaErrorSoftwareValidityNotEstablished", nullptr},
    {cudaErrorStartupFailure, "cudaErrorStartupFailure", "startup failure in cuda runtime"},
    {cudaErrorInvalidKernelImage, "cudaErrorInvalidKernelImage", "device kernel image is invalid"},
    {cudaErrorDeviceUninitialized, "cudaErrorDeviceUninitialized", "invalid device context"},
    {cudaErrorMapBufferObjectFailed, "cudaErrorMapBufferObjectFailed", "mapping of buffer object failed"},
    {cudaErrorUnmapBufferObjectFailed, "cudaErrorUnmapBufferObjectFailed", nullptr},
    {cudaErrorArrayIsMapped, "cudaErrorArrayIsMapped", "array is mapped"},
    {cudaErrorAlreadyMapped, "cudaErrorAlreadyMapped", "resource already mapped"},
    {cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device"},
    {cudaErrorAlreadyAcquired, "cudaErrorAlreadyAcquired", "resource already acquired"},
    {cudaErrorNotMapped, "cudaErrorNotMapped", "resource not mapped"},
    {cudaErrorNotMappedAsArray, "cudaErrorNotMappedAsArray", nullptr},
    {cudaErrorNotMappedAsPointer, "cudaErrorNotMappedAsPointer", nullptr},
    {cudaErrorECCUncorrectable, "cudaErrorECCUncorrectable", "uncorrectable ECC error encountered"},
    {cudaErrorUnsupportedLimit, "cudaErrorUnsupportedLimit", "limit is not supported on this architecture"},
    {cudaErrorDeviceAlreadyInUse, "cudaErrorDeviceAlreadyInUse", "exclusive-thread device already in use by a different thread"},
    {cudaErrorPeerAccessUnsupported, "cudaErrorPeerAccessUnsupported", "peer access is not supported between these two devices"},
    {cudaErrorInvalidPtx, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
    {cudaErrorInvalidGraphicsContext, "cudaErrorInvalidGraphicsContext", nullptr},
    {cudaErrorNvlinkUncorrectable, "cudaErrorNvlinkUncorrectable", nullptr},
    {cudaErrorJitCompilerNotFound, "cudaErrorJitCompilerNotFound", nullptr},
    {cudaErrorUnsupportedPtxVersion, "cudaErrorUnsupportedPtxVersion", nullptr},
    {cudaErrorJitCompilationDisabled, "cudaErrorJitCompilationDisabled", nullptr},
    {cudaErrorUnsupportedExecAffinity, "cudaErrorUnsupportedExecAffinity", nullptr},
    {cudaErrorUnsupportedDevSideSync, "cudaErrorUnsupportedDevSideSync", nullptr},
    {cudaErrorInvalidSource, "cudaErrorInvalidSource", "device kernel image is invalid"},
    {cudaErrorFileNotFound, "cudaErrorFileNotFound", "file not found"},
    {cudaErrorSharedObjectSymbolNotFound, "cudaErrorSharedObjectSymbolNotFound", "shared object symbol not found"},
    {cudaErrorSharedObjectInitFailed, "cudaErrorSharedObjectInitFailed", "shared object initialization failed"},
    {cudaErrorOperatingSystem, "cudaErrorOperatingSystem", "OS call failed or operation not supported on this OS"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorIllegalState, "cudaErrorIllegalState", "the operation cannot be performed in the present state"},
    {cudaErrorLossyQuery, "cudaErrorLossyQuery", nullptr},
    {cudaErrorSymbolNotFound, "cudaErrorSymbolNotFound", "named symbol not found"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {cudaErrorLaunchIncompatibleTexturing, "cudaErrorLaunchIncompatibleTexturing", "launch uses incompatible texturing mode"},
    {cudaErrorPeerAccessAlreadyEnabled, "cudaErrorPeerAccessAlreadyEnabled", "peer access is already enabled"},
    {cudaErrorPeerAccessNotEnabled, "cudaErrorPeerAccessNotEnabled", "peer access has not been enabled"},
    {cudaErrorSetOnActiveProcess, "cudaErrorSetOnActiveProcess", "cannot set while device is active in this process"},
    {cudaErrorContextIsDestroyed, "cudaErrorContextIsDestroyed", "context is destroyed"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorTooManyPeers, "cudaErrorTooManyPeers", "peer mapping resources exhausted"},
    {cudaErrorHostMemoryAlreadyRegistered, "cudaErrorHostMemoryAlreadyRegistered", "part or all of the requested memory range is already mapped"},
    {cudaErrorHostMemoryNotRegistered, "cudaErrorHostMemoryNotRegistered", "pointer does not correspond to a registered memory region"},
    {cudaErrorHardwareStackError, "cudaErrorHardwareStackError", "hardware stack error"},
    {cudaErrorIllegalInstruction, "cudaErrorIllegalInstruction", "an illegal instruction was encountered"},
    {cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address"},
    {cudaErrorInvalidAddressSpace, "cudaErrorInvalidAddressSpace", "operation not supported on global/shared address space"},
    {cudaErrorInvalidPc, "cudaErrorInvalidPc", "invalid program counter"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorCooperativeLaunchTooLarge, "cudaErrorCooperativeLaunchTooLarge", "too many blocks in cooperative launch"},
    {cudaErrorNotPermitted, "cudaErrorNotPermitted", "operation not permitted"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorSystemNotReady, "cudaErrorSystemNotReady", nullptr},
    {cudaErrorSystemDriverMismatch, "cudaErrorSystemDriverMismatch", nullptr},
    {cudaErrorCompatNotSupportedOnDevice, "cudaErrorCompatNotSupportedOnDevice", nullptr},
    {cudaErrorMpsConnectionFailed, "cudaErrorMpsConnectionFailed", nullptr},
    {cudaErrorMpsRpcFailure, "cudaErrorMpsRpcFailure", nullptr},
    {cudaErrorMpsServerNotReady, "cudaErrorMpsServerNotReady", nullptr},
    {cudaErrorMpsMaxClientsReached, "cudaErrorMpsMaxClientsReached", nullptr},
    {cudaErrorMpsMaxConnectionsReached, "cudaErrorMpsMaxConnectionsReached", nullptr},
    {cudaErrorMpsClientTerminated, "cudaErrorMpsClientTerminated", nullptr},
    {cudaErrorCdpNotSupported, "cudaErrorCdpNotSupported", nullptr},
    {cudaErrorCdpVersionMismatch, "cudaErrorCdpVersionMismatch", nullptr},
    {cudaErrorStreamCaptureUnsupported, "cudaErrorStreamCaptureUnsupported", "operation not permitted when stream is capturing"},
    {cudaErrorStreamCaptureInvalidated, "cudaErrorStreamCaptureInvalidated", "operation failed due to a previous error during capture"},
    {cudaErrorStreamCaptureMerge, "cudaErrorStreamCaptureMerge", "operation would result in a merge of separate capture sequences"},
    {cudaErrorStreamCaptureUnmatched, "cudaErrorStreamCaptureUnmatched", "capture was not ended in the same stream as it began"},
    {cudaErrorStreamCaptureUnjoined, "cudaErrorStreamCaptureUnjoined", "capturing stream has unjoined work"},
    {cudaErrorStreamCaptureIsolation, "cudaErrorStreamCaptureIsolation", "dependency created on uncaptured work in another stream"},
    {cudaErrorStreamCaptureImplicit, "cudaErrorStreamCaptureImplicit", "operation would make the legacy stream depend on a capturing blocking stream"},
    {cudaErrorCapturedEvent, "cudaErrorCapturedEvent", "operation not permitted on an event last recorded in a capturing stream"},
    {cudaErrorStreamCaptureWrongThread, "cudaErrorStreamCaptureWrongThread", "attempt to terminate a thread-local capture sequence from another thread"},
    {cudaErrorTimeout, "cudaErrorTimeout", "wait operation timed out"},
    {cudaErrorGraphExecUpdateFailure, "cudaErrorGraphExecUpdateFailure", "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update"},
    {cudaErrorExternalDevice, "cudaErrorExternalDevice", nullptr},
    {cudaErrorInvalidClusterSize, "cudaErrorInvalidClusterSize", "invalid cluster size"},
    {cudaErrorFunctionNotLoaded, "cudaErrorFunctionNotLoaded", nullptr},
    {cudaErrorInvalidResourceType, "cudaErrorInvalidResourceType", nullptr},
    {cudaErrorInvalidResourceConfiguration, "cudaErrorInvalidResourceConfiguration", nullptr},
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
  if (e == nullptr) return "unrecognized error code";
  return e->text != nullptr ? e->text : e->name;
}

const char* cudaGetErrorName(cudaError_t error) {
  const ErrorText* e = find_error(error);
  return e != nullptr ? e->name : "cudaErrorUnknown";
}
