#pragma once
// cuRAND's status codes and generator kinds as gpulab's C++ names, with cuRAND's values, so that the
// generators (generator.hpp) can be called without <curand.h>: the oracle test calls them beside the
// toolkit's libcurand, whose header declares the C names.
#include <stdexcept>
#include <string>

namespace gpulab::sim::curand {

enum class Status : int {
  success = 0,
  version_mismatch = 100,
  not_initialized = 101,
  allocation_failed = 102,
  type_error = 103,
  out_of_range = 104,
  length_not_multiple = 105,
  double_precision_required = 106,
  launch_failure = 201,
  preexisting_failure = 202,
  initialization_failed = 203,
  arch_mismatch = 204,
  internal_error = 999,
};

// cuRAND's name of a status ("CURAND_STATUS_OUT_OF_RANGE").
const char* status_name(Status s) noexcept;

// A call's refusal: the status it returns and why (printed as a simulator note where cuRAND itself
// says nothing, so that a program's author learns what was refused).
class Refusal : public std::runtime_error {
 public:
  Refusal(Status status, const std::string& why) : std::runtime_error(why), status_(status) {}
  Status status() const noexcept { return status_; }

 private:
  Status status_;
};

// The generators the simulator provides (values of curandRngType).
enum class RngKind : int { xorwow = 101, mrg32k3a = 121, philox4_32_10 = 161 };

}  // namespace gpulab::sim::curand
