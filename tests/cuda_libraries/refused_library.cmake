# gpulab-simcc refuses, by name, a CUDA library it does not simulate: the link of a program given
# -lcusparse must fail with the reason, never fall through to the toolkit's library (which needs a GPU).
# cmake -DSIMCC=... -DSOURCE=... -DWORK=... -P refused_library.cmake
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND "${SIMCC}" "${SOURCE}" -lcusparse -o "${WORK}/refused"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(rc EQUAL 0)
  message(FATAL_ERROR "gpulab-simcc linked a program with -lcusparse:\n${out}${err}")
endif()
if(NOT err MATCHES "gpulab-simcc: -lcusparse: this CUDA library is not simulated")
  message(FATAL_ERROR "gpulab-simcc's refusal does not name the library:\n${err}")
endif()
message("refused as expected: ${err}")
