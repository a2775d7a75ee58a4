#pragma once
// What `gpulab devices` and `gpulab doctor` say about a device, as text and as JSON.
#include <string>

#include <nlohmann/json.hpp>

#include <gpulab/device.hpp>

namespace gpulab::cli {

std::string describe_device_line(const Device& device);
nlohmann::json device_json(const Device& device);
nlohmann::json cuda_status_json(const CudaStatus& status);
// "cudaGetDeviceCount failed: cudaErrorInsufficientDriver (CUDA driver version is insufficient...)".
std::string cuda_unavailable_reason(const CudaStatus& status);

}  // namespace gpulab::cli
