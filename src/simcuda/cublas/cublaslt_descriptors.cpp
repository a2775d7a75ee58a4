// cuBLASLt's handle and descriptors on the simulator: layouts, matmul descriptors and preferences, their
// attributes (each checked for its size, as cuBLASLt checks), and the heuristic query, which offers one
// algorithm (the CPU's) for every configuration cublasLtMatmul supports.
#include <mutex>
#include <set>

#include <fmt/format.h>

#include "simcuda/cublas/cublaslt_descriptors.hpp"
#include "simcuda/cublas/cublaslt_matmul.hpp"

namespace gpulab::sim::cublas {

namespace {

std::mutex lt_mutex;
std::set<cublasLtContext*>& lt_handles() {
  static auto* handles = new std::set<cublasLtContext*>;  // never destroyed: handles may outlive statics
  return *handles;
}

// Copies an attribute's value in (set) or out (get), requiring the size of its type.
template <class T>
void set_value(T& field, const void* buf, std::size_t size, const char* name) {
  require(buf != nullptr && size == sizeof(T),
          [&] { return fmt::format("{}: the buffer is null or {} bytes, not {}", name, size, sizeof(T)); });
  std::memcpy(&field, buf, sizeof(T));
}

template <class T>
void get_value(const T& field, void* buf, std::size_t size, std::size_t* written, const char* name) {
  if (size == 0 && buf == nullptr && written != nullptr) {  // the query for the size
    *written = sizeof(T);
    return;
  }
  require(buf != nullptr && size >= sizeof(T),
          [&] { return fmt::format("{}: the buffer is null or {} bytes, less than {}", name, size, sizeof(T)); });
  std::memcpy(buf, &field, sizeof(T));
  if (written != nullptr) *written = sizeof(T);
}

// Applies `f(field, name)` to the field an attribute names; unknown attributes are INVALID_VALUE.
template <class F>
void layout_field(LtLayout& l, cublasLtMatrixLayoutAttribute_t attr, F&& f) {
  switch (attr) {
    case CUBLASLT_MATRIX_LAYOUT_TYPE: return f(l.type, "CUBLASLT_MATRIX_LAYOUT_TYPE");
    case CUBLASLT_MATRIX_LAYOUT_ORDER: return f(l.order, "CUBLASLT_MATRIX_LAYOUT_ORDER");
    case CUBLASLT_MATRIX_LAYOUT_ROWS: return f(l.rows, "CUBLASLT_MATRIX_LAYOUT_ROWS");
    case CUBLASLT_MATRIX_LAYOUT_COLS: return f(l.cols, "CUBLASLT_MATRIX_LAYOUT_COLS");
    case CUBLASLT_MATRIX_LAYOUT_LD: return f(l.ld, "CUBLASLT_MATRIX_LAYOUT_LD");
    case CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT: return f(l.batch_count, "CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT");
    case CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET: return f(l.batch_offset, "CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET");
    default:
      throw StatusError(CUBLAS_STATUS_INVALID_VALUE,
                        fmt::format("matrix layout attribute {} is not one the simulator keeps", static_cast<int>(attr)));
  }
}

template <class F>
void desc_field(LtMatmulDesc& d, cublasLtMatmulDescAttributes_t attr, F&& f) {
  switch (attr) {
    case CUBLASLT_MATMUL_DESC_COMPUTE_TYPE: return f(d.compute, "CUBLASLT_MATMUL_DESC_COMPUTE_TYPE");
    case CUBLASLT_MATMUL_DESC_SCALE_TYPE: return f(d.scale, "CUBLASLT_MATMUL_DESC_SCALE_TYPE");
    case CUBLASLT_MATMUL_DESC_POINTER_MODE: return f(d.pointer_mode, "CUBLASLT_MATMUL_DESC_POINTER_MODE");
    case CUBLASLT_MATMUL_DESC_TRANSA: return f(d.transa, "CUBLASLT_MATMUL_DESC_TRANSA");
    case CUBLASLT_MATMUL_DESC_TRANSB: return f(d.transb, "CUBLASLT_MATMUL_DESC_TRANSB");
    case CUBLASLT_MATMUL_DESC_TRANSC: return f(d.transc, "CUBLASLT_MATMUL_DESC_TRANSC");
    case CUBLASLT_MATMUL_DESC_FILL_MODE: return f(d.fill_mode, "CUBLASLT_MATMUL_DESC_FILL_MODE");
    case CUBLASLT_MATMUL_DESC_EPILOGUE: return f(d.epilogue, "CUBLASLT_MATMUL_DESC_EPILOGUE");
    case CUBLASLT_MATMUL_DESC_BIAS_POINTER: return f(d.bias, "CUBLASLT_MATMUL_DESC_BIAS_POINTER");
    case CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE: return f(d.bias_batch_stride, "CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE");
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER: return f(d.aux, "CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER");
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD: return f(d.aux_ld, "CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD");
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE: return f(d.aux_batch_stride, "CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE");
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE: return f(d.aux_type, "CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE");
    case CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE: return f(d.bias_type, "CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE");
    case CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET: return f(d.sm_count_target, "CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET");
    case CUBLASLT_MATMUL_DESC_FAST_ACCUM: return f(d.fast_accum, "CUBLASLT_MATMUL_DESC_FAST_ACCUM");
    default:
      throw StatusError(CUBLAS_STATUS_INVALID_VALUE,
                        fmt::format("matmul descriptor attribute {} (FP8 scales, amax, alpha vectors) is not simulated",
                                    static_cast<int>(attr)));
  }
}

template <class F>
void pref_field(LtPreference& p, cublasLtMatmulPreferenceAttributes_t attr, F&& f) {
  switch (attr) {
    case CUBLASLT_MATMUL_PREF_SEARCH_MODE: return f(p.search_mode, "CUBLASLT_MATMUL_PREF_SEARCH_MODE");
    case CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES: return f(p.max_workspace, "CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES");
    case CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK: return f(p.reduction_mask, "CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK");
    case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES: return f(p.alignment[0], "CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES");
    case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES: return f(p.alignment[1], "CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES");
    case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES: return f(p.alignment[2], "CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES");
    case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES: return f(p.alignment[3], "CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES");
    case CUBLASLT_MATMUL_PREF_MAX_WAVES_COUNT: return f(p.max_waves, "CUBLASLT_MATMUL_PREF_MAX_WAVES_COUNT");
    case CUBLASLT_MATMUL_PREF_IMPL_MASK: return f(p.impl_mask, "CUBLASLT_MATMUL_PREF_IMPL_MASK");
    default:
      throw StatusError(CUBLAS_STATUS_INVALID_VALUE,
                        fmt::format("preference attribute {} is not one cuBLASLt has", static_cast<int>(attr)));
  }
}

// cuBLASLt's Create calls: a heap copy of the opaque storage, initialised by its Init call.
template <class Opaque, class Init>
cublasStatus_t create_descriptor(Opaque** out, Init&& init) {
  if (out == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  auto* d = new Opaque{};
  const cublasStatus_t s = init(d, sizeof *d);
  if (s != CUBLAS_STATUS_SUCCESS) {
    delete d;
    return s;
  }
  *out = d;
  return s;
}

}  // namespace

void check_lt_handle(cublasLtHandle_t handle) {
  std::lock_guard lock(lt_mutex);
  if (handle == nullptr || lt_handles().count(handle) == 0) {
    throw StatusError(CUBLAS_STATUS_NOT_INITIALIZED,
                      fmt::format("handle {} is not one cublasLtCreate made (or it was destroyed)", static_cast<const void*>(handle)));
  }
}

}  // namespace gpulab::sim::cublas

struct cublasLtContext {};

using namespace gpulab::sim::cublas;  // NOLINT: the API below is cuBLASLt's, at global scope

extern "C" {

cublasStatus_t cublasLtCreate(cublasLtHandle_t* lightHandle) {
  return api("cublasLtCreate", [&] {
    require(lightHandle != nullptr, [] { return std::string("lightHandle is null"); });
    auto* h = new cublasLtContext;
    std::lock_guard lock(lt_mutex);
    lt_handles().insert(h);
    *lightHandle = h;
  });
}

cublasStatus_t cublasLtDestroy(cublasLtHandle_t lightHandle) {
  return api("cublasLtDestroy", [&] {
    check_lt_handle(lightHandle);
    std::lock_guard lock(lt_mutex);
    lt_handles().erase(lightHandle);
    delete lightHandle;
  });
}

size_t cublasLtGetVersion(void) { return CUBLAS_VERSION; }
size_t cublasLtGetCudartVersion(void) { return CUDART_VERSION; }
cublasStatus_t cublasLtGetProperty(libraryPropertyType type, int* value) { return cublasGetProperty(type, value); }
const char* cublasLtGetStatusName(cublasStatus_t status) { return cublasGetStatusName(status); }
const char* cublasLtGetStatusString(cublasStatus_t status) { return cublasGetStatusString(status); }

cublasStatus_t cublasLtMatrixLayoutInit_internal(cublasLtMatrixLayout_t matLayout, size_t size, cudaDataType type,
                                                 uint64_t rows, uint64_t cols, int64_t ld) {
  return api("cublasLtMatrixLayoutInit", [&] {
    require(matLayout != nullptr && size >= sizeof(LtLayout),
            [&] { return fmt::format("matLayout is null or its storage ({} bytes) too small", size); });
    LtLayout l;
    l.tag = layout_tag;
    l.type = type;
    l.rows = rows;
    l.cols = cols;
    l.ld = ld;
    write_descriptor(matLayout, l);
  });
}

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t* matLayout, cudaDataType type, uint64_t rows,
                                          uint64_t cols, int64_t ld) {
  return create_descriptor(matLayout, [&](cublasLtMatrixLayout_t l, size_t size) {
    return cublasLtMatrixLayoutInit_internal(l, size, type, rows, cols, ld);
  });
}

cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t matLayout) {
  delete matLayout;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t matLayout, cublasLtMatrixLayoutAttribute_t attr,
                                                const void* buf, size_t sizeInBytes) {
  return api("cublasLtMatrixLayoutSetAttribute", [&] {
    LtLayout l = read_descriptor<LtLayout>(matLayout, layout_tag, "matLayout");
    layout_field(l, attr, [&](auto& field, const char* name) { set_value(field, buf, sizeInBytes, name); });
    write_descriptor(matLayout, l);
  });
}

