#include <gpulab/gpulab.hpp>

#include <cstdio>

int main() {
  const gpulab::Device device = gpulab::default_device();
  gpulab::HostArray<float> h(777);
  for (int i = 0; i < 777; ++i) h[i] = static_cast<float>(i % 13) - 6.0f;
  auto d = gpulab::to_device(device, h);
  const gpulab::Kernel<void(float, gpulab::vector_view<float>)> scale("consumer_scale");
  gpulab::launch(scale, {gpulab::grid_for(777, 64), 64}, 2.0f, d.view());
  auto out = d.copy_to_host();
  for (int i = 0; i < 777; ++i) {
    if (out[i] != 2.0f * h[i] + 1.0f) {
      std::printf("consumer: element %d is %g, expected %g\n", i, out[i], 2.0f * h[i] + 1.0f);
      return 1;
    }
  }
  std::printf("consumer: ran consumer_scale on %s, all 777 results right\n", device.id().c_str());
  return 0;
}
