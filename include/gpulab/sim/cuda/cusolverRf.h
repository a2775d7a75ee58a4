#pragma once
// gpulab-simcc's shadow of one of CUDA's headers that the simulator does not provide (the #error
// says which and why). Refused by name, so that a program stops at the include with the reason instead
// of falling through to the toolkit's copy and failing somewhere inside it.
#error "gpulab-simcc: <cusolverRf.h> (cuSOLVER) is not available on the simulator: of CUDA's libraries the simulator provides cuBLAS, cuBLASLt, cuRAND and cuFFT, not this one."
