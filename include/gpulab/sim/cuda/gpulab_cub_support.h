#pragma once
// What the simulator's CUB (the headers in cub/ beside this one) needs of its CUDA runtime
// (libgpulab_cudart): a device-wide algorithm (cub::DeviceReduce::Sum, ...) runs its work as a host
// task on its stream, as the simulator's cuBLAS does, ordered as a kernel on that stream would be, with
// the device memory it touches declared so that memcheck and initcheck see it.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "driver_types.h"

namespace gpulab::sim::cub_support {

// Device memory an algorithm reads or writes: `bytes` bytes at `begin`; `operand` is the parameter's
// name for reports ("d_in").
struct Region {
  const void* begin = nullptr;
  std::size_t bytes = 0;
  const char* operand = "";
  bool written = false;
};

// Queues `work` on `stream` as the host task of `call` ("cub::DeviceReduce::Sum"), after checking
// that each region lies in live device memory (a memcheck finding naming the call and the operand
// otherwise, at the next synchronising call) and, under initcheck, that each region read was written.
// Returns cudaSuccess, or the error of a stream that is not one (or of an earlier sticky fault).
cudaError_t run_device_algorithm(cudaStream_t stream, const char* call, std::vector<Region> regions,
                                 std::function<void()> work) noexcept;

// A refused call: says why on stderr ("gpulab-sim: cub::DeviceReduce::Sum: cudaErrorInvalidValue:
// temp_storage_bytes = 8 is less than the 16 it needs") and returns `code`, as CUB returns its errors.
cudaError_t refuse(const char* call, cudaError_t code, const std::string& why) noexcept;

}  // namespace gpulab::sim::cub_support
