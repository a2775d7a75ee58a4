# What the simulator cannot run is refused when the program is built, with the reason: each case is a
# small CUDA program that gpulab-simcc must reject with a message matching a regex.
#   cmake -DSIMCC=... -DWORK=dir -P refused_at_build.cmake
file(MAKE_DIRECTORY "${WORK}")
function(expect_refusal name expect source)
  file(WRITE "${WORK}/${name}.cu" "${source}")
  execute_process(COMMAND "${SIMCC}" "${WORK}/${name}.cu" -o "${WORK}/${name}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  if(rc EQUAL 0)
    message(FATAL_ERROR "${name}: gpulab-simcc built a program it must refuse")
  endif()
  if(NOT "${out}${err}" MATCHES "${expect}")
    message(FATAL_ERROR "${name}: the refusal does not say '${expect}':\n${out}${err}")
  endif()
  message(STATUS "${name}: refused as it should be")
endfunction()

expect_refusal(cusparse "<cusparse.h> \\(cuSPARSE\\) is not available on the simulator"
               "#include <cusparse.h>\nint main() { return 0; }\n")
expect_refusal(driver_api "cuInit is CUDA's driver API, which the simulator does not implement"
               "#include <cuda.h>\nint main() { return cuInit(0) == CUDA_SUCCESS ? 0 : 1; }\n")
expect_refusal(wmma "<mma.h> \\(warp matrix multiply-accumulate, wmma\\) is not available"
               "#include <mma.h>\nint main() { return 0; }\n")
expect_refusal(nvrtc "<nvrtc.h> \\(run-time compilation of device code\\) is not available"
               "#include <nvrtc.h>\nint main() { return 0; }\n")
# Inline PTX the simulator does not run fails the build at the statement, naming the instruction...
expect_refusal(inline_ptx_in_kernel
               "inline_ptx_in_kernel.cu:3:.*inline PTX the simulator does not run: .*`bar.arrive 1, 64;`: bar.arrive"
               "#include <cstdio>\n__global__ void k(unsigned* p) {\n  asm volatile(\"bar.arrive 1, 64;\");\n  *p = 1;\n}\nint main() { return 0; }\n")
# ...where the statement is compiled into the program only: not in a template never instantiated, an
# inline function never called, a macro never expanded, or a branch the preprocessor drops.
set(kept_source [=[
#include <cstdio>
template <class T> __device__ T neverInstantiated(T x) { asm("vadd.u32.u32.u32 %0, %0, %0;" : "+r"(x)); return x; }
__device__ inline unsigned neverCalled(unsigned x) { asm("foo.bar.u32 %0, %0;" : "+r"(x)); return x; }
#define NEVER_EXPANDED(x) asm("bar.arrive 1, 64;" \
                              ::: "memory")
__global__ void lane(unsigned* out) {
  unsigned x;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(x));
#if __CUDA_ARCH__ < 700
  asm("shfl.idx.b32 %0, %0, 0, 0x1f;" : "+r"(x));
#endif
  out[threadIdx.x] = x;
}
int main() {
  unsigned* d;
  cudaMalloc(&d, 64 * sizeof(unsigned));
  lane<<<1, 64>>>(d);
  unsigned h[64];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (unsigned i = 0; i < 64; ++i) {
    if (h[i] != i % 32) { std::printf("FAILED: lane %u\n", i); return 1; }
  }
  std::printf("PASSED: unsupported PTX the program never compiles did not stop the build\n");
  return 0;
}
]=])
file(WRITE "${WORK}/kept_ptx.cu" "${kept_source}")
execute_process(COMMAND "${SIMCC}" "${WORK}/kept_ptx.cu" -o "${WORK}/kept_ptx" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "kept_ptx: gpulab-simcc refused PTX the program never compiles:\n${out}${err}")
endif()
execute_process(COMMAND "${WORK}/kept_ptx" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 0 OR NOT out MATCHES "PASSED")
  message(FATAL_ERROR "kept_ptx: the program did not pass:\n${out}${err}")
endif()
message(STATUS "kept_ptx: built and passed")
