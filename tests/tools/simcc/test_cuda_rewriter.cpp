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
  const std::string prelude = "#include <cuda_runtime.h>\n#define __CUDA_ARCH__ 900\n#line 1 \"/src/p.cu\"\n";
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
            "\n  s[0] = 1;\n} GPULAB_SIM_KERNEL_DEFINED(k, ())\n");
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

// ---- inline PTX (asm statements in device code) ----

TEST(CudaRewriter, InlinePtxBecomesACallOfTheInterpreter) {
  EXPECT_EQ(body("__device__ unsigned lane() { unsigned l; asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(l)); return l; }"),
            "__device__ unsigned lane() { unsigned l; ::gpulab::sim::ptx::run(GPULAB_PTX_PROGRAM(\"mov.u32 %0, %%laneid;\", "
            "\"=r\") , ::gpulab::sim::ptx::out<'r'>(l)); return l; }");
}

TEST(CudaRewriter, InlinePtxSectionsAndQualifiers) {
  // No outputs (the `::` token is two separators), clobbers dropped, volatile and __volatile__.
  EXPECT_EQ(body("__global__ void k(int* p, int v) { asm volatile(\"st.global.u32 [%0], %1;\" :: \"l\"(p), \"r\"(v) : \"memory\"); }"),
            "__global__ void k(int* p, int v) { ::gpulab::sim::ptx::run(GPULAB_PTX_PROGRAM(\"st.global.u32 [%0], %1;\", "
            "\"l,r\") , ::gpulab::sim::ptx::in<'l'>(p), ::gpulab::sim::ptx::in<'r'>(v)  ); } GPULAB_SIM_KERNEL_DEFINED(k, (int * p , int v))");
  EXPECT_EQ(body("__device__ void f() { __asm__ __volatile__(\"membar.gl;\" ::: \"memory\"); }"),
            "__device__ void f() { ::gpulab::sim::ptx::run(GPULAB_PTX_PROGRAM(\"membar.gl;\", \"\")  ); }");
  // A basic statement (no colons) has no % escapes: the parser is told so with a null description.
  EXPECT_EQ(body("__device__ void f() { asm volatile(\"trap;\"); }"),
            "__device__ void f() { ::gpulab::sim::ptx::run(GPULAB_PTX_PROGRAM(\"trap;\", nullptr)); }");
}

TEST(CudaRewriter, InlinePtxOperandKinds) {
  const std::string out = body(
      "__device__ void f(float x, double y, unsigned short h, int k) {\n"
      "  asm(\"cvt.rn.f32.f64 %0, %2;\" : \"=&f\"(x) : \"f\"(x), \"d\"(y));\n"
      "  asm(\"add.u16 %0, %1, %2;\" : \"=h\"(h) : \"h\"(h), \"n\"(3));\n"
      "  asm(\"add.s32 %0, %0, 1;\" : \"+r\"(k));\n"
      "  asm(\"mov.b32 %0, %1;\" : \"=r\"(k) : \"0\"(k));\n"
      "  asm(\"mul.lo.u32 %[out], %[in], 3;\" : [out] \"=r\"(k) : [in] \"r\"(k));\n"
      "}\n");
  EXPECT_NE(out.find("GPULAB_PTX_PROGRAM(\"cvt.rn.f32.f64 %0, %2;\", \"=&f,f,d\") , ::gpulab::sim::ptx::out<'f'>(x) , "
                     "::gpulab::sim::ptx::in<'f'>(x), ::gpulab::sim::ptx::in<'d'>(y));"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("\"=h,h,n\") , ::gpulab::sim::ptx::out<'h'>(h) , ::gpulab::sim::ptx::in<'h'>(h), "
                     "::gpulab::sim::ptx::in<'n'>(3));"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("\"+r\") , ::gpulab::sim::ptx::inout<'r'>(k));"), std::string::npos) << out;
  // A tied input takes its output's register letter.
  EXPECT_NE(out.find("\"=r,0\") , ::gpulab::sim::ptx::out<'r'>(k) , ::gpulab::sim::ptx::in<'r'>(k));"), std::string::npos) << out;
  EXPECT_NE(out.find("\"=r[out],r[in]\") , ::gpulab::sim::ptx::out<'r'>(k) , ::gpulab::sim::ptx::in<'r'>(k));"),
            std::string::npos)
      << out;
}

TEST(CudaRewriter, InlinePtxKeepsLinesAndConcatenatedLiterals) {
  const std::string source =
      "__global__ void k(int* o, int x) {\n"
      "  int y;\n"
      "  asm volatile(\"{\\n\\t.reg .pred p;\\n\\t\"\n"
      "               \"setp.ne.s32 p, %1, 0;\\n\\t\"\n"
      "               \"selp.s32 %0, 1, 2, p;\\n}\"\n"
      "               : \"=r\"(y)\n"
      "               : \"r\"(x)\n"
      "               : \"memory\");\n"
      "  *o = y;\n"
      "}\n";
  const std::string out = body(source);
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), std::count(source.begin(), source.end(), '\n')) << out;
  EXPECT_NE(out.find("  ::gpulab::sim::ptx::run(GPULAB_PTX_PROGRAM(\"{\\n\\t.reg .pred p;\\n\\t\"\n"
                     "               \"setp.ne.s32 p, %1, 0;\\n\\t\"\n"
                     "               \"selp.s32 %0, 1, 2, p;\\n}\", \"=r,r\")\n"
                     "               , ::gpulab::sim::ptx::out<'r'>(y)\n"
                     "               , ::gpulab::sim::ptx::in<'r'>(x)\n"
                     "                );\n  *o = y;"),
            std::string::npos)
      << out;
}

