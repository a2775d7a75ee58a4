#pragma once
// The profiler's model of a GPU's L2 cache, which says how many bytes a kernel reads from and writes to
// DRAM: the simulated device's L2 size in 32-byte sectors, 16-way set-associative, least recently used
// out first, written back (a store marks its sector dirty without reading it; a dirty sector costs a
// DRAM write when it leaves, or at the kernel's end). Each launch starts cold, as Nsight Compute's
// `--cache-control all` makes it; the sets are cleared lazily, by generation, so that starting over
// costs nothing however large the cache.
#include <cstddef>
#include <cstdint>
#include <memory>

namespace gpulab::sim::detail {

class L2Model {
 public:
  static constexpr unsigned ways = 16;

  explicit L2Model(std::size_t bytes);

  // Empties the cache (a new launch) and its counts.
  void start_over() noexcept;
  // One access to sector `sector` (address / 32): a load, a store, or both (an atomic).
  void access(std::uint64_t sector, bool read, bool write) noexcept;
  // The dirty sectors still held, written back at the kernel's end.
  std::uint64_t dirty_sectors() const noexcept { return dirty_; }

  std::uint64_t dram_read_bytes() const noexcept { return read_sectors_ * 32; }
  std::uint64_t dram_write_bytes() const noexcept { return written_sectors_ * 32; }
  std::size_t bytes() const noexcept { return sets_ * ways * 32; }

 private:
  struct Set {
    std::uint64_t tag[ways];    // sector + 1, 0 when empty
    std::uint64_t stamp[ways];  // the clock at the last use
    std::uint32_t dirty = 0;    // a bit per way
    std::uint32_t generation = 0;
  };
  std::size_t set_of(std::uint64_t sector) const noexcept;

  std::size_t sets_;
  std::unique_ptr<Set[]> set_;
  std::uint32_t generation_ = 1;
  std::uint64_t clock_ = 0;
  std::uint64_t dirty_ = 0;
  std::uint64_t read_sectors_ = 0;
  std::uint64_t written_sectors_ = 0;
};

}  // namespace gpulab::sim::detail
