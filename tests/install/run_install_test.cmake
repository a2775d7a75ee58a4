# Runs as `cmake -P`: install, configure the consumer against the install, build it, run it.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
endfunction()

file(REMOVE_RECURSE ${PREFIX} ${CONSUMER_BUILD})
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX})
foreach(path include/gpulab/gpulab.hpp include/gpulab/kernel.hpp bin/gpulab lib/cmake/gpulab/gpulabConfig.cmake)
  if(NOT EXISTS ${PREFIX}/${path})
    message(FATAL_ERROR "the install lacks ${path}")
  endif()
endforeach()
run(${CMAKE_COMMAND} -S ${CONSUMER_SOURCE} -B ${CONSUMER_BUILD} -G "Unix Makefiles" -DCMAKE_PREFIX_PATH=${PREFIX}
    -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS=${CONSUMER_FLAGS}" -DGPULAB_CUDA=${GPULAB_CUDA})
run(${CMAKE_COMMAND} --build ${CONSUMER_BUILD})
run(${CONSUMER_BUILD}/consumer)
run(${CONSUMER_BUILD}/consumer_cuda_program)

# The simulator's internal headers refuse a direct include, naming what to include instead.
file(WRITE ${CONSUMER_BUILD}/internal.cpp "#include <gpulab/sim/detail/host_thread.hpp>\n")
execute_process(COMMAND ${CXX} -std=c++20 -fsyntax-only -DGPULAB_SIM=1 -I${PREFIX}/include ${CONSUMER_BUILD}/internal.cpp
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(rc EQUAL 0 OR NOT err MATCHES "is the simulator's inside: include <gpulab/kernel.hpp>")
  message(FATAL_ERROR "a direct include of gpulab/sim/detail/host_thread.hpp was not refused (${rc}):\n${err}")
endif()
run(${PREFIX}/bin/gpulab devices)
