# `cmake --install` puts the headers, libgpulab, the gpulab command and a CMake package in place, so an
# outside project can `find_package(gpulab)` and call gpulab_add_kernels itself.
include(CMakePackageConfigHelpers)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/gpulab DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS gpulab gpulab_cudart gpulab_cublas gpulab_curand gpulab_cufft EXPORT gpulabTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT gpulabTargets NAMESPACE gpulab:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gpulab)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/gpulabConfig.cmake.in
  ${PROJECT_BINARY_DIR}/gpulabConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gpulab)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gpulabConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gpulabConfig.cmake ${PROJECT_BINARY_DIR}/gpulabConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/GpulabKernels.cmake ${PROJECT_SOURCE_DIR}/cmake/GpulabCuda.cmake
              ${PROJECT_SOURCE_DIR}/cmake/GpulabWarnings.cmake
              ${PROJECT_SOURCE_DIR}/cmake/GpulabSimExecutable.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gpulab)
