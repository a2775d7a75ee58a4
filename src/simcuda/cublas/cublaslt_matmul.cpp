// cublasLtMatmul on the simulator: D = epilogue(alpha op(A) op(B) + beta C) for column- and row-major
// layouts, strided batches, every type combination of cublasGemmEx's table, and the bias, ReLU and GELU
// epilogues (GELU with its pre-activation stored to the aux buffer when asked), as a host task on the
// call's stream. The product runs on gpulab's CPU GEMM in the compute type; the epilogue is applied to
// the accumulator before D is rounded to its type, as on a GPU. GELU is cuBLASLt's tanh approximation.
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "simcuda/cublas/cublaslt_matmul.hpp"

namespace gpulab::sim::cublas {

namespace {

const char* order_name(std::int32_t order) { return order == CUBLASLT_ORDER_ROW ? "row" : "column"; }

void check_layout(const LtLayout& l, const char* name) {
  if (l.order != CUBLASLT_ORDER_COL && l.order != CUBLASLT_ORDER_ROW) {
    throw StatusError(CUBLAS_STATUS_NOT_SUPPORTED,
                      fmt::format("{}: order {} (the tiled IMMA orders) is not simulated: use CUBLASLT_ORDER_COL or _ROW", name, l.order));
  }
  if (l.rows > 0x7fffffffu || l.cols > 0x7fffffffu) {
    throw StatusError(CUBLAS_STATUS_NOT_SUPPORTED, fmt::format("{}: {} x {} is beyond 2^31 - 1 rows or columns", name, l.rows, l.cols));
  }
  const std::uint64_t run = l.order == CUBLASLT_ORDER_COL ? l.rows : l.cols;
  require(l.ld >= static_cast<std::int64_t>(run > 1 ? run : 1), [&] {
    return fmt::format("{}: ld = {} is less than its {}s' length max(1, {})", name, l.ld, order_name(l.order), run);
  });
  require(l.batch_count >= 1, [&] { return fmt::format("{}: CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT = {} is not positive", name, l.batch_count); });
}

cudaDataType expected_scale(const ExPlan& ex) {
  if (ex.half_scalars) return CUDA_R_16F;
  switch (ex.arithmetic) {
    case Arithmetic::f32: return CUDA_R_32F;
    case Arithmetic::f64: return CUDA_R_64F;
    case Arithmetic::i32: return CUDA_R_32I;
    case Arithmetic::c32: return CUDA_C_32F;
    case Arithmetic::c64: return CUDA_C_64F;
  }
  return CUDA_R_32F;
}

// The stored matrix of layout `l` at `p`, widened into a compact column-major matrix of T.
template <class T>
std::vector<T> widen_layout(const void* p, const LtLayout& l) {
  const auto rows = static_cast<long long>(l.rows), cols = static_cast<long long>(l.cols);
  std::vector<T> out(static_cast<std::size_t>(rows * cols));
  for (long long j = 0; j < cols; ++j) {
    for (long long i = 0; i < rows; ++i) {
      const long long at = l.order == CUBLASLT_ORDER_COL ? j * l.ld + i : i * l.ld + j;
      out[static_cast<std::size_t>(j * rows + i)] = load<T>(p, static_cast<std::size_t>(at), l.type);
    }
  }
  return out;
}

template <class T>
void store_layout(const std::vector<T>& v, void* p, const LtLayout& l) {
  const auto rows = static_cast<long long>(l.rows), cols = static_cast<long long>(l.cols);
  for (long long j = 0; j < cols; ++j) {
    for (long long i = 0; i < rows; ++i) {
      const long long at = l.order == CUBLASLT_ORDER_COL ? j * l.ld + i : i * l.ld + j;
      store(p, static_cast<std::size_t>(at), l.type, v[static_cast<std::size_t>(j * rows + i)]);
    }
  }
}

DeviceRegion layout_region(const void* p, const LtLayout& l, const char* name) {
  const std::size_t elem = type_size(l.type);
  return l.order == CUBLASLT_ORDER_COL ? matrix_region(p, static_cast<long long>(l.rows), static_cast<long long>(l.cols), l.ld, elem, name)
                                       : matrix_region(p, static_cast<long long>(l.cols), static_cast<long long>(l.rows), l.ld, elem, name);
}

const void* batch_at(const void* p, const LtLayout& l, int i) {
  return static_cast<const char*>(p) + static_cast<long long>(i) * l.batch_offset * static_cast<long long>(type_size(l.type));
}

double gelu(double x) {
  const double k = 0.7978845608028654;  // sqrt(2 / pi)
  return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
}

struct LtOperands {
  const void* a;
  const void* b;
  const void* c;
  void* d;
};

template <class T>
void lt_product(HostTaskAccess& access, const LtPlan& p, T alpha, T beta, const LtOperands& o, int batch) {
  const void* a = batch_at(o.a, p.a, batch);
  const void* b = batch_at(o.b, p.b, batch);
  const void* c = batch_at(o.c, p.c, batch);
  void* d = const_cast<void*>(batch_at(o.d, p.d, batch));
  const bool reads_ab = alpha != T(0) && p.k > 0;
  if (reads_ab) {
    access.read(layout_region(a, p.a, "A"));
    access.read(layout_region(b, p.b, "B"));
  }
  if (beta != T(0)) access.read(layout_region(c, p.c, "C"));
  const auto wa = reads_ab ? widen_layout<T>(a, p.a) : std::vector<T>();
  const auto wb = reads_ab ? widen_layout<T>(b, p.b) : std::vector<T>();
  std::vector<T> acc = beta != T(0) ? widen_layout<T>(c, p.c) : std::vector<T>(static_cast<std::size_t>(p.m) * p.n);
  GemmShape s{p.opa, p.opb, p.m, p.n, p.k, 1, 1, p.m > 0 ? p.m : 1};
  s.lda = s.rows_a() > 0 ? s.rows_a() : 1;
  s.ldb = s.rows_b() > 0 ? s.rows_b() : 1;
  gemm_compute(s, alpha, wa.data(), wb.data(), beta, acc.data(), p.ex.rounding);
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    if (p.bias) {
      const void* bias = static_cast<const char*>(p.desc.bias) +
                         static_cast<long long>(batch) * p.desc.bias_batch_stride * static_cast<long long>(type_size(p.bias_type));
      access.read(DeviceRegion{bias, static_cast<std::size_t>(p.m) * type_size(p.bias_type), 1, 0, "bias"});
      for (int j = 0; j < p.n; ++j)
        for (int i = 0; i < p.m; ++i) acc[static_cast<std::size_t>(j) * p.m + i] += load<T>(bias, static_cast<std::size_t>(i), p.bias_type);
    }
    if (p.aux) {  // the pre-activation, column-major with the aux leading dimension
      void* aux = static_cast<char*>(p.desc.aux) +
                  static_cast<long long>(batch) * p.desc.aux_batch_stride * static_cast<long long>(type_size(p.aux_type));
      access.write(matrix_region(aux, p.m, p.n, p.desc.aux_ld, type_size(p.aux_type), "aux"));
      for (int j = 0; j < p.n; ++j)
        for (int i = 0; i < p.m; ++i)
          store(aux, static_cast<std::size_t>(j) * p.desc.aux_ld + i, p.aux_type, acc[static_cast<std::size_t>(j) * p.m + i]);
    }
    if (p.relu || p.gelu) {
      for (T& v : acc) v = p.relu ? (v > T(0) ? v : T(0)) : static_cast<T>(gelu(static_cast<double>(v)));
    }
  }
  access.write(layout_region(d, p.d, "D"));
  store_layout(acc, d, p.d);
}

}  // namespace

