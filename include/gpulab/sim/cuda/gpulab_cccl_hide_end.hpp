// The end of what gpulab_cccl_hide_begin.hpp began: the CUDA compiler's macros back as they were.
#pragma pop_macro("__CUDA_ARCH__")
#pragma pop_macro("__NVCC__")
#pragma pop_macro("__CUDACC__")
