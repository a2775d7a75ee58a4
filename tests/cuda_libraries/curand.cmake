# cuRAND on the simulator (included by tests/cuda_libraries/CMakeLists.txt, after its helpers).
#
# The programs: the device API (curand_kernel.h in kernels) and the host API (curand.h), each
# self-checking, plain and under every check; with CUDA on, nvcc builds them against the toolkit's
# libcurand too.
gpulab_add_library_program(curand_device_api LIBRARY gpulab::curand NVCC_LIBRARY CUDA::curand)
gpulab_add_library_program(curand_host_api LIBRARY gpulab::curand NVCC_LIBRARY CUDA::curand
  EXPECT_REPORT "curandCreateGenerator: curandRngType 141 is not simulated")
gpulab_add_library_planted_bug(curand_planted_out_of_bounds memcheck gpulab::curand
  "curandGenerateUniform faulted: memcheck: it would write 4100 bytes of operand outputPtr at .*: offset 0 of device buffer #[0-9]+ \\(4096 bytes\\), and runs 4 bytes past its end")

# The oracle: gpulab's generators against the toolkit's host generator, where the toolkit's libcurand is
# found (it runs with no GPU); without it the comparisons skip, saying why. It calls gpulab's generators
# through their C++ interface (the OBJECT library), not libgpulab_curand's C API, whose names are
# libcurand's.
find_package(CUDAToolkit QUIET)
gpulab_add_gtest(test_curand_oracle SOURCES curand_oracle.cpp OBJECTS gpulab_curand_generators
                 LABELS cuda_libraries)
target_include_directories(test_curand_oracle PRIVATE ${PROJECT_SOURCE_DIR}/src)
if(TARGET CUDA::curand)
  target_link_libraries(test_curand_oracle PRIVATE CUDA::curand)
  target_compile_definitions(test_curand_oracle PRIVATE GPULAB_CURAND_ORACLE=1)
else()
  target_compile_definitions(test_curand_oracle PRIVATE GPULAB_CURAND_ORACLE=0)
endif()
