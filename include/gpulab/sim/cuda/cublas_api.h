#pragma once
// gpulab-simcc's shadow of CUDA's <cublas_api.h>: the cuBLAS v2 API that the simulator implements
// (src/simcuda/cublas), with cuBLAS's names, types, enumerator values and signatures, so that programs
// build unchanged and link libgpulab_cublas for -lcublas. Each call validates its arguments as cuBLAS does
// and returns cuBLAS's status codes; its work runs on the handle's stream as a kernel there would, on
// gpulab's CPU BLAS, with every device buffer it touches checked by the simulator. A cuBLAS call that is
// not declared here is not simulated: the compiler names it. docs/simulator.md lists what is provided.
#ifndef CUBLAS_API_H_
#define CUBLAS_API_H_

#include <stddef.h>
#include <stdint.h>

#include "cuComplex.h"
#include "cuda_runtime_api.h"
#include "library_types.h"
#if defined(__cplusplus) && defined(GPULAB_SIM)
#include "cuda_bf16.h"
#include "cuda_fp16.h"
#elif defined(__cplusplus)
struct __half;  // libgpulab_cublas's own build, outside the simulator's programs: only pointers to it
#endif

#ifndef CUBLASWINAPI
#define CUBLASWINAPI
#endif
#ifndef CUBLASAPI
#define CUBLASAPI
#endif

// The cuBLAS release whose API this follows.
#define CUBLAS_VER_MAJOR 13
#define CUBLAS_VER_MINOR 1
#define CUBLAS_VER_PATCH 0
#define CUBLAS_VER_BUILD 3
#define CUBLAS_VERSION (CUBLAS_VER_MAJOR * 10000 + CUBLAS_VER_MINOR * 100 + CUBLAS_VER_PATCH)

