# CUDA is optional: GPULAB_CUDA=AUTO builds the CUDA backend when a toolkit is found, OFF never does,
# ON insists. GPULAB_HAVE_CUDA says what was decided.
set(GPULAB_HAVE_CUDA OFF)
if(NOT GPULAB_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      # SASS for sm_80 and sm_90a, and compute_90 PTX that later GPUs can JIT.
      set(CMAKE_CUDA_ARCHITECTURES "80-real;90a-real;90-virtual")
    endif()
    enable_language(CUDA)
    # CMake 3.25 knows nvcc's dialect flags only up to C++17; nvcc 12+ takes -std=c++20.
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} --threads 2")
    set(GPULAB_HAVE_CUDA ON)
  elseif(GPULAB_CUDA STREQUAL "ON")
    message(FATAL_ERROR "GPULAB_CUDA=ON but no CUDA compiler was found")
  endif()
endif()
