#pragma once
// Solving op(A) x = b for a triangular column-major A, in place: what trsv does for one vector and trsm
// for each column (or, transposed, each row) of a matrix.
#include "simcuda/cublas/cublas_context.hpp"
#include "simcuda/cublas/cublas_numeric.hpp"

namespace gpulab::sim::cublas {

template <class T>
struct Triangle {
  const T* a = nullptr;
  int lda = 0;
  bool upper = false;  // the triangle A stores
  bool unit = false;   // the diagonal is taken as ones, never read
  Op op;               // what is solved with: A, A^T or A^H (or conj(A): transpose off, conjugate on)

  // Element (i, j) of op(A).
  T operator()(int i, int j) const {
    const T v = op.transpose ? a[static_cast<long long>(i) * lda + j] : a[static_cast<long long>(j) * lda + i];
    return conj_if(v, op.conjugate);
  }
  // Whether op(A) is upper triangular.
  bool solves_upper() const { return upper != op.transpose; }
};

// x = op(A)^-1 x, x(i) a reference to the vector's element i: back substitution for an upper
// triangle, forward for a lower one.
template <class T, class X>
void solve_triangular(const Triangle<T>& t, int n, X&& x) {
  if (t.solves_upper()) {
    for (int i = n - 1; i >= 0; --i) {
      T sum = x(i);
      for (int j = i + 1; j < n; ++j) sum -= t(i, j) * x(j);
      x(i) = t.unit ? sum : sum / t(i, i);
    }
  } else {
    for (int i = 0; i < n; ++i) {
      T sum = x(i);
      for (int j = 0; j < i; ++j) sum -= t(i, j) * x(j);
      x(i) = t.unit ? sum : sum / t(i, i);
    }
  }
}

}  // namespace gpulab::sim::cublas
