// `cpu-packed` in the matmul registry: gpulab::cpu::gemm behind matmul(), on host matrices, every
// layout and leading dimension, float32, float64 and int32.
#include <variant>

#include <gpulab/cpu/gemm.hpp>
#include <gpulab/matmul.hpp>

namespace gpulab::cpu {
namespace {

const bool registered = register_matmul({
    .name = "cpu-packed",
    .description = "BLIS-style CPU GEMM: cache-blocked packed panels, AVX-512/AVX2/generic micro-kernel, all cores",
    .family = MatmulFamily::cpu,
    .order = 1,
    .device_kind = DeviceKind::host,
    .dtypes = {Dtype::float32, Dtype::float64, Dtype::int32},
    .cannot_run = {},
    .run =
        [](const AnyMatmulArgs& args, const MatmulContext& context) {
          GemmOptions options;
          options.threads = context.threads;
          std::visit([&](const auto& a) { gemm(a.a, a.b, a.c, a.alpha, a.beta, options); }, args);
        },
});

}  // namespace
}  // namespace gpulab::cpu
