// What gpulab-simcc does for build systems (tools/simcc/options_file.hpp, depfile.hpp): reading nvcc's
// options files as CMake writes them, and naming the user's files in dependency files.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "depfile.hpp"
#include "options_file.hpp"

namespace {

using gpulab::simcc::expand_options_files;
using gpulab::simcc::remap_depfile;
using gpulab::simcc::split_options_text;
using Args = std::vector<std::string>;

TEST(OptionsFile, SplitsOnBlanksAndNewlinesWithCMakesQuoting) {
  EXPECT_EQ(split_options_text("-I/a -isystem=/b\n\t-DX=1  \"-I/with space\" '-DQ=\"q\"' a\\ b \"\"\n"),
            (Args{"-I/a", "-isystem=/b", "-DX=1", "-I/with space", "-DQ=\"q\"", "a b", ""}));
}

TEST(OptionsFile, ExpandsInPlaceAndNested) {
  const auto dir = std::filesystem::temp_directory_path() / ("simcc_optf_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "inner.rsp") << "-DINNER";
  std::ofstream(dir / "outer.rsp") << "-I/x --options-file " << (dir / "inner.rsp").string() << " -DOUTER";
  Args args = {"-c", "--options-file", (dir / "outer.rsp").string(), "a.cu", "-optf", (dir / "inner.rsp").string(),
               "--options-file=" + (dir / "inner.rsp").string()};
  std::string error;
  ASSERT_TRUE(expand_options_files(args, error)) << error;
  EXPECT_EQ(args, (Args{"-c", "-I/x", "-DINNER", "-DOUTER", "a.cu", "-DINNER", "-DINNER"}));
  std::filesystem::remove_all(dir);
}

TEST(OptionsFile, RefusesAMissingFileAndAFileThatNamesItself) {
  std::string error;
  Args missing = {"--options-file", "/nonexistent/simcc.rsp"};
  EXPECT_FALSE(expand_options_files(missing, error));
  EXPECT_NE(error.find("/nonexistent/simcc.rsp"), std::string::npos) << error;
  Args no_file = {"-optf"};
  EXPECT_FALSE(expand_options_files(no_file, error));
  const auto self = std::filesystem::temp_directory_path() / ("simcc_self_" + std::to_string(::getpid()) + ".rsp");
  std::ofstream(self) << "--options-file " << self.string();
  Args loop = {"--options-file", self.string()};
  EXPECT_FALSE(expand_options_files(loop, error));
  EXPECT_NE(error.find("16 deep"), std::string::npos) << error;
  std::filesystem::remove(self);
}

TEST(Depfile, CopiesBecomeTheirOriginalsAsWholePathsOnly) {
  const std::string text =
      "obj.o: /tmp/s-1/0-k.cu.cpp /usr/include/stdio.h \\\n"
      "  /tmp/s-1/includes/src/k.h /tmp/s-1/includes/src/k.hpp\n"
      "/tmp/s-1/includes/src/k.h:\n";
  const std::string out = remap_depfile(
      text, {{"/tmp/s-1/0-k.cu.cpp", "/src/k.cu"}, {"/tmp/s-1/includes/src/k.h", "/src/k.h"}});
  EXPECT_EQ(out,
            "obj.o: /src/k.cu /usr/include/stdio.h \\\n"
            "  /src/k.h /tmp/s-1/includes/src/k.hpp\n"
            "/src/k.h:\n");
}

TEST(Depfile, PathsAreComparedAndWrittenInMakesEscaping) {
  const std::string out = remap_depfile("o.o: /tmp/a\\ b/0-x.cu.cpp /tmp/h\\#1.h\n",
                                        {{"/tmp/a b/0-x.cu.cpp", "/my src/x$.cu"}, {"/tmp/h#1.h", "/inc/h.h"}});
  EXPECT_EQ(out, "o.o: /my\\ src/x$$.cu /inc/h.h\n");
}

}  // namespace
