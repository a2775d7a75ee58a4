// query_cuda_status for builds without the CUDA backend.
#include "runtime/cuda_status.hpp"

namespace gpulab::detail {

#if !defined(GPULAB_HAVE_CUDA)
CudaStatus query_cuda_status() {
  CudaStatus s;
  s.built_with_cuda = false;
  s.error_name = "notBuilt";
  s.error_text = "gpulab was built without the CUDA backend";
  return s;
}
#endif

}  // namespace gpulab::detail
