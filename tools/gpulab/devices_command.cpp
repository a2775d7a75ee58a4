// `gpulab devices`: Numba's cuda.gpus / nvidia-smi -L, for every device gpulab can use.
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "device_report.hpp"

namespace gpulab::cli {

void add_devices_command(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("devices", "List the devices: each CUDA GPU (cuda:N), the simulator (sim), the host (cpu)");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Print JSON (schema in docs/cli.md)");
  cmd->callback([json, &ctx] {
    const CudaStatus status = cuda_status();
    const std::vector<Device> all = devices();
    if (*json) {
      nlohmann::json out{{"cuda", cuda_status_json(status)}, {"devices", nlohmann::json::array()}};
      for (const Device& d : all) out["devices"].push_back(device_json(d));
      std::cout << out.dump(2) << "\n";
    } else {
      if (!status.usable()) std::cout << fmt::format("{:<8} no usable CUDA device: {}\n", "cuda", cuda_unavailable_reason(status));
      for (const Device& d : all) std::cout << describe_device_line(d) << "\n";
    }
    ctx.exit_code = 0;
  });
}

}  // namespace gpulab::cli
