// The source rewriter of gpulab-simcc (tools/simcc/cuda_rewriter.hpp), on the constructs that a
// token-level rewrite can get wrong: launches next to template arguments, <<< in comments and
// literals, extern __shared__ in and outside functions, and the lines it must keep.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "cuda_rewriter.hpp"

namespace {

using gpulab::simcc::rewrite_cuda_source;

// The rewritten text after the prelude (the #include and the #line directive).
std::string body(const std::string& source) {
  const auto r = rewrite_cuda_source(source, "/src/p.cu");
  EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors.front().message);
  const std::string prelude = "#include <cuda_runtime.h>\n#line 1 \"/src/p.cu\"\n";
  EXPECT_EQ(r.text.substr(0, prelude.size()), prelude);
  return r.text.substr(prelude.size());
}

TEST(CudaRewriter, PlainLaunchWithFourConfigurationValues) {
  EXPECT_EQ(body("k<<<g, b, 0, s>>>(x, y);"),
            "GPULAB_SIM_KERNEL_OF(k) ->* ::gpulab::sim::cuda::launch_with({\"k\", __FILE__}, g, b, 0, s)(x, y);");
}

TEST(CudaRewriter, TemplateKernelWhoseArgumentsEndInShiftTokens) {
  EXPECT_EQ(body("ns::k<T, f<int>><<<grid, 256>>>(a);"),
            "GPULAB_SIM_KERNEL_OF(ns::k<T, f<int>>) ->* ::gpulab::sim::cuda::launch_with({\"ns::k<T, f<int>>\", __FILE__}, grid, 256)(a);");
}

TEST(CudaRewriter, ShiftsInsideTheConfigurationAreNotItsEnd) {
  EXPECT_EQ(body("k<<<(n >> 8), dim3(a<<2)>>>();"),
            "GPULAB_SIM_KERNEL_OF(k) ->* ::gpulab::sim::cuda::launch_with({\"k\", __FILE__}, (n >> 8), dim3(a<<2))();");
}

TEST(CudaRewriter, PointerAndSubscriptCallees) {
  EXPECT_EQ(body("(*fp)<<<1, 1>>>();"), "GPULAB_SIM_KERNEL_OF((*fp)) ->* ::gpulab::sim::cuda::launch_with({\"(*fp)\", __FILE__}, 1, 1)();");
  EXPECT_EQ(body("table[i]<<<1, 1>>>();"),
            "GPULAB_SIM_KERNEL_OF(table[i]) ->* ::gpulab::sim::cuda::launch_with({\"table[i]\", __FILE__}, 1, 1)();");
}

TEST(CudaRewriter, SpacedAndSplitChevrons) {
  EXPECT_EQ(body("k << < g, b >> > (x);"),
            "GPULAB_SIM_KERNEL_OF(k ) ->* ::gpulab::sim::cuda::launch_with({\"k\", __FILE__},  g, b ) (x);");
  const std::string out = body("k<\n<\n<g, b>\n>\n>(x);\nint after;\n");
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 6) << out;
}

TEST(CudaRewriter, ClosingChevronsAfterTemplateShift) {
  EXPECT_EQ(body("k<<<g, b, 0, s<T<int>>>>>(x);"),
            "GPULAB_SIM_KERNEL_OF(k) ->* ::gpulab::sim::cuda::launch_with({\"k\", __FILE__}, g, b, 0, s<T<int>>)(x);");
}

TEST(CudaRewriter, LaunchInAMacroBody) {
  EXPECT_EQ(body("#define LAUNCH(k) k<<<1, 1>>>()\n"),
            "#define LAUNCH(k) GPULAB_SIM_KERNEL_OF(k) ->* ::gpulab::sim::cuda::launch_with({\"k\", __FILE__}, 1, 1)()\n");
}

TEST(CudaRewriter, QuotedIncludesGoThroughTheMapper) {
  const gpulab::simcc::IncludeMapper mapper = [](std::string_view spelled) {
    return spelled == "kernels.cuh" ? std::string("/tmp/copies/src/kernels.cuh") : std::string();
  };
  const auto r = rewrite_cuda_source("#include \"kernels.cuh\"\n#include \"other.h\"\n#include <vector>\n"
                                     "const char* s = \"#include \\\"kernels.cuh\\\"\";\n",
                                     "/src/p.cu", mapper);
  ASSERT_TRUE(r.errors.empty());
  EXPECT_NE(r.text.find("#include \"/tmp/copies/src/kernels.cuh\"\n#include \"other.h\"\n#include <vector>\n"),
            std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("const char* s = \"#include \\\"kernels.cuh\\\"\";"), std::string::npos) << r.text;
}

TEST(CudaRewriter, LeavesCommentsAndLiteralsAlone) {
  const std::string source =
      "// k<<<1, 1>>>();\n/* k<<<1, 1>>>(); */\nconst char* s = \"k<<<1, 1>>>()\";\nchar c = '<';\n"
      "auto r = R\"x(k<<<1,1>>>() )\" )x\";\nint n = 1'000;\n";
  EXPECT_EQ(body(source), source);
}

TEST(CudaRewriter, KeepsLinesOfMultiLineLaunches) {
  const std::string out = body("k<<<grid,\n     block>>>(a,\n b);\nint after;\n");
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 4);
  EXPECT_NE(out.find("launch_with({\"k\", __FILE__}, grid,\n     block)(a,\n b);"), std::string::npos);
}

TEST(CudaRewriter, ExternSharedInAFunctionBecomesAReferenceToTheBlocksMemory) {
  EXPECT_EQ(body("__global__ void k() {\n  extern __shared__ __align__(16) float s[];\n  s[0] = 1;\n}\n"),
            "__global__ void k() {\n  float (&s)[] = (*reinterpret_cast<float(*)[]>(::gpulab::sim::dynamic_shared_memory()));"
            "\n  s[0] = 1;\n}\n");
}

TEST(CudaRewriter, ExternSharedAtNamespaceScopeBecomesAMacroAndKeepsLines) {
  const std::string out = body("namespace a {\nextern __shared__ unsigned char bytes[]; int x;\n}\nint y;\n");
  EXPECT_NE(out.find("\n#define bytes (*reinterpret_cast<unsigned char(*)[]>(::gpulab::sim::dynamic_shared_memory()))\n"
                     "#line 2 \"/src/p.cu\"\n int x;"),
            std::string::npos)
      << out;
}

TEST(CudaRewriter, RefusesWhatItCannotRewrite) {
  auto r = rewrite_cuda_source("void f() { extern __shared__ float a[], b[]; }", "p.cu");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].message.find("extern __shared__ T name[]"), std::string::npos);
  r = rewrite_cuda_source("int main() {\n  k<<<1, 1;\n}", "p.cu");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].line, 2);
  EXPECT_NE(r.errors[0].message.find(">>>"), std::string::npos);
}

TEST(CudaRewriter, NoinlineBecomesTheAttribute) {
  EXPECT_EQ(body("__device__ __noinline__ int f();"), "__device__ __attribute__((noinline)) int f();");
}

}  // namespace
