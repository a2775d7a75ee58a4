// cuRAND's status names (status.hpp).
#include "simcuda/curand/status.hpp"

namespace gpulab::sim::curand {

const char* status_name(Status s) noexcept {
  switch (s) {
    case Status::success: return "CURAND_STATUS_SUCCESS";
    case Status::version_mismatch: return "CURAND_STATUS_VERSION_MISMATCH";
    case Status::not_initialized: return "CURAND_STATUS_NOT_INITIALIZED";
    case Status::allocation_failed: return "CURAND_STATUS_ALLOCATION_FAILED";
    case Status::type_error: return "CURAND_STATUS_TYPE_ERROR";
    case Status::out_of_range: return "CURAND_STATUS_OUT_OF_RANGE";
    case Status::length_not_multiple: return "CURAND_STATUS_LENGTH_NOT_MULTIPLE";
    case Status::double_precision_required: return "CURAND_STATUS_DOUBLE_PRECISION_REQUIRED";
    case Status::launch_failure: return "CURAND_STATUS_LAUNCH_FAILURE";
    case Status::preexisting_failure: return "CURAND_STATUS_PREEXISTING_FAILURE";
    case Status::initialization_failed: return "CURAND_STATUS_INITIALIZATION_FAILED";
    case Status::arch_mismatch: return "CURAND_STATUS_ARCH_MISMATCH";
    case Status::internal_error: return "CURAND_STATUS_INTERNAL_ERROR";
  }
  return "CURAND_STATUS_(unknown)";
}

}  // namespace gpulab::sim::curand
