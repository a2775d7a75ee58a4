# gpulab_add_sim_executable(<target> SOURCES prog.cu [more.cu host.cpp ...] [CHECKED])
#
# Builds an unmodified CUDA program for gpulab's CPU simulator, as gpulab-simcc does: each .cu file is
# rewritten by gpulab-simcc-rewrite (<<<>>> launches, extern __shared__) and compiled by the host
# compiler against the simulator's shadow CUDA headers (cuda_runtime.h and the rest), GPULAB_SIM
# defined; the program links libgpulab, whose CUDA runtime API runs it on the `sim` device.
# CHECKED is nvcc's -G: the kernels are instrumented for GPULAB_SIM_CHECK=memcheck|racecheck|initcheck.
#
# Installed with gpulab's CMake package, so gpulab's users call it too.

if(EXISTS "${CMAKE_CURRENT_LIST_DIR}/../include/gpulab/sim/cuda/cuda_runtime.h")
  set(GPULAB_SIM_CUDA_INCLUDE_DIR "${CMAKE_CURRENT_LIST_DIR}/../include/gpulab/sim/cuda")  # source tree
else()
  get_filename_component(GPULAB_SIM_CUDA_INCLUDE_DIR "${CMAKE_CURRENT_LIST_DIR}/../../../include/gpulab/sim/cuda"
                         ABSOLUTE)  # installed: <prefix>/lib/cmake/gpulab
endif()

# CCCL's headers (libcu++, Thrust, CUB), for programs that use them: the CUDA toolkit's include/cccl.
# They are searched after the shadow headers, which defer to libcu++ or stand in for it where it is
# absent (include/gpulab/sim/cuda/gpulab_cccl_config.hpp). GPULAB_SIM_CCCL_INCLUDE is empty where none
# was found; set GPULAB_SIM_CCCL_INCLUDE_DIR to choose another copy.
if(NOT DEFINED GPULAB_SIM_CCCL_INCLUDE)
  set(cccl_hints "")
  if(CUDAToolkit_INCLUDE_DIRS)
    list(APPEND cccl_hints ${CUDAToolkit_INCLUDE_DIRS})
  endif()
  if(DEFINED ENV{CUDA_PATH})
    list(APPEND cccl_hints "$ENV{CUDA_PATH}/include")
  endif()
  find_path(GPULAB_SIM_CCCL_INCLUDE_DIR NAMES cuda/std/detail/__config
            HINTS ${cccl_hints} PATHS /usr/local/cuda/include PATH_SUFFIXES cccl NO_DEFAULT_PATH
            DOC "CCCL's headers (libcu++, Thrust, CUB) for programs built for gpulab's simulator")
  if(GPULAB_SIM_CCCL_INCLUDE_DIR)
    set(GPULAB_SIM_CCCL_INCLUDE "${GPULAB_SIM_CCCL_INCLUDE_DIR}")
  else()
    set(GPULAB_SIM_CCCL_INCLUDE "")
  endif()
endif()

function(gpulab_add_sim_executable target)
  cmake_parse_arguments(ARG "CHECKED" "" "SOURCES" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "gpulab_add_sim_executable(${target}): no SOURCES")
  endif()
  set(sources "")
  set(rewritten "")
  # Made here: Ninja makes an output's folder itself, Unix Makefiles do not.
  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/gpulab_sim_executable/${target}")
  file(MAKE_DIRECTORY "${out_dir}")
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE)
    get_filename_component(name "${src}" NAME)
    if(name MATCHES "\\.cu$")
      set(out "${out_dir}/${name}.cpp")
      # The depfile names the user files the .cu includes (rewritten into ${out}.includes/).
      add_custom_command(OUTPUT "${out}"
        COMMAND gpulab::simcc-rewrite "${abs}" "${out}" "${out}.d"
        DEPENDS "${abs}" gpulab::simcc-rewrite
        DEPFILE "${out}.d"
        COMMENT "gpulab-simcc-rewrite ${name}"
        VERBATIM)
      list(APPEND sources "${out}")
      list(APPEND rewritten "${out}")
      # The rewritten file lives in the build tree: #include "x.h" must still find the .cu's neighbours.
      get_filename_component(dir "${abs}" DIRECTORY)
      set_source_files_properties("${out}" PROPERTIES COMPILE_OPTIONS "-iquote;${dir}")
    else()
      list(APPEND sources "${abs}")
    endif()
  endforeach()
  add_executable(${target} ${sources})
  target_link_libraries(${target} PRIVATE gpulab::cudart gpulab::gpulab)
  target_include_directories(${target} SYSTEM PRIVATE "${GPULAB_SIM_CUDA_INCLUDE_DIR}" ${GPULAB_SIM_CCCL_INCLUDE})
  target_compile_definitions(${target} PRIVATE GPULAB_SIM=1)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wno-unknown-pragmas>)
  if(ARG_CHECKED)
    set_source_files_properties(${rewritten} PROPERTIES COMPILE_DEFINITIONS "GPULAB_SIM_CHECKED=1")
    foreach(out IN LISTS rewritten)
      set_property(SOURCE "${out}" APPEND PROPERTY COMPILE_OPTIONS ${GPULAB_SIM_INSTRUMENT_FLAGS})
    endforeach()
  endif()
endfunction()