TEST(CudaRewriter, InlinePtxLeavesHostAsmAlone) {
  // x86 asm in host code, an asm label, file-scope asm and the empty compiler barrier stay as they are.
  const std::string host =
      "void host() {\n"
      "  unsigned long sp;\n"
      "  asm volatile(\"mov %%rsp, %0\" : \"=r\"(sp));\n"
      "  asm volatile(\"pause\");\n"
      "  asm(\"\" ::: \"memory\");\n"
      "  __asm__ __volatile__(\"lock; xaddl %0, %1\" : \"+r\"(sp), \"+m\"(sp));\n"
      "}\n"
      "int v asm(\"vv\");\n"
      "asm(\".globl foo\");\n"
      "__device__ void barrier() { asm volatile(\"\" ::: \"memory\"); }\n";
  EXPECT_EQ(body(host), host);
  // In a __host__ __device__ function, the text decides: PTX for the device, x86 for the host.
  const std::string both =
      "__host__ __device__ unsigned long long t() {\n"
      "  unsigned long long v;\n"
      "#ifdef __CUDA_ARCH__\n"
      "  asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(v));\n"
      "#else\n"
      "  unsigned lo, hi;\n"
      "  asm volatile(\"rdtsc\" : \"=a\"(lo), \"=d\"(hi));\n"
      "#endif\n"
      "  return v;\n"
      "}\n";
  const std::string out = body(both);
  EXPECT_NE(out.find("::gpulab::sim::ptx::run(GPULAB_PTX_PROGRAM(\"mov.u64 %0, %%globaltimer;\", \"=l\")"), std::string::npos) << out;
  EXPECT_NE(out.find("asm volatile(\"rdtsc\" : \"=a\"(lo), \"=d\"(hi));"), std::string::npos) << out;
}

