// The same transforms compiled with no optimisation and no contraction (see tests/random/CMakeLists.txt),
// to compare with test_philox.cpp, compiled with -O3 and -ffp-contract=fast on an FMA-capable target.
#include <cstdint>

#include <gpulab/random/distributions.hpp>

namespace gpulab::testing {

float strict_normal_at(std::uint64_t seed, std::uint64_t offset) {
  return gpulab::random::normal_at(gpulab::random::Philox(seed), offset);
}

}  // namespace gpulab::testing