#if defined(__cplusplus)
extern "C" {
#endif

typedef enum {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_NOT_INITIALIZED = 1,
  CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7,
  CUBLAS_STATUS_ARCH_MISMATCH = 8,
  CUBLAS_STATUS_MAPPING_ERROR = 11,
  CUBLAS_STATUS_EXECUTION_FAILED = 13,
  CUBLAS_STATUS_INTERNAL_ERROR = 14,
  CUBLAS_STATUS_NOT_SUPPORTED = 15,
  CUBLAS_STATUS_LICENSE_ERROR = 16
} cublasStatus_t;

typedef enum { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1, CUBLAS_FILL_MODE_FULL = 2 } cublasFillMode_t;
typedef enum { CUBLAS_DIAG_NON_UNIT = 0, CUBLAS_DIAG_UNIT = 1 } cublasDiagType_t;
typedef enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;
typedef enum {
  CUBLAS_OP_N = 0,
  CUBLAS_OP_T = 1,
  CUBLAS_OP_C = 2,
  CUBLAS_OP_HERMITAN = 2,
  CUBLAS_OP_CONJG = 3  // a placeholder in cuBLAS too: refused with CUBLAS_STATUS_INVALID_VALUE
} cublasOperation_t;
typedef enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;
typedef enum { CUBLAS_ATOMICS_NOT_ALLOWED = 0, CUBLAS_ATOMICS_ALLOWED = 1 } cublasAtomicsMode_t;

// Algorithm choices: accepted and ignored (there is one CPU algorithm), as a GPU may ignore them too.
typedef enum {
  CUBLAS_GEMM_DFALT = -1, CUBLAS_GEMM_DEFAULT = -1,
  CUBLAS_GEMM_ALGO0 = 0, CUBLAS_GEMM_ALGO1 = 1, CUBLAS_GEMM_ALGO2 = 2, CUBLAS_GEMM_ALGO3 = 3,
  CUBLAS_GEMM_ALGO4 = 4, CUBLAS_GEMM_ALGO5 = 5, CUBLAS_GEMM_ALGO6 = 6, CUBLAS_GEMM_ALGO7 = 7,
  CUBLAS_GEMM_ALGO8 = 8, CUBLAS_GEMM_ALGO9 = 9, CUBLAS_GEMM_ALGO10 = 10, CUBLAS_GEMM_ALGO11 = 11,
  CUBLAS_GEMM_ALGO12 = 12, CUBLAS_GEMM_ALGO13 = 13, CUBLAS_GEMM_ALGO14 = 14, CUBLAS_GEMM_ALGO15 = 15,
  CUBLAS_GEMM_ALGO16 = 16, CUBLAS_GEMM_ALGO17 = 17, CUBLAS_GEMM_ALGO18 = 18, CUBLAS_GEMM_ALGO19 = 19,
  CUBLAS_GEMM_ALGO20 = 20, CUBLAS_GEMM_ALGO21 = 21, CUBLAS_GEMM_ALGO22 = 22, CUBLAS_GEMM_ALGO23 = 23,
  CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99, CUBLAS_GEMM_DFALT_TENSOR_OP = 99,
  CUBLAS_GEMM_ALGO0_TENSOR_OP = 100, CUBLAS_GEMM_ALGO1_TENSOR_OP = 101, CUBLAS_GEMM_ALGO2_TENSOR_OP = 102,
  CUBLAS_GEMM_ALGO3_TENSOR_OP = 103, CUBLAS_GEMM_ALGO4_TENSOR_OP = 104, CUBLAS_GEMM_ALGO5_TENSOR_OP = 105,
  CUBLAS_GEMM_ALGO6_TENSOR_OP = 106, CUBLAS_GEMM_ALGO7_TENSOR_OP = 107, CUBLAS_GEMM_ALGO8_TENSOR_OP = 108,
  CUBLAS_GEMM_ALGO9_TENSOR_OP = 109, CUBLAS_GEMM_ALGO10_TENSOR_OP = 110, CUBLAS_GEMM_ALGO11_TENSOR_OP = 111,
  CUBLAS_GEMM_ALGO12_TENSOR_OP = 112, CUBLAS_GEMM_ALGO13_TENSOR_OP = 113, CUBLAS_GEMM_ALGO14_TENSOR_OP = 114,
  CUBLAS_GEMM_ALGO15_TENSOR_OP = 115,
  CUBLAS_GEMM_AUTOTUNE = 999
} cublasGemmAlgo_t;

typedef enum {
  CUBLAS_DEFAULT_MATH = 0,
  CUBLAS_TENSOR_OP_MATH = 1,  // deprecated by cuBLAS: as CUBLAS_COMPUTE_32F_FAST_16F for single precision
  CUBLAS_PEDANTIC_MATH = 2,
  CUBLAS_TF32_TENSOR_OP_MATH = 3,  // single-precision products round their inputs to TF32, as a GPU's do
  CUBLAS_FP32_EMULATED_BF16X9_MATH = 4,
  CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH = 8,
  CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION = 16
} cublasMath_t;

typedef cudaDataType cublasDataType_t;

typedef enum {
  CUBLAS_COMPUTE_16F = 64,
  CUBLAS_COMPUTE_16F_PEDANTIC = 65,
  CUBLAS_COMPUTE_32F = 68,
  CUBLAS_COMPUTE_32F_PEDANTIC = 69,
  CUBLAS_COMPUTE_32F_FAST_16F = 74,
  CUBLAS_COMPUTE_32F_FAST_16BF = 75,
  CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
  CUBLAS_COMPUTE_32F_EMULATED_16BFX9 = 78,
  CUBLAS_COMPUTE_64F = 70,
  CUBLAS_COMPUTE_64F_PEDANTIC = 71,
  CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT = 79,
  CUBLAS_COMPUTE_32I = 72,
  CUBLAS_COMPUTE_32I_PEDANTIC = 73
} cublasComputeType_t;

struct cublasContext;
typedef struct cublasContext* cublasHandle_t;
typedef void (*cublasLogCallback)(const char* msg);

// ---- helpers ----
cublasStatus_t cublasCreate_v2(cublasHandle_t* handle);
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle);
cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int* version);
cublasStatus_t cublasGetProperty(libraryPropertyType type, int* value);
size_t cublasGetCudartVersion(void);
cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle, void* workspace, size_t workspaceSizeInBytes);
cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId);
cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t* streamId);
cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t* mode);
cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode);
cublasStatus_t cublasGetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t* mode);
cublasStatus_t cublasSetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t mode);
cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t* mode);
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode);
cublasStatus_t cublasGetSmCountTarget(cublasHandle_t handle, int* smCountTarget);
cublasStatus_t cublasSetSmCountTarget(cublasHandle_t handle, int smCountTarget);
const char* cublasGetStatusName(cublasStatus_t status);
const char* cublasGetStatusString(cublasStatus_t status);
cublasStatus_t cublasLoggerConfigure(int logIsOn, int logToStdOut, int logToStdErr, const char* logFileName);
cublasStatus_t cublasSetLoggerCallback(cublasLogCallback userCallback);
cublasStatus_t cublasGetLoggerCallback(cublasLogCallback* userCallback);

