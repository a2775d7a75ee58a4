// Batched, strided, multi-dimensional transforms (cuFFT's advanced layout) by 1-D transforms along
// each dimension: the last dimension first, from the input to the output (real-to-complex there for
// r2c), then every other dimension in place on the output. c2r runs the other way round, through a
// packed copy of each complex array, so that its input is never written.
#include <algorithm>
#include <functional>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <gpulab/error.hpp>

#include "cpu/fft/fft_internal.hpp"

namespace gpulab::cpu::fft {

namespace {

std::size_t product(const std::vector<std::size_t>& v) {
  std::size_t p = 1;
  for (auto e : v) p *= e;
  return p;
}

// Element pitches of a layout's dimensions: pitch[d-1] = stride, pitch[k] = pitch[k+1] * embed[k+1].
std::vector<std::ptrdiff_t> pitches(const Layout& layout) {
  const std::size_t d = layout.embed.size();
  std::vector<std::ptrdiff_t> p(d);
  std::ptrdiff_t pitch = layout.stride;
  for (std::size_t k = d; k-- > 0;) {
    p[k] = pitch;
    pitch *= static_cast<std::ptrdiff_t>(layout.embed[k]);
  }
  return p;
}

// Calls f(offset) for every line along `axis` of an array of `extents`: each multi-index whose entry
// at `axis` is 0, as the offset sum_k i_k pitch_k.
template <class F>
void for_each_line(const std::vector<std::size_t>& extents, const std::vector<std::ptrdiff_t>& pitch,
                   std::size_t axis, F&& f) {
  const std::size_t d = extents.size();
  std::vector<std::size_t> index(d, 0);
  std::ptrdiff_t offset = 0;
  for (;;) {
    f(offset);
    std::size_t k = d;
    for (;;) {  // the odometer, skipping `axis`
      if (k == 0) return;
      --k;
      if (k == axis) continue;
      if (++index[k] < extents[k]) {
        offset += pitch[k];
        break;
      }
      offset -= static_cast<std::ptrdiff_t>(index[k] - 1) * pitch[k];
      index[k] = 0;
    }
  }
}

void check_layout(const char* side, const Layout& layout, const std::vector<std::size_t>& extents) {
  if (layout.embed.size() != extents.size()) {
    throw InvalidArgument(fmt::format("fft: the {} layout has {} embed extents for {} dimensions", side,
                                      layout.embed.size(), extents.size()));
  }
  for (std::size_t k = 1; k < extents.size(); ++k) {
    if (layout.embed[k] < extents[k]) {
      throw InvalidArgument(fmt::format("fft: the {} layout's embed[{}] = {} is less than the extent {}", side, k,
                                        layout.embed[k], extents[k]));
    }
  }
  if (layout.stride < 1 || layout.distance < 0) {
    throw InvalidArgument(fmt::format("fft: the {} layout's stride {} and distance {} must be >= 1 and >= 0", side,
                                      layout.stride, layout.distance));
  }
}

}  // namespace

Layout Layout::packed(const std::vector<std::size_t>& extents) {
  return Layout{extents, 1, static_cast<std::ptrdiff_t>(product(extents))};
}

std::vector<std::size_t> complex_shape(std::vector<std::size_t> shape) {
  if (!shape.empty()) shape.back() = shape.back() / 2 + 1;
  return shape;
}

template <class T>
struct ManyPlan<T>::Impl {
  std::vector<std::size_t> shape;
  Kind kind = Kind::c2c;
  Layout in, out;
  std::size_t batch = 1;
  std::vector<std::size_t> spectrum;  // the extents of the complex side (c2c: the shape)
  std::vector<std::ptrdiff_t> in_pitch, out_pitch, packed_pitch;
  std::vector<std::optional<Plan<T>>> axes;  // the complex transform along each dimension that has one
  std::optional<RealPlan<T>> real;           // along the last dimension (r2c, c2r)
  std::size_t work = 0;                      // of the 1-D transforms
  std::size_t temp = 0;                      // c2r in 2 or more dimensions: the packed copy

