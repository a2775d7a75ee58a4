#pragma once
// Draws Philox numbers in a kernel on a device and compares them bit for bit with the host's.
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include <gpulab/array.hpp>
#include <gpulab/device.hpp>
#include <gpulab/launch.hpp>
#include <gpulab/random/distributions.hpp>

namespace gpulab::testing {

using FillKernel = void(gpulab::vector_view<std::uint32_t>, gpulab::vector_view<float>, gpulab::vector_view<float>,
                        std::uint64_t, std::uint64_t);

struct DeviceDraw {
  std::vector<std::uint32_t> words;
  std::vector<float> uniforms, normals;
};

inline DeviceDraw draw_on(const gpulab::Device& device, std::uint64_t seed, std::uint64_t offset, int n) {
  const gpulab::Kernel<FillKernel> kernel("philox_fill_kernel");
  auto words = gpulab::device_array<std::uint32_t>(device, n);
  auto uniforms = gpulab::device_array<float>(device, n);
  auto normals = gpulab::device_array<float>(device, n);
  gpulab::launch(kernel, gpulab::LaunchConfig{gpulab::grid_for(n, 128), 128}, words.view(), uniforms.view(),
                 normals.view(), seed, offset);
  DeviceDraw d;
  d.words.resize(static_cast<std::size_t>(n));
  d.uniforms.resize(static_cast<std::size_t>(n));
  d.normals.resize(static_cast<std::size_t>(n));
  words.copy_to_host(std::span<std::uint32_t>(d.words));
  uniforms.copy_to_host(std::span<float>(d.uniforms));
  normals.copy_to_host(std::span<float>(d.normals));
  return d;
}

inline std::uint32_t bits(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

inline void expect_same_as_host(const DeviceDraw& d, std::uint64_t seed, std::uint64_t offset) {
  const gpulab::random::Philox philox(seed);
  int mismatches = 0;
  for (std::size_t i = 0; i < d.words.size(); ++i) {
    const std::uint64_t at = offset + i;
    const bool same = d.words[i] == philox.word(at) && bits(d.uniforms[i]) == bits(gpulab::random::uniform_at(philox, at)) &&
                      bits(d.normals[i]) == bits(gpulab::random::normal_at(philox, at));
    if (!same && ++mismatches <= 5) {
      ADD_FAILURE() << "element " << at << ": device normal " << d.normals[i] << " host "
                    << gpulab::random::normal_at(philox, at);
    }
  }
  EXPECT_EQ(mismatches, 0);
}

}  // namespace gpulab::testing
