// The checks the CUDA-library test programs share: CUDA's (cuda_check.h, with device_buffers.h), a library call's status, and
// a count of failed expectations that main turns into PASSED or FAILED. Plain CUDA, for nvcc and
// gpulab-simcc alike.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../cuda_programs/device_buffers.h"

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

// A device buffer poisoned with the byte 0xA5, so a result left unwritten shows.
template <class T>
T* poisoned_device(std::size_t n) {
  return device_filled<T>(n, 0xA5);
}
