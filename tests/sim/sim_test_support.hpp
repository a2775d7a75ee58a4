#pragma once
// What the simulator's tests share (tests/sim/<layer>/test_*.cpp, linked with the kernels of
// sim_kernels.cu): the sim device, copies to and from it, and the text of the KernelFault a piece of
// work raises.
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <gpulab/array.hpp>
#include <gpulab/device.hpp>
#include <gpulab/error.hpp>
#include <gpulab/launch.hpp>
#include <gpulab/sim/checks.hpp>
#include <gpulab/stream.hpp>

namespace gpulab::sim_testing {

inline Device sim_dev() { return sim_device(); }

template <class T>
DeviceArray<T> upload(const std::vector<T>& host) {
  return to_device(sim_dev(), std::span<const T>(host));
}

template <class T>
std::vector<T> download(const DeviceArray<T>& device) {
  auto host = device.copy_to_host();
  return std::vector<T>(host.begin(), host.end());
}

template <class T>
DeviceArray<T> filled(index_t n, T value) {
  DeviceArray<T> a = device_array<T>(sim_dev(), n);
  a.fill(value);
  return a;
}

// The message of the KernelFault `work` raises, or "" when it raises none.
inline std::string fault_message(const std::function<void()>& work) {
  try {
    work();
  } catch (const KernelFault& e) {
    return e.what();
  }
  return "";
}

}  // namespace gpulab::sim_testing

// `part` occurs in `text` (a fault message, say).
#define EXPECT_CONTAINS(text, part) EXPECT_NE((text).find(part), std::string::npos) << "in: " << (text)