LtPlan plan_lt_matmul(const LtMatmulDesc& desc, const LtLayout& a, const LtLayout& b, const LtLayout& c,
                      const LtLayout& d) {
  LtPlan p;
  p.desc = desc;
  p.a = a;
  p.b = b;
  p.c = c;
  p.d = d;
  check_layout(a, "Adesc");
  check_layout(b, "Bdesc");
  check_layout(c, "Cdesc");
  check_layout(d, "Ddesc");
  if (c.type != d.type) {
    throw StatusError(CUBLAS_STATUS_NOT_SUPPORTED, fmt::format("C's type {} differs from D's {}", type_name(c.type), type_name(d.type)));
  }
  p.ex = plan_ex(desc.compute, a.type, b.type, d.type, CUBLAS_DEFAULT_MATH);
  if (desc.scale != expected_scale(p.ex)) {
    throw StatusError(CUBLAS_STATUS_NOT_SUPPORTED, fmt::format("scale type {} is not {} that compute type {} takes here",
                                                               type_name(desc.scale), type_name(expected_scale(p.ex)),
                                                               static_cast<int>(desc.compute)));
  }
  if (desc.pointer_mode != CUBLASLT_POINTER_MODE_HOST && desc.pointer_mode != CUBLASLT_POINTER_MODE_DEVICE) {
    throw StatusError(CUBLAS_STATUS_NOT_SUPPORTED,
                      fmt::format("pointer mode {} (alpha vectors) is not simulated", desc.pointer_mode));
  }
  p.opa = parse_op(static_cast<cublasOperation_t>(desc.transa), "CUBLASLT_MATMUL_DESC_TRANSA");
  p.opb = parse_op(static_cast<cublasOperation_t>(desc.transb), "CUBLASLT_MATMUL_DESC_TRANSB");
  if (desc.transc != CUBLAS_OP_N) {
    throw StatusError(CUBLAS_STATUS_NOT_SUPPORTED, "CUBLASLT_MATMUL_DESC_TRANSC must be CUBLAS_OP_N, as in cuBLASLt");
  }
  p.m = static_cast<int>(d.rows);
  p.n = static_cast<int>(d.cols);
  const auto opa_rows = static_cast<int>(p.opa.transpose ? a.cols : a.rows), opa_cols = static_cast<int>(p.opa.transpose ? a.rows : a.cols);
  const auto opb_rows = static_cast<int>(p.opb.transpose ? b.cols : b.rows), opb_cols = static_cast<int>(p.opb.transpose ? b.rows : b.cols);
  p.k = opa_cols;
  require(opa_rows == p.m && opb_cols == p.n && opb_rows == p.k && c.rows == d.rows && c.cols == d.cols, [&] {
    return fmt::format("the shapes do not chain: op(A) is {} x {}, op(B) {} x {}, C {} x {}, D {} x {}", opa_rows, opa_cols,
                       opb_rows, opb_cols, c.rows, c.cols, d.rows, d.cols);
  });
  p.batch = d.batch_count;
  require(a.batch_count == p.batch && b.batch_count == p.batch && c.batch_count == p.batch, [&] {
    return fmt::format("batch counts differ: A {}, B {}, C {}, D {}", a.batch_count, b.batch_count, c.batch_count, d.batch_count);
  });
  const std::uint32_t e = desc.epilogue;
  switch (e) {
    case CUBLASLT_EPILOGUE_DEFAULT: break;
    case CUBLASLT_EPILOGUE_RELU: p.relu = true; break;
    case CUBLASLT_EPILOGUE_BIAS: p.bias = true; break;
    case CUBLASLT_EPILOGUE_RELU_BIAS: p.relu = p.bias = true; break;
    case CUBLASLT_EPILOGUE_GELU: p.gelu = true; break;
    case CUBLASLT_EPILOGUE_GELU_BIAS: p.gelu = p.bias = true; break;
    case CUBLASLT_EPILOGUE_GELU_AUX: p.gelu = p.aux = true; break;
    case CUBLASLT_EPILOGUE_GELU_AUX_BIAS: p.gelu = p.aux = p.bias = true; break;
    default:
      throw StatusError(CUBLAS_STATUS_NOT_SUPPORTED,
                        fmt::format("epilogue {} is not simulated (bias, ReLU, GELU and GELU_AUX are)", e));
  }
  const bool real = p.ex.arithmetic == Arithmetic::f32 || p.ex.arithmetic == Arithmetic::f64;
  if (e != CUBLASLT_EPILOGUE_DEFAULT && !real) {
    throw StatusError(CUBLAS_STATUS_NOT_SUPPORTED, "epilogues are simulated for real floating-point products only");
  }
  p.bias_type = desc.bias_type < 0 ? d.type : static_cast<cudaDataType>(desc.bias_type);
  p.aux_type = desc.aux_type < 0 ? d.type : static_cast<cudaDataType>(desc.aux_type);
  require(!p.bias || desc.bias != nullptr, [] { return std::string("the epilogue adds a bias, but CUBLASLT_MATMUL_DESC_BIAS_POINTER is null"); });
  require(!p.aux || (desc.aux != nullptr && desc.aux_ld >= (p.m > 1 ? p.m : 1)), [&] {
    return fmt::format("the epilogue stores its input, but the aux pointer is null or its ld {} is less than max(1, m = {})", desc.aux_ld, p.m);
  });
  return p;
}

}  // namespace gpulab::sim::cublas

