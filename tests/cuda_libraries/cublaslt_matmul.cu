// cublasLtMatmul as a program calls it, self-checking against float64: column- and row-major layouts,
// transposes, a strided batch, D apart from C, the bias + GELU epilogue with its pre-activation stored
// to the aux buffer (as a transformer layer uses it), bfloat16 inputs, the heuristic query, and
// refusals. Outputs poisoned with NaN before each call. Built unchanged by nvcc and by gpulab-simcc.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "library_checks.h"

#define CHECK_LT(call) CHECK_STATUS(call, CUBLAS_STATUS_SUCCESS, cublasLtGetStatusName)

namespace {

std::mt19937_64 rng(std::random_device{}());
double uniform() { return std::uniform_real_distribution<double>(-1.0, 1.0)(rng); }

void expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    ++failures;
  }
}

// Element (i, j) of a stored rows x cols matrix of layout `row_major` with leading dimension ld.
double at(const std::vector<float>& m, bool row_major, int ld, int i, int j) {
  return row_major ? m[static_cast<std::size_t>(i) * ld + j] : m[static_cast<std::size_t>(j) * ld + i];
}

double gelu(double x) { return 0.5 * x * (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))); }

cublasLtMatrixLayout_t layout(cudaDataType type, int rows, int cols, int ld, bool row_major, int batch = 1,
                              long long stride = 0) {
  cublasLtMatrixLayout_t l;
  CHECK_LT(cublasLtMatrixLayoutCreate(&l, type, rows, cols, ld));
  const cublasLtOrder_t order = row_major ? CUBLASLT_ORDER_ROW : CUBLASLT_ORDER_COL;
  CHECK_LT(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_ORDER, &order, sizeof order));
  if (batch > 1) {
    CHECK_LT(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch, sizeof batch));
    CHECK_LT(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride));
  }
  return l;
}

// D = alpha op(A) op(B) + beta C for float layouts of either order, batched; D apart from C.
void check_float(cublasLtHandle_t lt, bool row_major, cublasOperation_t ta, cublasOperation_t tb) {
  const int m = 37, n = 19, k = 29, batch = 3;
  const int ra = ta == CUBLAS_OP_N ? m : k, ca = ta == CUBLAS_OP_N ? k : m;
  const int rb = tb == CUBLAS_OP_N ? k : n, cb = tb == CUBLAS_OP_N ? n : k;
  auto ld_of = [&](int rows, int cols) { return (row_major ? cols : rows) + 3; };
  auto size_of = [&](int rows, int cols) { return static_cast<long long>(ld_of(rows, cols)) * (row_major ? rows : cols); };
  const int lda = ld_of(ra, ca), ldb = ld_of(rb, cb), ldc = ld_of(m, n);
  const long long sa = size_of(ra, ca), sb = size_of(rb, cb), sc = size_of(m, n);
  std::vector<float> A(sa * batch), B(sb * batch), C(sc * batch), D(sc * batch, std::nanf(""));
  for (auto& v : A) v = static_cast<float>(uniform());
  for (auto& v : B) v = static_cast<float>(uniform());
  for (auto& v : C) v = static_cast<float>(uniform());
  float *dA = to_device(A), *dB = to_device(B), *dC = to_device(C), *dD = to_device(D);
  cublasLtMatmulDesc_t desc;
  CHECK_LT(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
  CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
  auto la = layout(CUDA_R_32F, ra, ca, lda, row_major, batch, sa), lb = layout(CUDA_R_32F, rb, cb, ldb, row_major, batch, sb);
  auto lc = layout(CUDA_R_32F, m, n, ldc, row_major, batch, sc);
  const float alpha = static_cast<float>(uniform()), beta = static_cast<float>(uniform());
  CHECK_LT(cublasLtMatmul(lt, desc, &alpha, dA, la, dB, lb, &beta, dC, lc, dD, lc, nullptr, nullptr, 0, 0));
  const auto got = to_host(dD, D.size());
  double num = 0, den = 0;
  for (int b = 0; b < batch; ++b) {
    const std::vector<float> a(A.begin() + b * sa, A.begin() + (b + 1) * sa), bb(B.begin() + b * sb, B.begin() + (b + 1) * sb);
    const std::vector<float> c(C.begin() + b * sc, C.begin() + (b + 1) * sc), d(got.begin() + b * sc, got.begin() + (b + 1) * sc);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        double sum = 0;
        for (int l = 0; l < k; ++l) {
          const double x = ta == CUBLAS_OP_N ? at(a, row_major, lda, i, l) : at(a, row_major, lda, l, i);
          const double y = tb == CUBLAS_OP_N ? at(bb, row_major, ldb, l, j) : at(bb, row_major, ldb, j, l);
          sum += x * y;
        }
        const double want = alpha * sum + beta * at(c, row_major, ldc, i, j);
        const double e = at(d, row_major, ldc, i, j) - want;
        num += e * e;
        den += want * want;
      }
  }
  const double err = std::isnan(num) ? INFINITY : std::sqrt(num / den);
  if (err > 4.0 * k * 0x1p-24) {
    std::printf("FAIL: cublasLtMatmul float, %s-major, op %d,%d: relative error %.3g\n", row_major ? "row" : "column", ta, tb, err);
    ++failures;
  }
  for (auto l : {la, lb, lc}) CHECK_LT(cublasLtMatrixLayoutDestroy(l));
  CHECK_LT(cublasLtMatmulDescDestroy(desc));
  for (float* p : {dA, dB, dC, dD}) CHECK(cudaFree(p));
}

