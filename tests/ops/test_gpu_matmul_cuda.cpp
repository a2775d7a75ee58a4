// The GPU matmul ladder and cuBLAS on a CUDA device (label `gpu`; skipped with the reason where no
// device is usable). The same checks as on the simulator (gpu_matmul_cases.hpp), plus cuBLAS, its TF32
// variant, and larger sizes. scripts/device-check runs the *Small* tests under compute-sanitizer.
#include <gpulab/device.hpp>
#include <gpulab/matmul.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "gpu_matmul_cases.hpp"
#include "test_support.hpp"

namespace {

using gpulab::Dtype;
using gpulab::testing::MatmulCase;

const std::vector<std::string> implementations = {"naive", "coalesced", "shared",   "reg1d", "reg2d",
                                                  "vec4",  "warptile",  "async",    "cublas"};
bool takes_any_layout(const std::string& impl) {
  return impl == "naive" || impl == "coalesced" || impl == "shared" || impl == "cublas";
}

class CudaMatmul : public ::testing::TestWithParam<std::tuple<std::string, Dtype>> {
 protected:
  void run(const std::vector<MatmulCase>& cases) {
    GPULAB_REQUIRE_GPU();
    const std::string& impl = std::get<0>(GetParam());
    const gpulab::MatmulImpl* found = gpulab::find_matmul(impl);
    ASSERT_NE(found, nullptr) << impl << " is not registered";
    ASSERT_TRUE(found->runs_on(gpulab::DeviceKind::cuda));
    const Dtype dtype = std::get<1>(GetParam());
    if (impl == "cublas" && dtype == Dtype::int32) GTEST_SKIP() << "cuBLAS has no int32 x int32 GEMM";
    const gpulab::Device device = gpulab::cuda_device(0);
    for (const MatmulCase& c : cases) {
      if ((c.transpose_a || c.transpose_b) && !takes_any_layout(impl)) continue;
      switch (dtype) {
        case Dtype::float32: gpulab::testing::check_matmul_case<float>(impl, device, c); break;
        case Dtype::float64: gpulab::testing::check_matmul_case<double>(impl, device, c); break;
        case Dtype::int32: gpulab::testing::check_matmul_case<std::int32_t>(impl, device, c); break;
      }
    }
  }
};

std::vector<MatmulCase> transposed_cases() {
  return {MatmulCase{.m = 37, .n = 29, .k = 41, .transpose_a = true},
          MatmulCase{.m = 37, .n = 29, .k = 41, .transpose_b = true},
          MatmulCase{.m = 18, .n = 33, .k = 20, .transpose_a = true, .transpose_b = true}};
}

TEST_P(CudaMatmul, SmallEdgeShapesLayoutsAndTransposes) {
  std::vector<MatmulCase> cases = gpulab::testing::edge_shape_cases();
  for (const MatmulCase& c : gpulab::testing::layout_cases()) cases.push_back(c);
  for (const MatmulCase& c : transposed_cases()) cases.push_back(c);
  run(cases);
}

TEST_P(CudaMatmul, AlignedAndLargerShapes) {
  std::vector<MatmulCase> cases = gpulab::testing::aligned_cases();
  cases.push_back(MatmulCase{.m = 512, .n = 512, .k = 1024});
  cases.push_back(MatmulCase{.m = 513, .n = 517, .k = 1031});  // every edge, at a size where it matters
  cases.push_back(MatmulCase{.m = 640, .n = 384, .k = 256, .pad_a = 3, .pad_b = 1, .pad_c = 7, .offset = 1});
  run(cases);
}

std::string param_name(const ::testing::TestParamInfo<std::tuple<std::string, Dtype>>& info) {
  std::string name = std::get<0>(info.param) + "_" + gpulab::to_string(std::get<1>(info.param));
  for (char& ch : name) {
    if (ch == '-') ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(EveryImplEveryDtype, CudaMatmul,
                         ::testing::Combine(::testing::ValuesIn(implementations),
                                            ::testing::Values(Dtype::float32, Dtype::float64, Dtype::int32)),
                         param_name);

// TF32 rounds the operands to 10-bit mantissas: a looser bound, and registered so that `auto` never
// picks it.
TEST(CudaMatmulTf32, Cublas_tf32IsCloseButNotAutomatic) {
  GPULAB_REQUIRE_GPU();
  const gpulab::MatmulImpl* tf32 = gpulab::find_matmul("cublas-tf32");
  ASSERT_NE(tf32, nullptr);
  EXPECT_FALSE(tf32->automatic);
  for (const MatmulCase& c : {MatmulCase{.m = 129, .n = 127, .k = 255}, MatmulCase{.m = 512, .n = 256, .k = 1024},
                              MatmulCase{.m = 40, .n = 50, .k = 30, .transpose_a = true, .beta = 1.0}}) {
    gpulab::testing::check_matmul_case<float>("cublas-tf32", gpulab::cuda_device(0), c, 5e-3);
  }
}

}  // namespace
