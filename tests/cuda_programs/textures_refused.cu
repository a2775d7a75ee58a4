// What CUDA refuses of arrays, texture objects and surface objects, with CUDA's error codes (the
// simulator's messages, on stderr, name the value and the limit), and last a surface write outside the
// surface with cudaBoundaryModeTrap: the kernel ends, the launch reports cudaErrorLaunchFailure, and
// the error is sticky, as a GPU's trap is. Prints PASSED and, like any program with a fault, exits
// non-zero with the simulator's report.
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

namespace {

int failures = 0;

void expect(cudaError_t got, cudaError_t want, const char* what) {
  if (got == want) return;
  std::printf("  %s: got %s, expected %s\n", what, cudaGetErrorName(got), cudaGetErrorName(want));
  ++failures;
}

cudaResourceDesc array_resource(cudaArray_t a) {
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  return r;
}

cudaTextureDesc point_desc() {
  cudaTextureDesc td;
  std::memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  return td;
}

}  // namespace

// One element past the end of row 0: x is in bytes, so (width) * 4 is the first byte outside.
__global__ void writePastRowEnd(cudaSurfaceObject_t s, int width) {
  if (threadIdx.x == 0) surf2Dwrite(1.0f, s, width * static_cast<int>(sizeof(float)), 0);
}

int main() {
  cudaArray_t a = nullptr;
  // Arrays: a 3-channel format, an extent over the device's limits, a cubemap whose faces are not square.
  const cudaChannelFormatDesc three = cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat);
  expect(cudaMallocArray(&a, &three, 16, 16), cudaErrorInvalidChannelDescriptor, "a 3-channel array");
  const cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
  expect(cudaMallocArray(&a, &f1, 200000, 4), cudaErrorInvalidValue, "a 2-D array wider than maxTexture2D");
  expect(cudaMalloc3DArray(&a, &f1, make_cudaExtent(8, 9, 6), cudaArrayCubemap), cudaErrorInvalidValue,
         "a cubemap of 8 x 9 faces");

  // Texture objects of memory: pitch alignment, pointer alignment, size limit.
  void* d;
  cudaMalloc(&d, 4096);
  cudaResourceDesc pitched;
  std::memset(&pitched, 0, sizeof pitched);
  pitched.resType = cudaResourceTypePitch2D;
  pitched.res.pitch2D.devPtr = d;
  pitched.res.pitch2D.desc = f1;
  pitched.res.pitch2D.width = 20;
  pitched.res.pitch2D.height = 10;
  pitched.res.pitch2D.pitchInBytes = 100;  // not a multiple of texturePitchAlignment (32)
  cudaTextureDesc td = point_desc();
  cudaTextureObject_t t;
  expect(cudaCreateTextureObject(&t, &pitched, &td, nullptr), cudaErrorInvalidValue, "pitch2D with a pitch of 100 bytes");
  cudaResourceDesc linear;
  std::memset(&linear, 0, sizeof linear);
  linear.resType = cudaResourceTypeLinear;
  linear.res.linear.devPtr = static_cast<char*>(d) + 4;
  linear.res.linear.desc = f1;
  linear.res.linear.sizeInBytes = 1024;
  expect(cudaCreateTextureObject(&t, &linear, &td, nullptr), cudaErrorInvalidValue, "linear memory 4 bytes past an allocation");
  linear.res.linear.devPtr = d;
  linear.res.linear.sizeInBytes = static_cast<size_t>(1) << 31;  // 2^29 floats, over maxTexture1DLinear
  expect(cudaCreateTextureObject(&t, &linear, &td, nullptr), cudaErrorInvalidValue, "linear memory over maxTexture1DLinear");

  // Filter and read modes the format does not allow.
  const cudaChannelFormatDesc i1 = cudaCreateChannelDesc<int>();
  cudaArray_t ints;
  cudaMallocArray(&ints, &i1, 8, 8);
  const cudaResourceDesc int_res = array_resource(ints);
  td.filterMode = cudaFilterModeLinear;
  expect(cudaCreateTextureObject(&t, &int_res, &td, nullptr), cudaErrorInvalidFilterSetting, "linear filtering of int");
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeNormalizedFloat;
  expect(cudaCreateTextureObject(&t, &int_res, &td, nullptr), cudaErrorInvalidNormSetting, "normalized reads of 32-bit int");

  // A surface of an array made without cudaArraySurfaceLoadStore.
  cudaSurfaceObject_t s;
  expect(cudaCreateSurfaceObject(&s, &int_res), cudaErrorInvalidValue, "a surface of an array without the flag");

  // Seamless cubemap filtering is not simulated.
  cudaArray_t cube;
  cudaMalloc3DArray(&cube, &f1, make_cudaExtent(8, 8, 6), cudaArrayCubemap);
  const cudaResourceDesc cube_res = array_resource(cube);
  td = point_desc();
  td.filterMode = cudaFilterModeLinear;
  td.normalizedCoords = 1;
  td.seamlessCubemap = 1;
  expect(cudaCreateTextureObject(&t, &cube_res, &td, nullptr), cudaErrorNotSupported, "seamless cubemap filtering");

  // Copies past the array, or in a direction an array cannot take.
  float rows[10 * 8] = {};
  expect(cudaMemcpy2DToArray(ints, 0, 2, rows, 32, 32, 7, cudaMemcpyHostToDevice), cudaErrorInvalidValue,
         "a copy of 7 rows from row 2 of an 8-row array");
  expect(cudaMemcpy2DToArray(ints, 0, 0, rows, 32, 32, 2, cudaMemcpyDeviceToHost), cudaErrorInvalidMemcpyDirection,
         "a device-to-host copy into an array");
  cudaMipmappedArray_t mip;
  cudaMallocMipmappedArray(&mip, &f1, make_cudaExtent(16, 16, 0), 3);
  cudaArray_t level;
  expect(cudaGetMipmappedArrayLevel(&level, mip, 3), cudaErrorInvalidValue, "level 3 of a 3-level mipmapped array");
  expect(cudaDestroyTextureObject(12345), cudaErrorInvalidValue, "destroying a texture object never created");

  // Last: the trap, which ends the kernel and, sticky, every call after it.
  cudaArray_t target;
  cudaMallocArray(&target, &f1, 17, 5, cudaArraySurfaceLoadStore);
  const cudaResourceDesc target_res = array_resource(target);
  expect(cudaCreateSurfaceObject(&s, &target_res), cudaSuccess, "a surface of an array made for one");
  writePastRowEnd<<<1, 32>>>(s, 17);
  const cudaError_t synced = cudaDeviceSynchronize();
  const cudaError_t later = cudaMemset(d, 0, 16);
  expect(synced, cudaErrorLaunchFailure, "the trapping launch");
  expect(later, cudaErrorLaunchFailure, "a call after the trap");
  if (failures != 0) {
    std::printf("FAILED: %d refusals differ from CUDA's\n", failures);
    return 1;
  }
  std::printf("PASSED: texture and surface refusals, and cudaBoundaryModeTrap is cudaErrorLaunchFailure, sticky\n");
  return 0;
}
