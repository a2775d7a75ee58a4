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
//
// `next` (or null) is where the following panel starts: its rows are prefetched while this one is
// packed. A row-major A is read as mr short runs of kc elements in rows far apart, too short for the
// hardware prefetcher, so without this the packing waits on memory for every run.
template <class T>
void pack_a_panel(const T* src, std::int64_t rs, std::int64_t cs, int rows, int kc, int mr, T* dst,
                  const T* next = nullptr) {
  constexpr int line = 64 / sizeof(T);
  if (cs == 1) {
    for (int i = 0; i < rows; ++i) {
      const T* s = src + i * rs;
      if (next != nullptr) {
        for (int k = 0; k < kc; k += line) __builtin_prefetch(next + i * rs + k);
      }
      for (int k = 0; k < kc; ++k) dst[k * mr + i] = s[k];
    }
  } else {
    for (int k = 0; k < kc; ++k) {
      const T* s = src + k * cs;
      if (next != nullptr) __builtin_prefetch(next + k * cs);
      T* d = dst + k * mr;
      for (int i = 0; i < rows; ++i) d[i] = s[i * rs];
    }
  }
  for (int k = 0; k < kc; ++k) std::fill(dst + k * mr + rows, dst + (k + 1) * mr, T{0});
}

// Row-major B (unit column stride): each row of the block is one sequential read across all the
// panels. NR is a compile-time constant, so a whole panel row is a few inline vector moves rather than
// a call to memmove per 64 bytes (which cost a few percent of a large GEMM). Rows of B lie ldb apart,
// too far for the hardware prefetcher, so the rows `ahead` below are prefetched while this one is
// copied.
template <int NR, class T>
void pack_b_rows(const T* src, std::int64_t rs, int cols, int kc, T* dst) {
  constexpr int line = 64 / sizeof(T);
  constexpr int ahead = 4;
  const int panels = (cols + NR - 1) / NR;
  const int whole = cols / NR;
  const std::int64_t panel_size = static_cast<std::int64_t>(kc) * NR;
  for (int k = 0; k < kc; ++k) {
    const T* s = src + k * rs;
    if (k + ahead < kc) {
      for (int j = 0; j < cols; j += line) __builtin_prefetch(s + ahead * rs + j);
    }
    T* d = dst + k * NR;
    for (int q = 0; q < whole; ++q, d += panel_size) std::copy(s + q * NR, s + (q + 1) * NR, d);
    if (whole < panels) {
      const int width = cols - whole * NR;
      std::copy(s + whole * NR, s + cols, d);
      std::fill(d + width, d + NR, T{0});
    }
  }
}

// `cols` columns of B (row stride rs, column stride cs) into ceil(cols / nr) panels of kc x nr, each
// stored k-major: dst[q][k][j] = src(k, q * nr + j).
template <class T>
void pack_b_block(const T* src, std::int64_t rs, std::int64_t cs, int cols, int kc, int nr, T* dst) {
  if (cs == 1) {
    // The micro-kernels' widths (src/cpu/micro_kernel_*.cpp); another width takes the general path.
    switch (nr) {
      case 8: return pack_b_rows<8>(src, rs, cols, kc, dst);
      case 16: return pack_b_rows<16>(src, rs, cols, kc, dst);
      case 32: return pack_b_rows<32>(src, rs, cols, kc, dst);
      default: break;
    }
  }
  const int panels = (cols + nr - 1) / nr;
  const std::int64_t panel_size = static_cast<std::int64_t>(kc) * nr;
  for (int q = 0; q < panels; ++q) {
    T* d = dst + q * panel_size;
    const int width = std::min(nr, cols - q * nr);
    for (int j = 0; j < width; ++j) {
      const T* s = src + (q * nr + j) * cs;
      for (int k = 0; k < kc; ++k) d[k * nr + j] = s[k * rs];
    }
    for (int k = 0; k < kc; ++k) std::fill(d + k * nr + width, d + (k + 1) * nr, T{0});
  }
}

}  // namespace gpulab::cpu::detail
