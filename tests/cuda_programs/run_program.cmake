# Runs a gpulab-simcc program for CTest: cmake -DPROGRAM=... [-DARGS=a;b] [-DCHECK=memcheck]
#   [-DEXPECT_FINDING=regex] [-DEXPECT_REPORT=regex] [-DSIMCC=... -DSOURCE=... -DWORK=...] -P run_program.cmake
# Without EXPECT_FINDING the program must exit 0 and print PASSED. With it, it must exit non-zero and
# its output must match the regex (a planted bug's report, naming the kernel). EXPECT_REPORT is for a
# program that faults a kernel on purpose, or calls what CUDA refuses: it must exit 0 and print PASSED
# (the fault is only its error code), and the simulator's report on stderr must match the regex. With SIMCC, the program
# is first built from SOURCE by the gpulab-simcc driver (with the nvcc flags a user would pass).
if(SIMCC)
  execute_process(COMMAND "${SIMCC}" -arch=sm_90 -O2 ${SIMCC_FLAGS} "${SOURCE}" -o "${PROGRAM}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gpulab-simcc failed (${rc}):\n${out}${err}")
  endif()
  if(NOT err MATCHES "ignoring -arch sm_90")
    message(FATAL_ERROR "gpulab-simcc did not note the ignored -arch flag:\n${err}")
  endif()
endif()
set(env "")
if(CHECK)
  set(env "GPULAB_SIM_CHECK=${CHECK}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} "${PROGRAM}" ${ARGS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
message("${out}${err}")
if(EXPECT_FINDING)
  if(rc EQUAL 0)
    message(FATAL_ERROR "expected a finding and a non-zero exit; the program exited 0")
  endif()
  if(NOT "${out}${err}" MATCHES "${EXPECT_FINDING}")
    message(FATAL_ERROR "the report does not match '${EXPECT_FINDING}'")
  endif()
else()
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the program exited with ${rc}")
  endif()
  if(NOT out MATCHES "PASSED")
    message(FATAL_ERROR "the program did not print PASSED")
  endif()
  if(EXPECT_REPORT)
    if(NOT "${err}" MATCHES "${EXPECT_REPORT}")
      message(FATAL_ERROR "the simulator's report does not match '${EXPECT_REPORT}'")
    endif()
  else()
    # Notes (a removed call kept, a hint that changes nothing) are not reports.
    string(REGEX REPLACE "gpulab-sim: note:[^\n]*" "" reports "${err}")
    if("${reports}" MATCHES "gpulab-sim:")
      message(FATAL_ERROR "the simulator reported something for a correct program")
    endif()
  endif()
endif()
