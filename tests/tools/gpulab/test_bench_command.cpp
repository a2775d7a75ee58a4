// `gpulab bench` as a user runs it: a bad option or value is one line on stderr and exit status 2,
// with nothing on stdout; a good run prints only the report on stdout.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/wait.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

struct CliRun {
  int status = -1;
  std::string out, err;
};

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

CliRun run_gpulab(const std::string& args) {
  const auto dir = std::filesystem::temp_directory_path();
  const auto tag = std::to_string(::getpid()) + "_" + std::to_string(std::rand());
  const auto out = dir / ("gpulab_bench_out_" + tag), err = dir / ("gpulab_bench_err_" + tag);
  const std::string cmd = std::string("'") + GPULAB_CLI_PATH + "' bench " + args + " >'" + out.string() + "' 2>'" +
                          err.string() + "' </dev/null";
  const int raw = std::system(cmd.c_str());
  CliRun r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return r;
}

int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

TEST(BenchCli, BadValuesExitTwoWithOneLine) {
  for (const char* args : {"--sizes abc", "--sizes 12x13", "--impls no-such-impl", "--device gpu9", "--dtype float16",
                           "--format xml", "--repeat 0", "--warmup 0", "--warmup-ms -1", "--streams -1",
                           "--sim-checks none", "--sim-checks memcheck+bogus", "--no-such-option"}) {
    SCOPED_TRACE(args);
    const CliRun r = run_gpulab(args);
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(lines(r.err), 1) << r.err;
  }
}

TEST(BenchCli, JsonRunPrintsOnlyTheReport) {
  const CliRun r = run_gpulab("--impls cpu-naive --device cpu --sizes 16,5x6x7 --repeat 2 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);  // throws if anything else is on stdout
  ASSERT_EQ(j["results"].size(), 2u);
  EXPECT_EQ(j["results"][1]["m"], 5);
  EXPECT_EQ(j["results"][1]["n"], 6);
  EXPECT_EQ(j["results"][1]["k"], 7);
  EXPECT_TRUE(j["results"][0]["verified"].get<bool>());
}

TEST(BenchCli, OutFileAndPlot) {
  const auto dir = std::filesystem::temp_directory_path();
  const auto csv = dir / ("gpulab_bench_" + std::to_string(::getpid()) + ".csv");
  const auto svg = dir / ("gpulab_bench_" + std::to_string(::getpid()) + ".svg");
  const CliRun r = run_gpulab("--impls cpu-naive --device cpu --sizes 8,16 --repeat 1 --format csv --out '" + csv.string() +
                           "' --plot '" + svg.string() + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(slurp(csv).rfind("impl,device,", 0), 0u);
  EXPECT_NE(slurp(svg).find("</svg>"), std::string::npos);
  std::filesystem::remove(csv);
  std::filesystem::remove(svg);
}

}  // namespace
