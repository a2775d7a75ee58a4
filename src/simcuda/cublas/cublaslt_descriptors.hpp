#pragma once
// cuBLASLt's descriptors as the simulator keeps them: each lives inside the semi-opaque struct the
// program holds (cublasLtMatrixLayoutOpaque_t, ...), so descriptors made by Create and those a program
// initialises by value in its own storage are the same thing. A tag word tells an initialised descriptor
// from garbage.
#include <cstdint>
#include <cstring>

#include <gpulab/sim/cuda/cublasLt.h>

#include "simcuda/cublas/cublas_context.hpp"

namespace gpulab::sim::cublas {

struct LtLayout {
  std::uint32_t tag = 0;
  cudaDataType type = CUDA_R_32F;
  std::uint64_t rows = 0, cols = 0;
  std::int64_t ld = 0;
  std::int32_t order = CUBLASLT_ORDER_COL;
  std::int32_t batch_count = 1;
  std::int64_t batch_offset = 0;  // elements between consecutive matrices of a batch
};

struct LtMatmulDesc {
  std::uint32_t tag = 0;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  cudaDataType scale = CUDA_R_32F;
  std::int32_t pointer_mode = CUBLASLT_POINTER_MODE_HOST;
  std::int32_t transa = CUBLAS_OP_N, transb = CUBLAS_OP_N, transc = CUBLAS_OP_N;
  std::int32_t fill_mode = CUBLAS_FILL_MODE_FULL;
  std::uint32_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
  const void* bias = nullptr;
  std::int32_t bias_type = -1;  // -1: D's type, as cuBLASLt's default
  std::int64_t bias_batch_stride = 0;
  void* aux = nullptr;
  std::int64_t aux_ld = 0;
  std::int64_t aux_batch_stride = 0;
  std::int32_t aux_type = -1;  // -1: D's type
  std::int32_t sm_count_target = 0;
  std::int8_t fast_accum = 0;
};

struct LtPreference {
  std::uint32_t tag = 0;
  std::uint32_t search_mode = CUBLASLT_SEARCH_BEST_FIT;
  std::uint64_t max_workspace = 0;
  std::uint32_t reduction_mask = 0;
  std::uint32_t alignment[4] = {256, 256, 256, 256};
  float max_waves = 0;
  std::uint64_t impl_mask = ~0ull;
};

inline constexpr std::uint32_t layout_tag = 0x4c61796fu, desc_tag = 0x44657363u, pref_tag = 0x50726566u;

static_assert(sizeof(LtLayout) <= sizeof(cublasLtMatrixLayoutOpaque_t));
static_assert(sizeof(LtMatmulDesc) <= sizeof(cublasLtMatmulDescOpaque_t));
static_assert(sizeof(LtPreference) <= sizeof(cublasLtMatmulPreferenceOpaque_t));

// The descriptor inside its opaque storage (copied out, so no aliasing question arises); throws
// StatusError(INVALID_VALUE) for a null or uninitialised one, naming `what`.
template <class D, class Opaque>
D read_descriptor(const Opaque* opaque, std::uint32_t tag, const char* what) {
  require(opaque != nullptr, [&] { return std::string(what) + " is null"; });
  D d;
  std::memcpy(&d, opaque->data, sizeof d);
  require(d.tag == tag, [&] { return std::string(what) + " was not made by its Create or Init call"; });
  return d;
}

template <class D, class Opaque>
void write_descriptor(Opaque* opaque, const D& d) {
  std::memcpy(opaque->data, &d, sizeof d);
}

}  // namespace gpulab::sim::cublas
