#include <gpulab/version.hpp>

#include "runtime/build_commit.hpp"

#if defined(GPULAB_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace gpulab {

VersionInfo version_info() {
  VersionInfo v;
  v.version = GPULAB_VERSION;
  v.commit = detail::build_commit;
#if defined(GPULAB_HAVE_CUDA)
  v.cuda_runtime_built = CUDART_VERSION;
#endif
#if defined(__clang__)
  v.compiler = "clang++ " __clang_version__;
#elif defined(__GNUC__)
  v.compiler = "g++ " __VERSION__;
#endif
  return v;
}

}  // namespace gpulab