// A transformer layer's forward product: bfloat16 weights and activations, float accumulation, the
// bias + GELU epilogue with the pre-activation kept in aux; D = gelu(A^T B + bias), beta = 0.
void check_bf16_gelu(cublasLtHandle_t lt) {
  const int m = 48, n = 7, k = 33;  // D is m x n; A is stored k x m (transposed), B k x n
  std::vector<__nv_bfloat16> A(k * m), B(k * n), bias(m);
  std::vector<float> Af(A.size()), Bf(B.size()), biasf(m);
  for (std::size_t i = 0; i < A.size(); ++i) { A[i] = __float2bfloat16(static_cast<float>(uniform())); Af[i] = __bfloat162float(A[i]); }
  for (std::size_t i = 0; i < B.size(); ++i) { B[i] = __float2bfloat16(static_cast<float>(uniform())); Bf[i] = __bfloat162float(B[i]); }
  for (int i = 0; i < m; ++i) { bias[i] = __float2bfloat16(static_cast<float>(uniform())); biasf[i] = __bfloat162float(bias[i]); }
  __nv_bfloat16 *dA = to_device(A), *dB = to_device(B), *dBias = to_device(bias);
  __nv_bfloat16* dD = to_device(std::vector<__nv_bfloat16>(m * n, __float2bfloat16(std::nanf(""))));
  __nv_bfloat16* dAux = to_device(std::vector<__nv_bfloat16>(m * n, __float2bfloat16(std::nanf(""))));
  cublasLtMatmulDesc_t desc;
  CHECK_LT(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  const cublasOperation_t t = CUBLAS_OP_T;
  const cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_GELU_AUX_BIAS;
  const long long aux_ld = m;
  CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof t));
  CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof epilogue));
  CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &dBias, sizeof dBias));
  CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, &dAux, sizeof dAux));
  CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &aux_ld, sizeof aux_ld));
  auto la = layout(CUDA_R_16BF, k, m, k, false), lb = layout(CUDA_R_16BF, k, n, k, false), ld = layout(CUDA_R_16BF, m, n, m, false);
  cublasLtMatmulPreference_t pref;
  CHECK_LT(cublasLtMatmulPreferenceCreate(&pref));
  const size_t workspace = 1 << 20;
  CHECK_LT(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace, sizeof workspace));
  cublasLtMatmulHeuristicResult_t result;
  int found = 0;
  CHECK_LT(cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, ld, ld, pref, 1, &result, &found));
  expect(found == 1 && result.state == CUBLAS_STATUS_SUCCESS, "cublasLtMatmulAlgoGetHeuristic finds an algorithm");
  const float alpha = 1.0f, beta = 0.0f;
  CHECK_LT(cublasLtMatmul(lt, desc, &alpha, dA, la, dB, lb, &beta, dD, ld, dD, ld, &result.algo, nullptr, 0, 0));
  const auto D = to_host(dD, m * n), Aux = to_host(dAux, m * n);
  double num = 0, den = 0, num_aux = 0, den_aux = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double pre = biasf[i];
      for (int l = 0; l < k; ++l) pre += static_cast<double>(Af[i * k + l]) * Bf[j * k + l];
      const double want = gelu(pre);
      const double e = __bfloat162float(D[j * m + i]) - want, ea = __bfloat162float(Aux[j * m + i]) - pre;
      num += e * e;
      den += want * want;
      num_aux += ea * ea;
      den_aux += pre * pre;
    }
  // Inputs are exact in bfloat16; the error is the float accumulation plus D's own rounding (2^-8).
  const double bound = 4.0 * k * 0x1p-24 + 0x1p-8;
  expect(!std::isnan(num) && std::sqrt(num / den) <= bound, "cublasLtMatmul bf16 with the GELU + bias epilogue");
  expect(!std::isnan(num_aux) && std::sqrt(num_aux / den_aux) <= bound, "cublasLtMatmul stores the pre-activation to aux");
  // Refusals: an epilogue the simulator lacks, and shapes that do not chain.
  const cublasLtEpilogue_t bgrad = CUBLASLT_EPILOGUE_BGRADB;
  CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &bgrad, sizeof bgrad));
  expect(cublasLtMatmul(lt, desc, &alpha, dA, la, dB, lb, &beta, dD, ld, dD, ld, nullptr, nullptr, 0, 0) == CUBLAS_STATUS_NOT_SUPPORTED,
         "an epilogue the simulator lacks is CUBLAS_STATUS_NOT_SUPPORTED");
  CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof epilogue));
  auto wrong = layout(CUDA_R_16BF, k + 1, n, k + 1, false);
  expect(cublasLtMatmul(lt, desc, &alpha, dA, la, dB, wrong, &beta, dD, ld, dD, ld, nullptr, nullptr, 0, 0) == CUBLAS_STATUS_INVALID_VALUE,
         "shapes that do not chain are CUBLAS_STATUS_INVALID_VALUE");
  for (auto l : {la, lb, ld, wrong}) CHECK_LT(cublasLtMatrixLayoutDestroy(l));
  CHECK_LT(cublasLtMatmulPreferenceDestroy(pref));
  CHECK_LT(cublasLtMatmulDescDestroy(desc));
  for (void* p : {static_cast<void*>(dA), static_cast<void*>(dB), static_cast<void*>(dBias), static_cast<void*>(dD), static_cast<void*>(dAux)}) CHECK(cudaFree(p));
}

}  // namespace

int main() {
  cublasLtHandle_t lt;
  CHECK_LT(cublasLtCreate(&lt));
  for (bool row_major : {false, true})
    for (cublasOperation_t ta : {CUBLAS_OP_N, CUBLAS_OP_T})
      for (cublasOperation_t tb : {CUBLAS_OP_N, CUBLAS_OP_T}) check_float(lt, row_major, ta, tb);
  check_bf16_gelu(lt);
  CHECK_LT(cublasLtDestroy(lt));
  if (failures != 0) {
    std::printf("FAILED: %d checks\n", failures);
    return 1;
  }
  std::printf("PASSED: cublasLtMatmul layouts, batches, bf16 with bias + GELU epilogue, refusals\n");
  return 0;
}
