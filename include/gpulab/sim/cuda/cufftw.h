#pragma once
// gpulab-simcc's shadow of CUDA's <cufftw.h>, refused by name: the simulator's cuFFT (libgpulab_cufft)
// has cuFFT's plan API of <cufft.h>, not cuFFTW's FFTW-compatible interface. Stopping at the include says
// so, rather than falling through to the toolkit's copy.
#error "gpulab-simcc: <cufftw.h> (cuFFTW, the FFTW interface) is not simulated: include <cufft.h> and use cufftPlan*/cufftExec* (-lcufft)."