cublasStatus_t cublasLtMatrixLayoutGetAttribute(cublasLtMatrixLayout_t matLayout, cublasLtMatrixLayoutAttribute_t attr,
                                                void* buf, size_t sizeInBytes, size_t* sizeWritten) {
  return api("cublasLtMatrixLayoutGetAttribute", [&] {
    LtLayout l = read_descriptor<LtLayout>(matLayout, layout_tag, "matLayout");
    layout_field(l, attr, [&](auto& field, const char* name) { get_value(field, buf, sizeInBytes, sizeWritten, name); });
  });
}

cublasStatus_t cublasLtMatmulDescInit_internal(cublasLtMatmulDesc_t matmulDesc, size_t size,
                                               cublasComputeType_t computeType, cudaDataType_t scaleType) {
  return api("cublasLtMatmulDescInit", [&] {
    require(matmulDesc != nullptr && size >= sizeof(LtMatmulDesc),
            [&] { return fmt::format("matmulDesc is null or its storage ({} bytes) too small", size); });
    LtMatmulDesc d;
    d.tag = desc_tag;
    d.compute = computeType;
    d.scale = scaleType;
    write_descriptor(matmulDesc, d);
  });
}

cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t* matmulDesc, cublasComputeType_t computeType,
                                        cudaDataType_t scaleType) {
  return create_descriptor(matmulDesc, [&](cublasLtMatmulDesc_t d, size_t size) {
    return cublasLtMatmulDescInit_internal(d, size, computeType, scaleType);
  });
}

cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t matmulDesc) {
  delete matmulDesc;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t matmulDesc, cublasLtMatmulDescAttributes_t attr,
                                              const void* buf, size_t sizeInBytes) {
  return api("cublasLtMatmulDescSetAttribute", [&] {
    LtMatmulDesc d = read_descriptor<LtMatmulDesc>(matmulDesc, desc_tag, "matmulDesc");
    desc_field(d, attr, [&](auto& field, const char* name) { set_value(field, buf, sizeInBytes, name); });
    write_descriptor(matmulDesc, d);
  });
}

cublasStatus_t cublasLtMatmulDescGetAttribute(cublasLtMatmulDesc_t matmulDesc, cublasLtMatmulDescAttributes_t attr,
                                              void* buf, size_t sizeInBytes, size_t* sizeWritten) {
  return api("cublasLtMatmulDescGetAttribute", [&] {
    LtMatmulDesc d = read_descriptor<LtMatmulDesc>(matmulDesc, desc_tag, "matmulDesc");
    desc_field(d, attr, [&](auto& field, const char* name) { get_value(field, buf, sizeInBytes, sizeWritten, name); });
  });
}

cublasStatus_t cublasLtMatmulPreferenceInit_internal(cublasLtMatmulPreference_t pref, size_t size) {
  return api("cublasLtMatmulPreferenceInit", [&] {
    require(pref != nullptr && size >= sizeof(LtPreference),
            [&] { return fmt::format("pref is null or its storage ({} bytes) too small", size); });
    LtPreference p;
    p.tag = pref_tag;
    write_descriptor(pref, p);
  });
}

cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t* pref) {
  return create_descriptor(pref, [](cublasLtMatmulPreference_t p, size_t size) {
    return cublasLtMatmulPreferenceInit_internal(p, size);
  });
}

cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t pref) {
  delete pref;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t pref,
                                                    cublasLtMatmulPreferenceAttributes_t attr, const void* buf,
                                                    size_t sizeInBytes) {
  return api("cublasLtMatmulPreferenceSetAttribute", [&] {
    LtPreference p = read_descriptor<LtPreference>(pref, pref_tag, "pref");
    pref_field(p, attr, [&](auto& field, const char* name) { set_value(field, buf, sizeInBytes, name); });
    write_descriptor(pref, p);
  });
}

cublasStatus_t cublasLtMatmulPreferenceGetAttribute(cublasLtMatmulPreference_t pref,
                                                    cublasLtMatmulPreferenceAttributes_t attr, void* buf,
                                                    size_t sizeInBytes, size_t* sizeWritten) {
  return api("cublasLtMatmulPreferenceGetAttribute", [&] {
    LtPreference p = read_descriptor<LtPreference>(pref, pref_tag, "pref");
    pref_field(p, attr, [&](auto& field, const char* name) { get_value(field, buf, sizeInBytes, sizeWritten, name); });
  });
}

cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t operationDesc,
                                              cublasLtMatrixLayout_t Adesc, cublasLtMatrixLayout_t Bdesc,
                                              cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
                                              cublasLtMatmulPreference_t preference, int requestedAlgoCount,
                                              cublasLtMatmulHeuristicResult_t heuristicResultsArray[],
                                              int* returnAlgoCount) {
  return api("cublasLtMatmulAlgoGetHeuristic", [&] {
    check_lt_handle(lightHandle);
    read_descriptor<LtPreference>(preference, pref_tag, "preference");
    require(requestedAlgoCount >= 1 && heuristicResultsArray != nullptr && returnAlgoCount != nullptr, [&] {
      return fmt::format("requestedAlgoCount = {} must be at least 1, with the results array and count not null",
                         requestedAlgoCount);
    });
    *returnAlgoCount = 0;
    // Refuses what cublasLtMatmul would refuse (NOT_SUPPORTED or INVALID_VALUE, with the reason).
    plan_lt_matmul(read_descriptor<LtMatmulDesc>(operationDesc, desc_tag, "operationDesc"),
                   read_descriptor<LtLayout>(Adesc, layout_tag, "Adesc"), read_descriptor<LtLayout>(Bdesc, layout_tag, "Bdesc"),
                   read_descriptor<LtLayout>(Cdesc, layout_tag, "Cdesc"), read_descriptor<LtLayout>(Ddesc, layout_tag, "Ddesc"));
    heuristicResultsArray[0] = cublasLtMatmulHeuristicResult_t{};
    heuristicResultsArray[0].algo.data[0] = 0x6770756c6162ull;  // gpulab's one algorithm
    heuristicResultsArray[0].workspaceSize = 0;
    heuristicResultsArray[0].state = CUBLAS_STATUS_SUCCESS;
    heuristicResultsArray[0].wavesCount = 1.0f;
    *returnAlgoCount = 1;
  });
}

}  // extern "C"
