/* Cooperative launches (libgpulab_cudart, src/simcuda/runtime/launches.cpp): every block of the grid
   resident at once, so that the kernel may use cooperative_groups' grid.sync(). cuda_runtime.h adds the
   typed C++ form, which is the one that runs: the untyped form does not know the kernel's parameter
   types, so it is refused naming the kernel, as cudaLaunchKernel's is. */
#ifndef GPULAB_RUNTIME_COOPERATIVE_H
#define GPULAB_RUNTIME_COOPERATIVE_H

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem,
                                        cudaStream_t stream);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* GPULAB_RUNTIME_COOPERATIVE_H */
