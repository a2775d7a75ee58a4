// The checks the CUDA-library test programs share: CUDA's (cuda_check.h), a library call's status, and
// a count of failed expectations that main turns into PASSED or FAILED. Plain CUDA, for nvcc and
// gpulab-simcc alike.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../cuda_programs/cuda_check.h"

// `call` must return `success`; otherwise the program stops, printing the status (as `describe` names it).
#define CHECK_STATUS(call, success, describe)                                                         \
  do {                                                                                                \
    const auto st_ = (call);                                                                          \
    if (st_ != (success)) {                                                                           \
      std::fprintf(stderr, "%s:%d: %s returned %s\n", __FILE__, __LINE__, #call, describe(st_));      \
      std::exit(1);                                                                                   \
    }                                                                                                 \
  } while (0)

// A status by its number, for libraries with no name function (cuRAND, cuFFT).
template <class Status>
const char* status_number(Status s) {
  static thread_local char text[32];
  std::snprintf(text, sizeof text, "status %d", static_cast<int>(s));
  return text;
}

inline int failures = 0;

// printf-style: records a failed expectation and goes on.
#define EXPECT(cond, ...)                 \
  do {                                    \
    if (!(cond)) {                        \
      std::printf("FAIL: " __VA_ARGS__);  \
      std::printf("\n");                  \
      ++failures;                         \
    }                                     \
  } while (0)

// Device buffers for the checks: a copy of host data, one poisoned with the byte 0xA5 (a result left
// unwritten shows), and the way back.
template <class T>
T* device_copy_of(const std::vector<T>& h) {
  T* d = nullptr;
  CHECK(cudaMalloc(&d, (h.empty() ? 1 : h.size()) * sizeof(T)));
  CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <class T>
T* poisoned_device(std::size_t n) {
  T* d = nullptr;
  CHECK(cudaMalloc(&d, (n == 0 ? 1 : n) * sizeof(T)));
  CHECK(cudaMemset(d, 0xA5, (n == 0 ? 1 : n) * sizeof(T)));
  return d;
}
template <class T>
std::vector<T> host_copy_of(const T* d, std::size_t n) {
  std::vector<T> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}
