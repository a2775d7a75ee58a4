// gpulab::matmul: checks the operands, picks an implementation, runs it.
#include <cstdint>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <gpulab/error.hpp>
#include <gpulab/matmul.hpp>

namespace gpulab {

namespace {

template <class V>
std::string describe(const char* name, const V& v) {
  return fmt::format("{} is {}x{} ({}, ld {}, on {})", name, v.rows(), v.cols(),
                     v.is_row_major() ? "row-major" : "column-major", v.ld(), to_string(v.space()));
}

std::string impl_names() {
  std::vector<std::string> names;
  for (const MatmulImpl* i : matmul_impls()) names.push_back(i->name);
  return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace

template <class T>
MatmulProblem describe_matmul(const matrix_view<const T>& a, const matrix_view<const T>& b, const matrix_view<T>& c,
                              T beta) {
  if (a.cols() != b.rows() || c.rows() != a.rows() || c.cols() != b.cols()) {
    throw InvalidArgument(fmt::format("matmul shapes do not chain: {}; {}; {} (need A: MxK, B: KxN, C: MxN)",
                                      describe("A", a), describe("B", b), describe("C", c)));
  }
  if (a.space() != b.space() || a.space() != c.space()) {
    throw InvalidArgument(fmt::format("matmul operands live in different memory spaces: A on {}, B on {}, C on {}",
                                      to_string(a.space()), to_string(b.space()), to_string(c.space())));
  }
  for (const auto& [name, v_rows, v_cols, ld, rm] :
       {std::tuple{"A", a.rows(), a.cols(), a.ld(), a.is_row_major()},
        std::tuple{"B", b.rows(), b.cols(), b.ld(), b.is_row_major()},
        std::tuple{"C", c.rows(), c.cols(), c.ld(), c.is_row_major()}}) {
    const index_t inner = rm ? v_cols : v_rows;
    if (v_rows > 0 && v_cols > 0 && ld < inner) {
      throw InvalidArgument(fmt::format("matmul: {} has leading dimension {}, smaller than its {} ({})", name, ld,
                                        rm ? "column count" : "row count", inner));
    }
  }
  MatmulProblem p;
  p.m = a.rows();
  p.n = b.cols();
  p.k = a.cols();
  p.dtype = dtype_of<T>();
  p.a_layout = a.layout();
  p.b_layout = b.layout();
  p.c_layout = c.layout();
  p.lda = a.ld();
  p.ldb = b.ld();
  p.ldc = c.ld();
  p.space = c.space();
  p.beta_is_zero = beta == T{0};
  return p;
}

template <class T>
std::string matmul(matrix_view<const T> a, matrix_view<const T> b, matrix_view<T> c, T alpha, T beta,
                   const MatmulOptions& options) {
  const MatmulProblem problem = describe_matmul(a, b, c, beta);
  const MatmulImpl* impl = nullptr;
  if (options.impl == "auto") {
    impl = &choose_matmul(problem);
  } else {
    impl = find_matmul(options.impl);
    if (impl == nullptr) {
      throw InvalidArgument(fmt::format("unknown matmul implementation '{}': known are {}", options.impl, impl_names()));
    }
    if (const std::string why = impl->why_not(problem); !why.empty()) {
      throw InvalidArgument(fmt::format("{} cannot run this {}x{}x{} {} product: {}", impl->name, problem.m, problem.n,
                                        problem.k, to_string(problem.dtype), why));
    }
  }
  // M = 0 or N = 0: there is no output to write.
  if (problem.m == 0 || problem.n == 0) return impl->name;
  run_matmul(*impl, MatmulArgs<T>{a, b, c, alpha, beta}, MatmulContext{options.stream, options.threads});
  return impl->name;
}

#define GPULAB_INSTANTIATE_MATMUL(T)                                                                           \
  template MatmulProblem describe_matmul<T>(const matrix_view<const T>&, const matrix_view<const T>&,         \
                                            const matrix_view<T>&, T);                                         \
  template std::string matmul<T>(matrix_view<const T>, matrix_view<const T>, matrix_view<T>, T, T,            \
                                 const MatmulOptions&);
GPULAB_INSTANTIATE_MATMUL(float)
GPULAB_INSTANTIATE_MATMUL(double)
GPULAB_INSTANTIATE_MATMUL(std::int32_t)
#undef GPULAB_INSTANTIATE_MATMUL

}  // namespace gpulab
