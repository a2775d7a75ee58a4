#pragma once
// CCCL (libcu++, Thrust) in programs built for the simulator, where its headers are on the include path
// (the CUDA toolkit's include/cccl, which gpulab-simcc and gpulab_add_sim_executable add after the shadow
// headers). GPULAB_SIM_HAVE_CCCL says whether they are.
//
// A kernel is host code here, and the driver defines __CUDA_ARCH__ for the user's code so that its device
// branches are the ones compiled. CCCL must not see that: its device branches are inline PTX
// (NV_IF_TARGET, _CCCL_DEVICE_COMPILATION), while its host branches are standard C++ that is right on the
// simulator. CCCL decides which compilation it is in when its configuration is read, in the headers every
// CCCL header starts from: <cuda/__cccl_config>, <cuda/std/detail/__config> and <nv/target>. Their
// shadows in this folder read CCCL's with the CUDA compiler's macros hidden (gpulab_cccl_hidden.hpp), so
// to CCCL the program is C++ compiled by the host compiler, the configuration CCCL's CPP and OMP systems
// are built and tested in. A program that includes no CCCL header reads none of it.
#if __has_include(<cuda/std/__cccl/compiler.h>)  // a header of CCCL's that nothing here shadows
#define GPULAB_SIM_HAVE_CCCL 1
#else
#define GPULAB_SIM_HAVE_CCCL 0
#endif

// Thrust's device system is its CPP system, whose algorithms run on the calling host thread; the
// simulator makes its device memory simulated device memory (thrust/system/cpp/memory_resource.h and
// thrust/system/cpp/detail/malloc_and_free.h in this folder).
#if defined(THRUST_DEVICE_SYSTEM) && THRUST_DEVICE_SYSTEM != 4  // THRUST_DEVICE_SYSTEM_CPP
#error "gpulab sim: Thrust runs on its CPP device system on the simulator; THRUST_DEVICE_SYSTEM must not be set to another"
#endif
#ifndef THRUST_DEVICE_SYSTEM
#define THRUST_DEVICE_SYSTEM 4  // THRUST_DEVICE_SYSTEM_CPP, which thrust/detail/config names later
#endif
// None of the extended floating-point types CCCL would take from cuda_fp16.h and cuda_bf16.h: the
// simulator's are its own types (without 16-bit support CCCL offers none of the narrower ones either).
#ifndef CCCL_DISABLE_FP16_SUPPORT
#define CCCL_DISABLE_FP16_SUPPORT 1
#endif
#ifndef CCCL_DISABLE_BF16_SUPPORT
#define CCCL_DISABLE_BF16_SUPPORT 1
#endif