cublasStatus_t cublasSetVector(int n, int elemSize, const void* x, int incx, void* devicePtr, int incy);
cublasStatus_t cublasGetVector(int n, int elemSize, const void* x, int incx, void* y, int incy);
cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb);
cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb);
cublasStatus_t cublasSetVectorAsync(int n, int elemSize, const void* hostPtr, int incx, void* devicePtr, int incy,
                                    cudaStream_t stream);
cublasStatus_t cublasGetVectorAsync(int n, int elemSize, const void* devicePtr, int incx, void* hostPtr, int incy,
                                    cudaStream_t stream);
cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb,
                                    cudaStream_t stream);
cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb,
                                    cudaStream_t stream);

// ---- level 1 ----
cublasStatus_t cublasSnrm2_v2(cublasHandle_t handle, int n, const float* x, int incx, float* result);
cublasStatus_t cublasDnrm2_v2(cublasHandle_t handle, int n, const double* x, int incx, double* result);
cublasStatus_t cublasScnrm2_v2(cublasHandle_t handle, int n, const cuComplex* x, int incx, float* result);
cublasStatus_t cublasDznrm2_v2(cublasHandle_t handle, int n, const cuDoubleComplex* x, int incx, double* result);

cublasStatus_t cublasSdot_v2(cublasHandle_t handle, int n, const float* x, int incx, const float* y, int incy,
                             float* result);
cublasStatus_t cublasDdot_v2(cublasHandle_t handle, int n, const double* x, int incx, const double* y, int incy,
                             double* result);
cublasStatus_t cublasCdotu_v2(cublasHandle_t handle, int n, const cuComplex* x, int incx, const cuComplex* y,
                              int incy, cuComplex* result);
cublasStatus_t cublasCdotc_v2(cublasHandle_t handle, int n, const cuComplex* x, int incx, const cuComplex* y,
                              int incy, cuComplex* result);
cublasStatus_t cublasZdotu_v2(cublasHandle_t handle, int n, const cuDoubleComplex* x, int incx,
                              const cuDoubleComplex* y, int incy, cuDoubleComplex* result);
cublasStatus_t cublasZdotc_v2(cublasHandle_t handle, int n, const cuDoubleComplex* x, int incx,
                              const cuDoubleComplex* y, int incy, cuDoubleComplex* result);

cublasStatus_t cublasSscal_v2(cublasHandle_t handle, int n, const float* alpha, float* x, int incx);
cublasStatus_t cublasDscal_v2(cublasHandle_t handle, int n, const double* alpha, double* x, int incx);
cublasStatus_t cublasCscal_v2(cublasHandle_t handle, int n, const cuComplex* alpha, cuComplex* x, int incx);
cublasStatus_t cublasCsscal_v2(cublasHandle_t handle, int n, const float* alpha, cuComplex* x, int incx);
cublasStatus_t cublasZscal_v2(cublasHandle_t handle, int n, const cuDoubleComplex* alpha, cuDoubleComplex* x,
                              int incx);
cublasStatus_t cublasZdscal_v2(cublasHandle_t handle, int n, const double* alpha, cuDoubleComplex* x, int incx);

cublasStatus_t cublasSaxpy_v2(cublasHandle_t handle, int n, const float* alpha, const float* x, int incx, float* y,
                              int incy);
cublasStatus_t cublasDaxpy_v2(cublasHandle_t handle, int n, const double* alpha, const double* x, int incx,
                              double* y, int incy);
cublasStatus_t cublasCaxpy_v2(cublasHandle_t handle, int n, const cuComplex* alpha, const cuComplex* x, int incx,
                              cuComplex* y, int incy);
cublasStatus_t cublasZaxpy_v2(cublasHandle_t handle, int n, const cuDoubleComplex* alpha, const cuDoubleComplex* x,
                              int incx, cuDoubleComplex* y, int incy);

