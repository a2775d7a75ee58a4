#pragma once
// gpulab-simcc's shadow of one of CUDA's headers that the simulator does not provide (the #error
// says which and why). Refused by name, so that a program stops at the include with the reason instead
// of falling through to the toolkit's copy and failing somewhere inside it.
#error "gpulab-simcc: <cuda_fp6.h> (8-, 6- and 4-bit floating point) is not available on the simulator: these formats are not simulated yet; cuda_fp16.h and cuda_bf16.h are."
