# Configures and builds the CMake project in cmake_project/ with gpulab-simcc as CMake's CUDA compiler,
# once per generator, and runs its program, which must print PASSED. Then it touches a header that a
# .cu includes and expects the rebuild to recompile that .cu (the dependency file names the user's
# file, not the rewritten copy gpulab-simcc compiled).
#   cmake -DSIMCC=... -DCXX=... -DLIBDIR=... -DSOURCE_DIR=... -DWORK=... -P cmake_project.cmake
# LIBDIR is gpulab's library folder: CMake links CUDA programs with the host compiler itself, from
# the -L and -l of gpulab-simcc -v, and adds no rpath for them, so the program finds libgpulab_cudart
# through LD_LIBRARY_PATH here (an installed gpulab in the loader's path needs none).
# Built from a copy, which the test touches.
file(REMOVE_RECURSE "${WORK}")
file(COPY "${SOURCE_DIR}/" DESTINATION "${WORK}/project")
set(project "${WORK}/project")
foreach(generator IN ITEMS "Ninja" "Unix Makefiles")
  string(REPLACE " " "_" dir "${generator}")
  set(build "${WORK}/${dir}")
  execute_process(COMMAND ${CMAKE_COMMAND} -S "${project}" -B "${build}" -G "${generator}"
                          "-DCMAKE_CUDA_COMPILER=${SIMCC}" "-DCMAKE_CXX_COMPILER=${CXX}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${generator}: configuring with gpulab-simcc failed (${rc}):\n${out}${err}")
  endif()
  if(NOT out MATCHES "The CUDA compiler identification is NVIDIA [0-9]+\\.[0-9]+\\.[0-9]+")
    message(FATAL_ERROR "${generator}: CMake did not identify gpulab-simcc as nvcc-compatible:\n${out}${err}")
  endif()
  if(NOT out MATCHES "Detecting CUDA compiler ABI info - done")
    message(FATAL_ERROR "${generator}: CMake's CUDA ABI detection failed:\n${out}${err}")
  endif()
  file(STRINGS "${build}/CMakeCache.txt" archs REGEX "^CMAKE_CUDA_ARCHITECTURES:")
  if(NOT archs MATCHES "=90$")
    message(FATAL_ERROR "${generator}: the default CUDA architecture is not the sim device's 90: ${archs}")
  endif()

  execute_process(COMMAND ${CMAKE_COMMAND} --build "${build}" --verbose
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${generator}: building failed (${rc}):\n${out}${err}")
  endif()
  # The separable compilation's device link step ran (and made an object the link took).
  if(NOT "${out}${err}" MATCHES "-dlink")
    message(FATAL_ERROR "${generator}: no -dlink step in the build:\n${out}${err}")
  endif()

  execute_process(COMMAND ${CMAKE_COMMAND} -E env "LD_LIBRARY_PATH=${LIBDIR}" "${build}/simcc_cmake_project"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  message("${generator}: ${out}${err}")
  if(NOT rc EQUAL 0 OR NOT out MATCHES "PASSED")
    message(FATAL_ERROR "${generator}: the program failed (${rc})")
  endif()

  # Dependencies: a header the .cu files include through a rewritten copy.
  if(generator STREQUAL "Ninja")
    execute_process(COMMAND ninja -C "${build}" -t deps OUTPUT_VARIABLE deps)
    if(NOT deps MATCHES "project/saxpy_config.cuh" OR deps MATCHES "/tmp/gpulab-simcc-")
      message(FATAL_ERROR "Ninja: the dependencies do not name the user's header (or name a temporary copy):\n${deps}")
    endif()
  endif()
  file(TOUCH "${project}/saxpy_config.cuh")
  execute_process(COMMAND ${CMAKE_COMMAND} --build "${build}" --verbose
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "-c [^ ]*saxpy_kernels\\.cu -o")
    message(FATAL_ERROR "${generator}: touching saxpy_config.cuh did not rebuild saxpy_kernels.cu (${rc}):\n${out}${err}")
  endif()
endforeach()