cublasStatus_t cublasScopy_v2(cublasHandle_t handle, int n, const float* x, int incx, float* y, int incy);
cublasStatus_t cublasDcopy_v2(cublasHandle_t handle, int n, const double* x, int incx, double* y, int incy);
cublasStatus_t cublasCcopy_v2(cublasHandle_t handle, int n, const cuComplex* x, int incx, cuComplex* y, int incy);
cublasStatus_t cublasZcopy_v2(cublasHandle_t handle, int n, const cuDoubleComplex* x, int incx, cuDoubleComplex* y,
                              int incy);

cublasStatus_t cublasSswap_v2(cublasHandle_t handle, int n, float* x, int incx, float* y, int incy);
cublasStatus_t cublasDswap_v2(cublasHandle_t handle, int n, double* x, int incx, double* y, int incy);
cublasStatus_t cublasCswap_v2(cublasHandle_t handle, int n, cuComplex* x, int incx, cuComplex* y, int incy);
cublasStatus_t cublasZswap_v2(cublasHandle_t handle, int n, cuDoubleComplex* x, int incx, cuDoubleComplex* y,
                              int incy);

cublasStatus_t cublasIsamax_v2(cublasHandle_t handle, int n, const float* x, int incx, int* result);
cublasStatus_t cublasIdamax_v2(cublasHandle_t handle, int n, const double* x, int incx, int* result);
cublasStatus_t cublasIcamax_v2(cublasHandle_t handle, int n, const cuComplex* x, int incx, int* result);
cublasStatus_t cublasIzamax_v2(cublasHandle_t handle, int n, const cuDoubleComplex* x, int incx, int* result);
cublasStatus_t cublasIsamin_v2(cublasHandle_t handle, int n, const float* x, int incx, int* result);
cublasStatus_t cublasIdamin_v2(cublasHandle_t handle, int n, const double* x, int incx, int* result);
cublasStatus_t cublasIcamin_v2(cublasHandle_t handle, int n, const cuComplex* x, int incx, int* result);
cublasStatus_t cublasIzamin_v2(cublasHandle_t handle, int n, const cuDoubleComplex* x, int incx, int* result);

cublasStatus_t cublasSasum_v2(cublasHandle_t handle, int n, const float* x, int incx, float* result);
cublasStatus_t cublasDasum_v2(cublasHandle_t handle, int n, const double* x, int incx, double* result);
cublasStatus_t cublasScasum_v2(cublasHandle_t handle, int n, const cuComplex* x, int incx, float* result);
cublasStatus_t cublasDzasum_v2(cublasHandle_t handle, int n, const cuDoubleComplex* x, int incx, double* result);

cublasStatus_t cublasSrot_v2(cublasHandle_t handle, int n, float* x, int incx, float* y, int incy, const float* c,
                             const float* s);
cublasStatus_t cublasDrot_v2(cublasHandle_t handle, int n, double* x, int incx, double* y, int incy,
                             const double* c, const double* s);
cublasStatus_t cublasCsrot_v2(cublasHandle_t handle, int n, cuComplex* x, int incx, cuComplex* y, int incy,
                              const float* c, const float* s);
cublasStatus_t cublasZdrot_v2(cublasHandle_t handle, int n, cuDoubleComplex* x, int incx, cuDoubleComplex* y,
                              int incy, const double* c, const double* s);

// ---- level 2 ----
cublasStatus_t cublasSgemv_v2(cublasHandle_t handle, cublasOperation_t trans, int m, int n, const float* alpha,
                              const float* A, int lda, const float* x, int incx, const float* beta, float* y,
                              int incy);
cublasStatus_t cublasDgemv_v2(cublasHandle_t handle, cublasOperation_t trans, int m, int n, const double* alpha,
                              const double* A, int lda, const double* x, int incx, const double* beta, double* y,
                              int incy);
cublasStatus_t cublasCgemv_v2(cublasHandle_t handle, cublasOperation_t trans, int m, int n, const cuComplex* alpha,
                              const cuComplex* A, int lda, const cuComplex* x, int incx, const cuComplex* beta,
                              cuComplex* y, int incy);
cublasStatus_t cublasZgemv_v2(cublasHandle_t handle, cublasOperation_t trans, int m, int n,
                              const cuDoubleComplex* alpha, const cuDoubleComplex* A, int lda,
                              const cuDoubleComplex* x, int incx, const cuDoubleComplex* beta, cuDoubleComplex* y,
                              int incy);

