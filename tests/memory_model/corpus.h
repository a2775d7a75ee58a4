// What the memory-model corpus programs share: device buffers of zeros, reading results back, and the
// main that runs the case named on the command line.
#pragma once
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "../cuda_programs/cuda_check.h"

namespace corpus {

template <class T>
T* deviceZeros(std::size_t n) {
  T* p = nullptr;
  CHECK(cudaMalloc(&p, n * sizeof(T)));
  CHECK(cudaMemset(p, 0, n * sizeof(T)));
  return p;
}

template <class T>
std::vector<T> download(const T* p, std::size_t n) {
  std::vector<T> h(n);
  CHECK(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

template <class T>
T fetch(const T* p) {
  return download(p, 1)[0];
}

// Prints FAIL with `what` unless `ok`.
inline bool expect(bool ok, const char* what) {
  if (!ok) std::printf("FAIL: %s\n", what);
  return ok;
}

// Runs the case argv[1] with `run` (false: it failed, having said why): PASSED and 0, or 1.
inline int main(int argc, char** argv, bool (*run)(const char*)) {
  if (argc != 2) {
    std::printf("usage: %s <case>\n", argv[0]);
    return 2;
  }
  if (!run(argv[1])) return 1;
  std::printf("PASSED: %s\n", argv[1]);
  return 0;
}

}  // namespace corpus