  // In place along every dimension but the last of the complex arrays at `base` (pitches `pitch`).
  void leading_axes(std::complex<T>* base, const std::vector<std::ptrdiff_t>& pitch, Direction direction,
                    std::complex<T>* w) const {
    for (std::size_t a = shape.size() - 1; a-- > 0;) {
      const Plan<T>& plan = *axes[a];
      for_each_line(spectrum, pitch, a,
                    [&](std::ptrdiff_t off) { plan.execute(base + off, pitch[a], base + off, pitch[a], direction, w); });
    }
  }
};

template <class T>
ManyPlan<T>::ManyPlan(std::vector<std::size_t> shape, Kind kind, Layout in, Layout out, std::size_t batch)
    : impl_(std::make_unique<Impl>()) {
  Impl& p = *impl_;
  if (shape.empty() || std::find(shape.begin(), shape.end(), std::size_t{0}) != shape.end()) {
    throw InvalidArgument(fmt::format("fft: a transform's shape [{}] needs 1 or more extents, each at least 1",
                                      fmt::join(shape, ", ")));
  }
  if (batch == 0) throw InvalidArgument("fft: a batch holds at least 1 transform");
  const std::size_t d = shape.size();
  p.shape = shape;
  p.kind = kind;
  p.batch = batch;
  p.spectrum = kind == Kind::c2c ? shape : complex_shape(shape);
  const auto& in_extents = kind == Kind::c2r ? p.spectrum : shape;
  const auto& out_extents = kind == Kind::r2c ? p.spectrum : shape;
  check_layout("input", in, in_extents);
  check_layout("output", out, out_extents);
  p.in = std::move(in);
  p.out = std::move(out);
  p.in_pitch = pitches(p.in);
  p.out_pitch = pitches(p.out);
  p.packed_pitch = pitches(Layout::packed(p.spectrum));
  p.axes.resize(d);
  for (std::size_t a = 0; a + 1 < d; ++a) {
    p.axes[a].emplace(shape[a]);
    p.work = std::max(p.work, p.axes[a]->work_size());
  }
  if (kind == Kind::c2c) {
    p.axes[d - 1].emplace(shape[d - 1]);
    p.work = std::max(p.work, p.axes[d - 1]->work_size());
  } else {
    p.real.emplace(shape[d - 1]);
    p.work = std::max(p.work, p.real->work_size());
  }
  if (kind == Kind::c2r && d > 1) p.temp = product(p.spectrum);
}

template <class T>
ManyPlan<T>::~ManyPlan() = default;
template <class T>
ManyPlan<T>::ManyPlan(ManyPlan&&) noexcept = default;
template <class T>
ManyPlan<T>& ManyPlan<T>::operator=(ManyPlan&&) noexcept = default;

template <class T>
const std::vector<std::size_t>& ManyPlan<T>::shape() const noexcept {
  return impl_->shape;
}
template <class T>
Kind ManyPlan<T>::kind() const noexcept {
  return impl_->kind;
}
template <class T>
std::size_t ManyPlan<T>::batch() const noexcept {
  return impl_->batch;
}
template <class T>
std::size_t ManyPlan<T>::work_size() const noexcept {
  return impl_->work + impl_->temp;
}

namespace {
const char* kind_name(Kind k) { return k == Kind::c2c ? "c2c" : k == Kind::r2c ? "r2c" : "c2r"; }

void require_kind(Kind plan, Kind call) {
  if (plan != call) {
    throw InvalidArgument(fmt::format("fft: a {} plan executed as {}", kind_name(plan), kind_name(call)));
  }
}

// The work area: the caller's, else one made for the call.
template <class T>
std::complex<T>* work_area(std::complex<T>* given, std::size_t size, std::vector<std::complex<T>>& own) {
  if (given != nullptr) return given;
  own.resize(size);
  return own.data();
}
}  // namespace

template <class T>
void ManyPlan<T>::execute(const std::complex<T>* in, std::complex<T>* out, Direction direction,
                          std::complex<T>* work) const {
  const Impl& p = *impl_;
  require_kind(p.kind, Kind::c2c);
  std::vector<std::complex<T>> own;
  std::complex<T>* w = work_area(work, work_size(), own);
  const std::size_t last = p.shape.size() - 1;
  const Plan<T>& plan = *p.axes[last];
  for (std::size_t b = 0; b < p.batch; ++b) {
    const std::complex<T>* src = in + static_cast<std::ptrdiff_t>(b) * p.in.distance;
    std::complex<T>* dst = out + static_cast<std::ptrdiff_t>(b) * p.out.distance;
    // The rows of the input and of the output are walked in step: both odometers visit the same indices.
    std::vector<std::ptrdiff_t> in_offsets;
    for_each_line(p.shape, p.in_pitch, last, [&](std::ptrdiff_t off) { in_offsets.push_back(off); });
    std::size_t row = 0;
    for_each_line(p.shape, p.out_pitch, last, [&](std::ptrdiff_t off) {
      plan.execute(src + in_offsets[row++], p.in.stride, dst + off, p.out.stride, direction, w);
    });
    p.leading_axes(dst, p.out_pitch, direction, w);
  }
}

template <class T>
void ManyPlan<T>::execute(const T* in, std::complex<T>* out, std::complex<T>* work) const {
  const Impl& p = *impl_;
  require_kind(p.kind, Kind::r2c);
  std::vector<std::complex<T>> own;
  std::complex<T>* w = work_area(work, work_size(), own);
  const std::size_t last = p.shape.size() - 1;
  for (std::size_t b = 0; b < p.batch; ++b) {
    const T* src = in + static_cast<std::ptrdiff_t>(b) * p.in.distance;
    std::complex<T>* dst = out + static_cast<std::ptrdiff_t>(b) * p.out.distance;
    std::vector<std::ptrdiff_t> in_offsets;
    for_each_line(p.shape, p.in_pitch, last, [&](std::ptrdiff_t off) { in_offsets.push_back(off); });
    std::size_t row = 0;
    for_each_line(p.spectrum, p.out_pitch, last, [&](std::ptrdiff_t off) {
      p.real->forward(src + in_offsets[row++], p.in.stride, dst + off, p.out.stride, w);
    });
    p.leading_axes(dst, p.out_pitch, Direction::forward, w);
  }
}

template <class T>
void ManyPlan<T>::execute(const std::complex<T>* in, T* out, std::complex<T>* work) const {
  const Impl& p = *impl_;
  require_kind(p.kind, Kind::c2r);
  std::vector<std::complex<T>> own;
  std::complex<T>* w = work_area(work, work_size(), own);
  std::complex<T>* temp = w + p.work;
  const std::size_t last = p.shape.size() - 1;
  const std::size_t row_length = p.spectrum[last];
  for (std::size_t b = 0; b < p.batch; ++b) {
    const std::complex<T>* src = in + static_cast<std::ptrdiff_t>(b) * p.in.distance;
    T* dst = out + static_cast<std::ptrdiff_t>(b) * p.out.distance;
    if (last == 0) {
      p.real->inverse(src, p.in.stride, dst, p.out.stride, w);
      continue;
    }
    // A packed copy of the array, transformed in place along the leading dimensions, then row by row
    // to the reals.
    std::vector<std::ptrdiff_t> packed_offsets;
    for_each_line(p.spectrum, p.packed_pitch, last, [&](std::ptrdiff_t off) { packed_offsets.push_back(off); });
    std::size_t row = 0;
    for_each_line(p.spectrum, p.in_pitch, last, [&](std::ptrdiff_t off) {
      std::complex<T>* t = temp + packed_offsets[row++];
      for (std::size_t k = 0; k < row_length; ++k) t[k] = src[off + static_cast<std::ptrdiff_t>(k) * p.in.stride];
    });
    p.leading_axes(temp, p.packed_pitch, Direction::inverse, w);
    row = 0;
    for_each_line(p.shape, p.out_pitch, last, [&](std::ptrdiff_t off) {
      p.real->inverse(temp + packed_offsets[row++], 1, dst + off, p.out.stride, w);
    });
  }
}

template class ManyPlan<float>;
template class ManyPlan<double>;

}  // namespace gpulab::cpu::fft
