#pragma once
#include <string>

namespace gpulab {

struct VersionInfo {
  std::string version;         // "0.1.0"
  std::string commit;          // the git commit it was built from
  int cuda_runtime_built = 0;  // CUDART_VERSION it was compiled against; 0 without CUDA
  std::string compiler;        // "g++ 12.2.0"
};
VersionInfo version_info();

}  // namespace gpulab
