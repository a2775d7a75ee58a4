#pragma once
// The simulator's CUB (config.cuh): what CUB says of the device. The simulated device is compute
// capability 9.0, so the PTX and SM versions are 900.
#include <cub/config.cuh>

namespace cub {

__host__ __device__ inline cudaError_t PtxVersion(int& ptx_version) {
  ptx_version = 900;
  return cudaSuccess;
}
__host__ __device__ inline cudaError_t PtxVersion(int& ptx_version, int /*device*/) { return PtxVersion(ptx_version); }
inline cudaError_t SmVersion(int& sm_version, int device = 0) {
  int major = 0, minor = 0;
  cudaError_t e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
  sm_version = major * 100 + minor * 10;
  return e;
}
inline int CurrentDevice() {
  int device = -1;
  return cudaGetDevice(&device) == cudaSuccess ? device : -1;
}
inline int DeviceCount() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : -1;
}

}  // namespace cub
