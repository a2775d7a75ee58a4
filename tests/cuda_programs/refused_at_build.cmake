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

expect_refusal(cublas "<cublas_v2.h> \\(cuBLAS\\) is not available on the simulator"
               "#include <cublas_v2.h>\nint main() { return 0; }\n")
expect_refusal(driver_api "cuInit is CUDA's driver API, which the simulator does not implement"
               "#include <cuda.h>\nint main() { return cuInit(0) == CUDA_SUCCESS ? 0 : 1; }\n")
expect_refusal(wmma "<mma.h> \\(warp matrix multiply-accumulate, wmma\\) is not available"
               "#include <mma.h>\nint main() { return 0; }\n")
expect_refusal(nvrtc "<nvrtc.h> \\(run-time compilation of device code\\) is not available"
               "#include <nvrtc.h>\nint main() { return 0; }\n")
