#pragma once
// The source rewriter of gpulab-simcc: turns a CUDA C++ file into C++ that the host compiler builds
// against the simulator's shadow headers (include/gpulab/sim/cuda). It works on tokens, so comments,
// string and character literals are left alone, and it keeps every line where it was (a #line
// directive names the original file), so diagnostics and gdb point at the .cu.
//
//   k<<<grid, block, shared, stream>>>(args)  ->  GPULAB_SIM_KERNEL_OF(k) ->* ::gpulab::sim::cuda::launch_with({"k", __FILE__}, grid, block, shared, stream)(args)
//     (chevrons may be spaced or split across lines; GPULAB_SIM_KERNEL_OF, in cuda_runtime.h, lets the
//     compiler pick the kernel from the arguments: overloads, deduced template arguments, pointers)
//   extern __shared__ T name[];                ->  T (&name)[] = <the block's dynamic shared memory>;
//                                                 (at namespace scope: a macro for the same expression)
//   __noinline__                               ->  __attribute__((noinline))
//   asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane))   (PTX, in device code)
//     -> ::gpulab::sim::ptx::run(GPULAB_PTX_PROGRAM("mov.u32 %0, %%laneid;", "=r"), ::gpulab::sim::ptx::out<'r'>(lane))
//     (include/gpulab/sim/device/inline_ptx.hpp: the simulator's PTX interpreter; asm whose text is
//     not PTX, such as x86 asm in host code, is left alone)
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gpulab::simcc {

struct RewriteError {
  int line = 0;
  std::string message;
};

struct RewriteResult {
  std::string text;                  // the rewritten source, prelude and #line included
  std::vector<RewriteError> errors;  // constructs it cannot rewrite; the build must fail on any
  int launches = 0;                  // <<<>>> launches rewritten
  int inline_asm = 0;                // asm statements of PTX rewritten into the simulator's interpreter
  int kernels_defined = 0;           // non-template __global__ definitions registered by their type
};

// Given the file name of a `#include "name"` as written, the path to include instead (a rewritten
// copy of a user file, see user_includes.hpp), or an empty string to leave the directive alone.
using IncludeMapper = std::function<std::string(std::string_view spelled)>;

// `source` is the content of the file `path` (used in the #line directive).
RewriteResult rewrite_cuda_source(std::string_view source, std::string_view path, const IncludeMapper& includes = {});

}  // namespace gpulab::simcc
