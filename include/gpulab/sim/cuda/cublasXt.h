#pragma once
// gpulab-simcc's shadow of one of CUDA's headers that the simulator does not provide (the #error
// says which and why). Refused by name, so that a program stops at the include with the reason instead
// of falling through to the toolkit's copy and failing somewhere inside it.
#error "gpulab-simcc: <cublasXt.h> (cuBLAS-XT, multi-GPU) is not simulated: the simulator provides cuBLAS's v2 API (<cublas_v2.h>)"
