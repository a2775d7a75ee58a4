#include <gpulab/array.hpp>
#include <gpulab/error.hpp>

#include <cstring>
#include <limits>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "runtime/backend.hpp"
#include "runtime/log.hpp"
#include "runtime/stream_state.hpp"

namespace gpulab::detail {

namespace {

// Pinned memory is CUDA's when a CUDA device is usable, so copies from it can overlap kernels; without
// one it is ordinary host memory, which is all the simulator needs.
Backend& pinned_backend() {
  if (Backend* cuda = find_backend(DeviceKind::cuda); cuda != nullptr && cuda->device_count() > 0) return *cuda;
  return backend_for(DeviceKind::host);
}

constexpr int pinned_ordinal = -1;  // asks a backend for page-locked host memory

}  // namespace

Allocation::Allocation(MemoryKind kind, const Device& device, std::size_t bytes)
    : bytes_(bytes), device_(device), kind_(kind) {
  if (bytes == 0) return;
  switch (kind) {
    case MemoryKind::device:
      data_ = backend_for(device.kind()).allocate(device.ordinal(), bytes);
      break;
    case MemoryKind::pinned:
      data_ = pinned_backend().allocate(pinned_ordinal, bytes);
      break;
    case MemoryKind::host:
      data_ = backend_for(DeviceKind::host).allocate(0, bytes);
      break;
  }
  log_debug("allocate {} bytes of {} memory on {} at {}", bytes,
            kind == MemoryKind::device ? "device" : kind == MemoryKind::pinned ? "pinned" : "host", device.id(), data_);
}

void Allocation::release() noexcept {
  if (data_ == nullptr) return;
  log_debug("free {} bytes at {} on {}", bytes_, data_, device_.id());
  switch (kind_) {
    case MemoryKind::device:
      if (Backend* b = find_backend(device_.kind())) b->deallocate(device_.ordinal(), data_);
      break;
    case MemoryKind::pinned:
      pinned_backend().deallocate(pinned_ordinal, data_);
      break;
    case MemoryKind::host:
      backend_for(DeviceKind::host).deallocate(0, data_);
      break;
  }
  data_ = nullptr;
}

namespace {

// The device that performs a copy between two spaces: the one that is not the host.
MemorySpace copy_engine(MemorySpace dst, MemorySpace src) {
  if (dst.kind != DeviceKind::host && src.kind != DeviceKind::host && dst != src) {
    throw InvalidArgument(fmt::format("cannot copy directly from {} to {}: copy through host memory",
                                      to_string(src), to_string(dst)));
  }
  return dst.kind != DeviceKind::host ? dst : src;
}

}  // namespace

void copy_bytes(void* dst, MemorySpace dst_space, const void* src, MemorySpace src_space, std::size_t bytes,
                const Stream& stream) {
  if (bytes == 0) return;
  if (dst == nullptr || src == nullptr) throw InvalidArgument("copy of " + std::to_string(bytes) + " bytes with a null pointer");
  const MemorySpace engine = copy_engine(dst_space, src_space);
  const Device device(engine.kind, engine.ordinal);
  CopyKind kind = CopyKind::host_to_host;
  if (dst_space.kind != DeviceKind::host && src_space.kind != DeviceKind::host) {
    kind = CopyKind::device_to_device;
  } else if (dst_space.kind != DeviceKind::host) {
    kind = CopyKind::host_to_device;
  } else if (src_space.kind != DeviceKind::host) {
    kind = CopyKind::device_to_host;
  }
  const StreamHandle h = stream_handle_for(stream, device);
  backend_for(engine.kind).copy(engine.ordinal, dst, src, bytes, kind, h);
}

void fill_bytes(void* dst, MemorySpace space, int value, std::size_t bytes, const Stream& stream) {
  if (bytes == 0) return;
  const Device device(space.kind, space.ordinal);
  backend_for(space.kind).fill(space.ordinal, dst, value, bytes, stream_handle_for(stream, device));
}

void fill_pattern(void* dst, MemorySpace space, const void* value, std::size_t element_bytes, std::size_t count,
                  const Stream& stream) {
  if (count == 0) return;
  const auto* v = static_cast<const unsigned char*>(value);
  bool uniform = true;
  for (std::size_t i = 1; i < element_bytes; ++i) uniform = uniform && v[i] == v[0];
  if (uniform) {
    fill_bytes(dst, space, v[0], element_bytes * count, stream);
    return;
  }
  if (space.kind == DeviceKind::host) {
    auto* out = static_cast<unsigned char*>(dst);
    for (std::size_t i = 0; i < count; ++i) std::memcpy(out + i * element_bytes, v, element_bytes);
    return;
  }
  // A pattern memset cannot write: stage it on the host and copy; the staging buffer must outlive the
  // copy, so this waits for it.
  std::vector<unsigned char> staging(element_bytes * count);
  for (std::size_t i = 0; i < count; ++i) std::memcpy(staging.data() + i * element_bytes, v, element_bytes);
  copy_bytes(dst, space, staging.data(), host_space, staging.size(), stream);
  synchronize(stream, space);
}

void synchronize(const Stream& stream, MemorySpace space) {
  if (stream.valid()) {
    stream.synchronize();
    return;
  }
  const Device device(space.kind, space.ordinal);
  backend_for(space.kind).synchronize_stream(space.ordinal, stream_handle_for(stream, device));
}

std::size_t checked_byte_count(std::span<const index_t> shape, std::size_t element_bytes) {
  std::size_t count = 1;
  for (index_t e : shape) {
    if (e < 0) throw InvalidArgument(fmt::format("array shape {} has a negative extent", fmt::join(shape, "x")));
    if (e != 0 && count > std::numeric_limits<std::size_t>::max() / static_cast<std::size_t>(e) / element_bytes) {
      throw InvalidArgument(fmt::format("array shape {} of {}-byte elements overflows the address space",
                                        fmt::join(shape, "x"), element_bytes));
    }
    count *= static_cast<std::size_t>(e);
  }
  return count * element_bytes;
}

void throw_shape_mismatch(std::span<const index_t> expected, std::span<const index_t> got) {
  throw InvalidArgument(
      fmt::format("shape mismatch: expected {}, got {}", fmt::join(expected, "x"), fmt::join(got, "x")));
}

}  // namespace gpulab::detail
