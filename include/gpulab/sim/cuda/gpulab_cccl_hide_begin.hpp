// Included (no guard: each use pairs with gpulab_cccl_hide_end.hpp) around an #include_next of one of
// CCCL's configuration headers, so that CCCL reads it as host code (gpulab_cccl_config.hpp says why).
#include <gpulab_cccl_config.hpp>
#pragma push_macro("__CUDACC__")
#pragma push_macro("__NVCC__")
#pragma push_macro("__CUDA_ARCH__")
#undef __CUDACC__
#undef __NVCC__
#undef __CUDA_ARCH__
