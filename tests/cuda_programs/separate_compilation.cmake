# The driver with -c, as a Makefile would call nvcc: a C host file and a .cu kernel file compiled in one
# call with no -o (one .o each, named after its source), then linked by the driver.
#   cmake -DSIMCC=... -DSOURCE_DIR=... -DWORK=... -P separate_compilation.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND "${SIMCC}" -c -std=c11 -O2 -arch=sm_90 "${SOURCE_DIR}/c_host_main.c" "${SOURCE_DIR}/c_host_kernels.cu"
                WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gpulab-simcc -c failed (${rc}):\n${out}${err}")
endif()
foreach(o c_host_main.o c_host_kernels.o)
  if(NOT EXISTS "${WORK}/${o}")
    message(FATAL_ERROR "gpulab-simcc -c wrote no ${o}:\n${out}${err}")
  endif()
endforeach()
execute_process(COMMAND "${SIMCC}" c_host_main.o c_host_kernels.o -o program -lcudart
                WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gpulab-simcc link failed (${rc}):\n${out}${err}")
endif()
# -c on something that is not a source must fail with the reason, not exit 0 having written nothing.
execute_process(COMMAND "${SIMCC}" -c c_host_main.o -o again.o
                WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(rc EQUAL 0 OR NOT err MATCHES "-c compiles sources")
  message(FATAL_ERROR "gpulab-simcc -c on an object file: exit ${rc}:\n${err}")
endif()
execute_process(COMMAND "${WORK}/program" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
message("${out}${err}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "PASSED")
  message(FATAL_ERROR "the program failed (${rc})")
endif()
