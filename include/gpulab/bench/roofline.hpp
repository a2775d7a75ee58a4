#pragma once
// What a simulator row's counts would cost on a named GPU (gpulab bench --profile): a roofline
// estimate, the longest of the time the arithmetic, the DRAM traffic and the L1/shared-memory traffic
// would each take at the GPU's peak rates. An estimate, labelled as one everywhere it is shown: it
// ignores latency, occupancy and overlap, so a real kernel takes at least this long, usually longer.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gpulab/dtype.hpp>

namespace gpulab::bench {

struct GpuSpec {
  std::string_view id;    // as --estimate-gpu names it: "h200"
  std::string_view name;  // "NVIDIA H200 SXM"
  double dram_gbps = 0;   // HBM bandwidth, GB/s
  double fp32_gflops = 0, fp64_gflops = 0, int32_gops = 0;  // CUDA cores (no tensor cores)
  double tf32_tensor_gflops = 0;  // dense, for reference: the ladder's rungs do not use tensor cores
  int multiprocessors = 0;
  double boost_ghz = 0;
  std::string_view sources;
  // L1 / shared memory: 128 bytes a clock per multiprocessor (32 banks of 4 bytes).
  double l1_gbps() const { return multiprocessors * 128.0 * boost_ghz; }
};

// Every GPU the estimate knows, and one by id (throws InvalidArgument naming the known ids).
const std::vector<GpuSpec>& gpu_specs();
const GpuSpec& find_gpu_spec(std::string_view id);

struct RooflineEstimate {
  std::string gpu;           // the spec's name
  double compute_ms = 0;     // flops at the dtype's CUDA-core peak
  double dram_ms = 0;        // dram__bytes_read + dram__bytes_write at the HBM bandwidth
  double l1_ms = 0;          // shared wavefronts x 128 + global sectors x 32 bytes at the L1 bandwidth
  double estimate_ms = 0;    // the longest of the three
  std::string bound;         // "compute", "DRAM" or "L1/shared"
  double gflops = 0;         // flops / estimate
};

// The estimate for `flops` of `dtype` with the profiler's metrics of one call.
RooflineEstimate roofline_estimate(const GpuSpec& gpu, double flops, Dtype dtype,
                                   const std::map<std::string, double>& metrics);

}  // namespace gpulab::bench
