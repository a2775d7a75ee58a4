#pragma once
// gpulab-simcc's shadow of <math.h>. Code built for the simulator is C++20 (the simulator's headers need
// it), where libstdc++'s <math.h> also brings std::lerp into the global namespace; CUDA code is C++17 by
// nvcc's default, and much of it (every copy of the samples' helper_math.h) defines a global
// lerp(float, float, float) of its own, which then conflicts. So in C++20 this <math.h> is libstdc++'s
// without that one name (std::lerp stays where the standard puts it); otherwise it is libstdc++'s as is.
#if defined(__cplusplus) && __cplusplus > 201703L
#include <cmath>
#include <cstddef>
#pragma push_macro("lerp")
#define lerp size_t  // turns libstdc++'s `using std::lerp;` into a harmless `using std::size_t;`
#include_next <math.h>
#pragma pop_macro("lerp")
#else
#include_next <math.h>
#endif