cublasStatus_t cublasSger_v2(cublasHandle_t handle, int m, int n, const float* alpha, const float* x, int incx,
                             const float* y, int incy, float* A, int lda);
cublasStatus_t cublasDger_v2(cublasHandle_t handle, int m, int n, const double* alpha, const double* x, int incx,
                             const double* y, int incy, double* A, int lda);
cublasStatus_t cublasCgeru_v2(cublasHandle_t handle, int m, int n, const cuComplex* alpha, const cuComplex* x,
                              int incx, const cuComplex* y, int incy, cuComplex* A, int lda);
cublasStatus_t cublasCgerc_v2(cublasHandle_t handle, int m, int n, const cuComplex* alpha, const cuComplex* x,
                              int incx, const cuComplex* y, int incy, cuComplex* A, int lda);
cublasStatus_t cublasZgeru_v2(cublasHandle_t handle, int m, int n, const cuDoubleComplex* alpha,
                              const cuDoubleComplex* x, int incx, const cuDoubleComplex* y, int incy,
                              cuDoubleComplex* A, int lda);
cublasStatus_t cublasZgerc_v2(cublasHandle_t handle, int m, int n, const cuDoubleComplex* alpha,
                              const cuDoubleComplex* x, int incx, const cuDoubleComplex* y, int incy,
                              cuDoubleComplex* A, int lda);

cublasStatus_t cublasSsymv_v2(cublasHandle_t handle, cublasFillMode_t uplo, int n, const float* alpha,
                              const float* A, int lda, const float* x, int incx, const float* beta, float* y,
                              int incy);
cublasStatus_t cublasDsymv_v2(cublasHandle_t handle, cublasFillMode_t uplo, int n, const double* alpha,
                              const double* A, int lda, const double* x, int incx, const double* beta, double* y,
                              int incy);
cublasStatus_t cublasCsymv_v2(cublasHandle_t handle, cublasFillMode_t uplo, int n, const cuComplex* alpha,
                              const cuComplex* A, int lda, const cuComplex* x, int incx, const cuComplex* beta,
                              cuComplex* y, int incy);
cublasStatus_t cublasZsymv_v2(cublasHandle_t handle, cublasFillMode_t uplo, int n, const cuDoubleComplex* alpha,
                              const cuDoubleComplex* A, int lda, const cuDoubleComplex* x, int incx,
                              const cuDoubleComplex* beta, cuDoubleComplex* y, int incy);

cublasStatus_t cublasStrsv_v2(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,
                              cublasDiagType_t diag, int n, const float* A, int lda, float* x, int incx);
cublasStatus_t cublasDtrsv_v2(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,
                              cublasDiagType_t diag, int n, const double* A, int lda, double* x, int incx);
cublasStatus_t cublasCtrsv_v2(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,
                              cublasDiagType_t diag, int n, const cuComplex* A, int lda, cuComplex* x, int incx);
cublasStatus_t cublasZtrsv_v2(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,
                              cublasDiagType_t diag, int n, const cuDoubleComplex* A, int lda, cuDoubleComplex* x,
                              int incx);

// ---- level 3 ----
cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                              int n, int k, const float* alpha, const float* A, int lda, const float* B, int ldb,
                              const float* beta, float* C, int ldc);
cublasStatus_t cublasDgemm_v2(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                              int n, int k, const double* alpha, const double* A, int lda, const double* B,
                              int ldb, const double* beta, double* C, int ldc);
cublasStatus_t cublasCgemm_v2(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                              int n, int k, const cuComplex* alpha, const cuComplex* A, int lda,
                              const cuComplex* B, int ldb, const cuComplex* beta, cuComplex* C, int ldc);
cublasStatus_t cublasZgemm_v2(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                              int n, int k, const cuDoubleComplex* alpha, const cuDoubleComplex* A, int lda,
                              const cuDoubleComplex* B, int ldb, const cuDoubleComplex* beta, cuDoubleComplex* C,
                              int ldc);

cublasStatus_t cublasSgemmBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                  int n, int k, const float* alpha, const float* const Aarray[], int lda,
                                  const float* const Barray[], int ldb, const float* beta, float* const Carray[],
                                  int ldc, int batchCount);
