#pragma once
// The shared-memory window of inline PTX (inline_ptx.hpp): 32-bit addresses for the running block's
// shared memory, as a GPU's .shared state space has. A block runs on one host thread, and that host
// thread's shared memory never moves: its dynamic shared memory buffer and its TLS blocks (where the
// static __shared__ arrays live). Each gets a range of the window, in that order from 0x1000, a page
// apart, each range keeping the low 12 bits of the generic addresses so that alignments read the same
// through either address.
#include <cstddef>
#include <cstdint>
#include <optional>

namespace gpulab::sim::ptx {

// The window address of `generic`, when it is this host thread's shared memory.
std::optional<std::uint32_t> find_window_address(const void* generic);
// The generic address of [window, window + bytes), when all of it is in one range of the window.
void* find_window_pointer(std::uint64_t window, std::size_t bytes);

}  // namespace gpulab::sim::ptx
