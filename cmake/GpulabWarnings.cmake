# Warning flags for host code and for nvcc's host compiler. `gpulab_target_warnings(t)` applies them.
# g++ rejects CUDA's `#pragma unroll` under -Wall (unknown-pragmas), and only the command line can
# silence that, so it is turned off for every language.
set(GPULAB_CXX_WARNINGS -Wall -Wextra -Wno-unknown-pragmas)
# g++ 12 at -O3 reports a false -Wrestrict inside libstdc++'s std::string when a string is built from a
# literal and another string (GCC bug 105329, fixed in 13); it fires in any file that does so.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  list(APPEND GPULAB_CXX_WARNINGS -Wno-restrict)
endif()
if(GPULAB_WERROR)
  list(APPEND GPULAB_CXX_WARNINGS -Werror)
endif()
list(JOIN GPULAB_CXX_WARNINGS "," _gpulab_xcompiler_warnings)

function(gpulab_target_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${GPULAB_CXX_WARNINGS}>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=${_gpulab_xcompiler_warnings}>)
  if(GPULAB_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings>)
  endif()
endfunction()
