#pragma once
// The gpulab command's subcommands. Each adds itself to the CLI11 app; its callback runs the command
// and stores the exit status in `ctx`. main() turns any escaping gpulab::Error into one line on stderr.
#include <CLI/CLI.hpp>

namespace gpulab::cli {

struct CommandContext {
  int exit_code = 0;
};

void add_devices_command(CLI::App& app, CommandContext& ctx);
void add_doctor_command(CLI::App& app, CommandContext& ctx);
void add_bench_command(CLI::App& app, CommandContext& ctx);

}  // namespace gpulab::cli