cublasStatus_t cublasDgemmBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                  int n, int k, const double* alpha, const double* const Aarray[], int lda,
                                  const double* const Barray[], int ldb, const double* beta,
                                  double* const Carray[], int ldc, int batchCount);
cublasStatus_t cublasCgemmBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                  int n, int k, const cuComplex* alpha, const cuComplex* const Aarray[], int lda,
                                  const cuComplex* const Barray[], int ldb, const cuComplex* beta,
                                  cuComplex* const Carray[], int ldc, int batchCount);
cublasStatus_t cublasZgemmBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                  int n, int k, const cuDoubleComplex* alpha, const cuDoubleComplex* const Aarray[],
                                  int lda, const cuDoubleComplex* const Barray[], int ldb,
                                  const cuDoubleComplex* beta, cuDoubleComplex* const Carray[], int ldc,
                                  int batchCount);

cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const float* alpha, const float* A, int lda,
                                         long long int strideA, const float* B, int ldb, long long int strideB,
                                         const float* beta, float* C, int ldc, long long int strideC,
                                         int batchCount);
cublasStatus_t cublasDgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const double* alpha, const double* A, int lda,
                                         long long int strideA, const double* B, int ldb, long long int strideB,
                                         const double* beta, double* C, int ldc, long long int strideC,
                                         int batchCount);
cublasStatus_t cublasCgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const cuComplex* alpha, const cuComplex* A, int lda,
                                         long long int strideA, const cuComplex* B, int ldb, long long int strideB,
                                         const cuComplex* beta, cuComplex* C, int ldc, long long int strideC,
                                         int batchCount);
cublasStatus_t cublasZgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const cuDoubleComplex* alpha,
                                         const cuDoubleComplex* A, int lda, long long int strideA,
                                         const cuDoubleComplex* B, int ldb, long long int strideB,
                                         const cuDoubleComplex* beta, cuDoubleComplex* C, int ldc,
                                         long long int strideC, int batchCount);

cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                            int k, const void* alpha, const void* A, cudaDataType Atype, int lda, const void* B,
                            cudaDataType Btype, int ldb, const void* beta, void* C, cudaDataType Ctype, int ldc,
                            cublasComputeType_t computeType, cublasGemmAlgo_t algo);
cublasStatus_t cublasGemmBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                   int n, int k, const void* alpha, const void* const Aarray[], cudaDataType Atype,
                                   int lda, const void* const Barray[], cudaDataType Btype, int ldb,
                                   const void* beta, void* const Carray[], cudaDataType Ctype, int ldc,
                                   int batchCount, cublasComputeType_t computeType, cublasGemmAlgo_t algo);
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa,
                                          cublasOperation_t transb, int m, int n, int k, const void* alpha,
                                          const void* A, cudaDataType Atype, int lda, long long int strideA,
                                          const void* B, cudaDataType Btype, int ldb, long long int strideB,
                                          const void* beta, void* C, cudaDataType Ctype, int ldc,
                                          long long int strideC, int batchCount, cublasComputeType_t computeType,
                                          cublasGemmAlgo_t algo);
cublasStatus_t cublasSgemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                             int n, int k, const float* alpha, const void* A, cudaDataType Atype, int lda,
                             const void* B, cudaDataType Btype, int ldb, const float* beta, void* C,
                             cudaDataType Ctype, int ldc);

cublasStatus_t cublasSsyrk_v2(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k,
                              const float* alpha, const float* A, int lda, const float* beta, float* C, int ldc);
cublasStatus_t cublasDsyrk_v2(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k,
                              const double* alpha, const double* A, int lda, const double* beta, double* C,
                              int ldc);
cublasStatus_t cublasCsyrk_v2(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k,
                              const cuComplex* alpha, const cuComplex* A, int lda, const cuComplex* beta,
                              cuComplex* C, int ldc);
cublasStatus_t cublasZsyrk_v2(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k,
                              const cuDoubleComplex* alpha, const cuDoubleComplex* A, int lda,
                              const cuDoubleComplex* beta, cuDoubleComplex* C, int ldc);

cublasStatus_t cublasStrsm_v2(cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,
                              cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const float* alpha,
                              const float* A, int lda, float* B, int ldb);
cublasStatus_t cublasDtrsm_v2(cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,
                              cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const double* alpha,
                              const double* A, int lda, double* B, int ldb);
