#pragma once
// The simulator's CUB (../config.cuh): cub::DeviceHistogram, one channel: HistogramEven (num_levels - 1
// bins of equal width over [lower_level, upper_level)) and HistogramRange (bins between the given
// levels), as host tasks on the stream. Samples outside the levels count in no bin, as in CUB. Integer
// samples are binned in exact integer arithmetic, floating-point ones by (sample - lower) * bins /
// (upper - lower) in double.
#include <algorithm>
#include <cstddef>
#include <type_traits>

#include <cub/detail/device_algorithm.cuh>
#include <cub/util_type.cuh>

namespace cub {

struct DeviceHistogram {
  template <typename SampleIteratorT, typename CounterT, typename LevelT, typename OffsetT>
  static cudaError_t HistogramEven(void* d_temp_storage, std::size_t& temp_storage_bytes, SampleIteratorT d_samples,
                                   CounterT* d_histogram, int num_levels, LevelT lower_level, LevelT upper_level,
                                   OffsetT num_samples, cudaStream_t stream = 0) {
    const char* call = "cub::DeviceHistogram::HistogramEven";
    if (num_levels < 2) return refuse_levels(call, num_levels);
    detail::Regions regions;
    const std::size_t n = detail::count_of(num_samples);
    detail::add_region(regions, d_samples, n, "d_samples", false);
    detail::add_region(regions, d_histogram, static_cast<std::size_t>(num_levels - 1), "d_histogram", true);
    return detail::two_phase(call, d_temp_storage, temp_storage_bytes, 1, stream, std::move(regions), [=] {
      using Sample = detail::value_t<SampleIteratorT>;
      const long long bins = num_levels - 1;
      std::fill(d_histogram, d_histogram + bins, CounterT{0});
      for (std::size_t i = 0; i < n; ++i) {
        const Sample s = d_samples[i];
        if (!(s >= static_cast<Sample>(lower_level) && s < static_cast<Sample>(upper_level))) continue;
        long long bin;
        if constexpr (std::is_integral_v<Sample> && std::is_integral_v<LevelT>) {
          bin = static_cast<long long>((static_cast<__int128>(s) - lower_level) * bins /
                                       (static_cast<__int128>(upper_level) - lower_level));
        } else {
          bin = static_cast<long long>((static_cast<double>(s) - static_cast<double>(lower_level)) *
                                       static_cast<double>(bins) /
                                       (static_cast<double>(upper_level) - static_cast<double>(lower_level)));
        }
        ++d_histogram[std::min(bin, bins - 1)];
      }
    });
  }
  template <typename SampleIteratorT, typename CounterT, typename LevelT, typename OffsetT>
  static cudaError_t HistogramRange(void* d_temp_storage, std::size_t& temp_storage_bytes, SampleIteratorT d_samples,
                                    CounterT* d_histogram, int num_levels, const LevelT* d_levels, OffsetT num_samples,
                                    cudaStream_t stream = 0) {
    const char* call = "cub::DeviceHistogram::HistogramRange";
    if (num_levels < 2) return refuse_levels(call, num_levels);
    detail::Regions regions;
    const std::size_t n = detail::count_of(num_samples);
    detail::add_region(regions, d_samples, n, "d_samples", false);
    detail::add_region(regions, d_levels, static_cast<std::size_t>(num_levels), "d_levels", false);
    detail::add_region(regions, d_histogram, static_cast<std::size_t>(num_levels - 1), "d_histogram", true);
    return detail::two_phase(call, d_temp_storage, temp_storage_bytes, 1, stream, std::move(regions), [=] {
      using Sample = detail::value_t<SampleIteratorT>;
      const int bins = num_levels - 1;
      std::fill(d_histogram, d_histogram + bins, CounterT{0});
      for (std::size_t i = 0; i < n; ++i) {
        const Sample s = d_samples[i];
        // The bin b with levels[b] <= s < levels[b + 1].
        const LevelT* upper = std::upper_bound(d_levels, d_levels + num_levels, static_cast<LevelT>(s));
        const long long b = static_cast<long long>(upper - d_levels) - 1;
        if (b >= 0 && b < bins && static_cast<LevelT>(s) >= d_levels[0]) ++d_histogram[b];
      }
    });
  }

 private:
  static cudaError_t refuse_levels(const char* call, int num_levels) {
    return ::gpulab::sim::cub_support::refuse(
        call, cudaErrorInvalidValue, "num_levels = " + std::to_string(num_levels) + " is less than 2 (one bin)");
  }
};

}  // namespace cub
