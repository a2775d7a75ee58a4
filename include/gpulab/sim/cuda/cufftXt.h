#pragma once
// gpulab-simcc's shadow of CUDA's <cufftXt.h>, refused by name: the simulator's cuFFT
// (libgpulab_cufft) has cuFFT's plan API of <cufft.h> only, not cuFFTXt's multi-GPU plans, callbacks and
// cufftXtExec. Stopping at the include says so, rather than falling through to the toolkit's copy.
#error "gpulab-simcc: <cufftXt.h> (cuFFTXt: multi-GPU plans, callbacks, cufftXtExec) is not simulated: include <cufft.h> and use cufftPlan*/cufftExec* (-lcufft)."
