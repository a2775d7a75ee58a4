// Test data to and from device memory, as every test program would otherwise write it again. Plain
// CUDA, for nvcc and gpulab-simcc alike.
#pragma once
#include <cstddef>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.h"

// A device copy of `h`; an empty vector still gets a pointer (one element), so a kernel may take it.
template <class T>
T* to_device(const std::vector<T>& h) {
  T* d = nullptr;
  CHECK(cudaMalloc(&d, (h.empty() ? 1 : h.size()) * sizeof(T)));
  CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <class T>
std::vector<T> to_host(const T* d, std::size_t n) {
  std::vector<T> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

// The one value at `d`.
template <class T>
T fetch(const T* d) {
  return to_host(d, 1)[0];
}

// n elements (at least one) of device memory, every byte `byte`.
template <class T>
T* device_filled(std::size_t n, unsigned char byte) {
  T* d = nullptr;
  CHECK(cudaMalloc(&d, (n == 0 ? 1 : n) * sizeof(T)));
  CHECK(cudaMemset(d, byte, (n == 0 ? 1 : n) * sizeof(T)));
  return d;
}

template <class T>
T* device_zeros(std::size_t n) {
  return device_filled<T>(n, 0);
}
