#pragma once
// gpulab's error hierarchy. Every failure that reaches a user is one of these, and every message names
// the value, the limit and, where there is one, the fix. The guide's "common problems" (out of memory,
// a driver older than the toolkit) each get their own type so a caller can tell them apart.
#include <cstddef>
#include <stdexcept>
#include <string>

namespace gpulab {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A CUDA API call failed. Carries CUDA's code, its name and text, the call and where it was made.
class CudaError : public Error {
 public:
  CudaError(int code, std::string name, std::string text, std::string call, std::string file, int line);
  int code() const noexcept { return code_; }
  const std::string& name() const noexcept { return name_; }
  const std::string& text() const noexcept { return text_; }
  const std::string& call() const noexcept { return call_; }
  const std::string& file() const noexcept { return file_; }
  int line() const noexcept { return line_; }

 private:
  int code_;
  std::string name_, text_, call_, file_;
  int line_;
};

// An allocation did not fit. Says how much was asked for, how much the device has free and in all.
class OutOfMemory : public Error {
 public:
  OutOfMemory(std::string device, std::size_t requested, std::size_t free_bytes, std::size_t total_bytes);
  const std::string& device() const noexcept { return device_; }
  std::size_t requested() const noexcept { return requested_; }
  std::size_t free_bytes() const noexcept { return free_; }
  std::size_t total_bytes() const noexcept { return total_; }

 private:
  std::string device_;
  std::size_t requested_, free_, total_;
};

// No usable CUDA driver, or one older than the runtime gpulab was built with. Versions are CUDA's
// integers (13000 for 13.0); 0 means "no driver".
class DriverError : public Error {
 public:
  DriverError(int driver_version, int runtime_version, std::string detail);
  int driver_version() const noexcept { return driver_; }
  int runtime_version() const noexcept { return runtime_; }

 private:
  int driver_, runtime_;
};

// A value outside what the call accepts: the message names the value and the limit.
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

// A fault inside a kernel: an illegal access, a trap, or a finding of the simulator's checks. On a CUDA
// device the context is unusable afterwards; the message says so.
class KernelFault : public Error {
 public:
  KernelFault(std::string kernel, std::string what);
  const std::string& kernel() const noexcept { return kernel_; }

 private:
  std::string kernel_;
};

// Formats a byte count for messages: "1.50 GiB (1610612736 bytes)".
std::string format_bytes(std::size_t bytes);

// CUDA's version integer as text: 13000 -> "13.0", 0 -> "none".
std::string format_cuda_version(int version);

}  // namespace gpulab
