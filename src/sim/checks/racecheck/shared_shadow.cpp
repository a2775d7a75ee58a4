#include "sim/checks/racecheck/shared_shadow.hpp"

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

RaceShadow::RaceShadow(unsigned char* dynamic, std::size_t capacity, Racecheck::ThreadState& hooks) : hooks_(hooks) {
  ranges_.push_back(make_range(AddressRange{reinterpret_cast<std::uintptr_t>(dynamic), capacity}, true));
  hooks_.dynamic_begin = ranges_[0].where.begin;
  hooks_.dynamic_bytes = ranges_[0].where.bytes;
  std::uintptr_t lo = 0, hi = 0;
  for (const AddressRange& r : thread_tls_ranges()) {
    ranges_.push_back(make_range(r, false));
    lo = lo == hi ? r.begin : std::min(lo, r.begin);
    hi = std::max(hi, r.begin + r.bytes);
  }
  hooks_.tls_begin = lo;
  hooks_.tls_bytes = hi - lo;
  publish_last();
}

void RaceShadow::set_dynamic_bytes(std::size_t bytes) noexcept {
  dynamic_bytes_ = std::min(bytes, ranges_[0].where.bytes);
  publish_last();
}

void RaceShadow::publish_last() noexcept {
  const Range& r = ranges_[last_];
  hooks_.shared_begin = r.where.begin;
  hooks_.shared_bytes = r.dynamic ? dynamic_bytes_ : r.where.bytes;
  hooks_.shared_words_begin = r.words_begin;
  hooks_.shared_cells_bias = reinterpret_cast<std::uintptr_t>(r.word_cells.get()) - r.words_begin * (sizeof(RaceCell) / 4);
  hooks_.shared_byte_mode = r.byte_mode.get();
}

std::uint64_t* RaceShadow::block_reads() {
  if (block_reads_.empty()) block_reads_.assign(block_read_slots, 0);
  return block_reads_.data();
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
    publish_last();
    return &ranges_[i];
  }
  return nullptr;
}

SharedLocation RaceShadow::locate(const void* p, std::size_t bytes) noexcept {
  Range* r = range_of(p, bytes);
  if (r == nullptr) return {};
  const std::size_t offset = reinterpret_cast<std::uintptr_t>(p) - r->where.begin;
  return SharedLocation{true, r->dynamic, offset};
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
    r->word_cells[w].read_state = 0;  // the hooks' read test must not pass the word cell any more
  }
  return RaceCells{&r->cells[a - r->where.begin], bytes, 1};
}

}  // namespace gpulab::sim::detail
