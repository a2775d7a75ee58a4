// Step 4 of the guide: streams. The guide's example puts one copy in, one kernel and one copy out on one
// stream, in order, so nothing overlaps. Overlap needs three things it lacks: pinned host memory (a
// copy from pageable memory is not asynchronous), several streams, and the work split into pieces.
// Here C (and A) is split into row panels; panel p's copy in, product and copy out go on stream
// p mod K, so the copy in of one panel runs while the previous one computes.
//
//   ./04_streams [n] [streams]   (default 256 and 4)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

#include "guide_common.hpp"

int main(int argc, char** argv) {
  const int n = guide::size_from_args(argc, argv, 256);
  const int k_streams = argc > 2 ? std::clamp(std::atoi(argv[2]), 1, 32) : 4;
  const int panels = std::min(n, 2 * k_streams);
  const int rows_per_panel = (n + panels - 1) / panels;

  // Pinned host memory: cuda.pinned_array in Numba.
  gpulab::PinnedArray<float, 2> a(n, n), b(n, n), c(n, n);
  guide::fill_uniform(a, 2026, 0);
  guide::fill_uniform(b, 2026, 1);
  const gpulab::Device device = gpulab::default_device();
  auto d_a = gpulab::device_array<float>(device, n, n);
  auto d_b = gpulab::device_array<float>(device, n, n);
  auto d_c = gpulab::device_array<float>(device, n, n);
  const guide::MatmulKernel kernel("guide_naive_matmul");
  const gpulab::bench::MatmulReference<float> reference(a.cview(), b.cview());

  // The guide's version: everything in order on one stream.
  const gpulab::Stream one(device);
  gpulab::launch(kernel, guide::guide_launch(n, n, one), d_a.cview(), d_b.cview(), d_c.view());  // first call apart
  one.synchronize();
  gpulab::Event start(device), stop(device);
  start.record(one);
  d_a.copy_from(a, one);
  d_b.copy_from(b, one);
  gpulab::launch(kernel, guide::guide_launch(n, n, one), d_a.cview(), d_b.cview(), d_c.view());
  d_c.copy_to_host(c, one);
  stop.record(one);
  stop.synchronize();
  const double serial_ms = gpulab::elapsed_ms(start, stop);
  const auto v_serial = reference.check(c.cview(), gpulab::bench::ComputeType::float32);

  // The pipeline.
  std::fill(c.begin(), c.end(), std::numeric_limits<float>::quiet_NaN());
  std::vector<gpulab::Stream> streams;
  for (int s = 0; s < k_streams; ++s) streams.emplace_back(device);
  gpulab::Event b_ready(device);
  start.record(streams[0]);
  d_b.copy_from(b, streams[0]);  // every panel needs all of B
  b_ready.record(streams[0]);
  for (int s = 1; s < k_streams; ++s) streams[static_cast<std::size_t>(s)].wait(b_ready);
  for (int p = 0; p < panels; ++p) {
    const gpulab::Stream& st = streams[static_cast<std::size_t>(p % k_streams)];
    const int r0 = p * rows_per_panel, rows = std::min(rows_per_panel, n - r0);
    if (rows <= 0) break;
    const std::size_t offset = static_cast<std::size_t>(r0) * n, bytes = static_cast<std::size_t>(rows) * n * sizeof(float);
    gpulab::detail::copy_bytes(d_a.data() + offset, d_a.space(), a.data() + offset, gpulab::host_space, bytes, st);
    gpulab::launch(kernel, guide::guide_launch(rows, n, st), d_a.cview().block(r0, 0, rows, n), d_b.cview(),
                   d_c.view().block(r0, 0, rows, n));
    gpulab::detail::copy_bytes(c.data() + offset, gpulab::host_space, d_c.data() + offset, d_c.space(), bytes, st);
  }
  for (int s = 1; s < k_streams; ++s) {
    gpulab::Event done(device);
    done.record(streams[static_cast<std::size_t>(s)]);
    streams[0].wait(done);
  }
  stop.record(streams[0]);
  stop.synchronize();
  const double pipelined_ms = gpulab::elapsed_ms(start, stop);
  const auto v_pipe = reference.check(c.cview(), gpulab::bench::ComputeType::float32);

  std::printf("C = A * B, %dx%d float32 on %s%s\n\n", n, n, device.id().c_str(),
              device.is_sim() ? " (simulated: CPU time, not GPU performance)" : "");
  std::printf("one stream, in order (the guide):      %10.3f ms   %s\n", serial_ms, guide::describe(v_serial).c_str());
  std::printf("%d streams, %d row panels, pipelined:   %10.3f ms   %s\n", k_streams, panels, pipelined_ms,
              guide::describe(v_pipe).c_str());
  std::printf("\nend to end: %.2fx the one-stream time. `gpulab bench --streams %d` measures the parts and the overlap.\n",
              pipelined_ms / serial_ms, k_streams);
  return v_serial.passed && v_pipe.passed ? 0 : 1;
}
