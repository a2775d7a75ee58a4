#include <gpulab/bench/roofline.hpp>

#include <algorithm>

#include <fmt/format.h>

#include <gpulab/error.hpp>
#include <gpulab/sim/profile.hpp>

namespace gpulab::bench {

// The vendor's figures (SXM parts, boost clock, dense rates). Hopper's INT32 rate is half its FP32 rate
// (64 INT32 against 128 FP32 lanes a multiprocessor), Ampere's the same.
const std::vector<GpuSpec>& gpu_specs() {
  static const std::vector<GpuSpec> specs = {
      {"h200", "NVIDIA H200 SXM", 4800, 67000, 34000, 33500, 494700, 132, 1.98,
       "NVIDIA H200 Tensor Core GPU datasheet (HBM3e 4.8 TB/s, FP32 67 TFLOPS, FP64 34 TFLOPS, TF32 989 TFLOPS "
       "with sparsity); NVIDIA H100 Tensor Core GPU Architecture whitepaper (the same GH100: 132 SMs at 1980 MHz "
       "boost, 128 FP32 and 64 INT32 lanes per SM)"},
      {"h100", "NVIDIA H100 SXM5", 3350, 67000, 34000, 33500, 494700, 132, 1.98,
       "NVIDIA H100 Tensor Core GPU datasheet (HBM3 3.35 TB/s, FP32 67 TFLOPS, FP64 34 TFLOPS); H100 architecture "
       "whitepaper (132 SMs, 1980 MHz boost)"},
      {"a100", "NVIDIA A100 SXM4 80GB", 2039, 19500, 9700, 9750, 156000, 108, 1.41,
       "NVIDIA A100 Tensor Core GPU datasheet (HBM2e 2039 GB/s, FP32 19.5 TFLOPS, FP64 9.7 TFLOPS, TF32 156 "
       "TFLOPS); A100 architecture whitepaper (108 SMs, 1410 MHz boost)"},
  };
  return specs;
}

const GpuSpec& find_gpu_spec(std::string_view id) {
  std::string known;
  for (const GpuSpec& g : gpu_specs()) {
    if (g.id == id) return g;
    known += known.empty() ? "" : ", ";
    known += g.id;
  }
  throw InvalidArgument(fmt::format("--estimate-gpu {}: unknown GPU; known: {}", id, known));
}

RooflineEstimate roofline_estimate(const GpuSpec& gpu, double flops, Dtype dtype,
                                   const std::map<std::string, double>& metrics) {
  RooflineEstimate e;
  e.gpu = std::string(gpu.name);
  const double peak = dtype == Dtype::float64 ? gpu.fp64_gflops : dtype == Dtype::int32 ? gpu.int32_gops : gpu.fp32_gflops;
  e.compute_ms = flops / (peak * 1e6);
  const double dram = sim::metric_or_zero(metrics, "dram__bytes_read.sum") + sim::metric_or_zero(metrics, "dram__bytes_write.sum");
  e.dram_ms = dram / (gpu.dram_gbps * 1e6);
  double l1 = 0;
  for (const char* op : {"ld", "st"}) {
    l1 += 128.0 * sim::metric_or_zero(metrics, fmt::format("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{}.sum", op));
  }
  for (const char* op : {"ld", "st", "atom"}) {
    l1 += 32.0 * sim::metric_or_zero(metrics, fmt::format("l1tex__t_sectors_pipe_lsu_mem_global_op_{}.sum", op));
  }
  e.l1_ms = l1 / (gpu.l1_gbps() * 1e6);
  e.estimate_ms = std::max({e.compute_ms, e.dram_ms, e.l1_ms});
  e.bound = e.estimate_ms == e.compute_ms ? "compute" : e.estimate_ms == e.dram_ms ? "DRAM" : "L1/shared";
  e.gflops = e.estimate_ms > 0 ? flops / (e.estimate_ms * 1e6) : 0;
  return e;
}

}  // namespace gpulab::bench
