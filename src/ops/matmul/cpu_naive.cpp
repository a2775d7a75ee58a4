// cpu-naive: the guide's CPU baseline, the i-j-k triple loop, one thread, accumulating in the element
// type as the guide's loop does. Every speed-up in `gpulab bench` is measured against it.
#include <cstdint>
#include <variant>

#include <gpulab/matmul.hpp>

namespace gpulab {

namespace {

template <class T>
void naive_matmul(const MatmulArgs<T>& args) {
  const auto& a = args.a;
  const auto& b = args.b;
  const auto& c = args.c;
  const int m = c.rows(), n = c.cols(), k = a.cols();
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      T acc{0};
      for (int p = 0; p < k; ++p) acc += a(i, p) * b(p, j);
      // With beta = 0, C is not read: whatever it held (NaN included) cannot leak into the result.
      c(i, j) = args.beta == T{0} ? args.alpha * acc : args.alpha * acc + args.beta * c(i, j);
    }
  }
}

const bool registered = register_matmul({
    .name = "cpu-naive",
    .description = "the guide's CPU triple loop (i-j-k), one thread: the baseline of every speed-up",
    .family = MatmulFamily::cpu,
    .order = 0,
    .device_kind = DeviceKind::host,
    .dtypes = {Dtype::float32, Dtype::float64, Dtype::int32},
    .cannot_run = {},
    .run = [](const AnyMatmulArgs& args, const MatmulContext&) {
      std::visit([](const auto& a) { naive_matmul(a); }, args);
    },
});

}  // namespace

}  // namespace gpulab
