#include "sim/profiler/l2_model.hpp"

#include <algorithm>

namespace gpulab::sim::detail {

L2Model::L2Model(std::size_t bytes)
    : sets_(std::max<std::size_t>(1, bytes / 32 / ways)), set_(std::make_unique<Set[]>(sets_)) {
  for (std::size_t i = 0; i < sets_; ++i) set_[i].generation = 0;
}

void L2Model::start_over() noexcept {
  ++generation_;
  if (generation_ == 0) {  // wrapped: clear for real, once in four billion launches
    for (std::size_t i = 0; i < sets_; ++i) set_[i].generation = 0;
    generation_ = 1;
  }
  clock_ = 0;
  dirty_ = 0;
  read_sectors_ = 0;
  written_sectors_ = 0;
}

std::size_t L2Model::set_of(std::uint64_t sector) const noexcept {
  // A GPU hashes addresses over its L2 slices, so that strides do not pile into a few sets; a
  // multiplicative hash, mapped onto the sets without a division.
  const std::uint64_t h = (sector * 0x9E3779B97F4A7C15ull) >> 32;
  return static_cast<std::size_t>((h * sets_) >> 32);
}

void L2Model::access(std::uint64_t sector, bool read, bool write) noexcept {
  Set& s = set_[set_of(sector)];
  if (s.generation != generation_) {
    std::fill(std::begin(s.tag), std::end(s.tag), 0);
    s.dirty = 0;
    s.generation = generation_;
  }
  const std::uint64_t tag = sector + 1;
  ++clock_;
  unsigned victim = 0;
  for (unsigned w = 0; w < ways; ++w) {
    if (s.tag[w] == tag) {
      s.stamp[w] = clock_;
      if (write && (s.dirty & (1u << w)) == 0) {
        s.dirty |= 1u << w;
        ++dirty_;
      }
      return;
    }
    if (s.tag[victim] != 0 && (s.tag[w] == 0 || s.stamp[w] < s.stamp[victim])) victim = w;
  }
  // A miss: the way is empty or the least recently used; a dirty one is written back first.
  if (s.tag[victim] != 0 && (s.dirty & (1u << victim)) != 0) {
    ++written_sectors_;
    --dirty_;
  }
  s.tag[victim] = tag;
  s.stamp[victim] = clock_;
  s.dirty &= ~(1u << victim);
  if (read) ++read_sectors_;  // a store allocates without reading (the GPU keeps byte masks)
  if (write) {
    s.dirty |= 1u << victim;
    ++dirty_;
  }
}

}  // namespace gpulab::sim::detail