cublasStatus_t cublasCtrsm_v2(cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,
                              cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const cuComplex* alpha,
                              const cuComplex* A, int lda, cuComplex* B, int ldb);
cublasStatus_t cublasZtrsm_v2(cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,
                              cublasOperation_t trans, cublasDiagType_t diag, int m, int n,
                              const cuDoubleComplex* alpha, const cuDoubleComplex* A, int lda, cuDoubleComplex* B,
                              int ldb);

cublasStatus_t cublasSgeam(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           const float* alpha, const float* A, int lda, const float* beta, const float* B, int ldb,
                           float* C, int ldc);
cublasStatus_t cublasDgeam(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           const double* alpha, const double* A, int lda, const double* beta, const double* B,
                           int ldb, double* C, int ldc);
cublasStatus_t cublasCgeam(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           const cuComplex* alpha, const cuComplex* A, int lda, const cuComplex* beta,
                           const cuComplex* B, int ldb, cuComplex* C, int ldc);
cublasStatus_t cublasZgeam(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           const cuDoubleComplex* alpha, const cuDoubleComplex* A, int lda,
                           const cuDoubleComplex* beta, const cuDoubleComplex* B, int ldb, cuDoubleComplex* C,
                           int ldc);

#define GPULAB_CUBLAS_TRMM(fn, T)                                                                                 \
  cublasStatus_t fn(cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans, \
                    cublasDiagType_t diag, int m, int n, const T* alpha, const T* A, int lda, const T* B, int ldb,   \
                    T* C, int ldc);
GPULAB_CUBLAS_TRMM(cublasStrmm_v2, float)
GPULAB_CUBLAS_TRMM(cublasDtrmm_v2, double)
GPULAB_CUBLAS_TRMM(cublasCtrmm_v2, cuComplex)
GPULAB_CUBLAS_TRMM(cublasZtrmm_v2, cuDoubleComplex)
#undef GPULAB_CUBLAS_TRMM

#define GPULAB_CUBLAS_SYMM(fn, T)                                                                                  \
  cublasStatus_t fn(cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, int m, int n,            \
                    const T* alpha, const T* A, int lda, const T* B, int ldb, const T* beta, T* C, int ldc);
GPULAB_CUBLAS_SYMM(cublasSsymm_v2, float)
GPULAB_CUBLAS_SYMM(cublasDsymm_v2, double)
GPULAB_CUBLAS_SYMM(cublasCsymm_v2, cuComplex)
GPULAB_CUBLAS_SYMM(cublasZsymm_v2, cuDoubleComplex)
#undef GPULAB_CUBLAS_SYMM

#define GPULAB_CUBLAS_DGMM(fn, T)                                                                                  \
  cublasStatus_t fn(cublasHandle_t handle, cublasSideMode_t mode, int m, int n, const T* A, int lda, const T* x,  \
                    int incx, T* C, int ldc);
GPULAB_CUBLAS_DGMM(cublasSdgmm, float)
GPULAB_CUBLAS_DGMM(cublasDdgmm, double)
GPULAB_CUBLAS_DGMM(cublasCdgmm, cuComplex)
GPULAB_CUBLAS_DGMM(cublasZdgmm, cuDoubleComplex)
#undef GPULAB_CUBLAS_DGMM

// ---- batched LU (1-based pivots, LAPACK's info; a null pivot array means no pivoting) ----
#define GPULAB_CUBLAS_LU(T, getrf, getrs, getri)                                                                    \
  cublasStatus_t getrf(cublasHandle_t handle, int n, T* const A[], int lda, int* P, int* info, int batchSize);      \
  cublasStatus_t getrs(cublasHandle_t handle, cublasOperation_t trans, int n, int nrhs, const T* const Aarray[],   \
                       int lda, const int* devIpiv, T* const Barray[], int ldb, int* info, int batchSize);          \
  cublasStatus_t getri(cublasHandle_t handle, int n, const T* const A[], int lda, const int* P, T* const C[],      \
                       int ldc, int* info, int batchSize);
GPULAB_CUBLAS_LU(float, cublasSgetrfBatched, cublasSgetrsBatched, cublasSgetriBatched)
GPULAB_CUBLAS_LU(double, cublasDgetrfBatched, cublasDgetrsBatched, cublasDgetriBatched)
GPULAB_CUBLAS_LU(cuComplex, cublasCgetrfBatched, cublasCgetrsBatched, cublasCgetriBatched)
GPULAB_CUBLAS_LU(cuDoubleComplex, cublasZgetrfBatched, cublasZgetrsBatched, cublasZgetriBatched)
#undef GPULAB_CUBLAS_LU