using namespace gpulab::sim::cublas;  // NOLINT: the API below is cuBLASLt's, at global scope

extern "C" cublasStatus_t cublasLtMatmul(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t computeDesc,
                                         const void* alpha, const void* A, cublasLtMatrixLayout_t Adesc,
                                         const void* B, cublasLtMatrixLayout_t Bdesc, const void* beta, const void* C,
                                         cublasLtMatrixLayout_t Cdesc, void* D, cublasLtMatrixLayout_t Ddesc,
                                         const cublasLtMatmulAlgo_t*, void*, size_t, cudaStream_t stream) {
  return api("cublasLtMatmul", [&] {
    check_lt_handle(lightHandle);
    const LtPlan p = plan_lt_matmul(read_descriptor<LtMatmulDesc>(computeDesc, desc_tag, "computeDesc"),
                                    read_descriptor<LtLayout>(Adesc, layout_tag, "Adesc"),
                                    read_descriptor<LtLayout>(Bdesc, layout_tag, "Bdesc"),
                                    read_descriptor<LtLayout>(Cdesc, layout_tag, "Cdesc"),
                                    read_descriptor<LtLayout>(Ddesc, layout_tag, "Ddesc"));
    require(D != nullptr, [] { return std::string("D is null"); });
    cublasContext scalars_mode;  // RawScalar reads the pointer mode from a cuBLAS context
    scalars_mode.pointer_mode = p.desc.pointer_mode == CUBLASLT_POINTER_MODE_DEVICE ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST;
    const std::size_t scalar_bytes = p.ex.half_scalars ? 2 : arithmetic_size(p.ex.arithmetic);
    const RawScalar a(scalars_mode, alpha, scalar_bytes, "alpha"), b(scalars_mode, beta, scalar_bytes, "beta");
    if (p.m == 0 || p.n == 0) return;
    const LtOperands o{A, B, C != nullptr ? C : D, D};
    gpulab::sim::cuda::detail::run_library_task(stream, "cublasLtMatmul", [=](HostTaskAccess& access) {
      auto run = [&]<class T>(T) {
        const T av = a.get<T>(access, p.ex.half_scalars), bv = b.get<T>(access, p.ex.half_scalars);
        for (int i = 0; i < p.batch; ++i) lt_product<T>(access, p, av, bv, o, i);
      };
      switch (p.ex.arithmetic) {
        case Arithmetic::f32: run(float{}); break;
        case Arithmetic::f64: run(double{}); break;
        case Arithmetic::i32: run(std::int32_t{}); break;
        case Arithmetic::c32: run(std::complex<float>{}); break;
        case Arithmetic::c64: run(std::complex<double>{}); break;
      }
    });
  });
}
