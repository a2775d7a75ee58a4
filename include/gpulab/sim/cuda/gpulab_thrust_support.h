#pragma once
// What Thrust's CPP system needs of the simulator's CUDA runtime (libgpulab_cudart), for the shadows of
// Thrust's headers in this folder (thrust/...). Thrust's algorithms run on the calling host thread and
// touch device memory there, which on a GPU only kernels and copies do.
#include <stddef.h>

#include "driver_types.h"

extern "C" {

// Device memory for Thrust's device system (device_vector's storage, device_malloc, temporary
// buffers): simulated device memory as cudaMalloc's, so that kernels given raw_pointer_cast pointers
// and memcheck agree that it is a device buffer. Thrust's host code writes it where initcheck cannot
// see, so initcheck counts it as written.
cudaError_t gpulabSimThrustMalloc(void** devPtr, size_t size);

// Called once by every program that includes Thrust, before main: from then on, work queued on a
// default stream (kernels, asynchronous copies and fills, library calls) is done before the call that
// queued it returns, so that a Thrust algorithm called next, on the host, sees what it wrote, as it
// would on a GPU where the algorithm is queued after it on that stream. Returns 1.
int gpulabSimThrustProgram(void);

}  // extern "C"
