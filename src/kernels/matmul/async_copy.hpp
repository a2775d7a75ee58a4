#pragma once
// Asynchronous global-to-shared copies (cp.async, sm_80 and up), behind one wrapper that every backend
// implements:
//   - nvcc for sm_80+: inline PTX cp.async.cg (16 bytes, through L2 only) and cp.async.ca (4 or 8 bytes,
//     with a source size of 0 to write zeros without reading), commit_group and wait_group;
//   - nvcc for older devices: a plain load and store, so the file still compiles;
//   - the simulator: a plain copy at issue time. Copies are then complete when issued, so commit and wait
//     have nothing to do; the __syncthreads() a kernel needs after wait (to see other threads' copies)
//     is the kernel's, on every backend.
// Include after <gpulab/kernel.hpp>, from kernel files only (internal linkage).
#include <cstring>

namespace {

// Copies 16 bytes from global `src` to shared `dst`; both 16-byte aligned.
GPULAB_DEVICE inline void async_copy16(void* dst, const void* src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned shared_address = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(shared_address), "l"(src) : "memory");
#elif defined(__CUDA_ARCH__)
  *static_cast<uint4*>(dst) = *static_cast<const uint4*>(src);
#else
  std::memcpy(dst, src, 16);
#endif
}

// Copies one element of 4 or 8 bytes from `src`, or writes zero without reading `src` when !valid.
template <class T>
GPULAB_DEVICE inline void async_copy_or_zero(T* dst, const T* src, bool valid) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "cp.async.ca copies 4, 8 or 16 bytes");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned shared_address = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  const int source_bytes = valid ? static_cast<int>(sizeof(T)) : 0;  // the rest of the element is zero-filled
  if constexpr (sizeof(T) == 4) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(shared_address), "l"(src), "r"(source_bytes)
                 : "memory");
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(shared_address), "l"(src), "r"(source_bytes)
                 : "memory");
  }
#else
  if (valid) {
    std::memcpy(dst, src, sizeof(T));
  } else {
    *dst = T(0);
  }
#endif
}

// Closes the group of copies issued since the last commit.
GPULAB_DEVICE inline void async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

// Waits until at most `Pending` committed groups of this thread are still in flight.
template <int Pending>
GPULAB_DEVICE inline void async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending) : "memory");
#endif
}

}  // namespace
