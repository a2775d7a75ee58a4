#pragma once
// CCCL (libcu++, Thrust, CUB) in programs built for the simulator, where its headers are on the include
// path (the CUDA toolkit's include/cccl, which gpulab-simcc and gpulab_add_sim_executable add after the
// shadow headers).
//
// A kernel is host code here, and the driver defines __CUDA_ARCH__ for the user's code so that its
// device branches are the ones compiled. CCCL must not see that: its device branches are inline PTX
// (NV_IF_TARGET, _CCCL_DEVICE_COMPILATION), while its host branches are standard C++ that is right on
// the simulator. CCCL decides which compilation it is in once, when its configuration is first
// included, so this header includes that configuration before the driver's __CUDA_ARCH__, with the
// CUDA compiler's macros hidden: to CCCL the program is C++ compiled by the host compiler, the
// configuration CCCL's CPP and OMP systems are built and tested in.
//
// Thrust's device system is its CPP system (its algorithms run on the calling host thread); the
// simulator makes its device memory simulated device memory (thrust/system/cpp/memory_resource.h and
// thrust/system/cpp/detail/malloc_and_free.h in this folder).
#if __has_include(<cuda/std/detail/__config>)
#define GPULAB_SIM_HAVE_CCCL 1

#if defined(THRUST_DEVICE_SYSTEM) && THRUST_DEVICE_SYSTEM != 4  // THRUST_DEVICE_SYSTEM_CPP
#error "gpulab sim: Thrust runs on its CPP device system on the simulator; THRUST_DEVICE_SYSTEM must not be set to another"
#endif
#ifndef THRUST_DEVICE_SYSTEM
#define THRUST_DEVICE_SYSTEM 4  // THRUST_DEVICE_SYSTEM_CPP, which thrust/detail/config names later
#endif
// The extended floating-point types CCCL would take from cuda_fp8.h, cuda_fp16.h and cuda_bf16.h:
// the simulator's cuda_fp16.h and cuda_bf16.h are its own types, and it has no 8-, 6- or 4-bit ones.
// (Without 16-bit support CCCL offers none of the narrower ones either.)
#ifndef CCCL_DISABLE_FP16_SUPPORT
#define CCCL_DISABLE_FP16_SUPPORT 1
#endif
#ifndef CCCL_DISABLE_BF16_SUPPORT
#define CCCL_DISABLE_BF16_SUPPORT 1
#endif

#pragma push_macro("__CUDACC__")
#pragma push_macro("__NVCC__")
#pragma push_macro("__CUDA_ARCH__")
#undef __CUDACC__
#undef __NVCC__
#undef __CUDA_ARCH__
#include <cuda/std/detail/__config>
#include <nv/target>
#pragma pop_macro("__CUDA_ARCH__")
#pragma pop_macro("__NVCC__")
#pragma pop_macro("__CUDACC__")
#else
#define GPULAB_SIM_HAVE_CCCL 0
#endif
