// The gpulab command as a user runs it. On a machine without a CUDA driver (these machines, CI), the
// no-driver path is real: `devices` says why and exits 0, `doctor` fails its driver check with exit 1.
#include <gpulab/device.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace {

struct CliResult {
  int exit_code = -1;
  std::string out;
};

CliResult run_cli(const std::string& args) {
  const std::string cmd = std::string(GPULAB_CLI_PATH) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  CliResult r;
  if (p == nullptr) return r;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(Cli, DevicesListsTheHostAndSaysWhyCudaIsMissing) {
  const CliResult r = run_cli("devices");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "cpu ")) << r.out;
  const gpulab::CudaStatus s = gpulab::cuda_status();
  if (!s.usable()) {
    EXPECT_TRUE(contains(r.out, "no usable CUDA device")) << r.out;
    if (s.built_with_cuda) {
      EXPECT_TRUE(contains(r.out, s.error_name)) << r.out;
    }
  } else {
    EXPECT_TRUE(contains(r.out, "cuda:0")) << r.out;
  }
}

TEST(Cli, DevicesJsonFollowsTheSchema) {
  const CliResult r = run_cli("devices --json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.contains("cuda"));
  ASSERT_TRUE(j.contains("devices"));
  bool has_cpu = false;
  for (const auto& d : j["devices"]) {
    EXPECT_TRUE(d.contains("id"));
    EXPECT_TRUE(d.contains("name"));
    has_cpu = has_cpu || d["id"] == "cpu";
  }
  EXPECT_TRUE(has_cpu);
  EXPECT_EQ(j["cuda"]["usable"].get<bool>(), gpulab::cuda_status().usable());
}

TEST(Cli, DoctorFailsTheDriverCheckWithoutADriver) {
  const CliResult r = run_cli("doctor --json");
  const auto j = nlohmann::json::parse(r.out);
  const gpulab::CudaStatus s = gpulab::cuda_status();
  if (s.usable()) {
    EXPECT_EQ(r.exit_code, j["ok"].get<bool>() ? 0 : 1);
    return;
  }
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_FALSE(j["ok"].get<bool>());
  bool named_the_cause = false;
  for (const auto& c : j["checks"]) {
    if (!c["ok"].get<bool>()) {
      EXPECT_TRUE(c["fix"].is_string()) << c.dump();
      named_the_cause = named_the_cause || contains(c["detail"].get<std::string>(), s.built_with_cuda ? s.error_name : "without the CUDA backend");
    }
  }
  EXPECT_TRUE(named_the_cause) << r.out;
}

TEST(Cli, VersionNamesTheRuntimeItWasBuiltWith) {
  const CliResult r = run_cli("--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(contains(r.out, "gpulab ")) << r.out;
  EXPECT_TRUE(contains(r.out, "commit")) << r.out;
  EXPECT_TRUE(contains(r.out, "CUDA runtime")) << r.out;
}

TEST(Cli, BadOptionsAreOneLineAndExitTwo) {
  const CliResult r = run_cli("devices --no-such-option");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "error")) << r.out;
  const CliResult none = run_cli("");
  EXPECT_EQ(none.exit_code, 2) << none.out;
  const CliResult help = run_cli("--help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(contains(help.out, "devices"));
}

}  // namespace
