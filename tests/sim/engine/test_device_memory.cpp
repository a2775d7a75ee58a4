// The sim device's memory (src/sim/engine/device_memory.hpp): an allocation beyond the device's size
// raises OutOfMemory, and freed memory is given back.
#include <gtest/gtest.h>

#include "sim_test_support.hpp"

namespace gpulab {
namespace {

using namespace sim_testing;

TEST(SimExecution, AllocatingMoreThanTheDeviceHasRaisesOutOfMemory) {
  const MemoryInfo info = sim_dev().memory_info();
  try {
    auto huge = device_array<char>(sim_dev(), static_cast<index_t>(info.total_bytes + 1));
    ADD_FAILURE() << "allocated more than the device's memory";
  } catch (const OutOfMemory& e) {
    EXPECT_EQ(e.total_bytes(), info.total_bytes);
  }
  // Memory is given back: a buffer of a quarter of the device fits twice in a row.
  for (int i = 0; i < 2; ++i) {
    auto quarter = device_array<char>(sim_dev(), static_cast<index_t>(info.total_bytes / 4));
    EXPECT_LE(sim_dev().memory_info().free_bytes, info.free_bytes - info.total_bytes / 4);
  }
}

}  // namespace
}  // namespace gpulab
