#include "backends/sim/race_shadow.hpp"

#include <algorithm>

namespace gpulab::sim::detail {

RaceShadow::Range RaceShadow::make_range(AddressRange where, bool dynamic) {
  Range r;
  r.where = where;
  r.cells = std::make_unique<RaceCell[]>(where.bytes);
  r.words_begin = where.begin & ~std::uintptr_t{3};
  const std::size_t words = (where.begin + where.bytes - r.words_begin + 3) / 4;
  r.word_cells = std::make_unique<RaceCell[]>(words);
  r.byte_mode = std::make_unique<std::uint32_t[]>(words);  // zeros: no interval is 0
  r.dynamic = dynamic;
  return r;
}

RaceShadow::RaceShadow(unsigned char* dynamic, std::size_t capacity) {
  ranges_.push_back(make_range(AddressRange{reinterpret_cast<std::uintptr_t>(dynamic), capacity}, true));
  for (const AddressRange& r : thread_tls_ranges()) ranges_.push_back(make_range(r, false));
}

RaceShadow::Range* RaceShadow::range_of(const void* p, std::size_t bytes) noexcept {
  const auto inside = [p, bytes](const Range& r) {
    const std::size_t offset = reinterpret_cast<std::uintptr_t>(p) - r.where.begin;
    return offset < r.where.bytes && bytes <= r.where.bytes - offset;
  };
  if (inside(ranges_[last_])) return &ranges_[last_];
  for (std::size_t i = 0; i < ranges_.size(); ++i) {
    if (!ranges_[i].where.contains(p)) continue;
    if (!inside(ranges_[i])) return nullptr;  // runs off the end: not an access to one shared object
    last_ = i;
    return &ranges_[i];
  }
  return nullptr;
}

SharedLocation RaceShadow::locate(const void* p, std::size_t bytes) noexcept {
  Range* r = range_of(p, bytes);
  if (r == nullptr) return {};
  const std::size_t offset = reinterpret_cast<std::uintptr_t>(p) - r->where.begin;
  return SharedLocation{&r->cells[offset], r->dynamic, offset};
}

void RaceShadow::publish_words(const void* p, HostThreadState& to) noexcept {
  Range* r = range_of(p, 1);
  if (r == nullptr) return;
  to.shared_begin = r->where.begin;
  to.shared_bytes = r->where.bytes;
  to.shared_words_begin = r->words_begin;
  to.shared_word_cells = r->word_cells.get();
  to.shared_byte_mode = r->byte_mode.get();
}

void RaceShadow::publish_ranges(HostThreadState& to) const noexcept {
  std::uintptr_t lo = 0, hi = 0;
  for (const Range& r : ranges_) {
    if (r.dynamic) {
      to.race_dynamic_begin = r.where.begin;
      to.race_dynamic_bytes = r.where.bytes;
    } else if (lo == hi) {
      lo = r.where.begin;
      hi = r.where.begin + r.where.bytes;
    } else {
      lo = std::min(lo, r.where.begin);
      hi = std::max(hi, r.where.begin + r.where.bytes);
    }
  }
  to.race_tls_begin = lo;
  to.race_tls_bytes = hi - lo;
}

RaceCells RaceShadow::cells_for(const void* p, std::size_t bytes, std::uint32_t epoch) noexcept {
  Range* r = range_of(p, bytes);
  if (r == nullptr || bytes == 0) return {};
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const std::size_t first = (a - r->words_begin) / 4, last = (a + bytes - 1 - r->words_begin) / 4;
  if (a % 4 == 0 && bytes % 4 == 0) {
    bool whole = true;
    for (std::size_t w = first; w <= last && whole; ++w) whole = r->byte_mode[w] != epoch;
    if (whole) return RaceCells{&r->word_cells[first], bytes / 4, 4};
  }
  // Bytes from now on, for this interval: each word's state so far applies to each of its bytes.
  for (std::size_t w = first; w <= last; ++w) {
    if (r->byte_mode[w] == epoch) continue;
    r->byte_mode[w] = epoch;
    const std::uintptr_t word = r->words_begin + 4 * w;
    for (std::uintptr_t b = std::max(word, r->where.begin); b < std::min(word + 4, r->where.begin + r->where.bytes); ++b) {
      r->cells[b - r->where.begin] = r->word_cells[w];
    }
  }
  return RaceCells{&r->cells[a - r->where.begin], bytes, 1};
}

bool RaceShadow::in_static_shared(const void* p) const noexcept {
  for (const Range& r : ranges_) {
    if (!r.dynamic && r.where.contains(p)) return true;
  }
  return false;
}

}  // namespace gpulab::sim::detail
