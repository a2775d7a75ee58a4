#pragma once
// The host-side interface of the saxpy library: plain C++, no CUDA headers, for main.cpp.
#include <string>

// y[i] = scaled(a, x[i]) + y[i] for i < n on the GPU (scaled: device_helpers.cu). Returns "" or the CUDA
// error, by name.
std::string run_saxpy(int n, float a, const float* x, float* y);
