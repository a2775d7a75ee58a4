// Peak arithmetic rates, for the table's "% of peak". The CPU's comes from gpulab::cpu::cpu_info (its
// FMA width, units and measured clock); a GPU's from its SM count, clock and the lanes per SM that its
// compute capability has (NVIDIA's architecture whitepapers).
#include <gpulab/bench/bench.hpp>
#include <gpulab/cpu/cpu_info.hpp>

namespace gpulab::bench {

namespace {

// Multiply-add lanes per SM per clock, or 0 where gpulab does not know the architecture.
int cuda_lanes_per_sm(int major, int minor, ComputeType type) {
  const int cc = major * 10 + minor;
  switch (type) {
    case ComputeType::float32:
      if (cc == 80) return 64;
      if (cc >= 86) return 128;  // 8.6, 8.7, 8.9, 9.0 and later
      if (cc >= 70) return 64;
      return 0;
    case ComputeType::float64:
      if (cc == 70 || cc == 80) return 32;
      if (cc == 90 || cc == 100) return 64;
      return cc >= 75 ? 2 : 0;  // consumer parts: 1/64 of FP32
    case ComputeType::int32:
      return cc >= 70 ? 64 : 0;
    case ComputeType::tf32:
      // Dense TF32 tensor-core multiply-adds per SM per clock: A100 (8.0) 512, H100/H200 (9.0) 1024.
      if (cc == 80) return 512;
      if (cc == 90) return 1024;
      return 0;
  }
  return 0;
}

}  // namespace

std::optional<double> device_peak_gflops(const Device& device, ComputeType type, int threads) {
  switch (device.kind()) {
    case DeviceKind::host: {
      const Dtype dtype = type == ComputeType::float64 ? Dtype::float64
                          : type == ComputeType::int32 ? Dtype::int32
                                                       : Dtype::float32;
      const double peak = cpu::cpu_info().peak_gflops(dtype, threads);
      if (peak > 0) return peak;
      return std::nullopt;
    }
    case DeviceKind::sim:
      return std::nullopt;
    case DeviceKind::cuda: {
      const DeviceProperties& p = device.properties();
      const int lanes = cuda_lanes_per_sm(p.compute_major, p.compute_minor, type);
      if (lanes == 0 || p.clock_khz <= 0 || p.multiprocessor_count <= 0) return std::nullopt;
      return 2.0 * lanes * p.multiprocessor_count * (p.clock_khz * 1e-6);
    }
  }
  return std::nullopt;
}

}  // namespace gpulab::bench
