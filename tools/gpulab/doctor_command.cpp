// `gpulab doctor`: the guide's verification steps, each with its cause and fix in one line when it fails.
// Is a CUDA driver present, do driver and runtime fit, and can every device allocate, copy and run a
// tiny kernel whose result is checked? Exit 1 when any check fails.
#include <cmath>
#include <iostream>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <gpulab/array.hpp>
#include <gpulab/error.hpp>
#include <gpulab/launch.hpp>

#include "commands.hpp"
#include "device_report.hpp"

namespace gpulab::cli {

namespace {

struct Check {
  std::string name;
  bool ok = false;
  std::string detail;  // what was found
  std::string fix;     // what to do, when it failed
};

using ProbeKernel = Kernel<void(float, vector_view<const float>, vector_view<float>)>;

// Allocates, copies in, runs the probe kernel, copies out, and compares every element.
Check probe_device(const Device& device) {
  Check c{fmt::format("{} runs a kernel", device.id()), false, "", ""};
  try {
    constexpr int n = 1000;  // not a multiple of the block: the bounds check must hold
    HostArray<float> x(n), y(n);
    for (int i = 0; i < n; ++i) x[i] = 0.25f * static_cast<float>(i % 17) - 1.0f;
    auto dx = to_device(device, x);
    auto dy = device_array<float>(device, n);
    dy.fill(std::nanf(""));
    const ProbeKernel probe("doctor_probe");
    launch(probe, LaunchConfig{grid_for(n, 128), 128}, 3.0f, dx.view(), dy.view());
    dy.copy_to_host(y);
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
      if (y[i] != 3.0f * x[i] + static_cast<float>(i)) ++wrong;
    }
    if (wrong != 0) {
      c.detail = fmt::format("{} of {} results were wrong", wrong, n);
      c.fix = "report this with `gpulab devices --json` attached";
      return c;
    }
    c.ok = true;
    c.detail = fmt::format("allocated, copied and ran a kernel over {} elements; all correct", n);
  } catch (const Error& e) {
    c.detail = e.what();
    c.fix = device.is_cuda() ? "check the driver with nvidia-smi; run with GPULAB_LOG=debug for details"
                             : "run with GPULAB_LOG=debug for details";
  }
  return c;
}

std::vector<Check> run_checks() {
  std::vector<Check> checks;
  const CudaStatus s = cuda_status();
  if (!s.built_with_cuda) {
    checks.push_back({"CUDA backend built", false, "gpulab was built without the CUDA backend",
                      "install the CUDA toolkit and configure with -DGPULAB_CUDA=ON"});
  } else {
    checks.push_back({"CUDA driver present", s.driver_version > 0,
                      s.driver_version > 0 ? fmt::format("driver supports CUDA {}", format_cuda_version(s.driver_version))
                                           : fmt::format("cudaDriverGetVersion gives 0: no driver ({}{})", s.error_name,
                                                         s.error_text.empty() ? "" : ": " + s.error_text),
                      s.driver_version > 0 ? "" : "install the NVIDIA driver (nvidia-smi must work), or use --device sim"});
    const bool fits = s.driver_version >= s.runtime_version && s.driver_version > 0;
    checks.push_back({"driver and runtime versions fit", fits,
                      s.driver_version == 0 ? fmt::format("runtime CUDA {}, and no driver to run it",
                                                          format_cuda_version(s.runtime_version))
                                            : fmt::format("driver CUDA {}, runtime CUDA {}",
                                                          format_cuda_version(s.driver_version),
                                                          format_cuda_version(s.runtime_version)),
                      fits ? "" : fmt::format("install a driver that supports CUDA {} or newer", format_cuda_version(s.runtime_version))});
    checks.push_back({"CUDA devices visible", s.usable(),
                      s.usable() ? fmt::format("{} device(s)", s.device_count) : cuda_unavailable_reason(s),
                      s.usable()                ? ""
                      : s.driver_version == 0 ? "install the NVIDIA driver; until then use --device sim"
                                              : "check CUDA_VISIBLE_DEVICES and that nvidia-smi lists the GPU"});
  }
  for (const Device& d : devices()) {
    if (!d.is_host()) checks.push_back(probe_device(d));
  }
  return checks;
}

}  // namespace

void add_doctor_command(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("doctor", "Check the driver, the runtime and every device; exit 1 if a check fails");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Print JSON (schema in docs/cli.md)");
  cmd->callback([json, &ctx] {
    const std::vector<Check> checks = run_checks();
    bool all_ok = true;
    for (const Check& c : checks) all_ok = all_ok && c.ok;
    if (*json) {
      nlohmann::json out{{"ok", all_ok}, {"cuda", cuda_status_json(cuda_status())}, {"checks", nlohmann::json::array()}};
      for (const Check& c : checks) {
        out["checks"].push_back({{"name", c.name}, {"ok", c.ok}, {"detail", c.detail},
                                 {"fix", c.ok ? nlohmann::json(nullptr) : nlohmann::json(c.fix)}});
      }
      std::cout << out.dump(2) << "\n";
    } else {
      for (const Check& c : checks) {
        std::cout << fmt::format("[{}] {}: {}", c.ok ? " ok " : "FAIL", c.name, c.detail);
        if (!c.ok) std::cout << fmt::format(" -- fix: {}", c.fix);
        std::cout << "\n";
      }
      std::cout << (all_ok ? "all checks passed\n" : "some checks failed\n");
    }
    ctx.exit_code = all_ok ? 0 : 1;
  });
}

}  // namespace gpulab::cli
