// gpulab-simcc's shadow of <assert.h> (no include guard: like the C library's, it is included again
// after NDEBUG changes). nvcc's assert in device code does not abort the process: the failing thread
// reports "Assertion `e` failed", the launch ends and returns cudaErrorAssert, sticky, and the program
// goes on to its next synchronising call. This assert does the same in a simulated kernel and is the
// C library's everywhere else. C host files keep the C library's as it is.
#include_next <assert.h>

#if defined(__cplusplus) && !defined(NDEBUG)
#ifndef GPULAB_SIM_ASSERT_DECLARED
#define GPULAB_SIM_ASSERT_DECLARED
namespace gpulab::sim::detail {
[[noreturn]] void device_assert_fail(const char* expression, const char* file, unsigned line, const char* function);
}
#endif
#undef assert
#define assert(expression)                                                                                    \
  (static_cast<bool>(expression) ? static_cast<void>(0)                                                      \
                                 : ::gpulab::sim::detail::device_assert_fail(#expression, __FILE__, __LINE__, \
                                                                             __PRETTY_FUNCTION__))
#endif
