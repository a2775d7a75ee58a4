#pragma once
// Packing: copies a block of A or B into the contiguous, zero-padded micro-panels the micro-kernel
// streams through. The source is addressed by (row stride, column stride), so row-major, column-major
// and transposed operands all pack from where they are, with the loop order chosen so that the reads
// run along the unit stride. Zero padding lets edge panels use the full-size kernel.
#include <algorithm>
#include <cstdint>

namespace gpulab::cpu::detail {

// dst[p][k][i] = src(p * mr + i, k) for i < mr, k < kc: `rows` rows of A (row stride rs, column stride
// cs) into ceil(rows / mr) panels of mr x kc, stored k-major.
template <class T>
void pack_a_panel(const T* src, std::int64_t rs, std::int64_t cs, int rows, int kc, int mr, T* dst) {
  if (cs == 1) {
    for (int i = 0; i < rows; ++i) {
      const T* s = src + i * rs;
      for (int k = 0; k < kc; ++k) dst[k * mr + i] = s[k];
    }
  } else {
    for (int k = 0; k < kc; ++k) {
      const T* s = src + k * cs;
      T* d = dst + k * mr;
      for (int i = 0; i < rows; ++i) d[i] = s[i * rs];
    }
  }
  for (int k = 0; k < kc; ++k) std::fill(dst + k * mr + rows, dst + (k + 1) * mr, T{0});
}

// dst[k][j] = src(k, j) for j < nr: `cols` columns of B (row stride rs, column stride cs) into one
// panel of kc x nr, stored k-major.
template <class T>
void pack_b_panel(const T* src, std::int64_t rs, std::int64_t cs, int cols, int kc, int nr, T* dst) {
  if (cs == 1) {
    for (int k = 0; k < kc; ++k) {
      const T* s = src + k * rs;
      T* d = dst + k * nr;
      std::copy(s, s + cols, d);
      std::fill(d + cols, d + nr, T{0});
    }
  } else {
    for (int j = 0; j < cols; ++j) {
      const T* s = src + j * cs;
      for (int k = 0; k < kc; ++k) dst[k * nr + j] = s[k * rs];
    }
    for (int k = 0; k < kc; ++k) std::fill(dst + k * nr + cols, dst + (k + 1) * nr, T{0});
  }
}

}  // namespace gpulab::cpu::detail