#if defined(__cplusplus)
cublasStatus_t cublasHgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           int k, const __half* alpha, const __half* A, int lda, const __half* B, int ldb,
                           const __half* beta, __half* C, int ldc);
cublasStatus_t cublasHgemmBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                  int n, int k, const __half* alpha, const __half* const Aarray[], int lda,
                                  const __half* const Barray[], int ldb, const __half* beta,
                                  __half* const Carray[], int ldc, int batchCount);
cublasStatus_t cublasHgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const __half* alpha, const __half* A, int lda,
                                         long long int strideA, const __half* B, int ldb, long long int strideB,
                                         const __half* beta, __half* C, int ldc, long long int strideC,
                                         int batchCount);
#endif

#if defined(__cplusplus)
}

// cuBLAS's C++ overloads for code that passes a cudaDataType as the compute type (older programs): the
// type maps to its compute type as cuBLAS maps it, under the handle's math mode.
static inline cublasStatus_t cublasMigrateComputeType(cublasHandle_t handle, cudaDataType_t dataType,
                                                      cublasComputeType_t* computeType) {
  cublasMath_t mathMode = CUBLAS_DEFAULT_MATH;
  const cublasStatus_t status = cublasGetMathMode(handle, &mathMode);
  if (status != CUBLAS_STATUS_SUCCESS) return status;
  const bool pedantic = (mathMode & 0xf) == CUBLAS_PEDANTIC_MATH;
  switch (dataType) {
    case CUDA_R_32F:
    case CUDA_C_32F:
      *computeType = pedantic ? CUBLAS_COMPUTE_32F_PEDANTIC : CUBLAS_COMPUTE_32F;
      return CUBLAS_STATUS_SUCCESS;
    case CUDA_R_64F:
    case CUDA_C_64F:
      *computeType = pedantic ? CUBLAS_COMPUTE_64F_PEDANTIC : CUBLAS_COMPUTE_64F;
      return CUBLAS_STATUS_SUCCESS;
    case CUDA_R_16F:
      *computeType = pedantic ? CUBLAS_COMPUTE_16F_PEDANTIC : CUBLAS_COMPUTE_16F;
      return CUBLAS_STATUS_SUCCESS;
    case CUDA_R_32I:
      *computeType = pedantic ? CUBLAS_COMPUTE_32I_PEDANTIC : CUBLAS_COMPUTE_32I;
      return CUBLAS_STATUS_SUCCESS;
    default:
      return CUBLAS_STATUS_NOT_SUPPORTED;
  }
}

static inline cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                          int m, int n, int k, const void* alpha, const void* A, cudaDataType Atype,
                                          int lda, const void* B, cudaDataType Btype, int ldb, const void* beta,
                                          void* C, cudaDataType Ctype, int ldc, cudaDataType computeType,
                                          cublasGemmAlgo_t algo) {
  cublasComputeType_t migrated = CUBLAS_COMPUTE_32F;
  const cublasStatus_t status = cublasMigrateComputeType(handle, computeType, &migrated);
  if (status != CUBLAS_STATUS_SUCCESS) return status;
  return cublasGemmEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta, C, Ctype, ldc,
                      migrated, algo);
}

static inline cublasStatus_t cublasGemmStridedBatchedEx(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
    const void* alpha, const void* A, cudaDataType Atype, int lda, long long int strideA, const void* B,
    cudaDataType Btype, int ldb, long long int strideB, const void* beta, void* C, cudaDataType Ctype, int ldc,
    long long int strideC, int batchCount, cudaDataType computeType, cublasGemmAlgo_t algo) {
  cublasComputeType_t migrated = CUBLAS_COMPUTE_32F;
  const cublasStatus_t status = cublasMigrateComputeType(handle, computeType, &migrated);
  if (status != CUBLAS_STATUS_SUCCESS) return status;
  return cublasGemmStridedBatchedEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA, B, Btype, ldb,
                                    strideB, beta, C, Ctype, ldc, strideC, batchCount, migrated, algo);
}
#endif

#endif
