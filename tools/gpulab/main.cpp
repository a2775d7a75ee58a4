// The gpulab command: devices, doctor, bench. An error is one line on stderr and a non-zero exit:
// 2 for a bad option or value, 1 for a failure while running.
#include <cstdio>
#include <exception>

#include <fmt/format.h>

#include <gpulab/device.hpp>
#include <gpulab/error.hpp>
#include <gpulab/version.hpp>

#include "commands.hpp"

namespace {

std::string version_text() {
  const gpulab::VersionInfo v = gpulab::version_info();
  return fmt::format("gpulab {} (commit {}), built with CUDA runtime {}, {}", v.version, v.commit,
                     v.cuda_runtime_built ? gpulab::format_cuda_version(v.cuda_runtime_built) : "none (CUDA off)",
                     v.compiler);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"gpulab: write a GPU kernel once, run it on CUDA or on the CPU simulator, check it, measure it"};
  app.set_version_flag("--version", version_text());
  app.require_subcommand(1);
  gpulab::cli::CommandContext ctx;
  gpulab::cli::add_devices_command(app, ctx);
  gpulab::cli::add_doctor_command(app, ctx);
  gpulab::cli::add_bench_command(app, ctx);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "gpulab: error: %s (see gpulab --help)\n", e.what());
    return 2;
  } catch (const gpulab::InvalidArgument& e) {
    std::fprintf(stderr, "gpulab: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpulab: error: %s\n", e.what());
    return 1;
  }
  return ctx.exit_code;
}