TEST(CudaRewriter, InlinePtxFromMacrosLambdasAndDefines) {
  // A template from a macro: converted in device code (the compiler expands and joins it), left in host code.
  const std::string out = body(
      "#define PTX_TEXT \"mov.u32 %0, %%warpid;\"\n"
      "__device__ unsigned w() { unsigned x; asm volatile(PTX_TEXT : \"=r\"(x)); return x; }\n"
      "unsigned h() { unsigned x = 0; asm volatile(PTX_TEXT : \"=r\"(x)); return x; }\n"
      "#define LANE(x) asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(x))\n"
      "void launch() { auto l = [] __device__ (int* p) { asm volatile(\"st.global.u32 [%0], 1;\" :: \"l\"(p)); }; }\n");
  EXPECT_NE(out.find("__device__ unsigned w() { unsigned x; ::gpulab::sim::ptx::run(GPULAB_PTX_PROGRAM(PTX_TEXT, \"=r\")"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("unsigned h() { unsigned x = 0; asm volatile(PTX_TEXT : \"=r\"(x)); return x; }"), std::string::npos) << out;
  EXPECT_NE(out.find("#define LANE(x) ::gpulab::sim::ptx::run(GPULAB_PTX_PROGRAM(\"mov.u32 %0, %%laneid;\", \"=r\") , "
                     "::gpulab::sim::ptx::out<'r'>(x))\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("[] __device__ (int* p) { ::gpulab::sim::ptx::run(GPULAB_PTX_PROGRAM(\"st.global.u32 [%0], 1;\", \"l\")"),
            std::string::npos)
      << out;
}

TEST(CudaRewriter, InlinePtxRefusals) {
  auto r = rewrite_cuda_source("__device__ void f(int* p) {\n  asm goto(\"@%0 bra %l1;\" :: \"l\"(p) :: done);\ndone:;\n}", "p.cu");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].line, 2);
  EXPECT_NE(r.errors[0].message.find("asm goto"), std::string::npos);
  r = rewrite_cuda_source("__device__ void f(int* p) {\n  asm(\"ld.global.u32 %0, %1;\" : \"=r\"(*p) : \"m\"(*p));\n}", "p.cu");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].message.find("constraint \"m\""), std::string::npos) << r.errors[0].message;
  r = rewrite_cuda_source("__device__ void f(int k) {\n  asm(\"mov.u32 %0, 1;\" : \"r\"(k));\n}", "p.cu");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].message.find("needs = or +"), std::string::npos) << r.errors[0].message;
}

TEST(CudaRewriter, NoinlineBecomesTheAttribute) {
  EXPECT_EQ(body("__device__ __noinline__ int f();"), "__device__ __attribute__((noinline)) int f();");
}

}  // namespace

TEST(CudaRewriter, KernelDefinitionsAreRegisteredByTheirParameterTypes) {
  // A plain kernel, one with a default argument and a launch bound, one in a namespace: each gets its
  // registration after the body, on the same line.
  EXPECT_EQ(body("__global__ void k(float* x, int n) { x[0] = n; }"),
            "__global__ void k(float* x, int n) { x[0] = n; } GPULAB_SIM_KERNEL_DEFINED(k, (float * x , int n))");
  EXPECT_EQ(body("__global__ void __launch_bounds__(256) d(int n = 3,\n  const float* __restrict__ p) {}"),
            "__global__ void __launch_bounds__(256) d(int n = 3,\n  const float* __restrict__ p) {} "
            "GPULAB_SIM_KERNEL_DEFINED(d, (int n , const float * __restrict__ p))");
  EXPECT_EQ(body("namespace ns { extern \"C\" __global__ void e() {} }"),
            "namespace ns { extern \"C\" __global__ void e() {} GPULAB_SIM_KERNEL_DEFINED(e, ()) }");
  // Templates, declarations, device functions, members and host code are left alone.
  for (const char* left : {"template <class T> __global__ void t(T x) {}", "__global__ void p(int);",
                           "__device__ int f(int x) { return x; }", "struct S { __global__ static void m() {} };",
                           "void __global__S::m() {}", "int main() { return 0; }"}) {
    EXPECT_EQ(body(left), left);
  }
}

TEST(CudaRewriter, AlignasMovesBeforeAMemorySpace) {
  EXPECT_EQ(body("__shared__ alignas(alignof(float4)) float a[4][8];"), "alignas(alignof(float4)) __shared__  float a[4][8];");
  EXPECT_EQ(body("__device__ alignas(16) int b[3];"), "alignas(16) __device__  int b[3];");
}
