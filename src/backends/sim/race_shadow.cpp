#include "backends/sim/race_shadow.hpp"

namespace gpulab::sim::detail {

RaceShadow::RaceShadow(unsigned char* dynamic, std::size_t capacity) {
  Range d;
  d.where = AddressRange{reinterpret_cast<std::uintptr_t>(dynamic), capacity};
  d.cells = std::make_unique<RaceCell[]>(capacity);
  d.dynamic = true;
  ranges_.push_back(std::move(d));
  for (const AddressRange& r : thread_tls_ranges()) {
    Range t;
    t.where = r;
    t.cells = std::make_unique<RaceCell[]>(r.bytes);
    ranges_.push_back(std::move(t));
  }
}

SharedLocation RaceShadow::locate(const void* p) noexcept {
  for (Range& r : ranges_) {
    if (r.where.contains(p)) {
      const std::size_t offset = reinterpret_cast<std::uintptr_t>(p) - r.where.begin;
      return SharedLocation{&r.cells[offset], r.dynamic, offset};
    }
  }
  return {};
}

bool RaceShadow::in_static_shared(const void* p) const noexcept {
  for (const Range& r : ranges_) {
    if (!r.dynamic && r.where.contains(p)) return true;
  }
  return false;
}

}  // namespace gpulab::sim::detail
